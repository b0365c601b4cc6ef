"""rdpsym: Rényi differential privacy derived symbolically, checked at arbitrary precision."""

from rdpsym.accounting.api import AccountingResult, delta, epsilon
from rdpsym.accounting.curve import Infinite, RdpCurve
from rdpsym.accounting.curves import rdp_curve
from rdpsym.derive.derivation import Derivation, Status, Step
from rdpsym.derive.divergence import renyi_divergence
from rdpsym.derive.numeric import renyi_divergence_mp
from rdpsym.foundations.errors import (
    ConvergenceError,
    DensityError,
    DomainError,
    NoClosedFormError,
    ParameterError,
    RdpSymError,
    VerificationError,
)
from rdpsym.foundations.symbols import alpha
from rdpsym.laws.densities import Continuous, Discrete
from rdpsym.laws.mechanisms import (
    Guarantee,
    Mechanism,
    exponential_mechanism,
    gaussian,
    laplace,
    pure_dp,
    randomized_response,
    sampled_gaussian,
    zcdp,
)
from rdpsym import render as _render  # noqa: F401 - provides str(), .latex() and Jupyter display of records

__all__ = [
    "AccountingResult",
    "Continuous",
    "ConvergenceError",
    "DensityError",
    "Derivation",
    "Discrete",
    "DomainError",
    "Guarantee",
    "Infinite",
    "Mechanism",
    "NoClosedFormError",
    "ParameterError",
    "RdpCurve",
    "RdpSymError",
    "Status",
    "Step",
    "VerificationError",
    "alpha",
    "delta",
    "epsilon",
    "exponential_mechanism",
    "gaussian",
    "laplace",
    "pure_dp",
    "randomized_response",
    "rdp_curve",
    "renyi_divergence",
    "renyi_divergence_mp",
    "sampled_gaussian",
    "zcdp",
]
