"""How a claim's relation is decided at points: its sides in Arb balls at rising precisions, exactly by SymPy where
the balls cannot tell, over the domain's sample points, its far points and a search for a failure the points missed
(:func:`_check_numeric`); a failure is a counterexample only where the balls certify it.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from fractions import Fraction

import sympy as sp
from flint import arb, ctx, fmpq

from rdpsym.claims import search
from rdpsym.claims.critical import BEYOND_REACH, UNDECIDED
from rdpsym.claims.domains import Domain
from rdpsym.engine.context import SYMPY_FAILURES
from rdpsym.foundations.arithmetic import magnitude_problem
from rdpsym.foundations.balls import InfiniteValue, NotCertifiable, OutsideDomain, Undecided, precision, to_arb
from rdpsym.foundations.budget import time_budget
from rdpsym.foundations.errors import ClaimError, RdpSymError, must, shorten
from rdpsym.foundations.precision import DECISION_RUNGS
from rdpsym.foundations.reading import exact
from rdpsym.foundations.record import Counterexample, NoPoints, Relation, Sampled, Status, point_items


def _at(expr: sp.Expr, point: dict):
    """``expr`` at ``point``: an Arb ball at the current precision, or ±∞.

    The values go in as balls, never through SymPy substitution: SymPy would
    evaluate (10⁻³⁰)^(10¹²) exactly, which never finishes.
    """
    if expr in (sp.oo, -sp.oo):
        return expr
    values = {s: v for s, v in point.items() if isinstance(s, sp.Symbol)}  # to_arb reads each exactly
    missing = _free_symbols(expr) - values.keys()
    if missing:
        raise ClaimError(f"free symbols {sorted(map(str, missing))} not given by the domain")
    try:
        return to_arb(expr, values)
    except InfiniteValue:
        return _with_an_infinite_part(expr, values)
    except NotCertifiable:
        if expr.has(sp.S.NegativeInfinity):  # (a −∞ no ball holds, as a Piecewise's branch at log q's zero: a true
            return _with_an_infinite_part(expr, values)  # claim was unknown, "no certified evaluation"; a probe)
        raise


@functools.lru_cache(maxsize=1024)
def _free_symbols(expr: sp.Expr) -> frozenset:
    """``expr.free_symbols``, kept: SymPy walks the whole tree for it, and a side is read at every point and rung."""
    return frozenset(expr.free_symbols)


class _NotDefinedYet(Undecided):
    """A side with no value at this precision (a NaN ball; SymPy out of time on a part that is +∞): undefined if the
    highest rung says so too, unlike :class:`OutsideDomain`, which is certain at every precision (post-processing's
    threshold claim is NaN at 256 bits and decided at 1024 where α = 1 + 10⁻³⁰, σ = 10⁻³⁰, t = −10¹²)."""


def _with_an_infinite_part(expr: sp.Expr, values: dict):
    """``expr`` where a part of it is +∞ (D inside −D or e^{−(α−1)D}): SymPy's extended arithmetic on the exact point,
    within 2 s: ±∞, a ball, or :class:`OutsideDomain`.  The whole side was read as +∞ wherever a part of it was, so
    AtLeast(−D, −1) was checked where D = ∞ (a probe of the claims engine)."""
    if not all(isinstance(v, sp.Basic) and v.is_number for v in values.values()):
        raise OutsideDomain("a part of the expression is +∞ at a point given as balls")
    found: list = []
    with time_budget(2.0, "an expression with an infinite part, at a point", absorb=True):
        found.append(expr.xreplace(values))
    if not found:
        raise _NotDefinedYet("a part of the expression is +∞ here, and SymPy did not finish the rest")
    value = found[0]
    if value in (sp.oo, -sp.oo):
        return value
    if value.free_symbols or value.has(sp.nan, sp.zoo, sp.oo, -sp.oo) or value.is_extended_real is False:
        raise OutsideDomain(f"a part of the expression is +∞ here, and the whole is {value}")
    return to_arb(value, {})


#: A relation between two numbers Python compares exactly (floats ±∞, rationals).
_HOLDS = {"=": operator.eq, "<=": operator.le, ">=": operator.ge, "<": operator.lt, ">": operator.gt}


def _decide(lhs, relation: str, rhs) -> bool | None:
    """Certified decision of ``lhs ⋈ rhs`` for balls (or ±∞); ``None`` if the balls overlap."""
    inf = (sp.oo, -sp.oo)
    if lhs in inf or rhs in inf:
        a = float("inf") if lhs == sp.oo else float("-inf") if lhs == -sp.oo else None
        b = float("inf") if rhs == sp.oo else float("-inf") if rhs == -sp.oo else None
        if (a is None and _ball(lhs).is_nan()) or (b is None and _ball(rhs).is_nan()):
            # (undefined beside ±∞: KL ≤ χ² at q = 0, a Piecewise's +∞ against 1/q, was refuted there; a probe)
            raise _NotDefinedYet("a side evaluates to NaN")
        if a is not None and b is not None:
            return _HOLDS[relation](a, b)
        finite_is_smaller = (a is None and b == float("inf")) or (b is None and a == float("-inf"))
        return {"=": False, "<=": finite_is_smaller, "<": finite_is_smaller,
                ">=": not finite_is_smaller, ">": not finite_is_smaller}[relation]
    exact = _rational(lhs), _rational(rhs)
    if None not in exact:  # (two rationals are compared as they are: x = x·(1 + 10⁻⁴⁰⁰) from a Holds step was "equal
        return _HOLDS[relation](*exact)  # to 2^(−512)" in balls, and checked; a review)
    lhs, rhs = _ball(lhs), _ball(rhs)
    if lhs.is_nan() or rhs.is_nan():
        raise _NotDefinedYet("a side evaluates to NaN")
    d = rhs - lhs
    if relation == "=":
        if d.is_exact() and d.is_zero():
            return True
        if not d.contains(0):
            return False
        # Equal to within 2^(-prec/2) relative (154 digits at 1024 bits): as good as numbers
        # get without a proof.  Half the bits, because a point near a singularity (α − 1 =
        # 1e-30) legitimately loses a few hundred of them.  Only accepted at the highest
        # precision, so 10⁻⁸⁰ differences are not waved through at 256 bits.
        if ctx.prec < DECISION_RUNGS[-1]:
            return None
        scale = max(abs(lhs).upper(), abs(rhs).upper(), arb(1))
        return True if d.rad() <= scale * arb(2) ** (-(ctx.prec // 2)) else None
    if relation in (">=", ">"):
        d = -d
    if relation in ("<=", ">=") and d >= 0:
        return True
    if relation in ("<", ">") and d > 0:
        return True
    if d < 0 or (relation in ("<", ">") and d <= 0 and d.is_exact()):
        return False
    return None


def _rational(x) -> fmpq | None:
    """``x`` as an exact fraction if it is an integer or a rational (Python's, python-flint's or SymPy's), else None."""
    if isinstance(x, fmpq):
        return x
    if isinstance(x, int) and not isinstance(x, bool):
        return fmpq(x)
    if isinstance(x, sp.Rational):
        return fmpq(int(x.p), int(x.q))
    if isinstance(x, Fraction):
        return fmpq(x.numerator, x.denominator)
    return None


def _ball(x) -> arb:
    return x if isinstance(x, arb) else arb(x) if isinstance(x, (int, fmpq)) else to_arb(x)


def _exactly_equal(lhs: sp.Expr, rhs: sp.Expr, point: dict) -> bool:
    """Whether the sides are the same number at ``point`` by SymPy's own evaluation (no simplification), within
    :data:`_EXACT_SECONDS` (exact powers at a point of a thousand digits need not end soon)."""
    values = {s: v for s, v in point.items() if isinstance(s, sp.Symbol)}
    found: list[bool] = []
    with time_budget(_EXACT_SECONDS, "the sides compared exactly at a point", absorb=True):
        try:
            found.append((lhs - rhs).xreplace(values) == 0)
        except Exception:  # noqa: BLE001 - a side SymPy cannot evaluate there: not shown equal
            found.append(False)
    return bool(found and found[0])


#: CPU seconds SymPy may take to show a claim's sides exactly equal at a point the balls left undecided.
_EXACT_SECONDS = 2.0


def _exactly_decided(decided: bool | None, sides: tuple | None, point: dict, equal: Callable[[dict], bool] | None):
    """``decided``; or, where the balls left it undecided and ``equal`` shows the sides exactly equal at ``point``, a
    strict relation fails and any other holds."""
    if decided is None and sides is not None and equal is not None and equal(point):
        return sides[1] not in ("<", ">")
    return decided


def _check_numeric(domain: Domain, compare, rungs: tuple[int, ...] = DECISION_RUNGS,
                   far: bool = False, confirm_failures: bool = False,
                   equal: Callable[[dict], bool] | None = None, extra: list[dict] | tuple = (),
                   beside: list[dict] | tuple = ()) -> tuple[Status, tuple]:
    """Decide ``compare(point)`` at every sample point in balls, at the precisions ``rungs`` in turn: refuted at
    the first certified failure, checked when every point is decided, unknown when some point stays undecided at
    the highest precision.  ``far``: the domain's far points too (:meth:`Domain.far_points`), where only a
    certified failure counts (a refutation, with its counterexample); an undecided or undefined far point is
    not a sample point.  ``confirm_failures``: a failure is a refutation only at the last of ``rungs``.
    ``extra``: points of the domain decided as sample points after them, ``beside``: points decided as far points
    (the sides' singular points, and the points beside them: :func:`~rdpsym.claims.critical.singular_points`)."""
    points = domain.points()
    if not points:
        return Status.UNKNOWN, (NoPoints(),)
    for point in [*(domain.far_points() if far else ()), *beside]:
        try:
            decided, _, sides = _decided_at(compare, point, rungs, confirm_failures)
        except (ArithmeticError, ValueError, TypeError, RdpSymError):  # (a far point no side can be evaluated at)
            continue
        if decided is False:
            return Status.REFUTED, (_counterexample(point, sides, len(points)),)
    undecided, undefined, first_undecided, narrow, relations = 0, 0, None, [], set()
    points = [*points, *extra]
    for point in points:
        decided, defined, sides = _decided_at(compare, point, rungs, confirm_failures)
        undefined += not defined
        decided = _exactly_decided(decided, sides, point, equal)
        if decided is False:
            return Status.REFUTED, (_counterexample(point, sides, len(points)),)
        if decided is None:
            undecided += 1
            first_undecided = first_undecided or point
        elif sides is not None and (m := search.margin(sides)) is not None:
            narrow.append((m, search.gap(sides), point))
            relations.add(sides[1])
    strict = any(r in ("<", ">") for r in relations)
    first = search.starts(narrow, strict) if narrow else []
    valleys = narrow if len(domain.variables) == 1 else []  # (one variable: the margin's valleys along it)
    if first or strict or valleys:  # where the relation held most narrowly, a local search for a failure set the
        # points missed (sides found equal mean a failure only to a strict relation: the search's many
        # low-precision points are compared exactly only then)
        found = _searched(domain, compare, first, rungs, confirm_failures, strict, equal if strict else None, valleys)
        if found is not None:
            return Status.REFUTED, (_counterexample(found[0], found[1], len(points)),)
    sampled = Sampled(len(points), undecided, undefined, point_items(first_undecided or {}), DECISION_RUNGS[-1])
    return (Status.UNKNOWN if undecided else Status.CHECKED), (sampled,)


def _searched(domain: Domain, compare, narrow: list, rungs: tuple[int, ...], confirm_failures: bool,
              strict: bool = False, equal: Callable[[dict], bool] | None = None, valleys: list = ()) -> tuple | None:
    """(a point, its sides) where ``compare`` fails, found by :func:`~rdpsym.claims.search.nearest_failure` from the
    ``narrow`` points (the starts, narrowest first), for a ``strict`` relation at the sample points made simple
    fractions (:func:`~rdpsym.claims.search.simple_points`), and in the valleys of the margin of the sampled
    ``(margin, gap, point)`` of ``valleys`` along the one variable (:func:`~rdpsym.claims.search.valley_failure`), at
    the lowest of ``rungs`` and certified at all of them; None if none is found."""
    variables = {s: w for s, w in domain.variables.items() if isinstance(w, (sp.Interval, sp.Range))}
    if not variables:
        return None

    def decide(point: dict, at: tuple[int, ...] = (min(rungs),), confirm: bool = False) -> tuple:
        try:
            decided, defined, sides = _decided_at(compare, point, at, confirm)
            exact = _exactly_decided(decided, sides, point, equal)
            return exact, defined or (decided is None and exact is not None), sides
        except Exception:  # noqa: BLE001 - a point the sides cannot be read at is not a point: a search changes a
            return None, False, None  # status only by a certified failure (a predicate raising at x = 1: a review)

    allowed = domain.where or (lambda point: True)
    budget = min(search.BUDGET, max(search.STARTS * 2, int(domain.point_count * search.SHARE)))
    point = search.nearest_failure(variables, narrow, decide, lambda p: bool(_quietly(allowed, p)), budget)
    if point is None and strict:
        point = next((p for p in search.simple_points(domain.points(), variables, most=budget // 3)
                      if _quietly(allowed, p) and decide(p)[0] is False), None)
    if point is None and valleys:
        point = search.valley_failure(valleys, variables, decide, lambda p: bool(_quietly(allowed, p)))
    if point is None:
        return None
    decided, _, sides = decide(point, rungs, confirm_failures)
    return (point, sides) if decided is False else None


def _quietly(condition, point: dict):
    try:
        return condition(point)
    except Exception:  # noqa: BLE001 - the domain's own condition, a user's code: a point it cannot read is not taken
        return False


def _decided_at(compare, point: dict, rungs: tuple[int, ...], confirm_failures: bool = False) -> tuple:
    """(whether ``compare`` holds at ``point``, decided in balls at the first of ``rungs`` that decides it, or None;
    whether the sides were defined at the last rung tried (not an OutsideDomain); the sides and relation that
    decided it).  With ``confirm_failures``, a failure decides only at the last rung."""
    decided, defined, sides = None, True, None
    for bits in rungs:
        with precision(bits):
            try:
                returned = compare(point)
                if not (isinstance(returned, (tuple, list)) and len(returned) == 3):  # ("cannot unpack": a probe)
                    raise ClaimError(must("a Holds step's compare(point)", "a tuple (lhs, relation, rhs)",
                                          shorten(repr(returned))))
                lhs, rel, rhs = returned
                rel = Relation.parse(rel).value  # ("!=" from a Holds step: named, not a KeyError or "unknown")
                decided, defined, sides = _decide(lhs, rel, rhs), True, (lhs, rel, rhs)
            except _NotDefinedYet:
                decided, defined = None, False
            except OutsideDomain:
                # Certified outside a function's domain (a log of a ball < 0): so at every precision, and no rung
                # above can define the point.
                decided, defined = None, False
                break
            except Undecided:
                decided, defined = None, True
        if decided is not None and not (decided is False and confirm_failures and bits != rungs[-1]):
            break
    return decided, defined, sides


def _counterexample(point: dict, sides: tuple, sampled: int) -> Counterexample:
    """The counterexample of a certified failure at ``point``: the sides that decided it."""
    lhs, rel, rhs = sides
    return Counterexample(point_items(point), _value(lhs), _value(rhs), Relation.parse(rel), sampled)


def _value(x) -> object:
    """A side's value at a counterexample as a number: a ball's midpoint to 60 digits, ±∞ as is."""
    if isinstance(x, arb):
        return sp.Float(x.mid().str(60, radius=False), 60) if x.is_finite() else sp.nan
    return exact(x, "a side of the comparison")  # a number, text or SymPy value a claim's compare returned


#: The precisions a point between two exact zeros is decided at (:func:`~rdpsym.claims.critical.tight_failure`): the
#: relation is tightest there, and 1 024 bits left the sign of a product of 10⁻⁸⁰¹ open.
DEEPER_RUNGS = (*DECISION_RUNGS, 4096)


def _failure_at(lhs: sp.Expr, relation: str, rhs: sp.Expr, rungs: tuple[int, ...], equal: Callable[[dict], bool],
                point: dict, deeper: bool = False) -> tuple | str | None:
    """The sides at ``point`` where the relation fails there (decided as a sample point is, with ``deeper`` at
    :data:`DEEPER_RUNGS` too), :data:`~rdpsym.claims.critical.UNDECIDED` where it stays undecided, else None;
    :data:`~rdpsym.claims.critical.BEYOND_REACH` at a point the balls refuse to read, beyond the numbers rdpsym
    evaluates (10^±1000): log α ≤ 3000 on (1, ∞) fails only past its zero e³⁰⁰⁰, and was reported checked (a probe)."""
    try:
        decided, defined, sides = _decided_at(lambda p: (_at(lhs, p), relation, _at(rhs, p)), point,
                                              tuple(sorted({*rungs, *DEEPER_RUNGS})) if deeper else rungs)
    except Exception:  # noqa: BLE001 - a side not defined at this value (a log at its zero): not a failure
        beyond = any(isinstance(v, sp.Expr) and magnitude_problem(v) is not None for v in point.values())
        return BEYOND_REACH if beyond else None
    exact = _exactly_decided(decided, sides, point, equal)
    if exact is None and defined and sides is None:
        exact, sides = _exactly_related(lhs, relation, rhs, point)
    if exact is None and defined and not deeper:
        # (asked at more bits, as a halfway point is: 2 − cos(x − √2) ≥ 1 + 10⁻³²⁰ at √2 needs 4 096; a probe)
        return _failure_at(lhs, relation, rhs, rungs, equal, point, deeper=True)
    return sides if exact is False else UNDECIDED if exact is None and defined else None


def _exactly_related(lhs: sp.Expr, relation: str, rhs: sp.Expr, point: dict) -> tuple[bool | None, tuple | None]:
    """(whether ``lhs ⋈ rhs`` holds at ``point`` by SymPy's own evaluation of both sides there, the sides), or
    (None, None), within :data:`_EXACT_SECONDS`: for sides the balls cannot evaluate at a point that is not a binary
    number (a Piecewise switching at x = 1/3, whose condition x − 1/3 = 0 no ball decides: ``Piecewise((1, Eq(x,
    1/3)), (0, True)) ≤ 0`` was checked, the point found and dropped; a probe)."""
    values = {s: v for s, v in point.items() if isinstance(s, sp.Symbol)}
    found: list = []
    with time_budget(_EXACT_SECONDS, "the sides evaluated exactly at a point", absorb=True):
        try:
            sides = (lhs.xreplace(values), rhs.xreplace(values))
            difference = sides[0] - sides[1]
            if all(s.is_number and s.is_extended_real for s in sides) and not difference.has(sp.nan, sp.zoo):
                found.append((_holds_exactly(difference, relation), (sides[0], relation, sides[1])))
        except Exception:  # noqa: BLE001 - a side SymPy cannot evaluate there: left undecided
            pass
    return found[0] if found and found[0][0] is not None else (None, None)


def _holds_exactly(difference: sp.Expr, relation: str) -> bool | None:
    """Whether lhs ⋈ rhs holds, from the sign of lhs − rhs, a number (None where its sign is not known).

    A rational or infinite difference is signed exactly.  Otherwise the sign is a ball's that excludes 0, at the bits
    of :data:`_SIGN_RUNGS`, where balls evaluate the difference: SymPy's own sign of a number comes from its
    ``evalf``, which took the exact 0 of I_{1/2}(x) + I_{−1/2}(x) − √(2/(πx))·eˣ at x = 1000 + 10⁻³⁰ for a negative
    number (−0.e−546; the true identity was refuted, a review), and, asked the sign of erf x + erfc x − 1 at
    x = 10⁶, raised its precision until GMP aborted the process (a review).  A difference that holds the exact
    size of a tiny term after SymPy's own arithmetic (e^(−10⁴α) once α/(2σ²) cancels) is a ball away from 0.  Only
    a difference no ball evaluates is signed by SymPy, by its strict ``evalf`` at most :data:`_SIGN_DIGITS` digits,
    which raises rather than guess."""
    if difference == 0:
        return relation in ("=", "<=", ">=")
    sign = _sign(difference)
    if sign is None:
        return None  # (a difference whose sign is not known may still be 0: log 4 − 2·log 2)
    return relation in (">", ">=") if sign > 0 else relation in ("<", "<=")


def _sign(difference: sp.Expr) -> int | None:
    """+1 or −1, the sign of a nonzero number ``difference`` (see :func:`_holds_exactly`), or None."""
    if difference.is_Rational or difference in (sp.oo, -sp.oo):
        return 1 if difference > 0 else -1
    for bits in _SIGN_RUNGS:
        try:
            with precision(bits):
                ball = to_arb(difference)
        except (NotCertifiable, Undecided, OutsideDomain, InfiniteValue):
            break  # no ball for it: SymPy's strict evaluation below
        if ball > 0 or ball < 0:
            return 1 if ball > 0 else -1
    else:
        return None  # balls evaluate it, and none at the last rung excludes 0
    try:
        value = difference.evalf(_SIGN_DIGITS, strict=True, maxn=_SIGN_DIGITS)
    except (ArithmeticError, *SYMPY_FAILURES):  # (PrecisionExhausted is an ArithmeticError)
        return None
    if not value.is_Float or value == 0:
        return None
    return 1 if value > 0 else -1


#: Bits the sign of a difference is read at in balls (:func:`_sign`): 2^16 holds e^(−10⁴) beside numbers of size 1.
_SIGN_RUNGS = (1024, 4096, 16384, 65536)
#: Digits SymPy's strict evaluation signs a difference no ball evaluates at, as its working precision's ceiling too.
_SIGN_DIGITS = 2000
