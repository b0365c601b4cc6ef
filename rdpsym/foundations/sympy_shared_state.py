"""SymPy's process-wide state that a timeout or a second thread must not leave wrong: mended on import.

A time budget (:mod:`rdpsym.foundations.budget`) raises its timeout in the working thread between two bytecodes,
and rdpsym runs SymPy in several threads. SymPy keeps process-wide caches that it fills or updates in several steps
with Python calls between them; stopped there, or interleaved with a second thread, they stay wrong for the rest of
the process. Each mend below keeps SymPy's values and only makes the update whole (probes: a tracer raising at one
line of SymPy's code, or two threads made to alternate there):

- **The cache of real roots** (``sympy.polys.rootoftools._reals_cache``). Reading an isolating interval's right end,
  ``RealInterval.b``, flipped the cached interval's ``neg`` flag, read the mirrored interval's left end (a Python
  call) and flipped the flag back. Stopped in between, the interval stayed mirrored: ``CRootOf(x³ − 4x + 1, 2)``
  evaluated to −1.86, not a root, and once x − 1's interval sat on −1 the real roots of 1 − x² were never found
  (SymPy refines two intervals of one point until they are disjoint). Four threads reading one interval left it
  mirrored in 2 runs of 3. That is the test worker that ran out of its 10 minutes at random in
  ``tests/test_ceilings.py`` (a Kumaraswamy pair's regions; stops 83, 86, 87, 90 and 92). :func:`_right_end` reads
  the same number without writing.
- **The small factorials** (``factorial._small_factorials``), filled one append at a time on the first n! with
  n < 20 and trusted once not empty: stopped, n! for larger n raised IndexError for good; two threads filling it at
  once made it [1, 1, 2, 2, 6, 6, …], and then 3! = 2 and Γ(6) = 6. Filled whole here, before any work.
- **The sieve of primes** (``sympy.sieve``): two threads extending it at once appended the same primes twice, and
  ``prime(30000)`` was 128 411 (it is 350 377). Its extension now holds a lock.
- **lambdify's mpmath namespace**, filled by a star import and then one translation at a time, and never filled
  again once changed: stopped, every later ``lambdify(…, "mpmath")`` met NameError for ``LambertW``, ``Ei``, ``Si``
  and others. Filled here.
- **The Meijer G lookup table** (``sympy.integrals.meijerint._lookup_table``), set to an empty dict and then filled,
  and never filled again once not empty: stopped at its 6th formula, ``integrate(exp(−x)·log x, (x, 0, ∞))`` stayed
  unevaluated. It is now built whole, under a lock, and then put in place (on first use: it takes 0.1 s).

Found by a review of SymPy's and mpmath's shared state (mpmath's caches of constants and series are updated in one
store, or in stores with no Python call between them, and need nothing). Not mended: SymPy's ``manualintegrate``
special-function patterns (a stop there makes its later special-function integrals raise, a result lost, not a wrong
one), because the module is loaded only by a first ``integrate`` and loading it here would cost every process 40 ms.
"""

from __future__ import annotations

import functools
import math
import os
import sys
import threading

from sympy.functions.combinatorial.factorials import factorial
from sympy.integrals import meijerint
from sympy.ntheory.generate import Sieve
from sympy.polys.rootisolation import RealInterval

_lambdify_module = sys.modules["sympy.utilities.lambdify"]  # (the package's attribute is the function lambdify)


def _right_end(interval: RealInterval):
    """The right end of a real isolating interval, as SymPy's ``RealInterval.b`` gives it, read without writing.

    ``b`` is minus the left end of the mirrored interval: for an interval on the positive side (``neg`` false) the
    larger of the Möbius transform's two ends a/c and b/d, and for a mirrored one minus the smaller of them.

    >>> import sympy as sp
    >>> from sympy.polys.rootoftools import _reals_cache
    >>> x = sp.Symbol("x")
    >>> roots = sp.real_roots(sp.Poly(x**3 - 4 * x + 1, x))
    >>> interval = _reals_cache[sp.PurePoly(x**3 - 4 * x + 1)][0]  # the negative root's: mirrored
    >>> interval.neg, interval.a < interval.b < 0, interval.neg
    (True, True, True)
    """
    field = interval.dom.get_field()
    a, b, c, d = interval.mobius
    if not interval.neg:  # (the mirrored interval's left end is −max(a/c, b/d); b is minus that)
        return field(a, c) if a * d > b * c else field(b, d)
    return -(field(a, c) if a * d < b * c else field(b, d))


_SIEVE_LOCK = threading.Lock()


def _extended_by_one_thread(extend):
    """``Sieve.extend`` holding a lock: each extension reads the last prime and appends what follows it."""
    @functools.wraps(extend)
    def extend_alone(self, n):
        with _SIEVE_LOCK:
            return extend(self, n)
    extend_alone.mended = True
    return extend_alone


_TABLE_LOCK = threading.Lock()


def _with_the_whole_table(rewrite_single):
    """meijerint's ``_rewrite_single``, its lookup table built whole first (in a dict of its own, then put in place,
    one thread at a time): SymPy's own code takes any table that is not empty for a whole one."""
    @functools.wraps(rewrite_single)
    def rewrite(*args, **kwargs):
        if not meijerint._lookup_table:
            with _TABLE_LOCK:
                if not meijerint._lookup_table:
                    table: dict = {}
                    meijerint._create_lookup_table(table)
                    meijerint._lookup_table = table
        return rewrite_single(*args, **kwargs)
    rewrite.mended = True
    return rewrite


def _install() -> None:
    RealInterval.b = property(_right_end, doc=RealInterval.b.__doc__)
    whole = [math.factorial(n) for n in range(1, 20)]
    if factorial._small_factorials != whole:
        factorial._small_factorials[:] = whole  # (one C call: SymPy appends to this list only while it is empty)
    if not getattr(Sieve.extend, "mended", False):  # (once: a module reloaded installs again)
        Sieve.extend = _extended_by_one_thread(Sieve.extend)
    _lambdify_module._import("mpmath")
    if not getattr(meijerint._rewrite_single, "mended", False):
        meijerint._rewrite_single = _with_the_whole_table(meijerint._rewrite_single)


def _new_locks() -> None:
    """Fresh locks in a forked child: a lock another thread of the parent held as it forked is held for ever there."""
    global _SIEVE_LOCK, _TABLE_LOCK
    _SIEVE_LOCK, _TABLE_LOCK = threading.Lock(), threading.Lock()


_install()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_new_locks)
