"""Exact Poisson mixtures of two noise pairs, as certified balls: the moments E_Q[((1 − q) + q·P/Q)^s] that make
the Poisson-subsampled discrete Gaussian and Laplace mechanisms exact order by order (:mod:`.subsampling`).

* the discrete Gaussian N_ℤ(0, σ²) against N_ℤ(Δ, σ²): a sum over a window of ℤ (:func:`lattice_window`) with
  certified Gaussian tails on both sides, normalised by θ(0) from Poisson summation (:func:`lattice_moment`);
* the Laplace pair Lap(0, b), Lap(Δ, b): two closed terms and one analytic integral on [0, Δ/b], by Arb's certified
  Gauss–Legendre quadrature (:func:`laplace_mixture_moment`).
"""

from __future__ import annotations

import mpmath
import sympy as sp
from flint import arb, ctx, fmpq

from rdpsym.foundations.arb_integral import acb_integral
from rdpsym.foundations.balls import to_arb

__all__ = ["laplace_mixture_moment", "lattice_moment", "lattice_window"]


def _gauss_rest(a: arb, c: arb) -> arb:
    """Σ_{j≥0} e^{−(a+j)²/c} ≤ e^{−a²/c}/(1 − e^{−(2a+1)/c}) for a > 0."""
    return (-(a * a) / c).exp() / (1 - (-(2 * a + 1) / c).exp())


def _theta0(sigma: arb, bits: int) -> arb:
    """θ(0) = Σ_{k∈ℤ} e^{−k²/(2σ²)}, certified: summed directly for σ ≤ 1, by Poisson summation
    σ√(2π)·(1 + 2Σ_{n≥1} e^{−2π²σ²n²}) above.  Each has terms that fall fastest on its side: the Poisson form
    alone needed about 1/σ terms, and at σ = 10⁻²⁰⁰ never ended (a probe)."""
    if sigma <= 1:
        return _gauss_series(2 * sigma * sigma, bits)
    return sigma * (2 * arb.pi()).sqrt() * _gauss_series(1 / (2 * arb.pi() ** 2 * sigma * sigma), bits)


def _gauss_series(c: arb, bits: int) -> arb:
    """1 + 2Σ_{n≥1} e^{−n²/c} for c > 0, certified: the terms down to 2^−bits, the rest bounded."""
    total, n = arb(0), 1
    while True:
        term = (-(n * n) / c).exp()
        total += term
        if term < arb(2) ** (-bits):
            break
        n += 1
    return 1 + 2 * (total + arb(0).union(_gauss_rest(arb(n + 1), c).upper()))


#: 53-bit numbers with an unbounded exponent, for plans: σ = 10⁻²⁰⁰ squared is 0 as a double (the plan divided by
#: it: a probe's ZeroDivisionError) and 10⁴⁰⁰ is no double at all.
_PLAN = mpmath.MPContext()


def lattice_window(sigma: sp.Expr, delta: int, order: fmpq, bits: int) -> tuple[int, int]:
    """The k-range summed for the discrete Gaussian's mixture at ``order`` (53-bit numbers: only a plan; the
    rest of ℤ is bounded in :func:`lattice_moment`): σ·√(2·bits·log 2 + 20) past the two peaks."""
    s, a = _PLAN.mpf(sp.Float(sigma, 17)), _PLAN.mpf(int(order.p)) / int(order.q)
    reach = _PLAN.sqrt(2 * s * s * (bits * _PLAN.ln2 + 10) + (a * delta) ** 2)
    centre = -(a - 1) * delta  # where Q·X^α peaks (removal); the addition direction peaks at Δ
    return int(_PLAN.floor(min(centre, delta) - reach)) - 1, int(_PLAN.ceil(max(centre, delta) + reach)) + 1


def lattice_moment(sigma: sp.Expr, delta: int, q: arb, s: arb, k_lo: int, k_hi: int) -> arb:
    """E_Q[((1−q) + qX)^s] for Q = N_ℤ(Δ, σ²), X = P/Q, P = N_ℤ(0, σ²), s > 1 or s < 0, certified.

    Σ_{k_lo ≤ k ≤ k_hi} exactly, plus the rest: for s < 0 the base is ≥ 1 − q, so each term is at most
    (1 − q)^s Q(k), a Gaussian tail on each side; for s > 1, beyond k_hi (X ≤ 1 there, k_hi ≥ Δ/2) at most
    Q(k), and below k_lo (X ≥ 1) at most Q(k)X^s = e^{s(s−1)Δ²/(2σ²)} e^{−(k + (s−1)Δ)²/(2σ²)}/θ(0).
    """
    sig = to_arb(sigma)
    c = 2 * sig * sig
    theta = _theta0(sig, ctx.prec + 20)
    one_mq = 1 - q
    d = arb(delta)
    total = arb(0)
    for k in range(k_lo, k_hi + 1):
        x = (d * (d - 2 * k) / c).exp()
        total += (-((k - d) ** 2) / c).exp() * (s * (one_mq + q * x).log()).exp()
    # the rest, both sides (θ(0) divides everything at the end)
    right = _gauss_rest(arb(k_hi + 1) - d, c)  # Σ_{k > k_hi} e^{−(k−Δ)²/c}
    if s < 0:
        left = _gauss_rest(d - arb(k_lo - 1), c)
        rest = one_mq**s * (left + right)
    else:
        centre = -(s - 1) * d
        left = (s * (s - 1) * d * d / c).exp() * _gauss_rest(centre - arb(k_lo - 1), c)
        rest = right + left
    return (total + arb(0).union(rest.upper())) / theta



def laplace_mixture_moment(q: arb, t: arb, s: arb) -> arb:
    """E_Q[((1 − q) + q·P/Q)^s] for the Laplace pair Q = Lap(0, b), P = Lap(Δ, b), t = Δ/b, as a certified ball.

    P/Q = e^{(|x| − |x − Δ|)/b} is e^{−t} for x ≤ 0 (Q's mass ½), e^{t} for x ≥ Δ (Q's mass e^{−t}/2), and
    e^{(2x − Δ)/b} between, so the moment is two closed terms and, in u = x/b,
    ∫_0^t ((1 − q) + q·e^{2u − t})^s·e^{−u}/2 du: an analytic integrand on a finite interval (its base is
    ≥ 1 − q > 0, away from the branch cut of z^s), enclosed by Arb's certified Gauss–Legendre quadrature.

    >>> from rdpsym.foundations.balls import precision
    >>> # α = 2: 1 + q²(E_Q[(P/Q)²] − 1), with E_Q[(P/Q)²] = (2/3)e^t + (1/3)e^{−2t} (Mironov 2017, Prop. 6)
    >>> with precision(100):
    ...     q, t = arb(1) / 100, arb(1) / 2
    ...     m = laplace_mixture_moment(q, t, arb(2))
    ...     exact = 1 + q ** 2 * (t.exp() * 2 / 3 + (-2 * t).exp() / 3 - 1)
    ...     bool(m.overlaps(exact)), m.rad() < arb(10) ** -25
    (True, True)
    """
    keep = 1 - q

    def integrand(u, analytic):
        return (keep + q * (2 * u - t).exp()).pow(s, analytic=analytic) * (-u).exp() / 2

    middle = acb_integral(integrand, 0, t).real
    return ((keep + q * (-t).exp()) ** s + (-t).exp() * (keep + q * t.exp()) ** s) / 2 + middle
