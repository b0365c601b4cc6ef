"""Peers' objects in: dp_accounting events and ledgers, Opacus histories and accountants, autodp mechanisms.

Where a peer is accurate, rdpsym's certified values agree with it to the peer's
precision; where it is not, the test records the known defect with its inputs
(and would fail if the peer were fixed or got worse, so the record stays true).
Mechanisms that another part of rdpsym adds (``poisson_sampled``,
``sampled_without_replacement``, ``discrete_laplace``, ``discrete_gaussian``,
``k_randomized_response``, ``non_private``) are tested as soon as they exist.
"""

from __future__ import annotations

import math
import subprocess
import sys
import warnings

import mpmath
import pytest
import sympy as sp

import rdpsym
from rdpsym.foundations.errors import ParameterError
from rdpsym.peers import verify as V
from rdpsym.peers._reading import UnsupportedPeerObject

dpa = pytest.importorskip("dp_accounting")
from dp_accounting.rdp import rdp_privacy_accountant as rdp_accountant  # noqa: E402


def held(f: float) -> sp.Rational:
    """The exact value a float holds: how rdpsym reads a peer's probability (rdpsym/peers/_reading.py)."""
    return sp.Rational(*f.as_integer_ratio())


def needs(name: str):
    """Skip until ``rdpsym.<name>`` exists (another branch adds it): the test then runs by itself."""
    return pytest.mark.skipif(not hasattr(rdpsym, name), reason=f"needs rdpsym.{name} (mechanisms branch)")


def peer_rdp(event, orders, relation=None):
    kwargs = {} if relation is None else {"neighboring_relation": relation}
    accountant = rdp_accountant.RdpAccountant(orders=orders, **kwargs)
    accountant.compose(event)
    return list(accountant.rdp)


def stand_in(name: str, **fields):
    """An object with a dp_accounting class name and fields (events of its development tree, not in 0.6)."""
    obj = type(name, (), {})()
    for k, v in fields.items():
        setattr(obj, k, v)
    return obj


# --------------------------------------------------------------------------- import contract


def test_import_rdpsym_imports_no_peer():
    code = ("import sys, rdpsym, rdpsym.peers.events, rdpsym.peers.opacus, rdpsym.peers.autodp, rdpsym.peers.verify, "
            "rdpsym.peers.audit, rdpsym.cli.main\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('dp_accounting', 'opacus', 'torch', 'autodp', 'prv_accountant')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# --------------------------------------------------------------------------- dp_accounting events


ORDERS = [1.5, 2.0, 3.0, 4.7, 8.0, 10.0, 32.0]


def test_dp_sgd_poisson_event_agrees_at_integer_orders_and_records_the_fractional_defect():
    q, sigma, steps = 0.01, 1.1, 10_000
    event = dpa.SelfComposedDpEvent(dpa.PoissonSampledDpEvent(q, dpa.GaussianDpEvent(sigma)), steps)
    curve = rdpsym.from_dp_event(event)
    # every float as the value it holds, which dp_accounting computes with (rdpsym/peers/_reading.py)
    assert curve == rdpsym.sampled_gaussian(q=held(q), sigma=held(sigma)).curve() * steps
    v = rdpsym.verify(event, orders=ORDERS, rdp=peer_rdp(event, ORDERS), peer="dp-accounting")
    by_order = {float(c.order): c for c in v.orders}
    for a in (2.0, 3.0, 8.0, 10.0, 32.0):  # integer orders: the peer is accurate to float64
        assert by_order[a].relative < 1e-12
    # Recorded defect (dp-accounting 0.6, q = 0.01, σ = 1.1): fractional orders too high, |C(α,k)| summed.
    for a, low, high in ((1.5, 1e-2, 1e-1), (4.7, 1e-6, 1e-5)):
        c = by_order[a]
        assert c.direction == V.ABOVE and low < c.relative < high and "|C(α,k)|" in c.cause
    below = [c for c in v.orders if c.direction == V.BELOW]  # a few ulp below at some integer orders
    assert all(c.relative <= V.ROUNDING for c in below)
    assert v.verdict == ("below by float64 rounding only" if below else "conservative")


def test_an_accountants_ledger_and_a_builder_read_like_the_event():
    g = dpa.PoissonSampledDpEvent(0.01, dpa.GaussianDpEvent(1.1))
    accountant = rdp_accountant.RdpAccountant()
    accountant.compose(g, 300)
    accountant.compose(g, 700)
    builder = dpa.DpEventBuilder()
    builder.compose(g, 1000)
    expected = rdpsym.from_dp_event(dpa.SelfComposedDpEvent(g, 1000))
    assert rdpsym.from_dp_event(accountant) == expected == rdpsym.from_dp_event(builder)
    assert rdpsym.from_dp_event(accountant.ledger) == expected


def test_an_accountants_epsilon_is_judged_over_the_accountants_own_orders():
    # Judged over rdpsym's default grid, the ε of an accountant built with four orders was "above by 0.05
    # relative", and the report said "over the same orders".
    accountant = rdp_accountant.RdpAccountant(orders=[2, 3, 4.5, 8])
    accountant.compose(dpa.PoissonSampledDpEvent(0.01, dpa.GaussianDpEvent(1.1)), 1000)
    v = rdpsym.verify(accountant, delta=1e-5, epsilon=accountant.get_epsilon(1e-5), peer="dp-accounting")
    assert v.verdict == "agrees" and v.epsilon.order == 8 and v.epsilon.over == "the same orders"
    assert "bbghs over the same orders, best order 8" in str(v)
    default = rdpsym.verify(dpa.PoissonSampledDpEvent(0.01, dpa.GaussianDpEvent(1.1)), delta=1e-5, epsilon=1.0)
    assert "over rdpsym's default orders" in str(default)


def test_an_accountant_whose_orders_include_one_is_judged_over_the_others_as_the_peer_takes_them():
    """dp_accounting accepts the order 1 (its RDP there is NaN, which its minimum passes over: the ε is the one without
    it); verify refused the whole check over it (a probe).  The certified ε leaves 1 out too, and the verdict is the
    one over the same accountant built without 1."""
    event = dpa.PoissonSampledDpEvent(0.01, dpa.GaussianDpEvent(1.1))
    verdicts = []
    for orders in ([1, 1.5, 2, 4, 8, 16, 32], [1.5, 2, 4, 8, 16, 32]):
        accountant = rdp_accountant.RdpAccountant(orders=orders)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # the peer's own NaN at order 1
            accountant.compose(event, 1000)
            epsilon = accountant.get_epsilon(1e-5)
        v = rdpsym.verify(accountant, delta=1e-5, epsilon=epsilon, peer="dp-accounting")
        verdicts.append((v.verdict, v.epsilon.order, str(v.epsilon.certified)))
    assert verdicts[0] == verdicts[1] and verdicts[0][0] == "agrees", verdicts



def test_an_epsilon_of_zero_from_the_order_infinity_is_put_down_to_the_peers_nan_there():
    """A probe: dp_accounting with ∞ among its orders answers ε = 0 (its conversion at ∞ is NaN, which np.argmin
    picks and max(0, ·) makes 0); the verdict was right, its cause asked for the per-order RDP already given."""
    accountant = rdp_accountant.RdpAccountant(orders=[2, 3, math.inf])
    accountant.compose(dpa.GaussianDpEvent(1.0))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the peer's own ∞/∞
        epsilon = accountant.get_epsilon(1e-5)
    assert epsilon == 0
    for orders, rdp in ((None, None), ([2, 3, math.inf], list(accountant._rdp))):
        v = rdpsym.verify(accountant, orders=orders, rdp=rdp, delta=1e-5, epsilon=epsilon, peer="dp-accounting")
        assert v.verdict == "unsafe" and v.epsilon.direction == V.BELOW
        assert v.epsilon.cause.startswith("the order ∞ among the peer's orders"), v.epsilon.cause
        assert "NaN" in v.epsilon.cause and "per order" not in v.epsilon.cause


def test_infinite_noise_releases_nothing_and_a_ledger_holding_it_is_verified():
    """A review: GaussianDpEvent(inf) and LaplaceDpEvent(inf), which dp_accounting accounts as RDP 0, and an Opacus
    history entry of σ = ∞ were refused ("must be a finite number >= 0"): a ledger the peer reads could not be
    verified.  Infinite noise releases nothing; beside a Gaussian of σ = 2 the curve is that Gaussian's, α/8."""
    inf = math.inf
    for event in (dpa.GaussianDpEvent(inf), dpa.LaplaceDpEvent(inf),
                  dpa.PoissonSampledDpEvent(0.1, dpa.GaussianDpEvent(inf))):
        curve = rdpsym.from_dp_event(event)
        assert [curve.value(o) for o in (2, 8, sp.oo)] == [0, 0, 0], type(event).__name__
    both = rdpsym.from_dp_event(dpa.ComposedDpEvent([dpa.GaussianDpEvent(inf), dpa.GaussianDpEvent(2.0)]))
    assert [both.value(o) for o in (2, 8)] == [sp.Rational(1, 4), 1]
    accountant = rdp_accountant.RdpAccountant(orders=[2, 8])
    accountant.compose(dpa.ComposedDpEvent([dpa.LaplaceDpEvent(inf), dpa.GaussianDpEvent(2.0)]))
    assert rdpsym.verify(accountant, rdp=list(accountant._rdp), peer="dp-accounting").verdict == "agrees"
    history = rdpsym.from_opacus([(inf, 0.01, 10), (2.0, 1.0, 1)])
    assert [history.value(o) for o in (2, 8)] == [sp.Rational(1, 4), 1]
    with pytest.raises(rdpsym.ParameterError, match="noise_multiplier must be a finite number >= 0"):
        rdpsym.from_dp_event(dpa.GaussianDpEvent(-inf))
    # an integer is never ∞ (float() of one of 401 digits overflowed in the first version of this reading)
    huge = rdpsym.from_dp_event(dpa.GaussianDpEvent(10**400)).value(2)
    with mpmath.workdps(50):
        assert mpmath.almosteq(huge, mpmath.mpf(10) ** -800, rel_eps=mpmath.mpf(10) ** -40)  # α/(2σ²) at α = 2


def test_an_epsilon_below_the_rdp_conversions_is_unsafe_only_from_an_rdp_accountant():
    """A probe: `rdpsym verify --mechanism sampled-gaussian --set q=0.01 --set sigma=1 --steps 1000 --delta 1e-5
    --epsilon 1.8282436455855091` (dp_accounting's PLD ε; prv_accountant's bracket is (1.818, 1.838)) was UNSAFE for
    being below rdpsym's least RDP conversion, 2.1008: an upper bound.  Only an RDP accountant's ε is shown wrong
    there (its per-order RDP given, or the accountant itself)."""
    sampled = rdpsym.sampled_gaussian(q=sp.Rational(1, 100), sigma=1)
    told = rdpsym.verify(sampled, steps=1000, delta=1e-5, epsilon=1.8282436455855091, peer="dp-accounting")
    assert told.verdict == "not decided" and told.epsilon.direction == V.NOT_DECIDED
    assert "nothing says the peer's ε comes from an RDP conversion" in told.epsilon.cause
    accountant = rdp_accountant.RdpAccountant()
    accountant.compose(dpa.PoissonSampledDpEvent(0.01, dpa.GaussianDpEvent(1.0)), 1000)
    from_rdp = rdpsym.verify(accountant, delta=1e-5, epsilon=1.8282436455855091, peer="dp-accounting")
    assert from_rdp.verdict == "unsafe" and from_rdp.epsilon.direction == V.BELOW
    # the peer's orders say it converts RDP too (a review)
    grid = rdpsym.verify(sampled, steps=1000, orders=[2, 3, 4, 8, 16, 32], delta=1e-5, epsilon=1.0,
                         peer="dp-accounting")
    assert grid.verdict == "unsafe" and grid.epsilon.direction == V.BELOW


def test_an_rdp_accountants_epsilon_below_what_lower_bounds_of_its_rdp_give_is_unsafe():
    """A review: dp_accounting's ε for sampling without replacement (its RDP below an actual pair's, atlas:
    dpa-wor-gaussian-event) was "not decided" for rdpsym's RDP being an upper bound there.  The conversion of certified
    lower bounds on the RDP (actual pairs' divergences) is above the peer's ε: unsafe."""
    accountant = rdp_accountant.RdpAccountant(orders=[2, 3, 4, 8, 16, 32],
                                              neighboring_relation=dpa.NeighboringRelation.REPLACE_ONE)
    accountant.compose(dpa.SelfComposedDpEvent(dpa.SampledWithoutReplacementDpEvent(60000, 256,
                                                                                    dpa.GaussianDpEvent(1.1)), 100))
    epsilon = accountant.get_epsilon(1e-5)
    v = rdpsym.verify(accountant, delta=1e-5, epsilon=epsilon, peer="dp-accounting")
    assert v.verdict == "unsafe" and v.epsilon.direction == V.BELOW and "lower bounds" in v.epsilon.cause

def test_a_composed_gaussian_and_laplace_pipeline_agrees_with_the_peer():
    pipeline = dpa.ComposedDpEvent([
        dpa.GaussianDpEvent(2.0), dpa.LaplaceDpEvent(1.0),
        dpa.SelfComposedDpEvent(dpa.ComposedDpEvent([dpa.GaussianDpEvent(3.0), dpa.LaplaceDpEvent(2.0),
                                                     dpa.NoOpDpEvent()]), 5)])
    curve = rdpsym.from_dp_event(pipeline)
    ours = (rdpsym.gaussian(2).curve() + rdpsym.laplace(1).curve() + rdpsym.gaussian(3).curve() * 5
            + rdpsym.laplace(2).curve() * 5)
    assert sp.simplify(curve.closed_form - ours.closed_form) == 0
    v = rdpsym.verify(pipeline, orders=ORDERS, rdp=peer_rdp(pipeline, ORDERS), peer="dp-accounting")
    assert all(c.relative < 1e-13 for c in v.orders), [(c.order, c.relative) for c in v.orders]


def test_self_composed_and_nested_counts_are_honoured_for_every_inner_event():
    g, lap = dpa.GaussianDpEvent(2.0), dpa.LaplaceDpEvent(1.0)
    nested = dpa.SelfComposedDpEvent(dpa.ComposedDpEvent([dpa.SelfComposedDpEvent(g, 3), lap]), 4)
    curve = rdpsym.from_dp_event(nested)
    expected = rdpsym.gaussian(2).curve() * 12 + rdpsym.laplace(1).curve() * 4
    assert sp.simplify(curve.closed_form - expected.closed_form) == 0
    assert rdpsym.from_dp_event(dpa.SelfComposedDpEvent(g, 0)).closed_form == 0
    # Gaussians composed on one Poisson sample are one Gaussian with σ⁻² = Σσᵢ⁻² (as the peer accounts them).
    inner = dpa.ComposedDpEvent([dpa.GaussianDpEvent(2.0), dpa.SelfComposedDpEvent(dpa.GaussianDpEvent(4.0), 12)])
    sampled = dpa.SelfComposedDpEvent(dpa.PoissonSampledDpEvent(0.05, inner), 50)
    assert rdpsym.from_dp_event(sampled) == rdpsym.sampled_gaussian(q=held(0.05), sigma=1).curve() * 50
    integer_orders = [2.0, 3.0, 8.0, 16.0]
    v = rdpsym.verify(sampled, orders=integer_orders, rdp=peer_rdp(sampled, integer_orders), peer="dp-accounting")
    assert all(c.relative < 1e-12 for c in v.orders)


def test_an_irrational_effective_noise_multiplier_is_rounded_down():
    inner = dpa.ComposedDpEvent([dpa.GaussianDpEvent(1.0), dpa.GaussianDpEvent(1.0)])  # σ = 1/√2
    c = rdpsym.from_dp_event(dpa.PoissonSampledDpEvent(0.1, inner))
    sigma = c.components[0].sigma
    # below 1/√2 (less noise: a valid upper bound), by less than the last of MAX_DPS + 30 significant digits (in
    # exact rational arithmetic: σ² against 1/2)
    from rdpsym.foundations.reading import MAX_DPS

    assert sigma.is_Rational and 0 < sp.Rational(1, 2) - sigma**2 < sp.Rational(1, 10 ** (MAX_DPS + 29))


def test_randomized_response_zcdp_and_no_ops():
    # k = 2: the binary randomized response reporting the truth with probability 1 − p/2.
    rr = dpa.RandomizedResponseDpEvent(0.5, 2)
    assert rdpsym.from_dp_event(rr) == rdpsym.randomized_response(sp.Rational(3, 4)).curve()
    v = rdpsym.verify(rr, orders=ORDERS, rdp=peer_rdp(rr, ORDERS, dpa.NeighboringRelation.REPLACE_ONE))
    assert all(c.relative < 1e-13 for c in v.orders)
    assert rdpsym.from_dp_event(dpa.RandomizedResponseDpEvent(1.0, 5)).closed_form == 0
    # ρ and ξ as the floats hold them, as every other float of a peer's object: 0.1 is a little above 1/10, and
    # reading its decimal certified ρα = 0.2 below the RDP of the object handed in (a probe)
    held = sp.Rational(*(0.1).as_integer_ratio())
    assert rdpsym.from_dp_event(dpa.ZCDpEvent(0.5, 0.1)).closed_form == held + rdpsym.alpha / 2
    assert rdpsym.from_dp_event(dpa.ZCDpEvent(0.1)).closed_form == held * rdpsym.alpha
    assert rdpsym.from_dp_event(dpa.ZCDpEvent(0.0, 0.25)).closed_form == sp.Rational(1, 4)
    assert rdpsym.from_dp_event(dpa.NoOpDpEvent()).balls([2])[0] == 0
    assert rdpsym.from_dp_event(dpa.PoissonSampledDpEvent(0.0, dpa.GaussianDpEvent(1.0))).closed_form == 0
    assert rdpsym.from_dp_event(dpa.PoissonSampledDpEvent(1.0, dpa.GaussianDpEvent(2.0))).closed_form == \
        rdpsym.alpha / 8


def test_a_named_tuple_event_reads_like_the_event():
    event = dpa.SelfComposedDpEvent(dpa.PoissonSampledDpEvent(0.02, dpa.GaussianDpEvent(1.5)), 7)
    assert rdpsym.from_dp_event(event.to_named_tuple()) == rdpsym.from_dp_event(event)


def test_development_tree_events_are_read_by_their_fields():
    # EpsilonDeltaDpEvent with δ = 0 is ε-DP; with δ > 0 it bounds no Rényi divergence.
    assert rdpsym.from_dp_event(stand_in("EpsilonDeltaDpEvent", epsilon=1.0, delta=0.0)) == rdpsym.pure_dp(1).curve()
    with pytest.raises(UnsupportedPeerObject, match="EpsilonDeltaDpEvent with delta = 1/1000000 > 0"):
        rdpsym.from_dp_event(stand_in("EpsilonDeltaDpEvent", epsilon=1.0, delta=1e-6))
    # The exponential mechanism is counted (3 runs cost three times one run).
    em = stand_in("ExponentialMechanismDpEvent", epsilon=0.5)
    three = rdpsym.from_dp_event(dpa.SelfComposedDpEvent(em, 3))
    assert three == rdpsym.exponential_mechanism(sp.Rational(1, 2)).curve() * 3
    one = rdpsym.exponential_mechanism(sp.Rational(1, 2)).curve().enclosure(2, 30)
    assert three.enclosure(2, 30).overlaps(3 * one)
    # More than one dimension (or unknown): Δ²/(2σ²)-zCDP.
    dg = stand_in("DiscreteGaussianDpEvent", sigma=2.0, sensitivity=1.0, dimension=None)
    assert rdpsym.from_dp_event(dg).closed_form == rdpsym.alpha / 8
    assert rdpsym.from_dp_event(stand_in("PermuteAndFlipDpEvent", epsilon=1.0)) == rdpsym.pure_dp(1).curve()


@pytest.mark.parametrize("event, name", [
    (dpa.dp_event.MixtureOfGaussiansDpEvent(1.0, [1.0], [1.0]), "MixtureOfGaussiansDpEvent"),
    (dpa.SingleEpochTreeAggregationDpEvent(1.0, 3), "SingleEpochTreeAggregationDpEvent"),
    (dpa.dp_event.RepeatAndSelectDpEvent(dpa.GaussianDpEvent(1.0), 2.0, 1.0), "RepeatAndSelectDpEvent"),
    (dpa.SampledWithReplacementDpEvent(100, 10, dpa.GaussianDpEvent(1.0)), "SampledWithReplacementDpEvent"),
    (dpa.UnsupportedDpEvent(), "UnsupportedDpEvent"),
    (dpa.TruncatedSubsampledGaussianDpEvent(100, 0.1, 20, 1.0), "TruncatedSubsampledGaussianDpEvent"),
])
def test_an_unsupported_event_is_an_error_naming_its_type(event, name):
    with pytest.raises(UnsupportedPeerObject, match=rf"^ComposedDpEvent\.events\[1\]: {name} is not supported"):
        rdpsym.from_dp_event(dpa.ComposedDpEvent([dpa.GaussianDpEvent(1.0), event]))


def test_bad_fields_and_mixed_relations_are_clear_errors():
    with pytest.raises(ParameterError, match=r"^PoissonSampledDpEvent.sampling_probability must be in the closed "
                                             r"interval \[0, 1\]; got 3/2\.$"):
        rdpsym.from_dp_event(dpa.PoissonSampledDpEvent(1.5, dpa.GaussianDpEvent(1.0)))
    with pytest.raises(ParameterError, match="^GaussianDpEvent.noise_multiplier must be a finite number >= 0"):
        rdpsym.from_dp_event(dpa.GaussianDpEvent(-1.0))
    with pytest.raises(ParameterError, match="^SelfComposedDpEvent.count must be an integer >= 0"):
        rdpsym.from_dp_event(dpa.SelfComposedDpEvent(dpa.GaussianDpEvent(1.0), -2))
    mixed = dpa.ComposedDpEvent([dpa.PoissonSampledDpEvent(0.1, dpa.GaussianDpEvent(1.0)),
                                 dpa.SampledWithoutReplacementDpEvent(100, 10, dpa.GaussianDpEvent(1.0))])
    with pytest.raises(ParameterError, match="mix two neighbouring relations"):
        rdpsym.from_dp_event(mixed)
    with pytest.raises(ParameterError, match="sample_size must be at most source_dataset_size"):
        rdpsym.from_dp_event(dpa.SampledWithoutReplacementDpEvent(10, 20, dpa.GaussianDpEvent(1.0)))
    with pytest.raises(ParameterError, match="PoissonSampledDpEvent.event must be present"):
        rdpsym.from_dp_event(stand_in("PoissonSampledDpEvent", sampling_probability=0.1))
    with pytest.raises(UnsupportedPeerObject, match="sampling a ComposedDpEvent that is not made of Gaussian"):
        rdpsym.from_dp_event(dpa.PoissonSampledDpEvent(0.1, dpa.ComposedDpEvent([dpa.LaplaceDpEvent(1.0),
                                                                                 dpa.GaussianDpEvent(1.0)])))


# --------------------------------------------------------------------------- events that need new mechanisms


@needs("sampled_without_replacement")
def test_a_noise_multiplier_is_read_as_the_float_the_peer_computes_with():
    """A probe: σ = 1.1 was read as 11/10 while a peer computes with 1.100000000000000088…; at q = 2.6·10⁻¹⁸⁴,
    α = 1024 the sampled Gaussian's RDP moves 9.4·10⁻¹² relative between the two, and the correctly rounded RDP of
    the event was called UNSAFE ("float64 error accumulated"), as an event, an Opacus history and an autodp mechanism.
    The truth: the binomial expansion (Mironov–Talwar–Zhang 2019) at q and σ exactly as the floats hold them."""
    import math

    import mpmath

    q, sigma, order = math.exp(-422.72), 1.1, 1024
    event = dpa.PoissonSampledDpEvent(q, dpa.GaussianDpEvent(sigma))
    with mpmath.workdps(100):
        Q, S = mpmath.mpf(q), mpmath.mpf(sigma)  # (exact: a float is a binary number)
        moment = mpmath.fsum(mpmath.binomial(order, k) * (1 - Q) ** (order - k) * Q**k * mpmath.exp(k * (k - 1) / (2 * S**2))
                             for k in range(order + 1))
        truth = mpmath.log(moment) / (order - 1)
    peer = float(truth)  # a peer that is right: the truth, correctly rounded
    v = rdpsym.verify(event, orders=[order], rdp=[peer], peer="a right peer")
    (c,) = v.orders
    assert v.verdict == "agrees" and c.direction != "below", str(v)
    assert mpmath.mpf(c.certified.lower().str(40, radius=False)) <= truth <= mpmath.mpf(c.certified.upper().str(40, radius=False))


def test_orders_given_twice_to_verify_are_refused():
    """A probe: verify --orders 2,2 with two RDP values was taken (which is the peer's?); the ε route refused it."""
    for orders in ([2, 2], [1.5, "3/2"], [2, 2.0]):
        with pytest.raises(ParameterError, match="orders must be a list without duplicates; got duplicates"):
            rdpsym.verify(rdpsym.gaussian(2), orders=orders, rdp=[0.25, 0.25])


def test_dp_sgd_with_fixed_size_batches_is_substitution_sampling():
    # Substituting a record moves the clipped sum by up to 2C (dp_event.py: ‖v_i‖ ≤ C), so the inner Gaussian has
    # sensitivity 2; dp_accounting's RDP accountant takes 1 and is below the truth (atlas: dpa-wor-gaussian-event).
    batch, n, steps = 256, 60_000, 100
    event = dpa.SelfComposedDpEvent(dpa.SampledWithoutReplacementDpEvent(n, batch, dpa.GaussianDpEvent(1.1)), steps)
    curve = rdpsym.from_dp_event(event)
    expected = rdpsym.sampled_without_replacement(rdpsym.gaussian(held(1.1), sensitivity=2),
                                                  sp.Rational(batch, n))
    assert curve == expected.curve() * steps
    orders = [2.0, 3.0, 8.0]
    peer = peer_rdp(event, orders, dpa.NeighboringRelation.REPLACE_ONE)
    v = rdpsym.verify(event, orders=orders, rdp=peer, peer="dp-accounting")
    assert v.unsafe and all(c.relative > 0.9 for c in v.orders)  # the peer is below the truth by 92 % and more



def test_below_an_upper_bound_only_is_unsafe_only_below_an_actual_pairs_divergence():
    """A probe: sampling without replacement has no exact curve (Wang–Balle–Kasiviswanathan's bounds), and every
    peer value below the bound was "unsafe", though a tighter valid bound lies there too.  Below the divergence of
    an actual pair of neighbouring datasets (the Poisson pair, rdpsym.peers.bounds) it is unsafe; between that and
    the bound it is not decided."""
    from flint import arb

    from rdpsym.peers.bounds import actual_pair_divergence

    wor = rdpsym.sampled_without_replacement(rdpsym.gaussian(1, sensitivity=2), sp.Rational(1, 100))
    with mpmath.workdps(40):  # the actual pair at order 2: log(1 + q²(e^{Δ²/σ²} − 1)), Δ = 2, σ = 1
        pair = mpmath.log(1 + mpmath.mpf(1) / 10**4 * mpmath.expm1(4))
    low, bound = actual_pair_divergence(wor.curve(), 2), wor.curve().enclosure(2, dps=30)
    assert low.overlaps(arb(mpmath.nstr(pair, 35))) and low.upper() < bound.lower()
    between, under = float((low + bound).mid() / 2), float(pair) / 2
    checks = [rdpsym.verify(wor, orders=[2], rdp=[value]).orders[0] for value in (between, under)]
    assert checks[0].direction == V.NOT_DECIDED and "upper bound only" in checks[0].cause
    assert checks[1].direction == V.BELOW and checks[1].unsafe and "actual pair" in checks[1].cause
    assert rdpsym.verify(wor, orders=[2], rdp=[between]).verdict == "not decided"
    half = float(rdpsym.epsilon(wor.curve(), delta=sp.Rational(1, 10**5), dps=20).value) / 2
    e = rdpsym.verify(wor, delta=1e-5, epsilon=half).epsilon  # its conversions of upper bounds only
    assert e.direction == V.NOT_DECIDED and "neither confirmed nor refuted" in e.cause
    # A chord between integer orders of a subsampled mechanism: an upper bound with no actual pair known
    sampled = rdpsym.poisson_sampled(rdpsym.zcdp(sp.Rational(1, 2)), sp.Rational(1, 10))
    chord = sampled.curve().enclosure(sp.Rational(5, 2), dps=30)
    c = rdpsym.verify(sampled, orders=[2.5], rdp=[float(chord.mid()) * 0.999]).orders[0]
    assert c.direction == V.NOT_DECIDED and "chord" in c.cause

def test_randomized_response_where_a_record_is_added_or_removed_is_refused():
    """A probe: PoissonSampledDpEvent(0.2, RandomizedResponseDpEvent(0.4, 3)) was read as Poisson-sampled k-RR with the
    substitution pair (one record's value against another's), a curve of no stated relation: Poisson sampling is
    accounted for adding or removing a record, where randomized response's pair has no meaning.  dp_accounting's RDP
    accountant refuses randomized response under ADD_OR_REMOVE_ONE (and any Poisson-sampled event but Gaussians);
    rdpsym refuses it by name.  Under REPLACE_SPECIAL, and alone, it is read as before."""
    rr = dpa.RandomizedResponseDpEvent(0.4, 3)
    for event in (dpa.PoissonSampledDpEvent(0.2, rr), dpa.PoissonSampledDpEvent(1, rr),
                  dpa.ComposedDpEvent([dpa.PoissonSampledDpEvent(0.2, dpa.GaussianDpEvent(1.0)), rr])):
        with pytest.raises(UnsupportedPeerObject, match="randomized response.* (added|adding) or remov"):
            rdpsym.from_dp_event(event)
    special = rdp_accountant.RdpAccountant(neighboring_relation=dpa.NeighboringRelation.REPLACE_SPECIAL)
    special.compose(rr)
    alone = rdpsym.from_dp_event(special).value(2)
    assert alone > 0 and rdpsym.from_dp_event(rr).value(2) > 0
    special.compose(dpa.PoissonSampledDpEvent(0.5, dpa.GaussianDpEvent(1.0)))  # (both read under REPLACE_SPECIAL)
    assert rdpsym.from_dp_event(special).value(2) > alone
    with pytest.raises(UnsupportedPeerObject, match="Poisson sampling of randomized response"):
        rdpsym.from_dp_event(dpa.PoissonSampledDpEvent(0.2, rr))  # (under REPLACE_SPECIAL too: a review)


def test_an_accountants_neighbouring_relation_is_read():
    # Found by an independent probe: PLDAccountant(REPLACE_ONE) doubles the Gaussian's sensitivity and rdpsym read
    # only its ledger (ε 1.99 where 4.377 is right).  REPLACE_ONE is substitution: sensitivity 2 for Gaussian and
    # Laplace events; Poisson sampling (accounted for adding or removing a record) under it is refused by name.
    pld = dpa.pld.PLDAccountant(neighboring_relation=dpa.NeighboringRelation.REPLACE_ONE)
    pld.compose(dpa.GaussianDpEvent(2.0))
    assert rdpsym.from_dp_event(pld) == rdpsym.gaussian(2, sensitivity=2).curve()
    assert abs(float(rdpsym.epsilon(rdpsym.from_dp_event(pld), delta=1e-5).value) - pld.get_epsilon(1e-5)) < 1e-6
    rdp = rdp_accountant.RdpAccountant(neighboring_relation=dpa.NeighboringRelation.REPLACE_ONE)
    rdp.compose(dpa.LaplaceDpEvent(1.0))
    assert rdpsym.from_dp_event(rdp) == rdpsym.laplace(1, sensitivity=2).curve()
    plain = rdp_accountant.RdpAccountant()
    plain.compose(dpa.GaussianDpEvent(2.0))
    assert rdpsym.from_dp_event(plain).closed_form == sp.Symbol("alpha", positive=True) / 8
    sampled = dpa.pld.PLDAccountant(neighboring_relation=dpa.NeighboringRelation.REPLACE_ONE)
    sampled.compose(dpa.PoissonSampledDpEvent(0.01, dpa.GaussianDpEvent(1.1)))
    with pytest.raises(ParameterError, match="mix two neighbouring relations"):
        rdpsym.from_dp_event(sampled)


def test_a_discrete_event_under_substitution_has_its_sensitivity_doubled_like_a_gaussian():
    """dp_event.py states a discrete Laplace event's sensitivity as the contribution bound C (‖v_i‖₁ ≤ C), as a
    Gaussian's noise multiplier is against C; substituting a record moves the sum by 2C.  Inside sampling without
    replacement (substitution) rdpsym doubled the Gaussian's and the Laplace's sensitivity but not the discrete
    Laplace's (an independent probe: D₂ 0.735 where its own rule gives 1.720)."""
    from dp_accounting.dp_event import DiscreteLaplaceDpEvent

    whole = dpa.SampledWithoutReplacementDpEvent(100, 100, DiscreteLaplaceDpEvent(1.0, 1))  # q = 1: the mechanism
    assert rdpsym.from_dp_event(whole) == rdpsym.discrete_laplace(scale=1, sensitivity=2).curve()
    tenth = dpa.SampledWithoutReplacementDpEvent(100, 10, DiscreteLaplaceDpEvent(1.0, 1))
    want = rdpsym.sampled_without_replacement(rdpsym.discrete_laplace(scale=1, sensitivity=2), sp.Rational(1, 10))
    assert rdpsym.from_dp_event(tenth) == want.curve()
    alone = rdpsym.from_dp_event(DiscreteLaplaceDpEvent(1.0, 1))  # adding or removing: C itself
    assert alone == rdpsym.discrete_laplace(scale=1, sensitivity=1).curve()


@pytest.mark.parametrize("before", [True, False])
def test_a_tree_with_sampling_without_replacement_reads_every_event_under_substitution(before):
    """A bare tree that holds a SampledWithoutReplacementDpEvent is under substitution throughout (a tree mixing
    relations is refused), so its plain Gaussian and Laplace events have sensitivity 2 too, read before or after
    the sampled one.  They were read at 1: D₂ = 5 where sampling all 10 records of 10 is the Gaussian itself,
    2 × α·2²/(2σ²) = 8 (a probe), and D_∞ = 3 for the Laplace pair, where 2/b + 2/b = 4."""
    def tree(plain, sampled):
        return dpa.ComposedDpEvent([plain, sampled] if before else [sampled, plain])

    g = tree(dpa.GaussianDpEvent(1.0), dpa.SampledWithoutReplacementDpEvent(10, 10, dpa.GaussianDpEvent(1.0)))
    assert rdpsym.from_dp_event(g) == 2 * rdpsym.gaussian(sigma=1, sensitivity=2).curve()
    laplace = tree(dpa.LaplaceDpEvent(1.0), dpa.SampledWithoutReplacementDpEvent(10, 10, dpa.LaplaceDpEvent(1.0)))
    assert rdpsym.from_dp_event(laplace).value(sp.oo) == 4
    half = tree(dpa.GaussianDpEvent(1.0), dpa.SampledWithoutReplacementDpEvent(10, 5, dpa.GaussianDpEvent(1.0)))
    want = rdpsym.gaussian(sigma=1, sensitivity=2).curve() + rdpsym.sampled_without_replacement(
        rdpsym.gaussian(sigma=1, sensitivity=2), sp.Rational(1, 2)).curve()
    assert rdpsym.from_dp_event(half).values([2, 5], dps=20) == want.values([2, 5], dps=20)
    alone = dpa.ComposedDpEvent([dpa.GaussianDpEvent(1.0), dpa.PoissonSampledDpEvent(1, dpa.GaussianDpEvent(1.0))])
    assert rdpsym.from_dp_event(alone) == 2 * rdpsym.gaussian(sigma=1).curve()  # adding or removing: C itself


def test_events_alike_at_one_shift_and_not_at_the_other_are_read_apart():
    """A zCDP event of ρ = 1/2 and a discrete Gaussian one in two dimensions of Δ = σ = 1 (zCDP of ρ = Δ²/(2σ²)) are one
    leaf under adding or removing, and not under substitution, where the second's Δ doubles: both were read again
    from the first (D₂ = 2, under the truth 1 + 4; a review).  Each is read at both shifts when first met."""
    from dp_accounting.dp_event import ZCDpEvent

    discrete = type("DiscreteGaussianDpEvent", (), {"sigma": 1.0, "sensitivity": 1, "dimension": 2})()
    substituted = dpa.SampledWithoutReplacementDpEvent(10, 10, dpa.NoOpDpEvent())
    for order in ([ZCDpEvent(0.5), discrete, substituted], [substituted, discrete, ZCDpEvent(0.5)]):
        assert rdpsym.from_dp_event(dpa.ComposedDpEvent(order)).value(2) == 5
    assert rdpsym.from_dp_event(dpa.ComposedDpEvent([ZCDpEvent(0.5), discrete])).value(2) == 2


def test_a_sampled_event_with_no_release_inside_costs_nothing():
    # Found by an independent probe: Σ σᵢ⁻² = 0 raised ZeroDivisionError.
    for event in (dpa.PoissonSampledDpEvent(0.05, dpa.SelfComposedDpEvent(dpa.GaussianDpEvent(2.0), 0)),
                  dpa.PoissonSampledDpEvent(0.05, dpa.ComposedDpEvent([])),
                  dpa.SampledWithoutReplacementDpEvent(1000, 10, dpa.ComposedDpEvent([]))):
        assert rdpsym.epsilon(rdpsym.from_dp_event(event), delta=1e-5).value == 0


@needs("poisson_sampled")
def test_poisson_sampling_of_another_mechanism():
    event = dpa.PoissonSampledDpEvent(0.1, dpa.LaplaceDpEvent(1.0))
    assert rdpsym.from_dp_event(event) == rdpsym.poisson_sampled(rdpsym.laplace(1), held(0.1)).curve()


@needs("discrete_laplace")
def test_discrete_laplace_noise_parameter_is_the_inverse_scale():
    # dp_accounting 0.6 defines the event in dp_event but does not export it at the top level.
    from dp_accounting.dp_event import DiscreteLaplaceDpEvent

    event = DiscreteLaplaceDpEvent(0.5, 2)
    assert rdpsym.from_dp_event(event) == rdpsym.discrete_laplace(scale=2, sensitivity=2).curve()


@needs("discrete_gaussian")
def test_a_one_dimensional_discrete_gaussian():
    dg = stand_in("DiscreteGaussianDpEvent", sigma=2.0, sensitivity=1.0, dimension=1)
    assert rdpsym.from_dp_event(dg) == rdpsym.discrete_gaussian(sigma=2, sensitivity=1).curve()


@needs("k_randomized_response")
def test_k_ary_randomized_response_agrees_with_the_peer():
    rr = dpa.RandomizedResponseDpEvent(0.3, 5)
    assert rdpsym.from_dp_event(rr) == rdpsym.k_randomized_response(k=5, noise=held(0.3)).curve()
    v = rdpsym.verify(rr, orders=ORDERS, rdp=peer_rdp(rr, ORDERS, dpa.NeighboringRelation.REPLACE_ONE))
    assert all(c.relative < 1e-12 for c in v.orders)


@needs("non_private")
def test_non_private_events_are_infinite_at_every_order():
    for event in (dpa.NonPrivateDpEvent(), dpa.GaussianDpEvent(0.0),
                  dpa.ComposedDpEvent([dpa.GaussianDpEvent(1.0), dpa.NonPrivateDpEvent()])):
        balls = rdpsym.from_dp_event(event).balls([2, 10])
        assert all(isinstance(b, rdpsym.Infinite) for b in balls)


# --------------------------------------------------------------------------- verify


def test_tf_privacy_issue_166_is_another_valid_conversion():
    q, sigma, delta = 105 / 100_000, 1.0, 1e-3
    orders = [1 + 1e-8] + [1 + x / 10.0 for x in range(1, 100)] + list(range(12, 64))
    event = dpa.PoissonSampledDpEvent(q, dpa.GaussianDpEvent(sigma))
    accountant = rdp_accountant.RdpAccountant(orders=orders)
    accountant.compose(event)
    eps = accountant.get_epsilon(delta)
    assert eps == 0
    v = rdpsym.verify(event, orders=orders, rdp=list(accountant.rdp), epsilon=eps, delta=delta,
                      peer="dp-accounting")
    c = v.epsilon
    assert c.direction == V.VALID_OTHER and c.safe
    # Recorded: at these inputs the peer's integer orders are up to 3e-13 relative below (float64 accumulation).
    below = [o for o in v.orders if o.direction == V.BELOW]
    assert below and all(o.relative < 1e-12 and o.cause.startswith("float64") for o in below)
    assert "TV/KL" in c.cause and "#166" in c.cause and "0.254787" in c.cause


def test_an_epsilon_below_the_named_conversion_but_above_the_exact_profile_is_valid():
    """autodp's analytic-Gaussian ε (σ = 2, δ = 10⁻⁵: 1.9930914044151204, above the exact 1.99309140441511963…) was
    "UNSAFE" for being below Balle et al.'s conversion of the RDP curve (2.1657…; a probe); (2, 10⁻⁵)-DP holds.
    Below the least ε rdpsym certifies (the exact profile here) is still unsafe."""
    g = rdpsym.gaussian(2)
    for eps in (1.9930914044151204, 2.0):
        c = rdpsym.verify(g, epsilon=eps, delta=1e-5).epsilon
        assert c.direction == V.VALID_OTHER and c.safe and "balle-wang" in c.cause, c
    v = rdpsym.verify(g, epsilon=1.9930914044, delta=1e-5)
    assert v.epsilon.direction == V.BELOW and v.verdict == "unsafe"


@pytest.mark.parametrize("mechanism, peer, least", [
    # autodp's get_approxDP(1e-5) of LaplaceMechanism(b=1.5) and RandresponseMechanism(p=0.8): the exact
    # profiles, ε₀ + 2·log(1 − δ) = 0.66664666656… and log((p − δ)/(1 − p)) = 1.38628186104…
    (lambda: rdpsym.laplace(scale=sp.Rational(3, 2)), 0.6666466666666649, 0.6666466665667),
    (lambda: rdpsym.randomized_response(p=sp.Rational(4, 5)), 1.386281861041765, 1.3862818610417),
    # Opacus's GaussianAccountant after 10 steps of σ = 5 at q = 1: the Gaussian mechanism (exact 2.5943833805…)
    (lambda: rdpsym.sampled_gaussian(q=1, sigma=5).curve() * 10, 2.623911, 2.5943833805276),
])
def test_an_epsilon_at_or_above_a_pure_mechanism_s_exact_profile_is_valid(mechanism, peer, least):
    """A probe: the exact ε of one Laplace mechanism or randomized response (autodp's), and Opacus's ε of a
    sampled Gaussian at q = 1 (every record in the batch: the Gaussian mechanism), were "UNSAFE" (exit 1): the
    least ε rdpsym certified was an RDP conversion's (ε₀ + log(1 − δ) at best, 2.8137 for the Gaussian's)."""
    c = rdpsym.verify(mechanism(), epsilon=peer, delta=1e-5).epsilon
    assert c.direction == V.VALID_OTHER and c.safe, c
    assert least <= peer
    below = rdpsym.verify(mechanism(), epsilon=least * (1 - 1e-12), delta=1e-5)
    assert below.epsilon.direction == V.BELOW and below.verdict == "unsafe"


def test_the_exact_epsilon_rounded_to_the_nearest_float_is_below_by_rounding_only():
    """The exact Gaussian ε (σ = 2, δ = 10⁻⁵) is 1.99309140441511963…; its nearest float, 1.9930914044151196, is
    3·10⁻¹⁷ below it, within the 64 ulp every check allows: "below by float64 rounding only", not "unsafe, below
    by 0.08 relative" (the gap to the named bbghs conversion; a probe).  Further below it is unsafe, and the cause
    says how far below the least certified ε it is."""
    g = rdpsym.gaussian(2)
    v = rdpsym.verify(g, epsilon=1.9930914044151196, delta=1e-5)
    assert v.verdict == "below by float64 rounding only" and not v.epsilon.unsafe
    assert v.epsilon.cause.startswith("float64 rounding (within 64 ulp) of the least ε") and "balle-wang" in v.epsilon.cause
    w = rdpsym.verify(g, epsilon=1.99309140441, delta=1e-5)
    assert w.verdict == "unsafe" and "relative below the least ε rdpsym certifies" in w.epsilon.cause


def test_verify_checks_its_inputs_first():
    g = rdpsym.gaussian(2)
    with pytest.raises(ParameterError, match="^rdp must be one value per order"):
        rdpsym.verify(g, orders=[2, 3], rdp=[0.25])
    with pytest.raises(ParameterError, match="^delta must be given with epsilon"):
        rdpsym.verify(g, epsilon=1.0)
    with pytest.raises(ParameterError, match="^the peer's answer must be"):
        rdpsym.verify(g)
    with pytest.raises(ParameterError, match="^order must be a number > 1"):
        rdpsym.verify(g, orders=[1, 2], epsilon=1.0, delta=1e-5)  # (ε alone: order 1 converts to no ε)
    with pytest.raises(ParameterError, match="^orders must be some order above 1 for the ε check"):
        rdpsym.verify(g, orders=[1], rdp=[0.125], epsilon=1.0, delta=1e-5)
    v = rdpsym.verify(g, orders=[2, 3, 4], rdp=["nan", -0.1, "inf"])
    assert [c.direction for c in v.orders] == [V.INVALID, V.INVALID, V.ABOVE]
    v = rdpsym.verify(rdpsym.laplace(1), orders=["inf"], rdp=[0.99])
    assert v.orders[0].direction == V.BELOW and v.unsafe
    assert "UNSAFE" in str(v) and v.as_dict()["verdict"] == "unsafe"
    assert isinstance(rdpsym.verify(g, orders=["inf"], rdp=[math.inf]).orders[0].certified, rdpsym.Infinite)
    # A probe: a mapping was read as its keys (rdp={2: 0.25}: the value 2, "above by 7 relative"), and True as order 1
    with pytest.raises(ParameterError, match=r"^rdp must .*a mapping \(dict; its keys would be read"):
        rdpsym.verify(g, orders=[2], rdp={2: 0.25})
    with pytest.raises(ParameterError, match="^orders must .*a mapping"):
        rdpsym.verify(g, orders={2: 0.25}, rdp=[0.25])
    with pytest.raises(ParameterError, match="True"):
        rdpsym.verify(g, orders=[True], rdp=[0.1])
    # A probe: a set's items come in its own order, so orders={3, 2} paired 0.375 (exact at 3) with order 2: "unsafe"
    with pytest.raises(ParameterError, match=r"^orders must .*a set \(unordered: .*give a list"):
        rdpsym.verify(g, orders={3, 2}, rdp=[0.375, 0.25])
    with pytest.raises(ParameterError, match=r"^rdp must .*a frozenset \(unordered"):
        rdpsym.verify(g, orders=[2, 3], rdp=frozenset({0.375, 0.25}))
    assert rdpsym.verify(g, orders=[3, 2], rdp=[0.375, 0.25]).verdict == "agrees"
    told = {3: 0.375, 2: 0.25}  # (a dict's keys and values keep their order, in step: a review)
    assert rdpsym.verify(g, orders=told.keys(), rdp=told.values()).verdict == "agrees"
    # (a grid is sorted: a set of orders is read as its sorted list)
    assert rdpsym.epsilon(g, delta=1e-5, orders={3, 2}) == rdpsym.epsilon(g, delta=1e-5, orders=[2, 3])
    with pytest.raises(ParameterError, match="ComposedDpEvent.events must be a list of events; got dict"):
        rdpsym.from_dp_event(dpa.ComposedDpEvent(events={dpa.GaussianDpEvent(1.0): 1}))


def test_an_event_is_read_under_the_relation_its_accountant_used():
    """A probe: an event carries no neighbouring relation; `Accounted` gives it the accountant's, as the accountant
    itself does (the command line's --neighboring-relation).  dp_accounting's RDP of RR under REPLACE_SPECIAL at α = 2
    is log(7/4) (the row (5/8, 1/8, 1/8, 1/8) against the uniform law), exact; read alone, log(17/5)."""
    from rdpsym.peers.events import Accounted

    rr = dpa.RandomizedResponseDpEvent(0.5, 4)
    special, alone = rdpsym.from_dp_event(Accounted(rr, "REPLACE_SPECIAL")), rdpsym.from_dp_event(rr)
    with mpmath.workdps(40):
        assert abs(special.value(2, dps=30) - mpmath.log(mpmath.mpf(7) / 4)) < 1e-29
        assert abs(alone.value(2, dps=30) - mpmath.log(mpmath.mpf(17) / 5)) < 1e-29
    special = dpa.NeighboringRelation.REPLACE_SPECIAL  # dp_accounting's enum, read by its name
    assert rdpsym.from_dp_event(Accounted(rr, special)) == rdpsym.from_dp_event(Accounted(rr, "REPLACE_SPECIAL"))
    g = dpa.GaussianDpEvent(2.0)
    assert rdpsym.from_dp_event(Accounted(g, "REPLACE_ONE")) == rdpsym.gaussian(sigma=2, sensitivity=2).curve()
    assert rdpsym.from_dp_event(Accounted(g, "ADD_OR_REMOVE_ONE")) == rdpsym.gaussian(sigma=2).curve()
    with pytest.raises(ParameterError, match="^neighboring_relation must be one of ADD_OR_REMOVE_ONE, REPLACE_ONE, "
                                             "REPLACE_SPECIAL; got 'replace-one'"):
        Accounted(g, "replace-one")
    assert "vs-special" in rdpsym.k_randomized_response(4, noise=0.5, relation="replace-special").curve().label


def test_five_hundred_distinct_gaussians_get_their_exact_curve():
    # Found by an independent probe: μ² = Σ σᵢ⁻² is a rational of thousands of digits, and SymPy's square root of
    # it raised OverflowError on the default route.  The value against an mpmath bisection of Balle–Wang's δ(ε).
    import mpmath

    sigmas = [1 + sp.Rational(i, 100_000) for i in range(500)]
    c = rdpsym.from_dp_event(dpa.ComposedDpEvent([dpa.GaussianDpEvent(float(s)) for s in sigmas]))
    eps = rdpsym.epsilon(c, delta=1e-5, dps=20)
    with mpmath.workdps(30):
        mu = mpmath.sqrt(mpmath.fsum(1 / mpmath.mpf(float(s)) ** 2 for s in sigmas))

        def delta(e):
            return mpmath.ncdf(-e / mu + mu / 2) - mpmath.exp(e) * mpmath.ncdf(-e / mu - mu / 2)

        truth = mpmath.findroot(lambda e: delta(e) - mpmath.mpf("1e-5"), 340)
        assert abs(eps.value - truth) < mpmath.mpf(10) ** -15 * truth


# --------------------------------------------------------------------------- defects found by a probe of peers' inputs


def _sampled_gaussian_d2(q, inverse_variance, dps):
    """MTZ 2019 §3.3 at order 2: log(1 + q²(e^{1/σ²} − 1)), written here with mpmath."""
    import mpmath

    with mpmath.workdps(dps + 20):
        x = mpmath.mpf(inverse_variance)
        big = x + 2 * mpmath.log(q)  # log(q²·e^{x}), for the huge exponents
        if x > 1000:
            return big + mpmath.log1p((1 - q**2) * mpmath.exp(-big))
        return mpmath.log1p(q**2 * mpmath.expm1(x))


@pytest.mark.parametrize("s", ["1e-50", "1e-62", "1"])
def test_gaussians_composed_inside_a_sample_keep_their_noise_to_every_digit(s):
    # Two Gaussians of noise multiplier s on one Poisson sample are one of σ = s/√2: σ was rounded to 60 decimal
    # places, so s = 1e-50 was 2.4e-10 too high at order 2, and s = 1e-62 became σ = 0 (∞, "non-private").
    import mpmath

    from rdpsym.peers.events import from_dp_event

    g = dpa.GaussianDpEvent(float(s))
    curve = from_dp_event(dpa.PoissonSampledDpEvent(0.5, dpa.ComposedDpEvent([g, g])))
    with mpmath.workdps(80):  # rdpsym reads a peer's float as the value it holds, as the peer computes with it
        want = _sampled_gaussian_d2(mpmath.mpf("0.5"), 2 / mpmath.mpf(float(s)) ** 2, 40)
    got = curve.value(2, dps=40)
    with mpmath.workdps(60):
        assert abs(got - want) <= mpmath.mpf(10) ** -38 * abs(want), (got, want)


def test_a_hundred_digits_of_a_composed_gaussian_in_a_sample_are_right():
    import mpmath

    from rdpsym.peers.events import from_dp_event

    curve = from_dp_event(dpa.PoissonSampledDpEvent(0.5, dpa.SelfComposedDpEvent(dpa.GaussianDpEvent(1.0), 3)))
    want = _sampled_gaussian_d2(mpmath.mpf("0.5"), 3, 100)
    with mpmath.workdps(120):
        assert abs(curve.value(2, dps=100) - want) <= mpmath.mpf(10) ** -99 * want


@pytest.mark.parametrize("p, k", [(0.5, 2), (0.3, 5)])
def test_randomized_response_under_replace_special_is_dp_accountings_exact_curve(p, k):
    # A bucket's output law against the special value's uniform one, the larger direction; the substitution
    # curve (a bound) was used, and verify called dp_accounting's exact values unsafe.
    import mpmath

    from rdpsym.peers.events import from_dp_event

    relation = dpa.NeighboringRelation.REPLACE_SPECIAL
    accountant = rdp_accountant.RdpAccountant(orders=[2, 10], neighboring_relation=relation)
    accountant.compose(dpa.RandomizedResponseDpEvent(p, k), 3)
    curve = from_dp_event(accountant)
    with mpmath.workdps(50):
        pp = mpmath.mpf(p)  # a peer's probability is read as the value the float holds (exact in mpmath too)
        for a in (2, 10):
            direction = [mpmath.log((k * (1 - pp) + pp) ** x / k + (k - 1) * pp**x / k) / (a - 1) for x in (a, 1 - a)]
            want = 3 * max(direction)
            assert abs(curve.value(a, dps=40) - want) <= mpmath.mpf(10) ** -38 * want
    assert accountant.rdp == pytest.approx([float(curve.value(a, dps=20)) for a in (2, 10)], rel=1e-12)


def test_an_opacus_accountant_answers_for_its_conversion_and_digits_as_they_are_now():
    # The answer was cached by history, δ and orders only: after ``acc.conversion = "mironov"`` it still gave
    # the "best" conversion's ε.
    from rdpsym.peers.opacus import OpacusAccountant

    acc = OpacusAccountant(dps=20)
    acc.history = [(1.1, 0.01, 1000)]
    best = acc.get_epsilon(delta=1e-5)
    acc.conversion = "mironov"
    fresh = OpacusAccountant(conversion="mironov", dps=20)
    fresh.history = [(1.1, 0.01, 1000)]
    assert acc.get_epsilon(delta=1e-5) == fresh.get_epsilon(delta=1e-5) > best


def test_nothing_released_on_a_sample_costs_nothing():
    from rdpsym.peers.events import from_dp_event

    curve = from_dp_event(dpa.PoissonSampledDpEvent(0.1, dpa.NoOpDpEvent()))
    assert curve.value(2, dps=20) == 0


def test_an_unsupported_object_inside_a_composition_is_named_by_its_place():
    with pytest.raises(UnsupportedPeerObject, match=r"ComposedDpEvent\.events\[1\]: str is not supported"):
        rdpsym.from_dp_event(dpa.ComposedDpEvent([dpa.GaussianDpEvent(1.0), "a Gaussian"]))


def test_a_verification_with_an_infinite_order_among_finite_ones_prints():
    """The report sorted its orders by a key that compared an exact order with float('inf'): TypeError (an
    independent probe; on the command line a traceback and exit status 1, the code for "unsafe")."""
    import math

    v = rdpsym.verify(rdpsym.gaussian(sigma=2), orders=[math.inf, 3, 2], rdp=[math.inf, 0.375, 0.25])
    lines = [line for line in str(v).splitlines() if line.lstrip().startswith("α = ")]
    assert [line.split(":")[0].strip() for line in lines] == ["α = 2", "α = 3", "α = inf"]
    assert v.verdict == "agrees"


def test_nested_counts_past_the_ceiling_are_refused_by_the_event_not_as_steps():
    """Two nested SelfComposed counts of 10⁶⁰⁰ make one event counted 10¹²⁰⁰ times, past the ceiling of 10¹⁰⁰⁰; the
    error named "steps" (a field no event has) and "a positive integer" (which 10¹²⁰⁰ is), not the ceiling."""
    nested = dpa.SelfComposedDpEvent(dpa.SelfComposedDpEvent(dpa.GaussianDpEvent(1.0), 10**600), 10**600)
    with pytest.raises(ParameterError, match=r"an event's total count .* must be at most 10\^1000; got about 10\^1200"):
        rdpsym.from_dp_event(nested)
    within = dpa.SelfComposedDpEvent(dpa.SelfComposedDpEvent(dpa.GaussianDpEvent(1.0), 10**400), 10**500)
    assert rdpsym.from_dp_event(within) == rdpsym.gaussian(1).curve() * 10**900


def test_an_accountant_s_order_one_is_checked_as_its_kl_and_repeated_orders_once():
    """dp_accounting takes orders [1, 1.5, 2, 3] and [2, 2, 3] as they are; verify refused both (a probe): order 1
    was "not an order", and a repeated one "a list with duplicates" for the ε check.  Order 1 is now checked against
    the KL divergence (Mironov 2017, Definition 3's α → 1), where the curve has one (else said in a note, with the
    peer's value there; dp_accounting's NaN for a sampled Gaussian is invalid all the same), and the ε is sought over
    the orders above 1, each once."""
    g = rdpsym.gaussian(2)
    below = rdpsym.verify(g, orders=[1], rdp=[0.1])
    assert below.orders[0].direction == V.BELOW and below.unsafe  # KL = 1/8
    # a negative value or a NaN at an order rdpsym does not certify is no bound either
    sampled = rdpsym.sampled_gaussian(q=sp.Rational(1, 100), sigma=sp.Rational(11, 10))
    for told in (-1e-3, float("nan")):
        invalid = rdpsym.verify(sampled, orders=[1, 2], rdp=[told, 1.0])
        assert [c.direction for c in invalid.orders] == [V.INVALID, V.ABOVE] and invalid.verdict == "unsafe", invalid
    dpa = pytest.importorskip("dp_accounting")
    from dp_accounting.rdp import RdpAccountant
    for orders, event, notes in [([1, 1.5, 2, 3], dpa.GaussianDpEvent(2.0), 0), ([2, 2, 3], dpa.GaussianDpEvent(2.0), 0),
                                 ([1, 2, 4], dpa.PoissonSampledDpEvent(0.01, dpa.GaussianDpEvent(1.1)), 1)]:
        accountant = RdpAccountant(orders=orders)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # (dp_accounting's 0/0 at order 1)
            accountant.compose(event, 10)
            eps = accountant.get_epsilon(1e-5)
        v = rdpsym.verify(accountant, rdp=list(accountant._rdp), epsilon=eps, delta=1e-5, peer="dp-accounting")
        assert len(v.notes) == notes and len(v.orders) == len(orders), v
        if notes:
            # no certified KL for a sampled Gaussian, but a NaN is no bound at any value: invalid, not only a note
            # (it was "conservative": a probe)
            assert "order 1 (the KL divergence; the peer gave nan) not checked" in v.notes[0]
            one = v.orders[0]
            assert one.direction == V.INVALID and one.certified is None and v.verdict == "unsafe", v
            assert "α = 1: peer nan, certified none (not certified at this order)" in str(v)
        else:
            assert v.verdict != "unsafe", v


def test_an_opacus_accountant_keeps_a_float32_step_apart_from_float64_ones():
    """NumPy 2 compares np.float32(0.01) == 0.01 in float32 (True), so OpacusAccountant merged 999 float64 steps into
    one float32 entry, and its cache took a float64 history (or δ) for the float32 one it had answered: a certified ε
    of steps not taken, below the truth by 7·10⁻⁸ relative (a probe).  Steps and cache keys are compared by the exact
    values they hold."""
    np = pytest.importorskip("numpy")
    taken = rdpsym.OpacusAccountant(dps=20)
    taken.step(noise_multiplier=np.float32(1.1), sample_rate=np.float32(0.01))
    for _ in range(9):
        taken.step(noise_multiplier=1.1, sample_rate=0.01)
    assert taken.history == [(np.float32(1.1), np.float32(0.01), 1), (1.1, 0.01, 9)]
    assert [type(v) for v in taken.history[1][:2]] == [float, float]
    cached = rdpsym.OpacusAccountant(dps=20)
    cached.history = [(np.float32(1.1), np.float32(0.01), 10)]
    float32_eps = cached.get_epsilon(1e-5)
    cached.history = [(1.1, 0.01, 10)]
    float64_eps = cached.get_epsilon(1e-5)
    fresh = rdpsym.OpacusAccountant(dps=20)
    fresh.history = [(1.1, 0.01, 10)]
    assert float64_eps == fresh.get_epsilon(1e-5) != float32_eps
    assert cached.get_epsilon(np.float32(1e-5)) != float64_eps  # δ = 1e-5 in float32 is another δ


def test_a_negative_epsilon_is_false_only_below_one_minus_e_to_the_epsilon():
    """A review: every negative ε was invalid and counted unsafe; Opacus's −0.1034 at δ = 0.1 (one step, σ = 50,
    q = 1) holds, by the Gaussian's exact profile (Balle–Wang: δ(−0.1034) = 0.0982 ≤ 0.1).  A negative ε is false
    where δ < 1 − e^ε (the whole output space); above that rdpsym, which certifies ε ≥ 0, does not decide it."""
    with mpmath.workdps(40):  # Balle–Wang's δ(ε) = Φ(1/(2σ) − εσ) − e^ε Φ(−1/(2σ) − εσ), Δ = 1, any real ε
        e, s = mpmath.mpf(-0.10337490199719282), mpmath.mpf(50)
        truth = mpmath.ncdf(1 / (2 * s) - e * s) - mpmath.exp(e) * mpmath.ncdf(-1 / (2 * s) - e * s)
        assert 0.0982 < truth < 0.0983 < 0.1
    held = rdpsym.verify(rdpsym.gaussian(sigma=50), delta=0.1, epsilon=-0.10337490199719282, peer="opacus")
    assert held.epsilon.direction == V.NOT_DECIDED and not held.unsafe
    false = rdpsym.verify(rdpsym.gaussian(sigma=50), delta=0.1, epsilon=-5.0, peer="opacus")
    assert false.epsilon.direction == V.INVALID and false.unsafe and "1 − e^ε = 0.993263" in false.epsilon.cause
