"""The Legendre function P_ν(z), z ≥ 1, as a certified ball at any degree: two Cauchy laws' Rényi divergence.

∫ P^α Q^{1−α} of two Cauchy laws is P_{α−1}(A), A ≥ 1 (Nielsen and Okamura 2021), and
:mod:`rdpsym.foundations.balls` evaluates it with Arb's ``legendre_p`` (its hypergeometric series).  At a large
degree that series cancels: at 200 bits its ball is NaN from ν ≈ 500, and mpmath's own series does not converge
(the closed form of two Cauchy laws at α = 100001/2 raised mpmath's NoConvergence; a probe).  Laplace's first
integral has no cancellation at any degree:

    P_ν(z) = (1/π) ∫_0^π (z + √(z² − 1)·cos θ)^ν dθ,   z ≥ 1, every real ν,

computed as w^ν·(1/π)∫_0^π e^{ν·log((z + √(z² − 1)·cos θ)/w)} dθ with w = z + √(z² − 1), whose integrand lies in
(0, 1] for ν ≥ 0 (Arb's ``acb.integral``: a certified ball).

>>> legendre_p_above_one(arb(2), arb(3) / 2)  # (3·(9/4) − 1)/2
2.87500000000000
>>> x = legendre_p_above_one(arb(49999.5), arb(3) / 2)  # the series' ball is NaN here; the integral's is narrow
>>> bool(abs(x.log() / 49999.5 - arb("0.9623055809708342753")) < arb(10) ** -10)
True
"""

from __future__ import annotations

from flint import acb, arb, ctx

from rdpsym.foundations.arb_integral import acb_integral


def legendre_p_above_one(n: arb, z: arb) -> arb:
    """P_n(z) for z ≥ 1: Arb's ``legendre_p`` where its ball is narrow (half the working bits), else Laplace's
    integral (see the module's docstring)."""
    direct = acb(z).legendre_p(acb(n), 0, type=3)
    if direct.is_finite() and direct.imag.contains(0) and direct.real.rel_accuracy_bits() >= ctx.prec // 2:
        return direct.real
    return _by_laplace_integral(n, z)


#: The largest |ν| the integral is tried at: its peak at θ = 0 is about 1/√ν wide, which Arb's bisection resolves
#: in milliseconds to 10⁶ or so; at 10²⁰ it spent 6 s for a ball centred at 0 (a review).  Beyond, NaN: the caller
#: has other routes.
MOST_DEGREE = 10**7
#: Arb's evaluation limit for the integral (its default allows far more, spent only where no ball narrows).
_EVALUATIONS = 20_000


def _by_laplace_integral(n: arb, z: arb) -> arb:
    if not abs(n) <= MOST_DEGREE:
        return arb("nan")
    s = (z * z - 1).sqrt()
    w = z + s
    nc, zc, sc, wc = acb(n), acb(z), acb(s), acb(w)

    def integrand(t: acb, analytic: bool) -> acb:
        u = (zc + sc * t.cos()) / wc
        if analytic and not u.real > 0:  # (log's branch cut: never met on [0, π], where u ≥ (z − s)/w > 0)
            return acb(arb("nan"))
        return (nc * u.log()).exp()

    integral = acb_integral(integrand, 0, arb.pi(), eval_limit=_EVALUATIONS)
    if not integral.is_finite() or not integral.imag.contains(0):
        return arb("nan")
    return w**n * integral.real / arb.pi()


__all__ = ["legendre_p_above_one"]
