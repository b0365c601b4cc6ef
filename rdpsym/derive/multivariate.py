"""Rényi divergences of laws in several variables (:mod:`rdpsym.laws.multivariate`), derived and checked.

:func:`rdpsym.renyi_divergence` hands every pair with a multivariate law here
(:func:`joint_divergence`); :func:`rdpsym.renyi_divergence_mp` hands the
numeric definition here (:func:`~rdpsym.derive.joint_numeric.joint_divergence_mp`).  The routes, tried in
this order on the blocks the two laws are aligned into:

1. **Independent coordinates** (a product measure, or a joint density that
   separates): D_α(⊗P_i‖⊗Q_i) = Σ_i D_α(P_i‖Q_i) at every order, KL and D_∞
   included (additivity: van Erven–Harremoës 2014, Theorem 28).  Each
   coordinate is derived by the one-dimensional engine, as a step of the
   derivation; n identical coordinates give n·D, kept in that compact form;
   a coordinate whose two laws coincide contributes 0 (Mironov 2017, Prop 8).
2. **Gaussian blocks** (log-densities quadratic on ℝ^d: the multivariate
   normal, written as a :class:`~rdpsym.laws.multivariate.MultivariateNormal`
   or as any joint pdf of that form): the moment is a Gaussian integral in d
   dimensions, done by completing the square
   (:func:`rdpsym.engine.quadratic.gaussian_integral`), finite iff
   Σ_α = αΣ₂ + (1−α)Σ₁ ≻ 0; the KL is the expectation of a quadratic under
   P; D_∞ the supremum of a quadratic.  Each result is then rewritten in the
   form of Gil–Alajaji–Linder 2013 and *proved* equal by rational identities.
3. **Finite discrete blocks**: the table of joint outcomes (the 1-D engine's
   finite sums).
4. Anything else: a labelled numeric value from the definition when no
   parameters are left, else :class:`~rdpsym.foundations.errors.NoClosedFormError`.

Every closed form is checked against the definition at sampled parameter
points, to 40 digits, by a numeric route independent of the symbolic one:
coordinates by one-dimensional quadrature of their definitions (moments
multiplied), Gaussian blocks by the d-dimensional integral in the frame of a
numeric (mpmath) eigen-decomposition of the integrand's Hessian, read off the
raw densities.  A mechanism whose reference carries a sensitivity ball
(``rdpsym.gaussian(σ, Δ, dimension=d)``, ``rdpsym.laplace(b, Δ, dimension=d)``)
has its worst case over the ball derived as steps, and checked at other shifts.

The stages are modules of their own: :mod:`rdpsym.derive.joint_blocks` (the
laws read as aligned blocks), :mod:`rdpsym.derive.joint_gaussian` (route 2),
:mod:`rdpsym.derive.joint_numeric` (the numeric definition),
:mod:`rdpsym.derive.joint_check` (the check and the proof against a reference)
and :mod:`rdpsym.derive.joint_ball` (the worst case over a sensitivity ball);
here are the derivation that ties them together and each block's route.

>>> import sympy as sp, rdpsym
>>> s = sp.Symbol("sigma", positive=True)
>>> d = sp.Symbol("d", integer=True, positive=True)
>>> r = rdpsym.gaussian(s, 1, dimension=d).rdp()
>>> r.result, r.status
(alpha/(2*sigma**2), <Status.PROVED: 'proved'>)
"""

from __future__ import annotations

import mpmath
import sympy as sp

from rdpsym.derive.check_loop import POINTS
from rdpsym.derive.derivation import Derivation
from rdpsym.derive.joint_ball import _ball_derivation
from rdpsym.derive.joint_blocks import (
    Block,
    Part,
    _divergence,
    _free,
    _laws_ok,
    _parameters,
    _rename_steps,
    _tables,
    align,
    renamed_part,
    renaming,
)
from rdpsym.derive.joint_check import _check, _equal_to_reference
from rdpsym.derive.joint_gaussian import _gaussian_part, gaussian_pair
from rdpsym.derive.joint_numeric import joint_divergence_mp, numeric_block
from rdpsym.derive.univariate import univariate_divergence
from rdpsym.engine.context import Hypotheses
from rdpsym.foundations.errors import DensityError, DomainError, NoClosedFormError, must
from rdpsym.foundations.notation import Coordinates, DensityAt, NormalLaw, ProductLaw
from rdpsym.foundations.notation import P as P_
from rdpsym.foundations.notation import Q as Q_
from rdpsym.foundations.numbers import Digits
from rdpsym.foundations.precision import sympy_evalf_guard
from rdpsym.foundations.reading import parse_order
from rdpsym.foundations.record import (
    Additivity,
    FromDefinition,
    Given,
    IdenticalLaws,
    NoClosedForm,
    NotShownEqual,
    Numeric,
    ProvedEqual,
    Published,
    Separates,
    Status,
    Step,
    SumOfCoordinates,
    weakest,
)
from rdpsym.foundations.symbols import alpha
from rdpsym.laws.additive_noise import ball_of
from rdpsym.laws.densities import Density
from rdpsym.laws.joint import Joint
from rdpsym.laws.multivariate import dimension_of
from rdpsym.laws.multivariate_normal import MultivariateNormal

oo = sp.oo

__all__ = ["joint_divergence"]


def joint_divergence(P: object, Q: object, order: object = alpha, *, reference=None,
                     below_one: bool = False) -> Derivation:
    """D_order(P‖Q) for laws in several variables (:func:`rdpsym.renyi_divergence` calls this).

    Parameters and result as :func:`rdpsym.renyi_divergence`, but a symbolic order stands for the
    orders above 1 only (with ``below_one``, for those in (0, 1)): :func:`rdpsym.renyi_divergence`
    joins the two.  ``reference`` may carry a sensitivity ball (a built-in mechanism in d
    dimensions): the worst case over it is then derived too.

    >>> import sympy as sp, rdpsym
    >>> from rdpsym.laws.multivariate_normal import MultivariateNormal
    >>> m = sp.Symbol("m", real=True)
    >>> P = MultivariateNormal([0, 0], sp.eye(2))
    >>> Q = MultivariateNormal([m, 0], sp.Matrix([[1, 0], [0, 2]]))
    >>> rdpsym.renyi_divergence(P, Q, 1).result
    (2*m**2 - 1)/4 + log(2)/2
    """
    _laws_ok(P, Q)
    order = parse_order(order)
    params = _parameters(P) | _parameters(Q)
    if isinstance(order, sp.Symbol) and order in params:
        raise DomainError(must("order", f"a symbol that is not a parameter of P or Q (rename {order} in the laws)",
                               order))
    hyp = Hypotheses(order if isinstance(order, sp.Symbol) else None, below_one=below_one)
    ball = ball_of(reference)
    if ball is not None:
        return _ball_derivation(P, Q, order, hyp, reference, ball)
    blocks = align(P, Q)
    steps = _setting_steps(P, Q, blocks)
    try:
        parts, names = _parts(blocks, order, hyp)
    except NoClosedFormError:
        if params or isinstance(order, sp.Symbol):
            raise
        return _numeric_derivation(P, Q, order, steps, "no closed form for a block")
    total, conditions, more = _combine(blocks, parts, names, order)
    steps += more
    hypotheses = hyp.stated + tuple(
        dict.fromkeys(h for part in parts for h in part.hypotheses))
    if any(part.numeric for part in parts):
        if params:
            raise NoClosedFormError("a block has no closed form; give the parameters values for a numeric value")
        value = total if isinstance(total, mpmath.mpf) else _mpf(total)
        return Derivation(order=order, result=value, status=Status.NUMERIC, steps=tuple(steps),
                          evidence=tuple(e for part in parts for e in part.evidence), hypotheses=hypotheses)
    result = total if not conditions or total == oo else sp.Piecewise((total, sp.And(*conditions)), (oo, True))
    # One-dimensional coordinates were each checked against their own definition by the 1-D engine
    # (at its sample points); the sum is then checked once more as a whole, at one point, to catch an
    # assembly error (alignment, copies, renaming).  Blocks in several variables are checked in full here.
    one_d = all(isinstance(b.p, Density) or b.p == b.q for b in blocks)
    evidence = _check(P, Q, order, result, conditions, hyp, blocks, points=1 if one_d else POINTS)
    status = weakest([Status.CHECKED, *[_best(part.status) for part in parts]])
    inner = [e for part in parts for e in part.evidence if isinstance(e, (ProvedEqual, NotShownEqual))]
    if reference is not None:
        citation = reference.citation(order)
        ok = _equal_to_reference(total, reference, order, hyp)
        evidence.insert(0, ProvedEqual(citation, "expressions") if ok else NotShownEqual(citation))
        steps.append(Step(_divergence(P_, Q_, order), "=", reference.divergence_at(order), Published(citation),
                          Status.PROVED if ok else Status.CHECKED))
        if ok and all(part.status == Status.PROVED or part.status == Status.CHECKED for part in parts):
            status = Status.PROVED
    elif inner and all(part.status == Status.PROVED for part in parts):
        status = Status.PROVED
    return Derivation(order=order, result=result, status=status, steps=tuple(steps), closed_form=total,
                      conditions=conditions, hypotheses=hypotheses, evidence=tuple(inner + evidence),
                      reference=reference, moment=None)


def _best(status: Status) -> Status:
    """A part's status as it bounds the whole (proved parts do not lower a checked whole)."""
    return Status.CHECKED if status == Status.PROVED else status


@sympy_evalf_guard.serialized  # mpmath's global precision: one thread at a time
def _mpf(value) -> mpmath.mpf:
    if value == oo:
        return mpmath.inf
    with mpmath.workdps(60):
        return Digits(+mpmath.mpf(sp.N(value, 60)._to_mpmath(mpmath.mp.prec)), 50)


def _parts(blocks: list[Block], order, hyp: Hypotheses) -> tuple[list[Part], list[tuple]]:
    """Each block's part; a one-dimensional block that is an earlier one with its parameters renamed (coordinates
    shifted by m₁ and by m₂) is that block's part renamed, not derived again."""
    single = len(blocks) == 1 and blocks[0].copies == 1
    names = [(P_, Q_)] if single else [(sp.Symbol(f"P_{k + 1}"), sp.Symbol(f"Q_{k + 1}")) for k in range(len(blocks))]
    parts: list[Part] = []
    for k, (block, name) in enumerate(zip(blocks, names)):
        earlier = next(((i, m) for i in range(k) if (m := renaming(blocks[i], block)) is not None), None)
        if earlier is None:
            parts.append(_derive_block(block, order, hyp, name))
        else:
            i, mapping = earlier
            parts.append(renamed_part(parts[i], {**mapping, names[i][0]: name[0], names[i][1]: name[1]}))
    return parts, names


def _setting_steps(P, Q, blocks: list[Block]) -> list[Step]:
    """The laws compared, as the derivation's first lines."""
    steps = []
    for name, law in ((P_, P), (Q_, Q)):
        if isinstance(law, MultivariateNormal):
            steps.append(Step(name, "=", NormalLaw(law.mean, law.covariance), Given("normal")))
        elif isinstance(law, Joint):
            steps.append(Step(DensityAt(name, Coordinates(*law.variables)), "=", law.pdf,
                              Given("densities", (sp.ProductSet(*law.support),))))
    if len(blocks) > 1 or blocks[0].copies != 1:
        for name, side in ((P_, "p"), (Q_, "q")):
            product = ProductLaw(*[(sp.Symbol(f"{name}_{i + 1}"), b.copies) for i, b in enumerate(blocks)])
            law = P if side == "p" else Q
            rule = Separates() if isinstance(law, Joint) else Given("product")
            steps.append(Step(name, "=", product, rule))
    return steps


@sympy_evalf_guard.serialized  # mpmath's global precision: one thread at a time
def _combine(blocks, parts, names, order) -> tuple:
    """Σ copies·D of the blocks, with the additivity step and each block's own derivation."""
    steps: list[Step] = []
    conditions: list = []
    single = len(blocks) == 1 and blocks[0].copies == 1
    if not single:
        terms = [sp.Mul(b.copies, _divergence(*n, order), evaluate=False) if b.copies != 1 else _divergence(*n, order)
                 for b, n in zip(blocks, names)]
        steps.append(Step(_divergence(P_, Q_, order), "=", sp.Add(*terms, evaluate=False) if len(terms) > 1
                          else terms[0], Additivity()))
    for part in parts:
        steps += part.steps
        conditions += list(part.conditions)
    if any(part.numeric for part in parts):
        with mpmath.workdps(60):
            total = mpmath.fsum((part.value if isinstance(part.value, mpmath.mpf) else _mpf(part.value)) * int(b.copies)
                                for b, part in zip(blocks, parts))
        return Digits(total, 50) if mpmath.isfinite(total) else total, (), steps
    values = [part.value for part in parts]
    infinite = [b for b, v in zip(blocks, values) if v == oo]
    if infinite and all(b.copies.is_positive for b in infinite):
        total = oo
        conditions = []
    else:
        total = sp.Add(*[b.copies * v for b, v in zip(blocks, values)])
        if total.has(sp.Piecewise):  # a coordinate's D_∞ by cases: the cases of the sum
            total = sp.piecewise_fold(total)
    if not single:
        steps.append(Step(_divergence(P_, Q_, order), "=", total, SumOfCoordinates()))
    return total, tuple(dict.fromkeys(conditions)), steps


def _numeric_derivation(P, Q, order, steps, why: str) -> Derivation:
    value = joint_divergence_mp(P, Q, order, dps=50)
    steps = list(steps) + [Step(_divergence(P_, Q_, order), "=", sp.Float(value, 50) if value != mpmath.inf else oo,
                                Numeric(50, why), Status.NUMERIC)]
    return Derivation(order=order, result=value, status=Status.NUMERIC, steps=tuple(steps),
                      evidence=(NoClosedForm(why), FromDefinition(50)))


def _derive_block(block: Block, order, hyp: Hypotheses, names: tuple) -> Part:
    p, q = block.p, block.q
    Pn, Qn = names
    if p == q:
        return Part(sp.S.Zero, (), [Step(_divergence(Pn, Qn, order), "=", 0, IdenticalLaws())], Status.PROVED)
    if isinstance(p, Density) and isinstance(q, Density):
        d1 = univariate_divergence(p, q, order)
        steps = _rename_steps(d1.steps, {P_: Pn, Q_: Qn})
        numeric = d1.status == Status.NUMERIC
        value = d1.result if numeric or d1.closed_form is None else d1.closed_form
        return Part(value, d1.conditions, steps, d1.status, list(d1.evidence), numeric=numeric)
    if isinstance(p, Density) != isinstance(q, Density):
        raise DensityError("P and Q must both be Continuous or both Discrete on each coordinate; got one of each.")
    pair = gaussian_pair(p, q)
    if pair is not None:
        return _gaussian_part(pair, order, hyp, names)
    table = _tables(p, q)
    if table is not None:
        d1 = univariate_divergence(*table, order)
        return Part(d1.closed_form if d1.closed_form is not None else d1.result, d1.conditions,
                    _rename_steps(d1.steps, {P_: Pn, Q_: Qn}), d1.status, list(d1.evidence))
    free = _free(p) | _free(q)
    if free or isinstance(order, sp.Symbol):
        shown = ", ".join(sorted(map(str, free | ({order} if isinstance(order, sp.Symbol) else set()))))
        raise NoClosedFormError(f"no closed form for a block of dimension {dimension_of(p)} that neither separates "
                                f"nor is Gaussian; for a numeric value give {shown} values: "
                                "renyi_divergence_mp(P, Q, order, values={...}).")
    value = numeric_block(p, q, order, 50)
    value = Digits(value, 50) if mpmath.isfinite(value) else value
    why = "a joint block that neither separates nor is Gaussian"
    return Part(value, (), [Step(_divergence(Pn, Qn, order), "=", sp.Float(value, 50) if value != mpmath.inf
                                 else oo, Numeric(50, why), Status.NUMERIC)], Status.NUMERIC,
                [NoClosedForm(why)], numeric=True)
