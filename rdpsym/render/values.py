"""Numbers as a reader wants them: exact where short, decimals where long, balls with their radius.

>>> import sympy as sp
>>> value_text(sp.Rational(3, 2)), value_text(sp.Rational(1, 3 * 10**8))
('3/2', '0.000000003333333333333333333333333333333333333333')
"""

from __future__ import annotations

import sympy as sp

from rdpsym.foundations.precision import private_context


def value_text(v: object) -> str:
    """A sample value: an exact rational as written when short, else 40 significant digits."""
    if isinstance(v, sp.Rational) and v.q != 1 and (v.q > 10**6 or v.p > 10**6):
        with private_context(45) as mp:
            return mp.nstr(mp.mpf(v.p) / v.q, 40)
    return str(v)


__all__ = ["value_text"]
