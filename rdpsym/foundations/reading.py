"""Reading user input as exact SymPy objects, and validating it.

A Python float is read as the decimal it prints as: ``1.1`` means ``11/10``,
not the binary double 1.100000000000000088817841970012523...  That is what a
user who types 1.1 means, and it keeps every later step exact.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import sympy as sp
from flint import fmpq, fmpz

from rdpsym.foundations.errors import DomainError, ParameterError, must


def exact(value: object, name: str) -> sp.Expr:
    """Convert ``value`` to an exact SymPy expression, or raise naming ``name``.

    >>> exact(1.1, "sigma")
    11/10
    >>> exact(float("inf"), "order")
    oo
    >>> exact("abc def", "sigma")
    Traceback (most recent call last):
    ...
    rdpsym.foundations.errors.ParameterError: sigma must be a number or a SymPy expression; got 'abc def'.
    """
    if isinstance(value, bool):
        raise ParameterError(must(name, "a number or a SymPy expression", repr(value)))
    if isinstance(value, float):
        if value != value:
            raise ParameterError(must(name, "a number, not NaN", value))
        if value in (float("inf"), float("-inf")):
            return sp.oo if value > 0 else -sp.oo
        return sp.Rational(repr(value))
    if isinstance(value, int):
        return sp.Integer(value)
    if isinstance(value, (Fraction, Decimal)):
        return sp.Rational(str(value))
    if isinstance(value, (fmpq, fmpz)):  # python-flint's exact rationals, as the accounting layer uses
        return sp.Rational(int(value.p), int(value.q)) if isinstance(value, fmpq) else sp.Integer(int(value))
    if isinstance(value, sp.Basic):
        if value.has(sp.nan, sp.zoo):
            raise ParameterError(must(name, "a number, not NaN", value))
        # Floats inside an expression are read as their printed decimals too.
        floats = value.atoms(sp.Float)
        if floats:
            value = value.xreplace({f: sp.Rational(str(f)) for f in floats})
        return value
    if isinstance(value, str):
        try:
            parsed = sp.sympify(value, rational=True)
        except (sp.SympifyError, SyntaxError, TypeError):
            parsed = None
        if isinstance(parsed, sp.Expr):
            return exact(parsed, name)
        raise ParameterError(must(name, "a number or a SymPy expression", repr(value)))
    try:
        import mpmath

        if isinstance(value, mpmath.mpf):
            return sp.Rational(mpmath.nstr(value, mpmath.mp.dps + 5, strip_zeros=True))
    except ImportError:  # pragma: no cover - mpmath is a hard dependency
        pass
    raise ParameterError(must(name, "a number or a SymPy expression", repr(value)))


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
    valid = valid or f"positive ({name} > 0)"
    v = exact(value, name)
    if v.is_positive is False or v.is_finite is False or v.is_extended_real is False:
        raise ParameterError(must(name, valid, v))
    if v.is_positive is None:
        raise ParameterError(
            must(name, valid + ", or a Symbol declared positive=True", f"{v}, whose sign is unknown")
        )
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


_INFINITY_WORDS = ("inf", "infinity", "oo", "∞", "+inf")


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
    rdpsym.foundations.errors.DomainError: order must be a Symbol or a number in (0, oo]; got 'abc'.
    """
    if isinstance(order, str):
        if order.strip().lower() in _INFINITY_WORDS:
            return sp.oo
        try:
            value = exact(order, "order")
        except ParameterError:
            value = None
        if value is None or not value.is_number:
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
