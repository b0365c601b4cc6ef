"""Joint densities in several variables (:class:`Joint`) and the checks that they are laws.

A :class:`Joint` is a pdf (pmf) in a tuple of variables on a product of
intervals (integer ranges), written ``rdpsym.Continuous(pdf, (x, y))`` or
``rdpsym.Discrete(pmf, (j, k), support=...)``: the density classes reach
:class:`Joint` through the registry of :mod:`rdpsym.laws.densities`, which this
module fills when imported (it imports the densities, never the reverse).

A joint density that is a product of per-coordinate factors is recognised as
such (:func:`rdpsym.engine.quadratic.separate`) and checked, later derived,
one block at a time; one that does not separate is checked whole by
:func:`check_joint`: a Gaussian by its d-dimensional integral, a finite
discrete one by its exact sum, and anything else, when no parameters are
left, by nested quadrature (:func:`numeric_mass`).  Kept apart from
:class:`~rdpsym.laws.independent.Independent` and
:class:`~rdpsym.laws.multivariate_normal.MultivariateNormal`, which build a
``Joint`` when asked for one explicit density.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import mpmath
import sympy as sp

from rdpsym.engine.context import Hypotheses
from rdpsym.engine.integrals import integrate_exp
from rdpsym.engine.pieces import breakpoints, log_of, piece_point
from rdpsym.engine.quadratic import gaussian_integral, quadratic_coefficients, separate
from rdpsym.engine.sums import sum_exp
from rdpsym.foundations.budget import SymbolicTimeout, time_budget
from rdpsym.foundations.errors import ConvergenceError, DensityError, NoClosedFormError, must
from rdpsym.foundations.precision import mpmath_function, sympy_evalf_guard
from rdpsym.foundations.reading import exact
from rdpsym.laws.densities import Continuous, Discrete, as_support, parameter_values, register_builder
from rdpsym.laws.multivariate import Law
from rdpsym.laws.validation import MASS_SECONDS, check_normalised
from rdpsym.quadrature.compile import to_mpf

oo = sp.oo


def _support_sets(support: object, d: int, discrete: bool) -> tuple:
    """The support as one set per coordinate: None is ℝ^d (ℕ^d), a ProductSet or a sequence is read per
    coordinate, and one Interval (Range) is the same set for every coordinate."""
    if support is None:
        return ((sp.Range(0, oo) if discrete else sp.Interval(-oo, oo)),) * d
    support = as_support(support, discrete)
    if isinstance(support, sp.ProductSet):
        sets = tuple(as_support(s, discrete) for s in support.sets)
    elif isinstance(support, (sp.Interval, sp.Range)):
        sets = (support,) * d
    elif isinstance(support, (tuple, list, sp.Tuple)):
        sets = tuple(as_support(s, discrete) for s in support)
    else:
        sets = ()
    kind = "a SymPy Range with step 1" if discrete else "a SymPy Interval of positive length"
    if len(sets) != d:
        raise DensityError(must("support", f"one set per variable ({d}): a ProductSet, a tuple of sets, or one "
                                           "set for all", support))
    for s in sets:
        ok = (isinstance(s, sp.Range) and s.step == 1 and s.size != 0) if discrete else (
            isinstance(s, sp.Interval) and s.measure != 0)
        if not ok:
            raise DensityError(must("each coordinate's support", kind, s))
    return sets


def _read_variables(variables: object, discrete: bool) -> tuple[sp.Symbol, ...]:
    """Distinct SymPy symbols; each gets a real (integer) twin when it is not declared so."""
    seq = tuple(variables) if isinstance(variables, (tuple, list, sp.Tuple)) else None
    if not seq or not all(isinstance(v, sp.Symbol) for v in seq) or len(set(seq)) != len(seq):
        raise DensityError(must("variables", "a tuple of distinct SymPy Symbols, such as (x, y)", repr(variables)))
    return seq


def _twins(expr: sp.Expr, variables: tuple, discrete: bool) -> tuple[sp.Expr, tuple]:
    """The variables declared real (integer), so that log(exp(u)) simplifies, and ``expr`` written in them."""
    twins = []
    for v in variables:
        ok = v.is_integer if discrete else v.is_real
        twins.append(v if ok else sp.Symbol(v.name, **({"integer": True} if discrete else {"real": True})))
    return expr.xreplace(dict(zip(variables, twins))), tuple(twins)


@dataclass(frozen=True, eq=False)
class Joint(Law):
    """A joint density ``pdf`` in ``variables`` on a product of intervals (``discrete``: a pmf on integer ranges).

    ``support`` is one SymPy set per variable (a tuple, or a ``ProductSet`` such as
    ``Interval(0, oo)**2``), one set for all, or None for ℝ^d (ℕ^d when discrete).
    Checked at construction: nonnegative, and normalising (see the module docstring).

    >>> import sympy as sp
    >>> x, y = sp.symbols("x y", real=True)
    >>> Joint(sp.exp(-x - y), (x, y), support=sp.Interval(0, sp.oo)).coordinates()[1][1]
    Continuous(exp(-y), y, support=Interval(0, oo))
    >>> Joint(2 * sp.exp(-x - y), (x, y), support=sp.Interval(0, sp.oo))
    Traceback (most recent call last):
    ...
    rdpsym.foundations.errors.DensityError: the density must integrate to 1 over its support; got 2.
    """

    pdf: sp.Expr
    variables: tuple
    support: object = None
    discrete: bool = False
    check: bool = True

    def __post_init__(self) -> None:
        variables = _read_variables(self.variables, self.discrete)
        pdf = exact(self.pdf, "pmf" if self.discrete else "pdf", {v.name: v for v in variables})
        pdf, variables = _twins(pdf, variables, self.discrete)
        object.__setattr__(self, "pdf", pdf)
        object.__setattr__(self, "variables", variables)
        object.__setattr__(self, "support", _support_sets(self.support, len(variables), self.discrete))
        bound = [(v, s) for v, s in zip(variables, self.support) if s.free_symbols & set(variables)]
        if bound:  # (x in [0, 1], y in [0, x] was refused as "must integrate to 1; got 2x": a probe)
            v, s = bound[0]
            raise DensityError(must(f"the support of {v}", "a set free of the other variables (the support is a "
                                    "product of sets; a region such as y < x is written in the density, as a "
                                    "Piecewise)", s))
        if self.check:
            self._check()

    @property
    def expr(self) -> sp.Expr:
        return self.pdf

    @property
    def dimension(self) -> sp.Expr:
        return sp.Integer(len(self.variables))

    @property
    def parameters(self) -> set[sp.Symbol]:
        free = set(self.pdf.free_symbols).union(*(s.free_symbols for s in self.support))
        return free - set(self.variables)

    def joint(self) -> Joint:
        return self

    def renamed(self, variables: Sequence[sp.Symbol]) -> Joint:
        """The same law written in other variables (position by position)."""
        return Joint(self.pdf.xreplace(dict(zip(self.variables, variables))), tuple(variables), self.support,
                     self.discrete, check=False)

    def subs(self, values: Mapping) -> Joint:
        """The density with parameter values substituted (and re-checked); values are read by the one reader."""
        given = parameter_values(values, (self,))
        return Joint(self.pdf.subs(given), self.variables, tuple(s.subs(given) for s in self.support), self.discrete)

    def blocks(self) -> tuple:
        parts = self.coordinates()
        return tuple((law, sp.S.One) for _, law in parts)

    def coordinates(self) -> list[tuple[tuple, object]]:
        """The law as independent blocks ``[(variables, law), ...]``, finest first (see the module docstring).

        Each block's law is a one-dimensional :class:`~rdpsym.Continuous` (:class:`~rdpsym.Discrete`)
        density or a :class:`Joint` in its variables, normalised; ``[(all variables, self)]``
        when the density does not separate, or a block's mass has no closed form.
        """
        return self._coordinates

    @functools.cached_property
    def _coordinates(self) -> list[tuple[tuple, object]]:
        constant, parts = separate(self.pdf, self.variables)
        if len(parts) == 1:
            return [(self.variables, self)]
        laws, masses = [], []
        for variables, factor in parts:
            mass = _block_mass(factor, variables, self._sets(variables), self.discrete)
            if mass is None:
                return [(self.variables, self)]
            masses.append(mass)
            laws.append((variables, factor / mass))
        out = []
        for variables, density in laws:
            sets = self._sets(variables)
            if len(variables) == 1:
                kind = Discrete if self.discrete else Continuous
                law = kind(density, variables[0], sets[0], check=False)
            else:
                law = Joint(density, variables, sets, self.discrete, check=False)
            out.append((variables, law))
        object.__setattr__(self, "_separated_mass", constant * sp.Mul(*masses))
        return out

    def _sets(self, variables: Sequence[sp.Symbol]) -> tuple:
        return tuple(self.support[self.variables.index(v)] for v in variables)

    def _check(self) -> None:
        parts = self.coordinates()
        if len(parts) > 1:
            for _, law in parts:  # each coordinate: nonnegative, normalised (the masses are 1 by construction)
                law._check()
            check_normalised(sp.simplify(self._separated_mass) if not self._separated_mass.is_number
                             else self._separated_mass, self.discrete)
            return
        check_joint(self.pdf, self.variables, self.support, self.discrete)

    def __repr__(self) -> str:
        kind = ", discrete=True" if self.discrete else ""
        return f"Joint({self.pdf}, {self.variables}, support={self.support}{kind})"

    def _key(self) -> tuple:
        return self.pdf, self.variables, self.support, self.discrete


def _block_mass(factor: sp.Expr, variables: tuple, sets: tuple, discrete: bool) -> sp.Expr | None:
    """∫ (Σ) of one block's factor over its sets in closed form, or None (then the law is kept whole)."""
    if len(variables) == 1:
        x = variables[0]
        kind = Discrete if discrete else Continuous
        try:
            pieces = kind(factor, x, sets[0], check=False).pieces()
            total = sp.S.Zero
            for piece in pieces:
                if piece.is_zero:
                    continue
                L = log_of(piece.branch, x, piece_point(piece.lo, piece.hi, discrete))
                rule = sum_exp if discrete else integrate_exp
                value = rule(L, x, piece.lo, piece.hi, Hypotheses())
                if value.condition is not sp.true or value.value == oo:
                    return None
                total += value.value
        except (NoClosedFormError, DensityError):
            return None
        return total
    gaussian = _gaussian_mass(factor, variables, sets, discrete)
    return gaussian if gaussian is not None and gaussian != oo else None


def _gaussian_mass(expr: sp.Expr, variables: tuple, sets: tuple, discrete: bool) -> sp.Expr | None:
    """∫_{ℝ^k} expr for a log-quadratic ``expr`` (the Gaussian integral), or None when it is not one."""
    if discrete or any(s != sp.Interval(-oo, oo) for s in sets):
        return None
    try:
        quadratic = quadratic_coefficients(log_of(expr), variables)
    except NoClosedFormError:
        return None
    if quadratic is None:
        return None
    value = gaussian_integral(*quadratic, Hypotheses())
    if value.definite is False:
        return oo
    return sp.simplify(value.value) if not value.conditions else None


def check_joint(expr: sp.Expr, variables: tuple, sets: tuple, discrete: bool) -> None:
    """Check a joint density that does not separate: nonnegative and normalised, when that can be decided.

    A Gaussian (log-quadratic on ℝ^k) by its d-dimensional integral; a finite discrete
    one by its exact sum; otherwise, without parameters, numerically (nested
    quadrature or summation to 20 digits); with parameters an undecided mass passes.
    """
    parameters = expr.free_symbols - set(variables)
    if expr.is_negative:
        raise DensityError(must("the density", "nonnegative on its support", expr))
    if not parameters and not expr.is_nonnegative:
        _probe_nonnegative(expr, variables, sets, discrete)
    gaussian = _gaussian_mass(expr, variables, sets, discrete)
    if gaussian == oo:
        raise DensityError("the density must integrate to 1 over its support; its integral diverges (its "
                           "log-density is a quadratic form that is not negative definite).")
    if gaussian is not None:
        check_normalised(gaussian, discrete)
        return
    outcomes = product_outcomes(sets) if discrete else None
    if outcomes is not None:
        total = sp.Add(*[expr.subs(dict(zip(variables, point))) for point in outcomes])
        check_normalised(total if total.is_number else sp.simplify(total), True)
        return
    if parameters:
        return
    mass = numeric_mass(expr, variables, sets, discrete, dps=20)
    if abs(mass - 1) > mpmath.mpf(10) ** -20:
        # Not 1 at 20 digits: a law the quadrature read wrong, or no law.  Near 1, read again at 30 digits: where the
        # two disagree the quadrature did not settle (a valid Huber-like density on ℝ², Gaussian inside a circle,
        # came out 1 − 5.1·10⁻¹⁰ and was refused with a hint about floats in the density: a probe).
        again = numeric_mass(expr, variables, sets, discrete, dps=30) if abs(mass - 1) < 1e-6 else mass
        if abs(again - mass) > mpmath.mpf(10) ** -18:
            raise ConvergenceError(f"the density's mass by nested quadrature did not settle ({mpmath.nstr(mass, 15)} "
                                   f"vs {mpmath.nstr(again, 15)}): pass check=False to skip the check")
        raise DensityError(f"the density must integrate to 1 over its support; got {mpmath.nstr(again, 25)} "
                           "(by nested quadrature).")


def product_outcomes(sets: tuple, limit: int = 4096) -> list | None:
    """Every point of a finite product of integer ranges (at most ``limit``), or None."""
    sizes = [s.size for s in sets]
    if not all(n.is_number and n.is_finite for n in sizes):
        return None
    total = 1
    for n in sizes:
        total *= int(n)
    if total > limit:
        return None
    return list(itertools.product(*[list(s) for s in sets]))


@sympy_evalf_guard.serialized  # mpmath's global precision: one thread at a time
def _probe_nonnegative(expr: sp.Expr, variables: tuple, sets: tuple, discrete: bool) -> None:
    """A parameter-free density that SymPy cannot show nonnegative, probed on a grid of each coordinate."""
    axes = []
    for s in sets:
        if discrete:
            lo = s.inf if s.inf.is_finite else -20
            hi = s.sup if s.sup.is_finite else lo + 20
            axes.append([sp.Integer(j) for j in range(int(lo), min(int(hi), int(lo) + 20) + 1)])
        else:
            lo, hi = s.start, s.end
            if lo.is_finite and hi.is_finite:
                axes.append([lo + (hi - lo) * sp.Rational(j, 12) for j in range(1, 12)])
            else:
                base = lo if lo.is_finite else (hi if hi.is_finite else 0)
                steps = [sp.Rational(1, 4), 1, 3, 10] if lo.is_finite else [-sp.Rational(1, 4), -1, -3, -10]
                both = [] if (lo.is_finite or hi.is_finite) else [-p for p in steps]
                axes.append([base + p for p in steps + both])
    f = mpmath_function(variables, expr)
    with mpmath.workdps(30):
        for point in itertools.product(*axes):
            try:
                value = f(*[to_mpf(p, mpmath.mp) if not discrete else int(p) for p in point])
            except (ZeroDivisionError, ValueError, TypeError, OverflowError):
                continue
            if isinstance(value, mpmath.mpf) and value < 0:
                at = ", ".join(f"{v} = {p}" for v, p in zip(variables, point))
                shown = f"{mpmath.nstr(value, 6)} at {at}"
                raise DensityError(must("the density", "nonnegative on its support", shown))


@sympy_evalf_guard.serialized  # mpmath's global precision: one thread at a time
def numeric_mass(expr: sp.Expr, variables: tuple, sets: tuple, discrete: bool, dps: int = 20) -> mpmath.mpf:
    """∫ (Σ) of a parameter-free joint density by nested quadrature (summation), to about ``dps`` digits.

    Only for the check at construction (a closed form or a separation is used when one exists).
    """
    f = mpmath_function(variables, expr)
    budget = time_budget(MASS_SECONDS, "the density's mass")
    try:
        with budget, mpmath.workdps(dps + 5):
            ranges = [[to_mpf(s.inf, mpmath.mp), to_mpf(s.sup, mpmath.mp)] for s in sets]
            if discrete:
                return mpmath.nsum(lambda *k: f(*[int(v) for v in k]), *ranges)
            if len(variables) == 2:
                return nested_quad(f, expr, variables, sets)
            return mpmath.quad(f, *ranges)
    except SymbolicTimeout:
        if not budget.spent:
            raise
        raise ConvergenceError(f"the density's mass could not be computed within {MASS_SECONDS:g} s of CPU time "
                               "(pass check=False to skip the check)") from None


def nested_quad(f, kinks_of: sp.Expr, variables: tuple, sets: tuple) -> mpmath.mpf:
    """∫∫ f(x, y) over the rectangle ``sets`` at mpmath's working precision, the inner quadrature split where
    ``kinks_of`` is not smooth in y at the given x (the curves y = b(x) of its Piecewise conditions, |·|,
    Heaviside, min and max), the outer one where such a curve meets the rectangle's edge.  Unsplit,
    e^{−y}·1{x < y} on the quadrant came out 0.987 and was refused as not normalised (a probe)."""
    x, y = variables
    (x_lo, x_hi), (y_lo, y_hi) = ([to_mpf(s.inf, mpmath.mp), to_mpf(s.sup, mpmath.mp)] for s in sets)
    curves = [b for b in breakpoints(kinks_of, y) if not b.has(y)]
    inner = [mpmath_function((x,), b) for b in curves]
    edges = [b - end for b in curves for end in (sets[1].inf, sets[1].sup) if end.is_finite]
    # (where a curve's square root ends, y = ±√(16 − x²) of a circle at x = ±4, the inner integral is not smooth
    # in x: the outer quadrature splits there too)
    edges += [p.base for b in curves for p in b.atoms(sp.Pow) if p.exp.is_Rational and p.exp.q == 2 and p.base.has(x)]
    outer = {to_mpf(t, mpmath.mp) for u in edges for t in breakpoints(sp.Abs(u), x) if t.is_real and t.is_number}
    outer |= {to_mpf(t, mpmath.mp) for t in breakpoints(kinks_of, x) if t.is_real and t.is_number}

    def cut(points, lo, hi) -> list:
        return [lo, *sorted(p for p in points if lo < p < hi), hi]

    def across(at):
        kinks = []
        for b in inner:
            try:
                value = mpmath.mpmathify(b(at))  # (a curve y = 1 compiles to a constant, an int: it was passed over,
            except (ValueError, ZeroDivisionError, TypeError):  # and ∫∫ over a square cut at y = 1 came out 0.5 %
                continue                                         # wrong at two precisions alike: a probe)
            if isinstance(value, mpmath.mpf):
                kinks.append(value)
        return _on_fixed_intervals(lambda t: f(at, t), cut(kinks, y_lo, y_hi))

    return mpmath.quad(across, cut(outer, x_lo, x_hi))


def _on_fixed_intervals(g, points: list) -> mpmath.mpf:
    """``mpmath.quad(g, points)``, a piece [c, ∞) read as ∫_0^∞ g(c + s) ds and (−∞, d] as ∫_0^∞ g(d − s) ds.

    mpmath keeps the nodes of an interval it has seen twice, and an inner quadrature's half-lines move with the outer
    variable (y from x to ∞): their nodes were mapped anew for each outer node (a division and a square each), and
    e^{−y}·1{x < y}'s mass on the quadrant took 9.2 s of CPU, 6.7 s now.  Here one addition per node, done inside the
    quadrature's 20 guard bits as mpmath's own map is.  A finite piece is left to mpmath: mapped into ``g``'s argument
    instead, it cost as much (and scaled outside, a narrow piece's error estimate was held to the unscaled integral's
    digits: 1.6 times the evaluations)."""
    total = mpmath.mpf(0)
    for c, d in zip(points, points[1:]):
        if mpmath.isinf(c) == mpmath.isinf(d):  # (finite, or the whole line: a fixed interval already)
            total += mpmath.quad(g, [c, d])
        elif mpmath.isinf(d):
            total += mpmath.quad(lambda s, c=c: g(c + s), [0, mpmath.inf])
        else:
            total += mpmath.quad(lambda s, d=d: g(d - s), [0, mpmath.inf])
    return total


register_builder("joint", Joint)  # Continuous(pdf, (x, y)) and Discrete(pmf, (j, k)) build a Joint


__all__ = ["Joint", "check_joint", "nested_quad", "numeric_mass", "product_outcomes"]
