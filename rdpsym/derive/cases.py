"""Case splits: derive each sign of a quantity the assumptions leave open, and put the cases together.

Uniform[0, a] against Uniform[0, c], or two Laplace laws with free centres μ₁
and μ₂, cannot be split into pieces until the parameters are ordered.  Instead
of refusing, the derivation is run once per case E > 0, E < 0, E = 0 of the
undecided quantity E (:class:`rdpsym.engine.context.UndecidedSign`), each on
the laws with that sign built in: for E = c − a > 0 the laws are rewritten in
c = a + δ with δ > 0, which SymPy's assumptions then decide, and every case is
derived *and checked against the definition* on its own laws.  The results,
written back in the original parameters (δ = c − a), become one Piecewise; a
case whose formula is another's at the boundary is merged into it (E ≥ 0),
and two strict cases that are one formula in |E| are written with ``Abs``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

import sympy as sp

from rdpsym.engine.context import Hypotheses
from rdpsym.foundations.errors import NoClosedFormError
from rdpsym.foundations.record import AgreesWithDefinition, Step, point_items
from rdpsym.foundations.symbols import Parameter, parameter

#: Nested splits allowed (each case may itself need one), and the most cases one result may have.
MAX_DEPTH = 3
MAX_CASES = 9


@dataclasses.dataclass(frozen=True)
class Parametrisation:
    """One case of ``quantity``: ``symbol = value`` (with δ > 0 in a strict case), and its condition."""

    symbol: sp.Symbol
    value: sp.Expr
    delta: sp.Symbol | None
    back: sp.Expr | None  # δ in the original parameters
    condition: sp.Basic


def parametrise(quantity: sp.Expr, sign: int, forbidden: set, depth: int = 0) -> Parametrisation | None:
    """The case sign(quantity) = ``sign`` as a substitution of one parameter, or None.

    The quantity must be linear in some parameter s with a coefficient of known
    sign: E = a·(s − s₀).  For E > 0 (sign +1) s = s₀ + δ/a with δ > 0, and so on;
    a parameter for which s₀ + (positive)·δ keeps its assumptions is preferred.

    >>> c, a = sp.symbols("c a", positive=True)
    >>> p = parametrise(c - a, 1, set())
    >>> p.symbol, p.condition == (c - a > 0)
    (c, True)
    """
    E = sp.expand(quantity)
    options = []
    for s in sorted(E.free_symbols - forbidden, key=lambda t: t.name):
        if not E.is_polynomial(s) or sp.degree(E, s) != 1:
            continue
        a = E.coeff(s, 1)
        if a.has(s) or a.is_zero or (a.is_positive is None and a.is_negative is None):
            continue
        s0 = sp.cancel(-(E - a * s) / a)
        if s.is_integer and not (abs(a) == 1 and s0.is_integer):
            continue  # an integer parameter (a range's end N) moves only by integers: N = s0 ± δ, δ ∈ {1, 2, …}
        grows = sign != 0 and (a.is_positive == (sign > 0))  # s = s0 + (positive)·δ
        keeps = s.is_positive is not True or s0.is_nonnegative is True
        options.append((not grows, not keeps, s, a, s0))
    if not options:
        return None
    _, _, s, a, s0 = min(options, key=lambda o: (o[0], o[1]))
    condition = sp.Eq(E, 0) if sign == 0 else (E > 0 if sign > 0 else E < 0)
    if sign == 0:
        return Parametrisation(s, s0, None, None, condition)
    # Named by the nesting depth: a case inside a case has two δ's, and the densities' parameters are
    # read by name (two Dummies both named "delta" were one name for two parameters).
    delta = _declared_delta(s, s0, sign * a, depth) or \
        sp.Dummy(f"delta{depth}" if depth else "delta", positive=True, integer=s.is_integer or None)
    value = s0 + sign * delta / a
    return Parametrisation(s, value, delta, sign * a * (s - s0), condition)


def _declared_delta(s: sp.Symbol, s0: sp.Expr, k: sp.Expr, depth: int) -> Parameter | None:
    """The case's δ = k·(s − s₀) > 0 as a parameter in the interval ``s``'s declared interval gives it, where ``s``
    was made by :func:`rdpsym.parameter` with numeric ends (and s₀, k are numbers); None otherwise.  As a bare positive
    symbol δ lost the interval: two triangular laws' modes 1/2 and c ∈ (0, 1), in the case c > 1/2, could not place
    the point 1/2 + δ inside (0, 1), and the pair was refused asking for what the user had given (a probe)."""
    if not (isinstance(s, Parameter) and not s.is_integer and s.lower.is_number and s.upper.is_number
            and s0.is_number and k.is_number and k.is_nonzero):
        return None
    ends = [(k * (s.lower - s0), s.left_open), (k * (s.upper - s0), s.right_open)]
    (lower, lower_open), (upper, upper_open) = ends if k.is_positive else ends[::-1]
    if upper is not sp.oo and not upper > 0:
        return None  # (the case is empty: no δ > 0 in the interval; the split's own derivation says so)
    if lower in (sp.oo, -sp.oo) or lower <= 0:
        lower, lower_open = sp.S.Zero, True
    closed = {(True, True): "", (True, False): "upper", (False, True): "lower", (False, False): "both"}
    # (named as the Dummy would be, with a leading underscore: never a parameter the user is asked to give)
    return parameter(f"_delta{depth}" if depth else "_delta", lower, upper, closed=closed[lower_open, upper_open])


def split(P, Q, order, quantity: sp.Expr, derive: Callable, depth: int):
    """Derive D_order(P‖Q) in each case of sign(``quantity``): a list of (Parametrisation, Derivation).

    ``derive(P, Q, depth)`` derives one case (and may split again).  Raises
    :class:`NoClosedFormError` when the quantity cannot be split (not linear in a
    parameter, or depends on the order).
    """
    if depth >= MAX_DEPTH:
        raise NoClosedFormError(f"too many nested cases (the sign of {quantity} is still open)")
    forbidden = {order} if isinstance(order, sp.Symbol) else set()
    if quantity.free_symbols & forbidden or not quantity.free_symbols:
        raise NoClosedFormError(f"cannot split on the sign of {quantity}")
    out = []
    for sign in (1, -1, 0):
        case = parametrise(quantity, sign, forbidden, depth)
        if case is None:
            raise NoClosedFormError(f"cannot split on the sign of {quantity}: it is not linear in a parameter")
        mapping = {case.symbol: case.value}
        try:
            d = derive(P.substituted(mapping), Q.substituted(mapping), depth + 1)
            if not d.is_closed_form:
                raise NoClosedFormError(f"no closed form in the case {case.condition}")
        except NoClosedFormError as exc:
            raise NoClosedFormError(f"in the case {case.condition}: {_in_parameters(exc, case)}") from exc
        out.append((case, d))
    return out


def _in_parameters(exc: NoClosedFormError, case: Parametrisation) -> str:
    """Why a case had no closed form, in the parameters the user gave: its δ written as what it stands for, without
    the advice on giving values that each level added ("give _delta values" named a placeholder; a probe)."""
    text = getattr(exc, "reason", None) or str(exc)
    if case.delta is None:
        return text
    return re.sub(rf"(?<![\w]){re.escape(str(case.delta))}(?![\w])", f"({case.back})", text)


def back(expr, case: Parametrisation):
    """A case's expression in the original parameters (δ written as what it stands for)."""
    if case.delta is None or not isinstance(expr, sp.Basic):
        return expr
    return expr.xreplace({case.delta: case.back})


def step_back(step: Step, case: Parametrisation) -> Step:
    """A case's step in the original parameters (its sides and its rule's expressions)."""
    if case.delta is None:
        return step
    rule = step.rule
    changes = {f.name: back(getattr(rule, f.name), case) for f in dataclasses.fields(rule)
               if isinstance(getattr(rule, f.name), sp.Basic)}
    return dataclasses.replace(step, lhs=back(step.lhs, case), rhs=back(step.rhs, case),
                               rule=dataclasses.replace(rule, **changes) if changes else rule)


def evidence_back(evidence, case: Parametrisation):
    """A check's sample point in the original parameters (δ's value turned into the parameter's)."""
    if not isinstance(evidence, AgreesWithDefinition):
        return evidence
    point = dict(evidence.values)
    point[case.symbol] = case.value.xreplace(point)
    if case.delta is not None:
        point.pop(case.delta, None)
    return dataclasses.replace(evidence, point=point_items(point, sort=True))


def combine(cases: list, quantity: sp.Expr, hyp: Hypotheses, is_zero: Callable) -> tuple[sp.Expr, list]:
    """The cases' results as one Piecewise in the original parameters, and the merged (condition, result) list.

    The boundary case E = 0 joins a strict case whose formula gives the same value there
    (E ≥ 0); the two strict cases become one formula in |E| when that is what they are.
    """
    E = sp.expand(quantity)
    results = {}
    for case, d in cases:
        sign = 0 if case.delta is None else (1 if isinstance(case.condition, sp.StrictGreaterThan) else -1)
        results[sign] = (case, d, back(d.result, case))
    merged: list[tuple[sp.Expr, sp.Basic]] = []
    boundary = results.pop(0, None)
    joined = None
    if boundary is not None:
        case0, _, value0 = boundary
        for sign in (1, -1):
            if sign in results and _same_at(results[sign][2], case0, value0, is_zero):
                joined = sign
                break
    together = _abs_form(results, E, is_zero) if 1 in results and -1 in results else None
    if together is not None:
        condition = sp.true if (boundary is None or joined is not None) else sp.Ne(E, 0)
        merged.append((together, condition))
        if boundary is not None and joined is None:
            merged.append((boundary[2], sp.true))
    else:
        for sign in (1, -1):
            if sign not in results:
                continue
            rel = (E >= 0 if sign > 0 else E <= 0) if joined == sign else (E > 0 if sign > 0 else E < 0)
            merged.append((results[sign][2], rel))
        if boundary is not None and joined is None:
            merged.append((boundary[2], sp.Eq(E, 0)))
    if merged and merged[-1][1] is not sp.true:
        merged[-1] = (merged[-1][0], sp.true)  # the cases are exhaustive: the last one is "otherwise"
    if len(merged) == 1:
        return merged[0][0], merged
    return sp.Piecewise(*merged), merged


def _same_at(value: sp.Expr, boundary_case: Parametrisation, boundary_value: sp.Expr, is_zero) -> bool:
    """Whether a strict case's result, at the boundary E = 0, is the boundary case's result."""
    at = value.xreplace({boundary_case.symbol: boundary_case.value})
    if at == boundary_value:
        return True
    if at.has(sp.Piecewise) or boundary_value.has(sp.Piecewise) or sp.oo in (at, boundary_value):
        return False
    try:
        return is_zero(at - boundary_value)
    except (TypeError, ValueError, NoClosedFormError):
        return False


def _abs_form(results: dict, E: sp.Expr, is_zero) -> sp.Expr | None:
    """The E > 0 result with E written |E|, when it is also the E < 0 result (Laplace: |μ₁ − μ₂|)."""
    case_gt, d_gt, _ = results[1]
    case_lt, d_lt, _ = results[-1]
    candidate = d_gt.result.xreplace({case_gt.delta: sp.Abs(E)}) if isinstance(d_gt.result, sp.Basic) else None
    if candidate is None or not isinstance(d_lt.result, sp.Basic):
        return None
    in_lt = candidate.xreplace({case_lt.symbol: case_lt.value})
    if in_lt == d_lt.result:
        return candidate
    if in_lt.has(sp.Piecewise) or d_lt.result.has(sp.Piecewise):
        return None
    try:
        return candidate if is_zero(sp.expand(in_lt - d_lt.result)) else None
    except (TypeError, ValueError, NoClosedFormError):
        return None


__all__ = ["MAX_CASES", "MAX_DEPTH", "Parametrisation", "back", "combine", "evidence_back", "parametrise", "split",
           "step_back"]
