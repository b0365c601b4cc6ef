"""rdpsym: Rényi differential privacy derived symbolically, checked at arbitrary precision."""

from .accounting.api import AccountingResult, delta, epsilon
from .accounting.curve import Infinite, RdpCurve
from .accounting.mechanisms import exponential_mechanism, pure_dp, sampled_gaussian, zcdp
from .densities import Continuous, Discrete
from .derivation import Derivation, Status, Step
from .divergence import renyi_divergence
from .errors import (
    ConvergenceError,
    DensityError,
    DomainError,
    NoClosedFormError,
    ParameterError,
    RdpSymError,
    VerificationError,
)
from .mechanisms import Mechanism, gaussian, laplace, randomized_response
from .numeric import renyi_divergence_mp
from .symbols import alpha

__all__ = [
    "AccountingResult",
    "Infinite",
    "RdpCurve",
    "delta",
    "epsilon",
    "exponential_mechanism",
    "pure_dp",
    "sampled_gaussian",
    "zcdp",
    "Continuous",
    "ConvergenceError",
    "DensityError",
    "Derivation",
    "Discrete",
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
