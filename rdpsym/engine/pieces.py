"""Splitting a density at its non-smooth points.

A pdf such as ``exp(-|x - c|/b)/(2b)`` or a ``Piecewise`` is smooth except at
finitely many points (zeros of ``Abs``/``sign``/``Heaviside`` arguments,
boundaries of ``Piecewise`` conditions, switches of ``Max``/``Min``).  Between
consecutive points each such atom has one fixed branch, so the density is a
single smooth expression there: the piece's log-density is then a polynomial
(plus logs) that the closed-form rules in :mod:`.integrals` recognise.

The records of that split (:class:`Piece`, :class:`PiecePair`) and the points
read on a piece live here too, below both the laws that validate a density and
the quadrature that integrates one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import pairwise

import sympy as sp

from rdpsym.engine.context import UndecidedSign
from rdpsym.foundations.balls import decide_in_balls, precision
from rdpsym.foundations.budget import budgeted
from rdpsym.foundations.errors import NoClosedFormError, NotCertifiable, Undecided
from rdpsym.foundations.logs import expand_logs
from rdpsym.foundations.symbols import admitted_points, has_declared, in_positive_form, sign_by_intervals

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


@dataclass(frozen=True)
class PiecePair:
    """One piece of the common refinement with both densities' branches on it."""

    lo: sp.Expr
    hi: sp.Expr
    p: sp.Expr
    q: sp.Expr


def breakpoints(expr: sp.Expr, var: sp.Symbol, lo: sp.Expr = -sp.oo, hi: sp.Expr = sp.oo) -> list[sp.Expr]:
    """The real points where ``expr`` may be non-smooth in ``var`` (a switch of a periodic function's sign: those in
    [lo, hi], every one of them, or :class:`NoClosedFormError` where they are infinitely many).

    >>> import sympy as sp
    >>> x = sp.Symbol("x", real=True)
    >>> breakpoints(sp.exp(-sp.Abs(x - 1)), x)
    [1]
    """
    switches: list[sp.Expr] = []
    for atom in expr.atoms(sp.Abs, sp.sign, sp.Heaviside):
        if atom.args[0].has(var):
            switches.append(atom.args[0])
    for atom in expr.atoms(sp.Max, sp.Min):
        args = [a for a in atom.args]
        for i, u in enumerate(args):
            for v in args[i + 1 :]:
                if (u - v).has(var):
                    switches.append(u - v)
    for pw in expr.atoms(sp.Piecewise):
        for _, cond in pw.args:
            for rel in cond.atoms(sp.core.relational.Relational):
                if rel.has(var):
                    switches.append(rel.lhs - rel.rhs)
    # Zeros of polynomial factors: (x − 1)² changes the sign of x − 1 at 1, and the
    # piecewise logarithm log|x − 1| needs a piece on each side.
    for f in sp.Mul.make_args(_common_factors_out(expr)):
        base = f.base if isinstance(f, sp.Pow) and f.exp.is_number else f
        if base.has(var) and base.is_polynomial(var) and 1 <= sp.degree(base, var) <= 2:
            switches.append(base)
    points: list[sp.Expr] = []
    for u in switches:
        for root in _real_roots(u, var, lo, hi):
            if not any(_same(root, p) for p in points):
                points.append(root)
    return points


def _common_factors_out(expr: sp.Expr) -> sp.Expr:
    """``factor_terms(expr)`` ((2x − 2)² → 4(x − 1)²), or ``expr`` as it is where that does not finish within
    a second: on (1/2)^(10³⁰ − k) it tries to write out 2^(10³⁰)."""
    try:
        return budgeted(lambda: sp.factor_terms(expr), "taking common factors out of a density", seconds=1.0)
    except NoClosedFormError:
        return expr


#: The functions whose zeros come in infinite families (``solve`` lists one period's: sin x = 0 at 0 and π only).
_PERIODIC = (sp.sin, sp.cos, sp.tan, sp.cot, sp.sec, sp.csc)
#: The most switch points a density may have on its support (each is compared with the others exactly: 32 take
#: 1.5 s, 128 take 26 s; a review).
MOST_SWITCHES = 64


def _real_roots(u: sp.Expr, var: sp.Symbol, lo: sp.Expr = -sp.oo, hi: sp.Expr = sp.oo) -> list[sp.Expr]:
    poly = sp.Poly(u, var) if u.is_polynomial(var) else None
    if poly is not None and poly.degree() == 1:
        a, b = poly.all_coeffs()
        return [sp.simplify(-b / a)]
    numbers = not (u.free_symbols - {var} or lo.free_symbols or hi.free_symbols)
    if numbers and any(f.has(var) for f in u.atoms(*_PERIODIC)):
        # (with a parameter in it, or in the support, SymPy's solveset raised TypeError on the relations it builds; the
        # cases of such a switch are the derivation's, as before: a review)
        return _periodic_roots(u, var, lo, hi)
    try:
        if var.is_integer:
            # a pmf's switch lies between integers (k² < 5 at √5): solved in an integer k, it had no root, the pmf
            # was read as its first branch at every k, and a law of mass 1 as one of mass 0 (a suite's law)
            real = sp.Dummy("switch", real=True)
            roots = [r.xreplace({real: var}) for r in sp.solve(u.xreplace({var: real}), real)]
        else:
            roots = sp.solve(u, var)
    except NoClosedFormError:
        raise
    except NotImplementedError as exc:
        # (Mod(k, 2) = 0, a Piecewise of even and odd outcomes: SymPy has no algorithm; said as rdpsym's refusal, which
        # the numeric routes take, not SymPy's NotImplementedError out of rdpsym (a probe))
        raise NoClosedFormError(f"cannot find where {u} = 0 ({exc})") from exc
    return [r for r in roots if r.is_extended_real is not False]


def _periodic_roots(u: sp.Expr, var: sp.Symbol, lo: sp.Expr, hi: sp.Expr) -> list[sp.Expr]:
    """Every zero of ``u`` (a periodic function of ``var`` in it) in [lo, hi], by ``solveset``; a
    :class:`NoClosedFormError` where they are infinitely many or SymPy cannot list them.  ``solve`` gave one period's
    zeros: |sin x| on [0, 10] was read as sin x on (π, 10) and refused as negative at 4.1, and a density switching
    where sin(1/x) > 0 (infinitely often near 0) was read as switching at 1/π only, its mass and its D_∞ wrong (a
    probe)."""
    hull = sp.Interval(lo, hi)
    try:
        solved = budgeted(lambda: sp.solveset(u, var, hull), "the zeros of a switch of the density", seconds=2.0)
    except (TypeError, ValueError, NotImplementedError, RecursionError) as exc:
        raise NoClosedFormError(f"SymPy could not solve {u} = 0 on {hull} ({type(exc).__name__}): rdpsym cannot tell "
                                "where the density switches") from exc
    found = _listed(solved, hull)
    if found is None:
        raise NoClosedFormError(f"the density switches where {u} = 0, at infinitely many points of {hull} or at points "
                                f"SymPy cannot list ({str(solved)[:200]}): rdpsym reads densities that switch finitely "
                                "often")
    return found


def _listed(solved: sp.Set, hull: sp.Interval) -> list[sp.Expr] | None:
    """The real numbers of ``solved`` in ``hull``, all of them (at most :data:`MOST_SWITCHES`), or None."""
    if isinstance(solved, sp.FiniteSet):
        return [v for v in solved.args if v.is_extended_real is not False]
    if solved is sp.S.EmptySet:
        return []
    if isinstance(solved, sp.Range):  # (solveset's integers: sin(2πx) = 0 on [0, 1] at Range(0, 2) and 1/2)
        return list(solved) if solved.is_finite_set and solved.size <= MOST_SWITCHES else None
    if isinstance(solved, sp.Union):
        parts = [_listed(part, hull) for part in solved.args]
        return None if None in parts else [v for part in parts for v in part]
    if isinstance(solved, sp.Intersection):
        intervals = [s for s in solved.args if isinstance(s, sp.Interval)]
        rest = [s for s in solved.args if not isinstance(s, sp.Interval)]
        inside = hull
        for interval in intervals:
            inside = inside.intersect(interval)
        if len(rest) != 1 or not isinstance(inside, sp.Interval):
            return None if len(rest) != 1 else []
        return _listed(rest[0], inside)
    if isinstance(solved, sp.ImageSet) and solved.base_sets == (sp.S.Integers,):
        (n,), expr = solved.lamda.variables, solved.lamda.expr
        a, b = sp.expand(expr).coeff(n, 1), sp.expand(expr).coeff(n, 0)
        if sp.expand(expr - a * n - b) != 0 or not (a.is_number and b.is_number and a.is_nonzero):
            return None  # (1/(nπ): zeros that gather at 0)
        if not (hull.inf.is_finite and hull.sup.is_finite):
            return None
        first, last = sorted(((hull.inf - b) / a, (hull.sup - b) / a), key=lambda v: float(v))
        start, stop = int(sp.ceiling(first)), int(sp.floor(last))
        if stop - start >= MOST_SWITCHES:
            return None
        return [a * k + b for k in range(start, stop + 1)]
    return None


def _same(a: sp.Expr, b: sp.Expr) -> bool:
    return sp.simplify(a - b) == 0


def less(a: sp.Expr, b: sp.Expr) -> bool | None:
    """Decide ``a < b`` for points that may be symbolic or infinite."""
    if a == b:
        return False
    if a is sp.S.NegativeInfinity or b is sp.S.Infinity:
        return True
    if a is sp.S.Infinity or b is sp.S.NegativeInfinity:
        return False
    d = sp.simplify(b - a)
    if d.is_positive is None and not d.is_nonpositive and has_declared(d):
        # parameters declared in an interval (rdpsym.parameter): their box bounds a linear d, else SymPy's signs
        sign = sign_by_intervals(d)
        if sign is not None:
            return sign > 0
        d = sp.simplify(in_positive_form(d))
    return d.is_positive if d.is_positive is not None else (False if d.is_nonpositive else None)


def _off_the_line(p) -> bool:
    """Whether ``p`` is certainly not real (1/3 − i·(δ/2 + 1/12) with δ > 0, which SymPy's is_real leaves open)."""
    real = getattr(p, "is_extended_real", True)
    return real is False or (real is None and sp.im(p).is_zero is False)


def sort_points(points: Iterable[sp.Expr], lo: sp.Expr, hi: sp.Expr) -> list[sp.Expr]:
    """``lo``, the points strictly inside (lo, hi) in increasing order, ``hi``.

    Raises :class:`~rdpsym.engine.context.UndecidedSign` (a :class:`NoClosedFormError`)
    when two points cannot be ordered from the parameters' assumptions (e.g. two
    free centres ``c1`` and ``c2``): the derivation then splits into the cases.
    """
    inside: list[sp.Expr] = []
    for p in points:
        if _off_the_line(p):
            continue  # a complex zero of a factor (a Cauchy law's pole at c ± i·s) is no point of the line
        after_lo, before_hi = less(lo, p), less(p, hi)
        if after_lo is None or before_hi is None:
            raise UndecidedSign(
                p - lo if after_lo is None else hi - p,
                f"cannot tell whether the non-smooth point {p} lies inside ({lo}, {hi}); "
                "give its parameters values or sign assumptions",
            )
        if after_lo and before_hi and not any(_same(p, q) for q in inside):
            inside.append(p)
    ordered: list[sp.Expr] = []
    for p in inside:
        pos = 0
        for q in ordered:
            q_before_p = less(q, p)
            if q_before_p is None:
                raise UndecidedSign(
                    p - q,
                    f"cannot order the non-smooth points {q} and {p}; "
                    "give their parameters values or order assumptions",
                )
            if q_before_p:
                pos += 1
        ordered.insert(pos, p)
    return [lo, *ordered, hi]


def interior_point(lo: sp.Expr, hi: sp.Expr) -> sp.Expr:
    """A point strictly inside (lo, hi) at which branches are decided."""
    if lo is sp.S.NegativeInfinity and hi is sp.S.Infinity:
        return sp.S.Zero
    if lo is sp.S.NegativeInfinity:
        return hi - 1
    if hi is sp.S.Infinity:
        return lo + 1
    return (lo + hi) / 2


def resolve_branch(expr: sp.Expr, var: sp.Symbol, at: sp.Expr) -> sp.Expr:
    """Replace every switch in ``expr`` by the branch it takes near ``var = at``.

    Raises :class:`NoClosedFormError` when a branch cannot be decided.

    >>> import sympy as sp
    >>> x = sp.Symbol("x", real=True)
    >>> resolve_branch(sp.Abs(x - 1) + sp.Abs(x), x, sp.Rational(1, 2))
    1
    """

    def sign_at(u: sp.Expr) -> int:
        v = sp.simplify(u.subs(var, at))
        if v.is_positive is None and v.is_negative is None and v.is_zero is None and has_declared(v):
            sign = sign_by_intervals(v)  # a linear v bounded by the parameters' box
            if sign is not None:
                return sign
            v = sp.simplify(in_positive_form(v))
        if v.is_positive:
            return 1
        if v.is_negative:
            return -1
        if v.is_zero:
            return 0
        raise UndecidedSign(v, f"cannot decide the sign of {u} between non-smooth points")

    def holds(cond) -> bool | None:
        """A Piecewise condition at ``at``: by SymPy, else by the sign of each relation's two sides (a breakpoint
        declared in an interval, x < c at the midpoint c/2 of (0, c) with c ∈ (0, 1/2))."""
        if cond in (sp.true, sp.false):
            return bool(cond)
        truth = sp.simplify(cond.subs(var, at))
        if truth in (sp.true, sp.false):
            return bool(truth)
        if isinstance(cond, (sp.And, sp.Or)):
            parts = [holds(c) for c in cond.args]
            if isinstance(cond, sp.And):
                return False if False in parts else (True if all(parts) else None)
            return True if True in parts else (False if all(p is False for p in parts) else None)
        if isinstance(cond, sp.Not):
            inner = holds(cond.args[0])
            return None if inner is None else not inner
        if isinstance(cond, sp.core.relational.Relational) and not isinstance(cond, (sp.Eq, sp.Ne)):
            try:
                s = sign_at(cond.lhs - cond.rhs)
            except NoClosedFormError:
                return None
            return {sp.StrictLessThan: s < 0, sp.LessThan: s <= 0, sp.StrictGreaterThan: s > 0,
                    sp.GreaterThan: s >= 0}.get(type(cond))
        return None

    def replace(e: sp.Expr) -> sp.Expr:
        if not e.args or not e.has(var):
            return e
        args = [replace(a) for a in e.args]
        if isinstance(e, sp.Piecewise):
            for (value, cond) in e.args:
                truth = holds(cond)
                if truth is None:
                    raise NoClosedFormError(f"cannot decide the Piecewise condition {cond}")
                if truth:
                    return replace(value)
            raise NoClosedFormError(f"no Piecewise branch of {e} applies")
        if isinstance(e, sp.Abs):
            s = sign_at(args[0])
            return args[0] if s >= 0 else -args[0]
        if isinstance(e, sp.sign):
            return sp.Integer(sign_at(args[0]))
        if isinstance(e, sp.Heaviside):
            s = sign_at(args[0])
            if s == 0:
                raise NoClosedFormError("Heaviside switches on a whole piece")
            return sp.Integer(1 if s > 0 else 0)
        if isinstance(e, (sp.Max, sp.Min)):
            best = args[0]
            for cand in args[1:]:
                s = sign_at(cand - best)
                if (s > 0) == isinstance(e, sp.Max) and s != 0:
                    best = cand
            return best
        return e.func(*args)

    return replace(expr)


def _below_zero(v: sp.Expr) -> bool:
    """Whether a real number is below 0: by SymPy, and where SymPy cannot tell, in Arb balls (1 − erf(75√2), a skew
    normal's factor at 50, is erfc(106) ~ 10⁻⁴⁸⁸², below what SymPy's evaluation resolves: its relation stayed
    unevaluated and ``bool`` of it raised a TypeError out of the law's check, a probe); False where neither can."""
    below = v < 0
    if below in (sp.true, sp.false):
        return bool(below)
    try:
        with precision(_SIGN_BITS):
            return decide_in_balls(below)
    except (Undecided, NotCertifiable):
        return False


def _refuted_negative(v: sp.Expr) -> bool:
    """Whether SymPy's "``v`` is negative" for every value of its symbols is false at a point their assumptions
    admit.  SymPy 1.14 holds binomial(n, k) negative for every odd k where n's sign is unknown (its
    ``_eval_is_nonnegative`` answers False): binomial(10 − K, 3) with K a positive integer is 84 at K = 1, and the
    hypergeometric pmf's factor was logged as log(−binomial(10 − K, 3 − k)), its mass summed to −1 (a review)."""
    for point in admitted_points(sorted(v.free_symbols, key=sp.default_sort_key), _SAMPLE_VALUES, _SAMPLE_POINTS):
        value = v.subs(point)
        if value.is_number and value.is_extended_real and not _below_zero(value):
            return True
    return False


#: The values tried for each symbol by :func:`_refuted_negative`, those its assumptions admit, at as many points.
_SAMPLE_VALUES = (sp.Integer(1), sp.Integer(2), sp.Rational(1, 2), sp.Integer(3), sp.S.Zero, sp.Integer(-1),
                  sp.Rational(-1, 2), sp.Integer(-2))
_SAMPLE_POINTS = 4

#: Bits a sign SymPy cannot decide is read at (:func:`_below_zero`).
_SIGN_BITS = 256


def log_of(branch: sp.Expr, var: sp.Symbol | None = None, at: sp.Expr | None = None) -> sp.Expr:
    """``log(branch)`` as a sum of logarithms of positive factors, on one piece.

    ``expand_log(force=True)`` would write log(−x·eˣ) as iπ + log x + x and
    log((x − 1)²) as 2·log(x − 1), complex for x < 1.  Here each factor that
    depends on ``var`` is replaced by its absolute value, the sign being read
    at the piece's interior point ``at`` (the factor has no zero inside the
    piece, or the piece would have been split there): log((x − 1)²) becomes
    2·log(1 − x) on (0, 1).  Factors free of ``var`` are parameters of a
    density that is positive on the piece; they are taken as positive.
    """
    if var is None:
        return sp.expand(expand_logs(sp.log(branch)))

    def sign_at(f: sp.Expr) -> int:
        v = f.subs(var, at)
        if v.is_number:
            return -1 if v.is_negative or (v.is_extended_real and _below_zero(v)) else 1
        return -1 if v.is_negative and not _refuted_negative(v) else 1

    def log_abs(f: sp.Expr) -> sp.Expr:
        if isinstance(f, sp.exp):
            return f.args[0]
        if isinstance(f, sp.Mul):
            return sp.Add(*[log_abs(g) for g in f.args])
        if isinstance(f, sp.Pow) and f.base.has(var):
            if f.exp.has(var):
                return sp.log(f)  # x^x: no rule will see through it anyway
            if sign_at(f.base) < 0 and f.exp.is_integer is not True:
                raise NoClosedFormError(f"{f} is a non-integer power of a negative base")
            return f.exp * log_abs(f.base)
        if isinstance(f, sp.Pow) and f.exp.has(var):
            # a^(k−1) with a free of the variable: a is a positive parameter of a density that
            # is positive on the piece, so log a^(k−1) = (k − 1)·log a, the same as when the
            # pmf is written e^((k−1)·log a): the form the rules read must not depend on the spelling.
            return f.exp * log_abs(f.base)
        if f.is_number:
            return sp.log(sp.Abs(f))
        if not f.has(var):
            return expand_logs(sp.log(f))
        return sp.log(f) if sign_at(f) > 0 else sp.log(sp.expand(-f))

    factors = list(sp.Mul.make_args(sp.factor_terms(branch)))
    sign = sp.Mul(*[g for g in factors if g.is_number])
    constants = [g for g in factors if not g.is_number and not g.has(var)]
    if sign.is_negative and len(constants) == 1:
        # −p^k/(k·log(1 − p)): the factors free of the variable are positive only together, so the
        # negative number's sign goes to the one other constant factor: −log(−log(1 − p)), never the
        # −log(log(1 − p)) of a factor-by-factor split (complex, iπ off).
        (g,) = constants
        base, exponent = (g.base, g.exp) if isinstance(g, sp.Pow) and g.exp.is_integer and g.exp.is_odd else (g, 1)
        rest = [f for f in factors if f is not g and not f.is_number]
        return sp.expand(sp.log(-sign) + exponent * sp.log(sp.expand(-base)) + log_abs(sp.Mul(*rest)))
    return sp.expand(log_abs(sp.Mul(*factors)))


def piece_point(lo: sp.Expr, hi: sp.Expr, discrete: bool) -> sp.Expr:
    """A point inside a piece at which its branch and its factors' signs are read."""
    return _integer_inside(lo, hi) if discrete else interior_point(lo, hi)


def _integer_inside(lo: sp.Expr, hi: sp.Expr) -> sp.Expr:
    if lo is -oo:
        return hi if hi is not oo else sp.S.Zero
    return lo


def piece_ranges(pts: list[sp.Expr], discrete: bool) -> list[tuple[sp.Expr, sp.Expr]]:
    """Consecutive pieces between sorted points ``[lo, …, hi]``.

    Continuous: the open intervals (p_i, p_{i+1}).  Discrete: ``pts`` are *starts*
    (``lo`` and every integer where a new branch begins) and ``hi`` is the last outcome,
    inclusive; each piece is [s_i, s_{i+1} − 1] and the last one [s_last, hi].  A start
    equal to ``hi`` is a piece [hi, hi] of its own (sort_points keeps only points strictly
    inside, so the caller passes hi + 1 as the end instead: see :func:`discrete_ranges`).

    >>> piece_ranges([sp.S(0), sp.S(2), sp.S(3)], True)
    [(0, 1), (2, 3)]
    """
    if not discrete:
        return list(pairwise(pts))
    out = []
    for i, (lo, hi) in enumerate(pairwise(pts)):
        last = i == len(pts) - 2
        top = hi if (last or hi is oo) else hi - 1
        out.append((lo, top))
    return [(a, b) for a, b in out if a is -oo or b is oo or not (b - a).is_negative]


def discrete_ranges(starts: Iterable[sp.Expr], lo: sp.Expr, hi: sp.Expr) -> list[tuple[sp.Expr, sp.Expr]]:
    """The integer pieces [a, b] (inclusive) of {lo, …, hi} cut at ``starts``.

    ``starts`` are integers where a new piece begins (a branch switch c gives the starts
    c and c + 1, a support {m, …, n} gives m and n + 1); ``hi`` is the last outcome,
    inclusive (±∞ allowed at either end).  Each piece runs from one start up to one
    before the next, the last one to ``hi``: the outcome ``hi`` itself is never lost,
    and a start at ``hi`` makes [hi, hi] a piece of its own.

    >>> discrete_ranges([0, 3], sp.S(0), sp.oo)
    [(0, 2), (3, oo)]
    >>> discrete_ranges([2, 3], sp.S(0), sp.S(2))
    [(0, 1), (2, 2)]
    """
    end = hi + 1 if hi is not oo else oo  # the first integer past the range: a start like any other
    pts = sort_points(list(starts), lo, end)
    return [(a, b - 1 if b is not oo else oo) for a, b in pairwise(pts)]


def probe_points(piece: Piece, discrete: bool) -> list[sp.Expr]:
    """A few points inside ``piece`` (anything with ``lo`` and ``hi``) to evaluate a branch at."""
    lo, hi = piece.lo, piece.hi
    if discrete:
        start = lo if lo is not -oo else (hi - 5 if hi is not oo else sp.S(-5))
        points = []
        for j in range(6):
            within = sp.true if hi is oo else sp.Le(start + j, hi)
            if within is sp.false or (within is not sp.true and j > 0):
                break  # past a symbolic end (binomial's n) only the first outcome is surely inside
            points.append(start + j)
        return points
    if lo is -oo and hi is oo:
        return [sp.S(v) for v in (-10, -1, 0, sp.Rational(1, 3), 1, 10)]
    if lo is -oo:
        return [hi - d for d in (sp.Rational(1, 100), 1, 10, 100)]
    if hi is oo:
        return [lo + d for d in (sp.Rational(1, 100), 1, 10, 100)]
    return [lo + (hi - lo) * sp.Rational(j, 7) for j in range(1, 7)]


#: A pmf on fewer outcomes than this (a finite numeric range) is handled as a table.
TABLE_OUTCOMES = 400


def finite_outcomes(lo: sp.Expr, hi: sp.Expr) -> range | None:
    """The integers lo..hi when the range is finite, numeric and short enough to tabulate, else None."""
    if lo.is_finite and hi.is_finite and lo.is_number and hi.is_number and hi - lo < TABLE_OUTCOMES:
        return range(int(lo), int(hi) + 1)
    return None
