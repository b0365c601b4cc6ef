"""The numbers the notebooks' prose states, pinned with the package's public API.

tests/test_notebooks.py runs every notebook but cannot read its prose.  Each test here recomputes, with
the same calls the notebook makes, the fact a sentence of notebooks/NN_*.py states ("within 15 %",
"crosses between α = 7 and 9", ...), so a package change that makes a sentence false fails here,
naming the notebook to fix.  The bounds in the prose are chosen with margin; these tests check them.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
import sympy as sp
from flint import arb

import rdpsym
from rdpsym.accounting import conversions as conv
from rdpsym.accounting.conversions import precision
from rdpsym.render.plots import budget_data, conversion_data

DELTA = Fraction(1, 10**5)
KS = (1, 10, 100, 1000)


# --------------------------------------------------------------------------- 03_budget_curves


def test_03_gaussian_crosses_laplace_and_rr_between_orders_7_and_9():
    three = [rdpsym.laplace(scale=1), rdpsym.gaussian(sigma=2), rdpsym.randomized_response(sp.Rational(3, 4))]
    lap, gauss, rr = budget_data(three, orders=[Fraction(101, 100), 2, 7, 9])
    for other in (lap, rr):
        assert all(g < o for g, o in zip(gauss.y[:3], other.y[:3]))  # below both at α = 1.01, 2 and 7
        assert gauss.y[3] > other.y[3]                                # above both at α = 9


# --------------------------------------------------------------------------- 04_composition_and_conversion


@pytest.fixture(scope="module")
def gaussian_table():
    """Per k: (Prop 3, Balle et al., exact, DRV with the half-and-half split), as the notebook computes them."""
    rows = {}
    for k in KS:
        curve = rdpsym.gaussian(sigma=10).curve() * k
        prop3 = float(rdpsym.epsilon(curve, delta=DELTA, orders="continuous", conversion="mironov", dps=20).value)
        balle, exact = conversion_data([rdpsym.gaussian(sigma=10)], deltas=[DELTA], steps=k, exact=True,
                                       orders="continuous", conversion="bbghs", dps=20)
        with precision(128):
            eps0 = conv.gaussian_epsilon(DELTA / (2 * k), 10)
            drv = float(conv.advanced_composition(eps0, k, DELTA / 2).mid())
        rows[k] = (prop3, balle.y[0], exact.y[0], drv)
    return rows


def test_04_exact_column_is_the_gaussian_with_sigma_over_root_k_for_every_k(gaussian_table):
    # The notebook's "exact" column for k that are not squares (10, 1000): G_σ composed k times is G_{σ/√k},
    # to float precision (√k was once formed at flint's ambient 53 bits: 1e-11 relative for non-square k).
    with precision(128):
        for k in KS:
            reference = conv.gaussian_epsilon(DELTA, arb(10) / arb(k).sqrt())
            assert abs(gaussian_table[k][2] / float(reference.mid()) - 1) < 1e-14


def test_04_gaussian_ratios_stated_in_the_prose(gaussian_table):
    ratios = {k: [v / row[2] for v in row] for k, row in gaussian_table.items()}
    balle = [ratios[k][1] for k in KS]
    prop3 = [ratios[k][0] for k in KS]
    drv = [ratios[k][3] for k in KS]
    assert all(1 < b < 1.15 for b in balle)                # "within 15 % of the exact value at every k shown"
    assert balle == sorted(balle, reverse=True)             # "and closer as k grows"
    assert all(p > b for p, b in zip(prop3, balle))         # "Proposition 3 itself loses more"
    assert max(prop3) < 1.5 and max(prop3) == prop3[0]      # "(under 1.5× here), most at small k"
    assert drv[0] > 3 and drv[-1] > 20                      # "several times ... at k = 1, more than 20 times at 1000"


def test_04_pure_dp_rdp_within_10_percent_of_kov_from_k_10():
    eps = Fraction(1, 10)
    for k in KS:
        composed = rdpsym.pure_dp(eps).curve() * k
        result = rdpsym.epsilon(composed, delta=DELTA, orders="continuous", dps=20)
        rdp = float(result.value)
        with precision(128):
            kov = float(conv.kov_epsilon(eps, k, DELTA).mid())
            drv = float(conv.advanced_composition(eps, k, DELTA).mid())
            zcdp = float(conv.advanced_composition_zcdp(eps, k, DELTA).mid())
        assert rdp < drv and rdp < zcdp                      # "below both forms of advanced composition"
        if k >= 10:
            assert rdp / kov < 1.10                          # "from k = 10 on, within 10 % of the optimum"
        if k == 1:  # "gives back the ε it started from, at α = ∞ ... only the exact curve does slightly better"
            assert result.order == math.inf and rdp == float(composed.value(math.inf)) == float(eps) and kov < rdp


# --------------------------------------------------------------------------- 05_dpsgd_accounting


def test_05_dp_accounting_within_tolerance_and_input_rounding_below_1e_15():
    dp = pytest.importorskip("dp_accounting")
    from rdpsym.accounting.orders import DP_ACCOUNTING
    from rdpsym.peers.audit import TOLERANCE, classify

    batch, n, steps = 256, 60_000, 60 * 60_000 // 256
    accountant = dp.rdp.RdpAccountant(orders=[float(a) for a in DP_ACCOUNTING])
    event = dp.PoissonSampledDpEvent(batch / n, dp.GaussianDpEvent(1.1))
    accountant.compose(dp.SelfComposedDpEvent(event, steps))
    peer_eps, _ = accountant.get_epsilon_and_optimal_order(1e-5)
    exact = rdpsym.sampled_gaussian(q=sp.Rational(batch, n), sigma=sp.Rational(11, 10)).curve() * steps
    doubles = rdpsym.sampled_gaussian(q=sp.Rational(Fraction(batch / n)), sigma=sp.Rational(Fraction(1.1))).curve()
    ours = rdpsym.epsilon(exact, delta=1e-5, orders="dp-accounting", dps=50)
    ours_doubles = rdpsym.epsilon(doubles * steps, delta=1e-5, orders="dp-accounting", dps=50)
    cause, rel = classify(float(peer_eps), ours_doubles.enclosure)
    assert cause is None and rel <= TOLERANCE == 1e-9            # "within the audit's tolerance of 1e-9 relative"
    assert abs(float((ours.enclosure - ours_doubles.enclosure).mid())) < 1e-15  # "by less than 1e-15"


# --------------------------------------------------------------------------- 06_your_own_mechanism_and_claim


def test_06_laplace_below_the_worst_log2_dp_mechanism():
    laplace, worst = budget_data([rdpsym.laplace(scale=1 / sp.log(2)).curve(), rdpsym.pure_dp(sp.log(2)).curve()],
                                 orders=[Fraction(101, 100), 2, 10, 100, 1000])
    assert all(a < b for a, b in zip(laplace.y, worst.y))  # "the Laplace mechanism is better at every finite order"
    basic = (rdpsym.pure_dp(sp.log(2)).curve() * 100).value(sp.oo)
    assert abs(float(basic) - 100 * math.log(2)) < 1e-12
