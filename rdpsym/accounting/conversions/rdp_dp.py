"""RDP → (ε, δ)-DP at one order, and the best (ε, δ) over a list of orders.

An (α, r)-RDP guarantee implies (ε, δ)-DP for every 0 < δ < 1, by one of two
conversions, named by strings (:data:`CONVERSIONS`):

* ``"mironov"``: ε = r + log(1/δ)/(α − 1); I. Mironov, "Rényi Differential Privacy",
  CSF 2017 (arXiv:1702.07476v3), Proposition 3; at α = ∞, (∞, r)-RDP is r-DP
  (Definition 3);
* ``"balle"``: ε = r + log((α − 1)/α) − (log δ + log α)/(α − 1); B. Balle, G. Barthe,
  M. Gaboardi, J. Hsu, T. Sato, "Hypothesis testing interpretations and Rényi
  differential privacy", AISTATS 2020 (arXiv:1905.09982), Theorem 21, = C. Canonne,
  G. Kamath, T. Steinke, "The discrete Gaussian for differential privacy"
  (arXiv:2004.00010), Proposition 12 in its δ form; the one dp_accounting and Opacus use.

Each comes both ways, ε(δ) and δ(ε) (:func:`mironov_epsilon`, :func:`mironov_delta`,
:func:`balle_epsilon`, :func:`balle_delta`).  :func:`kl_delta` is the order-free bound
δ = sqrt(1 − e^(−r)) (monotonicity in α, Mironov 2017, Proposition 9, then the
Bretagnolle–Huber inequality; C. Canonne, arXiv:2202.07198).  :func:`best_epsilon`
and :func:`best_delta` take the best of a finite list of (α_i, r_i), order by order,
with each order's bound (:class:`OrderBound`) and the reason an infinite value gives
nothing.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Literal, NamedTuple

from flint import arb

from rdpsym.accounting.conversions._inputs import (
    Order,
    Real,
    _because,
    _checked,
    _delta,
    _exp_capped,
    _infinite_reason,
    _is_inf,
    _log1m_inv,
    _nonnegative,
    _order,
    _pairs,
    _probability,
)
from rdpsym.foundations.errors import ParameterError, must, quoted

__all__ = [
    "CONVERSIONS",
    "OrderBound",
    "balle_delta",
    "balle_epsilon",
    "best_delta",
    "best_epsilon",
    "kl_delta",
    "mironov_delta",
    "mironov_epsilon",
]

Conversion = Literal["mironov", "balle"]
#: The names accepted by ``conversion=``.
CONVERSIONS: tuple[str, ...] = ("mironov", "balle")


def _conversion(conversion: object) -> str:
    if not isinstance(conversion, str) or conversion not in CONVERSIONS:
        raise ParameterError(must("conversion", "'mironov' or 'balle'", quoted(conversion)))
    return conversion  # type: ignore[return-value]


# --------------------------------------------------------------------------- one order


def _pure_delta(r: arb, e: arb) -> arb:
    """δ(ε) at α = ∞: (∞, r)-RDP is r-DP, so δ = 0 for ε ≥ r; the bound gives 1 below r."""
    if e >= r:
        return arb(0)
    if e < r:
        return arb(1)
    return arb(0).union(arb(1))


def mironov_epsilon(order: Order, r: Real, delta: Real) -> arb:
    """ε of the (ε, δ)-DP guarantee implied by (α, r)-RDP (Mironov's conversion).

    Formula: ε = r + log(1/δ)/(α − 1).
    Source: I. Mironov, "Rényi Differential Privacy", CSF 2017 (arXiv:1702.07476),
    Proposition 3.  At α = ``math.inf`` it is ε = r: (∞, r)-RDP is r-DP (Mironov's
    Definition 3 with α = ∞), so (r, δ)-DP for every δ (also the limit α → ∞).
    Hypotheses: 1 < α ≤ ∞, r ≥ 0 (finite), 0 < δ < 1.

    >>> from flint import fmpq
    >>> from rdpsym.foundations.balls import precision, upper_decimal
    >>> with precision(64):
    ...     upper_decimal(mironov_epsilon(fmpq(11), fmpq(1, 2), fmpq(1, 10**5)), 10)
    '1.651292547'
    """
    r, d = _nonnegative("r", r), _delta(delta)
    if _is_inf(order):
        return r
    _, h = _order(order)
    return _checked("epsilon", r - d.log() / h)


def mironov_delta(order: Order, r: Real, epsilon: Real) -> arb:
    """δ(ε) implied by (α, r)-RDP through Mironov's conversion, capped at 1.

    Formula: δ = min(1, exp((α − 1)(r − ε))), the inverse of :func:`mironov_epsilon`.
    Source: Mironov 2017 (arXiv:1702.07476), Proposition 3, solved for δ.
    Hypotheses: 1 < α ≤ ∞, r ≥ 0, ε ≥ 0.  For ε < r the formula gives δ > 1: the
    result is then 1, which is no guarantee at all (every mechanism is (ε, 1)-DP).
    At α = ``math.inf``: δ = 0 for ε ≥ r (pure r-DP), 1 for ε < r.

    >>> from flint import fmpq
    >>> from rdpsym.foundations.balls import precision, upper_decimal
    >>> with precision(64):
    ...     upper_decimal(mironov_delta(11, fmpq(1, 2), 2), 6), mironov_delta(11, 3, 2) == 1
    ('0.000000305903', True)
    """
    r, e = _nonnegative("r", r), _nonnegative("epsilon", epsilon)
    if _is_inf(order):
        return _pure_delta(r, e)
    _, h = _order(order)
    if r - e > 0:
        return arb(1)
    return _probability("delta", _exp_capped(h * (r - e)))


def balle_epsilon(order: Order, r: Real, delta: Real) -> arb:
    """ε of the (ε, δ)-DP guarantee implied by (α, r)-RDP (the improved conversion).

    Formula: ε = r + log((α − 1)/α) − (log δ + log α)/(α − 1).
    Source: B. Balle, G. Barthe, M. Gaboardi, J. Hsu, T. Sato, "Hypothesis testing
    interpretations and Rényi differential privacy", AISTATS 2020
    (arXiv:1905.09982), Theorem 21; C. Canonne, G. Kamath, T. Steinke, "The discrete
    Gaussian for differential privacy" (arXiv:2004.00010), Proposition 12.  It is
    the conversion of dp_accounting and Opacus.
    Hypotheses: 1 < α ≤ ∞, r ≥ 0, 0 < δ < 1.  The value can be negative (small r,
    large α); since δ(ε) of :func:`balle_delta` is decreasing in ε, a negative
    value certifies (0, δ)-DP.  At α = ``math.inf`` it is ε = r (the limit, and
    pure r-DP).

    α − 1 is formed exactly for a rational α, log α as log1p(α − 1), and
    log(1 − 1/α) as log(α − 1) − log α below 2 and log1p(−1/α) above, so neither α
    close to 1 nor large α costs a cancellation (near 1 the ball is only as wide as
    the huge value).

    >>> from flint import fmpq
    >>> from rdpsym.foundations.balls import precision, upper_decimal
    >>> with precision(64):
    ...     upper_decimal(balle_epsilon(fmpq(11), fmpq(1, 2), fmpq(1, 10**5)), 10)
    '1.316192840'
    """
    r, d = _nonnegative("r", r), _delta(delta)
    if _is_inf(order):
        return r
    a, h = _order(order)
    log_a = h.log1p()
    return _checked("epsilon", r + _log1m_inv(a, h) - (d.log() + log_a) / h)


def balle_delta(order: Order, r: Real, epsilon: Real) -> arb:
    """δ(ε) implied by (α, r)-RDP through the improved conversion, capped at 1.

    Formula: δ = min(1, exp((α − 1)(r − ε + log(1 − 1/α)) − log α)).
    Source: Canonne–Kamath–Steinke 2020 (arXiv:2004.00010), Proposition 12
    (= Balle et al. 2020, arXiv:1905.09982, Theorem 21, solved for δ).
    Hypotheses: 1 < α ≤ ∞, r ≥ 0, ε ≥ 0.  A result of 1 is no guarantee.  At
    α = ``math.inf``: δ = 0 for ε ≥ r (pure r-DP), 1 for ε < r.

    >>> from flint import fmpq
    >>> from rdpsym.foundations.balls import precision, upper_decimal
    >>> with precision(64):
    ...     upper_decimal(balle_delta(11, fmpq(1, 2), 2), 6)
    '0.0000000107217'
    """
    r, e = _nonnegative("r", r), _nonnegative("epsilon", epsilon)
    if _is_inf(order):
        return _pure_delta(r, e)
    a, h = _order(order)
    log_a = h.log1p()
    log_d = h * (r - e + _log1m_inv(a, h)) - log_a
    if log_d > 0:
        return arb(1)
    return _probability("delta", _exp_capped(log_d))


def kl_delta(r: Real) -> arb:
    """The order-free bound δ ≤ sqrt(1 − exp(−r)): (α, r)-RDP at any α ≥ 1 gives (0, δ)-DP.

    Formula: δ = sqrt(1 − e^(−r)).
    Source: D_α is nondecreasing in α (Mironov 2017, Prop. 9; van Erven–Harremoës
    2014, Thm 3), so KL(P‖Q) = D_1 ≤ D_α ≤ r; the Bretagnolle–Huber inequality
    TV(P, Q) ≤ sqrt(1 − exp(−KL(P‖Q))) (Bretagnolle & Huber 1979, in this square-root
    form; see C. Canonne, "A short note on an inequality between KL and TV",
    arXiv:2202.07198); and (0, δ)-DP holds with δ = sup TV over neighbouring pairs.
    dp_accounting takes the minimum of this bound and the per-order δ.
    Hypotheses: r ≥ 0 bounds D_α at some order α ≥ 1 for every neighbouring pair.

    >>> from flint import fmpq
    >>> from rdpsym.foundations.balls import precision, upper_decimal
    >>> with precision(64):
    ...     upper_decimal(kl_delta(fmpq(1, 100)), 8)
    '0.099750521'
    """
    r = _nonnegative("r", r)
    return _probability("delta", (-(-r).expm1()).nonnegative_part().sqrt())


# --------------------------------------------------------------------------- best over a list


class OrderBound(NamedTuple):
    """One order's bound in a ``best_*`` result.

    ``value`` is the ball of the per-order ε or δ, or ``math.inf`` (an ε from an
    infinite RDP value).  ``reason`` is empty for a finite RDP value; otherwise it
    says why the order gives nothing (and the order never wins the minimum).
    ``conversion`` names the conversion that gave ``value`` when several were
    tried (:mod:`~rdpsym.accounting.conversions.tightest`), and is empty otherwise.
    """

    order: object
    value: arb | float
    reason: str
    conversion: str = ""


def _epsilon_at(conversion: str) -> Callable[[Order, Real, Real], arb]:
    return mironov_epsilon if conversion == "mironov" else balle_epsilon


def _delta_at(conversion: str) -> Callable[[Order, Real, Real], arb]:
    return mironov_delta if conversion == "mironov" else balle_delta


def _valid_order(order: object) -> None:
    if not _is_inf(order):
        _order(order)


def _minimum(per: list[OrderBound], empty: arb | float) -> tuple[arb | float, object, list[OrderBound]]:
    """[min of lowers, min of uppers] over the finite entries, and the order of the smallest upper."""
    finite = [p for p in per if not p.reason]
    if not finite:
        return empty, None, per
    ball, best = finite[0].value, finite[0]
    for p in finite[1:]:
        ball = ball.min(p.value)
        if p.value.upper() < best.value.upper():
            best = p
    return _checked("minimum", ball), best.order, per


def best_epsilon(
    values: Sequence[tuple[Order, Real | float]], delta: Real, conversion: Conversion = "balle"
) -> tuple[arb | float, object, list[OrderBound]]:
    """The best ε over a finite list of RDP guarantees (α_i, r_i), at a given δ.

    Formula: ε = min_i ε(α_i, r_i, δ), with ε(·) from :func:`mironov_epsilon`
    (``conversion="mironov"``) or :func:`balle_epsilon` (``"balle"``).  Each
    (α_i, r_i)-RDP guarantee implies (ε(α_i, r_i, δ), δ)-DP, so the minimum does.
    Returns ``(eps, order, per_order)``: ``eps`` is the ball [min of the lower
    ends, min of the upper ends], which contains the exact minimum; ``order`` is
    the order whose upper end is smallest (the first on ties); ``per_order`` is a
    list of :class:`OrderBound` in input order.
    Infinite RDP values (``math.inf``) give ε = ∞ and never win unless every value
    is infinite; then ``eps`` is ``math.inf``, ``order`` is None and each entry's
    ``reason`` says why.
    Hypotheses: every α_i > 1 and distinct; r_i ≥ 0; 0 < δ < 1; a nonempty list.

    >>> from flint import fmpq
    >>> from rdpsym.foundations.balls import precision, upper_decimal
    >>> curve = [(a, fmpq(a, 8)) for a in (2, 4, 8, 16, 32)]  # Gaussian, σ = 2
    >>> with precision(64):
    ...     eps, order, per = best_epsilon(curve, fmpq(1, 10**5), "balle")
    ...     upper_decimal(eps, 8), order, len(per)
    ('2.2141092', 8, 5)
    >>> best_epsilon([(2, math.inf)], fmpq(1, 10))[0::2]
    (inf, [OrderBound(order=2, value=inf, reason='the RDP value at order 2 is infinite', conversion='')])
    """
    f = _epsilon_at(_conversion(conversion))
    d = _delta(delta)
    per = []
    for order, r in _pairs(values, "values", "order, r", "the orders"):
        _valid_order(order)
        why = _infinite_reason(r)
        if why is not None:
            per.append(OrderBound(order, math.inf, _because(f"the RDP value at order {order} is infinite", why)))
        else:
            per.append(OrderBound(order, f(order, r, d), ""))
    return _minimum(per, math.inf)


def best_delta(
    values: Sequence[tuple[Order, Real | float]],
    epsilon: Real,
    conversion: Conversion = "balle",
    *,
    kl: bool = False,
) -> tuple[arb, object, list[OrderBound]]:
    """The best δ over a finite list of RDP guarantees (α_i, r_i), at a given ε.

    Formula: δ = min_i δ(α_i, r_i, ε) (each capped at 1), with δ(·) from
    :func:`mironov_delta` or :func:`balle_delta`; with ``kl=True`` each order's δ
    is also min'ed with the order-free :func:`kl_delta` (r_i) (as dp_accounting does).
    Returns ``(delta, order, per_order)`` as :func:`best_epsilon` does: the ball
    [min of lowers, min of uppers], the order of the smallest upper end, and a list
    of :class:`OrderBound`.  An infinite RDP value gives δ = 1 (no guarantee) with
    its reason and never wins; if every value is infinite, δ = 1 and order is None.
    Hypotheses: every α_i > 1 and distinct; r_i ≥ 0; ε ≥ 0; a nonempty list.

    >>> from flint import fmpq
    >>> from rdpsym.foundations.balls import precision, upper_decimal
    >>> curve = [(a, fmpq(a, 8)) for a in (2, 4, 8, 16, 32)]
    >>> with precision(64):
    ...     d, order, _ = best_delta(curve, 3, "balle")
    ...     upper_decimal(d, 6), order
    ('0.00000000726160', 16)
    """
    f = _delta_at(_conversion(conversion))
    e = _nonnegative("epsilon", epsilon)
    per = []
    for order, r in _pairs(values, "values", "order, r", "the orders"):
        _valid_order(order)
        why = _infinite_reason(r)
        if why is not None:
            per.append(OrderBound(order, arb(1), _because(f"the RDP value at order {order} is infinite", why)
                                  + ": no guarantee"))
            continue
        v = f(order, r, e)
        if kl:
            v = v.min(kl_delta(r))
        per.append(OrderBound(order, v, ""))
    return _minimum(per, arb(1))
