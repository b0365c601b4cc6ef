"""Where a budget's block is: the ``with`` statement's body read from CPython's bytecode.

A timeout is raised only while its own block runs, never after it (the section
"A timeout is raised only inside its own block" of :mod:`rdpsym.foundations.budget`).
A budget remembers the frame and the instruction that called its ``__enter__``;
its body is the instructions whose exception handler is, directly or through
nested handlers, that ``with`` statement's (:func:`_with_body`,
:func:`_read_with_body`, cached per code object).  :func:`_where` says whether the
block is running, waiting (still entering, or a generator paused inside it) or
over; :func:`_at_landing` whether a thread is at an instruction where an
asynchronous exception lands at once.  Pure reading of frames and code: no
thread, no clock.
"""

from __future__ import annotations

import dis
import types
import weakref

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
