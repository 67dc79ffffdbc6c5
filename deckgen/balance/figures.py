"""The shapes of the balance report's figures, as ``deckgen report --json`` writes them.

:mod:`~deckgen.balance.collect` makes the figures of one group (one variant, agent and table
size), :mod:`~deckgen.balance.report` gathers them into a :class:`Report`, and
:mod:`~deckgen.balance.text`, :mod:`~deckgen.balance.charts` and :mod:`~deckgen.balance.pdf`
read it. The report *is* its JSON (every figure is JSON-ready and written as it is), so these
are typed dictionaries: the type checker knows every key and what it holds, and the JSON needs
no conversion. Keys that the report adds in a later step (the Holm-adjusted p-values, the
summary) are in a ``total=False`` part.
"""

from __future__ import annotations

from typing import Any, TypedDict

# ---------------------------------------------------------------- one group (collect.py)


class Histogram(TypedDict):
    edges: list[int]               # bin edges in turns: [e0, e1), [e1, e2) ...
    counts: list[int]              # games that ended in each bin (capped games are left out)


class TurnFigures(TypedDict):
    mean: float
    median: float
    p90: float                     # a game's length (an int in the JSON)
    max: int
    histogram: Histogram
    capped: int
    turn_cap: int


class DrawFigures(TypedDict):
    per_game: float
    by_cause: dict[str, float]     # cause key (collect.cause_keys) -> cards per game; the causes that occur


class HandPoint(TypedDict):
    turn: int
    games: int                     # games still running at this turn
    median: float
    p10: float
    p90: float
    draw_pile: float


class HandFigures(TypedDict):
    step: int
    points: list[HandPoint]


class SeatRow(TypedDict):
    seat: int                      # 1 plays first
    wins: int
    rate: float
    ci: list[float]                # [low, high], 95 % Wilson


class _FirstPlayer(TypedDict):
    rate: float
    ci: list[float]
    advantage: float               # rate less the fair share
    p: float                       # score test against the fair share
    significant: bool              # ... after Holm over the whole report (before: the interval misses the fair share)


class FirstPlayer(_FirstPlayer, total=False):
    p_holm: float


class SeatFigures(TypedDict):
    finished: int
    fair: float
    by_seat: list[SeatRow]
    first_player: FirstPlayer


class KindFigures(TypedDict):
    played_per_game: float
    held_per_game: float
    hands_played: int              # finished games' seats that played the kind at least once
    wins: int                      # ... and won
    fair: float


class EventFigures(TypedDict):
    games: int
    count: int
    by_turn: list[int]             # per game-length bin, the last one at the turn cap
    by_seat: list[int]


class GroupFigures(TypedDict):
    players: int
    games: int
    finished: int
    stalled: int
    capped: int
    standing: int                  # finished games won by the last player standing, every other knocked out
    turns: TurnFigures
    draws: DrawFigures
    hands: HandFigures
    seats: SeatFigures
    kinds: dict[str, KindFigures]  # kind id -> figures
    events: dict[str, EventFigures]  # Event -> figures


class SkillFigures(TypedDict):
    """One skilled player's games at one table size."""

    players: int
    games: int
    finished: int
    wins: int
    rate: float
    ci: list[float]
    fair: float
    ratio: float                   # rate / fair
    p: float


# ---------------------------------------------------------------- the report (report.py)


class Group(GroupFigures):
    variant: str
    agent: str


class PooledKind(TypedDict):
    played_per_game: float
    held_per_game: float
    hands_played: int
    wins: int
    win_rate: float | None         # None: no finished hand played it
    ci: list[float] | None
    fair: float


class Pooled(TypedDict):
    variant: str
    agent: str
    kinds: dict[str, PooledKind]


class _Test(TypedDict):
    variant: str
    against: str
    agent: str
    players: int
    test: str                      # turns, draws, capped, first_player
    method: str
    p: float


class Test(_Test, total=False):
    p_holm: float
    significant: bool


class SkillGroup(SkillFigures):
    variant: str
    opponent: str
    p_holm: float                  # Holm over every skill figure of the report
    significant: bool
    answer: str                    # more, less or luck (the interval answered), or budget (it ended first)


class SkillReference(SkillFigures):
    deck: str                      # a bundled deck's name
    opponent: str
    p_holm: float
    significant: bool


class Skill(TypedDict):
    agent: str
    think: int
    games: int
    opponents: list[str]
    players: list[int]
    groups: list[SkillGroup]
    reference: list[SkillReference]    # measured once (deckgen/data/skill_reference.json), not played
    reference_names: dict[str, str]
    reference_games: int               # games behind each reference figure
    reference_think: int
    reference_command: str             # the command that measured them


class VariantInfo(TypedDict):
    id: str
    label: str
    deck: str
    changes: dict[str, Any]        # rule option -> value (any option's type)
    turn_cap: int


class Paragraph(TypedDict):
    text: str
    bullets: list[str]


class Methods(TypedDict):
    interval: str
    turns: str
    draws: str
    capped: str
    first_player: str
    adjustment: str
    alpha: float


class _Report(TypedDict):
    deck: str
    name: str
    lang: str
    seed: int
    games: int
    agents: list[str]
    players: list[int]
    variants: list[VariantInfo]
    kinds: dict[str, str]          # kind id -> name
    causes: dict[str, str]         # cause key -> words
    groups: list[Group]
    pooled_kinds: list[Pooled]
    tests: list[Test]
    methods: Methods


class Report(_Report, total=False):
    skill: Skill | None            # None: the section is left out (--skill-games 0)
    summary: list[Paragraph]
