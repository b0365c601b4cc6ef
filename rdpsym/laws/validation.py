"""Validation of a density at construction: nonnegative, and normalised.

:mod:`rdpsym.laws.densities` calls this on every density it builds (unless ``check=False``), raising
:class:`~rdpsym.foundations.errors.DensityError` only when a property is *definitely* false: symbolic parameters
that cannot be decided pass, and are checked again numerically wherever the density is evaluated at values. The mass
is found in closed form by the engine's rules when it can be, else (no parameters left) by quadrature.

What a check established is a :class:`Validity`: a law with parameters whose every branch SymPy's assumptions show
nonnegative and whose mass is exactly 1 in closed form is a law at *every* value its parameters' assumptions allow,
so a copy at such values needs no check of its own (the check of a derivation evaluates its laws at many sample
points; a point check solved for the density's critical points, about a third of a Beta pair's derivation).

It works on the expression, the variable and the pieces a density hands in, never on the density classes: densities
imports this module, not the reverse.
"""

from __future__ import annotations

import decimal
import enum
from collections.abc import Mapping, Sequence

import mpmath
import sympy as sp

from rdpsym.engine.context import SYMPY_FAILURES, Hypotheses
from rdpsym.engine.pieces import Piece, PiecePair, finite_outcomes, log_of, piece_point, probe_points
from rdpsym.engine.steps import _linear, integrate_exp_steps
from rdpsym.engine.sums import sum_exp
from rdpsym.foundations.balls import precision, to_arb
from rdpsym.foundations.budget import budgeted, can_budget, time_budget
from rdpsym.foundations.disk_cache import persistent
from rdpsym.foundations.errors import (
    ConvergenceError,
    DensityError,
    MassOffByRounding,
    NoClosedFormError,
    SymbolicTimeout,
    must,
)
from rdpsym.foundations.exact_size import exact_at
from rdpsym.foundations.numbers import exact_mpf
from rdpsym.foundations.precision import private_context, sympy_evalf_guard, sympy_float
from rdpsym.quadrature.compile import compile_expr, log_function, to_mpf
from rdpsym.quadrature.integrands import LogForm
from rdpsym.quadrature.integrate import integrate_pieces
from rdpsym.quadrature.log_expressions import log_expression
from rdpsym.quadrature.recentring import recentred_log

oo = sp.oo


def variable_covers(var: sp.Symbol, support: sp.Set, name: str = "var") -> None:
    """Refuse a variable whose declared sign the support contradicts: with x declared positive, a pdf x on [−1, 1]
    was "nonnegative" by x's assumption and accepted, and its D₂ against the uniform law came out checked, while
    it is negative on half its support (a probe).  SymPy reasons from the declaration, not from the support.

    >>> x = sp.Symbol("x", positive=True)
    >>> variable_covers(x, sp.Interval(0, 1))
    >>> variable_covers(x, sp.Interval(-1, 1))
    Traceback (most recent call last):
    ...
    rdpsym.foundations.errors.DensityError: var must be a symbol whose assumptions hold on the support \
Interval(-1, 1) (declare it without a sign: real=True, or integer=True); got x, declared positive.
    """
    # (an Interval's interior: a closed end at 0 is a null set; a Range: its integers; an end SymPy cannot place, a
    # symbol's, is not refused)
    region = support.interior if isinstance(support, sp.Interval) else support
    for kind, holds in (("positive", sp.Interval.open(0, sp.oo)), ("nonnegative", sp.Interval(0, sp.oo)),
                        ("negative", sp.Interval.open(-sp.oo, 0)), ("nonpositive", sp.Interval(-sp.oo, 0))):
        if var.assumptions0.get(kind) and region.is_subset(holds) is False:
            raise DensityError(must(name, f"a symbol whose assumptions hold on the support {support} (declare it "
                                          "without a sign: real=True, or integer=True)", f"{var}, declared {kind}"))


def within_nonzero_factors(pmf: sp.Expr, var: sp.Symbol, support: sp.Range) -> sp.Range:
    """``support`` cut to the outcomes where every factor of the pmf that vanishes on a half-line of integers can be
    nonzero: C(n, a) with n a whole number (0 at every integer a < 0 or a > n), the falling factorial (n)_a (0 at
    a > n), 1/a! (0 at a < 0) and 1/Γ(a) (0 at a ≤ 0), for a = ±k + c with c an integer.

    SymPy knows these zeros (binomial(4, 5) is 0, and so is 1/(4 − 5)!), but a support read as written, k ≥ 0 for
    binomial(4, k)/16, holds outcomes where Q is 0 and no route looked for them: Geometric(1/2) against it at α = ∞
    was the supremum over the outcomes 0…4, log 8, where P > 0 = Q from k = 5 on makes it ∞; at α = 2 the
    quadrature met Γ's pole there.  Only a factor of the whole pmf cuts it (a mixture's term vanishing leaves the
    others), and only a support with numbers for ends (a symbolic one is left as written).

    >>> k = sp.Symbol("k", integer=True)
    >>> within_nonzero_factors(sp.binomial(4, k) / 16, k, sp.Range(0, sp.oo))
    Range(0, 5, 1)
    >>> within_nonzero_factors(sp.Rational(3, 2) / (sp.factorial(k) * sp.factorial(4 - k)), k, sp.Range(0, sp.oo))
    Range(0, 5, 1)
    >>> within_nonzero_factors(sp.binomial(6, 7 - k) * sp.Rational(1, 64), k, sp.Range(-10, 10))
    Range(1, 8, 1)
    >>> within_nonzero_factors(sp.binomial(4, k) / 32 + sp.Rational(1, 2)**(k + 2), k, sp.Range(0, sp.oo))
    Range(0, oo, 1)
    """
    if support.free_symbols:
        return support
    lo, hi = support.inf, support.sup
    for factor in sp.Mul.make_args(pmf):
        nonzero = _nonzero_arguments(*factor.as_base_exp())
        line = None if nonzero is None else _linear(nonzero[0], var)
        if line is None or line[0] not in (1, -1) or not line[1].is_Integer:
            continue
        (slope, offset), (_, low, high) = line, nonzero
        # low ≤ slope·k + offset ≤ high
        if slope == 1:
            lo, hi = sp.Max(lo, low - offset), sp.Min(hi, high - offset)
        else:
            lo, hi = sp.Max(lo, offset - high), sp.Min(hi, offset - low)
    if (lo, hi) == (support.inf, support.sup):
        return support
    if lo > hi:
        raise DensityError(must("pmf", "positive somewhere on its support",
                                f"{pmf}, which has a factor 0 at every outcome of {support}"))
    return sp.Range(lo, hi + 1)


def _nonzero_arguments(base: sp.Expr, exponent: sp.Expr) -> tuple | None:
    """(a, low, high) for a factor ``base**exponent`` that is nonzero at an integer argument a only where
    low ≤ a ≤ high (C(n, a) and (n)_a with n a whole number, 1/a!, 1/Γ(a)); None for any other factor."""
    whole = base.args[0].is_Integer and base.args[0] >= 0 if base.args else False
    if isinstance(base, sp.binomial) and exponent.is_positive and whole:
        return base.args[1], sp.S.Zero, base.args[0]
    if isinstance(base, sp.FallingFactorial) and exponent.is_positive and whole:
        return base.args[1], -sp.oo, base.args[0]  # (n)_a = n(n − 1)…(n − a + 1): 0 from a = n + 1 on
    if isinstance(base, sp.factorial) and exponent.is_negative:
        return base.args[0], sp.S.Zero, sp.oo
    if isinstance(base, sp.gamma) and exponent.is_negative:
        return base.args[0], sp.S.One, sp.oo
    return None


def written(expr: sp.Expr, var: sp.Symbol, name: str) -> sp.Expr:
    """``expr`` as a density of ``var`` can be written: derivatives taken, or a :class:`DensityError`
    naming what cannot be a density's formula, before any work starts.

    A point mass (DiracDelta) is an atom, not a density: a law with atoms beside a density has no pdf with
    respect to Lebesgue measure, and integrating the delta as a function would be wrong, not only refused.
    An undefined function f(x) has no values.  SymPy's printers know neither, so without this check they
    failed as a raw ``NameError`` deep inside the first quadrature.

    >>> x = sp.Symbol("x", real=True)
    >>> written(sp.Derivative(sp.erf(x), x) / 2, x, "pdf")
    exp(-x**2)/sqrt(pi)
    >>> written(sp.exp(-x**2) / sp.sqrt(sp.pi) / 2 + sp.DiracDelta(x) / 2, x, "pdf")
    Traceback (most recent call last):
    ...
    rdpsym.foundations.errors.DensityError: pdf must be a density (a function of x without point masses); got \
a point mass DiracDelta(x) (a law with atoms beside a density is not supported: write its atoms as a \
Discrete law, or smooth them).
    """
    if expr.has(sp.Derivative):
        expr = expr.replace(lambda e: isinstance(e, sp.Derivative), lambda e: e.doit())
    deltas = expr.atoms(sp.DiracDelta)
    if deltas:
        raise DensityError(must(name, f"a density (a function of {var} without point masses)",
                                f"a point mass {min(deltas, key=sp.default_sort_key)} (a law with atoms beside a "
                                "density is not supported: write its atoms as a Discrete law, or smooth them)"))
    undefined = expr.atoms(sp.core.function.AppliedUndef)
    if undefined:
        raise DensityError(must(name, "written with SymPy's functions (exp, log, erf, gamma, Piecewise, ...)",
                                f"the undefined function {min(undefined, key=sp.default_sort_key)}"))
    finite = [e for e in expr.atoms(sp.Sum) if _terms(e) <= MAX_WRITTEN_TERMS]
    if finite:  # a finite mixture written as a Sum: its terms, which the rules and the quadrature both read
        expr = expr.xreplace({e: e.doit() for e in finite})
    left = [e for e in expr.atoms(sp.Derivative, sp.Integral, sp.Sum) if var in e.free_symbols]
    if left:
        raise DensityError(must(name, f"an explicit function of {var}",
                                f"{min(left, key=sp.default_sort_key)}, which is not written out"))
    return expr


#: Terms a finite Sum in a density's formula is written out to (a mixture of this many components).
MAX_WRITTEN_TERMS = 1000


def _terms(s: sp.Sum) -> float:
    """How many terms a Sum has: a count for finite numeric ranges, else ∞ (it cannot be written out)."""
    count = 1
    for _, lo, hi in s.limits:
        if not (lo.is_Integer and hi.is_Integer):
            return float("inf")
        count *= max(0, int(hi - lo) + 1)
    return count


class Validity(enum.IntEnum):
    """What a density's check established; false (0) when its mass was left undecided."""

    #: With parameters, the mass could not be decided symbolically: the law passed, and is checked with values.
    UNDECIDED = 0
    #: Nonnegative and of mass 1 as checked (exactly, or to 10⁻²⁰ for a number); with parameters, a branch
    #: whose sign SymPy cannot decide is left to the values (a pmf written with 1 − p at p > 1).
    SHOWN = 1
    #: With parameters: every nonzero branch nonnegative by SymPy's assumptions and the mass exactly 1 in
    #: closed form, so the law is one at every value the parameters' assumptions allow.
    EVERY_VALUE = 2


def check_real(expr: sp.Expr) -> None:
    """Refuse a density with I in it unless SymPy shows its imaginary part 0 (its variables real) within a second:
    1 + i·sin 2πx on [0, 1] was taken (a probe); (e^{ix} + e^{−ix})/2 is cos x, and real (a review)."""
    if not expr.has(sp.I) or expr.is_extended_real is True:
        return
    try:
        zero = budgeted(lambda: sp.simplify(sp.im(sp.expand_complex(expr))) == 0, "the imaginary part of a density",
                        seconds=1.0)
    except (NoClosedFormError, *SYMPY_FAILURES):
        zero = False
    if not zero:
        raise DensityError(must("the density", "real-valued (no I in it, unless SymPy shows the whole real)", expr))


# A mass shown to be 1 is read back in every later process (rdpsym.foundations.disk_cache); a refusal never is.
@persistent("density check", keep=lambda validity: validity >= Validity.SHOWN, returns=Validity)
@sympy_evalf_guard.serialized  # SymPy sets mpmath's global precision as it evaluates: one thread at a time
def check_pieces(expr: sp.Expr, var: sp.Symbol, pieces: Sequence[Piece], *, discrete: bool,
                 lo: sp.Expr, hi: sp.Expr, parameters: set) -> Validity:
    """Check a pdf (pmf) ``expr`` in ``var`` on the support (lo, hi), split into ``pieces``.

    Every nonzero branch must be nonnegative on its piece, and the masses must
    add up to 1: in closed form when each piece has one, else numerically when
    no ``parameters`` are left (with parameters, an undecided mass passes).
    Returns what was established (:class:`Validity`); a density with I in it was refused before
    (:func:`check_real`, which the density's check calls first).
    """
    total = sp.S.Zero
    signs_proved = True
    for piece in pieces:
        if piece.is_zero:
            continue
        signs_proved = check_nonnegative(piece, var, discrete) and signs_proved
        try:
            total += _mass(piece, var, discrete)
        except NoClosedFormError:
            total = None
            break
    if total is None:
        if parameters:
            return Validity.UNDECIDED
        # Numerically: a mass off 1 rejects the law only when two precisions agree on it to the digits
        # compared (10⁻²⁰).  A quadrature that cannot resolve the integrand (a step function across its
        # jumps) gives values that move with the precision: undecided then, never a wrong rejection.
        first = numeric_mass(expr, var, pieces, discrete=discrete, lo=lo, hi=hi, dps=30)
        with private_context(60) as ctx:
            if abs(ctx.convert(first) - 1) <= ctx.mpf(10) ** -NORMALISATION_DIGITS:
                return Validity(check_normalised(sp.Float(first, 30), discrete))
            second = numeric_mass(expr, var, pieces, discrete=discrete, lo=lo, hi=hi, dps=50)
            if abs(ctx.convert(first) - second) > ctx.mpf(10) ** -NORMALISATION_DIGITS:
                return Validity.UNDECIDED
        total = sp.Float(second, 50)
    shown = check_normalised(total, discrete)
    # Exactly 1 in closed form: a number that is 1 only to 10⁻²⁰ proves nothing for other values.
    exactly_one = total == 1 or (shown and not total.is_number)
    if parameters and signs_proved and exactly_one:
        return Validity.EVERY_VALUE
    return Validity(shown)


#: Digits to which a numeric mass must be 1 (and settled across two precisions, to reject a law).
NORMALISATION_DIGITS = 20


@sympy_evalf_guard.serialized
def check_table(table: Mapping) -> Validity:
    """Check a finite table ``{outcome: probability}``: nonnegative, summing to 1 (UNDECIDED: passed)."""
    for outcome, prob in table.items():
        if prob.is_negative:
            raise DensityError(must(f"the probability of {outcome}", "nonnegative", prob))
    total = sp.Add(*table.values())
    shown = check_normalised(total, discrete=True)
    if shown and total.free_symbols and all(prob.is_nonnegative for prob in table.values()):
        return Validity.EVERY_VALUE
    return Validity(shown)


def numeric_mass(expr: sp.Expr, var: sp.Symbol, pieces: Sequence[Piece], *, discrete: bool,
                 lo: sp.Expr, hi: sp.Expr, dps: int = 30) -> mpmath.mpf:
    """∫ pdf or Σ pmf of an expression without parameters, to ``dps`` digits (10 guard digits).

    A pmf on a short finite range is summed term by term, each term evaluated
    exactly first; anything else is integrated (summed) piece by piece.
    """
    with private_context(dps + 10) as ctx:
        outcomes = finite_outcomes(lo, hi) if discrete else None
        if outcomes is not None:
            return exact_mpf(ctx.fsum(to_mpf(expr.subs(var, j), ctx) for j in outcomes))
        pairs = [PiecePair(piece.lo, piece.hi, piece.branch, piece.branch) for piece in pieces]
        # By its logarithm (an exp(−e^(−x)) tail is never formed far out), within the definition's time ceiling.
        f = compile_expr(expr, var, ctx)
        probes = [t for piece in pieces if not piece.is_zero for t in probe_points(piece, discrete)]
        log_f = log_function(expr, var, f, probes, discrete, ctx)
        # A component far out (sech at 10³⁰⁰ beside N(0, 1)) is a hill no node resolves: integrated about its place, as
        # the definition's are (its mass came out 2/3, or 0 alone, and the law was refused with that false figure).
        recentred = None if discrete else recentred_log(lambda pair: log_expression(pair.p), var, ctx)
        budget = time_budget(MASS_SECONDS, "the density's mass")
        try:
            with budget:
                try:
                    mass = integrate_pieces(pairs, var, LogForm(lambda t: (log_f(t), 1), ctx), ctx,
                                            discrete=discrete, order=sp.S.One, recentred=recentred)
                except (TypeError, ValueError, ZeroDivisionError, ConvergenceError):
                    # The logarithm's form failed where the pdf did not (a complex branch of a log far out):
                    # the pdf itself, as before the log form.
                    try:
                        mass = integrate_pieces(pairs, var, f, ctx, discrete=discrete, order=sp.S.One)
                    except (TypeError, ValueError, ZeroDivisionError, OverflowError) as exc:  # mpmath's own
                        raise ConvergenceError(
                            "the density's mass could not be computed numerically (mpmath: "
                            f"{' '.join(str(exc).split())[:120]}); pass check=False to skip the check") from None
        except SymbolicTimeout:
            if not budget.spent:
                raise
            raise ConvergenceError(f"the density's mass could not be computed within {MASS_SECONDS:g} s of CPU "
                                   "time (pass check=False to skip the check)") from None
        if not isinstance(mass, ctx.mpf):  # a pdf that is complex at some nodes (a log's branch cut met by rounding)
            raise ConvergenceError(f"the density's mass could not be computed numerically: it came out {mass}; "
                                   "pass check=False to skip the check")
        return exact_mpf(mass)


#: CPU seconds the numeric mass of a density may take.
MASS_SECONDS = 60.0


def _mass(piece: Piece, var: sp.Symbol, discrete: bool) -> sp.Expr:
    # The constant factor stays outside the terms: expanded into (1 − e^{−(x−c)²})·e^{−x²/2}/Z, a normaliser Z that
    # is a sum put the variable's exponential into a sum in each denominator, and no term had a sign or a rule; and
    # the mass is linear whatever the sign of a factor SymPy cannot decide (Z = √(2π) − √(2π/(1 + 2/s))).
    constant, rest = piece.branch.as_independent(var, as_Add=False)
    terms = sp.Add.make_args(sp.expand(rest, deep=False, mul=True, power_exp=False, log=False))
    signs = [_sign_on(t, var, piece, discrete) for t in terms] if len(terms) > 1 else []
    if signs and all(signs):
        # A mixture, or a difference of such terms ((1 − e^{−(x−c)²})·e^{−x²/2} is e^{−x²/2} − e^{−(x−c)²−x²/2}):
        # each term has a rule (a sum of exponentials does not, as one logarithm; SymPy spent its whole budget on
        # that one, 5 s, before the mass went to quadrature).  Each term keeps one sign where the variable lies,
        # so a finite mass of each is an absolutely convergent integral and the sum of the masses is the mass.
        # With k only an integer, 3000^k/k! has no sign SymPy knows until k ≥ 0 is (its whole sum went to
        # sympy.summation, 6 s of factoring before giving up).  A term whose rule gives no finite mass (floor(x)/3
        # is 0 on [0, 1): its logarithm is −∞ there; or ∞ − ∞ between two terms) leaves the branch to the rules
        # for the whole.
        masses = [sign * _mass(Piece(piece.lo, piece.hi, sign * t), var, discrete) for sign, t in zip(signs, terms)]
        if not any(m.has(sp.nan, sp.zoo, sp.oo, -sp.oo) for m in masses):
            total = constant * sp.Add(*masses)
            # the differences in one fraction, so that a normaliser cancels and a wrong one reads "got 10/11"
            return _cancelled(total) if -1 in signs else total
    L = log_of(piece.branch, var, piece_point(piece.lo, piece.hi, discrete))
    rule = sum_exp if discrete else integrate_exp_steps
    value = rule(L, var, piece.lo, piece.hi, Hypotheses())
    if value.condition is not sp.true:
        raise NoClosedFormError(f"normalisation needs {value.condition}")
    if value.value.has(sp.nan, sp.zoo):
        # A pmf with a zero inside its range (a hypergeometric law on 0..5 where binomial(4, 5) = 0): its log is −∞
        # there, and a rule's sum of e^{log} came out NaN; the mass is then summed by the numeric route.
        raise NoClosedFormError(f"the mass by the rules is {value.value}, not a number")
    return value.value


def _cancelled(total: sp.Expr) -> sp.Expr:
    """``total`` as one cancelled fraction, or as it is where SymPy's ``cancel`` does not finish in a second."""
    try:
        return budgeted(lambda: sp.cancel(total), "cancelling a mass", seconds=1.0)
    except NoClosedFormError:
        return total


def _sign_on(term: sp.Expr, var: sp.Symbol, piece: Piece, discrete: bool) -> int:
    """1 when SymPy shows ``term`` ≥ 0 where the variable lies on ``piece``, −1 when it shows ``term`` ≤ 0, else 0."""
    if term.is_nonnegative or _nonnegative_on(term, var, piece, discrete):
        return 1
    if term.is_nonpositive or _nonnegative_on(-term, var, piece, discrete):
        return -1
    return 0


def check_nonnegative(piece: Piece, var: sp.Symbol, discrete: bool) -> bool:
    """Reject a branch that is negative somewhere on its piece; whether SymPy's assumptions show it nonnegative
    (for every value of its parameters).

    Symbolically when SymPy can tell; otherwise with free parameters it passes (each value is checked where
    the law is evaluated), and without them it is checked at a few probe points and on a dense grid, then at
    the branch's critical points, found by ``solve`` under a time budget, so a dip between the probes is not
    missed.  The probes come first: they cost nothing, and where they already show a negative value the search
    for critical points (0.3–3.4 s for a mixture of two Gaussians with a negative weight, as a sampled Gaussian
    is at a sample point with q > 1) has nothing left to decide.
    """
    b = piece.branch
    if b.is_negative:
        raise DensityError(must("the density", "nonnegative on its support", b))
    if _nonnegative(b) or _nonnegative_on(b, var, piece, discrete):
        return True
    if b.free_symbols - {var}:
        return False
    with private_context(30) as ctx:
        f = compile_expr(b, var, ctx)
        _nonnegative_at(b, f, var, list(probe_points(piece, discrete)) + _grid(piece, discrete), discrete, ctx)
        if not discrete:
            _nonnegative_at(b, f, var, _critical_points(b, var, piece), discrete, ctx)  # the minimum, if interior
    return False


def _nonnegative_at(b: sp.Expr, f, var: sp.Symbol, points: list[sp.Expr], discrete: bool, ctx) -> None:
    """Raise :class:`DensityError` naming the first of ``points`` where the density ``b`` (compiled: ``f``) is
    negative: below 0 in mpmath, and not shown ≥ 0 there by :func:`_not_below_zero`."""
    for point in points:
        try:
            value = f(to_mpf(point, ctx) if not discrete else int(point))
        except (ZeroDivisionError, ValueError, TypeError):
            continue
        if isinstance(value, ctx.mpf) and value < 0 and not _not_below_zero(b, var, point):
            shown = point if isinstance(point, sp.Rational) else sympy_float(point, 6)
            raise DensityError(
                must("the density", "nonnegative on its support", f"{ctx.nstr(value, 6)} at {var} = {shown}")
            )


def _not_below_zero(b: sp.Expr, var: sp.Symbol, point: sp.Expr) -> bool:
    """Whether ``b`` at ``point``, found below 0 in mpmath's 30 digits, is shown not to be: an Arb ball ≥ 0, else
    SymPy's exact value at the point.  A sum that cancels to an exact 0 comes out as rounding noise of either sign:
    (1 + (−1)^k)/2 · 8/9 · (1/3)^k, a geometric law on the even numbers, read −3.7·10⁻³³ at k = 1 and was refused
    (a probe).  Anything neither shows (a ball that keeps 0 at 2 048 bits, a value SymPy cannot sign) stays refused.
    """
    point = sp.Integer(point) if isinstance(point, int) else point
    try:
        for bits in (128, 512, 2048):
            with precision(bits):
                value = to_arb(b, {var: to_arb(point)})
            if value < 0:
                return False
            if value >= 0:
                return True
    except (ArithmeticError, ValueError, TypeError):  # (NotCertifiable is a TypeError: a function Arb lacks)
        pass
    exact_value = exact_at(b, var, point)
    return exact_value is not None and exact_value.is_nonnegative is True


def _nonnegative_on(b: sp.Expr, var: sp.Symbol, piece: Piece, discrete: bool) -> bool:
    """Whether SymPy's assumptions show ``b ≥ 0`` with the variable known to lie on the piece.

    The variable is written through a positive t that runs over the piece: lo + t on (lo, ∞), hi − t on
    (−∞, hi), lo + (hi − lo)·t/(1 + t) on a bounded piece, where both x − lo and hi − x are then visibly
    positive.  On (0, ∞) the log-normal pdf e^{−(log x − μ)²/2}/(x√(2π)) is positive as soon as x is known
    positive; asked with a real x, SymPy cannot tell (log x is complex for x < 0), and the search for
    critical points that follows costs seconds; on (0, 1), a Beta pdf x^{a−1}(1 − x)^{b−1}/B(a, b) is
    positive once 1 − x = 1/(1 + t) is.  A pmf's ends are outcomes: t ≥ 0 reaches them, and a bounded
    range is read from both ends.
    """
    lo, hi = piece.lo, piece.hi
    t = sp.Symbol("t", nonnegative=True) if discrete else sp.Symbol("t", positive=True)
    if lo.is_finite and hi is oo:
        inside = [lo + t]
    elif lo is -oo and hi.is_finite:
        inside = [hi - t]
    elif lo.is_finite and hi.is_finite and (hi - lo).is_positive:
        inside = [lo + (hi - lo) * t / (1 + t)] + ([hi - (hi - lo) * t / (1 + t)] if discrete else [])
    else:
        return False
    return all(_nonnegative(b.xreplace({var: x})) for x in inside)


#: Functions SymPy's assumptions know no sign of that are quotients of Gamma values (B(a, b), k!, C(n, k)).
_GAMMA_QUOTIENTS = (sp.beta, sp.factorial, sp.binomial, sp.RisingFactorial, sp.FallingFactorial)


def _nonnegative(expr: sp.Expr) -> bool:
    """Whether SymPy's assumptions show ``expr ≥ 0``, with B(a, b), k!, C(n, k) written as Gamma values
    (SymPy finds B(a, b) of positive a, b of no known sign, and Γ(a) of positive a positive), and each
    factor that is a number of no known sign (a von Mises law's 1/I₀(3/2)) replaced by its sign."""
    if expr.is_nonnegative:
        return True
    if expr.has(*_GAMMA_QUOTIENTS) and expr.rewrite(sp.gamma).is_nonnegative:
        return True
    factors = sp.Mul.make_args(expr)
    signed = [_sign_of_number(f) if f.is_number and f.is_nonnegative is None else _positive_erf(f) for f in factors]
    return signed != list(factors) and bool(sp.Mul(*signed).is_nonnegative)


def _positive_erf(factor: sp.Expr) -> sp.Expr:
    """``factor`` with erfc(u) and c + k·erf(u) (c ≥ |k|), u real, replaced by a positive symbol, also as the base
    of a power: both are positive (|erf u| < 1), which SymPy's assumptions do not know.  A skew-normal law's
    φ(x)·(1 + erf(a·x/√2)) was shown a law only at each value of a, a sympy.solve of its critical points each
    time the check of a derivation took a point."""
    base, exponent = factor.as_base_exp() if isinstance(factor, sp.Pow) else (factor, sp.S.One)
    positive = isinstance(base, sp.erfc) and base.args[0].is_real is True
    if isinstance(base, sp.Add) and len(base.args) == 2:
        c, term = sorted(base.args, key=lambda t: not t.is_number)
        k, erf = term.as_coeff_Mul()
        positive = c.is_number and isinstance(erf, sp.erf) and erf.args[0].is_real is True and \
            bool((c - abs(k)).is_nonnegative)
    if not positive:
        return factor
    return sp.Dummy("positive", positive=True) ** exponent


def _sign_of_number(number: sp.Expr) -> sp.Expr:
    """±1 for a nonzero number whose value SymPy evaluates to 30 correct digits (``evalf`` strict), else it."""
    try:
        value = number.evalf(30, strict=True)
    except (sp.PrecisionExhausted, ValueError, TypeError, ArithmeticError):
        return number
    if value.is_Float and value != 0:
        return sp.S.One if value > 0 else sp.S.NegativeOne
    return number


def _grid(piece: Piece, discrete: bool) -> list[sp.Expr]:
    lo, hi = piece.lo, piece.hi
    if discrete:
        if lo.is_number and hi.is_number and lo.is_finite and hi.is_finite and hi - lo <= 400:
            return [sp.Integer(j) for j in range(int(lo), int(hi) + 1)]
        return []  # an end that is a symbol (binomial's n): the probes and the symbolic check decide
    if lo.is_number and hi.is_number and lo.is_finite and hi.is_finite:
        return [lo + (hi - lo) * sp.Rational(j, 257) for j in range(1, 257)]
    base = lo if lo.is_finite else (hi if hi.is_finite else sp.S.Zero)
    sign = 1 if lo.is_finite else -1
    pts = [base + sign * sp.Rational(2) ** j for j in range(-20, 40)]
    if not lo.is_finite and not hi.is_finite:
        pts += [-p for p in pts]
    return pts


def _critical_points(b: sp.Expr, x: sp.Symbol, piece: Piece) -> list[sp.Expr]:
    if not can_budget():
        return []
    roots = []
    try:
        with time_budget(2.0, "critical points of the density", absorb=True):
            roots = sp.solve(sp.diff(b, x), x)
    except NotImplementedError:
        return []
    out = []
    for r in roots:
        above = piece.lo is -oo or (r - piece.lo).is_positive
        below = piece.hi is oo or (piece.hi - r).is_positive
        if r.is_real and above and below:
            out.append(r)
    return out


def _decimal_string(r: sp.Rational) -> str:
    with decimal.localcontext(decimal.Context(prec=len(str(r.q)) + len(str(r.p)) + 5)):
        return format(decimal.Decimal(int(r.p)) / decimal.Decimal(int(r.q)), "f")


def _is_decimal(r: sp.Rational) -> bool:
    """A denominator that is a power of ten: the sum of a table of floats."""
    q = int(r.q)
    while q % 10 == 0:
        q //= 10
    return q == 1 and r.q > 1


def _exp_log_as_power(expr: sp.Expr) -> sp.Expr:
    """``expr`` with each e^{c·log b} written b^c (SymPy's b^c is e^{c·log b}, principal branch: an identity)."""
    def as_power(e):
        factors = sp.Mul.make_args(e.args[0])
        logs = [f for f in factors if isinstance(f, sp.log)]
        if len(logs) != 1:
            return e
        return sp.Pow(logs[0].args[0], sp.Mul(*[f for f in factors if f is not logs[0]]))

    return expr.replace(lambda e: isinstance(e, sp.exp) and any(isinstance(f, sp.log) for f in sp.Mul.make_args(
        e.args[0])), as_power)


def check_normalised(total: sp.Expr, discrete: bool) -> bool:
    """Reject a total mass that is definitely not 1 (exactly, for a rational; to 10⁻²⁰, for another number); whether
    it was shown to be 1.  (A table of 1/2 + 10⁻²⁰ and 1/2 was within 10⁻²⁰ and called a law: a probe.)"""
    what = "sum" if discrete else "integrate"
    if total.is_number:
        value = sympy_float(total, 30)
        if abs(value - 1) > sp.Float("1e-20") or (total.is_Rational and total != 1):
            shown = total if not total.is_Float else sp.nsimplify(value)
            if shown.is_Rational and _is_decimal(shown):
                shown = _decimal_string(shown)  # a float table reads back as its decimals
            hint = ""
            if abs(value - 1) < sp.Float("1e-9") and not (total.is_Rational and int(total.q) & (int(total.q) - 1)):
                # 1 + 2·10⁻¹⁶: a float in the density, read exactly (a dyadic total; an exact 1 + 10⁻⁴⁰ is no float)
                hint = (f" (1 {'+' if value > 1 else '-'} {sp.Float(abs(value - 1), 2)}: a floating-point number in "
                        "the density? Write its constants exactly, e.g. sp.Rational(3, 2) or sp.S(3)/2)")
            raise (MassOffByRounding if hint else DensityError)(f"the density must {what} to 1 over its support; got "
                                                                f"{shown}{hint}.")
        return True
    if sp.simplify(total - 1) == 0:
        return True
    # erfc = 1 − erf written in one function: a normal truncated at μ has mass (2 − erfc(z))/(1 + erf(z)), which
    # simplify leaves as it is and ``equals`` spends 0.8 s of CPU on without deciding.
    if total.has(sp.erfc) and sp.simplify(total.rewrite(sp.erf) - 1) == 0:
        return True
    # e^{r·log(1 − p)} written (1 − p)^r, which it is by definition (the principal power): a negative binomial law's
    # sum with a symbolic r, e^{r·log(1 − p)}/(1 − p)^r, which simplify leaves and ``equals`` calls False (it was
    # refused, "must sum to 1", where r = 2 built).
    powers = _exp_log_as_power(total)
    if powers != total and sp.simplify(powers - 1) == 0:
        return True
    if total.equals(1) is False:
        raise DensityError(f"the density must {what} to 1 over its support; got {total}.")
    return False
