"""The rules of the record: why a step holds, one dataclass per kind of reason.

Part of the one record of mathematics (:mod:`rdpsym.foundations.record`), the way
SymPy's ``manualintegrate`` records an integration as a tree of rule dataclasses
with an explicit "don't know" rule (:class:`DontKnow` here).  Each rule is data
-- SymPy objects, numbers, names and :class:`~rdpsym.foundations.citations.Citation` s --
said in words by :mod:`rdpsym.render`.  The rules of one variable come first,
then those of several variables (:mod:`rdpsym.laws.multivariate`,
:mod:`rdpsym.derive.multivariate`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sympy as sp

from rdpsym.foundations.citations import DEFINITION_3, GIL_ALAJAJI_LINDER_2013, VAN_ERVEN_HARREMOES_2014, Citation


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
    """D_1 = lim_{α→1} log I(α)/(α − 1) = I′(1)/I(1) by l'Hôpital's rule, as I(1) = 1 (P normalises);
    ``from_below``: the limit α → 1⁻, of a moment derived for 0 < α < 1 where it is ∞ above 1."""

    from_below: bool = False


@dataclass(frozen=True)
class DifferentiateMoment(Rule):
    """I′(1): the moment differentiated in α, at α = 1."""


@dataclass(frozen=True)
class ExpectationOfLogRatio(Rule):
    """KL = E_P[log P − log Q]: the log-ratio on each piece a sum of terms, each integrated against P."""


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
    """The largest of several values (``of``: "suprema", "log-ratios", "outcomes", "directions")."""

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
class Specialised(Rule):
    """The closed form ``general`` of the family the laws' numbers sit in (the numbers as symbols, ``values`` the pairs
    (symbol, number)), at the numbers: the laws as written had no closed form of their own."""

    general: sp.Expr
    values: tuple = ()


@dataclass(frozen=True)
class AtTheOrder(Rule):
    """The closed form ``general`` derived for every order (the order the symbol ``symbol``), at the order asked
    for: the definition could not be evaluated at that order itself (why: the derivation's evidence), and the
    form was checked at the orders sampled around it instead."""

    general: sp.Expr
    symbol: sp.Symbol


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
