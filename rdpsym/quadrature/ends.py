"""The ends of a piece: power-law tails toward an infinite end, and an integrand singular at a finite one.

Tanh-sinh stalls near 17 digits on a tail like x^(−3), and keeps only about
(1 + c)·dps digits of an integrand that behaves like |t − e|^c (−1 < c < 0) at
an end e.  Both are integrated here after a change of variable that makes the
integrand smooth and bounded: a tail beyond R by t = R ± D/u²
(:func:`_algebraic_tails`, the exponent read by :func:`_power_exponent`), a
singular end by t = e ± u^m (:func:`_quad_peak_at_end`, the exponent read by
:func:`_end_exponent`).  :func:`_interior_log_size` reads the size of such an
integrand inside the piece, where its peak at the end says too little.
The middle of the piece is left to :func:`rdpsym.quadrature.splits._settled_quad`.
"""

from __future__ import annotations

import sympy as sp

from rdpsym.foundations.errors import ConvergenceError
from rdpsym.quadrature.compile import to_mpf
from rdpsym.quadrature.integrands import _ceiling
from rdpsym.quadrature.locate import Locus
from rdpsym.quadrature.splits import _settled_quad

oo = sp.oo


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


def _quad_peak_at_end(f, lo: sp.Expr, hi: sp.Expr, where: Locus, ctx, reflected=None, unbounded=None, shifted=None):
    """Quadrature when the integrand is singular, like |t − e|^c with −1 < c < 0, at an end e (or at both).

    Tanh-sinh nodes next to an end are stored as mpf's close to ±1, so their
    distance to the end carries only the working precision in absolute terms,
    and the result keeps about (1 + c)·dps digits.  Substituting
    t = e ± u^m with m = ⌈1/(1 + c)⌉ makes the integrand f(e ± u^m)·m·u^(m−1)
    bounded near u = 0, where those node errors then cost nothing.  At an
    upper end the integrand is used ``reflected`` (a function returning it as a
    function of e − t, substituted symbolically), since 1 − (1 − u^m) would lose u^m; at a lower end e ≠ 0,
    ``shifted`` (the same, of t − e) where given, since −1 + u^m rounds to −1.
    Next to the ends the integrand is read ``unbounded`` (f without its ceiling): at a
    node u = 10⁻⁹² the density x^(−5/6) of x = u⁶ is e^1058, beyond f's ceiling, while the
    substituted integrand is bounded: the ceiling is applied to it instead (two Beta
    laws at α = 7/3 were refused).
    The other end, when finite, is probed too: the arcsine density 1/(π√(x(1 − x)))
    is singular at both, and a plain quadrature of the far half met a node that
    rounded onto 1 (its value e^{+∞}: the divergence was refused at every order).
    """
    a, b = to_mpf(lo, ctx), to_mpf(hi, ctx)

    near = unbounded if unbounded is not None else f
    ceiling = ctx.exp(_ceiling(ctx))

    def low(y):
        t = a + y
        # A node u^m below the working precision rounds onto the end itself, where the density may be
        # infinite (0^(−1/2): a ZeroDivisionError, fuzz seed 16 case 60); its tanh-sinh weight is
        # negligible, and the substituted integrand is bounded there: the node counts 0.
        return near(t) if t != a else ctx.zero

    def high_plain(y):
        t = b - y
        return near(t) if t != b else ctx.zero

    def substituted(u, g, m):
        value = g(u**m) * m * u ** (m - 1)
        if not abs(value) <= ceiling and u:
            value = _with_more_digits(lambda: g(u**m) * m * u ** (m - 1), ceiling, ctx)
        if not abs(value) <= ceiling:
            raise ConvergenceError(
                f"the integrand is {ctx.nstr(value, 5)} times its largest value found, at {ctx.nstr(u, 8)}^{m} "
                "from a singular end: where its mass lies could not be found")
        return value

    def high():
        return reflected() if reflected is not None else high_plain

    def lower():
        return shifted() if shifted is not None else low

    ends = [(a, 1, lower(), where.lengths[0])] if where.singular.low else [(b, -1, high(), where.lengths[1])]
    if where.singular.low and ctx.isfinite(b) and _end_exponent(high_plain, b - a, ctx) < 0:
        ends.append((b, -1, high(), where.lengths[1]))
    elif not where.singular.low and ctx.isfinite(a) and _end_exponent(low, b - a, ctx) < 0:
        ends.append((a, 1, lower(), where.lengths[0]))
    both = len(ends) == 2
    total, inner_lo, inner_hi = ctx.zero, a, b
    for e, sign, g, length in ends:
        length = length or 1 + abs(e)
        other = b if sign > 0 else a
        width = (b - a) / 4 if both else (length if not ctx.isfinite(other) else abs(other - e) / 2)
        c = _end_exponent(g, length, ctx)
        if c < _NEAR_MINUS_ONE:
            # |x − e|^c with c within 10⁻³ of −1 over the decades read (1/(x + ε) for ε = 10⁻³⁰ reads −1 from 10⁻¹² to
            # 10⁻²⁸ and is flat below ε): its mass spreads over a logarithmic scale that neither t = e ± u^m (m at
            # most 1000) nor a plain quadrature resolves, and at 30 digits both precisions agreed on a value wrong
            # in the 11th digit.  An error, not a value.
            raise ConvergenceError(
                f"the integrand grows like |x − {ctx.nstr(e, 8)}|^{ctx.nstr(c, 6)} toward the end {ctx.nstr(e, 8)}: "
                "a power this close to −1 spreads its mass over more decades than the quadrature resolves")
        m = int(min(1000, max(1, ctx.ceil(1 / (1 + c))))) if c > -1 else 1
        total += ctx.quad(lambda u, g=g, m=m: substituted(u, g, m), [0, ctx.root(width, m)])
        if sign > 0:
            inner_lo = e + width
        else:
            inner_hi = e - width
    # The rest still gets the split points: the mass may peak far from the singular ends.
    inner = {t for t in (where.left, None if where.at_end else where.mode, where.right, *where.others)
             if t is not None and inner_lo < t < inner_hi}
    return total + _settled_quad(f, [inner_lo, *sorted(inner), inner_hi], where, ctx)


def _with_more_digits(value, ceiling, ctx):
    """``value()`` read again at twice, four and eight times the working digits, until it is at most
    ``ceiling``: a node next to a singular end may be a cancellation, not the integrand's size (1 + cos x at
    x = π − 10⁻⁴⁵ is 0 at 60 digits, so the KL of a uniform law against a raised cosine was +∞ there and was
    refused; it is log 2).  The last reading, if none is."""
    reading = ctx.inf
    for factor in (2, 4, 8):
        with ctx.workdps(ctx.dps * factor):
            reading = value()
        if abs(reading) <= ceiling:
            break
    return +reading


#: The power of |x − e| at a singular end below which :func:`_quad_peak_at_end` refuses: t = e ± u^m resolves c ≥ −1 +
#: 1/1000 (m ≤ 1000).
_NEAR_MINUS_ONE = -1 + 1e-3


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
