"""The one error hierarchy of rdpsym.

Every error is a subclass of :class:`RdpSymError` *and* of the builtin it
refines, so ``except ValueError`` keeps working for callers who do not know
rdpsym.  Messages follow one form: ``"<name> must be <range>; got <value>."``

Messages are short: every error's message passes through :func:`shorten`, so a
number of more than :data:`SHORT_DIGITS` significant digits is shown to 6
(``1/3`` at 600 digits is ``0.333333…``), and a message longer than
:data:`MAX_MESSAGE` characters is cut in the middle.

>>> str(ParameterError("sigma must be positive; got -" + "1" * 600 + "."))
'sigma must be positive; got -1.11111…e+599.'
"""

from __future__ import annotations

import re
from decimal import MAX_EMAX, MIN_EMIN, ROUND_DOWN, Context, Decimal, Inexact

#: Numbers with more significant digits than this are shortened in messages (to 6 digits); a float's
#: repr (at most 17) and the exact values users type are shown whole.
SHORT_DIGITS = 20
#: The longest message (characters); a longer one keeps its start and its end.
MAX_MESSAGE = 1000

# A decimal number in running text (not part of a word: "x2" or "0x7f" are left alone, but after an underscore
# it is shortened: D_1000…0, an order as a subscript), optionally a fraction p/q of two integers.  One cut off by
# "..." or "…" is not a value (a long value quoted by its first characters: 1/999…9 of 999 nines, cut to 77
# characters, was shortened to "1.00000e-75", a number other than the one given; a probe): :func:`_short` keeps
# its first digits only.
_NUMBER = re.compile(r"(?<![^\W_])(?<!\.)(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)(?:/(\d+)(?!\.\d|\d))?(?![\w])")


def _significant(text: str) -> int:
    mantissa = re.split("[eE]", text)[0].replace(".", "").lstrip("0")
    return len(mantissa)


def _short(match: re.Match) -> str:
    rest = match.string[match.end():match.end() + 3]
    if rest.startswith(("...", "…")) or re.match(r"[./]\d", rest):
        # A number cut off (a long value quoted by its first characters), or the part of one the regex backtracked
        # to: not a value, so not read as one; its first digits, marked as a prefix.
        text = match.group(0)
        return text if len(text) <= SHORT_DIGITS else text[:SHORT_DIGITS // 2] + "…"
    number, denominator = match.group(1), match.group(2)
    if _significant(number) <= SHORT_DIGITS and (denominator is None or len(denominator) <= SHORT_DIGITS):
        return match.group(0)
    # Cut toward zero, and marked "…" where digits were cut: rounded to nearest, 5·10²³ − 1 showed as 5.00000e+23 and
    # 1 − 10⁻³⁰ as 1.00000, values on the other side of a bound the message names (a probe).
    context = Context(prec=6, rounding=ROUND_DOWN, Emax=MAX_EMAX, Emin=MIN_EMIN)
    try:
        value = context.divide(Decimal(number), Decimal(denominator)) if denominator else context.plus(Decimal(number))
    except (ArithmeticError, ValueError):  # decimal's Overflow and InvalidOperation among them
        return match.group(0)
    text = f"{value:.6g}" if abs(value.adjusted()) < 10**6 else str(value)
    if not context.flags[Inexact]:
        return text
    return text.replace("e", "…e", 1).replace("E", "…E", 1) if "e" in text or "E" in text else text + "…"


def shorten(message: str) -> str:
    """``message`` with long numbers shown to 6 significant digits, and cut to :data:`MAX_MESSAGE` characters.

    >>> shorten("got 0.33333333333333333333333333333, 0.1, 100000000000000000000000/3 and x1234567890123456789012")
    'got 0.333333…, 0.1, 3.33333…e+22 and x1234567890123456789012'
    >>> shorten("D_1000000000000000000000000000000 did not settle")
    'D_1.00000e+30 did not settle'
    """
    message = _NUMBER.sub(_short, message)
    if len(message) > MAX_MESSAGE:
        cut = len(message) - MAX_MESSAGE
        message = message[: MAX_MESSAGE * 3 // 4] + f" …[{cut} characters]… " + message[-(MAX_MESSAGE // 4):]
    return message


class RdpSymError(Exception):
    """Base class of every error rdpsym raises on purpose; its message is :func:`shorten`-ed."""

    def __init__(self, *args: object) -> None:
        if args and isinstance(args[0], str):
            args = (shorten(args[0]), *args[1:])
        super().__init__(*args)


class ParameterError(RdpSymError, ValueError):
    """A mechanism or density parameter is outside its valid range."""


class WrongType(ParameterError, TypeError):
    """A value of the wrong kind (a list where a number is wanted, a number where a curve is): a
    :class:`ParameterError`, and a ``TypeError`` as Python's own operators raise for it."""


class DomainError(RdpSymError, ValueError):
    """An order (or another argument) is outside the domain of the quantity."""


class DensityError(RdpSymError, ValueError):
    """A pdf or pmf is negative somewhere, does not normalise, or is malformed."""


class MassOffByRounding(DensityError):
    """A density whose mass is within 10⁻⁹ of 1 but not 1: a decimal number in it (a normaliser known numerically)."""


class NoClosedFormError(RdpSymError, NotImplementedError):
    """No closed form was found; callers may fall back to the definition."""


class BeyondSymPy(NoClosedFormError):
    """An integral of a shape with no closed form SymPy finds (an Appell-type product of powers of quadratics, a
    polynomial of degree > 2 in an exponent): read from its shape, not from a budget that ran out, so the same
    laws with symbols for their numbers (:mod:`rdpsym.derive.abstraction`) have none either."""


class ConvergenceError(RdpSymError, ArithmeticError):
    """A numeric value did not settle: two precisions disagree."""


class VerificationError(RdpSymError, AssertionError):
    """A closed form disagrees with the definition: never returned as a result."""


class NotVerified(VerificationError):
    """A closed form could not be checked (the definition did not converge, no valid point): not returned
    for the orders or parameters concerned, though nothing showed it wrong."""


class SymbolicTimeout(RdpSymError, TimeoutError):
    """A symbolic step exceeded its time budget."""


class NoLatexForm(RdpSymError, ValueError):
    """A character that rdpsym cannot write as LaTeX (pdflatex would stop on it)."""


class InfiniteValue(RdpSymError, ArithmeticError):
    """An expression evaluated in balls is +∞ at this point (a divergent order, a D_∞ = ∞)."""


class Undecided(RdpSymError, ArithmeticError):
    """A sign (a Piecewise condition, a log's argument) the balls at this precision cannot decide."""


class OutsideDomain(Undecided):
    """A real function certified to be applied outside its domain (log of a negative number)."""


class NotCertifiable(RdpSymError, TypeError):
    """An expression Arb balls cannot evaluate (a free symbol, a function without a certified counterpart):
    a ``TypeError`` too, so a caller can fall back to a labelled non-certified value."""


class ArithmeticSyntaxError(RdpSymError, ValueError):
    """Text that is not plain arithmetic in rdpsym's grammar (:mod:`rdpsym.foundations.arithmetic`)."""


class ClaimError(RdpSymError, ValueError):
    """A malformed claim or claim file."""


class LatexError(RdpSymError, RuntimeError):
    """pdflatex is missing or the document did not compile (the message quotes the log)."""


class LatexLayoutWarning(UserWarning):
    """A compiled document has lines that run past the right margin (TeX's overfull boxes)."""


def must(name: str, valid: str, got: object) -> str:
    """The standard message: ``"sigma must be positive (sigma > 0); got -1."``.

    ``got`` is shown as :func:`shown` shows any value: an integer too long to print by its size.

    >>> must("sigma", "positive", 10**5000)
    'sigma must be positive; got a number of about 5001 digits.'
    """
    return f"{name} must be {valid}; got {got if isinstance(got, str) else shown(got)}."


def shown(value: object) -> str:
    """A value as a message shows it: ``str``, or where that fails or would be huge, what it is.

    An integer longer than Python prints (4300 digits) by its size; a value whose ``str`` raises by its type.
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 14000:
        return _size(value)
    try:
        return str(value)
    except Exception:  # noqa: BLE001 - a hostile object's __str__ may raise anything (an integer: too long)
        try:
            return _size(int(value))  # a SymPy Integer, an fmpz
        except Exception:  # noqa: BLE001
            return f"a {type(value).__name__}"


def quoted(value: object) -> str:
    """``repr(value)`` as a message quotes it, safely: an integer too long to print (Python refuses more than
    4300 digits) by its size, a value whose ``repr`` raises by its type.

    >>> quoted("abc"), quoted(10**5000)
    ("'abc'", 'a number of about 5001 digits')
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 14000:
        return _size(value)
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a hostile object's __repr__ may raise anything
        return shown(value)
    if len(text) > _QUOTED and not isinstance(value, (int, float)):  # a number is shortened by shorten()
        text = text[: _QUOTED - 3] + "..."
    return text


#: The longest text quoted in a message (a value given as 5000 characters is shown by its first 77).
_QUOTED = 80


def _size(n: int) -> str:
    return f"a number of about {int(n.bit_length() * 0.30103) + 1} digits"
