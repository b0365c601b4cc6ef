"""One piece's closed form: :class:`PieceValue`, the value with the condition under which it converges.

The result type every closed-form rule of the engine returns, for integrals
(:mod:`rdpsym.engine.integrals`, :mod:`rdpsym.engine.integral_rules`) and sums
(:mod:`rdpsym.engine.sums`) alike, and :func:`_decided`, which settles a
rule's condition under the derivation's hypotheses.  Apart, below the rules and
their dispatcher, so that both import it and neither imports the other back.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from rdpsym.engine.context import Hypotheses

oo = sp.oo


@dataclass(frozen=True)
class PieceValue:
    """One piece's integral: ``value`` when ``condition`` holds, else +∞.

    ``substitution`` is the change of variables the piece was integrated in
    (a :class:`rdpsym.engine.transform.Substitution`), or None.
    """

    value: sp.Expr
    condition: sp.Basic
    rule: str
    substitution: object = None


def _decided(value, condition, rule, hyp: Hypotheses) -> PieceValue:
    truth = hyp.holds(condition)
    if truth is True:
        return PieceValue(value, sp.true, rule)
    if truth is False:
        return PieceValue(oo, sp.true, rule)
    return PieceValue(value, condition, rule)


__all__ = ["PieceValue"]
