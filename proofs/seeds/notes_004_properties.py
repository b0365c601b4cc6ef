"""Notes (seed 004): RDP post-processing and adaptive composition; Property 4 and Corollary 1 as the notes state them.

Seed file /work/shared/seeds/004_41b8fca220304539.txt: "2.2.3 Compatibilité avec
les post-traitements" (l.68–70), "2.2.4 Préservation lors de compositions
séquentielles adaptatives" (l.72–74; also seed 003 l.213–215), "4 Théorème avancé
de composition" (l.88–98).  These restate Mironov 2017 (post-processing, Prop 1,
Prop 4, Cor 1; see mironov2017/); they are checked here in the notes'
wording, cheaply.
"""

import math

import sympy as sp
from flint import arb, fmpq

from rdpsym.claims import Claim, Domain, Holds, Verdict, alpha
from rdpsym.claims.finite import ball, push_forward, random_channel, random_pmfs

from ._seeds_util import (
    COUNTS,
    ORDERS,
    adaptive_mechanisms,
    cases,
    composed_delta,
    eps,
    joint_laws,
    log_moment,
    one_term_dominates,
)

NOTES = "Notes (seed 004, 004_41b8fca220304539.txt)"
m = sp.Symbol("m", positive=True)   # log(1/δ) as a multiple (≥ 1) of ε²n
rho_ = sp.Symbol("rho", positive=True)
hstar = sp.Symbol("h*", positive=True)   # α* − 1 = √(L/ρ)


def _postprocessing(point):
    # (α−1)·D_α(PK‖QK) ≤ (α−1)·D_α(P‖Q), compared as log-moments (α − 1 > 0 exact)
    P, Q = point["laws"]
    K = point["channel"]
    o = point[alpha]
    return log_moment(push_forward(P, K), push_forward(Q, K), o), "<=", log_moment(P, Q, o)


_adaptive = adaptive_mechanisms  # (the generator's name in this file's domains)


def _adaptive_composition(point):
    # (X, Y) with X ~ f(D), Y ~ g(X, D): (α−1)D_α(joint) ≤ (α−1)D_α(X‖X') + max_x (α−1)D_α(Y_x‖Y'_x)
    px, qx, kernels = point["mechanisms"]
    o = point[alpha]
    joint_p, joint_q = joint_laws(px, qx, kernels)
    second = max((log_moment(a, b, o) for a, b in kernels), key=lambda v: v.mid())
    return log_moment(joint_p, joint_q, o), "<=", log_moment(px, qx, o) + second


def _not_one_term(point) -> bool:
    """Leave out the points where the joint moment is a single term (x, y) to within 2⁻⁹⁰⁰: there the bound
    is an equality up to that factor (the maximal term of the first step times the maximal term of the second),
    beyond 1024-bit balls."""
    px, qx, kernels = point["mechanisms"]
    joint_p, joint_q = joint_laws(px, qx, kernels)
    return not one_term_dominates(joint_p, joint_q, point[alpha])


def _prop4(point):
    # n-fold randomized response (the worst case of n ε-DP mechanisms, KOV), on its likelihood-ratio sets
    # S_j = {at most j of the n answers flipped}, j < n (S_n = Ω gives equality, 1 = 1):
    # P(S_j) ≤ exp(2ε√(n log(1/Q(S_j))))·Q(S_j).  Returned: the smallest margin over j.
    e, n = ball(point[eps]), point["k"]
    x = e.exp()
    norm = (1 + x) ** n
    p_cum, q_cum, worst = arb(0), arb(0), None
    for j in range(n):
        c = arb(math.comb(n, j))
        p_cum += c * x ** (n - j) / norm
        q_cum += c * x**j / norm
        bound = (2 * e * (n * (1 / q_cum).log()).sqrt()).exp() * q_cum
        gap = bound - p_cum
        worst = gap if worst is None or gap.mid() < worst.mid() else worst
    return worst, ">=", 0


#: Mironov 2017 §VII's suggested orders, as the notes list them (l.134), without +∞.
GRID = [fmpq(3, 2), fmpq(7, 4), fmpq(2), fmpq(5, 2), fmpq(3), fmpq(4), fmpq(5), fmpq(6), fmpq(8), fmpq(16),
        fmpq(32), fmpq(64)]


def _grid_loss(point):
    # the curve ρα (Gaussian/zCDP) with optimum α* = 1 + h*, h* ∈ [1/2, 63] (α* ∈ [1.5, 64]): the best grid order
    # gives ε − ρ = min_i ρ(α_i − 1) + L/(α_i − 1) ≤ 1.0735·2√(ρL) (the continuous optimum's 2√(ρL))
    r, hs = ball(point[rho_]), ball(point[hstar])
    big_l = r * hs * hs
    best = min((r * arb(a - 1) + big_l / arb(a - 1) for a in GRID), key=lambda v: v.mid())
    return best, "<=", arb(fmpq(10735, 10000)) * 2 * (r * big_l).sqrt()


def _cor1(point):
    # δ = exp(−m ε² n) with m ≥ 1, i.e. log(1/δ) ≥ ε²n; ε' = 4ε√(2n log(1/δ)); the exact δ_n(ε') ≤ δ
    e, n, mm = ball(point[eps]), point["k"], ball(point[m])
    big_l = mm * e * e * n
    e_total = 4 * e * (2 * n * big_l).sqrt()
    return composed_delta(point[eps], 0, n, e_total), "<=", (-big_l).exp()


CLAIMS = [
    Claim(
        id="notes-rdp-postprocessing",
        title="RDP is closed under post-processing: g∘f is (α, ε)-RDP when f is",
        source=NOTES + ", '2.2.3 Compatibilité avec les post-traitements', l.68–70",
        statement=r"f\ (\alpha,\varepsilon)\text{-RDP} \Rightarrow g\circ f\ (\alpha,\varepsilon)\text{-RDP}:\ "
                  r"D_\alpha(g(P)\|g(Q)) \le D_\alpha(P\|Q)",
        steps=(Holds("(α−1)D_α(PK‖QK) ≤ (α−1)D_α(P‖Q)", _postprocessing,
                     "data-processing inequality for Rényi divergences (van Erven–Harremoës, Thm 9)"),),
        expected=Verdict.CHECKED,
        domain=Domain({alpha: ORDERS}, objects={"laws": random_pmfs(2), "channel": random_channel}, samples=50),
        note="Random laws on 5 outcomes through random and merging maps to 3 outcomes; compared as log-moments "
             "(α − 1 formed exactly). CHECKED.",
    ),
    Claim(
        id="notes-rdp-adaptive-composition",
        title="Adaptive sequential composition: (f(D), g(f(D), D)) is (α, ε₁ + ε₂)-RDP",
        source=NOTES + ", '2.2.4 Préservation lors de compositions séquentielles adaptatives', l.72–74; notes "
               "(seed 003, 003_99d63cfe81f5c671.txt) 'Composition', l.213–215",
        statement=r"f\ (\alpha,\varepsilon_1)\text{-RDP},\ g\ (\alpha,\varepsilon_2)\text{-RDP} \Rightarrow "
                  r"(f(D), g(f(D), D))\ (\alpha, \varepsilon_1 + \varepsilon_2)\text{-RDP}",
        steps=(Holds("(α−1)D_α(joint) ≤ (α−1)D_α(X‖X') + max_x (α−1)D_α(Y_x‖Y'_x)", _adaptive_composition,
                     "Mironov 2017, Prop 1: bound the inner moment by its maximum over x"),),
        expected=Verdict.CHECKED,
        domain=Domain({alpha: ORDERS}, objects={"mechanisms": _adaptive}, samples=60, where=_not_one_term),
        note="Random two-step mechanisms (4 first outputs, 3 second outputs, kernels depending on the first "
             "output), ε₁, ε₂ taken as the exact divergences, compared as log-moments (α − 1 exact). Points where "
             "the joint moment is one term to within 2⁻⁹⁰⁰ are left out (equality beyond 1024-bit balls). CHECKED.",
    ),
    Claim(
        id="notes-prop4",
        title="Property 4: n adaptive ε-DP mechanisms give P[f(D)∈S] ≤ exp(2ε√(n ln(1/P[f(D')∈S])))·P[f(D')∈S]",
        source=NOTES + ", '4 Théorème avancé de composition', l.92–96 (Mironov 2017, Prop 4)",
        statement=r"\mathbb{P}[f(D) \in S] \leqslant \exp\left(2\varepsilon\sqrt{n\ln\frac{1}{\mathbb{P}[f(D') \in S]}}"
                  r"\right) \cdot \mathbb{P}[f(D') \in S]",
        steps=(Holds("n-fold randomized response, every likelihood-ratio set S_j (j < n)", _prop4,
                     "RDP of ε-DP (Bun–Steinke, constant ½) + Prop 10 at the best order (survey, mironov-prop4)"),),
        expected=Verdict.CHECKED,
        domain=Domain({eps: sp.Interval.Lopen(0, 2)}, objects={"k": COUNTS}, samples=40),
        note="Checked on the worst case: n-fold randomized response dominates every adaptive composition of n ε-DP "
             "mechanisms (Kairouz–Oh–Viswanath), and its likelihood-ratio sets are the extreme events for a given "
             "baseline (Neyman–Pearson). S = Ω (equality) is left out. The paper's printed proof needs the ½ "
             "constant (survey: mironov-prop4-proof-step). CHECKED.",
    ),
    Claim(
        id="notes-cor1",
        title="Corollary 1: n ε-DP mechanisms are (4ε√(2n ln(1/δ)), δ)-DP when ln(1/δ) ≥ ε²n",
        source=NOTES + ", '4 Théorème avancé de composition', l.98 (Mironov 2017, Cor 1)",
        statement=r"\ln(1/\delta) \ge \varepsilon^2 n \Rightarrow (\varepsilon', \delta)\text{-DP},\ "
                  r"\varepsilon' = 4\varepsilon \sqrt{2n\ln(1/\delta)}",
        steps=(Holds("exact δ_n(ε') ≤ δ with ln(1/δ) = mε²n, m ≥ 1", _cor1,
                     "exact n-fold composition of ε-DP (KOV)"),),
        expected=Verdict.CHECKED,
        domain=Domain({eps: sp.Interval.Lopen(0, 2), m: sp.Interval(1, 100)}, objects={"k": COUNTS}, samples=40),
        note="The hypothesis is parametrised as ln(1/δ) = mε²n, m ≥ 1. Far from tight (survey: δ_exact/δ ≤ 0.006). "
             "The hypothesis is needed in general (survey: ε = 3, n = 1000, δ = 10⁻³ fails without it). CHECKED.",
    ),
    Claim(
        id="notes-order-grid",
        title="Choosing α in {1.5, 1.75, 2, 2.5, 3, 4, 5, 6, 8, 16, 32, 64, +∞} is quasi-optimal",
        source=NOTES + ", '6 Discussion', l.130–134 (Mironov 2017, end of §VII)",
        statement=r"\text{choisir } \alpha \text{ peut être fait de manière quasi-optimale parmi } "
                  r"\{1.5; 1.75; 2; 2.5; 3; 4; 5; 6; 8; 16; 32; 64; +\infty\}",
        steps=(
            Holds("linear curve ρα, α* ∈ [1.5, 64]: min over the grid of ρ(α−1) + L/(α−1) ≤ 1.0735·2√(ρL)",
                  _grid_loss, "ρh + L/h at h = t·h* is √(ρL)(t + 1/t); the worst gap is 8 → 16, "
                  "t = √(15/7), (t + 1/t)/2 = 1.07349"),
            Holds("the same at the worst h* of each gap (geometric means of consecutive α − 1, ρ = 1)",
                  lambda point: _grid_loss({rho_: 1, hstar: point["example"]["h*"]}),
                  "the ratio depends on h* only; it peaks at √((α_i − 1)(α_{i+1} − 1))",
                  domain=Domain(objects={"example": cases(*[{"h*": v} for v in (
                      "0.612372", "0.866025", "1.224745", "1.732051", "2.449490", "3.464102", "4.472136",
                      "5.916080", "10.246951", "21.563859", "44.192760")])}, samples=11)),
        ),
        expected=Verdict.CHECKED,
        domain=Domain({rho_: sp.Interval.open(0, sp.oo), hstar: sp.Interval(sp.Rational(1, 2), 63)}, samples=60),
        note="HEURISTIC in the notes; the survey's checkable version (mironov-sec7-orders): for a linear RDP curve "
             "whose Prop-3 optimum lies in [1.5, 64], the grid inflates the 2√(ρL) part of ε = ρ + 2√(ρL) by at "
             "most 7.35%. Outside [1.5, 64] the grid's end points decide (α* > 64: a single very private "
             "release). CHECKED.",
    ),
]
