"""OpenDP 0.16 (main after v0.15.1, VERSION 0.15.1-dev): the privacy maps of its noise mechanisms, read from
``rust/src/measurements/`` (OpenDP is Rust; its maps are stated for exact rationals and round up).

OpenDP has no RDP curve of its own: its maps give D_∞ (``MaxDivergence``), ρ (``ZeroConcentratedDivergence``,
D_α ≤ ρα for α > 1 only) or (ε, δ).  Noise is on the integers (floats are rescaled to a lattice first).
"""

import sympy as sp
from flint import arb, fmpq

import rdpsym
from rdpsym.claims import AtLeast, Claim, Domain, Equal, Holds, Verdict, symbolic
from rdpsym.claims.finite import renyi

from ._atlas import POSITIVE, discrete_gaussian_rdp, p, rr_rdp

FILE = "OpenDP 0.16 rust/src/measurements"
s = sp.Symbol("s", positive=True)
d = sp.Symbol("d", positive=True, integer=True)
x = sp.Symbol("x", integer=True)

#: The noise-threshold map's δ for one key at distance d = T − l∞ from the threshold, discrete Laplace noise.
THRESHOLD_DELTA = sp.Min(sp.exp(-d / s) / (1 + sp.exp(1 / s)), sp.exp(-d / s) / 2)
#: The discrete Laplace law's pmf.
DISCRETE_LAPLACE = sp.exp(-sp.Abs(x) / s) * (1 - sp.exp(-1 / s)) / (1 + sp.exp(-1 / s))

PEER_FORMULAS = {
    "noise/distribution/laplace: ZExpFamily<1> → MaxDivergence": 1 / s,
    "noise/distribution/gaussian: ZExpFamily<2> → zCDP": 1 / (2 * s**2),
    "randomized_response (bool)": sp.log(p / (1 - p)),
    "noise_threshold/distribution/laplace δ": THRESHOLD_DELTA,
}


def _discrete_laplace_inf():
    return rdpsym.discrete_laplace(scale=s).rdp(sp.oo).result


def _tail():
    """P[Z ≥ d] for Z discrete Laplace: the released key's probability (kept when c + Z ≥ T)."""
    return symbolic.simplify(symbolic.summation(DISCRETE_LAPLACE.subs(sp.Abs(x), x), (x, d, sp.oo)))


def _categorical_cases(rng, i):
    """(p, t): p ≥ 1/t, t categories; edges first."""
    edges = [(fmpq(1, 2), 2), (fmpq(3, 4), 4), (fmpq(999_999, 10**6), 3), (fmpq(1, 5) + fmpq(1, 10**9), 5)]
    if i < len(edges):
        return edges[i]
    tt = rng.randint(2, 50)
    return fmpq(1, tt) + (1 - fmpq(1, tt)) * fmpq(rng.randint(1, 999), 1000), tt


def _categorical(point):
    """|OpenDP's ε − D_∞| for categorical RR (truth w.p. p, else uniform over the t − 1 others)."""
    pp, tt = point["case"]
    other = (1 - pp) / (tt - 1)
    P = (pp, other) + (other,) * (tt - 2)
    Q = (other, pp) + (other,) * (tt - 2)
    peer = (arb(pp) * (tt - 1) / arb(1 - pp)).log()
    truth = max(renyi(P, Q, sp.oo), renyi(Q, P, sp.oo), key=lambda b: b.mid())
    return abs(peer - truth), "<=", arb(10) ** -30


def _gaussian_cases(rng, i):
    # Scales up to 1: beyond, the gap to ρα is e^{−2π²s²}-small (10⁻³⁵ at s = 2) and 50 digits cannot see it.
    # Fractional orders: at an integer order the shifted θ-sum is the centred one and D_α = ρα exactly.
    return [(fmpq(1, 2), fmpq(5, 2)), (fmpq(4, 5), fmpq(3, 2)), (fmpq(1), fmpq(9, 2)), (fmpq(1, 3), fmpq(11, 10)),
            (fmpq(3, 5), fmpq(41, 2))][i % 5]


def _gaussian_zcdp(point):
    """D_α(N_Z(0, s²) ‖ N_Z(1, s²)) (rdpsym's θ-sums at 50 digits) ≤ ρα, ρ = 1/(2s²)."""
    ss, a = point["case"]
    return discrete_gaussian_rdp(ss, a), "<=", arb(a) / (2 * arb(ss) ** 2)


CLAIMS = [
    Claim(
        id="opendp-discrete-laplace",
        title="OpenDP: the discrete Laplace map ε = d_in/scale is the exact D_∞",
        source=f"{FILE}/noise/distribution/laplace/mod.rs: NoisePrivacyMap<L1Distance, MaxDivergence> for "
               "ZExpFamily<1> (d_in = 1)",
        statement=r"\frac1s = D_\infty(\mathcal L_{\mathbb Z}(0,s)\|\mathcal L_{\mathbb Z}(1,s))",
        steps=(Equal(1 / s, _discrete_laplace_inf, "rdpsym's derivation: the sup of the log-ratio over the integers"),),
        expected=Verdict.PROVED,
        domain=Domain({s: POSITIVE}),
        note="For d_in > 1 the map is d_in/s, the same derivation with the shift d_in.",
    ),
    Claim(
        id="opendp-discrete-gaussian-zcdp",
        title="OpenDP: the discrete Gaussian's ρ = (d_in/scale)²/2 bounds its RDP above order 1",
        source=f"{FILE}/noise/distribution/gaussian/mod.rs: NoisePrivacyMap<L2Distance, ZeroConcentratedDivergence> "
               "for ZExpFamily<2> (d_in = 1)",
        statement=r"D_\alpha(\mathcal N_{\mathbb Z}(0,s^2)\|\mathcal N_{\mathbb Z}(1,s^2))\le\frac{\alpha}{2s^2},"
                  r"\ \alpha>1",
        steps=(Holds("D_α(N_Z(0, s²) ‖ N_Z(1, s²)) ≤ α/(2s²)", _gaussian_zcdp,
                     "Canonne–Kamath–Steinke 2020: the shifted θ-sum is at most the centred one"),),
        expected=Verdict.CHECKED,
        domain=Domain(objects={"case": _gaussian_cases}, samples=5, seed=81),
        note="Equality at every integer order (the shift by α is a period of the θ-sum); OpenDP states zCDP for "
             "α > 1 only, where it holds (autodp-zcdp-below-one: below 1 it does not).",
    ),
    Claim(
        id="opendp-randomized-response",
        title="OpenDP: randomized response's ε = log(p/(1 − p)) is the exact D_∞",
        source=f"{FILE}/randomized_response/mod.rs: make_randomized_response_bool (p ∈ [1/2, 1))",
        statement=r"\log\frac p{1-p} = D_\infty((p,1-p)\|(1-p,p))",
        steps=(Equal(sp.log(p / (1 - p)), lambda: rr_rdp(sp.oo), "rdpsym's derivation at order ∞"),),
        expected=Verdict.PROVED,
        domain=Domain({p: sp.Interval.Ropen(sp.Rational(1, 2), 1)}),
    ),
    Claim(
        id="opendp-randomized-response-categorical",
        title="OpenDP: categorical randomized response's ε = log(p(t − 1)/(1 − p)) is the exact D_∞",
        source=f"{FILE}/randomized_response/mod.rs: make_randomized_response (p ∈ [1/t, 1))",
        statement=r"\log\frac{p(t-1)}{1-p} = D_\infty(RR_t(0)\|RR_t(1))",
        steps=(Holds("|OpenDP's ε − D_∞ of the two output laws| ≤ 10⁻³⁰", _categorical,
                     "rdpsym's finite-law D_∞, both directions"),),
        expected=Verdict.CHECKED,
        domain=Domain(objects={"case": _categorical_cases}, samples=30, seed=82),
    ),
    Claim(
        id="opendp-threshold-delta",
        title="OpenDP: the noise threshold's δ is the tail one step too far (unsafe; issue opendp#2922)",
        source=f"{FILE}/noise_threshold/distribution/laplace/mod.rs (δ for one key at d = T − l∞; keys are kept "
               "when c + Z ≥ T, noise_threshold/mod.rs)",
        statement=r"\min\left(\frac{e^{-d/s}}{1+e^{1/s}},\frac{e^{-d/s}}2\right)\ge P[Z\ge d]=\frac{e^{-d/s}}{1+e^{-1/s}}",
        steps=(Equal(_tail, sp.exp(-d / s) / (1 + sp.exp(-1 / s)), "the discrete Laplace tail, a geometric sum"),
               AtLeast(THRESHOLD_DELTA, sp.exp(-d / s) / (1 + sp.exp(-1 / s)),
                       "a key at count l∞ is released when Z ≥ T − l∞; the map bounds P[Z > T − l∞]")),
        expected=Verdict.REFUTED,
        domain=Domain({s: POSITIVE, d: sp.Range(1, 101)}),
        note="s = 1, T = 10, l∞ = 1: OpenDP's test pins δ = 3.319·10⁻⁵, the release probability is 9.022·10⁻⁵ "
             "(×e^{1/s}). The discrete Gaussian's threshold map has the same off-by-one.",
    ),
]
