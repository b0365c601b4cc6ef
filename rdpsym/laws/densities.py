"""Definitions: probability densities and mass functions as SymPy expressions.

A :class:`Continuous` density is a pdf on an interval; a :class:`Discrete`
one is a pmf on an integer range, or a finite table ``{outcome: probability}``.
Parameters are SymPy symbols with assumptions (``Symbol("s", positive=True)``)
or exact numbers; a Python float is read as the decimal it prints as.

Both check at construction that the density is nonnegative and normalises,
raising :class:`~rdpsym.foundations.errors.DensityError` only when that is *definitely*
false (symbolic parameters that cannot be decided pass, and are checked again
numerically wherever the density is evaluated at values).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import mpmath
import sympy as sp

from rdpsym.foundations.reading import exact
from rdpsym.engine.context import Hypotheses
from rdpsym.engine.integrals import integrate_exp
from rdpsym.engine.pieces import (
    breakpoints,
    interior_point,
    less,
    log_of,
    resolve_branch,
    sort_points,
)
from rdpsym.engine.sums import sum_exp
from rdpsym.foundations.errors import DensityError, NoClosedFormError, must

oo = sp.oo


@dataclass(frozen=True)
class Piece:
    """A maximal interval on which a density is one smooth expression.

    ``lo``/``hi`` are open endpoints for a continuous density and inclusive
    integers for a discrete one; ``branch`` is the density there (0 outside
    the support).
    """

    lo: sp.Expr
    hi: sp.Expr
    branch: sp.Expr

    @property
    def is_zero(self) -> bool:
        return self.branch == 0


class Density:
    """Common interface of :class:`Continuous` and :class:`Discrete`."""

    var: sp.Symbol
    expr: sp.Expr
    lo: sp.Expr
    hi: sp.Expr
    discrete: bool

    @property
    def parameters(self) -> set[sp.Symbol]:
        """The free symbols other than the variable, in the density or its support."""
        return (set(self.expr.free_symbols) | set(self.support.free_symbols)) - {self.var}

    def breakpoints(self) -> list[sp.Expr]:
        """Where the density may switch branch; for a pmf, the integers that start a piece.

        A pmf switching at an integer c (``Abs(k − c)``, ``k <= c``) gets c as a
        piece of its own, [c, c], so every other piece holds one branch; a
        switch at a non-integer c starts a piece at ⌈c⌉.
        """
        points = breakpoints(self.expr, self.var)
        if not self.discrete:
            return points
        starts: list[sp.Expr] = []
        for c in points:
            if c.is_integer:
                starts += [c, c + 1]
            elif c.is_number:
                starts.append(sp.ceiling(c))
            else:
                raise NoClosedFormError(f"the pmf switches at {c}, which is not known to be an integer")
        return starts

    def branch(self, lo: sp.Expr, hi: sp.Expr) -> sp.Expr:
        """The density on the piece (lo, hi) of a common refinement of supports."""
        if not (_le(self.lo, lo) and _le(hi, self.hi)):
            return sp.S.Zero
        branch = resolve_branch(self.expr, self.var, piece_point(lo, hi, self.discrete))
        if self.discrete and lo == hi:
            return branch.subs(self.var, lo)  # one outcome: its probability (maybe 0)
        return branch

    def pieces(self) -> list[Piece]:
        pts = sort_points(self.breakpoints(), self.lo, self.hi)
        return [Piece(lo, hi, self.branch(lo, hi)) for lo, hi in piece_ranges(pts, self.discrete)]

    def _check(self) -> None:
        total = sp.S.Zero
        for piece in self.pieces():
            if piece.is_zero:
                continue
            _check_nonnegative(self, piece)
            try:
                total += _mass(piece, self.var, self.discrete)
            except NoClosedFormError:
                total = None
                break
        if total is None:
            total = _numeric_mass(self)
            if total is None:
                return
        _check_normalised(self, total)


def _le(a: sp.Expr, b: sp.Expr) -> bool:
    if a == b or a is -oo or b is oo:
        return True
    d = sp.simplify(b - a)
    return bool(d.is_nonnegative)


def piece_point(lo: sp.Expr, hi: sp.Expr, discrete: bool) -> sp.Expr:
    """A point inside a piece at which its branch and its factors' signs are read."""
    return _integer_inside(lo, hi) if discrete else interior_point(lo, hi)


def _integer_inside(lo: sp.Expr, hi: sp.Expr) -> sp.Expr:
    if lo is -oo:
        return hi if hi is not oo else sp.S.Zero
    return lo


def piece_ranges(pts: list[sp.Expr], discrete: bool) -> list[tuple[sp.Expr, sp.Expr]]:
    """Consecutive pieces; a discrete switch point c starts the piece [c, next)."""
    if not discrete:
        return list(zip(pts, pts[1:]))
    out = []
    for i, (lo, hi) in enumerate(zip(pts, pts[1:])):
        last = i == len(pts) - 2
        top = hi if (last or hi is oo) else hi - 1
        out.append((lo, top))
    return [(a, b) for a, b in out if a is -oo or b is oo or not (b - a).is_negative]


def _mass(piece: Piece, var: sp.Symbol, discrete: bool) -> sp.Expr:
    terms = sp.Add.make_args(sp.expand(piece.branch, deep=False, mul=True, power_exp=False, log=False))
    if len(terms) > 1 and all(t.is_nonnegative for t in terms):
        # A mixture: the mass is linear, and each component has a rule (a sum of
        # exponentials does not, as one logarithm).
        return sp.Add(*[_mass(Piece(piece.lo, piece.hi, t), var, discrete) for t in terms])
    L = log_of(piece.branch, var, piece_point(piece.lo, piece.hi, discrete))
    rule = sum_exp if discrete else integrate_exp
    value = rule(L, var, piece.lo, piece.hi, Hypotheses())
    if value.condition is not sp.true:
        raise NoClosedFormError(f"normalisation needs {value.condition}")
    return value.value


def _check_nonnegative(density: Density, piece: Piece) -> None:
    """Reject a branch that is negative somewhere on its piece.

    Symbolically when SymPy can tell; otherwise (no free parameters) at the
    branch's critical points, found by ``solve`` under a time budget, and on a
    dense grid, so a dip between a few probe points is not missed.
    """
    b = piece.branch
    if b.is_negative:
        raise DensityError(must("the density", "nonnegative on its support", b))
    if b.free_symbols - {density.var} or b.is_nonnegative:
        return
    x = density.var
    points = list(probe_points(piece, density.discrete)) + _grid(piece, density.discrete)
    if not density.discrete:
        points = _critical_points(b, x, piece) + points  # the minimum, if it is interior
    f = sp.lambdify(x, b, modules="mpmath")
    with mpmath.workdps(30):
        for point in points:
            try:
                value = f(mpmath.mpf(sp.N(point, 30)._to_mpmath(mpmath.mp.prec)) if not density.discrete else int(point))
            except (ZeroDivisionError, ValueError, TypeError):
                continue
            if isinstance(value, mpmath.mpf) and value < 0:
                shown = point if isinstance(point, sp.Rational) else sp.N(point, 6)
                raise DensityError(
                    must("the density", "nonnegative on its support", f"{mpmath.nstr(value, 6)} at {x} = {shown}")
                )


def _grid(piece: Piece, discrete: bool) -> list[sp.Expr]:
    lo, hi = piece.lo, piece.hi
    if discrete:
        if lo.is_finite and hi.is_finite and hi - lo <= 400:
            return [sp.Integer(j) for j in range(int(lo), int(hi) + 1)]
        return []
    if lo.is_finite and hi.is_finite:
        return [lo + (hi - lo) * sp.Rational(j, 257) for j in range(1, 257)]
    base = lo if lo.is_finite else (hi if hi.is_finite else sp.S.Zero)
    sign = 1 if lo.is_finite else -1
    pts = [base + sign * sp.Rational(2) ** j for j in range(-20, 40)]
    if not lo.is_finite and not hi.is_finite:
        pts += [-p for p in pts]
    return pts


def _critical_points(b: sp.Expr, x: sp.Symbol, piece: Piece) -> list[sp.Expr]:
    from rdpsym.foundations.budget import can_budget, time_budget
    from rdpsym.foundations.errors import SymbolicTimeout

    if not can_budget():
        return []
    try:
        with time_budget(2.0, "critical points of the density"):
            roots = sp.solve(sp.diff(b, x), x)
    except (SymbolicTimeout, NotImplementedError):
        return []
    out = []
    for r in roots:
        if r.is_real and (piece.lo is -oo or (r - piece.lo).is_positive) and (piece.hi is oo or (piece.hi - r).is_positive):
            out.append(r)
    return out


def probe_points(piece: Piece, discrete: bool) -> list[sp.Expr]:
    lo, hi = piece.lo, piece.hi
    if discrete:
        start = lo if lo is not -oo else (hi - 5 if hi is not oo else sp.S(-5))
        return [start + j for j in range(6) if hi is oo or start + j <= hi]
    if lo is -oo and hi is oo:
        return [sp.S(v) for v in (-10, -1, 0, sp.Rational(1, 3), 1, 10)]
    if lo is -oo:
        return [hi - d for d in (sp.Rational(1, 100), 1, 10, 100)]
    if hi is oo:
        return [lo + d for d in (sp.Rational(1, 100), 1, 10, 100)]
    return [lo + (hi - lo) * sp.Rational(j, 7) for j in range(1, 7)]


def _numeric_mass(density: Density) -> sp.Expr | None:
    if density.parameters:
        return None
    from rdpsym.derive.numeric import total_mass_mp  # numeric layer sits beside, imported lazily

    return sp.Float(total_mass_mp(density, dps=30), 30)


def _decimal_string(r: sp.Rational) -> str:
    import decimal

    with decimal.localcontext(decimal.Context(prec=len(str(r.q)) + len(str(r.p)) + 5)):
        return format(decimal.Decimal(int(r.p)) / decimal.Decimal(int(r.q)), "f")


def _is_decimal(r: sp.Rational) -> bool:
    """A denominator that is a power of ten: the sum of a table of floats."""
    q = int(r.q)
    while q % 10 == 0:
        q //= 10
    return q == 1 and r.q > 1


def _check_normalised(density: Density, total: sp.Expr) -> None:
    what = "sum" if density.discrete else "integrate"
    if total.is_number:
        value = sp.N(total, 30)
        if abs(value - 1) > sp.Float("1e-20"):
            shown = total if not total.is_Float else sp.nsimplify(value)
            if shown.is_Rational and _is_decimal(shown):
                shown = _decimal_string(shown)  # a float table reads back as its decimals
            raise DensityError(f"the density must {what} to 1 over its support; got {shown}.")
        return
    if sp.simplify(total - 1) == 0:
        return
    if total.equals(1) is False:
        raise DensityError(f"the density must {what} to 1 over its support; got {total}.")


@dataclass(frozen=True, eq=False)
class Continuous(Density):
    """A probability density ``pdf`` in ``var`` on the interval ``support``.

    >>> import sympy as sp
    >>> x = sp.Symbol("x", real=True)
    >>> lam = sp.Symbol("lambda", positive=True)
    >>> E = Continuous(lam * sp.exp(-lam * x), x, support=sp.Interval(0, sp.oo))
    >>> E.lo, E.hi
    (0, oo)
    >>> Continuous(2 * sp.exp(-x), x, support=sp.Interval(0, sp.oo))
    Traceback (most recent call last):
    ...
    rdpsym.foundations.errors.DensityError: the density must integrate to 1 over its support; got 2.
    """

    pdf: sp.Expr
    var: sp.Symbol
    support: sp.Interval = field(default=sp.Interval(-oo, oo))
    check: bool = True
    discrete = False

    def __post_init__(self) -> None:
        if not isinstance(self.var, sp.Symbol):
            raise DensityError(must("var", "a SymPy Symbol", repr(self.var)))
        if not isinstance(self.support, sp.Interval) or self.support.measure == 0:
            raise DensityError(must("support", "a SymPy Interval of positive length", self.support))
        var = self.var
        pdf = exact(self.pdf, "pdf")
        if var.is_real is not True:
            # SymPy simplifies log(exp(u)) only for real u: use a real twin of the variable.
            real = sp.Symbol(var.name, real=True)
            pdf, var = pdf.xreplace({var: real}), real
        object.__setattr__(self, "pdf", pdf)
        object.__setattr__(self, "var", var)
        if self.check:
            self._check()

    @property
    def expr(self) -> sp.Expr:
        return self.pdf

    @property
    def lo(self) -> sp.Expr:
        return self.support.start

    @property
    def hi(self) -> sp.Expr:
        return self.support.end

    def renamed(self, var: sp.Symbol) -> Continuous:
        """The same density written in another variable."""
        return Continuous(self.pdf.xreplace({self.var: var}), var, self.support, check=False)

    def subs(self, values: Mapping) -> Continuous:
        """The density with parameter values substituted (and re-checked)."""
        return Continuous(self.pdf.subs(values), self.var, self.support.subs(values))

    def __repr__(self) -> str:
        return f"Continuous({self.pdf}, {self.var}, support={self.support})"

    # Equal as laws written alike: the same pdf in the same variable on the same support.
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Continuous):
            return NotImplemented
        return (self.pdf, self.var, self.support) == (other.pdf, other.var, other.support)

    def __hash__(self) -> int:
        return hash(("Continuous", self.pdf, self.var, self.support))


@dataclass(frozen=True, eq=False)
class Discrete(Density):
    """A pmf on an integer range, or a finite table ``{outcome: probability}``.

    >>> import sympy as sp
    >>> p = sp.Symbol("p", positive=True)
    >>> Discrete({0: p, 1: 1 - p}).table
    {0: p, 1: 1 - p}
    >>> k = sp.Symbol("k", integer=True)
    >>> G = Discrete(sp.Rational(1, 2)**(k + 1), k, support=sp.Range(0, sp.oo))
    >>> Discrete({0: sp.Rational(1, 2), 1: sp.Rational(1, 3)})
    Traceback (most recent call last):
    ...
    rdpsym.foundations.errors.DensityError: the density must sum to 1 over its support; got 5/6.
    """

    pmf: sp.Expr | Mapping
    var: sp.Symbol | None = None
    support: sp.Range | None = None
    check: bool = True
    discrete = True

    def __post_init__(self) -> None:
        if isinstance(self.pmf, Mapping):
            if not self.pmf:
                raise DensityError(must("pmf", "a non-empty table {outcome: probability}", "{}"))
            table = {_outcome(k): exact(v, f"probability of {k!r}") for k, v in self.pmf.items()}
            object.__setattr__(self, "pmf", table)
            if self.check:
                self._check_table()
            return
        if not isinstance(self.var, sp.Symbol):
            raise DensityError(must("var", "a SymPy Symbol (the outcome variable)", repr(self.var)))
        support = self.support if self.support is not None else sp.Range(0, oo)
        if not isinstance(support, sp.Range) or support.step != 1:
            raise DensityError(must("support", "a SymPy Range with step 1", support))
        var = self.var
        pmf = exact(self.pmf, "pmf")
        if var.is_integer is not True:
            integer = sp.Symbol(var.name, integer=True)
            pmf, var = pmf.xreplace({var: integer}), integer
        object.__setattr__(self, "pmf", pmf)
        object.__setattr__(self, "var", var)
        object.__setattr__(self, "support", support)
        if self.check:
            self._check()

    @property
    def table(self) -> dict | None:
        """The finite table, or None for a pmf expression."""
        return self.pmf if isinstance(self.pmf, dict) else None

    @property
    def expr(self) -> sp.Expr:
        if self.table is not None:
            return sp.Add(*self.table.values())
        return self.pmf

    @property
    def parameters(self) -> set[sp.Symbol]:
        if self.table is not None:
            return set().union(*(v.free_symbols for v in self.table.values()))
        return super().parameters

    @property
    def lo(self) -> sp.Expr:
        return self.support.inf

    @property
    def hi(self) -> sp.Expr:
        return self.support.sup

    def _check_table(self) -> None:
        for outcome, prob in self.table.items():
            if prob.is_negative:
                raise DensityError(must(f"the probability of {outcome}", "nonnegative", prob))
        _check_normalised(self, sp.Add(*self.table.values()))

    def renamed(self, var: sp.Symbol) -> Discrete:
        """The same pmf written in another variable (tables have none)."""
        if self.table is not None:
            return self
        return Discrete(self.pmf.xreplace({self.var: var}), var, self.support, check=False)

    def subs(self, values: Mapping) -> Discrete:
        if self.table is not None:
            return Discrete({k: v.subs(values) for k, v in self.table.items()})
        return Discrete(self.pmf.subs(values), self.var, self.support)

    def __repr__(self) -> str:
        if self.table is not None:
            return f"Discrete({self.table})"
        return f"Discrete({self.pmf}, {self.var}, support={self.support})"

    # Equal as laws written alike: the same table, or the same pmf in the same variable on the same support.
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Discrete):
            return NotImplemented
        return (self.pmf, self.var, self.support) == (other.pmf, other.var, other.support)

    def __hash__(self) -> int:
        pmf = frozenset(self.table.items()) if self.table is not None else self.pmf
        return hash(("Discrete", pmf, self.var, self.support))


def _outcome(key: object) -> object:
    if isinstance(key, float):
        return exact(key, "outcome")
    if isinstance(key, int) and not isinstance(key, bool):
        return sp.Integer(key)
    return key


def as_table(density: Discrete) -> dict | None:
    """The table of a finite discrete density (an expression on a finite range too)."""
    if density.table is not None:
        return density.table
    lo, hi = density.lo, density.hi
    if lo.is_finite and hi.is_finite and lo.is_number and hi.is_number and hi - lo < 400:
        return {sp.Integer(j): density.pmf.subs(density.var, j) for j in range(int(lo), int(hi) + 1)}
    return None


@dataclass(frozen=True)
class PiecePair:
    """One piece of the common refinement with both densities' branches on it."""

    lo: sp.Expr
    hi: sp.Expr
    p: sp.Expr
    q: sp.Expr


def common_refinement(P: Density, Q: Density) -> list[PiecePair]:
    """The pieces on which both P and Q are smooth (or zero), over the union of supports.

    Both the closed-form engine and the numeric definition work piece by
    piece on this one refinement.
    """
    lo = P.lo if less(Q.lo, P.lo) is False else Q.lo
    hi = P.hi if less(P.hi, Q.hi) is False else Q.hi
    points = [*P.breakpoints(), *Q.breakpoints(), P.lo, P.hi, Q.lo, Q.hi]
    pts = sort_points([p for p in points if p not in (oo, -oo)], lo, hi)
    ranges = piece_ranges(pts, True) if isinstance(P, Discrete) else list(zip(pts, pts[1:]))
    return [PiecePair(a, b, P.branch(a, b), Q.branch(a, b)) for a, b in ranges]


def align_pair(P: Density, Q: Density) -> tuple[Density, Density, tuple[dict, dict] | None]:
    """Check that P and Q can be compared; give Q P's variable; return their tables if finite.

    The tables are returned when both densities are finite (a dict, or a pmf on
    a short numeric range); then divergences are finite sums over the outcomes.
    """
    if not isinstance(P, Density) or not isinstance(Q, Density):
        raise DensityError(
            must("P and Q", "rdpsym.Continuous or rdpsym.Discrete densities", f"{type(P).__name__}, {type(Q).__name__}")
        )
    if isinstance(P, Continuous) != isinstance(Q, Continuous):
        raise DensityError("P and Q must both be Continuous or both Discrete; got one of each.")
    if isinstance(P, Discrete):
        tp, tq = as_table(P), as_table(Q)
        if tp is not None and tq is not None:
            return P, Q, (tp, tq)
        if P.table is not None or Q.table is not None:
            raise DensityError(
                "a finite table {outcome: probability} and a pmf on an infinite range cannot be compared; "
                "write the table as a pmf expression on a Range."
            )
    if Q.var != P.var:
        Q = Q.renamed(P.var)
    return P, Q, None


__all__ = ["Continuous", "Discrete", "Density", "Piece", "align_pair", "as_table"]
