"""Rényi divergences straight from the definition, at arbitrary precision.

This is the *independent* route every closed form is checked against: it
integrates (or sums) ``P^α Q^{1−α}`` numerically with mpmath, from the raw
pdfs, never from a derived formula.  The integration itself (modes, splits,
tails, singular ends, series, the supremum at α = ∞) is :mod:`rdpsym.quadrature`;
here are the definition, built from P and Q, and its precision policy.

Precision policy (mpmath's own): nothing here changes global precision; all
work runs inside ``mpmath.workdps``.  Each value is computed at two working
precisions (``dps + guard`` and ``dps + guard + 20``) and returned only when
they agree to ``dps`` significant digits, however small the value (the guard
grows by the digits a small value shows are cancelled, up to a ceiling of
4·(dps + guard)), else :class:`~rdpsym.foundations.errors.ConvergenceError` is raised.
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

from rdpsym.engine.pieces import probe_points
from rdpsym.foundations.budget import budgeted
from rdpsym.foundations.errors import ConvergenceError, DomainError, NoClosedFormError, ParameterError, must
from rdpsym.foundations.numbers import Digits
from rdpsym.foundations.precision import CEILING_FACTOR, SECOND_RUNG, agreed, lacking_digits
from rdpsym.foundations.reading import dps as read_dps
from rdpsym.foundations.reading import parse_order
from rdpsym.laws.densities import Density, Discrete, align_pair, common_refinement, parameter_values
from rdpsym.quadrature.compile import compile_expr, log_function, to_mpf
from rdpsym.quadrature.integrate import integrate_pieces
from rdpsym.quadrature.supremum import sup_log_ratio

oo = sp.oo


def numeric_order(order: object) -> sp.Expr:
    """A numeric order in (0, ∞], or a :class:`DomainError`."""
    value = parse_order(order)
    if isinstance(value, sp.Symbol):
        raise DomainError(must("order", "a number in (0, oo] for a numeric divergence", value))
    return value


def renyi_divergence_mp(
    P: Density, Q: Density, order: object, dps: int = 50, values: Mapping | None = None
) -> mpmath.mpf:
    """D_order(P‖Q) from the definition, as an mpmath number good to ``dps`` digits.

    ``order`` is a number in (0, ∞]: 1 gives the KL divergence ∫P log(P/Q),
    ∞ the supremum of log(P/Q) (found by scanning and refining, so "numeric":
    a lower estimate that is exact when the supremum is attained).

    >>> import sympy as sp, rdpsym
    >>> s = sp.Symbol("sigma", positive=True)
    >>> P, Q = rdpsym.gaussian(sigma=s).pair
    >>> renyi_divergence_mp(P, Q, 3, dps=30, values={s: 2})  # printed at the 30 digits asked for
    mpf('0.375000000000000000000000000000')
    """
    from rdpsym.laws.multivariate import is_multivariate

    if is_multivariate(P, Q):  # laws in several variables: rdpsym.derive.multivariate
        from rdpsym.derive.multivariate import joint_divergence_mp

        return joint_divergence_mp(P, Q, order, dps, values)
    dps = read_dps(dps)
    value = _definition(P, Q, order, dps, values)
    return value if mpmath.isinf(value) else Digits(value, dps)


def _definition(P: Density, Q: Density, order: object, dps: int, values: Mapping | None) -> mpmath.mpf:
    """The definition's value to ``dps`` digits: the precision policy of the module docstring."""
    order = numeric_order(order)
    P, Q, tables = align_pair(P, Q)
    given = parameter_values(values, (P, Q))
    if given:
        P, Q = (D.subs({s: v for s, v in given.items() if s in D.parameters}) for D in (P, Q))
        P, Q, tables = align_pair(P, Q)  # a pmf on a range that the values made finite is a table now
    missing = sorted(str(s) for s in P.parameters | Q.parameters)
    if missing:
        raise ParameterError(f"values must give every parameter; missing: {', '.join(missing)}.")
    guard = 10
    alpha_minus_1 = None
    if order.is_finite and order != 1:
        alpha_minus_1 = abs(mpmath.mpf(sp.N(order - 1, 20)))
        # log(I)/(α−1) loses about −log10|α−1| digits to cancellation.
        guard += max(0, int(-mpmath.log10(alpha_minus_1)) + 1)

    def size(value):
        # The value in the units the quadrature's error is absolute in: log I = (α−1)·D.
        return abs(value) * (alpha_minus_1 if alpha_minus_1 is not None and alpha_minus_1 < 1 else 1)

    if _same_law(P, Q, tables):
        return mpmath.mpf(0)  # D_α(P‖P) = 0 at every order, exactly
    # A small value is a difference of large ones: log(I) with I = 1 + 10⁻¹⁷ at σ = 10¹⁰
    # (or Σ P·log(P/Q) with terms of both signs) keeps only wp − 17 significant digits.
    # Add the digits the first value shows are lost, until they are covered. A value that
    # is 0, or at the rounding noise, is total cancellation, not a zero divergence (P ≠ Q
    # here): it asks for about twice the precision. Never beyond ``ceiling`` digits.
    wp = dps + guard
    ceiling = CEILING_FACTOR * (dps + guard)  # the one ladder's ceiling
    first = _at_precision(P, Q, tables, order, wp)
    for _ in range(_MAX_RAISES):
        if not mpmath.isfinite(first):
            break
        small = size(first) if first != 0 else mpmath.mpf(10) ** -wp
        if small >= mpmath.mpf(10) ** -_SLACK:
            break
        if small <= mpmath.mpf(10) ** (guard - wp) and _same_law(P, Q, tables, symbolic=True):
            return mpmath.mpf(0)
        needed = dps + guard + int(-mpmath.log10(small)) + 1 - _SLACK
        if needed <= wp:
            break
        if needed > ceiling:
            shown = "0" if first == 0 else mpmath.nstr(first, 5)
            raise ConvergenceError(
                f"D_{order} cancels below the precision ceiling: it came out {shown} at {wp} digits, "
                f"and {dps} significant digits of it would need {needed} working digits "
                f"(the ceiling is {ceiling} for dps={dps})"
            )
        wp = needed
        first = _at_precision(P, Q, tables, order, wp)
    # Two precisions SECOND_RUNG (20) digits apart must agree to dps significant digits. If they agree
    # to fewer, the digits they lack were lost to something precision can buy (a peak
    # 10⁻⁵ wide at x = 10⁹ keeps only wp − 14 digits of its nodes): retry once with
    # those digits added, within the ceiling.
    second = _at_precision(P, Q, tables, order, wp + SECOND_RUNG)
    for retry in (True, False):
        value = agreed(first, second, dps)
        if value is not None:
            break
        lacking = lacking_digits(first, second, dps)
        if not retry or lacking is None or wp + SECOND_RUNG + lacking > ceiling:
            raise ConvergenceError(
                f"D_{order} did not settle: {mpmath.nstr(first, 20)} at {wp} digits vs "
                f"{mpmath.nstr(second, 20)} at {wp + SECOND_RUNG} digits"
            )
        if lacking <= 10:
            wp, first = wp + SECOND_RUNG, second
        else:
            wp = wp + SECOND_RUNG + lacking
            first = _at_precision(P, Q, tables, order, wp)
        second = _at_precision(P, Q, tables, order, wp + SECOND_RUNG)
    # D_α ≥ 0 (Mironov Prop 8): a negative value that both precisions agree on is a
    # quadrature that missed part of the integrand the same way twice.
    if value < 0:
        raise ConvergenceError(
            f"D_{order} came out negative ({mpmath.nstr(first, 20)} at {wp} digits, "
            f"{mpmath.nstr(second, 20)} at {wp + SECOND_RUNG}), but a Rényi divergence is >= 0 "
            "(Mironov Prop 8): the integration missed part of the integrand"
        )
    return value


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
    return _same_law(P, Q, align_pair(P, Q)[2], symbolic)


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
        return budgeted(lambda: all(_same_branch(pair.p, pair.q) for pair in common_refinement(P, Q)),
                        "whether P and Q are the same law", seconds=2.0)
    except (NoClosedFormError, NotImplementedError, TypeError, ValueError):  # undecided (or no budget here)
        return False


@functools.lru_cache(maxsize=256)
def _same_branch(p: sp.Expr, q: sp.Expr) -> bool:
    """Whether two branches are one expression (asked again each time the value cancels)."""
    return p == q or sp.simplify(p - q) == 0


def _at_precision(P: Density, Q: Density, tables: tuple | None, order: sp.Expr, wp: int) -> mpmath.mpf:
    with mpmath.workdps(wp):
        a = to_mpf(order)
        if tables is not None:
            return _table_divergence(*tables, a)
        discrete = isinstance(P, Discrete)
        fP, fQ = compile_expr(P.expr, P.var), compile_expr(Q.expr, Q.var)
        probes_P, probes_Q = _probes(P), _probes(Q)

        def logs(reflect_at=None):
            """log P and log Q in t, or in t = e − x when reflected at e."""
            return (log_function(P.expr, P.var, fP, probes_P, discrete, reflect_at),
                    log_function(Q.expr, Q.var, fQ, probes_Q, discrete, reflect_at))

        lP, lQ = logs()
        pairs = common_refinement(P, Q)
        if a == mpmath.inf:
            return sup_log_ratio(pairs, P.var, lP, lQ, discrete=discrete)

        def integrand_at(reflect_at=None):
            """The integrand in t, or in t = e − x when reflected at e."""
            lp_, lq_ = (lP, lQ) if reflect_at is None else logs(reflect_at)
            if a == 1:
                def integrand(t):
                    lp = lp_(t)
                    return mpmath.exp(lp) * (lp - lq_(t))
            else:
                def integrand(t):
                    return mpmath.exp(a * lp_(t) + (1 - a) * lq_(t))
            return integrand

        value = integrate_pieces(pairs, P.var, integrand_at(), discrete=discrete, order=order,
                                 check_support=a >= 1, reflected=integrand_at)
        if a == 1:
            return value
        if value == mpmath.inf:
            return mpmath.inf
        return mpmath.log(value) / (a - 1)


def _probes(density: Density) -> list[sp.Expr]:
    """Points inside every piece where the density is nonzero, to check its compiled logarithm at."""
    return [t for piece in density.pieces() if not piece.is_zero for t in probe_points(piece, density.discrete)]


def _table_divergence(tp: dict, tq: dict, a) -> mpmath.mpf:
    keys = list(dict.fromkeys([*tp, *tq]))
    p = {k: to_mpf(tp.get(k, sp.S.Zero)) for k in keys}  # table values are SymPy numbers, read at construction
    q = {k: to_mpf(tq.get(k, sp.S.Zero)) for k in keys}
    if a >= 1 and any(p[k] > 0 and q[k] == 0 for k in keys):
        return mpmath.inf
    if a == mpmath.inf:
        return max(mpmath.log(p[k] / q[k]) for k in keys if p[k] > 0)
    if a == 1:
        return mpmath.fsum(p[k] * mpmath.log(p[k] / q[k]) for k in keys if p[k] > 0)
    total = mpmath.fsum(mpmath.power(p[k], a) * mpmath.power(q[k], 1 - a) for k in keys if p[k] > 0 and q[k] > 0)
    return mpmath.log(total) / (a - 1)
