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

When no rule applies, :mod:`rdpsym.engine.transform` looks for a change of
variables t = g(x) under which one does (log-normal, Weibull, Rayleigh,
Gumbel, ...), and only then is ``sympy.integrate`` tried, under a time budget.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from rdpsym.engine import periodic, quadratic_logs
from rdpsym.engine.context import Hypotheses
from rdpsym.engine.transform import substitute
from rdpsym.foundations.budget import budgeted
from rdpsym.foundations.errors import NoClosedFormError

oo = sp.oo


@dataclass(frozen=True)
class PieceValue:
    """One piece's integral: ``value`` when ``condition`` holds, else +∞.

    ``substitution`` is the change of variables the piece was integrated in
    (a :class:`rdpsym.engine.transform.Substitution`), or None.
    """

    value: sp.Expr
    condition: sp.Basic
    rule: str
    substitution: object = None


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


def log_shape(L: sp.Expr, x: sp.Symbol, lo: sp.Expr, hi: sp.Expr, hyp: Hypotheses) -> LogShape | None:
    """Read ``L`` as Σ c·log|x − r| + A x² + B x + C on (lo, hi), or None.

    log(s·(x − r)) is log|s| + log|x − r| with the side read from the sign of s
    (the argument is positive on the piece); the coefficients c must be free of x.
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
        if not u.is_polynomial(x) or sp.Poly(u, x).degree() != 1:
            return None
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


def integrate_exp(L: sp.Expr, x: sp.Symbol, lo: sp.Expr, hi: sp.Expr, hyp: Hypotheses) -> PieceValue:
    """∫_lo^hi exp(L) dx for ``L`` expanded, by the first rule that applies.

    >>> import sympy as sp
    >>> x = sp.Symbol("x", real=True)
    >>> integrate_exp(-x**2/2, x, -sp.oo, sp.oo, Hypotheses())
    PieceValue(value=sqrt(2)*sqrt(pi), condition=True, rule='gaussian', substitution=None)
    >>> c = sp.Symbol("c", positive=True)
    >>> integrate_exp(-(c + 1)*sp.log(x), x, 1, sp.oo, Hypotheses()).value  # a Pareto tail
    1/c
    """
    x, L = positive_variable(x, L, lo)
    shape = log_shape(L, x, lo, hi, hyp)
    if shape is not None:
        value = _by_shape(shape, lo, hi, hyp)
        if value is not None:
            return value
    elif lo is -oo and hi is oo:
        value = _quadratic_powers(L, x, hyp)
        if value is not None:
            return value
    elif lo == 0 and hi is oo:
        value = _inverse_power_exponential(L, x, hyp)
        if value is not None:
            return value
    elif periodic.full_period(lo, hi):
        found = periodic.read(L, x)
        if found is not None:
            return PieceValue(periodic.integral(*found), sp.true, "Bessel's integral (one period)")
    if hyp.substitutions > 0:
        value = integrate_by_substitution(L, x, lo, hi, hyp)
        if value is not None:
            return value
    if lo is -oo and hi is oo:
        value = _halves(L, x, hyp)
        if value is not None:
            return value
    if not hyp.fallback:
        raise NoClosedFormError(f"no closed-form rule for ∫ exp({L})")
    if _mixed_polynomial(L, x):
        # e^{a x⁴ + b x³ + …}: no elementary or special-function closed form; SymPy would spend its budget.
        raise NoClosedFormError(f"∫ exp({L}) is a polynomial of degree > 2 in the exponent: no closed form")
    return _sympy_fallback(L, x, lo, hi)


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


def _mixed_polynomial(L: sp.Expr, x: sp.Symbol) -> bool:
    """Whether L is a polynomial in x of degree > 2 with more than one power of x (e^{−x⁴} alone is a Γ value)."""
    if not L.is_polynomial(x):
        return False
    poly = sp.Poly(L, x)
    return poly.degree() > 2 and len([m for m in poly.monoms() if m[0] > 0]) > 1


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


def _two_binomials(logs, C, lo, hi, hyp: Hypotheses) -> PieceValue | None:
    """∫_0^∞ t^{s−1} (t + u)^{−p} (t + v)^{−q} e^C dt, u, v > 0: Euler's integral for ₂F₁,

        u^{s−p} v^{−q} B(s, p + q − s) ₂F₁(q, s; p + q; 1 − u/v)   (s > 0, p + q − s > 0, else ∞)

    (t = u·y, then Gradshteyn–Ryzhik 3.197.5), expanded by ``hyperexpand`` where it can be: logistic
    laws after t = e^{−x} meet (1 + t)^{−2α} (1 + ct)^{2α−2}, whose ₂F₁ is elementary.

    >>> t = sp.Symbol("t", positive=True)
    >>> integrate_exp(-sp.log(1 + t) - sp.log(2 + t), t, 0, oo, Hypotheses()).value  # ∫ dt/((1 + t)(2 + t))
    log(2)
    """
    if not (lo == 0 and hi is oo) or any(side < 0 for _, _, side in logs):
        return None
    power = [c for c, r, _ in logs if r == 0]
    shifted = [(c, -r) for c, r, _ in logs if r != 0]
    if len(power) > 1 or len(shifted) not in (1, 2) or any(hyp.is_positive(u) is not True for _, u in shifted):
        return None
    s = (power[0] if power else sp.S.Zero) + 1
    if len(shifted) == 1:
        # ∫_0^∞ t^{s−1} (t + u)^{−p} dt = u^{s−p} B(s, p − s) (t = u·y, then Euler's beta integral of the second
        # kind): the beta prime law's moment, at any parameters.
        (c, u) = shifted[0]
        p = -c
        converges = sp.And(s > 0, p - s > 0)
        if hyp.holds(converges) is False:
            return PieceValue(oo, sp.true, "beta (second kind)")
        return _decided(sp.exp(C) * u ** (s - p) * sp.beta(s, p - s), converges, "beta (second kind)", hyp)
    (c1, u), (c2, v) = shifted
    p, q = -c1, -c2
    converges = sp.And(s > 0, p + q - s > 0)
    if hyp.holds(converges) is False:
        return PieceValue(oo, sp.true, "hypergeometric (Euler)")
    series = sp.hyper([q, s], [p + q], 1 - u / v)
    expanded = budgeted(lambda: sp.hyperexpand(series), "hyperexpand", seconds=2.0)
    value = sp.exp(C) * u ** (s - p) * v ** (-q) * sp.beta(s, p + q - s) * expanded
    return _decided(value, converges, "hypergeometric (Euler)", hyp)


def _quadratic_powers(L: sp.Expr, x: sp.Symbol, hyp: Hypotheses) -> PieceValue | None:
    """∫_ℝ e^L for L = C + Σ c·log((x − μ)² + γ²) (Cauchy and Student t laws): one quadratic, or two
    whose exponents add up to −1 (a Legendre function; see :mod:`rdpsym.engine.quadratic_logs`).

    >>> x = sp.Symbol("x", real=True)
    >>> integrate_exp(-sp.log(x**2 + 1), x, -oo, oo, Hypotheses()).value
    pi
    >>> a = sp.Symbol("alpha", positive=True)
    >>> integrate_exp(-a * sp.log(x**2 + 1) + (a - 1) * sp.log(x**2 - 2*x + 2), x, -oo, oo, Hypotheses()).value
    pi*legendre(alpha - 1, 3/2)
    """
    read = quadratic_logs.read(L, x, hyp)
    if read is None:
        return None
    if len(read.factors) == 1:
        (c, _, g2), = read.factors
        value, converges = quadratic_logs.one_quadratic(-c, g2)
        if hyp.holds(converges) is False:
            return PieceValue(oo, sp.true, "power of a quadratic")
        return _decided(sp.exp(read.C) * value, converges, "power of a quadratic", hyp)
    if len(read.factors) != 2 or hyp.is_zero(read.factors[0][0] + read.factors[1][0] + 1) is not True:
        return None  # two powers not summing to −1 (Student t laws): an Appell function, no rule
    # P's factor first (its exponent −α is the negative one), so the degree reads α − 1, not −α.
    (c1, mu1, g1), (c2, mu2, g2) = sorted(read.factors, key=lambda f: hyp.is_negative(f[0]) is not True)
    value = quadratic_logs.two_quadratics(-c1, (mu1, g1), (mu2, g2))
    return PieceValue(sp.powsimp(sp.exp(read.C) * value), sp.true, "Legendre function (Laplace's integral)")


def _inverse_power_exponential(L: sp.Expr, x: sp.Symbol, hyp: Hypotheses) -> PieceValue | None:
    """∫_0^∞ x^c e^{Bx + D/x + C} dx, D ≠ 0 (inverse Gaussian and generalised inverse Gaussian laws):
    with β = −D, γ = −B, ν = c + 1 (Gradshteyn–Ryzhik 3.471.9),

        2 (β/γ)^{ν/2} K_ν(2√(βγ)) e^C            (β > 0, γ > 0),
        Γ(−ν) β^ν e^C                            (β > 0, γ = 0, ν < 0: t = 1/x gives a Γ integral),

    and ∞ otherwise (e^{D/x} blows up at 0⁺ when D > 0; e^{Bx} at ∞ when B > 0).  K_ν at a half-integer
    ν is elementary and written so (the inverse Gaussian's ν = −1/2: √(π/(2z)) e^{−z}).

    >>> x = sp.Symbol("x", positive=True)
    >>> integrate_exp(-sp.Rational(3, 2) * sp.log(x) - x - 1 / x, x, 0, oo, Hypotheses()).value
    sqrt(pi)*exp(-2)
    """
    c, B, D, C = sp.S.Zero, sp.S.Zero, sp.S.Zero, sp.S.Zero
    for term in sp.Add.make_args(sp.expand(L)):
        coeff, rest = term.as_independent(x, as_Add=False)
        if rest == 1:
            C += term
        elif rest == sp.log(x):
            c += coeff
        elif rest == x:
            B += coeff
        elif rest == 1 / x:
            D += coeff
        else:
            return None
    if hyp.is_zero(D) is not False:
        return None
    nu, beta, gamma = c + 1, -D, -B
    rule = "generalised inverse Gaussian (Bessel K)"
    if hyp.is_positive(beta) is False:
        return PieceValue(oo, sp.true, rule)
    # Simplified with β, γ positive (where this branch holds): for the inverse Gaussian it is √π e^{−2√(βγ)}/√β.
    b, g = sp.Dummy("beta", positive=True), sp.Dummy("gamma", positive=True)
    form = sp.powsimp(sp.powdenest(2 * (b / g) ** (nu / 2) * _bessel_k(nu, 2 * sp.sqrt(b * g)), force=True))
    bessel = form.xreplace({b: beta, g: gamma}) * sp.exp(C)
    if hyp.is_positive(gamma):
        return _decided(bessel, beta > 0, rule, hyp)
    at_zero = sp.gamma(-nu) * beta**nu * sp.exp(C)
    value = sp.Piecewise((bessel, gamma > 0), (at_zero, True))
    return _decided(value, sp.And(beta > 0, sp.Or(gamma > 0, sp.And(sp.Eq(gamma, 0), nu < 0))), rule, hyp)


def _bessel_k(nu: sp.Expr, z: sp.Expr) -> sp.Expr:
    """K_ν(z), elementary when ν is half an odd integer: K_{n+½}(z) = √(π/(2z)) e^{−z} Σ_{k≤n} (n+k)!/(k!(n−k)!)
    (2z)^{−k} (DLMF 10.49.12; K_{−ν} = K_ν); else SymPy's besselk."""
    twice = 2 * nu
    if not (twice.is_Integer and twice % 2 == 1):
        return sp.besselk(nu, z)
    n = int(abs(nu) - sp.S.Half)
    series = sp.Add(*[sp.factorial(n + k) / (sp.factorial(k) * sp.factorial(n - k)) * (2 * z) ** (-k)
                      for k in range(n + 1)])
    return sp.sqrt(sp.pi / (2 * z)) * sp.exp(-z) * series


def _exponential(B, C, lo, hi, hyp: Hypotheses) -> PieceValue:
    b_zero = hyp.is_zero(B)
    if b_zero:
        if lo is -oo or hi is oo:
            return PieceValue(oo, sp.true, "constant")
        return PieceValue(sp.exp(C) * (hi - lo), sp.true, "constant")
    upper = sp.S.Zero if hi is oo else sp.exp(B * hi + C) / B
    lower = sp.S.Zero if lo is -oo else sp.exp(B * lo + C) / B
    value = upper - lower
    conditions = []
    if hi is oo:
        conditions.append(B < 0)
    if lo is -oo:
        conditions.append(B > 0)
    if len(conditions) == 2:
        return PieceValue(oo, sp.true, "exponential")
    condition = sp.And(*conditions) if conditions else sp.true
    if not conditions and b_zero is None:
        value = sp.Piecewise((value, sp.Ne(B, 0)), (sp.exp(C) * (hi - lo), True))
    return _decided(value, condition, "exponential", hyp)


def _gaussian(A, B, C, lo, hi, hyp: Hypotheses) -> PieceValue:
    negative = hyp.is_negative(A)
    if negative is False and (lo is -oo or hi is oo):
        return PieceValue(oo, sp.true, "gaussian")
    if negative is None and not (lo is -oo and hi is oo):
        # On a half-line (or finite piece) the sign of A is not the whole story:
        # A = 0 leaves an exponential that may still converge.  Give every case.
        linear = _exponential(B, C, lo, hi, hyp)
        linear_value = linear.value if linear.condition is sp.true else sp.Piecewise(
            (linear.value, linear.condition), (oo, True))
        cases = [(_gaussian_negative(A, B, C, lo, hi), A < 0)]
        if lo is not -oo and hi is not oo:
            cases.append((_gaussian_positive(A, B, C, lo, hi), A > 0))
        value = sp.Piecewise(*cases, (linear_value, sp.Eq(A, 0)), (oo, True))
        return PieceValue(value, sp.true, "gaussian (by the sign of the quadratic coefficient)")
    if negative is False:
        return PieceValue(_gaussian_positive(A, B, C, lo, hi), sp.true, "gaussian (erfi)")
    return _decided(_gaussian_negative(A, B, C, lo, hi), A < 0, "gaussian", hyp)


def _gaussian_positive(A, B, C, lo, hi) -> sp.Expr:
    """∫ exp(A x² + B x + C) over a finite (lo, hi) for A > 0, with erfi."""
    v = -B / (2 * A)
    scale = sp.exp(C - B**2 / (4 * A)) * sp.sqrt(sp.pi / A) / 2
    return scale * (sp.erfi(sp.sqrt(A) * (hi - v)) - sp.erfi(sp.sqrt(A) * (lo - v)))


def _gaussian_negative(A, B, C, lo, hi) -> sp.Expr:
    """∫ exp(A x² + B x + C) over (lo, hi) for A < 0: erf/erfc of the completed square."""
    a = -A
    v = B / (2 * a)
    peak = sp.exp(C + B**2 / (4 * a))
    root = sp.sqrt(sp.pi / a)
    if lo is -oo and hi is oo:
        return peak * root
    if hi is oo:
        return peak * root / 2 * sp.erfc(sp.sqrt(a) * (lo - v))
    if lo is -oo:
        return peak * root / 2 * sp.erfc(sp.sqrt(a) * (v - hi))
    return peak * root / 2 * (sp.erf(sp.sqrt(a) * (hi - v)) - sp.erf(sp.sqrt(a) * (lo - v)))


def _same(a: sp.Expr, b: sp.Expr) -> bool:
    if a == b:
        return True
    if a in (oo, -oo) or b in (oo, -oo):
        return False
    return sp.expand(a - b) == 0 or sp.simplify(a - b) == 0


def _power_exponential(c, r, B, C, lo, hi, hyp: Hypotheses) -> PieceValue | None:
    """∫_lo^hi (x − r)^c e^{Bx + C} dx with r ≤ lo: the gamma family (complete or incomplete) and powers."""
    if lo is -oo:
        return None
    ul = sp.S.Zero if _same(lo, r) else sp.expand(lo - r)
    uh = oo if hi is oo else sp.expand(hi - r)
    if ul != 0 and hyp.is_positive(ul) is not True:
        return None  # the root must lie at or left of the piece
    scale = sp.exp(C + B * r)
    b_zero = hyp.is_zero(B)
    if b_zero:
        return _power(c, ul, uh, sp.exp(C), hyp)
    s = c + 1
    if uh is not oo and hyp.is_negative(B) is not True:
        return _kummer(s, B, ul, uh, scale, hyp)
    if uh is oo:
        if ul == 0:
            return _decided(scale * sp.gamma(s) / (-B) ** s, sp.And(c > -1, B < 0), "gamma", hyp)
        value = scale * sp.uppergamma(s, -B * ul) / (-B) ** s
        return _decided(value, B < 0, "incomplete gamma", hyp)
    if ul == 0:
        value = scale * sp.lowergamma(s, -B * uh) / (-B) ** s
        return _decided(value, c > -1, "incomplete gamma", hyp)
    value = scale * (sp.uppergamma(s, -B * ul) - sp.uppergamma(s, -B * uh)) / (-B) ** s
    return PieceValue(value, sp.true, "incomplete gamma")


def _kummer(s, B, ul, uh, scale, hyp: Hypotheses) -> PieceValue | None:
    """∫_{ul}^{uh} u^{s−1} e^{Bu} du (times ``scale``) on a finite piece where B is not known negative: with
    F(h) = h^s/s·₁F₁(s; s + 1; B·h), an antiderivative for every real B (DLMF 8.5.1: γ(s, z) =
    z^s M(s, s + 1, −z)/s), F(uh) − F(ul), real where the gamma forms would take Γ at a negative argument
    (e^{−αx}(3 − 2x)^{1−α} below α = 1: B = α > 0 after the reflection).  Needs s > 0 at ul = 0, s ≠ 0 else."""
    def F(h):
        return h**s / s * sp.hyper([s], [s + 1], B * h)

    if ul == 0:
        return _decided(scale * F(uh), s > 0, "incomplete gamma (Kummer)", hyp)
    if hyp.is_zero(s) is not False:
        return None
    return PieceValue(scale * (F(uh) - F(ul)), sp.true, "incomplete gamma (Kummer)")


def _power(c, ul, uh, scale, hyp: Hypotheses) -> PieceValue:
    """∫_{ul}^{uh} u^c du (times ``scale``), 0 ≤ ul < uh ≤ ∞."""
    s = c + 1
    if ul == 0 and uh is oo:
        return PieceValue(oo, sp.true, "power")
    if uh is oo:
        return _decided(-scale * ul**s / s, c < -1, "power", hyp)
    if ul == 0:
        return _decided(scale * uh**s / s, c > -1, "power", hyp)
    value = scale * (uh**s - ul**s) / s
    at_minus_one = hyp.is_zero(s)
    if at_minus_one:
        return PieceValue(scale * (sp.log(uh) - sp.log(ul)), sp.true, "power (logarithm)")
    if at_minus_one is None:
        value = sp.Piecewise((value, sp.Ne(c, -1)), (scale * (sp.log(uh) - sp.log(ul)), True))
    return PieceValue(value, sp.true, "power")


def _beta(c1, a, c2, b, C, lo, hi, hyp: Hypotheses) -> PieceValue | None:
    """∫_lo^hi (x − a)^{c1} (b − x)^{c2} e^C dx with a ≤ lo < hi ≤ b: Euler's beta integral, or its incomplete form."""
    if lo is -oo or hi is oo:
        return None
    at_a, at_b = _same(lo, a), _same(hi, b)
    if not at_a and hyp.is_positive(lo - a) is not True or not at_b and hyp.is_positive(b - hi) is not True:
        return None
    width = b - a
    scale = sp.exp(C) * width ** (c1 + c2 + 1)
    if at_a and at_b:
        return _decided(scale * sp.beta(c1 + 1, c2 + 1), sp.And(c1 > -1, c2 > -1), "beta", hyp)
    zl = sp.S.Zero if at_a else sp.cancel((lo - a) / width)
    zh = sp.S.One if at_b else sp.cancel((hi - a) / width)
    conditions = ([c1 > -1] if at_a else []) + ([c2 > -1] if at_b else [])
    return _decided(scale * sp.betainc(c1 + 1, c2 + 1, zl, zh), sp.And(*conditions), "incomplete beta", hyp)


def _decided(value, condition, rule, hyp: Hypotheses) -> PieceValue:
    truth = hyp.holds(condition)
    if truth is True:
        return PieceValue(value, sp.true, rule)
    if truth is False:
        return PieceValue(oo, sp.true, rule)
    return PieceValue(value, condition, rule)


def _sympy_fallback(L, x, lo, hi) -> PieceValue:
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


__all__ = ["LogShape", "PieceValue", "integrate_by_substitution", "integrate_exp", "log_shape", "positive_variable"]
