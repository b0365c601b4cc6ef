"""Rényi divergences derived in closed form from two densities.

    D_α(P‖Q) = 1/(α−1) · log ∫ P(x)^α Q(x)^{1−α} dx        (Mironov 2017, Definition 3)

with the limits D_1 = KL(P‖Q) and D_∞ = log sup P/Q.  :func:`renyi_divergence`
returns a :class:`~rdpsym.derive.derivation.Derivation`: the closed form, the
chain of steps that produced it (SymPy objects related by rules, no text), its
convergence conditions and how it was established.

The public entry dispatches by the kind of the laws: laws in several variables
to :mod:`rdpsym.derive.multivariate`, laws with atoms beside a density to
:mod:`rdpsym.derive.atoms`, two laws of one variable to
:mod:`rdpsym.derive.univariate`.  The first two derive their one-dimensional
parts by the third; this module sits above all three, so the dependency runs
one way.  A symbolic order's result is extended below 1 by
:mod:`rdpsym.derive.every_order`.
"""

from __future__ import annotations

import dataclasses

import mpmath
import sympy as sp

from rdpsym.derive import atoms
from rdpsym.derive.derivation import Derivation
from rdpsym.derive.every_order import _every_order
from rdpsym.derive.joint_check import check_joint
from rdpsym.derive.multivariate import joint_divergence
from rdpsym.derive.univariate import univariate_divergence
from rdpsym.foundations import operations
from rdpsym.foundations.disk_cache import persistent
from rdpsym.foundations.notation import P as P_
from rdpsym.foundations.notation import Q as Q_
from rdpsym.foundations.notation import RenyiDivergence
from rdpsym.foundations.precision import sympy_evalf_guard
from rdpsym.foundations.record import Because, Diverges, Largest, Step, weakest
from rdpsym.foundations.statuses import Status
from rdpsym.foundations.symbols import alpha
from rdpsym.laws.atoms import has_atoms
from rdpsym.laws.densities import Density
from rdpsym.laws.mechanism_types import Mechanism
from rdpsym.laws.multivariate import is_multivariate
from rdpsym.laws.pairs import _poisson_pair
from rdpsym.laws.references import Reference


# A closed form derived and verified once is read back in every later process (rdpsym.foundations.disk_cache).
@persistent("derivation", keep=lambda derived: derived.status in (Status.PROVED, Status.CHECKED),
            returns=Derivation)
@sympy_evalf_guard.serialized  # SymPy sets mpmath's global precision as it evaluates: one thread at a time
def renyi_divergence(
    P: Density,
    Q: Density,
    order: object = alpha,
    *,
    reference: Reference | None = None,
) -> Derivation:
    """D_order(P‖Q) in closed form, checked against the definition.

    Parameters
    ----------
    P, Q : Continuous or Discrete
    order : Symbol or number
        A symbol means a general order under the hypothesis ``order > 1``;
        a number in (0, ∞) a fixed order; ``1`` the KL divergence; ``oo`` D_∞.
    reference : Reference, optional
        A published form to prove the result equal to (status ``"proved"``).

    Returns
    -------
    Derivation
        ``.result`` is the closed form (``Piecewise((value, condition), (oo, True))``
        when convergence needs a condition), ``.status`` how it was established.
        When no closed form exists and P, Q have no free parameters, the result
        is an mpmath number from the definition with status ``"numeric"``.

    Examples
    --------
    >>> import sympy as sp, rdpsym
    >>> x = sp.Symbol("x", real=True)
    >>> l1, l2 = sp.symbols("lambda1 lambda2", positive=True)
    >>> P = rdpsym.Continuous(l1 * sp.exp(-l1 * x), x, support=sp.Interval(0, sp.oo))
    >>> Q = rdpsym.Continuous(l2 * sp.exp(-l2 * x), x, support=sp.Interval(0, sp.oo))
    >>> d = renyi_divergence(P, Q, 1)
    >>> d.result, d.status
    (log(lambda1/lambda2) - 1 + lambda2/lambda1, <Status.CHECKED: 'checked'>)
    """
    if is_multivariate(P, Q):  # laws in several variables: rdpsym.derive.multivariate
        derived = joint_divergence(P, Q, order, reference=reference)
        if not isinstance(derived.order, sp.Symbol):
            return derived
        order = derived.order
        return _every_order(order, derived, lambda result, low: check_joint(P, Q, order, result, low),
                            lambda: joint_divergence(P, Q, order, below_one=True))
    if has_atoms(P, Q):  # point masses beside a density: rdpsym.derive.atoms
        return atoms.divergence(P, Q, order)
    return univariate_divergence(P, Q, order, reference=reference)


@operations.rdp.provide
def mechanism_rdp(mechanism, order: object = alpha) -> Derivation:
    """D_order of ``mechanism``'s worst-case pair (``Mechanism.rdp``), proved equal to its published form if any.

    Adjacency is symmetric: where the factory has not argued that D(P‖Q) dominates D(Q‖P) (``symmetric``), the
    RDP is the larger of the two directions, as the mechanism's curve takes it (a k-ary randomized response
    against its special value's uniform row gave D(P‖Q) = log 3 at order 2, labelled checked, where the reverse
    is 18.5; a probe).
    """
    P, Q = mechanism.pair
    forward = renyi_divergence(P, Q, order, reference=mechanism.reference)
    if mechanism.symmetric:
        return forward
    others = [(RenyiDivergence(Q_, P_, order), REVERSE, renyi_divergence(Q, P, order))]
    inner = mechanism.parameters.get("mechanism") if mechanism.name == "poisson-sampled" else None
    if isinstance(inner, Mechanism) and not inner.symmetric:
        # The inner guarantee holds for its pair both ways round: the Poisson mixture of the swapped pair too
        # (a hand-made inner pair: D₂ = ∞ that way, 0.0149 "checked" the other; a probe).
        P2, Q2 = _poisson_pair(mechanism.parameters["q"], dataclasses.replace(inner, pair=inner.pair[::-1]))
        others += [(RenyiDivergence(_P2, _Q2, order), SWAPPED, renyi_divergence(P2, Q2, order)),
                   (RenyiDivergence(_Q2, _P2, order), SWAPPED, renyi_divergence(Q2, P2, order))]
    return _largest(forward, others)


#: How the reverse direction's step is justified.
REVERSE = "the same derivation with the two laws exchanged"


#: The laws of the Poisson mixture of an inner pair taken the other way round, in the chain.
_P2, _Q2 = sp.Symbol("P'"), sp.Symbol("Q'")
SWAPPED = "the inner pair (P₀, Q₀) taken the other way round: P' = (1 − q)P₀ + qQ₀ against Q' = P₀"


def _largest(forward: Derivation, others: list) -> Derivation:
    """The largest of D(P‖Q) and the ``others`` ((what, why, Derivation): D(Q‖P), and for a Poisson-sampled
    mechanism whose inner pair is not symmetric, its swapped pair's two directions) as one derivation: the forward
    chain, each other's value (and why it is ∞, where it says so), their maximum.  Its status is the weakest; a
    numeric one makes the maximum a number (the others evaluated at 50 digits).  Conditions are folded into one
    Piecewise, Piecewise((max, all hold), (∞, True)): a Max of Piecewise was evaluated branch by branch inside it, and
    where one direction's condition fails its finite branch was 0/0 (a review)."""
    derivations = [forward, *(d for _, _, d in others)]
    status = weakest(tuple(d.status for d in derivations))
    if any(isinstance(d.result, mpmath.mpf) for d in derivations):
        result = max(d.evalf(dps=50) for d in derivations)
    else:
        result = sp.piecewise_fold(sp.Max(*(d.result for d in derivations)))
    order = forward.order
    steps = list(forward.steps)
    for what, why, d in others:
        steps += [dataclasses.replace(step, lhs=what) for step in d.steps if isinstance(step.rule, Diverges)][-1:]
        steps.append(Step(what, "=", d.result, Because(why), d.status))
    every = sp.Max(RenyiDivergence(P_, Q_, order), *(what for what, _, _ in others), evaluate=False)
    steps.append(Step(every, "=", result, Largest("directions"), status))
    closed = sp.Max(*(d.closed_form for d in derivations)) \
        if all(d.closed_form is not None for d in derivations) else None
    return Derivation(order=order, result=result, status=status, steps=tuple(steps), closed_form=closed,
                      conditions=tuple(c for d in derivations for c in d.conditions),
                      hypotheses=tuple(dict.fromkeys(h for d in derivations for h in d.hypotheses)),
                      evidence=tuple(e for d in derivations for e in d.evidence))

