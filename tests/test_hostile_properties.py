"""Hostile property tests over the public API: a value that passes an independent check, or an rdpsym error.

Each property draws hostile arguments (huge and tiny numbers, NaN and infinities of every type, None,
NumPy scalars, SymPy objects that are not numbers, text including code payloads and astronomical
arithmetic, wrong types, nested containers) and calls the public API and the command line with them.
The outcome must be one of two things:

* a value, checked against a computation that does not share rdpsym's code path (mpmath from the
  closed forms of the paper, exact ``Fraction`` arithmetic), or
* an :class:`~rdpsym.RdpSymError` whose message is short (no number of more than 20 digits, at most
  1000 characters);

never another exception, and never a hang (``watchdog`` bounds each example generously; it is not a
timing assertion).  The ``ci`` profile of ``tests/conftest.py`` derandomizes them.  Thread safety of
the numerics is tested by ``numerics``' tests; here hostile calls run from threads too, and must still
end in a value or an rdpsym error.
"""

from __future__ import annotations

import functools
import math
import re
import threading
from decimal import Decimal
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp
from flint import arb, fmpq
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rdpsym
from rdpsym import RdpSymError, conversions
from rdpsym.cli.main import main
from rdpsym.foundations import balls, reading
from rdpsym.foundations.arithmetic import MAX_MAGNITUDE, magnitude_problem, size_problem
from rdpsym.foundations.errors import MAX_MESSAGE, SHORT_DIGITS, quoted

# ---------------------------------------------------------------- hostile strategies

CODE = [
    "__import__('os').system('touch {marker}')", "open('{marker}', 'w')", "exec('1')", "eval('2')", "lambda: 1",
    "().__class__.__bases__[0].__subclasses__()", "1; import os", "$(touch {marker})", "`id`", "globals()",
    "sigma.__class__", "x" * 2000, "\x00", "1\n2", "sympy.exp(1)", "S(1)/3", "Integer(2)",
]
ASTRONOMICAL = [
    "1e999999999", "1e-999999999", "9**9**9", "2^2^2^2^2^2", "exp(exp(exp(10)))", "exp(1e999)", "10^10^10",
    "(1+1e-999)^(1e999)", "1/0", "0*oo", "oo - oo", "(" * 100 + "1" + ")" * 100, "-" * 900 + "1", "sqrt(-1)",
    "log(0)", "nan", "inf", "-inf", "oo", "1e1000*1e1000", "1" * 1001, "1." + "0" * 999 + "1", "١٢", "2²", "½",
]

def _wide(depth: int) -> sp.Expr:
    """An expression of 2^(depth+1) − 1 parts (beyond the reader's 20 000) whose repr is cheap: a balanced tree of
    two-term sums (a flat sum of 30 000 symbols takes gigabytes to print)."""
    e = sp.Symbol("y")
    for _ in range(depth):
        e = sp.Add(e, e, evaluate=False)
    return e


def _ball(text: str) -> arb:
    return arb(1) / 3 if text == "1/3" else arb(text)


leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=0, max_value=6000).map(lambda k: 10**k),
    st.integers(min_value=0, max_value=6000).map(lambda k: -(10**k)),
    st.integers(min_value=1, max_value=6000).map(lambda k: Fraction(1, 10**k)),
    st.fractions(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.decimals(allow_nan=True, allow_infinity=True),
    st.integers(min_value=-(10**12), max_value=10**12).map(lambda e: Decimal(f"1e{e}")),
    st.integers(min_value=-(10**12), max_value=10**12).map(lambda e: mpmath.ldexp(mpmath.mpf(1), e)),
    st.complex_numbers(allow_nan=True),
    st.builds(lambda t, v: t(v), st.sampled_from([np.float64, np.float32, np.float16, np.longdouble]),
              st.floats(allow_nan=True, allow_infinity=True, width=16)),
    st.builds(lambda t, v: t(v), st.sampled_from([np.int64, np.int8, np.uint64]), st.integers(0, 100)),
    st.sampled_from([np.bool_(True), np.complex128(1 + 1j), np.array([1.0]), np.array(2.5), np.datetime64("2020")]),
    st.sampled_from([sp.nan, sp.zoo, sp.oo, -sp.oo, sp.I, sp.Symbol("x"), sp.Symbol("s", positive=True), sp.pi,
                     sp.Rational(1, 3), sp.Interval(0, 1), sp.true, sp.EmptySet, sp.Range(0, 0), sp.Matrix([1]),
                     sp.Float(mpmath.mpf("1e400")), sp.Float(mpmath.mpf("1e-400")), sp.exp(sp.Integer(10) ** 7),
                     sp.Pow(9, sp.Pow(9, 9, evaluate=False), evaluate=False), _wide(16),
                     sp.gamma(sp.Integer(10) ** 1000, evaluate=False)]),
    st.sampled_from(["1/3", "nan", "inf"]).map(_ball),  # built when drawn: Hypothesis cannot hash an inexact arb
    st.sampled_from([fmpq(1, 3), object(), (lambda: 1), ..., int, b"1"]),
    st.text(max_size=40),
    st.sampled_from(CODE + ASTRONOMICAL),
    st.from_regex(r"[0-9.eE+\-*/^() ]{1,24}", fullmatch=True),
)
hostile = st.recursive(leaves, lambda inner: st.one_of(st.lists(inner, max_size=3), st.tuples(inner, inner),
                                                       st.dictionaries(st.text(max_size=3), inner, max_size=2)),
                       max_leaves=4)
#: Orders: hostile values, and plain ones (so that values, not only errors, get checked).
orders = st.one_of(hostile, st.fractions(min_value=Fraction(101, 100), max_value=1000),
                   st.integers(2, 10**6), st.sampled_from([1, 2, "inf", float("inf"), sp.oo, "3/2", 1.5]))


def hostile_settings(**changes):
    """The loaded profile (``ci``), with the function-scoped fixtures these tests use allowed: ``watchdog``,
    ``capsys`` and ``monkeypatch`` hold nothing an example could leave behind for the next."""
    checks = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
    return settings(suppress_health_check=checks, **changes)


def outcome(call):
    """``("value", v)`` or ``("error", e)`` for an rdpsym error (checked short); anything else propagates."""
    try:
        return "value", call()
    except RdpSymError as exc:
        assert_short(str(exc))
        return "error", exc


def assert_short(text: str) -> None:
    assert len(text) <= MAX_MESSAGE + 100, f"a message of {len(text)} characters: {text[:200]}..."
    longest = max((len(m) for m in re.findall(r"\d+", text)), default=0)
    assert longest <= SHORT_DIGITS, f"a number of {longest} digits in: {text[:300]}"


def fill(text):
    """A hostile value with its {marker} (a file a payload would create) filled in."""
    return text.replace("{marker}", "/tmp/rdpsym-hostile-marker") if isinstance(text, str) else text


# ---------------------------------------------------------------- the reader


READERS = {
    "exact": lambda v: reading.exact(v, "v"),
    "number": lambda v: reading.number(v, "v"),
    "rational": lambda v: reading.rational(v, "v"),
    "integer": lambda v: reading.integer(v, "v"),
    "dps": lambda v: reading.dps(v),
    "parse_order": reading.parse_order,
    "positive_parameter": lambda v: reading.positive_parameter(v, "v"),
    "probability_parameter": lambda v: reading.probability_parameter(v, "v"),
}


@hostile_settings()
@given(hostile, st.sampled_from(sorted(READERS)))
def test_the_reader_returns_a_bounded_exact_value_or_an_rdpsym_error(watchdog, value, reader):
    with watchdog(60, f"{reader}({quoted(value)})"):
        kind, got = outcome(lambda: READERS[reader](fill(value)))
    if kind == "error":
        return
    # Independently of how it was read: the value is within every ceiling, and is what the reader promised.
    if isinstance(got, sp.Basic):
        assert isinstance(got, sp.Expr) and size_problem(got) is None and magnitude_problem(got) is None
    if reader in ("number", "positive_parameter", "probability_parameter") or (reader == "parse_order" and
                                                                                not got.free_symbols):
        assert got.is_number and got.is_extended_real
    if reader == "positive_parameter" and got.is_number:
        assert got > 0 and got.is_finite
    if reader == "probability_parameter" and got.is_number:
        assert 0 < got < 1
    if reader == "parse_order" and got.is_number:
        assert got > 0
    if reader == "rational":
        assert isinstance(got, fmpq) and abs(got) < fmpq(10) ** (MAX_MAGNITUDE + 1)
    if reader == "integer":
        assert type(got) is int
    if reader == "dps":
        assert type(got) is int and 5 <= got <= reading.MAX_DPS
    if isinstance(value, float) and math.isfinite(value) and reader in ("exact", "number"):
        assert got == sp.Rational(repr(value))  # a float is the decimal it prints as


# ---------------------------------------------------------------- mechanisms


FACTORIES = {
    "gaussian(v)": (lambda v: rdpsym.gaussian(v), "sigma"),
    "gaussian(1, v)": (lambda v: rdpsym.gaussian(1, v), "sensitivity"),
    "laplace(v)": (lambda v: rdpsym.laplace(v), "scale"),
    "randomized_response(v)": (lambda v: rdpsym.randomized_response(v), "p"),
    "sampled_gaussian(v, 1)": (lambda v: rdpsym.sampled_gaussian(v, 1), "q"),
    "sampled_gaussian(0.01, v)": (lambda v: rdpsym.sampled_gaussian(0.01, v), "sigma"),
    "pure_dp(v)": (lambda v: rdpsym.pure_dp(v), "epsilon"),
    "pure_dp(1, v)": (lambda v: rdpsym.pure_dp(1, v), None),
    "zcdp(v)": (lambda v: rdpsym.zcdp(v), "rho"),
    "zcdp(1, v)": (lambda v: rdpsym.zcdp(1, v), "xi"),
    "exponential_mechanism(v)": (lambda v: rdpsym.exponential_mechanism(v), "epsilon"),
}
RANGES = {"sigma": lambda v: v > 0, "sensitivity": lambda v: v > 0, "scale": lambda v: v > 0,
          "p": lambda v: 0 < v < 1, "q": lambda v: 0 <= v <= 1, "epsilon": lambda v: v > 0,
          "rho": lambda v: v >= 0, "xi": lambda v: v >= 0}


@hostile_settings()
@given(hostile, st.sampled_from(sorted(FACTORIES)))
def test_mechanisms_are_built_within_their_ranges_or_refused(watchdog, value, name):
    factory, parameter = FACTORIES[name]
    with watchdog(60, f"{name} with {quoted(value)}"):
        kind, got = outcome(lambda: factory(fill(value)))
    if kind == "error" or parameter is None:
        return
    v = got.parameters[parameter]
    assert isinstance(v, sp.Expr) and size_problem(v) is None
    if v.is_number:
        assert v.is_finite and RANGES[parameter](v), (name, v)


# ---------------------------------------------------------------- curves and accounting


GAUSSIAN = rdpsym.gaussian(2).curve()  # ε(α) = α/8 (Mironov 2017, Prop 7, σ = 2)


def exact_order(order) -> Fraction | float:
    """The order the reader took (its own tests check how it reads; what is checked here is the value there)."""
    a = reading.parse_order(order)
    if a == sp.oo:
        return math.inf
    return Fraction(int(a.p), int(a.q))


@hostile_settings()
@given(orders, st.one_of(st.integers(5, 40), hostile))
def test_a_curve_value_is_the_closed_form_to_its_digits_or_refused(watchdog, order, dps):
    with watchdog(60, f"curve({quoted(order)}, dps={quoted(dps)})"):
        kind, got = outcome(lambda: GAUSSIAN(fill(order), dps=fill(dps)))
    if kind == "error":
        return
    a = exact_order(order)
    if a == math.inf:
        assert got == mpmath.inf
        return
    mpmath.mp.dps = int(dps) + 20
    expected = mpmath.mpf(a.numerator) / a.denominator / 8
    assert abs(got - expected) <= abs(expected) * mpmath.mpf(10) ** (1 - int(dps))


def mironov_epsilon(delta: Fraction) -> mpmath.mpf:
    """ε(δ) of the Gaussian σ = 2 over Mironov's orders by Prop 3: min α/8 + log(1/δ)/(α − 1), in mpmath."""
    mpmath.mp.dps = 60
    values = []
    for a in rdpsym.accounting.orders.MIRONOV:
        if a != math.inf:
            al = mpmath.mpf(int(a.p)) / int(a.q)
            values.append(al / 8 + mpmath.log(mpmath.mpf(delta.denominator) / delta.numerator) / (al - 1))
    return min(values)


@hostile_settings()
@given(st.one_of(hostile, st.fractions(min_value=Fraction(1, 10**300), max_value=Fraction(99, 100)),
                 st.sampled_from([1e-5, "1e-10", "2^-20", 0.5])))
def test_epsilon_is_certified_against_proposition_3_or_refused(watchdog, delta):
    with watchdog(60, f"epsilon(delta={quoted(delta)})"):
        kind, got = outcome(lambda: rdpsym.epsilon(GAUSSIAN, fill(delta), orders="mironov", conversion="mironov",
                                                    dps=20))
    if kind == "error":
        return
    d = Fraction(int(got.given.p), int(got.given.q))
    assert 0 < d < 1
    truth = mironov_epsilon(d)
    published = mpmath.mpf(got.published(8))
    assert truth <= published <= truth * (1 + mpmath.mpf(10) ** -6)  # rounded up, never down


@hostile_settings()
@given(st.one_of(hostile, st.fractions(min_value=0, max_value=10**6), st.integers(0, 10**300)),
       st.one_of(st.just("mironov"), hostile))
def test_delta_is_certified_against_proposition_3_or_refused(watchdog, epsilon, conversion):
    with watchdog(60, f"delta(epsilon={quoted(epsilon)}, conversion={quoted(conversion)})"):
        kind, got = outcome(lambda: rdpsym.delta(GAUSSIAN, fill(epsilon), orders=[2, 4, 16], conversion=conversion,
                                                  dps=20))
    if kind == "error" or conversion != "mironov":
        return
    e = Fraction(int(got.given.p), int(got.given.q))
    mpmath.mp.dps = 40 + len(str(e.numerator))  # log10 δ is about −ε/2.3: its digits, then the mantissa's
    log_delta = min((a - 1) * (mpmath.mpf(a) / 8 - mpmath.mpf(e.numerator) / e.denominator) for a in (2, 4, 16))
    published = got.published(6)
    mantissa, _, exponent = published.partition("E")
    log_published = mpmath.log(mpmath.mpf(mantissa)) + int(exponent or 0) * mpmath.log(10)
    truth = min(log_delta, 0)  # δ is capped at 1
    assert truth <= log_published + mpmath.mpf(10) ** -30 and log_published - truth < mpmath.mpf(10) ** -4


CONVERSIONS = {
    "mironov_epsilon(v, 1, 1e-5)": lambda v: conversions.mironov_epsilon(v, 1, 1e-5),
    "mironov_epsilon(2, v, 1e-5)": lambda v: conversions.mironov_epsilon(2, v, 1e-5),
    "balle_epsilon(2, 1, v)": lambda v: conversions.balle_epsilon(2, 1, v),
    "balle_delta(v, 1, 1)": lambda v: conversions.balle_delta(v, 1, 1),
    "gaussian_epsilon(v, 1)": lambda v: conversions.gaussian_epsilon(v, 1),
    "gaussian_delta(1, v)": lambda v: conversions.gaussian_delta(1, v),
    "kov_epsilon(0.1, v, 1e-5)": lambda v: conversions.kov_epsilon(0.1, v, 1e-5),
    "advanced_composition(0.1, v, 1e-5)": lambda v: conversions.advanced_composition(0.1, v, 1e-5),
    "zcdp_delta(v, 1)": lambda v: conversions.zcdp_delta(v, 1),
    "kl_delta(v)": lambda v: conversions.kl_delta(v),
    "best_epsilon([(2, v)], 1e-5)": lambda v: conversions.best_epsilon([(2, v)], 1e-5),
    "best_delta(v, 1)": lambda v: conversions.best_delta(v, 1),
    "moments_epsilon([(v, 1)], 1e-5)": lambda v: conversions.moments_epsilon([(v, 1)], 1e-5),
    "upper_decimal(v, 5)": lambda v: conversions.upper_decimal(v, 5),
    "upper_decimal(1/3, v)": lambda v: conversions.upper_decimal(arb(1) / 3, v),
}


@hostile_settings()
@given(hostile, st.sampled_from(sorted(CONVERSIONS)))
def test_conversions_return_a_number_or_refuse(watchdog, value, name):
    with balls.precision(64), watchdog(60, f"{name} with {quoted(value)}"):
        kind, got = outcome(lambda: CONVERSIONS[name](fill(value)))
    if kind == "error":
        return
    first = got[0] if isinstance(got, tuple) else got
    if isinstance(first, arb):
        assert not first.is_nan() and (first.is_finite() or first.upper() > 0)
        if "delta" in name and first.is_finite():
            assert first.lower() >= 0 and first.upper() <= 1 + arb(2) ** -40  # (a ball near 1 rounds outward)
    elif isinstance(first, str):
        assert re.fullmatch(r"-?[0-9.]+(E[+-]?[0-9]+)?|inf|-inf", first), first


@given(orders, st.integers(5, 20))
@hostile_settings(max_examples=10)
def test_the_definition_of_a_laplace_pair_matches_proposition_6_or_refuses(watchdog, order, dps):
    P, Q = rdpsym.laplace(scale=2).pair
    with watchdog(180, f"renyi_divergence_mp(laplace(2), {quoted(order)}, dps={dps})"):
        kind, got = outcome(lambda: rdpsym.renyi_divergence_mp(P, Q, fill(order), dps=dps))
    if kind == "error":
        return
    a = exact_order(order)
    mpmath.mp.dps = dps + 20
    lam = mpmath.mpf(2)
    if a == math.inf:
        expected = 1 / lam
    elif a == 1:
        expected = 1 / lam + mpmath.exp(-1 / lam) - 1
    else:  # Proposition 6: 1/(α−1)·log(α/(2α−1)·e^{(α−1)/λ} + (α−1)/(2α−1)·e^{−α/λ})
        al = mpmath.mpf(a.numerator) / a.denominator
        expected = mpmath.log(al / (2 * al - 1) * mpmath.exp((al - 1) / lam)
                              + (al - 1) / (2 * al - 1) * mpmath.exp(-al / lam)) / (al - 1)
    assert abs(got - expected) <= abs(expected) * mpmath.mpf(10) ** (2 - dps)


@hostile_settings()
@given(st.one_of(hostile, st.fractions(min_value=Fraction(1, 10**900), max_value=10**900),
                 st.integers(0, 900).map(lambda k: Fraction(10) ** k), st.integers(0, 900).map(lambda k: Fraction(1, 10**k))),
       st.one_of(st.integers(5, 60), hostile))
def test_evalf_of_a_derivation_is_proposition_6_at_any_scale_or_refuses(watchdog, scale, dps):
    # At λ = 10^999, SymPy's evalf gave 0 for log(2e^{1/λ}/3 + e^{−2/λ}/3) ≈ 1/λ²: a wrong value, not an error.
    b = sp.Symbol("b", positive=True)
    d = laplace_at_2(b)
    with watchdog(60, f"evalf(b={quoted(scale)}, dps={quoted(dps)})"):
        kind, got = outcome(lambda: d.evalf({b: fill(scale)}, dps=dps))
    if kind == "error":
        return
    lam = reading.exact(scale, "b")  # the value the reader took (its own tests check how it reads)
    # Proposition 6 at α = 2: log1p(2/3·expm1(x) + 1/3·expm1(−2x)), x = 1/λ, whose terms ±2x/3 cancel: the
    # digits of λ's size are added (at λ = 10^999 the value is x² = 10^−1998).
    mpmath.mp.dps = int(dps) + 40 + max(0, len(str(abs(lam.p))) - len(str(lam.q)))
    x = 1 / (mpmath.mpf(int(lam.p)) / int(lam.q))
    expected = mpmath.log1p(2 * mpmath.expm1(x) / 3 + mpmath.expm1(-2 * x) / 3)
    assert abs(got - expected) <= abs(expected) * mpmath.mpf(10) ** (1 - int(dps))


@functools.cache
def laplace_at_2(b: sp.Symbol):
    """Laplace's D_2 in its scale b, derived once for all examples."""
    return rdpsym.laplace(scale=b).rdp(2)


# ---------------------------------------------------------------- decimal rounding


@given(st.integers(-(10**6), 10**6).filter(bool), st.integers(-(2**20), 2**20), st.integers(1, 60))
@hostile_settings(max_examples=50)
def test_rounding_a_ball_is_exact_and_outward_at_any_exponent(mantissa, exponent, digits):
    x = arb(mantissa) * arb(2) ** exponent  # exact: an odd mantissa and a power of 2
    with balls.precision(64):
        up, down = balls.upper_decimal(x, digits), balls.lower_decimal(x, digits)
    # Independently, with exact fractions (affordable at these exponents).
    value = Fraction(mantissa) * Fraction(2) ** exponent
    assert _fraction(down) <= value <= _fraction(up)
    spacing = Fraction(10) ** (_exponent10(value) - digits + 1)  # one unit in the last of `digits` digits
    for text in (up, down):
        assert (_fraction(text) / spacing).denominator == 1  # at most `digits` significant digits
    assert _fraction(up) - _fraction(down) <= spacing


@given(st.integers(-(10**6), 10**6).filter(bool), st.integers(-(2**40), 2**40), st.integers(1, 30))
@hostile_settings(max_examples=30)
def test_rounding_from_the_exponents_agrees_with_rounding_exact_fractions(monkeypatch, mantissa, exponent, digits):
    # Both paths of the rounding give the same text wherever the exact one is affordable; the balls' path
    # (used beyond 2^65536) is forced here by lowering the ceiling of the exact one.
    x = arb(mantissa) * arb(2) ** exponent
    with balls.precision(64):
        by_balls = _forced_balls(monkeypatch, x, digits)
        if abs(exponent) <= 2**14:
            assert by_balls == (balls.upper_decimal(x, digits), balls.lower_decimal(x, digits))
    for text in by_balls:
        assert re.fullmatch(r"-?([0-9]+\.?[0-9]*)(E[+-][0-9]+)?", text), text


def _forced_balls(monkeypatch, x, digits):
    with monkeypatch.context() as m:
        m.setattr(balls, "_EXACT_BITS", 0)
        return balls.upper_decimal(x, digits), balls.lower_decimal(x, digits)


def _fraction(text: str) -> Fraction:
    mantissa, _, exponent = text.partition("E")
    return Fraction(mantissa) * Fraction(10) ** int(exponent or 0)


def _exponent10(value: Fraction) -> int:
    return balls.floor_log10(abs(value))


# ---------------------------------------------------------------- the command line


OPTIONS = {
    "--set sigma": lambda v: ["epsilon", "--mechanism", "gaussian", "--set", f"sigma={v}", "--delta", "1e-5",
                              "--dps", "10"],
    "--delta": lambda v: ["epsilon", "--mechanism", "laplace", "--set", "scale=1", "--delta", v, "--dps", "10"],
    "--epsilon": lambda v: ["delta", "--mechanism", "gaussian", "--set", "sigma=2", "--epsilon", v, "--dps", "10"],
    "--dps": lambda v: ["epsilon", "--mechanism", "gaussian", "--set", "sigma=2", "--delta", "1e-5", "--dps", v],
    "--orders": lambda v: ["delta", "--mechanism", "gaussian", "--set", "sigma=2", "--epsilon", "1", "--orders", v,
                           "--dps", "10"],
    "--steps": lambda v: ["epsilon", "--mechanism", "gaussian", "--set", "sigma=2", "--delta", "1e-5", "--steps", v,
                          "--dps", "10"],
    "--set q": lambda v: ["epsilon", "--mechanism", "sampled-gaussian", "--set", f"q={v}", "--set", "sigma=1",
                          "--delta", "1e-5", "--dps", "10", "--orders", "2,4"],
    "--timeout": lambda v: ["check", "/nonexistent-folder-rdpsym", "--quiet", "--timeout", v],
    "derive --order": lambda v: ["derive", "gaussian", "--order", v, "--set", "sigma=2", "--dps", "10"],
}
text_values = st.one_of(st.sampled_from(CODE + ASTRONOMICAL), st.text(max_size=30).filter(lambda t: "\x00" not in t),
                        st.from_regex(r"[0-9.eE+\-*/^() ]{1,24}", fullmatch=True),
                        st.integers(-(10**30), 10**30).map(str), st.floats().map(repr))


@hostile_settings()
@given(text_values, st.sampled_from(sorted(OPTIONS)))
def test_every_option_is_done_or_refused_in_one_line(watchdog, capsys, value, option):
    value = fill(value).replace("\x00", "")
    argv = OPTIONS[option](value)
    with watchdog(120, " ".join(argv)[:100]):
        try:
            status = main(argv)
        except SystemExit as exc:  # argparse's usage errors exit with 2
            status = exc.code
    err = capsys.readouterr().err
    assert status in (0, 1, 2, 3), status
    assert "Traceback" not in err
    if status == 2:
        last = err.strip().splitlines()[-1]
        assert last.startswith(("rdpsym: error: ", "usage: ")) or ": error: " in last, err
        assert_short(last.removeprefix("rdpsym: error: "))


# ---------------------------------------------------------------- from threads


CHEAP = [
    lambda v: reading.exact(v, "v"),
    lambda v: rdpsym.gaussian(v),
    lambda v: GAUSSIAN(v, dps=15),
    lambda v: rdpsym.epsilon(GAUSSIAN, v, orders=[2, 4], dps=15),
    lambda v: conversions.zcdp_epsilon(v, 1e-5),
    lambda v: rdpsym.paper_latex(v),
]


@pytest.mark.filterwarnings("ignore:Generating overly large repr")  # Hypothesis describing a list of recursive values
@given(st.lists(hostile, min_size=2, max_size=4))
@hostile_settings(max_examples=10)
def test_hostile_calls_from_threads_end_in_a_value_or_an_rdpsym_error(values):
    # The same property as above, from four threads at once: nothing in reading, building or refusing
    # depends on running in the main thread.  A thread that does not end is reported with every thread's
    # stack (where it waits, and who holds what), never left to hang the suite.
    escaped: list[BaseException] = []

    def work(v):
        for call in CHEAP:
            try:
                outcome(lambda call=call: call(fill(v)))
            except BaseException as exc:  # noqa: BLE001 - collected and reported by the main thread
                escaped.append(exc)

    threads = [threading.Thread(target=work, args=(v,), daemon=True) for v in values]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    stuck = [t for t in threads if t.is_alive()]
    assert not stuck, "threads did not end within 120 s:\n" + thread_stacks()
    assert not escaped, [f"{type(e).__name__}: {e}" for e in escaped][:3]


def thread_stacks() -> str:
    """Every thread's Python stack (innermost frames last), for a report of threads that did not end."""
    import sys
    import traceback

    names = {t.ident: t.name for t in threading.enumerate()}
    return "\n".join(f"--- {names.get(ident, ident)}\n" + "".join(traceback.format_stack(frame)[-12:])
                     for ident, frame in sys._current_frames().items())


def test_no_payload_ran():
    import os

    assert not os.path.exists("/tmp/rdpsym-hostile-marker")


@pytest.fixture(autouse=True)
def _no_marker():
    import os

    if os.path.exists("/tmp/rdpsym-hostile-marker"):
        os.remove("/tmp/rdpsym-hostile-marker")
    yield
    assert not os.path.exists("/tmp/rdpsym-hostile-marker"), "a payload given as a value ran"
