"""Slides (seed 000): Rényi divergence limits, RDP ⟹ (ε, δ)-DP 'for any δ', monotonicity, composition,
and "Why 2 to 32?".

Seed file /work/shared/seeds/000_862670cc7525ea27.txt: "Rényi Divergence"
(l.146–150), "Implies (ε, δ)-Differential Privacy" (l.162–165), "Monotonicity"
(l.188–190), "Composable!" (l.192–196), "Why 2 to 32?" (l.233–235).
"""

import sympy as sp
from flint import arb

from rdpsym.claims import AtLeast, AtMost, Claim, Domain, Equal, Holds, Verdict, alpha
from rdpsym.claims.finite import ball, product, random_pmfs, renyi

from ._seeds_util import (
    ORDERS,
    POSITIVE,
    UNIT,
    cases,
    delta,
    log_moment,
    prop3_excess,
    rho,
    rr_or_random_pairs,
    x_star_not_alone,
)

SLIDES = "Slides (seed 000, 000_862670cc7525ea27.txt)"
h = sp.Symbol("h", positive=True)
g = sp.Symbol("g", positive=True)
L = sp.Symbol("L", positive=True)
v = sp.Symbol("v", positive=True)
s = sp.Symbol("s", positive=True)
xx = sp.Symbol("x", positive=True)
a1, a2, b1, b2, c1, c2, d1, d2 = sp.symbols("a1 a2 b1 b2 c1 c2 d1 d2", positive=True)


# ----------------------------------------------------------------------------- limits

def _kl_bracket(point):
    P, Q = point["laws"]
    lo, kl, hi = renyi(P, Q, 1 - point[h]), renyi(P, Q, 1), renyi(P, Q, 1 + point[h])
    worst = (kl - lo) if (kl - lo).mid() < (hi - kl).mid() else (hi - kl)
    return worst, ">=", 0


def _kl_is_mean_log_ratio(point):
    P, Q = point["laws"]
    mean = sum((arb(x) * arb(x / y).log() for x, y in zip(P, Q)), arb(0))
    return renyi(P, Q, 1), "=", mean


def _dinf_bracket(point):
    # D_∞ + log P(x*)/(α−1) ≤ D_α ≤ D_∞ = log max P/Q
    P, Q = point["laws"]
    a = ball(point[alpha])
    i = max(range(len(P)), key=lambda j: P[j] / Q[j])
    dinf = arb(P[i] / Q[i]).log()
    d = renyi(P, Q, point[alpha])
    worst = (dinf - d) if (dinf - d).mid() < (d - dinf - arb(P[i]).log() / (a - 1)).mid() else \
        (d - dinf - arb(P[i]).log() / (a - 1))
    return worst, ">=", 0


# ----------------------------------------------------------------------------- Prop 3, monotonicity, composition

def _prop3_any_delta(point):
    P, Q = point["laws"]
    return prop3_excess(P, Q, point[alpha], point[delta]), "<=", 0


def _monotone(point):
    P, Q = point["laws"]
    return renyi(P, Q, point[alpha]), "<=", renyi(P, Q, point[alpha] + point[g])


def _composable(point):
    # compared as (α−1)·D_α, i.e. log-moments with α − 1 exact: dividing both sides by the same α − 1 changes
    # nothing, and near α = 1 it is what keeps the balls narrow enough to decide the equality
    P1, Q1, P2, Q2 = point["laws"]
    o = point[alpha]
    return log_moment(product(P1, P2), product(Q1, Q2), o), "=", log_moment(P1, Q1, o) + log_moment(P2, Q2, o)


def _moment(a, b, c, d, order):
    return a**order * c ** (1 - order) + b**order * d ** (1 - order)


_prod_moment = sum((x * y) ** alpha * (u * w) ** (1 - alpha)
                   for x, u in ((a1, c1), (a2, c2)) for y, w in ((b1, d1), (b2, d2)))


# ----------------------------------------------------------------------------- Why 2 to 32?

_eps_dp = rho + 2 * sp.sqrt(rho * L)   # Prop 3 optimum for the curve ρα (α* = 1 + √(L/ρ))


def _alpha_star_case(point):
    # single Gaussian σ = 10, δ = 10⁻⁵: ρ = 1/(2σ²), α* = 1 + √(L/ρ) = 1 + 10√(2 ln 10⁵) ≈ 48.98
    c = point["example"]
    r = 1 / (2 * ball(c["sigma"]) ** 2)
    return 1 + ((1 / ball(c["delta"])).log() / r).sqrt(), ">", 32


def _slack_examples(point):
    # at α = 32 and e^ε Q = 10⁻⁹ (10⁻¹⁴) the slack factor (e^ε Q)^{−1/α} is ≤ 1.92 (≤ 2.74)
    c = point["example"]
    return (arb(10) ** c["exponent"]) ** (arb(1) / 32), "<=", ball(c["slack"])


CLAIMS = [
    Claim(
        id="slides-renyi-limits",
        title="D₁ = lim_{α→1} D_α = E_P log(P/Q) and D_∞ = lim_{α→∞} D_α = log max P/Q",
        source=SLIDES + ", 'Rényi Divergence', l.146–150 (and 'Better Notion of Closeness', l.138–144); also notes "
               "(seed 003) l.153–183 and (seed 004) l.28–36",
        statement=r"D_1(P||Q) = \lim_{\alpha \to 1} D_\alpha(P||Q) = E_P \left[ \log \frac{P(x)}{Q(x)} \right],\ "
                  r"D_\infty(P||Q) = \lim_{\alpha \to \infty} D_\alpha(P||Q) = \log \max_x \frac{P(x)}{Q(x)}",
        steps=(
            Holds("D_{1−h} ≤ KL ≤ D_{1+h}", _kl_bracket, "monotonicity in the order: KL is the two-sided limit",
                  domain=Domain({h: UNIT}, objects={"laws": random_pmfs(2)}, samples=40)),
            Holds("KL = E_P[log P/Q]", _kl_is_mean_log_ratio, "definition of D₁ (samplers.renyi at order 1)",
                  domain=Domain(objects={"laws": random_pmfs(2)}, samples=30)),
            Holds("D_∞ + log P(x*)/(α−1) ≤ D_α ≤ D_∞ = log max P/Q", _dinf_bracket,
                  "the x* term of the moment, and E_Q[(P/Q)^α] ≤ (max P/Q)^{α−1}",
                  domain=Domain({alpha: ORDERS}, objects={"laws": random_pmfs(2)}, samples=50,
                                where=x_star_not_alone)),
        ),
        expected=Verdict.CHECKED,
        domain=Domain(),
        note="For finite laws with P ≪ Q (the brackets close as h → 0 and α → ∞). In general the E_Q form and "
             "'sup over supp Q' need P ≪ Q, and lim_{α→1⁺} = KL needs D_α < ∞ for some α > 1 (Mironov 2017, after "
             "Def 3). The second step is a consistency check of the sampler's KL. CHECKED.",
    ),
    Claim(
        id="slides-prop3-any-delta",
        title="(α, ε)-RDP ⟹ (ε + log(1/δ)/(α−1), δ)-DP 'for any δ'",
        source=SLIDES + ", 'Implies (ε, δ)-Differential Privacy', l.162–165",
        statement=r"(\alpha, \varepsilon)\text{-RDP} \Rightarrow (\varepsilon + \frac{\log 1/\delta}{\alpha - 1}, "
                  r"\delta)\text{-DP for any } \delta",
        steps=(Holds("max_S P(S) − e^{ε'}Q(S) − δ ≤ 0 with ε = D_α(P‖Q)", _prop3_any_delta,
                     "Mironov Prop 3 for δ < 1; trivial for δ ≥ 1 (P(S) ≤ 1 ≤ δ)"),),
        expected=Verdict.CHECKED,
        domain=Domain({alpha: ORDERS, delta: sp.Interval.open(0, 2)}, objects={"laws": rr_or_random_pairs()},
                      samples=60),
        note="'For any δ' is fine: for δ ≥ 1 the conclusion holds trivially (ε' may then be below ε, even "
             "negative). Checked on randomized response and random finite laws over all events: CHECKED.",
    ),
    Claim(
        id="slides-monotonicity",
        title="For α₁ ≥ α₂: (α₁, ε)-RDP ⟹ (α₂, ε)-RDP",
        source=SLIDES + ", 'Monotonicity', l.188–190",
        statement=r"\alpha_1 \ge \alpha_2:\ (\alpha_1, \varepsilon)\text{-RDP} \Rightarrow (\alpha_2, \varepsilon)"
                  r"\text{-RDP}",
        steps=(Holds("D_{α₂} ≤ D_{α₂+g}", _monotone, "Mironov 2017, Prop 9"),),
        expected=Verdict.CHECKED,
        domain=Domain({alpha: ORDERS, g: POSITIVE}, objects={"laws": random_pmfs(2)}, samples=50),
        note="α₁ = α₂ is trivial and left out (the balls of two equal values cannot decide ≤). Random finite laws: "
             "CHECKED.",
    ),
    Claim(
        id="slides-composable",
        title="Simultaneous release of (α, ε₁)-RDP and (α, ε₂)-RDP is (α, ε₁ + ε₂)-RDP",
        source=SLIDES + ", 'Composable!', l.192–196",
        statement=r"(\alpha, \varepsilon_1)\text{-RDP} \otimes (\alpha, \varepsilon_2)\text{-RDP} = "
                  r"(\alpha, \varepsilon_1 + \varepsilon_2)\text{-RDP}",
        steps=(
            Equal(sp.log(_prod_moment), sp.log(_moment(a1, a2, c1, c2, alpha)) + sp.log(_moment(b1, b2, d1, d2, alpha)),
                  "the moment of a product pair is the product of the moments (two-point laws, positive masses)",
                  domain=Domain({alpha: ORDERS, a1: POSITIVE, a2: POSITIVE, b1: POSITIVE, b2: POSITIVE,
                                 c1: POSITIVE, c2: POSITIVE, d1: POSITIVE, d2: POSITIVE}, samples=30)),
            Holds("(α−1)·D_α(P₁⊗P₂‖Q₁⊗Q₂) = (α−1)·D_α(P₁‖Q₁) + (α−1)·D_α(P₂‖Q₂)", _composable,
                  "additivity for independent releases (equality, so the sum of the budgets)",
                  domain=Domain({alpha: ORDERS}, objects={"laws": random_pmfs(4)}, samples=40)),
        ),
        expected=Verdict.CHECKED,
        domain=Domain(),
        note="Equality for independent releases; the adaptive version (Mironov Prop 1) is in mironov2017/. "
             "The '=' of the numeric step is decided to within 2^{−(prec−40)} relative (the framework's rule for "
             "equalities of balls). CHECKED.",
    ),
    Claim(
        id="slides-why-2-to-32",
        title="'Why 2 to 32?': the bad-outcomes slack and the Prop-3-optimal order (checkable versions)",
        source=SLIDES + ", 'Why 2 to 32?', l.233–235 (also 'Rényi Differential Privacy as a Privacy Accountant', "
               "l.229)",
        statement=r"\text{Why 2 to 32? } (\alpha, \varepsilon)\text{-RDP}: \forall S\ \Pr[M(D)\in S] \le "
                  r"(e^{\varepsilon} \cdot \Pr[M(D') \in S])^{1-1/\alpha}",
        steps=(
            AtMost(sp.exp(32 * v / (32 + s)), sp.E,
                   "W1: for α = 32 + s ≥ 32 and e^εQ = e^{−32v} ≥ e^{−32}, the slack (e^εQ)^{−1/α} = e^{32v/α} ≤ e",
                   domain=Domain({v: UNIT, s: POSITIVE}, samples=30)),
            Holds("W1 at α = 32: slack ≤ 1.92 at e^εQ = 10⁻⁹ and ≤ 2.74 at 10⁻¹⁴", _slack_examples,
                  "(10^k)^{1/32}", domain=Domain(objects={"example": cases({"exponent": 9, "slack": "1.92"},
                                                                           {"exponent": 14, "slack": "2.74"})},
                                                 samples=2)),
            AtLeast(xx ** (1 - 1 / (1 + s)), sp.sqrt(xx),
                    "W2: for α = 1 + s ≤ 2 the bound (e^εQ)^{1−1/α} is never below √(e^εQ) (x = e^εQ ≤ 1)",
                    domain=Domain({xx: UNIT, s: UNIT}, samples=30)),
            AtLeast(sp.diff(_eps_dp, rho), 0, "W3: ε_DP = ρ + 2√(ρL) increases with ρ",
                    domain=Domain({rho: POSITIVE, L: POSITIVE}, samples=30)),
            Equal(1 + sp.sqrt(L / (L / 961)), 32, "W3: α* = 1 + √(L/ρ) = 32 at ρ = L/961",
                  domain=Domain({L: POSITIVE}, samples=20)),
            Equal(_eps_dp.subs(rho, L / 961), L * (sp.Rational(1, 961) + sp.Rational(2, 31)),
                  "W3: there ε_DP = L(1/961 + 2/31) ≈ 0.0656·L", domain=Domain({L: POSITIVE}, samples=20)),
            Equal(_eps_dp.subs(rho, L), 3 * L, "W3: α* = 2 at ρ = L, where ε_DP = 3L",
                  domain=Domain({L: POSITIVE}, samples=20)),
            Holds("outside the window: σ = 10, δ = 10⁻⁵ has α* = 48.98 > 32", _alpha_star_case,
                  "a high-privacy single Gaussian release (ε_DP = 0.49 < 0.0656·ln 10⁵ = 0.755)",
                  domain=Domain(objects={"example": cases({"sigma": 10, "delta": "1/100000"})}, samples=1)),
        ),
        expected=Verdict.CHECKED,
        domain=Domain(),
        note="HEURISTIC on the slide (only its title and the bad-outcomes bound survive); checked in the survey's "
             "three versions. W1: orders above 32 gain at most a factor e on events of baseline ≥ e^{−32}. W2: orders "
             "≤ 2 cannot beat √(e^εQ). W3: for a linear (Gaussian/zCDP) curve the Prop-3-optimal order is in [2, 32] "
             "exactly when ε_DP ∈ [0.0656·L, 3L], L = ln(1/δ) (for δ = 10⁻⁵: [0.755, 34.5]); it leaves the window "
             "for very private releases. W1, W3 are proved; the W2 step and examples are numeric: CHECKED.",
    ),
]
