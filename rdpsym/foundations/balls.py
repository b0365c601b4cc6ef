"""Certified arithmetic: python-flint's Arb balls, and SymPy expressions evaluated in them.

An ``arb`` is a midpoint and a radius; every operation returns a ball that is
guaranteed to contain the exact result.  The accounting layer computes in balls
and reads both its decimal values (the midpoint, once the radius is below the
requested digits) and its certified enclosures from the same computation.

Arb's working precision is global state (``flint.ctx.prec``): python-flint 0.9
has one precision per process and no per-call precision.  :func:`precision`
sets it for a block and restores it, like ``mpmath.workprec``, under one
process-wide lock: see there what that guarantees across threads.
"""

from __future__ import annotations

import math
import os
from decimal import Decimal
from fractions import Fraction

import sympy as sp
from flint import arb, ctx, fmpq

from rdpsym.foundations import precision as _precision_module
from rdpsym.foundations.ball_programs import decision, decision_once, program, run_once
from rdpsym.foundations.erfc_forms import stable_erf
from rdpsym.foundations.errors import (  # noqa: F401 - raised here
    ConvergenceError,
    InfiniteValue,
    NotCertifiable,
    OutsideDomain,
    ParameterError,
    Undecided,
    must,
    shorten,
)
from rdpsym.foundations.precision import BITS_PER_DIGIT, bits_for  # noqa: F401 - re-exported with the balls
from rdpsym.foundations.reading import dps as read_dps
from rdpsym.foundations.reading import exact, float_as_typed, rational

#: Held by the thread inside a :func:`precision` block (re-entrant: blocks nest).  It is
#: :data:`rdpsym.foundations.precision.NUMERIC_LOCK`, the lock SymPy's evalf runs under too (see there why one).
PRECISION_LOCK = _precision_module.NUMERIC_LOCK
if hasattr(os, "register_at_fork"):  # registered after precision's own: the child's fresh lock, shared again
    os.register_at_fork(after_in_child=lambda: globals().update(PRECISION_LOCK=_precision_module.NUMERIC_LOCK))


class precision(_precision_module.NumericBlock):  # noqa: N801 - used like mpmath.workprec
    """Run a block at ``bits`` of Arb working precision.

    >>> with precision(200):
    ...     arb.pi().rel_accuracy_bits() > 190
    True

    Across threads: the block holds :data:`PRECISION_LOCK`, so two rdpsym
    computations never run at once at each other's precision, and each block
    restores the precision it found, inside the lock: after any rdpsym call a
    thread finds ``flint.ctx.prec`` as it was.  Since python-flint has one
    precision per process, a thread that uses python-flint directly *while* an
    rdpsym call runs in another thread computes at that call's precision until
    the block ends (hold ``PRECISION_LOCK``, or use a ``precision`` block, to
    wait for it); if it sets ``ctx.prec`` meanwhile, its setting is kept (the
    block restores only a precision it still finds at its own value), and
    rdpsym's balls stay certified -- an Arb ball contains the truth at any
    precision -- they may only be wider, which rdpsym's precision ladder
    notices as a radius too large.
    """

    def __init__(self, bits: int):
        self.bits = int(bits)

    def start(self) -> None:
        self.saved = ctx.prec
        ctx.prec = self.bits

    def finish(self) -> None:
        saved = getattr(self, "saved", None)
        if saved is not None and ctx.prec == self.bits:
            ctx.prec = saved


def to_fmpq(value: object, name: str = "value") -> fmpq:
    """An exact rational as ``fmpq``, read by :func:`rdpsym.foundations.reading.rational`.

    A Python float is read as the decimal it prints as (``1.1`` is 11/10), the
    rule of the whole package.

    >>> to_fmpq(sp.Rational(11, 10)), to_fmpq(3), to_fmpq(3.141592653589793)
    (11/10, 3, 3141592653589793/1000000000000000)
    """
    if isinstance(value, fmpq):
        return value
    if type(value) is float and math.isfinite(value):  # (a NumPy float subclass goes to the reader)
        value = float_as_typed(value)  # an exact decimal parse, without SymPy (conversions call this per input)
    if isinstance(value, Fraction):
        return fmpq(value.numerator, value.denominator)
    if isinstance(value, sp.Rational):
        return fmpq(int(value.p), int(value.q))
    return rational(value, name)


def holds_digits(ball: arb, dps: int) -> bool:
    """Whether ``ball`` holds ``dps`` significant digits (and 3 guard bits); exactly 0 does.  A non-finite ball
    does not, yet: more bits may resolve it (a closed form dividing by α − 1 at α = 1 + 10⁻⁶⁰ below 200 bits).

    >>> holds_digits(arb(1) / 3, 10), holds_digits(arb(0), 50), holds_digits(arb("nan"), 5)
    (True, True, False)
    """
    return ball.is_zero() or (ball.is_finite() and ball.rel_accuracy_bits() >= dps * 3.33 + 3)


def to_arb(expr: object, values: dict | None = None) -> arb:
    """Evaluate a real SymPy expression as an Arb ball at the current precision.

    ``values`` maps free symbols to ``arb`` balls (or numbers).  Supported:
    rationals, Floats (their exact binary value), π, e, +, ×, powers, exp,
    log, sqrt, erf/erfc, sinh/cosh/tanh, sin/cos/tan/atan, arccosh, Γ, the incomplete Γ(s, z) and γ(s, z),
    the exponential integrals Ei and E_s, the Legendre function
    P_ν(z), the Bessel functions I_ν and K_ν, Abs, Min/Max and Piecewise whose conditions the
    balls decide.  Anything else raises
    :class:`~rdpsym.foundations.errors.NotCertifiable` (an rdpsym error, and a ``TypeError``) so a
    caller can fall back to a labelled non-certified value.

    >>> x = sp.Symbol("x")
    >>> with precision(100):
    ...     b = to_arb(sp.exp(x) / 2 + sp.Rational(1, 3), {x: 1})
    ...     b.overlaps(arb.const_e() / 2 + arb(1) / 3), b.rel_accuracy_bits() > 90
    (True, True)
    """
    expr = stable_erf(expr) if isinstance(expr, sp.Basic) else exact(expr, "expression")
    return _read_and_run(expr, values, program, run_once)


def decide_in_balls(condition: object, values: dict | None = None) -> bool:
    """Whether a SymPy condition (relations joined by And, Or, Not) holds at ``values``, decided in Arb balls at the
    current precision: :class:`~rdpsym.foundations.errors.Undecided` where a relation's balls overlap (an exact gap
    of 0 decides Eq, Ne, ≤ and ≥), :class:`~rdpsym.foundations.errors.NotCertifiable` for a part balls cannot
    evaluate.

    >>> a = sp.Symbol("a", positive=True)
    >>> with precision(128):
    ...     decide_in_balls(sp.Rational(999999, 10**6) ** a > sp.Rational(1, 2), {a: 1 - sp.Rational(1, 10**8)})
    True
    """
    return _read_and_run(condition, values, decision, decision_once)


def _read_and_run(expr: sp.Basic, values: dict | None, kept, once):
    """``expr`` at ``values`` (made balls): read by ``kept`` (:mod:`~rdpsym.foundations.ball_programs` keeps the
    reading) when its symbols are given values -- it is evaluated at many points --, else by ``once``; a part of the
    expression given a value (f(x) say) is made a symbol first, for this call only (a Dummy is new each time)."""
    balls = {k: (v if isinstance(v, arb) else _number(v)) for k, v in (values or {}).items()}
    named = {k: sp.Dummy() for k in balls if not isinstance(k, sp.Symbol)}
    if not named:
        return kept(expr)(balls) if balls else once(expr, balls)
    return once(expr.xreplace(named), {named.get(k, k): v for k, v in balls.items()})


def _number(v: object) -> arb:
    if isinstance(v, (int, fmpq)):
        return arb(v)
    if isinstance(v, sp.Rational):  # built already, so nothing for the reader's size guard to stop
        return arb(fmpq(int(v.p), int(v.q)))
    if isinstance(v, Fraction):
        return arb(fmpq(v.numerator, v.denominator))
    return run_once(exact(v, "value"))


def upper_decimal(ball: arb, digits: int) -> str:
    """A decimal string of ``digits`` significant digits that is ≥ every point of ``ball``.

    This is how a published ε is rounded: upward, so the printed guarantee is
    never stronger than the certified one.  ``digits`` is read by the one reader
    of digit counts (:func:`rdpsym.foundations.reading.dps`, at least 1, at most
    :data:`~rdpsym.foundations.reading.MAX_DPS`).  The decimal exponent comes from
    the ball's binary exponent, never from building the number, so a δ of
    10^(−10^300) rounds as fast as 1/3:

    >>> with precision(100):
    ...     upper_decimal(arb(1) / 3, 5), upper_decimal(-arb(1) / 3, 5), upper_decimal(arb(2) ** -2000, 3)
    ('0.33334', '-0.33333', '8.71E-603')
    >>> with precision(100):   # a carry into the next power of ten keeps the digits asked for
    ...     upper_decimal(1 - arb(10) ** -10, 6), lower_decimal(-1 + arb(10) ** -10, 3)
    ('1.00000', '-1.00')
    >>> with precision(100):
    ...     upper_decimal(arb(2) ** -(10**12), 5), upper_decimal(arb("inf"), 3)
    ('1.0443E-301029995664', 'inf')
    """
    return _round_decimal(_ball(ball), _digits(digits), up=True)


def lower_decimal(ball: arb, digits: int) -> str:
    """A decimal string of ``digits`` significant digits that is ≤ every point of ``ball``.

    >>> with precision(100):
    ...     lower_decimal(arb(1) / 3, 5), lower_decimal(arb(2) ** -(10**12), 5)
    ('0.33333', '1.0442E-301029995664')
    """
    return _round_decimal(_ball(ball), _digits(digits), up=False)


def _ball(value: object) -> arb:
    """A ball to round: an ``arb`` as it is, an exact number (read by the reader) as a ball containing it."""
    if isinstance(value, arb):
        if value.is_nan():
            raise ParameterError(must("ball", "a ball that is a number (not NaN)", value))
        return value
    return _number(value)


def _digits(digits: object) -> int:
    return read_dps(digits, "digits", minimum=1)


#: Up to this many bits, the integers of a rounding (the endpoint's mantissa shifted by its binary and
#: decimal exponents) are built exactly: microseconds.  Beyond it the digits are read from balls whose
#: precision is set by the *sizes* of the exponents: an endpoint 2^(−10^300) cannot be built at all.
_EXACT_BITS = 1 << 16


def _round_decimal(x: arb, digits: int, up: bool) -> str:
    """The endpoint ``x.upper()`` (``up``) or ``x.lower()`` rounded outward to ``digits`` significant digits."""
    with precision(max(ctx.prec, int(digits * 3.33) + 64)):  # (read at 53 bits, 14 of 30 digits were noise)
        end = x.upper() if up else x.lower()
    if not end.is_finite():
        return "inf" if end > 0 else "-inf"
    m, e = (int(v) for v in end.mid().man_exp())  # an endpoint is exact: m·2^e
    if m == 0:
        return "0"
    negative = m < 0
    k = _floor_log10_dyadic(abs(m), e)
    shift = digits - 1 - k
    # Up for a positive endpoint (down for a negative one) moves the magnitude away from zero.
    n = _scaled_integer(abs(m), e, shift, digits, ceiling=up != negative)
    if n == 10**digits:  # the rounding carried into the next power of ten (0.9999999 → 1.00000)
        n, shift = n // 10, shift - 1
    return _decimal_text(negative, n, shift, digits)


def _exact_scaled(a: int, e: int, j: int) -> tuple[int, int] | None:
    """a·2^e·10^j as (numerator, denominator) of integers, or None when they would be too large to build."""
    if a.bit_length() + abs(e) + 4 * abs(j) > _EXACT_BITS:
        return None
    num, den = a, 1
    num, den = (num << e, den) if e >= 0 else (num, den << -e)
    num, den = (num * 10**j, den) if j >= 0 else (num, den * 10**-j)
    return num, den


def _integer_value(a: int, e: int, j: int) -> int | None:
    """a·2^e·10^j = a·2^(e+j)·5^j (a > 0) when it is an integer, else None: decided from its 2- and 5-adic
    valuations, so a number far from any integer is never built.  Called where the value is near 10^digits."""
    twos = (a & -a).bit_length() - 1
    if e + j + twos < 0:
        return None
    if j >= 0:
        return (a * 5**j) << (e + j)
    if a.bit_length() < -j * math.log2(5):  # a cannot hold the factor 5^-j
        return None
    quotient, remainder = divmod(a, 5**-j)
    return None if remainder else quotient << (e + j) if e + j >= 0 else quotient >> -(e + j)


def _scaled_ball(a: int, e: int, j: int, bits: int) -> arb:
    """A ball around a·2^e·10^j at ``bits`` of precision (built from the exponents, never the number)."""
    with precision(bits):
        return arb(a) * arb(2) ** e * arb(10) ** j


def _bits_for_exponents(*exponents: int) -> int:
    """Working precision for balls whose exponents are this large: the exponents' own bits, and guard bits."""
    return sum(abs(v).bit_length() for v in exponents) + 64


def _compare_with_one(a: int, e: int, j: int) -> int:
    """The sign of a·2^e·10^j − 1."""
    exact = _exact_scaled(a, e, j)
    if exact is not None:
        num, den = exact
        return (num > den) - (num < den)
    if _integer_value(a, e, j) == 1:
        return 0
    bits = _bits_for_exponents(e, j) + a.bit_length()
    for _ in range(12):  # not exactly 1: balls precise enough decide the sign
        t = _scaled_ball(a, e, j, bits) - 1
        if t > 0:
            return 1
        if t < 0:
            return -1
        bits *= 2
    raise ConvergenceError(f"cannot compare a number of binary exponent {_short_int(e)} with a power of ten")


def _floor_log10_dyadic(a: int, e: int) -> int:
    """floor(log10(a·2^e)) for a > 0, from the exponents (an estimate to within one, then exact comparisons)."""
    bits = a.bit_length() + e  # a·2^e lies in [2^(bits−1), 2^bits)
    if abs(bits) < 2**50:
        k = math.floor((bits - 1) * math.log10(2))
    else:
        with precision(_bits_for_exponents(bits)):
            k = int((arb(bits - 1) * arb(2).log() / arb(10).log()).mid().floor().unique_fmpz())
    while _compare_with_one(a, e, -k) < 0:  # a·2^e < 10^k
        k -= 1
    while _compare_with_one(a, e, -(k + 1)) >= 0:  # a·2^e ≥ 10^(k+1)
        k += 1
    return k


def _scaled_integer(a: int, e: int, j: int, digits: int, ceiling: bool) -> int:
    """ceil (or floor) of a·2^e·10^j, a number of ``digits`` digits."""
    exact = _exact_scaled(a, e, j)
    if exact is not None:
        num, den = exact
        return -(-num // den) if ceiling else num // den
    whole = _integer_value(a, e, j)
    if whole is not None:
        return whole
    bits = _bits_for_exponents(e, j) + a.bit_length() + bits_for(digits)
    for _ in range(12):  # not an integer: balls precise enough decide its floor
        with precision(bits):  # (floor and ceil round to the working precision too)
            s = arb(a) * arb(2) ** e * arb(10) ** j
            if not s.contains_integer():
                n = (s.ceil() if ceiling else s.floor()).unique_fmpz()
                if n is not None:
                    return int(n)
        bits *= 2
    raise ConvergenceError(f"cannot round a number of binary exponent {_short_int(e)} to decimal digits")


def _decimal_text(negative: bool, n: int, shift: int, digits: int) -> str:
    """(−)n·10^(−shift) as text: positional when its decimal exponent is within ±20, else scientific."""
    if abs(shift) < 10**15:  # the decimal module's own notation (its exponents stop near 10^18)
        d = Decimal((1 if negative else 0, tuple(int(c) for c in str(n)), -shift))
        return format(d, "f") if -20 <= digits - 1 - shift <= 20 else str(d)
    text = str(n)
    mantissa = text[0] + ("." + text[1:] if len(text) > 1 else "")
    return ("-" if negative else "") + f"{mantissa}E{len(text) - 1 - shift:+d}"


def _short_int(v: int) -> str:
    """An integer as a message shows it: in full when short, else by its leading digits and size."""
    if abs(v) < 10**15:
        return str(v)
    return f"about 2^{abs(v).bit_length()}" if v > 0 else f"about -2^{abs(v).bit_length()}"


def floor_log10(v: Fraction) -> int:
    """floor(log10(v)) for a positive rational, exactly (no float underflow at 1e-400, no printing of
    the numerator: it starts from the bit lengths).

    >>> floor_log10(Fraction(1, 1000)), floor_log10(Fraction(999)), floor_log10(Fraction(10) ** 5000)
    (-3, 2, 5000)
    """
    num, den = v.numerator, v.denominator
    k = math.floor((num.bit_length() - den.bit_length()) * math.log10(2))
    while _at_least_power_of_ten(num, den, k) is False:
        k -= 1
    while _at_least_power_of_ten(num, den, k + 1):
        k += 1
    return k


def _at_least_power_of_ten(num: int, den: int, k: int) -> bool:
    """num/den ≥ 10^k, exactly."""
    return num >= den * 10**k if k >= 0 else num * 10**-k >= den
