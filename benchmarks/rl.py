"""PettingZoo environment speed: steps per second of the AEC loop with uniformly random legal actions.

One step is one ``env.step(action)`` after ``env.last()`` (the observation vector and the action
mask of the agent to act), as a learning loop runs it; whole hands of a bundled deck, 4 players,
fixed seed, on one core. Run (after ``pip install -e '.[rl]'``):

    .venv/bin/python benchmarks/rl.py [--deck classic] [--seconds 10] [--seed 1]

It prints steps per second of CPU time and wall time, with the machine's load average.
"""

from __future__ import annotations

import argparse
import os
import random
import time

import numpy as np

from deckgen.rl import env as make_env


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deck", default="classic")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    env = make_env(a.deck, players=a.players)
    rng = random.Random(a.seed)
    steps = hands = 0
    cpu0, wall0 = time.process_time(), time.perf_counter()
    env.reset(seed=a.seed)
    while time.process_time() - cpu0 < a.seconds:
        for _agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[rng.randrange(len(legal))])
            env.step(action)
            steps += 1
        hands += 1
        env.reset()
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"deckgen.rl {a.deck}, {a.players} players, random legal actions, seed {a.seed}, load average {load:.2f}")
    print(f"  {hands} hands  {steps} steps  {steps / cpu:,.0f} steps/s CPU  {steps / wall:,.0f} steps/s wall")


if __name__ == "__main__":
    main()
