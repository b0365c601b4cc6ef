"""The sampled Gaussian's log-moment log A_α by plain mpmath: the reference of its certified balls and values.

A_α = E_{z∼N(0,σ²)}[(1 − q + q·e^{(2z−1)/(2σ²)})^α] (Mironov, Talwar and Zhang 2019), computed two ways with
nothing of rdpsym: at an integer order the binomial sum Σ_{k≥2} C(n, k)(1 − q)^{n−k}q^k·expm1(k(k−1)/(2σ²)) (all
terms positive), at a fractional one the quadrature of E[b^α − 1 − α(b − 1)] (no cancellation against 1), split
every σ, Gauss–Legendre on the body and tanh-sinh on the two tails; each at two working precisions that must
agree.  Used by tests/test_sampled_gaussian.py and tests/test_mechanisms_speed.py; the values are stored
(tests/stored_values.py) and recorded from a run of those two files::

    RDPSYM_RECORD_STORES=1 python -m pytest -n 0 -p no:cacheprovider tests/test_sampled_gaussian.py tests/test_mechanisms_speed.py
"""

from __future__ import annotations

import functools
from fractions import Fraction

import mpmath
from flint import fmpq
from stored_values import Store

STORE = Store("sampled_gaussian_reference", ("sampled_gaussian_reference.py",),
              "RDPSYM_RECORD_STORES=1 python -m pytest -n 0 -p no:cacheprovider tests/test_sampled_gaussian.py "
              "tests/test_mechanisms_speed.py")


def mp(r: fmpq) -> mpmath.mpf:
    return mpmath.mpf(int(r.p)) / int(r.q)


def log_a_mp(q: fmpq, sigma: fmpq, order: fmpq, dps: int, window: float | None) -> mpmath.mpf:
    """log A_α at working precision ``dps`` (the binomial sum at an integer order, else the quadrature; ``window``:
    one panel each side of the peak at α, for large α)."""
    with mpmath.workdps(dps):
        qq, s, a = mp(q), mp(sigma), mp(order)
        if order.q == 1:  # Σ_{k≥2} C(n,k)(1−q)^{n−k}q^k expm1(k(k−1)/(2σ²)): all terms positive
            n = int(order.p)
            am1 = mpmath.fsum(
                mpmath.binomial(n, k) * (1 - qq) ** (n - k) * qq**k * mpmath.expm1(mpmath.mpf(k * (k - 1)) / (2 * s * s))
                for k in range(2, n + 1)
            )
            return mpmath.log1p(am1)

        def f(z):  # φ(z)·(b^α − 1 − α(b − 1)) with b − 1 = q·expm1(u): ≥ 0 and no cancellation against 1
            d = qq * mpmath.expm1((2 * z - 1) / (2 * s * s))
            return mpmath.npdf(z, 0, s) * (mpmath.expm1(a * mpmath.log1p(d)) - a * d)

        if window is not None:
            # Large α: the mass is a bump of width σ at z = α (outside `window`·σ: < e^{−window²/2}
            # relative); one tanh-sinh panel each side of the peak.
            total = mpmath.quad(f, [a - window * s, a, a + window * s])
            return mpmath.log1p(total)
        lo, hi = -14 * s, a + 14 * s  # the body, split every σ, and two tails
        pts = [lo + k * s for k in range(int((hi - lo) / s) + 1)] + [hi]
        z0 = s * s * mpmath.log(1 / qq - 1) + mpmath.mpf(1) / 2  # MTZ's z₀, where b crosses 2(1 − q)
        if lo < z0 < hi:
            pts = sorted([*pts, z0])
        # Tails by tanh-sinh: Gauss–Legendre on an infinite interval (or on one huge
        # segment) agreed with itself at two precisions while being wrong at 1e−43.
        total = mpmath.quad(f, pts, method="gauss-legendre")
        total += mpmath.quad(f, [-mpmath.inf, lo]) + mpmath.quad(f, [hi, mpmath.inf])
        return mpmath.log1p(total)


def compute(q: fmpq, sigma: fmpq, order: fmpq, digits: int = 60, window: float | None = None) -> mpmath.mpf:
    """log A_α to ``digits`` significant digits, checked at two working precisions."""
    low = log_a_mp(q, sigma, order, digits + 20, window)  # the A − 1 integrand cancels ~log10(1/(αq)) digits
    high = log_a_mp(q, sigma, order, digits + 35, window)
    with mpmath.workdps(digits + 20):
        assert abs(low - high) <= mpmath.mpf(10) ** (-digits) * abs(high), (q, sigma, order, low, high)
    return high


def entry_key(q: fmpq, sigma: fmpq, order: fmpq, digits: int, window: float | None) -> str:
    return f"q={q} sigma={sigma} order={order} digits={digits} window={window}"


def parse_entry(entry: str) -> tuple:
    """The arguments ``(q, sigma, order, digits, window)`` of a store entry, read back from its key."""
    fields = dict(part.split("=") for part in entry.split())
    q, sigma, order = (fmpq(f.numerator, f.denominator) for f in (Fraction(fields[n]) for n in ("q", "sigma", "order")))
    w = fields["window"]
    window = None if w == "None" else int(w) if w.lstrip("-").isdigit() else float(w)
    return q, sigma, order, int(fields["digits"]), window


def compute_entry(entry: str) -> mpmath.mpf:
    """The reference of a store entry, recomputed from its key (for the store's test)."""
    return compute(*parse_entry(entry))


@functools.cache
def reference(q: fmpq, sigma: fmpq, order: fmpq, digits: int = 60, window: float | None = None) -> mpmath.mpf:
    """log A_α to ``digits`` significant digits: stored, or computed at two working precisions."""
    return STORE.value(entry_key(q, sigma, order, digits, window), lambda: compute(q, sigma, order, digits, window))
