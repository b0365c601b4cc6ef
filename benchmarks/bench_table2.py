"""Benchmark: Mironov's Table II derived by rdpsym, against naive ``sympy.integrate``.

Run from the repository root::

    python benchmarks/bench_table2.py                # everything (naive cells may take minutes)
    python benchmarks/bench_table2.py --quick        # skip the naive route (CI smoke test)
    python benchmarks/bench_table2.py --timeout 60 --json bench.json

Every measurement runs in a fresh interpreter (this script re-invoked with the
hidden ``--child`` option), because SymPy's expression cache and mpmath's
quadrature-node cache would otherwise let one measurement warm the next and
the "cold" figures would mean nothing.  The parent process only imports the
standard library.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import time
from decimal import Decimal, InvalidOperation, localcontext
from importlib.metadata import version
from pathlib import Path

SCRIPT = Path(__file__).resolve()
REPO = SCRIPT.parent.parent

MECHANISMS = ("Randomized response", "Laplace", "Gaussian")
#: Table II's column labels, as rdpsym.derive.table2.ORDERS spells them.
ORDER_LABELS = ("α > 1", "α = 1", "α = ∞")
#: Where every closed form is evaluated to check the naive and numeric routes
#: against rdpsym: the same parameters as the renyi_divergence_mp calls below.
TEST_POINT = {"alpha": 3, "p": "3/4", "lambda": 1, "sigma": 1}
WARM_RUNS = 5
#: Agreement (significant digits) needed to call two 50-digit values equal.
MATCH_DIGITS = 30


# --------------------------------------------------------------------------
# Children: each runs in its own interpreter and prints one JSON line.
# Heavy imports happen inside them, after the first clock read, so import
# time is measured separately from the work.
# --------------------------------------------------------------------------


def _test_values():
    import sympy as sp

    from rdpsym.derive.table2 import lam, p, sigma
    from rdpsym.foundations.symbols import alpha

    return {alpha: TEST_POINT["alpha"], p: sp.Rational(TEST_POINT["p"]),
            lam: TEST_POINT["lambda"], sigma: TEST_POINT["sigma"]}


def child_table2(_spec: dict) -> dict:
    """Cold rdpsym: import, then one call of rdpsym.table2()."""
    c0, w0 = time.process_time(), time.perf_counter()
    import mpmath

    import rdpsym.derive.divergence  # noqa: F401 - the derivation's modules, which ``import rdpsym`` loads lazily
    import rdpsym.derive.table2
    from rdpsym.laws.mechanisms import Mechanism

    c1, w1 = time.process_time(), time.perf_counter()

    # table2() derives each cell through Mechanism.rdp; wrapping it (in this
    # throw-away process only) splits the single cold call into per-cell times
    # at the cost of two clock reads per cell.
    per_cell = []
    derive = Mechanism.rdp

    def timed_rdp(self, *args, **kwargs):
        c, w = time.process_time(), time.perf_counter()
        result = derive(self, *args, **kwargs)
        per_cell.append((time.process_time() - c, time.perf_counter() - w))
        return result

    Mechanism.rdp = timed_rdp
    cells = rdpsym.derive.table2.table2()
    c2, w2 = time.process_time(), time.perf_counter()
    Mechanism.rdp = derive

    # Evaluated after the clocks stopped: reference values for the other routes.
    point = _test_values()
    out_cells = []
    for cell, (cpu, wall) in zip(cells, per_cell):
        d = cell.derivation
        out_cells.append({
            "mechanism": cell.mechanism, "order": cell.order_label,
            "cpu_s": cpu, "wall_s": wall, "status": str(d.status), "result": str(d.result),
            # (each cell given the values of its own symbols: evalf refuses a value keyed by a symbol it lacks)
            "value_at_test_point": mpmath.nstr(d.evalf({s: v for s, v in point.items()
                                                        if s in d.result.free_symbols}, dps=50), 50),
        })
    return {"import_cpu_s": c1 - c0, "import_wall_s": w1 - w0,
            "table2_cpu_s": c2 - c1, "table2_wall_s": w2 - w1, "cells": out_cells}


class _CpuLimit(BaseException):
    """Raised by SIGPROF.  A BaseException, so SymPy's ``except Exception``
    fallbacks inside integrate() cannot swallow it and carry on."""


def _raise_cpu_limit(signum, frame):
    raise _CpuLimit


def _under_cpu_limit(seconds: float, work):
    """``work()`` stopped after ``seconds`` of this process's CPU time.

    ITIMER_PROF counts user + system CPU, as time.process_time does, so a cell
    reported as a timeout really spent at least ``seconds`` of CPU in
    integrate() (the import before it is not counted): that is what makes the
    naive total a lower bound.  The 1 s re-arm interval fires again should a
    bare ``except:`` somewhere swallow the first signal.
    """
    signal.signal(signal.SIGPROF, _raise_cpu_limit)
    signal.setitimer(signal.ITIMER_PROF, seconds, 1.0)
    try:
        return work()
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)


def child_naive(spec: dict) -> dict:
    """One Table II cell by naive SymPy on the raw densities, under a CPU limit."""
    import sympy as sp
    from sympy.core.cache import clear_cache

    from rdpsym.derive.table2 import table2_mechanisms
    from rdpsym.foundations.symbols import alpha  # Symbol("alpha", positive=True)
    from rdpsym.laws.densities import Discrete

    P, Q = dict(table2_mechanisms())[spec["mechanism"]].pair
    kl = spec["order"] == "α = 1"

    def naive():
        if isinstance(P, Discrete):
            # Randomized response: the "integral" is a two-term sum over outcomes.
            terms = [(P.table[k], Q.table[k]) for k in P.table]
            if kl:
                return sp.Add(*(p * sp.log(p / q) for p, q in terms))
            return sp.log(sp.Add(*(p**alpha * q ** (1 - alpha) for p, q in terms))) / (alpha - 1)
        x, p, q = P.var, P.expr, Q.expr
        if kl:
            return sp.integrate(p * sp.log(p / q), (x, -sp.oo, sp.oo))
        return sp.log(sp.integrate(p**alpha * q ** (1 - alpha), (x, -sp.oo, sp.oo))) / (alpha - 1)

    # Building the densities ran rdpsym's normalisation checks, which may
    # have filled SymPy's cache; the naive route must start as cold as rdpsym's.
    clear_cache()
    c0, w0 = time.process_time(), time.perf_counter()
    try:
        result = _under_cpu_limit(spec["timeout"], naive)
        outcome = "ok"
    except _CpuLimit:
        result, outcome = None, "timeout"
    except Exception as exc:  # noqa: BLE001 - a failing integrate() is a result here
        result, outcome = None, f"error: {type(exc).__name__}: {exc}"[:200]
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0

    out = {"outcome": outcome, "cpu_s": cpu, "wall_s": wall}
    if result is None:
        return out
    out["result"] = str(result)[:300]
    out["unevaluated"] = result.has(sp.Integral)
    out["piecewise"] = result.has(sp.Piecewise)
    if not out["unevaluated"]:
        # Not timed; capped so an awkward Piecewise cannot hang the benchmark.
        try:
            value = _under_cpu_limit(30, lambda: sp.N(result.subs(_test_values()), 50))
            out["value_at_test_point"] = (
                "+inf" if value == sp.oo else str(value) if value.is_extended_real else None
            )
        except (_CpuLimit, Exception):  # noqa: BLE001
            out["value_at_test_point"] = None
    return out


def child_mp(spec: dict) -> dict:
    """renyi_divergence_mp at 50 digits, order 3: the first (cold) call, then warm calls."""
    import mpmath
    import sympy as sp

    import rdpsym

    factories = {
        "Gaussian": lambda: rdpsym.gaussian(sigma=1),
        "Laplace": lambda: rdpsym.laplace(scale=1),
        "Randomized response": lambda: rdpsym.randomized_response(sp.Rational(3, 4)),
    }
    P, Q = factories[spec["mechanism"]]().pair
    cpu_ms, wall_ms = [], []
    for _ in range(1 + spec["warm_runs"]):
        c, w = time.process_time(), time.perf_counter()
        value = rdpsym.renyi_divergence_mp(P, Q, 3, dps=50)
        cpu_ms.append(1e3 * (time.process_time() - c))
        wall_ms.append(1e3 * (time.perf_counter() - w))
    return {"cold_cpu_ms": cpu_ms[0], "cold_wall_ms": wall_ms[0],
            "warm_cpu_ms": cpu_ms[1:], "warm_wall_ms": wall_ms[1:],
            "value": mpmath.nstr(value, 50)}


CHILDREN = {"table2": child_table2, "naive": child_naive, "mp": child_mp}


# --------------------------------------------------------------------------
# Parent
# --------------------------------------------------------------------------


def spawn(kind: str, spec: dict, wall_limit: float | None) -> dict | None:
    """Run one child in a fresh interpreter; None if it overran ``wall_limit``."""
    cmd = [sys.executable, str(SCRIPT), "--child", kind, "--spec", json.dumps(spec)]
    # Cold means derived: with the user's cache of derivations on, a "cold" Table II was a replay (0.42 s of
    # CPU where deriving takes 0.9 s).
    env = dict(os.environ, RDPSYM_CACHE_DIR="off")
    try:
        proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=wall_limit, env=env)
    except subprocess.TimeoutExpired:  # subprocess.run has already killed the child
        return None
    if proc.returncode != 0:
        raise RuntimeError(f"{kind} child failed ({proc.returncode}):\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def revision() -> str:
    """The checked-out commit, so a figure can be tied to the code it measured."""
    try:
        out = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=REPO,
                             capture_output=True, text=True, timeout=10)
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def agreement(a: str | None, b: str | None) -> float | None:
    """Significant digits on which two decimal strings agree (inf if identical)."""
    if a is None or b is None:
        return None
    with localcontext() as ctx:
        ctx.prec = 80
        try:
            x, y = Decimal(a), Decimal(b)
        except InvalidOperation:
            return None
        if x == y:
            return float("inf")
        if x.is_infinite() or y.is_infinite():
            return 0.0
        err = abs(x - y) / max(abs(y), Decimal("1e-60"))
        return max(0.0, float(-err.log10()))


def verdict(digits: float | None) -> str:
    if digits is None:
        return "—"
    if digits >= MATCH_DIGITS:
        return "yes" if digits == float("inf") else f"yes ({digits:.0f} digits)"
    return f"NO ({digits:.1f} digits)"


def run_naive(timeout: float) -> dict:
    """All cells by naive SymPy, one fresh process each, sequentially (no CPU contention)."""
    naive = {}
    for mech in MECHANISMS:
        for label in ORDER_LABELS:
            if label == "α = ∞":
                # D_∞ = ess sup log(P/Q) is a supremum, not an integral.
                naive[(mech, label)] = {"outcome": "n/a"}
                continue
            print(f"  naive {mech}, {label} ...", end="", flush=True, file=sys.stderr)
            # Backstop only: the CPU limit inside the child normally ends it first.
            r = spawn("naive", {"mechanism": mech, "order": label, "timeout": timeout},
                      wall_limit=2 * timeout + 60)
            if r is None:
                r = {"outcome": "timeout", "cpu_s": timeout, "wall_s": 2 * timeout + 60}
            if r["outcome"] == "timeout":
                # Counted as the limit: the true cost is at least this.
                r["measured_cpu_s"], r["cpu_s"] = r.get("cpu_s"), timeout
            naive[(mech, label)] = r
            print(f" {r['outcome']} ({r['cpu_s']:.2f} s)", file=sys.stderr)
    return naive


def describe_naive(r: dict) -> str:
    outcome = r["outcome"]
    if outcome == "n/a":
        return "no integrate route (sup of log P/Q)"
    if outcome == "timeout":
        return "no answer within the limit"
    if outcome != "ok":
        return f"raised {outcome.split(':')[1].strip()}"  # full message in --json
    if r["unevaluated"]:
        return "unevaluated Integral"
    return "closed form, Piecewise" if r["piecewise"] else "closed form"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=120.0, metavar="SECONDS",
                        help="CPU-time limit per naive sympy.integrate cell (default 120)")
    parser.add_argument("--quick", action="store_true",
                        help="skip the naive sympy.integrate route (CI smoke test)")
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write the figures as JSON")
    parser.add_argument("--child", choices=CHILDREN, help=argparse.SUPPRESS)
    parser.add_argument("--spec", default="{}", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.child:
        print(json.dumps(CHILDREN[args.child](json.loads(args.spec))))
        return 0

    print(f"rdpsym Table II benchmark — Python {sys.version.split()[0]}, SymPy {version('sympy')}, "
          f"mpmath {version('mpmath')}, {os.cpu_count()} CPUs, rdpsym at {revision()}")
    point = ", ".join(f"{k}={v}" for k, v in TEST_POINT.items())

    # 1. rdpsym, cold.
    w = time.perf_counter()
    cold = spawn("table2", {}, wall_limit=600)
    if cold is None:
        raise RuntimeError("rdpsym.derive.table2.table2() did not finish within 600 s")
    process_wall = time.perf_counter() - w
    cells = {(c["mechanism"], c["order"]): c for c in cold["cells"]}
    statuses = [c["status"] for c in cold["cells"]]
    print("\n[1] rdpsym.derive.table2.table2(), cold (fresh interpreter)")
    print(f"  import rdpsym           {cold['import_cpu_s']:7.2f} s CPU {cold['import_wall_s']:7.2f} s wall")
    print(f"  table2(), all 9 cells   {cold['table2_cpu_s']:7.2f} s CPU {cold['table2_wall_s']:7.2f} s wall"
          f"   ({statuses.count('proved')}/9 proved)")
    print(f"  whole child process     {'':12} {process_wall:7.2f} s wall (interpreter start included)")

    # 2. Naive sympy.integrate, cell by cell.
    naive = None if args.quick else run_naive(args.timeout)
    print(f"\n[2] Per cell: rdpsym (inside the cold table2() call) vs naive SymPy"
          f" (fresh process per cell, CPU limit {args.timeout:g} s)")
    if naive is None:
        print("  naive route skipped (--quick)")
    header = f"  {'cell':28} {'rdpsym CPU':>10}"
    if naive is not None:
        header += f" {'naive CPU':>10}  {'naive outcome':35} naive = rdpsym at {point}"
    print(header)
    for mech in MECHANISMS:
        for label in ORDER_LABELS:
            c = cells[(mech, label)]
            line = f"  {mech + ', ' + label:28} {c['cpu_s']:9.2f}s"
            if naive is not None:
                r = naive[(mech, label)]
                cpu = "—" if r["outcome"] == "n/a" else (
                    f"> {args.timeout:g}s" if r["outcome"] == "timeout" else f"{r['cpu_s']:.2f}s")
                match = verdict(agreement(r.get("value_at_test_point"), c["value_at_test_point"]))
                line += f" {cpu:>10}  {describe_naive(r):35} {match}"
            print(line)
    outside = cold["table2_cpu_s"] - sum(c["cpu_s"] for c in cold["cells"])
    print(f"  {'(building the 3 mechanisms)':28} {outside:9.2f}s")

    summary_naive = "skipped (--quick)"
    figures = {"revision": revision(), "test_point": TEST_POINT, "rdpsym_cold": cold}
    if naive is not None:
        routed = [key for key, r in naive.items() if r["outcome"] != "n/a"]
        timed_out = [key for key in routed if naive[key]["outcome"] == "timeout"]
        failed = [key for key in routed if naive[key]["outcome"].startswith("error")
                  or naive[key].get("unevaluated")]
        naive_total = sum(naive[key]["cpu_s"] for key in routed)
        rdpsym_same = sum(cells[key]["cpu_s"] for key in routed)
        ratio = naive_total / rdpsym_same
        bound = "≥ " if timed_out else ""
        print(f"  totals over the {len(routed)} cells with a naive route (α = ∞ has none): "
              f"rdpsym {rdpsym_same:.2f} s, naive {bound}{naive_total:.2f} s → {bound}{ratio:.1f}× slower")
        if timed_out:
            print(f"  {len(timed_out)} naive cell(s) hit the {args.timeout:g} s CPU limit and count as "
                  f"{args.timeout:g} s, so the naive total and the ratio are lower bounds.")
        if failed:
            print(f"  {len(failed)} naive cell(s) gave no closed form (raised, or returned the Integral);"
                  " they count at their time to give up.")
        print("  rdpsym's times include proving each cell equal to the published form and checking it"
              " numerically; the naive times are integrate() alone, unsimplified and unchecked.")
        summary_naive = f"{bound}{naive_total:.1f} s on its {len(routed)} cells ({bound}{ratio:.1f}x slower)"
        figures["naive"] = {
            "timeout_s": args.timeout, "total_cpu_s": naive_total, "rdpsym_same_cells_cpu_s": rdpsym_same,
            "ratio": ratio, "ratio_is_lower_bound": bool(timed_out),
            "cells": [{"mechanism": m, "order": o, **r} for (m, o), r in naive.items()],
        }

    # 3. One numeric divergence at 50 digits.
    print(f"\n[3] rdpsym.renyi_divergence_mp(P, Q, 3, dps=50), fresh process per pair; "
          f"first call, then median of {WARM_RUNS} warm calls")
    print(f"  {'pair':36} {'cold CPU':>9} {'warm CPU':>9} {'warm wall':>9}  value = Table II α > 1 cell?")
    mp = {}
    for mech, label in (("Gaussian", "sigma=1"), ("Laplace", "scale=1"), ("Randomized response", "p=3/4")):
        r = spawn("mp", {"mechanism": mech, "warm_runs": WARM_RUNS}, wall_limit=600)
        if r is None:
            raise RuntimeError(f"renyi_divergence_mp ({mech}) did not finish within 600 s")
        r["warm_cpu_median_ms"] = statistics.median(r["warm_cpu_ms"])
        r["warm_wall_median_ms"] = statistics.median(r["warm_wall_ms"])
        mp[mech] = r
        match = verdict(agreement(r["value"], cells[(mech, "α > 1")]["value_at_test_point"]))
        print(f"  {mech + ' (' + label + ')':36} {r['cold_cpu_ms']:7.1f}ms {r['warm_cpu_median_ms']:7.1f}ms "
              f"{r['warm_wall_median_ms']:7.1f}ms  {match}  ({r['value'][:22]}…)")
    figures["renyi_divergence_mp"] = mp

    # 4. Summary.
    mp_text = ", ".join(f"{m} {r['warm_cpu_median_ms']:.3g} ms (cold {r['cold_cpu_ms']:.3g})"
                        for m, r in mp.items())
    summary = (f"Table II: {cold['table2_cpu_s']:.2f} s CPU cold (issue 26's goal < 0.5 s); "
               f"naive sympy.integrate: {summary_naive}; renyi_divergence_mp@50 digits: {mp_text}")
    print("\n" + summary)
    figures["summary"] = summary

    if args.json:
        args.json.write_text(json.dumps(figures, indent=2, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
