"""Adversarial samples for general claims: distributions, events, Rényi divergences in balls.

The general statements (Props 8–11, post-processing, composition) hold "for all
distributions", so they are checked on seeded families of finite distributions
whose first members are the edge cases: P = Q, a point mass next to a spread
law, probabilities of 10⁻³⁰, outcomes one side never produces; then random
laws whose probabilities span thirty orders of magnitude.  Probabilities are
exact rationals, so every divergence below is an Arb ball around the exact
value.
"""

from __future__ import annotations

import random

import sympy as sp
from flint import arb, fmpq

#: A finite distribution: exact rational probabilities summing to 1.
Pmf = tuple


def _normalise(weights: list[fmpq]) -> Pmf:
    total = sum(weights, fmpq(0))
    return tuple(w / total for w in weights)


def random_pmf(rng: random.Random, i: int, n: int = 5) -> Pmf:
    """The ``i``-th sample distribution on ``n`` outcomes (edge cases first).

    >>> p = random_pmf(random.Random(0), 7)
    >>> sum(p) == 1 and all(x > 0 for x in p)
    True
    """
    tiny = fmpq(1, 10**30)
    edge = [
        [fmpq(1)] * n,                                   # uniform
        [fmpq(1)] + [tiny] * (n - 1),                    # nearly a point mass
        [tiny] * (n - 1) + [fmpq(1)],                    # the point mass elsewhere
        [fmpq(k + 1) for k in range(n)],                 # a ramp
    ]
    if i < len(edge):
        return _normalise(edge[i])
    return _normalise([fmpq(rng.randint(1, 2**20), 2**20) / fmpq(10) ** rng.randint(0, 30) for _ in range(n)])


def random_pmfs(count: int, n: int = 5, equal_first: bool = True):
    """A generator ``f(rng, i)`` of ``count``-tuples of distributions for a :class:`Domain`.

    The first sample repeats one law (P = Q = R), the next ones pair edge cases
    with each other, then everything is random.
    """
    def generate(rng: random.Random, i: int):
        if equal_first and i == 0:
            p = random_pmf(rng, 3, n)
            return (p,) * count
        return tuple(random_pmf(rng, (i + 2 * k) if i < 6 else i + 10, n) for k in range(count))
    return generate


def random_event(n: int = 5):
    """A generator of events (sets of outcome indices), nonempty, edge cases first."""
    def generate(rng: random.Random, i: int):
        fixed = [frozenset([0]), frozenset([n - 1]), frozenset(range(n)), frozenset(range(1, n))]
        if i < len(fixed):
            return fixed[i]
        s = frozenset(k for k in range(n) if rng.random() < 0.5)
        return s or frozenset([rng.randrange(n)])
    return generate


def order_ball(order) -> arb:
    return order if isinstance(order, arb) else arb(_fmpq(order))


def _fmpq(order) -> fmpq:
    r = sp.Rational(order)
    return fmpq(int(r.p), int(r.q))


def renyi(p: Pmf, q: Pmf, order) -> arb | object:
    """D_order(p‖q) for finite laws, as a ball (or ``sympy.oo``).

    ``order`` may be a rational > 0, ``1`` (KL), or ``sympy.oo`` (max log-ratio).
    Mironov 2017 Def 3 with 0·log 0 = 0 and p > 0 = q giving ∞ for α ≥ 1.

    >>> from flint import ctx
    >>> p, q = (fmpq(1, 2), fmpq(1, 2)), (fmpq(1, 4), fmpq(3, 4))
    >>> renyi(p, q, 2).overlaps(arb(fmpq(4, 3)).log())
    True
    """
    if order == sp.oo:
        if any(a > 0 and b == 0 for a, b in zip(p, q)):
            return sp.oo
        return max((arb(a / b).log() for a, b in zip(p, q) if a > 0), key=lambda x: x.mid())
    if order == 1:
        if any(a > 0 and b == 0 for a, b in zip(p, q)):
            return sp.oo
        total = arb(0)
        for a, b in zip(p, q):
            if a > 0:
                total += arb(a) * arb(a / b).log()
        return total
    a = order_ball(order)
    # α − 1 formed exactly for a rational order: near α = 1 it is all that is left.
    am1 = a - 1 if isinstance(order, arb) else arb(_fmpq(order) - 1)
    if a > 1 and any(x > 0 and y == 0 for x, y in zip(p, q)):
        return sp.oo
    # Σ p^α q^(1−α) − 1 = Σ_{p>0} p·expm1((α−1)·log(p/q)) (because Σ_{p>0} p = 1): every term is
    # O(α − 1), so nothing cancels at order one and log1p(·)/(α − 1) keeps its digits as α → 1.
    total = arb(0)
    for x, y in zip(p, q):
        if x > 0 and x != y:
            total += arb(x) * (am1 * arb(x / y).log()).expm1()
    return arb(0) if total.is_zero() else total.log1p() / am1


def probability(p: Pmf, event) -> arb:
    return arb(sum((p[k] for k in event), fmpq(0)))


def push_forward(p: Pmf, channel) -> Pmf:
    """The law of g(X) for X ~ p and a randomized map given as a row-stochastic matrix."""
    m = len(channel[0])
    return tuple(sum((p[i] * channel[i][j] for i in range(len(p))), fmpq(0)) for j in range(m))


def random_channel(rng: random.Random, i: int, n: int = 5, m: int = 3):
    """A randomized map from n to m outcomes (first: deterministic merges, then random)."""
    if i % 3 == 0:
        return tuple(tuple(fmpq(1) if j == (k % m) else fmpq(0) for j in range(m)) for k in range(n))
    return tuple(random_pmf(rng, 10 + i + k, m) for k in range(n))
