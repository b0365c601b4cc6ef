"""Benchmark: the 40-digit check against the definition, certified (Arb) fast path vs the mpmath route.

Run from the repository root::

    python benchmarks/bench_verify.py                          # this tree only
    python benchmarks/bench_verify.py --before ../integ        # and a baseline checkout, in the same run
    python benchmarks/bench_verify.py --skip-catalogue         # without `rdpsym check` (≈ 40 s per tree)

Two kinds of figure, all CPU time (``time.process_time``, plus finished child processes: the
catalogue's claims run in a worker; the machine may be shared, so CPU time, not wall time):

* cold runs, each in a fresh interpreter with ``PYTHONPATH`` pointing at the tree measured and rdpsym's
  cache of derivations in a new empty folder (import time not counted): Mironov's Table II
  (``rdpsym.table2()``), the claim catalogue (``rdpsym check --quiet``; and warm, a second run that finds
  the first's derivations and proofs), and some textbook families at a symbolic order (the families of
  ``bench_families.py``), verification included;
* per integral, in one process: :func:`rdpsym.derive.certified.certified_divergence` against
  :func:`rdpsym.derive.numeric.renyi_divergence_mp` at the digits the check uses, on the same laws.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SCRIPT = Path(__file__).resolve()
REPO = SCRIPT.parent.parent
FAMILIES = ("gaussian", "laplace", "half-normal", "maxwell", "rayleigh", "gamma", "laplace, free centres",
            "pareto")


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (``rdpsym check`` runs claims in a worker)."""
    import resource

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _child(task: str, name: str | None) -> None:
    import contextlib
    import io

    import sympy as sp

    import rdpsym

    cpu = _cpu()
    if task == "table2":
        rdpsym.table2()
    elif task == "catalogue":
        from rdpsym.cli.main import main

        with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
            main(["check", "--quiet"])
    else:
        s = sp.Symbol("s", positive=True)
        if name == "gaussian":
            P, Q = rdpsym.gaussian(s).pair
        elif name == "laplace":
            P, Q = rdpsym.laplace(s).pair
        else:
            sys.path.insert(0, str(SCRIPT.parent))
            from bench_families import FAMILIES as SOURCE

            namespace: dict = {}
            exec(SOURCE, namespace)  # noqa: S102 - the benchmark's own family table
            P, Q = namespace["F"][name]()
        rdpsym.renyi_divergence(P, Q, rdpsym.alpha)
    print(json.dumps({"cpu": _cpu() - cpu, "where": str(Path(rdpsym.__file__).parent.parent)}))


def _cold(tree: Path, task: str, name: str | None = None, cache: str | None = None) -> float | None:
    """CPU seconds of ``task`` in a fresh interpreter on ``tree``; rdpsym's cache of derivations in ``cache``
    (default: a new empty folder, so the run is cold whatever the user's own cache holds)."""
    with tempfile.TemporaryDirectory(prefix="rdpsym-bench-cache-") as empty:
        env = dict(os.environ, PYTHONPATH=str(tree), RDPSYM_CACHE_DIR=cache or empty)
        return _measured(tree, task, name, env)


def _warm(tree: Path, task: str, name: str | None = None) -> tuple[float | None, float | None]:
    """(cold, warm): the task in a fresh interpreter with an empty cache, then again in another one that finds
    what the first kept (a user's second run)."""
    with tempfile.TemporaryDirectory(prefix="rdpsym-bench-cache-") as folder:
        return _cold(tree, task, name, folder), _cold(tree, task, name, folder)


def _measured(tree: Path, task: str, name: str | None, env: dict) -> float | None:
    out = subprocess.run([sys.executable, str(SCRIPT), "--child", task, name or ""], capture_output=True,
                         text=True, timeout=1800, env=env, cwd=tree)
    try:
        result = json.loads(out.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        print(f"  {task} {name or ''} failed in {tree}: {out.stderr.strip()[-300:]}")
        return None
    if Path(result["where"]).resolve() != tree.resolve():
        raise SystemExit(f"the child imported rdpsym from {result['where']}, not {tree}")
    return result["cpu"]


def _per_integral() -> None:
    import sympy as sp

    import rdpsym
    from rdpsym.derive.certified import certified_divergence
    from rdpsym.derive.numeric import renyi_divergence_mp
    from rdpsym.derive.verify import AGREE_DIGITS

    x = sp.Symbol("x", real=True)
    half = sp.Interval(0, sp.oo)
    pairs = {
        "Gaussian σ=6/5": rdpsym.gaussian(sp.Rational(6, 5)).pair,
        "Laplace b=7/3": rdpsym.laplace(sp.Rational(7, 3)).pair,
        "exponential 2 vs 3": (rdpsym.Continuous(2 * sp.exp(-2 * x), x, half),
                               rdpsym.Continuous(3 * sp.exp(-3 * x), x, half)),
        "gamma(2,1) vs gamma(2,2)": (rdpsym.Continuous(x * sp.exp(-x), x, half),
                                     rdpsym.Continuous(4 * x * sp.exp(-2 * x), x, half)),
    }
    print(f"\nper integral, one process, α = 3/2, {AGREE_DIGITS} digits:")
    for label, (P, Q) in pairs.items():
        t = time.process_time()
        ball = certified_divergence(P, Q, sp.Rational(3, 2), AGREE_DIGITS)
        fast = time.process_time() - t
        t = time.process_time()
        renyi_divergence_mp(P, Q, sp.Rational(3, 2), dps=AGREE_DIGITS + 5)
        slow = time.process_time() - t
        shown = "falls back (None)" if ball is None else f"{slow / fast:5.1f}× faster"
        print(f"  {label:26} Arb {fast:6.3f} s   mpmath {slow:6.3f} s   {shown}")


def _row(label: str, figures: list) -> None:
    """One line of the table: each tree's CPU seconds, and before/after when there are two."""
    text = "".join(f"{f:10.2f}" if f is not None else f"{'failed':>10}" for f in figures)
    if len(figures) == 2 and None not in figures:
        text += f"{figures[0] / figures[1]:9.1f}×"
    print(f"{label:30}{text}", flush=True)


def main(argv: list[str]) -> None:
    if argv[:1] == ["--child"]:
        _child(argv[1], argv[2] or None)
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="a baseline checkout of rdpsym, measured in the same run")
    parser.add_argument("--skip-catalogue", action="store_true")
    args = parser.parse_args(argv)
    trees = {"after": REPO} if args.before is None else {"before": args.before.resolve(), "after": REPO}
    rows = [("Table II", "table2", None)] + ([] if args.skip_catalogue else [("rdpsym check", "catalogue", None)])
    rows += [(f"family: {n}", "family", n) for n in FAMILIES]
    print(f"{'cold, CPU s':30}" + "".join(f"{k:>10}" for k in trees) + ("     ratio" if len(trees) == 2 else ""))
    for label, task, name in rows:
        if task == "catalogue":  # cold, and warm: a second run that finds the first's derivations and proofs
            pairs = [_warm(tree, task, name) for tree in trees.values()]
            _row(label, [cold for cold, _ in pairs])
            _row("rdpsym check, warm (2nd run)", [warm for _, warm in pairs])
        else:
            _row(label, [_cold(tree, task, name) for tree in trees.values()])
    _per_integral()


if __name__ == "__main__":
    main(sys.argv[1:])
