"""rdpsym: Rényi differential privacy derived symbolically, checked at arbitrary precision.

The public API, by layer (every name here is documented where it is defined):

* laws — :class:`Continuous`, :class:`Discrete` densities (in several variables:
  :class:`Joint`, :class:`Independent` and ``P ** n``, :class:`MultivariateNormal`); the built-in
  mechanisms :func:`gaussian`, :func:`laplace`, :func:`randomized_response`,
  :func:`sampled_gaussian`, :func:`discrete_gaussian`, :func:`discrete_laplace`,
  :func:`k_randomized_response` and guarantees :func:`pure_dp`, :func:`zcdp`,
  :func:`exponential_mechanism`, :func:`non_private` (one registry:
  :data:`REGISTRY`); subsampling of any of them, :func:`poisson_sampled` and
  :func:`sampled_without_replacement`;
* derive — :func:`renyi_divergence` (a :class:`Derivation`: closed form,
  steps, status, evidence), :func:`renyi_divergence_mp` (the definition at
  any precision), :func:`table2` (Mironov 2017, Table II);
* accounting — :class:`RdpCurve` (``mechanism.curve()``, ``+``, ``k *``,
  ``.group(c)``), :func:`epsilon`, :func:`delta` (certified
  :class:`AccountingResult`), and the modules :mod:`rdpsym.conversions` and
  :mod:`rdpsym.balls` (Arb balls, rounding up and down);
* peers — :func:`from_dp_event` (dp_accounting's events and ledgers),
  :func:`from_opacus` and :class:`OpacusAccountant` (Opacus),
  :func:`from_autodp` (autodp's mechanism zoo), :func:`verify` (a peer's
  answers against certified values; no peer is imported);
* claims — the subpackage :mod:`rdpsym.claims` (``Claim``, ``Equal``,
  ``AtMost``, ``Holds``, ``Domain``, ``check``);
* render — :func:`paper_latex`, :func:`table2_markdown`, documents
  (:mod:`rdpsym.documents`) and plots (:mod:`rdpsym.plots`, imported on first
  use: it loads matplotlib);
* the one record of mathematics — :class:`Status`, :class:`Step`,
  :class:`Relation` and the rules and evidence of :mod:`rdpsym.record`.

Importing rdpsym also registers the renderers that give records their
``str()``, ``.latex()`` and Jupyter display.
"""

import os
import sys

# SymPy memoises its core operations in LRU caches of SYMPY_CACHE_SIZE entries (1000 by default), sized
# when SymPy is first imported.  A derivation and its checks rebuild the same subexpressions many times:
# with 20 000 entries the claim catalogue runs in 20.5 s instead of 21.6 s (benchmarks/README.md).  A
# default only: a value the user set wins, and it has no effect if SymPy was imported before rdpsym.
os.environ.setdefault("SYMPY_CACHE_SIZE", "20000")

from rdpsym import render as _render  # noqa: F401 - provides str(), .latex() and Jupyter display of records
from rdpsym.accounting import conversions
from rdpsym.accounting.api import AccountingResult, delta, epsilon
from rdpsym.accounting.calibrate import Calibration, calibrate, calibrate_many
from rdpsym.accounting.components import Infinite
from rdpsym.accounting.curve import RdpCurve
from rdpsym.accounting.curves import rdp_curve
from rdpsym.derive.derivation import Derivation
from rdpsym.derive.divergence import renyi_divergence
from rdpsym.derive.numeric import renyi_divergence_mp
from rdpsym.derive.table2 import table2
from rdpsym.foundations import balls
from rdpsym.foundations import exact_size as _exact_size  # noqa: F401 - SymPy's huge exact numbers, in budgets
from rdpsym.foundations import record as record
from rdpsym.foundations.errors import (
    ConvergenceError,
    DensityError,
    DomainError,
    NoClosedFormError,
    ParameterError,
    RdpSymError,
    VerificationError,
)
from rdpsym.foundations.record import Relation, Status, Step
from rdpsym.foundations.symbols import Parameter, alpha, parameter
from rdpsym.laws.densities import Continuous, Discrete
from rdpsym.laws.independent import Independent
from rdpsym.laws.joint import Joint
from rdpsym.laws.mechanisms import (
    REGISTRY,
    Guarantee,
    Mechanism,
    discrete_gaussian,
    discrete_laplace,
    exponential_mechanism,
    gaussian,
    k_randomized_response,
    laplace,
    non_private,
    poisson_sampled,
    pure_dp,
    randomized_response,
    sampled_gaussian,
    sampled_without_replacement,
    zcdp,
)
from rdpsym.laws.multivariate_normal import MultivariateNormal
from rdpsym.peers.autodp import from_autodp
from rdpsym.peers.events import from_dp_event
from rdpsym.peers.opacus import OpacusAccountant, OpacusLikeAccountant, from_opacus
from rdpsym.peers.verify import Verification, verify

# the plots import matplotlib inside the functions that draw: a script that draws nothing never loads it
from rdpsym.render import documents, plots
from rdpsym.render.documents import table2_markdown
from rdpsym.render.latex import paper_latex

# The public modules are importable by their public names too (``from rdpsym.conversions import ...``).
for _name, _module in (("conversions", conversions), ("balls", balls), ("record", record),
                       ("documents", documents), ("plots", plots)):
    sys.modules[f"rdpsym.{_name}"] = _module
del _name, _module


def __getattr__(name: str):
    """``rdpsym.__version__`` on first use (PEP 562): importlib.metadata costs a startup nothing else needs."""
    if name != "__version__":
        raise AttributeError(f"module 'rdpsym' has no attribute {name!r}")
    import importlib.metadata

    try:
        value = importlib.metadata.version("rdpsym")
    except importlib.metadata.PackageNotFoundError:  # a source tree that was never installed
        value = "0+unknown"
    globals()[name] = value
    return value


__all__ = [
    "AccountingResult",
    "Calibration",
    "Continuous",
    "ConvergenceError",
    "DensityError",
    "Derivation",
    "Discrete",
    "DomainError",
    "Guarantee",
    "Independent",
    "Infinite",
    "Joint",
    "Mechanism",
    "MultivariateNormal",
    "NoClosedFormError",
    "OpacusAccountant",
    "OpacusLikeAccountant",
    "Parameter",
    "ParameterError",
    "REGISTRY",
    "RdpCurve",
    "RdpSymError",
    "Relation",
    "Status",
    "Step",
    "Verification",
    "VerificationError",
    "alpha",
    "balls",
    "calibrate",
    "calibrate_many",
    "conversions",
    "delta",
    "discrete_gaussian",
    "discrete_laplace",
    "documents",
    "epsilon",
    "exponential_mechanism",
    "from_autodp",
    "from_dp_event",
    "from_opacus",
    "gaussian",
    "k_randomized_response",
    "laplace",
    "non_private",
    "paper_latex",
    "parameter",
    "plots",
    "poisson_sampled",
    "pure_dp",
    "randomized_response",
    "rdp_curve",
    "record",
    "renyi_divergence",
    "renyi_divergence_mp",
    "sampled_gaussian",
    "sampled_without_replacement",
    "table2",
    "table2_markdown",
    "verify",
    "zcdp",
    "__version__",
]
