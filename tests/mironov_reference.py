"""Mironov 2017's closed forms (Propositions 5–7, Table II), written out independently in mpmath.

The tests of the numerics compare rdpsym's values with these, evaluated at 150 digits from exact
inputs; nothing here is read from rdpsym.
"""

from __future__ import annotations

import mpmath
import sympy as sp

#: Working digits of the reference values.
DIGITS = 150


def mp(value) -> mpmath.mpf:
    """An exact number (SymPy, int, Fraction, decimal string) as an mpf at the current working precision."""
    r = sp.Rational(value)
    return mpmath.mpf(r.p) / r.q


def gaussian(sigma, order, delta=1):
    """Proposition 7: D_α(N(0,σ²)‖N(Δ,σ²)) = αΔ²/(2σ²); KL is Δ²/(2σ²) and D_∞ = ∞."""
    with mpmath.workdps(DIGITS):
        if order == sp.oo:
            return mpmath.inf
        return mp(order) * mp(delta) ** 2 / (2 * mp(sigma) ** 2)


def laplace(scale, order, delta=1):
    """Proposition 6 with λ = b/|Δ|; KL = 1/λ + e^{−1/λ} − 1 and D_∞ = 1/λ (Table II)."""
    with mpmath.workdps(DIGITS):
        lam = mp(scale) / abs(mp(delta))
        if order == sp.oo:
            return 1 / lam
        if order == 1:
            return 1 / lam + mpmath.expm1(-1 / lam)
        a = mp(order)
        moment = a / (2 * a - 1) * mpmath.exp((a - 1) / lam) + (a - 1) / (2 * a - 1) * mpmath.exp(-a / lam)
        return mpmath.log(moment) / (a - 1)


def randomized_response(p, order):
    """Proposition 5; KL = (2p − 1)·log(p/(1 − p)) and D_∞ = |log(p/(1 − p))| (Table II)."""
    with mpmath.workdps(DIGITS):
        p = mp(p)
        if order == sp.oo:
            return abs(mpmath.log(p / (1 - p)))
        if order == 1:
            return (2 * p - 1) * mpmath.log(p / (1 - p))
        a = mp(order)
        return mpmath.log(p**a * (1 - p) ** (1 - a) + (1 - p) ** a * p ** (1 - a)) / (a - 1)
