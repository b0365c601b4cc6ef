"""Canonical symbols, and parameters declared to live in an interval.

``alpha`` is the Rényi order.  SymPy cannot attach "alpha > 1" to a symbol,
so it is declared positive and "alpha > 1" is a *stated hypothesis* of every
symbolic derivation: sign decisions substitute alpha = 1 + beta with beta > 0
(see :mod:`rdpsym.engine.context`).

A :class:`Parameter` carries the interval it lives in (a probability
0 < p < 1, a rate q ≤ 1, r < 1 − p for p + r < 1), which SymPy's assumptions
cannot say.  Sign decisions read it the same way as the order's hypothesis
(p = 1/(1 + β), β > 0), the samplers that check a closed form draw inside it,
and a value outside it is refused by name.
"""

from __future__ import annotations

import sympy as sp
from sympy.core.cache import cacheit

from rdpsym.foundations.errors import ParameterError, must
from rdpsym.foundations.reading import exact

#: The Rényi order; every symbolic-order derivation assumes ``alpha > 1``.
alpha = sp.Symbol("alpha", positive=True)

oo = sp.oo


class Parameter(sp.Symbol):
    """A real symbol declared to lie in an interval whose ends may involve other parameters.

    Built by :func:`parameter`.  It is a SymPy Symbol (``positive`` when its lower end is
    ≥ 0), equal only to a parameter of the same name, assumptions and interval.

    >>> p = parameter("p", 0, 1)
    >>> r = parameter("r", 0, 1 - p)          # p + r < 1
    >>> p.is_positive, r.interval, r.bound_symbols
    (True, Interval.open(0, 1 - p), {p})
    """

    def __new__(cls, name: str, lower: sp.Expr, upper: sp.Expr, left_open: bool = True, right_open: bool = True,
                **assumptions):
        cls._sanitize(assumptions, cls)
        return Parameter.__xnew__(cls, name, lower, upper, bool(left_open), bool(right_open), **assumptions)

    def __getnewargs_ex__(self):
        return (self.name, self.lower, self.upper, self.left_open, self.right_open), self.assumptions0

    @staticmethod
    @cacheit
    def __xnew__(cls, name, lower, upper, left_open, right_open, **assumptions):
        obj = sp.Symbol.__xnew__(cls, name, **assumptions)
        obj.lower, obj.upper, obj.left_open, obj.right_open = lower, upper, left_open, right_open
        return obj

    @property
    def _beta(self) -> sp.Symbol:
        """The positive variable of the substitution that reads the interval in sign decisions
        (:meth:`positive_form`): named by the parameter and its interval, so that equal parameters (one
        unpickled in a worker, another built again) share it -- a Dummy each made 1 − p − r undecidable."""
        return sp.Symbol(f"beta[{self.name} in {self.interval}]", positive=True)

    def _hashable_content(self):
        return super()._hashable_content() + (self.lower, self.upper, self.left_open, self.right_open)

    @property
    def interval(self) -> sp.Interval:
        return sp.Interval(self.lower, self.upper, self.left_open, self.right_open)

    @property
    def bound_symbols(self) -> set:
        """The symbols the interval's ends involve (other parameters)."""
        return set(self.lower.free_symbols | self.upper.free_symbols)

    def positive_form(self) -> sp.Expr | None:
        """The parameter as a function of a positive β that covers exactly its (open) interval, or None where
        an end is closed and the other finite (no single positive β covers [a, b]).

        (a, b): a + (b − a)/(1 + β); (a, ∞): a + β; (−∞, b): b − β.  A closed end of a half-infinite
        interval is read as open (decisions then hold on the interior; the end itself is checked by the
        samplers and the value reader)."""
        a, b, beta = self.lower, self.upper, self._beta
        if a is -oo and b is oo:
            return None
        if a is -oo:
            return b - beta
        if b is oo:
            return a + beta
        if self.left_open and self.right_open:
            return a + (b - a) / (1 + beta)
        return None

    def check_value(self, value: sp.Expr, given: dict | None = None) -> None:
        """Refuse a value outside the interval, its ends read at ``given``; an end that is not a number there is
        checked later, when its parameters have values.

        >>> parameter("p", 0, 1).check_value(sp.Integer(2))
        Traceback (most recent call last):
        ...
        rdpsym.foundations.errors.ParameterError: p must be in its declared interval Interval.open(0, 1); got 2.
        """
        if self.contains(value, given) is False:
            raise ParameterError(must(self.name, f"in its declared interval {self.interval.xreplace(given or {})}",
                                      value))

    def contains(self, value: sp.Expr, given: dict | None = None) -> bool | None:
        """Whether ``value`` lies in the interval (its ends evaluated at ``given``): False as soon as one end that
        is a number there excludes it (l₂ = 100 against [l₁, 4) with l₁ unknown: a probe), None when it may lie
        in it but an end is not a number there."""
        a, b = (end.xreplace(given or {}) for end in (self.lower, self.upper))
        try:
            above = _truth((value > a) if self.left_open else (value >= a)) if a.is_number else None
            below = _truth((value < b) if self.right_open else (value <= b)) if b.is_number else None
        except TypeError:  # (a value that is not real: no order to compare by; the readers refuse it by name)
            return None
        if False in (above, below):
            return False
        return True if above and below else None


def _truth(relation: object) -> bool | None:
    """A comparison's outcome (a Python bool, SymPy's true or false) as a bool; None for a relation left open."""
    if relation is True or relation is sp.true:
        return True
    if relation is False or relation is sp.false:
        return False
    return None


def check_intervals(values: dict) -> None:
    """Refuse a value outside its parameter's declared interval, the ends read at the other ``values`` (r < 1 − p;
    l₂ = 3 against l₁/2 < l₂ < l₁ at l₁ = 1 gave a negative D_∞ from a checked result; a probe)."""
    for symbol, value in values.items():
        if isinstance(symbol, Parameter):
            symbol.check_value(value, values)


def parameter(name: str, lower: object = -oo, upper: object = oo, *, closed: str = "") -> Parameter:
    """A parameter that lives in the interval (lower, upper): ``closed`` names the ends included
    (``"lower"``, ``"upper"`` or ``"both"``).  The ends are exact numbers or expressions in other
    parameters (``r = parameter("r", 0, 1 - p)`` declares p + r < 1).

    >>> q = parameter("q", 0, 1, closed="upper")   # 0 < q ≤ 1
    >>> q.interval
    Interval.Lopen(0, 1)
    >>> parameter("p", 1, 0)
    Traceback (most recent call last):
    ...
    rdpsym.foundations.errors.ParameterError: the interval of p must be non-empty (lower < upper); got (1, 0).
    """
    if not isinstance(name, str) or not name.isidentifier():
        raise ParameterError(must("name", "an identifier such as 'p'", repr(name)))
    if closed not in ("", "lower", "upper", "both"):
        raise ParameterError(must("closed", "'', 'lower', 'upper' or 'both'", repr(closed)))
    ends = []
    for which, end in (("lower", lower), ("upper", upper)):
        value = end if isinstance(end, sp.Basic) and end.free_symbols or end in (oo, -oo) else exact(end, which)
        ends.append(sp.sympify(value, strict=True))
    a, b = ends
    if (a.is_number and b.is_number and not bool(a < b)) or a is oo or b is -oo:
        raise ParameterError(must(f"the interval of {name}", "non-empty (lower < upper)", f"({a}, {b})"))
    for end in (a, b):
        if any(not isinstance(s, Parameter) for s in end.free_symbols):
            raise ParameterError(must(f"the ends of {name}'s interval", "numbers or expressions in parameters "
                                      "made by rdpsym.parameter", str(end)))
        if name in {s.name for s in end.free_symbols}:
            raise ParameterError(must(f"the ends of {name}'s interval", f"free of {name} itself", str(end)))
    left_open, right_open = closed not in ("lower", "both"), closed not in ("upper", "both")
    assumptions = {"real": True}
    if a.is_number and (a > 0 or (a == 0 and left_open)) or (a.is_nonnegative and left_open):
        assumptions = {"positive": True}
    elif a.is_nonnegative:
        assumptions = {"nonnegative": True}
    elif b.is_number and (b < 0 or (b == 0 and right_open)):
        assumptions = {"negative": True}
    return Parameter(name, a, b, left_open, right_open, **assumptions)


def has_declared(expr: sp.Basic) -> bool:
    """Whether ``expr`` holds a :class:`Parameter` (so that reading the intervals can decide more)."""
    return any(isinstance(s, Parameter) for s in expr.free_symbols)


def in_positive_form(expr: sp.Expr) -> sp.Expr:
    """``expr`` with every :class:`Parameter` written by :meth:`Parameter.positive_form` (ends that involve
    other parameters are rewritten in turn), so that SymPy's sign rules see the intervals."""
    if not has_declared(expr):
        return expr
    for _ in range(8):  # a chain of dependent ends is short; a parameter's end never involves itself
        forms = {s: f for s in expr.atoms(Parameter) if (f := s.positive_form()) is not None}
        if not forms:
            break
        expr = expr.xreplace(forms)
    return expr


def positive_by_intervals(expr: sp.Expr) -> bool:
    """Whether ``expr``, linear with numeric coefficients in :class:`Parameter` s whose intervals have numeric ends,
    is positive for every value in them: its infimum over the box, b + Σ aᵢ·(lowerᵢ if aᵢ > 0 else upperᵢ), is
    above 0, or 0 and not attained (an open end).  Two triangular laws' modes c₁ ∈ (0, 1/2) and c₂ ∈ (1/2, 1):
    c₂ − c₁ > 0, which SymPy cannot see through each one's positive form.

    >>> c1, c2 = parameter("c1", 0, sp.Rational(1, 2)), parameter("c2", sp.Rational(1, 2), 1)
    >>> positive_by_intervals(c2 - c1), positive_by_intervals(c1 - c2), positive_by_intervals(c2 - 2 * c1)
    (True, False, False)
    """
    variables = expr.free_symbols
    if not variables or not all(isinstance(s, Parameter) and s.lower.is_number and s.upper.is_number
                                for s in variables):
        return False
    try:
        poly = sp.Poly(expr, *variables)
    except sp.PolynomialError:
        return False
    if poly.total_degree() > 1 or not all(c.is_number for c in poly.coeffs()):
        return False
    infimum, attained = expr.xreplace({s: 0 for s in variables}), True
    try:
        for s in variables:
            a = poly.coeff_monomial(s)
            if a == 0:
                continue
            end, is_open = (s.lower, s.left_open) if a > 0 else (s.upper, s.right_open)
            if end in (oo, -oo):
                return False  # unbounded below
            infimum += a * end
            attained = attained and not is_open
        return bool(infimum > 0) or (infimum == 0 and not attained)
    except TypeError:  # a number whose sign SymPy cannot decide (sin(1)² + cos(1)² − 1 unsimplified): no decision
        return False


def positive_sum_of_powers(expr: sp.Expr) -> bool:
    """Whether ``expr`` = c·Σ cⱼ·Π bᵢ^{eᵢ} is shown positive on the interval of the one :class:`Parameter` p it holds:
    every c, cⱼ a positive number, every eᵢ a positive number and every base linear in p and ≥ 0 on p's interval
    (numeric ends), so that each term is ≥ 0 and vanishes only where one of its bases does; and no point of the
    interval is a zero of every term.  A closed interval has no positive form (no single positive β covers
    [0, 1]): Binomial(2, p) with p in [0, 1] at α = 999/1000 asked for the sign of p^{0.999} + (1 − p)^{0.999}, and
    SymPy factored a polynomial of degree about 2000 for the whole budget (4.9 s of CPU) to leave it undecided.

    >>> p = parameter("p", 0, 1, closed="both")
    >>> positive_sum_of_powers(2 ** sp.Rational(1, 3) * (p ** sp.Rational(9, 10) + (1 - p) ** sp.Rational(9, 10)))
    True
    >>> positive_sum_of_powers(p ** sp.Rational(9, 10)), positive_sum_of_powers(p * (1 - p) + (2 * p - 1)**2)
    (False, False)
    """
    constant, rest = expr.as_independent(*expr.free_symbols, as_Add=False)
    if constant.is_positive is not True or len(rest.free_symbols) != 1:
        return False
    p, = rest.free_symbols
    if not (isinstance(p, Parameter) and p.lower.is_number and p.upper.is_number):
        return False
    common = None  # the points of p's interval where every term seen so far vanishes
    for term in sp.Add.make_args(rest):
        zeros = _zeros_of_a_nonnegative_term(term, p)
        if zeros is None:
            return False
        common = zeros if common is None else common & zeros
    return common == set()


def _zeros_of_a_nonnegative_term(term: sp.Expr, p: Parameter) -> set | None:
    """The zeros in p's interval of c·Π bᵢ^{eᵢ} (c > 0, eᵢ > 0 numbers, each bᵢ linear in p and ≥ 0 there), or None
    where the term is not of that shape or a base may be negative in the interval."""
    coefficient, factors = term.as_coeff_mul()
    if coefficient.is_positive is not True:
        return None
    zeros = set()
    for factor in factors:
        base, exponent = factor.as_base_exp()
        if not factor.free_symbols:
            if factor.is_positive is not True:
                return None
            continue
        if exponent.is_number is not True or exponent.is_positive is not True or not base.is_polynomial(p) \
                or sp.degree(base, p) != 1:
            return None
        a, b = sp.Poly(base, p).all_coeffs()
        if a.is_positive is not True and a.is_negative is not True:
            return None
        end, is_open = (p.lower, p.left_open) if a.is_positive else (p.upper, p.right_open)
        infimum = a * end + b  # (a linear base is least at an end: its only zero in the interval can be there)
        if infimum.is_zero is True:
            if not is_open:
                zeros.add(end)
        elif infimum.is_positive is not True:
            return None
    return zeros


def sign_by_intervals(expr: sp.Expr) -> int | None:
    """1 or −1 where :func:`positive_by_intervals` shows ``expr`` or −``expr`` positive on the parameters' box, else
    None (undecided, or possibly 0).

    >>> c1, c2 = parameter("c1", 0, sp.Rational(1, 2)), parameter("c2", sp.Rational(1, 2), 1)
    >>> sign_by_intervals(c2 - c1), sign_by_intervals(c1 - c2), sign_by_intervals(c2 - 2 * c1) is None
    (1, -1, True)
    """
    return 1 if positive_by_intervals(expr) else -1 if positive_by_intervals(-expr) else None


def admitted_points(symbols: list, candidates: tuple, count: int) -> list[dict]:
    """Up to ``count`` points that give each of ``symbols`` one of ``candidates`` its assumptions admit (the i-th
    point its i-th admitted value, cycling); none where a symbol admits no candidate.  A universal claim SymPy makes
    of an expression in these symbols (its sign, a closed form) must hold at each of them.

    >>> n, x = sp.Symbol("n", integer=True, positive=True), sp.Symbol("x", negative=True)
    >>> admitted_points([n, x], (sp.S.Zero, sp.Integer(1), sp.Rational(-1, 2), sp.Integer(2)), 3)
    [{n: 1, x: -1/2}, {n: 2, x: -1/2}, {n: 1, x: -1/2}]
    """
    admitted = [[c for c in candidates
                 if all(getattr(c, f"is_{key}") in (held, None) for key, held in s.assumptions0.items())]
                for s in symbols]
    if not all(admitted):
        return []
    return [{s: values[i % len(values)] for s, values in zip(symbols, admitted, strict=True)} for i in range(count)]


__all__ = ["Parameter", "admitted_points", "alpha", "check_intervals", "has_declared", "in_positive_form",
           "parameter", "positive_by_intervals", "positive_sum_of_powers", "sign_by_intervals"]
