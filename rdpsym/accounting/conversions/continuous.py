"""The best ε over a continuous range of orders, certified by branch and bound.

:func:`continuous_epsilon` encloses inf over α ∈ [lo, hi] of ε(α, r(α), δ), with ε(·) one
of the conversions of :mod:`~rdpsym.accounting.conversions.rdp_dp` (I. Mironov, "Rényi
Differential Privacy", CSF 2017, arXiv:1702.07476v3, Proposition 3; B. Balle et al.,
AISTATS 2020, arXiv:1905.09982, Theorem 21), between a certified lower bound and the
best order evaluated (:class:`ContinuousOptimum`).  The bounds on a range of orders rest
on r being nondecreasing in α (Mironov 2017, Proposition 9) and, with ``convex=True``,
on (α − 1)·r(α) being convex (a cumulant generating function, by Hölder's
inequality); both hypotheses are checked on every evaluated point.
"""

from __future__ import annotations

import bisect
import heapq
import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, pairwise

from flint import arb, fmpq

from rdpsym.accounting.conversions._inputs import (
    Order,
    Real,
    _checked,
    _delta,
    _infinite_reason,
    _is_inf,
    _log1m_inv,
    _nonnegative,
    _order,
    _positive,
    _rational,
)
from rdpsym.accounting.conversions.rdp_dp import Conversion, _conversion, _epsilon_at
from rdpsym.foundations.errors import ParameterError, must, quoted

__all__ = [
    "ContinuousOptimum",
    "continuous_epsilon",
]


@dataclass(frozen=True)
class ContinuousOptimum:
    """The result of :func:`continuous_epsilon`.

    ``lower`` is certified: ε(α) ≥ lower for every α in [lo, hi] (an exact point).
    ``best`` is the ball of ε at ``order``, the best order evaluated, so the
    infimum is ≤ ``best.upper()``.  ``gap`` is an exact upper bound on
    best.upper() − lower; ``converged`` says whether gap ≤ tol.  ``evaluations``
    counts the calls of the RDP curve.  If the curve is infinite on the whole
    range, ``lower`` and ``best`` are ``math.inf`` and ``order`` is None.
    """

    lower: arb | float
    best: arb | float
    order: fmpq | None
    gap: arb
    tol: arb
    converged: bool
    evaluations: int

    @property
    def enclosure(self) -> arb | float:
        """A ball containing inf_α ε(α) over [lo, hi]: from ``lower`` to ``best.upper()``."""
        if _is_inf(self.best):
            return math.inf
        return self.lower.union(self.best.upper())


def _rdp_value(x: object, order: fmpq) -> arb | float:
    if _infinite_reason(x) is not None:
        return math.inf
    return _nonnegative(f"rdp_at({order})", x)


def _leaf_lower(conversion: str, a: fmpq, b: fmpq, r_a: arb | float, L: arb) -> arb | float:
    """A certified lower bound of ε(α) over α in [a, b], from r nondecreasing in α."""
    if _is_inf(r_a):
        return math.inf
    ha, hb = arb(a - 1), arb(b - 1)
    if conversion == "mironov":
        # r(α) ≥ r(a) and log(1/δ)/(α − 1) ≥ log(1/δ)/(b − 1).
        lb = r_a + L / hb
    else:
        # r(α) ≥ r(a); log(1 − 1/α) is increasing; N(α) = log(1/δ) − log α decreases, so
        # N(α)/(α − 1) ≥ N(b)/(α − 1) ≥ min(N(b)/(b − 1), N(b)/(a − 1)) whatever N(b)'s sign.
        n_b = L - hb.log1p()
        lb = r_a + _log1m_inv(arb(a), ha) + (n_b / hb).min(n_b / ha)
    return _checked("lower bound", lb).lower()


def _psi(x: fmpq) -> tuple[arb, arb]:
    """ψ(α) = (α − 1)·log(1 − 1/α) − log α and ψ'(α) = log(1 − 1/α), as balls at α = x.

    ψ is convex (ψ'' = 1/(α − 1) − 1/α > 0), and Balle's ε is (G + ψ + log(1/δ))/(α − 1)
    with G = (α − 1)·r, so G + ψ is convex whenever G is.
    """
    a, h = arb(x), arb(x - 1)
    d = _log1m_inv(a, h)
    return h * d - h.log1p(), d


def _convex_value(conversion: str, x: fmpq, g: arb) -> arb:
    """The convex function Y with ε = (Y + log(1/δ))/(α − 1): Y = G (Mironov), G + ψ (Balle)."""
    return g if conversion == "mironov" else g + _psi(x)[0]


def _min_max_linear(ends: list[tuple[arb, arb]]) -> arb:
    """A certified lower bound of min over u ∈ [u₀, u₁] of max_k f_k(u), f_k affine in u, given
    the balls of each f_k at the two ends, ``ends[k] = (f_k(u₀), f_k(u₁))``.

    By duality the minimum of the maximum is the maximum over weights λ (λ_k ≥ 0, Σλ_k = 1)
    of min(Σλ_k f_k(u₀), Σλ_k f_k(u₁)), attained with at most two nonzero weights: every
    single f_k, and for each pair of opposite slopes the weights that make the combination
    flat.  Any weights give a lower bound, so the weights are rounded freely (λ an exact
    point of [0, 1]; the ball of 1 − λ contains the exact complement).
    """
    cands = [fa.min(fb) for fa, fb in ends]
    for (fa1, fb1), (fa2, fb2) in combinations(ends, 2):
        d1, d2 = (fa1 - fb1).mid(), (fa2 - fb2).mid()
        if (d1 > 0 and d2 < 0) or (d1 < 0 and d2 > 0):
            lam = (d2 / (d2 - d1)).mid()
            if not (lam >= 0 and lam <= 1):
                continue
            mu = 1 - lam
            cands.append((lam * fa1 + mu * fa2).min(lam * fb1 + mu * fb2))
    good = [c.lower() for c in cands if c.is_finite()]
    return max(good) if good else arb.neg_inf()


def _convex_leaf_lower(
    conversion: str,
    a: fmpq,
    b: fmpq,
    r_a: arb,
    y_a: arb,
    y_b: arb | None,
    left: tuple[fmpq, arb] | None,
    right: tuple[fmpq, arb] | None,
    L: arb,
) -> arb:
    """A certified lower bound of ε(α) over α in [a, b] (a < b) when Y(α) is convex, where
    ε = (Y + L)/(α − 1) (:func:`_convex_value`), from linear lower bounds Y ≥ ℓ_k on [a, b]:

    * left secant, with a neighbour p < a: Y lies above the line through (p, Y(p)), (a, Y(a))
      on [a, ∞);
    * right secant, with a neighbour c > b: Y lies above the line through (b, Y(b)), (c, Y(c))
      on (−∞, b];
    * monotone: G(α) = (α − 1)·r(α) ≥ (α − 1)·r(a) (r nondecreasing), plus for Balle the
      tangent of the convex ψ at the midpoint.

    With balls, each secant is replaced by the line through the lower end at the shared point
    and the upper end at the far one, which lies below every secant of values in the balls on
    the side used.  For a line ℓ = mα + c, (ℓ + L)/(α − 1) = m + (m + c + L)/(α − 1) is affine
    in u = 1/(α − 1), so the bound is min over u of the max of affine functions of u, known
    from their values at a and b (:func:`_min_max_linear`).  ``left`` is (p, Y(p)) and
    ``right`` is (c, Y(c)); ``y_b`` is Y(b) (None when r(b) is infinite).
    """
    ha, hb = arb(a - 1), arb(b - 1)
    w = b - a
    lines: list[tuple[arb, arb]] = []  # (ℓ(a), ℓ(b))
    lo_a = y_a.lower()
    rl = r_a.lower()
    mono_a, mono_b = rl * ha, rl * hb
    if conversion == "balle":
        mid = (a + b) / 2
        psi_m, dpsi_m = _psi(mid)
        mono_a += psi_m - dpsi_m * arb(w / 2)
        mono_b += psi_m + dpsi_m * arb(w / 2)
    lines.append((mono_a, mono_b))
    if left is not None:
        p, y_p = left
        lines.append((lo_a, lo_a + (lo_a - y_p.upper()) * arb(w / (a - p))))
    if right is not None and y_b is not None:
        c, y_c = right
        lo_b = y_b.lower()
        lines.append((lo_b + (lo_b - y_c.upper()) * arb(w / (c - b)), lo_b))
    ends = [((la + L) / ha, (lb + L) / hb) for la, lb in lines]
    return _min_max_linear(ends)


def _exact_key(x: arb | float):
    if _is_inf(x):
        return math.inf
    m, e = x.mid().man_exp()
    return Fraction(int(m)) * Fraction(2) ** int(e)


def _simplest_between(lo: Fraction, hi: Fraction) -> Fraction:
    """The rational of least denominator in [lo, hi] (0 < lo ≤ hi), by continued fractions."""
    n = math.floor(lo)
    if n == lo or n + 1 <= hi:
        return Fraction(n if n == lo else n + 1)
    return n + 1 / _simplest_between(1 / (hi - n), 1 / (lo - n))


def _nice(target: float, a: fmpq, b: fmpq) -> fmpq | None:
    """A short rational near ``target`` strictly inside (a, b), or None if ``target`` is unusable."""
    fa, fb = Fraction(int(a.p), int(a.q)), Fraction(int(b.p), int(b.q))
    if not math.isfinite(target):
        return None
    t = Fraction(target)
    if not fa < t < fb:
        return None
    m = _simplest_between(t - (t - fa) / 2, t + (fb - t) / 2)
    return fmpq(m.numerator, m.denominator)


def _split(a: fmpq, b: fmpq) -> fmpq:
    """A short rational strictly inside (a, b): near the geometric mean in α − 1 when the
    leaf spans a wide ratio, else near the midpoint (any point inside is correct)."""
    ha, hb = a - 1, b - 1
    if hb > 4 * ha:
        m = _nice(1 + math.sqrt(float(ha)) * math.sqrt(float(hb)), a, b)
        if m is not None:
            return m
    return _nice(float((a + b) / 2), a, b) or (a + b) / 2


# --------------------------------------------------------------------------- branch and bound


def _range(lo: Order, hi: Order) -> tuple[fmpq, fmpq]:
    """The range [lo, hi] of orders as exact rationals, checked: 1 < lo ≤ hi."""
    a0, b0 = _rational("lo", lo), _rational("hi", hi)
    _order(a0, "lo")
    if not b0 >= a0:
        raise ParameterError(must("hi", f"at least lo (hi ≥ {a0})", b0))
    return a0, b0


def _check_options(max_evaluations: object, convex: object) -> None:
    if isinstance(max_evaluations, bool) or not isinstance(max_evaluations, int) or max_evaluations < 2:
        raise ParameterError(must("max_evaluations", "an integer ≥ 2", max_evaluations))
    if not isinstance(convex, bool):
        raise ParameterError(must("convex", "True or False", quoted(convex)))


def _initial_grid(a0: fmpq, b0: fmpq, initial_points: int, max_evaluations: int) -> list[fmpq]:
    """The initial grid, sorted: lo, hi and up to ``initial_points`` short rationals between
    them (fewer if ``max_evaluations`` is small), geometric in α − 1 (the evenly spaced point
    where the geometric one is unusable)."""
    points = {a0, b0}
    n = max(0, min(int(initial_points), max_evaluations - 2))
    if b0 > a0 and n:
        ha, hb = float(a0 - 1), float(b0 - 1)
        for i in range(1, n + 1):
            x = None
            if ha > 0 and math.isfinite(hb / ha):
                x = _nice(1 + ha * (hb / ha) ** (i / (n + 1)), a0, b0)
            if x is None:
                x = a0 + (b0 - a0) * fmpq(i, n + 1)
            points.add(x)
    return sorted(points)


class _Curve:
    """The RDP curve at the points evaluated so far: ``values`` (r, a ball or ``math.inf``),
    ``ys`` (the convex Y of :func:`_convex_value`, at the finite points, with convex=True),
    and the best ε found (``best``, at ``best_order``; ``best_upper`` is its upper end).
    The hypotheses are checked on the evaluated points: a certified violation raises."""

    def __init__(self, rdp_at: Callable[[fmpq], Real | float], conversion: str, d: arb, convex: bool) -> None:
        self.rdp_at = rdp_at
        self.conversion = conversion
        self.d = d
        self.convex = convex
        self.eps_at = _epsilon_at(conversion)
        self.values: dict[fmpq, arb | float] = {}
        self.ys: dict[fmpq, arb] = {}
        self.best_upper: arb | float = math.inf
        self.best_order: fmpq | None = None
        self.best: arb | float = math.inf

    def evaluate(self, x: fmpq) -> None:
        """Call the curve at x (once per point), and keep ε(x) if it is the best so far."""
        if x not in self.values:
            v = _rdp_value(self.rdp_at(x), x)
            self.values[x] = v
            if not _is_inf(v):
                e = self.eps_at(x, v, self.d)
                if _is_inf(self.best_upper) or e.upper() < self.best_upper:
                    self.best_upper, self.best_order, self.best = e.upper(), x, e
                if self.convex:
                    self.ys[x] = _convex_value(self.conversion, x, arb(x - 1) * v)

    def check_monotone(self, x: fmpq, y: fmpq) -> None:
        vx, vy = self.values[x], self.values[y]
        bad = (not _is_inf(vy)) and (_is_inf(vx) or vx.lower() > vy.upper())
        if bad:
            raise ParameterError(
                must("rdp_at", "nondecreasing in the order (Mironov 2017, Prop. 9)", f"r({x}) = {vx} > r({y}) = {vy}")
            )

    def check_convex(self, x: fmpq, y: fmpq, z: fmpq) -> None:
        """Raise if the balls certify G(y) above the chord of G from x to z (x < y < z)."""
        vx, vy, vz = self.values[x], self.values[y], self.values[z]
        if _is_inf(vx) or _is_inf(vy) or _is_inf(vz):
            return
        gx, gy, gz = arb(x - 1) * vx, arb(y - 1) * vy, arb(z - 1) * vz
        if arb(z - y) * (gy - gx) > arb(y - x) * (gz - gy):
            raise ParameterError(
                must(
                    "rdp_at",
                    "(α−1)·r(α) convex in α (convex=True)",
                    f"(α−1)·r(α) = {gy} at α = {y}, above its chord from ({x}, {gx}) to ({z}, {gz})",
                )
            )

    def gap(self, lb: arb | float) -> arb | float:
        """An upper bound on the best ε minus a lower bound lb: 0 if lb is infinite, ∞ while
        no finite ε has been found."""
        if _is_inf(self.best_upper) or _is_inf(lb):
            return arb(0) if _is_inf(lb) else math.inf
        return (self.best_upper - lb).upper()


def _evaluate_grid(curve: _Curve, grid: list[fmpq]) -> None:
    """Evaluate the curve on the initial grid, and check it there: nondecreasing, and with
    convex=True (α − 1)·r(α) convex on every consecutive triple."""
    for x in grid:
        curve.evaluate(x)
    for x, y in pairwise(grid):
        curve.check_monotone(x, y)
    if curve.convex:
        for x, y, z in zip(grid, grid[1:], grid[2:]):
            curve.check_convex(x, y, z)


class _Leaves:
    """The leaves [grid[i], grid[i + 1]] partition [lo, hi]; a heap of their bounds, where an
    entry is live while live[a] holds its id (a leaf's bound is replaced when a neighbour
    is split, as its secants then tighten)."""

    def __init__(self, curve: _Curve, grid: list[fmpq], L: arb) -> None:
        self.curve = curve
        self.grid = grid
        self.L = L
        self.heap: list = []
        self.live: dict[fmpq, tuple[int, arb | float]] = {}
        self.counter = 0
        if len(grid) == 1:
            a0 = grid[0]
            self.push(a0, a0, _leaf_lower(curve.conversion, a0, a0, curve.values[a0], L))
        for i in range(len(grid) - 1):
            self.push(grid[i], grid[i + 1], self.bound(i))

    def bound(self, i: int) -> arb | float:
        """The bound of the leaf [grid[i], grid[i + 1]]: the monotone one, and with
        convex=True the larger of it and the convex one (both are certified)."""
        grid, curve = self.grid, self.curve
        a, b = grid[i], grid[i + 1]
        lb = _leaf_lower(curve.conversion, a, b, curve.values[a], self.L)
        if not curve.convex or _is_inf(lb):
            return lb
        ys = curve.ys
        left = (grid[i - 1], ys[grid[i - 1]]) if i >= 1 and grid[i - 1] in ys else None
        right = (grid[i + 2], ys[grid[i + 2]]) if i + 2 < len(grid) and grid[i + 2] in ys else None
        lc = _convex_leaf_lower(curve.conversion, a, b, curve.values[a], ys[a], ys.get(b), left, right, self.L)
        return max(lb, lc)

    def push(self, a: fmpq, b: fmpq, lb: arb | float) -> None:
        heapq.heappush(self.heap, (_exact_key(lb), self.counter, a, b, lb))
        self.live[a] = (self.counter, lb)
        self.counter += 1

    def update(self, i: int) -> None:
        """Recompute a leaf's bound after a new point next to it; the old bound stays valid."""
        lb, old = self.bound(i), self.live[self.grid[i]][1]
        if not _is_inf(lb) and (_is_inf(old) or old > lb):
            lb = old
        self.push(self.grid[i], self.grid[i + 1], lb)

    def lowest(self) -> tuple[fmpq, fmpq, arb | float]:
        """The live leaf of least bound, as (a, b, bound); it stays on top of the heap."""
        heap = self.heap
        while self.live[heap[0][2]][0] != heap[0][1]:
            heapq.heappop(heap)  # replaced by a tighter bound of the same leaf
        _, _, a, b, lb = heap[0]
        return a, b, lb

    def split_lowest(self) -> None:
        """Split the leaf of least bound, [a, b], at a new point m (:func:`_split`): evaluate
        the curve at m, check the hypotheses around it, and bound [a, m] and [m, b]."""
        curve, grid = self.curve, self.grid
        _, _, a, b, _ = heapq.heappop(self.heap)
        m = _split(a, b)
        curve.evaluate(m)
        curve.check_monotone(a, m)
        curve.check_monotone(m, b)
        i = bisect.bisect_left(grid, a)
        grid.insert(i + 1, m)
        if curve.convex:
            for j in range(max(i - 1, 0), min(i + 2, len(grid) - 2)):
                curve.check_convex(grid[j], grid[j + 1], grid[j + 2])
        self.push(a, m, self.bound(i))
        self.push(m, b, self.bound(i + 1))
        if curve.convex:  # the neighbours' secants now end at m: they are tighter
            if i >= 1:
                self.update(i - 1)
            if i + 2 < len(grid) - 1:
                self.update(i + 2)


def _branch_and_bound(curve: _Curve, leaves: _Leaves, t: arb, max_evaluations: int) -> tuple[arb | float, bool]:
    """Split the leaf of least bound until the gap between the best ε and that bound is
    ≤ tol, or ``max_evaluations`` calls of the curve have been made (or the range is one
    point).  Returns the least leaf bound, a certified lower bound on the infimum, and
    whether the gap reached tol."""
    while True:
        a, b, lb = leaves.lowest()
        g = curve.gap(lb)
        if not _is_inf(g) and g <= t.lower():
            return lb, True
        if a == b or len(curve.values) >= max_evaluations:
            return lb, False
        leaves.split_lowest()


def _optimum(curve: _Curve, lower: arb | float, t: arb, converged: bool) -> ContinuousOptimum:
    """The result: the certified lower bound, the best order evaluated, and the gap between."""
    if _is_inf(curve.best_upper):
        return ContinuousOptimum(math.inf, math.inf, None, arb(0), t, True, len(curve.values))
    gap = curve.gap(lower)
    return ContinuousOptimum(lower, curve.best, curve.best_order, gap, t, converged, len(curve.values))


def continuous_epsilon(
    rdp_at: Callable[[fmpq], Real | float],
    delta: Real,
    conversion: Conversion,
    lo: Order,
    hi: Order,
    tol: Real,
    *,
    max_evaluations: int = 2000,
    initial_points: int = 9,
    convex: bool = False,
) -> ContinuousOptimum:
    """inf over α ∈ [lo, hi] of ε(α, r(α), δ), certified to within a stated gap, by branch and bound.

    Formula: ε(α) is :func:`mironov_epsilon` or :func:`balle_epsilon` of the RDP
    curve r(α) = ``rdp_at(α)`` (a ball containing it, or ``math.inf``).
    Certification: r is nondecreasing in α (Mironov 2017, arXiv:1702.07476,
    Prop. 9, for the Rényi divergence of each pair, hence for its supremum and for
    sums under composition).  So on a leaf [a, b], with L = log(1/δ):
      Mironov: ε(α) ≥ r(a) + L/(b − 1);
      Balle:   ε(α) ≥ r(a) + log(1 − 1/a) + min(N/(b − 1), N/(a − 1)), N = L − log b,
               because log(1 − 1/α) increases and L − log α decreases in α (this
               bound holds whatever the sign of N).
    The leaves partition [lo, hi]; the least leaf bound is a certified lower bound
    on the infimum, and the best evaluated ε is an upper bound.  A leaf whose bound
    is below best − tol is split (geometrically in α − 1 while it is wide) until the
    gap is ≤ tol or ``max_evaluations`` calls of ``rdp_at`` have been made; then the
    gap reached is reported honestly (``converged=False``).  These bounds are off by
    O(b − a), so about 1/sqrt(tol) evaluations are needed.

    ``convex=True`` (opt-in): the caller guarantees that G(α) = (α − 1)·r(α) is
    convex on [lo, hi] (+∞ allowed on a final stretch).  It holds for the exact
    Rényi divergence of any pair, since (α − 1)·D_α(P‖Q) = log E_Q[(P/Q)^α] is a
    cumulant generating function (convex by Hölder), for a supremum over pairs, and
    for sums and nonnegative multiples (composition); not for an arbitrary upper
    bound on the curve.  Then ε = (Y(α) + L)/(α − 1) with Y = G (Mironov) or
    Y = G + ψ (Balle), ψ(α) = (α − 1)·log(1 − 1/α) − log α, which is convex too
    (ψ'' = 1/(α − 1) − 1/α), and on a leaf [a, b] with evaluated neighbours p < a
    and c > b, Y lies above
      the line through (p, Y(p)), (a, Y(a)) on [a, ∞) (left secant),
      the line through (b, Y(b)), (c, Y(c)) on (−∞, b] (right secant),
      (α − 1)·r(a) (+ the tangent of ψ at (a + b)/2 for Balle) (monotone),
    each taken through the ball ends that put it below every secant of values in
    the balls.  For a line ℓ = mα + c, (ℓ + L)/(α − 1) = m + (m + c + L)/(α − 1) is
    monotone in α; the bound is the min over the leaf of the max of these three,
    computed exactly by duality (the best convex combination of two of the lines,
    minimised at a or b), and the leaf keeps the larger of it and the monotone
    bound above.  The secant bounds are off by O((b − a)²), so the tolerance is
    reached in O(log(1/tol)) evaluations for a smooth curve (tens, not thousands).
    A leaf's bound is recomputed when a neighbour is split.  The evaluated balls
    are checked for convexity of G (every consecutive triple of points): a
    certified violation raises ParameterError.

    Hypotheses: r nondecreasing on [lo, hi] (a certified violation raises
    ParameterError); with ``convex=True`` also (α − 1)·r(α) convex on [lo, hi];
    1 < lo ≤ hi rational; 0 < δ < 1; tol > 0 (absolute, in ε).

    >>> from flint import fmpq
    >>> from rdpsym.accounting.conversions import zcdp_epsilon
    >>> from rdpsym.foundations.balls import precision, upper_decimal
    >>> rho = fmpq(1, 8)                                  # Gaussian, σ = 2: r(α) = α/8
    >>> with precision(64):
    ...     res = continuous_epsilon(lambda a: rho * a, fmpq(1, 10**5), "mironov", 2, 256, fmpq(1, 10**3))
    ...     res.converged, zcdp_epsilon(rho, fmpq(1, 10**5)) in res.enclosure
    (True, True)
    >>> with precision(200):                              # (α − 1)·α/8 is convex
    ...     res = continuous_epsilon(lambda a: rho * a, fmpq(1, 10**5), "mironov", 2, 256, fmpq(1, 10**20),
    ...                              convex=True)
    ...     res.converged, res.evaluations < 100, zcdp_epsilon(rho, fmpq(1, 10**5)) in res.enclosure
    (True, True, True)
    """
    conversion = _conversion(conversion)
    d = _delta(delta)
    L = -d.log()
    a0, b0 = _range(lo, hi)
    t = _positive("tol", tol)
    _check_options(max_evaluations, convex)

    curve = _Curve(rdp_at, conversion, d, convex)
    grid = _initial_grid(a0, b0, initial_points, max_evaluations)
    _evaluate_grid(curve, grid)
    leaves = _Leaves(curve, grid, L)
    lower, converged = _branch_and_bound(curve, leaves, t, max_evaluations)
    return _optimum(curve, lower, t, converged)
