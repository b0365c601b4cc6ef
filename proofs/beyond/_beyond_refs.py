"""Shared pieces of the claim files in ``beyond/`` (results users expect beyond the paper).

Files starting with ``_`` are not claim files; nothing here runs at import.  The general helpers
(exact balls, the hockey-stick divergence of finite laws) are in :mod:`rdpsym.claims.finite`.
"""

from __future__ import annotations

from flint import arb

from rdpsym.accounting.conversions import gaussian_delta


def _phi(x: arb) -> arb:
    """Φ(x) = erfc(−x/√2)/2."""
    return (-x / arb(2).sqrt()).erfc() / 2


def gaussian_delta_any(eps: arb, sigma: arb) -> arb:
    """The exact δ(ε) of N(0, σ²) vs N(1, σ²) at every real ε, as a ball.

    δ(ε) = Φ(1/(2σ) − εσ) − e^ε Φ(−1/(2σ) − εσ) (Balle–Wang 2018, Thm 8): the supremum
    of P(S) − e^ε Q(S) is attained at the likelihood-ratio half-line, for any real ε.
    δ is decreasing in ε, so a ball ε is replaced by its lower end (an upper bound on δ).
    For ε ≥ 0 this is ``rdpsym.accounting.conversions.gaussian_delta`` (certified, with
    guard bits against the cancellation at large ε); below 0 there is no cancellation
    (the second term is at most e^ε < 1 times the first) and the formula is used directly.
    """
    lo = eps.lower()
    if lo >= 0:
        return gaussian_delta(lo, sigma)
    half, t = 1 / (2 * sigma), lo * sigma
    return (_phi(half - t) - lo.exp() * _phi(-half - t)).nonnegative_part()
