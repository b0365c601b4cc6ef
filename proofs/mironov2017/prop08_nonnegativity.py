"""Mironov 2017, Proposition 8: D_α(P‖Q) ≥ 0, with equality iff P = Q."""

import sympy as sp

from rdpsym.claims import Claim, Domain, Holds, Verdict, alpha
from rdpsym.claims.finite import random_pmfs, renyi


def _nonnegative(point):
    p, q = point["laws"]
    return renyi(p, q, point[alpha]), ">=", 0


def _zero_iff_equal(point):
    p, q = point["laws"]
    d = renyi(p, q, point[alpha])
    # Equality case: D = 0 exactly when P = Q; otherwise certified > 0.
    return (d, "=", 0) if p == q else (d, ">", 0)


CLAIMS = [
    Claim(
        id="mironov-prop8",
        title="Rényi divergence is nonnegative, zero only at P = Q",
        source="Mironov 2017, Proposition 8",
        statement=r"D_\alpha(P\|Q) \ge 0 \text{ for } \alpha > 1, \text{ with equality iff } P = Q",
        steps=(
            Holds("D_α(P‖Q) ≥ 0", _nonnegative,
                  "Jensen: E_Q[(P/Q)^α] ≥ (E_Q[P/Q])^α = 1 since t ↦ t^α is convex for α > 1"),
            Holds("D_α(P‖Q) = 0 iff P = Q", _zero_iff_equal,
                  "strict convexity of t ↦ t^α: equality in Jensen only for P/Q constant"),
        ),
        expected=Verdict.CHECKED,
        domain=Domain({alpha: sp.Interval.open(1, sp.oo)}, objects={"laws": random_pmfs(2)}, samples=80),
        note="A statement about all distributions: checked on finite laws (edge cases first, "
             "probabilities down to 1e-30); the Jensen argument itself is not formalised.",
    ),
]
