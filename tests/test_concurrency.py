"""The public API hammered from threads and processes: the same values as one thread, and the caller's
precision (mpmath's and python-flint's) untouched in every thread.

Before: two threads calling ``renyi_divergence_mp`` left a user's ``mpmath.mp.dps = 30`` at 31–82,
three threads calling ``epsilon`` left ``flint.ctx.prec`` at 196–278, and 1–7 of 12–16 concurrent
valid ``gaussian(σ).rdp(3)`` calls failed verification.  Time budgets only worked in the main thread.

Expected values are the single-threaded results of the same calls in the same process (the closed
forms are also Mironov's Prop 7, α/(2σ²), checked here).  What a thread can be promised while other
threads run rdpsym: outside rdpsym's guarded blocks (``sympy_evalf_guard`` for SymPy's evaluation,
``PRECISION_LOCK`` for Arb) the precision is its own; the checks below take those locks, so they see
exactly that, and never a transient value of a block running in another thread.
"""

from __future__ import annotations

import math
import multiprocessing
import random
import subprocess
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import flint
import mpmath
import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rdpsym
from rdpsym.foundations.balls import PRECISION_LOCK, precision
from rdpsym.foundations.budget import budgeted, time_budget
from rdpsym.foundations.errors import ConvergenceError, NoClosedFormError, SymbolicTimeout
from rdpsym.foundations.precision import (
    NUMERIC_LOCK,
    open_numeric_blocks,
    private_context,
    sympy_evalf_guard,
    sympy_float,
)

R = sp.Rational
x = sp.Symbol("x", real=True)
USER_DPS = 30  # what "the user" set mpmath to
USER_BITS = 77  # ... and python-flint

SIGMAS = [R(k, 4) for k in range(2, 14)]  # 12 distinct mechanisms: no cache shared between the calls


def _exponential(rate):
    return rdpsym.Continuous(rate * sp.exp(-rate * x), x, support=sp.Interval(0, sp.oo))


def call(job: tuple) -> str:
    """One public-API call, its result as text (what is compared across threads and processes)."""
    kind, arg = job
    if kind == "rdp":  # a derivation, verified against the definition at 40 digits
        d = rdpsym.gaussian(arg).rdp(3)
        assert sp.simplify(d.result - sp.Rational(3, 2) / arg**2) == 0  # Prop 7: α/(2σ²)
        return f"{d.result} {d.status.value}"
    if kind == "divergence":
        d = rdpsym.renyi_divergence(_exponential(arg), _exponential(1), 2)
        return f"{d.result} {d.status.value}"
    if kind == "mp":
        return str(rdpsym.renyi_divergence_mp(*rdpsym.gaussian(arg).pair, 2, dps=30))
    if kind == "mp-laplace":
        return str(rdpsym.renyi_divergence_mp(*rdpsym.laplace(arg).pair, sp.oo, dps=25))
    if kind == "epsilon":
        return str(rdpsym.epsilon(rdpsym.gaussian(arg).curve(), delta=R(1, 10**5), dps=30).value)
    if kind == "delta":
        return str(rdpsym.delta(rdpsym.laplace(arg).curve(), epsilon=1, dps=30).value)
    if kind == "values":
        return str(rdpsym.gaussian(arg).curve().values([2, 3, 10], dps=30))
    raise AssertionError(kind)


JOBS = ([("rdp", s) for s in SIGMAS] + [("divergence", R(3, 2)), ("mp", 2), ("mp", 10**100), ("mp-laplace", 3),
        ("epsilon", 2), ("epsilon", 3), ("delta", 1), ("values", 3)])


def _precisions() -> tuple:
    """The calling thread's view of both precisions, outside every rdpsym block in any thread."""
    with sympy_evalf_guard(), PRECISION_LOCK:
        return mpmath.mp.dps, mpmath.mp.prec, flint.ctx.prec


def _in_thread(job: tuple) -> tuple:
    value = call(job)
    return value, _precisions()


@pytest.fixture
def user_precision():
    saved = flint.ctx.prec
    mpmath.mp.dps = USER_DPS
    flint.ctx.prec = USER_BITS
    expected = (USER_DPS, mpmath.mp.prec, USER_BITS)
    yield expected
    flint.ctx.prec = saved


@pytest.fixture(scope="module")
def single_threaded():
    """Every job's result, called one at a time in this thread (at the user's precisions)."""
    saved = flint.ctx.prec
    mpmath.mp.dps, flint.ctx.prec = USER_DPS, USER_BITS
    try:
        return {job: call(job) for job in JOBS}
    finally:
        mpmath.mp.dps, flint.ctx.prec = 15, saved


def test_threads_get_single_threaded_values_and_keep_the_callers_precision(user_precision, single_threaded):
    work = JOBS * 2
    random.Random(20170224).shuffle(work)
    with ThreadPoolExecutor(max_workers=12) as pool:
        results = list(pool.map(_in_thread, work))
    for job, (value, seen) in zip(work, results):
        assert value == single_threaded[job], job
        assert seen == user_precision, (job, seen)
    # ... and with every thread done, unguarded:
    assert (mpmath.mp.dps, mpmath.mp.prec, flint.ctx.prec) == user_precision


def test_sixteen_threads_each_at_their_own_working_precision(user_precision):
    # Each thread asks for a different number of digits at once: each gets its own, and exactly
    # the single-threaded digits (the Laplace D_2 of Prop 6 at λ = 2).
    def laplace_at(dps):
        value = rdpsym.renyi_divergence_mp(*rdpsym.laplace(2).pair, 2, dps=dps)
        return dps, value, _precisions()

    digits = [20 + 3 * k for k in range(16)]
    expected = {dps: rdpsym.renyi_divergence_mp(*rdpsym.laplace(2).pair, 2, dps=dps) for dps in digits}
    with ThreadPoolExecutor(max_workers=16) as pool:
        results = list(pool.map(laplace_at, digits))
    for dps, value, seen in results:
        assert value == expected[dps] and str(value) == str(expected[dps]) and len(str(value)) == dps + 2
        assert seen == user_precision
    with private_context(120) as ctx:
        lam = ctx.mpf(2)
        prop6 = ctx.log(2 * ctx.exp(1 / lam) / 3 + ctx.exp(-2 / lam) / 3)  # α = 2: (α/(2α−1))e^{(α−1)/λ} + ...
        assert abs(ctx.convert(expected[65]) - prop6) < ctx.mpf(10) ** -64


def _process_job(job: tuple) -> tuple:
    mpmath.mp.dps, flint.ctx.prec = USER_DPS, USER_BITS
    value = call(job)
    return value, (mpmath.mp.dps, flint.ctx.prec)


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_a_process_pool_gets_single_threaded_values(method, single_threaded):
    # "fork" copies a process whose budget watchdog and locks may be busy (they are reset in the child);
    # "spawn" imports rdpsym afresh.  Results come back pickled (Digits pickle exactly).
    jobs = JOBS if method == "fork" else [("rdp", SIGMAS[0]), ("mp", 10**100), ("epsilon", 2)]
    with ProcessPoolExecutor(max_workers=2 if method == "spawn" else 4,
                             mp_context=multiprocessing.get_context(method)) as pool:
        results = list(pool.map(_process_job, jobs))
    for job, (value, seen) in zip(jobs, results):
        assert value == single_threaded[job], job
        assert seen == (USER_DPS, USER_BITS)


# ---------------------------------------------------------------- the pieces: precision blocks and budgets


def test_an_arb_block_restores_the_precision_it_found_and_keeps_a_concurrent_setting():
    saved = flint.ctx.prec
    try:
        flint.ctx.prec = 64
        with precision(300):
            assert flint.ctx.prec == 300
            with precision(500):
                assert flint.ctx.prec == 500
            assert flint.ctx.prec == 300
        assert flint.ctx.prec == 64
        with precision(300):
            flint.ctx.prec = 99  # someone else's setting made meanwhile is theirs to keep
        assert flint.ctx.prec == 99
    finally:
        flint.ctx.prec = saved


def test_private_contexts_leave_the_global_context_alone():
    mpmath.mp.dps = 23
    with private_context(200) as ctx:
        third = ctx.mpf(1) / 3
        with private_context(10) as inner:  # a nested block gets a context of its own
            assert inner is not ctx and inner.dps == 10
        assert ctx.dps == 200 and abs(third * 3 - 1) < ctx.mpf(10) ** -199
    assert mpmath.mp.dps == 23


def test_a_time_budget_fires_in_any_thread():
    def spin(seconds):
        started = time.thread_time()
        try:
            with time_budget(seconds, "a spin"):
                while True:
                    pass
        except SymbolicTimeout as exc:
            return str(exc), time.thread_time() - started

    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(spin, [0.2] * 4))
    for message, cpu in results:
        assert message == "a spin did not finish within 0.2 s"
        assert 0.15 < cpu < 5  # the thread's own CPU time, not the others'


#: Budgets that fire in threads, then a trace function and a traced call; run in a process of its own, whose hang
#: is a failure and not a test worker's end.
_TRACED_AFTER_TIMEOUTS = """
import sys
from concurrent.futures import ThreadPoolExecutor
from rdpsym.foundations.budget import time_budget
from rdpsym.foundations.errors import SymbolicTimeout

def spin(seconds):
    try:
        with time_budget(seconds, "a spin"):
            while True:
                pass
    except SymbolicTimeout:
        return "stopped"

with ThreadPoolExecutor(max_workers=4) as pool:
    assert list(pool.map(spin, [0.05] * 8)) == ["stopped"] * 8

def traced(x):
    return x + 1

calls = []
sys.settrace(lambda frame, event, arg: calls.append(event) if frame.f_code is traced.__code__ else None)
traced(1)
sys.settrace(None)
print("returned", calls)
"""


def test_a_trace_function_set_after_timeouts_fired_in_threads_sees_its_calls_return():
    """CPython 3.11 keeps an interpreter-wide signal that a thread has an asynchronous exception to take; raising
    one to withdraw it (``PyThreadState_SetAsyncExc(id, NULL)``) sets it too, and only a thread taking its own clears
    it. Left set by the watchdog's withdrawals, it made every traced call spin for ever in its first instruction:
    after this file's budgets, a debugger, a coverage run or any ``sys.settrace`` hung (a test of
    ``tests/test_sympy_shared_state.py`` ran out of its 10 minutes in a worker that had run this file)."""
    printed = _run_bounded(_TRACED_AFTER_TIMEOUTS, 120)
    assert printed == "returned ['call']", printed


def _run_bounded(script: str, seconds: float) -> str:
    """What ``script`` prints in a fresh interpreter, or why it did not finish within ``seconds``."""
    try:
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=seconds)
    except subprocess.TimeoutExpired:
        return f"no answer within {seconds} s: the traced call spins"
    return done.stdout.strip() or done.stderr[-2000:]


def test_a_budget_counts_the_threads_own_cpu_time():
    # A thread that waits does not use its budget (a wall-clock budget would expire here).
    with time_budget(0.3, "waiting"):
        time.sleep(0.6)


def test_an_outer_budget_is_not_swallowed_by_an_inner_step():
    # budgeted() turns its own timeout into "no closed form"; an outer limit spent inside it goes on.
    def steps():
        with time_budget(0.3, "the outer limit"):
            for _ in range(100):
                try:
                    budgeted(lambda: sum(range(10**6)), "an inner step", seconds=5)
                except NoClosedFormError:
                    pytest.fail("the outer budget was reported as the inner step's")

    with pytest.raises(SymbolicTimeout, match="the outer limit"):
        steps()
    with time_budget(1, "absorbed", absorb=True) as budget:
        pass
    assert not budget.spent


def test_budgeted_symbolic_steps_run_in_threads_as_in_the_main_thread():
    # Off the main thread, critical points and symbolic checks used to be skipped (no budget possible).
    def derive(_):
        return [str(rdpsym.laplace(R(1, 2)).rdp(o).result) for o in (2, 1)]

    alone = derive(None)
    with ThreadPoolExecutor(max_workers=3) as pool:
        assert list(pool.map(derive, range(3))) == [alone] * 3


def test_the_definition_has_a_time_ceiling_in_any_thread():
    def slow(_):
        try:
            rdpsym.renyi_divergence_mp(*rdpsym.gaussian(1).pair, R(7, 3), dps=400, seconds=0.2)
        except ConvergenceError as exc:
            return str(exc)
        return "finished"

    messages = [slow(None)]
    worker = threading.Thread(target=lambda: messages.append(slow(None)))
    worker.start()
    worker.join()
    for message in messages:
        assert "did not finish within 0.2 s of CPU time" in message and "seconds=" in message


def test_sympy_evaluation_from_threads_leaves_mpmath_alone():
    # SymPy's evalf of erf sets mpmath.mp's precision while it runs: under the guard, from 8 threads at once.
    mpmath.mp.dps = 23
    with ThreadPoolExecutor(max_workers=8) as pool:
        values = list(pool.map(lambda d: str(sympy_float(sp.erf(sp.Rational(1, d)), 30)), range(1, 33)))
    assert values == [str(sp.erf(sp.Rational(1, d)).evalf(30)) for d in range(1, 33)]
    assert mpmath.mp.dps == 23
    with sympy_evalf_guard():
        mpmath.mp.dps = 99  # what SymPy's nroots does: the guard puts it back
    assert mpmath.mp.dps == 23


# ---------------------------------------------------------------- hostile inputs, from threads at once

SCALES = st.sampled_from([R(1, 10**300), R(1, 10**40), R(1, 1000), 1, R(7, 5), 10**3, 10**40, 10**300])
ORDERS = st.sampled_from([R(3, 2), 2, 1, sp.oo, R(1, 3)])  # (Prop 6's formula is 0/0 at α = 1/2)
HOSTILE = st.sampled_from([-1, 0, None, float("nan"), -float("inf"), "x", 10**10**4, sp.I, [2], sp.zoo])


def _prop6(scale, order):
    with private_context(400) as ctx:
        lam = ctx.mpf(sp.Rational(scale).p) / sp.Rational(scale).q
        if order is sp.oo:
            return ctx.convert(1 / lam)
        if order == 1:
            return ctx.convert(1 / lam + ctx.expm1(-1 / lam))
        a = ctx.mpf(sp.Rational(order).p) / sp.Rational(order).q
        if 1 / lam < 1:  # the moment is 1 + (something small): without its cancellation
            moment = a / (2 * a - 1) * ctx.expm1((a - 1) / lam) + (a - 1) / (2 * a - 1) * ctx.expm1(-a / lam)
            return ctx.convert(ctx.log1p(moment) / (a - 1))
        terms = [(a / (2 * a - 1), (a - 1) / lam), ((a - 1) / (2 * a - 1), -a / lam)]  # c·e^x: log-sum-exp
        top = max(x for c, x in terms if c > 0)
        return ctx.convert((top + ctx.log(ctx.fsum(c * ctx.exp(x - top) for c, x in terms))) / (a - 1))


def _laplace_call(job):
    scale, order = job
    try:
        value = rdpsym.renyi_divergence_mp(*rdpsym.laplace(scale).pair, order, dps=20)
    except ConvergenceError as exc:  # allowed by the rules (never a wrong number), and said plainly
        return ("error", str(exc)), _precisions()
    return ("value", value), _precisions()


def _hostile_call(bad):
    try:
        rdpsym.renyi_divergence_mp(*rdpsym.laplace(1).pair, bad, dps=20)
    except rdpsym.RdpSymError as exc:
        return type(exc).__name__, _precisions()
    return "accepted", _precisions()


@given(st.lists(st.tuples(SCALES, ORDERS), min_size=2, max_size=4), st.lists(HOSTILE, min_size=1, max_size=3))
@settings(max_examples=10, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_hostile_and_extreme_calls_from_threads(user_precision, calls, bad_orders):
    # Valid calls at extreme scales and invalid orders, all at once: each valid one is right to 20 digits
    # (Prop 6), each invalid one an rdpsym error, and the caller's precisions never move.
    with ThreadPoolExecutor(max_workers=len(calls) + len(bad_orders)) as pool:
        good = pool.map(_laplace_call, calls)
        bad = pool.map(_hostile_call, bad_orders)
        good, bad = list(good), list(bad)
    for (scale, order), ((kind, value), seen) in zip(calls, good):
        assert seen == user_precision
        assert kind == "value", value
        expected = _prop6(scale, order)
        with private_context(40) as ctx:
            assert abs(ctx.convert(value) - expected) <= ctx.mpf(10) ** -20 * abs(expected), (scale, order, value)
    for order, (outcome, seen) in zip(bad_orders, bad):
        assert seen == user_precision
        assert outcome != "accepted", order


def test_an_interruption_right_after_a_numeric_block_took_the_lock_lets_it_go(monkeypatch):
    # What a timeout (raised asynchronously) or a Ctrl-C landing just after the acquire used to do: keep the
    # re-entrant lock for the thread, which went on unaware while the first other thread to compute waited
    # for ever (hostile calls from threads hung the suite).  Simulated here by a start() that is interrupted.
    def interrupted(self):
        self.saved = mpmath.mp.prec, mpmath.mp.pretty, mpmath.mp.dps
        mpmath.mp.prec = 333
        raise KeyboardInterrupt

    before = mpmath.mp.prec
    monkeypatch.setattr(sympy_evalf_guard, "start", interrupted)
    with pytest.raises(KeyboardInterrupt):
        with sympy_evalf_guard():
            pass
    assert (NUMERIC_LOCK._recursion_count(), open_numeric_blocks(), mpmath.mp.prec) == (0, 0, before)


def test_a_numeric_block_whose_exit_was_skipped_is_closed_when_its_time_budget_ends():
    # An exception arriving as ``__exit__`` is entered skips it altogether; the block stays open until the
    # enclosing budget ends (by then every block opened inside it has ended): lock let go, precision back.
    saved = flint.ctx.prec
    with time_budget(5, "a step"):
        block = precision(300)
        block.__enter__()  # ... and never __exit__
        assert flint.ctx.prec == 300 and NUMERIC_LOCK._recursion_count() == 1
    assert (NUMERIC_LOCK._recursion_count(), open_numeric_blocks(), flint.ctx.prec) == (0, 0, saved)
    # ... and an enclosing block's own exit closes an inner one left open
    with sympy_evalf_guard():
        precision(300).__enter__()
    assert (NUMERIC_LOCK._recursion_count(), open_numeric_blocks(), flint.ctx.prec) == (0, 0, saved)


def test_timeouts_landing_around_numeric_blocks_leave_no_lock_held_and_no_precision_changed():
    # Budgets expiring every millisecond or so while four threads go in and out of numeric blocks doing a
    # little work: the timeouts land all over, the blocks' edges included.  Afterwards no thread holds the
    # lock, each finds its own precision, and the main thread can take the lock.  (Threads taking turns at
    # the lock are nearly always in protected bookkeeping, where timeouts are not raised asynchronously:
    # before the blocks' checkpoint, these budgets never ended -- 1 of 400 in 20 s.)
    problems: list[str] = []
    finished: list[int] = []

    def churn(seed: int) -> None:
        mpmath.mp.dps, flint.ctx.prec = USER_DPS, USER_BITS
        rng = random.Random(seed)
        for _ in range(100):
            with time_budget(rng.choice([2e-4, 1e-3, 3e-3]), "churn", absorb=True):
                while True:
                    with sympy_evalf_guard(), precision(rng.choice([64, 128, 256])):
                        mpmath.mp.dps = 50  # as SymPy's evalf does
                        with sympy_evalf_guard():
                            sum(math.comb(60, k) for k in range(60))
                    sum(math.comb(60, k) for k in range(60))
        if NUMERIC_LOCK._recursion_count() or open_numeric_blocks():
            problems.append(f"thread {seed}: lock held {NUMERIC_LOCK._recursion_count()} time(s)")
        # Read under the lock: mpmath's and python-flint's precisions are process-wide, and another thread
        # still churning sets them inside its blocks (an unlocked read once saw 50 digits, 64 bits that way).
        with PRECISION_LOCK:
            state = mpmath.mp.dps, flint.ctx.prec
        if state != (USER_DPS, USER_BITS):
            problems.append(f"thread {seed}: precision left at {state[0]} digits, {state[1]} bits")
        finished.append(seed)

    saved = mpmath.mp.dps, flint.ctx.prec
    try:
        threads = [threading.Thread(target=churn, args=(seed,), daemon=True) for seed in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        assert sorted(finished) == [0, 1, 2, 3], f"threads that did not finish in 120 s: {set(range(4)) - set(finished)}"
        assert not problems, problems
        assert PRECISION_LOCK.acquire(timeout=10), "the numeric lock is held by a thread that has ended"
        PRECISION_LOCK.release()
    finally:
        mpmath.mp.dps, flint.ctx.prec = saved
