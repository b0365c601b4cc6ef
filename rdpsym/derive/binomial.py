"""Derivation layer: the moment of a mixture against one of its components, at a symbolic integer order.

Poisson subsampling makes P = (1 − q)·Q + q·R out of a mechanism's pair (R, Q) (Mironov, Talwar, Zhang
2019: the sampled Gaussian is (1 − q)N(0, σ²) + qN(1, σ²) against N(0, σ²)).  At an integer order n the
binomial theorem opens the moment, whatever R and Q are:

    E_Q[(P/Q)^n] = E_Q[(1 − q + q·R/Q)^n] = Σ_{k=0}^{n} C(n, k)(1 − q)^{n−k} q^k · E_Q[(R/Q)^k],

and E_Q[(R/Q)^k] = ∫ R^k Q^{1−k} is the mechanism's own Rényi moment at the order k, which the engine
derives at a symbolic k (e^{k(k−1)/(2σ²)} for the Gaussian).  The terms k = 0 and 1 are (1 − q)^n and
n(1 − q)^{n−1}q (E_Q[1] = E_Q[R/Q] = 1); the others use the moment derived for orders k > 1.  The result is a
SymPy ``Sum`` up to the symbolic n: MTZ's formula for the sampled Gaussian, derived rather than typed, and the
same for any mechanism whose moment the engine derives.  Like every closed form, the divergence built on it is
checked against the definition at sampled integer orders before it is returned.
"""

from __future__ import annotations

import sympy as sp

from rdpsym.derive.moments import Moment, moment
from rdpsym.engine.context import Hypotheses
from rdpsym.foundations.budget import budgeted
from rdpsym.foundations.errors import NoClosedFormError, RdpSymError
from rdpsym.foundations.record import ByIdentity, Step
from rdpsym.laws.densities import Continuous, Density, Discrete, common_refinement

#: How long the split of P into c·Q + rest may take (a simplification per term of P).
SPLIT_SECONDS = 5


def is_integer_order(order: object) -> bool:
    """Whether ``order`` is a symbol that stands for integers (``Symbol("n", integer=True)``)."""
    return isinstance(order, sp.Symbol) and order.is_integer is True


def _split(P: Density, Q: Density) -> tuple[sp.Expr, sp.Expr] | None:
    """(c, R) with P = c·Q + (1 − c)·R, c free of the variable and R's expression, or None."""
    var, q_expr = P.var, Q.expr
    c, rest = sp.S.Zero, sp.S.Zero
    for term in sp.Add.make_args(sp.expand(P.expr)):
        ratio = sp.simplify(term / q_expr)
        if ratio.has(var):
            rest += term
        else:
            c += ratio
    c = sp.simplify(c)
    if c == 0 or rest == 0:
        return None
    return c, sp.simplify(rest / (1 - c))


def binomial_moment(P: Density, Q: Density, n: sp.Symbol) -> tuple[Moment, list[Step]] | None:
    """E_Q[(P/Q)^n] as a binomial sum when P = (1 − q)·Q + q·R on Q's support and n is an integer symbol; the
    moment and the steps that show it, or None (another rule, or none, applies)."""
    if not is_integer_order(n) or type(P) is not type(Q):
        return None
    if any(pair.q == 0 and pair.p != 0 for pair in common_refinement(P, Q)):
        return None  # P has mass where Q has none: ∞ for every n ≥ 2, said by the general rule
    try:
        found = budgeted(lambda: _split(P, Q), "the split of P into its Q part and the rest", SPLIT_SECONDS)
    except NoClosedFormError:
        return None
    if found is None:
        return None
    c, r_expr = found
    q = sp.simplify(1 - c)
    make = Discrete if isinstance(P, Discrete) else Continuous
    try:  # R must be a law on P's support (checked: the rest of P may not be one, e.g. a shifted pmf's)
        R = make(r_expr, P.var, support=P.support)
    except (RdpSymError, ValueError, TypeError):
        return None
    taken = {s.name for s in P.expr.free_symbols | Q.expr.free_symbols | {n}}
    k = sp.Symbol("k", integer=True, positive=True) if "k" not in taken else sp.Dummy("k", integer=True, positive=True)
    inner = moment(R, Q, k, Hypotheses(k))
    if inner.value in (sp.oo, sp.nan) or inner.conditions:
        return None  # a moment that needs a condition in k would need it for every k ≤ n
    term = sp.binomial(n, k) * (1 - q) ** (n - k) * q**k * sp.powsimp(inner.value, combine="exp")
    value = (1 - q) ** n + n * (1 - q) ** (n - 1) * q + sp.Sum(term, (k, 2, n))
    a, b, j = sp.symbols("a b j")
    theorem = sp.Eq((a + b) ** n, sp.Sum(sp.binomial(n, j) * a ** (n - j) * b**j, (j, 0, n)), evaluate=False)
    lo, hi = P.support.inf, P.support.sup
    summed = sp.Sum if isinstance(P, Discrete) else sp.Integral
    steps = [Step(summed(P.expr**n * Q.expr ** (1 - n), (P.var, lo, hi)), "=", value, ByIdentity(theorem))]
    return Moment(value, (), (), var=P.var), steps


__all__ = ["binomial_moment", "is_integer_order"]
