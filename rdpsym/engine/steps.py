"""Step functions in a log-density: ∫ e^L where L holds ⌊u⌋ or ⌈u⌉ of a linear u = a·x + b.

The staircase mechanism (Geng–Viswanath 2014) and discretised laws are
piecewise smooth with infinitely many jumps: P = A·e^{−ε⌊|x| + 3/4⌋} is constant
on each cell n ≤ |x| + 3/4 < n + 1.  Integrated across its jumps by quadrature
its mass came out 1.00013; summed cell by cell it is exact:

* on a finite piece, every jump inside it is a breakpoint: the piece is split
  there and each part, where every ⌊·⌋ is a constant, goes to the rules of
  :func:`~rdpsym.engine.integrals.integrate_exp`;
* on an infinite piece the arguments must share one lattice (the same slope a,
  offsets that differ by integers, so ⌊u + k⌋ = ⌊u⌋ + k): after the partial cell at
  the finite end, the cells are t ∈ [n, n + 1), t = a·x + b, and the integral is
  Σ_n V(n), V(n) the integral over cell n done by the rules with n symbolic, summed
  by :func:`~rdpsym.engine.sums.sum_exp` (geometric for the staircase).

The piece's ends must be numbers (a symbolic end cannot place the jumps).

>>> x = sp.Symbol("x", real=True)
>>> integrate_exp_steps(-sp.floor(x + sp.Rational(3, 4)), x, sp.S.Zero, sp.oo, Hypotheses()).value
1/4 + exp(-1)/(1 - exp(-1))
"""

from __future__ import annotations

import sympy as sp

from rdpsym.engine.context import Hypotheses
from rdpsym.engine.integrals import integrate_exp
from rdpsym.engine.piece_value import PieceValue
from rdpsym.engine.pieces import log_of
from rdpsym.engine.sums import sum_exp
from rdpsym.foundations.errors import NoClosedFormError

oo = sp.oo

#: The most jumps a finite piece is split at (a finer staircase is summed as a lattice, or refused).
MAX_JUMPS = 400


def integrate_exp_steps(L: sp.Expr, x: sp.Symbol, lo: sp.Expr, hi: sp.Expr, hyp: Hypotheses) -> PieceValue:
    """:func:`~rdpsym.engine.integrals.integrate_exp`, with the step functions of ``L`` summed cell by cell."""
    steps = [f for f in L.atoms(sp.floor, sp.ceiling) if f.has(x)]
    if not steps:
        return integrate_exp(L, x, lo, hi, hyp)
    if not all(e.is_number or e in (oo, -oo) for e in (lo, hi)):
        raise NoClosedFormError(f"a step function {steps[0]} on a piece with a symbolic end ({lo}, {hi})")
    lines = [_linear(f.args[0], x) for f in steps]
    if any(line is None for line in lines):
        raise NoClosedFormError(f"a step function of a nonlinear argument: {steps[0]}")
    if lo.is_finite and hi.is_finite:
        return _finite(L, x, lo, hi, hyp, steps, lines)
    return _lattice(L, x, lo, hi, hyp, steps, lines)


def _linear(u: sp.Expr, x: sp.Symbol) -> tuple[sp.Rational, sp.Expr] | None:
    """(a, b) with u = a·x + b, a a nonzero rational and b a number; else None."""
    if not u.is_polynomial(x):
        return None
    poly = sp.Poly(u, x)
    if poly.degree() != 1:
        return None
    a, b = poly.all_coeffs()
    return (a, b) if a.is_Rational and a != 0 and b.is_number else None


def _resolved(L: sp.Expr, steps: list, x: sp.Symbol, at: sp.Expr) -> sp.Expr:
    """L with every ⌊u⌋ (⌈u⌉) replaced by its constant value on the cell containing ``x = at``."""
    return sp.expand(L.xreplace({f: type(f)(f.args[0].subs(x, at)) for f in steps}))


def _finite(L, x, lo, hi, hyp, steps, lines) -> PieceValue:
    """Split (lo, hi) at every jump inside it; each part by the rules."""
    cuts = {lo, hi}
    for a, b in lines:
        ends = sorted(((a * lo + b), (a * hi + b)), key=lambda v: float(v))
        first, last = sp.ceiling(ends[0]), sp.floor(ends[1])
        if last - first > MAX_JUMPS:
            raise NoClosedFormError(f"more than {MAX_JUMPS} jumps of a step function on ({lo}, {hi})")
        cuts.update((n - b) / a for n in range(int(first), int(last) + 1))
    points = sorted((c for c in cuts if not (c < lo or c > hi)), key=lambda v: float(v))
    total, conditions = sp.S.Zero, []
    for left, right in zip(points, points[1:]):
        if left == right:
            continue
        part = integrate_exp(_resolved(L, steps, x, (left + right) / 2), x, left, right, hyp)
        if part.value == oo:
            return PieceValue(oo, sp.true, "step function, cell by cell")
        total += part.value
        conditions.append(part.condition)
    return PieceValue(total, sp.And(*conditions), "step function, cell by cell")


def _lattice(L, x, lo, hi, hyp, steps, lines) -> PieceValue:
    """An infinite piece: the partial cell at the finite end, then Σ_n over the full cells of one lattice."""
    (a, b), *others = lines
    if any(c != a or not (d - b).is_integer for c, d in others):
        raise NoClosedFormError("step functions on an infinite piece with different lattices")
    # t = a·x + b runs over (t_lo, t_hi); the cells are [n, n + 1).
    def t_at(e):
        return a * e + b if e.is_finite else (oo if (e == oo) == (a > 0) else -oo)

    t_lo, t_hi = sorted((t_at(lo), t_at(hi)), key=lambda v: -1 if v == -oo else (1 if v == oo else 0))
    n = sp.Dummy("n", integer=True)
    total, conditions = sp.S.Zero, []
    # The partial cell at the finite end, where t is not yet at an integer.
    if t_lo.is_finite:
        first = sp.ceiling(t_lo)
        edge = (t_lo, first)
        full = (first, oo)
    else:
        last = sp.floor(t_hi)
        edge = (last, t_hi)
        full = (-oo, last - 1)
    if edge[0] != edge[1]:
        x_ends = sorted(((edge[0] - b) / a, (edge[1] - b) / a), key=lambda v: float(v))
        part = integrate_exp(_resolved(L, steps, x, (x_ends[0] + x_ends[1]) / 2), x, *x_ends, hyp)
        if part.value == oo:
            return PieceValue(oo, sp.true, "step function, cell by cell")
        total += part.value
        conditions.append(part.condition)
    # Cell n: t ∈ [n, n + 1), where ⌊t + k⌋ = n + k and ⌈t + k⌉ = n + k + 1 (t not an integer: measure zero).
    values = {}
    for f in steps:
        k = f.args[0] - (a * x + b)
        values[f] = n + k if isinstance(f, sp.floor) else n + k + 1
    in_cell = sp.expand(L.xreplace(values))
    x_cell = ((n - b) / a, (n + 1 - b) / a) if a > 0 else ((n + 1 - b) / a, (n - b) / a)
    cell = integrate_exp(in_cell, x, x_cell[0], x_cell[1], hyp.without_fallback())
    if cell.value == oo:
        return PieceValue(oo, sp.true, "step function, cell by cell")
    try:
        summand = log_of(sp.factor(cell.value), n, full[0] if full[0] != -oo else full[1])
    except NoClosedFormError:
        raise NoClosedFormError(f"the cells of a step function sum {cell.value}, which no rule reads") from None
    series = sum_exp(sp.expand(summand), n, full[0], full[1], hyp)
    if series.value == oo:
        return PieceValue(oo, sp.true, "step function, cell by cell")
    total += series.value
    conditions += [cell.condition, series.condition]
    return PieceValue(total, sp.And(*conditions), "step function, cell by cell")


__all__ = ["MAX_JUMPS", "integrate_exp_steps"]
