"""Piecewise integration of an integrand (or summation, for a pmf) over the pieces of a pair.

Quadrature splits at every non-smooth point (the pieces handed in), at each
mode, at the valleys between modes and where each mode's mass ends
(:func:`~rdpsym.quadrature.locate.locate`); power-law tails are integrated by
substitution, an end where the integrand is singular by a change of variable
that makes it bounded, and a divergent integral is recognised as +∞ by its
power law (or exactly, by its logarithm's leading coefficient) rather than
inferred from a failure to converge.

This module is the entry point, :func:`integrate_pieces`, which hands each piece
to its stage:

- :mod:`.integrands`: the integrand as it is read (:class:`~rdpsym.quadrature.integrands.LogForm`, scaled);
- :mod:`.divergent`: whether a piece's integral is +∞, and why;
- :mod:`.piece`: one smooth piece (locate its mass, recentre, scale, integrate), with
  :mod:`.splits` (where it is cut) and :mod:`.ends` (tails and singular ends);
- :mod:`.cells`: a lattice of cells between the jumps of floors, summed block by block;
- :mod:`.series`: a pmf's terms summed outward from the largest (seeded here by
  :func:`_component_peaks`).

Everything runs with the mpmath context ``ctx`` handed in (a private one) and at
its precision; nothing here changes it, and the global ``mpmath.mp`` is not used.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import replace

import sympy as sp

from rdpsym.foundations.errors import ConvergenceError
from rdpsym.quadrature.cells import _cell_integral, _lattice_integral
from rdpsym.quadrature.compile import compile_expr, log_expression, to_mpf
from rdpsym.quadrature.divergent import (
    _diverges_by_limit,
    _diverges_exactly,
    _outcome_only_p_has,
    _say,
    _series_diverges_by_limit,
    integrable_at_end,
)
from rdpsym.quadrature.hidden_hills import (
    hidden_hills,
    holed,
    holed_recentred,
    negligible_beside,
    numeric,
    windows,
)
from rdpsym.quadrature.locate import locate, log_abs
from rdpsym.quadrature.piece import _piece
from rdpsym.quadrature.seeds import critical_seeds, mixture_components
from rdpsym.quadrature.series import largest_terms, sum_range

oo = sp.oo


def integrate_pieces(pairs: Iterable, var: sp.Symbol, integrand: Callable, ctx, *, discrete: bool,
                     order: sp.Expr | None = None, check_support: bool = False,
                     reflected: Callable[[sp.Expr], Callable] | None = None, reasons: list | None = None,
                     recentred: Callable | None = None):
    """∫ integrand (Σ for a pmf) over the pieces of ``pairs`` where the branch ``p`` is nonzero.

    ``pairs`` are the pieces of a common refinement with both branches on each
    (records with ``lo``, ``hi``, ``p``, ``q``, such as the numeric routes'
    :class:`rdpsym.quadrature.regions.Region`): the branches' critical points seed the search for the integrand's
    modes, at ``order`` α (the integrand being p^α q^(1−α), or p·log(p/q) at α = 1).
    The integrand is a function of t or a :class:`~rdpsym.quadrature.integrands.LogForm`.  With
    ``check_support``, a piece where p > 0 = q, or where the integral diverges,
    makes the result +∞ (and the reason is appended to ``reasons``, if given).
    ``reflected(e)``, if given, is the integrand as a function of e − t, used near
    a singular upper end e (where 1 − (1 − u) would lose u); ``reflected(e, +1)`` as a function of t − e, near a
    singular lower end e ≠ 0 (where −1 + u rounds to −1).  ``recentred(pair, c)``,
    if given, is the integrand in u = x − c as (a LogForm of f(c + u)/f(c), log f(c)),
    built symbolically, or None: used where the mass is narrower than the working
    precision resolves at its place (see :func:`rdpsym.quadrature.piece._unresolved`).

    A piece flagged with a ``lattice`` (:class:`rdpsym.quadrature.region_records.Lattice`: the jumps of a
    floor, ceiling or frac of a·x + b, a step 1/|a| apart, infinitely many on an infinite piece) is
    integrated cell by cell, each cell a smooth piece with its floors' values substituted, and summed
    block by block (one period of the jumps a term) by :func:`~rdpsym.quadrature.series.sum_range`,
    outward from its largest block until the blocks are negligible
    (:func:`rdpsym.quadrature.cells._lattice_integral`).  A piece
    flagged ``cell`` is one such cell: the integrand is read only strictly inside it (its ends are jumps).
    """
    pairs = list(pairs)
    if check_support:
        # A piece where P > 0 = Q makes the whole integral ∞ whatever the others are: said before any of them is
        # integrated (a piece beside it was integrated first and read Q's 0 branch at their common end: "e^+inf
        # times its largest value" for Q = 3/2 on (0, 2/3), 0 on (2/3, 1); a probe).
        for pair in pairs:
            if pair.p != 0 and pair.q == 0:
                _say(reasons, f"P > 0 = Q on ({pair.lo}, {pair.hi})")
                return ctx.inf
    total = ctx.mpf(0)
    for pair in pairs:
        lo, hi, bp, bq = pair.lo, pair.hi, pair.p, pair.q
        if bp == 0 or bq == 0:  # (P > 0 = Q was said above where the support is checked; else it adds nothing)
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
            power = _power_law_sum(bp, bq, var, order, lo, hi, ctx)
            if power is not None:
                if power == ctx.inf:
                    _say(reasons, f"the terms are a power k^(−s) with s ≤ 1 on [{lo}, {hi}]: the series diverges")
                total += power
                continue
            try:
                value = sum_range(integrand, lo, hi, ctx, _component_peaks(bp, bq, var, lo, hi, ctx))
            except ConvergenceError:
                # Too many terms matter: the series may be +∞, by an outcome where only P has mass, or by comparison
                # with the harmonic one (a KL whose terms are ~ c/k), which the limit of |k|·term decides.
                why = (_outcome_only_p_has(bp, bq, var, order, lo, hi)
                       or _series_diverges_by_limit(bp, bq, var, order, lo, hi)) if check_support else None
                if not why:
                    raise
                _say(reasons, why)
                return ctx.inf
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
            exact_end = (functools.partial(integrable_at_end, bp, bq, var, order) if check_support else None)
            modes = functools.partial(_density_modes, bp, bq, var, lo, hi, seeds, ctx)
            hills = hidden_hills(pair, seeds, recentred, ctx)
            spans = windows(pair, hills, ctx) if hills else []
            # (a window about each hill the working precision cannot resolve is integrated recentred at its seed,
            # first; then the piece with those windows read as 0, where the rest may be negligible beside them; last,
            # the windows recentred numerically, where they may matter beside all that)
            window = functools.partial(_window_value, pair, seeds, ctx, check_support, reasons, recentred, exact_end,
                                       modes, (lo, hi))
            rest = functools.partial(_rest, pair, integrand, lo, hi, seeds, ctx, check_support, reflected, reasons,
                                     recentred, exact_end, modes, spans)
            value, log_factor = ctx.zero, ctx.zero
            for a, b, hill in spans:
                value += ctx.zero if numeric(hill) else window(a, b, hill)
            if value != ctx.inf:
                try:
                    value, log_factor = rest(value)
                except ConvergenceError:
                    if not any(numeric(hill) for _, _, hill in spans):
                        raise
                    # (the rest may hold nothing the windows left: then it is measured against them all, as before;
                    # the others are in ``value`` already)
                    value += sum((window(a, b, hill) for a, b, hill in spans if numeric(hill)), ctx.zero)
                    value, log_factor = rest(value) if value != ctx.inf else (value, ctx.zero)
                else:
                    for a, b, hill in spans:
                        if numeric(hill) and value != ctx.inf and not negligible_beside(hill, a, b, value, ctx):
                            value += window(a, b, hill)
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


def _rest(pair, integrand, lo, hi, seeds, ctx, check_support, reflected, reasons, recentred, exact_end, modes, spans,
          windows_value):
    """(value, log factor) of the piece with the windows ``spans`` read as 0, plus ``windows_value`` (their integral so
    far), the rest negligible below 10^−(dps + 10) of that; the piece as it is without windows."""
    if not spans:
        return _piece(pair, integrand, lo, hi, seeds, ctx, check_support, reflected, reasons, recentred, None, ctx.zero,
                      0, exact_end, modes, None)
    floor = None
    if ctx.isfinite(windows_value) and windows_value != 0:  # (a KL piece's integral may be negative)
        floor = ctx.log(abs(windows_value)) - (ctx.dps + 10) * ctx.ln10
    rest, log_rest = _piece(pair, holed(integrand, spans, ctx), lo, hi, seeds, ctx, check_support, reflected, reasons,
                            holed_recentred(recentred, spans, ctx), None, ctx.zero, 0, exact_end, modes, floor)
    return windows_value + rest * ctx.exp(log_rest), ctx.zero


def _window_value(pair, seeds, ctx, check_support, reasons, recentred, exact_end, modes, ends, lo, hi, hill):
    """The integral over the window (lo, hi) of ``pair``'s piece about a hidden ``hill`` (:func:`_recentred_piece`)."""
    found = _recentred_piece(replace(pair, lo=lo, hi=hi), hill, seeds, ctx, check_support, reasons, recentred,
                             exact_end, modes, ends)
    return found[0] * ctx.exp(found[1])


def _recentred_piece(part, hill, seeds, ctx, check_support, reasons, recentred, exact_end, modes, ends):
    """``_piece`` on ``part`` in u = x − seed, the hill's seed (:mod:`rdpsym.quadrature.hidden_hills`).  The exact
    power is asked only at an end of the whole piece (``ends``): a window's other ends are interior points, where the
    integrand is finite (no power law is read there: ``interior``), and SymPy's limit there cost 1-2 s an end (the KL
    of ⅔N(0, 1) + ⅓N(10⁵⁰, 1) against ⅓/⅔: two thirds of its 6 s)."""
    seed, (g, log_at) = hill
    real = [end - seed for end in (part.lo, part.hi) if end in ends]
    interior = tuple(end - seed for end in (part.lo, part.hi) if end not in ends)
    in_u = None if exact_end is None or not real else (
        lambda e, inward: exact_end(e + seed, inward) if e in real else None)
    inside = [t - seed for t in seeds if (part.lo <= t) is sp.true and (t <= part.hi) is sp.true]
    return _piece(part, g, part.lo - seed, part.hi - seed, inside, ctx, check_support, None, reasons, recentred,
                  seed, log_at, 1, in_u, modes, interior=interior)


def _density_modes(bp: sp.Expr, bq: sp.Expr, var: sp.Symbol, lo: sp.Expr, hi: sp.Expr, seeds: tuple, ctx) -> list:
    """Where P's and Q's densities have their modes on the piece, found by the same scan as the integrand's mass;
    asked only where a quadrature did not settle (:func:`~rdpsym.quadrature.splits._settled_quad`).  The
    integrand changes its scale there even where it has no hill: √(pq) of logistic laws 1000 apart is a
    plateau of e^(−500) between their modes, and tanh-sinh across its two ends was off in the 7th digit at 30 and
    at 40 digits alike (a probe)."""
    found = []
    for density in (bp, bq):
        try:
            where = locate(log_abs(compile_expr(density, var, ctx), ctx), lo, hi, ctx, [to_mpf(t, ctx) for t in seeds])
        except (ConvergenceError, ArithmeticError, ValueError, TypeError, NotImplementedError, NameError, KeyError):
            continue
        if where.rising is None and where.mode is not None:
            found += [where.mode, *where.others]
    return found


def _power_law_sum(p: sp.Expr, q: sp.Expr, var: sp.Symbol, order, lo: sp.Expr, hi: sp.Expr, ctx):
    """Σ_{k ≥ lo} p^α q^{1−α} where each term is exactly C·k^{−s} (two Zipf laws): C·ζ(s, lo), Hurwitz's zeta
    (the series itself, summed exactly), +∞ for s ≤ 1 (the p-series); at α = 1, Σ p·log(p/q) with p = C·k^{−s}
    and log(p/q) = a·log k + b: C·(b·ζ(s, lo) − a·∂ζ/∂s(s, lo)), since Σ k^{−s}·log k = −∂ζ/∂s.  None for any
    other term or order.  A slowly decaying power (s = 1.125) took a summation 10 s and more, and the KL's terms
    Euler–Maclaurin summation with numerical derivatives at 50 and 55 digits (0.7 s a point)."""
    if order is None or order is oo or hi is not oo or not (lo.is_integer and lo >= 1):
        return None
    if order == 1:
        slope, rest = _power_law(log_expression(p), var)
        ratio = _power_law(sp.expand(log_expression(p) - log_expression(q)), var)
        if slope is None or ratio[0] is None:
            return None
        s = -to_mpf(slope, ctx)
        if s <= 1:
            return None  # P is not a law there: the general route says what it finds
        a, b, start = to_mpf(ratio[0], ctx), to_mpf(ratio[1], ctx), to_mpf(lo, ctx)
        return ctx.exp(to_mpf(rest, ctx)) * (b * ctx.zeta(s, start) - a * ctx.zeta(s, start, 1))
    slope, rest = _power_law(order * log_expression(p) + (1 - order) * log_expression(q), var)
    if slope is None or slope == 0:
        return None
    s = -to_mpf(slope, ctx)
    if s <= 1:
        return ctx.inf
    return ctx.exp(to_mpf(rest, ctx)) * ctx.zeta(s, to_mpf(lo, ctx))


def _power_law(L: sp.Expr, var: sp.Symbol) -> tuple:
    """(a, b) with L = a·log(var) + b, a and b free of var (logs already expanded), or (None, None)."""
    L = sp.expand(L)
    slope = L.coeff(sp.log(var))
    rest = sp.expand(L - slope * sp.log(var))
    if slope.has(var) or rest.has(var):
        return None, None
    return slope, rest


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
