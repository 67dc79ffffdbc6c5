"""``deckgen report``: simulate a deck (and its variants) and gather every figure of the report.

:func:`build_report` returns one :class:`~deckgen.balance.figures.Report` (a JSON-ready dict):
the variants, one group of figures per variant, agent and table size, the pooled card-kind
figures, the tests between variants and the plain-words summary. :func:`write_report` turns it into the PDF.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckgen import stats
from deckgen.balance import collect
from deckgen.balance import text as T
from deckgen.balance.figures import (
    Group,
    GroupFigures,
    Pooled,
    Report,
    Skill,
    SkillFigures,
    SkillGroup,
    SkillReference,
    Test,
)
from deckgen.errors import DeckgenError, DeckHasErrors, error
from deckgen.model import Deck
from deckgen.options import OPTIONS, parse_value
from deckgen.progress import Progress
from deckgen.rules.record import TRACE_EVERY, GameRecord

if TYPE_CHECKING:
    from deckgen.rules.table import Table
    from deckgen.runner import Cluster

DEFAULT_AGENTS = ("random", "greedy")
SKILLED = "expert"                     # who plays the skill section's one skilled seat
OPPONENTS = ("greedy", "random")       # ... against a table of these
REFERENCES = ("classic", "no-mercy")   # bundled decks whose skill figures the text cites
REFERENCE_PLAYERS = 4
SKILL_GAMES = 96                       # at most this many games per table size and opponent (docs/expert.md)
SKILL_LOOKS = (8, 16, 32, 64, 96, 128, 192, 256, 384, 512)   # ... looked at after these many
SKILL_NEAR = 0.05                      # an interval within this of luck answers "no clear edge"
SKILL_THINK = 6
REFERENCE_DATA = "skill_reference.json"  # measured reference figures (benchmarks/skill_reference.py)
TESTS = {"turns": "Mann-Whitney U", "draws": "Mann-Whitney U", "capped": "Fisher exact",
         "first_player": "Fisher exact"}


@dataclass(frozen=True)
class ReportOptions:
    games: int = 200                       # per table size and agent
    seed: int = 1
    players: tuple[int, ...] | None = None  # default: the deck's whole range
    agents: tuple[str, ...] = DEFAULT_AGENTS
    lang: str | None = None                # default: the deck's language
    vary: tuple[str, ...] = ()             # "OPTION=V1,V2,..."
    compare: tuple[str, ...] = ()          # other manifests
    workers: int | None = None
    cluster: str | Cluster | None = None   # a Dask scheduler's address (and TLS files): play the games there
    skill_games: int = SKILL_GAMES         # "Does skill matter?": games per table size and opponent (0: none)
    think: int = SKILL_THINK               # the expert's play-outs per decision there
    skill_players: tuple[int, ...] | None = None  # its table sizes (default: the fewest, 4 and the most)


@dataclass(frozen=True)
class Variant:
    id: str                                # "A", "B", ... (A is the deck as written)
    label: str
    deck: Deck
    changes: Mapping[str, Any] = field(default_factory=dict)


def parse_vary(text: str) -> tuple[str, list[Any]]:
    """'duel_penalty_max=2,4,8' -> ('duel_penalty_max', [2, 4, 8]); DeckgenError (exit 2) for an
    unknown option or value, listing the options or values there are."""
    name, sep, values = text.partition("=")
    name = name.strip()
    if not sep or not name or not values.strip():
        raise DeckgenError(error("option", "--vary", f"'{text}' is not OPTION=V1,V2,...",
                                 hint="e.g. --vary duel_penalty_max=2,4,8; options: " + ", ".join(OPTIONS)))
    parsed = [parse_value(name, v) for v in values.split(",") if v.strip()]
    unique: list[Any] = []
    for v in parsed:
        if v not in unique:
            unique.append(v)
    return name, unique


def _fmt(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _load_checked(ref: str | Path) -> Deck:
    """The deck, or its findings as DeckHasErrors (exit 1) when it has errors."""
    from deckgen.check import check
    from deckgen.stages import CheckOptions

    rep = check(ref, CheckOptions(simulate=False))
    if rep.deck is None or rep.errors:
        raise DeckHasErrors(rep.errors or rep.findings)
    return rep.deck


def make_variants(deck: Deck, vary: Sequence[str], compare: Sequence[Deck], lang: str) -> list[Variant]:
    """The deck as written, then one variant per --vary value that differs from it, then the
    decks to compare with."""
    varied = [parse_vary(v) for v in vary]
    opts = deck.rule_options
    current = opts.as_dict()
    own = ", ".join(f"{name}={_fmt(current[name])}" for name, _ in varied)
    base_label = T.w(lang, "variant_deck") + (f" ({own})" if own else "")
    out = [Variant("A", base_label, deck)]
    for name, values in varied:
        for value in values:
            if value == current[name]:
                continue
            changed = dataclasses.replace(deck, rule_options=opts.replace(**{name: value}))
            out.append(Variant(_letter(len(out)), f"{name}={_fmt(value)}", changed, {name: value}))
    for other in compare:
        label = other.name(lang) + (f" ({other.source.name})" if other.source else "")
        out.append(Variant(_letter(len(out)), label, other))
    return out


def _letter(i: int) -> str:
    return chr(ord("A") + i) if i < 26 else f"V{i + 1}"


def deck_kinds(decks: Iterable[Deck], lang: str) -> dict[str, str]:
    """Kind id -> name, for the kinds that are on some card (regular or flex side)."""
    out: dict[str, str] = {}
    for d in decks:
        used = {c.kind for c in d.cards} | {c.flex.kind for c in d.cards if c.flex}
        for k, kind in d.kinds.items():
            if k in used and k not in out:
                out[k] = kind.names.get(lang)
    return out


CHUNK = 8              # games per task
SKILL_CHUNK = 2        # skill games per task

GameKey = tuple[str, str, int]                   # (variant id, agent, table size)
SkillKey = tuple[str, str, int]                  # (variant id or "ref:<deck>", opponent, table size)
SkillResult = tuple[str, int, int]               # (outcome, winner or -1, the skilled seat)
GameTask = tuple[str, str, int, int, int, int]   # (variant id, agent, table size, first game, end, seed)
SkillTask = tuple[str, str, str, int, int, int, int]   # ("skill", variant id, opponent, size, first, end, seed)


@dataclass(frozen=True)
class Played:
    """Every game of a report, in game order: the records of the main sections, and the
    results of the "Does skill matter?" games."""

    games: Mapping[GameKey, list[GameRecord]]
    skill: Mapping[SkillKey, list[SkillResult]] = field(default_factory=dict)
    answers: Mapping[SkillKey, str] = field(default_factory=dict)     # more, less, luck or budget


def _prepare(spec: tuple[Mapping[str, Table], int]) -> tuple[Mapping[str, Table], dict[str, Any], int]:
    from deckgen.rules import bots

    tables, think = spec
    return tables, {a: bots.make(a, think) for a in bots.AGENTS}, think     # every bot, by its name


def _play(state: tuple[Mapping[str, Table], dict[str, Any], int],
          task: GameTask | SkillTask) -> list[GameRecord] | list[SkillResult]:
    """A chunk of games: records (the report's main sections) or, for a "skill" task, one
    (outcome, winner, skilled seat) per game."""
    from deckgen.rules.simulate import play_record

    tables, agents, think = state
    if len(task) == 7:
        _, vid, opponent, n, start, stop, seed = task
        return [skill_game(tables[vid], agents[opponent], think, seed, n, i) for i in range(start, stop)]
    vid, agent, n, start, stop, seed = task
    table, player = tables[vid], agents[agent]
    return [play_record(table, player, seed, n, i) for i in range(start, stop)]


def skill_seed(seed: int, players: int, index: int) -> str:
    return f"{seed}:skill:{players}:{index}"


def skill_game(table: Table, opponent: Any, think: int, seed: int, players: int, index: int) -> SkillResult:
    """One game with one expert among ``opponent`` bots, at seat ``index % players`` (so every
    seat gets its turn): (outcome, winner or -1, the expert's seat)."""
    from deckgen.rules.engine import Game
    from deckgen.rules.expert import ExpertAgent

    seat = index % players
    bots = [opponent] * players
    bots[seat] = ExpertAgent(think)
    g = Game(table, players, skill_seed(seed, players, index), bots, record=True).run()
    return g.outcome or collect.CAPPED, -1 if g.winner is None else g.winner, seat


def _tasks(variants: Sequence[Variant], players: Sequence[int], options: ReportOptions) -> list[GameTask]:
    """The main sections' games, the largest tables (the longest games) first."""
    return [(v.id, agent, n, start, min(start + CHUNK, options.games), options.seed)
            for n in sorted(players, reverse=True) for start in range(0, options.games, CHUNK)
            for v in variants for agent in options.agents]


def skill_looks(budget: int) -> tuple[int, ...]:
    """The skill section's looks within a budget of games: the standard ones below it, then the budget."""
    return (*(n for n in SKILL_LOOKS if n < budget), budget) if budget > 0 else ()


def skill_answer(results: Sequence[SkillResult], players: int, looks: int) -> str | None:
    """Whether an expert's games answer "does skill matter here": "more" or "less" than luck (its
    interval, at 95 % shared out over the looks, leaves the fair share out), "luck" (the interval
    lies within SKILL_NEAR of it), or None (not yet)."""
    from deckgen.sequential import normal_quantile
    from deckgen.stats import wilson

    finished = [r for r in results if r[0] == "finished"]
    n = len(finished)
    if not n:
        return None
    wins = sum(1 for _, winner, seat in finished if winner == seat)
    fair = 1 / players
    lo, hi = wilson(wins, n, normal_quantile(1 - stats.ALPHA / (2 * max(1, looks))))
    if lo > fair:
        return "more"
    if hi < fair:
        return "less"
    if fair - SKILL_NEAR <= lo and hi <= fair + SKILL_NEAR:
        return "luck"
    return None


@dataclass
class _SkillCell:
    got: dict[int, list[SkillResult]] = field(default_factory=dict)
    target: int = 0
    sent: int = 0
    done: bool = False
    answer: str | None = None


class _Games:
    """The report's task source: every main game, and each skill figure's games in looks until its
    interval answers or the budget ends (skill chunks first: each costs as much as hundreds of others)."""

    def __init__(self, main: list[GameTask], skill: list[tuple[str, int]], options: ReportOptions):
        self.main = list(main)
        self.seed = options.seed
        self.looks = skill_looks(options.skill_games)
        self.cells = {(vid, opp, n): _SkillCell(target=self.looks[0]) for vid, n in skill for opp in OPPONENTS}

    def next_task(self) -> GameTask | SkillTask | str | None:
        from deckgen.runner import WAIT

        for (vid, opp, n), c in self.cells.items():
            if not c.done and c.sent < c.target:
                start = c.sent
                c.sent = min(start + SKILL_CHUNK, c.target)
                return "skill", vid, opp, n, start, c.sent, self.seed
        if self.main:
            return self.main.pop(0)
        return WAIT if any(not c.done for c in self.cells.values()) else None

    def take(self, task: GameTask | SkillTask, results: list[Any]) -> None:
        if len(task) != 7:
            return
        _, vid, opp, n, start, _, _ = task
        c = self.cells[(str(vid), str(opp), int(n))]
        c.got[int(start)] = results
        if sum(len(r) for r in c.got.values()) < c.target:
            return
        played = self.results((str(vid), str(opp), int(n)))
        c.answer = skill_answer(played, int(n), len(self.looks))
        nxt = next((x for x in self.looks if x > len(played)), None)
        if c.answer is not None or nxt is None:
            c.done = True
            c.answer = c.answer or "budget"
        else:
            c.target = nxt

    def results(self, key: SkillKey) -> list[SkillResult]:
        got = self.cells[key].got
        return [r for start in sorted(got) for r in got[start]]


def simulate_variants(variants: Sequence[Variant], players: Sequence[int], options: ReportOptions,
                      progress: Progress | None = None) -> Played:
    """Every variant's games, and the skill games.

    Each game is seeded from (seed, table size, game index) as in ``deckgen simulate``, so the
    records do not depend on the number of workers or machines (``options.cluster``). One run
    plays every variant and agent, the largest tables (the longest games) first, so no core
    waits long at the end; the skill figures play in looks until each answers (:class:`_Games`)."""
    from deckgen.rules.table import compile_deck
    from deckgen.runner import Work, run_tasks

    tables = {v.id: compile_deck(v.deck) for v in variants}
    source = _Games(_tasks(variants, players, options), _skill_tables(variants, players, options), options)
    games: dict[GameKey, dict[int, list[GameRecord]]] = {}
    total = sum(t[4] - t[3] for t in source.main)
    done = 0
    work = Work(_prepare, (tables, options.think), _play)
    for task, recs in run_tasks(work, source, options.workers, options.cluster, ordered=False):
        source.take(task, recs)
        if len(task) != 7:
            games.setdefault((task[0], task[1], task[2]), {})[task[3]] = recs
            done += len(recs)
            if progress:
                progress("simulating", done, total)
    return Played({key: [r for start in sorted(chunks) for r in chunks[start]] for key, chunks in games.items()},
                  {key: source.results(key) for key in source.cells},
                  {key: str(c.answer) for key, c in source.cells.items()})


def reference_data() -> dict[str, Any]:
    """The measured reference figures shipped with deckgen (benchmarks/skill_reference.py made them)."""
    import json

    path = Path(__file__).resolve().parent.parent / "data" / REFERENCE_DATA      # deckgen/data, in the wheel too
    return dict(json.loads(path.read_text(encoding="utf-8")))


def skill_sizes(players: Sequence[int], options: ReportOptions) -> list[int]:
    """The table sizes the skill section plays: ``options.skill_players`` (those of the report),
    by default the fewest players, 4 and the most, which keeps a default report fast."""
    if options.skill_players is not None:
        return [n for n in players if n in options.skill_players] or list(players)
    return sorted({min(players), max(players)} | ({REFERENCE_PLAYERS} & set(players)))


def _skill_tables(variants: Sequence[Variant], players: Sequence[int], options: ReportOptions) -> list[tuple[str, int]]:
    if not options.skill_games:
        return []
    return [(v.id, n) for n in sorted(skill_sizes(players, options), reverse=True) for v in variants]


def build_report(ref: str | Path, options: ReportOptions = ReportOptions(),
                 progress: Progress | None = None) -> Report:
    """Check the deck (and the decks to compare), simulate every variant, gather the figures."""

    deck = _load_checked(ref)
    others = [_load_checked(c) for c in options.compare]
    lang = T.lang_of(options.lang or deck.language)
    if options.skill_games < 0 or options.think < 1:
        raise DeckgenError(error("option", "--skill-games" if options.skill_games < 0 else "--think",
                                 "must be at least " + ("0" if options.skill_games < 0 else "1"),
                                 hint="--skill-games 0 leaves the section out"))
    from deckgen.rules import bots

    for a in options.agents:
        bots.check(a)
    variants = make_variants(deck, options.vary, others, lang)
    decks = [deck, *others]
    lo, hi = max(d.players_min for d in decks), min(d.players_max for d in decks)
    players = list(options.players or range(lo, hi + 1))
    if not players:
        raise DeckgenError(error("players", "--compare", "the decks compared share no table size",
                                 hint="; ".join(f"{d.id}: {d.players_min}-{d.players_max} players" for d in decks)))
    played = simulate_variants(variants, players, options, progress)
    return figures(deck, variants, played, players, options, lang)


def figures(deck: Deck, variants: Sequence[Variant], played: Played, players: Sequence[int], options: ReportOptions,
            lang: str) -> Report:
    """Every figure of the report from the games (no simulation here)."""
    from deckgen.rules.table import compile_deck

    kind_names = deck_kinds([v.deck for v in variants], lang)
    tables = {v.id: compile_deck(v.deck) for v in variants}
    groups, pooled = _groups(variants, tables, played, players, options.agents, kind_names)
    # the first player's advantage: "significant" after Holm over every group of the report
    firsts = [g["seats"]["first_player"] for g in groups]
    for fp, adj in zip(firsts, stats.holm([f["p"] for f in firsts])):
        fp["p_holm"] = round(adj, 6)
        fp["significant"] = adj < stats.ALPHA
    tests = _tests(variants, played, players, options.agents)
    causes = [c for c in collect.cause_keys(list(kind_names))
              if any(c in g["draws"]["by_cause"] for g in groups)]
    rep: Report = {
        "deck": deck.id,
        "name": deck.name(lang),
        "lang": lang,
        "seed": options.seed,
        "games": options.games,
        "agents": list(options.agents),
        "players": list(players),
        "variants": [{"id": v.id, "label": v.label, "deck": v.deck.id, "changes": dict(v.changes),
                      "turn_cap": tables[v.id].rules.turn_cap} for v in variants],
        "kinds": kind_names,
        "causes": {c: T.cause(lang, c, kind_names) for c in causes},
        "groups": groups,
        "pooled_kinds": pooled,
        "tests": tests,
        "methods": {"interval": "Wilson score, 95 %", "turns": TESTS["turns"], "draws": TESTS["draws"],
                    "capped": TESTS["capped"], "first_player": TESTS["first_player"],
                    "adjustment": "Holm", "alpha": stats.ALPHA},
    }
    rep["skill"] = skill_figures(variants, played, players, options, lang)
    rep["summary"] = T.summary(rep) + T.skill_summary(rep)
    return rep


def _groups(variants: Sequence[Variant], tables: Mapping[str, Table], played: Played, players: Sequence[int],
            agents: Sequence[str], kind_names: Mapping[str, str]) -> tuple[list[Group], list[Pooled]]:
    """The figures of every variant, agent and table size, and the card kinds pooled over the
    table sizes of each variant and agent."""
    groups: list[Group] = []
    pooled: list[Pooled] = []
    for agent in agents:
        for n in players:
            recs = [played.games[(v.id, agent, n)] for v in variants]
            axis = collect.axis_for(recs, max(t.rules.turn_cap for t in tables.values()), TRACE_EVERY)
            for v, rs in zip(variants, recs):
                t = tables[v.id]
                g = collect.group_figures(rs, n, t.kinds, dataclasses.replace(axis, turn_cap=t.rules.turn_cap))
                g["kinds"] = {k: f for k, f in g["kinds"].items() if k in kind_names}
                groups.append({"variant": v.id, "agent": agent, **g})
        for v in variants:
            mine: list[GroupFigures] = [g for g in groups if g["variant"] == v.id and g["agent"] == agent]
            pooled.append({"variant": v.id, "agent": agent, "kinds": collect.pooled_kinds(mine, list(kind_names))})
    return groups, pooled


def _tests(variants: Sequence[Variant], played: Played, players: Sequence[int], agents: Sequence[str]) -> list[Test]:
    """Every variant against the first, per agent, table size and test, with Holm's adjustment
    over all of them."""
    tests: list[Test] = []
    base = variants[0]
    for v in variants[1:]:
        for agent in agents:
            for n in players:
                raw = collect.compare(played.games[(base.id, agent, n)], played.games[(v.id, agent, n)])
                for name, p in raw.items():
                    tests.append({"variant": v.id, "against": base.id, "agent": agent, "players": n, "test": name,
                                  "method": TESTS[name], "p": p})
    for test, adj in zip(tests, stats.holm([x["p"] for x in tests])):
        test["p"] = round(test["p"], 6)
        test["p_holm"] = round(adj, 6)
        test["significant"] = adj < stats.ALPHA
    return tests


def skill_figures(variants: Sequence[Variant], played: Played, players: Sequence[int], options: ReportOptions,
                  lang: str) -> Skill | None:
    """The "Does skill matter?" figures: per variant, opponent and table size, the expert's win
    rate and whether its games answered (or the budget ended first); classic UNO's and No Mercy's
    measured reference figures at 4 players beside them. "Significant" after Holm over all of them."""
    if not options.skill_games:
        return None
    sizes = skill_sizes(players, options)
    mine = [(v.id, opp, collect.skill_group(played.skill[(v.id, opp, n)], n))
            for v in variants for opp in OPPONENTS for n in sizes]
    data = reference_data()
    refs = [(r["deck"], r["opponent"], {k: r[k] for k in SkillFigures.__annotations__})
            for r in data["reference"] if r["deck"] in REFERENCES and r["opponent"] in OPPONENTS]
    adjusted = [(round(adj, 6), adj < stats.ALPHA) for adj in stats.holm([f["p"] for _, _, f in [*mine, *refs]])]
    groups: list[SkillGroup] = [{"variant": vid, "opponent": opp, **f, "p_holm": p, "significant": sig,
                                 "answer": played.answers.get((vid, opp, f["players"]), "budget")}
                                for (vid, opp, f), (p, sig) in zip(mine, adjusted)]
    reference: list[SkillReference] = [{"deck": name, "opponent": opp, **f, "p_holm": p, "significant": sig}  # type: ignore[typeddict-item]
                                       for (name, opp, f), (p, sig) in zip(refs, adjusted[len(mine):])]
    from deckgen.manifest import load_deck

    names = {name: load_deck(name).name(lang) for name in REFERENCES}
    return {"agent": SKILLED, "think": options.think, "games": options.skill_games, "opponents": list(OPPONENTS),
            "players": sizes, "groups": groups, "reference": reference, "reference_names": names,
            "reference_games": data["games"], "reference_think": data["think"], "reference_command": data["command"]}


def default_path(deck_id: str) -> Path:
    from deckgen import outputs

    return outputs.report_pdf(deck_id)


def write_report(rep: Report, path: Path, progress: Progress | None = None) -> Path:
    """The report as a PDF, written atomically."""
    from deckgen.atomic import write_bytes
    from deckgen.balance.pdf import report_pdf

    return write_bytes(Path(path), report_pdf(rep, progress))
