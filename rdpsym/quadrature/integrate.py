"""Piecewise integration of an integrand (or summation, for a pmf) over the pieces of a pair.

Quadrature splits at every non-smooth point (the pieces handed in), at each
mode, at the valleys between modes and where each mode's mass ends
(:func:`~rdpsym.quadrature.locate.locate`); power-law tails are integrated by
substitution, an end where the integrand is singular by a change of variable
that makes it bounded, and a divergent integral is recognised as +∞ by its
power law (or exactly, by its logarithm's leading coefficient) rather than
inferred from a failure to converge.

Everything runs with the mpmath context ``ctx`` handed in (a private one) and at
its precision; nothing here changes it, and the global ``mpmath.mp`` is not used.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable

import sympy as sp

from rdpsym.foundations.budget import time_budget
from rdpsym.foundations.errors import ConvergenceError, NoClosedFormError
from rdpsym.foundations.precision import sympy_evalf_guard
from rdpsym.quadrature.compile import compile_expr, log_expression, to_mpf
from rdpsym.quadrature.locate import Locus, critical_seeds, locate, log_abs, mixture_components
from rdpsym.quadrature.series import largest_terms, sum_range

oo = sp.oo


class LogForm:
    """An integrand given by its logarithm: ``parts(t)`` is (log|f(t)|, sign of f(t)).

    Far from their mass, integrands such as exp(−e^(−x)) (Gumbel-type
    log-densities) take values like e^(−10^(4·10⁶)): as an mpf that is an
    exponent with millions of digits, and a scan or a quadrature node out there
    would run (nearly) forever.  Given as a logarithm, the search for the mass
    works on log|f| (cheap anywhere), and the quadrature evaluates
    f/(peak·width) as sign·exp(log|f| − log(peak·width)), and as exactly 0 where
    that exponent is below −(dps + 30)·ln 10 − 700: there the integrand is under
    10⁻³⁰⁴·10^(−dps−30) of the piece's integral per unit width, below anything the
    value can show (the truncation numerics.md asks for, at a level that bounds it).
    """

    __slots__ = ("ctx", "parts")

    def __init__(self, parts: Callable, ctx):
        self.parts = parts
        self.ctx = ctx

    def log_abs(self, t):
        return self.parts(t)[0]

    def __call__(self, t):
        log_value, sign = self.parts(t)
        if sign == 0 or log_value == self.ctx.ninf:
            return self.ctx.zero
        return sign * self.ctx.exp(log_value)


def integrate_pieces(pairs: Iterable, var: sp.Symbol, integrand: Callable, ctx, *, discrete: bool,
                     order: sp.Expr | None = None, check_support: bool = False,
                     reflected: Callable[[sp.Expr], Callable] | None = None, reasons: list | None = None,
                     recentred: Callable | None = None):
    """∫ integrand (Σ for a pmf) over the pieces of ``pairs`` where the branch ``p`` is nonzero.

    ``pairs`` are the pieces of a common refinement with both branches on each
    (records with ``lo``, ``hi``, ``p``, ``q``, such as the numeric routes'
    :class:`rdpsym.quadrature.regions.Region`): the branches' critical points seed the search for the integrand's
    modes, at ``order`` α (the integrand being p^α q^(1−α), or p·log(p/q) at α = 1).
    The integrand is a function of t or a :class:`LogForm`.  With
    ``check_support``, a piece where p > 0 = q, or where the integral diverges,
    makes the result +∞ (and the reason is appended to ``reasons``, if given).
    ``reflected(e)``, if given, is the integrand as a function of e − t, used near
    a singular upper end e (where 1 − (1 − u) would lose u).  ``recentred(pair, c)``,
    if given, is the integrand in u = x − c as (a LogForm of f(c + u)/f(c), log f(c)),
    built symbolically, or None: used where the mass is narrower than the working
    precision resolves at its place (see :func:`_unresolved`).

    A piece flagged with a ``lattice`` (:class:`rdpsym.quadrature.regions.Lattice`: the jumps of a
    floor, ceiling or frac of a·x + b, a step 1/|a| apart, infinitely many on an infinite piece) is
    integrated cell by cell, each cell a smooth piece with its floors' values substituted, and summed
    block by block (one period of the jumps a term) by :func:`~rdpsym.quadrature.series.sum_range`,
    outward from its largest block until the blocks are negligible (:func:`_lattice_integral`).  A piece
    flagged ``cell`` is one such cell: the integrand is read only strictly inside it (its ends are jumps).
    """
    total = ctx.mpf(0)
    for pair in pairs:
        lo, hi, bp, bq = pair.lo, pair.hi, pair.p, pair.q
        if bp == 0:
            continue
        if bq == 0:
            if check_support:
                _say(reasons, f"P > 0 = Q on ({lo}, {hi})")
                return ctx.inf
            continue
        if getattr(pair, "lattice", None) is not None and not discrete:
            value = _lattice_integral(pair, var, integrand, ctx, order, check_support, reasons, recentred)
            if value == ctx.inf:
                return value
            total += value
            continue
        if getattr(pair, "cell", False) and not discrete:
            found = _cell_integral(pair, var, integrand, ctx, order, check_support, reasons, recentred)
            if found is None:
                return ctx.inf
            value, log_factor = found
            total += value * ctx.exp(log_factor) if log_factor else value
            continue
        if discrete:
            value = sum_range(integrand, lo, hi, ctx, _component_peaks(bp, bq, var, lo, hi, ctx))
            if value == ctx.inf:
                _say(reasons, f"the terms do not tend to 0 on [{lo}, {hi}]")
            total += value
            continue
        if check_support and _diverges_exactly(bp, bq, var, order, lo, hi):
            _say(reasons, f"the integrand's logarithm (a polynomial) does not tend to −∞ toward an infinite end "
                          f"of ({lo}, {hi})")
            return ctx.inf
        seeds = critical_seeds(bp, bq, var, order, lo, hi)
        try:
            value, log_factor = _piece(pair, integrand, lo, hi, seeds, ctx, check_support, reflected, reasons,
                                       recentred, None, ctx.zero, 0)
        except (ConvergenceError, OverflowError) as exc:
            # Where the mass could not be found, the integral may be +∞ faster than any scan can follow
            # (Gumbel laws at α = 2 grow like exp(0.7·e^(−x))): the limit of its logarithm decides.
            why = _diverges_by_limit(bp, bq, var, order, lo, hi) if check_support else None
            if not why:
                if isinstance(exc, OverflowError):
                    raise ConvergenceError(f"the integrand overflows ({exc}): where its mass lies could not be "
                                           "found") from exc
                raise
            _say(reasons, why)
            return ctx.inf
        if value == ctx.inf:
            return value
        total += value * ctx.exp(log_factor) if log_factor else value
    return total


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


#: Times a piece is integrated again about a better centre before the mass is declared unresolved.
_MAX_RECENTRING = 8


def _piece(pair, integrand, lo, hi, seeds, ctx, check_support, reflected, reasons, recentred, centre, log_centre,
           depth: int):
    """∫ over one continuous piece (lo, hi), as (value, log factor): the integral of the original integrand is
    value·e^(log factor).  After a recentring at ``centre`` (an exact number), the integrand is f(centre + u)/
    f(centre) with log f(centre) = ``log_centre``, and the ends and seeds are in u."""
    log_f = _guarded(integrand.log_abs, ctx) if isinstance(integrand, LogForm) else log_abs(integrand, ctx)
    where = locate(log_f, lo, hi, ctx, [to_mpf(t, ctx) for t in seeds])
    if where.rising is not None:
        raise ConvergenceError(
            f"the integrand still grows at x = {ctx.nstr(where.rising, 8)}, "
            "the farthest point scanned: where its mass lies could not be found"
        )
    # Nothing seen, not even at the exact critical points: at 30 digits, x = 10³⁰⁰ and x = 10³⁰⁰ + 1 are one
    # number, and the KL integrand P·(log P − log Q) of N(10³⁰⁰, 1) vs N(10³⁰⁰ + 1, 1) is 0 at both.
    lost = where.mode is None and bool(seeds) and centre is None
    if recentred is not None and (lost or (where.mode is not None and (_unresolved(where, ctx, lo, hi)
                                                                       or _imprecise(where, ctx)))):
        if depth >= _MAX_RECENTRING:
            near = f" near x = {ctx.nstr(where.mode, 8)}" if where.mode is not None else ""
            raise ConvergenceError(
                f"the integrand's mass{near} is narrower than {_MAX_RECENTRING} recentrings at {ctx.dps} digits "
                "resolve")
        best = None
        for local in _centres(where.mode, seeds, ctx, (lo, hi) if where.at_end else ()):
            absolute = local if centre is None else centre + local
            shifted = recentred(pair, absolute)
            if shifted is not None and (best is None or shifted[1] > best[2][1]):
                best = (local, absolute, shifted)
        if best is not None:
            local, absolute, (g, log_at) = best
            return _piece(pair, g, lo - local, hi - local, [t - local for t in seeds], ctx, check_support, None,
                          reasons, recentred, absolute, log_at, depth + 1)
    if check_support:
        why = _diverges(log_f, lo, hi, where, ctx)
        if why is not None:
            _say(reasons, why)
            return ctx.inf, ctx.zero
    # mpmath's quadrature stops on an *absolute* error estimate (about 2^−prec), so
    # an integral of 10^−20 or of e^(10^23) would get too few or too many digits:
    # integrate f / (peak·width), whose integral is of order one, and scale back.
    shift = where.log_size
    if where.singular is not None:
        shift = max(shift, _interior_log_size(log_f, lo, hi, where, ctx))
    f = _scaled(integrand, shift, ctx)
    if where.singular is not None:
        lo, hi, tails = _algebraic_tails(f, log_f, lo, hi, where, ctx)
        upper = ((lambda: _scaled(reflected(hi), shift, ctx)) if reflected is not None and hi is not oo else None)
        part = tails + _quad_peak_at_end(f, lo, hi, where, ctx, upper)
    else:
        lo, hi, tails = _algebraic_tails(f, log_f, lo, hi, where, ctx)
        part = tails + _settled_quad(f, _split_points(where, lo, hi, ctx), where, ctx)
    return (part * ctx.exp(shift) if shift else part), log_centre


def _interior_log_size(log_f, lo: sp.Expr, hi: sp.Expr, where: Locus, ctx):
    """log(|f|·length) at points inside a piece whose integrand is singular at an end: the peak × e-fold width
    read there is far too small for a weak singularity (−log x·log(−log x) at x → 0, scanned to 10⁻¹⁰⁰⁰, gave
    e^{−1150}), and the integrand in the middle then looked like mass the scan had missed."""
    a, b = (to_mpf(e, ctx) if e not in (oo, -oo) else None for e in (lo, hi))
    if a is not None and b is not None:
        points, length = [a + (b - a) * k / 8 for k in (1, 2, 4, 6, 7)], b - a
    else:
        e, sign = (a, 1) if a is not None else (b, -1)
        length = where.lengths[0 if sign > 0 else 1] or 1 + abs(e)
        points = [e + sign * length * k for k in (ctx.mpf(1) / 4, 1, 4)]
    sizes = [v for v in (log_f(t) for t in points) if ctx.isfinite(v)]
    return max(sizes) + ctx.log(length) if sizes else ctx.ninf


def _unresolved(where: Locus, ctx, lo: sp.Expr, hi: sp.Expr) -> bool:
    """Whether the mass sits at a place the working precision cannot resolve it at: its e-fold width is
    below 2^(30 − prec) of |mode| (a Gaussian of σ = 10⁻³⁰⁰ at x = −1, resolved to 10⁻⁶⁰ at 60 digits),
    so that quadrature nodes around it would be the mode itself."""
    if where.mode is None or where.singular is not None:
        return False
    place = where.mode
    if where.at_end:  # the mass is at a finite end: its place is the end's
        ends = [to_mpf(e, ctx) for e in (lo, hi) if e not in (oo, -oo)]
        place = min(ends, key=lambda e: abs(e - where.mode)) if ends else place
    if place == 0:
        return False
    return where.scale < ctx.ldexp(abs(place), 30 - ctx.prec)


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
    man, exp = ctx.convert(mode).man_exp
    return [sp.Integer(int(man)) * sp.Rational(2) ** int(exp)]


#: Seeds tried as centres of a recentring.
_MAX_HILLS_CENTRED = 8


def _guarded(log_f, ctx):
    """log_f with evaluation errors and non-real values read as −∞ (no mass there)."""
    def h(t):
        try:
            v = log_f(t)
        except (ZeroDivisionError, ValueError, OverflowError, TypeError):
            return ctx.ninf
        return v if isinstance(v, ctx.mpf) else ctx.ninf
    return h


def _say(reasons: list | None, why: str) -> None:
    if reasons is not None:
        reasons.append(why)


#: Below this many e-folds under the piece's integral (beyond its dps + 30 digits), an integrand is 0.
_CUTOFF_EFOLDS = 700


def _scaled(integrand, shift, ctx):
    """t -> integrand(t)·e^(−shift); for a :class:`LogForm`, without ever forming a value far below the piece's
    integral (exactly 0 there)."""
    if isinstance(integrand, LogForm):
        parts = integrand.parts
        cutoff = -(ctx.dps + 30) * ctx.ln10 - _CUTOFF_EFOLDS

        ceiling = -cutoff

        def f(t):
            log_value, sign = parts(t)
            if not isinstance(log_value, ctx.mpf):
                # A log-density that is not real at a node (a log-normal's log(x − m) just below its end m, where
                # rounding put the node): the integral at this precision cannot be trusted.
                raise ConvergenceError(f"the integrand is not a real number at x = {ctx.nstr(t, 8)}: {log_value}")
            d = log_value - shift
            if sign == 0 or not d > cutoff:
                return ctx.zero
            if d > ceiling:
                raise ConvergenceError(
                    f"the integrand is e^{ctx.nstr(d, 5)} times its largest value found, at x = {ctx.nstr(t, 8)}: "
                    "where its mass lies could not be found")
            return sign * ctx.exp(d)
        return f
    if not shift:
        return integrand
    inv = ctx.exp(-shift)
    return lambda t: integrand(t) * inv


@functools.lru_cache(maxsize=1024)
def _diverges_exactly(p: sp.Expr, q: sp.Expr, var: sp.Symbol, order: sp.Expr | None, lo: sp.Expr, hi: sp.Expr) -> bool:
    """Whether ∫ p^α q^(1−α) over (lo, hi) is +∞ by its logarithm, a polynomial in the
    variable that does not tend to −∞ toward an infinite end (False when undecided).

    Exact where numbers cannot be: N(1, 2²) vs N(0, 1) at α = 4/3 has a log-integrand
    whose x² coefficient −α/8 + (α − 1)/2 is exactly 0, so it grows like x/3; at any
    finite precision the rounded coefficient is ±10^−wp, and a scan far enough out
    would see a false maximum (at 10²² with 20 digits) instead of the divergence.
    """
    if order is None or order == 1 or order is oo or (lo is not -oo and hi is not oo):
        return False
    with sympy_evalf_guard():
        return _log_polynomial_diverges(p, q, var, order, lo, hi)


def _log_polynomial_diverges(p, q, var, order, lo, hi) -> bool:
    try:
        L = sp.expand(order * sp.expand_log(sp.log(p), force=True) + (1 - order) * sp.expand_log(sp.log(q), force=True))
        poly = sp.Poly(L, var)
        if any(c.has(var) for c in poly.coeffs()):
            return False
        for end, sign in ((hi, 1), (lo, -1)):
            if end not in (oo, -oo):
                continue
            for k in range(poly.degree(), 0, -1):
                c = poly.coeff_monomial(var**k)
                if c.is_zero is None:
                    return False
                if c.is_zero:
                    continue
                toward = c * sign**k
                if toward.is_positive:
                    return True  # log f → +∞
                if toward.is_negative:
                    break  # log f → −∞ on this side
                return False
            else:
                return True  # log f constant: a nonzero constant integrand on an infinite piece
    except (sp.PolynomialError, sp.GeneratorsNeeded, NotImplementedError, TypeError, ValueError):
        return False
    return False


@functools.lru_cache(maxsize=1024)
def _component_peaks(bp: sp.Expr, bq: sp.Expr, var: sp.Symbol, lo: sp.Expr, hi: sp.Expr, ctx) -> tuple[int, ...]:
    """The largest terms of each mixture component of two pmfs on [lo, hi], where either is a sum: where a
    group of the integrand's terms may hide that neither the summation's scan nor its slope shows (a narrow
    Poisson(3000) component under a geometric one's slow tail).  A component whose logarithm cannot be
    compiled or evaluated gives none."""
    peaks: list[int] = []
    for component in {*mixture_components(bp, var), *mixture_components(bq, var)}:
        try:
            log_term = compile_expr(log_expression(component), var, ctx)
        except (TypeError, ValueError, NotImplementedError, NameError, KeyError):
            continue

        def log_size(k, log_term=log_term):
            try:
                v = log_term(ctx.mpf(k))
            except (TypeError, ValueError, ZeroDivisionError, OverflowError):
                return ctx.ninf
            return ctx.re(v) if ctx.isfinite(v) else ctx.ninf

        peaks += largest_terms(log_size, lo, hi)
    return tuple(dict.fromkeys(peaks))


def _diverges_by_limit(p: sp.Expr, q: sp.Expr, var: sp.Symbol, order: sp.Expr | None, lo: sp.Expr,
                       hi: sp.Expr) -> str | None:
    """Why ∫ p^α q^(1−α) over (lo, hi) is +∞ by the limit of its logarithm at an infinite end, or None.

    If α·log p + (1 − α)·log q tends to +∞ or to a finite value toward an infinite end,
    the integrand does not vanish there and the integral is +∞: e^(−αx − αe^(−x)) ×
    e^((α−1)(x − 1) + (α−1)e^(1−x)) (Gumbel laws at α = 2) grows like e^(0.7·e^(−x)) as
    x → −∞, faster than any scan could follow.  SymPy's limit, within a time budget;
    None when it cannot tell.
    """
    if order is None or order == 1 or order is oo or (lo is not -oo and hi is not oo):
        return None
    with sympy_evalf_guard(), time_budget(2.0, "the limit of the integrand", absorb=True):
        L = order * sp.expand_log(sp.log(p), force=True) + (1 - order) * sp.expand_log(sp.log(q), force=True)
        for end in (e for e in (lo, hi) if e in (oo, -oo)):
            try:
                limit = sp.limit(L, var, end)
            except (NotImplementedError, ValueError, TypeError, RecursionError, sp.PolynomialError,
                    OverflowError, NoClosedFormError):  # (SymPy's heuristic gcd at a scale of 10³⁰ overflows)
                continue
            if limit is oo or (limit.is_extended_real and limit.is_finite):
                return f"the integrand's logarithm tends to {limit} as {var} → {end}: it does not vanish there"
    return None


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


def _algebraic_tails(f, log_f, lo: sp.Expr, hi: sp.Expr, where: Locus, ctx):
    """Integrate power-law tails by substitution; return the remaining finite piece.

    Tanh-sinh stalls near 17 digits on tails like x^(−3) (shared/notes,
    numerics.md).  Where f decays like |x|^c (−60 < c < −1) toward an infinite
    end, the tail beyond R = B ± D, D = s·10^j (B the other end, or the mode;
    s the power of ten nearest :meth:`Locus.far`; j the first decade where f
    is below 10^−6 of its size at B ± s) is ∫_0^1 f(B ± D/u²)·2D/u³ du, whose
    integrand behaves like u^(−2c−3): smooth.  (``log_f`` is log|f| up to a constant.)
    """
    tails = ctx.mpf(0)
    for end, sign in ((hi, 1), (lo, -1)):
        if end not in (oo, -oo) or _power_exponent(log_f, sign, where, ctx) is None:
            continue
        other = lo if sign > 0 else hi
        unit = sp.Integer(10) ** int(ctx.nint(ctx.log10(where.far(sign))))
        if other in (oo, -oo):
            base = (sp.Integer(int(ctx.nint(where.mode / to_mpf(unit, ctx)))) * unit
                    if where.mode is not None else sp.S.Zero)
        else:
            base = other
        B, s = to_mpf(base, ctx), to_mpf(unit, ctx)
        with ctx.workdps(20):
            small = log_f(B + sign * s) - 6 * ctx.ln10
            j = next((j for j in range(1, 30) if log_f(B + sign * s * ctx.mpf(10) ** j) < small), 30)
        D = unit * sp.Integer(10) ** j
        beyond = [sign * (t - B) for t in where.others if sign * (t - B) > 0]
        while beyond and to_mpf(D, ctx) <= max(beyond):  # the other modes stay in the finite part
            D *= 10
        Dm = to_mpf(D, ctx)

        def substituted(u, B=B, sign=sign, Dm=Dm):
            return f(B + sign * Dm / u**2) * 2 * Dm / u**3 if u else ctx.mpf(0)

        tails += ctx.quad(substituted, [0, 1])
        if sign > 0:
            hi = base + D
        else:
            lo = base - D
    return lo, hi, tails


def _power_exponent(log_f, sign: int, where: Locus, ctx):
    """c when f behaves like |t − mode|^c far out (−60 < c < −1), else None.

    Read at 10⁷ and 10⁸ times :meth:`Locus.far` from the mode.
    """
    base = where.mode if where.mode is not None else ctx.mpf(0)
    with ctx.workdps(30):
        try:
            l1, l2 = (log_f(base + sign * where.far(sign) * ctx.mpf(10) ** j) for j in (7, 8))
        except (ZeroDivisionError, ValueError, OverflowError):
            return None
        if not (isinstance(l1, ctx.mpf) and isinstance(l2, ctx.mpf)) or not (ctx.isfinite(l1) and ctx.isfinite(l2)):
            return None
        c = (l2 - l1) / ctx.ln10
    return c if -60 < c < -1 else None


#: CPU seconds one read of the integrand far in a tail may take (else the read is not made).
_PROBE_SECONDS = 1.0
#: A power-law exponent read this close to −1 is −1 (divergent at either kind of end).
_BORDERLINE = 1e-6


def _diverges(log_f, lo: sp.Expr, hi: sp.Expr, where: Locus, ctx) -> str | None:
    """Why ∫ f over (lo, hi) is +∞ by the integrand's power law at an end, or None.

    Toward an infinite end, f ~ t^c is integrable iff c < −1; toward a finite
    end e, f ~ |t − e|^c is integrable iff c > −1.  The exponent c is read
    from log|f| at 10⁷ and 10⁸ times :meth:`Locus.far` from the mode (or at distances 10⁻¹²
    and 10⁻¹⁶ of the end's length scale from e).  A divergent integral has no
    settled quadrature value, so without this test "∞" could only be inferred
    from a failure to converge.
    """
    def at(t):
        value = None
        # Bounded: far out, an integrand in a new variable can be exp(−10³⁰·e^t), whose value at t = 10¹³⁵
        # mpmath would reduce modulo log 2 to 10¹³⁵ bits.
        with time_budget(_PROBE_SECONDS, "a probe of the integrand's tail", absorb=True):
            try:
                v = log_f(t)
            except (ZeroDivisionError, ValueError, OverflowError):
                v = None
            value = v if isinstance(v, ctx.mpf) and ctx.isfinite(v) else None
        return value

    def exponent_at(end, sign, length, shift):
        """The power-law exponent of f read at two distances from ``end``, ``shift`` decades beyond the first."""
        if end in (oo, -oo):
            base = where.mode if where.mode is not None else ctx.mpf(0)
            d1, d2 = (where.far(sign) * ctx.mpf(10) ** (j + shift) for j in (7, 8))
            t1, t2 = base + sign * d1, base + sign * d2
        else:
            base = to_mpf(end, ctx)
            d1, d2 = (ctx.mpf(10) ** -(j + shift) * length for j in (12, 16))
            t1, t2 = base - sign * d1, base - sign * d2
        l1, l2 = at(t1), at(t2)
        if l1 is None or l2 is None:
            return None
        return (l2 - l1) / (ctx.log(d2) - ctx.log(d1))

    def integrable(c, infinite: bool) -> bool:
        # An exponent read within _BORDERLINE of −1 is −1 (1/x at 0: log-divergent); the reads carry corrections
        # like (1 − x)⁴ ≈ 1 − 4·10⁻¹², on either side of −1.
        return c < -1 - _BORDERLINE if infinite else c > -1 + _BORDERLINE

    with ctx.workdps(max(30, ctx.dps)):
        for end, sign, length in ((lo, -1, where.lengths[0]), (hi, 1, where.lengths[1])):
            infinite = end in (oo, -oo)
            exponent = exponent_at(end, sign, length, 0)
            if exponent is None or integrable(exponent, infinite):
                continue
            # Confirmed farther out (closer in, at a finite end): the mode and its width are read from the
            # integrand's largest component, and a mixture with one 10³⁰ times narrower than another (at 10⁻²³,
            # inside the wide one's mass, the integrand is flat) is not yet in its tail there.  A power law keeps
            # its exponent at every scale; a tail that is not one shows it decades on.  Divergence is said only
            # if the first two farther reads can be made and confirm it.
            farther = []
            for shift in (8, 16, 32, 64, 128):
                c = exponent_at(end, sign, length, shift)
                if c is None:
                    break
                farther.append(c)
            if len(farther) < 2 or any(integrable(c, infinite) for c in farther):
                continue
            shown = ctx.nstr(exponent, 3)
            if infinite:
                return f"the integrand decays like |x|^{shown} toward {end}, too slowly to be integrable"
            return f"the integrand grows like |x − {end}|^{shown} at {end}, too fast to be integrable"
    return None


def _quad_peak_at_end(f, lo: sp.Expr, hi: sp.Expr, where: Locus, ctx, reflected=None):
    """Quadrature when the integrand is singular, like |t − e|^c with −1 < c < 0, at an end e (or at both).

    Tanh-sinh nodes next to an end are stored as mpf's close to ±1, so their
    distance to the end carries only the working precision in absolute terms,
    and the result keeps about (1 + c)·dps digits.  Substituting
    t = e ± u^m with m = ⌈1/(1 + c)⌉ makes the integrand f(e ± u^m)·m·u^(m−1)
    bounded near u = 0, where those node errors then cost nothing.  At an
    upper end the integrand is used ``reflected`` (a function returning it as a
    function of e − t, substituted symbolically), since 1 − (1 − u^m) would lose u^m.
    The other end, when finite, is probed too: the arcsine density 1/(π√(x(1 − x)))
    is singular at both, and a plain quadrature of the far half met a node that
    rounded onto 1 (its value e^{+∞}: the divergence was refused at every order).
    """
    a, b = to_mpf(lo, ctx), to_mpf(hi, ctx)

    def low(y):
        t = a + y
        # A node u^m below the working precision rounds onto the end itself, where the density may be
        # infinite (0^(−1/2): a ZeroDivisionError, fuzz seed 16 case 60); its tanh-sinh weight is
        # negligible, and the substituted integrand is bounded there: the node counts 0.
        return f(t) if t != a else ctx.zero

    def high_plain(y):
        t = b - y
        return f(t) if t != b else ctx.zero

    def high():
        return reflected() if reflected is not None else high_plain

    ends = [(a, 1, low, where.lengths[0])] if where.singular.low else [(b, -1, high(), where.lengths[1])]
    if where.singular.low and ctx.isfinite(b) and _end_exponent(high_plain, b - a, ctx) < 0:
        ends.append((b, -1, high(), where.lengths[1]))
    elif not where.singular.low and ctx.isfinite(a) and _end_exponent(low, b - a, ctx) < 0:
        ends.append((a, 1, low, where.lengths[0]))
    both = len(ends) == 2
    total, inner_lo, inner_hi = ctx.zero, a, b
    for e, sign, g, length in ends:
        length = length or 1 + abs(e)
        other = b if sign > 0 else a
        width = (b - a) / 4 if both else (length if not ctx.isfinite(other) else abs(other - e) / 2)
        c = _end_exponent(g, length, ctx)
        m = int(min(1000, max(1, ctx.ceil(1 / (1 + c))))) if c > -1 else 1
        total += ctx.quad(lambda u, g=g, m=m: g(u**m) * m * u ** (m - 1), [0, ctx.root(width, m)])
        if sign > 0:
            inner_lo = e + width
        else:
            inner_hi = e - width
    # The rest still gets the split points: the mass may peak far from the singular ends.
    inner = {t for t in (where.left, None if where.at_end else where.mode, where.right, *where.others)
             if t is not None and inner_lo < t < inner_hi}
    return total + _settled_quad(f, [inner_lo, *sorted(inner), inner_hi], where, ctx)


def _end_exponent(g, length, ctx):
    """The power c of the distance y to an end that g(y) behaves like there (read at y = 10⁻¹² and 10⁻¹⁶ of
    ``length``); 0 where g cannot be read there."""
    with ctx.workdps(30):
        try:
            near = [ctx.log(abs(g(ctx.mpf(10) ** -j * (length or 1)))) for j in (12, 16)]
        except (ValueError, ZeroDivisionError, OverflowError, ConvergenceError):
            return ctx.zero
        if not all(ctx.isfinite(v) for v in near):
            return ctx.zero
        return (near[1] - near[0]) / (-4 * ctx.ln10)
