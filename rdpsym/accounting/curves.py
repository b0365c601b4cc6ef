"""Curves of mechanisms: the core's built-ins, DP-SGD's subsampled Gaussian, pure DP, zCDP.

* A core :class:`~rdpsym.Mechanism` (Gaussian, Laplace, randomized response,
  or any user pair) gets the closed form its derivation proves, evaluated in
  balls; without a closed form, the core's 50-digit quadrature, labelled not
  certified.
* :func:`sampled_gaussian` is the Poisson-subsampled Gaussian of DP-SGD
  (Mironov, Talwar, Zhang 2019), a core mechanism too (its worst-case pair is
  the mixture (1−q)N(0,σ²) + qN(1,σ²) against N(0,σ²)) whose curve comes from
  :mod:`rdpsym.accounting.sampled_gaussian`: the exact binomial sum at integer
  orders, certified quadrature at fractional ones.
* :func:`pure_dp` is an ε-DP guarantee read as RDP, exactly: its worst case is
  randomized response with p = e^ε/(1+e^ε), so its curve is Bun–Steinke's
  sinh form (their Prop 3.3 / the claim ``bun-steinke-pure-dp``); Mironov's
  Lemma 1 bound 2αε² is available as ``bound="mironov-lemma1"``.
* :func:`zcdp` is (ξ, ρ)-zCDP, the curve ξ + ρα (Bun–Steinke 2016, Def 1.1).
* :func:`exponential_mechanism` is ε-DP and ε-bounded-range, so its curve is
  the minimum of the pure-DP curve and ε²α/8 (Cesar–Rogers 2021, Lemma 3.2).
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass

import sympy as sp
from flint import arb

from rdpsym.foundations.reading import positive_parameter, probability_parameter
from rdpsym.laws.densities import Continuous
from rdpsym.foundations.errors import NoClosedFormError, ParameterError, must
from rdpsym.laws.mechanisms import MECHANISMS, Mechanism, randomized_response
from rdpsym.foundations.symbols import alpha
from rdpsym.foundations.balls import to_arb, to_fmpq
from rdpsym.accounting.curve import Component, Infinite, RdpCurve, curve

x = sp.Symbol("x", real=True)


@dataclass(frozen=True)
class Guarantee:
    """A privacy guarantee given by its curve only (no output densities), e.g. zCDP."""

    name: str
    parameters: dict
    component: Component

    def curve(self) -> RdpCurve:
        return curve(self.component, _label(self.name, self.parameters))


def _label(name: str, parameters: dict) -> str:
    return f"{name}({', '.join(f'{k}={v}' for k, v in parameters.items())})"


def curve_of(mechanism: Mechanism) -> RdpCurve:
    """The RDP curve of a core mechanism: its proved closed form in α, evaluated in balls."""
    label = _label(mechanism.name, mechanism.parameters)
    special = _SPECIAL.get(mechanism.name)
    if special is not None:
        return curve(special(mechanism), label)
    free = set().union(*(sp.sympify(v).free_symbols for v in mechanism.parameters.values()))
    if free:
        raise ParameterError(must(f"{mechanism.name} parameters", "numbers (a curve is evaluated)",
                                  ", ".join(sorted(map(str, free)))))
    directions = [_derived(mechanism)]
    if not mechanism.symmetric:
        # Adjacency is symmetric: without an argument that D_α(P‖Q) dominates, take both.
        flipped = dataclasses.replace(mechanism, pair=mechanism.pair[::-1], reference=None)
        directions.append(_derived(flipped))
    for derivation, _ in directions:
        if not derivation.is_closed_form:
            raise NoClosedFormError(f"{label}: no closed form in α; evaluate orders with rdpsym.renyi_divergence_mp")
    form = sp.Max(*[d.result for d, _ in directions]) if len(directions) > 1 else directions[0][0].result
    # D_∞ is an order of the default grid: only a closed form may stand there.  A numeric D_∞ (the
    # definition's supremum by scanning, a lower estimate) could understate ε, so it is taken as ∞,
    # which never wins a conversion.
    d_inf = [d.result if d.is_closed_form else sp.oo for _, d in directions]
    at_inf = sp.Max(*d_inf) if len(d_inf) > 1 else d_inf[0]
    proved = all(d.status == "proved" and (i.status == "proved" or i.result == sp.oo) for d, i in directions)
    # Balls around a closed form are certified only if the closed form itself is proved; one
    # that was only checked numerically is labelled so.  (α−1)·D_α of a pair is a cumulant
    # generating function, convex, and so is a max of two: convexity is used only when proved.
    component = Component.from_closed_form(label, form, "derived (" + ", ".join(str(d.status) for d, _ in directions)
                                           + ")", at_infinity=at_inf, convex=proved)
    return curve(dataclasses.replace(component, certified=proved), label)


#: Derivations of the built-ins, by (name, parameters): a curve is rebuilt often (CLI, references).
_DERIVED: dict = {}


def _derived(mechanism: Mechanism):
    """The mechanism's derivations at symbolic α and at α = ∞ (memoised for the built-ins)."""
    key = None
    if mechanism.name in MECHANISMS:
        key = (mechanism.name, tuple(sorted((k, sp.srepr(v)) for k, v in mechanism.parameters.items())))
        if key in _DERIVED:
            return _DERIVED[key]
    out = (mechanism.rdp(alpha), mechanism.rdp(sp.oo))
    if key is not None:
        _DERIVED[key] = out
    return out


def sampled_gaussian(q: object, sigma: object) -> Mechanism:
    """DP-SGD's Poisson-subsampled Gaussian: sampling rate q, noise multiplier σ (sensitivity 1).

    Worst case (Mironov, Talwar, Zhang 2019, Thm 4 and Sec. 3): the pair
    (1−q)·N(0,σ²) + q·N(1,σ²) against N(0,σ²).

    >>> import rdpsym
    >>> c = rdpsym.sampled_gaussian(q=sp.Rational(1, 100), sigma=sp.Rational(11, 10)).curve()
    >>> import mpmath
    >>> mpmath.nstr(c.value(2, dps=20), 20)
    '...'
    """
    qq = probability_parameter(q, "q", closed=True)
    s = positive_parameter(sigma, "sigma")
    pair = _sampled_gaussian_pair(qq, s)
    # symmetric: MTZ 2019 (Sec. 3.3) show this direction dominates the reverse one, the
    # convention of every accountant built on it.
    return Mechanism("sampled-gaussian", {"q": qq, "sigma": s}, pair, None,
                     "(1−q)N(0,σ²) + qN(1,σ²) vs N(0,σ²) (Mironov–Talwar–Zhang 2019)", True)


@functools.lru_cache(maxsize=64)
def _sampled_gaussian_pair(q: sp.Expr, s: sp.Expr):
    """The worst-case pair as checked densities (memoised: checking them costs more than accounting)."""
    n0 = sp.exp(-(x**2) / (2 * s**2)) / sp.sqrt(2 * sp.pi * s**2)
    n1 = sp.exp(-((x - 1) ** 2) / (2 * s**2)) / sp.sqrt(2 * sp.pi * s**2)
    return (Continuous((1 - q) * n0 + q * n1, x), Continuous(n0, x))


def _sampled_gaussian_component(mech: Mechanism) -> Component:
    from rdpsym.accounting import sampled_gaussian as sg

    q, s = to_fmpq(mech.parameters["q"]), to_fmpq(mech.parameters["sigma"])

    def balls(orders):
        finite = [a for a in orders if a != float("inf")]
        logs = iter(sg.log_moments(q, s, finite) if finite else [])
        out = []
        for a in orders:
            if a == float("inf"):
                out.append(arb(0) if q == 0 else Infinite("D_∞ of the subsampled Gaussian is ∞ for q > 0"))
            else:
                out.append(next(logs) / (arb(a) - 1))
        return out

    closed = alpha / (2 * mech.parameters["sigma"] ** 2) if q == 1 else (sp.S.Zero if q == 0 else None)
    return Component(_label(mech.name, mech.parameters), balls, closed, True, "Mironov–Talwar–Zhang 2019",
                     convex=True)


_SPECIAL = {"sampled-gaussian": _sampled_gaussian_component}


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
        source = "Bun–Steinke 2016, Prop 3.3"
    elif bound == "mironov-lemma1":
        expr = 2 * alpha * e**2
        source = "Mironov 2017, Lemma 1"
    else:
        raise ParameterError(must("bound", "'bun-steinke' or 'mironov-lemma1'", repr(bound)))
    # Both forms have (α−1)·ε(α) convex: the sinh form is a divergence (randomized response),
    # and 2αε²(α−1) is a convex quadratic.
    return Guarantee("pure-dp", {"epsilon": e},
                     Component.from_closed_form(f"{e}-DP", expr, source, at_infinity=e, convex=True))


def zcdp(rho: object, xi: object = 0) -> Guarantee:
    """(ξ, ρ)-zCDP: D_α ≤ ξ + ρα for every α > 1 (Bun–Steinke 2016, Def 1.1)."""
    r = positive_parameter(rho, "rho")
    z = sp.sympify(xi)
    if not (z.is_number and z >= 0):
        raise ParameterError(must("xi", "a number >= 0", xi))
    return Guarantee("zcdp", {"rho": r, "xi": z},
                     Component.from_closed_form(f"({z},{r})-zCDP", z + r * alpha, "Bun–Steinke 2016, Def 1.1",
                                                at_infinity=sp.oo, convex=True))


def exponential_mechanism(epsilon: object) -> Guarantee:
    """The exponential mechanism p(r) ∝ exp(ε·u(x,r)/(2Δu)): ε-DP and ε-bounded-range.

    Its curve is min(pure-DP curve, ε²α/8): both bounds hold (McSherry–Talwar
    2007 for ε-DP; Cesar–Rogers 2021, Lemma 3.2 for ε-BR ⇒ ε²/8-zCDP).
    """
    e = positive_parameter(epsilon, "epsilon")
    sinh_form = pure_dp(e).component.closed_form
    return Guarantee("exponential", {"epsilon": e},
                     Component.from_closed_form(f"exponential({e})", sp.Min(sinh_form, e**2 * alpha / 8),
                                                "Cesar–Rogers 2021, Lemma 3.2; McSherry–Talwar 2007",
                                                at_infinity=e))


def pure_dp_as_randomized_response(epsilon: object) -> Mechanism:
    """The worst case of ε-DP for RDP: randomized response with p = e^ε/(1+e^ε)."""
    e = positive_parameter(epsilon, "epsilon")
    return randomized_response(sp.exp(e) / (1 + sp.exp(e)))


__all__ = ["Guarantee", "curve_of", "exponential_mechanism", "pure_dp", "pure_dp_as_randomized_response",
           "sampled_gaussian", "to_arb", "zcdp"]
