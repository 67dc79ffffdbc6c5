"""A candidate of ``deckgen tune``: the deck with some counts and rule options changed, checked by
the manifest's own rules, and its games played until every target's interval answers.

Each candidate is the original manifest's data with the changes applied and read again by the
manifest parser (so a written candidate is exactly the deck that was played); one that the
parser or the static checks refuse is skipped and counted. The games of a batch of candidates
run through :mod:`deckgen.runner` (this machine's cores or ``--cluster``), every candidate
on the same seeds, in looks of :data:`LOOKS` games per table size until each target is clearly
met or clearly missed (95 % intervals), or the look budget ends.
"""

from __future__ import annotations

import copy
import math
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from deckgen.stats import wilson
from deckgen.tune.space import Target, Variable

if TYPE_CHECKING:
    from deckgen.model import Deck
    from deckgen.rules.table import Table
    from deckgen.runner import Cluster

LOOKS: Final = (16, 32, 64, 128, 256)     # games per table size at each look
CELL_TURNS: Final = 60_000                # ... and at most this many turns at one table size
EXPERT_GAMES: Final = (8, 16, 32, 64)     # games of the expert at the middle size, for expert_edge
EXPERT_THINK: Final = 6
Z: Final = 1.959963984540054


def apply(data: Mapping[str, Any], changes: Mapping[str, Any], variables: Sequence[Variable]) -> dict[str, Any]:
    """The manifest's data with ``changes`` (variable name -> value): each ``[[cards]]`` entry of a
    counted kind gets the count (0 takes it out), each option is set under ``[rules.options]``."""
    out = copy.deepcopy(dict(data))
    by_name = {v.name: v for v in variables}
    for name, value in changes.items():
        v = by_name[name]
        if v.kind is not None:
            cards = [dict(e) for e in out.get("cards", [])]
            kept = []
            for e in cards:
                if e.get("kind") == v.kind:
                    if value == 0:
                        continue
                    e["count"] = value
                kept.append(e)
            out["cards"] = kept
        else:
            rules = dict(out.get("rules") or {})
            options = dict(rules.get("options") or {})
            options[str(v.option)] = value
            rules["options"] = options
            out["rules"] = rules
    return out


def candidate_deck(data: Mapping[str, Any], path: Path) -> tuple[Deck | None, str | None]:
    """The deck of this manifest data, or why the manifest's own rules refuse it (a parse error, a
    static check's error, a rule option against the cards)."""
    from deckgen.check import static_checks
    from deckgen.manifest.parser import parse_manifest
    from deckgen.rules.checks import card_rule_findings

    got = parse_manifest(dict(data), path)
    if got.deck is None or any(f.is_error for f in got.findings):
        bad = next((f for f in got.findings if f.is_error), None)
        return None, bad.format() if bad else "the manifest cannot be read"
    errors = [f for f in (*static_checks(got.deck), *card_rule_findings(got.deck)) if f.is_error]
    if errors:
        return None, errors[0].format()
    return got.deck, None


# ---------------------------------------------------------------- figures with intervals

@dataclass(frozen=True)
class Figure:
    """A target's figure for one candidate: the value at its worst table size, its 95 % interval,
    the table size, and whether the target is met."""

    value: float
    low: float
    high: float
    players: int
    met: bool
    shortfall: float

    def to_json(self) -> dict[str, Any]:
        return {"value": round(self.value, 4), "interval": [round(self.low, 4), round(self.high, 4)],
                "players": self.players, "met": self.met, "shortfall": round(self.shortfall, 4)}


def median_interval(turns: Sequence[int], z: float = Z) -> tuple[float, float, float]:
    """The median and a distribution-free interval for it from the order statistics."""
    s = sorted(turns)
    n = len(s)
    if not n:
        return 0.0, 0.0, math.inf
    half = z * math.sqrt(n) / 2
    lo = max(0, math.floor(n / 2 - half) - 1)
    hi = min(n - 1, math.ceil(n / 2 + half))
    mid = s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
    return float(mid), float(s[lo]), float(s[hi])


Game = tuple[str, int, int, int]          # (outcome, winner or -1, turns, 1 when decided before all played)
Skill = tuple[str, int, int]              # (outcome, winner or -1, the expert's seat)


def cell_figures(target: Target, games: Sequence[Game], players: int) -> tuple[float, float, float] | None:
    """(value, low, high) of a target over one table size's games (None: not a figure of these games)."""
    from deckgen.verdict import classic_median

    n = len(games)
    if not n or target.name == "expert_edge":
        return None
    if target.name in ("median_turns", "length_ratio"):
        done = [t for outcome, _, t, _ in games if outcome == "finished"] or [t for _, _, t, _ in games]
        mid, lo, hi = median_interval(done)
        ref = classic_median("random", players) if target.name == "length_ratio" else 1.0
        return mid / ref, lo / ref, hi / ref
    if target.name == "finished":
        k = sum(1 for g in games if g[0] == "finished")
        return (k / n, *wilson(k, n, Z))
    if target.name == "early":
        k = sum(g[3] for g in games)
        return (k / n, *wilson(k, n, Z))
    wins = [0] * players                  # seat_spread
    for outcome, winner, _, _ in games:
        if outcome == "finished" and winner >= 0:
            wins[winner] += 1
    f = sum(wins)
    if not f:
        return 1.0, 0.0, 1.0
    fair = 1 / players
    spans = [wilson(w, f, Z) for w in wins]
    value = max(abs(w / f - fair) for w in wins)
    low = max(max(0.0, lo - fair, fair - hi) for lo, hi in spans)
    high = max(max(hi - fair, fair - lo) for lo, hi in spans)
    return value, low, high


def skill_figures(results: Sequence[Skill], players: int) -> tuple[float, float, float]:
    finished = [r for r in results if r[0] == "finished"]
    n = len(finished)
    wins = sum(1 for _, winner, seat in finished if winner == seat)
    fair = 1 / players
    lo, hi = wilson(wins, n, Z)
    return (wins / n - fair if n else -fair), lo - fair, hi - fair


# ---------------------------------------------------------------- playing a batch

BOTH: Final = ("finished", "early")       # targets played by random and greedy players, as the verdict does


@dataclass
class _Cell:
    cand: int
    players: int
    agent: str                            # random, greedy (the targets of BOTH) or expert (expert_edge)
    looks: tuple[int, ...]
    got: list[Any] = field(default_factory=list)
    back: dict[int, list[Any]] = field(default_factory=dict)
    target: int = 0
    sent: int = 0
    done: bool = False

    @property
    def expert(self) -> bool:
        return self.agent == "expert"

    def judges(self, t: Target) -> bool:
        """Whether this cell's games give target ``t``'s figure."""
        if t.name == "expert_edge":
            return self.expert
        return self.agent == "random" or (self.agent == "greedy" and t.name in BOTH)

    def turns(self) -> int:
        return sum(g[2] for g in self.got) if not self.expert else 0


class _Batch:
    """The task source of a batch of candidates: chunks of each cell's games up to its look."""

    def __init__(self, cells: list[_Cell], targets: Sequence[Target], seed: int, progress: Any):
        self.cells, self.targets, self.seed, self.progress = cells, targets, seed, progress
        self.lock = threading.Lock()
        self.games = 0

    def next_task(self) -> Any:
        from deckgen.runner import WAIT

        with self.lock:
            for i, c in enumerate(self.cells):
                if c.done:
                    continue
                if c.target == 0:
                    c.target = c.looks[0]
                if c.sent < c.target:
                    size = min(4 if c.expert else 16, c.target - c.sent)
                    start = c.sent
                    c.sent += size
                    return (i, c.cand, c.agent, c.players, start, start + size, self.seed)
            return WAIT if any(not c.done for c in self.cells) else None

    def take(self, task: Any, results: list[Any]) -> None:
        with self.lock:
            c = self.cells[task[0]]
            c.back[task[4]] = results
            while len(c.got) in c.back:
                c.got.extend(c.back.pop(len(c.got)))
            self.games += len(results)
            if len(c.got) == c.target:
                nxt = next((n for n in c.looks if n > len(c.got)), None)
                if nxt is None or self.clear(c) or c.turns() >= CELL_TURNS:
                    c.done = True
                else:
                    c.target = nxt
            if self.progress:
                self.progress("games", self.games)

    def clear(self, c: _Cell) -> bool:
        for t in self.targets:
            if not c.judges(t):
                continue
            got = skill_figures(c.got, c.players) if c.expert else cell_figures(t, c.got, c.players)
            if got is not None and not t.clear(got[1], got[2]):
                return False
        return True


def _prepare(spec: tuple[tuple[Table, ...], int]) -> tuple[tuple[Table, ...], Any, Any, int]:
    from deckgen.rules.bots import make

    tables, think = spec
    return tables, make("random"), make("greedy"), think


def _play(state: tuple[tuple[Table, ...], Any, Any, int], task: tuple[Any, ...]) -> list[Any]:
    from deckgen.balance.report import skill_game
    from deckgen.rules.simulate import play_record
    from deckgen.verdict import decided_early

    tables, rand, greedy, think = state
    _, cand, kind, players, start, stop, seed = task
    table = tables[cand]
    if kind == "expert":
        return [skill_game(table, greedy, think, seed, players, i) for i in range(start, stop)]
    out = []
    who, seed = (rand, seed) if kind == "random" else (greedy, seed * 1_000_003 + 17)    # the verdict's seeds
    for i in range(start, stop):
        r = play_record(table, who, seed, players, i)
        out.append((str(r.outcome), -1 if r.winner is None else r.winner, r.turns, int(decided_early(r, players))))
    return out


@dataclass(frozen=True)
class Evaluated:
    """One candidate's figures: per target, and the games played."""

    figures: dict[str, Figure]
    games: int

    @property
    def met(self) -> bool:
        return all(f.met for f in self.figures.values())

    @property
    def shortfall(self) -> float:
        return sum(f.shortfall for f in self.figures.values())

    def to_json(self) -> dict[str, Any]:
        return {"figures": {k: f.to_json() for k, f in self.figures.items()}, "games": self.games}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Evaluated:
        figs = {k: Figure(v["value"], v["interval"][0], v["interval"][1], v["players"], v["met"], v["shortfall"])
                for k, v in data["figures"].items()}
        return Evaluated(figs, int(data["games"]))


@dataclass(frozen=True)
class Plan:
    """How candidates are played: table sizes, seed, processes or cluster."""

    players: tuple[int, ...]
    seed: int
    workers: int | None = None
    cluster: str | Cluster | None = None


def evaluate(decks: Sequence[Deck], targets: Sequence[Target], plan: Plan, progress: Any = None) -> list[Evaluated]:
    """Every deck's figures, their games played together (the same seeds for each)."""
    from deckgen import runner
    from deckgen.rules.table import compile_deck

    expert = any(t.name == "expert_edge" for t in targets)
    middle = sorted(plan.players)[len(plan.players) // 2]
    cells = [_Cell(i, n, "random", LOOKS) for i in range(len(decks)) for n in plan.players]
    if any(t.name in BOTH for t in targets):
        cells += [_Cell(i, n, "greedy", LOOKS) for i in range(len(decks)) for n in plan.players]
    if expert:
        cells += [_Cell(i, middle, "expert", EXPERT_GAMES) for i in range(len(decks))]
    batch = _Batch(cells, targets, plan.seed, progress)
    work = runner.Work(_prepare, (tuple(compile_deck(d) for d in decks), EXPERT_THINK), _play)
    for task, result in runner.run_tasks(work, batch, plan.workers, plan.cluster, ordered=False):
        batch.take(task, result)
    out = []
    for i in range(len(decks)):
        mine = [c for c in cells if c.cand == i]
        figures: dict[str, Figure] = {}
        for t in targets:
            per = []
            for c in mine:
                if not c.judges(t):
                    continue
                got = skill_figures(c.got, c.players) if c.expert else cell_figures(t, c.got, c.players)
                if got is not None:
                    per.append((t.shortfall(got[0]), -t.margin(got[0]), c.players, got))
            worst = max(per, key=lambda x: (x[0], x[1], -x[2]))       # the furthest outside, else the nearest edge
            short, _, n, (value, lo, hi) = worst
            figures[t.text()] = Figure(value, lo, hi, n, t.met(value), short)
        out.append(Evaluated(figures, sum(len(c.got) for c in mine)))
    return out
