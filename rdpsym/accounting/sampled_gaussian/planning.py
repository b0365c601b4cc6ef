"""Planning in double precision for the sampled Gaussian, and the refinement rule its methods share.

Every method of :mod:`rdpsym.accounting.sampled_gaussian` first estimates, in floats, how large A_α − 1 is:
that estimate chooses the quadrature step, the grid's cuts and the working
precision.  Nothing computed here is ever part of a result: a poor estimate only
costs another refinement round (at most ``_ROUNDS``), and a ball is accepted once
it is :func:`_accurate` to the target.  ``_PI_BELOW`` is the rational below π that
both quadratures use for the strip half-width of the discretisation bound.
"""

from __future__ import annotations

import functools
import math

from flint import arb, fmpq

_LN2 = math.log(2.0)
#: A rational below π: the strip half-width a = s·σ² must not exceed πσ².
_PI_BELOW = fmpq(314159, 100000)
#: Refinement rounds before giving up (each raises precision and tightens the grid).
_ROUNDS = 6
#: The integer orders whose estimate sums every binomial term; past it, the terms around their peaks.
_EVERY_TERM = 20_000
#: Points of the grid on which a large order's terms are searched for their peaks.
_GRID = 2048


def _accurate(ball: arb, target: int) -> bool:
    return ball.is_finite() and (ball.is_zero() or ball.rel_accuracy_bits() >= target)


def _logaddexp(x: float, y: float) -> float:
    if x == -math.inf:
        return y
    if y == -math.inf:
        return x
    m = max(x, y)
    return m + math.log1p(math.exp(-abs(x - y)))


def _log_expm1(x: float) -> float:
    """log(e^x − 1) for x > 0, without overflow."""
    return x + math.log1p(-math.exp(-x)) if x > 30 else math.log(math.expm1(x))


def _log_rational(r: fmpq) -> float:
    return math.log(int(r.p)) - math.log(int(r.q))


class _Floats:
    """Double-precision logs of the parameters, for planning only (never in a result)."""

    def __init__(self, q: fmpq, sigma: fmpq):
        self.log_q = _log_rational(q)
        self.log_1mq = _log_rational(1 - q)
        self.sigma = float(sigma)
        self.inv_2s2 = 1 / (2 * self.sigma**2)
        self.q = math.exp(self.log_q)
        self._memo: dict[int, float] = {}

    def log_am1_int(self, n: int) -> float:
        """log(A_n − 1) for an integer n ≥ 2 (a log-sum of the positive binomial terms k = 2 … n).

        Up to :data:`_EVERY_TERM` terms, every one; past that, the terms near each local largest one
        (:meth:`_peaks`), walked outward until they are 60 nats below it.  An estimate: the order 10⁸ + ½ summed
        2·10⁸ terms in Python, 154 s before its certified quadrature began (a probe)."""
        if n in self._memo:
            return self._memo[n]
        lg = math.lgamma(n + 1)
        if n - 1 <= _EVERY_TERM:
            logs = (self._term(n, k, lg) for k in range(2, n + 1))
        else:
            logs = (self._around(n, peak, lg) for peak in self._peaks(n, lg))
        out = functools.reduce(_logaddexp, logs, -math.inf)
        self._memo[n] = out
        return out

    def _term(self, n: int, k: int, lg: float) -> float:
        """log of the k-th binomial term of A_n − 1: C(n, k)·q^k·(1 − q)^{n−k}·(e^{k(k−1)/(2σ²)} − 1)."""
        return (lg - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * self.log_q + (n - k) * self.log_1mq
                + _log_expm1(k * (k - 1) * self.inv_2s2))

    def _peaks(self, n: int, lg: float) -> list[int]:
        """The k where the terms have a local maximum: the ends where the terms fall away from them, and between
        points of a grid where the terms' step t(k + 1) − t(k) changes from rising to falling, that point found by
        bisection.  (The log-binomial is concave in k and the last factor's log is concave then nearly quadratic:
        the terms have few local maxima, each wider than one step of the grid's sign changes can hide.)"""
        def rises(k: int) -> bool:
            return self._term(n, k + 1, lg) > self._term(n, k, lg)

        grid = sorted({2, n - 1, *(2 + (n - 3) * i // _GRID for i in range(_GRID + 1))})
        up = [rises(k) for k in grid]  # (each grid point's step computed once)
        peaks = [] if up[0] else [2]
        for left, right, up_left, up_right in zip(grid, grid[1:], up, up[1:]):
            if up_left and not up_right:
                while right - left > 1:  # rises at left, not at right
                    middle = (left + right) // 2
                    left, right = (middle, right) if rises(middle) else (left, middle)
                peaks.append(right)
        if up[-1]:
            peaks.append(n)
        return peaks

    def _around(self, n: int, peak: int, lg: float) -> float:
        """log of the sum of the terms from ``peak`` outward both ways until they are 60 nats below it (or rise
        again, towards another peak), in strides that double while the terms change by under 1/20 nat a stride
        (each stride's terms counted as its first's: the terms fall away from a peak, so a little more than their
        sum)."""
        top = self._term(n, peak, lg)
        total = 1.0
        for direction in (1, -1):
            k, stride, last = peak + direction, 1, top
            while 2 <= k <= n:
                t = self._term(n, k, lg)
                if t < top - 60 or t > last:  # (rising again: past a valley, into another peak's terms)
                    break
                total += stride * math.exp(t - top)
                stride = stride * 2 if abs(t - last) < 0.05 else max(1, stride // 2) if abs(t - last) > 0.5 else stride
                last, k = t, k + direction * stride
        return top + math.log(total)

    def log_log_a_int(self, n: int) -> float:
        """log(log A_n) (−inf at n = 1, where A = 1)."""
        if n == 1:
            return -math.inf
        la = self.log_am1_int(n)
        if la < -30:
            return la
        return math.log(la + math.log1p(math.exp(-la)) if la > 30 else math.log1p(math.exp(la)))

    def estimate(self, alpha: fmpq) -> tuple[float, float]:
        """(log(A_α − 1), log A_α) from the chord of the convex α ↦ log A_α between integers."""
        n0 = int(alpha.p // alpha.q)
        # Weights from exact fractions: α may lie 10⁻⁹⁰ from an integer.
        log_w, log_1mw = _log_rational(alpha - n0), _log_rational(n0 + 1 - alpha)
        ll = _logaddexp(log_1mw + self.log_log_a_int(n0), log_w + self.log_log_a_int(n0 + 1))
        # The chord can be far too high for small σ; q = 1 caps log A at α(α−1)/(2σ²).
        # α − 1 formed exactly: float(α) is 1.0 when α − 1 < 1e-16.
        ll = min(ll, math.log(float(alpha)) + _log_rational(alpha - 1) + math.log(self.inv_2s2))
        if ll < -30:
            return ll, math.exp(ll)
        log_a = math.exp(min(ll, 700.0))
        return _log_expm1(log_a), log_a
