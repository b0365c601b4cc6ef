"""Laws in several variables: what they have in common, and where each kind is defined.

Three ways to write a law on ℝ^d (or ℤ^d), each checked at construction like
the one-dimensional densities (nonnegative, normalised; an error only when that
is *definitely* false):

* :class:`~rdpsym.laws.joint.Joint` — a joint pdf (pmf) in a tuple of variables
  on a product of intervals (integer ranges).  ``rdpsym.Continuous(pdf, (x, y))``
  and ``rdpsym.Discrete(pmf, (j, k), support=...)`` build one.  A joint density
  that is a product of per-coordinate factors (``exp`` of a sum of
  per-coordinate terms, times constants) is recognised as such
  (:func:`rdpsym.engine.quadratic.separate`): its coordinates are then
  validated, and later derived, one dimension at a time.
* :class:`~rdpsym.laws.independent.Independent` — the product measure
  P₁ ⊗ P₂ ⊗ … of independent coordinates, ``P ** n`` for n i.i.d. copies (n a
  number or a positive integer symbol).  Each coordinate is any law rdpsym
  knows, continuous or discrete, one-dimensional or not.
* :class:`~rdpsym.laws.multivariate_normal.MultivariateNormal` — N(μ, Σ) with a
  symbolic mean vector and covariance matrix (a SymPy ``Matrix``), Σ symmetric
  and positive definite (Sylvester's criterion; undecided minors are hypotheses).

Normalisation is checked without SymPy's multiple integration: a separable
density by its one-dimensional factors (the engine's rules), a Gaussian one by
the d-dimensional Gaussian integral (completing the square), a finite discrete
one by its exact sum, and anything else, when no parameters are left, by
nested quadrature (:mod:`rdpsym.laws.joint`).

This module holds only their common base, :class:`Law`, and the questions the
derivation asks of any law (:func:`is_multivariate`, :func:`dimension_of`,
:func:`variables_of`), so that each kind sits in its own module above it.
``P ** n`` builds an ``Independent``, which is defined above this module: it
is reached through the registry of :mod:`rdpsym.laws.densities`, filled by
:mod:`rdpsym.laws.independent` when imported.

The built-in mechanisms in several dimensions,
``rdpsym.gaussian(σ, Δ, dimension=d)`` (ℓ₂ sensitivity) and
``rdpsym.laplace(b, Δ, dimension=d)`` (ℓ₁ sensitivity), are in
:mod:`rdpsym.laws.additive_noise`.

>>> import sympy as sp
>>> from rdpsym.laws.joint import Joint
>>> from rdpsym.laws.multivariate_normal import MultivariateNormal
>>> x, y = sp.symbols("x y", real=True)
>>> J = Joint(sp.exp(-x**2/2 - y**2/2) / (2*sp.pi), (x, y))
>>> [str(law.expr) for _, law in J.coordinates()]
['sqrt(2)*exp(-x**2/2)/(2*sqrt(pi))', 'sqrt(2)*exp(-y**2/2)/(2*sqrt(pi))']
>>> s = sp.Symbol("sigma", positive=True)
>>> N = MultivariateNormal([0, 0], sp.diag(s**2, s**2))
>>> N.dimension, (N ** 3).dimension, is_multivariate(N)
(2, 6, True)
"""

from __future__ import annotations

from collections.abc import Mapping

import sympy as sp

from rdpsym.laws.densities import law_builder


class Law:
    """A law in several variables: a :class:`~rdpsym.laws.joint.Joint`, an
    :class:`~rdpsym.laws.independent.Independent` or a
    :class:`~rdpsym.laws.multivariate_normal.MultivariateNormal`.

    ``dimension`` may be symbolic (n i.i.d. copies); ``variables`` are the
    coordinates' symbols when it is a number.  Laws compare and hash by value
    and pickle.
    """

    discrete: bool | None

    @property
    def dimension(self) -> sp.Expr:
        raise NotImplementedError

    @property
    def parameters(self) -> set[sp.Symbol]:
        raise NotImplementedError

    def blocks(self) -> tuple[tuple[object, sp.Expr], ...]:
        """The law as independent blocks ``((law, copies), ...)`` in coordinate order (itself, once, by default)."""
        return ((self, sp.S.One),)

    def joint(self) -> Law:
        """The law as one explicit joint density in its variables (a concrete dimension): a ``Joint``."""
        raise NotImplementedError

    def subs(self, values: Mapping) -> Law:
        raise NotImplementedError

    def __pow__(self, copies: object) -> Law:
        """``P ** n``: n independent copies of this law (an ``Independent``, through the densities' registry)."""
        return law_builder("copies")(self, copies)

    def _key(self) -> tuple:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._key()))


def is_multivariate(*laws: object) -> bool:
    """Whether any of ``laws`` is a law in several variables (the multivariate derivation applies)."""
    return any(isinstance(law, Law) for law in laws)


def dimension_of(law: object) -> sp.Expr:
    """The dimension of a law: 1 for a one-dimensional density."""
    return law.dimension if isinstance(law, Law) else sp.S.One


def variables_of(law: object) -> tuple[sp.Symbol, ...]:
    """The coordinates' symbols (a one-dimensional density's variable; a finite table has none)."""
    if isinstance(law, Law):
        return law.variables
    return (law.var,) if law.var is not None else ()


__all__ = ["Law", "dimension_of", "is_multivariate", "variables_of"]
