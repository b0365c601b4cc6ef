"""The definition of D_α for two laws of one variable, at any precision: its precision policy.

This is the *independent* route every closed form is checked against: it
integrates (or sums) ``P^α Q^{1−α}`` numerically with mpmath, from the raw
pdfs, never from a derived formula, for two laws given by a density or a pmf
(:class:`~rdpsym.laws.densities.Continuous`, :class:`~rdpsym.laws.densities.Discrete`).
The public entry :func:`rdpsym.derive.numeric.renyi_divergence_mp` hands such
pairs here (:func:`univariate_divergence_mp`); laws in several variables and
laws with atoms have their own routes, which call this one for their parts, so
it imports neither.  The integration itself (modes, splits, tails, singular
ends, series, the supremum at α = ∞) is :mod:`rdpsym.quadrature`; the
integrand at one working precision, in its direct and its near form, is
:mod:`rdpsym.derive.definition_forms`; here are the definition's value and its
precision policy.

The laws are read by this route's own reader, :mod:`rdpsym.quadrature.regions`:
the supports as given (a Range's stop exclusive), the switch points at the
parameters' values, the branch on each piece, the tables of finite pmfs.  Never
through the derivation's common refinement (:mod:`rdpsym.laws.densities`): a
defect in that reading would be confirmed by this check instead of caught.
:func:`~rdpsym.laws.densities.align_pair` is used only to check that P and Q
compare and to write Q in P's variable.

Precision policy (mpmath's own): nothing here changes global precision; all
work runs in private mpmath contexts (one per working precision, passed down
to :mod:`rdpsym.quadrature`), so any number of threads may call this at once,
and the value is handed back as a global-context ``mpf``, exactly.  Each value
is computed at two working precisions (``dps + guard`` and ``dps + guard + 20``)
and returned only when they agree to ``dps`` significant digits, however small
the value.  A check of a closed form hands its value in (``against``): the first
precision's value agreeing with it to ``dps`` digits is two independent
evaluations agreeing (quadrature of the raw densities, and the derived form), so
the second precision, which would only confirm the first, is not computed; a
value that does not agree takes the second precision as always.  A small value is computed again in the *near form*
(:func:`~rdpsym.derive.definition_forms._near_at_precision`, :mod:`rdpsym.quadrature.near`), which has no
cancellation; where that does not apply the guard grows by the digits a small
value shows are cancelled, up to a ceiling of 4·(dps + guard).  The work has a
time ceiling too (:data:`DEFINITION_SECONDS` of CPU time).  Reaching either is a
:class:`~rdpsym.foundations.errors.ConvergenceError` that says so.
Exactly 0 is returned only when P and Q are the same law, decided exactly
(the same expression and support, the same table, or branches whose
difference simplifies to 0); a computed 0 is cancellation, never a result.
A negative value is never returned (D_α ≥ 0, Mironov Prop 8).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

import mpmath
import sympy as sp

from rdpsym.derive.definition_forms import _direct, _near_at_precision, _tables, definition_regions
from rdpsym.foundations.budget import budgeted, time_budget
from rdpsym.foundations.errors import (
    ConvergenceError,
    DomainError,
    NoClosedFormError,
    ParameterError,
    SymbolicTimeout,
    must,
)
from rdpsym.foundations.numbers import Digits, Infinity, exact_mpf
from rdpsym.foundations.precision import (
    CEILING_FACTOR,
    SECOND_RUNG,
    agreed,
    lacking_digits,
    private_context,
    sympy_evalf_guard,
)
from rdpsym.foundations.reading import dps as read_dps
from rdpsym.foundations.reading import parse_order
from rdpsym.laws.densities import Density, Discrete, align_pair, parameter_values
from rdpsym.quadrature.compile import to_mpf


def numeric_order(order: object) -> sp.Expr:
    """A numeric order in (0, ∞], or a :class:`DomainError`."""
    value = parse_order(order)
    if isinstance(value, sp.Symbol):
        raise DomainError(must("order", "a number in (0, oo] for a numeric divergence", value))
    return value



def univariate_divergence_mp(
    P: Density, Q: Density, order: object, dps: int = 50, values: Mapping | None = None, *,
    seconds: float | None = None, against: mpmath.mpf | None = None,
) -> mpmath.mpf:
    """D_order(P‖Q) from the definition for two laws of one variable (a density or a pmf each), good to ``dps``
    digits: :func:`rdpsym.derive.numeric.renyi_divergence_mp` for such a pair (its contract, and its examples),
    within the time ceiling :data:`DEFINITION_SECONDS` (or ``seconds``).  ``against``: a closed form's value being
    checked (the module docstring: a first precision that agrees with it needs no second)."""
    dps = read_dps(dps)
    # (read before any work: −1 or NaN ran to "did not finish within −1 s"; a probe)
    if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
                                or not 0 < seconds < float("inf")):
        raise ParameterError(must("seconds", "a positive finite number of CPU seconds", repr(seconds)))
    seconds = DEFINITION_SECONDS if seconds is None else float(seconds)
    budget = time_budget(seconds, "the definition")
    try:
        with budget:
            value = _definition(P, Q, order, dps, values, against)
    except SymbolicTimeout:
        if not budget.spent:
            raise
        raise ConvergenceError(
            f"D_{order} from the definition did not finish within {seconds:g} s of CPU time (the time ceiling; "
            "pass seconds= to allow more)") from None
    return value if mpmath.isinf(value) else Digits(value, dps)


#: CPU seconds one definition value (both precisions, every retry) may take.
DEFINITION_SECONDS = 60.0


def _definition(P: Density, Q: Density, order: object, dps: int, values: Mapping | None,
                against: mpmath.mpf | None = None) -> mpmath.mpf:
    """The definition's value to ``dps`` digits: the precision policy of the module docstring."""
    with sympy_evalf_guard():  # the symbolic preparation (SymPy may set mpmath's precision as it evaluates)
        order = numeric_order(order)
        P, Q, _ = align_pair(P, Q)  # (the checks that P and Q compare, and Q in P's variable: its tables unread)
        given = parameter_values(values, (P, Q))
        if given:
            P, Q = (D.subs({s: v for s, v in given.items() if s in D.parameters}) for D in (P, Q))
            P, Q, _ = align_pair(P, Q)
        missing = sorted(str(s) for s in P.parameters | Q.parameters)
        if missing:
            raise ParameterError(f"values must give every parameter; missing: {', '.join(missing)}.")
        tables = _tables(P, Q)  # a pmf on a range that the values made finite is a table now
        if _same_law(P, Q, tables):
            return mpmath.mpf(0)  # D_α(P‖P) = 0 at every order, exactly
    with private_context(30) as ctx:  # the bookkeeping below (sizes, digit counts) only
        return _settle(P, Q, tables, order, dps, ctx, against)


def _settle(P: Density, Q: Density, tables, order: sp.Expr, dps: int, ctx,
            against: mpmath.mpf | None = None) -> mpmath.mpf:
    guard = 10
    alpha_minus_1 = None
    if order.is_finite and order != 1:
        alpha_minus_1 = abs(to_mpf(order - 1, ctx))
        # log(I)/(α−1) loses about −log10|α−1| digits to cancellation.
        guard += max(0, int(-ctx.log10(alpha_minus_1)) + 1)

    def size(value):
        # The value in the units the quadrature's error is absolute in: log I = (α−1)·D.
        value = ctx.convert(value)
        return abs(value) * (alpha_minus_1 if alpha_minus_1 is not None and alpha_minus_1 < 1 else 1)

    # A small value is a difference of large ones: log(I) with I = 1 + 10⁻¹⁷ at σ = 10¹⁰
    # (or Σ P·log(P/Q) with terms of both signs) keeps only wp − 17 significant digits.
    # The definition is then evaluated in its near form (see _near_at_precision), which
    # has no such cancellation, when that is available and consistent with the direct
    # value; else the digits the first value shows are lost are added, until they are
    # covered. A value that is 0, or at the rounding noise, is total cancellation, not a
    # zero divergence (P ≠ Q here): it asks for about twice the precision. Never beyond
    # ``ceiling`` digits.
    wp = dps + guard
    ceiling = CEILING_FACTOR * (dps + guard)  # the one ladder's ceiling
    at_precision = _at_precision
    first = at_precision(P, Q, tables, order, wp)
    for _ in range(_MAX_RAISES):
        if not mpmath.isfinite(first):
            break
        small = size(first) if first != 0 else ctx.mpf(10) ** -wp
        if small >= ctx.mpf(10) ** -_SLACK:
            break
        if small <= ctx.mpf(10) ** (guard - wp) and _same_law_guarded(P, Q, tables):
            return mpmath.mpf(0)
        needed = dps + guard + int(-ctx.log10(small)) + 1 - _SLACK
        if needed <= wp:
            break
        if at_precision is _at_precision and (needed - dps - guard > NEAR_DIGITS or needed > ceiling):
            # Cheaper (or only possible) without the cancellation: the near form, at this precision.
            near = _near_value(P, Q, tables, order, wp, first, size, guard, ctx, dps)
            if near is not None:
                at_precision, first = functools.partial(_near_or_refused, dps=dps), near
                break
        if needed > ceiling:
            shown = "0" if first == 0 else ctx.nstr(ctx.convert(first), 5)
            raise ConvergenceError(
                f"D_{order} cancels below the precision ceiling: it came out {shown} at {wp} digits, "
                f"and {dps} significant digits of it would need {needed} working digits "
                f"(the ceiling is {ceiling} for dps={dps})"
            )
        wp = needed
        first = at_precision(P, Q, tables, order, wp)
    # Two precisions SECOND_RUNG (20) digits apart must agree to dps significant digits. If they agree
    # to fewer, the digits they lack were lost to something precision can buy (a peak
    # 10⁻⁵ wide at x = 10⁹ keeps only wp − 14 digits of its nodes): retry once with
    # those digits added, within the ceiling.
    if against is not None and mpmath.isfinite(first) and mpmath.isfinite(against) and first > 0:
        confirmed = agreed(against, first, dps)  # ``first`` to dps digits, if the closed form agrees with it
        if confirmed is not None:
            return exact_mpf(confirmed)  # the definition's own value: the closed form only vouched for it
    second = at_precision(P, Q, tables, order, wp + SECOND_RUNG)
    if mpmath.isinf(first) and first == second:
        return second if isinstance(second, Infinity) else first  # +∞, with the reason found
    for retry in (True, False):
        value = agreed(first, second, dps)
        if value is not None:
            break
        lacking = lacking_digits(first, second, dps)
        if not retry or lacking is None or wp + SECOND_RUNG + lacking > ceiling:
            if first == 0 and second == 0:  # ("0.0 at 41 digits vs 0.0 at 61 digits" read as a contradiction: a probe)
                raise ConvergenceError(
                    f"D_{order} came out 0 at {wp} and at {wp + SECOND_RUNG} working digits: the laws may be equal "
                    "almost everywhere (rdpsym did not show them equal as written) or D may be below what those "
                    "digits resolve; the two are not told apart")
            raise ConvergenceError(
                f"D_{order} did not settle to the {dps} digits asked: {_short(first, ctx)} at {wp} digits vs "
                f"{_short(second, ctx)} at {wp + SECOND_RUNG} digits{_told_apart(first, second, ctx)}"
            )
        if lacking <= 10:
            wp, first = wp + SECOND_RUNG, second
        else:
            wp = wp + SECOND_RUNG + lacking
            first = at_precision(P, Q, tables, order, wp)
        second = at_precision(P, Q, tables, order, wp + SECOND_RUNG)
    # D_α ≥ 0 (Mironov Prop 8): a negative value that both precisions agree on is a
    # quadrature that missed part of the integrand the same way twice.
    if value < 0:
        raise ConvergenceError(
            f"D_{order} came out negative ({_short(first, ctx)} at {wp} digits, "
            f"{_short(second, ctx)} at {wp + SECOND_RUNG}), but a Rényi divergence is >= 0 "
            "(Mironov Prop 8): the integration missed part of the integrand"
        )
    return exact_mpf(value)


@sympy_evalf_guard.serialized
def _same_law_guarded(P: Density, Q: Density, tables) -> bool:
    return _same_law(P, Q, tables, symbolic=True)


def _short(value, ctx) -> str:
    """A number for a message: 20 significant digits (a 600-digit number would bury the message)."""
    return ctx.nstr(ctx.convert(value), 20)


def _told_apart(first, second, ctx) -> str:
    """How far apart two values that did not settle are, for the message: printed to 20 digits (and shortened to 6
    by the error), 0.77367799947750062444 "vs" 0.77367799947750062444 said nothing (a probe).

    >>> import mpmath
    >>> with mpmath.workdps(40):
    ...     _told_apart(mpmath.mpf(1) / 3, mpmath.mpf(1) / 3 + mpmath.mpf(10) ** -25, mpmath.mp)
    ', which agree to 24 digits (they differ by 1.0e-25)'
    """
    a, b = ctx.convert(first), ctx.convert(second)
    if not (ctx.isfinite(a) and ctx.isfinite(b)) or a == b or b == 0:
        return ""
    agree = max(0, int(ctx.floor(-ctx.log10(abs(a - b) / abs(b)))))
    return f", which agree to {agree} digits (they differ by {ctx.nstr(abs(a - b), 2)})"


def _near_value(P, Q, tables, order, wp, first, size, guard, ctx, dps):
    """The near form's value at ``wp`` when it applies and agrees with the direct value ``first`` to the
    direct value's absolute accuracy (10^−(wp − guard) in log I), else None."""
    try:
        near = _near_at_precision(P, Q, tables, order, wp, covered=wp - dps)
    except (ConvergenceError, NoClosedFormError, ZeroDivisionError, ValueError):
        return None
    if near is None or not mpmath.isfinite(near):
        return None
    if abs(size(near) - size(first)) > ctx.mpf(10) ** (guard - wp) * 10 ** _SLACK:
        return None
    return near


def _near_or_refused(P, Q, tables, order, wp: int, *, dps: int):
    """The near form at ``wp`` digits, once the value is read in it: where it does not apply at a higher precision
    (the laws' masses not 1 to it), a ConvergenceError; its None went on into the comparison of the two precisions,
    a raw TypeError (a probe)."""
    value = _near_at_precision(P, Q, tables, order, wp, covered=wp - dps)
    if value is None:
        raise ConvergenceError(f"D_{order} cancels, and its form without cancellation does not apply at {wp} digits "
                               "(the laws' masses do not add up to 1 there)")
    return value


#: Digits of cancellation beyond which the near form is used instead of more working digits.
NEAR_DIGITS = 30


#: Rounds of raising the precision for a value whose digits cancel (see renyi_divergence_mp).
_MAX_RAISES = 4


#: Digits of cancellation the fixed guard digits already cover.
_SLACK = 5


def same_law(P: Density, Q: Density, symbolic: bool = False) -> bool:
    """Whether P and Q are the same distribution, decided exactly (never numerically).

    The same table (outcomes of probability 0 aside), or the same expression on the
    same support; with ``symbolic``, also branches whose difference simplifies to 0
    on every piece (within a time budget; undecided is False).
    """
    P, Q, _ = align_pair(P, Q)
    return _same_law(P, Q, _tables(P, Q), symbolic)


def _same_law(P: Density, Q: Density, tables: tuple | None, symbolic: bool = False) -> bool:
    """:func:`same_law` for a pair already aligned (``tables``: their tables, or None)."""
    if tables is not None:
        tp, tq = ({k: v for k, v in t.items() if v != 0} for t in tables)
        return tp.keys() == tq.keys() and all(tp[k] == tq[k] or (tp[k] - tq[k]).is_zero is True for k in tp)
    if isinstance(P, Discrete) != isinstance(Q, Discrete) or P.support != Q.support:
        return False
    if P.expr == Q.expr:
        return True
    if not symbolic:
        return False
    try:
        return budgeted(lambda: all(_same_branch(pair.p, pair.q) for pair in definition_regions(P, Q)),
                        "whether P and Q are the same law", seconds=2.0)
    except (NoClosedFormError, NotImplementedError, TypeError, ValueError):  # undecided (or no budget here)
        return False


@functools.lru_cache(maxsize=256)
def _same_branch(p: sp.Expr, q: sp.Expr) -> bool:
    """Whether two branches are one expression (asked again each time the value cancels).  Written in exponentials
    too where they hold hyperbolic or circular functions: e^{−x}/(1 + e^{−x})² against 1/(4 cosh²(x/2)), one logistic
    law, does not simplify to 0 as it is, and the definition's value, exactly 0, never settled (a review)."""
    if p == q or sp.simplify(p - q) == 0:
        return True
    difference = p - q
    if not difference.has(*_WRITTEN_IN_EXPONENTIALS):
        return False
    return sp.simplify(difference.rewrite(sp.exp)) == 0


#: Functions :func:`_same_branch` also writes in exponentials.
_WRITTEN_IN_EXPONENTIALS = (sp.cosh, sp.sinh, sp.tanh, sp.coth, sp.sech, sp.csch, sp.cos, sp.sin, sp.tan, sp.cot,
                            sp.sec, sp.csc)


def _at_precision(P: Density, Q: Density, tables: tuple | None, order: sp.Expr, wp: int) -> mpmath.mpf:
    """The definition (direct form: log ∫ P^α Q^{1−α}, ∫ P log(P/Q), sup log(P/Q)) at ``wp`` digits,
    in a private context; the value as a global-context ``mpf``, exactly."""
    with private_context(wp) as ctx:
        reasons: list[str] = []
        value = _direct(P, Q, tables, order, ctx, reasons)
        if value == ctx.inf:
            return Infinity(reasons[0] if reasons else None)
        return exact_mpf(value)

