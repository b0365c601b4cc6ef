"""renyi_divergence_mp: precision hygiene, requested digits, the two-precision check, hard cases.

Expected values are computed here: Mironov's propositions evaluated in mpmath,
and an mpmath quadrature of the definition written in this file.
"""

from __future__ import annotations

import re

import mpmath
import pytest
import sympy as sp

import rdpsym
import rdpsym.derive.definition
from rdpsym import ConvergenceError, alpha

b = sp.Symbol("b", positive=True)


def num(value) -> mpmath.mpf:
    """An exact SymPy/int/str number as an mpf at the *current* working precision."""
    r = sp.Rational(value)
    return mpmath.mpf(r.p) / r.q


def laplace_by_hand(order, lam, dps=80):
    """Mironov 2017 Prop 6, for λ = scale/sensitivity (both given exactly)."""
    with mpmath.workdps(dps):
        a, lam = num(order), num(lam)
        m = a / (2 * a - 1) * mpmath.exp((a - 1) / lam) + (a - 1) / (2 * a - 1) * mpmath.exp(-a / lam)
        return mpmath.log(m) / (a - 1)


# ---------------------------------------------------------------- global precision is never changed

CALLS = {
    "laplace-alpha": lambda: rdpsym.renyi_divergence_mp(*rdpsym.laplace(b).pair, 2, dps=30, values={b: 1}),
    "laplace-kl": lambda: rdpsym.renyi_divergence_mp(*rdpsym.laplace(1).pair, 1, dps=30),
    "laplace-inf": lambda: rdpsym.renyi_divergence_mp(*rdpsym.laplace(1).pair, sp.oo, dps=30),
    "gaussian-half": lambda: rdpsym.renyi_divergence_mp(*rdpsym.gaussian(2).pair, sp.Rational(1, 2), dps=30),
    "table": lambda: rdpsym.renyi_divergence_mp(*rdpsym.randomized_response(0.75).pair, 3, dps=30),
    "closed-form": lambda: rdpsym.laplace(b).rdp(3).evalf({b: 2}, dps=40),
}


@pytest.mark.parametrize("call", list(CALLS))
def test_global_precision_is_never_changed(call):
    mpmath.mp.dps = 20
    mpmath.mp.pretty = True
    prec = mpmath.mp.prec
    CALLS[call]()
    assert mpmath.mp.dps == 20 and mpmath.mp.prec == prec
    assert mpmath.mp.pretty is True


def test_global_precision_is_restored_after_an_error(monkeypatch):
    mpmath.mp.dps = 20
    monkeypatch.setattr(rdpsym.derive.definition, "_at_precision", lambda P, Q, tables, order, wp: mpmath.mpf(wp))
    with pytest.raises(ConvergenceError):
        rdpsym.renyi_divergence_mp(*rdpsym.laplace(1).pair, 2, dps=30)
    assert mpmath.mp.dps == 20


def test_the_value_does_not_depend_on_global_precision():
    P, Q = rdpsym.laplace(sp.Rational(1, 3)).pair
    mpmath.mp.dps = 15
    at_default = rdpsym.renyi_divergence_mp(P, Q, 3, dps=50)
    mpmath.mp.dps = 8
    at_low = rdpsym.renyi_divergence_mp(P, Q, 3, dps=50)
    mpmath.mp.dps = 200
    at_high = rdpsym.renyi_divergence_mp(P, Q, 3, dps=50)
    mpmath.mp.dps = 15
    expected = laplace_by_hand(3, sp.Rational(1, 3))
    with mpmath.workdps(60):
        for value in (at_default, at_low, at_high):
            assert abs(value - expected) <= mpmath.mpf(10) ** -49 * expected


# ---------------------------------------------------------------- values at the requested precision


@pytest.mark.parametrize("dps", [15, 30, 50, 80])
def test_value_has_the_requested_digits(dps):
    # Laplace, scale 1/2, α = 2: D_2 = log(2/3·e² + 1/3·e^{−4}) (Prop 6), an irrational number.
    value = rdpsym.renyi_divergence_mp(*rdpsym.laplace(b).pair, 2, dps=dps, values={b: sp.Rational(1, 2)})
    with mpmath.workdps(dps + 30):
        expected = mpmath.log(mpmath.mpf(2) / 3 * mpmath.e**2 + mpmath.exp(-4) / 3)
        assert abs(value - expected) <= mpmath.mpf(10) ** (1 - dps) * expected
    # Returned at the requested precision: rounding to dps digits leaves it unchanged.
    with mpmath.workdps(dps):
        assert +value == value


@pytest.mark.parametrize("dps", [20, 60])
def test_table_value_has_the_requested_digits(dps):
    # RR at p = 3/4, α = 3: log(27/64·4² + 1/64·(4/3)²)/2 (Prop 5) = log(27/4 + 1/36)/2.
    value = rdpsym.renyi_divergence_mp(*rdpsym.randomized_response(sp.Rational(3, 4)).pair, 3, dps=dps)
    with mpmath.workdps(dps + 30):
        q = mpmath.mpf(3) / 4
        expected = mpmath.log(q**3 * (1 - q) ** -2 + (1 - q) ** 3 * q**-2) / 2
        assert abs(value - expected) <= mpmath.mpf(10) ** (1 - dps) * expected


# ---------------------------------------------------------------- the two-precision check


def _fake(values_by_call):
    """_at_precision returning the given values in turn (cycling: a retry sees them again)."""
    calls = []

    def at_precision(P, Q, tables, order, wp):
        calls.append(wp)
        return values_by_call[(len(calls) - 1) % len(values_by_call)]

    return at_precision, calls


def test_disagreeing_precisions_raise_convergence_error(monkeypatch):
    fake, calls = _fake([mpmath.mpf(1), mpmath.mpf(1) + mpmath.mpf(10) ** -10])
    monkeypatch.setattr(rdpsym.derive.definition, "_at_precision", fake)
    with pytest.raises(ConvergenceError, match="did not settle") as e:
        rdpsym.renyi_divergence_mp(*rdpsym.laplace(1).pair, 2, dps=30)
    assert isinstance(e.value, ArithmeticError)
    assert calls[0] >= 30 and calls[1] > calls[0]
    # One retry with the ~20 lacking digits added, then the error.
    assert len(calls) == 4 and calls[2] - calls[1] >= 20 and calls[3] == calls[2] + 20


def test_values_that_did_not_settle_are_shown_to_the_digit_they_differ_in(monkeypatch):
    """A probe: "D_37/10 did not settle: 0.77367799947750062444 at 124 digits vs 0.77367799947750062444 at 144
    digits": two values differing past their 20th digit were printed to 20, the same (and every message's numbers are
    cut to 6).  The message says how many digits they agree to, how far apart they are, and how many were asked."""
    with mpmath.workdps(60):
        fake, _ = _fake([mpmath.mpf(2) / 3, mpmath.mpf(2) / 3 * (1 + mpmath.mpf(10) ** -25)])
    monkeypatch.setattr(rdpsym.derive.definition, "_at_precision", fake)
    with pytest.raises(ConvergenceError, match="to the 30 digits asked") as e:
        rdpsym.renyi_divergence_mp(*rdpsym.laplace(1).pair, 2, dps=30)
    assert re.search(r"which agree to 2[45] digits \(they differ by 6\.\de-26\)", str(e.value)), str(e.value)


def test_disagreement_just_above_the_requested_digits_is_caught(monkeypatch):
    # Differ in the 25th digit while 30 are requested.
    with mpmath.workdps(60):
        fake, _ = _fake([mpmath.mpf(2), mpmath.mpf(2) * (1 + mpmath.mpf(10) ** -25)])
    monkeypatch.setattr(rdpsym.derive.definition, "_at_precision", fake)
    with pytest.raises(ConvergenceError):
        rdpsym.renyi_divergence_mp(*rdpsym.laplace(1).pair, 2, dps=30)


def test_agreeing_precisions_return_the_value(monkeypatch):
    # The control: differing only beyond the requested digits is agreement.
    with mpmath.workdps(80):
        low, high = mpmath.mpf(2) * (1 + mpmath.mpf(10) ** -40), mpmath.mpf(2)
    fake, calls = _fake([low, high])
    monkeypatch.setattr(rdpsym.derive.definition, "_at_precision", fake)
    value = rdpsym.renyi_divergence_mp(*rdpsym.laplace(1).pair, 2, dps=30)
    assert value == 2 and len(calls) == 2


def test_both_precisions_infinite_is_infinite(monkeypatch):
    fake, _ = _fake([mpmath.inf, mpmath.inf])
    monkeypatch.setattr(rdpsym.derive.definition, "_at_precision", fake)
    assert rdpsym.renyi_divergence_mp(*rdpsym.laplace(1).pair, 2, dps=30) == mpmath.inf


def test_two_working_precisions_are_used(monkeypatch):
    """The real _at_precision is called at two working precisions, both above dps."""
    real = rdpsym.derive.definition._at_precision
    seen = []

    def spy(P, Q, tables, order, wp):
        seen.append(wp)
        return real(P, Q, tables, order, wp)

    monkeypatch.setattr(rdpsym.derive.definition, "_at_precision", spy)
    rdpsym.renyi_divergence_mp(*rdpsym.gaussian(1).pair, 2, dps=25)
    assert len(seen) == 2 and len(set(seen)) == 2 and min(seen) > 25


# ---------------------------------------------------------------- hard cases


def test_gaussian_at_order_10000_finds_the_far_peak():
    """P^α Q^{1−α} for N(0,1), N(1,1) peaks at x = 1 − α = −9999, far from both means."""
    value = rdpsym.renyi_divergence_mp(*rdpsym.gaussian(1).pair, 10**4, dps=50)
    with mpmath.workdps(60):
        assert abs(value - 5000) <= mpmath.mpf(10) ** -45 * 5000


@pytest.mark.parametrize("sigma, order", [(sp.Rational(1, 10), 50), (3, 10**3), (sp.Rational(7, 3), sp.Rational(3, 2))])
def test_gaussian_quadrature_is_alpha_over_2_sigma_squared(sigma, order):
    value = rdpsym.renyi_divergence_mp(*rdpsym.gaussian(sigma).pair, order, dps=45)
    with mpmath.workdps(60):
        expected = num(order) / (2 * num(sigma) ** 2)
        assert abs(value - expected) <= mpmath.mpf(10) ** -43 * expected


def _definition_by_quadrature(scale, shift, order, dps=60):
    """∫ P^α Q^{1−α} for P = Λ(0, b), Q = Λ(Δ, b), split at both kinks, in mpmath here."""
    with mpmath.workdps(dps + 20):
        bb, d, a = num(scale), num(shift), num(order)

        def f(t):
            return mpmath.exp(-(a * abs(t) + (1 - a) * abs(t - d)) / bb) / (2 * bb)

        moment = mpmath.quad(f, [-mpmath.inf, 0, d, mpmath.inf])
        return mpmath.log(moment) / (a - 1)


@pytest.mark.parametrize(
    "scale, shift, order",
    [
        (sp.Rational(1, 7), 3, sp.Rational(7, 2)),  # λ = 1/21: the integrand is two sharp kinks
        (sp.Rational(1, 50), 1, 2),  # λ = 1/50
        (sp.Rational(1, 7), 3, sp.Rational(1, 3)),  # an order in (0, 1)
    ],
)
def test_laplace_quadrature_at_kink_heavy_points(scale, shift, order):
    P, Q = rdpsym.laplace(scale=scale, sensitivity=shift).pair
    value = rdpsym.renyi_divergence_mp(P, Q, order, dps=45)
    by_prop6 = laplace_by_hand(order, sp.Rational(scale) / shift)
    by_quad = _definition_by_quadrature(scale, shift, order)
    closed = rdpsym.laplace(scale=scale, sensitivity=shift).rdp(order).evalf(dps=50)
    with mpmath.workdps(60):
        tol = mpmath.mpf(10) ** -42 * abs(by_prop6)
        assert abs(by_quad - by_prop6) <= tol  # the two independent references agree
        assert abs(value - by_prop6) <= tol
        assert abs(closed - by_prop6) <= tol


def test_laplace_kl_and_dinf_by_quadrature():
    """λ = 1/21: KL = 1/λ + e^{−1/λ} − 1 = 20 + e^{−21}, D_∞ = 1/λ = 21 (Table II)."""
    P, Q = rdpsym.laplace(scale=sp.Rational(1, 7), sensitivity=3).pair
    kl = rdpsym.renyi_divergence_mp(P, Q, 1, dps=40)
    dinf = rdpsym.renyi_divergence_mp(P, Q, sp.oo, dps=40)
    with mpmath.workdps(60):
        assert abs(kl - (20 + mpmath.exp(-21))) <= mpmath.mpf(10) ** -38 * 20
        assert abs(dinf - 21) <= mpmath.mpf(10) ** -38 * 21


def test_closed_form_and_quadrature_agree_near_order_one():
    """α = 1 + 10^−20: log(I)/(α−1) cancels ~20 digits; the guard digits must cover them."""
    order = 1 + sp.Rational(1, 10**20)
    P, Q = rdpsym.laplace(b).pair
    value = rdpsym.renyi_divergence_mp(P, Q, order, dps=40, values={b: 2})
    with mpmath.workdps(120):
        expected = laplace_by_hand(order, 2, dps=120)
        assert abs(value - expected) <= mpmath.mpf(10) ** -38 * expected
    closed = rdpsym.laplace(b).rdp(alpha).evalf({b: 2, alpha: order}, dps=40)
    with mpmath.workdps(60):
        assert abs(closed - expected) <= mpmath.mpf(10) ** -38 * expected


@pytest.mark.parametrize("base", [sp.Rational(5, 8), sp.Integer(3000), sp.Rational(-3, 2), sp.Integer(1)])
@pytest.mark.parametrize("index", [3, 2**64 + 1, 2**1024 - 1])
def test_a_power_of_the_index_is_right_at_any_index(base, index):
    """b^k compiled for a sum's index: exact binary powering where k is small, e^{k·log|b|} (with the bits k
    has) where k is huge (a series' scan asks for k up to 2⁴⁰⁹⁶); against mpmath's own power at 80 more bits.
    (Bases exact in binary: a rounded base's error is multiplied by k in any power of it.)"""
    from rdpsym.foundations.precision import private_context
    from rdpsym.quadrature.compile import compile_expr

    k = sp.Symbol("k", integer=True)
    with private_context(30) as ctx:
        value = compile_expr(base**k / 7, k, ctx)(index)
        with ctx.extraprec(80 + 4 * index.bit_length()):
            reference = ctx.convert(base) ** index / 7
        assert ctx.almosteq(value, +reference, rel_eps=ctx.mpf(10) ** -28, abs_eps=0)


def test_critical_seeds_read_the_logs_the_integrand_is_compiled_from():
    """The seeds of the supremum's search solve the derivatives of log p and log q as the compiled integrand has
    them (kept, not expanded again at every point of a check): the Gaussian's mode 3 is found; the skew-normal's
    log, 1 + erf as erfc, has no rational derivative, and its first term read as a mixture component gives 0."""
    from rdpsym.quadrature.log_expressions import _log_expression, log_expression
    from rdpsym.quadrature.seeds import critical_seeds

    x = sp.Symbol("x", real=True)
    p = sp.exp(-(x - 3) ** 2 / 8) / (2 * sp.sqrt(2 * sp.pi))
    q = sp.exp(-x**2 / 2) * (1 + sp.erf(x)) / sp.sqrt(2 * sp.pi)
    log_expression(p), log_expression(q)  # as the numeric route compiles them
    hits = _log_expression.cache_info().hits
    assert critical_seeds(p, q, x, sp.oo, -sp.oo, sp.oo) == (0, 3)
    assert _log_expression.cache_info().hits >= hits + 2


def test_a_product_without_a_sum_is_one_component_and_sums_still_split():
    """mixture_components answers a product with no sum among its factors without SymPy's expand (4 ms for a
    Laplace density, whose exp(−|x|) expand reads as a fraction); everything else is still split by expand."""
    from rdpsym.quadrature.seeds import mixture_components

    x, a = sp.Symbol("x", real=True), sp.Symbol("a", positive=True)
    assert mixture_components(3 * sp.exp(-3 * sp.Abs(x) / 2) / 4, x) == []
    assert mixture_components(2 * x * sp.exp(-(x - a) ** 2) / (x**2 + 1), x) == []
    assert set(mixture_components((sp.exp(-x) + x * sp.exp(-x)) / 2, x)) == {sp.exp(-x) / 2, x * sp.exp(-x) / 2}
    assert mixture_components(sp.exp(-x) * (x + 1) ** 2, x) == []  # a power of a sum stays whole (deep=False)
    assert len(mixture_components(sp.exp(-(x**2)) * (1 + sp.erf(x)), x)) == 2


@pytest.mark.parametrize(("P", "Q", "expected"), [
    (lambda x: rdpsym.laplace(sp.Rational(2, 3)).pair[0], lambda x: rdpsym.laplace(sp.Rational(2, 3)).pair[1],
     sp.Rational(3, 2)),
    (lambda x: rdpsym.Continuous(3 * sp.exp(-3 * x), x, sp.Interval(0, sp.oo)),
     lambda x: rdpsym.Continuous(2 * sp.exp(-2 * x), x, sp.Interval(0, sp.oo)), sp.log(sp.Rational(3, 2))),
    (lambda x: rdpsym.Continuous(sp.exp(-sp.Abs(x)) / 2, x),
     lambda x: rdpsym.Continuous(sp.exp(-sp.Abs(x) / 3) / 6, x), sp.log(3)),
    (lambda x: rdpsym.Continuous(sp.S.One, x, sp.Interval(0, 1)),
     lambda x: rdpsym.Continuous(2 * sp.exp(-2 * x) / (1 - sp.exp(-2)), x, sp.Interval(0, 1)),
     sp.log((1 - sp.exp(-2)) / 2) + 2),
    (lambda x: rdpsym.gaussian(sp.Rational(3, 2)).pair[0], lambda x: rdpsym.gaussian(sp.Rational(3, 2)).pair[1],
     sp.oo),
    (lambda x: rdpsym.Continuous(2 * sp.exp(-2 * x), x, sp.Interval(0, sp.oo)),
     lambda x: rdpsym.Continuous(3 * sp.exp(-3 * x), x, sp.Interval(0, sp.oo)), sp.oo),
], ids=["laplace", "exponential rates", "laplace scales", "uniform against a truncated exponential",
        "gaussian", "exponential rates, the other way"])
def test_a_log_ratio_linear_on_each_piece_has_its_supremum_at_an_end(P, Q, expected, monkeypatch):
    """D_∞ where log(P/Q) = c₀ + c₁·x on each piece (each branch c·e^{E(x)}): the supremum is read at the end the
    slope points to, exactly, +∞ where that end is infinite, with no scan (each scan is about 50 ms of a check
    point's D_∞); the values are the scan's, to 40 digits."""
    from rdpsym.quadrature import supremum

    scanned = []
    monkeypatch.setattr(supremum, "scan_points", lambda *a, **k: scanned.append(1) or [])
    x = sp.Symbol("x", real=True)
    value = rdpsym.derive.definition.univariate_divergence_mp(P(x), Q(x), sp.oo, dps=45)
    assert scanned == []
    if expected is sp.oo:
        assert value == mpmath.inf
    else:
        with mpmath.workdps(60):
            assert abs(value - mpmath.mpf(str(sp.N(expected, 60)))) < mpmath.mpf(10) ** -40


def test_a_negative_irrational_seed_keeps_its_sign():
    """A critical point −√2/2 was placed at +√2/2 (mpmath's man_exp is the mantissa without its sign): a seed
    left out of the piece (−∞, 0) it is in and put into (0, ∞) where it is not, the narrow hill it marks missed.
    A recentring centre at a negative mode had the same fault."""
    from rdpsym.foundations.precision import private_context
    from rdpsym.quadrature.piece import _centres
    from rdpsym.quadrature.seeds import critical_seeds

    x = sp.Symbol("x", real=True)
    p, q = sp.exp(-(x**2 - sp.Rational(1, 2)) ** 2), sp.exp(-(x**2))
    assert critical_seeds(p, q, x, None, -sp.oo, sp.S.Zero) == (-sp.sqrt(2) / 2,)
    assert critical_seeds(p, q, x, None, sp.S.Zero, sp.oo) == (sp.sqrt(2) / 2,)
    with private_context(30) as ctx:
        assert _centres(ctx.mpf(-0.75), [], ctx) == [sp.Rational(-3, 4)]


def test_equal_laws_written_apart_are_zero_derived_and_said_so_by_the_definition():
    """A probe: the uniform law on [0, 1] against the same law written as a Piecewise on the whole line: the definition
    raised "D_2 did not settle: 0.0 at 41 digits vs 0.0 at 61 digits", which reads as a contradiction.  The derivation
    gives 0; the definition, which cannot tell a zero from a divergence below its digits, says that."""
    x = sp.Symbol("x", real=True)
    U = rdpsym.Continuous(1, x, support=sp.Interval(0, 1))
    V = rdpsym.Continuous(sp.Piecewise((1, (x >= 0) & (x <= 1)), (0, True)), x)
    assert rdpsym.renyi_divergence(U, V, 2).evalf() == 0
    with pytest.raises(ConvergenceError, match="D_2 came out 0 at .* the two are not told apart"):
        rdpsym.renyi_divergence_mp(U, V, 2)


def test_a_series_whose_terms_keep_their_size_is_infinite_at_once():
    """A probe: two zeta laws at α = 3 (each term of Σ P³/Q² is the constant ζ(3)²/ζ(2)³) took 160 s of CPU to ∞, and
    a pmf of floors against a geometric law at α = 2 (terms 1/8 and 1/4 in turn) ran 60 s and gave no answer: the
    summation window doubled towards a drop that never comes, through numbers of thousands of digits."""
    k = sp.Symbol("k", integer=True)
    zeta = lambda s: rdpsym.Discrete(k ** (-s) / sp.zeta(s), k, support=sp.Range(1, sp.oo))  # noqa: E731
    half = sp.Rational(1, 2)
    floors = rdpsym.Discrete(half ** (sp.floor(k / 2) + 2), k, support=sp.Range(0, sp.oo))
    geometric = rdpsym.Discrete(half ** (k + 1), k, support=sp.Range(0, sp.oo))
    assert rdpsym.renyi_divergence_mp(zeta(2), zeta(3), 3, dps=30) == mpmath.inf
    for P, Q, order in ((zeta(2), zeta(3), 3), (floors, geometric, 2)):
        d = rdpsym.renyi_divergence(P, Q, order)
        assert d.result == sp.oo and d.status in ("checked", "proved"), d


def test_a_series_of_signed_terms_that_do_not_tend_to_zero_has_no_sum():
    """A review: after the constant-terms fix, Σ (−1)^k and Σ cos k came out +∞; they have no sum."""
    from rdpsym.quadrature.series import sum_range

    with mpmath.workdps(30):
        for term in (lambda k: mpmath.mpf(-1) ** k, lambda k: mpmath.cos(k)):
            with pytest.raises(ConvergenceError, match="neither fall below its level nor keep their sign"):
                sum_range(term, sp.Integer(0), sp.oo, mpmath.mp)
        assert sum_range(lambda k: mpmath.mpf(1) / 3, sp.Integer(0), sp.oo, mpmath.mp) == mpmath.inf


def test_a_series_whose_largest_term_lies_past_the_scan_is_not_infinite():
    """A probe: Σ P^α Q^{1−α} of Poisson(3) against Poisson(1/2) at α = 1600 peaks at k ≈ 10¹²⁴¹, past the scan's last
    offset 2⁴⁰⁹⁶ ≈ 10¹²³³; "still growing there" was read as divergence, and +∞ returned "agreeing at two precisions"
    for a finite D (and a correct closed form refused at α = 2000).  Terms growing ever more slowly there are not
    summed (no answer, said so); terms growing like k², 2^k or k! are +∞ as before."""
    from rdpsym.quadrature.series import sum_range

    k = sp.Symbol("k", integer=True)
    poisson = lambda rate: rdpsym.Discrete(sp.exp(-rate) * rate**k / sp.factorial(k), k,  # noqa: E731
                                           support=sp.Range(0, sp.oo))
    with pytest.raises(ConvergenceError, match="ever more slowly"):
        rdpsym.renyi_divergence_mp(poisson(3), poisson(sp.Rational(1, 2)), 1600, dps=30)
    # (a second probe: Poisson(10) against a COM-Poisson law at α = 1.999, terms x^k/(k!)^{0.001}: log|t_k|/k falls
    # by only 0.71 between the last offsets, and a first threshold of 1 called the finite sum ∞)
    com = rdpsym.Discrete(1 / (sp.factorial(k) ** 2 * sp.besseli(0, 2)), k, support=sp.Range(0, sp.oo))
    with pytest.raises(ConvergenceError, match="ever more slowly"):
        rdpsym.renyi_divergence_mp(poisson(10), com, sp.Rational(1999, 1000))
    with mpmath.workdps(30):
        for term in (lambda j: mpmath.mpf(j) ** 2, lambda j: mpmath.mpf(2) ** j, lambda j: mpmath.factorial(j)):
            assert sum_range(term, sp.Integer(0), sp.oo, mpmath.mp) == mpmath.inf


@pytest.mark.parametrize("seconds", [-1, 0, float("nan"), float("inf"), True, "5"])
def test_a_time_ceiling_that_is_no_number_of_seconds_is_refused_before_any_work(seconds):
    """A probe: seconds=-1 (or NaN) was accepted, and the definition then "did not finish within -1 s"."""
    P, Q = rdpsym.gaussian(1).pair
    with pytest.raises(rdpsym.ParameterError, match="seconds must be a positive finite number"):
        rdpsym.renyi_divergence_mp(P, Q, 2, seconds=seconds)


def test_a_series_of_numbers_no_route_sums_is_a_convergence_error_not_a_raw_type_error():
    """A probe: the discrete Gaussian at σ = 10⁵ raised ``TypeError: not a real number: Sum(exp(−j²/20000000000), …)``
    out of renyi_divergence_mp and rdp(2): its normaliser's mass spans more terms than a series may add one by one,
    and the constant was then said to be no real number."""
    from rdpsym.foundations.precision import private_context
    from rdpsym.quadrature.compile import to_mpf

    j = sp.Symbol("j", integer=True)
    with private_context(30) as ctx:
        with pytest.raises(ConvergenceError, match="in a constant could not be summed"):
            to_mpf(sp.Sum(sp.exp(-j**2 / 20000000000), (j, -sp.oo, sp.oo)), ctx)
        assert mpmath.almosteq(to_mpf(sp.Sum(sp.exp(-200 * j**2), (j, -sp.oo, sp.oo)), ctx), 1, mpmath.mpf(10) ** -25)
        # (a review) a constant whose series is summed but which is no real number stays "not a real number": the
        # callers that try another form on that TypeError keep doing so
        with pytest.raises(TypeError, match="not a real number"):
            to_mpf(sp.log(-sp.Sum(sp.exp(-j**2 / 2), (j, -sp.oo, sp.oo))), ctx)

