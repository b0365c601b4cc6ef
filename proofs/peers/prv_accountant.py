"""prv_accountant 0.2.0 (Microsoft): the ``rdp`` methods of ``privacy_random_variables/*.py``.

Each privacy random variable carries an ``rdp(α)`` that sizes the discretisation domain
(``accountant.compute_safe_domain_size``): the soundness of the truncation rests on it being an upper bound.
"""

import sympy as sp

from rdpsym import alpha
from rdpsym.claims import AtLeast, Claim, Domain, Equal, Verdict

from ._atlas import ABOVE_ONE, POSITIVE, eps, fractional_claims, gaussian_claim, lam, laplace_rdp, p, rr_rdp

FILE = "prv_accountant 0.2.0 privacy_random_variables"
mu = sp.Symbol("mu", positive=True)

#: ``LaplaceMechanism.rdp`` (μ = sensitivity/scale) and ``PureDPMechanism.rdp``.
LAPLACE = sp.log(alpha / (2 * alpha - 1) * sp.exp((alpha - 1) * mu)
                 + (alpha - 1) / (2 * alpha - 1) * sp.exp(-alpha * mu)) / (alpha - 1)
PURE_DP = (alpha - 1) * eps / alpha

PEER_FORMULAS = {
    "GaussianMechanism.rdp": alpha * mu**2 / 2,
    "LaplaceMechanism.rdp": LAPLACE,
    "PureDPMechanism.rdp": PURE_DP,
    "PoissonSubsampledGaussianMechanism.rdp (fractional)": "tf_privacy",
}

CLAIMS = [
    gaussian_claim("prv-gaussian", "prv_accountant", f"{FILE}/gaussian_mechanism.py::GaussianMechanism.rdp "
                   "(αμ²/2 with μ = 1/σ)"),
    Claim(
        id="prv-laplace",
        title="prv_accountant: the Laplace mechanism's RDP is exact",
        source=f"{FILE}/laplace_mechanism.py::LaplaceMechanism.rdp (μ = sensitivity/scale)",
        statement=r"\frac{1}{\alpha-1}\log\left(\frac{\alpha}{2\alpha-1}e^{(\alpha-1)\mu}+\frac{\alpha-1}{2\alpha-1}"
                  r"e^{-\alpha\mu}\right) = D_\alpha(\mathrm{Lap}(0,1/\mu)\|\mathrm{Lap}(1,1/\mu))",
        steps=(Equal(lambda: LAPLACE.subs(mu, 1 / lam), laplace_rdp, "rdpsym's derivation from the densities"),),
        expected=Verdict.PROVED,
        domain=Domain({alpha: ABOVE_ONE, lam: POSITIVE}),
        note="Order 1 is 0/0 (NaN); it is not among the accountant's orders.",
    ),
    Claim(
        id="prv-pure-dp",
        title="prv_accountant: PureDPMechanism.rdp = (α − 1)ε/α is below the RDP of its own pair (unsafe)",
        source=f"{FILE}/pure_dp_mechanism.py::PureDPMechanism.rdp (its cdf is binary randomized response)",
        statement=r"\frac{(\alpha-1)\epsilon}{\alpha} \ge D_\alpha\left(\mathrm{RR}_{e^\epsilon/(1+e^\epsilon)}\right)",
        steps=(AtLeast(PURE_DP, lambda: rr_rdp().subs(p, sp.exp(eps) / (1 + sp.exp(eps))),
                       "the mechanism's privacy-loss variable is that of binary randomized response with "
                       "p = e^ε/(1 + e^ε), the worst ε-DP pair"),),
        expected=Verdict.REFUTED,
        domain=Domain({alpha: ABOVE_ONE, eps: POSITIVE}),
        note="ε = 1, α = 2: 0.5 against 0.7353; as α → 1 it tends to 0 where the KL is ε·tanh(ε/2). Used only to "
             "size the domain (plus a margin of 3): the composed ε bounds stayed correct in the runs checked "
             "(ε₀ ∈ {0.1, 0.5, 1}, up to 100 compositions). ApproximateDPMechanism inherits it.",
    ),
    *fractional_claims(
        "prv", "prv_accountant",
        f"{FILE}/poisson_subsampled_gaussian_mechanism.py::_compute_log_a_frac (TensorFlow Privacy's series)",
        "tf_privacy",
        "TensorFlow Privacy's series (tfp-sampled-gaussian-fractional): below the truth by 2.8·10⁻⁸ relative "
        "for DP-SGD on MNIST (q = 256/60000, σ = 1.1, α = 1.1; its absolute cut-off e^{−30}), by 1.7·10⁻¹³ "
        "at q = 10⁻³, σ = 4, α = 10.1."),
]
