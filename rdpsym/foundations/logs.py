"""Logarithms expanded the way rdpsym needs, around a SymPy call that never returns.

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


def expand_logs(expr: sp.Basic, force: bool = True) -> sp.Basic:
    """``sympy.expand_log(expr, force=force)``, with the log of each constant factor that holds a sum kept whole
    (a positive one split off first: log(x/(4 − π)) is log x + log(1/(4 − π))).

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
        arg = e.args[0]
        constant, rest = arg.as_independent(*arg.free_symbols, as_Mul=True) if arg.is_Mul else (arg, sp.S.One)
        if arg.free_symbols and not arg.is_Mul or not constant.has(sp.Add):
            return e
        if rest == 1 or constant.is_positive is not True:
            return keep(e)
        return keep(sp.log(constant)) + sp.log(rest)

    masked = expr.replace(lambda e: isinstance(e, sp.log), guarded)
    expanded = sp.expand_log(masked, force=force)
    return expanded.xreplace({d: e for e, d in kept.items()}) if kept else expanded
