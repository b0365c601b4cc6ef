"""From SymPy to mpmath: fast functions of one variable, and the logarithm of a pdf compiled and checked.

Every function here is written against an mpmath context ``ctx`` handed in by
the caller (a private one, :func:`rdpsym.foundations.precision.private_context`)
and computes at its precision; the global ``mpmath.mp`` is never used or
changed.  SymPy expressions are lambdified once, and the compiled code is bound
to each context's own functions (``ctx.exp``, ``ctx.mpf``, ...).
"""

from __future__ import annotations

import builtins
import functools
import types
from collections.abc import Callable, Iterable

import sympy as sp
from mpmath.libmp import from_rational, round_nearest

from rdpsym.foundations.budget import time_budget
from rdpsym.foundations.erfc_forms import stable_erf
from rdpsym.foundations.errors import NoClosedFormError, SymbolicTimeout
from rdpsym.foundations.precision import MPMATH_MODULES, _context_free, sympy_float
from rdpsym.quadrature.log_expressions import (
    LOG_EXPANSION_SECONDS,
    half_angle,
    log_expression,
    log_ratio_expression,
)
from rdpsym.quadrature.reflected import _log1p_near_zero
from rdpsym.quadrature.series import sums_summed

oo = sp.oo


def to_mpf(value: object, ctx):
    """An exact SymPy number (or ±oo, or an int) as an mpf of ``ctx``, correctly rounded where it is rational.

    >>> from rdpsym.foundations.precision import private_context
    >>> with private_context(30) as ctx:
    ...     ctx.nstr(to_mpf(sp.Rational(1, 3), ctx), 30), ctx.nstr(to_mpf(sp.sqrt(2) * sp.pi, ctx), 20)
    ('0.333333333333333333333333333333', '4.442882938158366247')
    """
    if isinstance(value, int):
        return ctx.mpf(value)
    if value is oo or value is -oo:
        return ctx.inf if value is oo else ctx.ninf
    if getattr(value, "_mpf_", None) is not None and not isinstance(value, sp.Basic):
        return ctx.convert(value)
    value = sp.sympify(value, strict=True)
    if value.is_Rational:
        return ctx.make_mpf(from_rational(int(value.p), int(value.q), ctx.prec, round_nearest))
    if value.is_Float:
        return ctx.mpf(value._mpf_)
    digits = int(ctx.prec * 0.302) + 10
    if value.has(sp.CRootOf):
        # Polynomials' real roots: their isolating intervals refined in exact arithmetic (SymPy's
        # evalf of a CRootOf sets mpmath's global precision).
        value = value.xreplace({r: r.eval_rational(n=digits + 10) for r in value.atoms(sp.CRootOf) if r.is_real})
        if value.is_Rational:
            return to_mpf(value, ctx)
    f = constant_function(value, ctx)
    if f is not None:
        with ctx.extraprec(40):
            try:
                v = f()
            except (TypeError, ValueError, ZeroDivisionError, OverflowError, AttributeError, NameError):
                v = None
        if v is not None and isinstance(v, ctx.mpf):
            return +v
    number = sympy_float(value, digits)
    if not number.is_Float and value.has(sp.Sum):  # (SymPy's evalf of Σ_j e^{−200 j²} gives up: summed here)
        number = sympy_float(sums_summed(value, ctx, compile_expr), digits)
    if not (number.is_Float or number.is_Rational):  # (a Rational: log(1/Σ) with Σ = 1.0 to the last digit)
        raise TypeError(f"not a real number: {value}")
    return ctx.mpf(number._mpf_) if number.is_Float else to_mpf(number, ctx)


def constant_function(value: sp.Expr, ctx) -> Callable | None:
    """A function of no arguments computing ``value`` with ``ctx`` (None if it cannot be compiled).

    Used for numbers whose SymPy evaluation would go through mpmath's global
    context (erf, loggamma, ...); SymPy's own handlers of +, ×, powers, exp
    and log evaluate those adaptively instead.
    """
    if _context_free(value):
        return None
    try:
        code = _lambdify_constant(value)
    except (TypeError, NameError, SyntaxError, KeyError, AttributeError):
        return None
    return bind(code, ctx)


@functools.lru_cache(maxsize=512)
def _lambdify_constant(value: sp.Expr):
    return sp.lambdify([], value, modules=MPMATH_MODULES)


def bind(function: Callable, ctx) -> Callable:
    """``function`` (lambdified for ``mpmath``) with its mpmath names bound to ``ctx``'s functions."""
    cache = ctx.__dict__.setdefault("_rdpsym_bound", {})
    bound = cache.get(function)
    if bound is None:
        namespace = dict(function.__globals__)
        for name in function.__code__.co_names:
            if hasattr(ctx, name) and name not in _BUILTINS:
                namespace[name] = getattr(ctx, name)
        if "exp" in function.__code__.co_names:
            namespace["exp"] = _bounded_exp(ctx)
        if _POWER.name in function.__code__.co_names:
            namespace[_POWER.name] = _power(ctx)
        if _LOG_ERFC.name in function.__code__.co_names:
            namespace[_LOG_ERFC.name] = _log_erfc(ctx)
        if "erfc" in function.__code__.co_names:
            namespace["erfc"] = _far_erfc(ctx)
        namespace["betainc_regularized"] = lambda a, b, x1, x2: ctx.betainc(a, b, x1, x2, regularized=True)
        if _BINOMIAL.name in function.__code__.co_names:
            namespace[_BINOMIAL.name] = lambda n, k: ctx.zero if ctx.isint(k) and k < 0 else ctx.binomial(n, k)
        unknown = [name for name in function.__code__.co_names if name not in namespace and not hasattr(builtins, name)]
        if unknown:  # a function SymPy prints by its own name, unknown to mpmath: a NameError at the first node
            raise NoClosedFormError(f"{', '.join(unknown)} cannot be evaluated numerically (mpmath has no such "
                                    "function): rewrite it with functions mpmath evaluates")
        bound = types.FunctionType(function.__code__, namespace, function.__name__, function.__defaults__,
                                   function.__closure__)
        if len(cache) > 4096:
            cache.clear()
        cache[function] = bound
    return bound


_BUILTINS = {"abs", "min", "max", "int", "float", "bool", "round", "range", "len", "sum", "pow"}

#: Binary magnitude of a real argument beyond which exp is 0 (or +∞) outright.  mpmath reduces its argument
#: modulo log 2 computed to as many bits as the argument has, so exp(−10³⁰·e^t) at t = 10¹⁰⁰ (an image law's
#: far tail, read by a quadrature's scan) would need log 2 to 10¹⁰⁰ bits; e^(−2^65536) is below anything a
#: sum at any working precision can hold next to a term of ordinary size.
_EXP_MAGNITUDE = 2**16


def _bounded_exp(ctx) -> Callable:
    """``ctx.exp``, with arguments of magnitude beyond 2^:data:`_EXP_MAGNITUDE` read as ±∞ (0 or +∞), and a large
    integer argument above 600 bits reduced by log 2 here.

    mpmath takes e^n for an integer n above 600 bits as the power e·e·…·e, |n| of them by squarings at as many
    more bits as n has: e^(−5·10³⁹⁹⁹) at 1 170 bits took 0.75 s (measured), and a component N(−10²⁰⁰⁰, 1) is such a
    term at every node about 10³⁰⁰.  Here n = k·log 2 + r, |r| ≤ ½·log 2, with log 2 at n's bits more, and
    e^n = 2^k·e^r: the working precision's digits, in microseconds.

    >>> import mpmath
    >>> _bounded_exp(mpmath.mp)(-mpmath.mpf(2) ** 70000), _bounded_exp(mpmath.mp)(mpmath.mpf(2) ** 70000)
    (mpf('0.0'), mpf('+inf'))
    >>> ctx = mpmath.MPContext(); ctx.prec = 1000
    >>> n = -5 * ctx.mpf(10) ** 400
    >>> with ctx.workprec(3000):
    ...     truth = ctx.exp(n)   # (mpmath's own: below 600 bits' worth of n it reduces by log 2 itself)
    >>> abs(_bounded_exp(ctx)(n) / truth - 1) < ctx.ldexp(1, -995)
    True
    """
    exp, mag, zero, inf, mpf = ctx.exp, ctx.mag, ctx.zero, ctx.inf, ctx.mpf

    def bounded(z):
        if isinstance(z, mpf):
            size = mag(z)
            if size > _EXP_MAGNITUDE:
                return zero if z < 0 else inf
            if size > _REDUCED_MAGNITUDE and ctx.prec > 600 and z._mpf_[2] >= 0:  # (an integer: mpmath's power)
                with ctx.extraprec(size + 20):
                    k = ctx.nint(z / ctx.ln2)
                    r = z - k * ctx.ln2
                return ctx.ldexp(exp(r), int(k))
        return exp(z)
    return bounded


#: Binary magnitude of an integer argument above which :func:`_bounded_exp` reduces it by log 2 itself.
_REDUCED_MAGNITUDE = 64


#: b^e with an exponent that depends on the variable, compiled as a call of :func:`_power` (a sum's index k runs to
#: 2⁴⁰⁹⁶ on :func:`~rdpsym.quadrature.series.sum_range`'s scan, where Python's ``b ** k`` is mpmath's exact
#: binary powering at prec + 4·log₂ k bits: 0.8 s a term at k = 2⁴⁰⁹⁶, most of a mixture's KL).
_POWER = sp.Function("rdpsym_power")
#: Bits of an integer exponent beyond which b^n is computed as e^{n·log b} (below, binary powering is as fast).
_POWER_BITS = 64


#: log erfc(w), compiled by :func:`_log_erfc` (in a fast log-density: :func:`fast_log`).
_LOG_ERFC = sp.Function("rdpsym_log_erfc")
#: C(n, k), compiled as mpmath's binomial: 0 at an integer k > n ≥ 0, as SymPy's own binomial(4, 5) is, where SymPy's
#: printer writes Γ(n + 1)/(Γ(k + 1)·Γ(n − k + 1)) and Γ's pole there raised a ValueError out of rdpsym; and 0 at every
#: integer k < 0, as SymPy's is (mpmath's C(−3, −5) is the limit 6).
_BINOMIAL = sp.Function("rdpsym_binomial")


def _log_erfc(ctx) -> Callable:
    """w -> log erfc(w) on ``ctx``; for w past the point where e^{−w²} is below the working precision, by the
    asymptotic series log erfc(w) = −w² − log(w√π) + log Σ_k (−1)^k (2k − 1)!!/(2w²)^k (DLMF 7.12.1), summed to
    its terms' smallest, which is e^{−w²}.  Through log(erfc(w)) the scan of a skew-normal law's tail,
    2φ(x)Φ(2x), spent the definition's 60 s inside mpmath's erfc (sampled: mpf_erfc → mpf_exp) and never saw
    D₂ = ∞ (a probe); the series forms no exponential.

    >>> from rdpsym.foundations.precision import private_context
    >>> with private_context(30) as ctx:
    ...     f = _log_erfc(ctx)
    ...     ctx.almosteq(f(ctx.mpf(20)), ctx.log(ctx.erfc(20)), 10**-28), ctx.nstr(f(ctx.mpf(10) ** 64), 10)
    (True, '-1.0e+128')
    """
    log, erfc, sqrt_pi = ctx.log, ctx.erfc, ctx.sqrt(ctx.pi)

    def log_erfc(w):
        square = w * w
        if w <= 0 or square < (ctx.prec + 20) * 0.7:  # (ln 2 = 0.69…: e^{−w²} not yet below the precision)
            return log(erfc(w))
        total, term, k, eps = ctx.mpf(1), ctx.mpf(1), 1, ctx.eps
        step = 1 / (2 * square)
        while (2 * k - 1) * step < 1:  # (the terms fall until k ≈ w², and by then they are below eps)
            term *= -(2 * k - 1) * step
            if abs(term) < eps:
                break
            total += term
            k += 1
        return -square - log(w * sqrt_pi) + log(total)

    return log_erfc


def _far_erfc(ctx) -> Callable:
    """``ctx.erfc``, with an argument w past 2^:data:`_FAR_ERFC_BITS` read as e^{log erfc(w)} by :func:`_log_erfc`'s
    series (and erfc(−w) as 2 − that).  mpmath forms w² exactly there, and erfc(10³⁰⁰) took 17 ms, erfc(10¹⁰⁰⁰)
    0.28 s: a skew-normal component at 10³⁰⁰ in a mixture, read at the nodes about the other component at 0, made the
    law's mass take 30 s of CPU.  No digit is lost that the argument had: w rounded to the working precision
    already carries a relative error 2^−prec, which is an absolute error w²·2^−prec in the exponent, as here.

    >>> from rdpsym.foundations.precision import private_context
    >>> with private_context(30) as ctx:
    ...     f, w = _far_erfc(ctx), ctx.mpf(2) ** 70
    ...     ctx.almosteq(f(w), ctx.erfc(w), 10**-8), f(-w) == 2, f(ctx.mpf(3)) == ctx.erfc(3)
    (True, True, True)
    """
    erfc, mag, mpf, log_erfc, exp = ctx.erfc, ctx.mag, ctx.mpf, _log_erfc(ctx), _bounded_exp(ctx)

    def far_erfc(w):
        if type(w) is not mpf or not ctx.isfinite(w) or mag(w) <= _FAR_ERFC_BITS:
            return erfc(w)
        if w > 0:
            return exp(log_erfc(w))
        return 2 - exp(log_erfc(-w))
    return far_erfc


#: Binary magnitude of an argument beyond which :func:`_far_erfc` takes erfc's asymptotic series (erfc(2⁶⁴) is
#: e^(−3.4·10³⁸); below that, mpmath's erfc is as fast).
_FAR_ERFC_BITS = 64


def _power(ctx) -> Callable:
    """b^e on ``ctx``: ``b ** e``, except that for an integer e of more than :data:`_POWER_BITS` bits and a real
    b ≠ 0 it is ±e^{e·log|b|}, with e·log|b| computed with as many more bits as it has before the point, so
    its error is that of a rounding at the working precision (0.003 s at e = 2⁴⁰⁹⁶, where ``b ** e`` takes
    0.8 s).

    >>> import mpmath
    >>> from rdpsym.foundations.precision import private_context
    >>> with private_context(30) as ctx:
    ...     power, n = _power(ctx), 2**200 + 1
    ...     ctx.almosteq(power(ctx.mpf(-3) / 2, n), (ctx.mpf(-3) / 2) ** n, 10**-28)
    True
    """
    mpf, log, mag, extraprec, exp_limit = ctx.mpf, ctx.log, ctx.mag, ctx.extraprec, _bounded_exp(ctx)
    small = 2**_POWER_BITS

    def power(b, e):
        if type(b) is int:
            # an integer base left as a Python int (2 in 2^(−k−1) inside a Piecewise): Python's own power then ran,
            # a float for e < 0, "int too large to convert to float" at k = 1100 (a pmf with a far atom; a probe)
            b = mpf(b)
        # (the common case first, in as few operations as it takes: this runs at every term of a series)
        if type(e) is int:
            if -small < e < small:
                return b ** e
            n = e
        elif type(e) is mpf:
            _, _, exponent, bits = e._mpf_  # an integer past 2^64: exponent ≥ 0 and exponent + bits > 64
            if exponent < 0 or exponent + bits <= _POWER_BITS:  # (also ±∞ and NaN: a negative exponent)
                return b ** e
            n = int(e)
        else:
            return b ** e
        if type(b) is not mpf or b == 0 or not ctx.isfinite(b):
            return b ** e
        size = abs(b)
        with extraprec(n.bit_length() + max(mag(log(size)), 0) + 10):
            value = exp_limit(n * log(size))
        return +value if b > 0 or n % 2 == 0 else -value
    return power


def compile_expr(expr: sp.Expr, var: sp.Symbol, ctx) -> Callable:
    """A fast function of ``var`` on ``ctx``: constants are evaluated once, at the context's precision.

    Without this, the lambdified integrand rebuilds sqrt(2π), log(σ) or 1/3 at
    every quadrature node, which costs several times the integrand itself.
    The constants become numbered symbols, so pdfs that differ only in their
    parameter values share one compiled function (lambdify is the slow part).

    >>> from rdpsym.foundations.precision import private_context
    >>> x = sp.Symbol("x")
    >>> with private_context(25) as ctx:
    ...     f = compile_expr(sp.exp(-x**2 / 2) / sp.sqrt(2 * sp.pi), x, ctx)
    ...     ctx.nstr(f(ctx.mpf(1)), 20)
    '0.2419707245191433498'
    """
    # 1 + erf(w) as erfc(−w): the same numbers, without the cancellation that makes it 0 once w < −6 at 15 digits;
    # k·(1 ± cos u) as 2k·cos²(u/2) or 2k·sin²(u/2), for the same reason next to its zeros (half_angle)
    if expr.has(sp.binomial):
        expr = expr.replace(sp.binomial, _BINOMIAL)
    folded, constants = _fold(_integer_orders(_half_angles(stable_erf(expr))), var)
    f = bind(_lambdify(folded, var, len(constants)), ctx)
    with ctx.extraprec(20):
        values = [to_mpf(c, ctx) for c in constants]
    return lambda t: f(t, *values)


def _half_angles(expr: sp.Expr) -> sp.Expr:
    """``expr`` with every k·(1 ± cos u) written 2k·cos²(u/2) or 2k·sin²(u/2) (:func:`half_angle`)."""
    if not expr.has(sp.cos, sp.sin):
        return expr
    return expr.replace(lambda e: isinstance(e, sp.Add) and half_angle(e) is not None,
                        lambda e: _squared_half_angle(*half_angle(e)))


def _squared_half_angle(k: sp.Expr, u: sp.Expr, plus: bool) -> sp.Expr:
    return 2 * k * (sp.cos if plus else sp.sin)(u / 2) ** 2


def _integer_orders(expr: sp.Expr) -> sp.Expr:
    """I_n(z) written I_{|n|}(z) where the order n is an integer (DLMF 10.27.1): mpmath's besseli fails to
    converge at large negative integer orders (n = −500 at z = 3), which a sum over ℤ reaches (Skellam)."""
    return expr.replace(
        lambda e: isinstance(e, sp.besseli) and e.args[0].is_integer and e.args[0].is_nonnegative is not True,
        lambda e: sp.besseli(sp.Abs(e.args[0]), e.args[1]))


@functools.lru_cache(maxsize=512)
def _fold(expr: sp.Expr, var: sp.Symbol) -> tuple[sp.Expr, tuple]:
    """``expr`` with its real constant subexpressions replaced by numbered symbols ``_c0``, ``_c1``, ..."""
    constants: list[sp.Expr] = []

    def fold(e: sp.Expr, exponent: bool = False) -> sp.Expr:
        # Integer exponents stay integers (fast powers); every other number becomes
        # an mpf, since Python's 3 ** -k with int k is a float.
        if (isinstance(e, sp.Integer) and exponent) or e is var:
            return e
        if isinstance(e, sp.Pow):
            if e.exp.has(var):
                return _POWER(fold(e.base), fold(e.exp, exponent=True))
            return sp.Pow(fold(e.base), fold(e.exp, exponent=True), evaluate=False)
        if isinstance(e, sp.Expr) and not e.has(var):
            if e.is_extended_real is False or e.has(sp.I, sp.zoo, sp.nan):
                return e
            constants.append(e)
            return sp.Symbol(f"_c{len(constants) - 1}")
        if isinstance(e, sp.Piecewise):  # (its pairs are no Expr: left whole, 3^k of a pmf on k < 0 was Python's
            return sp.Piecewise(*((fold(v), c) for v, c in e.args), evaluate=False)  # int power, an OverflowError)
        if not e.args or isinstance(e, sp.core.relational.Relational):
            return e
        return e.func(*[fold(a) if isinstance(a, sp.Expr) else a for a in e.args])

    return fold(expr), tuple(constants)


@functools.lru_cache(maxsize=256)
def _lambdify(folded: sp.Expr, var: sp.Symbol, n: int):
    return sp.lambdify([var, *[sp.Symbol(f"_c{i}") for i in range(n)]], folded, modules=MPMATH_MODULES)


def agrees_at_probes(fast: Callable, reference: Callable, probes: Iterable, discrete: bool, ctx) -> bool:
    """Whether ``fast`` agrees with ``reference`` (both logarithms) at every probe point, to the working
    precision (less 10 digits)."""
    tol = ctx.mpf(10) ** (-ctx.dps + 10)
    for point in probes:
        t = int(point) if discrete else to_mpf(point, ctx)
        try:
            expected, value = reference(t), fast(t)
        except (ZeroDivisionError, ValueError, TypeError, OverflowError):
            return False
        if not isinstance(expected, ctx.mpf) or not isinstance(value, ctx.mpf) or not ctx.isfinite(expected):
            return False
        if abs(value - expected) > tol * (1 + abs(value)):
            return False
    return True


#: Functions whose logarithms at an index k are near k·log k, so that a pmf's ratio of them cancels (a
#: binomial is written with loggamma by :func:`log_expression`).
_GROWING_LOGS = (sp.loggamma, sp.gamma, sp.factorial, sp.beta, sp.RisingFactorial, sp.FallingFactorial)


def _has_growing_logs(log_expr: sp.Expr, var: sp.Symbol) -> bool:
    return any(g.has(var) for g in log_expr.atoms(*_GROWING_LOGS))


def _with_the_index_bits(f: Callable, ctx) -> Callable:
    """k -> f(k) evaluated with as many more bits as the integer k has, rounded back to the working precision.

    A pmf's log Γ(k) − log Γ(k + 7/2) is two numbers near k·log k that cancel to about −3.5·log k: at
    k = 10⁵⁷ each is 10⁵⁹, and at 40 digits their difference was off by 10¹⁹, so a series' scan read
    terms there as the largest (Yule–Simon laws: "terms that matter at k = 1, away from its largest one, at
    k = 1.6·10⁵⁷").  The bits lost are about the bits of k: below a quarter of the working precision they are
    left to it (a Poisson sum of 10⁴ terms near k = 10⁵ at 56 digits paid 0.8 s for 28 more bits each), and a
    value at least |k| in size did not cancel at that scale (a Poisson term's −k·log k at k = 2⁴⁰⁹⁶, read by a
    series' scan: evaluated once, at the working precision)."""
    def at(k):
        bits = abs(k).bit_length() if isinstance(k, int) else (int(ctx.mag(k)) if k else 0)
        prec = ctx.prec
        if 4 * bits <= prec:
            return f(k)
        value = f(k)
        if not ctx.isfinite(value) or abs(value) >= abs(k):
            return value
        ctx.prec = prec + bits + 10
        try:
            value = f(k)
        finally:
            ctx.prec = prec
        return +value

    return at


def fast_log(expr: sp.Expr, var: sp.Symbol, pdf: Callable, probes: Iterable[sp.Expr], discrete: bool, ctx):
    """t -> log pdf(t) compiled from the symbolic logarithm of ``expr``, or None where it cannot be trusted.

    The logarithm of a Gaussian or Laplace pdf is a polynomial (with |x − c|):
    evaluating it costs one pass, where log(pdf(t)) costs an exp and a log, and
    log k! is evaluated as loggamma(k + 1) (mpmath's factorial of a large
    integer is slow).  It is checked against the raw pdf (``pdf``, compiled from
    ``expr``) at the ``probes``, points inside every piece where the pdf is
    nonzero (integers if ``discrete``); on any disagreement, or a logarithm
    SymPy cannot write, the answer is None.
    """
    budget = time_budget(LOG_EXPANSION_SECONDS, "expanding the log-density")
    try:
        with budget:
            log_expr = log_expression(expr)
    except SymbolicTimeout:
        if not budget.spent:
            raise  # an outer budget's: it goes on to its own block
        return None  # SymPy's expand_log can run away (log of −p^k/(k·log(1 − p))): log(pdf(t)) it is
    if log_expr.has(sp.zoo, sp.nan, sp.S.ComplexInfinity):
        return None
    fast = compile_expr(log_expr.replace(  # (the log of an erfc that is tiny in a tail, without forming it)
        lambda e: isinstance(e, sp.log) and isinstance(e.args[0], sp.erfc), lambda e: _LOG_ERFC(e.args[0].args[0])),
        var, ctx)
    if discrete and _has_growing_logs(log_expr, var):
        fast = _with_the_index_bits(fast, ctx)

    def reference(t):
        p = pdf(t)
        return ctx.log(p) if isinstance(p, ctx.mpf) and p > 0 else None

    return fast if agrees_at_probes(fast, reference, probes, discrete, ctx) else None


def log_function(expr: sp.Expr, var: sp.Symbol, pdf: Callable, probes: Iterable[sp.Expr], discrete: bool, ctx,
                 reflect_at: sp.Expr | None = None, direction: int = -1) -> Callable:
    """t -> log pdf(t): :func:`fast_log` where it can be trusted, else log(pdf(t)) itself.

    With ``reflect_at = e`` it is t -> log pdf(e − t), substituted symbolically,
    so that log(1 − x) near x = 1 is log(t) evaluated at a small t, exactly; with ``direction`` +1 it is
    t -> log pdf(e + t), for a lower end e (1 + cos(πx) near x = −1 is 2·sin²(πt/2), where −1 + t rounds to −1).
    """
    fast = fast_log(expr, var, pdf, probes, discrete, ctx)
    if reflect_at is None:
        return fast if fast is not None else (lambda t: ctx.log(pdf(t)))
    if fast is None:
        # log pdf(e − t) substituted symbolically, not pdf at the rounded e − t: 12·(x − 1/2)² at x = 1/2 − t is
        # 12·t² exactly, where 1/2 − t rounds to 1/2 once t is below the working precision (log 0: the integrand
        # +∞ next to an interior zero of Q, and an integrable D_{5/4} refused).  log(1 − t)-like terms become
        # log1p (the uniform law against −log x on (0, 1): in t = 1 − x, −log x is −log1p(−t)).
        return compile_expr(_log1p_near_zero(sp.log(expr.xreplace({var: reflect_at + direction * var})), var), var,
                            ctx)
    flipped = _log1p_near_zero(log_expression(expr).xreplace({var: reflect_at + direction * var}), var)
    return compile_expr(flipped, var, ctx)


def log_ratio_function(p_expr: sp.Expr, q_expr: sp.Expr, var: sp.Symbol, log_p: Callable, log_q: Callable,
                       probes: Iterable[sp.Expr], discrete: bool, ctx) -> Callable:
    """t -> log(p(t)/q(t)), compiled from the *expanded* difference of the symbolic logarithms where it can be
    trusted, else log_p(t) − log_q(t).

    The difference of two Gaussian log-densities of σ = 10³⁰⁰ is (1 − 2x)/(2σ²):
    expanded symbolically its x² terms cancel exactly, where numerically
    x²/(2σ²) − (x − 1)²/(2σ²) at x ≈ σ loses all 300 digits the ratio has.
    Checked against log_p − log_q at the ``probes``.
    """
    fallback = (lambda t: log_p(t) - log_q(t))
    difference = log_ratio_expression(p_expr, q_expr, var)
    if difference is None:
        return fallback
    fast = compile_expr(difference, var, ctx)
    if not agrees_at_probes(fast, fallback, probes, discrete, ctx):
        return fallback
    if discrete and _has_growing_logs(difference, var):
        # log Γ(k + 3/2) − log Γ(k + 1) − log(k + 1/4) cancels at a huge k as a log-pmf does: read with the index's
        # bits, and its size not taken as exact (a pmf's supremum scanned out to k = 10⁴⁰ read +9.9·10⁻³² for
        # −2.5·10⁻⁴¹ and returned it as D_∞ at one working precision)
        return _with_the_index_bits(fast, ctx)
    fast.expanded = True  # computed to the working precision relative to its own size
    return fast
