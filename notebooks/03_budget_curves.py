# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 3 · Rényi budget curves
#
# A mechanism is $(\alpha, \epsilon)$-RDP at every order at once (Definition 4); the function
# $\alpha \mapsto \epsilon(\alpha)$ is its **Rényi budget curve** (the slides' "Rényi Budget Curve", Mironov
# 2017 §III and §VI). Its shape tells the mechanisms apart:
#
# * **Laplace** (Proposition 6) and **randomized response** (Proposition 5) are pure DP: their curves
#   rise to a finite $\epsilon(\infty) = D_\infty$, the ε of ε-DP (§III: ε-DP is $(\infty, \epsilon)$-RDP);
# * the **Gaussian** curve $\alpha/(2\sigma^2)$ (Proposition 7) grows without bound: no ε-DP, but a small
#   budget at every finite order.
#
# Every curve is increasing in α (**Proposition 9**), composition adds curves (**Proposition 1**) and
# group privacy rescales them (**Proposition 2**). The figures are drawn by `rdpsym.plots` from certified
# values: each point is the midpoint of an Arb ball narrower than $10^{-30}$.

# %%
# %matplotlib inline
import sympy as sp

import rdpsym
from rdpsym import plots
from rdpsym.claims import runner

PROOFS = runner.catalogue_path()

# %% [markdown]
# ## Laplace, Gaussian, randomized response
#
# Three mechanisms on one scale, for orders up to 20: Laplace with scale 1 is 1-DP, randomized response
# with $p = 3/4$ is $\log 3$-DP (dashed: their $\epsilon(\infty)$), and the Gaussian with $\sigma = 2$ is below
# both at small orders and crosses both curves between $\alpha = 7$ and $\alpha = 9$ (the values there are
# printed below the figure).

# %%
three = {
    "Laplace, b = 1": rdpsym.laplace(scale=1),
    "Gaussian, σ = 2": rdpsym.gaussian(sigma=2),
    "randomized response, p = 3/4": rdpsym.randomized_response(sp.Rational(3, 4)),
}
plots.budget_curves(three, orders=plots.default_orders(20), title="Rényi budget curves (Propositions 5–7)")

# %%
for d in plots.budget_data(three, orders=[7, 9]):
    print(f"{d.label:30s} eps(7) = {d.y[0]:.4f}   eps(9) = {d.y[1]:.4f}")

# %% [markdown]
# More noise lowers the whole curve. On a log scale the Gaussian curves are parallel lines
# ($\epsilon \propto \alpha/\sigma^2$) while the Laplace curves flatten at $1/b$:

# %%
plots.budget_curves({f"Laplace, b = {b}": rdpsym.laplace(scale=b) for b in (1, 2, 4)}
              | {f"Gaussian, σ = {s}": rdpsym.gaussian(sigma=s) for s in (1, 2, 4)},
              yscale="log", title="More noise, lower curves")

# %% [markdown]
# ## Composition changes the curve (Proposition 1)
#
# $k$ runs of a mechanism have $k$ times its curve; different mechanisms add. The curve of 100 runs of the
# Gaussian with $\sigma = 10$ is that of one Gaussian with $\sigma = 1$ (Proposition 7, $n$-fold form),
# and adding one Laplace release lifts it by the Laplace curve:

# %%
gauss10 = rdpsym.gaussian(sigma=10).curve()
laplace2 = rdpsym.laplace(scale=2).curve()
composed = {
    "1 × Gaussian σ = 10": gauss10,
    "100 × Gaussian σ = 10": gauss10 * 100,
    "Gaussian σ = 1": rdpsym.gaussian(sigma=1).curve(),
    "100 × Gaussian σ = 10 + Laplace b = 2": gauss10 * 100 + laplace2,
}
plots.budget_curves(composed, yscale="log", title="Composition adds curves")

# %% [markdown]
# The plotted numbers are available too (`budget_data`): the second and third curves agree to the
# digits drawn, order by order.

# %%
hundred, one = plots.budget_data([gauss10 * 100, rdpsym.gaussian(sigma=1).curve()], orders=[2, 4, 8, 16, 32])
hundred.y, one.y

# %% [markdown]
# ## Group privacy changes the curve (Proposition 2)
#
# If $f$ is $(\alpha, \epsilon)$-RDP and inputs differ in a group of $2^c$ records, $f$ is
# $(\alpha/2^c, 3^c\epsilon)$-RDP provided $\alpha \ge 2^{c+1}$: the new curve at $\alpha'$ is
# $3^c\,\epsilon(2^c\alpha')$, and **it is defined only for $\alpha' \ge 2$**. Below that the proposition gives no
# bound; `RdpCurve.group` returns ∞ there, with the reason, and the plot leaves a gap and says so in the legend.

# %%
lap = rdpsym.laplace(scale=4).curve()
plots.budget_curves({"Laplace, b = 4": lap, "group of 2 (c = 1)": lap.group(1), "group of 4 (c = 2)": lap.group(2)},
              title="Group privacy (Proposition 2)")

# %%
print(lap.group(1).balls([1.5])[0])

# %% [markdown]
# ## The claims behind the pictures
#
# The slides' claims about curves — monotonicity ($\alpha_1 \ge \alpha_2$: $(\alpha_1,\epsilon)$-RDP ⟹
# $(\alpha_2,\epsilon)$-RDP), composability, and "Why 2 to 32?" (the orders worth tracking) — and
# Proposition 2: on chains of finite laws, in closed form for the Gaussian and Laplace mechanisms, and
# for the `group` transform drawn above (`mironov-prop2-group-curve`, against the true divergence at a
# shift of $2^c$).

# %%
report = runner.run([PROOFS / "seeds" / "slides_000_rdp.py", PROOFS / "mironov2017" / "prop02_group_privacy.py"])
print(report)
