"""SymPy's shared state that a timeout or a second thread must not leave corrupt: its cache of real roots.

SymPy keeps the isolating interval of every real root it has found, per irreducible factor, in one cache for the
whole process (``sympy.polys.rootoftools._reals_cache``), and reuses the interval objects themselves. Reading an
interval's right end, ``RealInterval.b``, writes to the interval: it flips the object's ``neg`` flag, reads the left
end of the mirrored interval, and flips the flag back. Anything that stops the thread between the two writes leaves
the cached interval mirrored for the rest of the process:

- a time budget's timeout (:mod:`rdpsym.foundations.budget`), which lands between any two bytecodes;
- a second thread reading the same cached interval, which finds the flag already flipped, "restores" it to the
  flipped value, and so keeps it flipped (4 threads reading one interval 20 000 times each left it mirrored in 2
  runs of 3, with a 1 µs switch interval).

A mirrored interval isolates −r where the factor's root is r. Then ``CRootOf(x³ − 4x + 1, 2)`` evaluates to −1.86,
which is not a root, and the real roots of 1 − x² are never found once x − 1's interval sits on −1: SymPy refines
two intervals of one point until they are disjoint, which they never are. That is how a test worker ran out of its
10 minutes, at random, in runs where an earlier test's timeout or thread had landed there
(``tests/test_ceilings.py``, a Kumaraswamy pair's regions; stops 83, 86, 87, 90 and 92).

:func:`_right_end` is the same number computed without writing anything; installed on import, for every caller of
SymPy in the process (the values are SymPy's own: it only stops the writes).
"""

from __future__ import annotations

from sympy.polys.rootisolation import RealInterval


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


RealInterval.b = property(_right_end, doc=RealInterval.b.__doc__)
