"""The worst case over a sensitivity ball: a mechanism's RDP in d dimensions, derived as steps and checked.

A built-in mechanism in d dimensions (``rdpsym.gaussian(σ, Δ, dimension=d)``,
``rdpsym.laplace(b, Δ, dimension=d)``) carries a sensitivity ball in its
reference.  The divergence of a shift v is the sum of the coordinates' costs
f(v_i), f derived by the one-dimensional engine (:mod:`rdpsym.derive.univariate`);
on an ℓ₂ ball with f = c·t² the worst case is c·Δ² (any point of the sphere), on
an ℓ₁ ball with f convex and f(0) = 0 it is f(Δ) (one coordinate).  Convexity is
read from f's form, or checked numerically; the worst case is checked at other
shifts in the ball.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from rdpsym.derive.derivation import Derivation
from rdpsym.derive.joint_blocks import _at, _divergence, _rename_steps, align
from rdpsym.derive.joint_check import _check, _equal_to_reference, _sample
from rdpsym.derive.joint_numeric import renyi_divergence_mp_1d
from rdpsym.derive.univariate import univariate_divergence
from rdpsym.derive.values import branch_at, closed_value
from rdpsym.engine.context import Hypotheses, simplify_condition
from rdpsym.foundations.errors import NoClosedFormError, VerificationError
from rdpsym.foundations.notation import DensityAt, Norm, Shifted
from rdpsym.foundations.notation import P as P_
from rdpsym.foundations.notation import Q as Q_
from rdpsym.foundations.precision import sympy_evalf_guard
from rdpsym.foundations.record import (
    ConvexCost,
    Given,
    NotShownEqual,
    ProvedEqual,
    Published,
    ShiftCoordinates,
    Status,
    Step,
    SumOfCoordinates,
    SumOfSquares,
    WorstCaseChecked,
    WorstCaseOverBall,
    point_items,
)
from rdpsym.laws.additive_noise import SensitivityBall
from rdpsym.laws.densities import Continuous, Density

oo = sp.oo


def _ball_derivation(P, Q, order, hyp: Hypotheses, reference, ball: SensitivityBall) -> Derivation:
    """The mechanism's RDP: the divergence of a shift, maximised over the sensitivity ball, as steps."""
    Z = ball.noise
    x = Z.var
    t = ball.shift
    Zt = Continuous(Z.expr.xreplace({x: x - t}), x, sp.Interval(Z.lo + t, Z.hi + t), check=False)
    Zs = sp.Symbol("Z")
    d1 = univariate_divergence(Z, Zt, order)
    if not d1.is_closed_form:
        raise NoClosedFormError("the divergence of a shifted coordinate has no closed form")
    f = d1.closed_form
    i = sp.Symbol("i", integer=True, positive=True)
    v = sp.IndexedBase("v")
    d, delta = ball.dimension, ball.radius
    Qv = sp.Symbol("Q_v")
    D = _divergence(P_, Qv, order)
    steps = [Step(DensityAt(Zs, x), "=", Z.expr, Given("noise", (Z.support,)))]
    steps.append(Step(D, "=", sp.Sum(_divergence(Zs, Shifted(Zs, v[i]), order), (i, 1, d)),
                      ShiftCoordinates(ball.norm, delta)))
    steps += _rename_steps(d1.steps, {P_: Zs, Q_: Shifted(Zs, t)})
    conditions = d1.conditions
    checked_convexity = None
    if f == oo:
        steps.append(Step(D, "=", oo, SumOfCoordinates()))
        worst = oo
    elif ball.norm == 2:
        c = _square_coefficient(f, t)
        if c is None:
            raise NoClosedFormError("an ℓ₂ ball needs a coordinate cost c·t² (Gaussian noise); this noise's is "
                                    f"{f}")
        steps.append(Step(D, "=", sp.Sum(c * v[i] ** 2, (i, 1, d)), SumOfCoordinates()))
        steps.append(Step(D, "=", c * Norm(v, 2) ** 2, SumOfSquares()))
        worst = sp.factor(c * delta**2)
        steps.append(Step(D, "<=", worst, WorstCaseOverBall(2, "sphere")))
    else:
        why = _convexity(f, t, hyp)
        checked_convexity = why is None
        at_zero = sp.simplify(f.subs(t, 0))
        if at_zero != 0:
            raise NoClosedFormError(f"the coordinate cost at t = 0 is {at_zero}, not 0")
        if why is None:
            _check_convex_numerically(f, t, order, delta, hyp)
        steps.append(Step(D, "=", sp.Sum(f.subs(t, sp.Abs(v[i])), (i, 1, d)), SumOfCoordinates()))
        fdelta = f.subs(t, delta)
        steps.append(Step(D, "<=", sp.Sum(sp.Abs(v[i]) / delta * fdelta, (i, 1, d)),
                          ConvexCost(why or "f'' >= 0 checked numerically", proved=why is not None),
                          Status.CHECKED if why is None else None))
        worst = fdelta
        steps.append(Step(D, "<=", worst, WorstCaseOverBall(1, "one coordinate")))
    result = worst
    conditions = tuple(simplify_condition(cc.subs(t, delta), hyp) for cc in conditions)
    steps.append(Step(_divergence(P_, Q_, order), "=", result, WorstCaseOverBall(ball.norm, "attained")))
    full = result if not conditions or result == oo else sp.Piecewise((result, sp.And(*conditions)), (oo, True))
    # f(t) was checked against its definition by the 1-D engine; the worst-case value is checked against
    # the worst-case pair's definition at one point, and the maximisation at other shifts in the ball.
    evidence = _check(P, Q, order, full, conditions, hyp, align(P, Q), points=1)
    evidence.append(_check_worst_case(Z, ball, order, full, hyp))
    citation = reference.citation(order)
    ok = _equal_to_reference(result, reference, order, hyp)
    evidence.insert(0, ProvedEqual(citation, "expressions") if ok else NotShownEqual(citation))
    steps.append(Step(_divergence(P_, Q_, order), "=", reference.divergence_at(order), Published(citation),
                      Status.PROVED if ok else Status.CHECKED))
    status = Status.PROVED if ok and not checked_convexity else Status.CHECKED
    return Derivation(order=order, result=full, status=status, steps=tuple(steps), closed_form=result,
                      conditions=conditions, hypotheses=hyp.stated, evidence=tuple(evidence), reference=reference)


def _square_coefficient(f: sp.Expr, t: sp.Symbol) -> sp.Expr | None:
    """c when f = c·t² (c free of t), else None."""
    c = sp.simplify(f / t**2)
    return c if not c.has(t) else None


def _affine(u: sp.Expr, t: sp.Symbol) -> bool:
    return u.is_polynomial(t) and sp.degree(u, t) <= 1


def _convexity(f: sp.Expr, t: sp.Symbol, hyp: Hypotheses) -> str | None:
    """Why f is convex in t ≥ 0, read from its form, or None (then it is checked numerically).

    f must be a nonnegative combination of terms that are affine in t, c·t², c·e^{affine}, or
    κ·log Σ_j w_j e^{affine_j} with w_j > 0 (a log-sum-exp of affine functions, convex); signs are
    decided under the hypotheses (κ = 1/(α − 1) > 0 for α > 1).
    """
    reasons: set[str] = set()

    def positive(c: sp.Expr) -> bool:
        return bool(c.is_positive or hyp.is_positive(c))

    def convex(term: sp.Expr) -> bool:
        if _affine(term, t):
            return True
        c, rest = term.as_independent(t, as_Add=False)
        if c != 1:
            return positive(c) and convex(rest)
        if isinstance(rest, sp.Add):
            return all(convex(u) for u in rest.args)
        if rest.is_polynomial(t) and sp.Poly(rest, t).degree() == 2 and positive(sp.Poly(rest, t).LC()):
            reasons.add("a square")
            return True
        if isinstance(rest, sp.exp) and _affine(rest.args[0], t):
            reasons.add("an exponential of an affine function of t")
            return True
        if isinstance(rest, sp.log) and _log_sum_exp(rest.args[0]):
            reasons.add("a log-sum-exp of affine functions of t")
            return True
        return False

    def _log_sum_exp(inner: sp.Expr) -> bool:
        numerator, denominator = sp.fraction(sp.together(inner))
        # A denominator c·e^{affine} only adds an affine function of t to the logarithm.
        constant, moving = denominator.as_independent(t, as_Add=False)
        if not positive(constant) or not all(isinstance(e, sp.exp) and _affine(e.args[0], t)
                                             for e in sp.Mul.make_args(moving) if e != 1):
            return False
        terms = sp.Add.make_args(sp.expand(sp.powsimp(numerator), power_exp=False))
        constant = sp.factor(sp.Add(*[w for w in terms if not w.has(t)]))  # e^{0·t}, one weight
        if constant != 0 and not positive(constant):
            return False
        for w in (w for w in terms if w.has(t)):
            wc, we = w.as_independent(t, as_Add=False)
            factors = sp.Mul.make_args(we)
            if not all(isinstance(e, sp.exp) and _affine(e.args[0], t) for e in factors if e != 1):
                return False
            if not positive(wc):
                return False
        return True

    if not convex(f):
        return None
    return "; ".join(sorted(reasons)) or "affine"


def _check_convex_numerically(f: sp.Expr, t: sp.Symbol, order, delta, hyp: Hypotheses) -> None:
    """f'' ≥ 0 at sampled points of (0, Δ] (parameters and order sampled too): a counterexample is an error."""
    second = sp.diff(f, t, 2)
    free = sorted(second.free_symbols - {t, hyp.order_symbol}, key=lambda s: s.name)
    for n, point in enumerate(_sample(free, hyp.order_symbol, 20140612)):
        if n >= 12:
            break
        for k in (1, 3, 7):
            at = dict(point)
            at[t] = sp.S(delta).subs(point) * sp.Rational(k, 8)
            value = sp.N(second.subs(at), 30)
            if value.is_number and value.is_extended_real and value < 0:
                raise VerificationError(f"the coordinate cost is not convex: f'' = {sp.N(value, 5)} at {at}")


@sympy_evalf_guard.serialized  # mpmath's global precision: one thread at a time
def _check_worst_case(Z: Density, ball: SensitivityBall, order, closed_form, hyp: Hypotheses) -> WorstCaseChecked:
    """No sampled shift in the ball costs more than the closed form (the worst case), at one sampled point."""
    params = sorted((Z.parameters | closed_form.free_symbols | ball.radius.free_symbols) - {hyp.order_symbol},
                    key=lambda s: s.name)
    order_symbol = order if isinstance(order, sp.Symbol) else None
    # Two other shifts: one on the boundary that is not an axis, one inside the ball.
    fractions = ([(sp.Rational(3, 5), sp.Rational(4, 5)), (sp.Rational(1, 2), sp.Rational(1, 2))] if ball.norm == 2
                 else [(sp.Rational(1, 3), sp.Rational(2, 3)), (sp.Rational(1, 4), sp.Rational(1, 4))])
    for point in _sample(params, order_symbol, 1):
        at = point.get(order_symbol, order)
        branch = branch_at(closed_form, point)
        if branch is None:
            continue
        expr = closed_form.args[branch][0] if isinstance(closed_form, sp.Piecewise) else closed_form
        limit = closed_value(expr, point, 50, order_symbol=order_symbol)
        radius = ball.radius.subs(point)
        Zp = _at(Z, point)
        for shares in fractions:
            costs = [renyi_divergence_mp_1d(Zp, Continuous(Zp.expr.xreplace({Zp.var: Zp.var - share * radius}),
                                                           Zp.var, Zp.support), at, 25) for share in shares]
            with mpmath.workdps(30):
                total = mpmath.fsum(costs)
                if total > limit * (1 + mpmath.mpf(10) ** -20) and not mpmath.isinf(limit):
                    raise VerificationError(f"a shift {shares} of the radius costs {mpmath.nstr(total, 20)}, more "
                                            f"than the claimed worst case {mpmath.nstr(limit, 20)} at {point}")
        return WorstCaseChecked(len(fractions), point_items(point, sort=True))
    return WorstCaseChecked(0)
