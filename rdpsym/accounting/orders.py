"""Order grids: the paper's, the peers' defaults, a user's list.

Orders are exact rationals (1.1 is 11/10).  ``inf`` is allowed where a curve
has a D_∞ (pure DP); an order where a curve is ∞ stays in the result with its
reason, it is never dropped.
"""

from __future__ import annotations

from fractions import Fraction

from flint import fmpq

from ..errors import ParameterError, must
from .curve import parse_order

#: Mironov 2017 §VII: "we suggest ... 1.5, 1.75, 2, 2.5, 3, 4, 5, 6, 8, 16, 32, 64, +∞".
MIRONOV = tuple([fmpq(3, 2), fmpq(7, 4), fmpq(2), fmpq(5, 2)] + [fmpq(k) for k in (3, 4, 5, 6, 8, 16, 32, 64)]
                + [float("inf")])

#: dp_accounting's RdpAccountant default (0.6): 1.1, 1.2, …, 10.9, then 11, …, 63, then 128, 256, 512, 1024.
DP_ACCOUNTING = tuple([fmpq(10 + x, 10) for x in range(1, 100)] + [fmpq(k) for k in range(11, 64)]
                      + [fmpq(k) for k in (128, 256, 512, 1024)])

#: Opacus's RDPAccountant.DEFAULT_ALPHAS (1.6): 1.1, …, 10.9, then 12, …, 63 (11 is not in it).
OPACUS = tuple([fmpq(10 + x, 10) for x in range(1, 100)] + [fmpq(k) for k in range(12, 64)])

GRIDS = {"mironov": MIRONOV, "dp-accounting": DP_ACCOUNTING, "opacus": OPACUS}


def resolve(orders: object) -> tuple:
    """A grid name, or a list of orders (or a comma-separated string), as sorted exact orders.

    A duplicated order is an error (it usually means a grid was built twice or
    1.1 and 11/10 were both given); an unsorted list is sorted.

    >>> resolve("2, 4, 8.5")
    (2, 4, 17/2)
    >>> len(resolve("dp-accounting")), len(resolve("opacus"))
    (156, 151)
    """
    if isinstance(orders, str) and orders in GRIDS:
        return GRIDS[orders]
    if isinstance(orders, str):
        items = [s for s in (t.strip() for t in orders.split(",")) if s]
    else:
        try:
            items = list(orders)
        except TypeError:
            raise ParameterError(must("orders", f"one of {', '.join(GRIDS)}, 'continuous', or a list of orders > 1",
                                      repr(orders))) from None
    if not items:
        raise ParameterError(must("orders", "a non-empty list of orders > 1", "an empty list"))
    parsed = [parse_order(a) for a in items]
    keys = [Fraction(int(a.p), int(a.q)) if isinstance(a, fmpq) else a for a in parsed]
    if len(set(keys)) != len(keys):
        dup = sorted({k for k in keys if keys.count(k) > 1})
        raise ParameterError(must("orders", "a list without duplicates", f"duplicates {', '.join(map(str, dup))}"))
    return tuple(a for _, a in sorted(zip(keys, parsed), key=lambda t: t[0]))
