"""Why a peer's number differs from the certified one: rounding, error accumulated in float64, or a formula or
a step of the peer's own code known to give this error (each named only where the balls certify it).

Read by :func:`rdpsym.verify` (:mod:`rdpsym.peers.verify`) for each order and for the ε at δ.
"""

from __future__ import annotations

import math

from flint import arb, fmpq

from rdpsym.accounting.components import SampledGaussian
from rdpsym.accounting.curve import RdpCurve
from rdpsym.foundations.balls import precision
from rdpsym.peers.comparison import ABOVE, ACCUMULATED_Q, BELOW, Comparison

DP_ACCOUNTING = ("dp-accounting", "dp_accounting")

#: dp_accounting's ``compute_epsilon`` with ∞ among its orders (checked against its source, 0.6): at α = ∞ its
#: r + log1p(−1/α) − log(δα)/(α − 1) is NaN, np.argmin returns a NaN's index, and max(0, NaN) is 0 (a probe).
NAN_AT_INFINITY = ("the order ∞ among the peer's orders: dp_accounting's conversion there, r − log(δ·α)/(α − 1), "
                    "is ∞/∞ = NaN; its np.argmin returns the NaN's index and max(0, NaN) is 0, whatever the other "
                    "orders give (leave ∞ out of the orders)")


def holds_infinity(orders: object) -> bool:
    """Whether an order list (as :func:`api.epsilon` takes it) has the order ∞."""
    return isinstance(orders, (list, tuple)) and any(o == math.inf for o in orders)


def sampled_gaussian_weight(curve: RdpCurve) -> int | None:
    """The count k when the curve is k × one subsampled Gaussian (the case known peer formulas are about)."""
    if len(curve.terms) == 1 and isinstance(curve.terms[0][1], SampledGaussian):
        return int(curve.terms[0][0])
    return None


#: Within a relative error of 1 (twice the certified value): where a peer's looser fractional-order series may be
#: named as the likely cause of an answer above the certified value.
TWICE = fmpq(1)


def why(peer: str, curve: RdpCurve, order: object, c: Comparison, within: bool) -> str:
    """Why a peer's RDP differs: rounding, accumulated error, or a formula known to give this error (every
    threshold decided in balls: a cause is named only when the balls certify it)."""
    if within:
        return "float64 rounding (within 64 ulp)"
    direction = c.direction
    fractional = order != math.inf and not fmpq(order).q == 1
    k = sampled_gaussian_weight(curve)
    # The looser series of a peer's are named only as the likely cause, and only for an answer within twice the
    # certified value: they are not recomputed here, and a value 6·10⁶ times too high was put down to them (a probe).
    looser = fractional and k and direction == ABOVE and c.within(TWICE)
    if looser and peer in DP_ACCOUNTING:
        return ("likely |C(α,k)| summed in MTZ's fractional-order series (Mironov–Talwar–Zhang 2019, Sec. 3.3, with "
                "absolute binomial coefficients): a valid, looser upper bound (the peer's series is not recomputed "
                "here)")
    if looser and peer in ("autodp",):
        return ("likely the fractional order bounded from the neighbouring integer orders (autodp's interpolation): "
                "a valid, looser upper bound (not recomputed here)")
    if fractional and k and peer in ("opacus", "prv-accountant", "prv_accountant") and direction == BELOW:
        # The implied absolute error in A_α = exp((α − 1)·ε/k) ≈ 1: within a few terms of e^{−30}.
        with precision(c.bits):
            implied = abs(c.error) / k * (arb(fmpq(order)) - 1)
            if implied <= 64 * arb(-30).exp():
                return (f"MTZ's fractional-order series stopped once its terms fall below e^-30 ≈ 9.4e-14 in "
                        f"absolute size (an absolute error of {float(implied.upper()):.2g} in A_α, large relative "
                        "to A_α − 1)")
    if c.within(ACCUMULATED_Q):
        return "float64 error accumulated over the computation (within 1e-9 relative)"
    side = "above" if direction == ABOVE else "below"
    return f"{side} by {c.relative_text()} relative: a different formula or lost digits"


__all__ = ["DP_ACCOUNTING", "NAN_AT_INFINITY", "TWICE", "holds_infinity", "sampled_gaussian_weight", "why"]
