"""Laws with atoms beside a density (rdpsym.laws.atoms, rdpsym.derive.atoms): a Gaussian clipped to [0, 1].

Every value is compared with a brute-force mpmath evaluation of the definition written here: the density
parts integrated by mpmath's quadrature, the atoms' terms added, at 40 digits.
"""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

import rdpsym
from rdpsym.foundations.errors import DensityError, DomainError
from rdpsym.foundations.evidence import AgreesWithDefinition
from rdpsym.laws.atoms import WithAtoms

x = sp.Symbol("x", real=True)
R = sp.Rational
HALF = R(1, 2)


def clipped(mu, sigma=1):
    """N(μ, σ²) clipped to [0, 1]: its density on (0, 1), and the tails' masses as atoms at 0 and 1."""
    phi = sp.exp(-(x - mu) ** 2 / (2 * sigma**2)) / (sigma * sp.sqrt(2 * sp.pi))
    cdf = lambda z: (1 + sp.erf(z / sp.sqrt(2))) / 2  # noqa: E731
    return rdpsym.Continuous(phi + cdf(-mu / sigma) * sp.DiracDelta(x) + cdf((mu - 1) / sigma) * sp.DiracDelta(x - 1),
                             x, support=sp.Interval(0, 1))


def oracle(order, m1, m2, sigma=1):
    """D_order of the two clipped Gaussians, by mpmath alone (40 digits)."""
    with mpmath.workdps(40):
        s = mpmath.mpf(sigma)
        m1, m2 = mpmath.mpf(m1), mpmath.mpf(m2)
        pdf = lambda m, t: mpmath.npdf(t, m, s)  # noqa: E731
        atoms = [(mpmath.ncdf(-m1 / s), mpmath.ncdf(-m2 / s)), (mpmath.ncdf((m1 - 1) / s), mpmath.ncdf((m2 - 1) / s))]
        if order == 1:
            return (mpmath.quad(lambda t: pdf(m1, t) * mpmath.log(pdf(m1, t) / pdf(m2, t)), [0, 1])
                    + sum(p * mpmath.log(p / q) for p, q in atoms))
        if order == sp.oo:
            grid = [mpmath.mpf(i) / 1000 for i in range(1001)]
            return max([max(mpmath.log(pdf(m1, t) / pdf(m2, t)) for t in grid)]
                       + [mpmath.log(p / q) for p, q in atoms])
        a = mpmath.mpf(order.p) / order.q
        inner = mpmath.quad(lambda t: pdf(m1, t) ** a * pdf(m2, t) ** (1 - a), [0, 1])
        return mpmath.log(inner + sum(p**a * q ** (1 - a) for p, q in atoms)) / (a - 1)


def test_a_clipped_gaussian_is_a_density_part_and_two_atoms():
    P = clipped(0)
    assert isinstance(P, WithAtoms)
    assert P.atoms == ((0, HALF), (1, HALF - sp.erf(sp.sqrt(2) / 2) / 2))
    assert sp.simplify(P.mass - sp.erf(sp.sqrt(2) / 2) / 2) == 0
    assert P.density.support == sp.Interval(0, 1) and P.density.validated


@pytest.mark.parametrize("order", [R(2), HALF, R(7, 3), sp.S.One, sp.oo])
def test_the_divergence_of_two_clipped_gaussians_is_the_definition(order):
    P, Q = clipped(0), clipped(HALF)
    d = rdpsym.renyi_divergence(P, Q, order)
    truth = oracle(order, 0, HALF)
    with mpmath.workdps(40):
        assert d.status == rdpsym.Status.CHECKED
        assert abs(mpmath.mpf(sp.N(d.result, 45)) - truth) < mpmath.mpf(10) ** -35
        assert abs(rdpsym.renyi_divergence_mp(P, Q, order, dps=35) - truth) < mpmath.mpf(10) ** -33


def test_an_atom_of_p_where_q_has_none_is_infinite_above_one_and_adds_nothing_below():
    half_normal = sp.sqrt(2) * sp.exp(-x**2 / 2) / sp.sqrt(sp.pi) / 2  # mass 1/2 on [0, ∞)
    P = rdpsym.Continuous(half_normal + sp.DiracDelta(x - 1) / 2, x, support=sp.Interval(0, sp.oo))
    Q = rdpsym.Continuous(sp.exp(-x), x, support=sp.Interval(0, sp.oo))
    assert rdpsym.renyi_divergence(P, Q, 2).result == sp.oo
    assert rdpsym.renyi_divergence(P, Q, 1).result == sp.oo
    assert rdpsym.renyi_divergence_mp(P, Q, 3, dps=20) == mpmath.inf
    with mpmath.workdps(40):  # below 1 the atom meets no mass of Q: only the density parts count
        a = mpmath.mpf(1) / 2
        inner = mpmath.quad(lambda t: mpmath.npdf(t) ** a * mpmath.exp(-t) ** (1 - a), [0, mpmath.inf])
        truth = mpmath.log(inner) / (a - 1)
        assert abs(rdpsym.renyi_divergence_mp(P, Q, HALF, dps=35) - truth) < mpmath.mpf(10) ** -33
        assert abs(mpmath.mpf(sp.N(rdpsym.renyi_divergence(P, Q, HALF).result, 45)) - truth) < mpmath.mpf(10) ** -35


def test_a_symbolic_order_is_derived_for_every_order_and_equals_the_definition():
    P, Q = clipped(0), clipped(HALF)
    d = rdpsym.renyi_divergence(P, Q, rdpsym.alpha)
    assert d.status == rdpsym.Status.CHECKED and not d.result.has(sp.Piecewise)
    with mpmath.workdps(40):
        for order in (R(1, 3), R(9, 10), R(11, 10), R(5, 2), R(12)):
            value = mpmath.mpf(sp.N(d.result.subs(rdpsym.alpha, order), 45))
            assert abs(value - oracle(order, 0, HALF)) < mpmath.mpf(10) ** -35, order


def test_a_symbolic_order_with_an_atom_q_lacks_is_finite_only_below_one():
    half_normal = sp.sqrt(2) * sp.exp(-x**2 / 2) / sp.sqrt(sp.pi) / 2
    P = rdpsym.Continuous(half_normal + sp.DiracDelta(x - 1) / 2, x, support=sp.Interval(0, sp.oo))
    Q = rdpsym.Continuous(sp.exp(-x), x, support=sp.Interval(0, sp.oo))
    d = rdpsym.renyi_divergence(P, Q, rdpsym.alpha)
    assert isinstance(d.result, sp.Piecewise) and d.result.subs(rdpsym.alpha, 2) == sp.oo
    with mpmath.workdps(40):
        a = mpmath.mpf(1) / 3  # the atom adds nothing: only the density parts' moment
        inner = mpmath.quad(lambda t: mpmath.npdf(t) ** a * mpmath.exp(-t) ** (1 - a), [0, mpmath.inf])
        truth = mpmath.log(inner) / (a - 1)
        assert abs(mpmath.mpf(sp.N(d.result.subs(rdpsym.alpha, R(1, 3)), 45)) - truth) < mpmath.mpf(10) ** -35


def test_a_symbolic_order_with_a_parameter_is_checked_at_sampled_points_and_holds_elsewhere():
    mu = sp.Symbol("mu", positive=True)
    d = rdpsym.renyi_divergence(clipped(0), clipped(mu), rdpsym.alpha)
    checked = {e.values.get(mu) for e in d.evidence if isinstance(e, AgreesWithDefinition)}
    assert len(checked) >= 2 and d.status == rdpsym.Status.CHECKED
    with mpmath.workdps(40):  # a point the check did not draw
        for order in (R(2, 3), R(7, 2)):
            value = mpmath.mpf(sp.N(d.result.subs({rdpsym.alpha: order, mu: R(3, 7)}), 45))
            assert abs(value - oracle(order, 0, R(3, 7))) < mpmath.mpf(10) ** -35


def test_the_symbol_of_the_order_may_not_be_a_parameter_of_the_laws():
    a = rdpsym.alpha
    with pytest.raises(DomainError, match="order"):
        rdpsym.renyi_divergence(clipped(0), clipped(a), a)


@pytest.mark.parametrize("pdf, support, says", [
    (sp.Rational(1, 2) + sp.DiracDelta(x - 3) / 2, sp.Interval(0, 1), "an atom's point must be inside the support"),
    (sp.Rational(3, 2) - sp.DiracDelta(x) / 2, sp.Interval(0, 1), "weight of the atom at 0 must be nonnegative"),
    (sp.Rational(1, 2) + sp.DiracDelta(x) / 4, sp.Interval(0, 1), "must integrate to 1"),
    (sp.DiracDelta(x**2 - 1), sp.Interval(-2, 2), "DiracDelta of a linear function"),
    (sp.DiracDelta(x) / 3, sp.Interval(0, 1), "the law must have mass 1"),
])
def test_what_is_not_a_law_with_atoms_is_refused_by_name(pdf, support, says):
    with pytest.raises(DensityError, match=says):
        rdpsym.Continuous(pdf, x, support=support)


def test_a_delta_of_a_scaled_argument_weighs_its_inverse_scale_and_values_are_read():
    mu = sp.Symbol("mu", positive=True)
    P = rdpsym.Continuous(HALF + sp.DiracDelta(2 * x - 2) / 2 + sp.DiracDelta(x) / 4, x, support=sp.Interval(0, 1))
    assert P.atoms == ((0, R(1, 4)), (1, R(1, 4))) and P.mass == HALF
    Pmu = clipped(mu)
    at = Pmu.subs({"mu": HALF})
    assert at.atoms[0][1] == (1 + sp.erf(-HALF / sp.sqrt(2))) / 2
    with mpmath.workdps(40):
        assert abs(rdpsym.renyi_divergence_mp(clipped(0), at, 2, dps=35) - oracle(R(2), 0, HALF)) < mpmath.mpf(10) ** -33
        assert abs(rdpsym.renyi_divergence_mp(clipped(0), Pmu, 2, dps=35, values={mu: HALF})
                   - oracle(R(2), 0, HALF)) < mpmath.mpf(10) ** -33


def test_a_mechanism_of_clipped_gaussians_has_a_curve_with_its_kl_and_d_infinity(monkeypatch):
    # Its closed form holds erf(α·μ): SymPy's limit α → 1⁺ spent 7.5 s failing (gruntz: "several variables") before
    # the KL was derived from the laws again; the curve's value at 1 is its form's derivative there (L'Hôpital),
    # both directions (the mechanism is not symmetric), without SymPy's limit.
    from rdpsym.accounting.components import _limit

    m = rdpsym.Mechanism("clipped-gaussian", {}, (clipped(HALF), clipped(0)))
    c = m.curve()
    assert c.closed_form is not None
    _limit.cache_clear()

    def no_limit(*args, **kwargs):
        raise AssertionError("SymPy's limit was asked")

    monkeypatch.setattr(sp, "limit", no_limit)
    with mpmath.workdps(40):
        for order in (R(1), R(2), R(5, 2)):
            truth = max(oracle(order, HALF, 0), oracle(order, 0, HALF))
            assert abs(c.value(order, dps=40) - truth) < mpmath.mpf(10) ** -35, order
        worst_atom = mpmath.log(mpmath.ncdf(-HALF) / mpmath.ncdf(-1))  # the atoms at 1, P = N(1/2), Q = N(0)
        assert abs(c.value(sp.oo, dps=40) - worst_atom) < mpmath.mpf(10) ** -35


@pytest.mark.parametrize("k", [20, 50, 80])
@pytest.mark.parametrize("sign", [1, -1])
def test_an_order_next_to_one_keeps_its_digits(k, sign):
    """A probe: an atom of 1/3 (1/2) at 0 beside a uniform part, at α = 1 ± 10⁻ᵏ.  The moment is 1 + (α − 1)·KL,
    and its log was taken at the digits asked for: 10 digits right at k = 30, 0.0 at k = 50 (α rounded to 1), a
    ZeroDivisionError at k = 60; the derivation then called its own right closed form wrong.  The pair is a
    two-point law in disguise: D_α = log(aᵅb^{1−α} + (1 − a)ᵅ(1 − b)^{1−α})/(α − 1)."""
    law = lambda a: rdpsym.Continuous(a * sp.DiracDelta(x) + (1 - a), x, support=sp.Interval(0, 1))  # noqa: E731
    order = 1 + sign * R(1, 10**k)
    value = rdpsym.renyi_divergence_mp(law(R(1, 3)), law(R(1, 2)), order, dps=40)
    with mpmath.workdps(k + 100):
        a, b, t = mpmath.mpf(1) / 3, mpmath.mpf(1) / 2, sign * mpmath.mpf(10) ** -k
        expected = mpmath.log(a ** (1 + t) * b ** -t + (1 - a) ** (1 + t) * (1 - b) ** -t) / t
        assert abs(value / expected - 1) < mpmath.mpf(10) ** -40


@pytest.mark.parametrize("k", [20, 45])
def test_a_numeric_density_part_next_to_one_keeps_its_digits(k):
    """A probe: ¼·δ(0) + ¾(x + ½) against ½·δ(0) + ⅓(x + 1) on [0, 1] at α = 1 + 10⁻ᵏ.  The density parts have no
    closed form there: their 50-digit value was composed with the atoms symbolically, "numeric", 4.2·10⁻⁶ off at
    k = 45.  The reference is the definition at 150 digits: the atom's term plus a quadrature of the density's."""
    P = rdpsym.Continuous(R(1, 4) * sp.DiracDelta(x) + R(3, 4) * (x + R(1, 2)), x, support=sp.Interval(0, 1))
    Q = rdpsym.Continuous(R(1, 2) * sp.DiracDelta(x) + R(1, 3) * (x + 1), x, support=sp.Interval(0, 1))
    d = rdpsym.renyi_divergence(P, Q, 1 + R(1, 10**k))
    with mpmath.workdps(150):
        a = 1 + mpmath.mpf(10) ** -k
        moment = (mpmath.mpf(1) / 4) ** a * (mpmath.mpf(1) / 2) ** (1 - a) + mpmath.quad(
            lambda t: (3 * (t + mpmath.mpf(1) / 2) / 4) ** a * ((t + 1) / 3) ** (1 - a), [0, 1])
        expected = mpmath.log(moment) / (a - 1)
        assert abs(d.evalf(dps=40) / expected - 1) < mpmath.mpf(10) ** -40


@pytest.mark.parametrize("k", [10, 30, 100])
def test_a_divergence_far_smaller_than_the_masses_keeps_its_digits(k):
    """A probe: an atom of 1/2 + 10⁻³⁰ at 1/3 beside a uniform part, against 1/2 and 1/2: the moment is within 10⁻⁶⁰
    of 1, and D₂ = log(1 + 4·10⁻⁶⁰) came out 0.0, the KL 3.7·10⁻⁶⁰ for 2·10⁻⁶⁰, at 20 digits asked for; at
    10⁻¹⁰⁰ every order was 0.0.  The sum is taken again at the digits its cancellation costs."""
    e = R(1, 10**k)
    P = rdpsym.Continuous((HALF + e) * sp.DiracDelta(x - R(1, 3)) + (HALF - e), x, support=sp.Interval(0, 1))
    Q = rdpsym.Continuous(HALF * sp.DiracDelta(x - R(1, 3)) + HALF, x, support=sp.Interval(0, 1))
    with mpmath.workdps(3 * k + 50):
        E = mpmath.mpf(e.p) / e.q
        truths = {2: mpmath.log(1 + 4 * E**2), 1: (HALF + E) * mpmath.log(1 + 2 * E) + (HALF - E) * mpmath.log(1 - 2 * E),
                  HALF: -2 * mpmath.log(mpmath.sqrt((HALF + E) / 2) + mpmath.sqrt((HALF - E) / 2))}
        for order, truth in truths.items():
            value = rdpsym.renyi_divergence_mp(P, Q, order, dps=20)
            assert abs(value / truth - 1) < mpmath.mpf(10) ** -19, (order, value, truth)


def test_an_order_next_to_zero_keeps_its_digits_beside_an_atom():
    """A probe: an atom of 1/2 and a uniform part of 1/2 against the uniform law, at α = 10⁻⁴⁰: α·log 2/(1 − α) came
    out 0.0 (the moment within 10⁻⁴⁰ of 1)."""
    A = rdpsym.Continuous(HALF * sp.DiracDelta(x - R(1, 3)) + HALF, x, support=sp.Interval(0, 1))
    U = rdpsym.Continuous(sp.S(1), x, support=sp.Interval(0, 1))
    a = R(1, 10**40)
    with mpmath.workdps(80):
        truth = (mpmath.mpf(a.p) / a.q) * mpmath.log(2) / (1 - mpmath.mpf(a.p) / a.q)
        assert abs(rdpsym.renyi_divergence_mp(A, U, a, dps=20) / truth - 1) < mpmath.mpf(10) ** -19
