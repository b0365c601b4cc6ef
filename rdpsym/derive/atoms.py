"""D_α of laws with atoms beside a density (:mod:`rdpsym.laws.atoms`): the density parts and the atoms apart.

With P = m_P·P̃ + Σ_a p_a·δ_a and Q = m_Q·Q̃ + Σ_a q_a·δ_a, the measure splits into the
line without the atoms (where only the density parts live) and the atoms, and the
integral of the definition is additive over that split:

    ∫ P^α Q^{1−α} = m_P^α·m_Q^{1−α}·∫ P̃^α Q̃^{1−α} + Σ_a p_a^α·q_a^{1−α},

with ∫ P̃^α Q̃^{1−α} = e^{(α−1)·D_α(P̃‖Q̃)}, derived and checked on its own by the core.  For
α > 1 an atom of P where Q has none, or a density part of P where Q has none, makes D_α = ∞;
below 1 they add 0.  KL: Σ_a p_a·log(p_a/q_a) + m_P·(D_KL(P̃‖Q̃) + log(m_P/m_Q)).  D_∞: the
larger of log(m_P/m_Q) + D_∞(P̃‖Q̃) and max_a log(p_a/q_a), over the parts where P has mass.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import mpmath
import sympy as sp

from rdpsym.derive.definition import univariate_divergence_mp
from rdpsym.derive.derivation import Derivation
from rdpsym.derive.univariate import univariate_divergence
from rdpsym.foundations.errors import DomainError, NoClosedFormError, VerificationError
from rdpsym.foundations.notation import P as P_
from rdpsym.foundations.notation import Q as Q_
from rdpsym.foundations.notation import RenyiDivergence
from rdpsym.foundations.numbers import exact_mpf
from rdpsym.foundations.reading import parse_order
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
        raise NoClosedFormError("a law with atoms is derived at a numeric order (give α a value)")
    Pp, Qp = parts(P), parts(Q)
    derivations = []

    def part(Pd, Qd):
        d = univariate_divergence(Pd, Qd, order)
        derivations.append(d)
        return d.result

    result = _compose(Pp, Qp, order, part, SYMBOLIC)
    status = weakest(tuple(d.status for d in derivations)) if derivations else Status.PROVED
    if any(isinstance(d.result, mpmath.mpf) for d in derivations):
        result = mpmath.mpf(sp.N(result, 50)) if result != oo else result
    step = Step(RenyiDivergence(P_, Q_, order), "=", result, Because(SPLIT), status)
    evidence = tuple(e for d in derivations for e in d.evidence)
    if status in (Status.PROVED, Status.CHECKED):
        evidence = (*evidence, _checked_whole(P, Q, order, result))
    return Derivation(order=order, result=result, status=status,
                      steps=(*(s for d in derivations for s in d.steps), step), evidence=evidence)


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
    with mpmath.workdps(dps + 10):
        value = _compose(Pp, Qp, order, lambda Pd, Qd: univariate_divergence_mp(Pd, Qd, order, dps=dps + 5), NUMERIC)
        return exact_mpf(value) if not mpmath.isinf(value) else mpmath.inf


def _mpf(value):
    if isinstance(value, mpmath.mpf):
        return value
    return mpmath.mpf(sp.N(value, mpmath.mp.dps + 5)) if not isinstance(value, (int, float)) else mpmath.mpf(value)


__all__ = ["divergence", "divergence_mp", "parts"]
