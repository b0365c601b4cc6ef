"""The tightest certified conversion of an RDP curve: the best over every valid conversion, naming the one that won.

Given (α_i, r_i)-RDP at a list of orders, (ε, δ)-DP holds with ε = min over the orders and over the
conversions below of each conversion's ε (and likewise for δ), since each (α_i, r_i) statement is true and
each conversion is valid.  The conversions (:data:`NAMES`), each certified in Arb balls:

* ``"mironov"`` — Mironov 2017 (arXiv:1702.07476v3), Proposition 3;
* ``"bbghs"`` — Balle, Barthe, Gaboardi, Hsu, Sato 2020 (arXiv:1905.09982), Theorem 21 = Canonne, Kamath,
  Steinke 2020 (arXiv:2004.00010), Proposition 12: what dp_accounting and Opacus use;
* ``"tv-kl"`` — the order-free bound δ ≤ √(1 − e^{−r}) (:func:`~rdpsym.accounting.conversions.rdp_dp.kl_delta`:
  KL = D₁ ≤ D_α ≤ r by monotonicity in α, Mironov 2017 Prop 9, and the Bretagnolle–Huber inequality
  TV ≤ √(1 − e^{−KL})), so ε = 0 once δ ≥ √(1 − e^{−r}).  dp_accounting 0.6.0 applies it in
  ``rdp/rdp_privacy_accountant.py`` (``compute_epsilon``: ``delta**2 + math.expm1(-r) > 0`` gives ε = 0;
  ``compute_delta`` takes the minimum with it), with the comment "bound via KL divergence", and no citation;
  it holds at every order α ≥ 1 (those are the only orders it accepts), and at α = ∞;
* ``"optimal"`` — the optimal conversion of each single (α, r) (Asoodeh et al. 2021, arXiv:2008.06529),
  certified by a dual point and bracketed by a witness pair (:mod:`~rdpsym.accounting.conversions.optimal`);
  it is never worse than the three above at the same order.

Certifying ``"optimal"`` costs about half a millisecond an order, so it is certified only at the orders that
can win.  For ε, an order is first discarded when an explicit witness pair
(:func:`~rdpsym.accounting.conversions.optimal_estimates.witness_epsilon`, a few float operations with a margin far
above their rounding) shows that no conversion of its (α, r) reaches the best closed-form value: such an
order cannot win, so discarding it changes nothing.  The others are ranked by a quick float estimate
(:func:`~rdpsym.accounting.conversions.optimal_estimates.quick_epsilon`) and a float solve, and certified while those
could beat the best certified value so far; the float solve is handed to the certification, which starts
Newton's method from it.  The estimates choose, they never decide a published number.

Speed (every value as before): Mironov's and Balle et al.'s ε at an order are r plus a constant of (α, δ),
kept per δ and working precision (ε after every epoch asks the same δ over the same grid each time), so
each is one ball addition; the TV/KL branch is decided by one comparison of r with −log(1 − δ²) where r is
clearly above it (δ < √(1 − e^{−r}) ⟺ r > −log(1 − δ²)); the list of every order's bound is built when
first read (:class:`~rdpsym.accounting.rows.LazyRows`).

Over the orders, taking each order's best is optimal only among conversions that look at one order at a
time.  The joint optimum over all constraints E_Q[L^{α_i}] ≤ e^{(α_i−1)r_i} is a linear programme; measured
on the Gaussian (σ = 1, δ = 10⁻⁵, orders 1.5–12 by 0.1), it is below the best single order by less than
10⁻⁴ (4.72841 against 4.72850): not worth a certified LP here.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Sequence
from fractions import Fraction
from typing import NamedTuple

from flint import arb, ctx

from rdpsym.accounting.conversions import optimal as opt
from rdpsym.accounting.conversions import optimal_estimates as est
from rdpsym.accounting.conversions._inputs import (
    Order,
    Real,
    _because,
    _checked,
    _delta,
    _infinite_reason,
    _is_inf,
    _log1m_inv,
    _nonnegative,
    _order,
    _order_key,
    _pairs,
    log1m,
)
from rdpsym.accounting.conversions.rdp_dp import (
    OrderBound,
    _valid_order,
    balle_delta,
    balle_epsilon,
    kl_delta,
    mironov_delta,
    mironov_epsilon,
)
from rdpsym.accounting.rows import LazyRows
from rdpsym.foundations.errors import ParameterError, must

__all__ = ["NAMES", "Tightest", "conversions", "tightest_delta", "tightest_epsilon", "tightest_epsilon_grid"]

#: Every conversion, in the order they are tried (and reported on ties).
NAMES: tuple[str, ...] = ("mironov", "bbghs", "tv-kl", "optimal")

#: Where each conversion comes from (for notes and documents).
SOURCES = {
    "mironov": "Mironov 2017, Proposition 3",
    "bbghs": "Balle et al. 2020, Theorem 21 (= Canonne–Kamath–Steinke 2020, Proposition 12)",
    "tv-kl": "KL ≤ D_α (Mironov 2017, Prop 9) and Bretagnolle–Huber TV ≤ √(1 − e^{−KL}); as dp_accounting",
    "optimal": "the optimal conversion of one (α, r) (Asoodeh et al. 2021), certified by a dual point",
}

#: A float estimate must be below the best certified value by this (relative) margin to be certified.
_MARGIN = 1e-9


class Tightest(NamedTuple):
    """The result of :func:`tightest_epsilon` / :func:`tightest_delta`.

    ``value`` is the ball of the best bound (its upper end is the certified ε or δ; ``math.inf`` for ε when
    every order is infinite); ``order`` and ``conversion`` say where it comes from; ``per_order`` lists every
    order's best (an :class:`~rdpsym.accounting.conversions.rdp_dp.OrderBound` whose ``conversion`` names its
    winner; a sequence built when first read); ``alternatives`` is every conversion's value at the winning
    order, as (name, ball or inf, reason); ``gap`` the certified width between the winning optimal value and
    its witness (None unless ``optimal`` won and its witness was certified).
    """

    value: arb | float
    order: object
    conversion: str | None
    per_order: list
    alternatives: tuple
    gap: arb | None = None


def conversions(names: object) -> tuple[str, ...]:
    """The conversions a name means: ``"best"`` is all of them, ``"balle"`` is ``"bbghs"``, or a list of names."""
    given = names
    if isinstance(names, str):
        names = NAMES if names == "best" else ("bbghs" if names == "balle" else names,)
    try:
        out = tuple("bbghs" if n == "balle" else n for n in names)
    except TypeError:
        out = ()
    bad = [n for n in out if n not in NAMES]
    if bad or not out:
        raise ParameterError(must("conversion", "'best' or one of " + ", ".join(map(repr, NAMES)), repr(given)))
    return out


def _upper(x) -> float | arb:
    return x.upper() if isinstance(x, arb) else x


# --------------------------------------------------------------------------- what the closed forms need, per δ

#: Per (δ, working precision): the closed forms' constants (:class:`_Constants`), least recently used dropped.
_CONSTANTS: OrderedDict = OrderedDict()
_CONSTANTS_LOCK = threading.Lock()
#: How many (δ, precision) entries are kept, and how many orders each keeps.
CONSTANT_ENTRIES, CONSTANT_ORDERS = 16, 4096

_TV_NOTHING = "δ < √(1 − e^(−r)): the TV bound gives nothing at this δ"


class _Constants:
    """At one δ and working precision: log δ; the TV/KL threshold −log(1 − δ²) (δ ≥ √(1 − e^{−r}) needs r below
    it); and per order the balls m, c with Mironov's ε = r + m, m = −log δ/(α − 1) (Prop 3), and Balle et
    al.'s ε = r + c, c = log(1 − 1/α) − (log δ + log α)/(α − 1) (Thm 21), each formed as
    :func:`~rdpsym.accounting.conversions.rdp_dp.mironov_epsilon` and
    :func:`~rdpsym.accounting.conversions.rdp_dp.balle_epsilon` form theirs (α − 1 exact for a rational α)."""

    __slots__ = ("d", "grids", "log_d", "orders", "tv")

    def __init__(self, d: arb):
        self.d = float(d.mid())
        self.log_d = d.log()
        self.tv = -log1m(d * d)
        self.orders: dict = {}
        self.grids: dict = {}  # id of a grid (a tuple of orders, kept alive here): its constants in order

    def grid(self, orders: tuple) -> list:
        """:meth:`at` at every order of a grid (None at α = ∞), kept for a grid that is one tuple object (the
        named grids, as :func:`~rdpsym.accounting.orders.resolve` returns them): no order is hashed again."""
        kept = self.grids.get(id(orders))
        if kept is not None and kept[0] is orders:
            return kept[1]
        out = [None if _is_inf(o) else self.at(o) for o in orders]
        keys = [_order_key(o) for o in orders]
        if len(set(keys)) != len(keys):
            # As _pairs says it: the orders were not distinct.
            dup = next(k for i, k in enumerate(keys) if k in keys[:i])
            shown = Fraction(*dup) if isinstance(dup, tuple) and len(dup) == 2 and isinstance(dup[0], int) else dup
            raise ParameterError(must("the orders", "distinct", f"{shown} twice"))
        if isinstance(orders, tuple):
            if len(self.grids) >= 8:
                self.grids.clear()
            self.grids[id(orders)] = (orders, out)
        return out

    def at(self, order) -> tuple[arb, arb, tuple | None]:
        """(m, c, the witness pair's terms) at a finite order (checked: an invalid order raises, as the
        conversions do)."""
        key = _order_key(order)
        found = self.orders.get(key)
        if found is None:
            alpha, h = _order(order)
            found = (_checked("epsilon", -(self.log_d / h)),
                     _checked("epsilon", _log1m_inv(alpha, h) - (self.log_d + h.log1p()) / h),
                     est.witness_terms(order, self.d))
            if len(self.orders) >= CONSTANT_ORDERS:
                self.orders.clear()
            self.orders[key] = found
        return found


def _constants(d: arb) -> _Constants:
    key = (tuple(map(int, d.mid().man_exp())), tuple(map(int, d.rad().man_exp())), ctx.prec)
    with _CONSTANTS_LOCK:
        found = _CONSTANTS.get(key)
        if found is None:
            found = _CONSTANTS[key] = _Constants(d)
            while len(_CONSTANTS) > CONSTANT_ENTRIES:
                _CONSTANTS.popitem(last=False)
        else:
            _CONSTANTS.move_to_end(key)
    return found


def _rdp(r) -> arb:
    """An RDP value as :func:`_nonnegative` reads it (a finite ball's nonnegative part), fast for a ball."""
    if isinstance(r, arb) and r.is_finite():
        if r >= 0:
            return r  # its own nonnegative part
        if not r < 0:
            return r.nonnegative_part()
    return _nonnegative("r", r)


def _closed_epsilon(name: str, order, r: arb, d: arb):
    """(ball or inf, reason) of a closed-form conversion at one order."""
    if name == "mironov":
        return mironov_epsilon(order, r, d), ""
    if name == "bbghs":
        return balle_epsilon(order, r, d), ""
    if d >= kl_delta(r):
        return arb(0), ""
    return math.inf, _TV_NOTHING


def tightest_epsilon(values: Sequence[tuple[Order, Real | float]], delta: Real, names: object = "best") -> Tightest:
    """The smallest certified ε over a list of RDP guarantees (α_i, r_i) and over the conversions ``names``.

    Each order's value is the best of the conversions there (its ``conversion`` says which); the result is the
    best order.  Infinite RDP values give nothing, with their reason.

    >>> from flint import fmpq
    >>> from rdpsym.foundations.balls import precision, upper_decimal
    >>> curve = [(a, fmpq(a, 2)) for a in (2, 4, 8, 16)] + [(math.inf, math.inf)]   # Gaussian, σ = 1
    >>> with precision(80):
    ...     t = tightest_epsilon(curve, fmpq(1, 10**5))
    ...     upper_decimal(t.value, 8), t.order, t.conversion
    ('5.0870345', 4, 'optimal')
    >>> [(name, v if v == math.inf else upper_decimal(v, 12)) for name, v, _ in t.alternatives]  # at order 4
    [('mironov', '5.83764182166'), ('bbghs', '5.08786162884'), ('tv-kl', inf), ('optimal', '5.08703448444')]
    >>> t.gap < 1e-18     # the witness pair: no conversion of (4, 2)-RDP gives less than this minus the gap
    True

    Where ``optimal`` was not certified (it cannot beat the best order, by a witness pair or by its float
    estimates), an order's row holds the best of the closed forms, and the optimal entry says why.
    """
    pairs = _pairs(values, "values", "order, r", "the orders")
    return tightest_epsilon_grid([o for o, _ in pairs], [r for _, r in pairs], delta, names)


def tightest_epsilon_grid(orders: Sequence[Order], values: Sequence, delta: Real, names: object = "best") -> Tightest:
    """:func:`tightest_epsilon` of ``zip(orders, values)`` (two sequences of one length), as ``rdpsym.epsilon``
    calls it with a grid from :func:`~rdpsym.accounting.orders.resolve`: the orders are checked (valid and
    distinct) and the closed forms' constants found once per grid that is one tuple object (the named grids),
    so asking again (ε after every epoch) hashes no order; every value is read as the conversions read it."""
    use = conversions(names)
    d = _delta(delta)
    if not len(orders) or len(orders) != len(values):
        raise ParameterError(must("orders and values", "nonempty and of one length",
                                  f"{len(orders)} orders and {len(values)} values"))
    known = _constants(d)
    closed = [n for n in use if n != "optimal"]
    constants = known.grid(orders)  # also checks the orders
    rows: list = []  # [order, r, {name: (value, reason)}, infinite reason or None, the closed forms' best,
    #                  the witness pair's terms (a finite order with a finite value)]
    best = None  # the least upper end so far (what the optimal conversion must beat)
    for order, r, known_here in zip(orders, values, constants):
        inf = known_here is None
        if not isinstance(r, arb):
            why = _infinite_reason(r)
            if why is not None:
                rows.append([order, None, {}, _because(f"the RDP value at order {order} is infinite", why), None,
                             None])
                continue
        r = _rdp(r)
        if not inf:
            m, c, terms = known_here
        found = {}
        # The closed forms' best at this order, as _pick takes it (the first of the least upper ends).
        name, value, up, reason = None, None, None, ""
        for n in closed:
            if n == "tv-kl":
                # r > −log(1 − δ²) certainly: then √(1 − e^{−r}) > δ at every point, and the test below is false.
                v, why_not = (math.inf, _TV_NOTHING) if r > known.tv else _closed_epsilon(n, order, r, d)
            elif inf:
                v, why_not = r, ""  # (∞, r)-RDP is r-DP: both closed forms give r
            else:
                v, why_not = r + (m if n == "mironov" else c), ""  # finite balls: a finite sum
            found[n] = (v, why_not)
            if isinstance(v, arb):
                vu = v.upper()
                if value is None or vu < up:
                    name, value, up = n, v, vu
            elif value is None:
                reason = why_not
        if "optimal" in use and inf:
            found["optimal"] = (opt.optimal_epsilon(order, r, d).value, "")
            vu = found["optimal"][0].upper()
            best = vu if best is None or vu < best else best
        if up is not None and (best is None or up < best):
            best = up
        rows.append([order, r, found, None, (name, value, up, reason), None if inf else terms or ()])
    if "optimal" in use:
        _add_optimal(rows, d, "epsilon", best)
    return _pick(rows, use, math.inf)


def tightest_delta(values: Sequence[tuple[Order, Real | float]], epsilon: Real, names: object = "best") -> Tightest:
    """The smallest certified δ over a list of RDP guarantees (α_i, r_i) and over the conversions ``names``
    (``"tv-kl"``: δ = √(1 − e^{−r}) whatever ε ≥ 0).  An infinite RDP value gives δ = 1 with its reason.

    >>> from flint import fmpq
    >>> from rdpsym.foundations.balls import precision, upper_decimal
    >>> with precision(80):
    ...     t = tightest_delta([(2, fmpq(1, 100)), (4, fmpq(1, 50))], 0)
    ...     upper_decimal(t.value, 6), t.order, t.conversion
    ('0.0501253', 2, 'optimal')
    >>> upper_decimal(kl_delta(fmpq(1, 100)), 6)    # the TV/KL bound dp_accounting takes at ε = 0
    '0.0997506'
    """
    use = conversions(names)
    e = _nonnegative("epsilon", epsilon)
    rows: list = []
    for order, r in _pairs(values, "values", "order, r", "the orders"):
        _valid_order(order)
        why = _infinite_reason(r)
        if why is not None:
            rows.append([order, None, {}, _because(f"the RDP value at order {order} is infinite", why)
                         + ": no guarantee", None, None])
            continue
        r = _rdp(r)
        found = {}
        for n in use:
            if n == "mironov":
                found[n] = (mironov_delta(order, r, e), "")
            elif n == "bbghs":
                found[n] = (balle_delta(order, r, e), "")
            elif n == "tv-kl":
                found[n] = (kl_delta(r), "")
            elif _is_inf(order):
                found[n] = (opt.optimal_delta(order, r, e).value, "")
        rows.append([order, r, found, None, None, None if _is_inf(order) else ()])
    if "optimal" in use:
        _add_optimal(rows, e, "delta", _best_upper(rows))
    return _pick(rows, use, arb(1))


def _best_upper(rows) -> arb | None:
    best = None
    for row in rows:
        for v, _ in row[2].values():
            if isinstance(v, arb) and (best is None or v.upper() < best):
                best = v.upper()
    return best


def _add_optimal(rows: list, given: arb, kind: str, best: arb | None) -> None:
    """Certify the optimal conversion at the orders that could beat ``best``, the least upper end so far
    (module docstring).  A row's last entry is None at α = ∞ and for an infinite value; for ε, the witness
    pair's terms (:func:`~rdpsym.accounting.conversions.optimal_estimates.witness_terms`) otherwise, empty where there
    are none (an order that is a ball)."""
    g = float(given.mid())
    # (not a ball: :func:`_pick` reads a ball as the order's bound and drops its reason; δ = 1 said nothing of why)
    nothing = math.inf if kind == "epsilon" else 1.0
    above = None if best is None else _threshold(best, kind)
    candidates = []
    for i, row in enumerate(rows):
        order, r, found, why, _, terms = row
        if why is not None or terms is None:
            continue
        rf = float(r.upper())
        if kind == "epsilon" and above is not None:
            # A witness pair's ε bounds every conversion of (α, r) from below: above the best closed form, the
            # order cannot win (the best only decreases), and nothing is solved there.
            lower = est.witness_from(terms, rf, above)
            if lower is not None and lower > above:
                found["optimal"] = (nothing, "not certified: a witness pair shows no conversion of this order's "
                                             "(α, r) beats the best order")
                continue
        try:
            a = est._as_float(order)
            quick = est.quick_epsilon(a, rf, g) if kind == "epsilon" else est.quick_log_delta(a, rf, g)
        except (OverflowError, ValueError, ZeroDivisionError):
            quick = None
        candidates.append((-math.inf if quick is None else quick, i))
    candidates.sort()
    for quick, i in candidates:
        order, r, found = rows[i][:3]
        if best is not None and quick != -math.inf and _beyond(quick, best, kind):
            found["optimal"] = (nothing, "not certified: its estimate from below does not beat the best order")
            continue
        # A second, sharper float estimate (the full float solve) before certifying (~0.3 ms): the quick one
        # is loose where r is small.  Its solution is where the certification starts.
        estimate, start = est.estimate(order, r, given, "delta" if kind == "epsilon" else "gamma")
        if best is not None and estimate is not None and _beyond(estimate, best, kind):
            found["optimal"] = (nothing, "not certified: its float estimate does not beat the best order")
            continue
        b = (opt.optimal_epsilon(order, r, given, start) if kind == "epsilon"
             else opt.optimal_delta(order, r, given, start))
        if b is None:
            found["optimal"] = (nothing, "the optimal conversion's solver did not reach a certified point here")
            continue
        found["optimal"] = (b.value, "", b)
        if best is None or b.value.upper() < best:
            best = b.value.upper()


def _threshold(best: arb, kind: str) -> float:
    """The float above which an estimate from below is certainly no better than ``best`` (a relative margin)."""
    b = float(best.mid()) if kind == "epsilon" else (float(best.log().mid()) if best > 0 else -math.inf)
    return b + _MARGIN * (1 + abs(b))


def _beyond(quick: float, best: arb, kind: str) -> bool:
    """Whether a float estimate from below is certainly no better than ``best`` (with a relative margin)."""
    if kind == "epsilon":
        b = float(best.mid())
        return quick > b + _MARGIN * (1 + abs(b))
    if best <= 0:
        return True
    lb = float(best.log().mid())
    return quick > lb + _MARGIN * (1 + abs(lb))


def _pick(rows: list, use: tuple, empty) -> Tightest:
    per: list = []  # (order, value, reason, conversion): OrderBound's fields, made records when read
    best_i, best_up = None, None
    for order, _, found, why, pre, _ in rows:
        if why is not None:
            per.append((order, math.inf if empty is math.inf else arb(1), why, ""))
            continue
        optimal = found.get("optimal")
        if pre is not None and pre[1] is not None and (optimal is None or not isinstance(optimal[0], arb)):
            # The closed forms' best, found as they were computed; an uncertified optimal entry changes nothing.
            name, value, up, reason = pre
        else:
            name, value, up, reason = None, None, None, ""
            for n in use:
                v, rs = found[n][0], found[n][1]
                if isinstance(v, arb):
                    vu = v.upper()
                    if value is None or vu < up:
                        name, value, up = n, v, vu
                elif value is None:
                    reason = rs
        if value is None:
            per.append((order, math.inf if empty is math.inf else arb(1), reason, ""))
            continue
        per.append((order, value, "", name))
        if best_i is None or up < best_up:
            best_i, best_up = len(per) - 1, up
    rows_later = LazyRows(lambda: tuple(OrderBound(*p) for p in per))
    if best_i is None:
        return Tightest(empty, None, None, rows_later, ())
    finite = [p[1] for p in per if not p[2]]
    ball = finite[0]
    for v in finite[1:]:
        ball = ball.min(v)
    order, _, _, conversion = per[best_i]
    found = rows[best_i][2]
    alternatives = tuple((n, found[n][0], found[n][1]) for n in use)
    gap = None
    extra = found.get("optimal", ())
    if conversion == "optimal" and len(extra) == 3 and extra[2].lower is not None:
        gap = _checked("gap", (extra[2].value - extra[2].lower).upper() if extra[2].value.upper() > extra[2].lower
                       else arb(0))
        gap = gap.nonnegative_part()
    return Tightest(_checked("minimum", ball), order, conversion, rows_later, alternatives, gap)
