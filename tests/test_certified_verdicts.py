"""Verdicts in the certified domain: a peer's float against a certified ball, at every magnitude.

``verify``, the audits and calibration compare a peer's answer (or a target) with a certified value in Arb
balls, never through a float: the peer's float is read as its exact binary value, the error and the relative
error are balls, and every threshold is a certain comparison of balls.  Regression: a truth of 10^600 against a
peer's 1e308 went through a float relative error of inf/inf = NaN, which compared as small, and ``verify``
reported "below by float64 rounding only" (the CLI exited 0) for an answer 10^292 times too small.

The truths are the Gaussian's RDP α/(2σ²) at exact σ: 1/σ² at α = 2, of any magnitude.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest
import sympy as sp
from flint import arb, fmpq
from hypothesis import given
from hypothesis import strategies as st

import rdpsym
from rdpsym.cli.main import main
from rdpsym.foundations.balls import precision
from rdpsym.peers import audit as A
from rdpsym.peers import verify as V

TINY = 5e-324  # 2^-1074, the least subnormal
HUGE = 1.7976931348623157e308  # the greatest finite float


def truth_gaussian(truth: Fraction):
    """The Gaussian whose RDP at order 2 is ``truth`` (1/σ², σ = 1/√truth): ``truth`` a square of a rational."""
    num, den = math.isqrt(truth.numerator), math.isqrt(truth.denominator)
    assert Fraction(num, den) ** 2 == truth
    return rdpsym.gaussian(sigma=sp.Rational(den, num))


def check(truth_or_mechanism, peer, order=2):
    told = truth_or_mechanism if isinstance(truth_or_mechanism, rdpsym.Mechanism) else truth_gaussian(
        truth_or_mechanism)
    v = rdpsym.verify(told, orders=[order], rdp=[peer])
    c = v.orders[0]
    # Never NaN: the display floats are defined whenever the verdict is.
    assert not math.isnan(c.error) and not math.isnan(c.relative), c
    return v, c


def below(x: Fraction) -> float:
    """The greatest float ≤ x (x ≥ 0): 0.0 under the least subnormal, the greatest float above the range."""
    try:
        f = float(x)
    except OverflowError:
        return HUGE
    if f == math.inf:
        return HUGE
    return f if Fraction(f) <= x else math.nextafter(f, -math.inf)


def above(x: Fraction) -> float:
    """The least float ≥ x (x ≥ 0): inf above the range."""
    try:
        f = float(x)
    except OverflowError:
        return math.inf
    return f if Fraction(f) >= x else math.nextafter(f, math.inf)


# --------------------------------------------------------------------------- the reported input


def test_the_reported_input_is_unsafe():
    v = rdpsym.verify(rdpsym.gaussian(sigma=1e-300), orders=[2], rdp=[1e308])
    c = v.orders[0]
    assert c.direction == V.BELOW and c.unsafe and not c.within_rounding and not c.safe
    assert v.verdict == "unsafe" and v.unsafe
    assert c.relative == 1.0 and c.error == -math.inf  # (1 − 10^-292 relative; the error is beyond float64)
    assert "UNSAFE" in str(v) and "nan" not in str(v).lower()
    assert v.as_dict()["verdict"] == "unsafe" and v.as_dict()["orders"][0]["unsafe"] is True


def test_the_reported_input_makes_the_cli_exit_1(tmp_path, capsys):
    out = tmp_path / "v.json"
    assert main(["verify", "--mechanism", "gaussian", "--set", "sigma=1e-300", "--orders", "2", "--rdp", "1e308",
                 "--json", str(out)]) == 1
    assert "UNSAFE" in capsys.readouterr().out
    data = json.loads(out.read_text())
    assert data["verdict"] == "unsafe" and data["orders"][0]["direction"] == "below"
    assert data["orders"][0]["relative_error"] == "1.0"
    # The same peer's ε at δ: 1e308 against ε ≈ 10^600.
    assert main(["verify", "--mechanism", "gaussian", "--set", "sigma=1e-300", "--orders", "2", "--delta", "1e-5",
                 "--epsilon", "1e308"]) == 1
    # Within float64 rounding (one ulp below a float truth of 2^1000): not unsafe, exit 0.
    peer = math.nextafter(2.0**1000, 0)
    assert main(["verify", "--mechanism", "gaussian", "--set", f"sigma={sp.Rational(1, 2**500)}", "--orders", "2",
                 "--rdp", repr(peer)]) == 0
    assert "BELOW BY FLOAT64 ROUNDING ONLY" in capsys.readouterr().out


# --------------------------------------------------------------------------- truths beyond float64's range


def test_a_truth_of_10_to_the_600():
    truth = Fraction(10) ** 600
    for peer in (HUGE, 1e308, HUGE / 2, 1.0, TINY, 0.0):  # every finite float is below: unsafe
        v, c = check(truth, peer)
        assert c.direction == V.BELOW and c.unsafe and v.verdict == "unsafe", peer
        assert 0.99 < c.relative <= 1.0
    v, c = check(truth, math.inf)
    assert c.direction == V.ABOVE and not c.unsafe and v.verdict == "conservative"
    for peer in (math.nan, -math.inf, -1.0):
        v, c = check(truth, peer)
        assert c.direction == V.INVALID and c.unsafe and v.verdict == "unsafe"
        assert c.relative == math.inf


def test_a_truth_of_10_to_the_minus_600():
    truth = Fraction(1, 10**600)
    v, c = check(truth, 0.0)  # below by the whole value: unsafe, though the difference is 10^-600
    assert c.direction == V.BELOW and c.unsafe and v.verdict == "unsafe" and c.relative == 1.0
    v, c = check(truth, -0.0)
    assert c.direction == V.BELOW and c.unsafe
    for peer in (TINY, 1e-300, 1.0, HUGE, math.inf):  # every positive float is above
        v, c = check(truth, peer)
        assert c.direction == V.ABOVE and not c.unsafe and v.verdict == "conservative", peer
    v, c = check(truth, TINY)
    assert 4.94e276 < c.relative < 4.95e276
    v, c = check(truth, 1.0)
    assert c.relative == math.inf  # 10^600 relative: beyond float64, shown as inf ...
    assert "above by 1.0e+600 relative" in c.cause  # ... and in the cause, from the ball
    for peer in (math.nan, -math.inf, -TINY):
        v, c = check(truth, peer)
        assert c.direction == V.INVALID and c.unsafe


@pytest.mark.parametrize("k", [1000, 600, -600, -1000, -1070, -1074])
def test_float_truths_at_the_ends_of_the_range_by_factor_ulp_equal_above(k):
    truth = Fraction(2) ** k  # a float: 2^1000 … 2^-1074 (subnormal)
    t = float(truth)
    v, c = check(truth, t)
    assert c.direction == V.EXACT and not c.unsafe and v.verdict == "agrees" and c.relative == 0.0
    v, c = check(truth, t / 2)  # a factor 2 below (0.0 under 2^-1074)
    assert c.direction == V.BELOW and c.unsafe and v.verdict == "unsafe"
    one_ulp = math.nextafter(t, 0)
    v, c = check(truth, one_ulp)
    assert c.direction == V.BELOW
    if k >= -1022:  # a normal float: one ulp is float64 rounding
        assert c.within_rounding and not c.unsafe and v.verdict == "below by float64 rounding only"
        assert c.relative <= V.ROUNDING and c.cause == "float64 rounding (within 64 ulp)"
    else:  # a subnormal's ulp is 2^-1074, large relative to 2^-1070: unsafe
        assert not c.within_rounding and c.unsafe and v.verdict == "unsafe"
    v, c = check(truth, math.nextafter(t, math.inf))
    assert c.direction == V.ABOVE and not c.unsafe and v.verdict in ("agrees", "conservative")
    v, c = check(truth, t * 2)
    assert c.direction == V.ABOVE and not c.unsafe and v.verdict == "conservative"


@pytest.mark.parametrize("k", [300, 150, -150, -300])
def test_decimal_truths_between_floats(k):
    truth = Fraction(10) ** k  # not a float: between two
    lo, hi = below(truth), above(truth)
    assert Fraction(lo) < truth < Fraction(hi)
    v, c = check(truth, lo)
    assert c.direction == V.BELOW and c.within_rounding and v.verdict == "below by float64 rounding only"
    v, c = check(truth, hi)
    assert c.direction == V.ABOVE and v.verdict == "agrees"
    v, c = check(truth, below(truth * (1 - Fraction(1, 2**40))))  # 2^-40 relative below: beyond 64 ulp
    assert c.unsafe and v.verdict == "unsafe" and "1e-9" in c.cause  # (within the accumulated tolerance)


def test_special_peer_answers_against_a_normal_truth():
    g = rdpsym.gaussian(sigma=2)  # 0.25 at order 2
    v = rdpsym.verify(g, orders=[2, 3, 4, 5, 6, 7], rdp=["nan", "inf", "-inf", 0.0, TINY, -TINY])
    nan, inf, minus_inf, zero, tiny, minus_tiny = v.orders
    assert nan.direction == V.INVALID and nan.unsafe and nan.error == math.inf and nan.relative == math.inf
    assert inf.direction == V.ABOVE and not inf.unsafe
    assert minus_inf.direction == V.INVALID and minus_inf.unsafe and minus_inf.error == -math.inf
    assert zero.direction == V.BELOW and zero.unsafe and zero.relative == 1.0
    assert tiny.direction == V.BELOW and tiny.unsafe and tiny.relative == 1.0
    assert minus_tiny.direction == V.INVALID and minus_tiny.unsafe
    assert v.verdict == "unsafe"
    assert all(not math.isnan(c.error) and not math.isnan(c.relative) for c in v.orders)


def test_a_truth_of_exactly_zero():
    rr = rdpsym.randomized_response(p=sp.Rational(1, 2))  # D_α = 0 at every order
    v = rdpsym.verify(rr, orders=[2, 3, 4, 5], rdp=[0.0, -0.0, TINY, 1.0])
    zero, minus_zero, tiny, one = v.orders
    assert zero.certified == 0 and zero.certified.is_exact()
    assert zero.direction == minus_zero.direction == V.EXACT and zero.relative == 0.0
    assert tiny.direction == one.direction == V.ABOVE and not tiny.unsafe and tiny.relative == math.inf
    assert v.verdict == "conservative"
    for peer in (-TINY, -1.0, -math.inf, math.nan):  # below 0, or not a number: invalid, unsafe
        v = rdpsym.verify(rr, orders=[2], rdp=[peer])
        assert v.orders[0].direction == V.INVALID and v.orders[0].unsafe and v.verdict == "unsafe"
    # a negative ε: false where δ < 1 − e^ε (here −1: 0.632 > 10⁻⁵); −TINY at δ = 10⁻⁵ holds for this P = Q (its δ
    # there is 1 − e^{−TINY}), which rdpsym, certifying ε ≥ 0, leaves undecided rather than calls unsafe
    v = rdpsym.verify(rr, orders=[2], rdp=[0.0], delta=1e-5, epsilon=-1.0)
    assert v.epsilon.direction == V.INVALID and v.verdict == "unsafe"
    v = rdpsym.verify(rr, orders=[2], rdp=[0.0], delta=1e-5, epsilon=-TINY)
    assert v.epsilon.direction == V.NOT_DECIDED and not v.epsilon.unsafe


def test_epsilon_at_magnitudes_beyond_float64():
    v = rdpsym.verify(rdpsym.gaussian(sigma=sp.Rational(1, 10**300)), orders=[2], delta=1e-5, epsilon=1e308)
    c = v.epsilon
    assert c.direction == V.BELOW and c.unsafe and c.relative == 1.0 and v.verdict == "unsafe"
    v = rdpsym.verify(rdpsym.gaussian(sigma=sp.Rational(1, 10**300)), orders=[2], delta=1e-5, epsilon=math.inf)
    assert v.epsilon.direction == V.ABOVE and v.verdict == "conservative"


def test_a_straddling_ball_warns():
    # A ball of relative width 10^-6 whose lower end is a hair above the peer: the relative error's ball reaches
    # past 64 ulp, so the answer is not certainly within rounding: unsafe (the verdict that warns).
    ball = arb(1, fmpq(1, 10**6))
    peer = float(ball.lower())
    while V.exact_float(peer) >= ball.lower():
        peer = math.nextafter(peer, 0)
    c = V.compare(peer, ball)
    assert c.direction == V.BELOW and not c.within(V.ROUNDING_Q) and c.within(fmpq(1, 10**5))
    c = V.compare(1.0, ball)
    assert c.direction == V.EXACT


def test_an_answer_float64_cannot_hold_is_refused_not_rounded_to_inf_or_0(capsys):
    # Read as inf, 1e400 would be "above" a truth of 10^600; read as 0, 1e-400 "below" a truth of 10^-600.
    g = truth_gaussian(Fraction(10) ** 600)
    for text in ("1e400", "-1e400", "1e-400", "2e-324"):
        with pytest.raises(rdpsym.ParameterError, match=r"^rdp\[0\] must be a value in float64's range"):
            rdpsym.verify(g, orders=[2], rdp=[text])
    with pytest.raises(rdpsym.ParameterError, match=r"^epsilon must be a value in float64's range"):
        rdpsym.verify(g, orders=[2], delta=1e-5, epsilon="1e400")
    assert main(["verify", "--mechanism", "gaussian", "--set", "sigma=1e-300", "--orders", "2", "--rdp", "1e400"]) == 2
    assert "float64's range" in capsys.readouterr().err
    np = pytest.importorskip("numpy")
    if np.finfo(np.longdouble).max > 1e308 * 10:  # an 80-bit (or wider) long double
        with pytest.raises(rdpsym.ParameterError):
            rdpsym.verify(g, orders=[2], rdp=[np.longdouble("1e400")])
    # Text that rounds to a float is read as that float (the peer's float as it prints), ±inf and nan as spelled.
    assert [c.peer for c in rdpsym.verify(g, orders=[2, 3, 4, 5], rdp=["3e-324", "inf", "-inf", "nan"]).orders][:3] \
        == [TINY, math.inf, -math.inf]


def test_compare_reads_the_float_exactly():
    assert V.exact_float(0.1) == arb(fmpq(3602879701896397, 2**55))
    assert V.exact_float(TINY) == arb(2) ** -1074
    with pytest.raises(rdpsym.ParameterError):
        V.exact_float(math.nan)
    c = V.compare(1e308, arb(10) ** 600)
    assert c.direction == V.BELOW and c.relative_float == 1.0 and c.error_float == -math.inf


# --------------------------------------------------------------------------- the property


magnitudes = st.integers(min_value=-1400, max_value=1400)
mantissas = st.integers(min_value=1, max_value=2**26)


@given(mantissas, magnitudes, st.floats(min_value=2.0**-45, max_value=1.0), st.floats(min_value=0.0, max_value=1e3))
def test_below_by_more_than_64_ulp_is_always_unsafe_and_above_never(m, k, gap, excess):
    # σ = 2^k'/m (exact), truth 1/σ² = m²·2^-2k': from 2^-2800 to 2^2850, far beyond float64's range both ways.
    truth = Fraction(m) ** 2 * Fraction(2) ** (-2 * (k // 2))
    low = below(truth * (1 - Fraction(gap)))  # more than 64 ulp (2^-47) below the truth, and so below its ball
    v, c = check(truth, low)
    assert c.direction == V.BELOW and c.unsafe and v.verdict == "unsafe", (truth, low, c)
    high = above(truth * (1 + Fraction(excess)))  # at or above the truth: never unsafe
    v, c = check(truth, high)
    assert c.direction in (V.EXACT, V.ABOVE) and not c.unsafe and v.verdict != "unsafe", (truth, high, c)
    assert not v.unsafe


# --------------------------------------------------------------------------- the audits and calibration


def test_classify_in_balls():
    assert A.classify(1e308, arb(10) ** 600) == ("digits lost (relative error > 1e-6)", 1.0)
    assert A.classify(0.0, arb(2) ** -3000)[0] == "zero where the value is positive"
    assert A.classify(TINY, arb(2) ** -1074) == (None, 0.0)
    assert A.classify(math.nextafter(1.0, 0), arb(1))[0] is None  # within the tolerance
    assert A.classify(1 - 1e-8, arb(1))[0] == "inaccurate beyond float tolerance"
    assert A.classify(-math.inf, arb(1))[0] == "negative RDP"
    assert A.classify(math.inf, arb(1))[0] == "infinite where the value is finite"
    assert all(not math.isnan(A.classify(p, b)[1]) for p in (math.nan, 0.0, TINY, 1e308)
               for b in (arb(0), arb(10) ** 600, arb(10) ** -600))


def test_a_defect_below_by_rounding_only_is_not_unsafe():
    d = A.Defect("t", (), 1.0, "1", 1e-16, V.BELOW, "float64 rounding", within_rounding=True)
    assert not d.unsafe
    assert A.Defect("t", (), 1.0, "1", 1e-3, V.BELOW, "lost digits").unsafe
    assert A.Defect("t", (), math.nan, "1", math.inf, V.INVALID, "NaN", within_rounding=True).unsafe


def test_calibration_beyond_float64_is_certified_on_balls():
    # ε ≈ 10^400: its float is inf, its log was inf − inf = NaN in the search; the target's float overflowed.
    target = Fraction(10) ** 400
    c = rdpsym.calibrate(lambda s: rdpsym.zcdp(rho=1 / (2 * s**2)), epsilon=target, delta=1e-5,
                         direction="decreasing", bounds=(Fraction(1, 10**202), Fraction(1, 10**199)), dps=20)
    t = arb(fmpq(target.numerator, target.denominator))
    assert c.epsilon.enclosure.upper() <= t < c.beyond.enclosure.lower()  # certified on both sides, in balls
    assert c.bracket[0] < c.value and c.relative_gap < Fraction(1, 10**6)
    published = Fraction(c.published(6))  # σ up to 6 digits, written out exactly (not cut to 0.000…)
    assert c.value <= published < c.value * (1 + Fraction(1, 10**5)) and published == c.rounded
    assert c.rounded_epsilon.enclosure.upper() <= t


def test_calibration_decides_the_target_in_balls():
    from rdpsym.accounting.calibrate import _decide, _safe

    r = rdpsym.epsilon(rdpsym.gaussian(sigma=2).curve(), delta=1e-5, dps=30)
    e = r.enclosure
    with precision(200):
        mid = e.mid()
        m, x = (int(v) for v in mid.man_exp())
    exact_mid = Fraction(m) * Fraction(2) ** x
    assert _decide(r, exact_mid * (1 + Fraction(1, 10**20))) is True
    assert _decide(r, exact_mid * (1 - Fraction(1, 10**20))) is False
    assert _decide(r, exact_mid) is None  # straddles: neither feasible nor infeasible
    assert _safe(Fraction(3, 10**400) + Fraction(1, 10**420), "decreasing", 6) == Fraction(300001, 10**405)
    assert _safe(Fraction(10**500 + 1), "increasing", 3) == Fraction(10**500)
