"""ρ-zCDP → (ε, δ)-DP, both ways, and the best RDP order of the curve ρα.

Source: M. Bun, T. Steinke, "Concentrated differential privacy: simplifications,
extensions, and lower bounds", TCC 2016 (arXiv:1605.02065), Proposition 1.3:
ρ-zCDP implies (ρ + 2 sqrt(ρ log(1/δ)), δ)-DP.  ρ-zCDP is (α, ρα)-RDP at every
order, and the bound is the exact minimum over α > 1 of Mironov's Proposition 3
(arXiv:1702.07476v3) on that curve, attained at α* = 1 + sqrt(log(1/δ)/ρ)
(:func:`zcdp_best_order`).  :func:`zcdp_delta` is the bound solved for δ.
"""

from __future__ import annotations

from flint import arb

from rdpsym.accounting.conversions._inputs import (
    Real,
    _checked,
    _delta,
    _nonnegative,
    _positive,
    _probability,
)

__all__ = [
    "zcdp_best_order",
    "zcdp_delta",
    "zcdp_epsilon",
]


def zcdp_epsilon(rho: Real, delta: Real) -> arb:
    """ε of the (ε, δ)-DP guarantee implied by ρ-zCDP.

    Formula: ε = ρ + 2 sqrt(ρ log(1/δ)).
    Source: Bun–Steinke 2016 (arXiv:1605.02065), Proposition 1.3.  It is also the
    exact minimum over α > 1 of Mironov's Prop. 3 applied to the RDP curve ρα:
    ρα + L/(α − 1) = ρ + ρh + L/h (h = α − 1, L = log(1/δ)) is least at
    h = sqrt(L/ρ) (see :func:`zcdp_best_order`), where it equals ρ + 2 sqrt(ρL).
    Hypotheses: ρ ≥ 0, 0 < δ < 1.

    >>> from flint import fmpq
    >>> from rdpsym.foundations.balls import precision, upper_decimal
    >>> with precision(64):
    ...     upper_decimal(zcdp_epsilon(fmpq(1, 8), fmpq(1, 10**5)), 8)
    '2.5242630'
    """
    r, d = _nonnegative("rho", rho), _delta(delta)
    return _checked("epsilon", r + 2 * (r * -d.log()).nonnegative_part().sqrt())


def zcdp_best_order(rho: Real, delta: Real) -> arb:
    """The order α* = 1 + sqrt(log(1/δ)/ρ) minimising Mironov's ε on the curve ρα.

    Formula: α* = 1 + sqrt(log(1/δ)/ρ); at α*, :func:`mironov_epsilon` (α*, ρα*, δ)
    equals :func:`zcdp_epsilon` (ρ, δ) (Bun–Steinke 2016, Prop. 1.3, by calculus).
    Hypotheses: ρ > 0 (for ρ = 0 the infimum, 0, is not attained), 0 < δ < 1.

    >>> from flint import fmpq
    >>> from rdpsym.accounting.conversions import mironov_epsilon
    >>> from rdpsym.foundations.balls import precision, upper_decimal
    >>> rho, d = fmpq(1, 8), fmpq(1, 10**5)
    >>> with precision(64):
    ...     a = zcdp_best_order(rho, d)
    ...     mironov_epsilon(a, rho * a, d).overlaps(zcdp_epsilon(rho, d))
    True
    """
    r, d = _positive("rho", rho), _delta(delta)
    return _checked("order", 1 + (-d.log() / r).sqrt())


def zcdp_delta(rho: Real, epsilon: Real) -> arb:
    """δ(ε) implied by ρ-zCDP: the inverse of :func:`zcdp_epsilon`.

    Formula: δ = exp(−(ε − ρ)²/(4ρ)) for ε ≥ ρ, and 1 (no guarantee) for ε < ρ;
    δ = 0 when ρ = 0 (equal output distributions).
    Source: Bun–Steinke 2016 (arXiv:1605.02065), Proposition 1.3, solved for δ.
    Hypotheses: ρ ≥ 0, ε ≥ 0.  δ is nondecreasing in ρ, so a ball ρ is handled
    through its end points.

    >>> from flint import fmpq
    >>> from rdpsym.foundations.balls import precision, upper_decimal
    >>> with precision(64):
    ...     upper_decimal(zcdp_delta(fmpq(1, 8), 3), 6)
    '0.0000000661561'
    """
    r, e = _nonnegative("rho", rho), _nonnegative("epsilon", epsilon)

    def at(p: arb) -> arb:  # p an exact point ≥ 0
        if p.is_zero():
            return arb(0)  # 0-zCDP: the output distributions are equal, so (0, 0)-DP
        if not e - p > 0:
            if e - p < 0:
                return arb(1)
            return (-((e - p).nonnegative_part() ** 2) / (4 * p)).exp().min(arb(1))
        return (-((e - p) ** 2) / (4 * p)).exp()

    if r.is_exact():
        return _probability("delta", at(r))
    return _probability("delta", at(r.lower().nonnegative_part()).union(at(r.upper())))
