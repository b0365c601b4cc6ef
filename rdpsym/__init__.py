"""rdpsym: Rényi differential privacy derived symbolically, checked at arbitrary precision."""

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
