"""Rényi divergences derived in closed form from two densities.

    D_α(P‖Q) = 1/(α−1) · log ∫ P(x)^α Q(x)^{1−α} dx        (Mironov 2017, Definition 3)

with the limits D_1 = KL(P‖Q) and D_∞ = log sup P/Q.  :func:`renyi_divergence`
returns a :class:`~rdpsym.derive.derivation.Derivation`: the closed form, the steps
that produced it, its convergence conditions and how it was established.
"""

from __future__ import annotations

import sympy as sp

from rdpsym.foundations.budget import budgeted, can_budget, time_budget
from rdpsym.foundations.reading import parse_order
from rdpsym.laws.densities import Density, Discrete, align_pair
from rdpsym.derive.derivation import Derivation, Status, Step
from rdpsym.engine.context import Hypotheses, simplify_condition
from rdpsym.engine.tidy import collect_exp, divergence_from_moment, max_of, tidy_kl
from rdpsym.foundations.errors import DomainError, NoClosedFormError, SymbolicTimeout, must
from rdpsym.derive.moments import Moment, moment, sup_log_ratio
from rdpsym.derive.numeric import renyi_divergence_mp
from rdpsym.render.latex import paper_latex
from rdpsym.laws.references import Reference
from rdpsym.foundations.symbols import alpha
from rdpsym.derive.verify import check_against_definition, is_zero

oo = sp.oo
_DEFINITION = "Mironov 2017, Definition 3"


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
        raise DomainError(must("order", f"a symbol that is not a parameter of P or Q (rename {order} in the densities)", order))
    hyp = Hypotheses(order if isinstance(order, sp.Symbol) else None)
    steps: list[Step] = [*_density_steps(P, Q, tables), _definition_step(P, order)]
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
            steps.append(Step(_lhs(order), polished, "simplified"))
            closed = polished
    conditions = tuple(simplify_condition(c, hyp) for c in conditions)
    result = closed if not conditions or closed == oo else sp.Piecewise((closed, sp.And(*conditions)), (oo, True))
    evidence = check_against_definition(P, Q, order, result, conditions, hyp)
    status = Status.CHECKED
    if reference is not None:
        proof = _prove(reference, order, closed, I, hyp)
        if proof:
            status = Status.PROVED
            evidence.insert(0, proof)
        else:
            evidence.insert(0, f"not shown symbolically equal to {reference.citation(order)}")
        steps.append(Step(_lhs(order), reference.divergence_at(order), f"{reference.citation(order)}"))
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
        notes=(f"infinite: {more[-1].reason}",) if closed == oo and more else (),
    )


def _lhs(order: sp.Expr) -> str:
    o = paper_latex(order) if order is not oo else r"\infty"
    return rf"D_{{{o}}}(P \,\|\, Q)"


def _density_steps(P: Density, Q: Density, tables) -> list[Step]:
    """The two densities, as the derivation's first lines."""
    if tables is not None:
        show = lambda t: r"\left(" + r",\ ".join(  # noqa: E731
            rf"{paper_latex(k) if isinstance(k, sp.Basic) else k}: {paper_latex(v)}" for k, v in t.items()) + r"\right)"
        reason = "the two output laws (outcome: probability)"
        return [Step("P", show(tables[0]), reason), Step("Q", show(tables[1]), reason)]
    x = paper_latex(P.var)
    if P.support == Q.support:
        reasons = (f"the two densities, on ${paper_latex(P.support)}$",) * 2
    else:
        reasons = tuple(f"the density of {n}, on ${paper_latex(D.support)}$" for n, D in (("P", P), ("Q", Q)))
    return [Step(f"P({x})", P.expr, reasons[0]), Step(f"Q({x})", Q.expr, reasons[1])]


def _definition_step(P: Density, order: sp.Expr) -> Step:
    x = paper_latex(P.var) if P.var is not None else r"\omega"
    if order is oo:
        rhs = rf"\log \sup_{{{x} \in \operatorname{{supp}} Q}} \frac{{P({x})}}{{Q({x})}}"
        return Step(_lhs(order), rhs, _DEFINITION + r" (the limit $\alpha \to \infty$)")
    elif order == 1:
        rhs = rf"\mathbb{{E}}_{{{x} \sim P}} \log \frac{{P({x})}}{{Q({x})}}"
        return Step(_lhs(order), rhs, _DEFINITION + r" (the limit $\alpha \to 1$)")
    else:
        integral = (rf"\sum_{{{x}}}" if isinstance(P, Discrete) else r"\int") + " " + _powers(f"P({x})", f"Q({x})", order)
        if not isinstance(P, Discrete):
            integral += rf" \, d{x}"
        rhs = rf"{_prefix(order)}\log {integral}"
    return Step(_lhs(order), rhs, _DEFINITION)


def _log_reason(order: sp.Expr) -> str:
    return "take the logarithm" if order == 2 else f"take the logarithm and divide by ${paper_latex(order - 1)}$"


def _prefix(order: sp.Expr) -> str:
    """``\frac{1}{\alpha - 1} `` (nothing at order 2): Definition 3's factor, as the paper prints it."""
    if order == 2:
        return ""
    if order.is_number:
        return paper_latex(1 / (order - 1)) + " "
    return rf"\frac{{1}}{{{paper_latex(order - 1)}}} "


def _powers(p: str, q: str, order: sp.Expr) -> str:
    """``P^{α} Q^{1 - α}`` with the exponents evaluated at a numeric order (``P^{2} Q^{-1}``)."""
    return rf"{p}^{{{paper_latex(order)}}} {q}^{{{paper_latex(1 - order)}}}"


def _finite(P, Q, order, hyp, tables) -> tuple:
    if tables is not None:
        I, reason = _table_moment(*tables, order, hyp)
        steps = [Step(r"\sum_{\omega} " + _powers(r"P(\omega)", r"Q(\omega)", order), I, "finite sum over the outcomes")]
        if I == oo:
            return oo, (), steps + [Step(_lhs(order), oo, reason)], I
        D = divergence_from_moment(I, order)
        return D, (), steps + [Step(_lhs(order), D, _log_reason(order))], I
    M = moment(P, Q, order, hyp)
    steps = _moment_steps(P, M, order)
    if M.value == oo:
        steps.append(Step(_lhs(order), oo, M.reason))
        return oo, (), steps, oo
    I = collect_exp(M.value) if isinstance(M.value, sp.Add) else M.value
    D = divergence_from_moment(I, order, _positive_under(M.conditions, hyp))
    steps.append(Step(_lhs(order), D, _log_reason(order)))
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
    x = P.var
    make = (lambda L, lo, hi: sp.Sum(sp.exp(L), (x, lo, hi))) if isinstance(P, Discrete) else (
        lambda L, lo, hi: sp.Integral(sp.exp(L), (x, lo, hi)))
    lhs = (rf"\sum_{{{paper_latex(x)}}}" if isinstance(P, Discrete) else r"\int") + " " + _powers("P", "Q", order)
    if not M.pieces:
        return []
    split = sp.Add(*[make(L, pair.lo, pair.hi) for pair, L, _ in M.pieces], evaluate=False)
    steps = [Step(lhs, split, "log-densities; split at the non-smooth points of P and Q")]
    for pair, L, piece in M.pieces:
        # Grouped by exponential and with each exponent factored (the Gaussian rule's raw
        # exponent e^{α/(2σ²) + σ²(…)²/2 − …} becomes e^{α(α−1)/(2σ²)}): an equality, for reading.
        shown = collect_exp(piece.value) if piece.value.has(sp.exp) else piece.value
        rule = f"{piece.rule} rule" if not piece.rule.startswith("sympy.") else \
            f"SymPy's {piece.rule.removeprefix('sympy.')} (a time-budgeted fallback)"
        steps.append(Step(make(L, pair.lo, pair.hi), shown, rule + (
            f", converges iff ${paper_latex(piece.condition)}$" if piece.condition is not sp.true else "")))
    if M.value != oo:
        steps.append(Step(lhs, collect_exp(M.value), "sum of the pieces, grouped by exponential"))
    return steps


def _table_moment(tp: dict, tq: dict, order, hyp) -> tuple[sp.Expr, str]:
    terms = []
    for key in dict.fromkeys([*tp, *tq]):
        p, q = tp.get(key, sp.S.Zero), tq.get(key, sp.S.Zero)
        if p == 0:
            continue
        if q == 0:
            if hyp.holds(order > 1) is not False:
                return oo, f"P({key}) = {p} > 0 but Q({key}) = 0"
            continue
        if order.is_number and p.is_number and q.is_number:
            # Kept as powers: at order 10⁴ the evaluated rational has 10⁴ digits.
            terms.append(sp.Mul(sp.Pow(p, order, evaluate=False), sp.Pow(q, 1 - order, evaluate=False), evaluate=False))
        else:
            terms.append(p**order * q ** (1 - order))
    return sp.Add(*terms), ""


def _kl(P, Q, tables) -> tuple:
    if tables is not None:
        tp, tq = tables
        terms = []
        for key, p in tp.items():
            q = tq.get(key, sp.S.Zero)
            if p == 0:
                continue
            if q == 0:
                return oo, (), [Step(_lhs(1), oo, f"P({key}) > 0 = Q({key})")], oo
            terms.append(p * (sp.log(p) - sp.log(q)))
        kl = tidy_kl(sp.Add(*terms))
        return kl, (), [Step(_lhs(1), kl, "finite sum of P log(P/Q)")], None
    # A private order symbol: a density parameter named alpha must not be differentiated.
    a = sp.Dummy("alpha", positive=True)
    hyp = Hypotheses(a)
    M = moment(P, Q, a, hyp)
    steps = _moment_steps(P, M, a)
    if M.value == oo:
        if M.support_mismatch:
            return oo, (), steps + [Step(_lhs(1), oo, M.reason.replace(" for α > 1", ""))], oo
        # I(α) = ∞ for every α > 1 says nothing about the limit α → 1: no closed form here.
        raise NoClosedFormError(f"the moment diverges for α > 1 ({M.reason}); KL needs the definition")
    at_one = [c.subs(a, 1) for c in M.conditions]
    if not all(c is sp.true or Hypotheses().holds(c) for c in at_one):
        raise NoClosedFormError("the moment's convergence condition fails at α = 1")
    I = collect_exp(M.value)
    # D_α = log I(α)/(α−1) → (log I)'(1) = I'(1)/I(1) as α → 1, since log I(1) = log ∫P = 0.
    at_1 = _at_one(I, a)
    derivative = _at_one(sp.diff(I, a), a)
    kl = tidy_kl(derivative if is_zero(at_1 - 1, Hypotheses()) else derivative / at_1)
    steps.append(Step(_lhs(1), r"\lim_{\alpha \to 1} \frac{\log I(\alpha)}{\alpha - 1} = \frac{I'(1)}{I(1)}",
                      "l'Hôpital's rule, since I(1) = 1 (P normalises)"))
    steps.append(Step(_lhs(1), kl, "differentiate the moment at α = 1"))
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
                return oo, (), [Step(_lhs(oo), oo, f"P({key}) > 0 = Q({key})")], None
            values.append(sp.log(p / q))
        d = max_of(values)
        return d, (), [Step(_lhs(oo), sp.Max(*values, evaluate=False), "maximum over the outcomes"),
                       Step(_lhs(oo), d, "the larger of the log-ratios")], None
    values, note, pieces = sup_log_ratio(P, Q)
    x = paper_latex(P.var)
    steps = [Step(rf"\log \frac{{P({x})}}{{Q({x})}}", R, f"on ${paper_latex(_interval(lo, hi))}$")
             for R, lo, hi, _ in pieces]
    if values == oo:
        return oo, (), steps + [Step(_lhs(oo), oo, note)], None
    d = max_of(values)
    steps.append(Step(_lhs(oo), sp.Max(*values, evaluate=False) if len(values) > 1 else values[0],
                      "the supremum of each piece (a constant, or a linear or quadratic function at its vertex "
                      "or an end of the interval)"))
    if len(values) > 1:
        steps.append(Step(_lhs(oo), d, "the largest of the suprema"))
    return d, (), steps, None


def _interval(lo: sp.Expr, hi: sp.Expr) -> sp.Interval:
    return sp.Interval.open(lo, hi)


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
            if can_budget():
                with time_budget(3.0, "simplify"):
                    candidate = attempt(expr)
            else:
                continue
        except SymbolicTimeout:
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


def _prove(reference: Reference, order, closed, I, hyp) -> str | None:
    """Prove the derived result equal to ``reference``; the evidence sentence or None."""
    cite = reference.citation(order)
    if order is oo or order == 1:
        ref = reference.dinf if order is oo else reference.kl
        if closed == oo or ref == oo:
            return f"equal to {cite} (both infinite)" if closed == ref else None
        return f"proved equal to {cite}" if is_zero(closed - ref, Hypotheses()) else None
    ref_moment = reference.moment_at(order)
    if I == oo:
        return None
    if is_zero(I - ref_moment, hyp):
        return f"proved equal to {cite}: the moments E_Q[(P/Q)^α] agree symbolically"
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
    value = renyi_divergence_mp(P, Q, order, dps=50)
    steps.append(Step(_lhs(order), sp.Float(value, 50) if value != oo else oo,
                      f"numeric, from the definition at 50 digits (no closed form: {why})"))
    return Derivation(order=order, result=value, status=Status.NUMERIC, steps=tuple(steps),
                      evidence=(f"no closed form: {why}", "value from the definition, agreeing at two precisions"))


# ``Mechanism.rdp(order)`` (rdpsym.laws.mechanisms), declared in rdpsym.foundations.operations.
from rdpsym.foundations import operations as _operations


@_operations.rdp.provide
def mechanism_rdp(mechanism, order: object = alpha) -> Derivation:
    """D_order of ``mechanism``'s worst-case pair, proved equal to its published form when it has one."""
    return renyi_divergence(*mechanism.pair, order, reference=mechanism.reference)
