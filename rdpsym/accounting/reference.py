"""High-precision reference tables for other accountants' regression tests (``rdpsym reference``).

Each row: mechanism, parameters, order (exact, and as a decimal), the RDP value
to ``dps`` digits, and its certified interval [lower, upper] from Arb balls
(rounded outward).  Written as JSON and CSV.  An order where the value is ∞
is written ``inf`` with the reason, never left out.

Each mechanism's rows are one task: ``executor=`` runs them on a process pool or
a Dask cluster (:func:`rdpsym.foundations.parallel.ordered_map`), with rows
identical to the serial run, in the same order.

>>> rows = reference_rows(dps=20, quick=True)
>>> r = next(r for r in rows if r["mechanism"] == "gaussian" and r["order"] == "2")
>>> r["parameters"], r["value"], r["certified"]
('sigma=1', '1.0000000000000000000', True)
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

from flint import fmpq

from rdpsym.accounting.components import Infinite
from rdpsym.accounting.orders import DP_ACCOUNTING, MIRONOV
from rdpsym.foundations.balls import bits_for, lower_decimal, precision, upper_decimal
from rdpsym.foundations.files import replace_together
from rdpsym.foundations.parallel import ordered_map
from rdpsym.foundations.precision import private_context
from rdpsym.foundations.reading import dps as read_dps
from rdpsym.foundations.reading import exact
from rdpsym.laws.mechanisms import REGISTRY

#: DP-SGD settings, including the regions where float64 accountants lose digits
#: (α ≤ 1.5 with q ≥ 0.1, α ≥ 1000, RDP below 1e-10).
SAMPLED_GAUSSIAN = [
    ("0.01", "1.1"), ("256/60000", "1.1"), ("0.1", "0.8"), ("0.5", "2"), ("0.9", "1"),
    ("0.000001", "10"), ("0.001", "50"),
]
#: Orders for the subsampled Gaussian: the hard fractional ones, integers, and large.
SG_ORDERS = [fmpq(x, 100) for x in (101, 110, 125, 150)] + [fmpq(k) for k in (2, 3, 8, 32, 128, 1024)]


def _job(name: str, **params: str) -> tuple[str, dict]:
    """(name, parameters as written): a task's mechanism, built where the task runs (it pickles as text)."""
    return name, params


def _mechanism(name: str, params: dict):
    """The mechanism, built by the registry's factory from exact decimals."""
    return REGISTRY[name].factory(**{k: exact(v, k) for k, v in params.items()})


def _jobs(quick: bool):
    simple = [_job("gaussian", sigma=s) for s in ("0.5", "1", "2")]
    simple += [_job("laplace", scale=b) for b in ("0.5", "1", "2")]
    simple += [_job("randomized-response", p=p) for p in ("0.6", "0.75", "0.9")]
    simple += [_job("pure-dp", epsilon=e) for e in ("0.1", "1")]
    sg = [_job("sampled-gaussian", q=q, sigma=s) for q, s in SAMPLED_GAUSSIAN]
    if quick:
        return [(simple[1], MIRONOV), (sg[0], [fmpq(3, 2), fmpq(2), fmpq(32)])]
    return [(j, MIRONOV) for j in simple] + [(j, SG_ORDERS) for j in sg] + [(sg[0], DP_ACCOUNTING)]


#: One column per parameter of any mechanism in the table (empty where a mechanism has no such parameter), so
#: that a row is read by field (``row["sigma"]``), not by parsing the ``parameters`` text.
PARAMETER_COLUMNS = ("epsilon", "p", "q", "scale", "sigma")


def _rows_of(task: tuple) -> list[dict]:
    """One mechanism's rows at its orders (a task: it sets its own precision, so it runs the same anywhere)."""
    (name, params), orders, dps = task
    curve = _mechanism(name, params).curve()
    balls = curve.enclosures(orders, dps + 5)
    shown = ";".join(f"{k}={v}" for k, v in params.items())
    rows = []
    with precision(bits_for(dps + 10)):
        for a, b in zip(orders, balls):
            row = {"mechanism": name, "parameters": shown, **{k: params.get(k, "") for k in PARAMETER_COLUMNS},
                   "order": "inf" if a == float("inf") else str(a),
                   "order_decimal": "inf" if a == float("inf") else _decimal(a, dps),
                   "certified": curve.certified}
            if isinstance(b, Infinite):
                row.update(value="inf", lower="inf", upper="inf", note=b.reason)
            else:
                with private_context(dps + 5) as mp:
                    row.update(value=mp.nstr(mp.mpf(b.mid().str(dps + 5, radius=False)), dps, strip_zeros=False),
                               lower=lower_decimal(b, dps), upper=upper_decimal(b, dps), note="")
            rows.append(row)
    return rows


#: The files :func:`write_reference` writes into its folder.
FILES = ("rdpsym_reference.json", "rdpsym_reference.csv")


def reference_rows(dps: int = 60, quick: bool = False, executor: object = None) -> list[dict]:
    """Every row, in a fixed order, to ``dps`` digits (read by the one reader of ``dps``); ``executor`` as
    :func:`rdpsym.foundations.parallel.ordered_map` takes it (None: here; a number of workers; a
    ``concurrent.futures`` executor; a ``dask.distributed.Client``)."""
    dps = read_dps(dps)
    tasks = [(job, list(orders), dps) for job, orders in _jobs(quick)]
    rows, seen = [], set()
    for part in ordered_map(_rows_of, tasks, executor):
        for row in part:
            key = (row["mechanism"], row["parameters"], row["order"])
            if key not in seen:
                seen.add(key)
                rows.append(row)
    return rows


def _decimal(a: fmpq, dps: int) -> str:
    with private_context(dps + 5) as mp:
        return mp.nstr(mp.mpf(int(a.p)) / int(a.q), dps)


def write_reference(out: str | Path, dps: int = 60, quick: bool = False, executor: object = None) -> list[Path]:
    """Write ``rdpsym_reference.json`` and ``.csv`` into ``out``; return their paths."""
    dps = read_dps(dps)
    out = Path(out)
    rows = reference_rows(dps, quick, executor)
    out.mkdir(parents=True, exist_ok=True)
    meta = {"generator": "rdpsym reference", "dps": dps,
            "value": f"RDP epsilon(alpha) to {dps} significant digits; [lower, upper] is a certified enclosure",
            "orders": "exact rationals: 11/10 is 1.1 exactly"}
    j, c = (out / name for name in FILES)

    def table(path: Path) -> None:
        with path.open("w", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)

    # the JSON and the CSV replace the old pair together, or neither does (a full disk keeps the old pair)
    return replace_together({j: json.dumps({"meta": meta, "rows": rows}, indent=1) + "\n", c: table})
