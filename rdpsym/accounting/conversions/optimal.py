"""The optimal conversion of one RDP guarantee (α, r) to (ε, δ)-DP, certified from both sides.

Among all pairs of distributions with D_α(P‖Q) ≤ r, the largest hockey-stick divergence
E_γ(P‖Q) = sup_S P(S) − γ·Q(S) (γ = e^ε) is attained by a pair of Bernoulli laws: the
optimal conversion of S. Asoodeh, J. Liao, F. Calmon, O. Kosut, L. Sankar, "Three variants
of differential privacy: lossless conversion and applications", IEEE JSAIT 2(1), 2021
(arXiv:2008.06529; its Theorem 3 in the arXiv numbering states the ε(δ) form through these
binary pairs).  rdpsym does not rely on that theorem for validity: every value it returns is
certified by the elementary argument below, and its distance to the optimum by a witness pair.

**Upper bound (the certificate; a dual point).**  For a > 0 and real b put
A(a, b) = −min_{x ≥ 0}(a·x^α + b·x), i.e. 0 for b ≥ 0 and
(α − 1)·a^{−1/(α−1)}·(−b/α)^{α/(α−1)} for b < 0 (the minimum of a convex function, at
x* = (−b/(aα))^{1/(α−1)}), B(a, b) = A(a, b − 1), and

    U(a, b, γ) = a·e^{(α−1)r} + b + max(A, B − γ).

*Lemma.*  If D_α(P‖Q) ≤ r with α > 1, then E_γ(P‖Q) ≤ U(a, b, γ).  *Proof.*  D_α < ∞ gives
P ≪ Q; with L = dP/dQ, E_Q[L] = 1 and E_Q[L^α] = e^{(α−1)D_α} ≤ e^{(α−1)r}.  With
c = max(A, B − γ), the function a·x^α + b·x + c is ≥ 0 (c ≥ A) and ≥ x − γ (c ≥ B − γ) on
x ≥ 0, so it majorises (x − γ)₊; take E_Q.  ∎  (The claim ``optimal-conversion-dual`` in
``proofs/beyond/conversion_optimal.py`` proves the two minima symbolically.)
Every (a, b, γ) gives a valid bound; the solver below only chooses a good one, which is then
evaluated in Arb balls.  Balle et al.'s conversion (Thm 21) is the point b = 0, a = δ/e^{(α−1)r}.

**Lower bound (the witness).**  A Bernoulli pair P = (p, 1 − p), Q = (q, 1 − q) with
D_α(P‖Q) ≤ r, certified in balls, has E_γ(P‖Q) ≥ p − γq: no conversion of the one-sided
statement D_α(P‖Q) ≤ r can give δ(ε) below p − e^ε·q, or ε(δ) below log((p − δ)/q).  When the
witness also has D_α(Q‖P) ≤ r (checked), the bound holds for the two-sided RDP statement of
a mechanism too, and :attr:`OptimalBound.two_sided` says so.

**The optimum.**  The optimal pair is found on the one-parameter family where the
majorant touches (x − γ)₊ at two points L₀ < 1 < L₁ (the two likelihood ratios of the pair);
with v = 1 − L₀ the family runs from v = 1 (L₀ = 0, p = 1: δ = 1/α) down to v → 0 (δ → 0).
For δ ≥ 1/α the optimum is in closed form: ε = r + log(1 − δ), attained by
P = (1, 0), Q = (e^{−r}, 1 − e^{−r}), certified by a = γ/((α − 1)e^{αr}),
b = 1 − αγe^{−r}/(α − 1) ≥ 0.  At α = ∞ (pure DP) likewise ε = r + log(1 − δ) and
δ = max(0, 1 − e^{ε − r}) for every δ (P(S) ≤ e^r Q(S) gives P(S) − e^ε Q(S) ≤ 1 − e^{ε−r}).

How much it gains over Balle et al.: large at small orders (α = 2, r = 1, δ = 10⁻⁵:
ε = 10.668 against 11.127), vanishing at large ones (α = 5, r = 2.5: 1.1·10⁻⁵; α = 8,
r = 4: 10⁻¹³), since Balle's majorant a·x^α differs from the optimal one by terms of order
L₁^{−(α−1)}.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from flint import arb, ctx, fmpq

from rdpsym.accounting.conversions._inputs import (
    Order,
    Real,
    _checked,
    _delta,
    _is_inf,
    _nonnegative,
    _order,
    _probability,
)
from rdpsym.foundations.balls import precision
from rdpsym.foundations.errors import ConvergenceError, ParameterError, must

__all__ = ["OptimalBound", "dual_bound", "estimate", "estimate_epsilon", "estimate_log_delta", "float_solution",
           "optimal_delta", "optimal_epsilon", "quick_epsilon", "quick_log_delta", "witness_epsilon",
           "witness_from", "witness_terms"]


@dataclass(frozen=True)
class OptimalBound:
    """The optimal conversion at one order, certified from both sides.

    ``value`` is a certified upper bound (a ball; its upper end is what is published): ε for
    :func:`optimal_epsilon`, δ for :func:`optimal_delta`.  ``lower`` is a certified lower bound on
    what *any* conversion of the same (α, r) can give (from the witness pair), or None when no
    witness was certified; ``two_sided`` says whether the witness also satisfies D_α(Q‖P) ≤ r.
    ``certificate`` is the dual point (a, b, γ) that proves ``value`` (a, b exact binary numbers; γ exact
    for ε, the ball of e^ε for δ; None at
    α = ∞ and in the closed-form regime, where the formula is the proof), and ``regime`` one of
    ``"pure"`` (α = ∞), ``"corner"`` (the closed form) or ``"interior"``.  ``witness`` is the pair
    (p, q) of exact numbers behind ``lower``: P = Ber(p), Q = Ber(q) with D_α(P‖Q) ≤ r (D_∞ at α = ∞),
    so that anyone can re-check it (the catalogue does, with the finite laws' own Rényi divergence).
    """

    value: arb
    lower: arb | None
    two_sided: bool
    regime: str
    certificate: tuple | None = None
    witness: tuple | None = None


# --------------------------------------------------------------------------- the family of optimal pairs
#
# Pairs with likelihood ratios L₀ = 1 − v < 1 < L₁ = e^u (Q-masses 1 − w and w, w = v/(L₁ − L₀) so that
# E_Q[L] = 1), parametrised by s = log v and u.  Everything is in logarithms so that neither huge orders nor
# tiny δ overflow.  The same code runs on floats (a first solve, and the estimate that chooses which orders
# to certify) and on Arb balls used as multiprecision numbers (the refinement: only midpoints matter there,
# the certificate is checked separately).


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


# --------------------------------------------------------------------------- certified evaluation


def _neg_min(alpha: arb, h: arb, a: arb, b: arb) -> arb:
    """−min_{x ≥ 0}(a x^α + b x) for a > 0: 0 if b ≥ 0, else (α−1)·exp((α·log(−b/α) − log a)/(α−1))."""
    if b >= 0:
        return arb(0)
    if not b < 0:
        # A ball around 0: the value is between 0 and the formula at the ball's negative end.
        return arb(0).union(_neg_min(alpha, h, a, b.lower()))
    return h * ((alpha * (-b / alpha).log() - a.log()) / h).exp()


def dual_bound(order: Order, r: Real, a, b, gamma) -> arb:
    """U(a, b, γ) = a·e^{(α−1)r} + b + max(A, B − γ): a certified upper bound on E_γ(P‖Q) for every pair with
    D_α(P‖Q) ≤ r (the module docstring's lemma), for any a > 0 and real b.

    >>> from rdpsym.foundations.balls import precision, upper_decimal
    >>> from rdpsym.accounting.conversions.rdp_dp import balle_epsilon
    >>> with precision(128):   # Balle et al.'s point (b = 0, a = δ e^{−(α−1)r}) at their ε gives back δ
    ...     d, al, r = fmpq(1, 10**5), fmpq(5), fmpq(5, 2)
    ...     g = balle_epsilon(al, r, d).exp()
    ...     u = dual_bound(al, r, arb(d) * (-(al - 1) * arb(r)).exp(), 0, g)
    ...     bool(abs(u - d) < arb(10) ** -30)
    True
    """
    alpha, h = _order(order)
    r = _nonnegative("r", r)
    a, b, g = arb(a), arb(b), arb(gamma)
    if not a > 0:
        raise ParameterError(must("a", "positive (a dual point needs a > 0)", a))
    m = (h * r).exp()
    big_a = _neg_min(alpha, h, a, b)
    big_b = _neg_min(alpha, h, a, b - 1)
    return _checked("dual bound", a * m + b + big_a.max(big_b - g))


def _bernoulli_moment(alpha: arb, p: arb, q: arb) -> arb:
    """p^α q^{1−α} + (1 − p)^α (1 − q)^{1−α} = e^{(α−1) D_α(Ber p ‖ Ber q)}."""
    one = q ** (1 - alpha) * p**alpha if p > 0 else arb(0)
    rest = 1 - p
    two = rest**alpha * (1 - q) ** (1 - alpha) if rest > 0 else arb(0)
    return one + two


def _witness(alpha: arb, h: arb, r: arb, p: arb, q: arb) -> tuple[bool, bool]:
    """Whether D_α(P‖Q) ≤ r and whether D_α(Q‖P) ≤ r, certified, for P = Ber(p), Q = Ber(q) (exact points)."""
    bound = (h * r.lower()).exp()
    forward = _bernoulli_moment(alpha, p, q) <= bound
    backward = forward and p < 1 and _bernoulli_moment(alpha, q, p) <= bound
    return bool(forward), bool(backward)


def _nudge(q: arb, p: arb, k: int) -> arb:
    """q moved towards p by a relative 2^(k − prec) (an exact point): D_α(Ber p ‖ Ber q) decreases as q
    approaches p."""
    return (q + (p - q) * arb(2) ** (k - ctx.prec)).mid()


def _corner_witness(r: arb) -> tuple[arb, arb]:
    """P = (1, 0), Q = (q, 1 − q) with q the upper end of e^{−r} (an exact point): D_α(P‖Q) = log(1/q) ≤ r at
    every order, so E_γ(P‖Q) = 1 − γq is what any conversion must allow."""
    return arb(1), arb((-r.lower()).exp().upper())


def _pure_epsilon(r: arb, d: arb) -> OptimalBound:
    value = _checked("epsilon", r + (-d).log1p())
    p, q = _corner_witness(r)
    return OptimalBound(value, _checked("epsilon", ((1 - d) / q).log()).lower(), False, "pure", None, (p, q))


def optimal_epsilon(order: Order, r: Real, delta: Real, start: tuple | None = None) -> OptimalBound | None:
    """The least ε that (α, r)-RDP certifies at δ, by any conversion: certified above, and below by a witness.

    Source: the optimal conversion of Asoodeh et al. 2021 (arXiv:2008.06529), certified by the dual bound of
    this module's docstring (:func:`dual_bound`).  Hypotheses: 1 < α ≤ ∞, r ≥ 0, 0 < δ < 1.  The value can be
    negative (it then certifies (0, δ)-DP).  At α = ∞ it is r + log(1 − δ); for δ ≥ 1/α the same closed
    form; otherwise the optimal pair is found numerically and its dual point evaluated in balls.  None when
    the solver does not reach a certified point (extreme inputs): the other conversions still apply.
    ``start``: the float solution :func:`float_solution` returned for the same (α, r, δ), so that a caller
    that estimated first does not solve twice (it only chooses where Newton's method starts).

    >>> from rdpsym.foundations.balls import precision, upper_decimal
    >>> from rdpsym.accounting.conversions.rdp_dp import balle_epsilon
    >>> with precision(80):
    ...     b = optimal_epsilon(2, 1, fmpq(1, 10**5))
    ...     upper_decimal(b.value, 10), upper_decimal(balle_epsilon(2, 1, fmpq(1, 10**5)), 10)
    ('10.66797924', '11.12663111')
    >>> with precision(80):
    ...     b.regime, b.two_sided, bool((b.value - b.lower).upper() < arb(10) ** -15)
    ('interior', True, True)
    """
    r, d = _nonnegative("r", r), _delta(delta)
    if _is_inf(order):
        return _pure_epsilon(r, d)
    alpha, h = _order(order)
    r_up = arb(r.upper())
    if r_up == 0:
        return OptimalBound(arb(0), arb(0), False, "corner")  # D_α(P‖Q) = 0: P = Q, E_γ = 0 for γ ≥ 1
    if d >= 1 / alpha:
        # Certified by the dual point a = γ/((α−1)e^{αr}), b = 1 − αγe^{−r}/(α−1) ≥ 0 (module docstring); the
        # witness P = (1, 0), Q = (e^{−r}, 1 − e^{−r}) attains it.
        value = _checked("epsilon", r_up + (-d).log1p())
        p, q = _corner_witness(r)
        return OptimalBound(value, _checked("epsilon", ((1 - d) / q).log()).lower(), False, "corner", None, (p, q))
    if not d < 1 / alpha:
        return None  # the ball of δ straddles 1/α: the caller keeps the other conversions
    return _interior(order, r, d, "delta", start)


def optimal_delta(order: Order, r: Real, epsilon: Real, start: tuple | None = None) -> OptimalBound | None:
    """The least δ that (α, r)-RDP certifies at ε, by any conversion (capped at 1): certified above, and below
    by a witness pair (see :func:`optimal_epsilon`).

    At α = ∞: δ = max(0, 1 − e^{ε − r}); for ε ≤ r + log(1 − 1/α) the same closed form; otherwise the dual
    point of the optimal pair.  None when the solver does not reach a certified point.  ``start`` as for
    :func:`optimal_epsilon`.

    >>> from rdpsym.foundations.balls import precision, upper_decimal
    >>> from rdpsym.accounting.conversions.rdp_dp import balle_delta
    >>> with precision(80):
    ...     upper_decimal(optimal_delta(2, 1, 4).value, 8), upper_decimal(balle_delta(2, 1, 4), 8)
    ('0.0080134528', '0.012446768')
    """
    r, e = _nonnegative("r", r), _nonnegative("epsilon", epsilon)
    if _is_inf(order):
        v = _probability("delta", (-(e - r).expm1()).max(arb(0)))
        p, q = _corner_witness(r)
        return OptimalBound(v, (1 - e.upper().exp() * q).lower().max(arb(0)), False, "pure", None, (p, q))
    alpha, h = _order(order)
    r_up = arb(r.upper())
    if r_up == 0:
        return OptimalBound(arb(0), arb(0), False, "corner")
    corner = r_up + (1 - 1 / alpha).log()  # ε ≤ log((α−1)e^r/α): the closed form
    if e <= corner:
        v = _probability("delta", -(e - r_up).expm1())
        p, q = _corner_witness(r)
        return OptimalBound(v, (1 - e.upper().exp() * q).lower().max(arb(0)), False, "corner", None, (p, q))
    if not e > corner:
        return None
    return _interior(order, r, e, "gamma", start)


def estimate_epsilon(order: Order, r: Real, delta: Real) -> float | None:
    """The optimal conversion's ε in float64 (not certified; None where the float solver fails): for choosing
    the orders worth certifying, never for a published number."""
    return estimate(order, r, delta, "delta")[0]


def estimate(order: Order, r: Real, target: Real, given: str) -> tuple[float | None, tuple | None]:
    """(the float estimate, the float solution) of the optimal conversion at (α, r): ε given δ (``given =
    "delta"``) or log δ given ε (``"gamma"``).  The solution (None in the closed-form regimes or on failure)
    is what :func:`optimal_epsilon` / :func:`optimal_delta` take as ``start``, so an order that is estimated
    and then certified is solved in floats once.  Not certified: it chooses, it never decides."""
    try:
        a = _as_float(order)
        rf, tf = float(arb(r).upper()), float(arb(target).mid())
        if given == "delta":
            if tf >= 1 / a:
                return rf + math.log1p(-tf), None
        elif tf <= rf + math.log1p(-1 / a):
            return math.log(-math.expm1(tf - rf)), None
        start = float_solution(order, r, target, given)
        return start[2 if given == "delta" else 3], start
    except (ConvergenceError, ZeroDivisionError, ValueError, OverflowError, ArithmeticError, TypeError):
        return None, None


def float_solution(order: Order, r: Real, target: Real, given: str) -> tuple:
    """(s, u, log γ, log δ) of the optimal pair in float64, from the inputs as :func:`_interior` reads them
    (r's upper end; δ's or ε's midpoint).  Raises on failure (ConvergenceError and the float errors)."""
    af, rf = _as_float(order), float(arb(r).upper())
    tm = float(arb(target).mid())
    tf = math.log(tm) if given == "delta" else tm
    log_m = (af - 1) * rf
    try:
        found = _solve_newton(af, log_m, tf) if given == "delta" else None
    except (ConvergenceError, ZeroDivisionError, ValueError, OverflowError, ArithmeticError):
        found = None
    s_f, u_f = found if found is not None else _solve_float(af, log_m, tf, given)
    _, lg_f, ld_f = _family(FLOAT, af, log_m, s_f, u_f)
    return s_f, u_f, lg_f, ld_f


def witness_epsilon(order: Order, r: float, d: float) -> float | None:
    """A lower bound on the optimal conversion's ε of (α, r)-RDP at δ, in a few float operations, from an
    explicit witness pair: no conversion of (α, r) can certify less.  For discarding orders that cannot win
    before anything is solved (:mod:`~rdpsym.accounting.conversions.tightest`); None where it gives nothing
    (an order that is not an exact rational, r ≤ 0, or the pair below does not exist).

    Proof.  At δ ≥ 1/α the optimum is r + log(1 − δ) (the module docstring).  Otherwise take v = αδ < 1,
    L₀ = 1 − v, K = (M − e^{−αv})/v with M = e^{(α−1)r}, L_min = (K/2)^{1/(α−1)}, assume L_min ≥ max(1, 2L₀),
    and put θ = 1 − L₀/L_min ∈ [1/2, 1), L₁ = (θK)^{1/(α−1)} ≥ L_min, w = v/(L₁ − L₀), P = (wL₁, 1 − wL₁),
    Q = (w, 1 − w) (probabilities, as L₁ ≥ 1).  Then E_Q[(dP/dQ)^α] = wL₁^α + (1 − w)L₀^α ≤ M: the second
    term is ≤ (1 − v)^α ≤ e^{−αv}, and wL₁^α ≤ vK ⟺ L₁^α ≤ K(L₁ − L₀) ⟺ θL₁ ≤ L₁ − L₀ ⟺ L₁ ≥ L₀/(1 − θ) = L_min.
    So D_α(P‖Q) ≤ r, and with γ = L₁ − δ/w, P(S) − γQ(S) = δ on the first atom: every γ' < γ leaves
    E_{γ'}(P‖Q) > δ, so every valid ε is ≥ log γ ≥ log L₁ + log(1 − δ/v) = (log θ + log K)/(α − 1) +
    log(1 − 1/α): Balle et al.'s ε (Thm 21) plus (log θ + log(1 − e^{−αv − (α−1)r}))/(α − 1) < 0.

    Evaluated in float64 from the exact α and α − 1 (each rounded once) and r rounded to nearest, then lowered
    by 10⁻¹¹ times the sum of the magnitudes of every term, some thousand times the rounding of these few
    operations (each correctly rounded or within an ulp, and the bound is increasing in r), so the float
    returned is below the exact bound.

    >>> from flint import fmpq
    >>> from rdpsym.foundations.balls import precision
    >>> from rdpsym.accounting.conversions.rdp_dp import balle_epsilon
    >>> with precision(128):
    ...     exact = float(optimal_epsilon(fmpq(47, 10), fmpq(5, 2), fmpq(1, 10**5)).value.mid())
    ...     balle = float(balle_epsilon(fmpq(47, 10), fmpq(5, 2), fmpq(1, 10**5)).mid())
    >>> w = witness_epsilon(fmpq(47, 10), 2.5, 1e-5)
    >>> w < exact < balle, f"{exact - w:.1e}", f"{balle - exact:.1e}"   # below the optimum by less than 0.04 %
    (True, '1.8e-03', '2.6e-05')
    """
    return witness_from(witness_terms(order, d), r)


def witness_terms(order: Order, d: float) -> tuple | None:
    """What :func:`witness_epsilon` needs of (α, δ) alone (kept per order by the callers that ask many r):
    (α, α − 1, v = αδ, log v, log(1 − 1/α), log(1 − δ)), or None (not an exact rational order, or δ not in
    (0, 1))."""
    try:
        if isinstance(order, fmpq):
            a, h = int(order.p) / int(order.q), int(order.p - order.q) / int(order.q)
        elif isinstance(order, int) and not isinstance(order, bool):
            a, h = float(order), float(order - 1)
        else:
            return None
        if not (h > 0 and 0 < d < 1):
            return None
        v = a * d
        last = math.log1p(-1 / a)
        balle = last - (math.log(d) + math.log(a)) / h  # Balle et al.'s ε is r plus this
        return a, h, v, (math.log(v) if v < 1 else 0.0), last, math.log1p(-d), balle
    except (ZeroDivisionError, ValueError, OverflowError, ArithmeticError):
        return None


def witness_from(terms: tuple | None, r: float, above: float | None = None) -> float | None:
    """:func:`witness_epsilon` from :func:`witness_terms` and r (the proof is there).  With ``above``, a
    looser bound in a few operations is returned instead when it already exceeds ``above``: where
    (α − 1)r ≥ log 2 and (α − 1)r − log v ≥ (α + 1) log 2, both θ and 1 − e^{−αv − (α−1)r} are ≥ 1/2 and
    L_min ≥ 2, so the bound is at least Balle et al.'s ε − 2 log 2/(α − 1)."""
    if not terms or not r > 0:
        return None
    a, h, v, lv, last, log1m_d, balle = terms
    try:
        if v >= 1:  # δ ≥ 1/α: the optimum itself
            value = r + log1m_d
            return value - 1e-11 * (1 + abs(r) + abs(value))
        lm = h * r
        if above is not None and lm >= _LOG2 + 1e-9 and lm - lv >= (h + 2) * _LOG2 + 1e-9:
            # log_k = lm + tail − log v ≥ lm − log 2 − log v ≥ (h + 1) log 2, so log L_min ≥ log 2.
            loose = r + balle - 2 * _LOG2 / h
            loose -= 1e-11 * (1 + abs(r) + abs(balle) + abs(loose) + (abs(lm) + abs(lv) + 1) / h)
            if loose > above:
                return loose
        tail = math.log(-math.expm1(-a * v - lm))  # log(1 − e^{−αv−(α−1)r}) < 0
        log_k = lm + tail - lv
        log_lmin = (log_k - _LOG2) / h
        # L_min ≥ max(1, 2(1 − v)), with a margin far above the rounding.
        if log_lmin < 1e-9 or (v < 0.5 and log_lmin < _LOG2 + math.log1p(-v) + 1e-9):
            return None
        log_theta = math.log1p(-(1 - v) * math.exp(-log_lmin))
        value = (log_theta + log_k) / h + last
        size = abs(r) + (abs(lm) + abs(tail) + abs(lv) + abs(log_lmin) + abs(log_theta)) / h + abs(last)
        return value - 1e-11 * (1 + size + abs(value))
    except (ZeroDivisionError, ValueError, OverflowError, ArithmeticError):
        return None


_LOG2 = math.log(2)


def quick_epsilon(a: float, r: float, d: float) -> float | None:
    """A float estimate of the optimal ε from below, in a few operations: the pair with v = 1 − L₀ = αδ (the
    optimum's v to first order for small δ), L₁ by four Newton steps on E_Q[L^α] = e^{(α−1)r}, and
    ε = log(L₁ − δ/w).  For choosing which orders to certify only (None when it fails)."""
    try:
        v = min(a * d, 0.999)
        if not v > 0 or r <= 0:
            return None
        s, log_m = math.log(v), (a - 1) * r
        log_l0 = math.log1p(-v)
        u = max((math.log(math.expm1(log_m)) - s) / (a - 1), 1e-300) if log_m < 700 else (log_m - s) / (a - 1)
        for _ in range(4):
            lden = u + math.log1p(-(1 - v) * math.exp(-u))
            lx, ly = s - lden + a * u, _log_expm1(FLOAT, u) - lden + a * log_l0
            rho = 1 / (1 + math.exp(ly - lx)) if ly - lx < 700 else 0.0
            slope = rho * (a + math.expm1(a * (log_l0 - u)) / -math.expm1(log_l0 - u))
            if not slope > 0:
                return None
            u = max(u - (_lse(FLOAT, lx, ly) - log_m) / slope, u / 2)
        lden = u + math.log1p(-(1 - v) * math.exp(-u))
        ratio = d * math.exp(lden - s - u)  # (δ/w)/L₁
        return u + math.log1p(-ratio) if ratio < 1 else None  # log(L₁ − δ/w), without forming L₁
    except (ZeroDivisionError, ValueError, OverflowError, ArithmeticError):
        return None


def quick_log_delta(a: float, r: float, e: float) -> float | None:
    """A float estimate from below of log δ of the optimal conversion at ε (the δ-direction twin of
    :func:`quick_epsilon`): v from γ ≈ (α − 1)L₁/α with L₁ ≈ ((M − 1)/v)^{1/(α−1)}, L₁ by Newton steps, and
    δ = w·(L₁ − e^ε).  None when it fails."""
    try:
        log_m = (a - 1) * r
        log_mm1 = math.log(math.expm1(log_m)) if log_m < 700 else log_m
        s = min(log_mm1 - (a - 1) * (e + math.log(a / (a - 1))), math.log(0.999))
        v = math.exp(s)
        if not v > 0:
            return None
        log_l0 = math.log1p(-v)
        u = max((log_mm1 - s) / (a - 1), 1e-300)
        for _ in range(4):
            lden = u + math.log1p(-(1 - v) * math.exp(-u))
            lx, ly = s - lden + a * u, _log_expm1(FLOAT, u) - lden + a * log_l0
            rho = 1 / (1 + math.exp(ly - lx)) if ly - lx < 700 else 0.0
            slope = rho * (a + math.expm1(a * (log_l0 - u)) / -math.expm1(log_l0 - u))
            if not slope > 0:
                return None
            u = max(u - (_lse(FLOAT, lx, ly) - log_m) / slope, u / 2)
        if not u > e:
            return None
        lden = u + math.log1p(-(1 - v) * math.exp(-u))
        return s - lden + u + math.log1p(-math.exp(e - u))  # log(w·(L₁ − γ))
    except (ZeroDivisionError, ValueError, OverflowError, ArithmeticError):
        return None


def estimate_log_delta(order: Order, r: Real, epsilon: Real) -> float | None:
    """The optimal conversion's log δ at ε in float64 (not certified; None where the float solver fails): the
    δ-direction twin of :func:`estimate_epsilon`."""
    return estimate(order, r, epsilon, "gamma")[0]


def _as_float(order) -> float:
    if isinstance(order, arb):
        return float(order.mid())
    if isinstance(order, fmpq):
        return int(order.p) / int(order.q)
    return float(order)


#: Extra working bits beyond which the interior solver gives up (the other conversions still apply).
MAX_EXTRA_BITS = 8192


def _interior(order, r: arb, target: arb, given: str, start: tuple | None = None) -> OptimalBound | None:
    """The interior regime: a float solve (or ``start``, the same solve done by :func:`estimate`), Newton
    refinement at enough precision that the small δ survives the cancellation in B − γ (log₂(γ/δ) extra
    bits), then the dual point and the witness in balls."""
    prec = ctx.prec
    try:
        s_f, u_f, lg_f, ld_f = start if start is not None else float_solution(order, r, target, given)
    except (ConvergenceError, ZeroDivisionError, ValueError, OverflowError, ArithmeticError):
        return None
    extra = int(max(0.0, lg_f - ld_f) / math.log(2)) + 48
    if extra > MAX_EXTRA_BITS:
        return None
    with precision(prec + extra):
        alpha, h = _order(order)
        r_up = arb(r.upper())
        try:
            with precision(prec + extra + 32):
                # The δ direction is solved at the lower end of the ε ball (an exact point): U decreases in γ, and
                # a dual point fixed for one γ would pay the ball's whole width in B − γ.
                log_t = target.log() if given == "delta" else arb(target.lower())
                s, u = _refine(alpha, h * r_up, log_t, given, s_f, u_f)
                l0, l1, w, da, db = _pair(alpha, s, u)
        except (ConvergenceError, ZeroDivisionError, ValueError, OverflowError, ArithmeticError):
            return None
        # The certificate's numbers are exact binary points (Arb midpoints): a can be as small as e^{−10¹²}.
        a_q, b_q, p_q, q_q = da, db, (w * l1).mid(), w
        if not (a_q > 0 and q_q > 0 and q_q < p_q and p_q <= 1):
            return None
        if given == "delta":
            out = _certify_epsilon(alpha, h, r_up, target, a_q, b_q, prec)
            if out is None:
                return None
            value, cert = out
        else:
            eps_lo = arb(target.lower())
            value = _probability("delta", dual_bound(order, r_up, a_q, b_q, eps_lo.exp()))
            cert = (a_q, b_q, eps_lo.exp())
        lower, two, witness = _lower(alpha, h, r, target, p_q, q_q, given)
    # Back to the caller's precision: the value as a ball (its upper end stays above the certified one), the
    # lower bound rounded down to an exact point.
    return OptimalBound(+value, None if lower is None else (+lower).lower(), two, "interior", cert, witness)


def _certify_epsilon(alpha, h, r_up, d, a_q, b_q, prec):
    """(ε ball, (a, b, γ)) with U(a, b, γ) ≤ δ certified and ε = log γ.

    At the optimum the constraint a·M + b + A ≤ δ is active.  Lowering a by a relative 2^(k − prec) lowers
    a·M + b + A by about (M − L₀^α)·a·2^(k − prec) > 0 (d/da of −min_x(a x^α + b x) is −L₀^α), which makes
    the constraint certifiable; γ is then the upper end of a·M + b + B − δ (so B − γ ≤ δ − a·M − b), raised
    by the same relative step so that U(a, b, γ) < δ holds strictly and can be re-checked at any precision.
    """
    m = (h * r_up).exp()
    for k in (16, 32, 64, 128, 256):
        step = arb(2) ** (k - prec)
        a_k = (a_q * (1 - step)).mid()
        head = a_k * m + b_q
        if (head + _neg_min(alpha, h, a_k, b_q)).upper() <= d.lower():
            g = (head + _neg_min(alpha, h, a_k, b_q - 1) - d.lower()).upper()
            if g > 0:
                g_q = (arb(g) * (1 + step)).upper()
                return _checked("epsilon", g_q.log()), (a_k, b_q, g_q)
    return None


def _lower(alpha, h, r, target, p_q, q_q, given):
    """The witness's bound (a lower end), whether the witness is two-sided, and the witness (p, q); (None, False,
    None) if not certified."""
    k = 16
    while k < ctx.prec - 4:
        # r's own radius may call for more than a last-bit nudge: 16, 32, 64, … bits from the end.
        qk = _nudge(q_q, p_q, k)
        forward, backward = _witness(alpha, h, r, p_q, qk)
        k *= 2
        if not forward:
            continue
        if given == "delta":
            if not p_q - target.upper() > 0:
                return None, False, None
            return _checked("epsilon", ((p_q - target) / qk).log()).lower(), backward, (p_q, qk)
        return (p_q - arb(target.upper()).exp() * qk).lower().max(arb(0)), backward, (p_q, qk)
    return None, False, None
