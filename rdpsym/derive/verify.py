"""Checking a closed form for laws of one variable against the definition, and proving an equality.

A closed form leaves rdpsym only after :func:`check_against_definition` found it
equal to the definition -- independent quadrature or summation
(:func:`~rdpsym.derive.definition.univariate_divergence_mp`), or a certified Arb ball
where :mod:`rdpsym.derive.certified` applies -- to :data:`AGREE_DIGITS` digits at
seeded parameter points covering every part of the orders it is returned for, every
branch of the result and both sides of every boundary.  That sampling loop, its
coverage and the comparison are :mod:`rdpsym.derive.check_loop`, shared with laws in
several variables; a disagreement raises
:class:`~rdpsym.foundations.errors.VerificationError`.  Here is what is particular to
laws of one variable (:class:`OneDimensionalCheck`: the laws at a point, the
derivation's change of variables to integrate in, t = log(x − l) where the quadrature
in x does not settle, the supremum read at the ends), and the symbolic proof of an
equality (:func:`is_zero`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import mpmath
import sympy as sp

from rdpsym.derive.certified import certified_divergence
from rdpsym.derive.check_loop import AGREE_DIGITS, Check
from rdpsym.derive.definition import same_law, univariate_divergence_mp
from rdpsym.derive.definition_forms import definition_regions, law_mass
from rdpsym.engine.context import Hypotheses
from rdpsym.foundations.budget import can_budget, time_budget
from rdpsym.foundations.errors import ConvergenceError, DensityError, NoClosedFormError, SymbolicTimeout
from rdpsym.foundations.logs import expand_logs
from rdpsym.foundations.numbers import exact_mpf
from rdpsym.foundations.precision import private_context
from rdpsym.laws.densities import Continuous, Density
from rdpsym.quadrature.compile import compile_expr, to_mpf

#: CPU seconds the definition may take at one point of a check (a sixth of the definition's own ceiling: a
#: point that needs more is skipped like one that does not converge, and a check of three such points ends in
#: half a minute, not three -- D_α at α = 10⁻³⁰⁰ needs 300 more digits at every point).
POINT_SECONDS = 10.0


def check_against_definition(
    P: Density,
    Q: Density,
    order: sp.Expr,
    closed_form: sp.Expr,
    conditions: tuple,
    hyp: Hypotheses,
    seed: int = 20170224,
    changes: tuple = (),
    far: bool = False,
) -> list:
    """Compare the result ``closed_form`` with the definition at sampled points; return the evidence.

    ``closed_form`` is the result as returned (a Piecewise with its ∞ branch, or an
    expression that holds under ``conditions``, else ∞).  ``order`` is a number, or a
    symbol standing for the orders of ``hyp`` (above 1, or below 1 with
    ``hyp.below_one``).  Points where P or Q is not a valid law (p > 1 for a pmf
    written with 1 − p) are skipped; every other point is checked in the branch it
    falls in, the ∞ branch included.

    ``changes`` are changes of variables t = g(x) of the whole support
    (:class:`rdpsym.engine.transform.Substitution`, from the derivation) in which the
    definition is integrated first: quadrature of a Gumbel pair in x meets e^{−e^{−x}},
    in t = e^{−x} it meets an exponential.  The laws' images P(x(t))·|x′(t)| are built
    from the raw pdfs, and each must integrate to 1 in t (to the digits compared)
    before the value is used, which checks the map and its Jacobian.  Where the
    quadrature in x does not settle (power-law tails), t = log(x − l) is tried too.

    ``far``: the result is also tried at each parameter far past the sampling pools (1/20 and 20 for a positive
    one: :func:`~rdpsym.derive.sampling.far_values`), where only a disagreement counts (a KL that is finite only
    where a moment of P is).
    """
    claimed = closed_form
    if conditions and not isinstance(closed_form, sp.Piecewise) and closed_form != sp.oo:
        claimed = sp.Piecewise((closed_form, sp.And(*conditions)), (sp.oo, True))
    return OneDimensionalCheck(P, Q, order, claimed, hyp, seed, changes, far).run()


class OneDimensionalCheck(Check):
    """The check of a result for laws in one variable (:class:`~rdpsym.laws.densities.Continuous`,
    :class:`~rdpsym.laws.densities.Discrete`): the definition by certified quadrature where it applies, else by
    :func:`~rdpsym.derive.definition.univariate_divergence_mp`, in the derivation's change of variables first."""

    def __init__(self, P: Density, Q: Density, order, claimed: sp.Basic, hyp: Hypotheses, seed: int,
                 changes: tuple = (), far: bool = False):
        super().__init__(P, Q, order, claimed, hyp, seed, P.parameters | Q.parameters, far=far)
        # The derivation's changes of variables, for the check's quadrature (the better-behaved integrand), but
        # not one whose inverse is the inverse error function (t = Φ(x)): mpmath's erfinv at every node made a
        # skew-normal law's check 30 s, where the definition in x takes 2.
        self.changes = tuple(c for c in changes if not (c.inverse is not None and c.inverse.has(sp.erfinv)))
        self.same_law = same_law(P, Q)

    def laws_at(self, point: dict) -> tuple[Density, Density] | None:
        P, Q = self.P, self.Q
        try:
            Pp = P.subs({s: v for s, v in point.items() if s in P.parameters})
            Qp = Q.subs({s: v for s, v in point.items() if s in Q.parameters})
        except DensityError as exc:
            if not self.params:
                raise  # nothing to resample: the density itself is invalid
            error = self.not_laws(point, exc)
            if error is None:
                return None
            raise error from None
        if self.params and not self.same_law and same_law(Pp, Qp):
            # P = Q at this point (λ₁ = λ₂): D = 0 exactly, which tests nothing, and a closed form's
            # cancellation there is at the working precision's noise; another point tests more.
            return None
        return Pp, Qp

    def certified(self, Pp: Density, Qp: Density, at):
        # The definition's integral as a certified Arb ball (rdpsym.derive.certified) where it applies.
        return certified_divergence(Pp, Qp, at, AGREE_DIGITS) if at is not sp.oo else None

    def definition(self, Pp: Density, Qp: Density, at, closed, point: dict, where: Callable[[], str]):
        numeric, integrated_in = None, None
        for change in self.changes:  # the derivation's own change of variables first: the better-behaved integrand
            numeric, integrated_in = _in_new_variable(Pp, Qp, at, change, point, closed)
            if numeric is not None:
                return numeric, integrated_in
        try:
            return univariate_divergence_mp(Pp, Qp, at, dps=AGREE_DIGITS + 5, seconds=POINT_SECONDS,
                                            against=closed), None
        except ConvergenceError as exc:
            numeric = _supremum_at_ends(Pp, Qp, closed) if at is sp.oo else None
            for change in () if numeric is not None else _fallback_changes(Pp, Qp):
                numeric, integrated_in = _in_new_variable(Pp, Qp, at, change, {}, closed)
                if numeric is not None:
                    break
            if numeric is not None:
                return numeric, integrated_in
            # The check's own quadrature failed: nothing is known against the closed form there.
            return self.skip(exc, point, at, Pp, Qp, where)


def _in_new_variable(P: Density, Q: Density, order, change, point: dict, closed=None):
    """D_order of the laws' images under t = g(x) (``change``), or (None, None) when that cannot be trusted.

    The images P(x(t))·|dx/dt| are built from the raw pdfs with the parameters' values, on
    the image of P's support (the integrand P^α Q^{1−α} vanishes off it, and so does P log P/Q);
    Q's support must contain it.  P's image must integrate to 1 in t to :data:`AGREE_DIGITS`
    digits (a wrong map or Jacobian would not), and the quadrature must settle.  ``closed``: the value being
    checked (:func:`~rdpsym.derive.definition.univariate_divergence_mp`'s ``against``).
    """
    if P.discrete or getattr(P, "table", None) is not None:
        return None, None

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
        mass = law_mass(image, AGREE_DIGITS + 5)
        if abs(mass - 1) > mpmath.mpf(10) ** (-AGREE_DIGITS):
            return None, None
        value = univariate_divergence_mp(*images, order, dps=AGREE_DIGITS + 5, seconds=POINT_SECONDS, against=closed)
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
        for pair in definition_regions(P, Q):
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


def is_zero(difference: sp.Expr, hyp: Hypotheses, seconds: float = 10.0) -> bool:
    """Decide ``difference == 0`` symbolically: cheap rewrites first, ``simplify`` last.

    Only True is a proof; False means "not shown" (never "shown unequal").
    """
    beta = sp.Dummy("beta", positive=True)
    d = difference.xreplace({hyp.order_symbol: 1 + beta}) if hyp.order_symbol is not None else difference
    attempts: list[Callable[[sp.Expr], sp.Expr]] = [
        lambda e: sp.expand(e),
        lambda e: sp.cancel(sp.expand(sp.powsimp(sp.expand(e)))),
        lambda e: sp.expand(expand_logs(sp.powsimp(sp.expand(e), force=True))),
        lambda e: sp.simplify(expand_logs(e)),
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
