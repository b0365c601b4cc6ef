"""Reading what a user gives: the one reader of numbers, expressions and orders.

Every value that reaches rdpsym from outside (a Python argument, a
command-line option, a table in a claim file, a JSON field) is read here,
into an exact SymPy object (or, for the accounting layer, an exact ``fmpq``):

* ``int``, and NumPy integer scalars, exactly;
* ``float`` (and NumPy float scalars, a float32 first widened to the float64 it
  equals) as the decimal it prints as: ``1.1`` is 11/10, not the binary double
  1.100000000000000088817841970012523...  That is what a user who types 1.1
  means, and it keeps every later step exact.  (A subnormal float, which holds fewer digits than were typed, and a
  probability in a peer accountant's object are read as the values they hold:
  :func:`~rdpsym.foundations.scalars.float_as_typed`, :mod:`rdpsym.peers._reading`);
* ``Fraction``, ``Decimal``, python-flint ``fmpq``/``fmpz``, exactly;
* an mpmath ``mpf`` at its exact binary value (it is a computed binary
  number, not a typed decimal);
* SymPy numbers and expressions (Floats inside read as their printed decimals);
* text, as plain arithmetic (``"1/3"``, ``"1e-5"``, ``"sqrt(2)/2"``, the
  parameter names the caller allows) by the grammar of
  :mod:`rdpsym.foundations.arithmetic`, which can call nothing: text is
  parsed, never evaluated.

Anything else is a :class:`~rdpsym.foundations.errors.ParameterError` naming
the parameter, what it must be, and the value given.
"""

from __future__ import annotations

import itertools
import math
import numbers
import re
from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction

import mpmath
import sympy as sp
from flint import fmpq, fmpz
from mpmath.libmp import to_rational

from rdpsym.foundations.arithmetic import (
    MAX_DIGITS,
    MAX_MAGNITUDE,
    MAX_MANTISSA_BITS,
    MAX_POWER_DIGITS,
    MAX_RATIONAL_BITS,
    MAX_RATIONAL_DIGITS,
    ArithmeticSyntaxError,
    magnitude_problem,
    parse,
    size_problem,
)
from rdpsym.foundations.errors import DomainError, ParameterError, WrongType, must, quoted
from rdpsym.foundations.scalars import float_as_typed, numpy_scalar

#: What a number may be given as, for messages.
NUMBER = "a number (such as 2, 0.5, 1/3, 1e-5 or sqrt(2)/2)"
NOT_NAN = "a number, not NaN"
ANY = "a number or a SymPy expression"
WITHIN = "a value within rdpsym's input ceilings (README: Ceilings)"


#: The most orders a list may hold (README, "Ceilings"): each is a certified evaluation of the curve and the conversion
#: (dp_accounting's grid has 156; a plot draws 200; a million take hours; ``orders="continuous"`` searches instead).
MAX_ORDERS = 10_000
#: The most outcomes of a finite table {outcome: probability} (README, "Ceilings"): each is read exactly, and 10⁶
#: of them took 80 s of CPU and ran out of memory in SymPy's checks of their signs (a review).
MAX_TABLE_OUTCOMES = 100_000
TABLE = f"a non-empty table {{outcome: probability}} of at most {MAX_TABLE_OUTCOMES} outcomes (or a pmf over a Range)"


def listed(values: object, name: str, valid: str, most: int | None = None, what: str | None = None,
           unordered: bool = False) -> list:
    """The items of a list argument (a list, a tuple, a NumPy or PyTorch vector, any iterable but text), at most
    ``most`` + 1 (an endless iterator is never read to its end); with ``what``, more is an error naming the ceiling.
    A scalar, a 0-d array, a matrix or text is an error naming ``name`` (NumPy's own errors escaped: a probe).  So is
    a set, unless ``unordered`` (the caller sorts the items): its order is not the one written, and
    ``verify(orders={3, 2}, rdp=[0.375, 0.25])`` paired 0.375 with order 2, a peer's exact values called "unsafe"
    (a probe).

    >>> listed((2, 3), "orders", "a list of orders", 10), listed(iter(range(100)), "orders", "a list", 3)
    ([2, 3], [0, 1, 2, 3])
    >>> listed(itertools.count(2), "orders", "a list of orders", 10, "orders")
    Traceback (most recent call last):
    ...
    rdpsym.foundations.errors.ParameterError: orders must be a list of at most 10 orders; got more than 10.
    """
    ndim = getattr(values, "ndim", None)
    if isinstance(ndim, int) and hasattr(values, "shape"):  # an array (NumPy, PyTorch, JAX …)
        if ndim == 0:
            raise WrongType(must(name, valid, "a 0-d array (a single value: put it in a list)"))
        if ndim != 1:
            raise WrongType(must(name, valid, f"an array of shape {'×'.join(str(n) for n in tuple(values.shape))}"))
        if callable(getattr(values, "tolist", None)):  # its numbers as Python's, read as such (no more than asked)
            try:
                values = (values if most is None else values[:most + 1]).tolist()
            except Exception as exc:  # noqa: BLE001 - foreign code (a PyTorch tensor on the meta device has no values)
                unread = f"an array whose values cannot be read ({type(exc).__name__})"
                raise WrongType(must(name, valid, unread)) from None
    if isinstance(values, (str, bytes, bytearray, memoryview)) or not hasattr(values, "__iter__"):  # (b"23": 50, 51)
        raise WrongType(must(name, valid, quoted(values)))
    if isinstance(values, Mapping):  # (iterated, a dict is its keys: rdp={2: 0.25} was read as the value 2, a probe)
        raise WrongType(must(name, valid, f"a mapping ({type(values).__name__}; its keys would be read: give its "
                                          "values as a list)"))
    if isinstance(values, (set, frozenset)) and not unordered:  # (a dict's keys() and items() keep their order)
        kind = type(values).__name__
        raise WrongType(must(name, valid, f"a {kind} (unordered: its items would not come in the order written; give "
                                          "a list)"))
    try:
        items = list(iter(values) if most is None else itertools.islice(iter(values), most + 1))
    except TypeError:
        raise WrongType(must(name, valid, quoted(values))) from None
    if what is not None and most is not None and len(items) > most:  # (not len(values): a foreign __len__ may lie)
        raise ParameterError(must(name, f"a list of at most {most} {what}", f"more than {most}"))
    return items


def exact(value: object, name: str, parameters: Mapping[str, sp.Symbol] | None = None) -> sp.Expr:
    """``value`` as an exact SymPy expression, or a :class:`ParameterError` naming ``name``.

    ``parameters`` are the names text may use (a mechanism's own parameters).

    >>> exact(1.1, "sigma"), exact("1/3 + 1e-2", "sigma"), exact(float("inf"), "order")
    (11/10, 103/300, oo)
    >>> exact("__import__('os').system('echo hacked')", "sigma")
    Traceback (most recent call last):
    ...
    rdpsym.foundations.errors.ParameterError: sigma must be a number (such as 2, 0.5, 1/3, 1e-5 or sqrt(2)/2);
    got "__import__('os').system('echo hacked')" (unknown name '__import__' at position 1).
    """
    value = _read(value, name, parameters)
    problem = size_problem(value) if isinstance(value, sp.Basic) else None
    if problem is not None:
        raise ParameterError(must(name, WITHIN, f"{_shown(value)} ({problem})"))
    problem = magnitude_problem(value)
    if problem is not None:
        valid = f"{NUMBER}, at most 10^{MAX_MAGNITUDE} in size"
        raise ParameterError(must(name, valid, f"{_shown(value)} ({problem})"))
    return value


def _read(value: object, name: str, parameters: Mapping[str, sp.Symbol] | None) -> sp.Expr:
    value = numpy_scalar(value)
    if isinstance(value, bool):  # True == 1 in Python: a bool is a mistake, never silently 1 or 0
        raise WrongType(must(name, ANY, repr(value)))
    problem = _size_before_reading(value)
    if problem is not None:  # checked before the number is built: 1e999999999 as a Decimal never becomes 10^999999999
        raise ParameterError(must(name, WITHIN, f"{_shown(value)} ({problem})"))
    if isinstance(value, float):
        if value != value:
            raise ParameterError(must(name, NOT_NAN, value))
        if value in (float("inf"), float("-inf")):
            return sp.oo if value > 0 else -sp.oo
        typed = float_as_typed(value)
        return sp.Rational(typed.numerator, typed.denominator)
    if isinstance(value, numbers.Integral):
        return sp.Integer(int(value))
    if isinstance(value, Decimal):
        if not value.is_finite():
            if value.is_nan():
                raise ParameterError(must(name, NOT_NAN, value))
            return sp.oo if value > 0 else -sp.oo
        return sp.Rational(str(value))
    if isinstance(value, Fraction):
        return sp.Rational(value.numerator, value.denominator)
    if isinstance(value, fmpq):  # python-flint's exact rationals, as the accounting layer uses
        return sp.Rational(int(value.p), int(value.q))
    if isinstance(value, fmpz):
        return sp.Integer(int(value))
    if isinstance(value, mpmath.mpf):
        if not mpmath.isfinite(value):
            if mpmath.isnan(value):
                raise ParameterError(must(name, NOT_NAN, value))
            return sp.oo if value > 0 else -sp.oo
        p, q = to_rational(value._mpf_)  # (not man_exp: the mantissa without its sign, −2 was read as 2)
        return sp.Rational(int(p), int(q))
    if isinstance(value, sp.Basic):
        if not isinstance(value, sp.Expr):  # a set, a relation, a boolean: not a value
            raise WrongType(must(name, ANY, _shown(value)))
        if value.has(sp.nan):
            raise ParameterError(must(name, NOT_NAN, value))
        if value.has(sp.zoo):  # (it was called NaN)
            raise ParameterError(must(name, "a number, not complex infinity (zoo)", value))
        # Floats inside an expression are read as their printed decimals too.
        floats = value.atoms(sp.Float)
        if floats:
            value = value.xreplace({f: sp.Rational(str(f)) for f in floats})
        return value
    if isinstance(value, str):
        if value.strip().lower() == "nan":
            raise ParameterError(must(name, NOT_NAN, "nan"))
        try:
            return parse(value, parameters)
        except ArithmeticSyntaxError as exc:
            raise ParameterError(must(name, NUMBER, f"{_quoted(value)} ({exc})")) from None
    raise WrongType(must(name, ANY, _shown(value)))


def _size_before_reading(value: object) -> str | None:
    """Why a value given is too large to read, decided from its exponents and digit counts, before reading it
    builds the number (the ceilings of :mod:`rdpsym.foundations.arithmetic`); None when it is fine."""
    beyond = f"a number beyond 10^±{MAX_MAGNITUDE} in size"
    if isinstance(value, Decimal):
        if not value.is_finite() or value.is_zero():
            return None
        if len(value.as_tuple().digits) > MAX_DIGITS:
            return f"a number with more than {MAX_DIGITS} digits"
        return beyond if abs(value.adjusted()) > MAX_MAGNITUDE else None
    if isinstance(value, mpmath.mpf):
        if not mpmath.isfinite(value) or not value:
            return None
        man, exp = value.man_exp
        return _binary_problem(int(man), int(exp))
    if isinstance(value, (numbers.Integral, fmpz)):
        return _integer_problem(int(value))
    if isinstance(value, (Fraction, fmpq)):
        num, den = (value.numerator, value.denominator) if isinstance(value, Fraction) else (value.p, value.q)
        return _integer_problem(int(num)) or _integer_problem(int(den))
    if isinstance(value, sp.Basic):
        return size_problem(value)  # a walk of the expression: nothing in it is evaluated or built
    return None


def _integer_problem(n: int) -> str | None:
    if n.bit_length() > MAX_RATIONAL_BITS:
        return f"an exact number of more than {MAX_RATIONAL_DIGITS} digits"
    return None


def _binary_problem(man: int, exp: int) -> str | None:
    """A binary number man·2^exp: a mantissa of at most about MAX_DIGITS digits, a size within 10^±MAX_MAGNITUDE."""
    if man.bit_length() > MAX_MANTISSA_BITS:
        return f"a number with more than {MAX_DIGITS} digits"
    if abs(man.bit_length() + exp) * math.log10(2) > MAX_MAGNITUDE + 1:
        return f"a number beyond 10^±{MAX_MAGNITUDE} in size"
    return None


def number(value: object, name: str) -> sp.Expr:
    """A real number (no free symbols), exact; ±∞ allowed.

    >>> number("2^-10", "delta")
    1/1024
    """
    v = exact(value, name)
    if not v.is_number or v.is_extended_real is False:
        raise ParameterError(must(name, NUMBER, _shown(value)))
    return v


def rational(value: object, name: str) -> fmpq:
    """An exact rational as ``fmpq`` (for the accounting layer, which computes in Arb balls).

    >>> rational(1e-5, "delta"), rational("1/3", "q")
    (1/100000, 1/3)
    """
    v = number(value, name)
    if not v.is_Rational:
        raise ParameterError(must(name, "a finite rational number (such as 0.5, 1/3 or 1e-5)", _shown(value)))
    return fmpq(int(v.p), int(v.q))


def open_probability(value: object, name: str) -> fmpq:
    """An exact rational in the open interval (0, 1), such as a δ: the one reader of it.

    >>> open_probability("1e-5", "delta")
    1/100000
    >>> open_probability(2, "--delta")
    Traceback (most recent call last):
    ...
    rdpsym.foundations.errors.ParameterError: --delta must be in the open interval (0, 1); got 2.
    """
    q = rational(value, name)
    if not 0 < q < 1:
        raise ParameterError(must(name, "in the open interval (0, 1)", value))
    return q


def comma_separated(text: str, name: str, what: str = "") -> list[str]:
    """The entries of a comma-separated list, stripped; an empty entry between others is refused (``2,,3`` is a
    typo, not the entries 2 and 3, and a peer's missing value would shift the rest).  ``what``: the entries'
    name in the message.

    >>> comma_separated(" 2, 3", "--orders"), comma_separated(" ", "--orders")
    (['2', '3'], [])
    """
    items = [t.strip() for t in text.split(",")]
    if len(items) > 1 and not all(items):
        listed = f"a comma-separated list of {what}" if what else "a comma-separated list"
        raise ParameterError(must(name, f"{listed} without an empty entry", quoted(text)))
    return [t for t in items if t]


_INTEGER = re.compile(r"[+-]?[0-9]+")
#: An integer in scientific notation, "1e12" or "2.5E3" (read exactly, and only where its value is a whole number).
_SCIENTIFIC_INTEGER = re.compile(r"[+-]?[0-9]+(\.[0-9]*)?[eE]\+?[0-9]+")


def integer(value: object, name: str, minimum: int | None = None) -> int:
    """An integer (``3``, ``"3"``, ``numpy.int64(3)``), at least ``minimum``; ``3.0`` and ``True`` are refused.

    >>> integer("12", "--steps", minimum=1), integer("1e12", "--steps", minimum=1)
    (12, 1000000000000)
    >>> integer("1" + "0" * 30, "--steps", minimum=1)
    Traceback (most recent call last):
    ...
    rdpsym.foundations.errors.ParameterError: --steps must be an integer >= 1, written in at most 20 characters; got ...
    """
    value = numpy_scalar(value)
    valid = "an integer" + (f" >= {minimum}" if minimum is not None else "")
    if isinstance(value, str):
        text = value.strip()
        if not (_INTEGER.fullmatch(text) or _SCIENTIFIC_INTEGER.fullmatch(text)):
            raise ParameterError(must(name, valid, _quoted(value)))
        if len(text) > MAX_INTEGER_TEXT:
            raise ParameterError(must(name, f"{valid}, written in at most {MAX_INTEGER_TEXT} characters",
                                      _quoted(value)))
        value = _scientific(text, name, valid) if _SCIENTIFIC_INTEGER.fullmatch(text) else int(text)
    if isinstance(value, bool) or not isinstance(value, (numbers.Integral, fmpz)):
        raise ParameterError(must(name, valid, _shown(value)))
    value = int(value)
    # (by the bits first, then exactly: 9·10⁹⁹⁹ was refused as more than 10^1000, a probe)
    if value.bit_length() > MAX_MAGNITUDE / math.log10(2) and abs(value) > 10**MAX_MAGNITUDE:
        raise ParameterError(must(name, f"{valid}, at most 10^{MAX_MAGNITUDE} in size", _shown(value)))
    if minimum is not None and value < minimum:
        raise ParameterError(must(name, f"an integer >= {minimum}", value))
    return value


def _scientific(text: str, name: str, valid: str) -> int:
    """An integer written as "1e12" (its exponent bounded before the integer is built: "1e999999999" is refused)."""
    exact = Decimal(text)
    if exact.adjusted() > MAX_MAGNITUDE:
        raise ParameterError(must(name, f"{valid}, at most 10^{MAX_MAGNITUDE} in size", _quoted(text)))
    if exact != exact.to_integral_value():  # ("2.5e0" is no count)
        raise ParameterError(must(name, valid, _quoted(text)))
    return int(exact)


#: The longest integer :func:`integer` reads from text (a count of steps, copies or workers).
MAX_INTEGER_TEXT = 20

#: The fewest significant digits a computation is asked for (the two-precision agreement tests and the
#: guard digits assume a few digits; a published bound may be rounded to fewer: ``minimum=1``).
MIN_DPS = 5
#: The most significant digits any computation is asked for.  The slowest path, the definition's
#: quadrature (``renyi_divergence_mp``), takes about a minute of CPU at 1000 digits (2 s at 300), the
#: certified balls a few seconds; every decimal written stays far inside Python's 4300-digit limit on
#: printing an integer; and it matches the largest number read, 10^±1000 (:data:`MAX_MAGNITUDE`).
MAX_DPS = 1000


#: Digits rdpsym's own work may add to a dps it was given (guard digits: ``dps + 3`` for a conversion's balls),
#: so that the largest dps a user may ask for is not refused inside, as a number the user never gave.
GUARD_DPS = 10


def dps(value: object, name: str = "dps", minimum: int = MIN_DPS, guarded: bool = False) -> int:
    """Significant digits asked for: an integer in [``minimum``, :data:`MAX_DPS`] (the one reader of ``dps``);
    ``guarded``: read by a routine that callers hand their dps plus guard digits, up to :data:`GUARD_DPS` more.

    >>> dps("40"), dps(3, "digits", minimum=1)
    (40, 3)
    >>> dps(10000)
    Traceback (most recent call last):
    ...
    rdpsym.foundations.errors.ParameterError: dps must be an integer in [5, 1000]; got 10000.
    """
    valid = f"an integer in [{minimum}, {MAX_DPS}]"
    try:
        n = integer(value, name)
    except ParameterError:
        shown = _quoted(value) if isinstance(value, str) else _shown(value)
        raise ParameterError(must(name, valid, shown)) from None
    if not minimum <= n <= MAX_DPS + (GUARD_DPS if guarded else 0):
        raise ParameterError(must(name, valid, n))
    return n


def _quoted(text: str) -> str:
    """Text as a message shows it: quoted, and cut short when long."""
    return repr(text if len(text) <= 80 else text[:77] + "...")


def _shown(value: object) -> str:
    """Any value as a message shows it, cheaply: a number in full (the error's message then shows it to 6
    digits, :func:`~rdpsym.foundations.errors.shorten`), one too long to print by its size, anything else by
    its repr cut short; a large expression or container by its kind and size, never printed whole."""
    size = _digits_of(value)
    if size is not None and size > 4000:
        return f"a number of about {size} digits"
    if isinstance(value, sp.Basic) and not isinstance(value, sp.Number):
        parts = _parts_up_to(value, 200)
        if parts > 200:
            return f"a SymPy {type(value).__name__} of more than 200 parts"
    if isinstance(value, (list, tuple, set, frozenset, dict)) and len(value) > 20:
        return f"a {type(value).__name__} of {len(value)} items"
    try:
        shown = str(value) if isinstance(value, sp.Basic) else repr(value)
    except Exception:  # noqa: BLE001 - a hostile object's repr may raise anything: show its type
        return f"a {type(value).__name__}"
    if size is not None:
        return shown
    return shown if len(shown) <= 80 else shown[:77] + "..."


def _digits_of(value: object) -> int | None:
    """The decimal digits of the larger part of an exact number (None for anything else)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (numbers.Integral, fmpz)):
        return len_digits(int(value))
    if isinstance(value, (Fraction, fmpq, sp.Rational)):
        num, den = ((value.numerator, value.denominator) if isinstance(value, Fraction) else (value.p, value.q))
        return max(len_digits(int(num)), len_digits(int(den)))
    return None


def len_digits(n: int) -> int:
    """The number of decimal digits of an integer, from its bit length (within one)."""
    return max(1, int(abs(n).bit_length() * math.log10(2)) + 1)


def _parts_up_to(value: sp.Basic, limit: int) -> int:
    """The number of parts of a SymPy expression, counted up to ``limit + 1``."""
    count, stack = 0, [value]
    while stack and count <= limit:
        count += 1
        stack.extend(stack.pop().args)
    return count


def positive_parameter(value: object, name: str, valid: str | None = None) -> sp.Expr:
    """An exact parameter that must be > 0 (definitely false -> error).

    A symbol passes only if it is declared positive: every sign decision of
    the derivation depends on it.

    >>> positive_parameter(2, "sigma")
    2
    >>> positive_parameter(-1, "sigma")
    Traceback (most recent call last):
    ...
    rdpsym.foundations.errors.ParameterError: sigma must be positive (sigma > 0); got -1.
    """
    return _signed_parameter(value, name, "positive", valid or f"positive ({name} > 0)")


def nonnegative_parameter(value: object, name: str) -> sp.Expr:
    """An exact, finite parameter that must be ≥ 0; a symbol must be declared nonnegative (or positive).

    >>> nonnegative_parameter(0, "xi"), nonnegative_parameter("1/100", "xi")
    (0, 1/100)
    >>> nonnegative_parameter(float("inf"), "xi")
    Traceback (most recent call last):
    ...
    rdpsym.foundations.errors.ParameterError: xi must be a finite number >= 0 (xi >= 0); got oo.
    """
    return _signed_parameter(value, name, "nonnegative", f"a finite number >= 0 ({name} >= 0)")


#: The largest parameter rdpsym raises e to (ε of ε-DP and of randomized response): e^2302 ≈ 10^999.7 is the
#: last power of e within the ceiling on numbers (``MAX_POWER_DIGITS``).  Past it the pair's probabilities or the
#: curve's closed form could not be built, and the refusal named a probability or "closed form", not ε (a probe).
MAX_EXPONENTIATED = int(MAX_POWER_DIGITS * math.log(10))


def exponentiated_parameter(value: object, name: str, nonnegative: bool = False) -> sp.Expr:
    """A parameter x that rdpsym builds e^x from: positive (``nonnegative``: ≥ 0) and at most 2302.

    >>> exponentiated_parameter(1, "epsilon")
    1
    >>> exponentiated_parameter(10**6, "epsilon")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rdpsym.foundations.errors.ParameterError: epsilon must be at most 2302, so that e^epsilon ...; got 1000000.
    """
    v = nonnegative_parameter(value, name) if nonnegative else positive_parameter(value, name)
    if v.is_number and v > MAX_EXPONENTIATED:
        valid = f"at most {MAX_EXPONENTIATED}, so that e^{name} stays within 10^{MAX_POWER_DIGITS} (README: Ceilings)"
        raise ParameterError(must(name, valid, v))
    return v


def _signed_parameter(value: object, name: str, sign: str, valid: str) -> sp.Expr:
    """An exact, finite, real parameter whose SymPy assumption ``is_<sign>`` holds (unknown -> error too)."""
    v = exact(value, name)
    holds = getattr(v, f"is_{sign}")
    if v.is_finite is False and getattr(v, f"is_extended_{sign}"):  # ("must be positive; got oo" said nothing)
        raise ParameterError(must(name, valid if "finite" in valid else f"finite and {valid}", v))
    if holds is False or v.is_finite is False or v.is_extended_real is False:
        raise ParameterError(must(name, valid, v))
    if holds is None:
        raise ParameterError(must(name, valid + f", or a Symbol declared {sign}=True", f"{v}, whose sign is unknown"))
    return v


def probability_parameter(value: object, name: str, closed: bool = False) -> sp.Expr:
    """An exact parameter in the open interval (0, 1) (the closed [0, 1] if ``closed``).

    A symbol must be declared positive; ``< 1`` is then a stated hypothesis
    (SymPy assumptions cannot express it).

    >>> probability_parameter(0.75, "p")
    3/4
    >>> probability_parameter(1, "p")
    Traceback (most recent call last):
    ...
    rdpsym.foundations.errors.ParameterError: p must be in the open interval (0, 1); got 1.
    """
    valid = "in the closed interval [0, 1]" if closed else "in the open interval (0, 1)"
    v = exact(value, name)
    if closed and v.is_number and v.is_extended_real and 0 <= v <= 1:
        return v
    if v.is_positive is False or (v - 1).is_nonnegative or v.is_extended_real is False:
        raise ParameterError(must(name, valid, v))
    if v.is_positive is None:
        raise ParameterError(
            must(name, valid + ", or a Symbol declared positive=True", f"{v}, whose sign is unknown")
        )
    return v


def value_for(symbol: sp.Symbol, value: object) -> sp.Expr:
    """An exact value for ``symbol``, checked against the symbol's declared assumptions.

    >>> s = sp.Symbol("sigma", positive=True)
    >>> value_for(s, 0.5)
    1/2
    >>> value_for(s, 0)
    Traceback (most recent call last):
    ...
    rdpsym.foundations.errors.ParameterError: sigma must be positive (sigma > 0); got 0.
    """
    v = exact(value, symbol.name)
    if not v.is_number:
        raise ParameterError(must(symbol.name, "a number", v))
    if v.is_finite is False and symbol.is_finite:
        # (without this, α = oo was told "must be positive": oo is not a value of a finite symbol)
        raise ParameterError(must(symbol.name, "a finite number", v))
    if symbol.is_real and v.is_real is False:
        raise ParameterError(must(symbol.name, "real", v))  # (before an interval, whose test needs a real number)
    declared = getattr(symbol, "check_value", None)  # a parameter declared in an interval (rdpsym.parameter)
    if declared is not None:
        declared(v)  # first: "in its declared interval (0, 1)" says more than "positive" of p = 0
    checks = (
        ("positive", f"positive ({symbol.name} > 0)"),
        ("nonnegative", f"nonnegative ({symbol.name} >= 0)"),
        ("negative", f"negative ({symbol.name} < 0)"),
        ("integer", "an integer"),
        ("real", "real"),
    )
    for assumption, valid in checks:
        if getattr(symbol, f"is_{assumption}") and getattr(v, f"is_{assumption}") is False:
            raise ParameterError(must(symbol.name, valid, v))
    return v


#: How an infinite order may be spelled (compared after ``strip().lower()``).
INFINITY_WORDS = ("inf", "infinity", "oo", "∞", "+inf")


def parse_order(order: object) -> sp.Expr:
    """A symbolic order (hypothesis > 1) or a number in (0, ∞].

    >>> parse_order(1.5), parse_order("inf"), parse_order(sp.Symbol("alpha", positive=True))
    (3/2, oo, alpha)
    >>> parse_order(0)
    Traceback (most recent call last):
    ...
    rdpsym.foundations.errors.DomainError: order must be positive (0 < order <= oo); got 0.
    >>> parse_order("abc")
    Traceback (most recent call last):
    ...
    rdpsym.foundations.errors.DomainError: order must be a Symbol or a number in (0, oo];
    got 'abc' (unknown name 'abc' at position 1).
    """
    if isinstance(order, str):
        if order.strip().lower() in INFINITY_WORDS:
            return sp.oo
        try:
            value = exact(order, "order")
        except ParameterError as exc:
            raise DomainError(str(exc).replace(NUMBER, "a Symbol or a number in (0, oo]")) from None
        if not value.is_number:
            raise DomainError(must("order", "a Symbol or a number in (0, oo]", repr(order)))
    elif isinstance(order, sp.Symbol):
        if order.is_positive is False or order.is_extended_real is False:
            raise DomainError(must("order", "a positive symbol or a number in (0, oo]", order))
        return order
    else:
        value = exact(order, "order")  # NaN, a bool or an unknown type: ParameterError naming order
    if not value.is_number or value.is_extended_real is False:
        raise DomainError(must("order", "a Symbol or a number in (0, oo]", value))
    if not value.is_extended_positive:
        raise DomainError(must("order", "positive (0 < order <= oo)", value))
    return value
