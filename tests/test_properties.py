"""Properties every Rényi divergence has, at random rational parameters and orders.

Hypothesis draws the numbers (derandomized by the ``ci`` profile); the
symbolic derivations are done once per session (``general``/``self_divergence``)
and the properties only substitute numbers into them, so each example is cheap.
Quadrature (``renyi_divergence_mp``) runs on fewer examples than the
substitutions because each call integrates at ~45 digits.

Properties (Mironov 2017, Section 3; van Erven & Harremoës 2014):
  D_α(P‖Q) ≥ 0;  D_α(P‖P) = 0;  α ↦ D_α non-decreasing;  closed form = definition.
"""

from __future__ import annotations

import functools
from fractions import Fraction

import mpmath
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import rdpsym
from rdpsym import alpha
from rdpsym.laws.mechanisms import gaussian, laplace, randomized_response

b = sp.Symbol("b", positive=True)  # Laplace scale
s = sp.Symbol("s", positive=True)  # Gaussian sigma
d = sp.Symbol("Delta", positive=True)  # sensitivity
p = sp.Symbol("p", positive=True)  # randomized response

MECHANISMS = {
    "laplace": lambda: laplace(scale=b, sensitivity=d),
    "gaussian": lambda: gaussian(sigma=s, sensitivity=d),
    "randomized-response": lambda: randomized_response(p),
}


@functools.cache
def mechanism(name: str):
    return MECHANISMS[name]()


@functools.cache
def general(name: str) -> rdpsym.Derivation:
    """The symbolic-order (α > 1) derivation, once per session."""
    return mechanism(name).rdp(alpha)


@functools.cache
def self_divergence(name: str) -> rdpsym.Derivation:
    P = mechanism(name).pair[0]
    return rdpsym.renyi_divergence(P, P, alpha)


def rational(lo, hi, max_denominator):
    return st.fractions(min_value=Fraction(lo), max_value=Fraction(hi), max_denominator=max_denominator).map(
        lambda f: sp.Rational(f.numerator, f.denominator)
    )


positive = rational(Fraction(1, 5), 5, 12).filter(lambda v: v > 0)
probability = rational(Fraction(1, 20), Fraction(19, 20), 20)
order_above_1 = rational(1, 40, 16).filter(lambda v: v > 1)
any_order = rational(Fraction(1, 16), 40, 16).filter(lambda v: v != 1)


@st.composite
def point(draw, name: str):
    """Parameter values for mechanism ``name``."""
    if name == "randomized-response":
        return {p: draw(probability)}
    scale = b if name == "laplace" else s
    return {scale: draw(positive), d: draw(positive)}


names = st.sampled_from(list(MECHANISMS))


@st.composite
def mechanism_point(draw):
    name = draw(names)
    return name, draw(point(name))


# ---------------------------------------------------------------- D_α ≥ 0


@given(mechanism_point(), order_above_1)
def test_closed_form_is_nonnegative(case, order):
    name, values = case
    value = general(name).evalf({**values, alpha: order}, dps=30)
    assert value >= 0, (name, values, order, value)


@given(probability, any_order)
def test_definition_is_nonnegative_for_every_order(pv, order):
    """Orders in (0, 1) too, where no α > 1 closed form applies: RR by finite summation."""
    P, Q = randomized_response(p).pair
    value = rdpsym.renyi_divergence_mp(P, Q, order, dps=30, values={p: pv})
    assert value >= 0


# ---------------------------------------------------------------- D_α(P‖P) = 0


def test_self_divergence_closed_form_is_zero():
    for name in MECHANISMS:
        result = self_divergence(name).result
        assert sp.simplify(result) == 0, (name, result)


@given(mechanism_point(), order_above_1)
def test_self_divergence_closed_form_evaluates_to_zero(case, order):
    name, values = case
    values = {k: v for k, v in values.items() if k in self_divergence(name).result.free_symbols}
    with mpmath.workdps(40):
        assert abs(self_divergence(name).evalf({**values, alpha: order}, dps=40)) <= mpmath.mpf(10) ** -35


@settings(max_examples=8)
@given(mechanism_point(), any_order)
def test_self_divergence_by_quadrature_is_zero(case, order):
    name, values = case
    P = mechanism(name).pair[0]
    values = {k: v for k, v in values.items() if k in P.parameters}
    value = rdpsym.renyi_divergence_mp(P, P, order, dps=30, values=values)
    with mpmath.workdps(40):
        assert abs(value) <= mpmath.mpf(10) ** -28


# ---------------------------------------------------------------- monotone in α


@given(mechanism_point(), order_above_1, order_above_1)
def test_non_decreasing_in_the_order(case, a1, a2):
    name, values = case
    lo, hi = min(a1, a2), max(a1, a2)
    with mpmath.workdps(50):
        d_lo = general(name).evalf({**values, alpha: lo}, dps=50)
        d_hi = general(name).evalf({**values, alpha: hi}, dps=50)
        assert d_lo <= d_hi + mpmath.mpf(10) ** -45 * (1 + abs(d_hi)), (name, values, lo, hi, d_lo, d_hi)


# ---------------------------------------------------------------- closed form = definition


def _agree_to_40_digits(closed, numeric):
    with mpmath.workdps(60):
        return abs(closed - numeric) <= mpmath.mpf(10) ** -40 * abs(numeric) + mpmath.mpf(10) ** -45


@settings(max_examples=10)
@given(point("laplace"), order_above_1)
def test_laplace_closed_form_matches_quadrature(values, order):
    closed = general("laplace").evalf({**values, alpha: order}, dps=50)
    numeric = rdpsym.renyi_divergence_mp(*mechanism("laplace").pair, order, dps=45, values=values)
    assert _agree_to_40_digits(closed, numeric), (values, order, closed, numeric)


@settings(max_examples=10)
@given(point("gaussian"), order_above_1)
def test_gaussian_closed_form_matches_quadrature(values, order):
    closed = general("gaussian").evalf({**values, alpha: order}, dps=50)
    numeric = rdpsym.renyi_divergence_mp(*mechanism("gaussian").pair, order, dps=45, values=values)
    assert _agree_to_40_digits(closed, numeric), (values, order, closed, numeric)


@given(point("randomized-response"), order_above_1)
def test_randomized_response_closed_form_matches_summation(values, order):
    closed = general("randomized-response").evalf({**values, alpha: order}, dps=50)
    numeric = rdpsym.renyi_divergence_mp(*mechanism("randomized-response").pair, order, dps=45, values=values)
    assert _agree_to_40_digits(closed, numeric), (values, order, closed, numeric)


@given(mechanism_point(), order_above_1)
def test_closed_form_matches_mironov_by_hand(case, order):
    """The substituted closed form against Propositions 5-7 evaluated in mpmath."""
    name, values = case
    closed = general(name).evalf({**values, alpha: order}, dps=50)
    with mpmath.workdps(70):
        a = mpmath.mpf(order.p) / order.q
        num = {str(k): mpmath.mpf(v.p) / v.q for k, v in values.items()}
        if name == "gaussian":
            expected = a * num["Delta"] ** 2 / (2 * num["s"] ** 2)
        elif name == "laplace":
            lam = num["b"] / num["Delta"]
            expected = mpmath.log(
                a / (2 * a - 1) * mpmath.exp((a - 1) / lam) + (a - 1) / (2 * a - 1) * mpmath.exp(-a / lam)
            ) / (a - 1)
        else:
            q = num["p"]
            expected = mpmath.log(q**a * (1 - q) ** (1 - a) + (1 - q) ** a * q ** (1 - a)) / (a - 1)
        assert abs(closed - expected) <= mpmath.mpf(10) ** -45 * (abs(expected) + mpmath.mpf(10) ** -5)
