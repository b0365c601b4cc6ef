"""Map a function over items on any executor, keeping the input order: serial, a process pool, or Dask.

Sweeps (reference tables, audits, calibration grids) are lists of independent tasks, each computed at the
precision it sets for itself, so running them elsewhere changes neither their values nor their order: the
results of :func:`ordered_map` are those of ``list(map(fn, items))``, bit for bit.

``executor`` may be

* ``None`` — run here, one after the other;
* an ``int`` N ≥ 1 — a local process pool of N workers, made for the call and shut down after it;
* a :class:`concurrent.futures.Executor` (a ``ProcessPoolExecutor``, a ``ThreadPoolExecutor``, or the
  executor of a ``dask.distributed.Client``, ``client.get_executor()``) — used as it is, not shut down;
* anything with ``submit(fn, item)`` returning futures with ``result()``, such as a
  ``dask.distributed.Client`` itself;
* or ``map=`` a callable ``map(fn, items)`` that returns results in order (``multiprocessing.Pool.map``).

``fn`` and the items must pickle for a process pool or a cluster (module-level functions and rdpsym's
records do; Arb balls do not, so tasks take exact numbers and return decimal strings or rationals).

:func:`executor_from` turns the command line's ``--workers N`` / ``--scheduler ADDRESS`` into one of these,
as a context manager; Dask is imported only then (``pip install 'rdpsym[dask]'``).

>>> ordered_map(abs, [-3, 1, -2])
[3, 1, 2]
>>> from concurrent.futures import ThreadPoolExecutor
>>> with ThreadPoolExecutor(2) as pool:
...     ordered_map(abs, [-3, 1, -2], pool)
[3, 1, 2]
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import CancelledError, Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from rdpsym.foundations.errors import ParameterError, RdpSymError, must
from rdpsym.foundations.reading import integer
from rdpsym.foundations.termination import default_sigterm, sigterm_deferred

#: A local pool larger than this is refused (a cluster is what --scheduler is for).
MAX_WORKERS = 256
#: How many times a Dask task is rerun when the worker running it is lost (Dask's own ``retries``).
DASK_RETRIES = 2


class LostWorkers(RdpSymError):
    """Workers or a cluster were lost and the run could not be completed: no result is returned (none partial)."""


__all__ = ["LostWorkers", "executor_from", "local_pool", "ordered_map"]


def ordered_map(fn: Callable, items: Iterable, executor: object = None, *, map: Callable | None = None) -> list:
    """``[fn(x) for x in items]``, computed on ``executor`` (see the module docstring), in input order.

    An exception raised by a task is raised here, as the serial run would raise it (the first in input order).
    """
    items = list(items)
    if map is not None:
        if executor is not None:
            raise ParameterError(must("executor", "None when map= is given (one way to run the tasks)",
                                      type(executor).__name__))
        return list(map(fn, items))
    if executor is None or not items:
        return [fn(x) for x in items]
    if isinstance(executor, bool) or (isinstance(executor, int) and executor < 1):
        raise ParameterError(must("executor", "None, a number of workers >= 1, or an executor", repr(executor)))
    if isinstance(executor, int):
        executor = _workers(executor, "executor")
        if executor == 1:
            return [fn(x) for x in items]
        return _on_local_pool(executor, fn, items)
    if not callable(getattr(executor, "submit", None)):
        raise ParameterError(must("executor", "None, a number of workers, a concurrent.futures.Executor or an "
                                  "object with submit() (a dask.distributed.Client)", type(executor).__name__))
    try:
        return _submitted(executor, fn, items)
    except BrokenProcessPool as exc:  # the caller's pool: it cannot be remade here
        raise LostWorkers(f"a worker process of the given pool died (killed, or out of memory): {exc}; no result "
                          "was kept") from None


def _on_local_pool(n: int, fn: Callable, items: list) -> list:
    """The tasks on a pool of ``n`` processes made for them; a pool whose worker dies (killed, out of memory) is
    replaced by a fresh one and every task run again (they are pure: the results are those of a serial run)."""
    for attempt in (1, 2):
        try:
            with local_pool(n) as pool:
                return _submitted(pool, fn, items)
        except BrokenProcessPool as exc:
            if attempt == 2:
                raise LostWorkers(f"a worker process of the local pool died twice (killed, or out of memory): {exc}; "
                                  "no result was kept") from None
    raise AssertionError("unreachable")


@contextlib.contextmanager
def local_pool(n: int) -> Iterator[ProcessPoolExecutor]:
    """A process pool of ``n`` workers that ends with the block.  Left by an exception (an interrupt, a
    SIGTERM turned into :class:`SystemExit` by the command line), its workers are terminated at once instead
    of finishing the tasks they run (``ProcessPoolExecutor``'s own exit waits for them: minutes)."""
    pool = ProcessPoolExecutor(max_workers=n, initializer=_terminated_by_sigterm)
    try:
        yield pool
    except BaseException:
        _terminate(pool)
        raise
    pool.shutdown(wait=True)


def _terminated_by_sigterm() -> None:
    """A pool worker's first step: SIGTERM ends it.  A worker forked by the command line inherits its handler,
    which turns SIGTERM into :class:`SystemExit`; ``ProcessPoolExecutor``'s worker loop catches that as a task's
    exception and takes the next task, so :func:`_terminate` did not stop it and the interpreter's exit waited
    for it (a SIGTERM'd ``--workers 2`` run that never ended, seen under load)."""
    default_sigterm()


def _terminate(pool: ProcessPoolExecutor) -> None:
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for p in processes:
        with contextlib.suppress(Exception):
            p.terminate()
    for p in processes:
        with contextlib.suppress(Exception):
            p.join(5)
            if p.is_alive():  # not even SIGTERM (a handler of the task's own): the exit must not wait for it
                p.kill()
                p.join(5)


def _submitted(executor, fn: Callable, items: list) -> list:
    futures = []
    # A process pool forks its workers at the first submit: a SIGTERM then waits until the pool knows them all
    # (raised inside, it left a worker nobody stopped; rdpsym.foundations.termination)
    holding = sigterm_deferred() if isinstance(executor, ProcessPoolExecutor) else contextlib.nullcontext()
    try:
        with holding:
            for x in items:
                futures.append(_submit(executor, fn, x))
    except Exception as exc:  # a closed client, a scheduler gone: nothing can run there
        if _from_a_cluster(exc):
            raise LostWorkers(f"the tasks could not be sent to the cluster ({type(exc).__name__}: {exc}); no result "
                              "was kept") from None
        raise
    try:
        return [_result(f) for f in futures]
    finally:
        for f in futures:
            cancel = getattr(f, "cancel", None)
            if cancel is not None and not _done(f):
                with contextlib.suppress(Exception):
                    cancel()


def _result(future) -> object:
    """A future's result; a cluster lost under it (Dask: the scheduler's connection closed, the future
    cancelled with it) is a :class:`LostWorkers` naming what was lost.  A task's own exception is raised as
    the serial run raises it; a local pool's death (``BrokenProcessPool``) goes to the caller, which retries."""
    try:
        return future.result()
    except BrokenProcessPool:
        raise
    except CancelledError as exc:  # (Dask's FutureCancelledError too: its cluster went away)
        raise LostWorkers(f"the workers running the tasks were lost ({type(exc).__name__}: {exc}); no result "
                          "was kept") from None
    except Exception as exc:
        if _from_a_cluster(exc):  # CommClosedError, ...: not the task's own exception
            raise LostWorkers(f"the cluster running the tasks was lost ({type(exc).__name__}: {exc}); no result "
                              "was kept") from None
        raise


def _from_a_cluster(exc: BaseException) -> bool:
    """Whether Dask (or its network layer) raised ``exc``, not the task."""
    return type(exc).__module__.split(".")[0] in ("distributed", "tornado")


def _submit(executor, fn, x):
    if isinstance(executor, Executor):
        return executor.submit(fn, x)
    # A dask.distributed.Client: pure=False so that equal tasks are not merged into one key (each runs, as
    # it would here); retries: a task whose worker is lost runs again elsewhere (tasks are pure); its futures
    # have result() like concurrent.futures ones.
    try:
        return executor.submit(fn, x, pure=False, retries=DASK_RETRIES)
    except TypeError:
        return executor.submit(fn, x)


def _done(f) -> bool:
    done = getattr(f, "done", None)
    return bool(done()) if callable(done) else True


@contextlib.contextmanager
def executor_from(workers: object = None, scheduler: str | None = None, *, name: str = "--workers") -> Iterator:
    """The executor the options ``--workers N`` and ``--scheduler ADDRESS`` ask for (None: run here).

    ``workers``: a number ≥ 1 (a local process pool; 1 runs here); ``scheduler``: the address of a Dask
    scheduler (``tcp://host:8786``), reached through ``dask.distributed.Client`` — the optional extra
    ``rdpsym[dask]``.  Both at once is an error.  Closed on exit (the cluster itself stays up).

    >>> with executor_from() as ex:
    ...     ex is None
    True
    >>> with executor_from(2) as ex:
    ...     ordered_map(abs, [-1, -2], ex)
    [1, 2]
    """
    if workers is not None and scheduler is not None:
        raise ParameterError(must(f"{name} and --scheduler", "one or the other", "both"))
    if scheduler is not None:
        if not isinstance(scheduler, str) or not scheduler.strip():
            raise ParameterError(must("--scheduler", "a Dask scheduler address such as tcp://host:8786",
                                      repr(scheduler)))
        address = scheduler.strip()
        scheme = address.split("://", 1)[0].lower() if "://" in address else "tcp"
        if scheme != "tcp":
            # tls:// needs credentials rdpsym is not given, ucx:// a transport Dask builds only with UCX: both
            # failed inside Dask with a TypeError
            raise ParameterError(must("--scheduler", "a tcp:// address of a Dask scheduler (host:port or "
                                      "tcp://host:port)", f"{address} (the {scheme}:// scheme is not supported)"))
        try:
            distributed = importlib.import_module("dask.distributed")
        except ImportError:
            raise ParameterError(must("--scheduler", "usable: it needs Dask (pip install 'rdpsym[dask]')",
                                      scheduler)) from None
        try:
            client = distributed.Client(address, timeout=30)
        except Exception as exc:  # noqa: BLE001 - whatever Dask raises for an address it cannot reach
            raise ParameterError(must("--scheduler", "the address of a running Dask scheduler",
                                      f"{scheduler} ({type(exc).__name__}: {exc})")) from None
        try:
            yield client
        finally:
            client.close()
        return
    if workers is None:
        yield None
        return
    n = _workers(workers, name)
    # a number: ordered_map makes the pool for its tasks, replaces it if a worker dies, and terminates it if
    # the run is interrupted
    yield None if n == 1 else n


def _workers(workers: object, name: str) -> int:
    n = integer(workers, name, minimum=1)
    if n > MAX_WORKERS:
        raise ParameterError(must(name, f"an integer from 1 to {MAX_WORKERS} (for more, a Dask cluster: --scheduler)",
                                  n))
    return n
