"""Lecture deck (seed 001): the two Gaussian-mechanism calibrations, checked against the exact curve.

Seed file /work/shared/seeds/001_d49504efe0d286ae.txt, slides "Gaussian mechanism
version 1" (l.258–264) and "version 2" (l.266–270).  Version 1 is also seed 002
l.74 and seed 004 l.15 (both with ε < 1); seed 003 l.73–75 drops the range (see
notes_003_gaussian.py).

Reference: the exact (ε, δ) curve of the Gaussian mechanism (Balle–Wang 2018,
Thm 8), ``gaussian_delta``: the mechanism is (ε, δ)-DP iff δ ≥ δ_BW(ε).  The
lecture deck's own definition of (ε, δ)-DP (001 l.240–246) is the stronger
Pr[λ > ε] ≤ δ; both are checked.  δ_BW depends on σ/Δ only, Δ is kept anyway.
"""

import sympy as sp
from flint import arb

from rdpsym.accounting.conversions import gaussian_delta
from rdpsym.claims import AtMost, Claim, Domain, Equal, Holds, Verdict
from rdpsym.claims.finite import ball, rational

from ._seeds_util import (
    POSITIVE,
    UNIT,
    Delta,
    cases,
    delta,
    eps,
    gaussian_loss_tail,
    normal_sf,
)

SOURCE_V1 = ("Lecture deck (seed 001, 001_d49504efe0d286ae.txt), slide 'Gaussian mechanism version 1', l.258–264; "
             "also seed 002 l.74, seed 004 l.15")
SOURCE_V2 = "Lecture deck (seed 001, 001_d49504efe0d286ae.txt), slide 'Gaussian mechanism version 2', l.266–270"

STATEMENT_V1 = (r"\forall \varepsilon \in (0,1),\ \delta > 0:\ c^2 = 2\log\frac{1.25}{\delta},\ "
                r"\sigma = \frac{c\Delta_2 f}{\varepsilon} \Rightarrow f(x) + \mathcal N(0,\sigma^2) "
                r"\text{ is } (\varepsilon,\delta)\text{-DP}")


# ----------------------------------------------------------------------------- version 1

def _sigma_v1(e, d, D) -> arb:
    c = (2 * (arb(rational(sp.Rational(5, 4))) / ball(d)).log()).sqrt()
    return c * ball(D) / ball(e)


def _v1_exact(point):
    e, d, D = point[eps], point[delta], point[Delta]
    return gaussian_delta(rational(e), _sigma_v1(e, d, D), rational(D)), "<=", ball(d)


def _v1_loss_tail(point):
    e, d, D = point[eps], point[delta], point[Delta]
    return gaussian_loss_tail(e, _sigma_v1(e, d, D), D), "<=", ball(d)


def _v1_case(point):
    c = point["example"]
    return gaussian_delta(rational(c["epsilon"]), _sigma_v1(c["epsilon"], c["delta"], 1)), "<=", ball(c["delta"])


# ε*(δ): where δ_BW of the v1 calibration crosses δ (the survey's table; recomputed here with
# mpmath at 40 digits by bisection).  Checked: the calibration holds at ε* − 10⁻³ and fails at
# ε* + 10⁻³.  (δ = 0.896 is about where ε*(δ) is smallest, 3.7869.)
_EPS_STAR = {
    "9/10": "3.787104", "1/2": "4.4654062", "1/10": "5.7425949", "1/100": "6.7718061",
    "1/1000": "7.4634744", "1/100000": "8.4197713", "1/1000000": "8.7820918", "1/100000000": "9.3743367",
    "1/10000000000": "9.849874", "1/1000000000000000": "10.746677", "1/100000000000000000000": "11.405998",
    "1/1000000000000000000000000000000": "12.363622", "896/1000": "3.7868611", "999/1000": "5.2488471",
}


def _boundary(point):
    c = point["example"]
    d, star = c["delta"], c["epsilon*"]
    below = gaussian_delta(rational(star - sp.Rational(1, 1000)), _sigma_v1(star - sp.Rational(1, 1000), d, 1))
    above = gaussian_delta(rational(star + sp.Rational(1, 1000)), _sigma_v1(star + sp.Rational(1, 1000), d, 1))
    # δ_BW(ε* − η) ≤ δ < δ_BW(ε* + η) as one relation: the smaller of the two margins is > 0.
    margin_below = ball(d) - below      # ≥ 0 expected
    margin_above = above - ball(d)      # > 0 expected
    worst = margin_below if margin_below.mid() < margin_above.mid() else margin_above
    return worst, ">", 0


# ----------------------------------------------------------------------------- version 2

def _y(d) -> arb:
    # y = (√(16δ+1) − 1)/2, the root in (0, 1) of y² + y = 4δ, computed as 8δ/(√(16δ+1) + 1)
    # (the same number, without cancelling for tiny δ)
    d = ball(d)
    return 8 * d / ((16 * d + 1).sqrt() + 1)


def _sigma_v2(e, d, D) -> arb:
    c = (2 * (1 / _y(d)).log()).sqrt()   # c² = 2 log(2/(√(16δ+1) − 1)) = 2 log(1/y)
    e = ball(e)
    return (c + (c * c + e).sqrt()) * ball(D) / (e * arb(2).sqrt())


def _v2_exact(point):
    e, d, D = point[eps], point[delta], point[Delta]
    return gaussian_delta(rational(e), _sigma_v2(e, d, D), rational(D)), "<=", ball(d)


def _v2_loss_tail(point):
    e, d, D = point[eps], point[delta], point[Delta]
    return gaussian_loss_tail(e, _sigma_v2(e, d, D), D), "<=", ball(d)


def _v2_tail_bound(point):
    c = (2 * (1 / _y(point[delta])).log()).sqrt()
    x = arb(2).sqrt() * c
    return normal_sf(x), "<=", (-(c * c)).exp() / 2


# Symbolic pieces of the v2 proof.
_c = sp.sqrt(2 * sp.log(2 / (sp.sqrt(16 * delta + 1) - 1)))
_sigma2 = (_c + sp.sqrt(_c**2 + eps)) * Delta / (eps * sp.sqrt(2))
_yv = (sp.sqrt(16 * delta + 1) - 1) / 2

HALF = sp.Interval.open(0, sp.Rational(1, 2))

CLAIMS = [
    Claim(
        id="lecture-gaussian-v1",
        title="Gaussian mechanism v1: c² = 2 log(1.25/δ), σ = cΔ₂f/ε gives (ε, δ)-DP for ε ∈ (0, 1)",
        source=SOURCE_V1,
        statement=STATEMENT_V1,
        steps=(
            Holds("δ_BW(ε; σ, Δ) ≤ δ (standard (ε,δ)-DP)", _v1_exact,
                  "exact Gaussian curve (Balle–Wang 2018, Thm 8) at the calibrated σ"),
            Holds("Pr[λ(x‖x') > ε] ≤ δ (the deck's own definition, l.244)", _v1_loss_tail,
                  "λ ~ N(Δ²/2σ², Δ²/σ²), so Pr[λ > ε] = Φ̄(εσ/Δ − Δ/(2σ))"),
        ),
        expected=Verdict.CHECKED,
        domain=Domain({eps: UNIT, delta: sp.Interval.open(0, sp.Rational(5, 4)), Delta: POSITIVE}, samples=60),
        note="True in the stated range with a wide margin (δ_BW/δ ≤ 0.32). 'δ > 0' is read as 0 < δ < 1.25: for "
             "δ ≥ 1.25 the formula gives c² ≤ 0 and σ is undefined (for 1 ≤ δ < 1.25 the claim is trivial). Holds "
             "under both definitions of (ε,δ)-DP. Checked numerically in certified balls: CHECKED.",
    ),
    Claim(
        id="lecture-gaussian-v1-beyond-range",
        title="The v1 calibration used outside its range (1 < ε ≤ 20) is not (ε, δ)-DP",
        source=SOURCE_V1 + " (the same formula with ε > 1)",
        statement=r"\forall \varepsilon \in (1, 20],\ \delta \in (0,1):\ \sigma = \frac{\sqrt{2\log(1.25/\delta)}"
                  r"\,\Delta_2 f}{\varepsilon} \Rightarrow (\varepsilon,\delta)\text{-DP}",
        steps=(
            Holds("δ_BW(ε; σ, 1) ≤ δ at the survey's example δ = 10⁻⁵, ε = 10", _v1_case,
                  "the published counterexample: δ_BW = 2.2654·10⁻⁵ > 10⁻⁵",
                  domain=Domain(objects={"example": cases({"epsilon": 10, "delta": "1/100000"})}, samples=1)),
            Holds("δ_BW(ε; σ, Δ) ≤ δ", _v1_exact, "exact Gaussian curve at the calibrated σ"),
        ),
        expected=Verdict.REFUTED,
        domain=Domain({eps: sp.Interval.Lopen(1, 20), delta: UNIT, Delta: POSITIVE}, samples=60),
        note="The calibration keeps working past ε = 1, up to ε*(δ) (3.79 at δ = 0.9, 8.42 at 10⁻⁵, 12.36 at "
             "10⁻³⁰; see lecture-gaussian-v1-boundary), and fails for every larger ε. So the restriction ε < 1 of "
             "the slide is needed in this form (it is sufficient, not necessary).",
    ),
    Claim(
        id="lecture-gaussian-v1-boundary",
        title="Where v1 stops working: ε*(δ), and v1 holds for every δ ∈ (0,1) when ε ≤ 3.78",
        source=SOURCE_V1 + " (its range, quantified)",
        statement=r"\delta_{BW}(\varepsilon^*(\delta) - 10^{-3}) \le \delta < \delta_{BW}(\varepsilon^*(\delta) + 10^{-3});"
                  r"\ \varepsilon \le 3.78 \Rightarrow \delta_{BW}(\varepsilon) \le \delta\ \forall \delta\in(0,1)",
        steps=(
            Holds("δ_BW(ε* − 10⁻³) ≤ δ < δ_BW(ε* + 10⁻³)", _boundary,
                  "the crossing points ε*(δ) of the survey's table (recomputed with mpmath, 40 digits)",
                  domain=Domain(objects={"example": cases(*[{"delta": d, "epsilon*": e}
                                                             for d, e in _EPS_STAR.items()])},
                                samples=len(_EPS_STAR))),
            Holds("δ_BW(ε; σ, Δ) ≤ δ for ε ≤ 3.78", _v1_exact, "exact Gaussian curve",
                  domain=Domain({eps: sp.Interval.Lopen(0, sp.Rational(378, 100)), delta: UNIT,
                                 Delta: POSITIVE}, samples=50)),
            Holds("δ_BW(3.78; σ, 1) ≤ δ near the worst δ ≈ 0.896", _v1_exact, "exact Gaussian curve",
                  domain=Domain({eps: sp.Interval(sp.Rational(377, 100), sp.Rational(378, 100)),
                                 delta: sp.Interval(sp.Rational(85, 100), sp.Rational(95, 100)),
                                 Delta: sp.Interval(1, 2)}, samples=40)),
        ),
        expected=Verdict.CHECKED,
        domain=Domain(),
        note="Documents the boundary behind lecture-gaussian-v1-beyond-range: min over δ of ε*(δ) is 3.7869 "
             "(at δ ≈ 0.896), so v1 is valid for every δ ∈ (0,1) whenever ε ≤ 3.78, and ε*(δ) grows slowly as δ → 0.",
    ),
    Claim(
        id="lecture-gaussian-v2",
        title="Gaussian mechanism v2: c² = 2 log(2/(√(16δ+1)−1)), σ = (c+√(c²+ε))Δ₂f/(ε√2) gives (ε, δ)-DP",
        source=SOURCE_V2,
        statement=r"\forall \varepsilon > 0,\ \delta \in (0, 0.5):\ c^2 = 2\log\frac{2}{\sqrt{16\delta+1}-1},\ "
                  r"\sigma = \frac{(c + \sqrt{c^2+\varepsilon})\Delta_2 f}{\varepsilon\sqrt2} \Rightarrow "
                  r"(\varepsilon,\delta)\text{-DP}",
        steps=(
            Equal(eps * _sigma2 / Delta - Delta / (2 * _sigma2), sp.sqrt(2) * _c,
                  "σ solves εσ/Δ − Δ/(2σ) = √2·c (a quadratic in σ)",
                  domain=Domain({eps: POSITIVE, delta: HALF, Delta: POSITIVE}, samples=40)),
            Holds("Φ̄(√2 c) ≤ e^{−c²}/2", _v2_tail_bound, "Gaussian tail Φ̄(x) ≤ e^{−x²/2}/2 for x ≥ 0"),
            Equal(sp.exp(-_c**2) / 2, _yv**2 / 2, "c² = 2 log(1/y) with y = (√(16δ+1) − 1)/2",
                  domain=Domain({delta: HALF}, samples=30)),
            AtMost(_yv**2 / 2, delta, "y² + y = 4δ and y ≤ 1, so y²/2 ≤ (y² + y)/4 = δ",
                   domain=Domain({delta: HALF}, samples=30)),
            Holds("δ_BW(ε; σ, Δ) ≤ δ (standard (ε,δ)-DP)", _v2_exact,
                  "δ_BW(ε) ≤ Pr[λ > ε] = Φ̄(εσ/Δ − Δ/(2σ)) = Φ̄(√2 c) ≤ δ by the steps above; checked directly"),
            Holds("Pr[λ(x‖x') > ε] ≤ δ (the deck's own definition, l.244)", _v2_loss_tail,
                  "Pr[λ > ε] = Φ̄(√2 c) ≤ δ by the steps above; checked directly"),
        ),
        expected=Verdict.CHECKED,
        domain=Domain({eps: POSITIVE, delta: HALF, Delta: POSITIVE}, samples=60),
        note="True as stated, for all ε > 0, and under both definitions. Proof: the σ identity makes Pr[λ > ε] = "
             "Φ̄(√2c) ≤ e^{−c²}/2 = y²/2 ≤ δ. The identity and the last two links are symbolic; the Gaussian tail "
             "bound is checked numerically, hence CHECKED. The range δ < 1/2 is essential (c² < 0 beyond). As "
             "printed, v2 is very conservative (at δ = 10⁻⁵, ε = 1 it needs σ = 6.44 against 4.85 for v1): the "
             "survey suspects a spurious factor 2 in c²; we check the formula as printed.",
    ),
]
