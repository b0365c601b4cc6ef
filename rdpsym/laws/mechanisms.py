"""Mechanisms and privacy guarantees, declared as data, and the registry of the built-ins.

A mechanism's RDP curve is sup over adjacent inputs of D_α(M(D)‖M(D')).  For
the mechanisms below that supremum is attained by one explicit pair, argued in
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
:mod:`rdpsym.foundations.operations` (this module imports only foundations,
engine and laws).

:data:`REGISTRY` declares every built-in once, under the name the command line
spells: its factory, its parameters in order (default, symbol, aliases) and
whether it has densities to derive.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import sympy as sp

from rdpsym.foundations import operations
from rdpsym.foundations.errors import DensityError, ParameterError, must, quoted
from rdpsym.foundations.reading import (
    exact,
    integer,
    nonnegative_parameter,
    positive_parameter,
    probability_parameter,
)
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
#: The discrete Gaussian N_ℤ(μ, σ²) and the discrete Laplace Lap_ℤ(t) (Canonne, Kamath, Steinke, NeurIPS 2020).
CKS_2020 = Citation("Canonne, Kamath, Steinke 2020", "", "arXiv:2004.00010")
#: Poisson-subsampled RDP of any mechanism (Zhu, Wang, ICML 2019).
ZHU_WANG_2019 = Citation("Zhu, Wang 2019", "", "http://proceedings.mlr.press/v97/zhu19c.html")
#: Subsampling without replacement, the substitution relation (Wang, Balle, Kasiviswanathan, AISTATS 2019).
WBK_2019 = Citation("Wang, Balle, Kasiviswanathan 2019", "", "arXiv:1808.00087")
#: k-ary randomized response, and the dominance of randomized response among ε-DP pairs.
KAIROUZ_OH_VISWANATH_2016 = Citation("Kairouz, Oh, Viswanath 2016", "", "arXiv:1407.1338")

#: The output variable of the continuous built-ins.
x = sp.Symbol("x", real=True)


def _frozen(parameters: dict) -> tuple:
    """A parameters dict as a hashable value (name order kept: it is the factory's)."""
    return tuple(parameters.items())


class LazyPair(Sequence):
    """The pair (P, Q) of a mechanism, built by ``builder(*arguments)`` on first use and kept.

    It is a sequence of two densities (``P, Q = pair``, ``pair[0]``, ``pair[::-1]``).
    Two lazy pairs with the same builder and arguments are equal without being
    built; otherwise pairs compare by their densities.  It pickles as its
    builder and arguments (the builder is a module-level function).

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
    #: otherwise a curve takes the larger of the two directions).
    symmetric: bool = False
    neighbouring: str = ""
    source: Citation | None = None

    def __hash__(self) -> int:
        # The pair is left out: hashing it would build it (equal mechanisms still hash alike).
        return hash((self.name, _frozen(self.parameters), self.reference, self.worst_case,
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


# ---------------------------------------------------------------- mechanisms with a worst-case pair
def gaussian(sigma: object, sensitivity: object = 1, dimension: object = 1) -> Mechanism:
    """The Gaussian mechanism f(D) + N(0, σ²) for f with ℓ₂-sensitivity Δ.

    Worst case: by translation invariance every adjacent pair is
    (N(0,σ²), N(μ,σ²)) with |μ| ≤ Δ (after a rotation, in one dimension), and
    D_α = αμ²/(2σ²) increases with |μ|, so μ = Δ is the worst case
    (Mironov 2017, Proposition 7).  ``dimension=d`` (a number or a positive integer
    symbol): f(D) ∈ ℝ^d and noise N(0, σ²I_d), its worst case over the ℓ₂ ball derived
    (:func:`rdpsym.laws.multivariate.gaussian_mechanism`).
    """
    if not (isinstance(dimension, int) and dimension == 1):
        from rdpsym.laws.multivariate import gaussian_mechanism

        return gaussian_mechanism(sigma, sensitivity, dimension)
    s = positive_parameter(sigma, "sigma")
    d = positive_parameter(sensitivity, "sensitivity")
    return Mechanism("gaussian", {"sigma": s, "sensitivity": d}, LazyPair(_gaussian_pair, s, d),
                     gaussian_reference(s, d),
                     "N(0, σ²) vs N(Δ, σ²): the divergence grows with the shift, which is at most Δ", True,
                     "inputs D, D' with ‖f(D) − f(D')‖₂ ≤ Δ (ℓ₂-sensitivity Δ)", MIRONOV_2017.at("Proposition 7"))


def laplace(scale: object, sensitivity: object = 1, dimension: object = 1) -> Mechanism:
    """The Laplace mechanism f(D) + Λ(0, b) for f with ℓ₁-sensitivity Δ.

    Worst case: the pair is (Λ(0,b), Λ(μ,b)) with |μ| ≤ Δ; the divergence
    depends on μ/b only and grows with |μ| (Mironov 2017, Proposition 6 with
    λ = b/Δ), so μ = Δ is the worst case.  ``dimension=d``: f(D) ∈ ℝ^d with
    independent Λ(0, b) coordinates, its worst case over the ℓ₁ ball derived
    (:func:`rdpsym.laws.multivariate.laplace_mechanism`).
    """
    if not (isinstance(dimension, int) and dimension == 1):
        from rdpsym.laws.multivariate import laplace_mechanism

        return laplace_mechanism(scale, sensitivity, dimension)
    b = positive_parameter(scale, "scale")
    d = positive_parameter(sensitivity, "sensitivity")
    return Mechanism("laplace", {"scale": b, "sensitivity": d}, LazyPair(_laplace_pair, b, d), laplace_reference(b, d),
                     "Λ(0, b) vs Λ(Δ, b): the divergence grows with the shift, which is at most Δ", True,
                     "inputs D, D' with |f(D) − f(D')| ≤ Δ (ℓ₁-sensitivity Δ)", MIRONOV_2017.at("Proposition 6"))


def randomized_response(p: object) -> Mechanism:
    """Binary randomized response: report the true bit with probability p.

    Worst case: there are only two inputs, whose outputs are (p, 1−p) and
    (1−p, p); the divergence is the same in both directions by symmetry
    (Mironov 2017, Proposition 5).
    """
    q = probability_parameter(p, "p")
    return Mechanism("randomized-response", {"p": q}, LazyPair(_randomized_response_pair, q),
                     randomized_response_reference(q),
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
    pair = LazyPair(_sampled_gaussian_pair, qq, s)
    # symmetric: MTZ 2019 (Sec. 3.3) show this direction dominates the reverse one, the
    # convention of every accountant built on it.
    return Mechanism("sampled-gaussian", {"q": qq, "sigma": s}, pair, None,
                     "(1−q)N(0,σ²) + qN(1,σ²) vs N(0,σ²) (Mironov–Talwar–Zhang 2019)", True,
                     "add or remove one record, each sampled with probability q, of a sum of terms of ℓ₂ norm "
                     "≤ 1", MTZ_2019.at("Theorem 4 and Section 3.3"))


def _gaussian_pair(s: sp.Expr, d: sp.Expr) -> tuple[Density, Density]:
    P = Continuous(sp.exp(-(x**2) / (2 * s**2)) / sp.sqrt(2 * sp.pi * s**2), x)
    Q = Continuous(sp.exp(-((x - d) ** 2) / (2 * s**2)) / sp.sqrt(2 * sp.pi * s**2), x)
    return P, Q


def _laplace_pair(b: sp.Expr, d: sp.Expr) -> tuple[Density, Density]:
    P = Continuous(sp.exp(-sp.Abs(x) / b) / (2 * b), x)
    Q = Continuous(sp.exp(-sp.Abs(x - d) / b) / (2 * b), x)
    return P, Q


def _randomized_response_pair(q: sp.Expr) -> tuple[Density, Density]:
    return Discrete({1: q, 0: 1 - q}), Discrete({1: 1 - q, 0: q})


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


def bounded_range_form(epsilon: sp.Expr) -> sp.Expr:
    """The largest D_α(P‖Q) over ε-bounded-range pairs (Cesar–Rogers 2021), exactly.

    ε-bounded range: log(P/Q) takes its values in [t − ε, t] for one t.  For α > 1 the
    moment E_Q[(P/Q)^α] is the mean of a convex function of L = P/Q under E_Q[L] = 1, so
    among laws of L on [e^{t−ε}, e^t] its largest value is at the two ends: a Bernoulli pair
    with Q-mass q on the upper end and e^t = 1/(q + (1 − q)e^{−ε}).  With a = e^{−αε} and
    b = e^{−ε} the moment is (a + q(1 − a))/(b + q(1 − b))^α, whose only stationary point
    q* = (α(1 − b)a − (1 − a)b)/((1 − α)(1 − a)(1 − b)) lies in (0, 1) and gives

        D_α = [log((b − a)/((α − 1)(1 − b))) + α·log((α − 1)(1 − a)/(α(b − a)))]/(α − 1).

    Attained by that pair, so no bound over ε-BR mechanisms is smaller; it is below both
    ε²α/8 (Cesar–Rogers: ε-BR ⇒ ε²/8-zCDP) and the ε-DP sinh form.  α → 1 gives their KL bound
    ε/(1 − e^{−ε}) − 1 − log(ε/(1 − e^{−ε})), α → ∞ gives ε.  The claims
    ``br-exact-rdp`` and ``br-below-known`` (proofs/beyond/bounded_range.py) check it on
    random ε-BR pairs and against both bounds.
    """
    a, b = sp.exp(-alpha * epsilon), sp.exp(-epsilon)
    return (sp.log((b - a) / ((alpha - 1) * (1 - b)))
            + alpha * sp.log((alpha - 1) * (1 - a) / (alpha * (b - a)))) / (alpha - 1)


def exponential_mechanism(epsilon: object) -> Guarantee:
    """The exponential mechanism p(r) ∝ exp(ε·u(x,r)/(2Δu)): ε-DP and ε-bounded-range.

    Its curve is the exact RDP of ε-bounded range (:func:`bounded_range_form`), which is
    tighter than both min(ε-DP sinh form, ε²α/8) and autodp's pure-DP curve; its KL
    (α = 1) is Cesar–Rogers' ε/(1 − e^{−ε}) − 1 − log(ε/(1 − e^{−ε})).

    >>> float(exponential_mechanism(1).curve().value(2, dps=15))  # doctest: +ELLIPSIS
    0.24022901391...
    """
    e = positive_parameter(epsilon, "epsilon")
    # (α−1)·ε(α) is convex: a supremum of cumulant generating functions (one per Bernoulli pair).
    source = CESAR_ROGERS_2021.at("ε-bounded range; its exact curve derived in bounded_range_form")
    return Guarantee("exponential", {"epsilon": e}, bounded_range_form(e), e, source, True, f"exponential({e})")


def pure_dp_as_randomized_response(epsilon: object) -> Mechanism:
    """The worst case of ε-DP for RDP: randomized response with p = e^ε/(1+e^ε)."""
    e = positive_parameter(epsilon, "epsilon")
    return randomized_response(sp.exp(e) / (1 + sp.exp(e)))


# ---------------------------------------------------------------- discrete noise and k-ary randomized response
#: The outcome variable of the discrete built-ins.
k_ = sp.Symbol("k", integer=True)


def _positive_integer(value: object, name: str, why: str) -> sp.Expr:
    """A positive integer, or a Symbol declared integer and positive (``why``: what needs the integer)."""
    v = exact(value, name)
    if v.is_number:
        if not (v.is_Integer and v >= 1):
            raise ParameterError(must(name, f"a positive integer ({why})", v))
        return v
    if not (v.is_integer and v.is_positive):
        raise ParameterError(must(name, f"a positive integer ({why}), or a Symbol declared integer and positive", v))
    return v


def discrete_gaussian(sigma: object, sensitivity: object = 1, bound: str = "exact") -> Mechanism | Guarantee:
    """The discrete Gaussian mechanism f(D) + N_ℤ(0, σ²) for an integer-valued f with sensitivity Δ.

    N_ℤ(μ, σ²) has pmf ∝ exp(−(k − μ)²/(2σ²)) on ℤ (Canonne, Kamath, Steinke
    2020).  With θ(t) = Σ_{k∈ℤ} exp(−(k − t)²/(2σ²)) the shift k → k − μ
    leaves the normaliser θ(0) unchanged, and completing the square gives

        D_α(N_ℤ(0,σ²) ‖ N_ℤ(Δ,σ²)) = αΔ²/(2σ²) + log(θ((1−α)Δ)/θ(0))/(α − 1),

    exactly: θ(t) ≤ θ(0), so it is at most the continuous Gaussian's αΔ²/(2σ²),
    with equality when (α − 1)Δ is an integer (every integer order).  D_1 =
    Δ²/(2σ²); D_∞ = ∞.

    ``bound="exact"`` (default) is this Mechanism: its curve evaluates the
    theta sums in certified balls (:mod:`rdpsym.accounting.discrete`).
    ``bound="continuous"`` is the Guarantee αΔ²/(2σ²), the bound CKS 2020 prove
    (½(Δ/σ)²-concentrated DP), which the exact curve never exceeds.

    Worst case: adjacent inputs give N_ℤ(c, σ²) and N_ℤ(c + μ, σ²) with an
    integer |μ| ≤ Δ; by translation and reflection the pair is (N_ℤ(0), N_ℤ(μ)).
    The pmf is log-concave, so the shifts have monotone likelihood ratios and
    (N_ℤ(0), N_ℤ(μ)) is a post-processing of (N_ℤ(0), N_ℤ(Δ)) (their trade-off
    functions are ordered): μ = Δ dominates every adjacent pair, for every
    divergence, subsampled ones included.
    """
    s = positive_parameter(sigma, "sigma")
    d = _positive_integer(sensitivity, "sensitivity", "the discrete Gaussian adds integer noise to an integer query")
    if bound == "continuous":
        return Guarantee("discrete-gaussian", {"sigma": s, "sensitivity": d}, alpha * d**2 / (2 * s**2), sp.oo,
                         CKS_2020.at("concentrated DP of the discrete Gaussian"), True,
                         f"discrete Gaussian(σ={s}, Δ={d}), continuous bound")
    if bound != "exact":
        raise ParameterError(must("bound", "'exact' or 'continuous'", repr(bound)))
    return Mechanism("discrete-gaussian", {"sigma": s, "sensitivity": d}, LazyPair(_discrete_gaussian_pair, s, d),
                     None, "N_ℤ(0, σ²) vs N_ℤ(Δ, σ²): the shifts are ordered (log-concave pmf), Δ is the largest",
                     True, "inputs D, D' with |f(D) − f(D')| ≤ Δ for an integer-valued f (Δ a positive integer)",
                     CKS_2020.at("the discrete Gaussian N_ℤ(μ, σ²)"))


def _discrete_gaussian_pair(s: sp.Expr, d: sp.Expr) -> tuple[Density, Density]:
    """N_ℤ(0, σ²) and N_ℤ(Δ, σ²); the normaliser θ(0) has no closed form and is left as its sum.

    Not checked by summation (each pmf is a shifted Gaussian over its own total, which sums to 1 by
    construction); the curve is computed from the theta sums, not from these densities.
    """
    j = sp.Symbol("j", integer=True)
    theta = sp.Sum(sp.exp(-(j**2) / (2 * s**2)), (j, -sp.oo, sp.oo))
    P = Discrete(sp.exp(-(k_**2) / (2 * s**2)) / theta, k_, support=sp.Range(-sp.oo, sp.oo), check=False)
    Q = Discrete(sp.exp(-((k_ - d) ** 2) / (2 * s**2)) / theta, k_, support=sp.Range(-sp.oo, sp.oo), check=False)
    return P, Q


def discrete_laplace(scale: object, sensitivity: object = 1) -> Mechanism:
    """The discrete Laplace mechanism f(D) + Lap_ℤ(t), pmf ∝ exp(−|k|/t) on ℤ (CKS 2020's Lap_ℤ(t)).

    With r = e^{−1/t} the normaliser is (1 + r)/(1 − r).  The likelihood ratio
    P/Q of the pair (Lap_ℤ(0), Lap_ℤ(Δ)) is e^{−Δ/t} for k ≤ 0, e^{Δ/t} for
    k ≥ Δ and e^{(2k−Δ)/t} in between: finitely many values, so every
    divergence of the pair (and of its subsampled mixtures) is a finite sum,
    evaluated exactly in balls (:mod:`rdpsym.accounting.discrete`).  It is
    Δ/t-DP (D_∞ = Δ/t).

    Worst case: the pmf is log-concave, so as for :func:`discrete_gaussian`
    the shift Δ dominates every smaller integer shift, for every divergence.
    """
    t = positive_parameter(scale, "scale")
    d = _positive_integer(sensitivity, "sensitivity", "the discrete Laplace adds integer noise to an integer query")
    return Mechanism("discrete-laplace", {"scale": t, "sensitivity": d}, LazyPair(_discrete_laplace_pair, t, d),
                     None, "Lap_ℤ(0, t) vs Lap_ℤ(Δ, t): the shifts are ordered (log-concave pmf), Δ is the largest",
                     True, "inputs D, D' with |f(D) − f(D')| ≤ Δ for an integer-valued f (Δ a positive integer)",
                     CKS_2020.at("the discrete Laplace Lap_ℤ(t)"))


def _discrete_laplace_pair(t: sp.Expr, d: sp.Expr) -> tuple[Density, Density]:
    r = sp.exp(-1 / t)
    norm = (1 - r) / (1 + r)
    P = Discrete(norm * sp.exp(-sp.Abs(k_) / t), k_, support=sp.Range(-sp.oo, sp.oo))
    Q = Discrete(norm * sp.exp(-sp.Abs(k_ - d) / t), k_, support=sp.Range(-sp.oo, sp.oo))
    return P, Q


def k_randomized_response(k: object, epsilon: object = None, *, noise: object = None,
                          relation: str = "replace-one") -> Mechanism:
    """k-ary randomized response: report the true value with probability p = e^ε/(e^ε + k − 1), else each
    other value with probability 1/(e^ε + k − 1) (Kairouz, Oh, Viswanath 2016).

    ``noise=r`` is dp_accounting's convention instead of ``epsilon``: with
    probability r answer uniformly at random among the k values, so the true
    value has probability 1 − r + r/k and e^ε = k/r − k + 1 (r = 0 is no noise,
    ε = ∞; r = 1 is no information, ε = 0).  The mechanism is stored by ε.

    ``relation="replace-one"``: the adjacent inputs are two of the k values; the
    pair is their two rows.  Outputs other than the two values have likelihood
    ratio 1 and are merged into one outcome (a sufficient statistic: no
    divergence changes).  Every pair of distinct values is this pair up to a
    relabelling, so it dominates.  k = 2 is :func:`randomized_response` with
    p = e^ε/(1 + e^ε).  ``relation="replace-special"`` (dp_accounting's
    REPLACE_SPECIAL): one input is a special value answered uniformly at
    random; the pair is a row against the uniform law, not symmetric (the curve
    takes the larger direction).  k = 1 has a single value: nothing to hide, ε(α) = 0.
    """
    kk = integer(k, "k", minimum=1)
    if (epsilon is None) == (noise is None):
        raise ParameterError(must("k_randomized_response", "given exactly one of epsilon and noise",
                                  "both" if epsilon is not None else "neither"))
    if noise is not None:
        r = probability_parameter(noise, "noise", closed=True)
        e = sp.oo if r == 0 else sp.log(kk / r - kk + 1)
    else:
        e = exact(epsilon, "epsilon")
        if e != sp.oo:
            e = nonnegative_parameter(e, "epsilon")
    if relation not in ("replace-one", "replace-special"):
        raise ParameterError(must("relation", "'replace-one' or 'replace-special'", repr(relation)))
    one = relation == "replace-one"
    special = "replace one value by a special value whose answer is uniform (dp_accounting's REPLACE_SPECIAL)"
    return Mechanism("k-randomized-response", {"k": sp.Integer(kk), "epsilon": e},
                     LazyPair(_k_randomized_response_pair, sp.Integer(kk), e, relation), None,
                     "the rows of two distinct values" if one else "a value's row vs the special value's uniform row",
                     one, "replace one value by another (any two of the k values)" if one else special,
                     KAIROUZ_OH_VISWANATH_2016.at("k-ary randomized response"))


def _k_randomized_response_pair(k: sp.Integer, e: sp.Expr, relation: str) -> tuple[Density, Density]:
    """The two rows as finite laws: outcome 0 the true value, 1 the other value (or the k − 1 others), 2 the rest."""
    if k == 1:
        return Discrete({0: sp.S.One}), Discrete({0: sp.S.One})
    if e == sp.oo:
        p, b = sp.S.One, sp.S.Zero
    else:
        p, b = sp.exp(e) / (sp.exp(e) + k - 1), 1 / (sp.exp(e) + k - 1)
    if relation == "replace-special":
        return Discrete({0: p, 1: (k - 1) * b}), Discrete({0: sp.S.One / k, 1: (k - 1) / k})
    rest = {2: (k - 2) * b} if k > 2 else {}
    return Discrete({0: p, 1: b, **rest}), Discrete({0: b, 1: p, **rest})


def non_private() -> Guarantee:
    """A non-private step (dp_accounting's NonPrivateDpEvent): ε(α) = ∞ at every order, D_∞ = ∞.

    Its curve is ∞ at every order with the reason; it absorbs any composition
    it is part of, and no conversion gives a finite ε.
    """
    return Guarantee("non-private", {}, sp.oo, sp.oo, None, False, "non-private")


# ---------------------------------------------------------------- subsampling: a mechanism run on a random sample
def _inner(mechanism: object, what: str) -> Mechanism | Guarantee:
    if not isinstance(mechanism, (Mechanism, Guarantee)):
        valid = "an rdpsym Mechanism or Guarantee (e.g. rdpsym.laplace(1))"
        raise ParameterError(must(f"the mechanism of {what}", valid, type(mechanism).__name__))
    return mechanism


def _relation(mechanism: Mechanism | Guarantee) -> str:
    return getattr(mechanism, "neighbouring", "") or "the relation of its guarantee"


def poisson_sampled(mechanism: Mechanism | Guarantee, q: object) -> Mechanism | Guarantee:
    """The mechanism run on a Poisson sample: each record enters independently with probability q.

    Relation: add or remove one record.  If the inner mechanism's adjacent
    outputs (on a sample with and without the record) are the pair (P, Q),
    the two outputs of the subsampled mechanism are (1−q)Q + qP and Q, in
    both orders.  The curve (:mod:`rdpsym.accounting.subsampling`) is, order
    by order, an exact value or a certified upper bound, and says which:

    * the Gaussian is delegated to :func:`sampled_gaussian` (Mironov, Talwar,
      Zhang 2019: exact at every order), with σ/Δ as its noise multiplier;
    * integer orders, removal direction D_α((1−q)Q + qP ‖ Q): the binomial
      expansion E_Q[((1−q) + qP/Q)^α] = Σ_l C(α,l)(1−q)^{α−l} q^l E_Q[(P/Q)^l]
      with the moments from the inner curve, e^{(l−1)ε(l)}: exact when one pair
      attains the inner curve at every order, and an upper bound for every
      adjacent pair otherwise (the coefficients are positive; Zhu–Wang 2019);
    * the addition direction D_α(Q ‖ (1−q)Q + qP): exact where the inner pair
      has finitely many likelihood ratios and dominates (randomized response,
      k-ary randomized response, discrete Laplace, ε-DP) and for the discrete
      Gaussian (a sum over ℤ), not above the removal direction for the Laplace
      mechanism (Zhu–Wang 2019, Theorem 8's condition), and otherwise bounded
      (see the module);
    * fractional orders: exact where the loss law is finite and for the
      discrete Gaussian; otherwise the
      chord of the convex (α − 1)·ε(α) between neighbouring integers (Zhu–Wang
      2019; Wang–Balle–Kasiviswanathan 2019, Corollary 10);
    * every order is also capped by ε-DP amplification, log(1 + q(e^{ε_∞} − 1)).

    A :class:`Guarantee` (a curve without a pair) is accepted too and gets the
    bounds that hold for every mechanism with its curve; an ε-DP guarantee is
    subsampled as randomized response with p = e^ε/(1 + e^ε), which dominates
    every ε-DP pair (Kairouz, Oh, Viswanath).
    """
    inner = _inner(mechanism, "poisson_sampled")
    qq = probability_parameter(q, "q", closed=True)
    if isinstance(inner, Mechanism) and inner.name == "gaussian" and inner == gaussian(**inner.parameters):
        # MTZ's analysis is for sensitivity 1; σ/Δ is the same mechanism up to scaling the output.
        return sampled_gaussian(qq, inner.parameters["sigma"] / inner.parameters["sensitivity"])
    relation = (f"add or remove one record; each record is in the sample independently with probability q, and "
                f"the inner mechanism runs on the sample (inner relation: {_relation(inner)})")
    parameters = {"q": qq, "mechanism": inner}
    if isinstance(inner, Guarantee):
        return Guarantee("poisson-sampled", parameters, None, None, ZHU_WANG_2019, True,
                         f"Poisson-sampled {inner.title or inner.name}, q={qq}", relation)
    return Mechanism("poisson-sampled", parameters, LazyPair(_poisson_pair, qq, inner), None,
                     "(1−q)Q + qP vs Q and its reverse, for the inner pair (P, Q); the curve is computed, not derived",
                     False, relation, ZHU_WANG_2019)


def _poisson_pair(q: sp.Expr, inner: Mechanism) -> tuple[Density, Density]:
    """((1−q)Q + qP, Q) for the inner pair (P, Q): a mixture of checked densities needs no new check."""
    P, Q = inner.pair
    if isinstance(P, Discrete) and P.table is not None and isinstance(Q, Discrete) and Q.table is not None:
        outcomes = list(dict.fromkeys([*Q.table, *P.table]))
        mixed = {o: (1 - q) * Q.table.get(o, 0) + q * P.table.get(o, 0) for o in outcomes}
        return Discrete(mixed, check=False), Discrete({o: Q.table.get(o, sp.S.Zero) for o in outcomes}, check=False)
    if type(P) is not type(Q) or P.support != Q.support:
        raise DensityError("the Poisson mixture of this pair needs both densities of one kind on one support; "
                           f"got {type(P).__name__} on {P.support} and {type(Q).__name__} on {Q.support}.")
    p_expr = P.expr.xreplace({P.var: Q.var})
    if isinstance(Q, Continuous):
        return Continuous((1 - q) * Q.pdf + q * p_expr, Q.var, Q.support, check=False), Q
    return Discrete((1 - q) * Q.pmf + q * p_expr, Q.var, Q.support, check=False), Q


def sampled_without_replacement(mechanism: Mechanism | Guarantee, q: object) -> Guarantee:
    """The mechanism run on a uniformly random sample of m = q·n of the n records (without replacement).

    Relation: substitution (replace one record; n is public), the relation of
    fixed-size batches.  The inner mechanism's curve must hold for inputs that
    differ in one record (its own relation must be replace-one).  The curve
    (:mod:`rdpsym.accounting.subsampling`), order by order:

    * integer α ≥ 2: Wang–Balle–Kasiviswanathan 2019, Theorem 9 (an upper
      bound from the inner curve at 2, …, α and at ∞), tightened by their
      Theorem 27 where one symmetric pair dominates every adjacent pair (the
      Gaussian, Laplace, their discrete forms, randomized response: the bound
      dp_accounting computes for the Gaussian), and never above the inner
      curve itself (subsampling is a mixture of adjacent or equal pairs);
    * fractional α: the chord of the convex (α − 1)·ε(α) between the
      neighbouring integers (their Corollary 10), below 2 the value at 2;
    * every order is capped by the ε-DP amplification log(1 + q(e^{ε_∞} − 1));
    * exact values: q = 1 is the inner curve, q = 0 is 0 (no general exact
      value is known for 0 < q < 1).

    No pair of output laws represents it (a third output law, the sample
    without the record, enters), so it is a :class:`Guarantee`.
    """
    inner = _inner(mechanism, "sampled_without_replacement")
    qq = probability_parameter(q, "q", closed=True)
    relation = (f"replace one record (substitution; the dataset size n is public); a sample of m = q·n records "
                f"is drawn uniformly without replacement and the inner mechanism runs on it (inner relation: "
                f"{_relation(inner)})")
    return Guarantee("sampled-without-replacement", {"q": qq, "mechanism": inner}, None, None,
                     WBK_2019.at("Theorems 9 and 27, Corollary 10"), True,
                     f"sampled without replacement {getattr(inner, 'title', '') or inner.name}, q={qq}", relation)


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
    "LazyPair",
    "discrete_gaussian",
    "discrete_laplace",
    "bounded_range_form",
    "exponential_mechanism",
    "gaussian",
    "k_randomized_response",
    "laplace",
    "non_private",
    "poisson_sampled",
    "pure_dp",
    "pure_dp_as_randomized_response",
    "randomized_response",
    "sampled_gaussian",
    "sampled_without_replacement",
    "zcdp",
]
