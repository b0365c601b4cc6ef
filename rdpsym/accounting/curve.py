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

Orders are exact rationals: ``1.1`` means 11/10, not the binary double nearest
to it, so reference values do not depend on floating-point input.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

import mpmath
import sympy as sp
from flint import arb, fmpq

from rdpsym.foundations.errors import ConvergenceError, ParameterError, must
from rdpsym.foundations.symbols import alpha
from rdpsym.foundations.balls import InfiniteValue, Undecided, bits_for, precision, to_arb, to_fmpq


@dataclass(frozen=True)
class Infinite:
    """ε(α) = ∞ at this order, and why."""

    reason: str

    def __str__(self) -> str:
        return f"inf ({self.reason})"



def parse_order(order: object) -> fmpq | float:
    """An order as an exact rational > 1 (or ``math.inf``); decimals are read exactly.

    >>> parse_order("1.1"), parse_order(2), parse_order(1.5)
    (11/10, 2, 3/2)
    """
    if order in (sp.oo, float("inf"), "inf", "oo"):
        return float("inf")
    if isinstance(order, float):
        order = repr(order)  # the decimal the user typed, not the binary double
    try:
        q = to_fmpq(sp.Rational(order) if isinstance(order, str) else order)
    except (ParameterError, TypeError, ValueError, sp.SympifyError):
        raise ParameterError(must("order", "a number > 1 or inf", repr(order))) from None
    if not q > 1:
        # α = 1 is the KL divergence, an order of the Rényi divergence but not of RDP accounting.
        kl = " (α = 1 is the KL divergence: rdpsym.renyi_divergence(P, Q, 1) computes it)" if q == 1 else ""
        raise ParameterError(must("order", f"a number > 1 or inf{kl}", order))
    return q


@dataclass(frozen=True)
class Component:
    """One mechanism's RDP curve.

    ``balls(orders)`` returns, at the current Arb precision, a ball or
    :class:`Infinite` per order.  ``closed_form`` is ε(α) as a SymPy
    expression in :data:`rdpsym.alpha` when one is known.  ``certified`` is
    False only for curves evaluated by non-rigorous quadrature.
    """

    name: str
    balls: Callable[[Sequence[fmpq]], list]
    closed_form: sp.Expr | None = None
    certified: bool = True
    source: str = ""
    #: (α−1)·ε(α) is convex in α: true for the exact Rényi divergence of a pair (a cumulant
    #: generating function) and for zCDP-type bounds; lets the continuous order search
    #: certify its optimum much faster.  Never assumed for a user's closed form.
    convex: bool = False

    @staticmethod
    def from_closed_form(name: str, expr: sp.Expr, source: str = "", at_infinity: sp.Expr | None = None,
                         convex: bool = False) -> Component:
        """A component whose curve is the SymPy expression ``expr`` in α."""
        expr = sp.sympify(expr)
        extra = expr.free_symbols - {alpha}
        if extra:
            raise ParameterError(must(f"{name} curve", "a closed form in alpha only (give every parameter a value)",
                                      ", ".join(sorted(map(str, extra)))))

        def balls(orders):
            out = []
            for a in orders:
                try:
                    if a == float("inf"):
                        v = at_infinity if at_infinity is not None else sp.limit(expr, alpha, sp.oo)
                        out.append(to_arb(v))
                    else:
                        out.append(to_arb(expr, {alpha: arb(a)}))
                except InfiniteValue as exc:
                    out.append(Infinite(f"{name}: {exc}"))
            return out

        return Component(name, balls, expr, True, source, convex)


@dataclass(frozen=True)
class RdpCurve:
    """ε(α) = Σ wᵢ·εᵢ(α) over components, valid for orders ≥ ``min_order``.

    >>> import rdpsym
    >>> c = rdpsym.gaussian(sigma=2).curve() * 4 + rdpsym.laplace(scale=1).curve()
    >>> c.closed_form.subs(rdpsym.alpha, 2)
    log(exp(-2)/3 + 2*E/3) + 1
    >>> import mpmath
    >>> mpmath.nstr(c.value(2, dps=30), 30)
    '1.61912362999859288339978853654'
    >>> c.group(1).balls([1.5])[0].reason
    'group privacy (Prop 2) needs order ≥ 2, got 3/2'
    """

    terms: tuple = ()
    min_order: fmpq = field(default_factory=lambda: fmpq(1))
    label: str = ""
    #: (3^c, 2^c) when this curve is a group-privacy transform of ``inner``.
    inner: RdpCurve | None = None
    scale: tuple = (1, 1)

    # ---------------------------------------------------------------- algebra
    def __add__(self, other: RdpCurve) -> RdpCurve:
        if not isinstance(other, RdpCurve):
            return NotImplemented
        return RdpCurve(self._flat() + other._flat(), max(self.min_order, other.min_order),
                        f"{self.label} + {other.label}")

    def __mul__(self, k: object) -> RdpCurve:
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ParameterError(must("steps", "a positive integer", repr(k)))
        return RdpCurve(tuple((w * k, c) for w, c in self._flat()), self.min_order, f"{k} × ({self.label})")

    __rmul__ = __mul__

    def _flat(self) -> tuple:
        if self.inner is None:
            return self.terms
        return ((1, Component(self.label, self.balls, self.closed_form, self.certified, "Mironov 2017, Prop 2")),)

    def group(self, c: int) -> RdpCurve:
        """Group privacy for groups of size 2^c (Mironov 2017, Prop 2).

        If f is (α, ε)-RDP and g is 2^c-stable, f∘g is (α/2^c, 3^c·ε)-RDP,
        provided α ≥ 2^{c+1}: so the new curve at order α' is 3^c·ε(2^c·α'),
        defined for α' ≥ 2 only.  Below that it is :class:`Infinite` with the
        reason (the proposition gives no bound there).
        """
        if isinstance(c, bool) or not isinstance(c, int) or c < 1:
            raise ParameterError(must("c (group size 2^c)", "a positive integer", repr(c)))
        return RdpCurve((), max(fmpq(2), self.min_order / 2**c), f"group 2^{c} of ({self.label})",
                        inner=self, scale=(3**c, 2**c))

    # ---------------------------------------------------------------- values
    @property
    def convex(self) -> bool:
        """Whether (α−1)·ε(α) is known convex (sums keep it; the group transform does not)."""
        return self.inner is None and all(c.convex for _, c in self.terms)

    @property
    def certified(self) -> bool:
        return all(c.certified for _, c in self._components())

    def _components(self):
        return self.inner._components() if self.inner is not None else self.terms

    @property
    def closed_form(self) -> sp.Expr | None:
        if self.inner is not None:
            f = self.inner.closed_form
            if f is None:
                return None
            # Prop 2 gives no bound below min_order: the closed form says so.
            return sp.Piecewise((self.scale[0] * f.subs(alpha, self.scale[1] * alpha), alpha >= _sym(self.min_order)),
                                (sp.oo, True))
        forms = [c.closed_form for _, c in self.terms]
        if any(f is None for f in forms):
            return None
        return sp.Add(*[w * f for (w, _), f in zip(self.terms, forms)])

    def balls(self, orders: Sequence) -> list:
        """A ball (or :class:`Infinite`) per order, at the current Arb precision."""
        orders = [parse_order(a) for a in orders]
        if self.inner is not None:
            mult, factor = self.scale
            out = self.inner.balls([a * factor if a != float("inf") else a for a in orders])
            return [Infinite(f"group privacy (Prop 2) needs order ≥ {self.min_order}, got {a}")
                    if a != float("inf") and a < self.min_order else v if isinstance(v, Infinite) else v * mult
                    for a, v in zip(orders, out)]
        total: list = [arb(0)] * len(orders)
        for w, comp in self.terms:
            for i, v in enumerate(comp.balls(orders)):
                if isinstance(total[i], Infinite):
                    continue
                total[i] = v if isinstance(v, Infinite) else total[i] + w * v
        return total

    def enclosures(self, orders: Sequence, dps: int = 50) -> list:
        """Certified balls whose radius is below 10^-dps relative (precision raised until so)."""
        orders = list(orders)
        for bits in (bits_for(dps), 2 * bits_for(dps), 4 * bits_for(dps), 8 * bits_for(dps)):
            with precision(bits):
                try:
                    out = self.balls(orders)
                except Undecided:
                    continue
                if all(isinstance(v, Infinite) or _accurate(v, dps) for v in out):
                    return out
        raise ConvergenceError(f"{self.label}: could not reach {dps} digits at orders {orders} "
                               f"within {8 * bits_for(dps)} bits")

    def enclosure(self, order: object, dps: int = 50):
        return self.enclosures([order], dps)[0]

    def values(self, orders: Sequence, dps: int = 50) -> list:
        """ε at each order to ``dps`` significant digits (mpmath numbers; ``mpmath.inf`` with a reason kept in
        :meth:`balls`)."""
        out = []
        for v in self.enclosures(orders, dps):
            if isinstance(v, Infinite):
                out.append(mpmath.inf)
            else:
                with mpmath.workdps(dps + 10):
                    out.append(mpmath.mpf(v.mid().str(dps + 5, radius=False)))
        return out

    def value(self, order: object, dps: int = 50):
        return self.values([order], dps)[0]

    def __call__(self, order: object, dps: int = 50):
        return self.value(order, dps)

    def __repr__(self) -> str:
        return f"RdpCurve({self.label})"


def _sym(q: fmpq) -> sp.Rational:
    return sp.Rational(int(q.p), int(q.q))


def _accurate(v: arb, dps: int) -> bool:
    if v.is_zero():
        return True
    if not v.is_finite():
        raise ConvergenceError(f"a non-finite ball {v} where a finite value was expected")
    return v.rel_accuracy_bits() >= dps * 3.33 + 3


def curve(component: Component, label: str | None = None) -> RdpCurve:
    """The curve of one component."""
    return RdpCurve(((1, component),), fmpq(1), label or component.name)

