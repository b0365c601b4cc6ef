"""Mironov 2017, §III (and §IV's first line): ε-DP is (∞, ε)-RDP, and (∞, ε)-RDP implies (α, ε)-RDP.

On finite laws the first statement is an identity between the definition of
ε-DP (Definition 1: P(S) ≤ e^ε Q(S) for every event S) and D_∞: the smallest ε
that works for all 2^n − 1 nonempty events of a 5-outcome law is
log max_x P(x)/Q(x) (a ratio of sums is at most the largest ratio of terms,
with equality at a singleton).  It is checked in exact rational arithmetic,
and also as the equivalence itself: ε = D_∞ + δ is ε-DP exactly when δ ≥ 0.

The second is D_α ≤ D_∞ (monotonicity), checked on finite laws and proved for
the Laplace and randomized-response closed forms.
"""

import sympy as sp
from flint import arb, fmpq

from rdpsym.claims import AtMost, Claim, Domain, Equal, Holds, Verdict, alpha
from rdpsym.claims.finite import all_events, ball, mass, max_ratio, random_pmfs, renyi
from rdpsym.foundations.balls import Undecided

from ._families import ORDERS, POSITIVE, derived, lam, p

N = 5
EVENTS = all_events(N, nonempty=True)
delta = sp.Symbol("delta", real=True)
t = sp.Symbol("t", positive=True)


def _rr(e: sp.Expr) -> sp.Expr:
    """Randomized response at p = (1+t)/(2+t) ∈ (1/2, 1), with 1 − p written 1/(2+t)."""
    return e.xreplace({1 - p: 1 / (2 + t)}).xreplace({p: (1 + t) / (2 + t)})


#: E_Q[(P/Q)^α] of randomized response at p = (1+t)/(2+t), by hand: p^α(1−p)^{1−α} + (1−p)^α p^{1−α}.
RR_MOMENT = ((1 + t) ** alpha + (1 + t) ** (1 - alpha)) / (2 + t)


def _max_event_ratio(P, Q) -> fmpq:
    return max(mass(P, S) / mass(Q, S) for S in EVENTS)


def _sup_over_events(point):
    P, Q = point["laws"]
    # Both sides are exact rationals: sup_S P(S)/Q(S) and max_x P(x)/Q(x) = e^{D_∞}.
    return arb(_max_event_ratio(P, Q)), "=", arb(max_ratio(P, Q))


def _sup_matches_renyi(point):
    P, Q = point["laws"]
    return arb(_max_event_ratio(P, Q)).log(), "=", renyi(P, Q, sp.oo)


def _dp_iff(point):
    """[every S: P(S) ≤ e^ε Q(S)] == [D_∞ ≤ ε] for ε = D_∞ + δ."""
    P, Q = point["laws"]
    d = ball(point[delta])
    top = max_ratio(P, Q)  # e^{D_∞}, an exact rational (the sampled laws have full support)
    dp = True
    for S in EVENTS:
        ps, qs = mass(P, S), mass(Q, S)
        if point[delta] == 0:  # e^ε = e^{D_∞} exactly: compare rationals (tight at the argmax singleton)
            dp = dp and ps <= top * qs
            continue
        diff = arb(top * qs) * d.exp() - arb(ps)  # e^ε Q(S) − P(S) with e^ε = e^{D_∞}·e^δ
        if diff < 0:
            dp = False
        elif not diff >= 0:
            raise Undecided(f"P(S) ≤ e^ε Q(S) not decided at this precision for S = {sorted(S)}")
    rdp_inf = bool(point[delta] >= 0)  # D_∞ ≤ D_∞ + δ
    return int(dp), "=", int(rdp_inf)


def _below_infinity(point):
    P, Q = point["laws"]
    return renyi(P, Q, point[alpha]), "<=", renyi(P, Q, sp.oo)


LAWS = {"laws": random_pmfs(2, n=N)}

CLAIMS = [
    Claim(
        id="mironov-sec3-dp-is-inf-rdp",
        title="ε-DP is (∞, ε)-RDP: the best ε over all events is D_∞",
        source="Mironov 2017, §III",
        statement=r"f \text{ is } \epsilon\text{-DP} \iff D_\infty(f(D)\|f(D')) \le \epsilon:\quad "
                  r"\sup_{S}\log\frac{\Pr[P\in S]}{\Pr[Q\in S]} = D_\infty(P\|Q) = \max_x \log\frac{P(x)}{Q(x)}",
        steps=(
            Holds("max_S P(S)/Q(S) = max_x P(x)/Q(x)", _sup_over_events,
                  "mediant inequality: a ratio of sums is at most the largest ratio, attained at a singleton; "
                  "all 31 events enumerated, exact rationals"),
            Holds("log max_S P(S)/Q(S) = D_∞(P‖Q) (renyi at order ∞)", _sup_matches_renyi,
                  "the same number computed by the sampler's D_∞"),
            Holds("[∀S: P(S) ≤ e^{D_∞+δ} Q(S)] ⇔ [δ ≥ 0]", _dp_iff,
                  "ε-DP holds exactly for ε ≥ D_∞ (tight at the argmax singleton)"),
        ),
        expected=Verdict.CHECKED,
        domain=Domain({delta: sp.Interval(-1, 1)}, objects=LAWS, samples=80),
        note="Checked on 5-outcome laws over every event; the general (measurable) case is not formalised.",
    ),
    Claim(
        id="mironov-sec3-inf-rdp-implies-rdp",
        title="(∞, ε)-RDP implies (α, ε)-RDP: D_α ≤ D_∞",
        source="Mironov 2017, §III and §IV",
        statement=r"D_\infty(f(D)\|f(D')) \le \epsilon \implies D_\alpha(f(D)\|f(D')) \le \epsilon \text{ for all finite } \alpha",
        steps=(Holds("D_α(P‖Q) ≤ D_∞(P‖Q)", _below_infinity,
                     "E_P[(P/Q)^{α−1}] ≤ (max P/Q)^{α−1} (monotonicity, Proposition 9)"),),
        expected=Verdict.CHECKED,
        domain=Domain({alpha: ORDERS}, objects=LAWS, samples=100),
        note="A statement about all distributions: checked on finite laws (edge cases first).",
    ),
    Claim(
        id="mironov-sec3-inf-rdp-implies-rdp-laplace",
        title="Laplace: D_α ≤ D_∞ = 1/λ",
        source="Mironov 2017, §III and §IV",
        statement=r"D_\alpha(\Lambda(0,\lambda)\|\Lambda(1,\lambda)) \le D_\infty(\Lambda(0,\lambda)\|\Lambda(1,\lambda)) = 1/\lambda",
        steps=(AtMost(lambda: sp.exp((alpha - 1) * derived("laplace")),
                      lambda: sp.exp((alpha - 1) * derived("laplace", sp.oo)),
                      "D_α ≤ D_∞ ⇔ e^{(α−1)D_α} ≤ e^{(α−1)D_∞} (α > 1); both derived by the core"),),
        expected=Verdict.PROVED,
        domain=Domain({alpha: ORDERS, lam: POSITIVE}, samples=80),
    ),
    Claim(
        id="mironov-sec3-inf-rdp-implies-rdp-rr",
        title="Randomized response: D_α ≤ D_∞ = |log(p/(1−p))|",
        source="Mironov 2017, §III and §IV",
        statement=r"D_\alpha(\mathrm{RR}_p) \le D_\infty(\mathrm{RR}_p) = \left|\log\frac{p}{1-p}\right|",
        steps=(
            Equal(lambda: _rr(sp.exp((alpha - 1) * derived("randomized-response"))), RR_MOMENT,
                  "e^{(α−1)D_α} of the derived Prop 5 form at p = (1+t)/(2+t), simplified"),
            Equal(lambda: _rr(sp.exp((alpha - 1) * derived("randomized-response", sp.oo))), (1 + t) ** (alpha - 1),
                  "e^{(α−1)D_∞} of the derived D_∞ = |log(p/(1−p))| = log(1+t)"),
            AtMost(RR_MOMENT, (1 + t) ** (alpha - 1),
                   "D_α ≤ D_∞ ⇔ e^{(α−1)D_α} ≤ e^{(α−1)D_∞} (α > 1): here (1+t)^{α−1} − (1+t)^{1−α} ≥ 0 over 2+t"),
        ),
        expected=Verdict.PROVED,
        domain=Domain({alpha: ORDERS, t: POSITIVE}, samples=80),
        hypotheses=(r"p \in (1/2, 1)",),
        note="p > 1/2 only: for p < 1/2 both sides are unchanged by relabelling the outcomes (p ↔ 1−p), "
             "and p = 1/2 gives 0 ≤ 0.",
    ),
]
