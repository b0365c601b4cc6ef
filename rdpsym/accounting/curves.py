"""The RDP curve of a mechanism or a guarantee: :func:`rdp_curve` (``Mechanism.curve()``, ``Guarantee.curve()``).

The mechanisms and guarantees are declared in :mod:`rdpsym.laws.mechanisms`;
this module turns each into an :class:`~rdpsym.accounting.curve.RdpCurve`:

* A :class:`~rdpsym.Mechanism` (Gaussian, Laplace, randomized response, or
  any user pair) gets the closed form its derivation proves, evaluated in
  balls; without a closed form in α it is an error (the core's 50-digit
  quadrature evaluates single orders: ``rdpsym.renyi_divergence_mp``).
* The subsampled Gaussian of DP-SGD (Mironov, Talwar, Zhang 2019) is a
  mechanism too, but its curve comes from
  :mod:`rdpsym.accounting.sampled_gaussian`: the exact binomial sum at integer
  orders, certified quadrature at fractional ones.
* A :class:`~rdpsym.laws.mechanisms.Guarantee` (ε-DP, zCDP, the exponential
  mechanism) is its stated closed form.
* The discrete Gaussian, the discrete Laplace and k-ary randomized response
  are computed from their pairs' exact sums (:mod:`rdpsym.accounting.discrete`),
  the subsampled mechanisms from their inner curves
  (:mod:`rdpsym.accounting.subsampling`), and a non-private step is ∞ at every
  order, with its reason.

A built-in that is derived (Gaussian, Laplace, randomized response) is derived
once per process at symbolic parameters (the registry's symbols); a curve at
new values substitutes them into that derivation, proved for every positive
value, instead of deriving again: milliseconds instead of half a second, which
calibration loops need.
"""

from __future__ import annotations

import dataclasses
import functools

import sympy as sp

from rdpsym.accounting import subsampling
from rdpsym.accounting.components import ClosedForm, SampledGaussian, Unbounded
from rdpsym.accounting.curve import RdpCurve, curve
from rdpsym.accounting.discrete import (
    DiscreteGaussian,
    DiscreteLaplace,
    FiniteLoss,
    discrete_laplace_atoms,
    finite_loss_of_tables,
)
from rdpsym.foundations import operations
from rdpsym.foundations.errors import NoClosedFormError, ParameterError, must
from rdpsym.foundations.reading import exact
from rdpsym.foundations.symbols import alpha
from rdpsym.laws import pairs as laws
from rdpsym.laws.mechanism_types import LazyPair
from rdpsym.laws.mechanisms import REGISTRY, Guarantee, Mechanism

#: Sensitivities above this make a discrete Laplace pair too long to subsample exactly (Δ − 1 outcomes).
DISCRETE_LAPLACE_EXACT_MAX = 2000


def _label(name: str, parameters: dict) -> str:
    """A curve's label: its mechanism's name and parameters, a long rational shown by its first 20 digits.

    >>> _label("gaussian", {"sigma": 1 / sp.sqrt(sp.Rational(5, 4)) + sp.Rational(1, 10**60)})[:40]
    'gaussian(sigma=0.89442719099991587856…)'
    """
    if "mechanism" in parameters:  # a subsampled mechanism: the inner one by its own label
        inner = parameters["mechanism"]
        rest = ", ".join(f"{k}={_shown(v)}" for k, v in parameters.items() if k != "mechanism")
        return f"{name}({_label(inner.name, inner.parameters)}, {rest})"
    return f"{name}({', '.join(f'{k}={_shown(v)}' for k, v in parameters.items())})"


def _shown(value: object) -> str:
    """A parameter as a label shows it: as it is, or a number written in more than 40 characters by its first 20
    digits and "…" (a σ of 1/√1.25 read from a composition of Gaussians, rounded down to 1 030 digits, filled a
    verification's headline; a probe).  The curve's terms keep the exact value."""
    text = str(value)
    if len(text) > 40 and isinstance(value, sp.Basic) and value.is_number and not value.free_symbols:
        return f"{sp.N(value, 20)}…"
    return text


def _free_symbols(name: str, value: object) -> set:
    """The free symbols of a parameter (an inner mechanism's, for a subsampled one)."""
    if isinstance(value, (Mechanism, Guarantee)):
        return set().union(*(_free_symbols(k, v) for k, v in value.parameters.items()))
    return exact(value, name).free_symbols


def _built_by(mechanism: Mechanism, builder) -> bool:
    """Whether the mechanism's pair is the one ``builder`` makes from its parameters (a built-in, untouched)."""
    pair = mechanism.pair
    return isinstance(pair, LazyPair) and pair.builder is builder


@operations.curve.provide
def rdp_curve(obj: Mechanism | Guarantee) -> RdpCurve:
    """The RDP curve ε(α) of a mechanism (its proved closed form in α) or a guarantee, evaluated in balls.

    >>> import rdpsym
    >>> rdpsym.rdp_curve(rdpsym.zcdp(rho=1)).closed_form
    alpha
    """
    if isinstance(obj, Guarantee):
        label = _label(obj.name, obj.parameters)
        if obj.name in ("poisson-sampled", "sampled-without-replacement") and "mechanism" in obj.parameters:
            free = set().union(*(_free_symbols(k, v) for k, v in obj.parameters.items()))
            if free:
                raise ParameterError(must(f"{obj.name} parameters", "numbers (a curve is evaluated)",
                                          ", ".join(sorted(map(str, free)))))
            return curve(_subsampled(obj, label), label)
        if obj.closed_form is None:
            raise NoClosedFormError(f"{label}: a guarantee without a closed form and no computed curve")
        if obj.closed_form == sp.oo:
            reason = ("a non-private step: its output may reveal the data, so no finite RDP holds at any order"
                      if obj.name == "non-private" else f"{obj.title or obj.name}: ε(α) = ∞ at every order")
            return curve(Unbounded(obj.title or obj.name, reason, str(obj.source or "")), label)
        return curve(ClosedForm(obj.title or obj.name, obj.closed_form, obj.at_infinity, obj.source, obj.convex),
                     label)
    if not isinstance(obj, Mechanism):
        raise ParameterError(must("the argument of rdp_curve", "a Mechanism or a Guarantee", type(obj).__name__))
    mechanism = obj
    label = _label(mechanism.name, mechanism.parameters)
    symbolic = sorted(k for k, v in mechanism.parameters.items() if _free_symbols(k, v))
    if symbolic:  # sampled_gaussian(q=Symbol("q"), ...): its derivation is symbolic, its curve needs numbers
        given = ", ".join(f"{k} = {mechanism.parameters[k]}" for k in symbolic)
        plural = len(symbolic) > 1
        raise ParameterError(must(f"the {mechanism.name} parameter{'s' if plural else ''} {', '.join(symbolic)}",
                                  f"{'numbers' if plural else 'a number'} to give a curve (a curve is evaluated "
                                  "in certified balls; .rdp(order) derives symbolically)", given))
    if mechanism.name == "sampled-gaussian":
        # Its worst-case pair has no closed form in α: the curve is MTZ's sum, computed.
        return curve(SampledGaussian(label, mechanism.parameters["q"], mechanism.parameters["sigma"]), label)
    computed = _computed(mechanism, label)
    if computed is not None:
        return curve(computed, label)
    # Adjacency is symmetric: where D_α(P‖Q) is not argued to dominate, .rdp takes the larger of both directions.
    derivation, at_infinity = _derived(mechanism)
    if not derivation.is_closed_form:
        raise NoClosedFormError(f"{label}: no closed form in α; evaluate orders with rdpsym.renyi_divergence_mp")
    form = derivation.result
    # D_∞ is an order of the default grid: only a closed form may stand there.  A numeric D_∞ (the
    # definition's supremum by scanning, a lower estimate) could understate ε, so it is taken as ∞,
    # which never wins a conversion.
    at_inf = at_infinity.result if at_infinity.is_closed_form else sp.oo
    proved = derivation.status == "proved" and (at_infinity.status == "proved" or at_infinity.result == sp.oo)
    # Balls around a closed form are certified only if the closed form itself is proved; one
    # that was only checked numerically is labelled so.  (α−1)·D_α of a pair is a cumulant
    # generating function, convex, and so is a max of two: convexity is used only when proved.
    source = f"derived ({derivation.status})"
    # The Gaussian mechanism made by its factory is the pair N(0, σ²) vs N(Δ, σ²) in its worst direction (in
    # d dimensions too, after a rotation: Mironov 2017, Prop 7), i.e. N(0, 1) vs N(Δ/σ, 1) at every order.
    shift = pure = None
    if mechanism.name == "gaussian" and proved and _is_factory_made(mechanism, REGISTRY["gaussian"]):
        shift = mechanism.parameters["sensitivity"] / mechanism.parameters["sigma"]
    # Λ(0, b) vs Λ(Δ, b) (one dimension) and randomized response's two laws: their exact profiles
    # (rdpsym.accounting.profiles), for a single use of the mechanism as its factory makes it.
    if mechanism.name == "laplace" and proved and "dimension" not in mechanism.parameters \
            and _is_factory_made(mechanism, REGISTRY["laplace"]):
        pure = ("laplace", mechanism.parameters["sensitivity"] / mechanism.parameters["scale"])
    if mechanism.name == "randomized-response" and proved \
            and _is_factory_made(mechanism, REGISTRY["randomized-response"]):
        pure = ("randomized-response", mechanism.parameters["p"])
    return curve(ClosedForm(label, form, at_inf, source, convex=proved, certified=proved, gaussian_shift=shift,
                            pure_pair=pure,
                            at_one=functools.partial(_kl_from_laws, mechanism, label)), label)


def _kl_from_laws(mechanism: Mechanism, label: str) -> sp.Expr:
    """The curve's value at α = 1 derived from the laws (the KL divergence, of the larger direction where the
    pair is not known to dominate its reverse: a checked closed form), for a closed form whose limit α → 1⁺
    SymPy cannot take (an erf of α·μ)."""
    derivation = mechanism.rdp(1)
    if not derivation.is_closed_form:
        raise NoClosedFormError(f"{label}: no closed form at order 1 (the KL divergence is "
                                f"{derivation.status}); evaluate it with rdpsym.renyi_divergence_mp(P, Q, 1)")
    return derivation.result


def _computed(mechanism: Mechanism, label: str):
    """The component of a mechanism whose curve is computed rather than derived, or None."""
    p = mechanism.parameters
    if mechanism.name == "discrete-gaussian" and _built_by(mechanism, laws._discrete_gaussian_pair):
        return DiscreteGaussian(label, p["sigma"], int(p["sensitivity"]))
    if mechanism.name == "discrete-laplace" and _built_by(mechanism, laws._discrete_laplace_pair):
        return DiscreteLaplace(label, p["scale"], int(p["sensitivity"]))
    if mechanism.name == "k-randomized-response":
        P, Q = mechanism.pair  # finite tables, whoever made them: the exact sums are the curve
        if P.table is not None and Q.table is not None:
            return FiniteLoss(label, finite_loss_of_tables(P.table, Q.table), mechanism.symmetric,
                              str(mechanism.source or ""))
    if mechanism.name == "poisson-sampled" and "mechanism" in p:
        return _subsampled(mechanism, label)
    return None


def _dominating_law(inner: Mechanism | Guarantee) -> tuple | None:
    """The inner pair as a finite law ((P(o), Q(o)), ...) when it is finite and dominates every adjacent pair.

    Randomized response and k-ary randomized response (every adjacent pair is theirs up to relabelling;
    replace-special is not used: its pair is a row against the uniform one, dominating too), the discrete
    Laplace (log-concave shifts are ordered), and ε-DP, whose worst case is randomized response with
    p = e^ε/(1 + e^ε) (every ε-DP pair is a post-processing of it: Kairouz, Oh, Viswanath).
    """
    if isinstance(inner, Guarantee):
        if inner.name == "pure-dp":
            e = inner.parameters["epsilon"]
            # 1 − p written 1/(1 + e^ε): as 1 − e^ε/(1 + e^ε) it cancels to a ball around 0 at ε ≳ 400 (a probe)
            p, not_p = 1 / (1 + sp.exp(-e)), 1 / (1 + sp.exp(e))
            return ((p, not_p), (not_p, p))
        return None
    if inner.name == "randomized-response" and _built_by(inner, laws._randomized_response_pair):
        p = inner.parameters["p"]
        return ((p, 1 - p), (1 - p, p))
    if inner.name == "k-randomized-response" and _built_by(inner, laws._k_randomized_response_pair):
        P, Q = inner.pair
        return finite_loss_of_tables(P.table, Q.table)
    if inner.name == "discrete-laplace" and _built_by(inner, laws._discrete_laplace_pair):
        d = int(inner.parameters["sensitivity"])
        if d <= DISCRETE_LAPLACE_EXACT_MAX:
            return tuple((w * x, w) for w, x in discrete_laplace_atoms(inner.parameters["scale"], d))
    return None


def _dominating_symmetric(inner: Mechanism | Guarantee) -> str:
    """Why one symmetric pair of the built-in ``inner`` dominates every adjacent pair, or "" (not known).

    Then that pair is the worst for every divergence, Pearson–Vajda's included, and the curve is its
    exact divergence: what Wang–Balle–Kasiviswanathan's Theorem 27 asks.  Shifts of a log-concave
    noise (Gaussian, Laplace, their discrete forms) are ordered, the largest dominating; randomized
    response has one pair up to relabelling.
    """
    if not isinstance(inner, Mechanism):
        return ""
    reasons = {
        "gaussian": (laws._gaussian_pair, "shifts of a log-concave noise are ordered"),
        "laplace": (laws._laplace_pair, "shifts of a log-concave noise are ordered"),
        "discrete-gaussian": (laws._discrete_gaussian_pair, "shifts of a log-concave noise are ordered"),
        "discrete-laplace": (laws._discrete_laplace_pair, "shifts of a log-concave noise are ordered"),
        "randomized-response": (laws._randomized_response_pair, "one pair up to relabelling"),
    }
    if inner.name in reasons and _built_by(inner, reasons[inner.name][0]):
        return reasons[inner.name][1]
    if inner.name == "k-randomized-response" and _built_by(inner, laws._k_randomized_response_pair) \
            and inner.symmetric:
        return "one pair up to relabelling"
    return ""


#: Why the removal direction of a Poisson-subsampled built-in dominates (so its integer orders are exact).
_REMOVAL_DOMINATES = {
    "laplace": "Zhu–Wang 2019, Theorem 8: its condition holds for the Laplace mechanism, whose Poisson-subsampled "
               "RDP they give exactly",
}


def _subsampled(record: Mechanism | Guarantee, label: str):
    """The component of a Poisson-subsampled or without-replacement record."""
    inner = record.parameters["mechanism"]
    q = record.parameters["q"]
    inner_curve = rdp_curve(inner)
    if record.name == "sampled-without-replacement":
        return subsampling.WithoutReplacement(label, inner_curve, q, _dominating_symmetric(inner))
    dominates = ""
    if isinstance(inner, Mechanism) and inner.name in _REMOVAL_DOMINATES and _built_by(inner, laws._laplace_pair):
        dominates = _REMOVAL_DOMINATES[inner.name]
    lattice = None
    if isinstance(inner, Mechanism) and inner.name == "discrete-gaussian" \
            and _built_by(inner, laws._discrete_gaussian_pair):
        lattice = (inner.parameters["sigma"], int(inner.parameters["sensitivity"]))
    laplace = None
    if dominates and inner.name == "laplace":
        laplace = (inner.parameters["scale"], inner.parameters["sensitivity"])
    return subsampling.PoissonSampled(label, inner_curve, q, _dominating_law(inner), dominates, lattice, laplace)


#: Derivations of the built-ins at symbolic parameters, by name: (at α, at ∞, the symbols by parameter name).
_DERIVED: dict = {}


def _derived(mechanism: Mechanism):
    """The mechanism's derivations at symbolic α and at α = ∞.

    A derived built-in (the registry's ``derive``) made by its factory is derived once at the
    registry's symbols and then instantiated at its values (:class:`Instantiated`); any other
    mechanism is derived as it is.
    """
    builtin = REGISTRY.get(mechanism.name)
    # Only with the registry's parameters: gaussian(..., dimension=2) is factory-made too, but its pair is
    # a product in two dimensions, derived as it is (its symbols have no dimension).
    if builtin is not None and builtin.derive and set(mechanism.parameters) <= set(builtin.symbols) \
            and _is_factory_made(mechanism, builtin):
        if mechanism.name not in _DERIVED:
            symbolic = builtin.factory(**builtin.symbols)
            _DERIVED[mechanism.name] = (symbolic.rdp(alpha), symbolic.rdp(sp.oo), dict(builtin.symbols))
        at_alpha, at_inf, symbols = _DERIVED[mechanism.name]
        values = {symbols[name]: value for name, value in mechanism.parameters.items()}
        return Instantiated(at_alpha, values), Instantiated(at_inf, values)
    return mechanism.rdp(alpha), mechanism.rdp(sp.oo)


def _is_factory_made(mechanism: Mechanism, builtin) -> bool:
    """Whether the mechanism is exactly what its factory makes from its parameters (not a user's variant)."""
    try:
        return mechanism == builtin.factory(**mechanism.parameters)
    except (ParameterError, TypeError):
        return False


@dataclasses.dataclass(frozen=True)
class Instantiated:
    """A derivation at symbolic parameters, read at values: what :func:`rdp_curve` needs of it.

    The symbolic derivation holds for every value its symbols' assumptions allow (positive σ, λ, Δ;
    a p in (0, 1)), which the factory checked; its result with the values substituted is the
    mechanism's result.
    """

    derivation: object
    values: dict
    #: The derivation's status (a field, so a test can mark it otherwise with ``dataclasses.replace``).
    status: object = None

    def __post_init__(self) -> None:
        if self.status is None:
            object.__setattr__(self, "status", self.derivation.status)

    @property
    def result(self) -> sp.Expr:
        return self.derivation.result.xreplace(self.values)

    @property
    def is_closed_form(self) -> bool:
        return self.status in ("proved", "checked")  # as Derivation.is_closed_form, on this status


__all__ = ["rdp_curve"]
