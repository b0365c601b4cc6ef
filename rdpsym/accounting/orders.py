"""Order grids: the paper's, the peers' defaults, a user's list, and the default.

Orders are exact rationals (1.1 is 11/10).  ``inf`` is allowed where a curve
has a D_∞ (pure DP); an order where a curve is ∞ stays in the result with its
reason, it is never dropped.

The published grids (:data:`MIRONOV`, :data:`DP_ACCOUNTING`, :data:`OPACUS`)
are exactly what their sources list, so naming one compares like with like
with that source.  :data:`DEFAULT`, used when no orders are named, is
dp_accounting's grid *and* α = ∞: a pure-DP curve (Laplace, randomized
response, the exponential mechanism, ``pure_dp`` and their compositions) is
r-DP with r = D_∞, so ε(δ) ≤ D_∞ at every δ, a bound no finite order of a
grid reaches (Mironov 2017, Prop 3 as α → ∞; (ε, 0)-DP is (ε, δ)-DP).  Where a
curve is ∞ at α = ∞ (the Gaussian) that order never wins.
"""

from __future__ import annotations

import collections
from fractions import Fraction

from flint import fmpq

from rdpsym.accounting.curve import parse_order
from rdpsym.foundations.errors import ParameterError, must, quoted
from rdpsym.foundations.reading import MAX_MAGNITUDE, MAX_ORDERS, comma_separated, exact, listed

#: Mironov 2017 §VII: "we suggest ... 1.5, 1.75, 2, 2.5, 3, 4, 5, 6, 8, 16, 32, 64, +∞".
MIRONOV = tuple([fmpq(3, 2), fmpq(7, 4), fmpq(2), fmpq(5, 2)] + [fmpq(k) for k in (3, 4, 5, 6, 8, 16, 32, 64)]
                + [float("inf")])

#: dp_accounting's RdpAccountant default (0.6): 1.1, 1.2, …, 10.9, then 11, …, 63, then 128, 256, 512, 1024.
DP_ACCOUNTING = tuple([fmpq(10 + x, 10) for x in range(1, 100)] + [fmpq(k) for k in range(11, 64)]
                      + [fmpq(k) for k in (128, 256, 512, 1024)])

#: Opacus's RDPAccountant.DEFAULT_ALPHAS (1.6): 1.1, …, 10.9, then 12, …, 63 (11 is not in it).
OPACUS = tuple([fmpq(10 + x, 10) for x in range(1, 100)] + [fmpq(k) for k in range(12, 64)])

GRIDS = {"mironov": MIRONOV, "dp-accounting": DP_ACCOUNTING, "opacus": OPACUS}

#: The orders used when none are named (``orders=None``): dp_accounting's grid and α = ∞.
DEFAULT = DP_ACCOUNTING + (float("inf"),)

#: The named grids of exact orders only, by length (each length is one grid's).
_KNOWN = {len(g): g for g in (DP_ACCOUNTING, OPACUS)}


def valid(continuous: bool = False, kl: bool = False) -> str:
    """What ``orders`` may be, for messages (``kl``: say why α = 1 is not one)."""
    names = ", ".join([*GRIDS, "continuous"] if continuous else GRIDS)
    # (the ceiling is said: 10^1001 was told only what an order is, not how large it may be; a probe)
    # (rational: sqrt(2) and pi were told only "in (1, ∞]", which they are; a review)
    return (f"a grid name ({names}) or a non-empty list of rational orders in (1, ∞], each at most 10^{MAX_MAGNITUDE} "
            "or inf, such as 1.5,2,inf"
            + (" (α = 1 is the KL divergence, not an RDP order)" if kl else ""))


def resolve(orders: object = None, name: str = "orders", continuous: bool = False) -> tuple:
    """A grid name, or a list of orders (or a comma-separated string), as sorted exact orders.

    ``None`` is :data:`DEFAULT` (dp_accounting's grid and ∞); a grid name or a
    list is used exactly as given (add ``inf`` to a list to include α = ∞).
    A duplicated order is an error (it usually means a grid was built twice or
    1.1 and 11/10 were both given); an unsorted list is sorted.  ``name`` is
    what an error message calls the argument (``--orders`` on the command line);
    ``continuous=True`` lists ``continuous`` among the valid values in it (the
    caller handles that name).

    >>> resolve("2, 4, 8.5")
    (2, 4, 17/2)
    >>> len(resolve("dp-accounting")), len(resolve("opacus")), len(resolve()), resolve()[-1]
    (156, 151, 157, inf)
    >>> resolve("0.5, 2", name="--orders")
    Traceback (most recent call last):
    ...
    rdpsym.foundations.errors.ParameterError: --orders must be a grid name (mironov, dp-accounting, opacus)
    or ...; got 0.5.
    """
    if orders is None:
        return DEFAULT
    if isinstance(orders, str) and orders in GRIDS:
        return GRIDS[orders]
    if isinstance(orders, (list, tuple)):
        known = _KNOWN.get(len(orders))
        if known is not None and all(type(a) is fmpq for a in orders) and tuple(orders) == known:
            return known  # a named grid given as its list: the same tuple, so what is kept per grid is found
    if isinstance(orders, str):
        if orders.count(",") >= MAX_ORDERS:
            raise ParameterError(must(name, f"at most {MAX_ORDERS} orders", f"{orders.count(',') + 1}"))
        items = comma_separated(orders, name, "orders")  # '2,,3' is a typo, not the orders 2 and 3 (a probe)
    else:  # (an iterator is read up to one past the ceiling, never to its end: it may have none)
        items = listed(orders, name, valid(continuous), MAX_ORDERS, "orders", unordered=True)  # (sorted below)
    if not items:
        raise ParameterError(must(name, valid(continuous), "an empty list"))
    parsed = [_order(a, name, continuous) for a in items]
    # Keys as (p, q) integers (an fmpq is reduced) and ∞ as itself: building Fractions cost more than the rest.
    keys = [(int(a.p), int(a.q)) if isinstance(a, fmpq) else a for a in parsed]
    if len(set(keys)) != len(keys):
        seen = collections.Counter(keys)  # one pass: counting each key in the list was quadratic (60 000 copies)
        dup = sorted(_fraction(k) for k, n in seen.items() if n > 1)[:10]
        raise ParameterError(must(name, "a list without duplicates", f"duplicates {', '.join(map(str, dup))}"))
    finite = [a for a in parsed if isinstance(a, fmpq)]
    if not all(x < y for x, y in zip(finite, finite[1:])):  # a grid is usually given sorted already
        finite.sort()
    return tuple(finite) + tuple(a for a in parsed if not isinstance(a, fmpq))


def _fraction(key):
    """A duplicate's key as a number to show."""
    return Fraction(*key) if isinstance(key, tuple) else key


def _order(item: object, name: str, continuous: bool):
    """One order of a list; an error names the list (``orders``, ``--orders``) and shows the item as typed."""
    try:
        return parse_order(item)
    except ParameterError:
        shown = item.strip() if isinstance(item, str) else item
        try:  # read by the one reader (bounded: Fraction("1e999999999") would build the number)
            one = exact(shown, name) == 1
        except ParameterError:  # not a number at all, or past the ceiling: shown quoted, as typed
            one, shown = False, quoted(shown)
        raise ParameterError(must(name, valid(continuous, kl=bool(one)), shown)) from None
