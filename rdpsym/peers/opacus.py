"""Opacus in and out: :func:`from_opacus` reads an accountant's history; :class:`OpacusAccountant` is one.

Opacus (1.x) accounts DP-SGD with an *accountant*: ``step(noise_multiplier=,
sample_rate=)`` after every optimiser step, ``get_epsilon(delta)`` when asked,
and a ``history`` of ``(noise_multiplier, sample_rate, steps)`` tuples (its
``IAccountant`` protocol; ``state_dict()`` / ``load_state_dict()`` save and
restore it).  Every step is one Poisson-subsampled Gaussian.

* :func:`from_opacus` reads a history (or any accountant that keeps one:
  ``RDPAccountant``, ``PRVAccountant``, ``GaussianAccountant``) into an RDP
  curve: Σ steps × sampled_gaussian(q, σ) (Mironov–Talwar–Zhang 2019).
* :class:`OpacusAccountant` speaks the same protocol, but its ε is rdpsym's
  certified value, rounded up to the next float64.  It does not import Opacus;
  :func:`register_with_opacus` adds it to Opacus's accountant registry under
  the mechanism name ``"rdpsym"``, so ``PrivacyEngine(accountant="rdpsym")``
  builds one, and makes it a virtual subclass of Opacus's ``IAccountant``.
* :class:`OpacusLikeAccountant`, registered as ``"rdpsym-bbghs"``, accounts as
  Opacus's ``"rdp"`` accountant does (Opacus's orders, Balle et al. 2020's
  conversion), certified: swapping ``"rdp"`` for it keeps Opacus's number (up to
  its float rounding, never below the certified value).  Opacus builds a
  registered accountant without arguments, so the choice is in the name.

>>> acc = OpacusAccountant(dps=20)
>>> for _ in range(100):
...     acc.step(noise_multiplier=1.1, sample_rate=0.01)
>>> acc.history, len(acc)
([(1.1, 0.01, 100)], 1)
>>> acc.get_epsilon(delta=1e-5)                 # the best certified conversion (here: the optimal one)
0.907481077533194
>>> OpacusAccountant(conversion="bbghs").history == []  # Opacus's own conversion, when comparing with it
True
"""

from __future__ import annotations

import itertools
import math
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from copy import deepcopy
from fractions import Fraction

import sympy as sp
from flint import arb

from rdpsym.accounting import api
from rdpsym.accounting.curve import RdpCurve
from rdpsym.accounting.orders import resolve
from rdpsym.foundations.balls import bits_for, precision, upper_decimal
from rdpsym.foundations.errors import ParameterError, RdpSymError, WrongType, must
from rdpsym.foundations.reading import dps as read_dps
from rdpsym.foundations.reading import integer, open_probability, probability_parameter
from rdpsym.laws.mechanisms import sampled_gaussian
from rdpsym.peers._reading import (
    held,
    kind,
    noise_scale,
    numpy_kind,
    public,
    read_optional,
    reads_peer_objects,
    shown,
)

#: The name under which :func:`register_with_opacus` registers :class:`OpacusAccountant`.
MECHANISM = "rdpsym"
#: The name under which it registers :class:`OpacusLikeAccountant` (Opacus's orders and conversion).
MECHANISM_LIKE_OPACUS = "rdpsym-bbghs"


#: Ceilings on a history (README, "Ceilings"): its entries (each is read; a million take seconds) and its
#: distinct (noise_multiplier, sample_rate) pairs (each is one sampled-Gaussian term of the curve; repeats of a
#: pair anywhere in the history are counted together, as composition allows).
MAX_HISTORY_ENTRIES = 1_000_000
MAX_DISTINCT_STEPS = 10_000


def _history(obj: object) -> list:
    """The ``(noise_multiplier, sample_rate, steps)`` entries of a history or of an accountant keeping one."""
    history = read_optional(obj, "history", kind(obj), obj)
    if isinstance(history, (str, bytes)) or not isinstance(history, Sequence):
        raise ParameterError(must("the Opacus history", "a list of (noise_multiplier, sample_rate, steps) tuples, "
                                  "or an accountant with a history", kind(obj)))
    if len(history) > MAX_HISTORY_ENTRIES:
        raise ParameterError(must("the Opacus history", f"at most {MAX_HISTORY_ENTRIES} entries", len(history)))
    entries = []
    for i, entry in enumerate(history):
        # (its items as they iterate, at most four: an entry whose __len__ says 3 may hold 2, or never end)
        items = (None if isinstance(entry, (str, bytes)) or not isinstance(entry, Sequence)
                 else tuple(itertools.islice(entry, 4)))
        if items is None or len(items) != 3:
            raise ParameterError(must(f"history[{i}]", "a (noise_multiplier, sample_rate, steps) tuple",
                                      shown(entry)))
        entries.append(items)
    return entries


@reads_peer_objects("reading the Opacus history")
def from_opacus(accountant_or_history: object) -> RdpCurve:
    """The RDP curve of what an Opacus accountant was told: Σ steps × sampled_gaussian(q, σ).

    ``accountant_or_history``: an Opacus accountant (any with a ``history``),
    or its history itself.  σ = 0 is non-private (∞ at every order); q = 0
    costs nothing.  The sample rate and the noise multiplier are read as the binary values they hold, which Opacus
    computes with (:func:`~rdpsym.peers._reading.held`).
    """
    totals: dict = {}  # (σ, q) read exactly → total steps: 4·10⁴ alternating entries are two terms
    read: dict = {}  # an entry's numbers as given → as read: a million entries of two pairs are read twice
    for i, (sigma, q, steps) in enumerate(_history(accountant_or_history)):
        given = (type(sigma), sigma, type(q), q, type(steps), steps) if all(map(_plain, (sigma, q, steps))) else None
        exact = read.get(given) if given is not None else None
        if exact is None:
            exact = _entry(i, sigma, q, steps)
            if given is not None:
                read[given] = exact
        s, rate, k = exact
        if k == 0 or rate == 0 or s == sp.oo:  # (no step, an empty sample, or infinite noise: nothing released)
            continue
        if (s, rate) not in totals and len(totals) >= MAX_DISTINCT_STEPS:
            raise ParameterError(must("the Opacus history", f"at most {MAX_DISTINCT_STEPS} distinct "
                                      "(noise_multiplier, sample_rate) pairs", f"more (at history[{i}])"))
        totals[s, rate] = totals.get((s, rate), 0) + k
    curves = []
    for (s, rate), k in totals.items():
        c = public("non_private")().curve() if s == 0 else sampled_gaussian(q=rate, sigma=s).curve()
        curves.append(c if k == 1 else c * k)
    return sum(curves) if curves else RdpCurve((), label="no steps")


def _entry(i: int, sigma: object, q: object, steps: object) -> tuple:
    """History entry ``i`` read: (σ, q) as the binary values they hold, the steps an integer ≥ 0; else an error naming
    the entry's field."""
    for value, field in ((sigma, "noise_multiplier"), (q, "sample_rate"), (steps, "steps")):
        _not_text(value, f"history[{i}] {field}")
    return (noise_scale(sigma, f"history[{i}] noise_multiplier"),
            probability_parameter(held(q), f"history[{i}] sample_rate", closed=True),
            integer(steps, f"history[{i}] steps", minimum=0))


def _not_text(value: object, name: str) -> None:
    """Refuse text where Opacus keeps a number: kept in a history, it would reach Opacus's own state (a probe)."""
    if isinstance(value, (str, bytes)):
        raise WrongType(must(name, "a number (as Opacus takes it)", shown(value)))


def _plain(value: object) -> bool:
    """Whether ``value`` is a number whose reading may be kept by value: Python's int and float (NaN aside: it equals
    nothing, and is refused anyway) and NumPy's numeric scalars; any other object, a 0-d array among them (it cannot
    be a key: a review), is read each time."""
    if type(value) in (int, float):
        return value == value
    if numpy_kind(value) not in ("f", "i", "u"):
        return False
    try:
        hash(value)
    except TypeError:
        return False
    return bool(value == value)


def float_up(ball: arb) -> float:
    """The smallest float64 ≥ every point of ``ball`` (a certified ε handed to float code stays an upper bound)."""
    with precision(bits_for(40)):
        decimal = upper_decimal(ball, 20)
    f = float(decimal)
    return f if Fraction(f) >= Fraction(decimal) else math.nextafter(f, math.inf)


class OpacusAccountant:
    """An Opacus accountant (its ``IAccountant`` protocol) whose ε is rdpsym's certified value.

    ``orders``: as for :func:`rdpsym.epsilon` (default: dp_accounting's 156
    orders and ∞; ``"opacus"`` is Opacus's own grid); ``conversion``: as
    for :func:`rdpsym.epsilon` (default ``"best"``, the least certified ε of
    every valid conversion; ``"bbghs"`` is Balle et al. 2020, Thm 21, as Opacus);
    ``dps``: the digits of the certified computation.  ``get_epsilon`` returns
    the certified ε rounded *up* to a float; :meth:`result` the full
    :class:`~rdpsym.accounting.api.AccountingResult`.
    """

    def __init__(self, orders: object = None, conversion: str = api.DEFAULT_CONVERSION, dps: int = 30):
        self.history: list = []
        if orders is not None and not (isinstance(orders, str) and orders == "continuous"):  # (an array: no ==)
            # read now, not at the first get_epsilon (orders [0.5]: a probe); a list is kept as read (a generator is
            # read once: a review), a grid's name as given (explain() names it)
            resolved = resolve(orders, continuous=True)
            orders = orders if isinstance(orders, str) else resolved
        self.orders = orders
        api.conversion_name(conversion)  # checked now, not at the first get_epsilon
        self.conversion = conversion
        self.dps = read_dps(dps)
        self._cache: tuple | None = None

    # ------------------------------------------------------------ the protocol
    def step(self, *, noise_multiplier: float, sample_rate: float) -> None:
        """One optimiser step: repeats of the last (σ, q) are counted in its entry, as Opacus does.  Both are read
        here, as :func:`from_opacus` reads a history (a NaN or a rate of 7 was taken and refused only at
        ``get_epsilon``, as ``history[0]``, after a checkpoint could have saved it; a probe)."""
        _not_text(noise_multiplier, "noise_multiplier")
        _not_text(sample_rate, "sample_rate")
        noise_scale(noise_multiplier, "noise_multiplier")  # (as from_opacus reads it: ∞ is no release)
        probability_parameter(sample_rate, "sample_rate", closed=True)
        # (by the exact values: NumPy 2 compares np.float32(0.01) == 0.01 in float32, True, and merged a float64 step
        # into a float32 entry, so the certified ε was of steps not taken; a probe)
        if self.history and _exactly(self.history[-1][:2]) == _exactly((noise_multiplier, sample_rate)):
            sigma, q, n = self.history.pop()
            self.history.append((sigma, q, n + 1))
        else:
            self.history.append((noise_multiplier, sample_rate, 1))

    def get_epsilon(self, delta: float, alphas: object = None) -> float:
        """ε at ``delta`` spent so far: certified, rounded up to a float (0 before any step); ``alphas``, as in Opacus's
        ``RDPAccountant.get_epsilon``, are the orders searched (default: this accountant's).  It took any arguments
        and dropped them, so ``alphas=[2, 3]`` gave the default orders' ε, not Opacus's (a probe).

        Which conversion and order gave it: :meth:`result` (its ``conversion`` and ``order``), or
        :meth:`explain`.
        """
        return self.get_privacy_spent(delta=delta, alphas=alphas)[0]

    def explain(self, delta: float) -> str:
        """One line: ε at ``delta``, the conversion and the order that gave it, and the orders searched.

        >>> acc = OpacusLikeAccountant(dps=20)
        >>> acc.step(noise_multiplier=1.1, sample_rate=0.01)
        >>> acc.explain(1e-5)
        'epsilon = 0.7751031255879706 at delta = 1e-05: conversion bbghs, order 12, orders opacus (certified, ...)'
        """
        if not self.history:
            open_probability(delta, "delta")
            return f"epsilon = 0 at delta = {delta}: no steps taken"
        r = self.result(delta)
        eps = "inf" if r.enclosure == math.inf else repr(float_up(r.enclosure))
        orders = self.orders if isinstance(self.orders, str) else ("default" if self.orders is None else "given")
        order = _shown_order(r.order)
        return (f"epsilon = {eps} at delta = {delta}: conversion {r.conversion}, order {order}, orders {orders} "
                "(certified, rounded up)")

    def get_privacy_spent(self, *, delta: float, alphas: object = None) -> tuple[float, float | None]:
        """(ε, the order that gives it), as Opacus's ``RDPAccountant.get_privacy_spent``; ``alphas`` are orders.
        The order is None where none gives ε: ε = ∞ at every order, or ε from an exact (ε, δ) profile, which is no
        RDP conversion (one sampled Gaussian at sample rate 1 is a Gaussian mechanism: Balle–Wang 2018).  It was
        NaN for the first and a ``TypeError`` for the second (a probe)."""
        if alphas is not None and not (isinstance(alphas, str) and alphas == "continuous"):
            # (was (0.0, 0.0) at alphas=[0.5, 2] before a step: a probe; read once: a generator was used up by this
            # check, and the ε then said "an empty list", a review)
            alphas = resolve(alphas, "alphas", continuous=True)
        if not self.history:
            open_probability(delta, "delta")
            return 0.0, 0.0
        r = self.result(delta, orders=alphas if alphas is not None else self.orders)
        if r.enclosure == math.inf or r.order is None:
            return (math.inf if r.enclosure == math.inf else float_up(r.enclosure)), None
        return float_up(r.enclosure), float(r.order) if r.order != math.inf else math.inf

    def __len__(self) -> int:
        return len(self.history)

    @classmethod
    def mechanism(cls) -> str:
        return MECHANISM

    def get_optimizer_hook_fn(self, sample_rate: float) -> Callable:
        """The callback Opacus attaches to its ``DPOptimizer``: one step per (accumulated) optimiser step."""

        def hook_fn(optim) -> None:
            self.step(noise_multiplier=optim.noise_multiplier,
                      sample_rate=sample_rate * optim.accumulated_iterations)

        return hook_fn

    def state_dict(self, destination: dict | None = None) -> dict:
        destination = OrderedDict() if destination is None else destination
        destination["history"] = deepcopy(self.history)
        destination["mechanism"] = self.mechanism()
        return destination

    def load_state_dict(self, state_dict: dict) -> None:
        # ParameterError is a ValueError too: what Opacus's own accountants raise here
        if not isinstance(state_dict, Mapping) or "history" not in state_dict or "mechanism" not in state_dict:
            raise ParameterError(must("state_dict", "a mapping with the keys 'history' and 'mechanism' "
                                      "(OpacusAccountant.state_dict())", shown(state_dict)))
        if state_dict["mechanism"] != self.mechanism():
            raise ParameterError(must("state_dict['mechanism']", f"{self.mechanism()!r} (this accountant's)",
                                      shown(state_dict["mechanism"])))
        # every entry read before the state changes (its shape was: a NaN σ or a rate of 7 was loaded, saved again and
        # refused only at get_epsilon, a probe)
        for i, entry in enumerate(_history(state_dict["history"])):
            _entry(i, *entry)
        self.history = list(state_dict["history"])

    # ------------------------------------------------------------ rdpsym's view
    def curve(self) -> RdpCurve:
        """The RDP curve of the steps taken (:func:`from_opacus`)."""
        return from_opacus(self.history)

    def result(self, delta: float, orders: object = None) -> api.AccountingResult:
        """The certified ε at ``delta`` (an :class:`~rdpsym.accounting.api.AccountingResult`), cached per history."""
        orders = self.orders if orders is None else orders
        if orders is not None and not isinstance(orders, str):  # (None and a grid's name are exact as they are)
            # the exact orders: keyed by their repr, two NumPy grids NumPy prints alike (it elides 1 000 entries and
            # more, and prints 8 digits) shared a key, and the ε of one, 2.7 times too low, was the other's (a review)
            orders = resolve(orders, "orders", continuous=True)
        # everything the answer depends on: a conversion or dps set after the first call is not the cached one's
        key = (tuple(map(_exactly, self.history)), _exactly((delta,)), orders, self.conversion, self.dps)
        if self._cache is None or self._cache[0] != key:
            r = api.epsilon(self.curve(), delta=delta, orders=orders, conversion=self.conversion, dps=self.dps)
            self._cache = (key, r)
        return self._cache[1]

    def __repr__(self) -> str:
        return f"OpacusAccountant({len(self.history)} history entries, dps={self.dps})"


def _shown_order(order) -> object:
    """The order a result names, as a short number: 12 rather than 12.0, inf, or "none" (ε = ∞ at every order)."""
    if order is None:
        return "none"
    if order == math.inf:
        return "inf"
    value = float(order)
    return int(value) if value.is_integer() else value


class OpacusLikeAccountant(OpacusAccountant):
    """:class:`OpacusAccountant` on Opacus's own orders with Opacus's conversion (Balle et al. 2020, Thm 21).

    Opacus's ``"rdp"`` accountant and this one give the same ε up to Opacus's float rounding (this one's is
    certified and rounded up); ``OpacusAccountant()`` (``"rdpsym"``) takes rdpsym's defaults instead (more
    orders, ∞, the best certified conversion), which can only be lower.

    >>> acc = OpacusLikeAccountant()
    >>> acc.orders, acc.conversion, acc.mechanism()
    ('opacus', 'bbghs', 'rdpsym-bbghs')
    """

    def __init__(self, dps: int = 30):
        super().__init__(orders="opacus", conversion="bbghs", dps=dps)

    @classmethod
    def mechanism(cls) -> str:
        return MECHANISM_LIKE_OPACUS

    def __repr__(self) -> str:
        return f"OpacusLikeAccountant({len(self.history)} history entries, dps={self.dps})"


def register_with_opacus(force: bool = True) -> type:
    """Register :class:`OpacusAccountant` with Opacus as the accounting mechanism ``"rdpsym"``, and
    :class:`OpacusLikeAccountant` (Opacus's orders and conversion, certified) as ``"rdpsym-bbghs"``.

    Afterwards ``opacus.PrivacyEngine(accountant="rdpsym")`` accounts with rdpsym's defaults,
    ``PrivacyEngine(accountant="rdpsym-bbghs")`` reproduces Opacus's ``"rdp"`` number (certified),
    and ``isinstance(OpacusAccountant(), opacus.accountants.IAccountant)``
    holds (a virtual subclass: rdpsym does not import Opacus to define it).
    Needs Opacus installed (``pip install 'rdpsym[peers]'``).
    """
    try:
        from opacus.accountants import IAccountant
        from opacus.accountants.registry import register_accountant
    except ImportError as exc:
        raise RdpSymError("registering with Opacus needs Opacus installed: pip install 'rdpsym[peers]' "
                          "(or: pip install opacus)") from exc
    IAccountant.register(OpacusAccountant)
    register_accountant(MECHANISM, OpacusAccountant, force=force)
    register_accountant(MECHANISM_LIKE_OPACUS, OpacusLikeAccountant, force=force)
    return OpacusAccountant


def _exactly(values) -> tuple:
    """``values`` as the exact numbers they hold, for comparing (floats of any width as rationals: NumPy's float32
    equals a Python float in float32, where their values differ)."""
    return tuple(held(v) for v in values)


__all__ = ["MECHANISM", "MECHANISM_LIKE_OPACUS", "OpacusAccountant", "OpacusLikeAccountant", "float_up",
           "from_opacus", "register_with_opacus"]
