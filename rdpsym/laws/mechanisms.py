"""Mechanisms and privacy guarantees, declared as data, and the registry of the built-ins.

A mechanism's RDP curve is sup over adjacent inputs of D_α(M(D)‖M(D')).  For
the mechanisms below that supremum is attained by one explicit pair, argued in
each factory's docstring, so a :class:`Mechanism` is that worst-case pair of
densities, the neighbouring relation it is worst over, the published form it is
proved against (Mironov 2017, Table II) and the source of the argument.  A
:class:`Guarantee` has no densities: it is a curve ε(α) stated in closed form
(ε-DP, zCDP, the exponential mechanism), with its source.

Both are records: SymPy expressions, parameters and citations, no functions, so
they compare by value and pickle.  Their work is done higher up:
``Mechanism.rdp`` by the derivation layer, ``.curve()`` by accounting, through
:mod:`rdpsym.foundations.operations` (this module imports only foundations,
engine and laws).

:data:`REGISTRY` declares every built-in once, under the name the command line
spells: its factory, its parameters in order (default, symbol, aliases) and
whether it has densities to derive.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sympy as sp

from rdpsym.foundations import operations
from rdpsym.foundations.errors import ParameterError, must, quoted
from rdpsym.foundations.reading import nonnegative_parameter, positive_parameter, probability_parameter
from rdpsym.foundations.record import MIRONOV_2017, Citation
from rdpsym.foundations.symbols import alpha
from rdpsym.laws.densities import Continuous, Density, Discrete
from rdpsym.laws.references import (
    Reference,
    gaussian_reference,
    laplace_reference,
    randomized_response_reference,
)

#: Sources cited by the declarations (Mironov 2017 is in rdpsym.foundations.record).
MTZ_2019 = Citation("Mironov, Talwar, Zhang 2019", "", "arXiv:1908.10530")
BUN_STEINKE_2016 = Citation("Bun, Steinke 2016", "", "arXiv:1605.02065")
#: Cesar–Rogers for ε-bounded range ⇒ ε²/8-zCDP; the exponential mechanism is ε-DP by McSherry–Talwar 2007.
CESAR_ROGERS_2021 = Citation("Cesar, Rogers 2021", "", "arXiv:2004.07223")

#: The output variable of the continuous built-ins.
x = sp.Symbol("x", real=True)


def _frozen(parameters: dict) -> tuple:
    """A parameters dict as a hashable value (name order kept: it is the factory's)."""
    return tuple(parameters.items())


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
    pair: tuple[Density, Density]
    reference: Reference | None = None
    worst_case: str = ""
    #: D_α(P‖Q) ≥ D_α(Q‖P) at every order, argued in the factory (adjacency is symmetric, so
    #: otherwise a curve takes the larger of the two directions).
    symmetric: bool = False
    neighbouring: str = ""
    source: Citation | None = None

    def __hash__(self) -> int:
        return hash((self.name, _frozen(self.parameters), self.pair, self.reference, self.worst_case,
                     self.symmetric, self.neighbouring, self.source))

    def rdp(self, order: object = alpha) -> Any:  # a Derivation (rdpsym.derive), provided through the operations
        """The mechanism's RDP at ``order``: D_order(P‖Q) for the worst-case pair (a Derivation).

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

    ``closed_form`` is ε(α) in :data:`rdpsym.alpha`; ``at_infinity`` its value
    at α = ∞ (``None``: the limit); ``convex`` says (α−1)·ε(α) is known convex;
    ``title`` is how the literature writes it (``1-DP``).  Compared and hashed
    by value; pickles.
    """

    name: str
    parameters: dict
    closed_form: sp.Expr
    at_infinity: sp.Expr | None = None
    source: Citation | None = None
    convex: bool = False
    title: str = ""

    def __hash__(self) -> int:
        return hash((self.name, _frozen(self.parameters), self.closed_form, self.at_infinity, self.source,
                     self.convex, self.title))

    def curve(self) -> Any:  # an RdpCurve (rdpsym.accounting), provided through the operations
        """This guarantee's RDP curve (an RdpCurve), by :func:`rdpsym.accounting.curves.rdp_curve`."""
        return operations.curve(self)


# ---------------------------------------------------------------- mechanisms with a worst-case pair
def gaussian(sigma: object, sensitivity: object = 1) -> Mechanism:
    """The Gaussian mechanism f(D) + N(0, σ²) for f with ℓ₂-sensitivity Δ.

    Worst case: by translation invariance every adjacent pair is
    (N(0,σ²), N(μ,σ²)) with |μ| ≤ Δ (after a rotation, in one dimension), and
    D_α = αμ²/(2σ²) increases with |μ|, so μ = Δ is the worst case
    (Mironov 2017, Proposition 7).
    """
    s = positive_parameter(sigma, "sigma")
    d = positive_parameter(sensitivity, "sensitivity")
    P = Continuous(sp.exp(-(x**2) / (2 * s**2)) / sp.sqrt(2 * sp.pi * s**2), x)
    Q = Continuous(sp.exp(-((x - d) ** 2) / (2 * s**2)) / sp.sqrt(2 * sp.pi * s**2), x)
    return Mechanism("gaussian", {"sigma": s, "sensitivity": d}, (P, Q), gaussian_reference(s, d),
                     "N(0, σ²) vs N(Δ, σ²): the divergence grows with the shift, which is at most Δ", True,
                     "inputs D, D' with ‖f(D) − f(D')‖₂ ≤ Δ (ℓ₂-sensitivity Δ)", MIRONOV_2017.at("Proposition 7"))


def laplace(scale: object, sensitivity: object = 1) -> Mechanism:
    """The Laplace mechanism f(D) + Λ(0, b) for f with ℓ₁-sensitivity Δ.

    Worst case: the pair is (Λ(0,b), Λ(μ,b)) with |μ| ≤ Δ; the divergence
    depends on μ/b only and grows with |μ| (Mironov 2017, Proposition 6 with
    λ = b/Δ), so μ = Δ is the worst case.
    """
    b = positive_parameter(scale, "scale")
    d = positive_parameter(sensitivity, "sensitivity")
    P = Continuous(sp.exp(-sp.Abs(x) / b) / (2 * b), x)
    Q = Continuous(sp.exp(-sp.Abs(x - d) / b) / (2 * b), x)
    return Mechanism("laplace", {"scale": b, "sensitivity": d}, (P, Q), laplace_reference(b, d),
                     "Λ(0, b) vs Λ(Δ, b): the divergence grows with the shift, which is at most Δ", True,
                     "inputs D, D' with |f(D) − f(D')| ≤ Δ (ℓ₁-sensitivity Δ)", MIRONOV_2017.at("Proposition 6"))


def randomized_response(p: object) -> Mechanism:
    """Binary randomized response: report the true bit with probability p.

    Worst case: there are only two inputs, whose outputs are (p, 1−p) and
    (1−p, p); the divergence is the same in both directions by symmetry
    (Mironov 2017, Proposition 5).
    """
    q = probability_parameter(p, "p")
    P = Discrete({1: q, 0: 1 - q})
    Q = Discrete({1: 1 - q, 0: q})
    return Mechanism("randomized-response", {"p": q}, (P, Q), randomized_response_reference(q),
                     "the two inputs' output laws (p, 1−p) and (1−p, p)", True,
                     "the two inputs of one bit, 0 and 1", MIRONOV_2017.at("Proposition 5"))


def sampled_gaussian(q: object, sigma: object) -> Mechanism:
    """DP-SGD's Poisson-subsampled Gaussian: sampling rate q, noise multiplier σ (sensitivity 1).

    Worst case (Mironov, Talwar, Zhang 2019, Thm 4 and Sec. 3): the pair
    (1−q)·N(0,σ²) + q·N(1,σ²) against N(0,σ²).  Its curve is not derived from
    the pair (the mixture has no closed form) but computed by
    :mod:`rdpsym.accounting.sampled_gaussian`.

    At order 2 the curve is log(1 + q²(e^{1/σ²} − 1)) (MTZ 2019, Sec. 3.3), which
    the computed value matches:

    >>> import mpmath, rdpsym
    >>> c = rdpsym.sampled_gaussian(q=sp.Rational(1, 100), sigma=sp.Rational(11, 10)).curve()
    >>> print(c.value(2, dps=20))
    0.00012851008160516182805
    >>> with mpmath.workdps(30):
    ...     print(mpmath.nstr(mpmath.log(1 + mpmath.mpf("0.01")**2 * mpmath.expm1(1 / mpmath.mpf("1.21"))), 20))
    0.00012851008160516182805
    """
    qq = probability_parameter(q, "q", closed=True)
    s = positive_parameter(sigma, "sigma")
    pair = _sampled_gaussian_pair(qq, s)
    # symmetric: MTZ 2019 (Sec. 3.3) show this direction dominates the reverse one, the
    # convention of every accountant built on it.
    return Mechanism("sampled-gaussian", {"q": qq, "sigma": s}, pair, None,
                     "(1−q)N(0,σ²) + qN(1,σ²) vs N(0,σ²) (Mironov–Talwar–Zhang 2019)", True,
                     "add or remove one record, each sampled with probability q, of a sum of terms of ℓ₂ norm "
                     "≤ 1", MTZ_2019.at("Theorem 4 and Section 3.3"))


@functools.lru_cache(maxsize=64)
def _sampled_gaussian_pair(q: sp.Expr, s: sp.Expr):
    """The worst-case pair as checked densities (memoised: checking them costs more than accounting)."""
    n0 = sp.exp(-(x**2) / (2 * s**2)) / sp.sqrt(2 * sp.pi * s**2)
    n1 = sp.exp(-((x - 1) ** 2) / (2 * s**2)) / sp.sqrt(2 * sp.pi * s**2)
    return (Continuous((1 - q) * n0 + q * n1, x), Continuous(n0, x))


# ---------------------------------------------------------------- guarantees (a curve, no densities)
def pure_dp(epsilon: object, bound: str = "bun-steinke") -> Guarantee:
    """An ε-DP guarantee as an RDP curve.

    ``bound="bun-steinke"`` (default) is exact: D_α ≤ 1/(α−1)·log((sinh(αε) −
    sinh((α−1)ε))/sinh ε), attained by randomized response with p = e^ε/(1+e^ε)
    (Bun–Steinke 2016, Prop 3.3's proof).  ``"mironov-lemma1"`` is 2αε²
    (Mironov 2017, Lemma 1), kept to compare.  α = ∞ gives ε (Mironov §III).

    >>> float(pure_dp(1).curve().value(2, dps=15))  # doctest: +ELLIPSIS
    0.73532566405...
    """
    e = positive_parameter(epsilon, "epsilon")
    if bound == "bun-steinke":
        expr = sp.log((sp.sinh(alpha * e) - sp.sinh((alpha - 1) * e)) / sp.sinh(e)) / (alpha - 1)
        source = BUN_STEINKE_2016.at("Proposition 3.3")
    elif bound == "mironov-lemma1":
        expr = 2 * alpha * e**2
        source = MIRONOV_2017.at("Lemma 1")
    else:
        raise ParameterError(must("bound", "'bun-steinke' or 'mironov-lemma1'", quoted(bound)))
    # Both forms have (α−1)·ε(α) convex: the sinh form is a divergence (randomized response),
    # and 2αε²(α−1) is a convex quadratic.
    return Guarantee("pure-dp", {"epsilon": e}, expr, e, source, True, f"{e}-DP")


def zcdp(rho: object, xi: object = 0) -> Guarantee:
    """(ξ, ρ)-zCDP: D_α ≤ ξ + ρα for every α > 1 (Bun–Steinke 2016, Def 1.1)."""
    r = positive_parameter(rho, "rho")
    z = nonnegative_parameter(xi, "xi")
    return Guarantee("zcdp", {"rho": r, "xi": z}, z + r * alpha, sp.oo, BUN_STEINKE_2016.at("Definition 1.1"), True,
                     f"({z},{r})-zCDP")


def exponential_mechanism(epsilon: object) -> Guarantee:
    """The exponential mechanism p(r) ∝ exp(ε·u(x,r)/(2Δu)): ε-DP and ε-bounded-range.

    Its curve is min(pure-DP curve, ε²α/8): both bounds hold (McSherry–Talwar
    2007 for ε-DP; Cesar–Rogers 2021, Lemma 3.2 for ε-BR ⇒ ε²/8-zCDP).
    """
    e = positive_parameter(epsilon, "epsilon")
    sinh_form = pure_dp(e).closed_form
    return Guarantee("exponential", {"epsilon": e}, sp.Min(sinh_form, e**2 * alpha / 8), e,
                     CESAR_ROGERS_2021.at("Lemma 3.2"), False, f"exponential({e})")


def pure_dp_as_randomized_response(epsilon: object) -> Mechanism:
    """The worst case of ε-DP for RDP: randomized response with p = e^ε/(1+e^ε)."""
    e = positive_parameter(epsilon, "epsilon")
    return randomized_response(sp.exp(e) / (1 + sp.exp(e)))


# ---------------------------------------------------------------- the registry
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
)}


__all__ = [
    "REGISTRY",
    "Declaration",
    "Guarantee",
    "Mechanism",
    "Parameter",
    "exponential_mechanism",
    "gaussian",
    "laplace",
    "pure_dp",
    "pure_dp_as_randomized_response",
    "randomized_response",
    "sampled_gaussian",
    "zcdp",
]
