"""The textbook table's oracle values, stored (tests/stored_values.py): computed when the oracle or the table
changes, not on every run.

The definition of D_α evaluated by the independent oracle (tests/textbook_oracle.py, plain mpmath) at every
parameter point and order of the textbook table (tests/textbook_families.py) is a pure function of those two
files: the same 60-digit quadratures, sums and suprema, bit for bit, on every run — about four minutes of CPU in
each run of the suite (924 values, the two-dimensional normals 4 s each).  They are kept in
``golden/textbook_oracle_values.json`` with a fingerprint of the oracle, the table and this module.
``tests/test_textbook.py::test_stored_oracle_values_are_current`` fails when the store is stale (any edit of
the three, a new family too: until the store is regenerated the table's tests compute every value again) and
recomputes a seeded sample of entries with the oracle.  After such an edit (a process per core; about four
minutes of CPU)::

    python tests/textbook_oracle_values.py
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
import sys
from pathlib import Path

import mpmath
import sympy as sp

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # run as a script: the table's modules sit beside this one
    sys.path.insert(0, str(HERE))

from stored_values import Store, encode  # noqa: E402
from textbook_families import FAMILIES, ORDERS, is_inf, mp  # noqa: E402
from textbook_oracle import ORACLE_DPS, divergence, diverges, inf, sup_is_infinite, sup_log_ratio  # noqa: E402

STORE = Store("textbook_oracle_values", ("textbook_oracle.py", "textbook_families.py", "textbook_oracle_values.py"),
              "python tests/textbook_oracle_values.py")
BY_NAME = {f.name: f for f in FAMILIES}


def point_key(point: dict) -> tuple:
    """A parameter point as a hashable, ordered key: ((name, value as text), ...)."""
    return tuple(sorted((name, str(value)) for name, value in point.items()))


def entry_key(name: str, key: tuple, order) -> str:
    """The store's key of one value: family, point and order as text."""
    return f"{name} | {', '.join(f'{n}={v}' for n, v in key)} | {order}"


def cases():
    """(family, point key, order) for every value the table asks the definition for: each family's points and
    its numeric row's point (once where it is one of the points), at every order of the table."""
    for f in FAMILIES:
        keys = dict.fromkeys(point_key(p) for p in (*f.points, *([f.numeric] if f.numeric is not None else [])))
        for key in keys:
            for order in ORDERS:
                yield f.name, key, order


def compute(name: str, key: tuple, order) -> mpmath.mpf:
    """D_order from the definition (quadrature, summation, supremum) at ``ORACLE_DPS`` digits, or inf with a
    witness of divergence (tests/textbook_oracle.py)."""
    f = BY_NAME[name]
    point = dict(key)
    with mpmath.workdps(ORACLE_DPS):
        laws = f.laws({n: mp(sp.Rational(v)) for n, v in point.items()})
        if is_inf(order):
            return inf if sup_is_infinite(laws) else sup_log_ratio(laws)
        a = mp(order)
        if diverges(laws, a):
            return inf
        return divergence(laws, a, algebraic_tail=f.algebraic_tail)


def definition(name: str, key: tuple, order) -> mpmath.mpf:
    """The oracle's D_order at the point: the stored value when the store is current, else computed."""
    return STORE.value(entry_key(name, key, order), lambda: compute(name, key, order))


def compute_entry(entry: str) -> mpmath.mpf:
    """The oracle's value of a store entry, recomputed from its key (for the store's test)."""
    return compute(*_BY_ENTRY[entry])


_BY_ENTRY = {entry_key(*case): case for case in cases()}


def _compute_case(case):
    return entry_key(*case), encode(compute(*case))


def regenerate(workers: int | None = None) -> int:
    """Compute every case with the oracle (in ``workers`` processes) and write the store; return the count."""
    todo, computed_from = list(cases()), STORE.fingerprint()
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
    with concurrent.futures.ProcessPoolExecutor(workers or os.cpu_count() or 1, mp_context=context) as pool:
        values = dict(pool.map(_compute_case, todo, chunksize=1))
    STORE.write(values, computed_from)
    return len(values)


if __name__ == "__main__":
    print(f"{regenerate()} values written to {STORE.path.relative_to(HERE.parent)}")
