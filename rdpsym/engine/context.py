"""Sign decisions under the stated hypotheses.

SymPy symbols carry assumptions such as ``positive=True``, but "α > 1" cannot
be attached to a symbol.  :class:`Hypotheses` decides signs with α replaced
by ``1 + β`` where β is a positive dummy, which is exactly "α > 1"; for the
orders below 1 (a symbolic order covers 0 < α < 1 too) by ``1/(1 + β)``,
which is exactly "0 < α < 1".
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace

import sympy as sp

from rdpsym.foundations.budget import budgeted, can_budget
from rdpsym.foundations.errors import NoClosedFormError
from rdpsym.foundations.symbols import in_positive_form, positive_sum_of_powers

#: Exceptions SymPy's algorithms raise on inputs they cannot handle (polynomial domains, heuristics, floats
#: of huge integers, set constructions, a list of 10¹² factors for a power Γ(a)^e): read as "no closed form" where
#: they escape a derivation.
SYMPY_FAILURES = (sp.polys.polyerrors.BasePolynomialError, OverflowError, ValueError, TypeError,
                  ZeroDivisionError, RecursionError, NotImplementedError, MemoryError)


class UndecidedSign(NoClosedFormError):
    """A derivation needs the sign of ``quantity``, which the assumptions do not decide.

    Raised where a case split is possible (two non-smooth points that cannot be
    ordered, a support end that may lie inside or outside the other support): the
    caller derives each case ``quantity > 0``, ``< 0``, ``= 0`` separately instead of
    refusing.  It is a :class:`NoClosedFormError`, so a caller that cannot split
    still gets "no closed form".
    """

    def __init__(self, quantity: sp.Expr, message: str):
        super().__init__(message)
        self.quantity = quantity


@dataclass(frozen=True)
class Hypotheses:
    """The order symbol (if symbolic) under the hypothesis ``order > 1``, or ``0 < order < 1`` (``below_one``).

    >>> import sympy as sp
    >>> a = sp.Symbol("alpha", positive=True)
    >>> h = Hypotheses(a)
    >>> h.is_positive(a - 1), h.is_positive(1 - a), h.is_positive(a - 2)
    (True, False, None)
    >>> low = Hypotheses(a, below_one=True)
    >>> low.is_positive(1 - a), low.holds(a > 1), low.is_positive(2*a - 1)
    (True, False, None)
    """

    order_symbol: sp.Symbol | None = None
    #: The orders a symbolic order stands for: (1, ∞) by default, (0, 1) with ``below_one``.
    below_one: bool = False
    _beta: sp.Dummy = field(default_factory=lambda: sp.Dummy("beta", positive=True))
    #: Whether SymPy's general ``integrate``/``summation`` may be tried (under a time budget)
    #: when no rule applies; off while a change of variables is being tried, so a candidate
    #: substitution is accepted only when a closed-form rule finishes it.
    fallback: bool = True
    #: How many nested changes of variables (:mod:`rdpsym.engine.transform`) may still be tried.
    substitutions: int = 2

    def without_fallback(self) -> Hypotheses:
        """The same hypotheses, with closed-form rules only (no SymPy fallback)."""
        return replace(self, fallback=False)

    def inside_substitution(self) -> Hypotheses:
        """The hypotheses for the integral after one change of variables (rules only, one level less)."""
        return replace(self, fallback=False, substitutions=self.substitutions - 1)

    @property
    def region(self) -> sp.Basic:
        """The orders the symbolic order stands for, as a condition on it (True without one)."""
        if self.order_symbol is None:
            return sp.true
        a = self.order_symbol
        return sp.And(a > 0, a < 1) if self.below_one else a > 1

    @property
    def stated(self) -> tuple:
        """The hypothesis a derivation states on its symbolic order: ``(α > 1,)``, or ``(α < 1,)`` below one
        (α > 0 is the symbol's own assumption); ``()`` for a numeric order."""
        if self.order_symbol is None:
            return ()
        return (self.order_symbol < 1,) if self.below_one else (self.order_symbol > 1,)

    def _shift(self, expr: sp.Expr) -> sp.Expr:
        # Parameters declared in an interval (rdpsym.parameter: 0 < p < 1) are read the same way as the order.
        expr = in_positive_form(expr)
        if self.order_symbol is None or not expr.has(self.order_symbol):
            return expr
        value = 1 / (1 + self._beta) if self.below_one else 1 + self._beta
        return expr.xreplace({self.order_symbol: value})

    def is_positive(self, expr: sp.Expr) -> bool | None:
        """True / False when the sign is decided, None when it is not."""
        e = self._shift(sp.sympify(expr, strict=True))
        answer = e.is_positive
        if answer is None and positive_sum_of_powers(e):  # (a parameter in a closed interval: no positive form)
            return True
        if answer is None:
            answer = _decide_rational(e)
        return answer

    def is_negative(self, expr: sp.Expr) -> bool | None:
        return self.is_positive(-sp.sympify(expr, strict=True))

    def is_zero(self, expr: sp.Expr) -> bool | None:
        e = self._shift(sp.sympify(expr, strict=True))
        if e.is_zero is not None:
            return e.is_zero
        e = sp.cancel(sp.expand(e))
        return e.is_zero

    def holds(self, condition: sp.Basic) -> bool | None:
        """Decide a relational condition such as ``A < 0``."""
        if condition in (sp.true, sp.false):
            return bool(condition)
        if isinstance(condition, sp.And):
            parts = [self.holds(c) for c in condition.args]
            if False in parts:
                return False
            return True if all(p is True for p in parts) else None
        if isinstance(condition, sp.Or):
            parts = [self.holds(c) for c in condition.args]
            if True in parts:
                return True
            return False if all(p is False for p in parts) else None
        if isinstance(condition, (sp.StrictGreaterThan, sp.StrictLessThan)):
            diff = condition.gts - condition.lts
            return self.is_positive(diff)
        if isinstance(condition, (sp.GreaterThan, sp.LessThan)):
            neg = self.is_positive(condition.lts - condition.gts)
            return None if neg is None else not neg
        if isinstance(condition, sp.Ne):
            z = self.is_zero(condition.lhs - condition.rhs)
            return None if z is None else not z
        if isinstance(condition, sp.Eq):
            return self.is_zero(condition.lhs - condition.rhs)
        return None


#: CPU seconds SymPy may take to factor an expression whose sign is asked: a binomial pair at α = 999/1000 with p in
#: [0, 1] had SymPy factor a polynomial of degree about 2000, unbounded (minutes; a probe).
SIGN_SECONDS = 1.0


def _decide_rational(e: sp.Expr) -> bool | None:
    """Try the sign of numerator and denominator separately after ``together`` (None where SymPy does not finish
    within :data:`SIGN_SECONDS`), of ``e`` without its constant factors (:func:`_without_constants`).

    >>> p = sp.Symbol("p", positive=True)
    >>> _decide_rational(-3 * sp.sqrt(2) * (p + 1) / (p + 2))
    False
    """
    constant, rest = _without_constants(e)
    if constant.is_positive:
        return _decide_sign(rest)
    if constant.is_negative:  # (e = |c|·(−r))
        return _decide_sign(-rest)
    return _decide_sign(e)


def _without_constants(e: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """(c, r) with ``e`` = c·r, c the factor free of symbols (a sum's common one too, where SymPy's ``factor_terms``
    finds it within :data:`SIGN_SECONDS`), r what the sign rests on."""
    if not e.free_symbols:
        return sp.S.One, e
    if e.is_Add and can_budget():
        try:  # (unbudgeted, factor_terms ran without end on (1/2)^(10³⁰ − k) − 1/3: a review)
            e = budgeted(lambda: sp.factor_terms(e), "a sign's constant factors", seconds=SIGN_SECONDS)
        except NoClosedFormError:
            return sp.S.One, e
    return e.as_independent(*e.free_symbols, as_Add=False)


@functools.lru_cache(maxsize=4096)
def _decide_sign(e: sp.Expr) -> bool | None:
    """:func:`_decide_rational_now` within :data:`SIGN_SECONDS`, kept for the process: the same sign is asked again
    and again (the binomial pair at α = 999/1000 with p in [0, 1] asked for p^{999/1000} + (1 − p)^{999/1000} four
    times, a constant factor apart, and SymPy spent the whole budget on each: 4 × 5 s of CPU on a slow machine).
    (A budget of a caller's that ends the call raises through, and nothing is kept.)"""
    if not can_budget():
        return _decide_rational_now(e)
    try:
        return budgeted(lambda: _decide_rational_now(e), "deciding a sign", seconds=SIGN_SECONDS)
    except NoClosedFormError:
        return None


def _decide_rational_now(e: sp.Expr) -> bool | None:
    num, den = sp.fraction(sp.factor(sp.together(e)))
    if den.is_positive and num.is_positive is not None:
        return num.is_positive
    if den.is_negative and num.is_negative is not None:
        return num.is_negative
    num = sp.expand(num)
    if den.is_positive and num.is_positive is not None:
        return num.is_positive
    return None


def simplify_condition(condition: sp.Basic, hyp: Hypotheses) -> sp.Basic:
    """Rewrite ``expr > 0`` as ``numerator > 0`` when the denominator is positive.

    This turns ``α/(2σ₁²) + (1−α)/(2σ₂²) > 0`` into the familiar
    ``α σ₂² + (1 − α) σ₁² > 0``.
    """
    if not isinstance(condition, (sp.StrictGreaterThan, sp.StrictLessThan)):
        return condition
    diff = condition.gts - condition.lts
    num, den = sp.fraction(sp.together(diff))
    if hyp.is_positive(den):
        num = sp.collect(sp.expand(num), hyp.order_symbol) if hyp.order_symbol else num
        return sp.StrictGreaterThan(num, 0, evaluate=False)
    return condition


_RELATIONS = (sp.StrictGreaterThan, sp.StrictLessThan, sp.GreaterThan, sp.LessThan, sp.Equality, sp.Unequality)


def tidy_condition(condition: sp.Basic, hyp: Hypotheses) -> sp.Basic:
    """A condition in the form a reader writes, equivalent under the hypotheses.

    Each relation E ⋈ 0 loses the factors of E known positive (a denominator σ², the
    2 of 1/(2σ₂²) − 1/(2σ₁²)), a negative factor flips it, a sum of logarithms is read
    as the comparison of their product with 1, and a difference of two terms becomes a
    comparison of the terms: ``a − c ≤ 0`` is ``a ≤ c``, ``Ne((μ₁ − μ₂)/σ², 0)`` is
    ``Ne(μ₁, μ₂)``, ``1/(2s₂²) − 1/(2s₁²) > 0`` is ``s₁ > s₂``.

    >>> a, c, s = sp.symbols("a c sigma", positive=True)
    >>> tidy_condition(a - c <= 0, Hypotheses()), tidy_condition(sp.Ne((a - c)/s**2, 0), Hypotheses())
    (a <= c, Ne(a, c))
    """
    if isinstance(condition, (sp.And, sp.Or)):
        parts = [tidy_condition(c, hyp) for c in condition.args]
        if isinstance(condition, sp.Or) and len(parts) == 2 and all(
                isinstance(p, (sp.StrictLessThan, sp.StrictGreaterThan)) for p in parts):
            a, b = (p.lhs - p.rhs for p in parts)
            same = type(parts[0]) is type(parts[1])
            if (sp.expand(a - b) == 0 and not same) or (sp.expand(a + b) == 0 and same):
                return sp.Ne(parts[0].lhs, parts[0].rhs)  # E < 0 or E > 0: E ≠ 0
        return condition.func(*parts)
    if not isinstance(condition, _RELATIONS):
        return condition
    E = condition.lhs - condition.rhs
    kind = type(condition)
    E, flipped = _core(E, hyp)
    if flipped and kind in _FLIP:
        kind = _FLIP[kind]
    if E.has(sp.log) and not E.has(sp.exp):
        product = _log_product(E)
        if product is not None:  # Σ c·log u ⋈ 0  ⟺  Π u^c ⋈ 1
            # Each base's powers in one first: u^{−α}·u is u^{1−α}.  Then u/v ⋈ 1 ⟺ u ⋈ v where v > 0, and where v
            # vanishes too if u does not (u/0 is +∞, and u ⋈ 0 reads the same): a log's argument may vanish at a
            # closed end of its parameter's interval (log(1 − p₂) at p₂ = 1 of (0, 1]), where a base in both u and v
            # gave 0 ⋈ 0 (multiplying through by (1 − p₂)^α read 0 > 0, and a geometric pair's finite divergence
            # was ∞ there: a probe).
            product = sp.powsimp(product, combine="exp")
            num, den = sp.fraction(sp.together(product))
            arguments = {g.args[0] for g in E.atoms(sp.log)}
            shared = _bases(num) & _bases(den)
            if not shared and (hyp.is_positive(den) or all(  # a product of powers of the logs' (positive) arguments
                    (f.base if isinstance(f, sp.Pow) else f) in arguments or f.is_positive
                    for f in sp.Mul.make_args(den))):  # u/v ⋈ 1  ⟺  u ⋈ v
                return kind(num, den) if den != 1 else _relation(kind, num - 1)
            return kind(product, 1)
    return _relation(kind, E)


def _bases(e: sp.Expr) -> set:
    """The bases of a product's factors (a power's base, any other factor itself)."""
    return {f.base if isinstance(f, sp.Pow) else f for f in sp.Mul.make_args(e)}


_FLIP = {sp.StrictGreaterThan: sp.StrictLessThan, sp.StrictLessThan: sp.StrictGreaterThan,
         sp.GreaterThan: sp.LessThan, sp.LessThan: sp.GreaterThan}


def _core(E: sp.Expr, hyp: Hypotheses) -> tuple[sp.Expr, bool]:
    """E without its factors of known sign; whether an odd number of them were negative."""
    original = E
    num, den = sp.fraction(sp.together(E))
    flipped = False
    if den != 1:
        if hyp.is_positive(den):
            E = num
        elif hyp.is_negative(den):
            E, flipped = num, True
        else:
            return E, False
    coefficient, factors = sp.factor_list(E) if E.is_polynomial() else (sp.S.One, [(E, 1)])
    kept = sp.S.One
    for base, power in factors:
        sign = hyp.is_positive(base)
        if sign is True:
            continue
        if hyp.is_negative(base) is True:
            flipped ^= bool(power % 2)
            continue
        kept *= base**power
    if coefficient.is_negative:
        flipped = not flipped
    if kept == 1 and E != 0:
        # Every factor has a known sign (1 − c with c declared in (0, 1)): the relation is decided, and is kept
        # as written -- E with the flip of its dropped factors turned c ≤ 1 into c ≥ 1.
        return original, False
    return kept, flipped


def _log_product(E: sp.Expr) -> sp.Expr | None:
    """Π u^c when E = Σ c·log u (c free of logarithms; a rational number r as log e^r), else None."""
    product = sp.S.One
    for term in sp.Add.make_args(sp.expand(E)):
        logs = [f for f in sp.Mul.make_args(term) if isinstance(f, sp.log)]
        if len(logs) == 1 and not (term / logs[0]).has(sp.log):
            product *= logs[0].args[0] ** (term / logs[0])
        elif term.is_Rational:
            product *= sp.exp(term)
        else:
            return None
    return product


def _relation(kind, E: sp.Expr) -> sp.Basic:
    """E ⋈ 0 written as (positive terms) ⋈ (negative terms) when E has exactly two terms, else as is."""
    terms = sp.Add.make_args(sp.expand(E))
    if len(terms) == 2:
        plus = [t for t in terms if t.could_extract_minus_sign() is False]
        minus = [-t for t in terms if t.could_extract_minus_sign() is True]
        if len(plus) == 1 and len(minus) == 1:
            return kind(plus[0], minus[0])
    return kind(E, 0)
