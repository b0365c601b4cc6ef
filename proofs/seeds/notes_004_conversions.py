"""Notes (seed 004): from RDP to (ε, δ)-DP and back, the bad-outcomes bounds, the baseline event.

Seed file /work/shared/seeds/004_41b8fca220304539.txt: "2.1 Définitions"
(l.38–40), "2.2.1 Garantie sur les « réponses gênantes »" (l.54–62), "3 De la RDP
à la (ε, δ)-DP et réciproquement" (l.82–86), "5.4" and "6 Discussion" (l.118, l.128).
"""

import sympy as sp
from flint import arb, fmpq

from rdpsym.claims import AtLeast, Claim, Domain, Holds, Verdict, alpha
from rdpsym.claims.finite import (
    all_events,
    ball,
    hockey_stick_exact,
    mass,
    random_pmfs,
    rational,
    renyi,
)

from ._seeds_util import (
    ORDERS,
    POSITIVE,
    UNIT,
    cases,
    delta,
    eps,
    exact,
    n,
    prop3_excess,
    rr,
    rr_or_random_pairs,
    separable,
)

NOTES = "Notes (seed 004, 004_41b8fca220304539.txt)"
em = sp.Symbol("e^epsilon", positive=True)
u = sp.Symbol("u", positive=True)     # log(1/Pr[f(D') ∈ S])
LOW_ORDERS = sp.Interval.open(0, 1)


# ----------------------------------------------------------------------------- (ε,δ)-DP vs "ε-RDP"

def _nuclear(d):
    """The 'nuclear option' (slides l.57–64): M(D) = D with probability δ, else ⊥.  Outcomes (⊥, D, D')."""
    d = rational(d)
    return (1 - d, d, fmpq(0)), (1 - d, fmpq(0), d)


def _nuclear_is_dp(point):
    P, Q = _nuclear(point[delta])
    f = point[em]
    worst = max(hockey_stick_exact(P, Q, f), hockey_stick_exact(Q, P, f))  # both orders of the neighbours
    return exact(worst, "<=", rational(point[delta]))


def _nuclear_rdp(point):
    P, Q = _nuclear(point[delta])
    return renyi(P, Q, point[alpha]), "<=", ball(point[em]).log()


# ----------------------------------------------------------------------------- Prop 3 with α < 1 (typo) and α > 1

def _prop3(point):
    P, Q = point["laws"]
    return prop3_excess(P, Q, point[alpha], point[delta]), "<=", 0


def _prop3_case(point):
    c = point["example"]
    P, Q = rr(c["p"])
    return prop3_excess(P, Q, c["alpha"], c["delta"]), "<=", 0


# ----------------------------------------------------------------------------- Prop 10 and the bad-outcomes bounds

def _prop10(point):
    # P(A) ≤ (e^{D_α(P‖Q)} Q(A))^{(α−1)/α} for every event A (worst event returned)
    P, Q = point["laws"]
    a = ball(point[alpha])
    D = renyi(P, Q, point[alpha])
    gaps = [(D.exp() * arb(mass(Q, S))) ** ((a - 1) / a) - arb(mass(P, S))
            for S in all_events(len(P), nonempty=True)]
    return min(gaps, key=lambda v: v.mid()), ">=", 0


def _bad_outcomes(point):
    # with ε = max(D_α(P‖Q), D_α(Q‖P)) (adjacency is symmetric):
    # e^{−ε} Q(S)^{α/(α−1)} ≤ P(S) ≤ (e^ε Q(S))^{(α−1)/α} for every S (worst margin of both sides)
    P, Q = point["laws"]
    a = ball(point[alpha])
    e1, e2 = renyi(P, Q, point[alpha]), renyi(Q, P, point[alpha])
    e = e1 if e1.mid() > e2.mid() else e2
    gaps = []
    for S in all_events(len(P), nonempty=True):
        p_, q_ = arb(mass(P, S)), arb(mass(Q, S))
        gaps.append((e.exp() * q_) ** ((a - 1) / a) - p_)
        gaps.append(p_ - (-e).exp() * q_ ** (a / (a - 1)))
    return min(gaps, key=lambda v: v.mid()), ">=", 0


CLAIMS = [
    Claim(
        id="notes-dp-eq-rdp-typo",
        title="'(ε, δ)-DP is equivalent to ε-RDP' (as printed)",
        source=NOTES + ", '3 De la RDP à la (ε, δ)-DP', l.84",
        statement=r"(\varepsilon, \delta)\text{-DP} \iff \varepsilon\text{-RDP};\ \text{here: } "
                  r"(\varepsilon,\delta)\text{-DP} \Rightarrow D_\alpha(M(D)\|M(D')) \le \varepsilon",
        steps=(
            Holds("the nuclear option is (ε, δ)-DP: sup_S P(S) − e^ε Q(S) ≤ δ, both orders", _nuclear_is_dp,
                  "the only outcome one side cannot produce has mass δ (exact rationals)"),
            Holds("D_α(M(D)‖M(D')) ≤ ε", _nuclear_rdp,
                  "M(D) puts mass δ on an outcome M(D') never produces: D_α = ∞ for every α > 1"),
        ),
        expected=Verdict.REFUTED,
        domain=Domain({delta: UNIT, em: sp.Interval(1, sp.oo), alpha: ORDERS}, samples=30),
        note="FALSE as printed (the intended statement, seed 002 l.268, is 'ε-DP is equivalent to (∞, ε)-RDP', checked "
             "in seeds-dinf-pure-dp and lecture-dp-loss-def). Counterexample: the nuclear option of the slides "
             "(seed 000 l.57–64), M(D) = D with probability δ and ⊥ otherwise, is (0, δ)-DP — hence (ε, δ)-DP for "
             "every ε ≥ 0 — but (α, ε')-RDP for no α > 1 and no ε'. Conversely the Gaussian mechanism is "
             "(α, α/2σ²)-RDP at every order but ε-DP for no ε (notes-gaussian-not-pure).",
    ),
    Claim(
        id="notes-inf-rdp-implies-alpha",
        title="(∞, ε)-RDP implies (α, ε)-RDP for every finite α",
        source=NOTES + ", l.85 (and seed 002 l.268)",
        statement=r"(\infty, \varepsilon)\text{-RDP} \Rightarrow (\alpha, \varepsilon)\text{-RDP}\ \forall \alpha < \infty",
        steps=(
            Holds("D_α(P‖Q) ≤ D_∞(P‖Q)", lambda point: (renyi(*point["laws"], point[alpha]), "<=",
                                                       renyi(*point["laws"], sp.oo)),
                  "E_Q[(P/Q)^α] ≤ e^{(α−1)D_∞}: monotonicity in α"),
        ),
        expected=Verdict.CHECKED,
        domain=Domain({alpha: sp.Interval.open(0, sp.oo)}, objects={"laws": random_pmfs(2)}, samples=50),
        note="Checked on random finite laws, at orders in (0, ∞) (the notes say 'tout α fini'). Not formalised "
             "for all laws: CHECKED.",
    ),
    Claim(
        id="notes-prop3-alpha-typo",
        title="(α, ε)-RDP ⟹ (ε + ln(1/δ)/(α−1), δ)-DP 'pour tout 0 < α < 1' (as printed)",
        source=NOTES + ", '3 De la RDP à la (ε, δ)-DP', l.86",
        statement=r"(\alpha, \varepsilon)\text{-RDP} \Rightarrow (\varepsilon + \frac{\ln 1/\delta}{\alpha - 1}, "
                  r"\delta)\text{-DP pour tout } 0 < \alpha < 1",
        steps=(
            Holds("RR p = 0.9, α = 1/2, δ = 1/2: max_S P(S) − e^{ε'}Q(S) − δ ≤ 0", _prop3_case,
                  "the survey's example: ε' = D_{1/2} − 2 ln 2 = −0.3646, and S = {truth} gives 0.9 > 0.5694",
                  domain=Domain(objects={"example": cases({"p": "9/10", "alpha": "1/2", "delta": "1/2"})},
                                samples=1)),
            Holds("max_S P(S) − e^{ε'}Q(S) − δ ≤ 0 with ε = D_α(P‖Q), 0 < α < 1", _prop3,
                  "D_α for α < 1 by the same formula (Def 3)"),
        ),
        expected=Verdict.REFUTED,
        domain=Domain({alpha: LOW_ORDERS, delta: UNIT}, objects={"laws": rr_or_random_pairs()}, samples=30),
        note="MIS-STATED: a typo for 'pour tout 0 < δ < 1' (with α > 1, as in Mironov's Prop 3; corrected claim "
             "notes-prop3-corrected). Read literally, with D_α (α < 1) given by Def 3's formula, it is false: for "
             "α < 1 the term ln(1/δ)/(α−1) is negative and ε' can fall below 0.",
    ),
    Claim(
        id="notes-prop3-corrected",
        title="(α, ε)-RDP ⟹ (ε + ln(1/δ)/(α−1), δ)-DP for every 0 < δ < 1 (α > 1)",
        source=NOTES + ", l.86 (corrected: 0 < δ < 1); = Mironov's Prop 3, as in notes (seed 003) l.217–218",
        statement=r"(\alpha, \varepsilon)\text{-RDP} \Rightarrow (\varepsilon + \frac{\ln 1/\delta}{\alpha - 1}, "
                  r"\delta)\text{-DP pour tout } 0 < \delta < 1",
        steps=(
            Holds("max_S P(S) − e^{ε'}Q(S) − δ ≤ 0 with ε = D_α(P‖Q), α > 1", _prop3,
                  "Prop 3: P(S) ≤ max(e^{ε'}Q(S), δ) (Hölder)"),
        ),
        expected=Verdict.CHECKED,
        domain=Domain({alpha: ORDERS, delta: UNIT}, objects={"laws": rr_or_random_pairs()}, samples=60),
        note="Checked on randomized-response pairs and random finite laws over all events. A numeric check of a "
             "theorem (Mironov 2017, Prop 3): CHECKED.",
    ),
    Claim(
        id="notes-prop10",
        title="For P, Q with identical support and every event A: P(A) ≤ [e^{D_α(P‖Q)} Q(A)]^{(α−1)/α}",
        source=NOTES + ", '2.1 Définitions', l.38–40 (Mironov's Prop 10)",
        statement=r"P(A) \leqslant \left[ e^{D_{\alpha}(P \parallel Q)} \cdot Q(A) \right]^{(\alpha - 1)/\alpha}",
        steps=(Holds("min over A of [e^{D_α} Q(A)]^{(α−1)/α} − P(A) ≥ 0", _prop10, "Hölder's inequality"),),
        expected=Verdict.CHECKED,
        domain=Domain({alpha: ORDERS}, objects={"laws": random_pmfs(2)}, samples=60,
                      where=lambda point: separable(point, alpha)),
        note="The support condition is not needed (without P ≪ Q the right side is +∞). Checked on random finite "
             "laws over all 31 events. Points where the Rényi moment is a single term to within 2⁻⁹⁰⁰ are left out "
             "(there the bound is tight at the event {x*} up to that factor, beyond 1024-bit balls). CHECKED.",
    ),
    Claim(
        id="notes-bad-outcomes",
        title="Bad outcomes under (α, ε)-RDP: e^{−ε} P[f(D')∈S]^{α/(α−1)} ≤ P[f(D)∈S] ≤ (e^ε P[f(D')∈S])^{(α−1)/α}",
        source=NOTES + ", '2.2.1 Garantie sur les « réponses gênantes »', l.58–60",
        statement=r"e^{-\varepsilon}\mathbb{P}[f(D') \in S]^{\alpha/(\alpha-1)} \leqslant \mathbb{P}[f(D) \in S] "
                  r"\leqslant (e^{\varepsilon}\mathbb{P}[f(D') \in S])^{(\alpha-1)/\alpha}",
        steps=(Holds("both bounds, every S, ε = max of the two divergences", _bad_outcomes,
                     "Prop 10 for (P, Q) and for (Q, P): adjacency is symmetric"),),
        expected=Verdict.CHECKED,
        domain=Domain({alpha: ORDERS}, objects={"laws": rr_or_random_pairs()}, samples=60,
                      where=lambda point: separable(point, alpha)),
        note="Points where a Rényi moment is a single term to within 2⁻⁹⁰⁰ are left out (as in notes-prop10). "
             "The lower bound needs D_α(f(D')‖f(D)) ≤ ε, which (α, ε)-RDP gives because adjacency is symmetric; "
             "ε is taken as the larger of the two divergences. Finite laws only: CHECKED.",
    ),
    Claim(
        id="notes-baseline-event",
        title="The RDP bounds degrade as the baseline Pr[f(D') ∈ S] decreases (the notes write f(D))",
        source=NOTES + ", '5.4' l.118 and '6 Discussion' l.128",
        statement=r"\text{les bornes induites par la RDP (propriété 4) se dégradent quand la probabilité de } "
                  r"f(D) \in S \text{ diminue}",
        steps=(
            AtLeast(sp.diff(sp.exp(2 * eps * sp.sqrt(n * u)), u), 0,
                    "Prop 4's factor exp(2ε√(n log(1/Q))) grows with u = log(1/Q), i.e. as Q = Pr[f(D')∈S] "
                    "decreases"),
        ),
        expected=Verdict.PROVED,
        domain=Domain({eps: POSITIVE, n: sp.Interval(1, 10**6), u: POSITIVE}, samples=30),
        note="MIS-STATED (minor, editorial): the baseline in Prop 4 is Q = Pr[f(D') ∈ S] (as the notes themselves "
             "say at l.96), not Pr[f(D) ∈ S]. The printed wording is not a formula, so there is nothing to refute; "
             "the corrected reading (the multiplicative factor grows as Q decreases) is proved. The bound itself "
             "(Prop 4) is a Mironov 2017 claim.",
    ),
]
