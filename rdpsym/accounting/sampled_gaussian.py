"""The Poisson-subsampled Gaussian mechanism (DP-SGD): its RDP curve in certified balls.

Mironov, Talwar and Zhang, "Rényi Differential Privacy of the Sampled Gaussian
Mechanism" (2019, arXiv:1908.10530; "MTZ" below), Sec. 3: with noise
multiplier σ > 0, sampling rate q ∈ [0, 1] and order α > 1,

    A_α = E_{z∼N(0,σ²)}[ b(z)^α ],   b(z) = 1 − q + q·e^{u(z)},   u(z) = (2z − 1)/(2σ²),

and the RDP of one step is ε(α) = log(A_α)/(α − 1).  Edge cases are exact:
q = 0 gives A = 1 and ε = 0; q = 1 gives log A = α(α − 1)/(2σ²), ε = α/(2σ²).

Everything is computed as ``A_α − 1`` and then ``log1p``: A_α is within 10⁻³⁰
of 1 when q is small and σ large, and log(A) of a ball around 1 would keep only
absolute, not relative, accuracy.

Integer α (MTZ Sec. 3, the binomial expansion of b^α)
    A_α − 1 = Σ_{k=2}^{α} C(α,k)(1−q)^{α−k} q^k · expm1(k(k−1)/(2σ²)):
    the binomial weights sum to 1 and the k = 0, 1 terms have k(k−1) = 0, so
    this is a finite sum of positive terms; a ball sum is certified and loses
    no relative accuracy.  Arb has an unbounded exponent: no overflow at
    α = 10⁴ with tiny σ.

Fractional α: a *certified* trapezoidal rule
    MTZ's fractional-order series (Sec. 3.3) has signed terms that decay only
    like k^{−(α+2)}, so we integrate instead.  Using E[b] = 1,

        A_α − 1 = ∫ F,   F(z) = φ(z)·g(b(z)),   g(b) = b^α − 1 − α(b − 1) ≥ 0   (convexity),

    and sum h·F(j·h) over a window of the grid in ball arithmetic.  Three
    errors are bounded rigorously and added to the ball:

    * Discretisation (Trefethen & Weideman, SIAM Review 56 (2014), Thm 5.1):
      if F is analytic in the strip |Im z| < a, tends to 0 uniformly as
      |Re z| → ∞ there, and ∫|F(x+iy)|dx ≤ M for all |y| < a, then the full
      bi-infinite sum I_h satisfies |I_h − ∫F| ≤ 2M/(e^{2πa/h} − 1).
      Here b(z) ∉ (−∞, 0] for |Im u| < π (b real ≤ 0 would need e^u real
      negative), so F = φ·g(b) with the principal power is analytic for
      |Im z| < πσ²; its only singularities are branch points at
      z₀ ± iπσ²(2m+1), z₀ = σ² ln(1/q − 1) + ½ (MTZ's split point).  On the
      line Im z = y: |φ(x+iy)| = φ(x)·e^{y²/(2σ²)}, |b| ≤ 1 − q + q·e^{Re u} =
      b(x), |b^α| = |b|^α and |b − 1| ≤ q(e^{Re u} + 1), hence
      ∫|F(x+iy)|dx ≤ e^{a²/(2σ²)}·(A_α + 1 + 2αq) =: M, using ∫φ(x)e^{u(x)}dx = 1.
      We take a = s·σ² with a rational s < π (the best a is min(πσ², 2πσ²/h)).
      M contains the unknown A_α; it is bounded by the computed sum itself
      (see ``_frac_group``).
    * Truncation of the grid sum.  F ≥ 0 on the real line, so the dropped
      points add a ball [0, bound].  Left (z ≤ c ≤ ½): b ∈ [1 − q, 1], where
      g decreases, so g ≤ g(1 − q) = (1−q)^α − 1 + αq.  Right (z ≥ c' ≥ ½):
      1 ≤ b ≤ r·e^u with r = q + (1−q)e^{−u(c')}, so g ≤ b^α and
      F(z) ≤ r^α e^{(α²−α)/(2σ²)} φ(z − α), a shifted Gaussian.  For a unimodal
      f, h·Σ_{z_j ≥ c'} f(z_j) ≤ ∫_{c'}^∞ f + h·sup f (likewise to the left), and
      the Gaussian integrals are bounded with erfc(t) ≤ e^{−t²} (t ≥ 0).  For
      large α the bulk near z = 0 is negligible and the left cut may lie
      beyond ½; then [½, c) is bounded by the same shifted Gaussian.
    * Rounding: every operation is an Arb ball operation.

    The integrand is analytic only in a strip of half-width πσ² (about 3.8 at
    σ = 1.1), so the step is h ≈ 2π²σ²/(N + π²σ²/2) for N nats of accuracy,
    a few hundred points per order at 50 digits; the points (weights and
    log b) are shared by all fractional orders of a call.

Fractional α = n + f (0 < f < 1, n ≤ 64): shifted Gaussians, one grid, one matrix product
    b^{n+f} = b^f·b^n and b^n = Σ_k C(n,k)(1−q)^{n−k}q^k e^{ku}, while
    φ(z)e^{ku(z)} = e^{k(k−1)/(2σ²)}φ(z − k) (completing the square).  Hence

        A_{n+f} = Σ_{k=0}^{n} C(n,k)(1−q)^{n−k} q^k e^{k(k−1)/(2σ²)} B_f(k),   B_f(k) = E_{Z∼N(k,σ²)}[b(Z)^f],

    a sum of positive terms: every fractional order with fractional part f is
    a combination of the n + 1 numbers B_f(0..n).  Each B_f(k) is the
    trapezoid sum Σ_j h·φ(z_j − k)·b(z_j)^f on the grid z_j = j·h with
    h = 1/M, so φ(z_j − k) = φ(z_{j−kM}): all of them, for every f and k,
    are the entries of one product of Arb matrices W·C, W[k, j] = h·φ(z_{j−kM})
    and C[j, f] = b(z_j)^f (one exp and a chain of products per grid point).
    F = φ(· − k)·b^f is analytic in the same strip and is bounded there the
    same way, |F(x+iy)| ≤ e^{y²/(2σ²)}F(x), so the discretisation error is at
    most κ·B_f(k) with κ = 2e^{a²/(2σ²)}/(e^{2πa/h} − 1); the grid's left tail
    (b^f ≤ 1 for z ≤ ½) is at most a Gaussian tail of N(k, σ²), its right tail
    at most r^f e^{f(2k+f−1)/(2σ²)} times a Gaussian tail of N(k + f, σ²)
    (b ≤ r·e^u beyond the cut, as above).  This replaces one quadrature per
    order by one per grid (about 4× faster at the DP-SGD setting); where it
    would need too many points (small σ, large σ, n > 64) the per-order
    quadrature below is used.

Values (:func:`rdp_values`) are midpoints of these balls once their relative
radius is below 10^{−(dps+2)}; precision and grid are refined until it is, or
:class:`~rdpsym.foundations.errors.ConvergenceError` is raised.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from itertools import pairwise

import mpmath
from flint import arb, arb_mat, arb_poly, ctx, fmpq

from rdpsym.foundations.balls import BITS_PER_DIGIT, precision, to_fmpq
from rdpsym.foundations.errors import ConvergenceError, ParameterError, must
from rdpsym.foundations.numbers import rounded_mpf
from rdpsym.foundations.reading import integer

__all__ = ["log_moment", "log_moments", "rdp_values"]

_LN2 = math.log(2.0)
#: A rational below π: the strip half-width a = s·σ² must not exceed πσ².
_PI_BELOW = fmpq(314159, 100000)
#: Refinement rounds before giving up (each raises precision and tightens the grid).
_ROUNDS = 6
#: Orders whose ideal step sizes differ by at most this factor share one grid.
_GROUP_RATIO = 1.3
#: Integer orders up to this are summed together as one polynomial product (more than 4 of them).
_INT_SERIES_MAX = 64
#: Grid points one pass may use (a few seconds of work); beyond it we refuse rather than hang.
_MAX_POINTS = 2_000_000


# ----------------------------------------------------------------------------- public API


def log_moment(q: fmpq, sigma: fmpq, order: fmpq) -> arb:
    """A certified ball containing log A_α at the current ``flint.ctx.prec``.

    A_α = E_{z∼N(0,σ²)}[(1 − q + q·e^{(2z−1)/(2σ²)})^α] (MTZ 2019, Sec. 3); the
    relative radius is about 2^{−prec}.  At α = 2, A = 1 + q²(e^{1/σ²} − 1):

    >>> from flint import arb, fmpq
    >>> from rdpsym.foundations.balls import precision
    >>> q, s = fmpq(1, 100), fmpq(11, 10)
    >>> with precision(200):
    ...     b = log_moment(q, s, fmpq(2))
    ...     exact = (1 + arb(q) ** 2 * (1 / arb(s) ** 2).expm1()).log()
    ...     b.overlaps(exact), b.rel_accuracy_bits() >= 190
    (True, True)
    >>> with precision(100):
    ...     b = log_moment(q, s, fmpq(3, 2))   # fractional: certified quadrature
    ...     b.rel_accuracy_bits() >= 90
    True
    """
    return log_moments(q, sigma, [order])[0]


def log_moments(q: fmpq, sigma: fmpq, orders: Sequence[fmpq]) -> list[arb]:
    """Certified balls containing log A_α for each order, at the current ``ctx.prec``.

    Integer orders share one table of expm1(k(k−1)/(2σ²)); fractional orders
    share one quadrature grid (or a few, when their step sizes differ a lot).

    >>> from flint import fmpq
    >>> from rdpsym.foundations.balls import precision
    >>> with precision(64):
    ...     [b.str(5) for b in log_moments(fmpq(1, 100), fmpq(11, 10), [fmpq(3, 2), fmpq(2), fmpq(64)])]
    ['[4.7773e-5 +/- ...]', '[0.00012851 +/- ...]', '[1371.4 +/- ...]']
    """
    q, sigma, orders = _parse(q, sigma, orders)
    prec = ctx.prec
    balls = _log_moments(q, sigma, orders, target=prec, strict=False)
    with precision(prec):
        return [+b for b in balls]


def rdp_values(q: fmpq, sigma: fmpq, orders: Sequence[fmpq], dps: int) -> list[mpmath.mpf]:
    """ε(α) = log(A_α)/(α − 1) for each order, correct to ``dps`` significant digits.

    Each value is the midpoint of a certified ball whose relative radius is
    below 10^{−(dps+2)}; work is refined until it is, else
    :class:`~rdpsym.foundations.errors.ConvergenceError`.  Values carry dps + 5 digits.

    >>> import mpmath
    >>> from flint import fmpq
    >>> e2, e25 = rdp_values(fmpq(1, 100), fmpq(11, 10), [fmpq(2), fmpq(5, 2)], dps=30)
    >>> with mpmath.workdps(40):   # α = 2 in closed form: log(1 + q²(e^{1/σ²} − 1))
    ...     exact = mpmath.log1p(mpmath.expm1(mpmath.mpf(100) / 121) / 10**4)
    ...     abs(e2 / exact - 1) < mpmath.mpf(10) ** -30
    True
    >>> mpmath.nstr(e25, 20)
    '0.00016207740937000374605'
    """
    try:
        dps = integer(dps, "dps", minimum=1)  # an int, or a NumPy integer
    except ParameterError:
        raise ParameterError(must("dps", "a positive integer (dps >= 1)", dps)) from None
    q, sigma, orders = _parse(q, sigma, orders)
    target = math.ceil((dps + 2) * BITS_PER_DIGIT) + 2
    balls = _log_moments(q, sigma, orders, target=target, strict=True)
    out = []
    with precision(target + 40):
        for order, ball in zip(orders, balls):
            eps = ball / arb(order - 1)
            if not eps.is_finite() or (not eps.is_zero() and eps.rel_accuracy_bits() < target):
                raise ConvergenceError(
                    f"rdp_values: epsilon at order {order} (q={q}, sigma={sigma}) is {eps.str(5)}, "
                    f"not certified to {dps} digits."
                )
            out.append(rounded_mpf(eps, dps + 5))  # the midpoint to dps + 5 digits, whatever mpmath's precision
    return out


# ----------------------------------------------------------------------------- input checks


def _rational(name: str, value: object, valid: str) -> fmpq:
    try:
        return to_fmpq(value)
    except (ParameterError, TypeError, ValueError, AttributeError, ArithmeticError):
        raise ParameterError(must(name, f"an exact rational {valid}", value)) from None


def _parse(q, sigma, orders) -> tuple[fmpq, fmpq, list[fmpq]]:
    qv, sv = "in [0, 1] (0 <= q <= 1)", "positive (sigma > 0)"
    ov = "greater than 1 (order > 1)"
    q = _rational("q", q, qv)
    if not 0 <= q <= 1:
        raise ParameterError(must("q", qv, q))
    sigma = _rational("sigma", sigma, sv)
    if not sigma > 0:
        raise ParameterError(must("sigma", sv, sigma))
    if isinstance(orders, (str, bytes)) or not isinstance(orders, Sequence):
        raise ParameterError(must("orders", "a sequence of orders", orders))
    parsed = []
    for order in orders:
        a = _rational("order", order, ov)
        if not a > 1:
            raise ParameterError(must("order", ov, a))
        parsed.append(a)
    return q, sigma, parsed


# ----------------------------------------------------------------------------- dispatch


def _log_moments(q: fmpq, sigma: fmpq, orders: list[fmpq], target: int, strict: bool) -> list[arb]:
    """Balls for log A_α aiming at ``target`` bits of relative accuracy (any precision)."""
    s2 = sigma * sigma
    if q == 0:  # b ≡ 1: A = 1 exactly
        return [arb(0) for _ in orders]
    if q == 1:  # E[e^{αu}] = e^{α(α−1)/(2σ²)} exactly (Gaussian MGF)
        with precision(target + 10):
            return [arb(a * (a - 1) / (2 * s2)) for a in orders]
    out: list[arb | None] = [None] * len(orders)
    ints = sorted({int(a.p) for a in orders if a.q == 1})
    if ints:
        table = dict(zip(ints, _int_log_moments(q, s2, ints, target, strict)))
        for i, a in enumerate(orders):
            if a.q == 1:
                out[i] = table[int(a.p)]
    # Keyed by (p, q) integers: hashing an fmpq goes through a Fraction, slow for a grid of orders.
    keys = sorted({(int(a.p), int(a.q)) for a in orders if a.q != 1}, key=lambda pq: fmpq(*pq))
    if keys:
        table = dict(zip(keys, _frac_log_moments(q, sigma, [fmpq(*pq) for pq in keys], target, strict)))
        for i, a in enumerate(orders):
            if a.q != 1:
                out[i] = table[int(a.p), int(a.q)]
    return out  # type: ignore[return-value]


def _accurate(ball: arb, target: int) -> bool:
    return ball.is_finite() and (ball.is_zero() or ball.rel_accuracy_bits() >= target)


# ----------------------------------------------------------------------------- integer orders


def _int_log_moments(q: fmpq, s2: fmpq, ns: list[int], target: int, strict: bool) -> list[arb]:
    """MTZ 2019 Sec. 3 binomial sum for A − 1 (positive terms), then log1p.

    A_n − 1 = Σ_{k=2}^{n} w_k E_k with the binomial weights w_k = C(n,k)(1−q)^{n−k}q^k and
    E_k = expm1(k(k−1)/(2σ²)), summed from k = n down.  The weights sum to at most 1 and E_k
    increases with k, so the terms below any m add at most E_m: once E_m is below the last
    bit of the partial sum the rest is added as the ball [0, E_m] and the loop stops (at
    q = 0.01, σ = 1.1 the order 1024 needs 7 terms, not 1023).  The E_k come from
    expm1(a + b) = expm1(a) + expm1(b) + expm1(a)·expm1(b), a sum of positive terms, along
    each run of consecutive k.
    """
    top = max(ns)
    # Guard bits: the recurrences lose ~log2(n) bits, exp of an argument of size x loses log2(x) bits.
    biggest = fmpq(top * top) / (2 * s2)  # the largest exp argument, ~2^(this many bits)
    guard = 26 + 2 * top.bit_length() + max(0, int(biggest.p).bit_length() - int(biggest.q).bit_length())
    prec = target + guard
    for _ in range(_ROUNDS):
        with precision(prec):
            balls = _int_sums(q, s2, ns, prec)
        if all(_accurate(b, target) for b in balls):
            return balls
        prec = prec * 3 // 2
    if strict or not all(b.is_finite() for b in balls):
        raise ConvergenceError(f"log A at integer orders did not reach {target} bits (q={q}, sigma^2={s2}).")
    return balls


def _int_sums(q: fmpq, s2: fmpq, ns: list[int], prec: int) -> list[arb]:
    """log A_n for each n at the current precision (see :func:`_int_log_moments`)."""
    c = fmpq(1, 1) / (2 * s2)
    table: dict[int, arb] = {}

    def run(lo: int, hi: int) -> None:
        """E_k for k in [lo, hi], by the positive recurrence from a direct expm1 at lo."""
        e = arb(c * (lo * (lo - 1))).expm1()
        step = arb(c * (2 * lo)).expm1()  # expm1(x_{k+1} − x_k) = expm1(2kc), itself a recurrence in k
        d = arb(c * 2).expm1()
        for k in range(lo, hi + 1):
            if k not in table:
                table[k] = e
            e = e + step + e * step
            step = step + d + step * d

    # Plan, in doubles, where each sum can stop (the top term alone bounds the total from below);
    # the ball loop below decides, and extends the table if the plan stopped too early.
    log_q, cf, budget = _log_rational(q), float(c), (prec + 8) * _LN2
    starts = {}
    for n in ns:
        rhs = n * (n - 1) * cf + n * log_q - budget  # x_m below this: E_m negligible against q^n E_n
        m = 2 if rhs <= 0 else max(2, int(math.floor((1 + math.sqrt(1 + 4 * rhs / cf)) / 2)) - 1)
        starts[n] = min(m, n)
    for lo, hi in _runs([(starts[n], n) for n in ns]):
        run(lo, hi)

    qa, p0 = arb(q), arb(1 - q)
    # Small orders at once: (A_n − 1)/n! = Σ_k [(1−q)^{n−k}/(n−k)!]·[q^k E_k/k!] is the coefficient of x^n
    # in e^{(1−q)x}·Σ_k q^k E_k x^k/k!, one product of polynomials with positive coefficients.
    small = [n for n in ns if n <= _INT_SERIES_MAX]
    series: dict[int, arb] = {}
    if len(small) > 4:
        top = max(small)
        run(2, top)
        fact = [arb(1)]
        for j in range(1, top + 1):
            fact.append(fact[-1] * j)
        qk, p0j, left, right = arb(1), arb(1), [], []
        for j in range(top + 1):
            left.append(p0j / fact[j])
            right.append(qk * table[j] / fact[j] if j >= 2 else arb(0))
            p0j, qk = p0j * p0, qk * qa
        product = (arb_poly(left) * arb_poly(right)).coeffs()
        series = {n: (product[n] * fact[n]).log1p() for n in small}
    ratio = p0 / qa
    tiny = arb(2) ** (-prec - 8)
    out = []
    for n in ns:
        if n in series:
            out.append(series[n])
            continue
        term = qa**n  # C(n,n) q^n
        total = arb(0)
        for k in range(n, 1, -1):
            if k not in table:
                run(k, k)
            total += term * table[k]
            if k > 2:
                if k - 1 not in table:
                    run(max(2, k - 16), k - 1)
                rest = table[k - 1]
                if not total.is_zero() and rest < total * tiny:
                    total += arb(0).union(rest.upper())
                    break
                term = term * ratio * k / (n - k + 1)
        out.append(total.log1p())
    return out


def _runs(intervals: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The union of integer intervals as disjoint runs (touching runs merged)."""
    merged: list[list[int]] = []
    for lo, hi in sorted(intervals):
        if merged and lo <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    return [(lo, hi) for lo, hi in merged]


# ----------------------------------------------------------------------------- fractional orders


def _logaddexp(x: float, y: float) -> float:
    if x == -math.inf:
        return y
    if y == -math.inf:
        return x
    m = max(x, y)
    return m + math.log1p(math.exp(-abs(x - y)))


def _log_expm1(x: float) -> float:
    """log(e^x − 1) for x > 0, without overflow."""
    return x + math.log1p(-math.exp(-x)) if x > 30 else math.log(math.expm1(x))


def _log_rational(r: fmpq) -> float:
    return math.log(int(r.p)) - math.log(int(r.q))


class _Floats:
    """Double-precision logs of the parameters, for planning only (never in a result)."""

    def __init__(self, q: fmpq, sigma: fmpq):
        self.log_q = _log_rational(q)
        self.log_1mq = _log_rational(1 - q)
        self.sigma = float(sigma)
        self.inv_2s2 = 1 / (2 * self.sigma**2)
        self.q = math.exp(self.log_q)
        self._memo: dict[int, float] = {}

    def log_am1_int(self, n: int) -> float:
        """log(A_n − 1) for an integer n ≥ 2 (a log-sum of the positive binomial terms)."""
        if n in self._memo:
            return self._memo[n]
        out = -math.inf
        lg = math.lgamma(n + 1)
        for k in range(2, n + 1):
            t = (lg - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * self.log_q
                 + (n - k) * self.log_1mq + _log_expm1(k * (k - 1) * self.inv_2s2))
            out = _logaddexp(out, t)
        self._memo[n] = out
        return out

    def log_log_a_int(self, n: int) -> float:
        """log(log A_n) (−inf at n = 1, where A = 1)."""
        if n == 1:
            return -math.inf
        la = self.log_am1_int(n)
        if la < -30:
            return la
        return math.log(la + math.log1p(math.exp(-la)) if la > 30 else math.log1p(math.exp(la)))

    def estimate(self, alpha: fmpq) -> tuple[float, float]:
        """(log(A_α − 1), log A_α) from the chord of the convex α ↦ log A_α between integers."""
        n0 = int(alpha.p // alpha.q)
        # Weights from exact fractions: α may lie 10⁻⁹⁰ from an integer.
        log_w, log_1mw = _log_rational(alpha - n0), _log_rational(n0 + 1 - alpha)
        ll = _logaddexp(log_1mw + self.log_log_a_int(n0), log_w + self.log_log_a_int(n0 + 1))
        # The chord can be far too high for small σ; q = 1 caps log A at α(α−1)/(2σ²).
        # α − 1 formed exactly: float(α) is 1.0 when α − 1 < 1e-16.
        ll = min(ll, math.log(float(alpha)) + _log_rational(alpha - 1) + math.log(self.inv_2s2))
        if ll < -30:
            return ll, math.exp(ll)
        log_a = math.exp(min(ll, 700.0))
        return _log_expm1(log_a), log_a


class _Order:
    """Planning state of one fractional order across refinement rounds."""

    def __init__(self, alpha: fmpq, fl: _Floats):
        self.alpha = alpha
        self.af = float(alpha)
        self.log_am1 = _log_rational(alpha - 1)  # exact: float(α) − 1 is 0 for α − 1 < 1e-16
        self.log_est, self.log_a = fl.estimate(alpha)  # log(A − 1), log A (estimates)
        self.margin = 10  # extra bits beyond the target
        self.ball: arb | None = None  # the current ball for log A

    def log_m0(self, fl: _Floats) -> float:
        """log(A + 1 + 2αq): the bound M of the discretisation theorem, over e^{a²/(2σ²)}."""
        return _logaddexp(self.log_a, math.log(1 + 2 * self.af * fl.q))

    def nats(self, fl: _Floats, target: int) -> float:
        """Nats of accuracy the discretisation error must reach relative to M/(A − 1)."""
        return (target + self.margin) * _LN2 + self.log_m0(fl) - self.log_est

    def ideal_step(self, fl: _Floats, target: int) -> float:
        n = self.nats(fl, target) + _LN2
        s = fl.sigma
        if math.pi**2 * s * s >= 2 * n:  # a = 2πσ²/h < πσ²: error ≈ 2e^{−2π²σ²/h²}
            return math.pi * s * math.sqrt(2 / n)
        return 2 * math.pi**2 * s * s / (n + math.pi**2 * s * s / 2)  # a ≈ πσ²


def _frac_log_moments(q: fmpq, sigma: fmpq, alphas: list[fmpq], target: int, strict: bool) -> list[arb]:
    if not fmpq(1, 10**60) < sigma < 10**60:  # the planning runs in double precision
        raise ConvergenceError(f"fractional orders need 1e-60 < sigma < 1e60; got sigma={sigma}.")
    fl = _Floats(q, sigma)
    shifted = _shifted_share(fl, alphas)
    if shifted:
        fast = _shifted_log_moments(q, sigma, fl, shifted, target)
        if fast is not None:
            done = dict(zip(((int(a.p), int(a.q)) for a in shifted), fast))
            rest = [a for a in alphas if (int(a.p), int(a.q)) not in done]
            if rest:
                done.update(zip(((int(a.p), int(a.q)) for a in rest), _frac_log_moments_per_order(
                    q, sigma, fl, rest, target, strict)))
            return [done[int(a.p), int(a.q)] for a in alphas]
    return _frac_log_moments_per_order(q, sigma, fl, alphas, target, strict)


def _shifted_share(fl: _Floats, alphas: list[fmpq]) -> list[fmpq]:
    """The orders worth computing by the shifted-Gaussian matrix: those with ⌊α⌋ ≤ n, for the n that
    minimises a rough cost model (microseconds; the rest go to the per-order quadrature)."""
    whole = sorted({int(a.p // a.q) for a in alphas})
    count = {n: 0 for n in whole}
    parts: dict[int, set] = {n: set() for n in whole}
    for a in alphas:
        n = int(a.p // a.q)
        count[n] += 1
        parts[n].add((int((a - n).p), int((a - n).q)))
    per_order = 140.0 * max(1.0, 1.1 / fl.sigma)  # one order of the per-order quadrature
    width = 2 * fl.sigma * math.sqrt(2 * 170) + 1
    step = min(1.0, 2 * math.pi**2 * fl.sigma**2 / (170 + math.pi**2 * fl.sigma**2 / 2))
    best, best_cost = None, per_order * len(alphas)
    seen: set = set()
    done = 0
    for n in whole:
        if n > _SHIFT_MAX_N:
            break
        seen |= parts[n]
        done += count[n]
        points = (width + n) / step
        cost = (points * (2.5 + 0.12 * (n + 1 + len(seen)) + 0.03 * (n + 1) * len(seen))
                + per_order * (len(alphas) - done))
        if cost < best_cost:
            best, best_cost = n, cost
    if best is None:
        return []
    return [a for a in alphas if int(a.p // a.q) <= best]


def _frac_log_moments_per_order(q: fmpq, sigma: fmpq, fl: _Floats, alphas: list[fmpq], target: int,
                                strict: bool) -> list[arb]:
    """log A_α for fractional α by one certified trapezoid quadrature per order (module docstring)."""
    orders = [_Order(a, fl) for a in alphas]
    pending = list(orders)
    for _ in range(_ROUNDS):
        pending.sort(key=lambda o: -o.ideal_step(fl, target))
        groups: list[list[_Order]] = []
        for o in pending:
            if groups and o.ideal_step(fl, target) * _GROUP_RATIO >= groups[-1][0].ideal_step(fl, target):
                groups[-1].append(o)
            else:
                groups.append([o])
        for group in groups:
            _frac_group(q, sigma, fl, group, target)
        still = []
        for o in pending:
            if _accurate(o.ball, target):
                continue
            o.margin += 16
            still.append(o)
        pending = still
        if not pending:
            break
    unusable = [o for o in pending if strict or not o.ball.is_finite()]  # never hand out a NaN
    if unusable:
        o = unusable[0]
        raise ConvergenceError(
            f"log A at order {o.alpha} (q={q}, sigma={sigma}) is {o.ball.str(5)}: "
            f"not certified to {target} bits after {_ROUNDS} refinements."
        )
    return [o.ball for o in orders]


#: The shifted-Gaussian method: at most this n = ⌊α⌋, and at most this many grid points × (matrix rows + columns).
_SHIFT_MAX_N = 64
_SHIFT_MAX_WORK = 60_000


def _shifted_log_moments(q: fmpq, sigma: fmpq, fl: _Floats, alphas: list[fmpq], target: int) -> list[arb] | None:
    """log A_α for fractional α by the shifted-Gaussian matrix (module docstring), or None where it does not apply.

    Refined (more margin) until every ball reaches ``target`` bits, else None: the caller then uses
    the per-order quadrature, which decides what to report.
    """
    if not 0 < q < 1:
        return None
    whole = [int(a.p // a.q) for a in alphas]
    if max(whole) > _SHIFT_MAX_N:
        return None
    # Keys as integer pairs: hashing an fmpq goes through a Fraction, slow in a loop.
    parts = sorted({(int((a - n).p), int((a - n).q)) for a, n in zip(alphas, whole)}, key=lambda pq: pq[0] / pq[1])
    # A − 1 is what log1p needs: its relative accuracy costs log(A/(A − 1)) nats more than A's, most at
    # the smallest order (A_α increases with α).
    log_am1, log_a = fl.estimate(min(alphas))
    lost = max(0.0, log_a - log_am1)
    margin = 8
    for _ in range(3):
        out = _shifted_pass(q, sigma, fl, alphas, whole, parts, target + margin, lost)
        if out is None:
            return None
        if all(_accurate(b, target) for b in out):
            return out
        margin += 40
    return None


def _grid_points_per_unit(h_ideal: float) -> int:
    """M for the step h = 1/M ≤ ``h_ideal`` (integer shifts k are then kM grid points)."""
    return max(1, math.ceil(1 / h_ideal))


def _shifted_pass(q: fmpq, sigma: fmpq, fl: _Floats, alphas: list[fmpq], whole: list[int],
                  parts: list[tuple[int, int]], bits: int, lost: float) -> list[arb] | None:
    """One evaluation of the shifted-Gaussian sums aiming at ``bits`` relative bits for log A."""
    s, s2 = fl.sigma, fl.sigma**2
    n_max = max(whole)
    f_max = max(p / d for p, d in parts)
    nats = bits * _LN2 + lost + 4
    # The step: as for the per-order quadrature, a ≈ πσ² unless the strip allows more; h = 1/M.
    if math.pi**2 * s2 >= 2 * nats:
        h_ideal = math.pi * s * math.sqrt(2 / nats)
    else:
        h_ideal = 2 * math.pi**2 * s2 / (nats + math.pi**2 * s2 / 2)
    m = _grid_points_per_unit(h_ideal)
    h = fmpq(1, m)
    # The window: Gaussian tails of N(k, σ²) below and of N(k + f, σ²) above, relative to B_f(k) ≥ (1 − q)^f.
    extra = nats + f_max * -fl.log_1mq + 2
    z_lo = min(0.0, -s * math.sqrt(2 * extra))
    z_hi = max(0.5, n_max + f_max + s * math.sqrt(2 * (extra + f_max * (2 * n_max + f_max) / (2 * s2))))
    j_lo, j_hi = math.floor(z_lo * m) - 1, math.ceil(z_hi * m) + 1
    points = j_hi - j_lo + 1
    if points * (n_max + 1 + len(parts)) > _SHIFT_MAX_WORK:
        return None
    # Working bits: A − 1 cancels log(A/(A − 1)) nats; sums of `points` positive terms lose log2(points)
    # bits; e^{k(k−1)/(2σ²)} loses the bits of its argument.  (Fewer limbs is much faster: at the DP-SGD
    # setting this stays within four 64-bit limbs.)
    big = n_max**2 / (2 * s2) + abs(z_lo) / s2 + 1
    prec = bits + 8 + math.ceil(lost / _LN2 + math.log2(points) + math.log2(big))
    den = math.lcm(*(d for _, d in parts))
    with precision(prec):
        qa, one_mq = arb(q), arb(1 - q)
        sig = arb(sigma)
        two_s2 = 2 * sigma * sigma
        hb = arb(h)
        norm = 1 / (sig * (2 * arb.pi()).sqrt())
        # Weights h·φ(i·h) for 0 ≤ i ≤ I (φ is even): φ((i+1)h) = φ(ih)·g^{2i+1}, g = e^{−h²/(2σ²)}.
        i_max = max(abs(j_lo - n_max * m), abs(j_hi))
        g = arb(-(h * h) / two_s2).exp()
        g2 = g * g
        weights = []
        w, t = hb * norm, g
        for _ in range(i_max + 1):
            weights.append(w)
            w = w * t
            t = t * g2
        # b(z_j) = (1 − q) + q·e^{u(z_j)}, e^{u(z_{j+1})} = e^{u(z_j)}·e^{h/σ²}; then b^f by a chain of products.
        e_u = arb((2 * h * j_lo - 1) / two_s2).exp()
        step = arb(2 * h / two_s2).exp()
        use_chain = den <= 32
        wanted = [p * (den // d) - 1 for p, d in parts] if use_chain else []  # indices into b^{1/den}, b^{2/den}, …
        top = max(wanted) + 1 if use_chain else 0
        exponents = [arb(fmpq(p, d)) for p, d in parts]
        rows = []
        for _ in range(points):
            b = one_mq + qa * e_u
            if use_chain:
                root = b.root(den)
                chain = [root]
                for _ in range(top - 1):
                    chain.append(chain[-1] * root)
                rows.append(chain if len(wanted) == top else [chain[i] for i in wanted])
            else:
                lb = b.log()
                rows.append([(x * lb).exp() for x in exponents])
            e_u = e_u * step
        # (Setting entries one by one is about twice as fast as building an arb_mat from nested lists.)
        wmat = arb_mat(n_max + 1, points)
        for k in range(n_max + 1):
            base = j_lo - k * m
            for jj in range(points):
                wmat[k, jj] = weights[abs(base + jj)]
        cmat = arb_mat(points, len(parts))
        for jj, row in enumerate(rows):
            for fi, value in enumerate(row):
                cmat[jj, fi] = value
        sums = wmat * cmat  # sums[k, fi] = Σ_j h·φ(z_j − k)·b(z_j)^f
        # Error bounds: discretisation (relative κ) and the two truncated tails, for each k (worst f).
        # a = s·σ² with s < π (h ≤ 1 here, so the strip is never the narrower 2π/h)
        a_s2 = _PI_BELOW * sigma * sigma
        kappa = 2 * arb(_PI_BELOW * a_s2 / 2).exp() / (2 * arb.pi() * arb(a_s2 / h)).expm1()
        if not kappa < 1:
            return None
        c_l, c_r = h * (j_lo - 1), h * (j_hi + 1)
        fm = max(fmpq(p, d) for p, d in parts)
        r_cut = qa + one_mq * arb(-(2 * c_r - 1) / two_s2).exp()  # b ≤ r·e^u for z ≥ c_r
        tails = []
        for k in range(n_max + 1):
            left = arb(-((k - c_l) ** 2) / two_s2).exp() / 2 + hb * norm * arb(-((c_l - k) ** 2) / two_s2).exp()
            shift = c_r - k - fm
            right = (r_cut.log() * arb(fm)).exp().max(arb(1)) * arb(fm * (2 * k + fm - 1) / two_s2).exp() * (
                arb(-(shift * shift) / two_s2).exp() / 2 + hb * norm * arb(-(shift * shift) / two_s2).exp())
            tails.append(left + right)
        index = {pq: fi for fi, pq in enumerate(parts)}
        table: list[list[arb]] = []  # table[fi][k]
        for fi in range(len(parts)):
            column = []
            for k in range(n_max + 1):
                total = sums[k, fi]
                up = (total + tails[k]) / (1 - kappa)
                err = kappa * up
                column.append((total - err).union(total + tails[k] + err))
            table.append(column)
        # A_{n+f} = Σ_k C(n,k)(1−q)^{n−k} q^k e^{k(k−1)/(2σ²)} B_f(k): one more matrix product, rows n.
        ns = sorted(set(whole))
        shifts = [arb(fmpq(k * (k - 1)) / two_s2).exp() for k in range(n_max + 1)]
        ratio = qa / one_mq
        coef = []
        for n in ns:
            weight, row = one_mq**n, []
            for k in range(n_max + 1):
                if 0 < k <= n:
                    weight = weight * ratio * (n - k + 1) / k
                row.append(weight * shifts[k] if k <= n else arb(0))
            coef.append(row)
        moments = arb_mat(coef) * arb_mat([list(r) for r in zip(*table)])  # moments[n row, f] = A_{n+f}
        row_of = {n: i for i, n in enumerate(ns)}
        out = []
        for a, n in zip(alphas, whole):
            f = a - n
            am1 = moments[row_of[n], index[int(f.p), int(f.q)]] - 1
            out.append(am1.log1p() if am1 > -0.5 else arb(0).union(am1.upper().log1p()))
    return out


def _better(new: arb, old: arb) -> bool:
    if not old.is_finite():
        return True
    return new.is_finite() and new.rel_accuracy_bits() > old.rel_accuracy_bits()


def _step(value: float) -> fmpq:
    """A rational step ≤ value with a short denominator (a power of two)."""
    k = 12 - math.floor(math.log2(value))
    return fmpq(math.floor(value * 2.0**k), 2**k) if k >= 0 else fmpq(math.floor(value * 2.0**k) * 2 ** (-k))


def _cuts(o: _Order, fl: _Floats, h: float, log_tau: float) -> tuple[float, float]:
    """Float cut points (c, c') whose truncation bounds are about ≤ e^{log_tau}.

    The bounds mirror the certified ones in ``_frac_group`` with erfc(x) ≤ e^{−x²}.
    """
    a, s2i = o.af, fl.inv_2s2
    hphi = h / (fl.sigma * math.sqrt(2 * math.pi))
    shift = (a * a - a) * s2i  # log of e^{(α²−α)/(2σ²)}
    log_gl = min(math.log(a) + fl.log_q,
                 math.log(a / 2) + o.log_am1 + 2 * fl.log_q + max(0.0, (a - 2) * -fl.log_1mq))
    lhalf, lone = math.log(0.5 + hphi), math.log(1 + hphi)

    def right(c: float) -> float:  # c ≥ ½, decreasing
        u = (2 * c - 1) * s2i
        log_r = _logaddexp(fl.log_q, fl.log_1mq - u)  # r = q + (1 − q)e^{−u}
        tail = lone if c < a else lhalf - (c - a) ** 2 * s2i
        return a * log_r + shift + tail

    def left(c: float) -> float:  # increasing
        if c <= 0.5:
            return log_gl + (lhalf - c * c * s2i if c <= 0 else lone)
        near = lone if c > a else lhalf - (a - c) ** 2 * s2i
        return _logaddexp(log_gl + lone, shift + near)

    def bisect(f, lo: float, hi: float, want_low: bool) -> float:
        for _ in range(80):  # a quarter step is resolution enough (and doubles run out at ~60)
            if hi - lo <= h / 4:
                break
            mid = (lo + hi) / 2
            ok = f(mid) <= log_tau
            if want_low:  # smallest point with f ≤ tau (f decreasing)
                lo, hi = (lo, mid) if ok else (mid, hi)
            else:  # largest point with f ≤ tau (f increasing)
                lo, hi = (mid, hi) if ok else (lo, mid)
        return hi if want_low else lo

    if right(0.5) <= log_tau:
        c_right = 0.5
    else:
        hi = max(a, 0.5) + fl.sigma
        while right(hi) > log_tau:
            hi += hi - 0.5
        c_right = bisect(right, 0.5, hi, want_low=True)
    if left(c_right) <= log_tau:
        c_left = c_right
    elif left(0.0) > log_tau:  # the cut is at c < 0, where the bound is a Gaussian: solve it
        c_left = -math.sqrt((log_gl + lhalf - log_tau) / s2i)
    else:
        c_left = bisect(left, 0.0, c_right, want_low=False)
    return c_left, c_right


def _frac_group(q: fmpq, sigma: fmpq, fl: _Floats, group: list[_Order], target: int) -> None:
    """One certified trapezoid pass for orders sharing the step h; sets ``o.ball``."""
    h = _step(min(o.ideal_step(fl, target) for o in group))
    hf = float(h)
    s2 = sigma * sigma
    plans = []
    prec = 0
    for o in group:
        bits = target + o.margin
        c, c2 = _cuts(o, fl, hf, o.log_est - (bits + 3) * _LN2)
        j_right = math.ceil(c2 / hf) - 1  # excluded right: z ≥ (j_right + 1)h ≥ c'
        j_left = min(math.floor(c / hf) + 1, j_right)  # excluded left: z ≤ (j_left − 1)h ≤ c
        plans.append((o, j_left, j_right))
        # Guard bits: cancellation (Σ|terms| ≤ M vs A − 1), the number of terms,
        # and exp/log of arguments as large as α·u and z²/(2σ²).
        u_max = max(0.0, (2 * c2 - 1) * fl.inv_2s2)
        big = max(o.af * (u_max - fl.log_1mq), max(c * c, c2 * c2) * fl.inv_2s2)
        # Σ|terms| ≤ M while the sum is A − 1; chained products widen by ~log2(chain) bits.
        cancel = max(0.0, (o.log_m0(fl) - o.log_est) / _LN2) + math.log2(1 + len(group))
        prec = max(prec, bits + 20 + math.ceil(cancel + math.log2(2 + j_right - j_left) + math.log2(1 + big)))
    span = max(jr for _, _, jr in plans) - min(jl for _, jl, _ in plans) + 1
    if span > _MAX_POINTS:
        raise ConvergenceError(
            f"the certified quadrature at q={q}, sigma={sigma} would need {span} grid points "
            f"(step {hf:.3g}); more than {_MAX_POINTS}."
        )
    with precision(prec):
        qa, one_mq = arb(q), arb(1 - q)  # 1 − q from the exact rational: q may be 1 − 10⁻³⁰⁰
        # log(1 − q): log1p keeps small q relative, the exact 1 − q keeps q near 1.
        small_q = q <= fmpq(1, 2)
        log_1mq = (-qa).log1p() if small_q else one_mq.log()
        sig = arb(sigma)
        norm = 1 / (sig * (2 * arb.pi()).sqrt())  # 1/(σ√(2π))
        hn = arb(h) * norm
        two_s2 = 2 * s2

        def phi(z: fmpq) -> arb:
            return norm * arb(-(z * z) / two_s2).exp()

        def tail(x: fmpq) -> arb:  # ≥ ∫_x^∞ φ, by erfc(t) ≤ e^{−t²} for t ≥ 0
            return arb(-(x * x) / two_s2).exp() / 2 if x >= 0 else arb(1)

        # Shared by all orders: weights h·φ(z_j), log b(z_j), prefix sums of the weights and of h·φ·(b − 1).
        j0 = min(jl for _, jl, _ in plans)
        j1 = max(jr for _, _, jr in plans)
        weights, log_bs, wsums, tilts = [], [], [arb(0)], [arb(0)]
        for j in range(j0, j1 + 1):
            z = h * j
            w = hn * arb(-(z * z) / two_s2).exp()
            em1 = arb((2 * z - 1) / two_s2).expm1()
            d = qa * em1  # b − 1 = q·expm1(u): relative accuracy near u = 0, where b ≈ 1
            weights.append(w)
            # log b: log1p(d) while b ≥ ½ (always when q ≤ ½); else from b = (1 − q) + q·e^u,
            # which has no cancellation near b = 0 (q close to 1, z → −∞).
            near_one = small_q or em1 > -0.5
            log_bs.append(d.log1p() if near_one else (one_mq + qa * (em1 + 1)).log())
            wsums.append(wsums[-1] + w)
            tilts.append(tilts[-1] + w * d)

        # Discretisation: a = sσ² with s = min(π, 2π/h) rounded down (any 0 < a ≤ πσ² is valid).
        strip = _PI_BELOW if hf < 2 else min(_PI_BELOW, fmpq(*(2 * math.pi / hf * (1 - 1e-9)).as_integer_ratio()))
        # 2e^{a²/(2σ²)}/(e^{2πa/h} − 1) with a = strip·σ²
        kappa = 2 * arb(strip * strip * s2 / 2).exp() / (2 * arb.pi() * arb(strip * s2 / h)).expm1()

        # h·φ·b^α = h·φ·exp(α·log b) for the orders in ascending order; where the step δ
        # between consecutive orders recurs (1.1, 1.2, … in the default grid), it is the
        # previous order's ball times exp(δ·log b): one multiplication per point instead of
        # an exp and a product (this loop is most of the accounting's cost).
        plans.sort(key=lambda plan: plan[0].alpha)
        steps = Counter(b[0].alpha - a[0].alpha for a, b in pairwise(plans))
        factors: dict[fmpq, list[arb]] = {}
        terms: list[arb] = [arb(0)] * len(log_bs)  # h·φ(z_j)·b_j^α for the current order
        prev, p0, p1 = None, 0, 0  # the previous order and the index range where terms hold it
        for o, j_left, j_right in plans:
            a = arb(o.alpha)
            i0, i1 = j_left - j0, j_right - j0 + 1
            k0 = k1 = i0  # chained on [k0, k1), fresh exps elsewhere in [i0, i1)
            if prev is not None and steps[o.alpha - prev] >= 2:
                step = o.alpha - prev
                if step not in factors:
                    factors[step] = [(arb(step) * lb).exp() for lb in log_bs]
                k0, k1 = max(i0, p0), min(i1, p1)
                if k0 < k1:
                    terms[k0:k1] = [t * f for t, f in zip(terms[k0:k1], factors[step][k0:k1])]
                else:
                    k0 = k1 = i0
            terms[i0:k0] = [w * (a * lb).exp() for w, lb in zip(weights[i0:k0], log_bs[i0:k0])]
            terms[k1:i1] = [w * (a * lb).exp() for w, lb in zip(weights[k1:i1], log_bs[k1:i1])]
            prev, p0, p1 = o.alpha, i0, i1
            total = sum(terms[i0:i1], arb(0))
            # Σ h·φ·g(b) with g(b) = b^α − 1 − α(b − 1)
            ssum = total - (wsums[i1] - wsums[i0]) - a * (tilts[i1] - tilts[i0])
            # Truncation bounds (see the module docstring); F ≥ 0 so each adds [0, bound].
            shift = arb((o.alpha * o.alpha - o.alpha) / two_s2).exp()  # e^{(α²−α)/(2σ²)}
            g_left = (a * log_1mq).expm1() + a * qa  # g(1 − q) ≥ g(b) for b ∈ [1−q, 1]
            c_l, c_r = h * (j_left - 1), h * (j_right + 1)
            half = fmpq(1, 2)
            if c_l <= half:
                left = g_left * (tail(-c_l) + h * phi(min(c_l, fmpq(0))))  # ∫_{−∞}^{c} φ + h·sup φ
            else:
                # z ≤ ½: g ≤ g(1−q), Σ h·φ ≤ 1 + h·φ(0); ½ ≤ z < c: F ≤ shift·φ(z − α).
                near = tail(o.alpha - c_l) + h * phi(min(c_l, o.alpha) - o.alpha)
                left = g_left * (1 + hn) + shift * near
            assert c_r >= half
            k_r = qa + one_mq * arb(-(2 * c_r - 1) / two_s2).exp()  # b ≤ e^u·k_r for z ≥ c'
            right = (a * k_r.log()).exp() * shift * (tail(c_r - o.alpha) + h * phi(max(c_r - o.alpha, fmpq(0))))
            # Trefethen–Weideman with M = e^{a²/(2σ²)}(A + 1 + 2αq); A bounded through
            # A − 1 ≤ I_h + κ(A + 1 + 2αq), I_h ≤ S + left + right.
            extra = 1 + 2 * a * qa
            if not kappa < 1:
                raise ConvergenceError(f"quadrature step {h} too coarse for sigma={sigma}.")
            a_up = 1 + (ssum.upper() + left + right + kappa * (1 + extra)) / (1 - kappa)
            err = kappa * (a_up + extra)
            upper = ssum + left + right + err
            am1 = (ssum - err).union(upper)
            if am1 > -0.5:
                ball = am1.log1p()
            else:  # error bounds dominate: A − 1 ∈ [0, upper] (Jensen), so log A ∈ [0, log1p(upper)]
                ball = arb(0).union(upper.upper().log1p())
            if o.ball is None or _better(ball, o.ball):
                o.ball = ball
            # Refine the estimate of A − 1 for the next round, if there is one.  A ball
            # without a positive lower end means the cuts and step were planned for a far
            # too large A − 1: plan for a much smaller one.
            if am1 > 0:
                o.log_est = float(am1.lower().log())
                o.log_a = float(ball.upper())
            else:
                o.log_est -= 64 * _LN2
