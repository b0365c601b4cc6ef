"""The conditions under which two laws with parameters are probability laws, as hypotheses on the parameters.

A finite table's probabilities and the base of a power in the outcome (the 1 − p of (1 − p)^k·p) that SymPy cannot
tell are nonnegative bound where a derivation's result is a divergence of laws at all: {0: p, 1: 1 − p} against
{0: q, 1: 1 − q} gives log(p²/q + (1 − p)²/(1 − q)), which at p = 2 is log 10 for two "laws" with a probability −1.
The one-variable derivation states its result under them (:mod:`rdpsym.derive.univariate`), and every check against
the definition passes over the points where they fail (:meth:`rdpsym.derive.check_loop.Check.outside_the_laws`); a
point where they hold, inside the parameters' declared intervals (:func:`rdpsym.parameter`), where a law is still
none is an error (:meth:`~rdpsym.derive.check_loop.Check.not_laws`).
"""

from __future__ import annotations

import sympy as sp

from rdpsym.laws.independent import Independent


def law_conditions(P: object, Q: object) -> tuple:
    """The conditions (SymPy relations) under which the laws ``P`` and ``Q`` are laws: each probability of a finite
    table, each base of a power in the outcome, and each weight of a sum of terms (a mixture's w and 1 − w) that
    SymPy cannot tell is nonnegative is ≥ 0, as a bound on its one parameter where it is linear in it; the factors of
    a product law are read each.  A weight's condition may be narrower than where the sum is a law: the result is
    then stated on less than it holds on, never on more.  (A sampled Gaussian's (1 − q)·N(0, 1) + q·N(1, 1) with q
    only positive is a law for q ≤ 1 alone.)

    >>> import rdpsym
    >>> p = sp.Symbol("p", positive=True)
    >>> law_conditions(rdpsym.Discrete({0: p, 1: 1 - p}), rdpsym.Discrete({0: sp.Rational(1, 2), 1: sp.Rational(1, 2)}))
    (p <= 1,)
    """
    laws = [one for law in (P, Q) for one in _factors(law)]
    values = [v for one in laws for v in _probabilities_and_bases(one)]
    conditions = [_nonnegative(v) for v in values if v.free_symbols and v.is_nonnegative is not True]
    # A sum's weights only where linear in one parameter (w, 1 − w): a weight 1/√(2πσ²)·… of a σ only real
    # gave "√(…)·σ ≥ 0", a hypothesis that bounds nothing.
    weights = [w for one in laws for w in _weights(one) if w.free_symbols and w.is_nonnegative is None]
    conditions += [b for b in map(_linear_bound, weights) if b is not None]
    return tuple(c for c in dict.fromkeys(conditions) if c is not sp.true)


def _factors(law: object) -> list:
    """The one-variable laws of a product law (its blocks, each read again), or the law itself."""
    if isinstance(law, Independent):  # (its blocks are other laws; a Joint's blocks are itself)
        return [one for part, _ in law.blocks() for one in _factors(part) if part is not law]
    return [law] if hasattr(law, "expr") and hasattr(law, "var") else []


def _probabilities_and_bases(law) -> list[sp.Expr]:
    """A table's probabilities, or the bases of the powers in the outcome of a pmf or pdf."""
    table = getattr(law, "table", None)
    if table is not None:
        return list(table.values())
    return [b.base for b in law.expr.atoms(sp.Pow) if b.exp.has(law.var) and not b.base.has(law.var)]


def _weights(law) -> list[sp.Expr]:
    """The weights of a pmf's or pdf's terms, where it is a sum of several (each term's factors free of the
    variable)."""
    if getattr(law, "table", None) is not None or isinstance(law.expr, sp.Piecewise):
        return []
    terms = sp.Add.make_args(law.expr)
    return [term.as_independent(law.var, as_Add=False)[0] for term in terms] if len(terms) > 1 else []


def _linear_bound(v: sp.Expr) -> sp.Basic | None:
    """v ≥ 0 as a bound on its one parameter where v is linear in it, else None."""
    bound = _nonnegative(v)
    return bound if isinstance(bound, sp.Rel) and bound.lhs.is_Symbol and bound.rhs.is_number else None


def _nonnegative(v: sp.Expr) -> sp.Basic:
    """v ≥ 0, as a bound on its one parameter where v is linear in it (1 − p ≥ 0 is p ≤ 1)."""
    if len(v.free_symbols) == 1:
        (s,) = v.free_symbols
        poly = v.as_poly(s)
        if poly is not None and poly.degree() == 1 and all(c.is_number for c in poly.all_coeffs()):
            c, b = poly.all_coeffs()
            return sp.Le(s, -b / c) if c.is_negative else sp.Ge(s, -b / c)
    return sp.Ge(v, 0)


__all__ = ["law_conditions"]
