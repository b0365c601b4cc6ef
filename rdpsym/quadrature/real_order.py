"""Exact real numbers put in order: signs, comparisons, floors and rational points, for the numeric reading.

The switch points and the ends of supports that :mod:`rdpsym.quadrature.regions`
orders are exact SymPy numbers (rationals, roots, logarithms).  They are compared
exactly where they are rational and otherwise by rational approximations of
growing precision (:func:`_sign`); points that cannot be told apart at 180 digits
are one point.  Every piece's branch is then read at a *rational* point strictly
inside it (:func:`_point_inside`).  Kept apart from the reading itself because the
branches, the lattices of floors and the records all stand on it.
"""

from __future__ import annotations

import functools

import sympy as sp

from rdpsym.foundations.errors import NoClosedFormError
from rdpsym.foundations.numbers import exact_rational
from rdpsym.foundations.precision import private_context
from rdpsym.quadrature.compile import to_mpf

oo = sp.oo


#: Digits of the approximations points are ordered by (and of the numeric zeros found by bisection).
_DIGITS = 60


def _sign(v: sp.Expr) -> int:
    """The sign of a real number, decided exactly or by approximations of growing precision."""
    v = sp.sympify(v, strict=True)  # a number rdpsym built (never text)
    if v.is_Rational:
        return (v.p > 0) - (v.p < 0)
    if v.is_zero:
        return 0
    if v.is_positive:
        return 1
    if v.is_negative:
        return -1
    for digits in (_DIGITS, 3 * _DIGITS):
        a = _approx(v, digits)
        if abs(a) > sp.Rational(1, 10 ** (digits - 15)):
            return 1 if a > 0 else -1
    if sp.simplify(v) == 0:
        return 0
    raise NoClosedFormError(f"cannot decide the sign of {v}")


def _approx(v: sp.Expr, digits: int) -> sp.Rational:
    """A rational within 10^−digits (relative) of the real number v."""
    with private_context(digits) as ctx:
        value = to_mpf(v, ctx)
        if not ctx.isfinite(value):
            raise NoClosedFormError(f"{v} is not a finite real number")
        return exact_rational(value)


def _compare(a: sp.Expr, b: sp.Expr) -> int:
    """−1, 0 or 1 as a <, =, > b (±∞ allowed); equal only when shown so (or indistinguishable at 180 digits)."""
    if a == b:
        return 0
    if a is -oo or b is oo:
        return -1
    if a is oo or b is -oo:
        return 1
    d = a - b
    if d.is_Rational:
        return (d.p > 0) - (d.p < 0)
    try:
        return _sign(d)
    except NoClosedFormError:
        return 0


def _lt(a: sp.Expr, b: sp.Expr) -> bool:
    return _compare(a, b) < 0


def _le(a: sp.Expr, b: sp.Expr) -> bool:
    return _compare(a, b) <= 0


def _ordered(points: list) -> list:
    """Distinct points in increasing order."""
    out: list = []
    for t in sorted(points, key=functools.cmp_to_key(_compare)):
        if not out or _compare(out[-1], t) != 0:
            out.append(t)
    return out


def _floor(v: sp.Expr) -> sp.Integer:
    v = sp.sympify(v, strict=True)  # a number rdpsym built (never text)
    if v.is_Rational:
        return sp.floor(v)
    n = sp.floor(_approx(v, _DIGITS))
    return n if _sign(v - n) >= 0 else n - 1


def _ceiling(v: sp.Expr) -> sp.Integer:
    return -_floor(-v)


def _midpoint(a: sp.Expr, b: sp.Expr) -> sp.Expr:
    if a.is_Rational and b.is_Rational:
        return (a + b) / 2
    return (_approx(a, _DIGITS) + _approx(b, _DIGITS)) / 2


def _point_inside(a: sp.Expr, b: sp.Expr) -> sp.Expr:
    """A rational point strictly inside (a, b)."""
    if a is -oo and b is oo:
        return sp.S.Zero
    if a is -oo:
        return _floor(b) - 1
    if b is oo:
        return _floor(a) + 1
    t = _midpoint(a, b)
    if not (_lt(a, t) and _lt(t, b)):
        raise NoClosedFormError(f"the piece ({a}, {b}) is too narrow to resolve its branch")
    return t
