"""Parameters declared in an interval (rdpsym.parameter): 0 < p < 1, q ≤ 1, p + r < 1 as r ∈ (0, 1 − p).

Each is honoured where a derivation decides a sign (the supports' order, a condition's tidy form), where a
closed form is checked (the sampled points lie inside), and where a value is read (outside is refused by name).
"""

from __future__ import annotations

import itertools
import pickle

import pytest
import sympy as sp

import rdpsym
from rdpsym.derive.sampling import sample_points
from rdpsym.engine.context import Hypotheses, tidy_condition
from rdpsym.foundations.errors import ParameterError

x = sp.Symbol("x", real=True)
R = sp.Rational


def test_a_parameter_is_a_symbol_with_its_interval():
    p = rdpsym.parameter("p", 0, 1)
    q = rdpsym.parameter("q", 0, 1, closed="upper")
    assert p.is_positive and p.interval == sp.Interval.open(0, 1) and q.interval == sp.Interval.Lopen(0, 1)
    assert p == rdpsym.parameter("p", 0, 1) and p != sp.Symbol("p", positive=True)
    assert p != rdpsym.parameter("p", 0, 2)
    assert rdpsym.parameter("m", -1, 0).is_negative and rdpsym.parameter("t", -1, 1).is_positive is None
    r = rdpsym.parameter("r", 0, 1 - p)
    assert pickle.loads(pickle.dumps(r)) == r and pickle.loads(pickle.dumps(r)).upper == 1 - p


@pytest.mark.parametrize(("args", "kwargs", "says"), [
    (("p", 1, 0), {}, "non-empty"),
    (("p", 1, 1), {}, "non-empty"),
    (("p", 0, sp.Symbol("c", positive=True)), {}, "made by rdpsym.parameter"),
    (("__import__('os')", 0, 1), {}, "an identifier"),
    (("p", 0, 1), {"closed": "left"}, "'lower'"),
    (("p", "1/0", 2), {}, "lower"),
])
def test_a_bad_declaration_is_refused_by_name(args, kwargs, says):
    with pytest.raises(ParameterError, match=says):
        rdpsym.parameter(*args, **kwargs)


def test_a_value_outside_the_interval_is_refused_by_name():
    p = rdpsym.parameter("p", 0, 1)
    law = rdpsym.Discrete({0: p, 1: 1 - p})
    assert law.subs({"p": R(1, 4)}).table == {0: R(1, 4), 1: R(3, 4)}
    with pytest.raises(ParameterError, match=r"p must be in its declared interval Interval.open\(0, 1\); got 2"):
        law.subs({"p": 2})
    r = rdpsym.parameter("r", 0, 1 - p)  # p + r < 1
    three = rdpsym.Discrete({0: p, 1: r, 2: 1 - p - r})
    assert three.subs({"p": R(1, 2), "r": R(1, 4)}).table[2] == R(1, 4)
    with pytest.raises(ParameterError, match=r"r must be in its declared interval Interval.open\(0, 1/2\); got 3/4"):
        three.subs({"p": R(1, 2), "r": R(3, 4)})


def test_sign_decisions_read_the_intervals():
    p = rdpsym.parameter("p", 0, 1)
    r = rdpsym.parameter("r", 0, 1 - p)
    h = Hypotheses()
    assert h.is_positive(1 - p) and h.is_positive(1 - p - r) and h.is_negative(p - 1)
    assert h.is_positive(p - R(1, 2)) is None
    assert h.is_positive(rdpsym.parameter("q", R(1, 2), 1) - R(1, 2))


def test_a_condition_whose_every_factor_has_a_known_sign_keeps_its_direction():
    """1 − c ≥ 0 with c ∈ (0, 1): its one factor has a known sign, and dropping it with its flip wrote c ≥ 1."""
    c = rdpsym.parameter("c", 0, 1)
    tidy = tidy_condition(sp.GreaterThan(1 - c, 0, evaluate=False), Hypotheses())
    assert tidy.subs(c, R(1, 2)) == sp.true and tidy.subs(c, 2) == sp.false


def test_points_are_drawn_inside_the_intervals_dependent_ends_included():
    p = rdpsym.parameter("p", 0, 1)
    r = rdpsym.parameter("r", 0, 1 - p)
    s = rdpsym.parameter("s", 2, sp.oo, closed="lower")
    points = [point for point, _ in itertools.islice(sample_points([r, s], None, seed=3), 60)]
    assert all(set(point) == {r, s} for point in points)  # p is drawn for r's end, and not handed out
    assert all(0 < point[r] < 1 and point[s] > 2 for point in points)
    assert len({point[r] for point in points}) > 5
    both = [point for point, _ in itertools.islice(sample_points([p, r], None, seed=3), 60)]
    assert all(0 < point[p] < 1 and 0 < point[r] < 1 - point[p] for point in both)


def test_supports_ordered_by_the_interval_give_the_answer_without_cases():
    """Uniform[0, 1] against Uniform[0, c]: with c > 0 only, two cases (c ≥ 1 finite, else ∞); with c ∈ (0, 1)
    declared, the answer is ∞ (P > 0 = Q on (c, 1)) the other way round −log c, both checked."""
    c = rdpsym.parameter("c", 0, 1)
    unit = rdpsym.Continuous(sp.S.One, x, support=sp.Interval(0, 1))
    short = rdpsym.Continuous(1 / c, x, support=sp.Interval(0, c))
    forward, backward = rdpsym.renyi_divergence(unit, short, 2), rdpsym.renyi_divergence(short, unit, 2)
    assert forward.result == sp.oo and forward.status == rdpsym.Status.CHECKED
    assert backward.result == -sp.log(c) and backward.status == rdpsym.Status.CHECKED
    wide = rdpsym.parameter("c", 0, 2)  # both cases possible: the split stays, each case checked
    split = rdpsym.renyi_divergence(rdpsym.Continuous(1 / wide, x, support=sp.Interval(0, wide)), unit, 2)
    assert isinstance(split.result, sp.Piecewise) and split.result.subs(wide, R(3, 2)) == sp.oo
    assert split.result.subs(wide, R(1, 2)) == sp.log(2)


@pytest.mark.parametrize("order", [2, 1])
def test_a_case_split_keeps_the_interval_of_the_parameter_it_splits(order):
    """A probe: two triangular laws on [0, 1], modes 1/2 and c ∈ (0, 1) declared: the split on the sign of c − 1/2
    wrote c = 1/2 + δ with δ > 0 only, and could not place the kink 1/2 + δ inside (0, 1): refused, asking for sign
    assumptions the user had given.  δ now carries the interval (0, 1/2); each case is derived and checked, and the
    value at c = 3/4 and c = 1/4 (equal, by symmetry) is the one derived at those numbers."""
    c = rdpsym.parameter("c", 0, 1)
    tri = lambda m: rdpsym.Continuous(sp.Piecewise((2 * x / m, x < m), (2 * (1 - x) / (1 - m), True)), x,  # noqa: E731
                                      support=sp.Interval(0, 1))
    d = rdpsym.renyi_divergence(tri(R(1, 2)), tri(c), order)
    assert d.status == rdpsym.Status.CHECKED and "delta" not in str(d.result)
    at = rdpsym.renyi_divergence(tri(R(1, 2)), tri(R(3, 4)), order).evalf(dps=30)
    assert abs(d.evalf({c: R(3, 4)}, dps=30) - at) < 1e-28 and abs(d.evalf({c: R(1, 4)}, dps=30) - at) < 1e-28


def test_an_order_declared_in_an_interval_is_derived_and_checked_inside_it():
    """A probe: an order t = parameter("t", 0, 1) was checked at t = 7, and the correct −t·log 2/(t − 1) of U(0, 2)
    against U(0, 1) refused as disagreeing with the definition there; with t in (2, 3) the correct ∞ was refused at
    t = 11/10.  An order declared on one side of 1 is derived there alone, and checked at orders inside its interval."""
    x = sp.Symbol("x", real=True)
    wide = rdpsym.Continuous(sp.S(1) / 2, x, support=sp.Interval(0, 2))
    unit = rdpsym.Continuous(sp.S(1), x, support=sp.Interval(0, 1))
    root = rdpsym.Continuous(1 / (2 * sp.sqrt(x)), x, support=sp.Interval(0, 1))
    t = rdpsym.parameter("t", 0, 1)
    below = rdpsym.renyi_divergence(wide, unit, t)
    assert below.status == "checked" and sp.simplify(below.result + t * sp.log(2) / (t - 1)) == 0
    assert all(0 < dict(e.point)[t] < 1 for e in below.evidence if type(e).__name__ == "AgreesWithDefinition")
    between = rdpsym.parameter("t", 2, 3)
    above = rdpsym.renyi_divergence(root, unit, between)
    assert above.status == "checked" and above.result == sp.oo


def test_evalf_refuses_a_value_for_a_symbol_the_derivation_does_not_have():
    """A probe: evalf({'sigma': 1, 'alpha': 2, 'foo': 3}) passed over 'foo' (a misspelt name is computed without its
    value); a law's parameter that the result lost (μ of a shift) is still accepted."""
    x, mu, s = sp.Symbol("x", real=True), sp.Symbol("mu", real=True), sp.Symbol("sigma", positive=True)
    normal = lambda m: rdpsym.Continuous(sp.exp(-(x - m) ** 2 / (2 * s**2)) / (sp.sqrt(2 * sp.pi) * s), x)  # noqa: E731
    d = rdpsym.renyi_divergence(normal(mu), normal(mu + 1), rdpsym.alpha)
    assert d.evalf({"sigma": 1, "alpha": 2, "mu": 3}) == d.evalf({"sigma": 1, "alpha": 2}) == 1
    with pytest.raises(ParameterError, match="got also 'foo'"):
        d.evalf({"sigma": 1, "alpha": 2, "foo": 3})
