"""Mironov 2017, Proposition 3: (α, ε)-RDP ⇒ (ε + log(1/δ)/(α − 1), δ)-DP for every 0 < δ < 1.

Seed 002 l.272–278 (with the stronger form P(S) ≤ max(e^{ε'}Q(S), δ) of l.278), seed 000
l.162–165, seed 003 l.217–218; the mis-typed version of seed 004 l.86 ("pour tout 0 < α < 1")
is its own claim below.

The DP guarantee is checked against the *exact* δ of each pair, the hockey-stick divergence
δ_{P,Q}(ε') = sup_S [P(S) − e^{ε'}Q(S)], never against another bound:

* finite pairs: δ_{P,Q}(ε') = Σ_x (P(x) − e^{ε'}Q(x))₊, in both directions (each direction
  with its own divergence), and the strong form over all 2⁵ events;
* the Gaussian mechanism N(0, σ²) vs N(1, σ²), whose RDP curve is α/(2σ²) (Prop 7), through
  the exact Balle–Wang curve δ(ε') (``rdpsym.accounting.conversions.gaussian_delta``).

The proof itself (given Prop 10, checked in its own file) is a case split that SymPy proves.
"""

import sympy as sp
from flint import arb

from rdpsym.accounting.conversions import gaussian_delta
from rdpsym.claims import AtMost, Claim, Domain, Equal, Holds, Verdict, alpha
from rdpsym.claims.finite import (
    all_events,
    ball,
    hockey_stick,
    probability,
    random_pmfs,
    renyi,
)

delta = sp.Symbol("delta", positive=True)
sigma = sp.Symbol("sigma", positive=True)
eps = sp.Symbol("epsilon", nonnegative=True)
Q = sp.Symbol("Q", positive=True)
u = sp.Symbol("u", positive=True)

ORDERS = sp.Interval.open(1, sp.oo)
UNIT = sp.Interval.open(0, 1)


def _eps_prime(r: arb, point) -> arb:
    """ε' = r + log(1/δ)/(α − 1), with α − 1 formed exactly."""
    return r + (-ball(point[delta]).log()) / (ball(point[alpha]) - 1)


def _pair_direction(flip: bool):
    def compare(point):
        p, q = point["laws"]
        if flip:
            p, q = q, p
        d = renyi(p, q, point[alpha])  # finite: the sampled laws have full support
        return hockey_stick(p, q, _eps_prime(d, point)), "<=", ball(point[delta])
    return compare


def _strong_form(point):
    """max over all events of P(S) − max(e^{ε'}Q(S), δ): the l.278 form says it is ≤ 0."""
    p, q = point["laws"]
    w = _eps_prime(renyi(p, q, point[alpha]), point).exp()
    d = ball(point[delta])
    worst = None
    for s in all_events(len(p)):
        gap = probability(p, s) - (w * probability(q, s)).max(d)
        worst = gap if worst is None else worst.max(gap)
    return worst, "<=", 0


def _gaussian(point):
    """Exact δ of the Gaussian mechanism at the converted ε' (its curve is α/(2σ²))."""
    s = ball(point[sigma])
    r = ball(point[alpha]) / (2 * s * s)
    return gaussian_delta(_eps_prime(r, point), s), "<=", ball(point[delta])


GAUSSIAN = Domain({alpha: ORDERS, sigma: sp.Interval.open(0, sp.oo), delta: UNIT}, samples=150, seed=3)

PROP3_LATEX = (r"D_\alpha(P\|Q) \le \epsilon \implies \forall S:\ P(S) \le e^{\epsilon'} Q(S) + \delta,\quad "
               r"\epsilon' = \epsilon + \frac{\log 1/\delta}{\alpha - 1},\ 0 < \delta < 1")

CLAIMS = [
    Claim(
        id="mironov-prop3",
        title="From RDP to (ε, δ)-DP",
        source="Mironov 2017, Proposition 3 (seed 002 l.272–278; seed 000 l.162–165; seed 003 l.217–218)",
        statement=r"\text{If } f \text{ is } (\alpha,\epsilon)\text{-RDP, it is } "
                  r"\left(\epsilon+\frac{\log 1/\delta}{\alpha-1},\delta\right)\text{-DP for any } 0<\delta<1",
        steps=(
            Holds("δ_{P,Q}(D_α(P‖Q) + log(1/δ)/(α−1)) ≤ δ", _pair_direction(False),
                  "Prop 3 for the pair (P, Q) with ε = D_α(P‖Q); δ_{P,Q} is the exact hockey-stick divergence",
                  latex=r"\sum_x \left(P(x) - e^{\epsilon'}Q(x)\right)_+ \le \delta"),
            Holds("δ_{Q,P}(D_α(Q‖P) + log(1/δ)/(α−1)) ≤ δ", _pair_direction(True),
                  "the same for the reversed pair (adjacency is symmetric)"),
            Holds("max_S [P(S) − max(e^{ε'}Q(S), δ)] ≤ 0 over all 2^5 events", _strong_form,
                  "the stronger form proved in the paper (l.278), on every event"),
            Holds("δ_Gauss(α/(2σ²) + log(1/δ)/(α−1); σ) ≤ δ", _gaussian,
                  "Gaussian mechanism: curve α/(2σ²) (Prop 7), exact δ(ε) of Balle–Wang 2018 Thm 8",
                  domain=GAUSSIAN),
        ),
        expected=Verdict.CHECKED,
        domain=Domain({alpha: ORDERS, delta: UNIT}, objects={"laws": random_pmfs(2)}, samples=150, seed=33),
        hypotheses=(r"\alpha > 1", r"0 < \delta < 1"),
        note="A statement about all mechanisms: checked on finite pairs (edge cases first, probabilities "
             "down to 1e-30, α from 1 + 1e-30 to 1e12, δ from 1e-30 to 1 − 1e-30) and on the Gaussian "
             "mechanism (σ from 1e-30 to 1e12), always against the exact δ of the pair.",
    ),
    Claim(
        id="mironov-prop3-proof",
        title="Prop 3's proof: the case split after Prop 10",
        source="Mironov 2017, proof of Proposition 3 (seed 002 l.276–290)",
        statement=r"P(S) \le (e^{\epsilon}Q(S))^{1-1/\alpha} \implies P(S) \le \max(e^{\epsilon'}Q(S), \delta)"
                  r" \le e^{\epsilon'}Q(S) + \delta",
        steps=(
            Equal((alpha - 1) / alpha * (eps + sp.log(Q)),
                  (alpha - 1) / alpha * (eps + sp.log(1 / delta) / (alpha - 1) + sp.log(Q)) + sp.log(delta) / alpha,
                  "log of Prop 10's bound, rewritten with ε' = ε + log(1/δ)/(α−1): "
                  "(e^ε Q)^{1−1/α} = (e^{ε'}Q)^{1−1/α} δ^{1/α}"),
            Equal((alpha - 1) / alpha * (sp.log(delta) + sp.log(u)) + sp.log(delta) / alpha,
                  sp.log(delta) + (alpha - 1) / alpha * sp.log(u),
                  "case e^{ε'}Q = δu with 0 < u ≤ 1: the bound is δ·u^{1−1/α}",
                  domain=Domain({alpha: ORDERS, delta: UNIT, u: sp.Interval.Lopen(0, 1)})),
            AtMost((alpha - 1) / alpha * sp.log(u), 0, "u ≤ 1, so the bound is at most δ",
                   domain=Domain({alpha: ORDERS, u: sp.Interval.Lopen(0, 1)})),
            AtMost((alpha - 1) / alpha * (sp.log(delta) + sp.log(u)) + sp.log(delta) / alpha,
                   sp.log(delta) + sp.log(u),
                   "case e^{ε'}Q = δu with u > 1: the bound is (δu)·u^{−1/α} ≤ e^{ε'}Q",
                   domain=Domain({alpha: ORDERS, delta: UNIT, u: sp.Interval.open(1, sp.oo)})),
        ),
        expected=Verdict.PROVED,
        domain=Domain({alpha: ORDERS, delta: UNIT, eps: sp.Interval(0, sp.oo), Q: UNIT}),
        hypotheses=(r"\alpha > 1", r"0 < \delta < 1", r"\text{Prop 10: } P(S) \le (e^{\epsilon}Q(S))^{1-1/\alpha}"),
        note="Given Prop 10 (its own claim), the two cases e^{ε'}Q(S) ≤ δ and > δ give P(S) ≤ max(e^{ε'}Q(S), δ).",
    ),
    # The seed-004 typo ('pour tout 0 < α < 1') is seeds/notes_004_conversions.py: notes-prop3-alpha-typo.
]
