"""Time budgets for work that may not terminate quickly, in any thread.

SymPy's ``integrate``, ``summation`` and ``simplify`` can run for minutes on
inputs they cannot finish, and a quadrature can be asked for more than it can
deliver.  rdpsym never waits for them unboundedly: such a call runs under
:func:`time_budget`, which raises :class:`SymbolicTimeout` when the budget is
spent.

What a budget counts
    The **CPU time of the thread** running the block, so that whether a step
    finishes does not depend on how loaded the machine is or on how many
    threads share the interpreter (16 threads deriving at once each get the
    seconds they would get alone, and the same results).  A block that waits
    instead of computing is stopped by a wall-clock backstop of
    :data:`WALL_FACTOR` times the budget.

How it interrupts
    One watchdog thread per process (started on first use) raises the timeout
    in the budgeted thread with CPython's ``PyThreadState_SetAsyncExc``; it
    works in the main thread and in any other.  Python delivers such an
    exception at the thread's next bytecode boundary, so, like ``SIGALRM``, it
    cannot cut a single long call into C code short: it lands when that call
    returns.  Without ``ctypes.pythonapi`` (not CPython), budgets fall back to
    ``SIGALRM``, which only the main thread can use; elsewhere
    :func:`can_budget` is False and callers skip the unbounded step and say so.

Where it never lands
    Code that must not stop halfway -- restoring a precision and releasing its
    lock, returning a private context, a budget's own bookkeeping -- is
    registered with :func:`protect`; so are garbage-collection callbacks (an
    exception raised in one is swallowed as "unraisable").  While the thread
    runs such code the watchdog waits and tries again a few milliseconds later.
    A timeout that code catching too broadly swallowed is raised again after
    :data:`RETRY_SECONDS` of further CPU time, for as long as the block runs.
    The watchdog looks at the thread's stack, raises, and looks again: a thread
    that stepped into protected code in between has the timeout withdrawn
    before it can land there.  And what a timeout might still interrupt halfway
    is put right as its block ends: state registered with
    :func:`restore_at_block_end` (the numeric lock and the precisions it guards)
    is brought back to what it was when the block began.

>>> with time_budget(5):
...     1 + 1
2
"""

from __future__ import annotations

import ctypes
import gc
import os
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable

from rdpsym.foundations.errors import NoClosedFormError, SymbolicTimeout

#: Seconds one open-ended SymPy call (integrate, summation, limit) may take.
DEFAULT_SECONDS = 5.0
#: A budget of N seconds of CPU time also ends after WALL_FACTOR·N seconds of wall-clock time: a thread that
#: waits (or gets 1/16 of a core among 16 busy threads on a loaded machine) is still stopped, eventually.
WALL_FACTOR = 20.0
#: A timeout the budgeted code swallowed is raised again after this much more CPU time of the thread.
RETRY_SECONDS = 0.1
#: How soon the watchdog tries again when the thread is in protected code.
_PROTECTED_RETRY = 0.003

_ASYNC = hasattr(ctypes, "pythonapi") and sys.implementation.name == "cpython"

#: Code objects an asynchronous timeout must not interrupt (see :func:`protect`).
_PROTECTED: set = set()


#: (snapshot, restore) pairs: per-thread state a budget brings back, as it ends, to what it was when it began.
_BLOCK_STATE: list[tuple[Callable[[], object], Callable[[object], None]]] = []


def restore_at_block_end(snapshot: Callable[[], object], restore: Callable[[object], None]) -> None:
    """Have every budget call ``restore(snapshot())``, with the snapshot taken as it began, when it ends.

    For per-thread state whose own clean-up a timeout may have skipped (an
    ``__exit__`` interrupted as it was entered): anything opened inside a block
    is closed by the time the block ends, so what is still open then was left
    behind.  ``restore`` must be cheap when nothing was.
    """
    _BLOCK_STATE.append((snapshot, restore))


def protect(function: Callable) -> Callable:
    """Mark ``function`` as code a timeout never interrupts (used as a decorator).

    For short bookkeeping only -- a timeout waits while the thread is inside it.
    """
    _PROTECTED.add(function.__code__)
    return function


def can_budget() -> bool:
    """True when a time budget can interrupt work in this thread (always, on CPython)."""
    return _ASYNC or (threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"))


class _Expired(SymbolicTimeout):
    """The exception the watchdog raises; each budget has its own subclass carrying its message.

    (An asynchronous exception is given as a class and built without arguments.)
    A budget turns its own into a plain :class:`SymbolicTimeout` on the way out.
    """

    message = "time budget spent"

    def __init__(self, *args):
        super().__init__(*(args or (self.message,)))


def _thread_clock(ident: int):
    """The CPU-time clock of thread ``ident`` (None where the platform has none: wall time is used)."""
    try:
        return time.pthread_getcpuclockid(ident)
    except (AttributeError, OSError):
        return None


def _cpu_now(clock) -> float | None:
    if clock is None:
        return time.monotonic()
    try:
        return time.clock_gettime(clock)
    except OSError:  # the thread has ended
        return None


class _Budget:
    """One ``time_budget`` block (a context manager)."""

    def __init__(self, seconds: float, what: str, absorb: bool):
        self.seconds = float(seconds)
        self.what = what
        self.absorb = absorb
        self.message = f"{what} did not finish within {self.seconds:g} s"
        self.fired_cpu: float | None = None
        self.spent = False
        self.held_back = False  # due while the thread was in protected code: raised at its next checkpoint()

    @protect
    def __enter__(self) -> _Budget:
        self.ident = threading.get_ident()
        self.clock = _thread_clock(self.ident)
        self.cpu_deadline = _cpu_now(self.clock) + self.seconds
        self.wall_deadline = time.monotonic() + WALL_FACTOR * self.seconds
        self.expired = type("SymbolicTimeout", (_Expired,), {"message": self.message})
        self.state = [snapshot() for snapshot, _ in _BLOCK_STATE]
        _WATCHDOG.add(self)
        return self

    @protect
    def __exit__(self, exc_type, exc, tb) -> bool:
        _WATCHDOG.remove(self)
        _restore_block_state(self.state)
        if exc_type is not None and exc_type is self.expired:
            self.spent = True
            if self.absorb:
                return True
            raise SymbolicTimeout(self.message) from None
        return False  # another budget's timeout (an outer one) goes on to its own block

    def due(self, cpu: float, wall: float) -> bool:
        if cpu < self.cpu_deadline and wall < self.wall_deadline:
            return False
        return self.fired_cpu is None or cpu - self.fired_cpu >= RETRY_SECONDS

    def wait(self, cpu: float, wall: float) -> float:
        """Wall seconds before this budget can next be due (CPU time advances no faster than wall time)."""
        cpu_left = self.cpu_deadline - cpu
        if self.fired_cpu is not None:
            cpu_left = max(cpu_left, self.fired_cpu + RETRY_SECONDS - cpu)
        return max(0.0, min(cpu_left, self.wall_deadline - wall))


class _Watchdog:
    """The thread that raises timeouts in budgeted threads.

    Budgeted threads only take its lock with a ``with`` on a plain lock and wake
    it through a queue, both C code: a timeout landing in the middle cannot
    leave either half-done (``threading.Condition`` is Python code, and a
    timeout raised in it just after it took its lock kept the lock for good).
    """

    def __init__(self):
        self._reset()

    def _reset(self) -> None:
        self.lock = threading.Lock()
        self.wake: queue.SimpleQueue = queue.SimpleQueue()
        self.active: dict[int, list[_Budget]] = {}
        self.thread: threading.Thread | None = None

    @protect
    def add(self, budget: _Budget) -> None:
        with self.lock:
            self.active.setdefault(budget.ident, []).append(budget)
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self._run, name="rdpsym-time-budgets", daemon=True)
                self.thread.start()
        self.wake.put(None)

    @protect
    def remove(self, budget: _Budget) -> None:
        with self.lock:
            stack = self.active.get(budget.ident, [])
            if budget in stack:
                stack.remove(budget)
            if not stack:
                self.active.pop(budget.ident, None)

    def _run(self) -> None:
        sleep = None  # nothing to watch: wait for a budget
        while True:
            try:
                self.wake.get(timeout=sleep)
            except queue.Empty:
                pass
            with self.lock:
                sleep = self._check() if self.active else None

    def _check(self) -> float:
        """Raise every timeout that is due; return how long to sleep (called with the lock held)."""
        wall = time.monotonic()
        sleep = 1.0
        for ident, stack in list(self.active.items()):
            cpu = _cpu_now(stack[0].clock)
            if cpu is None:  # the thread ended inside its block (it cannot exit one otherwise)
                del self.active[ident]
                continue
            due = [b for b in stack if b.due(cpu, wall)]
            if due:
                budget = due[-1]  # the innermost: its block converts it, and the outer ones fire again if spent
                if in_protected_code(ident) or not _raise_outside_protected_code(ident, budget.expired):
                    budget.held_back = True  # for checkpoint(), in case the thread is (nearly) always there
                    sleep = min(sleep, _PROTECTED_RETRY)
                    continue
                budget.held_back = False
                budget.fired_cpu = cpu
            sleep = min([sleep, *(b.wait(cpu, wall) for b in stack)])
        return max(sleep, 1e-3)


def _raise_outside_protected_code(ident: int, exc_type: type) -> bool:
    """Raise ``exc_type`` in thread ``ident``, and withdraw it if the thread has meanwhile entered protected code.

    The thread can only have moved if this one lost the interpreter between its
    look at the stack and the raise; looking again after the raise catches that
    (the exception is delivered only when the thread runs again).
    """
    _raise_in(ident, exc_type)
    if in_protected_code(ident):
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), None)
        return False
    return True


def checkpoint() -> None:
    """Raise, here and now, a timeout of this thread's that was held back because it was in protected code.

    Protected code calls it where an exception is harmless (before taking a
    lock): two threads taking turns at one lock spend nearly all their time in
    protected code -- one holding the lock, one waiting for it -- and the
    watchdog, which only finds them there, would hold their timeouts back for
    ever.  Cheap when there is nothing to raise (a dictionary lookup).
    """
    for budget in reversed(_WATCHDOG.active.get(threading.get_ident(), ())):
        if budget.held_back:
            budget.held_back = False
            budget.fired_cpu = _cpu_now(budget.clock)
            raise budget.expired


@protect
def _restore_block_state(state: list) -> None:
    for (_, restore), saved in zip(_BLOCK_STATE, state):
        restore(saved)


def _raise_in(ident: int, exc_type: type) -> None:
    done = ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), ctypes.py_object(exc_type))
    if done > 1:  # cannot happen for one thread id; CPython's documented remedy
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), None)


def in_protected_code(ident: int) -> bool:
    """Whether thread ``ident`` is inside protected code or a garbage-collection callback.

    Anything else that interrupts a thread asynchronously (a test's watchdog)
    should wait while this is True, as the budgets' watchdog does.
    """
    return _in_protected_frame(sys._current_frames().get(ident))


def _in_protected_frame(frame) -> bool:
    gc_codes = {getattr(getattr(cb, "__func__", cb), "__code__", None) for cb in gc.callbacks}
    while frame is not None:
        if frame.f_code in _PROTECTED or frame.f_code in gc_codes:
            return True
        frame = frame.f_back
    return False


_WATCHDOG = _Watchdog()
if hasattr(os, "register_at_fork"):
    # A child process starts with one thread: the watchdog (and a lock it may have held) stays behind.
    os.register_at_fork(after_in_child=_WATCHDOG._reset)


def time_budget(seconds: float = DEFAULT_SECONDS, what: str = "symbolic step", *, absorb: bool = False):
    """Run the body for at most ``seconds`` of this thread's CPU time, else raise :class:`SymbolicTimeout`.

    With ``absorb``, the block's own timeout ends the block quietly instead, and
    the budget's ``spent`` says so.  Either way only the block's *own* timeout
    is converted or absorbed: budgets nest, each keeps its own deadline, and an
    outer budget spent while an inner block runs raises through the inner
    block's ``with`` to its own (so ``except SymbolicTimeout`` around an inner
    step cannot swallow the outer limit for good: it fires again).

    >>> with time_budget(5):
    ...     1 + 1
    2
    >>> with time_budget(0.05, "a loop", absorb=True) as budget:
    ...     while True:
    ...         pass
    >>> budget.spent
    True
    """
    if _ASYNC:
        return _Budget(seconds, what, absorb)
    return _AlarmBudget(seconds, what, absorb)


def budgeted(call, what: str, seconds: float = DEFAULT_SECONDS):
    """``call()`` under a time budget; its timeout, or no way to budget, is "no closed form".

    The one entry point for open-ended SymPy calls (integrate, summation,
    limit), so none can run unbounded.  An outer budget that is spent meanwhile
    is not "no closed form": it goes on to its own block.
    """
    if not can_budget():
        raise NoClosedFormError(f"{what} cannot be time-budgeted in this thread")
    budget = time_budget(seconds, what)
    try:
        with budget:
            return call()
    except SymbolicTimeout as exc:
        if not budget.spent:
            raise
        raise NoClosedFormError(str(exc)) from exc


class _AlarmBudget:
    """The fallback without asynchronous exceptions: ``SIGALRM`` (wall-clock time, main thread only)."""

    def __init__(self, seconds: float, what: str, absorb: bool):
        self.seconds, self.what, self.absorb = float(seconds), what, absorb
        self.spent = False

    def __enter__(self):
        if not can_budget():
            raise SymbolicTimeout(f"{self.what}: no time budget is possible outside the main thread")

        def expire(signum, frame):  # noqa: ARG001 - signal handler signature
            if _in_protected_frame(frame):
                signal.setitimer(signal.ITIMER_REAL, _PROTECTED_RETRY)
                return
            raise self.expired

        self.expired = type("SymbolicTimeout", (_Expired,), {"message": f"{self.what} did not finish within "
                                                                       f"{self.seconds:g} s"})
        self.outer, _ = signal.getitimer(signal.ITIMER_REAL)
        self.previous = signal.signal(signal.SIGALRM, expire)
        self.started = time.monotonic()
        self.state = [snapshot() for snapshot, _ in _BLOCK_STATE]
        signal.setitimer(signal.ITIMER_REAL, self.seconds if not self.outer else min(self.seconds, self.outer))
        return self

    def __exit__(self, exc_type, exc, tb) -> bool:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self.previous)
        _restore_block_state(self.state)
        if self.outer:
            left = self.outer - (time.monotonic() - self.started)
            signal.setitimer(signal.ITIMER_REAL, max(left, 1e-3))
        if exc_type is not None and exc_type is self.expired:
            self.spent = True
            if self.absorb:
                return True
            raise SymbolicTimeout(exc.message) from None
        return False


__all__ = [
    "DEFAULT_SECONDS",
    "RETRY_SECONDS",
    "WALL_FACTOR",
    "budgeted",
    "can_budget",
    "checkpoint",
    "in_protected_code",
    "protect",
    "restore_at_block_end",
    "time_budget",
]
