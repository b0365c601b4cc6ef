"""A claim's hypothesis domain and the points it is checked at: edges, far reaches and seeded draws.

A :class:`Domain` maps each free symbol of a claim to its interval (or integer
range).  Its sample points (:meth:`Domain.points`) are the edges where bounds get
tight (:func:`edge_values`: 10⁻³⁰ from a finite end, 10¹² toward an infinite one)
mixed with seeded random values; its far points (:meth:`Domain.far_points`,
:func:`reach_values`) lie far past the edges, where a claim is only tried for a
certified failure (:mod:`rdpsym.claims.claim`).
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

import sympy as sp

from rdpsym.foundations.errors import ClaimError, must, quoted

#: Offsets from a finite end of an interval: the edges where bounds get tight.
_NEAR = tuple(sp.Rational(1, 10**k) for k in (30, 12, 6, 3, 1))
#: Values towards an infinite end.
_FAR = tuple(sp.Integer(10) ** k for k in (0, 1, 3, 6, 12))


def edge_values(interval) -> list[sp.Rational]:
    """The edges of ``interval`` (an ``Interval``, or a ``Range`` of integers) worth testing, exactly.

    >>> [str(v) for v in edge_values(sp.Interval.open(0, 1))][:3]
    ['1/1000000000000000000000000000000', '1/1000000000000', '1/1000000']
    """
    if isinstance(interval, sp.Range):
        return _integer_edges(interval)
    if isinstance(interval, sp.FiniteSet):  # Interval(2, 2) is FiniteSet(2): a fixed value
        return sorted(interval)
    lo, hi = interval.inf, interval.sup
    out: list[sp.Rational] = []
    if lo.is_finite and hi.is_finite:
        w = hi - lo
        out += [lo + w * t for t in _NEAR] + [lo + w / 2] + [hi - w * t for t in reversed(_NEAR)]
    elif lo.is_finite:
        out += [lo + t for t in _NEAR] + [lo + t for t in _FAR]
    elif hi.is_finite:
        out += [hi - t for t in _NEAR] + [hi - t for t in _FAR]
    else:
        out += [sp.Integer(0)] + [s * t for t in _NEAR + _FAR for s in (1, -1)]
    if lo.is_finite and not interval.left_open:
        out.insert(0, lo)
    if hi.is_finite and not interval.right_open:
        out.append(hi)
    return sorted(set(out))


#: Values far past the edges, where a claim is only tried for a certified failure (:meth:`Domain.far_points`).
#: A ladder without wide gaps: a claim false for α in (1.1·10¹⁹, 3.6·10²⁰) (orders and δ's scales live there) was
#: checked when the reach began at 10³⁰ (a probe).
_FAR_REACH = tuple(sp.Integer(10) ** k for k in (15, 20, 25, 30, 50, 100, 300, 1000))
_NEAR_REACH = tuple(sp.Rational(1, 10**k) for k in (50, 100, 300, 1000))


def reach_values(interval) -> list:
    """Values of ``interval`` far past :func:`edge_values`: 10¹⁵ … 10¹⁰⁰⁰ toward an infinite end, 10⁻⁵⁰ … 10⁻¹⁰⁰⁰
    from an open finite one.  "t ≤ 10⁴⁰ for every t > 0" held at every edge (the farthest is 10¹²) and was reported
    checked (a probe).

    >>> [str(v) for v in reach_values(sp.Interval.open(0, 1))][:1]
    ['1/10000...']
    """
    if not isinstance(interval, (sp.Interval, sp.Range)):
        return []
    lo, hi = interval.inf, interval.sup
    out: list = []
    if hi is sp.oo:
        out += [(lo if lo.is_finite else 0) + t for t in _FAR_REACH]
    if lo is -sp.oo:
        out += [(hi if hi.is_finite else 0) - t for t in _FAR_REACH]
    if isinstance(interval, sp.Interval):
        if lo.is_finite and interval.left_open:
            out += [lo + t * (min(hi - lo, 1) if hi.is_finite else 1) for t in _NEAR_REACH]
        if hi.is_finite and interval.right_open:
            out += [hi - t * (min(hi - lo, 1) if lo.is_finite else 1) for t in _NEAR_REACH]
    return [v for v in out if holds_value(interval, v)]


def _integer_edges(r: sp.Range) -> list[sp.Integer]:
    lo, hi = r.inf, r.sup
    step = abs(r.step)
    out = {lo, lo + step, lo + 2 * step} if lo.is_finite else {sp.Integer(-(10**6)), sp.Integer(-1)}
    if hi.is_finite:
        out |= {hi, hi - step, lo + step * ((hi - lo) // step // 2) if lo.is_finite else hi - 10 * step}
    else:
        out |= {lo + 10 * step, lo + 1000 * step, lo + 10**6 * step} if lo.is_finite else \
            {sp.Integer(0), sp.Integer(10**6)}
    return sorted(v for v in {_member_near(r, v) for v in out} if v in r)


def _member_near(r: sp.Range, v: sp.Integer) -> sp.Integer:
    """The member of the Range ``r`` nearest ``v`` on its lattice (one end plus a multiple of its step), ``v`` itself
    for a step of 1.

    >>> _member_near(sp.Range(1, 30, 3), sp.Integer(9)), _member_near(sp.Range(-sp.oo, 3, 2), sp.Integer(-6))
    (10, -5)
    """
    anchor, step = range_anchor(r), abs(r.step)
    return anchor + step * ((v - anchor + step // 2) // step)


def range_anchor(r: sp.Range) -> sp.Integer:
    """A member of the Range ``r`` its lattice is counted from: an end, or 0 for all the integers (Range(−∞, ∞) took
    ∞ as its anchor, and every point of a claim on it was ∞ − ∞: unknown, "did not evaluate to a bool"; a review)."""
    return r.inf if r.inf.is_finite else r.sup if r.sup.is_finite else sp.S.Zero


def random_value(interval, rng: random.Random) -> sp.Rational:
    """A seeded random rational in ``interval``: uniform when it is short, log-uniform when long
    (integers for a ``Range``)."""
    if isinstance(interval, sp.FiniteSet):
        return rng.choice(sorted(interval))
    if isinstance(interval, sp.Range):
        # A member: one end plus a multiple of the step (drawn as any integer between the ends, the points of
        # Range(10, 0, −3) held 9, outside the domain, where a true claim was refuted: a probe).
        step = abs(int(interval.step))
        if not (interval.inf.is_finite or interval.sup.is_finite):  # all the integers (of a step): within ±10⁶
            return sp.Integer(step * rng.randint(-(10**6) // step, 10**6 // step))
        if interval.inf.is_finite:
            lo = int(interval.inf)
            # (to 10⁶: past it, a tight true claim such as e^{−1/n⁷} ≤ 1 − 1/n⁷ + 1/(2n¹⁴) is undecided in balls at
            # a draw and left unknown (a review); the valleys between 10⁶ and the far values at 10¹⁵ are searched
            # instead, claims.search.valley_failure)
            span = int(interval.sup) - lo if interval.sup.is_finite else 10 ** rng.randint(1, 6)
        else:  # from the member nearest −10⁶ (or the last one, if below it) up to the last one
            hi = int(interval.sup)
            lo = hi - step * max(0, (hi + 10**6) // step)
            span = hi - lo
        return sp.Integer(lo + step * rng.randint(0, span // step))
    ends = (_end(interval.inf), _end(interval.sup))
    value = _draw(*ends, rng)
    return sp.Rational(value) if isinstance(value, Fraction) else value


def _end(end: sp.Expr) -> Fraction | sp.Expr | None:
    """An interval's end for :func:`_draw`: a Fraction when rational (no SymPy arithmetic on the ~10⁴ draws
    of a catalogue run), None when infinite, else the SymPy number itself (π)."""
    if end.is_infinite:
        return None
    return Fraction(int(end.p), int(end.q)) if end.is_Rational else end


def _draw(lo, hi, rng: random.Random):
    """A random number between ``lo`` and ``hi`` (None: unbounded that way): uniform when the interval is
    at most 100 long, else an end plus 10^(j + u) for a random j in −8…8, u in [0, 1): log-uniform in each decade.
    (It was 10^j·(1 + u), the lower 30 % of each decade: α − 1 was never drawn in (21, 101), and a claim false for
    α in (30.7, 37.9) was checked; a probe.)"""
    def unit() -> Fraction:
        return Fraction(int(rng.random() * 2**40), 2**40)

    top = 8
    if lo is not None and hi is not None:
        if hi - lo <= 100:
            u = unit()
            return lo + (hi - lo) * u if u > 0 else lo + (hi - lo) / 2
        # (up to the interval's own width: on [2, 10⁴⁰⁰] every draw was below 10⁹, and a claim false for a between
        # about 10²¹ and 10²⁸ was checked; a probe)
        top = max(top, _decades(hi - lo))
    mag = Fraction(10) ** rng.randint(-8, top) * Fraction(10 ** float(unit()))  # (10^u as the double holds it)
    if lo is not None and hi is not None:
        v = lo + mag
        return v if v < hi else lo + (hi - lo) * unit()
    if lo is not None:
        return lo + mag
    if hi is not None:
        return hi - mag
    return mag if rng.random() < 0.5 else -mag


def _decades(width) -> int:
    """The decades of a positive width (a Fraction or a SymPy number): ⌈log₁₀ width⌉, read off its digits."""
    if isinstance(width, Fraction):
        return len(str(width.numerator // width.denominator + 1))
    return int(sp.ceiling(sp.log(width, 10)).evalf(30)) if width.is_finite else 8


#: The most sample points a domain may ask for (each is one evaluation of every step on it).
MAX_SAMPLES = 100_000
#: The most points of a domain whose variables are all finite sets taken whole, whatever ``samples`` says.
MAX_ENUMERATED = 4096


@dataclass(frozen=True)
class Domain:
    """Where a claim's hypotheses hold, and how to sample it adversarially.

    ``variables`` maps each free symbol to a SymPy ``Interval`` (its
    hypothesis); ``objects`` maps names to generators ``f(rng, i)`` of
    non-numeric samples (distributions, events) whose first few ``i`` should be
    the edge cases; ``where`` is an extra hypothesis on a point (a dict).

    Points are the cross product of the variables' edge values when that is
    small, otherwise seeded mixtures of edges and random values, always
    including the all-low and all-high corners.
    """

    variables: dict = field(default_factory=dict)
    objects: dict = field(default_factory=dict)
    where: Callable[[dict], bool] | None = None
    samples: int = 120
    seed: int = 2017

    def __post_init__(self) -> None:
        # (samples=0 still said "checked", on its two corner points, and 2.5 or a seed "abc" were taken: a probe)
        if isinstance(self.samples, bool) or not isinstance(self.samples, int) or not 1 <= self.samples <= MAX_SAMPLES:
            raise ClaimError(must("samples", f"an integer from 1 to {MAX_SAMPLES}", quoted(self.samples)))
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise ClaimError(must("seed", "an integer", quoted(self.seed)))
        # (a Union was taken, and the claim came out unknown with "'Union' object has no attribute 'left_open'": a
        # probe of the claims engine)
        for symbol, values in self.variables.items():
            if values is sp.S.EmptySet or isinstance(values, sp.Range) and values.is_empty:
                raise ClaimError(must(f"the domain of {symbol}", "a set with at least one value (a claim on an "
                                      "empty domain says nothing)", values))
            if not isinstance(values, (sp.Interval, sp.Range, sp.FiniteSet)):
                raise ClaimError(must(f"the domain of {symbol}", "an Interval, a Range or a FiniteSet (a union: one "
                                      "claim, or one step, per part)", values))
            # (an end that is another variable, x in [0, y], was taken and every claim on it came out unknown with
            # "cannot determine truth value of Relational"; an empty Range with "(EmptySet)._inf": a probe)
            if values.free_symbols:
                names = ", ".join(sorted(map(str, values.free_symbols)))
                raise ClaimError(must(f"the domain of {symbol}", f"a set with numeric ends (a bound that depends on "
                                      f"{names} is a condition on the point, given as where=lambda p: ...)", values))

    def points(self) -> list[dict]:
        """The sample points (a fresh list of fresh dicts: a step's compare may not change another's points)."""
        return [dict(point) for point in self._points]

    @property
    def point_count(self) -> int:
        """How many sample points there are, without copying them as :meth:`points` does (a failure's report and a
        search's budget asked it of a copy of every point)."""
        return len(self._points)

    def first_point(self) -> dict | None:
        """The first sample point (a fresh dict), or None: what the exact-point searches build on, without copying
        every point as :meth:`points` does (2 % of a catalogue run)."""
        return dict(self._points[0]) if self._points else None

    @functools.cached_property
    def _points(self) -> list[dict]:
        """Drawn once per domain, not once per step that checks on it (the same seeded points each time): the
        catalogue's draws (random pmfs and rationals) are about 0.8 s of a run."""
        rng = random.Random(self.seed)
        names = list(self.variables)
        edges = [edge_values(self.variables[s]) for s in names]
        raw: list[tuple] = []
        size = 1
        for e in edges:
            size *= len(e)
        # Every point of a domain of finite sets and bounded Ranges (up to MAX_ENUMERATED): a claim on FiniteSet(1,
        # …, 500) false at 377 alone was checked on 106 of its 500 values, and on that set × Range(0, 3) (a probe)
        whole = _whole(self.variables[s] for s in names)
        if names and whole is not None:
            raw += list(itertools.product(*whole))
        elif names and size <= self.samples:
            raw += list(itertools.product(*edges))
        elif names:
            raw += [tuple(e[0] for e in edges), tuple(e[-1] for e in edges)]
        while len(raw) < self.samples:
            raw.append(tuple(
                rng.choice(e) if rng.random() < 0.5 else random_value(self.variables[s], rng)
                for s, e in zip(names, edges)))
        return self._kept(raw, rng)

    def far_points(self) -> list[dict]:
        """Points with one variable (or all at once) far past its edges (:func:`reach_values`), the others at their
        middle edge value: tried only for a certified failure, since a true claim's sides may not be evaluable
        there (none for a domain with non-numeric samples).  A fresh list of fresh dicts, as :meth:`points`."""
        return [dict(point) for point in self._far_points]

    @functools.cached_property
    def _far_points(self) -> list[dict]:
        """Made once per domain, not once per step (building 10¹⁰⁰⁰ and its neighbours each time was 3 % of a
        catalogue run)."""
        if self.objects or not self.variables:
            return []
        names = list(self.variables)
        middle = [e[len(e) // 2] if e else None for e in (edge_values(self.variables[s]) for s in names)]
        if any(m is None for m in middle):
            return []
        reach = [reach_values(self.variables[s]) for s in names]
        raw = [tuple(v if j == i else middle[j] for j in range(len(names))) for i, r in enumerate(reach) for v in r]
        if len(names) > 1 and all(reach):
            raw += [tuple(r[k] for r in reach) for k in range(min(len(r) for r in reach))]
        return self._kept(raw, random.Random(self.seed))

    def _kept(self, raw: list, rng: random.Random) -> list[dict]:
        names = list(self.variables)
        out, seen = [], set()
        for i, values in enumerate(raw):
            if values in seen and not self.objects:
                continue
            seen.add(values)
            point = dict(zip(names, values))
            for name, gen in self.objects.items():
                point[name] = gen(rng, i)
            if self.where is None or self.where(point):
                out.append(point)
        return out


def _whole(sets) -> list[list] | None:
    """Every member of each set, where each is a finite set or a bounded Range and their product has at most
    :data:`MAX_ENUMERATED` points; else None."""
    members, size = [], 1
    for where in sets:
        if isinstance(where, sp.Range) and where.size.is_finite and where.size <= MAX_ENUMERATED:
            values = list(where)
        elif isinstance(where, sp.FiniteSet):
            values = sorted(where)
        else:
            return None
        size *= len(values)
        if size > MAX_ENUMERATED:
            return None
        members.append(values)
    return members


#: A symbol's assumptions as the sets of values they allow (SymPy simplifies with them on entry: √(x²) is x for a
#: positive x).  A sign's set is open where the assumption is strict: a positive μ on [0, 1] made D_∞ of N(0, σ²)
#: against N(μ, σ²) ∞, proved, where at μ = 0 it is 0 (a probe); ``even``, ``odd`` and ``prime`` simplified
#: (−1)^n to 1 on Range(0, 10).  None: no SymPy set says it; such an assumption is allowed only on a finite domain
#: whose every value has it.
_n = sp.Dummy("n", integer=True)
_ASSUMED = (("positive", sp.Interval.open(0, sp.oo)), ("nonnegative", sp.Interval(0, sp.oo)),
            ("negative", sp.Interval.open(-sp.oo, 0)), ("nonpositive", sp.Interval(-sp.oo, 0)),
            ("nonzero", sp.Union(sp.Interval.open(-sp.oo, 0), sp.Interval.open(0, sp.oo))),
            ("integer", sp.S.Integers), ("rational", sp.S.Rationals), ("real", sp.S.Reals),
            ("even", sp.ImageSet(sp.Lambda(_n, 2 * _n), sp.S.Integers)),
            ("odd", sp.ImageSet(sp.Lambda(_n, 2 * _n + 1), sp.S.Integers)),
            ("prime", None), ("composite", None), ("zero", sp.FiniteSet(0)))
#: Facts every number of a domain has (a domain is a set of finite real numbers), which SymPy derives from the others.
_IMPLIED = frozenset({"commutative", "complex", "finite", "hermitian"})
#: The most values of a finite domain read one by one for an assumption no SymPy set says.
_FINITE_READ = 10_000


def domain_within_assumptions(domain: Domain) -> None:
    """Refuse a domain that holds values its symbol's assumptions exclude: `sqrt(x**2) = x` with x declared positive
    was proved on all the reals, and |α| = α on [−3, 3] with rdpsym's own α (a probe of the claims engine).  The
    domain must be shown inside each assumption's set: one SymPy cannot place is refused too."""
    for symbol, where in domain.variables.items():
        if not isinstance(symbol, sp.Symbol) or not isinstance(where, sp.Set):
            continue
        fact = _fact_not_shown(symbol, where)
        if fact is not None:
            raise ClaimError(f"{symbol} is declared {fact}, so SymPy simplifies with it (√(x²) = x for a "
                             f"positive x, (−1)^n = 1 for an even n), but its domain {where} is not shown to hold "
                             "only such values: declare it with the assumptions its domain has (nonnegative=True "
                             "on [0, ∞)), or narrow the domain")


@functools.lru_cache(maxsize=1024)
def _fact_not_shown(symbol: sp.Symbol, where: sp.Set) -> str | None:
    """The first fact of ``symbol`` not shown to hold on all of ``where``, or None (kept: every step of a claim asks
    it of the same domain)."""
    sets = dict(_ASSUMED)
    for fact, holds in sorted(symbol.assumptions0.items(), key=_said_first):
        # An extended sign is the sign on a domain of finite numbers; a fact with no set here (imaginary,
        # irrational, …) is never shown to hold (an extended_positive y on [−3, 3] proved |y| = y: a review).
        assumption = fact.removeprefix("extended_")
        if holds is not True or fact in _IMPLIED or (fact == "algebraic" and symbol.is_rational):
            continue
        if assumption not in sets or not _within(where, sets[assumption], assumption):
            return fact
    return None


def _said_first(item: tuple) -> tuple:
    """The order facts are compared in, so a refusal names the one the user wrote (positive, not the extended
    nonnegativity SymPy derives from it): the table's order, its extended forms after it, then the rest."""
    fact = item[0]
    names = [name for name, _ in _ASSUMED]
    base = fact.removeprefix("extended_")
    return (fact != base, names.index(base) if base in names else len(names), fact)


def _within(where: sp.Set, values: sp.Set | None, assumption: str) -> bool:
    """Whether every value of ``where`` has ``assumption`` (``values``: the set it allows), where that can be shown."""
    if isinstance(where, sp.Range) and assumption in ("even", "odd") and where.size != 0:
        # (SymPy calls Range(2, ∞, 2) not a subset of the even integers)
        end = where.inf if where.inf.is_finite else where.sup
        return (where.size == 1 or where.step % 2 == 0) and end % 2 == (0 if assumption == "even" else 1)
    if assumption == "nonzero":  # (SymPy cannot place the odd numbers of Range(−∞, 3, 2) in ℝ ∖ {0}: a probe)
        return _contains(where, sp.S.Zero) is False
    if values is not None:
        inside = _is_subset(where, values)
        if inside is not None:
            return bool(inside)
    if isinstance(where, sp.Range) and where.size.is_Integer and where.size <= _FINITE_READ or \
            isinstance(where, sp.FiniteSet) and len(where) <= _FINITE_READ:
        return all(getattr(sp.S(v), f"is_{assumption}") for v in where)
    return False


@functools.lru_cache(maxsize=512)
def _is_subset(where: sp.Set, values: sp.Set) -> bool | None:
    """``where.is_subset(values)``, kept: every step of a claim asks it of the same domain (SymPy intersects the
    sets each time)."""
    return where.is_subset(values)


def holds_value(where: sp.Set, value: sp.Expr) -> bool:
    """Whether the exact number ``value`` is shown to be in ``where`` (``where.contains(value) is sp.true``).

    >>> holds_value(sp.Interval.Lopen(0, 6), sp.Integer(0)), holds_value(sp.Range(1, sp.oo, 2), sp.Integer(7))
    (False, True)
    """
    return _contains(where, value) is True


def _contains(where: sp.Set, value: sp.Expr) -> bool | None:
    """Whether the SymPy number ``value`` is in ``where``; None where SymPy cannot tell.  By comparisons alone for a
    rational in an Interval with rational or infinite ends and in a FiniteSet of rationals: SymPy's ``contains``
    builds and simplifies a relation there (0.4 ms a call, asked thousands of times by a catalogue run's edges and
    searches; 5 % of its CPU time once).  (A Range's own ``contains`` is as fast as its comparisons.)"""
    if isinstance(where, sp.FiniteSet) and value.is_Rational and all(v.is_Rational for v in where):
        return value in where
    if isinstance(where, sp.Interval) and value.is_Rational and \
            all(end.is_Rational or end.is_infinite for end in (where.start, where.end)):
        lo, hi = where.start, where.end
        above = value > lo if where.left_open else value >= lo
        return bool(above and (value < hi if where.right_open else value <= hi))
    found = where.contains(value)
    return True if found is sp.true else False if found is sp.false else None
