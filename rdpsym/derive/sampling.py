"""Where a closed form is checked: seeded parameter points, orders from every part of the claimed set, boundaries.

A closed form in the order α claims every order it is returned for, so it is
checked at orders drawn from every part of that set (:data:`ABOVE_ONE`:
1 < α < 2, 2 ≤ α ≤ 10, large α; :data:`BELOW_ONE`: 0 < α ≤ 1/2, 1/2 < α < 1),
and next to every boundary its conditions draw in α (:func:`boundary_orders`):
α σ₂² + (1 − α) σ₁² > 0 ends at α* = σ₁²/(σ₁² − σ₂²), and the result is checked
just inside (finite) and just outside (∞).  Parameters are drawn from fixed pools
of exact rationals, seeded, so a derivation is checked at the same points on
every run and on every machine.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import sympy as sp

from rdpsym.foundations.precision import sympy_float
from rdpsym.foundations.symbols import Parameter

_POSITIVE = [sp.Rational(1, 3), sp.Rational(3, 4), sp.Rational(6, 5), sp.Rational(2), sp.Rational(7, 3),
             sp.Rational(1, 5), sp.Rational(9, 10), sp.Rational(5, 2)]
_REAL = [sp.Rational(-3, 2), sp.Rational(1, 2), sp.Rational(2), sp.Rational(-1, 3), sp.Rational(5, 4)]
_INTEGER = [sp.Integer(n) for n in (1, 2, 3, 5, 8)]
#: Positive values below 1, drawn after :data:`WIDE_TRIES` points: where most parameters are probabilities
#: (negative binomial, logarithmic series laws, valid only for p < 1), the wide pool rarely finds a valid point.
_UNIT = [sp.Rational(1, 3), sp.Rational(3, 4), sp.Rational(1, 5), sp.Rational(9, 10), sp.Rational(1, 2),
         sp.Rational(2, 3), sp.Rational(1, 7)]
#: Points drawn from the wide pools before the unit pool is used for positive parameters; at most MAX_TRIES in all.
WIDE_TRIES, MAX_TRIES = 40, 80


@dataclass(frozen=True)
class Stratum:
    """A part of the set of orders a symbolic order stands for, and the orders drawn from it."""

    name: str
    orders: tuple


#: The orders above 1 (RDP's orders): near 1, moderate, large.
ABOVE_ONE = (
    Stratum("1 < α < 2", (sp.Rational(11, 10), sp.Rational(3, 2), sp.Rational(1001, 1000))),
    Stratum("2 ≤ α ≤ 10", (sp.Integer(2), sp.Rational(5, 2), sp.Integer(4), sp.Integer(7))),
    Stratum("α ≥ 50", (sp.Integer(50),)),
)
#: The orders below 1 (a symbolic order is a Rényi order in (0, 1) ∪ (1, ∞)): small, and near 1.
BELOW_ONE = (
    Stratum("0 < α ≤ 1/2", (sp.Rational(1, 4), sp.Rational(1, 2), sp.Rational(1, 10))),
    Stratum("1/2 < α < 1", (sp.Rational(3, 4), sp.Rational(9, 10), sp.Rational(999, 1000))),
)


#: The orders above 1 of a symbolic order that stands for integers (Symbol("n", integer=True)).
INTEGERS_ABOVE_ONE = (
    Stratum("2 ≤ n ≤ 10", (sp.Integer(2), sp.Integer(3), sp.Integer(4), sp.Integer(7))),
    Stratum("n ≥ 50", (sp.Integer(50),)),
)


def strata(below_one: bool, integer: bool = False, order: sp.Symbol | None = None) -> tuple[Stratum, ...]:
    """The parts of (0, 1) (``below_one``) or of (1, ∞) a symbolic order is checked in (``integer``: its integers);
    for an order declared with an interval (``rdpsym.parameter("t", 0, 1)``), only their orders inside it, or
    points drawn inside it where none of theirs is.  An order t ∈ (0, 1) was checked at t = 7, and its correct
    result refused as disagreeing with the definition there (a probe).

    >>> from rdpsym.foundations.symbols import parameter
    >>> [(part.name, part.orders) for part in strata(False, order=parameter("t", 1, 3))]
    [('1 < α < 2', (11/10, 3/2, 1001/1000)), ('2 ≤ α ≤ 10', (2, 5/2))]
    >>> strata(False, order=parameter("t", 0, 1))
    ()
    """
    if integer:
        parts = () if below_one else INTEGERS_ABOVE_ONE
    else:
        parts = BELOW_ONE if below_one else ABOVE_ONE
    within = _order_interval(order)
    if within is None:
        return parts
    within = within.intersect(sp.Interval.open(0, 1) if below_one else sp.Interval.open(1, sp.oo))
    if within.is_empty or not isinstance(within, sp.Interval):
        return ()
    kept = tuple(Stratum(part.name, orders) for part in parts
                 if (orders := tuple(o for o in part.orders if within.contains(o) is sp.true)))
    if kept or integer:
        return kept
    a, b = within.inf, within.sup
    inside = tuple(a + (b - a) * u for u in _INSIDE) if b.is_finite else tuple(a + v for v in _POSITIVE if v > 0)
    return (Stratum(f"{sp.sstr(a)} < α < {sp.sstr(b)}", inside[:4]),)


def order_sides(order: object) -> tuple[bool, bool]:
    """(whether a symbolic order may lie below 1, whether above 1): both, unless it was declared with an interval
    on one side of 1.

    >>> from rdpsym.foundations.symbols import parameter
    >>> order_sides(parameter("t", 0, 1)), order_sides(parameter("t", 2, sp.oo)), order_sides(sp.Symbol("a"))
    ((True, False), (False, True), (True, True))
    """
    within = _order_interval(order)
    if within is None:
        return True, True
    return (not within.intersect(sp.Interval.open(0, 1)).is_empty,
            not within.intersect(sp.Interval.open(1, sp.oo)).is_empty)


def _order_interval(order: object) -> sp.Interval | None:
    """A parameter order's declared interval where its ends are numbers; None for any other order."""
    if not isinstance(order, Parameter) or not (sp.S(order.lower).is_number and sp.S(order.upper).is_number):
        return None
    return order.interval


#: Where inside a declared interval (a, b) a parameter is drawn: a + (b − a)·u.
_INSIDE = [sp.Rational(1, 3), sp.Rational(3, 4), sp.Rational(1, 5), sp.Rational(9, 10), sp.Rational(1, 2),
           sp.Rational(2, 3), sp.Rational(1, 7), sp.Rational(1, 50), sp.Rational(49, 50)]


def _in_dependency_order(symbols) -> list[sp.Symbol]:
    """The symbols by name, each :class:`Parameter` after the parameters its interval's ends involve (those
    added: drawn first, then dropped from the point)."""
    out: list[sp.Symbol] = []

    def add(s, depth=0):
        if s in out or depth > 8:
            return
        if isinstance(s, Parameter):
            for t in sorted(s.bound_symbols, key=lambda t: t.name):
                add(t, depth + 1)
        out.append(s)

    for s in sorted(symbols, key=lambda s: s.name):
        add(s)
    return out


def _pool(symbol: sp.Symbol, unit: bool = False, given: dict | None = None) -> list[sp.Expr]:
    if isinstance(symbol, Parameter):
        return _inside(symbol, given or {}, unit)
    if symbol.is_integer:
        return [n for n in _INTEGER if symbol.is_positive is not True or n > 0]
    if symbol.is_positive:
        return _UNIT if unit else _POSITIVE
    if symbol.is_nonnegative:
        return [sp.S.Zero, *_POSITIVE]
    return _REAL


def _inside(symbol: Parameter, given: dict, unit: bool) -> list[sp.Expr]:
    """Values inside a declared interval, its ends read at the values already drawn."""
    return list(_in_interval(symbol, given, _INSIDE, _UNIT if unit else _POSITIVE, _REAL))


def _in_interval(symbol: Parameter, given: dict, fractions: Sequence, offsets: Sequence,
                 real: Sequence) -> tuple[sp.Expr, ...]:
    """A declared interval read at the values already drawn: ``fractions`` of the way between two finite ends,
    ``offsets`` from the one finite end (inwards), or ``real`` values where neither end is finite.  (One reading
    for the sampling pools and the far values, which differ only in the pools.)

    >>> lo = sp.Symbol("lo", positive=True)
    >>> _in_interval(Parameter("hi", lo, sp.oo), {lo: sp.Integer(2)}, (), (1, 5), ())
    (3, 7)
    """
    a, b = (end.xreplace(given) for end in (symbol.lower, symbol.upper))
    if a.is_finite and b.is_finite:
        return tuple(a + (b - a) * u for u in fractions)
    if a.is_finite:
        return tuple(a + v for v in offsets)
    if b.is_finite:
        return tuple(b - v for v in offsets)
    return tuple(real)


#: Values far out in a parameter's domain where a result is only tried for a disagreement (:func:`far_values`).
_FAR_POSITIVE = (sp.Rational(1, 20), sp.Integer(20))
_FAR_REAL = (sp.Integer(-20), sp.Integer(20))
_FAR_INSIDE = (sp.Rational(1, 100), sp.Rational(99, 100))


def far_values(symbol: sp.Symbol, given: dict) -> tuple[sp.Expr, ...]:
    """Values of ``symbol`` past the sampling pools (which reach 1/5 … 5/2): 1/20 and 20 for a positive one, ±20 for
    a real one, near the ends of a declared interval (its ends read at ``given``); none for an integer.

    A KL written as E_P[log P/Q] term by term, or as the moment's derivative at 1 from below, is finite only where
    P's moments are (Pareto(5a) against an exponential law: E_P[x] = ∞ for a ≤ 1/5), and the form it comes out as
    says nothing about it: checked at the pools' points only, such a form was returned `checked` for every a
    (−5.69 at a = 1/10, where the KL is ∞; a probe).

    >>> a = sp.Symbol("a", positive=True)
    >>> far_values(a, {})
    (1/20, 20)
    """
    if symbol.is_integer:
        return ()
    if isinstance(symbol, Parameter):
        return _in_interval(symbol, given, _FAR_INSIDE, _FAR_POSITIVE, _FAR_REAL)
    if symbol.is_positive or symbol.is_nonnegative:
        return _FAR_POSITIVE
    return _FAR_REAL


def closed_ends(symbol: sp.Symbol, given: dict) -> tuple[sp.Expr, ...]:
    """The finite ends a :class:`Parameter`'s declared interval includes, read at the values ``given``; none for any
    other symbol.  The pools draw inside an interval only, and a form that holds inside may not hold at a closed
    end: a geometric pair's condition, multiplied through by (1 − p₂)^{1−α}, read 0 > 0 at p₂ = 1 of (0, 1], and the
    result was ∞ there for α < 1, where the divergence is α·log p₁/(α − 1) (checked: a probe).

    >>> closed_ends(Parameter("p", 0, 1, right_open=False), {}), closed_ends(sp.Symbol("s", positive=True), {})
    ((1,), ())
    """
    if not isinstance(symbol, Parameter):
        return ()
    ends = ((symbol.lower, symbol.left_open), (symbol.upper, symbol.right_open))
    return tuple(v for v in (sp.S(end).xreplace(given) for end, is_open in ends if not is_open) if v.is_finite)


def sample_points(symbols: list[sp.Symbol], order_symbol: sp.Symbol | None, seed: int,
                  below_one: bool = False) -> Iterator[tuple[dict, Stratum | None]]:
    """An endless, seeded stream of ({symbol: exact value}, stratum): the order, if symbolic, drawn from each
    stratum in turn (orders below 1 with ``below_one``, else above 1).

    >>> s, a = sp.Symbol("s", positive=True), sp.Symbol("alpha", positive=True)
    >>> [(p[s], p[a], part.name) for p, part in itertools.islice(sample_points([s], a, 1), 3)]
    [(3/4, 3/2, '1 < α < 2'), (3/4, 7, '2 ≤ α ≤ 10'), (5/2, 50, 'α ≥ 50')]
    """
    rng = random.Random(seed)
    ordered = _in_dependency_order(symbols)
    parts = strata(below_one, integer=order_symbol is not None and order_symbol.is_integer is True, order=order_symbol)
    start = rng.randrange(len(parts)) if parts else 0
    for drawn in itertools.count():
        point: dict = {}
        for s in ordered:
            point[s] = rng.choice(_pool(s, unit=drawn >= WIDE_TRIES, given=point))
        point = {s: v for s, v in point.items() if s in symbols}  # (the parameters an interval's ends involve)
        part = None
        if order_symbol is not None:
            part = parts[(start + drawn) % len(parts)]
            point[order_symbol] = rng.choice(part.orders)
        yield point, part


#: How far on each side of a boundary α* the orders next to it are taken (relative).
BOUNDARY_STEP = sp.Rational(1, 64)
#: Boundaries of the conditions at one parameter point that are tested (each on both sides).
MAX_BOUNDARIES = 2


def boundary_orders(result: sp.Basic, order_symbol: sp.Symbol, values: dict, below_one: bool) -> list[sp.Rational]:
    """Orders just inside and just outside each boundary that the result's conditions draw in the order.

    At the parameter ``values``, each relation of a Piecewise condition that involves the
    order is solved for it (polynomial relations: exact real roots); every root α* inside
    the claimed part of (0, 1) ∪ (1, ∞) gives α*·(1 ∓ 1/64), rationals, within that part.

    >>> a, s1, s2 = sp.Symbol("alpha", positive=True), sp.Symbol("s1", positive=True), sp.Symbol("s2", positive=True)
    >>> r = sp.Piecewise((a, a * s2**2 + (1 - a) * s1**2 > 0), (sp.oo, True))
    >>> boundary_orders(r, a, {s1: 2, s2: 1}, False)   # α* = 4/3
    [21/16, 65/48]
    """
    lo, hi = (sp.S.Zero, sp.S.One) if below_one else (sp.S.One, sp.oo)
    out: list[sp.Rational] = []
    found = 0
    for rel in _relations(result, order_symbol):
        if found >= MAX_BOUNDARIES:
            break
        for root in _roots(rel, order_symbol, values):
            if not (lo < root and (hi is sp.oo or root < hi)):
                continue
            found += 1
            for side in (1 - BOUNDARY_STEP, 1 + BOUNDARY_STEP):
                order = root * side
                if lo < order and (hi is sp.oo or order < hi) and abs(order - 1) > sp.Rational(1, 1000):
                    out.append(order)
    return list(dict.fromkeys(out))


def points_past_boundaries(result: sp.Basic, values: dict, symbols: list[sp.Symbol]) -> list[dict]:
    """Points on either side of each boundary the result's conditions draw in one parameter, the others
    at ``values``: where a branch holds beyond the sampling pools (they reach 5/2, and a Nakagami pair's ∞
    branch Ω ≥ 8/3 was never sampled: the whole result was refused as unchecked; a probe).

    >>> w, m = sp.Symbol("Omega", positive=True), sp.Symbol("m", positive=True)
    >>> r = sp.Piecewise((sp.oo, w >= 8 * m / 3), (w, True))
    >>> [p[w] for p in points_past_boundaries(r, {w: 1, m: 1}, [w, m])][:4]
    [16/3, 11/3, 4/3, 5/3]
    """
    out: list[dict] = []
    for s in symbols:
        for rel in _relations(result, s):
            for root in _roots(rel, s, {k: v for k, v in values.items() if k != s}):
                # never the root itself, where a branch usually equals its neighbour (a form wrong by λ − 3 for
                # λ > 3 was checked at λ = 3 alone; a review): well inside first, then next to it
                for value in (2 * root, root + 1, root / 2, root - 1, root * (1 - BOUNDARY_STEP),
                              root * (1 + BOUNDARY_STEP)):
                    if value != root:
                        out.append({**values, s: value})
    return out


def _relations(result: sp.Basic, symbol: sp.Symbol) -> list:
    """The relations of the result's Piecewise conditions that involve ``symbol``, each once."""
    return list(dict.fromkeys(rel for pw in result.atoms(sp.Piecewise) for _, cond in pw.args
                              for rel in cond.atoms(sp.core.relational.Relational) if rel.has(symbol)))


def _roots(rel, symbol: sp.Symbol, values: dict) -> list[sp.Rational]:
    """The real roots in ``symbol`` of a relation's two sides' difference at ``values``, when it is a
    polynomial of degree 1 to 4 with rational coefficients (rationals, as exact as 30 digits make them)."""
    gap = sp.together((rel.lhs - rel.rhs).xreplace(values))
    if gap.free_symbols != {symbol}:
        return []
    numerator = sp.numer(gap)
    if not numerator.is_polynomial(symbol):
        return []
    try:
        poly = sp.Poly(numerator, symbol)
        if poly.degree() < 1 or poly.degree() > 4 or not poly.domain.is_QQ and not poly.domain.is_ZZ:
            return []
        return [sp.Rational(str(sympy_float(r, 30))) if not r.is_Rational else r for r in poly.real_roots()]
    except (sp.PolynomialError, NotImplementedError, ValueError, TypeError):
        return []


__all__ = ["ABOVE_ONE", "BELOW_ONE", "MAX_TRIES", "WIDE_TRIES", "Stratum", "boundary_orders", "order_sides",
           "points_past_boundaries", "sample_points", "strata"]
