"""The oracle's values of the textbook table, stored: computed when the oracle or the table changes, not every run.

The definition of D_α evaluated by the independent oracle (tests/textbook_oracle.py) at every parameter point
and order of the textbook table (tests/textbook_families.py) is a pure function of those two files: the same
60-digit quadratures, sums and suprema, bit for bit, on every run.  Computing them took about four minutes of
CPU in each run of the suite (924 values, the two-dimensional normals 4 s each), to produce numbers that had
not changed.  They are stored in ``golden/textbook_oracle_values.json`` with a fingerprint of the files that
determine them (the SHA-256 of the oracle, the table and this module); ``definition`` reads a stored value
when the fingerprint is the sources' own and computes it otherwise.  The table's tests compare every
literature formula and every rdpsym derivation with these values as before; what a run no longer does is
repeat the quadratures.  ``tests/test_textbook.py::test_stored_oracle_values_are_current`` fails when the
store is stale (the oracle or the table was edited: any edit, a new family too, until the store is
regenerated the table's tests quietly compute every value again) and recomputes a seeded sample of entries
with the oracle to show the store holds its values.

After editing the oracle or the table, regenerate the store (a process per core; about four minutes of CPU)::

    python tests/textbook_oracle_values.py

Values are stored exactly: an mpf as its signed integer mantissa and binary exponent (``man · 2^exp``), +∞ as
``"inf"``; anything else (−∞, nan) is refused, never stored.  The fingerprint reads the files' bytes, so they
are checked out with LF line ends everywhere (.gitattributes).  Nothing here imports rdpsym (the table's module does, for its derivations; the oracle's laws are
plain mpmath callables).
"""

from __future__ import annotations

import concurrent.futures
import functools
import hashlib
import json
import multiprocessing
import os
import sys
from pathlib import Path

import mpmath
import sympy as sp

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # run as a script: the table's modules sit beside this one
    sys.path.insert(0, str(HERE))

from textbook_families import FAMILIES, ORDERS, is_inf, mp  # noqa: E402
from textbook_oracle import ORACLE_DPS, divergence, diverges, inf, sup_is_infinite, sup_log_ratio  # noqa: E402

STORE = HERE / "golden" / "textbook_oracle_values.json"
#: The files whose text determines every stored value (the mpmath they run on is recorded beside them).
SOURCES = ("textbook_oracle.py", "textbook_families.py", "textbook_oracle_values.py")
BY_NAME = {f.name: f for f in FAMILIES}


def fingerprint() -> str:
    """SHA-256 of the sources' bytes, each preceded by its name."""
    digest = hashlib.sha256()
    for name in SOURCES:
        digest.update(name.encode() + b"\0" + (HERE / name).read_bytes() + b"\0")
    return digest.hexdigest()


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


def encode(value: mpmath.mpf) -> list | str:
    """``[signed mantissa, exponent]``, or ``"inf"``; −∞ and nan are not values the oracle may give."""
    if value == inf:
        return "inf"
    if not mpmath.isfinite(value):
        raise ValueError(f"the oracle gave {value}: not a divergence, nothing stored")
    sign, man, exp, _ = value._mpf_
    return [-int(man) if sign else int(man), int(exp)]


def decode(stored: list | str) -> mpmath.mpf:
    if stored == "inf":
        return inf
    man, exp = stored
    with mpmath.workprec(max(53, abs(man).bit_length())):  # exactly the stored number, whatever the context's
        return +mpmath.mpf((man, exp))


@functools.cache
def stored() -> dict:
    """The stored values if their fingerprint is the sources' own, else an empty dict (everything computed)."""
    if not STORE.exists():  # (the store's test says how to make it)
        return {}
    data = json.loads(STORE.read_text(encoding="utf-8"))
    return data["values"] if data.get("fingerprint") == fingerprint() else {}


def definition(name: str, key: tuple, order) -> mpmath.mpf:
    """The oracle's D_order at the point: the stored value when the store is current, else computed."""
    value = stored().get(entry_key(name, key, order))
    return decode(value) if value is not None else compute(name, key, order)


def _compute_case(case):
    name, key, order = case
    return entry_key(name, key, order), encode(compute(name, key, order))


def regenerate(path: Path = STORE, workers: int | None = None) -> int:
    """Compute every case with the oracle (in ``workers`` processes) and write the store; return the count."""
    todo = list(cases())
    computed_from = fingerprint()  # the sources the workers read: an edit during the run is not stored as theirs
    workers = workers or os.cpu_count() or 1
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
    with concurrent.futures.ProcessPoolExecutor(workers, mp_context=context) as pool:
        values = dict(pool.map(_compute_case, todo, chunksize=1))
    if fingerprint() != computed_from:
        raise RuntimeError("the oracle or the table changed while the store was computed: run it again")
    head = {"fingerprint": computed_from, "mpmath": mpmath.__version__, "oracle_dps": ORACLE_DPS,
            "regenerate": "python tests/textbook_oracle_values.py"}
    # One entry a line, so that a regenerated store's diff shows which values moved.
    entries = ",\n".join(f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in sorted(values.items()))
    text = json.dumps(head, indent=1)[:-2] + ',\n "values": {\n' + entries + "\n }\n}\n"
    path.write_text(text, encoding="utf-8")
    return len(values)


if __name__ == "__main__":
    print(f"{regenerate()} values written to {STORE.relative_to(HERE.parent)}")
