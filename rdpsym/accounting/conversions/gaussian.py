"""The exact (ε, δ) curve of the Gaussian mechanism, both ways.

Source: B. Balle, Y.-X. Wang, "Improving the Gaussian mechanism for differential
privacy: analytical calibration and optimal denoising", ICML 2018
(arXiv:1805.06530), Theorem 8: adding N(0, σ²I) to a query of L2 sensitivity Δ is
(ε, δ)-DP if and only if δ ≥ δ(ε) = Φ(Δ/(2σ) − εσ/Δ) − e^ε Φ(−Δ/(2σ) − εσ/Δ).
:func:`gaussian_delta` evaluates it (its two terms cancel for large ε: more guard
bits until the ball has the working precision's relative accuracy), and
:func:`gaussian_epsilon` inverts it by certified bisection.  It is the exact
reference the RDP conversions of :mod:`~rdpsym.accounting.conversions.rdp_dp` are
measured against.
"""

from __future__ import annotations

import math

from flint import arb, ctx, fmpq

from rdpsym.accounting.conversions._inputs import (
    Real,
    _adaptive,
    _bisect_decreasing,
    _delta,
    _is_exact,
    _midpoint_rational,
    _positive,
    _probability,
    _real,
)
from rdpsym.foundations.balls import to_fmpq
from rdpsym.foundations.errors import RdpSymError

__all__ = [
    "gaussian_delta",
    "gaussian_epsilon",
]


def _erfc(x: arb) -> arb:
    """erfc(x): Arb's where its ball holds what x's ball allows, else the better of it and Γ(1/2, x²)/√π (x > 1).

    Arb's erfc propagates the radius of a large argument far too pessimistically (x = 10⁶ ± 10⁻⁸⁰ at 300 bits: no
    bit left), Γ(1/2, ·) does not (244 bits there).  For a narrow ball Arb's erfc is the faster (17 against 39 µs at
    x = 2.3, 300 bits) and the more accurate (293 against 201 bits at x = 7.7; 194 against 104 at 7.7 ± 10⁻⁶⁰), and
    where Γ(1/2, x²) of a wide, large x is NaN it may still be finite.  Both are enclosures of erfc(x): the
    narrower is returned.  erfc's relative condition number at x is about 2x², so a ball x of b bits leaves
    b − log₂(2x²) for any method (Γ reaches about that): Arb's erfc within 4 bits of it (or of the precision) is kept
    at once, without Γ."""
    direct = x.erfc()
    if not x > 1:
        return direct
    loss = 2 * math.log2(float(x.upper())) + 1 if x.upper() < 2**500 else math.inf
    attainable = min(ctx.prec, x.rel_accuracy_bits() - loss) - 4
    # (Only where that is 8 bits or more: where x's ball leaves little or nothing, the two can still differ by orders
    # of magnitude in width, and δ(ε)'s cancelling terms need the narrower: σ = 10⁻²⁰ ± 10⁻³⁰ found no ε otherwise,
    # and at x = 31 161 ± 2⁻⁴⁷ relative Arb's erfc kept 8 bits where Γ kept 15.)
    if attainable >= 8 and direct.is_finite() and direct.rel_accuracy_bits() >= attainable:
        return direct
    via_gamma = (x * x).gamma_upper(fmpq(1, 2)) / arb.pi().sqrt()
    if not via_gamma.is_finite():
        return direct
    if not direct.is_finite():
        return via_gamma
    # (by radius: both hold the same number, and two balls about 0 have the same relative accuracy, none)
    return direct if direct.rad() <= via_gamma.rad() else via_gamma


def gaussian_delta(epsilon: Real, sigma: Real, sensitivity: Real = 1) -> arb:
    """The exact (ε, δ(ε)) curve of the Gaussian mechanism.

    Formula: δ(ε) = Φ(Δ/(2σ) − εσ/Δ) − e^ε Φ(−Δ/(2σ) − εσ/Δ), Φ(x) = erfc(−x/√2)/2.
    Source: B. Balle, Y.-X. Wang, "Improving the Gaussian mechanism for differential
    privacy: analytical calibration and optimal denoising", ICML 2018
    (arXiv:1805.06530), Theorem 8: adding N(0, σ²I) to a query of L2 sensitivity Δ
    is (ε, δ)-DP if and only if δ ≥ δ(ε).
    Hypotheses: σ > 0, Δ > 0, any real ε (for ε < 0 it is still the hockey-stick
    divergence sup_S P(S) − e^ε Q(S), which conversions that return a negative ε need).
    For large ε both terms are tiny and nearly equal (they differ by a factor
    ~ Δ/(σ·(εσ/Δ))); the difference is recomputed with more guard bits until the
    ball has the working precision's relative accuracy.

    >>> from rdpsym.foundations.balls import precision, upper_decimal
    >>> with precision(64):
    ...     far = gaussian_delta(30, 1)                  # two terms ~1e-196 that cancel
    ...     upper_decimal(gaussian_delta(1, 1), 8), far.rel_accuracy_bits() > 60, far > 0
    ('0.12693674', True, True)
    """
    _real("epsilon", epsilon)
    _positive("sigma", sigma)
    _positive("sensitivity", sensitivity)

    def compute() -> arb:
        e = _real("epsilon", epsilon)
        s, D = _positive("sigma", sigma), _positive("sensitivity", sensitivity)
        half_mu, t = D / (2 * s), e * s / D
        r2 = arb(2).sqrt()
        # Φ(x) = erfc(−x/√2)/2 with x = half_mu − t and x = −half_mu − t.
        return _erfc((t - half_mu) / r2) / 2 - e.exp() * _erfc((t + half_mu) / r2) / 2

    return _probability("delta", _adaptive("delta", compute, _is_exact(epsilon, sigma, sensitivity)))


def gaussian_epsilon(delta: Real, sigma: Real, sensitivity: Real = 1) -> arb:
    """The least ε with the Gaussian mechanism (ε, δ)-DP: the inverse of :func:`gaussian_delta`.

    Formula: ε(δ) = min{ε ≥ 0 : δ(ε) ≤ δ} with δ(ε) of Balle–Wang 2018
    (arXiv:1805.06530), Theorem 8; δ(ε) is continuous and decreasing, so certified
    bisection applies: the result is the ball [ε_lo, ε_hi] with δ(ε_lo) > δ
    (or ε_lo = 0) and δ(ε_hi) ≤ δ both certified, narrowed to the working precision
    (or until the balls of δ(ε) and δ overlap).  It is exactly 0 when δ ≥ δ(0).
    Hypotheses: 0 < δ < 1, σ > 0, Δ > 0.

    >>> from flint import fmpq
    >>> from rdpsym.foundations.balls import precision, upper_decimal
    >>> with precision(64):
    ...     eps = gaussian_epsilon(fmpq(1, 10**5), 1)
    ...     upper_decimal(eps, 8), gaussian_delta(eps.upper(), 1) <= fmpq(1, 10**5)
    ('4.3771781', True)
    """
    d = _delta(delta)
    _positive("sigma", sigma)
    _positive("sensitivity", sensitivity)
    return _bisect_decreasing("epsilon", lambda x: gaussian_delta(x, sigma, sensitivity), d,
                              near=_near_the_root(d, sigma, sensitivity))


def _near_the_root(delta: arb, sigma: Real, sensitivity: Real) -> tuple[fmpq, ...]:
    """Guesses of ε either side of ε(δ), for :func:`_bisect_decreasing`, which certifies each by evaluating δ there.

    In t = εσ/Δ − Δ/(2σ) the curve is δ(ε) = Φ(−t) − e^ε·Φ(−t − Δ/σ) ≤ Φ(−t) ≤ e^{−t²/2}/2, which is at most δ/2 at
    t = √(2 log(1/δ)): above the root.  Below it, mostly: t − 2, or for δ ≥ ½ the t < 0 with Φ(t) ≤ (1 − δ)/2.  In
    ε that is ε = μ·(t + μ/2), μ = Δ/σ: the root sits within a few μ of μ²/2, a step far from 0 when σ is small,
    where doubling from ε = 1 and bisecting took an evaluation a bit of ε and of the step's depth (σ = 10⁻³⁰: 300
    evaluations of δ(ε); about 20 so).  μ is exact (at σ = 10⁻³⁰, μ²/2 rounded to 64 bits would hide the μ·t that
    places the guesses), so σ and Δ must be numbers, not balls: for balls, no guesses."""
    if isinstance(sigma, arb) or isinstance(sensitivity, arb):
        # A ball's midpoint misplaces μ²/2 by more than μ·t once σ is small, and the δ(ε) of a ball σ is wide
        # there: the trial points would cost more than they save (and once reached an x where Γ(1/2, x²) was NaN).
        return ()
    try:
        mu = to_fmpq(sensitivity, "sensitivity") / to_fmpq(sigma, "sigma")
    except (ValueError, TypeError, ArithmeticError, RdpSymError):
        return ()
    above = _midpoint_rational((2 * (1 / delta).log()).sqrt())
    below = _midpoint_rational(-(2 * (1 / (1 - delta)).log()).sqrt()) if delta.mid() >= 0.5 else \
        (above - 2 if above is not None else None)
    if above is None or below is None:
        return ()
    guesses = (mu * (below + mu / 2), mu * (above + mu / 2))
    return tuple(g for g in guesses if g > 0)
