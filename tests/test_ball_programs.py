"""SymPy expressions read once into programs of Arb operations (rdpsym.foundations.ball_programs), run at many points.

A program is kept per expression and run at whatever precision its caller is in, so what it holds must not depend on
the precision it was read at; a part no ball can evaluate must fail only where it is reached; and every ball must
contain the exact value, checked here against mpmath at twice the bits on a seeded sample of expressions.
"""

from __future__ import annotations

import random

import mpmath
import pytest
import sympy as sp
from flint import arb, fmpq

from rdpsym.foundations.ball_programs import program
from rdpsym.foundations.balls import decide_in_balls, precision, to_arb
from rdpsym.foundations.errors import InfiniteValue, NotCertifiable, OutsideDomain, Undecided

x, y = sp.Symbol("x", positive=True), sp.Symbol("y")


def test_a_program_read_at_a_low_precision_runs_at_the_high_one_it_is_called_at():
    third_plus_log = sp.Rational(1, 3) * sp.log(x) + sp.pi
    with precision(32):
        low = to_arb(third_plus_log, {x: 7})  # (read, and kept, at 32 bits)
    with precision(1024):
        high = to_arb(third_plus_log, {x: 7})
        exact = arb(fmpq(1, 3)) * arb(7).log() + arb.pi()
    assert low.rel_accuracy_bits() < 40
    assert high.rel_accuracy_bits() > 1000 and high.overlaps(exact)


def test_equal_expressions_share_one_kept_program_and_unequal_ones_do_not():
    assert program(sp.exp(x) + 1) is program(1 + sp.exp(sp.Symbol("x", positive=True)))
    assert program(sp.exp(x) + 1) is not program(sp.exp(sp.Symbol("x")) + 1)  # (other assumptions: another symbol)


def test_a_part_no_ball_evaluates_fails_only_where_it_is_reached():
    unknown = sp.Function("f")(x)
    form = sp.Piecewise((1 / x, x > 1), (unknown, True))
    with precision(128):
        assert to_arb(form, {x: 2}) == arb(1) / 2
        with pytest.raises(NotCertifiable, match=r"no certified evaluation for f: f\(x\)"):
            to_arb(form, {x: sp.Rational(1, 2)})
        with pytest.raises(InfiniteValue, match=r"\+oo where x < 1"):
            to_arb(sp.Piecewise((sp.oo, x < 1), (x, True)), {x: sp.Rational(1, 2)})
        with pytest.raises(OutsideDomain, match=r"log of a number <= 0: log\(y - 1\)"):
            to_arb(sp.log(y - 1), {y: 0})
        with pytest.raises(Undecided, match="cannot decide with balls"):
            decide_in_balls(sp.Eq(y, 1), {y: arb(1) + arb(2) ** -200 * arb("0 +/- 1")})
        with pytest.raises(NotCertifiable, match="for Symbol: y"):  # (a symbol given no value)
            to_arb(x + y, {x: 1})


def test_a_value_given_to_a_part_of_the_expression_is_read_there():
    f = sp.Function("f")(x)
    with precision(128):
        assert to_arb(f + x, {f: 2, x: 3}) == 5
        assert decide_in_balls(f > x, {f: 4, x: 3}) is True


# ------------------------------------------------------------------ every ball contains the value


_LEAVES = (x, y, sp.Integer(3), sp.Rational(-2, 7), sp.Float("0.375", 30), sp.pi, sp.E)
_ONE = (sp.exp, sp.log, sp.sqrt, sp.erf, sp.erfc, sp.tanh, sp.atan, sp.Abs, sp.gamma, sp.cos, sp.sinh)


def _expression(rng: random.Random, depth: int) -> sp.Expr:
    if depth == 0 or rng.random() < 0.3:
        return rng.choice(_LEAVES)
    r = rng.random()
    if r < 0.25:
        return _expression(rng, depth - 1) + _expression(rng, depth - 1)
    if r < 0.5:
        return _expression(rng, depth - 1) * _expression(rng, depth - 1)
    if r < 0.6:
        return _expression(rng, depth - 1) ** rng.choice([2, -1, sp.Rational(1, 2), x])
    return rng.choice(_ONE)(_expression(rng, depth - 1))


def _sample(count: int) -> list[tuple[sp.Expr, dict]]:
    rng, out = random.Random(20261207), []
    while len(out) < count:
        try:
            e = _expression(rng, 3)
        except (TypeError, ValueError):  # (a comparison SymPy refuses to build)
            continue
        if e.free_symbols and not e.is_number or len(out) % 5 == 0:
            out.append((e, {x: sp.Rational(rng.randint(1, 40), rng.randint(1, 9)), y: sp.Rational(rng.randint(-30, 30), 7)}))
    return out


@pytest.mark.parametrize("bits", [64, 256])
def test_every_ball_of_a_sample_of_expressions_contains_mpmath_s_value_at_twice_the_bits(bits):
    decided = 0
    for e, point in _sample(150):
        with precision(bits):
            try:
                ball = to_arb(e, point)
            except (NotCertifiable, Undecided, OutsideDomain, InfiniteValue):
                continue
        with mpmath.workprec(2 * bits + 64):
            try:
                value = sp.lambdify((x, y), e, "mpmath")(*(mpmath.mpf(point[s].p) / point[s].q for s in (x, y)))
            except (ValueError, ZeroDivisionError, OverflowError):
                continue
            if not isinstance(value, mpmath.mpf) or not mpmath.isfinite(value):
                continue
        if not ball.is_finite():
            continue
        with precision(2 * bits + 64):
            sign, mantissa, exponent, _ = value._mpf_
            exact = arb(-int(mantissa) if sign else int(mantissa)) * arb(2) ** int(exponent)
            # (mpmath's value is within a few ulps of 2·bits: a ball at `bits` must hold it up to that)
            slack = arb(0, abs(exact).mid() * arb(2) ** (-2 * bits) + arb(2) ** (-2 * bits))
            assert (ball + slack).overlaps(exact), (e, point, ball, value)
        decided += 1
    assert decided > 60
