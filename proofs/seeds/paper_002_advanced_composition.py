"""Seed 002 §II (and seed 004): the Dwork–Rothblum–Vadhan advanced composition theorem.

Seed file /work/shared/seeds/002_88024843eca926e6.txt, l.82 (the paper's §II,
citing [6] = DRV 2010); restated in seed 004 (004_41b8fca220304539.txt) l.17–19.
Checked against the exact optimal composition (Kairouz–Oh–Viswanath 2015).
"""

import sympy as sp

from rdpsym.claims import AtMost, Claim, Domain, Holds, Verdict
from rdpsym.claims.finite import ball

from ._seeds_util import COUNTS, POSITIVE, UNIT, composed_delta, delta, delta_p, eps


def _drv(point):
    e, d, dp, kk = ball(point[eps]), point[delta], point[delta_p], point["k"]
    e_total = (2 * kk * (1 / ball(dp)).log()).sqrt() * e + kk * e * e.expm1()
    return composed_delta(point[eps], d, kk, e_total), "<=", kk * ball(d) + ball(dp)


CLAIMS = [
    Claim(
        id="paper002-drv-advcomp",
        title="Advanced composition (DRV): ε' = √(2k ln(1/δ'))ε + kε(e^ε − 1), (ε', kδ + δ')-DP",
        source="Mironov 2017 as seeded (seed 002, 002_88024843eca926e6.txt), §II l.82; notes (seed 004, "
               "004_41b8fca220304539.txt) l.17–19",
        statement=r"\text{$k$-fold adaptive composition of an $(\epsilon,\delta)$-DP mechanism is } "
                  r"(\epsilon', k\delta+\delta')\text{-DP},\ \epsilon' \triangleq \sqrt{2k\ln(1/\delta')}\,\epsilon"
                  r" + k\epsilon(e^{\epsilon}-1)",
        steps=(
            AtMost(eps * sp.tanh(eps / 2), eps * (sp.exp(eps) - 1),
                   "KOV Thm 3.5's second term kε·tanh(ε/2) ≤ kε(e^ε − 1): why the DRV form is valid",
                   domain=Domain({eps: POSITIVE}, samples=30)),
            Holds("1 − (1−δ)^k (1 − δ_k(ε')) ≤ kδ + δ'", _drv,
                  "exact k-fold adaptive composition of (ε,δ)-DP (Kairouz–Oh–Viswanath 2015, Thm 3.3)"),
            Holds("δ_k(ε') ≤ δ' for pure ε-DP mechanisms (δ = 0), ε ≤ 4", lambda point: _drv({**point, delta: 0}),
                  "exact k-fold composition of ε-DP (KOV): the regime where the bound is not trivial",
                  domain=Domain({eps: sp.Interval.Lopen(0, 4), delta_p: UNIT}, objects={"k": COUNTS}, samples=40)),
        ),
        expected=Verdict.CHECKED,
        domain=Domain({eps: POSITIVE, delta: UNIT, delta_p: UNIT}, objects={"k": COUNTS},  # (δ = 0: the third step)
                      samples=60),
        note="True for every ε > 0 and every (ε,δ)-DP mechanism, adaptively composed: checked against the exact "
             "optimal composition, k from 1 to 1000, ε from 10⁻³⁰ to 10¹². Seed 004 writes the per-step guarantee "
             "as (ε(δ), δ)-DP, the same statement. Weaker than the ½kε² form of the lecture deck "
             "(lecture-advcomp-half) since ½ε² ≤ e^ε − 1. Numeric check of a theorem: CHECKED.",
    ),
]
