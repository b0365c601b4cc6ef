"""Log-densities next to an end, in the reflected variable t = e − x, written without cancellation.

Near an end e of a piece the quadrature integrates in t = e − x (:func:`rdpsym.quadrature.compile.log_function`),
where a density that vanishes or tends to 1 at the end is a difference of numbers that agree to more digits than
the working precision has: log(1 − t) rounds to log 1, 1 − (1 − t)² to 0, 1 + cos(π(1 − t)) to 0.  Written as
log1p, as a polynomial with its constant cancelled, as expm1 of a log1p or as a squared sine, each is a small
number computed to the working precision.
"""

from __future__ import annotations

import sympy as sp
from sympy.codegen.cfunctions import expm1, log1p


def _log1p_near_zero(expr: sp.Expr, var: sp.Symbol) -> sp.Expr:
    """log(A) written log1p(A − 1) where A → 1 as ``var`` → 0: in t = e − x, log x at the end e = 1 is
    log(1 − t), which rounds to log 1 = 0 once t is below the working precision (the KL integrand of the
    uniform law against −log x on (0, 1) met log 0 there, and e^{+∞}); and A → 0 written without its cancelling
    constant (:func:`_small`: an arcsine law's 1 − (1 − t)² is 2t − t²).

    >>> t = sp.Symbol("t", positive=True)
    >>> _log1p_near_zero(sp.log(1 + sp.cos(sp.pi * (1 - t))), t)
    log(2*sin(pi*t/2)**2)
    """
    def log_of_one_tending_to(limit):  # log(A) whose A is ``limit`` at var = 0
        def test(e):
            if not (isinstance(e, sp.log) and e.args[0].has(var)):
                return False
            try:
                return e.args[0].subs(var, 0) == limit
            except (TypeError, ValueError, ZeroDivisionError):
                return False
        return test

    def without_cancellation(e):
        small = _small(e.args[0], var)
        return e if small is None else sp.log(small, evaluate=False)

    # (log(1 − (1 − t)²) of an arcsine law at x = 1 is log 0 once t is below the working precision)
    return expr.replace(log_of_one_tending_to(1), lambda e: log1p(sp.expand(e.args[0] - 1))).replace(
        log_of_one_tending_to(0), without_cancellation)


def _small(argument: sp.Expr, var: sp.Symbol) -> sp.Expr | None:
    """``argument``, which is 0 at ``var`` = 0, as a sum of terms that are each small there; None if it has a term
    that is not one of: a polynomial; c·B^r with B a polynomial, B(0) = 1; c·cos(g) or c·sin(g) with g a polynomial
    whose value at 0 is a multiple of π.

    A polynomial is expanded (its constant terms cancel exactly).  Otherwise argument = c₀ + Σ terms, and c₀ cancels
    the terms' values at 0 (the argument's 0 there), so argument = Σ (term − its value at 0), each written small:
    c·(B^r − 1) = c·expm1(r·log1p(B − 1)) (a Kumaraswamy law's 1 − (1 − t)^{3/2}); c·(cos g − cos g₀) =
    −2c·cos g₀·sin²(h/2) and c·sin g = c·cos g₀·sin h with h = g − g₀ (the raised-cosine law's 1 + cos(πx) at x = 1,
    where it is 1 + cos(π(1 − t)) = 2·sin²(πt/2): the divergence of a semicircle law against it did not settle, and
    the integrand's power at the end was read as −1.0001 where it is −1).
    """
    if argument.is_polynomial(var):
        return sp.expand(argument)  # 2t − t²: its constant cancelled exactly
    small = []
    for term in sp.Add.make_args(argument):  # (not expanded: (1 − t)^{3/2} would become (1 − t)·√(1 − t))
        if not term.has(var):
            continue
        c, factor = term.as_independent(var, as_Add=False)
        if isinstance(factor, (sp.cos, sp.sin)):
            g = factor.args[0]
            g0 = g.subs(var, 0) if g.is_polynomial(var) else None
            if g0 is None or not (g0 / sp.pi).is_integer:
                return None
            h = sp.expand(g - g0)
            sign = sp.cos(g0)  # ±1
            small.append(-2 * c * sign * sp.sin(h / 2) ** 2 if isinstance(factor, sp.cos) else c * sign * sp.sin(h))
            continue
        base, r = factor.as_base_exp()
        if r.has(var) or not base.is_polynomial(var) or base.subs(var, 0) != 1:
            return None
        # B^r − 1: a polynomial for an integer r ≥ 0 (real where B < 0 too), else expm1
        small.append(c * (sp.expand(base**r - 1) if r.is_Integer and r >= 0 else expm1(r * log1p(sp.expand(base - 1)))))
    return sp.Add(*small)
