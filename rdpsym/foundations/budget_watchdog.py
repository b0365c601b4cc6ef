"""The watchdog: one thread per process that raises a budget's timeout in the budgeted thread.

The section "How it interrupts" of :mod:`rdpsym.foundations.budget`: the
watchdog (:class:`_Watchdog`, started on first use) looks at each budgeted
thread's clock and stack, and raises the timeout with CPython's
``PyThreadState_SetAsyncExc`` only while the block runs, outside protected code
and at an instruction where it lands at once -- reading the clock, comparing and
raising in one step of C calls (:func:`_raise_unless_moved`), and withdrawing it
(:func:`_withdraw`) if it could land somewhere it must not.  :func:`checkpoint`
raises, from protected code, a timeout that was held back while the thread was
there.  A budget (:class:`_Budget`, the block of one
:func:`rdpsym.foundations.budget.time_budget`) registers with it as it is
entered and leaves as it ends; its timeout is an :class:`_Expired` of its own.
"""

from __future__ import annotations

import ctypes
import functools
import operator
import os
import queue
import sys
import threading
import time

from rdpsym.foundations.budget_blocks import _OVER, _RUNNING, _at_landing, _stack_from, _where, _with_body
from rdpsym.foundations.budget_clocks import (
    _LOOKS,
    _PROTECTED_RETRY,
    RETRY_SECONDS,
    WALL_FACTOR,
    _cpu_now,
    _thread_clock,
    _ThreadEnded,
    _witness_clock,
)
from rdpsym.foundations.budget_protected import (
    _BLOCK_STATE,
    _importing,
    _in_protected_frames,
    _restore_block_state,
    at_c_boundary,
    protect,
)
from rdpsym.foundations.errors import SymbolicTimeout

_ASYNC = hasattr(ctypes, "pythonapi") and sys.implementation.name == "cpython"


class _Expired(SymbolicTimeout):
    """The exception the watchdog raises; each budget has its own subclass carrying its message.

    (An asynchronous exception is given as a class and built without arguments.)
    A budget turns its own into a plain :class:`SymbolicTimeout` on the way out.
    """

    message = "time budget spent"

    def __init__(self, *args):
        super().__init__(*(args or (self.message,)))


class _Budget:
    """One ``time_budget`` block (a context manager)."""

    def __init__(self, seconds: float, what: str, absorb: bool, stretch=None):
        self.seconds = float(seconds)
        # The factor the deadlines are stretched by (budget_clocks.slowness), asked for only when the written
        # deadline is reached: a process whose blocks all end in time never pays for measuring it.
        self.stretch = stretch
        self.what = what
        self.absorb = absorb
        self.message = f"{what} did not finish within {self.seconds:g} s"
        self.fired_cpu: float | None = None
        self.spent = False
        self.held_back = False  # due while the thread was in protected code: raised at its next checkpoint()
        self.frame = None  # the frame of the with statement that entered it, while registered
        self.entered_at = -1

    @protect
    def __enter__(self) -> _Budget:
        self.ident = threading.get_ident()
        self.clock = _thread_clock(self.ident)
        self.cpu_deadline = _cpu_now(self.clock) + self.seconds
        self.wall_deadline = time.monotonic() + WALL_FACTOR * self.seconds
        self.expired = type("SymbolicTimeout", (_Expired,), {"message": self.message})
        self.state = [snapshot() for snapshot, _ in _BLOCK_STATE]
        self.frame = sys._getframe(1)
        self.entered_at = self.frame.f_lasti
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

    def where(self, stack: set) -> str:
        return _where(self.frame, self.entered_at, stack)

    def reentered(self, newer: _Budget) -> bool:
        """Whether ``newer`` was entered by this budget's with statement in the same frame (which cannot be
        open twice: this budget's block ended without its ``__exit__``)."""
        return newer is not self and newer.frame is self.frame and newer.entered_at == self.entered_at and \
            self.frame is not None and _with_body(self.frame.f_code, self.entered_at) is not None

    def due(self, cpu: float, wall: float) -> bool:
        if cpu < self.cpu_deadline and wall < self.wall_deadline:
            return False
        if self.stretch is not None:  # the written deadline: stretched once, by this machine's slowness
            extra = self.seconds * (self.stretch() - 1.0)
            self.stretch = None
            self.seconds += extra
            self.cpu_deadline += extra
            self.wall_deadline += WALL_FACTOR * extra
            return self.due(cpu, wall)
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
    It holds the lock while it looks and raises, so a thread cannot finish
    entering or leaving a block meanwhile.
    """

    def __init__(self):
        self._reset()

    def _reset(self) -> None:
        self.lock = threading.Lock()
        self.wake: queue.SimpleQueue = queue.SimpleQueue()
        self.active: dict[int, list[_Budget]] = {}
        self.raised: set[int] = set()  # threads a timeout was raised in while their current budgets ran
        self.thread: threading.Thread | None = None

    @protect
    def add(self, budget: _Budget) -> None:
        with self.lock:
            stack = self.active.setdefault(budget.ident, [])
            if stack:  # registrations left by blocks whose __exit__ was skipped (this thread's own stack: exact)
                frames = _stack_from(sys._getframe(1))
                for b in [b for b in stack if b.where(frames) is _OVER or b.reentered(budget)]:
                    stack.remove(b)
            stack.append(budget)
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self._run, name="rdpsym-time-budgets", daemon=True)
                self.thread.start()
        self.wake.put(None)

    @protect
    def remove(self, budget: _Budget) -> None:
        with self.lock:
            stack = self.active.get(budget.ident)
            if stack is not None:
                if budget in stack:
                    stack.remove(budget)
                if not stack:
                    del self.active[budget.ident]
            budget.frame = None  # (the frame and its locals are not kept alive by a budget that ended)
            if budget.ident not in self.active:
                self._last_one_ended(budget.ident)

    def _last_one_ended(self, ident: int) -> None:
        """No budget of thread ``ident`` is left: withdraw a timeout raised in it that may not have landed."""
        if ident in self.raised:
            self.raised.discard(ident)
            _withdraw(ident)

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
        sleep = 1.0
        for ident, stack in list(self.active.items()):
            try:
                sleep = min(sleep, self._check_thread(ident, stack))
            except _ThreadEnded:  # the thread ended inside its blocks (it cannot leave one otherwise)
                del self.active[ident]
                if ident in self.raised:  # (its timeout may have ended with it, untaken: the signal stays set)
                    self.raised.discard(ident)
                    _clear_the_pending_signal()
        return max(sleep, 1e-3)

    def _check_thread(self, ident: int, stack: list[_Budget]) -> float:
        """Raise thread ``ident``'s innermost due timeout if its block runs; the seconds before looking again."""
        clock = stack[0].clock
        for _ in range(_LOOKS):
            seen = _witness_clock(clock)  # read before the look: the raise checks it is unchanged
            cpu, wall = (seen / 1e9 if clock is not None else seen), time.monotonic()
            due = [b for b in stack if b.due(cpu, wall)]
            if not due:
                return min(b.wait(cpu, wall) for b in stack)
            top = sys._current_frames().get(ident)
            frames = _stack_from(top)
            if frames is None:  # a stack read while it changed: look again
                continue
            budget = None
            for b in reversed(due):  # the innermost: its block converts it, and the outer ones fire again if spent
                where = b.where(frames)
                if where is _OVER:  # its block ended without its __exit__: never raised again
                    stack.remove(b)
                elif where is _RUNNING:
                    budget = b
                    break
            if not stack:
                del self.active[ident]
                self._last_one_ended(ident)
                return 1.0
            if budget is None:  # still entering, or a generator paused inside its block
                return max(_PROTECTED_RETRY, min(RETRY_SECONDS, *(b.wait(cpu, wall) for b in stack)))
            if _in_protected_frames(frames, ident) or at_c_boundary(top):
                budget.held_back = True  # for checkpoint(), in case the thread is (nearly) always there
                return _PROTECTED_RETRY
            if top is None or not _at_landing(top):  # inside a call that let go of the interpreter lock
                return _PROTECTED_RETRY
            if clock is None:
                seen = (top, top.f_lasti)
            if _raise_unless_moved(ident, budget.expired, clock, seen):
                budget.held_back = False
                budget.fired_cpu = cpu
                self.raised.add(ident)
                self._withdraw_if_misplaced(ident, budget)
                return min(b.wait(cpu, wall) for b in stack)
            # The thread ran between the look and the raise (nothing was raised): look again.
        return _PROTECTED_RETRY

    def _withdraw_if_misplaced(self, ident: int, budget: _Budget) -> None:
        """Look again after raising: withdraw the timeout if the thread is where it must not land."""
        top = sys._current_frames().get(ident)
        frames = _stack_from(top)
        if frames is None or _in_protected_frames(frames, ident) or at_c_boundary(top) or \
                budget.where(frames) is not _RUNNING:
            _withdraw(ident)


if _ASYNC:
    _SET_ASYNC_EXC = ctypes.pythonapi.PyThreadState_SetAsyncExc


def _raise_unless_moved(ident: int, exc_type: type, clock, seen) -> bool:
    """Raise ``exc_type`` in thread ``ident`` if it has not run since ``seen``; whether it was raised.

    ``seen`` is the thread's CPU clock in nanoseconds, read before the watchdog
    looked at its stack (or, with no per-thread clock, its innermost frame and
    instruction then).  The reading, the comparison and the raise are nested C
    calls (``next`` of ``map`` objects built beforehand): no bytecode runs in
    between, so no other thread can, and no garbage-collected object is made
    that could start a collection (and a finalizer) in between.  A thread that
    ran meanwhile may be anywhere: nothing is raised, the watchdog looks again.
    """
    raise_it = functools.partial(_SET_ASYNC_EXC, ctypes.c_ulong(ident), ctypes.py_object(exc_type))
    if clock is not None:
        unmoved = map(operator.eq, map(time.clock_gettime_ns, (clock,)), (seen,))
    else:
        top, lasti = seen
        now = map(operator.methodcaller("get", ident), map(operator.call, (sys._current_frames,)))
        unmoved = map(operator.and_, map(operator.is_, now, (top,)),
                      map(operator.eq, map(operator.attrgetter("f_lasti"), (top,)), (lasti,)))
    step = map(operator.call, map(operator.getitem, ((int, raise_it),), unmoved))
    try:
        done = next(step)
    except OSError:  # the thread's clock is gone: it has ended
        raise _ThreadEnded from None
    if done > 1:  # cannot happen for one thread id; CPython's documented remedy
        _withdraw(ident)
        return False
    return done == 1


def checkpoint() -> None:
    """Raise, here and now, a timeout of this thread's that was held back because it was in protected code.

    Protected code calls it where an exception is harmless (before taking a
    lock): two threads taking turns at one lock spend nearly all their time in
    protected code -- one holding the lock, one waiting for it -- and the
    watchdog, which only finds them there, would hold their timeouts back for
    ever.  Cheap when there is nothing to raise (a dictionary lookup).  Only a
    budget whose block encloses this call is raised.
    """
    stack = _WATCHDOG.active.get(threading.get_ident())
    if not stack:
        return
    for budget in reversed(list(stack)):
        if budget.held_back:
            budget.held_back = False
            frames = _stack_from(sys._getframe(1))
            if _importing(frames):
                budget.held_back = True  # (a module being imported is not stopped halfway: at the next one)
            elif budget.where(frames) is _RUNNING:
                budget.fired_cpu = _cpu_now(budget.clock)
                raise budget.expired


def _withdraw(ident: int) -> None:
    """Withdraw an asynchronous exception pending for thread ``ident`` (nothing if none is)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), None)
    _clear_the_pending_signal()


class _Unsignal(BaseException):
    """Raised by a thread at itself, and caught, to clear the interpreter's "asynchronous exception" signal."""


#: How many bytecodes the raise of :class:`_Unsignal` is given to land in (it lands at the first check).
_UNSIGNAL_LOOPS = 100


def _clear_the_pending_signal() -> None:
    """Clear CPython 3.11's interpreter-wide signal that some thread has an asynchronous exception to take.

    ``PyThreadState_SetAsyncExc`` sets that signal even to withdraw an exception, and a thread that ends with one
    pending never takes it; only a thread taking its own clears the signal. Left set, it is harmless until a trace
    function is set: then every traced call spins for ever in CPython's first instruction (which sees the signal,
    finds nothing to raise and, tracing, runs itself again). After rdpsym's budgets had fired in threads, a
    debugger, a coverage run or any ``sys.settrace`` hung at its first traced call (a test of this stop, after
    ``tests/test_concurrency.py``). The thread here raises :class:`_Unsignal` at itself and catches it. A
    timeout pending for another thread still lands: the watchdog raises it again at its next look (1 ms) while
    its budget is due. Called only where no timeout is raised at the calling thread (the watchdog's own thread, or
    protected code)."""
    if not _ASYNC:
        return
    own = ctypes.c_ulong(threading.get_ident())
    try:
        _SET_ASYNC_EXC(own, ctypes.py_object(_Unsignal))
        for _ in range(_UNSIGNAL_LOOPS):  # (a backward jump is a check: it lands here at once)
            pass
    except _Unsignal:
        return
    _SET_ASYNC_EXC(own, None)  # not landed (an interpreter that checks more rarely): never later, elsewhere


_WATCHDOG = _Watchdog()


if hasattr(os, "register_at_fork"):
    # A child process starts with one thread: the watchdog (and a lock it may have held) stays behind.  The
    # child's budgets end with the parent's registrations: its blocks run on, unlimited, and leave quietly.
    os.register_at_fork(after_in_child=_WATCHDOG._reset)


__all__ = [
    "checkpoint",
]
