"""Lecture deck (seed 001): composition — basic (kε), advanced (½kε² form) and its regime remark.

Seed file /work/shared/seeds/001_d49504efe0d286ae.txt, slides "Composition"
(l.232–238) and "The advanced composition theorem" (l.248–256); basic
composition also in the slides, seed 000 l.85–89.

Reference: the exact k-fold composition of (ε, δ)-DP mechanisms (Kairouz–Oh–
Viswanath 2015, Thm 3.3): k-fold generalised randomized response dominates every
adaptive composition, and its hockey-stick divergence is
1 − (1−δ)^k (1 − δ_k(ε')) with δ_k = ``kov_delta`` the pure k-fold curve.
"""

import random

import sympy as sp
from flint import fmpq

from rdpsym.accounting.conversions import kov_delta
from rdpsym.claims import AtMost, Claim, Domain, Holds, Verdict
from rdpsym.claims.finite import ball, max_ratio, random_pmf, rational

from ._seeds_util import (
    COUNTS,
    POSITIVE,
    UNIT,
    composed_delta,
    delta,
    delta_p,
    eps,
    exact,
)

k = sp.Symbol("k", positive=True)
u = sp.Symbol("u", positive=True)
v = sp.Symbol("v", positive=True)
L = sp.Symbol("L", positive=True)

SOURCE_ADV = ("Lecture deck (seed 001, 001_d49504efe0d286ae.txt), slide 'The advanced composition theorem', "
              "l.248–254")
SOURCE_REGIME = "Lecture deck (seed 001, 001_d49504efe0d286ae.txt), slide 'The advanced composition theorem', l.256"
SOURCE_BASIC = ("Lecture deck (seed 001, 001_d49504efe0d286ae.txt), slide 'Composition', l.232–234; slides (seed 000, "
                "000_862670cc7525ea27.txt), 'Basic Composition', l.85–89")

def _half_form(point):
    e, d, dp, kk = ball(point[eps]), point[delta], point[delta_p], point["k"]
    e_total = e * (2 * kk * (1 / ball(dp)).log()).sqrt() + kk * e * e / 2
    return composed_delta(point[eps], d, kk, e_total), "<=", kk * ball(d) + ball(dp)


# ----------------------------------------------------------------------------- basic composition

def _adaptive_pair(rng: random.Random, i: int):
    """(P_X, Q_X) on 4 outcomes and, for each x, a pair of kernels (K_x, K'_x) on 3 outcomes."""
    px, qx = random_pmf(rng, i, 4), random_pmf(rng, i + 1 if i < 4 else i + 7, 4)
    kernels = tuple((random_pmf(rng, 10 + i + j, 3), random_pmf(rng, 20 + i + j, 3)) for j in range(4))
    return px, qx, kernels


def _adaptive_dinf(point):
    # D_∞ of the adaptive composition ≤ D_∞(P_X‖Q_X) + max_x D_∞(K_x‖K'_x), as ratios (exact):
    # max_{x,y} P_X(x)K_x(y) / (Q_X(x)K'_x(y)) ≤ r₁·r₂.
    px, qx, kernels = point["mechanisms"]
    r1 = max_ratio(px, qx)
    r2 = max(max_ratio(a, b) for a, b in kernels)
    joint = max(max_ratio(tuple(px[x] * kernels[x][0][y] for y in range(3)),
                          tuple(qx[x] * kernels[x][1][y] for y in range(3))) for x in range(4))
    return exact(joint, "<=", r1 * r2)


def _kfold_exact(point):
    # δ_k(kε) = 0: k-fold composition of ε-DP is kε-DP (exact rationals: decided exactly)
    return kov_delta(rational(point[eps]), point["k"], rational(point[eps]) * point["k"]), "=", 0


def _kfold_tight(point):
    # δ_k(kε(1 − 10⁻⁶)) > 0: no smaller ε' works with δ = 0 (k-fold randomized response)
    e = rational(point[eps])
    return kov_delta(e, point["k"], e * point["k"] * (1 - fmpq(1, 10**6))), ">", 0


CLAIMS = [
    Claim(
        id="lecture-advcomp-half",
        title="Advanced composition, ε' = ε√(2k log(1/δ')) + ½kε², (ε', kδ + δ')-DP",
        source=SOURCE_ADV,
        statement=r"k\ (\epsilon,\delta)\text{-DP} \Rightarrow (\epsilon', k\delta+\delta')\text{-DP},\ "
                  r"\epsilon' = \epsilon\sqrt{2k\log\frac{1}{\delta'}} + \frac12 k\epsilon^2",
        steps=(
            AtMost(eps * sp.tanh(eps / 2), eps**2 / 2,
                   "KOV Thm 3.5's second term is kε·tanh(ε/2) ≤ ½kε² (tanh x ≤ x): why this form is valid",
                   domain=Domain({eps: POSITIVE}, samples=30)),
            Holds("1 − (1−δ)^k (1 − δ_k(ε')) ≤ kδ + δ'", _half_form,
                  "exact k-fold adaptive composition of (ε,δ)-DP (Kairouz–Oh–Viswanath 2015, Thm 3.3)"),
            Holds("δ_k(ε') ≤ δ' for pure ε-DP mechanisms (δ = 0), ε ≤ 4", lambda point: _half_form({**point, delta: 0}),
                  "exact k-fold composition of ε-DP (KOV): the regime where the bound is not trivial",
                  domain=Domain({eps: sp.Interval.Lopen(0, 4), delta_p: UNIT}, objects={"k": COUNTS}, samples=40)),
        ),
        expected=Verdict.CHECKED,
        domain=Domain({eps: POSITIVE, delta: UNIT, delta_p: UNIT}, objects={"k": COUNTS},  # (δ = 0: the third step)
                      samples=60),
        note="True for every ε > 0 and any (ε,δ)-DP mechanisms, adaptively composed: checked against the exact "
             "optimal composition (KOV), k from 1 to 1000, ε from 10⁻³⁰ to 10¹². It is tighter than the DRV form "
             "of seed 002 (paper002-drv-advcomp). A numeric check of a theorem: CHECKED.",
    ),
    Claim(
        id="lecture-advcomp-regime",
        title="'ε' ≈ √k ε for k ≪ ε²' (as printed)",
        source=SOURCE_REGIME,
        statement=r"\epsilon' \approx \sqrt{k}\,\epsilon \text{ for } k \ll \epsilon^2",
        steps=(
            AtMost(k * (10 * sp.sqrt(k) * u) ** 2 / 2,
                   10 * sp.sqrt(k) * u * sp.sqrt(2 * k * sp.log(1 / delta_p)) / 10,
                   "with ε = 10√k·u, u ≥ 1 (i.e. k ≤ ε²/100): the ½kε² term would be ≤ 1/10 of ε√(2k log 1/δ')"),
        ),
        expected=Verdict.REFUTED,
        domain=Domain({k: sp.Interval(1, 10**6), u: sp.Interval(1, sp.oo), delta_p: UNIT}, samples=40),
        note="MIS-STATED: 'k ≪ ε²' should be 'k ≪ 1/ε²' (up to log(1/δ')). Formalised as: k ≤ ε²/100 makes the "
             "second term at most a tenth of the first. False everywhere: then ε ≥ 10, and ½kε² ≥ 50k dominates "
             "(k = 1, ε = 10, δ' = 10⁻⁵: 50 > 0.1·10·√(2 ln 10⁵) = 4.80). For ε ≤ 1 the condition k ≪ ε² cannot "
             "even hold with k ≥ 1. See lecture-advcomp-regime-corrected.",
    ),
    Claim(
        id="lecture-advcomp-regime-corrected",
        title="Corrected regime: kε² ≤ (8/100)·log(1/δ') ⇒ ½kε² ≤ (1/10)·ε√(2k log(1/δ'))",
        source=SOURCE_REGIME + " (corrected)",
        statement=r"k\epsilon^2 \le \tfrac{8}{100}\log\tfrac{1}{\delta'} \Rightarrow \tfrac12 k\epsilon^2 \le "
                  r"\tfrac{1}{10}\,\epsilon\sqrt{2k\log\tfrac{1}{\delta'}}",
        steps=(
            AtMost(k * (sp.sqrt(8 * v**2 * L / (100 * k))) ** 2 / 2,
                   sp.sqrt(8 * v**2 * L / (100 * k)) * sp.sqrt(2 * k * L) / 10,
                   "ε = v√(8L/(100k)) with v ∈ (0, 1], L = log(1/δ'): the sides are v²L/25 ≤ vL/25"),
        ),
        expected=Verdict.PROVED,
        # v = 1 is the equality case (kε² = 8L/100): the symbolic proof covers it; the numeric check samples
        # the open interval, where the balls can decide the strict inequality.
        domain=Domain({k: sp.Interval(1, 10**6), v: sp.Interval.open(0, 1), L: POSITIVE}, samples=40),
        note="The ratio ½kε²/(ε√(2kL)) is √k·ε/(2√(2L)): the second term is negligible iff k ≪ 8 log(1/δ')/ε², i.e. "
             "k ≪ 1/ε² up to the log factor. Then ε' ≈ ε√(2k log(1/δ')) (the slide also drops the √(2 log 1/δ') "
             "factor).",
    ),
    Claim(
        id="lecture-basic-composition",
        title="Basic composition: k ε-DP mechanisms compose to kε-DP, and kε is tight",
        source=SOURCE_BASIC,
        statement=r"\text{The total privacy loss of } k\ \epsilon\text{-DP functions is } k\epsilon",
        steps=(
            Holds("D_∞ of an adaptive composition ≤ D_∞(f) + max_x D_∞(g(x,·))", _adaptive_dinf,
                  "the density ratio of (X, Y) factorises: P_X(x)K_x(y)/(Q_X(x)K'_x(y)) ≤ r₁r₂",
                  domain=Domain(objects={"mechanisms": _adaptive_pair}, samples=60)),
            Holds("δ_k(kε) = 0 (the k-fold composition is kε-DP)", _kfold_exact,
                  "exact k-fold composition (KOV): no outcome has a loss above kε"),
            Holds("δ_k(kε(1 − 10⁻⁶)) > 0 (no smaller ε' with δ = 0)", _kfold_tight,
                  "k-fold randomized response reaches loss kε with positive probability"),
        ),
        expected=Verdict.CHECKED,
        domain=Domain({eps: sp.Interval.Lopen(0, 20)}, objects={"k": COUNTS}, samples=30),
        note="Adaptive composition checked in exact rationals on random finite mechanisms (two-step, 4 × 3 outcomes, "
             "probabilities down to 10⁻³⁰); the k-fold statement and its tightness against the exact composition "
             "(k ≤ 1000, ε ≤ 20). The seed's 'to do better we need a relaxation' is this tightness at δ = 0.",
    ),
]
