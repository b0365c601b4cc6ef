"""Closed forms of Σ_{k=lo}^{hi} exp(L(k)) over one integer range, with conditions.

Rules:

``finite``  a numeric range of at most :data:`DIRECT_TERMS` terms: the exact sum.
``geometric``  L = B k + C:  Σ r^k e^C with r = e^B (|r| < 1 on infinite ranges).
``exponential series``  L = −log k! + B k + C on k ≥ 0:  e^C · exp(e^B)  (Poisson); on k ≥ 1, less its first term.
``binomial theorem``  L = log C(n, k) + B k + C on 0 ≤ k ≤ n:  e^C (1 + e^B)^n.
``negative binomial series``  L = log Γ(k + m) − log k! + B k + C on k ≥ 0:  e^C Γ(m) (1 − e^B)^{−m}
    (B < 0), and the same with log C(k + m − 1, k) for log Γ(k + m) − log k! − log Γ(m).
``polylogarithm``  L = −s log k + B k + C on k ≥ lo ≥ 1:  e^C Li_s(e^B) less the terms below lo, converging
    for B < 0, or B = 0 and s > 1; written −log(1 − e^B) for s = 1 (the logarithmic series) and ζ(s) for
    B = 0 (Zipf).
``theta series``  L = A k² + B k + C, A < 0, on an infinite range:  e^C Σ e^{A j² + B j}, kept as a
    canonical :class:`~rdpsym.engine.series.Series` (no elementary closed form: the discrete Gaussian).
``sympy``  anything else: ``sympy.summation`` under a time budget.
"""

from __future__ import annotations

import sympy as sp

from rdpsym.engine.context import Hypotheses
from rdpsym.engine.piece_value import PieceValue, _decided
from rdpsym.engine.series import series
from rdpsym.engine.tidy import split_logs
from rdpsym.foundations.budget import budgeted
from rdpsym.foundations.errors import NoClosedFormError

oo = sp.oo

#: A numeric range with at most this many terms is summed term by term, exactly.
DIRECT_TERMS = 400


def sum_exp(L: sp.Expr, k: sp.Symbol, lo: sp.Expr, hi: sp.Expr, hyp: Hypotheses) -> PieceValue:
    """Σ_{k=lo}^{hi} exp(L) for ``L`` expanded (``lo``/``hi`` inclusive, may be ±∞).

    >>> import sympy as sp
    >>> k = sp.Symbol("k", integer=True)
    >>> sum_exp(-k*sp.log(2), k, 1, sp.oo, Hypotheses()).value
    1
    """
    if L.has(sp.zoo, sp.nan):
        # A term 0^k (a geometric law's p(1 − p)^k at p = 1) has log 0 = zoo in its logarithm: no rule reads it, and
        # the comparisons that decide convergence raised TypeError (a probe); the sum is left to the numeric route.
        raise NoClosedFormError(f"the logarithm of the terms, {L}, is not finite")
    lo, hi = sp.S(lo), sp.S(hi)
    short = lo.is_number and hi.is_number and lo.is_finite and hi.is_finite and hi - lo < DIRECT_TERMS
    if short:
        # The binomial theorem first: Binomial(n, p₁) against Binomial(n, p₂) is (p₁^α p₂^{1−α} + …)^n,
        # not the n + 1 terms the finite sum would list.
        binomial = _binomial_theorem(L, k, lo, hi, hyp)
        if binomial is not None:
            return binomial
        # Budgeted: SymPy writes e^{(1001/1000)·log(10¹²·…)} as a rational power and factors its integers
        # (minutes for a truncated geometric law at α = 1001/1000).
        total = budgeted(lambda: sp.Add(*[sp.exp(L.subs(k, j)) for j in range(int(lo), int(hi) + 1)]),
                         "the finite sum's terms")
        return PieceValue(total, sp.true, "finite sum")
    series_rule = _negative_binomial_series(L, k, lo, hi, hyp) or _polylogarithm(L, k, lo, hi, hyp)
    if series_rule is not None:
        return series_rule
    factorials = [g for g in L.atoms(sp.factorial) if g.has(k)]
    binomials = [g for g in L.atoms(sp.binomial) if g.has(k)]
    rest, special = L, {}
    for g in L.atoms(sp.log):
        if g.args[0] in factorials or g.args[0] in binomials:
            special[g.args[0]] = sp.expand(L).coeff(g)
            rest = rest - special[g.args[0]] * g
    rest = sp.expand(rest)
    if not special and rest.is_polynomial(k) and sp.Poly(rest, k).degree() == 2 and (lo is -oo or hi is oo):
        return _theta(rest, k, lo, hi, hyp)
    linear = _linear(rest, k)
    if linear is None:
        return _sympy_fallback(L, k, lo, hi, hyp)
    B, C = linear
    if not special:
        return _geometric(B, C, lo, hi, hyp)
    if len(special) == 1:
        (atom, coefficient), = special.items()
        if (
            isinstance(atom, sp.factorial)
            and atom.args[0] == k
            and hyp.is_zero(coefficient + 1)
            and lo in (0, 1)
            and hi is oo
        ):
            # From k = 1, the series less its first term (a zero-inflated or zero-truncated Poisson law's pmf is a
            # Poisson one's times a constant on k ≥ 1: its divergence at a symbolic order was "no closed form").
            # Not from a larger k: e^x less its first terms cancels to the working precision's end (Poisson(2) on
            # k ≥ 100 is 10⁻¹²⁸ of e², and its mass check then refused the law).
            powers, rest = split_logs(sp.expand(B))
            first = sp.exp(C) if lo == 1 else sp.S.Zero  # the term at k = 0
            return PieceValue(sp.exp(C + powers * sp.exp(rest)) - first, sp.true, "exponential series")
        if (
            isinstance(atom, sp.binomial)
            and atom.args[1] == k
            and hyp.is_zero(coefficient - 1)
            and lo == 0
            and sp.simplify(hi - atom.args[0]) == 0
        ):
            share = sp.expand(C / atom.args[0])
            return PieceValue((sp.exp(share) + sp.exp(sp.expand(share + B))) ** atom.args[0], sp.true,
                              "binomial theorem")
    return _sympy_fallback(L, k, lo, hi, hyp)


def _binomial_theorem(L: sp.Expr, k: sp.Symbol, lo, hi, hyp: Hypotheses) -> PieceValue | None:
    """The binomial-theorem rule alone, or None when L is not log C(n, k) + B k + C on 0 ≤ k ≤ n."""
    binomials = [g for g in L.atoms(sp.binomial) if g.has(k)]
    if len(binomials) != 1 or lo != 0:
        return None
    atom = binomials[0]
    g = sp.log(atom)
    coefficient = sp.expand(L).coeff(g)
    rest = sp.expand(L - coefficient * g)
    if atom.args[1] != k or not hyp.is_zero(coefficient - 1) or sp.expand(hi - atom.args[0]) != 0:
        return None
    linear = _linear(rest, k)
    if linear is None:
        return None
    B, C = linear
    n = atom.args[0]
    # e^C (1 + e^B)^n written (e^{C/n} + e^{C/n + B})^n: two positive terms, p₁^α p₂^{1−α} and
    # (1 − p₁)^α (1 − p₂)^{1−α} once the exponents are read as powers.
    share = sp.expand(C / n)
    return PieceValue((sp.exp(share) + sp.exp(sp.expand(share + B))) ** n, sp.true, "binomial theorem")


def _linear(rest: sp.Expr, k: sp.Symbol) -> tuple | None:
    """(B, C) when ``rest`` = B k + C, else None."""
    rest = sp.expand(rest)
    if not rest.is_polynomial(k) or sp.Poly(rest, k).degree() > 1:
        return None
    return rest.coeff(k, 1), rest.coeff(k, 0)


def _negative_binomial_series(L: sp.Expr, k: sp.Symbol, lo, hi, hyp: Hypotheses) -> PieceValue | None:
    """Σ_{k≥0} Γ(k + m)/k! · e^{Bk + C} = e^C Γ(m) (1 − e^B)^{−m}: the negative binomial series (m > 0).

    The pmf C(k + r − 1, k) (1 − p)^r p^k of two negative binomial laws with the
    same r gives, at every order, exactly this shape (the binomial coefficient's
    exponents α and 1 − α add up to 1), with e^B = p₁^α p₂^{1−α}.

    >>> k = sp.Symbol("k", integer=True)
    >>> L = sp.log(sp.gamma(k + 3)) - sp.log(sp.factorial(k)) - k * sp.log(2)
    >>> _negative_binomial_series(L, k, sp.S.Zero, oo, Hypotheses()).value  # Γ(3)·(1 − 1/2)^(−3)
    16
    """
    if lo != 0 or hi is not oo:
        return None
    L = sp.expand(L)
    gammas = [g for g in L.atoms(sp.gamma) if g.has(k)]
    factorials = [g for g in L.atoms(sp.factorial) if g.has(k)]
    binomials = [g for g in L.atoms(sp.binomial) if g.has(k)]
    if len(gammas) == 1 and factorials == [sp.factorial(k)] and not binomials:
        m = sp.expand(gammas[0].args[0] - k)
        atoms, shift = {sp.log(gammas[0]): 1, sp.log(factorials[0]): -1}, sp.log(sp.gamma(m))
    elif len(binomials) == 1 and not gammas and not factorials and binomials[0].args[1] == k:
        m = sp.expand(binomials[0].args[0] - k + 1)
        atoms, shift = {sp.log(binomials[0]): 1}, sp.S.Zero
    else:
        return None
    if m.has(k) or hyp.is_positive(m) is not True:
        return None
    rest = L
    for atom, coefficient in atoms.items():
        if not hyp.is_zero(L.coeff(atom) - coefficient):
            return None
        rest = rest - coefficient * atom
    linear = _linear(rest, k)
    if linear is None:
        return None
    B, C = linear
    value = sp.exp(C + shift) * (1 - sp.exp(B)) ** (-m)
    return _decided(value, B < 0, "negative binomial series", hyp)


def _polylogarithm(L: sp.Expr, k: sp.Symbol, lo, hi, hyp: Hypotheses) -> PieceValue | None:
    """Σ_{k≥lo} k^{−s} e^{Bk + C}, lo ≥ 1: the polylogarithm e^C Li_s(e^B), less the terms below lo.

    Converges for B < 0 (any s), or B = 0 and s > 1 (the zeta function), else ∞.
    The logarithmic series (s = 1) is −log(1 − e^B); Zipf's laws (B = 0) give ζ(s).

    >>> k = sp.Symbol("k", integer=True)
    >>> _polylogarithm(-sp.log(k) - k * sp.log(2), k, sp.S.One, oo, Hypotheses()).value
    log(2)
    >>> _polylogarithm(-2 * sp.log(k), k, sp.S.One, oo, Hypotheses()).value
    pi**2/6
    >>> _polylogarithm(-sp.log(k), k, sp.S.One, oo, Hypotheses()).value  # the harmonic series
    oo
    """
    if hi is not oo or not (lo.is_Integer and lo >= 1):
        return None
    L = sp.expand(L)
    s = -L.coeff(sp.log(k))
    if s == 0 or s.has(k):
        return None
    linear = _linear(L + s * sp.log(k), k)
    if linear is None:
        return None
    B, C = linear
    below = sp.Add(*[j ** (-s) * sp.exp(B * j) for j in range(1, int(lo))])
    if hyp.is_zero(B):
        return _decided(sp.exp(C) * (sp.zeta(s) - below), s > 1, "polylogarithm (zeta)", hyp)
    if hyp.is_zero(s - 1):
        total, converges = -sp.log(1 - sp.exp(B)), B < 0  # the harmonic series at B = 0
    else:
        total, converges = sp.polylog(s, sp.exp(B)), B < 0
        if hyp.is_zero(B) is not False:  # Li_s(1) = ζ(s): the boundary converges for s > 1
            converges = sp.Or(B < 0, sp.And(sp.Eq(B, 0), s > 1))
    return _decided(sp.exp(C) * (total - below), converges, "polylogarithm", hyp)


def _theta(rest: sp.Expr, k: sp.Symbol, lo, hi, hyp: Hypotheses) -> PieceValue:
    """Σ e^{A k² + B k + C} over an infinite range: a theta-type series, kept symbolic (A < 0), else ∞."""
    A, B, C = (sp.Poly(rest, k).coeff_monomial(k**n) for n in (2, 1, 0))
    if hyp.is_negative(A) is False and not hyp.is_zero(A):
        return PieceValue(oo, sp.true, "theta series")
    if hyp.is_zero(A):
        return _geometric(B, C, lo, hi, hyp)
    value = sp.exp(C) * series(sp.exp(A * k**2 + B * k), k, lo, hi)
    return _decided(value, A < 0, "theta series", hyp)


def _geometric(B, C, lo, hi, hyp: Hypotheses) -> PieceValue:
    r = sp.exp(B)
    if hyp.is_zero(B):
        if lo is -oo or hi is oo:
            return PieceValue(oo, sp.true, "geometric")
        return PieceValue(sp.exp(C) * (hi - lo + 1), sp.true, "geometric")
    if lo is -oo and hi is oo:
        return PieceValue(oo, sp.true, "geometric")
    if hi is oo:
        # Σ_{k≥lo} r^k = r^lo / (1 − r), converges iff r < 1 (B < 0).
        return _decided(sp.exp(C + B * lo) / (1 - r), B < 0, "geometric", hyp)
    if lo is -oo:
        # Σ_{k≤hi} r^k = r^hi / (1 − 1/r), converges iff r > 1 (B > 0).
        return _decided(sp.exp(C + B * hi) / (1 - sp.exp(-B)), B > 0, "geometric", hyp)
    value = sp.exp(C) * (sp.exp(B * lo) - sp.exp(B * (hi + 1))) / (1 - r)
    if hyp.is_zero(B) is None:
        value = sp.Piecewise((value, sp.Ne(B, 0)), (sp.exp(C) * (hi - lo + 1), True))
    return PieceValue(value, sp.true, "geometric")


def _sympy_fallback(L, k, lo, hi, hyp: Hypotheses) -> PieceValue:
    if not hyp.fallback:
        raise NoClosedFormError(f"no closed-form rule for Σ exp({L})")
    value = budgeted(lambda: sp.summation(sp.exp(L), (k, lo, hi)), "sympy.summation")
    if value.has(sp.Sum) or value.has(sp.nan) or isinstance(value, sp.Piecewise):
        raise NoClosedFormError(f"sympy.summation left Σ exp({L}) unevaluated or conditional")
    return PieceValue(value, sp.true, "sympy.summation")
