"""Sound wherever it answers: the inputs on which a value with a status was wrong, or a valid input refused.

Each truth here is computed in the test itself, by plain mpmath (quadrature or sums
written out from the laws' formulas) or by hand, never by rdpsym; each docstring
says which.
"""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

import rdpsym
from rdpsym.foundations.record import AgreesWithDefinition, CheckedOn

x = sp.Symbol("x", real=True)
k = sp.Symbol("k", integer=True, nonnegative=True)
R = sp.Rational
oo = sp.oo


def _close(value, truth, digits=25) -> bool:
    """Relative agreement to ``digits``; SymPy numbers (and a truth given as a function of no arguments, to be
    computed at the working precision) are evaluated at ``digits`` + 10."""
    with mpmath.workdps(digits + 10):
        value, truth = (mpmath.mpf(sp.N(v, digits + 10)) if isinstance(v, sp.Basic) else (v() if callable(v) else v)
                        for v in (value, truth))
        return abs(value - truth) <= mpmath.mpf(10) ** -digits * abs(truth)


# ---------------------------------------------------------------------------------------------------------------
# A symbolic order claims every order: an exponential law against a half-normal one is ∞ for α > 1 only.


def _exponential_half_normal_truth(a, lam=1, sigma=1):
    """D_a(Exp(λ) ‖ half-normal(σ)) by mpmath quadrature of the definition on (0, ∞)."""
    with mpmath.workdps(40):
        def integrand(t):
            p = lam * mpmath.exp(-lam * t)
            q = mpmath.sqrt(2) / (sigma * mpmath.sqrt(mpmath.pi)) * mpmath.exp(-t**2 / (2 * sigma**2))
            return p**a * q ** (1 - a)
        return mpmath.log(mpmath.quad(integrand, [0, 1, 5, mpmath.inf])) / (a - 1)


@pytest.fixture(scope="module")
def exponential_half_normal():
    lam, sigma = sp.symbols("lambda sigma", positive=True)
    P = rdpsym.Continuous(lam * sp.exp(-lam * x), x, support=sp.Interval(0, oo))
    Q = rdpsym.Continuous(sp.sqrt(2) / (sigma * sp.sqrt(sp.pi)) * sp.exp(-x**2 / (2 * sigma**2)), x,
                          support=sp.Interval(0, oo))
    return lam, sigma, rdpsym.renyi_divergence(P, Q, rdpsym.alpha)


@pytest.mark.parametrize("order, truth", [(R(1, 4), "0.0209875"), (R(1, 2), "0.0510837")])
def test_a_symbolic_order_is_right_below_one(exponential_half_normal, order, truth):
    """The issue's numbers (λ = σ = 1), and 25 digits against quadrature."""
    lam, sigma, d = exponential_half_normal
    value = d.result.subs({lam: 1, sigma: 1, rdpsym.alpha: order})
    assert str(sp.N(value, 6)) == truth
    assert _close(value, _exponential_half_normal_truth(mpmath.mpf(order.p) / order.q))
    assert d.evalf({lam: 1, sigma: 1, rdpsym.alpha: order}, dps=20) == pytest.approx(float(sp.N(value)), rel=1e-15)


def test_a_symbolic_order_is_infinite_above_one_and_says_where_it_was_checked(exponential_half_normal):
    lam, sigma, d = exponential_half_normal
    for order in (R(11, 10), 2, 50):
        assert d.result.subs({lam: 1, sigma: 1, rdpsym.alpha: order}) == oo
    assert str(d.status) == "checked"
    checked = [e for e in d.evidence if isinstance(e, CheckedOn)]
    parts = {name for e in checked for name, orders in e.orders if orders}
    assert {"0 < α ≤ 1/2", "1/2 < α < 1", "1 < α < 2", "2 ≤ α ≤ 10", "α ≥ 50"} <= parts
    assert "checked on orders" in str(d)


def test_a_form_that_holds_on_both_sides_is_one_form_for_every_order():
    """Mironov's Laplace form holds below 1 too (at α = 1/2 as its limit: −2·log(3e^{−1/2}/2), by hand)."""
    lam = sp.Symbol("lambda", positive=True)
    d = rdpsym.laplace(scale=lam).rdp()
    assert not isinstance(d.result, sp.Piecewise) and str(d.status) == "proved"
    assert d.hypotheses == (sp.Ne(rdpsym.alpha, 1),)
    at_half = d.evalf({lam: 1, rdpsym.alpha: R(1, 2)}, dps=30)
    with mpmath.workdps(50):
        truth = -2 * mpmath.log(mpmath.mpf(3) / 2 * mpmath.exp(-mpmath.mpf(1) / 2))
    assert _close(at_half, truth)


# ---------------------------------------------------------------------------------------------------------------
# Supports read once, correctly: SymPy's Range stop is exclusive.


def _finite_against_geometric():
    P = rdpsym.Discrete(R(1, 3), k, support=sp.Range(0, 3))
    Q = rdpsym.Discrete(R(1, 2) ** (k + 1), k, support=sp.Range(0, oo))
    return P, Q


def test_the_last_outcome_of_a_finite_range_is_not_lost():
    """P uniform on {0, 1, 2}, Q geometric: D_∞ = max_k log((1/3)·2^{k+1}) = log(8/3) at k = 2;
    D_{1/2} = −2·log Σ_{k<3} √((1/3)·2^{−k−1}) (by hand)."""
    P, Q = _finite_against_geometric()
    d_inf = rdpsym.renyi_divergence(P, Q, oo)
    assert sp.simplify(d_inf.result - sp.log(R(8, 3))) == 0
    d_half = rdpsym.renyi_divergence(P, Q, R(1, 2))
    with mpmath.workdps(50):
        truth = -2 * mpmath.log(mpmath.fsum(mpmath.sqrt(mpmath.mpf(1) / 3 * mpmath.mpf(2) ** (-j - 1))
                                            for j in range(3)))
        log_8_3 = mpmath.log(mpmath.mpf(8) / 3)
    assert _close(d_half.result, truth)
    assert str(sp.N(d_half.result, 5)) == "0.20839"
    assert _close(rdpsym.renyi_divergence_mp(P, Q, R(1, 2), dps=30), truth)
    assert _close(rdpsym.renyi_divergence_mp(P, Q, oo, dps=30), log_8_3)


def test_a_range_with_a_symbolic_end():
    """P uniform on {0, …, N − 1} against the geometric Q: D_2 = log Σ_{k<N} (1/N)²·2^{k+1} = log(2(2^N − 1)/N²)."""
    N = sp.Symbol("N", integer=True, positive=True)
    Q = _finite_against_geometric()[1]
    d = rdpsym.renyi_divergence(rdpsym.Discrete(1 / N, k, support=sp.Range(0, N)), Q, 2)
    for n in (1, 3, 7):
        assert sp.simplify(d.result.subs(N, n) - sp.log(2 * (2**n - 1) / sp.Integer(n) ** 2)) == 0


@pytest.mark.parametrize("order", [R(1, 2), 2, 1, oo])
def test_supports_nested_disjoint_and_inside(order):
    """P on {2, 3} against Q on {0, …, 4} (both uniform), and the other way round; disjoint supports.

    By hand: P in Q: D_α = log((1/2)^α (1/5)^{1−α}·2)/(α − 1) = log(5/2) at every order; Q in P: ∞ for α ≥ 1,
    log(2·(1/5)^α(1/2)^{1−α})/(α − 1) below 1; disjoint: ∞ for α ≥ 1, and ∞ below 1 too (the moment is 0).
    """
    P = rdpsym.Discrete(R(1, 2), k, support=sp.Range(2, 4))
    Q = rdpsym.Discrete(R(1, 5), k, support=sp.Range(0, 5))
    inside = rdpsym.renyi_divergence(P, Q, order).result
    assert sp.simplify(inside - sp.log(R(5, 2))) == 0
    outside = rdpsym.renyi_divergence(Q, P, order).result
    if order == R(1, 2):
        assert sp.simplify(outside - sp.log(2 * R(1, 5) ** order * R(1, 2) ** (1 - order)) / (order - 1)) == 0
    else:
        assert outside == oo
    far = rdpsym.Discrete(R(1, 2), k, support=sp.Range(7, 9))
    assert rdpsym.renyi_divergence(P, far, order).result == oo


# ---------------------------------------------------------------------------------------------------------------
# ∞ said as ∞; 0 as 0; the astronomically small resolved.


def _generalized_gaussian(s, shape=4):
    return rdpsym.Continuous(shape / (2 * s * sp.gamma(R(1, shape))) * sp.exp(-(x / s) ** shape), x)


def test_a_divergent_moment_is_infinite_not_zoo():
    """Shape 4, s₁ = 11/10, s₂ = 1 at α = 11/2: α/s₁⁴ + (1 − α)/s₂⁴ < 0, so ∫ P^α Q^{1−α} = ∞."""
    d = rdpsym.renyi_divergence(_generalized_gaussian(R(11, 10)), _generalized_gaussian(1), R(11, 2))
    assert d.result == oo and str(d.status) in ("checked", "proved")
    assert all(e.digits is None for e in d.evidence if isinstance(e, AgreesWithDefinition))  # both infinite


def test_the_generalized_gaussian_derives_for_a_number_as_for_a_symbol():
    """Shape 4 with free scales: D_α = log(s₂/s₁) + (log s₂ − ¼·log(α s₂⁴ + (1 − α) s₁⁴))/(α − 1) (by hand:
    ∫ e^{−c x⁴} = 2Γ(5/4)c^{−1/4}), finite iff α s₂⁴ + (1 − α) s₁⁴ > 0."""
    s1, s2 = sp.symbols("s1 s2", positive=True)
    d = rdpsym.renyi_divergence(_generalized_gaussian(s1), _generalized_gaussian(s2), rdpsym.alpha)
    a = rdpsym.alpha
    truth = sp.log(s2 / s1) + (sp.log(s2) - sp.log(a * s2**4 + (1 - a) * s1**4) / 4) / (a - 1)
    for values in ({s1: R(11, 10), s2: 1, a: 2}, {s1: 1, s2: R(11, 10), a: 3}, {s1: 2, s2: 1, a: R(1, 3)}):
        assert _close(d.result.subs(values), truth.subs(values))
    assert d.result.subs({s1: R(11, 10), s2: 1, a: R(11, 2)}) == oo


def test_identical_laws_give_zero_and_epsilon_zero():
    rr = rdpsym.randomized_response(p=R(1, 2))
    assert rr.rdp(2).result == 0
    assert rr.curve()(R(3, 2)) == 0
    assert rdpsym.epsilon(rr, delta=R(1, 10**5)).epsilon == 0


def test_an_astronomically_small_divergence_is_resolved():
    """Laplace, scale 10³⁰⁰: D_2 = log(2e^{1/λ}/3 + e^{−2/λ}/3) = log(1 + 1/λ² + O(λ^{−3})) ≈ 10⁻⁶⁰⁰."""
    d = rdpsym.laplace(scale=sp.Integer(10) ** 300).rdp(2)
    value = d.evalf(dps=30)
    assert _close(value, lambda: mpmath.mpf(10) ** -600, digits=20)


def test_the_definition_at_a_huge_order():
    """A Gaussian pair (σ = 1, Δ = 1) at α = 10¹²: α/(2σ²) = 5·10¹¹."""
    value = rdpsym.renyi_divergence_mp(*rdpsym.gaussian(sigma=1).pair, 10**12, dps=30)
    assert _close(value, lambda: mpmath.mpf(5) * 10**11)


# ---------------------------------------------------------------------------------------------------------------
# The staircase mechanism: exactly normalised, so accepted.

THREE_QUARTERS = R(3, 4)


def _staircase(eps=1, gamma=THREE_QUARTERS, shift=0):
    u = sp.Abs(x - shift) + gamma
    norm = 2 * ((1 - gamma) + sp.exp(-eps) / (1 - sp.exp(-eps)))  # ∫ e^{−ε⌊|x| + γ⌋}: the cell [0, 1 − γ), then 1 each
    return rdpsym.Continuous(sp.exp(-eps * sp.floor(u)) / norm, x)


def test_the_staircase_is_a_law():
    P = _staircase()
    assert P.validated


def test_the_staircase_mass_is_exact_for_a_symbolic_epsilon():
    eps = sp.Symbol("epsilon", positive=True)
    assert _staircase(eps).validated
