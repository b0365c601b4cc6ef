"""Mironov 2017, Proposition 2: group privacy for 2^c-stable transformations, c = 1 and c = 2.

"If f: D → R is (α, ε)-RDP, g: D' → D is 2^c-stable and α ≥ 2^{c+1}, then
f∘g is (α/2^c, 3^c ε)-RDP."  A 2^c-stable g maps adjacent inputs to the ends
of a chain D_0, …, D_{2^c} of adjacent inputs, so on laws the statement is:
for a chain P_0, …, P_{2^c} with D_α(P_i‖P_{i+1}) ≤ ε,

    D_{α/2^c}(P_0‖P_{2^c}) ≤ 3^c·ε      (α ≥ 2^{c+1}).

ε is taken as the largest *directed* step divergence, which is all the proof
uses (Corollary 4 along the chain), so the check is at least as strict as the
symmetric reading of Definition 4.  Chains: random laws, mixtures between two
random laws, and (c = 1) the near-disjoint family where the ratio of the two
sides is largest (D_{α/2}/ε → (2α−1)/(α−1)).  For the Gaussian and Laplace
mechanisms: the true divergence at shift 2^c against 3^c·ε(2^c·α′), both as
closed forms and through rdpsym's ``RdpCurve.group``.

Below the restriction (2 < α < 2^{c+1}) no counterexample was found: a
Nelder–Mead search over chains of 2–4-outcome laws (c = 1: α ∈ (2, 4];
c = 2: α ∈ (4, 8]) found sup D_{α/2^c}(P_0‖P_{2^c})/ε ≈ (2α−1)/(α−1) < 3 for
c = 1 and ≈ 6.5 < 9 for c = 2, so no "fails below the restriction" claim is made.
"""

import functools
import math
from fractions import Fraction

import sympy as sp
from flint import fmpq

import rdpsym
from rdpsym.accounting.curve import Component, curve
from rdpsym.claims import AtMost, Claim, Domain, Holds, Verdict, alpha
from rdpsym.claims.finite import ball, random_pmf, renyi
from rdpsym.foundations.balls import to_arb

from ._arbtools import triangle_residual
from ._families import POSITIVE, derived, lam, sigma

#: The order of the group guarantee, α′ = α/2^c ≥ 2.
a1 = sp.Symbol("alpha'", positive=True)
N = 4


def _rational(x: float) -> fmpq:
    f = Fraction(x)  # the double's exact binary value
    return fmpq(f.numerator, f.denominator)


def _extremal(L: int) -> tuple:
    """The near-disjoint c = 1 family at α = 4: P = (e^{−L}, ·), R = (1 − e^{−L}, ·), Q = (1 − z, z), z = e^{−7L/3}."""
    e, z = _rational(math.exp(-L)), _rational(math.exp(-7 * L / 3))
    return (e, 1 - e), (1 - e, e), (1 - z, z)


def _chain(length: int):
    """Chains P_0, …, P_length: edge cases, then random laws, mixtures, random again."""
    def generate(rng, i):
        if length == 2 and i < 3:
            return _extremal((5, 10, 20)[i])
        if i == 3:
            law = random_pmf(rng, 3, N)
            return (law,) * (length + 1)
        if i % 3 == 1:  # a straight path: P_k = (1 − k/length)·A + (k/length)·B
            A, B = random_pmf(rng, i, N), random_pmf(rng, i + 1, N)
            return tuple(tuple((1 - fmpq(k, length)) * x + fmpq(k, length) * y for x, y in zip(A, B))
                         for k in range(length + 1))
        return tuple(random_pmf(rng, i + 10 * k, N) for k in range(length + 1))
    return generate


def _group(c: int):
    def compare(point):
        chain = point["chain"]
        step = max((renyi(chain[k], chain[k + 1], point[alpha]) for k in range(2**c)), key=lambda v: v.mid())
        order = point[alpha] / 2**c
        return renyi(chain[0], chain[-1], order), "<=", 3**c * step
    return compare


def _cor4_chain(point):
    P, R, Q = point["chain"]
    a = point[alpha]
    coeff = ball((a - 1) / (a - 2))
    lhs, rhs = renyi(P, Q, a / 2), coeff * renyi(P, R, a) + renyi(R, Q, a - 1)
    if lhs.overlaps(rhs) and not (rhs - lhs >= 0):
        # Hölder is tight when one outcome dominates every sum (large α): compare the residuals
        # beyond that outcome instead (exact rearrangement, see _arbtools.triangle_residual).
        small, big, consistent = triangle_residual(P, R, Q, a / 2, 2)
        if not consistent:
            return lhs, "=", rhs  # the decomposition does not reproduce renyi(): reported, never passed
        return small, "<=", big
    return lhs, "<=", rhs


@functools.cache
def shifted(family: str, c: int) -> sp.Expr:
    """D_α of the built-in at shift 2^c (the core's derivation from the densities)."""
    mech = rdpsym.gaussian(sigma=sigma, sensitivity=2**c) if family == "gaussian" else \
        rdpsym.laplace(scale=lam, sensitivity=2**c)
    return mech.rdp(alpha).result


def _group_curve(family: str, c: int):
    def compare(point):
        param = sigma if family == "gaussian" else lam
        value = point[param]
        base = derived(family).subs(param, value)
        grouped = curve(Component.from_closed_form(f"{family}({value})", base)).group(c)
        bound = grouped.balls([point[a1]])[0]
        true = to_arb(shifted(family, c), {alpha: ball(point[a1]), param: ball(value)})
        return true, "<=", bound
    return compare


def _closed(family: str, c: int):
    return AtMost(lambda: shifted(family, c).subs(alpha, a1), lambda: 3**c * derived(family).subs(alpha, 2**c * a1),
                  f"true D_α′ at shift {2**c} vs 3^{c}·ε({2**c}α′), both derived from the densities")


STATEMENT = (r"f\ (\alpha,\epsilon)\text{-RDP},\ g\ 2^c\text{-stable},\ \alpha\ge 2^{c+1} \implies "
             r"f\circ g\ \text{is}\ (\alpha/2^c, 3^c\epsilon)\text{-RDP}")

CLAIMS = [
    Claim(
        id="mironov-prop2-c1-finite",
        title="Group privacy, c = 1, on chains of finite laws",
        source="Mironov 2017, Proposition 2",
        statement=STATEMENT + r"\quad (c = 1)",
        steps=(
            Holds("D_{α/2}(P‖Q) ≤ (α−1)/(α−2)·D_α(P‖R) + D_{α−1}(R‖Q)", _cor4_chain,
                  "the proof's step: Corollary 4 at order α/2"),
            Holds("D_{α/2}(P_0‖P_2) ≤ 3·max_k D_α(P_k‖P_{k+1})", _group(1),
                  "(α−1)/(α−2) ≤ 3/2 for α ≥ 4 and D_{α−1} ≤ D_α"),
        ),
        expected=Verdict.CHECKED,
        domain=Domain({alpha: sp.Interval(4, sp.oo)}, objects={"chain": _chain(2)}, samples=100),
        note="A statement about all mechanisms: checked on chains of 4-outcome laws (and the extremal "
             "2-outcome family), not formalised.",
    ),
    Claim(
        id="mironov-prop2-c2-finite",
        title="Group privacy, c = 2, on chains of finite laws",
        source="Mironov 2017, Proposition 2",
        statement=STATEMENT + r"\quad (c = 2)",
        steps=(Holds("D_{α/4}(P_0‖P_4) ≤ 9·max_k D_α(P_k‖P_{k+1})", _group(2),
                     "c = 1 applied twice (induction), α/2 ≥ 4"),),
        expected=Verdict.CHECKED,
        domain=Domain({alpha: sp.Interval(8, sp.oo)}, objects={"chain": _chain(4)}, samples=100),
        note="Checked on chains of five 4-outcome laws (random, and straight mixture paths).",
    ),
    *[Claim(
        id=f"mironov-prop2-c{c}-gaussian",
        title=f"Group privacy, c = {c}, for the Gaussian mechanism (closed forms)",
        source="Mironov 2017, Proposition 2 with Proposition 7",
        statement=rf"D_{{\alpha'}}(\mathcal N(0,\sigma^2)\|\mathcal N({2**c},\sigma^2)) \le {3**c}\,"
                  rf"\epsilon_{{G_\sigma}}({2**c}\alpha'),\ \alpha' \ge 2",
        steps=(_closed("gaussian", c),),
        expected=Verdict.PROVED,
        domain=Domain({a1: sp.Interval(2, sp.oo), sigma: POSITIVE}, samples=60),
    ) for c in (1, 2)],
    *[Claim(
        id=f"mironov-prop2-c{c}-laplace",
        title=f"Group privacy, c = {c}, for the Laplace mechanism (closed forms)",
        source="Mironov 2017, Proposition 2 with Proposition 6",
        statement=rf"D_{{\alpha'}}(\Lambda(0,\lambda)\|\Lambda({2**c},\lambda)) \le {3**c}\,"
                  rf"\epsilon_{{\Lambda_\lambda}}({2**c}\alpha'),\ \alpha' \ge 2",
        steps=(_closed("laplace", c),),
        expected=Verdict.CHECKED,
        domain=Domain({a1: sp.Interval(2, sp.oo), lam: POSITIVE}, samples=80),
        note="Only checked: the prover does not reach the inequality between the two logarithms.",
    ) for c in (1, 2)],
    Claim(
        id="mironov-prop2-group-curve",
        title="rdpsym's RdpCurve.group(c) bounds the true divergence at shift 2^c",
        source="Mironov 2017, Proposition 2 (accounting layer)",
        statement=r"D_{\alpha'}(M(0)\|M(2^c)) \le \texttt{curve.group(c)}(\alpha') = 3^c\epsilon(2^c\alpha'),"
                  r"\ M \in \{G_\sigma, \Lambda_\lambda\},\ c\in\{1,2\}",
        steps=tuple(Holds(f"{fam} c={c}: D_α′(shift {2**c}) ≤ group curve", _group_curve(fam, c),
                          "RdpCurve.group applied to the derived curve, against the derived shift-2^c divergence")
                    for fam in ("gaussian", "laplace") for c in (1, 2)),
        expected=Verdict.CHECKED,
        domain=Domain({a1: sp.Interval(2, 10**6), sigma: sp.Interval(sp.Rational(1, 100), 100),
                       lam: sp.Interval(sp.Rational(1, 100), 100)}, samples=40),
        note="Numeric check of the accounting layer's transform at sampled orders and scales.",
    ),
]
