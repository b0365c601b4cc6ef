"""Bridges between RDP and the moments accountant's log-moment bounds α_M(λ).

Source: M. Abadi, A. Chu, I. Goodfellow, H. B. McMahan, I. Mironov, K. Talwar, L. Zhang,
"Deep learning with differential privacy", CCS 2016 (arXiv:1607.00133), §3.2 (the
log moment α_M(λ)) and Theorem 2 (its tail bound); I. Mironov, "Rényi Differential
Privacy", CSF 2017 (arXiv:1702.07476v3), §3: α_M(λ) = λ·D_{λ+1}, so a bound
α_M(λ) ≤ a is (λ + 1, a/λ)-RDP (:func:`moments_to_rdp`, :func:`rdp_to_moments`).
The accountant's ε(δ) and δ(ε) (:func:`moments_epsilon`, :func:`moments_delta`) are
then Mironov's Proposition 3 term by term, minimised over the λ_i as
:func:`~rdpsym.accounting.conversions.rdp_dp.best_epsilon` does over orders.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from flint import arb

from rdpsym.accounting.conversions._inputs import (
    Order,
    Real,
    _because,
    _checked,
    _delta,
    _exp_capped,
    _infinite_reason,
    _nonnegative,
    _order,
    _pairs,
    _probability,
    _rational,
    _real,
)
from rdpsym.accounting.conversions.rdp_dp import OrderBound, _minimum
from rdpsym.foundations.errors import DomainError, must

__all__ = [
    "moments_delta",
    "moments_epsilon",
    "moments_to_rdp",
    "rdp_to_moments",
]


def moments_to_rdp(lam: Order, log_moment: Real | float) -> tuple[object, arb | float]:
    """The RDP guarantee equivalent to a log-moment bound α_M(λ).

    Formula: α_M(λ) ≤ a  ⇔  (λ + 1, a/λ)-RDP, since α_M(λ) = λ·D_{λ+1}.
    Source: M. Abadi et al., "Deep learning with differential privacy", CCS 2016
    (arXiv:1607.00133), §3.2 (definition of α_M); Mironov 2017, §3 (the link to D_α).
    Hypotheses: λ > 0, a ≥ 0 (``math.inf`` passes through).
    Returns ``(order, r)``: the order is exact for a rational λ.

    >>> moments_to_rdp(4, 2)
    (5, 0.500000000000000)
    """
    a, h = _order(_shift(lam, 1, "lam"), "lam + 1")
    order = a if isinstance(lam, arb) else _rational("lam", lam) + 1
    if _infinite_reason(log_moment) is not None:
        return order, math.inf
    return order, _checked("r", _nonnegative("log_moment", log_moment) / h)


def rdp_to_moments(order: Order, r: Real | float) -> tuple[object, arb | float]:
    """The log-moment bound equivalent to (α, r)-RDP: λ = α − 1, α_M(λ) = λ r.

    Source: Abadi et al. 2016 (arXiv:1607.00133), §3.2; Mironov 2017, §3.
    Hypotheses: α > 1, r ≥ 0 (``math.inf`` passes through).
    Returns ``(lam, log_moment)``: λ is exact for a rational α.

    >>> from flint import fmpq
    >>> rdp_to_moments(5, fmpq(1, 2))
    (4, 2.00000000000000)
    """
    _, h = _order(order)
    lam = h if isinstance(order, arb) else _rational("order", order) - 1
    if _infinite_reason(r) is not None:
        return lam, math.inf
    return lam, _checked("log_moment", _nonnegative("r", r) * h)


def _shift(lam: object, by: int, name: str) -> object:
    if isinstance(lam, arb):
        if not lam.is_finite():
            raise DomainError(must(name, f"positive ({name} > 0)", lam))
        if not lam > 0:
            raise DomainError(must(name, f"positive ({name} > 0)", lam))
        return lam + by
    q = _rational(name, lam)
    if not q > 0:
        raise DomainError(must(name, f"positive ({name} > 0)", q))
    return q + by


def moments_epsilon(
    moments: Sequence[tuple[Order, Real | float]], delta: Real
) -> tuple[arb | float, object, list[OrderBound]]:
    """The moments accountant's ε(δ) from log-moment bounds α_M(λ_i).

    Formula: ε = min_i (log(1/δ) + α_M(λ_i))/λ_i.
    Source: Abadi et al. 2016 (arXiv:1607.00133), Theorem 2 (tail bound), solved
    for ε.  With α = λ + 1 and r = α_M(λ)/λ it is Mironov's Prop. 3 term by term.
    Returns ``(eps, lam, per_lambda)`` as :func:`best_epsilon` does (infinite
    moments are ``math.inf`` and never win unless all are).
    Hypotheses: λ_i > 0 and distinct, α_M(λ_i) ≥ 0, 0 < δ < 1, a nonempty list.

    >>> from flint import fmpq
    >>> from rdpsym.foundations.balls import precision, upper_decimal
    >>> with precision(64):
    ...     eps, lam, _ = moments_epsilon([(l, fmpq(l * (l + 1), 8)) for l in (4, 8, 16)], fmpq(1, 10**5))
    ...     upper_decimal(eps, 8), lam
    ('2.5641157', 8)
    """
    L = -_delta(delta).log()
    per = []
    for lam, am in _pairs(moments, "moments", "lam, log_moment", "the lambdas"):
        _shift(lam, 0, "lam")
        why = _infinite_reason(am)
        if why is not None:
            per.append(OrderBound(lam, math.inf, _because(f"the log moment at lam = {lam} is infinite", why)))
            continue
        lb = _real("lam", lam)
        per.append(OrderBound(lam, _checked("epsilon", (L + _nonnegative("log_moment", am)) / lb), ""))
    return _minimum(per, math.inf)


def moments_delta(
    moments: Sequence[tuple[Order, Real | float]], epsilon: Real
) -> tuple[arb, object, list[OrderBound]]:
    """The moments accountant's δ(ε) from log-moment bounds α_M(λ_i), capped at 1.

    Formula: δ = min_i min(1, exp(α_M(λ_i) − λ_i ε)).
    Source: Abadi et al. 2016 (arXiv:1607.00133), Theorem 2 (tail bound).  With
    α = λ + 1 and r = α_M(λ)/λ it is Mironov's Prop. 3 solved for δ, term by term.
    Returns ``(delta, lam, per_lambda)`` as :func:`best_delta` does.
    Hypotheses: λ_i > 0 and distinct, α_M(λ_i) ≥ 0, ε ≥ 0, a nonempty list.

    >>> from flint import fmpq
    >>> from rdpsym.foundations.balls import precision, upper_decimal
    >>> with precision(64):
    ...     d, lam, _ = moments_delta([(l, fmpq(l * (l + 1), 8)) for l in (4, 8, 16)], 3)
    ...     upper_decimal(d, 6), lam
    ('0.000000305903', 8)
    """
    e = _nonnegative("epsilon", epsilon)
    per = []
    for lam, am in _pairs(moments, "moments", "lam, log_moment", "the lambdas"):
        _shift(lam, 0, "lam")
        why = _infinite_reason(am)
        if why is not None:
            per.append(OrderBound(lam, arb(1), _because(f"the log moment at lam = {lam} is infinite", why)
                                  + ": no guarantee"))
            continue
        lb = _real("lam", lam)
        x = _nonnegative("log_moment", am) - lb * e
        per.append(OrderBound(lam, _probability("delta", _exp_capped(x)), ""))
    return _minimum(per, arb(1))
