"""Additive-noise mechanisms f(D) + Z: the Gaussian and the Laplace mechanism, on the line and in ℝ^d.

On the line the worst case over adjacent inputs is the largest shift Δ
(Mironov 2017, Propositions 6 and 7).  With ``dimension=d`` the output laws
are products of independent coordinates (:mod:`rdpsym.laws.independent`) and
the adjacent inputs a sensitivity ball (:class:`SensitivityBall`): ℓ₂ for the
Gaussian, ℓ₁ for the Laplace mechanism, whose worst case over the ball is
derived, not assumed.  The one-dimensional and the d-dimensional factories are
one family in one module, above the laws in several variables, so that
``gaussian(σ, Δ, dimension=d)`` reaches the multivariate form without an
import back.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

from rdpsym.foundations.errors import ParameterError, must
from rdpsym.foundations.reading import positive_parameter
from rdpsym.foundations.record import MIRONOV_2017
from rdpsym.laws.densities import Density
from rdpsym.laws.independent import Independent, _copies
from rdpsym.laws.mechanism_types import LazyPair, Mechanism
from rdpsym.laws.pairs import _gaussian_pair, _laplace_pair
from rdpsym.laws.references import Reference, gaussian_reference, laplace_reference


def gaussian(sigma: object, sensitivity: object = 1, dimension: object = 1) -> Mechanism:
    """The Gaussian mechanism f(D) + N(0, σ²) for f with ℓ₂-sensitivity Δ.

    Worst case: by translation invariance every adjacent pair is
    (N(0,σ²), N(μ,σ²)) with |μ| ≤ Δ (after a rotation, in one dimension), and
    D_α = αμ²/(2σ²) increases with |μ|, so μ = Δ is the worst case
    (Mironov 2017, Proposition 7).  ``dimension=d`` (a number or a positive integer
    symbol): f(D) ∈ ℝ^d and noise N(0, σ²I_d), its worst case over the ℓ₂ ball derived
    (:func:`gaussian_mechanism`).
    """
    if not (isinstance(dimension, int) and dimension == 1):
        return gaussian_mechanism(sigma, sensitivity, dimension)
    s = positive_parameter(sigma, "sigma")
    d = positive_parameter(sensitivity, "sensitivity")
    return Mechanism("gaussian", {"sigma": s, "sensitivity": d}, LazyPair(_gaussian_pair, s, d),
                     gaussian_reference(s, d),
                     "N(0, σ²) vs N(Δ, σ²): the divergence grows with the shift, which is at most Δ", True,
                     "inputs D, D' with ‖f(D) − f(D')‖₂ ≤ Δ (ℓ₂-sensitivity Δ)", MIRONOV_2017.at("Proposition 7"))


def laplace(scale: object, sensitivity: object = 1, dimension: object = 1) -> Mechanism:
    """The Laplace mechanism f(D) + Λ(0, b) for f with ℓ₁-sensitivity Δ.

    Worst case: the pair is (Λ(0,b), Λ(μ,b)) with |μ| ≤ Δ; the divergence
    depends on μ/b only and grows with |μ| (Mironov 2017, Proposition 6 with
    λ = b/Δ), so μ = Δ is the worst case.  ``dimension=d``: f(D) ∈ ℝ^d with
    independent Λ(0, b) coordinates, its worst case over the ℓ₁ ball derived
    (:func:`laplace_mechanism`).
    """
    if not (isinstance(dimension, int) and dimension == 1):
        return laplace_mechanism(scale, sensitivity, dimension)
    b = positive_parameter(scale, "scale")
    d = positive_parameter(sensitivity, "sensitivity")
    return Mechanism("laplace", {"scale": b, "sensitivity": d}, LazyPair(_laplace_pair, b, d), laplace_reference(b, d),
                     "Λ(0, b) vs Λ(Δ, b): the divergence grows with the shift, which is at most Δ", True,
                     "inputs D, D' with |f(D) − f(D')| ≤ Δ (ℓ₁-sensitivity Δ)", MIRONOV_2017.at("Proposition 6"))


# --------------------------------------------------------------------------- mechanisms in several dimensions


@dataclass(frozen=True)
class SensitivityBall:
    """Adjacent inputs of an additive-noise mechanism: outputs f(D) + Z and f(D′) + Z with ‖f(D) − f(D′)‖_p ≤ Δ.

    ``noise`` is the law of one coordinate of Z (centred at 0, symmetric), ``norm`` p
    (1 or 2), ``radius`` Δ, ``dimension`` d (a number or a positive integer symbol).
    The output laws are then Z^{⊗d} and Z^{⊗d} shifted by v = f(D) − f(D′): the worst
    case over the ball is derived from the one-dimensional divergence of a shift.
    """

    noise: Density
    norm: int
    radius: sp.Expr
    dimension: sp.Expr
    shift: sp.Symbol = field(default_factory=lambda: sp.Symbol("t", positive=True))


def _dimension(value: object) -> sp.Expr:
    """A dimension: an integer ≥ 1 or a positive integer symbol (read like a number of copies)."""
    try:
        return _copies(value)
    except ParameterError:
        raise ParameterError(must("dimension", "an integer >= 1, or a Symbol declared integer=True, positive=True",
                                  value)) from None


@dataclass(frozen=True)
class BallReference(Reference):
    """A published form that is the worst case over a sensitivity ball (``ball``), e.g. Proposition 7 for ℓ₂."""

    ball: SensitivityBall | None = None


def _ball_reference(base: Reference, ball: SensitivityBall) -> BallReference:
    """The published one-dimensional form (``base``) attached to the ball it is the worst case of."""
    return BallReference(base.source, base.item, base.moment, base.kl, base.dinf, base.kl_item, base.dinf_item, ball)


def gaussian_mechanism(sigma: object, sensitivity: object = 1, dimension: object = 2):
    """The d-dimensional Gaussian mechanism f(D) + N(0, σ²I_d) for f with ℓ₂-sensitivity Δ.

    Worst case (derived, not assumed): coordinate by coordinate, a shift t costs
    f(t) = αt²/(2σ²), so a shift v costs Σ f(v_i) = α‖v‖₂²/(2σ²) (additivity), which
    depends on v through ‖v‖₂ only (rotation invariance) and grows with it: the
    maximum over ‖v‖₂ ≤ Δ is on the sphere, e.g. at v = Δe₁, with value αΔ²/(2σ²)
    (Mironov 2017, Proposition 7, ℓ₂ sensitivity).
    """
    return _in_dimension(gaussian(sigma, sensitivity), "sigma", 2, dimension,
                         "N(0, σ²I) vs N(v, σ²I) costs α‖v‖₂²/(2σ²): largest on the sphere ‖v‖₂ = Δ, e.g. v = Δe₁",
                         MIRONOV_2017.at("Proposition 7"))


def laplace_mechanism(scale: object, sensitivity: object = 1, dimension: object = 2):
    """The d-dimensional Laplace mechanism f(D) + Λ(0, b)^{⊗d} for f with ℓ₁-sensitivity Δ.

    Worst case (derived): a shift t of one coordinate costs f(t), convex in t with
    f(0) = 0 (1/(α−1) times a log-sum-exp of affine functions of t), so f(t)/t is
    nondecreasing and Σ f(|v_i|) ≤ Σ |v_i|·f(Δ)/Δ ≤ f(Δ) over ‖v‖₁ ≤ Δ: all of Δ on
    one coordinate, the one-dimensional Laplace mechanism (Mironov 2017, Proposition 6
    with λ = b/Δ).
    """
    return _in_dimension(laplace(scale, sensitivity), "scale", 1, dimension,
                         "Λ(0, b)^{⊗d} vs its shift by v: convex coordinate costs put the worst case at v = Δe₁",
                         MIRONOV_2017.at("Proposition 6"))


def _in_dimension(one: Mechanism, scale: str, norm: int, dimension: object, worst_case: str, source) -> Mechanism:
    """The one-dimensional mechanism ``one`` in d dimensions: independent noise coordinates, the ℓ_norm ball of
    radius Δ, and its worst case Δe₁ (the pair: the noise in d dimensions against its shift by Δ in the first)."""
    d = _dimension(dimension)
    if d == 1:
        return one
    delta = one.parameters["sensitivity"]
    noise, shifted = one.pair
    return Mechanism(one.name, {scale: one.parameters[scale], "sensitivity": delta, "dimension": d},
                     (noise ** d, Independent(shifted, Independent.iid(noise, d - 1))),
                     _ball_reference(one.reference, SensitivityBall(noise, norm, delta, d)), worst_case, True,
                     f"inputs D, D' with ‖f(D) − f(D')‖{'₁₂'[norm - 1]} ≤ Δ (ℓ{'₁₂'[norm - 1]}-sensitivity Δ), "
                     "f(D) ∈ ℝ^d", source)


def ball_of(reference: object) -> SensitivityBall | None:
    """The sensitivity ball a mechanism's reference is the worst case over, if any."""
    return getattr(reference, "ball", None)


__all__ = [
    "BallReference",
    "SensitivityBall",
    "ball_of",
    "gaussian",
    "gaussian_mechanism",
    "laplace",
    "laplace_mechanism",
]
