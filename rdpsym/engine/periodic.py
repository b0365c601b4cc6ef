"""Log-densities a·cos x + b·sin x + C over one full period: the von Mises (circular normal) laws.

A von Mises density e^{κ cos(x − μ)}/(2π I₀(κ)) on an interval of length 2π has log-density
κ cos μ · cos x + κ sin μ · sin x + const, and so has every L = α·log p + (1 − α)·log q of two
of them.  Writing a·cos x + b·sin x = ρ·cos(x − φ) with ρ = √(a² + b²), over any full period

    ∫ e^{a cos x + b sin x + C} dx = 2π e^C I₀(ρ)       (Bessel's integral, DLMF 10.32.1),
    sup (a cos x + b sin x + C) = C + ρ                (attained at x = φ).

>>> x = sp.Symbol("x", real=True)
>>> read(3 * sp.cos(x - 1) + 2, x)
(3*cos(1), 3*sin(1), 2)
>>> integral(*read(3 * sp.cos(x - 1) + 2, x))
2*pi*exp(2)*besseli(0, 3)
"""

from __future__ import annotations

import sympy as sp


def full_period(lo: sp.Expr, hi: sp.Expr) -> bool:
    """Whether (lo, hi) is exactly one period 2π long."""
    if lo in (sp.oo, -sp.oo) or hi in (sp.oo, -sp.oo):
        return False
    return sp.expand(hi - lo - 2 * sp.pi) == 0  # (asked of every piece no other rule reads: no simplify)


def read(L: sp.Expr, x: sp.Symbol) -> tuple[sp.Expr, sp.Expr, sp.Expr] | None:
    """(a, b, C) with L = a·cos x + b·sin x + C, a, b and C free of x; None for any other L."""
    expanded = sp.expand(sp.expand_trig(sp.expand(L)))
    a, b, C = sp.S.Zero, sp.S.Zero, sp.S.Zero
    for term in sp.Add.make_args(expanded):
        if not term.has(x):
            C += term
            continue
        coeff, rest = term.as_independent(x, as_Add=False)
        if rest == sp.cos(x):
            a += coeff
        elif rest == sp.sin(x):
            b += coeff
        else:
            return None
    if a == 0 and b == 0:
        return None
    return a, b, C


def amplitude(a: sp.Expr, b: sp.Expr) -> sp.Expr:
    """ρ = √(a² + b²), with cos² + sin² = 1 used (κ·√(α² + (1 − α)² + 2α(1 − α) cos μ), not four terms)."""
    return sp.sqrt(sp.factor(sp.trigsimp(sp.expand(a**2 + b**2))))


def integral(a: sp.Expr, b: sp.Expr, C: sp.Expr) -> sp.Expr:
    """∫ over one period of e^{a cos x + b sin x + C}: 2π e^C I₀(√(a² + b²))."""
    return 2 * sp.pi * sp.exp(C) * sp.besseli(0, amplitude(a, b))


def supremum(a: sp.Expr, b: sp.Expr, C: sp.Expr) -> sp.Expr:
    """sup over one period of a cos x + b sin x + C: C + √(a² + b²)."""
    return C + amplitude(a, b)
