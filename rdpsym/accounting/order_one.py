"""The TV/KL branch at order 1: (0, δ)-DP from the curve's KL divergence.

Bretagnolle–Huber: TV ≤ √(1 − e^{−KL}), and a total variation of at most δ is (0, δ)-DP, so (ε, δ)-DP at every
ε ≥ 0.  KL ≤ D_α for every α > 1, so α = 1 is the one order this branch gains from (every other conversion divides
log(1/δ) by α − 1, ∞ there).  :func:`rdpsym.epsilon` and :func:`rdpsym.delta` with ``tv-kl`` or ``best`` try it
beside their grid (dp_accounting's ``compute_epsilon`` has the same branch: TensorFlow Privacy issue #166).
"""

from __future__ import annotations

from collections.abc import Callable

from flint import arb, fmpq

from rdpsym.accounting.curve import RdpCurve
from rdpsym.foundations.balls import bits_for, precision, upper_decimal
from rdpsym.foundations.errors import RdpSymError

#: The KL is tried only where the grid's least RDP value is within this factor of what TV/KL needs: D_α ≥ KL, and
#: near α = 1 D_α is close to it; the limit α → 1 of a new closed form costs SymPy ~0.1 s, too much for every call.
KL_REACH = 2


def _tv_where(c: RdpCurve, dps: int, fits: Callable[[arb], bool]) -> tuple[arb, arb] | None:
    """(the curve's KL, √(1 − e^{−KL})) as balls where ``fits(TV)``, or None there and for a curve without a KL on it
    (no closed form to take the limit of: the subsampled Gaussian)."""
    try:
        kl = c.kl_enclosure(dps + 3)
    except RdpSymError:
        return None
    if not isinstance(kl, arb):
        return None
    with precision(bits_for(dps + 10)):
        tv = (1 - (-kl).exp()).sqrt()
        return (kl, tv) if fits(tv) else None


def _said(kl: arb, tv: arb) -> str:
    return (f"tv-kl at order 1: the curve's KL ≤ {upper_decimal(kl, 12)} gives TV ≤ √(1 − e^(−KL)) ≤ "
            f"{upper_decimal(tv, 6)}")


def zero_epsilon(c: RdpCurve, d: fmpq, balls: list, dps: int) -> str | None:
    """Why ε = 0 at δ = ``d`` through the curve's KL (a note), or None: where no grid order's ball is within
    :data:`KL_REACH` times TV/KL's threshold −log(1 − δ²), the KL is not sought."""
    with precision(bits_for(dps + 10)):
        reach = -KL_REACH * (1 - arb(d) ** 2).log()
        if not any(isinstance(b, arb) and b.lower() <= reach for b in balls):
            return None
    found = _tv_where(c, dps, lambda tv: tv.upper() <= arb(d))
    if found is None:
        return None
    return _said(*found) + " ≤ δ (Bretagnolle–Huber): (0, δ)-DP; no order of the grid gives 0"


def kl_delta(c: RdpCurve, below: object, balls: list, dps: int) -> tuple[arb, str] | None:
    """(δ = √(1 − e^{−KL}), a note) where it is certainly below ``below`` (the grid's δ ball, or ∞), else None; the
    KL is sought only where the grid's least RDP value divided by :data:`KL_REACH` gives a TV below ``below``
    (:func:`rdpsym.delta` with tv-kl missed the order-1 bound :func:`rdpsym.epsilon` used: a probe)."""
    finite = [b for b in balls if isinstance(b, arb) and b.is_finite()]
    if not finite:
        return None
    with precision(bits_for(dps + 10)):
        least = min((b.lower() for b in finite), key=lambda b: b.mid())
        guess = (1 - (-least / KL_REACH).exp()).sqrt()
        if isinstance(below, arb) and not guess.lower() < below.upper():
            return None
    found = _tv_where(c, dps, lambda tv: not isinstance(below, arb) or tv.upper() < below.upper())
    if found is None:
        return None
    return found[1], _said(*found) + (", (0, δ)-DP and so (ε, δ)-DP at every ε (Bretagnolle–Huber), below every "
                                       "order of the grid")


__all__ = ["KL_REACH", "kl_delta", "zero_epsilon"]
