"""Exact (ε, δ)-DP references for the claim files on Props 3–4, Lemma 1 and Cor 1.

Files starting with ``_`` are not claim files; nothing here runs at import.  The hockey-stick
divergence δ_{P,Q}(ε) of finite laws and the events and masses are the general helpers of
:mod:`rdpsym.claims.finite`.

* :func:`pure_dp_pair` — finite pairs with both D_∞(P‖Q), D_∞(Q‖P) ≤ log r (exact rationals),
  randomized response first: it is the extremal ε-DP pair (Bun–Steinke 2016, Prop 3.3).
* :func:`rr_envelope` — for the n-fold composition of randomized response with e^ε = r,
  max{P(S) : Q(S) = t} over all (randomized) events S: the Neyman–Pearson curve, i.e. the
  worst case of Prop 4.  By Kairouz–Oh–Viswanath 2015 (Thm 3.3) n-fold randomized response
  dominates every adaptive n-fold composition of ε-DP mechanisms, so an inequality
  P(S) ≤ g(Q(S)) checked against this curve covers every such composition and every event.
"""

from __future__ import annotations

import math

from flint import arb, fmpq, fmpz

from rdpsym.claims.finite import max_ratio

# --------------------------------------------------------------------------- pure ε-DP pairs


def pure_dp_pair(r: fmpq, shape):
    """A pair (P, Q) of finite laws with P(x)/Q(x) ∈ [1/r, r] for every x.

    ``shape`` is ``"rr"`` (randomized response P = (r, 1)/(1 + r), Q = (1, r)/(1 + r), the
    extremal pair) or a tuple of (q_weight, s) with s ∈ [0, 1]: Q ∝ q_weight and
    P ∝ Q·(1 + (r − 1)s), so every likelihood ratio lies in [1, r]/Z with Z ∈ [1, r].
    """
    if shape == "rr":
        return (r / (1 + r), 1 / (1 + r)), (1 / (1 + r), r / (1 + r))
    qw = [w for w, _ in shape]
    pw = [w * (1 + (r - 1) * s) for w, s in shape]
    zq, zp = sum(qw, fmpq(0)), sum(pw, fmpq(0))
    return tuple(x / zp for x in pw), tuple(x / zq for x in qw)


def pure_dp_shapes(size: int = 4):
    """A generator ``f(rng, i)`` of pair shapes for :func:`pure_dp_pair` (the RR pair first).

    Then the two-point extremes (s ∈ {0, 1}: ratios at both ends of [1/r, r]) and random
    shapes with weights spanning twelve orders of magnitude.
    """
    def generate(rng, i):
        if i % 5 == 0:
            return "rr"
        if i % 5 == 1:
            return ((fmpq(1), fmpq(1)), (fmpq(1), fmpq(0)))
        out = []
        for _ in range(size):
            w = fmpq(rng.randint(1, 2**20), 2**20) / fmpq(10) ** rng.randint(0, 12)
            s = rng.choice([fmpq(0), fmpq(1), fmpq(rng.randint(0, 2**16), 2**16)])
            out.append((w, s))
        return tuple(out)
    return generate


def d_inf(p, q) -> arb:
    """D_∞(P‖Q) = max_x log(P(x)/Q(x)) for laws with full support (the exact max ratio, one log)."""
    return arb(max_ratio(p, q)).log()


# --------------------------------------------------------------------------- n-fold randomized response


def rr_layers(r: fmpq, n: int):
    """The likelihood-ratio layers of n-fold randomized response with e^ε = r, most likely first.

    An outcome with l disagreements has P = r^{n−l}/(1+r)^n and Q = r^l/(1+r)^n, and there
    are C(n, l) of them; the ratio P/Q = r^{n−2l} decreases in l.
    Returns [(count, P of one outcome, Q of one outcome)] as exact rationals.
    """
    z = (1 + r) ** n
    return [(math.comb(n, l), r ** (n - l) / z, r ** l / z) for l in range(n + 1)]


def rr_envelope(r: fmpq, n: int, t: fmpq) -> fmpq:
    """max{P(S) : Q(S) = t} over randomized events of n-fold randomized response, exactly.

    Neyman–Pearson: fill the layers in decreasing likelihood ratio; within a layer all
    outcomes have the same ratio, so the curve is linear there.  At every t of the form
    (full layers) + m outcomes of the next layer it is attained by a plain event.

    With r = a/b, one outcome of layer l has P = a^{n−l}b^l/Z and Q = a^l b^{n−l}/Z,
    Z = (a + b)^n: the walk runs on integers (no gcd per step), one division at the end.
    Each layer's C(n, l), a^{n−l}b^l and a^l b^{n−l} come from the previous layer's by an exact
    division and a product, in flint's integers: at n = 400 and 30-digit a, b they have 40 000
    bits, where a binomial and two products of powers for each layer in Python's integers took
    8 times as long (0.64 s for the 200 points of mironov-prop4).
    """
    a, b = fmpz(r.p), fmpz(r.q)
    c, d = fmpz(t.p), fmpz(t.q)
    z = (a + b) ** n
    left = c * z  # (t − mass so far)·Z·d, an integer
    p_acc = fmpz(0)  # P so far, times Z
    count, p1, q1 = fmpz(1), a**n, b**n  # layer 0: C(n, 0), P·Z and Q·Z of one outcome
    for l in range(n + 1):
        if left <= d * count * q1:
            # P = p_acc/Z + (left/(Z·d))·(p1/q1)
            return fmpq(p_acc * d * q1 + left * p1, z * d * q1)
        left -= d * count * q1
        p_acc += count * p1
        if l < n:  # layer l + 1
            count, p1, q1 = count * (n - l) // (l + 1), p1 // a * b, q1 // b * a
    return fmpq(p_acc, z)  # reached only for t ≥ 1 (t = 1 returns inside the loop)
