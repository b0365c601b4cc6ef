"""Rényi divergences straight from the definition, at arbitrary precision.

This is the *independent* route every closed form is checked against: it
integrates (or sums) ``P^α Q^{1−α}`` numerically with mpmath, from the raw
pdfs, never from a derived formula.  The integration itself (modes, splits,
tails, singular ends, series, the supremum at α = ∞) is :mod:`rdpsym.quadrature`;
here are the definition, built from P and Q, and its precision policy.

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
the value.  A small value is computed again in the *near form*
(:func:`_near_at_precision`, :mod:`rdpsym.quadrature.near`), which has no
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
from rdpsym.laws.atoms import has_atoms
from rdpsym.laws.densities import Density, Discrete, align_pair, parameter_values
from rdpsym.quadrature.compile import (
    compile_expr,
    fast_log,
    log_expression,
    log_function,
    log_ratio_function,
    shifted_log,
    to_mpf,
)
from rdpsym.quadrature.integrands import LogForm
from rdpsym.quadrature.integrate import integrate_pieces
from rdpsym.quadrature.near import log_psi, near_one, psi_near
from rdpsym.quadrature.regions import Law, lattice_sup, law_probes, probe_points, read_regions, read_tables
from rdpsym.quadrature.supremum import sup_log_ratio

oo = sp.oo


def numeric_order(order: object) -> sp.Expr:
    """A numeric order in (0, ∞], or a :class:`DomainError`."""
    value = parse_order(order)
    if isinstance(value, sp.Symbol):
        raise DomainError(must("order", "a number in (0, oo] for a numeric divergence", value))
    return value


def renyi_divergence_mp(
    P: Density, Q: Density, order: object, dps: int = 50, values: Mapping | None = None, *,
    seconds: float | None = None,
) -> mpmath.mpf:
    """D_order(P‖Q) from the definition, as an mpmath number good to ``dps`` digits.

    ``order`` is a number in (0, ∞]: 1 gives the KL divergence ∫P log(P/Q),
    ∞ the supremum of log(P/Q) (found by scanning and refining, so "numeric":
    a lower estimate that is exact when the supremum is attained).  A value of
    +∞ is an :class:`~rdpsym.foundations.numbers.Infinity` whose ``reason`` says
    why (``P > 0 = Q on (1, 2)``, ``log(P/Q) → ∞ as x → 0⁺``).  The work is
    bounded: at most :data:`DEFINITION_SECONDS` (or ``seconds``) of CPU time and
    a precision ceiling, else :class:`~rdpsym.foundations.errors.ConvergenceError`
    saying which was reached.  Safe to call from any thread: it works in private
    mpmath contexts, and the number it returns is a global-context ``mpf``.

    >>> import sympy as sp, rdpsym
    >>> s = sp.Symbol("sigma", positive=True)
    >>> P, Q = rdpsym.gaussian(sigma=s).pair
    >>> renyi_divergence_mp(P, Q, 3, dps=30, values={s: 2})  # printed at the 30 digits asked for
    mpf('0.375000000000000000000000000000')
    >>> renyi_divergence_mp(*rdpsym.gaussian(sigma=10**100).pair, 2, dps=20)  # α/(2σ²), at any scale
    mpf('1.0000000000000000000e-200')
    """
    from rdpsym.laws.multivariate import is_multivariate

    if is_multivariate(P, Q):  # laws in several variables: rdpsym.derive.multivariate
        from rdpsym.derive.multivariate import joint_divergence_mp

        return joint_divergence_mp(P, Q, order, dps, values)
    if has_atoms(P, Q):  # point masses beside a density: rdpsym.derive.atoms
        from rdpsym.derive.atoms import divergence_mp

        return divergence_mp(P, Q, order, read_dps(dps), values)
    dps = read_dps(dps)
    seconds = DEFINITION_SECONDS if seconds is None else float(seconds)
    budget = time_budget(seconds, "the definition")
    try:
        with budget:
            value = _definition(P, Q, order, dps, values)
    except SymbolicTimeout:
        if not budget.spent:
            raise
        raise ConvergenceError(
            f"D_{order} from the definition did not finish within {seconds:g} s of CPU time (the time ceiling; "
            "pass seconds= to allow more)") from None
    return value if mpmath.isinf(value) else Digits(value, dps)


#: CPU seconds one definition value (both precisions, every retry) may take.
DEFINITION_SECONDS = 60.0


def _definition(P: Density, Q: Density, order: object, dps: int, values: Mapping | None) -> mpmath.mpf:
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
        return _settle(P, Q, tables, order, dps, ctx)


def _settle(P: Density, Q: Density, tables, order: sp.Expr, dps: int, ctx) -> mpmath.mpf:
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
            near = _near_value(P, Q, tables, order, wp, first, size, guard, ctx)
            if near is not None:
                at_precision, first = _near_at_precision, near
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
    second = at_precision(P, Q, tables, order, wp + SECOND_RUNG)
    if mpmath.isinf(first) and first == second:
        return second if isinstance(second, Infinity) else first  # +∞, with the reason found
    for retry in (True, False):
        value = agreed(first, second, dps)
        if value is not None:
            break
        lacking = lacking_digits(first, second, dps)
        if not retry or lacking is None or wp + SECOND_RUNG + lacking > ceiling:
            raise ConvergenceError(
                f"D_{order} did not settle: {_short(first, ctx)} at {wp} digits vs "
                f"{_short(second, ctx)} at {wp + SECOND_RUNG} digits"
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


def _near_value(P, Q, tables, order, wp, first, size, guard, ctx):
    """The near form's value at ``wp`` when it applies and agrees with the direct value ``first`` to the
    direct value's absolute accuracy (10^−(wp − guard) in log I), else None."""
    try:
        near = _near_at_precision(P, Q, tables, order, wp)
    except (ConvergenceError, NoClosedFormError, ZeroDivisionError, ValueError):
        return None
    if near is None or not mpmath.isfinite(near):
        return None
    if abs(size(near) - size(first)) > ctx.mpf(10) ** (guard - wp) * 10 ** _SLACK:
        return None
    return near


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
    """Whether two branches are one expression (asked again each time the value cancels)."""
    return p == q or sp.simplify(p - q) == 0


def _at_precision(P: Density, Q: Density, tables: tuple | None, order: sp.Expr, wp: int) -> mpmath.mpf:
    """The definition (direct form: log ∫ P^α Q^{1−α}, ∫ P log(P/Q), sup log(P/Q)) at ``wp`` digits,
    in a private context; the value as a global-context ``mpf``, exactly."""
    with private_context(wp) as ctx:
        reasons: list[str] = []
        value = _direct(P, Q, tables, order, ctx, reasons)
        if value == ctx.inf:
            return Infinity(reasons[0] if reasons else None)
        return exact_mpf(value)


def _direct(P: Density, Q: Density, tables: tuple | None, order: sp.Expr, ctx, reasons: list):
    a = to_mpf(order, ctx)
    if tables is not None:
        return _table_divergence(*tables, a, ctx, reasons)
    setting = _Setting(P, Q, ctx)
    setting.reasons = reasons
    pairs = setting.pairs
    if a == ctx.inf:
        return _sup(setting, ctx, setting.reasons)

    def integrand_at(reflect_at=None):
        """The integrand in t, or in t = e − x when reflected at e, by its logarithm (a LogForm)."""
        lp_, lq_ = (setting.lP, setting.lQ) if reflect_at is None else setting.logs(reflect_at)
        if a == 1:
            def parts(t):  # P·log(P/Q)
                lp = lp_(t)
                if lp == ctx.ninf:
                    return ctx.ninf, 0
                d = lp - lq_(t)
                if d == 0:
                    return ctx.ninf, 0
                return lp + ctx.log(abs(d)), (1 if d > 0 else -1)
        else:
            def parts(t):  # P^α·Q^(1−α)
                return _combined_log(lp_, lq_, a, t, ctx), 1
        return LogForm(parts, ctx)

    value = integrate_pieces(pairs, P.var, integrand_at(), ctx, discrete=setting.discrete, order=order,
                             check_support=a >= 1, reflected=integrand_at, reasons=setting.reasons,
                             recentred=setting.recentred("KL" if a == 1 else order))
    if a == 1:
        return value
    if value == ctx.inf:
        return ctx.inf
    if value == 0 and any(pair.p != 0 and pair.q != 0 for pair in pairs):
        # P^α Q^(1−α) > 0 where both laws live: a 0 is mass the quadrature missed, never D = −∞ (α > 1) or a
        # +∞ that only disjoint supports give (α < 1).
        raise ConvergenceError("the quadrature found no mass where P and Q are both positive")
    return ctx.log(value) / (a - 1)


def _combined_log(lp, lq, a, t, ctx):
    """α·log P(t) + (1 − α)·log Q(t) to the working precision, whatever the two terms cancel: at α = 10¹² the
    terms of a Gaussian pair near the mass are ~10³⁶ and their sum ~10²⁴, so at 30 digits the sum would be off
    by 10⁶ e-folds and the mass not found (the definition came out −∞).  Recomputed with the digits the
    terms lost (t is an exact binary number: the logarithms are evaluated again, not just added)."""
    u, v = a * lp(t), (1 - a) * lq(t)
    total = u + v
    if not (ctx.isfinite(u) and ctx.isfinite(v)):
        return total
    big = max(abs(u), abs(v))
    if big == 0:
        return total
    lost = ctx.mag(big) - (ctx.mag(total) if total != 0 else -ctx.prec)
    if lost <= _CANCELLED_BITS or lost > 4 * ctx.prec:
        # (Beyond 4× the working bits, far in a tail: a logistic pair's P²/Q tends to a constant, and at
        # x = 10⁴⁰⁰⁰ its terms cancel in 13 000 bits.  The scan there needs the sum's size, not its digits,
        # and where the mass itself is that ill-conditioned, the integration recentres symbolically.)
        return total
    with ctx.extraprec(int(lost) + 20):
        total = a * lp(t) + (1 - a) * lq(t)
    return +total


#: Bits that α·log P and (1 − α)·log Q may cancel before they are recomputed at a higher precision.
_CANCELLED_BITS = 10


class _Setting:
    """P and Q compiled for one context: log-densities (checked fast forms), log-ratios per piece."""

    @sympy_evalf_guard.serialized
    def __init__(self, P: Density, Q: Density, ctx):
        self.P, self.Q, self.ctx = P, Q, ctx
        self.pairs = definition_regions(P, Q)  # the numeric route's own reading of the supports
        self.discrete = isinstance(P, Discrete)
        self.fP, self.fQ = compile_expr(P.expr, P.var, ctx), compile_expr(Q.expr, Q.var, ctx)
        self.probes_P, self.probes_Q = (law_probes(self.pairs, side, self.discrete) for side in ("p", "q"))
        self.lP, self.lQ = self.logs()
        self.trusted = all(fast_log(D.expr, D.var, f, probes, self.discrete, ctx) is not None
                           for D, f, probes in ((P, self.fP, self.probes_P), (Q, self.fQ, self.probes_Q)))
        self._ratios: dict = {}
        self.reasons: list[str] = []  # why a value is +∞, as found

    def logs(self, reflect_at=None):
        """log P and log Q in t, or in t = e − x when reflected at e."""
        P, Q, ctx = self.P, self.Q, self.ctx
        return (log_function(P.expr, P.var, self.fP, self.probes_P, self.discrete, ctx, reflect_at),
                log_function(Q.expr, Q.var, self.fQ, self.probes_Q, self.discrete, ctx, reflect_at))

    def recentred(self, kind):
        """The integrand of ``kind`` (an order α ≠ 1, "KL", or ("near", α)) about an exact centre c, as the
        ``recentred(pair, c)`` of :func:`~rdpsym.quadrature.integrate.integrate_pieces`: the logarithms
        are substituted x = c + u and expanded symbolically, their value at c taken out exactly.  None
        (no recentring) where the compiled logarithms were not trusted."""
        if self.discrete or not self.trusted:
            return None
        ctx, var = self.ctx, self.P.var

        @sympy_evalf_guard.serialized
        def factory(pair, centre):
            lp_e, lq_e = log_expression(pair.p), log_expression(pair.q)
            if kind == "KL" or isinstance(kind, tuple):
                a = kind[1] if isinstance(kind, tuple) else None
                base = shifted_log(lp_e if a is None else lq_e, var, centre, ctx)
                ratio = shifted_log(lp_e - lq_e, var, centre, ctx, relative=False)
                if base is None or ratio is None:
                    return None
                (lb, at), (r, _) = base, ratio
                if a is None:
                    def parts(u):  # P·log(P/Q) / P(c)
                        d = r(u)
                        return (lb(u) + ctx.log(abs(d)), (1 if d > 0 else -1)) if d != 0 else (ctx.ninf, 0)
                else:
                    near = psi_near(lb, r, a, ctx)

                    def parts(u):  # Q·ψ(r) / Q(c)
                        return near(u)
                return LogForm(parts, ctx), at
            a = kind
            combined = shifted_log(a * lp_e + (1 - a) * lq_e, var, centre, ctx)
            if combined is None:
                return None
            L, at = combined
            return LogForm(lambda u: (L(u), 1), ctx), at

        return factory

    @sympy_evalf_guard.serialized
    def ratio(self, pair):
        """t -> log(p/q) on one region (:mod:`rdpsym.quadrature.regions`), without cancellation where SymPy can
        expand it."""
        key = (pair.lo, pair.hi, pair.p, pair.q)
        if key not in self._ratios:
            self._ratios[key] = log_ratio_function(pair.p, pair.q, self.P.var, self.lP, self.lQ,
                                                   probe_points(pair, self.discrete), self.discrete, self.ctx)
        return self._ratios[key]


def _near_at_precision(P: Density, Q: Density, tables: tuple | None, order: sp.Expr, wp: int):
    """The definition in its *near form* at ``wp`` digits (a global-context ``mpf``), or None where it does
    not apply (α = ∞, a table, laws not normalised to the working precision).

    With r = log(P/Q), S the pieces where both are positive, and P, Q probability laws,

        ∫ P^α Q^{1−α} − 1 = ∫_S Q·ψ_α(r) − α·P(S^c) + (α − 1)·Q(S^c),   ψ_α(r) = e^{αr} − 1 − α(e^r − 1),
        KL(P‖Q)           = ∫_S Q·φ(r) + Q(S^c),                         φ(r) = 1 + (r − 1)·e^r,

    and D_α = log1p(·)/(α − 1).  ψ_α has one sign (that of α − 1) and φ ≥ 0, so
    no term cancels another, and r, expanded symbolically per piece, is free of
    the cancellation of log P − log Q: at σ = 10³⁰⁰ a Gaussian pair's D_2 = 10⁻⁶⁰⁰
    comes out at the working precision, where the direct form would need 600
    more digits.  Used when the direct value is small (:func:`_near_value`).
    """
    with private_context(wp) as ctx:
        if tables is not None:
            return _near_table(*tables, order, ctx)
        setting = _Setting(P, Q, ctx)
        if order is oo:
            # The supremum of the log-ratio expanded symbolically piece by piece has no cancellation at all.
            if not all(getattr(setting.ratio(pair), "expanded", False)
                       for pair in setting.pairs if pair.p != 0 and pair.q != 0):
                return None
            reasons: list[str] = []
            value = _sup(setting, ctx, reasons)
            return Infinity(reasons[0] if reasons else None) if value == ctx.inf else exact_mpf(value)
        a = to_mpf(order, ctx)
        discrete = setting.discrete
        masses = {"P": ctx.mpf(0), "Q": ctx.mpf(0), "P only": ctx.mpf(0), "Q only": ctx.mpf(0)}
        shared = ctx.mpf(0)
        for pair in setting.pairs:
            if pair.p == 0 and pair.q == 0:
                continue
            fP, fQ = (LogForm(lambda t, f=f: (f(t), 1), ctx) for f in (setting.lP, setting.lQ))
            if pair.p != 0:
                mass = integrate_pieces([pair], P.var, fP, ctx, discrete=discrete, order=sp.S.One)
                masses["P"] += mass
                if pair.q == 0:
                    masses["P only"] += mass
            if pair.q != 0:
                mass = integrate_pieces([pair], P.var, fQ, ctx, discrete=discrete, order=sp.S.One)
                masses["Q"] += mass
                if pair.p == 0:
                    masses["Q only"] += mass
            if pair.p != 0 and pair.q != 0:
                r = setting.ratio(pair)
                shared += integrate_pieces([pair], P.var, LogForm(psi_near(setting.lQ, r, a, ctx), ctx), ctx,
                                           discrete=discrete, order=order, recentred=setting.recentred(("near", a)))
        tolerance = ctx.mpf(10) ** (10 - wp)
        if any(abs(masses[k] - 1) > tolerance for k in ("P", "Q")):
            return None  # not probability laws to this precision: the identity does not hold
        if a >= 1 and masses["P only"] > 0:
            return Infinity("P > 0 = Q on part of P's support")
        if a == 1:
            return exact_mpf(shared + masses["Q only"])
        excess = shared - a * masses["P only"] + (a - 1) * masses["Q only"]
        return exact_mpf(near_one(excess, a, ctx))


def _near_table(tp: dict, tq: dict, order: sp.Expr, ctx):
    """The near form on two tables: r = log1p((p − q)/q) from the exact difference of the probabilities."""
    keys = list(dict.fromkeys([*tp, *tq]))
    p = {k: tp.get(k, sp.S.Zero) for k in keys}
    q = {k: tq.get(k, sp.S.Zero) for k in keys}
    shared = [k for k in keys if p[k] != 0 and q[k] != 0]
    only_p = sum((p[k] for k in keys if q[k] == 0), sp.S.Zero)
    only_q = sum((q[k] for k in keys if p[k] == 0), sp.S.Zero)
    if sum(p.values()) != 1 or sum(q.values()) != 1:
        return None  # not probability tables exactly
    ratios = {k: ctx.log1p(to_mpf((p[k] - q[k]) / q[k], ctx)) for k in shared}
    if order is oo:
        return Infinity(f"P > 0 = Q at {next(k for k in keys if q[k] == 0)}") if only_p else \
            exact_mpf(max(ratios.values()))
    a = to_mpf(order, ctx)
    if a >= 1 and only_p:
        return Infinity(f"P > 0 = Q at {next(k for k in keys if q[k] == 0)}")
    parts = [log_psi(ratios[k], a, ctx) for k in shared]
    total = ctx.fsum(to_mpf(q[k], ctx) * sign * ctx.exp(log_value)
                     for k, (log_value, sign) in zip(shared, parts) if sign)
    if a == 1:
        return exact_mpf(total + to_mpf(only_q, ctx))
    return exact_mpf(near_one(total - a * to_mpf(only_p, ctx) + (a - 1) * to_mpf(only_q, ctx), a, ctx))


def _law(density: Density) -> Law:
    """A density's raw data (expression, variable, support as given; or its table) for the numeric reading."""
    if isinstance(density, Discrete) and density.table is not None:
        return Law(None, None, None, table=density.table)
    return Law(density.expr, density.var, density.support)


@functools.lru_cache(maxsize=128)
def _read(P: Density, Q: Density) -> tuple:
    return tuple(read_regions(_law(P), _law(Q)))


@sympy_evalf_guard.serialized
def definition_regions(P: Density, Q: Density) -> list:
    """The regions of P and Q (:func:`rdpsym.quadrature.regions.read_regions`), read once per pair of laws:
    the numeric routes' own reading of the supports, never the derivation's."""
    return list(_read(P, Q))


def law_mass(D: Density, dps: int) -> mpmath.mpf:
    """∫ D (Σ for a pmf) to ``dps`` digits, by the definition's own reading of its support (a law with every
    parameter given): how a check makes sure an image of a law under a change of variables is still one."""
    regions = [r for r in definition_regions(D, D) if r.p != 0]
    with private_context(dps + 10) as ctx:
        setting = _Setting(D, D, ctx)
        mass = integrate_pieces(regions, D.var, LogForm(lambda t: (setting.lP(t), 1), ctx), ctx,
                                discrete=setting.discrete, order=sp.S.One)
        return exact_mpf(mass)


@sympy_evalf_guard.serialized
def _tables(P: Density, Q: Density) -> tuple[dict, dict] | None:
    """Two finite pmfs as tables, their outcomes enumerated here (start … stop − 1 of a Range), else None."""
    if not (isinstance(P, Discrete) and isinstance(Q, Discrete)):
        return None
    return read_tables(_law(P), _law(Q))


def _sup(setting: _Setting, ctx, reasons: list):
    """sup log(P/Q) over the regions: the plain ones by :func:`sup_log_ratio`, a lattice's block by block
    (:func:`~rdpsym.quadrature.regions.lattice_sup`), each block's cells as plain pieces."""
    var = setting.P.var

    def sup_over(pieces):
        # A cell between jumps of floors where both branches are constants: log(p/q) is that constant.
        constant = [c for c in pieces if getattr(c, "cell", False) and c.p != 0 and c.q != 0
                    and not c.p.has(var) and not c.q.has(var)]
        rest = [c for c in pieces if c not in constant]
        best = sup_log_ratio(rest, var, setting.lP, setting.lQ, ctx, discrete=setting.discrete,
                             ratio_for=setting.ratio, reasons=reasons) if rest else ctx.ninf
        if constant and best != ctx.inf:
            with sympy_evalf_guard():
                best = max(best, *(to_mpf(sp.log(c.p / c.q), ctx) for c in constant))
        return best

    plain = [r for r in setting.pairs if r.lattice is None]
    best = sup_over(plain) if plain else ctx.ninf
    if best == ctx.inf:
        return best
    for region in setting.pairs:
        if region.lattice is None or region.p == 0:
            continue
        if region.q == 0:
            reasons.append(f"P > 0 = Q on ({region.lo}, {region.hi})")
            return ctx.inf
        value = lattice_sup(region, sup_over, ctx, reasons)
        if value == ctx.inf:
            return value
        best = max(best, value)
    return best


def _table_divergence(tp: dict, tq: dict, a, ctx, reasons: list):
    keys = list(dict.fromkeys([*tp, *tq]))
    p = {k: to_mpf(tp.get(k, sp.S.Zero), ctx) for k in keys}  # table values are SymPy numbers, read at construction
    q = {k: to_mpf(tq.get(k, sp.S.Zero), ctx) for k in keys}
    if a >= 1 and any(p[k] > 0 and q[k] == 0 for k in keys):
        reasons.append(f"P > 0 = Q at {next(k for k in keys if p[k] > 0 and q[k] == 0)}")
        return ctx.inf
    if a == ctx.inf:
        return max(ctx.log(p[k] / q[k]) for k in keys if p[k] > 0)
    if a == 1:
        return ctx.fsum(p[k] * ctx.log(p[k] / q[k]) for k in keys if p[k] > 0)
    total = ctx.fsum(ctx.power(p[k], a) * ctx.power(q[k], 1 - a) for k in keys if p[k] > 0 and q[k] > 0)
    return ctx.log(total) / (a - 1)
