"""Shared pieces of the claim files in ``beyond/`` (results users expect beyond the paper).

Files starting with ``_`` are not claim files; nothing here runs at import.
"""

from __future__ import annotations

from flint import arb, fmpq

from rdpsym.accounting.conversions import gaussian_delta


def ball(v) -> arb:
    """An exact ball from a SymPy rational (or an ``fmpq`` / int)."""
    if isinstance(v, arb):
        return v
    if isinstance(v, fmpq):
        return arb(v)
    if hasattr(v, "p"):
        return arb(fmpq(int(v.p), int(v.q)))
    return arb(v)


def rational(v) -> fmpq:
    return v if isinstance(v, fmpq) else fmpq(int(v.p), int(v.q))


def hockey_stick(p, q, eps: arb) -> arb:
    """Σ_x (P(x) − e^ε Q(x))₊ = sup_S [P(S) − e^ε Q(S)] for finite laws, for any real ε."""
    w = eps.exp()
    total = arb(0)
    for a, b in zip(p, q):
        total += (arb(a) - w * arb(b)).nonnegative_part()
    return total


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
