"""Lecture deck (seed 001): the Laplace mechanism and the exponential mechanism are ε-DP.

Seed file /work/shared/seeds/001_d49504efe0d286ae.txt, slides "The Laplace
mechanism" (l.155–177) and "The exponential mechanism" (l.206–212); the Laplace
claim is repeated in seed 002 l.44–50, seed 003 l.33–39 and seed 004 l.13.
"""

import random

import sympy as sp
from flint import arb, fmpq

import rdpsym
from rdpsym.claims import Claim, Domain, Equal, Holds, Verdict, symbolic
from rdpsym.claims.finite import rational

from ._seeds_util import POSITIVE, Delta, eps

t_shift = sp.Symbol("t", positive=True)  # the shift |f(x) − f(x')| as a fraction of Δ₁f
y = sp.Symbol("y", real=True)

SOURCE_LAPLACE = ("Lecture deck (seed 001, 001_d49504efe0d286ae.txt), slide 'The Laplace mechanism', l.155–177; "
                  "also seed 002 l.44–50, seed 003 l.33–39, seed 004 l.13")
SOURCE_EXP = "Lecture deck (seed 001, 001_d49504efe0d286ae.txt), slide 'The exponential mechanism', l.206–212"


def _laplace_dinf(shift):
    return lambda: rdpsym.laplace(scale=Delta / eps, sensitivity=shift).rdp(sp.oo).result


# ----------------------------------------------------------------------------- Laplace in R^d

def _vectors(rng: random.Random, i: int):
    """(f(x), f(x'), r) in Q^d with ‖f(x) − f(x')‖₁ ≤ Δ = 1; the first ones tight (= Δ),
    r beyond both outputs in every coordinate (where the loss reaches ε)."""
    d = 1 + i % 6
    a = [fmpq(rng.randint(-2**20, 2**20), 2**16) for _ in range(d)]
    w = [fmpq(rng.randint(1, 2**20)) for _ in range(d)]
    total = sum(w, fmpq(0))
    scale = fmpq(1) if i < 12 else fmpq(rng.randint(1, 2**20), 2**20)  # ‖a − b‖₁ = scale ≤ 1
    sign = [1 if rng.random() < 0.5 else -1 for _ in range(d)]
    b = [a[j] + sign[j] * scale * w[j] / total for j in range(d)]
    if i % 2 == 0:   # r on the far side of both: |b − r| − |a − r| = |a − b| in each coordinate
        r = [a[j] - 5 if b[j] > a[j] else a[j] + 5 for j in range(d)]
    else:
        r = [fmpq(rng.randint(-2**20, 2**20), 2**16) for _ in range(d)]
    return tuple(a), tuple(b), tuple(r)


def _loss_bound(point):
    # λ(x‖x') = ε(‖f(x') − r‖₁ − ‖f(x) − r‖₁)/Δ₁f ≤ ε  ⟺  ‖f(x') − r‖₁ − ‖f(x) − r‖₁ ≤ Δ₁f (= 1 here):
    # exact rationals, so the tight cases (equality) are decided too.
    a, b, r = point["outputs"]
    gain = sum((abs(bj - rj) - abs(aj - rj) for aj, bj, rj in zip(a, b, r)), fmpq(0))
    return arb(gain - 1), "<=", arb(0)


# ----------------------------------------------------------------------------- exponential mechanism

def _utilities(rng: random.Random, i: int):
    """(u(x,·), u(x',·)) on 2–6 outcomes with max_r |u(x,r) − u(x',r)| = Δu = 1 exactly.

    The first ones are the extremal pattern of the proof (u' = u + Δ except at one r,
    where u' = u − Δ, and that r has the smallest utility), then random patterns."""
    m = 2 + i % 5
    u = [fmpq(rng.randint(-5 * 2**16, 5 * 2**16), 2**16) for _ in range(m)]
    if i < 10:
        r0 = min(range(m), key=lambda j: u[j])
        d = [fmpq(-1) if j == r0 else fmpq(1) for j in range(m)]
    else:
        d = [fmpq(rng.randint(-2**16, 2**16), 2**16) for _ in range(m)]
        d[rng.randrange(m)] = fmpq(1) if rng.random() < 0.5 else fmpq(-1)  # the sensitivity is attained
    return tuple(u), tuple(uj + dj for uj, dj in zip(u, d))


def _slack(u, v, e: arb) -> arb:
    """min_r [ε − log(p_u(r)/p_v(r))] for p_u(r) ∝ exp(ε u(r)/2), p_v ∝ exp(ε v(r)/2), Δu = 1.

    Written as a sum of terms of known sign, so that the ball stays tight even where the
    slack is e^{−10¹²}:  with d_r = u(r) − v(r) ∈ [−1, 1] and w_s = p_u(s),
        ε − log(p_u(r)/p_v(r)) = ε(1 − d_r)/2 − log1p(−S),
        S = Σ_s w_s·(−expm1(ε(−d_s − 1)/2)) ∈ [0, 1),  1 − S = Σ_s w_s·exp(ε(−d_s − 1)/2).
    """
    top = max(u)
    logits = [e * arb(uj - top) / 2 for uj in u]
    weights = [x.exp() for x in logits]
    total = sum(weights, arb(0))
    xs = [e * arb(vj - uj - 1) / 2 for uj, vj in zip(u, v)]   # each ≤ 0
    s = sum((w * -(x.expm1()) for w, x in zip(weights, xs)), arb(0)) / total           # S
    rest = sum((w * x.exp() for w, x in zip(weights, xs)), arb(0)) / total             # 1 − S
    # −log(1 − S), from whichever of S and 1 − S is the small one (both are sums of positive terms)
    tail = -((-s).log1p()) if s < 0.5 else -(rest.log())
    return min((e * arb(1 - (uj - vj)) / 2 + tail for uj, vj in zip(u, v)), key=lambda b: b.mid())


def _expmech(point):
    u, v = point["utilities"]
    e = arb(rational(point[eps]))
    # both directions of the loss: |log p_x(r)/p_x'(r)| ≤ ε
    lo = _slack(u, v, e)
    hi = _slack(v, u, e)
    worst = lo if lo.mid() < hi.mid() else hi
    return worst, ">=", 0


CLAIMS = [
    Claim(
        id="lecture-laplace-dp",
        title="The Laplace mechanism with scale Δ₁f/ε is ε-DP",
        source=SOURCE_LAPLACE,
        statement=r"\phi(x) = f(x) + \nu,\ \nu \sim \mathrm{Lap}\!\left(\frac{\Delta_1 f}{\varepsilon}\right)"
                  r"\ \text{is } \varepsilon\text{-DP: } \lambda(x\|x') \le \frac{\varepsilon\|f(x')-f(x)\|_1}"
                  r"{\Delta_1 f} \le \varepsilon",
        steps=(
            Equal(_laplace_dinf(Delta), eps,
                  "core derivation: D_∞(Λ(0, Δ/ε) ‖ Λ(Δ, Δ/ε)) = sup of the log-ratio, piece by piece"),
            Equal(_laplace_dinf(t_shift * Delta), t_shift * eps,
                  "core derivation for a smaller shift tΔ (t ≤ 1): the loss bound ε‖f(x')−f(x)‖₁/Δ₁f",
                  domain=Domain({eps: POSITIVE, Delta: POSITIVE, t_shift: sp.Interval.Lopen(0, 1)}, samples=40)),
        ),
        expected=Verdict.PROVED,
        domain=Domain({eps: POSITIVE, Delta: POSITIVE}, samples=40),
        note="For f with values in R: the core derives D_∞ of the worst-case pair Λ(0, Δ₁f/ε) vs Λ(Δ₁f, Δ₁f/ε) "
             "from the densities and it simplifies to ε; a smaller shift tΔ₁f gives tε ≤ ε. The R^d case (the "
             "slide's proof) is the next claim.",
    ),
    Claim(
        id="lecture-laplace-dp-rd",
        title="Laplace mechanism in R^d: the slide's proof step λ(x‖x') ≤ ε‖f(x')−f(x)‖₁/Δ₁f ≤ ε",
        source=SOURCE_LAPLACE,
        statement=r"\lambda(x\|x') = \frac{\varepsilon\|f(x')-r\|_1}{\Delta_1 f} - \frac{\varepsilon\|f(x)-r\|_1}"
                  r"{\Delta_1 f} \le \frac{\varepsilon\|f(x')-f(x)\|_1}{\Delta_1 f} \le \varepsilon",
        steps=(
            Holds("‖f(x')−r‖₁ − ‖f(x)−r‖₁ ≤ Δ₁f (so λ(x‖x') ≤ ε) in R^d", _loss_bound,
                  "triangle inequality coordinate by coordinate (the slide's proof, l.177), d = 1..6"),
        ),
        expected=Verdict.CHECKED,
        domain=Domain(objects={"outputs": _vectors}, samples=60),
        note="Checked in exact rationals (Δ₁f = 1 by scaling; ε cancels) on random vectors in dimension 1 to 6, "
             "half of them with ‖f(x)−f(x')‖₁ = Δ₁f and r placed where the loss equals ε exactly (decided: exact "
             "arithmetic). The triangle inequality itself is not formalised: CHECKED.",
    ),
    Claim(
        id="lecture-expmech",
        title="The exponential mechanism p(r) ∝ exp(εu(x,r)/(2Δu)) is ε-DP",
        source=SOURCE_EXP,
        statement=r"p(r) \propto \exp\left(\frac{\epsilon u(x, r)}{2 \max_r \Delta_1 u(\cdot, r)}\right)"
                  r"\ \text{is } \epsilon\text{-DP}",
        steps=(
            Holds("|log p_x(r)/p_x'(r)| ≤ ε for every outcome r", _expmech,
                  "the numerator moves by at most ε/2 and the normaliser by at most ε/2 (McSherry–Talwar)"),
        ),
        expected=Verdict.CHECKED,
        domain=Domain({eps: POSITIVE}, objects={"utilities": _utilities}, samples=80),
        note="Checked on random finite utility vectors with neighbouring utilities at sensitivity exactly Δu = 1 "
             "(the mechanism depends on u/Δu only), ε from 10⁻³⁰ to 10¹², including the extremal pattern where "
             "the loss tends to ε. The slack ε − |loss| is computed as a sum of terms of known sign so the balls "
             "decide it even when it is e^{−10¹²}. A general 'for all utilities' is not formalised: CHECKED.",
    ),
    Claim(
        id="lecture-expmech-laplace-special-case",
        title="'The Laplace mechanism is a special case' of the exponential mechanism (at scale 2Δ/ε)",
        source=SOURCE_EXP,
        statement=r"u(x,r) = -|f(x)-r|:\ p(r) \propto e^{-\epsilon|f(x)-r|/(2\Delta f)} = "
                  r"\mathrm{Lap}(f(x), 2\Delta f/\epsilon),\ D_\infty = \epsilon/2",
        steps=(
            Equal(lambda: 2 * symbolic.integrate(sp.exp(-eps * y / (2 * Delta)), (y, 0, sp.oo)), 4 * Delta / eps,
                  "normaliser of exp(−ε|y|/(2Δ)): the density is Laplace with scale b = 2Δ/ε (1/(2b) = ε/(4Δ))"),
            Equal(lambda: rdpsym.laplace(scale=2 * Delta / eps, sensitivity=Delta).rdp(sp.oo).result, eps / 2,
                  "core derivation: the Laplace mechanism of scale 2Δ/ε is ε/2-DP"),
        ),
        expected=Verdict.PROVED,
        domain=Domain({eps: POSITIVE, Delta: POSITIVE}, samples=40),
        note="True with a factor 2: the utility u = −|f(x) − r| has Δu = Δf, and the exponential mechanism then adds "
             "Laplace noise of scale 2Δf/ε, i.e. the l.159 Laplace mechanism run at privacy ε/2 (it is ε/2-DP). The "
             "Laplace mechanism of l.159 (scale Δf/ε) is the exponential mechanism run at 2ε. (Survey entry "
             "lecture-expmech.)",
    ),
]
