# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 1 · Rényi divergence, Rényi differential privacy, and what ε means
#
# I. Mironov, *Rényi Differential Privacy*, IEEE CSF 2017 (arXiv:1702.07476):
# **Definition 3** (the Rényi divergence and its limits α → 1 and α → ∞),
# **Definition 4** (RDP) and **Table I** (what an RDP guarantee says about "bad outcomes" and
# about an adversary's Bayes factor).
#
# Nothing below is typed in from the paper: `rdpsym` derives every formula from the densities and
# says how it established it, and the paper's statements are run as the claim files of `proofs/`.

# %%
import mpmath
import sympy as sp
from IPython.display import Markdown, Math, display

import rdpsym
from rdpsym import paper_latex
from rdpsym.claims import Verdict, runner
from rdpsym.render.claims import why_not_proved

alpha = rdpsym.alpha              # the order: a SymPy symbol, with the hypothesis α > 1
PROOFS = runner.catalogue_path()  # the package rdpsym.catalogue: one claim file per statement

# %% [markdown]
# ## Definition 3: the Rényi divergence
#
# For distributions $P$, $Q$ and an order $\alpha > 1$,
#
# $$D_\alpha(P\|Q) = \frac{1}{\alpha-1}\log \mathrm{E}_{x\sim Q}\left[\left(\frac{P(x)}{Q(x)}\right)^{\alpha}\right],$$
#
# and, by continuity, $D_1(P\|Q) = \mathrm{E}_{x\sim P}[\log P(x)/Q(x)]$ (the Kullback–Leibler divergence)
# and $D_\infty(P\|Q) = \sup_x \log P(x)/Q(x)$.
#
# Example: randomized response reports a bit truthfully with probability $p$, so on two inputs that
# differ in the bit its outputs are the laws $P$ and $Q$ below. `rdpsym.Discrete` takes a pmf and
# checks that it is one; `rdpsym.renyi_divergence` derives the divergence at any order.

# %%
p = sp.Symbol("p", positive=True)
P = rdpsym.Discrete({1: p, 0: 1 - p})
Q = rdpsym.Discrete({1: 1 - p, 0: p})

for order in (alpha, 1, sp.oo):
    d = rdpsym.renyi_divergence(P, Q, order)
    display(Math(rf"D_{{{sp.latex(order)}}}(P\|Q) = {paper_latex(d.result)}\qquad\text{{[{d.status}]}}"))

# %% [markdown]
# Each result carries its **status** and the **evidence** for it. `checked` means the closed form
# agreed with the definition, summed or integrated independently with mpmath, to at least 40 digits
# at seeded sample points; `proved` (notebook 2) means SymPy showed it equal to the published form.
# The definition itself is also available directly, at any precision, with `renyi_divergence_mp`:

# %%
d = rdpsym.renyi_divergence(P, Q, alpha)
print(*d.evidence, sep="\n")
closed = d.evalf({p: sp.Rational(3, 4), alpha: 2}, dps=30)
direct = rdpsym.renyi_divergence_mp(P, Q, 2, dps=30, values={p: sp.Rational(3, 4)})
print("closed form at p = 3/4, α = 2:", mpmath.nstr(closed, 30))
print("definition  at p = 3/4, α = 2:", mpmath.nstr(direct, 30))

# %% [markdown]
# A Rényi divergence can be infinite. For Gaussians of different variances the derivation keeps the
# convergence condition: $D_\alpha$ is finite only while $\alpha\sigma_2^2 + (1-\alpha)\sigma_1^2 > 0$.

# %%
x = sp.Symbol("x", real=True)
s1, s2 = sp.symbols("sigma1 sigma2", positive=True)


def normal(mean, sd):
    return rdpsym.Continuous(sp.exp(-(x - mean) ** 2 / (2 * sd**2)) / sp.sqrt(2 * sp.pi * sd**2), x)


d = rdpsym.renyi_divergence(normal(0, s1), normal(1, s2), alpha)
display(Math(r"D_\alpha(\mathcal N(0,\sigma_1^2)\|\mathcal N(1,\sigma_2^2)) = " + paper_latex(d.result)))
d.conditions, d.status

# %% [markdown]
# **The limits of Definition 3 are claims, run here.** `proofs/mironov2017/def3_limits.py` states
# $\lim_{\alpha\to1} D_\alpha = D_1$ and $\lim_{\alpha\to\infty} D_\alpha = D_\infty$; the runner *proves*
# them for the three families of Table II (SymPy limits of the derived forms) and *checks* them on
# adversarial finite laws (certified Arb balls, probabilities down to $10^{-30}$).

# %%
limits = runner.run([PROOFS / "mironov2017" / "def3_limits.py"])
print(limits)

# %% [markdown]
# ## Definition 4: (α, ε)-RDP
#
# A randomized mechanism $f$ is $(\alpha, \epsilon)$-RDP if $D_\alpha(f(D)\|f(D')) \le \epsilon$ for all
# adjacent inputs $D, D'$. Read as a function of the order, $\epsilon(\alpha)$ is the mechanism's
# *Rényi budget curve* (notebook 3). For additive noise the supremum over adjacent pairs is attained
# by one explicit pair; the built-in mechanisms carry it, and their `rdp()` is proved equal to the paper
# (Proposition 7 for the Gaussian mechanism):

# %%
sigma = sp.Symbol("sigma", positive=True)
gauss = rdpsym.gaussian(sigma=sigma)
print("worst case:", gauss.worst_case)
d = gauss.rdp()
display(Math(r"\epsilon(\alpha) = D_\alpha(P\|Q) = " + paper_latex(d.result)))
print(d.status, "-", d.evidence[0])

# %% [markdown]
# The worst-case arguments are claims too (`proofs/mironov2017/def4_worst_case.py`: the divergence grows
# with the shift, so the shift by the sensitivity is the worst case; `rdpsym check` runs them).

# %% [markdown]
# ## Table I: what (α, ε)-RDP guarantees
#
# | property | ε-DP | (α, ε)-RDP |
# |---|---|---|
# | change in probability of a (bad) outcome $S$ | $\Pr[f(D)\in S] \le e^{\epsilon}\Pr[f(D')\in S]$ | $\Pr[f(D)\in S] \le \left(e^{\epsilon}\Pr[f(D')\in S]\right)^{(\alpha-1)/\alpha}$ |
# | | $\Pr[f(D)\in S] \ge e^{-\epsilon}\Pr[f(D')\in S]$ | $\Pr[f(D)\in S] \ge e^{-\epsilon}\Pr[f(D')\in S]^{\alpha/(\alpha-1)}$ |
# | change in the Bayes factor | $R_\text{post}/R_\text{prior} \le e^{\epsilon}$ | $\mathrm{E}\left[(R_\text{post}/R_\text{prior})^{\alpha}\right] \le e^{(\alpha-1)\epsilon}$ |
#
# Here $R(D, D') = p(D'\mid X)/p(D\mid X)$ is the adversary's odds between two adjacent inputs after
# seeing the output $X$. `proofs/mironov2017/table1_bad_outcomes.py` states the rows (and the log
# Bayes-factor remark of §III) as claims: the statements about *all* mechanisms are checked on
# adversarial finite laws and events, the Bayes'-rule step is proved, and the printed remark
# $\mathrm{E}_{f(D)}[\Delta\log R] = D_1(f(D)\|f(D'))$ comes back **refuted**: with $R$ as printed the
# left side is $-D_1$, a sign slip; the corrected claim is checked beside it.

# %%
table1 = runner.run([PROOFS / "mironov2017" / "table1_bad_outcomes.py"])
print(table1)
print("every claim reached the status its file expects:", table1.ok)

# %%
for r in table1.results:
    display(Markdown(f"**{r.claim.title}** — *{r.verdict}* ({r.claim.source})"), Math(r.claim.statement))
    if r.verdict is Verdict.REFUTED:
        display(Markdown("> " + why_not_proved(r)))
