"""The logarithms the compiled integrands are made from, written so that what cancels cancels exactly.

A log-density as a sum (:func:`log_expression`: log k! as loggamma, 1 + erf as erfc, 1 ± cos u as a square), the
difference of two (:func:`log_ratio_expression`), the definition's α·log p + (1 − α)·log q
(:func:`combined_log_expression`) and a logarithm moved to a centre (:func:`shifted_expression`), each expanded
symbolically: terms the numbers would cancel past the working precision (x²/(2σ²) of two Gaussian laws of σ = 10³⁰⁰,
the |x| of a Laplace law against e^(−2|x|)) are gone before anything is evaluated.  SymPy only, within time budgets;
:mod:`rdpsym.quadrature.compile` compiles them and checks them against the densities at probe points.
"""

from __future__ import annotations

import functools

import sympy as sp

from rdpsym.foundations.budget import Unsettled, settled_cache, time_budget
from rdpsym.foundations.erfc_forms import stable_erf
from rdpsym.foundations.errors import NoClosedFormError
from rdpsym.foundations.logs import expand_logs
from rdpsym.foundations.precision import sympy_evalf_guard

__all__ = ["LOG_EXPANSION_SECONDS", "OUT_OF_TIME", "RECENTRING_SECONDS", "combined_log_expression", "half_angle",
           "log_expression", "log_ratio_expression", "shifted_expression"]

#: CPU seconds SymPy may take to write a log-density as a sum (the fast path is then skipped).
LOG_EXPANSION_SECONDS = 2.0


def log_expression(expr: sp.Expr) -> sp.Expr:
    """log of a raw pdf as a sum, with log k! as loggamma(k + 1), and 1 + erf(w) as erfc(−w)
    (:func:`~rdpsym.foundations.balls.stable_erf`): a skew-normal law's 1 + erf(√2·x) is 0 at any working precision
    once x < −30, and its log −∞, where erfc(√2·|x|) is a small number with a finite log."""
    return _log_expression(stable_erf(expr))


@functools.lru_cache(maxsize=512)
def _log_expression(expr: sp.Expr) -> sp.Expr:
    # A positive constant factor's log is kept whole, one number rounded once (expand_logs guards SymPy's forced
    # expansion, which never returns on log(−1/log(3/5))).  Only of a product: of a sum, as_independent(as_Mul=True)
    # splits the terms as if they were factors (log(2x/7 + 6/7) came out as log(6/7) + log(2x/7), a wrong ball).
    if isinstance(expr, sp.Piecewise):
        # branch by branch: the log of a whole Piecewise was no expansion at all, and log(pdf(t)) then evaluated 3^k
        # and k! at the series' far k (a zero-inflated Poisson pmf, Piecewise at k = 0: 60 s to no answer; a probe)
        return sp.Piecewise(*((-sp.oo if e == 0 else _log_expression(e), c) for e, c in expr.args))
    if expr.free_symbols and expr.is_Mul:
        constant, rest = expr.as_independent(*expr.free_symbols, as_Mul=True)
        if constant != 1 and constant.is_positive:
            return sp.log(constant) + _log_expression(rest)
    return expand_logs(sp.log(expr)).replace(
        lambda e: isinstance(e, sp.log) and isinstance(e.args[0], sp.factorial),
        lambda e: sp.loggamma(e.args[0].args[0] + 1),
    ).replace(
        # (log Γ(k) as loggamma: mpmath's Γ of an integer k is (k − 1)! exactly, 70 % of a Yule–Simon sum's time)
        lambda e: isinstance(e, sp.log) and isinstance(e.args[0], sp.gamma),
        lambda e: sp.loggamma(e.args[0].args[0]),
    ).replace(
        lambda e: isinstance(e, sp.log) and isinstance(e.args[0], sp.beta) and len(e.args[0].args) == 2,
        lambda e: sp.loggamma(e.args[0].args[0]) + sp.loggamma(e.args[0].args[1]) - sp.loggamma(sum(e.args[0].args)),
    ).replace(
        lambda e: isinstance(e, sp.log) and isinstance(e.args[0], sp.besseli),
        lambda e: _log_bessel_i(e.args[0]),
    ).replace(
        lambda e: isinstance(e, sp.log) and isinstance(e.args[0], sp.binomial),
        lambda e: sp.loggamma(e.args[0].args[0] + 1) - sp.loggamma(e.args[0].args[1] + 1)
        - sp.loggamma(e.args[0].args[0] - e.args[0].args[1] + 1),
    ).replace(
        lambda e: isinstance(e, sp.log) and half_angle(e.args[0]) is not None,
        lambda e: _log_half_angle(*half_angle(e.args[0])),
    )


def half_angle(e: sp.Expr) -> tuple[sp.Expr, sp.Expr, bool] | None:
    """(k, u, plus) where ``e`` is k·(1 + cos u) (``plus``) or k·(1 − cos u), k a positive number; else None.
    k·(1 ± sin v) is read as k·(1 ± cos(v − π/2)).

    Such a factor vanishes where cos u = ∓1, and evaluated there as written it cancels to 0 before it does: a raised
    cosine (1 + cos πx)/2 at a node 10⁻³⁰ from −1 was exactly 0 at 50 digits, its log −∞, and the KL of a
    semicircle against it was refused; the uniform law against (1 + sin 3x)/(2π) on (−π, π) did not settle at any
    order (probes).  As 2k·cos²(u/2) or 2k·sin²(u/2) it keeps every digit."""
    if not isinstance(e, sp.Add) or len(e.args) != 2:
        return None
    constant, term = sorted(e.args, key=lambda a: a.has(sp.cos, sp.sin))
    k, trig = term.as_coeff_Mul()
    if not isinstance(trig, (sp.cos, sp.sin)) or not constant.is_number or not constant.is_positive:
        return None
    u = trig.args[0] if isinstance(trig, sp.cos) else trig.args[0] - sp.pi / 2
    if k == constant:
        return constant, u, True
    if k == -constant:
        return constant, u, False
    return None


def _log_half_angle(k: sp.Expr, u: sp.Expr, plus: bool) -> sp.Expr:
    """log(k·(1 ± cos u)) = log 2k + 2·log|cos(u/2)| (+) or log 2k + 2·log|sin(u/2)| (−)."""
    return sp.log(2 * k) + 2 * sp.log(sp.Abs((sp.cos if plus else sp.sin)(u / 2)))


def _log_bessel_i(bessel: sp.besseli) -> sp.Expr:
    """log I_ν(z) = ν·log(z/2) − log Γ(ν + 1) + log ₀F₁(; ν + 1; z²/4) (DLMF 10.25.2, ν ≥ 0, z > 0; an integer
    order n read as |n|: I_{−n} = I_n, DLMF 10.27.1); log I_ν(z) as it is for any other ν or z.

    A series scanned out to k = 2⁴⁰⁹⁶ (a Skellam pmf, e^{−2μ}I_{|k|}(2μ)) asks for I_k at huge orders, where
    mpmath's besseli raises z/2 to the power k exactly (0.33 s at k = 2⁴⁰⁹⁶: 14 s of a Skellam moment); the
    hypergeometric factor is 1 + O(z²/ν) there and costs microseconds.  Checked against log(pdf) at the probe
    points like every fast logarithm (:func:`~rdpsym.quadrature.compile.fast_log`)."""
    nu, z = bessel.args
    if not z.is_positive or not (nu.is_nonnegative or nu.is_integer):
        return sp.log(bessel)
    nu = nu if nu.is_nonnegative else sp.Abs(nu)
    return nu * sp.log(z / 2) - sp.loggamma(nu + 1) + sp.log(sp.hyper((), (nu + 1,), z**2 / 4))


@functools.lru_cache(maxsize=512)
def log_ratio_expression(p_expr: sp.Expr, q_expr: sp.Expr, var: sp.Symbol) -> sp.Expr | None:
    """log p − log q expanded as one sum (a common polynomial factor of two polynomial branches cancelled first), or
    None where it holds ∞ or NaN; the difference as it is where expanding would make it more than 4× longer."""
    if p_expr.is_polynomial(var) and q_expr.is_polynomial(var) and not (p_expr.has(sp.Float) or q_expr.has(sp.Float)):
        # Two polynomial pieces that vanish together (a trapezoid against a triangle at their common end:
        # (16/3)(1 − x) against 4(1 − x)) have their common factor cancelled exactly: computed apart, 16/3 − 16x/3
        # at x = 1 was a rounding residue beside Q = 0, and D_∞ read +∞ where it is log(4/3) (a probe).
        ratio = sp.cancel(p_expr / q_expr)
        if ratio.is_number or sp.count_ops(ratio) < sp.count_ops(p_expr / q_expr):
            p_expr, q_expr = sp.fraction(ratio)
    difference = log_expression(p_expr) - log_expression(q_expr)
    if difference.has(sp.zoo, sp.nan, sp.S.ComplexInfinity):
        return None
    try:
        expanded = sp.expand(difference, log=False)
    except (TypeError, ValueError, NotImplementedError, RecursionError):
        return None
    return expanded if sp.count_ops(expanded) <= 4 * sp.count_ops(difference) + 20 else difference


@settled_cache(maxsize=512)
def combined_log_expression(p_expr: sp.Expr, q_expr: sp.Expr, var: sp.Symbol, order: sp.Expr) -> sp.Expr | None:
    """α·log p + (1 − α)·log q expanded as one sum (α an exact number), so that terms the two logarithms share cancel
    exactly; None where SymPy cannot write it within a time budget, or it is no smaller than the two apart.

    Far in a tail the two terms cancel past any working precision: Laplace(1) against Q ∝ (1 + x²)·e^(−2|x|) at α = 2
    is −2|x| − 2·log 2 against −2|x| + log(1 + x²) + log(2/3), and at x = 10⁴⁰⁰⁰ their sum, −log(1 + x²) + log(3/8),
    is 13 000 bits below either; expanded, the |x| terms are gone.

    >>> x = sp.Symbol("x", real=True)
    >>> combined_log_expression(sp.exp(-sp.Abs(x)) / 2, 2 * (1 + x**2) * sp.exp(-2 * sp.Abs(x)) / 3, x, sp.Integer(2))
    -log(2*x**2 + 2) - 2*log(2) + log(3)
    """
    if not (order.is_Rational and order != 1):
        return None
    found = None
    budget = time_budget(LOG_EXPANSION_SECONDS, "a combined log-integrand", absorb=True)
    with sympy_evalf_guard(), budget:
        try:
            apart = [sp.expand(k * log_expression(e), log=False) for k, e in ((order, p_expr), (1 - order, q_expr))]
            combined = _collected(apart[0] + apart[1], var)
            if not combined.has(sp.zoo, sp.nan, sp.S.ComplexInfinity, sp.Piecewise) \
                    and len(sp.Add.make_args(combined)) < sum(len(sp.Add.make_args(e)) for e in apart):
                found = combined
        except (TypeError, ValueError, NotImplementedError, RecursionError):
            return None
    if budget.spent and found is None:
        raise Unsettled(None)  # out of time: not remembered
    return found


def _collected(expr: sp.Expr, var: sp.Symbol) -> sp.Expr:
    """``expr`` with its terms in the same function of ``var`` summed into one, whatever their constant factors: SymPy's
    sum merges 2·e^(−x) with −2·e^(−x) but keeps 2·e^(−10⁻¹⁰⁰)·e^(−x) apart, and Gumbel laws at order 2 whose locations
    differ by log 2 − 10⁻¹⁰⁰ left the two terms to cancel numerically where e^(−x) is 10⁴⁰⁰⁰ (+∞ for 228.87; a
    review).  Summed, the coefficient 2·e^(−10⁻¹⁰⁰) − 2 is a constant, evaluated once to the working precision."""
    groups: dict = {}
    for term in sp.Add.make_args(expr):
        coefficient, factor = term.as_independent(var, as_Add=False)
        groups[factor] = groups.get(factor, sp.S.Zero) + coefficient
    return sp.Add(*(coefficient * factor for factor, coefficient in groups.items()))


#: CPU seconds SymPy may take to write a logarithm moved to a centre (:func:`shifted_expression`).  Of the 287
#: recentrings the numeric-adversarial, scale-free and regression tests ask for, the slowest that SymPy wrote took
#: 0.58 s and every other one below 0.21 s; one that runs out of time is evaluated numerically instead, so this only
#: bounds the time spent before that (with 2 s, 3.5 s a hill: stretched by this machine's measured slowness).
RECENTRING_SECONDS = 1.0
#: What :func:`shifted_expression` gives where SymPy ran out of time, unlike its None (a centre where expr is
#: singular): only then may expr be evaluated numerically about the centre instead.
OUT_OF_TIME = "out of time"


@functools.lru_cache(maxsize=256)
def shifted_expression(expr: sp.Expr, var: sp.Symbol, centre: sp.Expr, relative: bool):
    """(expr(centre + u) − expr(centre), expr(centre)) expanded in u (written ``var``), or (expr(centre + u), 0)
    when not ``relative``; None where expr is not finite at the centre, :data:`OUT_OF_TIME` where SymPy could not
    write it within a time budget (see :func:`~rdpsym.quadrature.recentring.shifted_log`)."""
    found = None
    budget = time_budget(RECENTRING_SECONDS, "a recentred logarithm", absorb=True)
    with sympy_evalf_guard(), budget:
        try:
            moved = sp.expand(expr.xreplace({var: centre + var}), log=False)
            if moved.has(sp.zoo, sp.nan, sp.S.ComplexInfinity):
                return None
            if not relative:
                found = (moved, sp.S.Zero)
            else:
                constant = moved.subs(var, 0)
                if constant.is_finite is False or constant.has(sp.zoo, sp.nan):
                    return None
                found = (sp.expand(moved - constant, log=False), constant)
        except NoClosedFormError:  # a number past the size ceilings (exact_size), a call no budget could stop: as
            return OUT_OF_TIME  # out of time (normals at 10³⁰⁰ and −10²⁰⁰⁰ built (10⁶⁰⁰)^(10⁻²⁰⁰⁰); a review)
    # Out of time is remembered (not a settled_cache's Unsettled): it only sends the caller to the numeric recentring
    # (recentring._shifted_numerically), exact to the working precision, so another try could at best save evaluation
    # time, at the price of another whole budget.  Each precision and seed of one divergence tried again: a far normal
    # at −10²⁰⁰⁰ beside a Cauchy hill at 10³⁰⁰ spent 4 tries, 13.5 s of the 33 s its divergence took under load.
    return OUT_OF_TIME if budget.spent else found
