"""Mironov 2017, Table II: the RDP of randomized response, Laplace and Gaussian at α > 1, α = 1 and α = ∞.

One claim per cell.  Each compares the core's derivation from the densities
(finite moment for α > 1, KL at α = 1, sup of the log-ratio at α = ∞: nothing
about the family typed in) with the cell as the paper prints it
(statements.md: "RR: α>1 as Prop 5; α=1: (2p−1)·log(p/(1−p)); α=∞:
abs(log(p/(1−p))). Laplace: α>1 as Prop 6; α=1: 1/λ + exp(−1/λ) − 1; α=∞:
1/λ. Gaussian: α/(2σ²) for α ≥ 1 (α=1: 1/(2σ²)); α=∞: ∞").
"""

import sympy as sp

from rdpsym.claims import Claim, Domain, Equal, Verdict, alpha

from ._families import ORDERS, POSITIVE, PROP5, PROP6, derived, lam, p, sigma

ROWS = {
    "randomized-response": ("Randomized response", p, sp.Interval.open(0, 1), r"p"),
    "laplace": ("Laplace", lam, POSITIVE, r"\lambda"),
    "gaussian": ("Gaussian", sigma, POSITIVE, r"\sigma"),
}

#: The printed cells: (order label, order, printed form, LaTeX of the cell).
CELLS = {
    "randomized-response": [
        ("gt1", alpha, PROP5,
         r"\frac{1}{\alpha-1}\log\left(p^\alpha(1-p)^{1-\alpha}+(1-p)^\alpha p^{1-\alpha}\right)"),
        ("1", 1, (2 * p - 1) * sp.log(p / (1 - p)), r"(2p-1)\log\frac{p}{1-p}"),
        ("inf", sp.oo, sp.Abs(sp.log(p / (1 - p))), r"\left|\log\frac{p}{1-p}\right|"),
    ],
    "laplace": [
        ("gt1", alpha, PROP6,
         (r"\frac{1}{\alpha-1}\log\left(\frac{\alpha}{2\alpha-1}e^{(\alpha-1)/\lambda}"
         r"+\frac{\alpha-1}{2\alpha-1}e^{-\alpha/\lambda}\right)")),
        ("1", 1, 1 / lam + sp.exp(-1 / lam) - 1, r"1/\lambda + e^{-1/\lambda} - 1"),
        ("inf", sp.oo, 1 / lam, r"1/\lambda"),
    ],
    "gaussian": [
        ("gt1", alpha, alpha / (2 * sigma**2), r"\alpha/(2\sigma^2)"),
        ("1", 1, 1 / (2 * sigma**2), r"1/(2\sigma^2)"),
        ("inf", sp.oo, sp.oo, r"\infty"),
    ],
}

_ORDER_TEXT = {"gt1": (r"\alpha > 1", "α > 1", "the finite moment ∫P^α Q^{1−α}"),
               "1": (r"\alpha = 1", "α = 1", "KL: I'(1)/I(1) of the moment (sum of P log P/Q for RR)"),
               "inf": (r"\alpha = \infty", "α = ∞", "the supremum of log P/Q")}


def _claim(mechanism, label, order, printed, latex):
    name, param, interval, plabel = ROWS[mechanism]
    order_latex, order_text, how = _ORDER_TEXT[label]
    variables = {param: interval}
    if label == "gt1":
        variables = {alpha: ORDERS, param: interval}
    return Claim(
        id=f"mironov-table2-{mechanism}-{label}",
        title=f"Table II: {name} at {order_text}",
        source="Mironov 2017, Table II",
        statement=rf"\text{{{name}}},\ {order_latex}:\ D = {latex}",
        steps=(Equal(lambda: derived(mechanism, order), printed,
                     f"the core's derivation from the densities ({how}) against the printed cell"),),
        expected=Verdict.PROVED,
        domain=Domain(variables, samples=60 if label == "gt1" else 30),
        hypotheses=(rf"{plabel} \in {sp.latex(interval)}",),
    )


CLAIMS = [_claim(mechanism, *cell) for mechanism, cells in CELLS.items() for cell in cells]
