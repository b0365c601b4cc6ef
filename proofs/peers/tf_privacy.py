"""TensorFlow Privacy: ``privacy/analysis/rdp_accountant.py`` at tag v.0.8.0 and the tree accountant of v0.9.0.

``rdp_accountant.py`` left TensorFlow Privacy in 2022 (a wrapper of dp_accounting from commit 868cf54, gone
since v0.8.1), but its self-contained form, last released in v.0.8.0, is the one copied into Opacus and
prv_accountant and still found in research code; its fractional-order series is ``_atlas.log_a_frac``'s
"tf_privacy" variant (signed C(α, i), stopped when both parts are below e^{−30}).  In v0.9.0 the RDP code
left is ``tree_aggregation_accountant.py``.
"""

import sympy as sp

from rdpsym import alpha
from rdpsym.claims import Claim, Domain, Equal, Verdict

from ._atlas import (
    ABOVE_ONE,
    POSITIVE,
    binomial_sum,
    fractional_claims,
    gaussian_claim,
    gaussian_rdp,
    integer_claim,
    sigma,
)

FILE = "TensorFlow Privacy v.0.8.0 privacy/analysis/rdp_accountant.py"
TREE = "TensorFlow Privacy v0.9.0 privacy/analysis/tree_aggregation_accountant.py"
depths = sp.Symbol("S", positive=True)

PEER_FORMULAS = {
    "_compute_rdp(q=1)": alpha / (2 * sigma**2),
    "_compute_log_a_int": binomial_sum,
    "_compute_log_a_frac": "tf_privacy",
    "compute_rdp_tree_restart": alpha * depths / (2 * sigma**2),
}

CLAIMS = [
    gaussian_claim("tfp-gaussian", "TensorFlow Privacy", f"{FILE}::_compute_rdp, branches q == 1 and α = ∞"),
    integer_claim("tfp-sampled-gaussian-integer", "TensorFlow Privacy", f"{FILE}::_compute_log_a_int"),
    *fractional_claims(
        "tfp", "TensorFlow Privacy",
        f"{FILE}::_compute_log_a_frac (signed C(α, i); stops when both parts are below e^{{−30}})", "tf_privacy",
        "The signed series is the value up to its cut-off, whose dropped tail can be positive: q = 10⁻³, σ = 4, "
        "α = 10.1 gives 3.2587075034·10⁻⁷ where D_α is 5·10⁻²⁰ larger (1.7·10⁻¹³ relative). Its cut-off is an "
        "absolute e^{−30}, so where the RDP itself is small the dropped tail is a sizeable part of it: 2.8·10⁻⁸ "
        "relative below the truth for DP-SGD on MNIST (q = 256/60000, σ = 1.1, α = 1.1), 1.0·10⁻⁶ at q = 10⁻⁴, "
        "σ = 0.7, α = 1.1. Its own test pins q = 0.01, σ = 2.5, 50 steps, α = 1.5 at 6.5007·10⁻⁴: the exact value."),
    Claim(
        id="tfp-tree-restart",
        title="TensorFlow Privacy: tree aggregation with restarts is a Gaussian mechanism of sensitivity √S",
        source=f"{TREE}::compute_rdp_tree_restart (S = Σ_i (⌊log₂ n_i⌋ + 1) over the restarts)",
        statement=r"\frac{\alpha S}{2\sigma^2} = D_\alpha(\mathcal N(0,\sigma^2)\|\mathcal N(\sqrt S,\sigma^2))",
        steps=(Equal(alpha * depths / (2 * sigma**2), lambda: gaussian_rdp(alpha, sp.sqrt(depths)),
                     "a record is in one node per level of each tree: ℓ2 sensitivity √S over the restarts"),),
        expected=Verdict.PROVED,
        domain=Domain({alpha: ABOVE_ONE, sigma: POSITIVE, depths: sp.Interval(1, 10**4)}),
    ),
]
