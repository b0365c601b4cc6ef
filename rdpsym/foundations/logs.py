"""Logarithms expanded the way rdpsym needs, around a SymPy call that never returns; expansions made once.

``sympy.expand_log(e, force=True)`` splits log(a·b) into log a + log b whatever
the signs; on the log of a constant like −1/(log 2 − log 3) it loops for
ever (``expand_log(log(-1/(log(2) - log(3))), force=True)``, the KL of two
logarithmic-series laws, which hung every derivation that tidied it).  So does
log(−x/(π − 4)): the trouble is a constant factor holding a sum, whose sign SymPy
keeps moving.  Such a factor has nothing to split that a reader wants split, so
its logarithm is kept whole.
"""

from __future__ import annotations

import sympy as sp

#: Expressions known to be their own ``sympy.expand``: the results :func:`expanded` returned (bounded: emptied when
#: full).  SymPy caches an expansion under the expression it was asked for, not under its result.
_EXPANDED: dict = {}
_EXPANDED_SIZE = 4096


def expanded(expr: sp.Basic) -> sp.Basic:
    """``sympy.expand(expr)``, and nothing to do for an expression this function returned before.

    The certified route expands a log-integrand, then reads it again in its tail and end bounds, each of which
    expanded it once more: a walk of the whole tree that returned it unchanged (in Table II, 170 of the route's 231
    calls to ``sympy.expand``; with this, 80 calls remain and the table takes about 2-3 % less CPU).  An expansion's
    result is its own expansion (``expand`` is idempotent for its default hints), so it is remembered as one.

    >>> x = sp.Symbol("x")
    >>> e = expanded((x + 1) ** 2)
    >>> e, expanded(e) is e
    (x**2 + 2*x + 1, True)
    """
    if expr in _EXPANDED:
        return expr
    result = sp.expand(expr)
    if len(_EXPANDED) >= _EXPANDED_SIZE:
        _EXPANDED.clear()
    _EXPANDED[result] = None
    return result


def expand_logs(expr: sp.Basic, force: bool = True) -> sp.Basic:
    """``sympy.expand_log(expr, force=force)``, with the log of the constant factors that hold a sum kept whole
    (split off first where positive: log(x/(4 − π)) is log x + log(1/(4 − π)), and log((1 − 1/e)·e^{−n}) at a
    cell n of a staircase law is log(1 − 1/e) − n: kept whole, it underflowed to −∞ for n = 2⁵⁹).

    >>> x = sp.Symbol("x", positive=True)
    >>> expand_logs(sp.log(-1 / (sp.log(2) - sp.log(3))) + sp.log(-2 * x / (sp.pi - 4)))
    log(x) + log(-2/(-4 + pi)) + log(-1/(-log(3) + log(2)))
    """
    if not isinstance(expr, sp.Basic) or not expr.has(sp.log):
        return expr
    kept: dict = {}

    def keep(e: sp.log) -> sp.Dummy:
        return kept.setdefault(e, sp.Dummy("kept"))

    def guarded(e: sp.log) -> sp.Expr:
        factors = sp.Mul.make_args(e.args[0])
        # the constant factors that hold a sum, with the sign: what SymPy would move signs between for ever
        hazard = [f for f in factors if not f.free_symbols and f.has(sp.Add) or f.is_Number and f.is_negative]
        if not any(f.has(sp.Add) for f in hazard):
            return e
        constant = sp.Mul(*hazard)
        if constant.is_positive is not True:
            return keep(e)
        return keep(sp.log(constant)) + sp.log(sp.Mul(*[f for f in factors if f not in hazard]))

    masked = expr.replace(lambda e: isinstance(e, sp.log), guarded)
    expanded = sp.expand_log(masked, force=force)
    return expanded.xreplace({d: e for e, d in kept.items()}) if kept else expanded
