"""The sampled Gaussian's entry points: inputs checked, orders sent to their method, values certified.

:func:`log_moment` and :func:`log_moments` return balls for log A_α at the working
precision, :func:`rdp_values` the RDP ε(α) = log(A_α)/(α − 1) to the digits asked
for.  q = 0 and q = 1 are exact (A = 1; the Gaussian moment generating function);
integer orders go to :mod:`rdpsym.accounting.sampled_gaussian.integer`, fractional
ones to the shifted-Gaussian matrix (:mod:`~rdpsym.accounting.sampled_gaussian.shifted`)
where it pays and to the per-order quadrature
(:mod:`~rdpsym.accounting.sampled_gaussian.trapezoid`) for the rest.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import mpmath
from flint import arb, ctx, fmpq

from rdpsym.accounting.sampled_gaussian.integer import _int_log_moments
from rdpsym.accounting.sampled_gaussian.planning import _Floats
from rdpsym.accounting.sampled_gaussian.shifted import _shifted_log_moments, _shifted_share
from rdpsym.accounting.sampled_gaussian.trapezoid import _frac_log_moments_per_order
from rdpsym.foundations.balls import BITS_PER_DIGIT, precision, to_fmpq
from rdpsym.foundations.errors import ConvergenceError, ParameterError, must
from rdpsym.foundations.numbers import rounded_mpf
from rdpsym.foundations.reading import integer

__all__ = ["log_moment", "log_moments", "rdp_values"]


# ----------------------------------------------------------------------------- public API


def log_moment(q: fmpq, sigma: fmpq, order: fmpq) -> arb:
    """A certified ball containing log A_α at the current ``flint.ctx.prec``.

    A_α = E_{z∼N(0,σ²)}[(1 − q + q·e^{(2z−1)/(2σ²)})^α] (MTZ 2019, Sec. 3); the
    relative radius is about 2^{−prec}.  At α = 2, A = 1 + q²(e^{1/σ²} − 1):

    >>> from flint import arb, fmpq
    >>> from rdpsym.foundations.balls import precision
    >>> q, s = fmpq(1, 100), fmpq(11, 10)
    >>> with precision(200):
    ...     b = log_moment(q, s, fmpq(2))
    ...     exact = (1 + arb(q) ** 2 * (1 / arb(s) ** 2).expm1()).log()
    ...     b.overlaps(exact), b.rel_accuracy_bits() >= 190
    (True, True)
    >>> with precision(100):
    ...     b = log_moment(q, s, fmpq(3, 2))   # fractional: certified quadrature
    ...     b.rel_accuracy_bits() >= 90
    True
    """
    return log_moments(q, sigma, [order])[0]


def log_moments(q: fmpq, sigma: fmpq, orders: Sequence[fmpq]) -> list[arb]:
    """Certified balls containing log A_α for each order, at the current ``ctx.prec``.

    Integer orders share one table of expm1(k(k−1)/(2σ²)); fractional orders
    share one quadrature grid (or a few, when their step sizes differ a lot).

    >>> from flint import fmpq
    >>> from rdpsym.foundations.balls import precision
    >>> with precision(64):
    ...     [b.str(5) for b in log_moments(fmpq(1, 100), fmpq(11, 10), [fmpq(3, 2), fmpq(2), fmpq(64)])]
    ['[4.7773e-5 +/- ...]', '[0.00012851 +/- ...]', '[1371.4 +/- ...]']
    """
    q, sigma, orders = _parse(q, sigma, orders)
    prec = ctx.prec
    balls = _log_moments(q, sigma, orders, target=prec, strict=False)
    with precision(prec):
        return [+b for b in balls]


def rdp_values(q: fmpq, sigma: fmpq, orders: Sequence[fmpq], dps: int) -> list[mpmath.mpf]:
    """ε(α) = log(A_α)/(α − 1) for each order, correct to ``dps`` significant digits.

    Each value is the midpoint of a certified ball whose relative radius is
    below 10^{−(dps+2)}; work is refined until it is, else
    :class:`~rdpsym.foundations.errors.ConvergenceError`.  Values carry dps + 5 digits.

    >>> import mpmath
    >>> from flint import fmpq
    >>> e2, e25 = rdp_values(fmpq(1, 100), fmpq(11, 10), [fmpq(2), fmpq(5, 2)], dps=30)
    >>> with mpmath.workdps(40):   # α = 2 in closed form: log(1 + q²(e^{1/σ²} − 1))
    ...     exact = mpmath.log1p(mpmath.expm1(mpmath.mpf(100) / 121) / 10**4)
    ...     abs(e2 / exact - 1) < mpmath.mpf(10) ** -30
    True
    >>> mpmath.nstr(e25, 20)
    '0.00016207740937000374605'
    """
    try:
        dps = integer(dps, "dps", minimum=1)  # an int, or a NumPy integer
    except ParameterError:
        raise ParameterError(must("dps", "a positive integer (dps >= 1)", dps)) from None
    q, sigma, orders = _parse(q, sigma, orders)
    target = math.ceil((dps + 2) * BITS_PER_DIGIT) + 2
    balls = _log_moments(q, sigma, orders, target=target, strict=True)
    out = []
    with precision(target + 40):
        for order, ball in zip(orders, balls):
            eps = ball / arb(order - 1)
            if not eps.is_finite() or (not eps.is_zero() and eps.rel_accuracy_bits() < target):
                raise ConvergenceError(
                    f"rdp_values: epsilon at order {order} (q={q}, sigma={sigma}) is {eps.str(5)}, "
                    f"not certified to {dps} digits."
                )
            out.append(rounded_mpf(eps, dps + 5))  # the midpoint to dps + 5 digits, whatever mpmath's precision
    return out


# ----------------------------------------------------------------------------- input checks


def _rational(name: str, value: object, valid: str) -> fmpq:
    try:
        return to_fmpq(value)
    except (ParameterError, TypeError, ValueError, AttributeError, ArithmeticError):
        raise ParameterError(must(name, f"an exact rational {valid}", value)) from None


def _parse(q, sigma, orders) -> tuple[fmpq, fmpq, list[fmpq]]:
    qv, sv = "in [0, 1] (0 <= q <= 1)", "positive (sigma > 0)"
    ov = "greater than 1 (order > 1)"
    q = _rational("q", q, qv)
    if not 0 <= q <= 1:
        raise ParameterError(must("q", qv, q))
    sigma = _rational("sigma", sigma, sv)
    if not sigma > 0:
        raise ParameterError(must("sigma", sv, sigma))
    if isinstance(orders, (str, bytes)) or not isinstance(orders, Sequence):
        raise ParameterError(must("orders", "a sequence of orders", orders))
    parsed = []
    for order in orders:
        a = _rational("order", order, ov)
        if not a > 1:
            raise ParameterError(must("order", ov, a))
        parsed.append(a)
    return q, sigma, parsed


# ----------------------------------------------------------------------------- dispatch


def _log_moments(q: fmpq, sigma: fmpq, orders: list[fmpq], target: int, strict: bool) -> list[arb]:
    """Balls for log A_α aiming at ``target`` bits of relative accuracy (any precision)."""
    s2 = sigma * sigma
    if q == 0:  # b ≡ 1: A = 1 exactly
        return [arb(0) for _ in orders]
    if q == 1:  # E[e^{αu}] = e^{α(α−1)/(2σ²)} exactly (Gaussian MGF)
        with precision(target + 10):
            return [arb(a * (a - 1) / (2 * s2)) for a in orders]
    out: list[arb | None] = [None] * len(orders)
    ints = sorted({int(a.p) for a in orders if a.q == 1})
    if ints:
        table = dict(zip(ints, _int_log_moments(q, s2, ints, target, strict)))
        for i, a in enumerate(orders):
            if a.q == 1:
                out[i] = table[int(a.p)]
    # Keyed by (p, q) integers: hashing an fmpq goes through a Fraction, slow for a grid of orders.
    keys = sorted({(int(a.p), int(a.q)) for a in orders if a.q != 1}, key=lambda pq: fmpq(*pq))
    if keys:
        table = dict(zip(keys, _frac_log_moments(q, sigma, [fmpq(*pq) for pq in keys], target, strict)))
        for i, a in enumerate(orders):
            if a.q != 1:
                out[i] = table[int(a.p), int(a.q)]
    return out  # type: ignore[return-value]


def _frac_log_moments(q: fmpq, sigma: fmpq, alphas: list[fmpq], target: int, strict: bool) -> list[arb]:
    if not fmpq(1, 10**60) < sigma < 10**60:  # the planning runs in double precision
        raise ConvergenceError(f"fractional orders need 1e-60 < sigma < 1e60; got sigma={sigma}.")
    fl = _Floats(q, sigma)
    shifted = _shifted_share(fl, alphas)
    if shifted:
        fast = _shifted_log_moments(q, sigma, fl, shifted, target)
        if fast is not None:
            done = dict(zip(((int(a.p), int(a.q)) for a in shifted), fast))
            rest = [a for a in alphas if (int(a.p), int(a.q)) not in done]
            if rest:
                done.update(zip(((int(a.p), int(a.q)) for a in rest), _frac_log_moments_per_order(
                    q, sigma, fl, rest, target, strict)))
            return [done[int(a.p), int(a.q)] for a in alphas]
    return _frac_log_moments_per_order(q, sigma, fl, alphas, target, strict)
