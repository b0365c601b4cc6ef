"""The claim runner's worker process and its supervisor: load and check in a fork, results sent back on a pipe.

:class:`_Supervised` forks a worker (:func:`_worker`) that loads the files
(:mod:`rdpsym.claims.loading`) or takes the claims given, checks them, and sends
each result back, pickled and length-prefixed (:func:`_send`, :func:`_receive`).
The supervisor gives each file's load and each claim's check its time
(:mod:`rdpsym.claims.limits`); past it, or when the worker dies, the claim is
reported as stopped (:func:`_stopped`) and a fresh worker goes on with the rest.
The entry points that use it, and the report they return, are
:mod:`rdpsym.claims.runner`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import pickle
import select
import signal
import struct
import sys
import traceback
import warnings
from pathlib import Path

from rdpsym.claims.claim import Claim, ClaimResult, Holds, Step
from rdpsym.claims.domains import Domain
from rdpsym.claims.limits import _CpuMeter, _death, _Limit, _stop, _TimedOut
from rdpsym.claims.loading import LoadFailure, _Loader, _relative, load
from rdpsym.derive.derivation import dumps_as_built
from rdpsym.foundations.errors import ClaimError, RdpSymError
from rdpsym.foundations.record import Failure, Status


class _Supervised:
    """Load and check in a forked worker; stop it when a file's load or a claim's check outlives ``timeout``
    (CPU seconds of the worker and its children, with a wall-clock backstop: :class:`_Limit`).

    The worker sends messages (pickled, length-prefixed) on a pipe: ``("load", i)`` as file ``i`` starts
    loading, ``("loaded", i, failure, ids)``, ``("start", k, id, template)`` as claim ``k`` starts (the
    template is the claim's result-to-be, pickled, which the supervisor unpickles and reports if the check
    times out), ``("result", k, result)``, ``("error", exception)`` (``before_check`` refused the claims) and
    ``("done",)``.  After a timeout or the worker's death a fresh worker loads the files again (skipping those
    that timed out) and goes on after the claim that was stopped: loading is meant to be quick and to do no work.
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
                self.results[index] = _stopped(pickle.loads(template), str(outcome), seconds)
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
            # its own process group, so that everything a claim file starts (even an orphan, after the worker
            # ends) is stopped with it: _stop kills the group
            with contextlib.suppress(OSError):
                os.setpgid(0, 0)
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
                        k, claim_id, template = message[1:]
                        current, limit = ("check", k, template), _Limit(meter, self.timeout)
                        if self.progress:
                            self.progress(k, self.total or 0, claim_id)
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
                # The template goes pickled inside the message: the supervisor unpickles it only if the check is
                # stopped (rebuilding a claim's SymPy sides was a tenth of a warm `rdpsym check` in the supervisor).
                unchecked = ClaimResult(claims[k], Status.UNKNOWN, claims[k].steps, 0.0)
                try:
                    template = dumps_as_built(unchecked)
                except Exception as exc:  # noqa: BLE001 - sides that do not pickle: the template goes without them
                    template = pickle.dumps(_without_sides(unchecked, f"could not be sent ({type(exc).__name__})"))
                _send(pipe, ("start", k, claims[k].id, template))
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
        data = dumps_as_built(message)  # (unpickled by the supervisor without SymPy evaluating each side again)
    except Exception as exc:  # noqa: BLE001 - a result that does not pickle is reported, not lost
        data = pickle.dumps(_unpicklable(message, exc))
    pipe.write(_HEADER.pack(len(data)) + data)
    pipe.flush()


def _without_sides(result: ClaimResult, why: str | None = None) -> ClaimResult:
    """``result`` as rdpsym's own classes with its sides, predicates and domains left out, so that it pickles (its
    statuses kept, and its evidence with what does not pickle written as text; with ``why``, unknown with that reason
    instead).  An expression nested 300 deep exceeded pickle's recursion as the worker sent its claim, and the
    RecursionError ended the worker and the run with it; so did a subclass of Claim or Step made in the claim file,
    and a counterexample holding one of its objects lost the refutation (probes)."""
    lost = () if why is None else (Failure(f"the worker process's result {why}"),)

    def bare(step):
        status, evidence = (Status.UNKNOWN, lost) if why is not None else \
            (step.status, tuple(_sendable(e) for e in step.evidence))
        if isinstance(step, Holds):
            return Holds(step.describe, None, step.rule, None, step.latex, status, evidence)
        return _as_own(Step, step, lhs=None, rhs=None, domain=None, status=status, evidence=evidence)

    steps = tuple(bare(s) for s in result.steps)
    claim = _as_own(Claim, result.claim, steps=steps, domain=Domain())
    return ClaimResult(claim, Status.UNKNOWN if why is not None else result.verdict, steps, result.seconds)


def _as_own(cls: type, value: object, **changes: object) -> object:
    """``value`` rebuilt as rdpsym's own ``cls`` (not a subclass a claim file made, which the parent cannot unpickle)
    from its fields, with ``changes``."""
    return cls(**{**{f.name: getattr(value, f.name) for f in dataclasses.fields(cls) if f.init}, **changes})


def _sendable(value: object) -> object:
    """``value`` if it pickles; else a record of rdpsym's with each field that does not written as text (a tuple item
    by item: a counterexample's point)."""
    try:
        pickle.dumps(value)
        return value
    except Exception:  # noqa: BLE001 - anything a claim file made
        pass
    if dataclasses.is_dataclass(value) and not isinstance(value, type) and type(value).__module__.startswith("rdpsym."):
        return dataclasses.replace(value, **{f.name: _sendable(getattr(value, f.name))
                                             for f in dataclasses.fields(value) if f.init})
    if isinstance(value, tuple):
        return tuple(_sendable(v) for v in value)
    return str(value)


def _unpicklable(message: tuple, exc: Exception) -> tuple:
    if message[0] == "result":
        # The verdict and its evidence without the sides, if that pickles; else unknown, saying why.
        for why in (None, f"could not be sent back ({type(exc).__name__}: {exc})"):
            try:
                sent = _without_sides(message[2], why)
                pickle.dumps(sent)
                return ("result", message[1], sent)
            except Exception:  # noqa: BLE001 - the evidence itself may not pickle: the second reading drops it
                continue
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


def _stopped(template: ClaimResult, why: str, seconds: float = 0.0) -> ClaimResult:
    """A claim whose check was stopped: unknown, each step with the reason as its evidence."""
    evidence = (Failure(why if why.startswith("timed out") else f"the worker process {why}"),)
    steps = tuple(dataclasses.replace(s, status=Status.UNKNOWN, evidence=evidence) for s in template.claim.steps)
    return ClaimResult(template.claim, Status.UNKNOWN, steps, seconds)
