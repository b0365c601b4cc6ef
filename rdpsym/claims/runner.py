"""Load claim files, check them, and report: the engine behind ``rdpsym check``.

A claim file is a Python file that defines ``CLAIMS`` (a list of
:class:`~rdpsym.claims.Claim`) or ``CLAIM`` (one).  Loading it must do no work
beyond building those objects.  A file that does not load, or defines no
claims, becomes a :class:`LoadFailure` naming the file, the line and the problem
(a syntax error by its line in the file, not in Python's import machinery); the
other files still run.

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

import dataclasses
import importlib.util
import os
import pickle
import select
import signal
import struct
import sys
import time
import traceback
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from rdpsym.claims.claim import Claim, ClaimResult, Verdict
from rdpsym.foundations import operations
from rdpsym.foundations.budget_clocks import WALL_FACTOR
from rdpsym.foundations.errors import ClaimError, ParameterError, RdpSymError, WrongType, must, shorten
from rdpsym.foundations.reading import number
from rdpsym.foundations.record import Failure, Status

#: CPU seconds each claim file's load, and each claim's check, may take (``rdpsym check --timeout``).  The
#: slowest claim of the catalogue takes about 4 s of CPU and a file loads in well under a second; 120 s
#: leaves room for a tracing coverage run (CPU time: a loaded machine needs no room), and still ends a file
#: that loops.
DEFAULT_TIMEOUT = 120.0
#: The longest time limit accepted (a day): a limit is a number of seconds, not a way to wait forever.
MAX_TIMEOUT = 86400.0


@dataclass(frozen=True)
class LoadFailure:
    path: Path
    problem: str


def catalogue_path() -> Path:
    """The built-in catalogue: the folder of the package :mod:`rdpsym.catalogue`, wherever rdpsym is installed.

    >>> (catalogue_path() / "CATALOGUE.md").is_file()
    True
    """
    return Path(str(resources.files("rdpsym.catalogue")))


def claim_files(paths: Iterable[Path]) -> list[Path]:
    """Every ``*.py`` claim file under ``paths`` (files or folders), sorted, skipping ``_*.py``.

    A folder's hidden folders (``.venv``, ``.git``), virtual environments and caches are not searched:
    ``rdpsym check .`` in a project runs the project's claims, not its installed packages.
    """
    out = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            out += sorted(f for f in p.rglob("*.py") if not f.name.startswith("_") and not _skipped(f.relative_to(p)))
        else:
            out.append(p)
    return out


#: Folders never searched for claim files (besides hidden ones).
_NOT_CLAIMS = {"__pycache__", "site-packages", "node_modules", "venv", "env", "build", "dist"}


def _skipped(relative: Path) -> bool:
    return any(part.startswith(".") or part in _NOT_CLAIMS for part in relative.parts[:-1])


def load(path: Path) -> list[Claim] | LoadFailure:
    """The claims a file defines, or the reason it defines none.

    A file of the built-in catalogue is imported as the module of :mod:`rdpsym.catalogue` it is
    (``mironov2017/prop01_composition.py`` as ``rdpsym.catalogue.mironov2017.prop01_composition``), so
    its relative imports of the folder's helpers work and tracebacks name it.  Any other file (a
    user's ``rdpsym check PATH``) is loaded from its path, see :func:`_exec_file`.  Either way the
    file runs afresh on every call.
    """
    path = Path(path)
    if not path.exists():
        return LoadFailure(path, "no such file")
    name = _catalogue_module(path)
    try:
        module = _exec_catalogue_module(name) if name else _exec_file(path)
    except _NotPython:
        return LoadFailure(path, "not a Python file")
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 - any error in a user's file, even sys.exit, is reported
        return LoadFailure(path, _located(exc, path))
    claims = getattr(module, "CLAIMS", None)
    if claims is None and hasattr(module, "CLAIM"):
        claims = [module.CLAIM]
    if claims is None:
        return LoadFailure(path, "defines neither CLAIMS (a list of Claim) nor CLAIM")
    bad = [c for c in claims if not isinstance(c, Claim)]
    if bad or not claims:
        found = type(bad[0]).__name__ if bad else "an empty list"
        return LoadFailure(path, f"CLAIMS must be a non-empty list of Claim, found {found}")
    return list(claims)


class _NotPython(Exception):
    pass


def _located(exc: BaseException, path: Path) -> str:
    """``"SyntaxError at line 3: invalid syntax"``: an error in a claim file, by its line in that file.

    A syntax error carries its own file and line (its traceback is Python's import machinery).  Any other
    error is placed at the deepest line of the user's own code in its traceback (not SymPy's, rdpsym's or
    Python's): a line of the claim file, or of a file it imported (then named, with the claim file's line).
    """
    if isinstance(exc, SyntaxError):
        where = f" at line {exc.lineno}" if exc.lineno else ""
        if exc.filename and not _same_file(exc.filename, path):
            where += f" of {exc.filename}"
        return shorten(f"SyntaxError{where}: {exc.msg}")
    frames = traceback.extract_tb(exc.__traceback__)
    mine = [f for f in frames if _same_file(f.filename, path)]
    users = [f for f in frames if not _library(f.filename)]
    deepest = users[-1] if users else (mine[-1] if mine else None)
    if deepest is None:
        where = ""
    elif _same_file(deepest.filename, path):
        where = f" at line {deepest.lineno}"
    else:
        where = f" at line {deepest.lineno} of {deepest.filename}" + (f" (line {mine[-1].lineno})" if mine else "")
    return shorten(f"{type(exc).__name__}{where}: {exc}")


def _library(filename: str) -> bool:
    """Whether a traceback's file is a library's (Python's own, an installed package, rdpsym), not the user's."""
    try:
        resolved = Path(filename).resolve()
    except (OSError, ValueError):
        return True
    if filename.startswith("<"):  # <frozen importlib._bootstrap>, <string>
        return True
    roots = {Path(sys.prefix), Path(sys.base_prefix), Path(__file__).resolve().parents[1]}
    return any(root.resolve() in resolved.parents for root in roots) and catalogue_path().resolve() not in \
        resolved.parents


def _same_file(filename: str | None, path: Path) -> bool:
    try:
        return filename is not None and Path(filename).resolve() == Path(path).resolve()
    except (OSError, ValueError):
        return False


def _catalogue_module(path: Path) -> str | None:
    """The dotted module name of a claim file of the built-in catalogue, or None for any other file.

    >>> _catalogue_module(catalogue_path() / "seeds" / "notes_003_cdp.py")
    'rdpsym.catalogue.seeds.notes_003_cdp'
    >>> _catalogue_module(Path("myproofs/notes_003_cdp.py")) is None
    True
    """
    try:
        parts = path.resolve().with_suffix("").relative_to(catalogue_path().resolve()).parts
    except ValueError:
        return None
    if path.suffix != ".py" or not parts or not all(p.isidentifier() for p in parts):
        return None
    return ".".join(("rdpsym.catalogue", *parts))


def _exec_catalogue_module(name: str):
    """Run the catalogue module ``name`` afresh and register it in ``sys.modules``, as ``import`` would.

    Not ``importlib.import_module``: that returns a module already imported without running it again.
    """
    spec = importlib.util.find_spec(name)  # imports the parent packages
    if spec is None or spec.loader is None:
        raise _NotPython
    module = importlib.util.module_from_spec(spec)
    previous = sys.modules.get(name)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        if previous is None:
            del sys.modules[name]
        else:
            sys.modules[name] = previous
        raise
    parent, _, child = name.rpartition(".")
    setattr(sys.modules[parent], child, module)
    return module


def _exec_file(path: Path):
    """Run a claim file from its path, as a module of no package (a user's claims, ``rdpsym check PATH``).

    A user's claim file may import helpers that sit beside it (``_helper.py``, imported as
    ``import _helper``): while it runs its folder is first on ``sys.path``, and a helper of the same
    name cached from another folder is dropped from ``sys.modules`` first, so each folder gets its own.
    This is the only place rdpsym touches ``sys.path``, and it is restored as it was afterwards.
    (The built-in catalogue needs none of it: its files are modules of :mod:`rdpsym.catalogue`.)
    """
    name = "rdpsym_claimfile_" + "_".join(path.resolve().with_suffix("").parts[-3:]).replace("-", "_")
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise _NotPython
    module = importlib.util.module_from_spec(spec)
    folder = path.resolve().parent
    for helper in folder.glob("_*.py"):
        cached = sys.modules.get(helper.stem)
        if cached is not None and Path(getattr(cached, "__file__", "") or "").resolve().parent != folder:
            del sys.modules[helper.stem]
    saved = list(sys.path)
    sys.path.insert(0, str(folder))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path[:] = saved
    return module


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


def load_all(paths: Iterable[Path] | None = None) -> tuple[list[Claim], list[LoadFailure], dict, float]:
    """Every claim under ``paths`` (default: the built-in catalogue), the files that failed to load, each
    claim's file (relative), and the seconds loading took.  Loading runs no check, in this process and
    without a time limit (:func:`run` loads in a worker, with one)."""
    started = time.perf_counter()
    loader = _Loader()
    for f in claim_files(paths or [catalogue_path()]):
        loader.add(f, load(f))
    return loader.claims, loader.failures, loader.where, time.perf_counter() - started


class _Loader:
    """Claims collected file by file; a claim id defined twice is a failure of the second file."""

    def __init__(self) -> None:
        self.claims: list[Claim] = []
        self.failures: list[LoadFailure] = []
        self.where: dict = {}

    def add(self, f: Path, got: list[Claim] | LoadFailure) -> LoadFailure | None:
        """Add a file's claims (or its failure); the failure it was, if any."""
        failure = None
        if isinstance(got, LoadFailure):
            failure = got
            got = []
        clash = [c.id for c in got if c.id in self.where]
        if clash:
            failure = LoadFailure(f, f"claim id {clash[0]!r} is already defined in {self.where[clash[0]]}")
            got = [c for c in got if c.id not in self.where]
        if failure is not None:
            self.failures.append(failure)
        self.claims += got
        self.where.update({c.id: _relative(f) for c in got})
        return failure


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


# --------------------------------------------------------------------------- the worker and its supervisor


class _Supervised:
    """Load and check in a forked worker; stop it when a file's load or a claim's check outlives ``timeout``
    (CPU seconds of the worker and its children, with a wall-clock backstop: :class:`_Limit`).

    The worker sends messages (pickled, length-prefixed) on a pipe: ``("load", i)`` as file ``i`` starts
    loading, ``("loaded", i, failure, ids)``, ``("start", k, template)`` as claim ``k`` starts (the template
    is the claim's result-to-be, which the supervisor reports if the check times out), ``("result", k,
    result)``, ``("error", exception)`` (``before_check`` refused the claims) and ``("done",)``.  After a
    timeout or the worker's death a fresh worker loads the files again (skipping those that timed out)
    and goes on after the claim that was stopped: loading is meant to be quick and to do no work.
    """

    def __init__(self, timeout: float, progress, files: list[Path] | None = None,
                 claims: list[Claim] | None = None, before_check=None):
        self.timeout, self.progress = timeout, progress
        self.files, self.claims, self.before_check = files, claims, before_check
        self.failures: list[LoadFailure] = []
        self.where: dict = {}
        self.results: dict[int, ClaimResult] = {}
        self.skip: set[int] = set()  # files whose load timed out or killed the worker
        self.reported: set[int] = set()  # files whose load the supervisor has recorded
        self.total: int | None = None if claims is None else len(claims)
        self.checked_before = False

    def run(self) -> list[ClaimResult]:
        start = 0
        while True:
            outcome, where = self._one_worker(start)
            if outcome == "done":
                break
            kind, index, template = where
            if kind == "load":
                self.skip.add(index)
                self.reported.add(index)
                why = outcome if isinstance(outcome, _TimedOut) else f"the worker process {outcome}"
                self.failures.append(LoadFailure(self.files[index], f"{why} while loading"))
            elif kind == "check":
                seconds = outcome.seconds if isinstance(outcome, _TimedOut) else 0.0
                self.results[index] = _stopped(template, str(outcome), seconds)
                start = index + 1
                if self.total is not None and start >= self.total:
                    break
            else:  # the worker died outside a file's load and a claim's check: a bug, said as such
                raise ClaimError(f"the worker process checking the claims {outcome}")
        if self.progress and self.total is not None:
            self.progress(self.total, self.total, "")
        return [self.results[k] for k in sorted(self.results)]

    def _one_worker(self, start: int):
        """Run one worker from claim ``start``; ("done", None), or (why it stopped, where it was)."""
        read, write = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        with warnings.catch_warnings():  # Python 3.12 warns on fork beside other threads; the worker uses none
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
        if pid == 0:  # the worker: never returns
            os.close(read)
            _worker(write, self.files, self.claims, self.skip, start,
                    None if self.checked_before else self.before_check)
        os.close(write)
        meter = _CpuMeter(pid)
        current: tuple = ("between", None, None)
        limit = None
        try:
            # Unbuffered: a buffered reader would take the next messages into its buffer, where select() on
            # the pipe cannot see them.
            with os.fdopen(read, "rb", buffering=0) as pipe:
                while True:
                    ready, _, _ = select.select([pipe], [], [], None if limit is None else limit.wait())
                    if not ready:
                        over = limit.over()
                        if over is not None:
                            return over, current
                        continue
                    message = _receive(pipe)
                    if message is None:
                        return _death(pid), current
                    kind = message[0]
                    if kind == "load":
                        current, limit = ("load", message[1], None), _Limit(meter, self.timeout)
                    elif kind == "loaded":
                        self._loaded(*message[1:])
                        current, limit = ("between", None, None), None
                    elif kind == "loaded-all":
                        self.total = message[1]
                    elif kind == "checked-before":
                        self.checked_before = True
                    elif kind == "error":
                        raise message[1]
                    elif kind == "start":
                        k, template = message[1], message[2]
                        current, limit = ("check", k, template), _Limit(meter, self.timeout)
                        if self.progress:
                            self.progress(k, self.total or 0, template.claim.id)
                    elif kind == "result":
                        self.results[message[1]] = message[2]
                        current, limit = ("between", None, None), None
                    elif kind == "done":
                        return "done", None
        finally:
            _stop(pid)

    def _loaded(self, index: int, failure: LoadFailure | None, ids: list[str]) -> None:
        if index in self.reported:
            return
        self.reported.add(index)
        if failure is not None:
            self.failures.append(failure)
        self.where.update({i: _relative(self.files[index]) for i in ids})


def _worker(fd: int, files, claims, skip, start: int, before_check) -> None:
    """The worker's whole life: load (files) or take (claims), check from ``start``, report, exit."""
    status = 0
    try:
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C ends the worker at once; the supervisor reports it
        with os.fdopen(fd, "wb") as pipe:
            if claims is None:
                loader = _Loader()
                for i, f in enumerate(files):
                    if i in skip:
                        continue
                    _send(pipe, ("load", i))
                    before = len(loader.claims)
                    failure = loader.add(f, load(f))
                    _send(pipe, ("loaded", i, failure, [c.id for c in loader.claims[before:]]))
                claims = loader.claims
                _send(pipe, ("loaded-all", len(claims)))
            if before_check is not None:
                try:
                    before_check(claims)
                except RdpSymError as exc:
                    _send(pipe, ("error", exc))
                    return
                _send(pipe, ("checked-before",))
            for k in range(start, len(claims)):
                _send(pipe, ("start", k, ClaimResult(claims[k], Status.UNKNOWN, claims[k].steps, 0.0)))
                _send(pipe, ("result", k, claims[k].check()))
            _send(pipe, ("done",))
    except BaseException:  # noqa: BLE001 - whatever happens, the worker must not return into the caller's code
        status = 1
        traceback.print_exc()
    finally:
        os._exit(status)


_HEADER = struct.Struct("!Q")


def _send(pipe, message: tuple) -> None:
    try:
        data = pickle.dumps(message)
    except Exception as exc:  # noqa: BLE001 - a result that does not pickle is reported, not lost
        data = pickle.dumps(_unpicklable(message, exc))
    pipe.write(_HEADER.pack(len(data)) + data)
    pipe.flush()


def _unpicklable(message: tuple, exc: Exception) -> tuple:
    if message[0] == "result":
        template = ClaimResult(message[2].claim, Status.UNKNOWN, message[2].claim.steps, 0.0)
        return ("result", message[1], _stopped(pickle.loads(pickle.dumps(template)),
                                               f"could not be sent back ({type(exc).__name__}: {exc})"))
    if message[0] == "error":
        return ("error", ClaimError(str(message[1])))
    raise exc


def _receive(pipe) -> tuple | None:
    """The next message, or None when the worker closed the pipe (it ended) before a whole one came."""
    header = _read_exactly(pipe, _HEADER.size)
    if header is None:
        return None
    (size,) = _HEADER.unpack(header)
    data = _read_exactly(pipe, size)
    return None if data is None else pickle.loads(data)


def _read_exactly(pipe, size: int) -> bytes | None:
    """``size`` bytes from an unbuffered pipe (a read may return fewer), or None at its end."""
    chunks, missing = [], size
    while missing:
        chunk = pipe.read(missing)
        if not chunk:
            return None
        chunks.append(chunk)
        missing -= len(chunk)
    return b"".join(chunks)


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
        os.kill(pid, signal.SIGKILL)  # first: it starts no more
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


def _stopped(template: ClaimResult, why: str, seconds: float = 0.0) -> ClaimResult:
    """A claim whose check was stopped: unknown, each step with the reason as its evidence."""
    evidence = (Failure(why if why.startswith("timed out") else f"the worker process {why}"),)
    steps = tuple(dataclasses.replace(s, status=Status.UNKNOWN, evidence=evidence) for s in template.claim.steps)
    return ClaimResult(template.claim, Status.UNKNOWN, steps, seconds)


def _relative(f: Path) -> str:
    """A catalogue file as ``folder/file.py`` (``mironov2017/prop01_composition.py``), any other relative to
    the working folder when it is under it, else in full."""
    f = f.resolve()
    for base in (catalogue_path().resolve(), Path.cwd()):
        try:
            return str(f.relative_to(base))
        except ValueError:
            continue
    return str(f)
