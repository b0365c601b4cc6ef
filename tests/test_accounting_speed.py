"""The faster accounting gives the same certified results: nothing bought with the guarantee.

* the conversion that prunes orders (closed forms as r plus a kept constant, the TV/KL branch by a threshold,
  the optimal conversion skipped where a witness pair shows it cannot win) against every conversion certified
  at every order, one order at a time, by the single-order functions;
* the witness pair behind the pruning, rebuilt from its proof and checked with the finite laws' own Rényi
  and hockey-stick divergences;
* the float solve by Newton's method against the bracketing solver it replaces;
* the lazily built rows of a result: the same rows, compared, hashed and pickled as a tuple;
* the grid path: duplicates and mismatched lengths refused; a named grid's list, the kept constants and the
  ε after every epoch give what a fresh computation gives.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import pickle
import random
from fractions import Fraction

import pytest
import sympy as sp
from flint import arb, fmpq
from hypothesis import given, settings
from hypothesis import strategies as st

import rdpsym
from rdpsym.accounting.ball_cache import clear_cache
from rdpsym.accounting.conversions import (
    balle_epsilon,
    kl_delta,
    mironov_epsilon,
    optimal_epsilon,
    tightest_epsilon,
    tightest_epsilon_grid,
)
from rdpsym.accounting.conversions import optimal_estimates as est
from rdpsym.accounting.conversions import optimal_pairs as pairs
from rdpsym.accounting.conversions import tightest as tightest_module
from rdpsym.accounting.orders import DP_ACCOUNTING, MIRONOV
from rdpsym.accounting.rows import LazyRows
from rdpsym.claims.finite import hockey_stick, renyi
from rdpsym.foundations.balls import precision
from rdpsym.foundations.errors import DomainError, ParameterError

NAMES = ("mironov", "bbghs", "tv-kl", "optimal")


def _every_order(values, d, names=NAMES):
    """Every conversion at every order, each by its single-order function, nothing skipped: per order the
    (name, ball) of the least upper end (the first name on ties), and the order and value that win."""
    rows = []
    for order, r in values:
        if r == math.inf:
            rows.append((order, None, None))
            continue
        found = []
        for n in names:
            if n == "mironov":
                found.append((n, mironov_epsilon(order, r, d)))
            elif n == "bbghs":
                found.append((n, balle_epsilon(order, r, d)))
            elif n == "tv-kl":
                if d >= kl_delta(r):
                    found.append((n, arb(0)))
            else:
                b = optimal_epsilon(order, r, d)
                if b is not None:
                    found.append((n, b.value))
        name, value = None, None
        for n, v in found:
            if value is None or v.upper() < value.upper():
                name, value = n, v
        rows.append((order, name, value))
    win = None
    for i, (_, _, v) in enumerate(rows):
        if v is not None and (win is None or v.upper() < rows[win][2].upper()):
            win = i
    return rows, win


def _close(a: arb, b: arb, bits: int = 150) -> bool:
    return abs(a.upper() - b.upper()) <= (abs(a.upper()) + 1) * arb(2) ** -bits


#: The curves the grid tests convert, by label (made when a test asks: at collection, which every xdist worker does
#: for every module, deriving them cost each worker 1.4 s).
CURVES = ("DP-SGD, 10^4 steps", "MNIST, 1 epoch", "MNIST, 30 epochs", "Gaussian σ = 2, 4 steps", "Gaussian σ = 1, δ = 0.1",
          "Laplace")


def _curve(label: str) -> tuple:
    """(the curve, δ) of ``label``."""
    return next((curve, d) for name, curve, d in _curves() if name == label)


@functools.cache
def _curves():
    sg = rdpsym.sampled_gaussian(q=sp.Rational(1, 100), sigma=sp.Rational(11, 10)).curve()
    mnist = rdpsym.sampled_gaussian(q=sp.Rational(256, 60000), sigma=sp.Rational(11, 10)).curve() * 234
    return [
        ("DP-SGD, 10^4 steps", sg * 10_000, fmpq(1, 10**5)),
        ("MNIST, 1 epoch", mnist, fmpq(1, 10**5)),
        ("MNIST, 30 epochs", mnist * 30, fmpq(1, 10**5)),
        ("Gaussian σ = 2, 4 steps", rdpsym.gaussian(sigma=2).curve() * 4, fmpq(1, 10**5)),
        ("Gaussian σ = 1, δ = 0.1", rdpsym.gaussian(sigma=1).curve(), fmpq(1, 10)),
        ("Laplace", rdpsym.laplace(scale=1).curve(), fmpq(1, 10**10)),
    ]


@pytest.mark.parametrize("label", CURVES)
def test_the_pruned_conversion_is_every_conversion_at_every_order(label):
    curve, d = _curve(label)
    grid = [a for a in DP_ACCOUNTING[::3]] + [math.inf]
    with precision(220):
        balls = [v if isinstance(v, arb) else math.inf for v in curve.balls(grid)]
        fast = tightest_epsilon_grid(tuple(grid), balls, d)
        rows, win = _every_order(list(zip(grid, balls)), d)
        # The same winning order and conversion, and the same value (two evaluations of one formula).
        assert (fast.order, fast.conversion) == (rows[win][0], rows[win][1]), label
        assert _close(fast.value, rows[win][2]), label
        # Every row: the closed forms' best where the optimal conversion was not needed, and never below what
        # the optimal conversion certifies there (the row is a valid bound, the optimum is the least).
        for row, (order, name, value) in zip(fast.per_order, rows):
            assert row.order == order
            if value is None:
                assert row.value == math.inf and row.reason
                continue
            assert row.value.upper() >= value.upper() - (abs(value.upper()) + 1) * arb(2) ** -150, (label, order)
            if row.conversion == "optimal" or name != "optimal":
                assert row.conversion == name and _close(row.value, value), (label, order)


@pytest.mark.parametrize("label", CURVES[:3])
def test_bbghs_alone_over_a_grid_is_balle_at_every_order(label):
    curve, d = _curve(label)
    with precision(220):
        balls = curve.balls(list(DP_ACCOUNTING))
        fast = tightest_epsilon_grid(DP_ACCOUNTING, balls, d, "bbghs")
        for row, order, r in zip(fast.per_order, DP_ACCOUNTING, balls):
            assert row.conversion == "bbghs" and _close(row.value, balle_epsilon(order, r, d), 180)
        assert fast.order == min(zip(DP_ACCOUNTING, balls), key=lambda p: balle_epsilon(p[0], p[1], d).upper())[0]


def test_the_tv_kl_threshold_decides_as_the_direct_test():
    # δ ≥ √(1 − e^{−r}) ⟺ r ≤ −log(1 − δ²): r just below, at and above the threshold, and far from it.
    d = fmpq(1, 1000)
    with precision(200):
        edge = -(-(arb(d) ** 2)).log1p()
        for r in (edge * (1 - arb(2) ** -60), edge.lower(), edge.upper(), edge * (1 + arb(2) ** -60), edge * 2,
                  edge / 2, arb(1)):
            r = r.mid() if isinstance(r, arb) else r
            t = tightest_epsilon_grid((fmpq(2),), [r], d, "tv-kl")
            if arb(d) >= kl_delta(r):
                assert t.value == 0 and t.conversion == "tv-kl"
            else:
                assert t.value == math.inf and "√(1 − e^(−r))" in t.per_order[0].reason


# --------------------------------------------------------------------------- the witness pair


def _witness_pair(order: fmpq, r: fmpq, d: fmpq):
    """The pair of witness_epsilon's proof, in 400-bit balls, as exact rationals (p, q)."""
    with precision(400):
        a, h, dd, rr = arb(order), arb(order - 1), arb(d), arb(r)
        v = a * dd
        big_m = (h * rr).exp()
        k = (big_m - (-a * v).exp()) / v
        l_min = (k / 2) ** (1 / h)
        theta = 1 - (1 - v) / l_min
        l1 = (theta * k) ** (1 / h)
        w = v / (l1 - (1 - v))
        p, q = (w * l1).mid(), w.mid()
    return tuple(fmpq(*_ratio(x)) for x in (p, q))


def _ratio(v: arb) -> tuple[int, int]:
    m, e = v.mid().man_exp()
    return (int(m) * 2 ** int(e), 1) if e >= 0 else (int(m), 2 ** -int(e))


@settings(max_examples=60, deadline=None)
@given(st.fractions(min_value=Fraction(11, 10), max_value=300, max_denominator=20),
       st.sampled_from([Fraction(1, 100), Fraction(1, 10), Fraction(1, 2), Fraction(2), Fraction(9), Fraction(40)]),
       st.sampled_from([Fraction(1, 10**k) for k in (2, 3, 5, 8, 12)]))
def test_the_witness_bound_is_attained_by_a_pair_and_is_below_the_optimum(order, r, d):
    a, rq, dq = fmpq(order.numerator, order.denominator), fmpq(r.numerator, r.denominator), fmpq(
        d.numerator, d.denominator)
    w = est.witness_epsilon(a, float(r), float(d))
    if w is None:
        return
    with precision(200):
        b = optimal_epsilon(a, rq, dq)
        if b is not None:
            assert w <= float(b.value.upper())  # below the certified optimum (and in practice below its witness)
    if a * dq >= 1:
        return  # the corner: the optimum itself, certified by optimal_epsilon's own witness
    p, q = _witness_pair(a, rq, dq)
    with precision(400):
        law_p, law_q = (p, 1 - p), (q, 1 - q)
        assert renyi(law_p, law_q, a) <= rq  # D_α(P‖Q) ≤ r: the pair is (α, r)-RDP
        # and at ε = the bound it is not (ε, δ)-DP: no conversion of (α, r) certifies a smaller ε.
        assert hockey_stick(law_p, law_q, arb(w)) >= dq


def test_the_loose_witness_bound_is_below_the_full_one():
    random.seed(11)
    for _ in range(500):
        order = fmpq(random.randint(110, 20000), 100)
        r, d = 10 ** random.uniform(-3, 2.5), 10 ** random.uniform(-15, -1)
        terms = est.witness_terms(order, d)
        full = est.witness_from(terms, r)
        loose = est.witness_from(terms, r, above=-math.inf)
        if full is not None and loose is not None:
            assert loose <= full + 1e-9 * (1 + abs(full))


def test_newton_float_solve_finds_the_bracketing_solvers_point():
    random.seed(5)
    agreed = 0
    for _ in range(400):
        a = max(1.001, random.choice([1.01, 1.5, 2, 4.7, 16, 256, 1e4]) * random.uniform(0.95, 1.05))
        r, d = 10 ** random.uniform(-4, 2.5), 10 ** random.uniform(-30, -0.5)
        if a * d >= 1:
            continue
        try:
            ref = pairs._solve_float(a, (a - 1) * r, math.log(d), "delta")
        except Exception:  # noqa: BLE001 -- the bracketing solver's own failures are not under test
            continue
        found = pairs._solve_newton(a, (a - 1) * r, math.log(d))
        if found is None:
            continue
        agreed += 1
        assert abs(found[0] - ref[0]) <= 1e-8 * (1 + abs(ref[0])) and abs(found[1] - ref[1]) <= 1e-8 * (1 + abs(ref[1]))
    assert agreed > 300


# --------------------------------------------------------------------------- lazy rows, the grid path


def test_lazy_rows_compare_hash_and_pickle_as_the_tuple():
    built = []
    rows = LazyRows(lambda: built.append(1) or (1, 2, 3))
    assert not built  # nothing built until read
    assert rows == (1, 2, 3) and (1, 2, 3) == rows and rows != (1, 2) and hash(rows) == hash((1, 2, 3))
    assert len(built) == 1 and list(rows) == [1, 2, 3] and rows[1:] == (2, 3) and len(built) == 1
    assert pickle.loads(pickle.dumps(rows)) == (1, 2, 3)


def test_a_result_with_lazy_rows_is_the_result_with_its_rows_built():
    c = rdpsym.sampled_gaussian(q=sp.Rational(1, 100), sigma=sp.Rational(11, 10)).curve() * 1000
    r = rdpsym.epsilon(c, delta=1e-5, dps=30)
    assert isinstance(r.per_order, LazyRows)
    eager = dataclasses.replace(r, per_order=tuple(r.per_order))
    assert eager == r and hash(eager) == hash(r) and str(eager) == str(r) and eager.as_dict() == r.as_dict()
    back = pickle.loads(pickle.dumps(r))
    assert back == r and type(back.per_order) is tuple and back.per_order[0].rdp.dps == 30
    assert len(r.per_order) == len(DP_ACCOUNTING) + 1 and r.per_order[-1].order == math.inf


def test_the_grid_path_checks_its_orders():
    with precision(100):
        with pytest.raises(ParameterError, match=r"^the orders must be distinct; got 2 twice\.$"):
            tightest_epsilon_grid([fmpq(2), 3, Fraction(2)], [1, 1, 1], fmpq(1, 10))
        with pytest.raises(ParameterError, match="orders and values must be nonempty and of one length"):
            tightest_epsilon_grid([2, 3], [1], fmpq(1, 10))
        with pytest.raises(DomainError):
            tightest_epsilon_grid([1, 3], [1, 1], fmpq(1, 10))
        # The public list-of-pairs form gives the same.
        pairs = [(o, fmpq(o, 2)) for o in MIRONOV[:-1]]
        a = tightest_epsilon(pairs, fmpq(1, 10**5))
        b = tightest_epsilon_grid([o for o, _ in pairs], [r for _, r in pairs], fmpq(1, 10**5))
        assert (a.order, a.conversion, a.value.upper()) == (b.order, b.conversion, b.value.upper())


def test_kept_constants_and_named_grid_lists_change_nothing():
    c = rdpsym.gaussian(sigma=2).curve() * 4
    first = rdpsym.epsilon(c, delta=1e-5, orders="dp-accounting", dps=40)
    tightest_module._CONSTANTS.clear()
    fresh = rdpsym.epsilon(c, delta=1e-5, orders=list(DP_ACCOUNTING), dps=40)
    again = rdpsym.epsilon(c, delta=1e-5, orders=[Fraction(int(a.p), int(a.q)) for a in DP_ACCOUNTING], dps=40)
    assert first == fresh == again


def test_epsilon_after_every_epoch_is_epsilon_of_the_fresh_composition():
    step = rdpsym.sampled_gaussian(q=sp.Rational(256, 60000), sigma=sp.Rational(11, 10)).curve() * 234
    clear_cache()
    curve, grown = None, []
    for _ in range(6):
        curve = step if curve is None else curve + step
        grown.append(rdpsym.epsilon(curve, delta=1e-5, dps=40))
    for k, r in enumerate(grown, start=1):
        clear_cache()
        tightest_module._CONSTANTS.clear()
        fresh = rdpsym.epsilon(step * k, delta=1e-5, dps=40)
        assert (r.value, r.order, r.conversion, r.enclosure) == (fresh.value, fresh.order, fresh.conversion,
                                                                 fresh.enclosure)
