"""Lecture deck (seed 001): privacy loss, the two DP definitions, Rényi divergence, sensitivity.

Seed file /work/shared/seeds/001_d49504efe0d286ae.txt: "Privacy loss as a random
variable" (l.70–89), "Strict differential privacy" (l.91–97), "Sensitivity" and
"Privacy vs utility" (l.149–204), "δ-approximate differential privacy"
(l.240–246), "Rényi divergence" (l.292–302).
"""

import random

import sympy as sp
from flint import arb, fmpq

from rdpsym.accounting.conversions import gaussian_delta
from rdpsym.claims import Claim, Domain, Equal, Holds, Verdict, alpha
from rdpsym.claims.finite import (
    all_events,
    ball,
    mass,
    max_ratio,
    random_pmfs,
    rational,
    renyi,
)
from rdpsym.foundations.balls import precision

from ._seeds_util import (
    ORDERS,
    POSITIVE,
    UNIT,
    cases,
    eps,
    exact,
    gaussian_loss_tail,
    normal_sf,
    sigma,
)

DECK = "Lecture deck (seed 001, 001_d49504efe0d286ae.txt)"

# symbols for the two-point and Bayes identities
a, b, c, d = sp.symbols("a b c d", positive=True)     # P = (a, c), P' = (b, d), unnormalised is fine
pi = sp.Symbol("pi", positive=True)
h = sp.Symbol("h", positive=True)
g = sp.Symbol("g", positive=True)
em = sp.Symbol("e^epsilon", positive=True)           # the factor e^ε, rational in the checks


# ----------------------------------------------------------------------------- ε-DP as a loss bound

def _loss_vs_sets(point):
    # min{c : P(S) ≤ c·Q(S) for all S} = max_S P(S)/Q(S) equals max_x P(x)/Q(x) = e^{sup λ} (exact rationals):
    # "λ ≤ ε with probability 1" ⟺ "P(S) ≤ e^ε Q(S) for every S".
    P, Q = point["laws"]
    best = max(mass(P, S) / mass(Q, S) for S in all_events(len(P), nonempty=True))
    return exact(best, "=", max_ratio(P, Q))


# ----------------------------------------------------------------------------- (ε,δ)-DP: the deck's definition

def _hockey_below_tail(point):
    # sup_S P(S) − e^ε Q(S) = Σ (P − e^ε Q)₊ ≤ Σ_{P > e^ε Q} P = Pr_P[λ > ε]   (exact, e^ε rational)
    P, Q = point["laws"]
    f = rational(point[em])
    hs = sum((max(x - f * y, fmpq(0)) for x, y in zip(P, Q)), fmpq(0))
    tail = sum((x for x, y in zip(P, Q) if x > f * y), fmpq(0))
    return exact(hs, "<=", tail)


def _gaussian_hockey_below_tail(point):
    return (gaussian_delta(rational(point[eps]), rational(point[sigma])), "<=",
            gaussian_loss_tail(point[eps], point[sigma], 1))


def _separable(point) -> bool:
    """Pr[λ > ε] − δ_BW(ε) = e^ε Φ̄(εσ + 1/(2σ)) exactly (Δ = 1): positive, but below 2⁻⁹⁰⁰ of the sides
    where both are 1 − (something tiny) (σ → 0), and there 1024-bit balls of the two sides cannot be told apart.  Those
    points are left out; the relation (and its strictness) holds at them by this formula."""
    with precision(128):
        e, s = ball(point[eps]), ball(point[sigma])
        gap = e.exp() * normal_sf(e * s + 1 / (2 * s))
        return bool(gap > arb(2) ** -900 * normal_sf(e * s - 1 / (2 * s)))


def _gaussian_converse(point):
    # the standard definition's δ = δ_BW(ε) does not give Pr[λ > ε] ≤ δ
    e, s = point[eps], point[sigma]
    return gaussian_loss_tail(e, s, 1), "<=", gaussian_delta(rational(e), rational(s))


def _gaussian_converse_case(point):
    return _gaussian_converse({eps: point["example"]["epsilon"], sigma: point["example"]["sigma"]})


# ----------------------------------------------------------------------------- Rényi divergence formula

def _two_point(pr, qr):
    return (rational(pr), 1 - rational(pr)), (rational(qr), 1 - rational(qr))


def _printed_first_line(P, Q, order):
    # (α−1)⁻¹ log ∫ (P/P') dP = (α−1)⁻¹ log Σ P²/P'
    s = sum((arb(x * x / y) for x, y in zip(P, Q)), arb(0))
    return s.log() / (ball(order) - 1)


def _formula_case(point):
    c_ = point["example"]
    P, Q = _two_point(c_["P(1)"], c_["P'(1)"])
    return _printed_first_line(P, Q, c_["alpha"]), "=", renyi(P, Q, c_["alpha"])


_printed = 1 / (alpha - 1) * sp.log(a * (a / b) + c * (c / d))
_true = 1 / (alpha - 1) * sp.log(a**alpha * b ** (1 - alpha) + c**alpha * d ** (1 - alpha))
_corrected = 1 / (alpha - 1) * sp.log(a * (a / b) ** (alpha - 1) + c * (c / d) ** (alpha - 1))
_second_line = 1 / (alpha - 1) * sp.log(a * sp.exp((alpha - 1) * sp.log(a / b)) + c * sp.exp((alpha - 1) * sp.log(c / d)))

TWO_POINT = Domain({alpha: ORDERS, a: UNIT, b: UNIT}, where=None, samples=40)


def _normalised(expr):
    return expr.subs({c: 1 - a, d: 1 - b})


# ----------------------------------------------------------------------------- facts

def _kl_bracket(point):
    # D_{1−h} ≤ KL ≤ D_{1+h}: KL is the limit of D_α from both sides (monotonicity), h ∈ (0, 1)
    P, Q = point["laws"]
    hh = point[h]
    lo, kl, hi = renyi(P, Q, 1 - hh), renyi(P, Q, 1), renyi(P, Q, 1 + hh)
    worst = (kl - lo) if (kl - lo).mid() < (hi - kl).mid() else (hi - kl)
    return worst, ">=", 0


def _monotone(point):
    P, Q = point["laws"]
    return renyi(P, Q, point[alpha]), "<=", renyi(P, Q, point[alpha] + point[g])


# ----------------------------------------------------------------------------- sensitivity

def _databases(rng: random.Random, i: int):
    n = [1, 2, 3, 10, 50][i] if i < 5 else rng.randint(1, 50)
    amax = fmpq(rng.randint(1, 2**20), 2**10)
    rows = [amax * fmpq(rng.randint(0, 2**20), 2**20) for _ in range(n)]
    if i % 3 == 0:   # an extreme record: 0 replaced by a_max
        rows[0] = fmpq(0)
    return amax, tuple(rows)


def _mean_replace(point):
    # |mean(D) − mean(D')| ≤ a_max/n when one record of n changes (n known): the worst change is 0 ↔ a_max
    amax, rows = point["db"]
    n_ = len(rows)
    worst = max(abs(sum(rows, fmpq(0)) - rows[j] + v - sum(rows, fmpq(0))) / n_
                for j in range(n_) for v in (fmpq(0), amax))
    return exact(worst, "<=", amax / n_)


def _mean_add_remove(point):
    # with add/remove adjacency: |mean of n − mean of n−1| = |x_n − mean_{n−1}|/n ≤ a_max/n (n the larger size)
    amax, rows = point["db"]
    if len(rows) < 2:
        return exact(fmpq(0), "<=", amax)
    n_ = len(rows)
    full = sum(rows, fmpq(0)) / n_
    worst = max(abs(full - (sum(rows, fmpq(0)) - rows[j]) / (n_ - 1)) for j in range(n_))
    return exact(worst, "<=", amax / n_)


def _count(point):
    # a count changes by exactly 1 when a record that satisfies the predicate is added or removed
    amax, rows = point["db"]
    pred = [r > amax / 2 for r in rows]
    diffs = [abs(sum(pred) - (sum(pred) - int(x))) for x in pred] + [1]   # remove each record; add one that counts
    return exact(fmpq(max(diffs)), "=", fmpq(1))


CLAIMS = [
    Claim(
        id="lecture-dp-loss-def",
        title="Strict DP as 'Pr[λ(x‖x') ≤ ε] = 1', and λ as the gain in Bayesian log odds",
        source=DECK + ", 'Privacy loss as a random variable' l.70–89 and 'Strict differential privacy' l.91–97",
        statement=r"\epsilon\text{-DP} \iff \Pr[\lambda(x\|x') \le \epsilon] = 1,\quad "
                  r"\lambda(x\|x') = \log\frac{P(r)}{P'(r)} = \log\frac{\Pr[x\mid r]}{\Pr[x'\mid r]} - "
                  r"\log\frac{\Pr[x]}{\Pr[x']}",
        steps=(
            Holds("max_S P(S)/Q(S) = max_r P(r)/Q(r)", _loss_vs_sets,
                  "a ratio of sums is at most the largest ratio, attained by a singleton",
                  domain=Domain(objects={"laws": random_pmfs(2)}, samples=60)),
            Equal(sp.log(pi * a / ((1 - pi) * b)) - sp.log(pi / (1 - pi)), sp.log(a / b),
                  "Bayes: posterior odds = prior odds × P(r)/P'(r)",
                  domain=Domain({pi: UNIT, a: UNIT, b: UNIT}, samples=30)),
        ),
        expected=Verdict.CHECKED,
        domain=Domain(),
        note="True (densities taken P-almost surely, adjacency symmetric). The equivalence is checked in exact "
             "rationals on random finite laws over all 31 events; the Bayes identity is proved.",
    ),
    Claim(
        id="lecture-approx-dp-def",
        title="The deck's (ε, δ)-DP (Pr[λ ≤ ε] ≥ 1 − δ) implies the standard (ε, δ)-DP",
        source=DECK + ", 'δ-approximate differential privacy', l.240–246 (also seed 004 l.14)",
        statement=r"\Pr[\lambda(x\|x') \le \epsilon] \ge 1-\delta \Rightarrow "
                  r"\forall S:\ \Pr[\phi(x)\in S] \le e^\epsilon \Pr[\phi(x')\in S] + \delta",
        steps=(
            Holds("sup_S P(S) − e^ε Q(S) ≤ Pr_P[λ > ε]", _hockey_below_tail,
                  "P(S) = P(S ∩ {λ ≤ ε}) + P(S ∩ {λ > ε}) ≤ e^ε Q(S) + Pr[λ > ε]",
                  domain=Domain({em: sp.Interval(1, sp.oo)}, objects={"laws": random_pmfs(2)}, samples=60)),
            Holds("Gaussian: δ_BW(ε) ≤ Pr[λ > ε]", _gaussian_hockey_below_tail,
                  "the exact curve against the loss tail Φ̄(εσ − 1/(2σ))",
                  domain=Domain({eps: POSITIVE, sigma: POSITIVE}, samples=60, where=_separable)),
        ),
        expected=Verdict.CHECKED,
        domain=Domain(),
        note="Sufficient, checked in exact rationals on random finite laws (e^ε rational ≥ 1) and on the Gaussian "
             "mechanism. Not equivalent: see lecture-approx-dp-def-converse. Calibrations must say which "
             "definition they meet (v1 in (0,1) and v2 meet both).",
    ),
    Claim(
        id="lecture-approx-dp-def-converse",
        title="The standard (ε, δ)-DP does not give the deck's Pr[λ ≤ ε] ≥ 1 − δ (the two are not the same)",
        source=DECK + ", 'δ-approximate differential privacy', l.240–246: '(or (ε, δ)-DP)' read as a synonym",
        statement=r"\forall S:\ P(S) \le e^\epsilon P'(S) + \delta \Rightarrow \Pr[\lambda(x\|x') \le \epsilon] \ge 1-\delta",
        steps=(
            Holds("Gaussian σ = Δ = ε = 1: Pr[λ > 1] ≤ δ_BW(1)", _gaussian_converse_case,
                  "δ_BW(1) = 0.12694 while Pr[λ > 1] = Φ̄(1/2) = 0.30854",
                  domain=Domain(objects={"example": cases({"epsilon": 1, "sigma": 1})}, samples=1)),
            Holds("Gaussian: Pr[λ > ε] ≤ δ_BW(ε)", _gaussian_converse, "exact curve against the loss tail"),
        ),
        expected=Verdict.REFUTED,
        domain=Domain({eps: POSITIVE, sigma: POSITIVE}, samples=30, where=_separable),
        note="The deck calls its definition '(ε, δ)-DP', but it is strictly stronger than the standard one (seed 000 "
             "l.180, seed 003 l.60): the Gaussian mechanism with σ = Δ is (1, 0.127)-DP in the standard sense but "
             "has Pr[λ > 1] = 0.309. The forward implication is lecture-approx-dp-def.",
    ),
    Claim(
        id="lecture-renyi-formula",
        title="Rényi divergence as printed: (α−1)⁻¹ log ∫ (P/P') dP (the exponent α−1 is missing)",
        source=DECK + ", 'Rényi divergence', l.292–296 (first line)",
        statement=r"D_{\alpha}(P\|P') = \frac{1}{\alpha - 1} \log \int \left( \frac{P(r)}{P'(r)} \right) dP(r)",
        steps=(
            Holds("printed form = D_α at P = (0.8, 0.2), P' = (0.2, 0.8), α = 3", _formula_case,
                  "the survey's example: printed 0.58933, true D₃ = 1.27521",
                  domain=Domain(objects={"example": cases({"P(1)": "4/5", "P'(1)": "1/5", "alpha": 3})},
                                samples=1)),
            Equal(_normalised(_printed), _normalised(_true), "the printed first line against Def 3, two-point laws"),
        ),
        expected=Verdict.REFUTED,
        domain=TWO_POINT,
        note="MIS-STATED: the printed first line is D₂(P‖P')/(α−1), equal to D_α only at α = 2. The second line, "
             "(α−1)⁻¹ log E[e^{(α−1)λ}], is right; the corrected first line has (P/P')^{α−1} "
             "(lecture-renyi-formula-corrected).",
    ),
    Claim(
        id="lecture-renyi-formula-corrected",
        title="Rényi divergence: (α−1)⁻¹ log ∫ (P/P')^{α−1} dP = (α−1)⁻¹ log E[e^{(α−1)λ}] = Def 3",
        source=DECK + ", 'Rényi divergence', l.292–296 (second line, and the first line corrected)",
        statement=r"D_{\alpha}(P\|P') = \frac{1}{\alpha - 1} \log \int \left( \frac{P(r)}{P'(r)} \right)^{\alpha-1}"
                  r" dP(r) = \frac{1}{\alpha - 1} \log \mathbb{E}[e^{(\alpha-1)\lambda(x\|x')}]",
        steps=(
            Equal(_corrected, _true, "P·(P/P')^{α−1} = P^α P'^{1−α} (two-point laws, any positive masses)"),
            Equal(_second_line, _true, "E_P[e^{(α−1)λ}] with λ = log(P/P'): the deck's second line"),
        ),
        expected=Verdict.PROVED,
        domain=Domain({alpha: ORDERS, a: POSITIVE, b: POSITIVE, c: POSITIVE, d: POSITIVE}, samples=40),
        note="Proved on two-point laws term by term (a, b, c, d are the masses, any positive numbers); the identity is pointwise in the outcome, so it holds for any "
             "pair of laws with P ≪ P'.",
    ),
    Claim(
        id="lecture-renyi-facts",
        title="D₁ = KL = E[λ] (as the limit of D_α), and D_α is increasing in α",
        source=DECK + ", 'Rényi divergence', l.298–302",
        statement=r"D_1(P\|P') = D_{KL}(P\|P') = \mathbb E[\lambda(x\|x')];\ D_\alpha(P\|P') \text{ is increasing in } \alpha",
        steps=(
            Holds("D_{1−h} ≤ KL = E_P[λ] ≤ D_{1+h}", _kl_bracket,
                  "monotonicity in the order; KL is the two-sided limit for finite laws",
                  domain=Domain({h: UNIT}, objects={"laws": random_pmfs(2)}, samples=50)),
            Holds("D_α ≤ D_{α+g}", _monotone, "Mironov 2017, Prop 9",
                  domain=Domain({alpha: ORDERS, g: POSITIVE}, objects={"laws": random_pmfs(2)}, samples=50)),
        ),
        expected=Verdict.CHECKED,
        domain=Domain(),
        note="Checked on random finite laws (probabilities down to 10⁻³⁰). D_∞ = sup λ is checked in "
             "lecture-zcdp-pure-dp. For general laws D₁ = lim_{α→1⁺} D_α needs D_α < ∞ for some α > 1 (Mironov "
             "2017, remark after Def 3); the limit from below always holds.",
    ),
    Claim(
        id="lecture-sensitivity-examples",
        title="Sensitivities: a count has Δ₁f = 1; an average of n values in [0, a_max] has Δ₁f ≈ a_max/n",
        source=DECK + ", 'Privacy vs utility', l.184–192",
        statement=r"\Delta_1(\text{count}) = 1,\quad \Delta_1(\text{average}) \approx a_{\max}/n",
        steps=(
            Holds("a count changes by exactly 1 (add/remove one record)", _count, "one record, one unit"),
            Holds("replace-one, n known: |mean(D) − mean(D')| ≤ a_max/n", _mean_replace,
                  "one term of the sum changes by at most a_max"),
            Holds("add/remove (n the larger size): |mean_n − mean_{n−1}| ≤ a_max/n", _mean_add_remove,
                  "mean_n − mean_{n−1} = (x_n − mean_{n−1})/n"),
        ),
        expected=Verdict.CHECKED,
        domain=Domain(objects={"db": _databases}, samples=40),
        note="Exact rationals on random databases (n ≤ 50), with the extreme record 0 ↔ a_max included (equality). "
             "Under add/remove adjacency the bound a_max/n holds with n the size of the larger database, so the "
             "deck's '≈' is honest about n not being fixed.",
    ),
]
