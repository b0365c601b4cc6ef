"""A lattice of cells integrated: the pieces cut at the jumps of a floor, ceiling or frac of a·x + b.

A piece flagged with a ``lattice`` (:class:`rdpsym.quadrature.region_records.Lattice`)
holds a run of cells, infinitely many on an infinite piece.  Each cell is a
smooth piece with its floors' values substituted, read only strictly inside
(:func:`_cell_integral`, :func:`_inside`: its ends are jumps); one period of
cells is a block, and the blocks are the terms of a series
(:class:`_Blocks`) summed outward from the largest by
:func:`rdpsym.quadrature.series.sum_range` (:func:`_lattice_integral`).
"""

from __future__ import annotations

import sympy as sp

from rdpsym.foundations.errors import ConvergenceError
from rdpsym.foundations.precision import sympy_evalf_guard
from rdpsym.quadrature.compile import to_mpf
from rdpsym.quadrature.divergent import _say
from rdpsym.quadrature.integrands import LogForm
from rdpsym.quadrature.piece import _piece
from rdpsym.quadrature.seeds import critical_seeds
from rdpsym.quadrature.series import sum_range

oo = sp.oo


def _cell_integral(cell, var, integrand, ctx, order, check_support, reasons, recentred):
    """∫ over one cell between jumps of a floor, as (value, log factor); None when it is +∞ (the reason
    said).  The cell's branches are smooth (its floors replaced by their values there); the integrand,
    a function of the whole laws, is read only strictly inside the cell, where its floors take those
    values (a node rounded onto a jump would read the next cell's).  A cell on which both branches are
    constant is integrated exactly: the integrand at its midpoint times its width."""
    lo, hi, bp, bq = cell.lo, cell.hi, cell.p, cell.q
    if bp == 0:
        return ctx.zero, ctx.zero
    if bq == 0:
        if check_support:
            _say(reasons, f"P > 0 = Q on ({lo}, {hi})")
            return None
        return ctx.zero, ctx.zero
    f = _inside(integrand, lo, hi, ctx)
    if not bp.has(var) and not bq.has(var):
        a, b = to_mpf(lo, ctx), to_mpf(hi, ctx)
        with sympy_evalf_guard():
            width = to_mpf(hi - lo, ctx)
        if isinstance(f, LogForm):
            log_value, sign = f.parts((a + b) / 2)
            if sign == 0 or log_value == ctx.ninf:
                return ctx.zero, ctx.zero
            return sign * width, log_value
        return f((a + b) / 2) * width, ctx.zero
    seeds = critical_seeds(bp, bq, var, order, lo, hi)
    try:
        value, log_factor = _piece(cell, f, lo, hi, seeds, ctx, check_support, None, reasons, recentred, None,
                                   ctx.zero, 0)
    except OverflowError as exc:
        raise ConvergenceError(f"the integrand overflows ({exc}) on the cell ({lo}, {hi})") from exc
    if value == ctx.inf:
        return None
    return value, log_factor


def _inside(integrand, lo, hi, ctx):
    """The integrand read only at points at least a few hundred ulps inside [lo, hi]: a point nearer an end is
    moved in (its weight in any quadrature is below the working precision)."""
    a, b = to_mpf(lo, ctx), to_mpf(hi, ctx)
    margin = ctx.ldexp(abs(a) + abs(b) + (b - a), 10 - ctx.prec)
    left, right = a + margin, b - margin
    if not left < right:
        left = right = (a + b) / 2

    def clamp(t):
        return left if t < left else (right if t > right else t)
    if isinstance(integrand, LogForm):
        parts = integrand.parts
        return LogForm(lambda t: parts(clamp(t)), ctx)
    return lambda t: integrand(clamp(t))


class _Diverges(Exception):
    """A cell of a lattice on which the integral is +∞ (the reason was said)."""


class _Blocks:
    """The blocks of a lattice as the terms of a series: term n is the integral over block n's cells, given by
    its logarithm and sign (a :class:`LogForm` of the block index), each block integrated once.

    A block far below the largest one seen needs fewer digits: it is integrated first at
    :data:`_ROUGH_DIGITS` digits, and again at the working precision less the decades its cells lie below
    that largest block (plus 10), only when that is more."""

    def __init__(self, lattice, var, integrand, ctx, order, check_support, reasons, recentred):
        self.lattice, self.ctx = lattice, ctx
        self.args = var, integrand, ctx, order, check_support, reasons, recentred
        self.known: dict = {}
        self.peak = None  # log of the largest block seen

    def _block(self, n: int):
        """(log|Σ|, sign, log of the largest cell) of block n at the context's current precision."""
        ctx = self.ctx
        found = []
        for cell in self.lattice.cells(n):
            value = _cell_integral(cell, *self.args)
            if value is None:
                raise _Diverges
            if value[0] != 0:
                found.append(value)
        if not found:
            return ctx.ninf, 0, ctx.ninf
        top = max(log_factor + ctx.log(abs(v)) for v, log_factor in found)
        s = ctx.fsum(v * ctx.exp(log_factor - top) for v, log_factor in found)
        return (ctx.ninf, 0, top) if s == 0 else (ctx.log(abs(s)) + top, 1 if s > 0 else -1, top)

    def parts(self, n):
        ctx = self.ctx
        if int(n) != n:
            raise TypeError("a lattice's blocks are summed at integer indices only")
        n = int(n)
        if n not in self.known:
            if self.peak is None or ctx.dps <= 2 * _ROUGH_DIGITS:
                found = self._block(n)
            else:
                with ctx.workdps(_ROUGH_DIGITS):
                    found = self._block(n)
                needed = (ctx.dps + 10 - int((self.peak - found[2]) / ctx.ln10)) if ctx.isfinite(found[2]) else 0
                if needed > _ROUGH_DIGITS:
                    with ctx.workdps(min(ctx.dps, needed)):
                        found = self._block(n)
            if found[1] != 0 and (self.peak is None or found[0] > self.peak):
                self.peak = found[0]
            self.known[n] = found[:2]
        return self.known[n]

    def log_abs(self, n):
        return self.parts(n)[0]

    def __call__(self, n):
        log_value, sign = self.parts(n)
        return self.ctx.zero if sign == 0 else sign * self.ctx.exp(log_value)


#: Digits a lattice's block is first integrated at (enough for one far below the largest block).
_ROUGH_DIGITS = 20


#: Blocks at which an infinite lattice's terms are compared before summing: if the farther is not below
#: the nearer, the blocks do not shrink and the integral is +∞.
_LATTICE_FAR = (2**20, 2**40)


def _lattice_integral(region, var, integrand, ctx, order, check_support, reasons, recentred):
    """∫ over a lattice region, cell by cell: Σ over its blocks of the integrals over their cells (+∞ with the
    reason said when a cell's integral, or the series of blocks, diverges)."""
    lattice = region.lattice
    blocks = _Blocks(lattice, var, integrand, ctx, order, check_support, reasons, recentred)
    try:
        if lattice.blocks is None:
            near, far = (blocks.log_abs(n) for n in _LATTICE_FAR)
            if ctx.isfinite(far) and not far < near - 1:
                _say(reasons, f"the integrand does not shrink from one cell to the next on ({region.lo}, "
                              f"{region.hi}): its integral diverges")
                return ctx.inf
            value = sum_range(blocks, sp.S.Zero, oo, ctx)
        else:
            value = sum_range(blocks, sp.S.Zero, sp.Integer(lattice.blocks - 1), ctx)
    except _Diverges:
        return ctx.inf
    if value == ctx.inf:
        _say(reasons, f"the integrand's cells do not shrink on ({region.lo}, {region.hi})")
    return value
