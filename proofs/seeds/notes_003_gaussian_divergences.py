"""Notes (seed 003): the Gaussian mechanism's calibration (without ε < 1), 'not ε-DP', KL as E[L], D_∞ and ε-DP.

Seed file /work/shared/seeds/003_99d63cfe81f5c671.txt: "Gaussian Mechanism"
(l.67–81), "Privacy Loss Random Variable" (l.108–127), "(α,ε)-RDP" (l.185–197).
"""

import sympy as sp

import rdpsym
from rdpsym.accounting.conversions import gaussian_delta
from rdpsym.claims import Claim, Domain, Equal, Holds, Verdict, symbolic
from rdpsym.claims.finite import (
    all_events,
    ball,
    mass,
    max_ratio,
    random_pmfs,
    rational,
)
from rdpsym.laws.pairs import x

from ._seeds_util import POSITIVE, UNIT, Delta, cases, delta, eps, exact, p, sigma

NOTES = "Notes (seed 003, 003_99d63cfe81f5c671.txt)"
M = sp.Symbol("M", positive=True)
kappa = sp.Symbol("kappa", positive=True)   # σ as a multiple (> 1) of the threshold √(2 log(1.25/δ))Δ/ε


def _threshold(e, d, D):
    return (2 * (ball(sp.Rational(5, 4)) / ball(d)).log()).sqrt() * ball(D) / ball(e)


def _no_range(point):
    e, d, D = point[eps], point[delta], point[Delta]
    s = ball(point[kappa]) * _threshold(e, d, D)
    return gaussian_delta(rational(e), s, rational(D)), "<=", ball(d)


def _no_range_case(point):
    c = point["example"]
    s = c["sigma"]
    assert ball(s) > _threshold(c["epsilon"], c["delta"], 1)   # the example satisfies σ > √(2 log(1.25/δ))/ε
    return gaussian_delta(rational(c["epsilon"]), rational(s)), "<=", ball(c["delta"])


def _log_ratio_at():
    # log P/Q of the core's Gaussian pair at x_M = (Δ² − 2σ²M)/(2Δ): the loss reaches any level M
    P, Q = rdpsym.gaussian(sigma=sigma, sensitivity=Delta).pair
    x_m = (Delta**2 - 2 * sigma**2 * M) / (2 * Delta)
    return sp.expand_log(sp.log(P.pdf / Q.pdf).subs(x, x_m))


def _kl_by_integral():
    P, Q = rdpsym.gaussian(sigma=sigma, sensitivity=Delta).pair
    return symbolic.integrate(P.pdf * sp.expand(sp.expand_log(sp.log(P.pdf / Q.pdf))), (x, -sp.oo, sp.oo))


def _dinf_sets(point):
    # D_∞(P‖Q) ≤ ε ⟹ ∀S: P(S) ≤ e^ε Q(S); with e^ε = max P/Q (the least such ε), exactly
    P, Q = point["laws"]
    r = max_ratio(P, Q)
    worst = max(mass(P, S) - r * mass(Q, S) for S in all_events(len(P), nonempty=True))
    return exact(worst, "<=", 0)


CLAIMS = [
    Claim(
        id="notes-gaussian-no-eps-range",
        title="Gaussian mechanism with σ > √(2 log(1.25/δ))Δ₂f/ε, as printed without 'ε < 1'",
        source=NOTES + ", 'Gaussian Mechanism', l.67–76",
        statement=r"\mathbf{G}_{\epsilon,\delta} f(x) \triangleq f(x) + N(0,\sigma^2),\ "
                  r"\sigma > \sqrt{2\log(1.25/\delta)}\Delta_2 f/\epsilon \Rightarrow (\epsilon,\delta)\text{-DP}",
        steps=(
            Holds("δ_BW(ε; σ) ≤ δ at δ = 10⁻⁵, ε = 10, σ = 0.4845 (> 0.484481)", _no_range_case,
                  "the survey's example: δ_BW = 2.263·10⁻⁵ > 10⁻⁵",
                  domain=Domain(objects={"example": cases({"epsilon": 10, "delta": "1/100000",
                                                           "sigma": "0.4845"})}, samples=1)),
            Holds("δ_BW(ε; κ·threshold, Δ) ≤ δ, κ ∈ (1, 1.1]", _no_range, "exact Gaussian curve (Balle–Wang 2018)"),
        ),
        expected=Verdict.REFUTED,
        domain=Domain({eps: POSITIVE, delta: UNIT, Delta: POSITIVE, kappa: sp.Interval.Lopen(1, sp.Rational(11, 10))},
                      samples=40),
        note="FALSE as printed: the hypothesis ε < 1 (seed 002 l.74, seed 001 l.262, seed 004 l.15) is dropped. It "
             "fails for every ε above ε*(δ) (8.42 at δ = 10⁻⁵; see lecture-gaussian-v1-boundary). Corrected: add "
             "0 < ε < 1 (lecture-gaussian-v1; ε ≤ 3.78 suffices for every δ < 1).",
    ),
    Claim(
        id="notes-gaussian-not-pure",
        title="The Gaussian mechanism is not ε-DP for any ε: its privacy loss is unbounded",
        source=NOTES + ", 'Gaussian Mechanism', l.81",
        statement=r"\text{the Gaussian mechanism does not satisfy } \epsilon\text{-DP: } "
                  r"\forall M\ \exists x:\ \log\frac{\mathcal N(0,\sigma^2)(x)}{\mathcal N(\Delta,\sigma^2)(x)} = M",
        steps=(
            Equal(_log_ratio_at, M, "the log-ratio (Δ² − 2Δx)/(2σ²) is affine in x: at x_M it equals M"),
        ),
        expected=Verdict.PROVED,
        domain=Domain({sigma: POSITIVE, Delta: POSITIVE, M: POSITIVE}, samples=30),
        note="The notes (in Korean, seed 003 l.81): 'Note that the Gaussian mechanism does not satisfy ε-DP.' "
             "Every level M > 0 of the loss is reached, so D_∞ = ∞ and no ε works (a loss above ε on a set of "
             "positive probability: the half-line x < x_ε). The core's own D_∞ derivation gives ∞ too "
             "(notes-gaussian-not-pure-core).",
    ),
    Claim(
        id="notes-gaussian-not-pure-core",
        title="The core derives D_∞(N(0,σ²)‖N(Δ,σ²)) = ∞",
        source=NOTES + ", 'Gaussian Mechanism', l.81; Mironov 2017 Table II (Gaussian, α = ∞)",
        statement=r"D_\infty(\mathcal N(0,\sigma^2)\|\mathcal N(\Delta,\sigma^2)) = \infty",
        steps=(
            Equal(lambda: rdpsym.gaussian(sigma=sigma, sensitivity=Delta).rdp(sp.oo).result, sp.oo,
                  "core derivation: the supremum of the log-ratio, piece by piece"),
        ),
        expected=Verdict.PROVED,
        domain=Domain({sigma: POSITIVE, Delta: POSITIVE}, samples=10),
        note="The core derives D_∞ = ∞ symbolically (the log-ratio is linear in x and unbounded); "
             "notes-gaussian-not-pure shows the loss is unbounded directly.",
    ),
    Claim(
        id="notes-kl-loss",
        title="E_Y[L(Y‖Z)] = KL(Y‖Z) (the mean privacy loss is the KL divergence)",
        source=NOTES + ", 'Privacy Loss Random Variable', l.108–126",
        statement=r"\mathrm{E}_{Y}\left[L_{(Y\Vert Z)}\right]=\mathrm{KL}(Y\Vert Z)",
        steps=(
            Equal(_kl_by_integral, lambda: rdpsym.gaussian(sigma=sigma, sensitivity=Delta).rdp(1).result,
                  "Gaussian: ∫ P log(P/Q) (sympy) against the core's D₁ (= I'(1)/I(1) of the moment I(α))",
                  domain=Domain({sigma: POSITIVE, Delta: POSITIVE}, samples=20),
                  latex=r"\int_{-\infty}^{\infty} P(x)\log\frac{P(x)}{Q(x)}\,dx = D_1(P\|Q) = \frac{\Delta^2}{2\sigma^2},"
                        r"\quad P = \mathcal N(0,\sigma^2),\ Q = \mathcal N(\Delta,\sigma^2)"),
            Equal(p * sp.log(p / (1 - p)) + (1 - p) * sp.log((1 - p) / p),
                  lambda: rdpsym.randomized_response(p).rdp(1).result,
                  "randomized response: E_Y[L] summed over the two outcomes, against the core's D₁",
                  domain=Domain({p: UNIT}, samples=20)),
        ),
        expected=Verdict.PROVED,
        domain=Domain(),
        note="A definition for laws with the same support (the notes' setting); checked here against the core, "
             "which computes D₁ as the derivative of the Rényi moment at α = 1, i.e. as the limit of D_α.",
    ),
    Claim(
        id="seeds-dinf-pure-dp",
        title="D_∞(f(D)‖f(D')) ≤ ε for all neighbours ⟹ ε-DP ('(∞, ε)-RDP is ε-DP')",
        source=NOTES + ", '(α,ε)-RDP', l.187–197; slides (seed 000, 000_862670cc7525ea27.txt) l.140–144 and l.160; "
               "notes (seed 004) l.85 ('(∞, ε)-RDP')",
        statement=r"D_{\infty}(f(D)\Vert f(D')) \le \epsilon \Rightarrow f \text{ is } \epsilon\text{-DP}",
        steps=(
            Holds("max_S P(S) − e^{D_∞(P‖Q)} Q(S) ≤ 0", _dinf_sets,
                  "sum P(x) ≤ e^ε Q(x) over x ∈ S (exact rationals, all 31 events)"),
        ),
        expected=Verdict.CHECKED,
        domain=Domain(objects={"laws": random_pmfs(2)}, samples=60),
        note="With e^ε = max P/Q exactly, the singleton of the argmax gives equality (decided: exact arithmetic). The "
             "converse (ε-DP ⟹ D_∞ ≤ ε) is lecture-dp-loss-def. Finite laws only: CHECKED.",
    ),
]
