"""Accounting: curves, composition, group privacy, ε/δ with certified enclosures, commands."""

from __future__ import annotations

import json
import math

import mpmath
import pytest
import sympy as sp
from flint import arb, fmpq

import rdpsym
from rdpsym.accounting import conversions as conv
from rdpsym.accounting._arb import bits_for, precision
from rdpsym.accounting.orders import DP_ACCOUNTING, MIRONOV, OPACUS, resolve
from rdpsym.cli import main
from rdpsym.errors import ParameterError


def test_composition_adds_and_multiplies_closed_forms():
    c = rdpsym.gaussian(sigma=2).curve() * 3 + rdpsym.gaussian(sigma=1).curve()
    assert sp.simplify(c.closed_form - (3 * rdpsym.alpha / 8 + rdpsym.alpha / 2)) == 0
    assert mpmath.almosteq(c.value(4, dps=30), mpmath.mpf(7) / 2 * 1, 1e-29)


def test_n_fold_gaussian_equals_gaussian_with_sigma_over_sqrt_n():
    # Mironov 2017 Prop 7 / seed 004, on the evaluated curves.
    n = 16
    c1 = rdpsym.gaussian(sigma=2).curve() * n
    c2 = rdpsym.gaussian(sigma=sp.Rational(1, 2)).curve()
    for a in ("1.5", 2, 64):
        assert c1.enclosure(a, 40).overlaps(c2.enclosure(a, 40))


def test_group_privacy_transform_and_its_order_restriction():
    g = rdpsym.laplace(scale=1).curve().group(2)  # groups of 4
    inner = rdpsym.laplace(scale=1).curve()
    with precision(200):
        want = 9 * inner.balls([12])[0]
    assert g.enclosure(3, 40).overlaps(want)
    bad = g.balls(["1.5"])[0]
    assert isinstance(bad, rdpsym.Infinite) and "needs order ≥ 2" in bad.reason
    with pytest.raises(ParameterError, match="positive integer"):
        inner.group(0)


def test_infinite_orders_carry_their_reason_and_are_not_dropped():
    c = rdpsym.gaussian(sigma=1).curve()
    r = rdpsym.epsilon(c, delta=1e-5, orders="mironov", conversion="mironov", dps=20)
    assert len(r.per_order) == len(MIRONOV)
    inf_rows = [o for o in r.per_order if o.order == math.inf]
    assert inf_rows and inf_rows[0].bound == math.inf and "infinite" in inf_rows[0].reason


def test_epsilon_is_rounded_up_and_inside_its_enclosure():
    c = rdpsym.sampled_gaussian(q=sp.Rational(1, 100), sigma=sp.Rational(11, 10)).curve() * 1000
    r = rdpsym.epsilon(c, delta=1e-5, orders=[2, 4, 8, 16, 32], dps=40)
    with precision(bits_for(60)):
        assert r.enclosure.upper() <= arb(mpmath.nstr(r.value, 45))  # value ≥ every point of the ball
        assert float(r.published(4)) >= float(r.enclosure.upper())
    assert r.certified and r.order in (4, 8, 16)


def test_gaussian_epsilon_at_optimal_order_matches_closed_form_mironov():
    # Mironov conversion with r = ρα: the best order over all α is 1 + sqrt(L/ρ),
    # and ε = ρ + 2 sqrt(ρ L) (the zCDP form); the grid answer is above it.
    c = rdpsym.gaussian(sigma=2).curve()
    r = rdpsym.epsilon(c, delta=1e-5, orders="continuous", conversion="mironov", dps=30)
    rho, L = mpmath.mpf(1) / 8, mpmath.log(10**5)
    inf = rho + 2 * mpmath.sqrt(rho * L)
    assert r.value >= inf and r.value - inf <= mpmath.mpf(r.gap.mid().str(5, radius=False)) + mpmath.mpf("1e-25")


def test_delta_and_epsilon_are_consistent():
    c = rdpsym.laplace(scale=1).curve() * 10
    r = rdpsym.epsilon(c, delta=1e-6, orders="dp-accounting", dps=30)
    d = rdpsym.delta(c, epsilon=r.value, orders="dp-accounting", dps=30)
    with mpmath.workdps(40):
        assert d.value <= mpmath.mpf("1e-6")  # the δ at that ε is back at the target


@pytest.mark.parametrize("kwargs, message", [
    (dict(delta=0), "delta must be in the open interval"),
    (dict(delta=1.5), "delta must be in the open interval"),
    (dict(delta=1e-5, orders=[]), "non-empty"),
    (dict(delta=1e-5, orders=[2, 2.0]), "duplicates"),
    (dict(delta=1e-5, orders=[1, 2]), "order must be a number > 1"),
    (dict(delta=1e-5, conversion="rdp"), "conversion must be"),
    (dict(delta=1e-5, dps=2), "dps must be"),
])
def test_bad_accounting_input_is_named(kwargs, message):
    with pytest.raises(ParameterError, match=message):
        rdpsym.epsilon(rdpsym.gaussian(sigma=1).curve(), **kwargs)


@pytest.mark.parametrize("call, message", [
    (lambda: rdpsym.sampled_gaussian(q=1.5, sigma=1), "q must be in the closed interval"),
    (lambda: rdpsym.sampled_gaussian(q=0.1, sigma=0), "sigma must be positive"),
    (lambda: rdpsym.gaussian(sigma=1).curve() * 0, "steps must be a positive integer"),
    (lambda: rdpsym.gaussian(sigma=1).curve() * 2.5, "steps must be a positive integer"),
    (lambda: rdpsym.delta(rdpsym.gaussian(sigma=1).curve(), epsilon=-1), "epsilon must be a number >= 0"),
])
def test_bad_mechanism_input_is_named(call, message):
    with pytest.raises(ParameterError, match=message):
        call()


def test_order_grids():
    assert len(DP_ACCOUNTING) == 156 and len(OPACUS) == 151 and MIRONOV[-1] == math.inf
    assert resolve([4, "1.5", 2]) == (fmpq(3, 2), 2, 4)
    dp = pytest.importorskip("dp_accounting")
    peer = dp.rdp.rdp_privacy_accountant.RdpAccountant()._orders
    assert [float(a) for a in DP_ACCOUNTING] == [float(a) for a in peer]


def test_pure_dp_curve_is_randomized_response_and_below_lemma1():
    e = sp.Rational(1, 2)
    bs = rdpsym.pure_dp(e).curve()
    lemma1 = rdpsym.pure_dp(e, bound="mironov-lemma1").curve()
    rr = rdpsym.randomized_response(sp.exp(e) / (1 + sp.exp(e))).curve()
    for a in (2, 10, "1.01"):
        assert bs.enclosure(a, 30).overlaps(rr.enclosure(a, 30))
        assert bs.value(a, 30) <= lemma1.value(a, 30)


def test_zcdp_and_exponential_mechanism_curves():
    z = rdpsym.zcdp(rho=sp.Rational(1, 10), xi=sp.Rational(1, 100)).curve()
    ex = rdpsym.exponential_mechanism(1).curve()
    with mpmath.workdps(40):
        assert mpmath.almosteq(z.value(5, 30), mpmath.mpf("0.51"), 1e-28)
        assert mpmath.almosteq(ex.value(2, 30), mpmath.mpf(1) / 4, 1e-28)  # ε²α/8 is the smaller bound here


def test_dp_sgd_epsilon_agrees_with_dp_accounting_where_it_is_accurate():
    dp = pytest.importorskip("dp_accounting")
    q, sigma, steps = 256 / 60000, 1.1, 60 * 60000 // 256
    acc = dp.rdp.RdpAccountant(orders=[float(a) for a in range(2, 65)])
    acc.compose(dp.SelfComposedDpEvent(dp.PoissonSampledDpEvent(q, dp.GaussianDpEvent(sigma)), steps))
    peer_eps, peer_order = acc.get_epsilon_and_optimal_order(1e-5)
    # The same float inputs, exactly.
    from fractions import Fraction
    c = rdpsym.sampled_gaussian(q=sp.Rational(Fraction(q)), sigma=sp.Rational(Fraction(sigma))).curve() * steps
    r = rdpsym.epsilon(c, delta=1e-5, orders=list(range(2, 65)), dps=50)
    assert float(r.order) == peer_order
    assert abs(float(r.value) - peer_eps) <= 1e-9 * peer_eps


def test_epsilon_and_delta_commands(capsys):
    assert main(["epsilon", "--mechanism", "gaussian", "--set", "sigma=2", "--steps", "4", "--delta", "1e-5",
                 "--orders", "mironov", "--conversion", "mironov", "--certified"]) == 0
    out = capsys.readouterr().out
    assert "ε = 5.3025850929940456840179914546843642076011014886288" in out  # 50 digits, last rounded up
    assert "certified enclosure" in out
    assert main(["delta", "--mechanism", "pure-dp", "--set", "epsilon=0.1", "--steps", "100", "--epsilon", "2",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["order"] and float(data["delta"]) < 1


def test_command_errors_are_named(capsys):
    assert main(["epsilon", "--mechanism", "gaussian", "--set", "sigma=0", "--delta", "1e-5"]) == 2
    assert "sigma must be positive" in capsys.readouterr().err
    assert main(["epsilon", "--mechanism", "gaussian", "--set", "scale=1", "--delta", "1e-5"]) == 2
    assert "one of sigma, sensitivity" in capsys.readouterr().err


def test_reference_export(tmp_path):
    assert main(["reference", "--out", str(tmp_path), "--quick", "--dps", "25"]) == 0
    data = json.loads((tmp_path / "rdpsym_reference.json").read_text())
    rows = data["rows"]
    assert any(r["value"] == "inf" and r["note"] for r in rows)  # Gaussian at α = ∞: kept, with its reason
    for r in rows:
        if r["value"] != "inf":
            assert mpmath.mpf(r["lower"]) <= mpmath.mpf(r["value"]) <= mpmath.mpf(r["upper"])
    assert (tmp_path / "rdpsym_reference.csv").read_text().startswith("mechanism,parameters,order")


def test_audit_small_grid_runs_and_classifies():
    pytest.importorskip("dp_accounting")
    from rdpsym.accounting.audit import audit_dp_accounting, classify

    report = audit_dp_accounting("small", dps=30)
    assert report.checked == 112
    causes = report.by_cause()
    # Recorded peer defects (dp-accounting 0.6): fractional orders with q ≥ 0.1 come back inf
    # (its series "failed to converge"), and large σ loses all digits at fractional orders.
    assert "infinite where the value is finite" in causes
    assert all(f.order != int(f.order) for f in causes["infinite where the value is finite"])
    with precision(100):
        assert classify(float("nan"), arb(1))[0] == "NaN"
        assert classify(-1e-3, arb(1))[0] == "negative RDP"
        assert classify(1.0, arb(1))[0] is None


@pytest.mark.parametrize("steps", [1, 3, 7, 30, 99])
def test_reported_value_is_never_below_the_enclosure(steps):
    # Regression: the rounded-up decimal was turned into an mpf rounded to nearest (and to 53 bits).
    r = rdpsym.epsilon(rdpsym.gaussian(sigma=2).curve() * steps, delta=1e-5, dps=20)
    with precision(400):
        assert arb(mpmath.nstr(r.value, 40)) >= r.enclosure.upper()


def test_a_negative_converted_epsilon_is_reported_as_zero_with_a_note():
    r = rdpsym.epsilon(rdpsym.gaussian(sigma=50).curve(), delta=0.1, dps=10)
    assert r.value == 0 and r.published() == "0" and "(0, δ)-DP" in r.notes[0]


def test_a_user_pair_curve_takes_both_directions():
    half, tenth = sp.Rational(1, 2), sp.Rational(1, 10)
    m = rdpsym.Mechanism("mine", {}, (rdpsym.Discrete({0: 1 - tenth, 1: tenth}), rdpsym.Discrete({0: half, 1: half})))
    c = m.curve()
    reverse = rdpsym.renyi_divergence_mp(*m.pair[::-1], 4, dps=30)
    assert mpmath.almosteq(c.value(4, 25), reverse, 1e-20)  # Q‖P is the larger direction here
    assert not c.certified  # the closed forms were checked, not proved against a reference


def test_group_closed_form_states_its_order_restriction():
    f = rdpsym.gaussian(sigma=2).curve().group(1).closed_form
    assert f.subs(rdpsym.alpha, 3) == sp.Rational(9, 4) and f.subs(rdpsym.alpha, sp.Rational(3, 2)) == sp.oo
