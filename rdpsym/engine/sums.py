"""Closed forms of Σ_{k=lo}^{hi} exp(L(k)) over one integer range, with conditions.

Rules:

``finite``  a numeric range of at most :data:`DIRECT_TERMS` terms: the exact sum.
``geometric``  L = B k + C:  Σ r^k e^C with r = e^B (|r| < 1 on infinite ranges).
``exponential series``  L = −log k! + B k + C on k ≥ 0:  e^C · exp(e^B)  (Poisson).
``binomial theorem``  L = log C(n, k) + B k + C on 0 ≤ k ≤ n:  e^C (1 + e^B)^n.
``theta series``  L = A k² + B k + C, A < 0, on an infinite range:  e^C Σ e^{A j² + B j}, kept as a
    canonical :class:`~rdpsym.engine.series.Series` (no elementary closed form: the discrete Gaussian).
``sympy``  anything else: ``sympy.summation`` under a time budget.
"""

from __future__ import annotations

import sympy as sp

from rdpsym.engine.context import Hypotheses
from rdpsym.engine.integrals import PieceValue, _decided
from rdpsym.engine.series import series
from rdpsym.engine.tidy import split_logs
from rdpsym.foundations.budget import budgeted
from rdpsym.foundations.errors import NoClosedFormError

oo = sp.oo

#: A numeric range with at most this many terms is summed term by term, exactly.
DIRECT_TERMS = 400


def sum_exp(L: sp.Expr, k: sp.Symbol, lo: sp.Expr, hi: sp.Expr, hyp: Hypotheses) -> PieceValue:
    """Σ_{k=lo}^{hi} exp(L) for ``L`` expanded (``lo``/``hi`` inclusive, may be ±∞).

    >>> import sympy as sp
    >>> k = sp.Symbol("k", integer=True)
    >>> sum_exp(-k*sp.log(2), k, 1, sp.oo, Hypotheses()).value
    1
    """
    lo, hi = sp.S(lo), sp.S(hi)
    short = lo.is_number and hi.is_number and lo.is_finite and hi.is_finite and hi - lo < DIRECT_TERMS
    if short:
        # The binomial theorem first: Binomial(n, p₁) against Binomial(n, p₂) is (p₁^α p₂^{1−α} + …)^n,
        # not the n + 1 terms the finite sum would list.
        binomial = _binomial_theorem(L, k, lo, hi, hyp)
        if binomial is not None:
            return binomial
        total = sp.Add(*[sp.exp(L.subs(k, j)) for j in range(int(lo), int(hi) + 1)])
        return PieceValue(total, sp.true, "finite sum")
    factorials = [g for g in L.atoms(sp.factorial) if g.has(k)]
    binomials = [g for g in L.atoms(sp.binomial) if g.has(k)]
    rest, special = L, {}
    for g in L.atoms(sp.log):
        if g.args[0] in factorials or g.args[0] in binomials:
            special[g.args[0]] = sp.expand(L).coeff(g)
            rest = rest - special[g.args[0]] * g
    rest = sp.expand(rest)
    if not special and rest.is_polynomial(k) and sp.Poly(rest, k).degree() == 2 and (lo is -oo or hi is oo):
        return _theta(rest, k, lo, hi, hyp)
    if not rest.is_polynomial(k) or sp.Poly(rest, k).degree() > 1:
        return _sympy_fallback(L, k, lo, hi, hyp)
    B = rest.coeff(k, 1)
    C = rest.coeff(k, 0)
    if not special:
        return _geometric(B, C, lo, hi, hyp)
    if len(special) == 1:
        (atom, coefficient), = special.items()
        if (
            isinstance(atom, sp.factorial)
            and atom.args[0] == k
            and hyp.is_zero(coefficient + 1)
            and lo == 0
            and hi is oo
        ):
            powers, rest = split_logs(sp.expand(B))
            return PieceValue(sp.exp(C + powers * sp.exp(rest)), sp.true, "exponential series")
        if (
            isinstance(atom, sp.binomial)
            and atom.args[1] == k
            and hyp.is_zero(coefficient - 1)
            and lo == 0
            and sp.simplify(hi - atom.args[0]) == 0
        ):
            share = sp.expand(C / atom.args[0])
            return PieceValue((sp.exp(share) + sp.exp(sp.expand(share + B))) ** atom.args[0], sp.true,
                              "binomial theorem")
    return _sympy_fallback(L, k, lo, hi, hyp)


def _binomial_theorem(L: sp.Expr, k: sp.Symbol, lo, hi, hyp: Hypotheses) -> PieceValue | None:
    """The binomial-theorem rule alone, or None when L is not log C(n, k) + B k + C on 0 ≤ k ≤ n."""
    binomials = [g for g in L.atoms(sp.binomial) if g.has(k)]
    if len(binomials) != 1 or lo != 0:
        return None
    atom = binomials[0]
    g = sp.log(atom)
    coefficient = sp.expand(L).coeff(g)
    rest = sp.expand(L - coefficient * g)
    if atom.args[1] != k or not hyp.is_zero(coefficient - 1) or sp.expand(hi - atom.args[0]) != 0:
        return None
    if not rest.is_polynomial(k) or sp.Poly(rest, k).degree() > 1:
        return None
    B, C = rest.coeff(k, 1), rest.coeff(k, 0)
    n = atom.args[0]
    # e^C (1 + e^B)^n written (e^{C/n} + e^{C/n + B})^n: two positive terms, p₁^α p₂^{1−α} and
    # (1 − p₁)^α (1 − p₂)^{1−α} once the exponents are read as powers.
    share = sp.expand(C / n)
    return PieceValue((sp.exp(share) + sp.exp(sp.expand(share + B))) ** n, sp.true, "binomial theorem")


def _theta(rest: sp.Expr, k: sp.Symbol, lo, hi, hyp: Hypotheses) -> PieceValue:
    """Σ e^{A k² + B k + C} over an infinite range: a theta-type series, kept symbolic (A < 0), else ∞."""
    A, B, C = (sp.Poly(rest, k).coeff_monomial(k**n) for n in (2, 1, 0))
    if hyp.is_negative(A) is False and not hyp.is_zero(A):
        return PieceValue(oo, sp.true, "theta series")
    if hyp.is_zero(A):
        return _geometric(B, C, lo, hi, hyp)
    value = sp.exp(C) * series(sp.exp(A * k**2 + B * k), k, lo, hi)
    return _decided(value, A < 0, "theta series", hyp)


def _geometric(B, C, lo, hi, hyp: Hypotheses) -> PieceValue:
    r = sp.exp(B)
    if hyp.is_zero(B):
        if lo is -oo or hi is oo:
            return PieceValue(oo, sp.true, "geometric")
        return PieceValue(sp.exp(C) * (hi - lo + 1), sp.true, "geometric")
    if lo is -oo and hi is oo:
        return PieceValue(oo, sp.true, "geometric")
    if hi is oo:
        # Σ_{k≥lo} r^k = r^lo / (1 − r), converges iff r < 1 (B < 0).
        return _decided(sp.exp(C + B * lo) / (1 - r), B < 0, "geometric", hyp)
    if lo is -oo:
        # Σ_{k≤hi} r^k = r^hi / (1 − 1/r), converges iff r > 1 (B > 0).
        return _decided(sp.exp(C + B * hi) / (1 - sp.exp(-B)), B > 0, "geometric", hyp)
    value = sp.exp(C) * (sp.exp(B * lo) - sp.exp(B * (hi + 1))) / (1 - r)
    if hyp.is_zero(B) is None:
        value = sp.Piecewise((value, sp.Ne(B, 0)), (sp.exp(C) * (hi - lo + 1), True))
    return PieceValue(value, sp.true, "geometric")


def _sympy_fallback(L, k, lo, hi, hyp: Hypotheses) -> PieceValue:
    if not hyp.fallback:
        raise NoClosedFormError(f"no closed-form rule for Σ exp({L})")
    value = budgeted(lambda: sp.summation(sp.exp(L), (k, lo, hi)), "sympy.summation")
    if value.has(sp.Sum) or value.has(sp.nan) or isinstance(value, sp.Piecewise):
        raise NoClosedFormError(f"sympy.summation left Σ exp({L}) unevaluated or conditional")
    return PieceValue(value, sp.true, "sympy.summation")
