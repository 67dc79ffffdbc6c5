"""Simulated play: many seeded games per table size, on every core (or a Dask cluster),
summarised for people.

Each game's seed comes from (seed, table size, game index) alone, so the results are the same
whatever the number of worker processes or machines (:mod:`deckgen.runner`).
"""

from __future__ import annotations

import math
import os
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import TYPE_CHECKING, Any, Literal

from deckgen.errors import DeckgenError, error
from deckgen.progress import Progress
from deckgen.rules import bots, expert
from deckgen.rules.engine import Game
from deckgen.rules.record import CAUSES, Cause, GameRecord, Outcome, rounded
from deckgen.rules.table import Table, compile_deck
from deckgen.runner import WAIT, Cluster, Work, run_tasks

if TYPE_CHECKING:
    from deckgen.model import Deck

CHUNK = 25            # games per task
SMALL_CHUNK = 16      # ... at most, near a turn budget; this many games or fewer in all run in this process

Task = tuple[int, int, int, int]      # (table size, first game, end, seed)


@dataclass(frozen=True)
class PlayOptions:
    """How many games to play and how: ``games`` per table size (matches, for
    :mod:`deckgen.rules.match`), from ``seed``, by ``agent`` bots (the expert with ``think``
    play-outs per decision), on ``workers`` processes (default: every core) or the Dask
    scheduler at ``cluster``; ``turn_budget``: see :func:`run`."""

    games: int = 200
    seed: int = 1
    agent: str = "random"
    workers: int | None = None
    turn_budget: int | None = None
    cluster: str | Cluster | None = None     # an address, or one with its TLS files (docs/cluster.md)
    think: int = expert.THINK


def game_seed(seed: int, players: int, index: int) -> str:
    return f"{seed}:{players}:{index}"


def play_record(table: Table, agent: Any, seed: int, players: int, index: int) -> GameRecord:
    """One game, reduced to the numbers the reports need."""
    g = Game(table, players, game_seed(seed, players, index), agent, record=bots.wants_events(agent)).run()
    return record_of(g)


def record_of(g: Game) -> GameRecord:
    """The counters of a played game."""
    held = [0] * len(g.table.kinds)
    for k in map(g.table.move_kind.__getitem__, map(_DOUBLE, chain.from_iterable(g.hands))):     # each card's kind
        held[k] += 1
    return GameRecord(
        _OUTCOMES[g.outcome or Outcome.CAPPED], g.winner, g.turns, g.decisions, g.draws, g.reshuffles, g.dry,
        g.knockouts, g.max_stack, g.max_hand, g.flex_plays, g.power_flips, tuple(g.plays_by_kind), tuple(g.by_cause),
        tuple(g.penalty_by_kind), tuple(map(tuple, g.plays_by_seat_kind)), tuple(held), tuple(g.trace),
        tuple(g.events), tuple(map(sum, g.plays_by_seat_kind)), tuple(g.acted_by_seat))


_DOUBLE = (2).__mul__                 # face -> its regular side's move
_OUTCOMES = {o.value: o for o in Outcome}     # Outcome(word) without the Enum's Python-level call


def _prepare(spec: tuple[Table, str, int]) -> tuple[Table, Any]:
    table, agent_name, think = spec
    return table, bots.make(agent_name, think)


def _run_chunk(state: tuple[Table, Any], task: Task) -> list[GameRecord]:
    table, agent = state
    players, start, stop, seed = task
    return [play_record(table, agent, seed, players, i) for i in range(start, stop)]


def parse_players(text: str, lo: int = 2, hi: int = 10) -> list[int]:
    """'4' or '2-10' -> table sizes; DeckgenError on anything else."""
    try:
        if "-" in text:
            a, b = (int(x) for x in text.split("-", 1))
        else:
            a = b = int(text)
    except ValueError:
        raise DeckgenError(error("players", "--players", f"'{text}' is not a player count or range",
                                 hint="write a number like 4 or a range like 2-10")) from None
    if a > b or a < 2:
        raise DeckgenError(error("players", "--players", f"'{text}' is not a valid range of at least 2 players",
                                 hint=f"this deck plays {lo}-{hi}"))
    return list(range(a, b + 1))


def run(table: Table, players: Iterable[int], options: PlayOptions = PlayOptions(),
        progress: Progress | None = None) -> dict[int, list[GameRecord]]:
    """Play up to ``options.games`` games at each table size; records per table size, in game order.

    With a ``turn_budget``, a table size stops taking games once the games so far have used
    that many turns (game i is kept when games 0..i-1 used fewer): long games cost fewer games,
    and the kept set depends only on the seed, never on timing or the number of cores.
    ``cluster``: the address of a Dask scheduler to play on instead of this machine's cores;
    ``think``: the expert's play-outs per decision."""
    bots.check(options.agent)
    feed = _Feed(list(players), options.games, options.seed, options.turn_budget)
    workers = options.workers or os.cpu_count() or 1
    if options.games * len(feed.players) <= SMALL_CHUNK:
        workers = 1
    work = Work(_prepare, (table, options.agent, options.think), _run_chunk)
    for task, recs in run_tasks(work, feed, workers, options.cluster):
        feed.take(task, recs, progress)
    return feed.out


class _Feed:
    """Hands out chunks of games, round robin over table sizes, and keeps results in order.

    Results must be taken in the order the tasks were handed out; then a table size's kept
    games are always its first k games, whatever ran in parallel."""

    def __init__(self, players: list[int], games: int, seed: int, budget: int | None):
        self.players, self.games, self.seed, self.budget = players, games, seed, budget
        self.out: dict[int, list[GameRecord]] = {n: [] for n in players}
        self.nxt = dict.fromkeys(players, 0)
        self.used = dict.fromkeys(players, 0)
        self.full: set[int] = set()
        self.flying = dict.fromkeys(players, 0)
        self.turn = 0

    def next_task(self) -> Task | Literal["wait"] | None:
        """The next chunk (table size, first game, end, seed), "wait" (a budgeted table size has
        work in flight), or None when every table size is done."""
        active = [n for n in self.players if self.nxt[n] < self.games and n not in self.full]
        if self.budget is not None:
            # a table size close to its budget gets one task at a time: no long game wasted
            ready = [n for n in active if not self.flying[n] or self._size(n) > 2]
            if not ready and active:
                return WAIT
            active = ready
        if not active:
            return None
        n = active[self.turn % len(active)]
        self.turn += 1
        size = CHUNK if self.budget is None else self._size(n)
        self.flying[n] += 1
        start = self.nxt[n]
        self.nxt[n] = min(start + size, self.games)
        return n, start, self.nxt[n], self.seed

    def _size(self, n: int) -> int:
        assert self.budget is not None            # sizes are only budgeted when there is a budget
        kept = self.out[n]
        est = (self.used[n] / len(kept)) if kept else 100.0
        return max(1, min(SMALL_CHUNK, int((self.budget - self.used[n]) / (4 * est))))

    def take(self, task: Task, recs: list[GameRecord], progress: Progress | None) -> None:
        n = task[0]
        self.flying[n] -= 1
        if n in self.full:
            return
        for rec in recs:
            if self.budget is not None and self.used[n] >= self.budget:
                self.full.add(n)
                break
            self.out[n].append(rec)
            self.used[n] += rec.turns
        if self.budget is not None and self.used[n] >= self.budget:
            self.full.add(n)
        if progress:
            total = self.games * len(self.players)
            done = sum(self.games if n in self.full else len(self.out[n]) for n in self.players)
            progress("simulating", min(done, total), total)


@dataclass(frozen=True)
class TurnFigures:
    """Turns per game: mean, median and 90th percentile (by rank)."""

    mean: float
    median: float
    p90: int

    def to_json(self) -> dict[str, float]:
        return {"mean": self.mean, "median": self.median, "p90": self.p90}


@dataclass(frozen=True)
class TableSummary:
    """The report of one table size. The last four figures are None when the deck's rules
    cannot produce them (no Mercy limit, no stacking, no Flex card, no Power cards): the JSON
    leaves them out."""

    players: int
    games: int
    finished: int
    stalled: int
    capped: int
    turns: TurnFigures
    decisions_per_game: float
    win_rate_by_seat: tuple[float, ...]
    draws_per_game: float
    draws_per_game_by_cause: Mapping[Cause, float]     # every cause, in CAUSES order
    reshuffles_per_game: float
    games_with_dry_draw_pile: int
    largest_hand: int
    plays_by_kind: Mapping[str, int]                   # kind id -> plays, the kinds in the deck or played
    knockouts_per_game: float | None = None
    largest_stack: int | None = None
    flex_plays_per_game: float | None = None
    power_flips_per_game: float | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "players": self.players,
            "games": self.games,
            "finished": self.finished,
            "stalled": self.stalled,
            "capped": self.capped,
            "turns": self.turns.to_json(),
            "decisions_per_game": self.decisions_per_game,
            "win_rate_by_seat": list(self.win_rate_by_seat),
            "draws_per_game": self.draws_per_game,
            "draws_per_game_by_cause": {c.value: v for c, v in self.draws_per_game_by_cause.items()},
            "reshuffles_per_game": self.reshuffles_per_game,
            "games_with_dry_draw_pile": self.games_with_dry_draw_pile,
            "largest_hand": self.largest_hand,
            "plays_by_kind": dict(self.plays_by_kind),
        }
        data.update({name: value for name, value in self.extras().items() if name != "largest_hand"})
        return data

    def extras(self) -> dict[str, float]:
        """The figures some decks have, by JSON name, in the text report's column order."""
        figures = (("knockouts_per_game", self.knockouts_per_game), ("largest_stack", self.largest_stack),
                   ("largest_hand", self.largest_hand), ("flex_plays_per_game", self.flex_plays_per_game),
                   ("power_flips_per_game", self.power_flips_per_game))
        return {name: value for name, value in figures if value is not None}


@dataclass(frozen=True)
class SimulationReport:
    """What ``deckgen simulate`` reports: the run's settings and one summary per table size."""

    deck: str
    agent: str
    think: int | None                 # the expert's play-outs per decision (None for the other agents)
    seed: int
    games_per_table_size: int
    turn_budget_per_table_size: int | None
    turn_cap: int
    tables: tuple[TableSummary, ...]

    def to_json(self) -> dict[str, Any]:
        """The report as ``deckgen simulate --json`` prints it."""
        return {
            "deck": self.deck,
            "agent": self.agent,
            **({"think": self.think} if self.think is not None else {}),
            "seed": self.seed,
            "games_per_table_size": self.games_per_table_size,
            "turn_budget_per_table_size": self.turn_budget_per_table_size,
            "turn_cap": self.turn_cap,
            "tables": [t.to_json() for t in self.tables],
        }


def summarize_table(table: Table, players: int, recs: Sequence[GameRecord]) -> TableSummary:
    """The report of one table size."""
    n = len(recs)
    outcomes = [r.outcome for r in recs]
    turns = sorted(r.turns for r in recs)
    wins = [0] * players
    for r in recs:
        if r.outcome == Outcome.FINISHED and r.winner is not None:
            wins[r.winner] += 1
    finished = outcomes.count(Outcome.FINISHED)
    kinds = [0] * len(table.kinds)
    causes = [0] * len(CAUSES)
    for r in recs:
        for i, c in enumerate(r.plays_by_kind):
            kinds[i] += c
        for i, c in enumerate(r.draws_by_cause):
            causes[i] += c
    opts = table.rules
    return TableSummary(
        players=players, games=n, finished=finished,
        stalled=outcomes.count(Outcome.STALLED), capped=outcomes.count(Outcome.CAPPED),
        turns=TurnFigures(rounded(statistics.fmean(turns)), rounded(statistics.median(turns)),
                          turns[max(0, math.ceil(0.9 * n) - 1)]),
        decisions_per_game=rounded(statistics.fmean(r.decisions for r in recs)),
        win_rate_by_seat=tuple(rounded(w / finished, 3) if finished else 0.0 for w in wins),
        draws_per_game=rounded(statistics.fmean(r.draws for r in recs)),
        draws_per_game_by_cause={c: rounded(causes[i] / n) for i, c in enumerate(Cause)},
        reshuffles_per_game=rounded(statistics.fmean(r.reshuffles for r in recs)),
        games_with_dry_draw_pile=sum(1 for r in recs if r.dry),
        largest_hand=max(r.max_hand for r in recs),
        plays_by_kind={table.kinds[i]: c for i, c in enumerate(kinds) if c or _in_deck(table, i)},
        knockouts_per_game=rounded(statistics.fmean(r.knockouts for r in recs)) if opts.mercy_limit else None,
        largest_stack=max(r.max_stack for r in recs) if opts.stacking != "off" else None,
        flex_plays_per_game=rounded(statistics.fmean(r.flex_plays for r in recs)) if table.any_flex else None,
        power_flips_per_game=rounded(statistics.fmean(r.power_flips for r in recs)) if opts.power_cards else None,
    )


def summarize(table: Table, players: int, recs: Sequence[GameRecord]) -> dict[str, Any]:
    """The report of one table size as JSON (:func:`summarize_table`'s, for readers of the JSON)."""
    return summarize_table(table, players, recs).to_json()


def _in_deck(table: Table, kind_index: int) -> bool:
    return any(table.move_kind[2 * f] == kind_index or (table.has_flex[f] and table.move_kind[2 * f + 1] == kind_index)
               for f in range(table.n_faces))


def simulate(deck: Deck, players: Iterable[int] | None = None, options: PlayOptions = PlayOptions(),
             progress: Progress | None = None) -> SimulationReport:
    """Simulate a deck over table sizes (on this machine, or the Dask scheduler at
    ``options.cluster``); ``.to_json()`` is what ``deckgen simulate --json`` prints."""
    table = compile_deck(deck)
    sizes = list(players or range(deck.players_min, deck.players_max + 1))
    recs = run(table, sizes, options, progress)
    return SimulationReport(
        deck=deck.id, agent=options.agent, think=options.think if options.agent == "expert" else None,
        seed=options.seed, games_per_table_size=options.games, turn_budget_per_table_size=options.turn_budget,
        turn_cap=table.rules.turn_cap, tables=tuple(summarize_table(table, n, recs[n]) for n in sizes))


_SHORT = {"knockouts_per_game": "KO", "largest_stack": "stack", "largest_hand": "hand",
          "flex_plays_per_game": "flex", "power_flips_per_game": "flips"}


def to_text(rep: SimulationReport, names: Mapping[str, str] | None = None) -> str:
    """The simulation report as a table for people; ``names``: kind id -> display name."""
    lines = [f"{rep.deck}: {rep.games_per_table_size} games per table size, agent {rep.agent}, seed {rep.seed}"]
    head = f"{'players':>7} {'fin':>5} {'stall':>5} {'cap':>4} {'turns mean/med/p90':>20} {'draws':>7} {'reshuf':>6}"
    extra_keys = list(rep.tables[0].extras())
    head += "".join(f" {_SHORT[k]:>6}" for k in extra_keys)
    lines.append(head)
    for t in rep.tables:
        tr = t.turns
        row = (f"{t.players:>7} {t.finished:>5} {t.stalled:>5} {t.capped:>4} "
               f"{tr.mean:>8.1f}/{tr.median:>5.0f}/{tr.p90:>5} {t.draws_per_game:>7.1f} "
               f"{t.reshuffles_per_game:>6.2f}")
        extras = t.extras()
        row += "".join(f" {extras[k]:>6}" for k in extra_keys)
        lines.append(row)
    lines.append("win rate by seat (seat 1 plays first):")
    for t in rep.tables:
        lines.append(f"  {t.players:>2}: " + " ".join(f"{w:.2f}" for w in t.win_rate_by_seat))
    lines.append("cards drawn per game, by cause:")
    used = [c for c in Cause if any(t.draws_per_game_by_cause[c] for t in rep.tables)]
    if used:
        lines.append("  players " + " ".join(f"{c:>9}" for c in used))
        for t in rep.tables:
            lines.append(f"  {t.players:>7} " + " ".join(f"{t.draws_per_game_by_cause[c]:>9.1f}" for c in used))
    lines.append("plays per card kind (all table sizes):")
    totals: dict[str, int] = {}
    for t in rep.tables:
        for k, v in t.plays_by_kind.items():
            totals[k] = totals.get(k, 0) + v
    shown = {k: (names or {}).get(k, k) for k in totals}
    width = max([24, *(len(n) for n in shown.values())])
    for k, v in totals.items():
        lines.append(f"  {shown[k]:<{width}} {v:>8}")
    return "\n".join(lines)
