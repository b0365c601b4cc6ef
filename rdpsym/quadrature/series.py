"""Direct summation of a series outward from its largest term.

Everything runs with the mpmath context ``ctx`` handed in and at its precision.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import sympy as sp

from rdpsym.foundations.errors import ConvergenceError
from rdpsym.foundations.numbers import shorten

oo = sp.oo


#: Terms a series may take (both sides of its largest term together) before it is declared too wide to sum.
MAX_TERMS = 100_000

#: Binary exponents of the offsets at which an infinite series is scanned for its largest term:
#: every one up to 2⁶², then sparser up to 2⁴⁰⁹⁶ (beyond any number rdpsym reads: 10¹⁰⁰⁰).
_EXPONENTS = (*range(63), 64, 80, 96, 128, 160, 192, 256, 320, 384, 512, 640, 768, 1024, 1280, 1536, 2048, 2560,
              3072, 4096)


def sums_summed(value: sp.Expr, ctx, compile_term: Callable) -> sp.Expr:
    """``value`` with each series of numbers in it replaced by its sum (:func:`sum_range`, each term compiled by
    ``compile_term(expr, index, ctx)``), at 20 more bits than ``ctx``'s.  SymPy's own evalf of a discrete Gaussian
    law's normaliser Σ_j e^{−200 j²} (σ = 1/20) gives up, and the definition's log-pmf was no number (a probe: a raw
    TypeError out of the law's derivation)."""
    summed = {}
    with ctx.extraprec(20):
        for s in value.atoms(sp.Sum):
            if len(s.limits) != 1:
                continue
            (j, lo, hi), = s.limits
            if s.function.free_symbols - {j} or lo.free_symbols or hi.free_symbols:
                continue
            try:
                total = sum_range(compile_term(s.function, j, ctx), lo, hi, ctx)
            except ConvergenceError as exc:
                # a series of numbers no route sums (a discrete Gaussian's normaliser at σ = 10⁵ spans more terms than
                # a series may add) did not converge here: it was left, and said to be "not a real number", a raw
                # TypeError out of the law's derivation (a probe)
                raise ConvergenceError(f"the series {shorten(s)} in a constant could not be summed: {exc}") from None
            except (TypeError, ValueError, ZeroDivisionError):
                continue
            if isinstance(total, ctx.mpf) and ctx.isfinite(total):
                summed[s] = sp.Float(total, int(ctx.prec * 0.302) + 5)
    return value.xreplace(summed)


def sum_range(term, lo: sp.Expr, hi: sp.Expr, ctx, hints: tuple = ()):
    """Σ term(k) for lo ≤ k ≤ hi, summed directly outward from the largest term; +∞ if the terms still grow
    at k = 2⁴⁰⁹⁶ from the end.

    mpmath's ``nsum`` extrapolates, and extrapolation assigns finite values to
    divergent series (Σ 2^k "=" −1): a Rényi moment must never get one.  The
    terms of the pmfs rdpsym meets decay geometrically or faster away from
    their largest one, which is found on a doubling scan and refined by ternary
    search (a Poisson pair of λ = 10⁶ has it at k ≈ 5·10⁵, 24 000 terms from the
    scan's 2¹⁹); the sum runs outward from it until the terms are below
    10^−(dps+10) of the sum.  A series whose mass spans more than
    :data:`MAX_TERMS` terms is a :class:`ConvergenceError` before any summing.  A
    term given as a :class:`~rdpsym.quadrature.integrands.LogForm` is scanned by
    its logarithm and summed relative to the largest term (a term of e^(−10⁹)
    is never formed).  ``hints`` are indices k scanned besides the offsets 2^j − 1 (the largest terms of a
    mixture's components: :func:`largest_terms`), so a group of terms that the scan's spacing and the
    terms' slope at its offsets would both miss is found where a component puts it.
    """
    log_form = getattr(term, "parts", None)
    if lo is not -oo and hi is not oo:
        n = int(hi) - int(lo) + 1
        if n <= MAX_TERMS:
            return ctx.fsum(term(k) for k in range(int(lo), int(hi) + 1))
    if lo is -oo and hi is oo:
        return sum_range(term, -oo, sp.S(-1), ctx, hints) + sum_range(term, sp.S.Zero, oo, ctx, hints)
    start, step = (int(lo), 1) if lo is not -oo else (int(hi), -1)
    far = None if (hi is oo or lo is -oo) else abs(int(hi) - int(lo))  # the other end's offset, if finite

    def log_size(d):
        if log_form is not None:
            size = term.log_abs(start + step * d)
            # (a log that is not real, log|v| + iπ: a term rounded below 0, the noise of one that is exactly 0 —
            # 4(−1)^k/9 + 4/9 at k = 1 — or a negative pmf, which the sum below refuses; its size is log|v|)
            return size if type(size) is ctx.mpf else ctx.re(size)
        v = abs(term(start + step * d))
        return ctx.log(v) if v != 0 else ctx.ninf

    scan = _scan(log_size, far, [(k - start) * step for k in hints])
    if scan is None:  # still growing at k ~ 2^4096
        if _growth_slowing(log_size, ctx):
            raise ConvergenceError(
                f"the series' terms still grow at k ≈ 2^{_EXPONENTS[-1]} but ever more slowly: its largest term lies "
                "beyond what is summed here")
        return ctx.inf  # the terms do not tend to 0
    offsets, sizes, modes = scan
    mode = max(modes, key=log_size)
    peak_log = log_size(mode)
    drop = peak_log - (ctx.dps + 10) * ctx.ln10
    try:
        right, left = (_reach(log_size, mode, direction, far, drop) for direction in (1, -1))
        # Offsets the scan found above the drop but away from the largest term: a second group of terms (a mixture
        # of Poisson(1) and Poisson(1000)), which a sum outward from the largest one stops short of.
        # (_reach counts the steps to the first term below the drop, or past the end: the window is open.)
        seen = [*zip(offsets, sizes), *((d, log_size(d)) for d in modes)]
        outside = sorted(d for d, size in seen if not mode - left < d < mode + right and size >= drop)
        first = last = mode  # the terms summed one by one; outward from them until they are negligible
        if outside:
            first, last = min(mode - left + 1, *outside), max(mode + right - 1, *outside)
            first = max(first - _reach(log_size, first, -1, far, drop) + 1, 0) if first > 0 else 0
            last += _reach(log_size, last, 1, far, drop) - 1
            if last - first > MAX_TERMS:
                raise ConvergenceError(f"the series has terms that matter at k = {start + step * outside[0]}, away "
                                       f"from its largest one (k = {start + step * mode}), more than {MAX_TERMS} "
                                       "terms apart: not summed")
    except _NoDrop as never:
        # Terms that keep their size to k ~ 2^4096 (P³/Q² of two zeta laws at α = 3: the constant ζ(3)²/ζ(2)³; a pmf of
        # floors against a geometric law: 1/8 and 1/4 in turn): the series diverges.  Their doubling went on to
        # numbers of thousands of digits, 160 s of CPU before an answer (a probe).  +∞ for terms positive wherever
        # they are looked at; a series of signed terms that do not tend to 0 ((−1)^k, cos k) has no sum (a review).
        far_k = never.offset
        looked = [far_k + j for j in range(-8, 9)] + [mode + direction * 2**j for j in range(0, 64, 7)
                                                       for direction in (1, -1)]
        signs = [(log_form(start + step * d)[1] if log_form is not None else ctx.sign(term(start + step * d)))
                 for d in looked if d >= 0]
        if not all(sign > 0 for sign in signs):
            # (said as read: the KL terms of a discrete Laplace pair of scale 10⁵⁰ are differences that cancel below
            # the working precision far out, and "it has no sum" was said of a series that has one; a probe)
            raise ConvergenceError(f"the series' terms, as read at the working precision, neither fall below its "
                                   f"level nor keep their sign (near k = {start + step * far_k}): no sum was found "
                                   "(a series of signed terms that do not tend to 0 has none)") from None
        return ctx.inf
    if not outside and right + left > MAX_TERMS:
        tail = _algebraic_tail(term, log_size, start, step, mode, far, ctx)
        if tail is not None:
            return tail
        raise ConvergenceError(
            f"the series' mass spans about {shorten(right + left, 3)} terms, more than the {MAX_TERMS} it may "
            "sum one by one")
    shift = ctx.zero
    if log_form is not None:
        shift = peak_log if ctx.isfinite(peak_log) else ctx.zero
        cutoff = -(ctx.dps + 30) * ctx.ln10

        def scaled(d):
            log_value, sign = log_form(start + step * d)
            e = log_value - shift
            if type(e) is not ctx.mpf and sign != 0:  # (a term below 0: a pmf's exact zeros are −∞ by now)
                raise ConvergenceError(f"the series' term at k = {start + step * d} is not a real number ≥ 0 "
                                       f"(its log is {ctx.nstr(log_value, 8)})")
            return sign * ctx.exp(e) if sign != 0 and e > cutoff else ctx.zero
    else:
        def scaled(d):
            return term(start + step * d)
    total = ctx.fsum(scaled(d) for d in range(first, last + 1))  # (with two groups: every term between them)
    total += _sum_direction(scaled, last + 1, 1, far, total, ctx)
    total += _sum_direction(scaled, first - 1, -1, 0, total, ctx)
    return total * ctx.exp(shift) if shift else total


#: Where an algebraic tail's exponent is read (offsets 2^20, 2^21, 2^22 from the start), and how much above 1
#: it must be for Euler–Maclaurin summation of the tail (at 1 the series diverges: the harmonic series).
_TAIL_OFFSETS, _TAIL_MARGIN = (2**20, 2**21, 2**22), 0.05
#: Terms summed one by one (from the largest) before the rest of an algebraic tail is summed by Euler–Maclaurin.
_DIRECT_BEFORE_TAIL = 2_000


def _algebraic_tail(term, log_size, start: int, step: int, mode: int, far, ctx):
    """Σ of a one-sided infinite series whose terms decay like k^(−s), s > 1 (Zipf's laws): the terms from the
    largest one directly, the rest by Euler–Maclaurin summation (mpmath's ``sumem``), or None.

    The decay is read at three far indices k: d log|term| / d log k must be the same −s on both intervals
    (to 1 %), with s > 1 + 5 %, or this is not an algebraic tail and None is returned (a :class:`ConvergenceError`
    follows).  Euler–Maclaurin evaluates the term at non-integer points: a term that cannot be gives None.
    Its accuracy is not certified here: the definition's callers compute at two working precisions and
    accept only agreement (near s = 1 they do not agree, and say so).
    """
    ks = [start + mode + d for d in _TAIL_OFFSETS]  # the terms' indices (offsets count from ``start``)
    if far is not None or step != 1 or ks[0] < 1:  # (a series from k = 0 has its slope read at k ≥ 2²⁰ too)
        return None
    sizes = [log_size(k - start) for k in ks]
    # log(k₂/k₁) as log1p((k₂ − k₁)/k₁), the difference exact: at a mode of 10¹³³ the quotient rounds to 1 and its
    # log to 0 (a Yule–Simon pair divided by it: ZeroDivisionError)
    slopes = [(b - a) / ctx.log1p(ctx.mpf(k2 - k1) / k1) for a, b, k1, k2 in zip(sizes, sizes[1:], ks, ks[1:])]
    if not all(ctx.isfinite(v) for v in slopes) or abs(slopes[0] - slopes[1]) > 0.01 * abs(slopes[0]):
        return None
    if -slopes[1] < 1 + _TAIL_MARGIN:
        return None
    cut = mode + _DIRECT_BEFORE_TAIL
    head = ctx.fsum(term(start + d) for d in range(0, cut))
    try:
        tail = ctx.sumem(term, [start + cut, ctx.inf])
    except (TypeError, ValueError, ZeroDivisionError, ArithmeticError):
        return None
    if not ctx.isfinite(tail) or ctx.im(tail) != 0:
        return None
    return head + tail


def largest_terms(log_term, lo: sp.Expr, hi: sp.Expr) -> tuple[int, ...]:
    """The indices k of the largest term and of every other local maximum the scan of :func:`sum_range` finds,
    ``log_term(k)`` being log|term(k)| (−∞ for 0); () where the terms still grow at 2⁴⁰⁹⁶ from the end."""
    if lo is -oo and hi is oo:
        return (*largest_terms(log_term, -oo, sp.S(-1)), *largest_terms(log_term, sp.S.Zero, oo))
    start, step = (int(lo), 1) if lo is not -oo else (int(hi), -1)
    far = None if (hi is oo or lo is -oo) else abs(int(hi) - int(lo))
    scan = _scan(lambda d: log_term(start + step * d), far, [])
    return () if scan is None else tuple(start + step * d for d in dict.fromkeys(scan[2]))


def _growth_slowing(log_size, ctx) -> bool:
    """Whether terms still growing at the scan's last offset grow by ever less per term there: their log size per
    term, log|t_k|/k, falls between the last two offsets by more than the working precision can blur.  So a
    Poisson pair's terms at α = 1600, λ₁^{αk}λ₂^{(1−α)k}/k! (log|t_k|/k ≈ c − log k), which peak at k ≈ 10¹²⁴¹, past
    2⁴⁰⁹⁶ ≈ 10¹²³³: their sum is finite, and +∞ "agreeing at two precisions" was returned for it, and a correct closed
    form refused at α = 2000 (a probe); and x^k/(k!)^{0.001}, whose log|t_k|/k falls by only 0.71 there (a second
    probe: a first threshold of 1 called its finite sum ∞).  Terms growing geometrically or faster (log|t_k|/k not
    falling) or like a power of k (log|t_k|/k ≈ 10⁻¹²³⁰ at both) are +∞ as before."""
    (j0, j1) = _EXPONENTS[-2:]
    k0, k1 = 2**j0 - 1, 2**j1 - 1
    before, after = log_size(k0) / k0, log_size(k1) / k1
    return after < before - ctx.mpf(10) ** (-(ctx.dps // 2)) * max(1, abs(before))


def _scan(log_size, far: int | None, hints: list[int]) -> tuple[list[int], list, list[int]] | None:
    """(offsets scanned, their log sizes, the local maxima found: the largest first), or None where the terms
    still grow at the last offset of an infinite series."""
    offsets = [2**j - 1 for j in _EXPONENTS if far is None or 2**j - 1 <= far]
    if far is not None and offsets[-1] != far:
        offsets.append(far)
    offsets = sorted({*offsets, *(d for d in hints if d >= 0 and (far is None or d <= far))})
    # Every offset is scanned: terms that fall for a while may rise again for good (Σ P^α Q^{1−α} of a
    # geometric law against a Poisson one at α = 1000 fall from e^6997 to e^−7585 at k = 21, then grow like
    # ((k−1)!)^999: D = ∞), and a scan that stopped "well past the largest term" summed the first twenty.
    offsets, sizes = _charged_offsets(log_size, offsets, far)
    peak = max(range(len(sizes)), key=lambda i: sizes[i])
    if far is None and peak == len(offsets) - 1:
        return None
    # Every local maximum between two scanned offsets, found by the terms' slope there: a group of terms
    # narrower than the scan's spacing (½Poisson(1) + ½Poisson(10⁴): ±1500 terms around 10⁴, between 2¹³ and
    # 2¹⁴, both 10⁻⁷⁰ below it) is invisible to the sizes alone, and a sum that missed it returned ½ for 1.
    modes = [_ternary_max(log_size, offsets[max(peak - 1, 0)], offsets[min(peak + 1, len(sizes) - 1)]),
             *_local_maxima(log_size, offsets, sizes, far)]
    return offsets, sizes, modes


#: How many outcomes past a scanned one where P is 0 a scan reads instead (a pmf on the even integers, or on one
#: residue modulo 3).  The series' scan offsets 2^j − 1 are odd: on such a law it read only zero terms, never saw
#: them grow, and summed until its limit (ConvergenceError where D_7 is ∞); the supremum's integer scan read
#: log(P/Q) = −∞ there and returned a finite D_∞ where it is ∞ (probes).  The sum's test that its terms stopped
#: growing compares with that many terms before the last.
NEIGHBOURS = 3


def charged_neighbour(read: Callable, t: int, step: int, charged: Callable[[object], bool],
                      lo: object = None, hi: object = None) -> tuple | None:
    """``(u, read(u))`` for the first u of t + step, t + 2·step, … (:data:`NEIGHBOURS` of them, inside [lo, hi])
    whose value ``charged`` accepts; None if there is none.

    >>> charged_neighbour(lambda k: 0 if k % 2 else 2.0 ** -k, 3, 1, lambda v: v != 0)
    (4, 0.0625)
    """
    for j in range(1, NEIGHBOURS + 1):
        u = t + step * j
        if (lo is not None and u < lo) or (hi is not None and u > hi):
            return None
        value = read(u)
        if charged(value):
            return u, value
    return None


def _charged_offsets(log_size, offsets: list[int], far: int | None) -> tuple[list[int], list]:
    """The offsets with each whose term is 0 (log size −∞) moved to the first of the next :data:`NEIGHBOURS` whose
    term is not (kept where none is), and their log sizes, in increasing order."""
    read = {}
    for d in offsets:
        size = log_size(d)
        found = charged_neighbour(log_size, d, 1, lambda v: v != -math.inf, hi=far) if size == -math.inf else None
        d, size = found or (d, size)
        read[d] = size
    ordered = sorted(read)
    return ordered, [read[d] for d in ordered]


def _local_maxima(log_size, offsets: list[int], sizes: list, far: int | None) -> list[int]:
    """The offsets of the terms' local maxima strictly between two scanned offsets where the terms rise at the
    first and fall at the second (each refined by ternary search), and at a scanned offset where they fall."""
    def rising(d, size):
        return (far is None or d < far) and log_size(d + 1) > size

    up = [rising(d, size) for d, size in zip(offsets, sizes)]
    found = []
    for i in range(len(offsets) - 1):
        if up[i] and not up[i + 1]:
            found.append(_ternary_max(log_size, offsets[i] + 1, offsets[i + 1]))
    return found


def _ternary_max(log_size, low: int, high: int) -> int:
    """The offset in [low, high] where log_size is largest (unimodal there; the scan's neighbours bracket it)."""
    while high - low > 2:
        m1, m2 = low + (high - low) // 3, high - (high - low) // 3
        if log_size(m1) < log_size(m2):
            low = m1 + 1
        else:
            high = m2
    return max(range(low, high + 1), key=log_size)


class _NoDrop(Exception):  # noqa: N818 - a signal inside this module, not an error
    """The terms did not fall below the level 2^4096 terms from where they were followed (``offset``, counted from the
    series' start, is where they were still above it): they do not tend to 0."""

    def __init__(self, offset: int):
        self.offset = offset


def _reach(log_size, mode: int, direction: int, far: int | None, level) -> int:
    """How many terms from ``mode`` toward ``direction`` until log_size < level (or the series ends); :class:`_NoDrop`
    where they are still above it 2^4096 terms away (as far as the scan looks: :data:`_EXPONENTS`)."""
    end = (far if far is not None else None) if direction > 0 else 0
    d = 1
    while True:
        k = mode + direction * d
        if (end is not None and (k - end) * direction >= 0) or log_size(k) < level:
            break
        if end is None and d > 2 ** _EXPONENTS[-1]:  # (a finite range ends: its sum is its terms')
            raise _NoDrop(k)
        d *= 2
    low, high = d // 2, d
    while high - low > 1:
        mid = (low + high) // 2
        k = mode + direction * mid
        if (end is not None and (k - end) * direction >= 0) or log_size(k) < level:
            high = mid
        else:
            low = mid
    return high


def _sum_direction(term, k0: int, step: int, end: int | None, scale, ctx):
    """Σ term(d) from offset k0 in direction ``step`` until ``end`` or until the terms are negligible."""
    eps = ctx.mpf(10) ** (-ctx.dps - 10)
    total, small_run, recent = ctx.mpf(0), 0, []
    for i in range(MAX_TERMS):
        k = k0 + step * i
        if end is not None and (k - end) * step > 0:
            return total
        t = term(k)
        total += t
        size = abs(t)  # KL terms P·log(P/Q) may be negative
        # Not growing: no larger than the largest of the last few terms, not the last one alone (a pmf on the even
        # integers has a 0 (or rounding noise) between two terms, and each term "grew" from it: the sum of a valid
        # pmf ran to its limit of terms and the law was refused: a probe)
        if size <= eps * (abs(total) + abs(scale)) and (not recent or size <= max(recent)):
            small_run += 1
            if small_run >= 20:
                return total
        else:
            small_run = 0
        recent = [*recent[-NEIGHBOURS:], size]
    raise ConvergenceError(f"the series did not converge within {MAX_TERMS} terms of its largest term")
