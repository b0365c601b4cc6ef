"""Subsampled mechanisms in certified balls: Poisson subsampling and sampling without replacement.

Poisson subsampling (:class:`PoissonSampled`; relation: add or remove one record)
    Each record enters the sample independently with probability q.  For an
    inner mechanism whose outputs on a sample with and without the record are
    (P, Q), the subsampled outputs are R = (1−q)Q + qP and Q; by joint convexity
    of E[(dA/dB)^α] the mixture over the rest of the sample can only help, so the
    subsampled curve is the larger of the *removal* direction D_α(R‖Q) and the
    *addition* direction D_α(Q‖R), each at its worst over the inner adjacent
    pairs.  Order by order (:meth:`PoissonSampled.how` says which applied):

    * q = 0 gives 0 and q = 1 the inner curve, exactly.
    * A finite, dominating inner pair (randomized response, k-ary randomized
      response, the discrete Laplace, and ε-DP, whose worst case is randomized
      response: every ε-DP pair is a post-processing of it, Kairouz–Oh–Viswanath)
      is subsampled exactly: both directions are finite sums, at every order.
    * Integer α, removal: E_Q[(R/Q)^α] = Σ_l C(α,l)(1−q)^{α−l} q^l E_Q[(P/Q)^l]
      (binomial expansion of ((1−q) + qP/Q)^α), with E_Q[(P/Q)^l] =
      e^{(l−1)ε(l)} from the inner curve ε.  Exact for a pair that attains the
      inner curve at every order; for any adjacent pair it is an upper bound, as
      every coefficient is positive (Mironov–Talwar–Zhang 2019, Sec. 3;
      Zhu–Wang 2019).  Terms are summed from l = α down and stopped, with the
      rest bounded by e^{(m−1)ε(m)} − 1 (the binomial weights below m sum to at
      most 1 and the moments increase with the order).
    * Integer α, addition: not larger than removal for the Laplace mechanism
      (Zhu–Wang 2019, Theorem 8 and its exact formula for the Laplace
      mechanism; the Gaussian is :func:`~rdpsym.sampled_gaussian`, Mironov–Talwar–Zhang
      2019).  Otherwise it is bounded by the smaller of two bounds derived in
      :func:`addition_bound`, and the curve takes the larger of removal and that.
    * The Laplace mechanism (its pair dominates every adjacent pair) is subsampled exactly at fractional
      orders too, where α·Δ/b ≤ :data:`LAPLACE_QUADRATURE_MAX`: both directions E_Q[((1−q) + qP/Q)^s],
      s = α and 1 − α, are two closed terms and one integral of an analytic function over [0, Δ/b],
      enclosed by Arb's certified Gauss–Legendre
      quadrature (:func:`laplace_mixture_moment`); a chord bound was 6.7 % above it at α = 5/2, b = 2, q = 1/100.
    * Fractional α otherwise: the chord of the convex (α − 1)·ε(α) between ⌊α⌋ and ⌈α⌉
      (below 2: the value at 2), an upper bound (Zhu–Wang 2019; the same device
      as Wang–Balle–Kasiviswanathan 2019, Corollary 10), and never above
      log(1 + q(e^{(α−1)ε(α)} − 1))/(α − 1) (convexity of x^α and x^{1−α}).
    * The discrete Gaussian (a dominating pair, see its declaration) is
      subsampled exactly too: both directions are sums over ℤ,
      E_Q[((1−q) + qX)^s] with Q = N_ℤ(Δ, σ²), X = P/Q = e^{Δ(Δ−2k)/(2σ²)} and
      s = α (removal) or 1 − α (addition), summed where the terms matter and
      the rest bounded by Gaussian tails (:func:`lattice_moment`), up to
      :data:`LATTICE_MAX_TERMS` terms per order (beyond, the bounds above).
    * Every order is at most the ε-DP amplification log(1 + q(e^{ε_∞} − 1)) of
      the inner D_∞ = ε_∞ when that is finite (Balle, Barthe, Gaboardi 2018);
      D_∞ itself is that value, or ∞.
    * Past α = :data:`LONG_ORDERS` no sum over the integer orders is formed: the curve there is the inner
      curve capped by that amplification (both upper bounds), unless the Laplace mixture is integrated there.

Sampling without replacement (:class:`WithoutReplacement`; relation: substitution)
    A uniformly random sample of m = q·n records, n public; the inner curve must
    hold for inputs that differ in one record.  Integer α ≥ 2: Theorem 9 of
    Wang, Balle, Kasiviswanathan 2019 (arXiv:1808.00087),

        ε'(α) ≤ log(1 + q²C(α,2)·min{4(e^{ε(2)} − 1), e^{ε(2)}·min{2, (e^{ε(∞)} − 1)²}}
                      + Σ_{j=3}^{α} q^j C(α,j) e^{(j−1)ε(j)} min{2, (e^{ε(∞)} − 1)^j}) / (α − 1),

    and never above the inner ε(α) (a mixture of adjacent or equal pairs).
    Where one symmetric pair of the inner mechanism dominates every adjacent
    pair (so it is worst for every Rényi and Pearson–Vajda divergence and the
    inner curve is its exact divergence: the Gaussian, Laplace, discrete
    Gaussian and Laplace, randomized response), their Theorem 27 tightens the
    terms j ≥ 3 to min{Theorem 9's term, q^j C(α,j)·4·(D_{2⌊j/2⌋} D_{2⌈j/2⌉})^{1/2}}
    with D_{2m} = E_Q[(P/Q − 1)^{2m}] = Σ_i C(2m,i)(−1)^{2m−i} e^{(i−1)ε(i)} (the
    even central moments, and Cauchy–Schwarz between them for odd j), up to
    j = :data:`PEARSON_VAJDA_MAX` as dp_accounting does.
    Fractional α: the chord between neighbouring integers (their Corollary 10),
    below 2 the value at 2; every order capped by log(1 + q(e^{ε(∞)} − 1)); past
    α = :data:`LONG_ORDERS`, the inner curve with that cap.
    Exact only at q = 0 (zero) and q = 1 (the inner curve).

All values are balls at the current precision; a bound is a certified upper
bound, never an estimate.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import sympy as sp
from flint import arb, ctx, fmpq

from rdpsym.accounting.components import Component, Infinite
from rdpsym.accounting.curve import RdpCurve, parse_order
from rdpsym.accounting.discrete import finite_divergence
from rdpsym.accounting.mixtures import laplace_mixture_moment, lattice_moment, lattice_window
from rdpsym.foundations.balls import to_arb

__all__ = ["PoissonSampled", "WithoutReplacement", "addition_bound", "removal_integer"]

INF = float("inf")
#: Integer orders up to which the addition direction's binomial bound is summed (above it, the convexity bound).
ADDITION_EXPANSION_MAX = 256
#: A discrete Gaussian's Poisson mixture is summed exactly when an order needs at most this many terms.
LATTICE_MAX_TERMS = 4000
#: Terms up to this j use Theorem 27's Pearson–Vajda bound (above it, Theorem 9's), as dp_accounting's 256.
PEARSON_VAJDA_MAX = 256
#: Orders past which no bound summed over the integers 2, …, α is formed (Theorem 9, the binomial expansion: time
#: linear in α, days at α = 10¹²; a probe): there the curve is the inner curve capped by the ε-DP amplification,
#: both upper bounds at every order (or an exact route that takes no such sum: the Laplace mixture).
LONG_ORDERS = 10**5
#: α·Δ/b up to which the Laplace mixture is integrated (exact); past it the bounds of the other orders (the chord
#: between the exact integer orders).  Its certified quadrature came out NaN at 100 bits at α·Δ/b = 50 150 (a
#: review), and from about 1.5·10⁵ its ball no longer narrowed at any precision (Δ/b = 100, α = 10001/2; a probe).
LAPLACE_QUADRATURE_MAX = 10**4


# ----------------------------------------------------------------------------- shared pieces
def _key(a) -> tuple:
    return (int(a.p), int(a.q))


def _order_id(a):
    return "inf" if a == INF else _key(a)


def _needed_integers(orders: Sequence) -> list[int]:
    """The integer orders whose values the requested orders need (themselves, or the two around a fraction)."""
    need: set[int] = set()
    for a in orders:
        if a == INF:
            continue
        if a.q == 1:
            need.add(int(a.p))
        elif a < 2:
            need.add(2)
        else:
            n0 = int(a.p // a.q)
            need.update((n0, n0 + 1))
    return sorted(need)


def _inner_balls(inner: RdpCurve, top: int, fractional: Sequence) -> tuple[dict, dict, object]:
    """The inner curve at 2, …, top, at the fractional orders, and at ∞ (a ball or Infinite each)."""
    ints = [fmpq(n) for n in range(2, top + 1)]
    balls = inner.balls(ints + list(fractional) + [INF]) if (ints or fractional) else inner.balls([INF])
    at = dict(zip(range(2, top + 1), balls[: len(ints)]))
    frac = dict(zip(fractional, balls[len(ints): len(ints) + len(fractional)]))
    return at, frac, balls[-1]


def _moments_m1(eps: dict, top: int) -> dict:
    """e^{(l−1)ε(l)} − 1 for l = 2..top (None where ε(l) = ∞)."""
    return {n: (None if isinstance(eps[n], Infinite) else ((n - 1) * eps[n]).expm1()) for n in range(2, top + 1)}


def _cap(q: arb, eps_inf) -> arb | None:
    """log(1 + q(e^{ε_∞} − 1)): ε-DP amplification by subsampling, or None when ε_∞ = ∞."""
    if isinstance(eps_inf, Infinite):
        return None
    return (q * eps_inf.expm1()).log1p()


def _small(x: arb, reference: arb) -> bool:
    """x is certainly below 2^(−prec−8)·reference (a rest that cannot show in the ball's digits)."""
    return x < reference * arb(2) ** (-ctx.prec - 8)


def removal_integer(q: arb, m1: dict, n: int) -> arb | Infinite:
    """log E_Q[((1−q) + qP/Q)^n]/(n − 1) by the binomial expansion, with moments e^{(l−1)ε(l)} = 1 + m1[l].

    Σ_{l=2}^{n} C(n,l)(1−q)^{n−l} q^l (e^{(l−1)ε(l)} − 1), summed from l = n down; once the
    next moment bound e^{(l−1)ε(l)} − 1 (which bounds the whole rest) is negligible the sum
    stops and adds [0, bound].
    """
    if any(m1[l] is None for l in range(2, n + 1)):
        return Infinite(f"the inner curve is ∞ at an order ≤ {n}, so this moment is ∞")
    p0 = 1 - q
    total = arb(0)
    weight = q**n  # C(n,n) q^n
    ratio = p0 / q if not q.is_zero() else None
    for l in range(n, 1, -1):
        total += weight * m1[l]
        if l > 2:
            rest = m1[l - 1]
            if not total.is_zero() and _small(rest, total):
                total += arb(0).union(rest.upper())
                break
            weight = weight * ratio * l / (n - l + 1)
    return total.log1p() / (n - 1)


def addition_bound(q: arb, m1: dict, n: int) -> arb | Infinite:
    """An upper bound on D_n(Q ‖ (1−q)Q + qP) over every adjacent pair, from the inner curve alone.

    With R = (1−q)Q + qP, Q/R = 1 + q(Q − P)/R, so for integer n
    E_R[(Q/R)^n] = Σ_l C(n,l) q^l E_R[((Q−P)/R)^l] (the l = 1 term is 0).  As
    x ↦ x^{1−l} is convex, R^{1−l} ≤ (1−q)Q^{1−l} + qP^{1−l}, so
    E_R[|Q−P|^l/R^l] ≤ (1−q)E_Q|1 − P/Q|^l + qE_P|1 − Q/P|^l; with |1 − t|^l ≤
    1 + t^l each expectation is at most 1 + e^{(l−1)ε(l)}, and at l = 2 exactly a
    χ² divergence, at most e^{ε(2)} − 1.  Hence

        E_R[(Q/R)^n] ≤ 1 + C(n,2)q²(e^{ε(2)} − 1) + Σ_{l=3}^{n} C(n,l) q^l (2 + (e^{(l−1)ε(l)} − 1)).

    Separately, (1−q)Q + qP ↦ R^{1−n} is convex, so E_R[(Q/R)^n] = ∫Q^n R^{1−n} ≤
    1 + q(e^{(n−1)ε(n)} − 1).  The smaller of the two is returned (the first only up
    to order :data:`ADDITION_EXPANSION_MAX`).
    """
    if m1[n] is None:
        return Infinite(f"the inner curve is ∞ at order {n}")
    best = (q * m1[n]).log1p() / (n - 1)
    if n <= ADDITION_EXPANSION_MAX and all(m1[l] is not None for l in range(2, n + 1)):
        total = arb(n * (n - 1) // 2) * q * q * m1[2]
        c = arb(n * (n - 1) // 2) * q * q
        for l in range(3, n + 1):
            c = c * q * (n - l + 1) / l
            total += c * (2 + m1[l])
        best = best.min(total.log1p() / (n - 1))
    return best


def _chord(values: dict, order: fmpq) -> arb | Infinite:
    """The chord of (α−1)ε between the integers around ``order`` (below 2: the value at 2), over α − 1."""
    if order < 2:
        return values[2]
    n0 = int(order.p // order.q)
    lo, hi = values[n0], values[n0 + 1]
    for v in (lo, hi):
        if isinstance(v, Infinite):
            return v
    t = arb(order - n0)
    return ((1 - t) * (n0 - 1) * lo + t * n0 * hi) / arb(order - 1)


def _min(*values):
    """The smallest of balls and Infinite values (Infinite only if every one is)."""
    finite = [v for v in values if v is not None and not isinstance(v, Infinite)]
    if not finite:
        return next(v for v in values if isinstance(v, Infinite))
    out = finite[0]
    for v in finite[1:]:
        out = out.min(v)
    return out


def _convexity_bound(q: arb, eps, order: fmpq) -> arb | None:
    """log(1 + q(e^{(α−1)ε(α)} − 1))/(α − 1): both directions, any order ≥ 1 (convexity), or None."""
    if isinstance(eps, Infinite):
        return None
    a1 = arb(order - 1)
    return (q * (a1 * eps).expm1()).log1p() / a1


# ----------------------------------------------------------------------------- Poisson subsampling
class _Subsampled(Component):
    """What Poisson subsampling and sampling without replacement share: exact at q = 0 (zero) and q = 1 (the inner
    curve), certified as the inner curve is, and their other orders put together from the integer orders' values,
    a bound at each fractional order and the ε-DP amplification cap at ∞."""

    @property
    def certified(self) -> bool:
        return self.inner.certified

    @property
    def closed_form(self) -> sp.Expr | None:
        if self.q == 0:
            return sp.S.Zero
        return self.inner.closed_form if self.q == 1 else None

    def _at_the_ends(self, orders: Sequence) -> list | None:
        """The exact curve where q is 0 or 1, else None."""
        if self.q == 0:
            return [arb(0) for _ in orders]
        return self.inner.balls(orders) if self.q == 1 else None

    def _past_long_orders(self, q: arb, orders: Sequence, compute) -> list:
        """``compute(orders)``, except at the orders past :data:`LONG_ORDERS`: the inner curve there, capped by the
        ε-DP amplification (subsampling mixes adjacent or equal pairs, so it is never above the inner curve)."""
        long = [a for a in orders if a != INF and a > LONG_ORDERS]
        if not long:
            return compute(orders)
        *inner, at_inf = self.inner.balls(long + [INF])
        cap = _cap(q, at_inf)
        far = {_key(a): _min(v, cap) for a, v in zip(long, inner)}
        near = [a for a in orders if a == INF or _key(a) not in far]
        done = dict(zip(map(_order_id, near), compute(near))) if near else {}
        return [far[_key(a)] if a != INF and _key(a) in far else done[_order_id(a)] for a in orders]

    @staticmethod
    def _long_order_how(order: object) -> str | None:
        a = parse_order(order)
        if a != INF and a > LONG_ORDERS:
            return (f"upper bound: the inner curve, at most log(1 + q(e^{{ε_∞}} − 1)) (past α = {LONG_ORDERS} no bound "
                    "summed over the integer orders up to α is formed)")
        return None

    @staticmethod
    def _assembled(orders: Sequence, values: dict, cap, fractional) -> list:
        """Each order's ball: the amplification ``cap`` at ∞ (∞ without one), ``values`` at the integers,
        ``fractional(a)`` elsewhere."""
        out = []
        for a in orders:
            if a == INF:
                out.append(cap if cap is not None else
                           Infinite("the inner mechanism's D_∞ is ∞, and subsampling gives no finite bound on it"))
            elif a.q == 1:
                out.append(values[int(a.p)])
            else:
                out.append(fractional(a))
        return out


@dataclass(frozen=True)
class PoissonSampled(_Subsampled):
    """The Poisson-subsampled curve of ``inner`` at rate ``q`` (module docstring, order by order).

    ``law``: ((P(o), Q(o)), ...) exact, the inner pair when it is finite and dominates every adjacent
    pair (then every order is exact, both directions).  ``removal_dominates``: the reason the addition
    direction never exceeds the removal one (then integer orders are exact), or "".
    """

    name: str
    inner: RdpCurve
    q: sp.Expr
    law: tuple | None = None
    removal_dominates: str = ""
    #: (σ, Δ) when the inner mechanism is the discrete Gaussian: its mixture is summed exactly on ℤ.
    lattice: tuple | None = None
    #: (b, Δ) when the inner mechanism is the Laplace one: its mixture is integrated exactly at fractional orders
    #: (and integer ones past LONG_ORDERS) where α·Δ/b ≤ LAPLACE_QUADRATURE_MAX.
    laplace: tuple | None = None
    source: str = "Zhu–Wang 2019; Mironov–Talwar–Zhang 2019"

    @property
    def convex(self) -> bool:
        """(α − 1)·ε(α) is convex where the curve is an exact divergence; a curve of bounds (chords, minima)
        is not known to be, so the continuous order search does not assume it."""
        # (Not the Laplace mixture: exact only up to α·Δ/b = LAPLACE_QUADRATURE_MAX, and past it the capped bound
        # jumps above the exact values, a second difference of −5.3 at 10⁵; a review.)
        if self.q == 0 or self.law is not None:
            return True
        return self.q == 1 and self.inner.convex

    def how(self, order: object) -> str:
        """Which value the curve takes at ``order``: exact, or which bound, and why."""
        if self.q == 0:
            return "exact: 0 (q = 0: the record is never in the sample)"
        if self.q == 1:
            return "exact: the inner curve (q = 1: every record is in the sample)"
        if self.law is not None:
            return ("exact: both directions of the finite Poisson mixture of the inner pair, which dominates "
                    "every adjacent pair")
        if self.lattice is not None and parse_order(order) != INF and self._fits(parse_order(order)):
            return ("exact: both directions of the Poisson mixture of the discrete Gaussian pair (which dominates "
                    "every adjacent pair), summed on ℤ with certified Gaussian tails")
        cap = " (and at most log(1 + q(e^{ε_∞} − 1)) when the inner ε_∞ is finite)"
        a = parse_order(order)
        if self.laplace is not None and a != INF and (a.q != 1 or a > LONG_ORDERS) and self._integrated(a):
            return ("exact: both directions of the Poisson mixture of the Laplace pair (which dominates every "
                    "adjacent pair), its one non-constant piece by certified quadrature (Arb)")
        if a == INF:
            return "log(1 + q(e^{ε_∞} − 1)) (ε-DP amplification), or ∞ when the inner ε_∞ is ∞"
        if long := self._long_order_how(a):
            return long
        if a.q == 1:
            if self.removal_dominates:
                return ("exact: the binomial expansion of the removal direction (MTZ 2019 Sec. 3; Zhu–Wang 2019); "
                        f"the addition direction is not larger ({self.removal_dominates})" + cap)
            return ("upper bound: the larger of the removal direction's binomial expansion (exact for a pair "
                    "attaining the inner curve) and a bound on the addition direction (addition_bound)" + cap)
        return ("upper bound: the chord of the convex (α−1)ε(α) between the neighbouring integer orders, and at "
                "most log(1 + q(e^{(α−1)ε(α)} − 1))/(α−1)" + cap)

    def balls(self, orders: Sequence) -> list:
        ends = self._at_the_ends(orders)
        if ends is not None:
            return ends
        q = to_arb(self.q)
        if self.law is not None:
            return self._exact(q, orders)
        done = self._lattice(q, orders) if self.lattice is not None else \
            self._laplace(q, orders) if self.laplace is not None else {}

        def general(some: Sequence) -> list:
            return self._past_long_orders(q, some, lambda near: self._general(q, near))

        if done:
            rest = [a for a in orders if a == INF or _key(a) not in done]
            bounds = dict(zip(map(_order_id, rest), general(rest))) if rest else {}
            return [done[_key(a)] if a != INF and _key(a) in done else bounds[_order_id(a)] for a in orders]
        return general(orders)

    def _general(self, q: arb, orders: Sequence) -> list:
        """The bounds from the inner curve alone (and the exact removal direction at integer orders)."""
        ints = _needed_integers(orders)
        top = max(ints) if ints else 1
        fractional = [a for a in orders if a != INF and a.q != 1]
        eps, eps_frac, eps_inf = _inner_balls(self.inner, top, fractional)
        m1 = _moments_m1(eps, top)
        cap = _cap(q, eps_inf)
        values: dict = {}
        for n in ints:
            v = removal_integer(q, m1, n)
            if not self.removal_dominates and not isinstance(v, Infinite):
                w = addition_bound(q, m1, n)
                v = w if isinstance(w, Infinite) else v.max(w)
            values[n] = _min(v, cap)
        return self._assembled(orders, values, cap,
                               lambda a: _min(_chord(values, a), _convexity_bound(q, eps_frac[a], a), cap))

    def _fits(self, order: fmpq) -> bool:
        sigma, delta = self.lattice
        lo, hi = lattice_window(sigma, delta, order, ctx.prec)
        return hi - lo <= LATTICE_MAX_TERMS

    def _lattice(self, q: arb, orders: Sequence) -> dict:
        """Both directions of the discrete Gaussian's mixture, by (p, q) key, at the finite orders whose sums
        take at most :data:`LATTICE_MAX_TERMS` terms (the others get the general bounds)."""
        sigma, delta = self.lattice
        out = {}
        for a in orders:
            if a == INF or _key(a) in out:
                continue
            lo, hi = lattice_window(sigma, delta, a, ctx.prec)
            if hi - lo > LATTICE_MAX_TERMS:
                continue
            s = arb(a)
            removal = lattice_moment(sigma, delta, q, s, lo, hi).log() / (s - 1)
            addition = lattice_moment(sigma, delta, q, 1 - s, lo, hi).log() / (s - 1)
            out[_key(a)] = removal.max(addition)
        return out

    def _integrated(self, a: fmpq) -> bool:
        """Whether the Laplace mixture is integrated at order ``a`` (α·Δ/b at most :data:`LAPLACE_QUADRATURE_MAX`)."""
        b, delta = self.laplace
        return sp.Rational(int(a.p), int(a.q)) * delta / b <= LAPLACE_QUADRATURE_MAX

    def _laplace(self, q: arb, orders: Sequence) -> dict:
        """Both directions of the Laplace pair's mixture, by (p, q) key, at the fractional orders and the integer
        ones past LONG_ORDERS where it is integrated (:meth:`_integrated`); the other integer orders are exact by
        the binomial expansion, ∞ by the amplification bound."""
        b, delta = self.laplace
        t = to_arb(delta) / to_arb(b)
        out = {}
        for a in orders:
            if a == INF or (a.q == 1 and a <= LONG_ORDERS) or not self._integrated(a) or _key(a) in out:
                continue  # (past LONG_ORDERS an integer order too: its binomial expansion has α terms)
            s = arb(a)
            removal = laplace_mixture_moment(q, t, s).log() / (s - 1)
            addition = laplace_mixture_moment(q, t, 1 - s).log() / (s - 1)
            out[_key(a)] = removal.max(addition)
        return out

    def _exact(self, q: arb, orders: Sequence) -> list:
        if all(p == r for p, r in self.law):
            # the same law with and without the record (randomized response at p = 1/2): the mixture pair is one
            # law, D = 0 exactly; in balls log Σ… is a ball around 0 that never reaches relative digits (a probe)
            return [arb(0) for _ in orders]
        rows = [(to_arb(p), to_arb(r)) for p, r in self.law]
        mixed = [((1 - q) * r + q * p, r) for p, r in rows]
        flipped = [(r, m) for m, r in mixed]
        out = []
        for a in orders:
            v = finite_divergence(mixed, a, f"{self.name}, removal")
            if not isinstance(v, Infinite):
                w = finite_divergence(flipped, a, f"{self.name}, addition")
                v = w if isinstance(w, Infinite) else v.max(w)
            out.append(v)
        return out


# ----------------------------------------------------------------------------- without replacement
def wbk_theorem9(q: arb, eps: dict, eps_inf, n: int, central: dict | None = None) -> arb | Infinite:
    """Wang–Balle–Kasiviswanathan 2019, Theorem 9, at the integer order n ≥ 2 (module docstring).

    ``central``: the even central moments D_{2m} of a dominating symmetric pair, by 2m; then the
    terms j ≥ 3 are also at most 4·(D_{2⌊j/2⌋} D_{2⌈j/2⌉})^{1/2} (their Theorem 27).
    """
    if any(isinstance(eps[l], Infinite) for l in range(2, n + 1)):
        return Infinite(f"the inner curve is ∞ at an order ≤ {n}")
    two = arb(2)
    e2 = eps[2]
    g = None if isinstance(eps_inf, Infinite) else eps_inf.expm1()  # e^{ε(∞)} − 1
    second = (4 * e2.expm1()).min(e2.exp() * (two if g is None else two.min(g * g)))
    c = arb(n * (n - 1) // 2) * q * q
    total = c * second
    for j in range(3, n + 1):
        c = c * q * (n - j + 1) / j
        factor = two if g is None else two.min(g**j)
        term = ((j - 1) * eps[j]).exp() * factor
        if central is not None and j <= PEARSON_VAJDA_MAX:
            lo, hi = central[2 * (j // 2)], central[2 * ((j + 1) // 2)]
            pv = 4 * (lo * hi).sqrt()
            # Either bound is valid: take Theorem 27's where it is smaller, or where its ball (cancellation
            # in the central moments) is narrow enough not to widen the minimum.
            if pv.upper() < term.lower() or (pv.is_finite() and pv.rel_accuracy_bits() > ctx.prec - 40):
                term = term.min(pv)
        total += c * term
    return total.log1p() / (n - 1)


def even_central_moments(eps: dict, top: int) -> dict:
    """D_{2m} = E_Q[(P/Q − 1)^{2m}] = Σ_i C(2m,i)(−1)^{2m−i} M_i with M_0 = M_1 = 1, M_i = e^{(i−1)ε(i)},
    for 2m ≤ top (a pair whose curve is its exact divergence); each ball is cut to [0, ∞) (D ≥ 0)."""
    moments = [arb(1), arb(1)] + [((i - 1) * eps[i]).exp() for i in range(2, top + 1)]
    out = {}
    for two_m in range(2, top + 1, 2):
        total, c = arb(0), arb(1)
        for i in range(two_m + 1):
            if i:
                c = c * (two_m - i + 1) / i
            total += c * moments[i] if (two_m - i) % 2 == 0 else -c * moments[i]
        out[two_m] = _nonnegative(total)
    return out


def _nonnegative(x: arb) -> arb:
    """The ball cut to [0, ∞) (for a quantity known to be ≥ 0); [0, 0] if it is certainly ≤ 0."""
    if x >= 0:
        return x
    upper = x.upper()
    return arb(0).union(upper) if upper > 0 else arb(0)


@dataclass(frozen=True)
class WithoutReplacement(_Subsampled):
    """The curve of ``inner`` on a sample of m = q·n records drawn without replacement (module docstring)."""

    name: str
    inner: RdpCurve
    q: sp.Expr
    #: Why one symmetric inner pair dominates every adjacent pair (then Theorem 27 applies), or "".
    dominating: str = ""
    source: str = "Wang–Balle–Kasiviswanathan 2019, Theorems 9 and 27, Corollary 10"

    @property
    def convex(self) -> bool:
        """Bounds (Theorem 9's, chords, minima) are not known to make (α − 1)·ε(α) convex."""
        return self.q == 0 or (self.q == 1 and self.inner.convex)

    def how(self, order: object) -> str:
        """Which value the curve takes at ``order``."""
        if self.q == 0:
            return "exact: 0 (q = 0: nothing is sampled)"
        if self.q == 1:
            return "exact: the inner curve (q = 1: the sample is the dataset)"
        a = parse_order(order)
        if a == INF:
            return "log(1 + q(e^{ε_∞} − 1)) (ε-DP amplification), or ∞ when the inner ε_∞ is ∞"
        if long := self._long_order_how(a):
            return long
        theorem = "Theorems 9 and 27" if self.dominating else "Theorem 9"
        where = (f"Wang–Balle–Kasiviswanathan 2019, {theorem}" if a.q == 1 else
                 f"the chord between the neighbouring integer orders' {theorem} bounds (WBK 2019, Corollary 10)")
        return f"upper bound: {where}, at most the inner curve and log(1 + q(e^{{ε_∞}} − 1))"

    def balls(self, orders: Sequence) -> list:
        ends = self._at_the_ends(orders)
        if ends is not None:
            return ends
        q = to_arb(self.q)
        return self._past_long_orders(q, orders, lambda near: self._bounds(q, near))

    def _bounds(self, q: arb, orders: Sequence) -> list:
        ints = _needed_integers(orders)
        top = max(ints) if ints else 1
        fractional = [a for a in orders if a != INF and a.q != 1]
        central = None
        if self.dominating and ints:
            pv_top = min(top + 1, PEARSON_VAJDA_MAX + 1)
            eps, eps_frac, eps_inf = _inner_balls(self.inner, max(top, pv_top), fractional)
            if all(not isinstance(eps[i], Infinite) for i in range(2, pv_top + 1)):
                central = even_central_moments(eps, pv_top)
        else:
            eps, eps_frac, eps_inf = _inner_balls(self.inner, top, fractional)
        cap = _cap(q, eps_inf)
        values = {n: _min(wbk_theorem9(q, eps, eps_inf, n, central), eps[n], cap) for n in ints}
        return self._assembled(orders, values, cap, lambda a: _min(_chord(values, a), eps_frac[a], cap))
