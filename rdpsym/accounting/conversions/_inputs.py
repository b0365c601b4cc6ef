"""Input checks and ball helpers shared by the conversions (private to the package).

How every conversion reads its arguments, as the package docstring states it (*Inputs*,
*Infinity*): a real is an ``arb`` ball or an exact number, a float read as the decimal it
prints as (:func:`~rdpsym.foundations.balls.to_fmpq`); an order α > 1 is exact or a ball,
with α − 1 formed exactly for a rational α; an infinite value is ``math.inf`` or an
``Infinite(reason)``.  Every result goes through :func:`_checked` (or :func:`_probability`
for a δ), so a NaN or infinite ball is never returned.  Also here: the two Arb helpers that
avoid a cancellation or an overflow (log(1 − 1/α), a capped exp), the check of a list of
(order, value) pairs, and the adaptive precision and certified bisection of the curves
whose terms cancel (Gaussian, Kairouz–Oh–Viswanath).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

import sympy as sp
from flint import arb, ctx, fmpq, fmpz

from rdpsym.foundations.balls import precision, to_fmpq
from rdpsym.foundations.errors import (
    ConvergenceError,
    DomainError,
    ParameterError,
    must,
    quoted,
)
from rdpsym.foundations.precision import GUARD_RUNGS
from rdpsym.foundations.reading import integer

Real = arb | fmpq | fmpz | int | Fraction | sp.Rational | float
Order = fmpq | arb | int | Fraction | sp.Rational

# --------------------------------------------------------------------------- input checks


def _real(name: str, x: object) -> arb:
    """``x`` as a finite ball at the current precision (exact numbers exactly when they fit)."""
    if isinstance(x, bool):
        raise ParameterError(must(name, "a real number (an arb ball or an exact rational)", x))
    if isinstance(x, arb):
        b = x
    elif isinstance(x, (int, fmpz, fmpq)):
        b = arb(x)
    elif isinstance(x, float) and not math.isfinite(x):
        raise ParameterError(must(name, "a finite real number", x))
    else:
        try:
            b = arb(to_fmpq(x, name))  # the one reader (floats and Fractions on its fast path), NumPy, text
        except ParameterError:
            raise ParameterError(must(name, "a real number (an arb ball or an exact rational)", quoted(x))) from None
    if not b.is_finite():
        raise ParameterError(must(name, "a finite real number", b))
    return b


def _rational(name: str, x: object) -> fmpq:
    """``x`` as an exact ``fmpq`` (a float as the decimal it prints as)."""
    if isinstance(x, bool):
        raise ParameterError(must(name, "an exact rational number", x))
    if isinstance(x, fmpq):
        return x
    if isinstance(x, (int, fmpz)):
        return fmpq(x)
    try:
        return to_fmpq(x, name)  # the one reader: a float as the decimal it prints as, NumPy scalars, text
    except ParameterError:
        raise ParameterError(must(name, "an exact rational number", quoted(x))) from None


def _delta(x: object, name: str = "delta") -> arb:
    """δ ∈ (0, 1) as a ball.  An exact δ is decided exactly and kept exact: at 64 bits 1 − 10⁻³⁰ rounded to 1,
    and a valid δ was refused, after the work, at --dps 10 but not at 50 (a probe)."""
    if not isinstance(x, (arb, bool, float)):
        try:
            exact = to_fmpq(x, name)
        except ParameterError:
            exact = None
        if exact is not None:
            if not 0 < exact < 1:
                raise ParameterError(must(name, f"in (0, 1) (0 < {name} < 1)", x))
            gap = min(exact, 1 - exact)  # bits enough to keep δ and 1 − δ apart from 0 and 1
            bits = int(gap.q).bit_length() - int(gap.p).bit_length() + int(exact.q).bit_length() + 8
            with precision(max(ctx.prec, bits)):
                return arb(exact)
    d = _real(name, x)
    if not (d > 0 and d < 1):
        raise ParameterError(must(name, f"in (0, 1) (0 < {name} < 1)", x))
    return d


def log1m(x: arb) -> arb:
    """log(1 − x) for a ball x < 1, accurate at both ends: log1p(−x) near 0; log of the exact difference near 1,
    where Arb's log1p of −(1 − 10⁻³⁰) is NaN at 86 bits.  Both forms enclose the same number."""
    return (1 - x).log() if x.mid() > 0.5 else (-x).log1p()


def _nonnegative(name: str, x: object) -> arb:
    """A ball that may touch negative numbers but must contain a nonnegative one; its nonnegative part."""
    b = _real(name, x)
    if b < 0:
        raise ParameterError(must(name, f"nonnegative ({name} ≥ 0)", x))
    return b.nonnegative_part()


def _positive(name: str, x: object) -> arb:
    b = _real(name, x)
    if not b > 0:
        raise ParameterError(must(name, f"positive ({name} > 0)", x))
    return b


def _count(k: object, maximum: int | None = None, why: str = "") -> int:
    """A number of compositions k ≥ 1 (read by the one reader of integers), at most ``maximum`` (``why``)."""
    if isinstance(k, bool) or not isinstance(k, (int, fmpz, sp.Integer)) and getattr(k, "dtype", None) is None:
        raise ParameterError(must("k", "a positive integer (k ≥ 1)", quoted(k)))
    try:
        n = integer(k, "k", minimum=1)
    except ParameterError:
        raise ParameterError(must("k", "a positive integer (k ≥ 1)", quoted(k))) from None
    if maximum is not None and n > maximum:
        raise ParameterError(must("k", f"a positive integer at most {maximum} ({why})", n))
    return n


def _order(order: object, name: str = "order") -> tuple[arb, arb]:
    """The order α as a ball, and α − 1 as a ball (formed exactly for a rational α)."""
    if _is_inf(order):
        raise DomainError(must(name, f"a finite number greater than 1 (1 < {name} < ∞) here", order))
    if isinstance(order, arb):
        if not order.is_finite():
            raise DomainError(must(name, f"greater than 1 ({name} > 1)", order))
        h = order - 1
        if not h > 0:
            raise DomainError(must(name, f"greater than 1 ({name} > 1)", order))
        return order, h
    q = _rational(name, order)
    if not q > 1:
        raise DomainError(must(name, f"greater than 1 ({name} > 1)", q))
    return arb(q), arb(q - 1)


def _log1m_inv(alpha: arb, h: arb) -> arb:
    """log(1 − 1/α) without cancellation: log(α − 1) − log1p(α − 1) for α < 2 (two terms of
    one sign), log1p(−1/α) for α ≥ 2 (a small argument)."""
    if alpha >= 2:
        return (-1 / alpha).log1p()
    return h.log() - h.log1p()


def _checked(name: str, ball: arb) -> arb:
    """``ball`` if it is a finite ball; else raise (a NaN or infinite ball is never returned)."""
    if ball.is_nan() or not ball.is_finite():
        raise ConvergenceError(
            f"{name} is not a finite ball at {ctx.prec} bits ({ball}); "
            "the inputs are outside the range these balls can represent, or need more precision."
        )
    return ball


def _probability(name: str, ball: arb) -> arb:
    """A checked ball for a δ, intersected with [0, 1] (every δ here is a probability bound)."""
    ball = _checked(name, ball).nonnegative_part()
    if ball.upper() > 1:
        ball = arb(1) if ball.lower() >= 1 else ball.lower().union(arb(1))
    return ball


def _exp_capped(x: arb) -> arb:
    """A ball containing min(1, exp(t)) for every t in the ball x.

    Through the end points when needed (exp is increasing): Arb gives up on exp of
    a very wide ball as a whole, and a δ capped at 1 must not overflow where x
    straddles 0.
    """
    if x.lower() >= 0:
        return arb(1)
    if x.upper() <= 0:
        v = x.exp()
        return v if v.is_finite() else x.lower().exp().union(x.upper().exp())
    return x.lower().exp().union(arb(1))


def _is_inf(x: object) -> bool:
    return isinstance(x, float) and x == math.inf


def _infinite_reason(x: object) -> str | None:
    """None for a finite value; for ``math.inf`` or an ``Infinite(reason)`` (as
    :mod:`rdpsym.accounting.curve` returns), the reason ("" when none is given)."""
    if _is_inf(x):
        return ""
    if not isinstance(x, (arb, int, fmpz, fmpq, Fraction, float)):
        reason = getattr(x, "reason", None)
        if isinstance(reason, str):
            return reason
    return None


# --------------------------------------------------------------------------- lists of (order, value) pairs

#: An exact ball order m·2^e is keyed by the rational it is while |e| is at most this; beyond, by (m, e)
#: (no rational order read can equal it: every number read is within 10^±1000).
_EXACT_KEY_EXPONENT = 4096


def _order_key(order: object, name: str = "order"):
    """A hashable exact key of an order, for the duplicate check: (numerator, denominator) in lowest terms for
    an exact number (an ``fmpq`` is already reduced: no Fraction to build, which dominated a long grid's check),
    ``math.inf`` itself, or a ball's midpoint and radius (built from the exponent, never 2^e itself)."""
    if isinstance(order, fmpq):
        return int(order.p), int(order.q)
    if _is_inf(order):
        return order
    if isinstance(order, arb):
        if not order.is_finite():
            raise DomainError(must(name, f"a finite number greater than 1 (1 < {name} < ∞) here", order))
        m, e = (int(v) for v in order.mid().man_exp())
        if order.is_exact() and abs(e) <= _EXACT_KEY_EXPONENT:
            f = Fraction(m) * Fraction(2) ** e
            return f.numerator, f.denominator
        return ("ball", (m, e), tuple(map(int, order.rad().man_exp())))
    q = _rational(name, order)
    return int(q.p), int(q.q)


def _pairs(values: object, name: str, what: str, keys: str) -> list[tuple[object, object]]:
    try:
        pairs = [tuple(v) for v in values]  # type: ignore[union-attr]
    except TypeError:
        raise ParameterError(must(name, f"a nonempty list of ({what}) pairs", quoted(values))) from None
    if not pairs:
        raise ParameterError(must(name, f"a nonempty list of ({what}) pairs", "[]"))
    seen: set = set()
    for p in pairs:
        if len(p) != 2:
            raise ParameterError(must(name, f"a nonempty list of ({what}) pairs", quoted(p)))
        key = _order_key(p[0], what.split(",")[0])
        if key in seen:
            shown = Fraction(*key) if isinstance(key, tuple) and len(key) == 2 and isinstance(key[0], int) else p[0]
            raise ParameterError(must(keys, "distinct", f"{shown} twice"))
        seen.add(key)
    return pairs


def _because(what: str, why: str) -> str:
    return f"{what} ({why})" if why else what


# --------------------------------------------------------------------------- adaptive precision


#: The least accuracy (bits) :func:`_adaptive` works for, whatever the caller's precision.
ADAPTIVE_FLOOR_BITS = 128


def _adaptive(name: str, compute: Callable[[], arb], exact_inputs: bool) -> arb:
    """``compute()`` at increasing guard bits until its ball has the caller's relative accuracy
    (:data:`ADAPTIVE_FLOOR_BITS` at least).

    For the curves whose two terms cancel.  With inexact (ball) inputs it stops
    early once more bits no longer help (the inputs' own radii limit the result);
    with exact inputs it goes on up to the last guard.  Rounded back to the
    caller's precision; the ball is correct whichever step it comes from.
    """
    # Never below ADAPTIVE_FLOOR_BITS: Arb's Γ(1/2, z) (the erfc of a large argument) takes 0.2–0.6 s for z ~ 10¹⁵
    # when z's ball is as wide as a 96-bit rounding, and under 0.1 ms when it is 2⁻¹²⁰ narrow.  At 64 or 70 bits (what
    # dps = 15 asks) the Gaussian's ε at δ = 0.9488, σ = 1.97·10⁻⁸ took 8–19 s of CPU; now 3 ms, the same value.
    # More bits never make a ball wrong, and the value is rounded back to the caller's precision below.
    target = max(ctx.prec, ADAPTIVE_FLOOR_BITS)
    previous = None
    for extra in GUARD_RUNGS:  # extra bits tried in turn by the curves that cancel (Gaussian, KOV)
        with precision(target + extra):
            v = compute()
        if v.is_finite() and (v.is_zero() or v.rel_accuracy_bits() >= target - 2):
            break
        acc = v.rel_accuracy_bits() if v.is_finite() else None
        if not exact_inputs and previous is not None and acc is not None and acc <= previous + 1:
            break
        previous = acc
    return _checked(name, +v)


def _is_exact(*xs: object) -> bool:
    """Whether every input is an exact number (a rational, or an exact ball)."""
    return all(x.is_exact() for x in xs if isinstance(x, arb))


def _bisect_decreasing(name: str, f: Callable[[fmpq], arb], target: arb,
                       near: tuple[fmpq, ...] = ()) -> arb:
    """The ball [x_lo, x_hi] around x* = min{x ≥ 0 : f(x) ≤ target} of a continuous decreasing f.

    Invariants: x_lo = 0 or f(x_lo) > target (certified), so x* ≥ x_lo; and
    f(x_hi) ≤ target (certified), so x* ≤ x_hi.  Returns exactly 0 when f(0) ≤ target.

    The trial points are chosen by the Illinois variant of regula falsi on the balls'
    midpoints (a guide only: about a dozen evaluations where bisection to the working
    precision takes one a bit).  It runs on log f when the target is positive: the curves
    here are probabilities falling toward 0 nearly exponentially, and on f itself regula
    falsi crawls in from one side.  A bisection step replaces it when the trial values
    stop improving (a curve close to a step function).  Once a trial value overlaps the
    target, or the secant's step from an end rounds to nothing, x* is within the balls'
    resolution of that point, and :func:`_close_in` certifies ends either side of it.
    Only certified comparisons move the ends, so the result is as certain as bisection's.

    ``near``: a caller's guesses (a < b, both > 0) of ends either side of x*, a guide only like the secant: each is
    evaluated and taken as an end only where the comparison certifies it.  Where f falls like a step far from 0
    (the Gaussian's δ(ε) at σ = 10⁻³⁰ drops from 1 to 10⁻³⁰ over 10⁻²⁹ of ε* ≈ 5·10⁵⁹), doubling from 1 takes an
    evaluation a bit of x* and bisection then another a bit of the step's depth in the bracket: 300 where the
    guess leaves about 20.
    """
    v = f(fmpq(0))
    if v.upper() <= target.lower():
        return arb(0)
    lo, hi, v_lo = fmpq(0), fmpq(1), v
    known = None  # f(hi), where a guess already certified it at or below the target
    for guess in near:
        if not guess > lo:
            continue
        value = f(guess)
        if value.lower() > target.upper():
            lo, v_lo = guess, value  # certified above the target: x* lies beyond it
            hi = max(hi, 2 * guess)
        elif value.upper() <= target.lower():
            hi, known = guess, value  # certified at or below it: an upper end
            break
        else:
            hi = 2 * guess  # undecided: x* is near the guess, the doubling below starts past it
            break
    for _ in range(4096):
        v, known = (f(hi) if known is None else known), None
        if v.upper() <= target.lower():
            break
        if v.lower() > target.upper():
            lo, v_lo = hi, v
        hi *= 2
    else:
        raise ConvergenceError(f"{name}: no upper end found for the bisection (f(x) > {target} up to x = {hi}).")
    bits = ctx.prec
    goal = target.mid()
    on_log = goal > 0

    def guide(value: arb) -> arb | None:  # f − target at a trial point (log f − log target), from midpoints
        m = value.mid()
        if on_log:  # log1p of the relative difference: exact to the last bit when f(x) is close to the target
            return ((m - goal) / goal).log1p() if m > 0 else None
        return m - goal

    def resolution(value: arb) -> arb | None:  # how far x* may be from a point whose value is ``value`` (None: unknown)
        a, b = guide(v_lo), guide(v)  # (the ends' own values: Illinois halves g_lo, g_hi)
        if a is None or b is None:
            return None
        slope = abs(b - a) / arb(hi - lo) * (goal if on_log else 1)  # in f's units (d log f = df/f)
        r = (value.rad() + target.rad()) / slope
        return r if r.is_finite() else None

    g_lo, g_hi = guide(v_lo), guide(v)
    kept = 0  # +1 / −1: which end the last steps kept (Illinois halves the kept end's value)
    sizes: list[arb] = []  # |guide| at the trial points: a step that does not halve it in two is a bisection
    for _ in range(4 * bits + 64):
        if hi - lo <= hi / fmpz(2) ** bits:
            break
        stalled = len(sizes) >= 3 and not sizes[-1] * 2 < sizes[-3]
        # The secant as lo + (hi − lo)·g_lo/(g_lo − g_hi): its rounding error scales with the bracket
        # (the textbook (lo·g_hi − hi·g_lo)/(g_hi − g_lo) loses all digits once the g's are small).
        x = None if stalled or g_lo is None or g_hi is None else \
            _midpoint_rational(arb(lo) + arb(hi - lo) * (g_lo / (g_lo - g_hi)))
        if x is not None and not lo < x < hi:  # the secant's step from an end rounds to nothing
            end, value = (lo, v_lo) if x <= lo else (hi, v)
            lo, hi = _close_in(f, target, end, lo, hi, bits, resolution(value))
            break
        x = (lo + hi) / 2 if x is None else x
        value = f(x)
        g = guide(value)
        sizes.append(abs(g) if g is not None else arb("inf"))
        if value.lower() > target.upper():
            lo, g_lo, v_lo = x, g, value
            if kept == -1 and g_hi is not None:
                g_hi /= 2
            kept = -1
        elif value.upper() <= target.lower():
            hi, g_hi, v = x, g, value
            if kept == 1 and g_lo is not None:
                g_lo /= 2
            kept = 1
        else:  # f(x) overlaps the target: x* is within the balls' resolution of x
            lo, hi = _close_in(f, target, x, lo, hi, bits, resolution(value))
            break
    return _checked(name, arb(lo).union(arb(hi)))


def _close_in(f: Callable[[fmpq], arb], target: arb, x: fmpq, lo: fmpq, hi: fmpq, bits: int,
              resolution: arb | None) -> tuple[fmpq, fmpq]:
    """The bracket [lo, hi] narrowed to certified ends either side of ``x`` (where f(x) ≈ target).

    Trial points x ± step, the step doubling from a quarter of ``resolution`` — how far x* may lie
    from x given the balls' radii and the slope of f, a guide only — or from the precision's last
    bit, whichever is larger: where the balls are wide (inexact inputs), starting at the last bit
    would cost about an evaluation a bit.  Every certified comparison moves an end, on either side
    of x: a point above the target raises lo, one below lowers hi.  Where the resolution is unknown
    (``None``: the balls' midpoints give no slope), :func:`_close_in_from_the_ends` instead.
    """
    if resolution is None:
        return _close_in_from_the_ends(f, target, x, lo, hi, bits)
    step = (x if x > 0 else hi) / fmpz(2) ** bits  # (at x = 0, the last bit of the bracket's scale)
    guide = _midpoint_rational(resolution / 4)
    if guide is not None and guide > step:
        step = guide
    for _ in range(2 * bits):
        if hi - lo <= 2 * step:
            break
        for point in (x + step, x - step):
            if lo < point < hi:
                lo, hi, _ = _moved(f, target, point, lo, hi)
        step *= 2
    return lo, hi


def _moved(f: Callable[[fmpq], arb], target: arb, point: fmpq, lo: fmpq, hi: fmpq) -> tuple[fmpq, fmpq, bool]:
    """The bracket with ``point`` as a new end where the comparison of f(point) with the target is certified (above
    it: lo; at or below it: hi), and whether it was."""
    v = f(point)
    if v.lower() > target.upper():
        return point, hi, True
    if v.upper() <= target.lower():
        return lo, point, True
    return lo, hi, False


def _close_in_from_the_ends(f: Callable[[fmpq], arb], target: arb, x: fmpq, lo: fmpq, hi: fmpq,
                            bits: int) -> tuple[fmpq, fmpq]:
    """:func:`_close_in` where the balls' resolution is unknown: steps halving from the bracket's ends toward ``x``,
    each side stopping at its first point the comparison cannot decide (closer in, f's ball overlaps the target
    at least as much: f is monotone and its balls' widths change slowly), or at the precision's last bit.

    Such balls are wide: the Gaussian's δ(ε) at σ = 10⁻¹⁰⁰⁰ and 1 024 bits holds [0, 1] within 10⁻⁴ of its root
    (ε σ and 1/(2σ) cancel over 3 300 bits), and stepping out from the last bit cost two evaluations a bit of the
    precision there (2 022, 0.8 s) for the bracket this finds in about thirty.
    """
    floor = (x if x > 0 else hi) / fmpz(2) ** bits
    for side in (1, -1):
        step = ((hi - x) if side == 1 else (x - lo)) / 2
        while step > floor:
            point = x + side * step
            if lo < point < hi:
                lo, hi, decided = _moved(f, target, point, lo, hi)
                if not decided:
                    break
            step /= 2
    return lo, hi


def _midpoint_rational(ball: arb) -> fmpq | None:
    """A finite ball's midpoint, exactly, as a rational (None if it is not finite or of extreme size)."""
    if not ball.is_finite():
        return None
    mantissa, exponent = ball.mid().man_exp()
    if abs(exponent) > 100_000:
        return None
    return fmpq(mantissa) * fmpq(2) ** int(exponent) if exponent >= 0 else fmpq(mantissa, fmpz(2) ** int(-exponent))
