"""Mironov 2017, Table II: RDP of the three basic mechanisms at α > 1, α = 1 and α = ∞.

Every cell is *derived* from the mechanism's densities by the engine, checked
against the definition numerically and proved equal to the paper's entry;
nothing here is a hard-coded answer.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from rdpsym.derive.derivation import Derivation
from rdpsym.foundations.symbols import alpha
from rdpsym.laws.mechanisms import Mechanism, gaussian, laplace, randomized_response

#: The symbols Table II is stated in.
p = sp.Symbol("p", positive=True)
lam = sp.Symbol("lambda", positive=True)
sigma = sp.Symbol("sigma", positive=True)

ORDERS = (("α > 1", alpha), ("α = 1", sp.S.One), ("α = ∞", sp.oo))


@dataclass(frozen=True)
class Cell:
    mechanism: str
    order_label: str
    derivation: Derivation


def table2_mechanisms() -> list[tuple[str, Mechanism]]:
    """The rows: randomized response (p), Laplace (scale λ), Gaussian (σ), sensitivity 1."""
    return [
        ("Randomized response", randomized_response(p)),
        ("Laplace", laplace(lam)),
        ("Gaussian", gaussian(sigma)),
    ]


def table2() -> list[Cell]:
    """Derive all nine cells of Table II (about a second per continuous cell)."""
    return [
        Cell(name, label, mech.rdp(order))
        for name, mech in table2_mechanisms()
        for label, order in ORDERS
    ]
