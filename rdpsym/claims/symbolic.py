"""SymPy's limit, integral, sum, series and simplification for a claim's sides, each taken once and kept.

A claim's side may be SymPy's own answer to a question the core does not ask itself: Definition 3's
α → 1 and α → ∞ limits of a derived curve, a KL integrated straight from the densities, a series at
order 1 (``proofs/mironov2017/def3_limits.py``, ``proofs/beyond/bounded_range.py``).  They were about a
fifth of a catalogue run whose derivations and proofs were all read back (3.9 s of 18.5 s in one profile),
and they are functions of their expressions alone: the same expression, SymPy and rdpsym give the same answer.
So they go through rdpsym's cache of derivations (:mod:`rdpsym.foundations.disk_cache`), like the
derivations and proof attempts of the same run: taken once per installation, and shipped with the
wheel for the catalogue's claims.

What is kept is only SymPy's answer, never a verdict: every point of a claim is checked again in
balls each run, and an answer SymPy left unevaluated (an ``Integral``, a ``Limit``, an ``O(h²)``
term) is not kept.

>>> import sympy as sp
>>> h = sp.Symbol("h", positive=True)
>>> limit(sp.sin(h) / h, h, 0), integrate(sp.exp(-h), (h, 0, sp.oo)), series_terms(sp.exp(h), h, 0, 3)
(1, 1, h**2/2 + h + 1)
>>> k = sp.Symbol("k", integer=True, nonnegative=True)
>>> summation(sp.Rational(1, 2) ** k, (k, 0, sp.oo)), summation(h ** k / sp.factorial(k), (k, 0, sp.oo))
(2, exp(h))
"""

from __future__ import annotations

import sympy as sp

from rdpsym.foundations.disk_cache import persistent
from rdpsym.foundations.symbols import admitted_points

_UNEVALUATED = (sp.Limit, sp.Integral, sp.Sum, sp.Order, sp.Subs, sp.Derivative)


def _settled(value: object) -> bool:
    """Whether SymPy answered in closed form (an unevaluated part may be evaluated by another version)."""
    return isinstance(value, sp.Basic) and not value.has(*_UNEVALUATED)


@persistent("a claim's limit", keep=_settled, returns=sp.Basic)
def limit(expr: sp.Expr, variable: sp.Symbol, point: sp.Expr, direction: str = "+") -> sp.Expr:
    """``sympy.limit(expr, variable, point, direction)``, kept.

    A one-sided limit at a finite point of an expression that switches (Piecewise, Heaviside, sign, floor, …) is
    taken in s > 0 with ``variable`` = point ± s, so that each condition is decided on the side asked for first:
    SymPy 1.14 gives a Piecewise's value *at* the point from either side (lim_{α→2⁻} of (α/2 if α < 2, else α²)
    came out 4, and a claim that it is 4 was proved, a review).

    >>> a = sp.Symbol("a", real=True)
    >>> limit(sp.Piecewise((a / 2, a < 2), (a**2, True)), a, 2, "-"), limit(sp.Heaviside(a), a, 0, "+")
    (1, 1)
    """
    point = sp.sympify(point, strict=True)
    if direction in ("+", "-") and point.is_finite and expr.has(*_SWITCHING):
        s = sp.Dummy("s", positive=True)
        moved = expr.subs(variable, point + s if direction == "+" else point - s)
        if moved.has(sp.Piecewise):  # a condition not decided on that side: SymPy's answer cannot be trusted
            return sp.Limit(expr, variable, point, direction)
        return sp.limit(moved, s, 0, "+")
    return sp.limit(expr, variable, point, direction)


#: Functions whose value at a point need not be their limit from one side (:func:`limit`).
_SWITCHING = (sp.Piecewise, sp.Heaviside, sp.sign, sp.floor, sp.ceiling, sp.frac)


@persistent("a claim's integral", keep=_settled, returns=sp.Basic)
def integrate(expr: sp.Expr, limits: tuple) -> sp.Expr:
    """``sympy.integrate(expr, (x, lo, hi))``, kept."""
    return sp.integrate(expr, tuple(limits))


@persistent("a claim's sum", keep=_settled, returns=sp.Basic)
def summation(expr: sp.Expr, limits: tuple) -> sp.Expr:
    """``sympy.summation(expr, (k, lo, hi))``, kept; where its range ends at a symbol, the closed form is compared
    with the sum term by term at a few values of its symbols, and one that disagrees is left unevaluated (a
    ``Sum``, not kept).  SymPy 1.14 sums (−1)^k·C(n, k) over 0 ≤ k ≤ n to 0 for every n, though it is 1 at n = 0,
    and a claim that the sum is 0 on n ≥ 0 was proved (a review).

    >>> n = sp.Symbol("n", integer=True, nonnegative=True)
    >>> k = sp.Symbol("k", integer=True, nonnegative=True)
    >>> summation((-1) ** k * sp.binomial(n, k), (k, 0, n))
    Sum((-1)**k*binomial(n, k), (k, 0, n))
    >>> summation(k, (k, 0, n))
    n**2/2 + n/2
    """
    closed = sp.summation(expr, tuple(limits))
    if _settled(closed) and not _agrees_term_by_term(expr, tuple(limits), closed):
        return sp.Sum(expr, tuple(limits))
    return closed


def _agrees_term_by_term(expr: sp.Expr, limits: tuple, closed: sp.Expr) -> bool:
    """Whether ``closed`` equals the sum of ``expr`` over ``limits`` at :data:`_SAMPLES` points of the symbols its
    finite range and terms depend on (values their assumptions admit); True where the range is not finite."""
    k, lo, hi = (sp.sympify(end, strict=True) for end in limits)  # (ends given as ints; strict: never text)
    symbols = sorted((expr.free_symbols | lo.free_symbols | hi.free_symbols) - {k}, key=sp.default_sort_key)
    if not symbols or not (lo.is_finite and hi.is_finite) or lo == -sp.oo or hi == sp.oo:
        return True
    for point in admitted_points(symbols, _SAMPLE_VALUES, _SAMPLES):
        first, last = lo.subs(point), hi.subs(point)
        if not (first.is_Integer and last.is_Integer) or last - first > _MOST_TERMS:
            continue
        direct = sp.Add(*(expr.subs(point).subs(k, j) for j in range(int(first), int(last) + 1)))
        value = closed.subs(point)
        if value.has(sp.nan, sp.zoo, sp.oo, -sp.oo) or direct.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
            continue  # (a point where the closed form or a term is not defined tells nothing)
        difference = sp.N(value - direct, 30)
        if not difference.is_number or abs(difference) > sp.Float(10) ** -20 * (1 + abs(sp.N(direct, 30))):
            return False
    return True


#: Values tried for each symbol of a sum (:func:`_agrees_term_by_term`), those its assumptions admit.
_SAMPLE_VALUES = (sp.S.Zero, sp.Integer(1), sp.Integer(2), sp.Integer(3), sp.Rational(1, 2), sp.Integer(-1),
                  sp.Integer(5))
_SAMPLES = 4
_MOST_TERMS = 50


@persistent("a claim's series", keep=_settled, returns=sp.Basic)
def series_terms(expr: sp.Expr, variable: sp.Symbol, point: sp.Expr, n: int) -> sp.Expr:
    """``sympy.series(expr, variable, point, n)`` without its O-term, kept."""
    return sp.series(expr, variable, point, n).removeO()


@persistent("a claim's simplification", keep=_settled, returns=sp.Basic)
def simplify(expr: sp.Expr) -> sp.Expr:
    """``sympy.simplify(expr)``, kept."""
    return sp.simplify(expr)


__all__ = ["integrate", "limit", "series_terms", "simplify", "summation"]
