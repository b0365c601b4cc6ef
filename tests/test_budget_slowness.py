"""A budget's seconds are the reference machine's: a slower machine is given proportionally more CPU time.

On a machine 3.8× slower than the one the budgets were set on, a 1 s budget fired where it never did there, and
three outcomes changed (a skew-normal's D₂ = ∞ became "the integrand still grows"; a 2-D mixture's mass check
ran out).  These tests pin the scaling itself, not any machine's speed.
"""

from __future__ import annotations

import time

import pytest

from rdpsym.foundations import budget, budget_clocks


@pytest.mark.parametrize("given, want", [("3", 3.0), ("2.5", 2.5), ("100", budget_clocks.MAX_SLOWNESS),
                                         ("0.1", 1.0), ("nan", 1.0)])
def test_the_slowness_given_in_the_environment_is_used_within_its_range(monkeypatch, given, want):
    monkeypatch.setenv("RDPSYM_SLOWNESS", given)
    assert budget_clocks.slowness.__wrapped__() == want


@pytest.mark.parametrize("given", ["", "fast", "__import__('os')"])
def test_a_slowness_not_given_as_a_number_is_measured(monkeypatch, given):
    monkeypatch.setenv("RDPSYM_SLOWNESS", given)
    calls = []
    monkeypatch.setattr(budget_clocks, "_speed_probe",
                        lambda: calls.append(1) or 3 * budget_clocks.REFERENCE_PROBE_SECONDS)
    assert budget_clocks.slowness.__wrapped__() == pytest.approx(3.0)
    assert len(calls) == 3  # slower than the reference: the fastest of three probes


def test_a_machine_of_the_references_speed_is_probed_once(monkeypatch):
    monkeypatch.delenv("RDPSYM_SLOWNESS", raising=False)
    calls = []
    monkeypatch.setattr(budget_clocks, "_speed_probe",
                        lambda: calls.append(1) or budget_clocks.REFERENCE_PROBE_SECONDS / 2)
    assert budget_clocks.slowness.__wrapped__() == 1.0 and len(calls) == 1  # faster: budgets are not shortened


def test_a_budget_that_reaches_its_written_deadline_is_stretched_by_the_slowness(monkeypatch):
    calls = []
    monkeypatch.setattr(budget, "slowness", lambda: calls.append(1) or 4.0)
    start = time.thread_time()
    with budget.time_budget(0.05, "a spin", absorb=True) as b:
        while True:
            pass
    assert b.spent and len(calls) == 1
    assert time.thread_time() - start >= 0.2  # 0.05 s as written, four times that here
    assert b.message == "a spin did not finish within 0.05 s"  # the seconds as written, as callers' messages say


def test_a_block_that_ends_within_its_written_deadline_never_measures_the_slowness(monkeypatch):
    calls = []
    monkeypatch.setattr(budget, "slowness", lambda: calls.append(1) or 4.0)
    with budget.time_budget(5.0, "a step") as b:
        sum(range(1000))
    assert not b.spent and calls == []  # (the probe costs about 8 ms of CPU on the reference machine)
