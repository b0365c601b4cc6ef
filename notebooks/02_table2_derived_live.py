# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 2 · Table II, derived live
#
# Mironov 2017, **Table II** lists the RDP of the three basic mechanisms (randomized response,
# Laplace, Gaussian) at $\alpha > 1$, $\alpha = 1$ and $\alpha = \infty$; the $\alpha > 1$ column is
# **Propositions 5, 6 and 7**. `rdpsym.derive.table2.table2()` derives all nine cells *from the mechanisms'
# output densities*: nothing in it is a stored answer. Each cell is then compared with the paper's
# printed entry (status `proved` when SymPy shows the two equal) and with the definition evaluated
# independently at sample points.

# %%
import time

import mpmath
import sympy as sp
from IPython.display import Latex, Markdown, Math, display

import rdpsym
from rdpsym import paper_latex, table2, table2_markdown
from rdpsym.claims import runner

# %%
started = time.perf_counter()
cells = table2()
seconds = time.perf_counter() - started

display(Markdown(table2_markdown(cells)))
print(f"{sum(c.derivation.status == 'proved' for c in cells)}/{len(cells)} cells proved; {seconds:.1f} s")

# %% [markdown]
# ## One derivation, step by step
#
# A `Derivation` is data: the densities, the definition (Definition 3), each rule applied with its
# reason, the result, its convergence conditions, its status and the evidence. `d.latex()` renders it
# as an `align*` block. Here is the Laplace mechanism with scale $\lambda$ at a general order
# (Proposition 6): the density is split at its non-smooth points $x = 0$ and $x = 1$, each piece is an
# exponential integral, and the sum is matched with the published form.

# %%
lam = sp.Symbol("lambda", positive=True)
d = rdpsym.laplace(scale=lam).rdp(rdpsym.alpha)
display(Latex(d.latex()))
print(d.status)
print(*d.evidence, sep="\n")

# %% [markdown]
# The same derivation at a fixed order and a number, to any precision (`evalf` substitutes inside
# SymPy's arbitrary-precision evaluation):

# %%
d2 = rdpsym.laplace(scale=sp.Rational(1, 2)).rdp(2)
display(Math(r"D_2(\Lambda(0,\tfrac12)\|\Lambda(1,\tfrac12)) = " + paper_latex(d2.result)))
print(mpmath.nstr(d2.evalf(dps=40), 40))

# %% [markdown]
# ## The claims behind the table
#
# `proofs/mironov2017/table2.py` turns each cell into a claim — the core's derivation equals the printed
# cell over the whole parameter range — and the runner proves all nine. (Propositions 5–7, the α > 1
# column, and the $n$-fold Gaussian — $n$ runs of $\mathcal G_\sigma$ are one $\mathcal G_{\sigma/\sqrt n}$ — are
# `proofs/mironov2017/prop05_07_mechanisms.py`, also proved: `rdpsym check proofs/mironov2017/`.)

# %%
report = runner.run([runner.catalogue_path() / "mironov2017" / "table2.py"])
print(report)
