"""Floors of a linear argument: a piece cut into its cells, or a :class:`~rdpsym.quadrature.region_records.Lattice`.

A ``floor``, ``ceiling`` or ``frac`` of a *linear* argument a·x + b jumps at
infinitely many points x = (n − b)/a, a lattice of step 1/|a|.  A short piece is
cut into its cells (:func:`_cut`: at most :data:`EXPANDED_CELLS` of them); a long
or infinite one is a :class:`~rdpsym.quadrature.region_records.Region` flagged
with its lattice (:func:`_lattice`), whose whole periods
(:func:`_period`, at most :data:`CELLS_PER_PERIOD` cells each) the quadrature
integrates block by block (:mod:`rdpsym.quadrature.cells`).  Of a nonlinear
argument it is refused (:class:`NoClosedFormError`, naming it).
"""

from __future__ import annotations

import math
from itertools import pairwise

import sympy as sp

from rdpsym.foundations.errors import NoClosedFormError
from rdpsym.quadrature.real_order import _ceiling, _floor, _lt, _ordered, _point_inside
from rdpsym.quadrature.region_records import _STEPS, Lattice, Region, _step_value

oo = sp.oo


#: A finite piece with at most this many jumps of a floor/ceiling/frac is cut into its cells; more, and its
#: whole periods are a lattice region.
EXPANDED_CELLS = 256


#: The most cells one period of a lattice may hold (floor(x) beside floor(0.999·x) repeats every 1000).
CELLS_PER_PERIOD = 64


def _split_steps(a: sp.Expr, b: sp.Expr, bp: sp.Expr, bq: sp.Expr, x: sp.Symbol) -> list[Region]:
    """The piece (a, b), cut at the jumps of the floors, ceilings and fracs of its branches."""
    atoms = sorted({f for e in (bp, bq) for f in e.atoms(*_STEPS) if f.has(x)}, key=sp.default_sort_key)
    if not atoms:
        return [Region(a, b, bp, bq)]
    lines = []  # (atom, step h = 1/|a|, a zero z of the argument, slope a)
    for f in atoms:
        argument = f.args[0]
        poly = sp.Poly(argument, x) if argument.is_polynomial(x) else None
        if poly is None or poly.degree() != 1 or not all(c.is_number for c in poly.all_coeffs()):
            raise NoClosedFormError(
                f"{f} is a {type(f).__name__} of a nonlinear argument of {x}: its jumps are no lattice "
                "(only a floor, ceiling or frac of a·x + b is integrated cell by cell)")
        slope, constant = poly.all_coeffs()
        lines.append((f, 1 / abs(slope), -constant / slope, slope))
    period = _period([h for _, h, _, _ in lines], atoms)
    jumps_per_period = sum(int(period / h) for _, h, _, _ in lines)
    if jumps_per_period > CELLS_PER_PERIOD:
        raise NoClosedFormError(f"the jumps of {', '.join(map(str, atoms))} repeat only every {jumps_per_period} "
                                f"cells (more than {CELLS_PER_PERIOD})")
    if a is not -oo and b is not oo and _jump_count(lines, a, b) <= EXPANDED_CELLS:
        return _cut(a, b, bp, bq, x, lines)
    out: list[Region] = []
    if a is -oo and b is oo:
        split = _first_jump(lines, sp.S.Zero)
        return (_split_steps(a, split, bp, bq, x) + _split_steps(split, b, bp, bq, x))
    if a is -oo:
        origin = _last_jump(lines, b)
        lattice = _lattice(origin, -1, None, period, bp, bq, x, lines)
        return [Region(-oo, origin, bp, bq, lattice), *_cut(origin, b, bp, bq, x, lines)]
    origin = _first_jump(lines, a)
    out += _cut(a, origin, bp, bq, x, lines)
    if b is oo:
        return [*out, Region(origin, oo, bp, bq, _lattice(origin, 1, None, period, bp, bq, x, lines))]
    blocks = int(_floor((b - origin) / period))
    end = origin + blocks * period
    if blocks > 0:
        out.append(Region(origin, end, bp, bq, _lattice(origin, 1, blocks, period, bp, bq, x, lines)))
    return out + _cut(end, b, bp, bq, x, lines)


def _period(steps: list, atoms: list) -> sp.Expr:
    """The least common multiple of the lattices' steps (their ratios must be rational)."""
    base = steps[0]
    numerators, denominators = [], []
    for h in steps:
        ratio = h / base if (h / base).is_Rational else sp.simplify(h / base)
        if not ratio.is_Rational:
            raise NoClosedFormError(f"the jumps of {', '.join(map(str, atoms))} have incommensurable steps "
                                    f"({base} and {h}): no common period to integrate by")
        numerators.append(int(ratio.p))
        denominators.append(int(ratio.q))
    return base * sp.Rational(math.lcm(*numerators), math.gcd(*denominators))


def _jumps(lines: list, u: sp.Expr, v: sp.Expr) -> list[sp.Expr]:
    """The jumps strictly inside (u, v) (u, v finite), in order, without repeats."""
    points = []
    for _, h, z, _ in lines:
        first, last = _floor((u - z) / h) + 1, _ceiling((v - z) / h) - 1
        points += [z + m * h for m in range(int(first), int(last) + 1)]
    return _ordered(points)


def _jump_count(lines: list, u: sp.Expr, v: sp.Expr) -> int:
    return sum(max(0, int(_ceiling((v - z) / h) - _floor((u - z) / h) - 1)) for _, h, z, _ in lines)


def _first_jump(lines: list, u: sp.Expr) -> sp.Expr:
    """The first jump at or after u."""
    return _ordered([z + _ceiling((u - z) / h) * h for _, h, z, _ in lines])[0]


def _last_jump(lines: list, v: sp.Expr) -> sp.Expr:
    """The last jump at or before v."""
    return _ordered([z + _floor((v - z) / h) * h for _, h, z, _ in lines])[-1]


def _cut(a: sp.Expr, b: sp.Expr, bp: sp.Expr, bq: sp.Expr, x: sp.Symbol, lines: list) -> list[Region]:
    """The finite piece (a, b) as its cells, each branch with its floors replaced by their values there."""
    if not _lt(a, b):
        return []
    bounds = [a, *_jumps(lines, a, b), b]
    out = []
    for u, v in pairwise(bounds):
        t = _point_inside(u, v)
        values = {f: _step_value(f, x, t) for f, _, _, _ in lines}
        out.append(Region(u, v, bp.xreplace(values), bq.xreplace(values), cell=True))
    return out


def _lattice(origin, direction: int, blocks: int | None, period, bp, bq, x, lines) -> Lattice:
    points = [origin, *_jumps(lines, origin, origin + period), origin + period]
    offsets = tuple(t - origin for t in points[:-1])
    floors = []
    for u, v in pairwise(points):
        t = _point_inside(u, v)
        floors.append(tuple(_floor(f.args[0].xreplace({x: t})) for f, _, _, _ in lines))
    shifts = tuple(sp.Integer(sp.simplify(slope * period)) for _, _, _, slope in lines)
    return Lattice(period, origin, offsets, direction, blocks, x, bp, bq, tuple(f for f, _, _, _ in lines),
                   tuple(floors), shifts)
