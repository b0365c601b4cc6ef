"""Rényi divergences straight from the definition, at arbitrary precision.

This is the *independent* route every closed form is checked against: it
integrates (or sums) ``P^α Q^{1−α}`` numerically with mpmath, from the raw
pdfs, never from a derived formula.

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
Lengths and magnitudes are taken from the integrand itself (its mode, e-fold
width and peak), never fixed at 1, so a Gaussian of σ = 10¹⁰ or 10⁻¹⁰ is
integrated like one of σ = 1.  Modes are searched for wherever they are: from
the critical points of the log-densities and of the integrand, and on a scan
extended outward while the integrand still rises, so a Gaussian pair at mean
10¹², one at order α = 10⁹ (peak at x = 1 − α) or a mixture's far component
is not missed.  Quadrature splits at every non-smooth point, at each mode,
at the valleys between modes and where each mode's mass ends.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass

import mpmath
import sympy as sp

from rdpsym.foundations.budget import can_budget, time_budget
from rdpsym.foundations.reading import parse_order, value_for
from rdpsym.laws.densities import (
    Density,
    Discrete,
    align_pair,
    as_table,
    common_refinement,
    probe_points,
)
from rdpsym.foundations.errors import ConvergenceError, DomainError, ParameterError, SymbolicTimeout, must

oo = sp.oo


def parse_values(values: Mapping | None, densities: tuple[Density, ...]) -> dict:
    """Map ``{Symbol or name: number}`` onto the densities' parameter symbols."""
    if not values:
        return {}
    by_name = {}
    for d in densities:
        for s in d.parameters:
            by_name[s.name] = s
    out = {}
    for key, value in values.items():
        name = key.name if isinstance(key, sp.Symbol) else str(key)
        if name not in by_name:
            known = ", ".join(sorted(by_name)) or "none"
            raise ParameterError(must("values", f"keyed by the parameters ({known})", repr(name)))
        out[by_name[name]] = value_for(by_name[name], value)
    return out


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
    >>> renyi_divergence_mp(P, Q, 3, dps=30, values={s: 2})
    mpf('0.375')
    """
    if not isinstance(dps, int) or dps < 5:
        raise ParameterError(must("dps", "an integer >= 5", dps))
    order = numeric_order(order)
    P, Q, _ = align_pair(P, Q)
    subs = parse_values(values, (P, Q))
    P, Q = (P.subs(subs), Q.subs(subs)) if subs else (P, Q)
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

    if _same_law(P, Q):
        return mpmath.mpf(0)  # D_α(P‖P) = 0 at every order, exactly
    # A small value is a difference of large ones: log(I) with I = 1 + 10⁻¹⁷ at σ = 10¹⁰
    # (or Σ P·log(P/Q) with terms of both signs) keeps only wp − 17 significant digits.
    # Add the digits the first value shows are lost, until they are covered. A value that
    # is 0, or at the rounding noise, is total cancellation, not a zero divergence (P ≠ Q
    # here): it asks for about twice the precision. Never beyond ``ceiling`` digits.
    wp = dps + guard
    ceiling = _MAX_PRECISION_FACTOR * (dps + guard)
    first = _at_precision(P, Q, order, wp)
    for _ in range(_MAX_RAISES):
        if not mpmath.isfinite(first):
            break
        small = size(first) if first != 0 else mpmath.mpf(10) ** -wp
        if small >= mpmath.mpf(10) ** -_SLACK:
            break
        if small <= mpmath.mpf(10) ** (guard - wp) and _same_law(P, Q, symbolic=True):
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
        first = _at_precision(P, Q, order, wp)
    # Two precisions 20 digits apart must agree to dps significant digits. If they agree
    # to fewer, the digits they lack were lost to something precision can buy (a peak
    # 10⁻⁵ wide at x = 10⁹ keeps only wp − 14 digits of its nodes): retry once with
    # those digits added, within the ceiling.
    second = _at_precision(P, Q, order, wp + 20)
    for retry in (True, False):
        value = _agreed(first, second, dps)
        if value is not None:
            break
        lacking = _lacking_digits(first, second, dps)
        if not retry or lacking is None or wp + 20 + lacking > ceiling:
            raise ConvergenceError(
                f"D_{order} did not settle: {mpmath.nstr(first, 20)} at {wp} digits vs "
                f"{mpmath.nstr(second, 20)} at {wp + 20} digits"
            )
        if lacking <= 10:
            wp, first = wp + 20, second
        else:
            wp = wp + 20 + lacking
            first = _at_precision(P, Q, order, wp)
        second = _at_precision(P, Q, order, wp + 20)
    # D_α ≥ 0 (Mironov Prop 8): a negative value that both precisions agree on is a
    # quadrature that missed part of the integrand the same way twice.
    if value < 0:
        raise ConvergenceError(
            f"D_{order} came out negative ({mpmath.nstr(first, 20)} at {wp} digits, "
            f"{mpmath.nstr(second, 20)} at {wp + 20}), but a Rényi divergence is >= 0 "
            "(Mironov Prop 8): the integration missed part of the integrand"
        )
    return value


def _agreed(first, second, dps: int):
    """second rounded to dps digits if first agrees with it to dps significant digits, else None.

    Relative agreement only, with no absolute floor (2.5·10⁻¹⁹ must agree to dps digits
    too), and never at 0: a 0 is total cancellation (P = Q is decided before, exactly).
    """
    with mpmath.workdps(dps):
        if mpmath.isinf(first) and mpmath.isinf(second) and first == second:
            return +second
        if not (mpmath.isfinite(first) and mpmath.isfinite(second)) or second == 0:
            return None
        if first == second or abs(first - second) <= mpmath.mpf(10) ** (-dps) * abs(second):
            return +second
    return None


def _lacking_digits(first, second, dps: int):
    """How many of dps significant digits two finite, nonzero values fail to share (None: no estimate)."""
    if not (mpmath.isfinite(first) and mpmath.isfinite(second)) or first == 0 or second == 0:
        return None
    with mpmath.workdps(20):
        shared = -mpmath.log10(abs(first - second) / abs(second))
    return max(1, dps - int(shared)) + 5


#: Rounds of raising the precision for a value whose digits cancel (see renyi_divergence_mp).
_MAX_RAISES = 4
#: Digits of cancellation the fixed guard digits already cover.
_SLACK = 5
#: The working precision never exceeds this many times dps + guard.
_MAX_PRECISION_FACTOR = 4


def _same_law(P: Density, Q: Density, symbolic: bool = False) -> bool:
    """Whether P and Q are the same distribution, decided exactly (never numerically).

    The same table (outcomes of probability 0 aside), or the same expression on the
    same support; with ``symbolic``, also branches whose difference simplifies to 0
    on every piece (within a time budget; undecided is False).
    """
    tables = align_pair(P, Q)[2]
    if tables is not None:
        tp, tq = ({k: sp.S(v) for k, v in t.items() if sp.S(v) != 0} for t in tables)
        return tp.keys() == tq.keys() and all(tp[k] == tq[k] or (tp[k] - tq[k]).is_zero is True for k in tp)
    if isinstance(P, Discrete) != isinstance(Q, Discrete) or P.support != Q.support:
        return False
    if P.expr == Q.expr:
        return True
    if not symbolic:
        return False
    if not can_budget():
        return False
    try:
        with time_budget(2.0, "whether P and Q are the same law"):
            return all(_same_branch(pair.p, pair.q) for pair in common_refinement(P, Q))
    except (SymbolicTimeout, NotImplementedError, TypeError, ValueError):
        return False


@functools.lru_cache(maxsize=256)
def _same_branch(p: sp.Expr, q: sp.Expr) -> bool:
    """Whether two branches are one expression (asked again each time the value cancels)."""
    return p == q or sp.simplify(p - q) == 0


def total_mass_mp(density: Density, dps: int = 30) -> mpmath.mpf:
    """∫ pdf or Σ pmf of a density without parameters (used to check normalisation)."""
    with mpmath.workdps(dps + 10):
        if isinstance(density, Discrete) and as_table(density) is not None:
            return mpmath.fsum(mpmath.mpf(sp.N(v, dps + 10)) for v in as_table(density).values())
        f = _numeric_function(density)
        return _integrate_pieces(density, density, f, dps + 10, order=sp.S.One)


def _numeric_function(density: Density):
    return _compile(density.expr, density.var)


def _compile(expr: sp.Expr, var: sp.Symbol):
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


def _log_expression(density: Density) -> sp.Expr:
    """log of the raw pdf as a sum, with log k! as loggamma(k + 1)."""
    return sp.expand_log(sp.log(density.expr), force=True).replace(
        lambda e: isinstance(e, sp.log) and isinstance(e.args[0], sp.factorial),
        lambda e: sp.loggamma(e.args[0].args[0] + 1),
    ).replace(
        lambda e: isinstance(e, sp.log) and isinstance(e.args[0], sp.binomial),
        lambda e: sp.loggamma(e.args[0].args[0] + 1) - sp.loggamma(e.args[0].args[1] + 1)
        - sp.loggamma(e.args[0].args[0] - e.args[0].args[1] + 1),
    )


def _log_function(density: Density, pdf, reflect_at: sp.Expr | None = None):
    """t -> log pdf(t), from the symbolic logarithm of the raw pdf.

    The logarithm of a Gaussian or Laplace pdf is a polynomial (with |x − c|):
    evaluating it costs one pass, where log(pdf(t)) costs an exp and a log, and
    log k! is evaluated as loggamma(k + 1) (mpmath's factorial of a large
    integer is slow).  It is checked against the raw pdf at probe points
    inside the support; on any disagreement the raw pdf's logarithm is used.

    With ``reflect_at = e`` it is t -> log pdf(e − t), substituted symbolically,
    so that log(1 − x) near x = 1 is log(t) evaluated at a small t, exactly.
    """
    if reflect_at is not None:
        direct = _log_function(density, pdf)
        if getattr(direct, "is_raw", False):
            e = _mpf(reflect_at)
            return lambda t: direct(e - t)
        flipped = _log_expression(density).xreplace({density.var: reflect_at - density.var})
        return _compile(flipped, density.var)
    raw = lambda t: mpmath.log(pdf(t))  # noqa: E731
    raw.is_raw = True
    log_expr = _log_expression(density)
    if log_expr.has(sp.zoo, sp.nan, sp.S.ComplexInfinity):
        return raw
    fast = _compile(log_expr, density.var)
    tol = mpmath.mpf(10) ** (-mpmath.mp.dps + 10)
    for piece in density.pieces():
        if piece.is_zero:
            continue
        for point in probe_points(piece, density.discrete):
            t = int(point) if density.discrete else _mpf(point)
            try:
                p, fast_value = pdf(t), fast(t)
            except (ZeroDivisionError, ValueError, TypeError):
                return raw
            if not isinstance(p, mpmath.mpf) or not isinstance(fast_value, mpmath.mpf) or p <= 0:
                return raw
            if abs(fast_value - mpmath.log(p)) > tol * (1 + abs(fast_value)):
                return raw
    return fast


def _at_precision(P: Density, Q: Density, order: sp.Expr, wp: int) -> mpmath.mpf:
    with mpmath.workdps(wp):
        a = _mpf(order)
        tables = align_pair(P, Q)[2]
        if tables is not None:
            return _table_divergence(*tables, a)
        fP, fQ = _numeric_function(P), _numeric_function(Q)
        lP, lQ = _log_function(P, fP), _log_function(Q, fQ)
        if a == mpmath.inf:
            return _sup_log_ratio(P, Q, lP, lQ)

        def integrand_at(reflect_at=None):
            """The integrand in t, or in t = e − x when reflected at e."""
            lp_, lq_ = (lP, lQ) if reflect_at is None else (
                _log_function(P, fP, reflect_at), _log_function(Q, fQ, reflect_at))
            if a == 1:
                def integrand(t):
                    lp = lp_(t)
                    return mpmath.exp(lp) * (lp - lq_(t))
            else:
                def integrand(t):
                    return mpmath.exp(a * lp_(t) + (1 - a) * lq_(t))
            return integrand

        integrand = integrand_at()
        integrand.reflected = integrand_at
        value = _integrate_pieces(P, Q, integrand, wp, check_support=a >= 1, order=order)
        if a == 1:
            return value
        if value == mpmath.inf:
            return mpmath.inf
        return mpmath.log(value) / (a - 1)


def _table_divergence(tp: dict, tq: dict, a) -> mpmath.mpf:
    keys = list(dict.fromkeys([*tp, *tq]))
    p = {k: _mpf(sp.S(tp.get(k, 0))) for k in keys}
    q = {k: _mpf(sp.S(tq.get(k, 0))) for k in keys}
    if a >= 1 and any(p[k] > 0 and q[k] == 0 for k in keys):
        return mpmath.inf
    if a == mpmath.inf:
        return max(mpmath.log(p[k] / q[k]) for k in keys if p[k] > 0)
    if a == 1:
        return mpmath.fsum(p[k] * mpmath.log(p[k] / q[k]) for k in keys if p[k] > 0)
    total = mpmath.fsum(mpmath.power(p[k], a) * mpmath.power(q[k], 1 - a) for k in keys if p[k] > 0 and q[k] > 0)
    return mpmath.log(total) / (a - 1)


def _integrate_pieces(P: Density, Q: Density, integrand, wp: int, check_support: bool = False,
                      order: sp.Expr | None = None):
    total = mpmath.mpf(0)
    discrete = isinstance(P, Discrete)
    for pair in common_refinement(P, Q):
        lo, hi, bp, bq = pair.lo, pair.hi, pair.p, pair.q
        if bp == 0:
            continue
        if bq == 0:
            if check_support:
                return mpmath.inf
            continue
        if discrete:
            total += _sum_range(integrand, lo, hi)
            continue
        if check_support and _diverges_exactly(bp, bq, P.var, order, lo, hi):
            return mpmath.inf
        seeds = _critical_seeds(bp, bq, P.var, order, lo, hi)
        where = _locate(_log_abs(integrand), lo, hi, [_mpf(t) for t in seeds])
        if check_support and _diverges(integrand, lo, hi, where):
            return mpmath.inf
        if where.rising is not None:
            raise ConvergenceError(
                f"the integrand still grows at x = {mpmath.nstr(where.rising, 8)}, "
                "the farthest point scanned: where its mass lies could not be found"
            )
        if where.singular is not None:
            lo, hi, tails = _algebraic_tails(integrand, lo, hi, where)
            make = getattr(integrand, "reflected", None)
            reflected = make(hi) if (make and not where.singular.low) else None
            total += tails + _quad_peak_at_end(integrand, lo, hi, where, reflected)
            continue
        # mpmath's quadrature stops on an *absolute* error estimate (about 2^−prec), so
        # an integral of 10^−20 or of e^(10^23) would get too few or too many digits:
        # integrate f / (peak·width), whose integral is of order one, and scale back.
        size = where.size
        f = integrand if size == 1 else (lambda t, f=integrand, inv=1 / size: f(t) * inv)
        lo, hi, tails = _algebraic_tails(f, lo, hi, where)
        total += size * (tails + mpmath.quad(f, _split_points(where, lo, hi)))
    return total


@functools.lru_cache(maxsize=1024)
def _critical_seeds(p: sp.Expr, q: sp.Expr, var: sp.Symbol, order: sp.Expr | None, lo: sp.Expr, hi: sp.Expr) -> tuple:
    """Where log p, log q, each mixture component of p and q, and the integrand's logarithm
    α·log p + (1 − α)·log q (log p − log q at α = ∞) have zero derivative inside (lo, hi).

    The scan of :func:`_locate` starts from these, so a Gaussian at mean 10¹², a pair at
    order 10⁹ (integrand peak at 1 − α) or the far component of a mixture is found
    wherever it is, and exactly.  Only derivatives that are rational in the variable
    are solved (a polynomial numerator of degree ≤ 12; nothing open-ended), within a
    time budget; anything else contributes no seed (the scan still runs).
    """
    def log_of(b):
        return sp.expand_log(sp.log(b), force=True)

    def components(b):
        terms = sp.Add.make_args(sp.expand(b, deep=False, mul=True, power_exp=False, log=False))
        return [t for t in terms if t.has(var)] if len(terms) > 1 else []

    def roots(L):
        d = sp.diff(L, var)
        if not d.has(var) or not d.is_rational_function(var):
            return []
        poly = sp.Poly(sp.numer(sp.together(d)), var)
        degree = poly.degree()
        if degree <= 0 or degree > 12:
            return []
        if degree <= 2:
            return [r for r in sp.roots(poly) if r.is_real]
        if poly.domain.is_ZZ or poly.domain.is_QQ:
            return sp.real_roots(poly)  # exact isolation, whatever the coefficients' size
        try:
            return [r for r in poly.nroots(n=30, maxsteps=200) if r.is_real]
        except mpmath.mp.NoConvergence:
            return []

    if not can_budget():
        return ()
    found = set()
    try:
        with time_budget(1.0, "critical points of the integrand"):
            logs = [log_of(p), log_of(q)]
            if order is not None and order != 1 and p != q:
                logs.append(logs[0] - logs[1] if order is oo else order * logs[0] + (1 - order) * logs[1])
            logs += [log_of(t) for t in {*components(p), *components(q)}]
            for L in logs:
                try:
                    found.update(roots(L))
                except (sp.PolynomialError, NotImplementedError, ValueError, TypeError, ZeroDivisionError):
                    continue
    except SymbolicTimeout:
        pass
    inside = [r for r in found if (lo is -oo or bool(r > lo)) and (hi is oo or bool(r < hi))]
    return tuple(sorted(inside, key=lambda r: sp.N(r, 30)))


@functools.lru_cache(maxsize=1024)
def _diverges_exactly(p: sp.Expr, q: sp.Expr, var: sp.Symbol, order: sp.Expr | None, lo: sp.Expr, hi: sp.Expr) -> bool:
    """Whether ∫ p^α q^(1−α) over (lo, hi) is +∞ by its logarithm, a polynomial in the
    variable that does not tend to −∞ toward an infinite end (False when undecided).

    Exact where numbers cannot be: N(1, 2²) vs N(0, 1) at α = 4/3 has a log-integrand
    whose x² coefficient −α/8 + (α − 1)/2 is exactly 0, so it grows like x/3; at any
    finite precision the rounded coefficient is ±10^−wp, and a scan far enough out
    would see a false maximum (at 10²² with 20 digits) instead of the divergence.
    """
    if order is None or order == 1 or order is oo or (lo is not -oo and hi is not oo):
        return False
    try:
        L = sp.expand(order * sp.expand_log(sp.log(p), force=True) + (1 - order) * sp.expand_log(sp.log(q), force=True))
        poly = sp.Poly(L, var)
        if any(c.has(var) for c in poly.coeffs()):
            return False
        for end, sign in ((hi, 1), (lo, -1)):
            if end not in (oo, -oo):
                continue
            for k in range(poly.degree(), 0, -1):
                c = poly.coeff_monomial(var**k)
                if c.is_zero is None:
                    return False
                if c.is_zero:
                    continue
                toward = c * sign**k
                if toward.is_positive:
                    return True  # log f → +∞
                if toward.is_negative:
                    break  # log f → −∞ on this side
                return False
            else:
                return True  # log f constant: a nonzero constant integrand on an infinite piece
    except (sp.PolynomialError, sp.GeneratorsNeeded, NotImplementedError, TypeError, ValueError):
        return False
    return False


def _log_abs(f):
    """t -> log|f(t)| (−∞ where f vanishes or cannot be evaluated)."""
    def log_f(t):
        try:
            v = f(t)
            return mpmath.log(abs(v)) if v != 0 else -mpmath.inf
        except (ZeroDivisionError, ValueError, OverflowError, TypeError):
            return -mpmath.inf
    return log_f


@dataclass(frozen=True)
class _PeakAtEnd:
    """The integrand peaks, singular (like |t − e|^c with c < 0), at a finite end e."""

    low: bool  # the singular end is the piece's lower end


@dataclass(frozen=True)
class _Locus:
    """Where a piece's integrand holds its mass, in the integrand's own units of length.

    Every probe distance below is taken from here rather than fixed at 1, 10⁷
    or 10⁻¹²: a Gaussian of σ = 10¹⁰ is flat on [−10⁸, 10⁸] and one of
    σ = 10⁻¹⁰ is negligible 10⁻⁸ away from its peak.
    """

    mode: object  # where |f| peaks (an mpf), or None if it vanishes at every scan point
    peak: object  # log|f| at the mode
    left: object  # where |f| has fallen below 10^−(wp+5) of its peak, left of the mode (None: not in the piece)
    right: object
    scale: object  # how far log|f| takes to fall by 1 from the mode (an e-fold width)
    lengths: tuple  # (near lo, near hi): the length scale for probing at a finite end
    at_end: bool  # the mode is at a finite end of the piece
    singular: object  # a _PeakAtEnd when |f| grows without bound toward that end, else None
    others: tuple = ()  # extra split points: the other modes of |f| holding mass above 10^−(wp+5)
    #                     of the peak, the valleys between modes, and where each mode's mass ends
    rising: object = None  # the farthest point scanned, if |f| still grew there (mass not located)

    def far(self, sign: int):
        """The length the integrand's tail toward ``sign`` is probed in (at 10⁷, 10⁸ of it).

        The e-fold width, except at a singular end: there log|f| falls by 1 within
        10⁻¹⁵ of the end (|t|^−½), so the tail is probed from where the mass ends
        on that side, or failing that (a power-law tail) from 1 + |mode|.
        """
        if self.singular is None:
            return self.scale
        end = self.right if sign > 0 else self.left
        return abs(end - self.mode) if end is not None else 1 + abs(self.mode)

    @property
    def size(self):
        """peak × width: the order of magnitude of the piece's integral (1 if unknown)."""
        if self.mode is None or not mpmath.isfinite(self.peak):
            return mpmath.mpf(1)
        return mpmath.exp(self.peak) * self.scale


def _locate(log_f, lo: sp.Expr, hi: sp.Expr, seeds=()) -> _Locus:
    """The modes, e-fold width and negligible ends of exp(log_f) on the piece (lo, hi).

    The modes are bracketed on a coarse scan (at 20 digits) and refined by golden
    section with log_f at the working precision: at σ = 10⁻¹⁰ the terms of
    α·log P + (1 − α)·log Q are ~10²⁵ while the peak is 10⁻¹⁰ wide, so 20 digits
    would misplace it by hundreds of widths.  The scan is a geometric grid (around
    0, or from a finite end) plus the ``seeds`` (critical points of the log-densities
    and of the integrand, :func:`_critical_seeds`), and is extended outward while
    log_f still rises at its farthest point: a Gaussian pair at mean 10⁹, or at
    order 10⁹ (whose integrand peaks at x = 1 − α), lies beyond any fixed grid.
    Every hill of the scan separated from the others by a valley is refined; those
    holding non-negligible mass become split points.  Distances are found by
    bisection on a binary exponent (:func:`_reach`), which costs the same at any scale.
    """
    a, b = _mpf(lo), _mpf(hi)
    with mpmath.workdps(20):
        grid = _scan_points(a, b)
        candidates = sorted({*grid, *(t for t in seeds if a < t < b)})
        values = [log_f(t) for t in candidates]
    # Beyond the grid the terms of log_f grow like t²: extend at the working precision.
    candidates, values, rising = _extend_scan(log_f, candidates, values, a, b)
    best = max(range(len(candidates)), key=lambda i: values[i])
    if values[best] == -mpmath.inf:
        ends = (1 + abs(a) if mpmath.isfinite(a) else None, 1 + abs(b) if mpmath.isfinite(b) else None)
        return _Locus(None, -mpmath.inf, None, None, mpmath.mpf(1), ends, False, None)
    hills = []  # (mode, peak) of every hill of the scan, refined
    for i in _hills(values):
        left_c = candidates[i - 1] if i > 0 else a
        right_c = candidates[i + 1] if i + 1 < len(candidates) else b
        t = _golden_max(log_f, left_c, right_c, candidates[i], digits=15)
        h, h_scan = log_f(t), log_f(candidates[i])
        if not mpmath.isfinite(h) or h_scan >= h:  # e.g. a singular end, or an exact seed
            t, h = candidates[i], (h_scan if mpmath.isfinite(h_scan) else values[i])
        hills.append((t, h))
    mode, peak = max(hills, key=lambda m: m[1])
    drop = peak - (mpmath.mp.dps + 5) * mpmath.log(10)
    others = [m for m, h in hills if m != mode and h > drop]
    efold = [abs(t - mode) for t in (_reach(log_f, mode, -1, a, peak - 1), _reach(log_f, mode, 1, b, peak - 1))
             if t is not None]
    sharper = _sharpen(log_f, mode, peak, a, b, min(efold, default=None))
    if sharper is not None:
        mode, peak = sharper
        drop = peak - (mpmath.mp.dps + 5) * mpmath.log(10)
        efold = [abs(t - mode) for t in (_reach(log_f, mode, -1, a, peak - 1), _reach(log_f, mode, 1, b, peak - 1))
                 if t is not None]
    # Where the mass ends on each side of each mode; a mode's search stops at its
    # neighbours, so the main mode's ends are those of the outermost modes.
    modes = sorted([mode, *others])
    splits = set(others)
    # ... and the valley between two modes: a mixture's integrand switches component
    # there, with complex poles close to the real axis, which tanh-sinh across the
    # valley resolves only to ~40 of 51 digits while its error estimate says 53.
    for m1, m2 in zip(modes, modes[1:]):
        splits.add(_golden_max(lambda t: -log_f(t), m1, m2, (m1 + m2) / 2, digits=12))
    for i, m in enumerate(modes):
        lo_m = _reach(log_f, m, -1, modes[i - 1] if i > 0 else a, drop)
        hi_m = _reach(log_f, m, 1, modes[i + 1] if i + 1 < len(modes) else b, drop)
        if i == 0:
            left = lo_m
        elif lo_m is not None:
            splits.add(lo_m)
        if i == len(modes) - 1:
            right = hi_m
        elif hi_m is not None:
            splits.add(hi_m)
    if efold:
        scale = max(efold)
    else:
        scale = (b - a) / 2 if mpmath.isfinite(b - a) else 1 + abs(mode)
    extent = [abs(t - mode) for t in (left, right) if t is not None]

    def length(e):
        # Probes at a finite end e sit at 10^−j of this: no farther than the mass reaches,
        # nor than the piece does (a piece 5·10⁻⁶ long at x = 10¹² is probed inside it).
        if not mpmath.isfinite(e):
            return None
        L = min(1 + abs(e), abs(e - mode) + max(extent)) if extent else 1 + abs(e)
        return min(L, b - a) if mpmath.isfinite(b - a) else L

    lengths = (length(a), length(b))
    at_end = any(L is not None and abs(mode - e) <= mpmath.mpf(10) ** -8 * L for e, L in zip((a, b), lengths))
    # A singular end (|f| ~ |t − e|^c, c < 0) rises by the same amount per decade as t
    # nears e; a smooth steep one rises by 10⁴ times less from 10⁻¹² to 10⁻¹⁶ than from
    # 10⁻⁸ to 10⁻¹² of the end's length.  Checked at every finite end, not only where the
    # scan put the mode: with a lobe of the other sign (P·log(P/Q)) or a scale below the
    # scan's first point (10⁻⁶), the mode found may not be the singular end.
    singular, rise = None, None
    for e, inward, L in ((a, 1, lengths[0]), (b, -1, lengths[1])):
        if L is None:
            continue
        h8, h12, h16 = (log_f(e + inward * mpmath.mpf(10) ** -j * L) for j in (8, 12, 16))
        d1, d2 = h12 - h8, h16 - h12
        if not (mpmath.isfinite(d1) and mpmath.isfinite(d2)):
            continue
        if d1 > mpmath.mpf(10) ** -3 and d2 > mpmath.mpf(10) ** -3 and d1 / 2 < d2 < 2 * d1:
            here = abs(mode - e) <= mpmath.mpf(10) ** -8 * L
            if singular is None or here or h16 > rise:
                singular, rise = _PeakAtEnd(low=inward > 0), (mpmath.inf if here else h16)
    return _Locus(mode, peak, left, right, scale, lengths, at_end, singular, tuple(sorted(splits)), rising)


#: Decades the scan of an unbounded piece may be extended by while log_f still rises.
_MAX_EXTENSION = 300
#: Hills of a scan refined at most (the highest first).
_MAX_HILLS = 8


def _extend_scan(log_f, pts: list, values: list, a, b):
    """Extend the scan of an unbounded piece outward, a decade at a time, while log_f rises.

    Returns the points, their values and, if log_f still rose at the farthest point
    after :data:`_MAX_EXTENSION` decades, that point (else None).
    """
    rising = None
    for end, sign in ((b, 1), (a, -1)):
        if mpmath.isfinite(end) or len(pts) < 2:
            continue
        base = a if sign > 0 and mpmath.isfinite(a) else (b if sign < 0 and mpmath.isfinite(b) else mpmath.mpf(0))
        outer, inner = (-1, -2) if sign > 0 else (0, 1)
        for _ in range(_MAX_EXTENSION):
            if not (mpmath.isfinite(values[outer]) and values[outer] > values[inner]):
                break
            t = base + (pts[outer] - base) * 10
            if sign * (t - pts[outer]) <= 0:  # the farthest point is on the other side of base
                t = pts[outer] + sign * (1 + abs(pts[outer]))
            v = log_f(t)
            if sign > 0:
                pts.append(t)
                values.append(v)
            else:
                pts.insert(0, t)
                values.insert(0, v)
        if mpmath.isfinite(values[outer]) and values[outer] > values[inner]:
            rising = pts[outer]
    return pts, values, rising


def _hills(values: list) -> list:
    """Indices of the scan's hills: local maxima separated by a valley deeper than one e-fold.

    Adjacent local maxima with no real valley between them (rounding noise on a flat
    scan) are one hill, represented by the higher.  The global best is always one;
    at most :data:`_MAX_HILLS` are returned, the highest first.
    """
    n = len(values)

    def at(i):
        return values[i] if 0 <= i < n else -mpmath.inf

    peaks = [i for i in range(n) if mpmath.isfinite(values[i]) and values[i] >= at(i - 1) and values[i] >= at(i + 1)]
    hills: list[int] = []
    for i in peaks:
        if hills:
            j = hills[-1]
            valley = min(values[j + 1:i], default=min(values[j], values[i]))
            depth = 1 + mpmath.mpf(10) ** -15 * max(abs(values[i]), abs(values[j]))
            if valley > min(values[i], values[j]) - depth:
                if values[i] > values[j]:
                    hills[-1] = i
                continue
        hills.append(i)
    return sorted(hills, key=lambda i: values[i], reverse=True)[:_MAX_HILLS]


def _sharpen(log_f, mode, peak, a, b, width):
    """A better (mode, peak) when 15 relative digits left the mode over 10⁻⁶ e-folds off, else None.

    Golden section stops at 10⁻¹⁵·(1 + |mode|); a peak of width 10⁻⁴ at 10¹² (or
    10⁻¹⁰ at 10³) needs more digits than that to be placed within its width.
    """
    if width is None or width == 0 or not mpmath.isfinite(peak):
        return None
    unit = 1 + abs(mode)
    placed = mpmath.mpf(10) ** -15 * unit
    if placed <= mpmath.mpf(10) ** -6 * width:
        return None
    digits = min(mpmath.mp.dps - 5, int(mpmath.log10(unit / width)) + 8)
    if digits <= 15:
        return None
    span = 4 * (placed + width)
    t = _golden_max(log_f, max(a, mode - span), min(b, mode + span), mode, digits=digits)
    h = log_f(t)
    return (t, h) if mpmath.isfinite(h) and h > peak else None


def _reach(log_f, mode, direction: int, end, level):
    """A point mode ± d where log_f < level (d within a factor 2 of the first such
    distance), or None if the piece ends first.

    Bisection on k in d = 2^k·(1 + |mode|), over every k the working precision can
    resolve: about 2·log2(prec) evaluations at any scale (the doubling search it
    replaces started at 2^−10 and overshot narrow peaks at once).
    """
    unit = 1 + abs(mode)
    bits = mpmath.mp.prec

    def point(k):
        return mode + direction * mpmath.ldexp(unit, k)

    def below(k):
        t = point(k)
        if (direction > 0 and t >= end) or (direction < 0 and t <= end):
            return True
        return log_f(t) < level

    low, high = -bits, bits
    if not below(high):
        return None
    while high - low > 1:
        mid = (low + high) // 2
        if below(mid):
            high = mid
        else:
            low = mid
    t = point(high)
    if (direction > 0 and t >= end) or (direction < 0 and t <= end):
        return None
    return t


def _split_points(where: _Locus, lo: sp.Expr, hi: sp.Expr) -> list:
    """[lo, ..., hi] with the mode of the integrand and the ends of its mass inserted.

    Splitting where |f| has fallen below 10^−(dps+5) of its peak leaves tanh-sinh
    a finite interval holding all the mass and tails that converge at the first
    levels, whatever the scale of the densities.
    """
    a, b = _mpf(lo), _mpf(hi)
    if where.mode is None:
        return [a, b]
    inner = (where.left, None if where.at_end else where.mode, where.right, *where.others)
    return [a, *sorted({t for t in inner if t is not None and a < t < b}), b]


def _algebraic_tails(f, lo: sp.Expr, hi: sp.Expr, where: _Locus):
    """Integrate power-law tails by substitution; return the remaining finite piece.

    Tanh-sinh stalls near 17 digits on tails like x^(−3) (shared/notes,
    numerics.md).  Where f decays like |x|^c (−60 < c < −1) toward an infinite
    end, the tail beyond R = B ± D, D = s·10^j (B the other end, or the mode;
    s the power of ten nearest :meth:`_Locus.far`; j the first decade where f
    is below 10^−6 of its size at B ± s) is ∫_0^1 f(B ± D/u²)·2D/u³ du, whose
    integrand behaves like u^(−2c−3): smooth.
    """
    tails = mpmath.mpf(0)
    for end, sign in ((hi, 1), (lo, -1)):
        if end not in (oo, -oo) or _power_exponent(f, sign, where) is None:
            continue
        other = lo if sign > 0 else hi
        unit = sp.Integer(10) ** int(mpmath.nint(mpmath.log10(where.far(sign))))
        if other in (oo, -oo):
            base = sp.Integer(int(mpmath.nint(where.mode / _mpf(unit)))) * unit if where.mode is not None else sp.S.Zero
        else:
            base = other
        B, s = _mpf(base), _mpf(unit)
        with mpmath.workdps(20):
            start = abs(f(B + sign * s))
            j = next((j for j in range(1, 30) if abs(f(B + sign * s * mpmath.mpf(10) ** j)) < start * mpmath.mpf(10) ** -6), 30)
        D = unit * sp.Integer(10) ** j
        beyond = [sign * (t - B) for t in where.others if sign * (t - B) > 0]
        while beyond and _mpf(D) <= max(beyond):  # the other modes stay in the finite part
            D *= 10
        Dm = _mpf(D)
        tails += mpmath.quad(lambda u: f(B + sign * Dm / u**2) * 2 * Dm / u**3 if u else mpmath.mpf(0), [0, 1])
        if sign > 0:
            hi = base + D
        else:
            lo = base - D
    return lo, hi, tails


def _power_exponent(f, sign: int, where: _Locus):
    """c when f behaves like |t − mode|^c far out (−60 < c < −1), else None.

    Read at 10⁷ and 10⁸ times :meth:`_Locus.far` from the mode.
    """
    base = where.mode if where.mode is not None else mpmath.mpf(0)
    with mpmath.workdps(30):
        try:
            v1, v2 = (abs(f(base + sign * where.far(sign) * mpmath.mpf(10) ** j)) for j in (7, 8))
        except (ZeroDivisionError, ValueError, OverflowError):
            return None
        if not (isinstance(v1, mpmath.mpf) and isinstance(v2, mpmath.mpf)) or v1 == 0 or v2 == 0:
            return None
        c = mpmath.log(v2 / v1) / mpmath.log(10)
    return c if -60 < c < -1 else None


def _diverges(f, lo: sp.Expr, hi: sp.Expr, where: _Locus) -> bool:
    """Whether ∫ f over (lo, hi) is +∞ by the integrand's power law at an end.

    Toward an infinite end, f ~ t^c is integrable iff c < −1; toward a finite
    end e, f ~ |t − e|^c is integrable iff c > −1.  The exponent c is read
    from f at 10⁷ and 10⁸ times :meth:`_Locus.far` from the mode (or at distances 10⁻¹²
    and 10⁻¹⁶ of the end's length scale from e).  A divergent integral has no
    settled quadrature value, so without this test "∞" could only be inferred
    from a failure to converge.
    """
    def log_abs(t):
        try:
            v = f(t)
        except (ZeroDivisionError, ValueError, OverflowError):
            return None
        return mpmath.log(abs(v)) if isinstance(v, mpmath.mpf) and v != 0 else None

    with mpmath.workdps(max(30, mpmath.mp.dps)):
        for end, sign, length in ((lo, -1, where.lengths[0]), (hi, 1, where.lengths[1])):
            if end in (oo, -oo):
                base = where.mode if where.mode is not None else mpmath.mpf(0)
                d1, d2 = (where.far(sign) * mpmath.mpf(10) ** j for j in (7, 8))
                t1, t2 = base + sign * d1, base + sign * d2
            else:
                base = _mpf(end)
                d1, d2 = (mpmath.mpf(10) ** -j * length for j in (12, 16))
                t1, t2 = base - sign * d1, base - sign * d2
            l1, l2 = log_abs(t1), log_abs(t2)
            if l1 is None or l2 is None:
                continue
            exponent = (l2 - l1) / (mpmath.log(d2) - mpmath.log(d1))
            if (end in (oo, -oo) and exponent >= -1) or (end not in (oo, -oo) and exponent <= -1):
                return True
    return False


def _quad_peak_at_end(f, lo: sp.Expr, hi: sp.Expr, where: _Locus, reflected=None):
    """Quadrature when the integrand is singular, like |t − e|^c with −1 < c < 0, at an end e.

    Tanh-sinh nodes next to an end are stored as mpf's close to ±1, so their
    distance to the end carries only the working precision in absolute terms,
    and the result keeps about (1 + c)·dps digits.  Substituting
    t = e ± u^m with m = ⌈1/(1 + c)⌉ makes the integrand f(e ± u^m)·m·u^(m−1)
    bounded near u = 0, where those node errors then cost nothing.  At an
    upper end the integrand is used ``reflected`` (as a function of e − t,
    substituted symbolically), since 1 − (1 − u^m) would lose u^m.
    """
    at_low_end = where.singular.low
    a = _mpf(lo)
    b = _mpf(hi)
    e, other, sign = (a, b, 1) if at_low_end else (b, a, -1)
    length = where.lengths[0 if at_low_end else 1] or 1 + abs(e)
    if at_low_end:
        g = lambda y: f(e + y)  # noqa: E731
    else:
        g = reflected if reflected is not None else (lambda y: f(e - y))  # g(y) = f(e − y)
    with mpmath.workdps(30):
        near = [mpmath.log(abs(g(mpmath.mpf(10) ** -j * length))) for j in (12, 16)]
        c = (near[1] - near[0]) / (-4 * mpmath.log(10))
    m = int(min(1000, max(1, mpmath.ceil(1 / (1 + c))))) if c > -1 else 1
    width = length if not mpmath.isfinite(other) else abs(other - e) / 2
    near_part = mpmath.quad(lambda u: g(u**m) * m * u ** (m - 1), [0, mpmath.root(width, m)])
    far_end = e + sign * width
    lo_far, hi_far = (far_end, other) if sign > 0 else (other, far_end)
    # The rest still gets the split points: the mass may peak far from the singular end.
    inner = {t for t in (where.left, None if where.at_end else where.mode, where.right, *where.others)
             if t is not None and lo_far < t < hi_far}
    far_part = mpmath.quad(f, [lo_far, *sorted(inner), hi_far])
    return near_part + far_part


def _mpf(value: sp.Expr) -> mpmath.mpf:
    """An exact SymPy number (or ±oo) as an mpf at the working precision."""
    if value is oo or value is -oo:
        return mpmath.inf if value is oo else -mpmath.inf
    return mpmath.mpf(sp.N(value, mpmath.mp.dps + 5)._to_mpmath(mpmath.mp.prec))


#: Terms a discrete piece may take before its sum is declared divergent or slow.
MAX_TERMS = 20_000


def _sum_range(term, lo: sp.Expr, hi: sp.Expr):
    """Σ term(k) for lo ≤ k ≤ hi, summed directly outward; +∞ if the terms do not decay.

    mpmath's ``nsum`` extrapolates, and extrapolation assigns finite values to
    divergent series (Σ 2^k "=" −1): a Rényi moment must never get one.  The
    terms of the pmfs rdpsym meets decay geometrically or faster, so direct
    summation to 10^−(dps+10) of the partial sum converges in few terms.
    """
    if lo is not -oo and hi is not oo:
        n = int(hi) - int(lo) + 1
        if n <= MAX_TERMS:
            return mpmath.fsum(term(k) for k in range(int(lo), int(hi) + 1))
    if lo is -oo and hi is oo:
        return _sum_range(term, -oo, sp.S(-1)) + _sum_range(term, sp.S.Zero, oo)
    start, step = (int(lo), 1) if lo is not -oo else (int(hi), -1)
    far = None if (hi is oo or lo is -oo) else int(hi)  # the other end, if finite
    # Find the largest term on a doubling scan, so a pmf whose mass sits at
    # k ≈ 30000 (a Poisson pair) is summed from its mode, not given up on.
    offsets = [2**j - 1 for j in range(63) if far is None or start + (2**j - 1) <= far]
    sizes = [abs(term(start + step * d)) for d in offsets]
    peak = max(range(len(sizes)), key=lambda i: sizes[i])
    if far is None and peak == len(sizes) - 1:
        return mpmath.inf  # still growing at k ~ 2^62: the terms do not tend to 0
    mode = start + step * offsets[peak]
    total = term(mode)
    total += _sum_direction(term, mode + step, step, far if far is not None else None, total)
    total += _sum_direction(term, mode - step, -step, start, total)
    return total


def _sum_direction(term, k0: int, step: int, end: int | None, scale):
    """Σ term(k) from k0 in direction ``step`` until ``end`` or until the terms are negligible."""
    eps = mpmath.mpf(10) ** (-mpmath.mp.dps - 10)
    total, small_run, previous = mpmath.mpf(0), 0, None
    for i in range(MAX_TERMS):
        k = k0 + step * i
        if end is not None and (k - end) * step > 0:
            return total
        t = term(k)
        total += t
        size = abs(t)  # KL terms P·log(P/Q) may be negative
        if size <= eps * (abs(total) + abs(scale)) and (previous is None or size <= previous):
            small_run += 1
            if small_run >= 20:
                return total
        else:
            small_run = 0
        previous = size
    raise ConvergenceError(f"the series did not converge within {MAX_TERMS} terms of its largest term")


def _scan_points(a, b, scale=None, center=None) -> list:
    """A scan of the piece [a, b]: 63 even steps if finite, else a geometric grid from
    the finite end (or around ``center``, default 0) spanning 10⁻⁶ … 10⁸ in units of 1
    and of ``scale``, and reaching 10⁸ times as far as ``center`` is from the finite end."""
    if mpmath.isfinite(a) and mpmath.isfinite(b):
        return [a + (b - a) * mpmath.mpf(j) / 64 for j in range(1, 64)]
    low, high = -12, 16  # exponents of sqrt(10)
    if scale is not None and scale > 0:
        decade = int(mpmath.floor(mpmath.log10(scale)))
        low, high = low + 2 * min(0, decade), high + 2 * max(0, decade)
    end = a if mpmath.isfinite(a) else b
    if center is not None and mpmath.isfinite(end) and abs(center - end) > 1:
        high = max(high, 2 * int(mpmath.ceil(mpmath.log10(abs(center - end)))) + 16)
    grid = [mpmath.mpf(10) ** (e / mpmath.mpf(2)) for e in range(low, high + 1)]
    if a == -mpmath.inf and b == mpmath.inf:
        c = center if center is not None else mpmath.mpf(0)
        return [c - g for g in reversed(grid)] + [c] + [c + g for g in grid]
    if b == mpmath.inf:
        return [a + g for g in grid]
    return [b - g for g in reversed(grid)]


def _golden_max(h, left, right, start, digits: int | None = None):
    """Golden-section search for the maximum of ``h`` on [left, right].

    Near a smooth maximum h(t* + d) = h* − c·d², so the value is good to the
    working precision once the bracket is below 10^(−dps/2): iterate that far
    (or to 10^(−digits) relative, when only the place of the maximum is wanted).
    """
    if left in (-mpmath.inf, mpmath.inf) or right in (-mpmath.inf, mpmath.inf):
        return start
    invphi = (mpmath.sqrt(5) - 1) / 2
    width = right - left
    if width <= 0:
        return start
    digits = mpmath.mp.dps // 2 + 5 if digits is None else digits
    target = mpmath.mpf(10) ** (-digits) * (1 + abs(start))
    steps = int(mpmath.log(width / target) / mpmath.log(1 / invphi)) + 2 if width > target else 0
    c, d = right - invphi * width, left + invphi * width
    hc, hd = h(c), h(d)
    for _ in range(steps):
        if hc > hd:
            right, d, hd = d, c, hc
            c = right - invphi * (right - left)
            hc = h(c)
        else:
            left, c, hc = c, d, hd
            d = left + invphi * (right - left)
            hd = h(d)
    return (left + right) / 2


def _sup_log_ratio(P: Density, Q: Density, lP, lQ) -> mpmath.mpf:
    """sup over the support of P of log(P/Q), by scanning and local refinement.

    On an unbounded piece the scan reaches 10⁸ e-fold widths of P (and at
    least 10⁸) around P's mode, so a log-ratio that grows like x/σ² is seen
    growing whatever σ, and a pair at mean 10⁹ is scanned where it lives; the
    critical points of log P − log Q (:func:`_critical_seeds`) are tried too.
    """
    best = -mpmath.inf
    discrete = isinstance(P, Discrete)
    for pair in common_refinement(P, Q):
        lo, hi, bp, bq = pair.lo, pair.hi, pair.p, pair.q
        if bp == 0:
            continue
        if bq == 0:
            return mpmath.inf
        def r(t):
            try:
                value = lP(t) - lQ(t)
            except (ZeroDivisionError, ValueError):
                return -mpmath.inf
            return value if isinstance(value, mpmath.mpf) else -mpmath.inf
        a = _mpf(lo)
        b = _mpf(hi)
        seeds = []
        if discrete:
            pts = _integer_scan(a, b)
        else:
            scale = center = None
            seeds = [_mpf(t) for t in _critical_seeds(bp, bq, P.var, oo, lo, hi)]
            if not (mpmath.isfinite(a) and mpmath.isfinite(b)):
                where = _locate(_guarded(lP), lo, hi, seeds)
                scale, center = where.scale, where.mode
            # Limits at finite ends (log P/Q may be 0/0 exactly there): step in by 10^(−dps−5).
            tiny = mpmath.mpf(10) ** (-mpmath.mp.dps - 5)
            pts = ([a + tiny * (1 + abs(a))] if mpmath.isfinite(a) else []) + _scan_points(a, b, scale, center) + (
                [b - tiny * (1 + abs(b))] if mpmath.isfinite(b) else [])
        values = [r(t) for t in pts]
        if _unbounded(values, pts, a, b):
            return mpmath.inf
        i = max(range(len(pts)), key=lambda j: values[j])
        candidate = values[i]
        if not discrete and 0 < i < len(pts) - 1:
            t = _golden_max(r, pts[i - 1], pts[i + 1], pts[i])
            candidate = max(candidate, r(t))
        # The seeds are exact critical points: their values need no refinement.
        candidate = max([candidate, *(r(t) for t in seeds if a < t < b)])
        best = max(best, candidate)
    return best


def _guarded(log_f):
    """log_f with evaluation errors and non-real values read as −∞."""
    def h(t):
        try:
            v = log_f(t)
        except (ZeroDivisionError, ValueError, OverflowError, TypeError):
            return -mpmath.inf
        return v if isinstance(v, mpmath.mpf) else -mpmath.inf
    return h


def _integer_scan(a, b) -> list:
    steps = sorted({int(mpmath.floor(mpmath.mpf(10) ** (e / mpmath.mpf(4)))) for e in range(0, 25)})
    if a == -mpmath.inf and b == mpmath.inf:
        return sorted({-s for s in steps} | {0} | set(steps))
    if b == mpmath.inf:
        return [int(a) + s - 1 for s in steps]
    if a == -mpmath.inf:
        return [int(b) - s + 1 for s in steps]
    n = int(b - a)
    return sorted({int(a) + j for j in range(0, n + 1, max(1, n // 200))} | {int(b)})


def _unbounded(values, pts, a, b) -> bool:
    """Whether the log-ratio grows without bound toward an infinite end of the piece.

    True when it still rises steeply at the farthest scan points, or when its
    rises between successive scan points (a factor √10 apart) grow
    geometrically, like t^c with c > 0.35: that is how x/σ² looks at σ = 10¹⁰,
    where it rises by only 10⁻² over the scan.  A slower rise (log-ratio
    0.1·log x reaches only 1.8 at x = 10⁸, with equal steps) means the scan
    cannot tell a large finite supremum from an infinite one, and that is a
    :class:`ConvergenceError`, never a finite guess.
    """
    for end, seq in ((b, values), (a, list(reversed(values)))):
        if end not in (mpmath.inf, -mpmath.inf):
            continue
        tail = seq[-6:]
        if all(y > x for x, y in zip(tail, tail[1:])):
            if tail[-1] - tail[0] > 1:
                return True
            rises = [y - x for x, y in zip(tail, tail[1:])]
            noise = mpmath.mpf(10) ** (-(mpmath.mp.dps // 2)) * (1 + abs(tail[-1]))
            if rises[0] > noise and all(s > mpmath.mpf(3) / 2 * r for r, s in zip(rises, rises[1:])):
                return True
            if seq[-1] >= max(seq):
                raise ConvergenceError(
                    "the log-ratio is still increasing at the end of the scanned range: "
                    "its supremum cannot be told from infinity numerically"
                )
    return False
