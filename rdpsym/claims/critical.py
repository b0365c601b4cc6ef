"""The exact points where an inequality in one variable is tightest: its kinks, its zeros, its critical points.

Sample points and the local search (:mod:`rdpsym.claims.search`) approach a failure set of measure zero but do not
land on it: (x − √2)² > 0 fails at √2 only, sin x ≤ 1 − 10⁻⁴⁰ at π/2 + 2kπ only, |x − π| > 10⁻³⁰ at π only, and
(n − 500)² ≥ 1 at the one integer 500; each was reported checked (a probe of the claims engine).  Where the difference
of the sides, d = lhs − rhs, is a SymPy expression in one of the domain's variables, it is largest or smallest where
d′ = 0, it turns where d = 0, and it has a kink where an ``Abs``, ``sign``, ``Heaviside``, ``Max``/``Min`` or a
``Piecewise`` condition switches.  Those points are solved for exactly (SymPy's ``solveset`` on the domain's hull,
within a CPU budget), periodic families by their members in the domain, and for a ``Range`` rounded to its members
on both sides.  :func:`tight_values` only finds the points; the claim decides each as it does a sample point (in
balls, or by SymPy's exact equality for a strict relation), so a true claim's status cannot change here.

The points where a side is singular are another such set: log(α)/(α − π) ≤ 30 fails only on (π, π + 0.038) and is
undefined at π, α/(2(α − 3)) ≤ 10⁶ only within 1.5·10⁻⁷ of 3, tan x ≤ 10⁶ beside π/2, and (x² − 1)/(x − 1) = x + 1
is undefined at x = 1; each was reported checked or proved (a probe).  :func:`singular_points` gives the exact
singular values of one variable (SymPy's ``singularities``: poles, logarithms' zeros, tan's poles; a denominator's
zeros; the gamma family's poles; a polynomial denominator's real roots) in the domain and points just beside them;
the claim decides them as sample points, so a side undefined there leaves the claim unknown
(as a sample point where a side cannot be evaluated does) and a failure beside a pole refutes it.

Where ``solveset`` leaves an equation unsolved (a ``ConditionSet``: x·eˣ = 3, x = cos x, a Laplace mechanism's D_α =
1/2), its zeros are found numerically, by sign changes on a grid of the hull bisected to 60 digits
(:mod:`rdpsym.claims.numeric_zeros`); on a Range, a periodic family's members nearest its integers come first (|sin n|
≥ 10⁻⁴ fails below 10⁴ at 355 = 113π + 3·10⁻⁵, 710 and 1065 only).  A tight value beyond the numbers the balls
evaluate (10^±1000), or a point past the last one toward an infinite end, is counted undecided: the claim is then
unknown, not checked.

What stays a sampled check's limit: a claim whose failure set in several variables is a curve, not a point, a side
that is not a SymPy expression (a :class:`~rdpsym.claims.claim.Holds` step), a zero without a sign change that SymPy
cannot solve for and the difference's derivative does not show, a zero beyond the numeric grid's reach (10^±10 on a
half-line), and a failure only beyond 10^±1000 where no tight value points to it.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator

import mpmath
import sympy as sp
from sympy.calculus.singularities import singularities

from rdpsym.claims.domains import Domain, holds_value, range_anchor
from rdpsym.claims.numeric_zeros import numeric_zeros
from rdpsym.claims.solution_sets import members
from rdpsym.foundations.budget import time_budget
from rdpsym.foundations.disk_cache import persistent
from rdpsym.foundations.errors import SymbolicTimeout

#: CPU seconds SymPy may take to solve for one relation's points (its kinks, zeros and critical points together).
SECONDS = 1.0
#: The most values tried for one relation (a periodic family in a long interval has many members).
MOST = 24
#: How far beside a singular value its neighbours are taken: a pole's failure set is that narrow where the bound is
#: large (α/(2(α − 3)) ≤ 10⁶ fails within 1.5·10⁻⁷ of 3); 10⁻²⁵⁶ reaches a bound of 10²⁵⁵ beside a simple pole.
BESIDE = tuple(sp.Rational(1, 10**k) for k in (3, 8, 16, 32, 64, 128, 256))
#: The poles of the gamma family searched for, n = 0, −1, …, −(GAMMA_POLES − 1), where the argument is linear.
GAMMA_POLES = 64


#: What ``failure_at`` returns at a point its balls could not decide, and at one beyond the numbers they evaluate.
UNDECIDED = "undecided"
BEYOND_REACH = "beyond reach"


def tight_failure(lhs: sp.Expr, relation: str, rhs: sp.Expr, domain: Domain,
                  failure_at: Callable[..., tuple | str | None],
                  undecided: list | None = None) -> tuple[dict, tuple] | None:
    """(a point, its sides) where an inequality fails at one of its :func:`tight_values` (``failure_at(point)``: the
    sides where the relation fails there, as a sample point is decided, :data:`UNDECIDED` where the balls cannot
    decide, :data:`BEYOND_REACH` past what they evaluate, else None); None where it fails at none.  A halfway point
    (below) is asked with ``deeper=True`` (more bits), and one still undecided is added to ``undecided`` (as is any
    point beyond reach): the relation is as tight there as the balls can see, and the claim is not checked (the zeros
    √2 and √2 + 10⁻⁴⁰⁰ of a product, whose sign between them needs 2 700 bits, were "checked, undecided = 0"; a
    probe).

    In one numeric variable, the other variables at the domain's first sample point.  In several, each variable in
    turn at the points where a part of the difference in that variable alone is tightest (:func:`_tight` with
    ``alone``: a switch of an Abs or a Piecewise condition in it, a zero or critical point of its factors in it), the
    others at short rationals inside their domains as :func:`singular_points` takes them: a failure set that is a
    line or a strip across the other variables (α = 3 for every σ, α in (2, 2.001) for every σ) was checked where σ
    was a variable too (a probe).  Then, in each variable, the points halfway between neighbouring tight values (and
    the domain's finite ends), and, in several, every variable at one of its own tight values at once.  A variable's
    domain may also be a finite set of numbers (its members nearest each value).  A failure set on a curve in several
    variables is not searched.

    >>> x = sp.Symbol("x", real=True)
    >>> fails = lambda p, deeper=False: ("sides",) if p[x] ** 2 - 2 == 0 else None  # (x² − 2)² > 0: exactly at √2
    >>> tight_failure((x**2 - 2) ** 2, ">", sp.S.Zero, Domain({x: sp.Interval(0, 3)}), fails)
    ({x: sqrt(2)}, ('sides',))
    """
    numeric = {s: w for s, w in domain.variables.items() if _searchable(w)}
    free = sorted((lhs.free_symbols | rhs.free_symbols) & numeric.keys(), key=str)
    first = domain.first_point()
    if relation not in ("<", "<=", ">", ">=") or not free or first is None:
        return None
    allowed = domain.where or (lambda point: True)
    base = first if len(free) == 1 else _base_point(first, free, numeric, allowed)
    tried: list[dict] = []

    def fails(values: dict, halfway: bool = False) -> tuple[dict, tuple] | None:
        point = {**base, **values}
        if point in tried or not _allows(allowed, point):
            return None
        tried.append(point)
        sides = failure_at(point, deeper=True) if halfway else failure_at(point)
        if sides in (UNDECIDED, BEYOND_REACH):
            # (a tight value beyond reach, or a point past it, leaves the claim as open as an undecided point)
            if (halfway or sides == BEYOND_REACH) and undecided is not None:
                undecided.append(point)
            return None
        return None if sides is None else (point, sides)

    tightest = {}
    for variable in free:
        where = numeric[variable]
        switches, others, _ = _tight(lhs - rhs, variable, where, alone=len(free) > 1)
        tightest[variable] = [*switches, *others]
        # Beside a switch point too (:data:`BESIDE` away): a jump's failing side may be open, or the point itself
        # undecided in balls (x < 7/5 at 7/5 + 0); a Piecewise jump at √2 to e^{−10⁷(x − √2)} > 1/2 was checked (a
        # probe).
        for value, near in [*((v, True) for v in switches), *((v, False) for v in others)]:
            for at in [value, *(_beside(value, where) if near else ())]:
                if found := fails({variable: at}):
                    return found
        # Between two neighbouring tight values (or a tight value and an end): a relation that fails only between two
        # zeros, (x − √2)(x − √2 − 10⁻²⁰)·e^{sin x} ≥ 0, or (n − N)(n − N − 2) ≥ 0 at N + 1, was checked where each zero
        # itself holds (a probe)
        for at in _between(tightest[variable], where):
            if found := fails({variable: at}, halfway=True):
                return found
    # Every variable at one of its own tight values at once: a failure at a single point of the plane, (x − √2)² +
    # (y − √3)² ≥ 10⁻⁴⁰, is missed with the others held at short rationals (a probe)
    if len(free) > 1 and all(tightest.values()):
        for values in itertools.islice(itertools.product(*(tightest[v][:_COMBINED] for v in free)), MOST * 4):
            if found := fails(dict(zip(free, values))):
                return found
    # The difference's critical points in all its variables at once, where it is a polynomial in them: (x − √2)² +
    # (y − √3)² + (x − √2)(y − √3) ≥ 10⁻⁴⁰ has no tight value in either variable alone (a probe)
    if len(free) > 1:
        for values in _joint_critical(lhs - rhs, free, numeric):
            if found := fails(values):
                return found
    return None


def switch_points(lhs: sp.Expr, rhs: sp.Expr, domain: Domain) -> list[dict]:
    """The points where a Piecewise condition, an Abs, a sign, a Heaviside, a Max or a Min in ``lhs − rhs`` switches,
    each variable in turn, the others at the domain's first sample point; as far as SymPy solves for them within
    :data:`SECONDS` (at most :data:`MOST`).  An identity false only at such a point, Piecewise((0, x = 73/10), (x,
    True)) = x, or a < against a ≤ at 73/10, was checked: the search for tight points is for inequalities, where a
    point beside a switch may fail too; an identity is asked exactly at the switch itself (a review)."""
    first = domain.first_point()
    numeric = {s: w for s, w in domain.variables.items() if _searchable(w)}
    free = sorted((lhs.free_symbols | rhs.free_symbols) & numeric.keys(), key=str)
    if first is None or not free:
        return []
    points: list[dict] = []
    with time_budget(SECONDS, "the switch points of a claim's identity", absorb=True):
        for variable in free:
            t = sp.Dummy("t", real=True)
            where = numeric[variable]
            hull = sp.Interval(where.inf, where.sup)
            for kink in _kinks((lhs - rhs).xreplace({variable: t}), t):
                if kink.free_symbols != {t}:
                    continue  # (a switch that moves with the other variables: not one point of this variable)
                try:
                    values = members(sp.solveset(kink, t, sp.S.Reals), hull, where)
                except SymbolicTimeout:
                    raise
                except Exception:  # noqa: BLE001 - SymPy failing on one switch: no points from it
                    continue
                points.extend({**first, variable: v} for value in values for v in _in(value, where))
                if len(points) >= MOST:
                    return points[:MOST]
    return points


#: The most variables whose joint critical points are solved for.
_JOINT = 3


def _joint_critical(d: sp.Expr, free: list[sp.Symbol], where: dict) -> list[dict]:
    """The points of the domains ``where`` at which every partial derivative of ``d`` in ``free`` vanishes, where ``d``
    is a polynomial in at most :data:`_JOINT` of them, as far as SymPy solves the system within :data:`SECONDS` (of a
    Range or a finite set, the members nearest each coordinate); at most :data:`MOST`."""
    if len(free) > _JOINT or not d.is_polynomial(*free):
        return []
    solutions: list[dict] = []
    with time_budget(SECONDS, "the joint critical points of a claim's relation", absorb=True):
        try:
            solutions = sp.solve([sp.diff(d, v) for v in free], free, dict=True)
        except SymbolicTimeout:
            raise
        except Exception:  # noqa: BLE001 - SymPy failing on the system: no points from it, the claim unchanged
            solutions = []
    out: list[dict] = []
    for solution in solutions:
        if set(solution) != set(free) or not all(v.is_number and v.is_extended_real for v in solution.values()):
            continue  # (a family of solutions, or a complex one)
        choices = [_in(solution[v], where[v]) for v in free]
        out.extend(dict(zip(free, values)) for values in itertools.product(*choices))
    return out[:MOST]


#: The tight values of each variable combined with the others' (their products, at most 4·MOST points).
_COMBINED = 6


def _searchable(where: object) -> bool:
    """An Interval, a Range, or a finite set of real numbers: a variable whose tight values can be solved for."""
    if isinstance(where, sp.FiniteSet):
        return bool(where) and all(v.is_number and v.is_extended_real for v in where)
    return isinstance(where, (sp.Interval, sp.Range))


def _between(values: list[sp.Expr], where: sp.Set) -> list[sp.Expr]:
    """Points of ``where`` beyond the last of ``values`` toward an infinite end of ``where`` (v ± max(1, |v|): twice a
    value of at least 1, one further out, 0 from a negative one), then halfway between neighbouring ``values`` (and
    between the first or last and a finite end of ``where``), in order; of a Range or a finite set, its members
    nearest each such point.  Beyond the last: log α ≤ 3000 on (1, ∞) fails past its one zero e³⁰⁰⁰ only, and was
    reported checked (a probe)."""
    ends = [e for e in (where.inf, where.sup) if e.is_finite]
    try:
        ordered = sorted({*values, *ends}, key=lambda v: sp.Float(v.evalf(60), 60))
    except (TypeError, ValueError):  # (a value that does not evaluate to a real number: no order among them)
        return []
    out: list[sp.Expr] = []
    if values and where.sup is sp.oo:
        out.extend(_in(ordered[-1] + sp.Max(1, sp.Abs(ordered[-1])), where))
    if values and where.inf is -sp.oo:
        out.extend(v for v in _in(ordered[0] - sp.Max(1, sp.Abs(ordered[0])), where) if v not in out)
    for a, b in itertools.pairwise(ordered):
        out.extend(v for v in _in((a + b) / 2, where) if v not in out and v not in values)
    return out[:MOST]


def _base_point(first: dict, free: list[sp.Symbol], numeric: dict, allowed: Callable[[dict], object]) -> dict:
    """The point the exact-point searches hold the other variables at: ``free``'s variables at short rationals
    inside their domains (:func:`_simple`), the rest as at the first sample point; the first sample point itself
    where a variable has no such rational or the domain's condition refuses that point."""
    simple = {**first, **{s: _simple(numeric[s]) for s in free}}
    return simple if None not in simple.values() and _allows(allowed, simple) else first


def tight_values(d: sp.Expr, variable: sp.Symbol, where: sp.Set) -> list[sp.Expr]:
    """Exact values of ``variable`` in ``where`` (an ``Interval`` or ``Range``) at which ``d`` has a kink, a zero or a
    critical point, as far as SymPy solves for them within :data:`SECONDS` (at most :data:`MOST`, kinks first).

    >>> x, n = sp.Symbol("x", real=True), sp.Symbol("n", integer=True)
    >>> tight_values((x - sp.sqrt(2)) ** 2, x, sp.Interval.open(0, 3))
    [sqrt(2)]
    >>> tight_values(sp.Abs(x - sp.pi) - sp.Rational(1, 10), x, sp.Interval(3, 4))
    [pi, -1/10 + pi, 1/10 + pi]
    >>> tight_values((n - 500) ** 2 - 1, n, sp.Range(0, sp.oo))
    [499, 501, 500]
    """
    switches, others, _ = _tight(d, variable, where)
    return [*switches, *others]


@persistent("tight values", keep=lambda found: found[2], returns=tuple)
def _tight(d: sp.Expr, variable: sp.Symbol, where: sp.Set, alone: bool = False) -> tuple[tuple, tuple, bool]:
    """:func:`tight_values` as (the switch points of Abs, sign, Heaviside, Max, Min and Piecewise conditions, the
    zeros and critical points that are not among them, whether SymPy finished within :data:`SECONDS`): kept by
    rdpsym's cache of derivations, the catalogue's claims asking the same at every run.  With ``alone`` (``d`` has
    other variables), only the parts of ``d`` in ``variable`` alone: the switches whose condition holds no other
    symbol, and the zeros and critical points of the product of ``d``'s factors in ``variable`` alone (the others'
    values do not move them; SymPy solving the whole of a derivation's difference for one of its variables took
    seconds a claim, and 120 s for one of the catalogue's, at points beside p = 1/2 it could not decide)."""
    if not _searchable(where) or where.is_empty:
        return (), (), True
    t = sp.Dummy("t", real=True)  # (solved over the reals: an integer variable's equation too, rounded after)
    d = d.xreplace({variable: t})
    hull = sp.Interval(where.inf, where.sup)
    found: list[sp.Expr] = []
    kinks = _kinks(d, t)
    if alone:
        kinks = [k for k in kinks if k.free_symbols == {t}]
    switches = 0  # how many of ``found`` are switch points (the kinks' zeros come first)
    with time_budget(SECONDS, "the points where a claim's relation is tightest", absorb=True) as budget:
        for i, target in enumerate(itertools.chain(kinks, _functions(d, t, alone))):
            try:  # over the reals, filtered here: SymPy's intersection of a periodic family with a long interval
                # lists it, and raised OverflowError on [0, 10²⁰] (a review)
                solved = sp.solveset(target, t, sp.S.Reals)
                exact = members(solved, hull, where)
            except SymbolicTimeout:
                raise
            except Exception:  # noqa: BLE001 - SymPy failing on one equation: its zeros are sought numerically
                solved, exact = None, []
            if solved is None or solved.has(sp.ConditionSet):  # (x·eˣ = 3, x = cos x: left unsolved, or in part)
                try:
                    exact += [v for v in numeric_zeros(target, t, hull, MOST) if v not in exact]
                except SymbolicTimeout:
                    raise
                except Exception:  # noqa: BLE001 - lambdify or mpmath failing on the expression: no zeros from it
                    pass
            values = [v for value in exact for v in _in(value, where)]
            found.extend(v for v in values if v not in found)
            if i < len(kinks):
                switches = len(found)
            if len(found) >= MOST:
                break
    found = found[:MOST]
    return tuple(found[:switches]), tuple(found[switches:]), not budget.spent


def _functions(d: sp.Expr, t: sp.Symbol, alone: bool) -> Iterator[sp.Expr]:
    """The functions whose zeros are :func:`_tight`'s zeros and critical points, made as they are asked for (within
    its budget): ``d`` and ``d′``; with ``alone``, the product of ``d``'s factors in ``t`` alone and its derivative."""
    if alone:
        # The critical points of the terms in t alone, where no other term holds t: d's critical points in t whatever
        # the others are ((x − √2)² + (y − √3)²: x = √2 for every y)
        terms = sp.Add.make_args(d)
        additive = sp.Add(*(e for e in terms if e.free_symbols == {t}))
        if additive.has(t) and not any(t in e.free_symbols for e in terms if e.free_symbols != {t}):
            yield sp.diff(additive, t)
        d = sp.Mul(*(f for f in sp.Mul.make_args(sp.factor_terms(d)) if f.free_symbols == {t}))
        if not d.has(t):
            return
    yield d
    yield sp.diff(d, t)


def singular_points(sides: tuple[sp.Expr, ...], domain: Domain) -> tuple[list[dict], list[dict]]:
    """(points of ``domain`` at, and points just beside, the exact values of one numeric variable where a side is
    singular (:func:`singular_values`, the other variables kept as symbols)), the other variables at short rationals
    inside their domains (:func:`_simple`; the first sample point where the domain's condition refuses them), a value
    that depends on them taken only where they are short rationals (SymPy's exact arithmetic on 10³⁰-sized edges did
    not finish); beside: :data:`BESIDE` away, or a Range's next members;
    at most :data:`MOST` for each variable.  The points at are sample points (a side undefined there leaves the
    claim unknown); the points beside count only by a certified failure, as far points do (both sides of a true
    claim near 0 together, ε = 10⁻⁶⁴ beside sinh ε's zero, are not decided at 1 024 bits).

    >>> a = sp.Symbol("alpha", positive=True)
    >>> at, beside = singular_points((sp.log(a) / (a - sp.pi), sp.S(30)), Domain({a: sp.Interval.open(1, 10)}))
    >>> [p[a] for p in at], [p[a] for p in beside][:2]
    ([pi], [-1/1000 + pi, 1/1000 + pi])
    """
    numeric = {s: w for s, w in domain.variables.items() if isinstance(w, (sp.Interval, sp.Range))}
    free = set().union(*(e.free_symbols for e in sides)) & numeric.keys()
    first = domain.first_point()
    if not free or first is None or not any(_may_be_singular(e) for e in sides):
        return [], []
    allowed = domain.where or (lambda point: True)
    # The other variables at simple values inside their domains, where the domain allows that point: a pole at
    # x = s with s in (1, 2) was missed when s was read at the first sample point, 1 + 10⁻³⁰ (a probe).
    base = _base_point(first, sorted(free, key=str), numeric, allowed)
    at: list[dict] = []
    beside: list[dict] = []
    for variable in sorted(free, key=str):
        where = numeric[variable]
        small = {s: base[s] for s in free - {variable} if _small(base[s])}
        taken = 0
        for value in singular_values(tuple(e for e in sides if variable in e.free_symbols), variable,
                                     sp.Interval(where.inf, where.sup)):
            if not value.free_symbols <= small.keys():
                continue
            value = value.xreplace(small)
            if not value.is_number:
                continue
            for v, into in [*((v, at) for v in _in(value, where)), *((v, beside) for v in _beside(value, where))]:
                point = {**base, variable: v}
                if taken < MOST and point not in at + beside and _allows(allowed, point):
                    into.append(point)
                    taken += 1
    return at, beside


#: The functions with singular points at finite arguments (besides negative powers): a side without any of them, nor
#: a negative power of an expression in a variable, has none, and is not searched (a catalogue run asks for ~600).
_SINGULAR_FUNCTIONS = (sp.log, sp.tan, sp.cot, sp.sec, sp.csc, sp.tanh, sp.coth, sp.csch, sp.sech, sp.gamma,
                       sp.loggamma, sp.digamma, sp.polygamma, sp.beta, sp.factorial, sp.binomial, sp.RisingFactorial,
                       sp.FallingFactorial, sp.harmonic, sp.uppergamma, sp.lowergamma, sp.expint, sp.Ei, sp.li, sp.Li,
                       sp.Ci, sp.Chi, sp.zeta, sp.polylog, sp.lerchphi, sp.atanh, sp.acoth, sp.asec, sp.acsc,
                       sp.asech, sp.acsch, sp.erfinv, sp.erfcinv, sp.LambertW)


def _may_be_singular(e: sp.Expr) -> bool:
    """Whether ``e`` holds a function of :data:`_SINGULAR_FUNCTIONS`, a power with a negative (or symbolic) exponent
    of an expression in a variable, or anything SymPy's own classes may hide one in (a Piecewise, an undefined
    function)."""
    if e.atoms(*_SINGULAR_FUNCTIONS, sp.Piecewise, sp.core.function.AppliedUndef):
        return True
    return any(p.base.free_symbols and not (p.exp.is_number and p.exp.is_nonnegative) for p in e.atoms(sp.Pow))


def _simple(where: sp.Set) -> sp.Rational | None:
    """A short rational inside ``where`` (an Interval or a Range): near its middle, one in from its one finite end,
    or 1/2 on the whole line; None where none is found."""
    if isinstance(where, sp.Range):
        candidates = [range_anchor(where)]
    else:
        lo, hi = where.inf, where.sup
        middle = (lo + hi) / 2 if lo.is_finite and hi.is_finite else lo + 1 if lo.is_finite else \
            hi - 1 if hi.is_finite else sp.S.Half
        candidates = [sp.Rational(str(sp.N(middle, 4))), sp.Rational(str(sp.N(middle, 12)))]
    return next((c for c in candidates if c.is_Rational and _small(c) and holds_value(where, c)), None)


def singular_values(sides: tuple[sp.Expr, ...], variable: sp.Symbol, hull: sp.Interval) -> list[sp.Expr]:
    """Exact values of ``variable`` in ``hull`` where a side is not defined: a pole, a logarithm's zero, a zero of
    tan's cosine, as far as SymPy's ``singularities`` finds them in :data:`SECONDS` (a periodic family by its members
    nearest the hull's middle); a value that depends on the sides' other symbols is given as it is.

    >>> x, s = sp.Symbol("x", real=True), sp.Symbol("s", positive=True)
    >>> singular_values((sp.tan(x), (x**2 - 1) / (x - 1), sp.log(x) / (x - s)), x, sp.Interval(0, 2))
    [pi/2, 1, 0, s]
    """
    return list(_singular_values(tuple(sides), variable, hull)[0])


@persistent("singular values", keep=lambda found: found[1], returns=tuple)
def _singular_values(sides: tuple[sp.Expr, ...], variable: sp.Symbol, hull: sp.Interval) -> tuple[tuple, bool]:
    """(the values, whether SymPy finished within :data:`SECONDS`): kept by rdpsym's cache of derivations, since
    SymPy's search is the same for the same sides, and the catalogue's claims ask it at every run."""
    t = sp.Dummy("t", real=True)
    found: list[sp.Expr] = []
    with time_budget(SECONDS, "the points where a claim's side is singular", absorb=True) as budget:
        for side in sides:
            side = side.xreplace({variable: t})
            try:  # (one denominator for the two searches that read it)
                denominator = sp.denom(sp.together(side))
            except SymbolicTimeout:
                raise
            except Exception:  # noqa: BLE001 - SymPy failing on one side: the searches that need it find nothing
                denominator = sp.S.One
            for search, of in ((_polynomial_poles, denominator), (_gamma_poles, side), (_sympys_singularities, side),
                               (_denominator_zeros, denominator)):
                try:
                    values = search(of, t, hull)
                except SymbolicTimeout:
                    raise
                except Exception:  # noqa: BLE001 - SymPy failing on one side: no points from it, the claim unchanged
                    continue
                found.extend(v for v in values if v not in found)
    return tuple(found[:MOST]), not budget.spent


def _sympys_singularities(side: sp.Expr, t: sp.Symbol, hull: sp.Interval) -> list[sp.Expr]:
    """SymPy's ``singularities`` in ``hull``; and a pole at another variable's value (α = s), as it is."""
    solved = singularities(side, t)
    values = members(solved, hull)
    if isinstance(solved, sp.FiniteSet):
        values += [v for v in solved.args if v.free_symbols and t not in v.free_symbols]
    return values


def _denominator_zeros(denominator: sp.Expr, t: sp.Symbol, hull: sp.Interval) -> list[sp.Expr]:
    """The real zeros in ``hull`` of a side's denominator (1/sin(1/x): SymPy's ``singularities`` did not look)."""
    return members(sp.solveset(denominator, t, sp.S.Reals), hull) if denominator.has(t) else []


def _polynomial_poles(denominator: sp.Expr, t: sp.Symbol, hull: sp.Interval) -> list[sp.Expr]:
    """Rational approximations, to about 60 digits, of the real roots in ``hull`` of a side's denominator where it
    is a polynomial of degree above 4 with rational coefficients (1/(x²⁰ − 3x + 1): SymPy's ``singularities`` ran
    past the budget, and its exact roots, CRootOf, have no certified evaluation, nor a quick one of 60 digits):
    points whose neighbours decide a pole.  mpmath's roots need not be certified here: each point is decided in
    balls where it is."""
    if not denominator.is_polynomial(t) or sp.degree(denominator, t) <= 4 or denominator.free_symbols != {t}:
        return []
    coefficients = sp.Poly(denominator, t).all_coeffs()
    if not all(c.is_Rational for c in coefficients):
        return []
    ctx = mpmath.MPContext()  # (its own precision: mpmath's global one is shared by threads)
    ctx.dps = 70
    roots = ctx.polyroots([ctx.mpf(c.p) / c.q for c in coefficients], maxsteps=200, extraprec=200)
    real = [sp.Rational(ctx.nstr(ctx.re(r), 62, strip_zeros=False)) for r in roots
            if abs(ctx.im(r)) < ctx.mpf(10) ** -50]
    return [r for r in real if hull.contains(r) is sp.true]


def _gamma_poles(side: sp.Expr, t: sp.Symbol, hull: sp.Interval) -> list[sp.Expr]:
    """Where an argument of Γ, log Γ, ψ, ψ⁽ⁿ⁾ or B, linear in the variable, is 0, −1, −2, … (:data:`GAMMA_POLES` of
    them), and where one of Ei's or li's is 0 (1): poles SymPy's ``singularities`` does not know (Γ(x) ≤ 10⁶ on
    [−1/3, 1/2] was checked: a probe)."""
    arguments = [g.args[-1] for g in side.atoms(sp.gamma, sp.loggamma, sp.digamma, sp.polygamma)]
    arguments += [a for g in side.atoms(sp.beta) for a in g.args]
    values = []
    for u in arguments:
        a, b = sp.Poly(u, t).all_coeffs() if u.is_polynomial(t) and sp.degree(u, t) == 1 else (None, None)
        if a is None or not (a.is_number and b.is_number):
            continue
        values += [(-n - b) / a for n in range(GAMMA_POLES)]
    values += [root for g in side.atoms(sp.Ei) for root in sp.solveset(g.args[0], t, sp.S.Reals)
               if isinstance(root, sp.Expr)] if side.has(sp.Ei) else []
    values += [root for g in side.atoms(sp.li) for root in sp.solveset(g.args[0] - 1, t, sp.S.Reals)
               if isinstance(root, sp.Expr)] if side.has(sp.li) else []
    return [v for v in values if v.is_number and hull.contains(v) is sp.true]


def _small(value) -> bool:
    """A rational of at most 12 digits above and below (a value SymPy's exact arithmetic handles at once)."""
    return isinstance(value, sp.Rational) and abs(value.p) < 10**12 and value.q < 10**12


def _beside(value: sp.Expr, where: sp.Set) -> list[sp.Expr]:
    """Points of ``where`` just beside ``value``: :data:`BESIDE` away on each side, or a Range's next members."""
    if isinstance(where, sp.Range):
        step = abs(where.step)
        candidates = [value - step, value + step] if ((value - range_anchor(where)) / step).is_integer else []
    elif isinstance(where, sp.FiniteSet):  # its next members
        members = sorted(where)
        i = members.index(value) if value in members else None
        candidates = [] if i is None else members[max(i - 1, 0):i] + members[i + 1:i + 2]
    else:
        candidates = [value + sign * h for h in BESIDE for sign in (-1, 1)]
    return [v for v in candidates if holds_value(where, v)]


def _allows(condition: Callable[[dict], object], point: dict) -> bool:
    try:
        return bool(condition(point))
    except Exception:  # noqa: BLE001 - the domain's own condition, a user's code: a point it cannot read is not taken
        return False


def _kinks(d: sp.Expr, t: sp.Symbol) -> list[sp.Expr]:
    """The expressions whose zeros are the switch points of ``d``: Abs, sign and Heaviside arguments, differences of
    Max/Min arguments, and the two sides of each Piecewise condition's relations."""
    out: list[sp.Expr] = []
    for atom in d.atoms(sp.Abs, sp.sign, sp.Heaviside):
        out.append(atom.args[0])
    for atom in d.atoms(sp.Max, sp.Min):
        out.extend(a - b for i, a in enumerate(atom.args) for b in atom.args[i + 1:])
    for atom in d.atoms(sp.Piecewise):
        for _, condition in atom.args:
            if isinstance(condition, sp.Basic):
                out.extend(r.lhs - r.rhs for r in condition.atoms(sp.core.relational.Relational))
    return [e for e in out if t in e.free_symbols]


def _in(value: sp.Expr, where: sp.Set) -> list[sp.Expr]:
    """``value`` where it is a member of ``where``; of a Range, its members on both sides of it."""
    if isinstance(where, sp.Range):
        anchor, step = range_anchor(where), abs(where.step)
        steps = (value - anchor) / step
        candidates = [value] if steps.is_integer else [anchor + step * sp.floor(steps),
                                                       anchor + step * sp.ceiling(steps)]
    elif isinstance(where, sp.FiniteSet):  # its members nearest the value, below and above
        below = [v for v in where if (v <= value) == sp.true]
        above = [v for v in where if (v >= value) == sp.true]
        candidates = ([max(below)] if below else []) + ([min(above)] if above else [])
    else:
        candidates = [value]
    return [v for v in candidates if holds_value(where, v)]


__all__ = ["BESIDE", "BEYOND_REACH", "MOST", "SECONDS", "UNDECIDED", "singular_points", "singular_values",
           "tight_failure", "tight_values"]
