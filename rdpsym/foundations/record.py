"""The one record of mathematics: steps, relations, rules, statuses and evidence.

A derivation of D_α(P‖Q) (:class:`rdpsym.Derivation`) and the proof of a claim
(:class:`rdpsym.claims.Claim`) are the same kind of object: an ordered chain of
:class:`Step` s, each a relation ``lhs ⋈ rhs`` between SymPy objects (or
numbers) and a :class:`Rule` saying why it holds, the way SymPy's
``manualintegrate`` records an integration as a tree of rule dataclasses with
an explicit "don't know" rule (:class:`DontKnow` here).  How well each link,
and so the whole chain, is established is a :class:`Status` on one ordered
scale; *what* established it is :class:`Evidence`, structured data (the
reference proved equal, the sample point and digits of a numeric agreement,
a counterexample).

Nothing here is text for a reader: records hold SymPy objects, numbers and
names.  LaTeX, terminal text, Markdown and JSON are written by
:mod:`rdpsym.render`, which reads records and never changes them; ``str()``
and Jupyter's ``_repr_latex_`` reach it through
:mod:`rdpsym.foundations.operations`.

>>> Status.PROVED > Status.CHECKED > Status.NUMERIC > Status.REFUTED
True
>>> weakest([Status.PROVED, Status.CHECKED, Status.PROVED])
<Status.CHECKED: 'checked'>
>>> Relation.parse("<=") is Relation.LE, Relation.LE.holds(1, 2)
(True, True)

The parts, each its own module: :mod:`.statuses` (:class:`Status`,
:class:`Relation`), :mod:`.citations` (:class:`Citation` and the sources cited),
:mod:`.rules` (:class:`Rule` and its kinds) and :mod:`.evidence`
(:class:`Evidence` and its kinds).  This module holds the :class:`Step` that
joins them, and is the record's one public name: every part is imported from here
(``rdpsym.record``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from rdpsym.foundations.citations import (
    DEFINITION_3,
    GIL_ALAJAJI_LINDER_2013,
    MIRONOV_2017,
    VAN_ERVEN_HARREMOES_2014,
    Citation,
)
from rdpsym.foundations.errors import ParameterError, must
from rdpsym.foundations.evidence import (
    AgreesByRoute,
    AgreesWithDefinition,
    CheckedOn,
    Contradiction,
    Counterexample,
    Evidence,
    Failure,
    FromDefinition,
    NoClosedForm,
    NoPoints,
    NotChecked,
    NotShownEqual,
    Proof,
    ProvedEqual,
    Sampled,
    WorstCaseChecked,
)
from rdpsym.foundations.rules import (
    Additivity,
    AtTheOrder,
    Because,
    ByCases,
    ByIdentity,
    Case,
    ChangeOfVariables,
    ConvexCost,
    Definition,
    DifferentiateMoment,
    Diverges,
    DontKnow,
    ExpectationOfLogRatio,
    FiniteSum,
    GaussianExpectation,
    GaussianIntegral,
    Given,
    IdenticalLaws,
    Largest,
    LHopital,
    LiteratureForm,
    Numeric,
    OnInterval,
    PieceRule,
    PieceSuprema,
    Published,
    QuadraticExponent,
    QuadraticSupremum,
    Rule,
    Separates,
    ShiftCoordinates,
    Simplified,
    Specialised,
    SplitAtKinks,
    SumOfCoordinates,
    SumOfPieces,
    SumOfSquares,
    TakeLogarithm,
    WorstCaseOverBall,
)
from rdpsym.foundations.statuses import Relation, Status, _status, weakest


@dataclass(frozen=True)
class Step:
    """One link of a chain: ``lhs ⋈ rhs`` because ``rule``; ``status`` and ``evidence`` once established.

    ``lhs`` and ``rhs`` are SymPy objects or numbers (the notation of
    :mod:`rdpsym.foundations.notation` for D_α(P‖Q), ∫P^αQ^{1−α}, ...).  A
    ``relation`` may be given by its spelling (``"<="``) and a ``rule`` as the
    author's sentence (a string becomes :class:`Because`).  A ``relation`` of
    None is one computed at each sample point (:class:`rdpsym.claims.Holds`).
    """

    lhs: Any
    relation: Relation | None
    rhs: Any
    rule: Rule = field(default_factory=DontKnow)
    status: Status | None = None
    evidence: tuple = ()

    def __post_init__(self) -> None:
        if self.relation is not None:  # None: the relation is computed at each point (a claim's Holds)
            object.__setattr__(self, "relation", Relation.parse(self.relation))
        if isinstance(self.rule, str):
            object.__setattr__(self, "rule", Because(self.rule))
        if not isinstance(self.rule, Rule):
            raise ParameterError(must("rule", "a Rule (or the author's reason as a string)", repr(self.rule)))
        if self.status is not None:
            object.__setattr__(self, "status", _status(self.status))


def point_items(point: dict, sort: bool = False) -> tuple:
    """A sample point ``{symbol or name: value}`` as ``((key, value), ...)`` for evidence (by name if ``sort``)."""
    items = tuple(point.items())
    if sort:
        items = tuple(sorted(items, key=lambda kv: kv[0].name if isinstance(kv[0], sp.Symbol) else str(kv[0])))
    return items


__all__ = [
    "AgreesWithDefinition", "AtTheOrder", "Because", "CheckedOn", "Citation", "Contradiction", "Counterexample",
    "DEFINITION_3",
    "Definition", "DifferentiateMoment", "Diverges", "DontKnow", "Evidence", "ExpectationOfLogRatio", "Failure",
    "FiniteSum", "FromDefinition", "Given",
    "LHopital", "Largest", "MIRONOV_2017", "NoClosedForm", "NoPoints", "NotShownEqual", "Numeric", "OnInterval",
    "PieceRule", "PieceSuprema", "Proof", "ProvedEqual", "Published", "Relation", "Rule", "Sampled", "Simplified",
    "Specialised", "SplitAtKinks", "Status", "Step", "SumOfPieces", "TakeLogarithm", "point_items", "weakest",
    "ByCases", "ByIdentity", "Case", "ChangeOfVariables", "NotChecked", "VAN_ERVEN_HARREMOES_2014",
]


# Several variables (rdpsym.laws.multivariate, rdpsym.derive.multivariate).
__all__ += [
    "Additivity", "AgreesByRoute", "ConvexCost", "GIL_ALAJAJI_LINDER_2013", "GaussianExpectation", "GaussianIntegral",
    "IdenticalLaws", "LiteratureForm", "QuadraticExponent", "QuadraticSupremum", "Separates", "ShiftCoordinates",
    "SumOfCoordinates", "SumOfSquares", "VAN_ERVEN_HARREMOES_2014", "WorstCaseChecked", "WorstCaseOverBall",
]
