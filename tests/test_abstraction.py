"""Laws with numbers derived as the family their numbers sit in (rdpsym.derive.abstraction).

Each value is compared with mpmath's own quadrature or Euler's integral, computed here.
"""

from __future__ import annotations

import dataclasses

import mpmath
import sympy as sp

import rdpsym
from rdpsym.derive import abstraction, univariate
from rdpsym.derive.verify import check_against_definition
from rdpsym.engine.context import Hypotheses
from rdpsym.foundations.errors import NoClosedFormError
from rdpsym.foundations.record import Specialised
from rdpsym.render.reasons import rule_latex, rule_text

x = sp.Symbol("x", real=True)
R = sp.Rational


def beta_law(a, b):
    return rdpsym.Continuous(x ** (a - 1) * (1 - x) ** (b - 1) / sp.beta(a, b), x, support=sp.Interval(0, 1))


def expected_beta_pair(order):
    """D_α(B(3/2, 5/2) ‖ B(5/2, 3/2)) = log[B(5/2 − α, 3/2 + α) / (B(3/2, 5/2)^α B(5/2, 3/2)^{1−α})]/(α − 1)."""
    with mpmath.workdps(50):
        a = mpmath.mpf(order.p) / order.q
        return mpmath.log(mpmath.beta(2.5 - a, 1.5 + a) / (mpmath.beta(1.5, 2.5) ** a
                                                            * mpmath.beta(2.5, 1.5) ** (1 - a))) / (a - 1)


def agrees(value, expected) -> bool:
    with mpmath.workdps(50):
        return abs(mpmath.mpf(sp.N(value, 50)) - expected) < mpmath.mpf(10) ** -35


def test_the_numbers_beside_the_variable_become_one_symbol_per_size():
    P, Q, values = abstraction.abstracted(beta_law(R(3, 2), R(5, 2)), beta_law(R(5, 2), R(3, 2)))
    assert sorted(values.values()) == [R(1, 2), R(3, 2), R(15, 4)]  # the exponents, and 1/B(3/2, 5/2)'s 15/4
    a, b = sorted(values, key=values.get)[:2]
    # the two laws share the symbols: x^a (1 − x)^b against x^b (1 − x)^a, the Beta family itself
    assert P.expr.has(x ** a) and Q.expr.has(x ** b)
    gumbel = rdpsym.Continuous(sp.exp(-(x / 2 + sp.exp(-x / 2))) / 2, x)
    G, _, values = abstraction.abstracted(gumbel, gumbel)
    (c,) = values
    assert G.expr == c * sp.exp(-c * x - sp.exp(-c * x))  # the rate and the scale's 1/2 are one parameter


def test_a_table_or_a_law_without_shape_numbers_is_not_abstracted():
    table = rdpsym.Discrete({0: R(1, 3), 1: R(2, 3)})
    assert abstraction.abstracted(table, table) is None
    exponential = rdpsym.Continuous(sp.exp(-x), x, support=sp.Interval(0, sp.oo))
    assert abstraction.abstracted(exponential, exponential) is None
    normal = rdpsym.Continuous(sp.exp(-x ** 2 / 2) / sp.sqrt(2 * sp.pi), x)
    N, _, values = abstraction.abstracted(normal, normal)
    (c,) = values
    assert values[c] == R(1, 2) and N.expr.has(sp.exp(-c * x ** 2))  # x²'s 2 is the Gaussian shape: kept


def test_the_family_at_the_numbers_is_verified_there():
    P, Q, order = beta_law(R(3, 2), R(5, 2)), beta_law(R(5, 2), R(3, 2)), R(7, 3)
    d = univariate._family_at_the_numbers(P, Q, order, ())
    (step,) = d.steps
    assert step.rule.general.free_symbols == {s for s, _ in step.rule.values}  # derived for symbols, specialised
    assert agrees(d.result, expected_beta_pair(order))
    assert d.evidence and d.status.value == "checked"


def test_a_wrong_specialisation_is_refused_by_the_definition():
    P, Q, order = beta_law(R(3, 2), R(5, 2)), beta_law(R(5, 2), R(3, 2)), R(7, 3)
    # a "family" whose result is off by 1/1000: the definition at the numbers refuses it
    right = univariate._family_at_the_numbers(P, Q, order, ()).steps[0].rule
    values = dict(right.values)
    wrong = abstraction.by_abstraction(
        P, Q, order, lambda *laws: dataclasses.replace(right_derivation(right), result=right.general + R(1, 1000)),
        lambda v: check_against_definition(P, Q, order, v, (), Hypotheses()))
    assert wrong is None and values


def right_derivation(rule):
    return rdpsym.Derivation(order=R(7, 3), result=rule.general, status=rdpsym.Status.CHECKED, steps=())


def test_numbers_that_defeat_the_direct_route_get_the_familys_closed_form(monkeypatch):
    # The route for laws with numbers made to fail as SymPy does on some numbers (the family, with symbols, is not):
    # the answer is then the family's closed form at the numbers, checked, not the definition's number.
    direct = univariate._finite

    def fails_for_numbers(P, Q, order, *rest):
        if not (P.parameters | Q.parameters):
            raise NoClosedFormError("sympy.integrate needs the condition Ne(...) (as for some numbers)")
        return direct(P, Q, order, *rest)

    monkeypatch.setattr(univariate, "_finite", fails_for_numbers)
    d = univariate.univariate_divergence(beta_law(R(3, 2), R(5, 2)), beta_law(R(5, 2), R(3, 2)), R(7, 3))
    assert d.status.value == "checked" and isinstance(d.result, sp.Expr)
    assert agrees(d.result, expected_beta_pair(R(7, 3)))
    (step,) = [s for s in d.steps if isinstance(s.rule, Specialised)]
    assert "at the laws' numbers" in rule_text(step.rule)
    assert "$_" not in rule_latex(step.rule) and "c_{0}" in rule_latex(step.rule)  # the symbols typeset by name
