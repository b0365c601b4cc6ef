"""Notes (seed 003): the subgaussian tail of (μ, τ)-CDP (Dwork–Rothblum 2016).

Seed file /work/shared/seeds/003_99d63cfe81f5c671.txt, "Concentrated
Differential Privacy (CDP)" (definitions l.87–139, the tail bound l.140–149).
"""

import functools

import sympy as sp
from flint import arb, fmpq

import rdpsym
from rdpsym.claims import Claim, Domain, Equal, Holds, Verdict, symbolic
from rdpsym.claims.finite import ball, rational
from rdpsym.laws.pairs import x

from ._seeds_util import POSITIVE, Delta, cases, normal_sf, sigma, t

SOURCE = ("Notes (seed 003, 003_99d63cfe81f5c671.txt), '(μ,τ)-CDP', l.140–146 (definitions l.87–139: subgaussian "
          "l.87–106, privacy loss l.108–127, subgaussian divergence l.129–138)")
STATEMENT = (r"D_{\mathrm{subG}}(f(D)\|f(D')) \preceq (\mu,\tau) \Rightarrow "
             r"\Pr(L_{(Y\Vert Z)}\ge \mu+ t\cdot\tau) \le \exp\left(- \frac{t^{2}}{2}\right)")

lam = sp.Symbol("lambda", real=True)
tau = sp.Symbol("tau", positive=True)
tt = sp.Symbol("t", positive=True)
pr = sp.Symbol("p", positive=True)
s = sp.Symbol("s", positive=True)   # Δ/σ for the Gaussian mechanism
w = sp.Symbol("w", nonnegative=True)   # t as a fraction of 2 − 2p (randomized response)


def _gaussian_loss():
    """The privacy loss L = log P/Q (x) of the Gaussian pair P = N(0,σ²), Q = N(Δ,σ²), from the core's densities."""
    P, Q = rdpsym.gaussian(sigma=sigma, sensitivity=Delta).pair
    return P, sp.expand(sp.expand_log(sp.log(P.pdf / Q.pdf)))


@functools.cache
def _mean_loss():
    # (expanded: term by term sympy.integrate takes 0.1 s; on the product, through Meijer G-functions, 0.8 s)
    P, L = _gaussian_loss()
    return symbolic.integrate(sp.expand(P.pdf * L), (x, -sp.oo, sp.oo))


def _centred_mgf():
    P, L = _gaussian_loss()
    return sp.log(symbolic.integrate(P.pdf * sp.exp(lam * (L - _mean_loss())), (x, -sp.oo, sp.oo)))


def _gaussian_tail(point):
    # L ~ N(s²/2, s²) with s = Δ/σ, and the CDP parameters are μ = E L = s²/2, τ = s (exact, above):
    # Pr[L ≥ μ + tτ] = Φ̄((μ + tτ − E L)/s) = Φ̄(t).
    ss, tv = ball(point[s]), ball(point[t])
    mean, mu, tau_ = ss * ss / 2, ss * ss / 2, ss
    return normal_sf((mu + tv * tau_ - mean) / ss), "<=", (-(tv * tv) / 2).exp()


def _gaussian_case(point):
    c = point["example"]
    return _gaussian_tail({s: c["Delta/sigma"], t: c["t"]})


def _rr_tail(point):
    # Randomized response, truth with probability p > 1/2: L = ±a with a = log(p/(1−p)), Pr[L = a] = p.
    # μ = E L = (2p − 1)a (= KL), τ = a (Hoeffding: L − EL lies in an interval of length 2a).
    # L = a ≥ μ + ta ⟺ t ≤ 2 − 2p;  L = −a ≥ μ + ta ⟺ t ≤ −2p  (exact rationals).
    pv = rational(point[pr])
    # t ∈ [0, 2 − 2p]: where the event {L = a} still counts (t > 2 − 2p: Pr = 0)
    tv = rational(point[w]) * (2 - 2 * pv)
    prob = (pv if tv <= 2 - 2 * pv else fmpq(0)) + ((1 - pv) if tv <= -2 * pv else fmpq(0))
    return arb(prob), "<=", (-(arb(tv) ** 2) / 2).exp()


HALF_ONE = sp.Interval.open(sp.Rational(1, 2), 1)

CLAIMS = [
    Claim(
        id="notes-cdp-tail",
        title="(μ, τ)-CDP tail bound Pr[L ≥ μ + tτ] ≤ e^{−t²/2}, as printed (no range for t)",
        source=SOURCE,
        statement=STATEMENT,
        steps=(
            Equal(_mean_loss, Delta**2 / (2 * sigma**2),
                  "Gaussian mechanism: E[L] = Δ²/(2σ²) = μ (sympy integral of the core's densities)",
                  domain=Domain({sigma: POSITIVE, Delta: POSITIVE}, samples=20),
                  latex=r"\mathrm{E}_{x\sim P}[L(x)] = \int_{-\infty}^{\infty} P(x)\log\frac{P(x)}{Q(x)}\,dx"
                        r" = \frac{\Delta^2}{2\sigma^2}"),
            Equal(_centred_mgf, lam**2 * (Delta / sigma) ** 2 / 2,
                  "log E e^{λ(L − EL)} = λ²τ²/2 with τ = Δ/σ: L − EL is exactly τ-subgaussian",
                  domain=Domain({sigma: POSITIVE, Delta: POSITIVE, lam: sp.Interval(-10, 10)}, samples=20),
                  latex=r"\log \mathrm{E}_{x\sim P}\left[e^{\lambda(L(x) - \mathrm{E}L)}\right]"
                        r" = \frac{\lambda^2}{2}\cdot\frac{\Delta^2}{\sigma^2}"),
            Holds("Gaussian, Δ/σ = 1, t = −1: Pr[L ≥ μ + tτ] ≤ e^{−t²/2}", _gaussian_case,
                  "the survey's example: Φ̄(−1) = 0.8413 > e^{−1/2} = 0.6065",
                  domain=Domain(objects={"example": cases({"Delta/sigma": 1, "t": -1})}, samples=1)),
            Holds("Gaussian: Pr[L ≥ μ + tτ] ≤ e^{−t²/2} for t ∈ [−3, 10]", _gaussian_tail,
                  "L ~ N(μ, τ²) exactly, so the left side is Φ̄(t)"),
        ),
        expected=Verdict.REFUTED,
        domain=Domain({s: POSITIVE, t: sp.Interval(-3, 10)}, samples=40),
        note="MIS-STATED: true for t ≥ 0 only (notes-cdp-tail-corrected). For t < 0 the right side is below 1 while "
             "the left side tends to 1: the Gaussian mechanism is (Δ²/2σ², Δ/σ)-CDP (the first two steps prove "
             "both hypotheses, with equality) and at Δ/σ = 1, t = −1 has Pr[L ≥ μ − τ] = 0.8413 > 0.6065.",
    ),
    Claim(
        id="notes-cdp-tail-corrected",
        title="(μ, τ)-CDP tail bound for t ≥ 0",
        source=SOURCE + " (with t ≥ 0)",
        statement=STATEMENT.replace(r"\Rightarrow", r"\Rightarrow \forall t \ge 0:"),
        steps=(
            Equal(sp.exp(-(tt / tau) * tt * tau + (tt / tau) ** 2 * tau**2 / 2), sp.exp(-tt**2 / 2),
                  "Chernoff: Pr[L − EL ≥ tτ] ≤ e^{−λtτ + λ²τ²/2}, minimised at λ = t/τ; then E L ≤ μ",
                  domain=Domain({tt: POSITIVE, tau: POSITIVE}, samples=20)),
            Holds("Gaussian mechanism: Pr[L ≥ μ + tτ] ≤ e^{−t²/2}", _gaussian_tail,
                  "L ~ N(μ, τ²): Φ̄(t) ≤ e^{−t²/2}",
                  domain=Domain({s: POSITIVE, t: sp.Interval(0, sp.oo)}, samples=40)),
            Holds("randomized response (τ from Hoeffding): Pr[L ≥ μ + tτ] ≤ e^{−t²/2}", _rr_tail,
                  "two-point loss ±log(p/(1−p)), μ = KL, τ = log(p/(1−p))",
                  domain=Domain({pr: HALF_ONE, w: sp.Interval(0, 1)}, samples=60)),
        ),
        expected=Verdict.CHECKED,
        domain=Domain(),
        note="The Chernoff optimisation is proved; the Markov step and 'for every subgaussian loss' are not "
             "formalised, so the bound is checked on two mechanisms whose CDP parameters are exact (Gaussian) or "
             "valid (randomized response, τ by Hoeffding's lemma): CHECKED.",
    ),
]
