"""The real members of a SymPy solution set inside an interval: what :mod:`rdpsym.claims.critical` tries a claim at.

``solveset`` answers with finite sets, unions, intersections and complements of them, and periodic families (an
``ImageSet`` a·n + b over the integers).  A periodic family has infinitely many members: those about the interval's
middle are taken, and on a Range of integers first those that come nearest its integers (|sin n| ≥ 10⁻⁴ on n ≥ 1
fails below 10⁴ at 355, 710 and 1065 only, the members 113π, 226π and 339π of its zeros' families).  A set SymPy left
unsolved (a ``ConditionSet``) has no members here; its zeros are sought numerically by the caller
(:mod:`rdpsym.claims.numeric_zeros`).
"""

from __future__ import annotations

import itertools

import mpmath
import sympy as sp

from rdpsym.claims.domains import range_anchor
from rdpsym.foundations.precision import sympy_evalf_guard

#: Members taken of a periodic family on each side of the domain's middle, or of 0 on the whole line.
PERIODS = 3


def members(solved: sp.Set, hull: sp.Interval, where: sp.Set | None = None) -> list[sp.Expr]:
    """Real numbers of a solution set inside ``hull``: a finite set's, a union's, an intersection's with an interval,
    a periodic family's (an ``ImageSet`` linear in its integer; with ``where`` a Range, also the members nearest its
    integers); none of a set SymPy left unsolved."""
    if isinstance(solved, sp.FiniteSet):
        return [v for v in solved.args if v.is_number and v.is_extended_real is True and hull.contains(v) is sp.true]
    if isinstance(solved, sp.Union):  # (its parts' members taken in turn: each periodic family's first ones)
        parts = [members(part, hull, where) for part in solved.args]
        taken = (v for row in itertools.zip_longest(*parts) for v in row if v is not None)
        return list(dict.fromkeys(taken))
    if isinstance(solved, sp.Intersection):
        sets = [s for s in solved.args if not isinstance(s, sp.Interval)]
        intervals = [s for s in solved.args if isinstance(s, sp.Interval)]
        if len(sets) != 1:
            return []
        inside = hull
        for interval in intervals:
            inside = inside.intersect(interval)
        return members(sets[0], inside, where) if isinstance(inside, sp.Interval) else []
    if isinstance(solved, sp.Complement):
        return [v for v in members(solved.args[0], hull, where) if solved.args[1].contains(v) is sp.false]
    if isinstance(solved, sp.ImageSet):
        return _periodic(solved, hull, where)
    return []


def _periodic(family: sp.ImageSet, hull: sp.Interval, where: sp.Set | None = None) -> list[sp.Expr]:
    """Members a·n + b (n an integer) of ``family`` inside ``hull``, about :data:`PERIODS` on each side of the hull's
    middle (of 0 on the whole line), nearest it first; with ``where`` a Range, then those of the first
    :data:`_LATTICE_SCAN` members (from the hull's finite end, or about its middle) that lie nearest its integers."""
    if len(family.base_sets) != 1 or family.base_sets[0] != sp.S.Integers:
        return []
    (n,), expr = family.lamda.variables, family.lamda.expr
    a, b = sp.expand(expr).coeff(n, 1), sp.expand(expr).coeff(n, 0)
    if sp.expand(expr - a * n - b) != 0 or not (a.is_number and b.is_number and a.is_nonzero):
        # Not linear in n (1/(2πn): the zeros of sin(1/x)): its members for |n| ≤ 256 that fall in the hull, at
        # most 2·PERIODS + 2 of them
        lo, hi = float(hull.inf), float(hull.sup)  # (a float's test first: SymPy's contains is slow with π)
        members = (expr.xreplace({n: k}) for k in sorted(range(-256, 257), key=abs))
        near = (v for v in members if v.is_number and v.is_finite and lo - 1e-9 <= float(v) <= hi + 1e-9)
        return [v for v in near if hull.contains(v) is sp.true][:2 * PERIODS + 2]
    lo, hi = hull.inf, hull.sup
    middle = (lo + hi) / 2 if lo.is_finite and hi.is_finite else lo if lo.is_finite else hi if hi.is_finite else 0
    centre = int(sp.floor(((middle - b) / a).evalf(30) + sp.S.Half))  # (the member nearest the middle)
    steps = sorted(range(-PERIODS, PERIODS + 2), key=abs)  # nearest the middle first: 0, ±1, ±2, …
    members = [a * (centre + k) + b for k in steps]
    if isinstance(where, sp.Range):  # (those nearest its integers first: there an integer claim is tightest)
        nearest = _nearest_the_lattice(a, b, centre, hull, where)
        members = nearest + [v for v in members if v not in nearest]
    return [v for v in members if hull.contains(v) is sp.true]


#: How many members of a periodic family are scanned for those nearest a Range's integers, and how many are kept.
_LATTICE_SCAN = 4096
_LATTICE_KEPT = PERIODS + 1
#: How far (in members) from the middle the nearest are sought toward an infinite end of the hull.
_LATTICE_REACH = 10**15


def _nearest_the_lattice(a: sp.Expr, b: sp.Expr, centre: int, hull: sp.Interval, where: sp.Range) -> list[sp.Expr]:
    """The members a·k + b of a periodic family, among :data:`_LATTICE_SCAN` of them in ``hull`` (inward from its finite
    ends, or about its middle on the whole line), that lie nearest the integers of ``where``, nearest first.  Those
    about the hull's middle miss them: |sin n| ≥ 10⁻⁴ on n ≥ 1 fails below 10⁴ at 355 (within 3·10⁻⁵ of 113π), 710
    and 1065 only, and it was reported checked (a probe); the integer nearest each member is tried by the caller (its
    Range's members on both sides)."""
    anchor, step = range_anchor(where), abs(where.step)
    lo, hi = hull.inf, hull.sup
    ends = [(e, e is lo) for e in (lo, hi) if e.is_finite]
    ks: set[int] = set()
    span = [centre - _LATTICE_REACH, centre + _LATTICE_REACH]  # the k of the members in the hull (capped)
    for end, lower in ends:  # from each finite end inward
        increasing = bool(a.is_positive) == lower  # (k increasing moves the member inward)
        k_end = ((end - b) / a).evalf(30)
        first = int(sp.ceiling(k_end)) if increasing else int(sp.floor(k_end))
        ks.update(first + (j if increasing else -j) for j in range(_LATTICE_SCAN // len(ends)))
        span[0 if increasing else 1] = first
    if not ends:
        ks.update(range(centre - _LATTICE_SCAN // 2, centre + _LATTICE_SCAN // 2))
    with sympy_evalf_guard(), mpmath.workdps(80):
        if span[0] <= span[1]:
            ks.update(_closest_to_the_lattice(*(mpmath.mpf(sp.N(e, 80)) for e in (a, b, anchor, step)), *span))
    with sympy_evalf_guard(), mpmath.workdps(30):
        A, B = (mpmath.mpf(sp.N(e, 30)) for e in (a, b))
        low, high = (mpmath.mpf(sp.N(e, 30)) if e.is_finite else None for e in (lo, hi))

        def inside(k: int) -> bool:
            v = A * k + B
            return (low is None or v >= low) and (high is None or v <= high)

        def distance(k: int) -> mpmath.mpf:
            steps = (A * k + B - anchor) / step
            return abs(steps - mpmath.nint(steps))

        nearest = sorted((k for k in ks if inside(k)), key=lambda k: (distance(k), k))[:_LATTICE_KEPT]
    return [a * k + b for k in nearest]


def _closest_to_the_lattice(a, b, anchor, step, first: int, last: int) -> list[int]:
    """The k in [first, last] whose a·k + b lies nearest anchor + step·ℤ from below and from above, exactly in the
    integers: with θ = a/step and β = (b − anchor)/step read to 2⁻¹²⁸ (the mpf's given at 80 digits), the least of
    (A·x + B) mod 2¹²⁸ over x = k − first, and of its negative, by :func:`_lowest`.  Scans from the ends see the
    members near them only: |sin n| ≥ 10⁻⁵ on n < 10⁶ fails at n = 208 341 = 66 317π + 10⁻⁵ (a convergent of π), in
    the middle, and was reported checked (a review).

    >>> import mpmath
    >>> with mpmath.workdps(80):
    ...     sorted(_closest_to_the_lattice(mpmath.pi, mpmath.mpf(0), mpmath.mpf(0), mpmath.mpf(1), 1, 10**5))
    [66317, 99532]
    """
    modulus = 2**128
    theta, beta = a / step, (b - anchor) / step
    A = int(mpmath.nint(theta * modulus)) % modulus
    B = int(mpmath.nint((theta * first + beta) * modulus)) % modulus
    count = last - first + 1
    return [first + _lowest(count, modulus, slope, offset)
            for slope, offset in ((A, B), ((-A) % modulus, (-B) % modulus))]


def _lowest(count: int, modulus: int, a: int, b: int) -> int:
    """The least x in [0, count) at which (a·x + b) mod ``modulus`` is least: its least value by bisection on the level
    L, asking whether some x < count has (a·x + b) mod m ≤ L (exactly when adding m − 1 − L to a·x + b carries past a
    multiple of m for fewer than all x: :func:`_floor_sum`), then the least count that reaches it.

    >>> _lowest(10, 7, 3, 5), min(range(10), key=lambda x: ((3 * x + 5) % 7, x))
    (3, 3)
    """
    def reaches(n: int, level: int) -> bool:
        return _floor_sum(n, modulus, a, b + modulus - 1 - level) < _floor_sum(n, modulus, a, b) + n

    below, level = -1, modulus - 1  # (reaches(count, level) holds; reaches(count, below) does not)
    while level - below > 1:
        mid = (below + level) // 2
        below, level = (below, mid) if reaches(count, mid) else (mid, level)
    none, some = 0, count
    while some - none > 1:
        mid = (none + some) // 2
        none, some = (none, mid) if reaches(mid, level) else (mid, some)
    return some - 1


def _floor_sum(n: int, m: int, a: int, b: int) -> int:
    """Σ_{x<n} ⌊(a·x + b)/m⌋ for n, a, b ≥ 0 and m > 0, by the Euclid-like exchange of a and m (O(log m) steps).

    >>> _floor_sum(10, 7, 3, 5) == sum((3 * x + 5) // 7 for x in range(10))
    True
    """
    total = 0
    while n > 0:
        if a >= m:
            total += n * (n - 1) // 2 * (a // m)
            a %= m
        if b >= m:
            total += n * (b // m)
            b %= m
        top = a * n + b
        if top < m:
            break
        n, b = divmod(top, m)
        m, a = a, m
    return total


__all__ = ["PERIODS", "members"]
