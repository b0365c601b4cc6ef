"""Checking a closed form against the definition, and proving it equal to a reference.

A closed form leaves rdpsym only after :func:`check_against_definition` found
it equal to :func:`~rdpsym.derive.numeric.renyi_divergence_mp` (independent
quadrature or summation of the definition) to :data:`AGREE_DIGITS` digits at
several seeded parameter points.  A disagreement raises
:class:`~rdpsym.foundations.errors.VerificationError`: a wrong formula is never returned.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import mpmath
import sympy as sp

from rdpsym.derive.numeric import renyi_divergence_mp, same_law
from rdpsym.engine.context import Hypotheses
from rdpsym.foundations.budget import can_budget, time_budget
from rdpsym.foundations.errors import ConvergenceError, DensityError, SymbolicTimeout, VerificationError
from rdpsym.foundations.record import AgreesWithDefinition, point_items
from rdpsym.laws.densities import Density

#: Significant digits of agreement required between closed form and definition.
AGREE_DIGITS = 40
#: Parameter points a closed form is checked at (fewer only if no more are valid).
POINTS = 3

_POSITIVE = [sp.Rational(1, 3), sp.Rational(3, 4), sp.Rational(6, 5), sp.Rational(2), sp.Rational(7, 3),
             sp.Rational(1, 5), sp.Rational(9, 10), sp.Rational(5, 2)]
_REAL = [sp.Rational(-3, 2), sp.Rational(1, 2), sp.Rational(2), sp.Rational(-1, 3), sp.Rational(5, 4)]
_INTEGER = [sp.Integer(n) for n in (1, 2, 3, 5, 8)]
_ORDERS = [sp.Rational(11, 10), sp.Rational(3, 2), sp.Rational(2), sp.Rational(5, 2), sp.Rational(4),
           sp.Rational(7), sp.Rational(1001, 1000), sp.Rational(50)]


def _pool(symbol: sp.Symbol) -> list[sp.Expr]:
    if symbol.is_integer:
        return [n for n in _INTEGER if symbol.is_positive is not True or n > 0]
    if symbol.is_positive:
        return _POSITIVE
    if symbol.is_nonnegative:
        return [sp.S.Zero, *_POSITIVE]
    return _REAL


def sample_points(symbols: list[sp.Symbol], order_symbol: sp.Symbol | None, seed: int):
    """An endless, seeded stream of {symbol: exact value} points (orders > 1)."""
    rng = random.Random(seed)
    ordered = sorted(symbols, key=lambda s: s.name)
    while True:
        point = {s: rng.choice(_pool(s)) for s in ordered}
        if order_symbol is not None:
            point[order_symbol] = rng.choice(_ORDERS)
        yield point


def check_against_definition(
    P: Density,
    Q: Density,
    order: sp.Expr,
    closed_form: sp.Expr,
    conditions: tuple,
    hyp: Hypotheses,
    seed: int = 20170224,
) -> list[AgreesWithDefinition]:
    """Compare ``closed_form`` with the definition at sampled points; return the evidence.

    ``order`` is the order (a symbol or a number); points where a convergence
    condition fails are skipped, as are parameter values for which P or Q is
    not a valid density (e.g. p > 1 for a pmf written with ``1 − p``).
    """
    params = sorted(P.parameters | Q.parameters | (closed_form.free_symbols - {hyp.order_symbol}),
                    key=lambda s: s.name)
    order_symbol = order if isinstance(order, sp.Symbol) else None
    evidence: list[AgreesWithDefinition] = []
    tried = 0
    seen: set = set()
    for point in sample_points(params, order_symbol, seed):
        tried += 1
        if tried > 40 or len(evidence) >= (POINTS if params or order_symbol else 1):
            break
        key = tuple(sorted((s.name, v) for s, v in point.items()))
        if key in seen:
            continue
        seen.add(key)
        if not all(_holds(c, point) for c in conditions):
            continue
        try:
            Pp = P.subs({s: v for s, v in point.items() if s in P.parameters})
            Qp = Q.subs({s: v for s, v in point.items() if s in Q.parameters})
        except DensityError:
            if not params:
                raise  # nothing to resample: the density itself is invalid
            continue
        if params and same_law(Pp, Qp) and not same_law(P, Q):
            # P = Q at this point (λ₁ = λ₂): D = 0 exactly, which tests nothing, and a closed form's
            # cancellation there is at the working precision's noise; another point tests more.
            continue
        at = point.get(order_symbol, order)

        def where(point=point, at=at, Pp=Pp, Qp=Qp) -> str:  # said only when needed (long numbers print slowly)
            return _where(point, order_symbol, at, Pp, Qp, bool(params))

        closed = _evaluate(closed_form, AGREE_DIGITS + 15, point)
        try:
            numeric = renyi_divergence_mp(Pp, Qp, at, dps=AGREE_DIGITS + 5)
        except ConvergenceError as exc:
            raise VerificationError(f"the definition did not converge at {where()}: {exc}") from exc
        if not _agree(closed, numeric):
            raise VerificationError(
                f"closed form {closed_form} disagrees with the definition at {where()}: "
                f"{mpmath.nstr(closed, 25)} vs {mpmath.nstr(numeric, 25)}"
            )
        evidence.append(AgreesWithDefinition(point_items(point, sort=True),
                                             None if mpmath.isinf(numeric) else AGREE_DIGITS))
    if not evidence:
        raise VerificationError(
            f"no valid parameter point found to check {closed_form} against the definition "
            f"(tried {tried}); give the parameters values"
        )
    return evidence


def _holds(condition: sp.Basic, point: dict) -> bool:
    """Whether a convergence condition holds at a sampled point (undecided: skip it)."""
    truth = condition.subs(point)
    if truth in (sp.true, sp.false):
        return bool(truth)
    if isinstance(truth, sp.core.relational.Relational):
        gap = sp.N(truth.gts - truth.lts, 30)
        if gap.is_number:
            strict = isinstance(truth, (sp.StrictGreaterThan, sp.StrictLessThan))
            return bool(gap > 0) if strict else bool(gap >= 0)
    return False


def _evaluate(expr: sp.Expr, dps: int, point: dict | None = None) -> mpmath.mpf:
    """The closed form at a point, or a :class:`VerificationError` if it is not a real number.

    The point is substituted inside ``evalf``, numerically: substituting first would build p^α exactly,
    a number of 10^300 digits at α = 10^300.
    """
    if expr == sp.oo:
        return mpmath.inf
    with mpmath.workdps(dps):
        value = sp.N(expr, dps, subs=point) if point else sp.N(expr, dps)
        if value == sp.oo:
            return mpmath.inf
        if value.is_number and value.is_finite and value.is_extended_real is not True:
            # A spurious imaginary part at the rounding level (SymPy's meijerg route leaves 1e-66·i):
            # real to the digits compared; a larger one is a closed form that is not real there.
            re, im = value.as_real_imag()
            if abs(im) <= sp.Float(10, dps) ** (5 - dps) * max(1, abs(re)):
                value = re
        if not (value.is_number and value.is_extended_real and value.is_finite):
            raise VerificationError(f"the closed form is not a real number there: {expr} = {value}")
        return mpmath.mpf(sp.Float(value, dps)._to_mpmath(mpmath.mp.prec))


def _agree(a: mpmath.mpf, b: mpmath.mpf) -> bool:
    """Agreement to AGREE_DIGITS significant digits, with no absolute floor.

    An absolute floor (the former 10^−45) let a value of 2.5·10^−19 pass on
    its first 26 digits; relative agreement holds every value to 40 digits
    (0 only to 0, which the definition gives exactly when P = Q).
    """
    if mpmath.isinf(a) or mpmath.isinf(b):
        return a == b
    with mpmath.workdps(AGREE_DIGITS + 15):
        return abs(a - b) <= mpmath.mpf(10) ** (-AGREE_DIGITS) * abs(b)


def _show(point: dict) -> str:
    """``α = 3/2, σ = 6/5``: the symbols as the reader writes them (Unicode Greek), sorted by name (errors only)."""
    ordered = sorted(point.items(), key=lambda kv: kv[0].name)
    return ", ".join(f"{sp.pretty(s, use_unicode=True)} = {v}" for s, v in ordered)


def _where(point: dict, order_symbol, at, P: Density, Q: Density, sampled: bool) -> str:
    """Where a check happened: the sampled values and the order, and the pair when it
    had no free parameters (so the message names e.g. sigma = 10000 through P and Q)."""
    parts = [_show(point)] if point else []
    if order_symbol is None:
        parts.append(f"order {at}")
    text = ", ".join(p for p in parts if p)
    if not sampled:
        text += f" for P = {_density_text(P)}, Q = {_density_text(Q)}"
    return text


def _density_text(D: Density) -> str:
    table = getattr(D, "table", None)
    return str(table) if table is not None else f"{D.expr} on {D.support}"


def is_zero(difference: sp.Expr, hyp: Hypotheses, seconds: float = 10.0) -> bool:
    """Decide ``difference == 0`` symbolically: cheap rewrites first, ``simplify`` last.

    Only True is a proof; False means "not shown" (never "shown unequal").
    """
    beta = sp.Dummy("beta", positive=True)
    d = difference.xreplace({hyp.order_symbol: 1 + beta}) if hyp.order_symbol is not None else difference
    attempts: list[Callable[[sp.Expr], sp.Expr]] = [
        lambda e: sp.expand(e),
        lambda e: sp.cancel(sp.expand(sp.powsimp(sp.expand(e)))),
        lambda e: sp.expand(sp.expand_log(sp.powsimp(sp.expand(e), force=True), force=True)),
        lambda e: sp.simplify(sp.expand_log(e, force=True)),
    ]
    for rewrite in attempts:
        try:
            if can_budget():
                with time_budget(seconds, "symbolic equality"):
                    result = rewrite(d)
            elif rewrite is attempts[-1]:
                return False  # simplify may not return: only run it under a budget
            else:
                result = rewrite(d)
        except SymbolicTimeout:
            return False
        if result == 0:
            return True
    return False
