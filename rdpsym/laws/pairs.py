"""The worst-case pairs of output densities of the built-in mechanisms, one builder each.

A built-in :class:`~rdpsym.laws.mechanism_types.Mechanism` holds its pair as a
:class:`~rdpsym.laws.mechanism_types.LazyPair`: a module-level builder and its
arguments, called on first use and pickled by name.  The builders are kept
together here, below the factories, because they are an identity as well as a
recipe: accounting recognises a built-in's pair by its builder
(:mod:`rdpsym.accounting.curves`), whichever factory made it.
"""

from __future__ import annotations

import functools

import sympy as sp

from rdpsym.foundations.errors import DensityError
from rdpsym.laws.densities import Continuous, Density, Discrete
from rdpsym.laws.mechanism_types import Mechanism

#: The output variable of the continuous built-ins.
x = sp.Symbol("x", real=True)

#: The outcome variable of the discrete built-ins.
k_ = sp.Symbol("k", integer=True)


def _gaussian_pair(s: sp.Expr, d: sp.Expr) -> tuple[Density, Density]:
    P = Continuous(sp.exp(-(x**2) / (2 * s**2)) / sp.sqrt(2 * sp.pi * s**2), x)
    Q = Continuous(sp.exp(-((x - d) ** 2) / (2 * s**2)) / sp.sqrt(2 * sp.pi * s**2), x)
    return P, Q


def _laplace_pair(b: sp.Expr, d: sp.Expr) -> tuple[Density, Density]:
    P = Continuous(sp.exp(-sp.Abs(x) / b) / (2 * b), x)
    Q = Continuous(sp.exp(-sp.Abs(x - d) / b) / (2 * b), x)
    return P, Q


def _randomized_response_pair(q: sp.Expr) -> tuple[Density, Density]:
    return Discrete({1: q, 0: 1 - q}), Discrete({1: 1 - q, 0: q})


@functools.lru_cache(maxsize=64)
def _sampled_gaussian_pair(q: sp.Expr, s: sp.Expr):
    """The worst-case pair as checked densities (memoised: checking them costs more than accounting)."""
    n0 = sp.exp(-(x**2) / (2 * s**2)) / sp.sqrt(2 * sp.pi * s**2)
    n1 = sp.exp(-((x - 1) ** 2) / (2 * s**2)) / sp.sqrt(2 * sp.pi * s**2)
    return (Continuous((1 - q) * n0 + q * n1, x), Continuous(n0, x))


def _discrete_gaussian_pair(s: sp.Expr, d: sp.Expr) -> tuple[Density, Density]:
    """N_ℤ(0, σ²) and N_ℤ(Δ, σ²); the normaliser θ(0) has no closed form and is left as its sum.

    Not checked by summation (each pmf is a shifted Gaussian over its own total, which sums to 1 by
    construction); the curve is computed from the theta sums, not from these densities.
    """
    j = sp.Symbol("j", integer=True)
    theta = sp.Sum(sp.exp(-(j**2) / (2 * s**2)), (j, -sp.oo, sp.oo))
    P = Discrete(sp.exp(-(k_**2) / (2 * s**2)) / theta, k_, support=sp.Range(-sp.oo, sp.oo), check=False)
    Q = Discrete(sp.exp(-((k_ - d) ** 2) / (2 * s**2)) / theta, k_, support=sp.Range(-sp.oo, sp.oo), check=False)
    return P, Q


def _discrete_laplace_pair(t: sp.Expr, d: sp.Expr) -> tuple[Density, Density]:
    r = sp.exp(-1 / t)
    norm = (1 - r) / (1 + r)
    P = Discrete(norm * sp.exp(-sp.Abs(k_) / t), k_, support=sp.Range(-sp.oo, sp.oo))
    Q = Discrete(norm * sp.exp(-sp.Abs(k_ - d) / t), k_, support=sp.Range(-sp.oo, sp.oo))
    return P, Q


def _k_randomized_response_pair(k: sp.Integer, e: sp.Expr, relation: str) -> tuple[Density, Density]:
    """The two rows as finite laws: outcome 0 the true value, 1 the other value (or the k − 1 others), 2 the rest."""
    if k == 1:
        return Discrete({0: sp.S.One}), Discrete({0: sp.S.One})
    if e == sp.oo:
        p, b = sp.S.One, sp.S.Zero
    else:
        p, b = sp.exp(e) / (sp.exp(e) + k - 1), 1 / (sp.exp(e) + k - 1)
    if relation == "replace-special":
        return Discrete({0: p, 1: (k - 1) * b}), Discrete({0: sp.S.One / k, 1: (k - 1) / k})
    rest = {2: (k - 2) * b} if k > 2 else {}
    return Discrete({0: p, 1: b, **rest}), Discrete({0: b, 1: p, **rest})


def _poisson_pair(q: sp.Expr, inner: Mechanism) -> tuple[Density, Density]:
    """((1−q)Q + qP, Q) for the inner pair (P, Q): a mixture of checked densities needs no new check."""
    P, Q = inner.pair
    if isinstance(P, Discrete) and P.table is not None and isinstance(Q, Discrete) and Q.table is not None:
        outcomes = list(dict.fromkeys([*Q.table, *P.table]))
        mixed = {o: (1 - q) * Q.table.get(o, 0) + q * P.table.get(o, 0) for o in outcomes}
        return Discrete(mixed, check=False), Discrete({o: Q.table.get(o, sp.S.Zero) for o in outcomes}, check=False)
    if type(P) is not type(Q) or P.support != Q.support:
        raise DensityError("the Poisson mixture of this pair needs both densities of one kind on one support; "
                           f"got {type(P).__name__} on {P.support} and {type(Q).__name__} on {Q.support}.")
    p_expr = P.expr.xreplace({P.var: Q.var})
    if isinstance(Q, Continuous):
        return Continuous((1 - q) * Q.pdf + q * p_expr, Q.var, Q.support, check=False), Q
    return Discrete((1 - q) * Q.pmf + q * p_expr, Q.var, Q.support, check=False), Q


__all__ = ["k_", "x"]
