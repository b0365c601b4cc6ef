"""The neighbouring relation an event was accounted under: :class:`Accounted` pairs a dp_accounting ``DpEvent`` (which
carries none) with its accountant's, as :func:`~rdpsym.peers.events.from_dp_event` reads an accountant's ledger.
"""

from __future__ import annotations

from dataclasses import dataclass

from rdpsym.foundations.errors import ParameterError, must

#: dp_accounting's ``NeighboringRelation`` names, as an accountant declares them.
NEIGHBORING_RELATIONS = ("ADD_OR_REMOVE_ONE", "REPLACE_ONE", "REPLACE_SPECIAL")


@dataclass(frozen=True)
class Accounted:
    """An event with the neighbouring relation its accountant used, read as that accountant's ledger is.

    A ``DpEvent`` carries no relation (``to_named_tuple()`` has none): its accountant does.  Read alone, randomized
    response is the substitution's pair and a Gaussian has sensitivity 1; an accountant of ``REPLACE_SPECIAL`` read
    a row against the special value's uniform row, one of ``REPLACE_ONE`` a Gaussian of sensitivity 2 (a probe: the
    command line called dp_accounting's exact REPLACE_SPECIAL values unsafe, with no way to say the relation).

    >>> from rdpsym.peers.events import from_dp_event
    >>> RandomizedResponseDpEvent = type("RandomizedResponseDpEvent", (), {})
    >>> rr = RandomizedResponseDpEvent(); rr.noise_parameter, rr.num_buckets = 0.5, 4
    >>> from_dp_event(Accounted(rr, "REPLACE_SPECIAL")).value(2, dps=15)  # log(7/4): dp_accounting's value
    mpf('0.559615787935423')
    >>> from_dp_event(rr).value(2, dps=15)                                 # log(17/5): a bucket for another
    mpf('1.22377543162212')
    """

    ledger: object
    #: one of :data:`NEIGHBORING_RELATIONS`, or dp_accounting's enum member of that name
    neighboring_relation: object

    def __post_init__(self):
        name = getattr(self.neighboring_relation, "name", self.neighboring_relation)
        if name not in NEIGHBORING_RELATIONS:
            raise ParameterError(must("neighboring_relation", "one of " + ", ".join(NEIGHBORING_RELATIONS),
                                      repr(self.neighboring_relation)))
        object.__setattr__(self, "neighboring_relation", _Relation(name))


@dataclass(frozen=True)
class _Relation:
    """A relation by its name, as dp_accounting's enum members are read (``.name``)."""

    name: str


__all__ = ["NEIGHBORING_RELATIONS", "Accounted"]
