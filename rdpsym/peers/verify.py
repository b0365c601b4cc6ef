"""``rdpsym.verify``: what a peer accountant was told, what it answered, and how far that is from the truth.

A peer (dp_accounting, Opacus, autodp, prv_accountant, or your own code) was
told a computation — a dp_accounting event or ledger, an Opacus history, an
autodp mechanism, or an rdpsym mechanism with a number of steps — and
answered with its RDP at some orders and/or its ε at a δ.  :func:`verify`
computes the certified values of the *same question* (the same orders, the
same conversion) and reports, per order and for ε:

* the certified value (an Arb ball) and the peer's error, peer − certified;
* its **direction**: ``exact`` (inside the ball), ``above`` (conservative,
  safe), ``below`` (the peer claims more privacy than holds: **unsafe**),
  ``invalid`` (NaN, a negative divergence), or ``not decided`` (below a value
  rdpsym certifies only as an upper bound -- sampling without replacement's
  bounds, a chord between integer orders, an RDP conversion's ε for a peer not
  known to convert RDP -- and not below a certified lower bound:
  :mod:`rdpsym.peers.bounds`);
* its **cause**: float64 rounding (within 64 ulp), float64 error accumulated
  by a long computation (within 10⁻⁹ relative), a known formula of the peer
  (dp_accounting sums |C(α,k)| in MTZ's fractional-order series; Opacus and
  prv_accountant stop that series once its terms are below e⁻³⁰ in absolute
  terms), ∞ where the value is finite, …;
* for ε, a peer answer of ε = 0 that a **different valid conversion** explains:
  δ ≥ √(1 − e^{−D_α}) at an order the peer used gives (0, δ)-DP
  (Bretagnolle–Huber on KL ≤ D_α; dp_accounting's TV/KL branch, TensorFlow
  Privacy issue #166), which is reported as valid, not as a disagreement.

Every verdict is decided in Arb balls, never through a float: the peer's
float is read as its exact binary value (NaN, ±∞ and negative answers by
explicit rules), the error peer − certified and the relative error
|peer − certified| / |certified| are balls (at a precision set by the
certified ball, whatever the magnitudes: 10⁻⁶⁰⁰ and 10⁶⁰⁰ alike), and each
threshold (inside the ball, 64 ulp, 10⁻⁹) is a certain comparison of balls
(:func:`compare`).  Where a ball straddles a threshold the verdict is the one
that warns: an answer below the certified value is **unsafe** unless it is
certainly within float64 rounding (:attr:`OrderCheck.unsafe`).  The records'
``error`` and ``relative`` are floats for display only (never NaN; ±∞ beyond
float64's range, or where the relative error is unbounded); ``within_rounding``
is the certified comparison the verdicts use.

>>> import rdpsym
>>> v = rdpsym.verify(rdpsym.gaussian(sigma=2), orders=[2, 10], rdp=[0.25, 1.2499999999999998])
>>> [(c.direction, c.cause) for c in v.orders]
[('exact', 'exact'), ('below', 'float64 rounding (within 64 ulp)')]
>>> v.unsafe, v.verdict                   # 1 ulp below: claims more privacy, but only by float64 rounding
(True, 'below by float64 rounding only')
>>> v = rdpsym.verify(rdpsym.gaussian(sigma=1e-300), orders=[2], rdp=[1e308])    # the truth is 10^600
>>> c = v.orders[0]
>>> c.direction, c.relative, c.unsafe, v.verdict
('below', 1.0, True, 'unsafe')
"""

from __future__ import annotations

import collections
import math
from collections.abc import Mapping, Sequence
from fractions import Fraction

from flint import arb, fmpq

from rdpsym.accounting import api, profiles
from rdpsym.accounting.components import Infinite
from rdpsym.accounting.conversions.rdp_dp import kl_delta
from rdpsym.accounting.curve import RdpCurve, parse_order
from rdpsym.accounting.orders import MAX_ORDERS
from rdpsym.foundations.balls import bits_for, precision, upper_decimal
from rdpsym.foundations.errors import ParameterError, RdpSymError, must
from rdpsym.foundations.numbers import Enclosure
from rdpsym.foundations.reading import dps as read_dps
from rdpsym.foundations.reading import integer, listed, number, open_probability
from rdpsym.laws.mechanisms import Guarantee, Mechanism
from rdpsym.peers._reading import held_as_typed, held_float, kind, read_optional, reads_peer_objects, shown
from rdpsym.peers.autodp import from_autodp
from rdpsym.peers.bounds import below_a_bound, bounded_somewhere, epsilon_from_lower_bounds
from rdpsym.peers.causes import DP_ACCOUNTING, NAN_AT_INFINITY, holds_infinity, why
from rdpsym.peers.comparison import (
    ABOVE,
    ACCUMULATED,
    ACCUMULATED_Q,
    BELOW,
    EXACT,
    INVALID,
    NOT_DECIDED,
    ROUNDING,
    ROUNDING_Q,
    SERIES_CUTOFF,
    VALID_OTHER,
    Comparison,
    compare,
    exact_float,
)
from rdpsym.peers.events import from_dp_event
from rdpsym.peers.opacus import from_opacus
from rdpsym.peers.verification import EpsilonCheck, OrderCheck, Verification


# ---------------------------------------------------------------- what the peer was told
@reads_peer_objects("reading what the peer was told")
def as_curve(told: object, steps: object = 1) -> RdpCurve:
    """The RDP curve of what a peer was told: an rdpsym curve, mechanism or guarantee (× ``steps``), a
    dp_accounting event or ledger, an Opacus accountant or history, or an autodp mechanism."""
    k = integer(steps, "steps", minimum=1)
    if isinstance(told, RdpCurve):
        curve = told
    elif isinstance(told, (Mechanism, Guarantee)):
        curve = told.curve()
    else:
        name = kind(told)
        if name.endswith("DpEvent") or name == "DpEventBuilder" or kind(getattr(told, "ledger", None)).endswith(
                "DpEvent"):
            curve = from_dp_event(told)
        elif hasattr(told, "history") or (isinstance(told, Sequence) and not isinstance(told, (str, bytes))):
            curve = from_opacus(told)
        elif isinstance(getattr(told, "params", None), Mapping):
            curve = from_autodp(told)
        else:
            raise ParameterError(must("what the peer was told", "an rdpsym curve or mechanism, a dp_accounting "
                                      "event or ledger, an Opacus accountant or history, or an autodp mechanism",
                                      name))
    return curve if k == 1 else curve * k


def peer_float(value: object, name: str) -> float:
    """A peer's answer as the float it is: floats and NumPy floats as they are, text by the one reader (a decimal
    rounded to the nearest float, as the peer's float prints and reads back).

    A finite answer that float64 cannot hold (text such as ``1e400`` or ``1e-400``, a long double beyond its
    range) is refused rather than read as ∞ or 0: that would turn an answer below the truth into one above it
    (or the reverse).

    >>> peer_float("0.1", "rdp[0]"), peer_float("-inf", "rdp[0]"), peer_float("5e-324", "rdp[0]")
    (0.1, -inf, 5e-324)
    >>> peer_float("1e400", "rdp[0]")
    Traceback (most recent call last):
    ...
    rdpsym.foundations.errors.ParameterError: rdp[0] must be a value in float64's range (the peer's float as it \
prints: inf, -inf and nan are spelled so); got '1e400'.
    """
    if isinstance(value, float) or type(value).__name__ in ("float64", "float32", "longdouble", "float128"):
        f = float(value)
        if (math.isinf(f) or f == 0) and not math.isnan(f) and not value == f:  # a long double beyond float64
            raise ParameterError(must(name, _IN_RANGE, shown(value)))
        if not math.isnan(f) and not value == f:  # (compared as long doubles: exactly)
            # A long double float64 cannot hold: rounded, 0.25 − 2⁻⁶⁰ was read as 0.25 and judged equal to the
            # certified 0.25, though the peer's own value is below it (a probe).
            raise ParameterError(must(name, "a value float64 holds exactly (rdpsym judges a peer's float64 answers, "
                                      "and does not round a long double into one)", shown(value)))
        return f
    if isinstance(value, str):
        text = value.strip().lower()
        if text in ("nan", "+nan", "-nan"):
            return math.nan
        if text in ("-inf", "-infinity"):
            return -math.inf
    v = number(value, name)
    if v.is_infinite:
        return math.inf if v > 0 else -math.inf
    try:
        f = float(v)
    except OverflowError:
        f = math.inf
    if (math.isinf(f) or f == 0) and v != 0:
        raise ParameterError(must(name, _IN_RANGE, shown(value)))
    return f


_IN_RANGE = "a value in float64's range (the peer's float as it prints: inf, -inf and nan are spelled so)"


# ---------------------------------------------------------------- one order
def _order_check(peer_name: str, curve: RdpCurve, order: object, peer: float, certified: object) -> OrderCheck:
    """The peer's value at one order against the certified one (None where rdpsym has none: only a NaN or a value
    below 0 is judged then, and both are invalid at any value)."""
    def check(error: float, relative: float, direction: str, cause: str, within: bool = False) -> OrderCheck:
        return OrderCheck(order, peer, certified, error, relative, direction, cause, within)

    if math.isnan(peer):
        return check(math.inf, math.inf, INVALID, "NaN")
    if isinstance(certified, Infinite):
        if peer == math.inf:
            return check(0.0, 0.0, EXACT, "exact (∞)", True)
        if peer < 0:
            return check(-math.inf, math.inf, INVALID, "negative RDP")
        return check(-math.inf, math.inf, BELOW, f"finite where the value is ∞ ({certified.reason})")
    if peer < 0:
        return check(_negative_error(peer, certified), math.inf, INVALID, "negative RDP")
    if not certified.is_finite():  # (not expected: the certified values are finite balls or Infinite)
        return check(-math.inf, math.inf, BELOW, "the certified ball is not finite: the answer cannot be placed")
    if peer == math.inf:
        return check(math.inf, math.inf, ABOVE, "∞ where the value is finite (the peer gave up at this order)")
    c = compare(peer, certified)
    within = c.within(ROUNDING_Q)
    if c.direction == EXACT:
        return check(c.error_float, c.relative_float, EXACT, "exact", within)
    if c.direction == BELOW and not within and (judged := below_a_bound(curve, order, peer)):
        return check(c.error_float, c.relative_float, *judged)  # rdpsym's value there an upper bound only (a probe)
    return check(c.error_float, c.relative_float, c.direction, why(peer_name, curve, order, c, within), within)


def _negative_error(peer: float, certified: object) -> float:
    """peer − certified for a negative answer, for display."""
    if peer == -math.inf or not isinstance(certified, arb) or not certified.is_finite():
        return -math.inf
    return compare(peer, certified).error_float


# ---------------------------------------------------------------- ε at δ
def _epsilon_check(peer_name: str, curve: RdpCurve, peer: float, delta: fmpq, orders: object, conversion: str,
                   dps: int, by_order: dict, told: object = None) -> EpsilonCheck:
    r = api.epsilon(curve, delta=_fraction(delta), orders=orders, conversion=conversion, dps=dps)
    name = r.conversion
    certified = r.enclosure

    def check(error: float, relative: float, direction: str, cause: str, within: bool = False) -> EpsilonCheck:
        return EpsilonCheck(delta, peer, certified, r.order, name, error, relative, direction, cause, within,
                            _over(orders))

    if math.isnan(peer):
        return check(math.inf, math.inf, INVALID, "NaN")
    if peer < 0:
        # A negative ε is a statement too: (ε, δ) with e^ε < 1.  No mechanism meets it where δ < 1 − e^ε (the whole
        # output space: P(Ω) − e^ε Q(Ω)); above that rdpsym, which certifies bounds ε ≥ 0, cannot decide it.  It was
        # invalid, and counted unsafe, at δ = 0.1 for Opacus's −0.1034 (σ = 50), which the Gaussian's exact profile
        # shows true: δ(−0.1034) = 0.0982 (a review).
        with precision(bits_for(dps + 10)):
            floor = 1 - arb(peer).exp()
        error = _negative_error(peer, certified)
        if floor > arb(delta):
            return check(error, math.inf, INVALID, f"negative ε, false: no mechanism has δ < 1 − e^ε = "
                                                   f"{upper_decimal(floor, 6)} there")
        return check(error, math.inf, NOT_DECIDED, "negative ε (a conversion's bound below 0, not clamped): true only "
                     "where the mechanism's δ at that ε is at most the δ given; rdpsym certifies ε ≥ 0 only")
    if not isinstance(certified, arb):  # math.inf: every order gives ∞
        if peer == math.inf:
            return check(0.0, 0.0, EXACT, "exact (∞)", True)
        return check(-math.inf, math.inf, BELOW, "finite where every order gives ∞")
    if not certified.is_finite():  # (not expected: a certified ε is a finite ball or ∞)
        return check(-math.inf, math.inf, BELOW, "the certified ball is not finite: the answer cannot be placed")
    if peer == math.inf:
        return check(math.inf, math.inf, ABOVE, "∞ where the value is finite")
    c = compare(peer, certified)
    within = c.within(ROUNDING_Q)
    error, relative, direction = c.error_float, c.relative_float, c.direction
    if direction == EXACT:
        return check(error, relative, EXACT, "exact", within)
    if direction == BELOW and peer == 0:
        other = _kl_branch(curve, delta, r, dps)
        if other:
            return check(error, relative, VALID_OTHER, other, within)
    if within:
        cause = "float64 rounding (within 64 ulp)"
    elif direction == BELOW and peer == 0 and peer_name in DP_ACCOUNTING and holds_infinity(orders):
        cause = NAN_AT_INFINITY
    else:
        at = by_order.get(_key(r.order))
        if at is not None and at.direction != EXACT:
            cause = (f"its RDP at the best order α = {_shown_order(r.order)} is {at.relative:.2g} relative "
                     f"{at.direction} the certified value: {at.cause}")
        elif c.within(ACCUMULATED_Q):
            cause = "float64 error accumulated over the computation (within 1e-9 relative)"
        else:
            cause = f"{direction} by {c.relative_text()} relative (give the peer's RDP per order to locate the cause)"
    if direction == BELOW and not within:
        how, other = _least_certified(curve, delta, peer, dps)
        if how == VALID_OTHER:
            return check(error, relative, VALID_OTHER, f"{other}; below the {name} conversion's: {cause}", within)
        if how == "rounded":  # below the truth by float64 rounding only: the 64 ulp every check allows
            return check(error, relative, BELOW, f"{other}; below the {name} conversion's: {cause}", True)
        if how:
            cause = f"{cause}; {other}"
        method = _not_an_rdp_conversion(told)
        in_rdp = not method and bool(by_order or isinstance(orders, list) or _told_orders(told))
        if how == "below" and not in_rdp:
            # An RDP conversion's ε is an upper bound: below all of them, only an RDP accountant's ε is shown wrong
            # (a PLD or PRV ε, from the command line too, was "UNSAFE": a probe).
            said = (f"the peer's ε comes from its {method}, not from an RDP conversion" if method else
                    "nothing says the peer's ε comes from an RDP conversion (its orders, its RDP per order, or its "
                    "accountant, would)")
            return check(error, relative, NOT_DECIDED,
                         f"below every RDP conversion rdpsym certifies ({other}), but {said}: rdpsym certifies only "
                         "upper bounds on this mechanism's ε, so an ε below them is neither confirmed nor refuted",
                         within)
    if direction == BELOW and not within and (bound := bounded_somewhere(curve, r.per_order)):
        # rdpsym's RDP an upper bound only at some orders: an RDP accountant's ε is shown low only below the ε of
        # certified lower bounds on its RDP (a review: dp_accounting's WOR ε was rightly unsafe)
        low = epsilon_from_lower_bounds(curve, r.per_order, _fraction(delta), conversion, dps) if in_rdp else None
        if low is not None and (d := compare(peer, low)).direction == BELOW and not d.within(ROUNDING_Q):
            return check(error, relative, BELOW, f"{cause}; below {upper_decimal(low, 6)}, what the conversion gives "
                         "from certified lower bounds on the RDP (rdpsym.peers.bounds): its RDP is below the truth "
                         "at its best order", within)
        return check(error, relative, NOT_DECIDED, f"{cause}; but rdpsym's RDP is an upper bound only at some orders "
                     f"({bound}): an ε below its conversions is neither confirmed nor refuted", within)
    return check(error, relative, direction, cause, within)


def _over(orders: object) -> str:
    """The orders an ε is least over, as the report names them (``orders`` as :func:`api.epsilon` takes them)."""
    if orders is None:
        return "rdpsym's default orders"
    if orders == "continuous":
        return "every order"
    if isinstance(orders, str):
        return f"the {orders} grid"
    return "the same orders"


@reads_peer_objects("reading the peer accountant's orders")
def _told_orders(told: object) -> tuple[list, str] | None:
    """The orders a peer's accountant takes its ε over: a dp_accounting ``RdpAccountant``'s (``_orders``, given
    when it was built), an Opacus ``RDPAccountant``'s ``DEFAULT_ALPHAS``; None for anything else.  The certified
    ε is sought over the same ones: judged over rdpsym's default grid, the ε of an accountant built with orders
    [2, 3, 4.5, 8] was "above by 0.05 relative".  An order 1 among them is kept: it is checked as the KL divergence
    where the peer gave RDP values, and left out of the ε as the peer leaves it out (its conversion divides by
    α − 1; dp_accounting's RDP there is NaN, passed over by its minimum, and its ε with orders [1, 1.5, 2, …] is the
    one without 1); the whole check was refused over it (a probe)."""
    name = kind(told)
    if name == "RdpAccountant" and hasattr(told, "compose"):
        field = "_orders"
    elif name == "RDPAccountant" and hasattr(told, "history"):
        field = "DEFAULT_ALPHAS"
    else:
        return None
    orders = read_optional(told, field, name)
    if orders is None:
        return None
    where = f"{name}.{field}"
    return listed(orders, where, "a list of orders", MAX_ORDERS, "orders"), where


def _held_order(order: object) -> object:
    """An order as the peer held it (:func:`held_as_typed`): a float (or NumPy float) at its exact binary value, as
    every other float of a peer's is read, and a decimal typed for it at the float nearest to it; fractions and
    exact numbers as they are.  Read as its shortest decimal, the float 18.4 was the order 92/5, and where the
    sampled Gaussian's RDP is steep in α that half-ulp moved it by 89 ulp: a peer's correctly rounded value judged
    unsafe, one 70 ulp below the truth judged conservative (a probe).

    >>> held = _held_order(18.4)
    >>> (int(held.p), int(held.q)) == (18.4).as_integer_ratio(), _held_order("18.4") == held, _held_order(2)
    (True, True, 2)
    """
    value = held_as_typed(order)
    return fmpq(value.numerator, value.denominator) if isinstance(value, Fraction) else value


def _is_one(order: object) -> bool:
    """Whether an accountant's order is the number 1 (anything unreadable is left for the order reader to name)."""
    if isinstance(order, bool):  # (True is no order: the order reader refuses it, as every reader refuses a bool)
        return False
    try:
        return float(order) == 1.0
    except (TypeError, ValueError, OverflowError):
        return False


def _not_an_rdp_conversion(told: object) -> str:
    """What a peer accountant whose ε is no RDP conversion computes it with (Opacus's PRV and GDP accountants,
    dp_accounting's PLD accountant), or ''.  An ε of Opacus's PRVAccountant (prv_accountant's upper bound, 3.237
    for a composition whose exact ε is 3.2268) was "UNSAFE" for being below rdpsym's RDP conversion (3.842; a
    probe), and so was dp_accounting's PLD ε."""
    if not type(told).__module__.startswith(("opacus", "dp_accounting")):
        return ""
    return {"PRVAccountant": "PRV accountant (privacy random variables)",
            "GaussianAccountant": "GDP accountant (a central-limit approximation)",
            "PLDAccountant": "PLD accountant (privacy loss distributions)"}.get(type(told).__name__, "")


#: The most terms (distinct mechanisms) a curve may have for a peer's ε to be judged against the least ε over every
#: order; past it, against the default orders' least (said in the report).
MAX_TERMS_SEARCHED = 32


def _least_certified(curve: RdpCurve, delta: fmpq, peer: float, dps: int) -> tuple[str, str]:
    """Where a peer's ε below the named conversion's stands against the least ε rdpsym certifies for the same
    curve at δ (every conversion at its default orders and over every order, :func:`_at_every_order`, and the exact
    privacy profile where one is known):
    (VALID_OTHER, why) at or above it, ("rounded", why) below it within float64 rounding (64 ulp), ("below",
    by how much) further below (``"below the truth"`` where the least ε is an exact profile's); ("", "") where
    there is no finite least ε.  autodp's analytic-Gaussian ε
    (σ = 2, δ = 10⁻⁵: 1.9930914044151204, above the exact 1.99309140441511963…) was "unsafe" for being below
    Balle et al.'s conversion (2.1657…), and the exact ε rounded to the nearest float (3·10⁻¹⁷ below it) was
    "below by 0.08 relative", the named conversion's gap (probes)."""
    best = api.epsilon(curve, delta=_fraction(delta), dps=dps)
    # Over every order only where the grid's least ε is above the peer's (else the peer is above both), and for a
    # curve of few terms: the search costs about 0.13 s a term (300 distinct steps of an Opacus history, 40 s; a probe)
    terms = len(curve.merged_terms)
    searched = terms <= MAX_TERMS_SEARCHED and not (isinstance(best.enclosure, arb) and peer >= best.enclosure)
    anywhere = _at_every_order(curve, delta, dps) if searched else None
    with precision(bits_for(dps + 10)):
        if anywhere is not None and (not isinstance(best.enclosure, arb)
                                     or anywhere.enclosure.upper() < best.enclosure.upper()):
            best = anywhere
    if not isinstance(best.enclosure, arb):
        return "", ""
    c = compare(peer, best.enclosure)
    at = "" if best.order is None else f" at α = {_shown_order(best.order)}"
    unsought = "" if terms <= MAX_TERMS_SEARCHED else \
        f"; not sought over every order, for a curve of {terms} terms (at most {MAX_TERMS_SEARCHED})"
    least = (f"the least ε rdpsym certifies at δ = {_shown_fraction(delta)}, {best.published(17)} "
             f"({best.conversion}{at}{unsought})")
    if c.direction != BELOW:
        return VALID_OTHER, f"another valid conversion: at least {least}"
    if c.within(ROUNDING_Q):
        return "rounded", f"float64 rounding (within 64 ulp) of {least}"
    exact = best.conversion in (profiles.BALLE_WANG, profiles.EXACT_PROFILE)  # the truth, not an upper bound
    return "below the truth" if exact else "below", f"{c.relative_text()} relative below {least}"


def _at_every_order(curve: RdpCurve, delta: fmpq, dps: int) -> api.AccountingResult | None:
    """The least ε rdpsym certifies over every order (``orders="continuous"``), or None where that search cannot run
    on this curve.  A grid is not every order: autodp's zCDP ε (ρ = 0.1, δ = 10⁻⁵: 1.914238832003598, Balle et
    al.'s conversion at its best real order 10.568…) was "unsafe" for being below the least ε of the default grid
    (1.91424591…, at α = 53/5; a probe)."""
    try:
        found = api.epsilon(curve, delta=_fraction(delta), orders="continuous", dps=dps)
    except RdpSymError:
        return None
    return found if isinstance(found.enclosure, arb) else None


def _kl_branch(curve: RdpCurve, delta: fmpq, r: api.AccountingResult, dps: int) -> str:
    """Why ε = 0 at δ is valid, when δ ≥ √(1 − e^{−D_α}) at some order (the smallest D_α decides), else ''.
    Decided in balls: the smallest D_α by the balls' exact upper ends, and the bound's upper end ≤ δ."""
    finite = [(o.order, o.rdp) for o in r.per_order if isinstance(o.rdp, arb) and o.rdp.is_finite()]
    if not finite:
        return ""
    with precision(max(256, bits_for(dps + 10))):
        order, smallest = finite[0]
        for o, d in finite[1:]:
            if d.upper() < smallest.upper():  # exact ends: a certain comparison
                order, smallest = o, d
        bound = kl_delta(smallest)
        if not bound.upper() <= arb(delta):
            return ""
        return (f"another valid conversion: δ = {_shown_fraction(delta)} ≥ √(1 − e^(−D_α)) = "
                f"{upper_decimal(bound, 6)} with D_α ≤ {upper_decimal(smallest, 6)} at α = {_shown_order(order)}, "
                "so (0, δ)-DP (KL ≤ D_α and Bretagnolle–Huber: dp_accounting's TV/KL branch, TensorFlow Privacy "
                f"issue #166); the {r.conversion} conversion gives ε = {r.published(6)}")


# ---------------------------------------------------------------- the public function
def verify(told: object, *, orders: object = None, rdp: Sequence | None = None, delta: object = None,
           epsilon: object = None, steps: object = 1, peer: str = "peer", conversion: str = "bbghs",
           dps: int = 30) -> Verification:
    """Check a peer's answers against certified values of the same question.

    ``told``: what the peer was told (see :func:`as_curve`), ``steps`` times.
    ``rdp``: the peer's RDP at ``orders`` (a list of the same length; its
    floats as they are).  ``epsilon`` at ``delta``: the peer's ε, checked
    against the certified ε over ``orders`` (the peer's grid; ``None`` is a
    dp_accounting ``RdpAccountant``'s own orders when ``told`` is one, else
    rdpsym's default; ``"continuous"`` every order) with ``conversion``
    (``"bbghs"``, as dp_accounting and Opacus, or ``"mironov"``).  ``peer``
    names the peer (``"dp-accounting"``, ``"opacus"``, ``"autodp"``,
    ``"prv-accountant"`` let the report name causes known for that peer).

    Every input is checked before any value is computed.
    """
    dps = read_dps(dps)
    api.conversion_name(conversion)
    if not isinstance(peer, str):
        raise ParameterError(must("peer", "a name", shown(peer)))
    if rdp is None and epsilon is None:
        raise ParameterError(must("the peer's answer", "rdp= (per order) and/or epsilon= (at delta=)", "neither"))
    grid: list = []
    values: list = []
    # an order 1 is the KL divergence where the peer gave RDP there or its accountant holds it (the ε passes over
    # it below); in orders= given for an ε alone it is refused by the ε's reading of its orders, as any outside (1, ∞]
    keep_one = rdp is not None or orders is None
    source = "orders"
    if orders is None:
        orders, source = _told_orders(told) or (None, source)
    if orders is not None and not isinstance(orders, str):
        # (never read to the end)
        items = listed(orders, source, "a list of orders, a grid name, or 'continuous'", MAX_ORDERS, "orders")
        try:
            # (each read as typed first: a refusal names the order as the peer wrote it, 0.5 and not 1/2)
            grid = [_ONE if keep_one and _is_one(o) else parse_order(o) and parse_order(_held_order(o)) for o in items]
        except ParameterError as exc:
            if source == "orders":
                raise
            raise ParameterError(f"{source}, the orders the peer's accountant holds: {exc}") from None
        if not grid:
            raise ParameterError(must("orders", "a non-empty list", "an empty one"))
        repeated = sorted(o for o, n in collections.Counter(map(str, grid)).items() if n > 1)  # (exact: p/q, oo)
        if repeated and source == "orders":  # (orders 2,2 with two RDP values was taken: which is the peer's? a probe)
            raise ParameterError(must("orders", "a list without duplicates", f"duplicates {', '.join(repeated)}"))
    if rdp is not None:
        if not grid:
            raise ParameterError(must("orders", "the list of orders the peer's rdp values are at", shown(orders)))
        values = [peer_float(v, f"rdp[{i}]")
                  for i, v in enumerate(listed(rdp, "rdp", "a list of the peer's RDP values", len(grid)))]
        if len(values) != len(grid):
            raise ParameterError(must("rdp", f"one value per order ({len(grid)})", f"{len(values)} values"))
    d = None
    if epsilon is not None:
        if delta is None:
            raise ParameterError(must("delta", "given with epsilon (the δ the peer's ε is at)", "none"))
        open_probability(delta, "delta")  # (read as given first: a refusal names δ as the peer wrote it)
        d = open_probability(held_as_typed(delta), "delta")  # the δ the peer held: its float, if typed
        peer_eps = peer_float(epsilon, "epsilon")
    curve = as_curve(told, steps)
    checks: tuple = ()
    notes: list[str] = []
    if values:
        certified = _certified_at(curve, grid, dps, notes, values)
        with precision(bits_for(dps + 10)):
            certified = [c if c is None or isinstance(c, Infinite) else Enclosure(c, dps) for c in certified]
            # (an order with no certified value is still checked where the peer's value is no bound at any value, a
            # NaN or one below 0: dp_accounting's NaN at order 1 of a sampled Gaussian was only a note; a probe)
            checks = tuple(_order_check(peer, curve, o, v, c)
                           for o, v, c in zip(grid, values, certified) if c is not None or not v >= 0)
    eps_check = None
    if d is not None:
        # over the orders above 1 (a conversion divides by α − 1), each once: dp_accounting takes [2, 2, 3] as it is
        above = list(dict.fromkeys(_fraction(o) if o != math.inf else math.inf for o in grid if o != _ONE))
        if grid and not above:
            raise ParameterError(must("orders", "some order above 1 for the ε check (α = 1 converts to no ε)",
                                      "only 1"))
        eps_orders = above if grid else orders
        by_order = {_key(c.order): c for c in checks}
        eps_check = _epsilon_check(peer, curve, peer_eps, d, eps_orders, conversion, dps, by_order, told)
    return Verification(peer, curve.label, dps, checks, eps_check, tuple(notes))


#: The order 1 among a peer's orders: its RDP there is the KL divergence (Mironov 2017, Definition 3's α → 1).
_ONE = fmpq(1)


def _certified_at(curve: RdpCurve, grid: list, dps: int, notes: list, values: list) -> list:
    """The certified values at the peer's orders, the order 1 by the curve's KL; None (said in ``notes``, with the
    peer's value there) where the curve has no certified KL (a subsampled mechanism's: derive it from the laws)."""
    others = [o for o in grid if o != _ONE]
    found = iter(curve.enclosures(others, dps) if others else ())
    kl = None
    if len(others) < len(grid):
        try:
            kl = curve.kl_enclosure(dps)
        except RdpSymError as exc:
            told = ", ".join(str(v) for o, v in zip(grid, values) if o == _ONE)
            notes.append(f"order 1 (the KL divergence; the peer gave {told}) not checked: {exc}")
    return [kl if o == _ONE else next(found) for o in grid]


def _key(order: object) -> object:
    return "inf" if order == math.inf else (int(fmpq(order).p), int(fmpq(order).q))


def _fraction(q: fmpq) -> Fraction:
    return Fraction(int(q.p), int(q.q))


def _shown_order(order: object) -> str:
    return "∞" if order == math.inf else str(order)


def _shown_fraction(q: fmpq) -> str:
    """A δ as the peer wrote it: the float it holds (1e-05, not 5902958103587057/590295810358705651712), else exact."""
    held = held_float(_fraction(q))
    return str(q) if held is None else repr(held)


__all__ = ["ABOVE", "ACCUMULATED", "ACCUMULATED_Q", "BELOW", "EXACT", "INVALID", "NOT_DECIDED", "ROUNDING",
           "ROUNDING_Q", "SERIES_CUTOFF", "VALID_OTHER", "Comparison", "EpsilonCheck", "OrderCheck", "Verification",
           "as_curve", "compare", "exact_float", "verify"]
