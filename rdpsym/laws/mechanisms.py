"""Built-in mechanisms and their worst-case neighbouring output distributions.

A mechanism's RDP curve is sup over adjacent inputs of D_α(M(D)‖M(D')).  For
the additive-noise mechanisms below that supremum is attained by one explicit
pair, argued in each factory's docstring, so ``.rdp(order)`` is a single
Rényi divergence, derived by :func:`~rdpsym.renyi_divergence` and proved equal
to the published form (Mironov 2017, Table II).
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from rdpsym.foundations.reading import positive_parameter, probability_parameter
from rdpsym.laws.densities import Continuous, Density, Discrete
from rdpsym.derive.derivation import Derivation
from rdpsym.derive.divergence import renyi_divergence
from rdpsym.laws.references import (
    Reference,
    gaussian_reference,
    laplace_reference,
    randomized_response_reference,
)
from rdpsym.foundations.symbols import alpha

#: The output variable of the continuous built-ins.
x = sp.Symbol("x", real=True)


@dataclass(frozen=True)
class Mechanism:
    """A mechanism given by its worst-case pair of output densities (P, Q)."""

    name: str
    parameters: dict
    pair: tuple[Density, Density]
    reference: Reference | None = None
    worst_case: str = ""
    #: D_α(P‖Q) ≥ D_α(Q‖P) at every order, argued in the factory (adjacency is symmetric, so
    #: otherwise a curve takes the larger of the two directions).
    symmetric: bool = False

    def rdp(self, order: object = alpha) -> Derivation:
        """The mechanism's RDP at ``order``: D_order(P‖Q) for the worst-case pair.

        >>> import sympy as sp, rdpsym
        >>> s = sp.Symbol("sigma", positive=True)
        >>> d = rdpsym.gaussian(sigma=s).rdp()
        >>> d.result, d.status
        (alpha/(2*sigma**2), <Status.PROVED: 'proved'>)
        """
        return renyi_divergence(*self.pair, order, reference=self.reference)

    def curve(self):
        """This mechanism's RDP curve ε(α), for composition and conversion.

        The bridge to :mod:`rdpsym.accounting` (imported here, on use, so the
        symbolic core does not depend on the accounting layer).

        >>> import rdpsym
        >>> rdpsym.gaussian(sigma=2).curve().closed_form
        alpha/8
        """
        from rdpsym.accounting.curves import curve_of

        return curve_of(self)


def gaussian(sigma: object, sensitivity: object = 1) -> Mechanism:
    """The Gaussian mechanism f(D) + N(0, σ²) for f with ℓ₂-sensitivity Δ.

    Worst case: by translation invariance every adjacent pair is
    (N(0,σ²), N(μ,σ²)) with |μ| ≤ Δ (after a rotation, in one dimension), and
    D_α = αμ²/(2σ²) increases with |μ|, so μ = Δ is the worst case
    (Mironov 2017, Proposition 7).
    """
    s = positive_parameter(sigma, "sigma")
    d = positive_parameter(sensitivity, "sensitivity")
    P = Continuous(sp.exp(-(x**2) / (2 * s**2)) / sp.sqrt(2 * sp.pi * s**2), x)
    Q = Continuous(sp.exp(-((x - d) ** 2) / (2 * s**2)) / sp.sqrt(2 * sp.pi * s**2), x)
    return Mechanism("gaussian", {"sigma": s, "sensitivity": d}, (P, Q), gaussian_reference(s, d),
                     "N(0, σ²) vs N(Δ, σ²): the divergence grows with the shift, which is at most Δ", True)


def laplace(scale: object, sensitivity: object = 1) -> Mechanism:
    """The Laplace mechanism f(D) + Λ(0, b) for f with ℓ₁-sensitivity Δ.

    Worst case: the pair is (Λ(0,b), Λ(μ,b)) with |μ| ≤ Δ; the divergence
    depends on μ/b only and grows with |μ| (Mironov 2017, Proposition 6 with
    λ = b/Δ), so μ = Δ is the worst case.
    """
    b = positive_parameter(scale, "scale")
    d = positive_parameter(sensitivity, "sensitivity")
    P = Continuous(sp.exp(-sp.Abs(x) / b) / (2 * b), x)
    Q = Continuous(sp.exp(-sp.Abs(x - d) / b) / (2 * b), x)
    return Mechanism("laplace", {"scale": b, "sensitivity": d}, (P, Q), laplace_reference(b, d),
                     "Λ(0, b) vs Λ(Δ, b): the divergence grows with the shift, which is at most Δ", True)


def randomized_response(p: object) -> Mechanism:
    """Binary randomized response: report the true bit with probability p.

    Worst case: there are only two inputs, whose outputs are (p, 1−p) and
    (1−p, p); the divergence is the same in both directions by symmetry
    (Mironov 2017, Proposition 5).
    """
    q = probability_parameter(p, "p")
    P = Discrete({1: q, 0: 1 - q})
    Q = Discrete({1: 1 - q, 0: q})
    return Mechanism("randomized-response", {"p": q}, (P, Q), randomized_response_reference(q),
                     "the two inputs' output laws (p, 1−p) and (1−p, p)", True)


#: Name -> factory, as the command line spells them.
MECHANISMS = {
    "gaussian": gaussian,
    "laplace": laplace,
    "randomized-response": randomized_response,
}
