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
  rational point inside it (:func:`~rdpsym.quadrature.branches._resolve`).
- a ``floor``, ``ceiling`` or ``frac`` of a *linear* argument a·x + b jumps at
  infinitely many points x = (n − b)/a, a lattice of step 1/|a|: a short
  piece is cut into its cells, a long or infinite one is a :class:`Region`
  flagged with its :class:`~rdpsym.quadrature.region_records.Lattice`, whose cells the quadrature integrates
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

This module is the entry point and reads the supports; the stages it calls are
:mod:`.region_records` (:class:`Law`, :class:`Region`, ``Lattice``),
:mod:`.branches` (switch points, and the branch on each piece), :mod:`.lattices`
(the jumps of floors) and :mod:`.real_order` (exact order of the points).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

import sympy as sp

from rdpsym.foundations.errors import ConvergenceError, NoClosedFormError
from rdpsym.quadrature.branches import _resolve, _switch_points
from rdpsym.quadrature.compile import to_mpf
from rdpsym.quadrature.lattices import _split_steps
from rdpsym.quadrature.real_order import _floor, _le, _lt, _midpoint, _ordered, _point_inside, _sign
from rdpsym.quadrature.region_records import Law, Region

oo = sp.oo


#: Two finite pmfs with at most this many outcomes each are read as tables.
TABLE_OUTCOMES = 400


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


__all__ = [
    "Law",
    "Region",
    "lattice_sup",
    "law_probes",
    "outcomes",
    "probe_points",
    "read_regions",
    "read_tables",
]
