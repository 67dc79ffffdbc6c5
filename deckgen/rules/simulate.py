"""Simulated play: many seeded games per table size, on every core (or a Dask cluster),
summarised for people.

Each game's seed comes from (seed, table size, game index) alone, so the results are the same
whatever the number of worker processes or machines (:mod:`deckgen.rules.runner`).
"""

from __future__ import annotations

import math
import os
import statistics
from collections.abc import Iterable, Mapping

from deckgen.errors import DeckgenError, error
from deckgen.progress import Progress
from deckgen.rules import expert
from deckgen.rules.agents import AGENTS, Agent
from deckgen.rules.engine import Game
from deckgen.rules.expert import wants_events
from deckgen.rules.record import CAUSES, GameRecord
from deckgen.rules.runner import Work, run_tasks
from deckgen.rules.state import CAPPED, FINISHED, STALLED
from deckgen.rules.table import Table, compile_deck

CHUNK = 25
SMALL_CHUNK = 16


def game_seed(seed: int, players: int, index: int) -> str:
    return f"{seed}:{players}:{index}"


def play_record(table: Table, agent, seed: int, players: int, index: int) -> GameRecord:
    """One game, reduced to the numbers the reports need."""
    g = Game(table, players, game_seed(seed, players, index), agent, record=wants_events(agent)).run()
    return record_of(g)


def record_of(g: Game) -> GameRecord:
    """The counters of a played game."""
    held = [0] * len(g.t.kinds)
    mkind = g.t.mkind
    for hand in g.hands:
        for f in hand:
            held[mkind[f + f]] += 1
    return GameRecord(
        g.outcome or CAPPED, g.winner, g.turns, g.decisions, g.draws, g.reshuffles, g.dry, g.knockouts,
        g.max_stack, g.max_hand, g.flex_plays, g.power_flips, tuple(g.plays_by_kind), tuple(g.by_cause),
        tuple(g.penalty_by_kind), tuple(tuple(row) for row in g.plays_by_seat_kind), tuple(held),
        tuple(g.trace), tuple(g.events))


def _prepare(spec: tuple[Table, str, int]) -> tuple[Table, Agent]:
    table, agent_name, think = spec
    return table, expert.make(agent_name, think)


def _run_chunk(state: tuple[Table, Agent], task: tuple) -> list[GameRecord]:
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


def run(table: Table, players: Iterable[int], games: int, seed: int = 1, agent: str = "random",
        workers: int | None = None, progress: Progress | None = None,
        turn_budget: int | None = None, cluster: str | None = None,
        think: int = expert.THINK) -> dict[int, list[GameRecord]]:
    """Play up to ``games`` games at each table size; records per table size, in game order.

    With a ``turn_budget``, a table size stops taking games once the games so far have used
    that many turns (game i is kept when games 0..i-1 used fewer): long games cost fewer games,
    and the kept set depends only on the seed, never on timing or the number of cores.
    ``cluster``: the address of a Dask scheduler to play on instead of this machine's cores;
    ``think``: the expert's play-outs per decision."""
    if agent not in AGENTS:
        raise DeckgenError(error("agent", "--agent", f"unknown agent '{agent}'", hint="agents: " + ", ".join(AGENTS)))
    feed = _Feed(list(players), games, seed, turn_budget)
    workers = workers or os.cpu_count() or 1
    if games * len(feed.players) <= SMALL_CHUNK:
        workers = 1
    work = Work(_prepare, (table, agent, think), _run_chunk)
    for task, recs in run_tasks(work, feed, workers, cluster):
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

    def next_task(self) -> tuple | str | None:
        """The next chunk (table size, first game, end, seed), "wait" (a budgeted table size has
        work in flight), or None when every table size is done."""
        active = [n for n in self.players if self.nxt[n] < self.games and n not in self.full]
        if self.budget is not None:
            # a table size close to its budget gets one task at a time: no long game wasted
            ready = [n for n in active if not self.flying[n] or self._size(n) > 2]
            if not ready and active:
                return "wait"
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

    def take(self, task: tuple, recs: list[GameRecord], progress: Progress | None) -> None:
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


def summarize(table: Table, players: int, recs: list[GameRecord]) -> dict:
    """The report of one table size."""
    n = len(recs)
    outcomes = [r.outcome for r in recs]
    turns = sorted(r.turns for r in recs)
    wins = [0] * players
    for r in recs:
        if r.outcome == FINISHED and r.winner is not None:
            wins[r.winner] += 1
    finished = outcomes.count(FINISHED)
    kinds = [0] * len(table.kinds)
    causes = [0] * len(CAUSES)
    for r in recs:
        for i, c in enumerate(r.plays_by_kind):
            kinds[i] += c
        for i, c in enumerate(r.draws_by_cause):
            causes[i] += c
    data = {
        "players": players,
        "games": n,
        "finished": finished,
        "stalled": outcomes.count(STALLED),
        "capped": outcomes.count(CAPPED),
        "turns": {"mean": _r(statistics.fmean(turns)), "median": _r(statistics.median(turns)),
                  "p90": turns[max(0, math.ceil(0.9 * n) - 1)]},
        "decisions_per_game": _r(statistics.fmean(r.decisions for r in recs)),
        "win_rate_by_seat": [_r(w / finished, 3) if finished else 0.0 for w in wins],
        "draws_per_game": _r(statistics.fmean(r.draws for r in recs)),
        "draws_per_game_by_cause": {c: _r(causes[i] / n) for i, c in enumerate(CAUSES)},
        "reshuffles_per_game": _r(statistics.fmean(r.reshuffles for r in recs)),
        "games_with_dry_draw_pile": sum(1 for r in recs if r.dry),
        "largest_hand": max(r.max_hand for r in recs),
        "plays_by_kind": {table.kinds[i]: c for i, c in enumerate(kinds) if c or _in_deck(table, i)},
    }
    if table.opts.mercy_limit:
        data["knockouts_per_game"] = _r(statistics.fmean(r.knockouts for r in recs))
    if table.opts.stacking != "off":
        data["largest_stack"] = max(r.max_stack for r in recs)
    if table.any_flex:
        data["flex_plays_per_game"] = _r(statistics.fmean(r.flex_plays for r in recs))
    if table.opts.power_cards:
        data["power_flips_per_game"] = _r(statistics.fmean(r.power_flips for r in recs))
    return data


def _in_deck(table: Table, kind_index: int) -> bool:
    return any(table.mkind[2 * f] == kind_index or (table.has_flex[f] and table.mkind[2 * f + 1] == kind_index)
               for f in range(table.n_faces))


def _r(x: float, nd: int = 2) -> float:
    return round(float(x), nd)


def simulate(deck, players: Iterable[int] | None = None, games: int = 200, seed: int = 1, agent: str = "random",
             workers: int | None = None, progress: Progress | None = None, turn_budget: int | None = None,
             cluster: str | None = None, think: int = expert.THINK) -> dict:
    """Simulate a deck over table sizes (on this machine, or the Dask scheduler at ``cluster``);
    a JSON-ready report. ``think``: the expert's play-outs per decision (``agent="expert"``)."""
    table = compile_deck(deck)
    players = list(players or range(deck.players_min, deck.players_max + 1))
    recs = run(table, players, games, seed, agent, workers, progress, turn_budget, cluster, think)
    return {
        "deck": deck.id,
        "agent": agent,
        **({"think": think} if agent == "expert" else {}),
        "seed": seed,
        "games_per_table_size": games,
        "turn_budget_per_table_size": turn_budget,
        "turn_cap": table.opts.turn_cap,
        "tables": [summarize(table, n, recs[n]) for n in players],
    }


def to_text(rep: dict, names: Mapping[str, str] | None = None) -> str:
    """The simulation report as a table for people; ``names``: kind id -> display name."""
    lines = [f"{rep['deck']}: {rep['games_per_table_size']} games per table size, agent {rep['agent']}, "
             f"seed {rep['seed']}"]
    head = f"{'players':>7} {'fin':>5} {'stall':>5} {'cap':>4} {'turns mean/med/p90':>20} {'draws':>7} {'reshuf':>6}"
    extra_keys = [k for k in ("knockouts_per_game", "largest_stack", "largest_hand", "flex_plays_per_game",
                              "power_flips_per_game") if k in rep["tables"][0]]
    short = {"knockouts_per_game": "KO", "largest_stack": "stack", "largest_hand": "hand",
             "flex_plays_per_game": "flex", "power_flips_per_game": "flips"}
    head += "".join(f" {short[k]:>6}" for k in extra_keys)
    lines.append(head)
    for t in rep["tables"]:
        tr = t["turns"]
        row = (f"{t['players']:>7} {t['finished']:>5} {t['stalled']:>5} {t['capped']:>4} "
               f"{tr['mean']:>8.1f}/{tr['median']:>5.0f}/{tr['p90']:>5} {t['draws_per_game']:>7.1f} "
               f"{t['reshuffles_per_game']:>6.2f}")
        row += "".join(f" {t[k]:>6}" for k in extra_keys)
        lines.append(row)
    lines.append("win rate by seat (seat 1 plays first):")
    for t in rep["tables"]:
        lines.append(f"  {t['players']:>2}: " + " ".join(f"{w:.2f}" for w in t["win_rate_by_seat"]))
    lines.append("cards drawn per game, by cause:")
    used = [c for c in CAUSES if any(t["draws_per_game_by_cause"][c] for t in rep["tables"])]
    if used:
        lines.append("  players " + " ".join(f"{c:>9}" for c in used))
        for t in rep["tables"]:
            lines.append(f"  {t['players']:>7} " + " ".join(f"{t['draws_per_game_by_cause'][c]:>9.1f}" for c in used))
    lines.append("plays per card kind (all table sizes):")
    totals: dict[str, int] = {}
    for t in rep["tables"]:
        for k, v in t["plays_by_kind"].items():
            totals[k] = totals.get(k, 0) + v
    shown = {k: (names or {}).get(k, k) for k in totals}
    width = max([24, *(len(n) for n in shown.values())])
    for k, v in totals.items():
        lines.append(f"  {shown[k]:<{width}} {v:>8}")
    return "\n".join(lines)
