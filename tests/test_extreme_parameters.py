"""Mechanisms with very large or very small noise: the definition is checked at every scale.

Regression for the review finding that ``gaussian(sigma=10000).curve()``,
``gaussian(sigma=1e10)``, ``gaussian(sigma=1e-10)`` and ``laplace(scale=1e8)``
could not be used: the quadrature and the D_∞ scan assumed densities of unit
width, and the agreement test had an absolute floor.  Expected values are
Mironov's closed forms (Props 5–7) evaluated here in mpmath at 150 digits,
never read from rdpsym.
"""

from __future__ import annotations

import functools

import mironov_reference as reference
import mpmath
import pytest
import sympy as sp

import rdpsym
from rdpsym import renyi_divergence_mp
from rdpsym.derive.verify import check_against_definition
from rdpsym.engine.context import Hypotheses
from rdpsym.foundations.errors import ConvergenceError, VerificationError

R = sp.Rational
#: Orders every curve is evaluated at (the verification samples its own, up to 50).
ORDERS = [R(3, 2), 2, 10, 50]
#: Significant digits the values must agree to (the verification itself requires 40).
DIGITS = 40


def gaussian_expected(sigma, order):
    return reference.gaussian(sigma, order)


def laplace_expected(scale, order):
    return reference.laplace(scale, order)


def rr_expected(p, order):
    return reference.randomized_response(p, order)


def assert_agrees(value, expected, what):
    assert mpmath.isfinite(value) and value >= 0, (what, value)
    with mpmath.workdps(150):
        assert expected > 0, (what, expected)  # every case here has a positive divergence
        error = abs(mpmath.mpf(value) - expected) / expected
        assert error <= mpmath.mpf(10) ** -DIGITS, (what, mpmath.nstr(value, 50), mpmath.nstr(expected, 50))


GAUSSIAN_SIGMAS = [R(1, 10**10), R(1, 10**4), 10**4, 10**10]
LAPLACE_SCALES = [R(1, 10**8), 10**8]
RR_PROBABILITIES = [R(1, 2) + R(1, 10**12), R(1, 2) - R(1, 10**12), R(1, 10**12), 1 - R(1, 10**12)]


# ---------------------------------------------------------------- curves (closed form checked against the definition)


@pytest.mark.parametrize("sigma", GAUSSIAN_SIGMAS, ids=str)
def test_gaussian_curve_at_extreme_sigma(sigma):
    curve = rdpsym.gaussian(sigma=sigma).curve()  # raised VerificationError for sigma ≥ 10^4 or 10^-10
    assert sp.simplify(curve.closed_form - rdpsym.alpha / (2 * sp.Rational(sigma) ** 2)) == 0
    for order in ORDERS:
        assert_agrees(curve.value(order, dps=45), gaussian_expected(sigma, order), (sigma, order))


@pytest.mark.parametrize("scale", LAPLACE_SCALES, ids=str)
def test_laplace_curve_at_extreme_scale(scale):
    curve = rdpsym.laplace(scale=scale).curve()
    for order in ORDERS:
        assert_agrees(curve.value(order, dps=45), laplace_expected(scale, order), (scale, order))


@pytest.mark.parametrize("p", RR_PROBABILITIES, ids=str)
def test_randomized_response_curve_near_one_half_and_near_zero_or_one(p):
    curve = rdpsym.randomized_response(p).curve()
    for order in ORDERS:
        assert_agrees(curve.value(order, dps=45), rr_expected(p, order), (p, order))


@pytest.mark.parametrize("k", [20, 60, 100])
@pytest.mark.parametrize(("mechanism", "expected"), [
    (rdpsym.laplace(scale=1), lambda order: laplace_expected(1, order)),
    (rdpsym.randomized_response(R(3, 4)), lambda order: rr_expected(R(3, 4), order)),
], ids=["laplace", "randomized-response"])
def test_curves_at_an_order_a_hair_above_one(mechanism, expected, k):
    """α = 1 + 10⁻ᵏ (a probe): the closed forms divide by α − 1, a ball around 0 below 200 bits at k = 60; that
    first rung's NaN was an error ("a non-finite ball nan"), not a reason to take more bits.  (The references
    keep 150 − k digits: enough for 40.)"""
    order = 1 + R(1, 10**k)
    assert_agrees(mechanism.curve().value(order, dps=40), expected(order), (mechanism, k))


@pytest.mark.parametrize("k", [1000, 3000])
@pytest.mark.parametrize(("mechanism", "kl"), [
    (rdpsym.laplace(scale=1), lambda: mpmath.exp(-1)),  # Table II: 1/λ + e^{−1/λ} − 1 at λ = 1
    (rdpsym.randomized_response(R(3, 4)), lambda: mpmath.log(3) / 2),  # Table II: (2p − 1)·log(p/(1 − p))
], ids=["laplace", "randomized-response"])
def test_curves_at_an_order_closer_to_one_than_the_rungs_reach(mechanism, kl, k):
    """α = 1 + 10⁻ᵏ past the precision rungs (they end at 4·bits_for(dps), 1216 bits for 40 digits): the climb goes
    on to the bits that α − 1 itself needs, where it was "not reached within 1216 bits".  D_α is within about
    10⁻ᵏ of the KL divergence there, so the KL's own closed form is the reference."""
    with mpmath.workdps(60):
        assert_agrees(mechanism.curve().value(1 + R(1, 10**k), dps=40), kl(), (mechanism, k))


def _pmf_divergence(p: list, q: list, order) -> mpmath.mpf:
    """D_α of two pmfs on the same outcomes, summed in mpmath from Definition 3 (the exponents α·log p kept exact
    enough by the working precision the caller sets)."""
    a = mpmath.mpf(order)
    return mpmath.log(mpmath.fsum(pi ** a * qi ** (1 - a) for pi, qi in zip(p, q))) / (a - 1)


@pytest.mark.parametrize("order", [R(10) ** 300, R(10) ** 1000], ids=["1e300", "1e1000"])
@pytest.mark.parametrize("dps", [15, 30, 50])
def test_curves_with_several_outcomes_at_an_order_past_the_rungs(order, dps):
    """k-ary randomized response (k = 3, ε = 1) and randomized response Poisson-sampled at q = 1/10 at α = 10³⁰⁰ (a
    probe): "not reached within 952 bits" at 30 digits.  Their forms' exponents α·log p carry log₂α bits before the
    point, so their logarithm is resolved only past that; the climb now goes on doubling there.  The references are
    Definition 3's sums over the outcomes, in mpmath at 1 400 digits (both directions for the sampled one)."""
    with mpmath.workdps(1400):
        e, third = mpmath.e, [mpmath.e / (mpmath.e + 2), 1 / (mpmath.e + 2), 1 / (mpmath.e + 2)]
        k_rr = _pmf_divergence(third, [third[1], third[0], third[2]], order)
        true, base = [mpmath.mpf(3) / 4, mpmath.mpf(1) / 4], [mpmath.mpf(1) / 4, mpmath.mpf(3) / 4]
        mixed = [(9 * q + p) / 10 for p, q in zip(true, base)]
        sampled = max(_pmf_divergence(mixed, base, order), _pmf_divergence(base, mixed, order))
        assert e > 2  # (the law above is e/(e + 2) on the true outcome)
    cases = [(rdpsym.k_randomized_response(k=3, epsilon=1), k_rr),
             (rdpsym.poisson_sampled(rdpsym.randomized_response(R(3, 4)), R(1, 10)), sampled)]
    for mechanism, want in cases:
        value = mechanism.curve().value(order, dps=dps)
        with mpmath.workdps(dps + 10):
            assert abs(value - want) <= mpmath.mpf(10) ** (1 - dps) * abs(want), (mechanism, value, want)


@pytest.mark.parametrize("dps", [10, 20, 30])
def test_fewer_digits_asked_never_means_no_answer(dps):
    """Laplace at scale 10⁻³⁰⁰ (a probe): D₂ = 10³⁰⁰ + log(2/3) was found at 30 and 40 digits but "not reached within
    424 bits" at 10: the form's exponent e^{10³⁰⁰·α} needs 1000 bits before its logarithm's argument is certified
    positive, past the rungs of few digits.  The climb now goes on doubling there."""
    value = rdpsym.laplace(scale=R(1, 10**300)).curve().value(2, dps=dps)
    with mpmath.workdps(dps + 10):
        want = mpmath.mpf(10) ** 300 + mpmath.log(mpmath.mpf(2) / 3)
        assert abs(value - want) <= mpmath.mpf(10) ** (1 - dps) * want


def test_large_sigma_is_the_same_curve_as_small_sensitivity():
    # D_α depends on Δ/σ only: σ = 10⁴ with Δ = 1 and σ = 1 with Δ = 10⁻⁴ (which always worked).
    big = rdpsym.gaussian(sigma=10**4).curve()
    small = rdpsym.gaussian(sigma=1, sensitivity=R(1, 10**4)).curve()
    assert sp.simplify(big.closed_form - small.closed_form) == 0


def test_epsilon_of_gaussian_with_sigma_ten_thousand_is_finite():
    r = rdpsym.epsilon(rdpsym.gaussian(sigma=10**4).curve(), delta=R(1, 10**5), orders="dp-accounting", dps=30)
    assert mpmath.isfinite(r.value) and 0 < r.value < mpmath.mpf("0.01")
    exact = rdpsym.epsilon(rdpsym.gaussian(sigma=10**4).curve(), delta=R(1, 10**5), dps=30)  # Balle–Wang's
    assert exact.conversion == "balle-wang" and 0 < exact.value < r.value
    # Mironov Prop 3 at the chosen order bounds it from above: ε ≤ α/(2σ²) + log(1/δ)/(α − 1).
    with mpmath.workdps(40):
        a = mpmath.mpf(sp.N(sp.Rational(str(r.order)), 40))
        assert r.value <= a / (2 * mpmath.mpf(10) ** 8) + mpmath.log(10**5) / (a - 1)


# ---------------------------------------------------------------- the definition itself, at every order kind


@pytest.mark.parametrize("sigma", GAUSSIAN_SIGMAS, ids=str)
@pytest.mark.parametrize("order", [R(1, 2), R(11, 10), 2, 50, 1], ids=str)
def test_gaussian_definition_by_quadrature(sigma, order):
    P, Q = rdpsym.gaussian(sigma=sigma).pair
    value = renyi_divergence_mp(P, Q, order, dps=45)
    assert_agrees(value, gaussian_expected(sigma, order), (sigma, order))


@pytest.mark.parametrize("sigma", GAUSSIAN_SIGMAS, ids=str)
def test_gaussian_dinf_is_infinite_at_every_scale(sigma):
    # log P/Q = (2x − 1)/(2σ²) is unbounded, however slowly it rises over the scan.
    P, Q = rdpsym.gaussian(sigma=sigma).pair
    assert renyi_divergence_mp(P, Q, sp.oo, dps=45) == mpmath.inf


@pytest.mark.parametrize("scale", LAPLACE_SCALES, ids=str)
@pytest.mark.parametrize("order", [R(1, 3), R(11, 10), 2, 50, 1, sp.oo], ids=str)
def test_laplace_definition_by_quadrature(scale, order):
    P, Q = rdpsym.laplace(scale=scale).pair
    value = renyi_divergence_mp(P, Q, order, dps=45)
    assert_agrees(value, laplace_expected(scale, order), (scale, order))


@pytest.mark.parametrize("p", RR_PROBABILITIES, ids=str)
@pytest.mark.parametrize("order", [R(1, 2), 2, 50, 1, sp.oo], ids=str)
def test_randomized_response_definition(p, order):
    P, Q = rdpsym.randomized_response(p).pair
    value = renyi_divergence_mp(P, Q, order, dps=45)
    assert_agrees(value, rr_expected(p, order), (p, order))


def test_identical_densities_give_exactly_zero():
    # Relative agreement has no absolute floor, so 0 must come out as 0, not as rounding noise.
    P, _ = rdpsym.laplace(scale=1).pair
    assert renyi_divergence_mp(P, P, 2, dps=45) == 0


# ---------------------------------------------------------------- the check stays honest


def test_tiny_closed_form_wrong_in_the_30th_digit_is_rejected():
    # 2.5·10⁻¹⁹ off by one part in 10³⁰: an absolute floor of 10⁻⁴⁵ would have let it pass.
    P, Q = rdpsym.gaussian(sigma=10**10).pair
    a = rdpsym.alpha
    right = a / (2 * sp.Integer(10) ** 20)
    assert check_against_definition(P, Q, a, right, (), Hypotheses(a))
    with pytest.raises(VerificationError, match="disagrees with the definition at α = "):
        check_against_definition(P, Q, a, right * (1 + sp.Rational(1, 10**30)), (), Hypotheses(a))


def test_huge_closed_form_wrong_in_the_30th_digit_is_rejected():
    P, Q = rdpsym.gaussian(sigma=R(1, 10**10)).pair
    a = rdpsym.alpha
    right = a * sp.Integer(10) ** 20 / 2
    assert check_against_definition(P, Q, a, right, (), Hypotheses(a))
    with pytest.raises(VerificationError, match="disagrees"):
        check_against_definition(P, Q, a, right * (1 + sp.Rational(1, 10**30)), (), Hypotheses(a))


def test_failures_name_the_order_and_the_pair():
    P, Q = rdpsym.gaussian(sigma=10**4).pair
    with pytest.raises(VerificationError) as e:
        check_against_definition(P, Q, sp.oo, sp.Integer(0), (), Hypotheses(None))
    message = str(e.value)
    assert "at order oo for P = " in message and "200000000" in message  # 2σ² = 2·10⁸


def test_convergence_failures_name_where(monkeypatch):
    import rdpsym.derive.verify

    def fails(*args, **kwargs):
        raise ConvergenceError("the log-ratio is still increasing")

    monkeypatch.setattr(rdpsym.derive.verify, "univariate_divergence_mp", fails)
    P, Q = rdpsym.gaussian(sigma=10**4).pair
    with pytest.raises(VerificationError, match=r"did not converge at order oo for P = .+: the log-ratio"):
        check_against_definition(P, Q, sp.oo, sp.oo, (), Hypotheses(None))


# ---------------------------------------------------------------- user densities: nothing assumes unit scale

x = sp.Symbol("x", real=True)


def cauchy(gamma, centre):
    return rdpsym.Continuous(gamma / (sp.pi * (gamma**2 + (x - centre) ** 2)), x)


@functools.cache
def gamma_half(theta):
    """Gamma(shape ½, scale θ): singular (x^−½) at 0, exponential tail (built once: its
    normalisation check is slow in SymPy at θ = 10⁻⁶)."""
    return rdpsym.Continuous(sp.exp(-x / theta) / sp.sqrt(sp.pi * theta * x), x, support=sp.Interval(0, sp.oo))


@pytest.mark.parametrize("gamma", [R(1, 10**6), 10**6], ids=str)
@pytest.mark.parametrize("order", [1, 2], ids=str)
def test_cauchy_pair_at_extreme_scale(gamma, order):
    # Shift γ/2: KL = log(1 + Δ²/(4γ²)) = log(17/16), D_2 = log(1 + Δ²/(2γ²)) = log(9/8).
    value = renyi_divergence_mp(cauchy(gamma, 0), cauchy(gamma, sp.Rational(gamma) / 2), order, dps=45)
    with mpmath.workdps(150):
        expected = mpmath.log(mpmath.mpf(17) / 16) if order == 1 else mpmath.log(mpmath.mpf(9) / 8)
    assert_agrees(value, expected, (gamma, order))


@pytest.mark.parametrize("theta", [R(1, 10**6), 10**6], ids=str)
@pytest.mark.parametrize("order", [1, 2, sp.oo], ids=str)
def test_singular_gamma_pair_at_extreme_scale(theta, order):
    # Gamma(½, θ) vs Gamma(½, 2θ): KL = (log 2 − ½)/2, D_2 = log √(4/3), D_∞ = log √2.
    value = renyi_divergence_mp(gamma_half(theta), gamma_half(2 * sp.Rational(theta)), order, dps=45)
    with mpmath.workdps(150):
        expected = {1: (mpmath.log(2) - mpmath.mpf(1) / 2) / 2, 2: mpmath.log(mpmath.mpf(4) / 3) / 2,
                    sp.oo: mpmath.log(2) / 2}[order]
    assert_agrees(value, expected, (theta, order))


@pytest.mark.parametrize(("form", "order"), [(sp.log(rdpsym.alpha - 2), 2), (sp.sqrt(2 - rdpsym.alpha), 3)])
def test_a_form_outside_its_domain_is_refused_at_the_rungs_not_climbed_further(form, order):
    """A review: past its rungs the climb doubles while the last rung could not decide, but an OutsideDomain is
    certain at any precision (log(α − 2) at α = 2): it doubled to 60 928 bits, past its own ceiling.  It now stops at
    the rungs (952 bits for 30 digits)."""
    from rdpsym.accounting.components import ClosedForm
    from rdpsym.accounting.curve import curve

    with pytest.raises(ConvergenceError, match="not reached within 952 bits"):
        curve(ClosedForm("outside", form)).value(order, dps=30)


def test_an_epsilon_dp_guarantee_of_a_tiny_epsilon_has_its_curve():
    # sinh(10⁻⁴⁰⁰) read as a Python float is 0, so 1/sinh(10⁻⁴⁰⁰) was refused as "a power with more than 10^300
    # digits" (a probe); ε = 10⁻⁴⁰⁰ is inside the ceilings.  Bun–Steinke's curve is αε²/2 to first order.
    curve = rdpsym.pure_dp(sp.Rational(1, 10**400)).curve()
    assert abs(curve.value(2, dps=15) / mpmath.mpf("1e-800") - 1) < 1e-12
    assert abs(curve.value(sp.oo, dps=15) / mpmath.mpf("1e-400") - 1) < 1e-12


def test_a_kl_whose_mass_lies_closer_to_an_end_than_the_quadrature_reads_is_refused_not_misread():
    """A probe: two gamma laws of shape 10⁻⁵⁰ (rates 1 and 2) hold all but 10⁻⁴⁷ of P's mass below x = e⁻¹⁰⁰⁰.  The
    definition's KL came out E_P[x] = 10⁻⁵⁰ at every precision, missing the constant a·log ½ of log(P/Q) on that
    mass (the KL is 10⁻⁵⁰·(1 − log 2)), and the correct closed form was called a disagreement.  Now the definition
    refuses (P's mass as read is not 1), and the closed form is never refuted by it."""
    x = sp.Symbol("x", real=True)
    a = R(1, 10**50)

    def gamma_law(rate):
        return rdpsym.Continuous(rate**a * x ** (a - 1) * sp.exp(-rate * x) / sp.gamma(a), x,
                                 support=sp.Interval(0, sp.oo))

    with pytest.raises(ConvergenceError):
        renyi_divergence_mp(gamma_law(1), gamma_law(2), 1, dps=30)
    try:
        d = rdpsym.renyi_divergence(gamma_law(1), gamma_law(2), 1)
    except ConvergenceError:
        return  # (no value: never a wrong one)
    with mpmath.workdps(60):
        assert mpmath.almosteq(d.evalf(dps=30), mpmath.mpf(a.p) / a.q * (1 - mpmath.log(2)), mpmath.mpf(10) ** -28)


def test_a_kl_with_a_heavy_tail_the_quadrature_reads_short_is_still_evaluated():
    """A review of the mass check above: P's mass is read short in a heavy tail where the KL needs none of it (Student-t
    laws of ν = 1/10: 1 − 2·10⁻⁸; a tail x^{−1.01} shared by P and Q: 0.91), and such pairs were refused.  Values: an
    independent quadrature at 30 digits, and ½(1 − (3/2)·log(3/2) − ½·log 2) by hand."""
    x = sp.Symbol("x", real=True)

    def student(nu, m=0):
        c = sp.gamma((nu + 1) / 2) / (sp.sqrt(nu * sp.pi) * sp.gamma(nu / 2))
        return rdpsym.Continuous(c * (1 + (x - m) ** 2 / nu) ** (-(nu + 1) / 2), x)

    with mpmath.workdps(30):
        assert mpmath.almosteq(renyi_divergence_mp(student(R(1, 10)), student(R(1, 10), 1), 1, dps=20),
                               mpmath.mpf("0.10519349571882653507"), mpmath.mpf(10) ** -19)
    s = R(1, 100)
    tail = s / 2 * x ** (-1 - s)
    P = rdpsym.Continuous(sp.Piecewise((R(1, 2), x < 1), (tail, True)), x, support=sp.Interval(0, sp.oo))
    Q = rdpsym.Continuous(sp.Piecewise((R(1, 4) + x / 2, x < 1), (tail, True)), x, support=sp.Interval(0, sp.oo))
    with mpmath.workdps(30):
        exact = (1 - mpmath.mpf(3) / 2 * mpmath.log(mpmath.mpf(3) / 2) - mpmath.log(2) / 2) / 2
        assert mpmath.almosteq(renyi_divergence_mp(P, Q, 1, dps=20), exact, mpmath.mpf(10) ** -19)

