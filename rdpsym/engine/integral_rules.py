"""The closed-form rules for ∫ exp(L) over one piece: one textbook identity each, with its convergence condition.

Each rule takes the coefficients :func:`rdpsym.engine.integrals.log_shape` read
off ``L`` (or ``L`` itself, for the shapes read whole: powers of quadratics,
the generalised inverse Gaussian) and returns a
:class:`~rdpsym.engine.piece_value.PieceValue`, or None when its shape does
not apply; the list of rules and their formulas is in
:mod:`rdpsym.engine.integrals`, whose :func:`~rdpsym.engine.integrals.integrate_exp`
picks the rule.  Kept apart from that dispatcher (which also reads the shape,
changes variables and falls back on SymPy) so that each is read on its own.
"""

from __future__ import annotations

import sympy as sp

from rdpsym.engine import quadratic_logs
from rdpsym.engine.context import Hypotheses
from rdpsym.engine.piece_value import PieceValue, _decided
from rdpsym.engine.quadratic import quadratic_coefficients
from rdpsym.foundations.budget import budgeted

oo = sp.oo


def _two_binomials(logs, C, lo, hi, hyp: Hypotheses) -> PieceValue | None:
    """∫_0^∞ t^{s−1} (t + u)^{−p} (t + v)^{−q} e^C dt, u, v > 0: Euler's integral for ₂F₁,

        u^{s−p} v^{−q} B(s, p + q − s) ₂F₁(q, s; p + q; 1 − u/v)   (s > 0, p + q − s > 0, else ∞)

    (t = u·y, then Gradshteyn–Ryzhik 3.197.5), expanded by ``hyperexpand`` where it can be: logistic
    laws after t = e^{−x} meet (1 + t)^{−2α} (1 + ct)^{2α−2}, whose ₂F₁ is elementary.

    >>> from rdpsym.engine.integrals import integrate_exp
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

    >>> from rdpsym.engine.integrals import integrate_exp
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


def _centred_gaussian_on_a_quadratics_support(L: sp.Expr, x: sp.Symbol, lo, hi, hyp: Hypotheses) -> PieceValue | None:
    """∫_lo^hi q(x)^c e^{A x² + B x + C} dx where q is a quadratic vanishing at both ends (q = k·(r² − (x − m)²),
    m and r the piece's centre and half-width, k > 0) and the Gaussian factor is centred at m (B = −2Am):

        k^c·e^{C − A m²}·r^{2c + 1}·B(½, c + 1)·₁F₁(½; c + 3/2; A r²)   (c > −1, else ∞)

    (u = x − m, then v = u²/r²: Euler's integral for Kummer's function, DLMF 13.4.1).  An Epanechnikov or
    semicircle law against a Gaussian centred on it; SymPy spent its whole budget on e^{−x²/3}(1 − x²)^{1/3}.

    >>> from rdpsym.engine.integrals import integrate_exp
    >>> x = sp.Symbol("x", real=True)
    >>> integrate_exp(-x**2 + sp.log(1 - x**2) / 2, x, -1, 1, Hypotheses()).value
    pi*hyper((1/2,), (2,), -1)/2
    """
    lo, hi = sp.S(lo), sp.S(hi)
    if lo in (oo, -oo) or hi in (oo, -oo):
        return None
    L = sp.expand(L)
    logs = [g for g in L.atoms(sp.log) if g.has(x)]
    if len(logs) != 1 or not logs[0].args[0].is_polynomial(x):
        return None
    g = logs[0]
    q = sp.Poly(g.args[0], x)
    c = L.coeff(g)
    rest = sp.expand(L - c * g)
    gaussian = None if c.has(x) or rest.has(g) else quadratic_coefficients(rest, (x,))  # rest = −½·a·x² + b·x + C
    k = -q.LC()
    if gaussian is None or q.degree() != 2 or hyp.is_positive(k) is not True \
            or any(sp.expand(g.args[0].subs(x, end)) != 0 for end in (lo, hi)):
        return None
    a, b, C = gaussian
    A, B = -a[0, 0] / 2, b[0, 0]
    m, r = (lo + hi) / 2, (hi - lo) / 2
    if sp.expand(B + 2 * A * m) != 0 or hyp.is_positive(r) is not True:
        return None
    # (No Gaussian, A = 0: ₁F₁ = 1, left out so the form stays a Beta value SymPy differentiates in c: the KL's
    # E_P[log q] of an Epanechnikov law is d/dt of it at t = 0.)
    kummer = sp.S.One if hyp.is_zero(A) else sp.hyper([sp.S.Half], [c + sp.Rational(3, 2)], A * r**2)
    euler_beta = sp.sqrt(sp.pi) * sp.gamma(c + 1) / sp.gamma(c + sp.Rational(3, 2))  # B(½, c + 1)
    value = k**c * sp.exp(C - A * m**2) * r ** (2 * c + 1) * euler_beta * kummer
    return _decided(value, c > -1, "Kummer's function (Euler's integral)", hyp)


def _inverse_power_exponential(L: sp.Expr, x: sp.Symbol, hyp: Hypotheses) -> PieceValue | None:
    """∫_0^∞ x^c e^{Bx + D/x + C} dx, D not known to be 0 (inverse Gaussian and generalised inverse Gaussian laws):
    with β = −D, γ = −B, ν = c + 1 (Gradshteyn–Ryzhik 3.471.9),

        2 (β/γ)^{ν/2} K_ν(2√(βγ)) e^C            (β > 0, γ > 0),
        Γ(−ν) β^ν e^C                            (β > 0, γ = 0, ν < 0: t = 1/x gives a Γ integral),

    and ∞ otherwise (e^{D/x} blows up at 0⁺ when D > 0; e^{Bx} at ∞ when B > 0).  K_ν at a half-integer
    ν is elementary and written so (the inverse Gaussian's ν = −1/2: √(π/(2z)) e^{−z}).

    >>> from rdpsym.engine.integrals import integrate_exp
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
    d_zero = hyp.is_zero(D)
    if d_zero is True:
        return None
    nu, beta, gamma = c + 1, -D, -B
    rule = "generalised inverse Gaussian (Bessel K)"
    if hyp.is_positive(beta) is False and d_zero is False:
        return PieceValue(oo, sp.true, rule)
    value = _bessel_k_integral(nu, beta, gamma, C, rule, hyp)
    if d_zero is False:
        return value
    # D may vanish (inverse Gaussian laws with symbolic shapes, at an order where their 1/x terms cancel): there
    # the integral is Γ's, ∫_0^∞ x^c e^{Bx + C} = Γ(ν)(−B)^{−ν} e^C, finite iff ν > 0 and B < 0.
    away = value.value if value.condition is sp.true else sp.Piecewise((value.value, value.condition), (oo, True))
    return PieceValue(sp.Piecewise((away, sp.Ne(D, 0)),
                                   (sp.gamma(nu) * gamma ** (-nu) * sp.exp(C), sp.And(nu > 0, B < 0)),
                                   (oo, True)), sp.true, rule)


def _bessel_k_integral(nu, beta, gamma, C, rule: str, hyp: Hypotheses) -> PieceValue:
    """∫_0^∞ x^{ν−1} e^{−γx − β/x + C} for β ≠ 0 (:func:`_inverse_power_exponential`), with its condition."""
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
    if s.is_integer and hyp.is_positive(s) is False:
        # ₁F₁(s; s + 1; ·) has a pole at s = 0, −1, −2, …: there the exponential integral's recurrence.
        return _exponential_integral(1 - s, B, ul, uh, scale, hyp)
    if hyp.is_zero(s) is not False or (s.is_integer and hyp.is_positive(s) is not True):
        return None
    return PieceValue(scale * (F(uh) - F(ul)), sp.true, "incomplete gamma (Kummer)")


#: The largest n for which ∫ u^{−n} e^{Bu} du is written out by its recurrence (n terms); past it the integral is
#: left to the numeric route.
EXPONENTIAL_INTEGRAL_TERMS = 64


def _exponential_integral(n, B, ul, uh, scale, hyp: Hypotheses) -> PieceValue | None:
    """∫_{ul}^{uh} u^{−n} e^{Bu} du (times ``scale``), n = 1, 2, …, 0 < ul < uh < ∞, B ≠ 0: with
    I₁(u) = Ei(Bu) and, integrating by parts (DLMF 6.2.5 with 6.2.6's recurrence),

        Iₙ(u) = −u^{1−n} e^{Bu}/(n − 1) + B/(n − 1)·Iₙ₋₁(u),

    an antiderivative on u > 0 for either sign of B (Ei is real off 0, and Bu keeps one sign), Iₙ(uh) − Iₙ(ul).
    A truncated Pareto law against a Laplace law meets e^u u^{−8} at α = 2 (fuzz seed 21, case 38), where the
    Kummer form has a pole and ``sympy.integrate`` did not finish in its budget.

    >>> from rdpsym.engine.integrals import integrate_exp
    >>> x = sp.Symbol("x", positive=True)
    >>> integrate_exp(x - 2 * sp.log(x), x, 1, 2, Hypotheses()).value
    -exp(2)/2 - Ei(1) + E + Ei(2)
    """
    if not (n.is_Integer and 1 <= n <= EXPONENTIAL_INTEGRAL_TERMS) or ul == 0 or hyp.is_zero(B) is not False:
        return None

    def antiderivative(u):
        value = sp.Ei(B * u)
        for m in range(2, int(n) + 1):
            value = -u ** (1 - m) * sp.exp(B * u) / (m - 1) + B / (m - 1) * value
        return value

    return PieceValue(scale * (antiderivative(uh) - antiderivative(ul)), sp.true, "exponential integral")


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
