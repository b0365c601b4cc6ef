"""SymPy's and mpmath's process-wide state stays true when an update of it is stopped halfway (a timeout lands
between any two bytecodes) or shared by threads (:mod:`rdpsym.foundations.sympy_shared_state`,
:class:`rdpsym.foundations.precision.sympy_evalf_guard`).

The first: SymPy's ``RealInterval.b`` flipped the cached interval's ``neg`` flag and back to read its right end; a
timeout or a second thread between the two writes left the interval mirrored for the rest of the process, so that
``CRootOf(x³ − 4x + 1, 2)`` evaluated to −1.86 (not a root) and the real roots of 1 − x² were never found (the test
worker that ran out of its 10 minutes in ``tests/test_ceilings.py``, at random). The others, from a review: the small
factorials, the sieve of primes, lambdify's mpmath namespace, the Meijer G table, mpmath's digits.
"""

from __future__ import annotations

import subprocess
import sys
import threading

import mpmath
import pytest
import sympy as sp
from mpmath.libmp import libmpf
from sympy import sieve
from sympy.integrals import meijerint
from sympy.polys.rootisolation import RealInterval
from sympy.polys.rootoftools import _reals_cache

import rdpsym.foundations.exact_size  # noqa: F401 - rdpsym's symbolic work installs the mend with its size guards
from rdpsym.claims.numeric_zeros import numeric_zeros
from rdpsym.foundations.budget_watchdog import _clear_the_pending_signal
from rdpsym.foundations.precision import sympy_evalf_guard

x = sp.Symbol("x")
#: Three real roots, one negative and two positive; a polynomial no other test asks about.
CUBIC = x**3 - 4 * x + 1


class _Stopped(Exception):
    """What the tracer raises inside the interval's read: a timeout landing there."""


@pytest.fixture(autouse=True)
def _no_stale_signal():
    """These tests set trace functions: a signal of a pending asynchronous exception left by another test's own
    interruptions would make a traced call spin (``tests/test_concurrency.py`` tests that rdpsym leaves none)."""
    _clear_the_pending_signal()


def _cached_intervals() -> list[RealInterval]:
    sp.real_roots(sp.Poly(CUBIC, x))
    return list(_reals_cache[sp.PurePoly(CUBIC)])


def _assert_the_cache_holds_the_roots():
    state = [(i.neg, i.mobius) for i in _cached_intervals()]
    assert [(i.neg, i.mobius) for i in _cached_intervals()] == state
    for k in range(3):
        root = sp.CRootOf(CUBIC, k).evalf(30)
        assert abs(CUBIC.subs(x, root)) < 1e-25, f"CRootOf({CUBIC}, {k}) = {root}, not a root"


def _line_events(code) -> int:
    count = 0

    def local(frame, event, arg):
        nonlocal count
        count += event == "line"
        return local

    interval = _cached_intervals()[2]
    sys.settrace(lambda frame, event, arg: local if frame.f_code is code else None)
    try:
        _ = interval.b
    finally:
        sys.settrace(None)
    return count


def test_a_read_of_a_cached_interval_s_right_end_stopped_at_any_line_leaves_the_interval_as_it_was():
    """A timeout lands between any two bytecodes: one is raised at each line of the read in turn (the ``b`` that
    SymPy's roots use), and every cached interval must still be the one it was, and isolate its root."""
    code = RealInterval.b.fget.__code__
    lines = _line_events(code)
    assert lines >= 1
    for stop_at in range(1, lines + 1):
        seen = 0

        def local(frame, event, arg, stop_at=stop_at):
            nonlocal seen
            if event == "line":
                seen += 1
                if seen == stop_at:
                    raise _Stopped
            return local

        interval = _cached_intervals()[2]
        before = (interval.neg, interval.mobius, interval.a)
        sys.settrace(lambda frame, event, arg: local if frame.f_code is code else None)
        try:
            _ = interval.b
        except _Stopped:
            pass
        finally:
            sys.settrace(None)
        assert (interval.neg, interval.mobius, interval.a) == before, f"stopped at line {stop_at} of {lines}"
    _assert_the_cache_holds_the_roots()


def test_threads_reading_one_cached_interval_leave_it_as_it_was():
    """Four threads reading the right end of one cached interval, switching every microsecond (with SymPy's own read,
    2 runs in 3 left it mirrored)."""
    interval = _cached_intervals()[2]
    before = (interval.neg, interval.b)

    def read():
        for _ in range(5_000):
            _ = interval.b

    switching = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=read) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(switching)
    assert (interval.neg, interval.b) == before
    _assert_the_cache_holds_the_roots()


def test_a_process_that_loads_rdpsym_s_symbolic_work_has_sympy_s_lazily_filled_tables_whole():
    """SymPy fills its small factorials and lambdify's mpmath namespace on first use, one entry at a time, and trusts
    them once not empty; rdpsym fills them whole as it loads, before any budget or thread can stop the filling."""
    script = (
        "import math, sys\n"
        "import rdpsym.foundations.exact_size\n"
        "from sympy.functions.combinatorial.factorials import factorial\n"
        "lambdify = sys.modules['sympy.utilities.lambdify']\n"
        "assert factorial._small_factorials == [math.factorial(n) for n in range(1, 20)], factorial._small_factorials\n"
        "assert {'LambertW', 'Ei', 'Si', 'betainc_regularized'} <= set(lambdify.MPMATH), 'namespace not filled'\n"
        "print('whole')\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "whole", done.stderr[-2000:]


def test_a_meijer_g_table_whose_building_was_stopped_is_built_whole_at_the_next_use():
    """SymPy set its lookup table to {} and then filled it, and took any table not empty for a whole one: stopped at
    its 6th formula, integrate(e^{−x}·log x, (x, 0, ∞)) stayed unevaluated for the rest of the process."""
    whole: dict = {}
    meijerint._create_lookup_table(whole)
    kept = meijerint._lookup_table
    made = 0

    def tracer(frame, event, arg):
        nonlocal made
        if event == "call" and frame.f_code.co_name == "add" and frame.f_back is not None and \
                frame.f_back.f_code is meijerint._create_lookup_table.__code__:
            made += 1
            if made == 6:
                raise _Stopped
        return None

    try:
        meijerint._lookup_table = None
        sys.settrace(tracer)
        try:
            meijerint._rewrite_single(sp.exp(x), x)
        except _Stopped:
            pass
        finally:
            sys.settrace(None)
        assert made == 6
        meijerint._rewrite_single(sp.exp(x), x)
        assert {k: len(v) for k, v in meijerint._lookup_table.items()} == {k: len(v) for k, v in whole.items()}
    finally:
        if kept:
            meijerint._lookup_table = kept


def test_threads_extending_sympy_s_sieve_of_primes_at_once_append_each_prime_once():
    """Two threads read the sieve's last prime and each appended the primes after it: prime(30000) was 128 411."""
    switching = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for _ in range(3):
            sieve._reset(prime=True)
            barrier = threading.Barrier(2)

            def grow(n, barrier=barrier):
                barrier.wait()
                sieve.extend(n)

            threads = [threading.Thread(target=grow, args=(n,)) for n in (100_000, 150_000)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            primes = list(sieve._list)
            assert primes == sorted(set(primes))
    finally:
        sys.setswitchinterval(switching)
    assert sieve[9592] == 99991  # (the 9 592nd prime: the last below 10⁵)


def test_a_timeout_inside_mpmath_s_precision_setter_leaves_the_global_precision_whole():
    """mpmath's setter stores the bits, then calls prec_to_dps and stores the digits: a timeout at that call, as
    ``workdps`` put 53 bits back, left 30 digits with them, so that 1/3 printed 30 digits of a 53-bit number. The
    claims' scans on mpmath's global context leave it as it was even then."""
    stopped = 0

    def stop_in_the_restore(frame, event, arg):
        nonlocal stopped
        if event == "call" and frame.f_code is libmpf.prec_to_dps.__code__ and \
                frame.f_back.f_back is not None and frame.f_back.f_back.f_code.co_name == "__exit__":
            stopped += 1
            raise _Stopped
        return None

    before = mpmath.mp.prec, mpmath.mp.dps
    for run in (_thirty_digits_in_the_guard, lambda: numeric_zeros(x * sp.exp(-x) + 3, x, sp.Interval(-5, 0), 4)):
        stopped = 0
        sys.settrace(stop_in_the_restore)
        try:
            run()
        except _Stopped:
            pass
        finally:
            sys.settrace(None)
        assert stopped == 1  # (the stop landed where it is meant to)
        assert (mpmath.mp.prec, mpmath.mp.dps) == before


def _thirty_digits_in_the_guard():
    with sympy_evalf_guard(), mpmath.workdps(30):
        pass
