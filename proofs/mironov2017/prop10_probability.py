"""Mironov 2017, Proposition 10 (probability preservation): P(A) ≤ (e^{D_α(P‖Q)}·Q(A))^{(α−1)/α}.

Checked on finite laws over events (edge cases: singletons of probability
1e-30, the whole space), and on the three built-ins with their worst-case
events: half-lines for the Gaussian and Laplace pairs (likelihood-ratio sets,
both orientations), the two outcomes of randomized response.  The divergences
of the built-ins are the core's derived closed forms.
"""

import sympy as sp
from flint import arb, fmpq

from rdpsym.claims import Claim, Domain, Holds, Verdict, alpha
from rdpsym.claims.finite import ball, probability, random_event, random_pmfs, renyi
from rdpsym.foundations.balls import to_arb

from ._arbtools import probability_slack, upper_tail
from ._families import ORDERS, POSITIVE, derived, lam, p, sigma

t = sp.Symbol("t", real=True)
STATEMENT = r"P(A) \le \left(\exp[D_\alpha(P\|Q)]\cdot Q(A)\right)^{(\alpha-1)/\alpha}"


def _bound(d, qa, a):
    return ((a - 1) / a * (d + qa.log())).exp()


def _finite(point):
    P, Q = point["laws"]
    S = point["S"]
    a = ball(point[alpha])
    ps = probability(P, S)
    bound = _bound(renyi(P, Q, point[alpha]), probability(Q, S), a)
    if bound.overlaps(ps) and not (bound - ps >= 0):
        # Tight to e^{−α·gap} at large α (S the argmax singleton): compare the slack, computed
        # without cancellation (_arbtools.probability_slack).
        slack, total, bound_log = probability_slack(P, Q, S, a, ps)
        if not total.overlaps(bound_log):
            return total, "=", bound_log  # the pieces do not add up: reported, never passed
        return arb(0), "<=", slack
    return ps, "<=", bound


def _gaussian(side):
    def compare(point):
        a, s, thr = ball(point[alpha]), ball(point[sigma]), ball(point[t])
        d = to_arb(derived("gaussian"), {alpha: a, sigma: s})
        # A = (t, ∞) or (−∞, t);  P = N(0, σ²), Q = N(1, σ²).
        pa = upper_tail(side * thr / s)
        qa = upper_tail(side * (thr - 1) / s)
        return pa, "<=", _bound(d, qa, a)
    return compare


def _laplace_upper(x, scale):
    """Pr[Λ(0, λ) > x]."""
    return (-x / scale).exp() / 2 if x >= 0 else 1 - (x / scale).exp() / 2


def _laplace(side):
    def compare(point):
        a, b, thr = ball(point[alpha]), ball(point[lam]), ball(point[t])
        d = to_arb(derived("laplace"), {alpha: a, lam: b})
        if side > 0:  # A = (t, ∞)
            pa, qa = _laplace_upper(thr, b), _laplace_upper(thr - 1, b)
        else:         # A = (−∞, t): Pr[Λ(μ, λ) < t] = Pr[Λ(0, λ) > μ − t]
            pa, qa = _laplace_upper(-thr, b), _laplace_upper(1 - thr, b)
        return pa, "<=", _bound(d, qa, a)
    return compare


def _rr(outcome):
    def compare(point):
        a, q = ball(point[alpha]), ball(point[p])
        d = to_arb(derived("randomized-response"), {alpha: a, p: q})
        P, Q = (q, 1 - q), (1 - q, q)
        bound = _bound(d, Q[outcome], a)
        if bound.overlaps(P[outcome]) and not (bound - P[outcome] >= 0):
            # A = the likelier outcome at large α: tight to ((1−p)/p)^{2α−1}, below any precision.
            # The slack is computed without cancellation on the exact laws, and its decomposition
            # must reproduce the bound from the derived closed form.
            pr = fmpq(int(point[p].p), int(point[p].q))
            laws = ((pr, 1 - pr), (1 - pr, pr))
            slack, total, bound_log = probability_slack(*laws, {outcome}, a, P[outcome])
            if not (total.overlaps(bound_log) and bound_log.overlaps(bound.log())):
                return total, "=", bound.log()  # the pieces do not add up: reported, never passed
            return arb(0), "<=", slack
        return P[outcome], "<=", bound
    return compare


CLAIMS = [
    Claim(
        id="mironov-prop10-finite",
        title="Probability preservation on finite laws and events",
        source="Mironov 2017, Proposition 10",
        statement=STATEMENT,
        steps=(Holds("P(A) ≤ (e^{D_α(P‖Q)} Q(A))^{(α−1)/α}", _finite,
                     "Hölder: P(A) = E_Q[1_A·P/Q] ≤ E_Q[(P/Q)^α]^{1/α}·Q(A)^{1−1/α}"),),
        expected=Verdict.CHECKED,
        domain=Domain({alpha: ORDERS}, objects={"laws": random_pmfs(2), "S": random_event()}, samples=120),
        note="A statement about all distributions and events: checked on 5-outcome laws (probabilities down "
             "to 1e-30) over sampled events.",
    ),
    Claim(
        id="mironov-prop10-mechanisms",
        title="Probability preservation for the built-ins' worst-case events",
        source="Mironov 2017, Proposition 10 with Propositions 5–7",
        statement=STATEMENT + r",\ (P,Q) \in \{(\mathcal N(0,\sigma^2),\mathcal N(1,\sigma^2)), "
                              r"(\Lambda(0,\lambda),\Lambda(1,\lambda)), ((p,1-p),(1-p,p))\}",
        steps=(
            Holds("Gaussian, A = (t, ∞)", _gaussian(1), "half-lines are the likelihood-ratio sets"),
            Holds("Gaussian, A = (−∞, t)", _gaussian(-1), "the other orientation"),
            Holds("Laplace, A = (t, ∞)", _laplace(1), "half-lines are the likelihood-ratio sets"),
            Holds("Laplace, A = (−∞, t)", _laplace(-1), "the other orientation"),
            Holds("RR, A = {1}", _rr(0), "the two outcomes of randomized response",
                  domain=Domain({alpha: ORDERS, p: sp.Interval.open(0, 1)}, samples=60)),
            Holds("RR, A = {0}", _rr(1), "the two outcomes of randomized response",
                  domain=Domain({alpha: ORDERS, p: sp.Interval.open(0, 1)}, samples=60)),
        ),
        expected=Verdict.CHECKED,
        domain=Domain({alpha: ORDERS, sigma: POSITIVE, lam: POSITIVE, t: sp.Interval(-sp.oo, sp.oo)}, samples=120),
        note="Checked at sampled parameters, thresholds and orders (tails by erfc or Mills-ratio bounds, "
             "Laplace tails in closed form).",
    ),
]
