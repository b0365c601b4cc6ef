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
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from rdpsym.foundations import operations
from rdpsym.foundations.errors import ParameterError, must

# --------------------------------------------------------------------------- statuses


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


# --------------------------------------------------------------------------- relations


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


# --------------------------------------------------------------------------- citations


@dataclass(frozen=True)
class Citation:
    """A published source: ``Citation("Mironov 2017", "Proposition 6", "arXiv:1702.07476v3")``."""

    source: str
    item: str = ""
    locator: str = ""  # arXiv id with version, DOI or URL

    def at(self, item: str) -> Citation:
        """The same source at another item."""
        return Citation(self.source, item, self.locator)


#: Mironov, "Rényi Differential Privacy", IEEE CSF 2017, arXiv:1702.07476v3.
MIRONOV_2017 = Citation("Mironov 2017", "", "arXiv:1702.07476v3")
#: Definition 3 of Mironov 2017: the Rényi divergence and its limits α → 1 and α → ∞.
DEFINITION_3 = MIRONOV_2017.at("Definition 3")
#: van Erven, Harremoës, "Rényi Divergence and Kullback–Leibler Divergence", IEEE Trans. Inf. Theory 60(7), 2014,
#: arXiv:1206.2459v2: Theorem 28, D_α(P₁×P₂‖Q₁×Q₂) = D_α(P₁‖Q₁) + D_α(P₂‖Q₂) at every order α ∈ [0, ∞].
VAN_ERVEN_HARREMOES_2014 = Citation("van Erven, Harremoës 2014", "Theorem 28", "arXiv:1206.2459v2")
#: Gil, Alajaji, Linder, "Rényi divergence measures for commonly used univariate continuous distributions",
#: Information Sciences 249 (2013) 124–131: the multivariate Gaussian entry, with Σ_α = αΣ₂ + (1−α)Σ₁.
GIL_ALAJAJI_LINDER_2013 = Citation("Gil, Alajaji, Linder 2013", "the multivariate Gaussian",
                                   "Information Sciences 249")


# --------------------------------------------------------------------------- rules: why a step holds


@dataclass(frozen=True)
class Rule:
    """Why a step holds.  Subclasses are the kinds of reasons; each is data, rendered by :mod:`rdpsym.render`."""


@dataclass(frozen=True)
class Given(Rule):
    """The setting: the laws compared, as given (``supports`` per law, or ``table`` for finite laws)."""

    what: str = "densities"  # "densities" or "laws" (finite tables)
    supports: tuple = ()  # (support of P, support of Q) when they differ, or (common support,)


@dataclass(frozen=True)
class Definition(Rule):
    """The definition used (Mironov 2017 Definition 3), possibly at a limit of the order (1 or ∞)."""

    citation: Citation = DEFINITION_3
    limit: sp.Expr | None = None


@dataclass(frozen=True)
class SplitAtKinks(Rule):
    """The log-densities, split at the non-smooth points of P and Q (and the ends of their supports)."""


@dataclass(frozen=True)
class PieceRule(Rule):
    """One piece integrated (or summed) in closed form by a named rule of :mod:`rdpsym.engine`.

    ``name`` is the engine's rule (``"gaussian"``, ``"exponential"``, ``"gamma"``,
    ``"geometric"``, ..., or ``"sympy.integrate"`` / ``"sympy.summation"`` for the
    time-budgeted SymPy fallback); ``condition`` is when the piece converges
    (``true`` when it always does; else the piece is +∞).
    """

    name: str
    condition: sp.Basic = sp.true

    @property
    def fallback(self) -> bool:
        return self.name.startswith("sympy.")


#: van Erven & Harremoës, "Rényi Divergence and Kullback-Leibler Divergence", IEEE Trans. Inf. Theory 60 (2014).
VAN_ERVEN_HARREMOES_2014 = Citation("van Erven & Harremoës 2014", "data-processing inequality", "arXiv:1206.2459")


@dataclass(frozen=True)
class ChangeOfVariables(Rule):
    """The piece rewritten in t = ``forward`` (a monotone bijection of the piece onto (``lo``, ``hi``)).

    D_α is invariant under a bijection applied to both laws (the data-processing
    inequality holds both ways for an invertible map, ``citation``): the integrand
    P^α Q^{1−α} dx becomes P_t^α Q_t^{1−α} dt, with the Jacobian |dx/dt| entering once
    (``jacobian``; a supremum of log(P/Q) takes none, the two Jacobians cancel).
    """

    variable: sp.Symbol
    forward: sp.Expr
    lo: sp.Expr = sp.S.NegativeInfinity
    hi: sp.Expr = sp.S.Infinity
    jacobian: bool = True
    citation: Citation = VAN_ERVEN_HARREMOES_2014


@dataclass(frozen=True)
class Case(Rule):
    """The derivation under ``condition`` on the parameters (one case of a split the assumptions do not decide).

    ``quantity`` is what had an undecided sign (two non-smooth points that cannot be
    ordered, an end of one support that may lie inside the other): each case is derived
    on the laws with that sign fixed, and checked against the definition there.
    """

    condition: sp.Basic
    quantity: sp.Expr = sp.S.Zero


@dataclass(frozen=True)
class ByCases(Rule):
    """The cases put together: a Piecewise over the conditions (cases with one formula merged)."""


@dataclass(frozen=True)
class ByIdentity(Rule):
    """A rewrite by a named identity (``identity``, an ``Eq`` between SymPy expressions, e.g. erfc z = 1 − erf z).

    The rewritten form equals the raw one term for term; the result is checked against
    the definition after it, like every closed form.
    """

    identity: sp.Basic


@dataclass(frozen=True)
class SumOfPieces(Rule):
    """The pieces added up, grouped by exponential."""


@dataclass(frozen=True)
class FiniteSum(Rule):
    """A finite sum over the outcomes of two finite laws (``kl``: of P·log(P/Q))."""

    kl: bool = False


@dataclass(frozen=True)
class TakeLogarithm(Rule):
    """D_α = log(moment)/(α − 1): the logarithm, divided by ``order − 1``."""

    order: sp.Expr


@dataclass(frozen=True)
class LHopital(Rule):
    """D_1 = lim_{α→1} log I(α)/(α − 1) = I′(1)/I(1) by l'Hôpital's rule, as I(1) = 1 (P normalises)."""


@dataclass(frozen=True)
class DifferentiateMoment(Rule):
    """I′(1): the moment differentiated in α, at α = 1."""


@dataclass(frozen=True)
class OnInterval(Rule):
    """What a quantity is on one piece ``(lo, hi)`` of the common support."""

    lo: sp.Expr
    hi: sp.Expr


@dataclass(frozen=True)
class PieceSuprema(Rule):
    """The supremum of each piece: a constant, or a linear or quadratic function at its vertex or an end."""


@dataclass(frozen=True)
class Largest(Rule):
    """The largest of several values (``of``: "suprema", "log-ratios", "outcomes")."""

    of: str = "suprema"


@dataclass(frozen=True)
class Diverges(Rule):
    """The quantity is +∞, and why.

    ``kind`` is one of ``"support"`` (P has mass on (lo, hi) where Q has none,
    so P^α Q^{1−α} is infinite there for α > 1), ``"integrand"`` (the integrand
    ``expression`` is not integrable on (lo, hi)), ``"unbounded"`` (log(P/Q) is
    unbounded above on (lo, hi)), ``"outcome"`` (an outcome ``at`` with P > 0 = Q), ``"singular"``
    (P and Q have no mass in common: the moment is 0, and log 0/(α − 1) = +∞ for α < 1 too).
    """

    kind: str
    lo: Any = None
    hi: Any = None
    expression: Any = None
    at: Any = None
    for_orders_above_one: bool = True


@dataclass(frozen=True)
class Simplified(Rule):
    """An equivalent, shorter form found by SymPy (the form that is then verified)."""


@dataclass(frozen=True)
class Published(Rule):
    """The formula as a source prints it (the derived result was compared with it: see the evidence)."""

    citation: Citation


@dataclass(frozen=True)
class Numeric(Rule):
    """A number computed from the definition at ``dps`` digits, because no closed form was found (``why``)."""

    dps: int
    why: str = ""


@dataclass(frozen=True)
class Because(Rule):
    """A reason stated by a claim's author, in their words (prose; ``$...$`` spans are math)."""

    reason: str


@dataclass(frozen=True)
class DontKnow(Rule):
    """An explicit gap: the step is not justified (``why`` says what is missing)."""

    why: str = ""


# --------------------------------------------------------------------------- rules in several variables


@dataclass(frozen=True)
class Separates(Rule):
    """The joint density is a constant times a product of per-coordinate factors: independent coordinates."""


@dataclass(frozen=True)
class Additivity(Rule):
    """D_α of a product measure is the sum over its independent coordinates (``citation``: van Erven–Harremoës)."""

    citation: Citation = VAN_ERVEN_HARREMOES_2014


@dataclass(frozen=True)
class IdenticalLaws(Rule):
    """The two laws of a coordinate are the same law: its divergence is 0 (Mironov 2017, Proposition 8)."""


@dataclass(frozen=True)
class SumOfCoordinates(Rule):
    """The coordinates' divergences added, n identical coordinates counted n times."""


@dataclass(frozen=True)
class QuadraticExponent(Rule):
    """α log P + (1 − α) log Q (``kl``: log P − log Q) is log C plus a quadratic polynomial −½xᵀAx + bᵀx + c in x."""

    kl: bool = False


@dataclass(frozen=True)
class GaussianIntegral(Rule):
    """∫_{ℝ^d} exp(−½xᵀAx + bᵀx + c) dx = (2π)^{d/2} det(A)^{−1/2} exp(c + ½bᵀA⁻¹b), completing the square.

    It converges iff A ≻ 0; ``condition`` is that (as Σ_α ≻ 0 when ``covariances``: A = Σ₁⁻¹Σ_αΣ₂⁻¹).
    """

    dimension: sp.Expr
    condition: sp.Basic = sp.true
    covariances: bool = True


@dataclass(frozen=True)
class GaussianExpectation(Rule):
    """E_P of a quadratic: E[xᵀMx] = tr(MΣ₁) + μ₁ᵀMμ₁ and E[x] = μ₁ for P = N(μ₁, Σ₁)."""


@dataclass(frozen=True)
class QuadraticSupremum(Rule):
    """The supremum of −½xᵀMx + βᵀx + γ over ℝ^d (``kind``).

    ``"vertex"``: M ≻ 0, attained at x = M⁻¹β, value γ + ½βᵀM⁻¹β; ``"cases"``: a Piecewise over
    M ≻ 0, M not positive semidefinite (∞), and the semidefinite boundary (a limit).
    """

    kind: str = "vertex"


@dataclass(frozen=True)
class LiteratureForm(Rule):
    """The result rewritten in a published form (``citation``), each rewrite proved by a rational identity."""

    citation: Citation = GIL_ALAJAJI_LINDER_2013


@dataclass(frozen=True)
class ShiftCoordinates(Rule):
    """Adjacent outputs of an additive-noise mechanism: Z^{⊗d} and its shift by v, coordinate by coordinate."""

    norm: int
    radius: sp.Expr


@dataclass(frozen=True)
class SumOfSquares(Rule):
    """Σ_i c·v_i² = c‖v‖₂²: the cost of a shift depends on v through ‖v‖₂ only (rotation invariance)."""


@dataclass(frozen=True)
class ConvexCost(Rule):
    """f(t) = D_α(Z‖t + Z) is convex in t with f(0) = 0 (``why``), hence f(t) ≤ (t/Δ)·f(Δ) on [0, Δ].

    ``proved`` is False when convexity was only checked numerically (f'' ≥ 0 at sample points).
    """

    why: str
    proved: bool = True


@dataclass(frozen=True)
class WorstCaseOverBall(Rule):
    """The maximum over ‖v‖_p ≤ Δ (``norm`` p), attained at v = Δe₁ (``argument``: "sphere" or "one coordinate")."""

    norm: int
    argument: str


# --------------------------------------------------------------------------- evidence: what established it


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
    """A value computed from the definition, agreeing at two working precisions to ``dps`` digits."""

    dps: int


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


# --------------------------------------------------------------------------- steps


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
    "AgreesWithDefinition", "Because", "CheckedOn", "Citation", "Contradiction", "Counterexample", "DEFINITION_3",
    "Definition", "DifferentiateMoment", "Diverges", "DontKnow", "Evidence", "Failure", "FiniteSum", "FromDefinition",
    "Given",
    "LHopital", "Largest", "MIRONOV_2017", "NoClosedForm", "NoPoints", "NotShownEqual", "Numeric", "OnInterval",
    "PieceRule", "PieceSuprema", "Proof", "ProvedEqual", "Published", "Relation", "Rule", "Sampled", "Simplified",
    "SplitAtKinks", "Status", "Step", "SumOfPieces", "TakeLogarithm", "point_items", "weakest",
    "ByCases", "ByIdentity", "Case", "ChangeOfVariables", "NotChecked", "VAN_ERVEN_HARREMOES_2014",
]
# Several variables (rdpsym.laws.multivariate, rdpsym.derive.multivariate).
__all__ += [
    "Additivity", "AgreesByRoute", "ConvexCost", "GIL_ALAJAJI_LINDER_2013", "GaussianExpectation", "GaussianIntegral",
    "IdenticalLaws", "LiteratureForm", "QuadraticExponent", "QuadraticSupremum", "Separates", "ShiftCoordinates",
    "SumOfCoordinates", "SumOfSquares", "VAN_ERVEN_HARREMOES_2014", "WorstCaseChecked", "WorstCaseOverBall",
]
