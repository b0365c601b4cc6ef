"""The atlas (proofs/peers/) judges the peers' formulas as it transcribes them: each transcription is compared
here with the installed peer's own function, at seeded points, so a claim is about the code the peer ships.

dp_accounting, Opacus, autodp and prv_accountant are test dependencies (pyproject's dev extra); TensorFlow
Privacy's v.0.8.0 module is the one Opacus and prv_accountant copied (their fractional series are compared),
and OpenDP is Rust (its maps are read from its source and pinned by its own tests' numbers, below).
"""

from __future__ import annotations

import importlib
import math
import random

import numpy as np
import pytest
import sympy as sp
from flint import fmpq

from rdpsym import alpha

atlas = importlib.import_module("rdpsym.catalogue.peers._atlas")
dpa = importlib.import_module("rdpsym.catalogue.peers.dp_accounting")
opacus_file = importlib.import_module("rdpsym.catalogue.peers.opacus")
autodp_file = importlib.import_module("rdpsym.catalogue.peers.autodp")
prv_file = importlib.import_module("rdpsym.catalogue.peers.prv_accountant")
opendp_file = importlib.import_module("rdpsym.catalogue.peers.opendp")

RNG = random.Random(20261128)
ORDERS = [1.1, 1.5, 2.0, 3.7, 10.0, 64.5]


def _value(expr, values: dict) -> float:
    return float(sp.N(expr.subs(values), 30))


def test_dp_accounting_transcriptions_match_the_installed_functions():
    rdp = pytest.importorskip("dp_accounting.rdp.rdp_privacy_accountant")
    for _ in range(20):
        s, e, a = RNG.uniform(0.3, 5), RNG.uniform(0.01, 5), RNG.choice(ORDERS)
        gaussian = rdp._compute_rdp_poisson_subsampled_gaussian(1.0, s, [a])[0]
        assert math.isclose(gaussian, _value(dpa.PEER_FORMULAS["_compute_rdp_poisson_subsampled_gaussian(q=1)"],
                                             {alpha: a, atlas.sigma: s}), rel_tol=1e-12)
        assert math.isclose(rdp._laplace_rdp(e, a), _value(dpa.LAPLACE, {alpha: a, atlas.eps: e}), rel_tol=1e-9)
        assert math.isclose(rdp._compute_rdp_sample_wor_gaussian(1.0, s, [a])[0], gaussian, rel_tol=1e-12)
        near_one = RNG.uniform(1.0001, 1.0999)
        assert math.isclose(rdp._laplace_rdp(e, near_one), float(dpa.laplace_taylor(sp.Float(e, 30), sp.Float(near_one, 30))),
                            rel_tol=1e-9)
        assert math.isclose(rdp._laplace_rdp(e, 1), _value(dpa.LAPLACE_KL, {atlas.eps: e}), rel_tol=1e-12)
        pp, kk = RNG.uniform(0.05, 0.95), RNG.randint(2, 20)
        values = {dpa.p: pp, dpa.k: kk, alpha: a}
        special = max(_value(f, values) for f in dpa.RR_SPECIAL)
        assert math.isclose(rdp._randomized_response_rdp_replace_special(pp, kk, a), special, rel_tol=1e-9)
        assert math.isclose(rdp._randomized_response_rdp_replace_one(pp, kk, a), _value(dpa.RR_ONE[0], values),
                            rel_tol=1e-9)
        assert math.isclose(rdp._randomized_response_rdp_replace_one(pp, kk, math.inf),
                            _value(dpa.RR_ONE_INF[0], values), rel_tol=1e-12)


def test_the_without_replacement_bound_is_dp_accountings_own():
    """The atlas's WOR claims judge dp_accounting's bound through rdpsym's evaluation of the same theorem
    (Wang–Balle–Kasiviswanathan 2019): the two agree at integer, fractional and large orders."""
    rdp = pytest.importorskip("dp_accounting.rdp.rdp_privacy_accountant")
    import rdpsym

    for qq, s, a in [(fmpq(1, 2), 1, 8), (fmpq(1, 10), 1, 2), (fmpq(3, 10), fmpq(3, 2), fmpq(7, 2)),
                     (fmpq(1, 100), 2, 10), (fmpq(1, 64), fmpq(4, 5), fmpq(301, 10))]:
        mine = rdpsym.sampled_without_replacement(rdpsym.gaussian(sigma=s), q=qq).curve()
        order = sp.Rational(int(fmpq(a).p), int(fmpq(a).q))
        peer = rdp._compute_rdp_sample_wor_gaussian_scalar(float(qq.p) / float(qq.q), float(fmpq(s).p) / float(fmpq(s).q),
                                                           float(order))
        assert math.isclose(float(mine.value(order, 20)), peer, rel_tol=1e-9)


@pytest.mark.parametrize("case", [(fmpq(1, 100), fmpq(5, 2), fmpq(3, 2)), (fmpq(1, 10), fmpq(1), fmpq(5, 2)),
                                  (fmpq(1, 1000), fmpq(4), fmpq(101, 10)), (fmpq(3, 10), fmpq(3, 2), fmpq(21, 20))])
def test_the_fractional_series_are_the_peers_own(case):
    rdp = pytest.importorskip("dp_accounting.rdp.rdp_privacy_accountant")
    opacus_rdp = pytest.importorskip("opacus.accountants.analysis.rdp")
    prv = pytest.importorskip("prv_accountant.privacy_random_variables.poisson_subsampled_gaussian_mechanism")
    q, s, a = (float(x.p) / float(x.q) for x in case)
    mine = float(atlas.log_a_frac(*case, "dp_accounting"))
    assert math.isclose(rdp._compute_log_a_frac(q, s, a), mine, rel_tol=1e-9)
    signed = float(atlas.log_a_frac(*case, "tf_privacy"))
    assert math.isclose(opacus_rdp._compute_log_a_for_frac_alpha(q, s, a), signed, rel_tol=1e-9)
    assert math.isclose(prv._compute_log_a_frac(q, s, a), signed, rel_tol=1e-9)
    assert math.isclose(float(sp.N(atlas.binomial_sum(3).subs({atlas.q: q, atlas.sigma: s}))),
                        math.exp(rdp._compute_log_a_int(q, s, 3)), rel_tol=1e-12)


def test_autodp_transcriptions_match_the_installed_functions():
    bank = pytest.importorskip("autodp.rdp_bank")
    for _ in range(20):
        s, b, e, a = RNG.uniform(0.3, 5), RNG.uniform(0.2, 5), RNG.uniform(0.05, 5), RNG.choice(ORDERS)
        below = RNG.uniform(0.05, 0.95)
        assert math.isclose(bank.RDP_gaussian({"sigma": s}, below), _value(autodp_file.ZCDP, {alpha: below,
                                                                                          atlas.sigma: s}))
        for order in (a, below):
            assert math.isclose(bank.RDP_laplace({"b": b}, order),
                                _value(autodp_file.LAPLACE, {alpha: order, autodp_file.b: b}), rel_tol=1e-9)
        assert math.isclose(bank.RDP_laplace({"b": b}, 0.5), _value(autodp_file.LAPLACE_HALF, {autodp_file.b: b}))
        assert math.isclose(bank.RDP_pureDP({"eps": e}, a), _value(autodp_file.PURE_DP, {alpha: a, atlas.eps: e}),
                            rel_tol=1e-9)
        assert math.isclose(bank.RDP_pureDP({"eps": e}, 1), _value(autodp_file.PURE_DP_KL, {atlas.eps: e}),
                            rel_tol=1e-9)
        assert bank.RDP_pureDP({"eps": e}, math.inf) == e
        zoo = pytest.importorskip("autodp.mechanism_zoo")
        assert math.isclose(zoo.ExponentialMechanism(e).RenyiDP(a),
                            _value(autodp_file.EXPONENTIAL, {alpha: a, atlas.eps: e}), rel_tol=1e-9)
        assert math.isclose(bank.RDP_pureDP({"eps": e}, below),
                            _value(autodp_file.PURE_DP_BELOW_ONE, {alpha: below, atlas.eps: e}), rel_tol=1e-9)
        pp = RNG.uniform(0.51, 0.99)
        for order, form in ((a, autodp_file.RR), (1, autodp_file.RR_KL), (math.inf, autodp_file.RR_INF)):
            assert math.isclose(bank.RDP_randresponse({"p": pp}, order),
                                _value(form, {alpha: order, atlas.p: pp}), rel_tol=1e-9)
        p1, q1 = RNG.uniform(0.01, 0.99), RNG.uniform(0.01, 0.99)
        assert math.isclose(bank.RDP_noisy_screen({"logp": math.log(p1), "logq": math.log(q1)}, math.inf),
                            _value(autodp_file.NOISY_SCREEN_INF, {atlas.p: p1, autodp_file.qb: q1}), rel_tol=1e-12)
        t, d = RNG.uniform(-3, 3), RNG.uniform(0.1, 3)
        peer = bank.pRDP_expfamily({"eta1": t, "eta2": t + d, "A": lambda eta: eta**2 / 2, "mu": t}, 1)
        assert math.isclose(peer, _value(autodp_file.EXPFAMILY_KL, {autodp_file.t: t, autodp_file.d: d}),
                            rel_tol=1e-9, abs_tol=1e-12)
        c, k = RNG.randint(1, 5), RNG.randint(10, 1000)
        assert math.isclose(bank.RDP_gaussian_svt_cgreater1({"sigma": s, "c": c, "k": k}, below),
                            _value(autodp_file.SVT_GAUSSIAN, {alpha: below, atlas.sigma: s, autodp_file.c: c,
                                                              autodp_file.k: k}), rel_tol=1e-9)
        e_to_eps, prob, x = RNG.choice([3, 5, 7, 20]), RNG.uniform(0.01, 0.5), RNG.randint(3, 8)
        mine = float(sp.N(autodp_file.subsampled_pure_dp(sp.Integer(e_to_eps), sp.Float(prob, 30), x), 30))
        assert math.isclose(bank.RDP_subsampled_pureDP({"eps": math.log(e_to_eps), "prob": prob}, x), mine,
                            rel_tol=1e-9)
        assert bank.RDP_subsampled_pureDP({"eps": math.log(e_to_eps), "prob": prob}, below) == 0  # (the refuted branch)
        mu1, mu2, var1, var2 = RNG.uniform(-3, 3), RNG.uniform(-3, 3), RNG.uniform(0.2, 4), RNG.uniform(0.2, 4)
        peer = bank.pRDP_diag_gaussian({"mu1": np.array([mu1]), "mu2": np.array([mu2]), "sigma1": np.array([var1]),
                                        "sigma2": np.array([var2])}, a)
        mine = sp.N(autodp_file.DIAG_GAUSSIAN.subs({alpha: a, autodp_file.m1: mu1, autodp_file.m2: mu2,
                                                    autodp_file.v1: var1, autodp_file.v2: var2}), 30)
        assert peer == math.inf if mine == sp.oo else math.isclose(peer, float(mine), rel_tol=1e-9)
        s2, prob2 = RNG.uniform(0.5, 5), RNG.uniform(0.01, 0.5)
        if a < s2**2 / (prob2 * (1 - prob2)) + 1:
            assert math.isclose(bank.pRDP_asymp_subsampled_gaussian({"sigma": s2, "prob": prob2}, a),
                                _value(autodp_file.ASYMPTOTIC_SUBSAMPLED, {alpha: a, atlas.sigma: s2,
                                                                          autodp_file.qb: prob2}), rel_tol=1e-9)


def test_prv_accountant_transcriptions_match_the_installed_functions():
    prv = pytest.importorskip("prv_accountant.privacy_random_variables")
    for _ in range(20):
        mu, e, a = RNG.uniform(0.1, 5), RNG.uniform(0.05, 5), RNG.choice(ORDERS)
        assert math.isclose(prv.GaussianMechanism(1 / mu).rdp(a), a * mu**2 / 2, rel_tol=1e-12)
        assert math.isclose(prv.LaplaceMechanism(mu).rdp(a), _value(prv_file.LAPLACE, {alpha: a, prv_file.mu: mu}),
                            rel_tol=1e-9)
        assert math.isclose(prv.PureDPMechanism(e).rdp(a), _value(prv_file.PURE_DP, {alpha: a, atlas.eps: e}),
                            rel_tol=1e-12)


def test_opacus_conversion_is_the_installed_one():
    opacus_rdp = pytest.importorskip("opacus.accountants.analysis.rdp")
    for _ in range(10):
        r, d, a = RNG.uniform(0.01, 5), 10 ** RNG.uniform(-10, -1), RNG.choice(ORDERS)
        with pytest.warns(UserWarning, match="Optimal order is the smallest alpha"):  # (one order: its own warning)
            eps, order = opacus_rdp.get_privacy_spent(orders=[a], rdp=[r], delta=d)
        assert order == a
        assert math.isclose(eps, _value(opacus_file.EPSILON, {alpha: a, opacus_file.rdp: r, opacus_file.delta: d}),
                            rel_tol=1e-9)


def test_opendp_maps_reproduce_its_own_pinned_numbers():
    # rust/src/measurements/noise/distribution/laplace/test.rs and .../gaussian/test.rs (scale 1, d_in = 1),
    # randomized_response/test.rs (p = 0.75: ln 3), noise_threshold/distribution/laplace/test.rs (T = 10,
    # (l0, l1, l∞) = (1, 1, 1): δ = 3.319000812207484e-5).
    s = opendp_file.s
    assert float(opendp_file.PEER_FORMULAS["noise/distribution/laplace: ZExpFamily<1> → MaxDivergence"].subs(s, 1)) == 1.0
    assert float(opendp_file.PEER_FORMULAS["noise/distribution/gaussian: ZExpFamily<2> → zCDP"].subs(s, 1)) == 0.5
    assert math.isclose(_value(opendp_file.PEER_FORMULAS["randomized_response (bool)"], {atlas.p: 0.75}), math.log(3))
    assert math.isclose(_value(opendp_file.THRESHOLD_DELTA, {s: 1, opendp_file.d: 9}), 3.319000812207484e-5,
                        rel_tol=1e-12)


def test_every_atlas_claim_the_audit_names_exists():
    # `rdpsym audit` names, for a defect it re-measures, the atlas claim that explains it (Defect.atlas).
    import inspect
    import re

    from rdpsym.claims.loading import catalogue_path, claim_files, load
    from rdpsym.peers import audit

    named = set(re.findall(r'atlas="([^"]+)"', inspect.getsource(audit)))
    ids = {c.id for f in claim_files([catalogue_path() / "peers"]) for c in load(f)}
    assert named and named <= ids, named - ids
