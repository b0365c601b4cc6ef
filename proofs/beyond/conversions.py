"""RDP → (ε, δ)-DP conversions users expect beyond Mironov 2017 (statements.md, last section).

* ``balle-conversion`` — Balle, Barthe, Gaboardi, Hsu, Sato 2020 (arXiv:1905.09982) Thm 21,
  = Canonne–Kamath–Steinke 2020 (arXiv:2004.00010) Prop 12:
  (α, r)-RDP ⇒ (r + log((α−1)/α) − (log δ + log α)/(α−1), δ)-DP, checked against the exact
  hockey-stick δ of finite pairs and of the Gaussian mechanism (Balle–Wang curve);
  ``balle-cks-forms`` — the ε(δ) and δ(ε) forms are inverse to each other (symbolic);
* ``balle-vs-prop3`` — it is never worse than Mironov's Prop 3 (symbolic);
* ``gaussian-conversion-loss`` — how much each conversion loses on the Gaussian mechanism:
  exact ε(δ) ≤ Balle ≤ Prop 3, and exact ≤ zCDP;
* ``bs-zcdp-to-dp`` — Bun–Steinke 2016 Prop 1.3, ρ-zCDP ⇒ (ρ + 2√(ρ log 1/δ), δ)-DP, as the
  infimum over α of Prop 3 on the curve ρα (symbolic);
* ``notes-moments-accountant`` — seed 003 l.225–259: α_M(λ) = λ·D_{λ+1}, and the moments
  accountant's ε(δ), δ(ε) are Prop 3 at α = λ + 1 (symbolic); ``rdpsym-moments-bridge``
  checks that rdpsym's implementations agree.
"""

import functools

import sympy as sp
from flint import arb, ctx

import rdpsym
from rdpsym import alpha
from rdpsym.accounting.conversions import (
    balle_epsilon,
    gaussian_epsilon,
    mironov_delta,
    mironov_epsilon,
    moments_delta,
    moments_epsilon,
    zcdp_epsilon,
)
from rdpsym.claims import AtLeast, Claim, Domain, Equal, Holds, Verdict
from rdpsym.claims.finite import ball, hockey_stick, random_pmfs, rational, renyi

from ._beyond_refs import gaussian_delta_any

delta = sp.Symbol("delta", positive=True)
sigma = sp.Symbol("sigma", positive=True)
r = sp.Symbol("r", nonnegative=True)
eps = sp.Symbol("epsilon", real=True)
rho = sp.Symbol("rho", positive=True)
L = sp.Symbol("L", positive=True)  # log(1/δ)
lam = sp.Symbol("lambda", positive=True)
A = sp.Symbol("A", nonnegative=True)  # a log-moment bound α_M(λ)
M = sp.Symbol("M", positive=True)  # a moment E_Q[(P/Q)^{λ+1}] ≥ 1
x = sp.Symbol("x", positive=True)
y = sp.Symbol("y", positive=True)

ORDERS = sp.Interval.open(1, sp.oo)
UNIT = sp.Interval.open(0, 1)
POSITIVE = sp.Interval.open(0, sp.oo)

#: The two conversions, as printed.
PROP3 = r + sp.log(1 / delta) / (alpha - 1)
BALLE = r + sp.log((alpha - 1) / alpha) - (sp.log(delta) + sp.log(alpha)) / (alpha - 1)


def _gaussian_curve(point) -> arb:
    s = ball(point[sigma])
    return ball(point[alpha]) / (2 * s * s)


# --------------------------------------------------------------------------- numeric checks


def _balle_pairs(flip: bool):
    def compare(point):
        p, q = point["laws"]
        if flip:
            p, q = q, p
        e = balle_epsilon(rational(point[alpha]), renyi(p, q, point[alpha]), rational(point[delta]))
        return hockey_stick(p, q, e), "<=", ball(point[delta])
    return compare


def _balle_gaussian(point):
    e = balle_epsilon(rational(point[alpha]), _gaussian_curve(point), rational(point[delta]))
    return gaussian_delta_any(e, ball(point[sigma])), "<=", ball(point[delta])


@functools.lru_cache(maxsize=512)
def _exact_epsilon(d, s, bits: int) -> arb:
    """The exact Gaussian ε(δ; σ) (a certified bisection), once per point and precision: two steps ask for it."""
    return gaussian_epsilon(d, s)


def _exact_vs_balle(point):
    exact = _exact_epsilon(rational(point[delta]), rational(point[sigma]), ctx.prec)
    e = balle_epsilon(rational(point[alpha]), _gaussian_curve(point), rational(point[delta]))
    return exact, "<=", e.max(arb(0))


def _balle_vs_mironov(point):
    a, d, curve = rational(point[alpha]), rational(point[delta]), _gaussian_curve(point)
    return balle_epsilon(a, curve, d).max(arb(0)), "<=", mironov_epsilon(a, curve, d)


def _exact_vs_zcdp(point):
    s = ball(point[sigma])
    exact = _exact_epsilon(rational(point[delta]), rational(point[sigma]), ctx.prec)
    return exact, "<=", zcdp_epsilon(1 / (2 * s * s), rational(point[delta]))


def _moments_eps(point):
    """rdpsym's moments accountant ε at one λ equals its Prop 3 at α = λ + 1 (curve value r)."""
    lm, rr, d = rational(point[lam]), rational(point[r]), rational(point[delta])
    e, _, _ = moments_epsilon([(lm, lm * rr)], d)
    return e, "=", mironov_epsilon(lm + 1, rr, d)


def _moments_delta(point):
    lm, rr, e = rational(point[lam]), rational(point[r]), rational(point["eps_value"])
    d, _, _ = moments_delta([(lm, lm * rr)], e)
    return d, "=", mironov_delta(lm + 1, rr, e)


GAUSS = Domain({alpha: ORDERS, sigma: POSITIVE, delta: UNIT}, samples=150, seed=21)
PAIRS = Domain({alpha: ORDERS, delta: UNIT}, objects={"laws": random_pmfs(2)}, samples=150, seed=22)
GAUSS_LOSS = Domain({alpha: ORDERS, sigma: POSITIVE, delta: UNIT}, samples=80, seed=23)


def _gaussian_rdp():
    """The core's derivation of the Gaussian mechanism's curve at order α (σ symbolic)."""
    return rdpsym.gaussian(sigma=sigma).rdp(alpha).result


CLAIMS = [
    Claim(
        id="balle-conversion",
        title="The improved RDP → (ε, δ)-DP conversion is valid",
        source="Balle et al. 2020 (arXiv:1905.09982) Thm 21; Canonne–Kamath–Steinke 2020 (arXiv:2004.00010) "
               "Prop 12; statements.md",
        statement=r"(\alpha, r)\text{-RDP} \implies (\epsilon,\delta)\text{-DP},\ \epsilon = r + \log\frac{\alpha-1}{\alpha}"
                  r" - \frac{\log\delta + \log\alpha}{\alpha - 1}",
        steps=(
            Holds("δ_{P,Q}(ε_Balle(α, D_α(P‖Q), δ)) ≤ δ", _balle_pairs(False),
                  "exact hockey-stick divergence of the pair at the converted ε (which may be negative)"),
            Holds("δ_{Q,P}(ε_Balle(α, D_α(Q‖P), δ)) ≤ δ", _balle_pairs(True), "the reversed pair"),
            Holds("δ_Gauss(ε_Balle(α, α/(2σ²), δ); σ) ≤ δ", _balle_gaussian,
                  "Gaussian mechanism, exact Balle–Wang δ(ε) (for ε < 0 too)", domain=GAUSS),
        ),
        expected=Verdict.CHECKED,
        domain=PAIRS,
        hypotheses=(r"\alpha > 1", r"0 < \delta < 1"),
        note="The converted ε can be negative (e.g. σ = 10, δ = 0.1, α large): the DP statement still holds "
             "there (checked), but accountants should report max(ε, 0).",
    ),
    Claim(
        id="balle-cks-forms",
        title="The ε(δ) and δ(ε) forms of the improved conversion are inverse",
        source="Balle et al. 2020 Thm 21 (ε form); Canonne–Kamath–Steinke 2020 Prop 12 (δ form)",
        statement=r"\delta = \frac{e^{(\alpha-1)(r-\epsilon)}}{\alpha-1}\left(1-\frac1\alpha\right)^{\alpha} \iff "
                  r"\epsilon = r + \log\frac{\alpha-1}{\alpha} - \frac{\log\delta+\log\alpha}{\alpha-1}",
        steps=(
            Equal(sp.exp((alpha - 1) * (r - BALLE)) * (1 - 1 / alpha) ** alpha / (alpha - 1), delta,
                  "the δ form at the ε of the ε form gives back δ"),
            Equal(BALLE.subs(delta, sp.exp((alpha - 1) * (r - eps)) * (1 - 1 / alpha) ** alpha / (alpha - 1)), eps,
                  "the ε form at the δ of the δ form gives back ε",
                  domain=Domain({alpha: ORDERS, r: sp.Interval(0, sp.oo), eps: sp.Interval(-sp.oo, sp.oo)})),
        ),
        expected=Verdict.PROVED,
        domain=Domain({alpha: ORDERS, r: sp.Interval(0, sp.oo), delta: UNIT}),
    ),
    Claim(
        id="balle-vs-prop3",
        title="The improved conversion is never worse than Prop 3",
        source="Balle et al. 2020 Thm 21 vs Mironov 2017 Prop 3",
        statement=r"r + \log\frac{\alpha-1}{\alpha} - \frac{\log\delta+\log\alpha}{\alpha-1} \le "
                  r"r + \frac{\log 1/\delta}{\alpha-1}",
        steps=(
            Equal(PROP3 - BALLE, sp.log(alpha / (alpha - 1)) + sp.log(alpha) / (alpha - 1),
                  "the difference does not depend on r or δ"),
            AtLeast(sp.log(alpha / (alpha - 1)) + sp.log(alpha) / (alpha - 1), 0,
                    "α/(α−1) > 1 and α > 1: both logarithms are positive",
                    domain=Domain({alpha: ORDERS})),
        ),
        expected=Verdict.PROVED,
        domain=Domain({alpha: ORDERS, r: sp.Interval(0, sp.oo), delta: UNIT}),
        note="The gain log(α/(α−1)) + log(α)/(α−1) is large near α = 1 and decays like log(α)/α.",
    ),
    Claim(
        id="gaussian-conversion-loss",
        title="What the conversions lose on the Gaussian mechanism",
        source="Balle–Wang 2018 (arXiv:1805.06530) Thm 8 vs Balle et al. 2020 Thm 21, Mironov 2017 Prop 3, "
               "Bun–Steinke 2016 Prop 1.3",
        statement=r"\epsilon_{\mathrm{exact}}(\delta) \le \max(\epsilon_{\mathrm{Balle}}(\alpha),0) \le "
                  r"\epsilon_{\mathrm{Prop\,3}}(\alpha),\quad \epsilon_{\mathrm{exact}}(\delta) \le "
                  r"\rho+2\sqrt{\rho\log 1/\delta},\ \rho = \tfrac{1}{2\sigma^2}",
        steps=(
            Holds("ε_exact(δ; σ) ≤ max(ε_Balle(α, α/(2σ²), δ), 0)", _exact_vs_balle,
                  "the exact ε is the least ε ≥ 0 with δ_Gauss(ε) ≤ δ (certified bisection)"),
            Holds("max(ε_Balle, 0) ≤ ε_Prop3", _balle_vs_mironov, "balle-vs-prop3, on rdpsym's implementations"),
            Holds("ε_exact(δ; σ) ≤ ρ + 2√(ρ log 1/δ)", _exact_vs_zcdp, "the zCDP conversion (bs-zcdp-to-dp)"),
        ),
        expected=Verdict.CHECKED,
        domain=GAUSS_LOSS,
        note="At σ = 1, δ = 1e-5 the exact ε is 4.377; at the best order the Balle conversion gives 4.728 (+8%) "
             "and Prop 3 gives 5.299 (+21%), which is the zCDP formula.",
    ),
    Claim(
        id="bs-zcdp-to-dp",
        title="ρ-zCDP ⇒ (ρ + 2√(ρ log 1/δ), δ)-DP, as the best order in Prop 3",
        source="Bun–Steinke 2016 (arXiv:1605.02065) Prop 1.3; statements.md",
        statement=r"\inf_{\alpha>1}\left(\rho\alpha + \frac{\log 1/\delta}{\alpha-1}\right) = "
                  r"\rho + 2\sqrt{\rho\log(1/\delta)}",
        steps=(
            Equal((rho * alpha + L / (alpha - 1)).subs(alpha, 1 + sp.sqrt(L / rho)), rho + 2 * sp.sqrt(rho * L),
                  "Prop 3 on the curve ρα at α* = 1 + √(L/ρ), L = log(1/δ)"),
            Equal(rho * alpha + L / (alpha - 1) - (rho + 2 * sp.sqrt(rho * L)),
                  (sp.sqrt(rho * (alpha - 1)) - sp.sqrt(L / (alpha - 1))) ** 2,
                  "completing the square"),
            AtLeast((sp.sqrt(rho * (alpha - 1)) - sp.sqrt(L / (alpha - 1))) ** 2, 0,
                    "a square: no order does better than α*"),
        ),
        expected=Verdict.PROVED,
        domain=Domain({alpha: ORDERS, rho: POSITIVE, L: POSITIVE}),
        hypotheses=(r"D_\alpha \le \rho\alpha\ \forall \alpha > 1", r"L = \log(1/\delta),\ 0 < \delta < 1"),
        note="So the zCDP conversion is Prop 3 at its best order, never better than the Balle conversion "
             "at that order; checked against the exact Gaussian curve in gaussian-conversion-loss.",
    ),
    Claim(
        id="notes-moments-accountant",
        title="Moments accountant = RDP: α_M(λ) = λ·D_{λ+1}, and its ε(δ), δ(ε) are Prop 3",
        source="seed 003 l.225–259 (Abadi et al. 2016 moments accountant); Mironov 2017 §III",
        statement=r"\alpha_\mathcal{M}(\lambda) = \lambda D_{\lambda+1};\ "
                  r"\frac{\log(1/\delta)+\alpha_\mathcal{M}(\lambda)}{\lambda} = \frac{\alpha_\mathcal{M}(\lambda)}"
                  r"{\lambda} + \frac{\log 1/\delta}{(\lambda+1)-1};\ \delta = e^{\alpha_\mathcal{M}(\lambda)-\lambda\epsilon}"
                  r" \iff \epsilon = \frac{\alpha_\mathcal{M}(\lambda)}{\lambda} + \frac{\log 1/\delta}{\lambda}",
        steps=(
            Equal(x * (x / y) ** lam, y * (x / y) ** (lam + 1),
                  "change of measure, pointwise (x = P(z), y = Q(z)): E_P[(P/Q)^λ] = E_Q[(P/Q)^{λ+1}]",
                  domain=Domain({x: POSITIVE, y: POSITIVE, lam: POSITIVE})),
            Equal(lam * (sp.log(M) / ((lam + 1) - 1)), sp.log(M),
                  "Def 3 at α = λ + 1: λ·D_{λ+1} = log E_Q[(P/Q)^{λ+1}] = α_M(λ)",
                  domain=Domain({lam: POSITIVE, M: sp.Interval(1, sp.oo)})),
            Equal(lambda: lam * _gaussian_rdp().subs(alpha, lam + 1), lam * (lam + 1) / (2 * sigma**2),
                  "the Gaussian mechanism: α_M(λ) = λ(λ+1)/(2σ²) from the core's derivation of its curve",
                  domain=Domain({lam: POSITIVE, sigma: POSITIVE})),
            Equal((sp.log(1 / delta) + A) / lam, A / lam + sp.log(1 / delta) / ((lam + 1) - 1),
                  "ε(δ) term by term: Prop 3 at α = λ + 1 with r = α_M(λ)/λ; λ ↦ λ + 1 maps (0, ∞) onto (1, ∞), "
                  "so the minima over λ and over α coincide",
                  domain=Domain({lam: POSITIVE, A: sp.Interval(0, sp.oo), delta: UNIT})),
            Equal(A / lam + sp.log(1 / sp.exp(A - lam * eps)) / lam, eps,
                  "δ(ε) = exp(α_M(λ) − λε) is Prop 3 at α = λ + 1 solved for δ",
                  domain=Domain({lam: POSITIVE, A: sp.Interval(0, sp.oo), eps: sp.Interval(0, sp.oo)})),
        ),
        expected=Verdict.PROVED,
        domain=Domain({lam: POSITIVE}),
        hypotheses=(r"\lambda > 0", r"P \ll Q"),
        note="'min' read as the infimum over λ > 0 (or over the same grid of λ and α = λ + 1).",
    ),
    Claim(
        id="rdpsym-moments-bridge",
        title="rdpsym's moments accountant agrees with its Prop 3 at α = λ + 1",
        source="rdpsym.accounting.conversions (moments_epsilon/moments_delta vs mironov_epsilon/mironov_delta)",
        statement=r"\epsilon_{\mathrm{MA}}(\lambda, \lambda r, \delta) = \epsilon_{\mathrm{Prop\,3}}(\lambda+1, r, \delta),"
                  r"\ \delta_{\mathrm{MA}}(\lambda, \lambda r, \epsilon) = \delta_{\mathrm{Prop\,3}}(\lambda+1, r, \epsilon)",
        steps=(
            Holds("moments_epsilon = mironov_epsilon at α = λ + 1", _moments_eps, "notes-moments-accountant"),
            Holds("moments_delta = mironov_delta at α = λ + 1", _moments_delta, "notes-moments-accountant",
                  domain=Domain({lam: POSITIVE, r: sp.Interval(0, sp.oo)},
                                objects={"eps_value": lambda rng, i: sp.Rational(rng.randint(0, 2**20), 2**14)},
                                samples=80, seed=25)),
        ),
        expected=Verdict.CHECKED,
        domain=Domain({lam: POSITIVE, r: sp.Interval(0, sp.oo), delta: UNIT}, samples=80, seed=24),
    ),
]
