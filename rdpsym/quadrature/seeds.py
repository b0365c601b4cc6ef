"""The exact seeds of the search for an integrand's mass: critical points of its log-densities, solved by SymPy.

A numeric scan can miss a narrow hill far away (a Gaussian at mean 10¹², a pair at
order 10⁹ whose integrand peaks at x = 1 − α, a mixture's far component).  So the
scan of :func:`rdpsym.quadrature.locate.locate` and the supremum of
:mod:`rdpsym.quadrature.supremum` start from the points where the log-densities,
each mixture component (:func:`mixture_components`) and the integrand's logarithm
have zero derivative (:func:`critical_seeds`): symbolic work, within a time budget,
kept apart from the numeric search that uses its results.
"""

from __future__ import annotations

import sympy as sp

from rdpsym.foundations.budget import Unsettled, settled_cache, time_budget
from rdpsym.foundations.logs import expand_logs
from rdpsym.foundations.numbers import exact_rational
from rdpsym.foundations.precision import private_context, sympy_evalf_guard
from rdpsym.quadrature.compile import log_expression, to_mpf

oo = sp.oo


@settled_cache(maxsize=1024)
def critical_seeds(p: sp.Expr, q: sp.Expr, var: sp.Symbol, order: sp.Expr | None, lo: sp.Expr, hi: sp.Expr) -> tuple:
    """Where log p, log q, each mixture component of p and q, and the integrand's logarithm
    α·log p + (1 − α)·log q (log p − log q at α = ∞) have zero derivative inside (lo, hi); and where two components of
    one mixture cross (equal), the density's log bends from one's slope to the other's there.  The KL of
    ½N(0, 1) + ½N(0, σ²) against ½N(0, 1) + ½N(0, 4σ²) at σ = 10²⁰ is a plateau 10²⁰ wide with a step at ±9.6,
    where the narrow component gives way; no derivative vanishes there, and tanh-sinh across the plateau missed
    7·10⁻⁷ of the step's share at 40 and at 60 digits alike (the same degree: the same nodes), 10⁻²⁵ of D.

    The scan of :func:`~rdpsym.quadrature.locate.locate` starts from these, so a Gaussian at mean 10¹², a pair at
    order 10⁹ (integrand peak at 1 − α) or the far component of a mixture is found
    wherever it is, and exactly.  Only derivatives that are rational in the variable
    are solved (a polynomial numerator of degree ≤ 12), and a mixture component's by
    ``solveset`` where its zeros are a few numbers (:func:`_solved`), all within a time
    budget; anything else contributes no seed (the scan still runs).  Real roots
    of rational polynomials stay exact (``CRootOf``: evaluated to any precision by
    refining their isolating interval in exact arithmetic).
    """
    def log_of(b):
        return expand_logs(sp.log(b))

    def roots(L, component=False):
        d = sp.diff(L, var)
        if not d.has(var):
            return []
        if not d.is_rational_function(var):
            return _solved(d, var) if component else []
        poly = sp.Poly(sp.numer(sp.together(d)), var)
        degree = poly.degree()
        if degree <= 0 or degree > 12:
            return []
        if degree <= 2:
            return [r for r in sp.roots(poly) if r.is_real]
        if poly.domain.is_ZZ or poly.domain.is_QQ:
            return sp.real_roots(poly)  # exact isolation, whatever the coefficients' size
        return _numeric_real_roots(poly)

    found = set()
    budget = time_budget(1.0, "critical points of the integrand", absorb=True)
    with sympy_evalf_guard(), budget:
        # The densities' logs as the compiled integrand has them, kept (log_expression): the same function
        # whatever its form, a positive constant factor's log kept whole, erf and factorials as their stable
        # forms (whose derivatives are no rational functions either way).
        logs = [log_expression(p), log_expression(q)]
        if order is not None and order != 1 and p != q:
            logs.append(logs[0] - logs[1] if order is oo else order * logs[0] + (1 - order) * logs[1])
        parts = [[log_of(t) for t in mixture_components(b, var)] for b in {p, q}]
        components = {L for logs_of_b in parts for L in logs_of_b}
        for L, component in [*((L, False) for L in logs), *((L, True) for L in components)]:
            try:
                found.update(roots(L, component))
            except (sp.PolynomialError, NotImplementedError, ValueError, TypeError, ZeroDivisionError):
                continue
        for logs_of_b in parts:
            found.update(_crossings(logs_of_b, var))
    with sympy_evalf_guard():
        placed = [(r, _rational(r)) for r in found]
        inside = [(r, v) for r, v in placed
                  if v is not None and (lo is -oo or bool(v > lo)) and (hi is oo or bool(v < hi))]
    seeds = tuple(r for r, v in sorted(inside, key=lambda rv: rv[1]))
    if budget.spent:
        raise Unsettled(seeds)  # the points found in time, not remembered
    return seeds


#: Components of a mixture up to which the points where two of them cross are seeds (pairs: quadratic in this).
_CROSSED = 6


def _crossings(logs: list, var: sp.Symbol) -> list:
    """Where two of a mixture's components (their logs ``logs``) are equal and no third is larger: the density's log
    bends there from one's slope to the other's.  Where their difference is a polynomial of degree 1 (components of
    one width), exactly; of degree 2, numerically (40 digits, each root kept as its exact binary value): exact roots
    of six Gaussian components with irrational parameters took 3.4 s, past the seeds' budget, and were lost at every
    precision (a review).

    >>> x = sp.Symbol("x", real=True)
    >>> [round(float(t), 6) for t in _crossings([-x**2 / 2, -x**2 / 8 - sp.log(2)], x)]
    [-1.359556, 1.359556]
    """
    if not 2 <= len(logs) <= _CROSSED:
        return []
    out = []
    for i, L1 in enumerate(logs):
        for L2 in logs[i + 1:]:
            try:
                poly = sp.Poly(sp.expand(L1 - L2), var)
            except (sp.PolynomialError, sp.GeneratorsNeeded):
                continue
            if not 1 <= poly.degree() <= 2 or any(c.free_symbols or c.is_real is not True for c in poly.coeffs()):
                continue  # (a component of negative weight has the log of a negative number: 1/9 − iπ, a CI run)
            # (degree 1, the crossing of two components of one width, exactly: at 40 digits the crossing of N(10⁶⁰, 1)
            # and N(10⁶⁰ + 5, 1) was 10⁶⁰ itself, and the recentring there read both components at one place)
            crossed = [-poly.nth(0) / poly.nth(1)] if poly.degree() == 1 else _numeric_real_roots(poly)
            for t in crossed:
                level = sp.N(L1.xreplace({var: t}), 20)
                others = [sp.N(L.xreplace({var: t}), 20) for L in logs if L is not L1 and L is not L2]
                if not all(v.is_extended_real for v in (level, *others)):
                    continue  # (a crossing off the piece, where a branch's x^(3/2) is complex: a TypeError, a probe)
                if all(v <= level + 1 for v in others):
                    out.append(t)
    return out


def _solved(d: sp.Expr, var: sp.Symbol) -> list:
    """The real zeros of a mixture component's log-derivative that is no rational function (a logistic's tanh, a
    Laplace's sign), by SymPy's ``solveset``, where they are a few numbers.  The components are where a
    narrow, light feature hides from every scan: a logistic of scale 10⁻⁴ in a mixture was not seen, the law
    refused as having mass 1/2 and, unchecked, its D_½ 0.7 % off (a probe).

    Solved in the variable of each affine argument a·x + b of ``d`` (:func:`_affine_arguments`: a location family's
    ``(x − μ)/s``), where the component is the same at any place and scale: in x, ``solveset`` rewrote
    exp(10²⁰ − x) as a polynomial in exp(x) of degree 10²⁰ and exhausted the memory (exp(10¹⁰·x), a logistic of scale
    10⁻¹⁰, too), so that ⅔N(0, 1) + ⅓Logistic(10²⁰, 1) was integrated without its logistic hill: D₂ log(4/3) for
    log(3/2), its KL and D_½ off by as much, every precision agreeing (a probe).  Where the zeros in an argument's
    variable are no few numbers (a skew normal's erfc term), the argument's own zero, the component's place, is the
    seed: its hill's top is found from there (:func:`~rdpsym.quadrature.scans.hill_at_seed`).  A derivative with no
    affine argument is solved in x, as it is."""
    arguments = _affine_arguments(d, var)
    if not arguments:
        return _few_real_zeros(d, var)
    found = []
    for a, b in arguments:
        u = sp.Dummy("u", real=True)
        zeros = _few_real_zeros(d.xreplace({var: (u - b) / a}), u)
        if zeros:
            found.extend((z - b) / a for z in zeros)
        else:
            found.append(-b / a)
    return found


def _few_real_zeros(d: sp.Expr, var: sp.Symbol) -> list:
    """The real zeros of ``d`` by ``solveset`` where they are at most 12 numbers; else none."""
    solved = sp.solveset(d, var, domain=sp.S.Reals)
    if not isinstance(solved, sp.FiniteSet) or len(solved) > 12:
        return []
    return [r for r in solved if not r.free_symbols and r.is_real]


def _affine_arguments(d: sp.Expr, var: sp.Symbol) -> list[tuple[sp.Expr, sp.Expr]]:
    """(a, b), a > 0, for each argument of a function or base of a power in ``d`` that is a·x + b with real numbers
    a ≠ 0 and b, one per line a·x + b = 0 (an argument and its negative, or a multiple, are one).

    >>> x = sp.Symbol("x", real=True)
    >>> _affine_arguments(-1 + 2 * sp.exp(10 - x) / (sp.exp(10 - x) + 1), x)
    [(1, -10)]
    """
    found: dict = {}
    for node in sp.preorder_traversal(d):
        if not (isinstance(node, sp.Function) or node.is_Pow):
            continue
        for arg in node.args:
            if not (isinstance(arg, sp.Expr) and arg.has(var)):
                continue
            try:
                poly = sp.Poly(arg, var)
            except sp.PolynomialError:
                continue
            if poly.degree() != 1:
                continue
            a, b = poly.nth(1), poly.nth(0)
            if not (a.is_extended_real and b.is_extended_real and a.is_zero is False and a.is_number and b.is_number):
                continue
            a, b = (a, b) if a.is_positive else (-a, -b)
            found.setdefault(-b / a, (a, b))
    return list(found.values())


def mixture_components(b: sp.Expr, var: sp.Symbol) -> list[sp.Expr]:
    """The terms of a density written as a sum (a mixture's weighted components) that depend on ``var``;
    [] for a density that is not a sum."""
    if b.is_Mul and not any(f.is_Add or f.is_Pow and f.base.is_Add for f in b.args):
        return []  # a product with no sum among its factors is one term (expand only reads it: 4 ms with an Abs)
    terms = sp.Add.make_args(sp.expand(b, deep=False, mul=True, power_exp=False, log=False))
    return [t for t in terms if t.has(var)] if len(terms) > 1 else []


def _rational(r: sp.Expr) -> sp.Rational | None:
    """A 30-digit rational approximation of a real root (exact arithmetic: no global precision involved)."""
    if r.is_Rational:
        return r
    if isinstance(r, sp.CRootOf):
        return r.eval_rational(n=30)
    with private_context(40) as ctx:
        try:
            v = to_mpf(r, ctx)
        except (TypeError, ValueError):
            return None
        if not ctx.isfinite(v):
            return None
        return exact_rational(v)


def _numeric_real_roots(poly: sp.Poly) -> list:
    """The real roots of a polynomial with irrational coefficients, by mpmath in a private context
    (SymPy's ``nroots`` sets mpmath's global precision)."""
    with private_context(40) as ctx:
        coeffs = [to_mpf(c, ctx) for c in poly.all_coeffs()]
        try:
            found = ctx.polyroots(coeffs, maxsteps=200, extraprec=60)
        except ctx.NoConvergence:
            return []
        out = []
        for r in found:
            if abs(ctx.im(r)) <= ctx.mpf(10) ** -30 * (1 + abs(r)):
                # exact (the binary value of the root found): a seed is also a centre to recentre at, and a Float
                # centre of 40 digits made (x − 10⁶⁰ − 5) − (x − 10⁶⁰) vanish there
                out.append(exact_rational(ctx.re(r)))
        return out
