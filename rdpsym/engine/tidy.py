"""Regrouping results into the forms papers print.

Blanket ``simplify`` dominates SymPy's cost and rarely gives the paper's form
(it turns Mironov's Laplace moment into ``(α e^{1/b} + ...) e^{−(α+1)/b}/(2α−1)``).
These helpers do the few targeted rewrites that do.
"""

from __future__ import annotations

from collections import defaultdict

import sympy as sp


def collect_exp(expr: sp.Expr) -> sp.Expr:
    """Group a sum by its exponential factors: Σ c_i·e^{u_i} with distinct u_i.

    >>> import sympy as sp
    >>> a, b = sp.symbols("alpha b", positive=True)
    >>> collect_exp(sp.exp(a/b)/2 + sp.exp(a/b)/3)
    5*exp(alpha/b)/6
    """
    groups: dict[sp.Expr, sp.Expr] = defaultdict(lambda: sp.S.Zero)
    for term in sp.Add.make_args(sp.powsimp(expr)):
        coeff, exponent = sp.S.One, sp.S.Zero
        for factor in sp.Mul.make_args(term):
            if isinstance(factor, sp.exp):
                exponent += factor.args[0]
            elif isinstance(factor, sp.Pow) and isinstance(factor.base, sp.exp):
                exponent += factor.base.args[0] * factor.exp
            else:
                coeff *= factor
        groups[sp.factor(sp.expand(exponent))] += coeff
    return sp.Add(*[sp.factor(c) * sp.exp(u) for u, c in groups.items() if c != 0])


def log_moment(moment: sp.Expr) -> sp.Expr:
    """``log(moment)``, expanded into a sum when the moment is a single product."""
    if moment == sp.oo:
        return sp.oo
    if isinstance(moment, sp.Add):
        return sp.log(moment)
    expanded = sp.expand(sp.expand_log(sp.log(moment), force=True))
    return expanded


def divergence_from_moment(moment: sp.Expr, order: sp.Expr) -> sp.Expr:
    """``log(moment)/(order − 1)`` in its simplest cheap form.

    >>> import sympy as sp
    >>> a, s = sp.symbols("alpha sigma", positive=True)
    >>> divergence_from_moment(sp.exp(a*(a - 1)/(2*s**2)), a)
    alpha/(2*sigma**2)
    """
    L = log_moment(moment)
    if L == sp.oo:
        return sp.oo
    if isinstance(L, sp.log):
        return L / (order - 1)
    return _cancel_logs(L / (order - 1))


def _cancel_logs(expr: sp.Expr) -> sp.Expr:
    """Cancel the rational part; keep log terms grouped by their argument."""
    expr = sp.expand(expr)
    logs: dict[sp.Expr, sp.Expr] = defaultdict(lambda: sp.S.Zero)
    rest = sp.S.Zero
    for term in sp.Add.make_args(expr):
        lg = [f for f in sp.Mul.make_args(term) if isinstance(f, sp.log)]
        if len(lg) == 1:
            logs[lg[0]] += term / lg[0]
        else:
            rest += term
    out = sp.factor(sp.cancel(sp.together(rest)))
    for g, c in logs.items():
        c = sp.factor(sp.cancel(sp.together(c)))
        if c != 0:
            out += c * g
    return out


def max_of(values: list[sp.Expr]) -> sp.Expr:
    """``Max`` of values, with ``Max(u, −u)`` written as ``Abs(u)``."""
    values = [sp.expand(sp.expand_log(v, force=True)) for v in values]
    unique: list[sp.Expr] = []
    for v in values:
        if not any(sp.simplify(v - u) == 0 for u in unique):
            unique.append(v)
    if len(unique) == 2 and sp.simplify(unique[0] + unique[1]) == 0:
        u = unique[0]
        return sp.Abs(sp.logcombine(u, force=True))
    return sp.Max(*[sp.logcombine(v, force=True) for v in unique])
