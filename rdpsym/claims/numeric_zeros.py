"""The zeros SymPy leaves unsolved, found numerically: sign changes on a grid of the hull, refined by bisection.

``solveset`` answers x·eˣ = 3, x = cos x and the Laplace mechanism's D_α = 1/2 with a ``ConditionSet``: no value, so
no tight point (:mod:`rdpsym.claims.critical`), and (x·eˣ − 3)² ≥ 10⁻⁴⁰ on (0, 5), |x − cos x| ≥ 10⁻⁴⁰ on (0, 1)
and |D_α − 1/2| ≥ 10⁻⁸ on (1, ∞) were reported checked; each fails only within 10⁻²⁰ (10⁻⁸) of the zero (a probe).
Here the function is evaluated on an even grid of the hull's search coordinate (linear, logarithmic for a long
interval of positive values, log of the distance to the finite end of a half-line, asinh on the whole line), and
each sign change is bisected to :data:`DIGITS` significant digits.

The values are candidates only: the claim decides each as it decides a sample point (in balls, or exactly), so a
zero placed wrongly, or a sign read wrongly at the grid's low precision, can only fail to refute a false claim,
never refute a true one.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from rdpsym.foundations.errors import SymbolicTimeout
from rdpsym.foundations.numbers import exact_rational
from rdpsym.foundations.precision import mpmath_function, sympy_evalf_guard

#: Points of the grid a sign change is looked for on.
GRID = 160
#: How far the grid reaches on a half-line or the whole line, in its logarithmic coordinate: e^±23 ≈ 10^±10.
REACH = 23.0
#: Significant digits a zero is bisected to (a relation that fails within 10⁻²⁰ of it is decided at such a point).
DIGITS = 60
#: Digits the grid's signs are read at.
_SCAN_DIGITS = 20


def numeric_zeros(f: sp.Expr, t: sp.Symbol, hull: sp.Interval, most: int) -> list[sp.Rational]:
    """Exact rationals within 10^−:data:`DIGITS` (relative) of up to ``most`` zeros of ``f`` (an expression in ``t``
    alone) at which it changes sign inside ``hull``, in the order of the grid; [] for anything else.

    >>> x = sp.Symbol("x", real=True)
    >>> [sp.N(v, 15) for v in numeric_zeros(x * sp.exp(x) - 3, x, sp.Interval(0, 5), 4)]
    [1.04990889496404]
    >>> sp.N(sp.LambertW(3), 15)
    1.04990889496404
    >>> [sp.N(v, 15) for v in numeric_zeros(x * sp.exp(-x) + 3, x, sp.Interval(-5, 0), 4)]  # (−W(3): signed)
    [-1.04990889496404]
    """
    if f.free_symbols != {t} or not hull.is_Interval:
        return []
    g = mpmath_function(t, f)
    out: list[sp.Rational] = []
    with sympy_evalf_guard(), mpmath.workdps(_SCAN_DIGITS):
        points = _grid(hull)
        signs = [_sign(g, x) for x in points]
    for (x0, s0), (x1, s1) in zip(zip(points, signs), zip(points[1:], signs[1:])):
        if s0 and s1 and s0 != s1:
            zero = _bisected(g, x0, x1, s0)
            if zero is not None and hull.contains(zero) is sp.true and _falls(g, zero, x0, x1):
                out.append(zero)
                if len(out) >= most:
                    break
    return out


def _grid(hull: sp.Interval) -> list[mpmath.mpf]:
    """:data:`GRID` points inside ``hull`` (never its ends), evenly spaced in its search coordinate."""
    lo, hi = hull.inf, hull.sup
    inner = [(k + 0.5) / GRID for k in range(GRID)]
    if lo.is_finite and hi.is_finite:
        a, b = _mpf(lo), _mpf(hi)
        if a > 0 and b > 100 * a:
            return [mpmath.exp(mpmath.log(a) + (mpmath.log(b) - mpmath.log(a)) * s) for s in inner]
        return [a + (b - a) * s for s in inner]
    us = [-REACH + 2 * REACH * s for s in inner]
    if lo.is_finite:
        a = _mpf(lo)
        return [a + mpmath.exp(u) for u in us]
    if hi.is_finite:
        b = _mpf(hi)
        return [b - mpmath.exp(u) for u in reversed(us)]
    return [mpmath.sinh(u) for u in us]


def _mpf(value: sp.Expr) -> mpmath.mpf:
    """A real SymPy number (an end of the hull: π, e³⁰⁰⁰) at the working precision."""
    return mpmath.mpf(sp.N(value, mpmath.mp.dps + 5))


def _sign(g, x: mpmath.mpf) -> int:
    """The sign of ``g(x)`` (0 where it is 0, not a real number, not finite, or not evaluated)."""
    value = _value(g, x)
    return 0 if value is None else (value > 0) - (value < 0)


def _value(g, x: mpmath.mpf) -> mpmath.mpf | None:
    """``g(x)`` where it is a finite real number, else None (a besselk whose series does not converge there, a
    function lambdify cannot print: no value, no zero)."""
    try:
        value = g(x)
    except SymbolicTimeout:
        raise
    except Exception:  # noqa: BLE001 - mpmath's NoConvergence, a NameError of lambdify's code, a complex power
        return None
    return value if isinstance(value, mpmath.mpf) and mpmath.isfinite(value) else None


def _bisected(g, x0: mpmath.mpf, x1: mpmath.mpf, s0: int) -> sp.Rational | None:
    """The bracket (x0, x1), with ``g``'s sign ``s0`` at x0 and the other at x1, bisected to :data:`DIGITS` digits;
    its midpoint as an exact rational (None where a sign on the way cannot be read)."""
    with sympy_evalf_guard(), mpmath.workdps(DIGITS + 10):
        x0, x1 = mpmath.mpf(x0), mpmath.mpf(x1)
        tolerance = mpmath.mpf(10) ** -DIGITS
        while abs(x1 - x0) > tolerance * max(abs(x0), abs(x1), tolerance):
            middle = (x0 + x1) / 2
            if middle in (x0, x1):
                break
            s = _sign(g, middle)
            if s == 0:
                return exact_rational(middle)
            x0, x1 = (middle, x1) if s == s0 else (x0, middle)
        return exact_rational((x0 + x1) / 2)


def _falls(g, zero: sp.Rational, x0: mpmath.mpf, x1: mpmath.mpf) -> bool:
    """Whether |g| at the bisected point is below its value at both ends of the bracket: a zero, not a pole or a jump
    the sign changed across (tan x − x: four of seven sign changes were its poles, taking places among the values a
    claim tries; a review)."""
    with sympy_evalf_guard(), mpmath.workdps(_SCAN_DIGITS):
        at = _value(g, mpmath.mpf(sp.N(zero, _SCAN_DIGITS + 5)))
        ends = [_value(g, x) for x in (x0, x1)]
    return at is not None and None not in ends and abs(at) < min(abs(e) for e in ends)


__all__ = ["DIGITS", "GRID", "REACH", "numeric_zeros"]
