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

import mpmath
import sympy as sp

from rdpsym.derive.derivation import Derivation
from rdpsym.derive.numeric import renyi_divergence_mp
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


def _log_moment_terms(P: Parts, Q: Parts, order, part_value):
    """The terms of the moment ∫ P^α Q^{1−α} (α ∉ {1, ∞}), the density parts' one by ``part_value``
    (D_α(P̃‖Q̃), a SymPy expression or an mpf); ∞ (the string "oo") where a part of P meets none of Q above 1."""
    terms = []
    above = order > 1
    if P.density is not None:
        if Q.density is None:
            if above:
                return "oo"
        else:
            D = part_value(P.density, Q.density)
            terms.append(("density", D))
    for point, weight in P.atoms.items():
        other = Q.atoms.get(point, sp.S.Zero)
        if other == 0:
            if above and weight != 0:
                return "oo"
            continue
        terms.append(("atom", (weight, other)))
    return terms


def divergence(P, Q, order: object):
    """D_order(P‖Q) (a Derivation) for laws one or both of which have atoms (module docstring)."""
    from rdpsym.derive.divergence import renyi_divergence  # (which dispatches here: imported when called)

    order = parse_order(order)
    if isinstance(order, sp.Symbol):
        raise NoClosedFormError("a law with atoms is derived at a numeric order (give α a value)")
    Pp, Qp = parts(P), parts(Q)
    derivations = []

    def part(Pd, Qd):
        d = renyi_divergence(Pd, Qd, order)
        derivations.append(d)
        return d.result

    if order == 1:
        result = _kl(Pp, Qp, part, sp.log)
    elif order is oo:
        result = _sup(Pp, Qp, part, sp.log)
    else:
        terms = _log_moment_terms(Pp, Qp, order, part)
        if terms == "oo":
            result = oo
        else:
            moment = sp.S.Zero
            for kind, value in terms:
                if kind == "density":
                    if value == oo:
                        if order > 1:
                            moment = oo
                            break
                        continue
                    moment += Pp.mass**order * Qp.mass**(1 - order) * sp.exp((order - 1) * _as_expr(value))
                else:
                    p, q = value
                    moment += p**order * q**(1 - order)
            result = oo if moment == oo else (sp.log(moment) / (order - 1) if moment != 0 else oo)
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
        def part(Pd, Qd):
            return renyi_divergence_mp(Pd, Qd, order, dps=dps + 5)

        def log(v):
            return mpmath.log(_mpf(v))

        if order == 1:
            value = _kl(Pp, Qp, part, log, numeric=True)
        elif order is oo:
            value = _sup(Pp, Qp, part, log, numeric=True)
        else:
            a = _mpf(order)
            terms = _log_moment_terms(Pp, Qp, order, part)
            if terms == "oo":
                return mpmath.inf
            moment = mpmath.mpf(0)
            for kind, v in terms:
                if kind == "density":
                    if mpmath.isinf(v):
                        if a > 1:
                            return mpmath.inf
                        continue
                    moment += _mpf(Pp.mass) ** a * _mpf(Qp.mass) ** (1 - a) * mpmath.exp((a - 1) * v)
                else:
                    moment += _mpf(v[0]) ** a * _mpf(v[1]) ** (1 - a)
            value = mpmath.log(moment) / (a - 1) if moment != 0 else mpmath.inf
        return exact_mpf(value) if not mpmath.isinf(value) else mpmath.inf


def _kl(P: Parts, Q: Parts, part, log, numeric: bool = False):
    total = 0
    if P.density is not None:
        if Q.density is None:
            return mpmath.inf if numeric else oo
        D = part(P.density, Q.density)
        if D == oo or (numeric and mpmath.isinf(D)):
            return D
        m_p, m_q = (_mpf(P.mass), _mpf(Q.mass)) if numeric else (P.mass, Q.mass)
        total += m_p * (_as_expr(D) if not numeric else D) + m_p * log(m_p / m_q)
    for point, weight in P.atoms.items():
        other = Q.atoms.get(point, 0)
        if weight == 0:
            continue
        if other == 0:
            return mpmath.inf if numeric else oo
        w, o = (_mpf(weight), _mpf(other)) if numeric else (weight, other)
        total += w * log(w / o)
    return total


def _sup(P: Parts, Q: Parts, part, log, numeric: bool = False):
    values = []
    if P.density is not None:
        if Q.density is None:
            return mpmath.inf if numeric else oo
        D = part(P.density, Q.density)
        m_p, m_q = (_mpf(P.mass), _mpf(Q.mass)) if numeric else (P.mass, Q.mass)
        values.append(D if (D == oo or (numeric and mpmath.isinf(D))) else (D if numeric else _as_expr(D))
                      + log(m_p / m_q))
    for point, weight in P.atoms.items():
        other = Q.atoms.get(point, 0)
        if weight == 0:
            continue
        if other == 0:
            return mpmath.inf if numeric else oo
        w, o = (_mpf(weight), _mpf(other)) if numeric else (weight, other)
        values.append(log(w / o))
    if numeric:
        return max(values)
    return oo if oo in values else sp.Max(*values)


def _as_expr(value):
    return sp.Float(value, 50) if isinstance(value, mpmath.mpf) else value


def _mpf(value):
    if isinstance(value, mpmath.mpf):
        return value
    return mpmath.mpf(sp.N(value, mpmath.mp.dps + 5)) if not isinstance(value, (int, float)) else mpmath.mpf(value)


__all__ = ["divergence", "divergence_mp", "parts"]
