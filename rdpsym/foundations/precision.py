"""The one precision ladder: how rdpsym raises working precision until a number is good enough.

Every numeric result is computed at a first precision, checked, and computed
again higher up only when the check fails; the climb is bounded, and running
out of rungs is a :class:`~rdpsym.foundations.errors.ConvergenceError`, never
a silently worse number.  The rungs, and the two checks, are defined here:

*Arb balls* (certified: a ball contains the truth; the check is its radius)
    :func:`arb_rungs` — ``bits_for(dps)`` doubled three times — for values
    wanted to ``dps`` digits (RDP curves); :data:`GUARD_RUNGS` — 32 to 4096
    extra bits — for closed forms whose terms cancel (the exact Gaussian and
    KOV curves); :data:`DECISION_RUNGS` — 256 then 1024 bits — to decide a
    relation at a sample point (claims).  :func:`climb` runs a computation up
    a ladder.

*mpmath* (not certified: the check is agreement)
    the definition's quadrature (:mod:`rdpsym.derive.numeric`) computes at
    ``dps + guard`` and at :data:`SECOND_RUNG` digits more, and accepts only
    when the two agree to ``dps`` significant digits (:func:`agreed`); digits
    lost to cancellation are added back (:func:`lacking_digits`), never beyond
    :data:`CEILING_FACTOR` times the digits asked for.

Nothing here changes global precision, from any thread:

*mpmath* work runs in a **private context** (:func:`private_context`: an
``mpmath.MPContext`` of the calling thread, mpmath's own style -- functions
written against a context), never at ``mpmath.mp``; its numbers are handed to
users as global-context ``mpf`` (:class:`rdpsym.foundations.numbers.Digits`),
exactly.  SymPy's ``evalf`` sets ``mpmath.mp``'s precision itself while it
evaluates special functions (erf, loggamma, ...); rdpsym evaluates through
:func:`sympy_float`, which does that under one process-wide lock and puts the
precision back, so two threads' evaluations never interleave their saves and
restores.  (What a thread that uses ``mpmath.mp`` itself at the same moment can
see: SymPy's precision during such an evaluation -- SymPy's own behaviour.)

*Arb* work runs inside :func:`rdpsym.foundations.balls.precision` blocks
(python-flint 0.9 has one process-wide precision and no per-call one): see
there what a concurrent user of python-flint can observe.

>>> arb_rungs(10)
(53, 106, 212, 424)
>>> climb(lambda bits: bits, lambda value: value >= 100, (53, 106, 212), "a demo")
106
"""

from __future__ import annotations

import functools
import math
import os
import threading
from collections.abc import Callable, Sequence
from typing import TypeVar

import mpmath
import sympy as sp
from mpmath.libmp import dps_to_prec

from rdpsym.foundations.budget_protected import protect, restore_at_block_end
from rdpsym.foundations.budget_watchdog import checkpoint
from rdpsym.foundations.errors import ConvergenceError, OutsideDomain

T = TypeVar("T")

#: Bits per decimal digit.
BITS_PER_DIGIT = math.log2(10)
#: Guard bits added to every Arb precision derived from digits.
GUARD_BITS = 20
#: Extra bits tried in turn by closed forms whose two terms cancel (the exact Gaussian curve, KOV).
GUARD_RUNGS = (32, 64, 128, 256, 512, 1024, 2048, 4096)
#: Working precisions (bits) at which a relation is decided at one point before it is called undecided.
DECISION_RUNGS = (256, 1024)
#: The mpmath definition's second precision: this many digits above the first.
SECOND_RUNG = 20
#: The mpmath definition never works at more than this many times (dps + guard) digits.
CEILING_FACTOR = 4


def bits_for(dps: int) -> int:
    """Working bits for ``dps`` decimal digits, plus :data:`GUARD_BITS`."""
    return int(dps * BITS_PER_DIGIT) + GUARD_BITS


def arb_rungs(dps: int, rungs: int = 4) -> tuple[int, ...]:
    """The Arb precisions tried for a value wanted to ``dps`` digits: ``bits_for(dps)``, then doubled."""
    first = bits_for(dps)
    return tuple(first * 2**k for k in range(rungs))


def digits_next_to_one(order: object) -> int:
    """The digits log(I)/(α − 1) loses at an order α next to 1, to add to a working precision: I − 1 is about
    (α − 1)·KL there, so log I keeps −log10|α − 1| digits fewer than I (0 for α = 1, ∞, a symbol, or
    |α − 1| ≥ 1/10).  At α = 1 + 10⁻⁵⁰ and 50 digits, α itself rounded to 1 and the divergence read 0.0.

    >>> digits_next_to_one(sp.Rational(10**20 + 1, 10**20)), digits_next_to_one(2), digits_next_to_one(sp.oo)
    (22, 0, 0)
    """
    try:
        t = abs(sp.Rational(order) - 1)
    except (TypeError, ValueError):
        return 0
    if t == 0 or t >= sp.Rational(1, 10):
        return 0
    # from the bits, not str(): Python refuses to print an integer of more than 4300 digits (α = 1 + 10⁻⁵⁰⁰⁰)
    return int((t.q // t.p).bit_length() * math.log10(2)) + 2


#: The most bits :func:`climb` doubles to past its rungs, for values only too small for them (``further``).
FURTHER_CEILING = 1 << 15


def climb(compute: Callable[[int], T], good: Callable[[T], bool], rungs: Sequence[int], what: str,
          retry: tuple[type[BaseException], ...] = (), further: Callable[[T, int], bool] | None = None) -> T:
    """``compute(bits)`` at each rung until ``good(result)``; an exception in ``retry`` means "try higher".

    Past the last rung, the precision keeps doubling (to :data:`FURTHER_CEILING` bits) while ``further(result,
    bits)`` says the result is only too small for the precision, not wrong: D₂ of the Laplace mechanism at scale
    10⁸⁰ is 10⁻¹⁶⁰, a ball [± 10⁻¹⁵⁴] at 512 bits and resolved at 1024 (a probe met "not reached" there).  With
    ``further`` given, a last rung that raised a ``retry`` exception goes on doubling too: at scale 10⁻³⁰⁰ the
    Laplace form's exponent e^{10³⁰⁰·α} needs 1000 bits before its logarithm's argument is certified positive, more
    than the rungs of 10 or 20 digits reach, while 30 digits' rungs did (a probe).
    Raises :class:`ConvergenceError` naming ``what`` when the last precision tried is not good enough.
    """
    value, bits, certain = None, rungs[-1], False
    for bits in rungs:
        try:
            value = compute(bits)
        except retry as exc:
            value, certain = None, isinstance(exc, OutsideDomain)
            continue
        if good(value):
            return value
    # (an OutsideDomain is certain at any precision: log(α − 2) at α = 2 doubled to 60 928 bits; a review)
    while (further is not None and not certain and 2 * bits <= FURTHER_CEILING
           and (value is None or further(value, bits))):
        bits *= 2
        try:
            value = compute(bits)
        except retry as exc:
            value, certain = None, isinstance(exc, OutsideDomain)
            continue
        if good(value):
            return value
    raise ConvergenceError(f"{what}: not reached within {bits} bits")


def agreed(first: mpmath.mpf, second: mpmath.mpf, dps: int) -> mpmath.mpf | None:
    """``second`` rounded to ``dps`` digits if ``first`` agrees with it to ``dps`` significant digits, else None.

    Relative agreement only, with no absolute floor (2.5·10⁻¹⁹ must agree to
    ``dps`` digits too), and never at 0: a 0 is total cancellation.  The value
    returned belongs to a private context: wrap it (``Digits``) before handing it out.
    """
    with private_context(dps) as ctx:
        first, second = ctx.convert(first), ctx.convert(second)
        if ctx.isinf(first) and ctx.isinf(second) and first == second:
            return +second
        if not (ctx.isfinite(first) and ctx.isfinite(second)) or second == 0:
            return None
        if first == second or abs(first - second) <= ctx.mpf(10) ** (-dps) * abs(second):
            return +second
    return None


def lacking_digits(first: mpmath.mpf, second: mpmath.mpf, dps: int) -> int | None:
    """How many of ``dps`` significant digits two finite, nonzero values fail to share (None: no estimate)."""
    with private_context(20) as ctx:
        first, second = ctx.convert(first), ctx.convert(second)
        if not (ctx.isfinite(first) and ctx.isfinite(second)) or first == 0 or second == 0:
            return None
        shared = -ctx.log10(abs(first - second) / abs(second))
    return max(1, dps - int(shared)) + 5


# ---------------------------------------------------------------- private mpmath contexts


class _Pool(threading.local):
    """Each thread's idle private contexts (kept, so mpmath's quadrature nodes stay cached in them)."""

    def __init__(self):
        self.idle: list = []


_POOL = _Pool()


class private_context:  # noqa: N801 - used like mpmath.workdps
    """A private ``mpmath.MPContext`` at ``dps`` digits (or ``prec`` bits) for a block.

    Pass it down and compute with its functions (``ctx.quad``, ``ctx.exp``,
    ``ctx.mpf``); the global ``mpmath.mp`` -- the user's precision -- is never
    touched.  Each thread keeps its own idle contexts, so nothing is shared
    between threads, a nested block gets a context of its own, and mpmath's
    caches (quadrature nodes) survive from one block to the next.

    >>> with private_context(40) as ctx:
    ...     third = ctx.mpf(1) / 3
    ...     ctx.nstr(third, 40), mpmath.mp.dps
    ('0.3333333333333333333333333333333333333333', 15)
    """

    def __init__(self, dps: int | None = None, *, prec: int | None = None):
        # mpmath's own digits-to-bits rule, so a private context at dps computes as mpmath.workdps(dps) does.
        self.prec = int(prec) if prec is not None else dps_to_prec(int(dps))

    @protect
    def __enter__(self):
        idle = _POOL.idle
        self.ctx = idle.pop() if idle else mpmath.MPContext()
        self.ctx.prec = self.prec
        self.ctx.pretty = False
        return self.ctx

    @protect
    def __exit__(self, *exc) -> bool:
        if len(_POOL.idle) < _MAX_IDLE:
            _POOL.idle.append(self.ctx)
        return False


#: Idle private contexts a thread keeps.
_MAX_IDLE = 4


# ---------------------------------------------------------------- SymPy's evalf and mpmath.mp


#: Held while SymPy's evalf may set ``mpmath.mp``'s precision (see the module docstring).
#: The one lock of process-wide numeric state: SymPy's evalf (mpmath's global precision) and Arb's precision
#: (``rdpsym.foundations.balls.PRECISION_LOCK`` is this lock).  One lock, not two: an Arb block that calls
#: SymPy's evalf and an evalf block that builds a ball took two locks in opposite orders from two threads
#: and deadlocked (hostile calls from four threads hung the suite).
NUMERIC_LOCK = threading.RLock()


#: The numeric blocks open in each thread, innermost last (see :class:`NumericBlock`).
_OPEN = threading.local()


def _fresh_lock_in_child() -> None:
    # A child starts with one thread: a lock held by another thread of the parent stays held.
    global NUMERIC_LOCK
    NUMERIC_LOCK = threading.RLock()
    _OPEN.blocks = []


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_fresh_lock_in_child)


def _open_blocks() -> list:
    stack = getattr(_OPEN, "blocks", None)
    if stack is None:
        stack = _OPEN.blocks = []
    return stack


class NumericBlock:
    """A block that holds :data:`NUMERIC_LOCK` and puts back the process-wide state it changes.

    Subclasses say what they change: :meth:`start` (save, then set) and
    :meth:`finish` (put back what ``start`` saved).  What the base class adds is
    that an exception delivered *between* the steps -- a time budget's timeout
    (raised asynchronously in the thread), a Ctrl-C -- never leaves the lock
    held or the state changed:

    - entering, the acquire and ``start`` sit in one ``try``; if an exception
      lands right after the lock was taken, the lock is let go (its recursion
      count says whether the acquire happened) and anything saved put back;
    - leaving can be skipped altogether (an exception arriving as ``__exit__``
      is entered), so each open block is also on a per-thread stack:
      :func:`close_numeric_blocks` closes what is above a depth, innermost
      first.  A block's own exit closes any inner block whose exit was skipped,
      and every time budget closes the blocks opened inside it as it ends
      (blocks nest inside budgets, so whatever is still open then was skipped);
    - entering is a :func:`~rdpsym.foundations.budget_watchdog.checkpoint`: threads that
      take turns at the lock are nearly always inside a block's bookkeeping,
      where no timeout is raised asynchronously; a timeout held back for that
      reason is raised here, before the lock is taken.
    """

    @protect
    def __enter__(self):
        checkpoint()  # a timeout held back while this thread was in protected code lands here, nothing held yet
        lock, stack = NUMERIC_LOCK, _open_blocks()
        held_before = lock._recursion_count()
        try:
            lock.acquire()
            self._lock = lock
            stack.append(self)
            self.start()
        except BaseException:
            if stack and stack[-1] is self:
                stack.pop()
                self.finish()
            if lock._recursion_count() > held_before:
                lock.release()
            raise
        return self

    @protect
    def __exit__(self, *exc) -> bool:
        stack = _open_blocks()
        depth = next((i for i in range(len(stack) - 1, -1, -1) if stack[i] is self), None)
        if depth is not None:
            close_numeric_blocks(depth)
        return False

    def start(self) -> None:
        """Save the state this block changes, then change it (the lock is held)."""

    def finish(self) -> None:
        """Put back what :meth:`start` saved (the lock is still held); called once, even after a partial start."""


def open_numeric_blocks() -> int:
    """How many numeric blocks this thread has open (a depth for :func:`close_numeric_blocks`)."""
    return len(_open_blocks())


@protect
def close_numeric_blocks(depth: int) -> None:
    """Close this thread's numeric blocks above ``depth``, innermost first: state put back, lock let go.

    >>> with sympy_evalf_guard():
    ...     open_numeric_blocks()
    1
    >>> open_numeric_blocks(), NUMERIC_LOCK._recursion_count()
    (0, 0)
    """
    stack = _open_blocks()
    while len(stack) > depth:
        block = stack[-1]
        try:
            block.finish()
        finally:
            stack.pop()
            block._lock.release()


restore_at_block_end(open_numeric_blocks, close_numeric_blocks)


def in_symbolic_work() -> bool:
    """Whether this thread is inside a :class:`sympy_evalf_guard` block (rdpsym's symbolic work)."""
    return any(isinstance(block, sympy_evalf_guard) for block in _open_blocks())


class sympy_evalf_guard(NumericBlock):  # noqa: N801 - a context manager
    """A block in which SymPy may set ``mpmath.mp``'s precision: one thread at a time, precision put back.

    SymPy sets mpmath's global precision whenever it evaluates a special
    function numerically: in ``evalf``, but also inside automatic evaluation and
    assumptions (``erf(2)*exp(x)`` asked ``is_positive`` is evaluated at a few
    bits), ``nroots``, ``nsimplify``.  Two threads doing so at once interleave
    their saves and restores and can leave the precision changed for good.  So
    rdpsym runs its symbolic work (derivations, density checks, the symbolic
    preparation of a numeric value) inside this guard: one process-wide
    re-entrant lock, and the precision restored on the way out.  It is also a
    decorator (:meth:`serialized`).  The numeric work itself (quadrature in
    private contexts, Arb balls) runs outside it, concurrently.
    """

    @staticmethod
    def serialized(function):
        """``function`` run inside the guard (a decorator)."""
        @functools.wraps(function)
        def guarded(*args, **kwargs):
            with sympy_evalf_guard():
                return function(*args, **kwargs)
        return guarded

    def start(self) -> None:
        self.saved = mpmath.mp.prec, mpmath.mp.pretty, mpmath.mp.dps

    def finish(self) -> None:
        # (the digits too: mpmath's precision setter stores the bits, then calls prec_to_dps before it stores the
        # digits, and a timeout landing at that call inside workdps' exit left 53 bits printed as 30 digits (a
        # review); setting the bits sets the digits from them)
        saved = getattr(self, "saved", None)
        if saved is not None and (mpmath.mp.prec, mpmath.mp.pretty, mpmath.mp.dps) != saved:
            mpmath.mp.prec, mpmath.mp.pretty = saved[:2]


def sympy_float(expr: sp.Expr, digits: int, subs: dict | None = None) -> sp.Expr:
    """``expr.evalf(digits)``, never leaving ``mpmath.mp`` changed for any thread.

    SymPy evaluates +, ×, powers, exp, log, trigonometric functions, π and e
    at an explicit precision; other functions (erf, loggamma, Bessel, ...)
    through mpmath's global context, under :class:`sympy_evalf_guard`.

    >>> sympy_float(sp.erf(1), 20), sympy_float(sp.sqrt(2) * sp.pi, 20)
    (0.84270079294971486934, 4.4428829381583662470)
    """
    if _context_free(expr) and not subs:
        return expr.evalf(digits)
    with sympy_evalf_guard():
        return expr.evalf(digits, subs=subs)


def _context_free(expr: sp.Basic) -> bool:
    """Whether SymPy's evalf of ``expr`` leaves mpmath's global context alone (its own handlers only)."""
    from sympy.core.evalf import evalf_table

    if not evalf_table:
        return False
    for node in sp.preorder_traversal(expr):
        if node.is_Atom:
            if node.is_Number or node.is_Symbol or node in (sp.pi, sp.E, sp.I):
                continue
            return False
        if type(node) not in _SAFE_EVALF:
            return False
    return True


_SAFE_EVALF = {sp.Add, sp.Mul, sp.Pow, sp.exp, sp.log, sp.sin, sp.cos, sp.tan, sp.atan, sp.Abs}


def mpmath_function(variables, expr: sp.Expr) -> Callable:
    """``sp.lambdify(variables, expr, modules="mpmath")``, its integer arguments made mpmath numbers first.

    lambdify prints 3^(−k) as ``3**(-k)``, and Python's power of an int to a negative int is a float: a joint
    pmf's D₂ summed at integer points was right to 17 digits of 50, both precisions agreeing (a probe).

    >>> k = sp.Symbol("k", integer=True)
    >>> with mpmath.workdps(30):
    ...     mpmath_function(k, 3**(-k))(5) == mpmath.mpf(1) / 243
    True
    """
    f = _lambdify(tuple(variables) if isinstance(variables, (list, tuple)) else variables, expr)

    def call(*args):
        return f(*(mpmath.mpf(a) if isinstance(a, int) else a for a in args))

    return call


@functools.lru_cache(maxsize=256)
def _lambdify(variables, expr: sp.Expr) -> Callable:
    """lambdify's code for ``expr``, kept: it prints and compiles Python source each time, and a series or a joint
    pmf is evaluated again at each precision of a check (the discrete Gaussian's normaliser, at every rung)."""
    return sp.lambdify(variables, expr, modules=MPMATH_MODULES)


def regularized_betainc(a, b, x1, x2):
    """I_{x1}^{x2}(a, b), the regularized incomplete Beta function, at mpmath's working precision."""
    return mpmath.betainc(a, b, x1, x2, regularized=True)


#: lambdify's modules for mpmath.  SymPy's own table maps ``betainc_regularized`` to mpmath's unregularized
#: ``betainc``: I_{1/2}(2, 3) was read 0.0573 for 0.6875 (a review).
MPMATH_MODULES = [{"betainc_regularized": regularized_betainc}, "mpmath"]


__all__ = ["BITS_PER_DIGIT", "CEILING_FACTOR", "DECISION_RUNGS", "GUARD_BITS", "GUARD_RUNGS", "MPMATH_MODULES",
           "SECOND_RUNG", "agreed", "arb_rungs", "bits_for", "climb", "digits_next_to_one", "in_symbolic_work",
           "lacking_digits", "mpmath_function", "private_context", "regularized_betainc", "sympy_evalf_guard",
           "sympy_float"]
