"""The registry of the built-in mechanisms and guarantees: every one declared once, under the name the CLI spells.

:data:`REGISTRY` declares each built-in with its factory, its parameters in
order (default, symbol, aliases) and whether it has densities to derive.  The
factories are grouped by family, each module citing the arguments for its
worst cases:

* :mod:`rdpsym.laws.mechanism_types` — the records (:class:`Mechanism`,
  :class:`Guarantee`, ``LazyPair``), and :mod:`rdpsym.laws.pairs` the
  worst-case pairs of densities they hold;
* :mod:`rdpsym.laws.additive_noise` — the Gaussian and the Laplace mechanism,
  on the line and in ℝ^d (Mironov 2017, Table II);
* :mod:`rdpsym.laws.discrete_mechanisms` — randomized response (binary and
  k-ary), the discrete Gaussian and the discrete Laplace;
* :mod:`rdpsym.laws.guarantees` — curves without densities (ε-DP, zCDP, the
  exponential mechanism, a non-private step);
* :mod:`rdpsym.laws.subsampled` — a mechanism run on a random sample, and
  DP-SGD's subsampled Gaussian.

This module sits above them all (it imports every factory to declare it), and
the public factories and records are importable from here as from ``rdpsym``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import sympy as sp

from rdpsym.laws.additive_noise import gaussian, laplace
from rdpsym.laws.discrete_mechanisms import (
    discrete_gaussian,
    discrete_laplace,
    k_randomized_response,
    randomized_response,
)
from rdpsym.laws.guarantees import exponential_mechanism, non_private, pure_dp, zcdp
from rdpsym.laws.mechanism_types import Guarantee, Mechanism
from rdpsym.laws.subsampled import poisson_sampled, sampled_gaussian, sampled_without_replacement


@dataclass(frozen=True)
class Parameter:
    """One parameter of a built-in: as the factory and ``--set`` name it, and as derivations print it.

    ``default`` is ``None`` for a required parameter.  ``symbol`` is the SymPy
    symbol a symbolic derivation uses and prints (Laplace's scale is the
    paper's λ); ``aliases`` are other names a user may type for it (the name
    the output prints, where that differs).
    """

    name: str
    symbol: sp.Symbol
    default: object = None
    aliases: tuple[str, ...] = ()

    @property
    def required(self) -> bool:
        return self.default is None


@dataclass(frozen=True)
class Declaration:
    """A built-in mechanism or guarantee: its factory, parameters in order, and what it offers.

    ``derive``: it has densities whose divergence is derived symbolically
    (``rdpsym derive``, Table II).  The subsampled Gaussian has a pair, but its
    curve is computed, not derived; guarantees have no densities.
    """

    name: str
    factory: Callable
    parameters: tuple[Parameter, ...]
    derive: bool = False

    @property
    def names(self) -> tuple[str, ...]:
        """The parameters' names, in the factory's order."""
        return tuple(p.name for p in self.parameters)

    @property
    def defaults(self) -> dict:
        """The optional parameters' default values, by name."""
        return {p.name: p.default for p in self.parameters if not p.required}

    @property
    def symbols(self) -> dict:
        """The symbol of each parameter, by name."""
        return {p.name: p.symbol for p in self.parameters}

    def parameter(self, name: str) -> Parameter | None:
        """The parameter a user's ``name`` means (its name or an alias), or None."""
        return next((p for p in self.parameters if name == p.name or name in p.aliases), None)

    def missing(self, given: Iterable[str], solved: str | None = None) -> list[str]:
        """The required parameters (no default) that ``given`` does not name (by name or alias), other than the
        one being ``solved`` for: what a calibration still needs a value for."""
        named = {p.name for p in map(self.parameter, given) if p is not None} | {solved}
        return [p.name for p in self.parameters if p.required and p.name not in named]


def _p(name: str, symbol: str, default: object = None, aliases: tuple[str, ...] = (), **assumptions) -> Parameter:
    return Parameter(name, sp.Symbol(symbol, **(assumptions or {"positive": True})), default, aliases)


_SIGMA = _p("sigma", "sigma")
_SENSITIVITY = _p("sensitivity", "Delta", 1, ("Delta",))

#: Every built-in, keyed by the name the command line spells, in the order it lists them.
REGISTRY: dict[str, Declaration] = {d.name: d for d in (
    Declaration("gaussian", gaussian, (_SIGMA, _SENSITIVITY), derive=True),
    # The scale is the paper's λ (Proposition 6 and Table II), whatever the sensitivity.
    Declaration("laplace", laplace, (_p("scale", "lambda", aliases=("lambda",)), _SENSITIVITY), derive=True),
    Declaration("randomized-response", randomized_response, (_p("p", "p"),), derive=True),
    Declaration("sampled-gaussian", sampled_gaussian, (_p("q", "q"), _SIGMA)),
    Declaration("pure-dp", pure_dp, (_p("epsilon", "epsilon"),)),
    Declaration("zcdp", zcdp, (_p("rho", "rho"), _p("xi", "xi", 0, nonnegative=True))),
    Declaration("exponential", exponential_mechanism, (_p("epsilon", "epsilon"),)),
    # CKS 2020: integer noise for integer-valued queries, so the sensitivity is a positive integer.
    Declaration("discrete-gaussian", discrete_gaussian,
                (_SIGMA, _p("sensitivity", "Delta", 1, ("Delta",), integer=True, positive=True))),
    Declaration("discrete-laplace", discrete_laplace,
                (_p("scale", "t", aliases=("t",)), _p("sensitivity", "Delta", 1, ("Delta",), integer=True,
                                                        positive=True))),
    Declaration("k-randomized-response", k_randomized_response,
                (_p("k", "k", integer=True, positive=True), _p("epsilon", "epsilon"))),
    Declaration("non-private", non_private, ()),
)}


__all__ = [
    "REGISTRY",
    "Declaration",
    "Guarantee",
    "Mechanism",
    "Parameter",
    "discrete_gaussian",
    "discrete_laplace",
    "exponential_mechanism",
    "gaussian",
    "k_randomized_response",
    "laplace",
    "non_private",
    "poisson_sampled",
    "pure_dp",
    "randomized_response",
    "sampled_gaussian",
    "sampled_without_replacement",
    "zcdp",
]
