"""A result's per-order rows, built when first read: :class:`LazyRows`.

An accounting result lists every order's value and bound (``per_order``): 157 records of two
certified balls each for dp_accounting's grid and α = ∞.  Wrapping them for printing and
pickling costs more than the conversion that chose the order (about 2 ms), and most callers
read only ε, the order and the conversion.  So the rows are a sequence that builds its tuple
on first use, from data the result already holds: nothing is recomputed differently, only
later.  It compares, hashes and pickles as that tuple (unpickled, it *is* the tuple).

>>> rows = LazyRows(lambda: tuple(range(3)))
>>> len(rows), rows[-1], list(rows), rows == (0, 1, 2), (0, 1, 2) == rows
(3, 2, [0, 1, 2], True, True)
>>> import pickle
>>> pickle.loads(pickle.dumps(rows))
(0, 1, 2)
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

__all__ = ["LazyRows"]


class LazyRows(Sequence):
    """A tuple computed by ``build()`` the first time it is read (length, an item, iteration, equality)."""

    __slots__ = ("_build", "_lock", "_rows")

    def __init__(self, build: Callable[[], tuple]):
        self._build = build
        self._rows: tuple | None = None
        self._lock = threading.Lock()

    @property
    def rows(self) -> tuple:
        """The rows, as a tuple (built now if they were not yet)."""
        rows = self._rows
        if rows is None:
            with self._lock:  # one build even if two threads read at once
                if self._rows is None:
                    self._rows = tuple(self._build())
                    self._build = None  # let go of what it captured
                rows = self._rows
        return rows

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, i):
        return self.rows[i]

    def __iter__(self):
        return iter(self.rows)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyRows):
            return self is other or self.rows == other.rows
        if isinstance(other, tuple):
            return self.rows == other
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        return hash(self.rows)

    def __reduce__(self):
        return tuple, (self.rows,)

    def __repr__(self) -> str:
        return repr(self.rows)
