"""The lines a univariate derivation is written in: D_order(P‖Q) = … because a rule.

Every derivation of :mod:`rdpsym.derive.univariate` opens with the same three
lines (the two densities or finite laws, then Definition 3 at the order: the
moment's logarithm, the KL's expectation or D_∞'s supremum; Mironov 2017,
Definition 3) and writes the moment piece by piece, each piece by its engine
rule.  These builders are shared by the routes for finite orders
(:mod:`rdpsym.derive.finite_order`), for the limits α → 1 and α → ∞
(:mod:`rdpsym.derive.limit_orders`) and by the joining of cases, so they sit
below all of them: they build records, they derive nothing.
"""

from __future__ import annotations

import sympy as sp

from rdpsym.derive.moments import Moment
from rdpsym.engine.tidy import collect_exp
from rdpsym.foundations.notation import (
    DensityAt,
    KLExpectation,
    OutcomeTable,
    PieceSum,
    RenyiDivergence,
    RenyiMoment,
    SupLogRatio,
    omega,
)
from rdpsym.foundations.notation import P as P_
from rdpsym.foundations.notation import Q as Q_
from rdpsym.foundations.record import (
    ChangeOfVariables,
    Definition,
    Given,
    PieceRule,
    SplitAtKinks,
    Status,
    Step,
    SumOfPieces,
)
from rdpsym.laws.densities import Density, Discrete

oo = sp.oo


#: The steps every derivation starts with: the two densities and Definition 3.
_OPENING_STEPS = 3


def _divergence(order: sp.Expr) -> RenyiDivergence:
    """D_order(P‖Q), the left side of the derivation's main chain."""
    return RenyiDivergence(P_, Q_, order)


def _equals(order: sp.Expr, rhs: object, rule, status: Status | None = None) -> Step:
    """``D_order(P‖Q) = rhs`` because ``rule``."""
    return Step(_divergence(order), "=", rhs, rule, status)


def _density_steps(P: Density, Q: Density, tables) -> list[Step]:
    """The two densities (or finite laws), as the derivation's first lines."""
    if tables is not None:
        rule = Given("laws")
        return [Step(P_, "=", OutcomeTable(tables[0]), rule), Step(Q_, "=", OutcomeTable(tables[1]), rule)]
    x = P.var
    supports = (P.support,) if P.support == Q.support else (P.support, Q.support)
    rule = Given("densities", supports)
    return [Step(DensityAt(P_, x), "=", P.expr, rule), Step(DensityAt(Q_, x), "=", Q.expr, rule)]


def _definition_step(P: Density, order: sp.Expr, tables) -> Step:
    """Definition 3 at this order: the moment's logarithm, the KL's expectation or D_∞'s supremum."""
    x = omega if tables is not None or P.var is None else P.var
    if order is oo:
        return _equals(order, SupLogRatio(P_, Q_, x), Definition(limit=oo))
    if order == 1:
        return _equals(order, KLExpectation(P_, Q_, x), Definition(limit=sp.S.One))
    integral = RenyiMoment(P_, Q_, order, x, discrete=isinstance(P, Discrete))
    return _equals(order, _log_over(integral, order), Definition())


def _log_over(moment: sp.Expr, order: sp.Expr) -> sp.Expr:
    """log(moment)/(order − 1), unevaluated, as Definition 3 prints it (no factor at order 2)."""
    log = sp.log(moment, evaluate=False)
    if order == 2:
        return log
    return sp.Mul(1 / (order - 1), log, evaluate=False)


def _whole_support(pieces) -> list:
    """The change of variables of the one piece with P > 0, when it is the whole common support (else none)."""
    live = [(substitution, pair) for pair, substitution in pieces if pair.p != 0]
    if len(live) != 1 or live[0][0] is None:
        return []
    return [live[0][0]]


def _moment_steps(P: Density, M: Moment, order) -> list[Step]:
    """The moment split into pieces, each piece by its engine rule, and the pieces summed."""
    if not M.pieces:
        return []
    x = P.var
    discrete = isinstance(P, Discrete)
    make = (lambda L, lo, hi: sp.Sum(sp.exp(L), (x, lo, hi))) if discrete else (
        lambda L, lo, hi: sp.Integral(sp.exp(L), (x, lo, hi)))
    lhs = RenyiMoment(P_, Q_, order, x, discrete=discrete, pointwise=False)
    split = PieceSum(*[make(L, pair.lo, pair.hi) for pair, L, _ in M.pieces])
    steps = [Step(lhs, "=", split, SplitAtKinks())]
    for pair, L, piece in M.pieces:
        # Grouped by exponential and with each exponent factored (the Gaussian rule's raw
        # exponent e^{α/(2σ²) + σ²(…)²/2 − …} becomes e^{α(α−1)/(2σ²)}): an equality, for reading.
        shown = collect_exp(piece.value) if piece.value.has(sp.exp) else piece.value
        integral = make(L, pair.lo, pair.hi)
        substitution = piece.substitution
        while substitution is not None:  # the piece in t = g(x), the Jacobian included
            t = substitution.variable
            in_t = sp.Integral(sp.exp(substitution.exponent), (t, substitution.lo, substitution.hi))
            steps.append(Step(integral, "=", in_t, ChangeOfVariables(t, substitution.forward, substitution.lo,
                                                                       substitution.hi)))
            integral, substitution = in_t, substitution.then
        steps.append(Step(integral, "=", shown, PieceRule(piece.rule, piece.condition)))
    if M.value != oo:
        steps.append(Step(lhs, "=", collect_exp(M.value), SumOfPieces()))
    return steps
