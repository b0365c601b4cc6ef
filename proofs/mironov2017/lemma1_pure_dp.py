"""Mironov 2017, Lemma 1: pure ε-DP (both directions) ⇒ D_α ≤ 2αε², and what surrounds it.

Seed 002 l.300–336: the lemma (l.302–304), its proof (l.306–334) and the remark that the
constant improves to ½ (l.336, citing Bun–Steinke 2016, Prop 3.3).  Claims here:

* ``mironov-lemma1`` — the lemma as printed (constant 2);
* ``bs-lemma1-half`` — the improved constant ½, through Bun–Steinke's exact bound (sinh form);
* ``bs-pure-to-rdp-rr`` — the sinh form *is* the RR divergence of Prop 5 at p = e^ε/(1 + e^ε)
  (statements.md, "Pure ε-DP ⇒ RDP exactly"), a symbolic identity;
* ``mironov-lemma1-one-sided`` — the lemma with only D_∞(P‖Q) ≤ ε: false;
* ``mironov-lemma1-l1`` — the proof step "‖P−Q‖₁ ≤ min(2, e^ε−1) ≤ 2ε²" (l.330): false, a typo
  for 2ε; ``mironov-lemma1-l1-corrected`` beside it;
* ``mironov-lemma1-ineq2`` — inequality (2) of the proof (l.311–313).

"For all P, Q" is checked on finite ε-DP pairs built from exact rationals: randomized response
(the extremal pair) first, then two-point extremes and random shapes (``_dp_refs.pure_dp_pair``),
with r = e^ε from 1 + 10⁻³⁰ to 10¹² and α from 1 to 10¹².
"""

import sympy as sp
from flint import arb, ctx, fmpq

from rdpsym.claims import AtMost, Claim, Domain, Equal, Holds, Verdict, alpha
from rdpsym.claims.finite import ball, rational, renyi
from rdpsym.foundations.balls import precision

from ._dp_refs import d_inf, pure_dp_pair, pure_dp_shapes
from ._families import derived, p

eps = sp.Symbol("epsilon", positive=True)
r = sp.Symbol("r", positive=True)  # r = e^ε, an exact rational > 1
x = sp.Symbol("x", real=True)
t = sp.Symbol("t", real=True)
y = sp.Symbol("y", positive=True)
lam = sp.Symbol("lambda", positive=True)
beta = sp.Symbol("beta", nonnegative=True)

ORDERS_FROM_1 = sp.Interval(1, sp.oo)
RATIOS = sp.Interval.open(1, sp.oo)

#: Bun–Steinke 2016 (Prop 3.3): the exact sup of D_α over pairs with D_∞ ≤ ε both ways.
SINH = 1 / (alpha - 1) * sp.log((sp.sinh(alpha * eps) - sp.sinh((alpha - 1) * eps)) / sp.sinh(eps))


def _pair_and_eps(point):
    """The sampled ε-DP pair and its ε = max(D_∞(P‖Q), D_∞(Q‖P)) (a ball; ≤ log r)."""
    P, Q = pure_dp_pair(rational(point[r]), point["shape"])
    return P, Q, d_inf(P, Q).max(d_inf(Q, P))


def _lemma(constant):
    def compare(point):
        P, Q, e = _pair_and_eps(point)
        return renyi(P, Q, point[alpha]), "<=", constant * ball(point[alpha]) * e * e
    return compare


def _below_sinh(point):
    """D_α(P‖Q) ≤ the sinh form at ε = max D_∞, written as its RR moment (no sinh cancellation).

    Computed with 256 guard bits: near α = 1 both sides lose log2(1/(α−1)) bits in the
    division by α − 1, and the equality at randomized response needs them back.
    """
    with precision(ctx.prec + 256):
        return _below_sinh_at(point)


def _below_sinh_at(point):
    P, Q, e = _pair_and_eps(point)
    a = ball(point[alpha])
    if point[alpha] == 1:  # the α → 1 limit of the RR form: KL of randomized response
        w = e.exp()
        bound = (w - 1) / (w + 1) * e
    else:
        bound = (((a * e).exp() + ((1 - a) * e).exp()) / (1 + e.exp())).log() / (a - 1)
    # Randomized response attains the bound (bs-pure-to-rdp-rr proves the identity): there the
    # relation is checked as an equality, which balls decide; "≤" on an exact tie they cannot.
    return renyi(P, Q, point[alpha]), "=" if point["shape"] == "rr" else "<=", bound


def _one_sided(point):
    """P = (1 − η, η), Q = (1 − x, x) with η ≪ x: D_∞(P‖Q) is small, D_∞(Q‖P) is not."""
    eta, xq = point["eta"], rational(point[x_q])
    P, Q = (1 - eta, eta), (1 - xq, xq)
    e = d_inf(P, Q)
    return renyi(P, Q, point[alpha]), "<=", 2 * ball(point[alpha]) * e * e


def _l1_printed(point):
    P, Q, e = _pair_and_eps(point)
    return arb(sum((abs(a - b) for a, b in zip(P, Q)), fmpq(0))), "<=", 2 * e * e


def _l1_corrected(point):
    P, Q, e = _pair_and_eps(point)
    return arb(sum((abs(a - b) for a, b in zip(P, Q)), fmpq(0))), "<=", e.expm1().min(arb(2))


x_q = sp.Symbol("x_Q", positive=True)

PAIRS = Domain({alpha: ORDERS_FROM_1, r: RATIOS}, objects={"shape": pure_dp_shapes()}, samples=150, seed=11)
PAIRS_NO_ORDER = Domain({r: RATIOS}, objects={"shape": pure_dp_shapes()}, samples=80, seed=12)
#: How the report states what PAIRS samples (its variable r is e^ε, the statements' ε is log r).
PAIR_HYPOTHESES = (r"P, Q \text{ finite laws with } e^{-\epsilon} \le P/Q \le e^{\epsilon}",
                   r"\epsilon > 0 \ (\text{sampled as } r = e^{\epsilon} > 1)")


def _eta(rng, i):
    return fmpq(1, 10**15) if i < 20 else fmpq(1, 10 ** rng.randint(13, 30))


CLAIMS = [
    Claim(
        id="mironov-lemma1",
        title="Pure ε-DP in both directions gives D_α ≤ 2αε²",
        source="Mironov 2017, Lemma 1 (seed 002 l.300–304)",
        statement=r"D_\infty(P\|Q)\le\epsilon \wedge D_\infty(Q\|P)\le\epsilon \implies "
                  r"D_\alpha(P\|Q) \le 2\alpha\epsilon^2 \quad (\alpha \ge 1)",
        steps=(Holds("D_α(P‖Q) ≤ 2αε², ε = max(D_∞(P‖Q), D_∞(Q‖P))", _lemma(2),
                     "Lemma 1 on ε-DP pairs (RR first: the extremal pair); α = 1 is the KL divergence"),),
        expected=Verdict.CHECKED,
        domain=PAIRS,
        hypotheses=(r"\alpha \ge 1", r"D_\infty(P\|Q) \le \epsilon", r"D_\infty(Q\|P) \le \epsilon"),
        note="The printed proof has a wrong step (mironov-lemma1-l1); the lemma itself holds, "
             "and with constant ½ (bs-lemma1-half).",
    ),
    Claim(
        id="bs-lemma1-half",
        title="Lemma 1 with the constant ½ (Bun–Steinke)",
        source="Mironov 2017 l.336 remark; Bun–Steinke 2016 (arXiv:1605.02065) Prop 3.3",
        statement=r"D_\infty(P\|Q)\le\epsilon \wedge D_\infty(Q\|P)\le\epsilon \implies "
                  r"D_\alpha(P\|Q) \le \frac{1}{\alpha-1}\log\frac{\sinh(\alpha\epsilon)-\sinh((\alpha-1)\epsilon)}"
                  r"{\sinh\epsilon} \le \tfrac12\alpha\epsilon^2",
        steps=(
            Holds("D_α(P‖Q) ≤ BS sinh bound at ε = max D_∞", _below_sinh,
                  "Bun–Steinke's exact bound, as the RR moment (e^{αε} + e^{(1−α)ε})/(1 + e^ε) "
                  "(equal to the sinh form: bs-pure-to-rdp-rr)", domain=PAIRS),
            AtMost(SINH, alpha * eps**2 / 2,
                   "Bun–Steinke 2016 Prop 3.3 (the sinh bound is at most αε²/2); nearly tight as ε → 0",
                   domain=Domain({alpha: sp.Interval.open(1, sp.oo), eps: sp.Interval.open(0, sp.oo)},
                                 samples=150, seed=13)),
            Holds("D_α(P‖Q) ≤ ½αε²", _lemma(fmpq(1, 2)), "the two steps above, checked directly",
                  domain=PAIRS),
        ),
        expected=Verdict.CHECKED,
        domain=PAIRS,
        hypotheses=(r"\alpha > 1", *PAIR_HYPOTHESES),
        note="½ is optimal: randomized response attains the sinh bound, and sinh bound/(αε²/2) → 1 as ε → 0.",
    ),
    Claim(
        id="bs-pure-to-rdp-rr",
        title="The Bun–Steinke sinh bound is the randomized-response divergence",
        source="statements.md (Bun–Steinke 2016); Mironov 2017 Prop 5 at p = e^ε/(1+e^ε)",
        statement=r"\frac{1}{\alpha-1}\log\frac{\sinh(\alpha\epsilon)-\sinh((\alpha-1)\epsilon)}{\sinh\epsilon}"
                  r" = D_\alpha\left(\mathrm{RR}_p\right),\ p = \frac{e^\epsilon}{1+e^\epsilon}",
        steps=(
            Equal(sp.sinh(x), (sp.exp(x) - sp.exp(-x)) / 2, "definition of sinh",
                  domain=Domain({x: sp.Interval(-sp.oo, sp.oo)})),
            Equal(SINH.rewrite(sp.exp),
                  lambda: derived("randomized-response").subs(p, sp.exp(eps) / (1 + sp.exp(eps))),
                  "the sinh form with sinh written as exponentials, against the core's derivation of "
                  "randomized response (Prop 5) at p = e^ε/(1+e^ε)"),
        ),
        expected=Verdict.PROVED,
        domain=Domain({alpha: sp.Interval.open(1, sp.oo), eps: sp.Interval.open(0, sp.oo)}, samples=100),
        note="SymPy does not simplify the sinh form against Prop 5 directly; after the definitional rewrite "
             "sinh x = (eˣ − e⁻ˣ)/2 it does.",
    ),
    Claim(
        id="mironov-lemma1-one-sided",
        title="Lemma 1 with the one-sided hypothesis only",
        source="Mironov 2017, Lemma 1 (seed 002 l.302) with D_∞(Q‖P) ≤ ε dropped",
        statement=r"D_\infty(P\|Q)\le\epsilon \implies D_\alpha(P\|Q) \le 2\alpha\epsilon^2",
        steps=(Holds("D_α(P‖Q) ≤ 2α·D_∞(P‖Q)²", _one_sided,
                     "P = (1 − η, η), Q = (1 − x, x): D_∞(P‖Q) ≈ x, but D_α(P‖Q) ≈ x too"),),
        expected=Verdict.REFUTED,
        domain=Domain({alpha: ORDERS_FROM_1, x_q: sp.Interval.open(0, sp.Rational(1, 2))},
                      objects={"eta": _eta}, where=lambda pt: pt["eta"] < rational(pt[x_q]), samples=60, seed=14),
        note="Both directions are needed (the paper's hypothesis): the survey's pair η = 1e-15, x = 1e-3 has "
             "D_∞(P‖Q) = 1.0005e-3 but D₂ = 1.0005e-3 > 4ε² (D_∞(Q‖P) = 27.6).",
    ),
    Claim(
        id="mironov-lemma1-l1",
        title="Lemma 1's proof step ‖P−Q‖₁ ≤ min(2, e^ε−1) ≤ 2ε² (as printed)",
        source="Mironov 2017, proof of Lemma 1 (seed 002 l.328–332)",
        statement=r"\|P-Q\|_1 \le \min(2, e^\epsilon - 1) \le 2\epsilon^2",
        steps=(
            AtMost(sp.Min(2, sp.exp(eps) - 1), 2 * eps**2, "the printed last inequality",
                   domain=Domain({eps: sp.Interval.open(0, sp.oo)})),
            Holds("‖P−Q‖₁ ≤ 2ε² on ε-DP pairs", _l1_printed, "the printed conclusion", domain=PAIRS_NO_ORDER),
        ),
        expected=Verdict.REFUTED,
        domain=PAIRS_NO_ORDER,
        hypotheses=PAIR_HYPOTHESES,
        note="A typo for 2ε (see mironov-lemma1-l1-corrected): e.g. ε = 0.1 gives min(2, e^0.1 − 1) = 0.105 > 0.02, "
             "and randomized response at ε = 0.1 has ‖P−Q‖₁ = 0.0999.",
    ),
    Claim(
        id="mironov-lemma1-l1-corrected",
        title="Lemma 1's proof step, corrected: ‖P−Q‖₁ ≤ min(2, e^ε−1) ≤ 2ε",
        source="Mironov 2017, proof of Lemma 1 (seed 002 l.328–332), corrected",
        statement=r"\|P-Q\|_1 \le \min(2, e^\epsilon - 1) \le 2\epsilon,\ \text{so (3) gives } "
                  r"2(\alpha-1)\epsilon^2 + \epsilon\|P-Q\|_1 \le 2\alpha\epsilon^2",
        steps=(
            Holds("‖P−Q‖₁ ≤ min(2, e^ε − 1) on ε-DP pairs", _l1_corrected,
                  "|P − Q| = min(P,Q)·|max/min − 1| ≤ min(P,Q)(e^ε − 1), and ‖P−Q‖₁ ≤ 2"),
            AtMost(sp.exp(eps) - 1, 2 * eps, "e^ε − 1 ≤ 2ε for ε ≤ 1.2564, in particular on (0, 1]",
                   domain=Domain({eps: sp.Interval.Lopen(0, 1)})),
            AtMost(2, 2 * eps, "for ε ≥ 1 the cap 2 is at most 2ε", domain=Domain({eps: sp.Interval(1, sp.oo)})),
            Equal(2 * (alpha - 1) * eps**2 + eps * (2 * eps), 2 * alpha * eps**2,
                  "plugging ‖P−Q‖₁ ≤ 2ε into (3)",
                  domain=Domain({alpha: sp.Interval(1, sp.oo), eps: sp.Interval.open(0, sp.oo)})),
        ),
        expected=Verdict.CHECKED,
        domain=PAIRS_NO_ORDER,
        hypotheses=PAIR_HYPOTHESES,
    ),
    Claim(
        id="mironov-lemma1-ineq2",
        title="Inequality (2) in the proof of Lemma 1",
        source="Mironov 2017, proof of Lemma 1 (seed 002 l.311–313)",
        statement=r"x>y>0,\ \lambda=\log(x/y),\ 0\le\beta\le 1/\lambda:\ x^{\beta+1}y^{-\beta}+x^{-\beta}y^{\beta+1}"
                  r"\le(1+(\beta\lambda)^2)(x+y)+\beta\lambda(x-y)",
        steps=(
            AtMost(sp.exp(t), 1 + t + t**2, "the fact behind (2): e^t ≤ 1 + t + t² for |t| ≤ 1 (t = ±βλ)",
                   domain=Domain({t: sp.Interval(-1, 1)})),
            AtMost((y * sp.exp(lam)) ** (beta + 1) * y ** (-beta) + (y * sp.exp(lam)) ** (-beta) * y ** (beta + 1),
                   (1 + (beta * lam) ** 2) * (y * sp.exp(lam) + y) + beta * lam * (y * sp.exp(lam) - y),
                   "(2) itself, with x = y·e^λ",
                   # β = 0 is the equality x + y = x + y, which inexact balls cannot decide: excluded.
                   domain=Domain({y: sp.Interval.open(0, sp.oo), lam: sp.Interval.open(0, sp.oo),
                                  beta: sp.Interval.Lopen(0, 1)},
                                 where=lambda pt: pt[beta] * pt[lam] <= 1, samples=200)),
        ),
        expected=Verdict.CHECKED,
        domain=Domain({t: sp.Interval(-1, 1)}),
    ),
]
