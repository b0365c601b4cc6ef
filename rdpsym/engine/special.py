"""Special functions SymPy lacks, each evaluated to any precision by mpmath and printed as papers print it.

``ZetaPrime(s)`` is ζ′(s) = −Σ_{j≥1} log(j)/j^s (Re s > 1), which the KL divergence of two Zipf laws
holds (d/dα of ζ(αs₁ + (1 − α)s₂) at α = 1).  SymPy has no such function and no evaluation of the
series above, so it is a function of its own: mpmath's ``zeta(s, derivative=1)`` evaluates it.

>>> s = sp.Symbol("s", positive=True)
>>> ZetaPrime(3).evalf(20)
-0.19812624288563685333
>>> sp.latex(ZetaPrime(s + 1))
"\\\\zeta'\\\\left(s + 1\\\\right)"
"""

from __future__ import annotations

import mpmath
import sympy as sp
from sympy.core.evalf import prec_to_dps


class ZetaPrime(sp.Function):
    """ζ′(s), the derivative of Riemann's ζ (one argument)."""

    nargs = 1  # (no eval: kept symbolic, numbers by _eval_evalf)

    def _eval_evalf(self, prec):
        s = self.args[0].evalf(prec_to_dps(prec) + 5)
        if not s.is_Float:  # a symbol, or not real: no number
            return None
        with mpmath.workprec(prec + 10):  # (callers evaluate under rdpsym's evalf guard: mpmath.mp is restored)
            value = mpmath.zeta(mpmath.mpf(s._mpf_), derivative=1)
        return sp.Float(value, prec_to_dps(prec))

    def _eval_is_extended_real(self):
        return self.args[0].is_extended_real

    def _latex(self, printer):
        return rf"\zeta'\left({printer._print(self.args[0])}\right)"
