"""The exponential mechanism's curve: the exact RDP of ε-bounded range (Cesar–Rogers 2021, arXiv:2004.07223).

A pair is ε-bounded-range (ε-BR) when log(P/Q) takes its values in an interval [t − ε, t] for
one t; the exponential mechanism with parameter ε is ε-BR (and hence ε-DP).  Cesar–Rogers show
ε-BR ⇒ ε²/8-zCDP; autodp 0.2.3.1's ``ExponentialMechanism`` uses that and the pure-DP curve,
noting "Bounded range should imply a slightly stronger RDP that dominates".  rdpsym's
``exponential_mechanism`` curve is that stronger curve, the supremum of D_α over ε-BR pairs
(:func:`rdpsym.laws.guarantees.bounded_range_form`, derived there from the two-point extremal):

* ``br-exact-rdp`` — it bounds D_α(P‖Q) of every ε-BR pair (random finite pairs with their own
  bounded-range width, exact rationals), and the two-point pair at the stationary point q*
  attains it;
* ``br-below-known`` — it is below both bounds it replaces, ε²α/8 and the ε-DP sinh form, and
  below D_∞ = ε;
* ``br-kl`` — its α → 1 limit is Cesar–Rogers' KL bound ε/(1 − e^{−ε}) − 1 − log(ε/(1 − e^{−ε})).
"""

import functools

import sympy as sp
from flint import arb, ctx, fmpq

import rdpsym
from rdpsym.claims import AtMost, Claim, Domain, Equal, Holds, Verdict, alpha, symbolic
from rdpsym.claims.finite import ball, max_ratio, rational, renyi
from rdpsym.foundations.balls import precision, to_arb
from rdpsym.foundations.errors import Undecided
from rdpsym.laws.guarantees import bounded_range_form

from ..mironov2017._dp_refs import pure_dp_pair, pure_dp_shapes

eps = sp.Symbol("epsilon", positive=True)
r = sp.Symbol("r", positive=True)  # a ratio bound > 1, exact rational: random pairs have width ≤ log r

BR = bounded_range_form(eps)
SINH = rdpsym.pure_dp(eps).closed_form  # Bun–Steinke's ε-DP curve, as rdpsym states it
ORDERS = sp.Interval.open(1, sp.oo)
POSITIVE = sp.Interval.open(0, sp.oo)

#: Guard bits: near α = 1 the form and the pair's divergence both lose log2(1/(α−1)) bits.
GUARD_BITS = 256


def _br(order: arb, width: arb) -> arb:
    return to_arb(BR, {alpha: order, eps: width})


def _below_br(point):
    """D_α(P‖Q) ≤ BR(α, w) with w = log(max P/Q) − log(min P/Q), the pair's own bounded-range width."""
    with precision(ctx.prec + GUARD_BITS):
        P, Q = pure_dp_pair(rational(point[r]), point["shape"])
        spread = max_ratio(P, Q) * max_ratio(Q, P)
        if spread == 1:  # P = Q: width 0, where BR is 0/0 and its limit 0 = D_α
            return renyi(P, Q, point[alpha]), "=", arb(0)
        width = arb(spread).log()
        return renyi(P, Q, point[alpha]), "<=", _br(ball(point[alpha]), width)


def _two_point_at_optimum(point):
    """The Bernoulli pair with Q-mass q ≈ q* on the upper ratio e^t, ratios e^t and e^{t−ε}, e^ε = r.

    q is q* rounded to a rational of 300 significant bits: D_α differs from the supremum by O((q − q*)²).  Where q*
    is below 2^−10⁵ (α ≈ 10¹⁰⁰ at a far point) no such rational is built: the point is undecided, not a failure
    (rounded to a grid of 2^−300, q was 0 there, and the pair's D_α 0: a true claim failed).
    """
    with precision(ctx.prec + GUARD_BITS):
        R, a = rational(point[r]), ball(point[alpha])
        lo, hi = (-(a * arb(R).log())).exp(), 1 / arb(R)  # e^{−αε}, e^{−ε}
        q_star = (a * (1 - hi) * lo - (1 - lo) * hi) / ((1 - a) * (1 - lo) * (1 - hi))
        if not q_star > arb(2) ** -100_000:
            raise Undecided(f"q* = {q_star.str(5)} is too small for the pair's exact probabilities")
        mantissa, exponent = q_star.mid().man_exp()  # q* ≈ 2^(exponent + bits of the mantissa)
        bits = 300 + max(0, -(int(exponent) + int(mantissa).bit_length()))
        q = fmpq(int((q_star * arb(2) ** bits).mid().floor().unique_fmpz()), 2**bits)
        top = 1 / (q + (1 - q) / R)  # e^t
        P, Q = (q * top, (1 - q) * top / R), (q, 1 - q)
        d, bound = renyi(P, Q, point[alpha]), _br(a, arb(R).log())
        return bound - d, "<=", bound * arb(10) ** -30


h = sp.Symbol("h", positive=True)  # α = 1 + h


@functools.cache
def _series_at_one() -> sp.Expr:
    """(α − 1)·BR at α = 1 + h to first order in h (logs split: every argument is positive for α > 1, ε > 0);
    expanded once for both of the claim's steps (0.5 s of SymPy's series each time)."""
    inner = sp.expand_log((BR * (alpha - 1)).subs(alpha, 1 + h), force=True)
    return symbolic.series_terms(inner, h, 0, 2)


def _expansion_at_one(degree: int):
    """The coefficient of h^degree in (α − 1)·BR at α = 1 + h.  SymPy's ``limit`` of BR itself answers
    ∞·sign(0) here."""
    return sp.expand_log(_series_at_one().coeff(h, degree), force=True)


KL_CR = eps / (1 - sp.exp(-eps)) - 1 - sp.log(eps / (1 - sp.exp(-eps)))

PAIRS = Domain({alpha: ORDERS, r: sp.Interval.open(1, sp.oo)}, objects={"shape": pure_dp_shapes()}, samples=150,
               seed=61)

CLAIMS = [
    Claim(
        id="br-exact-rdp",
        title="The exact RDP of ε-bounded range (the exponential mechanism's curve)",
        source="Cesar–Rogers 2021 (arXiv:2004.07223), ε-bounded range; rdpsym.laws.guarantees.bounded_range_form",
        statement=r"\sup_{\log(P/Q) \in [t-\epsilon, t]} D_\alpha(P\|Q) = \frac{1}{\alpha-1}\left["
                  r"\log\frac{b-a}{(\alpha-1)(1-b)} + \alpha\log\frac{(\alpha-1)(1-a)}{\alpha(b-a)}\right],"
                  r"\ a = e^{-\alpha\epsilon},\ b = e^{-\epsilon}",
        steps=(
            Holds("D_α(P‖Q) ≤ BR(α, w) at the pair's width w", _below_br,
                  "random finite pairs with ratios in [1, r]/Z (width ≤ log r), randomized response first",
                  domain=PAIRS),
            Holds("the two-point pair at q* attains BR(α, ε) to 30 digits", _two_point_at_optimum,
                  "upper bound and attained: the supremum",
                  domain=Domain({alpha: ORDERS, r: sp.Interval.open(1, sp.oo)}, samples=80, seed=62)),
        ),
        expected=Verdict.CHECKED,
        domain=PAIRS,
        hypotheses=(r"\alpha > 1", r"\log(P/Q) \in [t-\epsilon, t] \text{ for one } t"),
        note="For α > 1, E_Q[(P/Q)^α] is the mean of a convex function of L = P/Q with E_Q[L] = 1 and L on "
             "[e^{t−ε}, e^t]: its largest value is at a two-point law on the ends; the stationary point in q "
             "lies in (0, 1) (α(e^ε − 1) < e^{αε} − 1). autodp 0.2.3.1 mechanism_zoo.ExponentialMechanism "
             "leaves it as a TODO and uses min(pure DP, ε²α/8).",
    ),
    Claim(
        id="br-below-known",
        title="The ε-BR curve is below ε²α/8, the ε-DP sinh form and ε",
        source="Cesar–Rogers 2021 (ε-BR ⇒ ε²/8-zCDP); Bun–Steinke 2016 Prop 3.3 (ε-DP ⇒ sinh form)",
        statement=r"\epsilon_{\mathrm{BR}}(\alpha) \le \min\left(\tfrac{\epsilon^2\alpha}{8},"
                  r"\tfrac{1}{\alpha-1}\log\tfrac{\sinh(\alpha\epsilon)-\sinh((\alpha-1)\epsilon)}{\sinh\epsilon},"
                  r"\epsilon\right)",
        steps=(
            AtMost(BR, eps**2 * alpha / 8, "the zCDP bound it replaces"),
            AtMost(BR, SINH, "the ε-DP bound it replaces (an ε-BR pair is ε-DP)"),
            AtMost(BR, eps, "D_α ≤ D_∞ = ε"),
        ),
        expected=Verdict.CHECKED,
        domain=Domain({alpha: ORDERS, eps: POSITIVE}, samples=150, seed=63),
    ),
    Claim(
        id="br-kl",
        title="The ε-BR curve at α → 1 is Cesar–Rogers' KL bound",
        source="Cesar–Rogers 2021 (arXiv:2004.07223), KL of ε-bounded range",
        statement=r"\lim_{\alpha\to 1^+}\epsilon_{\mathrm{BR}}(\alpha) = \frac{\epsilon}{1-e^{-\epsilon}} - 1"
                  r" - \log\frac{\epsilon}{1-e^{-\epsilon}}",
        steps=(
            Equal(lambda: _expansion_at_one(0), sp.S.Zero, "(α − 1)·BR → 0 as α → 1: a 0/0 form"),
            Equal(lambda: _expansion_at_one(1), sp.expand_log(KL_CR, force=True),
                  "so the limit is the derivative of (α − 1)·BR at α = 1 (l'Hôpital), the published KL bound"),
        ),
        expected=Verdict.PROVED,
        domain=Domain({eps: POSITIVE}, samples=60, seed=64),
    ),
]
