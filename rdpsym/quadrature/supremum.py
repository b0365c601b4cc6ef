"""The supremum of a log-ratio log P − log Q over a pair's pieces (the order α = ∞).

Everything runs at the caller's working precision; nothing here changes it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import pairwise

import mpmath
import sympy as sp

from rdpsym.foundations.errors import ConvergenceError
from rdpsym.quadrature.compile import to_mpf
from rdpsym.quadrature.locate import critical_seeds, golden_max, locate, scan_points

oo = sp.oo


def sup_log_ratio(pairs: Iterable, var: sp.Symbol, log_p: Callable, log_q: Callable, *,
                  discrete: bool) -> mpmath.mpf:
    """sup over the support of P of log(P/Q), by scanning and local refinement.

    ``pairs`` are the pieces of the common refinement of P and Q with their
    branches (records with ``lo``, ``hi``, ``p``, ``q``), ``log_p`` and ``log_q`` the log-densities as functions of
    ``var`` (an integer one if ``discrete``).  +∞ where p > 0 = q on a piece, or
    where the log-ratio grows without bound.

    On an unbounded piece the scan reaches 10⁸ e-fold widths of P (and at
    least 10⁸) around P's mode, so a log-ratio that grows like x/σ² is seen
    growing whatever σ, and a pair at mean 10⁹ is scanned where it lives; the
    critical points of log P − log Q (:func:`critical_seeds`) are tried too.
    """
    best = -mpmath.inf
    for pair in pairs:
        lo, hi, bp, bq = pair.lo, pair.hi, pair.p, pair.q
        if bp == 0:
            continue
        if bq == 0:
            return mpmath.inf
        r = _guarded(lambda t: log_p(t) - log_q(t))
        a = to_mpf(lo)
        b = to_mpf(hi)
        seeds = []
        if discrete:
            pts = _integer_scan(a, b)
        else:
            scale = center = None
            seeds = [to_mpf(t) for t in critical_seeds(bp, bq, var, oo, lo, hi)]
            if not (mpmath.isfinite(a) and mpmath.isfinite(b)):
                where = locate(_guarded(log_p), lo, hi, seeds)
                scale, center = where.scale, where.mode
            # Limits at finite ends (log P/Q may be 0/0 exactly there): step in by 10^(−dps−5).
            tiny = mpmath.mpf(10) ** (-mpmath.mp.dps - 5)
            pts = ([a + tiny * (1 + abs(a))] if mpmath.isfinite(a) else []) + scan_points(a, b, scale, center) + (
                [b - tiny * (1 + abs(b))] if mpmath.isfinite(b) else [])
        values = [r(t) for t in pts]
        if _unbounded(values, pts, a, b):
            return mpmath.inf
        i = max(range(len(pts)), key=lambda j: values[j])
        candidate = values[i]
        if not discrete and 0 < i < len(pts) - 1:
            t = golden_max(r, pts[i - 1], pts[i + 1], pts[i])
            candidate = max(candidate, r(t))
        # The seeds are exact critical points: their values need no refinement.
        candidate = max([candidate, *(r(t) for t in seeds if a < t < b)])
        best = max(best, candidate)
    return best


def _guarded(log_f):
    """log_f with evaluation errors and non-real values read as −∞."""
    def h(t):
        try:
            v = log_f(t)
        except (ZeroDivisionError, ValueError, OverflowError, TypeError):
            return -mpmath.inf
        return v if isinstance(v, mpmath.mpf) else -mpmath.inf
    return h


def _integer_scan(a, b) -> list:
    steps = sorted({int(mpmath.floor(mpmath.mpf(10) ** (e / mpmath.mpf(4)))) for e in range(25)})
    if a == -mpmath.inf and b == mpmath.inf:
        return sorted({-s for s in steps} | {0} | set(steps))
    if b == mpmath.inf:
        return [int(a) + s - 1 for s in steps]
    if a == -mpmath.inf:
        return [int(b) - s + 1 for s in steps]
    n = int(b - a)
    return sorted({int(a) + j for j in range(0, n + 1, max(1, n // 200))} | {int(b)})


def _unbounded(values, pts, a, b) -> bool:
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
        if end not in (mpmath.inf, -mpmath.inf):
            continue
        tail = seq[-6:]
        if all(y > x for x, y in pairwise(tail)):
            if tail[-1] - tail[0] > 1:
                return True
            rises = [y - x for x, y in pairwise(tail)]
            noise = mpmath.mpf(10) ** (-(mpmath.mp.dps // 2)) * (1 + abs(tail[-1]))
            if rises[0] > noise and all(s > mpmath.mpf(3) / 2 * r for r, s in pairwise(rises)):
                return True
            if seq[-1] >= max(seq):
                raise ConvergenceError(
                    "the log-ratio is still increasing at the end of the scanned range: "
                    "its supremum cannot be told from infinity numerically"
                )
    return False
