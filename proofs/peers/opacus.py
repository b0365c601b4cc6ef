"""Opacus 1.6.0: ``opacus/accountants/analysis/rdp.py`` (its header: based on TensorFlow Privacy's
``rdp_accountant.py``, the pre-2022 form: tf_privacy.py's claims hold for it term for term).

The privacy unit is Poisson sampling with add/remove neighbours; σ is the noise standard deviation over
the ℓ2 clipping norm.
"""

import sympy as sp

from rdpsym import alpha
from rdpsym.claims import Claim, Domain, Equal, Verdict

from ._atlas import ABOVE_ONE, POSITIVE, UNIT, binomial_sum, fractional_claims, gaussian_claim, integer_claim, sigma

FILE = "Opacus 1.6.0 opacus/accountants/analysis/rdp.py"
delta = sp.Symbol("delta", positive=True)
rdp = sp.Symbol("r", positive=True)

#: ``get_privacy_spent`` at one order.
EPSILON = rdp - (sp.log(delta) + sp.log(alpha)) / (alpha - 1) + sp.log((alpha - 1) / alpha)

PEER_FORMULAS = {
    "_compute_rdp(q=1)": alpha / (2 * sigma**2),
    "_compute_log_a_for_int_alpha": binomial_sum,
    "_compute_log_a_for_frac_alpha": "tf_privacy",
    "get_privacy_spent": EPSILON,
}

CLAIMS = [
    gaussian_claim("opacus-gaussian", "Opacus", f"{FILE}::_compute_rdp, branches q == 1 and α = ∞"),
    integer_claim("opacus-sampled-gaussian-integer", "Opacus",
                  f"{FILE}::_compute_log_a_for_int_alpha (math.log(special.binom(α, i)): order 1 divides by 0)"),
    *fractional_claims(
        "opacus", "Opacus", f"{FILE}::_compute_log_a_for_frac_alpha (TensorFlow Privacy's signed series)",
        "tf_privacy",
        "TensorFlow Privacy's series (tfp-sampled-gaussian-fractional): below the truth by 2.8·10⁻⁸ relative "
        "for DP-SGD on MNIST (q = 256/60000, σ = 1.1, α = 1.1; its absolute cut-off e^{−30}), by 1.7·10⁻¹³ "
        "at q = 10⁻³, σ = 4, α = 10.1. The loop has no cap on its terms."),
    Claim(
        id="opacus-get-privacy-spent",
        title="Opacus: get_privacy_spent's conversion is Balle et al.'s Theorem 21, with no floor at 0",
        source=f"{FILE}::get_privacy_spent",
        statement=r"r-\frac{\log\delta+\log\alpha}{\alpha-1}+\log\frac{\alpha-1}{\alpha} = "
                  r"r+\log\left(1-\frac1\alpha\right)-\frac{\log(\delta\alpha)}{\alpha-1}",
        steps=(Equal(EPSILON, rdp + sp.log(1 - 1 / alpha) - sp.log(delta * alpha) / (alpha - 1),
                     "the logarithms expanded; Theorem 21's validity is claim balle-conversion"),),
        expected=Verdict.PROVED,
        domain=Domain({alpha: ABOVE_ONE, rdp: POSITIVE, delta: UNIT}),
        note="The ε it returns can be negative (r ≡ 0, δ = 0.5 at orders 1.5, 2, 4: ε = −0.693): a true statement, "
             "but accountants report max(ε, 0). Orders ≤ 1 give NaN, skipped silently by its argmin.",
    ),
]
