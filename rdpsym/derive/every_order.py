"""A symbolic order's result for every Rényi order α ∈ (0, 1) ∪ (1, ∞).

A derivation with a symbolic order is made under the hypothesis α > 1; here that
result is checked at orders below 1 and, where it does not hold there, joined with
a derivation for 0 < α < 1 into one Piecewise.  Used alike by the univariate
derivation (:mod:`rdpsym.derive.univariate`) and, for laws in several variables, by
:func:`rdpsym.derive.divergence.renyi_divergence`: each passes its own check and its
own derivation below 1, so this module imports neither.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import sympy as sp

from rdpsym.derive.derivation import Derivation
from rdpsym.derive.steps import _OPENING_STEPS, _equals
from rdpsym.engine.context import Hypotheses
from rdpsym.foundations.errors import NotVerified, RdpSymError, VerificationError
from rdpsym.foundations.record import ByCases, Case, NotChecked, weakest


def _hypotheses(order, below_one: bool) -> Hypotheses:
    """The hypotheses of a derivation at ``order``: a symbolic order stands for (1, ∞), or (0, 1) with ``below_one``."""
    return Hypotheses(order if isinstance(order, sp.Symbol) else None, below_one=below_one)


def _every_order(order: sp.Symbol, above: Derivation, check: Callable, derive_below: Callable) -> Derivation:
    """A symbolic order is a Rényi order in (0, 1) ∪ (1, ∞): the result derived for α > 1, extended below 1.

    A result ∞ for α > 1 is never extended: the orders below 1 are derived on their own (:func:`_derived_below`).
    Any other result for α > 1 is first checked against the definition at orders in (0, 1); where it
    holds there too (the Gaussian's αΔ²/(2σ²), Mironov's Laplace and randomized-response forms) it is
    returned for every α ≠ 1.  Where it does not (an exponential law against a half-normal one is ∞
    for α > 1 but finite below 1), the orders below 1 are derived on their own and the two results
    joined: Piecewise((below, α < 1), (above, True)).  Where neither can be shown, the result is
    returned for α > 1 only, as its hypothesis says, and the evidence says why.
    """
    low = _hypotheses(order, below_one=True)
    if above.result == sp.oo:
        # ∞ for every α > 1 says only that P is not absolutely continuous w.r.t. Q; below 1 the divergence is ∞ only
        # where P ⊥ Q, which no condition of this result draws for the check's samples to find: two uniform laws
        # shifted by b > 0 are ∞ above 1, and log(1 − b)/(α − 1) below 1 while b < 1, where the check's three
        # points (b = 5/2, 6/5, 2) had all been ∞ too, and ∞ was returned, checked, for every order (a probe).
        return _derived_below(order, above, derive_below, "the result for α > 1 is ∞")
    try:
        covered = check(above.result, low)
    except NotVerified as exc:
        note = NotChecked("the orders 0 < α < 1", f"the result could not be checked there: {exc}")
        return dataclasses.replace(above, evidence=(*above.evidence, note))
    except VerificationError as disagreement:
        return _derived_below(order, above, derive_below, f"the form for α > 1 does not hold there ({disagreement})")
    return dataclasses.replace(above, hypotheses=(sp.Ne(order, 1),), evidence=(*above.evidence, *covered))


def _derived_below(order: sp.Symbol, above: Derivation, derive_below: Callable, why: str) -> Derivation:
    """The orders below 1 derived on their own (``why``: the result for α > 1 was not extended to them) and joined
    with ``above``; or ``above`` for α > 1 only, its evidence saying why, where no closed form is derived below 1."""
    try:
        below = derive_below()
    except RdpSymError as exc:  # (no closed form, a check that failed or did not converge below 1: α > 1 only)
        note = NotChecked("the orders 0 < α < 1", f"{why}, and none was derived for them: {exc}")
        return dataclasses.replace(above, evidence=(*above.evidence, note))
    if not below.is_closed_form:
        note = NotChecked("the orders 0 < α < 1", why)
        return dataclasses.replace(above, evidence=(*above.evidence, note))
    return _joined(order, below, above)


def _joined(order: sp.Symbol, below: Derivation, above: Derivation) -> Derivation:
    """One derivation for every order α ≠ 1 from those for 0 < α < 1 and for α > 1 (each checked on its own)."""
    result = sp.piecewise_fold(sp.Piecewise((below.result, order < 1), (above.result, True)))
    steps = [*above.steps]
    for step in below.steps[_OPENING_STEPS:]:
        steps.append(step)
    quantity = order - 1
    steps.append(_equals(order, below.result, Case(order < 1, quantity), below.status))
    steps.append(_equals(order, result, ByCases()))
    moments = (below.moment, above.moment)
    return Derivation(
        order=order,
        result=result,
        status=weakest((below.status, above.status)),
        steps=tuple(steps),
        closed_form=result,
        conditions=(),
        hypotheses=(sp.Ne(order, 1),),
        evidence=(*above.evidence, *below.evidence),
        reference=above.reference,
        moment=None if any(not isinstance(m, sp.Basic) for m in moments) else sp.Piecewise(
            (moments[0], order < 1), (moments[1], True)),
    )
