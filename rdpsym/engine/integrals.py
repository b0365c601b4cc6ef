"""Closed forms of ∫ exp(L(x)) dx over one smooth piece, with convergence conditions.

Each rule recognises one shape of ``L`` and returns a :class:`PieceValue`:
the value, the condition under which the integral converges (``true`` when it
always does), and the rule's name for the derivation.  A rule either returns
a result that is valid exactly when its condition holds, or raises
:class:`NoClosedFormError`; the integral of a positive function that does not
converge is +∞, which is what the condition's "else" branch means.

Rules (each is the textbook identity written once):

``gaussian``  L = A x² + B x + C, A < 0:
    ∫ = e^{C + B²/(4a)} √(π/a)/2 · [erf(√a (h − v)) − erf(√a (l − v))],
    a = −A, v = B/(2a); on the whole line √(π/a)·e^{C + B²/(4a)}.
``exponential``  L = B x + C:  ∫ = (e^{B h + C} − e^{B l + C}) / B.
``gamma``  L = c·log(x − r) + B x + C on (r, ∞):  e^{C + B r} Γ(c + 1) / (−B)^{c + 1}.
``beta``  L = c₁ log(x − l) + c₂ log(h − x) + C on (l, h):  e^C (h − l)^{c₁+c₂+1} B(c₁+1, c₂+1).
``sympy``  anything else: ``sympy.integrate`` under a time budget.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from rdpsym.engine.context import Hypotheses
from rdpsym.foundations.budget import budgeted
from rdpsym.foundations.errors import NoClosedFormError

oo = sp.oo


@dataclass(frozen=True)
class PieceValue:
    """One piece's integral: ``value`` when ``condition`` holds, else +∞."""

    value: sp.Expr
    condition: sp.Basic
    rule: str


def _coefficients(L: sp.Expr, x: sp.Symbol) -> tuple[sp.Expr, sp.Expr, sp.Expr] | None:
    """(A, B, C) when L = A x² + B x + C, else None."""
    if not L.is_polynomial(x):
        return None
    poly = sp.Poly(L, x)
    if poly.degree() > 2:
        return None
    return tuple(poly.coeff_monomial(x**k) for k in (2, 1, 0))  # type: ignore[return-value]


def _log_terms(L: sp.Expr, x: sp.Symbol):
    """Split L into Σ c_i·log(x − r_i) (as (c_i, r_i, sign)) plus a remainder."""
    logs = [g for g in L.atoms(sp.log) if g.has(x)]
    terms = []
    rest = L
    for g in logs:
        u = g.args[0]
        if not u.is_polynomial(x) or sp.Poly(u, x).degree() != 1:
            return None
        s, u0 = sp.Poly(u, x).all_coeffs()
        c = sp.expand(rest).coeff(g)
        if c.has(x):
            return None
        root = sp.simplify(-u0 / s)
        # log(s·(x − r)) = log|s| + log|x − r| on the side where the argument is positive.
        terms.append((c, root, s))
        rest = sp.expand(rest - c * g + c * sp.log(sp.Abs(s)))
    return terms, rest


def integrate_exp(L: sp.Expr, x: sp.Symbol, lo: sp.Expr, hi: sp.Expr, hyp: Hypotheses) -> PieceValue:
    """∫_lo^hi exp(L) dx for ``L`` expanded, by the first rule that applies.

    >>> import sympy as sp
    >>> x = sp.Symbol("x", real=True)
    >>> integrate_exp(-x**2/2, x, -sp.oo, sp.oo, Hypotheses())
    PieceValue(value=sqrt(2)*sqrt(pi), condition=True, rule='gaussian')
    """
    abc = _coefficients(L, x)
    if abc is not None:
        A, B, C = abc
        if hyp.is_zero(A):
            return _exponential(B, C, lo, hi, hyp)
        return _gaussian(A, B, C, lo, hi, hyp)
    split = _log_terms(L, x)
    if split is not None and split[0]:
        value = _gamma_or_beta(split[0], split[1], x, lo, hi, hyp)
        if value is not None:
            return value
    return _sympy_fallback(L, x, lo, hi)


def _exponential(B, C, lo, hi, hyp: Hypotheses) -> PieceValue:
    b_zero = hyp.is_zero(B)
    if b_zero:
        if lo is -oo or hi is oo:
            return PieceValue(oo, sp.true, "constant")
        return PieceValue(sp.exp(C) * (hi - lo), sp.true, "constant")
    upper = sp.S.Zero if hi is oo else sp.exp(B * hi + C) / B
    lower = sp.S.Zero if lo is -oo else sp.exp(B * lo + C) / B
    value = upper - lower
    conditions = []
    if hi is oo:
        conditions.append(B < 0)
    if lo is -oo:
        conditions.append(B > 0)
    if len(conditions) == 2:
        return PieceValue(oo, sp.true, "exponential")
    condition = sp.And(*conditions) if conditions else sp.true
    if not conditions and b_zero is None:
        value = sp.Piecewise((value, sp.Ne(B, 0)), (sp.exp(C) * (hi - lo), True))
    return _decided(value, condition, "exponential", hyp)


def _gaussian(A, B, C, lo, hi, hyp: Hypotheses) -> PieceValue:
    negative = hyp.is_negative(A)
    if negative is False and (lo is -oo or hi is oo):
        return PieceValue(oo, sp.true, "gaussian")
    if negative is None and not (lo is -oo and hi is oo):
        # On a half-line (or finite piece) the sign of A is not the whole story:
        # A = 0 leaves an exponential that may still converge.  Give every case.
        linear = _exponential(B, C, lo, hi, hyp)
        linear_value = linear.value if linear.condition is sp.true else sp.Piecewise(
            (linear.value, linear.condition), (oo, True))
        cases = [(_gaussian_negative(A, B, C, lo, hi), A < 0)]
        if lo is not -oo and hi is not oo:
            cases.append((_gaussian_positive(A, B, C, lo, hi), A > 0))
        value = sp.Piecewise(*cases, (linear_value, sp.Eq(A, 0)), (oo, True))
        return PieceValue(value, sp.true, "gaussian (by the sign of the quadratic coefficient)")
    if negative is False:
        return PieceValue(_gaussian_positive(A, B, C, lo, hi), sp.true, "gaussian (erfi)")
    return _decided(_gaussian_negative(A, B, C, lo, hi), A < 0, "gaussian", hyp)


def _gaussian_positive(A, B, C, lo, hi) -> sp.Expr:
    """∫ exp(A x² + B x + C) over a finite (lo, hi) for A > 0, with erfi."""
    v = -B / (2 * A)
    scale = sp.exp(C - B**2 / (4 * A)) * sp.sqrt(sp.pi / A) / 2
    return scale * (sp.erfi(sp.sqrt(A) * (hi - v)) - sp.erfi(sp.sqrt(A) * (lo - v)))


def _gaussian_negative(A, B, C, lo, hi) -> sp.Expr:
    """∫ exp(A x² + B x + C) over (lo, hi) for A < 0: erf/erfc of the completed square."""
    a = -A
    v = B / (2 * a)
    peak = sp.exp(C + B**2 / (4 * a))
    root = sp.sqrt(sp.pi / a)
    if lo is -oo and hi is oo:
        return peak * root
    if hi is oo:
        return peak * root / 2 * sp.erfc(sp.sqrt(a) * (lo - v))
    if lo is -oo:
        return peak * root / 2 * sp.erfc(sp.sqrt(a) * (v - hi))
    return peak * root / 2 * (sp.erf(sp.sqrt(a) * (hi - v)) - sp.erf(sp.sqrt(a) * (lo - v)))


def _gamma_or_beta(terms, rest, x, lo, hi, hyp: Hypotheses) -> PieceValue | None:
    abc = _coefficients(rest, x)
    if abc is None or not hyp.is_zero(abc[0]):
        return None
    _, B, C = abc
    at_lo = [(c, s) for (c, r, s) in terms if sp.simplify(r - lo) == 0]
    at_hi = [(c, s) for (c, r, s) in terms if sp.simplify(r - hi) == 0]
    if len(at_lo) + len(at_hi) != len(terms) or len(at_lo) > 1 or len(at_hi) > 1:
        return None
    if at_lo and not at_hi and hi is oo:
        c = at_lo[0][0]
        value = sp.exp(C + B * lo) * sp.gamma(c + 1) / (-B) ** (c + 1)
        return _decided(value, sp.And(c > -1, B < 0), "gamma", hyp)
    if at_hi and not at_lo and lo is -oo:
        c = at_hi[0][0]
        value = sp.exp(C + B * hi) * sp.gamma(c + 1) / B ** (c + 1)
        return _decided(value, sp.And(c > -1, B > 0), "gamma", hyp)
    if at_lo and at_hi and lo is not -oo and hi is not oo and hyp.is_zero(B):
        c1, c2 = at_lo[0][0], at_hi[0][0]
        value = sp.exp(C) * (hi - lo) ** (c1 + c2 + 1) * sp.beta(c1 + 1, c2 + 1)
        return _decided(value, sp.And(c1 > -1, c2 > -1), "beta", hyp)
    return None


def _decided(value, condition, rule, hyp: Hypotheses) -> PieceValue:
    truth = hyp.holds(condition)
    if truth is True:
        return PieceValue(value, sp.true, rule)
    if truth is False:
        return PieceValue(oo, sp.true, rule)
    return PieceValue(value, condition, rule)


def _sympy_fallback(L, x, lo, hi) -> PieceValue:
    result = budgeted(lambda: sp.integrate(sp.exp(L), (x, lo, hi), conds="separate"), "sympy.integrate")
    value, condition = result if isinstance(result, tuple) else (result, sp.true)
    if value.has(sp.Integral) or value.has(sp.nan):
        raise NoClosedFormError(f"sympy.integrate left ∫ exp({L}) unevaluated")
    if condition is not sp.true:
        # SymPy's conditions are sufficient, not necessary: we cannot claim "else ∞".
        raise NoClosedFormError(f"sympy.integrate needs the condition {condition}")
    return PieceValue(value, sp.true, "sympy.integrate")
