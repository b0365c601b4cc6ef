"""Non-elementary normalisers and moments: infinite series kept symbolic, in one canonical form.

The discrete Gaussian (Canonne, Kamath & Steinke 2020, arXiv:2004.00010) has
the pmf e^{−k²/(2σ²)}/Σ_{j∈ℤ} e^{−j²/(2σ²)}: its normaliser is a theta-type
series with no elementary closed form, and so is its Rényi moment
Σ_k e^{A k² + B k + C}.  rdpsym keeps such series as :class:`Series`, a SymPy
``Sum`` that

* is written one way (the summation index is one shared symbol of its own class, the exponent
  expanded, and over ℤ the square is completed: Σ e^{A(j − v)²} = Σ e^{A j²}
  when the vertex v is an integer, by shifting j ↦ j + v; an odd summand over ℤ
  is 0), so equal series compare equal and cancel — the Rényi moment of two
  discrete Gaussians with an integer shift μ at an integer order α is the
  normaliser itself times e^{α(α−1)μ²/(2σ²)}, whence D_α = αμ²/(2σ²) exactly
  (Canonne, Kamath & Steinke 2020, Proposition 7);
* evaluates to any precision (SymPy's ``evalf`` cannot sum a two-sided series):
  by direct summation outward from its largest term, until the terms fall below
  the working precision.

>>> import sympy as sp
>>> j = sp.Symbol("j", integer=True)
>>> s = sp.Symbol("sigma", positive=True)
>>> Z = canonical(sp.Sum(sp.exp(-(j - 1)**2/(2*s**2)), (j, -sp.oo, sp.oo)))
>>> Z == canonical(sp.Sum(sp.exp(-j**2/(2*s**2)), (j, -sp.oo, sp.oo)))
True
>>> sp.N(Z.subs(s, 1), 30)  # θ₃(0, e^{−1/2}), a hair above √(2π)
2.50662828804290554483067905386
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable

import mpmath
import sympy as sp
from sympy.core.evalf import prec_to_dps

from rdpsym.engine.pieces import breakpoints
from rdpsym.foundations.budget import budgeted, time_budget
from rdpsym.foundations.errors import NoClosedFormError
from rdpsym.foundations.precision import MPMATH_MODULES, mpmath_function

oo = sp.oo

class SeriesIndex(sp.Symbol):
    """The summation index of rdpsym's canonical series: a symbol of a class of its own.

    It is never equal to a user's ``Symbol("j", integer=True)``, as a ``Dummy`` would not be, and it is the same
    in every process, which a ``Dummy`` is not (its number is its process's): a law or a result holding a series
    is then an input the cache of derivations can name (:mod:`rdpsym.foundations.disk_cache`), and a discrete
    Gaussian's curve is derived once, not once per process.

    >>> INDEX == sp.Symbol("j", integer=True), INDEX == SeriesIndex("j", integer=True)
    (False, True)
    """


#: The summation index of every canonical series (one symbol, so equal series are equal expressions).
INDEX = SeriesIndex("j", integer=True)

#: Terms summed on each side of the largest before a series is declared too slow to evaluate.
MAX_TERMS = 100_000


class Series(sp.Sum):
    """An infinite sum kept symbolic, that evaluates numerically (``sp.N``) by direct summation.

    It prints, differentiates and substitutes as a ``Sum``.
    """

    def _eval_is_positive(self):
        return _positive_over(self)

    def _eval_evalf(self, prec):
        if len(self.limits) != 1:
            return None
        (j, lo, hi), = self.limits
        term = self.function
        if term.free_symbols - {j} or lo.free_symbols or hi.free_symbols:
            return None
        dps = prec_to_dps(prec) + 15
        with mpmath.workdps(dps):
            f = mpmath_function(j, term)
            total = _sum_outward(f, lo, hi)
        if total is None:
            return None
        return sp.Float(total, prec_to_dps(prec) + 5)


def _sum_outward(f, lo: sp.Expr, hi: sp.Expr):
    """Σ f(k), lo ≤ k ≤ hi, from the largest term outward; None if it does not settle.  ``f`` takes its index as
    an mpmath number (:func:`~rdpsym.foundations.precision.mpmath_function`): 2**k at k = 2⁶¹ as a Python int
    is an integer of 2⁶¹ bits (a Conway–Maxwell–Poisson normaliser Σ 2^j/(j!)² never returned), and 3**(-k) a
    float."""
    a = None if lo is -oo else int(lo)
    b = None if hi is oo else int(hi)
    start = a if a is not None else (b if b is not None else 0)

    # The largest term: a doubling scan away from the start, in each direction the range allows.
    best, best_value = start, abs(f(start))
    for direction in (1, -1):
        step = 1
        while step < 2**62:
            k = start + direction * step
            if (a is not None and k < a) or (b is not None and k > b):
                break
            v = abs(f(k))
            if v > best_value:
                best, best_value = k, v
            step *= 2
    eps = mpmath.mpf(10) ** (-mpmath.mp.dps)
    total = f(best)
    for direction in (1, -1):
        small, k = 0, best + direction
        for _ in range(MAX_TERMS):
            if (a is not None and k < a) or (b is not None and k > b):
                break
            t = f(k)
            total += t
            if abs(t) <= eps * abs(total):
                small += 1
                if small >= 10:
                    break
            else:
                small = 0
            k += direction
        else:
            return None
    return total


class Quadrature(sp.Integral):
    """A definite integral kept symbolic (a normaliser ∫e^{−t⁴}dt, ∂/∂a of an incomplete beta) that
    evaluates numerically by mpmath's tanh-sinh quadrature at the precision asked for (SymPy's own
    ``evalf`` of an integral with an endpoint singularity takes seconds).  It prints as an ``Integral``."""

    def _eval_is_positive(self):
        return _positive_over(self)

    def _eval_evalf(self, prec):
        if len(self.limits) != 1 or len(self.limits[0]) != 3:
            return None
        (t, lo, hi), = self.limits
        if self.function.free_symbols - {t} or lo.free_symbols or hi.free_symbols:
            return None
        value = _quadrature_value(self.function, t, lo, hi, -(-prec // PRECISION_STEP) * PRECISION_STEP)
        return None if value is None else sp.Float(value, prec_to_dps(prec) + 5)


#: A Quadrature is evaluated at its precision rounded up to a multiple of this many bits, and kept: a check of the
#: arcsine law's KL against a triangular one asked its four integrals at 34 precisions from 70 to 112 digits (72
#: values, 12 s of CPU; now 12 values, at three steps).
PRECISION_STEP = 128
#: A finite piece wider than 2 and narrower than this is read directly between unit widths beside its ends; a wider
#: one by the map beside each end over its half (tanh-sinh's nodes come within width·10^{−dps} of an end).
DIRECT_WIDTH = 2**20
#: CPU seconds (the reference machine's) for one Quadrature's value; past them it has none, and the form holding it
#: is not evaluated (an integral at 145 digits takes about 0.6 s on a slow machine, at two precisions 1.5 s).
QUADRATURE_SECONDS = 5.0


@functools.lru_cache(maxsize=1024)
def _quadrature_value(function: sp.Expr, t: sp.Symbol, lo: sp.Expr, hi: sp.Expr, prec: int) -> sp.Float | None:
    """:meth:`Quadrature._eval_evalf`'s value to ``prec`` bits, or None where it has none that mpmath's error
    estimate vouches for (a kink between nodes: |t − 1/3| came out 0.27777800 for 5/18 unsplit), kept: SymPy's
    assumptions ask a sum of integrals for its sign by evaluating it again at each query (whether the arcsine law's
    KL against a triangular one is real evaluated its four integrals 114 times at 12 precisions, 3.7 s of CPU).

    An integral whose value was given up after its budget is not tried again at any precision (each try would be
    the whole budget again: SymPy asks at rising precisions)."""
    if (function, t, lo, hi) in _GIVEN_UP:
        return None
    digits = prec_to_dps(prec)
    budget = time_budget(QUADRATURE_SECONDS, "a Quadrature's value", absorb=True)
    values = []
    with budget:
        for guard in GUARD_DIGITS:
            with mpmath.workdps(digits + guard):
                try:
                    values.append(_vouched(_quad(*_prepared(function, t, lo, hi), t), digits))
                except (ValueError, ZeroDivisionError, OverflowError, TypeError, NameError, AttributeError,
                        NotImplementedError):  # (NameError: a function lambdify has no mpmath name for, erfcinv)
                    return None
    if budget.spent:
        _GIVEN_UP.add((function, t, lo, hi))
    if budget.spent or None in values:
        return None
    first, second = values
    with mpmath.workdps(digits + max(GUARD_DIGITS)):
        if abs(first - second) > abs(first) * mpmath.mpf(10) ** -digits:
            return None
    return sp.Float(first, digits + 5)


#: The integrals whose value ran past its budget (function, variable, ends).
_GIVEN_UP: set[tuple] = set()
#: A Quadrature's value is computed at these many digits more than asked, and must agree: mpmath's functions at the
#: nodes of an infinite range (t up to 10^{dps}) can be wrong beyond any error estimate: erfc(10⁴⁵) at 45 digits is
#: off by a factor e^{10⁴⁵}, and e^{−t²}/((1 + t)³·erfc t) over [0, ∞) came out 17.6 for 1.24 (a review).
GUARD_DIGITS = (15, 5)


def _vouched(parts: list[tuple[mpmath.mpf, mpmath.mpf]], digits: int) -> mpmath.mpf | None:
    """The sum of the quadratures' values, or None where a value is not a finite real number, the sum is 0, or
    mpmath's error estimates do not vouch for ``digits`` digits of it (an estimate is at most 1: 1 says nothing).

    Relative to the sum, not to its parts: t² − 1/3 over [0, 1], exactly 0, came out −8.2·10⁻⁵⁶ at 15 digits, and
    SymPy then read the integral as negative (a review)."""
    if not all(isinstance(v, mpmath.mpf) and mpmath.isfinite(v) and mpmath.isfinite(e) and e < 1 for v, e in parts):
        return None
    value, error = mpmath.fsum(v for v, _ in parts), mpmath.fsum(e for _, e in parts)
    return value if value != 0 and error <= abs(value) * mpmath.mpf(10) ** -digits else None


@functools.lru_cache(maxsize=256)
def _prepared(function: sp.Expr, t: sp.Symbol, lo: sp.Expr, hi: sp.Expr) -> tuple[sp.Expr, tuple[sp.Expr, ...]]:
    """The integrand as :func:`_quad` reads it (:func:`_through_exp`) and the ends of its pieces: ``lo``, the points
    inside where it may not be smooth (engine.pieces.breakpoints: |·|, sign, a Piecewise's switches, …) and its
    Gaussian peaks (:func:`_peaks`), ``hi``."""
    function = _through_exp(function, t)
    try:
        inside = budgeted(lambda: breakpoints(function, t, lo, hi), "the kinks of a Quadrature's integrand", 2.0)
    except NoClosedFormError:  # (|t^1000 − 1/2|: SymPy's roots took a minute; the estimates decide unsplit)
        inside = []
    inside += _peaks(function, t)
    inside = sorted({p for p in inside if p.is_number and p.is_real and (lo is -oo or bool(p > lo))
                     and (hi is oo or bool(p < hi))}, key=lambda p: sp.N(p, 50))
    return function, (lo, *inside, hi)


def _peaks(function: sp.Expr, t: sp.Symbol) -> list[sp.Expr]:
    """The vertices of the quadratic exponents e^{a·t² + b·t + c} in ``function``: a Gaussian's peak far from the
    others is where no node of an unsplit quadrature falls (the normaliser of ½N(0, 1) + ½N(1000, 1) came out ½, the
    two precisions and the error estimates agreeing: a review)."""
    vertices = []
    for e in function.atoms(sp.exp):
        exponent = sp.expand(e.args[0])
        if exponent.is_polynomial(t) and sp.degree(exponent, t) == 2:
            a, b = (exponent.coeff(t, k) for k in (2, 1))
            vertices.append(-b / (2 * a))
    return vertices


def _positive_over(expr) -> bool | None:
    """A sum or integral of a positive function over a nonempty range is positive (a normaliser)."""
    if len(expr.limits) != 1 or len(expr.limits[0]) != 3:
        return None
    _, lo, hi = expr.limits[0]
    if expr.function.is_positive and (lo is -oo or hi is oo or (hi - lo).is_positive):
        return True
    return None


def _quad(function: sp.Expr, ends: tuple[sp.Expr, ...], t: sp.Symbol) -> list[tuple[mpmath.mpf, mpmath.mpf]]:
    """∫ function dt over each piece between consecutive ``ends``, by tanh-sinh at mpmath's working precision: the
    (value, error estimate) of each quadrature.  A finite end e of a piece is approached as e ± e^{−s} (s → ∞) over
    the piece's half next to it, or a unit width (the rest of the piece is read directly); an infinite end is
    mpmath's own map.

    Near a finite end tanh-sinh's nodes stop at about 10^{−dps} from it, which leaves out
    ∫_0^ε t^{−2/3} ≈ ε^{1/3}: 23 digits at 70.  In s the same piece is an exponential tail.  The function
    is read at a distance u from the end, written symbolically: log(1 − t) at t = 1 − u is log u, where in
    floating point 1 − (1 − u) is 0 once u is below the precision (the value came out nan); a polynomial in u is
    expanded (2 − (√2 − u)² is 2√2·u − u², where √(2 − t²) had no value).  The map is used only beside a finite
    end: over a whole infinite range its nodes at s → −∞ are t = e^{|s|} with |s| in the thousands, and e^{−t⁴}
    there asked mpmath for log 2 to astronomically many digits (a hang).
    """
    def beside(end, sign, width):
        """∫ over (end, end ± width) in s = −log u, the function read at end ± u."""
        near = _read_beside(function, t, end, sign)

        def in_s(s):
            at = mpmath.exp(-s)
            return near(at) * at

        return mpmath.quad(in_s, [-mpmath.log(width), mpmath.inf], error=True)

    f = _read(function, t)
    one = mpmath.mpf(1)
    parts = []
    for lo, hi in itertools.pairwise(ends):
        if lo is -oo and hi is oo:
            parts.append(mpmath.quad(f, [-mpmath.inf, 0, mpmath.inf], error=True))
        elif hi is oo:
            parts += [beside(lo, 1, one), mpmath.quad(f, [_apart(lo, lo + 1)[1], mpmath.inf], error=True)]
        elif lo is -oo:
            parts += [mpmath.quad(f, [-mpmath.inf, _apart(hi - 1, hi)[0]], error=True), beside(hi, -1, one)]
        elif bool(hi - lo > 2) and bool(hi - lo < DIRECT_WIDTH):  # (the map beside an end over a wide piece:
            # 10⁻³⁷ of ½N(0, 1) + ½N(1000, 1); read directly over 10¹⁰⁰, the nodes never came near the ends)
            parts += [beside(lo, 1, one), mpmath.quad(f, list(_apart(lo + 1, hi - 1)), error=True), beside(hi, -1, one)]
        else:
            _apart(lo, hi)
            half = _mpf((hi - lo) / 2)  # (exactly: at 10⁵⁵ the difference of the rounded ends was 0)
            parts += [beside(lo, 1, half), beside(hi, -1, half)]
    return parts


@functools.lru_cache(maxsize=256)
def _read(function: sp.Expr, t: sp.Symbol) -> Callable:
    """The integrand compiled for mpmath (:data:`_TAME`), once: a value is asked at two working precisions and at each
    precision step, and the compiled code reads mpmath's working precision when it runs."""
    return sp.lambdify(t, function, modules=_TAME)


@functools.lru_cache(maxsize=256)
def _read_beside(function: sp.Expr, t: sp.Symbol, end: sp.Expr, sign: int) -> Callable:
    """The integrand at ``end`` ± u as a function of u, compiled once (:func:`_read`), the shift written symbolically
    (see :func:`_quad`) and a polynomial in u expanded: 2 − (√2 − u)² is 2√2·u − u²."""
    u = sp.Dummy("u", positive=True)
    shifted = function.xreplace({t: end + sign * u}).replace(
        lambda e: e.is_Add and e.has(u) and e.is_polynomial(u), sp.expand)
    return sp.lambdify(u, shifted, modules=_TAME)


def _apart(lo: sp.Expr, hi: sp.Expr) -> tuple[mpmath.mpf, mpmath.mpf]:
    """The finite ends ``lo`` < ``hi`` at the working precision, each below 2^{prec/4} in magnitude (rounded, it is
    then within 2^{−3·prec/4} of itself); else ValueError (no value): [10⁵⁵, 10⁵⁵ + 1] read as one point gave 0, and
    [2²⁰⁰, 2²⁰⁰ + 2⁹⁰] read as (lo, lo + 1) + [lo + 1, hi − 1] + (hi − 1, hi) counted two unit widths twice."""
    a, b = _mpf(lo), _mpf(hi)
    ceiling = mpmath.mpf(2) ** (mpmath.mp.prec // 4)
    if not (a < b and abs(a) < ceiling and abs(b) < ceiling):
        raise ValueError("the ends of a piece are not apart at this precision")
    return a, b


#: Beyond this magnitude a real exponent's exponential is not computed (see :func:`_tame_exp`).
_EXPONENT_CEILING = mpmath.mpf(2) ** 4096


def _tame_exp(x):
    """e^x, but 0 where x < −2⁴⁰⁹⁶ and +∞ where x > 2⁴⁰⁹⁶.

    A Gumbel density e^{−t − e^{−t}} read at t = −10¹⁰⁰ (a node of mpmath's map of an infinite range) asks for
    e^{−e^{10¹⁰⁰}}, and mpmath computes log 2 to 10¹⁰⁰ bits for it: it never finished.  Below −2⁴⁰⁹⁶ the value is
    under 2^{−2⁴⁰⁹⁶}, nothing next to any factor the nodes can make without an exponential of an exponential (whose
    inner exponential is tamed too: cosh and b^{f(t)} are read as exponentials, :func:`_through_exp`); above, +∞,
    which the integrand's arithmetic carries (1/(1 + e^x) is 0 there, as it is to any precision) or makes the
    quadrature's value infinite or nan: then it has none, never a wrong one.  (A ceiling of 2⁶⁴ left
    log(1 + e^t)/(1 + t²)² at t = 10²⁰ infinite: a review.)
    """
    if isinstance(x, mpmath.mpf) and abs(x) > _EXPONENT_CEILING:
        return mpmath.mpf(0) if x < 0 else mpmath.inf
    return mpmath.exp(x)


#: lambdify's modules: rdpsym's for mpmath (the regularized incomplete Beta function read regularized:
#: ∫_0^1 I_t(2, 3) dt came out 0.05 for 0.6, a review), the exponential tamed.
_TAME = [{**MPMATH_MODULES[0], "exp": _tame_exp}, *MPMATH_MODULES[1:]]


def _through_exp(function: sp.Expr, t: sp.Symbol) -> sp.Expr:
    """``function`` with cosh, sinh and each power of a positive base to an exponent that holds ``t`` written as
    exponentials (b^e = e^{e·log b}, unevaluated), so that :func:`_tame_exp` reads them: 2^{−2^t} at t = 10¹⁰⁰ made
    gmpy abort the interpreter ("overflow in mpz type"), and cosh(1/u) at u = e^{−10²⁰} ran for minutes."""
    function = function.replace(lambda e: isinstance(e, (sp.cosh, sp.sinh)) and e.has(t), lambda e: e.rewrite(sp.exp))
    return function.replace(lambda e: e.is_Pow and e.exp.has(t) and e.base.is_positive,
                            lambda e: sp.exp(e.exp * sp.log(e.base), evaluate=False))


def _mpf(end: sp.Expr) -> mpmath.mpf:
    """A finite end at mpmath's working precision."""
    return mpmath.mpf(sp.N(end, mpmath.mp.dps)._to_mpmath(mpmath.mp.prec))


def canonical(expr: sp.Expr) -> sp.Expr:
    """``expr`` with every infinite ``Sum`` written as a canonical :class:`Series` (see the module),
    and every definite integral of one variable without free symbols as a :class:`Quadrature`."""
    sums = [s for s in expr.atoms(sp.Sum) if len(s.limits) == 1]
    integrals = [i for i in expr.atoms(sp.Integral) if not isinstance(i, Quadrature) and len(i.limits) == 1
                 and len(i.limits[0]) == 3 and not i.free_symbols]
    if not sums and not integrals:
        return expr
    return expr.xreplace({**{s: _canonical_sum(s) for s in sums}, **{i: Quadrature(*i.args) for i in integrals}})


def series(summand: sp.Expr, index: sp.Symbol, lo: sp.Expr, hi: sp.Expr) -> sp.Expr:
    """Σ_{index=lo}^{hi} summand as a canonical :class:`Series` (or the elementary value it reduces to)."""
    return _canonical_sum(sp.Sum(summand, (index, lo, hi)))


def _canonical_sum(s: sp.Sum) -> sp.Expr:
    (j, lo, hi), = s.limits
    if not (lo.is_infinite or hi.is_infinite):
        return s  # a finite sum is not a normaliser we need to keep
    term = _expand_exponent(sp.powsimp(s.function.xreplace({j: INDEX})))
    factor = sp.S.One
    if lo is -oo and hi is oo:
        if sp.expand(term.xreplace({INDEX: -INDEX}) + term) == 0:
            return sp.S.Zero  # an odd summand over ℤ
        term, factor = _complete_square(term)
    return factor * Series(term, (INDEX, lo, hi))


def _expand_exponent(term: sp.Expr) -> sp.Expr:
    """exp(u)·c with u expanded, so that one exponent is written one way."""
    return term.replace(lambda e: isinstance(e, sp.exp), lambda e: sp.exp(sp.expand(e.args[0])))


def _complete_square(term: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """Over ℤ: e^{A j² + B j + C}·g(j) with −B/(2A) an integer v → e^{C − B²/(4A)}·Σ e^{A j²} g(j + v)."""
    if not isinstance(term, sp.exp):
        return term, sp.S.One
    u = term.args[0]
    if not u.is_polynomial(INDEX) or sp.degree(u, INDEX) != 2:
        return term, sp.S.One
    A, B, C = (sp.Poly(u, INDEX).coeff_monomial(INDEX**k) for k in (2, 1, 0))
    v = sp.cancel(-B / (2 * A))
    if v.is_integer is not True:
        if C == 0:
            return term, sp.S.One
        return sp.exp(A * INDEX**2 + B * INDEX), sp.exp(C)  # a constant factor outside the sum
    return sp.exp(sp.expand(A * INDEX**2)), sp.exp(sp.expand(C - B**2 / (4 * A)))


__all__ = ["INDEX", "Quadrature", "Series", "SeriesIndex", "canonical", "series"]
