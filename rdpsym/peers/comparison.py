"""A peer's float against a certified ball, decided in balls: the comparison :mod:`rdpsym.peers.verify` rests on.

The peer's float is read as its exact binary value; the error peer − certified and the relative error are
balls at a precision set by the certified ball (10⁻⁶⁰⁰ and 10⁶⁰⁰ alike), and each threshold (inside the ball,
64 ulp, 10⁻⁹) is a certain comparison of balls.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from flint import arb, fmpq

from rdpsym.foundations.balls import precision
from rdpsym.foundations.errors import ParameterError, must

#: 64 units in the last place of a float64, relative: what a few dozen correctly rounded operations lose.
ROUNDING = 64 * 2.0**-53
#: Relative error a float64 accountant's long computation may accumulate (the audits' tolerance too).
ACCUMULATED = 1e-9
#: e^{−30}: the absolute size below which Opacus and prv_accountant stop MTZ's fractional-order series.
SERIES_CUTOFF = math.exp(-30)
#: The thresholds as exact rationals, for the comparisons of balls: 2^−47 and 10^−9.
ROUNDING_Q = fmpq(64, 2**53)
ACCUMULATED_Q = fmpq(1, 10**9)

#: Directions of a peer's error.
EXACT, ABOVE, BELOW, INVALID, VALID_OTHER = "exact", "above", "below", "invalid", "valid (another conversion)"
#: An ε below every RDP conversion from a peer whose ε is no RDP conversion (Opacus's PRV and GDP accountants),
#: for a curve without an exact profile: rdpsym certifies only upper bounds there, so it is neither confirmed nor
#: refuted.
NOT_DECIDED = "not decided"


# ---------------------------------------------------------------- a float against a ball
def exact_float(x: float) -> arb:
    """A finite float as a ball of radius 0 at its exact binary value (``5e-324`` is 2^−1074 exactly).

    >>> exact_float(0.1) == arb(fmpq(3602879701896397, 2**55)), exact_float(5e-324).is_exact()
    (True, True)
    """
    if not math.isfinite(x):
        raise ParameterError(must("the peer's answer", "a finite float here", repr(x)))
    return arb(float(x))  # (python-flint reads a double exactly, at any working precision)


def _bits(ball: arb) -> int:
    """Working precision for comparing a float with ``ball``: its midpoint's bits and 128 guard bits.  Arb's
    exponents are unbounded, so the magnitudes (2^±1074 for a float, 10^±600 or beyond for a truth) never
    limit it: only the relative accuracy asked of the error does."""
    return max(256, abs(int(ball.mid().man_exp()[0])).bit_length() + 128)


@dataclass(frozen=True)
class Comparison:
    """A finite peer answer against a finite certified ball, decided in balls (made by :func:`compare`).

    ``direction``: :data:`EXACT` (the float's exact value lies in the ball), :data:`BELOW` or :data:`ABOVE`,
    certain (the ball's ends are exact numbers).  ``error``: the ball peer − certified.  ``relative``: the ball
    |peer − certified| / |certified|, or ``None`` where it is unbounded (the certified ball contains 0 and the
    peer's answer differs from it).  ``bits``: the working precision of both.
    """

    direction: str
    error: arb
    relative: arb | None
    bits: int

    def within(self, threshold: fmpq) -> bool:
        """Whether the relative error is *certainly* ≤ ``threshold`` (an exact rational): at every point of its
        ball.  A ball that straddles the threshold, or an unbounded one, is not within."""
        if self.relative is None:
            return False
        with precision(self.bits):
            return bool(self.relative <= arb(fmpq(threshold)))

    @property
    def relative_float(self) -> float:
        """The relative error's upper end, as the nearest float: for display (∞ when unbounded or beyond float64's
        range; never NaN)."""
        if self.relative is None:
            return math.inf
        with precision(self.bits):
            end = self.relative.upper()
            return float(end) if end.is_finite() else math.inf

    @property
    def error_float(self) -> float:
        """peer − certified (the ball's midpoint) as the nearest float: for display (±∞ beyond float64's range)."""
        with precision(self.bits):
            return float(self.error.mid())

    def relative_text(self, digits: int = 2) -> str:
        """The relative error's upper end to ``digits`` digits, for display at any magnitude (``1.0e+600`` where
        :attr:`relative_float` is ∞); ``∞`` when unbounded."""
        if self.relative is None:
            return "∞"
        value = self.relative_float
        if math.isfinite(value) and value != 0 and abs(math.log10(value)) < 300:
            return f"{value:.{digits}g}"
        with precision(self.bits):
            return self.relative.upper().str(digits, radius=False)


def compare(peer: float, certified: arb) -> Comparison:
    """A finite float ``peer`` (its exact binary value) against a finite certified ball, in balls.

    Nothing goes through a float: the direction is decided against the ball's exact ends, and the error and
    relative error are balls whose comparisons with a threshold (:meth:`Comparison.within`) are certain.

    >>> c = compare(1e308, arb(10) ** 600)
    >>> c.direction, c.relative_float, c.within(ROUNDING_Q)
    ('below', 1.0, False)
    >>> c = compare(5e-324, arb(0))
    >>> c.direction, c.relative, c.relative_float
    ('above', None, inf)
    """
    if not isinstance(certified, arb) or not certified.is_finite():
        raise ParameterError(must("the certified value", "a finite ball", repr(certified)))
    bits = _bits(certified)
    with precision(bits):
        p = exact_float(peer)
        lower, upper = certified.lower(), certified.upper()
        direction = EXACT if lower <= p <= upper else BELOW if p < lower else ABOVE
        error = p - certified
        if error.is_zero():
            relative = arb(0)
        elif certified.contains(0):
            relative = None
        else:
            relative = abs(error) / abs(certified)
    return Comparison(direction, error, relative, bits)


__all__ = ["ABOVE", "ACCUMULATED", "ACCUMULATED_Q", "BELOW", "EXACT", "INVALID", "NOT_DECIDED", "ROUNDING",
           "ROUNDING_Q", "SERIES_CUTOFF", "VALID_OTHER", "Comparison", "compare", "exact_float"]
