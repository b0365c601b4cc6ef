"""Mironov 2017, Proposition 4 and Corollary 1: advanced composition through RDP.

Seed 002 l.338–370 (Prop 4 l.340–342, its proof l.343–360, Cor 1 l.366–370); seed 004
l.92–98 (the same statements in French).

Prop 4 is checked against the exact worst case.  By Kairouz–Oh–Viswanath (2015, Thm 3.3),
the privacy region of every adaptive composition of n ε-DP mechanisms lies inside that of
n-fold randomized response with e^ε = r: for every event S, (Q(S), P(S)) lies below the
Neyman–Pearson curve U of n-fold randomized response, U(t) = max{P(S') : Q(S') = t} over
randomized tests (its pieces of slope r^{n−2l} < 1 come from the (ε_i, δ_i)-DP guarantees in the
other direction, applied to complements).  U is computed in exact rationals
(``_dp_refs.rr_envelope``), so "P(S) ≤ g(Q(S)) for all S" is checked as U(t) ≤ g(t) at sampled
t = Q(S) ∈ (0, 1].  Corollary 1 is checked against the exact δ of the
composition, ``kov_delta`` (KOV / Murtagh–Vadhan).

Claims:

* ``mironov-prop4`` — the proposition (true);
* ``mironov-prop4-proof-step`` — the printed step 2(α−1)nε² < ε√(nL) (l.355): false when
  log(1/Q) ≥ 4nε²; ``mironov-prop4-proof-corrected`` — the proof redone with Bun–Steinke's ½;
* ``mironov-cor1`` — the corollary under its hypothesis log(1/δ) ≥ ε²n (true);
* ``mironov-cor1-no-hypothesis`` — the corollary without it (false).

Integer n: the claim framework samples rational intervals only, so n comes from an object
generator (a list of sizes, n = 1 first) and the checks are ``Holds`` relations.
"""

import sympy as sp
from flint import arb

from rdpsym.accounting.conversions import kov_delta
from rdpsym.claims import AtLeast, Claim, Domain, Equal, Holds, Verdict
from rdpsym.claims.finite import ball, rational
from rdpsym.foundations.balls import precision

from ._dp_refs import rr_envelope

r = sp.Symbol("r", positive=True)  # e^ε, an exact rational > 1
q_s = sp.Symbol("Q", positive=True)  # Q(S) = Pr[f(D') ∈ S]
eps = sp.Symbol("epsilon", positive=True)
delta = sp.Symbol("delta", positive=True)
n = sp.Symbol("n", positive=True)
L = sp.Symbol("L", positive=True)
s = sp.Symbol("s", nonnegative=True)

SIZES = (1, 2, 3, 5, 10, 30, 100, 400)
COR1_SIZES = (1, 2, 10, 100, 300, 1000)


def _sizes(values):
    def generate(rng, i):
        return values[i] if i < len(values) else rng.choice(values)
    return generate


def _prop4(point):
    """U(t) ≤ t·exp(2ε√(n log(1/t))) with U the exact worst case of n-fold randomized response."""
    rq, k, t = rational(point[r]), point["n"], rational(point[q_s])
    e = arb(rq).log()
    bound = arb(t) * (2 * e * (k * -arb(t).log()).sqrt()).exp()
    return arb(rr_envelope(rq, k, t)), "<=", bound


def _printed_step(point):
    """The printed Case-I step at α = √(log 1/Q)/(ε√n): exp(2(α−1)nε²)·Q^{1−1/α} < exp(ε√(nL) − (log Q)/α)·Q."""
    e, k, qq = ball(point[eps]), point["n"], ball(point[q_s])
    lq = -qq.log()
    a = lq.sqrt() / (e * arb(k).sqrt())
    lhs = (2 * (a - 1) * k * e * e).exp() * qq ** (1 - 1 / a)
    rhs = (e * (k * lq).sqrt() + lq / a).exp() * qq
    return lhs, "<", rhs


def _case_one(point):
    """Case I of the proof: log(1/Q) ≥ ε²n (certified; a tie is excluded, it cannot be decided)."""
    with precision(256):
        gap = -ball(point[q_s]).log() - point["n"] * ball(point[eps]) ** 2
    return bool(gap > 0)


def _cor1(point):
    """kov_delta(ε, n, ε') ≤ δ at ε' = 4ε√(2n log(1/δ)): the exact δ of n-fold ε-DP composition."""
    e, k, d = rational(point[eps]), point["n"], ball(point[delta])
    eps_total = 4 * arb(e) * (2 * k * -d.log()).sqrt()
    return kov_delta(e, k, eps_total), "<=", d


def _hypothesis(point):
    """log(1/δ) ≥ ε²n, decided in balls; a point where the balls cannot decide it is left out."""
    with precision(256):
        gap = -ball(point[delta]).log() - point["n"] * ball(point[eps]) ** 2
    return bool(gap >= 0)


COR1_DOMAIN = {"variables": {eps: sp.Interval.open(0, sp.oo), delta: sp.Interval.open(0, 1)},
                   "objects": {"n": _sizes(COR1_SIZES)}}

CLAIMS = [
    Claim(
        id="mironov-prop4",
        title="Probability-dependent advanced composition",
        source="Mironov 2017, Proposition 4 (seed 002 l.338–342; seed 004 l.92–94)",
        statement=r"\Pr[f(D)\in S]\le\exp\left(2\epsilon\sqrt{n\log 1/\Pr[f(D')\in S]}\right)\cdot\Pr[f(D')\in S]",
        steps=(Holds("max{P(S) : Q(S) = t} ≤ t·exp(2ε√(n log 1/t)) for n-fold RR", _prop4,
                     "n-fold randomized response is the worst adaptive composition of ε-DP mechanisms "
                     "(KOV 2015 Thm 3.3); its Neyman–Pearson curve bounds P(S) for every event",
                     latex=r"U_{n,\epsilon}(t) \le t\,e^{2\epsilon\sqrt{n\log 1/t}}"),),
        expected=Verdict.CHECKED,
        domain=Domain({r: sp.Interval.open(1, sp.oo), q_s: sp.Interval.Lopen(0, 1)},
                      objects={"n": _sizes(SIZES)}, samples=200, seed=40),
        hypotheses=(r"n \ge 1", r"\epsilon > 0", r"0 < \Pr[f(D')\in S] \le 1"),
        note="ε = log r with r from 1 + 1e-30 to 1e12, n ∈ {1, 2, 3, 5, 10, 30, 100, 400}, Q(S) from 1e-30 to 1. "
             "True, but the printed proof needs the constant ½ (mironov-prop4-proof-step).",
    ),
    Claim(
        id="mironov-prop4-proof-step",
        title="Prop 4's proof, Case I: exp(2(α−1)nε²)·Q^{1−1/α} < exp(ε√(n log 1/Q) − (log Q)/α)·Q",
        source="Mironov 2017, proof of Proposition 4 (seed 002 l.353–356)",
        statement=r"\alpha=\frac{\sqrt{\log 1/Q}}{\epsilon\sqrt n},\ \log\frac1Q\ge\epsilon^2 n:\quad "
                  r"\exp(2(\alpha-1)n\epsilon^{2})\cdot Q^{1-1/\alpha}"
                  r"<\exp\left(\epsilon\sqrt{n\log 1/Q}-(\log Q)/\alpha\right)\cdot Q",
        steps=(Holds("exp(2(α−1)nε²)·Q^{1−1/α} < exp(ε√(nL) − (log Q)/α)·Q", _printed_step,
                     "the printed step; after logs it reads 2ε√(nL) − 2nε² < ε√(nL), i.e. L < 4nε²"),),
        expected=Verdict.REFUTED,
        domain=Domain({eps: sp.Interval.open(0, sp.oo), q_s: sp.Interval.open(0, 1)},
                      objects={"n": _sizes(SIZES)}, where=_case_one, samples=60, seed=41),
        note="False whenever log(1/Q) ≥ 4nε² (e.g. n = 1, ε = 0.1, Q = 1e-3: 0.506 > 0.263 in the exponent). "
             "The proposition survives: mironov-prop4-proof-corrected.",
    ),
    Claim(
        id="mironov-prop4-proof-corrected",
        title="Prop 4's proof with the ½ constant (Bun–Steinke)",
        source="Mironov 2017, Proposition 4, proof redone with Bun–Steinke 2016 Prop 3.3 (cf. l.336)",
        statement=r"D_\alpha \le \tfrac12\alpha n\epsilon^2,\ \alpha^*=\sqrt{\tfrac{2L}{n\epsilon^2}},\ L=\log\tfrac1Q:"
                  r"\ \log P(S) \le (1-\tfrac1{\alpha^*})(\tfrac12\alpha^* n\epsilon^2 - L) = \sqrt2\epsilon\sqrt{nL}"
                  r"-\tfrac12 n\epsilon^2-L \le 2\epsilon\sqrt{nL}-L",
        steps=(
            Equal((1 - 1 / sp.sqrt(2 * L / (n * eps**2))) * (sp.sqrt(2 * L / (n * eps**2)) * n * eps**2 / 2 - L),
                  sp.sqrt(2) * eps * sp.sqrt(n * L) - n * eps**2 / 2 - L,
                  "Prop 10 with D_α ≤ ½αnε² (bs-lemma1-half composed n times by Prop 1), at α = α*"),
            Equal(2 * eps * sp.sqrt(n * L) - L - (sp.sqrt(2) * eps * sp.sqrt(n * L) - n * eps**2 / 2 - L),
                  (2 - sp.sqrt(2)) * eps * sp.sqrt(n * L) + n * eps**2 / 2,
                  "the claimed exponent minus the one obtained"),
            AtLeast((2 - sp.sqrt(2)) * eps * sp.sqrt(n * L) + n * eps**2 / 2, 0, "a sum of nonnegative terms"),
            AtLeast(2 * eps * sp.sqrt(n * n * eps**2 / (2 * (1 + s))) - n * eps**2 / (2 * (1 + s)), 0,
                    "Case α* ≤ 1, i.e. L = nε²/(2(1+s)), s ≥ 0: the claimed bound is ≥ Q·e^L = 1",
                    domain=Domain({eps: sp.Interval.open(0, sp.oo), n: sp.Interval(1, sp.oo),
                                   s: sp.Interval(0, sp.oo)})),
        ),
        expected=Verdict.PROVED,
        domain=Domain({eps: sp.Interval.open(0, sp.oo), n: sp.Interval(1, sp.oo), L: sp.Interval.open(0, sp.oo)}),
        hypotheses=(r"D_\alpha(f(D)\|f(D')) \le \tfrac12\alpha n\epsilon^2 \ (\alpha>1)",
                    r"\text{Prop 10 at } \alpha^* > 1"),
        note="With the ½ constant the chain closes: P(S) ≤ exp(√2ε√(nL) − ½nε²)·Q ≤ exp(2ε√(nL))·Q.",
    ),
    Claim(
        id="mironov-cor1",
        title="Advanced composition: (4ε√(2n log(1/δ)), δ)-DP when log(1/δ) ≥ ε²n",
        source="Mironov 2017, Corollary 1 (seed 002 l.366–370; seed 004 l.98)",
        statement=r"0<\delta<1,\ \log(1/\delta)\ge\epsilon^2 n \implies f \text{ is } (\epsilon',\delta)\text{-DP},\ "
                  r"\epsilon' = 4\epsilon\sqrt{2n\log(1/\delta)}",
        steps=(Holds("δ_KOV(ε'; ε, n) ≤ δ", _cor1,
                     "exact δ(ε') of n-fold composition of ε-DP (Kairouz–Oh–Viswanath 2015; Murtagh–Vadhan 2016)",
                     latex=r"\delta_{\mathrm{KOV}}(4\epsilon\sqrt{2n\log(1/\delta)};\epsilon,n)\le\delta"),),
        expected=Verdict.CHECKED,
        domain=Domain(**COR1_DOMAIN, where=_hypothesis, samples=400, seed=42),
        hypotheses=(r"0<\delta<1", r"\log(1/\delta)\ge\epsilon^2 n"),
        note="Under the hypothesis ε' < nε (better than basic composition) needs 32·log(1/δ) < n, so ε < 1/√32; "
             "elsewhere the exact δ is 0.",
    ),
    Claim(
        id="mironov-cor1-no-hypothesis",
        title="Corollary 1 without its hypothesis log(1/δ) ≥ ε²n",
        source="Mironov 2017, Corollary 1 (seed 002 l.368) with the hypothesis dropped",
        statement=r"0<\delta<1 \implies f \text{ is } (4\epsilon\sqrt{2n\log(1/\delta)},\delta)\text{-DP}",
        steps=(Holds("δ_KOV(ε'; ε, n) ≤ δ", _cor1, "as in mironov-cor1, on all ε > 0, n, 0 < δ < 1"),),
        expected=Verdict.REFUTED,
        domain=Domain(**COR1_DOMAIN, samples=120, seed=43),
        note="The hypothesis is needed in general (survey: ε = 3, n = 1000, δ = 1e-3 has exact δ ≈ 1), "
             "though not always (ε = 0.5, n = 2000, δ = 1e-3 holds anyway).",
    ),
]
