"""Where an integrand holds its mass: modes, e-fold widths, negligible ends, singular ends.

Lengths and magnitudes are taken from the integrand itself (its mode, e-fold
width and peak), never fixed at 1, so a Gaussian of σ = 10¹⁰ or 10⁻¹⁰ is
integrated like one of σ = 1.  Modes are searched for wherever they are: from
the critical points of the log-densities and of the integrand, and on a scan
extended outward while the integrand still rises, so a Gaussian pair at mean
10¹², one at order α = 10⁹ (peak at x = 1 − α) or a mixture's far component
is not missed.

Everything runs at the caller's working precision; nothing here changes it.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from itertools import pairwise

import mpmath
import sympy as sp

from rdpsym.foundations.budget import can_budget, time_budget
from rdpsym.foundations.errors import SymbolicTimeout
from rdpsym.quadrature.compile import to_mpf

oo = sp.oo


@functools.lru_cache(maxsize=1024)
def critical_seeds(p: sp.Expr, q: sp.Expr, var: sp.Symbol, order: sp.Expr | None, lo: sp.Expr, hi: sp.Expr) -> tuple:
    """Where log p, log q, each mixture component of p and q, and the integrand's logarithm
    α·log p + (1 − α)·log q (log p − log q at α = ∞) have zero derivative inside (lo, hi).

    The scan of :func:`locate` starts from these, so a Gaussian at mean 10¹², a pair at
    order 10⁹ (integrand peak at 1 − α) or the far component of a mixture is found
    wherever it is, and exactly.  Only derivatives that are rational in the variable
    are solved (a polynomial numerator of degree ≤ 12; nothing open-ended), within a
    time budget; anything else contributes no seed (the scan still runs).
    """
    def log_of(b):
        return sp.expand_log(sp.log(b), force=True)

    def components(b):
        terms = sp.Add.make_args(sp.expand(b, deep=False, mul=True, power_exp=False, log=False))
        return [t for t in terms if t.has(var)] if len(terms) > 1 else []

    def roots(L):
        d = sp.diff(L, var)
        if not d.has(var) or not d.is_rational_function(var):
            return []
        poly = sp.Poly(sp.numer(sp.together(d)), var)
        degree = poly.degree()
        if degree <= 0 or degree > 12:
            return []
        if degree <= 2:
            return [r for r in sp.roots(poly) if r.is_real]
        if poly.domain.is_ZZ or poly.domain.is_QQ:
            return sp.real_roots(poly)  # exact isolation, whatever the coefficients' size
        try:
            return [r for r in poly.nroots(n=30, maxsteps=200) if r.is_real]
        except mpmath.mp.NoConvergence:
            return []

    if not can_budget():
        return ()
    found = set()
    try:
        with time_budget(1.0, "critical points of the integrand"):
            logs = [log_of(p), log_of(q)]
            if order is not None and order != 1 and p != q:
                logs.append(logs[0] - logs[1] if order is oo else order * logs[0] + (1 - order) * logs[1])
            logs += [log_of(t) for t in {*components(p), *components(q)}]
            for L in logs:
                try:
                    found.update(roots(L))
                except (sp.PolynomialError, NotImplementedError, ValueError, TypeError, ZeroDivisionError):
                    continue
    except SymbolicTimeout:
        pass
    inside = [r for r in found if (lo is -oo or bool(r > lo)) and (hi is oo or bool(r < hi))]
    return tuple(sorted(inside, key=lambda r: sp.N(r, 30)))


def log_abs(f):
    """t -> log|f(t)| (−∞ where f vanishes or cannot be evaluated)."""
    def log_f(t):
        try:
            v = f(t)
            return mpmath.log(abs(v)) if v != 0 else -mpmath.inf
        except (ZeroDivisionError, ValueError, OverflowError, TypeError):
            return -mpmath.inf
    return log_f


@dataclass(frozen=True)
class PeakAtEnd:
    """The integrand peaks, singular (like |t − e|^c with c < 0), at a finite end e."""

    low: bool  # the singular end is the piece's lower end


@dataclass(frozen=True)
class Locus:
    """Where a piece's integrand holds its mass, in the integrand's own units of length.

    Every probe distance below is taken from here rather than fixed at 1, 10⁷
    or 10⁻¹²: a Gaussian of σ = 10¹⁰ is flat on [−10⁸, 10⁸] and one of
    σ = 10⁻¹⁰ is negligible 10⁻⁸ away from its peak.
    """

    mode: object  # where |f| peaks (an mpf), or None if it vanishes at every scan point
    peak: object  # log|f| at the mode
    left: object  # where |f| has fallen below 10^−(wp+5) of its peak, left of the mode (None: not in the piece)
    right: object
    scale: object  # how far log|f| takes to fall by 1 from the mode (an e-fold width)
    lengths: tuple  # (near lo, near hi): the length scale for probing at a finite end
    at_end: bool  # the mode is at a finite end of the piece
    singular: object  # a PeakAtEnd when |f| grows without bound toward that end, else None
    others: tuple = ()  # extra split points: the other modes of |f| holding mass above 10^−(wp+5)
    #                     of the peak, the valleys between modes, and where each mode's mass ends
    rising: object = None  # the farthest point scanned, if |f| still grew there (mass not located)

    def far(self, sign: int):
        """The length the integrand's tail toward ``sign`` is probed in (at 10⁷, 10⁸ of it).

        The e-fold width, except at a singular end: there log|f| falls by 1 within
        10⁻¹⁵ of the end (|t|^−½), so the tail is probed from where the mass ends
        on that side, or failing that (a power-law tail) from 1 + |mode|.
        """
        if self.singular is None:
            return self.scale
        end = self.right if sign > 0 else self.left
        return abs(end - self.mode) if end is not None else 1 + abs(self.mode)

    @property
    def size(self):
        """peak × width: the order of magnitude of the piece's integral (1 if unknown)."""
        if self.mode is None or not mpmath.isfinite(self.peak):
            return mpmath.mpf(1)
        return mpmath.exp(self.peak) * self.scale


def locate(log_f, lo: sp.Expr, hi: sp.Expr, seeds=()) -> Locus:
    """The modes, e-fold width and negligible ends of exp(log_f) on the piece (lo, hi).

    The modes are bracketed on a coarse scan (at 20 digits) and refined by golden
    section with log_f at the working precision: at σ = 10⁻¹⁰ the terms of
    α·log P + (1 − α)·log Q are ~10²⁵ while the peak is 10⁻¹⁰ wide, so 20 digits
    would misplace it by hundreds of widths.  The scan is a geometric grid (around
    0, or from a finite end) plus the ``seeds`` (critical points of the log-densities
    and of the integrand, :func:`critical_seeds`), and is extended outward while
    log_f still rises at its farthest point: a Gaussian pair at mean 10⁹, or at
    order 10⁹ (whose integrand peaks at x = 1 − α), lies beyond any fixed grid.
    Every hill of the scan separated from the others by a valley is refined; those
    holding non-negligible mass become split points.  Distances are found by
    bisection on a binary exponent (:func:`_reach`), which costs the same at any scale.
    """
    a, b = to_mpf(lo), to_mpf(hi)
    with mpmath.workdps(20):
        grid = scan_points(a, b)
        candidates = sorted({*grid, *(t for t in seeds if a < t < b)})
        values = [log_f(t) for t in candidates]
    # Beyond the grid the terms of log_f grow like t²: extend at the working precision.
    candidates, values, rising = _extend_scan(log_f, candidates, values, a, b)
    best = max(range(len(candidates)), key=lambda i: values[i])
    if values[best] == -mpmath.inf:
        ends = (1 + abs(a) if mpmath.isfinite(a) else None, 1 + abs(b) if mpmath.isfinite(b) else None)
        return Locus(None, -mpmath.inf, None, None, mpmath.mpf(1), ends, False, None)
    hills = []  # (mode, peak) of every hill of the scan, refined
    for i in _hills(values):
        left_c = candidates[i - 1] if i > 0 else a
        right_c = candidates[i + 1] if i + 1 < len(candidates) else b
        t = golden_max(log_f, left_c, right_c, candidates[i], digits=15)
        h, h_scan = log_f(t), log_f(candidates[i])
        if not mpmath.isfinite(h) or h_scan >= h:  # e.g. a singular end, or an exact seed
            t, h = candidates[i], (h_scan if mpmath.isfinite(h_scan) else values[i])
        hills.append((t, h))
    mode, peak = max(hills, key=lambda m: m[1])
    drop = peak - (mpmath.mp.dps + 5) * mpmath.log(10)
    others = [m for m, h in hills if m != mode and h > drop]
    efold = [abs(t - mode) for t in (_reach(log_f, mode, -1, a, peak - 1), _reach(log_f, mode, 1, b, peak - 1))
             if t is not None]
    sharper = _sharpen(log_f, mode, peak, a, b, min(efold, default=None))
    if sharper is not None:
        mode, peak = sharper
        drop = peak - (mpmath.mp.dps + 5) * mpmath.log(10)
        efold = [abs(t - mode) for t in (_reach(log_f, mode, -1, a, peak - 1), _reach(log_f, mode, 1, b, peak - 1))
                 if t is not None]
    # Where the mass ends on each side of each mode; a mode's search stops at its
    # neighbours, so the main mode's ends are those of the outermost modes.
    modes = sorted([mode, *others])
    splits = set(others)
    # ... and the valley between two modes: a mixture's integrand switches component
    # there, with complex poles close to the real axis, which tanh-sinh across the
    # valley resolves only to ~40 of 51 digits while its error estimate says 53.
    for m1, m2 in pairwise(modes):
        splits.add(golden_max(lambda t: -log_f(t), m1, m2, (m1 + m2) / 2, digits=12))
    for i, m in enumerate(modes):
        lo_m = _reach(log_f, m, -1, modes[i - 1] if i > 0 else a, drop)
        hi_m = _reach(log_f, m, 1, modes[i + 1] if i + 1 < len(modes) else b, drop)
        if i == 0:
            left = lo_m
        elif lo_m is not None:
            splits.add(lo_m)
        if i == len(modes) - 1:
            right = hi_m
        elif hi_m is not None:
            splits.add(hi_m)
    if efold:
        scale = max(efold)
    else:
        scale = (b - a) / 2 if mpmath.isfinite(b - a) else 1 + abs(mode)
    extent = [abs(t - mode) for t in (left, right) if t is not None]

    def length(e):
        # Probes at a finite end e sit at 10^−j of this: no farther than the mass reaches,
        # nor than the piece does (a piece 5·10⁻⁶ long at x = 10¹² is probed inside it).
        if not mpmath.isfinite(e):
            return None
        L = min(1 + abs(e), abs(e - mode) + max(extent)) if extent else 1 + abs(e)
        return min(L, b - a) if mpmath.isfinite(b - a) else L

    lengths = (length(a), length(b))
    at_end = any(L is not None and abs(mode - e) <= mpmath.mpf(10) ** -8 * L for e, L in zip((a, b), lengths))
    # A singular end (|f| ~ |t − e|^c, c < 0) rises by the same amount per decade as t
    # nears e; a smooth steep one rises by 10⁴ times less from 10⁻¹² to 10⁻¹⁶ than from
    # 10⁻⁸ to 10⁻¹² of the end's length.  Checked at every finite end, not only where the
    # scan put the mode: with a lobe of the other sign (P·log(P/Q)) or a scale below the
    # scan's first point (10⁻⁶), the mode found may not be the singular end.
    singular, rise = None, None
    for e, inward, L in ((a, 1, lengths[0]), (b, -1, lengths[1])):
        if L is None:
            continue
        h8, h12, h16 = (log_f(e + inward * mpmath.mpf(10) ** -j * L) for j in (8, 12, 16))
        d1, d2 = h12 - h8, h16 - h12
        if not (mpmath.isfinite(d1) and mpmath.isfinite(d2)):
            continue
        if d1 > mpmath.mpf(10) ** -3 and d2 > mpmath.mpf(10) ** -3 and d1 / 2 < d2 < 2 * d1:
            here = abs(mode - e) <= mpmath.mpf(10) ** -8 * L
            if singular is None or here or h16 > rise:
                singular, rise = PeakAtEnd(low=inward > 0), (mpmath.inf if here else h16)
    return Locus(mode, peak, left, right, scale, lengths, at_end, singular, tuple(sorted(splits)), rising)


#: Decades the scan of an unbounded piece may be extended by while log_f still rises.
_MAX_EXTENSION = 300


#: Hills of a scan refined at most (the highest first).
_MAX_HILLS = 8


def _extend_scan(log_f, pts: list, values: list, a, b):
    """Extend the scan of an unbounded piece outward, a decade at a time, while log_f rises.

    Returns the points, their values and, if log_f still rose at the farthest point
    after :data:`_MAX_EXTENSION` decades, that point (else None).
    """
    rising = None
    for end, sign in ((b, 1), (a, -1)):
        if mpmath.isfinite(end) or len(pts) < 2:
            continue
        base = a if sign > 0 and mpmath.isfinite(a) else (b if sign < 0 and mpmath.isfinite(b) else mpmath.mpf(0))
        outer, inner = (-1, -2) if sign > 0 else (0, 1)
        for _ in range(_MAX_EXTENSION):
            if not (mpmath.isfinite(values[outer]) and values[outer] > values[inner]):
                break
            t = base + (pts[outer] - base) * 10
            if sign * (t - pts[outer]) <= 0:  # the farthest point is on the other side of base
                t = pts[outer] + sign * (1 + abs(pts[outer]))
            v = log_f(t)
            if sign > 0:
                pts.append(t)
                values.append(v)
            else:
                pts.insert(0, t)
                values.insert(0, v)
        if mpmath.isfinite(values[outer]) and values[outer] > values[inner]:
            rising = pts[outer]
    return pts, values, rising


def _hills(values: list) -> list:
    """Indices of the scan's hills: local maxima separated by a valley deeper than one e-fold.

    Adjacent local maxima with no real valley between them (rounding noise on a flat
    scan) are one hill, represented by the higher.  The global best is always one;
    at most :data:`_MAX_HILLS` are returned, the highest first.
    """
    n = len(values)

    def at(i):
        return values[i] if 0 <= i < n else -mpmath.inf

    peaks = [i for i in range(n) if mpmath.isfinite(values[i]) and values[i] >= at(i - 1) and values[i] >= at(i + 1)]
    hills: list[int] = []
    for i in peaks:
        if hills:
            j = hills[-1]
            valley = min(values[j + 1:i], default=min(values[j], values[i]))
            depth = 1 + mpmath.mpf(10) ** -15 * max(abs(values[i]), abs(values[j]))
            if valley > min(values[i], values[j]) - depth:
                if values[i] > values[j]:
                    hills[-1] = i
                continue
        hills.append(i)
    return sorted(hills, key=lambda i: values[i], reverse=True)[:_MAX_HILLS]


def _sharpen(log_f, mode, peak, a, b, width):
    """A better (mode, peak) when 15 relative digits left the mode over 10⁻⁶ e-folds off, else None.

    Golden section stops at 10⁻¹⁵·(1 + |mode|); a peak of width 10⁻⁴ at 10¹² (or
    10⁻¹⁰ at 10³) needs more digits than that to be placed within its width.
    """
    if width is None or width == 0 or not mpmath.isfinite(peak):
        return None
    unit = 1 + abs(mode)
    placed = mpmath.mpf(10) ** -15 * unit
    if placed <= mpmath.mpf(10) ** -6 * width:
        return None
    digits = min(mpmath.mp.dps - 5, int(mpmath.log10(unit / width)) + 8)
    if digits <= 15:
        return None
    span = 4 * (placed + width)
    t = golden_max(log_f, max(a, mode - span), min(b, mode + span), mode, digits=digits)
    h = log_f(t)
    return (t, h) if mpmath.isfinite(h) and h > peak else None


def _reach(log_f, mode, direction: int, end, level):
    """A point mode ± d where log_f < level (d within a factor 2 of the first such
    distance), or None if the piece ends first.

    Bisection on k in d = 2^k·(1 + |mode|), over every k the working precision can
    resolve: about 2·log2(prec) evaluations at any scale (the doubling search it
    replaces started at 2^−10 and overshot narrow peaks at once).
    """
    unit = 1 + abs(mode)
    bits = mpmath.mp.prec

    def point(k):
        return mode + direction * mpmath.ldexp(unit, k)

    def below(k):
        t = point(k)
        if (direction > 0 and t >= end) or (direction < 0 and t <= end):
            return True
        return log_f(t) < level

    low, high = -bits, bits
    if not below(high):
        return None
    while high - low > 1:
        mid = (low + high) // 2
        if below(mid):
            high = mid
        else:
            low = mid
    t = point(high)
    if (direction > 0 and t >= end) or (direction < 0 and t <= end):
        return None
    return t


def scan_points(a, b, scale=None, center=None) -> list:
    """A scan of the piece [a, b]: 63 even steps if finite, else a geometric grid from
    the finite end (or around ``center``, default 0) spanning 10⁻⁶ … 10⁸ in units of 1
    and of ``scale``, and reaching 10⁸ times as far as ``center`` is from the finite end."""
    if mpmath.isfinite(a) and mpmath.isfinite(b):
        return [a + (b - a) * mpmath.mpf(j) / 64 for j in range(1, 64)]
    low, high = -12, 16  # exponents of sqrt(10)
    if scale is not None and scale > 0:
        decade = int(mpmath.floor(mpmath.log10(scale)))
        low, high = low + 2 * min(0, decade), high + 2 * max(0, decade)
    end = a if mpmath.isfinite(a) else b
    if center is not None and mpmath.isfinite(end) and abs(center - end) > 1:
        high = max(high, 2 * int(mpmath.ceil(mpmath.log10(abs(center - end)))) + 16)
    grid = [mpmath.mpf(10) ** (e / mpmath.mpf(2)) for e in range(low, high + 1)]
    if a == -mpmath.inf and b == mpmath.inf:
        c = center if center is not None else mpmath.mpf(0)
        return [c - g for g in reversed(grid)] + [c] + [c + g for g in grid]
    if b == mpmath.inf:
        return [a + g for g in grid]
    return [b - g for g in reversed(grid)]


def golden_max(h, left, right, start, digits: int | None = None):
    """Golden-section search for the maximum of ``h`` on [left, right].

    Near a smooth maximum h(t* + d) = h* − c·d², so the value is good to the
    working precision once the bracket is below 10^(−dps/2): iterate that far
    (or to 10^(−digits) relative, when only the place of the maximum is wanted).
    """
    if left in (-mpmath.inf, mpmath.inf) or right in (-mpmath.inf, mpmath.inf):
        return start
    invphi = (mpmath.sqrt(5) - 1) / 2
    width = right - left
    if width <= 0:
        return start
    digits = mpmath.mp.dps // 2 + 5 if digits is None else digits
    target = mpmath.mpf(10) ** (-digits) * (1 + abs(start))
    steps = int(mpmath.log(width / target) / mpmath.log(1 / invphi)) + 2 if width > target else 0
    c, d = right - invphi * width, left + invphi * width
    hc, hd = h(c), h(d)
    for _ in range(steps):
        if hc > hd:
            right, d, hd = d, c, hc
            c = right - invphi * (right - left)
            hc = h(c)
        else:
            left, c, hc = c, d, hd
            d = left + invphi * (right - left)
            hd = h(d)
    return (left + right) / 2
