"""The near form of the Rényi integrand: what is left of P^α Q^{1−α} once the 1 it is close to is taken out.

For probability laws P, Q with log-ratio r = log(P/Q),

    P^α Q^{1−α} = Q·e^{αr} = Q·ψ_α(r) + α·P − (α − 1)·Q,   ψ_α(r) = e^{αr} − 1 − α(e^r − 1),
    P·log(P/Q)  = Q·φ(r) + P − Q,                          φ(r)  = 1 + (r − 1)·e^r,

so ∫ P^α Q^{1−α} − 1 and KL(P‖Q) are integrals of Q·ψ_α(r) and Q·φ(r) (plus the
masses where only one law lives).  ψ_α has the sign of α − 1 everywhere (e^{αr} is
convex in e^r when α > 1, concave when α < 1, and ψ_α is its gap to the tangent at
e^r = 1) and φ ≥ 0, so nothing cancels: a divergence of 10⁻⁶⁰⁰ is integrated to
full relative precision where ∫ P^α Q^{1−α} = 1 + 10⁻⁶⁰⁰ would need 600 more digits.

Near r = 0 both functions vanish to second order and are summed as series whose
terms all have one sign (no e^{αr} − 1 − ... cancellation):

    ψ_α(r) = α·Σ_{k≥2} d_k r^k / k!,  d_2 = α − 1, d_{k+1} = α·d_k + (α − 1)   (d_k = α^{k−1} − 1),
    φ(r)   = Σ_{k≥2} (k − 1)·r^k / k!.

Written against the mpmath context ``ctx`` handed in.
"""

from __future__ import annotations

from collections.abc import Callable

from rdpsym.foundations.errors import ConvergenceError


def psi(r, a, ctx):
    """ψ_α(r) = e^{αr} − 1 − α(e^r − 1) (φ(r) = 1 + (r − 1)e^r at α = 1), without cancellation near r = 0.

    Where the series needs at most six terms (|α·r| ≤ 10^(−dps/6)) it is summed;
    elsewhere ψ_α = e^r·expm1((α − 1)r) − (α − 1)·expm1(r) and φ = r·e^r − expm1(r)
    are evaluated with as many extra bits as their terms cancel (about
    log2(2/|(α − 1)·r|)).

    >>> import mpmath
    >>> ctx = mpmath.MPContext(); ctx.dps = 30
    >>> ctx.nstr(psi(ctx.mpf('1e-200'), ctx.mpf(2), ctx), 10)     # α(α − 1)r²/2 + ...
    '1.0e-400'
    >>> ctx.nstr(psi(ctx.mpf(3), ctx.mpf(2), ctx) - (ctx.exp(6) - 1 - 2 * ctx.expm1(3)), 5)
    '0.0'
    """
    if r == ctx.ninf:  # P = 0 at a point where Q > 0: the limits
        return ctx.mpf(1) if a == 1 else a - 1
    size = abs(r) * max(1, abs(a))
    if size == 0:
        return ctx.mpf(0)
    if size <= ctx.ldexp(1, -ctx.prec // 6):
        return _phi_series(r, ctx) if a == 1 else _psi_series(r, a, ctx)
    lost = max(0, int(-ctx.log(abs(r) * (abs(a - 1) if a != 1 else 1), 2))) + 12 if abs(r) < 1 else 12
    if a < 1:
        # ψ_α = O(α) as α → 0 while both terms below stay O(|r|·e^r): at α = 10⁻⁹⁹ they cancel in
        # 99 more digits (a Gaussian pair's D_α = α/(2σ²) came out as rounding noise, 10⁻⁶¹ for 10⁻¹⁰⁰).
        lost += max(0, int(-ctx.log(a, 2)))
    with ctx.extraprec(lost):
        beta = a - 1  # at the raised precision: at the working one, 10⁻⁹⁹ − 1 rounds to −1
        if a == 1:
            value = r * ctx.exp(r) - ctx.expm1(r)
        else:
            # e^{αr} − 1 − α(e^r − 1) = e^r·(e^{βr} − 1) − β·(e^r − 1): for α near 1 both terms carry β.
            value = ctx.exp(r) * ctx.expm1(beta * r) - beta * ctx.expm1(r)
    return +value


def log_psi(r, a, ctx) -> tuple:
    """(log|ψ_α(r)|, sign of ψ_α(r)) (φ at α = 1), without forming e^{αr} or e^r where one term is
    negligible: for r = e^(10⁷) (a Gumbel tail) ψ_α is e^{αr} to the working precision, and forming it
    would build an exponent of millions of digits."""
    big = ctx.prec * ctx.ln2 + 20  # e^(−big) is below the working precision
    if a == 1:
        if r > big:
            return r + ctx.log(r - 1), 1  # (r − 1)·e^r, the 1 negligible
        if r < -big:
            return ctx.zero, 1  # 1 + (r − 1)·e^r with e^r negligible
    else:
        beta = a - 1
        if r == ctx.inf:
            return ctx.inf, (1 if a > 1 else -1)
        if r > 0 and (a > 1 and beta * r > big + ctx.log(a)):
            return a * r, 1  # e^{αr}[1 − α·e^{−βr} + β·e^{−αr}]
        if r > 0 and (a < 1 and -beta * r > big - ctx.log(a)):
            return ctx.log(a) + r, -1  # −α·e^r[1 − e^{−(1−α)r}/α + (1 − α)·e^{−r}/α]
        if r < 0 and min(a, 1) * -r > big + abs(ctx.log(abs(beta))) + abs(ctx.log(a)):
            return ctx.log(abs(beta)), (1 if beta > 0 else -1)  # β + e^{αr} − α·e^r
    value = psi(r, a, ctx)
    if value == 0:
        return ctx.ninf, 0
    return ctx.log(abs(value)), (1 if value > 0 else -1)


def _psi_series(r, a, ctx):
    beta = a - 1
    eps = ctx.eps
    d = beta
    term = r * r / 2  # r^k / k!
    total = d * term
    k = 2
    while True:
        k += 1
        d = a * d + beta
        term = term * r / k
        step = d * term
        total += step
        if abs(step) <= eps * abs(total) or k > 64:
            return a * total


def _phi_series(r, ctx):
    eps = ctx.eps
    term = r * r / 2
    total = term
    k = 2
    while True:
        k += 1
        term = term * r / k
        step = (k - 1) * term
        total += step
        if abs(step) <= eps * abs(total) or k > 64:
            return total


def psi_near(log_q: Callable, log_ratio: Callable, a, ctx) -> Callable:
    """t -> (log|Q(t)·ψ_α(r(t))|, sign) (φ at α = 1), from log Q and the log-ratio r: the ``parts`` of a
    :class:`~rdpsym.quadrature.integrands.LogForm`."""
    def parts(t):
        r = log_ratio(t)
        if r == 0:
            return ctx.ninf, 0
        log_value, sign = log_psi(r, a, ctx)
        return log_q(t) + log_value, sign
    return parts


def near_one(excess, a, ctx):
    """D_α = log1p(excess)/(α − 1) from excess = ∫ P^α Q^{1−α} − 1 (which is > −1)."""
    if excess <= -1:
        raise ConvergenceError(f"the near form gave ∫ P^α Q^(1−α) = 1 + ({ctx.nstr(excess, 10)}) <= 0")
    return ctx.log1p(excess) / (a - 1)


__all__ = ["log_psi", "near_one", "psi", "psi_near"]
