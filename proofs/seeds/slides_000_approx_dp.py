"""Slides (seed 000): (ε, δ)-DP — post-processing, composition, the 'nuclear option', no catastrophic failure.

Seed file /work/shared/seeds/000_862670cc7525ea27.txt: "(ε, δ)-Differential
Privacy" (l.15–25), "What Can δ Hide?" (l.57–64), "Gaussian mechanism does not
have catastrophic failure!" (l.103), "No Catastrophic Failure Mode!" (l.182–184);
also seed 004 l.126.

Exact arithmetic: the factor e^ε is a rational variable ("e^epsilon" ≥ 1), so
every hockey-stick divergence below is an exact rational and the equality cases
(post-processing by a merge that loses nothing) are decided.
"""

import random

import sympy as sp
from flint import arb, fmpq

from rdpsym.claims import Claim, Domain, Holds, Verdict, alpha
from rdpsym.claims.finite import (
    all_events,
    ball,
    hockey_stick_exact,
    mass,
    product,
    push_forward,
    random_channel,
    random_pmf,
    random_pmfs,
    rational,
    renyi,
)

from ._seeds_util import (
    ORDERS,
    POSITIVE,
    UNIT,
    adaptive_mechanisms,
    delta,
    exact,
    joint_laws,
    normal_sf,
    one_term_dominates,
    sigma,
    t,
)

SLIDES = "Slides (seed 000, 000_862670cc7525ea27.txt)"
em = sp.Symbol("e^epsilon", positive=True)
em1 = sp.Symbol("e^epsilon1", positive=True)
em2 = sp.Symbol("e^epsilon2", positive=True)
FACTORS = sp.Interval(1, sp.oo)


def _postprocessing(point):
    P, Q = point["laws"]
    K = point["channel"]
    f = point[em]
    return exact(hockey_stick_exact(push_forward(P, K), push_forward(Q, K), f), "<=", hockey_stick_exact(P, Q, f))


def _composition(point):
    # δ_i := the least δ for which mechanism i is (ε_i, δ)-DP; the pair is then (ε₁+ε₂, δ₁+δ₂)-DP
    P1, Q1, P2, Q2 = point["laws"]
    f1, f2 = rational(point[em1]), rational(point[em2])
    d1, d2 = hockey_stick_exact(P1, Q1, f1), hockey_stick_exact(P2, Q2, f2)
    return exact(hockey_stick_exact(product(P1, P2), product(Q1, Q2), f1 * f2), "<=", d1 + d2)


_adaptive = adaptive_mechanisms  # (the generator's name in this file's domains)


def _adaptive_composition(point):
    px, qx, kernels = point["mechanisms"]
    f1, f2 = rational(point[em1]), rational(point[em2])
    d1 = hockey_stick_exact(px, qx, f1)
    d2 = max(hockey_stick_exact(a, b, f2) for a, b in kernels)
    joint_p, joint_q = joint_laws(px, qx, kernels)
    return exact(hockey_stick_exact(joint_p, joint_q, f1 * f2), "<=", d1 + d2)


# ----------------------------------------------------------------------------- the nuclear option

def _nuclear_publish_all(point):
    # (i) M(D) = D with probability δ, else ⊥: outcomes (⊥, D, D'); sup_S P(S) − e^ε Q(S) = δ exactly, both ways
    d = rational(point[delta])
    P, Q = (1 - d, d, fmpq(0)), (1 - d, fmpq(0), d)
    f = rational(point[em])
    return exact(max(hockey_stick_exact(P, Q, f), hockey_stick_exact(Q, P, f)), "=", d)


def _nuclear_sample(point):
    # (ii) each record published independently with probability δ; D' = D + one record r (add/remove).
    # Outputs: (what D's records give, whether r is published): M(D') = M(D) ⊗ (1−δ, δ), M(D) = M(D) ⊗ (1, 0).
    d = rational(point[delta])
    base = point["base"]
    P = product(base, (1 - d, d))
    Q = product(base, (fmpq(1), fmpq(0)))
    f = rational(point[em])
    return exact(max(hockey_stick_exact(P, Q, f), hockey_stick_exact(Q, P, f)), "=", d)


def _nuclear_not_rdp(point):
    d = rational(point[delta])
    P, Q = (1 - d, d, fmpq(0)), (1 - d, fmpq(0), d)
    return renyi(P, Q, point[alpha]), "=", sp.oo


# ----------------------------------------------------------------------------- no catastrophic failure

def _bad_outcomes_finite(point):
    # (α, ε)-RDP with ε = D_α(P‖Q): every S has P(S) ≤ (e^ε Q(S))^{1−1/α}; in particular Q(S) = 0 ⇒ P(S) = 0
    P, Q = point["laws"]
    a = ball(point[alpha])
    e = renyi(P, Q, point[alpha])
    if e == sp.oo:
        return 0, ">=", 0   # not RDP at this order: nothing to check (P has mass where Q has none)
    gaps = [(e.exp() * arb(mass(Q, S))) ** (1 - 1 / a) - arb(mass(P, S))
            for S in all_events(len(P), nonempty=True)]
    return min(gaps, key=lambda v: v.mid()), ">=", 0


def _laws_with_zeros(rng: random.Random, i: int):
    """Pairs of laws on 5 outcomes where Q has some zero masses and P has zeros at least there (P ≪ Q)."""
    P, Q = list(random_pmf(rng, i + 10, 5)), list(random_pmf(rng, i + 20, 5))
    zeros = [j for j in range(5) if rng.random() < 0.4][:3]
    for j in zeros:
        P[j] = Q[j] = fmpq(0)
    sp_, sq = sum(P, fmpq(0)), sum(Q, fmpq(0))
    return tuple(x / sp_ for x in P), tuple(x / sq for x in Q)


def _gaussian_half_lines(point):
    # P = N(1, σ²) (with the record), Q = N(0, σ²), S = [t, ∞): (α, α/(2σ²))-RDP gives
    # P(S) ≤ (e^{α/(2σ²)} Q(S))^{1−1/α}; Q(S) → 0 forces P(S) → 0.
    s, tv, a = ball(point[sigma]), ball(point[t]), ball(point[alpha])
    p_s, q_s = normal_sf((tv - 1) / s), normal_sf(tv / s)
    return p_s, "<=", ((a / (2 * s * s)).exp() * q_s) ** (1 - 1 / a)


CLAIMS = [
    Claim(
        id="slides-approxdp-postprocessing",
        title="Post-processing: if M(D) is (ε, δ)-DP, so is f(M(D))",
        source=SLIDES + ", '(ε, δ)-Differential Privacy', l.18",
        statement=r"M \text{ is } (\varepsilon,\delta)\text{-DP} \Rightarrow f\circ M \text{ is } (\varepsilon,\delta)"
                  r"\text{-DP}:\ \sup_S PK(S) - e^\varepsilon QK(S) \le \sup_S P(S) - e^\varepsilon Q(S)",
        steps=(Holds("hockey-stick divergence decreases under a randomized map", _postprocessing,
                     "E_γ(PK‖QK) ≤ E_γ(P‖Q): the hockey-stick divergence is an f-divergence"),),
        expected=Verdict.CHECKED,
        domain=Domain({em: FACTORS}, objects={"laws": random_pmfs(2), "channel": random_channel}, samples=60),
        note="Exact rationals: random laws on 5 outcomes, random and deterministic (merging) maps to 3 outcomes, "
             "e^ε from 1 to 10¹². CHECKED (the f-divergence argument is not formalised).",
    ),
    Claim(
        id="slides-approxdp-composition",
        title="(ε₁, δ₁)-DP and (ε₂, δ₂)-DP compose to (ε₁ + ε₂, δ₁ + δ₂)-DP",
        source=SLIDES + ", '(ε, δ)-Differential Privacy', l.19–21 (pure version: seed 000 l.87, seed 001 l.234)",
        statement=r"(\varepsilon_1,\delta_1)\text{-DP and } (\varepsilon_2,\delta_2)\text{-DP is } "
                  r"(\varepsilon_1+\varepsilon_2,\delta_1+\delta_2)\text{-DP}",
        steps=(
            Holds("independent release: E_{e^{ε₁+ε₂}}(P₁⊗P₂‖Q₁⊗Q₂) ≤ δ₁ + δ₂", _composition,
                  "standard: split each outcome's excess over e^{ε₁+ε₂} into the two factors' excesses",
                  domain=Domain({em1: FACTORS, em2: FACTORS}, objects={"laws": random_pmfs(4)}, samples=50)),
            Holds("adaptive release (Y ~ K_X): E_{e^{ε₁+ε₂}}(joint) ≤ δ₁ + max_x δ₂(x)", _adaptive_composition,
                  "the same argument conditionally on X",
                  domain=Domain({em1: FACTORS, em2: FACTORS}, objects={"mechanisms": _adaptive}, samples=50)),
        ),
        expected=Verdict.CHECKED,
        domain=Domain(),
        note="δᵢ is taken as the least δ making each part (εᵢ, δ)-DP (its hockey-stick divergence), so the check is "
             "at the tightest hypotheses. Exact rationals, random finite mechanisms: CHECKED.",
    ),
    Claim(
        id="slides-nuclear-option",
        title="The 'nuclear option' is (0, δ)-DP (hence δ ≪ 1/N), and has no finite Rényi divergence",
        source=SLIDES + ", 'What Can δ Hide?', l.57–64; notes (seed 004) l.14 ('on prend δ ≪ 1/N')",
        statement=r"\text{publish everything w.p. } \delta;\ \text{publish each input w.p. } \delta:\ "
                  r"(0,\delta)\text{-DP},\ \delta \ll 1/N",
        steps=(
            Holds("(i) publish all w.p. δ: sup_S P(S) − e^ε Q(S) = δ for every ε ≥ 0", _nuclear_publish_all,
                  "the outcome 'D' has mass δ under M(D) and 0 under M(D')"),
            Holds("(ii) publish each record w.p. δ (add/remove): sup_S P(S) − e^ε Q(S) = δ", _nuclear_sample,
                  "the event 'r is published' has mass δ under M(D + r) and 0 under M(D)",
                  domain=Domain({delta: UNIT, em: FACTORS}, objects={"base": lambda rng, i: random_pmf(rng, i, 3)},
                                samples=40)),
            Holds("(i): D_α(M(D)‖M(D')) = ∞ for every α > 1", _nuclear_not_rdp,
                  "support mismatch: M(D) charges an outcome M(D') never produces",
                  domain=Domain({delta: UNIT, alpha: ORDERS}, samples=30)),
        ),
        expected=Verdict.CHECKED,
        domain=Domain({delta: UNIT, em: FACTORS}, samples=40),
        note="'Publish a δ fraction of inputs' is read as publishing each record independently with probability δ. "
             "Both mechanisms are (ε, δ)-DP for every ε ≥ 0 and no better, yet (i) reveals the whole database with "
             "probability δ and (ii) exposes δN records in expectation: hence δ ≪ 1/N. (i) is (α, ε)-RDP for no "
             "α > 1 (the contrast with slides-no-catastrophic). Exact rationals: CHECKED.",
    ),
    Claim(
        id="slides-no-catastrophic",
        title="No catastrophic failure under RDP: Pr[M(D) ∈ S] ≤ (e^ε Pr[M(D') ∈ S])^{1−1/α}",
        source=SLIDES + ", 'No Catastrophic Failure Mode!' l.182–184 and 'Bad Outcomes' l.178; 'Gaussian mechanism "
               "does not have catastrophic failure!' l.103; notes (seed 004) l.126",
        statement=r"\Pr[M(D) \in S] \le (e^{\varepsilon} \cdot \Pr[M(D') \in S])^{1-1/\alpha}",
        steps=(
            Holds("finite laws: P(S) ≤ (e^{D_α} Q(S))^{1−1/α} for every S", _bad_outcomes_finite,
                  "Mironov Prop 10 (Hölder)",
                  domain=Domain({alpha: ORDERS}, objects={"laws": random_pmfs(2)}, samples=40,
                                where=lambda point: not _one_term(point))),
            Holds("laws with zeros (Q(S) = 0 ⇒ P(S) = 0): the same bound", _bad_outcomes_finite,
                  "Prop 10 with empty events of Q",
                  domain=Domain({alpha: ORDERS}, objects={"laws": _laws_with_zeros}, samples=40,
                                where=lambda point: not _one_term(point))),
            Holds("Gaussian, S = [t, ∞): Φ̄((t−1)/σ) ≤ (e^{α/2σ²} Φ̄(t/σ))^{1−1/α}", _gaussian_half_lines,
                  "Prop 10 with D_α = α/(2σ²) on the Neyman–Pearson sets of the Gaussian pair",
                  domain=Domain({sigma: POSITIVE, t: sp.Interval(-50, 50), alpha: ORDERS}, samples=60)),
        ),
        expected=Verdict.CHECKED,
        domain=Domain(),
        note="For 1 < α < ∞ the bound forces P(S) → 0 as Q(S) → 0, unlike (ε, δ)-DP (slides-nuclear-option). Points "
             "of the finite-law steps where the Rényi moment is one term to within 2⁻⁹⁰⁰ are left out (the bound is "
             "then tight at the event {x*} beyond 1024-bit balls). CHECKED.",
    ),
]


def _one_term(point) -> bool:
    P, Q = point["laws"]
    return one_term_dominates(P, Q, point[alpha])
