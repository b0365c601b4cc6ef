"""Tails where α·log P and (1 − α)·log Q cancel: the exponentials of the two laws are gone from P^α Q^(1−α), and a
power or a logarithm decides whether it is integrable.

Laplace(1) against Q ∝ (1 + x²)·e^(−2|x|) at α = 2: P²/Q = (3/8)/(1 + x²), so D₂ = log(3π/8).  Evaluated as two
logarithms, −2|x| − 2·log 2 and −2|x| + log(1 + x²) + log(2/3), the sum far in the tail is a rounding residue (at
x = 10⁴⁰⁰⁰ both terms are 2·10⁴⁰⁰⁰ and the sum is −18 420): it read 0, a far mass of P²/Q ~ 1, and the definition said
+∞ ("decays like |x|^0.0") at every precision, where the symbolic route had log(3π/8).  The sum expanded symbolically
(rdpsym.quadrature.log_expressions.combined_log_expression) has no |x| left.  Every truth here is written by hand
from the integral of 1/(1 + x²) or its series; none is rdpsym's.
"""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

import rdpsym
from rdpsym.derive.numeric import renyi_divergence_mp
from rdpsym.foundations.precision import private_context
from rdpsym.quadrature.series import sum_range

x = sp.Symbol("x", real=True)
k = sp.Symbol("k", integer=True, nonnegative=True)
R = sp.Rational
_LAPLACE = sp.exp(-sp.Abs(x)) / 2
_NORMAL = sp.exp(-x**2 / 2) / sp.sqrt(2 * sp.pi)


@pytest.mark.parametrize("dps", [15, 30])
@pytest.mark.parametrize("p, q, support, order, truth", [
    # P²/Q = (3/8)/(1 + x²): ∫ = 3π/8
    (_LAPLACE, R(2, 3) * (1 + x**2) * sp.exp(-2 * sp.Abs(x)), sp.S.Reals, 2, sp.log(3 * sp.pi / 8)),
    # P²/Q = (3/(4√π))/(1 + x²): ∫ = 3√π/4
    (_NORMAL, 2 * (1 + x**2) * sp.exp(-x**2) / (3 * sp.sqrt(sp.pi)), sp.S.Reals, 2, sp.log(3 * sp.sqrt(sp.pi) / 4)),
    # P^(3/2)·Q^(−1/2) = 2^(−3/2)·(94/81)^(1/2)/(1 + x²): ∫ = π·2^(−3/2)·(94/81)^(1/2), D = 2·log of it
    (_LAPLACE, R(81, 94) * (1 + x**2) ** 2 * sp.exp(-3 * sp.Abs(x)), sp.S.Reals, R(3, 2),
     2 * sp.log(sp.pi * 2 ** R(-3, 2) * sp.sqrt(R(94, 81)))),
    # on a half line: P²/Q = (3/4)/(1 + x²), ∫ over (0, ∞) = 3π/8
    (sp.exp(-x), R(4, 3) * (1 + x**2) * sp.exp(-2 * x), sp.Interval(0, sp.oo), 2, sp.log(3 * sp.pi / 8)),
    # the same tails one order up: P^α Q^(1−α) grows like e^((α−2)|x|)
    (_LAPLACE, R(2, 3) * (1 + x**2) * sp.exp(-2 * sp.Abs(x)), sp.S.Reals, R(5, 2), sp.oo),
    # exponentials gone and the power left is |x|^(−1): log-divergent
    (_LAPLACE, R(27, 22) * (1 + x**2) * sp.exp(-3 * sp.Abs(x)), sp.S.Reals, R(3, 2), sp.oo),
], ids=["laplace-order-2", "normal-order-2", "laplace-order-3/2", "half-line-order-2", "order-5/2-diverges",
        "order-3/2-log-divergent"])
def test_tails_whose_exponentials_cancel_are_read_by_what_is_left(p, q, support, order, truth, dps):
    P, Q = (rdpsym.Continuous(d, x, support=support) for d in (p, q))
    got = renyi_divergence_mp(P, Q, order, dps=dps)
    if truth is sp.oo:
        assert got == mpmath.inf
        return
    with mpmath.workdps(dps + 10):
        want = mpmath.mpf(sp.N(truth, dps + 10))
        assert abs(got - want) < mpmath.mpf(10) ** (1 - dps) * abs(want), (got, want)


@pytest.mark.parametrize("dps", [15, 30])
def test_a_series_whose_exponentials_cancel_is_summed(dps):
    """Geometric(1/2) on {0, 1, …} against Q(k) = (27/56)·(1 + k²)·4^(−k): P²/Q = (14/27)/(1 + k²), and
    Σ_{k ≥ 0} 1/(1 + k²) = (1 + π·coth π)/2.  The rounded sum of the logs read far terms of size 1: +∞ once, and before
    that an internal signal of the summation escaped as the error (``_NoDrop``)."""
    P = rdpsym.Discrete(R(1, 2) ** (k + 1), k, support=sp.Range(0, sp.oo))
    Q = rdpsym.Discrete(R(27, 56) * (1 + k**2) * R(1, 4) ** k, k, support=sp.Range(0, sp.oo))
    truth = sp.log(R(14, 27) * (1 + sp.pi * sp.coth(sp.pi)) / 2)
    got = renyi_divergence_mp(P, Q, 2, dps=dps)
    with mpmath.workdps(dps + 10):
        want = mpmath.mpf(sp.N(truth, dps + 10))
        assert abs(got - want) < mpmath.mpf(10) ** (1 - dps) * abs(want), (got, want)


def test_terms_that_stop_falling_beside_a_second_group_are_a_divergent_series_not_an_internal_error():
    """A group of terms past the largest one that never falls below the summation's level (10⁻³ from k = 1000 on):
    the series diverges, +∞; with signs that alternate there it has no sum, a ConvergenceError.  The summation
    followed that group outward and its internal signal (no drop within 2^4096 terms) escaped as the error."""
    with private_context(15) as ctx:
        def positive(j):
            return ctx.exp(-j) if j < 1000 else ctx.mpf(10) ** -3

        def alternating(j):
            return ctx.exp(-j) if j < 1000 else (-1) ** j * ctx.mpf(10) ** -3

        assert sum_range(positive, sp.S.Zero, sp.oo, ctx) == ctx.inf
        with pytest.raises(rdpsym.ConvergenceError, match="neither fall below its level nor keep their sign"):
            sum_range(alternating, sp.S.Zero, sp.oo, ctx)


@pytest.mark.parametrize("digits", [30, 100])
def test_shared_terms_whose_constant_factors_differ_are_summed_before_they_are_evaluated(digits):
    """Gumbel(0, 1) against Gumbel(μ, 1) with μ = log 2 − 10^−digits, at order 2 (a review): the log-integrand is
    −x − μ + (e^μ − 2)·e^(−x), whose e^(−x) terms, 2·e^(−10^−digits)·e^(−x) and −2·e^(−x), SymPy's sum keeps apart; toward
    −∞ they cancelled numerically and D₂ came out +∞ at 10⁻¹⁰⁰.  From ∫ e^(−x − c·e^(−x)) dx = 1/c:
    D₂ = −μ − log(2 − e^μ), evaluated here by mpmath at 400 digits."""
    mu = sp.log(2) - R(1, 10**digits)
    P, Q = (rdpsym.Continuous(sp.exp(-(x - m) - sp.exp(-(x - m))), x) for m in (0, mu))
    got = renyi_divergence_mp(P, Q, 2, dps=15)
    with mpmath.workdps(400):
        m = mpmath.log(2) - mpmath.mpf(10) ** -digits
        want = -m - mpmath.log(2 - mpmath.exp(m))
        assert abs(got - want) < mpmath.mpf(10) ** -14 * want, (got, want)
