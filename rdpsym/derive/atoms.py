"""D_α of laws with atoms beside a density (:mod:`rdpsym.laws.atoms`): the density parts and the atoms apart.

With P = m_P·P̃ + Σ_a p_a·δ_a and Q = m_Q·Q̃ + Σ_a q_a·δ_a, the measure splits into the
line without the atoms (where only the density parts live) and the atoms, and the
integral of the definition is additive over that split:

    ∫ P^α Q^{1−α} = m_P^α·m_Q^{1−α}·∫ P̃^α Q̃^{1−α} + Σ_a p_a^α·q_a^{1−α},

with ∫ P̃^α Q̃^{1−α} = e^{(α−1)·D_α(P̃‖Q̃)}, derived and checked on its own by the core.  For
α > 1 an atom of P where Q has none, or a density part of P where Q has none, makes D_α = ∞;
below 1 they add 0.  KL: Σ_a p_a·log(p_a/q_a) + m_P·(D_KL(P̃‖Q̃) + log(m_P/m_Q)).  D_∞: the
larger of log(m_P/m_Q) + D_∞(P̃‖Q̃) and max_a log(p_a/q_a), over the parts where P has mass.

At a symbolic order α the split is made twice, once for α > 1 and once for 0 < α < 1 (the density
parts' own result read in each, the parts of P that meet no mass of Q counted as ∞ above 1 and
dropped below it); the two are one formula or joined into Piecewise((below, α < 1), (above, True)),
and the whole is checked against the definition of the whole laws at sampled orders in every part
of (0, 1) ∪ (1, ∞) and sampled parameter points (:class:`WholeLawsCheck`).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable

import mpmath
import sympy as sp

from rdpsym.derive.check_loop import Check
from rdpsym.derive.definition import same_law, univariate_divergence_mp
from rdpsym.derive.derivation import Derivation
from rdpsym.derive.univariate import univariate_divergence
from rdpsym.derive.values import shown
from rdpsym.engine.context import Hypotheses
from rdpsym.foundations.errors import (
    ConvergenceError,
    DomainError,
    NoClosedFormError,
    VerificationError,
    must,
)
from rdpsym.foundations.notation import P as P_
from rdpsym.foundations.notation import Q as Q_
from rdpsym.foundations.notation import RenyiDivergence
from rdpsym.foundations.numbers import exact_mpf
from rdpsym.foundations.precision import digits_next_to_one
from rdpsym.foundations.reading import MAX_DPS, parse_order
from rdpsym.foundations.record import AgreesWithDefinition, Because, NotChecked, Status, Step, weakest
from rdpsym.laws.atoms import WithAtoms
from rdpsym.laws.densities import Continuous, parameter_values

oo = sp.oo
#: How the derivation names its one step.
SPLIT = ("the integral of the definition is additive over the atoms and the line without them: the density "
         "parts' moment m_P^α m_Q^{1−α} e^{(α−1)D_α(P̃‖Q̃)}, plus Σ p_a^α q_a^{1−α} over the atoms")


@dataclasses.dataclass(frozen=True)
class Parts:
    """A law as (normalised density part or None, its mass, {point: weight})."""

    density: Continuous | None
    mass: sp.Expr
    atoms: dict


def parts(law) -> Parts:
    if isinstance(law, WithAtoms):
        return Parts(law.density, law.mass, dict(law.atoms))
    if isinstance(law, Continuous):
        return Parts(law, sp.S.One, {})
    raise DomainError("a law with atoms is compared with a law on the line (Continuous, or one with atoms); "
                      f"got {type(law).__name__}")


@dataclasses.dataclass(frozen=True)
class _Arithmetic:
    """How the composition computes: SymPy expressions (the derivation) or mpmath numbers (the definition)."""

    inf: object
    log: Callable
    exp: Callable
    number: Callable  # a weight, a mass or an order, as this arithmetic's number
    largest: Callable
    is_inf: Callable


SYMBOLIC = _Arithmetic(oo, sp.log, sp.exp, lambda v: sp.Float(v, 50) if isinstance(v, mpmath.mpf) else v,
                       lambda values: sp.Max(*values), lambda v: v == oo)
NUMERIC = _Arithmetic(mpmath.inf, mpmath.log, mpmath.exp, lambda v: _mpf(v), max, mpmath.isinf)


def _compose(P: Parts, Q: Parts, order, part, ar: _Arithmetic):
    """D_order(P‖Q) from the density parts' divergence ``part(P̃, Q̃)`` and the atoms (module docstring), in the
    arithmetic ``ar``; ∞ where a part of P meets no mass of Q at an order ≥ 1."""
    pieces = []  # (log of P's mass there, log of Q's mass there, the density parts' D or None for an atom)
    if P.density is not None:
        if Q.density is None:
            if order >= 1:
                return ar.inf
        else:
            pieces.append((ar.log(ar.number(P.mass)), ar.log(ar.number(Q.mass)), ar.number(part(P.density, Q.density))))
    for point, weight in P.atoms.items():
        other = Q.atoms.get(point, sp.S.Zero)
        if weight == 0:
            continue
        if other == 0:
            if order >= 1:
                return ar.inf
            continue  # below 1 an atom Q does not share adds 0 to the moment
        pieces.append((ar.log(ar.number(weight)), ar.log(ar.number(other)), None))
    if order is oo:  # the largest log-ratio over the parts where P has mass
        return ar.largest([lp - lq + (D if D is not None else 0) for lp, lq, D in pieces])
    if order == 1:  # Σ mass·(log-ratio of the masses + the density parts' KL)
        return sum(ar.exp(lp) * (lp - lq + (D if D is not None else 0)) for lp, lq, D in pieces)
    a = ar.number(order)
    moment = 0
    for lp, lq, D in pieces:
        if D is not None and ar.is_inf(D):
            if order > 1:
                return ar.inf
            continue  # below 1 a density part of P where Q has none adds 0
        moment += ar.exp(a * lp + (1 - a) * lq + ((a - 1) * D if D is not None else 0))
    return ar.log(moment) / (a - 1) if moment != 0 else ar.inf


def divergence(P, Q, order: object):
    """D_order(P‖Q) (a Derivation) for laws one or both of which have atoms (module docstring)."""
    order = parse_order(order)
    if isinstance(order, sp.Symbol):
        return _symbolic(P, Q, order)
    Pp, Qp = parts(P), parts(Q)
    derivations = []

    def part(Pd, Qd):
        d = univariate_divergence(Pd, Qd, order)
        derivations.append(d)
        return d.result

    result = _compose(Pp, Qp, order, part, SYMBOLIC)
    status = weakest(tuple(d.status for d in derivations)) if derivations else Status.PROVED
    if any(isinstance(d.result, mpmath.mpf) for d in derivations):
        # A numeric part: the whole from the definition, with the digits α − 1 costs next to 1 (the part's
        # 50-digit value composed symbolically kept 6 of them at α = 1 + 10⁻⁴⁵, "numeric"; a probe).
        result = divergence_mp(P, Q, order, dps=50) if result != oo else result
    step = Step(RenyiDivergence(P_, Q_, order), "=", result, Because(SPLIT), status)
    evidence = tuple(e for d in derivations for e in d.evidence)
    if status in (Status.PROVED, Status.CHECKED):
        evidence = (*evidence, _checked_whole(P, Q, order, result))
    return Derivation(order=order, result=result, status=status,
                      steps=(*(s for d in derivations for s in d.steps), step), evidence=evidence)


def _symbolic(P, Q, order: sp.Symbol) -> Derivation:
    """D_α(P‖Q) at a symbolic order: the split for α > 1 and for 0 < α < 1 (module docstring), checked whole."""
    if order in P.parameters | Q.parameters:
        raise DomainError(must("order", f"a symbol that is not a parameter of P or Q (rename {order} in the laws)",
                               order))
    Pp, Qp = parts(P), parts(Q)
    density = univariate_divergence(Pp.density, Qp.density, order) \
        if Pp.density is not None and Qp.density is not None else None
    above, below = (_region(Pp, Qp, order, density, Hypotheses(order, below_one=low)) for low in (False, True))
    result = above if below == above else sp.piecewise_fold(sp.Piecewise((below, order < 1), (above, True)))
    evidence = []
    for low, claimed in ((False, above), (True, below)):  # each part of the orders against its own formula
        evidence += WholeLawsCheck(P, Q, order, claimed, Hypotheses(order, below_one=low)).run()
    status = weakest((density.status, Status.CHECKED)) if density is not None else Status.CHECKED
    step = Step(RenyiDivergence(P_, Q_, order), "=", result, Because(SPLIT), status)
    steps = (*density.steps, step) if density is not None else (step,)
    evidence = (*density.evidence, *evidence) if density is not None else tuple(evidence)
    return Derivation(order=order, result=result, status=status, steps=steps, closed_form=result,
                      hypotheses=(sp.Ne(order, 1),), evidence=evidence)


def _region(P: Parts, Q: Parts, a: sp.Symbol, density: Derivation | None, hyp: Hypotheses) -> sp.Expr:
    """D_α for the orders of ``hyp`` (α > 1, or 0 < α < 1): the moment's terms of the parts where both laws have
    mass, ∞ above 1 where a part of P meets none of Q (below 1 such a part adds 0)."""
    orphan = any(w != 0 and Q.atoms.get(point, sp.S.Zero) == 0 for point, w in P.atoms.items())
    terms = [w**a * Q.atoms[point] ** (1 - a) for point, w in P.atoms.items()
             if w != 0 and Q.atoms.get(point, sp.S.Zero) != 0]
    conditions: tuple = ()
    if P.density is not None:
        if density is None:
            orphan = True
        else:
            value, conditions = _read_in(density.result, hyp)
            if value == oo:  # the density parts meet nowhere (below 1) or P's reaches where Q's is 0 (above)
                orphan, conditions = True, ()
            else:
                # powsimp: the masses' powers m^{1−α} meet the density part's normalisation m^{α−1}
                terms.append(sp.powsimp(P.mass**a * Q.mass ** (1 - a) * sp.exp((a - 1) * value)))
    if (orphan and not hyp.below_one) or not terms:
        return oo
    value = sp.log(sp.Add(*terms)) / (a - 1)
    return sp.Piecewise((value, sp.And(*conditions)), (oo, True)) if conditions else value


def _read_in(result, hyp: Hypotheses) -> tuple[sp.Expr, tuple]:
    """(value, conditions) of the density parts' result for the orders of ``hyp``: the branches the hypothesis
    decides chosen, what is left of the form Piecewise((value, conditions), (∞, True))."""
    if not isinstance(result, sp.Piecewise):
        return result, ()
    left = []
    for value, condition in result.args:
        held = hyp.holds(condition)
        if held is False:
            continue
        left.append((value, sp.true if held else condition))
        if held:
            break
    if len(left) == 1 and left[0][1] == sp.true:
        return left[0][0], ()
    if len(left) == 2 and left[1] == (oo, sp.true) and not isinstance(left[0][0], sp.Piecewise):
        return left[0][0], (left[0][1],)
    raise NoClosedFormError(f"the density parts' result {result} has cases this composition does not read")


class WholeLawsCheck(Check):
    """The symbolic result checked against the definition of the whole laws (:func:`divergence_mp`: the density
    parts' quadrature and the atoms' exact weights) at sampled orders and parameter points."""

    def __init__(self, P, Q, order, claimed, hyp: Hypotheses):
        super().__init__(P, Q, order, claimed, hyp, SEED, P.parameters | Q.parameters)

    def laws_at(self, point: dict):
        return self.laws_or_passed_over(point, lambda: tuple(
            law.subs({s: v for s, v in point.items() if s in law.parameters}) if law.parameters else law
            for law in (self.P, self.Q)))

    def definition(self, Pp, Qp, at, closed, point: dict, where):
        return divergence_mp(Pp, Qp, at, dps=AGREE_DIGITS + 5), None

    def where(self, point: dict, at, Pp, Qp, sampled: bool) -> str:
        return ", ".join(t for t in (shown(point), "" if self.order_symbol is not None else f"order {at}") if t)


#: The seed of the whole laws' check (the sampled points are the same on every run).
SEED = 20170224


#: Digits to which the whole result must agree with the definition of the whole laws.
AGREE_DIGITS = 40


def _checked_whole(P, Q, order, result):
    """The whole result against :func:`divergence_mp` (each part's own definition, put together) at 40 digits
    where the laws have no parameters; else a note that the parts alone were checked."""
    if P.parameters | Q.parameters:
        return NotChecked("the whole result against the definition",
                          "the laws have parameters: each part was checked on its own")
    definition = divergence_mp(P, Q, order, dps=AGREE_DIGITS + 5)
    with mpmath.workdps(AGREE_DIGITS + 10):
        closed = mpmath.inf if result == oo else mpmath.mpf(sp.N(result, AGREE_DIGITS + 10))
        if mpmath.isinf(closed) or mpmath.isinf(definition):
            agree = mpmath.isinf(closed) and mpmath.isinf(definition)
        else:
            agree = abs(closed - definition) <= mpmath.mpf(10) ** -AGREE_DIGITS * abs(definition)  # relative
    if not agree:
        raise VerificationError(f"the result for laws with atoms, {result}, disagrees with the definition at order "
                                f"{order}: {mpmath.nstr(closed, 20)} vs {mpmath.nstr(definition, 20)}")
    return AgreesWithDefinition((), None if mpmath.isinf(closed) else AGREE_DIGITS, None)


def divergence_mp(P, Q, order: object, dps: int = 50, values=None) -> mpmath.mpf:
    """D_order(P‖Q) from the definition for laws with atoms: the density parts' definition (the core's quadrature)
    and the atoms' exact weights, put together in mpmath at ``dps`` digits."""
    if values:
        given = parameter_values(values, (P, Q))  # every key names a parameter of one of them, or is refused
        P, Q = (law.subs({s: v for s, v in given.items() if s in law.parameters}) if law.parameters else law
                for law in (P, Q))
    order = parse_order(order)
    Pp, Qp = parts(P), parts(Q)
    if _identical(Pp, Qp):
        return mpmath.mpf(0)  # (the one case where a sum that comes out 0 is the answer, not all its digits lost)
    # (next to α = 1 the moment is 1 + (α − 1)·KL: its log needs the digits α − 1 costs besides those asked for)
    extra = 10 + digits_next_to_one(order)
    for _ in range(_ROUNDS):
        with mpmath.workdps(dps + extra):
            part_dps = min(dps + extra - 5, MAX_DPS)  # (the density parts' D enters the sum as the rest: its digits)
            value = _compose(Pp, Qp, order, lambda Pd, Qd, digits=part_dps: univariate_divergence_mp(
                Pd, Qd, order, dps=digits), NUMERIC)
            if mpmath.isinf(value) or order is oo:
                return mpmath.inf if mpmath.isinf(value) else exact_mpf(value)
            lost = _digits_lost(value, order, dps + extra)
        needed = math.ceil(lost) + 10 + digits_next_to_one(order)
        if needed <= extra:
            with mpmath.workdps(dps + extra):
                return exact_mpf(value)
        extra = needed if value != 0 else 2 * extra
        if dps + extra > MAX_DPS:
            break
    raise ConvergenceError(f"D_{order} of laws with atoms: the sum that gives it cancels past {MAX_DPS} digits "
                           f"(its terms, masses of about 1, are 10^{lost:.0f} times the result, at {dps} digits asked "
                           "for)")


#: Rounds of the sum at more digits where it cancels (a moment within 10⁻⁶⁰ of 1, an order of 10⁻⁴⁰).
_ROUNDS = 8


def _identical(P: Parts, Q: Parts) -> bool:
    """The same atoms with the same weights, the same mass on the line and the same density part there."""
    if {k: v for k, v in P.atoms.items() if v != 0} != {k: v for k, v in Q.atoms.items() if v != 0}:
        return False
    if (P.density is None) != (Q.density is None) or P.mass != Q.mass:
        return False
    return P.density is None or same_law(P.density, Q.density)


def _digits_lost(value, order, digits: int) -> float:
    """Decimal digits the composition lost to cancellation: its terms are masses (about 1) times exponentials or
    log-ratios, and the result, (α − 1)·D = log of the moment (or the KL itself), may be far smaller: P(1/3) = 1/2 +
    10⁻³⁰ against 1/2 beside a uniform part gave D₂ = 0.0 for 4·10⁻⁶⁰, the KL 3 % off, and α = 10⁻⁴⁰ 0.0 (a probe).
    The density parts' D is taken to as many digits.  All of them where the result came out 0."""
    if value == 0:
        return digits
    size = abs(value) if order == 1 else abs(value * (mpmath.mpf(order.p) / order.q - 1))
    return max(0.0, float(-mpmath.log10(size)))


def _mpf(value):
    if isinstance(value, mpmath.mpf):
        return value
    return mpmath.mpf(sp.N(value, mpmath.mp.dps + 5)) if not isinstance(value, (int, float)) else mpmath.mpf(value)


__all__ = ["divergence", "divergence_mp", "parts"]
