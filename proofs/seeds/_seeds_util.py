"""Shared pieces of the seed claim files (lecture deck 001, slides 000, notes 003 and 004).

Cheap to import: symbols, exact comparisons, Gaussian tails in balls, and
generators of integer parameters for :class:`Domain` objects.  The general
helpers on finite laws (exact balls, events, masses, hockey-stick divergences,
product laws, max ratios) are in :mod:`rdpsym.claims.finite`.

A private module of :mod:`rdpsym.catalogue.seeds`: the claim files import it
relatively (``from ._seeds_util import ...``).
"""

from __future__ import annotations

import math
import random

import sympy as sp
from flint import arb, fmpq

from rdpsym.accounting.conversions import kov_delta
from rdpsym.claims.finite import (
    all_events,
    ball,
    mass,
    random_pmf,
    random_pmfs,
    rational,
    renyi,
)
from rdpsym.foundations.balls import precision
from rdpsym.foundations.reading import number
from rdpsym.foundations.symbols import alpha as _alpha

# --------------------------------------------------------------------------- symbols

eps = sp.Symbol("epsilon", positive=True)
delta = sp.Symbol("delta", positive=True)
delta_p = sp.Symbol("delta'", positive=True)
Delta = sp.Symbol("Delta", positive=True)
sigma = sp.Symbol("sigma", positive=True)
rho = sp.Symbol("rho", positive=True)
lam = sp.Symbol("lambda", positive=True)
t = sp.Symbol("t", real=True)
z = sp.Symbol("z", positive=True)
n = sp.Symbol("n", positive=True)
p = sp.Symbol("p", positive=True)

POSITIVE = sp.Interval.open(0, sp.oo)
UNIT = sp.Interval.open(0, 1)
ORDERS = sp.Interval.open(1, sp.oo)

# --------------------------------------------------------------------------- exact comparisons


def exact(lhs: fmpq, relation: str, rhs: fmpq) -> tuple:
    """Compare two exact rationals so that the balls always decide, equality included.

    ``arb(1/3) − arb(1/3)`` is a ball around 0 that decides nothing; the exact
    difference ``lhs − rhs`` is either 0 (an exact ball) or a nonzero rational,
    whose ball excludes 0.
    """
    return arb(rational(lhs) - rational(rhs)), relation, arb(0)


# --------------------------------------------------------------------------- Gaussian tails


def normal_sf(x: arb) -> arb:
    """Φ̄(x) = Pr[N(0,1) > x] in balls; through Γ(½, x²/2) for x > 1, where Arb's erfc
    propagates the radius of a large argument far too pessimistically (as in
    rdpsym.accounting.conversions._erfc)."""
    x = ball(x)
    if x > 1:
        return (x * x / 2).gamma_upper(fmpq(1, 2)) / arb.pi().sqrt() / 2
    return (x / arb(2).sqrt()).erfc() / 2


def gaussian_loss_tail(epsilon, sigma_, sensitivity) -> arb:
    """Pr[λ > ε] for the Gaussian mechanism: λ = log N(0,σ²)/N(Δ,σ²) at x ~ N(0,σ²) is
    N(Δ²/2σ², Δ²/σ²), so Pr[λ > ε] = Φ̄(εσ/Δ − Δ/(2σ))."""
    e, s, d = ball(epsilon), ball(sigma_), ball(sensitivity)
    return normal_sf(e * s / d - d / (2 * s))


# --------------------------------------------------------------------------- randomized response


def rr(pr) -> tuple:
    """Randomized response: the output laws (p, 1−p) and (1−p, p)."""
    pr = rational(pr)
    return (pr, 1 - pr), (1 - pr, pr)


# --------------------------------------------------------------------------- Domain objects


def integers(edges, lo: int, hi: int):
    """A generator of integer parameters: the edge values first, then seeded random ones
    (log-uniform on [lo, hi], so both small and large counts appear)."""
    edges = list(edges)

    def generate(rng: random.Random, i: int) -> int:
        if i < len(edges):
            return edges[i]
        return max(lo, min(hi, round(math.exp(rng.uniform(math.log(lo), math.log(hi))))))
    return generate


class Case(dict):
    """A published example (name -> exact value), shown compactly in reports."""

    def __str__(self) -> str:
        return "(" + ", ".join(f"{k}={v}" for k, v in self.items()) + ")"

    __repr__ = __str__


def cases(*examples: dict):
    """A Domain object generator that yields the given examples in turn.

    Used for published counterexamples and tables.  (A one-point ``Interval(a, a)``
    cannot be a Domain variable: SymPy turns it into a ``FiniteSet``, which
    ``edge_values`` does not accept.)  Use with ``samples=len(examples)``.
    """
    table = [Case({k: number(v, f"{k} of the example {i + 1}") for k, v in ex.items()})
             for i, ex in enumerate(examples)]

    def generate(rng: random.Random, i: int) -> Case:
        return table[i % len(table)]
    return generate


#: k, the number of mechanisms composed: small and large counts first, then random in [1, 1000].
COUNTS = integers([1, 2, 3, 10, 100, 1000, 7, 31, 300], 1, 1000)


def composed_delta(e, d, kk: int, e_total) -> arb:
    """Exact δ(ε') of the k-fold adaptive composition of (ε, δ)-DP mechanisms.

    Kairouz–Oh–Viswanath 2015, Thm 3.3: k-fold generalised randomized response
    dominates, and its hockey-stick divergence is 1 − (1−δ)^k (1 − δ_k(ε')), with
    δ_k = ``kov_delta`` the pure k-fold curve (outcomes that only one side can
    produce carry their whole mass).
    """
    d = rational(d)
    e_total = ball(e_total)
    if e_total >= kk * ball(e):
        # The k-fold loss never exceeds kε, so δ_k(ε') = 0 exactly.  Said here because kov_delta
        # computes 0·e^{ε'}, which is NaN once e^{ε'} overflows the balls (e.g. kov_delta(10**6, 1,
        # arb(10)**(10**6)) raises ConvergenceError instead of returning 0).
        pure = arb(0)
    else:
        pure = kov_delta(rational(e), kk, e_total)
    return 1 - arb((1 - d) ** kk) * (1 - pure)


def prop3_excess(P, Q, order, d) -> arb:
    """max over events S of P(S) − e^{ε'}Q(S) − δ with ε = D_order(P‖Q) and ε' = ε + log(1/δ)/(order − 1)
    (Mironov's Prop 3 conclusion, ≤ 0 when it holds).  D_order as in Def 3, also for order < 1."""
    a, dd = ball(order), ball(d)
    e = renyi(P, Q, order)
    factor = (e + (1 / dd).log() / (a - 1)).exp()
    return max((arb(mass(P, S)) - factor * arb(mass(Q, S)) - dd for S in all_events(len(P), nonempty=True)),
               key=lambda v: v.mid())


def rr_or_random_pairs(first=("9/10", "3/4", "99/100", "6/10")):
    """Pairs of laws: randomized-response pairs first (the survey's examples), then random_pmfs(2)."""
    rand = random_pmfs(2)

    def generate(rng: random.Random, i: int):
        if i < len(first):
            return rr(sp.Rational(first[i]))
        return rand(rng, i)
    return generate


def one_term_dominates(P, Q, order, bits: int = 900) -> bool:
    """Whether the Rényi moment Σ P^α Q^{1−α} is one term x* up to a factor 1 + R with R < 2^−bits.

    At such points D_α equals its one-term value to within 2^−bits, and bounds that are tight for a one-point
    law (Prop 10 at the event {x*}, D_α ≥ D_∞ + log P(x*)/(α−1)) hold with a margin the balls cannot resolve
    at 1024 bits.  Claims leave those points out with ``where`` and say so.
    """
    with precision(128):
        a = ball(order)
        logs = [a * arb(x).log() + (1 - a) * arb(y).log() for x, y in zip(P, Q) if x > 0 and y > 0]
        top = max(logs, key=lambda v: v.mid())
        rest = sum(((v - top).exp() for v in logs if v is not top), arb(0))
        return bool(rest < arb(2) ** -bits)


def separable(point, order_key) -> bool:
    """A ``where`` for pairs ``point["laws"]``: neither direction's moment is one term to within 2^−900."""
    P, Q = point["laws"][:2]
    order = point[order_key]
    return not (one_term_dominates(P, Q, order) or one_term_dominates(Q, P, order))


def log_moment(P, Q, order) -> arb:
    """log Σ P^α Q^{1−α} = (α−1)·D_α(P‖Q) for finite laws with P ≪ Q, with α − 1 formed exactly.

    (Written when ``renyi`` formed α − 1 as a difference of balls, which lost log₂(1/(α−1)) bits near
    α = 1; :func:`rdpsym.claims.finite.renyi` now forms it exactly too.)  Terms with P(x) = Q(x)
    contribute P(x) exactly.
    """
    h = arb(rational(order) - 1)
    a = 1 + h
    exact_part, total = fmpq(0), arb(0)
    for x, y in zip(P, Q):
        if x == y:
            exact_part += x
        elif x > 0:
            total += (a * arb(x).log() - h * arb(y).log()).exp()
    return (total + arb(exact_part)).log()


def x_star_not_alone(point) -> bool:
    """Whether the moment E_Q[(P/Q)^α] is more than its largest-ratio term x* (to within 2⁻⁹⁰⁰).

    Where it is not, D_α equals its lower bound D_∞ + log P(x*)/(α−1) beyond what 1024-bit balls
    resolve (the bound holds there by dropping terms), so those points are left out.  R is the sum
    of the other terms over the x* term.
    """
    P, Q = point["laws"]
    i = max(range(len(P)), key=lambda j: P[j] / Q[j])
    with precision(128):
        a = ball(point[_alpha])
        r = sum((((a * arb(P[j] / P[i]).log()) + (1 - a) * arb(Q[j] / Q[i]).log()).exp()
                 for j in range(len(P)) if j != i), arb(0))
        return bool(r > arb(2) ** -900)


def adaptive_mechanisms(rng: random.Random, i: int):
    """A two-step adaptive mechanism on finite laws: the first step's laws (4 outcomes) under D and D',
    and for each first output the second step's pair of laws (3 outcomes)."""
    px, qx = random_pmf(rng, i, 4), random_pmf(rng, i + 1 if i < 4 else i + 7, 4)
    kernels = tuple((random_pmf(rng, 10 + i + j, 3), random_pmf(rng, 20 + i + j, 3)) for j in range(4))
    return px, qx, kernels


def joint_laws(px, qx, kernels):
    """The laws of (X, Y) under D and D' for X ~ first step, Y ~ second step given X."""
    n, m = len(px), len(kernels[0][0])
    return (tuple(px[x] * kernels[x][0][y] for x in range(n) for y in range(m)),
            tuple(qx[x] * kernels[x][1][y] for x in range(n) for y in range(m)))
