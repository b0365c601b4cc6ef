"""One-dimensional numeric search at any scale: scan grids, golden-section maxima, distances by bisection.

The tools :func:`rdpsym.quadrature.locate.locate` and the supremum of
:mod:`rdpsym.quadrature.supremum` are built from, with lengths taken from the
function itself rather than fixed at 1: a scan that spans 10⁻⁶ … 10⁸ in units of
1, of a known scale and of a centre's distance from an end (:func:`scan_points`);
a golden-section search for a maximum, first in the logarithm of the distance
from an anchor when the bracket spans many decades (:func:`golden_max`,
:func:`_log_bracket`); a hill around an exact seed, at the hill's own width however
narrow (:func:`hill_at_seed`); and the distance at which a function falls below a level,
by bisection on a binary exponent, which costs the same at any scale
(:func:`_reach`).

Everything runs with the mpmath context ``ctx`` handed in (a private one) and at
its precision; nothing here changes it.
"""

from __future__ import annotations

#: Binary exponents (of 1 + |mode|) the search for a distance may reach: 2^±32768 ≈ 10^±9864.
_MAX_EXPONENT = 2**15


def _reach(log_f, mode, direction: int, end, level, ctx):
    """A point mode ± d where log_f < level (d within a factor 2 of the first such
    distance), or None if the piece ends first.

    Bisection on k in d = 2^k·(1 + |mode|): k is first bracketed by doubling
    (0, ±1, ±2, ±4, ...: a width of 10³⁰⁰ or 10⁻³⁰⁰ takes about ten evaluations),
    then bisected, so a distance costs about 2·log2|k| evaluations at any scale.
    Below the working precision's resolution at the mode, mode ± d is the mode
    itself, which ends the search toward small distances.
    """
    unit = 1 + abs(mode)

    def point(k):
        return mode + direction * ctx.ldexp(unit, k)

    def below(k):
        t = point(k)
        if (direction > 0 and t >= end) or (direction < 0 and t <= end):
            return True
        return log_f(t) < level

    if below(0):
        high, low = 0, -1
        while below(low):
            high, low = low, 2 * low
            if low < -_MAX_EXPONENT or point(low) == mode:  # (noise: "below" even at the mode's neighbours)
                low = high - 1
                break
    else:
        low, high = 0, 1
        while not below(high):
            low, high = high, 2 * high
            if high > _MAX_EXPONENT:
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


#: A finite piece longer than this many times 1 + |its end nearer 0| is scanned from its ends too (:func:`scan_points`).
_LONG = 10**6


def scan_points(a, b, ctx, scale=None, center=None) -> list:
    """A scan of the piece [a, b]: 63 even steps if finite (a long one also geometric grids from its ends, in units
    of 1; and, with a ``scale`` much smaller than the piece, a grid in its units around ``center``), else geometric
    grids from the finite end (or around ``center``, default 0) spanning 10⁻⁶ … 10⁸ in units of 1, of ``scale`` and
    of ``center``'s distance from the finite end: about 30 points per unit, at any scale."""
    if ctx.isfinite(a) and ctx.isfinite(b):
        even = [a + (b - a) * ctx.mpf(j) / 64 for j in range(1, 64)]
        if b - a > _LONG * (1 + min(abs(a), abs(b))):
            # A long piece is scanned at the unit's scales from each end too: e^{−x}/2 + 10⁻⁸⁰/2 on [0, 10⁸⁰] is flat
            # at every even step, and its hill at 0 (half the mass) was missed: D_½ 0.98 for 0.069 (a review)
            even = sorted({*even, *(t for g in _half_decades(ctx) for t in (a + g, b - g) if a < t < b)})
        if scale is None or center is None or not scale < (b - a) / 64:
            return even
        around = [center + s * scale * ctx.mpf(10) ** (e / ctx.mpf(2)) for s in (-1, 1) for e in range(-2, 17)]
        return sorted({*even, *(t for t in around if a < t < b)})
    end = a if ctx.isfinite(a) else b
    units = [ctx.mpf(1)]
    if scale is not None and scale > 0 and scale != 1:
        units.append(scale)
    if center is not None and ctx.isfinite(end) and abs(center - end) > 1:
        units.append(abs(center - end))
    grid = sorted({u * g for u in units for g in _half_decades(ctx)})
    if a == ctx.ninf and b == ctx.inf:
        c = center if center is not None else ctx.mpf(0)
        return [c - g for g in reversed(grid)] + [c] + [c + g for g in grid]
    if b == ctx.inf:
        return [a + g for g in grid]
    return [b - g for g in reversed(grid)]


def _half_decades(ctx) -> list:
    """10^(e/2) for e from −12 to 16: the geometric grid from 10⁻⁶ to 10⁸ that :func:`scan_points` lays in units."""
    return [ctx.mpf(10) ** (e / ctx.mpf(2)) for e in range(-12, 17)]


def curvature_at(h, t, a, b, ctx):
    """(h″(t), h(t)) by a second difference 2^(−prec/4) of 1 + |t| wide (exact for a parabola), or None where h is
    not finite there or the difference leaves (a, b).  A narrow feature at t (a component of width w) has
    |h″| ≈ 1/w²: its width, whatever the bulk around it does."""
    if not (ctx.isfinite(t) and a < t < b):
        return None
    top = h(t)
    if not ctx.isfinite(top):
        return None
    step = ctx.ldexp(1 + abs(t), -(ctx.prec // 4))
    if not (a < t - step and t + step < b):
        return None
    curvature = (h(t + step) - 2 * top + h(t - step)) / step**2
    return (curvature, top) if ctx.isfinite(curvature) and curvature != 0 else None


def hill_at_seed(h, seed, a, b, ctx, shape=None):
    """``(left, right)``: a bracket around ``seed`` in which ``h`` has a hill (its top then found by
    ``golden_max(h, left, right, seed, ctx)``), or None where ``h`` has no hill there.  ``shape``: the seed's
    :func:`curvature_at`, where the caller has it already.

    A seed is an exact critical point of one part of ``h`` (a mixture component's mode,
    :func:`rdpsym.quadrature.seeds.critical_seeds`), not of ``h``: the hill's top is near it, at the
    component's own width, which no scan in units of the bulk's sees.  A component of weight 10⁻⁶ and width
    10⁻⁴ at x = 5 stands e⁴ above the Gaussian bulk around it, yet below the bulk's value at x = 4: as a scan
    point it is no local maximum, and the quadrature stepped over it (D_½ 5.5 % high; a probe).  Its log
    supremum against N(0, 1) lies at 2·10⁻⁵ from the component's mode (D_∞ read at the mode: 2·10⁻⁴ low).
    The width comes from the curvature at the seed (a second difference 2^(−prec/4) of 1 + |seed| wide,
    exact for a Gaussian component's parabola); a hill is where ``h`` is lower three widths out on both sides
    (by more than the precision's noise: a hill of log P/Q may stand only 0.03 above its surroundings).
    """
    found = curvature_at(h, seed, a, b, ctx) if shape is None else shape
    if found is None or found[0] >= 0:
        return None
    curvature, top = found
    width = 3 / ctx.sqrt(-curvature)
    left, right = seed - width, seed + width
    if not (a < left and right < b and left < seed < right):
        return None
    below = top - ctx.ldexp(1 + abs(top), -(ctx.prec // 2))
    if not (h(left) < below and h(right) < below):
        return None
    return left, right


def golden_max(h, left, right, start, ctx, digits: int | None = None, anchors=()):
    """Golden-section search for the maximum of ``h`` on [left, right].

    Near a smooth maximum h(t* + d) = h* − c·d², so the value is good to the
    working precision once the bracket is below 10^(−dps/2) of its first width (a
    scan step: the local scale): iterate that far (or to 10^(−digits) of it, when
    only the place of the maximum is wanted).
    A bracket that spans many decades of distance from 0 or from one of the
    ``anchors`` outside it (a piece's finite ends, toward which a scan was
    extended) is searched in the logarithm of that distance first, where a peak
    10⁻³⁰⁰ wide is as easy to find as one of width 1.
    """
    if not (ctx.isfinite(left) and ctx.isfinite(right)):
        return start
    width = right - left
    if width <= 0:
        return start
    invphi = (ctx.sqrt(5) - 1) / 2
    digits = ctx.dps // 2 + 5 if digits is None else digits
    left, right = _log_bracket(h, left, right, (0, *anchors), invphi, ctx)
    width = right - left
    # To 10^−digits of the bracket (a scan's neighbours: the local scale), within what the precision resolves.
    target = max(ctx.mpf(10) ** (-digits) * width, ctx.ldexp(max(abs(left), abs(right)), -ctx.prec + 4))
    steps = int(ctx.log(width / target) / ctx.log(1 / invphi)) + 2 if width > target else 0
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


def _log_bracket(h, left, right, anchors, invphi, ctx):
    """[left, right] narrowed by golden section in the logarithm of the distance from the anchor (0 or a
    finite end outside the bracket) from which it spans the most decades, if more than three; else itself."""
    best = None
    for e in anchors:
        e = ctx.convert(e)
        if not ctx.isfinite(e) or left < e < right:
            continue
        near, far = sorted((abs(left - e), abs(right - e)))
        if near == 0:  # a bracket reaching the end: a rise all the way to it is a singular end, not a peak
            continue
        span = ctx.log(far / near)
        if span > 3 * ctx.ln10 and (best is None or span > best[0]):
            best = (span, e, 1 if right > e else -1, ctx.log(near), ctx.log(far))
    if best is None:
        return left, right
    _, anchor, sign, a_s, b_s = best

    def at(s):
        return anchor + sign * ctx.exp(s)

    def g(s):
        return h(at(s))

    c_s, d_s = b_s - invphi * (b_s - a_s), a_s + invphi * (b_s - a_s)
    gc, gd = g(c_s), g(d_s)
    while b_s - a_s > 1:  # to within a factor e in distance
        if gc > gd:
            b_s, d_s, gd = d_s, c_s, gc
            c_s = b_s - invphi * (b_s - a_s)
            gc = g(c_s)
        else:
            a_s, c_s, gc = c_s, d_s, gd
            d_s = a_s + invphi * (b_s - a_s)
            gd = g(d_s)
    lo_t, hi_t = sorted((at(a_s), at(b_s)))
    return max(left, lo_t), min(right, hi_t)
