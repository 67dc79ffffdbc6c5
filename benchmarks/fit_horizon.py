"""Fitting the expert's horizon evaluation (``deckgen.rules.expert.FIT``): the chance of going out
first that scores a play-out stopped before the hand ends.

    .venv/bin/python benchmarks/fit_horizon.py [--deck classic] [--players 4] [--games 6000] [--seed 404]
                                               [--jobs 2]

It plays games of one expert's rule of thumb (with its memory, no play-outs) among greedy players,
every seat in turn, seeded ``{seed}:skill:{players}:{i}`` as ``benchmarks/tune_prior.py`` seeds
them. At every decision a greedy player is asked (a card to play, one just drawn, a colour...) and
every choice of a card by the rule of thumb, it records ``expert.horizon_features`` of the real
table (every hand, as a play-out sees them; the places counted from the player deciding), and who
went on to win the hand: the positions a play-out may stop at, the player to move able to follow or
not. Then it fits a
multinomial logit: each player's strength is the weighted sum of their features, and the chance
that a player wins is exp(strength) over the sum of every player's. It prints the weights, ready to
paste as ``FIT``, and the mean log-likelihood of the fit beside that of the hand sizes alone (the
evaluation the expert used before), of the weights the expert uses now (``FIT``, on this deck's
positions) and of a uniform guess.

Needs numpy (``pip install -e '.[bench]'``), which deckgen itself never uses.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import time
from typing import Any

import numpy as np
from tune_prior import PriorOnly  # benchmarks/ (the script's folder)

from deckgen.balance import report as R
from deckgen.rules import expert as X
from deckgen.rules.agents import GreedyAgent
from deckgen.rules.decision import DecisionKind
from deckgen.rules.engine import Game
from deckgen.rules.table import compile_deck

_GAME: list[Any] = []                      # the game being played (its agents read the real table)
_SEAT = [0]                                # ... and the seat of the rule of thumb in it
_SEEN: list[list[tuple[int, list[float]]]] = []


def _record(player: int) -> None:
    _SEEN.append(X.horizon_features(_GAME[0], _SEAT[0], player))


class _Greedy(GreedyAgent):
    """The greedy bot, asked through decide (the same answers), recording at each decision."""

    def decide(self, d: Any, o: Any, rng: Any) -> Any:
        _record(o.player)
        return super().decide(d, o, rng)


class _Prior(PriorOnly):
    """The expert answering by its rule of thumb alone (as tune_prior's), recording too."""

    def decide(self, d: Any, o: Any, rng: Any) -> Any:
        if d.kind is DecisionKind.PLAY:
            _record(o.player)
        return super().decide(d, o, rng)


def _play(task: tuple[str, int, int, int, int]) -> list[tuple[list[list[float]], int]]:
    """Each recorded position of these games: the features of each player (from the player to
    move on) and the place of the winner among them."""
    deck, seed, start, stop, players = task
    table = compile_deck(R._load_checked(deck))
    greedy = _Greedy()
    rows: list[tuple[list[list[float]], int]] = []
    for i in range(start, stop):
        seat = _SEAT[0] = i % players
        bots: list[Any] = [greedy] * players
        bots[seat] = _Prior(1)
        _SEEN.clear()
        g = Game(table, players, R.skill_seed(seed, players, i), bots, record=True)
        _GAME[:] = [g]
        g.run()
        if g.outcome != "finished":
            continue
        for seen in _SEEN:
            places = [k for k, (q, _) in enumerate(seen) if q == g.winner]
            if len(seen) == players and places:
                rows.append(([x for _, x in seen], places[0]))
    return rows


def fit(x: np.ndarray, y: np.ndarray, steps: int = 1500) -> tuple[np.ndarray, float]:
    """The weights of the multinomial logit (gradient ascent on the mean log-likelihood, with Adam's
    moments) and that likelihood."""
    n, players, k = x.shape
    w = np.zeros(k)
    m = np.zeros(k)
    v = np.zeros(k)
    won = np.zeros((n, players))
    won[np.arange(n), y] = 1
    for _ in range(steps):
        u = x @ w
        u -= u.max(axis=1, keepdims=True)
        p = np.exp(u)
        p /= p.sum(axis=1, keepdims=True)
        grad = ((won - p)[:, :, None] * x).sum(axis=(0, 1)) / n
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w += 0.05 * m / (np.sqrt(v) + 1e-8)
    return w, _log_likelihood(x, y, w)


def _log_likelihood(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    """The mean log-likelihood of the winners ``y`` under the weights ``w``."""
    u = x @ w
    u -= u.max(axis=1, keepdims=True)
    p = np.exp(u)
    p /= p.sum(axis=1, keepdims=True)
    return float(np.log(p[np.arange(len(y)), y]).mean())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deck", default="classic")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=6000)
    ap.add_argument("--seed", type=int, default=404)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    t0 = time.perf_counter()
    tasks = [(a.deck, a.seed, s, min(s + 50, a.games), a.players) for s in range(0, a.games, 50)]
    with multiprocessing.Pool(a.jobs) as pool:
        rows = [r for part in pool.map(_play, tasks, chunksize=1) for r in part]
    x = np.array([r[0] for r in rows])
    y = np.array([r[1] for r in rows])
    print(f"{a.deck} {a.players}p seed {a.seed}: {len(rows)} positions of {a.games} games, "
          f"{time.perf_counter() - t0:.0f} s", flush=True)
    w, ll = fit(x, y)
    size = X.FIT_FEATURES.index("cards held")
    _, ll_sizes = fit(x[:, :, [X.FIT_FEATURES.index("log of the cards held"), size]], y)
    ll_now = _log_likelihood(x, y, np.array(X.FIT))
    print(f"mean log-likelihood: fitted {ll:.4f}, hand sizes alone {ll_sizes:.4f}, "
          f"the weights in use {ll_now:.4f}, uniform {-math.log(a.players):.4f}")
    for name, weight in zip(X.FIT_FEATURES, w):
        print(f"  {name:62s} {weight:+.3f}")
    print("FIT = (" + ", ".join(f"{weight:.3g}" for weight in w) + ")")


if __name__ == "__main__":
    main()
