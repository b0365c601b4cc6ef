"""Fractional orders of the sampled Gaussian: one certified trapezoid quadrature per order.

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

Orders whose ideal steps are close share one grid (``_GROUP_RATIO``); this is
the method for every fractional order the shifted-Gaussian matrix
(:mod:`rdpsym.accounting.sampled_gaussian.shifted`) does not take.
"""

from __future__ import annotations

import math
from collections import Counter
from itertools import pairwise

from flint import arb, fmpq

from rdpsym.accounting.sampled_gaussian.planning import (
    _LN2,
    _PI_BELOW,
    _ROUNDS,
    _accurate,
    _Floats,
    _log_rational,
    _logaddexp,
)
from rdpsym.foundations.balls import precision
from rdpsym.foundations.errors import ConvergenceError

#: Orders whose ideal step sizes differ by at most this factor share one grid.
_GROUP_RATIO = 1.3
#: Grid points one pass may use (a few seconds of work); beyond it we refuse rather than hang.
_MAX_POINTS = 2_000_000


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
        alphas = sorted(o.alpha for o in group)
        shown = ", ".join(str(a) for a in alphas[:4]) + (f", … ({len(alphas)} in all)" if len(alphas) > 4 else "")
        raise ConvergenceError(
            f"the certified quadrature at q={q}, sigma={sigma} would need {span} grid points "
            f"(step {hf:.3g}); more than {_MAX_POINTS}, for the fractional order(s) "
            f"{shown}; integer orders are exact sums (orders=[2, 3, ..., inf])."
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
            if c_r < half:  # (the right tail's bound holds from z = ½ on; an assert here escaped raw: a probe)
                raise ConvergenceError(
                    f"the certified quadrature at order {o.alpha} (q={q}, sigma={sigma}) ends its grid "
                    f"{float(half - c_r):.3g} short of z = 1/2, where its tail bound starts: sigma is too small for "
                    "this fractional order; integer orders are exact sums (orders=[2, 3, ..., inf]).")
            k_r = qa + one_mq * arb(-(2 * c_r - 1) / two_s2).exp()  # b ≤ e^u·k_r for z ≥ c'
            right = (a * k_r.log()).exp() * shift * (tail(c_r - o.alpha) + h * phi(max(c_r - o.alpha, fmpq(0))))
            # Trefethen–Weideman with M = e^{a²/(2σ²)}(A + 1 + 2αq); A bounded through
            # A − 1 ≤ I_h + κ(A + 1 + 2αq), I_h ≤ S + left + right.
            extra = 1 + 2 * a * qa
            if not kappa < 1:
                raise ConvergenceError(
                    f"the certified quadrature at order {o.alpha} (q={q}, sigma={sigma}): its step {float(h):.3g} is "
                    "too coarse for its error bound: sigma is too small for this fractional order; integer orders "
                    "are exact sums (orders=[2, 3, ..., inf]).")
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
