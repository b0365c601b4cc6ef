"""The supremum of a log-ratio log P − log Q over a pair's pieces (the order α = ∞).

Everything runs with the mpmath context ``ctx`` handed in and at its precision.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import pairwise

import sympy as sp

from rdpsym.foundations.budget import Unsettled, settled_cache, time_budget
from rdpsym.foundations.errors import ConvergenceError
from rdpsym.foundations.logs import expand_logs
from rdpsym.foundations.precision import sympy_evalf_guard
from rdpsym.quadrature.compile import to_mpf
from rdpsym.quadrature.divergent import LIMIT_FAILURES
from rdpsym.quadrature.locate import locate
from rdpsym.quadrature.scans import golden_max, hill_at_seed, scan_points
from rdpsym.quadrature.seeds import critical_seeds
from rdpsym.quadrature.series import _ternary_max, charged_neighbour

oo = sp.oo


def sup_log_ratio(pairs: Iterable, var: sp.Symbol, log_p: Callable, log_q: Callable, ctx, *,
                  discrete: bool, ratio_for: Callable | None = None, reasons: list | None = None):
    """sup over the support of P of log(P/Q), by scanning and local refinement.

    ``pairs`` are the pieces of the common refinement of P and Q with their
    branches (records with ``lo``, ``hi``, ``p``, ``q``), ``log_p`` and ``log_q`` the log-densities as functions of
    ``var`` (an integer one if ``discrete``); ``ratio_for(pair)``, if given, is log(p/q) on a piece
    computed without the cancellation of log_p − log_q (see
    :func:`rdpsym.quadrature.compile.log_ratio_function`).  +∞ where p > 0 = q on a piece, or
    where the log-ratio grows without bound, with the reason appended to ``reasons`` (if given).

    Unboundedness is decided first by the limits of log(p/q) at the ends of each
    piece (SymPy, within a time budget: e^(−x)/√(πx) against e^(−x) has
    log(P/Q) → ∞ as x → 0⁺, and two log-normal laws of different μ have a
    log-ratio linear in log x), then numerically.  On an unbounded piece the
    scan reaches 10⁸ e-fold widths of P (and at least 10⁸) around P's mode, so a
    log-ratio that grows like x/σ² is seen growing whatever σ, and a pair at mean
    10⁹ is scanned where it lives; it is extended further, by 1, 2, 4, ...
    decades, while the log-ratio still rises, and toward each finite end the same
    way: a rise that keeps its pace per decade (a power or a logarithm of the
    distance) is unbounded, a rise that fades has a limit.  The critical points of
    log P − log Q (:func:`critical_seeds`) are tried too.
    """
    best = ctx.ninf
    for pair in pairs:
        lo, hi, bp, bq = pair.lo, pair.hi, pair.p, pair.q
        if bp == 0:
            continue
        if bq == 0:
            _say(reasons, f"P > 0 = Q on ({lo}, {hi})")
            return ctx.inf
        try:
            candidate = _piece_sup(pair, var, log_p, log_q, ctx, discrete, ratio_for, reasons)
        except ConvergenceError:
            candidate = None
            why = _unbounded_by_limit(bp, bq, var, lo, hi, discrete)
            if not why:
                raise
            _say(reasons, why)
        if candidate is None or candidate == ctx.inf:
            return ctx.inf
        best = max(best, candidate)
    return best


def _piece_sup(pair, var, log_p, log_q, ctx, discrete, ratio_for, reasons):
    """sup of log(p/q) on one piece (+∞ with the reason appended, when it grows without bound)."""
    lo, hi, bp, bq = pair.lo, pair.hi, pair.p, pair.q
    line = None if discrete else _line(bp, bq, var)
    if line is not None:
        return _sup_of_line(*line, var, lo, hi, ctx, reasons)
    ratio = ratio_for(pair) if ratio_for is not None else (lambda t: log_p(t) - log_q(t))
    exact = getattr(ratio, "expanded", False)
    r = _guarded(ratio, ctx)
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
        # A step that rounds onto the end (1 − 2·10⁻⁶⁵ is 1 at 60 digits) reads the end itself, where both laws
        # may vanish and log P/Q is rounding residue over 0: +∞ for a trapezoid against a triangle (a probe)
        pts = [t for t in pts if not (t == a or t == b)]
    values = [r(t) for t in pts]
    if discrete and any(_uncharged(v, ctx) for v in values):
        pts, values = _charged(r, pts, values, a, b, ctx)
    if _unbounded(values, pts, a, b, ctx, exact):
        _say(reasons, f"log(P/Q) grows without bound toward an infinite end of ({lo}, {hi})")
        return ctx.inf
    for end, inward in ((a, 1), (b, -1)):
        if not ctx.isfinite(end) and len(pts) >= 2:
            # (a pmf's too: Skellam(1, 1) against Skellam(2, 1) has log(P/Q) = 1 − 1/(n + 1) + … at k = −n, a
            # supremum 1 that no outcome attains, and the integer scan ends at 10⁶: 0.999999 was returned)
            outermost = max(-inward * t for t in pts)
            beyond = [t for t in seeds if -inward * t > outermost and a < t < b]
            if beyond:
                # A seed past the scan (a far component's mode) is where the outward reads start: ½N(0, 1) +
                # ½N(10³⁰⁰, 1) against N(0, 1) has log(P/Q) flat at log ½ out to the scan's 2·10⁸ and growing like
                # 10³⁰⁰·x past 5·10²⁹⁹; D_∞ came out 5·10⁵⁹⁹, its value at the seed (a review)
                pts, values = pts + beyond, values + [r(t) for t in beyond]
            why = _rises_outward(r, pts, values, end, -inward, ctx, exact, integer=discrete)
        elif discrete or not ctx.isfinite(end):
            why = None  # (a finite end of a pmf's range is an outcome: the scan read it)
        elif ctx.isfinite(b - a):
            why = _rises_toward_end(r, pts, values, end, inward, (b - a) / 4, ctx, exact)
        else:
            why = _rises_toward_end(r, pts, values, end, inward, 1 + abs(end), ctx, exact)
        if why:
            _say(reasons, why)
            return ctx.inf
    order = sorted(range(len(pts)), key=lambda j: pts[j])
    pts, values = [pts[j] for j in order], [values[j] for j in order]
    i = max(range(len(pts)), key=lambda j: values[j])
    candidate = values[i]
    if not discrete and 0 < i < len(pts) - 1:
        t = golden_max(r, pts[i - 1], pts[i + 1], pts[i], ctx)
        candidate = max(candidate, r(t))
    if discrete:
        candidate = max(candidate, _integer_hills(r, pts, values, ctx))
    else:
        candidate = max([candidate, *_at_ends(r, log_p, log_q, a, b, ctx)])
    # The seeds are exact critical points of a part of log(P/Q) (a mixture component's mode), not of log(P/Q): the
    # top of a hill around one is near it, at the component's width (hill_at_seed), and is read there too.
    tops = []
    for t in seeds:
        bracket = hill_at_seed(r, t, a, b, ctx)
        if bracket is not None:
            tops.append(golden_max(r, *bracket, t, ctx))
    return max([candidate, *(r(t) for t in [*seeds, *tops] if a < t < b)])


def _line(p: sp.Expr, q: sp.Expr, var: sp.Symbol) -> tuple[sp.Expr, sp.Expr] | None:
    """(c₀, c₁) where log(p/q) = c₀ + c₁·x exactly on the piece, or None.

    Read only where each branch is c·e^{E(x)} with a constant c > 0 (Laplace and exponential laws on a piece,
    Gaussians of one σ), so that log(c·e^E) = log c + E with no logarithm rewritten; every coefficient a number.

    >>> x = sp.Symbol("x", real=True)
    >>> _line(sp.exp(-x / 2) / 4, sp.exp(-(x - 1) / 2) / 4, x), _line(sp.S.Half, 3 * sp.exp(-3 * x), x)
    ((-1/2, 0), (-log(6), 3))
    >>> _line(sp.exp(-x**2), sp.exp(-x), x) is None  # (the scan's)
    True
    """
    exponents, constants = [], []
    for b in (p, q):
        c, rest = b.as_independent(var, as_Mul=True)
        if not (c.is_number and c.is_positive is True):
            return None
        exponent = sp.S.Zero
        for f in sp.Mul.make_args(rest):
            if not isinstance(f, sp.exp):
                if f is sp.S.One:
                    continue  # (a constant branch: a uniform law's)
                return None
            exponent += f.args[0]
        exponents.append(exponent)
        constants.append(c)
    try:
        poly = sp.Poly(sp.expand(exponents[0] - exponents[1]), var)
    except sp.PolynomialError:
        return None
    if poly.degree() > 1 or not all(k.is_number and k.is_extended_real for k in poly.all_coeffs()):
        return None
    c1, c0 = (poly.all_coeffs() if poly.degree() == 1 else [sp.S.Zero, *poly.all_coeffs()])[-2:]
    if c1.is_zero:
        c1 = sp.S.Zero
    elif not (c1.is_positive or c1.is_negative):
        return None  # a slope of no decided sign: the scan
    return sp.log(constants[0] / constants[1]) + c0, c1


def _sup_of_line(c0: sp.Expr, c1: sp.Expr, var: sp.Symbol, lo: sp.Expr, hi: sp.Expr, ctx, reasons):
    """sup of c₀ + c₁·x over (lo, hi), exactly: c₀ where c₁ = 0, else at the end c₁ points to (+∞ where that end
    is infinite)."""
    if c1 == 0:
        return to_mpf(c0, ctx)
    end = hi if c1.is_positive else lo
    if end in (oo, -oo):
        _say(reasons, f"log(P/Q) = {c0} + ({c1})·{var} grows without bound as {var} → {end}")
        return ctx.inf
    return to_mpf(sp.expand(c0 + c1 * end), ctx)


def _say(reasons: list | None, why: str) -> None:
    if reasons is not None:
        reasons.append(why)


@settled_cache(maxsize=512)
def _unbounded_by_limit(p: sp.Expr, q: sp.Expr, var: sp.Symbol, lo: sp.Expr, hi: sp.Expr, discrete: bool) -> str | None:
    """Why log(p/q) is unbounded on (lo, hi) by its limit at an end (SymPy, within a time budget), or None."""
    found = None
    budget = time_budget(2.0, "the limits of log(P/Q)", absorb=True)
    with sympy_evalf_guard(), budget:
        r = expand_logs(sp.log(p)) - expand_logs(sp.log(q))
        for end, side in ((lo, "+"), (hi, "-")):
            if discrete and end not in (oo, -oo):
                continue
            try:
                limit = sp.limit(r, var, end, side) if end not in (oo, -oo) else sp.limit(r, var, end)
            except LIMIT_FAILURES:
                continue
            if limit is oo:
                where = f"{var} → {end}" + ("" if end in (oo, -oo) else ("⁺" if side == "+" else "⁻"))
                found = f"log(P/Q) → ∞ as {where}"
                break
    if budget.spent and found is None:
        raise Unsettled(None)  # out of time: not remembered
    return found


def _guarded(log_f, ctx):
    """log_f with evaluation errors and non-real values read as −∞."""
    def h(t):
        try:
            v = log_f(t)
        except (ZeroDivisionError, ValueError, OverflowError, TypeError):
            return ctx.ninf
        return v if isinstance(v, ctx.mpf) else ctx.ninf
    return h


#: Decades a scan of the log-ratio is extended by, outward or toward a finite end.
_MAX_DECADES = 4096


def _rises_outward(r, pts: list, values: list, end, sign: int, ctx, exact: bool, integer: bool = False) -> str | None:
    """Extend the scan toward the infinite ``end`` (sign ±1) while r still rises; why r is unbounded there, or
    None.  Points and values are added to ``pts`` and ``values`` (integers, for a pmf's outcomes, if ``integer``).
    A rise that fades below the working precision per decade leaves the last value at the supremum, to that
    precision, where it is a limit no point attains."""
    order = sorted(range(len(pts)), key=lambda i: sign * pts[i])
    outer, inner = order[-1], order[-2]
    v = values[outer]
    if not (ctx.isfinite(v) and v > values[inner]):
        return None
    start = pts[outer]
    base = 1 + abs(start)
    rates: list = []
    step, decades = 1, 0
    while decades < _MAX_DECADES:
        t = start + sign * base * (ctx.mpf(10) ** (decades + step) - 1)
        if integer:
            t = int(ctx.nint(t))
        w = r(t)
        if integer and _uncharged(w, ctx):  # an outcome P does not charge: its neighbours are read instead
            t, w = charged_neighbour(r, t, -sign, lambda u: not _uncharged(u, ctx)) or (t, ctx.ninf)
        pts.append(t)
        values.append(w)
        if not ctx.isfinite(w):
            return f"log(P/Q) reaches +∞ at x = {ctx.nstr(t, 5)}" if w == ctx.inf else None
        rates.append((w - v) / step)
        v = w
        decades += step
        verdict = _verdict(rates, v, ctx, exact)
        if verdict == "bounded":
            return None
        if verdict == "unbounded":
            return (f"log(P/Q) still rises by {ctx.nstr(rates[-1], 3)} per decade of x at x = {ctx.nstr(t, 5)}: "
                    f"it grows without bound toward {'+' if sign > 0 else '-'}∞")
        step = min(2 * step, 64)
    raise ConvergenceError("log(P/Q) still rises, ever more slowly, "
                           f"{_MAX_DECADES} decades beyond the scan: its supremum cannot be told from infinity")


def _rises_toward_end(r, pts: list, values: list, end, inward: int, length, ctx, exact: bool) -> str | None:
    """Scan toward the finite ``end`` (from inside: ``inward`` = +1 at a lower end) at 10^−k of ``length``
    (k = 1, 2, 4, ...) while r still rises; why r is unbounded there, or None."""
    resolution = ctx.ldexp(abs(end), -ctx.prec + 8) if end != 0 else ctx.mpf(10) ** (-4 * ctx.dps)
    d = length
    v = r(end + inward * d)
    pts.append(end + inward * d)
    values.append(v)
    rates: list = []
    step = 1
    while True:
        d_next = d / ctx.mpf(10) ** step
        if d_next <= resolution:
            return None
        w = r(end + inward * d_next)
        pts.append(end + inward * d_next)
        values.append(w)
        if not ctx.isfinite(w):
            return f"log(P/Q) reaches +∞ at x = {ctx.nstr(end, 8)}" if w == ctx.inf else None
        rates.append((w - v) / step)
        v, d = w, d_next
        verdict = _verdict(rates, v, ctx, exact)
        if verdict == "bounded":
            return None
        if verdict == "unbounded":
            return (f"log(P/Q) rises by {ctx.nstr(rates[-1], 3)} per decade as x → {ctx.nstr(end, 8)}"
                    f"{'⁺' if inward > 0 else '⁻'}: it grows without bound there")
        step = min(2 * step, 64)


def _noise(v, ctx, exact: bool, digits: int):
    """The size below which a change of r is rounding at ``digits`` digits: relative for a log-ratio expanded
    symbolically (computed to the working precision, whatever its size), else absolute."""
    return ctx.mpf(10) ** (-digits) * (abs(v) if exact else 1 + abs(v))


def _verdict(rates: list, v, ctx, exact: bool) -> str | None:
    """From the rises of r per decade so far: "unbounded" (three in a row above the rounding, none fading
    by more than 10 %: a power or a logarithm), "bounded" (r no longer rises, to the working precision,
    or falls), or None (not yet known)."""
    if rates[-1] <= _noise(v, ctx, exact, ctx.dps - 2):
        return "bounded"
    if len(rates) >= 3:
        last = rates[-3:]
        if all(x > _noise(v, ctx, exact, ctx.dps // 2) for x in last) and all(y >= 0.9 * x for x, y in pairwise(last)):
            return "unbounded"
    return None


def _at_ends(r, log_p, log_q, a, b, ctx) -> list:
    """log(P/Q) at the piece's finite ends where both densities are positive there: the limit from inside, which the
    scan's step toward the end (10^(−dps−5) of it) does not reach once it rounds onto the end and is dropped.  A
    Laplace component of scale 10⁻⁶ and weight 10⁻⁶ at x = 5 has its supremum at the kink x = 5, a piece's end; it
    was read 10⁻¹² away, 1.4·10⁻⁶ low (below the truth: a probe).  Where a density vanishes at the end, log P/Q
    there is no limit from inside (0/0 rounding residue), and the end is left to the scan and its tests."""
    out = []
    for end in (a, b):
        if not ctx.isfinite(end):
            continue
        try:
            lp, lq = log_p(end), log_q(end)
        except (ArithmeticError, ValueError, TypeError):
            continue
        if ctx.isfinite(lp) and ctx.isfinite(lq):
            value = r(end)
            if ctx.isfinite(value):
                out.append(value)
    return out


#: Integers between two scan points read one by one (more are searched by ternary search on the integers).
_EVERY_INTEGER = 4096
#: The most integers between two scan points that are searched at all (the integer scan itself ends at 10⁶).
_SEARCHED_INTEGERS = 10**7


def _integer_hills(r, pts: list, values: list, ctx):
    """The largest log-ratio on the integers between the neighbours of every local maximum of the integer scan.

    The scan's points are a factor 10^¼ apart: a maximum between two of them was read at a scan point only.  Poisson(4)
    against (1 − 10⁻⁹)·Poisson(3) + 10⁻⁹·Poisson(200) has log P/Q rising to 13.64 at k = 51, where the far component
    takes over, and D_∞ came out 7.63, read at k = 31 (a probe).  Up to :data:`_EVERY_INTEGER` integers are read one
    by one; a longer stretch by ternary search on the integers (one hill between two scan points)."""
    def finite(k):
        v = r(k)
        return v if ctx.isfinite(v) else ctx.ninf

    best = ctx.ninf
    for i in range(1, len(pts) - 1):  # (a maximum at the scan's last point is the ends' business: a limit, or growth)
        if not ctx.isfinite(values[i]) or values[i - 1] > values[i] or values[i + 1] > values[i]:
            continue
        if values[i] - min(values[i - 1], values[i + 1]) <= ctx.ldexp(1 + abs(values[i]), -(ctx.prec // 4)):
            continue  # a plateau's rounding noise (Skellam's log P/Q creeping up to its limit 1), not a hill
        lo, hi = pts[i - 1], pts[i + 1]
        if hi - lo > _SEARCHED_INTEGERS:
            continue  # (an outward extension's points, 10³⁷ apart, where the terms are read to fewer digits)
        if hi - lo <= _EVERY_INTEGER:
            best = max([best, *(finite(k) for k in range(lo, hi + 1))])
        else:
            best = max(best, finite(_ternary_max(finite, lo, hi)))
    return best


def _charged(r, pts: list, values: list, a, b, ctx) -> tuple[list, list]:
    """The integer scan with each point where P is 0 moved to the nearest of its next
    :data:`~rdpsym.quadrature.series.NEIGHBOURS` outcomes in [a, b] where it is not (−∞ there where none is), in
    increasing order, no outcome twice."""
    read = dict(zip(pts, values))
    for t, v in zip(pts, values):
        if _uncharged(v, ctx):
            read[t] = ctx.ninf  # (0/0 where Q is 0 too: an outcome neither law charges adds nothing to the supremum)
            found = charged_neighbour(r, t, 1, lambda w: not _uncharged(w, ctx), a, b) or \
                charged_neighbour(r, t, -1, lambda w: not _uncharged(w, ctx), a, b)
            if found is not None:
                del read[t]
                read[found[0]] = found[1]
    order = sorted(read)
    return order, [read[t] for t in order]


def _uncharged(value, ctx) -> bool:
    """Whether log(P/Q) read at an outcome says P is 0 there: −∞, or NaN (0/0, where Q is 0 too)."""
    return value == ctx.ninf or ctx.isnan(value)


def _integer_scan(a, b, ctx) -> list:
    """Integers of [a, b] to read the log-ratio at, in increasing order (as :func:`_unbounded` reads them)."""
    steps = sorted({int(ctx.floor(ctx.mpf(10) ** (e / ctx.mpf(4)))) for e in range(25)})
    if a == ctx.ninf and b == ctx.inf:
        return sorted({-s for s in steps} | {0} | set(steps))
    if b == ctx.inf:
        return [int(a) + s - 1 for s in steps]
    if a == ctx.ninf:
        # Increasing, as for the other ends: read from the end, b − s + 1 went outward and a ratio that rises
        # toward b was taken for one that grows without bound toward −∞.
        return sorted(int(b) - s + 1 for s in steps)
    n = int(b - a)
    return sorted({int(a) + j for j in range(0, n + 1, max(1, n // 200))} | {int(b)})


def _unbounded(values, pts, a, b, ctx, exact: bool = False) -> bool:
    """Whether the log-ratio grows without bound toward an infinite end of the piece.

    True when it still rises steeply at the farthest scan points, or when its
    rises between successive scan points (a factor √10 apart) grow
    geometrically, like t^c with c > 0.35: that is how x/σ² looks at σ = 10¹⁰,
    where it rises by only 10⁻² over the scan (and 10⁻²⁹² at σ = 10³⁰⁰: the rise is
    measured against the log-ratio's own size when it is computed without
    cancellation).  A slower rise is left to the extended scan (:func:`_rises_outward`).
    """
    for end, seq in ((b, values), (a, list(reversed(values)))):
        if ctx.isfinite(end):
            continue
        tail = seq[-6:]
        if len(tail) >= 2 and all(y > x for x, y in pairwise(tail)):
            if tail[-1] - tail[0] > 1:
                return True
            rises = [y - x for x, y in pairwise(tail)]
            noise = _noise(tail[-1], ctx, exact, ctx.dps // 2)
            if rises[0] > noise and all(s > ctx.mpf(3) / 2 * r for r, s in pairwise(rises)):
                return True
    return False
