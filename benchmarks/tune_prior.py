"""Tuning the expert's rule of thumb: one setting of its constants against the current ones, on
the same games, compared game by game.

    .venv/bin/python benchmarks/tune_prior.py [--deck classic] [--players 4] [--games 16000] [--seed 101]
                                              [--think 0] [--jobs 2] '{"DRAW_OVER_WILD": 5}' '{"BLOCK": 100}' ...

Each setting is a JSON object of module constants of ``deckgen.rules.expert`` (the others keep
their values). One expert plays among greedy players, every seat in turn, each game seeded
``{seed}:skill:{players}:{i}`` as ``benchmarks/report.py --strength --seed`` seeds them; with
``--think 0`` (the default) it plays its rule of thumb alone (its memory, no play-outs: about a
hundred games a second), else it searches with that budget. Besides each setting's win rate with
its 95 % Wilson interval, it prints the paired difference from the current constants (played
first): the games each one won and the other lost. Most games go the same way under both settings
(the deal decides them), so this difference is far more precise than the two rates' intervals:
a change of a constant that alters a few decisions per game is measured to about ±0.1 to ±0.3
points with 16,000 games.

Tune on one seed, then check what you keep on another (and on the seeds of the table in
docs/expert.md) with ``benchmarks/report.py --strength``.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import time
from typing import Any

from deckgen.balance import report as R
from deckgen.rules import expert as X
from deckgen.rules.agents import GreedyAgent
from deckgen.rules.engine import Game
from deckgen.rules.table import compile_deck

_DEFAULTS = {k: getattr(X, k) for k in dir(X) if k.isupper() and not k.startswith("_")}
_TABLES: dict[str, Any] = {}


class PriorOnly(X.ExpertAgent):
    """The expert answering every searched decision by its rule of thumb (the last card aside)."""

    def _search(self, d: Any, o: Any, rng: Any, cands: Any) -> Any:
        if len(cands) == 1:
            return cands[0]
        for c in cands:
            if c[0] is not None and len(o.hand) == 1 and d.kind is X.DecisionKind.PLAY:
                return c
        return cands[self._prior_choice(d, o, rng, cands)]


def _play(task: tuple[str, dict[str, Any], int, int, int, int, int]) -> list[int]:
    """1 for each game the expert won, 0 otherwise, under the setting's constants."""
    deck, setting, seed, start, stop, think, players = task
    for k, v in {**_DEFAULTS, **setting}.items():
        setattr(X, k, v)
    table = _TABLES.get(deck) or _TABLES.setdefault(deck, compile_deck(R._load_checked(deck)))
    greedy = GreedyAgent()
    won = []
    for i in range(start, stop):
        seat = i % players
        bots: list[Any] = [greedy] * players
        bots[seat] = PriorOnly(1) if think == 0 else X.ExpertAgent(think)
        g = Game(table, players, R.skill_seed(seed, players, i), bots, record=True).run()
        won.append(int(g.outcome == "finished" and g.winner == seat))
    return won


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return centre - half, centre + half


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deck", default="classic")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=16000)
    ap.add_argument("--seed", type=int, default=101)
    ap.add_argument("--think", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("settings", nargs="*", help="JSON objects of expert constants")
    a = ap.parse_args()
    settings = [json.loads(s) for s in a.settings]
    unknown = sorted({k for s in settings for k in s} - set(_DEFAULTS))
    if unknown:
        ap.error(f"not constants of deckgen.rules.expert: {', '.join(unknown)}")
    chunk = 50 if a.think == 0 else 4
    base: list[int] = []
    with multiprocessing.Pool(a.jobs) as pool:
        for setting in [{}, *settings]:
            t0 = time.perf_counter()
            tasks = [(a.deck, setting, a.seed, s, min(s + chunk, a.games), a.think, a.players)
                     for s in range(0, a.games, chunk)]
            won = [w for part in pool.map(_play, tasks, chunksize=1) for w in part]
            lo, hi = wilson(sum(won), len(won))
            line = (f"{a.deck} {a.players}p seed {a.seed} think {a.think} {json.dumps(setting) if setting else 'current'}: "
                    f"{sum(won)}/{len(won)} = {100 * sum(won) / len(won):.2f} % (95 % Wilson {100 * lo:.1f}-{100 * hi:.1f})")
            if setting:
                up = sum(1 for x, y in zip(won, base) if x > y)
                down = sum(1 for x, y in zip(won, base) if x < y)
                line += (f"; against current: +{up} -{down} games, {100 * (up - down) / len(won):+.2f} "
                         f"± {100 * math.sqrt(up + down) / len(won):.2f} points (1 s.e.)")
            else:
                base = won
            print(f"{line}; {time.perf_counter() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
