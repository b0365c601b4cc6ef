"""How well a step is established (:class:`Status`), and the relation a step asserts (:class:`Relation`).

Part of the one record of mathematics (:mod:`rdpsym.foundations.record`): a
:class:`Status` is the ordered scale every step, derivation and claim is judged
on (a chain is as strong as its weakest link, :func:`weakest`); a
:class:`Relation` is the ``⋈`` of a step ``lhs ⋈ rhs``.  Both are string enums, so
``status == "proved"`` and ``relation == "<="`` read as they should.  Kept apart
from the rules and the evidence, which name them.

>>> Status.PROVED > Status.CHECKED > Status.NUMERIC > Status.REFUTED
True
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Any

from rdpsym.foundations.errors import ParameterError, must


class Status(str, enum.Enum):
    """How well a result, a step or a claim is established; strongest first.

    ``PROVED``   shown symbolically (equal to a published formula, or reduced to
                 a sign SymPy reads under the hypotheses);
    ``CHECKED``  agrees with an independent computation at sampled points:
                 ≥ 40 digits against the definition, or certified in Arb balls;
    ``NUMERIC``  a number computed from the definition (no closed form);
    ``UNKNOWN``  not established: undecided, or a gap (:class:`DontKnow`);
    ``REFUTED``  a counterexample was found.

    ``NUMERIC`` and ``UNKNOWN`` rank alike (neither is a closed form shown to
    hold).  A chain is as strong as its weakest link (:func:`weakest`).  The
    members are strings, so ``status == "proved"`` reads as it should.
    """

    PROVED = "proved"
    CHECKED = "checked"
    NUMERIC = "numeric"
    UNKNOWN = "unknown"
    REFUTED = "refuted"

    @property
    def rank(self) -> int:
        return _RANK[self.value]

    def __lt__(self, other: object) -> bool:
        return self.rank < _status(other).rank

    def __le__(self, other: object) -> bool:
        return self.rank <= _status(other).rank

    def __gt__(self, other: object) -> bool:
        return self.rank > _status(other).rank

    def __ge__(self, other: object) -> bool:
        return self.rank >= _status(other).rank

    def __str__(self) -> str:
        return self.value

    __hash__ = str.__hash__


_RANK = {"proved": 3, "checked": 2, "numeric": 1, "unknown": 1, "refuted": 0}


def _status(value: object) -> Status:
    try:
        return Status(value)
    except ValueError:
        raise ParameterError(must("a status", f"one of {', '.join(_RANK)}", repr(value))) from None


def weakest(statuses: Iterable[Status]) -> Status:
    """The weakest of ``statuses`` (the first of equal rank): a chain is as strong as its weakest link."""
    out = None
    for s in statuses:
        if out is None or s.rank < out.rank:
            out = s
    if out is None:
        raise ParameterError(must("statuses", "at least one status", "none"))
    return out


class Relation(str, enum.Enum):
    """The relation of a step, ``lhs ⋈ rhs``."""

    EQ = "="
    LE = "<="
    LT = "<"
    GE = ">="
    GT = ">"

    @classmethod
    def parse(cls, value: object) -> Relation:
        """A relation from its ASCII or mathematical spelling (``"<="``, ``"≤"``, ``Relation.LE``).

        >>> Relation.parse("≥")
        <Relation.GE: '>='>
        """
        if isinstance(value, Relation):
            return value
        spelled = {"=": "=", "==": "=", "<=": "<=", "≤": "<=", "<": "<", ">=": ">=", "≥": ">=", ">": ">"}
        if isinstance(value, str) and value.strip() in spelled:
            return cls(spelled[value.strip()])
        raise ParameterError(must("relation", "one of =, <=, <, >=, >", repr(value)))

    def holds(self, lhs: Any, rhs: Any) -> bool:
        """``lhs ⋈ rhs`` for two comparable values (numbers, ±∞)."""
        return {"=": lhs == rhs, "<=": lhs <= rhs, "<": lhs < rhs, ">=": lhs >= rhs, ">": lhs > rhs}[self.value]

    def difference(self, lhs: Any, rhs: Any) -> Any:
        """The quantity that must be 0 (``=``) or ≥ 0 / > 0 (inequalities) for the relation to hold."""
        if self is Relation.EQ:
            return lhs - rhs
        return rhs - lhs if self in (Relation.LE, Relation.LT) else lhs - rhs

    @property
    def strict(self) -> bool:
        return self in (Relation.LT, Relation.GT)

    def __str__(self) -> str:
        return self.value

    __hash__ = str.__hash__
