"""The discrete mechanisms and the non-private step: each curve against an independent route.

The independent route is the definition summed with mpmath at 60 digits (a
different algorithm from the curves' closed forms and theta sums), the core's
derivation from the densities, or a peer's published formula.
"""

from __future__ import annotations

import math
import pickle

import mpmath
import pytest
import sympy as sp
from flint import fmpq

import rdpsym
from rdpsym.accounting.components import Infinite
from rdpsym.foundations.errors import ParameterError

R = sp.Rational
ORDERS = [R(11, 10), R(3, 2), 2, R(5, 2), 3, R(47, 10), 10, R(107, 10), 32]


def mp(x) -> mpmath.mpf:
    return mpmath.mpf(sp.Rational(x).p) / sp.Rational(x).q


#: Terms in a row below 10^−(dps + 10) of the sum so far after which a direction of the sum stops.
QUIET_TERMS = 50


def definition_sum(log_p, log_q, a, lo=-400, hi=400):
    """log Σ_k P(k)^a Q(k)^{1−a} / (a − 1) over k in [lo, hi] (the pmfs' logs given), at the current dps.

    Summed outward from k = 0, each direction until ``QUIET_TERMS`` terms in a row are negligible against the sum
    so far (or the range ends): the summands of the laws here are unimodal in k (a Gaussian's are log-concave, a
    Laplace law's fall at rate 1/t on both sides of [0, Δ]), so on the way up to the mode a term is never
    negligible and past it none that follows is larger.  The discrete Laplace law at t = 3/2, Δ = 1, order 2 is
    summed over 649 terms where its range holds 6 001 (the sums differ by 2e−71)."""
    def term(k):
        return mpmath.exp(a * log_p(k) + (1 - a) * log_q(k))

    total, negligible = term(0), mpmath.mpf(10) ** -(mpmath.mp.dps + 10)
    for ks in (range(1, hi + 1), range(-1, lo - 1, -1)):
        quiet = 0
        for k in ks:
            t = term(k)
            total += t
            quiet = quiet + 1 if t < negligible * total else 0
            if quiet == QUIET_TERMS:
                break
    return mpmath.log(total) / (a - 1)


def assert_close(value, expected, digits=45):
    assert abs(value - expected) <= mpmath.mpf(10) ** (-digits) * max(abs(expected), mpmath.mpf(10) ** -300), \
        (value, expected)


# ---------------------------------------------------------------- the discrete Gaussian
@pytest.mark.parametrize("sigma, delta", [(R(1, 2), 1), (2, 1), (3, 2), (R(7, 5), 3), (10, 1)])
def test_discrete_gaussian_is_the_definition_summed(sigma, delta):
    c = rdpsym.discrete_gaussian(sigma, delta).curve()
    values = c.values(ORDERS, dps=50)
    with mpmath.workdps(70):
        s = mp(sigma)
        log_norm = mpmath.log(mpmath.fsum(mpmath.exp(-(k**2) / (2 * s**2)) for k in range(-600, 601)))
        log_p = lambda k: -(k**2) / (2 * s**2) - log_norm
        log_q = lambda k: -((k - delta) ** 2) / (2 * s**2) - log_norm
        for a, v in zip(ORDERS, values):
            expected = definition_sum(log_p, log_q, mp(a), -600, 600)
            assert_close(v, expected)
            bound = mp(a) * delta**2 / (2 * s**2)
            assert v <= bound * (1 + mpmath.mpf(10) ** -48)  # CKS: never above the continuous Gaussian
            if sp.Rational(a).q == 1:
                assert_close(v, bound)  # equal at integer orders


def test_discrete_gaussian_differs_from_the_continuous_bound_at_fractional_orders():
    # σ = 1/2: the theta correction is large; σ = 5: it is ~1e-214, resolved relatively (Poisson summation).
    from rdpsym.accounting.discrete import theta_log_ratio
    from rdpsym.foundations.balls import precision

    small = rdpsym.discrete_gaussian(R(1, 2)).curve().value(R(3, 2), dps=30)
    assert small < 3 - mpmath.mpf(1) / 20  # the continuous bound is (3/2)/(2·(1/2)²) = 3
    with precision(200):
        ball = theta_log_ratio(sp.Integer(5), fmpq(1, 2))
    with mpmath.workdps(60):
        value = mpmath.mpf(ball.mid().str(60, radius=False))
        # log(θ(½)/θ(0)) = −4e^{−2π²σ²}(1 + O(e^{−2π²σ²})) at σ = 5
        assert abs(value / (-4 * mpmath.exp(-50 * mpmath.pi**2)) - 1) < mpmath.mpf(10) ** -50
    assert ball.rel_accuracy_bits() > 180


def test_discrete_gaussian_shift_delta_dominates_smaller_shifts():
    # The argument that Δ is the worst shift (ordered log-concave shifts), checked on sums.
    with mpmath.workdps(40):
        s = mpmath.mpf(3) / 4
        for a in (mpmath.mpf(3) / 2, mpmath.mpf(27) / 10):
            log_p = lambda k: -(k**2) / (2 * s**2)
            shifts = [definition_sum(log_p, lambda k, m=m: -((k - m) ** 2) / (2 * s**2), a, -80, 80) for m in (1, 2, 3)]
            assert shifts[0] < shifts[1] < shifts[2]


def test_discrete_gaussian_other_orders_and_the_continuous_option():
    c = rdpsym.discrete_gaussian(2).curve()
    assert isinstance(c.balls([math.inf])[0], Infinite) and "unbounded" in c.balls([math.inf])[0].reason
    g = rdpsym.discrete_gaussian(2, 3, bound="continuous")
    assert isinstance(g, rdpsym.Guarantee) and g.curve().closed_form == 9 * rdpsym.alpha / 8
    assert "Canonne" in str(g.source) and "Canonne" in str(rdpsym.discrete_gaussian(2).source)
    with pytest.raises(ParameterError, match="sensitivity must be a positive integer"):
        rdpsym.discrete_gaussian(2, R(1, 2))
    with pytest.raises(ParameterError, match="sigma must be positive"):
        rdpsym.discrete_gaussian(-1)
    with pytest.raises(ParameterError, match="bound must be"):
        rdpsym.discrete_gaussian(1, bound="loose")


# ---------------------------------------------------------------- the discrete Laplace
@pytest.mark.parametrize("t, delta", [(R(3, 2), 1), (R(3, 2), 3), (R(1, 3), 2), (7, 40)])
def test_discrete_laplace_is_the_definition_summed(t, delta):
    values = rdpsym.discrete_laplace(t, delta).curve().values(ORDERS + ["inf"], dps=50)
    with mpmath.workdps(70):
        tt = mp(t)
        r = mpmath.exp(-1 / tt)
        log_norm = mpmath.log((1 - r) / (1 + r))
        for a, v in zip(ORDERS, values):
            expected = definition_sum(lambda k: -abs(k) / tt + log_norm, lambda k: -abs(k - delta) / tt + log_norm,
                                      mp(a), -3000, 3000)
            assert_close(v, expected)
        assert_close(values[-1], delta / tt)


def test_discrete_laplace_agrees_with_the_core_derivation():
    m = rdpsym.discrete_laplace(R(3, 2), 2)
    d = m.rdp(R(5, 2))  # the core derives the pair's divergence (checked against its own numerics)
    with mpmath.workdps(50):
        assert_close(m.curve().value(R(5, 2), dps=40), mpmath.mpf(str(sp.N(d.result, 60))), 38)


def _kl_sum(log_p, log_q, lo=-3000, hi=3000):
    """Σ_k P(k)·(log P(k) − log Q(k)) over k in [lo, hi], at the current dps (the laws here are negligible past it)."""
    return mpmath.fsum(mpmath.exp(log_p(k)) * (log_p(k) - log_q(k)) for k in range(lo, hi + 1))


@pytest.mark.parametrize("make", [
    lambda: rdpsym.discrete_laplace(R(3, 2)),
    lambda: rdpsym.discrete_laplace(R(1, 3), 3),
    lambda: rdpsym.discrete_laplace(R(3, 2), 200),
    lambda: rdpsym.discrete_gaussian(R(1, 2)),
    lambda: rdpsym.discrete_gaussian(R(7, 5), 3),
    lambda: rdpsym.k_randomized_response(4, 1),
], ids=["laplace-3/2-1", "laplace-1/3-3", "laplace-3/2-200", "gaussian-1/2-1", "gaussian-7/5-3", "k-rr-4-1"])
def test_a_computed_discrete_curve_at_order_1_is_its_kl_divergence(make):
    """A probe: the curves computed exactly at each order (no closed form in α) refused α = 1 ("not on its curve"),
    where ``m.rdp(1)`` had the KL.  Each is now its exact KL: the discrete Laplace's E_Q[X·log X] over its atoms, the
    discrete Gaussian's Δ²/(2σ²) (θ is even: its correction vanishes at α = 1), a finite law's Σ P·log(P/Q); here
    against the KL summed from the pmfs."""
    m = make()
    got = m.curve().value(1, dps=40)
    with mpmath.workdps(60):
        if m.name == "k-randomized-response":
            e = mpmath.mpf(1)
            p, b = mpmath.exp(e) / (mpmath.exp(e) + 3), 1 / (mpmath.exp(e) + 3)
            expected = p * mpmath.log(p / b) + b * mpmath.log(b / p)
        else:
            delta = int(m.parameters["sensitivity"])
            if m.name == "discrete-laplace":
                t = mp(m.parameters["scale"])
                r = mpmath.exp(-1 / t)
                log_norm = mpmath.log((1 - r) / (1 + r))
                expected = _kl_sum(lambda k: -abs(k) / t + log_norm, lambda k: -abs(k - delta) / t + log_norm)
            else:
                s2 = 2 * mp(m.parameters["sigma"]) ** 2
                log_norm = -mpmath.log(mpmath.fsum(mpmath.exp(-k * k / s2) for k in range(-3000, 3001)))
                expected = _kl_sum(lambda k: -k * k / s2 + log_norm, lambda k: -(k - delta) ** 2 / s2 + log_norm)
        assert_close(got, expected, 38)


@pytest.mark.parametrize("scale, sensitivity", [(2, 10**6), (R(1, 1000), 10**9), (10**6, 7)],
                         ids=["2-1e6", "1/1000-1e9", "1e6-7"])
def test_the_discrete_laplace_kl_at_a_large_sensitivity_is_its_closed_form(scale, sensitivity):
    """A probe: Lap_ℤ(2) at Δ = 10⁶ never returned its KL, summed atom by atom (a SymPy sum of a million terms).  The
    KL is now (Δ − 2r(1 − r^Δ)/(1 − r²))/t; here against the curve just above order 1, which sums E_Q[X^α] in its
    own closed form (a geometric sum: DiscreteLaplace.moment; D_α − KL is of order α − 1 = 10⁻⁴⁵).  The pmf's own
    sum checks the closed form at Δ = 200 (test_a_computed_discrete_curve_at_order_1_is_its_kl_divergence)."""
    curve = rdpsym.discrete_laplace(scale, sensitivity).curve()
    assert_close(curve.value(1, dps=40), curve.value(1 + R(1, 10**45), dps=40), 38)


# ---------------------------------------------------------------- k-ary randomized response
def krr_definition(k, e, a):
    with mpmath.workdps(70):
        e, a = mp(e), mp(a)
        p = mpmath.exp(e) / (mpmath.exp(e) + k - 1)
        b = 1 / (mpmath.exp(e) + k - 1)
        return mpmath.log(p**a * b ** (1 - a) + b**a * p ** (1 - a) + (k - 2) * b) / (a - 1)


@pytest.mark.parametrize("k, e", [(3, 1), (10, R(1, 2)), (1000, 3), (4, R(1, 10**6))])
def test_k_randomized_response_is_the_definition(k, e):
    values = rdpsym.k_randomized_response(k, e).curve().values(ORDERS + ["inf"], dps=50)
    for a, v in zip(ORDERS, values):
        assert_close(v, krr_definition(k, e, a))
    with mpmath.workdps(70):
        assert_close(values[-1], mp(e))



def _special_pair_definition(k, e, a, forward):
    """D_a of a value's row (e^ε/(e^ε + k − 1) on it, the rest spread) against the uniform row, or the reverse."""
    with mpmath.workdps(70):
        e, a = mp(e), mpmath.inf if a == sp.oo else mp(a)
        p = mpmath.exp(e) / (mpmath.exp(e) + k - 1)
        row, uniform = [p, 1 - p], [mpmath.mpf(1) / k, mpmath.mpf(k - 1) / k]
        P, Q = (row, uniform) if forward else (uniform, row)
        if a == mpmath.inf:
            return max(mpmath.log(u / v) for u, v in zip(P, Q))
        if a == 1:
            return sum(u * mpmath.log(u / v) for u, v in zip(P, Q))
        return mpmath.log(sum(u**a * v ** (1 - a) for u, v in zip(P, Q))) / (a - 1)


@pytest.mark.parametrize("k, e, order", [(3, 20, 2), (2, 1, 1), (2, 1, sp.oo), (3, 2, R(5, 2)), (4, R(1, 2), 3)])
def test_the_rdp_of_a_pair_not_known_to_dominate_its_reverse_is_the_larger_direction(k, e, order):
    """A probe: k-ary randomized response against the special value's uniform row gave D(P‖Q) = log 3 at order 2
    (k = 3, ε = 20), labelled checked, where the reverse direction, and the mechanism's curve, is 18.5."""
    m = rdpsym.k_randomized_response(k, e, relation="replace-special")
    d = m.rdp(order)
    truth = max(_special_pair_definition(k, e, order, True), _special_pair_definition(k, e, order, False))
    assert d.status in (rdpsym.Status.PROVED, rdpsym.Status.CHECKED)
    assert_close(d.evalf(dps=60), truth, 50)
    if order != 1:
        assert_close(m.curve().value(order, dps=55), truth, 50)
    assert str(d).startswith(f"max(D_{order}(P||Q), D_{order}(Q||P)) = ")


def test_the_larger_direction_of_a_pair_with_conditions_is_evaluated_at_a_condition_boundary():
    """A review: the two directions' Piecewise results in a Max were evaluated branch by branch inside it, and where
    one direction's condition fails (exponential rates 1 and 3 at α = 3/2: α·λ₁ − α·λ₂ + λ₂ = 0) its finite branch
    was 0/0, a VerificationError.  The conditions fold into one Piecewise: ∞ there, the larger direction elsewhere."""
    x, l1, l2 = sp.Symbol("x", real=True), sp.Symbol("l1", positive=True), sp.Symbol("l2", positive=True)
    law = lambda rate: rdpsym.Continuous(rate * sp.exp(-rate * x), x, support=sp.Interval(0, sp.oo))  # noqa: E731
    d = rdpsym.Mechanism("exponentials", {}, (law(l1), law(l2))).rdp()
    assert d.evalf({l1: 1, l2: 3, rdpsym.alpha: R(3, 2)}) == mpmath.inf
    with mpmath.workdps(50):
        a = mpmath.mpf(5) / 4
        truth = max(mpmath.log(3) + mpmath.log(3 / (3 * a + 1 - a)) / (a - 1),  # D(Exp(1)‖Exp(3)), D(Exp(3)‖Exp(1))
                    -mpmath.log(3) + mpmath.log(1 / (a + 3 - 3 * a)) / (a - 1))
        assert abs(d.evalf({l1: 1, l2: 3, rdpsym.alpha: R(5, 4)}) - truth) < mpmath.mpf(10) ** -45

def test_k_randomized_response_with_two_values_is_randomized_response():
    e = R(7, 10)
    ours = rdpsym.k_randomized_response(2, e).curve().values(ORDERS + ["inf"], dps=50)
    rr = rdpsym.randomized_response(sp.exp(e) / (1 + sp.exp(e))).curve().values(ORDERS + ["inf"], dps=50)
    for a, b in zip(ours, rr):
        assert_close(a, b, 48)


def test_k_randomized_response_reads_dp_accountings_noise_convention():
    # noise r: uniform answer with probability r; e^ε = k/r − k + 1.
    by_noise = rdpsym.k_randomized_response(5, noise=R(1, 4))
    assert by_noise == rdpsym.k_randomized_response(5, sp.log(5 * 4 - 5 + 1))
    assert by_noise.parameters["epsilon"] == sp.log(16)
    assert rdpsym.k_randomized_response(5, noise=0.25) == by_noise  # a float is the decimal it prints as
    none = rdpsym.k_randomized_response(5, noise=0).curve().balls([2, math.inf])
    assert all(isinstance(v, Infinite) for v in none)  # no noise: not private
    assert rdpsym.k_randomized_response(5, noise=1).curve().value(3, dps=20) == 0  # all noise: nothing revealed
    assert rdpsym.k_randomized_response(1, noise=R(1, 2)).curve().value(3, dps=20) == 0  # a single value


def test_k_randomized_response_against_dp_accounting():
    rdp = pytest.importorskip("dp_accounting.rdp.rdp_privacy_accountant")
    for k, noise in ((4, 0.3), (17, 0.05), (2, 0.5)):
        one = rdpsym.k_randomized_response(k, noise=noise).curve().values([1.5, 3, 20], dps=30)
        special = rdpsym.k_randomized_response(k, noise=noise, relation="replace-special").curve().values(
            [1.5, 3, 20], dps=30)
        for a, v, w in zip([1.5, 3, 20], one, special):
            peer_one = rdp._randomized_response_rdp_replace_one(noise, k, a)
            peer_special = rdp._randomized_response_rdp_replace_special(noise, k, a)
            assert abs(float(v) - peer_one) <= 1e-12 * peer_one
            assert abs(float(w) - peer_special) <= 1e-12 * peer_special


def test_k_randomized_response_refuses_bad_input():
    with pytest.raises(ParameterError, match="exactly one of epsilon and noise"):
        rdpsym.k_randomized_response(3)
    with pytest.raises(ParameterError, match="exactly one of epsilon and noise"):
        rdpsym.k_randomized_response(3, 1, noise=R(1, 2))
    with pytest.raises(ParameterError, match="k must be an integer >= 1"):
        rdpsym.k_randomized_response(0, 1)
    with pytest.raises(ParameterError, match="k must be an integer"):
        rdpsym.k_randomized_response(2.5, 1)
    with pytest.raises(ParameterError, match="noise must be in the closed interval"):
        rdpsym.k_randomized_response(3, noise=2)
    with pytest.raises(ParameterError, match="epsilon must be"):
        rdpsym.k_randomized_response(3, -1)
    with pytest.raises(ParameterError, match="relation must be"):
        rdpsym.k_randomized_response(3, 1, relation="add-remove")


# ---------------------------------------------------------------- the non-private step
def test_non_private_is_infinite_everywhere_with_its_reason():
    c = rdpsym.non_private().curve()
    balls = c.balls([R(11, 10), 2, 1024, math.inf])
    assert all(isinstance(v, Infinite) and "non-private" in v.reason for v in balls)
    assert c.closed_form == sp.oo
    r = rdpsym.epsilon(c + rdpsym.gaussian(2).curve(), delta=1e-5, dps=20)
    assert r.value == mpmath.inf and r.published() == "inf"
    d = rdpsym.delta(c, epsilon=10, dps=20)
    assert d.value == mpmath.inf or d.value == 1  # never a finite δ < 1 for a non-private step


# ---------------------------------------------------------------- records
@pytest.mark.parametrize("make", [
    lambda: rdpsym.discrete_gaussian(R(3, 2), 2),
    lambda: rdpsym.discrete_laplace(2, 3),
    lambda: rdpsym.k_randomized_response(6, R(1, 2)),
    lambda: rdpsym.non_private(),
])
def test_new_records_compare_pickle_and_state_their_relation(make):
    m = make()
    assert m == make() and hash(m) == hash(make())
    assert pickle.loads(pickle.dumps(m)) == m
    assert pickle.loads(pickle.dumps(m.curve())) == m.curve()
    if isinstance(m, rdpsym.Mechanism):
        assert m.neighbouring and m.source is not None and m.worst_case


def test_pairs_are_built_only_when_read():
    for m in (rdpsym.discrete_gaussian(2), rdpsym.discrete_laplace(2), rdpsym.gaussian(3),
              rdpsym.sampled_gaussian(R(1, 100), 2)):
        m.curve().values([2], dps=20)
        assert not m.pair.built, m.name
    P, Q = rdpsym.discrete_laplace(2).pair  # reading builds them
    assert P.discrete and Q.discrete


def test_registry_builds_the_new_mechanisms_from_names():
    from rdpsym.cli import params
    from rdpsym.laws.mechanisms import REGISTRY

    m = params.build(REGISTRY["k-randomized-response"], params.read_assignments(["k=3", "epsilon=1"],
                                                                                  REGISTRY["k-randomized-response"]))
    assert m == rdpsym.k_randomized_response(3, 1)
    d = params.build(REGISTRY["discrete-gaussian"], params.read_assignments(["sigma=2", "Delta=2"],
                                                                              REGISTRY["discrete-gaussian"]))
    assert d == rdpsym.discrete_gaussian(2, 2)
    assert params.build(REGISTRY["non-private"], {}) == rdpsym.non_private()


def test_the_fractional_part_of_the_order_decides_the_theta_correction():
    from rdpsym.accounting.discrete import _distance_to_integer

    assert _distance_to_integer(fmpq(7, 2)) == fmpq(1, 2) and _distance_to_integer(fmpq(-13, 10)) == fmpq(3, 10)
    assert _distance_to_integer(fmpq(5)) == 0


def test_extreme_discrete_gaussians_stay_finite_and_exact():
    # σ = 1/1000: θ(½)/θ(0) ≈ 2e^{−1/(8σ²)}: the two nearest terms are equal, and the sum stops only when
    # the rest is negligible against them (not against 1).  D = αΔ²/(2σ²) + (log 2 − 1/(8σ²))/(α − 1) + tiny.
    v = rdpsym.discrete_gaussian(R(1, 1000)).curve().value(R(3, 2), dps=30)
    with mpmath.workdps(50):
        assert_close(v, 750000 + (mpmath.log(2) - 125000) * 2, 28)
    huge = rdpsym.discrete_gaussian(10**6).curve().value(R(3, 2), dps=20)
    with mpmath.workdps(40):
        assert abs(huge / (mpmath.mpf(3) / (4 * 10**12)) - 1) < mpmath.mpf(10) ** -19
    near_one = rdpsym.discrete_gaussian(3).curve().value(1 + R(1, 10**9), dps=25)
    with mpmath.workdps(40):
        assert abs(near_one / ((1 + mpmath.mpf(10) ** -9) / 18) - 1) < mpmath.mpf(10) ** -24
    with pytest.raises(ParameterError, match="must be (a number|numbers)"):
        rdpsym.discrete_gaussian(sp.Symbol("s", positive=True)).curve()


def test_a_discrete_gaussian_too_wide_or_too_narrow_for_the_working_precision_ends(watchdog):
    """σ = 10¹⁰ at a fractional order hung (a probe): e^{−2π²σ²}, with 2π²σ² known to ±100 at 64 bits, is a ball
    containing 0, and the theta sum's stopping test never came true.  The sums now stop where their next term is
    2^−bits of the first at the latest.  D = αΔ²/(2σ²) + log(θ(u)/θ(0))/(α − 1), u = 1/10 (σ = 10⁻¹⁰: the log is
    −u²/(2σ²) to far beyond 15 digits; σ = 10¹⁰: it is below e^{−10²¹})."""
    from flint import arb

    from rdpsym.accounting.discrete import theta_log_ratio
    from rdpsym.foundations.balls import precision

    with watchdog(60, "the theta sums"):
        with precision(64):
            assert abs(theta_log_ratio(sp.Integer(10**10), fmpq(1, 10))) < arb(10) ** -1000
        wide = rdpsym.discrete_gaussian(10**10).curve().value(R(11, 10), dps=15)
        narrow = rdpsym.discrete_gaussian(R(1, 10**10)).curve().value(R(11, 10), dps=15)
    assert_close(wide, mpmath.mpf("5.5e-21"), 14)
    assert_close(narrow, mpmath.mpf(55 * 10**18 - 5 * 10**18), 14)  # 1.1/(2σ²) − (0.01/(2σ²))/0.1


def test_every_curve_says_how_each_value_is_obtained():
    c = (rdpsym.discrete_gaussian(2).curve() + rdpsym.discrete_laplace(2).curve()
         + rdpsym.k_randomized_response(3, 1).curve() + rdpsym.non_private().curve()
         + rdpsym.sampled_gaussian(R(1, 100), 2).curve() + rdpsym.laplace(1).curve())
    lines = c.how(R(5, 2))
    assert len(lines) == 6
    assert lines[0].startswith("discrete-gaussian(") and "theta" in lines[0]
    assert "geometric sum" in lines[1] and "finite sum" in lines[2]
    assert lines[3].startswith("non-private") and "∞" in lines[3]
    assert "quadrature" in lines[4] and "binomial sum" in c.how(3)[4]
    assert "exact: the closed form, derived (proved" in lines[5]


def test_a_series_with_integer_powers_of_its_index_evaluates_to_every_digit():
    # Its terms were evaluated at Python ints, and 3**(-j**2) is then a float: right to 16 digits of 40.
    from rdpsym.engine.series import INDEX as j
    from rdpsym.engine.series import Series

    s = Series(3 ** (-j**2) / (j**2 + 1), (j, -sp.oo, sp.oo))
    with mpmath.workdps(60):
        want = sp.Float(mpmath.nstr(mpmath.nsum(lambda k: mpmath.mpf(3) ** (-k**2) / (k**2 + 1),
                                                [-mpmath.inf, mpmath.inf]), 60), 60)
    assert abs(sp.N(s, 45) - want) < 1e-42


def test_extreme_scales_within_the_ceilings_give_values():
    # A θ-sum with e^{10⁴⁰⁰}-sized terms cancels in about 4·1330 bits, past the rungs of 10 digits: "not reached
    # within 424 bits" for σ = 10⁻²⁰⁰ at α = 3/2 (a probe).  The values, by hand: the largest terms of the
    # moment are at k = 0 and k = −1, each e^{(α−1)/(4σ²)}, so D_{3/2} = 1/(2σ²) + 2·log 2; the exponential mechanism's
    # curve is αε²/8 to first order; the discrete Laplace's is 1/t for a tiny scale t.
    tiny = sp.Rational(1, 10**200)
    assert abs(rdpsym.discrete_gaussian(tiny).curve().value(sp.Rational(3, 2), dps=10) / mpmath.mpf("5e399") - 1) < 1e-9
    assert abs(rdpsym.exponential_mechanism(tiny).curve().value(2, dps=10) / mpmath.mpf("2.5e-401") - 1) < 1e-9
    assert abs(rdpsym.discrete_laplace(tiny**2).curve().value(2, dps=10) / mpmath.mpf("1e400") - 1) < 1e-9
