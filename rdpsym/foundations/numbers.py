"""Numbers of a result that print at the digits that were asked for, and pickle exactly.

mpmath numbers print at mpmath's *global* precision (15 digits by default) and
Arb balls at ``flint.ctx.dps``, whatever the digits a computation was asked
for; Arb balls do not pickle at all.  A result's numbers are therefore:

* :class:`Digits`, an ``mpmath.mpf`` that carries its ``dps`` and prints with
  it (``str`` and ``repr``); mpmath arithmetic on it works as on any ``mpf``
  (and gives a plain ``mpf``).
* :class:`Enclosure`, an ``arb`` that carries its ``dps`` and prints its
  midpoint to the digits its radius allows (at least ``dps``) with its true
  radius; two enclosures are equal when they are the same ball.

Both pickle exactly: the binary midpoint and radius, not a decimal.

>>> import pickle, mpmath
>>> from flint import arb
>>> from rdpsym.foundations.balls import precision
>>> with precision(200):
...     third = arb(1) / 3
>>> e = Enclosure(third, 20)
>>> print(e)
[0.3333333333333333333333333333333333333333333333333333333333331259 +/- 3.12e-61]
>>> print(third.rad().mid().str(3, radius=False))
3.11e-61
>>> pickle.loads(pickle.dumps(e)) == e, pickle.loads(pickle.dumps(e)).rad() == third.rad()
(True, True)
>>> from rdpsym.foundations.precision import private_context
>>> with private_context(30) as ctx:
...     v = Digits(ctx.mpf(1) / 3, 20)   # the value exactly, from any context
>>> print(v)
0.33333333333333333333
>>> v
mpf('0.33333333333333333333')
>>> v * 3 > 0.99, type(v * 3) is mpmath.mpf, pickle.loads(pickle.dumps(v)) == v
(True, True, True)
"""

from __future__ import annotations

import math
import re
from decimal import Decimal
from fractions import Fraction
from typing import Self

import mpmath
import sympy as sp
from flint import arb
from mpmath.libmp import (
    dps_to_prec,
    from_man_exp,
    from_pickable,
    from_rational,
    from_str,
    mpf_pos,
    round_ceiling,
    round_nearest,
    to_pickable,
    to_rational,
    to_str,
)
from sympy.core.sympify import converter as sympy_converter

from rdpsym.foundations.balls import floor_log10 as _floor_log10


def exact_mpf(value: object) -> mpmath.mpf:
    """A global-context ``mpmath.mpf`` holding ``value`` exactly.

    ``value`` is an ``mpf`` of any context (a private one), a SymPy ``Float``,
    an Arb ball (its midpoint) or an int.  ``mpmath.mpf(value)`` would round it
    to mpmath's global precision -- whatever the user set it to.

    >>> from flint import arb
    >>> exact_mpf(arb(2) ** -3000) == mpmath.ldexp(1, -3000), exact_mpf(10**40) == 10**40
    (True, True)
    """
    return mpmath.mp.make_mpf(_raw(value))


def exact_rational(value: object) -> sp.Rational:
    """``value`` (as for :func:`exact_mpf`) as the SymPy rational it is exactly, sign included (mpmath's
    ``man_exp`` is the mantissa without its sign: −√2/2 read through it was +√2/2).

    >>> from flint import arb
    >>> exact_rational(mpmath.mpf(-0.75)), exact_rational(arb(3) / 8)
    (-3/4, 3/8)
    """
    p, q = to_rational(_raw(value))
    return sp.Rational(int(p), int(q))


def _raw(value: object) -> tuple:
    """The raw mpmath value (sign, mantissa, exponent, bits) of ``value``, exactly."""
    if hasattr(value, "_mpf_"):
        return value._mpf_
    if isinstance(value, arb):
        m, e = value.mid().man_exp()
        return from_man_exp(int(m), int(e))
    if isinstance(value, int) or getattr(value, "is_Integer", False):
        return from_man_exp(int(value), 0)
    raise TypeError(f"no exact mpf for {type(value).__name__}")


def rounded_mpf(value: object, dps: int) -> mpmath.mpf:
    """``value`` (as for :func:`exact_mpf`) rounded to ``dps`` digits, as a global-context ``mpf`` --
    what ``+mpmath.mpf(value)`` gives inside ``mpmath.workdps(dps)``, without setting any precision.

    >>> with mpmath.workdps(5):
    ...     expected = mpmath.mpf(2) / 3
    >>> rounded_mpf(mpmath.mpf(2) / 3, 5) == expected, mpmath.mp.dps
    (True, 15)
    """
    if getattr(value, "is_Rational", False) and not getattr(value, "is_Integer", False):  # a SymPy p/q
        return mpmath.mp.make_mpf(from_rational(int(value.p), int(value.q), dps_to_prec(dps), round_nearest))
    return mpmath.mp.make_mpf(mpf_pos(_raw(value), dps_to_prec(dps), round_nearest))


def decimal_mpf(text: str, dps: int, up: bool = False) -> mpmath.mpf:
    """A decimal string read at ``dps`` digits (as ``mpmath.mpf(text)`` inside ``mpmath.workdps(dps)``),
    rounded to nearest, or upward with ``up``, as a global-context ``mpf``."""
    return mpmath.mp.make_mpf(from_str(text, dps_to_prec(dps), round_ceiling if up else round_nearest))


def shorten(text: object, digits: int = 5) -> str:
    """``text`` (or an object's ``str``) with every long number in it written to ``digits`` significant digits, for
    messages.

    A 600-digit number buries the message around it; an integer or decimal
    with more than ``digits`` + 7 digits is shortened (``1e+300``, ``0.33333``).  An object whose ``str`` Python
    refuses (an integer of more than 4 300 digits: a Poisson pair's closed form at order 10⁴, whose message was a
    raw ValueError, a probe) is shown by its value to ``digits`` digits.

    >>> shorten(f"sigma = {10**300}, x = 1/{3 * 10**40}, q = 0.333333333333333333333333333")
    'sigma = 1e+300, x = 1/3e+40, q = 0.33333'
    >>> import sympy as sp
    >>> shorten(sp.Rational(2**20000 + 1, 3))
    '1.3268e+6020'
    """
    if not isinstance(text, str):
        try:
            text = str(text)
        except ValueError:  # (Python's limit on an integer's decimal digits)
            text = _value_text(text, digits)
    def short(match: re.Match) -> str:
        number = match.group(0)
        if len(number.replace(".", "").replace("-", "").lstrip("0")) <= digits + 7:
            return number
        d = Decimal(number)
        shown = f"{d:.{digits - 1}e}"
        mantissa, exponent = shown.split("e")
        mantissa = mantissa.rstrip("0").rstrip(".") if "." in mantissa else mantissa
        exponent = int(exponent)
        if -5 <= exponent < digits and "." in number:
            return f"{d:.{digits}g}"
        return f"{mantissa}e{exponent:+d}"

    return re.sub(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])", short, text)


def _value_text(value: object, digits: int) -> str:
    """``value`` to ``digits`` digits where its exact text is too long for Python to write."""
    try:
        return sp.sstr(sp.sympify(value, strict=True).evalf(digits))
    except (ValueError, TypeError, sp.SympifyError):
        return f"a {type(value).__name__} too long to write"


class Digits(mpmath.mpf):
    """An ``mpmath.mpf`` computed to ``dps`` significant digits, which it prints with."""

    __slots__ = ("dps",)

    def __new__(cls, value: object, dps: int) -> Self:
        obj = object.__new__(cls)
        # The value exactly (mpf(value) would round it to mpmath's global precision).
        obj._mpf_ = _raw(value) if hasattr(value, "_mpf_") or isinstance(value, (arb, int)) else mpmath.mpf(value)._mpf_
        obj.dps = int(dps)
        return obj

    def __str__(self) -> str:
        return to_str(self._mpf_, self.dps, strip_zeros=False)

    def __repr__(self) -> str:
        return str(self) if self.context.pretty else f"mpf('{self}')"

    def __reduce__(self):
        return _digits, (to_pickable(self._mpf_), self.dps)


class Infinity(mpmath.mpf):
    """``+inf`` as an ``mpmath.mpf`` that also says why (``reason``; None if not known).

    A divergence that is +∞ is returned as this: it compares, prints and
    computes as ``mpmath.inf``, and ``reason`` says where the definition
    diverges ("log(P/Q) → ∞ as x → 0⁺").

    >>> v = Infinity("P > 0 = Q on (1, 2)")
    >>> v == mpmath.inf, mpmath.isinf(v), v, v.reason
    (True, True, mpf('+inf'), 'P > 0 = Q on (1, 2)')
    """

    __slots__ = ("reason",)

    def __new__(cls, reason: str | None = None) -> Self:
        obj = object.__new__(cls)
        obj._mpf_ = mpmath.inf._mpf_
        obj.reason = reason
        return obj

    def __reduce__(self):
        return Infinity, (self.reason,)


def _digits(state, dps: int) -> Digits:
    obj = object.__new__(Digits)
    obj._mpf_ = from_pickable(state)
    obj.dps = dps
    return obj


def _sympy_float(value: Digits) -> sp.Float:
    """``value`` as a SymPy Float at the digits it was computed to.  SymPy reads an mpf at mpmath's global precision (53
    bits unless changed): ``sp.N(derivation.result, 40)`` of a numeric result printed 40 digits of which 17
    were right (a probe).

    >>> with mpmath.workdps(50):
    ...     third = Digits(mpmath.mpf(1) / 3, 40)
    >>> sp.N(third, 40)
    0.3333333333333333333333333333333333333333
    """
    return sp.Float._new(value._mpf_, dps_to_prec(value.dps))  # (its digits, not the guard bits it holds beyond)


sympy_converter[Digits] = _sympy_float  # (SymPy's hook for a type of another library: Digits before its mpf)


class Enclosure(arb):
    """A certified ball, computed for ``dps`` digits: it prints with its true radius and pickles exactly."""

    def __init__(self, ball: arb, dps: int):
        # The ball rebuilt from its midpoint and radius, as unpickling rebuilds it: exactly the same
        # midpoint (not rounded to the working precision); Arb may round the 30-bit radius up by one
        # unit once, so an Enclosure contains the ball and a pickled one comes back equal.
        state = _state(ball)
        if len(state) == 2:
            super().__init__(*state)
        else:  # not finite: as it is
            super().__init__(ball)
        self.dps = int(dps)

    def text(self) -> str:
        """``[midpoint +/- radius]``: the midpoint to ``dps`` digits, or more where the radius is smaller, and
        the radius rounded up (with the midpoint's rounding, under 1 % of it): the printed interval contains
        the ball.  An exact ball that ``dps`` digits spell is printed alone."""
        if not self.is_finite():
            return self.str(radius=True)
        if _beyond_exact(self):  # Arb's own decimal interval (it contains the ball), from the exponents
            return self.str(self.dps, radius=True)
        mid, rad = (_fraction(*b.man_exp()) for b in (self.mid(), self.rad()))
        digits = self.dps
        if mid and rad:
            digits = max(digits, _floor_log10(abs(mid) / rad) + 4)
        shown = _nearest(mid, digits) if mid else Fraction(0)
        error = rad + abs(mid - shown)
        if not error:
            return _decimal(shown, digits)
        return f"[{_decimal(shown, digits) + ' ' if shown else ''}+/- {_upper3(error)}]"

    __str__ = text
    __repr__ = text

    # The same ball (a record's equality); arb's == asks whether two numbers are certainly equal.
    def __eq__(self, other: object) -> bool:
        if isinstance(other, arb):
            return _state(self) == _state(other)
        return arb.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        if isinstance(other, arb):
            return _state(self) != _state(other)
        return arb.__ne__(self, other)

    def __hash__(self) -> int:
        return hash(_state(self))

    def __reduce__(self):
        return _enclosure, (_state(self), self.dps)


#: A ball whose binary exponents exceed this is printed by Arb from its exponents: as exact fractions
#: (below) 10^(−10^6) alone takes seconds, and an exponent of 10^300 (δ at ε = 1e300) could not be built.
_EXACT_EXPONENT = 1 << 14


def _beyond_exact(ball: arb) -> bool:
    return any(abs(int(b.man_exp()[1])) > _EXACT_EXPONENT for b in (ball.mid(), ball.rad()))


def _fraction(man, exp) -> Fraction:
    return Fraction(int(man)) * Fraction(2) ** int(exp)


def _nearest(v: Fraction, digits: int) -> Fraction:
    """``v`` rounded to ``digits`` significant decimal digits."""
    scale = Fraction(10) ** (digits - 1 - _floor_log10(abs(v)))
    return Fraction(round(v * scale)) / scale


def _decimal(v: Fraction, digits: int) -> str:
    """A rational with at most ``digits`` significant digits, written out (trailing zeros kept)."""
    if not v:
        return "0"
    shift = digits - 1 - _floor_log10(abs(v))
    n = int(v * Fraction(10) ** shift)
    d = Decimal((0 if n >= 0 else 1, tuple(int(c) for c in str(abs(n))), -shift))
    return format(d, "f") if -20 <= digits - 1 - shift <= 20 else str(d).replace("E", "e")


def _upper3(v: Fraction) -> str:
    """A positive rational rounded up to 3 significant digits, as Arb writes a radius (``3.61e-61``)."""
    k = _floor_log10(v)
    n = math.ceil(v * Fraction(10) ** (2 - k))
    if n == 1000:
        n, k = 100, k + 1
    return f"{n // 100}.{n % 100:02d}" + (f"e{k}" if k else "")


def _state(ball: arb) -> tuple:
    """The ball exactly: (mantissa, exponent) of its midpoint and of its radius (a text if not finite)."""
    if not ball.is_finite():
        return (ball.str(radius=True),)
    mid, rad = ball.mid().man_exp(), ball.rad().man_exp()
    return (int(mid[0]), int(mid[1])), (int(rad[0]), int(rad[1]))


def _enclosure(state: tuple, dps: int) -> Enclosure:
    return Enclosure(arb(*state), dps)


__all__ = ["Digits", "Enclosure", "Infinity", "decimal_mpf", "exact_mpf", "rounded_mpf", "shorten"]
