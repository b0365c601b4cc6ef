"""The records of the numeric routes' reading of two laws: a :class:`Law`, a :class:`Region`, a :class:`Lattice`.

A :class:`Law` is a law's raw data as the user gave it; a :class:`Region` is one
piece on which both laws are smooth (or zero), with their branches there; a
:class:`Lattice` is the run of cells between the jumps of floors of a linear
argument on a long or infinite region, whose cells are built on demand, block by
block (:func:`_cells`, the floors replaced by their values by :func:`_step_value`).
They are read by :func:`rdpsym.quadrature.regions.read_regions` and built by
:mod:`rdpsym.quadrature.lattices`; here so that both, and the quadrature
(:mod:`rdpsym.quadrature.cells`), share one definition.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import pairwise

import sympy as sp

from rdpsym.foundations.precision import sympy_evalf_guard
from rdpsym.quadrature.real_order import _floor

_STEPS = (sp.floor, sp.ceiling, sp.frac)


@dataclass(frozen=True, eq=False)
class Law:
    """A law's raw data: expression, variable and support as given; or a finite ``table``."""

    expr: sp.Expr | None
    var: sp.Symbol | None
    support: sp.Interval | sp.Range | None
    table: Mapping | None = None

    @property
    def discrete(self) -> bool:
        return self.table is not None or isinstance(self.support, sp.Range)


@dataclass(frozen=True)
class Lattice:
    """The jumps of floors/ceilings/fracs of linear arguments on one region: the points
    ``origin + m·step + d`` (m an integer, d in ``offsets``), ``step`` the period of the pattern (1/|a| for
    one floor(a·x + b)).  The region is the union of the blocks n = 0, 1, … (``blocks`` of them, or
    infinitely many when None) counted from ``origin`` in ``direction``; :meth:`cells` gives block n's
    cells with every floor replaced by its value there (smooth branches)."""

    step: sp.Expr
    origin: sp.Expr
    offsets: tuple
    direction: int
    blocks: int | None
    var: sp.Symbol
    p: sp.Expr
    q: sp.Expr
    atoms: tuple
    floors: tuple  # per cell j of block 0 (m = 0): floor(argument) of each atom there
    shifts: tuple  # per atom: a·step, what floor(argument) gains from one block to the next (m → m + 1)

    def cells(self, n: int) -> list[Region]:
        """The cells of block ``n`` (0, 1, … outward from the origin), in increasing order of x."""
        return _cells(self, int(n))

    def __repr__(self) -> str:
        return (f"Lattice(step={self.step}, origin={self.origin}, offsets={self.offsets}, "
                f"direction={self.direction}, blocks={self.blocks})")


@dataclass(frozen=True)
class Region:
    """One piece on which both laws are smooth (or zero): (lo, hi) open for a pdf, [lo, hi] for a pmf;
    ``p`` and ``q`` their branches there.  ``lattice``: the piece is a run of cells between the jumps of
    floors (see :class:`Lattice`; ``p`` and ``q`` keep their floors).  ``cell``: the piece is one such
    cell, its ends are jumps."""

    lo: sp.Expr
    hi: sp.Expr
    p: sp.Expr
    q: sp.Expr
    lattice: Lattice | None = None
    cell: bool = False


def _step_value(f: sp.Expr, x: sp.Symbol, t: sp.Expr, floor_value: sp.Expr | None = None) -> sp.Expr:
    """floor/ceiling/frac f on the cell around t (t not a jump): a number, or arg − floor for frac."""
    argument = f.args[0]
    n = floor_value if floor_value is not None else _floor(argument.xreplace({x: t}))
    if isinstance(f, sp.floor):
        return n
    if isinstance(f, sp.ceiling):
        return n + 1
    return argument - n


@functools.lru_cache(maxsize=4096)
def _cells(lattice: Lattice, n: int) -> list[Region]:
    if n < 0 or (lattice.blocks is not None and n >= lattice.blocks):
        raise IndexError(f"block {n} is outside the lattice's {lattice.blocks} blocks")
    m = n if lattice.direction > 0 else -n - 1
    with sympy_evalf_guard():
        base = lattice.origin + m * lattice.step
        ends = [*lattice.offsets, lattice.step]
        out = []
        for j, (u, v) in enumerate(pairwise(ends)):
            values = {f: _step_value(f, lattice.var, None, floor + m * shift)
                      for f, floor, shift in zip(lattice.atoms, lattice.floors[j], lattice.shifts)}
            out.append(Region(base + u, base + v, lattice.p.xreplace(values), lattice.q.xreplace(values), cell=True))
    return out
