"""Where a timeout never lands: protected code, finalizers, the import system; and state put right as a block ends.

The section "Where it never lands" of :mod:`rdpsym.foundations.budget`: code that
must not stop halfway is registered with :func:`protect`; garbage-collection
callbacks, ``__del__`` methods, weak-reference callbacks and the import system are
treated the same (:func:`_in_protected_frames`, :func:`_importing`).  State a
timeout might still leave half-done is registered with
:func:`restore_at_block_end` and brought back by every budget as it ends
(:func:`_restore_block_state`).  :func:`in_protected_code` lets anything else
that interrupts threads (a test's watchdog) wait as the budgets do.
"""

from __future__ import annotations

import _weakrefset
import gc
import sys
import threading
import weakref
from collections.abc import Callable

from rdpsym.foundations.budget_blocks import _stack_from

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


@protect
def _restore_block_state(state: list) -> None:
    for (_, restore), saved in zip(_BLOCK_STATE, state):
        restore(saved)


def in_protected_code(ident: int) -> bool:
    """Whether thread ``ident`` is inside protected code, a garbage collection or one of its callbacks.

    Anything else that interrupts a thread asynchronously (a test's watchdog)
    should wait while this is True, as the budgets' watchdog does.
    """
    return _in_protected_frame(sys._current_frames().get(ident), ident)


#: The threads inside a garbage collection, between its "start" and "stop" callbacks.  A collection runs the
#: weak-reference callbacks and finalizers of whatever it frees, defined in any module (a callback of SymPy's,
#: of a test's), and an exception raised in one is swallowed as "unraisable": a timeout that landed there was
#: lost (the full suite, once: a budget that expired while gc.collect() ran).  No frame shows that a function
#: was called by the collector, so the collector says it, by the first of its callbacks.
_COLLECTING: set[int] = set()


def _track_collection(phase: str, info: dict) -> None:
    if phase == "start":
        _COLLECTING.add(threading.get_ident())
    else:
        _COLLECTING.discard(threading.get_ident())


gc.callbacks.insert(0, _track_collection)  # (first: set before any other callback or finalizer runs)


#: Code objects on either side of a call between Python and C code that does not carry exceptions (see
#: :func:`c_boundary`).
_C_BOUNDARY: set = set()


def c_boundary(function: Callable) -> Callable:
    """Mark ``function`` as one side of a call between Python and C code that does not carry exceptions (used as a
    decorator): a timeout never lands while it is the innermost frame.

    python-flint's ``acb.integral`` calls its integrand from C and, when the integrand raises, calls it again with
    the exception still set and raises ``SystemError`` at the end (:mod:`rdpsym.foundations.arb_integral`).  The
    function that calls such C code and the callback it is given are both marked: a timeout raised while the C code
    runs would land at the callback's first instruction, before its ``try`` can catch it, and one raised in the
    callback's own instructions could land outside its ``try`` too.  It lands instead in what the callback calls in
    Python (where the callback catches it and carries it across the C code), or once the C code has returned.
    """
    _C_BOUNDARY.add(function.__code__)
    return function


def at_c_boundary(frame) -> bool:
    """Whether ``frame``, a thread's innermost frame, is a :func:`c_boundary` function's own."""
    return frame is not None and frame.f_code in _C_BOUNDARY


def _in_protected_frame(frame, ident: int) -> bool:
    if at_c_boundary(frame):
        return True
    frames = _stack_from(frame)
    return frames is None or _in_protected_frames(frames, ident)  # (a stack read while it changed: look again)


def _in_protected_frames(frames: set, ident: int) -> bool:
    """Whether thread ``ident``, whose stack holds ``frames``, is in protected code or inside a collection."""
    if ident in _COLLECTING:
        return True
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


__all__ = [
    "at_c_boundary",
    "c_boundary",
    "in_protected_code",
    "protect",
    "restore_at_block_end",
]
