"""Mironov 2017, Proposition 11 (weak triangle inequality) and Corollary 4 (p = q = 2).

For α > 1 and p, q > 1 with 1/p + 1/q = 1:

    D_α(P‖Q) ≤ (α − 1/p)/(α − 1)·D_{pα}(P‖R) + D_{q(α−1/p)}(R‖Q).

Checked on random triples of finite laws, with R = P and R = Q among the edge
cases.  The inequality is Hölder's, and it is *exactly tight* when every law
sits on one outcome: the single-outcome parts of the three divergences cancel
identically (proved symbolically below).  At large α each sum is dominated by
one outcome, so the two sides agree to e^{−α·gap}, beyond any working
precision; there the comparison is made on the residuals beyond that outcome
(an exact rearrangement, _arbtools.triangle_residual), where it is decidable.
"""

import sympy as sp

from rdpsym.claims import Claim, Domain, Equal, Holds, Verdict, alpha
from rdpsym.claims.finite import ball, random_pmf, renyi

from ._arbtools import triangle_residual
from ._families import ORDERS

#: Hölder's exponent p (> 1); q = p/(p − 1).
pe = sp.Symbol("p", positive=True)
N = 5


def _triples(rng, i):
    """(P, Q, R): all equal; R = P; R = Q; then edge laws and random ones."""
    P, Q = random_pmf(rng, i + 1, N), random_pmf(rng, i + 2, N)
    if i == 0:
        return (P, P, P)
    if i in (1, 4):
        return (P, Q, P)
    if i in (2, 5):
        return (P, Q, Q)
    return (P, Q, random_pmf(rng, i + 3 if i < 8 else i + 20, N))


def _weak_triangle(p_exp):
    def compare(point):
        P, Q, R = point["laws"]
        a = point[alpha]
        pp = sp.Rational(point[pe] if p_exp is None else p_exp)  # exact: 1/2 must not become 0.5
        qq = pp / (pp - 1)
        lhs = renyi(P, Q, a)
        rhs = ball((a - 1 / pp) / (a - 1)) * renyi(P, R, pp * a) + renyi(R, Q, qq * (a - 1 / pp))
        if lhs.overlaps(rhs) and not (rhs - lhs >= 0):
            small, big, consistent = triangle_residual(P, R, Q, a, pp)
            if not consistent:
                return lhs, "=", rhs  # the decomposition does not reproduce renyi(): reported, never passed
            return small, "<=", big
        return lhs, "<=", rhs
    return compare


# The single-outcome case: log-probabilities u = log P(x*), v = log Q(x*), w = log R(x*).
u, v, w = sp.symbols("u v w", real=True)


def _single(order, A, B):
    return (order * A + (1 - order) * B) / (order - 1)


SINGLE_LHS = _single(alpha, u, v)
SINGLE_RHS = ((alpha - 1 / pe) / (alpha - 1) * _single(pe * alpha, u, w)
              + _single(pe / (pe - 1) * (alpha - 1 / pe), w, v))

STATEMENT = (r"D_\alpha(P\|Q) \le \frac{\alpha-1/p}{\alpha-1}D_{p\alpha}(P\|R) + D_{q(\alpha-1/p)}(R\|Q),"
             r"\quad \alpha>1,\ p,q>1,\ 1/p+1/q=1")

CLAIMS = [
    Claim(
        id="mironov-prop11",
        title="Weak triangle inequality on finite laws",
        source="Mironov 2017, Proposition 11",
        statement=STATEMENT,
        steps=(Holds("D_α(P‖Q) ≤ (α−1/p)/(α−1)·D_{pα}(P‖R) + D_{q(α−1/p)}(R‖Q)", _weak_triangle(None),
                     "Hölder with exponents p, q on E_R[(P/R)^α (R/Q)^{α−1}]"),),
        expected=Verdict.CHECKED,
        domain=Domain({alpha: ORDERS, pe: sp.Interval.open(1, sp.oo)}, objects={"laws": _triples}, samples=120),
        hypotheses=(r"q = p/(p-1)",),
        note="A statement about all distributions: checked on 5-outcome triples (edge cases, R = P, R = Q); "
             "where one outcome dominates (large α) the residual comparison is used, see the module docstring.",
    ),
    Claim(
        id="mironov-cor4",
        title="Weak triangle inequality with p = q = 2",
        source="Mironov 2017, Corollary 4",
        statement=r"D_\alpha(P\|Q) \le \frac{\alpha-1/2}{\alpha-1}D_{2\alpha}(P\|R) + D_{2\alpha-1}(R\|Q)",
        steps=(
            Equal(lambda: SINGLE_RHS.subs(pe, 2), (alpha - sp.S.Half) / (alpha - 1) * _single(2 * alpha, u, w)
                  + _single(2 * alpha - 1, w, v),
                  "Proposition 11's right side at p = q = 2: q(α − 1/p) = 2α − 1",
                  domain=Domain({alpha: ORDERS, u: sp.Interval(-100, 0), v: sp.Interval(-100, 0),
                                 w: sp.Interval(-100, 0)}, samples=40)),
            Holds("D_α(P‖Q) ≤ (α−1/2)/(α−1)·D_{2α}(P‖R) + D_{2α−1}(R‖Q)", _weak_triangle(2),
                  "Proposition 11 with p = q = 2"),
        ),
        expected=Verdict.CHECKED,
        domain=Domain({alpha: ORDERS}, objects={"laws": _triples}, samples=120),
        note="Checked on finite triples as Proposition 11; the specialisation itself is proved (first step).",
    ),
    Claim(
        id="mironov-prop11-single-outcome-equality",
        title="Proposition 11 is an equality on laws concentrated on one outcome",
        source="Mironov 2017, Proposition 11 (equality case)",
        statement=r"\frac{\alpha u+(1-\alpha)v}{\alpha-1} = \frac{\alpha-1/p}{\alpha-1}\cdot\frac{p\alpha u+(1-p\alpha)w}"
                  r"{p\alpha-1} + \frac{\beta w+(1-\beta)v}{\beta-1},\ \beta = q(\alpha-1/p)",
        steps=(Equal(SINGLE_LHS, SINGLE_RHS,
                     "each D_β(A‖B) restricted to one outcome x* is (β log A(x*) + (1−β) log B(x*))/(β−1)"),),
        expected=Verdict.PROVED,
        domain=Domain({alpha: ORDERS, pe: sp.Interval.open(1, sp.oo), u: sp.Interval(-100, 0),
                       v: sp.Interval(-100, 0), w: sp.Interval(-100, 0)}, samples=60),
        note="Why the finite-law checks need the residual comparison at large α: the dominant outcome's "
             "contributions to the two sides cancel exactly.",
    ),
]
