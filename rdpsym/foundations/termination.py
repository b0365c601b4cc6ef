"""SIGTERM as an exit, and the one moment it must wait for.

The command line turns SIGTERM into ``SystemExit(143)`` (:func:`sigterm_exits`, 128 + SIGTERM, as a shell
reports a process it terminated), so that every ``finally`` on the way out runs: pool workers and claim
workers are stopped, and no output is half written.  Left to its default, SIGTERM killed the process on the
spot and left its workers computing for minutes.

One moment must not be interrupted: a process pool forking its workers.  A ``SystemExit`` raised between a
``fork`` and the pool's record of the new process leaves a worker that nobody stops, waiting for a task
forever (seen under load: an orphaned worker of ``rdpsym calibrate --workers 2``, still there 35 minutes
after its command had ended).  :func:`sigterm_deferred` holds the exit back across such a block and raises
it as the block ends, when every worker is known and can be terminated.

>>> with sigterm_exits():
...     with sigterm_deferred():
...         os.kill(os.getpid(), signal.SIGTERM)   # held back: the block runs to its end
...         reached = True
Traceback (most recent call last):
  ...
SystemExit: 143
>>> reached
True
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator

#: The exit status of a command ended by SIGTERM.
SIGTERM_STATUS = 128 + signal.SIGTERM

# Held: the number of nested sigterm_deferred blocks open in the main thread, and the process that opened
# them (a child forked inside a block inherits the count, but is not the holder: SIGTERM ends it at once).
_held = 0
_holder: int | None = None
_pending = False


def _exit_on_sigterm(signum, frame) -> None:
    global _pending
    if _held and _holder == os.getpid():
        _pending = True
        return
    raise SystemExit(128 + signum)


@contextlib.contextmanager
def sigterm_exits() -> Iterator[None]:
    """SIGTERM raises ``SystemExit(143)`` in the main thread while the block runs (signal handlers can only
    be set there; elsewhere the block runs unchanged).  The previous handler is put back after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _exit_on_sigterm)
    try:
        yield
    finally:
        # (None: a handler set outside Python, which signal cannot reinstall: the default then)
        signal.signal(signal.SIGTERM, signal.SIG_DFL if previous is None else previous)


@contextlib.contextmanager
def sigterm_deferred() -> Iterator[None]:
    """A SIGTERM that arrives while the block runs (in the main thread, under :func:`sigterm_exits`) ends the
    process as the block ends, not inside it.  Nested blocks hold it to the outermost's end."""
    global _held, _holder, _pending
    if threading.current_thread() is not threading.main_thread():
        yield  # a SIGTERM is raised in the main thread, never inside this thread's block
        return
    if not _held:
        _holder = os.getpid()
    _held += 1
    try:
        yield
    finally:
        _held -= 1
        if not _held and _pending:
            _pending = False
            raise SystemExit(SIGTERM_STATUS)


def default_sigterm() -> None:
    """SIGTERM ends this process at once, whatever handler it inherited (a pool worker's first step)."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


__all__ = ["SIGTERM_STATUS", "default_sigterm", "sigterm_deferred", "sigterm_exits"]
