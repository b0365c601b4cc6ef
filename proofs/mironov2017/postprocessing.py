"""Mironov 2017, §III "Post-processing" and Table I: D_α(g(P)‖g(Q)) ≤ D_α(P‖Q).

"Consider a randomized mapping g: R → R'. We observe that D_α(P‖Q) ≥
D_α(g(P)‖g(Q)) by the analogue of the data processing inequality."  Checked
on finite laws pushed through random channels (row-stochastic matrices, exact
rationals) and deterministic merges of outcomes, at orders α > 1, α = 1 and
α = ∞; and on a concrete post-processing of the Gaussian mechanism:
thresholding, g(x) = 1{x > t}, whose Bernoulli outputs must stay within the
Gaussian curve α/(2σ²) (Φ through Arb's erfc).
"""

import sympy as sp
from flint import arb

from rdpsym.claims import Claim, Domain, Holds, Verdict, alpha
from rdpsym.claims.finite import (
    ball,
    mass,
    max_ratio,
    push_forward,
    random_channel,
    random_pmfs,
    renyi,
)

from ._arbtools import renyi_balls, threshold_law
from ._families import ORDERS, POSITIVE, sigma

t = sp.Symbol("t", real=True)


def _processed(order):
    def compare(point):
        P, Q = point["laws"]
        g = point["channel"]
        gP, gQ = push_forward(P, g), push_forward(Q, g)
        if order == sp.oo:
            # D_∞ ≤ D_∞ ⇔ max gP/gQ ≤ max P/Q: compared as exact rationals (equal when the argmax outcome
            # is not merged with another, which deterministic merges often do).
            return 0, "<=", arb(max_ratio(P, Q) - max_ratio(gP, gQ))
        a = point[alpha] if order is None else order
        lhs, rhs = renyi(gP, gQ, a), renyi(P, Q, a)
        if order is None and lhs.overlaps(rhs) and not (rhs - lhs >= 0) and _deterministic(g):
            return _merge_gap(P, Q, g, a, lhs, rhs)
        return lhs, "<=", rhs
    return compare


def _deterministic(g) -> bool:
    return all(sum(1 for v in row if v != 0) == 1 for row in g)


def _merge_gap(P, Q, g, order, lhs, rhs):
    """D_α(P‖Q) − D_α(gP‖gQ) for a merge of outcomes, when it is below the working precision.

    At large α both sums Σ P^α Q^{1−α} are dominated by the outcome with the
    largest P/Q; when a merge leaves that outcome alone the two divergences differ
    by e^{−(α−1)·gap}-small amounts.  The gap is then computed without
    cancellation, group by group:  M(P‖Q) − M(gP‖gQ) = Σ_groups [Σ_{x∈G} P^α Q^{1−α}
    − (Σ_G P)^α (Σ_G Q)^{1−α}], each bracket ≥ 0 (Jensen), 0 exactly for a group of
    one outcome, and D_α(P‖Q) − D_α(gP‖gQ) = log1p(that/M(gP‖gQ))/(α−1).
    """
    a = ball(order)

    def term(x, y):
        return (a * arb(x).log() + (1 - a) * arb(y).log()).exp()

    groups = {}
    for k, row in enumerate(g):
        groups.setdefault(next(j for j, v in enumerate(row) if v != 0), []).append(k)
    merged, excess = arb(0), arb(0)
    for members in groups.values():
        ps, qs = mass(P, members), mass(Q, members)
        merged += term(ps, qs)
        if len(members) > 1:
            excess += sum((term(P[k], Q[k]) for k in members), arb(0)) - term(ps, qs)
    gap = (excess / merged).log1p() / (a - 1)
    if not (lhs + gap).overlaps(rhs) or not (merged.log() / (a - 1)).overlaps(lhs):
        return lhs + gap, "=", rhs  # the decomposition does not reproduce renyi(): reported, never passed
    return arb(0), "<=", gap


def _threshold(direction):
    def compare(point):
        a, s, thr = ball(point[alpha]), ball(point[sigma]), ball(point[t])
        P, Q = threshold_law(arb0, thr, s), threshold_law(arb1, thr, s)  # f(D) = 0, f(D') = 1
        if direction < 0:
            P, Q = Q, P
        return renyi_balls(P, Q, a), "<=", a / (2 * s**2)
    return compare


arb0, arb1 = ball(0), ball(1)

CHANNELS = {"laws": random_pmfs(2), "channel": random_channel}
STATEMENT = r"D_\alpha(P\|Q) \ge D_\alpha(g(P)\|g(Q)) \text{ for any randomized } g\colon\mathcal R\to\mathcal R'"

CLAIMS = [
    Claim(
        id="mironov-postprocessing",
        title="Post-processing: randomized maps and merges do not increase D_α",
        source="Mironov 2017, §III (Post-processing) and Table I",
        statement=STATEMENT,
        steps=(
            Holds("D_α(gP‖gQ) ≤ D_α(P‖Q), α > 1", _processed(None),
                  "data-processing inequality (van Erven–Harremoës Thm 9): Jensen on each output's preimage"),
            Holds("KL(gP‖gQ) ≤ KL(P‖Q)", _processed(1), "the same at the endpoint α = 1"),
            Holds("D_∞(gP‖gQ) ≤ D_∞(P‖Q)", _processed(sp.oo),
                  "a ratio of sums is at most the largest ratio (α = ∞)"),
        ),
        expected=Verdict.CHECKED,
        domain=Domain({alpha: ORDERS}, objects=CHANNELS, samples=120),
        note="A statement about all maps and laws: checked on 5-outcome laws through 5→3 channels (every third "
             "a deterministic merge of outcomes, the others random), in exact rationals.",
    ),
    Claim(
        id="mironov-postprocessing-threshold-gaussian",
        title="Thresholding the Gaussian mechanism stays within α/(2σ²)",
        source="Mironov 2017, §III (Post-processing) with Proposition 7",
        statement=r"D_\alpha\big(\mathbf 1\{N(0,\sigma^2) > t\}\,\big\|\,\mathbf 1\{1 + N(0,\sigma^2) > t\}\big)"
                  r" \le D_\alpha(N(0,\sigma^2)\|N(1,\sigma^2)) = \frac{\alpha}{2\sigma^2}",
        steps=(
            Holds("D_α(Bern(Φ(−t/σ))‖Bern(Φ((1−t)/σ))) ≤ α/(2σ²)", _threshold(1),
                  "post-processing of the Gaussian pair by g(x) = 1{x > t}"),
            Holds("D_α(Bern(Φ((1−t)/σ))‖Bern(Φ(−t/σ))) ≤ α/(2σ²)", _threshold(-1),
                  "the same for the reversed pair (adjacency is symmetric)"),
        ),
        expected=Verdict.CHECKED,
        domain=Domain({alpha: ORDERS, sigma: POSITIVE, t: sp.Interval(-sp.oo, sp.oo)}, samples=120),
        note="Checked at sampled (α, σ, t) including σ = 1e-30 and |t| = 1e12 (tails like e^{-10^{84}}, kept "
             "by computing each tail with erfc); the threshold map is one post-processing, not all of them.",
    ),
]
