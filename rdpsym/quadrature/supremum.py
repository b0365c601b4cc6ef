"""The supremum of a log-ratio log P − log Q over a pair's pieces (the order α = ∞).

Everything runs with the mpmath context ``ctx`` handed in and at its precision.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import pairwise

import sympy as sp

from rdpsym.foundations.errors import ConvergenceError
from rdpsym.quadrature.compile import to_mpf
from rdpsym.quadrature.locate import critical_seeds, golden_max, locate, scan_points

oo = sp.oo


def sup_log_ratio(pairs: Iterable, var: sp.Symbol, log_p: Callable, log_q: Callable, ctx, *,
                  discrete: bool, ratio_for: Callable | None = None):
    """sup over the support of P of log(P/Q), by scanning and local refinement.

    ``pairs`` are the pieces of the common refinement of P and Q with their
    branches (records with ``lo``, ``hi``, ``p``, ``q``), ``log_p`` and ``log_q`` the log-densities as functions of
    ``var`` (an integer one if ``discrete``); ``ratio_for(pair)``, if given, is log(p/q) on a piece
    computed without the cancellation of log_p − log_q (see
    :func:`rdpsym.quadrature.compile.log_ratio_function`).  +∞ where p > 0 = q on a piece, or
    where the log-ratio grows without bound.

    On an unbounded piece the scan reaches 10⁸ e-fold widths of P (and at
    least 10⁸) around P's mode, so a log-ratio that grows like x/σ² is seen
    growing whatever σ, and a pair at mean 10⁹ is scanned where it lives; the
    critical points of log P − log Q (:func:`critical_seeds`) are tried too.
    """
    best = ctx.ninf
    for pair in pairs:
        lo, hi, bp, bq = pair.lo, pair.hi, pair.p, pair.q
        if bp == 0:
            continue
        if bq == 0:
            return ctx.inf
        r = _guarded(ratio_for(pair) if ratio_for is not None else (lambda t: log_p(t) - log_q(t)), ctx)
        a = to_mpf(lo, ctx)
        b = to_mpf(hi, ctx)
        seeds = []
        if discrete:
            pts = _integer_scan(a, b, ctx)
        else:
            scale = center = None
            seeds = [to_mpf(t, ctx) for t in critical_seeds(bp, bq, var, oo, lo, hi)]
            if not (ctx.isfinite(a) and ctx.isfinite(b)):
                where = locate(_guarded(log_p, ctx), lo, hi, ctx, seeds)
                scale, center = where.scale, where.mode
            # Limits at finite ends (log P/Q may be 0/0 exactly there): step in by 10^(−dps−5).
            tiny = ctx.mpf(10) ** (-ctx.dps - 5)
            pts = ([a + tiny * (1 + abs(a))] if ctx.isfinite(a) else []) + scan_points(a, b, ctx, scale, center) + (
                [b - tiny * (1 + abs(b))] if ctx.isfinite(b) else [])
        values = [r(t) for t in pts]
        if _unbounded(values, pts, a, b, ctx):
            return ctx.inf
        i = max(range(len(pts)), key=lambda j: values[j])
        candidate = values[i]
        if not discrete and 0 < i < len(pts) - 1:
            t = golden_max(r, pts[i - 1], pts[i + 1], pts[i], ctx)
            candidate = max(candidate, r(t))
        # The seeds are exact critical points: their values need no refinement.
        candidate = max([candidate, *(r(t) for t in seeds if a < t < b)])
        best = max(best, candidate)
    return best


def _guarded(log_f, ctx):
    """log_f with evaluation errors and non-real values read as −∞."""
    def h(t):
        try:
            v = log_f(t)
        except (ZeroDivisionError, ValueError, OverflowError, TypeError):
            return ctx.ninf
        return v if isinstance(v, ctx.mpf) else ctx.ninf
    return h


def _integer_scan(a, b, ctx) -> list:
    steps = sorted({int(ctx.floor(ctx.mpf(10) ** (e / ctx.mpf(4)))) for e in range(25)})
    if a == ctx.ninf and b == ctx.inf:
        return sorted({-s for s in steps} | {0} | set(steps))
    if b == ctx.inf:
        return [int(a) + s - 1 for s in steps]
    if a == ctx.ninf:
        return [int(b) - s + 1 for s in steps]
    n = int(b - a)
    return sorted({int(a) + j for j in range(0, n + 1, max(1, n // 200))} | {int(b)})


def _unbounded(values, pts, a, b, ctx) -> bool:
    """Whether the log-ratio grows without bound toward an infinite end of the piece.

    True when it still rises steeply at the farthest scan points, or when its
    rises between successive scan points (a factor √10 apart) grow
    geometrically, like t^c with c > 0.35: that is how x/σ² looks at σ = 10¹⁰,
    where it rises by only 10⁻² over the scan.  A slower rise (log-ratio
    0.1·log x reaches only 1.8 at x = 10⁸, with equal steps) means the scan
    cannot tell a large finite supremum from an infinite one, and that is a
    :class:`ConvergenceError`, never a finite guess.
    """
    for end, seq in ((b, values), (a, list(reversed(values)))):
        if ctx.isfinite(end):
            continue
        tail = seq[-6:]
        if all(y > x for x, y in pairwise(tail)):
            if tail[-1] - tail[0] > 1:
                return True
            rises = [y - x for x, y in pairwise(tail)]
            noise = ctx.mpf(10) ** (-(ctx.dps // 2)) * (1 + abs(tail[-1]))
            if rises[0] > noise and all(s > ctx.mpf(3) / 2 * r for r, s in pairwise(rises)):
                return True
            if seq[-1] >= max(seq):
                raise ConvergenceError(
                    "the log-ratio is still increasing at the end of the scanned range: "
                    "its supremum cannot be told from infinity numerically"
                )
    return False
