"""Exact privacy profiles beside the RDP conversions: a curve that *is* a Gaussian mechanism.

An RDP curve forgets everything about a mechanism but its Rényi divergences, and every RDP → (ε, δ)
conversion pays for that.  When the curve is known to be a composition of Gaussian mechanisms (made by
:func:`rdpsym.gaussian`, k-fold or added to one another) nothing is forgotten: N(0, σ²) vs N(Δ, σ²) is
(Δ/σ)-GDP, their adaptive composition is exactly μ-GDP with μ² = Σ kᵢΔᵢ²/σᵢ² (Dong, Roth, Su 2019,
arXiv:1905.02383, Cor 3.3), i.e. the pair N(0, 1) vs N(μ, 1), and its exact (ε, δ) curve is Balle–Wang 2018
(arXiv:1805.06530), Theorem 8: the least ε any accountant can certify.  ``rdpsym.epsilon`` and
``rdpsym.delta`` with their defaults (``conversion="best"``, ``orders=None``) use it when it is tighter (it
always is, or ties) and name it ``"balle-wang"``; naming orders or a conversion asks for the RDP route.  A
curve that is only *bounded* by ρα (a zCDP guarantee) is not a Gaussian and does not qualify.

>>> import rdpsym
>>> gaussian_shift(rdpsym.gaussian(sigma=2).curve() * 4 + rdpsym.gaussian(sigma=1).curve())
sqrt(2)
>>> gaussian_shift(rdpsym.zcdp(rho=1).curve()) is None
True
"""

from __future__ import annotations

import sympy as sp
from flint import arb, fmpq

from rdpsym.accounting.conversions import gaussian_delta, gaussian_epsilon
from rdpsym.accounting.curve import RdpCurve
from rdpsym.foundations.balls import bits_for, precision, to_arb, upper_decimal

#: The name results give the exact Gaussian curve as their conversion.
BALLE_WANG = "balle-wang"


def gaussian_shift(curve: RdpCurve) -> sp.Expr | None:
    """μ when ``curve`` is exactly the pair N(0, 1) vs N(μ, 1) (a composition of Gaussian mechanisms), else None."""
    total = sp.S.Zero
    for weight, component in curve.merged_terms:
        shift = getattr(component, "gaussian_shift", None)
        if shift is None or not isinstance(weight, (int, sp.Integer)):
            return None
        total += weight * shift**2
    if not total.is_positive:
        return None
    try:
        return sp.sqrt(total)
    except (OverflowError, ValueError):  # SymPy's root of a rational of thousands of digits (500 distinct σ's)
        return sp.Pow(total, sp.S.Half, evaluate=False)


def exact_value(curve: RdpCurve, kind: str, given: fmpq, dps: int) -> tuple[arb, sp.Expr] | None:
    """(the certified ball of the least ε at δ = ``given`` (``kind`` "epsilon") or of the least δ at ε = ``given``
    ("delta"), μ) for a Gaussian curve; None for any other curve."""
    mu = gaussian_shift(curve)
    if mu is None:
        return None
    with precision(bits_for(dps + 10)):
        if kind == "epsilon":
            return gaussian_epsilon(given, 1, to_arb(mu)), mu
        return gaussian_delta(given, 1, to_arb(mu)).nonnegative_part(), mu


def note(kind: str, mu: sp.Expr, rdp_value: arb, rdp_conversion: str, rdp_order: object, dps: int) -> str:
    """Why the exact curve was taken, with what the RDP conversions give."""
    name = "ε" if kind == "epsilon" else "δ"
    with precision(bits_for(dps + 10)):
        shown = upper_decimal(rdp_value, min(dps, 12)) if isinstance(rdp_value, arb) else "∞"
    return (f"the curve is exactly the Gaussian pair N(0, 1) vs N(μ, 1), μ = {mu}: its exact (ε, δ) curve "
            f"(Balle–Wang 2018, Thm 8) gives the least {name}; the best RDP conversion gives {shown} "
            f"({rdp_conversion} at order {rdp_order})")


__all__ = ["BALLE_WANG", "exact_value", "gaussian_shift", "note"]
