"""Plain arithmetic in text, parsed by a grammar that can call nothing.

Text a user types (a command-line option, a string argument, a table in a
claim file, a JSON value) never reaches ``eval``, ``sympify`` or
``parse_expr``: those evaluate Python, so ``__import__('os').system(...)``
would run.  :func:`parse` reads the small language below with a hand-written
recursive-descent parser and builds SymPy numbers from the tokens; a name it
does not know is an error, never a lookup.

Grammar (whitespace is ignored)::

    expression := term (("+" | "-") term)*
    term       := unary (("*" | "/") unary)*
    unary      := ("+" | "-") unary | power
    power      := atom (("^" | "**") unary)?          2^3^2 is 2^(3^2); 2^-1 is 1/2
    atom       := NUMBER | CONSTANT | PARAMETER | FUNCTION "(" expression ")" | "(" expression ")"
    NUMBER     := 12 | 0.5 | .5 | 1e-5 | 2.5E+3            read exactly: 0.1 is 1/10
    CONSTANT   := pi | π | E | oo | inf | infinity | ∞
    FUNCTION   := sqrt | √ | exp | log
    PARAMETER  := a name the caller allows (the mechanism's own parameters)

Unicode minus (−), times (·, ×) and division (÷) are read as their ASCII
twins.  Work is bounded before it is done: the text's length, the nesting
depth, a number's digits and decimal exponent, and the size of an exact power
(|exponent| · log10|base|) each have a ceiling, so ``9^9^9`` or ``1e999999999``
is an error, not an hour of arithmetic.

>>> parse("1/3 + 0.5")
5/6
>>> parse("sqrt(2)/2"), parse("2^-3"), parse("1e-5")
(sqrt(2)/2, 1/8, 1/100000)
>>> s = sp.Symbol("sigma", positive=True)
>>> parse("2*sigma + pi", {"sigma": s})
2*sigma + pi
>>> parse("__import__('os').system('true')")
Traceback (most recent call last):
...
rdpsym.foundations.errors.ArithmeticSyntaxError: unknown name '__import__' at position 1
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import sympy as sp

from rdpsym.foundations.errors import ArithmeticSyntaxError

#: The longest text read (characters).
MAX_LENGTH = 1000
#: The deepest nesting of parentheses, unary signs and powers.
MAX_DEPTH = 60
#: The most digits a number literal may have, and the largest |decimal exponent| it may carry.
MAX_DIGITS = 1000
MAX_EXPONENT = 1000
#: The largest exact power built: |exponent| · log10|base| (a number of about this many digits).
MAX_POWER_DIGITS = 1000
#: A number read is 0 or between 10^-MAX_MAGNITUDE and 10^MAX_MAGNITUDE in size (far below Python's
#: 4300-digit limit for printing an integer, and far beyond any privacy parameter).
MAX_MAGNITUDE = 1000

_CONSTANTS = {"pi": sp.pi, "π": sp.pi, "E": sp.E, "oo": sp.oo, "inf": sp.oo, "infinity": sp.oo, "∞": sp.oo}
_FUNCTIONS = {"sqrt": sp.sqrt, "√": sp.sqrt, "exp": sp.exp, "log": sp.log}
_SAME_AS = {"−": "-", "·": "*", "×": "*", "÷": "/"}


@dataclass(frozen=True)
class _Token:
    kind: str  # "number", "name", "op", "end"
    text: str
    position: int  # 1-based, for messages


def _tokens(text: str) -> Iterator[_Token]:
    """The tokens of ``text``, one at a time (so the first error in reading order is the one reported)."""
    i, n = 0, len(text)
    while i < n:
        c = _SAME_AS.get(text[i], text[i])
        if c.isspace():
            i += 1
            continue
        if c.isdigit() or (c == "." and i + 1 < n and text[i + 1].isdigit()):
            j = i
            while j < n and text[j].isdigit():
                j += 1
            if j < n and text[j] == ".":
                j += 1
                while j < n and text[j].isdigit():
                    j += 1
            if j < n and text[j] in "eE" and (
                    (j + 1 < n and text[j + 1].isdigit())
                    or (j + 2 < n and text[j + 1] in "+-−" and text[j + 2].isdigit())):
                j += 2
                while j < n and text[j].isdigit():
                    j += 1
            yield _Token("number", text[i:j].replace("−", "-"), i + 1)
            i = j
            continue
        if c.isalpha() or c == "_" or c in "π∞√":
            j = i + 1
            if c not in "π∞√":
                while j < n and (text[j].isalnum() or text[j] == "_"):
                    j += 1
            yield _Token("name", text[i:j], i + 1)
            i = j
            continue
        if c == "*" and i + 1 < n and text[i + 1] == "*":
            yield _Token("op", "^", i + 1)
            i += 2
            continue
        if c in "+-*/^()":
            yield _Token("op", c, i + 1)
            i += 1
            continue
        raise ArithmeticSyntaxError(f"unexpected {text[i]!r} at position {i + 1}")
    yield _Token("end", "", n + 1)


def _number(token: _Token) -> sp.Rational:
    """A literal as the exact rational it spells (``0.1`` is 1/10; ``1e-5`` is 1/100000)."""
    mantissa, _, exponent = token.text.lower().partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).lstrip("0")
    if len(digits) > MAX_DIGITS:
        raise ArithmeticSyntaxError(f"a number with more than {MAX_DIGITS} digits at position {token.position}")
    power = int(exponent) if exponent else 0
    if abs(power) > MAX_EXPONENT:
        raise ArithmeticSyntaxError(f"a decimal exponent beyond ±{MAX_EXPONENT} at position {token.position}")
    value = sp.Integer(int(whole + fraction or "0"))
    shift = power - len(fraction)
    return value * sp.Integer(10) ** shift if shift >= 0 else value / sp.Integer(10) ** (-shift)


class _Parser:
    def __init__(self, text: str, parameters: Mapping[str, sp.Symbol]):
        self.tokens = _tokens(text)
        self.token = next(self.tokens)
        self.depth = 0
        self.parameters = parameters

    # -- tokens
    def advance(self) -> None:
        self.token = next(self.tokens)

    def take(self, text: str) -> bool:
        if self.token.kind == "op" and self.token.text == text:
            self.advance()
            return True
        return False

    def expect(self, text: str) -> None:
        if not self.take(text):
            self.fail(f"expected {text!r}")

    def fail(self, what: str):
        t = self.token
        found = "the end" if t.kind == "end" else repr(t.text)
        raise ArithmeticSyntaxError(f"{what} at position {t.position} (found {found})")

    def deeper(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ArithmeticSyntaxError(f"nested more than {MAX_DEPTH} deep at position {self.token.position}")

    # -- grammar
    def expression(self) -> sp.Expr:
        value = self.term()
        while self.token.kind == "op" and self.token.text in "+-":
            op = self.token.text
            self.advance()
            right = self.term()
            value = value + right if op == "+" else value - right
        return value

    def term(self) -> sp.Expr:
        value = self.unary()
        while self.token.kind == "op" and self.token.text in "*/":
            op, at = self.token.text, self.token.position
            self.advance()
            right = self.unary()
            if op == "/" and right == 0:
                raise ArithmeticSyntaxError(f"division by zero at position {at}")
            value = value * right if op == "*" else value / right
        return value

    def unary(self) -> sp.Expr:
        if self.token.kind == "op" and self.token.text in "+-":
            sign = self.token.text
            self.advance()
            self.deeper()
            value = self.unary()
            self.depth -= 1
            return -value if sign == "-" else value
        return self.power()

    def power(self) -> sp.Expr:
        base = self.atom()
        if self.token.kind == "op" and self.token.text == "^":
            at = self.token.position
            self.advance()
            self.deeper()
            exponent = self.unary()
            self.depth -= 1
            _check_power(base, exponent, at)
            return base**exponent
        return base

    def atom(self) -> sp.Expr:
        t = self.token
        if t.kind == "number":
            self.advance()
            return _number(t)
        if t.kind == "name":
            known = t.text in _FUNCTIONS or t.text in self.parameters or t.text in _CONSTANTS
            if not known:
                raise ArithmeticSyntaxError(f"unknown name {t.text!r} at position {t.position}")
            self.advance()
            if t.text in _FUNCTIONS:
                self.expect("(")
                self.deeper()
                argument = self.expression()
                self.depth -= 1
                self.expect(")")
                return _FUNCTIONS[t.text](argument)
            return self.parameters[t.text] if t.text in self.parameters else _CONSTANTS[t.text]
        if self.take("("):
            self.deeper()
            value = self.expression()
            self.depth -= 1
            self.expect(")")
            return value
        self.fail("expected a number, a name or '('")


def _check_power(base: sp.Expr, exponent: sp.Expr, at: int) -> None:
    """Refuse an exact power too large to build (9^9^9), before SymPy builds it."""
    if not (base.is_number and exponent.is_number) or base in (0, 1, -1) or exponent.is_finite is False:
        return
    try:  # digits of the result ≈ |exponent|·log10|base|, computed without building either number
        size = abs(float(sp.N(exponent, 15))) * abs(float(sp.N(sp.log(abs(base), 10), 15)))
    except (OverflowError, ValueError, TypeError):
        size = math.inf
    if size > MAX_POWER_DIGITS:
        raise ArithmeticSyntaxError(f"a power with about {size:.3g} digits (more than {MAX_POWER_DIGITS}) "
                                    f"at position {at}")


def magnitude_problem(value: sp.Expr) -> str | None:
    """Why a number is too large or too small to work with (``None`` when it is fine, or not a number).

    >>> magnitude_problem(sp.Integer(10) ** 999), magnitude_problem(sp.exp(sp.exp(sp.exp(sp.exp(10)))))
    (None, 'a number beyond 10^±1000 in size')
    """
    if not isinstance(value, sp.Expr) or not value.is_number or value.is_zero or value.is_finite is False:
        return None
    try:
        size = sp.N(abs(value), 15)
        if not size.is_Float:
            return None  # not real: the caller's range check says so
        digits = float(sp.log(size, 10))
    except (OverflowError, ValueError, TypeError):
        return f"a number beyond 10^±{MAX_MAGNITUDE} in size"
    if abs(digits) > MAX_MAGNITUDE:
        return f"a number beyond 10^±{MAX_MAGNITUDE} in size"
    return None


def parse(text: str, parameters: Mapping[str, sp.Symbol] | None = None) -> sp.Expr:
    """The SymPy expression ``text`` spells in the grammar above (``parameters``: the names allowed).

    Raises :class:`ArithmeticSyntaxError` naming what is wrong and where.
    """
    if len(text) > MAX_LENGTH:
        raise ArithmeticSyntaxError(f"text longer than {MAX_LENGTH} characters ({len(text)})")
    parser = _Parser(text, parameters or {})
    if parser.token.kind == "end":
        raise ArithmeticSyntaxError("empty text")
    value = parser.expression()
    if parser.token.kind != "end":
        parser.fail("unexpected text after the expression")
    if value.has(sp.nan, sp.zoo):
        raise ArithmeticSyntaxError("an undefined value (such as 0*oo or oo - oo)")
    problem = magnitude_problem(value)
    if problem is not None:
        raise ArithmeticSyntaxError(problem)
    return value


__all__ = ["ArithmeticSyntaxError", "MAX_LENGTH", "parse"]
