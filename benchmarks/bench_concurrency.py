"""The public API from threads and processes: the same values as one thread, and what it costs.

    python benchmarks/bench_concurrency.py [--workers 12] [--processes 4] [--json]

Runs the job list of ``tests/test_concurrency.py`` (12 Gaussian derivations verified at 40 digits,
definitions at σ = 2 and 10¹⁰⁰, a Laplace D_∞, ε and δ of curves, curve values), each twice, three
ways in one process: one at a time, from a thread pool, and from a process pool; it checks every
result equals the single-threaded one and that the caller's precisions (mpmath's and python-flint's)
are untouched, and prints CPU time (``time.process_time``: every thread of this process) and wall time
of each.  Threads share one interpreter (the GIL), so the thread pool's CPU time should equal the
single-threaded one (within noise): the locks that keep precisions safe cost nothing measurable.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import pathlib
import sys
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tests"))

import flint  # noqa: E402
import mpmath  # noqa: E402
import test_concurrency as jobs  # noqa: E402


def _timed(run):
    cpu, wall = time.process_time(), time.perf_counter()
    out = run()
    return out, time.process_time() - cpu, time.perf_counter() - wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=12)
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    mpmath.mp.dps, flint.ctx.prec = jobs.USER_DPS, jobs.USER_BITS
    work = jobs.JOBS * 2
    single, cpu_1, wall_1 = _timed(lambda: [jobs.call(j) for j in work])
    with ThreadPoolExecutor(max_workers=args.workers) as pool:
        threaded, cpu_t, wall_t = _timed(lambda: list(pool.map(jobs.call, work)))
    ctx = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=args.processes, mp_context=ctx) as pool:
        processed, cpu_p, wall_p = _timed(lambda: [v for v, _ in pool.map(jobs._process_job, work)])
    same = threaded == single and processed == single
    untouched = (mpmath.mp.dps, flint.ctx.prec) == (jobs.USER_DPS, jobs.USER_BITS)
    report = {"calls": len(work), "single": {"cpu": cpu_1, "wall": wall_1},
              "threads": {"workers": args.workers, "cpu": cpu_t, "wall": wall_t},
              "processes": {"workers": args.processes, "wall": wall_p, "parent_cpu": cpu_p},
              "same_values": same, "precision_untouched": untouched, "thread_cpu_ratio": cpu_t / cpu_1}
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(f"{len(work)} calls: one at a time {cpu_1:.1f} s CPU ({wall_1:.1f} s wall); "
          f"{args.workers} threads {cpu_t:.1f} s CPU ({wall_t:.1f} s wall, CPU ratio {cpu_t / cpu_1:.2f}); "
          f"{args.processes} processes {wall_p:.1f} s wall")
    print(f"same values as one thread: {same}; caller's precisions untouched: {untouched}")


if __name__ == "__main__":
    main()
