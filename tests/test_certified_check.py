"""The certified fast path of the 40-digit check (rdpsym.derive.certified): an Arb ball for the definition.

It must agree with the independent mpmath route to 40 digits wherever it answers, reject a wrong
closed form on its own, and step aside (None, so the check uses the mpmath route, and the evidence
says which route checked) where it cannot apply.
"""

from __future__ import annotations

import threading

import mpmath
import pytest
import sympy as sp
from flint import arb

import rdpsym
from rdpsym.derive.certified import METHOD, certified_divergence
from rdpsym.derive.numeric import renyi_divergence_mp
from rdpsym.derive.verify import AGREE_DIGITS, check_against_definition
from rdpsym.engine.context import Hypotheses
from rdpsym.foundations.balls import precision
from rdpsym.foundations.errors import VerificationError
from rdpsym.foundations.record import AgreesWithDefinition

x = sp.Symbol("x", real=True)
R = sp.Rational
HALF_LINE = sp.Interval(0, sp.oo)
UNIT = sp.Interval(0, 1)


def _gamma(shape, rate):
    return rdpsym.Continuous(rate**shape * x ** (shape - 1) * sp.exp(-rate * x) / sp.gamma(shape), x, HALF_LINE)


PAIRS = {
    "gaussian": lambda: rdpsym.gaussian(R(6, 5)).pair,
    "gaussian, other centres": lambda: (
        rdpsym.Continuous(sp.exp(-(x - 1) ** 2 / 2) / sp.sqrt(2 * sp.pi), x),
        rdpsym.Continuous(sp.exp(-(x + R(1, 3)) ** 2 / 8) / (2 * sp.sqrt(2 * sp.pi)), x)),
    "laplace (a kink at each centre: pieces)": lambda: rdpsym.laplace(R(7, 3)).pair,
    "exponential": lambda: (rdpsym.Continuous(3 * sp.exp(-3 * x), x, HALF_LINE),
                            rdpsym.Continuous(2 * sp.exp(-2 * x), x, HALF_LINE)),
    "rayleigh (x·e^{−x²}, a power at the end 0)": lambda: tuple(
        rdpsym.Continuous(x / s**2 * sp.exp(-x**2 / (2 * s**2)), x, HALF_LINE) for s in (1, R(3, 2))),
    "gamma 3/2 (a non-integer power at 0)": lambda: (_gamma(R(3, 2), 2), _gamma(R(3, 2), 1)),
    "chi-square 1 (x^{−1/2}: a singular end)": lambda: (_gamma(R(1, 2), 1), _gamma(R(1, 2), R(1, 2))),
    "cauchy (a power-law tail, both ends)": lambda: (
        rdpsym.Continuous(1 / (sp.pi * (1 + x**2)), x), rdpsym.Continuous(1 / (sp.pi * (1 + (x - 1) ** 2)), x)),
    "pareto (a power-law tail)": lambda: tuple(
        rdpsym.Continuous(a * x ** (-a - 1), x, sp.Interval(1, sp.oo)) for a in (3, 2)),
    "beta(2, 2) vs uniform (powers at both ends)": lambda: (rdpsym.Continuous(6 * x * (1 - x), x, UNIT),
                                                             rdpsym.Continuous(sp.S.One, x, UNIT)),
    "sampled gaussian (the log of a sum of exponentials)": lambda: _sampled_gaussian(R(1, 20), R(6, 5)),
    "inverse gamma (e^{−b/x}: an essential zero at 0, integrated in u = 1/x)": lambda: tuple(
        _inverse_gamma(R(3, 2), b) for b in (3, 1)),
    "levy (x^{−3/2}·e^{−c/(2x)})": lambda: tuple(_inverse_gamma(R(1, 2), c / 2) for c in (R(5, 2), R(1))),
    "log-normal, two scales (log x squared: integrated in u = log x)": lambda: tuple(
        rdpsym.Continuous(sp.exp(-(sp.log(x) - m) ** 2 / (2 * v)) / (x * sp.sqrt(2 * sp.pi * v)), x, HALF_LINE)
        for m, v in ((R(1, 3), 1), (0, R(3, 2)))),
    "gamma of two shapes (log(P/Q) has log x)": lambda: (_gamma(3, R(5, 2)), _gamma(2, R(3, 2))),
    "frechet of shape 5/2 (e^{−c·x^{−5/2}} at 0: a tail e^{−c·u^{5/2}} in u = 1/x)": lambda: tuple(
        rdpsym.Continuous(R(5, 2) / s * (x / s) ** R(-7, 2) * sp.exp(-(x / s) ** R(-5, 2)), x, HALF_LINE)
        for s in (R(6, 5), R(3, 4))),
    "log-logistic of shape 5/2 (1 + x^{5/2}: rational powers, split in u = log x toward each end)": lambda: tuple(
        rdpsym.Continuous(R(5, 2) / s * (x / s) ** R(3, 2) / (1 + (x / s) ** R(5, 2)) ** 2, x, HALF_LINE)
        for s in (R(6, 5), R(3, 4))),
    "gumbel, scales 3/2 and 2 (e^{−c·e^{−x/β}} toward −∞: a power tail in y = e^{−x/2})": lambda: (
        _gumbel(0, R(3, 2)), _gumbel(R(1, 3), 2)),
    "gompertz (e^{−η·e^{bx}} toward ∞ on a half-line: y = e^{x/2})": lambda: tuple(
        rdpsym.Continuous(b * eta * sp.exp(eta + b * x - eta * sp.exp(b * x)), x, HALF_LINE)
        for eta, b in ((1, 1), (2, R(1, 2)))),
    "von mises (I₀(κ) in the constant: its ₀F₁ form certified positive)": lambda: tuple(
        rdpsym.Continuous(sp.exp(R(3, 2) * sp.cos(x - m)) / (2 * sp.pi * sp.besseli(0, R(3, 2))), x,
                          sp.Interval(-sp.pi, sp.pi)) for m in (0, 1)),
    "mixtures of unequal scales on both sides (the dominant component differs at each end)": lambda: (
        rdpsym.Continuous(_normal(-1, 1) / 2 + _normal(1, R(9, 4)) / 2, x, check=False),
        rdpsym.Continuous(_normal(0, 4) / 3 + 2 * _normal(1, R(9, 2)) / 3, x, check=False)),
}


def _inverse_gamma(shape, scale):
    """Inverse gamma (shape, scale): b^k x^{−k−1} e^{−b/x}/Γ(k) on (0, ∞); Lévy(0, c) is shape 1/2, scale c/2."""
    return rdpsym.Continuous(scale**shape * x ** (-shape - 1) * sp.exp(-scale / x) / sp.gamma(shape), x, HALF_LINE)


def _gumbel(centre, scale):
    return rdpsym.Continuous(sp.exp(-(x - centre) / scale - sp.exp(-(x - centre) / scale)) / scale, x)


def _normal(mean, variance):
    return sp.exp(-(x - mean) ** 2 / (2 * variance)) / sp.sqrt(2 * sp.pi * variance)


def _sampled_gaussian(q, s):
    """(μ, μ₀) = ((1 − q)·N(0, s²) + q·N(1, s²), N(0, s²)): the sampled Gaussian mechanism's pair."""
    return (rdpsym.Continuous((1 - q) * _normal(0, s**2) + q * _normal(1, s**2), x, check=False),
            rdpsym.Continuous(_normal(0, s**2), x, check=False))
ORDERS = (R(3, 2), R(1, 2), 2, R(11, 2))  # (each pair's divergence is finite at every order: P's tail is lighter)


@pytest.mark.parametrize("name", list(PAIRS))
@pytest.mark.parametrize("order", ORDERS, ids=str)
def test_the_certified_ball_agrees_with_the_mpmath_route_to_40_digits(name, order):
    P, Q = PAIRS[name]()
    ball = certified_divergence(P, Q, sp.S(order), AGREE_DIGITS)
    assert ball is not None, f"{name}: the fast path should apply at order {order}"
    reference = renyi_divergence_mp(P, Q, order, dps=AGREE_DIGITS + 10)
    with precision(300):
        # narrow enough to decide 40 digits, and the independent value lies in it (up to its own 50 digits)
        assert ball.rad() <= abs(ball.mid()) * arb(10) ** -(AGREE_DIGITS + 1)
        assert (arb(mpmath.nstr(reference, AGREE_DIGITS + 10)) - ball).abs_lower() <= \
            abs(ball.mid()) * arb(10) ** -(AGREE_DIGITS + 5)


@pytest.mark.parametrize("name", ["gaussian", "laplace (a kink at each centre: pieces)", "rayleigh (x·e^{−x²}, a power at the end 0)",
                                  # a non-integer power at 0 (cut off with the bounds of |P·log(P/Q)|), an essential
                                  # zero there, power-law tails (integrated in u = log|x|), log x in log(P/Q)
                                  "gamma 3/2 (a non-integer power at 0)", "chi-square 1 (x^{−1/2}: a singular end)",
                                  "levy (x^{−3/2}·e^{−c/(2x)})", "cauchy (a power-law tail, both ends)",
                                  "log-normal, two scales (log x squared: integrated in u = log x)",
                                  "gamma of two shapes (log(P/Q) has log x)",
                                  "log-logistic of shape 5/2 (1 + x^{5/2}: rational powers, split in u = log x toward "
                                  "each end)",
                                  "gumbel, scales 3/2 and 2 (e^{−c·e^{−x/β}} toward −∞: a power tail in y = e^{−x/2})",
                                  "von mises (I₀(κ) in the constant: its ₀F₁ form certified positive)"])
def test_kl_divergence_takes_the_certified_path_too(name):
    P, Q = PAIRS[name]()
    ball = certified_divergence(P, Q, sp.S.One, AGREE_DIGITS)
    reference = renyi_divergence_mp(P, Q, 1, dps=AGREE_DIGITS + 10)
    assert ball is not None
    with precision(300):
        assert _within(ball, reference)


def test_the_kl_tail_bounds_are_made_only_as_far_as_they_are_tried(monkeypatch):
    """The KL integrand's tail bounds are tried for ε = 1/4, 1/32, 1/256 in turn, and the first gives the cut of
    a Gaussian pair: the other two are never built (built up front, the three were 29 % of the certified route's
    time in Table II); a Pareto pair whose first bound is not integrable still gets the second."""
    from rdpsym.derive import certified

    asked = []
    bounds = certified._kl_bounds
    monkeypatch.setattr(certified, "_kl_bounds", lambda lp, lq, eps: asked.append(eps) or bounds(lp, lq, eps))
    P, Q = rdpsym.gaussian(R(6, 5)).pair
    assert certified_divergence(P, Q, sp.S.One, AGREE_DIGITS) is not None
    assert asked == [R(1, 4)]
    asked.clear()
    pareto = [rdpsym.Continuous(g * x ** (-g - 1), x, sp.Interval(1, sp.oo)) for g in (1, 7)]  # g₂ > 5·g₁
    ball = certified_divergence(*pareto, sp.S.One, AGREE_DIGITS)
    assert ball is not None and R(1, 32) in asked
    with precision(300):
        assert _within(ball, renyi_divergence_mp(*pareto, 1, dps=AGREE_DIGITS + 10))


def test_a_tail_shape_is_kept_per_precision():
    """The tail's shape is read once for its cut and its bound, but a shape read at 53 bits is not given again at
    300: its balls would be as wide as 53 bits make them."""
    from rdpsym.derive.certified_ends import _tail_shape

    L = -x**2 / 3 + sp.log(sp.pi) / 7
    with precision(53):
        low = _tail_shape(L, x, sp.S.Zero)
    with precision(300):
        high = _tail_shape(L, x, sp.S.Zero)
        assert _tail_shape(L, x, sp.S.Zero) is high
    assert low[0] == high[0] == "exp" and high[-2].rad() < low[-2].rad()


def test_a_logistic_pairs_kl_keeps_the_decay_its_log_of_a_sum_gives_the_tail():
    """log P = −x/s − 2·log(1 + e^{−x/s}) + c: towards −∞ the second term is what makes P decay, and its bound
    (a sum of exponentials' dominant one) must be kept; read as "a negative multiple of a positive function, so
    at most 0" it was dropped, the tail bound failed and the certified route gave nothing."""
    s = R(3, 2)
    P, Q = (rdpsym.Continuous(sp.exp(-(x - m) / s) / (s * (1 + sp.exp(-(x - m) / s)) ** 2), x) for m in (0, 1))
    ball = certified_divergence(P, Q, sp.S.One, AGREE_DIGITS)
    assert ball is not None
    reference = renyi_divergence_mp(P, Q, 1, dps=AGREE_DIGITS + 10)
    with precision(300):
        assert _within(ball, reference)


@pytest.mark.parametrize("q, s", [(R(1, 100), R(11, 10)), (R(1, 2), R(1, 2)), (R(1), R(3))])
def test_a_sampled_gaussian_ball_holds_the_exact_order_2_value(q, s):
    # Mironov–Talwar–Zhang's binomial sum at α = 2: A₂ = 1 + q²(e^{1/σ²} − 1), D₂ = log A₂.
    P, Q = _sampled_gaussian(q, s)
    ball = certified_divergence(P, Q, sp.S(2), AGREE_DIGITS)
    assert ball is not None
    with precision(300):
        exact = (1 + arb(q.p) ** 2 / arb(q.q) ** 2 * ((arb(s.q) ** 2 / arb(s.p) ** 2).exp() - 1)).log()
        assert ball.overlaps(exact) and ball.rad() <= exact * arb(10) ** -(AGREE_DIGITS + 1)


def _counting_evaluations(monkeypatch) -> list[int]:
    """The integrand evaluations of each Arb integral the certified route makes from now on."""
    from rdpsym.derive import certified

    counts: list[int] = []
    integral = certified.acb_integral

    def counting(f, a, b, **limits):
        counts.append(0)

        def counted(z, analytic):
            counts[-1] += 1
            return f(z, analytic)
        return integral(counted, a, b, **limits)

    monkeypatch.setattr(certified, "acb_integral", counting)
    return counts


#: (weight, mean) of three unit normals.
_THREE = ((R(1, 4), -1), (R(1, 2), 0), (R(1, 4), 2))


def _three_normals():
    """(¼N(−1, 1) + ½N(0, 1) + ¼N(2, 1), N(0, 1)); at α = 3, ∫P³Q⁻² = Σ_{ijk} w_i w_j w_k·e^{(s² − Σm²)/2}, s and
    Σm² the sum and the sum of squares of the three components' means (each term a Gaussian integral)."""
    P = rdpsym.Continuous(sum(w * _normal(m, 1) for w, m in _THREE), x, check=False)
    return P, rdpsym.Continuous(_normal(0, 1), x, check=False)


def _three_normals_order_3() -> mpmath.mpf:
    with mpmath.workdps(60):
        total = mpmath.fsum(mpmath.mpf(wi * wj * wk) * mpmath.exp(mpmath.mpf((mi + mj + mk) ** 2 - mi**2 - mj**2 - mk**2) / 2)
                            for wi, mi in _THREE for wj, mj in _THREE for wk, mk in _THREE)
        return mpmath.log(total) / 2


def _quadrature_of_the_definition(P, Q, order) -> mpmath.mpf:
    """D_order(P‖Q) by mpmath's quadrature of the raw densities at 60 digits (P·log(P/Q) at order 1)."""
    integrand = P.expr * sp.log(P.expr / Q.expr) if order == 1 else P.expr**order * Q.expr ** (1 - order)
    with mpmath.workdps(60):
        total = mpmath.quad(sp.lambdify(x, integrand, "mpmath"), [-mpmath.inf, -10, -1, 0, 1, 2, 10, mpmath.inf])
        return total if order == 1 else mpmath.log(total) / (mpmath.mpf(order.p) / order.q - 1)


@pytest.mark.parametrize("pair, order, exact", [
    (lambda: _sampled_gaussian(R(1, 100), R(11, 10)), R(3, 2), None),
    (lambda: _sampled_gaussian(R(1, 100), R(11, 10)), sp.S.One, None),
    (_three_normals, sp.S(3), _three_normals_order_3),
    (_three_normals, R(5, 2), None),
], ids=["sampled gaussian, 3/2", "sampled gaussian, KL", "three normals against one, 3", "three normals, 5/2"])
def test_a_mixtures_log_is_factored_so_few_evaluations_certify_it(monkeypatch, pair, order, exact):
    """log Σ a_i·e^{h_i} is compiled as h_k + log Σ a_i·e^{h_i − h_k}.  As written, e^{h_i} of a Gaussian's quadratic
    on a complex ball far out spun through every phase, the sum's ball held 0 and its log had no bound, so Arb
    bisected the line into narrow pieces: about 20 000 evaluations for the sampled Gaussian at 40 digits, and
    40 000 for three components at α = 5/2 (at 50 digits past Arb's limit: no ball, and the mpmath route).
    The balls are right against an exact sum of Gaussian integrals, or mpmath's quadrature of the raw densities."""
    counts = _counting_evaluations(monkeypatch)
    P, Q = pair()
    ball = certified_divergence(P, Q, order, AGREE_DIGITS)
    assert ball is not None
    assert sum(counts) < 8000, counts
    truth = exact() if exact is not None else _quadrature_of_the_definition(P, Q, order)
    with precision(300):
        assert ball.rad() <= abs(ball.mid()) * arb(10) ** -(AGREE_DIGITS + 1)
        assert _within(ball, truth), (ball.str(30), mpmath.nstr(truth, 30))


@pytest.mark.parametrize("k, b1, b2", [(R(3, 2), 3, 1), (R(1, 2), R(5, 4), R(1, 2)), (R(7, 3), R(5, 4), R(9, 2))])
@pytest.mark.parametrize("order", [R(1, 10), R(1, 2), R(1001, 1000), R(3, 2), R(7, 2)], ids=str)
def test_an_essential_zero_at_an_end_is_certified_in_the_reciprocal_variable(k, b1, b2, order):
    # Inverse gamma laws of one shape (Lévy laws for k = 1/2): x = 1/t maps them to gamma laws of rates b1, b2,
    # so ∫ P^α Q^{1−α} = b1^{kα}·b2^{k(1−α)}/(α·b1 + (1 − α)·b2)^k where that base is positive (∞ otherwise).
    # The end 0, where e^{−b/x} vanishes faster than any power, is integrated in u = 1/x: a tail e^{−b·u}.
    P, Q = _inverse_gamma(k, b1), _inverse_gamma(k, b2)
    ball = certified_divergence(P, Q, sp.S(order), AGREE_DIGITS)
    base = order * b1 + (1 - order) * b2
    if base <= 0:
        assert ball is None  # ∞: the mpmath route finds the witness
        return
    assert ball is not None
    with mpmath.workdps(60):
        a, kk = (mpmath.mpf(v.p) / v.q for v in (sp.S(order), sp.S(k)))
        exact = (kk * a * mpmath.log(b1) + kk * (1 - a) * mpmath.log(b2) - kk * mpmath.log(mpmath.mpf(base.p) / base.q)) \
            / (a - 1)
    with precision(300):
        assert ball.rad() <= abs(ball.mid()) * arb(10) ** -(AGREE_DIGITS + 1)
        assert _within(ball, exact), (ball.str(30), mpmath.nstr(exact, 30))


def test_the_kl_of_inverse_gamma_laws_is_certified_against_its_closed_form():
    P, Q = _inverse_gamma(R(3, 2), 3), _inverse_gamma(R(3, 2), 1)
    ball = certified_divergence(P, Q, sp.S.One, AGREE_DIGITS)
    with mpmath.workdps(60):  # E_P[log P − log Q] = k·log(b1/b2) + (b2 − b1)·E_P[1/x], E_P[1/x] = k/b1
        exact = R(3, 2) * mpmath.log(3) + (1 - 3) * mpmath.mpf(3) / 2 / 3
    assert ball is not None
    with precision(300):
        assert _within(ball, exact) and ball.rad() <= abs(ball.mid()) * arb(10) ** -41


def _within(ball: arb, exact: mpmath.mpf) -> bool:
    """The 60-digit reference, read to 55 digits, lies within 10^−45 (relative) of the ball."""
    return (arb(mpmath.nstr(exact, 55)) - ball).abs_lower() <= abs(ball.mid()) * arb(10) ** -(AGREE_DIGITS + 5)


@pytest.mark.parametrize("order", [R(1, 10), R(1, 2), R(9, 10)], ids=str)
def test_mass_where_the_other_law_is_zero_adds_nothing_below_order_one(order):
    # Pareto(2) laws of scales 1 and 3: on [1, 3) only P has mass, which Q^{1−α} = 0 there removes below α = 1;
    # ∫ P^α Q^{1−α} = 1^{2α}·3^{2(1−α)}·3^{−2} = 3^{−2α}, so D_α = 2α·log 3/(1 − α); the other way the first law
    # is 0 there, ∫ Q^α P^{1−α} = 3^{2α−2} and D_α(Q‖P) = 2·log 3 at every order.
    P, Q = (rdpsym.Continuous(2 * m**2 * x**-3, x, sp.Interval(m, sp.oo)) for m in (1, 3))
    ball, back = (certified_divergence(A, B, sp.S(order), AGREE_DIGITS) for A, B in ((P, Q), (Q, P)))
    with mpmath.workdps(60):
        a = mpmath.mpf(order.p) / order.q
        exact, exact_back = 2 * a * mpmath.log(3) / (1 - a), 2 * mpmath.log(3)
    assert ball is not None and back is not None
    with precision(300):
        assert _within(ball, exact) and ball.rad() <= abs(ball.mid()) * arb(10) ** -41
        assert _within(back, exact_back)
    assert certified_divergence(P, Q, sp.S(2), AGREE_DIGITS) is None  # from order 1 on it is ∞: not this route's


sigma = sp.Symbol("sigma", positive=True)


def test_the_check_records_the_certified_route_and_rejects_a_wrong_form_by_it():
    P, Q = rdpsym.gaussian(sigma).pair
    a = rdpsym.alpha
    evidence = check_against_definition(P, Q, a, a / (2 * sigma**2), (), Hypotheses(a))
    points = [e for e in evidence if isinstance(e, AgreesWithDefinition)]
    assert points and all(e.method == METHOD and e.digits == AGREE_DIGITS for e in points)
    assert "by certified quadrature (Arb)" in str(evidence[0])
    # A form wrong in its 31st digit is outside the certified ball: rejected, with the ball in the message.
    for wrong in (a / sigma**2, a / (2 * sigma**2) * (1 + sp.Rational(1, 10**30))):
        with pytest.raises(VerificationError, match="outside the certified"):
            check_against_definition(P, Q, a, wrong, (), Hypotheses(a))


def test_a_form_wrong_only_beyond_40_digits_is_not_rejected_but_one_at_39_is():
    P, Q = rdpsym.gaussian(sigma).pair
    a = rdpsym.alpha
    right = a / (2 * sigma**2)
    assert check_against_definition(P, Q, a, right * (1 + sp.Rational(1, 10**45)), (), Hypotheses(a))
    with pytest.raises(VerificationError):
        check_against_definition(P, Q, a, right * (1 + sp.Rational(1, 10**39)), (), Hypotheses(a))


@pytest.mark.parametrize("why, pair, order", [
    ("a tail e^{−√x}: no tail bound of that shape",
     lambda: (rdpsym.Continuous(sp.exp(-sp.sqrt(x)) / 2, x, sp.Interval.open(0, sp.oo)),
              rdpsym.Continuous(sp.exp(-sp.sqrt(x) / 2) / 8, x, sp.Interval.open(0, sp.oo))), R(3, 2)),
    ("a tail too slow for Arb's bisection to reach its cut (x^{−1.01})",
     lambda: tuple(rdpsym.Continuous(a * x ** (-a - 1), x, sp.Interval(1, sp.oo)) for a in (R(1, 100), R(1, 50))),
     R(1, 2)),
    ("a hyperbolic secant (log cosh x in the log density: no tail bound of that shape)",
     lambda: tuple(rdpsym.Continuous(1 / (sp.pi * sp.cosh(x - m)), x) for m in (0, 1)), R(3, 2)),
    ("the order ∞ is a supremum, not an integral", lambda: rdpsym.laplace(1).pair, sp.oo),
    ("a discrete law: sums take the exact route", lambda: rdpsym.randomized_response(R(3, 4)).pair, 2),
    ("log((x − 1)²) expanded is 2·log(x − 1), false below 1: not trusted",
     lambda: (rdpsym.Continuous(3 * (x - 1)**2 / 2, x, sp.Interval(0, 2)),
              rdpsym.Continuous(sp.S.Half, x, sp.Interval(0, 2))), R(3, 2)),
    ("the value cancels below the ball's digits (σ = 10^30)", lambda: rdpsym.gaussian(10**30).pair, 2),
])
def test_the_fast_path_steps_aside_where_it_cannot_decide(why, pair, order):
    P, Q = pair()
    assert certified_divergence(P, Q, sp.S(order), AGREE_DIGITS) is None, why


def test_where_it_steps_aside_the_check_uses_the_mpmath_route_and_says_so():
    P, Q = tuple(rdpsym.Continuous(1 / (sp.pi * sp.cosh(x - m)), x) for m in (0, 1))  # hyperbolic secant
    value = renyi_divergence_mp(P, Q, R(1, 2), dps=AGREE_DIGITS + 5)
    closed = sp.Float(mpmath.nstr(value, AGREE_DIGITS + 5), AGREE_DIGITS + 5)
    evidence = check_against_definition(P, Q, R(1, 2), closed, (), Hypotheses(None))
    assert 0 < value < 1
    assert [e.method for e in evidence if isinstance(e, AgreesWithDefinition)] == [None]  # the mpmath route
    assert "certified" not in str(evidence[0])
    with pytest.raises(VerificationError, match="disagrees"):
        check_against_definition(P, Q, R(1, 2), closed * (1 + sp.Rational(1, 10**35)), (), Hypotheses(None))


def test_threads_get_the_same_balls_and_leave_the_precision_as_they_found_it():
    from flint import ctx

    before = ctx.prec
    P, Q = rdpsym.gaussian(R(6, 5)).pair
    results: list = []

    def work():
        results.append(certified_divergence(P, Q, R(3, 2), AGREE_DIGITS))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert ctx.prec == before
    assert len(results) == 4 and all(r is not None and r.overlaps(results[0]) for r in results)
    with precision(300):
        assert all(r.overlaps(arb(25) / 48) for r in results)  # α/(2σ²) = (3/2)/(2·36/25)


def test_a_linear_pdf_keeps_its_sum_whole_in_the_log():
    # Was a wrong certified ball, [−3.91 ± 2e−15] for 0.006780 (and the correct log(148/147) rejected): the log
    # of (2x + 6)/7 was split as if its two terms were factors, log(6/7) + log(2x/7).
    P, Q = rdpsym.Continuous((2 * x + 6) / 7, x, UNIT), rdpsym.Continuous(sp.S.One, x, UNIT)
    ball = certified_divergence(P, Q, sp.S(2), AGREE_DIGITS)
    with precision(200):
        assert ball is not None and ball.overlaps((arb(148) / 147).log())
    assert renyi_divergence_mp(P, Q, 2, dps=30) > 0


def test_constants_arb_cannot_evaluate_whole_and_far_finite_ends_still_give_balls():
    # B(5/2, 7/3) in a normaliser sent the constant folding into endless recursion (the route gave up); a
    # piece reaching 2^30 was integrated with the tail's log form, where (H − x)² vanishes at the end.
    def beta(a, b):
        return rdpsym.Continuous(x ** (a - 1) * (1 - x) ** (b - 1) / sp.beta(a, b), x, UNIT)

    P, Q = beta(R(5, 2), R(7, 3)), beta(3, R(5, 2))
    ball = certified_divergence(P, Q, sp.S(2), AGREE_DIGITS)
    reference = renyi_divergence_mp(P, Q, 2, dps=AGREE_DIGITS + 10)
    H = 2**30
    far = (rdpsym.Continuous(3 * (H - x) ** 2 / H**3, x, sp.Interval(0, H)),
           rdpsym.Continuous(sp.S.One / H, x, sp.Interval(0, H)))
    long_piece = certified_divergence(*far, sp.S(2), AGREE_DIGITS)  # ∫ 9(H − x)⁴/H⁵ dx = 9/5: D₂ = log(9/5)
    with precision(300):
        assert ball is not None and (arb(mpmath.nstr(reference, AGREE_DIGITS + 10)) - ball).abs_lower() <= \
            abs(ball.mid()) * arb(10) ** -(AGREE_DIGITS + 5)
        assert long_piece is not None and long_piece.overlaps((arb(9) / 5).log())


# --- laws in several variables: each coordinate's ball, summed ----------------------------------------------

def _exponentials(rate_p, rate_q):
    return (rdpsym.Continuous(rate_p * sp.exp(-rate_p * x), x, HALF_LINE),
            rdpsym.Continuous(rate_q * sp.exp(-rate_q * x), x, HALF_LINE))


def test_independent_coordinates_are_checked_by_the_certified_balls_of_their_coordinates():
    """Three i.i.d. exponential coordinates, and a Gaussian beside a Laplace coordinate: every sample point of the
    joint check agrees with the sum of the coordinates' balls (each times its copies), and says so."""
    rate = sp.Symbol("r", positive=True)
    P, Q = _exponentials(rate, 2 * rate)
    d = rdpsym.renyi_divergence(P**3, Q**3, rdpsym.alpha)
    finite = [e for e in d.evidence if isinstance(e, AgreesWithDefinition) and e.digits is not None]
    assert finite and all(e.method == METHOD for e in finite)  # (from α = 2 on, both sides are ∞)
    G, L = rdpsym.gaussian(R(6, 5)).pair, rdpsym.laplace(R(7, 3)).pair
    y = sp.Symbol("y", real=True)
    P2 = rdpsym.Continuous(G[0].pdf * L[0].pdf.subs(L[0].var, y), (G[0].var, y))
    Q2 = rdpsym.Continuous(G[1].pdf * L[1].pdf.subs(L[1].var, y), (G[1].var, y))
    d2 = rdpsym.renyi_divergence(P2, Q2, R(5, 2))
    assert [e.method for e in d2.evidence if isinstance(e, AgreesWithDefinition)] == [METHOD]


def test_a_joint_closed_form_off_in_its_35th_digit_is_refused_by_the_coordinates_balls():
    from rdpsym.derive.joint_check import check_joint

    P, Q = _exponentials(R(2), R(1))
    order = R(3, 2)
    one = sp.log(2**order / (order + 1)) / (order - 1)  # rates 2 and 1: ∫ 2^α e^{−(α+1)x} = 2^α/(α + 1)
    check_joint(P**3, Q**3, order, 3 * one, Hypotheses())  # the true value passes
    with pytest.raises(VerificationError, match="outside the certified"):
        check_joint(P**3, Q**3, order, 3 * one * (1 + R(1, 10**35)), Hypotheses())


@pytest.mark.parametrize("order", [R(1, 2), R(9, 10), R(1001, 1000), R(3, 2), 2], ids=str)
def test_beta_laws_of_fractional_shapes_are_certified(order):
    """B(a, b) in the constant is evaluated in balls (Γ(a)Γ(b)/Γ(a + b)); x^{3/2} and (1 − x)^{−1/4} are powers at
    the ends.  (At larger orders the end x = 1 is singular enough that the cut falls within 10⁻¹⁰⁰ of it, and the
    mpmath route answers, as at α = 1, where log(P/Q) is singular at both ends.)"""
    P, Q = (rdpsym.Continuous(x ** (a - 1) * (1 - x) ** (b - 1) / sp.beta(a, b), x, UNIT)
            for a, b in ((R(5, 2), R(3, 4)), (R(3, 2), R(5, 4))))
    ball = certified_divergence(P, Q, sp.S(order), AGREE_DIGITS)
    assert ball is not None
    reference = renyi_divergence_mp(P, Q, order, dps=AGREE_DIGITS + 10)
    with precision(300):
        assert ball.rad() <= abs(ball.mid()) * arb(10) ** -(AGREE_DIGITS + 1) and _within(ball, reference)


def test_hypergeometric_constants_are_balls_where_their_series_converges_everywhere():
    """₀F₁(; 1; κ²/4) = I₀(κ) (the log of a von Mises law's constant, rewritten so by quadrature.compile) as a ball
    holding mpmath's value; a pole of a lower parameter gives no ball, and ₚF_q with p = q + 1 (a series that
    converges only for |z| < 1) is not evaluated here."""
    from rdpsym.foundations.balls import to_arb
    from rdpsym.foundations.errors import NotCertifiable, Undecided

    with precision(300), mpmath.workdps(60):
        ball = to_arb(sp.hyper((), (1,), R(9, 16)))
        assert _within(ball, mpmath.besseli(0, mpmath.mpf(3) / 2))
        with pytest.raises(Undecided):
            to_arb(sp.hyper((), (-1,), R(9, 16)))
        with pytest.raises(NotCertifiable):
            to_arb(sp.hyper((1, 1), (2,), R(1, 2)))


@pytest.mark.parametrize("k", [R(3, 2), R(7, 3)], ids=str)
def test_a_weibull_pairs_kl_is_certified_in_x_from_a_cut_at_its_branch_point(k):
    """P·log(P/Q) of two Weibull laws of one shape k holds x^{k−1} and e^{−(x/l)^k}: a branch point at the end 0
    of the integrand and of its tail bounds' e^{rest}.  That rest, x^k, was evaluated as e^{k·log x}, a NaN on
    any ball holding 0, so no segment could be cut off at 0; Arb then bisected towards the branch point until
    its 40 000 evaluations, once for each tail option (1.4 s of a 1.9 s derivation).  Bounded by (sup |x|)^k on
    such a ball, the cut is made and the ball is certified in x, right against the closed form
    k·log(l₂/l₁) + (l₁/l₂)^k − 1."""
    from rdpsym.derive.certified import _integrated, _kl_bounds
    from rdpsym.quadrature.compile import log_expression

    l1, l2 = 1, 2
    lp, lq = (log_expression(k / l * (x / l) ** (k - 1) * sp.exp(-((x / l) ** k))) for l in (l1, l2))
    with precision(200):
        ball = _integrated(("KL", lp, lq), [_kl_bounds(lp, lq, R(1, 4))], x, sp.S.Zero, sp.oo, AGREE_DIGITS)
    assert ball is not None
    with mpmath.workdps(60):
        kk = mpmath.mpf(k.p) / k.q
        exact = kk * mpmath.log(mpmath.mpf(l2) / l1) + (mpmath.mpf(l1) / l2) ** kk - 1
    with precision(300):
        assert ball.rad() <= abs(ball.mid()) * arb(10) ** -(AGREE_DIGITS + 1)
        assert _within(ball, exact), (ball.str(30), mpmath.nstr(exact, 30))


@pytest.mark.parametrize("order", [R(3, 2), 2, R(11, 2)])
def test_a_logistic_pair_is_certified_in_x_itself(order):
    """e^L with L = αlog p + (1 − α)log q of two logistic laws holds −2α·log(1 + e^{−x}): taken out of the
    exponent as the power (1 + e^{−x})^{−2α}, far out on the left (x ≈ −300, a ball ±0.5 wide) its ball held 0
    beside e^{+2αx}'s, and Arb's integral in x spent its 40 000 evaluations without a ball (0.17 s, three
    times in each check, before the route in e^{−x} gave one).  Added in the exponent as a logarithm where
    that is finite, the route in x gives the ball, right to 40 digits against mpmath's quadrature."""
    from rdpsym.derive.certified import _integrated

    lg = lambda m: -(x - m) - 2 * sp.log(1 + sp.exp(-(x - m)))  # noqa: E731 - the logistic log density
    L = sp.expand(order * lg(0) + (1 - order) * lg(1))
    with precision(200):
        ball = _integrated(("exp", L), ((L,),), x, -sp.oo, sp.oo, AGREE_DIGITS)
    assert ball is not None
    with mpmath.workdps(60):
        f = sp.lambdify(x, sp.exp(L), "mpmath")
        truth = mpmath.quad(f, [-mpmath.inf, -20, 0, 1, 20, mpmath.inf])
        assert ball.rad() < abs(ball.mid()) * arb(10) ** -AGREE_DIGITS
        assert abs(mpmath.mpf(ball.mid().str(60, radius=False)) - truth) < truth * mpmath.mpf(10) ** -AGREE_DIGITS


def test_an_index_error_inside_a_tail_bound_is_an_error_not_the_end_of_the_options():
    """The tail bounds are made on demand; iterating them must not read an IndexError raised while making one as
    "no more options" (a Sequence's default iteration stops at the first IndexError)."""
    from rdpsym.derive.certified import _OnDemand

    def broken():
        raise IndexError("inside SymPy")

    with pytest.raises(IndexError, match="inside SymPy"):
        list(_OnDemand([lambda: 1, broken, lambda: 3]))
    with pytest.raises(IndexError):
        _OnDemand([lambda: 1])[1]


def test_a_negative_closed_form_is_refused_by_the_certified_ball():
    """The closed form's value was read into Arb through mpmath's man_exp, the mantissa without its sign, so the
    wrong −α/(2σ²) agreed with the Gaussian's ball α/(2σ²) and was labelled checked."""
    a, s = rdpsym.alpha, sp.Symbol("sigma", positive=True)
    P, Q = rdpsym.gaussian(s).pair
    with pytest.raises(VerificationError, match="outside the certified"):
        check_against_definition(P, Q, a, -a / (2 * s**2), (), Hypotheses(a))
