"""Finite laws for claims: exact numbers, events, divergences, and adversarial samples.

The general statements (Props 8–11, post-processing, composition) hold "for all
distributions", so they are checked on seeded families of finite distributions
whose first members are the edge cases: P = Q, a point mass next to a spread
law, probabilities of 10⁻³⁰, outcomes one side never produces; then random
laws whose probabilities span thirty orders of magnitude.  Probabilities are
exact rationals (``fmpq``), so every divergence below is an Arb ball around the
exact value, or the exact value itself.

The helpers a claim author needs, one of each (examples in each docstring):

* exact numbers: :func:`ball` (an exact rational as a ball), :func:`rational` (as ``fmpq``);
* laws: :func:`product`, :func:`push_forward`, :func:`max_ratio`;
* events: :func:`all_events`, :func:`mass` (exact), :func:`probability` (a ball);
* divergences: :func:`renyi`, :func:`hockey_stick` (a ball, any real ε),
  :func:`hockey_stick_exact` (exact, for a rational e^ε);
* samples for a :class:`~rdpsym.claims.Domain`: :func:`random_pmf`, :func:`random_pmfs`,
  :func:`random_event`, :func:`random_channel`.

A law is a tuple of probabilities indexed by outcome 0, 1, …, n − 1; an event is a
collection of outcome indices.
"""

from __future__ import annotations

import itertools
import random

import sympy as sp
from flint import arb, fmpq

from rdpsym.foundations.balls import to_fmpq
from rdpsym.foundations.errors import Undecided

__all__ = [
    "Pmf",
    "all_events",
    "ball",
    "hockey_stick",
    "hockey_stick_exact",
    "mass",
    "max_ratio",
    "probability",
    "product",
    "push_forward",
    "random_channel",
    "random_event",
    "random_pmf",
    "random_pmfs",
    "rational",
    "renyi",
]

#: A finite distribution: exact rational probabilities summing to 1.
Pmf = tuple


# --------------------------------------------------------------------------- exact numbers


def rational(v) -> fmpq:
    """An exact rational as ``fmpq``: a SymPy or Python rational, an int, an ``fmpq`` or a string.

    A Python float is read as the decimal it prints as (``0.1`` is 1/10), the rule of the whole
    package (:func:`rdpsym.foundations.balls.to_fmpq`); anything not rational is an error.

    >>> rational(sp.Rational(2, 3)), rational(5), rational("1/10"), rational(0.1)
    (2/3, 5, 1/10, 1/10)
    """
    return to_fmpq(v)


def ball(v) -> arb:
    """An exact rational (as :func:`rational` reads it) as an Arb ball; a ball is returned as it is.

    >>> ball(sp.Rational(3, 4)), ball(fmpq(3, 4)).is_exact()
    (0.750000000000000, True)
    >>> ball("1/3").overlaps(arb(1) / 3)
    True
    """
    return v if isinstance(v, arb) else arb(rational(v))


# --------------------------------------------------------------------------- laws


def product(p: Pmf, q: Pmf) -> Pmf:
    """The law of (X, Y) for independent X ~ p and Y ~ q, outcome (x, y) at index x·len(q) + y.

    >>> product((fmpq(1, 2), fmpq(1, 2)), (fmpq(1, 3), fmpq(2, 3)))
    (1/6, 1/3, 1/6, 1/3)
    """
    return tuple(a * b for a in p for b in q)


def push_forward(p: Pmf, channel) -> Pmf:
    """The law of g(X) for X ~ p and a randomized map given as a row-stochastic matrix.

    >>> merge = ((fmpq(1), fmpq(0)), (fmpq(0), fmpq(1)), (fmpq(0), fmpq(1)))   # outcomes 1, 2 -> 1
    >>> push_forward((fmpq(1, 2), fmpq(1, 3), fmpq(1, 6)), merge)
    (1/2, 1/2)
    """
    m = len(channel[0])
    return tuple(sum((p[i] * channel[i][j] for i in range(len(p))), fmpq(0)) for j in range(m))


def max_ratio(p: Pmf, q: Pmf) -> fmpq | None:
    """max_x p(x)/q(x) over the outcomes p gives, exactly (e^{D_∞(p‖q)}); None when p is not ≪ q (D_∞ = ∞).

    >>> max_ratio((fmpq(3, 4), fmpq(1, 4)), (fmpq(1, 2), fmpq(1, 2)))
    3/2
    >>> max_ratio((fmpq(1, 2), fmpq(1, 2)), (fmpq(1), fmpq(0))) is None
    True
    """
    best = None
    for a, b in zip(p, q):
        if a == 0:
            continue
        if b == 0:
            return None
        r = a / b
        best = r if best is None or r > best else best
    return best


# --------------------------------------------------------------------------- events


def all_events(n: int, *, nonempty: bool = False) -> list[frozenset]:
    """Every event of an n-point outcome space, smallest first: 2ⁿ of them (∅ and Ω included), or 2ⁿ − 1.

    >>> all_events(2)
    [frozenset(), frozenset({0}), frozenset({1}), frozenset({0, 1})]
    >>> len(all_events(5, nonempty=True))
    31
    """
    return [frozenset(s) for k in range(1 if nonempty else 0, n + 1) for s in itertools.combinations(range(n), k)]


def mass(p: Pmf, event) -> fmpq:
    """p(S), exactly.

    >>> p = (fmpq(1, 2), fmpq(1, 3), fmpq(1, 6))
    >>> mass(p, {0, 2}), mass(p, ())
    (2/3, 0)
    """
    return sum((p[k] for k in event), fmpq(0))


def probability(p: Pmf, event) -> arb:
    """p(S) as a ball (:func:`mass`, exact, made a ball for arithmetic with other balls).

    >>> probability((fmpq(1, 2), fmpq(1, 4), fmpq(1, 4)), {1, 2})
    0.500000000000000
    """
    return arb(mass(p, event))


# --------------------------------------------------------------------------- divergences


def renyi(p: Pmf, q: Pmf, order) -> arb | object:
    """D_order(p‖q) for finite laws, as a ball (or ``sympy.oo``).

    ``order`` may be a rational > 0, ``1`` (KL), or ``sympy.oo`` (max log-ratio).
    Mironov 2017 Def 3 with 0·log 0 = 0 and p > 0 = q giving ∞ for α ≥ 1.

    >>> p, q = (fmpq(1, 2), fmpq(1, 2)), (fmpq(1, 4), fmpq(3, 4))
    >>> renyi(p, q, 2).overlaps(arb(fmpq(4, 3)).log())
    True
    >>> renyi(q, p, sp.oo).overlaps(arb(fmpq(3, 2)).log()), renyi((fmpq(1), fmpq(0)), (fmpq(0), fmpq(1)), 2)
    (True, oo)
    >>> half = (fmpq(1, 2), fmpq(1, 2), fmpq(0)), (fmpq(1, 2), fmpq(0), fmpq(1, 2))  # below 1: only the shared outcome
    >>> renyi(*half, fmpq(1, 2)).overlaps(2 * arb(2).log()), renyi((fmpq(1), fmpq(0)), (fmpq(0), fmpq(1)), fmpq(1, 2))
    (True, oo)
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
    a = ball(order)
    # α − 1 formed exactly for a rational order: near α = 1 it is all that is left, and its sign decides which side
    # of 1 the order is on (a ball of α = 1 + 10⁻¹⁰⁰ at 256 bits holds 1: it was read as below 1).
    am1 = a - 1 if isinstance(order, arb) else arb(rational(order) - 1)
    if am1 > 0:
        if any(x > 0 and y == 0 for x, y in zip(p, q)):
            return sp.oo
    elif not am1 < 0:
        raise Undecided(f"the order {order} is not known to be above or below 1 at this precision")
    # Σ p^α q^(1−α) − 1 = Σ_{p>0} p·expm1((α−1)·log(p/q)) (because Σ_{p>0} p = 1): every term is
    # O(α − 1), so nothing cancels at order one and log1p(·)/(α − 1) keeps its digits as α → 1.
    # Below 1 an outcome with q = 0 contributes p^α·0 = 0: its term is p·(0 − 1) = −p (α − 1 < 0 sends the log to
    # −∞); it was a division by zero, and Mironov's Props 8 and 9 on laws with partial supports came out unknown (a
    # probe).  Where no outcome has both p > 0 and q > 0 (P ⊥ Q) the sum is −1 and D_α = ∞.
    total = arb(0)
    for x, y in zip(p, q):
        if x > 0 and x != y:
            total += -arb(x) if y == 0 else arb(x) * (am1 * arb(x / y).log()).expm1()
    if not any(x > 0 and y > 0 for x, y in zip(p, q)):
        return sp.oo
    return arb(0) if total.is_zero() else total.log1p() / am1


def hockey_stick(p: Pmf, q: Pmf, eps) -> arb:
    """δ(ε) = sup_S [p(S) − e^ε q(S)] = Σ_x (p(x) − e^ε q(x))₊ for finite laws, as a ball, for any real ε.

    The smallest δ with p(S) ≤ e^ε q(S) + δ for every event S (the hockey-stick divergence): the
    maximising event is {x : p(x) > e^ε q(x)} (Neyman–Pearson), so the sum over outcomes is the
    supremum over events, exactly.  ``eps`` is a ball or an exact rational; terms certified ≤ 0
    contribute 0.  For a rational e^ε, :func:`hockey_stick_exact` gives the exact value.

    >>> p, q = (fmpq(3, 4), fmpq(1, 4)), (fmpq(1, 4), fmpq(3, 4))
    >>> hockey_stick(p, q, 0)   # total variation
    0.500000000000000
    >>> hockey_stick(p, q, arb(2).log()).overlaps(ball(fmpq(1, 4)))
    True
    """
    w = ball(eps).exp()
    total = arb(0)
    for a, b in zip(p, q):
        total += (arb(a) - w * arb(b)).nonnegative_part()
    return total


def hockey_stick_exact(p: Pmf, q: Pmf, factor) -> fmpq:
    """sup_S [p(S) − c·q(S)] = Σ_x (p(x) − c·q(x))₊ exactly, for a rational factor c = e^ε.

    >>> p, q = (fmpq(3, 4), fmpq(1, 4)), (fmpq(1, 4), fmpq(3, 4))
    >>> hockey_stick_exact(p, q, 1), hockey_stick_exact(p, q, 2), hockey_stick_exact(p, q, 3)
    (1/2, 1/4, 0)
    """
    c = rational(factor)
    return sum((max(a - c * b, fmpq(0)) for a, b in zip(p, q)), fmpq(0))


# --------------------------------------------------------------------------- samples


def _normalise(weights: list[fmpq]) -> Pmf:
    total = sum(weights, fmpq(0))
    return tuple(w / total for w in weights)


def random_pmf(rng: random.Random, i: int, n: int = 5) -> Pmf:
    """The ``i``-th sample distribution on ``n`` outcomes (edge cases first).

    >>> p = random_pmf(random.Random(0), 7)
    >>> sum(p) == 1 and all(x > 0 for x in p)
    True
    >>> random_pmf(random.Random(0), 0, n=4)   # uniform first
    (1/4, 1/4, 1/4, 1/4)
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

    >>> pairs = random_pmfs(2)
    >>> p, q = pairs(random.Random(0), 0)
    >>> p == q, pairs(random.Random(0), 1)[0] != pairs(random.Random(0), 1)[1]
    (True, True)
    """
    def generate(rng: random.Random, i: int):
        if equal_first and i == 0:
            p = random_pmf(rng, 3, n)
            return (p,) * count
        return tuple(random_pmf(rng, (i + 2 * k) if i < 6 else i + 10, n) for k in range(count))
    return generate


def random_event(n: int = 5):
    """A generator of events (sets of outcome indices), nonempty, edge cases first.

    >>> events = random_event(5)
    >>> [sorted(events(random.Random(0), i)) for i in range(4)]
    [[0], [4], [0, 1, 2, 3, 4], [1, 2, 3, 4]]
    """
    def generate(rng: random.Random, i: int):
        fixed = [frozenset([0]), frozenset([n - 1]), frozenset(range(n)), frozenset(range(1, n))]
        if i < len(fixed):
            return fixed[i]
        s = frozenset(k for k in range(n) if rng.random() < 0.5)
        return s or frozenset([rng.randrange(n)])
    return generate


def random_channel(rng: random.Random, i: int, n: int = 5, m: int = 3):
    """A randomized map from n to m outcomes (first: deterministic merges, then random).

    >>> random_channel(random.Random(0), 0, n=3, m=2)   # outcome k goes to k mod m
    ((1, 0), (0, 1), (1, 0))
    >>> all(sum(row) == 1 for row in random_channel(random.Random(0), 1))
    True
    """
    if i % 3 == 0:
        return tuple(tuple(fmpq(1) if j == (k % m) else fmpq(0) for j in range(m)) for k in range(n))
    return tuple(random_pmf(rng, 10 + i + k, m) for k in range(n))
