"""Load claim files, check them, and report: the engine behind ``rdpsym check``.

A claim file is a Python file that defines ``CLAIMS`` (a list of
:class:`~rdpsym.claims.Claim`) or ``CLAIM`` (one).  Loading it must do no work
beyond building those objects.  A file that does not load, or defines no
claims, becomes a :class:`LoadFailure` naming the file, the line and the problem
(a syntax error by its line in the file, not in Python's import machinery); the
other files still run.

The stages are modules: files are found and loaded by :mod:`rdpsym.claims.loading`,
loaded and checked in a worker process by :mod:`rdpsym.claims.worker`, within
the CPU time limits of :mod:`rdpsym.claims.limits`; this module holds the entry
points (:func:`run`, :func:`check`, :func:`time_limit`) and the :class:`Report`.

**Time limits.**  A claim file is a program: it may loop at import, or a step
may never finish.  :func:`run` and :func:`check` therefore load and check in a
worker process (forked: it starts with everything this process has, and sends
back each result, which pickles), and give each file's load and each claim's
check at most ``timeout`` seconds of **CPU time** (:data:`DEFAULT_TIMEOUT`): the
CPU time of the worker and of the processes it started (a claim file may run a
process pool, :mod:`rdpsym.foundations.parallel`), so that a catalogue has the
same outcomes on a busy machine as on an idle one.  A load or check that waits
instead of computing is stopped by a wall-clock backstop of
:data:`~rdpsym.foundations.budget_clocks.WALL_FACTOR` times the limit.  Past either the
worker (and what it started) is stopped and the file is reported as a
:class:`LoadFailure`, or the claim as ``unknown`` with the evidence "timed out
after N CPU seconds" (or "... of wall-clock time"); a fresh worker goes on with
the rest.  A worker that dies (a segfault, ``os._exit``) is reported the same
way.  The CPU time is read from ``/proc`` (Linux; the worker's own from its CPU
clock, ``time.clock_getcpuclockid``); where the system has neither, the limit is
wall-clock time, ``timeout`` seconds, as on a machine with nothing else to do,
and the evidence says "timed out after N s".  Where the system cannot fork
(Windows), or with ``timeout=None``, the claims run in this process, without a
limit.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from rdpsym.claims.claim import Claim, ClaimResult, Verdict
from rdpsym.claims.loading import LoadFailure, _Loader, catalogue_path, claim_files, load  # runner.catalogue_path()
from rdpsym.claims.worker import _Supervised
from rdpsym.foundations import operations
from rdpsym.foundations.errors import ParameterError, WrongType, must
from rdpsym.foundations.reading import number

#: CPU seconds each claim file's load, and each claim's check, may take (``rdpsym check --timeout``).  The
#: slowest claim of the catalogue takes about 4 s of CPU and a file loads in well under a second; 120 s
#: leaves room for a tracing coverage run (CPU time: a loaded machine needs no room), and still ends a file
#: that loops.
DEFAULT_TIMEOUT = 120.0
#: The longest time limit accepted (a day): a limit is a number of seconds, not a way to wait forever.
MAX_TIMEOUT = 86400.0


@dataclass
class Report:
    """Checked claims, the files that failed to load, and where each claim came from.

    ``str(report)`` is the text table ``rdpsym check`` prints; Jupyter shows it
    as Markdown; :mod:`rdpsym.render.claims` writes it as JSON and LaTeX.
    """

    results: list[ClaimResult]
    failures: list[LoadFailure]
    seconds: float
    #: claim id -> the file it came from (relative to the folder given)
    paths: dict = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.failures and all(r.ok for r in self.results)

    def counts(self) -> dict[str, int]:
        out = {v.value: 0 for v in Verdict if v is not Verdict.NUMERIC}
        for r in self.results:
            out[r.verdict.value] += 1
        return out

    def __str__(self) -> str:
        return operations.text(self)

    def _repr_markdown_(self) -> str:
        return operations.markdown(self)


def run(paths: Iterable[Path] | None = None, progress=None, timeout: float | None = DEFAULT_TIMEOUT,
        before_check: Callable[[list[Claim]], None] | None = None) -> Report:
    """Load and check every claim under ``paths`` (default: the built-in catalogue).

    Each file's load and each claim's check gets at most ``timeout`` seconds (None: no limit), in a
    worker process (see the module's docstring).  ``before_check(claims)`` runs once every file is
    loaded and before any check (``rdpsym check --latex`` refuses a claim it cannot typeset there): an
    rdpsym error it raises is raised here.  ``progress(done, total, claim id)`` is called as claims start.
    """
    timeout = time_limit(timeout)
    files = claim_files(paths or [catalogue_path()])
    started = time.perf_counter()
    if timeout is None or not _can_fork():
        loader = _Loader()
        for f in files:
            loader.add(f, load(f))
        if before_check is not None:
            before_check(loader.claims)
        report = check(loader.claims, progress, timeout=None)
        return Report(report.results, loader.failures, time.perf_counter() - started, loader.where)
    work = _Supervised(timeout, progress, files=files, before_check=before_check)
    results = work.run()
    return Report(results, work.failures, time.perf_counter() - started, work.where)


def check(claims: Iterable[Claim], progress=None, timeout: float | None = DEFAULT_TIMEOUT) -> Report:
    """Check claims held in memory, as :func:`run` checks the claims of files (each within ``timeout`` s).

    >>> import sympy as sp
    >>> from rdpsym.claims import AtMost, Claim, Domain, Verdict
    >>> a = sp.Symbol("alpha")
    >>> mine = Claim("mine", "α ≤ α²", "example", r"\\alpha \\le \\alpha^2",
    ...              (AtMost(a, a**2, "α ≥ 1"),), Verdict.PROVED, Domain({a: sp.Interval(1, sp.oo)}))
    >>> report = check([mine])
    >>> report.ok, report.counts()["proved"]
    (True, 1)
    """
    if isinstance(claims, (str, bytes, Claim)) or not hasattr(claims, "__iter__"):
        raise WrongType(must("claims", "an iterable of Claim", type(claims).__name__))
    claims = list(claims)
    bad = next((c for c in claims if not isinstance(c, Claim)), None)
    if bad is not None:
        raise ParameterError(must("claims", "an iterable of Claim", type(bad).__name__))
    seen: set[str] = set()
    for c in claims:
        if c.id in seen:
            raise ParameterError(must("claims", "claims with distinct ids", f"{c.id!r} twice"))
        seen.add(c.id)
    timeout = time_limit(timeout)
    started = time.perf_counter()
    if timeout is not None and _can_fork() and claims:
        results = _Supervised(timeout, progress, claims=claims).run()
        return Report(results, [], time.perf_counter() - started)
    results = []
    for i, claim in enumerate(claims):
        if progress:
            progress(i, len(claims), claim.id)
        results.append(claim.check())
    if progress:
        progress(len(claims), len(claims), "")
    return Report(results, [], time.perf_counter() - started)


def time_limit(seconds: object, name: str = "timeout") -> float | None:
    """A time limit in seconds: a number in (0, :data:`MAX_TIMEOUT`], or None (no limit).

    >>> time_limit("2.5"), time_limit(None)
    (2.5, None)
    """
    if seconds is None:
        return None
    value = number(seconds, name)
    if not (value.is_finite and 0 < value <= MAX_TIMEOUT):
        raise ParameterError(must(name, f"a number of seconds in (0, {MAX_TIMEOUT:g}]", value))
    return float(value)


def _can_fork() -> bool:
    return hasattr(os, "fork")

