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
    :data:`~rdpsym.foundations.budget_clocks.WALL_FACTOR` times the budget.

How it interrupts
    One watchdog thread per process (started on first use) raises the timeout
    in the budgeted thread with CPython's ``PyThreadState_SetAsyncExc``; it
    works in the main thread and in any other.  Python delivers such an
    exception at the thread's next bytecode boundary, so, like ``SIGALRM``, it
    cannot cut a single long call into C code short: it lands when that call
    returns.  Without ``ctypes.pythonapi`` (not CPython), budgets fall back to
    ``SIGALRM``, which only the main thread can use; elsewhere
    :func:`can_budget` is False and callers skip the unbounded step and say so.

A timeout is raised only inside its own block; none survives the block
    An asynchronous exception is not raised *at* a place: CPython delivers it
    at the thread's next check for one (a function's entry, a loop's back edge,
    the end of a call), which may come after the block has ended -- at the
    entry of the budget's own ``__exit__``, say, before it could unregister the
    budget, which then stayed registered and had its timeout raised again into
    whatever the thread ran next, long after the call had returned.  So:

    - a budget remembers the ``with`` statement that entered it: the frame and
      the instruction that called ``__enter__``.  Its block is *running* while
      that frame is on the thread's stack with its current instruction in the
      statement's body (the instructions CPython's exception table hands,
      directly or through nested handlers, to that statement's handler), and
      the watchdog raises the timeout only then.  A block whose frame has
      moved past its body, or has returned, ended -- if its ``__exit__`` was
      skipped (an exception, a Ctrl-C say, landing as it was entered), the
      budget is dropped unraised the first time the watchdog looks at it, or
      as the thread enters its next budget;
    - the watchdog raises only while the thread waits at one of those checks
      (the thread's innermost frame is at a call, a back edge or a function's
      entry), not while it is inside a call that released the interpreter
      lock, which might return past the block's end before the next check;
    - it looks at the thread's stack and decides, then raises in a single step
      of C calls no other thread can run in between, which first reads the
      thread's CPU clock again and raises only if the thread has not run since
      the look: the timeout lands exactly where the watchdog looked;
    - it looks again after raising, and withdraws the timeout if the thread is
      somewhere it must not land (never the case, with the step above, unless
      the platform has no per-thread CPU clock, when the step compares the
      thread's innermost frame and instruction instead), and when a thread's
      last budget ends any timeout still pending for it is withdrawn.

    A budget entered by hand (``budget.__enter__()``, ``ExitStack``) instead of
    a ``with`` statement keeps the older rule: its timeout may be raised
    wherever the thread is, until its ``__exit__`` runs.  A generator paused
    inside a budget's block (a ``yield`` in the block) gets its timeout when it
    resumes, never in the code that iterates it -- so a budget entered in a
    ``contextlib.contextmanager`` generator limits nothing while the managed
    block runs: enter it in that block.

Where it never lands
    Code that must not stop halfway -- restoring a precision and releasing its
    lock, returning a private context, a budget's own bookkeeping -- is
    registered with :func:`~rdpsym.foundations.budget_protected.protect`.  Treated the same are garbage-collection
    callbacks, ``__del__`` methods and the callbacks of weak references (an
    exception raised in one is swallowed as "unraisable"), and the import
    system (a module left half-imported fails every later import of it).
    While the thread runs such code the watchdog waits and tries again a few
    milliseconds later.
    A timeout that code catching too broadly swallowed is raised again after
    :data:`RETRY_SECONDS` of further CPU time, for as long as the block runs.
    And what a timeout might still interrupt halfway is put right as its block
    ends: state registered with
    :func:`~rdpsym.foundations.budget_protected.restore_at_block_end` (the numeric lock
    and the precisions it guards) is brought back to what it was when the block
    began.

The parts, each its own module below this one: :mod:`.budget_clocks` (what a
budget counts), :mod:`.budget_blocks` (where a block is, read from the
bytecode), :mod:`.budget_protected` (where a timeout never lands) and
:mod:`.budget_watchdog` (the thread that raises timeouts, and the budgets it
watches).  This module holds the entry points, :func:`time_budget` and
:func:`budgeted`, and the ``SIGALRM`` fallback where there is no watchdog.

>>> with time_budget(5):
...     1 + 1
2
"""

from __future__ import annotations

import functools
import signal
import sys
import threading
import time

from rdpsym.foundations.budget_blocks import _RUNNING, _WAITING, _stack_from, _where
from rdpsym.foundations.budget_clocks import _PROTECTED_RETRY, DEFAULT_SECONDS, RETRY_SECONDS, slowness
from rdpsym.foundations.budget_protected import _BLOCK_STATE, _in_protected_frame, _restore_block_state, protect
from rdpsym.foundations.budget_watchdog import _ASYNC, _WATCHDOG, _Budget, _Expired
from rdpsym.foundations.errors import NoClosedFormError, SymbolicTimeout


def can_budget() -> bool:
    """True when a time budget can interrupt work in this thread (always, on CPython)."""
    return _ASYNC or (threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"))


def in_budget() -> bool:
    """Whether this thread is inside the block of a time budget (:mod:`rdpsym.foundations.exact_size` reads it)."""
    return threading.get_ident() in _WATCHDOG.active or _ALARMS_OPEN.get(threading.get_ident(), 0) > 0


#: Open ``SIGALRM`` budgets per thread (the fallback's, which the watchdog does not hold).
_ALARMS_OPEN: dict[int, int] = {}


def time_budget(seconds: float = DEFAULT_SECONDS, what: str = "symbolic step", *, absorb: bool = False):
    """Run the body for at most ``seconds`` of this thread's CPU time, else raise :class:`SymbolicTimeout`.

    With ``absorb``, the block's own timeout ends the block quietly instead, and
    the budget's ``spent`` says so.  Either way only the block's *own* timeout
    is converted or absorbed: budgets nest, each keeps its own deadline, and an
    outer budget spent while an inner block runs raises through the inner
    block's ``with`` to its own (so ``except SymbolicTimeout`` around an inner
    step cannot swallow the outer limit for good: it fires again).  The timeout
    is raised only while the block runs, never after it (see the module
    docstring).

    >>> with time_budget(5):
    ...     1 + 1
    2
    >>> with time_budget(0.05, "a loop", absorb=True) as budget:
    ...     while True:
    ...         pass
    >>> budget.spent
    True
    """
    # The reference machine's seconds (budget_clocks.REFERENCE_PROBE_SECONDS), stretched by this machine's
    # slowness: the watchdog measures it when a block first reaches its written deadline (most never do); the
    # signal fallback, whose timer is set as it enters, measures it at once.  Its message names the seconds as
    # written, as the callers' own messages do.
    block = _Budget(seconds, what, absorb, stretch=slowness) if _ASYNC else \
        _AlarmBudget(seconds * slowness(), what, absorb)
    block.message = f"{what} did not finish within {seconds:g} s"
    return block


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
    except RecursionError as exc:  # SymPy's own way of giving up on some inputs (expand_trig of cosh(π(x − 300)/2))
        raise NoClosedFormError(f"{what}: SymPy recursed past Python's limit") from exc
    except MemoryError as exc:  # one allocation too large to make: gammasimp's [b]*e for Γ(a)^e, e ≈ 10¹² (a review:
        # simplify at α = 1 − 10⁻¹²), fails at once, before any memory is taken, and unwinding frees what the call held
        raise NoClosedFormError(f"{what}: SymPy asked for more memory than there is") from exc


class _AlarmBudget:
    """The fallback without asynchronous exceptions: ``SIGALRM`` (wall-clock time, main thread only).

    The signal's handler runs in the budgeted thread itself, where the frame it
    is given is where the timeout would land: it raises only while the block
    runs (as :class:`_Budget` decides it) and outside protected code, and does
    nothing once the block has ended (a signal already on its way as the block
    ended, or a block whose ``__exit__`` was skipped).
    """

    def __init__(self, seconds: float, what: str, absorb: bool):
        self.seconds, self.what, self.absorb = float(seconds), what, absorb
        self.message = f"{what} did not finish within {self.seconds:g} s"
        self.spent = False
        self.closed = True

    @protect
    def __enter__(self):
        if not can_budget():
            raise SymbolicTimeout(f"{self.what}: no time budget is possible outside the main thread")

        def expire(signum, frame):  # noqa: ARG001 - signal handler signature
            if self.closed:
                return
            if _in_protected_frame(frame, threading.get_ident()):  # (the handler runs in the budgeted thread)
                signal.setitimer(signal.ITIMER_REAL, _PROTECTED_RETRY)
                return
            where = _where(self.frame, self.entered_at, _stack_from(frame))
            if where is _RUNNING:
                raise self.expired
            if where is _WAITING:
                signal.setitimer(signal.ITIMER_REAL, RETRY_SECONDS)
            # _OVER: the block ended without its __exit__; nothing is raised, ever.

        self.expired = type("SymbolicTimeout", (_Expired,), {"message": self.message})
        self.frame = sys._getframe(1)
        self.entered_at = self.frame.f_lasti
        self.closed = False
        self.outer, _ = signal.getitimer(signal.ITIMER_REAL)
        self.previous = signal.signal(signal.SIGALRM, expire)
        self.started = time.monotonic()
        self.state = [snapshot() for snapshot, _ in _BLOCK_STATE]
        signal.setitimer(signal.ITIMER_REAL, self.seconds if not self.outer else min(self.seconds, self.outer))
        ident = threading.get_ident()
        _ALARMS_OPEN[ident] = _ALARMS_OPEN.get(ident, 0) + 1
        return self

    @protect
    def __exit__(self, exc_type, exc, tb) -> bool:
        self.closed = True  # first: a signal handled from here on does nothing
        self.frame = None
        ident = threading.get_ident()
        _ALARMS_OPEN[ident] = max(0, _ALARMS_OPEN.get(ident, 0) - 1)
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


class Unsettled(Exception):  # noqa: N818 - a signal to settled_cache, not an error
    """Raised inside a :func:`settled_cache` function whose answer ``value`` came from a budget that ran out."""

    def __init__(self, value: object):
        super().__init__("answered after a time budget ran out")
        self.value = value


def settled_cache(maxsize: int = 1024):
    """``functools.lru_cache`` for a function whose answer may come from an absorbed time budget: the function
    raises :class:`Unsettled` with that answer, which is returned and not remembered, so one busy moment (a cold
    SymPy cache) does not fix a lesser answer for the rest of the process (no seeds for a quadrature, say).

    >>> calls = []
    >>> @settled_cache()
    ... def f(x):
    ...     calls.append(x)
    ...     if len(calls) == 1:
    ...         raise Unsettled(None)
    ...     return x + 1
    >>> f(1), f(1), f(1), len(calls)
    (None, 2, 2, 2)
    """
    def decorate(function):
        cached = functools.lru_cache(maxsize=maxsize)(function)

        @functools.wraps(function)
        def call(*args, **kwargs):
            try:
                return cached(*args, **kwargs)
            except Unsettled as partial:
                return partial.value

        call.cache_clear = cached.cache_clear
        call.cache_info = cached.cache_info
        return call
    return decorate


__all__ = [
    "DEFAULT_SECONDS",
    "RETRY_SECONDS",
    "Unsettled",
    "budgeted",
    "can_budget",
    "in_budget",
    "protect",
    "settled_cache",
    "time_budget",
]
