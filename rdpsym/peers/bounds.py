"""Where rdpsym's RDP at an order is an upper bound only: what a peer's lower answer there can be told.

Some curves are not exact at every order: sampling without replacement (Wang–Balle–Kasiviswanathan 2019's
bounds), the fractional orders of a subsampled mechanism (a chord between integer orders), the long orders past
:data:`~rdpsym.accounting.subsampling.LONG_ORDERS`.  Their ``how`` says "upper bound".  A peer's value below
such a bound is not shown unsafe by it: a tighter valid bound lies there too (a probe).  It is unsafe only below
a certified *lower* bound: the divergence of an actual pair of neighbouring datasets.

For sampling without replacement of the Gaussian or Laplace mechanism (a sum query with additive noise of
sensitivity Δ under substitution) such a pair is known: n − 1 records equal to x and the last x or x', |x − x'| = Δ.
A sample of m = q·n records holds the changed record with probability q, and the sum of the others is the same
in every sample, so the outputs are Q₀ and (1 − q)Q₀ + qP₀ for the noise's pair (P₀, Q₀): the pair of Poisson
subsampling, in both directions (the datasets may be swapped).  Its divergence is rdpsym's exact curve of the
Poisson-sampled mechanism (the sampled Gaussian of Mironov–Talwar–Zhang 2019; the Laplace mixture), where that
curve is exact at the order.  k steps on the same datasets give k times it.

At α = ∞ a subsampled curve's value, log(1 + q(e^{ε_∞} − 1)), is read as exact (its ``how`` says neither): the pair
above attains it (or ∞ where the inner ε_∞ is ∞).
"""

from __future__ import annotations

from collections.abc import Sequence

from flint import arb

from rdpsym.accounting import api
from rdpsym.accounting.components import ClosedForm, Infinite
from rdpsym.accounting.curve import RdpCurve
from rdpsym.accounting.subsampling import WithoutReplacement
from rdpsym.foundations.balls import lower_decimal
from rdpsym.laws.additive_noise import laplace
from rdpsym.laws.subsampled import poisson_sampled, sampled_gaussian
from rdpsym.peers.comparison import BELOW, NOT_DECIDED, ROUNDING_Q, compare


def upper_bound_only(curve: RdpCurve, order: object) -> str:
    """How the curve's value at ``order`` is obtained, for the first component whose value there is an upper bound
    only (its :meth:`~rdpsym.accounting.curve.RdpCurve.how`), or '' where every component's value is exact.

    >>> import rdpsym
    >>> upper_bound_only(rdpsym.gaussian(2).curve(), 3)
    ''
    >>> wor = rdpsym.sampled_without_replacement(rdpsym.gaussian(2), 0.1).curve()
    >>> upper_bound_only(wor, 3)[:80]
    'sampled-without-replacement(gaussian(sigma=2, sensitivity=1), q=1/10): upper bou'
    """
    if order == 1:
        return ""  # (the KL divergence: a curve has it from its closed forms, or not at all)
    for line in curve.how(order):
        _, _, text = line.partition(": ")
        if text.startswith("upper bound"):
            return line
    return ""


def actual_pair_divergence(curve: RdpCurve, order: object, dps: int = 30) -> arb | None:
    """A certified lower bound on the RDP at ``order`` of k × (sampling without replacement of a Gaussian or a
    Laplace mechanism): k times the divergence of the actual pair of the module's docstring; None for any other
    curve, or where the Poisson-sampled curve is not exact at ``order``.

    >>> import rdpsym
    >>> wor = rdpsym.sampled_without_replacement(rdpsym.gaussian(1), 0.01).curve()
    >>> low = actual_pair_divergence(wor, 2)                         # log(1 + q²(e^{Δ²/σ²} − 1))
    >>> round(float(low.mid()), 15), float(wor.enclosure(2).mid()) > float(low.mid())
    (0.000171813422075, True)
    """
    return actual_pair_divergences(curve, [order], dps)[0]


def actual_pair_divergences(curve: RdpCurve, orders: Sequence, dps: int = 30) -> list:
    """:func:`actual_pair_divergence` at each of ``orders``, the Poisson-sampled curve built once and evaluated at
    the orders where it is exact in one call (a grid of 156 orders had built and climbed it 156 times)."""
    pair = _actual_pair(curve)
    if pair is None:
        return [None] * len(orders)
    steps, poisson = pair
    exact = [o for o in orders if all(line.partition(": ")[2].startswith("exact") for line in poisson.how(o))]
    values = dict(zip(exact, poisson.enclosures(exact, dps))) if exact else {}
    found = (values.get(o) for o in orders)
    return [None if v is None or isinstance(v, Infinite) else v * int(steps) for v in found]


def _actual_pair(curve: RdpCurve) -> tuple[int, RdpCurve] | None:
    """(k, the curve of the Poisson pair) for k × sampling without replacement of a Gaussian or Laplace mechanism
    (the module's docstring), else None."""
    if len(curve.merged_terms) != 1:
        return None
    steps, component = curve.merged_terms[0]
    if not isinstance(component, WithoutReplacement) or len(component.inner.merged_terms) != 1:
        return None
    weight, inner = component.inner.merged_terms[0]
    if weight != 1 or not isinstance(inner, ClosedForm):
        return None
    if inner.gaussian_shift is not None:
        return int(steps), sampled_gaussian(component.q, 1 / inner.gaussian_shift).curve()
    if inner.pure_pair is not None and inner.pure_pair[0] == "laplace":
        return int(steps), poisson_sampled(laplace(1 / inner.pure_pair[1]), component.q).curve()
    return None


def below_a_bound(curve: RdpCurve, order: object, peer: float) -> tuple[str, str] | None:
    """(direction, cause) for a peer's value below rdpsym's at ``order``, where rdpsym's is an upper bound only:
    below an actual pair's divergence (:func:`actual_pair_divergence`) it is unsafe, else not decided; None where
    rdpsym's value there is exact."""
    bound = upper_bound_only(curve, order)
    if not bound:
        return None
    low = actual_pair_divergence(curve, order)
    if low is not None and (c := compare(peer, low)).direction == BELOW and not c.within(ROUNDING_Q):
        return BELOW, (f"below the divergence of an actual pair of neighbouring datasets, {lower_decimal(low, 6)} "
                       f"(rdpsym.peers.bounds), as well as rdpsym's upper bound ({bound})")
    between = f"; the truth is at least {lower_decimal(low, 6)}, an actual pair's" if low is not None else ""
    return NOT_DECIDED, (f"below rdpsym's value, which is an upper bound only at this order ({bound}){between}: a "
                         "value below it is neither confirmed nor refuted")


def epsilon_from_lower_bounds(curve: RdpCurve, per_order: Sequence, delta: object, conversion: str,
                              dps: int) -> arb | None:
    """The least ε ``conversion`` gives at δ over the orders of ``per_order`` (an ε's rows) from certified lower
    bounds on the RDP: the value itself where it is exact, an actual pair's divergence where rdpsym's value is an
    upper bound only (:func:`actual_pair_divergence`), else 0.  An RDP accountant whose RDP is at least the truth at
    every order answers at least this (every conversion grows with the RDP), so an ε below it is unsafe; None where
    no finite ε comes out."""
    orders = [row.order for row in per_order]
    bounded = [o for o in orders if upper_bound_only(curve, o)]
    pairs = dict(zip(bounded, actual_pair_divergences(curve, bounded, dps)))
    lows = [pairs[row.order] if row.order in pairs else row.rdp for row in per_order]
    found = api.epsilon_from_balls(curve, tuple(orders), [arb(0) if low is None else low for low in lows], delta,
                                   conversion, dps)
    return found.enclosure if isinstance(found.enclosure, arb) and found.enclosure.is_finite() else None


def bounded_somewhere(curve: RdpCurve, orders: Sequence) -> str:
    """The first account of an upper bound (:func:`upper_bound_only`) among the curve's values at ``orders`` (each
    an order, or a record with its ``order``), or '' where all are exact."""
    for order in orders:
        if bound := upper_bound_only(curve, getattr(order, "order", order)):
            return bound
    return ""


__all__ = ["actual_pair_divergence", "actual_pair_divergences", "below_a_bound", "bounded_somewhere",
           "epsilon_from_lower_bounds", "upper_bound_only"]
