# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 6 · Your own mechanism, and your own claim
#
# `rdpsym` is not limited to the paper's three mechanisms: give it the output densities of *your*
# mechanism on two adjacent inputs and it derives $D_\alpha$ (Definition 3) in closed form, with its
# convergence conditions and the evidence that it is right. And a statement you believe about it can
# be written as a `Claim` and checked the way `proofs/` checks the paper: proved by SymPy, checked in
# certified arithmetic at adversarial points, or **refuted** with a counterexample.

# %%
# %matplotlib inline
import mpmath
import sympy as sp
from IPython.display import Math, display

import rdpsym
from rdpsym import paper_latex, plots
from rdpsym.claims import Claim, Domain, Equal, Verdict, alpha, runner
from rdpsym.render.claims import why_not_proved

# %% [markdown]
# ## A discrete mechanism from its pmf: the geometric mechanism
#
# Add two-sided geometric noise, $\Pr[Z = k] = \frac{1-r}{1+r}\,r^{|k|}$ on the integers, to a count of
# sensitivity 1. Adjacent inputs give the noise law and its shift by one. `rdpsym.Discrete` takes a pmf
# in an integer symbol with its support (here infinite) and checks that it sums to 1.

# %%
k = sp.Symbol("k", integer=True)
r = sp.Symbol("r", positive=True)


def geometric(shift):
    return rdpsym.Discrete((1 - r) / (1 + r) * r ** sp.Abs(k - shift), k, support=sp.Range(-sp.oo, sp.oo))


G0, G1 = geometric(0), geometric(1)
for order in (alpha, sp.oo):
    d = rdpsym.renyi_divergence(G0, G1, order)
    display(Math(rf"D_{{{sp.latex(order)}}} = {paper_latex(d.result)}\qquad\text{{[{d.status}]}}"))

# %% [markdown]
# The condition $\log r < 0$ is the series' convergence condition; it holds for every $0 < r < 1$
# (SymPy only knows $r > 0$). $D_\infty = |\log r|$: the geometric mechanism is $\log(1/r)$-DP.
# The closed form was *checked*: here is its evidence, and a 30-digit cross-check against the definition
# summed directly by `renyi_divergence_mp`:

# %%
d = rdpsym.renyi_divergence(G0, G1, alpha)
print(*d.evidence, sep="\n")
half = sp.Rational(1, 2)
print("closed form, r = 1/2, α = 3:", mpmath.nstr(d.evalf({r: half, alpha: 3}, dps=30), 30))
print("definition,  r = 1/2, α = 3:", mpmath.nstr(rdpsym.renyi_divergence_mp(G0, G1, 3, dps=30, values={r: half}), 30))

# %% [markdown]
# ## A continuous pair: Laplace noise of two different scales
#
# $P = \Lambda(0, 1)$ and $Q = \Lambda(1, 2)$: the derivation splits at both kinks and sums exponential
# integrals. In one direction the divergence is finite at every order; in the other it needs
# $\alpha < 2$, because $Q$'s tails are heavier than $P$'s, and the result says so.

# %%
x = sp.Symbol("x", real=True)
P = rdpsym.Continuous(sp.exp(-sp.Abs(x)) / 2, x)
Q = rdpsym.Continuous(sp.exp(-sp.Abs(x - 1) / 2) / 4, x)
forward = rdpsym.renyi_divergence(P, Q, alpha)
backward = rdpsym.renyi_divergence(Q, P, alpha)
display(Math(r"D_\alpha(P\|Q) = " + paper_latex(forward.result)), Math(r"D_\alpha(Q\|P) = " + paper_latex(backward.result)))
print(forward.status, backward.status)
print("D_3(P||Q):", mpmath.nstr(forward.evalf({alpha: 3}, dps=30), 30))
print("  by definition:", mpmath.nstr(rdpsym.renyi_divergence_mp(P, Q, 3, dps=30), 30))

# %% [markdown]
# ## From a pair to a mechanism and its budget curve
#
# `rdpsym.Mechanism(name, parameters, (P, Q))` turns a pair into a mechanism. Adjacency is symmetric,
# so its curve is the larger of the two directions unless you pass `symmetric=True` with an argument
# that $D_\alpha(P\|Q) \ge D_\alpha(Q\|P)$. For the geometric mechanism the reflection $k \mapsto 1-k$
# swaps the two laws, so both directions are equal. A user's closed forms are *checked*, not proved
# against a published form, so the curve says `certified=False`.
#
# With $r = 1/2$ the geometric mechanism is $\log 2$-DP, as is the Laplace mechanism with scale
# $1/\log 2$. `rdpsym.pure_dp(log 2)` is the exact curve of the *worst* $\log 2$-DP mechanism
# (Bun–Steinke 2016: randomized response with $p = e^\epsilon/(1+e^\epsilon)$). Drawn with
# `rdpsym.render.plots.budget_curves`: the geometric mechanism's line lies exactly on the worst case (its privacy
# loss only takes the values $\pm\log 2$), while the Laplace mechanism is better at every finite order.

# %%
mine = rdpsym.Mechanism("geometric", {"r": half}, (G0.subs({r: half}), G1.subs({r: half})),
                        worst_case="the noise law and its shift by one", symmetric=True)
curves = {
    "geometric, r = 1/2": mine.curve(),
    "Laplace, scale 1/log 2": rdpsym.laplace(scale=1 / sp.log(2)).curve(),
    "worst log 2-DP mechanism": rdpsym.pure_dp(sp.log(2)).curve(),
}
print("geometric curve:", curves["geometric, r = 1/2"].closed_form, "| certified:", curves["geometric, r = 1/2"].certified)
plots.budget_curves(curves, title="Three log 2-DP mechanisms")

# %% [markdown]
# What the difference is worth after 100 runs, at $\delta = 10^{-5}$, against basic composition of the
# pure guarantee ($100\log 2$: the composed curve at $\alpha = \infty$):

# %%
print(f"{'basic composition':26s} eps = {float((curves['worst log 2-DP mechanism'] * 100).value(sp.oo)):>8.6g}")
for label, c in curves.items():
    res = rdpsym.epsilon(c * 100, delta=1e-5)
    print(f"{label:26s} eps = {res.published(6):>8s} at order {res.order}  (certified: {res.certified})")

# %% [markdown]
# ## Your own claims
#
# A `Claim` has an id, a title, a source, a LaTeX statement, a chain of steps (`Equal`, `AtMost`,
# `AtLeast`, or `Holds` for a relation computed at a point) each with its reason, the hypotheses as a
# `Domain` of intervals, and the verdict you expect. Expensive parts (a derivation) are passed as
# zero-argument callables, run when the claim is checked. Three claims about the two pairs above:
#
# 1. the geometric mechanism is exactly $\log(1/r)$-DP — expected **proved**;
# 2. at every order it is exactly as private as randomized response with $p = 1/(1+r)$ (what the plot
#    showed at $r = 1/2$), for every $0 < r < 1$ — expected at least **checked**;
# 3. a deliberate mistake: "Rényi divergence is symmetric", on the Laplace pair — expected **refuted**.

# %%
geometric_claims = [
    Claim(
        id="my-geometric-pure-dp",
        title="The geometric mechanism is log(1/r)-DP, exactly",
        source="notebook 6",
        statement=r"D_\infty(G_0\|G_1) = \log(1/r),\ 0 < r < 1",
        steps=(Equal(lambda: rdpsym.renyi_divergence(G0, G1, sp.oo).result, -sp.log(r),
                     "the derived supremum of the log-ratio"),),
        expected=Verdict.PROVED,
        domain=Domain({r: sp.Interval.open(0, 1)}),
    ),
    Claim(
        id="my-geometric-is-randomized-response",
        title="The geometric mechanism has the RDP curve of randomized response with p = 1/(1+r)",
        source="notebook 6; Mironov 2017, Proposition 5",
        statement=r"D_\alpha(G_0\|G_1) = D_\alpha(\mathrm{RR}_{1/(1+r)}),\ \alpha > 1,\ 0 < r < 1",
        steps=(Equal(lambda: rdpsym.renyi_divergence(G0, G1, alpha).result,
                     lambda: rdpsym.randomized_response(1 / (1 + r)).rdp(alpha).result,
                     "the privacy loss log G_0(k)/G_1(k) is log(1/r) for k ≤ 0 and log r for k ≥ 1"),),
        expected=Verdict.CHECKED,
        domain=Domain({alpha: sp.Interval.open(1, sp.oo), r: sp.Interval.open(0, 1)}),
    ),
    Claim(
        id="my-renyi-is-symmetric",
        title="Rényi divergence is symmetric (it is not)",
        source="notebook 6, a deliberate mistake",
        statement=r"D_\alpha(\Lambda(0,1)\|\Lambda(1,2)) = D_\alpha(\Lambda(1,2)\|\Lambda(0,1))",
        steps=(Equal(lambda: forward.result, lambda: backward.result, "if D were a distance"),),
        expected=Verdict.REFUTED,
        domain=Domain({alpha: sp.Interval.open(1, sp.oo)}),
    ),
]

# %% [markdown]
# `runner.check` checks claims held in memory as `rdpsym check` checks the claims of files, and its
# report prints the same table. (To keep claims in files: put `CLAIMS = [...]` in `myproofs/anything.py` and
# run `rdpsym check myproofs/`, or `runner.run([Path("myproofs")])`.)

# %%
report = runner.check(geometric_claims)
print(report)
print("all as expected:", report.ok)

# %% [markdown]
# The refuted claim comes with its counterexample: the sample point and both sides, in certified balls.
# The first symmetric-looking point tried, $\alpha$ just above 1, already separates the two directions
# (there they are the two KL divergences).

# %%
refuted = report.results[-1]
print(refuted.verdict, "-", why_not_proved(refuted))
print(refuted)
