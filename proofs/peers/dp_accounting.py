"""dp_accounting 0.6.0 (Google): the RDP accountant's closed forms, ``dp_accounting/rdp/rdp_privacy_accountant.py``.

Each claim: the peer's function and branch, its formula as it computes it (``PEER_FORMULAS``, compared with
the installed package by tests/test_peer_atlas.py), and rdpsym's verdict from the densities.

Neighbouring relations (``privacy_accountant.NeighboringRelation``): ADD_OR_REMOVE_ONE (default),
REPLACE_ONE, REPLACE_SPECIAL.  ``GaussianDpEvent(σ)`` documents "Σv_i + N(0, s²I), ‖v_i‖ ≤ C, σ = s/C":
adding or removing one record moves the mean by at most C (a shift of σ⁻¹ in noise units), replacing one
moves it by up to 2C.
"""

import sympy as sp
from flint import arb, fmpq

import rdpsym
from rdpsym import alpha
from rdpsym.claims import AtLeast, AtMost, Claim, Domain, Equal, Holds, Verdict
from rdpsym.claims.finite import rational, renyi
from rdpsym.foundations.balls import precision

from ._atlas import (
    ABOVE_ONE,
    BITS,
    POSITIVE,
    UNIT,
    ball,
    binomial_sum,
    eps,
    fractional_claims,
    gaussian_claim,
    gaussian_rdp,
    integer_claim,
    lam,
    laplace_rdp,
    p,
    sigma,
)

FILE = "dp_accounting 0.6.0 rdp/rdp_privacy_accountant.py"
depth = sp.Symbol("D", positive=True)
k = sp.Symbol("k", positive=True, integer=True)
delta = sp.Symbol("delta", positive=True)
rdp = sp.Symbol("r", positive=True)

# ------------------------------------------------------------------ the formulas as dp_accounting computes them

#: ``_laplace_rdp(eps, order)`` for order ≥ 1.1 (ε = 1/λ: noise scale λ per unit of ℓ1 sensitivity).
LAPLACE = eps + sp.log(1 + (alpha - 1) * (sp.exp(eps * (1 - 2 * alpha)) - 1) / (2 * alpha - 1)) / (alpha - 1)
#: ``_laplace_rdp`` at order 1 (KL).
LAPLACE_KL = eps + sp.exp(-eps) - 1


def laplace_taylor(e, a):
    """``_laplace_rdp`` for 1 < order < 1.1: ε + c·Σ_{k=1}^{99} v^{k−1}/k, c = expm1(ε(1−2α))/(2α−1), v = −c(α−1)."""
    c = (sp.exp(e * (1 - 2 * a)) - 1) / (2 * a - 1)
    v = -c * (a - 1)
    return e + c * sp.Add(*(v ** (k - 1) / k for k in range(1, 100)))  # (one Add: ``sum`` re-sorts 99 times)


#: ``_randomized_response_rdp_replace_special``: the larger of the two directions between RR_k's output and
#: the uniform output (kept apart: SymPy's ``Max`` of two logarithms near α = 1 picks the smaller one, its
#: comparison works at 15 digits); at order ∞ the larger of the two logarithms.
RR_SPECIAL = tuple(sp.log((k * (1 - p) + p) ** x / k + (k - 1) * p**x / k) / (alpha - 1) for x in (alpha, 1 - alpha))
RR_SPECIAL_INF = (sp.log(k * (1 - p) + p), -sp.log(p))
#: ``_randomized_response_rdp_replace_one`` with L = log(k/p − k + 1); at order ∞, L.
_L = sp.log(k / p - k + 1)
RR_ONE = (sp.log(p / k * sp.exp(alpha * _L) + (1 - p + p / k) * sp.exp(-alpha * _L) + (1 - 2 / k) * p) / (alpha - 1),)
RR_ONE_INF = (_L,)


#: ``compute_epsilon`` at one order α > 1.01 (Canonne–Kamath–Steinke 2020 Prop 12 branch).
EPSILON = rdp + sp.log(1 - 1 / alpha) - sp.log(delta * alpha) / (alpha - 1)

PEER_FORMULAS = {
    "_compute_rdp_poisson_subsampled_gaussian(q=1)": alpha / (2 * sigma**2),
    "_laplace_rdp": LAPLACE,
    "_laplace_rdp(order=1)": LAPLACE_KL,
    "_laplace_rdp(1<order<1.1)": laplace_taylor,
    "_compute_log_a_int": binomial_sum,
    "_compute_log_a_frac": "dp_accounting",  # the series of _atlas.log_a_frac
    "_randomized_response_rdp_replace_special": (RR_SPECIAL, RR_SPECIAL_INF),
    "_randomized_response_rdp_replace_one": (RR_ONE, RR_ONE_INF),
    "_compute_rdp_single_epoch_tree_aggregation": alpha * depth / (2 * sigma**2),
    "compute_epsilon": EPSILON,
}

# ------------------------------------------------------------------ numeric steps


_LAPLACE_TAYLOR = laplace_taylor(eps, alpha)


def _laplace_taylor_close(point):
    """|the 99-term series − D_α| at a point, as balls; the sign is claim step 1's."""
    values = {eps: point[eps], alpha: point[alpha]}
    series = ball(_LAPLACE_TAYLOR, values)
    truth = ball(laplace_rdp(alpha), {lam: 1 / point[eps], alpha: point[alpha]})
    return abs(series - truth), "<=", arb(10) ** -20 * truth


def _rr_cases(rng, i):
    """(p, k): edges first (p near 0 and 1, k = 2 and 100), then p in (0, 1), k in 2…30."""
    edges = [(fmpq(1, 10**6), 2), (fmpq(999_999, 10**6), 2), (fmpq(1, 2), 100), (fmpq(3, 10), 10), (fmpq(1, 100), 3)]
    if i < len(edges):
        return edges[i]
    return fmpq(rng.randint(1, 999), 1000), rng.randint(2, 30)


def _rr_laws(pp: fmpq, k: int, relation: str):
    """RR_k's output laws: on the true value 0, and on 1 (replace-one) or on the special record (uniform)."""
    stay = 1 - pp + pp / k
    first = (stay,) + (pp / k,) * (k - 1)
    if relation == "replace-one":
        return first, (pp / k, stay) + (pp / k,) * (k - 2)
    return first, (fmpq(1, k),) * k


def _rr_agrees(relation, formulas, both_directions):
    """|the peer's value − rdpsym's D_α of RR_k's finite laws| at a point: the peer's value is the largest of
    its candidate forms (``formulas``: at finite orders, at order ∞), evaluated in balls (SymPy would expand
    e^{α log r} into a power of a huge rational)."""
    def compare(point):
        pp, kk = point["rr"]
        finite = point["order"] == "finite"
        P, Q = _rr_laws(pp, kk, relation)
        order = rational(point[alpha]) if finite else sp.oo
        with precision(BITS):
            truth = renyi(P, Q, order)
            if both_directions:
                other = renyi(Q, P, order)
                truth = other if other > truth else truth if truth > other else truth.union(other)
            values = {p: arb(pp), k: kk} | ({alpha: arb(order)} if finite else {})
            peer = max((ball(f, values) for f in formulas[0 if finite else 1]), key=lambda b: b.mid())
            return abs(peer - truth), "<=", arb(10) ** -40 * (1 + abs(truth))
    return compare


def _order_kind(rng, i):
    return "infinite" if i % 4 == 3 else "finite"


RR_DOMAIN = Domain({alpha: sp.Interval.open(1, 200)}, objects={"rr": _rr_cases, "order": _order_kind},
                   samples=40, seed=61)

# ------------------------------------------------------------------ sampling without replacement (no pair of laws)
#: Sampling a fixed batch of m of n records without replacement, under REPLACE_ONE (the only relation
#: dp_accounting accepts it under), has no pair of laws that is known to dominate: dp_accounting bounds it by
#: Wang–Balle–Kasiviswanathan 2019 (Theorem 27, Cor 10 between integers).  rdpsym's
#: ``sampled_without_replacement(gaussian(σ), q)`` evaluates the same theorem in balls (the transcription test
#: compares it with the installed function), and a certified *lower* bound comes from actual pairs: the one
#: record replaced is in the batch with probability q = m/n, so with the rest fixed the outputs are
#: P = (1 − q)N(0, σ²) + qN(a, σ²) against Q = (1 − q)N(0, σ²) + qN(b, σ²) for records a, b, |a − b| ≤ Δ.
#: Δ = 1 (σ against the replace-one sensitivity): a = 1, b = 0 (the Poisson pair) and a = ½, b = −½; Δ = 2
#: (GaussianDpEvent's ‖v_i‖ ≤ C with σ = s/C): a = 1, b = −1.
WOR_CASES = [((1, 2), 1, 8), ((1, 10), 1, 2), ((3, 10), (3, 2), (7, 2)), ((1, 100), 2, 10), ((9, 10), (1, 2), 3)]


def _wor_points(rng, i):
    if i < len(WOR_CASES):
        return tuple(fmpq(*c) if isinstance(c, tuple) else fmpq(c) for c in WOR_CASES[i])
    qq = fmpq(rng.randint(1, 2**10 - 1), 2**10)
    return qq, fmpq(1, 2) + fmpq(rng.randint(0, 2**12), 2**10), fmpq(rng.randint(21, 640), 10)


def _tails(x, mean: fmpq, scale: arb) -> tuple[arb, arb]:
    """N(mean, σ²)'s mass below and above ``x`` in balls (None: −∞ or +∞), ``scale`` = σ√2; the near tail is an
    erfc and the far one 1 minus it, so no erfc cancels."""
    if x is None:
        return arb(0), arb(0)
    w = (x - arb(mean)) / scale
    if w >= 0:
        near = w.erfc() / 2
        return 1 - near, near
    near = (-w).erfc() / 2
    return near, 1 - near


def _bin_masses(edges: list, mean: fmpq, sig: arb) -> list[arb]:
    """N(mean, σ²)(lo, hi) in balls for consecutive ``edges`` (None: an infinite end), from the side where erfc
    does not cancel; one erfc per edge, shared by the two bins beside it."""
    scale = sig * arb(2).sqrt()
    tails = [_tails(x, mean, scale) for x in edges]
    masses = []
    for (lo, hi), (below_lo, above_lo), (below_hi, above_hi) in zip(zip(edges, edges[1:]), tails, tails[1:]):
        if lo is not None and lo >= arb(mean):
            masses.append(above_lo - above_hi)
        elif hi is not None and hi <= arb(mean):
            masses.append(below_hi - below_lo)
        else:
            masses.append(1 - below_lo - above_hi)
    return masses


def _mixture_pair_lower(qq: fmpq, s: fmpq, a: fmpq, shifts, bins: int = 1200) -> arb:
    """A certified lower bound on D_α of (1 − q)N(0, σ²) + qN(shift₀, σ²) against (1 − q)N(0, σ²) + qN(shift₁, σ²):
    the divergence of the two laws binned into ``bins`` intervals of [−L, L] and the two tails (post-processing
    never increases D_α: Mironov 2017, Prop 9's monotonicity under channels), every bin's mass in balls.
    L = (α + 12)σ + 2 covers where P^α Q^{1−α} has its mass; a bin whose masses the balls cannot tell positive
    is left out, which only lowers the bound.

    Computed at 128 bits whatever the caller's precision: the ball is as certain at any precision, only wider
    (10⁻³⁶ to 10⁻²⁷ relative at the sampled points, against bounds compared to 20 digits), and the 2 400 erfc of
    a point cost a third of what they did at the atlas's 400 bits."""
    with precision(128):
        order, sig, weight = arb(a), arb(s), arb(qq)
        span = (order + 12) * sig + 2
        edges = [None] + [-span + 2 * span * arb(i) / bins for i in range(bins + 1)] + [None]
        noise = _bin_masses(edges, fmpq(0), sig)
        first = _bin_masses(edges, shifts[0], sig)
        # The edges are symmetric about 0 (−L + 2L·i/bins = −(−L + 2L·(bins − i)/bins)), so N(−m)'s mass on a bin
        # is N(m)'s on its mirror image: shifts ±m take one set of erfc values, not two (a third of this bound's
        # time).
        second = first[::-1] if shifts[1] == -shifts[0] else _bin_masses(edges, shifts[1], sig)
        total = arb(0)
        for n, m0, m1 in zip(noise, first, second):
            p_, q_ = (1 - weight) * n + weight * m0, (1 - weight) * n + weight * m1
            if p_ > 0 and q_ > 0:
                total += (order * p_.log() + (1 - order) * q_.log()).exp()
        return total.log() / (order - 1)


def _wor_peer(qq: fmpq, s: fmpq, a: fmpq) -> arb:
    """dp_accounting's bound (Wang–Balle–Kasiviswanathan), as rdpsym evaluates it in balls."""
    return rdpsym.sampled_without_replacement(rdpsym.gaussian(sigma=s), q=qq).curve().enclosure(a, 20)


def _wor_above_lower(point):
    """Δ = 1: the bound is at least D_α of both pairs (the Poisson pair and ±½)."""
    qq, s, a = point["case"]
    with precision(BITS):
        poisson = rdpsym.sampled_gaussian(q=qq, sigma=s).curve().enclosure(a, 20)
        lower = poisson.max(_mixture_pair_lower(qq, s, a, (fmpq(1, 2), fmpq(-1, 2))))
        return lower, "<=", _wor_peer(qq, s, a)


def _wor_event_convention(point):
    """Δ = 2 (GaussianDpEvent's C): the bound against D_α of the ±1 pair."""
    qq, s, a = point["case"]
    with precision(BITS):
        return _mixture_pair_lower(qq, s, a, (fmpq(1), fmpq(-1))), "<=", _wor_peer(qq, s, a)



CLAIMS = [
    gaussian_claim("dpa-gaussian", "dp_accounting",
                   f"{FILE}::_compute_rdp_poisson_subsampled_gaussian, branch q == 1 (GaussianDpEvent); and its "
                   "α = ∞ branch",
                   "Exact under ADD_OR_REMOVE_ONE, where a record moves the sum by at most C "
                   "(dpa-gaussian-replace-one is the same formula under REPLACE_ONE)."),
    Claim(
        id="dpa-gaussian-replace-one",
        title="dp_accounting under REPLACE_ONE: the Gaussian event's RDP is a quarter of the truth (unsafe)",
        source=f"{FILE}::_compute_rdp_poisson_subsampled_gaussian (q == 1) as RdpAccountant(REPLACE_ONE) uses it "
               "for GaussianDpEvent; dp_event.py's convention ‖v_i‖ ≤ C",
        statement=r"\frac{\alpha}{2\sigma^2} \ge D_\alpha(\mathcal N(-1,\sigma^2)\|\mathcal N(1,\sigma^2)) "
                  r"= \frac{2\alpha}{\sigma^2}",
        steps=(AtLeast(alpha / (2 * sigma**2), lambda: gaussian_rdp(alpha, 2),
                       "replacing a record moves the sum by up to 2C: the pair is two Gaussians 2 apart"),),
        expected=Verdict.REFUTED,
        domain=Domain({alpha: ABOVE_ONE, sigma: POSITIVE}),
        note="Unsafe: the accountant accepts GaussianDpEvent under REPLACE_ONE with no change of sensitivity; "
             "σ = 1, α = 2: it reports 1.0 where D₂ = 4.0 (its own PLD accountant uses the 2C shift). The same "
             "holds for LaplaceDpEvent (ε = 1/σ where the shift is 2/σ) and for the q = 1 branch of "
             "SampledWithoutReplacementDpEvent.",
    ),
    Claim(
        id="dpa-laplace-replace-one",
        title="dp_accounting under REPLACE_ONE: the Laplace event's RDP is that of half the shift (unsafe)",
        source=f"{FILE}::_laplace_rdp (ε = 1/σ) as RdpAccountant(REPLACE_ONE) uses it for LaplaceDpEvent; "
               "dp_event.py's convention ‖v_i‖₁ ≤ C",
        statement=r"D_\alpha(\mathrm{Lap}(0,\lambda)\|\mathrm{Lap}(1,\lambda)) \ge "
                  r"D_\alpha(\mathrm{Lap}(0,\lambda)\|\mathrm{Lap}(2,\lambda))",
        steps=(AtLeast(lambda: LAPLACE.subs(eps, 1 / lam),
                       lambda: rdpsym.laplace(scale=lam, sensitivity=2).rdp(alpha).result,
                       "replacing a record moves the sum by up to 2C in ℓ1: the pair is two Laplace laws 2 apart"),),
        expected=Verdict.REFUTED,
        domain=Domain({alpha: ABOVE_ONE, lam: POSITIVE}),
        note="Its PLD accountant refuses LaplaceDpEvent under REPLACE_ONE; the RDP accountant accepts it.",
    ),
    Claim(
        id="dpa-wor-gaussian-q1",
        title="dp_accounting: sampling without replacement at q = 1 returns α/(2σ²), a quarter of the truth (unsafe)",
        source=f"{FILE}::_compute_rdp_sample_wor_gaussian_scalar, branch q == 1 (SampledWithoutReplacementDpEvent, "
               "accepted under REPLACE_ONE only, of a GaussianDpEvent: ‖v_i‖ ≤ C)",
        statement=r"\frac{\alpha}{2\sigma^2} \ge D_\alpha(\mathcal N(-1,\sigma^2)\|\mathcal N(1,\sigma^2))",
        steps=(AtLeast(alpha / (2 * sigma**2), lambda: gaussian_rdp(alpha, 2),
                       "the whole data set is used: replacing a record moves the sum by up to 2C"),),
        expected=Verdict.REFUTED,
        domain=Domain({alpha: ABOVE_ONE, sigma: POSITIVE}),
        note="Right when σ is measured against the replace-one sensitivity (TensorFlow Privacy's docstring), not "
             "against GaussianDpEvent's C. Below q = 1 the same convention gives σ = 1, q = 0.5, α = 8: 3.309 "
             "where R = N(0), P = N(1), Q = N(−1) give 3.902 (claim dpa-wor-gaussian-event).",
    ),
    Claim(
        id="dpa-wor-gaussian-between",
        title="dp_accounting: sampling without replacement, σ against the replace-one sensitivity: the bound lies "
              "above certified pairs",
        source=f"{FILE}::_compute_rdp_sample_wor_gaussian_scalar, q < 1, integer and fractional orders "
               "(Wang–Balle–Kasiviswanathan 2019, Thm 27 and Cor 10)",
        statement=r"\max\left(D_\alpha(P_{1,0}\|Q_{1,0}),\,D_\alpha(P_{\frac12,-\frac12}\|Q_{\frac12,-\frac12})\right) "
                  r"\le \epsilon_{\mathrm{WBK}}(\alpha),\ P_{a,b} = (1-q)\mathcal N(0,\sigma^2) + q\mathcal N(a,\sigma^2)",
        steps=(Holds("the certified lower bound ≤ the peer's bound", _wor_above_lower,
                     "two actual pairs of the mechanism (one record replaced, in the batch with probability q)"),),
        expected=Verdict.CHECKED,
        domain=Domain(objects={"case": _wor_points}, samples=8, seed=71),
        hypotheses=(r"\text{fixed batches of } m = qn \text{ records, REPLACE\_ONE, } |a - b| \le 1",),
        note="No pair of laws is known to dominate sampling without replacement: the truth lies between these "
             "pairs' divergences (certified) and the bound. At q = 1/2, σ = 1, α = 8: Poisson pair 3.2089, "
             "±½ pair 0.9581, the bound 3.3090.",
    ),
    Claim(
        id="dpa-wor-gaussian-event",
        title="dp_accounting: sampling without replacement of a GaussianDpEvent (‖v_i‖ ≤ C) is below an actual "
              "pair (unsafe)",
        source=f"{FILE}::_compute_rdp_sample_wor_gaussian_scalar, q < 1 (SampledWithoutReplacementDpEvent of a "
               "GaussianDpEvent, σ = s/C)",
        statement=r"D_\alpha\big((1-q)\mathcal N(0,\sigma^2) + q\mathcal N(1,\sigma^2)\,\|\,(1-q)\mathcal N(0,"
                  r"\sigma^2) + q\mathcal N(-1,\sigma^2)\big) \le \epsilon_{\mathrm{WBK}}(\alpha)",
        steps=(Holds("D_α of the ±1 pair ≤ the peer's bound", _wor_event_convention,
                     "records v = C and v' = −C are both allowed by ‖v_i‖ ≤ C"),),
        expected=Verdict.REFUTED,
        domain=Domain(objects={"case": _wor_points}, samples=8, seed=71),
        note="The below-1 face of dpa-wor-gaussian-q1: the theorem's sensitivity is the replace-one one (2C), "
             "GaussianDpEvent's σ is against C. At q = 1/2, σ = 1, α = 8 the ±1 pair has D_8 = 3.902 > 3.309.",
    ),
    Claim(
        id="dpa-laplace",
        title="dp_accounting: the Laplace mechanism's RDP (orders ≥ 1.1 and KL) is exact",
        source=f"{FILE}::_laplace_rdp, branches order ≥ 1.1 and order == 1 (LaplaceDpEvent, ε = 1/σ)",
        statement=r"\epsilon+\frac{\log\left(1+(\alpha-1)\frac{e^{\epsilon(1-2\alpha)}-1}{2\alpha-1}\right)}{\alpha-1}"
                  r"=D_\alpha(\mathrm{Lap}(0,1/\epsilon)\|\mathrm{Lap}(1,1/\epsilon)),\quad "
                  r"\epsilon+e^{-\epsilon}-1 = D_1",
        steps=(Equal(lambda: LAPLACE.subs(eps, 1 / lam), laplace_rdp,
                     "rdpsym's derivation from the densities (Mironov's Prop 6), at ε = 1/λ"),
               Equal(lambda: LAPLACE_KL.subs(eps, 1 / lam), lambda: laplace_rdp(1), "the KL branch",
                     domain=Domain({lam: POSITIVE}))),
        expected=Verdict.PROVED,
        domain=Domain({alpha: ABOVE_ONE, lam: POSITIVE}),
    ),
    Claim(
        id="dpa-laplace-taylor",
        title="dp_accounting: the Laplace RDP's Taylor branch (1 < α < 1.1) is an upper bound, tight to 10⁻²⁰",
        source=f"{FILE}::_laplace_rdp, branch 1 < order < 1.1 (99 terms of log(1 + cx)/x)",
        statement=r"D_\alpha \le \epsilon + c\sum_{k=1}^{99}\frac{v^{k-1}}{k},\ "
                  r"c=\frac{e^{\epsilon(1-2\alpha)}-1}{2\alpha-1},\ v=-c(\alpha-1)",
        steps=(AtMost(sp.exp(eps * (1 - 2 * alpha)) - 1, 0,
                      "c ≤ 0 ≤ v: every dropped term c·v^{k−1}/k of log(1 + cx)/x is ≤ 0, so truncating raises "
                      "the sum (the bound's direction)"),
               Holds("|the 99-term series − D_α(Lap(0, 1/ε) ‖ Lap(1, 1/ε))| ≤ 10⁻²⁰·D_α", _laplace_taylor_close,
                     "Arb balls of the series and of rdpsym's derived form (Prop 6) at 400 bits",
                     domain=Domain({alpha: sp.Interval.open(1, sp.Rational(11, 10)), eps: sp.Interval.Lopen(0, 20)},
                                   samples=30, seed=62))),
        expected=Verdict.CHECKED,
        domain=Domain({alpha: sp.Interval.open(1, sp.Rational(11, 10)), eps: sp.Interval.Lopen(0, 100)}),
        note="Where v < 0.1 the dropped tail is below 0.1⁹⁹ of c: the bound is the exact value for every purpose.",
    ),
    integer_claim("dpa-sampled-gaussian-integer", "dp_accounting",
                  f"{FILE}::_compute_log_a_int (PoissonSampledDpEvent of a GaussianDpEvent)"),
    *fractional_claims(
        "dpa", "dp_accounting",
        f"{FILE}::_compute_log_a_frac (every term added with |C(α, i)|; stop rule total·e^{{−30}}; ∞ after 1000 "
        "terms)", "dp_accounting",
        "Usually above the truth, because the negative coefficients (i ≥ ⌊α⌋ + 2) are added: q = 0.01, σ = 2.5, "
        "α = 1.5 gives 1.3411·10⁻⁵ against the exact 1.3001·10⁻⁵ (+3.2 %; its own test pins 50·ε = "
        "6.70579741·10⁻⁴ where TensorFlow Privacy's pins 6.5007·10⁻⁴). Where the first negative coefficient comes "
        "late the dropped tail wins: q = 10⁻³, σ = 4, α = 10.1 gives 3.2587075034·10⁻⁷ while D_α is 5·10⁻²⁰ "
        "larger (1.7·10⁻¹³ relative: far below any use, far above float64 rounding)."),
    Claim(
        id="dpa-rr-replace-special",
        title="dp_accounting: k-ary randomized response against the special record is exact",
        source=f"{FILE}::_randomized_response_rdp_replace_special (RandomizedResponseDpEvent, REPLACE_SPECIAL)",
        statement=r"\max\{D_\alpha(RR_k\|U_k), D_\alpha(U_k\|RR_k)\} = \frac{\max_{x\in\{\alpha,1-\alpha\}}"
                  r"\log\left(\frac{(k(1-p)+p)^x}{k}+\frac{(k-1)p^x}{k}\right)}{\alpha-1}",
        steps=(Holds("|dp_accounting − max of the two directions| ≤ 10⁻⁴⁰(1 + D)",
                     _rr_agrees("special", (RR_SPECIAL, RR_SPECIAL_INF), True),
                     "rdpsym's finite-law divergence (Arb balls) of RR_k's output on the true value against the "
                     "uniform output on the special record; order ∞ included"),),
        expected=Verdict.CHECKED,
        domain=RR_DOMAIN,
    ),
    Claim(
        id="dpa-rr-replace-one",
        title="dp_accounting: k-ary randomized response under replace-one is exact",
        source=f"{FILE}::_randomized_response_rdp_replace_one (RandomizedResponseDpEvent, REPLACE_ONE)",
        statement=r"D_\alpha(RR_k(0)\|RR_k(1)) = \frac{\log\left(\frac pk e^{\alpha L}+(1-p+\frac pk)e^{-\alpha L}"
                  r"+(1-\frac2k)p\right)}{\alpha-1},\ L=\log\left(\frac kp-k+1\right)",
        steps=(Holds("|dp_accounting − D_α(RR_k(0) ‖ RR_k(1))| ≤ 10⁻⁴⁰(1 + D)",
                     _rr_agrees("replace-one", (RR_ONE, RR_ONE_INF), False),
                     "rdpsym's finite-law divergence (Arb balls); the pair is symmetric, one direction suffices"),),
        expected=Verdict.CHECKED,
        domain=RR_DOMAIN,
    ),
    Claim(
        id="dpa-tree-aggregation",
        title="dp_accounting: single-epoch tree aggregation is a Gaussian mechanism of sensitivity √D",
        source=f"{FILE}::_compute_rdp_single_epoch_tree_aggregation (D = ⌈log₂(n + 1)⌉, REPLACE_SPECIAL)",
        statement=r"\frac{\alpha D}{2\sigma^2} = D_\alpha(\mathcal N(0,\sigma^2)\|\mathcal N(\sqrt D,\sigma^2))",
        steps=(Equal(alpha * depth / (2 * sigma**2), lambda: gaussian_rdp(alpha, sp.sqrt(depth)),
                     "each record is in at most D nodes, one per level: its ℓ2 sensitivity is √D"),),
        expected=Verdict.PROVED,
        domain=Domain({alpha: ABOVE_ONE, sigma: POSITIVE, depth: sp.Interval(1, 64)}),
    ),
    Claim(
        id="dpa-compute-epsilon",
        title="dp_accounting: compute_epsilon's per-order conversion is Balle et al.'s Theorem 21",
        source=f"{FILE}::compute_epsilon, branch α > 1.01 (the TV branch is claim tv-kl-conversion)",
        statement=r"r+\log\left(1-\frac1\alpha\right)-\frac{\log(\delta\alpha)}{\alpha-1} = "
                  r"r+\log\frac{\alpha-1}{\alpha}-\frac{\log\delta+\log\alpha}{\alpha-1}",
        steps=(Equal(EPSILON, rdp + sp.log((alpha - 1) / alpha) - (sp.log(delta) + sp.log(alpha)) / (alpha - 1),
                     "the two logarithms expanded; Theorem 21's validity is claim balle-conversion"),),
        expected=Verdict.PROVED,
        domain=Domain({alpha: ABOVE_ONE, rdp: POSITIVE, delta: UNIT}),
        note="A numerically negative RDP at any order makes compute_epsilon return ε = 0 for the whole curve "
             "(its r < 0 branch), a silent answer rdpsym refuses.",
    ),
]
