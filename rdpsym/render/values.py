"""Numbers as a reader wants them: exact where short, decimals where long, balls with their radius.

>>> import sympy as sp
>>> value_text(sp.Rational(3, 2)), value_text(sp.Rational(1, 3 * 10**8))
('3/2', '0.000000003333333333333333333333333333333333333333')
"""

from __future__ import annotations

import re
from fractions import Fraction

import sympy as sp
from flint import fmpq

from rdpsym.foundations.precision import private_context
from rdpsym.render.prose import text


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


#: A decimal as printers write it: mpmath's nstr, Python's repr, Arb's strings ("2.66E-86", "1.0e-12", "-0.5").
_DECIMAL = re.compile(r"([+-]?)(\d+(?:\.\d*)?|\.\d+)(?:[eE]([+-]?\d+))?")


def decimal_latex(shown: str) -> str:
    r"""A printed decimal as math: the exponent as a power of ten, ∞ as ``\infty``.  In math mode "2.66E-86" reads
    as 2.66·E − 86 and "1.0e-12" as 1.0·e − 12 ≈ −9.3, and "+inf" as the product i·n·f (a review: a certified δ, a
    derivation document's value line and a numeric D_∞ were shown so).

    >>> decimal_latex("2.66470670537E-86"), decimal_latex("1.0e-12"), decimal_latex("+inf"), decimal_latex("0.25")
    ('2.66470670537 \\cdot 10^{-86}', '1.0 \\cdot 10^{-12}', '\\infty', '0.25')
    """
    s = shown.strip()
    if s.lower().lstrip("+") in ("inf", "infinity", "oo"):
        return r"\infty"
    if s.lower() in ("-inf", "-infinity", "-oo"):
        return r"-\infty"
    m = _DECIMAL.fullmatch(s)
    if m is None:  # (no number a printer writes; set as text, never as TeX: a NaN, a ball's "[… +/- …]")
        return rf"\text{{{text(s)}}}"
    sign, mantissa, exponent = m.groups()
    sign = "-" if sign == "-" else ""
    if exponent is None:
        return sign + mantissa
    return rf"{sign}{mantissa} \cdot 10^{{{int(exponent)}}}"


def number_latex(v: object) -> str:
    r"""A number as math: an exact rational written out where short (``\tfrac{3}{2}``, ``10^{-15}``), one a hair from
    an integer as that integer and its distance, a long one as 20 significant digits (``\ldots`` where digits were
    cut); a float, an mpmath number or printed text by :func:`decimal_latex`.  A δ of 10⁻³⁰⁰ was shown as a fraction
    of 301 digits, past the page's margin (a review).

    >>> number_latex(sp.Rational(1, 10**300)), number_latex(fmpq(1, 3)), number_latex(20), number_latex(1e-5)
    ('10^{-300}', '\\tfrac{1}{3}', '20', '1 \\cdot 10^{-5}')
    """
    if isinstance(v, (Fraction, fmpq)):
        v = sp.Rational(int(v.numerator if isinstance(v, Fraction) else v.p),
                        int(v.denominator if isinstance(v, Fraction) else v.q))
    if isinstance(v, int) and not isinstance(v, bool):
        v = sp.Integer(v)
    if not isinstance(v, sp.Rational):
        return decimal_latex(str(v))
    p, q = int(v.p), int(v.q)
    if q == 1 and abs(p) < 10**9:
        return str(p)
    if abs(p) == 1 and str(q).rstrip("0") == "1":
        return ("-" if p < 0 else "") + f"10^{{-{len(str(q)) - 1}}}"
    if abs(p) < 10**6 and q < 10**6:
        return ("-" if p < 0 else "") + rf"\tfrac{{{abs(p)}}}{{{q}}}"
    n = round(v)
    if q != 1 and n != 0 and abs(v - n) < sp.Rational(1, 10**15) * abs(n):
        # 1 − 4·10⁻³⁰ would print as 1.0…: say how far from the integer it is
        return f"{n} {'-' if v < n else '+'} {number_latex(abs(v - n))}"
    return _decimal_digits(p, q)


def _decimal_digits(p: int, q: int) -> str:
    """p/q to 20 significant digits in scientific form; ``\\ldots`` only where digits were cut."""
    with private_context(40) as mp:
        shown = mp.nstr(mp.mpf(p) / q, 20, min_fixed=-4, max_fixed=9)
    exact = Fraction(shown) == Fraction(p, q)
    mantissa, _, exponent = shown.partition("e")
    mantissa = mantissa.rstrip("0").rstrip(".") if "." in mantissa else mantissa
    dots = "" if exact else r"\ldots"
    if not exponent:
        return mantissa + dots
    power = f"10^{{{int(exponent)}}}"
    return power if mantissa == "1" and exact else rf"{mantissa}{dots} \cdot {power}"


__all__ = ["decimal_latex", "number_latex", "value_text"]
