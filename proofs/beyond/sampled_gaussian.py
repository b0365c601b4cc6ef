"""The Poisson-subsampled Gaussian mechanism (DP-SGD): Mironov, Talwar, Zhang 2019 (arXiv:1908.10530).

statements.md, last section: with μ₀ = N(0, σ²) and μ = (1 − q)μ₀ + qN(1, σ²),

    A_α = E_{z∼μ₀}[(1 − q + q·e^{(2z−1)/(2σ²)})^α] = E_{μ₀}[(μ/μ₀)^α],   ε(α) = log A_α/(α − 1),

and for integer α, A_α = Σ_k C(α,k)(1−q)^{α−k} q^k exp((k² − k)/(2σ²)).

* ``mtz-binomial-mgf`` — the binomial sum equals the integral: the per-k Gaussian moment
  E[e^{k(2z−1)/(2σ²)}] = e^{(k²−k)/(2σ²)}, and the whole integral for α = 2, 3 (symbolic);
* ``mtz-integer-vs-integral`` — rdpsym's certified ball (``log_moment``, binomial sum) against an
  independent computation: the definition's integral of the mixture pair straight from the
  densities, at 50 digits (Arb's certified quadrature, or the core's ``renyi_divergence_mp``
  where that does not apply), at seeded points;
* ``mtz-fractional`` — fractional orders (rdpsym's certified quadrature): monotone in α across
  fractional and integer orders (Mironov 2017 Prop 9), and equal to the integral at seeded points.

The seeded points include q = 1, where μ is N(1, σ²) and the value is Prop 7's α/(2σ²).
"""

import mpmath
import sympy as sp
from flint import arb, fmpq

import rdpsym
from rdpsym.accounting.sampled_gaussian import log_moment, log_moments
from rdpsym.claims import Claim, ClaimError, Domain, Equal, Holds, Verdict
from rdpsym.claims.finite import rational
from rdpsym.derive.certified import certified_divergence
from rdpsym.engine.context import Hypotheses
from rdpsym.engine.integrals import integrate_exp
from rdpsym.engine.pieces import log_of

z = sp.Symbol("z", real=True)
x = sp.Symbol("x", real=True)
sigma = sp.Symbol("sigma", positive=True)
q = sp.Symbol("q", positive=True)
k = sp.Symbol("k", nonnegative=True)
alpha = sp.Symbol("alpha", positive=True)
gap = sp.Symbol("g", positive=True)

PHI = sp.exp(-(z**2) / (2 * sigma**2)) / sp.sqrt(2 * sp.pi * sigma**2)
U = (2 * z - 1) / (2 * sigma**2)

#: Digits of the independent computation, and its error bar (see _agrees).
DPS = 50


def _gaussian_integral(integrand: sp.Expr) -> sp.Expr:
    """∫_ℝ of a sum of terms c·e^{quadratic in z}, term by term, by completing the square (the engine's
    Gaussian rule, :func:`rdpsym.engine.integrals.integrate_exp`), with its convergence condition checked.

    ``sympy.integrate`` reaches the same values through Meijer G-functions in 5.4 s for this claim's three
    integrals; completing the square takes 0.2 s.
    """
    total = sp.S.Zero
    for term in sp.Add.make_args(sp.expand(integrand)):
        constant, gaussian = term.as_independent(z, as_Add=False)
        piece = integrate_exp(log_of(gaussian, z, sp.S.Zero), z, -sp.oo, sp.oo, Hypotheses())
        if piece.condition is not sp.true:
            raise ClaimError(f"∫ {gaussian} dz converges only if {piece.condition}")
        total += constant * piece.value
    return total


def _moment_integral(order: int):
    """∫ φ_σ(z)·(1 − q + q e^{u(z)})^order dz, term by term after the binomial expansion (run at check time)."""
    return _gaussian_integral(PHI * (1 - q + q * sp.exp(U)) ** order)


def _binomial_sum(order: int):
    return sum(sp.binomial(order, j) * (1 - q) ** (order - j) * q**j * sp.exp(sp.Integer(j * j - j) / (2 * sigma**2))
               for j in range(order + 1))


# --------------------------------------------------------------------------- numeric


def _rdpsym_value(qq: fmpq, s: fmpq, a: fmpq) -> arb:
    """rdpsym's certified ε(α) = log A_α/(α − 1)."""
    return log_moment(qq, s, a) / arb(a - 1)


def _mixture_pair(qq: fmpq, s: fmpq):
    """(μ, μ₀) as densities, written from scratch (nothing from rdpsym's sampled-Gaussian code)."""
    qs, ss = sp.Rational(int(qq.p), int(qq.q)), sp.Rational(int(s.p), int(s.q))
    g0 = sp.exp(-(x**2) / (2 * ss**2)) / sp.sqrt(2 * sp.pi * ss**2)
    g1 = sp.exp(-((x - 1) ** 2) / (2 * ss**2)) / sp.sqrt(2 * sp.pi * ss**2)
    mix = rdpsym.Continuous((1 - qs) * g0 + qs * g1, x, check=False)
    return mix, rdpsym.Continuous(g0, x, check=False)


def _agrees(point):
    """|ball − D| ≤ error bar, D the definition's integral of the mixture pair computed without rdpsym's
    sampled-Gaussian code: Arb's certified quadrature (``certified_divergence``, a ball of relative
    radius below 10^{−DPS−1}), or, where that route does not apply, ``renyi_divergence_mp``'s adaptive
    quadrature (two working precisions agreeing to DPS significant digits, rounded to DPS digits).

    Either way the error bar 2·10^{−DPS}·|D| + 10^{−DPS−5} covers the independent value's own error.
    """
    qq, s, a = point["case"]
    P, Q = _mixture_pair(qq, s)
    order = sp.Rational(int(a.p), int(a.q))
    independent = certified_divergence(P, Q, order, DPS)
    if independent is None:
        v = rdpsym.renyi_divergence_mp(P, Q, order, dps=DPS)
        independent = arb(mpmath.nstr(v, DPS + 10))
    tol = 2 * arb(10) ** (-DPS) * abs(independent) + arb(10) ** (-DPS - 5)
    return abs(_rdpsym_value(qq, s, a) - independent), "<=", tol


def _cases(orders, seed_cases):
    """Seeded (q, σ, α): the listed cases first, then q log-uniform in [1e-3, 1], σ in [0.7, 5]."""
    def generate(rng, i):
        if i < len(seed_cases):
            return seed_cases[i]
        qq = fmpq(round(10 ** (-3 + rng.randint(0, 12) / 4) * 2**20), 2**20)  # ≈ 10^{−3 + j/4}
        s = fmpq(7, 10) + fmpq(rng.randint(0, 43 * 2**10), 10 * 2**10)
        return qq, s, rng.choice(orders)
    return generate


INTEGER_CASES = _cases([fmpq(n) for n in (2, 3, 4, 6, 8, 16, 32)],
                       [(fmpq(1, 100), fmpq(11, 10), fmpq(2)), (fmpq(1), fmpq(2), fmpq(3)),
                        (fmpq(1, 1000), fmpq(5), fmpq(32))])
FRACTIONAL_CASES = _cases([fmpq(3, 2), fmpq(5, 2), fmpq(23, 7), fmpq(101, 10)],
                          [(fmpq(1, 100), fmpq(11, 10), fmpq(3, 2)), (fmpq(1), fmpq(3, 2), fmpq(23, 7)),
                           (fmpq(1, 10), fmpq(2), fmpq(101, 10))])


def _monotone(point):
    """D_α ≤ D_β from rdpsym's balls, α < β, across fractional (quadrature) and integer (binomial) orders."""
    qq, s, a = rational(point[q]), rational(point[sigma]), rational(point[alpha])
    kind = point["kind"]
    if kind == "ceil":      # a fractional order against the next integer one
        lo, hi = a, fmpq(int(a.p // a.q) + 1)
    elif kind == "floor" and a >= 3:  # an integer order against a fractional one above it
        lo, hi = fmpq(int(a.p // a.q)), a
    else:
        lo, hi = a, a + rational(point[gap])
    if lo == hi:
        hi = lo + rational(point[gap])
    la, lb = log_moments(qq, s, [lo, hi])
    return la / arb(lo - 1), "<=", lb / arb(hi - 1)


def _kind(rng, i):
    return ("gap", "ceil", "floor")[i % 3]


MONOTONE = Domain({q: sp.Interval.Lopen(0, 1), sigma: sp.Interval(sp.Rational(1, 2), 10),
                   alpha: sp.Interval.open(1, 32), gap: sp.Interval.Lopen(0, 8)},
                  objects={"kind": _kind}, samples=90, seed=31)

CLAIMS = [
    Claim(
        id="mtz-binomial-mgf",
        title="Integer orders: the binomial sum equals the integral",
        source="Mironov–Talwar–Zhang 2019 (arXiv:1908.10530) §3; statements.md",
        statement=r"\mathbb E_{z\sim\mathcal N(0,\sigma^2)}\left[\left(1-q+qe^{\frac{2z-1}{2\sigma^2}}\right)^\alpha\right]"
                  r"=\sum_{k=0}^{\alpha}\binom{\alpha}{k}(1-q)^{\alpha-k}q^k e^{\frac{k^2-k}{2\sigma^2}}"
                  r"\quad(\alpha\in\mathbb N)",
        steps=(
            Equal(lambda: _gaussian_integral(PHI * sp.exp(k * U)), sp.exp((k**2 - k) / (2 * sigma**2)),
                  "the Gaussian moment generating function at k/σ², shifted by −k/(2σ²); with the binomial "
                  "theorem and linearity this gives the sum for every integer α",
                  domain=Domain({sigma: sp.Interval.open(0, sp.oo), k: sp.Interval(0, sp.oo)}),
                  latex=r"\int_{-\infty}^{\infty} \frac{e^{-z^2/(2\sigma^2)}}{\sqrt{2\pi}\,\sigma}\,"
                        r"e^{k(2z-1)/(2\sigma^2)}\,dz = e^{(k^2-k)/(2\sigma^2)}"),
            *(Equal(lambda n=n: _moment_integral(n), _binomial_sum(n), f"the whole integral at α = {n}",
                    latex=rf"\int_{{-\infty}}^{{\infty}} \frac{{e^{{-z^2/(2\sigma^2)}}}}{{\sqrt{{2\pi}}\,\sigma}}"
                          rf"\left(1-q+qe^{{(2z-1)/(2\sigma^2)}}\right)^{n} dz = "
                          rf"\sum_{{k=0}}^{{{n}}}\binom{{{n}}}{{k}}(1-q)^{{{n}-k}}q^k e^{{(k^2-k)/(2\sigma^2)}}")
              for n in (2, 3)),
        ),
        expected=Verdict.PROVED,
        domain=Domain({sigma: sp.Interval.open(0, sp.oo), q: sp.Interval.Lopen(0, 1)}),
    ),
    Claim(
        id="mtz-integer-vs-integral",
        title="rdpsym's certified sampled-Gaussian RDP (integer α) agrees with the integral definition",
        source="Mironov–Talwar–Zhang 2019 §3; rdpsym.accounting.sampled_gaussian.log_moment vs "
               "the definition's integral (certified quadrature)",
        statement=r"\frac{\log A_\alpha}{\alpha-1} = D_\alpha\big((1-q)\mathcal N(0,\sigma^2)+q\mathcal N(1,\sigma^2)"
                  r"\,\big\|\,\mathcal N(0,\sigma^2)\big)\quad(\alpha\in\mathbb N)",
        steps=(Holds("|ε_rdpsym(α) − D_α(μ‖μ₀) at 50 digits| ≤ its error bar", _agrees,
                     "binomial sum in Arb balls vs quadrature of the mixture densities"),),
        expected=Verdict.CHECKED,
        domain=Domain(objects={"case": INTEGER_CASES}, samples=5, seed=32),
        note="q = 1e-3…1, σ = 0.7…5, α ∈ {2, …, 32}; the quadrature costs ~0.1 s a point, so a few points.",
    ),
    Claim(
        id="mtz-fractional",
        title="Fractional orders: rdpsym's quadrature is monotone in α and agrees with the integral",
        source="Mironov–Talwar–Zhang 2019 §3.3; Mironov 2017 Prop 9 (monotonicity)",
        statement=r"1<\alpha<\beta \implies \frac{\log A_\alpha}{\alpha-1}\le\frac{\log A_\beta}{\beta-1},\quad "
                  r"\frac{\log A_\alpha}{\alpha-1} = D_\alpha(\mu\|\mu_0)",
        steps=(
            Holds("ε(α) ≤ ε(β) for α < β (fractional and integer orders mixed)", _monotone,
                  "Rényi divergences are nondecreasing in the order (Prop 9); pairs (α, ⌈α⌉) and (⌊α⌋, α) compare "
                  "the quadrature with the binomial sum"),
            Holds("|ε_rdpsym(α) − D_α(μ‖μ₀) at 50 digits| ≤ its error bar", _agrees,
                  "certified trapezoidal rule vs quadrature of the mixture densities",
                  domain=Domain(objects={"case": FRACTIONAL_CASES}, samples=4, seed=33)),
        ),
        expected=Verdict.CHECKED,
        domain=MONOTONE,
        note="A property of the numerical method at sampled parameters (orders from 1 + 1e-30), not a theorem "
             "SymPy could prove; the agreement with the quadrature costs ~0.1 s a point, so 4 points.",
    ),
]
