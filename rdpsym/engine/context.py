"""Sign decisions under the stated hypotheses.

SymPy symbols carry assumptions such as ``positive=True``, but "α > 1" cannot
be attached to a symbol.  :class:`Hypotheses` decides signs with α replaced
by ``1 + β`` where β is a positive dummy, which is exactly "α > 1".
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import sympy as sp

from rdpsym.foundations.errors import NoClosedFormError


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
    """The order symbol (if symbolic) under the hypothesis ``order > 1``.

    >>> import sympy as sp
    >>> a = sp.Symbol("alpha", positive=True)
    >>> h = Hypotheses(a)
    >>> h.is_positive(a - 1), h.is_positive(1 - a), h.is_positive(a - 2)
    (True, False, None)
    """

    order_symbol: sp.Symbol | None = None
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

    def _shift(self, expr: sp.Expr) -> sp.Expr:
        if self.order_symbol is None or not expr.has(self.order_symbol):
            return expr
        return expr.xreplace({self.order_symbol: 1 + self._beta})

    def is_positive(self, expr: sp.Expr) -> bool | None:
        """True / False when the sign is decided, None when it is not."""
        e = self._shift(sp.sympify(expr, strict=True))
        answer = e.is_positive
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


def _decide_rational(e: sp.Expr) -> bool | None:
    """Try the sign of numerator and denominator separately after ``together``."""
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
