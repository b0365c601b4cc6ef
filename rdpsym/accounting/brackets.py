"""Certified brackets of ε at an order between two certified orders, for a curve whose g(α) = (α − 1)·ε(α) is convex
(:func:`rdpsym.accounting.api.epsilon`'s screening of a large grid): ε is non-decreasing, g lies above its secants
extended and below its chords.
"""

from __future__ import annotations

from flint import arb, fmpq


class Anchor:
    """A certified order of a bracket: the order, ε's ball and g = (α − 1)ε's (None where ε is not a finite ball)."""

    def __init__(self, order: fmpq, ball):
        self.order, self.at = order, arb(order)
        finite = isinstance(ball, arb) and ball.is_finite()
        self.ball = ball if finite else None
        self.g = (self.at - 1) * ball if finite else None


def bracket(t: arb, left: Anchor | None, low: Anchor, high: Anchor) -> arb | None:
    """A certified ball for ε at the order t from the certified orders ``low`` < t < ``high`` (and ``left`` below
    ``low``, or None) of a curve whose g = (α − 1)ε is convex; None where one of them is not a finite ball."""
    if low.ball is None or high.ball is None or (left is not None and left.ball is None):
        return None
    lower = low.ball.lower()  # ε is non-decreasing
    if left is not None:  # the secant of g through left and low, extended to t, lies below g
        slope = (low.g.lower() - left.g.upper()) / (low.at - left.at)
        lower = lower.max(((low.g.lower() + slope * (t - low.at)) / (t - 1)).lower())
    chord = (low.g.upper() * (high.at - t) + high.g.upper() * (t - low.at)) / (high.at - low.at)
    return arb(0).max(lower).union((chord / (t - 1)).upper())


__all__ = ["Anchor", "bracket"]
