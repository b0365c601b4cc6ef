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

Nothing here changes global precision: Arb work runs inside
:func:`rdpsym.foundations.balls.precision` blocks, mpmath work inside
``mpmath.workdps``, both restored on exit.

>>> arb_rungs(10)
(53, 106, 212, 424)
>>> climb(lambda bits: bits, lambda value: value >= 100, (53, 106, 212), "a demo")
106
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TypeVar

import mpmath

from rdpsym.foundations.errors import ConvergenceError

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


def climb(compute: Callable[[int], T], good: Callable[[T], bool], rungs: Sequence[int], what: str,
          retry: tuple[type[BaseException], ...] = ()) -> T:
    """``compute(bits)`` at each rung until ``good(result)``; an exception in ``retry`` means "try higher".

    Raises :class:`ConvergenceError` naming ``what`` when the last rung is not good enough.
    """
    for bits in rungs:
        try:
            value = compute(bits)
        except retry:
            continue
        if good(value):
            return value
    raise ConvergenceError(f"{what}: not reached within {rungs[-1]} bits")


def agreed(first: mpmath.mpf, second: mpmath.mpf, dps: int) -> mpmath.mpf | None:
    """``second`` rounded to ``dps`` digits if ``first`` agrees with it to ``dps`` significant digits, else None.

    Relative agreement only, with no absolute floor (2.5·10⁻¹⁹ must agree to
    ``dps`` digits too), and never at 0: a 0 is total cancellation.
    """
    with mpmath.workdps(dps):
        if mpmath.isinf(first) and mpmath.isinf(second) and first == second:
            return +second
        if not (mpmath.isfinite(first) and mpmath.isfinite(second)) or second == 0:
            return None
        if first == second or abs(first - second) <= mpmath.mpf(10) ** (-dps) * abs(second):
            return +second
    return None


def lacking_digits(first: mpmath.mpf, second: mpmath.mpf, dps: int) -> int | None:
    """How many of ``dps`` significant digits two finite, nonzero values fail to share (None: no estimate)."""
    if not (mpmath.isfinite(first) and mpmath.isfinite(second)) or first == 0 or second == 0:
        return None
    with mpmath.workdps(20):
        shared = -mpmath.log10(abs(first - second) / abs(second))
    return max(1, dps - int(shared)) + 5


__all__ = ["BITS_PER_DIGIT", "CEILING_FACTOR", "DECISION_RUNGS", "GUARD_BITS", "GUARD_RUNGS", "SECOND_RUNG", "agreed",
           "arb_rungs", "bits_for", "climb", "lacking_digits"]
