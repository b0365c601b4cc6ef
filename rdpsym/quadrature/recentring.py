"""A log-integrand moved to a centre: written about it symbolically where SymPy can, else evaluated about it with
the bits it needs.

Where the mass of an integrand is narrower than the working precision resolves at its place (a hill at 10³⁰⁰ one
unit wide), the quadrature integrates it in u = x − centre (:func:`rdpsym.quadrature.piece._piece`).
:func:`shifted_log` gives log f(centre + u) − log f(centre) for that, from SymPy's expansion of the substitution
(:func:`rdpsym.quadrature.log_expressions.shifted_expression`) when it is exact to the working precision, else from
log f itself evaluated with the bits of the centre's place and of log f's size more; :func:`recentred_log` makes the
integrand of it that :func:`~rdpsym.quadrature.integrate.integrate_pieces` takes.
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from rdpsym.foundations.errors import NoClosedFormError
from rdpsym.foundations.precision import sympy_evalf_guard
from rdpsym.quadrature.compile import compile_expr, to_mpf
from rdpsym.quadrature.integrands import LogForm, NumericLogForm
from rdpsym.quadrature.log_expressions import OUT_OF_TIME, shifted_expression


def shifted_log(expr: sp.Expr, var: sp.Symbol, centre: sp.Expr, ctx, relative: bool = True):
    """(u -> expr(centre + u) − expr(centre), expr(centre)) compiled from the expanded substitution, or
    (u -> expr(centre + u), 0) when not ``relative``.  Where SymPy cannot write it in time, or its difference still
    subtracts two large numbers (a mixture's log: :func:`_cancelling`), expr itself evaluated at centre + u with more
    bits (:func:`_shifted_numerically`); None where expr is singular at the centre.

    For a log-density of σ = 10⁻³⁰⁰ at x ≈ 1, expr is ~10⁶⁰⁰ and its change over the width
    of the mass is ~1: only the expanded difference, with the constant 10⁶⁰⁰ taken out exactly, keeps
    that change at the working precision (and u = x − centre keeps the width resolvable).
    """
    found = shifted_expression(expr, var, centre, relative)
    if found is OUT_OF_TIME:
        return _shifted_numerically(expr, var, centre, ctx, relative)
    if found is None:  # (singular at the centre: a log-density's zero there, which no rounded centre may hide)
        return None
    difference, constant = found
    if not relative:
        return compile_expr(difference, var, ctx), ctx.zero
    try:
        at_centre = to_mpf(constant, ctx)
    except TypeError:  # not real: logs of powers expanded at a centre where their base is negative (+2πi: Maxwell
        return None    # laws at the order their integral starts to diverge; a probe): the caller's other forms
    if _cancelling(difference, var, ctx):
        numerically = _shifted_numerically(expr, var, centre, ctx, relative)
        if numerically is not None:  # (else past the bits it evaluates with: the difference as it is written)
            return numerically
    return compile_expr(difference, var, ctx), at_centre


#: Bits of a constant term of the expanded difference beyond which its cancellation is left to
#: :func:`_shifted_numerically`.
_CANCELLED_BITS = 16


def _cancelling(difference: sp.Expr, var: sp.Symbol, ctx) -> bool:
    """Whether the expanded difference expr(centre + u) − expr(centre) still holds a constant term of more than
    :data:`_CANCELLED_BITS` bits, which its terms in u cancel at small u: the working precision would lose those bits.

    Where expr is a mixture's log, log A(x), the expansion cannot split log A(centre + u): the difference is
    log A(centre + u) − log A(centre), two numbers of expr's size subtracted.  ½N(0, 10⁻⁴⁴⁰) + ½Laplace(10⁸⁰) +
    10⁻⁶⁰⁰N(−10³⁰⁰, 1) against ¼N(0, 10⁻⁴⁴⁰) + ¾Laplace(10⁸⁰) at order ½, recentred about the far normal at −10³⁰⁰
    where the log-integrand is −5·10²⁹⁹, was all rounding at 26 digits: a mass "narrower than 8 recentrings
    resolve" was reported at −1.5·10¹³⁶ and the divergence refused (its value is 0.0693; a probe; with the normal at
    −10³⁰⁰⁰ SymPy had run out of time and the numeric route had answered)."""
    constant, _ = difference.as_independent(var, as_Add=True)
    if constant == 0:
        return False
    try:
        size = to_mpf(constant, ctx)
    except (TypeError, ValueError, ArithmeticError, NoClosedFormError):  # (not read: the numeric route, or as before)
        return True
    return not ctx.isfinite(size) or ctx.mag(size) > _CANCELLED_BITS


def _shifted_numerically(expr: sp.Expr, var: sp.Symbol, centre: sp.Expr, ctx, relative: bool):
    """:func:`shifted_log` where SymPy could not write the substitution in time, or wrote a difference that cancels
    (:func:`_cancelling`): ``expr`` compiled and evaluated at
    centre + u with the bits of the centre's place and of expr's size more than the working precision, so that
    centre + u keeps u's digits and the difference keeps the working digits; None where expr(centre) is not a
    finite real number (a singular centre, as the symbolic route says by its None).

    P = ⅔N(0, 1) + (⅓ − 10⁻⁶⁰⁰)Cauchy(10³⁰⁰, 1) + 10⁻⁶⁰⁰N(−10²⁰⁰⁰, 1) against ⅓N(0, 1) + ⅔Cauchy(10³⁰⁰, 1): SymPy's
    log, asked its argument's sign at the centre 10³⁰⁰, evaluated e^(−5·10³⁹⁹⁹) for seconds, its budget ran
    out, and the Cauchy hill was left unread: D_½ = 1.504 for 0.1178 (a review; right in the runs whose SymPy cache
    happened to hold that sign)."""
    def compiled(bits):
        with ctx.workprec(bits):  # (the constants are folded at these bits too)
            f, c = compile_expr(expr, var, ctx), to_mpf(centre, ctx)
            return f, c, f(c)

    try:
        bits = ctx.prec + max(0, ctx.mag(to_mpf(centre, ctx))) + _NUMERIC_GUARD_BITS
        if bits > MAX_RECENTRED_BITS:
            return None
        f, c, at = compiled(bits)
        if type(at) is ctx.mpf and ctx.isfinite(at) and ctx.mag(at) > _NUMERIC_GUARD_BITS:
            bits += ctx.mag(at)  # (a large expr(centre): its size's bits are lost to the difference)
            if bits > MAX_RECENTRED_BITS:
                return None
            f, c, at = compiled(bits)
    except (ArithmeticError, ValueError, TypeError, NotImplementedError, NameError, KeyError, NoClosedFormError):
        return None
    if type(at) is not ctx.mpf or not ctx.isfinite(at):
        return None

    def moved(u):
        with ctx.workprec(bits):
            value = f(c + u) - at if relative else f(c + u)
        return +value
    moved.numeric = True  # (read by the recentring factories: their integrand is a NumericLogForm)
    return moved, (+at if relative else ctx.zero)


#: Bits beyond the working precision and the centre's place that :func:`_shifted_numerically` evaluates with.
_NUMERIC_GUARD_BITS = 64
#: The most bits :func:`_shifted_numerically` evaluates with (a far normal's hill at −10²⁰⁰⁰ takes about 30 000):
#: past them it answers None, as at a singular centre.  A Gumbel log-density at −6.5·10⁴¹ is −e^(6.5·10⁴¹), about
#: −2^(9·10⁴¹): no arithmetic runs at that precision (mpmath's C arithmetic takes it as a machine integer).
MAX_RECENTRED_BITS = 100_000


def recentred_log(log_of: Callable, var: sp.Symbol, ctx) -> Callable:
    """``recentred(pair, c)`` of :func:`~rdpsym.quadrature.integrate.integrate_pieces` for the integrand e^L with
    L = ``log_of(pair)`` a logarithm written symbolically (a density's, or α·log p + (1 − α)·log q): (a LogForm of
    e^(L(c + u) − L(c)), L(c)), or None where SymPy cannot write it (:func:`shifted_log`)."""
    @sympy_evalf_guard.serialized
    def factory(pair, centre):
        found = shifted_log(log_of(pair), var, centre, ctx)
        if found is None:
            return None
        log_g, at = found
        form = NumericLogForm if getattr(log_g, "numeric", False) else LogForm
        return form(lambda u: (log_g(u), 1), ctx), at
    return factory
