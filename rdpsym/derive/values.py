"""The value of a closed form at a point: its branch decided, its digits resolved, never a NaN.

Both the check against the definition (:mod:`rdpsym.derive.verify`) and a user's
:meth:`~rdpsym.derive.derivation.Derivation.evalf` read a result here:

* :func:`branch_at` — which branch of a Piecewise result holds at a point (decided
  exactly where the values decide it, else numerically at two precisions);
* :func:`closed_value` — the branch's value to the digits asked for: in Arb balls whose
  precision is doubled until they are that narrow (log(1 + 10⁻⁶⁰⁰) is 10⁻⁶⁰⁰, never 0),
  else by SymPy at two precisions that must agree; at a removable singularity in the
  order (Mironov's Laplace form at α = 1/2 is 0/0) the limit there, which is the
  divergence's value since D_α is continuous in α; ``+inf`` for ∞.  A value that is not
  a real number is a :class:`~rdpsym.foundations.errors.VerificationError`.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable

import mpmath
import sympy as sp

import rdpsym.foundations.exact_size  # noqa: F401 - decide relies on its size guards (installed on import)
from rdpsym.foundations.balls import decide_in_balls, precision, to_arb
from rdpsym.foundations.budget import budgeted
from rdpsym.foundations.erfc_forms import stable_erf
from rdpsym.foundations.errors import (
    InfiniteValue,
    NoClosedFormError,
    NotCertifiable,
    NotVerified,
    OutsideDomain,
    RdpSymError,
    Undecided,
    VerificationError,
)
from rdpsym.foundations.numbers import exact_mpf, shorten
from rdpsym.foundations.precision import BITS_PER_DIGIT, arb_rungs, private_context, sympy_evalf_guard, sympy_float


def shown(point: dict) -> str:
    """``α = 3/2, σ = 6/5``: the symbols as the reader writes them (Unicode Greek), sorted by name."""
    ordered = sorted(point.items(), key=lambda kv: kv[0].name)
    return ", ".join(f"{sp.pretty(s, use_unicode=True)} = {v}" for s, v in ordered)


def branch_at(result: sp.Basic, point: dict) -> int | None:
    """The index of the branch of a Piecewise ``result`` that holds at ``point`` (0 for any other result);
    None when a condition cannot be decided there (a point on a boundary).  A point where no branch holds
    is a result undefined there: :class:`VerificationError`.

    >>> a = sp.Symbol("a", positive=True)
    >>> branch_at(sp.Piecewise((a, a > 2), (sp.oo, True)), {a: 1})
    1
    """
    if not isinstance(result, sp.Piecewise):
        return 0
    for index, (_, condition) in enumerate(result.args):
        truth = decide(condition, point)
        if truth is None:
            return None
        if truth:
            return index
    raise VerificationError(f"the result {shorten(result)} is undefined at {shown(point)}: no branch holds")


def decide(condition: sp.Basic, point: dict) -> bool | None:
    """Whether ``condition`` holds at ``point``: exactly where the values decide it, else numerically at 30 and
    60 digits when both agree on a clear sign; None when undecided (a point on a boundary).

    >>> a = sp.Symbol("a", positive=True)
    >>> decide(sp.And(a > 1, a < sp.pi), {a: 2}), decide(a > 1, {a: 1}), decide(sp.log(a) > 1, {a: 3})
    (True, False, True)
    >>> decide(sp.Or(a > 2, sp.sqrt(1 - a) < 1), {a: 3})  # the part not real at a = 3 is not needed
    True
    """
    if condition in (sp.true, sp.false):
        return bool(condition)
    # The values as SymPy numbers first, strictly: a string is refused here (subs, below, would parse one).
    values = {s: sp.sympify(v, strict=True) for s, v in point.items()}
    try:
        # Every value at once: subs puts them in one at a time and asks SymPy's assumptions about each relation
        # half substituted (is α·σ₁² − α·σ₂² − σ₁² > 0 with only α known?), a twentieth of the textbook table's CPU.
        # Under rdpsym's size guards: an exact power SymPy would build through 10⁸ digits is refused, and the
        # condition decided in balls ((1 − p₂)^α > (1 − p₁)^α(1 − p₂) at α = 1 − 10⁻⁸, p₁ = 10⁻⁶: a probe).
        with sympy_evalf_guard():
            truth = condition.xreplace(values)
    except NoClosedFormError:
        return _decided_by_parts(condition, values)
    except (TypeError, ValueError):
        # A relation between non-real numbers (log(1 − t) at t > 1) somewhere in it: subs evaluates an Or, And, Not
        # or Piecewise part by part and lets a part that settles it decide (t > 2 in t > 2 ∨ √(1 − t) < 1 at t = 3).
        try:
            with sympy_evalf_guard():
                truth = condition.subs(values)
        except NoClosedFormError:
            return _decided_by_parts(condition, values)
        except TypeError:  # the relation decides: not a valid point
            return False
    if truth in (sp.true, sp.false):
        return bool(truth)
    if isinstance(truth, (sp.And, sp.Or, sp.Not)):
        return _connective(truth, lambda part: decide(part, {}))
    if not isinstance(truth, sp.core.relational.Relational):
        return None
    signs = []
    for digits in (30, 60):
        gap = sympy_float(truth.lhs - truth.rhs, digits)
        if not gap.is_number or gap.is_extended_real is not True:
            return False  # complex there (log(1 − t) at t > 1): not a point where the laws are valid
        if abs(gap) <= sp.Float(10, digits) ** (10 - digits):
            return None  # zero to the digits: a boundary (decided exactly above when it could be)
        signs.append(bool(gap > 0))
    if signs[0] != signs[1]:
        return None
    positive = signs[0]
    if isinstance(truth, (sp.StrictGreaterThan, sp.GreaterThan)):
        return positive
    if isinstance(truth, (sp.StrictLessThan, sp.LessThan)):
        return not positive
    return isinstance(truth, sp.Ne)  # a gap clearly away from 0: Ne holds, Eq does not


def _decided_by_parts(condition: sp.Basic, values: dict) -> bool | None:
    """``condition`` at ``values`` where substituting the whole was refused (an exact power too large to build): its
    And, Or and Not parts one by one, each relation exactly where the guards let it be, else in Arb balls at 128 and
    512 bits (:func:`rdpsym.foundations.balls.decide_in_balls`); None where neither decides."""
    if isinstance(condition, (sp.And, sp.Or, sp.Not)):
        return _connective(condition, lambda part: _decided_by_parts(part, values))
    try:
        with sympy_evalf_guard():
            exact_truth = condition.xreplace(values)
        if exact_truth in (sp.true, sp.false):
            return bool(exact_truth)
    except (NoClosedFormError, TypeError, ValueError):
        pass
    for bits in (128, 512):
        try:
            with precision(bits):
                return decide_in_balls(condition, values)
        except Undecided:
            continue
        except (ArithmeticError, TypeError, ValueError):  # (NotCertifiable is a TypeError)
            return None
    return None


def _connective(condition: sp.Basic, decide_part: Callable[[sp.Basic], bool | None]) -> bool | None:
    """An And, Or or Not of parts decided three ways (None: undecided): False and True settle an And and an Or
    whatever the undecided parts are."""
    if isinstance(condition, sp.Not):
        inner = decide_part(condition.args[0])
        return None if inner is None else not inner
    parts = [decide_part(c) for c in condition.args]
    if isinstance(condition, sp.And):
        return False if False in parts else (None if None in parts else True)
    return True if True in parts else (None if None in parts else False)


#: Arb precisions tried for a value: from the digits asked for, doubled up to 256 times (a few thousand bits
#: evaluate a small expression in milliseconds, and resolve log(2e^{1/λ}/3 + e^{−2/λ}/3) ≈ 10⁻⁶⁰⁰ at λ = 10³⁰⁰,
#: where 55 digits give 0).
VALUE_RUNGS = 9


def closed_value(expr: sp.Expr, point: dict, dps: int, where: Callable[[], str] | None = None,
                 order_symbol: sp.Symbol | None = None) -> mpmath.mpf:
    """The closed form ``expr`` at ``point`` to ``dps`` significant digits (``+inf`` for ∞).

    In Arb balls, the precision doubled until the ball is that narrow; where balls cannot
    evaluate the expression (a function without an Arb counterpart), by SymPy at two
    precisions that must agree.  At a removable singularity in ``order_symbol`` (0/0 at one
    order) the limit at that order.  A value that is not a real number (``zoo``, complex, an
    undefined 0/0 that has no limit) is a :class:`VerificationError`.

    >>> lam, a = sp.Symbol("lambda", positive=True), sp.Symbol("alpha", positive=True)
    >>> D2 = sp.log(2 * sp.exp(1 / lam) / 3 + sp.exp(-2 / lam) / 3)   # Laplace, D_2, scale λ
    >>> mpmath.nstr(closed_value(D2, {lam: sp.Integer(10) ** 300}, 20), 10)
    '1.0e-600'
    >>> laplace = sp.log(a*sp.exp((a - 1)/lam)/(2*a - 1) + (a - 1)*sp.exp(-a/lam)/(2*a - 1))/(a - 1)  # Prop 6
    >>> # at α = 1/2: −2·log ∫ √(PQ) = −2·log(3e^{−1/2}/2), by hand
    >>> mpmath.nstr(closed_value(laplace, {lam: 1, a: sp.Rational(1, 2)}, 20, order_symbol=a), 15)  # 0/0 there
    '0.189069783783671'
    """
    if expr == sp.oo:
        return mpmath.inf
    expr = stable_erf(expr)
    at = where() if where else shown(point)
    if point and expr.has(sp.Limit):
        expr, point = _limits_taken(expr, point, at), {}
    if a_denominator_vanishes(expr, point):
        expr = _branches_taken(expr, point)  # (0/0 in a branch the point is not in is no 0/0 of the value)
    if a_denominator_vanishes(expr, point):
        # 0/0 written into the form (log((64^α − 8)/(7·8^α·(2α − 1)))/(α − 1), two log-logistic laws, at α = 1/2):
        # evaluated numerically its two residues gave −18.98 at both precisions, a negative divergence with the
        # status checked (a probe).  The limit there is the value, or there is none.
        limit = _removable(expr, point, order_symbol)
        if limit is None:
            raise VerificationError(f"the closed form is 0/0 at {at} (a denominator vanishes there) and has no "
                                    "limit rdpsym could take; renyi_divergence_mp evaluates the definition there")
        return closed_value(limit, {}, dps, lambda: at)  # (the point, not the empty one left)
    ball = _closed_ball(expr, point, dps)
    if ball is not None:
        return ball
    try:
        return _by_sympy(expr, point, dps, at)
    except VerificationError:
        limit = _removable(expr, point, order_symbol)
        if limit is None:
            raise
        return closed_value(limit, {}, dps, lambda: at)  # (the point, not the empty one left)


def _branches_taken(expr: sp.Expr, point: dict) -> sp.Expr:
    """``expr`` with each Piecewise whose conditions ``point`` decides replaced by the branch the point is in.  The
    beta family's D_∞ holds (a₁ − a₂)/(a₁ − a₂ + b₁ − b₂) in a branch for a₁ > a₂ and b₁ > b₂: at equal laws it is
    0/0 where the value is that of another branch, 0, and the form was refused there (a probe).

    >>> a, b = sp.symbols("a b", positive=True)
    >>> _branches_taken(sp.Piecewise((sp.log(a - b) / (a**2 - b**2), a > b), (0, True)), {a: 1, b: 1})
    0
    """
    def taken(piecewise: sp.Piecewise) -> sp.Expr:
        for value, condition in piecewise.args:
            try:
                decided = condition.xreplace(point) if isinstance(condition, sp.Basic) else condition
            except (TypeError, ValueError):  # (a condition on a vanishing denominator: zoo compared; a review)
                return piecewise
            if decided is sp.true:
                return value
            if decided is not sp.false:
                return piecewise  # undecided at the point: kept whole
        return piecewise

    return expr.replace(lambda e: isinstance(e, sp.Piecewise), taken)


def _limits_taken(expr: sp.Expr, point: dict, at: str) -> sp.Expr:
    """``expr`` at ``point`` with its limits taken there: a D_∞ of normals with symbolic covariances keeps the
    boundary case (Σ₂ − Σ₁ singular) as Limit(…, ε, 0), which no evaluation reads, and the whole derivation failed
    at a check point in that case (a probe).  A limit SymPy cannot take there leaves the form not verified."""
    def take(limit: sp.Limit) -> sp.Expr:
        try:
            value = budgeted(limit.doit, "a limit in the closed form at a check point")
        except (NoClosedFormError, NotImplementedError, ValueError, TypeError):
            value = limit
        if value.has(sp.Limit) or not value.is_number:
            raise NotVerified(f"the closed form cannot be evaluated at {at}: a limit in it stays unevaluated "
                              f"({shorten(limit)})")
        return value

    return expr.subs(point).replace(lambda e: isinstance(e, sp.Limit), take)


def _by_sympy(expr: sp.Expr, point: dict, dps: int, at: str) -> mpmath.mpf:
    """SymPy's evalf at two precisions 30 digits apart (the point substituted inside evalf: at α = 10³⁰⁰
    substituting first builds p^α exactly), agreeing to ``dps`` digits."""
    values = []
    for digits in (dps, dps + 30):
        try:
            value = sympy_float(expr, digits, subs=point) if point else sympy_float(expr, digits)
            if not value.is_Float and value.is_number and point:
                value = sympy_float(expr.subs(point), digits)
        except TypeError as exc:
            # SymPy's own evalf failing inside (a log of a RootSum read an Abs as an mpf tuple: "cannot unpack
            # non-iterable Abs object", a Poisson-sampled Laplace pair with a symbolic q, on some hash seeds; a
            # review): the form cannot be evaluated there, which is no disagreement
            raise NotVerified(f"the closed form cannot be evaluated at {at}: SymPy's evalf failed ({exc})") from exc
        except mpmath.libmp.NoConvergence as exc:
            # mpmath's series of a special function that does not converge within its terms (the Legendre function
            # of two Cauchy laws at degree 5·10⁴ or 10⁶: a probe); raised out of the check and out of evalf before
            raise NotVerified(f"the closed form cannot be evaluated at {at}: mpmath's series for it did not converge "
                              f"({exc})") from exc
        except ValueError as exc:
            if isinstance(exc, RdpSymError):
                raise
            # mpmath refusing a special function at a singular point of one term: Φ(2/3, 1, 0), the Lerch
            # transcendent's 1/0 at a = 0, in the KL SymPy wrote for two Lomax laws (a review: "Lerch transcendent
            # complex infinity" raised out of renyi_divergence).  Not evaluable here, as a pole below.
            raise NotVerified(f"the closed form cannot be evaluated at {at}: mpmath refused a term ({exc})") from exc
        except ZeroDivisionError as exc:
            # a pole of one term where the whole has a finite limit: h^s/s·₁F₁(s; s + 1; Bh), an incomplete gamma
            # integral's antiderivative, at s = −1 (a truncated Pareto against a Laplace law at α = 1/2: fuzz
            # seed 21, case 38); mpmath raised it out of the check.  Not evaluable here: the caller's removable
            # limit decides, or the form is not verified.
            raise NotVerified(f"the closed form cannot be evaluated at {at} (a pole of one of its terms: {exc})") \
                from exc
        if value == sp.oo:
            return mpmath.inf
        if value.is_number and not value.is_Float and value.has(sp.exp_polar):
            # SymPy's evalf keeps exp_polar nodes it cannot project (logs of sums of polar terms: a Pareto pair at
            # α = 1/2, fuzz seed 18, case 33), and splitting such a value into real and imaginary parts spent
            # minutes of CPU without deciding them: not evaluable here, said at once.  (Printed in SymPy's order
            # of the arguments: str() sorts a sum's terms by their numeric values, and on these it spent 8–16 s.)
            raise NotVerified(f"the closed form could not be evaluated at {at}: exp_polar terms stay symbolic "
                              f"({shorten(sp.sstr(value, order='none'))})")
        if value.is_number and value.is_finite and value.is_extended_real is not True:
            # A spurious imaginary part at the rounding level (SymPy's meijerg route leaves 1e-66·i).
            re, im = (sympy_float(part, digits) for part in value.as_real_imag())
            if not (re.is_Float and im.is_Float):
                # SymPy's parts of a sum of logs of exp_polar terms (a Pareto pair at α = 1/2) stay symbolic,
                # and comparing them raised a TypeError out of the check (fuzz seed 18, case 33).
                raise NotVerified(f"the closed form could not be evaluated at {at}: its real and imaginary "
                                  f"parts stay symbolic ({shorten(sp.sstr(value, order='none'))})")
            if abs(im) <= sp.Float(10, digits) ** (5 - digits) * max(1, abs(re)):
                value = re
        if not value.is_number:  # a function, limit or sum no evaluation reads: not evaluable, not wrong
            raise NotVerified(f"the closed form could not be evaluated at {at}: "
                              f"{shorten(sp.sstr(value, order='none'))}")
        if value.is_extended_real is False or value.is_finite is False:
            raise VerificationError(f"the closed form is not a real number at {at}: {shorten(expr)} = "
                                    f"{shorten(sp.sstr(value, order='none'))}")
        if not (value.is_extended_real and value.is_finite):  # SymPy cannot tell (an integral left in the form: the
            # KL of an arcsine law against a triangular one was an error, not the definition's value: a probe)
            raise NotVerified(f"the closed form could not be evaluated at {at}: SymPy cannot tell whether "
                              f"{shorten(sp.sstr(value, order='none'))} is a real number")
        try:
            number = sp.Float(value, digits)
        except (TypeError, ValueError) as exc:
            # a number SymPy's evalf handed back unevaluated, with every assumption it asks for (log Σ_ℤ e^{−j²/2σ²} of
            # the discrete Gaussian at σ = 10⁶, a series past its terms summed one by one): not evaluable here, where it
            # raised a TypeError out of rdpsym (a probe)
            raise NotVerified(f"the closed form could not be evaluated at {at}: SymPy's evalf left "
                              f"{shorten(sp.sstr(value, order='none'))}") from exc
        values.append(exact_mpf(number))
    first, second = values
    with private_context(dps + 10) as ctx:
        if first == second or abs(ctx.convert(first) - second) <= ctx.mpf(10) ** (5 - dps) * abs(second):
            return second
    raise NotVerified(f"the closed form could not be evaluated to {dps} digits at {at}: "
                      f"{mpmath.nstr(first, 20)} at {dps} digits, {mpmath.nstr(second, 20)} at {dps + 30}")


def _removable(expr: sp.Expr, point: dict, order_symbol: sp.Symbol | None) -> sp.Expr | None:
    """The limit of ``expr`` at the point's order when it is finite and real there (a removable 0/0), else None; where
    the order gives none, the limit in one of the laws' parameters, the others at the point's values, the same from
    both sides (two Lomax laws' KL divides by (l₁ − l₂)²: at l₁ = l₂ the laws are one, the limit 0, and the value was
    refused as having none, a probe)."""
    moving = [s for s in sorted(set(point) & expr.free_symbols, key=str) if s != order_symbol]
    if order_symbol is not None and order_symbol in point and order_symbol in expr.free_symbols:
        moving.insert(0, order_symbol)
    def direction(symbol: sp.Symbol) -> str:
        return "+" if symbol == order_symbol else "+-"

    @functools.cache
    def singular_off(*symbols: sp.Symbol) -> bool:
        return _singular_near(expr, point, {s: direction(s) for s in symbols})

    # A limit in a symbol is taken only where moving that symbol off the point leaves the form defined: a pole in
    # the order alone (h^s/s·₁F₁(s; s + 1; Bh) at s = 1 − 4α = −7) is a pole at every value of the laws' parameters,
    # and SymPy's limits in them spent 35 s before returning nothing (fuzz seed 21, case 38).
    for symbol in moving:
        if singular_off(symbol):
            continue
        limit = _limit_in(expr, point, symbol, direction(symbol))
        if limit is not None:
            return limit
    # 0/0 in two of them at once (two Lomax laws of one scale at α = 1/3 divide by (l₁ − l₂)²·(9α² − 9α + 2)):
    # the limit in one, the other kept, then in the other (a probe).  Not where the form is defined with the first
    # at its value and the second moved (the pair is then the second's own limit, tried above), nor where it is
    # singular with both moved.
    for first, second in itertools.permutations(moving[:3], 2):
        if not singular_off(second) or singular_off(first, second):
            continue
        inner = _limit_in(expr, point, first, direction(first), keep=second)
        if inner is not None and inner.free_symbols == {second}:
            limit = _limit_in(inner, {second: point[second]}, second, direction(second))
            if limit is not None:
                return limit
    return None


#: Where :func:`_singular_near` moves a symbol off its value ``v``: to ``v + δ·max(1, |v|)`` for each δ of its
#: direction (small and far from simple fractions, so that a lattice of poles in the order is missed).
_OFFSETS = {"+": (sp.Rational(1, 997), sp.Rational(1, 2003)), "+-": (sp.Rational(1, 997), sp.Rational(-1, 1009))}


def _singular_near(expr: sp.Expr, point: dict, moved: dict[sp.Symbol, str]) -> bool:
    """Whether ``expr`` is singular (a pole: a division by zero, or an infinite or undefined value) at each of the
    points near ``point`` where the ``moved`` symbols are off their values (:data:`_OFFSETS`, in their directions),
    by SymPy's evalf at 15 and 45 digits (they disagree at a pole).  A form that cannot be evaluated there for another
    reason is not called singular: this only spares limits that cannot exist (in a symbol the form is undefined
    around).

    >>> a, b = sp.symbols("a b", positive=True)
    >>> f = 1 / (a - 2) + b
    >>> _singular_near(f, {a: 2, b: 1}, {b: "+-"}), _singular_near(f, {a: 2, b: 1}, {a: "+"})
    (True, False)
    """
    for offsets in zip(*(_OFFSETS[direction] for direction in moved.values())):
        near = dict(point)
        for symbol, offset in zip(moved, offsets):
            near[symbol] = point[symbol] + offset * sp.Max(1, abs(point[symbol]))
        try:
            low, high = (sympy_float(expr, digits, subs=near) for digits in (15, 45))
        except ZeroDivisionError:
            continue
        except (ArithmeticError, TypeError, ValueError, AttributeError, mpmath.libmp.NoConvergence):
            return False  # (no evidence of a pole: the limit is tried; a spent budget is raised on, not read here)
        if not (low.is_Float and high.is_Float):  # (a pole: zoo or nan; or a value evalf leaves symbolic)
            if low.has(sp.zoo, sp.nan, sp.oo, -sp.oo) or high.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
                continue
            return False
        # (evalf substitutes the point in floats: at a pole, a − 2 is a rounding error, 10⁻⁶⁸ at 15 digits and 10⁻⁹⁸
        # at 45, and the value follows it)
        if abs(low - high) <= sp.Float("1e-6") * abs(high):
            return False
    return True


def _limit_in(expr: sp.Expr, point: dict, symbol: sp.Symbol, direction: str,
              keep: sp.Symbol | None = None) -> sp.Expr | None:
    """The limit of ``expr`` as ``symbol`` tends to its value at ``point`` (the others at theirs, but ``keep``), where
    it is a finite real number (with ``keep``: an expression in it alone); else None."""
    rest = {s: v for s, v in point.items() if s not in (symbol, keep)}
    inner = expr.subs(rest) if rest else expr
    if inner.free_symbols != {symbol} | ({keep} if keep is not None else set()):
        return None
    try:
        limit = budgeted(lambda: sp.limit(inner, symbol, point[symbol], direction), "the limit at a removable point")
    except (NoClosedFormError, NotImplementedError, ValueError, TypeError, AttributeError, mpmath.libmp.NoConvergence):
        # (SymPy's limit evaluates the form too: mpmath's series of P_ν at ν = 5·10⁴ did not converge; and its limit
        # of a ₂F₁ raised AttributeError: 'TupleArg' object has no attribute '_eval_is_meromorphic'; from two sides
        # that differ, ValueError)
        return None
    # Not SymPy's assumptions on the value: they depend on the process's hash order, and said "not real" of
    # −2·log(2000001·e^{−1/2000000}/2000000), the Laplace mechanism's D_{1/2} at σ = 10⁶, in some processes (a probe).
    # The value's own evaluation (closed_value) refuses one that is not a real number.
    if limit.has(sp.Limit, sp.nan, sp.zoo, sp.oo, -sp.oo) or not (
            limit.is_number or (keep is not None and limit.free_symbols == {keep})):
        return None
    return limit


def a_denominator_vanishes(expr: sp.Expr, point: dict) -> bool:
    """Whether a denominator of ``expr`` (a negative power of 2α − 1, a₁ − a₂, a₁^b − a₂^b) is exactly 0 at ``point``,
    decided in exact rationals: a polynomial of low degree at any rationals, another small expression at small
    ones (powers of them are small numbers: a₁^b at a₁ = 2, b = 3; never p^α at α = 10³⁰⁰)."""
    for node in expr.atoms(sp.Pow):
        base, exponent = node.args
        symbols = base.free_symbols
        if not (exponent.is_negative and symbols and symbols <= set(point)):
            continue
        values = {s: point[s] for s in symbols}
        if not all(isinstance(v, sp.Rational) for v in values.values()):
            continue
        if (_small(base, values) or _low_degree(base, symbols)) and base.xreplace(values) == 0:
            return True
    return False


def _small(base: sp.Expr, values: dict) -> bool:
    """A short expression at rationals of at most four digits each: exact to evaluate at any exponent."""
    return all(abs(v.p) <= 10**4 and v.q <= 10**4 for v in values.values()) and sp.count_ops(base) <= 40


def _low_degree(base: sp.Expr, symbols: set) -> bool:
    """A polynomial of total degree at most 4: exact to evaluate at any rationals.  (Building the Poly is the
    costly test, so it is asked only when :func:`_small` said no.)"""
    try:
        return bool(base.is_polynomial(*symbols)) and sp.Poly(base, *symbols).total_degree() <= 4
    except sp.PolynomialError:
        return False


def _closed_ball(expr: sp.Expr, point: dict, dps: int) -> mpmath.mpf | None:
    """The closed form at ``point`` from Arb balls narrowed to ``dps`` digits, or None where balls cannot
    evaluate it or do not narrow (then SymPy's evalf decides)."""
    if expr.free_symbols - set(point):
        return None
    ball = None
    for bits in arb_rungs(dps, VALUE_RUNGS):
        try:
            with precision(bits):
                ball = to_arb(expr, point)
        except InfiniteValue:
            return mpmath.inf
        except (NotCertifiable, OutsideDomain):
            return None
        except Undecided:
            continue
        if ball.is_finite() and ball.rel_accuracy_bits() >= dps * BITS_PER_DIGIT + 3:
            return exact_mpf(ball)  # its midpoint, exactly: within 10^−dps of the value, relatively
        if ball.is_zero():
            return mpmath.mpf(0)
    if ball is not None and ball.is_finite() and 0 in ball and _exactly_zero(expr, point):
        return mpmath.mpf(0)  # balls never narrow around an exact 0 (log(m₁/m₂) at m₁ = m₂): decided exactly
    return None


def _exactly_zero(expr: sp.Expr, point: dict) -> bool:
    """Whether ``expr`` at ``point`` is exactly 0, shown by SymPy within a short time budget."""
    try:
        return budgeted(lambda: (lambda v: bool(v.is_zero) or sp.simplify(v) == 0)(expr.subs(point)),
                        "deciding whether the value is exactly 0", seconds=2.0)
    except NoClosedFormError:
        return False


__all__ = ["VALUE_RUNGS", "a_denominator_vanishes", "branch_at", "closed_value", "decide", "shown"]
