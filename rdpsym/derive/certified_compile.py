"""SymPy expressions compiled into Arb's ``acb`` arithmetic, for the certified quadrature.

:mod:`rdpsym.derive.certified` integrates e^L (and P·log(P/Q) at α = 1) with
``acb.integral``, which asks for the integrand on complex balls and, with its
``analytic`` flag, for a refusal (a non-finite ball) wherever the function is not
holomorphic.  Here an expression free in one variable becomes such a function
(:func:`_compile`), a log-integrand e^L with its integer powers of log terms taken
out as powers (:func:`_exp_of`), and the integrand of a piece (:func:`_integrand`).
Separate from the integration because it knows SymPy's heads and Arb's functions,
not supports, tails or digits.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import sympy as sp
from flint import acb, arb

from rdpsym.foundations.balls import to_arb
from rdpsym.foundations.errors import NotCertifiable

_NaN = acb(arb("nan"))

#: A compiled expression: f(z, analytic) -> acb (see :func:`_compile`).
Compiled = Callable[[acb, bool], acb]


def _integrand(kind: tuple, x: sp.Symbol, powers: bool = True) -> Compiled:
    """The integrand in acb arithmetic: e^L (``("exp", L)``) or e^{lp}·(lp − lq) (``("KL", lp, lq)``); ``powers``
    as for :func:`_exp_of`."""
    if kind[0] == "exp":
        return _exp_of(kind[1], x, powers)
    _, lp, lq = kind
    # (log x terms of one power cancel in lp − lq, and so do the quadratics of a Gaussian mixture against its
    # component once its log is factored)
    density, ratio = _exp_of(lp, x, powers), _compile(_factored_logs(sp.expand(lp - lq), x), x)
    return lambda z, analytic: density(z, analytic) * ratio(z, analytic)


def exponential_terms(S: sp.Expr, x: sp.Symbol) -> list[tuple[sp.Expr, sp.Poly]] | None:
    """[(a_i, h_i)] with S = Σ a_i·e^{h_i(x)}, each a_i a number certified positive and each h_i a polynomial in x
    with real numeric coefficients (a mixture's density: Gaussians, or 1 − q + q·e^{(2x − 1)/(2σ²)}), at least two
    terms; None for any other S.

    >>> x = sp.Symbol("x", real=True)
    >>> exponential_terms(3 * sp.exp(-x**2) + sp.exp(2 * x) / 2, x)
    [(1/2, Poly(2*x, x, domain='ZZ')), (3, Poly(-x**2, x, domain='ZZ'))]
    >>> exponential_terms(sp.exp(-x**2) - sp.exp(x), x) is None    # (a negative weight)
    True
    >>> exponential_terms(sp.exp(x**2 + sp.I * x) + 1, x) is None  # (a complex exponent)
    True
    """
    if not S.is_Add:
        return None
    terms = []
    for term in S.args:
        a, rest = term.as_independent(x, as_Add=False)
        h = sp.S.Zero
        for factor in sp.Mul.make_args(rest):
            if isinstance(factor, sp.exp):
                h += factor.args[0]
            elif factor is not sp.S.One:
                return None
        try:
            h = sp.Poly(sp.expand(h), x)
        except sp.PolynomialError:
            return None
        # (real exponents: e^{x² + ix} would make h_k + log Σ differ from the principal log by 2πik on the line)
        if not a.is_number or not all(v.is_number and v.is_extended_real for v in h.all_coeffs()) \
                or not to_arb(a) > 0:
            return None
        terms.append((a, h))
    return terms


def dominant_term(terms: list[tuple[sp.Expr, sp.Poly]]) -> int | None:
    """The index of the term of :func:`exponential_terms` that dominates as x → ∞ (the largest h_i, compared by
    the sign of their differences' leading coefficients, certified in balls), or None where a sign is undecided."""
    best = 0
    for i, (_, h) in enumerate(terms[1:], 1):
        d = h - terms[best][1]
        if d.is_zero:
            continue
        lead = to_arb(d.LC())
        if lead > 0:
            best = i
        elif not lead < 0:
            return None
    return best


@functools.lru_cache(maxsize=256)
def _factored_logs(L: sp.Expr, x: sp.Symbol) -> sp.Expr:
    """L with each log of a sum of exponentials, log Σ a_i·e^{h_i} (:func:`exponential_terms`), written as
    h_k + log Σ a_i·e^{h_i − h_k}, k its dominant term: the same function, equal on the real line and holomorphic
    where the other is.

    Arb evaluates the integrand on complex balls around the real line.  There e^{h_i} of a quadratic h_i spins
    through phases as fast as x·Im z grows, and the sum's ball held 0 (so its log had no bound) unless the ball
    was narrow: a sampled Gaussian's mixture against its component took 25 000–35 000 evaluations at 50 digits.
    Factored, the differences h_i − h_k of equal-variance components are linear, and the same integrals take
    900–4 300 evaluations.

    >>> x = sp.Symbol("x", real=True)
    >>> _factored_logs(2 * sp.log(sp.exp(-x**2 / 2) + 3 * sp.exp(-(x - 1)**2 / 2)) - x, x)
    -x**2 + x + 2*log(exp(1/2 - x) + 3) - 1
    """
    swaps = {}
    for g in L.atoms(sp.log):
        terms = exponential_terms(g.args[0], x)
        k = None if terms is None else dominant_term(terms)
        if k is None:
            continue
        h_k = terms[k][1]
        # (the weights stay inside: log a_k written out had SymPy's log.eval simplify a product of radicals and π,
        # a quarter of a sampled Gaussian's certified check)
        swaps[g] = h_k.as_expr() + sp.log(sp.Add(*(a * sp.exp((h - h_k).as_expr()) for a, h in terms)))
    return sp.expand(L.xreplace(swaps), deep=False) if swaps else L


def _exp_of(L: sp.Expr, x: sp.Symbol, powers: bool = True) -> Compiled:
    """e^L, with each term n·log(g) (n a nonzero integer) taken out as the power g^n: holomorphic where g is,
    so x^2·e^{−x²} integrates up to its end at 0, where log x would touch the branch cut.

    With ``powers`` False everything stays in the exponent: far out (the tails integrated in u = log|x|,
    where no g vanishes) Arb bounds e^{n·log g} on a wide complex ball far better than g^n, and so
    needs far fewer evaluations (a Cauchy pair at α = 3: within 4·10⁴ evaluations, where the powers
    exceeded them)."""
    taken, rest = [], sp.S.Zero
    for term in sp.Add.make_args(_factored_logs(L, x)):
        coeff, factor = term.as_independent(x, as_Add=False)
        if powers and isinstance(factor, sp.log) and coeff.is_Integer:
            taken.append((_compile(factor.args[0], x), int(coeff)))
        else:
            rest += term
    e = _compile(rest, x)

    def f(z, analytic):
        exponent, factor = e(z, analytic), None
        for g, n in taken:
            w = g(z, analytic)
            # Where Arb's log of w is finite (w's ball clear of 0, and of the cut when ``analytic``), w^n is
            # e^{n·log w} for every w of the ball, whatever the branch (n is an integer): the term goes back
            # into the exponent, where it is added to the others' logs instead of multiplied by their
            # exponential.  A wide ball far out (1 + e^{−x} at x ≈ −300, ±0.5) has the relative radius of
            # its powers grow with n, and e^{600}·(1 + e^{−x})^{−3} was a ball containing 0; added in the
            # exponent it stays within ±1 (a logistic pair's integral in x: 40 000 evaluations and no ball,
            # now a ball).  Where w may be 0 (x at the end 0 of x²·e^{−x²}) the power is kept.
            lw = w.log(analytic=analytic)
            if lw.is_finite():
                exponent += n * lw
            else:
                power = w ** n if n > 0 else 1 / w ** (-n)
                factor = power if factor is None else factor * power
        out = exponent.exp()
        return out if factor is None else out * factor
    return f


def _compile(e: sp.Expr, x: sp.Symbol) -> Compiled:
    """``e`` (free in ``x`` only) as f(z, analytic) in ``acb`` arithmetic, for the current precision.

    With ``analytic`` set, a branch cut (log, non-integer powers, √) or a kink (|·|) that the
    ball z could touch gives a non-finite ball, as ``acb.integral`` requires.  An unsupported
    function raises :class:`~rdpsym.foundations.errors.NotCertifiable`.
    """
    if x not in e.free_symbols:
        try:
            c = acb(to_arb(e))
        except NotCertifiable:  # a constant to_arb does not know (Γ(1/3)): evaluated once, by the table below
            c = _compile_structure(e, x)(acb(0), False)
        return lambda z, analytic: c
    return _compile_structure(e, x)


def _compile_structure(e: sp.Expr, x: sp.Symbol) -> Compiled:  # noqa: C901 - one dispatch table
    """:func:`_compile` by the expression's head."""
    if e == x:
        return lambda z, analytic: z
    if e.is_Add or e.is_Mul:
        # The x-free arguments folded into one ball, once: the integrand is evaluated ~10⁴ times a piece.
        # (An x-free e comes here only when to_arb could not evaluate it whole, B(5/2, 7/3) say: then its
        # arguments one by one, or the fold would hand the same e back to _compile for ever.)
        if e.has(x):
            constant, varying = e.as_independent(x, as_Add=e.is_Add)
            parts = [_compile(a, x) for a in e.func.make_args(varying)]
            c = _compile(constant, x)(acb(0), False)
        else:
            parts = [_compile(a, x) for a in e.args]
            c = acb(0) if e.is_Add else acb(1)
        if e.is_Add:
            def add(z, analytic):
                out = c
                for g in parts:
                    out += g(z, analytic)
                return out
            return add

        def mul(z, analytic):
            out = c
            for g in parts:
                out *= g(z, analytic)
            return out
        return mul
    if e.is_Pow:
        base, ex = e.args
        g = _compile(base, x)
        if ex.is_Integer:
            n = int(ex)
            return (lambda z, analytic: g(z, analytic) ** n) if n >= 0 else \
                (lambda z, analytic: 1 / g(z, analytic) ** (-n))
        if ex == sp.S.Half:
            return lambda z, analytic: g(z, analytic).sqrt(analytic=analytic)
        if x in ex.free_symbols:
            h = _compile(ex, x)
            return lambda z, analytic: (h(z, analytic) * g(z, analytic).log(analytic=analytic)).exp()
        r = to_arb(ex)
        c = acb(r)

        def power(z, analytic):
            w = g(z, analytic)
            value = (c * w.log(analytic=analytic)).exp()
            if value.is_finite() or analytic or not r > 0:
                return value
            # w's ball holds 0, where log w is −∞: |w^r| = |w|^r ≤ (sup |w|)^r for a real r > 0 on every branch.
            # A bound of e^{rest} up to an end at 0 needs this (a Weibull law's x^{3/2} in _end_cut: without
            # it no cut, and Arb bisected towards the branch point at 0 until its 40 000 evaluations).
            bound = w.abs_upper() ** r
            return acb(arb(0, bound), arb(0, bound))
        return power
    if isinstance(e, sp.exp):
        g = _compile(e.args[0], x)
        return lambda z, analytic: g(z, analytic).exp()
    if isinstance(e, sp.log):
        g = _compile(e.args[0], x)
        return lambda z, analytic: g(z, analytic).log(analytic=analytic)
    if isinstance(e, sp.Abs):
        g = _compile(e.args[0], x)

        # Arb's real_abs: non-finite with ``analytic`` where the kink may lie in the ball.
        return lambda z, analytic: g(z, analytic).real_abs(analytic=analytic)
    entire = {sp.erf: acb.erf, sp.erfc: acb.erfc, sp.sin: acb.sin, sp.cos: acb.cos, sp.sinh: acb.sinh,
              sp.cosh: acb.cosh}
    for cls, fn in entire.items():
        if isinstance(e, cls):
            g = _compile(e.args[0], x)
            return lambda z, analytic, fn=fn, g=g: fn(g(z, analytic))
    if isinstance(e, sp.gamma):  # meromorphic: a pole in the ball gives a non-finite ball by itself
        g = _compile(e.args[0], x)
        return lambda z, analytic: g(z, analytic).gamma()
    if isinstance(e, sp.beta) and len(e.args) == 2:
        g, h = (_compile(a, x) for a in e.args)

        def beta(z, analytic):
            u, v = g(z, analytic), h(z, analytic)
            return u.gamma() * v.gamma() * (u + v).rgamma()
        return beta
    if isinstance(e, sp.loggamma):
        g = _compile(e.args[0], x)
        def loggamma(z, analytic):  # holomorphic off the cut (−∞, 0]
            w = g(z, analytic)
            return w.lgamma() if not analytic or w.real > 0 else _NaN
        return loggamma
    raise NotCertifiable(f"no certified integrand for {type(e).__name__}")
