"""``rdpsym.verify``: what a peer accountant was told, what it answered, and how far that is from the truth.

A peer (dp_accounting, Opacus, autodp, prv_accountant, or your own code) was
told a computation — a dp_accounting event or ledger, an Opacus history, an
autodp mechanism, or an rdpsym mechanism with a number of steps — and
answered with its RDP at some orders and/or its ε at a δ.  :func:`verify`
computes the certified values of the *same question* (the same orders, the
same conversion) and reports, per order and for ε:

* the certified value (an Arb ball) and the peer's error, peer − certified;
* its **direction**: ``exact`` (inside the ball), ``above`` (conservative,
  safe), ``below`` (the peer claims more privacy than holds: **unsafe**), or
  ``invalid`` (NaN, a negative divergence);
* its **cause**: float64 rounding (within 64 ulp), float64 error accumulated
  by a long computation (within 10⁻⁹ relative), a known formula of the peer
  (dp_accounting sums |C(α,k)| in MTZ's fractional-order series; Opacus and
  prv_accountant stop that series once its terms are below e⁻³⁰ in absolute
  terms), ∞ where the value is finite, …;
* for ε, a peer answer of ε = 0 that a **different valid conversion** explains:
  δ ≥ √(1 − e^{−D_α}) at an order the peer used gives (0, δ)-DP
  (Bretagnolle–Huber on KL ≤ D_α; dp_accounting's TV/KL branch, TensorFlow
  Privacy issue #166), which is reported as valid, not as a disagreement.

>>> import rdpsym
>>> v = rdpsym.verify(rdpsym.gaussian(sigma=2), orders=[2, 10], rdp=[0.25, 1.2499999999999998])
>>> [(c.direction, c.cause) for c in v.orders]
[('exact', 'exact'), ('below', 'float64 rounding (within 64 ulp)')]
>>> v.unsafe
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from flint import arb, fmpq

from rdpsym.accounting import api
from rdpsym.accounting.conversions.rdp_dp import kl_delta
from rdpsym.accounting.curve import Infinite, RdpCurve, SampledGaussian, parse_order
from rdpsym.foundations import operations
from rdpsym.foundations.balls import bits_for, precision, upper_decimal
from rdpsym.foundations.errors import ParameterError, must
from rdpsym.foundations.numbers import Enclosure
from rdpsym.foundations.reading import dps as read_dps
from rdpsym.foundations.reading import integer, number, rational
from rdpsym.laws.mechanisms import Guarantee, Mechanism
from rdpsym.peers._reading import kind, shown
from rdpsym.peers.autodp import from_autodp
from rdpsym.peers.events import from_dp_event
from rdpsym.peers.opacus import from_opacus

#: 64 units in the last place of a float64, relative: what a few dozen correctly rounded operations lose.
ROUNDING = 64 * 2.0**-53
#: Relative error a float64 accountant's long computation may accumulate (the audits' tolerance too).
ACCUMULATED = 1e-9
#: e^{−30}: the absolute size below which Opacus and prv_accountant stop MTZ's fractional-order series.
SERIES_CUTOFF = math.exp(-30)

#: Directions of a peer's error.
EXACT, ABOVE, BELOW, INVALID, VALID_OTHER = "exact", "above", "below", "invalid", "valid (another conversion)"


@dataclass(frozen=True)
class OrderCheck:
    """The peer's RDP at one order against the certified value."""

    order: object  # fmpq or math.inf
    peer: float
    certified: object  # Enclosure, or Infinite (with its reason)
    error: float  # peer − certified (midpoint), as a float; nan when undefined
    relative: float  # |error| / |certified|
    direction: str
    cause: str

    @property
    def safe(self) -> bool:
        """Whether the answer claims no more privacy than holds (exact, above, or another valid conversion)."""
        return self.direction in (EXACT, ABOVE, VALID_OTHER)


@dataclass(frozen=True)
class EpsilonCheck:
    """The peer's ε at δ against the certified ε of the same question (same orders and conversion)."""

    delta: object  # fmpq
    peer: float
    certified: object  # Enclosure, or math.inf
    order: object  # the certified best order
    conversion: str
    error: float
    relative: float
    direction: str
    cause: str

    @property
    def safe(self) -> bool:
        """Whether the answer claims no more privacy than holds (exact, above, or another valid conversion)."""
        return self.direction in (EXACT, ABOVE, VALID_OTHER)


@dataclass(frozen=True)
class Verification:
    """A peer's answers checked against certified values: per order, and ε at δ.

    A record: its ``str()`` is the text report and ``as_dict()`` the JSON one
    (:mod:`rdpsym.render.peers`).
    """

    peer: str
    told: str
    dps: int
    orders: tuple = ()
    epsilon: EpsilonCheck | None = None
    notes: tuple = field(default_factory=tuple)

    @property
    def checks(self) -> tuple:
        return self.orders + ((self.epsilon,) if self.epsilon is not None else ())

    @property
    def unsafe(self) -> bool:
        """Whether any answer claims more privacy than holds (below the certified value, or invalid), by
        however little."""
        return any(c.direction in (BELOW, INVALID) for c in self.checks)

    @property
    def verdict(self) -> str:
        """``unsafe`` (an answer below by more than float64 rounding, or invalid), ``below by float64 rounding
        only``, ``conservative`` (some answer above by more than rounding), or ``agrees``."""
        if any(c.direction == INVALID or (c.direction == BELOW and c.relative > ROUNDING) for c in self.checks):
            return "unsafe"
        if self.unsafe:
            return "below by float64 rounding only"
        if any(c.direction == ABOVE and c.relative > ROUNDING for c in self.checks):
            return "conservative"
        return "agrees"

    def __str__(self) -> str:
        return operations.text(self)

    def as_dict(self) -> dict:
        return operations.json(self)


# ---------------------------------------------------------------- what the peer was told
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
    """A peer's answer as the float it is: floats and NumPy floats as they are, text by the one reader."""
    if isinstance(value, float) or type(value).__name__ in ("float64", "float32", "longdouble", "float128"):
        return float(value)
    if isinstance(value, str):
        text = value.strip().lower()
        if text in ("nan", "+nan", "-nan"):
            return math.nan
        if text in ("-inf", "-infinity"):
            return -math.inf
    v = number(value, name)
    return math.inf if v.is_infinite and v > 0 else -math.inf if v.is_infinite else float(v)


# ---------------------------------------------------------------- one order
def _direction(peer: float, ball: arb) -> str:
    if ball.lower() <= peer <= ball.upper():
        return EXACT
    return BELOW if peer < ball.lower() else ABOVE


def _order_check(peer_name: str, curve: RdpCurve, order: object, peer: float, certified: object) -> OrderCheck:
    if math.isnan(peer):
        return OrderCheck(order, peer, certified, math.nan, math.inf, INVALID, "NaN")
    if isinstance(certified, Infinite):
        if peer == math.inf:
            return OrderCheck(order, peer, certified, 0.0, 0.0, EXACT, "exact (∞)")
        return OrderCheck(order, peer, certified, -math.inf, math.inf, BELOW,
                          f"finite where the value is ∞ ({certified.reason})")
    truth = float(certified.mid())
    if peer == math.inf:
        return OrderCheck(order, peer, certified, math.inf, math.inf, ABOVE,
                          "∞ where the value is finite (the peer gave up at this order)")
    if peer < 0:
        return OrderCheck(order, peer, certified, peer - truth, math.inf, INVALID, "negative RDP")
    with precision(200):
        exact = arb(fmpq(*float(peer).as_integer_ratio()))
        direction = _direction(exact, certified)
        error = float((exact - certified).mid())
    relative = abs(error) / abs(truth) if truth else (0.0 if error == 0 else math.inf)
    if direction == EXACT:
        return OrderCheck(order, peer, certified, error, relative, EXACT, "exact")
    return OrderCheck(order, peer, certified, error, relative, direction,
                      _cause(peer_name, curve, order, error, relative, direction))


def _sampled_gaussian_weight(curve: RdpCurve) -> int | None:
    """The count k when the curve is k × one subsampled Gaussian (the case known peer formulas are about)."""
    if len(curve.terms) == 1 and isinstance(curve.terms[0][1], SampledGaussian):
        return int(curve.terms[0][0])
    return None


def _cause(peer: str, curve: RdpCurve, order: object, error: float, relative: float, direction: str) -> str:
    """Why a peer's RDP differs: rounding, accumulated error, or a formula known to give this error."""
    if relative <= ROUNDING:
        return "float64 rounding (within 64 ulp)"
    fractional = order != math.inf and not fmpq(order).q == 1
    k = _sampled_gaussian_weight(curve)
    if fractional and k and peer in ("dp-accounting", "dp_accounting") and direction == ABOVE:
        return ("|C(α,k)| summed in MTZ's fractional-order series (Mironov–Talwar–Zhang 2019, Sec. 3.3, with absolute "
                "binomial coefficients): a valid, looser upper bound")
    if fractional and k and peer in ("autodp",) and direction == ABOVE:
        return ("fractional order bounded from the neighbouring integer orders (autodp's interpolation): a valid, "
                "looser upper bound")
    if fractional and k and peer in ("opacus", "prv-accountant", "prv_accountant") and direction == BELOW:
        # The implied absolute error in A_α = exp((α − 1)·ε/k) ≈ 1: within a few terms of e^{−30}.
        implied = abs(error) / k * (float(fmpq(order)) - 1)
        if implied <= 64 * SERIES_CUTOFF:
            return (f"MTZ's fractional-order series stopped once its terms fall below e^-30 ≈ 9.4e-14 in absolute "
                    f"size (an absolute error of {implied:.2g} in A_α, large relative to A_α − 1)")
    if relative <= ACCUMULATED:
        return "float64 error accumulated over the computation (within 1e-9 relative)"
    side = "above" if direction == ABOVE else "below"
    return f"{side} by {relative:.2g} relative: a different formula or lost digits"


# ---------------------------------------------------------------- ε at δ
def _epsilon_check(peer_name: str, curve: RdpCurve, peer: float, delta: fmpq, orders: object, conversion: str,
                   dps: int, by_order: dict) -> EpsilonCheck:
    r = api.epsilon(curve, delta=_fraction(delta), orders=orders, conversion=conversion, dps=dps)
    name = r.conversion
    certified = r.enclosure
    if math.isnan(peer):
        return EpsilonCheck(delta, peer, certified, r.order, name, math.nan, math.inf, INVALID, "NaN")
    if peer < 0:
        return EpsilonCheck(delta, peer, certified, r.order, name, math.nan, math.inf, INVALID,
                            "negative ε (the conversion's bound below 0 was not clamped: (0, δ)-DP is what it shows)")
    if certified == math.inf:
        if peer == math.inf:
            return EpsilonCheck(delta, peer, certified, r.order, name, 0.0, 0.0, EXACT, "exact (∞)")
        return EpsilonCheck(delta, peer, certified, r.order, name, -math.inf, math.inf, BELOW,
                            "finite where every order gives ∞")
    with precision(bits_for(dps + 10)):
        truth = float(certified.mid())
        if peer == math.inf:
            return EpsilonCheck(delta, peer, certified, r.order, name, math.inf, math.inf, ABOVE,
                                "∞ where the value is finite")
        exact = arb(fmpq(*float(peer).as_integer_ratio()))
        direction = _direction(exact, certified)
        error = float((exact - certified).mid())
        relative = abs(error) / abs(truth) if truth else (0.0 if error == 0 else math.inf)
        if direction == EXACT:
            return EpsilonCheck(delta, peer, certified, r.order, name, error, relative, EXACT, "exact")
        if direction == BELOW and peer == 0:
            other = _kl_branch(curve, delta, r, dps)
            if other:
                return EpsilonCheck(delta, peer, certified, r.order, name, error, relative, VALID_OTHER, other)
        cause = "float64 rounding (within 64 ulp)" if relative <= ROUNDING else ""
        if not cause:
            at = by_order.get(_key(r.order))
            if at is not None and at.direction != EXACT:
                cause = (f"its RDP at the best order α = {_shown_order(r.order)} is {at.relative:.2g} relative "
                         f"{at.direction} the certified value: {at.cause}")
            elif relative <= ACCUMULATED:
                cause = "float64 error accumulated over the computation (within 1e-9 relative)"
            else:
                cause = (f"{direction} by {relative:.2g} relative (give the peer's RDP per order to locate the "
                         "cause)")
        return EpsilonCheck(delta, peer, certified, r.order, name, error, relative, direction, cause)


def _kl_branch(curve: RdpCurve, delta: fmpq, r: api.AccountingResult, dps: int) -> str:
    """Why ε = 0 at δ is valid, when δ ≥ √(1 − e^{−D_α}) at some order (the smallest D_α decides), else ''."""
    finite = [(o.order, o.rdp) for o in r.per_order if isinstance(o.rdp, arb)]
    if not finite:
        return ""
    order, smallest = min(finite, key=lambda pair: float(pair[1].upper()))
    bound = kl_delta(smallest)
    if not bound.upper() <= arb(delta):
        return ""
    return (f"another valid conversion: δ = {_shown_fraction(delta)} ≥ √(1 − e^(−D_α)) = "
            f"{upper_decimal(bound, 6)} with D_α ≤ {upper_decimal(smallest, 6)} at α = {_shown_order(order)}, so "
            "(0, δ)-DP (KL ≤ D_α and Bretagnolle–Huber: dp_accounting's TV/KL branch, TensorFlow Privacy issue "
            f"#166); the {r.conversion} conversion gives ε = {r.published(6)}")


# ---------------------------------------------------------------- the public function
def verify(told: object, *, orders: object = None, rdp: Sequence | None = None, delta: object = None,
           epsilon: object = None, steps: object = 1, peer: str = "peer", conversion: str = "bbghs",
           dps: int = 30) -> Verification:
    """Check a peer's answers against certified values of the same question.

    ``told``: what the peer was told (see :func:`as_curve`), ``steps`` times.
    ``rdp``: the peer's RDP at ``orders`` (a list of the same length; its
    floats as they are).  ``epsilon`` at ``delta``: the peer's ε, checked
    against the certified ε over ``orders`` (the peer's grid; ``None`` is
    rdpsym's default, ``"continuous"`` every order) with ``conversion``
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
    if orders is not None and not isinstance(orders, str):
        if not hasattr(orders, "__iter__"):
            raise ParameterError(must("orders", "a list of orders, a grid name, or 'continuous'", shown(orders)))
        grid = [parse_order(o) for o in orders]
        if not grid:
            raise ParameterError(must("orders", "a non-empty list", "an empty one"))
    if rdp is not None:
        if not grid:
            raise ParameterError(must("orders", "the list of orders the peer's rdp values are at", shown(orders)))
        if isinstance(rdp, (str, bytes)) or not hasattr(rdp, "__iter__"):
            raise ParameterError(must("rdp", "a list of the peer's RDP values", shown(rdp)))
        values = [peer_float(v, f"rdp[{i}]") for i, v in enumerate(rdp)]
        if len(values) != len(grid):
            raise ParameterError(must("rdp", f"one value per order ({len(grid)})", f"{len(values)} values"))
    d = None
    if epsilon is not None:
        if delta is None:
            raise ParameterError(must("delta", "given with epsilon (the δ the peer's ε is at)", "none"))
        d = rational(delta, "delta")
        if not 0 < d < 1:
            raise ParameterError(must("delta", "in the open interval (0, 1)", shown(delta)))
        peer_eps = peer_float(epsilon, "epsilon")
    curve = as_curve(told, steps)
    checks: tuple = ()
    if values:
        certified = curve.enclosures(grid, dps)
        with precision(bits_for(dps + 10)):
            certified = [c if isinstance(c, Infinite) else Enclosure(c, dps) for c in certified]
            checks = tuple(_order_check(peer, curve, o, v, c) for o, v, c in zip(grid, values, certified))
    eps_check = None
    if d is not None:
        eps_orders = [_fraction(o) if o != math.inf else math.inf for o in grid] if grid else orders
        by_order = {_key(c.order): c for c in checks}
        eps_check = _epsilon_check(peer, curve, peer_eps, d, eps_orders, conversion, dps, by_order)
    return Verification(peer, curve.label, dps, checks, eps_check)


def _key(order: object) -> object:
    return "inf" if order == math.inf else (int(fmpq(order).p), int(fmpq(order).q))


def _fraction(q: fmpq) -> Fraction:
    return Fraction(int(q.p), int(q.q))


def _shown_order(order: object) -> str:
    return "∞" if order == math.inf else str(order)


def _shown_fraction(q: fmpq) -> str:
    return str(q)


__all__ = ["ABOVE", "BELOW", "EXACT", "INVALID", "VALID_OTHER", "EpsilonCheck", "OrderCheck", "Verification",
           "as_curve", "verify"]
