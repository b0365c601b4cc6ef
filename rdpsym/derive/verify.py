"""Checking a closed form against the definition, and proving it equal to a reference.

A closed form leaves rdpsym only after :func:`check_against_definition` found
it equal to :func:`~rdpsym.derive.numeric.renyi_divergence_mp` (independent
quadrature or summation of the definition) to :data:`AGREE_DIGITS` digits at
several seeded parameter points.  A disagreement raises
:class:`~rdpsym.foundations.errors.VerificationError`: a wrong formula is never returned.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass

import mpmath
import sympy as sp

from rdpsym.derive.certified import METHOD as CERTIFIED
from rdpsym.derive.certified import certified_divergence
from rdpsym.derive.numeric import renyi_divergence_mp, same_law
from rdpsym.engine.context import Hypotheses
from rdpsym.foundations.balls import stable_erf
from rdpsym.foundations.budget import can_budget, time_budget
from rdpsym.foundations.errors import (
    ConvergenceError,
    DensityError,
    NoClosedFormError,
    SymbolicTimeout,
    VerificationError,
)
from rdpsym.foundations.numbers import exact_mpf, shorten
from rdpsym.foundations.precision import bits_for, private_context, sympy_float
from rdpsym.foundations.record import AgreesWithDefinition, NotChecked, point_items
from rdpsym.laws.densities import Density
from rdpsym.quadrature.compile import to_mpf

#: Significant digits of agreement required between closed form and definition.
AGREE_DIGITS = 40
#: Parameter points a closed form is checked at (fewer only if no more are valid).
POINTS = 3
#: Points whose definition did not converge that a check may skip (each said in the evidence), if POINTS
#: others agree.
MAX_SKIPPED = 2

_POSITIVE = [sp.Rational(1, 3), sp.Rational(3, 4), sp.Rational(6, 5), sp.Rational(2), sp.Rational(7, 3),
             sp.Rational(1, 5), sp.Rational(9, 10), sp.Rational(5, 2)]
_REAL = [sp.Rational(-3, 2), sp.Rational(1, 2), sp.Rational(2), sp.Rational(-1, 3), sp.Rational(5, 4)]
_INTEGER = [sp.Integer(n) for n in (1, 2, 3, 5, 8)]
_ORDERS = [sp.Rational(11, 10), sp.Rational(3, 2), sp.Rational(2), sp.Rational(5, 2), sp.Rational(4),
           sp.Rational(7), sp.Rational(1001, 1000), sp.Rational(50)]


#: Positive values below 1, drawn after :data:`WIDE_TRIES` points: where most parameters are probabilities
#: (negative binomial, logarithmic series laws, valid only for p < 1), the wide pool rarely finds a valid point.
_UNIT = [sp.Rational(1, 3), sp.Rational(3, 4), sp.Rational(1, 5), sp.Rational(9, 10), sp.Rational(1, 2),
         sp.Rational(2, 3), sp.Rational(1, 7)]
#: Points drawn from the wide pools before the unit pool is used for positive parameters; at most MAX_TRIES in all.
WIDE_TRIES, MAX_TRIES = 40, 80


def _pool(symbol: sp.Symbol, unit: bool = False) -> list[sp.Expr]:
    if symbol.is_integer:
        return [n for n in _INTEGER if symbol.is_positive is not True or n > 0]
    if symbol.is_positive:
        return _UNIT if unit else _POSITIVE
    if symbol.is_nonnegative:
        return [sp.S.Zero, *_POSITIVE]
    return _REAL


def sample_points(symbols: list[sp.Symbol], order_symbol: sp.Symbol | None, seed: int):
    """An endless, seeded stream of {symbol: exact value} points (orders > 1)."""
    rng = random.Random(seed)
    ordered = sorted(symbols, key=lambda s: s.name)
    for drawn in itertools.count():
        point = {s: rng.choice(_pool(s, unit=drawn >= WIDE_TRIES)) for s in ordered}
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
    changes: tuple = (),
) -> list[AgreesWithDefinition | NotChecked]:
    """Compare ``closed_form`` with the definition at sampled points; return the evidence.

    ``order`` is the order (a symbol or a number); points where a convergence
    condition fails are skipped, as are parameter values for which P or Q is
    not a valid density (e.g. p > 1 for a pmf written with ``1 − p``).

    ``changes`` are changes of variables t = g(x) of the whole support
    (:class:`rdpsym.engine.transform.Substitution`, from the derivation) in which the
    definition is integrated first: quadrature of a Gumbel pair in x meets e^{−e^{−x}},
    in t = e^{−x} it meets an exponential.  The laws' images P(x(t))·|x′(t)| are built
    from the raw pdfs, and each must integrate to 1 in t (to the digits compared)
    before the value is used, which checks the map and its Jacobian.  Where the
    quadrature in x does not settle (power-law tails), t = log(x − l) is tried too.
    """
    params = sorted(P.parameters | Q.parameters | (closed_form.free_symbols - {hyp.order_symbol}),
                    key=lambda s: s.name)
    order_symbol = order if isinstance(order, sp.Symbol) else None
    evidence: list[AgreesWithDefinition] = []
    # Points where the definition itself did not converge (a series near its abscissa of convergence, at an
    # order 1 + 10⁻³): skipped and said so, at most MAX_SKIPPED, and only while POINTS others can still agree.
    skipped: list[tuple[VerificationError, NotChecked]] = []
    tried = 0
    seen: set = set()
    for point in sample_points(params, order_symbol, seed):
        tried += 1
        if tried > MAX_TRIES or len(evidence) >= (POINTS if params or order_symbol else 1):
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
        # The fast path: the definition's integral as a certified Arb ball (rdpsym.derive.certified),
        # where it applies and is narrow enough to decide 40 digits; else the mpmath route below.
        ball = certified_divergence(Pp, Qp, at, AGREE_DIGITS) if at is not sp.oo else None
        if ball is not None:
            if not _in_ball(closed, ball):
                raise VerificationError(
                    f"closed form {shorten(str(closed_form))} disagrees with the definition at {where()}: "
                    f"{mpmath.nstr(closed, 25)} is outside the certified {ball.str(25, radius=True)}")
            evidence.append(AgreesWithDefinition(point_items(point, sort=True), AGREE_DIGITS, None, CERTIFIED))
            continue
        numeric, integrated_in = None, None
        for change in changes:  # the derivation's own change of variables first: the better-behaved integrand
            numeric, integrated_in = _in_new_variable(Pp, Qp, at, change, point)
            if numeric is not None:
                break
        if numeric is None:
            try:
                numeric = renyi_divergence_mp(Pp, Qp, at, dps=AGREE_DIGITS + 5)
            except ConvergenceError as exc:
                numeric = _supremum_at_ends(Pp, Qp, closed) if at is sp.oo else None
                for change in () if numeric is not None else _fallback_changes(Pp, Qp):
                    numeric, integrated_in = _in_new_variable(Pp, Qp, at, change, {})
                    if numeric is not None:
                        break
                if numeric is None:
                    # The check's own quadrature failed: nothing is known against the closed form there.
                    full, brief = where(), _where(point, order_symbol, at, Pp, Qp, True)
                    said = f"did not converge at {full}" if full != brief else "did not converge"
                    failure = VerificationError(f"could not verify at {brief}: the definition {said}: "
                                                f"{shorten(str(exc))}")
                    if (params or order_symbol) and len(skipped) < MAX_SKIPPED:
                        skipped.append((failure, NotChecked(f"the definition at {brief}",
                                                            f"it did not converge ({shorten(str(exc), 120)})")))
                        continue
                    raise failure from exc
        if not _agree(closed, numeric):
            raise VerificationError(
                f"closed form {shorten(str(closed_form))} disagrees with the definition at {where()}: "
                f"{mpmath.nstr(closed, 25)} vs {mpmath.nstr(numeric, 25)}"
            )
        evidence.append(AgreesWithDefinition(point_items(point, sort=True),
                                             None if mpmath.isinf(numeric) else AGREE_DIGITS, integrated_in))
    if skipped and len(evidence) < POINTS:
        raise skipped[0][0]  # too few points agree besides the ones skipped: not verified
    if not evidence:
        raise VerificationError(
            f"no valid parameter point found to check {closed_form} against the definition "
            f"(tried {tried}); give the parameters values"
        )
    return [*evidence, *(note for _, note in skipped)]


def _in_new_variable(P: Density, Q: Density, order, change, point: dict):
    """D_order of the laws' images under t = g(x) (``change``), or (None, None) when that cannot be trusted.

    The images P(x(t))·|dx/dt| are built from the raw pdfs with the parameters' values, on
    the image of P's support (the integrand P^α Q^{1−α} vanishes off it, and so does P log P/Q);
    Q's support must contain it.  P's image must integrate to 1 in t to :data:`AGREE_DIGITS`
    digits (a wrong map or Jacobian would not), and the quadrature must settle.
    """
    if P.discrete or getattr(P, "table", None) is not None:
        return None, None
    from rdpsym.laws.densities import Continuous
    from rdpsym.laws.validation import numeric_mass

    t = change.variable
    values = {s: v for s, v in point.items() if isinstance(s, sp.Symbol)}
    inverse = change.inverse.xreplace(values).xreplace({change.source: P.var}) if change.source else \
        change.inverse.xreplace(values)
    lo, hi = (sp.S(e).xreplace(values) for e in (change.lo, change.hi))
    if inverse.free_symbols - {t} or lo.free_symbols or hi.free_symbols or not less_than(lo, hi):
        return None, None
    if less_than(P.lo, Q.lo) or less_than(Q.hi, P.hi):
        return None, None  # Q vanishes somewhere P does not: the raw expression of Q is not Q there
    jacobian = sp.Abs(sp.diff(inverse, t))
    try:
        images = [Continuous(D.expr.xreplace({D.var: inverse}) * jacobian, t, sp.Interval.open(lo, hi), check=False)
                  for D in (P, Q)]
        image = images[0]
        mass = numeric_mass(image.expr, t, image.pieces(), discrete=False, lo=lo, hi=hi, dps=AGREE_DIGITS + 5)
        if abs(mass - 1) > mpmath.mpf(10) ** (-AGREE_DIGITS):
            return None, None
        value = renyi_divergence_mp(*images, order, dps=AGREE_DIGITS + 5)
    except (ConvergenceError, DensityError, NoClosedFormError, ValueError, TypeError, ZeroDivisionError):
        return None, None
    return value, sp.Eq(t, change.forward.xreplace({change.source: P.var}) if change.source else change.forward,
                        evaluate=False)


@dataclass(frozen=True)
class _LogShift:
    """t = log(x − lo) for a law on (lo, ∞): a power-law tail becomes an exponential one."""

    variable: sp.Symbol
    forward: sp.Expr
    inverse: sp.Expr
    lo: sp.Expr = -sp.oo
    hi: sp.Expr = sp.oo
    source: sp.Symbol | None = None


def _fallback_changes(P: Density, Q: Density) -> tuple:
    """Changes of variables to integrate in when the quadrature in x does not settle: t = log(x − lo)."""
    if P.discrete or getattr(P, "table", None) is not None:
        return ()
    lo = P.lo if less_than(Q.lo, P.lo) else Q.lo
    if lo is -sp.oo or not (P.hi is sp.oo and Q.hi is sp.oo) or lo.free_symbols:
        return ()
    t = sp.Symbol("t", real=True)
    return (_LogShift(t, sp.log(P.var - lo), lo + sp.exp(t)),)


def less_than(a: sp.Expr, b: sp.Expr) -> bool:
    """a < b for numbers and ±∞ (False when undecided)."""
    return bool(sp.S(b - a).is_positive) if not (a in (sp.oo, -sp.oo) or b in (sp.oo, -sp.oo)) else (
        a is -sp.oo and b is not -sp.oo or b is sp.oo and a is not sp.oo)


#: Decades toward each end of a piece at which :func:`_supremum_at_ends` reads log(P/Q).
_END_DECADES = 400


def _supremum_at_ends(P: Density, Q: Density, claimed: mpmath.mpf) -> mpmath.mpf | None:
    """sup log(P/Q) read from the raw densities where the numeric scan gives up: at the ends.

    The definition's scan (:func:`~rdpsym.derive.numeric.renyi_divergence_mp`)
    refuses a log-ratio still moving at the edge of its range, as where the
    supremum is a limit at an end of the support (Weibull's k·log(λ₂/λ₁) at
    x → 0⁺, approached like x^k) or infinite but growing only like log x
    (log-normal laws with different μ, or P/Q ~ x^{−1/2} at a finite end).
    Here log P − log Q is evaluated from the pdfs at 10^{±j}, j up to
    :data:`_END_DECADES`, away from or toward each end of each piece, and on a
    grid inside.  A finite ``claimed`` supremum is confirmed when no point exceeds it
    and the values toward some end reach it to the digits compared; +∞ when the values
    toward an end keep rising by steps that do not shrink (logarithmic or faster growth,
    where a bounded approach shrinks its steps geometrically).  Anything else: None.
    """
    if P.discrete or getattr(P, "table", None) is not None:
        return None
    from rdpsym.laws.densities import common_refinement
    from rdpsym.quadrature.compile import compile_expr

    wp = AGREE_DIGITS + 2 * _END_DECADES // 10 + 30
    with private_context(wp) as mp:
        fP, fQ = compile_expr(P.expr, P.var, mp), compile_expr(Q.expr, Q.var, mp)

        def ratio(t):
            try:
                p, q = fP(t), fQ(t)
                return mp.log(p) - mp.log(q) if p > 0 and q > 0 else None
            except (ZeroDivisionError, ValueError, TypeError, OverflowError):
                return None

        best, unbounded = -mp.inf, False
        for pair in common_refinement(P, Q):
            if pair.p == 0:
                continue
            lo, hi = (to_mpf(e, mp) for e in (pair.lo, pair.hi))
            mid = (lo + hi) / 2 if mp.isfinite(lo) and mp.isfinite(hi) else (
                lo + 1 if mp.isfinite(lo) else (hi - 1 if mp.isfinite(hi) else mp.mpf(0)))
            for end, inward in ((lo, 1), (hi, -1)):
                if mp.isfinite(end):  # no closer than the working precision resolves
                    path = [end + inward * mp.mpf(10) ** (-j) * (1 + abs(end)) for j in range(1, wp - 20)]
                else:
                    path = [mid - inward * mp.mpf(10) ** j for j in range(0, _END_DECADES)]
                values = [v for v in (ratio(t) for t in path) if v is not None and mp.isfinite(v)]
                if values:
                    best = max(best, *values)
                tail = values[-40:]
                steps = [b - a for a, b in zip(tail, tail[1:])]
                if len(steps) >= 20 and all(d > 0 for d in steps) and steps[-1] >= steps[0] / 2 and \
                        tail[-1] - tail[0] > 1:
                    unbounded = True
            for j in range(1, 64):
                if mp.isfinite(lo) and mp.isfinite(hi):
                    inside = ratio(lo + (hi - lo) * j / 64)
                    if inside is not None:
                        best = max(best, inside)
        if unbounded:
            return mpmath.inf if claimed == mpmath.inf else None
        if claimed == mpmath.inf or not mp.isfinite(best):
            return None
        tolerance = mp.mpf(10) ** (-AGREE_DIGITS) * max(abs(claimed), mp.mpf(10) ** -AGREE_DIGITS)
        return exact_mpf(best) if abs(best - claimed) <= tolerance else None


def _holds(condition: sp.Basic, point: dict) -> bool:
    """Whether a convergence condition holds at a sampled point (undecided: skip it)."""
    try:
        truth = condition.subs(point)
    except TypeError:  # a relation between non-real numbers (log(1 − t) at t > 1): the laws are not valid there
        return False
    if truth in (sp.true, sp.false):
        return bool(truth)
    if isinstance(truth, sp.core.relational.Relational):
        gap = sp.N(truth.gts - truth.lts, 30)
        if gap.is_number and gap.is_extended_real is not True:
            return False  # complex there (log(1 − t) at t > 1): not a point where the laws are valid
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
    expr = stable_erf(expr)  # 2 − erfc(w) as erfc(−w): no cancellation where erfc(w) ≈ 2
    value = sympy_float(expr, dps, subs=point) if point else sympy_float(expr, dps)
    if value == sp.oo:
        return mpmath.inf
    if value.is_number and value.is_finite and value.is_extended_real is not True:
        # A spurious imaginary part at the rounding level (SymPy's meijerg route leaves 1e-66·i):
        # real to the digits compared; a larger one is a closed form that is not real there.
        re, im = value.as_real_imag()
        if abs(im) <= sp.Float(10, dps) ** (5 - dps) * max(1, abs(re)):
            value = re
    if not (value.is_number and value.is_extended_real and value.is_finite):
        raise VerificationError(f"the closed form is not a real number there: {shorten(str(expr))} = "
                                f"{shorten(str(value))}")
    return exact_mpf(sp.Float(value, dps))


def _in_ball(closed: mpmath.mpf, ball) -> bool:
    """Whether the closed form's value lies within 10^−AGREE_DIGITS (relative to it) of the certified ball.

    The ball's radius is below 10^−(AGREE_DIGITS+1) of its midpoint (else no ball is given), so
    this is agreement to AGREE_DIGITS digits with a value known to contain the definition's.
    A finite ball excludes +∞.
    """
    if mpmath.isinf(closed) or mpmath.isnan(closed):
        return False
    from flint import arb

    from rdpsym.foundations.balls import precision

    man, exp = closed.man_exp  # (not mpmath.mpf(closed): that rounds to the global 53 bits)
    with precision(bits_for(AGREE_DIGITS + 20) + max(0, int(man).bit_length())):
        value = arb(int(man)) * arb(2) ** int(exp)  # exact: the closed form's value as computed
        tolerance = abs(value) * arb(10) ** -AGREE_DIGITS
        gap = (value - ball.mid()).abs_lower() - ball.rad()  # ≤ the distance from value to the ball
        return bool(gap <= tolerance)


def _agree(a: mpmath.mpf, b: mpmath.mpf) -> bool:
    """Agreement to AGREE_DIGITS significant digits, with no absolute floor.

    An absolute floor (the former 10^−45) let a value of 2.5·10^−19 pass on
    its first 26 digits; relative agreement holds every value to 40 digits
    (0 only to 0, which the definition gives exactly when P = Q).
    """
    if mpmath.isinf(a) or mpmath.isinf(b):
        return a == b
    with private_context(AGREE_DIGITS + 15) as ctx:
        a, b = ctx.convert(a), ctx.convert(b)
        return abs(a - b) <= ctx.mpf(10) ** (-AGREE_DIGITS) * abs(b)


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
    return shorten(str(table) if table is not None else f"{D.expr} on {D.support}")


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
