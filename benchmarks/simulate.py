"""Simulation speed: decisions per second for classic UNO, 4 players, random agent, fixed seed.

One decision is one player choice (what to play, a colour, a target, a challenge, a stack,
a duel answer, the UNO call). Run:

    .venv/bin/python benchmarks/simulate.py [--games 4000] [--workers 2] [--seed 1]

Every worker plays its share of the games (each seeded from (seed, 4, index), as
``deckgen simulate`` does) and times itself; the figure is total decisions divided by the
wall time of the slowest worker, plus the single-core figure for reference.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import time

from deckgen import manifest
from deckgen.rules.agents import RandomAgent
from deckgen.rules.engine import Game
from deckgen.rules.simulate import game_seed
from deckgen.rules.table import compile_deck

PLAYERS = 4


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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
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
