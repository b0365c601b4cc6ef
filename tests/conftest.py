"""Shared test configuration: mpmath precision hygiene and Hypothesis profiles.

Profiles
--------
``ci``   derandomized (the same examples on every run), no deadline,
         at most 25 examples per property; loaded on CI and by default.
``dev``  Hypothesis' defaults without a deadline (symbolic steps are slow
         and their timing varies), for local bug hunting:
         ``HYPOTHESIS_PROFILE=dev pytest tests``.

``HYPOTHESIS_PROFILE`` overrides the choice; otherwise ``ci`` is loaded both
when ``CI`` is set and when it is not, so a local run reproduces CI exactly.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import sys
import tempfile
import threading
import traceback

import crash_reports
import mpmath
import pytest
import stored_values
from hypothesis import HealthCheck, Phase, settings

# No cache of derivations across runs (rdpsym.foundations.disk_cache), whatever the developer's own
# RDPSYM_CACHE_DIR: outside a test (collection) it is off; each test turns it on in the run's own folder below, or
# off (_derivations_shared_by_the_run).  tests/test_disk_cache.py turns it on in folders of its own.
os.environ["RDPSYM_CACHE_DIR"] = "off"

#: The run's derivations are shared by its tests and processes (issue 26: keep the checks, lose the repetition):
#: each derivation (with its check against the definition), law check, proof attempt and claim's SymPy step is done
#: once per run, by the first test that needs it, and read back by the others, in either xdist worker -- the
#: gaussian's and laplace's pairs were derived again by every test that asked (the cache was off: 476 s for the
#: README's test command, 414 s with the folder, in one hour).  A folder of this run only: made by the first
#: process (xdist's workers inherit the variable) and removed by it at the end.  Commands the tests start inherit
#: the test's setting.
SHARED_DERIVATIONS = "RDPSYM_TEST_DERIVATIONS"
_made_here: list[str] = []


def pytest_configure(config):
    # (by its workers, not by --dist, which pyproject.toml's addopts sets for every run, with or without -n)
    distributed = getattr(config.option, "numprocesses", None) or getattr(config.option, "tx", None) \
        or hasattr(config, "workerinput")
    if stored_values.recording() and distributed:  # (each xdist worker would write a part of a store)
        raise pytest.UsageError(f"{stored_values.RECORD}=1 records the stored reference values in one process: "
                                "run with -n 0")
    config.pluginmanager.register(crash_reports, "rdpsym-crash-reports")  # (a crashed worker's stacks in its report)
    config.addinivalue_line("markers", "fresh_derivations: derive anew, without the run's shared derivations "
                                       "(a test about the work itself: budgets, counts, failures on the way)")
    if SHARED_DERIVATIONS not in os.environ:
        _made_here.append(tempfile.mkdtemp(prefix="rdpsym-test-derivations-"))
        os.environ[SHARED_DERIVATIONS] = _made_here[0]


def pytest_sessionfinish(session):
    """A recording run (``RDPSYM_RECORD_STORES=1``, one process) writes the stores it filled (tests/stored_values.py)."""
    if stored_values.recording():
        for path in stored_values.write_recorded():
            print(f"\nstored reference values written to {path}")


def pytest_unconfigure(config):
    for folder in _made_here:
        shutil.rmtree(folder, ignore_errors=True)

# Both profiles derive from Hypothesis' built-in "default" explicitly: when CI is set,
# Hypothesis has already loaded its own "ci" profile, and an unparented profile would
# inherit from whatever is loaded.
_DEFAULT = settings.get_profile("default")
settings.register_profile(
    "ci",
    parent=_DEFAULT,
    derandomize=True,
    deadline=None,
    max_examples=25,
    print_blob=True,
    # No explain phase: after a failure it re-runs examples under a line tracer, and a command-line example
    # that takes 2 s took minutes, so a failing property ran into the suite's 600 s limit instead of reporting.
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink],
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", parent=_DEFAULT, deadline=None)


# "ci" on CI (the CI variable set) and, by default, everywhere else too, so that a
# local run reproduces CI exactly; HYPOTHESIS_PROFILE=dev (or any registered name) overrides.
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or "ci")


@pytest.fixture(autouse=True)
def _derivations_shared_by_the_run(request):
    """The run's folder of derivations for the test (see :data:`SHARED_DERIVATIONS`), or none for a test that
    patches anything (it asks for ``monkeypatch``: what it patches must be what runs, not a replay of the unpatched
    code) or is marked ``fresh_derivations`` (it is about the work itself: budgets, counts, failures on the way)."""
    fresh = "monkeypatch" in request.fixturenames or request.node.get_closest_marker("fresh_derivations")
    os.environ["RDPSYM_CACHE_DIR"] = "off" if fresh else os.environ[SHARED_DERIVATIONS]
    yield
    os.environ["RDPSYM_CACHE_DIR"] = "off"


@pytest.fixture(autouse=True)
def _fresh_mpmath_context():
    """Every test starts at mpmath's defaults, and none leaks its precision to the next."""
    mpmath.mp.dps = 15
    mpmath.mp.pretty = False
    yield
    mpmath.mp.dps = 15
    mpmath.mp.pretty = False


@pytest.fixture
def watchdog():
    """``with watchdog(seconds): ...`` fails the test instead of hanging the suite.

    Not a timing assertion: the bound is many times what the work needs, and
    exists only so that a call that never returns (a known failure mode of
    exact arithmetic at huge orders) is reported as a failure.  It is
    independent of rdpsym's own time budgets: a timer thread raises a test
    failure in the guarded thread (CPython's ``PyThreadState_SetAsyncExc``),
    and raises it again every second until the block has ended, so a failure
    swallowed on its way (inside a finalizer or a garbage-collection callback,
    where Python reports and drops exceptions) cannot leave the suite hanging.
    (A ``SIGALRM`` watchdog shares the one real-time timer with the code it
    watches and lost its deadline that way: the full suite hung on CI.)
    """

    @contextlib.contextmanager
    def guard(seconds: float, what: str = "the call"):
        from rdpsym.foundations.budget_protected import in_protected_code
        from rdpsym.foundations.budget_watchdog import _withdraw
        from rdpsym.foundations.precision import close_numeric_blocks, open_numeric_blocks

        expired = type("WatchdogExpired", (pytest.fail.Exception,), {})
        target, done = threading.get_ident(), threading.Event()

        def fire() -> None:
            if not done.wait(seconds):
                while not done.is_set():
                    if in_protected_code(target):  # rdpsym's bookkeeping (a lock, a precision): not there
                        done.wait(0.003)
                        continue
                    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(target), ctypes.py_object(expired))
                    done.wait(1.0)

        depth = open_numeric_blocks()
        timer = threading.Thread(target=fire, name="test-watchdog", daemon=True)
        timer.start()
        try:
            yield
        except expired:
            pytest.fail(f"{what} did not return within {seconds:g} s", pytrace=False)
        finally:
            done.set()
            timer.join()
            _withdraw(target)  # none left pending (and CPython's signal of one cleared: see _withdraw)
            close_numeric_blocks(depth)  # what an interruption left open, as a time budget does

    return guard


@pytest.fixture
def compile_latex(tmp_path):
    """Compile a LaTeX document with the real pdflatex; return the PDF's path.

    pdflatex is installed by ``.ci/run`` (Debian's TeX Live), so on CI a missing
    pdflatex is a failure, never a skip; elsewhere the test is skipped with the reason.
    """
    import shutil

    from rdpsym.render.pdf import compile_pdf

    if shutil.which("pdflatex") is None:
        if os.environ.get("CI"):
            pytest.fail("pdflatex is not installed, but CI must compile every generated document")
        pytest.skip("pdflatex is not installed (.ci/run installs TeX Live)")
    counter = iter(range(10**6))

    def compile_(tex: str, name: str | None = None):
        path = tmp_path / f"{name or f'doc{next(counter)}'}.tex"
        path.write_text(tex, encoding="utf-8")
        return compile_pdf(path)  # raises LatexError quoting the first TeX error

    return compile_


@pytest.fixture(autouse=True)
def _no_time_budget_left_behind():
    """A test leaves no rdpsym time budget registered for its thread: a budget whose block never ended would
    keep raising its timeout into whatever the thread runs next (the suite's later tests)."""
    yield
    from rdpsym.foundations import budget_watchdog

    watchdog = getattr(budget_watchdog, "_WATCHDOG", None)
    left = [b.what for b in (watchdog.active.get(threading.get_ident(), []) if watchdog else [])]
    assert not left, f"time budgets left registered: {left}"


@pytest.fixture(autouse=True)
def _numeric_lock_released():
    """A test leaves the process-wide numeric lock free: a lock kept by the main thread (re-entrant, so the
    main thread never notices) would hang the first later test that computes from another thread."""
    yield
    from rdpsym.foundations import precision

    held = precision.NUMERIC_LOCK._recursion_count()
    assert held == 0, f"the numeric lock is still held {held} time(s) by the test's thread"
    # Nor by a thread the test started and left running: the next test's first numeric block would wait for it
    # without end (a wait spends no CPU, so no time budget ends it), and the suite's 600 s timeout would kill the
    # worker with a later, innocent test's name.  Here the test that left it is named, with every thread's stack.
    # (Reported once: a lock that is never let go would make every later test wait its 60 s too.)
    if _LOCK_LEFT_HELD or precision.NUMERIC_LOCK.acquire(timeout=60):
        if not _LOCK_LEFT_HELD:
            precision.NUMERIC_LOCK.release()
        return
    _LOCK_LEFT_HELD.append(True)
    stacks = "\n".join(f"--- {ident}\n" + "".join(traceback.format_stack(frame)[-12:])
                       for ident, frame in sys._current_frames().items())
    pytest.fail(f"the numeric lock is still held by another thread 60 s after the test ended:\n{stacks}")


#: Set once a test has been failed for a numeric lock left held by another thread (see above).
_LOCK_LEFT_HELD: list[bool] = []
