"""Sums SymPy writes with a cancellation, written without it: 2 − erfc(w), 1 ± erf(w) as one erfc.

SymPy canonicalises erfc(−w) to 2 − erfc(w), and an expansion spreads F·(2 − erfc(w)) over two terms; numbers
evaluated from those forms lose every digit where erfc(w) is next to 2.  :func:`stable_erf` gives the same
expression with each such sum taken back to one erfc, kept unevaluated.  Pure SymPy: the Arb balls
(:mod:`rdpsym.foundations.balls`) and the compiled integrands (:mod:`rdpsym.quadrature.compile`) read its output.
"""

from __future__ import annotations

import functools

import sympy as sp

__all__ = ["stable_erf"]


def stable_erf(expr: sp.Expr) -> sp.Expr:
    """``expr`` with 2 − erfc(w), 1 + erf(w) and 1 − erf(w) (times a constant, or a common factor F) written erfc(−w),
    erfc(−w) and erfc(w), kept unevaluated: the same numbers, without the cancellation.

    SymPy writes erfc(−w) as 2 − erfc(w) by itself; at w = −350, erfc(w) is 2 − 10^−53000, and
    2 − erfc(w) evaluated at 55 digits is noise, where erfc(350) is a plain small number (the mass of
    a normal truncated far in its tail: a normaliser (1 + erf(μ/√2σ))/2, an engine's half-line integral).
    Expanded, F·(2 − erfc(w)) is 2F − F·erfc(w), two terms of a sum: they are taken together again (a skew normal
    recentred at its place, e^(−u²/2)·erfc(−3u/√2) made 2e^(−u²/2) − e^(−u²/2)·erfc(3u/√2), was 0 on its left side
    and its hill at 10³⁰⁰ was not found: the law's mass came out 2/3).

    >>> w, u = sp.symbols("w u")
    >>> stable_erf(2 - sp.erfc(w)), stable_erf((1 + sp.erf(w)) / 2), stable_erf(3 - 3 * sp.erf(w))
    (erfc(-w), erfc(-w)/2, 3*erfc(w))
    >>> stable_erf(1 - sp.erf(-w))
    erfc(-w)
    >>> stable_erf(sp.expand(sp.exp(-u**2) * sp.erfc(-u) / 3))
    exp(-u**2)*erfc(-u)/3
    """
    if not isinstance(expr, sp.Basic):
        return expr
    return _stable_erf(expr)


@functools.lru_cache(maxsize=4096)
def _stable_erf(expr: sp.Basic) -> sp.Basic:
    # (kept: a claim's side is read in balls at every point and rung, and the join walks every sum of it each time)
    if not expr.has(sp.erf, sp.erfc):
        return expr
    return expr.replace(lambda e: isinstance(e, sp.Add), _complemented)


def _complemented(add: sp.Expr) -> sp.Expr:
    """The sum ``add`` with each pair of terms k·F·erfc(w) and −2k·F (k·F·erf(w) and ±k·F) taken together as one
    erfc, unevaluated (:func:`stable_erf`)."""
    terms = list(sp.Add.make_args(add))
    joined = _first_pair(terms)
    if joined is None:
        return add
    while joined is not None:
        term, partner, new = joined
        terms = [t for t in terms if t is not term and t is not partner] + [new]
        joined = _first_pair(terms)
    return sp.Add(*terms)


def _first_pair(terms: list) -> tuple | None:
    """(k·F·erf(w) or k·F·erfc(w), its partner c·F, the one erfc they make) for the first such pair of ``terms``."""
    plain = {}  # F -> (its number coefficient, the term): the terms with no erf or erfc
    for term in terms:
        if not term.has(sp.erf, sp.erfc):
            c, factor = term.as_coeff_Mul()
            plain.setdefault(factor, (c, term))
    for term in terms:
        k, rest = term.as_coeff_Mul()
        factors = sp.Mul.make_args(rest)
        for f in (f for f in factors if isinstance(f, (sp.erf, sp.erfc))):
            others = sp.Mul(*[g for g in factors if g is not f])
            if others.has(sp.erf, sp.erfc) or others not in plain:
                continue
            c, partner = plain[others]
            if isinstance(f, sp.erfc) and c == -2 * k:  # k·F·erfc(w) − 2k·F = −k·F·(2 − erfc(w))
                return term, partner, -k * others * sp.erfc(-f.args[0], evaluate=False)
            if isinstance(f, sp.erf) and c == k:  # k·F·(1 + erf(w))
                return term, partner, k * others * sp.erfc(-f.args[0], evaluate=False)
            if isinstance(f, sp.erf) and c == -k:  # −k·F·(1 − erf(w)); (evaluated, erfc(−z) would be 2 − erfc(z))
                return term, partner, -k * others * sp.erfc(f.args[0], evaluate=False)
    return None
