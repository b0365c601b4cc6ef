"""Mironov 2017, Propositions 5, 6 and 7: the RDP of randomized response, Laplace and Gaussian.

Each claim compares the core's derivation from the densities (splitting,
integrating, summing: nothing about the family is typed in) with the formula
as the paper prints it.
"""

import sympy as sp

from rdpsym.claims import Claim, Domain, Equal, Verdict, alpha

from ._families import ORDERS, POSITIVE, PROP5, PROP6, PROP7, derived, lam, mu, p, sigma

CLAIMS = [
    Claim(
        id="mironov-prop5",
        title="Randomized response",
        source="Mironov 2017, Proposition 5",
        statement=r"D_\alpha = \frac{1}{\alpha-1}\log\left(p^\alpha(1-p)^{1-\alpha} + (1-p)^\alpha p^{1-\alpha}\right)",
        steps=(Equal(lambda: derived("randomized-response"), PROP5,
                     "sum of p^α q^(1−α) over the two outcomes (core derivation)"),),
        expected=Verdict.PROVED,
        domain=Domain({alpha: ORDERS, p: sp.Interval.open(0, 1)}),
    ),
    Claim(
        id="mironov-prop6",
        title="Laplace mechanism",
        source="Mironov 2017, Proposition 6",
        statement=r"D_\alpha(\Lambda(0,\lambda)\|\Lambda(1,\lambda)) = \frac{1}{\alpha-1}\log\left(\frac{\alpha}{2\alpha-1}"
                  r"e^{(\alpha-1)/\lambda} + \frac{\alpha-1}{2\alpha-1}e^{-\alpha/\lambda}\right)",
        steps=(Equal(lambda: derived("laplace"), PROP6,
                     "integral split at the kinks 0 and 1, three exponential pieces (core derivation)"),),
        expected=Verdict.PROVED,
        domain=Domain({alpha: ORDERS, lam: POSITIVE}),
    ),
    Claim(
        id="mironov-prop7",
        title="Gaussian mechanism",
        source="Mironov 2017, Proposition 7",
        statement=r"D_\alpha(\mathcal N(0,\sigma^2)\|\mathcal N(\mu,\sigma^2)) = \frac{\alpha\mu^2}{2\sigma^2}",
        steps=(Equal(lambda: derived("gaussian-shift"), PROP7,
                     "completing the square in a Gaussian integral (core derivation)"),),
        expected=Verdict.PROVED,
        domain=Domain({alpha: ORDERS, sigma: POSITIVE, mu: POSITIVE}),
    ),
    Claim(
        id="mironov-prop7-composition",
        title="n-fold composition of the Gaussian mechanism is a Gaussian mechanism",
        source="Mironov 2017, Proposition 7 (and seed 004)",
        statement=r"n \cdot \frac{\alpha}{2\sigma^2} = \frac{\alpha}{2(\sigma/\sqrt n)^2}",
        steps=(Equal(lambda: sp.Symbol("n", positive=True) * derived("gaussian"),
                     alpha / (2 * (sigma / sp.sqrt(sp.Symbol("n", positive=True))) ** 2),
                     "Prop 1 applied n times to the derived curve α/(2σ²)"),),
        expected=Verdict.PROVED,
        domain=Domain({alpha: ORDERS, sigma: POSITIVE, sp.Symbol("n", positive=True): sp.Interval(1, 10**6)}),
    ),
]

