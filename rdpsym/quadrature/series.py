"""Direct summation of a series outward from its largest term.

Everything runs with the mpmath context ``ctx`` handed in and at its precision.
"""

from __future__ import annotations

import sympy as sp

from rdpsym.foundations.errors import ConvergenceError

oo = sp.oo


#: Terms a discrete piece may take before its sum is declared divergent or slow.
MAX_TERMS = 20_000


def sum_range(term, lo: sp.Expr, hi: sp.Expr, ctx):
    """Σ term(k) for lo ≤ k ≤ hi, summed directly outward; +∞ if the terms do not decay.

    mpmath's ``nsum`` extrapolates, and extrapolation assigns finite values to
    divergent series (Σ 2^k "=" −1): a Rényi moment must never get one.  The
    terms of the pmfs rdpsym meets decay geometrically or faster, so direct
    summation to 10^−(dps+10) of the partial sum converges in few terms.  A term
    given as a :class:`~rdpsym.quadrature.integrate.LogForm` is scanned by its
    logarithm and summed relative to the largest term (a term of e^(−10^9) is
    never formed).
    """
    log_form = getattr(term, "parts", None)
    if lo is not -oo and hi is not oo:
        n = int(hi) - int(lo) + 1
        if n <= MAX_TERMS:
            return ctx.fsum(term(k) for k in range(int(lo), int(hi) + 1))
    if lo is -oo and hi is oo:
        return sum_range(term, -oo, sp.S(-1), ctx) + sum_range(term, sp.S.Zero, oo, ctx)
    start, step = (int(lo), 1) if lo is not -oo else (int(hi), -1)
    far = None if (hi is oo or lo is -oo) else int(hi)  # the other end, if finite
    # Find the largest term on a doubling scan, so a pmf whose mass sits at
    # k ≈ 30000 (a Poisson pair) is summed from its mode, not given up on.
    offsets = [2**j - 1 for j in range(63) if far is None or start + (2**j - 1) <= far]
    size_of = term.log_abs if log_form is not None else (lambda k: abs(term(k)))
    sizes = [size_of(start + step * d) for d in offsets]
    peak = max(range(len(sizes)), key=lambda i: sizes[i])
    if far is None and peak == len(sizes) - 1:
        return ctx.inf  # still growing at k ~ 2^62: the terms do not tend to 0
    mode = start + step * offsets[peak]
    shift = ctx.zero
    if log_form is not None:
        shift = sizes[peak] if ctx.isfinite(sizes[peak]) else ctx.zero
        cutoff = -(ctx.dps + 30) * ctx.ln10

        def scaled(k):
            log_value, sign = log_form(k)
            d = log_value - shift
            return sign * ctx.exp(d) if sign != 0 and d > cutoff else ctx.zero
    else:
        scaled = term
    total = scaled(mode)
    total += _sum_direction(scaled, mode + step, step, far if far is not None else None, total, ctx)
    total += _sum_direction(scaled, mode - step, -step, start, total, ctx)
    return total * ctx.exp(shift) if shift else total


def _sum_direction(term, k0: int, step: int, end: int | None, scale, ctx):
    """Σ term(k) from k0 in direction ``step`` until ``end`` or until the terms are negligible."""
    eps = ctx.mpf(10) ** (-ctx.dps - 10)
    total, small_run, previous = ctx.mpf(0), 0, None
    for i in range(MAX_TERMS):
        k = k0 + step * i
        if end is not None and (k - end) * step > 0:
            return total
        t = term(k)
        total += t
        size = abs(t)  # KL terms P·log(P/Q) may be negative
        if size <= eps * (abs(total) + abs(scale)) and (previous is None or size <= previous):
            small_run += 1
            if small_run >= 20:
                return total
        else:
            small_run = 0
        previous = size
    raise ConvergenceError(f"the series did not converge within {MAX_TERMS} terms of its largest term")
