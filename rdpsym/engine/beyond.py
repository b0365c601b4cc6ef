"""Integrals ∫ e^L dx with no closed form SymPy finds, read from the shape of L.

``sympy.integrate`` spends its whole budget on such an integral (5 s, stretched on a slow machine) and gives up,
or returns it unevaluated: :func:`beyond_sympy` names the shape before SymPy is asked, and the derivation goes on
to the definition's labelled value (:class:`rdpsym.foundations.errors.BeyondSymPy`: the laws' family of the
numbers is not tried either, since the same shape with symbols for the numbers has no closed form).  Each reader
is conservative: a neighbouring shape SymPy does integrate (an integer power, one quadratic, a quadratic
exponent, an algebraic sum) is not named.  :mod:`rdpsym.engine.integrals` asks it after its rules.
"""

from __future__ import annotations

import sympy as sp


def beyond_sympy(L: sp.Expr, x: sp.Symbol) -> str | None:
    """What ∫ e^L dx is, when it is an integral with no closed form SymPy would find (it spends its whole budget
    on each, 5 s, and gives up), else None.

    >>> x, t = sp.Symbol("x", real=True), sp.Symbol("t", real=True)
    >>> beyond_sympy(-x**4 + x**3, x)
    'a polynomial of degree > 2 in the exponent'
    >>> beyond_sympy(-sp.Rational(7, 4) * sp.log(x**2 + 1) + t * sp.log(x**2 - 2*x + 2), x)
    'a product of non-integer powers of different quadratics (an Appell-type integral)'
    >>> beyond_sympy(-sp.log(x**2 + 1), x) is None
    True
    """
    if _mixed_polynomial(L, x):
        # e^{a x⁴ + b x³ + …}: no elementary or special-function closed form.
        return "a polynomial of degree > 2 in the exponent"
    if powers_of_distinct_quadratics(L, x):
        # Two Student t laws at different locations.
        return "a product of non-integer powers of different quadratics (an Appell-type integral)"
    return (_power_of_a_transcendental_sum(L, x) or _powers_of_sums_with_powers_of_a_symbol(L, x)
            or _non_integer_power_of_a_gaussian_sum(L, x)
            or _power_of_a_quadratic_beside_a_cubic_exponent(L, x) or _power_of_a_radical_sum_beside_a_gaussian(L, x))


def _mixed_polynomial(L: sp.Expr, x: sp.Symbol) -> bool:
    """Whether L is a polynomial in x of degree > 2 with more than one power of x (e^{−x⁴} alone is a Γ value)."""
    if not L.is_polynomial(x):
        return False
    poly = sp.Poly(L, x)
    return poly.degree() > 2 and len([m for m in poly.monoms() if m[0] > 0]) > 1


def powers_of_distinct_quadratics(L: sp.Expr, x: sp.Symbol) -> bool:
    """Whether e^L = Π q_i(x)^{c_i}·(a constant) with two or more different irreducible quadratics q_i (numeric
    coefficients, not all of one vertex) and exponents c_i that are not integers (numbers that are not, or
    expressions in the order or the parameters not known to be): ∫ over the line is an Appell F₁ value (Euler's
    integral of two such factors), not an elementary or ₂F₁ closed form; the one case with a closed form,
    exponents adding up to −1, is a rule's (``integral_rules._quadratic_powers``) and never reaches here.
    Symbolic exponents are the moment at a general order of two Student t laws (α·(ν + 1)/2), and the generating
    integral of their KL: SymPy spent its budget on each and gave up."""
    quadratics, vertices = set(), set()
    rest = sp.expand(L)
    for g in [g for g in L.atoms(sp.log) if g.has(x)]:
        u = g.args[0]
        if not u.is_polynomial(x):
            return False
        poly = sp.Poly(u, x)
        a, b, c = poly.all_coeffs() if poly.degree() == 2 else (None, None, None)
        coefficient = rest.coeff(g)
        if a is None or not all(v.is_number for v in (a, b, c)) or not b**2 - 4 * a * c < 0 \
                or coefficient.has(x) or coefficient.is_integer is not (False if coefficient.is_number else None):
            return False
        quadratics.add(poly.monic())
        vertices.add(-b / (2 * a))
        rest = sp.expand(rest - coefficient * g)  # a symbolic coefficient cancels only once distributed
    # Quadratics with one vertex (x² + 3 and x² + 6: Student t laws of two scales at one location) are a ₂F₁ in
    # u = (x − v)², which SymPy finds (Meijer G): only different vertices make the Appell integral.
    return len(quadratics) >= 2 and len(vertices) >= 2 and not rest.has(x)


def _powers_of_sums_with_powers_of_a_symbol(L: sp.Expr, x: sp.Symbol) -> str | None:
    """Why e^L = Π S_i^{c_i}·(the rest) has no closed form SymPy finds, when two or more different sums S_i hold
    powers of expressions in x whose exponents are expressions, (x − μ)^k + γ with k a symbol, in two bases that are
    not proportional (x and x − 1), and some power c_i is not a non-negative integer; else None.

    Such sums are the family rdpsym reads a law's numbers in (:mod:`rdpsym.derive.abstraction`): two Cauchy laws
    at order 20000 became ∫ (1 + x^k)^{−20000}·(1 + (x − 1)^k)^{19999}, on which ``sympy.integrate`` spent its whole
    budget (9 s of CPU on a machine 4.8 times slower than the reference) before the definition answered.  Powers
    that are non-negative integers expand into sums SymPy may integrate term by term ((1 + x^a)(1 + (1 − x)^a) on
    (0, 1): Beta values), and sums in one base may cancel to a rational function of x^k: both go on to it.

    >>> x, k = sp.Symbol("x", real=True), sp.Symbol("k", positive=True)
    >>> _powers_of_sums_with_powers_of_a_symbol(-3 * sp.log(1 + x**k) + 2 * sp.log(1 + (x - 1)**k), x)
    'a product of powers of sums holding powers with expressions for exponents (an Appell-type integral)'
    >>> _powers_of_sums_with_powers_of_a_symbol(-3 * sp.log(1 + x**2) + 2 * sp.log(1 + (x - 1)**2), x) is None
    True
    >>> _powers_of_sums_with_powers_of_a_symbol(sp.log(1 + x**k) + sp.log(1 + (1 - x)**k), x) is None
    True
    """
    expanded = sp.expand(L)
    powers, bases = [], []
    for g in expanded.atoms(sp.log):
        S = g.args[0]
        found = [p.base for p in S.atoms(sp.Pow) if p.base.has(x) and not p.exp.is_number] if S.is_Add else []
        if found:
            powers.append(expanded.coeff(g))
            bases.extend(found)
    unlike = any(sp.cancel(b / bases[0]).has(x) for b in bases[1:])
    if len(powers) >= 2 and unlike and any(not (c.is_integer and c.is_nonnegative) for c in powers):
        return "a product of powers of sums holding powers with expressions for exponents (an Appell-type integral)"
    return None


def _power_of_a_transcendental_sum(L: sp.Expr, x: sp.Symbol) -> str | None:
    """Why e^L = S^c·(the rest) has no closed form SymPy finds, when S is a sum holding a transcendental function
    of x (a mixture's density, a logistic law's 1 + e^{−x}, 1 + erf) and its power c is an expression (the order,
    a parameter), else None.

    The rules have already tried the substitutions under which such a power is a Beta integral (t = e^{−x} for
    logistic laws): what is left, ``sympy.integrate`` spent its whole budget on or returned unevaluated after most
    of it (a mixture of two Weibull laws at a general order, 30 s; a logistic law against a reflected
    log-normal one, 21 s; the families of the numbers of a mixture against a Laplace law, 9 s each, on a machine
    3.4 times slower than the reference).  A power that is a number goes on to SymPy (1 + erf(√2·x) to the first
    power is a skew-normal law's mass, which it finds), and so does an algebraic sum (powers of quadratics have
    their own rules and shapes; ∫₀¹ (1 + √x)^{−α} dx is SymPy's).  Some of these have closed forms neither finds:
    a skew-normal law against the normal one at a general order, ∫ φ·(2Φ)^α = 2^α/(α + 1), is left to the
    definition, labelled, as it was after SymPy's budget.

    >>> x, a = sp.Symbol("x", real=True), sp.Symbol("alpha", positive=True)
    >>> _power_of_a_transcendental_sum(-x**2 + a * sp.log(1 + sp.exp(-x)) - a * sp.log(2), x)
    'a power of a sum of transcendental terms with an expression for exponent'
    >>> _power_of_a_transcendental_sum(-x**2 + 3 * sp.log(1 + sp.exp(-x)), x) is None
    True
    >>> _power_of_a_transcendental_sum(-a * sp.log(1 + sp.sqrt(x)), x) is None
    True
    """
    expanded = sp.expand(L)
    for g in expanded.atoms(sp.log):
        S = g.args[0]
        transcendental = any(f.has(x) and not isinstance(f, sp.Abs) for f in S.atoms(sp.Function))
        if S.is_Add and transcendental and not expanded.coeff(g).is_number:
            return "a power of a sum of transcendental terms with an expression for exponent"
    return None


def _non_integer_power_of_a_gaussian_sum(L: sp.Expr, x: sp.Symbol) -> str | None:
    """Why e^L = S^β·(the rest) has no closed form SymPy finds, when β is a number that is not an integer and S a
    sum of two or more Gaussian terms c_i·e^{p_i(x)} (polynomial exponents, one of degree 2 or more, their
    differences p_i − p_j not constant, so no common factor takes the sum out of the power), else None.

    A mixture of Gaussian densities at a non-integer order: :func:`_power_of_a_transcendental_sum` leaves a power
    that is a number to SymPy, and on this one ``sympy.integrate`` spent its whole budget in ``heurisch`` (the
    family of the numbers of ½·N(0, 1) + ½·N(1, 4) against N(0, 1) at α = ½ and 3/2: 15 and 18 s, on a machine 3
    times slower than the reference).  An integer β goes on to SymPy: the binomial theorem makes the power a sum
    of Gaussian integrals.

    >>> x, b = sp.Symbol("x", real=True), sp.Symbol("b", positive=True)
    >>> _non_integer_power_of_a_gaussian_sum(sp.log(sp.exp(-x**2) + b * sp.exp(-(x - 1)**2)) / 2, x)
    'a non-integer power of a sum of Gaussian terms'
    >>> _non_integer_power_of_a_gaussian_sum(2 * sp.log(sp.exp(-x**2) + b * sp.exp(-(x - 1)**2)), x) is None
    True
    >>> _non_integer_power_of_a_gaussian_sum(sp.log(1 + b * sp.exp(-x**2)) / 2, x) is None  # one Gaussian term
    True
    """
    for term in sp.Add.make_args(sp.expand(L)):
        beta, log_s = term.as_independent(x, as_Add=False)
        if not (isinstance(log_s, sp.log) and isinstance(log_s.args[0], sp.Add) and beta.is_number) or beta.is_integer:
            continue
        exponents = [polynomial_exponent(t, x) for t in log_s.args[0].args if t.has(x)]
        if len(exponents) < 2 or None in exponents or max(p.degree() for p in exponents) < 2:
            continue
        if all((p - exponents[0]).degree() >= 1 for p in exponents[1:]):
            return "a non-integer power of a sum of Gaussian terms"
    return None


def _power_of_a_quadratic_beside_a_cubic_exponent(L: sp.Expr, x: sp.Symbol) -> str | None:
    """Why e^L = q(x)^c·e^{p(x)}·(powers of linear factors) has no closed form SymPy finds, when q is a quadratic that
    is not a square, c is not known to be an integer, and p a polynomial of degree 3 or more; else None.

    A Weibull law of shape 3 against a Cauchy one truncated to an interval, at α = ½: t·e^{−t³/(2s³)}·(t² + bt +
    c)^{−½}.  Neither ∫ e^{−t³} nor a power of a quadratic leaves a function SymPy has for their product, and
    ``sympy.integrate`` spent its whole budget on it (12 s, stretched on a machine 2.5 times slower than the
    reference).  A square ((x − a)²)^c is a power of a linear factor (Γ-type integrals, with a substitution), and a
    quadratic exponent is left to SymPy (the whole line's ∫ e^{−a x²}(1 + x²)^{−½} is a Bessel K value).

    >>> x = sp.Symbol("x", positive=True)
    >>> _power_of_a_quadratic_beside_a_cubic_exponent(-x**3 + sp.log(x) - sp.log(x**2 + 1) / 2, x)
    'a non-integer power of a quadratic beside the exponential of a polynomial of degree > 2'
    >>> _power_of_a_quadratic_beside_a_cubic_exponent(-x**3 - sp.log(x**2 - 2*x + 1) / 2, x) is None  # a square
    True
    """
    rest, found = sp.S.Zero, False
    for term in sp.Add.make_args(sp.expand(L)):
        c, g = term.as_independent(x, as_Add=False)
        if not isinstance(g, sp.log):
            rest += term
            continue
        if not g.args[0].is_polynomial(x):
            return None
        u = sp.Poly(g.args[0], x)
        if u.degree() > 2:
            return None
        if u.degree() == 2 and c.is_integer is not True:
            a, b, c0 = u.all_coeffs()
            if sp.cancel(b**2 - 4 * a * c0).is_zero is not False:
                return None  # a square: a power of a linear factor
            found = True
    if found and rest.is_polynomial(x) and sp.Poly(rest, x).degree() >= 3:
        return "a non-integer power of a quadratic beside the exponential of a polynomial of degree > 2"
    return None


def _power_of_a_radical_sum_beside_a_gaussian(L: sp.Expr, x: sp.Symbol) -> str | None:
    """Why e^L = (A + B)^β·e^{p(x)} has no closed form SymPy finds, else None.  The shape: β a number that is not an
    integer; A = a·e^{q_A(x)} and B = b·e^{q_B(x)}·u(x)^r with q_A, q_B polynomials, u of degree 1 and r not known to
    be an integer (a radical); and e^{p + β·q_A}, in y = u(x), the exponential of a polynomial of degree 2 or more
    with at least two powers of y.

    A Gaussian law against a mixture with a Gamma(½) component, at α = ½: e^{−(x + 3)²/4}·(e^{−3x}(1 + c/√(x + 3)))^{½}.
    (1 + B/A)^β is no polynomial's power; the substitution that clears the radical (x + 3 = t²) makes the exponent
    a polynomial of degree 4 or more in t, and e^{t⁴} times an algebraic factor is not a function SymPy has.
    ``sympy.integrate`` spent its whole budget on it in ``manualintegrate`` (10 s, stretched), then 3.7 s on the
    family of the numbers.  What goes on to SymPy: an integer β (the binomial theorem); a single power of y in the
    exponent, e^{−y²}·(1 + √y)^β on (0, ∞), which is a product of two Meijer G functions of powers of y (SymPy's
    ``meijerint`` finds it); a radical of a quadratic (x = sinh t gives Bessel-type integrals); and anything else.

    >>> x = sp.Symbol("x", positive=True)
    >>> _power_of_a_radical_sum_beside_a_gaussian(-x**2 + sp.log(sp.exp(-3*x) + 2*sp.exp(-3*x)/sp.sqrt(x + 3)) / 2, x)
    'a non-integer power of a sum with a radical term, beside the exponential of a polynomial of degree 2 or more'
    >>> _power_of_a_radical_sum_beside_a_gaussian(-x**2 + sp.log(1 + sp.sqrt(x)) / 2, x) is None  # one power of y
    True
    >>> _power_of_a_radical_sum_beside_a_gaussian(-x**2 + sp.log(1 + sp.sqrt(x**2 + 1)) / 2, x) is None  # a quadratic
    True
    >>> _power_of_a_radical_sum_beside_a_gaussian(-x**2 + 2 * sp.log(1 + sp.sqrt(x + 3)), x) is None  # an integer power
    True
    """
    rest, found = sp.S.Zero, None
    for term in sp.Add.make_args(sp.expand(L)):
        beta, g = term.as_independent(x, as_Add=False)
        if not (isinstance(g, sp.log) and isinstance(g.args[0], sp.Add)):
            rest += term
            continue
        if found is not None or not (beta.is_number and beta.is_integer is False) or len(g.args[0].args) != 2:
            return None
        shapes = [_exponential_times_a_radical(t, x) for t in g.args[0].args]
        if None in shapes or sorted(u is None for _, u in shapes) != [False, True]:
            return None
        (q_a, _), (_, u) = sorted(shapes, key=lambda shape: shape[1] is not None)
        found = (beta, q_a, u)
    if found is None or not rest.is_polynomial(x):
        return None
    beta, q_a, u = found
    y = sp.Dummy("y")
    a, b = sp.Poly(u, x).all_coeffs()
    exponent = sp.Poly(sp.expand((rest + beta * q_a).subs(x, (y - b) / a)), y)
    if exponent.degree() >= 2 and len([m for m in exponent.monoms() if m[0] > 0]) >= 2:
        return ("a non-integer power of a sum with a radical term, beside the exponential of a polynomial of degree 2 "
                "or more")
    return None


def _exponential_times_a_radical(term: sp.Expr, x: sp.Symbol) -> tuple[sp.Expr, sp.Expr | None] | None:
    """(q, u) where ``term`` = c·e^{q(x)}·u(x)^r with q a polynomial, u of degree 1 and r not known to be an integer;
    (q, None) where it is c·e^{q(x)}; None for any other shape."""
    q, radical = sp.S.Zero, None
    for factor in sp.Mul.make_args(term.as_independent(x, as_Add=False)[1]):
        if factor == 1:
            continue
        if isinstance(factor, sp.exp):
            if not factor.args[0].is_polynomial(x):
                return None
            q += factor.args[0]
            continue
        base, exponent = factor.as_base_exp()
        if radical is not None or exponent.has(x) or exponent.is_integer is True or not base.is_polynomial(x) \
                or sp.Poly(base, x).degree() != 1:
            return None
        radical = base
    return q, radical


def polynomial_exponent(term, x) -> sp.Poly | None:
    """p(x) where ``term`` is c·e^{p(x)} (c free of x, p a polynomial in x, the exponents' sum); else None."""
    _, dependent = term.as_independent(x, as_Add=False)
    exponent = sp.S.Zero
    if dependent == 1:  # a constant term: c·e^0
        return sp.Poly(exponent, x)
    for factor in sp.Mul.make_args(dependent):
        if not isinstance(factor, sp.exp):
            return None
        exponent += factor.args[0]
    try:
        return sp.Poly(sp.expand(exponent), x)
    except sp.PolynomialError:
        return None


def log_of_a_gaussian_mixture(term: sp.Expr, x: sp.Symbol) -> bool:
    """Whether ``term`` holds the logarithm of a sum in which two terms are exponentials of quadratics in x with
    different x² coefficients (the log-density of a mixture of normal laws of different variances): its expectation
    under a normal law, the cross-entropy of a Gaussian mixture, has no closed form, and SymPy's integrate spent its
    whole budget on it, then the family of the numbers another (a normal law against ½N(0, 1) + ½N(0, 100²)).

    >>> x, s = sp.Symbol("x", real=True), sp.Symbol("s", positive=True)
    >>> log_of_a_gaussian_mixture(sp.log(sp.exp(-x**2 / 2) + sp.exp(-x**2 / 200) / 10), x)
    True
    >>> log_of_a_gaussian_mixture(sp.log(1 + sp.exp(-x)), x), log_of_a_gaussian_mixture(sp.log(sp.exp(-x**2) + s), x)
    (False, False)
    """
    for g in term.atoms(sp.log):
        leading = set()
        for addend in sp.Add.make_args(g.args[0]):
            poly = polynomial_exponent(addend, x)
            if poly is not None and poly.degree() == 2:
                leading.add(poly.LC())
        if len(leading) > 1:
            return True
    return False


__all__ = ["beyond_sympy", "log_of_a_gaussian_mixture", "polynomial_exponent", "powers_of_distinct_quadratics"]
