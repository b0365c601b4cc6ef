"""Where a located piece is cut for tanh-sinh, and a quadrature that did not settle cut again.

Given where the integrand's mass lies (a :class:`~rdpsym.quadrature.locate.Locus`:
its mode, the ends of its mass, other modes), :func:`_split_points` cuts a piece
there, so that each part holds one hill and tails that converge at the first
levels.  :func:`_settled_quad` integrates the parts and, when mpmath's error
estimate says the sum did not settle, cuts again at every factor
:data:`_SCALE_STEP` of distance from the mode (:func:`_scale_points`): a mass with
two scales at one end gets a part per scale.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import sympy as sp

from rdpsym.foundations.errors import ConvergenceError
from rdpsym.quadrature.compile import to_mpf
from rdpsym.quadrature.locate import Locus


def _settled_quad(f, points: list, where: Locus, ctx, marks: Callable[[], Iterable] = tuple):
    """ctx.quad(f, points), integrated again on a finer split when its error estimate says it did not settle.

    Tanh-sinh stops at a degree fixed by the precision, and mpmath then returns its last sum with no
    warning.  A mass with two scales at one end (½·Exp(10³⁰) + ½·Exp(1): a spike 10⁻³⁰ wide on a piece 16
    long) is resolved only at the end's own scale: the wide part, 10⁻³⁰ of the total, came out 70 % off,
    at 81 digits and at 120 alike, so two working precisions agreed on a value wrong from the 31st digit.
    mpmath's own estimate saw it (4·10⁻³⁰); split every factor :data:`_SCALE_STEP` of distance from the
    mode, each scale between the mass's width and the piece's length gets a piece of its own.  The
    better estimate of the two integrations is kept: where the integrand itself carries fewer digits than
    the working precision (the cancelling terms of a Gaussian pair at α = 10³⁰), neither settles, and the
    comparison of two working precisions that every definition goes through judges the digits.

    The finer split also cuts at ``marks()`` (the log-densities' exact critical points and the densities'
    modes: where P or Q has its mode, the integrand changes its scale).  That comparison is no judge where both
    precisions under-resolve the same feature alike: the KL of Cauchy laws 100 apart, whose integrand has a hill
    of width 1 at Q's mode between two points of the scan, came out 1.7·10⁻⁸ off at 30 and at 40 digits alike
    (mpmath's estimate said 10⁻⁵; a probe).  A value resolved from 0 whose estimate leaves it fewer than a
    quarter of the working digits (more than the cancellation the precision policy allows for) is therefore an
    error, never a value.
    """
    value, err = ctx.quad(f, points, error=True)
    if err <= ctx.ldexp(max(1, abs(value)), _QUAD_SLACK_BITS - ctx.prec) or where.mode is None:
        return value
    a, b = points[0], points[-1]
    finer = sorted({*_scale_points(points, where, ctx), *(t for t in marks() if a < t < b)})
    if len(finer) > len(points):
        again, err_again = ctx.quad(f, finer, error=True)
        if err_again < err:
            value, err = again, err_again
    # (An estimate as large as the value itself is cancellation: the same law written twice, whose integrand is
    # rounding noise; the two working precisions and the near form judge those.)
    if ctx.ldexp(abs(value), -ctx.prec // 4) < err < abs(value) / 4:
        raise ConvergenceError(f"the quadrature did not settle: mpmath's error estimate {ctx.nstr(err, 3)} against "
                               f"a value {ctx.nstr(value, 8)} at {ctx.dps} digits")
    return value


def _scale_points(points: list, where: Locus, ctx) -> list:
    """``points`` with the mode's distances width·256^k (k = 0, 1, ...) inserted on both sides, within the
    piece: one piece per scale between the mass's e-fold width and the piece's length."""
    a, b = points[0], points[-1]
    centre = where.mode
    if where.at_end:  # the mass is at a finite end: its scales are measured from there
        centre = min((e for e in (a, b) if ctx.isfinite(e)), key=lambda e: abs(e - where.mode), default=centre)
    finite = [t for t in points if ctx.isfinite(t)]
    reach = max(abs(t - centre) for t in finite) if finite else ctx.zero
    extra, step = set(), where.scale
    while 0 < step < reach:
        extra.update(t for t in (centre - step, centre + step) if a < t < b)
        step *= _SCALE_STEP
    return sorted({*points, *extra})


#: Bits above 2^−prec (relative) a quadrature's error estimate may be before it is integrated again.
_QUAD_SLACK_BITS = 8


#: The ratio between the distances from the mode split at when a quadrature did not settle.
_SCALE_STEP = 256


def _split_points(where: Locus, lo: sp.Expr, hi: sp.Expr, ctx) -> list:
    """[lo, ..., hi] with the mode of the integrand and the ends of its mass inserted.

    Splitting where |f| has fallen below 10^−(dps+5) of its peak leaves tanh-sinh
    a finite interval holding all the mass and tails that converge at the first
    levels, whatever the scale of the densities.
    """
    a, b = _inside(lo, ctx, 1), _inside(hi, ctx, -1)
    if where.mode is None:
        return [a, b]
    inner = (where.left, None if where.at_end else where.mode, where.right, *where.others)
    return [a, *sorted({t for t in inner if t is not None and a < t < b}), b]


def _inside(end: sp.Expr, ctx, inward: int):
    """The end of a piece as an mpf of ``ctx`` on its inner side (``inward`` +1 at the lower end).

    An irrational end rounded to the nearest mpf lies outside the piece half the time, and tanh-sinh's nodes next
    to it with it, where the density can be negative: the cosine law on [−π/2, π/2] against the uniform law met
    cos x = −5·10⁻⁶⁴ at a node 5·10⁻⁶⁴ below −π/2, and was refused at every order but 1 and ∞ ("the integrand is
    not a real number").  The rounded end is compared with the end at 64 more bits and, if outside, moved one unit
    in the last place inward.
    """
    value = to_mpf(end, ctx)
    if not ctx.isfinite(value) or end.is_Rational:
        return value
    with ctx.extraprec(64):
        closer = to_mpf(end, ctx)
    if (value < closer) if inward > 0 else (value > closer):
        value += inward * ctx.ldexp(1, ctx.mag(value) - ctx.prec)
    return value
