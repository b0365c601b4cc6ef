"""A law's check at construction, and at parameter values (rdpsym.laws.validation.Validity).

A law with parameters whose every branch SymPy's assumptions show nonnegative and whose mass is exactly 1 in
closed form is a law at every value its parameters' assumptions allow: ``subs`` then builds it at values
without a check of its own (the check of a derivation does so at every sample point).  Every other law is
checked at its values as before, and a value that makes it no law is refused.
"""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

import rdpsym
from rdpsym import Continuous, Discrete
from rdpsym.foundations.errors import DensityError
from rdpsym.laws import densities
from rdpsym.laws.validation import Validity

x = sp.Symbol("x", real=True)
k = sp.Symbol("k", integer=True)
a, b, lam, p = sp.symbols("a b lambda p", positive=True)
n = sp.Symbol("n", positive=True, integer=True)


def _beta(a, b):
    return Continuous(x ** (a - 1) * (1 - x) ** (b - 1) / sp.beta(a, b), x, sp.Interval(0, 1))


def _poisson(lam):
    return Discrete(lam**k * sp.exp(-lam) / sp.factorial(k), k, sp.Range(0, sp.oo))


def _refuse_checks(monkeypatch):
    """Fail on any check of a law's pieces or table from now on."""
    def refuse(*args, **kwargs):
        raise AssertionError("the law was checked again")

    monkeypatch.setattr(densities, "check_pieces", refuse)
    monkeypatch.setattr(densities, "check_table", refuse)


@pytest.mark.parametrize("law", [
    pytest.param(lambda: rdpsym.gaussian(sp.Symbol("sigma", positive=True)).pair[0], id="Gaussian"),
    # B(a, b) and k! have no sign SymPy knows: read as Gamma values; 1 − x is positive once x = t/(1 + t)
    pytest.param(lambda: _beta(a, b), id="Beta"),
    pytest.param(lambda: _poisson(lam), id="Poisson"),
    pytest.param(lambda: Continuous(1 / a, x, sp.Interval(0, a)), id="uniform on [0, a]"),
])
def test_a_law_shown_one_at_every_value_is_not_checked_again_at_values(law, monkeypatch):
    law = law()
    assert law.every_value and law.validated
    _refuse_checks(monkeypatch)
    values = {s: sp.Rational(3, 2) + i for i, s in enumerate(sorted(law.parameters, key=str))}
    at = law.subs(values)
    assert at.validated and at.every_value and not at.parameters
    monkeypatch.undo()  # the same law built with its check: the check accepts it, and it is the same law
    assert at == type(at)(*_fields(at))


def test_a_checked_law_given_no_values_is_not_checked_again(monkeypatch):
    """The check of a derivation asks for each law at each sample point; a law without parameters (a skew-normal
    law, whose nonnegativity takes a sympy.solve of its critical points) is the law itself there, checked once
    when it was built: its five orders' derivations 5.8 → 3.3 s of CPU.  A law built without its check
    (``check=False``) is still checked when asked for at values, none given or not."""
    phi = sp.exp(-x**2 / 2) / sp.sqrt(2 * sp.pi)
    P = Continuous(phi * (1 + sp.erf(x / sp.sqrt(2))), x)
    Q = Continuous(phi, x)
    _refuse_checks(monkeypatch)
    assert P.subs({}) is P and Q.subs({}) is Q
    d = rdpsym.renyi_divergence(P, Q, sp.Symbol("alpha", positive=True))
    assert str(d.status) == "checked"
    monkeypatch.undo()
    unchecked = Discrete({0: sp.Rational(1, 2), 1: sp.Rational(2, 3)}, check=False)
    with pytest.raises(DensityError, match="sum to 1"):
        unchecked.subs({})


def _fields(law):
    if isinstance(law, Continuous):
        return law.pdf, law.var, law.support
    return law.pmf, law.var, law.support


@pytest.mark.parametrize("law, point, says", [
    # p > 0 is all SymPy knows: 1 − p may be negative, so each value is checked (a pmf written with 1 − p)
    (lambda: Discrete({0: p, 1: 1 - p}), {p: sp.Rational(3, 2)}, "nonnegative"),
    (lambda: Discrete(sp.binomial(n, k) * p**k * (1 - p) ** (n - k), k, sp.Range(0, n + 1)),
     {n: 2, p: 3}, "nonnegative"),
])
def test_a_law_not_shown_one_at_every_value_is_checked_at_each_value(law, point, says):
    law = law()
    assert not law.every_value
    with pytest.raises(DensityError, match=says):
        law.subs(point)


def test_the_check_says_what_it_established():
    assert Continuous(x ** (a - 1) * (1 - x) ** (b - 1) / sp.beta(a, b), x, sp.Interval(0, 1)).every_value
    assert densities.check_table({0: sp.Rational(1, 3), 1: sp.Rational(2, 3)}) is Validity.SHOWN  # no parameters
    assert densities.check_table({0: p / (1 + p), 1: 1 / (1 + p)}) is Validity.EVERY_VALUE
    assert densities.check_table({0: p, 1: 1 - p}) is Validity.SHOWN  # the sign of 1 − p is left to the values
    # mass 1 in closed form, but SymPy knows no sign of 1 − e^{−a} for a > 0: each value is checked
    truncated = Continuous(sp.exp(-x) / (1 - sp.exp(-a)), x, sp.Interval(0, a), check=False)
    assert truncated._check() is Validity.SHOWN and not truncated.every_value


def test_a_value_sympy_cannot_place_or_a_formula_without_a_value_is_checked():
    law = _poisson(lam)
    built = []
    densities._at_values(law, {lam: sp.Rational(1, 2)}, sp.zoo * k, lambda check: built.append(check))
    densities._at_values(law, {sp.Symbol("lambda", positive=True): sp.Symbol("c")}, k,
                         lambda check: built.append(check))
    densities._at_values(law, {lam: sp.Rational(1, 2)}, k, lambda check: built.append(check) or law)
    assert built == [True, True, False]


def test_a_mass_written_with_erf_and_erfc_is_shown_to_be_one():
    """N(μ, σ²) truncated to [0, ∞) has mass (2 − erfc(z))/(1 + erf(z)), z = μ/(σ√2): 1 once erfc = 1 − erf
    (SymPy's simplify leaves it, and ``equals`` spent 0.8 s of CPU on each law without deciding)."""
    sigma = sp.Symbol("sigma", positive=True)
    shown = {}
    for mu in (sp.Symbol("mu", positive=True), sp.Symbol("mu", real=True)):
        pdf = sp.sqrt(2) * sp.exp(-(x - mu) ** 2 / (2 * sigma**2)) / (sp.sqrt(sp.pi) * sigma
                                                                      * (1 + sp.erf(mu / (sigma * sp.sqrt(2)))))
        shown[mu.is_positive] = Continuous(pdf, x, sp.Interval(0, sp.oo), check=False)._check()
    # 1 + erf(z) > 0 for every real z (|erf z| < 1), which SymPy's assumptions know only for z > 0 and rdpsym
    # reads itself (validation._positive_erf): a law at every value, for a positive μ and for any real one
    assert shown == {True: Validity.EVERY_VALUE, None: Validity.EVERY_VALUE}


def test_a_number_of_no_known_sign_is_signed_by_its_value(monkeypatch):
    """A von Mises law at κ = 3/2 is e^{κ cos x}/(2π I₀(κ)): SymPy knows no sign of I₀(3/2); its value (30 digits)
    gives it, so the law needs no search for the density's critical points (about 1 s of CPU a law)."""
    from rdpsym.laws import validation

    kappa = sp.Rational(3, 2)
    pdf = sp.exp(kappa * sp.cos(x)) / (2 * sp.pi * sp.besseli(0, kappa))
    assert pdf.is_nonnegative is None  # what SymPy alone says

    def no_search(*args):
        raise AssertionError("searched for critical points")

    monkeypatch.setattr(validation, "_critical_points", no_search)
    assert Continuous(pdf, x, sp.Interval(-sp.pi, sp.pi)).validated
    assert not validation._nonnegative(-sp.exp(x) / sp.besseli(0, kappa))  # a negative number stays negative
    assert not validation._nonnegative(sp.exp(x) * (sp.besseli(0, kappa) - 2))  # I₀(3/2) ≈ 1.65 < 2


def test_a_mixture_in_an_integer_of_no_known_sign_is_summed_component_by_component(monkeypatch):
    """λᵏe^{−λ}/k! has no sign SymPy knows while k is only an integer; on the support (k ≥ 0) it is nonnegative.
    The mixture's mass is then the components' masses (each a closed form), not the sum of the mixture's
    logarithm handed to sympy.summation, which factored 3000ᵏ for 6 s and gave up (the law was then summed
    numerically, or, with parameters, passed undecided and checked again at each value)."""
    from rdpsym.engine import sums

    def refuse(L, *args):
        raise AssertionError(f"sympy.summation was asked for Σ exp({L})")

    monkeypatch.setattr(sums, "_sympy_fallback", refuse)
    law = Discrete(lam**k * sp.exp(-lam) / sp.factorial(k) / 2 + sp.Rational(1, 2) ** (k + 2), k, sp.Range(0, sp.oo))
    assert law.every_value
    number = Discrete(sp.Integer(10) ** -29 * 3000**k * sp.exp(-3000) / sp.factorial(k)
                      + (1 - sp.Integer(10) ** -29) * sp.Rational(9, 100) * sp.Rational(91, 100) ** k, k,
                      sp.Range(0, sp.oo))
    assert number.validated


def test_sympys_named_sets_are_supports():
    """``support=sp.Reals`` (an Interval with no arguments) was accepted and then failed inside the definition's
    quadrature with a bare IndexError, for a Gaussian pair too (a probe); the named sets of integers were refused.
    Each is now the Interval or Range it is: the same law, the same divergence, as the interval written out."""
    y = sp.Symbol("y", real=True)
    normal = lambda m: sp.exp(-(x - m) ** 2 / 2) / sp.sqrt(2 * sp.pi)  # noqa: E731
    on_reals = rdpsym.renyi_divergence(Continuous(normal(0), x, support=sp.Reals),
                                       Continuous(normal(1), x, support=sp.Reals), 2)
    assert on_reals.status == "checked" and on_reals.result == 1
    assert Continuous(normal(0), x, support=sp.Reals) == Continuous(normal(0), x)
    geometric = lambda r, start: Discrete((1 - r) * r ** (k - start), k, support=sp.Range(start, sp.oo))  # noqa: E731
    half = sp.Rational(1, 2) ** (k + 1)
    assert Discrete(half, k, support=sp.Naturals0) == Discrete(half, k, support=sp.Range(0, sp.oo))
    assert Discrete(sp.Rational(1, 2) ** k, k, support=sp.Naturals).support == sp.Range(1, sp.oo)
    laplace = Discrete(sp.Rational(1, 3) * sp.Rational(1, 2) ** sp.Abs(k), k, support=sp.Integers)
    assert laplace.support == sp.Range(-sp.oo, sp.oo)
    d = rdpsym.renyi_divergence(Discrete(sp.Rational(1, 2) ** (k + 1), k, support=sp.Naturals0),
                                geometric(sp.Rational(2, 3), 0), 2)
    assert d.result == sp.log(sp.Rational(6, 5))  # Σ (1/4)^{k+1} / ((1/3)(2/3)^k) = (3/4)/(1 − 3/8)
    joint = Continuous(normal(0) * normal(0).subs(x, y), (x, y), support=sp.Reals**2)
    assert joint.support == (sp.Interval(-sp.oo, sp.oo),) * 2
    with pytest.raises(DensityError, match=r"^support must be a SymPy Interval of positive length; got Naturals0\."):
        Continuous(sp.exp(-x), x, support=sp.Naturals0)


def test_a_skew_normal_law_is_a_law_at_every_value_of_its_shape():
    """2φ(x)Φ(a·x) = φ(x)·(1 + erf(a·x/√2)): erfc(u) and c + k·erf(u) with c ≥ |k| are positive for real u, so the
    law is one at every a and is not checked again at each point a derivation's check takes; 1 + 2·erf(u) is no
    such factor, and is refused where it is negative."""
    phi = sp.exp(-x**2 / 2) / sp.sqrt(2 * sp.pi)
    shape = sp.Symbol("a", positive=True)
    assert Continuous(phi * (1 + sp.erf(shape * x / sp.sqrt(2))), x).every_value
    with pytest.raises(DensityError, match="nonnegative"):
        Continuous(phi * (1 + 2 * sp.erf(x / sp.sqrt(2))), x)


@pytest.mark.parametrize("table", [{0: sp.Rational(1, 2) + sp.Rational(1, 10**20), 1: sp.Rational(1, 2)},
                                   {0: sp.Rational(1, 2) - sp.Rational(1, 10**25), 1: sp.Rational(1, 2)}])
def test_an_exact_table_that_misses_one_by_a_hair_is_not_a_law(table):
    """Exact probabilities sum to 1 exactly or the table is refused: 1 + 10⁻²⁰ was within the numeric tolerance of
    10⁻²⁰ and accepted (its D₂ against a fair coin came out "checked" 2·10⁻²⁰), and 1 − 10⁻²⁵ was accepted only for
    its divergence to fail later, blaming the integration (a probe)."""
    with pytest.raises(rdpsym.DensityError, match="sum to 1"):
        rdpsym.Discrete(table)


@pytest.mark.parametrize("make", [
    lambda: Continuous(sp.Symbol("x", positive=True), sp.Symbol("x", positive=True), sp.Interval(-1, 1)),
    lambda: Discrete(sp.Rational(1, 7), sp.Symbol("k", integer=True, nonnegative=True), sp.Range(-3, 4)),
])
def test_a_variable_declared_positive_on_a_support_that_is_not_is_refused(make):
    """x declared positive with the pdf x on [−1, 1]: SymPy's assumptions, not the support, made x "nonnegative", so
    the law was accepted and its D₂ against the uniform law came out checked, log(4/3), for a function negative on
    half its support (a probe).  The declaration must hold on the support; an undecided end (a symbol) passes."""
    with pytest.raises(DensityError, match="assumptions hold on the support"):
        make()
    m = sp.Symbol("m", real=True)
    assert Continuous(1, sp.Symbol("x", positive=True), sp.Interval(m, m + 1)).support == sp.Interval(m, m + 1)


def test_a_density_switching_with_a_periodic_function_is_read_at_every_switch_or_refused():
    """A probe: a density switching where sin(1/x) > 0 on [0, 1] (infinitely often near 0) was read as switching at
    1/π only: one with mass 1.08 was accepted and its D_∞ against the uniform law came out "checked" and wrong, and
    one of mass 1 refused.  SymPy's solve lists one period's zeros (sin x = 0 at 0 and π), so |sin x| on [0, 10] was
    read as sin x on (π, 10) and refused as negative at 4.1.  Every switch in the support is read now (solveset), and
    a density switching infinitely often is refused, saying so."""
    from rdpsym.foundations.errors import NoClosedFormError

    x = sp.Symbol("x", real=True)
    half = sp.Rational(1, 2)
    oscillating = sp.Piecewise((3 * half, sp.sin(1 / x) > 0), (half, True))
    for mass in (3 * half - 1 / sp.pi, 3 * half - sp.log(2) / sp.pi):  # (the second is the true mass)
        with pytest.raises(NoClosedFormError, match=r"switches where sin\(1/x\) = 0, at infinitely many points"):
            Continuous(oscillating / mass, x, support=sp.Interval(0, 1))
    c = 7 + sp.cos(10)  # ∫_0^10 |sin x| dx
    P = Continuous(sp.Abs(sp.sin(x)) / c, x, support=sp.Interval(0, 10))
    assert [(p.lo, p.hi) for p in P.pieces()] == [(0, sp.pi), (sp.pi, 2 * sp.pi), (2 * sp.pi, 3 * sp.pi), (3 * sp.pi, 10)]
    U = Continuous(sp.Rational(1, 10), x, support=sp.Interval(0, 10))
    with mpmath.workdps(40):
        C = 7 + mpmath.cos(10)
        truth = mpmath.log(10 * mpmath.quad(lambda t: mpmath.sin(t) ** 2, [0, 10]) / C**2)  # D₂ = log ∫ P²/U
    d = rdpsym.renyi_divergence(P, U, 2)
    assert d.status == "checked" and abs(d.evalf(dps=40) - truth) < mpmath.mpf(10) ** -35
    assert Continuous(sp.Piecewise((2, sp.sin(2 * sp.pi * x) > 0), (0, True)), x, support=sp.Interval(0, 1)).pieces()[0].hi == half


def test_a_complex_valued_density_is_refused():
    """A probe: Continuous(1 + i·sin(2πx)) on [0, 1] was taken (its mass is 1, and its sign test passed), and failed
    only later, in the quadrature, with "the integrand is not a real number at x = 0.5"."""
    x = sp.Symbol("x", real=True)
    for pdf in (1 + sp.I * sp.sin(2 * sp.pi * x), sp.exp(sp.I * x) / 2 + sp.Rational(1, 2)):
        with pytest.raises(DensityError, match="the density must be real-valued"):
            Continuous(pdf, x, support=sp.Interval(0, 1))
    k = sp.Symbol("k", integer=True)
    with pytest.raises(DensityError, match="the density must be real-valued"):
        Discrete(sp.exp(sp.I * k) / 4 + sp.Rational(1, 4), k, support=sp.Range(0, 2))


def test_the_periodic_switch_reading_keeps_what_worked_and_reads_finite_pmfs_by_their_values():
    """A review of the periodic switches: with a parameter in the switch or the support SymPy's solveset raised
    TypeError (the derivation's case split had answered); a joint region x < sin y was refused (its switch, solved
    with x free, has infinitely many zeros over ℝ); (e^{ix} + e^{−ix})/2 is cos x, a real density; and a pmf switching
    where cos(πk) > 0 (SymPy's (−1)^k > 0, no switch) was read as 1/4 at every k, a mass of 1/2 taken as checked."""
    from rdpsym.engine.context import UndecidedSign
    from rdpsym.foundations.errors import NoClosedFormError

    x, y = sp.Symbol("x", real=True), sp.Symbol("y", real=True)
    m = sp.Symbol("m", positive=True)
    with pytest.raises((UndecidedSign, NoClosedFormError)):
        Continuous(sp.Abs(sp.sin(x - m)) / 4, x, support=sp.Interval(0, 2 * sp.pi))
    rdpsym.Joint(sp.Piecewise((1, x < sp.sin(y)), (0, True)), (x, y), support=(sp.Interval(0, 1), sp.Interval(0, sp.pi / 2)))
    Continuous((1 + (sp.exp(sp.I * x) + sp.exp(-sp.I * x)) / 2) / (2 * sp.pi), x, support=sp.Interval(-sp.pi, sp.pi))
    k = sp.Symbol("k", integer=True)
    even = sp.cos(sp.pi * k) > 0
    with pytest.raises(DensityError, match="must sum to 1 over its support; got 1/2"):
        Discrete(sp.Piecewise((sp.Rational(1, 4), even), (0, True)), k, support=sp.Range(0, 4))
    Discrete(sp.Piecewise((sp.Rational(1, 3), k**2 < 3), (0, True)), k, support=sp.Range(-3, 4))  # (was "got 0")


def test_the_numeric_route_checks_a_law_built_without_its_check():
    """A probe: renyi_divergence_mp took {0: 3/2, 1: −1/2} built with check=False and returned log(9/2), the sum over
    its positive entry, where renyi_divergence refused it by name."""
    coin = Discrete({0: sp.Rational(1, 2), 1: sp.Rational(1, 2)})
    negative = Discrete({0: sp.Rational(3, 2), 1: -sp.Rational(1, 2)}, check=False)
    with pytest.raises(DensityError, match=r"P is not a probability law \(built with check=False\).*nonnegative"):
        rdpsym.renyi_divergence_mp(negative, coin, 2)
    with pytest.raises(DensityError, match=r"Q is not a probability law \(built with check=False\)"):
        rdpsym.renyi_divergence_mp(coin, Discrete({0: sp.Rational(1, 2), 1: sp.Rational(2, 3)}, check=False), 2)
    fair = Discrete({0: sp.Rational(3, 4), 1: sp.Rational(1, 4)}, check=False)  # a law: its value, as before
    with mpmath.workdps(40):
        assert mpmath.almosteq(rdpsym.renyi_divergence_mp(fair, coin, 2, dps=30), mpmath.log(mpmath.mpf(5) / 4),
                               mpmath.mpf(10) ** -28)
    # (a review) a normaliser known only numerically, written as a decimal: its mass 1 + 8·10⁻¹⁶ is rounding, and the
    # numeric route evaluates the law as written, as it did before it checked laws
    shift = sp.Float(0.3989422804014327)
    N0, N1 = (Continuous(shift * sp.exp(-(x - m) ** 2 / 2), x, check=False) for m in (0, 1))
    assert mpmath.almosteq(rdpsym.renyi_divergence_mp(N0, N1, 1, dps=15), mpmath.mpf(1) / 2, mpmath.mpf(10) ** -13)



def test_a_pmf_switching_between_integers_is_read_piece_by_piece():
    """A pmf whose switch lies between two integers (k² < 5: between 2 and 3) was read as its first branch at every k:
    SymPy solves k² = 5 in an integer k to nothing.  A law of mass 1 was refused as "got 0" (or "got oo"), and only
    check=False let it through.  Switches are solved over the reals."""
    P = Discrete(sp.Piecewise((0, k**2 < 5), (sp.Rational(1, 2) ** (k - 2), True)), k, support=sp.Range(0, sp.oo))
    Q = Discrete(sp.Rational(1, 2) ** (k + 1), k, support=sp.Range(0, sp.oo))
    d = rdpsym.renyi_divergence(P, Q, 2)
    assert d.result == sp.log(8) and str(d.status) in ("proved", "checked")  # P/Q = 8 wherever P > 0
    Discrete(sp.Piecewise((sp.Rational(1, 4), k**2 < 5), (sp.Rational(1, 2) ** k, True)), k, support=sp.Range(0, sp.oo))
