"""Start-up: what a fresh process pays before its first answer (issue 26, points 2, 3 and 6).

Every figure is the CPU time (user + system) of a new interpreter, read from ``getrusage(RUSAGE_CHILDREN)``
around it, the median of ``--repeat`` runs; wall time is given beside it and named so.  The cache of
derivations (rdpsym.foundations.disk_cache) lives in a temporary folder: *cold* runs empty it first (every
derivation is done), *warm* runs find what the previous run kept (a user's second process).

1. ``rdpsym --version``, ``rdpsym --help``, ``import rdpsym``: no SymPy, mpmath or flint is loaded.
2. The first value of a mechanism's curve (Laplace λ = 1, Gaussian σ = 1) in a new process, split into the
   import of rdpsym's modules and the value itself, cold and warm, and *shipped*: the user's cache empty, the
   derivations a wheel ships (``python -m rdpsym.cli.shipping``, as its build runs it) in place, a fresh installation's
   first value.
3. ``rdpsym table2``: the whole command, and the CPU time it reports for the derivations alone.
4. The peers' fresh process for a first ε (dp_accounting's RdpAccountant, one Gaussian event; Opacus's
   compute_rdp + get_privacy_spent), against rdpsym's first ε (the Gaussian, warm), as a ratio.
5. With ``--check``: ``rdpsym check`` on the catalogue (the command and its worker process), cold, warm (right
   after the cold run, which filled the cache) and shipped (a fresh installation: the user's cache empty, the
   wheel's shipment in place), interleaved round by round so that the machine's load falls alike on each.

    python benchmarks/bench_startup.py [--repeat 5] [--json] [--check]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

FIRST_VALUE = """
import sys, time
from pathlib import Path
import sympy, mpmath, flint
t0 = time.process_time()
import rdpsym, rdpsym.accounting.curves, rdpsym.derive.divergence, rdpsym.laws.mechanisms
t1 = time.process_time()
if len(sys.argv) > 3:  # the folder a wheel ships in rdpsym/shipped (a checkout has none)
    rdpsym.foundations.disk_cache.SHIPPED = Path(sys.argv[3])
mechanism = getattr(rdpsym, sys.argv[1])(**{sys.argv[2]: 1})
mechanism.curve().value(2, dps=30)
print(t1 - t0, time.process_time() - t1)
"""
#: ``rdpsym check --quiet`` with the shipment in the folder given (a checkout has none; a wheel's is rdpsym/shipped).
CHECK = """
import sys
from pathlib import Path
import rdpsym.foundations.disk_cache as cache
if len(sys.argv) > 1:
    cache.SHIPPED = Path(sys.argv[1])
from rdpsym.cli.main import main
sys.exit(main(["check", "--quiet"]))
"""
RDPSYM_EPSILON = ("import rdpsym; rdpsym.epsilon(rdpsym.gaussian(sigma=1).curve(), delta=1e-5, dps=50)")
DP_ACCOUNTING_EPSILON = ("import dp_accounting; from dp_accounting.rdp import rdp_privacy_accountant as r; "
                         "a = r.RdpAccountant(); a.compose(dp_accounting.GaussianDpEvent(1.0)); "
                         "a.get_epsilon(1e-5)")
OPACUS_EPSILON = ("from opacus.accountants.analysis import rdp; o = [1 + x / 10.0 for x in range(1, 100)]; "
                  "rdp.get_privacy_spent(orders=o, rdp=rdp.compute_rdp(q=1, noise_multiplier=1.0, steps=1, "
                  "orders=o), delta=1e-5)")


def child(argv: list[str], env: dict) -> tuple[float, float, str]:
    """(CPU seconds, wall seconds, standard output) of one new process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run(argv, env=env, capture_output=True, text=True, check=True).stdout
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall, out


def median_of(repeat: int, run) -> tuple:
    samples = [run() for _ in range(repeat)]
    return tuple(statistics.median(s[i] for s in samples) if isinstance(samples[0][i], float) else samples[0][i]
                 for i in range(len(samples[0])))  # (a run's output: the first one's)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--check", action="store_true", help="time rdpsym check too (minutes)")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="rdpsym-bench-cache-")
    env = {**os.environ, "RDPSYM_CACHE_DIR": folder}
    py = sys.executable
    rows: dict[str, dict] = {}

    def record(name: str, cpu: float, wall: float, **extra) -> None:
        rows[name] = {"cpu_s": round(cpu, 3), "wall_s": round(wall, 3), **extra}

    for name, argv in (("rdpsym --version", [py, "-m", "rdpsym", "--version"]),
                       ("rdpsym --help", [py, "-m", "rdpsym", "--help"]),
                       ("import rdpsym", [py, "-c", "import rdpsym"]),
                       ("import sympy (for scale)", [py, "-c", "import sympy"])):
        cpu, wall, _ = median_of(args.repeat, lambda argv=argv: child(argv, env))
        record(name, cpu, wall)

    shipped = tempfile.mkdtemp(prefix="rdpsym-bench-shipped-")
    subprocess.run([py, "-m", "rdpsym.cli.shipping", shipped], env=env, capture_output=True, check=True)

    def first_value(mechanism: str, parameter: str, state: str):
        if state != "warm":
            shutil.rmtree(folder, ignore_errors=True)
        extra = [shipped] if state == "shipped" else []
        cpu, wall, out = child([py, "-c", FIRST_VALUE, mechanism, parameter, *extra], env)
        modules, value = (float(v) for v in out.split())
        return cpu, wall, modules, value

    for mechanism, parameter in (("laplace", "scale"), ("gaussian", "sigma")):
        for state in ("cold", "warm", "shipped"):
            if state == "warm":
                first_value(mechanism, parameter, "cold")  # the entry a warm process finds
            run = lambda m=mechanism, p=parameter, s=state: first_value(m, p, s)  # noqa: E731
            cpu, wall, modules, value = median_of(args.repeat, run)
            record(f"first {mechanism} curve value, {state} cache", cpu, wall,
                   rdpsym_modules_cpu_s=round(modules, 3), first_value_cpu_s=round(value, 3))
    if args.check:
        samples: dict[str, list] = {"cold": [], "warm": [], "shipped": []}
        for _ in range(args.repeat):
            for state in samples:  # (warm right after cold: it finds what the cold run kept)
                if state != "warm":
                    shutil.rmtree(folder, ignore_errors=True)
                samples[state].append(child([py, "-c", CHECK, *([shipped] if state == "shipped" else [])], env)[:2])
        for state, runs in samples.items():
            record(f"rdpsym check (the catalogue), {state} cache", *(statistics.median(r[i] for r in runs)
                                                                      for i in (0, 1)))
    shutil.rmtree(shipped, ignore_errors=True)

    def table2(cold: bool):
        if cold:
            shutil.rmtree(folder, ignore_errors=True)
        cpu, wall, out = child([py, "-m", "rdpsym", "table2"], env)
        reported = float(out.rsplit(";", 1)[1].split("s of CPU")[0])
        return cpu, wall, reported

    for cold in (True, False):
        if not cold:
            table2(cold=True)
        cpu, wall, reported = median_of(args.repeat, lambda c=cold: table2(c))
        record(f"rdpsym table2, {'cold' if cold else 'warm'} cache", cpu, wall, derivations_cpu_s=round(reported, 3))

    child([py, "-c", RDPSYM_EPSILON], env)  # the Gaussian's derivation kept: a user's second process
    ours = median_of(args.repeat, lambda: child([py, "-c", RDPSYM_EPSILON], env))
    record("rdpsym first epsilon (Gaussian, 50 certified digits), warm cache", *ours[:2])
    for name, code in (("dp_accounting", DP_ACCOUNTING_EPSILON), ("opacus", OPACUS_EPSILON)):
        try:
            theirs = median_of(args.repeat, lambda code=code: child([py, "-c", code], env))
        except subprocess.CalledProcessError:
            continue  # the peer is not installed
        record(f"{name} first epsilon (float64)", *theirs[:2], rdpsym_ratio_cpu=round(ours[0] / theirs[0], 2))
    shutil.rmtree(folder, ignore_errors=True)

    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"{'fresh process':<62} {'CPU s':>7} {'wall s':>7}  notes")
    for name, row in rows.items():
        notes = ", ".join(f"{k} {v}" for k, v in row.items() if k not in ("cpu_s", "wall_s"))
        print(f"{name:<62} {row['cpu_s']:>7.3f} {row['wall_s']:>7.3f}  {notes}")


if __name__ == "__main__":
    main()
