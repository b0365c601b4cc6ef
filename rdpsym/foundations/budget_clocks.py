"""What a time budget counts: the CPU clock of the budgeted thread, a wall-clock backstop, and retry intervals.

The terms of :mod:`rdpsym.foundations.budget` ("What a budget counts" there): a
budget of N seconds is N seconds of the thread's own CPU time
(:func:`_thread_clock`, :func:`_cpu_now`; wall time where the platform has no
per-thread clock), and ends after :data:`WALL_FACTOR`·N seconds of wall-clock time
whatever it counts.  Read by the budgets and by the watchdog
(:mod:`rdpsym.foundations.budget_watchdog`), so they sit below both.
"""

from __future__ import annotations

import functools
import os
import time

#: Seconds one open-ended SymPy call (integrate, summation, limit) may take.
DEFAULT_SECONDS = 5.0


#: A budget of N seconds of CPU time also ends after WALL_FACTOR·N seconds of wall-clock time: a thread that
#: waits (or gets 1/16 of a core among 16 busy threads on a loaded machine) is still stopped, eventually.
WALL_FACTOR = 20.0


#: The budgets' seconds are those of the machine they were set on, and this is :func:`_speed_probe`'s CPU time
#: there, estimated: on a machine where Table II cold took 2.23 s against the reference's 0.58 s (3.8× slower),
#: the probe took 0.032 s, so about 0.0084 s on the reference; set a little lower, so that a machine of the
#: reference's speed measures 1.  On that slower machine a 1 s budget on the expansion of a skew-normal's
#: log-density fired, D₂ = ∞ ended in "the integrand still grows", and two more outcomes changed: a slower
#: machine is given proportionally more seconds instead (:func:`slowness`).
REFERENCE_PROBE_SECONDS = 0.008

#: The most a budget is stretched (a machine 8× slower than the reference, or an emulated one, gets 8×).
MAX_SLOWNESS = 8.0


def _speed_probe() -> float:
    """CPU seconds of this thread for a fixed piece of the interpreter work SymPy does (tuples hashed, dicts
    updated, small integers, short strings sorted)."""
    start = time.thread_time()
    table: dict = {}
    for i in range(40000):
        key = (i % 211, i % 97)
        table[key] = table.get(key, 0) + (i * 7919) % 104729
        if i % 5 == 0:
            sorted(str(v) for v in key)
    return time.thread_time() - start


@functools.cache
def slowness() -> float:
    """How many times longer than on the reference machine rdpsym's work takes here, in [1, MAX_SLOWNESS]: every
    budget's seconds are multiplied by it, so a slow machine reaches the outcomes a fast one does.

    Measured once per process, when a budget first reaches its written deadline (one probe of about 8 ms of CPU
    on the reference machine; elsewhere the fastest of three), or read from the environment variable
    ``RDPSYM_SLOWNESS`` (a number; values outside [1, 8] are clamped) to fix it, for runs that must compare
    outcomes across machines.
    """
    given = os.environ.get("RDPSYM_SLOWNESS", "").strip()
    try:
        measured = float(given) if given else None
    except ValueError:
        measured = None
    if measured is None:
        measured = _speed_probe() / REFERENCE_PROBE_SECONDS
        if measured > 1.25:  # not plainly the reference's speed: the fastest of three (a probe may be interrupted)
            measured = min(measured, *(_speed_probe() / REFERENCE_PROBE_SECONDS for _ in range(2)))
    return min(MAX_SLOWNESS, max(1.0, measured)) if measured == measured else 1.0  # (NaN: "nan" given)


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
    "MAX_SLOWNESS",
    "RETRY_SECONDS",
    "WALL_FACTOR",
    "slowness",
]
