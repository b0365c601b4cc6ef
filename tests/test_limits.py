"""The KL divergence and D_∞ are the limits α → 1 and α → ∞ of the α > 1 closed form.

For each pair the α > 1 result (symbolic order), the KL (order 1) and D_∞
(order ∞) are derived separately by rdpsym; here they are tied together by
``sympy.limit`` and by high-precision evaluation next to the limit points,
and the α > 1 form is compared near α = 1 and at α = 10⁴ with the definition
(mpmath quadrature) and with Mironov's formulas evaluated by hand.
"""

from __future__ import annotations

import functools

import mpmath
import pytest
import sympy as sp

import rdpsym
from rdpsym import alpha
from rdpsym.laws.mechanisms import gaussian, laplace, randomized_response

x = sp.Symbol("x", real=True)
b = sp.Symbol("b", positive=True)  # Laplace scale (sensitivity 1, so λ = b)
s = sp.Symbol("s", positive=True)  # Gaussian σ (sensitivity 1)
p = sp.Symbol("p", positive=True)  # randomized response

# A user-defined pair: Exponential with scale θ, pdf e^{−x/θ}/θ on (0, ∞).
# θ_P < θ_Q: P decays faster, so log P/Q = log(θ_Q/θ_P) − x(1/θ_P − 1/θ_Q) is
# largest at 0 and D_∞ = log(θ_Q/θ_P) is finite.
THETA_P, THETA_Q = sp.Rational(1, 2), sp.Rational(3, 2)


def exponential(theta: sp.Expr) -> rdpsym.Continuous:
    return rdpsym.Continuous(sp.exp(-x / theta) / theta, x, support=sp.Interval(0, sp.oo))


PAIRS = {
    "laplace": lambda: laplace(scale=b).pair,
    "gaussian": lambda: gaussian(sigma=s).pair,
    "randomized-response": lambda: randomized_response(p).pair,
    "exponential": lambda: (exponential(THETA_P), exponential(THETA_Q)),
}


@functools.cache
def derived(name: str, order) -> rdpsym.Derivation:
    """rdpsym's derivation for a pair, computed once per session."""
    return rdpsym.renyi_divergence(*PAIRS[name](), order)


def is_zero(expr: sp.Expr) -> bool:
    for rewrite in (sp.expand, lambda e: sp.simplify(sp.expand_log(e, force=True))):
        if rewrite(expr) == 0:
            return True
    return False


# ------------------------------------------------ the three results, checked by hand first


def test_exponential_pair_closed_forms_by_hand():
    """I(α) = θ_P^{−α} θ_Q^{α−1} / (α/θ_P + (1−α)/θ_Q) > 0 for every α > 1 here."""
    tp, tq = THETA_P, THETA_Q
    moment = tp**-alpha * tq ** (alpha - 1) / (alpha / tp + (1 - alpha) / tq)
    d = derived("exponential", alpha)
    assert not d.result.has(sp.Piecewise)
    # (α − 1)·D_α = log I(α) exactly.
    assert is_zero(sp.expand_log((alpha - 1) * d.result - sp.log(moment), force=True))
    assert is_zero(derived("exponential", 1).result - (sp.log(tq / tp) + tp / tq - 1))
    assert is_zero(derived("exponential", sp.oo).result - sp.log(tq / tp))


# ------------------------------------------------ symbolic limits


@pytest.mark.parametrize("name", list(PAIRS))
def test_kl_is_the_limit_at_alpha_1(name):
    general, kl = derived(name, alpha).result, derived(name, 1).result
    limit = sp.limit(general, alpha, 1, "+")
    assert limit.is_finite is not False
    assert is_zero(limit - kl), f"{name}: lim_(α→1+) = {limit}, KL = {kl}"


@pytest.mark.parametrize("name", ["laplace", "gaussian", "exponential"])
def test_dinf_is_the_limit_at_alpha_oo(name):
    general, dinf = derived(name, alpha).result, derived(name, sp.oo).result
    limit = sp.limit(general, alpha, sp.oo)
    if dinf == sp.oo:
        assert limit == sp.oo
    else:
        assert is_zero(limit - dinf), f"{name}: lim_(α→∞) = {limit}, D_∞ = {dinf}"


@pytest.mark.parametrize("pv", [sp.Rational(3, 4), sp.Rational(1, 5)])
def test_randomized_response_dinf_is_the_limit_at_alpha_oo(pv):
    # SymPy cannot take this limit with p symbolic (the sign of log p decides it): both sides of 1/2.
    general = derived("randomized-response", alpha).result.subs(p, pv)
    dinf = derived("randomized-response", sp.oo).result.subs(p, pv)
    limit = sp.limit(general, alpha, sp.oo)
    assert is_zero(limit - dinf)
    assert is_zero(dinf - sp.Abs(sp.log(pv / (1 - pv))))


# ------------------------------------------------ high-precision evaluation next to the limits

VALUES = {
    "laplace": {b: sp.Rational(1, 2)},
    "gaussian": {s: sp.Rational(3, 2)},
    "randomized-response": {p: sp.Rational(1, 5)},
    "exponential": {},
}
NEAR_ONE = 1 + sp.Rational(1, 10**30)
FAR = sp.Integer(10) ** 30


@pytest.mark.parametrize("name", list(PAIRS))
def test_alpha_just_above_1_matches_kl(name):
    near = derived(name, alpha).evalf({**VALUES[name], alpha: NEAR_ONE}, dps=60)
    kl = derived(name, 1).evalf(VALUES[name], dps=60)
    with mpmath.workdps(60):
        assert mpmath.isfinite(near) and kl > 0
        # D_α − KL = O(α − 1) = O(10^−30).
        assert abs(near - kl) <= mpmath.mpf(10) ** -25 * (1 + abs(kl))


@pytest.mark.parametrize("name", list(PAIRS))
def test_huge_alpha_matches_dinf(name):
    # Evaluated with SymPy's own N(subs=...): Derivation.evalf substitutes α exactly first,
    # which is a separate concern (test_derivation_evalf_at_a_large_integer_order).
    general = derived(name, alpha).result
    far = sp.N(general, 60, subs={**VALUES[name], alpha: FAR})
    dinf = derived(name, sp.oo).evalf(VALUES[name], dps=60)
    with mpmath.workdps(60):
        far = mpmath.mpf(far._to_mpmath(mpmath.mp.prec)) if far != sp.oo else mpmath.inf
        if mpmath.isinf(dinf):
            # Gaussian: D_α = α/(2σ²) grows without bound.
            assert far > mpmath.mpf(10) ** 29
        else:
            # 0 ≤ D_∞ − D_α = O(log(α)/α): below 10^−25 at α = 10^30.
            assert far <= dinf + mpmath.mpf(10) ** -40
            assert abs(far - dinf) <= mpmath.mpf(10) ** -25 * (1 + abs(dinf))


def _rr_by_hand(order, pv, dps=60):
    with mpmath.workdps(dps + 20):
        o = sp.Rational(order)
        a, q = mpmath.mpf(o.p) / o.q, mpmath.mpf(pv.p) / pv.q
        # log of p^α(1−p)^{1−α} + (1−p)^α p^{1−α}, factored by the larger term to avoid overflow.
        u, v = a * mpmath.log(q) + (1 - a) * mpmath.log(1 - q), a * mpmath.log(1 - q) + (1 - a) * mpmath.log(q)
        top = max(u, v)
        return (top + mpmath.log(mpmath.exp(u - top) + mpmath.exp(v - top))) / (a - 1)


@pytest.mark.parametrize("name", ["laplace", "gaussian", "randomized-response"])
def test_derivation_evalf_at_a_large_integer_order(name, watchdog):
    """Derivation.evalf at α = 10^6 returns the 50-digit value (by hand: Prop 5-7)."""
    order = sp.Integer(10) ** 6
    with mpmath.workdps(80):
        expected = {
            "laplace": lambda: laplace_by_hand(order, sp.Rational(1, 2)),
            "gaussian": lambda: gaussian_by_hand(order, sp.Rational(3, 2)),
            "randomized-response": lambda: _rr_by_hand(order, sp.Rational(1, 5)),
        }[name]()
    d = derived(name, alpha)
    with watchdog(20, f"Derivation.evalf at alpha = 10^6 ({name})"):
        value = d.evalf({**VALUES[name], alpha: order}, dps=50)
    with mpmath.workdps(60):
        assert abs(value - expected) <= mpmath.mpf(10) ** -45 * abs(expected)


# ------------------------------------------------ numeric orders near 1 and far out

NUMERIC_ORDERS = [sp.Rational(1001, 1000), 1 + sp.Rational(1, 10**6), sp.Integer(10**4)]


def laplace_by_hand(order, lam):
    """Mironov Prop 6, at 90 digits (the log loses ~log10(1/(α−1)) digits near α = 1)."""
    with mpmath.workdps(90):
        a, l = mpmath.mpf(sp.Rational(order).p) / sp.Rational(order).q, mpmath.mpf(lam.p) / lam.q
        m = a / (2 * a - 1) * mpmath.exp((a - 1) / l) + (a - 1) / (2 * a - 1) * mpmath.exp(-a / l)
        return mpmath.log(m) / (a - 1)


def gaussian_by_hand(order, sigma):
    with mpmath.workdps(90):
        a = mpmath.mpf(sp.Rational(order).p) / sp.Rational(order).q
        return a / (2 * (mpmath.mpf(sigma.p) / sigma.q) ** 2)


CASES = [
    ("laplace", laplace(scale=b), b, sp.Rational(1, 2), laplace_by_hand),
    ("gaussian", gaussian(sigma=s), s, sp.Rational(3, 2), gaussian_by_hand),
    ("randomized-response", randomized_response(p), p, sp.Rational(1, 5), _rr_by_hand),
]


@pytest.mark.parametrize("order", NUMERIC_ORDERS, ids=["1.001", "1+1e-6", "1e4"])
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_numeric_order_agrees_with_definition_and_general_form(case, order):
    name, mech, sym, value, by_hand = case
    expected = by_hand(order, value)
    at_order = mech.rdp(order)
    assert at_order.status == "proved"
    closed = at_order.evalf({sym: value}, dps=50)
    quad = rdpsym.renyi_divergence_mp(*mech.pair, order, dps=50, values={sym: value})
    general = derived(name, alpha).evalf({sym: value, alpha: order}, dps=50)
    with mpmath.workdps(60):
        tol = mpmath.mpf(10) ** -45 * abs(expected)
        assert abs(closed - expected) <= tol, ("closed form", closed, expected)
        assert abs(quad - expected) <= tol, ("quadrature", quad, expected)
        assert abs(general - expected) <= tol, ("α > 1 form substituted", general, expected)


def test_randomized_response_with_a_numeric_p_at_order_10000(watchdog):
    """The same cell as above with p given as a number: a two-outcome table at α = 10⁴."""
    order = sp.Integer(10**4)
    with watchdog(20, "randomized_response(1/5).rdp(10**4)"):
        d = randomized_response(sp.Rational(1, 5)).rdp(order)
    assert d.status == "proved"
    expected = _rr_by_hand(order, sp.Rational(1, 5))
    with mpmath.workdps(60):
        assert abs(d.evalf(dps=50) - expected) <= mpmath.mpf(10) ** -45 * abs(expected)


# ------------------------------------------------ the divergent side of the limit α → ∞

def test_reversed_exponential_pair_diverges_beyond_its_threshold():
    """P = Exp(scale 3/2) vs Q = Exp(scale 1/2): I(α) = ∫ e^{−(α/θ_P + (1−α)/θ_Q)x} … is
    finite iff α/θ_P + (1−α)/θ_Q > 0, i.e. α < θ_P/(θ_P − θ_Q) = 3/2; beyond it D_α = ∞,
    in line with D_∞ = ∞ (log P/Q grows linearly in x)."""
    P, Q = exponential(THETA_Q), exponential(THETA_P)
    general = rdpsym.renyi_divergence(P, Q, alpha)
    assert general.evalf({alpha: 2}) == mpmath.inf
    assert general.evalf({alpha: FAR}) == mpmath.inf
    assert rdpsym.renyi_divergence(P, Q, sp.oo).result == sp.oo
    # α → 1 from the convergent side is still the KL: log(θ_Q/θ_P) + θ_P/θ_Q − 1 = 2 − log 3.
    kl = rdpsym.renyi_divergence(P, Q, 1).result
    assert is_zero(kl - (2 - sp.log(3)))
    with mpmath.workdps(40):
        near = general.evalf({alpha: NEAR_ONE}, dps=40)
        assert abs(near - (2 - mpmath.log(3))) < mpmath.mpf(10) ** -25
    # A fixed order past the threshold is a valid input whose value is ∞.
    assert rdpsym.renyi_divergence(P, Q, 2).result == sp.oo
