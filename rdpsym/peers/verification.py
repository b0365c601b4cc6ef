"""The records of :func:`rdpsym.verify`: a peer's answer at one order (:class:`OrderCheck`), its ε at a δ
(:class:`EpsilonCheck`), and the whole verification with its verdict (:class:`Verification`).

The verdict is read off the checks' directions and their certified ``within_rounding``, decided in balls by
:func:`rdpsym.peers.comparison.compare`; the report's text and JSON are :mod:`rdpsym.render.peers`'.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rdpsym.foundations import operations
from rdpsym.peers.comparison import ABOVE, BELOW, EXACT, INVALID, NOT_DECIDED, VALID_OTHER


class _Verdicts:
    """What a check's direction and ``within_rounding`` mean for the verdict (shared by the two checks)."""

    __slots__ = ()

    @property
    def safe(self) -> bool:
        """Whether the answer claims no more privacy than holds (exact, above, or another valid conversion)."""
        return self.direction in (EXACT, ABOVE, VALID_OTHER)

    @property
    def unsafe(self) -> bool:
        """Whether the answer makes the verdict ``unsafe``: invalid, or below the certified value and not
        certainly within float64 rounding (64 ulp relative, decided in balls: a straddling ball is unsafe).
        An answer that is neither :attr:`safe` nor unsafe is below by float64 rounding only."""
        return self.direction == INVALID or (self.direction == BELOW and not self.within_rounding)


@dataclass(frozen=True)
class OrderCheck(_Verdicts):
    """The peer's RDP at one order against the certified value.

    ``error`` and ``relative`` are floats for display (see the module's notes); ``within_rounding`` is the
    certified fact the verdict uses: |peer − certified| ≤ 64 ulp · |certified| at every point of the balls.
    """

    order: object  # fmpq or math.inf
    peer: float
    certified: object  # Enclosure, Infinite (with its reason), or None where rdpsym has no certified value (a NaN told)
    error: float  # peer − certified (midpoint), as the nearest float; ±inf beyond float64 (or with ∞ involved)
    relative: float  # |error| / |certified|, the upper end of its ball as a float; inf when unbounded; never NaN
    direction: str
    cause: str
    within_rounding: bool = False  # certainly within 64 ulp relative (decided in balls)


@dataclass(frozen=True)
class EpsilonCheck(_Verdicts):
    """The peer's ε at δ against the certified ε of the same question (same orders and conversion).

    ``error``, ``relative`` and ``within_rounding`` as for :class:`OrderCheck`.
    """

    delta: object  # fmpq
    peer: float
    certified: object  # Enclosure, or math.inf
    order: object  # the certified best order
    conversion: str
    error: float
    relative: float
    direction: str
    cause: str
    within_rounding: bool = False
    over: str = "the same orders"  # the orders the certified ε is least over, as the report names them


@dataclass(frozen=True)
class Verification:
    """A peer's answers checked against certified values: per order, and ε at δ.

    A record: its ``str()`` is the text report and ``as_dict()`` the JSON one
    (:mod:`rdpsym.render.peers`).
    """

    peer: str
    told: str
    dps: int
    orders: tuple = ()
    epsilon: EpsilonCheck | None = None
    notes: tuple = field(default_factory=tuple)

    @property
    def checks(self) -> tuple:
        return self.orders + ((self.epsilon,) if self.epsilon is not None else ())

    @property
    def unsafe(self) -> bool:
        """Whether any answer claims more privacy than holds (below the certified value, or invalid), by
        however little."""
        return any(c.direction in (BELOW, INVALID) for c in self.checks)

    @property
    def verdict(self) -> str:
        """``unsafe`` (an answer invalid, or below the certified value and not certainly within float64
        rounding: some check's :attr:`~OrderCheck.unsafe`), ``below by float64 rounding only``,
        ``conservative`` (some answer above by more than rounding, or not certainly within it), or ``agrees``.
        Decided in balls (:func:`compare`); ``rdpsym verify`` exits 1 exactly when it is ``unsafe``."""
        if any(c.unsafe for c in self.checks):
            return "unsafe"
        if self.unsafe:
            return "below by float64 rounding only"
        if any(c.direction == NOT_DECIDED for c in self.checks):
            return "not decided"
        if any(c.direction == ABOVE and not c.within_rounding for c in self.checks):
            return "conservative"
        return "agrees"

    def __str__(self) -> str:
        return operations.text(self)

    def __repr__(self) -> str:
        """One line: the verdict and how many answers were checked (each check: ``.orders``, ``.epsilon``)."""
        below = sum(c.direction in (BELOW, INVALID) for c in self.checks)
        told = self.told if len(self.told) <= 60 else self.told[:57] + "…"
        return (f"Verification({self.peer!r} on {told}: {self.verdict}; {len(self.orders)} orders"
                f"{' and epsilon' if self.epsilon is not None else ''} checked, {below} below the certified value)")

    def as_dict(self) -> dict:
        return operations.json(self)


__all__ = ["EpsilonCheck", "OrderCheck", "Verification"]
