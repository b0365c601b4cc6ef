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

import sympy as sp

from rdpsym.quadrature.compile import to_mpf
from rdpsym.quadrature.locate import Locus


def _settled_quad(f, points: list, where: Locus, ctx):
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
    """
    value, err = ctx.quad(f, points, error=True)
    if err <= ctx.ldexp(max(1, abs(value)), _QUAD_SLACK_BITS - ctx.prec) or where.mode is None:
        return value
    finer = _scale_points(points, where, ctx)
    if len(finer) == len(points):
        return value
    again, err_again = ctx.quad(f, finer, error=True)
    return again if err_again < err else value


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
    a, b = to_mpf(lo, ctx), to_mpf(hi, ctx)
    if where.mode is None:
        return [a, b]
    inner = (where.left, None if where.at_end else where.mode, where.right, *where.others)
    return [a, *sorted({t for t in inner if t is not None and a < t < b}), b]
