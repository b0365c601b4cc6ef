"""RDP curves ε(α): composition, k-fold composition and group privacy, evaluated in balls.

A :class:`RdpCurve` is a nonnegative combination Σ wᵢ·εᵢ(α) of *components*,
each a mechanism's curve: adaptive composition adds curves (Mironov 2017,
Prop 1), k-fold composition multiplies by k, and :meth:`RdpCurve.group` applies
the group-privacy transform of Prop 2.  Every evaluation is an Arb ball that
contains the exact value; :meth:`RdpCurve.value` returns the midpoint once the
radius is below the requested digits, so a value printed to ``dps`` digits is
certified to those digits (a stronger statement than agreement at two
precisions, which it implies).

An order where a curve is infinite (a pure-DP-free Gaussian at α = ∞, group
privacy below its minimum order) evaluates to :class:`Infinite`, which carries
the reason: never NaN, never a silently dropped order.

A component's balls are kept per (component, order, precision) in a bounded
cache (:func:`clear_cache` empties it): a curve that grows by composition
(ε after every epoch) recomputes nothing it has computed before, and equal
components of one curve (the same step composed k times, or added once per
epoch) are evaluated once, their weights summed.  A ball is the same ball
whenever it is computed, so the cache changes no result.

Orders are exact rationals: ``1.1`` means 11/10, not the binary double nearest
to it, so reference values do not depend on floating-point input.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import mpmath
import sympy as sp
from flint import arb, ctx, fmpq

from rdpsym.accounting import sampled_gaussian as sg
from rdpsym.foundations.balls import (
    InfiniteValue,
    Undecided,
    precision,
    to_arb,
    to_fmpq,
)
from rdpsym.foundations.budget import budgeted
from rdpsym.foundations.errors import (
    ConvergenceError,
    NoClosedFormError,
    NotCertifiable,
    ParameterError,
    WrongType,
    must,
    quoted,
)
from rdpsym.foundations.numbers import Digits, decimal_mpf
from rdpsym.foundations.precision import arb_rungs, climb
from rdpsym.foundations.reading import INFINITY_WORDS, exact, integer
from rdpsym.foundations.reading import dps as read_dps
from rdpsym.foundations.symbols import alpha


@dataclass(frozen=True)
class Infinite:
    """ε(α) = ∞ at this order, and why."""

    reason: str

    def __str__(self) -> str:
        return f"inf ({self.reason})"



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


def parse_order(order: object) -> fmpq | float:
    """An order as an exact rational > 1 (or ``math.inf``); decimals are read exactly.

    >>> parse_order("1.1"), parse_order(2), parse_order(1.5)
    (11/10, 2, 3/2)
    """
    if isinstance(order, fmpq) and order > 1:  # already exact (the grids are built of fmpq)
        return order
    if order in (sp.oo, float("inf")) or (isinstance(order, str) and order.strip().lower() in INFINITY_WORDS):
        return float("inf")
    try:
        q = to_fmpq(order, "order")  # the one reader: 1.1 is the decimal the user typed, not the binary double
    except ParameterError:
        raise ParameterError(must("order", "a number > 1 or inf", quoted(order))) from None
    if not q > 1:
        # α = 1 is the KL divergence, an order of the Rényi divergence but not of RDP accounting.
        kl = " (α = 1 is the KL divergence: rdpsym.renyi_divergence(P, Q, 1) computes it)" if q == 1 else ""
        raise ParameterError(must("order", f"a number > 1 or inf{kl}", order))
    return q


class Component:
    """One mechanism's RDP curve, as data: ``balls(orders)`` computes it.

    ``balls(orders)`` returns, at the current Arb precision, a ball or
    :class:`Infinite` per order.  ``closed_form`` is ε(α) as a SymPy
    expression in :data:`rdpsym.alpha` when one is known.  ``certified`` is
    False only for curves evaluated by non-rigorous quadrature; ``convex``
    says (α−1)·ε(α) is known convex (true for the exact Rényi divergence of a
    pair, a cumulant generating function, and for zCDP-type bounds; it lets
    the continuous order search certify its optimum much faster; never
    assumed for a user's closed form).

    The kinds are frozen records that compare by value and pickle:
    :class:`ClosedForm`, :class:`SampledGaussian`, :class:`GroupPrivacy`, and
    :class:`Custom` (a Python function: what ``Component(name, balls, ...)``
    builds, for a curve given as code; it pickles only if the function does).
    """

    # What every kind offers (a field or a property of each; closed_form too).
    name: str
    certified: bool = True
    source: str = ""
    convex: bool = False

    def __new__(cls, *args, **kwargs):
        # Component(name, balls, ...) as before the kinds existed: a curve given by a function.
        return object.__new__(Custom if cls is Component else cls)

    def balls(self, orders: Sequence) -> list:
        raise NotImplementedError

    @staticmethod
    def from_closed_form(name: str, expr: sp.Expr, source: str = "", at_infinity: sp.Expr | None = None,
                         convex: bool = False) -> ClosedForm:
        """A component whose curve is the SymPy expression ``expr`` in α."""
        return ClosedForm(name, expr, at_infinity, source, convex)


@dataclass(frozen=True)
class Custom(Component):
    """A curve given by a Python function ``function(orders) -> [ball or Infinite, ...]``."""

    name: str
    function: Callable[[Sequence[fmpq]], list]
    closed_form: sp.Expr | None = None
    certified: bool = True
    source: str = ""
    convex: bool = False

    def balls(self, orders: Sequence) -> list:
        return self.function(orders)


@dataclass(frozen=True)
class ClosedForm(Component):
    """ε(α) = ``closed_form``, a SymPy expression in α alone, and ``at_infinity`` its value at α = ∞
    (``None``: the limit, taken when asked)."""

    name: str
    closed_form: sp.Expr
    at_infinity: sp.Expr | None = None
    source: str = ""
    convex: bool = False
    certified: bool = True
    #: μ when the component is exactly the Gaussian pair N(0, 1) vs N(μ, 1) (its whole privacy profile is
    #: Balle–Wang's, :mod:`rdpsym.accounting.profiles`); None for any other curve, a zCDP ρα included.
    gaussian_shift: sp.Expr | None = None

    def __post_init__(self) -> None:
        expr = exact(self.closed_form, "closed form", {"alpha": alpha})
        extra = expr.free_symbols - {alpha}
        if extra:
            raise ParameterError(must(f"{self.name} curve",
                                      "a closed form in alpha only (give every parameter a value)",
                                      ", ".join(sorted(map(str, extra)))))
        if expr != 0 and _identically_zero(expr):
            expr = sp.S.Zero  # ε(α) = 0 at every order (P = Q: randomized response at p = 1/2); balls of the
            # unsimplified form never narrow around 0, and an exact 0 needs no precision
        object.__setattr__(self, "closed_form", expr)
        if self.at_infinity is not None:
            object.__setattr__(self, "at_infinity", exact(self.at_infinity, "the value at infinity"))

    def balls(self, orders: Sequence) -> list:
        out = []
        for a in orders:
            try:
                if a == float("inf"):
                    v = self.at_infinity if self.at_infinity is not None else _limit(self.closed_form, sp.oo)
                    out.append(to_arb(v))
                else:
                    out.append(to_arb(self.closed_form, {alpha: arb(a)}))
            except InfiniteValue as exc:
                out.append(Infinite(f"{self.name}: {exc}"))
        return out


@dataclass(frozen=True)
class Unbounded(Component):
    """ε(α) = ∞ at every order, for the stated ``reason`` (a non-private step)."""

    name: str
    reason: str
    source: str = ""
    certified: bool = True
    convex: bool = False

    @property
    def closed_form(self) -> sp.Expr:
        return sp.oo

    def how(self, order: object) -> str:
        return f"∞: {self.reason}"

    def balls(self, orders: Sequence) -> list:
        return [Infinite(self.reason) for _ in orders]


def _identically_zero(expr: sp.Expr) -> bool:
    """Whether a closed form in α is 0 at every order: its powers and logarithms combined give 0
    (log(2·2^{α−1}/2^α) = log 1), confirmed in Arb balls at three orders (force=True combines powers of
    any base; the balls make sure of the numbers)."""
    if not expr.has(alpha):
        return False
    combined = sp.expand(sp.expand_log(sp.powsimp(sp.expand(expr), force=True), force=True))
    if combined != 0:
        return False
    try:
        with precision(1024):
            return all(0 in to_arb(expr, {alpha: arb(a)}) and to_arb(expr, {alpha: arb(a)}).rad() < arb(2) ** -900
                       for a in (fmpq(3, 2), fmpq(7, 3), fmpq(11)))
    except (NotCertifiable, Undecided, InfiniteValue):
        return False


@functools.lru_cache(maxsize=256)
def _limit(closed_form: sp.Expr, point: sp.Expr) -> sp.Expr:
    """lim_{α→point} of a closed form (from above at 1, the KL end; α = ∞ the D_∞ end), under a time budget
    and taken once per curve, not at every precision a value is tried at.  A limit SymPy leaves unevaluated,
    or gives as nan, zoo or −∞ (no divergence is negative), is a :class:`NoClosedFormError`."""
    if not closed_form.has(alpha):
        return closed_form
    limit = budgeted(lambda: sp.limit(closed_form, alpha, point, "+" if point == 1 else "-"),
                     f"the limit α → {point} of the curve")
    if limit.has(sp.Limit) or limit is sp.nan or limit.has(sp.zoo) or limit is -sp.oo:
        raise NoClosedFormError(f"the limit α → {point} of {closed_form} could not be taken: {limit}")
    return limit


@dataclass(frozen=True)
class SampledGaussian(Component):
    """The Poisson-subsampled Gaussian with rate ``q`` and noise multiplier ``sigma`` (sensitivity 1):
    the exact binomial sum at integer orders, certified quadrature at fractional ones
    (Mironov–Talwar–Zhang 2019; :mod:`rdpsym.accounting.sampled_gaussian`)."""

    name: str
    q: sp.Rational
    sigma: sp.Rational
    certified: bool = True
    source: str = "Mironov–Talwar–Zhang 2019"
    convex: bool = True

    def __post_init__(self) -> None:
        # Read by the one reader (0.01 is 1/100, not the binary double), or a ParameterError now.
        object.__setattr__(self, "q", _sym(to_fmpq(self.q, "q")))
        object.__setattr__(self, "sigma", _sym(to_fmpq(self.sigma, "sigma")))

    @property
    def closed_form(self) -> sp.Expr | None:
        return alpha / (2 * self.sigma**2) if self.q == 1 else (sp.S.Zero if self.q == 0 else None)

    def balls(self, orders: Sequence) -> list:
        q, s = to_fmpq(self.q), to_fmpq(self.sigma)
        finite = [a for a in orders if a != float("inf")]
        logs = iter(sg.log_moments(q, s, finite) if finite else [])
        out = []
        for a in orders:
            if a == float("inf"):
                out.append(arb(0) if q == 0 else Infinite("D_∞ of the subsampled Gaussian is ∞ for q > 0"))
            else:
                out.append(next(logs) / (arb(a) - 1))
        return out


@dataclass(frozen=True)
class GroupPrivacy(Component):
    """Group privacy for groups of size 2^c (Mironov 2017, Prop 2) applied to the curve ``inner``.

    If f is (α, ε)-RDP and g is 2^c-stable, f∘g is (α/2^c, 3^c·ε)-RDP,
    provided α ≥ 2^{c+1}: so the curve at order α' is 3^c·ε(2^c·α'), defined
    for α' ≥ :attr:`min_order` only.  Below that it is :class:`Infinite` with
    the reason (the proposition gives no bound there).
    """

    inner: RdpCurve
    c: int

    @property
    def name(self) -> str:
        return f"group 2^{self.c} of ({self.inner.label})"

    @property
    def source(self) -> str:
        return "Mironov 2017, Prop 2"

    @property
    def certified(self) -> bool:
        return self.inner.certified

    @property
    def convex(self) -> bool:
        return False

    @property
    def min_order(self) -> fmpq:
        return max(fmpq(2), self.inner.min_order / 2**self.c)

    @property
    def closed_form(self) -> sp.Expr | None:
        f = self.inner.closed_form
        if f is None:
            return None
        # Prop 2 gives no bound below min_order: the closed form says so.
        return sp.Piecewise((3**self.c * f.subs(alpha, 2**self.c * alpha), alpha >= _sym(self.min_order)),
                            (sp.oo, True))

    def balls(self, orders: Sequence) -> list:
        mult, factor, lowest = 3**self.c, 2**self.c, self.min_order
        out = self.inner.balls([a * factor if a != float("inf") else a for a in orders])
        return [Infinite(f"group privacy (Prop 2) needs order ≥ {lowest}, got {a}")
                if a != float("inf") and a < lowest else v if isinstance(v, Infinite) else v * mult
                for a, v in zip(orders, out)]


@dataclass(frozen=True)
class RdpCurve:
    """ε(α) = Σ wᵢ·εᵢ(α) over components, valid for orders ≥ ``min_order``.

    A record: curves compare and hash by value and pickle (a curve unpickled
    in another process gives the same balls); ``sum(curves)`` composes.

    >>> import rdpsym
    >>> c = rdpsym.gaussian(sigma=2).curve() * 4 + rdpsym.laplace(scale=1).curve()
    >>> c.closed_form.subs(rdpsym.alpha, 2)
    log(exp(-2)/3 + 2*E/3) + 1
    >>> import mpmath
    >>> mpmath.nstr(c.value(2, dps=30), 30)
    '1.61912362999859288339978853654'
    >>> c.group(1).balls([1.5])[0].reason
    'group privacy (Prop 2) needs order ≥ 2, got 3/2'
    >>> g = rdpsym.gaussian(sigma=2).curve()
    >>> sum([g, g, g, g]) == g + g + g + g, sum([g, g, g, g]).closed_form
    (True, alpha/2)
    """

    terms: tuple = ()
    min_order: fmpq = field(default_factory=lambda: fmpq(1))
    label: str = ""

    # ---------------------------------------------------------------- algebra
    def __add__(self, other: RdpCurve) -> RdpCurve:
        if not isinstance(other, RdpCurve):
            raise WrongType(must("a term of a composition (curve + curve)", "an RdpCurve (mechanism.curve())",
                                 type(other).__name__))
        out = RdpCurve(self.terms + other.terms, max(self.min_order, other.min_order),
                       f"{self.label} + {other.label}")
        known = self.__dict__.get("_merged")
        if known is not None:  # merging the merged terms merges the terms (first-seen order is kept)
            object.__setattr__(out, "_merged", _merge(known + other.merged_terms))
        return out

    def __radd__(self, other: object) -> RdpCurve:
        # sum(curves) starts from 0.
        if isinstance(other, int) and not isinstance(other, bool) and other == 0:
            return self
        return self + other  # the same error as curve + other

    def __mul__(self, k: object) -> RdpCurve:
        if isinstance(k, RdpCurve) or isinstance(k, float):
            return NotImplemented if isinstance(k, RdpCurve) else self._not_steps(k)
        try:
            k = integer(k, "steps", minimum=1)  # an int, or a NumPy integer
        except ParameterError:
            self._not_steps(k)
        out = RdpCurve(tuple((w * k, c) for w, c in self.terms), self.min_order, f"{k} × ({self.label})")
        known = self.__dict__.get("_merged")
        if known is not None:
            object.__setattr__(out, "_merged", tuple((w * k, c) for w, c in known))
        return out

    __rmul__ = __mul__

    @staticmethod
    def _not_steps(k: object):
        raise ParameterError(must("steps", "a positive integer", quoted(k)))

    def group(self, c: int) -> RdpCurve:
        """Group privacy for groups of size 2^c (Mironov 2017, Prop 2): see :class:`GroupPrivacy`.

        If f is (α, ε)-RDP and g is 2^c-stable, f∘g is (α/2^c, 3^c·ε)-RDP,
        provided α ≥ 2^{c+1}: so the new curve at order α' is 3^c·ε(2^c·α'),
        defined for α' ≥ 2 only.  Below that it is :class:`Infinite` with the
        reason (the proposition gives no bound there).
        """
        try:
            c = integer(c, "c", minimum=1)  # an int, or a NumPy integer
        except ParameterError:
            raise ParameterError(must("c (group size 2^c)", "a positive integer", quoted(c))) from None
        if c > MAX_GROUP_EXPONENT:  # 3^c·ε(2^c·α): a group of 2^c people, within the numbers rdpsym reads
            raise ParameterError(must("c (group size 2^c)", f"a positive integer at most {MAX_GROUP_EXPONENT} "
                                      "(2^c at most 10^1000)", c))
        component = GroupPrivacy(self, c)
        return RdpCurve(((1, component),), component.min_order, component.name)

    # ---------------------------------------------------------------- values
    @property
    def convex(self) -> bool:
        """Whether (α−1)·ε(α) is known convex (sums keep it; the group transform does not)."""
        return all(c.convex for _, c in self.terms)

    @property
    def certified(self) -> bool:
        return all(c.certified for _, c in self.terms)

    @property
    def components(self) -> tuple:
        """The components, without their weights."""
        return tuple(c for _, c in self.terms)

    @property
    def closed_form(self) -> sp.Expr | None:
        forms = [c.closed_form for _, c in self.terms]
        if any(f is None for f in forms):
            return None
        return sp.Add(*[w * f for (w, _), f in zip(self.terms, forms)])

    def balls(self, orders: Sequence) -> list:
        """A ball (or :class:`Infinite`) per order, at the current Arb precision."""
        orders = [parse_order(a) for a in _order_list(orders)]
        total: list | None = None
        for w, comp in self.merged_terms:
            values = cached_balls(comp, orders)
            if total is None:  # the first term: one product per order (the usual curve has one term)
                total = [v if isinstance(v, Infinite) else w * v for v in values]
                continue
            for i, v in enumerate(values):
                if isinstance(total[i], Infinite):
                    continue
                total[i] = v if isinstance(v, Infinite) else total[i] + w * v
        return total if total is not None else [arb(0)] * len(orders)

    @property
    def merged_terms(self) -> tuple:
        """The terms with equal components merged (their weights added), in first-seen order.

        Kept on the curve once found, and carried to ``curve + other`` and ``curve * k`` when this curve's
        are already known: a composition grown one epoch at a time then merges one new term per epoch
        instead of hashing every term again (ε after every epoch was quadratic in the epochs)."""
        merged = self.__dict__.get("_merged")
        if merged is None:
            merged = _merge(self.terms)
            object.__setattr__(self, "_merged", merged)
        return merged

    def how(self, order: object) -> tuple[str, ...]:
        """For each component, how its value at ``order`` is obtained: exact, or which bound and why.

        >>> import rdpsym
        >>> c = rdpsym.poisson_sampled(rdpsym.randomized_response(0.75), 0.1).curve() + rdpsym.gaussian(2).curve()
        >>> for line in c.how(2.5):
        ...     print(line[:72])
        poisson-sampled(randomized-response(p=3/4), q=1/10): exact: both directi
        gaussian(sigma=2, sensitivity=1): exact: the closed form, derived (prove
        """
        a = parse_order(order)
        out = []
        for _, comp in self.merged_terms:
            explain = getattr(comp, "how", None)
            if callable(explain):
                text = explain(a)
            elif isinstance(comp, ClosedForm):
                text = f"exact: the closed form, {comp.source}" if comp.certified else \
                    f"the closed form, {comp.source} (not certified)"
            elif isinstance(comp, SampledGaussian):
                text = ("exact: Mironov–Talwar–Zhang 2019's binomial sum" if a != float("inf") and a.q == 1 else
                        "exact: Mironov–Talwar–Zhang 2019's integral, by certified quadrature")
            else:
                text = getattr(comp, "source", "") or "as its component computes it"
            out.append(f"{comp.name}: {text}")
        return tuple(out)

    def enclosures(self, orders: Sequence, dps: int = 50) -> list:
        """Certified balls whose radius is below 10^-dps relative (precision raised until so)."""
        orders = [parse_order(a) for a in _order_list(orders)]  # read once, before any work
        dps = read_dps(dps)

        def at(bits: int) -> list:
            with precision(bits):
                return self.balls(orders)

        return climb(at, lambda out: all(isinstance(v, Infinite) or _accurate(v, dps) for v in out),
                     arb_rungs(dps), _Said(lambda: f"{self.label}: {dps} digits at orders {orders}"),
                     retry=(Undecided,))

    def enclosure(self, order: object, dps: int = 50) -> arb | Infinite:
        return self.kl_enclosure(dps) if _is_one(order) else self.enclosures([order], dps)[0]

    def values(self, orders: Sequence, dps: int = 50) -> list:
        """ε at each order to ``dps`` significant digits (mpmath numbers; ``mpmath.inf`` with a reason kept in
        :meth:`balls`).  Order 1 is the curve's KL value, :meth:`kl`."""
        orders = _order_list(orders)
        ones = {i for i, a in enumerate(orders) if _is_one(a)}
        found = iter(self.enclosures([a for i, a in enumerate(orders) if i not in ones], dps))
        kl = self.kl_enclosure(dps) if ones else None
        return [_digits(kl if i in ones else next(found), dps) for i in range(len(orders))]

    def kl_enclosure(self, dps: int = 50) -> arb | Infinite:
        """The curve at α = 1, certified to ``dps`` digits: lim_{α→1⁺} of each closed form (the KL divergence
        where the form is the exact D_α, and a bound on it where the form bounds D_α, since D_1 ≤ D_α for every
        α > 1: Mironov 2017, Prop 9's monotonicity).  Components without a closed form (subsampled
        mechanisms, the discrete noises' θ-sums, a user's function) have no KL on their curve: the error says
        to derive it from the laws, ``rdpsym.renyi_divergence(P, Q, 1)``.

        >>> import rdpsym
        >>> c = rdpsym.gaussian(sigma=2).curve() * 3 + rdpsym.laplace(scale=1).curve()
        >>> c.value(1, dps=20)   # 3·1/8 + (1/e − 1 + 1)
        mpf('0.74287944117144232160')
        """
        dps = read_dps(dps)
        limits = [(w, _kl_limit(comp)) for w, comp in self.merged_terms]

        def at(bits: int):
            with precision(bits):
                total = arb(0)
                for w, v in limits:
                    if isinstance(v, Infinite):
                        return v
                    total += w * to_arb(v)
                return total

        return climb(at, lambda v: isinstance(v, Infinite) or _accurate(v, dps), arb_rungs(dps),
                     _Said(lambda: f"{self.label}: {dps} digits at order 1"), retry=(Undecided,))

    def value(self, order: object, dps: int = 50) -> mpmath.mpf:
        return self.values([order], dps)[0]

    def __call__(self, order: object, dps: int = 50):
        return self.value(order, dps)

    def __repr__(self) -> str:
        return f"RdpCurve({self.label})"


#: The largest c of :meth:`RdpCurve.group` (groups of 2^c): 2^c stays within 10^1000, the largest number read.
MAX_GROUP_EXPONENT = 3321


def _is_one(order: object) -> bool:
    """Whether ``order`` reads as exactly 1 (the KL order), by the one reader; anything else is left to
    :func:`parse_order`."""
    if isinstance(order, fmpq):  # the grids' orders: no reading needed
        return order == 1
    try:
        return to_fmpq(order, "order") == 1  # (∞ in any spelling is refused by the reader: not 1)
    except (ParameterError, TypeError, ValueError):
        return False


def _digits(v: arb | Infinite, dps: int):
    if isinstance(v, Infinite):
        return mpmath.inf
    # The midpoint's decimals read at dps + 10 digits, whatever mpmath's global precision; prints dps.
    return Digits(decimal_mpf(v.mid().str(dps + 5, radius=False), dps + 10), dps)


def _kl_limit(component: Component) -> sp.Expr | Infinite:
    """A component's value at α = 1 as an exact expression, or :class:`Infinite` with the reason."""
    if isinstance(component, Unbounded):
        return Infinite(component.reason)
    if isinstance(component, GroupPrivacy):
        return Infinite(f"group privacy (Prop 2) needs order ≥ {component.min_order}, got 1")
    if isinstance(component, ClosedForm):
        limit = _limit(component.closed_form, sp.S.One)
        return Infinite(f"{component.name}: its closed form tends to ∞ as α → 1") if limit is sp.oo else limit
    raise NoClosedFormError(f"the KL divergence (order 1) of {component.name} is not on its curve (no closed form "
                            "in α to take the limit of): derive it from the laws, rdpsym.renyi_divergence(P, Q, 1)")


def _order_list(orders: object) -> list:
    """``orders`` as a list (a list, a tuple, any iterable but text), or an error naming them."""
    if isinstance(orders, (str, bytes)) or not hasattr(orders, "__iter__"):
        raise WrongType(must("orders", "a list of orders (numbers > 1, or inf)", quoted(orders)))
    return list(orders)


class _Said:
    """A message written only if it is shown (an error's text listing a grid of orders costs more than the
    values of a warm curve)."""

    __slots__ = ("_text",)

    def __init__(self, text: Callable[[], str]):
        self._text = text

    def __str__(self) -> str:
        return self._text()


def _sym(q: fmpq) -> sp.Rational:
    return sp.Rational(int(q.p), int(q.q))


def _accurate(v: arb, dps: int) -> bool:
    if v.is_zero():
        return True
    if not v.is_finite():
        raise ConvergenceError(f"a non-finite ball {v} where a finite value was expected")
    return v.rel_accuracy_bits() >= dps * 3.33 + 3


def _merge(terms: tuple) -> tuple:
    """Terms with equal components merged (their weights added), in first-seen order; an unhashable
    component is kept as it is."""
    weights: dict = {}
    order: list = []
    for w, comp in terms:
        try:
            if comp in weights:
                weights[comp] += w
                continue
            weights[comp] = w
            order.append(comp)
        except TypeError:  # unhashable: kept as it is
            order.append((w, comp))
    return tuple(c if isinstance(c, tuple) else (weights[c], c) for c in order)


def curve(component: Component, label: str | None = None) -> RdpCurve:
    """The curve of one component."""
    return RdpCurve(((1, component),), fmpq(1), label or component.name)

