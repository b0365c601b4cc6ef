"""From SymPy to mpmath: fast functions of one variable, and the logarithm of a pdf.

Everything runs at the caller's working precision (``mpmath.mp.dps``, set by
``mpmath.workdps``); nothing here changes it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable

import mpmath
import sympy as sp

oo = sp.oo


def to_mpf(value: sp.Expr) -> mpmath.mpf:
    """An exact SymPy number (or ±oo) as an mpf at the working precision."""
    if value is oo or value is -oo:
        return mpmath.inf if value is oo else -mpmath.inf
    return mpmath.mpf(sp.N(value, mpmath.mp.dps + 5)._to_mpmath(mpmath.mp.prec))


def compile_expr(expr: sp.Expr, var: sp.Symbol) -> Callable:
    """A fast mpmath function of ``var``: constants are evaluated once, at the working precision.

    Without this, the lambdified integrand rebuilds sqrt(2π), log(σ) or 1/3 at
    every quadrature node, which costs several times the integrand itself.
    The constants become numbered symbols, so pdfs that differ only in their
    parameter values share one compiled function (lambdify is the slow part).
    """
    wp = mpmath.mp.dps + 10
    values: list[mpmath.mpf] = []

    def fold(e: sp.Expr, exponent: bool = False) -> sp.Expr:
        # Integer exponents stay integers (fast powers); every other number becomes
        # an mpf, since Python's 3 ** -k with int k is a float.
        if (isinstance(e, sp.Integer) and exponent) or e is var:
            return e
        if isinstance(e, sp.Pow):
            return sp.Pow(fold(e.base), fold(e.exp, exponent=True), evaluate=False)
        if isinstance(e, sp.Expr) and not e.has(var):
            value = sp.N(e, wp)
            if not value.is_real:
                return e
            values.append(mpmath.mpf(value._to_mpmath(mpmath.mp.prec + 20)))
            return sp.Symbol(f"_c{len(values) - 1}")
        if not e.args or isinstance(e, sp.core.relational.Relational):
            return e
        return e.func(*[fold(a) if isinstance(a, sp.Expr) else a for a in e.args])

    f = _lambdify(fold(expr), var, len(values))
    return lambda t: f(t, *values)


@functools.lru_cache(maxsize=256)
def _lambdify(folded: sp.Expr, var: sp.Symbol, n: int):
    return sp.lambdify([var, *[sp.Symbol(f"_c{i}") for i in range(n)]], folded, modules="mpmath")


def log_expression(expr: sp.Expr) -> sp.Expr:
    """log of a raw pdf as a sum, with log k! as loggamma(k + 1)."""
    return sp.expand_log(sp.log(expr), force=True).replace(
        lambda e: isinstance(e, sp.log) and isinstance(e.args[0], sp.factorial),
        lambda e: sp.loggamma(e.args[0].args[0] + 1),
    ).replace(
        lambda e: isinstance(e, sp.log) and isinstance(e.args[0], sp.binomial),
        lambda e: sp.loggamma(e.args[0].args[0] + 1) - sp.loggamma(e.args[0].args[1] + 1)
        - sp.loggamma(e.args[0].args[0] - e.args[0].args[1] + 1),
    )


def fast_log(expr: sp.Expr, var: sp.Symbol, pdf: Callable, probes: Iterable[sp.Expr], discrete: bool):
    """t -> log pdf(t) compiled from the symbolic logarithm of ``expr``, or None where it cannot be trusted.

    The logarithm of a Gaussian or Laplace pdf is a polynomial (with |x − c|):
    evaluating it costs one pass, where log(pdf(t)) costs an exp and a log, and
    log k! is evaluated as loggamma(k + 1) (mpmath's factorial of a large
    integer is slow).  It is checked against the raw pdf (``pdf``, compiled from
    ``expr``) at the ``probes``, points inside every piece where the pdf is
    nonzero (integers if ``discrete``); on any disagreement, or a logarithm
    SymPy cannot write, the answer is None.
    """
    log_expr = log_expression(expr)
    if log_expr.has(sp.zoo, sp.nan, sp.S.ComplexInfinity):
        return None
    fast = compile_expr(log_expr, var)
    tol = mpmath.mpf(10) ** (-mpmath.mp.dps + 10)
    for point in probes:
        t = int(point) if discrete else to_mpf(point)
        try:
            p, fast_value = pdf(t), fast(t)
        except (ZeroDivisionError, ValueError, TypeError):
            return None
        if not isinstance(p, mpmath.mpf) or not isinstance(fast_value, mpmath.mpf) or p <= 0:
            return None
        if abs(fast_value - mpmath.log(p)) > tol * (1 + abs(fast_value)):
            return None
    return fast


def log_function(expr: sp.Expr, var: sp.Symbol, pdf: Callable, probes: Iterable[sp.Expr], discrete: bool,
                 reflect_at: sp.Expr | None = None) -> Callable:
    """t -> log pdf(t): :func:`fast_log` where it can be trusted, else log(pdf(t)) itself.

    With ``reflect_at = e`` it is t -> log pdf(e − t), substituted symbolically,
    so that log(1 − x) near x = 1 is log(t) evaluated at a small t, exactly.
    """
    fast = fast_log(expr, var, pdf, probes, discrete)
    if reflect_at is None:
        return fast if fast is not None else (lambda t: mpmath.log(pdf(t)))
    if fast is None:
        e = to_mpf(reflect_at)
        return lambda t: mpmath.log(pdf(e - t))
    flipped = log_expression(expr).xreplace({var: reflect_at - var})
    return compile_expr(flipped, var)
