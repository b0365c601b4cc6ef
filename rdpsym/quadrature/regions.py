"""The numeric routes' own reading of two laws: where they live, where they switch branch, which branch they take.

The definition (:mod:`rdpsym.derive.numeric`) and the certified quadrature
(:mod:`rdpsym.derive.certified`) check closed forms that are derived on the
common refinement of the laws' supports read by :mod:`rdpsym.laws.densities`.
A check that read the supports through that same reader would confirm its
defects instead of catching them (a ``Range(0, 3)`` read as {0, 1} gave a wrong
D_∞ that the check agreed with).  So the numeric routes read the laws here,
from the raw data only, written separately from the derivation's reader and
sharing nothing with it:

- a law is its expression, its variable and its support exactly as the user
  gave it (:class:`Law`): a SymPy ``Interval`` (open or closed ends: the same
  law for an integral); a SymPy ``Range`` of step 1 -- its ``start`` is the first
  outcome, its ``stop`` is *exclusive* (the last outcome is stop − 1), either
  may be ±∞; or a finite table ``{outcome: probability}``.  Every parameter has a
  number: the numeric routes see no free symbol.
- the switch points are searched for at those numbers: the real zeros of the
  arguments of ``Abs``, ``sign`` and ``Heaviside``, of the differences of the
  arguments of ``Max``/``Min``, of both sides of the relations in ``Piecewise``
  conditions, and of the polynomial factors of the expression (where a
  log-density changes branch), by exact real-root isolation for polynomials,
  by ``solveset`` on the support otherwise, and numerically (sign changes on a
  scan, bisected to 120 digits) where SymPy cannot say.
- each piece's branch is resolved by evaluating the switching atoms at a
  rational point inside it (:func:`_resolve`).
- a ``floor``, ``ceiling`` or ``frac`` of a *linear* argument a·x + b jumps at
  infinitely many points x = (n − b)/a, a lattice of step 1/|a|: a short
  piece is cut into its cells, a long or infinite one is a :class:`Region`
  flagged with its :class:`Lattice`, whose cells the quadrature integrates
  one by one, block by block (:func:`rdpsym.quadrature.integrate.integrate_pieces`).
  Of a nonlinear argument it is refused (:class:`NoClosedFormError`, naming it).

:func:`read_regions` gives the pieces over the union of the supports, as
:class:`Region` records (``lo``, ``hi``, ``p``, ``q``: the branches of P and Q there,
0 where a law has no mass), continuous pieces as open intervals (lo, hi),
discrete ones as inclusive integer ranges [lo, hi].  :func:`read_tables` gives
two finite discrete laws as tables, by enumerating their outcomes.

The symbolic work here may evaluate numbers through SymPy: callers run it
under :class:`~rdpsym.foundations.precision.sympy_evalf_guard` (the cells of a
lattice, built later, take the guard themselves).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import pairwise

import sympy as sp

from rdpsym.foundations.budget import time_budget
from rdpsym.foundations.errors import ConvergenceError, NoClosedFormError
from rdpsym.foundations.precision import private_context, sympy_evalf_guard
from rdpsym.quadrature.compile import compile_expr, to_mpf

oo = sp.oo

#: Two finite pmfs with at most this many outcomes each are read as tables.
TABLE_OUTCOMES = 400
#: A finite piece with at most this many jumps of a floor/ceiling/frac is cut into its cells; more, and its
#: whole periods are a lattice region.
EXPANDED_CELLS = 256
#: The most cells one period of a lattice may hold (floor(x) beside floor(0.999·x) repeats every 1000).
CELLS_PER_PERIOD = 64
#: Digits of the approximations points are ordered by (and of the numeric zeros found by bisection).
_DIGITS = 60
_ROOT_DIGITS = 120
#: CPU seconds SymPy may take to solve for the zeros of one switching argument.
_SOLVE_SECONDS = 2.0

_STEPS = (sp.floor, sp.ceiling, sp.frac)


@dataclass(frozen=True, eq=False)
class Law:
    """A law's raw data: expression, variable and support as given; or a finite ``table``."""

    expr: sp.Expr | None
    var: sp.Symbol | None
    support: sp.Interval | sp.Range | None
    table: Mapping | None = None

    @property
    def discrete(self) -> bool:
        return self.table is not None or isinstance(self.support, sp.Range)


@dataclass(frozen=True)
class Lattice:
    """The jumps of floors/ceilings/fracs of linear arguments on one region: the points
    ``origin + m·step + d`` (m an integer, d in ``offsets``), ``step`` the period of the pattern (1/|a| for
    one floor(a·x + b)).  The region is the union of the blocks n = 0, 1, … (``blocks`` of them, or
    infinitely many when None) counted from ``origin`` in ``direction``; :meth:`cells` gives block n's
    cells with every floor replaced by its value there (smooth branches)."""

    step: sp.Expr
    origin: sp.Expr
    offsets: tuple
    direction: int
    blocks: int | None
    var: sp.Symbol
    p: sp.Expr
    q: sp.Expr
    atoms: tuple
    floors: tuple  # per cell j of block 0 (m = 0): floor(argument) of each atom there
    shifts: tuple  # per atom: a·step, what floor(argument) gains from one block to the next (m → m + 1)

    def cells(self, n: int) -> list[Region]:
        """The cells of block ``n`` (0, 1, … outward from the origin), in increasing order of x."""
        return _cells(self, int(n))

    def __repr__(self) -> str:
        return (f"Lattice(step={self.step}, origin={self.origin}, offsets={self.offsets}, "
                f"direction={self.direction}, blocks={self.blocks})")


@dataclass(frozen=True)
class Region:
    """One piece on which both laws are smooth (or zero): (lo, hi) open for a pdf, [lo, hi] for a pmf;
    ``p`` and ``q`` their branches there.  ``lattice``: the piece is a run of cells between the jumps of
    floors (see :class:`Lattice`; ``p`` and ``q`` keep their floors).  ``cell``: the piece is one such
    cell, its ends are jumps."""

    lo: sp.Expr
    hi: sp.Expr
    p: sp.Expr
    q: sp.Expr
    lattice: Lattice | None = None
    cell: bool = False


# --------------------------------------------------------------------------
# Public entry points
# --------------------------------------------------------------------------

def read_regions(P: Law, Q: Law) -> list[Region]:
    """The pieces on which P and Q are both smooth (or zero), over the union of their supports, in order.

    >>> x = sp.Symbol("x", real=True)
    >>> P = Law(sp.exp(-sp.Abs(x)) / 2, x, sp.Interval(-oo, oo))
    >>> Q = Law(sp.S.One, x, sp.Interval(0, 1))
    >>> [(r.lo, r.hi, r.p, r.q) for r in read_regions(P, Q)]
    [(-oo, 0, exp(x)/2, 0), (0, 1, exp(-x)/2, 1), (1, oo, exp(-x)/2, 0)]
    >>> k = sp.Symbol("k", integer=True)
    >>> P = Law(sp.Rational(1, 3), k, sp.Range(0, 3))
    >>> Q = Law(sp.Rational(1, 2) ** (k + 1), k, sp.Range(0, oo))
    >>> [(r.lo, r.hi, r.p, r.q) for r in read_regions(P, Q)]
    [(0, 2, 1/3, (1/2)**(k + 1)), (3, oo, 0, (1/2)**(k + 1))]
    """
    if P.discrete != Q.discrete:
        raise NoClosedFormError("P and Q must both be discrete or both continuous")
    if P.discrete:
        return _discrete_regions(P, Q)
    return _continuous_regions(P, Q)


def read_tables(P: Law, Q: Law) -> tuple[dict, dict] | None:
    """Both laws as tables ``{outcome: probability}`` when both are finite (a table, or a pmf on a Range of
    at most :data:`TABLE_OUTCOMES` outcomes, enumerated from start to stop − 1), else None."""
    if not (P.discrete and Q.discrete):
        return None
    tables = _table(P), _table(Q)
    return None if None in tables else tables


def outcomes(law: Law) -> range | None:
    """The outcomes of a pmf on a finite Range (start … stop − 1), or None (infinite, or not a Range)."""
    support = law.support
    if not isinstance(support, sp.Range) or not all(e.is_number for e in support.args):
        return None  # (a Range with a free end, n in Range(0, n + 1): no outcomes to enumerate)
    first, last = _range_ends(support)
    if first is -oo or last is oo:
        return None
    return range(int(first), int(last) + 1)


def probe_points(region: Region, discrete: bool) -> list[sp.Expr]:
    """A few points inside ``region`` (integers for a pmf), to check a compiled branch at."""
    if region.lattice is not None:
        cells = [c for n in range(min(2, region.lattice.blocks or 2)) for c in region.lattice.cells(n)]
        return [_midpoint(c.lo, c.hi) for c in cells[:6]]
    lo, hi = region.lo, region.hi
    if discrete:
        first = lo if lo is not -oo else (hi - 5 if hi is not oo else sp.Integer(-3))
        return [first + j for j in range(6) if hi is oo or bool(first + j <= hi)]
    if lo is -oo and hi is oo:
        return [sp.Integer(v) for v in (-8, -1, 0, 1, 8)] + [sp.Rational(1, 5)]
    if lo is -oo:
        return [hi - d for d in (sp.Rational(1, 64), 1, 8, 64)]
    if hi is oo:
        return [lo + d for d in (sp.Rational(1, 64), 1, 8, 64)]
    return [lo + (hi - lo) * sp.Rational(2 * j - 1, 12) for j in range(1, 7)]


def law_probes(regions: list[Region], side: str, discrete: bool) -> list[sp.Expr]:
    """Probe points inside every region where law ``side`` ("p" or "q") is nonzero."""
    return [t for r in regions if getattr(r, side) != 0 for t in probe_points(r, discrete)]


def lattice_sup(region: Region, block_sup: Callable[[list[Region]], object], ctx, reasons: list | None = None):
    """sup of log(P/Q) over a lattice region: ``block_sup(cells)`` is the supremum over one block's cells
    (smooth pieces).  Blocks 0…7 and 2^3 … 2^62 are scanned (all of them, for a short finite lattice).  A
    block at x carries rounding of about |x|·10^−dps (x − n cancels in the log-ratio), so values are compared
    less that noise; a supremum still rising at the farthest block, by steps that keep their size, is +∞ (the
    reason is appended to ``reasons``); one still rising by fading steps cannot be told from its limit: a
    :class:`ConvergenceError`."""
    lattice = region.lattice
    count = lattice.blocks
    if count is not None and count <= 64:
        indices = list(range(count))
    else:
        indices = [*range(8), *(2**j for j in range(3, 63))]
        if count is not None:
            indices = sorted({n for n in indices if n < count} | {count - 1})
    values, noises = [], []
    origin, step = abs(to_mpf(lattice.origin, ctx)), to_mpf(lattice.step, ctx)
    for n in indices:
        v = block_sup(lattice.cells(n))
        if v == ctx.inf:
            return v
        values.append(v)
        noises.append(ctx.mpf(10) ** (5 - ctx.dps) * (1 + abs(v)) * (1 + origin + (n + 1) * step))
    top = max(range(len(values)), key=lambda i: values[i] - noises[i])
    if count is not None or top < len(values) - 3 or not all(ctx.isfinite(v) for v in values[-4:]):
        return values[top]
    rises = [b - a for a, b in pairwise(values[-4:])]
    if all(r <= noises[-1] for r in rises):
        return values[top]
    if all(r > noises[-1] for r in rises) and all(b >= 0.9 * a for a, b in pairwise(rises)):
        if reasons is not None:
            reasons.append(f"log(P/Q) still rises by {ctx.nstr(rises[-1], 3)} from one lattice block to the next "
                           f"at block 2^62 of ({region.lo}, {region.hi}): it grows without bound")
        return ctx.inf
    raise ConvergenceError(f"log(P/Q) still rises, ever more slowly, at block 2^62 of the cells of ({region.lo}, "
                           f"{region.hi}): its supremum cannot be told from its limit")


# --------------------------------------------------------------------------
# Supports
# --------------------------------------------------------------------------

def _interval_ends(law: Law) -> tuple[sp.Expr, sp.Expr]:
    support = law.support
    if not isinstance(support, sp.Interval):
        raise NoClosedFormError(f"the support of a pdf must be a SymPy Interval; got {support}")
    lo, hi = support.args[0], support.args[1]  # open or closed: the same law for every integral
    if (lo.free_symbols | hi.free_symbols) or not _le(lo, hi):
        raise NoClosedFormError(f"the support {support} must be a numeric interval")
    return lo, hi


def _range_ends(support: sp.Range) -> tuple[sp.Expr, sp.Expr]:
    """(first outcome, last outcome) of a Range: start, and stop − 1 (SymPy's stop is exclusive)."""
    start, stop, step = support.args
    if step != 1:
        raise NoClosedFormError(f"the support of a pmf must be a Range of step 1; got {support}")
    if start.free_symbols or stop.free_symbols:
        raise NoClosedFormError(f"the support {support} must have numeric ends")
    last = oo if stop is oo else stop - 1
    if start is oo or last is -oo or (start is not -oo and last is not oo and last < start):
        raise NoClosedFormError(f"the support {support} holds no outcome")
    return start, last


def _outcome_ends(law: Law) -> tuple[sp.Expr, sp.Expr]:
    if law.table is not None:
        keys = [_integer_key(k) for k in law.table]
        return min(keys), max(keys)
    if not isinstance(law.support, sp.Range):
        raise NoClosedFormError(f"the support of a pmf must be a SymPy Range; got {law.support}")
    return _range_ends(law.support)


def _integer_key(key: object) -> sp.Integer:
    value = sp.sympify(key, strict=True) if isinstance(key, (int, sp.Basic)) and not isinstance(key, bool) else None
    if value is None or not value.is_Integer:
        raise NoClosedFormError(f"a table with the outcome {key!r} cannot be compared with a pmf on integers")
    return value


def _table(law: Law) -> dict | None:
    if law.table is not None:
        return dict(law.table)
    span = outcomes(law)
    if span is None or len(span) > TABLE_OUTCOMES:
        return None
    return {sp.Integer(j): law.expr.subs(law.var, j) for j in span}


# --------------------------------------------------------------------------
# Continuous laws
# --------------------------------------------------------------------------

def _continuous_regions(P: Law, Q: Law) -> list[Region]:
    x = P.var
    if Q.var != x:
        raise NoClosedFormError(f"P and Q must be written in one variable; got {P.var} and {Q.var}")
    spans = _interval_ends(P), _interval_ends(Q)
    lo = spans[0][0] if _le(spans[0][0], spans[1][0]) else spans[1][0]
    hi = spans[0][1] if _le(spans[1][1], spans[0][1]) else spans[1][1]
    cuts = [e for span in spans for e in span]
    for law in (P, Q):
        cuts += _switch_points(law.expr, x, lo, hi)
    inside = [c for c in cuts if c not in (oo, -oo) and _lt(lo, c) and _lt(c, hi)]
    bounds = [lo, *_ordered(inside), hi]
    out: list[Region] = []
    for a, b in pairwise(bounds):
        t = _point_inside(a, b)
        bp, bq = (_resolve(law.expr, x, t) if _le(span[0], a) and _le(b, span[1]) else sp.S.Zero
                  for law, span in zip((P, Q), spans))
        out += _split_steps(a, b, bp, bq, x)
    return out


def _switch_points(expr: sp.Expr, x: sp.Symbol, lo: sp.Expr, hi: sp.Expr) -> list[sp.Expr]:
    """The real points in [lo, hi] where ``expr`` may switch branch (floors aside: see :func:`_split_steps`)."""
    if (expr.free_symbols - {x}):
        names = ", ".join(sorted(str(s) for s in expr.free_symbols - {x}))
        raise NoClosedFormError(f"the numeric reading needs every parameter given; {expr} has {names}")
    arguments: list[sp.Expr] = []
    for atom in expr.atoms(sp.Abs, sp.sign, sp.Heaviside):
        if atom.args[0].has(x):
            arguments.append(atom.args[0])
    for atom in expr.atoms(sp.Max, sp.Min):
        terms = list(atom.args)
        arguments += [u - v for i, u in enumerate(terms) for v in terms[i + 1:] if (u - v).has(x)]
    for piecewise in expr.atoms(sp.Piecewise):
        for _, condition in piecewise.args:
            if isinstance(condition, sp.logic.boolalg.Boolean) and condition not in (sp.true, sp.false):
                for relation in condition.atoms(sp.core.relational.Relational):
                    if relation.has(x):
                        arguments.append(relation.lhs - relation.rhs)
    for factor in sp.Mul.make_args(expr):  # zeros of polynomial factors: where log|factor| changes branch
        base = factor.base if isinstance(factor, sp.Pow) and not factor.exp.has(x) else factor
        if base.has(x) and base.is_polynomial(x):
            arguments.append(base)
    points: list[sp.Expr] = []
    for u in arguments:
        points += _zeros(u, x, lo, hi)
    return points


def _zeros(u: sp.Expr, x: sp.Symbol, lo: sp.Expr, hi: sp.Expr) -> list[sp.Expr]:
    """The real zeros of ``u`` in [lo, hi] (exact where SymPy finds them, else 120-digit rationals)."""
    if u.has(*_STEPS):
        raise NoClosedFormError(f"cannot locate where {u} changes sign (it holds a floor/ceiling/frac of {x})")
    if u.is_polynomial(x):
        return [r for r in _polynomial_zeros(sp.Poly(u, x)) if _le(lo, r) and _le(r, hi)]
    found = None
    with time_budget(_SOLVE_SECONDS, f"the zeros of {u}", absorb=True):
        try:
            solved = sp.solveset(u, x, domain=sp.Interval(lo, hi))
        except (NotImplementedError, ValueError, TypeError, RecursionError):
            solved = None
        if isinstance(solved, sp.FiniteSet) and all(r.is_number for r in solved):
            found = [r for r in solved if _is_real(r)]
    if found is not None:
        return found
    return _scanned_zeros(u, x, lo, hi)


def _polynomial_zeros(poly: sp.Poly) -> list[sp.Expr]:
    if poly.degree() < 1:
        return []
    coeffs = poly.all_coeffs()
    if not all(c.is_number for c in coeffs):
        raise NoClosedFormError(f"the numeric reading needs every parameter given; got {poly.as_expr()}")
    if all(c.is_Rational for c in coeffs):
        return list(dict.fromkeys(sp.real_roots(poly)))  # exact: rationals and isolated CRootOf's
    if poly.degree() == 1:
        return [-coeffs[1] / coeffs[0]]
    if poly.degree() == 2:
        return [r for r in sp.roots(poly) if _is_real(r)]
    with private_context(_ROOT_DIGITS + 20) as ctx:
        values = [to_mpf(c, ctx) for c in coeffs]
        try:
            roots = ctx.polyroots(values, maxsteps=400, extraprec=2 * ctx.prec)
        except ctx.NoConvergence as exc:
            raise NoClosedFormError(f"the real zeros of {poly.as_expr()} were not found") from exc
        tiny = ctx.mpf(10) ** (-_ROOT_DIGITS // 2)
        return [_rational_of(ctx.re(r)) for r in roots if abs(ctx.im(r)) <= tiny * (1 + abs(r))]


def _is_real(r: sp.Expr) -> bool:
    if r.is_extended_real is not None:
        return bool(r.is_extended_real)
    with private_context(_DIGITS) as ctx:
        try:
            value = ctx.mpc(complex(sp.N(r, 30)))
        except (TypeError, ValueError):
            return False
        return abs(value.imag) <= ctx.mpf(10) ** -25 * (1 + abs(value))


def _scanned_zeros(u: sp.Expr, x: sp.Symbol, lo: sp.Expr, hi: sp.Expr) -> list[sp.Expr]:
    """Sign changes of ``u`` on a scan of [lo, hi] (4096 even points, or a geometric grid out to 10³⁰ toward an
    infinite end), each bisected to :data:`_ROOT_DIGITS` digits."""
    with private_context(_ROOT_DIGITS + 10) as ctx:
        f = compile_expr(u, x, ctx)

        def at(t):
            try:
                v = f(t)
            except (ZeroDivisionError, ValueError, TypeError, OverflowError):
                return None
            return v if isinstance(v, ctx.mpf) and ctx.isfinite(v) else None

        a, b = to_mpf(lo, ctx), to_mpf(hi, ctx)
        if ctx.isfinite(a) and ctx.isfinite(b):
            grid = [a + (b - a) * ctx.mpf(j) / 4096 for j in range(1, 4096)]
        else:
            steps = [ctx.mpf(10) ** (ctx.mpf(e) / 16) for e in range(-96, 481)]
            if ctx.isfinite(a):
                grid = [a + s for s in steps]
            elif ctx.isfinite(b):
                grid = [b - s for s in reversed(steps)]
            else:
                grid = [-s for s in reversed(steps)] + [ctx.zero] + steps
        found = []
        previous = None
        for t in grid:
            v = at(t)
            if v is None:
                previous = None
                continue
            if v == 0:
                found.append(_rational_of(t))
            elif previous is not None and (previous[1] > 0) != (v > 0):
                left, right = previous[0], t
                for _ in range(4 * ctx.prec):
                    mid = (left + right) / 2
                    w = at(mid)
                    if w is None or mid in (left, right):
                        break
                    if w == 0:
                        left = right = mid
                        break
                    if (w > 0) == (previous[1] > 0):
                        left = mid
                    else:
                        right = mid
                found.append(_rational_of((left + right) / 2))
            previous = (t, v) if v != 0 else None
        return found


def _rational_of(v) -> sp.Rational:
    """An mpf as the rational it is exactly (``man_exp`` drops the sign: read from ``_mpf_``)."""
    sign, man, exp, _ = v._mpf_
    if not man:
        return sp.S.Zero
    return (-1) ** int(sign) * sp.Integer(int(man)) * sp.Rational(2) ** int(exp)


# --------------------------------------------------------------------------
# Branches
# --------------------------------------------------------------------------

def _resolve(e: sp.Expr, x: sp.Symbol, t: sp.Expr) -> sp.Expr:
    """``e`` with every Abs, sign, Heaviside, Max, Min and Piecewise replaced by the branch it takes at x = t
    (a rational point strictly between two switch points: the branch of the whole piece).  Floors stay."""
    if not isinstance(e, sp.Basic) or not e.has(x):
        return e
    if isinstance(e, sp.Piecewise):
        for value, condition in e.args:
            if _holds(condition, x, t):
                return _resolve(value, x, t)
        raise NoClosedFormError(f"no branch of {e} applies at {x} = {t}")
    if isinstance(e, (sp.Abs, sp.sign, sp.Heaviside)):
        u = _resolve(e.args[0], x, t)
        s = _sign(u.xreplace({x: t}))
        if isinstance(e, sp.Abs):
            return u if s >= 0 else -u
        if isinstance(e, sp.sign):
            return sp.Integer(s)
        if s == 0:
            return e.func(sp.S.Zero, *e.args[1:])
        return sp.S.One if s > 0 else sp.S.Zero
    if isinstance(e, (sp.Max, sp.Min)):
        terms = [_resolve(a, x, t) for a in e.args]
        best = terms[0]
        for term in terms[1:]:
            s = _sign((term - best).xreplace({x: t}))
            if (s > 0 and isinstance(e, sp.Max)) or (s < 0 and isinstance(e, sp.Min)):
                best = term
        return best
    if e.is_Atom:
        return e
    return e.func(*[_resolve(a, x, t) for a in e.args])


def _holds(condition, x: sp.Symbol, t: sp.Expr) -> bool:
    """Whether a Piecewise condition holds at x = t (relations decided by their sides' difference)."""
    if condition in (sp.true, sp.false):
        return condition is sp.true
    value = condition.xreplace({x: t})
    if value not in (sp.true, sp.false):
        value = value.replace(lambda r: isinstance(r, sp.core.relational.Relational),
                              lambda r: sp.true if _relation_holds(r) else sp.false)
    if value not in (sp.true, sp.false):
        raise NoClosedFormError(f"cannot decide the condition {condition} at {x} = {t}")
    return value is sp.true


def _relation_holds(r) -> bool:
    s = _sign(r.lhs - r.rhs)
    return {sp.Lt: s < 0, sp.Le: s <= 0, sp.Gt: s > 0, sp.Ge: s >= 0, sp.Eq: s == 0, sp.Ne: s != 0}[type(r)]


def _sign(v: sp.Expr) -> int:
    """The sign of a real number, decided exactly or by approximations of growing precision."""
    v = sp.sympify(v, strict=True)  # a number rdpsym built (never text)
    if v.is_Rational:
        return (v.p > 0) - (v.p < 0)
    if v.is_zero:
        return 0
    if v.is_positive:
        return 1
    if v.is_negative:
        return -1
    for digits in (_DIGITS, 3 * _DIGITS):
        a = _approx(v, digits)
        if abs(a) > sp.Rational(1, 10 ** (digits - 15)):
            return 1 if a > 0 else -1
    if sp.simplify(v) == 0:
        return 0
    raise NoClosedFormError(f"cannot decide the sign of {v}")


# --------------------------------------------------------------------------
# Floors of a linear argument: lattices of jumps
# --------------------------------------------------------------------------

def _split_steps(a: sp.Expr, b: sp.Expr, bp: sp.Expr, bq: sp.Expr, x: sp.Symbol) -> list[Region]:
    """The piece (a, b), cut at the jumps of the floors, ceilings and fracs of its branches."""
    atoms = sorted({f for e in (bp, bq) for f in e.atoms(*_STEPS) if f.has(x)}, key=sp.default_sort_key)
    if not atoms:
        return [Region(a, b, bp, bq)]
    lines = []  # (atom, step h = 1/|a|, a zero z of the argument, slope a)
    for f in atoms:
        argument = f.args[0]
        poly = sp.Poly(argument, x) if argument.is_polynomial(x) else None
        if poly is None or poly.degree() != 1 or not all(c.is_number for c in poly.all_coeffs()):
            raise NoClosedFormError(
                f"{f} is a {type(f).__name__} of a nonlinear argument of {x}: its jumps are no lattice "
                "(only a floor, ceiling or frac of a·x + b is integrated cell by cell)")
        slope, constant = poly.all_coeffs()
        lines.append((f, 1 / abs(slope), -constant / slope, slope))
    period = _period([h for _, h, _, _ in lines], atoms)
    jumps_per_period = sum(int(period / h) for _, h, _, _ in lines)
    if jumps_per_period > CELLS_PER_PERIOD:
        raise NoClosedFormError(f"the jumps of {', '.join(map(str, atoms))} repeat only every {jumps_per_period} "
                                f"cells (more than {CELLS_PER_PERIOD})")
    if a is not -oo and b is not oo and _jump_count(lines, a, b) <= EXPANDED_CELLS:
        return _cut(a, b, bp, bq, x, lines)
    out: list[Region] = []
    if a is -oo and b is oo:
        split = _first_jump(lines, sp.S.Zero)
        return (_split_steps(a, split, bp, bq, x) + _split_steps(split, b, bp, bq, x))
    if a is -oo:
        origin = _last_jump(lines, b)
        lattice = _lattice(origin, -1, None, period, bp, bq, x, lines)
        return [Region(-oo, origin, bp, bq, lattice), *_cut(origin, b, bp, bq, x, lines)]
    origin = _first_jump(lines, a)
    out += _cut(a, origin, bp, bq, x, lines)
    if b is oo:
        return [*out, Region(origin, oo, bp, bq, _lattice(origin, 1, None, period, bp, bq, x, lines))]
    blocks = int(_floor((b - origin) / period))
    end = origin + blocks * period
    if blocks > 0:
        out.append(Region(origin, end, bp, bq, _lattice(origin, 1, blocks, period, bp, bq, x, lines)))
    return out + _cut(end, b, bp, bq, x, lines)


def _period(steps: list, atoms: list) -> sp.Expr:
    """The least common multiple of the lattices' steps (their ratios must be rational)."""
    base = steps[0]
    numerators, denominators = [], []
    for h in steps:
        ratio = h / base if (h / base).is_Rational else sp.simplify(h / base)
        if not ratio.is_Rational:
            raise NoClosedFormError(f"the jumps of {', '.join(map(str, atoms))} have incommensurable steps "
                                    f"({base} and {h}): no common period to integrate by")
        numerators.append(int(ratio.p))
        denominators.append(int(ratio.q))
    return base * sp.Rational(math.lcm(*numerators), math.gcd(*denominators))


def _jumps(lines: list, u: sp.Expr, v: sp.Expr) -> list[sp.Expr]:
    """The jumps strictly inside (u, v) (u, v finite), in order, without repeats."""
    points = []
    for _, h, z, _ in lines:
        first, last = _floor((u - z) / h) + 1, _ceiling((v - z) / h) - 1
        points += [z + m * h for m in range(int(first), int(last) + 1)]
    return _ordered(points)


def _jump_count(lines: list, u: sp.Expr, v: sp.Expr) -> int:
    return sum(max(0, int(_ceiling((v - z) / h) - _floor((u - z) / h) - 1)) for _, h, z, _ in lines)


def _first_jump(lines: list, u: sp.Expr) -> sp.Expr:
    """The first jump at or after u."""
    return _ordered([z + _ceiling((u - z) / h) * h for _, h, z, _ in lines])[0]


def _last_jump(lines: list, v: sp.Expr) -> sp.Expr:
    """The last jump at or before v."""
    return _ordered([z + _floor((v - z) / h) * h for _, h, z, _ in lines])[-1]


def _cut(a: sp.Expr, b: sp.Expr, bp: sp.Expr, bq: sp.Expr, x: sp.Symbol, lines: list) -> list[Region]:
    """The finite piece (a, b) as its cells, each branch with its floors replaced by their values there."""
    if not _lt(a, b):
        return []
    bounds = [a, *_jumps(lines, a, b), b]
    out = []
    for u, v in pairwise(bounds):
        t = _point_inside(u, v)
        values = {f: _step_value(f, x, t) for f, _, _, _ in lines}
        out.append(Region(u, v, bp.xreplace(values), bq.xreplace(values), cell=True))
    return out


def _step_value(f: sp.Expr, x: sp.Symbol, t: sp.Expr, floor_value: sp.Expr | None = None) -> sp.Expr:
    """floor/ceiling/frac f on the cell around t (t not a jump): a number, or arg − floor for frac."""
    argument = f.args[0]
    n = floor_value if floor_value is not None else _floor(argument.xreplace({x: t}))
    if isinstance(f, sp.floor):
        return n
    if isinstance(f, sp.ceiling):
        return n + 1
    return argument - n


def _lattice(origin, direction: int, blocks: int | None, period, bp, bq, x, lines) -> Lattice:
    points = [origin, *_jumps(lines, origin, origin + period), origin + period]
    offsets = tuple(t - origin for t in points[:-1])
    floors = []
    for u, v in pairwise(points):
        t = _point_inside(u, v)
        floors.append(tuple(_floor(f.args[0].xreplace({x: t})) for f, _, _, _ in lines))
    shifts = tuple(sp.Integer(sp.simplify(slope * period)) for _, _, _, slope in lines)
    return Lattice(period, origin, offsets, direction, blocks, x, bp, bq, tuple(f for f, _, _, _ in lines),
                   tuple(floors), shifts)


@functools.lru_cache(maxsize=4096)
def _cells(lattice: Lattice, n: int) -> list[Region]:
    if n < 0 or (lattice.blocks is not None and n >= lattice.blocks):
        raise IndexError(f"block {n} is outside the lattice's {lattice.blocks} blocks")
    m = n if lattice.direction > 0 else -n - 1
    with sympy_evalf_guard():
        base = lattice.origin + m * lattice.step
        ends = [*lattice.offsets, lattice.step]
        out = []
        for j, (u, v) in enumerate(pairwise(ends)):
            values = {f: _step_value(f, lattice.var, None, floor + m * shift)
                      for f, floor, shift in zip(lattice.atoms, lattice.floors[j], lattice.shifts)}
            out.append(Region(base + u, base + v, lattice.p.xreplace(values), lattice.q.xreplace(values), cell=True))
    return out


# --------------------------------------------------------------------------
# Discrete laws
# --------------------------------------------------------------------------

def _discrete_regions(P: Law, Q: Law) -> list[Region]:
    if P.var is not None and Q.var is not None and Q.var != P.var:
        raise NoClosedFormError(f"P and Q must be written in one variable; got {P.var} and {Q.var}")
    spans = _outcome_ends(P), _outcome_ends(Q)
    lo = spans[0][0] if _le(spans[0][0], spans[1][0]) else spans[1][0]
    hi = spans[0][1] if _le(spans[1][1], spans[0][1]) else spans[1][1]
    starts: set = set()
    for law, (first, last) in zip((P, Q), spans):
        if first is not -oo:
            starts.add(first)
        if last is not oo:
            starts.add(last + 1)  # the first integer past the support starts a piece of its own
        if law.table is not None:
            for k in law.table:
                starts |= {_integer_key(k), _integer_key(k) + 1}
        else:
            starts |= set(_discrete_starts(law.expr, law.var, lo, hi))
    inner = sorted(s for s in starts if (lo is -oo or s > lo) and (hi is oo or s <= hi))
    bounds = [lo, *inner]
    out = []
    for i, a in enumerate(bounds):
        b = bounds[i + 1] - 1 if i + 1 < len(bounds) else hi
        out.append(Region(a, b, *(_discrete_branch(law, span, a, b) for law, span in zip((P, Q), spans))))
    return out


def _discrete_starts(expr: sp.Expr, k: sp.Symbol, lo: sp.Expr, hi: sp.Expr) -> list[sp.Expr]:
    """The integers where a pmf's branch may change: a switch at an integer c is the piece [c, c] of its own
    (starts c and c + 1); a switch at a non-integer c starts a piece at ⌈c⌉."""
    real = sp.Dummy(k.name, real=True)
    starts = []
    for c in _switch_points(expr.xreplace({k: real}), real, lo, hi):
        n = _floor(c)
        if _sign(c - n) == 0:
            starts += [n, n + 1]
        else:
            starts.append(n + 1)
    return starts


def _discrete_branch(law: Law, span: tuple, a: sp.Expr, b: sp.Expr) -> sp.Expr:
    first, last = span
    if not (_le(first, a) and _le(b, last)):
        return sp.S.Zero
    if law.table is not None:
        return next((v for key, v in law.table.items() if a == b and _integer_key(key) == a), sp.S.Zero)
    if a == b:
        return law.expr.subs(law.var, a)  # one outcome: its probability
    t = a if a is not -oo else (b if b is not oo else sp.S.Zero)
    return _resolve(law.expr, law.var, t)


# --------------------------------------------------------------------------
# Numbers: order, approximations, floors
# --------------------------------------------------------------------------

def _approx(v: sp.Expr, digits: int) -> sp.Rational:
    """A rational within 10^−digits (relative) of the real number v."""
    with private_context(digits) as ctx:
        value = to_mpf(v, ctx)
        if not ctx.isfinite(value):
            raise NoClosedFormError(f"{v} is not a finite real number")
        return _rational_of(value)


def _compare(a: sp.Expr, b: sp.Expr) -> int:
    """−1, 0 or 1 as a <, =, > b (±∞ allowed); equal only when shown so (or indistinguishable at 180 digits)."""
    if a == b:
        return 0
    if a is -oo or b is oo:
        return -1
    if a is oo or b is -oo:
        return 1
    d = a - b
    if d.is_Rational:
        return (d.p > 0) - (d.p < 0)
    try:
        return _sign(d)
    except NoClosedFormError:
        return 0


def _lt(a: sp.Expr, b: sp.Expr) -> bool:
    return _compare(a, b) < 0


def _le(a: sp.Expr, b: sp.Expr) -> bool:
    return _compare(a, b) <= 0


def _ordered(points: list) -> list:
    """Distinct points in increasing order."""
    out: list = []
    for t in sorted(points, key=functools.cmp_to_key(_compare)):
        if not out or _compare(out[-1], t) != 0:
            out.append(t)
    return out


def _floor(v: sp.Expr) -> sp.Integer:
    v = sp.sympify(v, strict=True)  # a number rdpsym built (never text)
    if v.is_Rational:
        return sp.floor(v)
    n = sp.floor(_approx(v, _DIGITS))
    return n if _sign(v - n) >= 0 else n - 1


def _ceiling(v: sp.Expr) -> sp.Integer:
    return -_floor(-v)


def _midpoint(a: sp.Expr, b: sp.Expr) -> sp.Expr:
    if a.is_Rational and b.is_Rational:
        return (a + b) / 2
    return (_approx(a, _DIGITS) + _approx(b, _DIGITS)) / 2


def _point_inside(a: sp.Expr, b: sp.Expr) -> sp.Expr:
    """A rational point strictly inside (a, b)."""
    if a is -oo and b is oo:
        return sp.S.Zero
    if a is -oo:
        return _floor(b) - 1
    if b is oo:
        return _floor(a) + 1
    t = _midpoint(a, b)
    if not (_lt(a, t) and _lt(t, b)):
        raise NoClosedFormError(f"the piece ({a}, {b}) is too narrow to resolve its branch")
    return t


__all__ = [
    "Lattice",
    "Law",
    "Region",
    "lattice_sup",
    "law_probes",
    "outcomes",
    "probe_points",
    "read_regions",
    "read_tables",
]
