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

Importing rdpsym is cheap: each name loads its module (and SymPy, mpmath,
python-flint) on first use, and a record's ``str()``, ``.latex()`` and Jupyter
display load the renderers the first time a record is shown.
"""

import importlib
import importlib.abc
import importlib.util
import os
import sys

import lazy_loader

# SymPy memoises its core operations in LRU caches of SYMPY_CACHE_SIZE entries (1000 by default), sized
# when SymPy is first imported.  A derivation and its checks rebuild the same subexpressions many times:
# with 20 000 entries the claim catalogue runs in 20.5 s instead of 21.6 s (benchmarks/README.md).  A
# default only: a value the user set wins, and it has no effect if SymPy was imported before rdpsym.
os.environ.setdefault("SYMPY_CACHE_SIZE", "20000")

# Every public name, by the module that defines it, imported on first use (SPEC 1, scientific-python's
# lazy_loader): ``import rdpsym`` loads neither SymPy, mpmath, python-flint nor matplotlib, so
# ``rdpsym --version`` and ``--help`` start at once, and a script pays only for the layers it touches.
# (The renderers that give records their str() and .latex() load with the first record that is shown:
# rdpsym.foundations.operations imports an operation's provider on its first call.)
# The subpackages (``rdpsym.claims.Claim``, ``rdpsym.accounting.curve``) load on first use too.
__getattr__, _lazy_dir, _ = lazy_loader.attach(__name__, submodules=[
    "accounting", "claims", "cli", "derive", "engine", "foundations", "laws", "peers", "quadrature", "render",
], submod_attrs={
    "accounting.api": ["AccountingResult", "delta", "epsilon"],
    "accounting.calibrate": ["Calibration", "calibrate"],
    "accounting.calibration_grid": ["calibrate_many"],
    "accounting.components": ["Infinite"],
    "accounting.curve": ["RdpCurve"],
    "accounting.curves": ["rdp_curve"],
    "derive.derivation": ["Derivation"],
    "derive.divergence": ["renyi_divergence"],
    "derive.numeric": ["renyi_divergence_mp"],
    "derive.table2": ["table2"],
    "foundations.errors": ["ConvergenceError", "DensityError", "DomainError", "NoClosedFormError",
                           "ParameterError", "RdpSymError", "VerificationError"],
    "foundations.record": ["Relation", "Status", "Step"],
    "foundations.symbols": ["Parameter", "alpha", "parameter"],
    "laws.densities": ["Continuous", "Discrete"],
    "laws.independent": ["Independent"],
    "laws.joint": ["Joint"],
    "laws.mechanisms": ["REGISTRY", "Guarantee", "Mechanism", "discrete_gaussian", "discrete_laplace",
                        "exponential_mechanism", "gaussian", "k_randomized_response", "laplace", "non_private",
                        "poisson_sampled", "pure_dp", "randomized_response", "sampled_gaussian",
                        "sampled_without_replacement", "zcdp"],
    "laws.multivariate_normal": ["MultivariateNormal"],
    "peers.autodp": ["from_autodp"],
    "peers.events": ["from_dp_event"],
    "peers.opacus": ["OpacusAccountant", "OpacusLikeAccountant", "from_opacus"],
    "peers.verification": ["Verification"],
    "peers.verify": ["verify"],
    "render.documents": ["table2_markdown"],
    "render.latex": ["paper_latex"],
})
_lazy_getattr = __getattr__

#: The public modules, importable by their public names too (``from rdpsym.conversions import ...``).
_ALIASES = {"rdpsym.conversions": "rdpsym.accounting.conversions", "rdpsym.balls": "rdpsym.foundations.balls",
            "rdpsym.record": "rdpsym.foundations.record", "rdpsym.documents": "rdpsym.render.documents",
            "rdpsym.plots": "rdpsym.render.plots"}


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds ``rdpsym.conversions`` and the other public names of modules that live deeper: the import
    gives the module itself (one module object under two names), loaded when first imported."""

    def find_spec(self, name, path=None, target=None):
        return importlib.util.spec_from_loader(name, self) if name in _ALIASES else None

    def create_module(self, spec):
        return None  # a placeholder: exec_module puts the real module in its place

    def exec_module(self, module):
        # importlib returns whatever sys.modules holds under the name once this returns: the real module
        sys.modules[module.__name__] = importlib.import_module(_ALIASES[module.__name__])


if not any(isinstance(finder, _Alias) for finder in sys.meta_path):
    sys.meta_path.append(_Alias())


def __getattr__(name: str):  # noqa: F811 - the lazy attributes, and the version
    """``rdpsym.__version__`` on first use (importlib.metadata costs a startup nothing else needs); every
    other public name from its module on first use."""
    if f"rdpsym.{name}" in _ALIASES:  # a public module (the plots load matplotlib only when they draw)
        return importlib.import_module(f"rdpsym.{name}")
    if name != "__version__":
        return _lazy_getattr(name)
    import importlib.metadata as metadata

    try:
        value = metadata.version("rdpsym")
    except metadata.PackageNotFoundError:  # a source tree that was never installed
        value = "0+unknown"
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(_lazy_dir()) | {name.removeprefix("rdpsym.") for name in _ALIASES} | {"__version__"})


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
