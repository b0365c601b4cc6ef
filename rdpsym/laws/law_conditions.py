"""The conditions under which two laws with parameters are probability laws, as hypotheses on the parameters.

A finite table's probabilities and the base of a power in the outcome (the 1 − p of (1 − p)^k·p) that SymPy cannot
tell are nonnegative bound where a derivation's result is a divergence of laws at all: {0: p, 1: 1 − p} against
{0: q, 1: 1 − q} gives log(p²/q + (1 − p)²/(1 − q)), which at p = 2 is log 10 for two "laws" with a probability −1.
The derivation states its result under them (:func:`rdpsym.derive.univariate`), and its check against the
definition passes over the points where they fail (:meth:`rdpsym.derive.check_loop.Check.not_laws`), while a point
where they hold and a law is still none is an error.
"""

from __future__ import annotations

import sympy as sp


def law_conditions(P: object, Q: object) -> tuple:
    """The conditions (SymPy relations) under which the one-variable laws ``P`` and ``Q`` are laws: each probability
    of a finite table, and each base of a power in the outcome, that SymPy cannot tell is nonnegative is ≥ 0, as a
    bound on its one parameter where it is linear in it.  None for laws of other kinds.

    >>> import rdpsym
    >>> p = sp.Symbol("p", positive=True)
    >>> law_conditions(rdpsym.Discrete({0: p, 1: 1 - p}), rdpsym.Discrete({0: sp.Rational(1, 2), 1: sp.Rational(1, 2)}))
    (p <= 1,)
    """
    laws = [law for law in (P, Q) if hasattr(law, "expr") and hasattr(law, "var")]
    tables = [getattr(law, "table", None) for law in laws]
    values = [v for table in tables if table is not None for v in table.values()]
    values += [b.base for law, table in zip(laws, tables) if table is None for b in law.expr.atoms(sp.Pow)
               if b.exp.has(law.var) and not b.base.has(law.var)]
    conditions = [_nonnegative(v) for v in values if v.free_symbols and v.is_nonnegative is not True]
    return tuple(c for c in dict.fromkeys(conditions) if c is not sp.true)


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
