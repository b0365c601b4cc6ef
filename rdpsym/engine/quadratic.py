"""Closed forms in several variables (pure SymPy): separable densities and quadratic log-densities.

Two facts carry every multivariate derivation of rdpsym:

* **Separation.**  A joint density ``c · Π_k g_k(x_{B_k})`` whose variables fall
  into blocks B_k that no factor (and no term of an exponent) mixes is the law
  of independent blocks.  :func:`separate` finds the finest such blocks by
  reading the product and the exponents' sums, never by integrating.
* **The Gaussian integral in d dimensions.**  When
  ``L(x) = −½ xᵀAx + bᵀx + c`` (a quadratic polynomial in x ∈ ℝ^d),
  completing the square ``L = −½ (x − A⁻¹b)ᵀ A (x − A⁻¹b) + c + ½ bᵀA⁻¹b``
  gives ∫_{ℝ^d} e^L dx = (2π)^{d/2} det(A)^{−1/2} e^{c + ½ bᵀA⁻¹b}, finite
  exactly when A is positive definite (else e^L does not decay along an
  eigenvector of a nonpositive eigenvalue, and the integral is +∞).

Positive definiteness is decided by Sylvester's criterion (every leading
principal minor positive) under the derivation's hypotheses; what cannot be
decided is returned as explicit conditions, like the one-dimensional rules.

>>> x, y = sp.symbols("x y", real=True)
>>> A, b, c = quadratic_coefficients(-(x**2 + x*y + y**2) + y, (x, y))
>>> A, b.T, c
(Matrix([
[2, 1],
[1, 2]]), Matrix([[0, 1]]), 0)
>>> separate(sp.exp(-x**2 - 2*y) * 3, (x, y))
(3, [((x,), exp(-x**2)), ((y,), exp(-2*y))])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import sympy as sp

from rdpsym.engine.context import Hypotheses
from rdpsym.foundations.budget import budgeted
from rdpsym.foundations.errors import NoClosedFormError

oo = sp.oo

__all__ = ["GaussianValue", "compact_det", "gaussian_integral", "leading_minors", "log_quadratic", "positive_condition",
           "positive_definite", "quadratic_coefficients", "separate", "tidy_signs"]


# --------------------------------------------------------------------------- separation into independent blocks


def _pieces(expr: sp.Expr, variables: Sequence[sp.Symbol]) -> tuple[sp.Expr, sp.Expr, list]:
    """``expr`` as constant × e^{c} × Π factors × exp(Σ terms): (constant, c, [(variables used, piece, in exponent)]).

    c collects the terms of exponents that are free of the variables (kept apart from the constant, so a
    Gaussian's exponent stays whole: its c is part of the completed square)."""
    wanted = set(variables)
    constant = sp.S.One
    exponent_constant = sp.S.Zero
    pieces: list[tuple[frozenset, sp.Expr, bool]] = []
    for factor in sp.Mul.make_args(expr):
        used = factor.free_symbols & wanted
        if not used:
            constant *= factor
            continue
        exponent = None
        if isinstance(factor, sp.exp):
            exponent = factor.args[0]
        elif isinstance(factor, sp.Pow) and isinstance(factor.base, sp.exp) and not factor.exp.free_symbols & wanted:
            exponent = factor.base.args[0] * factor.exp
        elif isinstance(factor, sp.Pow) and not factor.base.free_symbols & wanted:
            # c^(j + k) = c^j · c^k: a constant base raised to a sum separates like an exponential.
            for term in sp.Add.make_args(sp.expand(factor.exp)):
                term_used = term.free_symbols & wanted
                if term_used:
                    pieces.append((frozenset(term_used), factor.base ** term, False))
                else:
                    constant *= factor.base ** term
            continue
        if exponent is None:
            pieces.append((frozenset(used), factor, False))
            continue
        for term in sp.Add.make_args(sp.expand(exponent)):
            term_used = term.free_symbols & wanted
            if term_used:
                pieces.append((frozenset(term_used), term, True))
            else:
                exponent_constant += term
    return constant, exponent_constant, pieces


def _factored_sums(expr: sp.Expr, variables: Sequence[sp.Symbol]) -> sp.Expr:
    """``expr`` with each factor that is a sum in several of ``variables`` written as a product where its terms share
    factors (their exponentials' powers split, the common ones taken out): a mixture of two planar Gaussians that
    differ in x only, (1 − q)·e^{−(x² + y²)/2} + q·e^{−((x − 1)² + y²)/2}, is e^{−y²/2} times a sum in x, and read as
    one joint block it went to the nested quadrature's 60 s ceiling (a probe).  A factor that stays a sum, or that
    would not be smaller in its variables' links, is left as it is."""
    wanted = set(variables)
    out = []
    for factor in sp.Mul.make_args(expr):
        if isinstance(factor, sp.Add) and len(factor.free_symbols & wanted) > 1 and len(factor.args) <= _MOST_TERMS:
            try:
                factored = budgeted(lambda f=factor: sp.factor_terms(
                    sp.expand(f, power_exp=True, mul=False, multinomial=False, log=False)),
                    "a joint density's sum factored", FACTOR_SECONDS)
            except NoClosedFormError:  # (out of time: read as it is)
                factored = factor
            if isinstance(factored, sp.Mul):
                factor = factored
        out.append(factor)
    return sp.Mul(*out)


#: The most terms of a sum :func:`_factored_sums` tries to factor (a mixture's components), and its CPU seconds.
_MOST_TERMS = 64
FACTOR_SECONDS = 1.0


def separate(expr: sp.Expr, variables: Sequence[sp.Symbol]) -> tuple[sp.Expr, list[tuple[tuple, sp.Expr]]]:
    """``expr = constant · Π_k factor_k(block_k)`` with the finest blocks of ``variables``.

    Two variables share a block when one factor of the product, or one term of
    an exponent's expanded sum, contains both (``exp(−(x − y)²)`` links x and y
    through its term 2xy; ``exp(−x² − y²)`` does not).  Blocks keep the order
    of ``variables``; a variable the expression does not depend on is a block
    of its own with factor 1 (a uniform coordinate).
    """
    variables = tuple(variables)
    constant, exponent_constant, pieces = _pieces(_factored_sums(expr, variables), variables)
    constant *= sp.exp(exponent_constant)
    parent = {v: v for v in variables}

    def root(v):
        while parent[v] != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    for used, _, _ in pieces:
        first, *rest = sorted(used, key=variables.index)
        for v in rest:
            parent[root(v)] = root(first)
    blocks: dict[sp.Symbol, list[sp.Symbol]] = {}
    for v in variables:
        blocks.setdefault(root(v), []).append(v)
    out = []
    for members in blocks.values():
        factors = [p for used, p, in_exp in pieces if not in_exp and used <= set(members)]
        exponent = sp.Add(*[p for used, p, in_exp in pieces if in_exp and used <= set(members)])
        out.append((tuple(members), sp.Mul(*factors) * sp.exp(exponent)))
    return constant, out


# --------------------------------------------------------------------------- quadratic forms


def quadratic_coefficients(L: sp.Expr, variables: Sequence[sp.Symbol]):
    """(A, b, c) with ``L = −½ xᵀAx + bᵀx + c`` (A symmetric, b a column), or None when L is not quadratic in x."""
    variables = tuple(variables)
    L = sp.expand(L)
    if not L.is_polynomial(*variables):
        return None
    poly = sp.Poly(L, *variables)
    if poly.total_degree() > 2:
        return None
    d = len(variables)
    zero = {v: 0 for v in variables}
    A = sp.Matrix(d, d, lambda i, j: -poly.diff(variables[i]).diff(variables[j]).as_expr())
    b = sp.Matrix(d, 1, lambda i, _: poly.diff(variables[i]).as_expr().subs(zero))
    c = poly.as_expr().subs(zero)
    return A, b, c


def log_quadratic(expr: sp.Expr, variables: Sequence[sp.Symbol]):
    """(C, A, b, c) with ``expr = C · exp(−½ xᵀAx + bᵀx + c)`` and C free of x, or None.

    Every factor that depends on x must be an exponential whose exponent is a
    quadratic polynomial in x (a Gaussian density written any way: expanded,
    completed square, a product of exponentials); C is kept whole, never
    log-expanded, so a normaliser such as 1/(2πσ₁σ₂√(1 − ρ²)) stays real.
    """
    variables = tuple(variables)
    constant, exponent_constant, pieces = _pieces(expr, variables)
    if any(not in_exp for _, _, in_exp in pieces):
        return None
    quadratic = quadratic_coefficients(sp.Add(exponent_constant, *[p for _, p, _ in pieces]), variables)
    if quadratic is None:
        return None
    return (constant, *quadratic)


def tidy_signs(expr: sp.Expr) -> sp.Expr:
    """A factored expression with each pair (u − c)(u + c) written as −(c² − u²), the sign moved out.

    ``−a/(b(ρ − 1)(ρ + 1))`` reads ``a/(b(1 − ρ²))``, as the literature writes the bivariate normal.

    >>> r, s = sp.symbols("rho sigma", positive=True)
    >>> tidy_signs(-s/((r - 1)*(r + 1)))
    sigma/(1 - rho**2)
    """
    if not isinstance(expr, sp.Expr) or expr.is_Atom or isinstance(expr, sp.Add):
        return expr
    num, den = sp.fraction(expr)
    sign = 1
    parts = []
    pairs = 0
    for side in (num, den):
        factors = []
        for f in sp.Mul.make_args(side):
            if isinstance(f, sp.Add) and f.could_extract_minus_sign():  # (1 − ρ) as −(ρ − 1), to pair it
                f, sign = -f, -sign
            factors.append(f)
        out = []
        while factors:
            f = factors.pop(0)
            partner = None
            for g in factors:
                half = (g - f) / 2
                if isinstance(f, sp.Add) and half.is_number and half.is_positive:
                    partner = g
                    break
                if isinstance(f, sp.Add) and half.is_number and half.is_negative:
                    partner = g
                    break
            if partner is None:
                out.append(f)
                continue
            factors.remove(partner)
            u, c = (f + partner) / 2, abs((partner - f) / 2)
            out.append(sp.Add(c**2, -sp.expand(u**2), evaluate=True))
            sign = -sign
            pairs += 1
        parts.append(out)
    if not pairs:
        return expr
    num_factors, den_factors = parts
    numerator = sp.Mul(*num_factors)
    if sign < 0:
        numerator = -numerator
    return numerator / sp.Mul(*den_factors)


def compact_det(M: sp.Matrix) -> sp.Expr:
    """det M as a reader writes it: ad − bc for a 2×2 matrix (entries as given), else factored."""
    if M.rows == 1:
        return M[0, 0]
    if M.rows == 2:
        det = M[0, 0] * M[1, 1] - M[0, 1] * M[1, 0]
        return det  # (not nsimplify: it may answer a simpler number near the value instead of the value)
    return tidy_signs(sp.factor(M.det(method="berkowitz")))


def leading_minors(M: sp.Matrix) -> list[sp.Expr]:
    """The leading principal minors det M[:k, :k], k = 1..d (Sylvester's criterion), factored."""
    return [sp.factor(M[:k, :k].det(method="berkowitz")) for k in range(1, M.rows + 1)]


def positive_definite(M: sp.Matrix, hyp: Hypotheses) -> tuple[bool | None, tuple]:
    """Whether the symmetric M is positive definite, by Sylvester's criterion under ``hyp``.

    Returns (True, ()) when every leading minor is provably positive, (False, (minor,))
    when one is provably ≤ 0, else (None, conditions) with the undecided minors as
    ``minor > 0`` (a minor that is not decided is a condition, never a guess).
    """
    conditions = []
    for k, minor in enumerate(leading_minors(M), start=1):
        positive = hyp.is_positive(minor)
        if positive is True:
            continue
        if positive is False or hyp.is_zero(minor) is True:
            return False, (minor,)
        # Decided on the factored minor; stated as a reader writes it (ad − bc for 2×2).
        shown = compact_det(M[:k, :k]) if k <= 2 and not any(e.has(sp.Pow) and e.is_rational_function() is False
                                                               for e in M[:k, :k]) else minor
        conditions.append(positive_condition(shown, hyp))
    return (True, ()) if not conditions else (None, tuple(conditions))


def positive_condition(minor: sp.Expr, hyp: Hypotheses) -> sp.Basic:
    """``minor > 0``, written as its numerator when the denominator is known positive, without positive factors."""
    num, den = sp.fraction(sp.together(minor))
    if hyp.is_positive(den):
        minor = sp.factor(num)
        if isinstance(minor, sp.Mul):  # drop factors known positive: α²·(…) > 0 is (…) > 0
            minor = sp.Mul(*[f for f in minor.args if hyp.is_positive(f) is not True])
        minor = tidy_signs(minor)
    return sp.StrictGreaterThan(minor, 0, evaluate=False)


@dataclass(frozen=True)
class GaussianValue:
    """∫_{ℝ^d} exp(−½ xᵀAx + bᵀx + c) dx: ``value`` when ``conditions`` hold (A ≻ 0), else +∞.

    ``determinant`` is det A and ``exponent`` is c + ½ bᵀA⁻¹b; ``definite`` says
    whether A ≻ 0 was decided (True / False) or left as ``conditions`` (None).
    """

    value: sp.Expr
    determinant: sp.Expr
    exponent: sp.Expr
    conditions: tuple
    definite: bool | None


def gaussian_integral(A: sp.Matrix, b: sp.Matrix, c: sp.Expr, hyp: Hypotheses,
                      decided: tuple | None = None) -> GaussianValue:
    """The Gaussian integral in d dimensions, by completing the square (see the module docstring).

    >>> g = gaussian_integral(sp.eye(2), sp.zeros(2, 1), 0, Hypotheses())
    >>> g.value, g.definite
    (2*pi, True)
    """
    d = A.rows
    # ``decided``: (definite, conditions) found another way (Σ_α ≻ 0, equivalent to A ≻ 0 for two Gaussians).
    definite, conditions = decided if decided is not None else positive_definite(A, hyp)
    if definite is False:
        return GaussianValue(oo, sp.S.Zero, sp.S.Zero, (), False)
    det = sp.factor(A.det(method="berkowitz"))
    quadratic = sp.factor(sp.cancel((b.T * A.adjugate(method="berkowitz") * b)[0, 0])) / det if any(b) else 0
    exponent = sp.factor(sp.cancel(sp.together(c + quadratic / 2)))
    value = (2 * sp.pi) ** sp.Rational(d, 2) / sp.sqrt(det) * sp.exp(exponent)
    return GaussianValue(value, det, exponent, conditions, definite)
