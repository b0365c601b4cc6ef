"""Issue 16's hostile inputs, one test each: bounded work, no wrong value, no traceback, clear errors.

Every input the adversarial catalogue quoted as failing is here, with what must happen instead:
a value that an independent computation confirms, or an rdpsym error (an :class:`RdpSymError`)
naming what was wrong, before any work and quickly.  ``watchdog`` bounds each call generously, so
a regression to "never returns" is a failure, not a hung suite (it is not a timing assertion).
The general property tests over the whole public API are in ``test_hostile_properties.py``.
"""

from __future__ import annotations

import math
import os
import re
import textwrap
from decimal import Decimal
from pathlib import Path

import mpmath
import numpy as np
import pytest
import sympy as sp

import rdpsym
from rdpsym import DensityError, ParameterError, RdpSymError
from rdpsym.claims.runner import run
from rdpsym.cli.main import main
from rdpsym.foundations.errors import MAX_MESSAGE, SHORT_DIGITS


def short(exc: BaseException) -> str:
    """The message, checked short: under the ceiling, no number of more than SHORT_DIGITS digits."""
    text = str(exc)
    assert len(text) <= MAX_MESSAGE + 60, len(text)
    longest = max((len(m) for m in re.findall(r"\d+", text)), default=0)
    assert longest <= SHORT_DIGITS, text
    return text


# ---------------------------------------------------------------- unbounded work, on the command line


@pytest.mark.parametrize("argv, option", [
    (["derive", "gaussian", "--order", "2", "--set", "sigma=9**9**9"], "--set sigma"),
    (["derive", "gaussian", "--order", "2", "--set", "sigma=1e999999999"], "--set sigma"),
    (["epsilon", "--mechanism", "gaussian", "--set", "sigma=9**9**9", "--delta", "1e-5"], "--set sigma"),
    (["epsilon", "--mechanism", "gaussian", "--set", "sigma=1e999999999", "--delta", "1e-5"], "--set sigma"),
    (["epsilon", "--mechanism", "gaussian", "--set", "sigma=2", "--delta", "1e-999999999"], "--delta"),
    (["delta", "--mechanism", "gaussian", "--set", "sigma=2", "--epsilon", "1e999999999"], "--epsilon"),
])
def test_astronomical_numbers_on_the_command_line_are_refused_at_once(argv, option, capsys, watchdog):
    with watchdog(30, " ".join(argv)):
        assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"rdpsym: error: {option} must be") and err.count("\n") == 1, err
    assert len(err) < 400


def test_delta_at_epsilon_1e300_is_computed_and_rounded_from_the_exponent(watchdog):
    # It hung building Fraction(2)**e with e ~ -10^302 to round δ to decimals.
    with watchdog(60, "delta(gaussian(2), epsilon=1e300)"):
        r = rdpsym.delta(rdpsym.gaussian(2).curve(), epsilon=1e300, orders=[2], conversion="mironov", dps=20)
        published, text = r.published(6), str(r)
    # Independently: Mironov's Prop 3 at order 2 gives δ = exp((α − 1)(ε(α) − ε)) with ε(2) = 2/8; its
    # log10 has 300 digits before the point, so 330 digits hold the mantissa's.
    mpmath.mp.dps = 330
    log10_delta = (mpmath.mpf(1) / 4 - mpmath.mpf(10) ** 300) / mpmath.log(10)
    mantissa, exponent = published.split("E")
    log10_published = mpmath.log10(mpmath.mpf(mantissa)) + int(exponent)
    assert log10_published >= log10_delta  # rounded up: never below the truth
    assert log10_published - log10_delta < mpmath.mpf(10) ** -4  # and by at most the 6th digit
    assert published in text


@pytest.mark.parametrize("epsilon", [1000, 10**6])
def test_delta_far_below_python_printing_limit_prints(epsilon, watchdog):
    # epsilon=1000 ended in "Exceeds the limit (4300 digits) for integer string conversion".
    with watchdog(60, f"delta(epsilon={epsilon})"):
        r = rdpsym.delta(rdpsym.gaussian(2).curve(), epsilon=epsilon, orders=[2], conversion="mironov", dps=30)
        published = r.published(8)
        assert str(r.enclosure) and repr(r)
    mpmath.mp.dps = 40
    log10_delta = (mpmath.mpf(1) / 4 - epsilon) / mpmath.log(10)
    mantissa, exponent = published.split("E")
    assert 0 <= mpmath.log10(mpmath.mpf(mantissa)) + int(exponent) - log10_delta < mpmath.mpf(10) ** -6


@pytest.mark.parametrize("call", [
    lambda: rdpsym.pure_dp(10**6),
    lambda: rdpsym.exponential_mechanism(2303),
    lambda: rdpsym.k_randomized_response(3, 10**6),
    lambda: rdpsym.laws.guarantees.pure_dp_as_randomized_response(5000),
], ids=["pure_dp", "exponential", "k-rr", "pure-dp-as-rr"])
def test_an_epsilon_whose_exponential_passes_the_ceiling_is_refused_by_name(call):
    # k-RR at ε = 10⁶ was refused as "probability of 0 must be a value within rdpsym's input ceilings",
    # ε-DP as "closed form must be ...": neither named ε (a probe).
    with pytest.raises(ParameterError, match=r"epsilon must be at most 2302, .*got \d+\."):
        call()


def test_the_largest_exponentiated_epsilon_has_its_value():
    # D_2 of ε-DP is log(2cosh ε − 1) = ε + log(1 − e^{−ε} + e^{−2ε}) = 2302 − 10^−999.7...: 2302 to 30 digits.
    assert rdpsym.pure_dp(2302).curve().value(2, dps=30) == pytest.approx(2302, abs=1e-25)
    with pytest.raises(ParameterError, match=r"noise must be large enough .* at most 2302"):
        rdpsym.k_randomized_response(3, noise=sp.Rational(1, 10**1000))


@pytest.mark.parametrize("call", [
    lambda: rdpsym.renyi_divergence_mp(*rdpsym.laplace(scale=2).pair, 3, dps=10000),
    lambda: rdpsym.epsilon(rdpsym.gaussian(2).curve(), delta=1e-5, dps=10000),
    lambda: rdpsym.delta(rdpsym.gaussian(2).curve(), epsilon=1, dps=1001),
    lambda: rdpsym.gaussian(2).curve().value(2, dps=10**9),
    lambda: rdpsym.epsilon(rdpsym.gaussian(2).curve(), delta=1e-5, dps=20).published(10**6),
], ids=["renyi_divergence_mp", "epsilon", "delta", "curve", "published"])
def test_dps_above_the_ceiling_is_refused_before_any_work(call, watchdog):
    with watchdog(60), pytest.raises(ParameterError, match=r"(dps|digits) must be an integer in \[\d, 1000\]"):
        call()


def test_a_claim_file_that_loops_at_import_or_in_a_step_times_out(tmp_path, capsys, watchdog):
    (tmp_path / "loops_at_import.py").write_text("while True:\n    pass\n")
    (tmp_path / "loops_in_a_step.py").write_text(textwrap.dedent("""
        import sympy as sp
        from rdpsym.claims import AtMost, Claim, Domain, Verdict, alpha

        def forever():
            while True:
                pass

        DOMAIN = Domain({alpha: sp.Interval.open(1, sp.oo)})
        CLAIMS = [Claim("loops", "", "", "", (AtMost(forever, alpha**2, "never"),), Verdict.PROVED, DOMAIN),
                  Claim("after", "", "", "", (AtMost(alpha, alpha**2, "α > 1"),), Verdict.PROVED, DOMAIN)]
    """))
    with watchdog(120, "rdpsym check with --timeout 2"):
        assert main(["check", str(tmp_path), "--quiet", "--timeout", "2", "--json", str(tmp_path / "r.json")]) == 1
    out = capsys.readouterr().out
    assert re.search(r"loops_at_import\.py\s+LOAD ERROR.*timed out after 2 CPU seconds while loading", out), out
    assert re.search(r"loops\s+unknown\s+proved.*timed out after 2 CPU seconds", out), out
    assert re.search(r"after\s+proved\s+proved", out), out  # the claim after the one stopped still ran


def test_a_claim_file_that_recurses_a_million_frames_deep_is_named_by_its_line(tmp_path, capsys, watchdog):
    """A probe: its RecursionError's traceback, about 10⁶ frames, had each frame's file resolved on the disk before
    the error could be placed: 120 CPU seconds, then "timed out while loading" instead of the error and its line."""
    (tmp_path / "deep.py").write_text("import sys\nsys.setrecursionlimit(10**6)\n\n\ndef r(n):\n    return r(n + 1)"
                                      "\n\n\nr(0)\n")
    with watchdog(120, "rdpsym check with --timeout 30"):
        assert main(["check", str(tmp_path), "--quiet", "--timeout", "30"]) == 1
    out = capsys.readouterr().out
    assert re.search(r"deep\.py\s+LOAD ERROR.*RecursionError at line 6: maximum recursion depth", out), out


def test_a_worker_that_dies_costs_its_file_or_claim_only(tmp_path):
    (tmp_path / "exits.py").write_text("import os\nos._exit(3)\n")
    (tmp_path / "good.py").write_text(textwrap.dedent("""
        import sympy as sp
        from rdpsym.claims import AtMost, Claim, Domain, Verdict, alpha
        CLAIM = Claim("good", "", "", "", (AtMost(alpha, alpha**2, "α > 1"),), Verdict.PROVED,
                      Domain({alpha: sp.Interval.open(1, sp.oo)}))
    """))
    report = run([tmp_path], timeout=60)
    assert [r.claim.id for r in report.results] == ["good"] and report.results[0].ok
    assert [f.problem for f in report.failures] == ["the worker process ended (exit status 3) while loading"]


def test_a_claim_too_deep_to_send_from_the_worker_costs_itself_only(tmp_path):
    """A side nested 300 deep exceeded pickle's recursion as the worker sent the claim, before the claim's own ceiling
    on nesting was read: the RecursionError ended the worker, and `rdpsym check` lost every other claim and its report
    (a probe).  The claim is checked in the worker as in-process (unknown: past the ceiling on nesting) and its result
    sent without its sides; the rest are checked.  A claim whose sides do not pickle at all (a function class made in
    the claim file) is checked too, and its verdict sent without them (a review)."""
    (tmp_path / "deep.py").write_text(textwrap.dedent("""
        import sympy as sp
        from rdpsym.claims import AtMost, Claim, Domain, Verdict
        x = sp.Symbol("x", real=True)
        deep = x
        for _ in range(300):
            deep = sp.Pow(deep + 1, sp.Rational(1, 2), evaluate=False)
        class Local(sp.Symbol):  # (a class of this file: pickle cannot find it by name in the supervisor)
            pass

        y = Local("y", real=True)
        CLAIMS = [Claim("deep", "", "", "", (AtMost(deep, 2, ""),), Verdict.CHECKED, Domain({x: sp.Interval(0, 1)})),
                  Claim("after", "", "", "", (AtMost(x, 2, ""),), Verdict.CHECKED, Domain({x: sp.Interval(0, 1)})),
                  Claim("unpicklable", "", "", "", (AtMost(y, 2, ""),), Verdict.CHECKED, Domain({y: sp.Interval(0, 1)}))]
    """))
    report = run([tmp_path], timeout=60)
    assert [(r.claim.id, r.verdict) for r in report.results] == [
        ("deep", rdpsym.Status.UNKNOWN), ("after", rdpsym.Status.CHECKED), ("unpicklable", rdpsym.Status.CHECKED)]
    assert "nested more than 200 deep" in str(report.results[0].steps[0].evidence[0])


def test_classes_and_objects_a_claim_file_makes_do_not_cost_the_run_or_a_refutation(tmp_path):
    """A probe: a subclass of Claim made in a claim file ended the worker (its template did not pickle, and neither did
    the template without sides, which kept the subclass), losing every claim of the run; a counterexample holding an
    object of a class from the file lost its refutation ("could not be sent back"); CLAIMS as a generator was read
    empty by the loader's own check, and the file reported no claim and no error."""
    (tmp_path / "a_sub.py").write_text(textwrap.dedent("""
        import sympy as sp
        from dataclasses import dataclass
        from rdpsym.claims import AtMost, Claim, Domain, Holds, Verdict
        x = sp.Symbol("x", real=True)

        class MyClaim(Claim):
            pass

        @dataclass(frozen=True)
        class Law:
            p: float

        CLAIMS = [MyClaim("sub", "", "", "", (AtMost(x, 2, ""),), Verdict.CHECKED, Domain({x: sp.Interval(0, 1)})),
                  Claim("law", "", "", "", (Holds("p <= 1/4", lambda pt: (pt["law"].p, "<=", 0.25), ""),),
                        Verdict.REFUTED, Domain({x: sp.Interval(0, 1)}, objects={"law": lambda rng, i: Law(0.5)}))]
    """))
    (tmp_path / "b_generator.py").write_text(textwrap.dedent("""
        import sympy as sp
        from rdpsym.claims import AtMost, Claim, Domain, Verdict
        x = sp.Symbol("x", real=True)
        CLAIMS = (Claim(f"g{i}", "", "", "", (AtMost(x, 2, ""),), Verdict.PROVED, Domain({x: sp.Interval(0, 1)}))
                  for i in range(2))
    """))
    report = run([tmp_path], timeout=60)
    assert [(r.claim.id, r.verdict) for r in report.results] == [("sub", rdpsym.Status.CHECKED),
                                                                  ("law", rdpsym.Status.REFUTED)]
    assert "law=Law(p=0.5)" in str(report.results[1].steps[0].evidence[0])
    assert [f.problem for f in report.failures] == ["CLAIMS must be a non-empty list of Claim, found generator"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_named_like_a_claim_file_is_not_read(tmp_path, watchdog):
    """A FIFO ``fifo.py`` in a claims folder blocked the worker's read until the wall-clock backstop, 20 times the
    timeout (40 minutes by default; a probe).  It is reported as not a regular file, at once, and the folder's
    other claims run."""
    os.mkfifo(tmp_path / "fifo.py")
    (tmp_path / "good.py").write_text(textwrap.dedent("""
        import sympy as sp
        from rdpsym.claims import AtMost, Claim, Domain, Verdict, alpha
        CLAIM = Claim("good", "", "", "", (AtMost(alpha, alpha**2, "α > 1"),), Verdict.PROVED,
                      Domain({alpha: sp.Interval.open(1, sp.oo)}))
    """))
    with watchdog(60, "rdpsym check of a folder with a FIFO"):
        report = run([tmp_path], timeout=2)
    assert [r.claim.id for r in report.results] == ["good"] and report.results[0].ok
    assert [f.problem for f in report.failures] == ["not a regular file (a folder, a FIFO or a device): not read"]


@pytest.mark.parametrize("timeout", ["0", "-1", "nan", "inf", "abc", "1e999999999", "86401"])
def test_the_time_limit_is_a_positive_number_of_seconds(timeout, tmp_path, capsys):
    assert main(["check", str(tmp_path), "--quiet", "--timeout", timeout]) == 2
    assert capsys.readouterr().err.startswith("rdpsym: error: --timeout must be")


# ---------------------------------------------------------------- wrong values


def test_evalf_refuses_a_dps_of_minus_one_or_zero():
    # dps=-1 returned 0.5 where the value is 3/8, and dps=0 returned 0.375 silently.
    b = sp.Symbol("b", positive=True)
    d = rdpsym.laplace(scale=b).rdp(2)
    for bad in (-1, 0, 4, 1001, 2.5, "x", None):
        with pytest.raises(ParameterError, match=r"^dps must be an integer in \[5, 1000\]"):
            d.evalf({b: 1}, dps=bad)
    # The value it gives within the ceiling, against Proposition 6 at λ = 1, α = 2: log((2e + e^-2)/3).
    mpmath.mp.dps = 30
    assert abs(d.evalf({b: 1}, dps=20) - mpmath.log((2 * mpmath.e + mpmath.exp(-2)) / 3)) < mpmath.mpf(10) ** -19


@pytest.mark.parametrize("dps", ["0", "-1", "4", "1001", "ten"])
def test_reference_with_a_dps_outside_the_ceiling_writes_nothing(dps, tmp_path, capsys):
    # rdpsym reference --dps 0 wrote tables with value 0 and bounds [0, 1].
    out = tmp_path / "refs"
    assert main(["reference", "--quick", "--dps", dps, "--out", str(out)]) == 2
    assert capsys.readouterr().err.startswith("rdpsym: error: --dps must be an integer in [5, 1000]")
    assert not out.exists()


def test_reference_api_reads_its_dps_too(tmp_path):
    from rdpsym.accounting.reference import write_reference

    with pytest.raises(ParameterError, match="dps must be"):
        write_reference(tmp_path / "refs", dps=0, quick=True)
    assert not (tmp_path / "refs").exists()


# ---------------------------------------------------------------- tracebacks


@pytest.mark.parametrize("argv, option", [
    (["table2", "--latex", "{tmp}/missing/t.tex"], "--latex"),
    (["table2", "--latex", "{tmp}/a-folder"], "--latex"),
    (["table2", "--latex", "{tmp}/t.tex", "--pdf"], "--pdf"),  # t.pdf is a folder: the PDF could not be written
    (["table2", "--latex", "-", "--pdf"], "--pdf"),
    (["derive", "laplace", "--latex", "{tmp}/read-only.tex"], "--latex"),
    (["check", "{tmp}/claims", "--json", "{tmp}/missing/r.json"], "--json"),
    (["check", "{tmp}/claims", "--markdown", "{tmp}/a-folder"], "--markdown"),
    (["check", "{tmp}/claims", "--latex", "{tmp}/locked/r.tex"], "--latex"),
    (["plot", "gaussian:sigma=1", "--output", "{tmp}/missing/c.png"], "--output"),
    (["plot", "gaussian:sigma=1", "--output", "{tmp}/locked/c.png"], "--output"),
    (["reference", "--quick", "--out", "{tmp}/a-file.txt"], "--out"),
    (["reference", "--quick", "--out", "{tmp}/locked/refs"], "--out"),
    (["reference", "--quick", "--out", "{tmp}/refs-with-a-folder"], "--out"),
    (["audit", "dp-accounting", "--json", "{tmp}/a-folder"], "--json"),
    # A folder the permissions allow (to root) where no file can be made: the whole check ran first (a probe)
    (["check", "{tmp}/claims", "--json", "/proc/version"], "--json"),
    (["reference", "--quick", "--out", "/proc/rdpsym-refs"], "--out"),
    (["epsilon", "--mechanism", "gaussian", "--set", "sigma=1", "--delta", "1e-5"], None),  # writes no file
])
def test_an_output_that_cannot_be_written_is_refused_before_any_work(argv, option, tmp_path, capsys, monkeypatch):
    import os

    from rdpsym.cli import accounting, check, derive, plot
    from rdpsym.cli import table2 as table2_command

    (tmp_path / "claims").mkdir()
    (tmp_path / "a-folder").mkdir()
    (tmp_path / "t.pdf").mkdir()
    (tmp_path / "refs-with-a-folder" / "rdpsym_reference.csv").mkdir(parents=True)
    (tmp_path / "a-file.txt").write_text("")
    (tmp_path / "read-only.tex").write_text("")
    (tmp_path / "read-only.tex").chmod(0o444)
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked").chmod(0o555)
    if os.geteuid() == 0 and any(w in " ".join(argv) for w in ("locked", "read-only")):  # root writes anywhere
        pytest.skip("running as root: permissions do not stop writing")
    # The work each command does first: reached only if the checks let it through.
    for module, name in ((table2_command, "table2"), (derive, "mechanism_document"), (check, "run_claims"),
                         (accounting, "write_reference"), (accounting, "audit")):
        monkeypatch.setattr(module, name, lambda *a, **k: pytest.fail("the work started before the checks"))
    monkeypatch.setattr(plot, "spec_mechanism", lambda *a, **k: pytest.fail("the work started before the checks"))
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    if option is None:
        return
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"rdpsym: error: {option} must be"), err


@pytest.mark.parametrize("title", ["$\\frac{1}{$", "$\\input{/etc/passwd}$"])
def test_a_plot_title_matplotlib_cannot_read_is_refused_before_any_work(title, tmp_path, capsys, monkeypatch):
    """A malformed mathtext title was a traceback after the curves were computed (a probe)."""
    from rdpsym.render import plots

    monkeypatch.setattr(plots, "budget_data", lambda *a, **k: pytest.fail("the work started before the checks"))
    assert main(["plot", "gaussian:sigma=1", "--output", str(tmp_path / "c.png"), "--title", title]) == 2
    assert capsys.readouterr().err.startswith("rdpsym: error: --title must be text whose $...$ parts are mathtext")


@pytest.mark.parametrize("argv, message", [
    (["epsilon", "--mechanism", "gaussian", "--set", "sigma=2", "--delta", "1e-5", "--orders", "2,,3"],
     "--orders must be a comma-separated list of orders without an empty entry; got '2,,3'."),
    (["verify", "--mechanism", "gaussian", "--set", "sigma=2", "--orders", "2,3,4", "--rdp", "0.25,,1.25"],
     "--rdp must be a comma-separated list without an empty entry; got '0.25,,1.25'."),
    (["calibrate", "--mechanism", "gaussian", "--epsilon", "1", "--delta", "1e-5", "--solve", "steps"],
     "--set must be a value for sigma (gaussian), which --solve steps leaves fixed; got none."),
])
def test_command_line_typos_are_refused_by_the_option_given(argv, message, capsys):
    """An empty list entry was dropped silently (a peer's missing value shifted the rest), and a missing --set was
    reported as the Python keyword fixed= (a probe)."""
    assert main(argv) == 2
    assert capsys.readouterr().err.strip() == f"rdpsym: error: {message}"


def test_a_curve_value_too_small_for_the_rungs_is_resolved_at_more_bits():
    """D₂ of the Laplace mechanism at scale 10³⁰⁰ is 10⁻⁶⁰⁰: its curve was "not reached within 504 bits" (the
    rungs stop at 8× the first), and ε at δ = 10⁻⁵ with it, where renyi_divergence_mp gave the value (a probe).
    A ball only too small for the precision (its radius below 2^(−bits/2)) is taken to more bits."""
    for scale, rr in ((10**80, None), (10**300, None), (None, sp.Rational(1, 2) + sp.Rational(1, 10**300))):
        m = rdpsym.laplace(scale=scale) if rr is None else rdpsym.randomized_response(rr)
        v = m.curve().value(2, dps=13)
        with mpmath.workdps(30):
            want = 1 / mpmath.mpf(scale) ** 2 if rr is None else 16 * mpmath.mpf(10) ** -600  # log(1 + 16ε²)
            assert abs(v / want - 1) < mpmath.mpf(10) ** -12, (scale, v)
        assert rdpsym.epsilon(m, delta=sp.Rational(1, 10**5), dps=10).enclosure == 0


def test_a_recursion_error_inside_sympy_is_no_closed_form():
    """A hyperbolic-secant law centred at 300 was a bare RecursionError from sympy.integrate's expand_trig while
    its mass was checked (a probe); a SymPy call that recurses too deep is SymPy giving up: no closed form."""
    x = sp.Symbol("x", real=True)
    law = lambda m: rdpsym.Continuous(1 / (2 * sp.cosh(sp.pi * (x - m) / 2)), x)  # noqa: E731
    far, near = (rdpsym.renyi_divergence_mp(law(m), law(m + 1), 2, dps=20) for m in (300, 0))
    assert abs(far - near) < mpmath.mpf(10) ** -19 * near


def test_a_memory_error_inside_sympy_is_no_closed_form_and_the_divergence_is_derived():
    """Two gamma laws at α = 1 − 10⁻¹²: simplify's gammasimp wrote Γ(a)^e as a list of e ≈ 10¹² factors, a bare
    MemoryError from renyi_divergence (a review).  An allocation SymPy cannot make is SymPy giving up on that
    attempt; the derivation goes on without it.  The truth, by the published formula for two gamma laws
    Γ(a₁, rate b₁), Γ(a₂, rate b₂): D_α = [log Γ(a_α) − α log Γ(a₁) − (1 − α) log Γ(a₂) + α a₁ log b₁
    + (1 − α) a₂ log b₂ − a_α log b_α]/(α − 1), a_α = αa₁ + (1 − α)a₂, b_α = αb₁ + (1 − α)b₂."""
    x = sp.Symbol("x", real=True)
    gamma = lambda a, b: rdpsym.Continuous(b**a * x ** (a - 1) * sp.exp(-b * x) / sp.gamma(a), x,  # noqa: E731
                                           support=sp.Interval(0, sp.oo))
    a1, b1, a2, b2 = sp.Integer(3), sp.Integer(2), sp.Rational(5, 2), sp.Integer(1)
    order = 1 - sp.Rational(1, 10**12)
    d = rdpsym.renyi_divergence(gamma(a1, b1), gamma(a2, b2), order)
    a_, b_ = order * a1 + (1 - order) * a2, order * b1 + (1 - order) * b2
    truth = (sp.loggamma(a_) - order * sp.loggamma(a1) - (1 - order) * sp.loggamma(a2) + order * a1 * sp.log(b1)
             + (1 - order) * a2 * sp.log(b2) - a_ * sp.log(b_)) / (order - 1)
    with mpmath.workdps(40):
        assert abs(d.evalf(dps=30) - mpmath.mpf(str(sp.N(truth, 40)))) < mpmath.mpf(10) ** -28


def test_derive_takes_alpha_as_its_help_says(capsys):
    assert main(["derive", "gaussian", "--order", "alpha"]) == 0
    assert capsys.readouterr().out.startswith("D_alpha(P||Q) = alpha/(2*sigma**2)")


def test_the_largest_max_order_makes_a_grid_within_the_orders_ceiling():
    """--max-order 1e6 passed its range check, then the grid of every integer to 10⁶ was refused (a probe)."""
    from rdpsym.accounting.orders import MAX_ORDERS
    from rdpsym.render.plot_data import default_orders

    grid = default_orders(10**6)
    assert len(grid) <= MAX_ORDERS and grid[-1] == 10**6 and all(k in grid for k in range(2, 1001))


def test_a_sampled_gaussian_narrower_than_a_double_reaches_gets_its_integer_orders():
    """σ = 10⁻¹⁶⁰: float(1/(2σ²)) in the summation's plan overflowed, a bare OverflowError (a probe).  D₂ =
    log(3/4 + e^{1/σ²}/4) at q = ½."""
    for k in (160, 400):
        v = rdpsym.sampled_gaussian(q=sp.Rational(1, 2), sigma=sp.Rational(1, 10**k)).curve().value(2, dps=15)
        with mpmath.workdps(30):
            assert abs(v / (mpmath.mpf(10) ** (2 * k) - 2 * mpmath.log(2)) - 1) < mpmath.mpf(10) ** -14


@pytest.mark.parametrize("conversion", ["best", "bbghs", "optimal"])
def test_a_delta_next_to_one_is_read_exactly_at_any_dps(conversion):
    """δ = 1 − 10⁻³⁰ was refused after the work at --dps 10 ("got 1.00000…": the ball at 64 bits held 1), and
    accepted at 50 (a probe); Arb's log1p(−δ) was then NaN.  Every mechanism is (0, δ)-DP there."""
    delta = 1 - sp.Rational(1, 10**30)
    for mechanism in (rdpsym.gaussian(2), rdpsym.laplace(1)):
        assert rdpsym.epsilon(mechanism, delta=delta, dps=10, conversion=conversion).enclosure == 0


def test_the_largest_dps_is_accepted_where_guard_digits_are_added_inside():
    """--dps 998 to 1000 were refused as "got 1003": the conversion reads its balls at dps + 3, through the one
    reader of dps (a probe)."""
    rr, delta = rdpsym.randomized_response(sp.Rational(3, 4)), sp.Rational(1, 10**5)
    r = rdpsym.epsilon(rr, delta=delta, orders=[2, 3], dps=1000)
    assert r.dps == 1000 and 5 < r.enclosure < 6  # (orders 2 and 3 only)
    with pytest.raises(ParameterError, match=r"^dps must be an integer in \[5, 1000\]; got 1001\.$"):
        rdpsym.epsilon(rr, delta=delta, dps=1001)


def test_a_fifo_a_device_and_a_link_are_written_into_never_replaced(tmp_path, capsys):
    """``--json /dev/null`` run as root renamed a regular file over the device, for every process on the machine
    (a probe did so to /dev/full), and a FIFO became a file: they are written into now.  A link to a regular file
    is replaced, never its target (a link planted in /tmp must not choose the file overwritten; a reviewer)."""
    import os
    import stat
    import threading

    from rdpsym.foundations.files import replace_file

    fifo, target, link = tmp_path / "fifo", tmp_path / "real.json", tmp_path / "link.json"
    os.mkfifo(fifo)
    target.write_text("old")
    link.symlink_to(target.name)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    argv = ["epsilon", "--mechanism", "gaussian", "--set", "sigma=2", "--delta", "1e-5", "--dps", "10", "--json"]
    assert main([*argv, str(fifo)]) == 0
    reader.join(30)
    assert stat.S_ISFIFO(fifo.lstat().st_mode) and received and received[0].startswith(b"{")
    assert main([*argv, str(link)]) == 0
    assert not link.is_symlink() and link.read_text().startswith("{") and target.read_text() == "old"
    if os.geteuid() == 0:  # only root makes device nodes: a copy of /dev/null's
        device = tmp_path / "null"
        os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        replace_file(device, lambda p: p.write_text("x"))
        assert stat.S_ISCHR(device.lstat().st_mode)
    capsys.readouterr()
    sock = tmp_path / "s"
    import socket
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(sock))
        assert main([*argv, str(sock)]) == 2
    assert "--json must be a regular file, a character device such as /dev/null, or a FIFO" in capsys.readouterr().err


@pytest.mark.parametrize("call, name", [
    (lambda: rdpsym.gaussian(2).rdp(None), "order"),
    (lambda: rdpsym.gaussian(2).curve()(None), "order"),
    (lambda: rdpsym.epsilon(rdpsym.gaussian(2).curve(), delta=None), "delta"),
    (lambda: rdpsym.delta(rdpsym.gaussian(2).curve(), epsilon=None), "epsilon"),
    (lambda: rdpsym.zcdp(1, xi=None), "xi"),
    (lambda: rdpsym.zcdp(1, xi=float("nan")), "xi"),
    (lambda: rdpsym.zcdp(1, xi=np.float64("nan")), "xi"),
    (lambda: rdpsym.zcdp(1, xi=Decimal("NaN")), "xi"),
    (lambda: rdpsym.renyi_divergence_mp(*rdpsym.laplace(2).pair, None), "order"),
    (lambda: rdpsym.renyi_divergence_mp(*rdpsym.laplace(2).pair, 2, values=float("nan")), "values"),
    (lambda: rdpsym.laplace(sp.Symbol("b", positive=True)).rdp(2).evalf(float("nan")), "values"),
    (lambda: rdpsym.gaussian(2).curve() + 1, r"a term of a composition \(curve \+ curve\)"),
    (lambda: rdpsym.gaussian(2).curve() * rdpsym.laplace(1).curve(), r"the steps of a repetition \(k \* curve\)"),
    (lambda: rdpsym.gaussian(2).curve().values(3.0), "orders"),
    (lambda: rdpsym.gaussian(2).curve().group(10**400), r"c \(group size 2\^c\)"),
    (lambda: rdpsym.epsilon(rdpsym.gaussian(2).curve(), 1e-5, conversion=["bbghs"]), "conversion"),
    (lambda: rdpsym.epsilon(rdpsym.gaussian(2).curve(), 1e-5, dps=20).published(None), "digits"),
    (lambda: rdpsym.randomized_response(sp.Interval(0, 1)), "p"),
    (lambda: rdpsym.table2_markdown(None), "cells"),
])
def test_none_nan_and_wrong_kinds_are_refused_by_name(call, name):
    # None as an order, δ or ξ, NaN as ξ raised AttributeError/TypeError; curve + 1 a bare TypeError.
    with pytest.raises(RdpSymError, match=f"^{name} must be") as e:
        call()
    short(e.value)


def test_an_empty_support_is_refused_by_name():
    k = sp.Symbol("k", integer=True)
    with pytest.raises(DensityError, match=r"^support must be a non-empty SymPy Range"):
        rdpsym.Discrete(sp.Rational(1, 2), k, support=sp.Range(0, 0))
    x = sp.Symbol("x", real=True)
    with pytest.raises(DensityError, match=r"^support must be a SymPy Interval of positive length"):
        rdpsym.Continuous(sp.Integer(1), x, support=sp.Interval(1, 0))


_x, _t = sp.Symbol("x", real=True), sp.Symbol("t", integer=True)
_HALF_NORMAL = sp.exp(-_x**2) / sp.sqrt(sp.pi) / 2


@pytest.mark.parametrize("pdf, match", [
    # A point mass beside a density is a law with atoms (tests/test_atoms.py); a derivative of one is not.
    (_HALF_NORMAL + sp.DiracDelta(_x, 1), r"^a point mass must be w·DiracDelta\(x − a\).*got DiracDelta\(x, 1\)"),
    (sp.Function("f")(_x), r"^pdf must be written with SymPy's functions .*; got the undefined function f\(x\)"),
    # A series in x: a TypeError ("not a real number: -t") from the density's check.
    ((1 - sp.exp(-1)) / sp.sqrt(sp.pi) * sp.Sum(sp.exp(-_x**2 - _t), (_t, 0, sp.oo)),
     r"^pdf must be an explicit function of x; got Sum\("),
])
def test_what_cannot_be_a_density_is_refused_by_name(pdf, match):
    with pytest.raises(DensityError, match=match) as e:
        rdpsym.Continuous(pdf, _x)
    short(e.value)


def test_a_function_mpmath_cannot_evaluate_is_an_rdpsym_error():
    # erfcinv prints under its SymPy name, which mpmath does not have: a NameError at the first node.  The
    # law is a density (∫₀² erfcinv(u)² du = ∫ y²·(2/√π)e^{−y²} dy = 1), whose mass is found numerically.
    with pytest.raises(RdpSymError, match="erfcinv cannot be evaluated numerically"):
        rdpsym.Continuous(sp.erfcinv(_x) ** 2, _x, support=sp.Interval(0, 2))


@pytest.mark.parametrize("order", [2, sp.oo, rdpsym.alpha])
def test_a_result_for_tables_is_not_evaluated_where_they_are_not_laws(order):
    """{0: p, 1: 1 − p} against {0: q, 1: 1 − q}: at α = 2 the result log(p²/q + (1 − p)²/(1 − q)) gave log 10 at
    p = 2, for a "law" with a probability −1.  The laws' conditions are the derivation's hypotheses now."""
    p, q = sp.Symbol("p", positive=True), sp.Symbol("q", positive=True)
    d = rdpsym.renyi_divergence(rdpsym.Discrete({0: p, 1: 1 - p}), rdpsym.Discrete({0: q, 1: 1 - q}), order)
    assert sp.Le(p, 1) in d.hypotheses and sp.Le(q, 1) in d.hypotheses
    at = {rdpsym.alpha: 2} if order in (2, rdpsym.alpha) else {}  # (α with another order than the result's is refused)
    with pytest.raises(rdpsym.DomainError, match=r"^values must be within the derivation's hypothesis p <= 1; "
                                                 r"got p = 2\."):
        d.evalf({p: 2, q: sp.Rational(1, 2), **at})
    assert d.evalf({p: sp.Rational(1, 3), q: sp.Rational(1, 2), **at}, dps=20) > 0


def test_a_density_written_with_a_derivative_or_a_finite_sum_is_read_as_written_out():
    """Σ_{t=0}^{3} e^{−t}·N-like components (a finite mixture as a Sum) and d/dx erf(x)/2 on [0, ∞) are
    densities: their terms are written out before any rule or quadrature reads them."""
    weights = sum(sp.exp(-i) for i in range(4))
    mixture = rdpsym.Continuous(sp.Sum(sp.exp(-_x**2 - _t), (_t, 0, 3)) / sp.sqrt(sp.pi) / weights, _x)
    assert not mixture.pdf.has(sp.Sum)
    derivative = rdpsym.Continuous(sp.Derivative(sp.erf(_x), _x), _x, support=sp.Interval(0, sp.oo))
    assert derivative.pdf == 2 * sp.exp(-_x**2) / sp.sqrt(sp.pi)
    d = rdpsym.renyi_divergence(derivative, rdpsym.Continuous(sp.exp(-_x), _x, support=sp.Interval(0, sp.oo)), 2)
    # ∫ (4/π) e^{−2x² + x} dx on [0, ∞) = (4/π)·√(π/8)·e^{1/8}·(1 + erf(√2/4)): D_2 = log of it
    want = sp.log(4 / sp.pi * sp.sqrt(sp.pi / 8) * sp.exp(sp.Rational(1, 8)) * (1 + sp.erf(sp.sqrt(2) / 4)))
    with mpmath.workdps(40):
        assert abs(d.evalf(dps=30) - mpmath.mpf(str(want.evalf(40)))) < mpmath.mpf(10) ** -28

def test_operators_with_a_non_curve_are_rdpsym_errors_and_type_errors():
    g = rdpsym.gaussian(2).curve()
    for bad in (1, 2.5, "g", None, np.float64(1)):
        with pytest.raises(TypeError) as e:
            g + bad
        assert isinstance(e.value, ParameterError)
        with pytest.raises(ParameterError):
            bad + g
    assert sum([g, g]) == g + g


def test_to_arb_of_what_balls_cannot_evaluate_is_an_rdpsym_error_callers_can_fall_back_on():
    from rdpsym.balls import to_arb

    for bad in (sp.Symbol("x"), sp.I, -sp.oo, sp.nan, sp.zoo, sp.zeta(3)):  # (Γ, P_ν, I_ν, K_ν are evaluated now)
        with pytest.raises(TypeError) as e:
            to_arb(bad)
        assert isinstance(e.value, RdpSymError)


# ---------------------------------------------------------------- extreme scales: whatever the outcome, short


def test_an_extreme_sigma_gives_a_value_or_a_short_error(watchdog):
    # gaussian(1e300).rdp(2) blamed the right closed form in a 3,000-character error of 600-digit numbers.
    with watchdog(120, "gaussian(1e300).rdp(2)"):
        try:
            d = rdpsym.gaussian(1e300).rdp(2)
        except RdpSymError as exc:
            short(exc)
        else:
            assert d.result == sp.Rational(1, 10**600)


def test_an_exact_moment_too_large_to_build_falls_back_to_the_labelled_numeric_value(watchdog):
    # Randomized response at α = 10^300 built (3/4)^(10^300) exactly and never returned.
    with watchdog(60, "randomized_response(0.75).rdp(10**300)"):
        d = rdpsym.randomized_response(0.75).rdp(10**300)
    assert d.status == "numeric" and "no closed form" in str(d.evidence[0])
    mpmath.mp.dps = 30  # D_α → D_∞ = log(p/(1 − p)) = log 3 as α → ∞, within 3^-α
    assert abs(d.result - mpmath.log(3)) < mpmath.mpf(10) ** -25


def test_a_symbolic_parameter_is_derived_at_a_huge_order_and_evaluated_without_building_powers(capsys, watchdog):
    with watchdog(120, "derive randomized-response --order 1e300"):
        assert main(["derive", "randomized-response", "--order", "1e300", "--set", "p=0.75"]) == 0
    assert "1.0986122886681096913952452369" in capsys.readouterr().out  # log 3, to 30 digits


# ---------------------------------------------------------------- unclear errors


def test_a_syntax_error_in_a_claim_file_is_located_by_file_and_line(tmp_path):
    (tmp_path / "broken.py").write_text("import sympy as sp\n\n\ndef f(:\n    pass\n")
    (tmp_path / "_helper.py").write_text("x = 1\ny = 1 / 0\n")
    (tmp_path / "uses_helper.py").write_text("import _helper\n")
    report = run([tmp_path], timeout=60)
    problems = {f.path.name: f.problem for f in report.failures}
    assert problems["broken.py"] == "SyntaxError at line 4: invalid syntax"
    assert problems["uses_helper.py"].startswith("ZeroDivisionError at line 2 of ")
    assert problems["uses_helper.py"].endswith("_helper.py (line 1): division by zero")


def test_a_symbolic_q_says_a_curve_needs_a_number():
    # It said "value must be an exact rational number; got q".
    q = sp.Symbol("q", positive=True)
    m = rdpsym.sampled_gaussian(q=q, sigma=1)
    with pytest.raises(ParameterError, match=r"^the sampled-gaussian parameter q must be a number to give a curve"):
        rdpsym.epsilon(m, delta=1e-5)


def test_messages_show_long_numbers_to_a_few_digits():
    with pytest.raises(ParameterError) as e:
        rdpsym.gaussian(sigma=-sp.Rational(10**400 + 1, 3))
    text = short(e.value)
    assert "-3.33333…e+399" in text  # (cut, and marked so)


def test_loading_runs_nothing_it_is_given(tmp_path):
    marker = tmp_path / "pwned"
    for bad in (f"__import__('os').system('touch {marker}')", f"open('{marker}', 'w')"):
        with pytest.raises(ParameterError):
            rdpsym.gaussian(bad)
        assert main(["epsilon", "--mechanism", "gaussian", "--set", f"sigma={bad}", "--delta", "1e-5"]) == 2
    assert not marker.exists()


def test_the_ceilings_are_stated_in_the_readme():
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Ceilings", 1)[1].split("\n## ", 1)[0]
    from rdpsym.foundations import arithmetic, reading

    for value in (arithmetic.MAX_LENGTH, reading.MAX_DPS, arithmetic.MAX_RATIONAL_DIGITS, arithmetic.MAX_NODES):
        assert f"{value:,}".replace(",", " ") in section or str(value) in section, value
    assert math.isfinite(float(reading.MAX_DPS))
