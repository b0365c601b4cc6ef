"""Bad input is rejected with a clear error: the parameter, its valid range, the value.

rdpsym's messages have one form, ``"<name> must be <range>; got <value>."``
(rdpsym.foundations.errors.must); each test checks all three parts, and the exception
type (every rdpsym error also subclasses the builtin it refines).
"""

from __future__ import annotations

import re

import pytest
import sympy as sp

import rdpsym
from rdpsym import DensityError, DomainError, ParameterError, alpha
from rdpsym.cli.main import main

x = sp.Symbol("x", real=True)
sigma = sp.Symbol("sigma", positive=True)


def message(excinfo) -> str:
    return str(excinfo.value)


def got_value(msg: str) -> sp.Expr:
    """The value after '; got ' in a standard message, read back as an exact number."""
    m = re.search(r"; got (.+?)\.?$", msg)
    assert m, f"no '; got <value>.' in {msg!r}"
    return sp.Rational(m.group(1)) if re.fullmatch(r"-?[\d/.]+", m.group(1)) else sp.sympify(m.group(1))


# ---------------------------------------------------------------- mechanism parameters


@pytest.mark.parametrize("bad", [0, -1, -0.5, sp.Rational(-3, 2), float("-inf")])
def test_sigma_must_be_positive(bad):
    with pytest.raises(ParameterError, match=r"^sigma must be positive \(sigma > 0\); got ") as e:
        rdpsym.gaussian(sigma=bad)
    assert isinstance(e.value, ValueError)
    assert got_value(message(e)) == (sp.Rational(str(bad)) if bad != float("-inf") else -sp.oo)


def test_sigma_infinite_is_rejected():
    # "must be positive; got oo" did not say what was wrong (∞ is positive; a probe)
    with pytest.raises(ParameterError, match=r"^sigma must be finite and positive \(sigma > 0\); got oo\.$"):
        rdpsym.gaussian(sigma=float("inf"))
    with pytest.raises(ParameterError, match=r"^epsilon must be a finite number >= 0"):  # (ε = 0 is perfect privacy)
        rdpsym.pure_dp(sp.oo)


@pytest.mark.parametrize("bad", [0, -2, -0.25])
def test_scale_must_be_positive(bad):
    with pytest.raises(ParameterError, match=r"^scale must be positive \(scale > 0\); got ") as e:
        rdpsym.laplace(scale=bad)
    assert got_value(message(e)) == sp.Rational(str(bad))


@pytest.mark.parametrize("factory", [rdpsym.gaussian, rdpsym.laplace])
def test_sensitivity_must_be_positive(factory):
    with pytest.raises(ParameterError, match=r"^sensitivity must be positive \(sensitivity > 0\); got 0\.$"):
        factory(1, sensitivity=0)


@pytest.mark.parametrize("bad", [0, 1, 1.5, -0.2, sp.Rational(7, 5)])
def test_p_must_be_in_the_open_unit_interval(bad):
    with pytest.raises(ParameterError, match=r"^p must be in the open interval \(0, 1\); got ") as e:
        rdpsym.randomized_response(bad)
    assert got_value(message(e)) == sp.Rational(str(bad))


def test_symbol_of_unknown_sign_is_rejected_naming_it():
    t = sp.Symbol("t")
    with pytest.raises(ParameterError, match=r"^sigma must be positive") as e:
        rdpsym.gaussian(sigma=t)
    assert "positive=True" in message(e) and "got t" in message(e)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda v: rdpsym.gaussian(sigma=v), "sigma"),
        (lambda v: rdpsym.gaussian(sigma=1, sensitivity=v), "sensitivity"),
        (lambda v: rdpsym.laplace(scale=v), "scale"),
        (lambda v: rdpsym.randomized_response(v), "p"),
        (lambda v: rdpsym.gaussian(1).rdp(v), "order"),
        (lambda v: rdpsym.renyi_divergence(*rdpsym.laplace(1).pair, v), "order"),
        (lambda v: rdpsym.renyi_divergence_mp(*rdpsym.laplace(1).pair, v), "order"),
    ],
    ids=["sigma", "sensitivity", "scale", "p", "rdp-order", "renyi_divergence-order", "mp-order"],
)
@pytest.mark.parametrize("nan", [float("nan"), sp.nan], ids=["float-nan", "sympy-nan"])
def test_nan_is_rejected_naming_the_parameter(call, name, nan):
    with pytest.raises(ParameterError, match=rf"^{name} must be a number, not NaN; got nan\.$"):
        call(nan)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda v: rdpsym.gaussian(sigma=v), "sigma"),
        (lambda v: rdpsym.laplace(scale=v), "scale"),
        (lambda v: rdpsym.randomized_response(v), "p"),
        (lambda v: rdpsym.gaussian(1).rdp(v), "order"),
        (lambda v: rdpsym.renyi_divergence_mp(*rdpsym.laplace(1).pair, v), "order"),
    ],
    ids=["sigma", "scale", "p", "rdp-order", "mp-order"],
)
@pytest.mark.parametrize("flag", [True, False])
def test_python_bool_is_not_a_number(call, name, flag):
    # True == 1 in Python; a bool is almost always a mistake, never silently 1 or 0.
    with pytest.raises(ParameterError, match=rf"^{name} must be a number or a SymPy expression; got {flag}\.$"):
        call(flag)


# ---------------------------------------------------------------- orders


@pytest.mark.parametrize("bad", [0, -1, -0.5])
@pytest.mark.parametrize(
    "call",
    [
        lambda o: rdpsym.gaussian(1).rdp(o),
        lambda o: rdpsym.renyi_divergence(*rdpsym.gaussian(1).pair, o),
        lambda o: rdpsym.renyi_divergence_mp(*rdpsym.gaussian(1).pair, o),
        lambda o: rdpsym.randomized_response(0.75).rdp(o),
    ],
    ids=["rdp", "renyi_divergence", "renyi_divergence_mp", "rr-rdp"],
)
def test_order_must_be_positive(call, bad):
    with pytest.raises(DomainError, match=r"^order must be positive \(0 < order <= oo\); got ") as e:
        call(bad)
    assert isinstance(e.value, ValueError)
    assert got_value(message(e)) == sp.Rational(str(bad))


def test_order_symbol_declared_negative_is_rejected():
    a = sp.Symbol("a", negative=True)
    with pytest.raises(DomainError, match=r"^order must be .*; got a\.$"):
        rdpsym.gaussian(1).rdp(a)


def test_symbolic_order_is_rejected_by_the_numeric_definition():
    with pytest.raises(DomainError, match=r"^order must be a number in \(0, oo\] .*; got alpha\.$"):
        rdpsym.renyi_divergence_mp(*rdpsym.gaussian(1).pair, alpha)


# ---------------------------------------------------------------- densities


def test_negative_pdf_is_rejected_with_the_point():
    with pytest.raises(DensityError, match=r"^the density must be nonnegative on its support; got ") as e:
        rdpsym.Continuous(x, x, sp.Interval(-1, 1))
    m = re.search(r"got (\S+) at x = (\S+)\.$", message(e))
    assert m, message(e)
    value, where = float(m.group(1)), sp.Rational(m.group(2))
    assert value < 0 and -1 < where < 1
    assert value == pytest.approx(float(where), rel=1e-5)  # the pdf x at that point


def test_normalised_but_negative_pdf_is_rejected():
    # ∫_{-1}^{1} (3x² − 1/2) dx = 2 − 1 = 1, but the pdf is negative for |x| < 1/√6.
    pdf = 3 * x**2 - sp.Rational(1, 2)
    assert sp.integrate(pdf, (x, -1, 1)) == 1
    with pytest.raises(DensityError, match=r"^the density must be nonnegative on its support; got -") as e:
        rdpsym.Continuous(pdf, x, sp.Interval(-1, 1))
    where = sp.Rational(re.search(r"at x = (\S+)\.$", message(e)).group(1))
    assert pdf.subs(x, where) < 0


def test_pdf_negative_on_a_narrow_window_is_rejected():
    """k(x − 1/14)² − 1/1000 on [0, 1] integrates to 1 and is negative on about (0.043, 0.100)."""
    i2 = sp.integrate((x - sp.Rational(1, 14)) ** 2, (x, 0, 1))
    pdf = sp.Rational(1001, 1000) / i2 * (x - sp.Rational(1, 14)) ** 2 - sp.Rational(1, 1000)
    assert sp.integrate(pdf, (x, 0, 1)) == 1
    assert pdf.subs(x, sp.Rational(1, 14)) == sp.Rational(-1, 1000)
    with pytest.raises(DensityError, match=r"^the density must be nonnegative on its support; got -"):
        rdpsym.Continuous(pdf, x, sp.Interval(0, 1))


def test_negative_table_probability_is_rejected():
    with pytest.raises(DensityError, match=r"^the probability of 1 must be nonnegative; got -1/2\.$"):
        rdpsym.Discrete({0: sp.Rational(3, 2), 1: sp.Rational(-1, 2)})


def test_pdf_that_does_not_integrate_to_one_is_rejected():
    with pytest.raises(DensityError, match=r"^the density must integrate to 1 over its support; got 2\.$") as e:
        rdpsym.Continuous(2 * sp.exp(-x), x, sp.Interval(0, sp.oo))
    assert isinstance(e.value, ValueError)


def test_parametric_pdf_that_does_not_integrate_to_one_is_rejected():
    lam = sp.Symbol("lam", positive=True)
    with pytest.raises(DensityError, match=r"^the density must integrate to 1 over its support; got 1/2\.$"):
        rdpsym.Continuous(lam * sp.exp(-2 * lam * x), x, sp.Interval(0, sp.oo))


def test_table_that_does_not_sum_to_one_is_rejected():
    with pytest.raises(DensityError, match=r"^the density must sum to 1 over its support; got 5/6\.$"):
        rdpsym.Discrete({0: sp.Rational(1, 2), 1: sp.Rational(1, 3)})


def test_float_table_that_does_not_sum_to_one_is_rejected_with_its_sum():
    with pytest.raises(DensityError, match=r"^the density must sum to 1 over its support; got ") as e:
        rdpsym.Discrete({0: 1 / 2, 1: 1 / 3})
    # Floats are read as the decimals they print as: 0.5 + 0.3333333333333333.
    assert got_value(message(e)) == sp.Rational("0.5") + sp.Rational("0.3333333333333333")


def test_nan_probability_is_rejected():
    with pytest.raises(ParameterError, match=r"^probability of 0 must be a number, not NaN; got nan\.$"):
        rdpsym.Discrete({0: float("nan"), 1: 0.5})


def test_non_densities_are_rejected():
    with pytest.raises(DensityError, match=r"rdpsym\.Continuous or rdpsym\.Discrete.*got str, str"):
        rdpsym.renyi_divergence("P", "Q", 2)


# ---------------------------------------------------------------- parameter values given later


def test_values_must_name_a_parameter():
    P, Q = rdpsym.gaussian(sigma).pair
    with pytest.raises(ParameterError, match=r"^values must be keyed by the parameters \(sigma\); got 'foo'\.$"):
        rdpsym.renyi_divergence_mp(P, Q, 2, values={"foo": 1})


def test_values_must_give_every_parameter():
    P, Q = rdpsym.gaussian(sigma).pair
    with pytest.raises(ParameterError, match=r"missing: sigma\.$"):
        rdpsym.renyi_divergence_mp(P, Q, 2)
    with pytest.raises(ParameterError, match=r"missing: alpha, sigma\.$"):
        rdpsym.gaussian(sigma).rdp().evalf({})


def test_dps_must_be_at_least_5():
    P, Q = rdpsym.gaussian(1).pair
    with pytest.raises(ParameterError, match=r"^dps must be an integer in \[5, 1000\]; got 3\.$"):
        rdpsym.renyi_divergence_mp(P, Q, 2, dps=3)


@pytest.mark.parametrize("bad", [0, -1])
def test_sigma_value_outside_its_declared_range_is_rejected_by_the_definition(bad):
    """sigma was declared positive; values={sigma: 0 or −1} must say so, naming sigma and the value."""
    P, Q = rdpsym.gaussian(sigma).pair
    with pytest.raises(rdpsym.RdpSymError) as e:
        rdpsym.renyi_divergence_mp(P, Q, 2, values={sigma: bad})
    assert isinstance(e.value, ValueError)
    assert re.search(r"\bsigma\b", message(e)), message(e)
    assert re.search(rf"got {bad}\b", message(e)), message(e)


@pytest.mark.parametrize("bad", [0, -1])
def test_sigma_value_outside_its_declared_range_is_rejected_by_evalf(bad):
    d = rdpsym.gaussian(sigma).rdp()
    with pytest.raises(ParameterError) as e:
        d.evalf({sigma: bad, alpha: 2})
    assert re.search(r"\bsigma\b", message(e)), message(e)
    assert re.search(rf"got {bad}\b", message(e)), message(e)


# ---------------------------------------------------------------- floats are decimals


def test_floats_are_read_as_the_decimals_they_print_as():
    assert rdpsym.gaussian(sigma=1.1).parameters["sigma"] == sp.Rational(11, 10)
    assert rdpsym.laplace(scale=0.1).parameters["scale"] == sp.Rational(1, 10)
    assert rdpsym.randomized_response(0.7).parameters["p"] == sp.Rational(7, 10)
    assert rdpsym.gaussian(sigma=2, sensitivity=0.3).parameters["sensitivity"] == sp.Rational(3, 10)
    assert rdpsym.gaussian(sigma=1).rdp(1.1).order == sp.Rational(11, 10)


def test_flint_rationals_are_exact_parameters_too():
    from flint import fmpq, fmpz

    assert rdpsym.pure_dp(fmpq(1, 10)).parameters["epsilon"] == sp.Rational(1, 10)
    assert rdpsym.gaussian(sigma=fmpz(2)).parameters["sigma"] == 2


# ---------------------------------------------------------------- the command line


def test_cli_rejects_a_non_numeric_set_value(capsys):
    assert main(["derive", "gaussian", "--set", "sigma=abc"]) == 2
    err = capsys.readouterr().err
    assert "sigma" in err and "'abc'" in err and "a number" in err


def test_cli_rejects_a_nan_set_value(capsys):
    assert main(["derive", "gaussian", "--set", "sigma=nan"]) == 2
    err = capsys.readouterr().err
    assert "sigma" in err and "NaN" in err and "got nan" in err


def test_cli_rejects_an_out_of_range_set_value(capsys):
    assert main(["derive", "randomized-response", "--set", "p=1.5"]) == 2
    err = capsys.readouterr().err
    assert "p must be in the open interval (0, 1); got 3/2." in err


def test_cli_rejects_an_unknown_set_name(capsys):
    assert main(["derive", "gaussian", "--set", "foo=1"]) == 2
    err = capsys.readouterr().err
    assert "'foo'" in err
    assert "one of sigma, sensitivity, Delta, alpha for gaussian" in err  # the valid names, aliases, the order


def test_cli_rejects_a_set_without_a_value(capsys):
    assert main(["derive", "gaussian", "--set", "sigma"]) == 2
    err = capsys.readouterr().err
    assert "NAME=VALUE" in err and "'sigma'" in err


def test_cli_rejects_a_non_positive_order(capsys):
    assert main(["derive", "laplace", "--order", "0"]) == 2
    assert "order must be positive (0 < order <= oo); got 0." in capsys.readouterr().err


def test_cli_rejects_an_unknown_mechanism(capsys):
    with pytest.raises(SystemExit) as e:
        main(["derive", "poisson"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'poisson'" in err
    for name in ("gaussian", "laplace", "randomized-response"):
        assert name in err


def test_a_density_off_by_a_float_rounding_says_so():
    # gamma(3/2) typed as gamma(3/2) in Python is gamma(1.5): the mass is 1 − 1.4·10⁻¹⁵, and the message says why.
    pdf = sp.gamma(2) / (sp.sqrt(3 * sp.pi) * sp.gamma(3 / 2)) * (1 + x ** 2 / 3) ** -2
    with pytest.raises(DensityError) as excinfo:
        rdpsym.Continuous(pdf, x)
    assert "floating-point number in the density" in message(excinfo)
    with pytest.raises(DensityError) as excinfo:  # a density that is simply wrong gets no such hint
        rdpsym.Continuous(2 * sp.exp(-x), x, support=sp.Interval(0, sp.oo))
    assert "floating-point" not in message(excinfo)
    # nor one whose mass is exactly 1 + 10⁻⁴⁰, which no float makes (a float read exactly is dyadic; a review)
    with pytest.raises(DensityError) as excinfo:
        rdpsym.Continuous((1 + sp.Rational(1, 10**40)) * sp.exp(-x), x, support=sp.Interval(0, sp.oo))
    assert "floating-point" not in message(excinfo)


def test_values_outside_a_declared_interval_an_infinite_order_and_zoo_are_named_for_what_they_are():
    """A probe of unseen inputs: p declared in (0, 1) and given 0 was told "must be positive" (the interval unsaid),
    a symbolic-order result evaluated at α = oo "alpha must be positive; got oo", and the order zoo "not NaN"."""
    from rdpsym.foundations.reading import parse_order, value_for

    p = rdpsym.parameter("p", 0, 1)
    for value in (0, sp.Rational(-1, 2), 1):
        with pytest.raises(ParameterError, match=r"p must be in its declared interval Interval\.open\(0, 1\)"):
            value_for(p, value)
    with pytest.raises(ParameterError, match="alpha must be a finite number; got oo"):
        value_for(rdpsym.alpha, sp.oo)
    with pytest.raises(ParameterError, match=r"order must be a number, not complex infinity \(zoo\); got zoo"):
        parse_order(sp.zoo)
    with pytest.raises(ParameterError, match="order must be a number, not NaN"):
        parse_order(sp.nan)


def test_a_complex_value_for_a_declared_interval_and_a_huge_total_count_are_refused_by_name():
    """The reviewer's read: with the interval checked first, p = i (not real) reached SymPy's comparison (a bare
    TypeError); five nested counts of 10⁹⁹⁹ made the count ceiling's message print a 4995-digit integer (Python's
    int-to-str limit, a ValueError)."""
    from rdpsym.foundations.reading import value_for

    with pytest.raises(ParameterError, match="p must be real; got I"):
        value_for(rdpsym.parameter("p", 0, 1), sp.I)
    dpa = pytest.importorskip("dp_accounting")
    event = dpa.GaussianDpEvent(1.0)
    for _ in range(5):
        event = dpa.SelfComposedDpEvent(event, 10**999)
    with pytest.raises(ParameterError, match=r"at most 10\^1000; got about 10\^499"):
        rdpsym.from_dp_event(event)


def test_a_table_whose_outcomes_hold_a_parameter_is_refused():
    """A probe: {m: 1/2, m + 1: 1/2} against {0: 1/2, 1: 1/2} was read with outcomes compared as labels, disjoint
    whatever m: D_{1/2} = ∞, checked, where at m = 0 the laws are one (0) and at m = 1 it is 2·log 2."""
    m = sp.Symbol("m", integer=True, nonnegative=True)
    with pytest.raises(rdpsym.DensityError, match=r"^a table's outcomes must be numbers or text labels, without "
                                                  r"parameters .*; got m\."):
        rdpsym.Discrete({m: sp.Rational(1, 2), m + 1: sp.Rational(1, 2)})
    k = sp.Symbol("k", integer=True)
    shifted = rdpsym.Discrete(sp.Rational(1, 2), k, support=sp.Range(m, m + 2))  # (the way to write it)
    assert shifted.parameters == {m}
