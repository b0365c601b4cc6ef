"""Mironov 2017, Definition 4 for the built-ins: the worst-case adjacent pair is the largest shift.

(α, ε)-RDP quantifies over all adjacent inputs.  For an additive-noise
mechanism with sensitivity Δ (one dimension) the adjacent pairs are
(N(0,σ²), N(μ,σ²)) (resp. Laplace) with |μ| ≤ Δ, so the curve rdpsym reports,
D_α at the shift Δ, is the supremum of Definition 4 only if

    D_α(N(0,σ²)‖N(μ,σ²)) ≤ D_α(N(0,σ²)‖N(Δ,σ²))   for |μ| ≤ Δ,

and the same for Laplace.  Each family has two claims: the symbolic facts that
make the shift Δ the worst case (the divergence is even in μ and nondecreasing
in μ > 0), and the inequality itself at sampled shifts.  Every divergence here
is the core's derivation from the densities with a symbolic shift, not a
formula typed in.  μ = 0 gives D_α = 0 (Proposition 8), the smallest value.
"""

import functools

import sympy as sp

import rdpsym
from rdpsym.claims import AtLeast, AtMost, Claim, Domain, Equal, Verdict, alpha

from ._families import ORDERS, POSITIVE, lam, sigma

x = sp.Symbol("x", real=True)
#: A positive shift μ, the sensitivity Δ, and the fraction u = |μ|/Δ.
mu = sp.Symbol("mu", positive=True)
Delta = sp.Symbol("Delta", positive=True)
u = sp.Symbol("u", positive=True)


def _gauss(center):
    return rdpsym.Continuous(sp.exp(-(x - center) ** 2 / (2 * sigma**2)) / sp.sqrt(2 * sp.pi * sigma**2), x)


def _laplace(center):
    return rdpsym.Continuous(sp.exp(-sp.Abs(x - center) / lam) / (2 * lam), x)


@functools.cache
def divergence(family: str, sign: int) -> sp.Expr:
    """D_α(F(0)‖F(sign·μ)) derived by the core from the densities (μ > 0 symbolic)."""
    dens = _gauss if family == "gaussian" else _laplace
    return rdpsym.renyi_divergence(dens(0), dens(sign * mu), alpha).result


def _at(family, shift):
    return lambda: divergence(family, 1).subs(mu, shift)


def _claims(family: str, label: str, law: str, param: sp.Symbol) -> list:
    statement = (rf"|\mu| \le \Delta \implies D_\alpha({law}(0)\|{law}(\mu)) \le D_\alpha({law}(0)\|{law}(\Delta))")
    return [
        Claim(
            id=f"mironov-def4-{family}-monotone-shift",
            title=f"{label}: D_α is even in the shift and nondecreasing in |μ|",
            source="Mironov 2017, Definition 4 (worst-case pair of the built-in)",
            statement=(rf"D_\alpha({law}(0)\|{law}(-\mu)) = D_\alpha({law}(0)\|{law}(\mu)),\quad "
                       rf"\frac{{\partial}}{{\partial\mu}} D_\alpha({law}(0)\|{law}(\mu)) \ge 0 \ (\mu > 0)"),
            steps=(
                Equal(lambda: divergence(family, -1), lambda: divergence(family, 1),
                      "both derived from the densities: the shift −μ and the shift μ give the same divergence"),
                AtLeast(lambda: sp.diff(divergence(family, 1), mu), 0,
                        "derivative of the derived closed form in the shift"),
            ),
            expected=Verdict.PROVED,
            domain=Domain({alpha: ORDERS, param: POSITIVE, mu: POSITIVE}, samples=80),
            note="With D_α even in μ and nondecreasing on μ > 0, the shift Δ maximises D_α over |μ| ≤ Δ "
                 "(fundamental theorem of calculus; the prover does not state that last step, the next "
                 "claim checks its conclusion).",
        ),
        Claim(
            id=f"mironov-def4-{family}-worst-case",
            title=f"{label}: the shift Δ is the worst adjacent pair",
            source="Mironov 2017, Definition 4 (worst-case pair of the built-in)",
            statement=statement,
            steps=(
                AtMost(_at(family, u * Delta), _at(family, Delta),
                       "D_α(shift u·Δ) ≤ D_α(shift Δ) for 0 < u < 1 (|μ| = uΔ; the sign of μ does not "
                       "matter by the previous claim)"),
            ),
            expected=Verdict.PROVED if family == "gaussian" else Verdict.CHECKED,
            # u = 1 is the equality case D = D (same expression), left out of the sample: it holds trivially.
            domain=Domain({alpha: ORDERS, param: POSITIVE, Delta: POSITIVE, u: sp.Interval.open(0, 1)},
                          samples=100),
            hypotheses=(r"\mu = \pm u\Delta,\ 0 < u < 1",),
            note="" if family == "gaussian" else
                 "Only checked: the prover does not reach log I(Δ) ≥ log I(uΔ) for the Laplace moment I; the "
                 "symbolic reason (derivative ≥ 0) is the previous claim.",
        ),
    ]


CLAIMS = [
    *_claims("gaussian", "Gaussian", r"\mathcal N", sigma),
    *_claims("laplace", "Laplace", r"\Lambda", lam),
]
