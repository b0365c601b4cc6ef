"""Independent coordinates: the product measure P₁ ⊗ P₂ ⊗ … (:class:`Independent`), and ``P ** n``.

Each coordinate is any law rdpsym knows: a one-dimensional density or a law in
several variables.  Its divergence is the sum over coordinates (van
Erven–Harremoës 2014, Theorem 28), which is why the derivation reads the law
as blocks ``((law, copies), ...)`` rather than as one joint density.

``P ** n`` on a density or on a law in several variables is
:meth:`Independent.iid`, reached through the registry of
:mod:`rdpsym.laws.densities` that this module fills when imported (the
densities and :class:`~rdpsym.laws.multivariate.Law` are below this module and
do not import it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import sympy as sp

from rdpsym.foundations.errors import DensityError, NoClosedFormError, ParameterError, must
from rdpsym.foundations.reading import exact
from rdpsym.laws.densities import Density, parameter_values, register_builder
from rdpsym.laws.joint import Joint
from rdpsym.laws.multivariate import Law, dimension_of, variables_of


def _copies(value: object) -> sp.Expr:
    """A number of copies: an integer ≥ 1, or a symbol declared a positive (nonnegative) integer."""
    n = exact(value, "copies") if not isinstance(value, sp.Basic) else value
    if n.is_integer is True and n.is_number and n >= 1:
        return n
    if n.is_integer is True and n.is_nonnegative is True and not n.is_number:
        return n
    raise ParameterError(must("the number of copies", "an integer >= 1, or a Symbol declared integer=True, "
                                                       "positive=True", n))


def _is_law(law: object) -> bool:
    return isinstance(law, (Density, Law))


@dataclass(frozen=True, eq=False, init=False)
class Independent(Law):
    """The product measure P₁ ⊗ P₂ ⊗ … of independent coordinates (``P ** n``: n i.i.d. copies).

    Each coordinate is a one-dimensional density (:class:`~rdpsym.Continuous`,
    :class:`~rdpsym.Discrete`) or a law in several variables; nested products are
    flattened and equal neighbours grouped, so ``blocks`` is ``((law, copies), ...)``.
    Its divergence is the sum over coordinates (van Erven–Harremoës 2014, Theorem 28).

    >>> import sympy as sp, rdpsym
    >>> x = sp.Symbol("x", real=True)
    >>> n = sp.Symbol("n", integer=True, positive=True)
    >>> E = rdpsym.Continuous(sp.exp(-x), x, support=sp.Interval(0, sp.oo))
    >>> (E ** n).dimension, Independent(E, E ** 2).blocks() == ((E, 3),)
    (n, True)
    """

    blocks_: tuple

    def __init__(self, *laws: object):
        blocks: list[list] = []
        for law in laws:
            parts = law.blocks_ if isinstance(law, Independent) else ((law, sp.S.One),)
            for part, copies in parts:
                if not _is_law(part):
                    raise DensityError(must("each coordinate of Independent", "an rdpsym law (Continuous, Discrete, "
                                                                              "Joint, MultivariateNormal, Independent)",
                                            type(part).__name__))
                if copies == 0:
                    continue
                if blocks and blocks[-1][0] == part:
                    blocks[-1][1] += copies
                else:
                    blocks.append([part, copies])
        if not blocks:
            raise DensityError(must("Independent", "at least one coordinate", "none"))
        object.__setattr__(self, "blocks_", tuple((law, sp.S(c)) for law, c in blocks))

    @classmethod
    def iid(cls, law: object, copies: object) -> Independent:
        """``copies`` independent copies of ``law`` (``law ** copies``)."""
        if not _is_law(law):
            raise DensityError(must("the law", "an rdpsym law", type(law).__name__))
        n = _copies(copies)
        out = cls.__new__(cls)
        inner = law.blocks_ if isinstance(law, Independent) else ((law, sp.S.One),)
        object.__setattr__(out, "blocks_", tuple((part, c * n) for part, c in inner))
        return out

    def blocks(self) -> tuple:
        return self.blocks_

    @property
    def discrete(self) -> bool | None:
        kinds = {getattr(law, "discrete", None) for law, _ in self.blocks_}
        return kinds.pop() if len(kinds) == 1 else None

    @property
    def dimension(self) -> sp.Expr:
        return sp.Add(*[dimension_of(law) * c for law, c in self.blocks_])

    @property
    def parameters(self) -> set[sp.Symbol]:
        out: set = set()
        for law, c in self.blocks_:
            out |= law.parameters | c.free_symbols
        return out

    @property
    def copies(self) -> set[sp.Symbol]:
        """The symbols counting copies (n in P ** n)."""
        return set().union(*(c.free_symbols for _, c in self.blocks_))

    def coordinates(self) -> list[object]:
        """Every coordinate law in order (a concrete number of copies)."""
        out = []
        for law, c in self.blocks_:
            if not c.is_number:
                raise NoClosedFormError(f"the number of copies {c} is symbolic: give it a value")
            out += [law] * int(c)
        return out

    @property
    def variables(self) -> tuple[sp.Symbol, ...]:
        """The coordinates' symbols, renamed x_1, x_2, … where coordinates share a name."""
        return tuple(v for _, vs in self._placed() for v in vs)

    def _placed(self) -> list[tuple[object, tuple]]:
        laws = self.coordinates()
        own = [variables_of(law) for law in laws]
        flat = [v for vs in own for v in vs]
        if len(set(flat)) == len(flat) and all(own):
            return list(zip(laws, own))
        base = flat[0].name if flat else "x"
        out, i = [], 1
        for law in laws:
            k = int(dimension_of(law))
            names = tuple(sp.Symbol(f"{base}_{i + j}", **_kind(law)) for j in range(k))
            out.append((law, names))
            i += k
        return out

    def joint(self) -> Joint:
        factors, variables, sets = [], [], []
        for law, names in self._placed():
            if isinstance(law, Density):
                if law.var is None:
                    raise NoClosedFormError("a finite table has no variable to write a joint density in")
                factors.append(law.expr.xreplace({law.var: names[0]}))
                sets.append(law.support)
            else:
                inner = law.joint().renamed(names)
                factors.append(inner.pdf)
                sets += list(inner.support)
            variables += list(names)
        discrete = self.discrete
        if discrete is None:
            raise NoClosedFormError("a product of discrete and continuous coordinates has no joint density")
        return Joint(sp.Mul(*factors), tuple(variables), tuple(sets), discrete, check=False)

    def subs(self, values: Mapping) -> Independent:
        given = parameter_values(values, (self,))
        laws = []
        for law, c in self.blocks_:
            mine = {s: v for s, v in given.items() if s in law.parameters}
            law = law.subs(mine) if mine else law
            laws.append(Independent.iid(law, c.subs(given)))
        return Independent(*laws)

    def __repr__(self) -> str:
        parts = [repr(law) if c == 1 else f"({law!r})**{c}" for law, c in self.blocks_]
        return f"Independent({', '.join(parts)})"

    def _key(self) -> tuple:
        return self.blocks_


def _kind(law: object) -> dict:
    return {"integer": True} if getattr(law, "discrete", False) else {"real": True}


register_builder("copies", Independent.iid)  # P ** n, for a density and for a law in several variables


__all__ = ["Independent"]
