"""The check of a result against the definition: the sampling loop, its coverage and its evidence.

A closed form leaves rdpsym only after it was found equal to an independent
evaluation of the definition to :data:`AGREE_DIGITS` digits at seeded parameter
points covering everything it claims:

* **every part of the orders it is returned for** (:mod:`rdpsym.derive.sampling`):
  a symbolic order is checked at orders near 1, moderate and large, and below 1
  when the result claims those orders too;
* **every branch** of a Piecewise result, its ∞ branch included: where the result
  says ∞ the definition must be ∞ there (a witness: P > 0 = Q somewhere, or a
  divergent integrand), so ∞ is never claimed where the divergence is finite;
* **next to every boundary** its conditions draw in the order, on both sides.

The value of the closed form at a point is computed in Arb balls at rising
precision until it is resolved (10⁻⁶⁰⁰ is not 0), else by SymPy at two precisions.
A disagreement raises :class:`~rdpsym.foundations.errors.VerificationError`: a
wrong formula is never returned.  What was covered is recorded in the evidence
(:class:`~rdpsym.foundations.record.CheckedOn`), and the renderers show it.

:class:`Check` is that loop for every kind of law; how the laws are read at a point
and how the definition is evaluated there is a subclass's:
:class:`~rdpsym.derive.verify.OneDimensionalCheck` for laws of one variable,
:class:`~rdpsym.derive.joint_check._JointCheck` for laws in several variables.
"""

from __future__ import annotations

from collections.abc import Callable

import mpmath
import sympy as sp

from rdpsym.derive.certified import METHOD as CERTIFIED
from rdpsym.derive.sampling import (
    MAX_TRIES,
    boundary_orders,
    closed_ends,
    far_values,
    points_past_boundaries,
    sample_points,
    strata,
)
from rdpsym.derive.values import a_denominator_vanishes, branch_at, closed_value, shown
from rdpsym.engine.context import Hypotheses
from rdpsym.foundations.balls import precision
from rdpsym.foundations.errors import DensityError, NotVerified, ParameterError, VerificationError
from rdpsym.foundations.numbers import shorten
from rdpsym.foundations.precision import bits_for, private_context
from rdpsym.foundations.reading import value_for
from rdpsym.foundations.record import AgreesWithDefinition, CheckedOn, NotChecked, point_items
from rdpsym.foundations.symbols import Parameter
from rdpsym.laws.densities import Density
from rdpsym.laws.law_conditions import law_conditions

#: Significant digits of agreement required between closed form and definition.
AGREE_DIGITS = 40
#: Parameter points a closed form is checked at (fewer only if no more are valid), at least one per part of
#: the claimed orders (:mod:`rdpsym.derive.sampling`) and one per branch of the result.
POINTS = 3
#: Points whose definition did not converge that a check may skip (each said in the evidence), if POINTS
#: others agree; for a symbolic order, in each part of the orders (after that many, the part is given up and
#: said to be unchecked: at α ≥ 50 a Poisson pair's moment spans 10²⁶ terms at most points).
MAX_SKIPPED = 2


class Check:
    """One check of a result against the definition: the sampling loop, its coverage and its evidence.

    The loop, the coverage (parts of the orders, branches, boundaries) and the comparison are the
    same for every kind of law; a subclass says how the laws are read at a point
    (:meth:`laws_at`), how the definition is evaluated there (:meth:`definition`, and
    :meth:`certified` for a certified ball where one exists) and what a point that agrees
    records (:meth:`agreed`): :class:`~rdpsym.derive.verify.OneDimensionalCheck` here, the laws in several
    variables in :mod:`rdpsym.derive.multivariate`.
    """

    def __init__(self, P, Q, order, claimed: sp.Basic, hyp: Hypotheses, seed: int, params: set,
                 points: int = POINTS, far: bool = False):
        self.P, self.Q, self.order, self.claimed, self.hyp, self.seed = P, Q, order, claimed, hyp, seed
        self.far = far  # also tried far out in each parameter, for a disagreement only (probe_far)
        self.law_conditions = law_conditions(P, Q)  # (the laws' own: see outside_the_laws)
        self.order_symbol = order if isinstance(order, sp.Symbol) else None
        free = claimed.free_symbols if isinstance(claimed, sp.Basic) else set()
        self.params = sorted(set(params) | (free - {self.order_symbol}), key=lambda s: s.name)
        self.points = points
        self.parts = strata(hyp.below_one, integer=self.order_symbol.is_integer is True, order=self.order_symbol) \
            if self.order_symbol is not None else ()
        self.branches = claimed.args if isinstance(claimed, sp.Piecewise) else ((claimed, sp.true),)
        self.in_branch = [0] * len(self.branches)
        self.in_part: dict[str, list] = {part.name: [] for part in self.parts}
        self.evidence: list = []
        self.skipped: list[tuple[VerificationError, NotChecked]] = []
        self.skipped_in: dict[str | None, int] = {}  # points skipped, by part of the orders (None: no parts)
        self.given_up: dict[str, str] = {}  # parts where the definition did not converge: why
        self.part: str | None = None  # the part of the orders being checked
        self.boundaries: list = []
        self.seeking = False  # in seek_branches: a point whose definition does not converge is passed over

    # -- what a kind of law provides

    def outside_the_laws(self, point: dict) -> bool:
        """Whether one of the laws' own conditions fails at the point (:func:`~rdpsym.laws.law_conditions.
        law_conditions`: a table's probability, a power's base or a sum's weight ≥ 0): the result is stated under
        them, and such a point is passed over (q = 6/5 of a Poisson-sampled Laplace pair with q only positive)."""
        return any(c.xreplace(point) is sp.false for c in self.law_conditions)

    def not_laws(self, point: dict, exc: Exception) -> DensityError | None:
        """The error for a point the parameters' declared intervals (:func:`rdpsym.parameter`) allow where a law is
        not one (``exc``), and the laws' own conditions hold (a point where they fail is passed over: None, see
        :meth:`outside_the_laws`): the result would be claimed there.  Such points were all passed over, and
        1 + 4t(2x − 1)³ on [0, 1] with t in (0, 2), negative at x = 0 for t > 1/4, got a checked D_2 and a value at
        t = 1 (a probe)."""
        if self.outside_the_laws(point) or not all(isinstance(s, Parameter) for s in self.params):
            # (a parameter with SymPy's assumptions alone, a geometric law's positive a of (1 − a)·a^(k−1), is
            # read as a law where it is one, as before: its assumptions are not a declared interval)
            return None
        named = ", ".join(f"{s} = {v}" for s, v in point.items() if s in self.params)
        return DensityError(f"the laws are not probability laws at {named}, which the parameters' declared domains "
                            f"allow ({exc}); declare each parameter's interval where the densities are laws "
                            "(rdpsym.parameter)")

    def laws_at(self, point: dict):
        """The two laws with the point's parameter values, or None where they are not valid laws."""
        raise NotImplementedError

    def laws_or_passed_over(self, point: dict, read: Callable[[], tuple]):
        """``read()`` (the two laws at the point), None where they are no laws there and the point is passed over
        (a parameter out of its interval, or what :meth:`not_laws` passes over), :meth:`not_laws`'s error
        otherwise; without parameters, the error itself (nothing to resample)."""
        try:
            return read()
        except DensityError as exc:
            if not self.params:
                raise
            error = self.not_laws(point, exc)
            if error is None:
                return None
            raise error from None
        except ParameterError:
            if not self.params:
                raise
            return None

    def definition(self, Pp, Qp, at, closed, point: dict, where: Callable[[], str]):
        """(the definition's value at the point, the change of variables it was integrated in), or (None, None)
        for a point skipped because the definition did not converge there (said in the evidence)."""
        raise NotImplementedError

    def certified(self, Pp, Qp, at):
        """The definition as a certified ball at the point, or None where no certified route applies."""
        return None

    def agreed(self, items: tuple, digits: int | None, integrated_in, method: str | None = None):
        """The evidence of one point that agreed."""
        return AgreesWithDefinition(items, digits, integrated_in, method)

    def after(self, Pp, Qp) -> None:
        """Further checks of the laws at a point that agreed (none by default)."""

    def where(self, point: dict, at, Pp, Qp, sampled: bool) -> str:
        """Where a check happened, for a message: the sampled values and the order (and the laws when not sampled)."""
        return _where(point, self.order_symbol, at, Pp, Qp, sampled)

    # -- the loop

    @property
    def needed(self) -> int:
        return self.points if self.params or self.order_symbol is not None else 1

    def covered(self) -> bool:
        return (len(self.evidence) >= self.needed
                and all(orders or part in self.given_up for part, orders in self.in_part.items())
                and all(n > 0 for n in self.in_branch))

    def run(self) -> list:
        seen: set = set()
        for tried, (point, part) in enumerate(sample_points(self.params, self.order_symbol, self.seed,
                                                            self.hyp.below_one), start=1):
            if tried > MAX_TRIES or self.covered():
                break
            key = tuple(sorted((s.name, v) for s, v in point.items()))
            if key in seen:
                continue
            seen.add(key)
            if part is not None and part.name in self.given_up:
                continue
            branch = branch_at(self.claimed, point)
            if branch is None:
                continue  # a condition that the point's exact values leave undecided (on a boundary)
            useful = (len(self.evidence) < self.needed or not self.in_branch[branch]
                      or (part is not None and not self.in_part[part.name]))
            self.part = part.name if part is not None else None
            if useful and self.check_at(point, branch):
                self.in_branch[branch] += 1
                if part is not None:
                    self.in_part[part.name].append(point[self.order_symbol])
        self.check_boundaries()
        self.seek_branches()
        self.probe_far()
        return self.finish(tried)

    def probe_far(self) -> None:
        """The result at each parameter's closed ends (:func:`~rdpsym.derive.sampling.closed_ends`), and with
        ``far`` at its :func:`~rdpsym.derive.sampling.far_values`, the others at an agreeing point's values (the
        first, and the first at another order), for a disagreement only (raised as any other): a point that
        agrees, or whose definition does not converge, leaves the evidence as it was."""
        if not (self.evidence and self.params):
            return
        bases = [dict(self.evidence[0].point)]
        if self.order_symbol is not None:
            other = (p for p in (dict(e.point) for e in self.evidence[1:] if hasattr(e, "point"))
                     if p.get(self.order_symbol) != bases[0].get(self.order_symbol))
            bases += [p for p in [next(other, None)] if p is not None]
        kept = (list(self.evidence), list(self.in_branch), self.part)
        self.seeking = True
        try:
            for i, values in enumerate(bases):
                for symbol in self.params:
                    ends = closed_ends(symbol, values)
                    for value in [*ends, *(far_values(symbol, values) if self.far and i == 0 else ())]:
                        self._probe({**values, symbol: value})
        finally:
            self.seeking = False
            self.evidence[:], self.in_branch[:] = kept[0], kept[1]
            self.part = kept[2]

    def _probe(self, values: dict) -> None:
        """:meth:`probe_far`'s check at one point: a disagreement raises; a point outside the parameters' domains,
        in no branch, or where the definition cannot be evaluated, is passed over."""
        try:
            point = {s: value_for(s, v) for s, v in values.items()}
        except ParameterError:
            return
        if not _within_domains(point):
            return  # (another parameter's interval ends at this one: μ in (−s, s) drawn for s = 1, and s at 1/10)
        try:
            branch = branch_at(self.claimed, point)
            # a form with no real value there (zoo at p = 0 where the definition is +∞; log of 0 read through a
            # float as the log of a tiny negative number) is no disagreement (a review; a probe)
            if branch is None:
                return
            closed_value(self.branches[branch][0], point, AGREE_DIGITS + 15, lambda: "", self.order_symbol)
        except (VerificationError, ValueError, TypeError, ArithmeticError):
            return
        self.part = None
        try:
            self.check_at(point, branch)
        except NotVerified:  # (not evaluable there: no disagreement)
            return
        except VerificationError:
            raise  # a disagreement
        except (ValueError, TypeError, ArithmeticError, ParameterError):
            return  # (SymPy or a law's reader failing at an end: no disagreement either)

    def seek_branches(self) -> None:
        """A point in each branch that no sampled point fell in, sought on and past the boundaries its conditions
        draw in one parameter (:func:`~rdpsym.derive.sampling.points_past_boundaries`), at the first agreeing
        point's other values."""
        if not self.evidence or all(self.in_branch) or not self.params:
            return
        values = dict(self.evidence[0].point)
        self.seeking = True
        try:
            for point in points_past_boundaries(self.claimed, values, self.params):
                try:  # (a root past a parameter's domain: Ω = −5994/5 for a positive Ω, r = 2 in (0, 1 − p))
                    point = {s: value_for(s, v) for s, v in point.items()}
                    branch = branch_at(self.claimed, point)
                    if branch is None or self.in_branch[branch]:
                        continue
                    self.part = None
                    if self.check_at(point, branch):
                        self.in_branch[branch] += 1
                except ParameterError:
                    continue
                if all(self.in_branch):
                    return
        finally:
            self.seeking = False

    def check_boundaries(self) -> None:
        """Orders next to each boundary that the conditions draw in the order, at the first agreeing point."""
        if self.order_symbol is None or not self.evidence or not self.claimed.has(sp.Piecewise):
            return
        values = {s: v for s, v in self.evidence[0].point if s != self.order_symbol}
        self.part = None
        for order in boundary_orders(self.claimed, self.order_symbol, values, self.hyp.below_one):
            point = {**values, self.order_symbol: order}
            branch = branch_at(self.claimed, point)
            if branch is not None and self.check_at(point, branch):
                self.in_branch[branch] += 1
                self.boundaries.append(order)

    def finish(self, tried: int) -> list:
        if self.skipped and len(self.evidence) < self.needed:
            raise self.skipped[0][0]  # too few points agree besides the ones skipped: not verified
        if not self.evidence:
            raise NotVerified(
                f"no valid parameter point found to check {shorten(self.claimed)} against the definition "
                f"(tried {tried}); give the parameters values")
        if not self.in_branch[0] and len(self.branches) > 1:
            raise NotVerified(
                f"no sampled point fell in the first branch of {shorten(self.claimed)} "
                f"({self.branches[0][1]}): it was not checked")
        notes = [note for _, note in self.skipped]
        for part, orders in self.in_part.items():
            if part in self.given_up:
                notes.append(NotChecked(f"the orders {part}", self.given_up[part]))
            elif not orders:
                notes.append(NotChecked(f"the orders {part}", "no sampled point there could be checked"))
        region = " at the orders 0 < α < 1" if self.hyp.below_one and self.order_symbol is not None else ""
        for index, ((value, _), n) in enumerate(zip(self.branches, self.in_branch), start=1):
            if not n:
                kind = "∞" if value == sp.oo else "finite"
                notes.append(NotChecked(f"branch {index} of {len(self.branches)} of the result ({kind}){region}",
                                        "no sampled point fell in it"))
        summary = CheckedOn(
            orders=tuple((part, tuple(dict.fromkeys(orders))) for part, orders in self.in_part.items()),
            points=len(self.evidence),
            branches=tuple((condition, n) for (_, condition), n in zip(self.branches, self.in_branch))
            if len(self.branches) > 1 else (),
            boundaries=tuple(self.boundaries))
        return [*self.evidence, summary, *notes]

    def check_at(self, point: dict, branch: int) -> bool:
        """Check the result at one point (in the given branch); whether it agreed (False: not a usable point)."""
        laws = None if self.outside_the_laws(point) else self.laws_at(point)
        if laws is None:
            return False
        Pp, Qp = laws
        at = point.get(self.order_symbol, self.order)
        expr = self.branches[branch][0]

        def where() -> str:  # said only when needed (long numbers print slowly)
            return self.where(point, at, Pp, Qp, bool(self.params))

        if a_denominator_vanishes(expr, {s: v for s, v in point.items() if s != self.order_symbol}):
            return False  # 0/0 in the parameters (a₁^b − a₂^b at a₁ = a₂): not a point to compare at; evalf refuses it
        closed = closed_value(expr, point, AGREE_DIGITS + 15, where, self.order_symbol)
        items = point_items(point, sort=True)
        if closed != mpmath.inf:
            # The fast path: the definition as a certified ball, where a route applies and is narrow enough
            # to decide 40 digits; else the numeric route.
            ball = self.certified(Pp, Qp, at)
            if ball is not None:
                if not _in_ball(closed, ball):
                    raise VerificationError(
                        f"closed form {shorten(self.claimed)} disagrees with the definition at {where()}: "
                        f"{mpmath.nstr(closed, 25)} is outside the certified {ball.str(25, radius=True)}")
                self.evidence.append(self.agreed(items, AGREE_DIGITS, None, CERTIFIED))
                self.after(Pp, Qp)
                return True
        numeric, integrated_in = self.definition(Pp, Qp, at, closed, point, where)
        if numeric is None:
            return False
        if mpmath.isinf(closed) and not mpmath.isinf(numeric):
            raise VerificationError(
                f"the result {shorten(self.claimed)} says ∞ at {where()}, but the definition is finite "
                f"there: {mpmath.nstr(numeric, 25)}")
        if not _agree(closed, numeric):
            raise VerificationError(
                f"closed form {shorten(self.claimed)} disagrees with the definition at {where()}: "
                f"{mpmath.nstr(closed, 25)} vs {mpmath.nstr(numeric, 25)}")
        self.evidence.append(self.agreed(items, None if mpmath.isinf(numeric) else AGREE_DIGITS, integrated_in))
        self.after(Pp, Qp)
        return True

    def skip(self, exc: Exception, point: dict, at, Pp, Qp, where: Callable[[], str]):
        """A point whose definition did not converge: skipped and said so (at most :data:`MAX_SKIPPED`, and only
        while enough others can agree), else :class:`NotVerified`."""
        full = where()
        brief = self.where(point, at, Pp, Qp, True)
        said = f"did not converge at {full}" if full != brief else "did not converge"
        failure = NotVerified(f"could not verify at {brief}: the definition {said}: {shorten(exc)}")
        if self.seeking:
            return None, None  # a point sought for a branch is not one of the sample: not counted (a review)
        if not (self.params or self.order_symbol is not None):
            raise failure from exc  # one point to check, and it cannot be
        count = self.skipped_in[self.part] = self.skipped_in.get(self.part, 0) + 1
        if count > MAX_SKIPPED:
            if self.part is None:
                raise failure from exc
            # A part of the orders where the definition does not converge: given up, and said so; the result
            # must still agree at POINTS points in the others, and in every branch.
            self.given_up[self.part] = (f"the definition did not converge at {MAX_SKIPPED + 1} sampled points "
                                        f"there (last at {brief}: {shorten(exc, 120)})")
            return None, None
        self.skipped.append((failure, NotChecked(f"the definition at {brief}",
                                                 f"it did not converge ({shorten(exc, 120)})")))
        return None, None


def _within_domains(point: dict) -> bool:
    """Whether no declared parameter of ``point`` lies outside its interval, the interval's ends read at the point."""
    return not any(isinstance(s, Parameter) and s.contains(v, point) is False for s, v in point.items())


def _in_ball(closed: mpmath.mpf, ball) -> bool:
    """Whether the closed form's value lies within 10^−AGREE_DIGITS (relative to it) of the certified ball.

    The ball's radius is below 10^−(AGREE_DIGITS+1) of its midpoint (else no ball is given), so
    this is agreement to AGREE_DIGITS digits with a value known to contain the definition's.
    A finite ball excludes +∞.
    """
    if mpmath.isinf(closed) or mpmath.isnan(closed):
        return False
    from flint import arb

    # python-flint reads the mpf's sign, mantissa and exponent exactly: the closed form's value as computed (not
    # mpmath.mpf(closed), which rounds to the global 53 bits; not closed.man_exp, the mantissa without its sign, which
    # read a closed form −α/(2σ²) as α/(2σ²) and agreed with the Gaussian's ball)
    value = arb(closed)
    with precision(bits_for(AGREE_DIGITS + 20) + closed._mpf_[3]):  # (+ the mantissa's bits)
        tolerance = abs(value) * arb(10) ** -AGREE_DIGITS
        gap = (value - ball.mid()).abs_lower() - ball.rad()  # ≤ the distance from value to the ball
        return bool(gap <= tolerance)


def _agree(a: mpmath.mpf, b: mpmath.mpf) -> bool:
    """Agreement to AGREE_DIGITS significant digits, with no absolute floor.

    An absolute floor (the former 10^−45) let a value of 2.5·10^−19 pass on
    its first 26 digits; relative agreement holds every value to 40 digits
    (0 only to 0, which the definition gives exactly when P = Q).
    """
    if mpmath.isinf(a) or mpmath.isinf(b):
        return a == b
    with private_context(AGREE_DIGITS + 15) as ctx:
        a, b = ctx.convert(a), ctx.convert(b)
        return abs(a - b) <= ctx.mpf(10) ** (-AGREE_DIGITS) * abs(b)


def _where(point: dict, order_symbol, at, P: Density, Q: Density, sampled: bool) -> str:
    """Where a check happened: the sampled values and the order, and the pair when it
    had no free parameters (so the message names e.g. sigma = 10000 through P and Q)."""
    parts = [shown(point)] if point else []
    if order_symbol is None:
        parts.append(f"order {at}")
    text = ", ".join(p for p in parts if p)
    if not sampled:
        text += f" for P = {_density_text(P)}, Q = {_density_text(Q)}"
    return text


def _density_text(D: Density) -> str:
    table = getattr(D, "table", None)
    return shorten(table if table is not None else f"{D.expr} on {D.support}")
