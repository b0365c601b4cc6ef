"""The evidence of the record: what established a step's status, one dataclass per kind.

Part of the one record of mathematics (:mod:`rdpsym.foundations.record`): the
reference proved equal, the sample point and digits of a numeric agreement with
the definition, the points a closed form was checked on, a counterexample.
Structured data, never text: ``str(evidence)`` is rendered by :mod:`rdpsym.render`
through :mod:`rdpsym.foundations.operations`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rdpsym.foundations import operations
from rdpsym.foundations.citations import Citation
from rdpsym.foundations.statuses import Relation


@dataclass(frozen=True)
class Evidence:
    """What established a status.  Subclasses are the kinds of evidence; each is data.

    ``str(evidence)`` is its plain-text rendering (by :mod:`rdpsym.render`).
    """

    def __str__(self) -> str:
        return operations.text(self)


@dataclass(frozen=True)
class ProvedEqual(Evidence):
    """Shown symbolically equal to a published formula (``how``: "moments", "both infinite", "expressions")."""

    citation: Citation
    how: str = "moments"


@dataclass(frozen=True)
class NotShownEqual(Evidence):
    """Compared with a published formula, but no symbolic proof of equality was found."""

    citation: Citation


@dataclass(frozen=True)
class AgreesWithDefinition(Evidence):
    """The closed form agrees with the definition (independent quadrature or summation) at ``point``.

    ``digits`` of agreement, or None when both are +∞.  ``integrated_in`` is the
    change of variables ``Eq(t, g(x))`` the definition was integrated in, when it was
    (both laws' images were checked to integrate to 1 there, which checks the map and
    its Jacobian), else None.  ``method`` names the route when it was not the mpmath
    quadrature or summation of :func:`rdpsym.derive.numeric.renyi_divergence_mp`:
    ``"certified quadrature (Arb)"`` (:mod:`rdpsym.derive.certified`), a ball that contains
    the definition's value.
    """

    point: tuple  # ((symbol, exact value), ...), sorted by name
    digits: int | None = 40
    integrated_in: Any = None
    method: str | None = None

    @property
    def values(self) -> dict:
        return dict(self.point)


@dataclass(frozen=True)
class AgreesByRoute(AgreesWithDefinition):
    """Agreement with the definition computed by a named numeric ``route`` in several dimensions.

    ``"coordinates"``: each coordinate's definition by one-dimensional quadrature (summation), the
    moments multiplied; ``"diagonalised"``: the d-dimensional integral in the frame of a numeric
    eigen-decomposition (mpmath) of the integrand's Hessian, read from the raw densities;
    ``"nested"``: nested one-dimensional quadrature over the plane.
    """

    route: str = "coordinates"


@dataclass(frozen=True)
class CheckedOn(Evidence):
    """Where a closed form was checked against the definition: what it claims, and what was covered.

    ``orders``: for a symbolic order, ``((part of the claimed orders, (orders checked there, ...)), ...)``
    — every part of (1, ∞) (and of (0, 1) when the result claims it) has at least one; ``points`` the
    sampled points that agreed; ``branches``: ``((condition, points checked in that branch), ...)`` for
    each branch of a Piecewise result, its ∞ branch included (a branch with 0 points is said in a
    :class:`NotChecked` beside this); ``boundaries``: orders checked next to each boundary that the
    result's conditions draw in the order (one side finite, the other ∞).
    """

    orders: tuple = ()
    points: int = 0
    branches: tuple = ()
    boundaries: tuple = ()


@dataclass(frozen=True)
class WorstCaseChecked(Evidence):
    """The worst case over the sensitivity ball checked numerically: no sampled shift costs more (``shifts`` tried)."""

    shifts: int
    point: tuple = ()


@dataclass(frozen=True)
class NoClosedForm(Evidence):
    """No closed form was found, and why."""

    why: str


@dataclass(frozen=True)
class NotChecked(Evidence):
    """Something the derivation could not establish and skipped (``what``), and ``why``.

    A law built with ``check=False`` whose normalisation is undecided symbolically: the
    result is a divergence only if it is a probability law (checked again at the sample points).
    """

    what: str
    why: str = ""


@dataclass(frozen=True)
class FromDefinition(Evidence):
    """A value computed from the definition to ``dps`` digits: by ``method`` (a certified quadrature: a ball that
    narrow), or, with none named, by mpmath's quadrature agreeing at two working precisions."""

    dps: int
    method: str = ""


@dataclass(frozen=True)
class Proof(Evidence):
    """A symbolic proof of a claim step (``method``: "simplifies to 0", "difference nonnegative ...")."""

    method: str


@dataclass(frozen=True)
class Sampled(Evidence):
    """A relation decided in certified Arb balls at ``points`` sample points, edges included.

    ``undecided`` points could not be decided at ``bits`` bits (``undefined`` of
    them because a side is outside a function's domain there); ``example`` is
    the first of them.
    """

    points: int
    undecided: int = 0
    undefined: int = 0
    example: tuple = ()  # ((name, value), ...) of the first undecided point
    bits: int = 1024


@dataclass(frozen=True)
class Counterexample(Evidence):
    """A point where the relation certifiably fails, with both sides' values there (balls or ±∞)."""

    point: tuple  # ((name, value), ...)
    lhs: Any = None
    rhs: Any = None
    relation: Relation = Relation.EQ
    points: int = 0  # the sample points the relation was to be checked at

    @property
    def values(self) -> dict:
        return dict(self.point)


@dataclass(frozen=True)
class Contradiction(Evidence):
    """A symbolic proof that sampling contradicts (a bug in rdpsym, reported as such)."""

    proof: str
    point: tuple = ()


@dataclass(frozen=True)
class Failure(Evidence):
    """Checking raised an error (the step is unknown, with the error)."""

    error: str


@dataclass(frozen=True)
class NoPoints(Evidence):
    """The domain's constraints left no sample point."""
