"""Where an integrand holds its mass: modes, e-fold widths, negligible ends, singular ends.

Lengths and magnitudes are taken from the integrand itself (its mode, e-fold
width and peak), never fixed at 1, so a Gaussian of σ = 10³⁰⁰ or 10⁻³⁰⁰ is
integrated like one of σ = 1.  Modes are searched for wherever they are: from
the critical points of the log-densities and of the integrand, on a scan
extended outward while the integrand still rises (so a Gaussian pair at mean
10¹², one at order α = 10⁹, whose integrand peaks at x = 1 − α, or a mixture's
far component is not missed) and inward toward a finite end while it still
rises there (a Gamma law of scale 10⁻³⁰⁰ on (0, ∞)), and again on a grid in
units of the e-fold width once that is known (a Gaussian of σ = 10¹⁰⁰ is flat
on any fixed grid).  The e-fold width is found by bisection on a binary
exponent, unbounded, so it costs the same at any scale.

Everything runs with the mpmath context ``ctx`` handed in (a private one) and at
its precision; nothing here changes it, and the global ``mpmath.mp`` is not used.

The exact critical points that seed the scan are found by
:mod:`rdpsym.quadrature.seeds`; the scans, golden-section searches and distances
are :mod:`rdpsym.quadrature.scans`.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

import sympy as sp

from rdpsym.foundations.errors import ConvergenceError
from rdpsym.quadrature.compile import to_mpf
from rdpsym.quadrature.far_mass import far_mass
from rdpsym.quadrature.scans import _reach, curvature_at, golden_max, hill_at_seed, scan_points

oo = sp.oo


def log_abs(f, ctx):
    """t -> log|f(t)| (−∞ where f vanishes or cannot be evaluated)."""
    def log_f(t):
        try:
            v = f(t)
            return ctx.log(abs(v)) if v != 0 else ctx.ninf
        except (ZeroDivisionError, ValueError, OverflowError, TypeError):
            return ctx.ninf
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
    ctx: object = None  # the mpmath context of the numbers above
    magnitude: object = 0  # the largest |log|f|| met on the scan (its rounding is about 10^−dps of this)
    reach: tuple = (None, None)  # (left, right): how far from the mode a far mass reaches on that side, or None
    #                              (:func:`~rdpsym.quadrature.far_mass.far_mass`: a component far wider than the mode's)
    far_log_size: object = None  # the log of the far masses' largest mass per unit of log-distance, or None
    passed: tuple = (None, None)  # (left, right): how far from the mode a far hill, of mass or not, has fallen

    def far(self, sign: int):
        """The length the integrand's tail toward ``sign`` is probed in (at 10⁷, 10⁸ of it) for its power law.

        The e-fold width, except at a singular end: there log|f| falls by 1 within
        10⁻¹⁵ of the end (|t|^−½), so the tail is probed from where the mass ends
        on that side, or failing that (a power-law tail) from 1 + |mode|.  Beyond a far mass (:attr:`reach`), always.
        """
        reach = self.reach[sign > 0]
        if self.singular is None:
            length = self.scale
        else:
            end = self.right if sign > 0 else self.left
            length = abs(end - self.mode) if end is not None else 1 + abs(self.mode)
        return max(length, reach) if reach is not None else length

    def outside(self, sign: int):
        """:meth:`far`, or the distance to where the located mass ends toward ``sign`` if that is farther: the length
        beyond which a read of the tail is outside the mass.  At 45 digits a plateau 10⁻⁴⁶ of the peak is mass, out
        to 10⁴⁶ widths, and reads of whether the integral diverges 10⁷ widths out took it for a tail that does not
        decay (the KL of ⅔N(0, 1) + ⅓N(0, 10⁹⁰) against ⅓/⅔: +∞).  (Not where a power-law tail is substituted: a
        Cauchy law's mass ends 10³² widths out at 50 digits, and tanh-sinh up to there was 5 times slower; a review.)
        """
        end = self.right if sign > 0 else self.left
        length = self.far(sign)
        passed = self.passed[sign > 0]
        if passed is not None:
            length = max(length, passed)  # (beyond a far hill, even one of no mass that matters: far_mass)
        return max(length, abs(end - self.mode)) if end is not None and self.mode is not None else length

    def beyond_far(self, sign: int) -> bool:
        """Whether a far hill (of mass or not) was met toward ``sign``: the reads of the tail start beyond it."""
        return self.reach[sign > 0] is not None or self.passed[sign > 0] is not None

    @property
    def log_size(self):
        """log(peak × width): the order of magnitude of the piece's integral, as a logarithm (0 if unknown)."""
        ctx = self.ctx
        if self.mode is None or not ctx.isfinite(self.peak) or not self.scale > 0:
            return ctx.zero
        located = self.peak + ctx.log(self.scale)
        return located if self.far_log_size is None else max(located, self.far_log_size)

    @property
    def size(self):
        """peak × width: the order of magnitude of the piece's integral (1 if unknown)."""
        return self.ctx.exp(self.log_size)


def locate(log_f, lo: sp.Expr, hi: sp.Expr, ctx, seeds=()) -> Locus:
    """The modes, e-fold width and negligible ends of exp(log_f) on the piece (lo, hi).

    The modes are bracketed on a coarse scan and refined by golden section, both
    with log_f at the working precision: at σ = 10⁻¹⁰ the terms of
    α·log P + (1 − α)·log Q are ~10²⁵ while the peak is 10⁻¹⁰ wide, so 20 digits
    would misplace it by hundreds of widths.  The scan is a geometric grid (around
    0, or from a finite end) plus the ``seeds`` (critical points of the log-densities
    and of the integrand, :func:`~rdpsym.quadrature.seeds.critical_seeds`), extended outward while log_f still
    rises at its farthest point and inward while it still rises toward a finite end;
    once the e-fold width is known, a grid in its units around the mode is scanned
    too if the first grid could not see that scale.  Every hill of the scan separated
    from the others by a valley is refined; those holding non-negligible mass become
    split points.  Distances are found by bisection on a binary exponent
    (:func:`_reach`), which costs the same at any scale.
    """
    a, b = to_mpf(lo, ctx), to_mpf(hi, ctx)
    seeds = [t for t in seeds if a < t < b]
    # At the working precision: log|f| may itself be a difference (the log|log P − log Q| of a KL
    # integrand at λ = 10⁴⁰ is log|10⁻⁴⁰|, which 20 digits would see as log 0).
    candidates = sorted({*scan_points(a, b, ctx), *seeds})
    values = [log_f(t) for t in candidates]
    candidates, values, rising = _extend_scan(log_f, candidates, values, a, b, ctx)
    if rising is not None:  # the mass lies beyond anything scanned: say so, and nothing more
        best = max(range(len(values)), key=lambda i: values[i])
        return Locus(candidates[best], values[best], None, None, ctx.mpf(1), (None, None), False, None, (), rising,
                     ctx)
    found = _modes(log_f, candidates, values, a, b, ctx)
    if found is None:
        ends = (1 + abs(a) if ctx.isfinite(a) else None, 1 + abs(b) if ctx.isfinite(b) else None)
        return Locus(None, ctx.ninf, None, None, ctx.mpf(1), ends, False, None, ctx=ctx)
    mode, peak, hills, seed_splits = _with_seed_hills(log_f, seeds, found, a, b, ctx)
    efold = _efold(log_f, mode, peak, a, b, ctx)
    if efold and _unseen_scale(max(efold), mode, a, b, ctx):
        # A scale the first grid (10⁻⁶ … 10⁸) cannot resolve: scan again in units of the width.
        extra = [t for t in scan_points(a, b, ctx, max(efold), mode) if t not in set(candidates)]
        extra_values = [log_f(t) for t in extra]
        merged = sorted(zip([*candidates, *extra], [*values, *extra_values]), key=lambda tv: tv[0])
        candidates, values = [t for t, _ in merged], [v for _, v in merged]
        found = _modes(log_f, candidates, values, a, b, ctx)
        if found is not None and found[1] >= peak:
            mode, peak, hills = found
            efold = _efold(log_f, mode, peak, a, b, ctx)
    sharper = _sharpen(log_f, mode, peak, a, b, min(efold, default=None), ctx)
    if sharper is not None:
        mode, peak = sharper
        efold = _efold(log_f, mode, peak, a, b, ctx)
    drop = _negligible(peak, ctx)
    located = peak + ctx.log(max(efold)) if efold and max(efold) > 0 else peak
    levels = {}  # the other hills that hold mass, and the level where each one's mass ends
    for m, h in hills:
        level = _hill_level(log_f, m, h, located, drop, a, b, ctx) if m != mode else None
        if level is not None:
            levels[m] = level
    others = list(levels)
    # Where the mass ends on each side of each mode; a mode's search stops at its
    # neighbours, so the main mode's ends are those of the outermost modes.
    modes = sorted([mode, *others])
    splits = set(others) | seed_splits
    # ... and the valley between two modes: a mixture's integrand switches component
    # there, with complex poles close to the real axis, which tanh-sinh across the
    # valley resolves only to ~40 of 51 digits while its error estimate says 53.
    for m1, m2 in pairwise(modes):
        splits.add(golden_max(lambda t: -log_f(t), m1, m2, (m1 + m2) / 2, ctx, digits=12))
    left = right = None
    for i, m in enumerate(modes):
        level = levels.get(m, drop)
        lo_m = _reach(log_f, m, -1, modes[i - 1] if i > 0 else a, level, ctx)
        hi_m = _reach(log_f, m, 1, modes[i + 1] if i + 1 < len(modes) else b, level, ctx)
        if i == 0:
            left = lo_m
        elif lo_m is not None:
            splits.add(lo_m)
        if i == len(modes) - 1:
            right = hi_m
        elif hi_m is not None:
            splits.add(hi_m)
    if efold and max(efold) > 0:
        scale = max(efold)
    else:
        scale = (b - a) / 2 if ctx.isfinite(b - a) else 1 + abs(mode)
    extent = [abs(t - mode) for t in (left, right) if t is not None]

    def length(e):
        # Probes at a finite end e sit at 10^−j of this: no farther than the mass reaches,
        # nor than the piece does (a piece 5·10⁻⁶ long at x = 10¹² is probed inside it).
        if not ctx.isfinite(e):
            return None
        L = min(1 + abs(e), abs(e - mode) + max(extent)) if extent else 1 + abs(e)
        return min(L, b - a) if ctx.isfinite(b - a) else L

    lengths = (length(a), length(b))
    at_end = any(L is not None and abs(mode - e) <= ctx.mpf(10) ** -8 * L for e, L in zip((a, b), lengths))
    singular = _singular_end(log_f, mode, a, b, lengths, ctx)
    if singular is None:
        splits |= _end_splits(log_f, drop, a, b, ctx)
    magnitude = max([abs(v) for v in values if ctx.isfinite(v)] + [abs(peak)])
    reach, passed, far_log_size = [None, None], [None, None], None
    for side, (sign, end, mass_end) in enumerate(((-1, a, left), (1, b, right))):
        if mass_end is None or sign * (mass_end - mode) <= 0:
            continue  # the mass reaches the piece's end on this side (or the mode is there)
        # (from the e-fold width, not where the mass ends: at 94 digits the KL of components of widths 10²⁰ and
        # 2·10²⁰ beside N(0, 1) is mass from 10¹⁰ widths on, one piece out to 10²¹ that did not settle)
        found = far_mass(log_f, mode, scale, sign, end, peak + ctx.log(scale), ctx)
        if found is not None:
            splits.update(found.splits)
            reach[side], passed[side] = found.reach, found.passed
            if found.log_size is not None:
                far_log_size = found.log_size if far_log_size is None else max(far_log_size, found.log_size)
    return Locus(mode, peak, left, right, scale, lengths, at_end, singular, tuple(sorted(splits)), rising, ctx,
                 magnitude, tuple(reach), far_log_size, tuple(passed))


def _end_splits(log_f, drop, a, b, ctx) -> set:
    """Points at each finite end's own scales (:func:`_scale_splits`), where log|f| is so steep there that its e-fold
    width is below 1/64 of the piece: a kink of a narrow component at a piece's end (a Laplace component of scale
    10⁻¹⁰ and weight 10⁻⁹ at x = 20, whose |x − 20| cuts the pieces there) is a second scale beside the bulk's, which
    tanh-sinh resolved to 20 of 30 digits, both precisions agreeing (a probe)."""
    out: set = set()
    for end, inward in ((a, 1), (b, -1)):
        if not ctx.isfinite(end):
            continue
        span = b - a if ctx.isfinite(b - a) else 1 + abs(end)
        step = ctx.ldexp(1 + abs(end), -(ctx.prec // 4))
        at = [log_f(end + inward * k * step) for k in (1, 2, 4)]
        if not all(ctx.isfinite(v) for v in at) or at[0] == at[1]:
            continue
        # An exponential edge changes log|f| in proportion to the distance (twice as much from 2 to 4 steps as from
        # 1 to 2); a power of the distance (x² log x of a beta law at 0) by the same amount at every scale, which
        # tanh-sinh resolves at the end by itself: no width to split at.
        ratio = (at[1] - at[2]) / (at[0] - at[1])
        if not 1.5 < ratio < 2.5:
            continue
        width = step / abs(at[0] - at[1])  # the distance over which log|f| changes by 1, at the end
        if 64 * width < span:
            out |= _scale_splits(log_f, drop, end, width, a, b, ctx)
    return out


def _hill_level(log_f, mode, height, located, drop, a, b, ctx):
    """The level of log|f| where the mass of another hill (at ``mode``, log|f| = ``height`` there) ends, or None if it
    holds none above 10^−(dps+5) of the located mass e^``located`` (peak × e-fold width).  Its mass is its height ×
    its own e-fold width w, and beyond a point where f·w is below 10^−(dps+5) of the located mass, what is left of it
    is too: ⅔N(0, 1) + ⅓N(10⁵⁰, (10⁴⁸)²) peaks 10⁻⁴⁹ at 10⁵⁰, below ``drop`` at 26 digits with a third of the mass,
    and at 46 digits ``drop`` cut its flanks 3.5 widths out, where 10⁻³ of its mass lies (a review: refused at both,
    right before the far-mass scan took the plateau's splits away)."""
    widths = _efold(log_f, mode, height, a, b, ctx)
    if not widths or not max(widths) > 0:
        return drop if height > drop else None
    mass = height + ctx.log(max(widths))
    if height <= drop and mass <= _negligible(located, ctx):
        return None
    return min(drop, _negligible(located - ctx.log(max(widths)), ctx))


def _negligible(peak, ctx):
    """The level of log|f| below which the integrand is negligible at the working precision: 10^−(dps+5) of its peak."""
    return peak - (ctx.dps + 5) * ctx.ln10


def _unseen_scale(width, mode, a, b, ctx) -> bool:
    """Whether an e-fold width is one the first scan could not resolve: above 10⁶, or below 10⁻⁴ at a
    mode away from the piece's finite ends (near an end, the scan extended toward it found it)."""
    if width > ctx.mpf(10) ** 6:
        return True
    if width >= ctx.mpf(10) ** -4:
        return False
    return all(not ctx.isfinite(e) or abs(mode - e) > 1000 * width for e in (a, b))


def _modes(log_f, candidates: list, values: list, a, b, ctx):
    """(mode, peak, hills) from a scan: every hill refined by golden section; None if log_f is −∞ everywhere."""
    best = max(range(len(candidates)), key=lambda i: values[i])
    if values[best] == ctx.ninf:
        return None
    hills = []  # (mode, peak) of every hill of the scan, refined
    for i in _hills(values, ctx):
        left_c = candidates[i - 1] if i > 0 else a
        right_c = candidates[i + 1] if i + 1 < len(candidates) else b
        t = golden_max(log_f, left_c, right_c, candidates[i], ctx, digits=15, anchors=(a, b))
        h, h_scan = log_f(t), log_f(candidates[i])
        if not ctx.isfinite(h) or h_scan >= h:  # e.g. a singular end, or an exact seed
            t, h = candidates[i], (h_scan if ctx.isfinite(h_scan) else values[i])
        hills.append((t, h))
    if not hills:
        # Every value the scan found above −∞ is +∞ (an overflowing log: 1 + erf(w) rounded to 0 in a log with a
        # negative coefficient): no mode to place, and the mass is not "nowhere" (None would say so).
        raise ConvergenceError(f"the integrand's log is +∞ at x = {ctx.nstr(candidates[best], 8)}: where its mass lies "
                               "could not be found")
    mode, peak = max(hills, key=lambda m: m[1])
    return mode, peak, hills


def _with_seed_hills(log_f, seeds: list, found: tuple, a, b, ctx) -> tuple:
    """(mode, peak, hills, splits) with the hills around the seeds that the scan did not see as local maxima
    (:func:`~rdpsym.quadrature.scans.hill_at_seed`: a mixture's narrow, light component on the bulk's slope), and
    points around every narrow feature at a seed, hill or dip, seen by the scan or not, at its own scales (its width
    × 4^k, up to 1 + |seed|: :func:`_scale_splits`).  Beside the bulk its flank is a second scale, which tanh-sinh
    resolved only at the higher of two working precisions (½·N(0, 1) + ½·N(3, 10⁻¹²) against N(0, 1) at α = 3/2:
    wrong from the 19th of 30 digits, both precisions agreeing), or not at all where the feature is a dip of the
    integrand (the KL integrand P·log(P/Q) of a Laplace bulk with a 10⁻⁴-wide Gaussian component of weight 10⁻⁶
    against another Laplace: 10⁻⁶ relative off; probes)."""
    mode, peak, hills = found
    drop = _negligible(peak, ctx)
    splits: set = set()
    laddered: list = []
    for seed in seeds:
        shape = curvature_at(log_f, seed, a, b, ctx)
        if shape is None:
            continue
        width = 1 / ctx.sqrt(abs(shape[0]))
        centre = seed
        bracket = hill_at_seed(log_f, seed, a, b, ctx, shape)
        if bracket is not None:
            seen = [m for m, _ in hills if bracket[0] <= m <= bracket[1]]  # a hill the scan found already
            if seen:
                centre = seen[0]
            else:
                centre = golden_max(log_f, *bracket, seed, ctx)
                height = log_f(centre)
                if ctx.isfinite(height):
                    hills.append((centre, height))
        if not any(abs(centre - c) < 2 * width for c in laddered):  # P's, Q's and the integrand's modes at one place
            laddered.append(centre)
            splits |= _scale_splits(log_f, drop, centre, width, a, b, ctx)
    mode, peak = max(hills, key=lambda m: m[1])
    return mode, peak, hills, splits


def _scale_splits(log_f, drop, centre, width, a, b, ctx) -> set:
    """Points at ``centre`` ± width·4^k inside (a, b), for a feature of that width beside mass at a larger scale: from
    64 widths out, log|f| must still be above ``drop`` (negligible) on a side for the ladder to go on there, up to
    1 + |centre|.  A narrow law alone (N(0, 10⁻³⁰⁰), a Gaussian pair at α = 10³⁰) has one scale: no ladder, which
    its 300 splits had made 12 times slower and at α = 10³⁰ unsettled (a review).  The ladder ends at the first
    point where log|f| is below ``drop``: at 40 digits a Laplace pair of scale 10⁻⁴⁰ is negligible 104 widths from
    its end but still above ``drop`` at 64, and its ladder went on to 1 + |centre|, 66 pieces of nothing (3.2 s)."""
    out: set = set()
    unit = 1 + abs(centre)
    if not (ctx.isfinite(width) and 0 < 64 * width < unit):
        return out
    for side in (-1, 1):
        far = centre + side * 64 * width
        if not (a < far < b and log_f(far) > drop):
            continue  # nothing but the feature itself on this side: tanh-sinh resolves one scale
        step = width
        while step < unit:
            t = centre + side * step
            if not a < t < b:
                break
            out.add(t)
            if log_f(t) < drop:
                break  # the mass ends here: past it, tanh-sinh has nothing to resolve
            step *= 4
    return out


def _efold(log_f, mode, peak, a, b, ctx) -> list:
    """The distances from the mode at which log_f has fallen by 1, on each side that has one."""
    return [abs(t - mode) for t in (_reach(log_f, mode, -1, a, peak - 1, ctx), _reach(log_f, mode, 1, b, peak - 1, ctx))
            if t is not None]


def _singular_end(log_f, mode, a, b, lengths, ctx):
    """A :class:`PeakAtEnd` when |f| grows like a power |t − e|^c (c < 0) toward a finite end e, else None.

    A singular end rises by the same amount per decade as t nears e; a smooth
    steep one rises by 10⁴ times less from 10⁻¹² to 10⁻¹⁶ than from 10⁻⁸ to
    10⁻¹² of the end's length.  Checked at every finite end, not only where the
    scan put the mode: with a lobe of the other sign (P·log(P/Q)) or a scale
    below the scan's first point, the mode found may not be the singular end.
    """
    singular, rise = None, None
    for e, inward, L in ((a, 1, lengths[0]), (b, -1, lengths[1])):
        if L is None:
            continue
        h8, h12, h16 = (log_f(e + inward * ctx.mpf(10) ** -j * L) for j in (8, 12, 16))
        d1, d2 = h12 - h8, h16 - h12
        if not (ctx.isfinite(d1) and ctx.isfinite(d2)):
            continue
        if d1 > ctx.mpf(10) ** -3 and d2 > ctx.mpf(10) ** -3 and d1 / 2 < d2 < 2 * d1:
            here = abs(mode - e) <= ctx.mpf(10) ** -8 * L
            if singular is None or here or h16 > rise:
                singular, rise = PeakAtEnd(low=inward > 0), (ctx.inf if here else h16)
    return singular


#: Decades the scan of a piece may be extended by, outward or toward a finite end, while log_f still rises.
_MAX_EXTENSION = 4096


#: Hills of a scan refined at most (the highest first).
_MAX_HILLS = 8


def _extend_scan(log_f, pts: list, values: list, a, b, ctx):
    """Extend the scan while log_f rises at its outermost points: outward at an infinite end, toward a
    finite end at a finite one, by 1, 2, 4, ... decades at a time (up to :data:`_MAX_EXTENSION`).

    Returns the points, their values and, if log_f still rose at the farthest point
    of an infinite end, that point (else None).
    """
    rising = None
    for end, sign in ((b, 1), (a, -1)):
        if len(pts) < 2:
            break
        outer, inner = (-1, -2) if sign > 0 else (0, 1)
        if ctx.isfinite(end):
            _extend_toward_end(log_f, pts, values, end, sign, ctx)
            continue
        base = a if sign > 0 and ctx.isfinite(a) else (b if sign < 0 and ctx.isfinite(b) else ctx.mpf(0))
        step = 1
        decades = 0
        while decades < _MAX_EXTENSION:
            if not (ctx.isfinite(values[outer]) and values[outer] > values[inner]):
                break
            d = pts[outer] - base
            t = base + d * ctx.mpf(10) ** step
            if sign * (t - pts[outer]) <= 0:  # the farthest point is on the other side of base
                t = pts[outer] + sign * (1 + abs(pts[outer]))
            _insert(pts, values, t, log_f(t), sign > 0)
            decades += step
            step = min(2 * step, 64)
        if ctx.isfinite(values[outer]) and values[outer] > values[inner]:
            rising = pts[outer]
    return pts, values, rising


def _extend_toward_end(log_f, pts: list, values: list, end, sign: int, ctx) -> None:
    """Add points between the scan and the finite ``end`` (above ``b`` if sign = 1, i.e. below it) while log_f
    rises toward it: 1, 2, 4, ... decades closer each time, as far as the precision resolves points near it."""
    first, second = (-1, -2) if sign > 0 else (0, 1)
    resolution = ctx.ldexp(abs(end), -ctx.prec + 4)  # 0 at an end at 0: any distance is a point
    step = 1
    decades = 0
    rates = []  # rise per decade of each step
    while decades < _MAX_EXTENSION:
        if not (ctx.isfinite(values[first]) and values[first] > values[second]):
            return
        d = abs(end - pts[first]) / ctx.mpf(10) ** step
        if d <= resolution:
            return
        t = end - sign * d
        v = log_f(t)
        rates.append((v - values[first]) / step)
        _insert(pts, values, t, v, sign > 0)
        decades += step
        step = min(2 * step, 64)
        # A steady rise per decade is a power law |t − e|^c: a singular end (the scan has reached it;
        # Locus.singular tells), not a peak still ahead.
        if len(rates) >= 3 and all(abs(x - rates[-1]) <= abs(rates[-1]) / 8 for x in rates[-3:-1]):
            return


def _insert(pts: list, values: list, t, v, at_end: bool) -> None:
    if at_end:
        pts.append(t)
        values.append(v)
    else:
        pts.insert(0, t)
        values.insert(0, v)


def _hills(values: list, ctx) -> list:
    """Indices of the scan's hills: local maxima separated by a valley deeper than one e-fold.

    Adjacent local maxima with no real valley between them (rounding noise on a flat
    scan) are one hill, represented by the higher.  The global best is always one;
    at most :data:`_MAX_HILLS` are returned, the highest first.
    """
    n = len(values)

    def at(i):
        return values[i] if 0 <= i < n else ctx.ninf

    peaks = [i for i in range(n) if ctx.isfinite(values[i]) and values[i] >= at(i - 1) and values[i] >= at(i + 1)]
    hills: list[int] = []
    for i in peaks:
        if hills:
            j = hills[-1]
            valley = min(values[j + 1:i], default=min(values[j], values[i]))
            depth = 1 + ctx.mpf(10) ** -15 * max(abs(values[i]), abs(values[j]))
            if valley > min(values[i], values[j]) - depth:
                if values[i] > values[j]:
                    hills[-1] = i
                continue
        hills.append(i)
    return sorted(hills, key=lambda i: values[i], reverse=True)[:_MAX_HILLS]


def _sharpen(log_f, mode, peak, a, b, width, ctx):
    """A better (mode, peak) when 15 relative digits left the mode over 10⁻⁶ e-folds off, else None.

    Golden section stops at 10⁻¹⁵·(1 + |mode|); a peak of width 10⁻⁴ at 10¹² (or
    10⁻¹⁰ at 10³) needs more digits than that to be placed within its width.
    """
    if width is None or width == 0 or not ctx.isfinite(peak):
        return None
    unit = 1 + abs(mode)
    placed = ctx.mpf(10) ** -15 * unit
    if placed <= ctx.mpf(10) ** -6 * width:
        return None
    digits = min(ctx.dps - 5, int(ctx.log10(unit / width)) + 8)
    if digits <= 15:
        return None
    span = 4 * (placed + width)
    t = golden_max(log_f, max(a, mode - span), min(b, mode + span), mode, ctx, digits=digits)
    h = log_f(t)
    return (t, h) if ctx.isfinite(h) and h > peak else None
