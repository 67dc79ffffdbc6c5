"""Simulation speed: decisions per second for classic UNO, 4 players, random agent, fixed seed.

One decision is one player choice (what to play, a colour, a target, a challenge, a stack,
a duel answer, the UNO call). Run:

    .venv/bin/python benchmarks/simulate.py [--games 4000] [--workers 2] [--seed 1]

Every worker plays its share of the games (each seeded from (seed, 4, index), as
``deckgen simulate`` does) and times itself; the figure is total decisions divided by the
wall time of the slowest worker, plus the single-core figure for reference.

    .venv/bin/python benchmarks/simulate.py --versus rlcard [--seconds 10]

times RLCard's UNO game (``pip install -e '.[bench]'``) beside deckgen's classic game in one
process pinned to one core: 4 players, every decision a uniformly random legal action, short
rounds of each in turn so that both see the same load. It prints decisions per second of
each (RLCard: one ``step`` is one decision) and their ratio, by CPU time (the figure to
compare on a busy machine) and by wall time.

    .venv/bin/python benchmarks/simulate.py --bundled [--games 60] [--seed 1]

plays each bundled deck with each bundled agent, as the verdict of ``deckgen check`` does
(``play_record`` over every table size of the deck, ``--games`` games each), on one core, and
prints games and decisions per second of CPU time.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import time
from typing import Protocol

from deckgen import manifest
from deckgen.rules.agents import RandomAgent
from deckgen.rules.bots import make as make_agent
from deckgen.rules.engine import Game
from deckgen.rules.simulate import game_seed, play_record
from deckgen.rules.table import compile_deck

PLAYERS = 4
ROUND = 0.25           # seconds of one side before the other takes its turn
RLCARD_STEP_CAP = 20_000


def work(args):
    start, stop, seed = args
    table = compile_deck(manifest.load_deck("classic"))
    agent = RandomAgent()
    Game(table, PLAYERS, "warm-up", agent, record=False).run()
    decisions = turns = 0
    t0 = time.perf_counter()
    for i in range(start, stop):
        g = Game(table, PLAYERS, game_seed(seed, PLAYERS, i), agent, record=False).run()
        decisions += g.decisions
        turns += g.turns
    return decisions, turns, time.perf_counter() - t0


class Side(Protocol):
    name: str

    def game(self) -> int: ...


class DeckgenSide:
    name = "deckgen classic"

    def __init__(self, seed: int):
        self.table = compile_deck(manifest.load_deck("classic"))
        self.agent = RandomAgent()
        self.seed, self.index = seed, 0

    def game(self) -> int:
        g = Game(self.table, PLAYERS, game_seed(self.seed, PLAYERS, self.index), self.agent, record=False).run()
        self.index += 1
        return g.decisions


class RLCardSide:
    name = "RLCard uno"

    def __init__(self, seed: int):
        import numpy as np
        from rlcard.games.uno.game import UnoGame

        self.game_obj = UnoGame(num_players=PLAYERS)
        self.game_obj.np_random = np.random.RandomState(seed)
        self.rng = random.Random(seed)

    def game(self) -> int:
        g, rng = self.game_obj, self.rng
        g.init_game()
        steps = 0
        while not g.is_over() and steps < RLCARD_STEP_CAP:
            g.step(rng.choice(g.get_legal_actions()))
            steps += 1
        return steps


def versus(seconds: float, seed: int, core: int | None) -> None:
    try:
        import rlcard
    except ImportError:
        raise SystemExit("RLCard is not installed: pip install -e '.[bench]'") from None
    if core is not None and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {core})
    sides: list[Side] = [DeckgenSide(seed), RLCardSide(seed)]
    totals: dict[str, list[float]] = {s.name: [0, 0, 0.0, 0.0] for s in sides}   # decisions, games, cpu s, wall s
    for s in sides:                                          # warm up: imports, caches
        s.game()
    end = time.perf_counter() + 2 * seconds
    while time.perf_counter() < end:
        for s in sides:
            c0, w0 = time.process_time(), time.perf_counter()
            stop = w0 + ROUND
            while time.perf_counter() < stop:
                totals[s.name][0] += s.game()
                totals[s.name][1] += 1
            totals[s.name][2] += time.process_time() - c0
            totals[s.name][3] += time.perf_counter() - w0
    pinned = f"pinned to core {core}" if core is not None else "not pinned"
    print(f"classic UNO, {PLAYERS} players, random legal actions, seed {seed}, one process {pinned}, "
          f"RLCard {rlcard.__version__}, load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    rates = {}
    for name, (dec, games, cpu, wall) in totals.items():
        rates[name] = (dec / cpu, dec / wall)
        print(f"  {name:<16} {games:>7} games {dec:>10} decisions  {dec / cpu:>10,.0f}/s CPU  {dec / wall:>10,.0f}/s wall")
    d, r = rates[sides[0].name], rates[sides[1].name]
    print(f"  ratio deckgen / RLCard: {d[0] / r[0]:.2f} (CPU time), {d[1] / r[1]:.2f} (wall time)")


BUNDLED = ("classic", "no-mercy", "flex-spectrum")
VERDICT_AGENTS = ("random", "greedy")      # the players the verdict of `deckgen check` uses


def bundled(games: int, seed: int) -> None:
    """Games and decisions per CPU second of every bundled deck with every bundled agent."""
    print(f"one core, {games} games per table size, seed {seed}, load average {os.getloadavg()[0]:.2f}")
    for name in BUNDLED:
        deck = manifest.load_deck(name)
        table = compile_deck(deck)
        sizes = range(deck.players_min, deck.players_max + 1)
        for agent_name in VERDICT_AGENTS:
            agent = make_agent(agent_name)
            play_record(table, agent, seed, sizes[0], -1)                # warm-up: the legality cache
            played = decisions = 0
            t0 = time.process_time()
            for n in sizes:
                for i in range(games):
                    decisions += play_record(table, agent, seed, n, i).decisions
                    played += 1
            cpu = time.process_time() - t0
            print(f"  {name:<14} {agent_name:<7} {played:>5} games {played / cpu:>8,.0f} games/s "
                  f"{decisions / cpu:>10,.0f} decisions/s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--versus", choices=["rlcard"], help="time another engine beside deckgen on one core")
    ap.add_argument("--seconds", type=float, default=10.0, help="with --versus: seconds for each engine")
    ap.add_argument("--core", type=int, default=0, help="with --versus: the core to pin to (-1: do not pin)")
    ap.add_argument("--bundled", action="store_true", help="every bundled deck and agent, on one core")
    a = ap.parse_args()
    if a.bundled:
        bundled(a.games if a.games != 4000 else 60, a.seed)
        return
    if a.versus:
        versus(a.seconds, a.seed, None if a.core < 0 else a.core)
        return
    share = a.games // a.workers
    tasks = [(w * share, (w + 1) * share, a.seed) for w in range(a.workers)]
    t0 = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(a.workers) as pool:
        results = pool.map(work, tasks)
    wall = time.perf_counter() - t0
    decisions = sum(r[0] for r in results)
    turns = sum(r[1] for r in results)
    slowest = max(r[2] for r in results)
    single = work((0, share, a.seed))
    print(f"classic UNO, {PLAYERS} players, random agent, seed {a.seed}, {share * a.workers} games, "
          f"{a.workers} workers")
    print(f"  decisions: {decisions}  turns: {turns}  ({decisions / (share * a.workers):.1f} decisions per game)")
    print(f"  {decisions / slowest:,.0f} decisions/s across {a.workers} workers "
          f"({decisions / wall:,.0f}/s counting process start-up)")
    print(f"  {single[0] / single[2]:,.0f} decisions/s on one core")


if __name__ == "__main__":
    main()
