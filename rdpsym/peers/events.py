"""dp_accounting's events in: :func:`from_dp_event` reads a ``DpEvent`` (or a ledger) into an RDP curve.

dp_accounting describes what a private computation did as a tree of frozen
records, its ``DpEvent`` vocabulary; an accountant walks the tree.  This
module walks the same tree into an :class:`~rdpsym.accounting.curve.RdpCurve`
whose values rdpsym certifies, reading every event by its class name and its
documented fields (dp_accounting itself is never imported):

=====================================  =============================================================
event                                  rdpsym
=====================================  =============================================================
``GaussianDpEvent(σ)``                 ``gaussian(σ)`` (σ = 0: non-private)
``LaplaceDpEvent(b)``                  ``laplace(b)`` (b = 0: non-private)
``RandomizedResponseDpEvent(p, k)``    k = 2: ``randomized_response(1 − p/2)``; k > 2:
                                       ``k_randomized_response(k, noise=p)``; p = 1 or k = 1: no cost;
                                       p = 0: non-private; under an accountant's REPLACE_SPECIAL:
                                       ``k_randomized_response(k, noise=p, relation="replace-special")``
``DiscreteLaplaceDpEvent(a, Δ)``       ``discrete_laplace(scale=1/a, sensitivity=Δ)`` (pmf ∝ e^{−a|x|})
``DiscreteGaussianDpEvent(σ, Δ, d)``   d = 1: ``discrete_gaussian(σ, Δ)``; otherwise Δ²/(2σ²)-zCDP,
                                       which holds in every dimension (Canonne–Kamath–Steinke 2020)
``ZCDpEvent(ρ, ξ)``                    ``zcdp(ρ, ξ)``
``EpsilonDeltaDpEvent(ε, 0)``          ``pure_dp(ε)``; δ > 0 is refused (no finite RDP at any order)
``ExponentialMechanismDpEvent(ε)``     ``exponential_mechanism(ε)``, counted like every other event
``PermuteAndFlipDpEvent(ε)``           ``pure_dp(ε)`` (permute-and-flip is ε-DP)
``PoissonSampledDpEvent(q, e)``        ``sampled_gaussian(q, σ)`` when e is Gaussian (or Gaussians
                                       composed: one Gaussian with σ⁻² = Σ σᵢ⁻²);
                                       ``poisson_sampled(m, q)`` for another single mechanism m
``SampledWithoutReplacementDpEvent``   ``sampled_without_replacement(m, q)``, q = sample_size /
                                       source_dataset_size (the substitution relation)
``SelfComposedDpEvent(e, k)``          k × e, the count applied to every event inside e
``ComposedDpEvent([...])``             the sum of the curves (Mironov 2017, Prop 1)
``NoOpDpEvent``                        no cost
``NonPrivateDpEvent``                  ``non_private()``: ∞ at every order
=====================================  =============================================================

Any other event (``MixtureOfGaussiansDpEvent``, ``SingleEpochTreeAggregationDpEvent``,
``RepeatAndSelectDpEvent``, ``TruncatedSubsampledGaussianDpEvent``,
``SampledWithReplacementDpEvent``, ``UnsupportedDpEvent``, …) is an
:class:`UnsupportedPeerObject` naming its type.  Sampling *with* replacement is
refused on purpose: a record may be drawn several times into one batch, so the
inner mechanism's sensitivity is not the one its event states, and no RDP
bound for it is implemented.

Two neighbouring relations cannot meet in one curve: Poisson sampling is
accounted for adding or removing a record, sampling without replacement for
substituting one (as dp_accounting's accountants require), so a tree holding
both is refused; an accountant's own ``neighboring_relation`` counts too
(``REPLACE_ONE`` is substitution, ``ADD_OR_REMOVE_ONE`` adding or removing).
A tree holding a ``SampledWithoutReplacementDpEvent`` is under substitution
throughout: its other events, before or after that one, are read under it too.
Randomized response is a substitution's pair (one record's value against
another's, or against REPLACE_SPECIAL's special value): where a record is added
or removed (Poisson sampling, or an accountant's ``ADD_OR_REMOVE_ONE``) it is
refused, as dp_accounting refuses it; Poisson-sampled randomized response is
refused under ``REPLACE_SPECIAL`` too.
Under substitution a Gaussian or Laplace event's noise multiplier is against
the contribution bound C of dp_event.py's convention (‖v_i‖ ≤ C), and replacing
a record moves the sum by up to 2C: its mechanism has sensitivity 2, as
dp_accounting's PLD accountant takes it (its RDP accountant takes 1, below the
truth: atlas claims ``dpa-gaussian-replace-one``, ``dpa-laplace-replace-one``,
``dpa-wor-gaussian-event``).  A discrete Laplace or Gaussian event states its
sensitivity as that contribution bound C (dp_event.py), so under substitution
it is doubled too (dp_accounting's accountants refuse these events there).

A ledger is read too: anything with a ``ledger`` property (dp_accounting's
accountants) or a ``build()`` method (``DpEventBuilder``), and the named
tuples of ``DpEvent.to_named_tuple()``.  An event alone says no relation:
:class:`Accounted` pairs it with the one its accountant used (what
``rdpsym verify --event FILE --neighboring-relation NAME`` does), so a JSON
event is read as the accountant read it.

Identical events anywhere in the tree are counted once with their total count,
so a ledger of ten thousand steps is one term of the curve.

>>> GaussianDpEvent = type("GaussianDpEvent", (), {})            # a stand-in with dp_accounting's class name
>>> g = GaussianDpEvent(); g.noise_multiplier = 2.0
>>> SelfComposedDpEvent = type("SelfComposedDpEvent", (), {})
>>> e = SelfComposedDpEvent(); e.event, e.count = g, 4
>>> from_dp_event(e).closed_form                                 # 4 × α/(2·2²)
alpha/2
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

import sympy as sp

from rdpsym.accounting.curve import RdpCurve
from rdpsym.foundations.errors import ParameterError, must
from rdpsym.foundations.reading import MAX_DPS, MAX_MAGNITUDE, integer, nonnegative_parameter, probability_parameter
from rdpsym.laws.mechanisms import (
    exponential_mechanism,
    gaussian,
    laplace,
    pure_dp,
    randomized_response,
    sampled_gaussian,
    zcdp,
)
from rdpsym.peers._reading import (
    UnsupportedPeerObject,
    call_method,
    count,
    held,
    kind,
    noise_scale,
    public,
    read_field,
    read_number,
    read_optional,
    reads_peer_objects,
)
from rdpsym.peers.relations import NEIGHBORING_RELATIONS, Accounted

#: The neighbouring relations a sampled event fixes.
ADD_REMOVE = "add or remove one record"
SUBSTITUTION = "substitute one record"

#: Ceilings on an event tree, checked while it is walked (README, "Ceilings"): its nesting (dp_accounting's
#: trees are a few levels deep; Python's recursion would fail far below 10⁴), the events visited (a ledger of a
#: hundred thousand events reads in about 20 s of CPU, a list holding one event object many times much faster;
#: dp_accounting's own builder folds repeats into one SelfComposedDpEvent; an endless ``events`` iterator
#: would never end) and the distinct events (each is one term of the curve: ten thousand sum in seconds).
MAX_EVENT_DEPTH = 200
MAX_EVENTS_VISITED = 100_000
MAX_DISTINCT_EVENTS = 10_000

#: Significant digits to which an irrational effective noise multiplier is rounded *down* (less noise: a
#: larger, so still valid, RDP) for the subsampled-Gaussian computation, which takes rational parameters:
#: beyond the most digits any rdpsym computation gives (MAX_DPS), so the rounding never shows.  (It was 60
#: decimal places: a σ of 10⁻⁶² became 0, non-private, and 100 digits asked were wrong from the 60th.)
_SIGMA_DIGITS = MAX_DPS + 30

#: The largest total count of one event (the ceiling of every count rdpsym reads).
_MAX_COUNT = 10**MAX_MAGNITUDE

#: Events dp_accounting defines that rdpsym does not account, with the reason.
_REFUSED = {
    "SampledWithReplacementDpEvent": "sampling with replacement may put one record several times into a batch, so "
                                     "the inner event's sensitivity does not hold; rdpsym implements no RDP bound "
                                     "for it",
    "UnsupportedDpEvent": "dp_accounting marks it as having no privacy description",
}


@dataclass(frozen=True)
class _Special:
    """A leaf whose curve is not a mechanism's: no privacy cost, or none at all (∞)."""

    name: str


_NO_COST = _Special("no cost")
_NON_PRIVATE = _Special("non-private")


@dataclass(frozen=True)
class _Unfixed:
    """A leaf read before the tree's neighbouring relation was known, as it reads at shift 1 and at shift 2: two
    events alike at one shift may differ at the other (a zCDP event and a discrete Gaussian one of ρ = Δ²/(2σ²)
    read as one leaf at shift 1 were both read again from the first: a review)."""

    at_one: object
    at_two: object


@dataclass(frozen=True)
class _Refused:
    """A reading at shift 2 that was refused: raised if the tree is under substitution."""

    message: str
    kind: type


@dataclass
class _Ledger:
    """What a walk found: each distinct leaf with its total count, and the relations sampling fixed."""

    counts: dict = field(default_factory=dict)
    relations: dict = field(default_factory=dict)
    visited: int = 0
    #: each leaf object read once per walk and shift (by identity: a list holding one event object many times)
    leaves: dict = field(default_factory=dict)
    #: The sum's largest move, in units of the contribution bound C, outside sampling: 2 under substitution.  None
    #: until something fixes it (an accountant's declared relation, or the walk's end): a leaf read before a
    #: SampledWithoutReplacementDpEvent later in the tree puts the tree under substitution is read again then.
    shift: int | None = None
    #: dp_accounting's REPLACE_SPECIAL: a record replaced by a special one (randomized response's pair is a row
    #: against the special value's uniform row; a sum moves by C, as when a record is added or removed).
    special: bool = False
    #: Where the first randomized-response event is: its pair (one record's value against another's) is a
    #: substitution's, with no meaning where a record is added or removed (outside REPLACE_SPECIAL).
    randomized_response: str | None = None

    def leaf(self, event: object, name: str, shift: int | None = None, where: str = ""):
        if name == "RandomizedResponseDpEvent" and self.randomized_response is None:
            self.randomized_response = where or name
        shift = self.shift if shift is None else shift
        key = (id(event), shift)
        if key not in self.leaves:
            leaf = _leaf(event, name, shift or 1, self.special)
            if shift is None and leaf not in (_NO_COST, _NON_PRIVATE):  # (neither depends on the shift)
                try:  # read at both shifts now, where the error names its place in the tree
                    at_two = _leaf(event, name, 2, self.special)
                except ParameterError as exc:  # (raised only if the tree turns out to be under substitution)
                    at_two = _Refused(str(exc), type(exc))
                leaf = _Unfixed(leaf, at_two)
            self.leaves[key] = (event, leaf)  # kept alive: its id stays its own
        return self.leaves[key][1]

    def fix_shift(self) -> None:
        """The shift outside sampling, once the whole tree is read: 2 if it is under substitution (a
        SampledWithoutReplacementDpEvent anywhere), else 1; every leaf read before that is read at it."""
        if ADD_REMOVE in self.relations and self.randomized_response is not None and not self.special:
            # (dp_accounting's RDP accountant refuses it too: randomized response under ADD_OR_REMOVE_ONE, and any
            # Poisson-sampled event but Gaussians; a probe had rdpsym read Poisson-sampled RR with the substitution
            # pair, a curve of no stated relation)
            raise UnsupportedPeerObject(
                f"{self.randomized_response}: randomized response is accounted for substituting one record's value "
                f"(or, under REPLACE_SPECIAL, for replacing it with a special one), and {self.relations[ADD_REMOVE]} "
                "is accounted for adding or removing a record, where randomized response's pair has no meaning; "
                "rdpsym does not read it there")
        if self.shift is None:
            self.shift = 2 if SUBSTITUTION in self.relations else 1
        counts, self.counts = self.counts, {}
        for leaf, k in counts.items():
            if isinstance(leaf, _Unfixed):
                leaf = leaf.at_one if self.shift == 1 else leaf.at_two
                if isinstance(leaf, _Refused):
                    raise leaf.kind(leaf.message)
            self.counts[leaf] = self.counts.get(leaf, 0) + k

    def add(self, leaf: object, k: int) -> None:
        if leaf is not _NO_COST and k:
            if leaf not in self.counts and len(self.counts) >= MAX_DISTINCT_EVENTS:
                raise ParameterError(must("the event", f"at most {MAX_DISTINCT_EVENTS} distinct events (identical "
                                          "events are counted once, with their total count)",
                                          f"more than {MAX_DISTINCT_EVENTS}"))
            total = self.counts.get(leaf, 0) + k
            if total > _MAX_COUNT:
                # (nested counts multiply: two SelfComposed counts of 10⁶⁰⁰ are one of 10¹²⁰⁰, past the curve's
                # ceiling, whose error named "steps", a field no event has)
                raise ParameterError(must("an event's total count (the product of the SelfComposed counts around it, "
                                          "summed over its repeats)", f"at most 10^{MAX_MAGNITUDE}",
                                          f"about 10^{int(total.bit_length() * 0.30103)}"))  # (str: 4300 digits)
            self.counts[leaf] = total

    def enter(self, event: object, path: tuple, where: str) -> tuple:
        """The path of composite events down to ``event``, checked: not too deep, no event inside itself, not
        too many events visited.  Each ceiling is an error naming it, before the curve is computed."""
        self.visited += 1
        if self.visited > MAX_EVENTS_VISITED:
            raise ParameterError(must("the event", f"a tree of at most {MAX_EVENTS_VISITED} events",
                                      f"more (at {where}; an endless iterator of events?)"))
        if len(path) >= MAX_EVENT_DEPTH:
            raise ParameterError(must("the event", f"nested at most {MAX_EVENT_DEPTH} deep", f"deeper (at {where})"))
        if id(event) in path:
            raise ParameterError(must("the event", "a tree (no event inside itself)",
                                      f"{where}, which is one of the events that contain it"))
        return (*path, id(event))

    def relation(self, relation: str, where: str) -> None:
        self.relations.setdefault(relation, where)
        if len(self.relations) > 1:
            (r1, w1), (r2, w2) = list(self.relations.items())[:2]
            raise ParameterError(f"the events mix two neighbouring relations: {w1} is accounted to {r1!r}, {w2} to "
                                 f"{r2!r}; rdpsym composes curves of one relation (account them separately)")

    def curve(self) -> RdpCurve:
        self.fix_shift()
        curves = []
        for leaf, k in self.counts.items():
            c = public("non_private")().curve() if leaf is _NON_PRIVATE else _as_curve(leaf)
            curves.append(c if k == 1 else c * k)
        return sum(curves) if curves else RdpCurve((), label="no privacy cost")


def _as_curve(leaf: object) -> RdpCurve:
    return leaf if isinstance(leaf, RdpCurve) else leaf.curve()


@reads_peer_objects("reading the dp_accounting event")
def from_dp_event(event: object) -> RdpCurve:
    """The RDP curve of a dp_accounting ``DpEvent`` (or ledger), every count honoured; see the module's table.

    An event rdpsym cannot account soundly is an :class:`UnsupportedPeerObject`
    naming its type; a field out of range is a
    :class:`~rdpsym.foundations.errors.ParameterError` naming the event and
    field (``PoissonSampledDpEvent.sampling_probability must be in the closed
    interval [0, 1]; got 3/2.``), before any curve is computed.
    """
    ledger = _Ledger()
    declared = _declared_relation(event)
    # REPLACE_SPECIAL fixes no sampling relation (dp_accounting accounts Poisson sampling under it)
    relation = {"REPLACE_ONE": SUBSTITUTION, "ADD_OR_REMOVE_ONE": ADD_REMOVE}.get(declared or "")
    if relation is not None:
        ledger.relation(relation, f"{kind(event)}.neighboring_relation")
        ledger.shift = 2 if relation == SUBSTITUTION else 1  # (else fixed when the tree is read: _Ledger.fix_shift)
    ledger.special = declared == "REPLACE_SPECIAL"
    _walk(_event_of(event), 1, ledger, "the event", ())
    return ledger.curve()


def _declared_relation(obj: object) -> str | None:
    """The name of the ``neighboring_relation`` an accountant declares, or None (an event declares none)."""
    if kind(obj).endswith("DpEvent"):
        return None
    declared = read_optional(obj, "neighboring_relation", kind(obj))
    name = getattr(declared, "name", None) if declared is not None else None  # (Accounted's too: a _Relation)
    return name if isinstance(name, str) else None


def _event_of(obj: object) -> object:
    """The event a ledger holds: an accountant's ``ledger``, a builder's ``build()``, or the object itself."""
    name = kind(obj)
    if name.endswith("DpEvent"):
        return obj
    if name == "DpEventBuilder" and callable(read_optional(obj, "build", name)):
        return call_method(obj, "build", name)
    ledger = read_optional(obj, "ledger", name)
    if ledger is not None and kind(ledger).endswith("DpEvent"):
        return ledger
    return obj


def _events(event: object, name: str) -> Iterable:
    """A ``ComposedDpEvent``'s events, read defensively (a foreign iterator may raise while it is iterated)."""
    events = read_field(event, "events", name)
    if isinstance(events, (str, bytes, Mapping)) or not isinstance(events, Iterable):  # (a dict: its keys, a probe)
        raise ParameterError(must(f"{name}.events", "a list of events", type(events).__name__))
    # iter() refuses a 0-d NumPy array (Iterable by its class) and an __iter__ that returns a list by a TypeError raised
    # in C, whose last Python frame is this one: named here, not passed on as rdpsym's own error (a review)
    try:
        iterator = iter(events)
    except TypeError as exc:
        raise ParameterError(f"{name}.events raised {type(exc).__name__} as it was iterated: {exc}") from None
    while True:
        try:
            e = next(iterator)
        except StopIteration:
            return
        except Exception as exc:  # noqa: BLE001 - foreign code
            raise ParameterError(f"{name}.events raised {type(exc).__name__} while it was read: {exc}") from None
        yield e


def _walk(event: object, k: int, ledger: _Ledger, where: str, path: tuple) -> None:
    """Add ``k`` times ``event`` to the ledger (compositions recurse with their counts; ``path``: the composite
    events above it, for the ceilings of :meth:`_Ledger.enter`)."""
    name = kind(event)
    if name == "NoOpDpEvent":
        return
    if name == "SelfComposedDpEvent":
        path = ledger.enter(event, path, where)
        n = count(read_field(event, "count", name), f"{name}.count")
        _walk(read_field(event, "event", name), k * n, ledger, f"{name}.event", path)
        return
    if name == "ComposedDpEvent":
        path = ledger.enter(event, path, where)
        for i, e in enumerate(_events(event, name)):
            _walk(e, k, ledger, f"{name}.events[{i}]", path)
        return
    path = ledger.enter(event, path, where)  # a sampled event holds one inside it, walked below this one
    if name == "PoissonSampledDpEvent":
        q = probability_parameter(read_number(event, "sampling_probability", name), f"{name}.sampling_probability",
                                  closed=True)
        ledger.relation(ADD_REMOVE, name)
        _sampled(read_field(event, "event", name), q, "poisson", k, ledger, name, path)
        return
    if name == "SampledWithoutReplacementDpEvent":
        n = integer(read_field(event, "source_dataset_size", name), f"{name}.source_dataset_size", minimum=1)
        m = integer(read_field(event, "sample_size", name), f"{name}.sample_size", minimum=0)
        if m > n:
            raise ParameterError(must(f"{name}.sample_size", f"at most source_dataset_size ({n})", m))
        ledger.relation(SUBSTITUTION, name)
        _sampled(read_field(event, "event", name), sp.Rational(m, n), "without replacement", k, ledger, name, path)
        return
    try:
        leaf = ledger.leaf(event, name, where=where)
    except UnsupportedPeerObject as exc:  # said where it is in the tree: "ComposedDpEvent.events[1]: str is ..."
        raise UnsupportedPeerObject(f"{where}: {exc}") from None
    ledger.add(leaf, k)


def _sampled(inner: object, q: sp.Rational, how: str, k: int, ledger: _Ledger, where: str, path: tuple) -> None:
    """``k`` times the mechanism ``inner`` run on a sample (each record in it with probability q)."""
    if q == 0 or kind(inner) == "NoOpDpEvent":  # an empty sample, or nothing released: no dependence on the data
        return
    # Without replacement a record is substituted: the sum moves by up to 2C (the module docstring).
    shift = 1 if how == "poisson" else 2
    if q == 1:  # the whole dataset
        outer, ledger.shift = ledger.shift, shift
        try:
            _walk(inner, k, ledger, f"{where}.event", path)
        finally:
            ledger.shift = outer
        return
    sigma = _gaussian_sigma(inner, f"{where}.event", ledger, path)
    if sigma is not None:
        if sigma == sp.oo:  # no Gaussian release inside (an empty composition): no privacy cost
            return
        if sigma == 0:
            ledger.add(_NON_PRIVATE, k)
        elif how == "poisson":
            # Mironov–Talwar–Zhang 2019: the exact curve (binomial sum, certified quadrature).
            ledger.add(sampled_gaussian(q=q, sigma=sigma), k)
        else:
            ledger.add(public("sampled_without_replacement")(gaussian(sigma, sensitivity=shift), q), k)
        return
    name = kind(inner)
    if name in ("ComposedDpEvent", "SelfComposedDpEvent", "PoissonSampledDpEvent",
                "SampledWithoutReplacementDpEvent"):
        raise UnsupportedPeerObject(f"{where}: sampling a {name} that is not made of Gaussian events only; rdpsym "
                                    "subsamples one mechanism (or Gaussians, which compose into one)")
    if how == "poisson" and name == "RandomizedResponseDpEvent":  # (under REPLACE_SPECIAL too: a review)
        raise UnsupportedPeerObject(f"{where}.event: Poisson sampling of randomized response is not read: its pair is "
                                    "a record's value against another's (or a special one's), not a record added or "
                                    "removed (dp_accounting refuses it too)")
    leaf = ledger.leaf(inner, name, shift, where=f"{where}.event")
    if leaf is _NO_COST:
        return
    if leaf is _NON_PRIVATE:  # the sample itself may be released: ∞ whenever a record can be in it
        ledger.add(_NON_PRIVATE, k)
        return
    factory = public("poisson_sampled" if how == "poisson" else "sampled_without_replacement")
    ledger.add(factory(leaf, q), k)


def _gaussian_sigma(event: object, where: str, ledger: _Ledger, path: tuple) -> sp.Expr | None:
    """The noise multiplier of one Gaussian equivalent to ``event`` when it is Gaussians (composed), else None.

    k Gaussian releases with noise multipliers σᵢ on one sample are one
    Gaussian mechanism with σ⁻² = Σ σᵢ⁻² (their privacy loss is Gaussian with
    μ² = Σ σᵢ⁻², Mironov 2017 Prop 7 composed by Prop 1, and the sampled
    mixture sees only μ); 0 if some σᵢ is 0 (no noise), ∞ if there is none.
    """
    total = _inverse_variance(event, 1, where, ledger, path)
    if total is None:
        return None
    if total == sp.oo:
        return sp.S.Zero
    if total == 0:
        return sp.oo  # no Gaussian release at all (a count of 0, an empty composition)
    sigma = 1 / sp.sqrt(total)
    if sigma.is_Rational or not total.is_Rational:
        return sigma
    return _rounded_down(Fraction(int(total.q), int(total.p)), _SIGMA_DIGITS)


def _rounded_down(square: Fraction, digits: int) -> sp.Rational:
    """√square rounded down to ``digits`` significant digits, exactly (integer square roots: ⌊√⌊y⌋⌋ = ⌊√y⌋).

    >>> _rounded_down(Fraction(1, 2), 5), float(_rounded_down(Fraction(1, 2 * 10**124), 3))
    (7071/10000, 7.07e-63)
    """
    magnitude = (len(str(square.numerator)) - len(str(square.denominator))) // 2  # ≈ log10 √square
    shift = digits - magnitude  # √square·10^shift has about ``digits`` digits
    if shift >= 0:
        return sp.Rational(math.isqrt(square.numerator * 10 ** (2 * shift) // square.denominator), 10**shift)
    return sp.Integer(math.isqrt(square.numerator // (square.denominator * 10 ** (-2 * shift)))) * 10 ** (-shift)


def _inverse_variance(event: object, k: int, where: str, ledger: _Ledger, path: tuple) -> sp.Expr | None:
    """Σ k·σᵢ⁻² over the Gaussian events of a composition (∞ if some σᵢ = 0), or None if it holds another event."""
    name = kind(event)
    if name == "GaussianDpEvent":
        s = noise_scale(read_field(event, "noise_multiplier", name), f"{name}.noise_multiplier")
        return sp.oo if s == 0 else sp.S.Zero if s == sp.oo else k / s**2
    if name == "SelfComposedDpEvent":
        path = ledger.enter(event, path, where)
        n = count(read_field(event, "count", name), f"{name}.count")
        return _inverse_variance(read_field(event, "event", name), k * n, where, ledger, path) if n else sp.S.Zero
    if name == "ComposedDpEvent":
        path = ledger.enter(event, path, where)
        total = sp.S.Zero
        for e in _events(event, name):
            part = _inverse_variance(e, k, where, ledger, path)
            if part is None:
                return None
            total += part
        return total
    return None


def _leaf(event: object, name: str, shift: int = 1, special: bool = False):
    """The rdpsym mechanism or guarantee of one event (or no cost, or non-private); ``shift``: the largest move of
    the sum a Gaussian or Laplace event's noise is against, in units of C (2 under substitution), and the factor
    of a discrete Laplace or Gaussian event's stated sensitivity (dp_event.py: "if ‖v_i‖ ≤ C, the sensitivity is C",
    a contribution's bound, which substituting a record moves the sum by twice); ``special``: dp_accounting's
    REPLACE_SPECIAL relation (randomized response against the special value's uniform row)."""
    if name == "NonPrivateDpEvent":
        return _NON_PRIVATE
    if name == "GaussianDpEvent":
        s = noise_scale(read_field(event, "noise_multiplier", name), f"{name}.noise_multiplier")
        return _NON_PRIVATE if s == 0 else _NO_COST if s == sp.oo else gaussian(sigma=s, sensitivity=shift)
    if name == "LaplaceDpEvent":
        b = noise_scale(read_field(event, "noise_multiplier", name), f"{name}.noise_multiplier")
        return _NON_PRIVATE if b == 0 else _NO_COST if b == sp.oo else laplace(scale=b, sensitivity=shift)
    if name == "RandomizedResponseDpEvent":
        return _randomized_response(event, name, special)
    if name == "DiscreteLaplaceDpEvent":
        a = nonnegative_parameter(read_number(event, "noise_parameter", name), f"{name}.noise_parameter")
        sensitivity = integer(read_field(event, "sensitivity", name), f"{name}.sensitivity", minimum=0)
        if sensitivity == 0:
            return _NO_COST
        # dp_accounting's pmf is e^{−a|x|}·tanh(a/2): a is the inverse of the scale.
        return _NON_PRIVATE if a == 0 else public("discrete_laplace")(scale=1 / a, sensitivity=shift * sensitivity)
    if name == "DiscreteGaussianDpEvent":
        return _discrete_gaussian(event, name, shift)
    if name == "ZCDpEvent":
        rho = nonnegative_parameter(read_number(event, "rho", name), f"{name}.rho")
        xi = nonnegative_parameter(held(read_optional(event, "xi", name, 0)), f"{name}.xi")
        return _NO_COST if rho == 0 and xi == 0 else zcdp(rho=rho, xi=xi)  # (ρ = 0: ξ at every order)
    if name == "EpsilonDeltaDpEvent":
        eps = nonnegative_parameter(read_number(event, "epsilon", name), f"{name}.epsilon")
        delta = nonnegative_parameter(read_field(event, "delta", name), f"{name}.delta")
        if delta != 0:
            raise UnsupportedPeerObject(f"{name} with delta = {delta} > 0: an (ε, δ)-DP guarantee with δ > 0 bounds "
                                        "no Rényi divergence of any order; rdpsym reads it with δ = 0 only")
        return _NO_COST if eps == 0 else pure_dp(eps)
    if name in ("ExponentialMechanismDpEvent", "PermuteAndFlipDpEvent"):
        eps = nonnegative_parameter(read_number(event, "epsilon", name), f"{name}.epsilon")
        if eps == 0:
            return _NO_COST
        # The exponential mechanism is ε-bounded-range (Cesar–Rogers 2021); permute-and-flip is ε-DP
        # (McKenna–Sheldon 2020), read as such: its tighter Laplace-like curve is not taken without proof.
        return exponential_mechanism(eps) if name == "ExponentialMechanismDpEvent" else pure_dp(eps)
    if name in _REFUSED:
        raise UnsupportedPeerObject(f"{name} is not supported: {_REFUSED[name]}")
    raise UnsupportedPeerObject(f"{name} is not supported: rdpsym has no sound RDP curve for this event type "
                                "(supported: Gaussian, Laplace, RandomizedResponse, DiscreteLaplace, "
                                "DiscreteGaussian, ZCDp, EpsilonDelta with delta = 0, ExponentialMechanism, "
                                "PermuteAndFlip, PoissonSampled, SampledWithoutReplacement, SelfComposed, "
                                "Composed, NoOp, NonPrivate)")


def _randomized_response(event: object, name: str, special: bool = False):
    """k-ary randomized response with noise p: the true bucket with probability 1 − p, else a uniform one.

    Under dp_accounting's REPLACE_SPECIAL relation (``special``) the pair is a bucket's output law against the
    special value's uniform one, and the curve the larger of the two directions (dp_accounting's
    ``_randomized_response_rdp_replace_special``): the substitution curve bounds it (the uniform law is the
    average of the k output laws, and D_α is convex in its second argument, van Erven–Harremoës 2014, Thm 12)
    but is not it, and an audit against a bound called dp_accounting's exact values unsafe.
    """
    p = probability_parameter(read_number(event, "noise_parameter", name), f"{name}.noise_parameter", closed=True)
    k = integer(read_field(event, "num_buckets", name), f"{name}.num_buckets", minimum=1)
    if k == 1 or p == 1:
        return _NO_COST
    if p == 0:
        return _NON_PRIVATE
    if special:
        return public("k_randomized_response")(k=k, noise=p, relation="replace-special")
    if k == 2:
        return randomized_response(1 - p / 2)
    return public("k_randomized_response")(k=k, noise=p)


def _discrete_gaussian(event: object, name: str, shift: int = 1):
    sigma = nonnegative_parameter(read_number(event, "sigma", name), f"{name}.sigma")
    sensitivity = shift * nonnegative_parameter(held(read_optional(event, "sensitivity", name, 1)),
                                                f"{name}.sensitivity")
    dimension = read_optional(event, "dimension", name)
    if sensitivity == 0:
        return _NO_COST
    if sigma == 0:
        return _NON_PRIVATE
    if dimension is not None and integer(dimension, f"{name}.dimension", minimum=1) == 1:
        if not sensitivity.is_integer:  # (named here: the law's own reader names its argument, "sensitivity")
            raise ParameterError(must(f"{name}.sensitivity", "a whole number (the discrete Gaussian adds integer "
                                      "noise to an integer query)", sensitivity / shift))
        return public("discrete_gaussian")(sigma=sigma, sensitivity=sensitivity)
    # Several or unknown dimensions: Δ²/(2σ²)-zCDP holds in every dimension (Canonne–Kamath–Steinke
    # 2020, arXiv:2004.00010, Theorem 15), and is what dp_accounting accounts.
    return zcdp(rho=sensitivity**2 / (2 * sigma**2))


__all__ = ["ADD_REMOVE", "NEIGHBORING_RELATIONS", "SUBSTITUTION", "Accounted", "UnsupportedPeerObject", "from_dp_event"]
