"""What a crashed xdist worker was doing: the stacks of its threads, in the crashed test's report.

A worker that ends without reporting -- a test that ran into pytest-timeout's limit (its thread method writes the
stacks to the worker's standard error and ends the process), a fatal signal -- shows in the run's summary only as
"worker 'gw0' crashed while running ...", and what the worker wrote is far above it in CI's output, or cut off. That
happened to ``tests/test_ceilings.py::test_a_family_form_past_the_ceilings_leaves_the_labelled_numeric_value`` in
three loaded runs (stops 83, 86 and 87) and on CI once (stop 90), with nothing to say why. Each worker now keeps a
file holding the test it runs, its resident memory as the test began and, written by :mod:`faulthandler`, the stacks
of every thread on a fatal signal or :data:`LEAD_SECONDS` before pytest-timeout's limit; the run's first process
puts that file into the crashed test's report, which the summary shows.
"""

from __future__ import annotations

import faulthandler
import os
import shutil
import tempfile
from pathlib import Path

import pytest

#: How long before pytest-timeout's limit the stacks are written (its own dump comes as it ends the worker); half
#: the limit where that is shorter.
LEAD_SECONDS = 30
#: The most lines of the file a report quotes (its end: the innermost frames of each thread come first, per thread).
QUOTED_LINES = 300
#: The run's folder of the workers' files: made by the first process, inherited by its workers.
FOLDER = "RDPSYM_TEST_STACKS"

_made_here: list[str] = []
_stacks = None  # the worker's file, open for the worker's life (faulthandler writes to its descriptor)


def pytest_configure(config):
    if FOLDER not in os.environ and not hasattr(config, "workerinput"):
        _made_here.append(tempfile.mkdtemp(prefix="rdpsym-test-stacks-"))
        os.environ[FOLDER] = _made_here[0]


def pytest_unconfigure(config):
    for folder in _made_here:
        shutil.rmtree(folder, ignore_errors=True)


def _worker_file(worker: str) -> Path | None:
    folder = os.environ.get(FOLDER)
    return Path(folder) / f"{worker}.stacks" if folder else None


@pytest.hookimpl(trylast=True)
def pytest_sessionstart(session):
    """In a worker: its file, and faulthandler writing every thread's stack there on a fatal signal (after pytest's
    own faulthandler plugin, which writes to standard error, has set itself up)."""
    global _stacks
    worker = getattr(session.config, "workerinput", {}).get("workerid")
    path = _worker_file(worker) if worker else None
    if path is not None:
        _stacks = open(path, "w", encoding="utf-8")  # noqa: SIM115 - open for the worker's life
        faulthandler.enable(file=_stacks, all_threads=True)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    if _stacks is None:
        yield
        return
    _stacks.seek(0)
    _stacks.truncate()
    _stacks.write(f"{item.nodeid}: begun with {_resident()} resident\n")
    _stacks.flush()
    try:
        limit = float(item.config.getini("timeout") or 0)
    except (ValueError, TypeError):
        limit = 0.0
    if limit > 0:
        faulthandler.dump_traceback_later(limit - min(LEAD_SECONDS, limit / 2), file=_stacks)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()


def _resident() -> str:
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            return next(line.split(":", 1)[1].strip() for line in status if line.startswith("VmRSS"))
    except (OSError, StopIteration):
        return "an unknown amount of memory"


@pytest.hookimpl(optionalhook=True)
def pytest_handlecrashitem(crashitem, report, sched):
    """In the first process: the crashed worker's file, quoted in the crashed test's report."""
    node = getattr(report, "node", None)
    path = _worker_file(node.gateway.id) if node is not None else None
    if path is None or not path.is_file():
        return
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    shown = lines[:1] + (["..."] if len(lines) > QUOTED_LINES + 1 else []) + lines[1:][-QUOTED_LINES:]
    report.longrepr = f"{report.longrepr}\nwhat the worker's file says ({path.name}):\n" + "\n".join(shown)
