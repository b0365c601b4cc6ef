"""The records the built-ins are declared as: :class:`Mechanism`, :class:`Guarantee`, and :class:`LazyPair`.

A mechanism's RDP curve is sup over adjacent inputs of D_α(M(D)‖M(D')).  For
the built-in mechanisms that supremum is attained by one explicit pair, argued in
each factory's docstring, so a :class:`Mechanism` is that worst-case pair of
densities, the neighbouring relation it is worst over, the published form it is
proved against (Mironov 2017, Table II) and the source of the argument.  A
:class:`Guarantee` has no densities: it is a curve ε(α) stated in closed form
(ε-DP, zCDP, the exponential mechanism), with its source.

Both are records: SymPy expressions, parameters and citations, no functions, so
they compare by value and pickle.  A mechanism's pair is built on first use
(:class:`LazyPair`): the accounting of most built-ins never reads the densities,
and building and checking them costs more than the accounting itself.  Their work is done higher up:
``Mechanism.rdp`` by the derivation layer, ``.curve()`` by accounting, through
:mod:`rdpsym.foundations.operations` (this module imports only foundations
and laws).  The factories that build them are grouped by family above this
module; :mod:`rdpsym.laws.mechanisms` declares them all in one registry.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import sympy as sp

from rdpsym.foundations import operations
from rdpsym.foundations.record import Citation
from rdpsym.foundations.symbols import alpha
from rdpsym.laws.densities import Density
from rdpsym.laws.references import Reference


def _frozen(parameters: dict) -> tuple:
    """A parameters dict as a hashable value (name order kept: it is the factory's)."""
    return tuple(parameters.items())


class LazyPair(Sequence):
    """The pair (P, Q) of a mechanism, built by ``builder(*arguments)`` on first use and kept.

    It is a sequence of two densities (``P, Q = pair``, ``pair[0]``, ``pair[::-1]``).
    Two lazy pairs with the same builder and arguments are equal without being
    built; otherwise pairs compare by their densities.  It pickles as its
    builder and arguments (the builder is a module-level function).

    >>> from rdpsym.laws.pairs import _gaussian_pair
    >>> lazy = LazyPair(_gaussian_pair, sp.Integer(2), sp.Integer(1))
    >>> lazy.built, lazy == LazyPair(_gaussian_pair, sp.Integer(2), sp.Integer(1)), lazy.built
    (False, True, False)
    >>> P, Q = lazy
    >>> lazy.built, P.var
    (True, x)
    """

    __slots__ = ("arguments", "builder", "_pair")

    def __init__(self, builder: Callable[..., tuple], *arguments: object):
        self.builder = builder
        self.arguments = arguments
        self._pair: tuple | None = None

    @property
    def built(self) -> bool:
        """Whether the densities exist yet."""
        return self._pair is not None

    def _get(self) -> tuple:
        if self._pair is None:
            self._pair = tuple(self.builder(*self.arguments))
        return self._pair

    def __getitem__(self, index):
        return self._get()[index]

    def __len__(self) -> int:
        return 2

    def __iter__(self):
        return iter(self._get())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyPair):
            if self.builder is other.builder and self.arguments == other.arguments:
                return True
            return self._get() == other._get()
        if isinstance(other, tuple):
            return self._get() == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._get())  # as the tuple it equals

    def __reduce__(self):
        return (LazyPair, (self.builder, *self.arguments))

    def __repr__(self) -> str:
        if self._pair is not None:
            return repr(self._pair)
        return f"LazyPair({self.builder.__name__}{self.arguments})"


@dataclass(frozen=True)
class Mechanism:
    """A mechanism given by its worst-case pair of output densities (P, Q).

    ``neighbouring`` states the relation between inputs the pair is worst
    over; ``source`` cites the argument (and ``reference`` the published form
    the derivation is proved equal to, if any).  Compared and hashed by value;
    pickles.
    """

    name: str
    parameters: dict
    pair: tuple[Density, Density] | LazyPair
    reference: Reference | None = None
    worst_case: str = ""
    #: D_α(P‖Q) ≥ D_α(Q‖P) at every order, argued in the factory (adjacency is symmetric, so
    #: otherwise ``rdp`` and the curve take the larger of the two directions).  A Mechanism you build
    #: with ``symmetric=True`` asserts it: rdpsym derives D(P‖Q) alone and does not check the claim.
    symmetric: bool = False
    neighbouring: str = ""
    source: Citation | None = None

    def __hash__(self) -> int:
        # The pair is left out: hashing it would build it (equal mechanisms still hash alike).
        return hash((self.name, _frozen(self.parameters), self.reference, self.worst_case,
                     self.symmetric, self.neighbouring, self.source))

    def __repr__(self) -> str:
        """One line: the name and parameters (the pair: ``.pair``; the citation: ``.source``)."""
        shown = ", ".join(f"{k}={v}" for k, v in self.parameters.items())
        return f"Mechanism({self.name}({shown}))"

    def _repr_markdown_(self) -> str:
        """Jupyter: the mechanism, its parameters and its worst-case pair of densities, typeset."""
        def name(k: str) -> str:  # σ as \sigma, a word as upright text
            tex = sp.latex(sp.Symbol(k))
            return rf"\mathrm{{{k}}}" if tex == k and len(k) > 1 else tex

        shown = ", ".join(f"${name(k)} = {sp.latex(v)}$"
                          if isinstance(v, (int, sp.Basic)) else f"{k} = {v}" for k, v in self.parameters.items())
        lines = [f"**{self.name}** ({shown})"]
        if isinstance(self.pair, tuple) or getattr(self.pair, "built", False):
            P, Q = self.pair
            lines.append(f"worst-case pair: $P = {sp.latex(P.expr)}$, $Q = {sp.latex(Q.expr)}$")
        return "  \n".join(lines)

    def rdp(self, order: object = alpha) -> Any:  # a Derivation (rdpsym.derive), provided through the operations
        """The mechanism's RDP at ``order``: D_order(P‖Q) for the worst-case pair (a Derivation); where the factory
        has not argued that D(P‖Q) dominates D(Q‖P) (``symmetric`` false), the larger of the two directions.

        Provided by :mod:`rdpsym.derive.divergence` (see :data:`rdpsym.foundations.operations.rdp`).

        >>> import sympy as sp, rdpsym
        >>> s = sp.Symbol("sigma", positive=True)
        >>> d = rdpsym.gaussian(sigma=s).rdp()
        >>> d.result, d.status
        (alpha/(2*sigma**2), <Status.PROVED: 'proved'>)
        """
        return operations.rdp(self, order)

    def curve(self) -> Any:  # an RdpCurve (rdpsym.accounting), provided through the operations
        """This mechanism's RDP curve ε(α), for composition and conversion (an RdpCurve).

        Provided by :func:`rdpsym.accounting.curves.rdp_curve`.

        >>> import rdpsym
        >>> rdpsym.gaussian(sigma=2).curve().closed_form
        alpha/8
        """
        return operations.curve(self)


@dataclass(frozen=True)
class Guarantee:
    """A privacy guarantee given by its curve only (no output densities), e.g. zCDP.

    ``closed_form`` is ε(α) in :data:`rdpsym.alpha` (``None`` for a curve that
    accounting computes, such as a subsampled mechanism's); ``at_infinity`` its value
    at α = ∞ (``None``: the limit); ``convex`` says (α−1)·ε(α) is known convex;
    ``title`` is how the literature writes it (``1-DP``).  Compared and hashed
    by value; pickles.
    """

    name: str
    parameters: dict
    closed_form: sp.Expr | None
    at_infinity: sp.Expr | None = None
    source: Citation | None = None
    convex: bool = False
    title: str = ""
    #: The relation between inputs the guarantee is stated for, where it is not the usual one.
    neighbouring: str = ""

    def __hash__(self) -> int:
        return hash((self.name, _frozen(self.parameters), self.closed_form, self.at_infinity, self.source,
                     self.convex, self.title, self.neighbouring))

    def curve(self) -> Any:  # an RdpCurve (rdpsym.accounting), provided through the operations
        """This guarantee's RDP curve (an RdpCurve), by :func:`rdpsym.accounting.curves.rdp_curve`."""
        return operations.curve(self)


__all__ = ["Guarantee", "LazyPair", "Mechanism"]
