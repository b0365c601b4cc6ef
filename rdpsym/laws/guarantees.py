"""Guarantees: privacy stated as a curve ε(α) in closed form, with no output densities.

ε-DP (Bun–Steinke's exact curve, or Mironov's Lemma 1), (ξ, ρ)-zCDP, the
exponential mechanism (the exact curve of ε-bounded range, derived in
:func:`bounded_range_form`) and a non-private step.  Each is a
:class:`~rdpsym.laws.mechanism_types.Guarantee`; ε-DP's worst case as a pair of
laws is randomized response (:func:`pure_dp_as_randomized_response`).
"""

from __future__ import annotations

import sympy as sp

from rdpsym.foundations.errors import ParameterError, must, quoted
from rdpsym.foundations.reading import exponentiated_parameter, nonnegative_parameter, positive_parameter
from rdpsym.foundations.record import MIRONOV_2017, Citation
from rdpsym.foundations.symbols import alpha
from rdpsym.laws.discrete_mechanisms import randomized_response
from rdpsym.laws.mechanism_types import Guarantee, Mechanism

BUN_STEINKE_2016 = Citation("Bun, Steinke 2016", "", "arXiv:1605.02065")
#: Cesar–Rogers for ε-bounded range ⇒ ε²/8-zCDP; the exponential mechanism is ε-DP by McSherry–Talwar 2007.
CESAR_ROGERS_2021 = Citation("Cesar, Rogers 2021", "", "arXiv:2004.07223")


def pure_dp(epsilon: object, bound: str = "bun-steinke") -> Guarantee:
    """An ε-DP guarantee as an RDP curve.

    ``bound="bun-steinke"`` (default) is exact: D_α ≤ 1/(α−1)·log((sinh(αε) −
    sinh((α−1)ε))/sinh ε), attained by randomized response with p = e^ε/(1+e^ε)
    (Bun–Steinke 2016, Prop 3.3's proof).  ``"mironov-lemma1"`` is 2αε²
    (Mironov 2017, Lemma 1), kept to compare.  α = ∞ gives ε (Mironov §III).

    ε = 0 (a number) is perfect privacy: the curve is 0 at every order, α = ∞ included (the sinh form is 0/0
    there, and autodp's ``PureDP_Mechanism(eps=0)`` is a mechanism users hold).

    >>> float(pure_dp(1).curve().value(2, dps=15))  # doctest: +ELLIPSIS
    0.73532566405...
    >>> pure_dp(0).closed_form, pure_dp(0).at_infinity
    (0, 0)
    """
    if bound not in ("bun-steinke", "mironov-lemma1"):
        raise ParameterError(must("bound", "'bun-steinke' or 'mironov-lemma1'", quoted(bound)))
    e = _positive_or_zero(epsilon, "epsilon", exponentiated=bound == "bun-steinke")
    if e == 0:
        source = MIRONOV_2017.at("§III: 0-DP is (∞, 0)-RDP, hence (α, 0)-RDP; D_α ≥ 0 by Proposition 8")
        return Guarantee("pure-dp", {"epsilon": e}, e, e, source, True, "0-DP")
    if bound == "bun-steinke":  # (ε was read as the exponent of sinh(αε))
        expr = sp.log((sp.sinh(alpha * e) - sp.sinh((alpha - 1) * e)) / sp.sinh(e)) / (alpha - 1)
        source = BUN_STEINKE_2016.at("Proposition 3.3")
    else:
        expr = 2 * alpha * e**2
        source = MIRONOV_2017.at("Lemma 1")
    # Both forms have (α−1)·ε(α) convex: the sinh form is a divergence (randomized response),
    # and 2αε²(α−1) is a convex quadratic.
    return Guarantee("pure-dp", {"epsilon": e}, expr, e, source, True, f"{e}-DP")


def zcdp(rho: object, xi: object = 0) -> Guarantee:
    """(ξ, ρ)-zCDP: D_α ≤ ξ + ρα for every α > 1 (Bun–Steinke 2016, Def 1.1).

    ρ = 0 (a number) is ξ at every order, α = ∞ included (0 for ξ = 0: autodp's ``zCDP_Mechanism(rho=0)``).

    >>> zcdp(rho=0, xi="1/10").closed_form, zcdp(rho=0, xi="1/10").at_infinity
    (1/10, 1/10)
    """
    r = _positive_or_zero(rho, "rho")
    z = nonnegative_parameter(xi, "xi")
    return Guarantee("zcdp", {"rho": r, "xi": z}, z + r * alpha, z if r == 0 else sp.oo,
                     BUN_STEINKE_2016.at("Definition 1.1"), True, f"({z},{r})-zCDP")


def _positive_or_zero(value: object, name: str, exponentiated: bool = False) -> sp.Expr:
    """A guarantee's parameter: 0 as a number (perfect privacy, said by the caller), else > 0, a symbol declared
    positive (the forms divide by sinh ε, or by 1 − e^{−ε}, which a symbol that may be 0 would leave 0/0)."""
    v = nonnegative_parameter(value, name)
    if v == 0:
        return v
    return exponentiated_parameter(v, name) if exponentiated else positive_parameter(v, name)


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

    ε = 0 (a number) is perfect privacy: 0 at every order (the form is 0/0 there).

    >>> float(exponential_mechanism(1).curve().value(2, dps=15))  # doctest: +ELLIPSIS
    0.24022901391...
    >>> exponential_mechanism(0).closed_form
    0
    """
    e = _positive_or_zero(epsilon, "epsilon", exponentiated=True)
    if e == 0:
        return Guarantee("exponential", {"epsilon": e}, e, e,
                         CESAR_ROGERS_2021.at("ε-bounded range with ε = 0: P = Q"), True, "exponential(0)")
    # (α−1)·ε(α) is convex: a supremum of cumulant generating functions (one per Bernoulli pair).
    source = CESAR_ROGERS_2021.at("ε-bounded range; its exact curve derived in bounded_range_form")
    return Guarantee("exponential", {"epsilon": e}, bounded_range_form(e), e, source, True, f"exponential({e})")


def pure_dp_as_randomized_response(epsilon: object) -> Mechanism:
    """The worst case of ε-DP for RDP: randomized response with p = e^ε/(1+e^ε)."""
    e = exponentiated_parameter(epsilon, "epsilon")
    return randomized_response(sp.exp(e) / (1 + sp.exp(e)))


def non_private() -> Guarantee:
    """A non-private step (dp_accounting's NonPrivateDpEvent): ε(α) = ∞ at every order, D_∞ = ∞.

    Its curve is ∞ at every order with the reason; it absorbs any composition
    it is part of, and no conversion gives a finite ε.
    """
    return Guarantee("non-private", {}, sp.oo, sp.oo, None, False, "non-private")


__all__ = [
    "bounded_range_form",
    "exponential_mechanism",
    "non_private",
    "pure_dp",
    "pure_dp_as_randomized_response",
    "zcdp",
]
