"""Mironov 2017, §VII: the suggested orders, and the bad-outcomes bound as a function of the baseline.

* The order grid rdpsym ships as ``rdpsym.accounting.orders.MIRONOV`` is the
  paper's list {1.5, 1.75, 2, 2.5, 3, 4, 5, 6, 8, 16, 32, 64, +∞}: the finite
  orders are compared through the polynomial Π(z − αᵢ), identical exactly when
  the two lists agree with multiplicity.
* For the Gaussian mechanism with sensitivity Δ = 1, the bound of §III read as
  a function of the baseline q = Pr[f(D') ∈ S],

      min over the §VII orders of (e^{ε(α)} q)^{(α−1)/α},   ε(α) = α/(2σ²),

  must be at least the exact worst case.  By Neyman–Pearson the event S with
  Pr[N(0,σ²) ∈ S] = q that maximises Pr[N(1,σ²) ∈ S] is the half-line
  (σΦ⁻¹(1−q), ∞), so the exact worst case is Φ(Φ⁻¹(q) + 1/σ).  Checked for
  q from 1e-30 to 1/2 (Φ⁻¹ through Arb's erfcinv), with ε(α) evaluated by
  rdpsym's RdpCurve at the grid (α = ∞ is ∞ for the Gaussian, no bound).
"""

import sympy as sp
from flint import arb

from rdpsym.accounting.curve import Component, Infinite, curve
from rdpsym.accounting.orders import MIRONOV
from rdpsym.claims import Claim, Domain, Equal, Holds, Verdict
from rdpsym.claims.finite import ball

from ._arbtools import upper_tail
from ._families import POSITIVE, derived, sigma

z = sp.Symbol("z", real=True)
q = sp.Symbol("q", positive=True)

#: Mironov 2017 §VII, as printed.
PAPER = [sp.Rational(3, 2), sp.Rational(7, 4), 2, sp.Rational(5, 2), 3, 4, 5, 6, 8, 16, 32, 64, sp.oo]


def _finite(orders):
    return [sp.Rational(int(a.p), int(a.q)) if not isinstance(a, (int, sp.Basic)) else sp.Rational(a)
            for a in orders if a not in (float("inf"), sp.oo)]


def _polynomial(orders):
    return sp.Mul(*[z - a for a in _finite(orders)])


def _worst_case_vs_bound(point):
    s, base = ball(point[sigma]), ball(point[q])
    grid = curve(Component.from_closed_form("gaussian", derived("gaussian").subs(sigma, point[sigma]))).balls(MIRONOV)
    best = None
    for a, eps in zip(MIRONOV, grid):
        if isinstance(eps, Infinite):
            continue  # α = ∞: ε = ∞, the bound is vacuous
        aa = ball(sp.Rational(int(a.p), int(a.q)))
        bound = ((aa - 1) / aa * (eps + base.log())).exp()
        best = bound if best is None else best.min(bound)
    # Φ⁻¹(q) = −√2·erfcinv(2q); the worst case Φ(Φ⁻¹(q) + 1/σ) = Pr[N(0,1) > −(Φ⁻¹(q) + 1/σ)].
    quantile = -arb(2).sqrt() * (2 * base).erfcinv()
    exact = upper_tail(-(quantile + 1 / s))
    return exact, "<=", best


CLAIMS = [
    Claim(
        id="mironov-sec7-orders",
        title="The suggested order grid is the paper's",
        source="Mironov 2017, §VII",
        statement=r"\{1.5, 1.75, 2, 2.5, 3, 4, 5, 6, 8, 16, 32, 64, +\infty\}",
        steps=(
            Equal(lambda: _polynomial(MIRONOV), _polynomial(PAPER),
                  "Π(z − α) over rdpsym's finite orders against the paper's: the same polynomial iff the "
                  "same orders with multiplicity",
                  latex=r"\prod_{\alpha\in\text{rdpsym's grid}} (z-\alpha) = \prod_{\alpha\in\text{§VII}} (z-\alpha)"),
            Equal(lambda: sp.oo if float("inf") in MIRONOV else sp.nan, sp.oo, "+∞ is in the grid",
                  domain=Domain({}, samples=1), latex=r"+\infty \in \text{rdpsym's grid}"),
            Equal(lambda: len(MIRONOV), len(PAPER), "no other entry", domain=Domain({}, samples=1),
                  latex=r"\#\,\text{rdpsym's grid} = \#\,\text{§VII} = 13"),
        ),
        expected=Verdict.PROVED,
        domain=Domain({z: sp.Interval(0, 100)}, samples=20),
    ),
    Claim(
        id="mironov-sec7-gaussian-bad-outcomes",
        title="Gaussian: the §VII-grid bad-outcomes bound is above the exact worst case, q from 1e-30 to 1/2",
        source="Mironov 2017, §VII (and §III, Proposition 10)",
        statement=r"\Phi\left(\Phi^{-1}(q) + 1/\sigma\right) \le \min_{\alpha\in\text{§VII}}"
                  r"\left(e^{\alpha/(2\sigma^2)}q\right)^{(\alpha-1)/\alpha}",
        steps=(Holds("Φ(Φ⁻¹(q) + 1/σ) ≤ min_α (e^{ε(α)} q)^{(α−1)/α}", _worst_case_vs_bound,
                     "Proposition 10 at each grid order, against the Neyman–Pearson worst event"),),
        expected=Verdict.CHECKED,
        domain=Domain({q: sp.Interval(sp.Rational(1, 10**30), sp.Rational(1, 2)), sigma: POSITIVE}, samples=100),
        hypotheses=(r"\Delta = 1",),
        note="Checked at sampled baselines and noise scales (σ from 1e-30 to 1e12); Neyman–Pearson (the "
             "half-line is the worst event) is used, not re-derived.",
    ),
]
