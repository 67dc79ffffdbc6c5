"""The balance report's statistics against values worked out by hand or published."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deckgen import stats


def test_wilson_interval_matches_the_formula_worked_by_hand():
    # 5 of 10, z = 1.96: centre 0.5, half-width 1.96/(1+0.38416) * sqrt(0.025 + 0.0096040) = 0.26340
    lo, hi = stats.wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4)
    assert hi == pytest.approx(0.7634, abs=1e-4)
    # 0 of 20 still has room above 0 (the normal interval would be [0, 0])
    lo, hi = stats.wilson(0, 20)
    assert lo == 0.0 and hi == pytest.approx(0.1611, abs=1e-4)
    assert stats.wilson(0, 0) == (0.0, 1.0)


@given(st.integers(0, 500), st.integers(1, 500))
def test_wilson_interval_holds_the_observed_rate(k, n):
    k = min(k, n)
    lo, hi = stats.wilson(k, n)
    assert 0.0 <= lo <= k / n <= hi <= 1.0


def test_mann_whitney_u_and_p_for_two_separate_samples():
    # every b is larger: U of a is 0; mean 4.5, variance 3*3*7/12 = 5.25;
    # z = (4.5 - 0.5)/sqrt(5.25) = 1.7457 -> two-sided p = 0.08086 (SciPy: 0.0808556, asymptotic)
    u, p = stats.mann_whitney([1, 2, 3], [4, 5, 6])
    assert u == 0
    assert p == pytest.approx(0.0808556, abs=1e-6)


def test_mann_whitney_ties_use_mean_ranks_and_the_corrected_variance():
    # pooled 1,2,2,3: ranks 1, 2.5, 2.5, 4; a = [1, 2] -> rank sum 3.5, U = 3.5 - 3 = 0.5
    # tie term 2^3 - 2 = 6: variance = 4/12 * (5 - 6/12) = 1.5; z = (|0.5 - 2| - 0.5)/sqrt(1.5)
    u, p = stats.mann_whitney([1, 2], [2, 3])
    assert u == 0.5
    assert p == pytest.approx(2 * stats.normal_sf(1 / math.sqrt(1.5)), abs=1e-12)
    assert stats.mann_whitney([5, 5, 5], [5, 5]) == (3.0, 1.0)


@given(st.lists(st.integers(0, 50), min_size=1, max_size=30), st.lists(st.integers(0, 50), min_size=1, max_size=30))
def test_mann_whitney_is_symmetric(a, b):
    u1, p1 = stats.mann_whitney(a, b)
    u2, p2 = stats.mann_whitney(b, a)
    assert u1 + u2 == pytest.approx(len(a) * len(b))
    assert p1 == pytest.approx(p2)
    assert 0.0 <= p1 <= 1.0


def test_fisher_exact_lady_tasting_tea():
    # Fisher's own example: [[3, 1], [1, 3]] -> one-sided 17/70, two-sided 34/70 = 0.4857
    assert stats.fisher_exact(3, 1, 1, 3) == pytest.approx(34 / 70)
    # all capped in one variant, none in the other (10 games each): 2 / C(20, 10)
    assert stats.fisher_exact(10, 0, 0, 10) == pytest.approx(2 / math.comb(20, 10))
    assert stats.fisher_exact(0, 10, 0, 10) == 1.0


@given(st.integers(0, 30), st.integers(0, 30), st.integers(0, 30), st.integers(0, 30))
def test_fisher_exact_is_a_probability_and_ignores_which_row_is_first(a, b, c, d):
    p = stats.fisher_exact(a, b, c, d)
    assert 0.0 <= p <= 1.0
    assert p == pytest.approx(stats.fisher_exact(c, d, a, b))
    assert p == pytest.approx(stats.fisher_exact(a, c, b, d))


def test_holm_adjusts_step_down_and_keeps_order():
    # sorted 0.01, 0.02, 0.04 -> 0.03, 0.04, max(0.04, 0.04) = 0.04
    assert stats.holm([0.04, 0.01, 0.02]) == pytest.approx([0.04, 0.03, 0.04])
    assert stats.holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])
    assert stats.holm([]) == []


def test_median_and_nearest_rank_quantile():
    assert stats.median([3, 1, 2, 10]) == 2.5
    assert stats.median([]) == 0.0
    values = list(range(1, 11))
    assert stats.rank_quantile(values, 0.9) == 9
    assert stats.rank_quantile(values, 0.1) == 1
    assert stats.rank_quantile([7], 0.9) == 7


def test_score_test_against_a_fair_share():
    # 60 of 100 against 0.5: z = 0.1 / 0.05 = 2 -> p = 0.0455
    assert stats.score_test(60, 100, 0.5) == pytest.approx(2 * stats.normal_sf(2.0))
    assert stats.score_test(50, 100, 0.5) == 1.0
    assert stats.score_test(0, 0, 0.5) == 1.0


@given(st.integers(0, 300), st.integers(1, 300), st.sampled_from([0.5, 1 / 3, 0.25, 0.1]))
def test_score_test_and_wilson_interval_agree(k, n, p0):
    k = min(k, n)
    p = stats.score_test(k, n, p0)
    lo, hi = stats.wilson(k, n)
    if p < 0.049:
        assert not lo <= p0 <= hi
    elif p > 0.051:
        assert lo <= p0 <= hi


def test_a_share_in_a_check_message_is_never_0_percent_when_it_is_not_nothing():
    """check's messages wrote shares with Python's .0%: "seat 2 wins 100%" for 199 wins of 200."""
    from deckgen.stats import percent, share_digits

    assert [percent(x) for x in (0, 1 / 200, 0.36, 199 / 200, 0.9996, 1)] == ["0%", "0.5%", "36%", "99.5%",
                                                                              "99.96%", "100%"]
    assert [share_digits(x) for x in (0.0004, 0.5, 1)] == [2, 0, 0]
