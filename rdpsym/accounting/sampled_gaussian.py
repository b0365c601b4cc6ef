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
from flint import arb, ctx, fmpq

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
    fracs = sorted({a for a in orders if a.q != 1})
    if fracs:
        table = dict(zip(fracs, _frac_log_moments(q, sigma, fracs, target, strict)))
        for i, a in enumerate(orders):
            if a.q != 1:
                out[i] = table[a]
    return out  # type: ignore[return-value]


def _accurate(ball: arb, target: int) -> bool:
    return ball.is_finite() and (ball.is_zero() or ball.rel_accuracy_bits() >= target)


# ----------------------------------------------------------------------------- integer orders


def _int_log_moments(q: fmpq, s2: fmpq, ns: list[int], target: int, strict: bool) -> list[arb]:
    """MTZ 2019 Sec. 3 binomial sum for A − 1 (positive terms), then log1p."""
    top = max(ns)
    # Guard bits: the term recurrence loses ~log2(n) bits, exp of an argument
    # of size x loses log2(x) bits.
    biggest = fmpq(top * top) / (2 * s2)  # the largest exp argument, ~2^(this many bits)
    guard = 26 + 2 * top.bit_length() + max(0, int(biggest.p).bit_length() - int(biggest.q).bit_length())
    prec = target + guard
    for _ in range(_ROUNDS):
        with precision(prec):
            half_inv = 1 / (2 * s2)
            expm1s = [arb(0), arb(0)] + [arb(half_inv * (k * (k - 1))).expm1() for k in range(2, top + 1)]
            ratio = arb(q) / arb(1 - q)
            p0 = arb(1 - q)
            balls = []
            for n in ns:
                term = p0**n * ratio * n  # C(n,1)(1−q)^{n−1}q
                total = arb(0)
                for k in range(2, n + 1):
                    term = term * ratio * (n - k + 1) / k
                    total += term * expm1s[k]
                balls.append(total.log1p())
        if all(_accurate(b, target) for b in balls):
            return balls
        prec = prec * 3 // 2
    if strict or not all(b.is_finite() for b in balls):
        raise ConvergenceError(f"log A at integer orders did not reach {target} bits (q={q}, sigma^2={s2}).")
    return balls


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
