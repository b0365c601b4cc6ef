"""The one reader of user input (rdpsym.foundations.reading) and its grammar (rdpsym.foundations.arithmetic).

Text is parsed, never evaluated: a payload that would run code if it reached
``eval``/``sympify`` is refused with a clear error, and the file it would
create never appears.
"""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp
from flint import fmpq, fmpz

import rdpsym
from rdpsym.foundations.arithmetic import MAX_LENGTH, ArithmeticSyntaxError, parse
from rdpsym.foundations.errors import ParameterError
from rdpsym.foundations.reading import exact, integer, number, rational


def payloads(target) -> list[str]:
    """Texts that would create ``target`` if anything evaluated them as Python."""
    return [
        f"__import__('os').system('touch {target}')",
        f"__import__('pathlib').Path('{target}').touch()",
        f"open('{target}', 'w').write('x')",
        f"(lambda: __import__('os').system('touch {target}'))()",
        f"1 + __import__('os').system('touch {target}')",
        f"exec(\"open('{target}', 'w')\")",
        f"sqrt(__import__('os').system('touch {target}'))",
    ]


@pytest.mark.parametrize("index", range(7))
def test_text_that_would_run_code_is_refused_and_runs_nothing(tmp_path, index):
    target = tmp_path / "ran"
    payload = payloads(target)[index]
    with pytest.raises(ParameterError, match="sigma must be a number"):
        exact(payload, "sigma")
    for call in (lambda: rdpsym.gaussian(sigma=payload), lambda: rdpsym.laplace(scale=1, sensitivity=payload),
                 lambda: rdpsym.randomized_response(payload), lambda: rdpsym.renyi_divergence(
                     *rdpsym.gaussian(sigma=1).pair, payload)):
        with pytest.raises(rdpsym.RdpSymError, match="must be"):
            call()
    x = sp.Symbol("x", real=True)
    with pytest.raises(ParameterError):
        rdpsym.Continuous(payload, x)
    with pytest.raises(ParameterError):
        rdpsym.Discrete({0: payload, 1: "1/2"})
    # (SymPy's Matrix sympifies a string entry: a mean of [payload, 0] ran it and became 0; a probe)
    for mean, covariance, named in [([payload, 0], sp.eye(2), r"mean\[0\]"), ([0, 0], [[payload, 0], [0, 1]],
                                                                                   r"covariance\[0\]\[0\]"),
                                    (payload, sp.eye(2), "mean"), ([0, 0], (payload,), r"covariance\[0\]")]:
        with pytest.raises(ParameterError, match=f"^{named} must be"):
            rdpsym.MultivariateNormal(mean, covariance)
    assert not target.exists()


def test_the_error_names_the_parameter_the_range_and_what_went_wrong():
    with pytest.raises(ParameterError) as info:
        exact("2 * sigma", "--set sigma")
    message = str(info.value)
    assert message.startswith("--set sigma must be a number")
    assert "'2 * sigma'" in message and "unknown name 'sigma' at position 5" in message


@pytest.mark.parametrize("text, value", [
    ("1/3", sp.Rational(1, 3)), ("0.1", sp.Rational(1, 10)), (".5", sp.Rational(1, 2)),
    ("1e-5", sp.Rational(1, 10**5)), ("2.5E+3", sp.Integer(2500)), ("-1/2", sp.Rational(-1, 2)),
    ("2^-3", sp.Rational(1, 8)), ("2**10", sp.Integer(1024)), ("2^3^2", sp.Integer(512)),
    ("(1 + 2) * 3 - 4 / 8", sp.Rational(17, 2)), ("sqrt(2)/2", sp.sqrt(2) / 2), ("exp(1)", sp.E),
    ("log(E)", sp.Integer(1)), ("pi", sp.pi), ("π/2", sp.pi / 2), ("inf", sp.oo), ("∞", sp.oo),
    ("−1 · 3 ÷ 4", sp.Rational(-3, 4)), ("  7  ", sp.Integer(7)),
])
def test_plain_arithmetic_is_read_exactly(text, value):
    assert parse(text) == value


@pytest.mark.parametrize("text, problem", [
    ("", "empty text"), ("1 +", "expected a number"), ("(1", "expected ')'"), ("1 2", "unexpected text"),
    ("x", "unknown name 'x'"), ("e", "unknown name 'e'"), ("sin(1)", "unknown name 'sin'"),
    ("1/0", "division by zero"), ("2 ; 3", "unexpected ';'"), ("a.b", "unknown name 'a'"),
    ("9^9^9", "a power with about"), ("10^100000", "a power with about"), ("1e999999999", "decimal exponent"),
    ("(" * 100 + "1" + ")" * 100, "nested more than"), ("1" * (MAX_LENGTH + 1), "longer than"),
    ("__class__", "unknown name '__class__'"), ("[1]", "unexpected '['"), ("'1'", "unexpected"),
])
def test_anything_else_is_a_syntax_error_saying_what_and_where(text, problem):
    with pytest.raises(ArithmeticSyntaxError, match=re.escape(problem)):
        parse(text)


def test_parameter_names_are_symbols_only_where_the_caller_allows_them():
    s = sp.Symbol("sigma", positive=True)
    assert parse("sigma^2 / 2", {"sigma": s}) == s**2 / 2
    with pytest.raises(ArithmeticSyntaxError, match="unknown name 'sigma'"):
        parse("sigma")


@pytest.mark.parametrize("value, expected", [
    (np.float64(0.1), sp.Rational(1, 10)), (np.float32(0.1), sp.Rational("0.10000000149011612")), (np.int64(3), sp.Integer(3)),
    (np.int8(-2), sp.Integer(-2)), (np.array(2.5), sp.Rational(5, 2)), (np.uint16(7), sp.Integer(7)),
    (1.1, sp.Rational(11, 10)), (Fraction(1, 3), sp.Rational(1, 3)), (Decimal("0.25"), sp.Rational(1, 4)),
    (fmpq(2, 3), sp.Rational(2, 3)), (fmpz(5), sp.Integer(5)), (mpmath.mpf(0.5), sp.Rational(1, 2)),
    (sp.Float("0.3"), sp.Rational(3, 10)), (float("inf"), sp.oo),
])
def test_every_kind_of_number_is_read_exactly(value, expected):
    assert exact(value, "x") == expected


def test_a_float32_is_read_as_the_value_it_holds_not_the_decimal_numpy_prints():
    """A probe: dp_accounting's GaussianDpEvent(np.float32(1.3)) holds σ = 1.2999999523162842, which dp_accounting
    computes with; read as 13/10 the certified RDP was 7·10⁻⁸ relative below the event's, and ε below the truth."""
    dp_event = pytest.importorskip("dp_accounting.dp_event")
    held = sp.Rational(repr(float(np.float32(1.3))))
    assert held == sp.Rational("1.2999999523162842") and exact(np.float32(1.3), "sigma") == held
    assert exact(np.array(np.float16(0.1)), "x") == sp.Rational(repr(float(np.float16(0.1))))
    curve = rdpsym.from_dp_event(dp_event.GaussianDpEvent(np.float32(1.3)))
    with mpmath.workdps(40):
        # α/(2σ²) at α = 2, σ as the event holds it (every float of a peer's object is read at its binary value)
        truth = mpmath.mpf(2) / (2 * mpmath.mpf(float(np.float32(1.3))) ** 2)
        assert abs(curve.value(2, dps=30) - truth) <= mpmath.mpf(10) ** -29 * truth


def test_a_subnormal_float_is_read_as_the_value_it_holds():
    """A probe: GaussianDpEvent(5e-324) holds σ = 2⁻¹⁰⁷⁴ = 4.94·10⁻³²⁴, but σ was read as the 5·10⁻³²⁴ it prints as, and
    the published ε (2.0000001·10⁶⁴⁶) was 2.4 % below the truth for the σ the event holds.  A subnormal float holds
    fewer digits than were typed: it is read at its binary value, by every reader of floats."""
    from rdpsym.foundations.balls import to_fmpq

    dp_event = pytest.importorskip("dp_accounting.dp_event")
    held = sp.Rational(1, 2**1074)
    assert exact(5e-324, "sigma") == held and exact(np.float64(-1e-310), "x") == -sp.Rational(Fraction(1e-310))
    assert to_fmpq(5e-324) == fmpq(1, 2**1074) and exact(2.2250738585072014e-308, "x") == sp.Rational(
        "2.2250738585072014e-308")  # (the least normal float: read as typed)
    published = rdpsym.epsilon(rdpsym.from_dp_event(dp_event.GaussianDpEvent(5e-324)), delta=1e-5, dps=20).published(8)
    with mpmath.workdps(30):  # ε ≥ D_α at α → 1 is about 1/(2σ²) = 2^2147
        assert mpmath.mpf(published) >= mpmath.mpf(2) ** 2147


def test_numpy_scalars_are_accepted_wherever_a_number_is():
    assert rdpsym.gaussian(sigma=np.float64(2)).parameters["sigma"] == 2
    assert rdpsym.laplace(scale=np.int64(3), sensitivity=np.float32(0.5)).parameters["scale"] == 3
    assert rdpsym.randomized_response(np.float64(0.75)).parameters["p"] == sp.Rational(3, 4)
    d = rdpsym.gaussian(sigma=2).rdp(np.int32(3))
    assert d.result == sp.Rational(3, 8)


@pytest.mark.parametrize("value", [True, np.bool_(True), float("nan"), np.float64("nan"), None, [1], {1: 2},
                                   object(), b"1", sp.nan, sp.zoo])
def test_what_is_not_a_number_is_refused_by_name(value):
    with pytest.raises(ParameterError, match="^x must be a number") as info:
        exact(value, "x")
    assert any(why in str(info.value) for why in ("NaN", "a SymPy expression", "complex infinity (zoo)"))


def test_number_rational_and_integer_narrow_the_reading():
    assert number("2^-10", "d") == sp.Rational(1, 1024)
    with pytest.raises(ParameterError, match="d must be a number"):
        number(sp.Symbol("t"), "d")
    assert rational("0.125", "q") == fmpq(1, 8)
    with pytest.raises(ParameterError, match="q must be a finite rational"):
        rational("sqrt(2)", "q")
    assert integer(np.int64(4), "k", minimum=1) == 4 and integer(" 12 ", "k") == 12
    # (text in scientific notation is read exactly, as every decimal is: "1e3" is the integer 1000, and `--steps 1e12`
    # was refused where the Python API takes 10**12, a probe; "2.5e0" is no integer)
    assert integer("1e3", "k") == 1000 and integer("2.5E3", "k") == 2500
    # (the ceiling as it says: 9·10⁹⁹⁹ was refused as "at most 10^1000", a review)
    assert integer("9e999", "k") == 9 * 10**999 and integer(10**1000, "k") == 10**1000
    with pytest.raises(ParameterError, match=r"at most 10\^1000 in size"):
        integer(10**1000 + 1, "k")
    for bad in (3.0, "3.5", "2.5e0", "1e-3", True, "x"):
        with pytest.raises(ParameterError, match="k must be an integer"):
            integer(bad, "k")
    with pytest.raises(ParameterError, match="k must be an integer >= 1; got 0."):
        integer(0, "k", minimum=1)


# ---------------------------------------------------------------- the command line


def cli_payload_cases(payload: str, tmp) -> list[list[str]]:
    """Every command-line option that takes a value, given the payload (the rest of each command valid)."""
    png, tex = str(tmp / "c.png"), str(tmp / "d.tex")
    eps = ["epsilon", "--mechanism", "gaussian", "--set", "sigma=2", "--delta", "1e-5"]
    return [
        ["derive", "gaussian", "--set", f"sigma={payload}"],
        ["derive", "gaussian", "--set", f"{payload}=1"],
        ["derive", "gaussian", "--set", payload],
        ["derive", "gaussian", "--order", payload],
        ["derive", "gaussian", "--set", "sigma=2", "--dps", payload],
        ["epsilon", "--mechanism", "gaussian", "--set", f"sigma={payload}", "--delta", "1e-5"],
        ["epsilon", "--mechanism", "gaussian", "--set", "sigma=2", "--delta", payload],
        ["delta", "--mechanism", "gaussian", "--set", "sigma=2", "--epsilon", payload],
        [*eps, "--orders", payload],
        [*eps, "--orders", f"2,{payload}"],
        [*eps, "--steps", payload],
        [*eps, "--dps", payload],
        ["reference", "--quick", "--out", str(tmp / "ref"), "--dps", payload],
        ["audit", "dp-accounting", "--dps", payload],
        ["plot", f"gaussian:sigma={payload}", "-o", png],
        ["plot", f"gaussian:{payload}", "-o", png],
        ["plot", "gaussian:sigma=1", "--orders", payload, "-o", png],
        ["plot", "gaussian:sigma=1", "--max-order", payload, "-o", png],
        ["plot", "gaussian:sigma=1", "--kind", "epsilon-delta", "--deltas", payload, "-o", png],
        ["plot", "gaussian:sigma=1", "--kind", "epsilon-delta", "--deltas", f"{payload}:1e-2", "-o", png],
        ["plot", "gaussian:sigma=1", "--steps", payload, "-o", png],
        ["plot", "gaussian:sigma=1", "--size", f"7x{payload}", "-o", png],
        ["plot", "gaussian:sigma=1", "--dpi", payload, "-o", png],
        ["plot", "gaussian:sigma=1", "--dps", payload, "-o", png],
        ["table2", "--latex", f"{tmp}/no-such-folder/{payload}.tex"],
        ["derive", "laplace", "--latex", f"{tmp}/no-such-folder/{payload}", "--set", "lambda=1"],
        ["check", "--json", f"{tmp}/no-such-folder/{payload}.json"],
        [*eps, "--json", "--set", f"sensitivity={payload}"],
        ["derive", "laplace", "--set", f"lambda={payload}", "--latex", tex],
    ]


@pytest.mark.parametrize("case", range(29))
def test_no_command_line_option_evaluates_what_it_is_given(tmp_path, capsys, case):
    from rdpsym.cli import main

    target = tmp_path / "ran"
    argv = cli_payload_cases(f"__import__('os').system('touch {target}')", tmp_path)[case]
    try:
        status = main(argv)
    except SystemExit as exc:  # argparse's usage error for a typed option (--steps, --dpi, --size)
        status = exc.code
    err = capsys.readouterr().err
    assert status == 2, err
    assert "error:" in err and "Traceback" not in err
    assert not target.exists()


def test_a_parameter_answers_to_the_name_the_output_prints(capsys):
    from rdpsym.cli import main

    assert main(["derive", "laplace", "--order", "2", "--set", "lambda=1/2"]) == 0
    out = capsys.readouterr().out
    assert "value at lambda = 1/2" in out
    assert main(["derive", "laplace", "--order", "2", "--set", "scale=1/2"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == out.splitlines()[-1]
    assert main(["derive", "laplace", "--set", "scale=1", "--set", "lambda=2"]) == 2
    assert "--set scale must be given once; got 2 values (1, 2)." in capsys.readouterr().err


def test_numpy_reaches_accounting_as_numbers():
    c = rdpsym.gaussian(sigma=np.float64(2)).curve()
    assert c * np.int64(4) == c * 4 and np.int32(4) * c == 4 * c
    assert c.group(np.int64(1)) == c.group(1)
    r = rdpsym.epsilon(c * np.int64(4), delta=np.float64(1e-5), orders=np.array([2, 4.5, 8]), dps=np.int64(20))
    assert r == rdpsym.epsilon(c * 4, delta=1e-5, orders=[2, 4.5, 8], dps=20)
    d = rdpsym.delta(c, epsilon=np.float32(1.5), orders=np.arange(2, 10), dps=20)
    assert d == rdpsym.delta(c, epsilon="1.5", orders=list(range(2, 10)), dps=20)
    assert float(rdpsym.renyi_divergence_mp(*rdpsym.gaussian(sigma=2).pair, np.float64(1.5), dps=np.int64(20))) == 0.1875
    for bad in (np.float64(2.5), 0, True):
        with pytest.raises(ParameterError, match="steps must be a positive integer"):
            c * bad


def test_density_subs_reads_its_values(tmp_path):
    # SymPy's subs sympifies a text value, that is runs it: the densities read every value first.
    target = tmp_path / "ran"
    b = sp.Symbol("b", positive=True)
    for values in ({"b": payloads(target)[0]}, {b: payloads(target)[1]}):
        with pytest.raises(ParameterError, match="b must be a number"):
            rdpsym.laplace(scale=b).pair[0].subs(values)
        with pytest.raises(ParameterError, match="b must be a number"):
            rdpsym.Discrete({0: b / (1 + b), 1: 1 / (1 + b)}).subs(values)
    assert not target.exists()
    assert rdpsym.laplace(scale=b).pair[0].subs({"b": "1/2"}) == rdpsym.laplace(scale=sp.Rational(1, 2)).pair[0]


def test_a_value_is_matched_to_its_parameter_by_name_and_an_unknown_one_is_refused():
    # A Symbol key without the parameter's assumptions still means that parameter (it was silently
    # ignored), and one that names no parameter is an error, as a text key is.
    b = sp.Symbol("b", positive=True)
    half = rdpsym.laplace(scale=sp.Rational(1, 2)).pair[0]
    assert rdpsym.laplace(scale=b).pair[0].subs({sp.Symbol("b"): "1/2"}) == half
    with pytest.raises(ParameterError, match=r"^values must be keyed by the parameters \(b\); got c\.$"):
        rdpsym.laplace(scale=b).pair[0].subs({sp.Symbol("c"): 1})
    P, Q = rdpsym.laplace(scale=b).pair
    assert rdpsym.renyi_divergence_mp(P, Q, 2, dps=20, values={sp.Symbol("b"): 1}) == \
        rdpsym.renyi_divergence_mp(P, Q, 2, dps=20, values={"b": 1})


def test_xi_of_zcdp_is_a_finite_nonnegative_number_or_a_nonnegative_symbol():
    xi = sp.Symbol("xi", nonnegative=True)
    assert rdpsym.zcdp(rho=1, xi=xi).closed_form == rdpsym.alpha + xi
    assert rdpsym.zcdp(rho=1, xi="1/100").closed_form == rdpsym.alpha + sp.Rational(1, 100)
    for value, shown in (("sqrt(-1)", "I"), (float("inf"), "oo"), (-1, "-1"), (sp.Symbol("z"), "z, whose sign")):
        with pytest.raises(ParameterError, match=re.escape("xi must be a finite number >= 0 (xi >= 0)") + ".*got "
                           + re.escape(shown)):
            rdpsym.zcdp(rho=1, xi=value)


def test_every_spelling_of_infinity_is_an_order_of_accounting_too():
    c = rdpsym.laplace(scale=1).curve()
    for word in ("inf", "Infinity", "oo", "∞", "+inf"):
        assert rdpsym.epsilon(c, delta=1e-5, orders=[2, word], dps=20).order == float("inf"), word
    assert rdpsym.laplace(scale=1).rdp("Infinity").result == 1


def test_a_subsampled_gaussian_component_reads_floats_as_typed():
    from rdpsym.accounting.components import SampledGaussian

    k = SampledGaussian("sg", 0.01, 1.1)
    assert (k.q, k.sigma) == (sp.Rational(1, 100), sp.Rational(11, 10))
    assert k == SampledGaussian("sg", sp.Rational(1, 100), "11/10")
    with pytest.raises(ParameterError, match="^q must be"):
        SampledGaussian("sg", "0.01*q", 1)


def test_the_audit_names_a_grid_it_does_not_know():
    from rdpsym.peers.audit import audit_dp_accounting

    with pytest.raises(ParameterError, match=r"^grid must be 'small' or 'full'; got 'foo'\.$"):
        audit_dp_accounting("foo")


@pytest.mark.parametrize("text, problem", [("0*oo", "an undefined value"), ("oo - oo", "an undefined value"),
                                           ("exp(exp(exp(exp(10))))", "an exponential of a number beyond ±1e+06"),
                                           ("exp(-3000)", "a number beyond 10^±1000"),
                                           ("10^-1001", "a power with about"),
                                           ("(10^500)^3", "a power with about 1.5e+03 digits")])
def test_undefined_and_astronomical_numbers_are_refused(text, problem):
    with pytest.raises(ArithmeticSyntaxError, match=re.escape(problem)):
        parse(text)
    with pytest.raises(ParameterError, match="sigma must be a number"):
        rdpsym.gaussian(sigma=text)


def test_a_python_integer_too_long_to_print_is_refused_by_its_size():
    with pytest.raises(ParameterError, match="got a number of about 5001 digits .an exact number of more than 4000"):
        rdpsym.gaussian(sigma=10**5000)


def test_set_alpha_is_the_order_and_a_derivation_keeps_to_its_hypothesis(capsys):
    from rdpsym.cli import main

    # Regression: --set alpha=1/2 evaluated the α > 1 formula at 1/2 (-937.13) instead of deriving at 1/2.
    assert main(["derive", "laplace", "--set", "alpha=1/2", "--set", "scale=1"]) == 0
    by_set = capsys.readouterr().out.splitlines()[-1]
    assert main(["derive", "laplace", "--order", "1/2", "--set", "scale=1"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == by_set == "0.189069783783671236043973769071"
    assert main(["derive", "laplace", "--order", "2", "--set", "alpha=3"]) == 2
    assert "--set alpha must be used without --order" in capsys.readouterr().err
    # A symbolic order stands for every α ≠ 1 now: at 1/2 the form is 0/0 and its value there is the limit.
    d = rdpsym.laplace(scale=1).rdp()
    assert mpmath.nstr(d.evalf({"alpha": sp.Rational(1, 2)}, dps=30), 30) == by_set
    with pytest.raises(rdpsym.DomainError, match="within the derivation's hypothesis Ne"):
        d.evalf({"alpha": 1})


def test_an_output_to_standard_output_has_it_alone(capsys):
    from rdpsym.cli import main

    assert main(["derive", "gaussian", "--latex", "-"]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("\\documentclass") and captured.out.rstrip().endswith("\\end{document}")
    assert captured.err.startswith("D_alpha(P||Q) = alpha/(2*sigma**2)")


def test_an_integer_too_long_to_read_says_so(capsys):
    """10^30 is a positive integer: refused for its length (at most 20 characters), and the message says that
    rather than "must be a positive integer", with the number shortened."""
    from rdpsym.cli.main import main
    from rdpsym.foundations.reading import MAX_INTEGER_TEXT, integer

    with pytest.raises(ParameterError, match=f"written in at most {MAX_INTEGER_TEXT} characters; got '1.00000e"):
        integer("1" + "0" * 30, "--steps", minimum=1)
    assert integer("9" * MAX_INTEGER_TEXT, "--steps", minimum=1) == 10**MAX_INTEGER_TEXT - 1
    with pytest.raises(SystemExit):
        main(["epsilon", "--mechanism", "gaussian", "--set", "sigma=2", "--delta", "1e-5", "--steps", "1" + "0" * 30])
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last.endswith("--steps must be a positive integer, written in at most 20 characters; got '1.00000e+30'.")


def test_a_negative_mpmath_value_keeps_its_sign():
    """An mpmath number was read through man_exp, the mantissa without its sign: σ = mpf(−2) became σ = 2."""
    import mpmath

    from rdpsym.foundations.reading import exact

    assert exact(mpmath.mpf(-0.75), "x") == sp.Rational(-3, 4)
    with pytest.raises(rdpsym.ParameterError, match="sigma"):
        rdpsym.gaussian(mpmath.mpf(-2))
