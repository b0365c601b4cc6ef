"""Closed forms of ∫ exp(L(x)) dx over one smooth piece, with convergence conditions.

Each rule recognises one shape of ``L`` and returns a :class:`PieceValue`:
the value, the condition under which the integral converges (``true`` when it
always does), and the rule's name for the derivation.  A rule either returns
a result that is valid exactly when its condition holds, or raises
:class:`NoClosedFormError`; the integral of a positive function that does not
converge is +∞, which is what the condition's "else" branch means.

The shapes are read from ``L = Σ cᵢ·log|x − rᵢ| + A x² + B x + C`` (a log-density
on a piece, after :func:`rdpsym.engine.pieces.log_of`).  Rules (each is the
textbook identity written once; u = x − r is the distance to the power's root):

``gaussian``  no logs, A < 0:
    ∫ = e^{C + B²/(4a)} √(π/a)/2 · [erf(√a (h − v)) − erf(√a (l − v))],
    a = −A, v = B/(2a); on the whole line √(π/a)·e^{C + B²/(4a)}.
``exponential``  no logs, A = 0:  ∫ = (e^{B h + C} − e^{B l + C}) / B.
``gamma``  c·log(x − r) + B x + C on (r, ∞):  e^{C + B r} Γ(c + 1) / (−B)^{c + 1}  (c > −1, B < 0).
``incomplete gamma``  the same on an interval whose ends are not both r and ∞:
    e^{C + B r} (−B)^{−c−1} [Γ(c+1, −B u_l) − Γ(c+1, −B u_h)]  (B < 0; c > −1 if u_l = 0).
``power``  c·log(x − r) + C (B = 0):  e^C (u_h^{c+1} − u_l^{c+1})/(c + 1),
    which needs c > −1 at u_l = 0 and c < −1 at u_h = ∞ (Pareto, power-function laws).
``beta``  c₁ log(x − a) + c₂ log(b − x) + C on (a, b):  e^C (b − a)^{c₁+c₂+1} B(c₁+1, c₂+1).
``incomplete beta``  the same on (l, h) inside (a, b):  e^C (b − a)^{c₁+c₂+1} B_{z_l, z_h}(c₁+1, c₂+1),
    z = (x − a)/(b − a).
``beta (second kind)``  (c − 1)·log x − p·log(x + u) + C on (0, ∞):  e^C u^{c−p} B(c, p − c) (beta prime laws).
``power of a quadratic``, ``Legendre function``  on the whole line, L = C + Σ c·log((x − μ)² + γ²)
    (Cauchy, Student t): :mod:`rdpsym.engine.quadratic_logs`.
``Bessel's integral``  a cos x + b sin x + C over one period (von Mises): :mod:`rdpsym.engine.periodic`.
``generalised inverse Gaussian``  c·log x + B x + D/x + C on (0, ∞): 2 (β/γ)^{ν/2} K_ν(2√(βγ)) e^C.

``multinomial theorem``  Π S_k^{n_k}·e^{r(x)}, integers n_k > 0, S_k sums of c·e^{p(x)}: term by term
    (mixtures of Gaussian laws at an integer order).

When no rule applies, :mod:`rdpsym.engine.transform` looks for a change of
variables t = g(x) under which one does (log-normal, Weibull, Rayleigh,
Gumbel, ...), and only then is ``sympy.integrate`` tried, under a time budget,
unless :mod:`rdpsym.engine.beyond` reads the shape as one it has no closed form for.

This module reads the shape and picks the rule (:func:`integrate_exp`); the
rules themselves are :mod:`rdpsym.engine.integral_rules`, and the value they
return, :class:`~rdpsym.engine.piece_value.PieceValue`, is
:mod:`rdpsym.engine.piece_value`.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import sympy as sp

from rdpsym.engine import periodic
from rdpsym.engine.beyond import beyond_sympy, polynomial_exponent
from rdpsym.engine.context import Hypotheses
from rdpsym.engine.integral_rules import (
    _beta,
    _centred_gaussian_on_a_quadratics_support,
    _exponential,
    _gaussian,
    _inverse_power_exponential,
    _power_exponential,
    _quadratic_powers,
    _two_binomials,
)
from rdpsym.engine.piece_value import PieceValue
from rdpsym.engine.pieces import piece_point
from rdpsym.engine.transform import substitute
from rdpsym.foundations.budget import budgeted
from rdpsym.foundations.errors import BeyondSymPy, NoClosedFormError

oo = sp.oo


@dataclass(frozen=True)
class LogShape:
    """L = Σ c·log|x − r| + A x² + B x + C on a piece: ``logs`` is ((c, r, side), ...).

    ``side`` is +1 where the piece lies right of r (the factor is x − r), −1 left of it (r − x).
    """

    logs: tuple
    A: sp.Expr
    B: sp.Expr
    C: sp.Expr


def _coefficients(L: sp.Expr, x: sp.Symbol) -> tuple[sp.Expr, sp.Expr, sp.Expr] | None:
    """(A, B, C) when L = A x² + B x + C, else None."""
    if not L.is_polynomial(x):
        return None
    poly = sp.Poly(L, x)
    if poly.degree() > 2:
        return None
    return tuple(poly.coeff_monomial(x**k) for k in (2, 1, 0))  # type: ignore[return-value]


def log_shape(L: sp.Expr, x: sp.Symbol, lo: sp.Expr, hi: sp.Expr, hyp: Hypotheses,
              factored: bool = False) -> LogShape | None:
    """Read ``L`` as Σ c·log|x − r| + A x² + B x + C on (lo, hi), or None.

    log(s·(x − r)) is log|s| + log|x − r| with the side read from the sign of s
    (the argument is positive on the piece); the coefficients c must be free of x.  With ``factored``, also the log
    of a polynomial with rational roots off the piece, as the logs of its factors (:func:`_linear_factors`): the
    rules that read such a log whole (Kummer's, the supremum's substitutions) see None without it.
    """
    L = sp.expand(L)
    logs: dict[tuple, sp.Expr] = {}
    rest = sp.S.Zero
    for term in sp.Add.make_args(L):
        found = [f for f in sp.Mul.make_args(term) if isinstance(f, sp.log) and f.has(x)]
        if not found:
            rest += term
            continue
        if len(found) > 1:
            return None
        g = found[0]
        c = term / g
        if c.has(x):
            return None
        u = g.args[0]
        if not u.is_polynomial(x) or sp.Poly(u, x).degree() < 1:
            return None
        if sp.Poly(u, x).degree() > 1:
            if not factored:
                return None
            # log(1 − x²) on (−1, 0), a semicircle law's: Σ m·log|x − r| over u's rational roots, each on the side of
            # the piece (u > 0 there), so that the Beta rules read it; SymPy's integrate spent its budget on it
            factors = _linear_factors(u, x, lo, hi, hyp)
            if factors is None:
                return None
            constant, roots = factors
            rest += c * sp.log(constant)
            for key, multiplicity in roots:
                logs[key] = logs.get(key, sp.S.Zero) + c * multiplicity
            continue
        s, u0 = sp.Poly(u, x).all_coeffs()
        positive = hyp.is_positive(s)
        if positive is None:
            return None
        root = sp.cancel(-u0 / s)
        side = 1 if positive else -1
        key = (root, side)
        logs[key] = logs.get(key, sp.S.Zero) + c
        rest += c * sp.log(s if positive else -s)
    abc = _coefficients(sp.expand(rest), x)
    if abc is None:
        return None
    kept = tuple((c, r, side) for (r, side), c in logs.items() if hyp.is_zero(c) is not True)
    return LogShape(kept, *abc)


def _linear_factors(u: sp.Expr, x: sp.Symbol, lo: sp.Expr, hi: sp.Expr, hyp: Hypotheses) -> tuple | None:
    """|u| on (lo, hi) as k·Π|x − r|^m: (k > 0, [((r, side), m), …]) with side +1 where the piece lies right of r, −1
    left of it; None unless u factors into linear factors over the rationals with every root off the open piece."""
    inside = piece_point(lo, hi, False)
    if hyp.is_positive(u.subs(x, inside)) is not True:  # (the log of a density's factor is real: u > 0 on the piece)
        return None
    lc, factors = sp.factor_list(u, x)
    if not lc.is_Rational:
        return None
    constant, roots = abs(lc), []
    for f, m in factors:
        poly = sp.Poly(f, x)
        if poly.degree() != 1:
            return None
        s, u0 = poly.all_coeffs()
        if not (s.is_Rational and u0.is_Rational):
            return None
        r = -u0 / s
        if (lo - r).is_zero or hyp.is_positive(lo - r):
            side = 1
        elif (hi - r).is_zero or hyp.is_positive(r - hi):
            side = -1
        else:
            return None
        constant *= abs(s) ** m
        roots.append(((r, side), m))
    return constant, roots


@dataclass(frozen=True)
class Integrand:
    """∫_lo^hi e^L dx as the rules read it: ``shape`` is L in the canonical form of :func:`log_shape` (None when L
    is not of that form), the one reading every rule starts from, whatever way L was written."""

    L: sp.Expr
    x: sp.Symbol
    lo: sp.Expr
    hi: sp.Expr
    hyp: Hypotheses
    shape: LogShape | None

    @property
    def whole_line(self) -> bool:
        return self.lo is -oo and self.hi is oo

    @functools.cached_property
    def leading_growth(self) -> list[sp.Expr] | None:
        """:func:`_leading_growth`, read once: by the +∞ rule, then again by the check before SymPy."""
        return _leading_growth(self)

    @functools.cached_property
    def factored_shape(self) -> LogShape | None:
        """L's canonical form with the logs of polynomials read as their factors' (:func:`log_shape`, ``factored``),
        read once: by the factored rule, then again by the check before SymPy (:func:`_lauricella`)."""
        return log_shape(self.L, self.x, self.lo, self.hi, self.hyp, factored=True)


def _shape_rules(i: Integrand) -> PieceValue | None:
    """Gaussian, exponential, Γ and incomplete Γ, power, Beta and incomplete Beta, beta of the second kind: the
    rules on L's canonical form (:func:`_by_shape`)."""
    return _by_shape(i.shape, i.lo, i.hi, i.hyp) if i.shape is not None else None


def _quadratic_powers_rule(i: Integrand) -> PieceValue | None:
    """Powers of quadratics on the whole line (Cauchy, Student t): :mod:`rdpsym.engine.quadratic_logs`."""
    return _quadratic_powers(i.L, i.x, i.hyp) if i.shape is None and i.whole_line else None


def _centred_gaussian_on_a_quadratics_support_rule(i: Integrand) -> PieceValue | None:
    """A power of a quadratic vanishing at both ends of the piece times a Gaussian centred on it (Epanechnikov or
    semicircle against a Gaussian): Kummer's function."""
    return _centred_gaussian_on_a_quadratics_support(i.L, i.x, i.lo, i.hi, i.hyp) if i.shape is None else None


def _inverse_power_exponential_rule(i: Integrand) -> PieceValue | None:
    """c·log x + Bx + D/x + C on (0, ∞): the generalised inverse Gaussian's Bessel-K integral."""
    if i.shape is not None or not (i.lo == 0 and i.hi is oo):
        return None
    return _inverse_power_exponential(i.L, i.x, i.hyp)


def _periodic_rule(i: Integrand) -> PieceValue | None:
    """a·cos x + b·sin x + C over one period (von Mises): Bessel's integral."""
    if i.shape is not None or not periodic.full_period(i.lo, i.hi):
        return None
    found = periodic.read(i.L, i.x)
    return PieceValue(periodic.integral(*found), sp.true, "Bessel's integral (one period)") if found else None


def _substitution_rule(i: Integrand) -> PieceValue | None:
    """A change of variables t = g(x) under which a rule applies (log-normal, Weibull, Gumbel, ...)."""
    return integrate_by_substitution(i.L, i.x, i.lo, i.hi, i.hyp) if i.hyp.substitutions > 0 else None


def _integer_powers_of_exponential_sums_rule(i: Integrand) -> PieceValue | None:
    """Integer powers of sums of c·e^{p(x)} (mixtures of Gaussian laws at an integer order): term by term
    (:func:`_integer_powers_of_exponential_sums`)."""
    return _integer_powers_of_exponential_sums(i.L, i.x, i.lo, i.hi, i.hyp) if i.shape is None else None


def _halves_rule(i: Integrand) -> PieceValue | None:
    """The whole line as two half-lines, each by the rules (e^{−c x⁴})."""
    return _halves(i.L, i.x, i.hyp) if i.whole_line else None


def _leading_growth(i: Integrand) -> list[sp.Expr] | None:
    """At each infinite end of the piece, c where L there is c·|x|^d plus terms that grow no faster than
    logarithms (d ≥ 1, c an expression: the leading coefficient, its sign flipped at −∞ for odd d); None when L has
    another growth, or none, or c is a number (the rules read those)."""
    x = i.x
    growing = []
    for term in sp.Add.make_args(sp.expand(i.L)):
        if not term.has(x):
            continue
        if term.is_polynomial(x):
            growing.append(term)
            continue
        _, dependent = term.as_independent(x, as_Add=False)
        if not (isinstance(dependent, sp.log) and dependent.args[0].is_polynomial(x)):
            return None  # a growth other than a power's or a logarithm's: not read here
    ends = [e for e in (i.lo, i.hi) if e in (oo, -oo)]
    if not (growing and ends):
        return None
    poly = sp.Poly(sp.Add(*growing), x)
    degree, leading = poly.degree(), poly.LC()
    if degree < 1 or leading.is_number:
        return None
    return [leading if end == oo or degree % 2 == 0 else -leading for end in ends]


def _factored_logs_rule(i: Integrand) -> PieceValue | None:
    """The rules on L's canonical form, where it has one once the logs of polynomials with rational roots off the
    piece are read as their factors' (log(1 − x²) on (−1, 0), a semicircle law's, against a triangular law: two
    incomplete Beta functions, where SymPy's integrate spent its budget).  After the rules that read such a log whole
    (Kummer's function of a semicircle law against a normal one)."""
    if i.shape is not None:
        return None
    shape = i.factored_shape
    return _by_shape(shape, i.lo, i.hi, i.hyp) if shape is not None else None


def _growing_at_an_infinite_end_rule(i: Integrand) -> PieceValue | None:
    """+∞ where e^L grows without bound at an infinite end: L = c·x^d + (terms of logarithmic growth) there, c > 0
    under the hypotheses (the moment above order 1 of a Student t law against a normal one,
    e^{(α−1)x²/2}·(1 + x²/ν)^{−α(ν+1)/2}, α > 1: SymPy's integrate spent its whole budget on it, 24 s of CPU on a
    machine 4.7 times slower than the reference, and found nothing)."""
    leading = i.leading_growth
    if leading and any(i.hyp.is_positive(c) for c in leading):
        return PieceValue(oo, sp.true, "growing at an infinite end")
    return None


#: The rules for ∫ e^L over one piece, in the order they are tried (the first that returns a value wins, the way
#: SymPy's manualintegrate dispatches); after them only SymPy's own integrate, under a budget, with its guards.
#: A new rule is a function of an :class:`Integrand` returning a :class:`PieceValue` or None, added here.
RULES = (_shape_rules, _quadratic_powers_rule, _centred_gaussian_on_a_quadratics_support_rule,
         _inverse_power_exponential_rule, _periodic_rule, _integer_powers_of_exponential_sums_rule,
         _substitution_rule, _halves_rule, _factored_logs_rule, _growing_at_an_infinite_end_rule)


def integrate_exp(L: sp.Expr, x: sp.Symbol, lo: sp.Expr, hi: sp.Expr, hyp: Hypotheses) -> PieceValue:
    """∫_lo^hi exp(L) dx for ``L`` expanded, by the first of :data:`RULES` that applies.

    >>> import sympy as sp
    >>> x = sp.Symbol("x", real=True)
    >>> integrate_exp(-x**2/2, x, -sp.oo, sp.oo, Hypotheses())
    PieceValue(value=sqrt(2)*sqrt(pi), condition=True, rule='gaussian', substitution=None)
    >>> c = sp.Symbol("c", positive=True)
    >>> integrate_exp(-(c + 1)*sp.log(x), x, 1, sp.oo, Hypotheses()).value  # a Pareto tail
    1/c
    """
    x, L = positive_variable(x, L, lo)
    integrand = Integrand(L, x, lo, hi, hyp, log_shape(L, x, lo, hi, hyp))
    for rule in RULES:
        value = rule(integrand)
        if value is not None:
            return value
    if not hyp.fallback:
        raise NoClosedFormError(f"no closed-form rule for ∫ exp({L})")
    reason = (beyond_sympy(L, x) or _confluent_u(integrand) or _convergence_on_a_sign(integrand)
              or _lauricella(integrand))
    if reason is not None:
        raise BeyondSymPy(f"∫ exp({L}) is {reason}: no closed form rdpsym's rules or SymPy find")
    return _sympy_fallback(L, x, lo, hi)


def _confluent_u(i: Integrand) -> str | None:
    """Why ∫ e^{Bx}·|x − r₁|^{c₁}·|x − r₂|^{c₂} over a half-line beyond both roots has no closed form SymPy finds,
    when an exponent is an expression (the order, a parameter), else None.

    With u the distance to the nearer root, d away from the other, it is Γ(c + 1)·d^{c + c' + 1}·U(c + 1,
    c + c' + 2, −B·d) (DLMF 13.4.4), a confluent hypergeometric function of the second kind with expressions for
    parameters, which SymPy has no function for: ``sympy.integrate`` spent its whole budget on the Gamma law
    against a shifted Gamma law at a general order (e^{(5α/2 − 3)x} x^α (x − ½)^{3 − 3α/2}), or returned the
    integral unevaluated after seconds, even where the other exponent is an integer (x^α (x − 1)² e^{−x}: 16 s
    with a budget of 5 on a machine 3.4 times slower than the reference).  With numbers for both exponents SymPy
    does find it (a Meijer G, in a second): those go on to it, and so does a piece between the roots (Kummer's M).

    >>> x, a = sp.Symbol("x", positive=True), sp.Symbol("alpha", positive=True)
    >>> L = -x + a * sp.log(x) + (1 - a) * sp.log(x - 1)
    >>> _confluent_u(Integrand(L, x, 1, oo, Hypotheses(), log_shape(L, x, 1, oo, Hypotheses())))
    'a confluent hypergeometric U (Tricomi) integral with expressions for parameters'
    """
    shape = i.shape
    if shape is None or len(shape.logs) != 2 or oo not in (i.hi, -i.lo) or i.hyp.is_zero(shape.A) is not True \
            or i.hyp.is_zero(shape.B) is True:
        return None
    (c1, _, side1), (c2, _, side2) = shape.logs
    if side1 != side2 or (c1.is_number and c2.is_number):
        return None
    return "a confluent hypergeometric U (Tricomi) integral with expressions for parameters"


def _convergence_on_a_sign(i: Integrand) -> str | None:
    """Why ∫ e^L over a piece with an infinite end gets no value from SymPy, when L there is c·x^d plus terms of
    logarithmic growth and the sign of c is not known from the symbols' own assumptions (SymPy's reading: the
    hypotheses, α < 1 say, are not in them): the integral converges for some values of the order or parameters and
    not for others, and SymPy's value comes with that condition, which is not a value (:func:`_sympy_fallback`
    refuses it), or does not come, after its budget (the moment below order 1 of a Student t law against a normal
    one, e^{(α−1)x²/2}·(1 + x²/ν)^{−α(ν+1)/2}: 24 s of CPU on a machine 4.7 times slower than the reference).

    >>> x, a, nu = sp.Symbol("x", real=True), sp.Symbol("alpha", positive=True), sp.Symbol("nu", positive=True)
    >>> L = (a - 1) * x**2 / 2 - a * (nu + 1) / 2 * sp.log(1 + x**2 / nu)
    >>> _convergence_on_a_sign(Integrand(L, x, -oo, oo, Hypotheses(), None))
    'an integral that converges only where (alpha - 1)/2 < 0 (a condition, not a value)'
    >>> _convergence_on_a_sign(Integrand(-x**2 / 2 + a * sp.log(1 + x**2), x, -oo, oo, Hypotheses(), None)) is None
    True
    """
    for c in i.leading_growth or ():
        if c.is_negative is None and c.is_positive is None:
            return f"an integral that converges only where {sp.factor(c)} < 0 (a condition, not a value)"
    return None


def _lauricella(i: Integrand) -> str | None:
    """Why ∫ Π|x − r|^c over a piece has no closed form SymPy finds, when three or more roots r have exponents c that
    are not integers (numbers, or expressions not known to be) and two of them lie off the piece's finite ends (three
    where an end is infinite): a Lauricella F_D integral, or an elliptic one, in more variables than a ₂F₁.

    Euler's integral of x^a (1 − x)^b (1 − zx)^c, both ends roots, is a ₂F₁, and so is a Mellin convolution over a
    half-line with two roots off its end: SymPy's Meijer G integration takes those (two G functions), and they go on
    to it.  Past them it spent its whole budget and gave up: a semicircle law skewed by 1 + x/2 against a
    triangular law at α = 37/10, (1 − x)^{−0.85}(1 + x)^{1.85}(2 + x)^{3.7} on (0, 1), 24 s of CPU on a machine
    4.8 times slower than the reference.

    >>> x = sp.Symbol("x", real=True)
    >>> c1, c2, c3 = sp.Rational(-17, 20), sp.Rational(37, 20), sp.Rational(37, 10)
    >>> L = c1 * sp.log(1 - x) + c2 * sp.log(1 + x) + c3 * sp.log(2 + x)
    >>> _lauricella(Integrand(L, x, sp.S(0), sp.S(1), Hypotheses(), None))
    'a Lauricella (or elliptic) integral of three non-integer powers of linear factors'
    >>> euler = c1 * sp.log(1 - x) + c2 * sp.log(1 + x) + c3 * sp.log(x)  # (2 + x)^{3.7} → x^{3.7}
    >>> _lauricella(Integrand(euler, x, sp.S(0), sp.S(1), Hypotheses(), None)) is None  # (a ₂F₁)
    True
    """
    shape = i.factored_shape
    if shape is None or i.whole_line:
        return None
    roots = [r for c, r, _ in shape.logs if c.is_integer is not True]
    off_ends = [r for r in roots if not any((r - end).is_zero for end in (i.lo, i.hi) if end.is_finite)]
    if len(roots) < 3 or len(off_ends) < (2 if i.lo.is_finite and i.hi.is_finite else 3):
        return None
    return "a Lauricella (or elliptic) integral of three non-integer powers of linear factors"


def integrate_by_substitution(L: sp.Expr, x: sp.Symbol, lo: sp.Expr, hi: sp.Expr, hyp: Hypotheses):
    """∫_lo^hi e^L dx through the first substitution under which a rule applies, or None.

    The result is the rule's :class:`PieceValue` with the
    substitution attached (the derivation shows the integral in t as a step).
    """
    inner_hyp = hyp.inside_substitution()
    found = substitute(L, x, lo, hi, hyp, True, lambda Lt, t, a, b: integrate_exp(Lt, t, a, b, inner_hyp))
    if found is None:
        return None
    substitution, value = found
    return PieceValue(value.value, value.condition, value.rule, substitution)


def _halves(L: sp.Expr, x: sp.Symbol, hyp: Hypotheses) -> PieceValue | None:
    """∫_ℝ e^L as ∫_0^∞ e^{L(x)} + ∫_0^∞ e^{L(−x)}, each half by the rules (no SymPy fallback), or None.

    A whole-line integral no rule reads whole (e^{−c x⁴}, the generalised Gaussian of shape 4) is often
    two half-line integrals a rule does read (t = x⁴ makes each a Γ integral): the same integral must
    derive whether its shape is a symbol or the number 4.  Diverges when either half does.

    >>> x = sp.Symbol("x", real=True)
    >>> integrate_exp(-x**4, x, -oo, oo, Hypotheses()).value  # 2Γ(5/4)
    gamma(1/4)/2
    >>> integrate_exp(x**4, x, -oo, oo, Hypotheses()).value
    oo
    """
    rules_only = hyp.without_fallback()
    halves = []
    for half in (L, sp.expand(L.xreplace({x: -x}))):
        try:
            halves.append(integrate_exp(half, x, sp.S.Zero, oo, rules_only))
        except NoClosedFormError:
            return None
    if any(h.value == oo for h in halves):
        return PieceValue(oo, sp.true, "two half-lines")
    value = halves[0].value + halves[1].value
    condition = sp.And(*[h.condition for h in halves])
    return PieceValue(value, condition, "two half-lines")


#: The most terms :func:`_integer_powers_of_exponential_sums` expands a product of powers into.
EXPANDED_TERMS_CEILING = 64


def _integer_powers_of_exponential_sums(L: sp.Expr, x: sp.Symbol, lo, hi, hyp: Hypotheses) -> PieceValue | None:
    """∫_lo^hi e^L dx for e^L = Π S_k^{n_k}·e^{r(x)}, each n_k a positive integer, each S_k a sum of terms c·e^{p(x)}
    and r a polynomial (so are the p): the multinomial theorem makes e^L a sum of at most
    :data:`EXPANDED_TERMS_CEILING` terms c_j·e^{q_j(x) + r(x)}, each integrated by the rules (no SymPy fallback);
    None when L is not of that form or a term has no closed form.

    A mixture of Gaussian densities at an integer order: ``sympy.integrate`` found ½·N(0, 1) + ½·N(1, ¼) against
    N(0, 1) at α = 2 in 2.5 s (erf terms that cancel), and spent 14 s before giving up where the moment is +∞
    (½·N(0, 1) + ½·N(1, 4)), on a machine 3 times slower than the reference.  A term that diverges makes the sum
    +∞ only when every coefficient is positive; otherwise a diverging term leaves the integral to others.

    >>> x = sp.Symbol("x", real=True)
    >>> L = 2 * sp.log(sp.exp(-x**2) + sp.exp(-(x - 1)**2))
    >>> _integer_powers_of_exponential_sums(L, x, -oo, oo, Hypotheses()).value  # √(2π)·(1 + e^{−1/2})
    sqrt(2)*sqrt(pi)*exp(-1/2) + sqrt(2)*sqrt(pi)
    >>> _integer_powers_of_exponential_sums(L + x**2 + x**2, x, -oo, oo, Hypotheses()).value
    oo
    >>> M = 2 * sp.log(sp.exp(-x**4 + x**3) + sp.exp(x**2))  # e^{2x²} decides, beside terms no rule integrates
    >>> _integer_powers_of_exponential_sums(M, x, -oo, oo, Hypotheses()).value
    oo
    """
    powers, rest = [], sp.S.Zero
    for term in sp.Add.make_args(sp.expand(L)):
        n, g = term.as_independent(x, as_Add=False)
        if isinstance(g, sp.log) and isinstance(g.args[0], sp.Add) and n.is_Integer and n > 0 \
                and all(polynomial_exponent(t, x) is not None for t in g.args[0].args):
            powers.append((g.args[0], int(n)))
        else:
            rest += term
    count = 1
    for S, n in powers:
        count *= math.comb(n + len(S.args) - 1, n)
    if not powers or count > EXPANDED_TERMS_CEILING or not rest.is_polynomial(x):
        return None
    rules_only = hyp.without_fallback()
    values, conditions, all_positive, unknown = [], [], True, False
    for term in sp.Add.make_args(sp.expand(sp.Mul(*[S**n for S, n in powers]))):
        c, e = term.as_independent(x, as_Add=False)
        exponent = polynomial_exponent(e, x)
        if exponent is None:
            return None
        all_positive = all_positive and hyp.is_positive(c) is True
        try:
            piece = integrate_exp(sp.expand(exponent.as_expr() + rest), x, lo, hi, rules_only)
        except NoClosedFormError:
            unknown = True  # (a term of a positive sum that is +∞ still decides the whole)
            continue
        values.append((c, piece.value))
        conditions.append(piece.condition)
    rule = "the multinomial theorem, term by term"
    if all_positive and any(v == oo for _, v in values):
        return PieceValue(oo, sp.true, rule)
    if unknown:
        return None
    if all_positive:
        return PieceValue(sp.Add(*[c * v for c, v in values]), sp.And(*conditions), rule)
    if any(v.has(oo, -oo, sp.zoo) for _, v in values) or any(cond is not sp.true for cond in conditions):
        return None  # a negative coefficient: ∞ − ∞ could not be told apart from a finite value
    return PieceValue(sp.Add(*[c * v for c, v in values]), sp.true, rule)


def positive_variable(x: sp.Symbol, L: sp.Expr, lo: sp.Expr) -> tuple[sp.Symbol, sp.Expr]:
    """On a piece left-bounded by a nonnegative ``lo``, the variable as a positive symbol of the same name.

    Then (x/λ)^k splits into x^k λ^{−k} and log(x^c) into c·log x, which SymPy does only
    for a positive x: the same integral, written so the rules can read it.
    """
    if x.is_positive or lo is -oo or sp.S(lo).is_nonnegative is not True:
        return x, L
    xp = sp.Symbol(x.name, positive=True)
    return xp, sp.expand(sp.expand_log(sp.expand(L.xreplace({x: xp})), force=False))


def _by_shape(shape: LogShape, lo, hi, hyp: Hypotheses) -> PieceValue | None:
    A, B, C = shape.A, shape.B, shape.C
    if not shape.logs:
        if hyp.is_zero(A):
            return _exponential(B, C, lo, hi, hyp)
        return _gaussian(A, B, C, lo, hi, hyp)
    if hyp.is_zero(A) is not True:
        return None
    if len(shape.logs) == 1:
        c, r, side = shape.logs[0]
        if side > 0:
            return _power_exponential(c, r, B, C, lo, hi, hyp)
        # Reflect x ↦ −x: log(r − x) becomes log(y + r), y = −x on (−hi, −lo).
        value = _power_exponential(c, -r, -B, C, -hi, -lo, hyp)
        return value
    if len(shape.logs) == 2 and hyp.is_zero(B):
        (c1, a, s1), (c2, b, s2) = sorted(shape.logs, key=lambda t: -t[2])
        if s1 > 0 > s2:
            return _beta(c1, a, c2, b, C, lo, hi, hyp)
    if len(shape.logs) in (2, 3) and hyp.is_zero(B):
        return _two_binomials(shape.logs, C, lo, hi, hyp)
    return None


#: The largest numerator or denominator of a number in an integrand handed to ``sympy.integrate``.  SymPy's
#: polynomial arithmetic reads e^{k·x} as (e^x)^k: ½·N(0, 1) + ½·N(7.3, 10⁻¹⁶) has k ≈ 7·10¹⁶ in its exponent, and
#: the heuristic gcd then raised a number to that power, which GMP cannot hold: it aborted the process (SIGABRT,
#: "gmp: overflow in mpz type"), past any budget or ``except`` (a probe).  Below 10⁶ such a power costs at most
#: a few megabytes; above it the integral is left to the numeric route, labelled as such.
SYMPY_COEFFICIENT_CEILING = 10**6


def _sympy_fallback(L, x, lo, hi) -> PieceValue:
    number = max(L.atoms(sp.Rational), key=lambda r: max(abs(r.p), r.q), default=sp.S.Zero)
    if max(abs(number.p), number.q) > SYMPY_COEFFICIENT_CEILING:
        raise NoClosedFormError(f"the integrand holds the number {number}, past what sympy.integrate's polynomial "
                                f"arithmetic is given ({SYMPY_COEFFICIENT_CEILING} in a numerator or denominator): a "
                                "power of it could abort the process")
    result = budgeted(lambda: sp.integrate(sp.exp(L), (x, lo, hi), conds="separate"), "sympy.integrate")
    value, condition = result if isinstance(result, tuple) else (result, sp.true)
    if value.has(sp.Integral) or value.has(sp.nan):
        raise NoClosedFormError(f"sympy.integrate left ∫ exp({L}) unevaluated")
    if condition is not sp.true:
        # SymPy's conditions are sufficient, not necessary: we cannot claim "else ∞".
        raise NoClosedFormError(f"sympy.integrate needs the condition {condition}")
    if value != oo and (value.is_positive is False or value.has(sp.zoo, -oo)):
        # e^L > 0 on the piece, so its integral is positive or +∞: SymPy's 0 for ∫_ℝ e^{x⁴} (oo − oo
        # somewhere inside) is not a value.
        raise NoClosedFormError(f"sympy.integrate gave {value} for the positive integrand exp({L})")
    return PieceValue(value, sp.true, "sympy.integrate")


__all__ = ["LogShape", "integrate_by_substitution", "integrate_exp", "log_shape", "positive_variable"]
