"""The faster paths give the same certified values: no speed bought with the guarantee.

* the sampled Gaussian's shifted-Gaussian matrix (fractional orders) and polynomial product (integer
  orders) against the per-order quadrature and the exact sums, and against an mpmath reference;
* a forced coarse grid widens the shifted method's balls, which stay true;
* the ball cache: a growing composition computes each component once per order and precision;
* derived built-ins: derived once at symbolic parameters, then instantiated, with the same values as
  a fresh derivation at the values.
"""

from __future__ import annotations

import random

import mpmath
import pytest
import sympy as sp
from flint import arb, fmpq
from sampled_gaussian_reference import log_a_mp, reference

import rdpsym
import rdpsym.accounting.sampled_gaussian as sg
from rdpsym.accounting import ball_cache, components, curves
from rdpsym.accounting.orders import DP_ACCOUNTING
from rdpsym.accounting.sampled_gaussian import shifted, trapezoid
from rdpsym.accounting.sampled_gaussian.planning import _Floats
from rdpsym.foundations.balls import precision

Q = fmpq
FRACTIONAL = [a for a in DP_ACCOUNTING if a.q != 1]
INTEGER = [a for a in DP_ACCOUNTING if a.q == 1]


def contains(ball: arb, value: mpmath.mpf, rel: int = 50) -> bool:
    with mpmath.workdps(80):
        widened = arb(mpmath.nstr(value, 70)) + arb(0, float(abs(value) * mpmath.mpf(10) ** -rel))
    return ball.overlaps(widened)


PARAMETERS = [(Q(1, 100), Q(11, 10)), (Q(256, 60000), Q(11, 10)), (Q(1, 3), Q(10)), (Q(999, 1000), Q(2)),
              (Q(1, 10), Q(3, 5)), (Q(1, 10**6), Q(4))]


@pytest.mark.parametrize("q, sigma", PARAMETERS)
def test_shifted_gaussian_matrix_agrees_with_the_per_order_quadrature(q, sigma):
    fl = _Floats(q, sigma)
    with precision(200):
        fast = shifted._shifted_log_moments(q, sigma, fl, FRACTIONAL, 200)
        slow = trapezoid._frac_log_moments_per_order(q, sigma, fl, FRACTIONAL, 200, strict=False)
    assert fast is not None
    for a, x, y in zip(FRACTIONAL, fast, slow):
        assert x.overlaps(y) and x.rel_accuracy_bits() >= 200, (a, x, y)


@pytest.mark.parametrize("q, sigma", PARAMETERS[:4])
def test_shifted_gaussian_matrix_contains_the_mpmath_reference(q, sigma):
    random.seed(15)
    picks = random.sample(FRACTIONAL, 3)
    with precision(190):
        balls = sg.log_moments(q, sigma, FRACTIONAL)
    chosen = {(int(a.p), int(a.q)): b for a, b in zip(FRACTIONAL, balls)}
    for a in picks:
        assert contains(chosen[int(a.p), int(a.q)], reference(q, sigma, a))


def test_a_coarse_shifted_grid_gives_wide_but_true_balls(monkeypatch):
    q, sigma, orders = Q(1, 100), Q(11, 10), [Q(3, 2), Q(47, 10), Q(109, 10)]
    refs = [reference(q, sigma, a) for a in orders]
    original = shifted._shifted_pass

    def coarse(*args):  # one pass with a grid four times too coarse: κ dominates the ball
        monkeypatch.setattr(shifted, "_grid_points_per_unit", lambda h_ideal: 2)
        return original(*args)

    monkeypatch.setattr(shifted, "_shifted_pass", coarse)
    with precision(160):
        balls = shifted._shifted_pass(q, sigma, _Floats(q, sigma), orders, [1, 4, 10],
                                 [(1, 2), (7, 10), (9, 10)], 160, 10.0)
    for b, r in zip(balls, refs):
        assert b.is_finite() and contains(b, r) and b.rel_accuracy_bits() < 120


@pytest.mark.parametrize("q, sigma", PARAMETERS)
def test_integer_orders_by_one_polynomial_product_are_the_exact_sums(q, sigma):
    with precision(220):
        balls = sg.log_moments(q, sigma, INTEGER)
    for a, b in zip(INTEGER[:8] + INTEGER[-3:], balls[:8] + balls[-3:]):
        exact = log_a_mp(q, sigma, a, 120, None)  # the binomial sum, all terms positive
        assert contains(b, exact, 60) and b.rel_accuracy_bits() >= 215


def test_the_ball_cache_computes_a_growing_composition_once(monkeypatch):
    calls = []
    original = components.SampledGaussian.balls

    def counting(self, orders):
        calls.append(len(orders))
        return original(self, orders)

    monkeypatch.setattr(components.SampledGaussian, "balls", counting)
    ball_cache.clear_cache()
    step = rdpsym.sampled_gaussian(Q(1, 100), Q(11, 10)).curve() * 100
    total, values = None, []
    for _ in range(5):
        total = step if total is None else total + step
        values.append(rdpsym.epsilon(total, delta=1e-5, orders="dp-accounting", dps=30).value)
    assert sum(calls) == len(DP_ACCOUNTING) and len(calls) == 1  # 5 epsilons, 15 terms: computed once
    assert values == sorted(values) and len(set(values)) == 5
    ball_cache.clear_cache()
    again = rdpsym.epsilon(total, delta=1e-5, orders="dp-accounting", dps=30).value
    assert again == values[-1] and len(calls) == 2


def test_equal_components_are_merged_with_their_weights_added():
    g = rdpsym.gaussian(2).curve()
    c = g * 3 + rdpsym.laplace(1).curve() + g * 4
    assert [(w, comp.name) for w, comp in c.merged_terms] == [(7, c.components[0].name), (1, c.components[1].name)]
    assert c.value(3, dps=30) == (g * 7 + rdpsym.laplace(1).curve()).value(3, dps=30)


def test_derived_builtins_are_derived_once_and_instantiated(monkeypatch):
    made = []
    original = rdpsym.Mechanism.rdp

    def counting(self, order=rdpsym.alpha):
        made.append((self.name, dict(self.parameters)))
        return original(self, order)

    monkeypatch.setattr(curves, "_DERIVED", {})
    monkeypatch.setattr(rdpsym.Mechanism, "rdp", counting)
    for s in (sp.Rational(3, 2), sp.Rational(7, 4), 2):
        rdpsym.gaussian(sigma=s, sensitivity=sp.Rational(1, 3)).curve()
    assert len(made) == 2 and all(not p["sigma"].is_number for _, p in made)  # α and ∞, at the symbols
    c = rdpsym.gaussian(sigma=sp.Rational(7, 4), sensitivity=sp.Rational(1, 3)).curve()
    assert c.closed_form == sp.Rational(8, 441) * rdpsym.alpha  # αΔ²/(2σ²) at Δ = 1/3, σ = 7/4
    assert c.certified and len(made) == 2


def test_an_instantiated_laplace_curve_equals_a_fresh_derivation():
    m = rdpsym.laplace(scale=sp.Rational(5, 3), sensitivity=2)
    fresh = m.rdp(rdpsym.alpha).result
    curve = m.curve()
    for a in (sp.Rational(11, 10), 3, sp.Rational(27, 2)):
        with mpmath.workdps(60):
            assert abs(curve.value(a, dps=50) - mpmath.mpf(str(sp.N(fresh.subs(rdpsym.alpha, a), 70)))) < \
                mpmath.mpf(10) ** -48


def test_a_user_variant_of_a_builtin_is_derived_as_it_is():
    g = rdpsym.gaussian(2)
    import dataclasses

    variant = dataclasses.replace(g, pair=g.pair[::-1])  # not what the factory makes
    assert not curves._is_factory_made(variant, rdpsym.REGISTRY["gaussian"])
    assert variant.curve().value(2, dps=20) == g.curve().value(2, dps=20)
