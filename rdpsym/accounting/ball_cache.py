"""The bounded cache of component balls, per (component, working precision) and order.

A component's balls are kept per (component, order, precision) in a bounded
cache (:func:`clear_cache` empties it): a curve that grows by composition
(ε after every epoch) recomputes nothing it has computed before, and equal
components of one curve (the same step composed k times, or added once per
epoch) are evaluated once, their weights summed.  A ball is the same ball
whenever it is computed, so the cache changes no result.

Its own module: the cache is a policy of evaluation (what is kept, for how
long, under which lock), not part of what a curve is
(:mod:`rdpsym.accounting.curve`) or of how a component computes
(:mod:`rdpsym.accounting.components`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

from flint import ctx, fmpq

from rdpsym.accounting.components import Component, Custom

#: Balls computed per (component, working precision): {order: ball}, least recently used dropped first.
_CACHE: OrderedDict = OrderedDict()
_CACHE_LOCK = threading.Lock()
#: How many (component, precision) entries the cache keeps.
CACHE_ENTRIES = 256


def clear_cache() -> None:
    """Forget every cached ball (benchmarks use it to time a computation from scratch)."""
    with _CACHE_LOCK:
        _CACHE.clear()


def cached_balls(component: Component, orders: Sequence) -> list:
    """``component.balls(orders)`` at the current precision, computing only the orders not cached yet.

    A :class:`Custom` component (a user's function, which may not be a function of its
    arguments alone) is never cached.
    """
    if isinstance(component, Custom):
        return component.balls(orders)
    key = (component, ctx.prec)
    try:
        hash(key)
    except TypeError:  # a component holding something unhashable: compute, keep nothing
        return component.balls(orders)
    # Orders keyed by (p, q) integers: hashing an fmpq builds a Fraction, slow over a grid of orders.
    keys = [_order_key(a) for a in orders]
    with _CACHE_LOCK:  # read under the lock (another thread may be adding to the entry), without copying it
        known = _CACHE.get(key)
        if known is not None:
            _CACHE.move_to_end(key)
            found = [known.get(k) for k in keys]
        else:
            found = [None] * len(keys)
    missing = {k: a for k, a, v in zip(keys, orders, found) if v is None}  # a ball or Infinite, never None
    if missing:
        fresh = dict(zip(missing, component.balls(list(missing.values()))))
        found = [fresh[k] if v is None else v for k, v in zip(keys, found)]
        with _CACHE_LOCK:
            entry = _CACHE.setdefault(key, {})
            entry.update(fresh)
            _CACHE.move_to_end(key)
            while len(_CACHE) > CACHE_ENTRIES:
                _CACHE.popitem(last=False)
    return found


def _order_key(order: object):
    """A cheap hashable key for an order (an fmpq's numerator and denominator, or the order itself)."""
    return (int(order.p), int(order.q)) if isinstance(order, fmpq) else order
