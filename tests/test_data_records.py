"""Records as data: mechanisms, guarantees, densities, curves and results compare by value, pickle
(also into another process) and print the digits they were computed to; the registry of built-ins."""

from __future__ import annotations

import ast
import concurrent.futures
import importlib
import math
import multiprocessing
import pickle
import re
from pathlib import Path

import mpmath
import pytest
import sympy as sp
from flint import arb, ctx, fmpq

import rdpsym
from rdpsym.accounting.components import ClosedForm, Component, Custom, SampledGaussian
from rdpsym.accounting.curve import GroupPrivacy, curve
from rdpsym.foundations.balls import precision
from rdpsym.foundations.numbers import Digits, Enclosure
from rdpsym.laws.mechanisms import REGISTRY

R = sp.Rational
#: gaussian(σ=2) × 4 at δ = 1e-5, Mironov's orders and conversion: the value the CLI test pins
#: (tests/test_accounting.py::test_epsilon_and_delta_commands), to 50 digits, rounded up.
EPS_50 = "5.3025850929940456840179914546843642076011014886288"
#: gaussian(σ=2) × 4 + laplace(1) at α = 2 (the RdpCurve docstring).
COMPOSED_AT_2 = "1.61912362999859288339978853654"


def roundtrip(obj):
    return pickle.loads(pickle.dumps(obj))


def state(v):
    """A ball's exact midpoint and radius (or the Infinite itself): what must survive a pickle."""
    if isinstance(v, rdpsym.Infinite):
        return v
    return v.mid().man_exp(), v.rad().man_exp()


def same_balls(a, b, orders, bits=300):
    with precision(bits):
        return [state(v) for v in a.balls(orders)] == [state(v) for v in b.balls(orders)]


def gaussian_eighth(orders):  # a module-level function: a Custom component that pickles
    return [arb(a) / 8 if a != math.inf else rdpsym.Infinite("α/8 is ∞ at ∞") for a in orders]


def composed():
    return rdpsym.gaussian(sigma=2).curve() * 4 + rdpsym.laplace(scale=1).curve()


# ---------------------------------------------------------------- the registry
def test_one_registry_declares_every_builtin_in_the_command_line_order():
    assert list(REGISTRY) == ["gaussian", "laplace", "randomized-response", "sampled-gaussian", "pure-dp", "zcdp",
                              "exponential", "discrete-gaussian", "discrete-laplace", "k-randomized-response",
                              "non-private"]
    assert [n for n, d in REGISTRY.items() if d.derive] == ["gaussian", "laplace", "randomized-response"]
    lap = REGISTRY["laplace"]
    assert lap.names == ("scale", "sensitivity") and lap.defaults == {"sensitivity": 1}
    assert lap.symbols == {"scale": sp.Symbol("lambda", positive=True), "sensitivity": sp.Symbol("Delta", positive=True)}
    assert lap.parameter("lambda").name == "scale" and lap.parameter("Delta").name == "sensitivity"
    assert lap.parameter("sigma") is None
    assert REGISTRY["gaussian"].symbols["sigma"] == sp.Symbol("sigma", positive=True)
    assert REGISTRY["zcdp"].defaults == {"xi": 0} and REGISTRY["sampled-gaussian"].defaults == {}
    for name, declared in REGISTRY.items():
        required = {p.name: 2 if p.symbol.is_integer else R(1, 2) for p in declared.parameters if p.required}
        made = declared.factory(**required)
        assert made.name == name
        assert isinstance(made, rdpsym.Mechanism) == (name in ("gaussian", "laplace", "randomized-response",
                                                               "sampled-gaussian", "discrete-gaussian",
                                                               "discrete-laplace", "k-randomized-response"))


def test_the_cli_reads_the_registry():
    modules = [importlib.import_module(f"rdpsym.cli.{m}") for m in ("accounting", "derive", "params", "plot")]
    for module in modules:
        text = Path(module.__file__).read_text(encoding="utf-8")
        assert "FACTORIES" not in text and "PARAMETERS" not in text and "MECHANISMS" not in text
    derive, params = modules[1], modules[2]
    assert derive.DERIVED == ["gaussian", "laplace", "randomized-response"]
    laplace = REGISTRY["laplace"]
    assert params.build(laplace, params.read_assignments(["scale=1/2"], laplace)) == rdpsym.laplace(scale=R(1, 2))
    assert params.build(laplace, params.read_assignments(["lambda=1/2"], laplace)) == rdpsym.laplace(scale=R(1, 2))


def test_laws_mechanisms_imports_only_lower_layers():
    tree = ast.parse(Path(rdpsym.laws.mechanisms.__file__).read_text(encoding="utf-8"))
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    ours = {m for m in imported if m.startswith("rdpsym")}
    assert ours and all(m.split(".")[1] in ("foundations", "engine", "laws") for m in ours), ours


def test_mechanism_methods_go_through_the_operations():
    from rdpsym.foundations import operations

    # The first call imports the layer that provides each operation (import rdpsym is lazy), in any test order.
    assert rdpsym.rdp_curve(rdpsym.gaussian(sigma=2)) == rdpsym.gaussian(sigma=2).curve()
    assert rdpsym.gaussian(sigma=2).rdp().status == "proved"
    assert operations.rdp._function.__module__ == "rdpsym.derive.divergence"
    assert operations.curve._function is rdpsym.rdp_curve
    assert rdpsym.rdp_curve(rdpsym.zcdp(rho=1)).closed_form == rdpsym.alpha
    with pytest.raises(rdpsym.ParameterError, match="a Mechanism or a Guarantee"):
        rdpsym.rdp_curve(42)


# ---------------------------------------------------------------- equality
def test_records_compare_and_hash_by_value():
    assert rdpsym.gaussian(sigma=2) == rdpsym.gaussian(sigma=2) != rdpsym.gaussian(sigma=3)
    assert hash(rdpsym.laplace(scale=1)) == hash(rdpsym.laplace(scale=1))
    assert rdpsym.sampled_gaussian(q=R(1, 100), sigma=1) == rdpsym.sampled_gaussian(q=0.01, sigma=1)
    assert rdpsym.pure_dp(1) == rdpsym.pure_dp(1) != rdpsym.pure_dp(1, bound="mironov-lemma1")
    assert len({rdpsym.zcdp(rho=1), rdpsym.zcdp(rho=1), rdpsym.zcdp(rho=2)}) == 2
    x = sp.Symbol("x", real=True)
    assert rdpsym.Continuous(sp.exp(-x), x, sp.Interval(0, sp.oo)) == \
        rdpsym.Continuous(sp.exp(-x), x, sp.Interval(0, sp.oo))
    assert rdpsym.Continuous(sp.exp(-x), x, sp.Interval(0, sp.oo)) != \
        rdpsym.Continuous(2 * sp.exp(-2 * x), x, sp.Interval(0, sp.oo))
    assert rdpsym.Discrete({0: R(1, 4), 1: R(3, 4)}) == rdpsym.Discrete({1: R(3, 4), 0: R(1, 4)})
    assert hash(rdpsym.Discrete({0: R(1, 4), 1: R(3, 4)})) == hash(rdpsym.Discrete({1: R(3, 4), 0: R(1, 4)}))
    assert rdpsym.Discrete({0: R(1, 4), 1: R(3, 4)}) != rdpsym.Discrete({0: R(3, 4), 1: R(1, 4)})
    assert composed() == composed() and hash(composed()) == hash(composed())
    assert composed() != rdpsym.gaussian(sigma=2).curve() * 4
    assert composed().group(1) == composed().group(1) != composed().group(2)


def test_results_compare_by_value():
    c = rdpsym.gaussian(sigma=2).curve() * 4
    a = rdpsym.epsilon(c, delta=1e-5, orders="mironov", conversion="mironov", dps=30)
    b = rdpsym.epsilon(c, delta=1e-5, orders="mironov", conversion="mironov", dps=30)
    assert a == b and hash(a) == hash(b)
    assert a != rdpsym.epsilon(c, delta=1e-6, orders="mironov", conversion="mironov", dps=30)


# ---------------------------------------------------------------- sum(curves)
def test_sum_of_curves_composes():
    g, lap = rdpsym.gaussian(sigma=2).curve(), rdpsym.laplace(scale=1).curve()
    total = sum([g, g, g, g, lap])
    assert total == g + g + g + g + lap
    assert mpmath.nstr(total.value(2, dps=30), 30) == COMPOSED_AT_2
    assert sum([g]) is g
    with pytest.raises(TypeError):
        1 + g  # only 0 (sum's start) is a curve's neutral element


# ---------------------------------------------------------------- pickling
CURVES = {
    "gaussian": lambda: rdpsym.gaussian(sigma=2).curve(),
    "composed": composed,
    "k-fold": lambda: rdpsym.laplace(scale=R(1, 2)).curve() * 100,
    "group": lambda: composed().group(1),
    "group-composed": lambda: composed().group(1) * 3 + rdpsym.gaussian(sigma=1).curve(),
    "sampled-gaussian": lambda: rdpsym.sampled_gaussian(q=R(1, 100), sigma=R(11, 10)).curve() * 1000,
    "pure-dp": lambda: rdpsym.pure_dp(1).curve(),
    "zcdp": lambda: rdpsym.zcdp(rho=R(1, 10), xi=R(1, 100)).curve(),
    "exponential": lambda: rdpsym.exponential_mechanism(1).curve(),
    "custom": lambda: curve(Component("alpha/8", gaussian_eighth)),
}


@pytest.mark.parametrize("name", CURVES)
def test_curves_pickle_to_the_same_curve_and_the_same_balls(name):
    c = CURVES[name]()
    back = roundtrip(c)
    assert back == c and hash(back) == hash(c) and back.label == c.label and back.min_order == c.min_order
    assert back.certified == c.certified and back.convex == c.convex
    assert same_balls(back, c, [fmpq(3, 2), 2, fmpq(11, 2), 64, math.inf])


COMPONENTS = {
    "closed-form": lambda: ClosedForm("sinh", sp.log(sp.cosh(rdpsym.alpha)), sp.oo, "a test", True),
    "closed-form-limit": lambda: ClosedForm("1/α", 1 + 1 / rdpsym.alpha),
    "sampled-gaussian": lambda: SampledGaussian("sg", R(1, 100), R(11, 10)),
    "group": lambda: GroupPrivacy(composed(), 2),
    "custom": lambda: Component("alpha/8", gaussian_eighth, rdpsym.alpha / 8),
}


@pytest.mark.parametrize("name", COMPONENTS)
def test_every_component_kind_is_a_record_that_pickles(name):
    k = COMPONENTS[name]()
    assert isinstance(k, Component)
    back = roundtrip(k)
    assert back == k and hash(back) == hash(k) and type(back) is type(k)
    assert back.closed_form == k.closed_form and back.name == k.name and back.certified == k.certified
    assert same_balls(curve(back), curve(k), [fmpq(11, 10), 4, 1000, math.inf])


def test_component_called_with_a_function_is_custom():
    k = Component("alpha/8", gaussian_eighth)
    assert type(k) is Custom and k.function is gaussian_eighth and k.convex is False


def test_group_component_keeps_its_order_restriction_and_reason():
    g = roundtrip(rdpsym.laplace(scale=1).curve().group(1))
    assert g.min_order == 2 and g.balls(["1.5"])[0].reason == "group privacy (Prop 2) needs order ≥ 2, got 3/2"
    assert isinstance(g.closed_form, sp.Piecewise) and not g.convex


@pytest.mark.parametrize("make", [
    lambda: rdpsym.gaussian(sigma=2, sensitivity=R(1, 2)),
    lambda: rdpsym.laplace(scale=sp.Symbol("b", positive=True)),
    lambda: rdpsym.randomized_response(R(3, 4)),
    lambda: rdpsym.sampled_gaussian(q=R(1, 100), sigma=R(11, 10)),
    lambda: rdpsym.pure_dp(1),
    lambda: rdpsym.pure_dp(R(1, 2), bound="mironov-lemma1"),
    lambda: rdpsym.zcdp(rho=1, xi=R(1, 10)),
    lambda: rdpsym.exponential_mechanism(2),
], ids=["gaussian", "laplace-symbolic", "randomized-response", "sampled-gaussian", "pure-dp", "lemma1", "zcdp",
        "exponential"])
def test_mechanisms_and_guarantees_pickle(make):
    m = make()
    back = roundtrip(m)
    assert back == m and hash(back) == hash(m) and type(back) is type(m)
    if isinstance(m, rdpsym.Mechanism):
        assert back.neighbouring and back.source and back.pair == m.pair


def test_densities_and_infinite_pickle():
    x, k = sp.Symbol("x", real=True), sp.Symbol("k", integer=True)
    lam = sp.Symbol("lambda", positive=True)
    for d in (rdpsym.Continuous(lam * sp.exp(-lam * x), x, support=sp.Interval(0, sp.oo)),
              rdpsym.Discrete(R(1, 2) ** (k + 1), k, support=sp.Range(0, sp.oo)),
              rdpsym.Discrete({0: R(1, 3), 1: R(2, 3)})):
        back = roundtrip(d)
        assert back == d and hash(back) == hash(d) and back.expr == d.expr and back.support == d.support
    inf = rdpsym.Infinite("D_∞ of the Gaussian is ∞")
    assert roundtrip(inf) == inf


def test_a_derived_mechanism_still_derives_after_a_pickle():
    d = roundtrip(rdpsym.laplace(scale=1)).rdp(2)
    assert d.status == "proved" and sp.simplify(d.result - rdpsym.laplace(scale=1).rdp(2).result) == 0


RESULTS = {
    "epsilon": lambda: rdpsym.epsilon(rdpsym.gaussian(sigma=2).curve() * 4, delta=1e-5, orders="mironov",
                                      conversion="mironov", dps=50),
    "epsilon-default-grid": lambda: rdpsym.epsilon(rdpsym.laplace(scale=1).curve(), delta=1e-10, dps=20),
    "delta": lambda: rdpsym.delta(rdpsym.laplace(scale=1).curve() * 10, epsilon=5, dps=30),
    "continuous": lambda: rdpsym.epsilon(rdpsym.gaussian(sigma=2).curve(), delta=1e-5, orders="continuous",
                                         conversion="mironov", dps=20),
    "infinite": lambda: rdpsym.epsilon(rdpsym.gaussian(sigma=1).curve(), delta=R(1, 10), orders=["inf"], dps=20),
}


@pytest.mark.parametrize("name", RESULTS)
def test_accounting_results_pickle_exactly(name):
    r = RESULTS[name]()
    back = roundtrip(r)
    assert back == r and hash(back) == hash(r)
    assert str(back.value) == str(r.value) and back.published() == r.published() and back.as_dict() == r.as_dict()
    if r.enclosure != math.inf:
        assert state(back.enclosure) == state(r.enclosure) and back.enclosure.dps == r.dps
    for a, b in zip(back.per_order, r.per_order, strict=True):
        for u, v in ((a.rdp, b.rdp), (a.bound, b.bound)):
            assert state(u) == state(v) if isinstance(v, arb) else u == v


def test_the_infinite_result_says_so():
    r = RESULTS["infinite"]()
    assert r.enclosure == math.inf and r.value == mpmath.inf and r.published() == "inf"


# ---------------------------------------------------------------- another process
def _in_worker(c, mech, order):
    """Run in a fresh (spawned) interpreter: evaluate what was pickled to it."""
    value = c.value(order, dps=30)
    with precision(300):
        balls = [state(v) for v in c.balls([order, math.inf])]
    r = rdpsym.epsilon(mech.curve() * 4, delta=1e-5, orders="mironov", conversion="mironov", dps=50)
    return mpmath.nstr(value, 30), balls, r


def test_a_curve_evaluates_the_same_in_another_process():
    c = composed()
    with precision(300):
        balls = [state(v) for v in c.balls([2, math.inf])]
    spawn = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(max_workers=1, mp_context=spawn) as pool:
        value, worker_balls, r = pool.submit(_in_worker, c, rdpsym.gaussian(sigma=2), 2).result(timeout=600)
    assert value == COMPOSED_AT_2 and worker_balls == balls
    assert str(r.epsilon) == EPS_50 and r.order == 6 and r.published(6) == "5.30259" and r.certified
    assert r == RESULTS["epsilon"]()


# ---------------------------------------------------------------- printing at the digits asked for
def test_epsilon_prints_the_digits_it_was_asked_for():
    r = RESULTS["epsilon"]()
    assert mpmath.mp.dps == 15  # mpmath's global precision is not what prints
    assert isinstance(r.epsilon, Digits) and r.value is r.epsilon
    assert str(r.epsilon) == EPS_50 and repr(r.epsilon) == f"mpf('{EPS_50}')"
    assert len(re.sub(r"\D", "", str(r.epsilon))) == 50
    assert mpmath.nstr(r.value, 50) == EPS_50  # what the command line prints, as before
    doubled = r.epsilon * 2  # mpmath arithmetic on it works, and gives a plain mpf
    assert type(doubled) is mpmath.mpf and mpmath.almosteq(doubled, 2 * mpmath.mpf(EPS_50), 1e-14)
    assert r.delta == fmpq(1, 10**5)
    d = RESULTS["delta"]()
    assert isinstance(d.delta, Digits) and len(re.sub(r"\D", "", str(d.delta)).lstrip("0")) == 30


def test_sympy_reads_every_digit_of_a_result():
    """SymPy read an mpf at mpmath's global 53 bits: sp.N(result, 40) printed 17 right digits of 40 (a probe)."""
    r = RESULTS["epsilon"]()
    assert mpmath.mp.dps == 15
    assert str(sp.N(r.epsilon, 50)) == EPS_50 and str(sp.Float(r.epsilon, 50)) == EPS_50
    assert abs(sp.sympify(r.epsilon) - sp.Float(EPS_50, 50)) < sp.Float("1e-48")


def test_the_enclosure_prints_its_true_radius():
    r = RESULTS["epsilon"]()
    e = r.enclosure
    assert isinstance(e, Enclosure) and e.dps == 50
    text = str(e)
    assert repr(e) == text
    mid, rad = re.fullmatch(r"\[(\S+) \+/- (\S+)\]", text).groups()
    assert mid.startswith(EPS_50[:-1])  # EPS_50's last digit is rounded up
    assert len(re.sub(r"\D", "", mid)) >= 50
    with precision(400):
        true = e.rad().mid()
        assert true < 1e-55  # the ball is far narrower than 50 digits
        assert true <= arb(rad) <= true * arb("1.01")  # printed: the true radius, rounded up
        assert arb(text).contains(e)  # and the printed interval contains the ball
    saved = ctx.dps, mpmath.mp.dps
    try:  # neither global precision changes what prints
        ctx.dps, mpmath.mp.dps = 10, 10
        assert str(e) == text and str(r.epsilon) == EPS_50
    finally:
        ctx.dps, mpmath.mp.dps = saved


def test_published_is_unchanged():
    r = RESULTS["epsilon"]()
    assert r.published(6) == "5.30259" and r.published(3) == "5.31"


# ---------------------------------------------------------------- derivations and claims: the one record


@pytest.mark.parametrize("order", [rdpsym.alpha, 1, sp.oo, 2], ids=["alpha", "kl", "inf", "two"])
def test_derivations_pickle_and_compare(order):
    d = rdpsym.laplace(scale=sp.Symbol("lambda", positive=True)).rdp(order)
    back = pickle.loads(pickle.dumps(d))
    assert back == d and hash(back.steps) == hash(d.steps)
    assert str(back) == str(d) and back.latex() == d.latex()
    assert back != rdpsym.laplace(scale=2).rdp(order)


def test_a_derivation_holds_sympy_objects_and_rules_never_text():
    from rdpsym.foundations.record import Evidence, Rule, Step

    d = rdpsym.gaussian(sigma=2).rdp(rdpsym.alpha)
    for step in d.steps:
        assert isinstance(step, Step) and isinstance(step.rule, Rule)
        assert isinstance(step.lhs, sp.Basic) and isinstance(step.rhs, sp.Basic), step
    assert all(isinstance(e, Evidence) for e in d.evidence)


def test_claim_results_pickle_and_compare():
    from rdpsym.claims import AtMost, Claim, Domain, Verdict
    from rdpsym.claims.runner import check

    a = sp.Symbol("alpha")
    claims = [Claim("right", "α ≤ α²", "example", r"\alpha \le \alpha^2", (AtMost(a, a**2, "α ≥ 1"),),
                    Verdict.PROVED, Domain({a: sp.Interval(1, sp.oo)})),
              Claim("wrong", "α ≤ 1", "example", r"\alpha \le 1", (AtMost(a, 1, "no"),), Verdict.REFUTED,
                    Domain({a: sp.Interval(1, sp.oo)}))]
    report = check(claims)
    back = pickle.loads(pickle.dumps(report))
    assert [r.verdict for r in back.results] == [Verdict.PROVED, Verdict.REFUTED]
    assert [r.steps for r in back.results] == [r.steps for r in report.results]
    assert back.results[1].steps[0].counterexample == report.results[1].steps[0].counterexample


def test_jupyter_shows_derivations_claims_and_results_as_math():
    from rdpsym.claims import AtMost, Claim, Domain, Verdict

    d = rdpsym.gaussian(sigma=2).rdp()
    shown = d._repr_latex_()
    assert shown.startswith(r"\begin{align*}") and shown.endswith(r"&\text{status: proved} && \text{under } \alpha \neq 1" "\n" r"\end{align*}")
    assert d.latex().startswith("% status: proved; hypotheses: \\alpha \\neq 1\n\\begin{align*}")
    a = sp.Symbol("alpha")
    r = Claim("c", "α ≤ α²", "example", r"\alpha \le \alpha^2", (AtMost(a, a**2, "α ≥ 1"),), Verdict.PROVED,
              Domain({a: sp.Interval(1, sp.oo)})).check()
    assert r._repr_markdown_().startswith("**α ≤ α²** — *proved*") and r"$$ \alpha \le \alpha^2 $$" in r._repr_markdown_()
    e = rdpsym.epsilon(rdpsym.gaussian(sigma=2).curve() * 4, delta=1e-5, conversion="bbghs", dps=30)
    assert e._repr_latex_() == (r"$\displaystyle \varepsilon \le 4.72850706722 \quad \text{at } \delta = 10^{-5}"
                                r" \quad (\alpha = \tfrac{27}{5})$")


def test_public_modules_import_by_their_public_names():
    import sys

    from rdpsym.balls import to_arb
    from rdpsym.conversions import best_epsilon
    from rdpsym.record import Status

    assert best_epsilon is rdpsym.conversions.best_epsilon and to_arb is rdpsym.balls.to_arb
    assert Status is rdpsym.Status
    assert importlib.import_module("rdpsym.documents") is sys.modules["rdpsym.render.documents"]
    plots = importlib.import_module("rdpsym.plots")
    assert plots.budget_curves is sys.modules["rdpsym.render.plots"].budget_curves


def test_a_catalogue_claim_result_pickles_without_its_samplers():
    from rdpsym.claims.loading import catalogue_path
    from rdpsym.claims.runner import run

    report = run([catalogue_path() / "mironov2017" / "prop08_nonnegativity.py"])
    back = pickle.loads(pickle.dumps(report))
    assert [r.verdict for r in back.results] == [r.verdict for r in report.results]
    assert [s.evidence for r in back.results for s in r.steps] == [s.evidence for r in report.results for s in r.steps]
    assert str(back) == str(report)
