"""CPU time limits for the claim runner's worker process: measuring it, and stopping it when its time is up.

A load or a check may take ``timeout`` seconds of CPU time of the worker and of
the processes it started (:class:`_CpuMeter`, read from ``/proc`` on Linux, the
worker's own from its CPU clock), with a wall-clock backstop of
:data:`~rdpsym.foundations.budget.WALL_FACTOR` times as many seconds for work that
waits (:class:`_Limit`); where the system has no CPU clock to read, the limit is
wall-clock time.  :func:`_stop` ends the worker and what it started;
:func:`_death` says how a worker ended on its own.

Process accounting only: no claim, file or message is read here (the worker and
its supervisor are :mod:`rdpsym.claims.worker`).
"""

from __future__ import annotations

import os
import signal
import time

from rdpsym.foundations.budget_clocks import WALL_FACTOR


class _TimedOut(str):
    """The reason a worker was stopped: its time was up (``seconds``: the time it had, as the text says)."""

    def __new__(cls, text: str, seconds: float):
        obj = super().__new__(cls, text)
        obj.seconds = seconds
        return obj


#: The longest the supervisor waits between two readings of a worker's CPU time.
_POLL = 0.25


class _Limit:
    """The time one file's load or one claim's check may take, counted from now.

    ``seconds`` of CPU time of the worker and its descendants (:class:`_CpuMeter`), and at most
    ``WALL_FACTOR`` times as many seconds of wall-clock time, for work that waits instead of computing;
    ``seconds`` of wall-clock time where the system has no CPU clock to read.
    """

    def __init__(self, meter: _CpuMeter, seconds: float):
        self.meter, self.seconds = meter, seconds
        self.wall = time.monotonic()
        self.cpu = meter.seconds()

    def wait(self) -> float:
        """How long the supervisor may wait for the worker's next message before looking at the limit again."""
        wall_left = self.wall + self.seconds * (WALL_FACTOR if self.cpu is not None else 1.0) - time.monotonic()
        if self.cpu is None:
            return max(0.0, wall_left)
        cpu = self.meter.seconds()
        # A worker on one core uses at most one CPU second a second; one with children may use more: look again
        # within _POLL.
        cpu_left = self.seconds - (cpu - self.cpu) if cpu is not None else self.seconds
        return max(0.005, min(cpu_left, wall_left, _POLL))

    def over(self) -> _TimedOut | None:
        """The reason to stop the worker, once its load or check has had its time; None before."""
        wall = time.monotonic() - self.wall
        if self.cpu is None:
            return _TimedOut(f"timed out after {self.seconds:g} s", self.seconds) if wall >= self.seconds else None
        cpu = self.meter.seconds()
        if cpu is not None and cpu - self.cpu >= self.seconds:
            return _TimedOut(f"timed out after {self.seconds:g} CPU seconds", self.seconds)
        if wall >= WALL_FACTOR * self.seconds:
            return _TimedOut(f"timed out after {wall:.3g} s of wall-clock time, waiting: the backstop of "
                             f"{WALL_FACTOR:g} times its {self.seconds:g} CPU seconds", wall)
        return None


class _CpuMeter:
    """The CPU seconds a worker process and the processes it started have used (Linux: from ``/proc``).

    The worker's own time is read from its CPU clock (``time.clock_getcpuclockid``, nanoseconds) where there
    is one, else from ``/proc/PID/stat``; its children's from ``/proc``: each live descendant's own time and
    that of the children it has waited for (``cutime``, ``cstime``), and the children the worker has waited
    for.  A descendant that left the worker's family (a daemon that forked twice) is not counted.
    :meth:`seconds` is None where the system offers neither (the limit is then wall-clock time).
    """

    def __init__(self, pid: int):
        self.pid = pid
        try:
            self.clock = time.clock_getcpuclockid(pid)
            time.clock_gettime(self.clock)
        except (AttributeError, OSError):
            self.clock = None
        self.proc = _proc_times(pid) is not None
        self.last: float | None = None

    def seconds(self) -> float | None:
        if self.clock is None and not self.proc:
            return None
        own = None
        if self.clock is not None:
            try:
                own = time.clock_gettime(self.clock)
            except OSError:  # the worker has ended (a zombie): /proc still has its times
                own = None
        total = own or 0.0
        if self.proc:
            times = _proc_times(self.pid)
            if times is not None:
                total = (own if own is not None else times[0]) + times[1]
                total += sum(_family_seconds(child) for child in _children(self.pid))
        # (A child reaped between two readings moves from the live ones to the waited-for ones: never back.)
        self.last = total if self.last is None else max(total, self.last)
        return self.last


def _clock_ticks() -> int:
    try:
        return os.sysconf("SC_CLK_TCK")
    except (AttributeError, ValueError, OSError):
        return 100


_TICKS = _clock_ticks()


def _proc_times(pid: int) -> tuple[float, float] | None:
    """(CPU seconds of process ``pid`` itself, of the children it has waited for), from ``/proc/PID/stat``."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None
    try:  # fields[0] is the state (the stat file's 3rd field): utime, stime, cutime, cstime are the 14th-17th
        utime, stime, cutime, cstime = (int(x) for x in fields[11:15])
    except ValueError:
        return None
    return (utime + stime) / _TICKS, (cutime + cstime) / _TICKS


def _family_seconds(pid: int) -> float:
    """CPU seconds of process ``pid``, of the children it waited for, and of its live descendants."""
    times = _proc_times(pid)
    if times is None:  # it has just ended (its parent counts it once it has waited for it)
        return 0.0
    return times[0] + times[1] + sum(_family_seconds(child) for child in _children(pid))


def _children(pid: int) -> list[int]:
    """The live child processes of ``pid`` (from ``/proc``; none where it cannot be read)."""
    found: set[int] = set()
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
        for tid in tasks:
            with open(f"/proc/{pid}/task/{tid}/children", "rb") as f:
                found.update(int(c) for c in f.read().split())
        return sorted(found)
    except FileNotFoundError:
        if not os.path.isdir(f"/proc/{pid}"):
            return []
    except (OSError, ValueError):
        return []
    # A kernel without the children files: every process's parent, from its stat file.
    try:
        entries = [e for e in os.listdir("/proc") if e.isdigit()]
    except OSError:
        return []
    for entry in entries:
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                if int(f.read().rsplit(b")", 1)[1].split()[1]) == pid:
                    found.add(int(entry))
        except (OSError, IndexError, ValueError):
            continue
    return sorted(found)


def _death(pid: int) -> str:
    """How a worker ended without saying it was done."""
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    return f"ended ({'signal ' + str(-code) if code < 0 else 'exit status ' + str(code)})"


def _stop(pid: int) -> None:
    """Stop the worker (if it still runs) and the processes it started, and reap it."""
    family = _descendants(pid)
    try:
        # the worker's process group first (the worker made it: everything a claim file started, orphans
        # included, unless it left the group), then the worker itself if it did not make one
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        os.kill(pid, signal.SIGKILL)  # it starts no more
    except ProcessLookupError:
        return
    for child in family:  # (no longer the worker's to reap: orphans go to init, which reaps them)
        try:
            os.kill(child, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass


def _descendants(pid: int) -> list[int]:
    out, todo = [], _children(pid)
    while todo:
        child = todo.pop()
        if child not in out:
            out.append(child)
            todo += _children(child)
    return out

