"""Rényi divergences of two laws of one variable, derived in closed form: the chain from Definition 3.

    D_α(P‖Q) = 1/(α−1) · log ∫ P(x)^α Q(x)^{1−α} dx        (Mironov 2017, Definition 3)

with the limits D_1 = KL(P‖Q) and D_∞ = log sup P/Q.  :func:`univariate_divergence`
derives it for two laws given by a density or a pmf (Continuous, Discrete): it
checks the laws, splits into cases where a sign is undecided
(:mod:`rdpsym.derive.cases`), derives each case at a finite order
(:mod:`rdpsym.derive.finite_order`) or at a limit order
(:mod:`rdpsym.derive.limit_orders`), polishes the result, checks it against the
definition (:mod:`rdpsym.derive.verify`) and proves it equal to a published form
when one is given; without a closed form, a pair with no free parameters gets the
definition's value, labelled numeric.

The routes for laws in several variables (:mod:`rdpsym.derive.multivariate`) and
for laws with atoms (:mod:`rdpsym.derive.atoms`) derive their one-dimensional parts
here; the public :func:`~rdpsym.derive.divergence.renyi_divergence` dispatches to
all three, so this module imports neither of the others.
"""

from __future__ import annotations

import contextvars
import dataclasses

import sympy as sp

from rdpsym.derive.abstraction import by_abstraction
from rdpsym.derive.binomial import is_integer_order
from rdpsym.derive.cases import back, combine, evidence_back, split, step_back
from rdpsym.derive.certified import METHOD as CERTIFIED
from rdpsym.derive.certified import certified_divergence
from rdpsym.derive.definition import univariate_divergence_mp
from rdpsym.derive.derivation import Derivation
from rdpsym.derive.every_order import _every_order, _hypotheses
from rdpsym.derive.finite_order import _finite, _uniform, _uniform_ends
from rdpsym.derive.limit_orders import _derivatives_written_out, _kl, _sup
from rdpsym.derive.polish import _elementary_integrals, _literature_logs, _polish, _principal_values, _tidy_piecewise
from rdpsym.derive.sampling import order_sides
from rdpsym.derive.steps import _OPENING_STEPS, _definition_step, _density_steps, _equals
from rdpsym.derive.verify import check_against_definition, is_zero
from rdpsym.engine.context import SYMPY_FAILURES, Hypotheses, UndecidedSign, simplify_condition, tidy_condition
from rdpsym.engine.series import canonical
from rdpsym.foundations.budget import budgeted
from rdpsym.foundations.errors import (
    BeyondSymPy,
    ConvergenceError,
    DensityError,
    DomainError,
    NoClosedFormError,
    NotVerified,
    RdpSymError,
    must,
)
from rdpsym.foundations.numbers import Digits, rounded_mpf
from rdpsym.foundations.precision import sympy_evalf_guard
from rdpsym.foundations.reading import parse_order
from rdpsym.foundations.record import (
    AtTheOrder,
    ByCases,
    Case,
    ExpectationOfLogRatio,
    FromDefinition,
    LHopital,
    NoClosedForm,
    NotChecked,
    NotShownEqual,
    Numeric,
    ProvedEqual,
    Published,
    Simplified,
    Specialised,
    Status,
    Step,
    weakest,
)
from rdpsym.foundations.symbols import alpha
from rdpsym.laws.densities import Density, align_pair
from rdpsym.laws.law_conditions import law_conditions
from rdpsym.laws.references import Reference

oo = sp.oo


@sympy_evalf_guard.serialized  # SymPy sets mpmath's global precision as it evaluates: one thread at a time
def univariate_divergence(P: Density, Q: Density, order: object = alpha, *,
                          reference: Reference | None = None) -> Derivation:
    """D_order(P‖Q) in closed form for two laws of one variable given by a density or a pmf (no atoms), checked
    against the definition: what :func:`rdpsym.derive.divergence.renyi_divergence` returns for such a pair (its
    parameters, result and examples)."""
    P, Q, tables = align_pair(P, Q)
    order = parse_order(order)
    if isinstance(order, sp.Symbol) and order in P.parameters | Q.parameters:
        raise DomainError(must("order", f"a symbol that is not a parameter of P or Q (rename {order} in the densities)",
                               order))
    unchecked = check_unvalidated_laws(P, Q)
    below, above = order_sides(order)
    if not above:  # (an order declared in an interval below 1: derived there alone, as the orders below 1 are)
        return _within_the_laws(_derive_by_cases(P, Q, order, reference, unchecked, depth=0, below_one=True), P, Q)
    try:
        derived = _derive_by_cases(P, Q, order, reference, unchecked, depth=0)
    except ConvergenceError as exc:
        derived = _through_every_order(P, Q, order, reference, exc)
    if below and isinstance(order, sp.Symbol) and not is_integer_order(order):  # an integer order has none below 1
        derived = _every_order(order, derived,
                               lambda result, low: check_against_definition(P, Q, order, result, (), low),
                               lambda: _derive_by_cases(P, Q, order, None, unchecked, depth=0, below_one=True))
    return _within_the_laws(derived, P, Q)


def _through_every_order(P: Density, Q: Density, order, reference, failure: ConvergenceError) -> Derivation:
    """D_order at a number ``order`` where the definition could not be evaluated at that order (``failure``), as
    the result for every order at it: that result is checked at orders sampled in each part of the orders and
    next to each boundary its conditions draw, so the order asked for is covered without being read itself.
    Beta(2, 3) against Beta(3, 2) at α = 3 − 10⁻³⁰ (a probe): the integrand's mass lies 10⁻³⁰-close to an
    end, which no quadrature resolves, and the number was refused while α as a symbol gave log B(3 − α, 2 + α)…
    Anything else (a symbolic order, 1, ∞, a symbol that fails too) raises ``failure``."""
    if isinstance(order, sp.Symbol) or order in (1, sp.oo) or _FAMILY_OF_NUMBERS.get():
        raise failure
    symbol = alpha if alpha not in P.parameters | Q.parameters else sp.Dummy("alpha", positive=True)
    try:
        general = univariate_divergence(P, Q, symbol, reference=reference)
    except RdpSymError:
        raise failure from None
    if not general.is_closed_form or not isinstance(general.result, sp.Basic):
        raise failure
    on_order = [h for h in general.hypotheses if symbol in h.free_symbols]
    if any(h.subs(symbol, order) is not sp.true for h in on_order):
        raise failure  # the order is not among those the result was derived for
    value = general.result.subs(symbol, order)
    if value.has(symbol) or value.has(sp.nan):
        raise failure
    hypotheses = tuple(h for h in general.hypotheses if h not in on_order)
    note = NotChecked(f"the definition at the order {order}", f"not evaluated there: {failure}. The result for "
                      "every order was checked at orders sampled around it instead")
    step = _equals(order, value, AtTheOrder(general.result, symbol))
    return Derivation(order=order, result=value, status=general.status, steps=(*general.steps, step),
                      closed_form=value, conditions=(), hypotheses=hypotheses,
                      evidence=(*general.evidence, note), reference=general.reference)


def _not_real(result: sp.Expr) -> bool:
    """Whether SymPy shows the numeric ``result`` not real, within a CPU budget: its assumptions on a Meijer G form of
    two log-logistic laws at order 7/3 ran 170 s (a probe); undecided is not "not real" (the check then reads it)."""
    try:
        return budgeted(lambda: result.is_extended_real, "whether the result is real", 2.0) is False
    except (NoClosedFormError, *SYMPY_FAILURES):
        return False


def _within_the_laws(derived: Derivation, P: Density, Q: Density) -> Derivation:
    """``derived`` with the conditions under which P and Q are laws among its hypotheses: each probability of
    a finite table, and each base of a power in the outcome (the 1 − p of (1 − p)^k·p), that SymPy cannot
    tell is nonnegative is ≥ 0.  Its result is a formula only there:
    {0: p, 1: 1 − p} against {0: q, 1: 1 − q} gives log(p²/q + (1 − p)²/(1 − q)), which at p = 2 is log 10
    for two "laws" with a probability −1; evalf now refuses p = 2 by name."""
    conditions = [c for c in law_conditions(P, Q) if c not in derived.hypotheses]
    if not conditions:
        return derived
    return dataclasses.replace(derived, hypotheses=(*derived.hypotheses, *conditions))



def check_unvalidated_laws(P: Density, Q: Density) -> tuple:
    """Check laws built with ``check=False`` (no value is a divergence of inputs that are not laws).

    A law that is definitely not one (negative somewhere, mass ≠ 1) is a :class:`DensityError`;
    one whose mass is undecided symbolically passes, and the derivation says so in its
    evidence (:class:`NotChecked`; each sample point of the check re-checks it with values).
    """
    skipped = []
    for name, law in (("P", P), ("Q", Q)):
        if law.validated:
            continue
        try:
            shown = law._check()
        except DensityError as exc:
            raise DensityError(f"{name} is not a probability law (built with check=False): {exc}") from exc
        if not shown:
            skipped.append(NotChecked(f"the normalisation of {name}",
                                      "built with check=False and undecided symbolically; "
                                      "checked numerically at each sample point"))
    return tuple(skipped)


def _derive_by_cases(P: Density, Q: Density, order, reference, unchecked: tuple, depth: int,
                     below_one: bool = False) -> Derivation:
    """D_order(P‖Q), split into cases where the parameters' assumptions leave a sign open (a symbolic order
    stands for the orders above 1, or with ``below_one`` for those in (0, 1))."""
    try:
        return _derive(P, Q, order, reference, unchecked, below_one)
    except UndecidedSign as undecided:
        if _uniform_ends(P, Q) is not None:
            # Two uniform laws whose ends cannot be ordered: the overlap rule needs no cases (four free
            # ends took more nested splits than a derivation may make).
            return _derive_with(P, Q, order, reference, unchecked, None, uniform=True, below_one=below_one)
        try:
            cases = split(P, Q, order, undecided.quantity,
                          lambda Pc, Qc, d: _derive_by_cases(Pc, Qc, order, None, unchecked, d, below_one), depth)
        except NoClosedFormError as exc:
            steps = [*_density_steps(P, Q, None), _definition_step(P, order, None)]
            return _numeric_fallback(P, Q, order, steps, f"{undecided}; {exc}")
        return _from_cases(P, Q, order, undecided.quantity, cases, below_one)


def _from_cases(P: Density, Q: Density, order, quantity: sp.Expr, cases: list, below_one: bool = False) -> Derivation:
    """One derivation from the cases of a split: each case's steps, then the Piecewise they make."""
    hyp = _hypotheses(order, below_one)
    result, merged = combine(cases, quantity, hyp, lambda d: is_zero(d, hyp))
    result = _tidy_piecewise(result, hyp)
    steps: list[Step] = [*_density_steps(P, Q, None), _definition_step(P, order, None)]
    evidence: list = []
    for case, d in cases:
        steps.extend(step_back(step, case) for step in d.steps[_OPENING_STEPS:])
        steps.append(_equals(order, back(d.result, case), Case(case.condition, quantity), d.status))
        evidence.extend(e for e in (evidence_back(e, case) for e in d.evidence) if e not in evidence)
    steps.append(_equals(order, result, ByCases()))
    moments = [back(d.moment, case) for case, d in cases]
    return Derivation(
        order=order,
        result=result,
        status=weakest(d.status for _, d in cases),
        steps=tuple(steps),
        closed_form=result,
        conditions=(),
        hypotheses=hyp.stated,
        evidence=tuple(evidence),
        moment=None if any(not isinstance(m, sp.Basic) for m in moments) else sp.Piecewise(
            *[(m, case.condition) for m, (case, _) in zip(moments[:-1], cases[:-1])], (moments[-1], True)),
    )


def _derive(P: Density, Q: Density, order, reference, unchecked: tuple = (), below_one: bool = False) -> Derivation:
    """D_order(P‖Q) without case splits (an undecided sign raises :class:`UndecidedSign`)."""
    P, Q, tables = align_pair(P, Q)
    if tables is not None and P.table is None and Q.table is None and P.parameters | Q.parameters:
        # pmf expressions on a short range: their rules first (the binomial theorem gives
        # Binomial(n, p₁) vs Binomial(n, p₂) as n/(α−1)·log(p₁^α p₂^{1−α} + …)), the table if none applies.
        try:
            return _derive_with(P, Q, order, reference, unchecked, None, numeric_fallback=False,
                                below_one=below_one)
        except UndecidedSign:
            raise
        except NoClosedFormError:
            pass
    return _derive_with(P, Q, order, reference, unchecked, tables, below_one=below_one)


def _kl_past_a_divergent_moment(steps) -> bool:
    """Whether the result is a KL found where the moment diverges above order 1: as E_P[log P − log Q] term by term,
    or as the moment's derivative at 1 from below.  Such a form is finite only where P's moments are, which it does
    not say (a zeta law against a geometric one: ζ(5a) continued past its series, for E_P[k] = ∞); its check also
    tries each parameter far out (:meth:`~rdpsym.derive.check_loop.Check.probe_far`)."""
    return any(isinstance(step.rule, ExpectationOfLogRatio)
               or (isinstance(step.rule, LHopital) and step.rule.from_below) for step in steps)


def _derive_with(P: Density, Q: Density, order, reference, unchecked: tuple, tables,
                 numeric_fallback: bool = True, uniform: bool = False, below_one: bool = False) -> Derivation:
    """D_order(P‖Q) from the densities' expressions (``tables`` None) or from their tables; with ``uniform``,
    by the overlap rule for two uniform laws (:func:`~rdpsym.derive.finite_order._uniform`)."""
    hyp = _hypotheses(order, below_one)
    steps: list[Step] = [*_density_steps(P, Q, tables), _definition_step(P, order, tables)]
    changes: list = []  # a change of variables of the whole support, to check the result in too
    try:
        if uniform:
            closed, conditions, more, I = _uniform(P, Q, order, hyp)
        elif order is oo:
            closed, conditions, more, I = _sup(P, Q, tables, changes)
        elif order == 1:
            closed, conditions, more, I = _kl(P, Q, tables, changes)
        else:
            closed, conditions, more, I = _finite(P, Q, order, hyp, tables, changes)
    except UndecidedSign:
        raise
    except NoClosedFormError as exc:
        if not numeric_fallback:
            raise
        # An integral of a shape SymPy has no closed form for stays one with symbols for its numbers.
        return _numeric_fallback(P, Q, order, steps, str(exc), as_family=not isinstance(exc, BeyondSymPy))
    except RdpSymError:
        raise
    except SYMPY_FAILURES as exc:
        # SymPy failing inside one of its algorithms (Risch's PolynomialError on two logistic laws, the heuristic
        # gcd's OverflowError on a rate of 10³⁰, "Non-real intervals" from a case split) is no closed form, said
        # with its cause; never a crash.
        failure = NoClosedFormError(f"SymPy failed while deriving ({type(exc).__name__}: {exc})")
        if not numeric_fallback:
            raise failure from exc
        return _numeric_fallback(P, Q, order, steps, str(failure))
    if isinstance(closed, sp.Basic) and closed.has(sp.Subs, sp.Derivative):
        closed = _derivatives_written_out(closed)
        if closed.has(sp.Subs, sp.Derivative):  # a derivative SymPy could not take is not a closed form
            if not numeric_fallback:
                raise NoClosedFormError("the result holds an unevaluated derivative")
            return _numeric_fallback(P, Q, order, steps, "the result holds an unevaluated derivative")
    steps.extend(more)
    if isinstance(closed, sp.Basic) and closed.has(sp.Sum):
        closed = canonical(closed)  # series written one way again (expanding split their exponents)
    if reference is None:
        polished = _polish(_elementary_integrals(_principal_values(closed)))
        if polished is not closed:
            steps.append(_equals(order, polished, Simplified()))
            closed = polished
    conditions = tuple(tidy_condition(simplify_condition(c, hyp), hyp) for c in conditions)
    if reference is None:
        written = _literature_logs(closed, conditions)
        if written != closed:
            steps.append(_equals(order, written, Simplified()))
            closed = written
    closed = _tidy_piecewise(closed, hyp)
    result = closed if not conditions or closed == oo else sp.Piecewise((closed, sp.And(*conditions)), (oo, True))
    numeric = numeric_fallback and not (P.parameters | Q.parameters) and not isinstance(order, sp.Symbol)
    if numeric and isinstance(result, sp.Basic) and result != oo and (
            result.has(sp.zoo, sp.nan) or _not_real(result)):
        # A number that is not one (log 0 of a moment that underflowed, a 0/0): not a closed form; the definition.
        return _numeric_fallback(P, Q, order, steps, f"the derived form is {result}, not a real number")
    # A disagreement is an error, never a fallback to the definition's value: which of the two is wrong is
    # not known (a numeric supremum once said ∞ where the derived log(19/3) was right).
    try:
        checked = [] if _FAMILY_OF_NUMBERS.get() else check_against_definition(
            P, Q, order, result, conditions, hyp, changes=tuple(changes), far=_kl_past_a_divergent_moment(steps))
    except NotVerified as exc:
        if not numeric:
            raise
        # Not a disagreement: the closed form could not be evaluated (SymPy leaves exp_polar logs symbolic:
        # a Pareto pair at α = 1/2, fuzz seed 18 case 33), or the definition did not settle; the definition's
        # own value is the answer, labelled numeric (and refused in turn if it cannot be had).
        return _numeric_fallback(P, Q, order, steps, f"the closed form could not be checked: {exc}")
    evidence = [*checked, *unchecked]
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
        hypotheses=hyp.stated,
        evidence=tuple(evidence),
        reference=reference,
        moment=I,
    )


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


def _numeric_fallback(P, Q, order, steps, why: str, as_family: bool = True) -> Derivation:
    """The definition's value, labelled numeric, for laws with numbers only, after their family's closed form at the
    numbers (:mod:`rdpsym.derive.abstraction`; not tried when ``as_family`` is false); for laws with parameters,
    :class:`NoClosedFormError` saying why."""
    if as_family and not (P.parameters | Q.parameters or isinstance(order, sp.Symbol)):
        specialised = _family_at_the_numbers(P, Q, order, steps)
        if specialised is not None:
            return specialised
    if P.parameters | Q.parameters or isinstance(order, sp.Symbol):
        # (a case of a split stands for a parameter by a Dummy δ: never named as one to give a value to)
        free = sorted(str(s) for s in P.parameters | Q.parameters
                      if not (isinstance(s, sp.Dummy) or s.name.startswith("_delta")))
        if isinstance(order, sp.Symbol):
            free.append(str(order))
        reason = f"no closed form for D_{order}(P‖Q): {why}"
        advice = (f". For a numeric value give {', '.join(free)} values: renyi_divergence_mp(P, Q, order, "
                  "values={...}).") if free else "."
        error = NoClosedFormError(reason + advice)
        error.reason = reason  # without the advice: what an enclosing case split quotes (cases.split)
        raise error
    dps = 50
    # The certified quadrature first, where it applies (a ball of relative radius below 10^−(dps+1), its midpoint the
    # value): a semicircle law against a triangular one at α = 37/10, x^{−0.85} at both ends, did not settle in mpmath's
    # tanh-sinh at 124 digits against 144, where Arb's ball of the same integral is narrow (a probe).
    ball = certified_divergence(P, Q, order, dps) if order is not oo else None
    if ball is not None:
        value, method = Digits(rounded_mpf(ball, dps), dps), CERTIFIED
    else:
        value, method = univariate_divergence_mp(P, Q, order, dps=dps), ""
    steps.append(_equals(order, sp.Float(value, dps) if value != oo else oo, Numeric(dps, why), Status.NUMERIC))
    return Derivation(order=order, result=value, status=Status.NUMERIC, steps=tuple(steps),
                      evidence=(NoClosedForm(why), FromDefinition(dps, method)))


#: Set while the family of two laws' numbers is derived (:func:`_family_at_the_numbers`): its laws are laws at the
#: numbers only, so its result is checked against the definition there, by the caller, and not at sampled points.
_FAMILY_OF_NUMBERS: contextvars.ContextVar[bool] = contextvars.ContextVar("family_of_numbers", default=False)


def _family_at_the_numbers(P, Q, order, steps) -> Derivation | None:
    """D_order of two laws with numbers only, as their family's closed form at the numbers, checked against the
    definition at them (:func:`rdpsym.derive.abstraction.by_abstraction`); None when that gives nothing."""
    hyp = _hypotheses(order, False)

    def family(P_family, Q_family, order):
        entered = _FAMILY_OF_NUMBERS.set(True)
        try:
            return univariate_divergence(P_family, Q_family, order)
        finally:
            _FAMILY_OF_NUMBERS.reset(entered)

    try:
        found = by_abstraction(P, Q, order, family,
                               lambda value: check_against_definition(P, Q, order, value, (), hyp), written=_polish)
    except NoClosedFormError:
        # the family's form at the numbers would build a number past the ceilings (6^(10⁶) for a Kumaraswamy pair at
        # α = 10⁶; a probe): that is no reason to refuse the labelled numeric value the caller goes on to
        return None
    if found is None:
        return None
    value, general, values, evidence = found
    step = _equals(order, value, Specialised(general, tuple(values.items())))
    return Derivation(order=order, result=value, status=Status.CHECKED, steps=(*steps, step), closed_form=value,
                      conditions=(), hypotheses=hyp.stated, evidence=tuple(evidence))
