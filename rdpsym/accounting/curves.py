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
"""

from __future__ import annotations

import dataclasses

import sympy as sp

from rdpsym.accounting.curve import ClosedForm, RdpCurve, SampledGaussian, curve
from rdpsym.foundations import operations
from rdpsym.foundations.errors import NoClosedFormError, ParameterError, must
from rdpsym.foundations.reading import exact
from rdpsym.foundations.symbols import alpha
from rdpsym.laws.mechanisms import REGISTRY, Guarantee, Mechanism


def _label(name: str, parameters: dict) -> str:
    return f"{name}({', '.join(f'{k}={v}' for k, v in parameters.items())})"


@operations.curve.provide
def rdp_curve(obj: Mechanism | Guarantee) -> RdpCurve:
    """The RDP curve ε(α) of a mechanism (its proved closed form in α) or a guarantee, evaluated in balls.

    >>> import rdpsym
    >>> rdpsym.rdp_curve(rdpsym.zcdp(rho=1)).closed_form
    alpha
    """
    if isinstance(obj, Guarantee):
        return curve(ClosedForm(obj.title or obj.name, obj.closed_form, obj.at_infinity, obj.source, obj.convex),
                     _label(obj.name, obj.parameters))
    if not isinstance(obj, Mechanism):
        raise ParameterError(must("the argument of rdp_curve", "a Mechanism or a Guarantee", type(obj).__name__))
    mechanism = obj
    label = _label(mechanism.name, mechanism.parameters)
    symbolic = sorted(k for k, v in mechanism.parameters.items() if exact(v, k).free_symbols)
    if symbolic:  # sampled_gaussian(q=Symbol("q"), ...): its derivation is symbolic, its curve needs numbers
        given = ", ".join(f"{k} = {mechanism.parameters[k]}" for k in symbolic)
        plural = len(symbolic) > 1
        raise ParameterError(must(f"the {mechanism.name} parameter{'s' if plural else ''} {', '.join(symbolic)}",
                                  f"{'numbers' if plural else 'a number'} to give a curve (a curve is evaluated "
                                  "in certified balls; .rdp(order) derives symbolically)", given))
    if mechanism.name == "sampled-gaussian":
        # Its worst-case pair has no closed form in α: the curve is MTZ's sum, computed.
        return curve(SampledGaussian(label, mechanism.parameters["q"], mechanism.parameters["sigma"]), label)
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
    source = "derived (" + ", ".join(str(d.status) for d, _ in directions) + ")"
    return curve(ClosedForm(label, form, at_inf, source, convex=proved, certified=proved), label)


#: Derivations of the built-ins, by mechanism (its value): a curve is rebuilt often (CLI, references).
_DERIVED: dict = {}


def _derived(mechanism: Mechanism):
    """The mechanism's derivations at symbolic α and at α = ∞ (memoised for the built-ins)."""
    builtin = REGISTRY.get(mechanism.name)
    key = mechanism if builtin is not None and builtin.derive else None
    if key is not None and key in _DERIVED:
        return _DERIVED[key]
    out = (mechanism.rdp(alpha), mechanism.rdp(sp.oo))
    if key is not None:
        _DERIVED[key] = out
    return out


__all__ = ["rdp_curve"]
