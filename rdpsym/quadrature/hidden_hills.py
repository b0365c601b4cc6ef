"""Hills the working precision cannot see: a seed whose mass is narrower than the spacing of the numbers at its place.

A mixture ⅔N(0, 1) + ⅓N(10³⁰⁰, 1) has a component at x = 10³⁰⁰, and the seeds
(:func:`~rdpsym.quadrature.seeds.critical_seeds`) name its mode exactly.  But at 25 working digits the numbers next to
10³⁰⁰ are 10²⁷⁵ apart: the seed rounds to a point 10²⁷⁴ widths from the mode, the scan of
:func:`~rdpsym.quadrature.locate.locate` reads e^(−10⁵⁴⁸) there, and the piece's mass is the component at 0
alone.  The two laws' D_½ came out 1.504 for 0.118, their KL 0.462 for 0.231 (the recentring of
:mod:`rdpsym.quadrature.piece` is for a piece whose *main* mass is unresolved, and this one's is at 0).

:func:`hidden_hills` finds such seeds (far from 0, where the exact integrand about the seed falls by more than an e-fold
within 2^−(prec/4) of the seed's place on each side: a hill narrower than the working precision resolves there, not
a steep slope) and :func:`windows` gives each a window about it, integrated recentred at the
seed, in u = x − seed, where the hill is as resolved as any at 0; the piece itself is integrated with those windows
read as 0 (:func:`holed`), so that its ends, and the reads of whether it diverges there, stay as they were.  (Cut
into pieces instead, the cut's ends met the hill's steep tail, and the reads there refused the value.)
"""

from __future__ import annotations

import sympy as sp

from rdpsym.foundations.numbers import exact_rational
from rdpsym.quadrature.compile import to_mpf
from rdpsym.quadrature.integrands import LogForm, NumericLogForm
from rdpsym.quadrature.piece import RESOLUTION_BITS, resolved_width

#: The recentred piece reaches |seed|·2^−(prec/8) to either side: far beyond any hill narrower than the spacing
#: of the numbers at the seed (2^−prec of it), far inside the distance to the mass at 0.
_REACH_BITS = 8


def hidden_hills(pair, seeds, recentred, ctx) -> list:
    """The seeds (and finite ends) of ``pair``'s piece whose hill the working precision cannot resolve:
    [(seed, (g, log g's factor))], where ``recentred(pair, seed)`` gave the integrand about the seed.  Empty without
    ``recentred``.  A hill recentred numerically (:func:`numeric`) is integrated last, and only where it may matter
    beside the rest (:func:`negligible_beside`)."""
    if recentred is None:
        return []
    found = []
    ends = [e for e in (pair.lo, pair.hi) if e.is_finite]  # (a kink of |x − 10¹⁰⁰| is a piece's end, not a seed)
    for seed in [*seeds, *ends]:
        if not seed.is_real or seed.has(sp.CRootOf, sp.Float):  # (a centre must be exact: recentring substitutes it)
            continue
        at = to_mpf(seed, ctx)
        if not ctx.isfinite(at) or at == 0 or ctx.mag(at) <= ctx.prec // RESOLUTION_BITS:
            continue  # (a seed this close to 0 is resolved as any: the scan sees its hill)
        step = resolved_width(at, ctx)
        about = recentred(pair, seed)
        if about is None or not ctx.isfinite(about[1]):
            continue
        # A hill narrower than the numbers at its place resolve (piece.resolved_width, as piece._unresolved asks of
        # a mode): the exact integrand falls by more than an e-fold within that, on each side that lies in the piece
        # (the crossing of two components at 5·10²⁹⁹ is as unresolved, but a slope, not a hill).
        sides = [side for side, end in ((-1, pair.lo), (1, pair.hi)) if seed != end]
        if sides and all(_falls(about[0], side * step, ctx) for side in sides):
            found.append((seed, about))
    return found


def numeric(hill) -> bool:
    """Whether a hill's integrand was recentred numerically (a :class:`~rdpsym.quadrature.integrands.NumericLogForm`:
    SymPy could not write the substitution in time, or wrote a difference that cancels;
    :func:`~rdpsym.quadrature.recentring.shifted_log`)."""
    return isinstance(hill[1][0], NumericLogForm)


def negligible_beside(hill, lo, hi, total, ctx) -> bool:
    """Whether a numerically recentred ``hill``, its whole window (lo, hi) at the height of its peak, is below the
    piece's ``total`` (the rest and the other windows, integrated first) by more than the digits and bits a value keeps.

    Integrated, at thousands of bits, a normal component 10⁻¹¹⁰⁰ at −10¹⁰⁰⁰ took the definition past its time ceiling,
    where it adds e^(−1276) to a value of order 1.  Before there was a numeric form, such a hill was left out unread
    whatever its mass: a Cauchy share of ⅓ at 10³⁰⁰ among them (D_½ = 1.504 for 0.1178).  Weighed against the
    integrand's height at 0 instead of the rest's integral, a share of ½ at 10⁸⁰ beside N(0, 10⁻⁴⁴⁰) was left out
    (2.079 for 0.0693; a review): a narrow mass's height is no measure of its mass."""
    if not ctx.isfinite(total) or total == 0:
        return False
    width = to_mpf(hi, ctx) - to_mpf(lo, ctx)
    return hill[1][1] + ctx.log(width) < ctx.log(abs(total)) - (ctx.dps + 10) * ctx.ln10 - ctx.prec * ctx.ln2


def _falls(g, u, ctx, below=-1) -> bool:
    """Whether the recentred integrand ``g`` (1 at u = 0) is below e^``below`` at ``u``."""
    try:
        value = g.log_abs(u) if hasattr(g, "log_abs") else ctx.log(abs(g(u)))
    except (ArithmeticError, ValueError, TypeError):
        return False
    return bool(value < below) if value == value else False


def windows(pair, hills, ctx) -> list:
    """[(lo, hi, (seed, (g, log factor)))]: a window about each hidden hill, within ``pair``'s piece, the width of
    2^−(prec/8) of the seed's place to either side.  Hills whose windows would overlap share the first one's (its
    recentred integrand resolves the others: they are within that distance of its place)."""
    spans = []
    negligible = -(ctx.dps + 10) * ctx.ln10 - ctx.prec * ctx.ln2
    for seed, about in sorted(hills, key=lambda h: to_mpf(h[0], ctx)):
        at = to_mpf(seed, ctx)
        reach = ctx.ldexp(abs(at), -(ctx.prec // _REACH_BITS))
        edges = [side * reach for side, end in ((-1, pair.lo), (1, pair.hi)) if seed != end]
        if not all(_falls(about[0], u, ctx, below=negligible) for u in edges):
            continue  # a tail still there at the window's edges (a Cauchy hill's): a jump the quadrature would cross
        a, b = exact_rational(at - reach), exact_rational(at + reach)
        if pair.lo.is_finite:
            a = max(a, pair.lo)
        if pair.hi.is_finite:
            b = min(b, pair.hi)
        if spans and a <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(b, spans[-1][1]), spans[-1][2])
        elif a < b:
            spans.append((a, b, (seed, about)))
    return spans


def holed(integrand, spans, ctx):
    """``integrand`` read as 0 inside the windows ``spans`` (their integrals are taken recentred): the rest of the
    piece keeps its ends, so the reads of whether it diverges there are the ones it had.  The integrand at a window's
    edges is the hill's tail 2^(7·prec/8) of its widths out, and the rest's: negligible next to the piece's mass."""
    edges = [(to_mpf(a, ctx), to_mpf(b, ctx)) for a, b, _ in spans]

    def inside(t):
        return any(a < t < b for a, b in edges)

    if isinstance(integrand, LogForm):
        parts = integrand.parts
        return LogForm(lambda t: (ctx.ninf, 0) if inside(t) else parts(t), ctx)
    return lambda t: ctx.zero if inside(t) else integrand(t)


def holed_recentred(recentred, spans, ctx):
    """``recentred`` (:func:`~rdpsym.quadrature.integrate.integrate_pieces`) with the windows ``spans`` read as 0
    too: a piece recentred in search of its mass must not find the hills whose windows are integrated apart."""
    if recentred is None:
        return None

    def about(pair, centre):
        found = recentred(pair, centre)
        if found is None:
            return None
        g, log_at = found
        return holed(g, [(a - centre, b - centre, None) for a, b, _ in spans], ctx), log_at
    return about


__all__ = ["hidden_hills", "holed", "holed_recentred", "negligible_beside", "numeric", "windows"]
