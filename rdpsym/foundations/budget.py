"""Time budgets for symbolic steps that may not terminate quickly.

SymPy's ``integrate``, ``summation`` and ``simplify`` can run for minutes on
inputs they cannot finish.  rdpsym never waits for them unboundedly: such a
call runs under :func:`time_budget`, which raises :class:`SymbolicTimeout`
when the budget is spent.  The budget uses ``SIGALRM`` and therefore only
works in the main thread; elsewhere :func:`can_budget` is False and callers
skip the unbounded step (and say so) instead of risking a hang.
"""

from __future__ import annotations

import contextlib
import gc
import signal
import threading
import time
from collections.abc import Iterator

from rdpsym.foundations.errors import NoClosedFormError, SymbolicTimeout

#: Seconds one open-ended SymPy call (integrate, summation, limit) may take.
DEFAULT_SECONDS = 5.0


def can_budget() -> bool:
    """True when a time budget can interrupt work in this thread."""
    return threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")


@contextlib.contextmanager
def time_budget(seconds: float = DEFAULT_SECONDS, what: str = "symbolic step") -> Iterator[None]:
    """Run the body for at most ``seconds``, else raise :class:`SymbolicTimeout`.

    Nested budgets keep the tighter outer deadline.

    >>> with time_budget(5):
    ...     1 + 1
    2
    """
    if not can_budget():
        raise SymbolicTimeout(f"{what}: no time budget is possible outside the main thread")

    def _expire(signum, frame):  # noqa: ARG001 - signal handler signature
        if _in_gc_callback(frame):
            # An exception raised inside a garbage-collection callback (Hypothesis installs one) is
            # swallowed as "unraisable" and the budget would be lost: fire again a moment later.
            signal.setitimer(signal.ITIMER_REAL, _RETRY_SECONDS)
            return
        raise SymbolicTimeout(f"{what} did not finish within {seconds:g} s")

    outer_remaining, _ = signal.getitimer(signal.ITIMER_REAL)
    previous = signal.signal(signal.SIGALRM, _expire)
    use = seconds if not outer_remaining else min(seconds, outer_remaining)
    started = time.monotonic()
    signal.setitimer(signal.ITIMER_REAL, use)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer_remaining:
            # Give the outer budget back what is left of it (at least a tick,
            # so that an exhausted outer budget still fires).
            left = outer_remaining - (time.monotonic() - started)
            signal.setitimer(signal.ITIMER_REAL, max(left, 1e-3))


#: How soon a budget that expired inside a garbage-collection callback fires again.
_RETRY_SECONDS = 0.005


def _in_gc_callback(frame) -> bool:
    """Whether the interrupted code is (called from) one of ``gc.callbacks``."""
    codes = {getattr(getattr(cb, "__func__", cb), "__code__", None) for cb in gc.callbacks}
    while frame is not None:
        if frame.f_code in codes:
            return True
        frame = frame.f_back
    return False


def budgeted(call, what: str, seconds: float = DEFAULT_SECONDS):
    """``call()`` under a time budget; a timeout, or no way to budget, is "no closed form".

    The one entry point for open-ended SymPy calls (integrate, summation,
    limit), so none can run unbounded.
    """
    if not can_budget():
        raise NoClosedFormError(f"{what} cannot be time-budgeted outside the main thread")
    try:
        with time_budget(seconds, what):
            return call()
    except SymbolicTimeout as exc:
        raise NoClosedFormError(str(exc)) from exc
