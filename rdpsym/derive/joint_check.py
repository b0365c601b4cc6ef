"""A result for laws in several variables checked against the definition, and proved equal to a reference.

Every closed form of :mod:`rdpsym.derive.multivariate` is compared with the numeric
definition (:func:`~rdpsym.derive.joint_numeric.joint_divergence_mp`) at sampled
parameter points, to 40 digits, by the sampling loop of
:class:`~rdpsym.derive.check_loop.Check`; a joint density that was split into
coordinates is compared with their product.  A result with a reference is proved
equal to the published form symbolically (:func:`_equal_to_reference`).
"""

from __future__ import annotations

import random

import sympy as sp
from flint import arb

from rdpsym.derive.certified import certified_divergence
from rdpsym.derive.check_loop import AGREE_DIGITS, POINTS, Check
from rdpsym.derive.joint_blocks import Block, _at, _parameters, align
from rdpsym.derive.joint_numeric import joint_divergence_mp
from rdpsym.derive.sampling import sample_points
from rdpsym.derive.values import shown
from rdpsym.derive.verify import is_zero
from rdpsym.engine.context import Hypotheses
from rdpsym.foundations.balls import precision
from rdpsym.foundations.errors import ConvergenceError, VerificationError
from rdpsym.foundations.precision import bits_for
from rdpsym.foundations.record import AgreesByRoute
from rdpsym.laws.densities import Density
from rdpsym.laws.joint import Joint
from rdpsym.laws.multivariate import dimension_of

oo = sp.oo


def _equal_to_reference(total, reference, order, hyp: Hypotheses) -> bool:
    ref = reference.divergence_at(order)
    if total == oo or ref == oo:
        return total == ref
    try:
        if is_zero(total - ref, hyp):
            return True
        if order is not oo and order != 1:
            return is_zero(sp.exp((order - 1) * total) - reference.moment_at(order), hyp)
    except (TypeError, ValueError):
        return False
    return False


def _sample(params: list, order_symbol, seed: int):
    return (point for point, _ in sample_points(params, order_symbol, seed))


def _route(blocks: list[Block]) -> str:
    kinds = {"coordinates" if dimension_of(b.p) == 1 or b.p == b.q else "diagonalised" for b in blocks}
    return " and ".join(sorted(kinds))


def check_joint(P, Q, order, result, hyp: Hypotheses) -> list:
    """:func:`_check` of a result (its conditions in its Piecewise) on the laws' own blocks, at every point."""
    return _check(P, Q, order, result, (), hyp, align(P, Q))


def _check(P, Q, order, closed_form, conditions, hyp: Hypotheses, blocks: list[Block],
           seed: int = 20170224, points: int = POINTS) -> list:
    """Compare the result with the numeric definition at sampled points; return the evidence.

    The sampling, its coverage (every part of the orders, every branch, the boundaries in the
    order) and the comparison are those of :class:`~rdpsym.derive.check_loop.Check`.  The numeric
    route (:func:`~rdpsym.derive.joint_numeric.joint_divergence_mp`) works from the raw laws, block by block:
    one-dimensional quadrature of each coordinate's definition, or the d-dimensional integral in a
    numerically diagonalised frame, never from a symbolic result.  A separated joint density is also compared
    with the product of its coordinates at random points.
    """
    claimed = closed_form
    if conditions and not isinstance(closed_form, sp.Piecewise) and closed_form != oo:
        claimed = sp.Piecewise((closed_form, sp.And(*conditions)), (oo, True))
    return _JointCheck(P, Q, order, claimed, hyp, seed, blocks, points).run()


class _JointCheck(Check):
    """The check of a result for laws in several variables (see :func:`_check`)."""

    def __init__(self, P, Q, order, claimed, hyp: Hypotheses, seed: int, blocks: list[Block], points: int):
        super().__init__(P, Q, order, claimed, hyp, seed, _parameters(P) | _parameters(Q), points)
        self.route = _route(blocks)

    def laws_at(self, point: dict):
        return self.laws_or_passed_over(point, lambda: tuple(_at(law, point) for law in (self.P, self.Q)))

    def certified(self, Pp, Qp, at):
        """The definition as a certified ball where every block that differs is one coordinate the certified
        route integrates (:func:`~rdpsym.derive.certified.certified_divergence`): the blocks' balls, each times
        its copies, summed as :func:`~rdpsym.derive.joint_numeric.joint_divergence_mp` sums their values
        (additivity over independent blocks); else None, and the mpmath route answers.  Each ball's radius is
        below 10^−(AGREE_DIGITS+1) of its midpoint and every term is a divergence (≥ 0), so the sum's is too;
        checked again on the sum."""
        if at is oo:
            return None
        blocks = [block for block in align(Pp, Qp) if block.p != block.q]
        if not blocks or not all(isinstance(block.p, Density) for block in blocks):
            return None
        with precision(bits_for(AGREE_DIGITS + 20)):
            total = arb(0)
            for block in blocks:
                ball = certified_divergence(block.p, block.q, at, AGREE_DIGITS)
                if ball is None:
                    return None
                total += ball * int(block.copies)
            if not total.rad() < abs(total.mid()) * arb(10) ** -(AGREE_DIGITS + 1):
                return None
        return total

    def definition(self, Pp, Qp, at, closed, point: dict, where):
        try:
            return joint_divergence_mp(Pp, Qp, at, dps=AGREE_DIGITS + 5), None
        except ConvergenceError as exc:
            return self.skip(exc, point, at, Pp, Qp, where)

    def agreed(self, items: tuple, digits, integrated_in, method=None):
        return AgreesByRoute(items, digits, None, method, self.route)

    def after(self, Pp, Qp) -> None:
        _check_separation(Pp)
        _check_separation(Qp)

    def where(self, point: dict, at, Pp, Qp, sampled: bool) -> str:
        return shown(point) + ("" if self.order_symbol is not None else f", order {at}")


def _check_separation(law) -> None:
    """A joint density that was split into coordinates equals their product (30 digits, random points)."""
    if not isinstance(law, Joint) or len(law.coordinates()) == 1:
        return
    rng = random.Random(7)
    parts = law.coordinates()
    for _ in range(3):
        point = {}
        for v, s in zip(law.variables, law.support):
            lo, hi = (s.inf, s.sup) if law.discrete else (s.start, s.end)
            lo = lo if lo.is_finite else (hi - 4 if hi.is_finite else -2)
            hi = hi if hi.is_finite else lo + 4
            point[v] = sp.Integer(rng.randint(int(lo), int(hi))) if law.discrete else \
                lo + (hi - lo) * sp.Rational(rng.randint(1, 99), 100)
        joint = sp.N(law.pdf.subs(point), 30)
        product = sp.N(sp.Mul(*[lw.expr.subs(point) for _, lw in parts]), 30)
        if abs(joint - product) > sp.Float("1e-25") * max(abs(joint), sp.Float("1e-300")):
            raise VerificationError(f"the joint density does not equal the product of its coordinates at {point}")
