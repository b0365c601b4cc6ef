"""Mironov 2017, Definition 3: the Rényi divergence and its endpoints α = 1 and α = ∞ "by continuity".

For each built-in family the α → 1 and α → ∞ limits of the core's closed form
(taken by ``sympy.limit``) are compared with the core's own derivations at
order 1 (KL) and order ∞ (log sup P/Q); the KL is also integrated directly from
the densities, E_P[log P/Q], so the α → 1 claim does not rest on the core's KL
routine alone (which itself differentiates the moment at α = 1).

For general laws the limits are checked on finite distributions with explicit
rates:

* α → 1.  With L = log(P/Q) under P, K(t) = log E_P[e^{tL}] = (α−1)·D_α for
  t = α−1 is the cumulant generating function of L: convex, K(0) = 0,
  K'(0) = E_P[L] = KL, and K''(s) is the variance of L under a tilted law,
  at most (max L − min L)²/4 (Popoviciu).  So K(t)/t ≥ KL and
  K(t) ≤ t·KL + t²/2·(max L − min L)²/4, i.e.

      KL ≤ D_{1+h} ≤ KL + h·C,   C = (D_∞(P‖Q) + D_∞(Q‖P))²/8,

  since max L = D_∞(P‖Q) and −min L = D_∞(Q‖P) for laws with full support.
* α → ∞.  Σ P (P/Q)^{α−1} ≥ P(x*)·e^{(α−1)D_∞} at an x* where P/Q is largest, so

      D_∞ + log P(x*)/(α−1) ≤ D_α ≤ D_∞.
"""

import functools

import sympy as sp
from flint import arb

import rdpsym
from rdpsym.claims import Claim, Domain, Equal, Holds, Verdict, alpha, symbolic
from rdpsym.claims.finite import max_ratio, random_pmfs, renyi

from ._families import POSITIVE, derived, lam, p, sigma

x = sp.Symbol("x", real=True)
h = sp.Symbol("h", positive=True)
#: Randomized response is split at p = 1/2: p = (1+t)/(2+t) covers (1/2, 1), p = 1/(2+t) covers (0, 1/2).
t = sp.Symbol("t", positive=True)
P_ABOVE_HALF = (1 + t) / (2 + t)
P_BELOW_HALF = 1 / (2 + t)


def _limit_at_one(mechanism, substitution=None):
    def compute():
        e = derived(mechanism)
        if substitution is not None:
            e = e.subs(p, substitution)
        return symbolic.limit(e, alpha, 1, "+")
    return compute


def _limit_at_infinity(mechanism, substitution=None):
    def compute():
        e = _split_at_a_term(derived(mechanism), {p: substitution} if substitution is not None else {})
        if substitution is not None:
            e = e.subs(p, substitution)
        return symbolic.limit(e, alpha, sp.oo)
    return compute


def _split_at_a_term(e: sp.Expr, substitution: dict) -> sp.Expr:
    """c·log(T + R) written c·(log T + log(1 + R/T)), T the term of the sum largest at a far order.

    An identity for T > 0 (every term here is a product of positive powers), so the limit is the
    limit of the core's own form; it only hands gruntz the term that dominates as α → ∞ apart from
    a remainder that stays bounded: randomized response's two limits take 0.35 s this way, 1.6 s
    on the sum.  The choice of T (the term largest at α = 1000 after ``substitution``, every other
    symbol 1) is a guide: the identity holds for any term.
    """
    c, log = e.as_independent(sp.log, as_Add=False)
    if not isinstance(log, sp.log) or not log.args[0].is_Add:
        return e
    terms = sp.Add.make_args(log.args[0])

    def far(term):
        term = term.subs(substitution)
        return term.subs({s: 1 for s in term.free_symbols - {alpha}} | {alpha: 1000})

    if not all(far(u).is_positive for u in terms):
        return e
    T = max(terms, key=lambda u: sp.log(far(u)).evalf(30))
    rest = sp.Add(*[u for u in terms if u is not T])
    return c * (sp.expand_log(sp.log(T), force=True) + sp.log(1 + sp.powsimp(rest / T, force=True)))


def _at_order(mechanism, order, substitution=None):
    def compute():
        e = derived(mechanism, order)
        if substitution is not None:
            e = e.subs(p, substitution)
        return e
    return compute


@functools.cache
def kl_direct(mechanism: str) -> sp.Expr:
    """E_P[log P/Q] integrated from the densities, piece by piece (not through the core's KL routine)."""
    if mechanism == "randomized-response":
        P, Q = (p, 1 - p), (1 - p, p)
        return sp.Add(*[a * sp.log(a / b) for a, b in zip(P, Q)])
    if mechanism == "gaussian":
        P, Q = rdpsym.gaussian(sigma=sigma).pair
        pieces = [(-sp.oo, sp.oo, {})]
    else:
        P, Q = rdpsym.laplace(scale=lam).pair
        # |x| and |x − 1| have fixed signs on (−∞, 0), (0, 1), (1, ∞).
        pieces = [(-sp.oo, 0, {sp.Abs(x): -x, sp.Abs(x - 1): 1 - x}),
                  (0, 1, {sp.Abs(x): x, sp.Abs(x - 1): 1 - x}),
                  (1, sp.oo, {sp.Abs(x): x, sp.Abs(x - 1): x - 1})]
    total = sp.S.Zero
    for lo, hi, sub in pieces:
        pp, qq = P.pdf.subs(sub), Q.pdf.subs(sub)
        log_ratio = sp.expand(symbolic.simplify(sp.log(pp / qq)))
        # (each product expanded first: sympy.integrate then takes its elementary route, 0.1 s in all;
        # on the product it goes through Meijer G-functions, 0.4 s)
        total += sp.Add(*[symbolic.integrate(sp.expand(pp * term), (x, lo, hi)) for term in sp.Add.make_args(log_ratio)])
    return symbolic.simplify(total)


# --------------------------------------------------------------------------- finite laws

def _kl_lower(point):
    P, Q = point["laws"]
    return renyi(P, Q, 1), "<=", renyi(P, Q, 1 + point[h])


def _kl_upper(point):
    P, Q = point["laws"]
    c = _range_of_log_ratio(P, Q) ** 2 / 8
    return renyi(P, Q, 1 + point[h]), "<=", renyi(P, Q, 1) + arb(point[h].p) / arb(point[h].q) * c


def _range_of_log_ratio(P, Q) -> arb:
    # max L − min L = D_∞(P‖Q) + D_∞(Q‖P); exactly 0 when P = Q.
    hi = max(a / b for a, b in zip(P, Q))
    lo = min(a / b for a, b in zip(P, Q))
    return arb(hi / lo).log()


def _inf_upper(point):
    P, Q = point["laws"]
    return renyi(P, Q, point[alpha]), "<=", renyi(P, Q, sp.oo)


def _inf_lower(point):
    P, Q = point["laws"]
    top = max_ratio(P, Q)  # e^{D_∞}: the sampled laws have full support
    star = max((k for k in range(len(P)) if P[k] / Q[k] == top), key=lambda k: P[k])  # x*, exact rationals
    mass = P[star]
    a = arb(point[alpha].p) / arb(point[alpha].q)
    lower, d = renyi(P, Q, sp.oo) + arb(mass).log() / (a - 1), renyi(P, Q, point[alpha])
    if not (d - lower >= 0) and d.overlaps(lower):
        # At large α the other outcomes add Σ P(x)(r_x/r*)^{α−1} = e^{−(α−1)·gap}-small terms to the
        # sum, far below any working precision, so the two balls overlap.  Then compare the exact
        # decomposition instead: D_α − lower = log1p(S/P(x*))/(α−1) with S that sum of the other
        # terms (each a positive ball), after checking that the decomposition reproduces renyi()'s value.
        rest = arb(0)
        for k, (x, y) in enumerate(zip(P, Q)):
            if k != star:
                rest += arb(x) * ((a - 1) * arb(x / y / top).log()).exp()
        gap = (rest / arb(mass)).log1p() / (a - 1)
        if not (lower + gap).overlaps(d):
            return lower + gap, "=", d  # the decomposition disagrees with renyi(): reported as a failure
        return arb(0), "<=", gap
    return lower, "<=", d


_RR_NOTE = ("p ∈ (0, 1) is split at p = 1/2 and each half reparametrised by t > 0 (p = (1+t)/(2+t), "
            "p = 1/(2+t)): sympy.limit cannot take the α → ∞ limit without knowing the sign of "
            "log(p/(1−p)); p = 1/2 (both laws equal, D_α = 0) is its own step.")

CLAIMS = [
    Claim(
        id="mironov-def3-limit1-rr",
        title="Randomized response: D_α → KL as α → 1",
        source="Mironov 2017, Definition 3",
        statement=r"D_1(P\|Q) = \lim_{\alpha\to1} D_\alpha(P\|Q) = \mathrm{E}_{x\sim P}\log\frac{P(x)}{Q(x)}",
        steps=(
            Equal(_limit_at_one("randomized-response"), _at_order("randomized-response", 1),
                  "sympy.limit of the derived closed form (Prop 5) vs the core's order-1 derivation"),
            Equal(_at_order("randomized-response", 1), lambda: kl_direct("randomized-response"),
                  "E_P[log P/Q] summed over the two outcomes"),
        ),
        expected=Verdict.PROVED,
        domain=Domain({p: sp.Interval.open(0, 1)}, samples=40),
    ),
    Claim(
        id="mironov-def3-limit1-laplace",
        title="Laplace: D_α → KL as α → 1",
        source="Mironov 2017, Definition 3",
        statement=r"D_1(P\|Q) = \lim_{\alpha\to1} D_\alpha(P\|Q) = \mathrm{E}_{x\sim P}\log\frac{P(x)}{Q(x)}",
        steps=(
            Equal(_limit_at_one("laplace"), _at_order("laplace", 1),
                  "sympy.limit of the derived closed form (Prop 6) vs the core's order-1 derivation"),
            Equal(_at_order("laplace", 1), lambda: kl_direct("laplace"),
                  "E_P[log P/Q] integrated over (−∞,0), (0,1), (1,∞)"),
        ),
        expected=Verdict.PROVED,
        domain=Domain({lam: POSITIVE}, samples=40),
    ),
    Claim(
        id="mironov-def3-limit1-gaussian",
        title="Gaussian: D_α → KL as α → 1",
        source="Mironov 2017, Definition 3",
        statement=r"D_1(P\|Q) = \lim_{\alpha\to1} D_\alpha(P\|Q) = \mathrm{E}_{x\sim P}\log\frac{P(x)}{Q(x)}",
        steps=(
            Equal(_limit_at_one("gaussian"), _at_order("gaussian", 1),
                  "sympy.limit of the derived closed form (Prop 7) vs the core's order-1 derivation"),
            Equal(_at_order("gaussian", 1), lambda: kl_direct("gaussian"),
                  "E_P[log P/Q] integrated over the line"),
        ),
        expected=Verdict.PROVED,
        domain=Domain({sigma: POSITIVE}, samples=40),
    ),
    Claim(
        id="mironov-def3-limitinf-rr",
        title="Randomized response: D_α → D_∞ as α → ∞",
        source="Mironov 2017, Definition 3",
        statement=r"D_\infty(P\|Q) = \lim_{\alpha\to\infty} D_\alpha(P\|Q) = \sup_{x\in\operatorname{supp}Q}\log\frac{P(x)}{Q(x)}",
        steps=(
            Equal(_limit_at_infinity("randomized-response", P_ABOVE_HALF),
                  _at_order("randomized-response", sp.oo, P_ABOVE_HALF),
                  "p > 1/2: sympy.limit vs the core's D_∞ (the larger log-ratio)"),
            Equal(_limit_at_infinity("randomized-response", P_BELOW_HALF),
                  _at_order("randomized-response", sp.oo, P_BELOW_HALF),
                  "p < 1/2: sympy.limit vs the core's D_∞"),
            Equal(_limit_at_infinity("randomized-response", sp.S.Half),
                  _at_order("randomized-response", sp.oo, sp.S.Half),
                  "p = 1/2: both laws are (1/2, 1/2)"),
        ),
        expected=Verdict.PROVED,
        domain=Domain({t: POSITIVE}, samples=40),
        hypotheses=(r"p \in (0,1)",),
        note=_RR_NOTE,
    ),
    Claim(
        id="mironov-def3-limitinf-laplace",
        title="Laplace: D_α → D_∞ as α → ∞",
        source="Mironov 2017, Definition 3",
        statement=r"D_\infty(P\|Q) = \lim_{\alpha\to\infty} D_\alpha(P\|Q) = \sup_{x\in\operatorname{supp}Q}\log\frac{P(x)}{Q(x)}",
        steps=(Equal(_limit_at_infinity("laplace"), _at_order("laplace", sp.oo),
                     "sympy.limit of Prop 6's form vs the core's sup of the log-ratio"),),
        expected=Verdict.PROVED,
        domain=Domain({lam: POSITIVE}, samples=40),
    ),
    Claim(
        id="mironov-def3-limitinf-gaussian",
        title="Gaussian: D_α → D_∞ = ∞ as α → ∞",
        source="Mironov 2017, Definition 3",
        statement=r"D_\infty(P\|Q) = \lim_{\alpha\to\infty} D_\alpha(P\|Q) = \sup_{x\in\operatorname{supp}Q}\log\frac{P(x)}{Q(x)}",
        steps=(
            Equal(_limit_at_infinity("gaussian"), sp.oo, "sympy.limit of α/(2σ²) as α → ∞"),
            Equal(_at_order("gaussian", sp.oo), sp.oo,
                  "the core's D_∞: the log-ratio (1−2x)/(2σ²) is unbounded"),
        ),
        expected=Verdict.PROVED,
        domain=Domain({sigma: POSITIVE}, samples=40),
    ),
    Claim(
        id="mironov-def3-limit1-finite",
        title="D_{1+h} → KL with rate h·C on finite laws",
        source="Mironov 2017, Definition 3",
        statement=r"\mathrm{KL}(P\|Q) \le D_{1+h}(P\|Q) \le \mathrm{KL}(P\|Q) + h\,\frac{(D_\infty(P\|Q)+D_\infty(Q\|P))^2}{8}",
        steps=(
            Holds("KL ≤ D_{1+h}", _kl_lower,
                  "K(t)/t ≥ K'(0) = KL for the convex cumulant generating function K of log(P/Q) under P"),
            Holds("D_{1+h} ≤ KL + h·C", _kl_upper,
                  "Taylor: K(t) ≤ t·KL + t²/2·sup K'' and K'' ≤ (max L − min L)²/4 (Popoviciu)"),
        ),
        expected=Verdict.CHECKED,
        domain=Domain({h: sp.Interval.open(0, sp.oo)}, objects={"laws": random_pmfs(2)}, samples=80),
        note="A statement about all distributions: checked on finite laws with full support (edge cases "
             "first, probabilities down to 1e-30); the cumulant argument is not formalised.",
    ),
    Claim(
        id="mironov-def3-limitinf-finite",
        title="D_α → D_∞ with rate 1/(α−1) on finite laws",
        source="Mironov 2017, Definition 3",
        statement=r"D_\infty(P\|Q) + \frac{\log P(x^*)}{\alpha-1} \le D_\alpha(P\|Q) \le D_\infty(P\|Q),"
                  r"\quad x^* \in \arg\max_x P(x)/Q(x)",
        steps=(
            Holds("D_α ≤ D_∞", _inf_upper, "E_P[(P/Q)^{α−1}] ≤ (max P/Q)^{α−1}"),
            Holds("D_∞ + log P(x*)/(α−1) ≤ D_α", _inf_lower,
                  "E_P[(P/Q)^{α−1}] ≥ P(x*)·(max P/Q)^{α−1}: keep one term of the sum"),
        ),
        expected=Verdict.CHECKED,
        domain=Domain({alpha: sp.Interval.open(1, sp.oo)}, objects={"laws": random_pmfs(2)}, samples=80),
        note="A statement about all distributions: checked on finite laws (edge cases first); the "
             "two one-line bounds are not formalised.",
    ),
]
