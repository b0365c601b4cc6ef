"""What is rendered is what was computed: a formula's symbols, a number's exponent, a status (a review of LaTeX,
Markdown and text output against the values behind them).

Each test states what was rendered before and what it read as; the values are checked against the objects the
renderings come from, and the documents are compiled by pdflatex.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import sympy as sp

import rdpsym
from rdpsym.render.accounting import result_latex, result_markdown, result_text
from rdpsym.render.calibration import calibration_text
from rdpsym.render.claims import _distinct
from rdpsym.render.derivation import derivation_json, derivation_markdown
from rdpsym.render.documents import derivation_document, preamble
from rdpsym.render.latex import paper_latex

a = rdpsym.alpha


def test_a_parameter_that_would_print_as_the_order_or_as_another_parameter_is_set_as_its_name():
    """A Gaussian of σ named "\\alpha" at order α printed \\frac{\\alpha}{2 \\alpha^{2}} (which reads 1/(2α)) for
    α/(2σ²); "sigma1" and "sigma_1" both printed σ₁, "lambda" and "lamda" both λ; "a b" printed a·b²."""
    s = sp.Symbol(r"\alpha", positive=True)
    d = rdpsym.gaussian(sigma=s).rdp(a)
    assert sp.simplify(d.result - a / (2 * s**2)) == 0  # what was computed
    tex = paper_latex(d.result)
    assert tex == r"\frac{\alpha}{2 \left(\text{\textbackslash{}alpha}\right)^{2}}", tex
    assert r"2 \alpha^{2}" not in derivation_document(d, "Gaussian")

    s1, s_1, lam, lamda, ab = sp.symbols("sigma1 sigma_1 lambda lamda a\\ b", positive=True)
    tex = paper_latex(sp.log(s1 / s_1) + lam / lamda + ab**2)
    for shown in (r"\text{sigma1}", r"\text{sigma\_1}", r"\text{lambda}", r"\text{lamda}", r"\left(\text{a b}\right)^{2}"):
        assert shown in tex, (shown, tex)
    # alone, each prints as SymPy prints it; so do the built-ins' own symbols
    assert paper_latex(s1 + 1) == r"\sigma_{1} + 1" and paper_latex(lam**2) == r"\lambda^{2}"
    assert paper_latex(rdpsym.gaussian(sigma=sp.Symbol("sigma", positive=True)).rdp(a).result) == \
        r"\frac{\alpha}{2 \sigma^{2}}"


def test_a_derivation_prints_a_parameter_the_same_way_in_every_line(compile_latex):
    """Whether a name is set as text is decided over the whole derivation (σ₁ beside "sigma_1" in one line only
    would print as \\sigma_{1} in the others); the document compiles."""
    x = sp.Symbol("x", real=True)
    s1, s_1 = sp.Symbol("sigma1", positive=True), sp.Symbol("sigma_1", positive=True)
    normal = lambda s: rdpsym.Continuous(sp.exp(-x**2 / (2 * s**2)) / (sp.sqrt(2 * sp.pi) * s), x)  # noqa: E731
    d = rdpsym.renyi_divergence(normal(s1), normal(s_1), 2)
    tex = derivation_document(d, "two scales")
    assert r"\sigma_{1}" not in tex and r"\text{sigma1}" in tex and r"\text{sigma\_1}" in tex
    compile_latex(tex)


def test_numbers_in_math_are_powers_of_ten_not_e_notation(compile_latex):
    """δ ≤ 2.66470670537E-86 read as 2.66…·E − 86; a document's "D_2 = 1.0e-12" as 1.0·e − 12 ≈ −9.3; a numeric
    D_∞ = +inf as the product i·n·f; δ = 10⁻³⁰⁰ was a fraction of 301 digits."""
    curve = rdpsym.gaussian(sigma=1).curve()
    r = rdpsym.delta(curve, epsilon=20, dps=12)
    assert r.published(12) == "2.66470670537E-86"  # the value behind the rendering
    assert r"\delta \le 2.66470670537 \cdot 10^{-86}" in result_latex(r)
    assert r"\cdot 10^{-86}" in result_markdown(r).splitlines()[0]
    assert r"\delta = 10^{-300}" in result_latex(rdpsym.epsilon(curve, delta=sp.Rational(1, 10**300), dps=12))
    compile_latex(preamble("a bound") + result_latex(r) + "\n\\end{document}\n")

    mechanism = rdpsym.gaussian(sigma=10**6)
    d = mechanism.rdp(2)
    value = ({sp.Symbol("sigma", positive=True): 10**6}, mpmath.mpf(d.result), 10)
    tex = derivation_document(d, "Gaussian", value=value)
    assert "1.0 \\cdot 10^{-12}" in tex and "e-12" not in tex
    compile_latex(tex)


def test_a_numeric_result_prints_its_exponent_and_infinity_as_math():
    """A numeric result's Markdown and JSON "latex" were "4.05…e-40", and D_∞ = ∞ was "+inf" (JSON "result" too,
    where a closed form's ∞ is "oo")."""
    x = sp.Symbol("x", real=True)
    quartic = lambda c: rdpsym.Continuous(sp.exp(-(x - c) ** 4) / (2 * sp.gamma(sp.Rational(5, 4))), x)  # noqa: E731
    d = rdpsym.renyi_divergence(quartic(0), quartic(1), sp.oo)
    assert isinstance(d.result, mpmath.mpf) and mpmath.isinf(d.result)
    assert r"= \infty$$" in derivation_markdown(d)
    data = derivation_json(d)
    assert (data["result"], data["latex"]) == ("oo", r"\infty")
    assert "+inf" not in derivation_document(d, "quartic")


def test_a_failing_relation_s_two_sides_are_printed_apart():
    """The catalogue's counterexamples printed "lhs = 3.25870750621e-7, rhs = 3.25870750621e-7, lhs <= rhs fails":
    the two sides' Floats at 12 digits differ in their binary tails, so no more digits were asked for."""
    lhs, rhs = sp.Float("3.25870750621476e-7", 40), sp.Float("3.25870750621422e-7", 40)
    shown = _distinct(lhs, rhs)
    assert shown[0] != shown[1] and Fraction(shown[0]) > Fraction(shown[1]), shown


def test_an_uncertified_bound_says_so_in_every_rendering():
    """A mechanism whose closed form is only checked gave an ε rendered in LaTeX exactly as a certified one; the
    Markdown dropped the word, and the text put it down to quadrature."""
    x = sp.Symbol("x", real=True)
    normal = lambda m: rdpsym.Continuous(sp.exp(-(x - m) ** 2 / 8) / sp.sqrt(8 * sp.pi), x)  # noqa: E731
    mechanism = rdpsym.Mechanism(name="mine", parameters={}, pair=(normal(0), normal(1)), symmetric=True)
    r = rdpsym.epsilon(mechanism.curve(), delta=sp.Rational(1, 10**5), dps=12)
    assert not r.certified
    assert r"\text{(not certified)}" in result_latex(r)
    assert "NOT certified" in result_markdown(r) and "NOT certified: a closed form checked" in result_text(r)
    certified = rdpsym.epsilon(rdpsym.gaussian(sigma=2).curve(), delta=sp.Rational(1, 10**5), dps=12)
    assert certified.certified and "not certified" not in result_latex(certified)


def test_a_calibrated_value_is_printed_rounded_towards_the_side_that_meets_the_target():
    """The Laplace scale for (1/2, 10⁻⁵) was printed 1.99992189071, below the exact least scale 1.99992189071…24
    (rounded half-even): a reader who copied it had a scale that does not meet the target."""
    c = rdpsym.calibrate("laplace", epsilon=sp.Rational(1, 2), delta=sp.Rational(1, 10**5))
    shown = calibration_text(c).split()[2]
    assert Fraction(shown) >= c.value, (shown, c.value)


def test_an_order_where_the_formula_is_undefined_as_written_is_named(compile_latex):
    """Laplace's Proposition 6 at α = 1/2 is 0/0 (its 2α − 1 denominators); the document stated only "α ≠ 1", and a
    reader substituting 1/2 gets NaN.  rdpsym's own value there is the limit, which the document now says."""
    d = rdpsym.laplace(scale=2).rdp(a)
    assert d.result.subs(a, sp.Rational(1, 2)) is sp.nan  # what a reader substituting gets
    limit = sp.limit(d.result, a, sp.Rational(1, 2))
    assert abs(float(rdpsym.laplace(scale=2).rdp(sp.Rational(1, 2)).result) - float(limit)) < 1e-12
    tex = derivation_document(d, "Laplace")
    assert r"At $\alpha = \frac{1}{2}$ a denominator of the formula is 0" in tex
    assert "at alpha = 1/2: undefined as written" in rdpsym.render.derivation.derivation_text(d)
    compile_latex(tex)
    assert rdpsym.render.derivation.undefined_orders(rdpsym.gaussian(sigma=2).rdp(a)) == []
