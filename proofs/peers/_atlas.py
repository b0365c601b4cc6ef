"""Shared pieces of the atlas: symbols, the truth from the densities, and the sampled-Gaussian series.

Files starting with ``_`` are not claim files.  Nothing here runs at import: derivations are functions.

The fractional-order series of the Poisson-subsampled Gaussian (Mironov–Talwar–Zhang 2019 §3.3) is
shipped in two variants, written here once as the peers compute them (in mpmath, at ``DPS`` digits, so
that the claim judges the formula and its cut-off rule, not float64 rounding):

* dp_accounting 0.6.0 ``_compute_log_a_frac``: every term added with ``|C(α, i)|`` (SciPy's ``gammaln`` is
  log|Γ|), stopped at the first i where both parts decrease and the larger is below the total·e^{−30};
  +∞ after 1000 terms;
* TensorFlow Privacy 0.8.0 ``_compute_log_a_frac`` (copied by Opacus 1.6.0 and prv_accountant 0.2.0):
  the signed ``C(α, i)``, stopped at the first i where both parts are below e^{−30} (absolute).
"""

import functools

import mpmath
import sympy as sp
from flint import arb, fmpq

import rdpsym
from rdpsym import alpha
from rdpsym.accounting.sampled_gaussian import log_moment
from rdpsym.claims.finite import rational
from rdpsym.foundations.balls import precision, to_arb

sigma = sp.Symbol("sigma", positive=True)
q = sp.Symbol("q", positive=True)
eps = sp.Symbol("epsilon", positive=True)
p = sp.Symbol("p", positive=True)
lam = sp.Symbol("lambda", positive=True)

POSITIVE = sp.Interval.open(0, sp.oo)
ABOVE_ONE = sp.Interval.open(1, sp.oo)
BELOW_ONE = sp.Interval.open(0, 1)
UNIT = sp.Interval.open(0, 1)

#: Digits of a transcription evaluated in mpmath, and bits of the certified truth it is compared with.
DPS = 40
BITS = 400


@functools.cache
def gaussian_rdp(order=alpha, sensitivity=1):
    """rdpsym's derivation of D_order(N(0, σ²) ‖ N(sensitivity, σ²)), σ symbolic."""
    return rdpsym.gaussian(sigma=sigma, sensitivity=sensitivity).rdp(order).result


@functools.cache
def laplace_rdp(order=alpha):
    """rdpsym's derivation of D_order(Lap(0, λ) ‖ Lap(1, λ)), λ symbolic."""
    return rdpsym.laplace(scale=lam).rdp(order).result


@functools.cache
def rr_rdp(order=alpha):
    """rdpsym's derivation of D_order((p, 1−p) ‖ (1−p, p)) (binary randomized response), p symbolic."""
    return rdpsym.randomized_response(p).rdp(order).result


def mp(x) -> mpmath.mpf:
    """An exact rational (fmpq, SymPy Rational, int) as an mpf at the working precision."""
    x = rational(x)
    return mpmath.mpf(int(x.p)) / int(x.q)


def to_ball(x) -> arb:
    """An mpmath number (from a transcription at ``DPS`` digits) as a ball that contains it."""
    return arb(mpmath.nstr(x, DPS + 5, strip_zeros=False)) * (1 + arb(0, mpmath.mpf(10) ** (-DPS + 2)))


def ball(expr, values: dict | None = None) -> arb:
    """A SymPy expression (a peer's formula, a derived form) as a certified ball at ``BITS`` bits."""
    with precision(BITS):
        return to_arb(expr, values)


def sampled_gaussian_truth(qq: fmpq, s: fmpq, a: fmpq) -> arb:
    """D_a((1 − q)N(0, σ²) + qN(1, σ²) ‖ N(0, σ²)): rdpsym's certified ball (binomial sum at integer orders,
    certified quadrature at fractional ones; beyond/sampled_gaussian.py checks it against the definition)."""
    with precision(BITS):
        return log_moment(qq, s, a) / arb(a - 1)


def log_a_frac(qq, s, a, variant: str):
    """log A_α by the MTZ §3.3 series, as ``variant`` ("dp_accounting" or "tf_privacy") computes it."""
    with mpmath.workdps(DPS):
        qq, s, a = (mp(x) for x in (qq, s, a))
        z0 = s**2 * mpmath.log(1 / qq - 1) + mpmath.mpf(1) / 2
        parts = [mpmath.mpf(0), mpmath.mpf(0)]
        last = (mpmath.mpf("-inf"), mpmath.mpf("-inf"))
        for i in range(1000 if variant == "dp_accounting" else 10**6):
            coef = mpmath.binomial(a, i)
            j = a - i
            t0 = abs(coef) * qq**i * (1 - qq) ** j
            t1 = abs(coef) * qq**j * (1 - qq) ** i
            s0 = t0 * mpmath.exp((i * i - i) / (2 * s**2)) * mpmath.erfc((i - z0) / (mpmath.sqrt(2) * s)) / 2
            s1 = t1 * mpmath.exp((j * j - j) / (2 * s**2)) * mpmath.erfc((z0 - j) / (mpmath.sqrt(2) * s)) / 2
            sign = 1 if variant == "dp_accounting" or coef > 0 else -1
            parts = [parts[0] + sign * s0, parts[1] + sign * s1]
            log_s0, log_s1 = mpmath.log(s0), mpmath.log(s1)
            if variant == "dp_accounting":
                total = mpmath.log(parts[0] + parts[1])
                if log_s0 < last[0] and log_s1 < last[1] and max(log_s0, log_s1) < total - 30:
                    return total
                last = (log_s0, log_s1)
            elif max(log_s0, log_s1) < -30:
                return mpmath.log(parts[0] + parts[1])
        return mpmath.inf


def sampled_gaussian_peer(qq, s, a, variant: str) -> arb:
    """The peer's ε(α) = log A_α/(α − 1) from the series, as a ball around its mpmath value."""
    with mpmath.workdps(DPS):
        value = log_a_frac(qq, s, a, variant) / (mp(a) - 1)
    return to_ball(value)


def fractional_within(variant: str, relative):
    """A step's comparison: truth·(1 − ``relative``) ≤ the peer's series, at a point's (q, σ, α)."""
    def compare(point):
        qq, s, a = point["case"]
        truth = sampled_gaussian_truth(qq, s, a)
        return truth * (1 - arb(relative)), "<=", sampled_gaussian_peer(qq, s, a, variant)
    return compare


def sampled_gaussian_points(seed_cases, orders):
    """Seeded (q, σ, α) for an ``objects`` generator: the listed cases, then q = 10^{−3…−1/2}, σ in [0.8, 5]."""
    def generate(rng, i):
        if i < len(seed_cases):
            return tuple(fmpq(*c) if isinstance(c, tuple) else fmpq(c) for c in seed_cases[i])
        qq = fmpq(round(10 ** (-3 + rng.randint(0, 10) / 4) * 2**20), 2**20)
        s = fmpq(4, 5) + fmpq(rng.randint(0, 42 * 2**10), 10 * 2**10)
        return qq, s, rng.choice(orders)
    return generate
