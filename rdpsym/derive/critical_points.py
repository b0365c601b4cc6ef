"""D_∞ of laws with numbers for parameters: the supremum of log(P/Q) at the zeros of its derivative.

A log-ratio R that peaks inside its piece, with no rule of :func:`rdpsym.derive.moments.sup_piece` for its
shape (a semicircle against the uniform law: R = log(4/π) + ½·log(1 − x²)), has its supremum at a zero of R′ or
as a limit at an end.  SymPy's ``solveset`` finds the zeros, but it can drop some: on (0, 6) it gives {π/2} for
sin³x − sin x and ∅ for cos³x − cos x, where both have three (a probe).  So the numerator is factored first, and
every change of R′'s sign on a grid of the piece must lie next to a zero found; else there is no answer here.  The
value returned is also checked against the definition, as every closed form is
(:mod:`rdpsym.derive.check_loop`).
"""

from __future__ import annotations

import sympy as sp

from rdpsym.foundations.balls import precision, to_arb
from rdpsym.foundations.budget import budgeted
from rdpsym.foundations.errors import NoClosedFormError, RdpSymError
from rdpsym.foundations.precision import private_context
from rdpsym.quadrature.compile import compile_expr, to_mpf

#: What a log-ratio may not hold: a function whose derivative SymPy writes with a sign or a jump, where R′ = 0 does
#: not find every extremum.
_NOT_SMOOTH = (sp.Abs, sp.Piecewise, sp.sign, sp.floor, sp.ceiling, sp.Heaviside, sp.Min, sp.Max, sp.frac)
#: Points of the grid on which R′'s changes of sign are sought (denser towards the ends).
_GRID = 800


def sup_at_critical_points(R, x, lo, hi):
    """sup over (lo, hi) of a log-ratio with no parameters, differentiable there: the largest of its values at the
    zeros of R′ and of its limits at the two ends, or None.

    Every zero must be found (``solveset`` of the factored numerator gives a finite set on the open interval, R′'s
    denominator has none there, and each change of R′'s sign on a grid lies next to one of them), and the largest
    value must be told from the others in Arb balls.  A semicircle against the uniform law on (−1, 1) is log(4/π)
    at x = 0, a raised cosine against it log 2: both were labelled numeric values.  Each SymPy step runs under a
    time budget.

    >>> x = sp.Symbol("x", real=True)
    >>> sup_at_critical_points(sp.log(4 / sp.pi) + sp.log(1 - x**2) / 2, x, -1, 1)
    log(4/pi)
    """
    if R.free_symbols != {x} or R.has(*_NOT_SMOOTH):
        return None
    inside = sp.Interval.open(lo, hi)
    try:
        derivative = budgeted(lambda: sp.together(sp.diff(R, x)), "the log-ratio's derivative", seconds=2.0)
        numerator, denominator = sp.fraction(derivative)
        numerator = budgeted(lambda: sp.factor(numerator), "the log-ratio's derivative, factored", seconds=2.0)
        zeros = budgeted(lambda: sp.solveset(numerator, x, inside), "the log-ratio's critical points", seconds=2.0)
        poles = budgeted(lambda: sp.solveset(denominator, x, inside), "the log-ratio's derivative's poles",
                         seconds=2.0)
        if not isinstance(zeros, sp.FiniteSet) or len(zeros) > 16 or poles is not sp.S.EmptySet:
            return None
        if not _every_sign_change_found(derivative, x, lo, hi, zeros):
            return None
        values = [budgeted(lambda z=z: R.subs(x, z), "the log-ratio at a critical point", seconds=2.0) for z in zeros]
        values += [budgeted(lambda end=end, side=side: sp.limit(R, x, end, side), "sympy.limit", seconds=2.0)
                   for end, side in ((lo, "+"), (hi, "-"))]
    except (NoClosedFormError, NotImplementedError, TypeError, ValueError):  # (SymPy's ways of not finishing)
        return None
    return _largest(values)


def _every_sign_change_found(derivative, x, lo, hi, zeros) -> bool:
    """Whether each cell of a grid on (lo, hi) where R′ changes sign holds one of ``zeros`` (R′ at 30 digits; the
    grid denser towards the ends, and mapped onto an infinite end by x = c ± u/(1 − u)).

    >>> x = sp.Symbol("x", real=True)
    >>> _every_sign_change_found(sp.sin(x)**3 - sp.sin(x), x, 0, 6, {sp.pi / 2})  # what solveset gives
    False
    >>> _every_sign_change_found(sp.sin(x)**3 - sp.sin(x), x, 0, 6, {sp.pi / 2, sp.pi, 3 * sp.pi / 2})
    True
    """
    with private_context(30) as ctx:
        try:
            f = compile_expr(derivative, x, ctx)
            found = sorted(to_mpf(z, ctx) for z in zeros)
            points = _grid(ctx, lo, hi)
        except (TypeError, ValueError, NoClosedFormError):
            return False
        signs = []
        for t in points:
            try:
                value = f(t)
            except (ZeroDivisionError, ValueError, ArithmeticError):
                return False
            if not isinstance(value, ctx.mpf) or ctx.isnan(value):
                return False
            signs.append(0 if value == 0 else 1 if value > 0 else -1)
        nonzero = [(t, s) for t, s in zip(points, signs) if s]
        for (t0, s0), (t1, s1) in zip(nonzero, nonzero[1:]):
            if s0 != s1 and not any(t0 <= z <= t1 for z in found):
                return False
    return True


def _grid(ctx, lo, hi) -> list:
    """The grid's points inside (lo, hi): cosine-spaced on a finite piece, x = lo + u/(1 − u) (and its mirror)
    towards an infinite end, for u = i/_GRID."""
    us = [ctx.mpf(i) / _GRID for i in range(1, _GRID)]
    if lo is not -sp.oo and hi is not sp.oo:
        a, b = to_mpf(lo, ctx), to_mpf(hi, ctx)  # (each end read once)
        return [a + (b - a) * (1 - ctx.cos(ctx.pi * u)) / 2 for u in us]
    if lo is -sp.oo and hi is sp.oo:
        return [(2 * u - 1) / (1 - (2 * u - 1) ** 2) for u in us]
    if hi is sp.oo:
        a = to_mpf(lo, ctx)
        return [a + u / (1 - u) for u in us]
    b = to_mpf(hi, ctx)
    return [b - (1 - u) / u for u in us]


def _largest(values: list):
    """The largest of exact real values (−∞ and +∞ allowed), decided in Arb balls; None where it is not decided."""
    if any(v is sp.nan or v.has(sp.zoo, sp.Limit, sp.I) or not v.is_number for v in values):
        return None
    if sp.oo in values:
        return sp.oo
    finite = list(dict.fromkeys(v for v in values if v is not -sp.oo))
    if not finite:
        return -sp.oo
    try:
        with precision(256):
            balls = [to_arb(v) for v in finite]
    except (RdpSymError, TypeError, ValueError, ZeroDivisionError):
        return None
    top = max(range(len(finite)), key=lambda i: balls[i].mid())
    if all(i == top or balls[i] < balls[top] for i in range(len(finite))):
        return finite[top]
    return None
