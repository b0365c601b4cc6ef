"""Planning in double precision for the sampled Gaussian, and the refinement rule its methods share.

Every method of :mod:`rdpsym.accounting.sampled_gaussian` first estimates, in floats, how large A_α − 1 is:
that estimate chooses the quadrature step, the grid's cuts and the working
precision.  Nothing computed here is ever part of a result: a poor estimate only
costs another refinement round (at most ``_ROUNDS``), and a ball is accepted once
it is :func:`_accurate` to the target.  ``_PI_BELOW`` is the rational below π that
both quadratures use for the strip half-width of the discretisation bound.
"""

from __future__ import annotations

import math

from flint import arb, fmpq

_LN2 = math.log(2.0)
#: A rational below π: the strip half-width a = s·σ² must not exceed πσ².
_PI_BELOW = fmpq(314159, 100000)
#: Refinement rounds before giving up (each raises precision and tightens the grid).
_ROUNDS = 6


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
        """log(A_n − 1) for an integer n ≥ 2 (a log-sum of the positive binomial terms)."""
        if n in self._memo:
            return self._memo[n]
        out = -math.inf
        lg = math.lgamma(n + 1)
        for k in range(2, n + 1):
            t = (lg - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * self.log_q
                 + (n - k) * self.log_1mq + _log_expm1(k * (k - 1) * self.inv_2s2))
            out = _logaddexp(out, t)
        self._memo[n] = out
        return out

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
