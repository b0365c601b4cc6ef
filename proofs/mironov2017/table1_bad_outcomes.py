"""Mironov 2017, §III and Table I: the "bad outcomes" bounds and the Bayes-factor rows.

P = f(D) and Q = f(D') are finite laws; (α, ε)-RDP holds for the pair with
ε = max(D_α(P‖Q), D_α(Q‖P)) (adjacency is symmetric, and the lower bound is
Proposition 10 applied to (Q, P), so it needs the reverse direction).  Events
run over edge cases first: singletons of probability ~1e-30, the whole space.

For the Bayes-factor rows the posterior is computed by Bayes' rule from an
explicit prior π on {D, D'} (not by writing P/Q): p(D | X) ∝ p(X | D)·π(D).
With the paper's R(D, D') = p(D' | X)/p(D | X) and X ∼ f(D),

* Table I: E[(R_post/R_prior)^α] = exp((α−1)·D_α(f(D')‖f(D))) ≤ e^{(α−1)ε};
* (1): E_{f(D)}[log R_post − log R_prior] ≤ D_α(f(D)‖f(D')).  It holds, but with
  R as printed the left side is E_{f(D)}[log f(D')/f(D)] = −D_1(f(D)‖f(D')) ≤ 0;
* the parenthetical "= D_1(f(D)‖f(D'))" is off by a sign: refuted below, and
  the corrected statement (R taken as p(D | X)/p(D' | X), the odds of the true
  input) is checked beside it.
"""

import sympy as sp
from flint import arb, fmpq

from rdpsym.claims import Claim, Domain, Equal, Holds, Verdict, alpha
from rdpsym.claims.finite import probability, random_event, random_pmfs, renyi

from ._arbtools import probability_slack
from ._families import ORDERS

N = 5


def _a(point) -> arb:
    return arb(fmpq(int(point[alpha].p), int(point[alpha].q)))


def _eps(P, Q, order):
    return renyi(P, Q, order).max(renyi(Q, P, order))


def _upper(point):
    P, Q = point["laws"]
    S = point["S"]
    a = _a(point)
    eps = _eps(P, Q, point[alpha])
    ps, qs = probability(P, S), probability(Q, S)
    # (e^ε Q(S))^{(α−1)/α}, computed as exp(((α−1)/α)(ε + log Q(S))); exact 1 when ε = 0 and Q(S) = 1.
    bound = ((a - 1) / a * (eps + qs.log())).exp()
    if bound.overlaps(ps) and not (bound - ps >= 0):
        return _upper_slack(P, Q, S, a, bound, ps)
    return ps, "<=", bound


def _upper_slack(P, Q, S, a, bound, ps):
    """The upper bound when it is tight beyond the working precision: see _arbtools.probability_slack.

    ε ≥ D_α(P‖Q), so the bound at ε is at least the bound at D_α(P‖Q), whose slack over P(S)
    is computed without cancellation.
    """
    slack, total, bound_log = probability_slack(P, Q, S, a, ps)
    if not total.overlaps(bound_log):
        return total, "=", bound_log  # the pieces do not add up: reported, never passed
    return arb(0), "<=", slack


def _lower(point):
    P, Q = point["laws"]
    a = _a(point)
    eps = _eps(P, Q, point[alpha])
    return (a / (a - 1) * probability(Q, point["S"]).log() - eps).exp(), "<=", probability(P, point["S"])


# --------------------------------------------------------------------------- Bayes factor

def _prior(rng, i):
    """π(D) for the prior on {D, D'}: edge priors first (1/2, nearly 0, nearly 1), then random."""
    fixed = [fmpq(1, 2), fmpq(1, 10**30), 1 - fmpq(1, 10**30), fmpq(1, 3)]
    return fixed[i] if i < len(fixed) else fmpq(rng.randint(1, 2**20), 2**20 + 1)


def _posterior_ratio(fD, fD1, prior_D, x) -> fmpq:
    """R_post(D, D') = p(D' | X = x)/p(D | X = x), each posterior by Bayes' rule (exact rationals)."""
    prior_D1 = 1 - prior_D
    evidence = fD[x] * prior_D + fD1[x] * prior_D1
    post_D, post_D1 = fD[x] * prior_D / evidence, fD1[x] * prior_D1 / evidence
    return post_D1 / post_D


def _bayes_terms(point):
    fD, fD1 = point["laws"]  # f(D) = Q (X is drawn from it), f(D') = P
    prior = point["prior"]
    r_prior = (1 - prior) / prior
    return fD, fD1, [(fD[x], _posterior_ratio(fD, fD1, prior, x) / r_prior) for x in range(len(fD))]


def _moment(point):
    """E_Q[(R_post/R_prior)^α]; terms with R_post/R_prior = 1 are summed exactly (keeps P = Q exact)."""
    _fD, _fD1, terms = _bayes_terms(point)
    a = _a(point)
    exact, moment = fmpq(0), arb(0)
    for weight, change in terms:
        if change == 1:
            exact += weight
        else:
            moment += arb(weight) * (a * arb(change).log()).exp()
    return moment + arb(exact) if exact != 1 or moment != 0 else arb(1)


def _compare_moment(moment, divergence, a):
    # moment = exp((α−1)·D), compared where it is well conditioned: as moments for α < 2, as
    # divergences log(moment)/(α−1) for α ≥ 2 (at α = 10^12 exponentiating loses 40 bits, which is
    # exactly the slack the framework allows an "=" at any precision).
    if a < 2:
        return moment, "=", ((a - 1) * divergence).exp()
    return moment.log() / (a - 1), "=", divergence


def _bayes_moment(point):
    fD, fD1 = point["laws"]
    return _compare_moment(_moment(point), renyi(fD1, fD, point[alpha]), _a(point))


def _bayes_moment_bound(point):
    fD, fD1 = point["laws"]
    a = _a(point)
    forward, backward = renyi(fD1, fD, point[alpha]), renyi(fD, fD1, point[alpha])
    if backward > forward:  # ε = D_α(f(D)‖f(D')) > D_α(f(D')‖f(D)): strict
        return _moment(point), "<=", ((a - 1) * backward).exp()
    # ε = D_α(f(D')‖f(D)) (or the two are not separated): the bound is attained, an equality.
    return _compare_moment(_moment(point), forward, a)


def _expected_log_change(point, invert=False):
    _fD, _fD1, terms = _bayes_terms(point)
    total = arb(0)
    for weight, change in terms:
        total += arb(weight) * arb(1 / change if invert else change).log()
    return total


def _jensen_as_printed(point):
    fD, fD1 = point["laws"]
    return _expected_log_change(point), "<=", renyi(fD, fD1, point[alpha])


def _jensen_literal(point):
    # What "log of both sides and Jensen" gives from the moment identity: α·E_Q[log(P/Q)] ≤ (α−1)·D_α(P‖Q).
    fD, fD1 = point["laws"]
    a = _a(point)
    return a * _expected_log_change(point), "<=", (a - 1) * renyi(fD1, fD, point[alpha])


def _equals_kl_as_printed(point):
    fD, fD1 = point["laws"]
    return _expected_log_change(point), "=", renyi(fD, fD1, 1)


def _equals_kl_corrected(point):
    fD, fD1 = point["laws"]
    return _expected_log_change(point, invert=True), "=", renyi(fD, fD1, 1)


def _corrected_below_renyi(point):
    fD, fD1 = point["laws"]
    return _expected_log_change(point, invert=True), "<=", renyi(fD, fD1, point[alpha])


#: P(x) = p(x | D'), Q(x) = p(x | D) and the prior π(D) (π(D') = 1 − π(D)), for the symbolic Bayes step.
PX, QX, PI = sp.symbols("P_x Q_x pi_D", positive=True)


def _bayes_rule_change():
    evidence = PX * (1 - PI) + QX * PI
    post_d1, post_d = PX * (1 - PI) / evidence, QX * PI / evidence  # p(D'|x), p(D|x)
    return (post_d1 / post_d) / ((1 - PI) / PI)


_TABLE_WORDING = (r"\text{Table I, ``Change in probability of outcome } S\text{'': } "
                  r"\Pr[f(D)\in S]\le\left(e^{\epsilon}\Pr[f(D')\in S]\right)^{(\alpha-1)/\alpha},\ "
                  r"\Pr[f(D)\in S]\ge e^{-\epsilon}\Pr[f(D')\in S]^{\alpha/(\alpha-1)}")

EVENTS = {"laws": random_pmfs(2, n=N), "S": random_event(N)}
PRIORS = {"laws": random_pmfs(2, n=N), "prior": _prior}
R_DEF = (r"R(D,D') \sim \frac{p(D'|X)}{p(D|X)} = \frac{p(X|D')\,p(D')}{p(X|D)\,p(D)},\ X\sim f(D)")

CLAIMS = [
    Claim(
        id="mironov-table1-bad-outcomes-upper",
        title="Bad outcomes: probability can grow at most to (e^ε Q(S))^{(α−1)/α}",
        source="Mironov 2017, §III and Table I",
        statement=_TABLE_WORDING + r"\quad\text{(upper bound)}",
        steps=(Holds("P(S) ≤ (e^ε Q(S))^{(α−1)/α}", _upper,
                     "Proposition 10 (Hölder) with ε ≥ D_α(P‖Q)"),),
        expected=Verdict.CHECKED,
        domain=Domain({alpha: ORDERS}, objects=EVENTS, samples=120),
        hypotheses=(r"\epsilon = \max(D_\alpha(P\|Q), D_\alpha(Q\|P)),\ P = f(D),\ Q = f(D')",),
        note="A statement about all mechanisms: checked on 5-outcome laws and events (probabilities down to 1e-30).",
    ),
    Claim(
        id="mironov-table1-bad-outcomes-lower",
        title="Bad outcomes: probability can shrink at most to e^{−ε} Q(S)^{α/(α−1)}",
        source="Mironov 2017, §III and Table I",
        statement=_TABLE_WORDING + r"\quad\text{(lower bound)}",
        steps=(Holds("e^{−ε} Q(S)^{α/(α−1)} ≤ P(S)", _lower,
                     "Proposition 10 applied to (Q, P): needs ε ≥ D_α(Q‖P), i.e. the symmetric adjacency"),),
        expected=Verdict.CHECKED,
        domain=Domain({alpha: ORDERS}, objects=EVENTS, samples=120),
        hypotheses=(r"\epsilon = \max(D_\alpha(P\|Q), D_\alpha(Q\|P)),\ P = f(D),\ Q = f(D')",),
        note="Checked on finite laws and events; with only D_α(P‖Q) ≤ ε it can fail (P(S) = 0 < Q(S)).",
    ),
    Claim(
        id="mironov-table1-bayes-factor-ratio",
        title="Bayes' rule: R_post/R_prior = P(X)/Q(X), with P = f(D′) and Q = f(D)",
        source="Mironov 2017, §III (Bayes factor)",
        statement=R_DEF + r",\quad \frac{R_{\mathrm{post}}(D,D')}{R_{\mathrm{prior}}(D,D')} = \frac{P(X)}{Q(X)}",
        steps=(Equal(_bayes_rule_change, PX / QX,
                     "posteriors p(D'|x) and p(D|x) by Bayes' rule; the evidence cancels, then the prior odds"),),
        expected=Verdict.PROVED,
        domain=Domain({PX: sp.Interval.Lopen(0, 1), QX: sp.Interval.Lopen(0, 1), PI: sp.Interval.open(0, 1)},
                      samples=60),
        hypotheses=(r"P = f(D'),\ Q = f(D),\ \pi(D) = \pi_D",),
    ),
    Claim(
        id="mironov-table1-bayes-factor-moment",
        title="The α-th moment of the Bayes-factor change is exp((α−1)D_α(f(D')‖f(D)))",
        source="Mironov 2017, §III and Table I",
        statement=R_DEF + r",\quad \mathrm{E}_Q\left[\left\{\frac{R_{\mathrm{post}}(D,D')}{R_{\mathrm{prior}}(D,D')}"
                  r"\right\}^\alpha\right] = \exp[(\alpha-1)D_\alpha(f(D')\|f(D))] \le \exp[(\alpha-1)\epsilon]",
        steps=(
            Holds("E_Q[(R_post/R_prior)^α] = exp((α−1)D_α(f(D')‖f(D)))", _bayes_moment,
                  "posterior odds by Bayes' rule from the prior (exact rationals), then the moment in balls; "
                  "compared with the sampler's D_α"),
            Holds("E_Q[(R_post/R_prior)^α] ≤ exp((α−1)ε)", _bayes_moment_bound,
                  "Table I's RDP column, ε = max of both directions"),
        ),
        expected=Verdict.CHECKED,
        domain=Domain({alpha: ORDERS}, objects=PRIORS, samples=100),
        note="Checked on finite laws with edge priors (1/2, 1e-30, 1 − 1e-30); the identity is definitional "
             "once Bayes' rule is applied (previous claim, proved).",
    ),
    Claim(
        id="mironov-table1-log-bayes-factor",
        title="Change in log of the Bayes factor: E[Δ log R] ≤ D_α(f(D)‖f(D')) (as printed; holds trivially)",
        source="Mironov 2017, §III eq. (1) and Table I",
        statement=R_DEF + r",\quad \mathrm{E}_{f(D)}\left[\log R_{\mathrm{post}}(D,D') - \log R_{\mathrm{prior}}(D,D')"
                  r"\right] \le D_\alpha(f(D)\|f(D'))",
        steps=(
            Holds("E_{f(D)}[Δ log R] ≤ D_α(f(D)‖f(D'))", _jensen_as_printed,
                  "with R as printed the left side is −D_1(f(D)‖f(D')) ≤ 0 ≤ D_α"),
            Holds("α·E_{f(D)}[Δ log R] ≤ (α−1)·D_α(f(D')‖f(D))", _jensen_literal,
                  "the logarithm of the moment identity and Jensen, as the paper derives (1)"),
        ),
        expected=Verdict.CHECKED,
        domain=Domain({alpha: ORDERS}, objects=PRIORS, samples=100),
        note="True but vacuous as printed: with R = p(D'|X)/p(D|X) and X ∼ f(D) the expectation is "
             "−KL(f(D)‖f(D')) ≤ 0.  The intended reading is the corrected claim below.",
    ),
    Claim(
        id="mironov-table1-log-bayes-factor-equals-kl",
        title="As printed: E_{f(D)}[Δ log R] = D_1(f(D)‖f(D')) (sign error)",
        source="Mironov 2017, §III (remark after eq. (1))",
        statement=R_DEF + r",\quad \mathrm{E}_{f(D)}\left[\log R_{\mathrm{post}}(D,D') - \log R_{\mathrm{prior}}(D,D')"
                  r"\right] = D_1(f(D)\|f(D'))",
        steps=(Holds("E_{f(D)}[Δ log R] = D_1(f(D)‖f(D'))", _equals_kl_as_printed,
                     "the paper's remark; the left side is −D_1(f(D)‖f(D'))"),),
        expected=Verdict.REFUTED,
        domain=Domain({alpha: ORDERS}, objects=PRIORS, samples=20),
        note="False as printed (sign): any f(D) ≠ f(D') is a counterexample, e.g. the uniform law against a "
             "near point mass.  See mironov-table1-log-bayes-factor-corrected.",
    ),
    Claim(
        id="mironov-table1-log-bayes-factor-corrected",
        title="Corrected: with R' = p(D|X)/p(D'|X), E_{f(D)}[Δ log R'] = D_1(f(D)‖f(D')) ≤ D_α(f(D)‖f(D'))",
        source="Mironov 2017, §III eq. (1), corrected",
        statement=r"R'(D,D') = \frac{p(D|X)}{p(D'|X)},\ X\sim f(D):\quad \mathrm{E}_{f(D)}\left[\log R'_{\mathrm{post}}"
                  r" - \log R'_{\mathrm{prior}}\right] = D_1(f(D)\|f(D')) \le D_\alpha(f(D)\|f(D'))",
        steps=(
            Holds("E_{f(D)}[Δ log R'] = D_1(f(D)‖f(D'))", _equals_kl_corrected,
                  "E_{f(D)}[log f(D)/f(D')] is the KL divergence"),
            Holds("E_{f(D)}[Δ log R'] ≤ D_α(f(D)‖f(D'))", _corrected_below_renyi,
                  "D_1 ≤ D_α (monotonicity, Proposition 9)"),
        ),
        expected=Verdict.CHECKED,
        domain=Domain({alpha: ORDERS}, objects=PRIORS, samples=100),
        note="Checked on finite laws with explicit priors; this is the inequality (1) with its intended "
             "orientation, where it is not vacuous.",
    ),
]

