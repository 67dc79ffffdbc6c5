"""The statistics of the balance report, with the standard library only.

- :func:`wilson`: the Wilson score interval for a proportion (win rate by seat). It keeps
  its coverage near 95 % for small counts and rates near 0 or 1, where the textbook
  normal interval does not.
- :func:`mann_whitney`: the Mann-Whitney U test (two-sided, normal approximation with tie
  and continuity corrections) for a shift between two samples of counts per game (turns,
  cards drawn). It assumes no distribution, and game lengths are skewed and capped.
- :func:`score_test`: the test behind the Wilson interval, for the first player's win rate
  against a fair share.
- :func:`fisher_exact`: Fisher's exact test (two-sided) for two rates such as the share of
  capped games, exact even when one variant has none.
- :func:`holm`: Holm's step-down adjustment, so that "significant" holds at 5 % over all the
  comparisons one report makes, not per comparison.

SciPy would give the same numbers; these few formulas are not worth a 40 MB dependency.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959963984540054      # the 97.5th percentile of the standard normal distribution
ALPHA = 0.05


def share_digits(x: float) -> int:
    """The decimals a share needs as a percentage so that it never reads 0 % when it is not
    nothing, nor 100 % when it is not all (1 game of 200 is 0.5 %): 0 for most, up to 3."""
    nd = 0
    while nd < 3 and ((x > 0 and round(100 * x, nd) == 0) or (x < 1 and round(100 * x, nd) == 100)):
        nd += 1
    return nd


def percent(x: float) -> str:
    """A share as a percentage in a message ("36%", "0.5%"): :func:`share_digits` decimals."""
    return f"{100 * x:.{share_digits(x)}f}%"


def median(values: Sequence[float]) -> float:
    """The median of unsorted values (mean of the middle two for an even count); 0 for none."""
    s = sorted(values)
    n = len(s)
    if not n:
        return 0.0
    mid = n // 2
    return float(s[mid]) if n % 2 else (s[mid - 1] + s[mid]) / 2


def rank_quantile(sorted_values: Sequence[float], q: float) -> float:
    """The nearest-rank q-quantile of sorted values (the smallest value with at least a share q
    of the values at or below it), as ``deckgen simulate`` reports its 90th percentile; 0 for none."""
    n = len(sorted_values)
    if not n:
        return 0.0
    return sorted_values[min(n - 1, max(0, math.ceil(q * n) - 1))]


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) for successes out of trials."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z / (1 + z2 / trials) * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))   # exact at 0 and 1


def score_test(successes: int, trials: int, p0: float) -> float:
    """Two-sided p-value of the score test of a proportion against p0: below 0.05 exactly when
    the 95 % Wilson interval leaves p0 out (the interval is this test inverted)."""
    if trials <= 0 or not 0 < p0 < 1:
        return 1.0
    z = abs(successes / trials - p0) / math.sqrt(p0 * (1 - p0) / trials)
    return min(1.0, 2 * normal_sf(z))


def normal_sf(z: float) -> float:
    """P(Z > z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2))


def mann_whitney(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """Mann-Whitney U test of a against b: (U of a, two-sided p-value).

    U counts the pairs where a's value is larger (ties count a half). The p-value comes from
    the normal approximation with the tie-corrected variance and a continuity correction of
    one half; it is 1 when the samples cannot be told apart (all values equal)."""
    n1, n2 = len(a), len(b)
    if not n1 or not n2:
        return 0.0, 1.0
    pooled = sorted([(x, 0) for x in a] + [(x, 1) for x in b])
    n = n1 + n2
    rank_sum_a = 0.0
    tie_term = 0.0
    i = 0
    while i < n:
        j = i
        while j + 1 < n and pooled[j + 1][0] == pooled[i][0]:
            j += 1
        rank = (i + j) / 2 + 1          # the mean rank of the tied block i..j (1-based)
        t = j - i + 1
        tie_term += t ** 3 - t
        rank_sum_a += rank * sum(1 for k in range(i, j + 1) if pooled[k][1] == 0)
        i = j + 1
    u = rank_sum_a - n1 * (n1 + 1) / 2
    mean = n1 * n2 / 2
    var = n1 * n2 / 12 * ((n + 1) - tie_term / (n * (n - 1))) if n > 1 else 0.0
    if var <= 0:
        return u, 1.0
    z = (abs(u - mean) - 0.5) / math.sqrt(var)
    return u, min(1.0, 2 * normal_sf(max(z, 0.0)))


def _log_hypergeom(k: int, row1: int, col1: int, n: int) -> float:
    """log P(X = k) for the top-left cell of a 2x2 table with these margins."""
    return (_log_comb(col1, k) + _log_comb(n - col1, row1 - k) - _log_comb(n, row1))


def _log_comb(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def fisher_exact(a: int, b: int, c: int, d: int) -> float:
    """Two-sided p-value of Fisher's exact test for the table [[a, b], [c, d]]: the total
    probability of every table with the same margins that is no more likely than this one."""
    row1, col1, n = a + b, a + c, a + b + c + d
    if n == 0 or row1 in (0, n) or col1 in (0, n):
        return 1.0
    lo, hi = max(0, row1 + col1 - n), min(row1, col1)
    observed = _log_hypergeom(a, row1, col1, n)
    total = 0.0
    for k in range(lo, hi + 1):
        lp = _log_hypergeom(k, row1, col1, n)
        if lp <= observed + 1e-7:
            total += math.exp(lp)
    return min(1.0, total)


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm-adjusted p-values, in the order given (compare each with ALPHA)."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    out = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        out[i] = running
    return out
