"""Curves of the mechanisms with discrete outputs, in certified balls: finite laws, the discrete Laplace and
the discrete Gaussian.

Finite laws (:class:`FiniteLoss`)
    A pair (P, Q) given by its probabilities on finitely many outcomes (k-ary
    randomized response, the Poisson mixtures of such pairs).  Every
    divergence is a finite sum, evaluated directly in balls:
    D_α(P‖Q) = log Σ_o P(o)^α Q(o)^{1−α} / (α − 1) and D_∞ = log max P/Q; an
    outcome where one law has mass and the other none makes the divergence
    towards the latter ∞ (with that reason).

The discrete Laplace Lap_ℤ(t) (:class:`DiscreteLaplace`)
    pmf (1 − r)/(1 + r)·r^{|k|}, r = e^{−1/t} (Canonne–Kamath–Steinke 2020).
    Under Q = Lap_ℤ(Δ) the likelihood ratio X = P/Q of the pair
    (Lap_ℤ(0), Lap_ℤ(Δ)) takes the value r^{−Δ} with Q-mass r^Δ/(1+r) (k ≤ 0),
    r^Δ with mass 1/(1+r) (k ≥ Δ) and r^{2k−Δ} with mass (1−r)/(1+r)·r^{Δ−k}
    (0 < k < Δ).  So E_Q[X^s] = r^{Δ(1−s)}/(1+r) + r^{Δs}/(1+r) +
    (1−r)/(1+r)·r^{Δ(1−s)}·Σ_{k=1}^{Δ−1} ρ^k with ρ = r^{2s−1}, a geometric sum
    in closed form, and D_α(P‖Q) = log E_Q[X^α]/(α − 1) (the pair is symmetric
    under k ↦ Δ − k).  D_∞ = Δ/t.

The discrete Gaussian N_ℤ(0, σ²) (:class:`DiscreteGaussian`)
    With θ(u) = Σ_{k∈ℤ} e^{−(k−u)²/(2σ²)},
    D_α = αΔ²/(2σ²) + log(θ((1−α)Δ)/θ(0))/(α − 1) (see
    :func:`rdpsym.laws.mechanisms.discrete_gaussian`).  θ has period 1 and is
    even, so only the distance u ∈ [0, ½] of (α − 1)Δ to the nearest integer
    matters; u = 0 (every integer order) gives exactly αΔ²/(2σ²).  Otherwise
    log(θ(u)/θ(0)) is summed in balls with a certified tail, in the form that
    converges faster: directly (small σ), or after Poisson summation,
    θ(u)/θ(0) = (1 + 2Σ_{n≥1} e^{−2π²σ²n²} cos 2πnu)/(1 + 2Σ_{n≥1} e^{−2π²σ²n²}),
    whose numerator minus denominator, −4Σ e^{−2π²σ²n²} sin²(πnu), is summed
    without cancellation (so tiny corrections keep their relative accuracy).
    Tails: Σ_{j≥a} e^{−j²/c} over j ∈ a + ℕ is at most e^{−a²/c}/(1 − e^{−(2a+1)/c}).
    D_∞ = ∞.

Every function here works at the current Arb precision; the curve layer
raises it until the requested digits are certified.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import sympy as sp
from flint import arb, ctx, fmpq

from rdpsym.accounting.components import Component, Infinite
from rdpsym.foundations.balls import to_arb
from rdpsym.foundations.symbols import alpha

__all__ = ["DiscreteGaussian", "DiscreteLaplace", "FiniteLoss", "discrete_laplace_atoms", "finite_loss_of_tables",
           "theta_log_ratio"]

INF = float("inf")


# ----------------------------------------------------------------------------- finite laws
def finite_loss_of_tables(P: dict, Q: dict) -> tuple:
    """The outcomes of two finite tables as ((P(o), Q(o)), ...), exact, over the union of outcomes."""
    outcomes = list(dict.fromkeys([*P, *Q]))
    return tuple((sp.sympify(P.get(o, 0), strict=True), sp.sympify(Q.get(o, 0), strict=True)) for o in outcomes)


def _power_sum(rows: Sequence[tuple[arb, arb]], s: arb) -> arb:
    """Σ_o a_o^s b_o^{1−s} over outcomes with a_o, b_o > 0 (the caller handles zeros)."""
    total = arb(0)
    for a, b in rows:
        total += b * (s * (a / b).log()).exp()
    return total


def finite_divergence(rows: Sequence[tuple[arb, arb]], order: object, what: str) -> arb | Infinite:
    """D_order(A‖B) for the finite law ``rows`` = ((A(o), B(o)), ...) as balls (order > 1 or ∞)."""
    if any(a > 0 and b.is_zero() for a, b in rows):
        return Infinite(f"{what}: the first law has mass where the second has none")
    live = [(a, b) for a, b in rows if not a.is_zero()]
    if order == INF:
        out = None
        for a, b in live:
            v = (a / b).log()
            out = v if out is None else out.max(v)
        return out if out is not None else arb(0)
    s = arb(order)
    return _power_sum(live, s).log() / (s - 1)


@dataclass(frozen=True)
class FiniteLoss(Component):
    """The curve of a pair of finite laws ``rows`` = ((P(o), Q(o)), ...), exact SymPy numbers.

    ``symmetric``: D_α(P‖Q) ≥ D_α(Q‖P) is known (the pair is symmetric up to relabelling); otherwise the
    curve is the larger of the two directions at each order, as adjacency is symmetric.
    """

    name: str
    rows: tuple
    symmetric: bool = False
    source: str = ""
    certified: bool = True
    convex: bool = True  # (α−1)·D_α of a pair (a max of two) is convex

    @property
    def closed_form(self) -> sp.Expr | None:
        return None

    def how(self, order: object) -> str:
        return "exact: a finite sum over the outcomes of the pair"

    def _directions(self) -> list | Infinite:
        """The rows (a, b) with a ≠ 0 of each direction the curve is the larger of (P‖Q, and Q‖P unless symmetric);
        :class:`Infinite` where a law has mass the other has not."""
        directions = []
        for i, j in [(0, 1)] if self.symmetric else [(0, 1), (1, 0)]:
            rows = [(row[i], row[j]) for row in self.rows if row[i] != 0]
            if any(b == 0 for _, b in rows):
                return Infinite(f"{self.name}: one law has mass where the other has none")
            directions.append(rows)
        return directions

    def _at_infinity(self):
        """D_∞ = log max P/Q (and the reverse unless symmetric), the ratios simplified exactly first
        (k-ary randomized response: log e^ε = ε, not a ball around it)."""
        directions = self._directions()
        if isinstance(directions, Infinite):
            return directions
        out = None
        for rows in directions:
            for a, b in rows:
                v = to_arb(sp.log(a / b))
                out = v if out is None else out.max(v)
        return out if out is not None else arb(0)

    def kl(self) -> sp.Expr | Infinite:
        """The curve's value at α = 1, exactly: Σ P·log(P/Q), the larger of the two directions unless symmetric (the
        limit of the larger D_α, each continuous in α)."""
        directions = self._directions()
        if isinstance(directions, Infinite):
            return directions
        values = [sp.Add(*(a * sp.log(a / b) for a, b in rows)) for rows in directions]
        if len(values) == 1 or values[0] == values[1]:
            return values[0]
        first, second = (to_arb(v) for v in values)
        if first > second or second > first:
            return values[0] if first > second else values[1]
        return sp.Max(*values)

    def balls(self, orders: Sequence) -> list:
        if all(p == q for p, q in self.rows):  # the same law twice (ε = 0, one value): exactly 0
            return [arb(0) for _ in orders]
        rows = [(to_arb(p), to_arb(q)) for p, q in self.rows]
        flipped = [(b, a) for a, b in rows]
        out = []
        for order in orders:
            if order == INF:
                out.append(self._at_infinity())
                continue
            v = finite_divergence(rows, order, f"{self.name}, D(P‖Q)")
            if not self.symmetric and not isinstance(v, Infinite):
                w = finite_divergence(flipped, order, f"{self.name}, D(Q‖P)")
                v = w if isinstance(w, Infinite) else v.max(w)
            out.append(v)
        return out


# ----------------------------------------------------------------------------- the discrete Laplace
def _geometric(ell: arb, n: int) -> arb:
    """Σ_{k=1}^{n} e^{kℓ} = e^ℓ·expm1(nℓ)/expm1(ℓ) for ℓ ≠ 0 (n ≥ 0): no cancellation however close ρ = e^ℓ is to 1."""
    if n <= 0:
        return arb(0)
    if ell.is_zero():
        return arb(n)
    if n <= 16:
        rho = ell.exp()
        total, power = arb(0), arb(1)
        for _ in range(n):
            power *= rho
            total += power
        return total
    return ell.exp() * (n * ell).expm1() / ell.expm1()


def discrete_laplace_atoms(t: sp.Expr, d: int) -> tuple:
    """((Q-mass, X), ...) for the pair (Lap_ℤ(0), Lap_ℤ(Δ)) under Q (module docstring); Δ − 1 middle atoms."""
    r = sp.exp(-1 / t)
    atoms = [(r**d / (1 + r), r ** (-d)), (1 / (1 + r), r**d)]
    atoms += [((1 - r) / (1 + r) * r ** (d - k), r ** (2 * k - d)) for k in range(1, d)]
    return tuple(atoms)


class _IntegerNoise(Component):
    """What the discrete Laplace and Gaussian components share: no closed form in α (a certified value at every
    order instead), each order's ball from :meth:`at_order`, and D_∞ from :meth:`at_infinity`."""

    @property
    def closed_form(self) -> sp.Expr | None:
        return None

    def balls(self, orders: Sequence) -> list:
        return [self.at_infinity() if order == INF else self.at_order(order) for order in orders]

    def at_order(self, order: fmpq) -> arb:
        raise NotImplementedError

    def at_infinity(self) -> arb | Infinite:
        raise NotImplementedError


@dataclass(frozen=True)
class DiscreteLaplace(_IntegerNoise):
    """The discrete Laplace Lap_ℤ(t) with integer sensitivity Δ: E_Q[X^α] in closed form (module docstring)."""

    name: str
    scale: sp.Expr
    sensitivity: int
    source: str = "Canonne, Kamath, Steinke 2020 (Lap_ℤ(t))"
    certified: bool = True
    convex: bool = True

    def how(self, order: object) -> str:
        return "exact: E_Q[X^α] as a closed-form geometric sum (Canonne–Kamath–Steinke 2020's Lap_ℤ)"

    def moment(self, s: arb) -> arb:
        """E_Q[X^s] for the pair (Lap_ℤ(0), Lap_ℤ(Δ)), at the current precision."""
        d = self.sensitivity
        inv_t = 1 / to_arb(self.scale)
        one = 1 + (-inv_t).exp()  # 1 + r
        outer = (-d * inv_t * (1 - s)).exp()  # r^{Δ(1−s)}
        middle = -(-inv_t).expm1() / one * outer * _geometric(-(2 * s - 1) * inv_t, d - 1)
        return outer / one + (-d * inv_t * s).exp() / one + middle

    def at_order(self, order: fmpq) -> arb:
        s = arb(order)
        return self.moment(s).log() / (s - 1)

    def at_infinity(self) -> arb:
        return self.sensitivity / to_arb(self.scale)

    def kl(self) -> sp.Expr:
        """The curve's value at α = 1, exactly: KL = (Δ − 2r(1 − r^Δ)/(1 − r²))/t.

        log(P/Q)(k) = (|k − Δ| − |k|)/t is Δ/t for k ≤ 0, −Δ/t for k ≥ Δ and (Δ − 2k)/t between; under P those
        have masses 1/(1 + r), r^Δ/(1 + r) and (1 − r)/(1 + r)·r^k, and the middle's Σ k·r^k is a finite
        arithmetic-geometric sum.  Summed atom by atom instead, Δ = 10⁶ built a SymPy sum of a million terms and
        never returned (a probe).

        >>> t = sp.Symbol("t", positive=True)
        >>> DiscreteLaplace("l", t, 1).kl().equals((1 - sp.exp(-1 / t)) / (1 + sp.exp(-1 / t)) / t)
        True
        """
        d, r = self.sensitivity, sp.exp(-1 / self.scale)
        return (d - 2 * r * (1 - r**d) / (1 - r**2)) / self.scale


# ----------------------------------------------------------------------------- the discrete Gaussian
def _gauss_tail(a: arb, c: arb) -> arb:
    """An upper bound on Σ_{m≥0} e^{−(a+m)²/c} for a > 0: e^{−a²/c}/(1 − e^{−(2a+1)/c})."""
    return (-(a * a) / c).exp() / (1 - (-(2 * a + 1) / c).exp())


def theta_log_ratio(sigma: sp.Expr, u: fmpq) -> arb:
    """log(θ(u)/θ(0)) for θ(u) = Σ_{k∈ℤ} e^{−(k−u)²/(2σ²)} and u ∈ [0, ½], a certified ball.

    >>> from rdpsym.foundations.balls import precision
    >>> with precision(120):
    ...     b = theta_log_ratio(sp.Integer(2), fmpq(1, 2))
    >>> b.rel_accuracy_bits() > 100, float(b.mid()) < 0
    (True, True)
    """
    if u == 0:
        return arb(0)
    s = to_arb(sigma)
    bits = ctx.prec + 20
    # How far a sum must run for its next term to be 2^−bits of its first (n² more for the sin² sum): the loops
    # stop there at the latest.  Their own test compares balls, which at a low precision may all contain 0 (σ =
    # 10¹⁰: e^{−2π²σ²} with c known to ±100 is [0 ± e^{−c+100}]), and it never came true: a hang.  The tails
    # are added as certified bounds after the loops either way.
    needed = bits * math.log(2) + 2 * math.log(bits) + 10
    if s * s * (2 * arb.pi()) ** 2 >= 1:  # e^{−2π²σ²} ≤ e^{−1/(2σ²)}: Poisson summation converges faster
        c = 2 * arb.pi() ** 2 * s * s  # terms e^{−c n²}, c ≥ ½
        last = 1 + math.isqrt(int(needed / max(float(c.lower()), 0.5)) + 1)  # c(n² − 1) ≥ needed
        total_sin, total, n = arb(0), arb(0), 1
        while True:
            term = (-c * n * n).exp()
            total += term
            total_sin += term * (arb.pi() * arb(n * u)).sin() ** 2
            # the rest, below the next term, negligible against both sums (the sin² sum may be tiny)
            if n >= last or term < arb(2) ** (-bits) * total_sin.min(arb(1)):
                break
            n += 1
        # Σ_{m>n} e^{−c m²} ≤ e^{−c(n+1)²}/(1 − e^{−c(2n+3)})  (the ratio of consecutive terms decreases)
        tail = (-c * (n + 1) ** 2).exp() / (1 - (-c * (2 * n + 3)).exp())
        total = total + arb(0).union(tail.upper())
        total_sin = total_sin + arb(0).union(tail.upper())  # sin² ≤ 1: the tail of the sin² sum is below it
        ratio_m1 = -4 * total_sin / (1 + 2 * total)  # θ(u)/θ(0) − 1
        return ratio_m1.log1p()
    c = 2 * s * s  # terms e^{−(k−u)²/c}, c < 1/(2π²)
    last = 2 + math.isqrt(int(min(float(c.upper()), 1.0) * needed) + 1)  # ((k − u)² − u²)/c ≥ needed, u ≤ ½
    uu = arb(u)
    num, den, k = arb(0), arb(0), 0
    while True:
        if k == 0:
            num += (-(uu * uu) / c).exp()
            den += 1
        else:
            num += (-((k - uu) ** 2) / c).exp() + (-((k + uu) ** 2) / c).exp()
            den += 2 * (-arb(k * k) / c).exp()
        k += 1
        # the next term, which bounds the rest up to a factor 2, negligible against both sums so far
        if k > last or (-((k - uu) ** 2) / c).exp() < arb(2) ** (-bits) * num.min(den):
            break
    # the rest: k ≥ K on each side, distances ≥ K − u ≥ K − ½ from u and ≥ K from 0
    tail_num = 2 * _gauss_tail(k - uu, c)
    tail_den = 2 * _gauss_tail(arb(k), c)
    num = num + arb(0).union(tail_num.upper())
    den = den + arb(0).union(tail_den.upper())
    return (num / den).log()


def _distance_to_integer(x: fmpq) -> fmpq:
    """|x − round(x)| ∈ [0, ½] for a rational x."""
    f = x - (x.p // x.q)
    return min(f, 1 - f)


@dataclass(frozen=True)
class DiscreteGaussian(_IntegerNoise):
    """The discrete Gaussian N_ℤ(0, σ²) with integer sensitivity Δ, exactly (module docstring)."""

    name: str
    sigma: sp.Expr
    sensitivity: int
    source: str = "Canonne, Kamath, Steinke 2020 (N_ℤ(μ, σ²)); exact by its theta sums"
    certified: bool = True
    convex: bool = True

    def at_order(self, order: fmpq) -> arb:
        s, a = to_arb(self.sigma), arb(order)
        u = _distance_to_integer((order - 1) * self.sensitivity)
        correction = theta_log_ratio(self.sigma, u) / (a - 1) if u != 0 else arb(0)
        return a * arb(self.sensitivity) ** 2 / (2 * s * s) + correction

    def at_infinity(self) -> Infinite:
        return Infinite("D_∞ of the discrete Gaussian is ∞ (its privacy loss is unbounded)")

    def kl(self) -> sp.Expr:
        """The curve's value at α = 1: Δ²/(2σ²) exactly.  θ is even, so log(θ(u)/θ(0)) = O(u²) with u = |α − 1|·Δ
        near α = 1, and the correction, that over α − 1, tends to 0."""
        return sp.Integer(self.sensitivity) ** 2 / (2 * self.sigma**2)

    def how(self, order: object) -> str:
        return ("exact: αΔ²/(2σ²) plus the theta sums' log(θ((1−α)Δ)/θ(0))/(α−1), certified (0 at integer "
                "orders: Canonne–Kamath–Steinke 2020's bound is attained there)")

    def continuous_bound(self) -> sp.Expr:
        """αΔ²/(2σ²), the bound of CKS 2020 (and the continuous Gaussian's curve), never below this curve."""
        return alpha * sp.Integer(self.sensitivity) ** 2 / (2 * self.sigma**2)
