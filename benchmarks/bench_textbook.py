"""Benchmark: every family of the textbook table derived cold by rdpsym, against naive SymPy on the same densities.

Run from the repository root::

    python benchmarks/bench_textbook.py                      # every family, naive route capped at 20 s CPU
    python benchmarks/bench_textbook.py --timeout 60         # a longer cap for the naive route
    python benchmarks/bench_textbook.py --quick              # rdpsym only (no naive route)
    python benchmarks/bench_textbook.py --family Rayleigh --family Poisson --json families.json

The families and their densities are tests/textbook_families.py (the table of tests/test_textbook.py).
Each measurement runs in a fresh interpreter (this script re-invoked with the hidden ``--child``
option) with rdpsym's cache of derivations off (``RDPSYM_CACHE_DIR=off``: a derivation the user's cache
holds would be replayed, not measured), so SymPy's, mpmath's and rdpsym's caches start cold:

1. rdpsym: ``renyi_divergence(P, Q, order)`` — derivation *and* its verification against the
   definition (40 digits at seeded points), which every result includes — for the family's symbolic
   row at each order it is derived at (α, 1, ∞, or the family's own orders), else its numeric row
   at orders 2 and ∞.  CPU time (``time.process_time``) of that call alone, import excluded; the
   result's kind (closed form or numeric), status, or the error it raised.
2. Naive SymPy on the same densities, at the family's first order: ``sympy.integrate`` of
   P^α Q^{1−α} (or P log(P/Q) at α = 1) over the support, ``sympy.summation`` for a pmf, nested
   integrals for a density in two variables; nothing at α = ∞ (a supremum, not an integral).  Each
   runs under a CPU-time cap (``--timeout``); a capped run counts as the cap, so the ratio
   naive/rdpsym is then a lower bound ("≥").  An answer that is an unevaluated Integral/Sum or an
   error counts at its time to give up.
3. Mironov's Table II (``rdpsym.table2()``) cold, on a line of its own.

The last thing printed is a Markdown table to paste into a note.  Timings on a shared machine are
noisy: CPU time is what is reported, and ratios are taken within one run.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from importlib.metadata import version
from pathlib import Path

SCRIPT = Path(__file__).resolve()
REPO = SCRIPT.parent.parent
TESTS = REPO / "tests"


# --------------------------------------------------------------------------------------------
# Children: each runs in its own interpreter and prints one JSON line.
# --------------------------------------------------------------------------------------------


def _family(name: str):
    sys.path.insert(0, str(TESTS))
    import textbook_families

    return next(f for f in textbook_families.FAMILIES if f.name == name)


def _order(text: str):
    import sympy as sp

    import rdpsym

    return rdpsym.alpha if text == "alpha" else sp.oo if text == "oo" else sp.Rational(text)


def _pair(f, row: str):
    import sympy as sp

    values = f.symbols if row == "symbolic" else {n: sp.sympify(v) for n, v in (f.numeric or {}).items()}
    return f.pair(values)


def child_rdpsym(spec: dict) -> dict:
    """Cold rdpsym: import, build the pair, then time one renyi_divergence (derivation + verification)."""
    c0 = time.process_time()
    import rdpsym

    f = _family(spec["family"])
    order = _order(spec["order"])
    c1 = time.process_time()
    try:
        P, Q = _pair(f, spec["row"])
    except Exception as exc:  # noqa: BLE001 - a failure to build is a result here
        return {"import_cpu_s": c1 - c0, "outcome": f"error building the densities: {type(exc).__name__}: {exc}"[:300]}
    c2 = time.process_time()
    try:
        d = rdpsym.renyi_divergence(P, Q, order)
        outcome = "ok"
    except Exception as exc:  # noqa: BLE001 - a failure is a result here
        d, outcome = None, f"{type(exc).__name__}: {exc}"[:300]
    c3 = time.process_time()
    out = {"import_cpu_s": c1 - c0, "build_cpu_s": c2 - c1, "cpu_s": c3 - c2, "outcome": outcome}
    if d is not None:
        status = str(d.status)
        out.update(status=status, kind="numeric" if status == "numeric" else "closed form",
                   result=str(d.result)[:200])
    return out


class _CpuLimit(BaseException):
    """Raised by SIGPROF.  A BaseException, so SymPy's ``except Exception`` fallbacks cannot swallow it."""


def _raise_cpu_limit(signum, frame):
    raise _CpuLimit


def _under_cpu_limit(seconds: float, work):
    """``work()`` stopped after ``seconds`` of this process's CPU time (user + system, as process_time)."""
    signal.signal(signal.SIGPROF, _raise_cpu_limit)
    signal.setitimer(signal.ITIMER_PROF, seconds, 1.0)
    try:
        return work()
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)


def child_naive(spec: dict) -> dict:
    """Naive SymPy on the family's densities at one order, under a CPU cap."""
    import sympy as sp
    from sympy.core.cache import clear_cache

    f = _family(spec["family"])
    order = _order(spec["order"])
    P, Q = _pair(f, spec["row"])

    def naive():
        if getattr(P, "table", None) is not None:  # a finite table: the "integral" is a sum over outcomes
            terms = [(P.table[key], Q.table.get(key, 0)) for key in P.table]
            if order == 1:
                return sp.Add(*(p * sp.log(p / q) for p, q in terms if p != 0))
            return sp.log(sp.Add(*(p**order * q ** (1 - order) for p, q in terms))) / (order - 1)
        p, q = P.expr, Q.expr
        integrand = p * sp.log(p / q) if order == 1 else p**order * q ** (1 - order)
        variables = P.var if isinstance(P.var, tuple) else (P.var,)
        if P.discrete:
            value = sp.summation(integrand, (P.var, P.lo, P.hi))
        else:
            value = integrand
            for v in variables:
                lo, hi = (P.lo, P.hi) if len(variables) == 1 else (-sp.oo, sp.oo)
                value = sp.integrate(value, (v, lo, hi))
        return value if order == 1 else sp.log(value) / (order - 1)

    # Building the densities ran rdpsym's checks, which may have filled SymPy's cache.
    clear_cache()
    c0 = time.process_time()
    try:
        result = _under_cpu_limit(spec["timeout"], naive)
        outcome = "ok"
    except _CpuLimit:
        result, outcome = None, "timeout"
    except Exception as exc:  # noqa: BLE001 - a failing integrate() is a result here
        result, outcome = None, f"error: {type(exc).__name__}: {exc}"[:200]
    out = {"outcome": outcome, "cpu_s": time.process_time() - c0}
    if result is not None:
        out["unevaluated"] = bool(result.has(sp.Integral, sp.Sum))
        out["result"] = str(result)[:200]
    return out


def child_table2(_spec: dict) -> dict:
    c0 = time.process_time()
    # (the module itself, not the lazy ``rdpsym.table2``: importing rdpsym loads neither SymPy nor the engine, and
    # their 0.3 s would be counted as Table II's)
    import rdpsym.derive.table2

    c1 = time.process_time()
    cells = rdpsym.derive.table2.table2()
    c2 = time.process_time()
    proved = sum(str(c.derivation.status) == "proved" for c in cells)
    return {"import_cpu_s": c1 - c0, "cpu_s": c2 - c1, "proved": proved, "cells": len(cells)}


CHILDREN = {"rdpsym": child_rdpsym, "naive": child_naive, "table2": child_table2}


# --------------------------------------------------------------------------------------------
# Parent
# --------------------------------------------------------------------------------------------


def spawn(kind: str, spec: dict, wall_limit: float) -> dict | None:
    """Run one child in a fresh interpreter; None if it overran ``wall_limit``."""
    cmd = [sys.executable, str(SCRIPT), "--child", kind, "--spec", json.dumps(spec)]
    env = dict(os.environ, RDPSYM_CACHE_DIR="off")  # cold is derived: no replay from the user's cache
    try:
        proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=wall_limit, env=env)
    except subprocess.TimeoutExpired:
        return None
    if proc.returncode != 0 or not proc.stdout.strip():
        return {"outcome": f"child failed ({proc.returncode}): {proc.stderr.strip().splitlines()[-1:]}"}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def revision() -> str:
    try:
        out = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=REPO, capture_output=True, text=True,
                             timeout=10)
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def _cases(f) -> tuple[str, list[str]]:
    """The row and orders a family is timed at (the table's own choice, see tests/test_textbook.py)."""
    import sympy as sp

    if f.symbolic_orders:
        return "symbolic", ["alpha" if o == _order("alpha") else "oo" if o == sp.oo else str(o)
                            for o in f.symbolic_orders]
    return "numeric", ["2", "oo"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=20.0, metavar="SECONDS",
                        help="CPU-time cap per naive SymPy run (default 20)")
    parser.add_argument("--quick", action="store_true", help="skip the naive SymPy route")
    parser.add_argument("--family", action="append", metavar="NAME", help="only this family (repeatable)")
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write the figures as JSON")
    parser.add_argument("--child", choices=CHILDREN, help=argparse.SUPPRESS)
    parser.add_argument("--spec", default="{}", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.child:
        print(json.dumps(CHILDREN[args.child](json.loads(args.spec))))
        return 0

    sys.path.insert(0, str(TESTS))
    import textbook_families

    families = [f for f in textbook_families.FAMILIES if not args.family or f.name in args.family]
    unknown = set(args.family or ()) - {f.name for f in families}
    if unknown:
        parser.error(f"--family must name a family of tests/textbook_families.py; got {sorted(unknown)}")

    print(f"rdpsym textbook families — Python {sys.version.split()[0]}, SymPy {version('sympy')}, "
          f"mpmath {version('mpmath')}, {os.cpu_count()} CPUs, rdpsym at {revision()}; CPU seconds, cold")
    rows, figures = [], {"revision": revision(), "timeout_s": args.timeout, "families": []}
    for f in families:
        row, orders = _cases(f)
        timed = []
        for order in orders:
            r = spawn("rdpsym", {"family": f.name, "row": row, "order": order}, wall_limit=900) or \
                {"outcome": "wall limit"}
            timed.append((order, r))
            shown = f"{r['cpu_s']:.2f} s" if "cpu_s" in r else "—"
            print(f"  {f.name:42} {row:9} order {order:6} {shown:>9}  {r.get('kind', '')} {r.get('status', '')} "
                  f"{'' if r['outcome'] == 'ok' else r['outcome'][:90]}", flush=True)
        naive = None
        if not args.quick and orders[0] != "oo":
            naive = spawn("naive", {"family": f.name, "row": row, "order": orders[0], "timeout": args.timeout},
                          wall_limit=3 * args.timeout + 120) or {"outcome": "timeout", "cpu_s": args.timeout}
            if naive["outcome"] == "timeout":
                naive["cpu_s"] = max(naive.get("cpu_s", 0), args.timeout)
            said = f"{naive['outcome'][:60]} ({naive.get('cpu_s', 0):.2f} s)"
            print(f"  {'':42} naive SymPy at order {orders[0]}: {said}", flush=True)
        rows.append((f, row, timed, naive))
        figures["families"].append({"family": f.name, "row": row, "rdpsym": dict(timed), "naive": naive})

    t2 = spawn("table2", {}, wall_limit=900) or {"outcome": "wall limit"}
    figures["table2"] = t2

    # --- the Markdown table -------------------------------------------------------------------
    print("\n| family | row | order | kind | status | rdpsym CPU (s) | naive SymPy CPU (s) | naive/rdpsym |")
    print("|---|---|---|---|---|---:|---:|---:|")
    slow, failed, total = [], [], 0.0
    for f, row, timed, naive in rows:
        for i, (order, r) in enumerate(timed):
            ok = r.get("outcome") == "ok"
            cpu = r.get("cpu_s")
            total += cpu or 0
            if ok and cpu is not None and cpu >= 2:
                slow.append(f"{f.name} ({order})")
            if not ok:
                failed.append(f"{f.name} ({order})")
            naive_cell, ratio = "", ""
            if i == 0 and naive is not None:
                capped = naive["outcome"] == "timeout"
                bound = "≥ " if capped else ""
                note = "" if naive["outcome"] == "ok" and not naive.get("unevaluated") else (
                    " (capped)" if capped else " (no closed form)" if naive.get("unevaluated") else " (error)")
                naive_cell = f"{bound}{naive['cpu_s']:.2f}{note}"
                if ok and cpu:
                    ratio = f"{bound}{naive['cpu_s'] / cpu:.1f}×"
            kind = r.get("kind", "—") if ok else "fails"
            status = r.get("status", "") if ok else r.get("outcome", "")[:60].replace("|", "/")
            shown = f"{cpu:.2f}" if cpu is not None else "—"
            print(f"| {f.name} | {row} | {order} | {kind} | {status} | {shown} | {naive_cell} | {ratio} |")
    if "cpu_s" in t2:
        print(f"\nTable II (rdpsym.table2(), 9 cells, cold): {t2['cpu_s']:.2f} s CPU after {t2['import_cpu_s']:.2f} s "
              f"of imports ({t2['proved']}/{t2['cells']} proved; issue 26's goal < 0.5 s).")
    else:
        print(f"\nTable II: {t2.get('outcome')}")
    print(f"{len(families)} families, {sum(len(t) for _, _, t, _ in rows)} derivations, {total:.1f} s CPU in all; "
          f"{len(failed)} failed; {len(slow)} at or over the 2 s goal" + (f": {', '.join(slow)}" if slow else "") + ".")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
