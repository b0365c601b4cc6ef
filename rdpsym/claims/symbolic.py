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

_UNEVALUATED = (sp.Limit, sp.Integral, sp.Sum, sp.Order, sp.Subs, sp.Derivative)


def _settled(value: object) -> bool:
    """Whether SymPy answered in closed form (an unevaluated part may be evaluated by another version)."""
    return isinstance(value, sp.Basic) and not value.has(*_UNEVALUATED)


@persistent("a claim's limit", keep=_settled, returns=sp.Basic)
def limit(expr: sp.Expr, variable: sp.Symbol, point: sp.Expr, direction: str = "+") -> sp.Expr:
    """``sympy.limit(expr, variable, point, direction)``, kept."""
    return sp.limit(expr, variable, point, direction)


@persistent("a claim's integral", keep=_settled, returns=sp.Basic)
def integrate(expr: sp.Expr, limits: tuple) -> sp.Expr:
    """``sympy.integrate(expr, (x, lo, hi))``, kept."""
    return sp.integrate(expr, tuple(limits))


@persistent("a claim's sum", keep=_settled, returns=sp.Basic)
def summation(expr: sp.Expr, limits: tuple) -> sp.Expr:
    """``sympy.summation(expr, (k, lo, hi))``, kept."""
    return sp.summation(expr, tuple(limits))


@persistent("a claim's series", keep=_settled, returns=sp.Basic)
def series_terms(expr: sp.Expr, variable: sp.Symbol, point: sp.Expr, n: int) -> sp.Expr:
    """``sympy.series(expr, variable, point, n)`` without its O-term, kept."""
    return sp.series(expr, variable, point, n).removeO()


@persistent("a claim's simplification", keep=_settled, returns=sp.Basic)
def simplify(expr: sp.Expr) -> sp.Expr:
    """``sympy.simplify(expr)``, kept."""
    return sp.simplify(expr)


__all__ = ["integrate", "limit", "series_terms", "simplify", "summation"]
