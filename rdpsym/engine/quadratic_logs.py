"""Log-densities built from powers of positive quadratics: the Cauchy and Student t laws.

A Cauchy or Student t density is a power of a positive-definite quadratic,
(γ² + (x − μ)²)^{−a}, so the log-densities of a pair, and every L = α·log p +
(1 − α)·log q, read

    L = C + Σ_j c_j · log((x − μ_j)² + γ_j²),      γ_j² > 0,

one term per distinct quadratic (a leading coefficient k goes to C as c·log k).
:func:`read` finds that form; the integral rules of :mod:`rdpsym.engine.integral_rules`
and the supremum rule of :mod:`rdpsym.derive.moments` use it:

* one quadratic:  ∫_ℝ ((x − μ)² + γ²)^{−a} dx = √π Γ(a − ½)/Γ(a) · γ^{1−2a}  (a > ½, else ∞);
* two whose exponents add up to −1 (every α for two Cauchy laws, c₁ = −α, c₂ = α − 1):

      ∫_ℝ ((x − μ₁)² + γ₁²)^{−a} ((x − μ₂)² + γ₂²)^{a−1} dx = π γ₁^{−a} γ₂^{a−1} P_{a−1}(A),
      A = ((μ₁ − μ₂)² + γ₁² + γ₂²)/(2γ₁γ₂) ≥ 1,

  P_ν the Legendre function (a polynomial for integer ν).  Why: x = μ₁ + γ₁ tan(θ/2) maps the
  first Cauchy law to the uniform law on the circle, under which the ratio of the two densities is
  1/(A − √(A² − 1) cos θ) (a Möbius map of the circle), so the integral is
  (1/2π)∫_0^{2π} (A − √(A² − 1) cos θ)^{a−1} dθ, Laplace's first integral for P_{a−1}(A)
  (DLMF 14.12.6; F. Nielsen, K. Okamura, arXiv:2101.12459, who write A = 1 + χ²).  The integrand
  decays like x^{−2} at both ends, so it converges for every a;
* sup_x c·log(Q₂/Q₁): Q = (x, 1)·M·(x, 1)ᵀ with M = [[1, −μ], [−μ, μ² + γ²]], so Q₂/Q₁ is a
  generalised Rayleigh quotient whose supremum over ℝ (its limit 1 at ±∞ included) is the larger
  root of det(M₂ − λM₁) = 0, λ = (γ₂/γ₁)(A ± √(A² − 1)); for c < 0 the smaller one.

>>> x = sp.Symbol("x", real=True)
>>> read(-sp.log(x**2 + 1) + 2 * sp.log(2 * x**2 - 4 * x + 4), x, Hypotheses())
QuadraticLogs(C=2*log(2), factors=((-1, 0, 1), (2, 1, 1)))
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from rdpsym.engine.context import Hypotheses
from rdpsym.foundations.errors import NoClosedFormError


@dataclass(frozen=True)
class QuadraticLogs:
    """L = C + Σ c·log((x − μ)² + γ²); ``factors`` is ((c, μ, γ²), ...), one per distinct quadratic."""

    C: sp.Expr
    factors: tuple


def read(L: sp.Expr, x: sp.Symbol, hyp: Hypotheses) -> QuadraticLogs | None:
    """``L`` as C + Σ c·log((x − μ)² + γ²) with every γ² shown positive, or None.

    Every term holding x must be c·log(g), c free of x, g a quadratic in x with a positive leading
    coefficient; the same quadratic up to that coefficient counts once.
    """
    C = sp.S.Zero
    factors: dict[tuple, sp.Expr] = {}
    for term in sp.Add.make_args(sp.expand(L)):
        if not term.has(x):
            C += term
            continue
        logs = [f for f in sp.Mul.make_args(term) if isinstance(f, sp.log)]
        if len(logs) != 1:
            return None
        c = term / logs[0]
        g = logs[0].args[0]
        if c.has(x) or not g.is_polynomial(x):
            return None
        poly = sp.Poly(g, x)
        if poly.degree() != 2:
            return None
        k, b, c0 = poly.all_coeffs()
        if hyp.is_positive(k) is not True:
            return None
        mu = sp.cancel(-b / (2 * k))
        gamma2 = sp.factor(sp.cancel(c0 / k - mu**2))
        if hyp.is_positive(gamma2) is not True:
            return None
        key = (mu, gamma2)
        factors[key] = factors.get(key, sp.S.Zero) + c
        C += c * sp.log(k)
    kept = tuple((c, mu, g2) for (mu, g2), c in factors.items() if hyp.is_zero(c) is not True)
    return QuadraticLogs(C, kept) if kept else None


#: The largest integer degree at which P_n(A) is built as its exact polynomial's value (0.6 s at 1000; the whole
#: derivation of two Cauchy laws at α = 2000 takes 3.2 s exactly, as long as the definition's numeric answer).
EXACT_DEGREE = 2000


def legendre_argument(mu1: sp.Expr, g1: sp.Expr, mu2: sp.Expr, g2: sp.Expr) -> sp.Expr:
    """A = ((μ₁ − μ₂)² + γ₁² + γ₂²)/(2γ₁γ₂), from the centres and the squared widths γ²."""
    return ((mu1 - mu2) ** 2 + g1 + g2) / (2 * sp.sqrt(g1) * sp.sqrt(g2))


def one_quadratic(a: sp.Expr, gamma2: sp.Expr) -> tuple[sp.Expr, sp.Basic]:
    """(∫_ℝ ((x − μ)² + γ²)^{−a} dx, its convergence condition a > ½)."""
    value = sp.sqrt(sp.pi) * sp.gamma(a - sp.S.Half) / sp.gamma(a) * sp.sqrt(gamma2) ** (1 - 2 * a)
    return value, a > sp.S.Half


def two_quadratics(a: sp.Expr, first: tuple, second: tuple) -> sp.Expr:
    """∫_ℝ ((x − μ₁)² + γ₁²)^{−a} ((x − μ₂)² + γ₂²)^{a−1} dx = π γ₁^{−a} γ₂^{a−1} P_{a−1}(A) (every a)."""
    (mu1, g1), (mu2, g2) = first, second
    A = legendre_argument(mu1, g1, mu2, g2)
    # At an integer degree SymPy expands P_n into its polynomial and evaluates it exactly: 0.6 s at n = 1000, no answer
    # in 200 s at 10⁶ (two Cauchy laws at α = 10⁶: a probe).  Kept unevaluated, SymPy's assumptions evaluate it in
    # mpmath, whose series does not converge at such degrees.  Above EXACT_DEGREE there is no closed form to give here:
    # the caller's numeric route answers.
    n = a - 1
    if n.is_Integer and abs(n) > EXACT_DEGREE:
        raise NoClosedFormError(f"the Legendre polynomial P_{n}({A}) is too large to build exactly (degree above "
                                f"{EXACT_DEGREE})")
    return sp.pi * sp.sqrt(g1) ** (-a) * sp.sqrt(g2) ** (a - 1) * sp.legendre(n, A)


def sup_log_ratio(c: sp.Expr, first: tuple, second: tuple, hyp: Hypotheses) -> sp.Expr:
    """sup over ℝ of c·log(Q₂/Q₁), Q_j = (x − μ_j)² + γ_j², as a Piecewise on the sign of c."""
    (mu1, g1), (mu2, g2) = first, second
    A = legendre_argument(mu1, g1, mu2, g2)
    scale = sp.log(sp.sqrt(g2) / sp.sqrt(g1))
    largest, smallest = scale + sp.acosh(A), scale - sp.acosh(A)  # log λ± = log(γ₂/γ₁) ± arccosh A
    positive = hyp.is_positive(c)
    if positive:
        return c * largest
    if hyp.is_negative(c):
        return c * smallest
    return sp.Piecewise((c * largest, c > 0), (c * smallest, True))
