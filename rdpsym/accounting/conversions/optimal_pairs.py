"""The optimal conversion's family of Bernoulli pairs, and the solvers that find the optimal one.

Pairs with likelihood ratios L₀ = 1 − v < 1 < L₁ = e^u (Q-masses 1 − w and w, w = v/(L₁ − L₀) so that
E_Q[L] = 1), parametrised by s = log v and u: the one-parameter family on which the majorant of
:mod:`rdpsym.accounting.conversions.optimal` touches (x − γ)₊ at L₀ and L₁.  Everything is in logarithms so
that neither huge orders nor tiny δ overflow.  The same code runs on floats (:data:`FLOAT`: a first solve,
and the estimates that choose which orders to certify, :mod:`rdpsym.accounting.conversions.optimal_estimates`)
and on Arb balls used as multiprecision numbers (:data:`BALL`: the refinement, :func:`_refine`; only
midpoints matter there, the certificate is checked separately by the module that certifies).

Nothing here is certified: it finds the point (a, b, γ) and the witness (p, q) that
:mod:`rdpsym.accounting.conversions.optimal` then evaluates in balls.
"""

from __future__ import annotations

import math

from flint import arb, ctx

from rdpsym.foundations.errors import ConvergenceError


class _Float:
    """float64 arithmetic for the family."""

    log, exp, expm1, log1p = math.log, math.exp, math.expm1, math.log1p
    bits = 50

    @staticmethod
    def num(x):
        return float(x)

    @staticmethod
    def val(x) -> float:
        return x


class _Ball:
    """Arb arithmetic at the current precision, read through midpoints (a fast multiprecision float)."""

    log, exp = staticmethod(lambda x: x.log()), staticmethod(lambda x: x.exp())
    expm1, log1p = staticmethod(lambda x: x.expm1()), staticmethod(lambda x: x.log1p())

    @property
    def bits(self) -> int:
        return ctx.prec

    @staticmethod
    def num(x):
        return arb(x).mid() if isinstance(x, arb) else arb(x)

    @staticmethod
    def val(x) -> float:
        return float(x.mid())


FLOAT, BALL = _Float(), _Ball()


def _lse(lib, x, y):
    """log(e^x + e^y)."""
    hi, lo = (x, y) if lib.val(x) >= lib.val(y) else (y, x)
    return hi + lib.log1p(lib.exp(lo - hi))


def _log_expm1(lib, u):
    """log(e^u − 1) for u > 0, without overflow for large u."""
    return lib.log(lib.expm1(u)) if lib.val(u) < 1 else u + lib.log1p(-lib.exp(-u))


def _log_g(lib, a, tau):
    """log(t^α − α·t + α − 1) with t = e^τ > 1 (> 0 by Bernoulli's inequality), without cancellation."""
    at = lib.val(a * tau)
    if at < 1:
        # Σ_{k≥2} (α^k − α) τ^k / k!: every term is positive.
        terms = 2
        while terms < 10_000 and at**terms / math.factorial(min(terms, 170)) > 2.0 ** -(lib.bits + 8):
            terms += 1
        total, term_a, term_1 = lib.num(0), a * tau, tau
        for k in range(2, terms + 1):
            term_a, term_1 = term_a * a * tau / k, term_1 * tau / k
            total = total + (term_a - a * term_1)
        return lib.log(total)
    big = a * tau
    # e^{ατ}·(1 − α e^{τ−ατ} + (α − 1) e^{−ατ}): the bracket is in (0, 1] for ατ ≥ 1.
    return big + lib.log(1 - a * lib.exp(tau - big) + (a - 1) * lib.exp(-big))


def _family(lib, a, log_m, s, u, which: int | None = None):
    """(E_Q[L^α] residual in logs, log γ, log δ) of the pair (s, u): γ at which the majorant touching (x − γ)₊ at
    L₀ and L₁ is optimal (the dual's tangency), and δ = w·(L₁ − γ) it gives there.  ``which`` = 0, 1 or 2
    computes the residual and only that entry (the others are None): the solvers need one of them at a time."""
    v = lib.exp(s)
    log_l0 = lib.log1p(-v)
    lden = u + lib.log1p(-(1 - v) * lib.exp(-u))  # log(L₁ − L₀) = log(e^u − 1 + v)
    lw = s - lden
    residual = _lse(lib, lw + a * u, _log_expm1(lib, u) - lden + a * log_l0) - log_m
    log_gamma = log_delta = None
    if which is None or which == 1:
        log_coef = -lib.log(a) - ((a - 1) * u + lib.log(-lib.expm1((a - 1) * (log_l0 - u))))
        log_gamma = log_coef + lib.log(a - 1) + a * u + lib.log(-lib.expm1(a * (log_l0 - u)))
    if which is None or which == 2:
        tau = u - log_l0  # log(L₁/L₀)
        log_delta = lw + log_l0 + _log_g(lib, a, tau) - lib.log(a) - _log_expm1(lib, (a - 1) * tau)
    return residual, log_gamma, log_delta


def _inner_u(lib, a, log_m, s, start=None):
    """u with E_Q[L^α] = M at s (the residual increases with u from −log M at u = 0)."""
    hi = (log_m - s + math.log(2)) / (a - 1) * (1 + 2.0**-20) + 1
    return _root(lambda u: _family(lib, a, log_m, s, u, 0)[0] if u > 0 else -log_m, 0.0, hi, start)


def _root(f, lo, hi, start=None, iterations: int = 300):
    """A root of the increasing float function f on [lo, hi] (f(lo) ≤ 0 ≤ f(hi)): Illinois steps, with
    ``start`` (a nearby root) narrowing the bracket first and a bisection whenever the bracket stalls."""
    flo, fhi = f(lo), f(hi)
    if start is not None and lo < start < hi:
        width = (abs(start) + 1) * 2.0**-30
        a, b = max(lo, start - width), min(hi, start + width)
        fa, fb = f(a), f(b)
        if fa <= 0 <= fb:
            lo, hi, flo, fhi = a, b, fa, fb
        elif fa > 0:
            hi, fhi = a, fa
        else:
            lo, flo = b, fb
    if not (flo <= 0 <= fhi):
        raise ConvergenceError("the optimal conversion's solver lost its bracket")
    side = 0
    for i in range(iterations):
        if hi - lo <= 2.0**-48 * (abs(lo) + abs(hi) + 2.0**-1000):
            break
        x = hi - fhi * (hi - lo) / (fhi - flo) if fhi != flo else (lo + hi) / 2
        if not (lo < x < hi) or i % 6 == 5:
            x = (lo + hi) / 2  # a bisection now and then keeps the bracket shrinking
        fx = f(x)
        if fx == 0:
            return x
        if fx < 0:
            lo, flo = x, fx
            if side == -1:
                fhi /= 2
            side = -1
        else:
            hi, fhi = x, fx
            if side == 1:
                flo /= 2
            side = 1
    return (lo + hi) / 2


def _solve_float(a: float, log_m: float, log_target: float, given: str):
    """(s, u) in floats where log δ(s) = log_target (given "delta") or log γ(s) = log_target (given "gamma")."""
    k = 2 if given == "delta" else 1
    sign = 1 if given == "delta" else -1  # δ(s) increases with s, γ(s) decreases
    last = [None]

    def f(s):
        u = _inner_u(FLOAT, a, log_m, s, last[0])
        last[0] = u
        return sign * (_family(FLOAT, a, log_m, s, u, k)[k] - log_target)

    # s → 0⁻ is the closed-form corner (δ → 1/α, γ → (α−1)e^r/α), excluded by the caller.
    hi = math.log(0.5)
    for _ in range(200):
        if f(hi) >= 0:
            break
        hi = math.log1p(-(1 - math.exp(hi)) / 2)
    else:
        raise ConvergenceError("the optimal conversion's solver found no upper end")
    lo, step = min(hi - 1, sign * log_target + math.log(a) - 1), 1.0
    for _ in range(200):
        if f(lo) <= 0:
            break
        lo, step = lo - step, step * 2
    else:
        raise ConvergenceError("the optimal conversion's solver found no lower end")
    s = _root(f, lo, hi)
    return s, _inner_u(FLOAT, a, log_m, s, last[0])


def _solve_newton(a: float, log_m: float, log_delta: float):
    """What :func:`_solve_float` finds given δ, by Newton's method on both equations at once (a fifth of its
    work): from v = min(αδ, 1/2) (the optimum's v to first order for small δ) with u solved there,
    forward-difference Jacobians, and steps halved to stay in s < 0 < u.  None when it does not converge in
    30 steps (the caller then brackets).  Measured against the bracketing solver on 1 500 random (α, r, δ)
    (α from 1.001 to 10⁵, δ from 10⁻³⁰): the same point to 10⁻⁸ wherever it converges (97 %)."""

    def eqs(s, u):
        out = _family(FLOAT, a, log_m, s, u, 2)
        return out[0], out[2] - log_delta

    s = math.log(min(a * math.exp(log_delta), 0.5))
    u = _inner_u(FLOAT, a, log_m, s)
    log_target = log_delta
    tol = 1e-14 * (1 + abs(log_target) + abs(log_m))
    for _ in range(30):
        f1, f2 = eqs(s, u)
        if abs(f1) + abs(f2) <= tol:
            return s, u
        hs, hu = 1e-7 * (1 + abs(s)), 1e-7 * (1 + abs(u))
        p1, p2 = eqs(s + hs, u)
        q1, q2 = eqs(s, u + hu)
        j11, j21, j12, j22 = (p1 - f1) / hs, (p2 - f2) / hs, (q1 - f1) / hu, (q2 - f2) / hu
        det = j11 * j22 - j12 * j21
        if not det or not math.isfinite(det):
            return None
        ds, du = (j22 * f1 - j12 * f2) / det, (j11 * f2 - j21 * f1) / det
        step = 1.0
        while not (s - step * ds < 0 < u - step * du):
            step /= 2
            if step < 2.0**-30:
                return None
        s, u = s - step * ds, u - step * du
    return None


def _refine(a: arb, log_m: arb, log_target: arb, given: str, s: float, u: float):
    """Newton's method on the two equations (E_Q[L^α] = M, and δ or γ on target) from the float solution, on
    Arb midpoints at the current precision (the Jacobian by forward differences)."""
    k = 2 if given == "delta" else 1
    a, log_m, log_target = a.mid(), log_m.mid(), log_target.mid()

    def eqs(x, y):
        out = _family(BALL, a, log_m, x, y, k)
        return out[0].mid(), (out[k] - log_target).mid()

    x, y = arb(s), arb(u)
    tol = arb(2) ** -(ctx.prec - 12)
    for _ in range(12):
        e1, e2 = eqs(x, y)
        if abs(float(e1.mid())) + abs(float(e2.mid())) == 0 or (abs(e1) + abs(e2)) < tol:
            return x, y
        # Forward differences with a step of half the working bits: the Jacobian is then good to about that
        # many bits, enough for Newton's quadratic steps (2^-50 → 2^-100 → 2^-200 → below the tolerance) at two
        # evaluations a step instead of central differences' four.
        hx, hy = (arb(2) ** -(ctx.prec // 2) * (1 + abs(x))).mid(), (arb(2) ** -(ctx.prec // 2) * (1 + abs(y))).mid()
        p1, p2 = eqs(x + hx, y)
        q1, q2 = eqs(x, y + hy)
        j11, j21 = (p1 - e1) / hx, (p2 - e2) / hx
        j12, j22 = (q1 - e1) / hy, (q2 - e2) / hy
        det = j11 * j22 - j12 * j21
        if det == 0:
            raise ConvergenceError("the optimal conversion's Newton step is singular")
        dx, dy = ((j22 * e1 - j12 * e2) / det).mid(), ((j11 * e2 - j21 * e1) / det).mid()
        x, y = (x - dx).mid(), (y - dy).mid()
        if not (float(x) < 0 and float(y) > 0):
            raise ConvergenceError("the optimal conversion's Newton step left the domain")
    e1, e2 = eqs(x, y)
    if not (abs(e1) + abs(e2)) < tol * 2**16:
        raise ConvergenceError("the optimal conversion's Newton refinement did not converge")
    return x, y


def _pair(a: arb, s: arb, u: arb):
    """(L₀, L₁, w, a_dual, b_dual) at (s, u): the witness's ratios and mass, and the dual point (midpoints)."""
    v = s.exp()
    l0, l1 = 1 - v, u.exp()
    w = v / (u.expm1() + v)
    coef = 1 / (a * (l1 ** (a - 1) - l0 ** (a - 1)))
    return l0.mid(), l1.mid(), w.mid(), coef.mid(), (-coef * a * l0 ** (a - 1)).mid()
