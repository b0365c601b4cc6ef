"""The Poisson-subsampled Gaussian mechanism (DP-SGD): its RDP curve in certified balls.

Mironov, Talwar and Zhang, "Rényi Differential Privacy of the Sampled Gaussian
Mechanism" (2019, arXiv:1908.10530; "MTZ" below), Sec. 3: with noise
multiplier σ > 0, sampling rate q ∈ [0, 1] and order α > 1,

    A_α = E_{z∼N(0,σ²)}[ b(z)^α ],   b(z) = 1 − q + q·e^{u(z)},   u(z) = (2z − 1)/(2σ²),

and the RDP of one step is ε(α) = log(A_α)/(α − 1).  Edge cases are exact:
q = 0 gives A = 1 and ε = 0; q = 1 gives log A = α(α − 1)/(2σ²), ε = α/(2σ²).

Everything is computed as ``A_α − 1`` and then ``log1p``: A_α is within 10⁻³⁰
of 1 when q is small and σ large, and log(A) of a ball around 1 would keep only
absolute, not relative, accuracy.

The computation is in stages, one module each (imports point down this list):

``api``
    The entry points :func:`log_moment`, :func:`log_moments` and :func:`rdp_values`:
    inputs checked, the exact edge cases q = 0 and q = 1, integer and fractional
    orders sent to their methods, values certified to the digits asked for.
``integer``
    Integer α: MTZ's binomial sum (Sec. 3), a finite sum of positive terms.
``shifted``
    Fractional α = n + f with n ≤ 64: shifted Gaussians on one grid, one matrix
    product for every order of a call.
``trapezoid``
    Any fractional α: one certified trapezoid quadrature per order (the
    discretisation, truncation and rounding errors bounded into the ball); used
    where the shifted-Gaussian matrix would need too many points.
``planning``
    Double-precision estimates of log A_α that choose steps, cuts and working
    precisions (never part of a result), and the refinement rule the methods share.

Values (:func:`rdp_values`) are midpoints of these balls once their relative
radius is below 10^{−(dps+2)}; precision and grid are refined until it is, or
:class:`~rdpsym.foundations.errors.ConvergenceError` is raised.
"""

from rdpsym._lazy import submodules_on_first_use
from rdpsym.accounting.sampled_gaussian.api import log_moment, log_moments, rdp_values

__all__ = ["log_moment", "log_moments", "rdp_values"]

__getattr__ = submodules_on_first_use(__name__, __path__)  # rdpsym/_lazy.py
