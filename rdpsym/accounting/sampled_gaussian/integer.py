"""Integer orders of the sampled Gaussian: MTZ's binomial sum, certified in Arb balls.

Mironov–Talwar–Zhang 2019, Sec. 3, the binomial expansion of b^α:

    A_α − 1 = Σ_{k=2}^{α} C(α,k)(1−q)^{α−k} q^k · expm1(k(k−1)/(2σ²)):

the binomial weights sum to 1 and the k = 0, 1 terms have k(k−1) = 0, so
this is a finite sum of positive terms; a ball sum is certified and loses
no relative accuracy.  Arb has an unbounded exponent: no overflow at
α = 10⁴ with tiny σ.

Small orders (up to ``_INT_SERIES_MAX``, more than four of them) are summed
together as one product of polynomials with positive coefficients.
"""

from __future__ import annotations

from flint import arb, arb_poly, fmpq

from rdpsym.accounting.sampled_gaussian.planning import _ROUNDS, _accurate
from rdpsym.foundations.balls import precision
from rdpsym.foundations.errors import ConvergenceError

#: Integer orders up to this are summed together as one polynomial product (more than 4 of them).
_INT_SERIES_MAX = 64
#: The most terms of the binomial sum one order may need: about 2 s of CPU at 40 digits.  The sum runs from the top
#: term down until the rest, bounded by E_m (the binomial weights left out of the bound), is negligible: at q = 1/2,
#: σ = 10⁴ that is every term (the order 10⁵: 0.17 s; 10⁸ took 163 s, though about 1.7·10⁵ terms near α/2 carry
#: the value).  A longer sum is refused before it starts.
MAX_TERMS = 10**6


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

    # Plan where each sum can stop (the top term alone bounds the total from below); the ball loop below
    # decides, and extends the table if the plan stopped too early.  The plan also bounds the loop's length, so
    # an order whose sum is too long is refused before any of it is done.
    starts = {}
    for n in ns:
        m = _plan_start(n, c, q, prec + 8)
        if n - m > MAX_TERMS:
            raise ConvergenceError(
                f"the sampled Gaussian at order {n} (q = {q}, sigma^2 = {s2}) needs about {n - m} terms of the "
                f"binomial sum (MTZ 2019, Sec. 3), more than {MAX_TERMS}: ask for a smaller order")
        starts[n] = m
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


def _plan_start(n: int, c: fmpq, q: fmpq, budget_bits: int) -> int:
    """The lowest k whose E_k can matter in A_n − 1: below it, E_k < 2^−budget_bits·q^n·E_n (the top term).

    x_m = m(m − 1)·c must stay above n(n − 1)·c + n·log q − budget; m is the root of that quadratic, found in
    Arb at a precision that holds n exactly.  In doubles, n(n − 1) overflowed past n ≈ 10¹⁵⁴ (an OverflowError at
    α = 10³⁰⁰), and from n ≈ 10¹⁷ the root was off by about n·10⁻¹⁶: at n = 10⁴⁵ the table ran over 10²⁹ terms and
    never returned (a probe).  The root's lower end is taken: a smaller start costs terms, never digits."""
    with precision(2 * n.bit_length() + 64):
        rhs = arb(c * (n * (n - 1))) + n * arb(q).log() - budget_bits * arb(2).log()
        if not rhs > 0:
            return 2
        root = ((1 + 4 * rhs / arb(c)).sqrt() + 1) / 2 - 1
        m = int(root.lower().floor().unique_fmpz())
    return max(2, min(m, n))


def _runs(intervals: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The union of integer intervals as disjoint runs (touching runs merged)."""
    merged: list[list[int]] = []
    for lo, hi in sorted(intervals):
        if merged and lo <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    return [(lo, hi) for lo, hi in merged]
