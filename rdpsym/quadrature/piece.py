"""One smooth piece integrated: its mass located, recentred where the precision cannot resolve it, scaled.

:func:`_piece` is the stage between the pieces of a common refinement
(:func:`rdpsym.quadrature.integrate.integrate_pieces`, or a cell of a lattice,
:mod:`rdpsym.quadrature.cells`) and the quadrature proper: it locates the
integrand's mass (:func:`rdpsym.quadrature.locate.locate`); recentres the
integrand symbolically at an exact centre when the mass is narrower than the
working precision resolves at its place (:func:`_unresolved`, :func:`_imprecise`,
:func:`_centres`); asks whether the integral is +∞
(:func:`rdpsym.quadrature.divergent._diverges`); and integrates f/(peak·width),
an integral of order one, split where the mass lies
(:mod:`rdpsym.quadrature.splits`) and with its tails and singular ends
substituted (:mod:`rdpsym.quadrature.ends`).
"""

from __future__ import annotations

import sympy as sp

from rdpsym.foundations.errors import ConvergenceError
from rdpsym.foundations.numbers import exact_rational
from rdpsym.quadrature.compile import to_mpf
from rdpsym.quadrature.divergent import _diverges, _say
from rdpsym.quadrature.ends import _algebraic_tails, _interior_log_size, _quad_peak_at_end
from rdpsym.quadrature.integrands import LogForm, _guarded, _scaled
from rdpsym.quadrature.locate import Locus, locate, log_abs
from rdpsym.quadrature.splits import _settled_quad, _split_points

oo = sp.oo


#: Times a piece is integrated again about a better centre before the mass is declared unresolved.
_MAX_RECENTRING = 8


def _piece(pair, integrand, lo, hi, seeds, ctx, check_support, reflected, reasons, recentred, centre, log_centre,
           depth: int, end_integrable=None, density_modes=None, floor=None, interior=()):
    """∫ over one continuous piece (lo, hi), as (value, log factor): the integral of the original integrand is
    value·e^(log factor).  After a recentring at ``centre`` (an exact number), the integrand is f(centre + u)/
    f(centre) with log f(centre) = ``log_centre``, and the ends and seeds are in u.  ``end_integrable``: the exact
    verdict at a finite end (see :func:`~rdpsym.quadrature.divergent._diverges`), in the piece's own variable.
    ``density_modes()``: where P and Q have their modes, in x, for a quadrature that did not settle.  ``floor``:
    the log of a size below which the piece's integral is negligible (beside the windows cut out of it by
    :mod:`rdpsym.quadrature.hidden_hills`): such a piece, or one where nothing is seen, adds 0.  ``interior``: the
    ends (in the piece's variable) that are a window's, inside the integrand's piece, where it cannot diverge."""
    log_f = _guarded(integrand.log_abs, ctx) if isinstance(integrand, LogForm) else log_abs(integrand, ctx)
    where = locate(log_f, lo, hi, ctx, [to_mpf(t, ctx) for t in seeds])
    if floor is not None and (where.mode is None or where.log_size + log_centre < floor):
        return ctx.zero, ctx.zero
    if where.rising is not None:
        raise ConvergenceError(
            f"the integrand still grows at x = {ctx.nstr(where.rising, 8)}, "
            "the farthest point scanned: where its mass lies could not be found"
        )
    # Nothing seen, not even at the exact critical points: at 30 digits, x = 10³⁰⁰ and x = 10³⁰⁰ + 1 are one
    # number, and the KL integrand P·(log P − log Q) of N(10³⁰⁰, 1) vs N(10³⁰⁰ + 1, 1) is 0 at both.
    lost = where.mode is None and bool(seeds) and centre is None
    short = _too_short(lo, hi, ctx)
    if recentred is not None and (lost or short or (where.mode is not None and (_unresolved(where, ctx, lo, hi)
                                                                                or _imprecise(where, ctx)))):
        if depth >= _MAX_RECENTRING:
            # An end where the integral is +∞ makes it +∞ whatever its mass elsewhere: Kumaraswamy(2, 3) against
            # (2, 7/2) at α = 10⁶, ∝ x(1 − x²)^{2.5 − α/2} at x = 1, was refused here at 15 and 30 digits and +∞ at
            # 20, 25, 40 and 50 (a probe)
            why = _diverges(log_f, lo, hi, where, ctx, end_integrable, interior) if check_support else None
            if why is not None:
                _say(reasons, why)
                return ctx.inf, ctx.zero
            near = f" near x = {ctx.nstr(where.mode, 8)}" if where.mode is not None else ""
            raise ConvergenceError(
                f"the integrand's mass{near} is narrower than {_MAX_RECENTRING} recentrings at {ctx.dps} digits "
                "resolve")
        best = None
        for local in [lo] if short else _centres(where.mode, seeds, ctx, (lo, hi) if where.at_end else ()):
            absolute = local if centre is None else centre + local
            shifted = recentred(pair, absolute)
            if shifted is not None and (best is None or shifted[1] > best[2][1]):
                best = (local, absolute, shifted)
        if best is not None:
            local, absolute, (g, log_at) = best
            in_u = None if end_integrable is None else (lambda e, inward: end_integrable(e + local, inward))
            return _piece(pair, g, lo - local, hi - local, [t - local for t in seeds], ctx, check_support, None,
                          reasons, recentred, absolute, log_at, depth + 1, in_u, density_modes,
                          interior=tuple(e - local for e in interior))
    if check_support:
        why = _diverges(log_f, lo, hi, where, ctx, end_integrable, interior)
        if why is not None:
            _say(reasons, why)
            return ctx.inf, ctx.zero
    # mpmath's quadrature stops on an *absolute* error estimate (about 2^−prec), so
    # an integral of 10^−20 or of e^(10^23) would get too few or too many digits:
    # integrate f / (peak·width), whose integral is of order one, and scale back.
    shift = where.log_size
    if where.singular is not None:
        shift = max(shift, _interior_log_size(log_f, lo, hi, where, ctx))
    f = _scaled(integrand, shift, ctx, span=_span(where, lo, hi, ctx))
    if where.singular is not None:
        lo, hi, tails = _algebraic_tails(f, log_f, lo, hi, where, ctx)
        upper = ((lambda: _scaled(reflected(hi), shift, ctx, bounded=False)) if reflected is not None and hi is not oo
                 else None)
        # (at a lower end 0 the plain integrand is exact: 0 + u is u)
        lower = ((lambda: _scaled(reflected(lo, 1), shift, ctx, bounded=False))
                 if reflected is not None and lo is not -oo and lo != 0 else None)
        part = tails + _quad_peak_at_end(f, lo, hi, where, ctx, upper, _scaled(integrand, shift, ctx, bounded=False),
                                         lower)
    else:
        lo, hi, tails = _algebraic_tails(f, log_f, lo, hi, where, ctx)
        def marks():  # in the piece's variable: x, or u = x − centre after a recentring
            origin = ctx.zero if centre is None else to_mpf(centre, ctx)
            modes = density_modes() if density_modes else ()
            return [*(to_mpf(t, ctx) for t in seeds), *(m - origin for m in modes)]

        part = tails + _settled_quad(f, _split_points(where, lo, hi, ctx), where, ctx, marks)
    return (part * ctx.exp(shift) if shift else part), log_centre


def _span(where: Locus, lo: sp.Expr, hi: sp.Expr, ctx):
    """The longest stretch of x a node of this piece is weighed over: its length if finite, and as far as a far mass
    reaches from the mode (:func:`~rdpsym.quadrature.far_mass.far_mass`; the piece is split every few decades out
    there); None where neither is known (an infinite piece's tails are substituted)."""
    lengths = [r for r in where.reach if r is not None]
    if lo not in (oo, -oo) and hi not in (oo, -oo):
        lengths.append(to_mpf(hi, ctx) - to_mpf(lo, ctx))
    return max(lengths) if lengths else None


#: A width below 2^−(prec/RESOLUTION_BITS) of its place is not resolved there (see :func:`resolved_width`).
RESOLUTION_BITS = 4


def resolved_width(place, ctx):
    """The narrowest width the working precision resolves at ``place`` (an mpf): 2^(−prec/4) of |place|, where nodes
    u from ``place`` keep three quarters of the working digits of u.  Narrower mass or pieces there are integrated
    recentred (:func:`_unresolved`, :func:`_too_short`, :mod:`rdpsym.quadrature.hidden_hills`)."""
    return ctx.ldexp(abs(place), -(ctx.prec // RESOLUTION_BITS))


def _too_short(lo: sp.Expr, hi: sp.Expr, ctx) -> bool:
    """Whether a finite piece is shorter than 2^(−prec/4) of its distance from 0: its nodes lose a quarter of the
    working digits or more, and past 2^−prec its ends are one number.  ⅔N(0, 1) + ⅓U(10³⁰⁰, 10³⁰⁰ + 1) against ⅓/⅔:
    the piece [10³⁰⁰, 10³⁰⁰ + 1] had no width at 26 digits and added 0: the KL 0.462 for 0.231.  Integrated recentred
    at its lower end, u = x − lo runs over [0, hi − lo] exactly."""
    if lo in (oo, -oo) or hi in (oo, -oo) or lo == 0:
        return False
    return to_mpf(hi - lo, ctx) < resolved_width(max(abs(to_mpf(lo, ctx)), abs(to_mpf(hi, ctx))), ctx)


def _unresolved(where: Locus, ctx, lo: sp.Expr, hi: sp.Expr) -> bool:
    """Whether the mass sits at a place the working precision resolves it poorly at: its e-fold width is
    below 2^(−prec/4) of |mode| (a Gaussian of σ = 10⁻³⁰⁰ at x = −1, resolved to 10⁻⁶⁰ at 60 digits), so that
    quadrature nodes around it lose a quarter of the working digits or more.  (It was 2^(30 − prec), nodes that
    are the mode itself; but nodes 1 + u with u ~ 10⁻⁴⁰ keep 12 of u's digits at 40, the integrand is noise from
    the 12th, and tanh-sinh ran each interval to its largest degree: a Laplace pair of scale 10⁻⁴⁰, whose mass sits
    at x = 1 on the piece (1, ∞), took 2.5 s at 40 digits, 0.4 s recentred there.)"""
    if where.mode is None or where.singular is not None:
        return False
    place = where.mode
    if where.at_end:  # the mass is at a finite end: its place is the end's
        ends = [to_mpf(e, ctx) for e in (lo, hi) if e not in (oo, -oo)]
        place = min(ends, key=lambda e: abs(e - where.mode)) if ends else place
    if place == 0:
        return False
    return where.scale < resolved_width(place, ctx)


def _imprecise(where: Locus, ctx) -> bool:
    """Whether log|f| at the mode is so large that its rounding (about 10^−dps of it) exceeds 10⁻³: the
    terms of α·log P + (1 − α)·log Q at σ = 10⁻⁴⁰ are ~10⁸⁰ and cancel to ~1 over the width of the
    mass, so at 60 digits the scan cannot even tell where the mass is; recentred symbolically, the
    logarithm is 0 at the centre and exact around it."""
    return ctx.isfinite(where.peak) and abs(where.peak) * ctx.ldexp(1, -ctx.prec) > ctx.mpf(10) ** -3


def _centres(mode, seeds, ctx, ends=()) -> list:
    """Exact centres to recentre at: a finite end of the piece the mode is at, else the seeds (exact
    critical points; the best is chosen by the value there), else the mode's binary value as a rational."""
    near = [e for e in ends if e not in (oo, -oo)]
    if near and mode is not None:
        return [min(near, key=lambda e: abs(to_mpf(e, ctx) - mode))]
    exact = []
    for t in seeds[:_MAX_HILLS_CENTRED]:
        if t.has(sp.CRootOf):
            t = t.xreplace({r: r.eval_rational(n=2 * ctx.dps + 20) for r in t.atoms(sp.CRootOf)})
        exact.append(t)
    if exact or mode is None:
        return exact
    return [exact_rational(ctx.convert(mode))]


#: Seeds tried as centres of a recentring.
_MAX_HILLS_CENTRED = 8
