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

A component's balls are kept in a bounded cache
(:mod:`rdpsym.accounting.ball_cache`; :func:`clear_cache` empties it): equal
components of one curve are evaluated once, their weights summed.  The
component kinds are :mod:`rdpsym.accounting.components`; this module holds the
curve itself (its algebra and its values), group privacy, and the reading of
orders.

Orders are exact rationals: ``1.1`` means 11/10, not the binary double nearest
to it, so reference values do not depend on floating-point input.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import mpmath
import sympy as sp
from flint import arb, fmpq

# Component, Infinite and clear_cache are imported from here too (the catalogue, rdpsym.Infinite, the README).
from rdpsym.accounting.ball_cache import cached_balls
from rdpsym.accounting.ball_cache import clear_cache as clear_cache
from rdpsym.accounting.components import ClosedForm, SampledGaussian, Unbounded, _limit, _sym
from rdpsym.accounting.components import Component as Component
from rdpsym.accounting.components import Infinite as Infinite
from rdpsym.foundations.balls import (
    Undecided,
    holds_digits,
    precision,
    to_arb,
    to_fmpq,
)
from rdpsym.foundations.errors import (
    NoClosedFormError,
    ParameterError,
    WrongType,
    must,
    quoted,
)
from rdpsym.foundations.numbers import Digits, decimal_mpf
from rdpsym.foundations.precision import arb_rungs, bits_for, climb, digits_next_to_one
from rdpsym.foundations.reading import INFINITY_WORDS, MAX_ORDERS, integer, listed
from rdpsym.foundations.reading import dps as read_dps
from rdpsym.foundations.symbols import alpha
from rdpsym.laws.subsampled import SAMPLING_RELATIONS


def parse_order(order: object) -> fmpq | float:
    """An order as an exact rational > 1 (or ``math.inf``); decimals are read exactly.

    >>> parse_order("1.1"), parse_order(2), parse_order(1.5)
    (11/10, 2, 3/2)
    """
    if isinstance(order, fmpq) and order > 1:  # already exact (the grids are built of fmpq)
        return order
    if isinstance(order, sp.Rational) and order.p > order.q:  # exact already (q > 0): no reader, no comparisons
        return fmpq(int(order.p), int(order.q))
    if getattr(order, "ndim", 0):  # (an array compared with ∞ below is NumPy's "truth value … ambiguous")
        raise WrongType(must("order", "a number > 1 or inf", f"an array of shape {tuple(order.shape)}"))
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
        relations = dict(_relations(self))
        for relation, name in _relations(other).items():
            relations.setdefault(relation, name)
        if len(relations) > 1:
            (r1, n1), (r2, n2) = relations.items()
            raise ParameterError(f"the curves mix two neighbouring relations: {n1} holds for inputs that {r1}, {n2} "
                                 f"for inputs that {r2}; rdpsym composes curves of one relation (account them "
                                 "separately)")
        out = RdpCurve(self.terms + other.terms, max(self.min_order, other.min_order),
                       f"{self.label} + {other.label}")
        object.__setattr__(out, "_relations", relations)
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
        if isinstance(k, RdpCurve):  # (NotImplemented gave Python's bare "unsupported operand" TypeError: a probe)
            raise WrongType(must("the steps of a repetition (k * curve)", "a positive integer (a composition is "
                                 "curve + curve)", "an RdpCurve"))
        if isinstance(k, float):
            self._not_steps(k)
        try:
            k = integer(k, "steps", minimum=1)  # an int, or a NumPy integer
        except ParameterError as exc:
            if "in size" in str(exc):  # (its own reason: 10^1001 steps is a positive integer, past the ceiling)
                raise
            self._not_steps(k)
        out = RdpCurve(tuple((w * k, c) for w, c in self.terms), self.min_order, f"{_count(k)} × ({self.label})")
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
        orders = [parse_order(a) for a in _order_list(orders, most=None)]
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
        dps = read_dps(dps, guarded=True)  # callers add guard digits to a dps they read

        def at(bits: int) -> list:
            with precision(bits):
                return self.balls(orders)

        return climb(at, lambda out: all(isinstance(v, Infinite) or holds_digits(v, dps) for v in out),
                     arb_rungs(dps), _Said(lambda: f"{self.label}: {dps} digits at orders {orders}"),
                     retry=(Undecided,),
                     further=lambda out, bits: (_only_small(out, bits, dps) or _next_to_one(orders, bits, dps)
                                                or bits < bits_for(dps) + 4 * self._extreme_bits()
                                                or _far_out(orders, bits, dps, self._order_scale_bits())))

    def _order_scale_bits(self) -> int:
        """log₂ of the factor by which a component multiplies the orders it is asked for before its inner curve
        sees them: c for group privacy (3^c·ε(2^c·α)), summed through nested groups.  A discrete Laplace curve's
        group 2^687 was "not reached within 688 bits" at order 4, its inner sum taken at order 2^689 (a probe)."""
        return max((comp.c + comp.inner._order_scale_bits() for _, comp in self.merged_terms
                    if isinstance(comp, GroupPrivacy)), default=0)

    def _extreme_bits(self) -> int:
        """Bits of the most extreme exact number in the curve's components (|log₂ x| of their parameters and closed
        forms): σ = 10⁻²⁰⁰ puts e^{10⁴⁰⁰}-sized terms into a θ-sum, whose cancellations need about 4 times that many
        bits, more than the rungs of 10 digits reach (a discrete Gaussian, a discrete Laplace and the exponential
        mechanism at 10⁻²⁰⁰ … 10⁻⁴⁰⁰ were "not reached"; a probe).  Past the rungs the precision may double up to
        there."""
        most = 0
        # A field may hold its numbers in a tuple (the subsampled discrete Gaussian's (σ, Δ)) or in an inner
        # mechanism's parameters: σ = 10⁻²⁰⁰ there went unseen, and the curve was "not reached" (a probe).
        pending = [getattr(comp, f.name, None) for _, comp in self.merged_terms
                   for f in (dataclasses.fields(comp) if dataclasses.is_dataclass(comp) else ())]
        while pending:
            value = pending.pop()
            if isinstance(value, sp.Basic):
                for r in value.atoms(sp.Rational):
                    if r != 0:
                        most = max(most, abs(abs(r.p).bit_length() - r.q.bit_length()))
            elif isinstance(value, (tuple, list)):
                pending.extend(value)
            elif isinstance(getattr(value, "parameters", None), dict):
                pending.extend(value.parameters.values())
        return most

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
        α > 1: Mironov 2017, Prop 9's monotonicity); the exact KL of a curve computed order by order (a finite law, the
        discrete Laplace and Gaussian).  Other components without a closed form (subsampled mechanisms, a user's
        function) have no KL on their curve: the error says to derive it from the laws,
        ``rdpsym.renyi_divergence(P, Q, 1)``.

        >>> import rdpsym
        >>> c = rdpsym.gaussian(sigma=2).curve() * 3 + rdpsym.laplace(scale=1).curve()
        >>> c.value(1, dps=20)   # 3·1/8 + (1/e − 1 + 1)
        mpf('0.74287944117144232160')
        """
        dps = read_dps(dps, guarded=True)  # callers add guard digits to a dps they read
        limits = [(w, _kl_limit(comp)) for w, comp in self.merged_terms]

        def at(bits: int):
            with precision(bits):
                total = arb(0)
                for w, v in limits:
                    if isinstance(v, Infinite):
                        return v
                    total += w * to_arb(v)
                return total

        # (past the rungs as the other orders' values go: the Laplace KL at scale 10³⁰⁰, 5·10⁻⁶⁰¹, was "not reached
        # within 688 bits" where its D₂ was resolved; a probe)
        return climb(at, lambda v: isinstance(v, Infinite) or holds_digits(v, dps), arb_rungs(dps),
                     _Said(lambda: f"{self.label}: {dps} digits at order 1"), retry=(Undecided,),
                     further=lambda v, bits: (_only_small([v], bits, dps)
                                              or bits < bits_for(dps) + 4 * self._extreme_bits()))

    def value(self, order: object, dps: int = 50) -> mpmath.mpf:
        return self.values([order], dps)[0]

    def __call__(self, order: object, dps: int = 50):
        return self.value(order, dps)

    def __repr__(self) -> str:
        return f"RdpCurve({self.label})"

    def _repr_markdown_(self) -> str:
        """Jupyter: the curve's label and, where it has one, its closed form ε(α) typeset (MathJax-safe)."""
        form = self.closed_form
        shown = r"$\varepsilon(\alpha) = " + sp.latex(form) + "$" if form is not None else \
            "(no closed form: evaluated per order)"
        label = self.label.replace("|", r"\|")  # a Markdown table cell's separator
        return f"**RDP curve** {label}: {shown}"


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
        try:
            limit = _limit(component.closed_form, sp.S.One)
        except NoClosedFormError:
            if component.at_one is None:
                raise
            limit = component.at_one()  # the KL derived from the laws (and checked) where SymPy has no limit
        return Infinite(f"{component.name}: its closed form tends to ∞ as α → 1") if limit is sp.oo else limit
    kl = getattr(component, "kl", None)
    if kl is not None:  # a curve computed exactly at each order (a finite law, the discrete Laplace and Gaussian)
        return kl()
    raise NoClosedFormError(f"the KL divergence (order 1) of {component.name} is not on its curve (no closed form "
                            "in α to take the limit of): derive it from the laws, rdpsym.renyi_divergence(P, Q, 1)")


def _order_list(orders: object, most: int | None = MAX_ORDERS) -> list:
    """``orders`` as a list (a list, a tuple, any iterable but text), or an error naming them; at most ``most`` (the
    user's ceiling, for the values and enclosures asked of a curve: an endless iterator was read until memory ran
    out, a probe).  ``balls`` takes any number: a subsampled curve asks its inner curve for every integer order up to
    its own (50 000 for α = 50 000)."""
    return listed(orders, "orders", "a list of orders (numbers > 1, or inf)", most, "orders")


class _Said:
    """A message written only if it is shown (an error's text listing a grid of orders costs more than the
    values of a warm curve)."""

    __slots__ = ("_text",)

    def __init__(self, text: Callable[[], str]):
        self._text = text

    def __str__(self) -> str:
        return self._text()



def _only_small(out: list, bits: int, dps: int) -> bool:
    """Whether every ball not yet accurate is a small value the precision has not resolved, not a hard one: its
    radius is below 2^(−bits/2), so its value is that small too (past the rungs, bits/2 is more than the digits
    asked for), and more bits will place it (a divergence of 10⁻⁶⁰⁰ is [± 10⁻³⁰⁰] at 1008 bits)."""
    half = arb(2) ** (-(bits // 2))
    pending = [v for v in out if not isinstance(v, Infinite) and not holds_digits(v, dps)]
    return bool(pending) and all(v.is_finite() and v.rad() <= half for v in pending)


def _next_to_one(orders: list, bits: int, dps: int) -> bool:
    """Whether an order is so close to 1 that more bits than ``bits`` are needed to read it: a closed form dividing
    by α − 1 is a ball around 0/0 until α − 1 itself is resolved (α = 1 + 10⁻¹⁰⁰⁰ needs about 3 500 bits; the
    rungs stop at 4·``bits_for(dps)``).  Asked only once the rungs are spent, so no order is read twice on the way."""
    return bits < bits_for(dps + max((digits_next_to_one(a) for a in orders), default=0))


def _far_out(orders: list, bits: int, dps: int, scale_bits: int = 0) -> bool:
    """Whether an order is so large that more bits than ``bits`` are needed past it: a closed form's exponent α·log p
    holds log₂α bits before its point, and its error in Arb is α times log p's; log(Σ pᵢ^α qᵢ^{1−α})/(α − 1) is
    resolved only once that error is below 1 (k-ary randomized response and a Poisson-sampled one at α = 10³⁰⁰ were
    "not reached within 952 bits" at 30 digits, where 2 048 resolve them; a probe).  Asked once the rungs are spent.
    ``scale_bits``: the orders reach the inner curve multiplied by 2^scale_bits (group privacy).

    >>> _far_out([fmpq(10**300)], 952, 30), _far_out([fmpq(10**300)], 2048, 30), _far_out([fmpq(3, 2)], 952, 30)
    (True, False, False)
    """
    largest = max((int(a.p).bit_length() - int(a.q).bit_length() for a in orders if isinstance(a, fmpq)), default=0)
    return bits < bits_for(dps) + largest + scale_bits


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


def _relations(c: RdpCurve) -> dict:
    """{relation: the name of a term that fixes it} of a curve's subsampled terms (kept on the curve: a sum of ten
    thousand events reads each term once).  A Poisson-sampled curve plus one sampled without replacement was
    accounted and certified, a composition valid under neither relation (a probe; from_dp_event refused it)."""
    known = c.__dict__.get("_relations")
    if known is None:
        known = {}
        for _, component in c.terms:
            if isinstance(component, GroupPrivacy):  # (group privacy of a subsampled curve: a review)
                for relation, name in _relations(component.inner).items():
                    known.setdefault(relation, name)
                continue
            # (a subsampled mechanism's component is named by it: the sampling fixes the relation; other curves
            # hold for whatever relation their sensitivity was stated for)
            name = getattr(component, "name", "")
            for start, relation in SAMPLING_RELATIONS.items():
                if name.startswith(start):
                    known.setdefault(relation, name)
        object.__setattr__(c, "_relations", known)
    return known


def curve(component: Component, label: str | None = None) -> RdpCurve:
    """The curve of one component."""
    return RdpCurve(((1, component),), fmpq(1), label or component.name)


def _count(k: int) -> str:
    """A step count for a label: as it is up to 12 digits, else its digits before the trailing zeros and their count
    (10¹⁰⁰ steps was a 101-digit label, and a plot's legend as wide: its axes collapsed to nothing, a probe).

    >>> _count(1000), _count(10**100), _count(123 * 10**40), _count(3**50)
    ('1000', '1e100', '123e40', '≈7.178980e+23')
    """
    text = str(k)
    if len(text) <= 12:
        return text
    digits = text.rstrip("0")
    return f"{digits}e{len(text) - len(digits)}" if len(digits) <= 12 else f"≈{k:.6e}"
