"""The playability verdict: simulated games judged against named criteria (``docs/checks.md``).

``deckgen check`` (and ``deckgen build``, which runs the same verdict) plays each deck with the
random and the greedy player at every table size of its player range and turns what happened
into findings:

- ``does-not-finish`` (error): at some table size a share of games stall, hit the turn cap or
  run the draw pile dry; the message names what the simulation says causes it;
- ``decided-before-play`` (error): games end at the deal or within the first round;
- ``unfair-seat`` (warning): a seat wins significantly more or less than its fair share;
- ``games-too-short`` / ``games-too-long`` (warning): median length outside a band around the
  classic deck's at the same table size;
- ``dead-card`` (warning): a kind never played, or played far less than the deck's other kinds.

How many games: every table size starts with a few games (a deck that does not finish is seen
there and costs no more); then a fixed number of turns' worth. The seat test of the random
player at 2 to 4 players plays in looks of :data:`SEAT_LOOKS` games and stops as soon as the
answer is known: every seat's 80 % interval lies within ten points of fair, or a seat is significantly
off. Which games are played depends only on the seed and on the games' own results, never on
timing or the number of cores, so the verdict is deterministic.

The games run on worker processes while the caller goes on (:func:`start`); :func:`Pending.result`
waits for them. A finished verdict is kept in the cache under the deck's content
(:func:`cache_key`), so an unchanged deck is judged once.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import functools
import hashlib
import json
import math
import os
import pickle
import statistics
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from deckgen.errors import Finding, error, warning
from deckgen.model import Deck

if TYPE_CHECKING:
    from deckgen.progress import Progress
    from deckgen.rules.agents import Agent
    from deckgen.rules.record import GameRecord
    from deckgen.rules.table import Table
    from deckgen.workers import Workers

AGENTS = ("random", "greedy")

# ---------------------------------------------------------------- the criteria (docs/checks.md)

FAIL_SHARE = 0.10            # does-not-finish: this share of a table size's games fail, for either player
EARLY_SHARE = 0.10           # decided-before-play: this share of games end within the first round
SEAT_ALPHA = 0.01            # unfair-seat: family-wise error rate per table size (Holm over seats)
SEAT_DETECT = 0.10           # the advantage the seat test must see reliably at 2-4 players
SEAT_MIN_EFFECT = 0.05       # smaller differences are never reported, however many games
SEAT_LOOKS = (100, 150, 300, 600)  # games of the random player at 2-4 players, looked at in turn
SEAT_SETTLE_Z = 1.2816       # a look stops when every seat's 80 % interval is within SEAT_DETECT of fair
SEAT_TABLES = (2, 3, 4)
SEAT_TURNS = 150_000         # and at most this many turns at one table size
FIRST_GAMES = 4              # every table size starts with this many games
MIN_GAMES = 10               # then at least this many
CELL_GAMES = {"random": 30, "greedy": 16}     # at most, outside the seat test
CELL_TURNS = {"random": 2_500, "greedy": 1_500}   # turns' worth of games, outside the seat test
SHORT_FACTOR = 0.25          # games-too-short: median below this share of classic's
LONG_FACTOR = 8.0            # games-too-long: median above this many times classic's
DEAD_SHARE = 0.10            # dead-card: played per copy at less than this share of the deck's median kind

# The classic deck's median game length in turns (300 games per table size, seed 7), with each
# player; tests/test_verdict.py plays classic again and fails if these drift.
CLASSIC_MEDIAN: dict[str, dict[int, float]] = {
    "random": {2: 51.5, 3: 52.0, 4: 57.0, 5: 62.5, 6: 70.0, 7: 81.0, 8: 85.0, 9: 94.0, 10: 100.0},
    "greedy": {2: 40.0, 3: 42.0, 4: 54.0, 5: 60.5, 6: 64.0, 7: 73.0, 8: 82.5, 9: 88.0, 10: 94.0},
}

CACHE_FORMAT = "verdict-1"


def classic_median(agent: str, players: int) -> float:
    """Classic's median length at a table size; beyond 10 players, extended by its last step."""
    ref = CLASSIC_MEDIAN[agent]
    if players in ref:
        return ref[players]
    top = max(ref)
    step = ref[top] - ref[top - 1]
    return ref[top] + step * (players - top)


# ---------------------------------------------------------------- statistics

def binom_two_sided(k: int, n: int, p: float) -> float:
    """Exact two-sided binomial test: the probability, under p, of a count as unlikely as k."""
    if n <= 0:
        return 1.0

    def logpmf(i: int) -> float:
        return (math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1)
                + (i * math.log(p) if i else 0.0) + ((n - i) * math.log1p(-p) if n - i else 0.0))

    cut = logpmf(k) + 1e-7
    return min(1.0, sum(math.exp(lp) for lp in (logpmf(i) for i in range(n + 1)) if lp <= cut))


class SeatTest(NamedTuple):
    """One seat's figures against a fair share."""

    rate: float
    p: float                           # Holm-adjusted
    low: float                         # 95 % Wilson interval
    high: float
    significant: bool


def seat_test(wins: Sequence[int], alpha: float) -> list[SeatTest]:
    """Per seat: win rate, Holm-adjusted p, 95 % Wilson interval and whether it is significant, against 1/seats."""
    from deckgen.stats import holm, wilson

    n = sum(wins)
    fair = 1 / len(wins)
    raw = [binom_two_sided(w, n, fair) for w in wins]
    adj = holm(raw)
    out = []
    for w, p in zip(wins, adj):
        rate = w / n if n else 0.0
        out.append(SeatTest(rate, p, *wilson(w, n), p < alpha and abs(rate - fair) >= SEAT_MIN_EFFECT))
    return out


def seats_settled(wins: Sequence[int]) -> bool:
    """Every seat's 80 % interval within SEAT_DETECT of fair: a 10-point advantage is unlikely
    (each seat's bound on either side is one-sided 90 %; the power this costs is measured in
    docs/checks.md)."""
    from deckgen.stats import wilson

    n = sum(wins)
    fair = 1 / len(wins)
    return n > 0 and all(fair - SEAT_DETECT < lo and hi < fair + SEAT_DETECT
                         for lo, hi in (wilson(w, n, SEAT_SETTLE_Z) for w in wins))


def look_alpha() -> float:
    """The seat test's level at each look: SEAT_ALPHA shared out over the looks (Bonferroni)."""
    return SEAT_ALPHA / len(SEAT_LOOKS)


def seat_next(wins: Sequence[int], games: int) -> int | None:
    """The seat test's plan at a look after ``games`` games (``wins`` per seat): the games it
    needs in all, or None when it is done (settled fair, a seat significantly off, or the last look)."""
    if games >= SEAT_LOOKS[0] and (seats_settled(wins) or any(t.significant for t in seat_test(wins, look_alpha()))):
        return None
    return next((look for look in SEAT_LOOKS if look > games), None)


# ---------------------------------------------------------------- which games to play

@dataclass
class Cell:
    """One deck, one player, one table size: the games played so far and what to play next."""

    deck: int
    agent: str
    players: int
    fixed: int | None                  # --games N: exactly N games, no looks
    recs: list[GameRecord] = field(default_factory=list)
    target: int = 0                    # games wanted by the current look
    sent: int = 0                      # games handed to workers
    back: dict[int, list[GameRecord]] = field(default_factory=dict)     # first game of a chunk -> its records
    done: bool = False

    @property
    def seat_cell(self) -> bool:
        return self.fixed is None and self.agent == "random" and self.players in SEAT_TABLES

    def first_target(self) -> int:
        return self.fixed if self.fixed is not None else FIRST_GAMES

    def next_target(self) -> int | None:
        """Decide, at a look, how many games in all this cell needs (None: it is done)."""
        n = len(self.recs)
        if self.fixed is not None or n == 0:
            return None
        failed = sum(1 for r in self.recs if _failed(r))
        if failed * 2 >= n:            # most games fail: the error is certain, more games add nothing
            return None
        turns = sum(r.turns for r in self.recs)
        per_game = max(1.0, turns / n)
        if not self.seat_cell:
            if n > FIRST_GAMES:
                return None
            want = int(CELL_TURNS[self.agent] / per_game)
            return max(MIN_GAMES, min(CELL_GAMES[self.agent], want))
        look = seat_next(_wins(self.recs, self.players), n)
        if look is None or turns >= SEAT_TURNS:
            return None
        return min(look, max(n + 1, int(SEAT_TURNS / per_game)))


def _failed(r: GameRecord) -> bool:
    return r.outcome != "finished" or bool(r.dry)


def _wins(recs: Iterable[GameRecord], players: int) -> list[int]:
    wins = [0] * players
    for r in recs:
        if r.outcome == "finished" and r.winner is not None:
            wins[r.winner] += 1
    return wins


def chunk_size(cell: Cell) -> int:
    """Games per job: about 3,000 turns of this cell's games, between 2 and 25."""
    if not cell.recs:
        return cell.target - cell.sent
    per_game = max(1.0, sum(r.turns for r in cell.recs) / len(cell.recs))
    return max(2, min(25, int(3000 / per_game)))


GAMES_PRIORITY = 1 << 28     # on a build's workers: before faces (the check gates the rulebooks), after card sheets and rulebooks


@dataclass(frozen=True)
class TableRef:
    """A compiled deck as it travels to a worker process: pickled once, unpickled once per worker."""

    key: str
    blob: bytes

    @staticmethod
    def of(table: Table) -> TableRef:
        blob = pickle.dumps(table, pickle.HIGHEST_PROTOCOL)
        return TableRef(hashlib.sha256(blob).hexdigest(), blob)


@dataclass(frozen=True)
class GamesTag:
    """A chunk of games on :class:`deckgen.workers.Workers`: whose, which cell, from which game."""

    owner: int
    deck: int
    agent: str
    players: int
    start: int


_TABLES: dict[str, Table] = {}          # in a worker process: the tables unpickled so far
_AGENTS: dict[str, Agent] = {}


def _agent(name: str) -> Agent:
    from deckgen.rules.agents import make_agent

    got = _AGENTS.get(name)
    if got is None:
        got = _AGENTS[name] = make_agent(name)
    return got


def _play_games(table: Table, agent: str, players: int, start: int, stop: int, seed: int) -> list[GameRecord]:
    from deckgen.rules.simulate import play_record

    who = _agent(agent)
    return [_lean(play_record(table, who, seed, players, i)) for i in range(start, stop)]


def _play(ref: TableRef, agent: str, players: int, start: int, stop: int, seed: int) -> list[GameRecord]:
    """Worker: games ``start`` to ``stop`` of one cell."""
    table = _TABLES.get(ref.key)
    if table is None:
        if len(_TABLES) >= 8:
            _TABLES.pop(next(iter(_TABLES)))
        table = _TABLES[ref.key] = pickle.loads(ref.blob)
    return _play_games(table, agent, players, start, stop, seed)


def _lean(rec: GameRecord) -> GameRecord:
    """A record with only what the verdict reads: the first and last hand-size samples, no
    per-seat plays or events (less to pass back from the workers)."""
    trace = rec.hand_trace
    return rec._replace(hand_trace=(trace[0], trace[-1]) if trace else (), events=(), plays_by_seat_kind=())


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


class Pending:
    """Verdicts being worked out on worker processes; :meth:`result` waits for them.

    With worker processes, each chunk of games is a job with a callback: as a chunk comes back
    its cell takes the records and the games the cell needs next are queued at once, on the
    pool's result thread, while the caller goes on with its other checks."""

    def __init__(self, decks: list[Deck], seed: int, games: int | None, workers: int | None,
                 progress: Progress | None = None):
        from deckgen.rules.table import compile_deck

        self.decks = decks
        self.seed = seed
        self.games = games
        self.progress = progress
        self.tables = [compile_deck(d) for d in decks]
        self.cells = [Cell(i, agent, n, games) for i, d in enumerate(decks) for agent in AGENTS
                      for n in range(d.players_min, d.players_max + 1)]
        self.error: BaseException | None = None
        self._results: list[Judged] | None = None
        self._lock = threading.RLock()
        self._over = threading.Event()
        self._own: Workers | None = None
        self._pool = _SHARED.get()
        if self._pool is not None and self._pool.n == 1:
            self._pool = None
        if self._pool is None and max(1, workers or os.cpu_count() or 1) > 1 and self.cells:
            from deckgen.rules import agents, engine, simulate  # noqa: F401  (forked workers inherit them)
            from deckgen.workers import Workers

            self._pool = self._own = Workers(max(1, workers or os.cpu_count() or 1))
        if self._pool is not None:
            self._refs = [TableRef.of(t) for t in self.tables]
            self._feed()

    def _tasks(self) -> Iterator[tuple[Cell, int, int]]:
        """Chunks ready to hand out now: (cell, first game, last game + 1)."""
        for cell in self.cells:
            if cell.done:
                continue
            if cell.target == 0:
                cell.target = cell.first_target()
            while cell.sent < cell.target:
                size = min(chunk_size(cell), cell.target - cell.sent)
                yield cell, cell.sent, cell.sent + size
                cell.sent += size

    def _feed(self) -> None:
        """Queue every chunk ready now on the pool; the end when every cell is done."""
        from deckgen.workers import Callback

        assert self._pool is not None
        with self._lock:
            for cell, start, stop in list(self._tasks()):
                tag = GamesTag(id(self), cell.deck, cell.agent, cell.players, start)
                back = Callback(functools.partial(self._back, cell, start), self._failed)
                self._pool.submit(tag, _play, (self._refs[cell.deck], cell.agent, cell.players, start, stop,
                                               _seed(self.seed, cell.agent)), GAMES_PRIORITY, back)
            if all(c.done for c in self.cells):
                self._over.set()

    def _back(self, cell: Cell, start: int, recs: list[GameRecord]) -> None:      # on the pool's result thread
        try:
            with self._lock:
                self._take(cell, start, recs)
                self._feed()
        except BaseException as exc:
            self._failed(exc)

    def _failed(self, exc: BaseException) -> None:
        if self.error is None:
            self.error = exc
        self._over.set()

    def _take(self, cell: Cell, start: int, recs: list[GameRecord]) -> None:
        cell.back[start] = recs
        while len(cell.recs) in cell.back:
            cell.recs.extend(cell.back.pop(len(cell.recs)))
        if len(cell.recs) == cell.target:
            nxt = cell.next_target()
            if nxt is None or nxt <= len(cell.recs):
                cell.done = True
            else:
                cell.target = nxt
        if self.progress:
            done = sum(1 for c in self.cells if c.done)
            self.progress("simulating", done, len(self.cells))

    def _run_here(self) -> None:
        """Every game in this process (one worker)."""
        while not all(c.done for c in self.cells):
            for cell, start, stop in list(self._tasks()):
                recs = _play_games(self.tables[cell.deck], cell.agent, cell.players, start, stop,
                                   _seed(self.seed, cell.agent))
                self._take(cell, start, recs)

    def _wait(self) -> None:
        if self._pool is None:
            self._run_here()
            return
        try:
            self._over.wait()
        finally:
            if self._own is not None:
                self._own.close(finish=self._over.is_set() and self.error is None)
                self._own = None
        if self.error is not None:
            raise self.error

    def result(self) -> list[Judged]:
        """Each deck's verdict."""
        if self._results is None:
            self._wait()
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

    def games_played(self) -> dict[str, int]:
        return {a: sum(t["games"] for t in self.tables[a]) for a in AGENTS}

    def summary(self) -> str:
        played = sum(self.games_played().values())
        finished = sum(t["finished"] for a in AGENTS for t in self.tables[a])
        meds = ", ".join(f"{t['players']}p {t['turns']['median']:g}" for t in self.tables["random"])
        return (f"{played} games (random and greedy players) over {len(self.tables['random'])} table sizes, "
                f"{finished} finished; median turns (random) {meds}")

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "games_per_table_size": self.games, "turn_cap": self.turn_cap,
                "tables": self.tables["random"], "greedy": {"tables": self.tables["greedy"]},
                "games_played": self.games_played(), "summary": self.summary()}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Simulation:
        return Simulation(data["seed"], data["games_per_table_size"], data["turn_cap"],
                          {"random": data["tables"], "greedy": data["greedy"]["tables"]})


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
    """Findings and the simulation section of one deck's cells."""
    from deckgen.rules.simulate import summarize

    out = _finishing(deck, table, cells)
    early = [(c, first) for c, first in ((c, [r for r in c.recs if r.outcome == "finished" and r.turns <= c.players])
                                         for c in cells) if c.recs and len(first) >= EARLY_SHARE * len(c.recs)]
    if early:
        out.append(_decided_early(deck, early))
    out.extend(_unfair_seats(deck, cells))
    out.extend(_lengths(deck, cells, bool(early)))
    out.extend(_dead(deck, table, cells))
    tables: dict[str, list[dict[str, Any]]] = {a: [] for a in AGENTS}
    for c in cells:
        tables[c.agent].append(summarize(table, c.players, c.recs))
    return Judged(out, Simulation(seed, games, table.rules.turn_cap, tables))


def _finishing(deck: Deck, table: Table, cells: list[Cell]) -> list[Finding]:
    """does-not-finish, or some-games-do-not-finish."""
    fails = [(c, bad) for c, bad in ((c, [r for r in c.recs if _failed(r)]) for c in cells) if bad]
    serious = [(c, bad) for c, bad in fails if len(bad) >= FAIL_SHARE * len(c.recs)]
    if serious:
        return [error("does-not-finish", "deck.players", _not_finishing(deck, table, serious), file=_file(deck),
                      hint=_finish_fix(deck, table, serious))]
    if not fails:
        return []
    parts = [f"{len(bad)} of {len(c.recs)} {c.agent}-player games at {c.players} players" for c, bad in fails]
    return [warning("some-games-do-not-finish", "deck.players",
                    "a few simulated games stalled, hit the turn cap or ran the draw pile dry: " + "; ".join(parts),
                    file=_file(deck), hint="fewer draw penalties or more cards to draw make every game end")]


def _unfair_seats(deck: Deck, cells: list[Cell]) -> list[Finding]:
    out = []
    for c in cells:
        if c.agent != "random":
            continue
        wins = _wins(c.recs, c.players)
        finished = sum(wins)
        if finished < 20:
            continue
        tests = seat_test(wins, look_alpha() if c.seat_cell else SEAT_ALPHA)
        off = [(i, t) for i, t in enumerate(tests) if t.significant]
        if off:
            words = "; ".join(f"seat {i + 1} wins {t.rate:.0%} (95 % interval {t.low:.0%}-{t.high:.0%}, Holm-adjusted "
                              f"p = {t.p:.2g})" for i, t in off)
            out.append(warning("unfair-seat", f"deck.players[{c.players}]",
                               f"at {c.players} players, over {finished} finished random-player games, {words}; "
                               f"a fair seat wins {1 / c.players:.0%} (seat 1 plays first)", file=_file(deck),
                               hint="look at what the first turns do: the start card's effect, the dealer's first "
                                    "player, a card that costs the next player their turn"))
    return out


def _lengths(deck: Deck, cells: list[Cell], early: bool) -> list[Finding]:
    """games-too-short (unless decided-before-play says it already) and games-too-long, against classic."""
    out = []
    for code, factor, word in (("games-too-short", SHORT_FACTOR, "shorter"), ("games-too-long", LONG_FACTOR, "longer")):
        short = code == "games-too-short"
        hits = []
        for c in cells:
            if not c.recs or (not short and any(_failed(r) for r in c.recs)):
                continue
            med = statistics.median(r.turns for r in c.recs)
            ref = classic_median(c.agent, c.players)
            if (med < factor * ref) if short else (med > factor * ref):
                hits.append(f"{c.players} players, {c.agent} player: median {med:g} turns against classic's {ref:g}")
        if hits and not (short and early):
            band = f"at least {SHORT_FACTOR:g}" if short else f"at most {LONG_FACTOR:g}"
            out.append(warning(code, "deck.players",
                               f"simulated games are far {word} than classic UNO's at the same table size "
                               f"({band} times classic's median): " + "; ".join(hits), file=_file(deck),
                               hint="a larger hand size, or fewer cards that shed or knock out several at once"
                                    if short else "change the hand size, the draw penalties or the number of "
                                                  "cards that shed several at once"))
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

    for i, cause in enumerate(CAUSES):
        v = causes[i]
        if not v or cause == "penalty":
            continue
        if cause == "everyone" and spread(v, lambda k: draw_n(k, "everyone_draws") * (players - 1)):
            continue
        if cause == "stack" and spread(v, lambda k: draw_n(k, "draw")):
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
    dry = sum(1 for r in bad_all if r.outcome == "finished")
    what = [w for w in (f"{stalled} stalled (nobody could play or draw)" if stalled else "",
                        f"{capped} hit the {table.rules.turn_cap}-turn cap" if capped else "",
                        f"{dry} ran the draw and discard piles dry" if dry else "") if w]
    text = ("simulated games do not end (games that did not finish, at each table size): "
            + _by_agent(serious, lambda c, bad: f"{c.players} players {len(bad)} of {len(c.recs)}")
            + f"; of those {len(bad_all)}, {', '.join(what)}")
    top = [(k, share) for k, share in _top_sources(deck, table, serious) if share >= 0.01]
    if top:
        text += ". Their drawn cards came from " + ", ".join(
            f"{_source_name(deck, k)} ({share:.0%})" for k, share in top[:3])
    grow = [_hands(c, bad)[1] for c, bad in serious]
    end = statistics.fmean(grow) if grow else 0
    if end:
        text += f"; hands of {deck.hand_size} dealt grew to {end:.0f} cards on average"
    return text


def _finish_fix(deck: Deck, table: Table, serious: CellGames) -> str:
    top = _top_sources(deck, table, serious)
    stalled = sum(1 for c, bad in serious for r in bad if r.outcome == "stalled")
    if top and not top[0][0].startswith("cause:") and top[0][1] >= 0.3:
        kid = top[0][0]
        copies = deck.count_by_kind().get(kid, 0)
        return (f"make '{_kname(deck, kid)}' ({_does(deck, kid)}) draw fewer cards or print fewer of them "
                f"({copies} of the {deck.total} cards are '{_kname(deck, kid)}'), or add cards that shed several at once")
    if stalled or (top and top[0][0] == "cause:no_play"):
        return ("cards rarely match each other: add wild cards, or numbers and actions in every colour, "
                "so that a hand always has something to play")
    return "add ways to shed cards (wilds, play-again, discard-all) or lower deck.players.max"


def _decided_early(deck: Deck, early: CellGames) -> Finding:
    def line(c: Cell, first: list[GameRecord]) -> str:
        med = statistics.median(r.turns for r in c.recs)
        return f"{c.players} players {len(first)} of {len(c.recs)} (median {med:g} turn{'s' if med != 1 else ''})"

    o = deck.rule_options
    knock = o.mercy_limit and any(r.knockouts for c, first in early for r in first)
    if knock:
        biggest = max((e.n or 0 for k in deck.kinds.values() for e in k.effects
                       if e.op in ("draw", "everyone_draws")), default=0)
        hint = (f"the Mercy limit ({o.mercy_limit}) knocks players out at once: set mercy_limit well above "
                f"hand_size + the largest draw ({deck.hand_size} + {biggest}), or lower that draw")
    else:
        hint = "deal more cards (deck.hand_size), or fewer cards that shed several at once"
    return error("decided-before-play", "deck.players",
                 "the game is decided before it is played: games that ended before every player "
                 "had a turn, at each table size: " + _by_agent(early, line), file=_file(deck), hint=hint)


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
        if per == 0 or per < DEAD_SHARE * typical:
            how = ("was never played" if per == 0 else
                   f"was played {per:.2f} times per copy per game, against {typical:.2f} for the deck's typical kind")
            out.append(warning("dead-card", f"kinds.{kid}",
                               f"'{_kname(deck, kid)}' {how} in {games} simulated games (random and greedy players)",
                               file=_file(deck),
                               hint="check that the rules let this card be played and that it can match the pile"))
    return out


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
        judged_file = stored["file"]
    except (ValueError, TypeError, KeyError):
        return None
    here = _file(deck)
    return Judged([dataclasses.replace(f, file=here) if f.file == judged_file else f for f in got.findings],
                  got.simulation)


def to_cache(deck: Deck, seed: int, games: int | None, result: Judged, cache_dir: Path | None = None) -> None:
    from deckgen import cache

    stored = {**result.to_json(), "file": _file(deck)}         # the manifest its findings name
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


def start(decks: list[Deck], seed: int = 1, games: int | None = None, workers: int | None = None,
          use_cache: bool = True, cache_dir: Path | None = None, progress: Progress | None = None) -> Verdicts:
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
    pending = Pending([decks[i] for i in todo], seed, games, workers, progress) if todo else None
    return Verdicts(decks, seed, games, use_cache, cache_dir, cached, pending, todo)
