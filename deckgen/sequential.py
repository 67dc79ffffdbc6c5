"""Sequential tests: play more games only while the answer is not yet clear.

Every criterion of the playability verdict (``docs/checks.md``), and the checks ``deckgen tune``
and the balance report's skill section make, is a test of games played in batches. After each
*look* (a fixed number of games, :data:`LOOKS`) the test answers :data:`FINE`, :data:`PROBLEM`
or ``None`` (not clear yet: play up to the next look). Looks are fixed game counts, and a look
reads only the first games in game order, so which games decide depends on the seed alone,
never on timing or the number of processes.

- :class:`RateTest`: Wald's sequential probability ratio test of a share of games (games that
  do not finish, games decided before everyone played, games longer than a limit): a share at
  or below ``p0`` is called a problem with probability at most ``alpha`` (the false alarm), a
  share at or above ``p1`` is missed with probability at most ``beta`` (one minus the power).
- :class:`SeatTest`: each seat's win rate against a fair share, with a tolerance: a seat is
  flagged only when its interval lies wholly outside fair ± ``tolerance`` (so a deck whose seats
  are off by a point or two is never flagged, however many games), and the table is cleared as
  soon as every seat's interval lies within fair ± ``detect``.

The measured false-alarm rates and powers are in ``docs/checks.md`` and held by
``tests/test_sequential.py``. Standard library only (and the Wilson interval of :mod:`deckgen.stats`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from deckgen.stats import wilson

FINE: Final = "fine"
PROBLEM: Final = "problem"

# games at each look: doubling, with a step between (a clean table is cleared early, a borderline one
# gets up to the last look)
LOOKS: Final = (8, 16, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024)


def next_look(games: int, looks: Sequence[int] = LOOKS) -> int | None:
    """The first look after ``games`` games (None: the last look is passed)."""
    return next((n for n in looks if n > games), None)


@dataclass(frozen=True)
class RateTest:
    """Wald's SPRT of a share: H0 share <= p0 (fine) against H1 share >= p1 (a problem)."""

    p0: float
    p1: float
    alpha: float          # P(PROBLEM | share = p0): the false alarm
    beta: float           # P(FINE | share = p1): the miss

    def llr(self, k: int, n: int) -> float:
        """The log likelihood ratio of k events in n games, H1 against H0."""
        return k * math.log(self.p1 / self.p0) + (n - k) * math.log((1 - self.p1) / (1 - self.p0))

    def decide(self, k: int, n: int) -> str | None:
        """FINE, PROBLEM, or None (not clear yet) after k events in n games."""
        if n <= 0:
            return None
        x = self.llr(k, n)
        if x >= math.log((1 - self.beta) / self.alpha):
            return PROBLEM
        if x <= math.log(self.beta / (1 - self.alpha)):
            return FINE
        return None

    def fallback(self, k: int, n: int) -> str | None:
        """At the end of the budget, undecided: PROBLEM when the share seen is nearer p1, else None."""
        return PROBLEM if n and k / n >= (self.p0 + self.p1) / 2 else None


def normal_quantile(p: float) -> float:
    """The p-quantile of the standard normal distribution (Acklam's rational approximation, refined
    by one Newton step on erfc: good to 1e-12 for 1e-12 < p < 1 - 1e-12)."""
    if not 0 < p < 1:
        raise ValueError("p must be strictly between 0 and 1")
    a = (-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.383577518672690e2,
         -3.066479806614716e1, 2.506628277459239)
    b = (-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1)
    c = (-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968,
         2.938163982698783)
    d = (7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416)
    lo = 0.02425
    if p < lo:
        q = math.sqrt(-2 * math.log(p))
        x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / \
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
    elif p <= 1 - lo:
        q = p - 0.5
        r = q * q
        x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q / \
            (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
    else:
        q = math.sqrt(-2 * math.log(1 - p))
        x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / \
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
    e = 0.5 * math.erfc(-x / math.sqrt(2)) - p
    u = e * math.sqrt(2 * math.pi) * math.exp(x * x / 2)
    return x - u / (1 + x * u / 2)


def poisson_high(count: int, exposure: float, z: float) -> float:
    """The upper bound of a Poisson rate, ``count`` events over ``exposure``, at ``z`` standard
    errors (the score bound: exact enough from zero events on)."""
    if exposure <= 0:
        return math.inf
    return (count + z * z / 2 + z * math.sqrt(count + z * z / 4)) / exposure


class Seat(NamedTuple):
    """One seat's figures at a look."""

    seat: int             # 0 plays first
    wins: int
    rate: float
    low: float            # the flag interval
    high: float
    off: bool             # wholly outside fair ± tolerance
    extreme: bool         # ... and at least twice the fair share, or at most half of it


@dataclass(frozen=True)
class SeatTest:
    """Win rate by seat against a fair share, looked at after each batch of games.

    ``alpha`` is shared out over the seats and the looks (Bonferroni), so the chance that a table
    whose every seat is within ``tolerance`` of fair gets a seat flagged, over all its looks, is
    at most ``alpha`` (measured far below it: docs/checks.md). The table is cleared (FINE) once
    every seat's ``settle_z`` interval lies within fair ± ``detect``."""

    alpha: float = 0.01
    tolerance: float = 0.05
    detect: float = 0.10
    settle_z: float = 1.2816              # each bound one-sided 90 %
    looks: int = len(LOOKS)

    def z(self, seats: int) -> float:
        return normal_quantile(1 - self.alpha / (2 * seats * self.looks))

    def seats(self, wins: Sequence[int]) -> list[Seat]:
        n = sum(wins)
        fair = 1 / len(wins)
        z = self.z(len(wins))
        high_mark = min(2 * fair, (1 + fair) / 2)    # twice the fair share, or half way to always (2 players)
        out = []
        for s, w in enumerate(wins):
            lo, hi = wilson(w, n, z)
            rate = w / n if n else 0.0
            off = n > 0 and (lo > fair + self.tolerance or hi < fair - self.tolerance)
            out.append(Seat(s, w, rate, lo, hi, off, off and (rate >= high_mark or rate <= fair / 2)))
        return out

    def decide(self, wins: Sequence[int]) -> str | None:
        """PROBLEM (a seat is off), FINE (every seat is near fair) or None, over these wins per seat."""
        n = sum(wins)
        if n == 0:
            return None
        if any(s.off for s in self.seats(wins)):
            return PROBLEM
        fair = 1 / len(wins)
        if all(fair - self.detect < lo and hi < fair + self.detect
               for lo, hi in (wilson(w, n, self.settle_z) for w in wins)):
            return FINE
        return None


# ---------------------------------------------------------------- operating characteristics

class Operating(NamedTuple):
    """How a test behaves on synthetic games: the share of runs answered PROBLEM, FINE, and left
    open at the last look, and the games it took on average."""

    problem: float
    fine: float
    open: float
    games: float


def rate_operating(test: RateTest, share: float, runs: int, seed: int, looks: Sequence[int] = LOOKS) -> Operating:
    """``test`` on ``runs`` synthetic runs of games that each count against it with probability
    ``share``, looked at after ``looks`` games as the verdict does."""
    rng = random.Random(seed)
    tally = {PROBLEM: 0, FINE: 0, None: 0}
    games = 0
    for _ in range(runs):
        k = n = 0
        got = None
        for look in looks:
            while n < look:
                k += rng.random() < share
                n += 1
            got = test.decide(k, n)
            if got is not None:
                break
        tally[got] += 1
        games += n
    return Operating(tally[PROBLEM] / runs, tally[FINE] / runs, tally[None] / runs, games / runs)


def seat_operating(test: SeatTest, probs: Sequence[float], runs: int, seed: int, first: int = 48,
                   looks: Sequence[int] = LOOKS) -> tuple[Operating, float]:
    """``test`` on ``runs`` synthetic tables whose seats win with ``probs``, looked at from ``first``
    games on: its operating figures, and the share of runs where a flagged seat was extreme."""
    import bisect
    import itertools

    rng = random.Random(seed)
    cum = list(itertools.accumulate(probs))
    tally = {PROBLEM: 0, FINE: 0, None: 0}
    games = 0
    extreme = 0
    for _ in range(runs):
        wins = [0] * len(probs)
        n = 0
        got = None
        for look in looks:
            while n < look:
                wins[min(len(probs) - 1, bisect.bisect_right(cum, rng.random() * cum[-1]))] += 1
                n += 1
            if look < first:
                continue
            got = test.decide(wins)
            if got is not None:
                break
        tally[got] += 1
        games += n
        extreme += got == PROBLEM and any(s.extreme for s in test.seats(wins))
    return Operating(tally[PROBLEM] / runs, tally[FINE] / runs, tally[None] / runs, games / runs), extreme / runs


def poisson_draw(rng: random.Random, mean: float) -> int:
    """A Poisson count (by inversion for small means, the normal approximation for large ones)."""
    if mean >= 30:
        return max(0, round(rng.gauss(mean, math.sqrt(mean))))
    k, p = 0, math.exp(-mean)
    c, u = p, rng.random()
    while u > c:
        k += 1
        p *= mean / k
        c += p
    return k


def rare_operating(share: float, limit: float, exposure: float, z: float, runs: int, seed: int) -> float:
    """How often a rate at ``share`` of a reference rate of 1 per unit is called below ``limit`` of
    it (its :func:`poisson_high` bound under the limit) over ``exposure`` units: the dead-card test."""
    rng = random.Random(seed)
    return sum(poisson_high(poisson_draw(rng, share * exposure), exposure, z) < limit for _ in range(runs)) / runs
