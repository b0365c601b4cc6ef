"""What a time budget counts: the CPU clock of the budgeted thread, a wall-clock backstop, and retry intervals.

The terms of :mod:`rdpsym.foundations.budget` ("What a budget counts" there): a
budget of N seconds is N seconds of the thread's own CPU time
(:func:`_thread_clock`, :func:`_cpu_now`; wall time where the platform has no
per-thread clock), and ends after :data:`WALL_FACTOR`·N seconds of wall-clock time
whatever it counts.  Read by the budgets and by the watchdog
(:mod:`rdpsym.foundations.budget_watchdog`), so they sit below both.
"""

from __future__ import annotations

import time

#: Seconds one open-ended SymPy call (integrate, summation, limit) may take.
DEFAULT_SECONDS = 5.0


#: A budget of N seconds of CPU time also ends after WALL_FACTOR·N seconds of wall-clock time: a thread that
#: waits (or gets 1/16 of a core among 16 busy threads on a loaded machine) is still stopped, eventually.
WALL_FACTOR = 20.0


#: A timeout the budgeted code swallowed is raised again after this much more CPU time of the thread.
RETRY_SECONDS = 0.1


#: How soon the watchdog tries again when the thread is in protected code (or inside a call).
_PROTECTED_RETRY = 0.003


#: Looks at a thread in a row before the watchdog lets it run a little (it ran during each look).
_LOOKS = 3


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


class _ThreadEnded(Exception):
    pass


def _witness_clock(clock) -> int | float:
    """The thread's CPU clock in nanoseconds (wall time where there is none); _ThreadEnded once it has ended."""
    if clock is None:
        return time.monotonic()
    try:
        return time.clock_gettime_ns(clock)
    except OSError:
        raise _ThreadEnded from None


__all__ = [
    "DEFAULT_SECONDS",
    "RETRY_SECONDS",
    "WALL_FACTOR",
]
