"""Laws with atoms beside a density: P = m·P̃ + Σ_a w_a·δ_a.

A mechanism whose output is clipped (a Gaussian clipped to [0, 1] puts the mass of
each tail on an end) has no density: it is a density part of mass m < 1 and point
masses.  Written as a pdf with ``DiracDelta`` terms,

    rdpsym.Continuous(φ(x)·1_{(0,1)} + Φ(−μ)·DiracDelta(x) + Φ(μ − 1)·DiracDelta(x − 1), x,
                      support=sp.Interval(0, 1))

it is split here into its atoms {a: w_a} (``w·DiracDelta(c·(x − a))`` is w/|c| at a) and its
density part, normalised to P̃ (a :class:`~rdpsym.laws.densities.Continuous`, checked like
any density: it must integrate to m = 1 − Σ w_a).  The divergence of two such laws is
:mod:`rdpsym.derive.atoms`.

This module imports the densities, never the reverse: ``Continuous`` reaches
:func:`with_atoms` through the registry it is entered in below
(:func:`rdpsym.laws.densities.register_builder`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import sympy as sp

from rdpsym.foundations.errors import DensityError, must
from rdpsym.foundations.reading import exact
from rdpsym.laws.densities import Continuous, parameter_values, register_builder

oo = sp.oo


@dataclass(frozen=True, eq=False)
class WithAtoms:
    """A law on the line with a density part of mass ``mass`` (normalised: ``density``, or None when the mass
    is 0) and point masses ``atoms`` ((point, weight), ...), sorted by point.

    >>> x = sp.Symbol("x", real=True)
    >>> P = with_atoms(sp.Rational(1, 2) + sp.DiracDelta(x) / 4 + sp.DiracDelta(2 * x - 2) / 2, x, sp.Interval(0, 1))
    >>> P.mass, P.atoms, P.density.pdf
    (1/2, ((0, 1/4), (1, 1/4)), 1)
    """

    var: sp.Symbol
    density: object  # Continuous | None
    mass: sp.Expr
    atoms: tuple
    support: sp.Interval = field(default=sp.Interval(-oo, oo))
    discrete = False

    @property
    def parameters(self) -> set[sp.Symbol]:
        found = set(self.mass.free_symbols)
        for point, weight in self.atoms:
            found |= point.free_symbols | weight.free_symbols
        return found | (self.density.parameters if self.density is not None else set())

    def subs(self, values: Mapping) -> WithAtoms:
        """The law at parameter values (read by the one reader, and checked again)."""
        laws = (self.density,) if self.density is not None else ()
        given = parameter_values(values, (*laws, _Parameters(self.parameters)))
        density = self.density.subs({s: v for s, v in given.items() if s in self.density.parameters}) \
            if self.density is not None else None
        atoms = tuple((a.xreplace(given), w.xreplace(given)) for a, w in self.atoms)
        return _checked(self.var, density, self.mass.xreplace(given), atoms, self.support.xreplace(given))

    def __repr__(self) -> str:
        atoms = " + ".join(f"{w}·δ({a})" for a, w in self.atoms)
        part = f"{self.mass}·{self.density.pdf} on {self.density.support}" if self.density is not None else ""
        return f"WithAtoms({' + '.join(s for s in (part, atoms) if s)})"


@dataclass(frozen=True)
class _Parameters:
    """The parameters of a law with atoms, as parameter_values reads them (a ``parameters`` attribute)."""

    parameters: set


def with_atoms(pdf: sp.Expr, var: sp.Symbol, support: sp.Interval, check: bool = True) -> WithAtoms:
    """Split a pdf with ``DiracDelta`` terms into its atoms and its normalised density part (see the module)."""
    if not isinstance(support, sp.Interval):
        raise DensityError(must("support", "a SymPy Interval", support))
    atoms: dict = {}
    smooth = []
    for term in sp.Add.make_args(sp.expand(pdf, deep=False, mul=True, power_exp=False, log=False)
                                 if pdf.has(sp.DiracDelta) else pdf):
        if not term.has(sp.DiracDelta):
            smooth.append(term)
            continue
        point, weight = _atom(term, var)
        atoms[point] = atoms.get(point, sp.S.Zero) + weight
    for point in atoms:
        inside = sp.And(point >= support.start, point <= support.end)
        if inside is sp.false:
            raise DensityError(must("an atom's point", f"inside the support {support}", point))
    density_part = sp.Add(*smooth)
    mass = 1 - sp.Add(*atoms.values())
    ordered = tuple(sorted(atoms.items(), key=lambda item: sp.default_sort_key(item[0])))
    if density_part == 0:
        density = None
    else:
        density = Continuous(sp.simplify(density_part / mass) if mass.free_symbols else density_part / mass, var,
                             support, check=check)
    return _checked(density.var if density is not None else var, density, mass, ordered, support)


def _atom(term: sp.Expr, var: sp.Symbol) -> tuple[sp.Expr, sp.Expr]:
    """(a, w) of a term w(x)·DiracDelta(c·(x − a)): its point and weight w(a)/|c|."""
    deltas = [f for f in sp.Mul.make_args(term) if isinstance(f, sp.DiracDelta)]
    if len(deltas) != 1 or len(deltas[0].args) != 1:
        raise DensityError(must("a point mass", "w·DiracDelta(x − a): one delta of order 0 per term", term))
    (delta,) = deltas
    argument = sp.expand(delta.args[0])
    if not argument.is_polynomial(var) or sp.degree(argument, var) != 1:
        raise DensityError(must("a point mass", "DiracDelta of a linear function of the variable", delta))
    c = argument.coeff(var, 1)
    point = sp.simplify(-argument.coeff(var, 0) / c)
    weight = sp.simplify((term / delta).subs(var, point) / sp.Abs(c))
    return exact(point, "an atom's point"), exact(weight, "an atom's weight")


def _checked(var, density, mass, atoms, support) -> WithAtoms:
    """The law, its weights checked: nonnegative, and (numbers) summing to at most 1 with the density part's mass."""
    for point, weight in atoms:
        if weight.is_negative or (weight.is_number and weight.is_zero is False and bool(weight < 0)):
            raise DensityError(must(f"the weight of the atom at {point}", "nonnegative", weight))
    if mass.is_negative:
        raise DensityError(must("the atoms' total weight", "at most 1", 1 - mass))
    if density is None and mass.is_number and mass != 0:
        raise DensityError(f"the atoms weigh {1 - mass} and there is no density part: the law must have mass 1.")
    return WithAtoms(var, density, mass, atoms, support)


def has_atoms(*laws) -> bool:
    return any(isinstance(law, WithAtoms) for law in laws)


register_builder("atoms", with_atoms)  # Continuous(pdf with DiracDelta terms, x) returns a law with atoms


__all__ = ["WithAtoms", "has_atoms", "with_atoms"]
