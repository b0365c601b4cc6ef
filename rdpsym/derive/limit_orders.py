"""D_α at the limit orders: the KL divergence (α → 1) and D_∞ = log sup P/Q (α → ∞).

KL: D_1 = lim_{α→1} log I(α)/(α − 1) = I′(1)/I(1) by L'Hôpital, the moment I(α) derived
by the engine for α > 1 (or below 1 where it diverges above: van Erven–Harremoës 2014,
Theorem 5), its derivative in α written out (incomplete beta, Legendre, ζ′); on tables
Σ p log(p/q).  D_∞: the largest of the pieces' suprema of log P/Q
(:func:`~rdpsym.derive.moments.sup_log_ratio`), or of the outcomes' log-ratios.
Finite orders α ≠ 1 are :mod:`rdpsym.derive.finite_order`.
"""

from __future__ import annotations

import contextlib

import sympy as sp

from rdpsym.derive.moments import moment, sup_log_ratio
from rdpsym.derive.steps import _equals, _moment_steps, _whole_support
from rdpsym.derive.verify import is_zero
from rdpsym.engine.beyond import log_of_a_gaussian_mixture, powers_of_distinct_quadratics
from rdpsym.engine.context import Hypotheses
from rdpsym.engine.integrals import integrate_exp
from rdpsym.engine.pieces import log_of
from rdpsym.engine.series import Quadrature, canonical
from rdpsym.engine.special import ZetaPrime
from rdpsym.engine.tidy import collect_exp, max_of, tidy_kl
from rdpsym.foundations import operations
from rdpsym.foundations.budget import budgeted
from rdpsym.foundations.errors import BeyondSymPy, NoClosedFormError
from rdpsym.foundations.notation import LogRatio
from rdpsym.foundations.notation import P as P_
from rdpsym.foundations.notation import Q as Q_
from rdpsym.foundations.record import (
    ChangeOfVariables,
    DifferentiateMoment,
    Diverges,
    ExpectationOfLogRatio,
    FiniteSum,
    Largest,
    LHopital,
    OnInterval,
    PieceSuprema,
    Step,
)
from rdpsym.foundations.symbols import alpha
from rdpsym.laws.densities import Discrete, common_refinement, piece_point

oo = sp.oo


def _kl(P, Q, tables, changes: list | None = None) -> tuple:
    if tables is not None:
        tp, tq = tables
        terms = []
        for key, p in tp.items():
            q = tq.get(key, sp.S.Zero)
            if p == 0:
                continue
            if q == 0:
                diverges = Diverges("outcome", at=key, expression=p, for_orders_above_one=False)
                return oo, (), [_equals(1, oo, diverges)], oo
            terms.append(p * (sp.log(p) - sp.log(q)))
        kl = tidy_kl(sp.Add(*terms))
        return kl, (), [_equals(1, kl, FiniteSum(kl=True))], None
    # A private order symbol: a density parameter named alpha must not be differentiated.
    a = sp.Dummy("alpha", positive=True)
    try:
        M = moment(P, Q, a, Hypotheses(a))
    except NoClosedFormError:
        # No moment at a general order (two Gumbel laws of different scales: ∫ e^{−αx−(1−α)x/b−αe^{−x}−…}),
        # while the KL needs only expectations under P of the log-ratio's terms.
        return _kl_as_expectation(P, Q)
    side = "+"
    if M.value == oo and not M.support_mismatch:
        # I(α) = ∞ for every α > 1 says nothing about the limit α → 1 (an exponential law against a
        # half-normal one): the KL is the limit from below, D_1 = lim_{α→1⁻} log I(α)/(α − 1) = I′(1⁻),
        # with I derived for 0 < α < 1 (van Erven–Harremoës 2014, Theorem 5: D_α → KL as α ↑ 1).
        # The limit α → 1⁻ of that moment's form (an erfc whose argument grows like 1/√(1 − α)) is rarely one
        # SymPy finishes, and it ran to its budget first (a Laplace law against a shifted Gaussian one: 9 s of CPU
        # before the expectation answered): the KL as the expectation E_P[log P − log Q] itself, term by term,
        # is tried first, and the limit only where that has no closed form.
        with contextlib.suppress(NoClosedFormError):
            return _kl_as_expectation(P, Q)
        above = M
        M, side = moment(P, Q, a, Hypotheses(a, below_one=True)), "-"
        if M.value in (oo, 0):
            raise NoClosedFormError(f"the moment diverges for α > 1 ({operations.text(above.divergence)}); "
                                    "KL needs the definition")
        return _kl_from_moment(P, Q, M, a, "-", changes)
    try:
        found = _kl_from_moment(P, Q, M, a, side, changes)
    except NoClosedFormError:
        return _kl_as_expectation(P, Q)
    kl = found[0]
    if isinstance(kl, sp.Basic) and kl.has(sp.Subs, sp.Derivative) and \
            _derivatives_written_out(kl).has(sp.Subs, sp.Derivative):
        # The moment's derivative in α at 1 is one SymPy cannot take (a ₂F₁ in its parameters: two half-Cauchy
        # laws); the expectation of the log-ratio may still be elementary.
        with contextlib.suppress(NoClosedFormError):
            return _kl_as_expectation(P, Q)
    return found


def _expectation(log_p: sp.Expr, p: sp.Expr, term: sp.Expr, var: sp.Symbol, lo, hi) -> sp.Expr:
    """∫_lo^hi P·term by the engine's integrals of exp(log P + …) (their substitutions: t = e^{−x} for Gumbel
    laws), else by SymPy: c·e^g as c·∫ e^{log P + g}; any other term h as d/dt ∫ e^{log P + t·h} at t = 0 (E_P[x]
    of a Gumbel law is Γ′(1 − t)… = γ, where SymPy's own integral says γ + iπ)."""
    constant, factor = term.as_independent(var, as_Add=False)
    t = sp.Dummy("t", real=True)
    generating = log_p + (factor.args[0] if isinstance(factor, sp.exp) else t * term)
    try:
        if isinstance(factor, sp.exp):
            found = integrate_exp(generating, var, lo, hi, Hypotheses())
            if Hypotheses().holds(found.condition) is not True:  # a value only where a condition holds: not this
                raise NoClosedFormError("the expectation converges only under a condition")
            return constant * found.value
        # The rules only: SymPy's own integral of e^{log P + t·h} in a symbolic t spent its whole budget where its
        # integral of P·h itself, below, is a rational function's (a truncated Pareto law against a Laplace law:
        # E_P[x], and the KL 34 → 1.6 s); on the textbook table's KLs and the fuzzers' it was never reached.
        found = integrate_exp(generating, var, lo, hi, Hypotheses().without_fallback())
        if Hypotheses().holds(found.condition.subs(t, 0)) is not True or found.value.has(sp.Piecewise):
            # Cases in t (E_P[x²/2] of an exponential law: the integral is finite only for t ≤ 0, and its t = 0
            # branch is the constant 1, whose derivative 0 is not the expectation): no two-sided derivative.
            raise NoClosedFormError("the generating integral is not one smooth function of t around t = 0")
        value = sp.diff(found.value, t).subs(t, 0)
        return value if not value.has(sp.nan, sp.zoo) else sp.limit(sp.diff(found.value, t), t, 0)
    except NoClosedFormError as exc:
        if powers_of_distinct_quadratics(generating, var):
            # E_P[log q₂] of a Student t law against another: the t-derivative of an Appell-type integral.
            # (Not so the polynomial shapes: E_P[x²] of P ∝ e^{−x⁴} is a Γ value where ∫ e^{−x⁴ + t·x²} is none.)
            raise BeyondSymPy(f"E_P[{term}] is the derivative in t of an Appell-type integral") from exc
        if log_of_a_gaussian_mixture(term, var):
            raise BeyondSymPy(f"E_P[{term}] is a Gaussian mixture's cross-entropy, which has no closed form") from exc
        # With its convergence conditions: conds="none" dropped them, and E_P[x] of a Pareto law of shape 5a came
        # out 5a/(5a − 1) for every a (∞ for a ≤ 1/5), a KL returned `checked` at −5.69 where it is ∞ (a probe).
        found = sp.integrate(p * term, (var, lo, hi), conds="piecewise")
        if isinstance(found, sp.Piecewise):  # the first branch that holds, past only branches that cannot
            decided = [Hypotheses().holds(condition) for _, condition in found.args]
            first = next((i for i, d in enumerate(decided) if d is not False), None)
            found = found.args[first][0] if first is not None and decided[first] is True else None
        if found is None or found.has(sp.Piecewise, sp.Integral):
            raise NoClosedFormError(f"E_P[{term}] converges only under a condition") from exc
        return found


#: CPU seconds the expectation E_P[log P − log Q] may take (:func:`_kl_as_expectation`).
_EXPECTATION_SECONDS = 5.0


def _kl_as_expectation(P, Q) -> tuple:
    """KL = Σ over the pieces of ∫ P·(log P − log Q), each log a sum of logarithms of positive factors on its
    piece (an exponential law against a half-normal one: log r − r·x + x²/2 + log √(π/2), whose terms integrate
    against P at once), by SymPy within :data:`_EXPECTATION_SECONDS`; the caller checks it against the
    definition like every result."""
    if isinstance(P, Discrete):
        raise NoClosedFormError("the KL of two pmfs as an expectation is summed by the definition")
    var, total = P.var, sp.S.Zero
    for pair in common_refinement(P, Q):
        if pair.p == 0:
            continue
        if pair.q == 0:
            raise NoClosedFormError("P > 0 = Q on a piece: the moment's own route says ∞")
        at = piece_point(pair.lo, pair.hi, False)
        ratio = sp.expand(log_of(pair.p, var, at) - log_of(pair.q, var, at))
        terms = ratio.args if isinstance(ratio, sp.Add) else (ratio,)
        log_p = log_of(pair.p, var, at)
        value = budgeted(lambda terms=terms, pair=pair, log_p=log_p: sp.Add(*[
            _expectation(log_p, pair.p, term, var, pair.lo, pair.hi) for term in terms]),
            "the KL as an expectation", seconds=_EXPECTATION_SECONDS)
        if value.has(sp.Integral, sp.nan, sp.zoo) or value.is_finite is False:
            raise NoClosedFormError(f"the expectation of log P/Q on ({pair.lo}, {pair.hi}) is not in closed form")
        total += value
    # SymPy's integrals of log terms may carry ±iπ in matching branches (log(g² − 1) − iπ beside acoth(g) + iπ/(2g)):
    # folded into one Piecewise and expanded, they cancel; a form that stays complex, or a Meijer G, is no answer.
    total = sp.piecewise_fold(total).replace(lambda e: isinstance(e, sp.Piecewise), lambda e: sp.Piecewise(
        *[(sp.expand(value), condition) for value, condition in e.args]))
    if total.has(sp.I, sp.meijerg):
        raise NoClosedFormError("the expectation of log P/Q came out complex or as a Meijer G function")
    kl = tidy_kl(total)
    return kl, (), [_equals(1, kl, ExpectationOfLogRatio())], None


def _kl_from_moment(P, Q, M, a, side: str, changes) -> tuple:
    steps = _moment_steps(P, M, a)
    if changes is not None:
        changes.extend(_whole_support([(pair, piece.substitution) for pair, _, piece in M.pieces]))
    if M.value == oo:
        mismatch = M.divergence
        return oo, (), steps + [_equals(1, oo, Diverges("support", mismatch.lo, mismatch.hi,
                                                         for_orders_above_one=False))], oo
    # Each rule's condition says exactly when its piece converges; at α = 1 the piece's integrand
    # is P itself, which integrates: so a condition SymPy cannot decide at α = 1 (2·log(1 − t) < 0
    # for a geometric law in t) holds there for every valid parameter value, and, being strict, near
    # α = 1 too. Only one decided false (a P that does not normalise) stops the derivation.
    at_one = [c.subs(a, 1) for c in M.conditions]
    if any(c is sp.false or Hypotheses().holds(c) is False for c in at_one):
        raise NoClosedFormError("the moment's convergence condition fails at α = 1")
    I = collect_exp(M.value)
    # D_α = log I(α)/(α−1) → (log I)'(1) = I'(1)/I(1) as α → 1, since log I(1) = log ∫P = 0.
    if isinstance(M.value, (sp.Pow, sp.exp)) or (isinstance(M.value, sp.Mul) and M.value.has(a)):
        # A product or power (the binomial theorem's (…)^n): (log I)' = Σ n·(log base)', without
        # expanding I' into the n + 1 terms of the product rule.
        kl = tidy_kl(_at_one(_log_derivative(M.value, a), a, side))
    else:
        at_1 = _at_one(I, a, side)
        derivative = _at_one(sp.diff(I, a), a, side)
        kl = tidy_kl(derivative if is_zero(at_1 - 1, Hypotheses()) else derivative / at_1)
    moment_of = sp.Function("I")
    rule = LHopital(from_below=side == "-")
    steps.append(_equals(1, sp.Limit(sp.log(moment_of(alpha)) / (alpha - 1), alpha, 1, side), rule))
    steps.append(_equals(1, sp.Subs(sp.Derivative(moment_of(alpha), alpha), alpha, 1) / moment_of(1), rule))
    steps.append(_equals(1, kl, DifferentiateMoment()))
    return kl, (), steps, I


def _derivatives_written_out(expr: sp.Expr) -> sp.Expr:
    """The derivatives left by differentiating a moment in α, written as what they are.

    * ∂/∂a of an incomplete beta B_{z₁,z₂}(a, b): the integral ∫_{z₁}^{z₂} t^{a−1}(1 − t)^{b−1} log t dt
      (log(1 − t) for b), which evaluates to any precision;
    * ∂/∂ν of the Legendre function P_ν(z) at ν = 0 (the Cauchy laws' moment at α = 1): log((1 + z)/2).
      From P_ν(z) = ₂F₁(−ν, ν + 1; 1; w), w = (1 − z)/2: the k-th coefficient (−ν)_k (ν + 1)_k/(k!)²
      is −ν·(k − 1)!·k!/(k!)² + O(ν²), so ∂/∂ν at 0 is −Σ_{k≥1} w^k/k = log(1 − w);
    * ζ′(s) (the Zipf laws' moment at α = 1): :class:`~rdpsym.engine.special.ZetaPrime`, which evaluates
      to any precision.
    """
    def rewrite(e):
        if not (isinstance(e, sp.Subs) and isinstance(e.expr, sp.Derivative)):
            return e
        derivative = e.expr
        inner = derivative.expr
        (variable, count), = derivative.variable_count
        values = dict(zip(e.variables, e.point))
        if count == 1 and isinstance(inner, sp.legendre) and inner.args[0] == variable:
            degree, z = (arg.xreplace(values) for arg in inner.args)
            return sp.log((1 + z) / 2) if degree == 0 else e
        if count == 1 and isinstance(inner, sp.zeta) and len(inner.args) == 1 and inner.args[0] == variable:
            return ZetaPrime(inner.args[0].xreplace(values))
        if not isinstance(inner, sp.betainc) or count != 1:
            return e
        a, b, z1, z2 = (arg.xreplace(values) for arg in inner.args)
        position = inner.args.index(variable) if variable in inner.args else None
        if position not in (0, 1):
            return e
        t = sp.Dummy("t", positive=True)
        weight = sp.log(t) if position == 0 else sp.log(1 - t)
        return Quadrature(t ** (a - 1) * (1 - t) ** (b - 1) * weight, (t, z1, z2))

    return expr.replace(lambda e: isinstance(e, sp.Subs), rewrite)


def _log_derivative(expr: sp.Expr, a: sp.Symbol) -> sp.Expr:
    """d/dα log(expr), through products, powers with exponents free of α, and exponentials."""
    if not expr.has(a):
        return sp.S.Zero
    if isinstance(expr, sp.Mul):
        return sp.Add(*[_log_derivative(f, a) for f in expr.args])
    if isinstance(expr, sp.Pow) and not expr.exp.has(a):
        return expr.exp * _log_derivative(expr.base, a)
    if isinstance(expr, sp.exp):
        return sp.diff(expr.args[0], a)
    return sp.diff(expr, a) / expr


def _at_one(expr: sp.Expr, a: sp.Symbol, side: str = "+") -> sp.Expr:
    """expr at α = 1, as the limit α → 1⁺ (``side`` "-": 1⁻) where substitution gives 0/0.

    A rule valid for α ≠ 1 (e.g. (e^{(1−α)h} − 1)/(1 − α)) is 0/0 there.
    """
    value = canonical(expr.subs(a, 1))
    # (a series' own limits ±∞ are not a failed substitution)
    outside_series = value.xreplace({s: sp.Dummy() for s in value.atoms(sp.Sum)})
    if not outside_series.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
        return value
    # From below (a moment derived for 0 < α < 1 only) the form is rarely one SymPy's limit finishes: a shorter budget.
    value = budgeted(lambda: sp.limit(expr, a, 1, side), "limit α → 1", seconds=5.0 if side == "+" else 2.0)
    if value.has(sp.nan, sp.zoo, sp.Limit):
        raise NoClosedFormError("no limit of the moment at α = 1")
    return value


def _sup(P, Q, tables, changes: list | None = None) -> tuple:
    if tables is not None:
        tp, tq = tables
        values = []
        for key, p in tp.items():
            q = tq.get(key, sp.S.Zero)
            if p == 0:
                continue
            if q == 0:
                return oo, (), [_equals(oo, oo, Diverges("outcome", at=key, expression=p,
                                                         for_orders_above_one=False))], None
            values.append(sp.log(p / q))
        d = max_of(values)
        return d, (), [_equals(oo, sp.Max(*values, evaluate=False), Largest("outcomes")),
                       _equals(oo, d, Largest("log-ratios"))], None
    values, diverges, pieces = sup_log_ratio(P, Q)
    if changes is not None and len(pieces) == 1 and pieces[0][4] is not None:
        changes.append(pieces[0][4])
    steps = []
    for R, lo, hi, _, substitution in pieces:
        steps.append(Step(LogRatio(P_, Q_, P.var), "=", R, OnInterval(lo, hi)))
        while substitution is not None:  # the supremum found in t = g(x): log(P/Q) in t
            steps.append(Step(LogRatio(P_, Q_, P.var), "=", substitution.exponent, ChangeOfVariables(
                substitution.variable, substitution.forward, substitution.lo, substitution.hi, jacobian=False)))
            substitution = substitution.then
    if values == oo:
        return oo, (), steps + [_equals(oo, oo, diverges)], None
    d = max_of(values)
    steps.append(_equals(oo, sp.Max(*values, evaluate=False) if len(values) > 1 else values[0], PieceSuprema()))
    if len(values) > 1:
        steps.append(_equals(oo, d, Largest("suprema")))
    return d, (), steps, None
