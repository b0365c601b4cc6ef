"""Notes (seed 003): RDP and the moments accountant.

Seed file /work/shared/seeds/003_99d63cfe81f5c671.txt, "RDP and Moments
Accountant", l.225–259: the conversions ε(δ), δ(ε) (l.229–234), the log-moment
α_M(λ) as a change of measure (l.246–253), and "moment bound α_M(λ) ⟺
(λ+1, α_M(λ)/λ)-RDP" (l.255–259).
"""

import sympy as sp
from flint import arb

import rdpsym
from rdpsym.accounting.conversions import gaussian_delta
from rdpsym.claims import Claim, Domain, Equal, Holds, Verdict, alpha
from rdpsym.claims.finite import all_events, ball, mass, random_pmfs, rational

from ._seeds_util import POSITIVE, UNIT, delta, eps, lam, sigma

SOURCE = "Notes (seed 003, 003_99d63cfe81f5c671.txt), 'RDP and Moments Accountant'"

a, b, c, d = sp.symbols("a b c d", positive=True)   # P = (a, c), Q = (b, d): any positive masses
A = sp.Symbol("A", positive=True)                   # a log-moment value α_M(λ)
r = sp.Symbol("r", positive=True)                   # an RDP value

_under_P = sp.log(a * (a / b) ** lam + c * (c / d) ** lam)                         # log E_{M(D)}[(P/Q)^λ]
_under_Q = sp.log(b * (a / b) ** (lam + 1) + d * (c / d) ** (lam + 1))             # log E_{M(D')}[(P/Q)^{λ+1}]
_renyi = 1 / ((lam + 1) - 1) * sp.log(a ** (lam + 1) * b ** (-lam) + c ** (lam + 1) * d ** (-lam))  # D_{λ+1}

_eps_of_delta = (sp.log(1 / delta) + A) / lam
_delta_of_eps = sp.exp(A - lam * eps)


def _gaussian_moment():
    # α_M(λ) = λ·D_{λ+1} for the Gaussian mechanism (sensitivity 1), from the core's derivation
    return lam * rdpsym.gaussian(sigma=sigma).rdp(alpha).result.subs(alpha, lam + 1)


def _moment(point) -> arb:
    s, l = ball(point[sigma]), ball(point[lam])
    return l * (l + 1) / (2 * s * s)


def _gaussian_delta_bound(point):
    return (gaussian_delta(rational(point[eps]), rational(point[sigma])), "<=",
            (_moment(point) - ball(point[lam]) * ball(point[eps])).exp())


def _gaussian_eps_bound(point):
    e = ((1 / ball(point[delta])).log() + _moment(point)) / ball(point[lam])
    return gaussian_delta(e, rational(point[sigma])), "<=", ball(point[delta])


def _finite_bound(point):
    # every event: P(S) − e^ε Q(S) ≤ exp(α_M(λ) − λε), with α_M(λ) = log Σ P^{λ+1} Q^{−λ} of the pair
    P, Q = point["laws"]
    l, e = ball(point[lam]), ball(point[eps])
    moment = sum(((l + 1) * arb(x).log() - l * arb(y).log()).exp() for x, y in zip(P, Q))
    worst = max((arb(mass(P, S)) - e.exp() * arb(mass(Q, S)) for S in all_events(len(P), nonempty=True)),
                key=lambda v: v.mid())
    return worst, "<=", moment * (-(l * e)).exp()


CLAIMS = [
    Claim(
        id="notes-moments-accountant-identities",
        title="α_M(λ) by change of measure, α_M(λ) = λ·D_{λ+1}, and ε(δ), δ(ε) as Prop 3 at α = λ + 1",
        source=SOURCE + ", l.229–234 and l.246–259",
        statement=r"\alpha_\mathcal{M}(\lambda) = \log \mathrm{E}_{\mathcal{M}(D)}\Big[\Big(\tfrac{\mathcal{M}(D)}"
                  r"{\mathcal{M}(D')}\Big)^{\lambda}\Big] = \log \mathrm{E}_{\mathcal{M}(D')}\Big[\Big(\tfrac{\mathcal{M}(D)}"
                  r"{\mathcal{M}(D')}\Big)^{\lambda+1}\Big];\ \alpha_\mathcal{M}(\lambda) \Leftrightarrow "
                  r"\Big(\lambda+1, \tfrac{\alpha_\mathcal{M}(\lambda)}{\lambda}\Big)\text{-RDP}",
        steps=(
            Equal(_under_P, _under_Q, "change of measure: P·(P/Q)^λ = Q·(P/Q)^{λ+1}, outcome by outcome",
                  domain=Domain({lam: POSITIVE, a: POSITIVE, b: POSITIVE, c: POSITIVE, d: POSITIVE}, samples=30)),
            Equal(_under_P, lam * _renyi, "α_M(λ) = λ·D_{λ+1}(P‖Q): a bound A on α_M is the bound A/λ on D_{λ+1}",
                  domain=Domain({lam: POSITIVE, a: POSITIVE, b: POSITIVE, c: POSITIVE, d: POSITIVE}, samples=30)),
            Equal(_eps_of_delta.subs(A, lam * r), r + sp.log(1 / delta) / ((lam + 1) - 1),
                  "ε(δ) at one λ is Mironov's Prop 3 for (λ+1, r)-RDP with r = α_M(λ)/λ",
                  domain=Domain({lam: POSITIVE, r: POSITIVE, delta: UNIT}, samples=30)),
            Equal(((sp.log(1 / _delta_of_eps) + A) / lam), eps,
                  "δ(ε) = exp(α_M(λ) − λε) solves ε(δ) = ε: the two conversions are inverse",
                  domain=Domain({lam: POSITIVE, A: POSITIVE, eps: POSITIVE}, samples=30)),
        ),
        expected=Verdict.PROVED,
        domain=Domain(),
        note="Identities, proved on two-point laws with arbitrary positive masses (the change of measure is pointwise, "
             "so it holds for any pair with P ≪ Q). 'min over λ' is read as the infimum over λ > 0 (or over a "
             "grid): each λ gives a valid bound (next claim).",
    ),
    Claim(
        id="notes-moments-accountant-conversions",
        title="The moments accountant's ε(δ) and δ(ε) are valid (ε, δ)-DP guarantees",
        source=SOURCE + ", l.229–234",
        statement=r"\epsilon(\delta)= \min_{\lambda}\frac{\log(1/\delta)+\alpha_\mathcal{M}(\lambda)}{\lambda},\quad "
                  r"\delta(\epsilon) =\min_{\lambda}\exp \left(\alpha_\mathcal{M}(\lambda)-\lambda\epsilon\right)",
        steps=(
            Equal(_gaussian_moment, lam * (lam + 1) / (2 * sigma**2),
                  "Gaussian mechanism: α_M(λ) = λ(λ+1)/(2σ²) (core derivation of D_{λ+1})",
                  domain=Domain({lam: POSITIVE, sigma: POSITIVE}, samples=30)),
            Holds("Gaussian: δ_BW(ε) ≤ exp(α_M(λ) − λε)", _gaussian_delta_bound,
                  "exact Gaussian curve (Balle–Wang 2018) against the tail bound at every λ",
                  domain=Domain({eps: POSITIVE, sigma: POSITIVE, lam: POSITIVE}, samples=50)),
            Holds("Gaussian: δ_BW(ε(δ)) ≤ δ with ε(δ) = (log(1/δ) + α_M(λ))/λ", _gaussian_eps_bound,
                  "exact Gaussian curve at the accountant's ε, every λ",
                  domain=Domain({delta: UNIT, sigma: POSITIVE, lam: POSITIVE}, samples=50)),
            Holds("finite laws, every event: P(S) − e^ε Q(S) ≤ exp(α_M(λ) − λε)", _finite_bound,
                  "P(S) − e^ε Q(S) ≤ Pr_P[L > ε] ≤ E_P[e^{λL}] e^{−λε} (Markov)",
                  domain=Domain({eps: POSITIVE, lam: POSITIVE}, objects={"laws": random_pmfs(2)}, samples=50)),
        ),
        expected=Verdict.CHECKED,
        domain=Domain(),
        note="Each λ > 0 gives a valid bound, hence so does the minimum. Checked against the exact Gaussian curve "
             "and on random finite laws over all events (λ from 10⁻³⁰ to 10¹²): CHECKED.",
    ),
]
