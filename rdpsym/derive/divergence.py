"""Rényi divergences derived in closed form from two densities.

    D_α(P‖Q) = 1/(α−1) · log ∫ P(x)^α Q(x)^{1−α} dx        (Mironov 2017, Definition 3)

with the limits D_1 = KL(P‖Q) and D_∞ = log sup P/Q.  :func:`renyi_divergence`
returns a :class:`~rdpsym.derive.derivation.Derivation`: the closed form, the
chain of steps that produced it (SymPy objects related by rules, no text), its
convergence conditions and how it was established.
"""

from __future__ import annotations

import sympy as sp

from rdpsym.derive.derivation import Derivation
from rdpsym.derive.moments import Moment, moment, sup_log_ratio
from rdpsym.derive.numeric import renyi_divergence_mp
from rdpsym.derive.verify import check_against_definition, is_zero
from rdpsym.engine.context import Hypotheses, simplify_condition
from rdpsym.engine.tidy import collect_exp, divergence_from_moment, max_of, tidy_kl
from rdpsym.foundations import operations
from rdpsym.foundations.arithmetic import MAX_DERIVED_POWER_DIGITS, power_problem
from rdpsym.foundations.budget import budgeted
from rdpsym.foundations.errors import DomainError, NoClosedFormError, must
from rdpsym.foundations.notation import (
    DensityAt,
    KLExpectation,
    LogRatio,
    OutcomeTable,
    PieceSum,
    RenyiDivergence,
    RenyiMoment,
    SupLogRatio,
    omega,
)
from rdpsym.foundations.notation import (
    P as P_,
)
from rdpsym.foundations.notation import (
    Q as Q_,
)
from rdpsym.foundations.reading import parse_order
from rdpsym.foundations.record import (
    Definition,
    DifferentiateMoment,
    Diverges,
    FiniteSum,
    FromDefinition,
    Given,
    Largest,
    LHopital,
    NoClosedForm,
    NotShownEqual,
    Numeric,
    OnInterval,
    PieceRule,
    PieceSuprema,
    ProvedEqual,
    Published,
    Simplified,
    SplitAtKinks,
    Status,
    Step,
    SumOfPieces,
    TakeLogarithm,
)
from rdpsym.foundations.symbols import alpha
from rdpsym.laws.densities import Density, Discrete, align_pair
from rdpsym.laws.references import Reference

oo = sp.oo


def renyi_divergence(
    P: Density,
    Q: Density,
    order: object = alpha,
    *,
    reference: Reference | None = None,
) -> Derivation:
    """D_order(P‖Q) in closed form, checked against the definition.

    Parameters
    ----------
    P, Q : Continuous or Discrete
    order : Symbol or number
        A symbol means a general order under the hypothesis ``order > 1``;
        a number in (0, ∞) a fixed order; ``1`` the KL divergence; ``oo`` D_∞.
    reference : Reference, optional
        A published form to prove the result equal to (status ``"proved"``).

    Returns
    -------
    Derivation
        ``.result`` is the closed form (``Piecewise((value, condition), (oo, True))``
        when convergence needs a condition), ``.status`` how it was established.
        When no closed form exists and P, Q have no free parameters, the result
        is an mpmath number from the definition with status ``"numeric"``.

    Examples
    --------
    >>> import sympy as sp, rdpsym
    >>> x = sp.Symbol("x", real=True)
    >>> l1, l2 = sp.symbols("lambda1 lambda2", positive=True)
    >>> P = rdpsym.Continuous(l1 * sp.exp(-l1 * x), x, support=sp.Interval(0, sp.oo))
    >>> Q = rdpsym.Continuous(l2 * sp.exp(-l2 * x), x, support=sp.Interval(0, sp.oo))
    >>> d = renyi_divergence(P, Q, 1)
    >>> d.result, d.status
    (log(lambda1/lambda2) - 1 + lambda2/lambda1, <Status.CHECKED: 'checked'>)
    """
    P, Q, tables = align_pair(P, Q)
    order = parse_order(order)
    if isinstance(order, sp.Symbol) and order in P.parameters | Q.parameters:
        raise DomainError(must("order", f"a symbol that is not a parameter of P or Q (rename {order} in the densities)",
                               order))
    hyp = Hypotheses(order if isinstance(order, sp.Symbol) else None)
    steps: list[Step] = [*_density_steps(P, Q, tables), _definition_step(P, order, tables)]
    try:
        if order is oo:
            closed, conditions, more, I = _sup(P, Q, tables)
        elif order == 1:
            closed, conditions, more, I = _kl(P, Q, tables)
        else:
            closed, conditions, more, I = _finite(P, Q, order, hyp, tables)
    except NoClosedFormError as exc:
        return _numeric_fallback(P, Q, order, steps, str(exc))
    steps.extend(more)
    if reference is None:
        polished = _polish(closed)
        if polished is not closed:
            steps.append(_equals(order, polished, Simplified()))
            closed = polished
    conditions = tuple(simplify_condition(c, hyp) for c in conditions)
    result = closed if not conditions or closed == oo else sp.Piecewise((closed, sp.And(*conditions)), (oo, True))
    evidence = check_against_definition(P, Q, order, result, conditions, hyp)
    status = Status.CHECKED
    if reference is not None:
        citation = reference.citation(order)
        proof = _prove(reference, order, closed, I, hyp)
        status = Status.PROVED if proof is not None else Status.CHECKED
        evidence.insert(0, proof if proof is not None else NotShownEqual(citation))
        steps.append(_equals(order, reference.divergence_at(order), Published(citation), status))
    return Derivation(
        order=order,
        result=result,
        status=status,
        steps=tuple(steps),
        closed_form=closed,
        conditions=conditions,
        hypotheses=(order > 1,) if isinstance(order, sp.Symbol) else (),
        evidence=tuple(evidence),
        reference=reference,
        moment=I,
    )


def _divergence(order: sp.Expr) -> RenyiDivergence:
    """D_order(P‖Q), the left side of the derivation's main chain."""
    return RenyiDivergence(P_, Q_, order)


def _equals(order: sp.Expr, rhs: object, rule, status: Status | None = None) -> Step:
    """``D_order(P‖Q) = rhs`` because ``rule``."""
    return Step(_divergence(order), "=", rhs, rule, status)


def _density_steps(P: Density, Q: Density, tables) -> list[Step]:
    """The two densities (or finite laws), as the derivation's first lines."""
    if tables is not None:
        rule = Given("laws")
        return [Step(P_, "=", OutcomeTable(tables[0]), rule), Step(Q_, "=", OutcomeTable(tables[1]), rule)]
    x = P.var
    supports = (P.support,) if P.support == Q.support else (P.support, Q.support)
    rule = Given("densities", supports)
    return [Step(DensityAt(P_, x), "=", P.expr, rule), Step(DensityAt(Q_, x), "=", Q.expr, rule)]


def _definition_step(P: Density, order: sp.Expr, tables) -> Step:
    """Definition 3 at this order: the moment's logarithm, the KL's expectation or D_∞'s supremum."""
    x = omega if tables is not None or P.var is None else P.var
    if order is oo:
        return _equals(order, SupLogRatio(P_, Q_, x), Definition(limit=oo))
    if order == 1:
        return _equals(order, KLExpectation(P_, Q_, x), Definition(limit=sp.S.One))
    integral = RenyiMoment(P_, Q_, order, x, discrete=isinstance(P, Discrete))
    return _equals(order, _log_over(integral, order), Definition())


def _log_over(moment: sp.Expr, order: sp.Expr) -> sp.Expr:
    """log(moment)/(order − 1), unevaluated, as Definition 3 prints it (no factor at order 2)."""
    log = sp.log(moment, evaluate=False)
    if order == 2:
        return log
    return sp.Mul(1 / (order - 1), log, evaluate=False)


def _finite(P, Q, order, hyp, tables) -> tuple:
    if tables is not None:
        I, diverges = _table_moment(*tables, order, hyp)
        steps = [Step(RenyiMoment(P_, Q_, order, omega, discrete=True), "=", I, FiniteSum())]
        if I == oo:
            return oo, (), steps + [_equals(order, oo, diverges)], I
        D = divergence_from_moment(I, order)
        return D, (), steps + [_equals(order, D, TakeLogarithm(order))], I
    M = moment(P, Q, order, hyp)
    steps = _moment_steps(P, M, order)
    if M.value == oo:
        steps.append(_equals(order, oo, M.divergence))
        return oo, (), steps, oo
    I = collect_exp(M.value) if isinstance(M.value, sp.Add) else M.value
    D = divergence_from_moment(I, order, _positive_under(M.conditions, hyp))
    steps.append(_equals(order, D, TakeLogarithm(order)))
    return D, M.conditions, steps, I


def _positive_under(conditions: tuple, hyp: Hypotheses):
    """A positivity test that also knows what the convergence conditions imply."""
    known = [c.gts - c.lts for c in conditions if isinstance(c, (sp.StrictGreaterThan, sp.StrictLessThan))]

    def positive(e: sp.Expr) -> bool:
        if hyp.is_positive(e):
            return True
        if isinstance(e, sp.Pow) and e.exp.is_real:
            return positive(e.base)
        if isinstance(e, sp.exp):
            return True
        # 1 − e^u > 0 iff u < 0, and e^u − 1 > 0 iff u > 0 (geometric-series denominators).
        c, rest = e.as_coeff_Add()
        if c == 1 and isinstance(-rest, sp.exp):
            return positive(-(-rest).args[0])
        if c == -1 and isinstance(rest, sp.exp):
            return positive(rest.args[0])
        for k in known:
            ratio = sp.cancel(sp.together(e / k))
            if hyp.is_positive(ratio):
                return True
        return False

    return positive


def _moment_steps(P: Density, M: Moment, order) -> list[Step]:
    """The moment split into pieces, each piece by its engine rule, and the pieces summed."""
    if not M.pieces:
        return []
    x = P.var
    discrete = isinstance(P, Discrete)
    make = (lambda L, lo, hi: sp.Sum(sp.exp(L), (x, lo, hi))) if discrete else (
        lambda L, lo, hi: sp.Integral(sp.exp(L), (x, lo, hi)))
    lhs = RenyiMoment(P_, Q_, order, x, discrete=discrete, pointwise=False)
    split = PieceSum(*[make(L, pair.lo, pair.hi) for pair, L, _ in M.pieces])
    steps = [Step(lhs, "=", split, SplitAtKinks())]
    for pair, L, piece in M.pieces:
        # Grouped by exponential and with each exponent factored (the Gaussian rule's raw
        # exponent e^{α/(2σ²) + σ²(…)²/2 − …} becomes e^{α(α−1)/(2σ²)}): an equality, for reading.
        shown = collect_exp(piece.value) if piece.value.has(sp.exp) else piece.value
        steps.append(Step(make(L, pair.lo, pair.hi), "=", shown, PieceRule(piece.rule, piece.condition)))
    if M.value != oo:
        steps.append(Step(lhs, "=", collect_exp(M.value), SumOfPieces()))
    return steps


def _table_moment(tp: dict, tq: dict, order, hyp) -> tuple[sp.Expr, Diverges | None]:
    terms = []
    for key in dict.fromkeys([*tp, *tq]):
        p, q = tp.get(key, sp.S.Zero), tq.get(key, sp.S.Zero)
        if p == 0:
            continue
        if q == 0:
            if hyp.holds(order > 1) is not False:
                return oo, Diverges("outcome", at=key, expression=p)
            continue
        if order.is_number and p.is_number and q.is_number:
            # Kept as powers: at order 10⁴ the evaluated rational has 10⁴ digits; past a ceiling SymPy cannot
            # keep them unevaluated for long (its assumptions evaluate them): no closed form, say so.
            problem = power_problem(p, order, MAX_DERIVED_POWER_DIGITS) or \
                power_problem(q, 1 - order, MAX_DERIVED_POWER_DIGITS)
            if problem is not None:
                raise NoClosedFormError(f"the exact moment at order {order} holds {problem}")
            terms.append(sp.Mul(sp.Pow(p, order, evaluate=False), sp.Pow(q, 1 - order, evaluate=False), evaluate=False))
        else:
            terms.append(p**order * q ** (1 - order))
    return sp.Add(*terms), None


def _kl(P, Q, tables) -> tuple:
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
    hyp = Hypotheses(a)
    M = moment(P, Q, a, hyp)
    steps = _moment_steps(P, M, a)
    if M.value == oo:
        if M.support_mismatch:
            mismatch = M.divergence
            return oo, (), steps + [_equals(1, oo, Diverges("support", mismatch.lo, mismatch.hi,
                                                             for_orders_above_one=False))], oo
        # I(α) = ∞ for every α > 1 says nothing about the limit α → 1: no closed form here.
        raise NoClosedFormError(f"the moment diverges for α > 1 ({operations.text(M.divergence)}); "
                                "KL needs the definition")
    at_one = [c.subs(a, 1) for c in M.conditions]
    if not all(c is sp.true or Hypotheses().holds(c) for c in at_one):
        raise NoClosedFormError("the moment's convergence condition fails at α = 1")
    I = collect_exp(M.value)
    # D_α = log I(α)/(α−1) → (log I)'(1) = I'(1)/I(1) as α → 1, since log I(1) = log ∫P = 0.
    at_1 = _at_one(I, a)
    derivative = _at_one(sp.diff(I, a), a)
    kl = tidy_kl(derivative if is_zero(at_1 - 1, Hypotheses()) else derivative / at_1)
    moment_of = sp.Function("I")
    steps.append(_equals(1, sp.Limit(sp.log(moment_of(alpha)) / (alpha - 1), alpha, 1), LHopital()))
    steps.append(_equals(1, sp.Subs(sp.Derivative(moment_of(alpha), alpha), alpha, 1) / moment_of(1), LHopital()))
    steps.append(_equals(1, kl, DifferentiateMoment()))
    return kl, (), steps, I


def _at_one(expr: sp.Expr, a: sp.Symbol) -> sp.Expr:
    """expr at α = 1, as the limit α → 1⁺ where substitution gives 0/0.

    A rule valid for α ≠ 1 (e.g. (e^{(1−α)h} − 1)/(1 − α)) is 0/0 there.
    """
    value = expr.subs(a, 1)
    if not value.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
        return value
    value = budgeted(lambda: sp.limit(expr, a, 1, "+"), "limit α → 1")
    if value.has(sp.nan, sp.zoo, sp.Limit):
        raise NoClosedFormError("no limit of the moment at α = 1")
    return value


def _sup(P, Q, tables) -> tuple:
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
    steps = [Step(LogRatio(P_, Q_, P.var), "=", R, OnInterval(lo, hi)) for R, lo, hi, _ in pieces]
    if values == oo:
        return oo, (), steps + [_equals(oo, oo, diverges)], None
    d = max_of(values)
    steps.append(_equals(oo, sp.Max(*values, evaluate=False) if len(values) > 1 else values[0], PieceSuprema()))
    if len(values) > 1:
        steps.append(_equals(oo, d, Largest("suprema")))
    return d, (), steps, None


#: A result with at most this many operations is left as derived.
_POLISH_ABOVE = 12


def _polish(expr: sp.Expr) -> sp.Expr:
    """A shorter equivalent form, when SymPy finds one within a time budget.

    Results proved against a reference keep their derived form (it already is
    the paper's); others are often clearer simplified (the discrete Laplace
    KL becomes ε·tanh(ε/2)).  The polished form is what gets verified.
    """
    if not isinstance(expr, sp.Expr) or expr == oo or not expr.free_symbols or sp.count_ops(expr) <= _POLISH_ABOVE:
        return expr  # a number needs no polish (and at order 10⁴ its powers are huge)
    best, best_ops = expr, sp.count_ops(expr)
    for attempt in (lambda e: sp.simplify(e), lambda e: sp.simplify(e.rewrite(sp.exp))):
        try:
            candidate = budgeted(lambda attempt=attempt: attempt(expr), "simplify", seconds=3.0)
        except NoClosedFormError:  # out of time, or no budget possible in this thread: keep the form
            continue
        if candidate.has(sp.I, sp.nan, sp.zoo) or _new_branch_cuts(candidate, expr) or _huge_numbers(candidate):
            continue
        ops = sp.count_ops(candidate)
        if ops < best_ops:
            best, best_ops = candidate, ops
    return best


def _huge_numbers(e: sp.Expr) -> bool:
    """Whether ``e`` holds a rational of more than 60 digits (an evaluated 3^9999)."""
    return any(len(str(r.p)) + len(str(r.q)) > 60 for r in e.atoms(sp.Rational))


def _new_branch_cuts(candidate: sp.Expr, original: sp.Expr) -> bool:
    """Whether ``candidate`` raises to a non-integer power a base not known positive
    that ``original`` does not: simplify likes (1 − e^θ)^α·(…)^(1−α), whose phases
    cancel but whose every factor is complex."""
    def bases(e: sp.Expr) -> set:
        return {p.base for p in e.atoms(sp.Pow) if p.exp.is_integer is not True and p.base.is_positive is not True}

    return bool(bases(candidate) - bases(original))


def _prove(reference: Reference, order, closed, I, hyp) -> ProvedEqual | None:
    """Prove the derived result equal to ``reference``: the evidence, or None when no proof was found."""
    cite = reference.citation(order)
    if order is oo or order == 1:
        ref = reference.dinf if order is oo else reference.kl
        if closed == oo or ref == oo:
            return ProvedEqual(cite, "both infinite") if closed == ref else None
        return ProvedEqual(cite, "expressions") if is_zero(closed - ref, Hypotheses()) else None
    ref_moment = reference.moment_at(order)
    if I == oo:
        return None
    if is_zero(I - ref_moment, hyp):
        return ProvedEqual(cite, "moments")
    return None


def _numeric_fallback(P, Q, order, steps, why: str) -> Derivation:
    if P.parameters | Q.parameters or isinstance(order, sp.Symbol):
        free = sorted(str(s) for s in P.parameters | Q.parameters)
        if isinstance(order, sp.Symbol):
            free.append(str(order))
        raise NoClosedFormError(
            f"no closed form for D_{order}(P‖Q): {why}. For a numeric value give "
            f"{', '.join(free)} values: renyi_divergence_mp(P, Q, order, values={{...}})."
        )
    dps = 50
    value = renyi_divergence_mp(P, Q, order, dps=dps)
    steps.append(_equals(order, sp.Float(value, dps) if value != oo else oo, Numeric(dps, why), Status.NUMERIC))
    return Derivation(order=order, result=value, status=Status.NUMERIC, steps=tuple(steps),
                      evidence=(NoClosedForm(why), FromDefinition(dps)))


@operations.rdp.provide
def mechanism_rdp(mechanism, order: object = alpha) -> Derivation:
    """D_order of ``mechanism``'s worst-case pair (``Mechanism.rdp``), proved equal to its published form if any."""
    return renyi_divergence(*mechanism.pair, order, reference=mechanism.reference)
