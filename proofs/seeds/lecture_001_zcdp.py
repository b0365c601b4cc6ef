"""Lecture deck (seed 001): zero-concentrated DP, D_α ≤ ξ + ρα for every α > 1.

Seed file /work/shared/seeds/001_d49504efe0d286ae.txt, slides "Zero concentrated
DP" (l.306–312, repeated l.316–325).  Seed 003 names zCDP (l.86, l.151) without
defining it.
"""

import sympy as sp
from flint import arb

import rdpsym
from rdpsym.accounting.conversions import gaussian_delta
from rdpsym.claims import Claim, Domain, Equal, Holds, Verdict, alpha
from rdpsym.claims.finite import ball, random_pmfs, renyi
from rdpsym.foundations.balls import to_arb

from ._seeds_util import (
    ORDERS,
    POSITIVE,
    UNIT,
    Delta,
    delta,
    rho,
    sigma,
    x_star_not_alone,
)

xi = sp.Symbol("xi", nonnegative=True)
L = sp.Symbol("L", positive=True)
lam_l = sp.Symbol("lambda", positive=True)   # Laplace scale (sensitivity 1)

SOURCE = ("Lecture deck (seed 001, 001_d49504efe0d286ae.txt), slide 'Zero concentrated DP', l.306–312 "
          "(repeated l.316–325)")


def _below_dinf(point):
    P, Q = point["laws"]
    return renyi(P, Q, point[alpha]), "<=", renyi(P, Q, sp.oo)


def _limit(point):
    # D_α(P‖Q) ≥ (α·log P(x*) + (1−α)·log Q(x*))/(α−1) = D_∞ + log P(x*)/(α−1), x* = argmax P/Q:
    # so D_α ≤ ε for every α forces D_∞ ≤ ε + log(1/P(x*))/(α−1) → ε.
    P, Q = point["laws"]
    a = ball(point[alpha])
    i = max(range(len(P)), key=lambda j: P[j] / Q[j])
    bound = arb(P[i] / Q[i]).log() + arb(P[i]).log() / (a - 1)
    return renyi(P, Q, point[alpha]), ">=", bound


def _conversion_gaussian(point):
    s, D, d = ball(point[sigma]), ball(point[Delta]), ball(point[delta])
    r = D * D / (2 * s * s)
    e = r + 2 * (r * (1 / d).log()).sqrt()
    return gaussian_delta(e, s, D), "<=", d


_h = sp.sqrt(L / rho)          # α* − 1
_curve_eps = xi + rho * alpha + L / (alpha - 1)   # Prop 3 applied to the zCDP curve ξ + ρα

CLAIMS = [
    Claim(
        id="lecture-zcdp-gaussian",
        title="The Gaussian mechanism is (0, Δ²/(2σ²))-zCDP",
        source=SOURCE + "; 'zCDP yields nice analyses of the Gaussian mechanism', l.325",
        statement=r"D_\alpha(\mathcal N(0,\sigma^2)\|\mathcal N(\Delta,\sigma^2)) \le \xi + \rho\alpha"
                  r"\ \text{with}\ \xi = 0,\ \rho = \frac{\Delta^2}{2\sigma^2}",
        steps=(
            Equal(lambda: rdpsym.gaussian(sigma=sigma, sensitivity=Delta).rdp(alpha).result,
                  0 + Delta**2 / (2 * sigma**2) * alpha,
                  "core derivation from the densities (completing the square)"),
        ),
        expected=Verdict.PROVED,
        domain=Domain({alpha: ORDERS, sigma: POSITIVE, Delta: POSITIVE}, samples=40),
        note="Equality, so the Gaussian is exactly (0, Δ²/2σ²)-zCDP; its D_∞ is infinite (notes-gaussian-not-pure), "
             "so it is not (ε, 0)-zCDP for any ε.",
    ),
    Claim(
        id="lecture-zcdp-pure-dp",
        title="'Clearly, (ε, 0)-zCDP ⟺ ε-DP'",
        source=SOURCE,
        statement=r"(\varepsilon, 0)\text{-zCDP} \iff \varepsilon\text{-DP}:\ "
                  r"\big(\forall \alpha\in(1,\infty):\ D_\alpha(P\|P') \le \varepsilon\big) \iff D_\infty(P\|P') \le \varepsilon",
        steps=(
            Holds("D_α(P‖Q) ≤ D_∞(P‖Q)   (⇐)", _below_dinf,
                  "E_Q[(P/Q)^α] ≤ e^{(α−1)D_∞}: monotonicity in α (Mironov Prop 9)"),
            Holds("D_α(P‖Q) ≥ D_∞(P‖Q) + log P(x*)/(α−1)   (⇒, as α → ∞)", _limit,
                  "keep only the term x* = argmax P/Q of the moment: D_∞ = lim_{α→∞} D_α",
                  domain=Domain({alpha: ORDERS}, objects={"laws": random_pmfs(2)}, samples=60, where=x_star_not_alone)),
            Holds("Laplace: D_α(Λ(0,λ)‖Λ(1,λ)) ≤ 1/λ = D_∞", lambda point: (
                      _laplace_value(point), "<=", 1 / ball(point[lam_l])),
                  "the core's Laplace curve at α, against its D_∞",
                  domain=Domain({alpha: ORDERS, lam_l: POSITIVE}, samples=40)),
        ),
        expected=Verdict.CHECKED,
        domain=Domain({alpha: ORDERS}, objects={"laws": random_pmfs(2)}, samples=60),
        note="True (the ε of (ε,0)-zCDP is ξ; ρ = 0). ⇐ is monotonicity, ⇒ is D_∞ = lim D_α, here with the explicit "
             "rate log(1/P(x*))/(α−1). Checked on random finite laws (probabilities down to 10⁻³⁰, α up to 10¹²) "
             "and on the Laplace mechanism's derived curve; 'for all distributions' is not formalised: CHECKED.",
    ),
    Claim(
        id="lecture-zcdp-conversion",
        title="'There are conversions between the two forms': (ξ, ρ)-zCDP ⇒ (ξ + ρ + 2√(ρ log 1/δ), δ)-DP",
        source=SOURCE + ", l.324",
        statement=r"(\xi,\rho)\text{-zCDP} \Rightarrow (\xi + \rho + 2\sqrt{\rho\log(1/\delta)},\ \delta)\text{-DP}",
        steps=(
            Equal(_curve_eps.subs(alpha, 1 + _h), xi + rho + 2 * sp.sqrt(rho * L),
                  "Prop 3 on the curve ξ + ρα at α* = 1 + √(L/ρ), L = log(1/δ)",
                  domain=Domain({xi: POSITIVE, rho: POSITIVE, L: POSITIVE}, samples=30)),
            Equal(sp.diff(_curve_eps, alpha).subs(alpha, 1 + _h), 0,
                  "α* is the minimiser: the derivative ρ − L/(α−1)² vanishes there (and the curve is convex)",
                  domain=Domain({xi: POSITIVE, rho: POSITIVE, L: POSITIVE}, samples=30)),
            Holds("Gaussian: δ_BW(ρ + 2√(ρ log 1/δ)) ≤ δ with ρ = Δ²/(2σ²)", _conversion_gaussian,
                  "exact Gaussian curve (Balle–Wang 2018) at the converted ε",
                  domain=Domain({sigma: POSITIVE, Delta: POSITIVE, delta: UNIT}, samples=50)),
        ),
        expected=Verdict.CHECKED,
        domain=Domain(),
        note="The slide only says conversions exist; the standard one (Bun–Steinke 2016, Prop 1.3) is Mironov's "
             "Prop 3 minimised over α, proved here symbolically, and checked against the exact Gaussian curve "
             "(where ρ-zCDP is exact). The validity of Prop 3 itself is a Mironov 2017 claim (mironov2017/).",
    ),
]


def _laplace_value(point):
    return to_arb(_laplace_curve(), {alpha: ball(point[alpha]), lam_l: ball(point[lam_l])})


_LAPLACE = []


def _laplace_curve():
    if not _LAPLACE:
        _LAPLACE.append(rdpsym.laplace(scale=lam_l).rdp(alpha).result)
    return _LAPLACE[0]
