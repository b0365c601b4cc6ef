"""The Poisson-subsampled Gaussian (DP-SGD): certified balls, exact edges, digits, dp_accounting.

The yardstick is computed independently of rdpsym (tests/sampled_gaussian_reference.py, its values
stored by tests/stored_values.py): A_α − 1 (Mironov, Talwar, Zhang 2019, Sec. 3) by mpmath
quadrature of E[b^α − 1 − α(b − 1)] split every σ (and at MTZ's z₀) for fractional orders, and
by the binomial sum in mpmath for integer orders, each evaluated at two precisions that must
agree (see /work/shared/notes/numerics.md).  A ball "contains" the reference when it contains
the reference widened by its own error allowance (10⁻⁵⁰ relative).
"""

from __future__ import annotations

import functools
import itertools
import math
import random

import mpmath
import pytest
from flint import arb, ctx, fmpq
from hypothesis import given
from hypothesis import strategies as st
from sampled_gaussian_reference import STORE, compute_entry, log_a_mp, mp, parse_entry, reference
from stored_values import recording

from rdpsym.accounting.sampled_gaussian import log_moment, log_moments, planning, rdp_values, trapezoid
from rdpsym.foundations.balls import precision
from rdpsym.foundations.errors import ConvergenceError, ParameterError

Q = fmpq


def ref_ball(value: mpmath.mpf, rel: int = 50) -> arb:
    """The reference as a ball of relative radius 10^−rel (its error allowance)."""
    with precision(400):  # the decimal itself exactly enough that only the allowance counts
        r = arb(mpmath.nstr(value, 90, strip_zeros=False))
        return r + abs(r) * arb(10) ** (-rel) * arb(0, 1)


def test_stored_reference_values_are_current():
    """The stored log-moments (tests/golden/sampled_gaussian_reference.json, recorded from this file and
    tests/test_mechanisms_speed.py) are those of today's reference: the store is current, and its integer-order
    and windowed entries with 2 seeded fractional ones, recomputed, are the stored values bit for bit (to 55
    digits under another mpmath).  The fractional entries are one quadrature routine at different points, 2–5 s
    each: two of them show the routine unchanged as well as four did, at half the cost."""
    if recording():
        pytest.skip("a recording run writes the store as it ends")

    def agree(stored, computed):
        with mpmath.workdps(80):
            return abs(stored - computed) <= mpmath.mpf(10) ** -55 * abs(computed)

    def fractional(key):  # a fractional order's quadrature over the whole line (≈ 3 s each)
        _, _, order, _, window = parse_entry(key)
        return order.q != 1 and window is None

    keys = [key for key in STORE.check_current() if not fractional(key)] + STORE.seeded_sample(2, fractional)
    STORE.assert_recomputed(keys, compute_entry, agree)


# Edges named in the brief: q = 1e−6, 0.5, 0.999; σ = 0.5, 50; α = 1.001, 1.5, 2, 7.5, 100, 1024.
MICRO = Q(1, 10**6)
FRACTIONAL_EDGES = [
    (MICRO, Q(11, 10), Q(1001, 1000)),
    (MICRO, Q(1, 2), Q(15, 2)),
    (Q(1, 2), Q(50), Q(3, 2)),
    (Q(999, 1000), Q(1, 2), Q(3, 2)),
    (Q(999, 1000), Q(50), Q(15, 2)),
    (Q(1, 2), Q(1, 2), Q(1001, 1000)),
    (Q(1, 10**13), Q(100), Q(3, 2)),  # ε ≈ 7.5e−31: relative accuracy of a tiny ε
]
INTEGER_EDGES = [
    (MICRO, Q(50), Q(2)),
    (Q(1, 2), Q(1, 2), Q(100)),
    (Q(999, 1000), Q(1, 2), Q(1024)),
    (Q(1, 100), Q(11, 10), Q(1024)),
    (Q(1, 2), Q(50), Q(1024)),
    (Q(1, 10**13), Q(100), Q(2)),
]
_rng = random.Random(20190823)  # seeded: the same cases on every run
_GRID_Q = [MICRO, Q(1, 100), Q(1, 2), Q(999, 1000)]
_GRID_S = [Q(1, 2), Q(11, 10), Q(50)]
SEEDED = _rng.sample(
    [c for c in itertools.product(_GRID_Q, _GRID_S, [Q(1001, 1000), Q(3, 2), Q(15, 2)]) if c not in FRACTIONAL_EDGES], 4
) + _rng.sample(list(itertools.product(_GRID_Q, _GRID_S, [Q(2), Q(100), Q(1024)])), 3)
CASES = FRACTIONAL_EDGES + INTEGER_EDGES + SEEDED


def _id(case) -> str:
    return "q={}-s={}-a={}".format(*case)


# ----------------------------------------------------------------------------- certified balls


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_ball_contains_reference_and_has_promised_width(case):
    q, sigma, order = case
    ref = reference(q, sigma, order)
    with precision(128):
        ball = log_moment(q, sigma, order)
        assert ball.contains(ref_ball(ref)), (ball, mpmath.nstr(ref, 45))
        assert ball.rel_accuracy_bits() >= 120


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_values_have_the_requested_digits(case):
    q, sigma, order = case
    with mpmath.workdps(80):
        eps_ref = reference(q, sigma, order) / mp(order - 1)
    for dps in (15, 50):
        (value,) = rdp_values(q, sigma, [order], dps)
        with mpmath.workdps(80):
            assert abs(value / eps_ref - 1) < mpmath.mpf(10) ** (-dps), (dps, value, eps_ref)


def test_large_fractional_order():
    """α = 255.5 at q = 0.01, σ = 1.1: log A ≈ 2.6e4, the mass near z = α (and the left cut beyond ½)."""
    q, sigma, order = Q(1, 100), Q(11, 10), Q(511, 2)
    ref = reference(q, sigma, order, window=20)  # outside the window: < e^{−200}
    with precision(128):
        ball = log_moment(q, sigma, order)
        assert ball.contains(ref_ball(ref)) and ball.rel_accuracy_bits() >= 120


@pytest.mark.parametrize("prec", [53, 64, 200, 666])
def test_width_follows_ctx_prec(prec):
    with precision(prec):
        balls = log_moments(Q(1, 100), Q(11, 10), [Q(11, 10), Q(2), Q(21, 2), Q(64)])
        assert all(b.rel_accuracy_bits() >= prec - 8 for b in balls), [b.rel_accuracy_bits() for b in balls]


@pytest.mark.parametrize(
    ("q", "sigma", "n"),
    [(MICRO, Q(1, 2), 2), (Q(1, 2), Q(50), 7), (Q(999, 1000), Q(1, 2), 100), (Q(1, 100), Q(11, 10), 30),
     (Q(1, 10**13), Q(100), 3)],
)
def test_quadrature_matches_the_exact_sum_next_to_an_integer(q, sigma, n):
    """α = n + 10⁻²⁵⁰ goes through the quadrature, α = n through the exact binomial sum.

    log A is smooth in α, so at 200 bits (and at 200 digits) the two must agree:
    a check of the fractional path against an exact finite sum.
    """
    near = Q(n) + Q(1, 10**250)
    with precision(200):
        exact, quad = log_moments(q, sigma, [Q(n), near])
        assert exact.overlaps(quad) and quad.rel_accuracy_bits() >= 190
    v_exact, v_quad = rdp_values(q, sigma, [Q(n), near], 200)
    with mpmath.workdps(220):
        assert abs(v_quad / v_exact - 1) < mpmath.mpf(10) ** -200


def test_values_at_200_digits_integer_order():
    q, sigma, order = Q(1, 100), Q(11, 10), Q(64)
    ref = log_a_mp(q, sigma, order, 230, None)
    (value,) = rdp_values(q, sigma, [order], 200)
    with mpmath.workdps(230):
        assert abs(value / (ref / 63) - 1) < mpmath.mpf(10) ** -200


def test_order_ten_thousand(watchdog):
    """α = 10⁴ with tiny σ and q near 1: e^{α²/(2σ²)} ≈ e^{5.6e8} is fine in Arb's exponent range."""
    q, sigma = Q(999, 1000), Q(3, 10)
    with watchdog(120, "alpha = 1e4"):
        (value,) = rdp_values(q, sigma, [Q(10**4)], 30)
        (frac,) = rdp_values(q, sigma, [Q(20001, 2)], 30)
    with mpmath.workdps(40):
        # Upper bound: q = 1 gives α/(2σ²); the k = α term alone is a lower bound, and
        # the other terms are ~e^{−α/σ²} smaller, so the two agree to all 30 digits.
        upper = mp(Q(10**4)) / (2 * mp(sigma) ** 2)
        lower = (10**4 * mpmath.log(mp(q)) + mpmath.mpf(10**4 * (10**4 - 1)) / (2 * mp(sigma) ** 2)) / (10**4 - 1)
        assert abs(value / lower - 1) < mpmath.mpf(10) ** -30 and value < upper
        assert value < frac < mp(Q(20001, 2)) / (2 * mp(sigma) ** 2)


@pytest.mark.parametrize(
    ("q", "sigma", "order"),
    [(Q(1, 10**300), Q(1), Q(3, 2)), (Q(1, 100), Q(10**30), Q(3, 2)), (Q(1, 100), Q(10**30), Q(2)),
     (Q(10**300 - 1, 10**300), Q(1, 2), Q(10001, 10000)), (Q(10**300 - 1, 10**300), Q(1, 2), Q(64))],
)
def test_far_outside_the_usual_range(q, sigma, order):
    """q = 10⁻³⁰⁰ or 1 − 10⁻³⁰⁰, σ = 10³⁰: leading-order forms are exact far beyond 50 digits.

    Small q or large σ: ε = (α/2)·q²·(e^{1/σ²} − 1)·(1 + O(q/σ² + q)); q = 1 − δ: ε = α/(2σ²) + O(δ).
    """
    (value,) = rdp_values(q, sigma, [order], 50)
    with mpmath.workdps(80):
        if q < Q(1, 2):
            expected = mp(order) / 2 * mp(q) ** 2 * mpmath.expm1(1 / mp(sigma) ** 2)
        else:
            expected = mp(order) / (2 * mp(sigma) ** 2)
        assert abs(value / expected - 1) < mpmath.mpf(10) ** -50


@pytest.mark.parametrize("order", [10**17 + 3, 10**45, 10**300, 10**1000], ids=lambda n: f"1e{len(str(n)) - 1}")
def test_huge_integer_orders_are_the_top_term_of_the_sum(order, watchdog):
    """Past α ≈ 10¹⁵⁴ the plan of the binomial sum overflowed a double (OverflowError); from α ≈ 10¹⁷ its start was
    off by α·10⁻¹⁶ and α = 10⁴⁵ never returned (a probe).  At q = 1/100, σ = 1.1 every term but the top one is
    e^{−α/σ²} smaller: ε = log(1 + q^α·expm1(α(α − 1)/(2σ²)))/(α − 1), computed here in mpmath."""
    q, sigma = Q(1, 100), Q(11, 10)
    with watchdog(60, f"order {order}"):
        (value,) = rdp_values(q, sigma, [Q(order)], 30)
    digits = len(str(order))
    with mpmath.workdps(2 * digits + 60):
        n = mpmath.mpf(order)
        top = n * mpmath.log(mp(q)) + mpmath.log(mpmath.expm1(n * (n - 1) / (2 * mp(sigma) ** 2)))
        expected = (top + mpmath.log1p(mpmath.exp(-top))) / (n - 1)
        assert abs(value / expected - 1) < mpmath.mpf(10) ** -30


def test_an_integer_order_whose_sum_is_too_long_is_refused_before_it_starts(watchdog):
    """q = 1/2, σ = 10⁴: the sum runs from the top term through all α of them, and α = 10⁸ took 163 s; a sum longer
    than MAX_TERMS is refused at once, naming the order.  10⁵ terms are still summed."""
    with watchdog(10, "order 1e8"), pytest.raises(ConvergenceError, match=r"order 100000000 .* more than 1000000"):
        rdp_values(Q(1, 2), Q(10**4), [Q(10**8)], 20)
    (value,) = rdp_values(Q(1, 2), Q(10**4), [Q(10**5)], 20)
    assert 0 < value < mpmath.mpf(10**5) / (2 * 10**8)  # below the Gaussian mechanism's α/(2σ²)


@pytest.mark.parametrize(("q", "sigma"), [(Q(1, 2), Q(10**4)), (Q(1, 100), Q(1)), (Q(99, 100), Q(30)),
                                        (Q(1, 10**6), Q(3)), (Q(1, 10), Q(1, 2))])
def test_a_large_order_s_plan_sums_the_terms_around_their_peaks(q, sigma, monkeypatch):
    """The float plan of a fractional order past 20 000 sums the binomial terms near their local maxima only: the
    order 10⁸ + ½ at q = 1/2, σ = 10⁴ summed all 2·10⁸ of them, 154 s before its quadrature began (a probe).  The plan
    is within a nat of the sum of every term, and the certified value is the same with either plan."""
    fl = planning._Floats(q, sigma)
    for n in (20_001, 123_457):
        lg = math.lgamma(n + 1)
        every = functools.reduce(planning._logaddexp, (fl._term(n, k, lg) for k in range(2, n + 1)), -math.inf)
        assert abs(fl.log_am1_int(n) - every) < 1, (n, fl.log_am1_int(n), every)
    order = [Q(40003, 2)]
    windowed = rdp_values(q, sigma, order, 40)
    monkeypatch.setattr(planning, "_EVERY_TERM", 10**6)
    assert rdp_values(q, sigma, order, 40) == windowed


def test_a_fractional_order_of_a_hundred_million(watchdog):
    """α = 10⁸ + ½ at q = 1/2, σ = 10⁴ (above): between the order 10⁷ + ½'s value and the Gaussian's α/(2σ²)."""
    with watchdog(60, "order 1e8 + 1/2"):
        low, value = rdp_values(Q(1, 2), Q(10**4), [Q(2 * 10**7 + 1, 2), Q(2 * 10**8 + 1, 2)], 30)
    assert 0 < low < value < mpmath.mpf(2 * 10**8 + 1) / 2 / (2 * 10**8)


@pytest.mark.parametrize(("q", "sigma", "order"), [(Q(1, 100), Q(1, 10**8), Q(9, 2)), (Q(1, 2), Q(1, 10**10), Q(3, 2)),
                                               (Q(1, 2), Q(1, 10**50), Q(3, 2))])
def test_a_grid_that_ends_short_of_its_tail_bound_is_an_rdpsym_error(q, sigma, order):
    """The right tail's bound holds from z = ½ on; a grid that ended short of it (tiny σ) tripped a bare assert, an
    AssertionError with no message (a probe; under ``python -O`` the next check refused it).  Now refused, named."""
    with pytest.raises(ConvergenceError, match=r"short of z = 1/2.*sigma is too small"):
        rdp_values(q, sigma, [order], 30)


def test_a_step_too_coarse_for_its_error_bound_names_the_order_and_the_way_out():
    """A probe: at σ = 10⁻³⁰ the order 5/2 was refused with "quadrature step 2.84752e-59 too coarse for sigma=1e-30"
    alone, where its neighbours' messages name the order and say that integer orders are exact sums."""
    with pytest.raises(ConvergenceError, match=r"order 5/2 .*too coarse.*integer orders are exact sums"):
        rdp_values(Q(1, 100), Q(1, 10**30), [Q(5, 2)], 20)


def test_tiny_sigma_at_a_fractional_order_refuses_instead_of_hanging(watchdog):
    """σ = 10⁻³⁰: the analytic strip has half-width πσ², the grid would need ~10³² points."""
    with watchdog(60, "sigma = 1e-30"), pytest.raises(ConvergenceError, match=r"grid points .* for the fractional order\(s\) 3/2; integer orders are exact"):
        rdp_values(Q(1, 100), Q(1, 10**30), [Q(3, 2)], 20)
    (value,) = rdp_values(Q(1, 100), Q(1, 10**30), [Q(2)], 20)  # integer orders are exact sums
    with mpmath.workdps(40):
        assert abs(value / mpmath.log1p(mpmath.expm1(mpmath.mpf(10) ** 60) / 10**4) - 1) < 1e-20


# ----------------------------------------------------------------------------- exact edges


@pytest.mark.parametrize("order", [Q(1001, 1000), Q(3, 2), Q(2), Q(100)])
def test_q_zero_is_exactly_zero(order):
    with precision(100):
        ball = log_moment(Q(0), Q(11, 10), order)
        assert ball.is_zero() and ball.is_exact()
    assert rdp_values(Q(0), Q(11, 10), [order], 50) == [0]


@pytest.mark.parametrize("order", [Q(1001, 1000), Q(5, 2), Q(2), Q(1024)])
@pytest.mark.parametrize("sigma", [Q(1, 2), Q(11, 10), Q(50)])
def test_q_one_is_the_gaussian_mechanism(order, sigma):
    """q = 1: log A = α(α − 1)/(2σ²) and ε = α/(2σ²) exactly (Mironov 2017, Prop 7)."""
    exact = order * (order - 1) / (2 * sigma * sigma)
    with precision(300):
        truth = arb(exact)
    with precision(100):
        ball = log_moment(Q(1), sigma, order)
        assert ball.overlaps(truth) and ball.rel_accuracy_bits() >= 98
    (value,) = rdp_values(Q(1), sigma, [order], 60)
    with mpmath.workdps(80):
        eps = mp(order / (2 * sigma * sigma))
        assert abs(value / eps - 1) < mpmath.mpf(10) ** -63


# ----------------------------------------------------------------------------- API behaviour


DEFAULT_FRACTIONAL = [Q(10 + x, 10) for x in range(1, 100)]  # dp_accounting's 1.1, 1.2, …, 10.9


@pytest.mark.parametrize(
    "orders",
    [DEFAULT_FRACTIONAL, [Q(401, 2), Q(403, 2), Q(405, 2), Q(407, 2), Q(3, 2)]],
    ids=["default-grid", "large-alpha"],
)
def test_a_shared_grid_agrees_with_single_orders(orders):
    """Many orders share one grid and chain b^α = b^{α−δ}·b^δ; each ball must still be true.

    The single-order calls take neither shortcut; the default grid also contains the
    reference cases α = 1.5 and 2.5 of the dp_accounting test below.
    """
    q, sigma = Q(1, 100), Q(11, 10)
    with precision(128):
        shared = log_moments(q, sigma, orders)
        for a, ball in zip(orders, shared):
            assert ball.rel_accuracy_bits() >= 120
            assert ball.overlaps(log_moment(q, sigma, a)), a
        for a in (Q(3, 2), Q(5, 2)):
            if a in orders:
                assert shared[orders.index(a)].contains(ref_ball(reference(q, sigma, a)))


def test_log_moments_keeps_order_and_duplicates():
    orders = [Q(64), Q(3, 2), Q(2), Q(3, 2), Q(21, 2), Q(2)]
    with precision(120):
        many = log_moments(Q(1, 100), Q(11, 10), orders)
        one = [log_moment(Q(1, 100), Q(11, 10), a) for a in orders]
    assert len(many) == len(orders)
    assert all(a.overlaps(b) for a, b in zip(many, one))
    assert many[1].overlaps(many[3]) and many[2].overlaps(many[5])
    assert not many[1].overlaps(many[2])


def test_global_precision_is_left_alone():
    saved = ctx.prec
    with mpmath.workdps(15):
        rdp_values(Q(1, 100), Q(11, 10), [Q(3, 2), Q(2)], 40)
        log_moments(Q(1, 100), Q(11, 10), [Q(3, 2), Q(2)])
        assert ctx.prec == saved and mpmath.mp.dps == 15


def test_plain_python_numbers_are_read_exactly():
    with precision(100):
        a = log_moment(0.01, 1.1, 1.5)
        b = log_moment(Q(1, 100), Q(11, 10), Q(3, 2))
    assert a.overlaps(b) and a.rel_accuracy_bits() >= 95


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((Q(-1, 2), Q(1), [Q(2)]), r"q must be in \[0, 1\] \(0 <= q <= 1\); got -1/2\."),
        ((Q(3, 2), Q(1), [Q(2)]), r"q must be in \[0, 1\] .*; got 3/2\."),
        ((Q(1, 2), Q(0), [Q(2)]), r"sigma must be positive \(sigma > 0\); got 0\."),
        ((Q(1, 2), Q(-1), [Q(2)]), r"sigma must be positive .*; got -1\."),
        ((Q(1, 2), Q(1), [Q(1)]), r"order must be greater than 1 \(order > 1\); got 1\."),
        ((Q(1, 2), Q(1), [Q(3), Q(1, 2)]), r"order must be greater than 1 .*; got 1/2\."),
        ((Q(1, 2), Q(1), [float("nan")]), r"order must be an exact rational .*; got nan\."),
        (("half", Q(1), [Q(2)]), r"q must be an exact rational .*; got half\."),
    ],
)
def test_bad_parameters(args, message):
    with pytest.raises(ParameterError, match=message):
        log_moments(*args)
    with pytest.raises(ParameterError, match=message):
        rdp_values(*args, 20)


@pytest.mark.parametrize("dps", [0, -3, 2.5, True])
def test_bad_dps(dps):
    with pytest.raises(ParameterError, match=r"dps must be a positive integer"):
        rdp_values(Q(1, 100), Q(1), [Q(2)], dps)


# ----------------------------------------------------------------------------- the safety net


@pytest.mark.parametrize("step", [Q(1), Q(2), Q(3)])
def test_a_coarse_grid_still_gives_a_true_ball_and_values_refuse(monkeypatch, step):
    """With a forced coarse step the error bounds dominate: balls widen but stay true; values refuse."""
    q, sigma, order = Q(1, 100), Q(11, 10), Q(3, 2)
    ref = reference(q, sigma, order)
    monkeypatch.setattr(trapezoid, "_step", lambda value: step)
    with precision(128):
        ball = log_moment(q, sigma, order)
    assert ball.contains(ref_ball(ref)) and ball.rel_accuracy_bits() < 100
    with pytest.raises(ConvergenceError):
        rdp_values(q, sigma, [order], 30)


def test_narrow_cuts_still_give_a_true_ball(monkeypatch):
    """Cutting the grid at [−1, 1] leaves most mass to the tail bounds: wide, but true."""
    q, sigma, order = Q(1, 2), Q(50), Q(3, 2)
    ref = reference(q, sigma, order)
    monkeypatch.setattr(trapezoid, "_cuts", lambda o, fl, h, log_tau: (-1.0, 1.0))
    with precision(128):
        ball = log_moment(q, sigma, order)
    assert ball.is_finite() and ball.contains(ref_ball(ref))


_rationals = st.builds(fmpq, st.integers(1, 10**6), st.just(10**6))


@given(
    q=_rationals.filter(lambda r: r < 1),
    sigma=st.builds(fmpq, st.integers(3, 1000), st.just(10)),
    order=st.builds(fmpq, st.integers(10001, 3000000), st.just(10000)),
)
def test_never_nan_and_monotone_in_the_order(q, sigma, order):
    """Finite, positive, tight balls everywhere; ε(α) is nondecreasing in α (Rényi divergence)."""
    higher = order + fmpq(1, 7)
    with precision(64):
        a, b = log_moments(q, sigma, [order, higher])
        assert a.is_finite() and b.is_finite() and a > 0 and b > 0
        assert a.rel_accuracy_bits() >= 56 and b.rel_accuracy_bits() >= 56
        assert not (a / arb(order - 1) > b / arb(higher - 1))


# ----------------------------------------------------------------------------- dp_accounting


def _dpa(q, sigma, orders):
    rdp = pytest.importorskip("dp_accounting.rdp.rdp_privacy_accountant")
    return [float(x) for x in rdp._compute_rdp_poisson_subsampled_gaussian(float(q), float(sigma), [float(a) for a in orders])]


def test_agrees_with_dp_accounting_at_integer_orders():
    """q = 0.01, σ = 1.1, integer orders of dp_accounting's default grid: agreement to 1e−9."""
    orders = [Q(n) for n in range(2, 65)] + [Q(n) for n in (128, 256, 512, 1024)]
    ours = rdp_values(Q(1, 100), Q(11, 10), orders, 20)
    theirs = _dpa(0.01, 1.1, orders)
    for a, x, y in zip(orders, ours, theirs):
        assert abs(y / float(x) - 1) < 1e-9, (a, x, y)


# Disagreements found (dp_accounting 0.6, float64), each checked against the reference above:


def test_dp_accounting_overestimates_fractional_orders():
    """Its fractional series (MTZ Sec. 3.3) adds |C(α,k)| terms: the signs are dropped.

    C(α,k) changes sign for k > α + 1, so the result is an upper bound.  At the
    default DP-SGD setting q = 0.01, σ = 1.1 it is 5.8 % high at α = 1.1
    (7.3633e−5 vs 6.9589e−5), 3.1 % at α = 1.5, 4.6e−4 at α = 2.5, 5e−8 at α = 10.5.
    """
    q, sigma = Q(1, 100), Q(11, 10)
    orders = [Q(11, 10), Q(3, 2), Q(5, 2)]
    ours = rdp_values(q, sigma, orders, 20)
    theirs = _dpa(q, sigma, orders)
    with mpmath.workdps(30):
        for a, x in zip(orders, ours):
            assert abs(x / (reference(q, sigma, a) / mp(a - 1)) - 1) < 1e-20
    ratios = [y / float(x) - 1 for x, y in zip(ours, theirs)]
    assert 0.05 < ratios[0] < 0.07 and 0.025 < ratios[1] < 0.035 and 3e-4 < ratios[2] < 6e-4


def test_dp_accounting_gives_up_below_alpha_one_and_a_half_at_large_q():
    """At q = 0.5, σ = 1.1, α = 1.5 its series does not meet its stopping rule in 1000 terms: ∞."""
    q, sigma, order = Q(1, 2), Q(11, 10), Q(3, 2)
    (ours,) = rdp_values(q, sigma, [order], 30)
    (theirs,) = _dpa(q, sigma, [order])
    assert theirs == float("inf")
    with mpmath.workdps(40):
        assert abs(ours / (reference(q, sigma, order) / mp(order - 1)) - 1) < 1e-30  # ≈ 0.18744


def test_dp_accounting_loses_tiny_epsilons():
    """log A is formed as a float log-sum near 0, so ε ≈ 1e−24 keeps ~2 digits.

    q = 1e−10, σ = 50, α = 2: ε = log(1 + q²(e^{1/σ²} − 1)) = 4.0008e−24 exactly in
    closed form; dp_accounting returns 3.9300e−24 (−1.8 %).
    """
    q, sigma = Q(1, 10**10), Q(50)
    (ours,) = rdp_values(q, sigma, [Q(2)], 40)
    (theirs,) = _dpa(q, sigma, [Q(2)])
    with mpmath.workdps(60):
        exact = mpmath.log1p(mp(q) ** 2 * mpmath.expm1(1 / mp(sigma) ** 2))
        assert abs(ours / exact - 1) < mpmath.mpf(10) ** -40
    assert abs(theirs / float(exact) - 1) > 1e-3


def test_orders_within_1e_16_of_one_regression():
    # float(α) is 1.0 there: the planner's log(α − 1) must come from the exact rational.
    from flint import arb, fmpq

    from rdpsym.accounting.sampled_gaussian import log_moment
    from rdpsym.foundations.balls import precision

    with precision(256):
        tiny = [log_moment(fmpq(1, 2), fmpq(1), 1 + fmpq(1, 10**k)) * arb(10) ** k for k in (16, 30, 60)]
    # (log A_α)/(α − 1) → KL as α → 1: the three agree to ~1e-15 relative.
    assert all(abs(t - tiny[-1]) < 1e-14 * tiny[-1] for t in tiny)


# --------------------------------------------------------------------------- a symbolic integer order


def _symbols():
    import sympy as sp

    return sp, sp.Symbol("q", positive=True), sp.Symbol("sigma", positive=True), sp.Symbol("n", integer=True,
                                                                                            positive=True)


def test_the_binomial_sum_at_a_symbolic_integer_order_is_derived_and_is_mtz():
    """D_n of (1 − q)N(0, σ²) + qN(1, σ²) against N(0, σ²), n a symbol for integers: the engine opens the moment
    by the binomial theorem and derives the Gaussian's moment at a symbolic k (rdpsym.derive.binomial).  The
    result, checked against the definition at integer orders, is Mironov–Talwar–Zhang's sum: at n = 2, 3 it
    simplifies to the closed forms, and at n = 7 it is the certified binomial sum of log_moment."""
    import rdpsym

    sp, q, s, n = _symbols()
    d = rdpsym.sampled_gaussian(q=q, sigma=s).rdp(n)
    assert d.status == "checked" and d.result.has(sp.Sum) and d.hypotheses == (n > 1,)
    k = sp.Symbol("k")
    for order in (2, 3):
        mtz = sp.log(sp.Sum(sp.binomial(order, k) * (1 - q) ** (order - k) * q**k * sp.exp((k**2 - k) / (2 * s**2)),
                            (k, 0, order)).doit()) / (order - 1)
        assert sp.simplify(sp.expand(sp.exp((order - 1) * (d.result.subs(n, order).doit() - mtz)))) == 1
    with precision(200):
        ball = log_moment(fmpq(1, 10), fmpq(6, 5), 7) / 6
    value = sp.N(d.result.subs({n: 7, q: sp.Rational(1, 10), s: sp.Rational(6, 5)}).doit(), 40)
    assert ball.overlaps(arb(str(value)))


def test_the_mixture_written_by_hand_at_integer_orders_is_mtz_without_sympy_integrate(monkeypatch):
    """A user's own densities for DP-SGD, (1 − q)N(0, σ²) + qN(1, σ²) against N(0, σ²), at α = 2, 3, 5 with q and σ
    symbols: the power of the mixture is opened by the multinomial theorem and each term is a Gaussian integral, so
    the moment is Mironov–Talwar–Zhang's binomial sum exactly.  ``sympy.integrate`` was asked the whole integrand
    (1.9–4.2 s a derivation, where this takes about 0.5 s)."""
    import rdpsym

    sp, q, s, _ = _symbols()
    asked, real_integrate = [], sp.integrate
    monkeypatch.setattr(sp, "integrate", lambda f, *rest, **kw: asked.append(f) or real_integrate(f, *rest, **kw))
    x = sp.Symbol("x", real=True)

    def normal(m):
        return sp.exp(-(x - m) ** 2 / (2 * s**2)) / sp.sqrt(2 * sp.pi * s**2)

    P, Q = rdpsym.Continuous((1 - q) * normal(0) + q * normal(1), x, check=False), rdpsym.Continuous(normal(0), x)
    for order in (2, 3, 5):
        d = rdpsym.renyi_divergence(P, Q, order)
        mtz = sum(sp.binomial(order, j) * (1 - q) ** (order - j) * q**j * sp.exp(sp.Integer(j * j - j) / (2 * s**2))
                  for j in range(order + 1))
        assert d.status == "checked"
        assert sp.expand(sp.exp((order - 1) * d.result)) - sp.expand(mtz) == 0
    assert asked == []


def test_a_poisson_subsampled_laplace_at_a_symbolic_integer_order():
    """The binomial rule is not the Gaussian's: P = ⁹⁄₁₀Λ(0, 1) + ¹⁄₁₀Λ(1, 1) against Λ(0, 1), at n."""
    import rdpsym

    sp, _, _, n = _symbols()
    x = sp.Symbol("x", real=True)
    lap = lambda m: sp.exp(-sp.Abs(x - m)) / 2  # noqa: E731
    P = rdpsym.Continuous(sp.Rational(9, 10) * lap(0) + lap(1) / 10, x)
    Q = rdpsym.Continuous(lap(0), x)
    d = rdpsym.renyi_divergence(P, Q, n)
    assert d.status == "checked" and d.result.has(sp.Sum)
    with mpmath.workdps(30):
        for order in (2, 5):
            exact = mpmath.mpf(str(sp.N(d.result.subs(n, order).doit(), 30)))
            assert abs(exact - rdpsym.renyi_divergence_mp(P, Q, order, dps=30)) < mpmath.mpf(10) ** -25


def test_an_integer_order_symbol_without_a_mixture_is_checked_at_integers():
    import rdpsym

    sp, _, s, n = _symbols()
    d = rdpsym.gaussian(sigma=s).rdp(n)
    assert d.result == n / (2 * s**2) and d.hypotheses == (n > 1,)
