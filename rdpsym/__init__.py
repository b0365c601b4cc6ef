"""rdpsym: Rényi differential privacy derived symbolically, checked at arbitrary precision."""

from rdpsym.accounting.api import AccountingResult, delta, epsilon
from rdpsym.accounting.curve import Infinite, RdpCurve
from rdpsym.accounting.curves import rdp_curve
from rdpsym.laws.densities import Continuous, Discrete
from rdpsym.derive.derivation import Derivation, Status, Step
from rdpsym.derive.divergence import renyi_divergence
from rdpsym.foundations.errors import (
    ConvergenceError,
    DensityError,
    DomainError,
    NoClosedFormError,
    ParameterError,
    RdpSymError,
    VerificationError,
)
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
from rdpsym.derive.numeric import renyi_divergence_mp
from rdpsym.foundations.symbols import alpha

__all__ = [
    "AccountingResult",
    "Infinite",
    "RdpCurve",
    "delta",
    "epsilon",
    "exponential_mechanism",
    "pure_dp",
    "rdp_curve",
    "sampled_gaussian",
    "zcdp",
    "Continuous",
    "ConvergenceError",
    "DensityError",
    "Derivation",
    "Discrete",
    "Guarantee",
    "Mechanism",
    "DomainError",
    "NoClosedFormError",
    "ParameterError",
    "RdpSymError",
    "Status",
    "Step",
    "VerificationError",
    "alpha",
    "gaussian",
    "laplace",
    "randomized_response",
    "renyi_divergence",
    "renyi_divergence_mp",
]
