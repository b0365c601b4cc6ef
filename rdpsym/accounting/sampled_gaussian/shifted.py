"""Fractional orders of the sampled Gaussian: shifted Gaussians on one grid, one matrix product.

For a fractional α = n + f (0 < f < 1, n ≤ 64),
b^{n+f} = b^f·b^n and b^n = Σ_k C(n,k)(1−q)^{n−k}q^k e^{ku}, while
φ(z)e^{ku(z)} = e^{k(k−1)/(2σ²)}φ(z − k) (completing the square).  Hence

    A_{n+f} = Σ_{k=0}^{n} C(n,k)(1−q)^{n−k} q^k e^{k(k−1)/(2σ²)} B_f(k),   B_f(k) = E_{Z∼N(k,σ²)}[b(Z)^f],

a sum of positive terms: every fractional order with fractional part f is
a combination of the n + 1 numbers B_f(0..n).  Each B_f(k) is the
trapezoid sum Σ_j h·φ(z_j − k)·b(z_j)^f on the grid z_j = j·h with
h = 1/M, so φ(z_j − k) = φ(z_{j−kM}): all of them, for every f and k,
are the entries of one product of Arb matrices W·C, W[k, j] = h·φ(z_{j−kM})
and C[j, f] = b(z_j)^f (one exp and a chain of products per grid point).
F = φ(· − k)·b^f is analytic in the same strip as the per-order quadrature's
integrand (|Im z| < πσ², :mod:`rdpsym.accounting.sampled_gaussian.trapezoid`) and is bounded there the
same way, |F(x+iy)| ≤ e^{y²/(2σ²)}F(x), so the discretisation error is at
most κ·B_f(k) with κ = 2e^{a²/(2σ²)}/(e^{2πa/h} − 1); the grid's left tail
(b^f ≤ 1 for z ≤ ½) is at most a Gaussian tail of N(k, σ²), its right tail
at most r^f e^{f(2k+f−1)/(2σ²)} times a Gaussian tail of N(k + f, σ²)
(b ≤ r·e^u beyond the cut, as there).  This replaces one quadrature per
order by one per grid (about 4× faster at the DP-SGD setting); where it
would need too many points (small σ, large σ, n > 64) the per-order
quadrature is used.

:func:`_shifted_share` picks the orders this method is worth using for (by a
rough cost model); the others go to the per-order quadrature.
"""

from __future__ import annotations

import math

from flint import arb, arb_mat, fmpq

from rdpsym.accounting.sampled_gaussian.planning import _LN2, _PI_BELOW, _accurate, _Floats
from rdpsym.foundations.balls import precision

#: The shifted-Gaussian method: at most this n = ⌊α⌋, and at most this many grid points × (matrix rows + columns).
_SHIFT_MAX_N = 64
_SHIFT_MAX_WORK = 60_000


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
