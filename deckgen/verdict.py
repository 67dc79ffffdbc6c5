"""The playability verdict: simulated games judged against named criteria (``docs/checks.md``).

``deckgen check`` (and ``deckgen build``, which runs the same verdict) plays each deck with the
random and the greedy player at every table size of its player range and turns what happened
into findings. Each criterion is a sequential test (:mod:`deckgen.sequential`) with a stated
false-alarm rate and power:

- ``does-not-finish`` (error): games stall or hit the turn cap (a draw pile that runs dry is a
  rule of the game, the turn passes: not a failure); the message names what the simulation says
  causes it and the hint the card by its name and the ``deckgen tune`` command;
- ``decided-before-play`` (error): games end before every player has had a turn, a turn
  counting only when the player played a card (or tried to draw from an empty pile);
- ``unfair-seat``: with the random player a seat wins more or less than its fair share by more
  than a tolerance: an error when the seat is extreme (twice the fair share, or half of it), a
  warning otherwise;
- ``games-too-short`` / ``games-too-long`` (warning): the median length outside a band around the
  classic deck's at the same table size;
- ``dead-card`` (warning): a kind played far less than the deck's other kinds;
- ``verdict-budget`` (warning): a table size's turn budget ran out before a criterion that could
  be an error was clear.

How many games: every table size and player plays in looks (:data:`deckgen.sequential.LOOKS`:
16, 32, 48 ... 1,024 games) until every criterion has its answer, or the cell's turn budget
(:data:`CELL_TURNS`) ends. Which games are played depends only on the seed and on the games' own
results, never on timing or the number of cores, so the verdict is deterministic.

The games run through :mod:`deckgen.runner` (forked workers of its own, a build's shared
pool, or in this process) while the caller goes on (:func:`start`); :meth:`Verdicts.result`
waits for them. A finished verdict is kept in the cache under the deck's content
(:func:`cache_key`), so an unchanged deck is judged once.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import json
import statistics
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckgen.errors import Finding, error, note, warning
from deckgen.model import Deck
from deckgen.sequential import LOOKS, PROBLEM, RateTest, SeatTest, next_look, poisson_high
from deckgen.stats import percent

if TYPE_CHECKING:
    from deckgen.progress import Progress
    from deckgen.rules.agents import Agent
    from deckgen.rules.record import GameRecord
    from deckgen.rules.table import Table
    from deckgen.runner import Running
    from deckgen.workers import Workers

AGENTS = ("random", "greedy")

# ---------------------------------------------------------------- the criteria (docs/checks.md)

FINISH = RateTest(p0=0.02, p1=0.10, alpha=0.01, beta=0.05)     # does-not-finish: share of games that stall or are capped
EARLY = RateTest(p0=0.02, p1=0.10, alpha=0.01, beta=0.05)      # decided-before-play: share decided before all played
LENGTH = RateTest(p0=0.35, p1=0.65, alpha=0.01, beta=0.05)     # games-too-long/short: share beyond the band (median)
SEATS = SeatTest(alpha=0.01, tolerance=0.03, detect=0.10)      # unfair-seat (random player)
FAIL_WARN = 0.05             # some-games-do-not-finish: a warning from this share on, a note below it
SEAT_FIRST_LOOK = 48         # the seat test answers from this many games on (a few games say little of seats)
SEAT_MIN_FINISHED = 20       # with --games N: fewer finished games than this leave the seats unjudged
CELL_TURNS = 150_000         # a table size and player's turn budget
SHORT_FACTOR = 0.25          # games-too-short: median below this share of classic's
LONG_FACTOR = 8.0            # games-too-long: median above this many times classic's
DEAD_SHARE = 0.10            # dead-card: played per copy at less than this share of the deck's median kind
DEAD_Z = 2.3263              # ... by the one-sided 99 % upper bound of its rate
CRITERIA = ("finish", "early", "short", "long", "seat")
ERROR_CRITERIA = ("finish", "early")

# The classic deck's median game length in turns (300 games per table size, seed 7), with each
# player; tests/test_verdict.py plays classic again and fails if these drift.
CLASSIC_MEDIAN: dict[str, dict[int, float]] = {
    "random": {2: 51.5, 3: 52.0, 4: 57.0, 5: 62.5, 6: 70.0, 7: 81.0, 8: 85.0, 9: 94.0, 10: 100.0},
    "greedy": {2: 40.0, 3: 42.0, 4: 54.0, 5: 60.5, 6: 64.0, 7: 73.0, 8: 82.5, 9: 88.0, 10: 94.0},
}

CACHE_FORMAT = "verdict-2"


def classic_median(agent: str, players: int) -> float:
    """Classic's median length at a table size; beyond 10 players, extended by its last step."""
    ref = CLASSIC_MEDIAN[agent]
    if players in ref:
        return ref[players]
    top = max(ref)
    step = ref[top] - ref[top - 1]
    return ref[top] + step * (players - top)


# ---------------------------------------------------------------- what a game counts as

def _failed(r: GameRecord) -> bool:
    """A game that did not finish: it stalled or hit the turn cap (a dry draw pile only passes the turn)."""
    return r.outcome != "finished"


def decided_early(r: GameRecord, players: int) -> bool:
    """A finished game that ended before every player had a turn, a turn counting only when the
    player played or drew: some seat never played a card, never tried to draw from an empty pile,
    ended with no more cards than it was dealt (the record's first and last hand sizes) and was not
    knocked out in a game that went on past the first round (a Mercy knock-out is the game's own
    way to lose, after drawing). A seat skipped every time, or knocked out at the deal, never had a
    turn. The engine counts the turns each seat took itself (``acted_by_seat``); a record without
    that count falls back on the plays per seat and the hand sizes, and without those on the turns."""
    if r.outcome != "finished":
        return False
    if r.acted_by_seat:                   # the engine's own count of the turns each seat took itself
        late_out = {seat for name, _, seat in r.events if name == "knockout" and r.turns > players}
        return any(not n and s not in late_out for s, n in enumerate(r.acted_by_seat))
    if not r.plays_by_seat:
        return r.turns <= players
    acted = {seat for name, _, seat in r.events if name == "dry" or (name == "knockout" and r.turns > players)}
    if r.hand_trace:                     # a seat whose hand grew from the deal drew
        dealt, last = r.hand_trace[0][2], r.hand_trace[-1][2]
        acted |= {s for s, (a, b) in enumerate(zip(dealt, last)) if b > a}
    return any(not n and s not in acted for s, n in enumerate(r.plays_by_seat))


def _wins(recs: Iterable[GameRecord], players: int) -> list[int]:
    wins = [0] * players
    for r in recs:
        if r.outcome == "finished" and r.winner is not None:
            wins[r.winner] += 1
    return wins


# ---------------------------------------------------------------- which games to play

@dataclass
class Cell:
    """One deck, one player, one table size: the games played so far, what to play next, and each
    criterion's answer (FINE, PROBLEM or None: not clear)."""

    deck: int
    agent: str
    players: int
    fixed: int | None                  # --games N: exactly N games, one look
    recs: list[GameRecord] = field(default_factory=list)
    target: int = 0                    # games wanted by the current look
    sent: int = 0                      # games handed out
    back: dict[int, list[GameRecord]] = field(default_factory=dict)     # first game of a chunk -> its records
    done: bool = False
    answers: dict[str, str | None] = field(default_factory=dict)
    out_of_budget: bool = False        # the turn budget or the last look came before every answer

    @property
    def criteria(self) -> tuple[str, ...]:
        return CRITERIA if self.agent == "random" else CRITERIA[:-1]

    def first_target(self) -> int:
        return self.fixed if self.fixed is not None else LOOKS[0]

    def counts(self) -> dict[str, tuple[int, int]]:
        """Per criterion: (games that count against it, games it is judged on)."""
        recs, n = self.recs, len(self.recs)
        finished = [r for r in recs if r.outcome == "finished"]
        ref = classic_median(self.agent, self.players)
        return {"finish": (sum(1 for r in recs if _failed(r)), n),
                "early": (sum(1 for r in recs if decided_early(r, self.players)), n),
                "short": (sum(1 for r in finished if r.turns < SHORT_FACTOR * ref), len(finished)),
                "long": (sum(1 for r in finished if r.turns > LONG_FACTOR * ref), len(finished))}

    def decide(self, final: bool) -> None:
        """Each open criterion's answer at this look; ``final``: the last look (undecided rates
        then go by the share seen, the seat by its flag alone)."""
        counts = self.counts()
        tests = {"finish": FINISH, "early": EARLY, "short": LENGTH, "long": LENGTH}
        for name in self.criteria:
            if self.answers.get(name) is not None:
                continue
            if name == "seat":
                wins = _wins(self.recs, self.players)
                enough = sum(wins) >= (SEAT_MIN_FINISHED if self.fixed is not None else 1)
                looked = len(self.recs) >= SEAT_FIRST_LOOK or self.fixed is not None
                got = SEATS.decide(wins) if enough and looked else None
            else:
                k, n = counts[name]
                got = tests[name].decide(k, n)
                if got is None and final and self.fixed is not None:
                    got = tests[name].fallback(k, n)
            self.answers[name] = got

    def look(self) -> int | None:
        """At a look: the answers so far, then how many games in all this cell needs (None: done)."""
        n = len(self.recs)
        nxt = None if self.fixed is not None else next_look(n)
        turns = sum(r.turns for r in self.recs)
        final = nxt is None or turns >= CELL_TURNS
        self.decide(final)
        if self.answers.get("finish") == PROBLEM or all(self.answers.get(c) is not None for c in self.criteria):
            return None
        if final:
            self.out_of_budget = self.fixed is None
            return None
        return nxt

    def open_criteria(self) -> list[str]:
        return [c for c in self.criteria if self.answers.get(c) is None]


def chunk_size(cell: Cell) -> int:
    """Games per task: about 3,000 turns of this cell's games, between 2 and 25."""
    if not cell.recs:
        return min(8, cell.target - cell.sent)
    per_game = max(1.0, sum(r.turns for r in cell.recs) / len(cell.recs))
    return max(2, min(25, int(3000 / per_game)))


_AGENTS: dict[str, Agent] = {}          # in a worker process: the bots made so far


def _agent(name: str) -> Agent:
    from deckgen.rules.bots import make

    got = _AGENTS.get(name)
    if got is None:
        got = _AGENTS[name] = make(name)
    return got


def _play_games(table: Table, agent: str, players: int, start: int, stop: int, seed: int) -> list[GameRecord]:
    from deckgen.rules.simulate import play_record

    who = _agent(agent)
    return [_lean(play_record(table, who, seed, players, i)) for i in range(start, stop)]


def _prepare(tables: tuple[Table, ...]) -> tuple[Table, ...]:
    return tables


Task = tuple[int, int, str, int, int, int, int]     # (cell, deck, agent, table size, first game, end, seed)


def _play(tables: tuple[Table, ...], task: Task) -> list[GameRecord]:
    """A worker's task: games ``start`` to ``end`` of one cell."""
    _, deck, agent, players, start, stop, seed = task
    return _play_games(tables[deck], agent, players, start, stop, seed)


def _lean(rec: GameRecord) -> GameRecord:
    """A record with only what the verdict reads: the first and last hand-size samples, the dry and
    knock-out events, the plays per seat, no per-seat-and-kind plays (less to pass back from the workers)."""
    trace = rec.hand_trace
    return rec._replace(hand_trace=(trace[0], trace[-1]) if trace else (),
                        events=tuple(e for e in rec.events if e[0] in ("dry", "knockout")), plays_by_seat_kind=())


def _seed(seed: int, agent: str) -> int:
    # the greedy player's games get their own seeds (the random player's are simulate's own)
    return seed if agent == "random" else seed * 1_000_003 + 17


_SHARED: contextvars.ContextVar[Workers | None] = contextvars.ContextVar("deckgen_verdict_pool", default=None)


@contextlib.contextmanager
def sharing(pool: Workers) -> Iterator[None]:
    """Verdicts started inside this block play their games on ``pool`` (a build's workers), so
    the games and the build's other jobs share the cores instead of each having processes of their own."""
    token = _SHARED.set(pool)
    try:
        yield
    finally:
        _SHARED.reset(token)


class _Plan:
    """The verdict's task source for :mod:`deckgen.runner`: chunks of each cell's games up
    to its current look; when a look's games are all back, the cell decides and sets its next look."""

    def __init__(self, cells: list[Cell], seed: int, progress: Progress | None):
        self.cells, self.seed, self.progress = cells, seed, progress
        self.lock = threading.Lock()

    def next_task(self) -> Task | str | None:
        from deckgen.runner import WAIT

        with self.lock:
            for i, cell in enumerate(self.cells):
                if cell.done:
                    continue
                if cell.target == 0:
                    cell.target = cell.first_target()
                if cell.sent < cell.target:
                    size = min(chunk_size(cell), cell.target - cell.sent)
                    start = cell.sent
                    cell.sent += size
                    return i, cell.deck, cell.agent, cell.players, start, start + size, _seed(self.seed, cell.agent)
            return WAIT if any(not c.done for c in self.cells) else None

    def take(self, task: Task, recs: list[GameRecord]) -> None:
        with self.lock:
            cell = self.cells[task[0]]
            cell.back[task[4]] = recs
            while len(cell.recs) in cell.back:
                cell.recs.extend(cell.back.pop(len(cell.recs)))
            if len(cell.recs) == cell.target:
                nxt = cell.look()
                if nxt is None or nxt <= len(cell.recs):
                    cell.done = True
                else:
                    cell.target = nxt
            if self.progress:
                self.progress("simulating", sum(1 for c in self.cells if c.done), len(self.cells))


class Pending:
    """Verdicts being worked out through :mod:`deckgen.runner`; :meth:`result` waits for them.

    On worker processes (a build's shared pool, or the verdict's own), each chunk of games is a
    task whose result is taken on the pool's result thread: the cell takes the records and the
    games it needs next are handed out at once, while the caller goes on with its other checks."""

    def __init__(self, decks: list[Deck], seed: int, games: int | None, workers: int | None,
                 progress: Progress | None = None, cluster: Any = None):
        from deckgen import runner
        from deckgen.rules.table import compile_deck

        self.decks = decks
        self.seed = seed
        self.games = games
        self.tables = [compile_deck(d) for d in decks]
        self.cells = [Cell(i, agent, n, games) for i, d in enumerate(decks) for agent in AGENTS
                      for n in range(d.players_min, d.players_max + 1)]
        self._results: list[Judged] | None = None
        pool = _SHARED.get()
        if workers is None or workers > 1 or (pool is not None and pool.n > 1):
            from deckgen.rules import agents, engine, simulate  # noqa: F401  (forked workers inherit them)
        work = runner.Work(_prepare, tuple(self.tables), _play)
        self._running: Running = runner.start(work, _Plan(self.cells, seed, progress), workers=workers, pool=pool,
                                              cluster=cluster)

    def result(self) -> list[Judged]:
        """Each deck's verdict."""
        if self._results is None:
            self._running.wait()
            self._results = [judge(d, self.tables[i], [c for c in self.cells if c.deck == i], self.seed, self.games)
                             for i, d in enumerate(self.decks)]
        return self._results


# ---------------------------------------------------------------- judging the games

def _file(deck: Deck) -> str | None:
    return str(deck.source) if deck.source else None


def _kname(deck: Deck, kid: str) -> str:
    return deck.kinds[kid].names.get(deck.language) if kid in deck.kinds else kid


def _sizes(ns: Iterable[int]) -> str:
    ns = sorted(set(ns))
    if len(ns) == 1:
        return f"{ns[0]} players"
    return ", ".join(map(str, ns[:-1])) + f" and {ns[-1]} players"


CellGames = list[tuple["Cell", list["GameRecord"]]]     # cells, each with some of its games


@dataclass(frozen=True)
class Simulation:
    """What the verdict's games were, for the report (``check --json``'s ``simulation`` section)."""

    seed: int
    games: int | None                      # --games N, or None: the verdict's own plan
    turn_cap: int
    tables: dict[str, list[dict[str, Any]]]   # per player, each table size's summary (rules.simulate.summarize)
    undecided: tuple[str, ...] = ()        # "3 players, random player: seat": criteria the budget left unclear

    def games_played(self) -> dict[str, int]:
        return {a: sum(t["games"] for t in self.tables[a]) for a in AGENTS}

    def summary(self) -> str:
        played = sum(self.games_played().values())
        finished = sum(t["finished"] for a in AGENTS for t in self.tables[a])
        meds = ", ".join(f"{t['players']}p {t['turns']['median']:g}" for t in self.tables["random"])
        text = (f"{played} games (random and greedy players) over {len(self.tables['random'])} table sizes, "
                f"{finished} finished; median turns (random) {meds}")
        if self.undecided:
            text += f"; unclear within the budget: {'; '.join(self.undecided)}"
        return text

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "games_per_table_size": self.games, "turn_cap": self.turn_cap,
                "tables": self.tables["random"], "greedy": {"tables": self.tables["greedy"]},
                "games_played": self.games_played(), "undecided": list(self.undecided), "summary": self.summary()}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Simulation:
        return Simulation(data["seed"], data["games_per_table_size"], data["turn_cap"],
                          {"random": data["tables"], "greedy": data["greedy"]["tables"]},
                          tuple(data.get("undecided", ())))


@dataclass(frozen=True)
class Judged:
    """One deck's verdict: the findings and what the games were."""

    findings: list[Finding]
    simulation: Simulation

    def to_json(self) -> dict[str, Any]:
        return {"findings": [dataclasses.asdict(x) for x in self.findings], "simulation": self.simulation.to_json()}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Judged:
        return Judged([Finding(**x) for x in data["findings"]], Simulation.from_json(data["simulation"]))


def judge(deck: Deck, table: Table, cells: list[Cell], seed: int, games: int | None) -> Judged:
    """Findings and the simulation section of one deck's cells (each cell's answers decided)."""
    from deckgen.rules.simulate import summarize

    for c in cells:
        if not c.answers and c.recs:
            c.decide(final=True)
    out = _finishing(deck, table, cells)
    early = [(c, [r for r in c.recs if decided_early(r, c.players)]) for c in cells if c.answers.get("early") == PROBLEM]
    if early:
        out.append(_decided_early(deck, early, table))
    out.extend(_unfair_seats(deck, cells))
    out.extend(_lengths(deck, cells, bool(early)))
    out.extend(_dead(deck, table, cells))
    out.extend(_budget(deck, cells))
    tables: dict[str, list[dict[str, Any]]] = {a: [] for a in AGENTS}
    for c in cells:
        tables[c.agent].append(summarize(table, c.players, c.recs))
    undecided = tuple(f"{c.players} players, {c.agent} player: {', '.join(c.open_criteria())}"
                      for c in cells if c.out_of_budget and c.open_criteria())
    return Judged(out, Simulation(seed, games, table.rules.turn_cap, tables, undecided))


def tune_command(deck: Deck) -> str:
    """The ``deckgen tune`` command that searches for a fix of this deck."""
    ref = str(deck.source) if deck.source else deck.id
    return f"deckgen tune {_quoted(ref)}"


def _quoted(text: str) -> str:
    import shlex

    return shlex.quote(text)


def _finishing(deck: Deck, table: Table, cells: list[Cell]) -> list[Finding]:
    """does-not-finish, or some-games-do-not-finish."""
    fails = [(c, bad) for c, bad in ((c, [r for r in c.recs if _failed(r)]) for c in cells) if bad]
    serious = [(c, bad) for c, bad in fails if c.answers.get("finish") == PROBLEM]
    if serious:
        return [error("does-not-finish", "deck.players", _not_finishing(deck, table, serious), file=_file(deck),
                      hint=_finish_fix(deck, table, serious))]
    if not fails:
        return []
    parts = [f"{len(bad)} of {len(c.recs)} {c.agent}-player games at {c.players} players" for c, bad in fails]
    message = "a few simulated games stalled or hit the turn cap: " + "; ".join(parts)
    hint = "fewer draw penalties or more cards to draw make every game end"
    if all(len(bad) < FAIL_WARN * len(c.recs) for c, bad in fails):
        return [note("some-games-do-not-finish", "deck.players",
                     message + f" (fewer than {FAIL_WARN:.0%} at every table size)", file=_file(deck), hint=hint)]
    return [warning("some-games-do-not-finish", "deck.players", message, file=_file(deck), hint=hint)]


def _unfair_seats(deck: Deck, cells: list[Cell]) -> list[Finding]:
    out = []
    for c in cells:
        if c.agent != "random" or c.answers.get("seat") != PROBLEM:
            continue
        wins = _wins(c.recs, c.players)
        finished = sum(wins)
        seats = [s for s in SEATS.seats(wins) if s.off]
        extreme = any(s.extreme for s in seats)
        words = "; ".join(f"seat {s.seat + 1} wins {percent(s.rate)} ({1 - SEATS.alpha:.0%} family-wise interval "
                          f"{percent(s.low)}-{percent(s.high)})" for s in seats)
        how = ("at least twice the fair share or at most half of it: one seat decides the game" if extreme else
               f"more than {SEATS.tolerance:.0%} points from it")
        message = (f"at {c.players} players, over {finished} finished random-player games, {words}; "
                   f"a fair seat wins {1 / c.players:.0%} (seat 1 plays first), and this is {how}")
        hint = ("look at what the first turns do: the start card's effect, the dealer's first player, a card that "
                "costs the next player their turn")
        where = f"deck.players[{c.players}]"
        out.append(error("unfair-seat", where, message, file=_file(deck),
                         hint=hint + f"; {tune_command(deck)} searches for counts that even it out") if extreme
                   else warning("unfair-seat", where, message, file=_file(deck), hint=hint))
    return out


def _lengths(deck: Deck, cells: list[Cell], early: bool) -> list[Finding]:
    """games-too-short (unless decided-before-play says it already) and games-too-long, against classic."""
    out = []
    for code, word in (("games-too-short", "shorter"), ("games-too-long", "longer")):
        short = code == "games-too-short"
        hits = []
        for c in cells:
            done = [r.turns for r in c.recs if r.outcome == "finished"]
            if not done or c.answers.get("short" if short else "long") != PROBLEM:
                continue
            med = statistics.median(done)
            ref = classic_median(c.agent, c.players)
            hits.append(f"{c.players} players, {c.agent} player: median {med:g} turns against classic's {ref:g}")
        if hits and not (short and early):
            band = f"at least {SHORT_FACTOR:g}" if short else f"at most {LONG_FACTOR:g}"
            out.append(warning(code, "deck.players",
                               f"simulated games are far {word} than classic UNO's at the same table size "
                               f"({band} times classic's median): " + "; ".join(hits), file=_file(deck),
                               hint=("a larger hand size, or fewer cards that shed or knock out several at once"
                                     if short else "change the hand size, the draw penalties or the number of "
                                                   "cards that shed several at once")
                                    + f"; {tune_command(deck)} searches for counts that bring it near classic's"))
    return out


def _counts(table: Table, recs: list[GameRecord], n_causes: int) -> tuple[list[int], dict[str, float], list[int]]:
    """These games' cards drawn per cause, drawn as penalties per kind (in the order first seen) and plays per kind."""
    causes = [0] * n_causes
    penalties: dict[str, float] = {}
    plays = [0] * len(table.kinds)
    for r in recs:
        for i, v in enumerate(r.draws_by_cause):
            causes[i] += v
        for i, v in enumerate(r.penalty_by_kind):
            if v:
                kid = table.kinds[i]
                penalties[kid] = penalties.get(kid, 0) + v
        for i, v in enumerate(r.plays_by_kind):
            plays[i] += v
    return causes, penalties, plays


def _drawn_by_source(deck: Deck, table: Table, recs: list[GameRecord], players: int) -> dict[str, float]:
    """Cards drawn in these games, by what made the player draw: a kind id, or a cause."""
    from deckgen.rules.record import CAUSES

    causes, out, plays = _counts(table, recs, len(CAUSES))

    def spread(total: float, weight: Callable[[str], float]) -> bool:
        w = {table.kinds[i]: plays[i] * weight(table.kinds[i]) for i in range(len(table.kinds))}
        s = sum(w.values())
        if not s:
            return False
        for kid, v in w.items():
            if v:
                out[kid] = out.get(kid, 0) + total * v / s
        return True

    def draw_n(kid: str, op: str) -> int:
        kind = deck.kinds.get(kid)
        return sum(getattr(e, "n", 0) or 0 for e in kind.effects if e.op == op) if kind else 0

    def challenged(kid: str) -> bool:
        kind = deck.kinds.get(kid)
        return kind is not None and any(e.op == "challenge" for e in kind.effects)

    for i, cause in enumerate(CAUSES):
        v = causes[i]
        if not v or cause == "penalty":
            continue
        if cause == "everyone" and spread(v, lambda k: draw_n(k, "everyone_draws") * (players - 1)):
            continue
        if cause == "stack" and spread(v, lambda k: draw_n(k, "draw")):
            continue
        # a challenge draws the card's own cards (plus the penalty of a failed one): the card's doing
        if cause == "challenge" and spread(v, lambda k: draw_n(k, "draw") * challenged(k)):
            continue
        out[f"cause:{cause}"] = out.get(f"cause:{cause}", 0) + v
    return out


CAUSE_WORDS = {"no_play": "drawing for want of a playable card", "stack": "stacked penalties",
               "everyone": "everyone-draws cards", "penalty": "draw penalties", "duel": "lost duels",
               "challenge": "lost challenges", "uno": "UNO calls missed", "roulette": "Colour Roulette"}


def _does(deck: Deck, kid: str) -> str:
    """What a kind does, in the rulebook's words (the deck's language, English when it has none)."""
    from deckgen.rulebook.describe import effects_text

    kind = deck.kinds[kid]
    lang = deck.language if deck.language in ("es", "en") else "en"
    text = effects_text(deck, kind.effects, lang).strip()
    return text.rstrip(".") or "no effect"


def _source_name(deck: Deck, src: str) -> str:
    if src.startswith("cause:"):
        return CAUSE_WORDS.get(src[6:], src[6:])
    return f"'{_kname(deck, src)}' cards"


def _hands(c: Cell, bad: list[GameRecord]) -> tuple[float, float]:
    """Mean hand size at the first and the last sample of these games."""
    first: list[float] = []
    last: list[float] = []
    for r in bad:
        if not r.hand_trace:
            continue
        for sample, into in ((r.hand_trace[0], first), (r.hand_trace[-1], last)):
            sizes = [s for s in sample[2] if s >= 0]
            if sizes:
                into.append(sum(sizes) / len(sizes))
    return (statistics.fmean(first) if first else 0.0, statistics.fmean(last) if last else 0.0)


def _top_sources(deck: Deck, table: Table, serious: CellGames) -> list[tuple[str, float]]:
    total: dict[str, float] = {}
    for c, bad in serious:
        for k, v in _drawn_by_source(deck, table, bad, c.players).items():
            total[k] = total.get(k, 0) + v
    s = sum(total.values())
    return [(k, v / s) for k, v in sorted(total.items(), key=lambda kv: -kv[1])] if s else []


def _by_agent(cells_with: CellGames, line: Callable[[Cell, list[GameRecord]], str]) -> str:
    """Per player, the table sizes' figures: "random player: 2 players 4 of 4, 3 players 4 of 4"."""
    parts = []
    for agent in AGENTS:
        mine = [(c, x) for c, x in cells_with if c.agent == agent]
        if mine:
            parts.append(f"{agent} player: " + ", ".join(line(c, x) for c, x in mine))
    return "; ".join(parts)


def _not_finishing(deck: Deck, table: Table, serious: CellGames) -> str:
    bad_all = [r for _, bad in serious for r in bad]
    stalled = sum(1 for r in bad_all if r.outcome == "stalled")
    capped = sum(1 for r in bad_all if r.outcome == "capped")
    what = [w for w in (f"{stalled} stalled (nobody could play or draw)" if stalled else "",
                        f"{capped} hit the {table.rules.turn_cap}-turn cap" if capped else "") if w]
    text = ("simulated games do not end (games that did not finish, at each table size): "
            + _by_agent(serious, lambda c, bad: f"{c.players} players {len(bad)} of {len(c.recs)}")
            + f"; of those {len(bad_all)}, {', '.join(what)}")
    top = [(k, share) for k, share in _top_sources(deck, table, serious) if share >= 0.01]
    if top:
        text += ". Their drawn cards came from " + ", ".join(
            f"{_source_name(deck, k)} ({percent(share)})" for k, share in top[:3])
    grow = [_hands(c, bad)[1] for c, bad in serious]
    end = statistics.fmean(grow) if grow else 0
    if end:
        text += f"; hands of {deck.hand_size} dealt grew to {end:.0f} cards on average"
    return text


def _finish_fix(deck: Deck, table: Table, serious: CellGames) -> str:
    top = _top_sources(deck, table, serious)
    stalled = sum(1 for c, bad in serious for r in bad if r.outcome == "stalled")
    tune = f"; {tune_command(deck)} searches for the counts that make the games end"
    if top and not top[0][0].startswith("cause:") and top[0][1] >= 0.3:
        kid = top[0][0]
        copies = deck.count_by_kind().get(kid, 0)
        name = _kname(deck, kid)
        return (f"print fewer '{name}' cards ({copies} of the {deck.total} cards are '{name}') or make them draw "
                f"fewer, or add cards that shed several at once" + tune)
    if stalled or (top and top[0][0] == "cause:no_play"):
        return ("cards rarely match each other: add wild cards, or numbers and actions in every colour, "
                "so that a hand always has something to play" + tune)
    return "add ways to shed cards (wilds, play-again, discard-all) or lower deck.players.max" + tune


def _turn_taker(deck: Deck, table: Table, early: CellGames) -> str | None:
    """The kind played most in these games, when it makes the next player lose their turn (a skip,
    or a draw that loses the turn) and makes up at least a third of their plays: the card that keeps
    a player from ever playing."""
    from deckgen.rules.record import CAUSES

    plays = _counts(table, [r for _, games in early for r in games], len(CAUSES))[2]
    total = sum(plays)
    if not total:
        return None
    top = max(range(len(plays)), key=plays.__getitem__)
    kind = deck.kinds.get(table.kinds[top])
    if kind is None or plays[top] < total / 3 or not any(
            e.op in ("skip", "skip_all") or (e.op == "draw" and e.lose_turn) for e in kind.effects):
        return None
    copies = deck.count_by_kind().get(kind.id, 0)
    return (f"{percent(plays[top] / total)} of the cards played in these games were '{_kname(deck, kind.id)}', which "
            f"costs the next player their turn: print fewer of them ({copies} of the {deck.total} cards)")


def _decided_early(deck: Deck, early: CellGames, table: Table) -> Finding:
    def line(c: Cell, first: list[GameRecord]) -> str:
        med = statistics.median(r.turns for r in first)         # of these games, not of every game played
        return f"{c.players} players {len(first)} of {len(c.recs)} (over in a median of {med:g} turn{'s' if med != 1 else ''})"

    o = deck.rule_options
    knock = o.mercy_limit and any(r.knockouts for c, first in early for r in first)
    if knock:
        biggest = max((e.n for k in deck.kinds.values() for e in k.effects
                       if e.op in ("draw", "everyone_draws")), default=0)
        hint = (f"the Mercy limit ({o.mercy_limit}) knocks players out at once: set mercy_limit well above "
                f"hand_size + the largest draw ({deck.hand_size} + {biggest}), or lower that draw")
    else:
        hint = _turn_taker(deck, table, early) or "deal more cards (deck.hand_size), or fewer cards that shed several at once"
    return error("decided-before-play", "deck.players",
                 "the game is decided before it is played: games that ended before every player "
                 "had played a card, at each table size: " + _by_agent(early, line), file=_file(deck),
                 hint=hint + f"; {tune_command(deck)} searches for counts that fix it")


def _dead(deck: Deck, table: Table, cells: list[Cell]) -> list[Finding]:
    games = sum(len(c.recs) for c in cells)
    if not games:
        return []
    plays = [0] * len(table.kinds)
    for c in cells:
        for r in c.recs:
            for i, v in enumerate(r.plays_by_kind):
                plays[i] += v
    copies: dict[str, int] = {}
    for card in deck.cards:
        copies[card.kind] = copies.get(card.kind, 0) + card.count
        if card.flex:
            copies[card.flex.kind] = copies.get(card.flex.kind, 0) + card.count
    rate = {kid: plays[i] / games / copies[kid] for i, kid in enumerate(table.kinds) if copies.get(kid)}
    if not rate:
        return []
    typical = statistics.median(rate.values())
    out = []
    for kid, per in rate.items():
        if poisson_high(plays[table.kinds.index(kid)], games * copies[kid], DEAD_Z) < DEAD_SHARE * typical:
            how = ("was never played" if per == 0 else
                   f"was played {per:.2f} times per copy per game, against {typical:.2f} for the deck's typical kind")
            out.append(warning("dead-card", f"kinds.{kid}",
                               f"'{_kname(deck, kid)}' {how} in {games} simulated games (random and greedy players)",
                               file=_file(deck),
                               hint="check that the rules let this card be played and that it can match the pile"))
    return out


def _budget(deck: Deck, cells: list[Cell]) -> list[Finding]:
    """verdict-budget: a cell's turn budget or last look came before an error criterion was clear."""
    open_ = [(c, [x for x in c.open_criteria() if x in ERROR_CRITERIA]) for c in cells if c.out_of_budget]
    open_ = [(c, names) for c, names in open_ if names]
    if not open_:
        return []
    words = {"finish": "whether enough games finish", "early": "whether games are decided before everyone plays"}
    parts = [f"{c.players} players, {c.agent} player, after {len(c.recs)} games: " + " and ".join(words[x] for x in names)
             for c, names in open_]
    return [warning("verdict-budget", "deck.players",
                    f"the simulated games' budget ({CELL_TURNS:,} turns per table size and player, or "
                    f"{LOOKS[-1]:,} games) ran out before the verdict could tell: " + "; ".join(parts),
                    file=_file(deck), hint="--games N plays exactly N games per table size instead; games this long "
                                           "are worth a look with deckgen simulate")]


# ---------------------------------------------------------------- the cache

def cache_key(deck: Deck, seed: int, games: int | None) -> str:
    """The verdict's key: the deck as its games see it, never where it lies (its manifest, templates
    and fonts folders), so a deck copied or written to another folder is judged once."""
    from deckgen.cache import digest
    from deckgen.inputs import code_version

    placeless = dataclasses.replace(deck, source=None, template_dir=None, fonts=None)
    return digest(CACHE_FORMAT, code_version(), repr(placeless), str(seed), str(games))


def from_cache(deck: Deck, seed: int, games: int | None, cache_dir: Path | None = None) -> Judged | None:
    """The cached verdict, its findings naming this deck's manifest (the cached one may be a copy's)."""
    from deckgen import cache

    data = cache.get_bytes("documents", cache_key(deck, seed, games), "verdict.json", cache_dir)
    if data is None:
        return None
    try:
        stored = json.loads(data)
        got = Judged.from_json(stored)
        judged_file, judged_tune = stored["file"], stored["tune"]
    except (ValueError, TypeError, KeyError):
        return None
    here, tune = _file(deck), tune_command(deck)

    def moved(f: Finding) -> Finding:
        """The finding naming this deck: its file, and the tune command in its words."""
        if f.file == judged_file:
            f = dataclasses.replace(f, file=here)
        if judged_tune != tune:
            f = dataclasses.replace(f, message=f.message.replace(judged_tune, tune),
                                    hint=f.hint.replace(judged_tune, tune) if f.hint else f.hint)
        return f

    return Judged([moved(f) for f in got.findings], got.simulation)


def to_cache(deck: Deck, seed: int, games: int | None, result: Judged, cache_dir: Path | None = None) -> None:
    from deckgen import cache

    stored = {**result.to_json(), "file": _file(deck),        # the manifest its findings name,
              "tune": tune_command(deck)}                      # and the command their hints give
    cache.put_bytes("documents", cache_key(deck, seed, games), "verdict.json",
                    json.dumps(stored, sort_keys=True).encode("utf-8"), cache_dir)


def cached_findings(deck: Deck, name: str, make: Callable[[Deck], list[Finding]], use_cache: bool = True,
                    cache_dir: Path | None = None) -> list[Finding]:
    """Findings that depend only on the deck, its fonts and deckgen's code (what its cards say,
    their glyphs, the rulebook's text fit), kept in the cache so an unchanged deck's check and
    build do not work them out (or import what they need) again."""
    if not use_cache:
        return make(deck)
    from deckgen import cache
    from deckgen.fonts import deck_fonts
    from deckgen.inputs import code_version

    key = cache.digest(CACHE_FORMAT, name, code_version(), repr(deck), deck_fonts(deck).signature())
    data = cache.get_bytes("documents", key, "findings.json", cache_dir)
    if data is not None:
        try:
            return [Finding(**x) for x in json.loads(data)]
        except (ValueError, TypeError):
            pass
    got = make(deck)
    cache.put_bytes("documents", key, "findings.json",
                    json.dumps([dataclasses.asdict(f) for f in got], sort_keys=True).encode("utf-8"), cache_dir)
    return got


@dataclass
class Verdicts:
    """Cached verdicts at once, the others on workers."""

    decks: list[Deck]
    seed: int
    games: int | None
    use_cache: bool
    cache_dir: Path | None
    cached: dict[int, Judged]
    pending: Pending | None
    order: list[int]                    # deck index -> index in pending

    def result(self, i: int) -> Judged:
        if i in self.cached:
            return self.cached[i]
        assert self.pending is not None
        got = self.pending.result()[self.order.index(i)]
        if self.use_cache:
            to_cache(self.decks[i], self.seed, self.games, got, self.cache_dir)
        self.cached[i] = got
        return got


def start(decks: list[Deck], seed: int = 1, games: int | None = None, workers: int | None = None,  # noqa: PLR0913
          use_cache: bool = True, cache_dir: Path | None = None, progress: Progress | None = None,
          cluster: Any = None) -> Verdicts:
    """Start judging these decks: cached verdicts are read now, the games of the others start on
    worker processes (``workers`` > 1, or the pool of a :func:`sharing` block) or when a result
    is first asked for."""
    cached: dict[int, Judged] = {}
    todo: list[int] = []
    for i, d in enumerate(decks):
        hit = from_cache(d, seed, games, cache_dir) if use_cache else None
        if hit is not None:
            cached[i] = hit
        else:
            todo.append(i)
    pending = Pending([decks[i] for i in todo], seed, games, workers, progress, cluster) if todo else None
    return Verdicts(decks, seed, games, use_cache, cache_dir, cached, pending, todo)
