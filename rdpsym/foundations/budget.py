"""Time budgets for work that may not terminate quickly, in any thread.

SymPy's ``integrate``, ``summation`` and ``simplify`` can run for minutes on
inputs they cannot finish, and a quadrature can be asked for more than it can
deliver.  rdpsym never waits for them unboundedly: such a call runs under
:func:`time_budget`, which raises :class:`SymbolicTimeout` when the budget is
spent.

What a budget counts
    The **CPU time of the thread** running the block, so that whether a step
    finishes does not depend on how loaded the machine is or on how many
    threads share the interpreter (16 threads deriving at once each get the
    seconds they would get alone, and the same results).  A block that waits
    instead of computing is stopped by a wall-clock backstop of
    :data:`WALL_FACTOR` times the budget.

How it interrupts
    One watchdog thread per process (started on first use) raises the timeout
    in the budgeted thread with CPython's ``PyThreadState_SetAsyncExc``; it
    works in the main thread and in any other.  Python delivers such an
    exception at the thread's next bytecode boundary, so, like ``SIGALRM``, it
    cannot cut a single long call into C code short: it lands when that call
    returns.  Without ``ctypes.pythonapi`` (not CPython), budgets fall back to
    ``SIGALRM``, which only the main thread can use; elsewhere
    :func:`can_budget` is False and callers skip the unbounded step and say so.

A timeout is raised only inside its own block; none survives the block
    An asynchronous exception is not raised *at* a place: CPython delivers it
    at the thread's next check for one (a function's entry, a loop's back edge,
    the end of a call), which may come after the block has ended -- at the
    entry of the budget's own ``__exit__``, say, before it could unregister the
    budget, which then stayed registered and had its timeout raised again into
    whatever the thread ran next, long after the call had returned.  So:

    - a budget remembers the ``with`` statement that entered it: the frame and
      the instruction that called ``__enter__``.  Its block is *running* while
      that frame is on the thread's stack with its current instruction in the
      statement's body (the instructions CPython's exception table hands,
      directly or through nested handlers, to that statement's handler), and
      the watchdog raises the timeout only then.  A block whose frame has
      moved past its body, or has returned, ended -- if its ``__exit__`` was
      skipped (an exception, a Ctrl-C say, landing as it was entered), the
      budget is dropped unraised the first time the watchdog looks at it, or
      as the thread enters its next budget;
    - the watchdog raises only while the thread waits at one of those checks
      (the thread's innermost frame is at a call, a back edge or a function's
      entry), not while it is inside a call that released the interpreter
      lock, which might return past the block's end before the next check;
    - it looks at the thread's stack and decides, then raises in a single step
      of C calls no other thread can run in between, which first reads the
      thread's CPU clock again and raises only if the thread has not run since
      the look: the timeout lands exactly where the watchdog looked;
    - it looks again after raising, and withdraws the timeout if the thread is
      somewhere it must not land (never the case, with the step above, unless
      the platform has no per-thread CPU clock, when the step compares the
      thread's innermost frame and instruction instead), and when a thread's
      last budget ends any timeout still pending for it is withdrawn.

    A budget entered by hand (``budget.__enter__()``, ``ExitStack``) instead of
    a ``with`` statement keeps the older rule: its timeout may be raised
    wherever the thread is, until its ``__exit__`` runs.  A generator paused
    inside a budget's block (a ``yield`` in the block) gets its timeout when it
    resumes, never in the code that iterates it -- so a budget entered in a
    ``contextlib.contextmanager`` generator limits nothing while the managed
    block runs: enter it in that block.

Where it never lands
    Code that must not stop halfway -- restoring a precision and releasing its
    lock, returning a private context, a budget's own bookkeeping -- is
    registered with :func:`protect`.  Treated the same are garbage-collection
    callbacks, ``__del__`` methods and the callbacks of weak references (an
    exception raised in one is swallowed as "unraisable"), and the import
    system (a module left half-imported fails every later import of it).
    While the thread runs such code the watchdog waits and tries again a few
    milliseconds later.
    A timeout that code catching too broadly swallowed is raised again after
    :data:`RETRY_SECONDS` of further CPU time, for as long as the block runs.
    And what a timeout might still interrupt halfway is put right as its block
    ends: state registered with :func:`restore_at_block_end` (the numeric lock
    and the precisions it guards) is brought back to what it was when the block
    began.

>>> with time_budget(5):
...     1 + 1
2
"""

from __future__ import annotations

import _weakrefset
import ctypes
import dis
import functools
import gc
import operator
import os
import queue
import signal
import sys
import threading
import time
import types
import weakref
from collections.abc import Callable

from rdpsym.foundations.errors import NoClosedFormError, SymbolicTimeout

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

_ASYNC = hasattr(ctypes, "pythonapi") and sys.implementation.name == "cpython"

#: Code objects an asynchronous timeout must not interrupt (see :func:`protect`).
_PROTECTED: set = set()


#: (snapshot, restore) pairs: per-thread state a budget brings back, as it ends, to what it was when it began.
_BLOCK_STATE: list[tuple[Callable[[], object], Callable[[object], None]]] = []


def restore_at_block_end(snapshot: Callable[[], object], restore: Callable[[object], None]) -> None:
    """Have every budget call ``restore(snapshot())``, with the snapshot taken as it began, when it ends.

    For per-thread state whose own clean-up a timeout may have skipped (an
    ``__exit__`` interrupted as it was entered): anything opened inside a block
    is closed by the time the block ends, so what is still open then was left
    behind.  ``restore`` must be cheap when nothing was.
    """
    _BLOCK_STATE.append((snapshot, restore))


def protect(function: Callable) -> Callable:
    """Mark ``function`` as code a timeout never interrupts (used as a decorator).

    For short bookkeeping only -- a timeout waits while the thread is inside it.
    """
    _PROTECTED.add(function.__code__)
    return function


def can_budget() -> bool:
    """True when a time budget can interrupt work in this thread (always, on CPython)."""
    return _ASYNC or (threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"))


def in_budget() -> bool:
    """Whether this thread is inside the block of a time budget (:mod:`rdpsym.foundations.exact_size` reads it)."""
    return threading.get_ident() in _WATCHDOG.active or _ALARMS_OPEN.get(threading.get_ident(), 0) > 0


#: Open ``SIGALRM`` budgets per thread (the fallback's, which the watchdog does not hold).
_ALARMS_OPEN: dict[int, int] = {}


class _Expired(SymbolicTimeout):
    """The exception the watchdog raises; each budget has its own subclass carrying its message.

    (An asynchronous exception is given as a class and built without arguments.)
    A budget turns its own into a plain :class:`SymbolicTimeout` on the way out.
    """

    message = "time budget spent"

    def __init__(self, *args):
        super().__init__(*(args or (self.message,)))


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


# ------------------------------------------------------------------ where a block is: its with statement's body

#: A budget's block is running (its timeout may be raised), not running yet or paused, or over.
_RUNNING, _WAITING, _OVER = "running", "waiting", "over"

#: code -> {offset of the instruction that called __enter__: the offsets of that with statement's body, or None
#: when that instruction is no with statement (a budget entered by hand)}.  (Weak: a claim file or a notebook
#: cell run again is new code, and the old is let go.)
_BODIES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

_OPNAME = dis.opname
_EXTENDED_ARG = dis.opmap.get("EXTENDED_ARG", -1)
#: The instructions at which CPython's eval loop checks for an asynchronous exception (and so at which a thread
#: waiting for the interpreter lock waits): a function's entry, a loop's back edge, the end of a call.  Elsewhere
#: a waiting thread is inside a call that released the lock, and the exception would land at the next check.
_LANDINGS = frozenset(dis.opmap[name] for name in ("RESUME", "JUMP_BACKWARD", "PRECALL", "CALL", "CALL_KW",
                                                  "CALL_FUNCTION_EX") if name in dis.opmap)


def _with_body(code, entered_at: int) -> frozenset | None:
    """The body of the with statement whose ``__enter__`` the instruction at ``entered_at`` called (cached).

    None when that instruction is not a with statement's, or the bytecode is not
    of a shape this reads (the budget then keeps the older rule: live until its
    ``__exit__``).
    """
    known = _BODIES.get(code)
    if known is None:
        known = _BODIES.setdefault(code, {})
    body = known.get(entered_at, False)
    if body is False:
        try:
            body = _read_with_body(code, entered_at)
        except Exception:  # noqa: BLE001 - bytecode of an unfamiliar shape: no body, the older rule
            body = None
        known[entered_at] = body
    return body


def _read_with_body(code, entered_at: int) -> frozenset | None:
    """The offsets whose exception handler is, directly or through nested handlers, the with statement's.

    The instruction after the ``__enter__`` call is the first of the body, and
    its handler is the statement's (``PUSH_EXC_INFO``, ``WITH_EXCEPT_START``).
    The calls of ``__exit__`` on the way out (the end of the body, a ``return``,
    a ``break``) are outside every such range: they are not the body.
    """
    raw = code.co_code
    units = range(0, len(raw), 2)
    handler = {}
    for entry in dis.Bytecode(code).exception_entries:
        for offset in range(entry.start, entry.end, 2):
            handler[offset] = entry.target

    def following(offset: int) -> int | None:
        return next((o for o in units if o > offset and _OPNAME[raw[o]] != "CACHE"), None)

    first = following(entered_at)
    block = handler.get(first) if first is not None else None
    if block is None or _OPNAME[raw[block]] != "PUSH_EXC_INFO" or \
            _OPNAME[raw[following(block) or block]] != "WITH_EXCEPT_START":
        return None
    reaches: dict[int, bool] = {block: True}

    def leads_to_block(target: int | None) -> bool:
        chain = []
        while target is not None and target not in reaches:
            reaches[target] = False  # (a cycle, should the table have one, ends here)
            chain.append(target)
            target = handler.get(target)
        found = target is not None and reaches[target]
        for t in chain:
            reaches[t] = found
        return found

    return frozenset(o for o in units if leads_to_block(handler.get(o)))


def _where(frame, entered_at: int, stack: set) -> str:
    """Whether the block the with statement at ``entered_at`` of ``frame`` opened is running on ``stack``.

    ``stack``: the frames of the budgeted thread.  A frame that is not on it
    with its instruction in the body is a generator paused inside the block.
    """
    if frame is None:
        return _OVER
    body = _with_body(frame.f_code, entered_at)
    if body is None:
        return _RUNNING  # entered by hand, not by a with statement: registered until its __exit__, as before
    position = frame.f_lasti
    if position in body:
        return _RUNNING if frame in stack else _WAITING
    if position == entered_at and frame in stack:
        return _WAITING  # __enter__ is still running
    return _OVER


def _stack_from(frame) -> set | None:
    """The frames of a thread's stack from ``frame`` down, or None if the chain was not all frames.

    The chain is read from the watchdog's thread while the other thread runs on: under load, CPython 3.11
    handed back a module's globals dict as an ``f_back`` (a frame torn down while it was read).  That
    killed the watchdog thread (``unhashable type: 'dict'``), and with it every budget of the process
    (a pytest-xdist worker "crashed").  None means: this look saw nothing reliable, look again."""
    frames = set()
    while frame is not None:
        if type(frame) is not types.FrameType:
            return None
        frames.add(frame)
        frame = frame.f_back
    return frames


def _at_landing(frame) -> bool:
    """Whether the frame's current instruction is one where a waiting thread receives an exception at once."""
    raw, offset = frame.f_code.co_code, frame.f_lasti
    while 0 <= offset < len(raw) and raw[offset] == _EXTENDED_ARG:
        offset += 2
    return 0 <= offset < len(raw) and raw[offset] in _LANDINGS


# ------------------------------------------------------------------ budgets and their watchdog


class _Budget:
    """One ``time_budget`` block (a context manager)."""

    def __init__(self, seconds: float, what: str, absorb: bool):
        self.seconds = float(seconds)
        self.what = what
        self.absorb = absorb
        self.message = f"{what} did not finish within {self.seconds:g} s"
        self.fired_cpu: float | None = None
        self.spent = False
        self.held_back = False  # due while the thread was in protected code: raised at its next checkpoint()
        self.frame = None  # the frame of the with statement that entered it, while registered
        self.entered_at = -1

    @protect
    def __enter__(self) -> _Budget:
        self.ident = threading.get_ident()
        self.clock = _thread_clock(self.ident)
        self.cpu_deadline = _cpu_now(self.clock) + self.seconds
        self.wall_deadline = time.monotonic() + WALL_FACTOR * self.seconds
        self.expired = type("SymbolicTimeout", (_Expired,), {"message": self.message})
        self.state = [snapshot() for snapshot, _ in _BLOCK_STATE]
        self.frame = sys._getframe(1)
        self.entered_at = self.frame.f_lasti
        _WATCHDOG.add(self)
        return self

    @protect
    def __exit__(self, exc_type, exc, tb) -> bool:
        _WATCHDOG.remove(self)
        _restore_block_state(self.state)
        if exc_type is not None and exc_type is self.expired:
            self.spent = True
            if self.absorb:
                return True
            raise SymbolicTimeout(self.message) from None
        return False  # another budget's timeout (an outer one) goes on to its own block

    def where(self, stack: set) -> str:
        return _where(self.frame, self.entered_at, stack)

    def reentered(self, newer: _Budget) -> bool:
        """Whether ``newer`` was entered by this budget's with statement in the same frame (which cannot be
        open twice: this budget's block ended without its ``__exit__``)."""
        return newer is not self and newer.frame is self.frame and newer.entered_at == self.entered_at and \
            self.frame is not None and _with_body(self.frame.f_code, self.entered_at) is not None

    def due(self, cpu: float, wall: float) -> bool:
        if cpu < self.cpu_deadline and wall < self.wall_deadline:
            return False
        return self.fired_cpu is None or cpu - self.fired_cpu >= RETRY_SECONDS

    def wait(self, cpu: float, wall: float) -> float:
        """Wall seconds before this budget can next be due (CPU time advances no faster than wall time)."""
        cpu_left = self.cpu_deadline - cpu
        if self.fired_cpu is not None:
            cpu_left = max(cpu_left, self.fired_cpu + RETRY_SECONDS - cpu)
        return max(0.0, min(cpu_left, self.wall_deadline - wall))


class _ThreadEnded(Exception):
    pass


class _Watchdog:
    """The thread that raises timeouts in budgeted threads.

    Budgeted threads only take its lock with a ``with`` on a plain lock and wake
    it through a queue, both C code: a timeout landing in the middle cannot
    leave either half-done (``threading.Condition`` is Python code, and a
    timeout raised in it just after it took its lock kept the lock for good).
    It holds the lock while it looks and raises, so a thread cannot finish
    entering or leaving a block meanwhile.
    """

    def __init__(self):
        self._reset()

    def _reset(self) -> None:
        self.lock = threading.Lock()
        self.wake: queue.SimpleQueue = queue.SimpleQueue()
        self.active: dict[int, list[_Budget]] = {}
        self.raised: set[int] = set()  # threads a timeout was raised in while their current budgets ran
        self.thread: threading.Thread | None = None

    @protect
    def add(self, budget: _Budget) -> None:
        with self.lock:
            stack = self.active.setdefault(budget.ident, [])
            if stack:  # registrations left by blocks whose __exit__ was skipped (this thread's own stack: exact)
                frames = _stack_from(sys._getframe(1))
                for b in [b for b in stack if b.where(frames) is _OVER or b.reentered(budget)]:
                    stack.remove(b)
            stack.append(budget)
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self._run, name="rdpsym-time-budgets", daemon=True)
                self.thread.start()
        self.wake.put(None)

    @protect
    def remove(self, budget: _Budget) -> None:
        with self.lock:
            stack = self.active.get(budget.ident)
            if stack is not None:
                if budget in stack:
                    stack.remove(budget)
                if not stack:
                    del self.active[budget.ident]
            budget.frame = None  # (the frame and its locals are not kept alive by a budget that ended)
            if budget.ident not in self.active:
                self._last_one_ended(budget.ident)

    def _last_one_ended(self, ident: int) -> None:
        """No budget of thread ``ident`` is left: withdraw a timeout raised in it that may not have landed."""
        if ident in self.raised:
            self.raised.discard(ident)
            _withdraw(ident)

    def _run(self) -> None:
        sleep = None  # nothing to watch: wait for a budget
        while True:
            try:
                self.wake.get(timeout=sleep)
            except queue.Empty:
                pass
            with self.lock:
                sleep = self._check() if self.active else None

    def _check(self) -> float:
        """Raise every timeout that is due; return how long to sleep (called with the lock held)."""
        sleep = 1.0
        for ident, stack in list(self.active.items()):
            try:
                sleep = min(sleep, self._check_thread(ident, stack))
            except _ThreadEnded:  # the thread ended inside its blocks (it cannot leave one otherwise)
                del self.active[ident]
                self.raised.discard(ident)
        return max(sleep, 1e-3)

    def _check_thread(self, ident: int, stack: list[_Budget]) -> float:
        """Raise thread ``ident``'s innermost due timeout if its block runs; the seconds before looking again."""
        clock = stack[0].clock
        for _ in range(_LOOKS):
            seen = _witness_clock(clock)  # read before the look: the raise checks it is unchanged
            cpu, wall = (seen / 1e9 if clock is not None else seen), time.monotonic()
            due = [b for b in stack if b.due(cpu, wall)]
            if not due:
                return min(b.wait(cpu, wall) for b in stack)
            top = sys._current_frames().get(ident)
            frames = _stack_from(top)
            if frames is None:  # a stack read while it changed: look again
                continue
            budget = None
            for b in reversed(due):  # the innermost: its block converts it, and the outer ones fire again if spent
                where = b.where(frames)
                if where is _OVER:  # its block ended without its __exit__: never raised again
                    stack.remove(b)
                elif where is _RUNNING:
                    budget = b
                    break
            if not stack:
                del self.active[ident]
                self._last_one_ended(ident)
                return 1.0
            if budget is None:  # still entering, or a generator paused inside its block
                return max(_PROTECTED_RETRY, min(RETRY_SECONDS, *(b.wait(cpu, wall) for b in stack)))
            if _in_protected_frames(frames):
                budget.held_back = True  # for checkpoint(), in case the thread is (nearly) always there
                return _PROTECTED_RETRY
            if top is None or not _at_landing(top):  # inside a call that let go of the interpreter lock
                return _PROTECTED_RETRY
            if clock is None:
                seen = (top, top.f_lasti)
            if _raise_unless_moved(ident, budget.expired, clock, seen):
                budget.held_back = False
                budget.fired_cpu = cpu
                self.raised.add(ident)
                self._withdraw_if_misplaced(ident, budget)
                return min(b.wait(cpu, wall) for b in stack)
            # The thread ran between the look and the raise (nothing was raised): look again.
        return _PROTECTED_RETRY

    def _withdraw_if_misplaced(self, ident: int, budget: _Budget) -> None:
        """Look again after raising: withdraw the timeout if the thread is where it must not land."""
        frames = _stack_from(sys._current_frames().get(ident))
        if frames is None or _in_protected_frames(frames) or budget.where(frames) is not _RUNNING:
            _withdraw(ident)


def _witness_clock(clock) -> int | float:
    """The thread's CPU clock in nanoseconds (wall time where there is none); _ThreadEnded once it has ended."""
    if clock is None:
        return time.monotonic()
    try:
        return time.clock_gettime_ns(clock)
    except OSError:
        raise _ThreadEnded from None


if _ASYNC:
    _SET_ASYNC_EXC = ctypes.pythonapi.PyThreadState_SetAsyncExc


def _raise_unless_moved(ident: int, exc_type: type, clock, seen) -> bool:
    """Raise ``exc_type`` in thread ``ident`` if it has not run since ``seen``; whether it was raised.

    ``seen`` is the thread's CPU clock in nanoseconds, read before the watchdog
    looked at its stack (or, with no per-thread clock, its innermost frame and
    instruction then).  The reading, the comparison and the raise are nested C
    calls (``next`` of ``map`` objects built beforehand): no bytecode runs in
    between, so no other thread can, and no garbage-collected object is made
    that could start a collection (and a finalizer) in between.  A thread that
    ran meanwhile may be anywhere: nothing is raised, the watchdog looks again.
    """
    raise_it = functools.partial(_SET_ASYNC_EXC, ctypes.c_ulong(ident), ctypes.py_object(exc_type))
    if clock is not None:
        unmoved = map(operator.eq, map(time.clock_gettime_ns, (clock,)), (seen,))
    else:
        top, lasti = seen
        now = map(operator.methodcaller("get", ident), map(operator.call, (sys._current_frames,)))
        unmoved = map(operator.and_, map(operator.is_, now, (top,)),
                      map(operator.eq, map(operator.attrgetter("f_lasti"), (top,)), (lasti,)))
    step = map(operator.call, map(operator.getitem, ((int, raise_it),), unmoved))
    try:
        done = next(step)
    except OSError:  # the thread's clock is gone: it has ended
        raise _ThreadEnded from None
    if done > 1:  # cannot happen for one thread id; CPython's documented remedy
        _withdraw(ident)
        return False
    return done == 1


def checkpoint() -> None:
    """Raise, here and now, a timeout of this thread's that was held back because it was in protected code.

    Protected code calls it where an exception is harmless (before taking a
    lock): two threads taking turns at one lock spend nearly all their time in
    protected code -- one holding the lock, one waiting for it -- and the
    watchdog, which only finds them there, would hold their timeouts back for
    ever.  Cheap when there is nothing to raise (a dictionary lookup).  Only a
    budget whose block encloses this call is raised.
    """
    stack = _WATCHDOG.active.get(threading.get_ident())
    if not stack:
        return
    for budget in reversed(list(stack)):
        if budget.held_back:
            budget.held_back = False
            frames = _stack_from(sys._getframe(1))
            if _importing(frames):
                budget.held_back = True  # (a module being imported is not stopped halfway: at the next one)
            elif budget.where(frames) is _RUNNING:
                budget.fired_cpu = _cpu_now(budget.clock)
                raise budget.expired


@protect
def _restore_block_state(state: list) -> None:
    for (_, restore), saved in zip(_BLOCK_STATE, state):
        restore(saved)


def _withdraw(ident: int) -> None:
    """Withdraw an asynchronous exception pending for thread ``ident`` (nothing if none is)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), None)


def in_protected_code(ident: int) -> bool:
    """Whether thread ``ident`` is inside protected code or a garbage-collection callback.

    Anything else that interrupts a thread asynchronously (a test's watchdog)
    should wait while this is True, as the budgets' watchdog does.
    """
    return _in_protected_frame(sys._current_frames().get(ident))


def _in_protected_frame(frame) -> bool:
    frames = _stack_from(frame)
    return frames is None or _in_protected_frames(frames)  # (a stack read while it changed: wait, look again)


def _in_protected_frames(frames: set) -> bool:
    gc_codes = {getattr(getattr(cb, "__func__", cb), "__code__", None) for cb in gc.callbacks}
    for frame in frames:
        code = frame.f_code
        if code in _PROTECTED or code in gc_codes or code.co_name == "__del__" or \
                code.co_filename in _FINALIZERS or code.co_filename.startswith(_IMPORT_SYSTEM):
            return True
    return False


def _importing(frames: set) -> bool:
    """Whether one of the frames is Python's import system's: a module being imported.

    An exception landing there leaves the module half-imported, and every later
    import of it fails (SymPy imports submodules lazily, in the middle of work
    under a budget: "No module named 'sympy.combinatorics.permutations'").
    """
    return any(frame.f_code.co_filename.startswith(_IMPORT_SYSTEM) for frame in frames)


#: The import system's frames' file names (frozen modules).
_IMPORT_SYSTEM = "<frozen importlib._bootstrap"
#: The files of the callbacks Python runs as a weakly referenced object dies (WeakSet, WeakValueDictionary,
#: weakref.finalize): like ``__del__`` methods, they run wherever an object happens to die, and an exception
#: raised in one is swallowed as "unraisable".
_FINALIZERS = frozenset(module.__file__ for module in (weakref, _weakrefset))


_WATCHDOG = _Watchdog()
if hasattr(os, "register_at_fork"):
    # A child process starts with one thread: the watchdog (and a lock it may have held) stays behind.  The
    # child's budgets end with the parent's registrations: its blocks run on, unlimited, and leave quietly.
    os.register_at_fork(after_in_child=_WATCHDOG._reset)


def time_budget(seconds: float = DEFAULT_SECONDS, what: str = "symbolic step", *, absorb: bool = False):
    """Run the body for at most ``seconds`` of this thread's CPU time, else raise :class:`SymbolicTimeout`.

    With ``absorb``, the block's own timeout ends the block quietly instead, and
    the budget's ``spent`` says so.  Either way only the block's *own* timeout
    is converted or absorbed: budgets nest, each keeps its own deadline, and an
    outer budget spent while an inner block runs raises through the inner
    block's ``with`` to its own (so ``except SymbolicTimeout`` around an inner
    step cannot swallow the outer limit for good: it fires again).  The timeout
    is raised only while the block runs, never after it (see the module
    docstring).

    >>> with time_budget(5):
    ...     1 + 1
    2
    >>> with time_budget(0.05, "a loop", absorb=True) as budget:
    ...     while True:
    ...         pass
    >>> budget.spent
    True
    """
    if _ASYNC:
        return _Budget(seconds, what, absorb)
    return _AlarmBudget(seconds, what, absorb)


def budgeted(call, what: str, seconds: float = DEFAULT_SECONDS):
    """``call()`` under a time budget; its timeout, or no way to budget, is "no closed form".

    The one entry point for open-ended SymPy calls (integrate, summation,
    limit), so none can run unbounded.  An outer budget that is spent meanwhile
    is not "no closed form": it goes on to its own block.
    """
    if not can_budget():
        raise NoClosedFormError(f"{what} cannot be time-budgeted in this thread")
    budget = time_budget(seconds, what)
    try:
        with budget:
            return call()
    except SymbolicTimeout as exc:
        if not budget.spent:
            raise
        raise NoClosedFormError(str(exc)) from exc


class _AlarmBudget:
    """The fallback without asynchronous exceptions: ``SIGALRM`` (wall-clock time, main thread only).

    The signal's handler runs in the budgeted thread itself, where the frame it
    is given is where the timeout would land: it raises only while the block
    runs (as :class:`_Budget` decides it) and outside protected code, and does
    nothing once the block has ended (a signal already on its way as the block
    ended, or a block whose ``__exit__`` was skipped).
    """

    def __init__(self, seconds: float, what: str, absorb: bool):
        self.seconds, self.what, self.absorb = float(seconds), what, absorb
        self.spent = False
        self.closed = True

    @protect
    def __enter__(self):
        if not can_budget():
            raise SymbolicTimeout(f"{self.what}: no time budget is possible outside the main thread")

        def expire(signum, frame):  # noqa: ARG001 - signal handler signature
            if self.closed:
                return
            if _in_protected_frame(frame):
                signal.setitimer(signal.ITIMER_REAL, _PROTECTED_RETRY)
                return
            where = _where(self.frame, self.entered_at, _stack_from(frame))
            if where is _RUNNING:
                raise self.expired
            if where is _WAITING:
                signal.setitimer(signal.ITIMER_REAL, RETRY_SECONDS)
            # _OVER: the block ended without its __exit__; nothing is raised, ever.

        self.expired = type("SymbolicTimeout", (_Expired,), {"message": f"{self.what} did not finish within "
                                                                       f"{self.seconds:g} s"})
        self.frame = sys._getframe(1)
        self.entered_at = self.frame.f_lasti
        self.closed = False
        self.outer, _ = signal.getitimer(signal.ITIMER_REAL)
        self.previous = signal.signal(signal.SIGALRM, expire)
        self.started = time.monotonic()
        self.state = [snapshot() for snapshot, _ in _BLOCK_STATE]
        signal.setitimer(signal.ITIMER_REAL, self.seconds if not self.outer else min(self.seconds, self.outer))
        ident = threading.get_ident()
        _ALARMS_OPEN[ident] = _ALARMS_OPEN.get(ident, 0) + 1
        return self

    @protect
    def __exit__(self, exc_type, exc, tb) -> bool:
        self.closed = True  # first: a signal handled from here on does nothing
        self.frame = None
        ident = threading.get_ident()
        _ALARMS_OPEN[ident] = max(0, _ALARMS_OPEN.get(ident, 0) - 1)
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self.previous)
        _restore_block_state(self.state)
        if self.outer:
            left = self.outer - (time.monotonic() - self.started)
            signal.setitimer(signal.ITIMER_REAL, max(left, 1e-3))
        if exc_type is not None and exc_type is self.expired:
            self.spent = True
            if self.absorb:
                return True
            raise SymbolicTimeout(exc.message) from None
        return False


__all__ = [
    "DEFAULT_SECONDS",
    "RETRY_SECONDS",
    "WALL_FACTOR",
    "budgeted",
    "can_budget",
    "checkpoint",
    "in_budget",
    "in_protected_code",
    "protect",
    "restore_at_block_end",
    "time_budget",
]
