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

import mpmath
import sympy as sp

from rdpsym.foundations.errors import ArithmeticSyntaxError

#: The ceilings on what is read, each checked before the work it bounds (README, "Ceilings").
#: The longest text read (characters): a parameter, an order or a table cell is a few dozen.
MAX_LENGTH = 1000
#: The deepest nesting of parentheses, unary signs and powers in text (the parser recurses once per level).
MAX_DEPTH = 60
#: The most digits a number literal may have (and a Decimal, a SymPy Float or an mpmath number given:
#: about 3322 bits of mantissa), and the largest |decimal exponent| a literal may carry.
MAX_DIGITS = 1000
MAX_EXPONENT = 1000
#: The largest exact power built: |exponent| · log10|base| (a number of about this many digits).
MAX_POWER_DIGITS = 1000
#: The largest exact power a derivation keeps (p^α of a finite law at a numeric order α): SymPy's
#: assumptions evaluate such powers, in 0.4 s at 6·10^4 digits (randomized response at α = 10^5) and not
#: in minutes at 6·10^5; beyond it the derivation says so and falls back to the labelled numeric value.
MAX_DERIVED_POWER_DIGITS = 100_000
#: A number read is 0 or between 10^-MAX_MAGNITUDE and 10^MAX_MAGNITUDE in size (far below Python's
#: 4300-digit limit for printing an integer, and far beyond any privacy parameter).
MAX_MAGNITUDE = 1000
#: The most digits of the numerator or the denominator of an exact rational read: every number read can
#: be printed (Python refuses to print an integer of more than 4300 digits) and is worked with in microseconds.
MAX_RATIONAL_DIGITS = 4000
#: The largest |x| in an exponential exp(x) that is a part of a value (a Poisson pmf with λ = 30000 holds
#: exp(−30000) = 10^−13029): kept symbolic, and evaluated by mpmath and Arb in microseconds up to 10^6;
#: exp(1e1000) takes seconds and exp(exp(exp(10))) cannot be evaluated at all.  A number read is still
#: within 10^±MAX_MAGNITUDE as a whole.
MAX_EXP_ARGUMENT = 10**6
#: The most nodes, and the deepest nesting, of a SymPy expression given as a value (a pdf, a closed form,
#: a claim's side): the largest in the catalogue and the test suite has a few hundred nodes and is nested
#: about 20 deep; SymPy's own recursion fails a few hundred levels down.
MAX_NODES = 20_000
MAX_TREE_DEPTH = 200

_CONSTANTS = {"pi": sp.pi, "π": sp.pi, "E": sp.E, "oo": sp.oo, "inf": sp.oo, "infinity": sp.oo, "∞": sp.oo}
_FUNCTIONS = {"sqrt": sp.sqrt, "√": sp.sqrt, "exp": sp.exp, "log": sp.log}
#: Digits are ASCII: str.isdigit() also admits "²" and "١", which int() then reads differently or refuses.
_DIGITS = frozenset("0123456789")
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
        if c in _DIGITS or (c == "." and i + 1 < n and text[i + 1] in _DIGITS):
            j = i
            while j < n and text[j] in _DIGITS:
                j += 1
            if j < n and text[j] == ".":
                j += 1
                while j < n and text[j] in _DIGITS:
                    j += 1
            if j < n and text[j] in "eE" and (
                    (j + 1 < n and text[j + 1] in _DIGITS)
                    or (j + 2 < n and text[j + 1] in "+-−" and text[j + 2] in _DIGITS)):
                j += 2
                while j < n and text[j] in _DIGITS:
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


def _clipped(text: str) -> str:
    """A token as a message quotes it: cut short when long."""
    return repr(text if len(text) <= 40 else text[:37] + "...")


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
        found = "the end" if t.kind == "end" else _clipped(t.text)
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
                raise ArithmeticSyntaxError(f"unknown name {_clipped(t.text)} at position {t.position}")
            self.advance()
            if t.text in _FUNCTIONS:
                self.expect("(")
                self.deeper()
                argument = self.expression()
                self.depth -= 1
                self.expect(")")
                value = _FUNCTIONS[t.text](argument)
                problem = _node_problem(value)  # exp(1e999): refused before anything evaluates it
                if problem is not None:
                    raise ArithmeticSyntaxError(f"{problem} at position {t.position}")
                return value
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
    problem = power_problem(base, exponent)
    if problem is not None:
        raise ArithmeticSyntaxError(f"{problem} at position {at}")


def power_problem(base: sp.Expr, exponent: sp.Expr, ceiling: float = MAX_POWER_DIGITS) -> str | None:
    """Why ``base^exponent`` is too large to build (|exponent|·size of the base > ``ceiling`` digits), or None.

    The size of a rational base is the digits of its numerator or denominator (an exact power builds
    their powers: (1 + 10^-999)^(10^999) is refused though it is near e); of any other base, |log10|base||.
    Both come from the structure (:func:`log10_bounds`); where that cannot decide (a sum, which may
    cancel; a function rdpsym does not model), from 15-digit values: the caller has checked both parts.
    """
    if not (base.is_number and exponent.is_number) or exponent.is_finite is False:
        return None
    if base.has(sp.Sum, sp.Integral, sp.Product):
        return None  # a normaliser kept symbolic (Σ e^{−j²/2σ²}): never built as a number, evaluated with bounds
    if isinstance(base, sp.Integer) and base in (0, 1, -1):
        return None
    if base.is_Rational:
        digits = max(_log10_int(base.p), _log10_int(base.q))
    else:
        digits = max(abs(v) for v in log10_bounds(base))
        if not math.isfinite(digits):
            digits = _evaluated_digits(base)
    x_hi = log10_bounds(exponent)[1]
    reach = _power10(x_hi) if math.isfinite(x_hi) else _evaluated(exponent, lambda x: x)
    size = _times(reach, digits)
    if size > ceiling:
        about = f"about {size:.3g}" if math.isfinite(size) else "more than 10^300"
        return f"a power with {about} digits (more than {ceiling:g})"
    return None


def _evaluated(value: sp.Expr, measure) -> float:
    """``measure(|value|)`` from a 15-digit value (inf when it cannot be had)."""
    try:
        return measure(abs(complex(value.evalf(15))))
    except Exception:  # noqa: BLE001 - evalf fails in many ways (overflow, recursion) on numbers this size
        return math.inf


def _evaluated_digits(value: sp.Expr) -> float:
    """|log10|value|| from a 15-digit value, read in SymPy's Float, whose exponent has no bounds: as a Python float
    sinh(10⁻⁴⁰⁰) was 0, so 1/sinh(10⁻⁴⁰⁰) a power "with more than 10^300 digits", and the ε-DP curve of ε = 10⁻⁴⁰⁰
    (inside the ceilings) was refused (a probe)."""
    try:
        v = sp.Abs(value).evalf(15)
        if not v.is_Float:
            return math.inf
        return abs(float(mpmath.log10(v._to_mpmath(64)))) if v != 0 else math.inf
    except Exception:  # noqa: BLE001 - evalf fails in many ways (overflow, recursion) on numbers this size
        return math.inf


_LOG10_2 = math.log10(2)
_LOG10_E = math.log10(math.e)


def _power10(x: float) -> float:
    """10^x as a float, +inf when it overflows."""
    return math.inf if x > 308 else 10.0**x


def _times(a: float, b: float) -> float:
    """a·b for nonnegative a, b, with 0·inf = 0 (an exponent of 0, or a base of magnitude 1)."""
    return 0.0 if a == 0 or b == 0 else a * b


def _log10_int(n: int) -> float:
    return math.log10(abs(n))  # exact enough for any size: Python takes the log of a long integer from its bits


def log10_bounds(value: sp.Expr) -> tuple[float, float]:
    """Bounds (lo, hi) on log10|value| of a numeric expression, from its structure: nothing is evaluated.

    Exact for rationals, floats and products of powers of them; an ``Add`` may cancel (its ``lo`` is
    −inf), and a function rdpsym does not model is bounded only when its arguments are small.  Used
    to refuse a number too large or too small to work with before anything builds it.

    >>> log10_bounds(sp.Integer(1000)), log10_bounds(sp.Pow(10, sp.Pow(10, 10, evaluate=False), evaluate=False))
    ((3.0, 3.0), (10000000000.0, 10000000000.0))
    """
    if value.is_Rational:
        if value == 0:
            return (-math.inf, -math.inf)
        v = _log10_int(value.p) - _log10_int(value.q)
        return (v, v)
    if value.is_Float:
        sign, man, exp, _ = value._mpf_ if len(value._mpf_) == 4 else (*value._mpf_, None)
        if not man:
            return (-math.inf, -math.inf)
        v = _log10_int(int(man)) + int(exp) * _LOG10_2
        return (v, v)
    if value in (sp.pi, sp.E, sp.EulerGamma, sp.Catalan, sp.GoldenRatio, sp.TribonacciConstant):
        v = math.log10(float(value.evalf(15)))
        return (v, v)
    if value is sp.I:
        return (0.0, 0.0)
    if value.is_Mul:
        parts = [log10_bounds(a) for a in value.args]
        if any(hi == -math.inf for _, hi in parts):
            return (-math.inf, -math.inf)  # a factor 0
        return (_sum((p[0] for p in parts), -math.inf), _sum((p[1] for p in parts), math.inf))
    if value.is_Add:
        his = [log10_bounds(a)[1] for a in value.args]
        return (-math.inf, max(his) + math.log10(len(his)))
    if value.is_Pow:
        base, exponent = value.args
        b_lo, b_hi = log10_bounds(base)
        ends = [_signed_times(x, b) for x in _value_bounds(exponent) for b in (b_lo, b_hi)]
        return (min(ends), max(ends))
    if isinstance(value, sp.exp):
        lo, hi = _value_bounds(value.args[0])
        return (lo * _LOG10_E, hi * _LOG10_E)
    if isinstance(value, sp.log):
        lo, hi = log10_bounds(value.args[0])
        return (-math.inf, math.log10(math.log(10) * max(abs(lo), abs(hi)) + math.pi) if math.isfinite(
            max(abs(lo), abs(hi))) else math.inf)
    if isinstance(value, sp.Abs):
        return log10_bounds(value.args[0])
    # A function rdpsym does not model (sin, gamma, erf, ...): bounded only by what evaluating it gives.
    return (-math.inf, math.inf)


def _value_bounds(value: sp.Expr) -> tuple[float, float]:
    """Bounds on a real number itself (not its logarithm), from its structure and its sign."""
    if value.is_Rational or value.is_Float:
        lo, hi = log10_bounds(value)
        v = _power10(hi) if hi < 300 else math.inf
        v = float(value) if math.isfinite(v) else v
        return (math.copysign(v, 1 if value >= 0 else -1),) * 2
    lo, hi = log10_bounds(value)
    big, small = _power10(hi), (_power10(lo) if lo > -math.inf else 0.0)
    if value.is_extended_positive:
        return (small, big)
    if value.is_extended_negative:
        return (-big, -small)
    return (-big, big)


def _sum(values, unknown: float) -> float:
    """A sum of bounds; +inf and −inf together (factors unbounded both ways) bound nothing: ``unknown``."""
    values = list(values)
    if math.inf in values and -math.inf in values:
        return unknown
    return sum(values)


def _signed_times(x: float, b: float) -> float:
    """x·b where either may be infinite, with 0·(±inf) = 0."""
    return 0.0 if x == 0 or b == 0 else x * b


def size_problem(value: sp.Basic) -> str | None:
    """Why a SymPy value is too large to work with, found by walking it once (None: fine).

    Ceilings: :data:`MAX_NODES` nodes, :data:`MAX_TREE_DEPTH` levels, :data:`MAX_RATIONAL_DIGITS` digits in a
    rational's numerator or denominator, :data:`MAX_DIGITS` digits in a Float, and every power and
    exponential at most :data:`MAX_POWER_DIGITS` digits in size.  The parts are checked before the
    whole, so a part is only ever evaluated (to 15 digits) once everything inside it has passed.

    >>> size_problem(sp.Pow(9, sp.Pow(9, 9, evaluate=False), evaluate=False))
    'a power with about 3.7e+08 digits (more than 1000)'
    >>> size_problem(sp.Rational(1, 3) + sp.Symbol("x")) is None
    True
    >>> size_problem(sp.Rational(1, 2) ** (10**30 - sp.Symbol("k")))  # split by SymPy, it builds 2^(10^30)
    'a power with about 3.01e+29 digits (more than 100000)'
    """
    count = 0
    stack: list[tuple[sp.Basic, int, bool]] = [(value, 1, False)]
    while stack:
        node, depth, children_checked = stack.pop()
        if children_checked:
            problem = _node_problem(node)
            if problem is not None:
                return problem
            continue
        count += 1
        if count > MAX_NODES:
            return f"an expression of more than {MAX_NODES} parts"
        if depth > MAX_TREE_DEPTH:
            return f"an expression nested more than {MAX_TREE_DEPTH} deep"
        stack.append((node, depth, True))
        stack.extend((a, depth + 1, False) for a in node.args)
    return None


#: The same ceilings in bits (a rational's numerator or denominator; a binary mantissa, with guard bits).
MAX_RATIONAL_BITS = int(MAX_RATIONAL_DIGITS / _LOG10_2)
MAX_MANTISSA_BITS = int(MAX_DIGITS / _LOG10_2) + 64


def _node_problem(node: sp.Basic) -> str | None:
    if node.is_Rational:
        if max(int(node.p).bit_length(), int(node.q).bit_length()) > MAX_RATIONAL_BITS:
            return f"an exact number of more than {MAX_RATIONAL_DIGITS} digits"
        return None
    if node.is_Float:
        man = int(node._mpf_[1])
        if man.bit_length() > MAX_MANTISSA_BITS:
            return f"a Float of more than {MAX_DIGITS} digits"
        lo, hi = log10_bounds(node)
        if man and (hi > MAX_MAGNITUDE or lo < -MAX_MAGNITUDE):
            return f"a number beyond 10^±{MAX_MAGNITUDE} in size"
        return None
    if node.is_Pow:
        base, exponent = node.args
        if not exponent.is_number and base.is_number:
            # A power in the outcome variable whose exponent has a numeric part: (1/2)^(10^30 − k) is a fine
            # pmf term, but SymPy splits such exponents (factor_terms, powsimp, expand) and then builds
            # 2^(10^30) in one uninterruptible integer operation: refused while it is still text.
            constant, _ = exponent.as_coeff_Add()
            return power_problem(base, constant, MAX_DERIVED_POWER_DIGITS)
        return power_problem(base, exponent)
    if isinstance(node, sp.exp) and node.args[0].is_number:
        lo, hi = _value_bounds(node.args[0])
        if max(abs(lo), abs(hi)) > MAX_EXP_ARGUMENT:
            return f"an exponential of a number beyond ±{MAX_EXP_ARGUMENT:g}"
    return None


def magnitude_problem(value: sp.Expr) -> str | None:
    """Why a number is too large or too small to work with (``None`` when it is fine, or not a number).

    Decided from the number's structure where it can be (:func:`log10_bounds`), else from a 15-digit
    value; a number that cannot be evaluated at all is refused too.

    >>> magnitude_problem(sp.Integer(10) ** 999), magnitude_problem(sp.exp(sp.exp(sp.exp(sp.exp(10)))))
    (None, 'a number beyond 10^±1000 in size')
    """
    # (is_number first: it reads the tree, where is_zero of an expression with symbols asks SymPy's assumptions)
    if not isinstance(value, sp.Expr) or not value.is_number:
        return None
    if value.is_zero or value.has(sp.oo, -sp.oo, sp.zoo, sp.nan):
        return None
    beyond = f"a number beyond 10^±{MAX_MAGNITUDE} in size"
    lo, hi = log10_bounds(value)
    if lo > MAX_MAGNITUDE or hi < -MAX_MAGNITUDE:
        return beyond
    if -MAX_MAGNITUDE <= lo and hi <= MAX_MAGNITUDE:
        return None
    try:  # the structure does not decide it (a sum may cancel, a function is not modelled): 15 digits do
        shown = value.evalf(15)
        parts = [p for p in shown.as_real_imag() if p.is_Float and p != 0]
        if not parts:
            return None if shown.is_zero or not shown.is_number else "a number that cannot be evaluated"
        digits = max(log10_bounds(p)[1] for p in parts)
    except Exception:  # noqa: BLE001 - SymPy's evalf fails in many ways (overflow, recursion) on such numbers
        return "a number that cannot be evaluated"
    if abs(digits) > MAX_MAGNITUDE:
        return beyond
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
    problem = size_problem(value) or magnitude_problem(value)
    if problem is not None:
        raise ArithmeticSyntaxError(problem)
    return value


__all__ = ["ArithmeticSyntaxError", "MAX_LENGTH", "log10_bounds", "magnitude_problem", "parse", "power_problem",
           "size_problem"]
