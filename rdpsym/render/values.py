"""Numbers as a reader wants them: exact where short, decimals where long, balls with their radius.

>>> import sympy as sp
>>> value_text(sp.Rational(3, 2)), value_text(sp.Rational(1, 3 * 10**8))
('3/2', '0.000000003333333333333333333333333333333333333333')
"""

from __future__ import annotations

import sympy as sp

from rdpsym.foundations.precision import private_context


def value_text(v: object) -> str:
    """A sample value: an exact rational as written when short, else 40 significant digits; a value closer to an
    integer than 40 digits show as that integer and its distance (α = 1 + 10⁻⁵⁰ was printed "1.0", a point outside
    the claim's domain α > 1; a probe).

    >>> value_text(sp.Rational(3, 7)), value_text(1 + sp.Rational(1, 10**50)), value_text(sp.Rational(10**9 + 1, 10**9))
    ('3/7', '1 + 1.0e-50', '1.000000001')
    """
    if isinstance(v, sp.Rational) and v.q != 1 and (v.q > 10**6 or v.p > 10**6):
        n = sp.floor(v + sp.S.Half)
        d = v - n
        with private_context(45) as mp:
            if n != 0 and abs(d) < sp.Rational(1, 10**30) * abs(n):
                return f"{n} {'+' if d > 0 else '-'} {mp.nstr(mp.mpf(abs(d).p) / abs(d).q, 6)}"
            return mp.nstr(mp.mpf(v.p) / v.q, 40)
    return str(v)


__all__ = ["value_text"]
