"""Benchmark: the definition by quadrature, ``renyi_divergence_mp``, warm, over built-ins and orders.

Run from the repository root::

    python benchmarks/bench_definition.py                # every case, 50 digits, median of 5 warm calls
    python benchmarks/bench_definition.py --dps 100 --repeat 3 --json bench.json

Each case (a pair of laws and an order) is evaluated once first, so that what is timed is the quadrature
itself, not building the laws, compiling their log-densities for a new precision or loading modules;
then ``--repeat`` calls are timed by CPU time (``time.process_time``) and the median is printed, with the
value to 20 digits (the same on every tree a comparison runs, or the comparison means nothing).  This is
the route every derivation is checked against where Arb's ball cannot take a point, and most of its time
is the integrand at the quadrature's nodes (benchmarks/README.md, "The definition by quadrature").
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import mpmath
import sympy as sp

import rdpsym

R = sp.Rational
x = sp.Symbol("x", real=True)


def _logistic(centre):
    return rdpsym.Continuous(sp.exp(-(x - centre)) / (1 + sp.exp(-(x - centre))) ** 2, x)


def cases() -> list[tuple[str, tuple, sp.Expr]]:
    """(name, (P, Q), order) for each case: α above and below 1, the KL (order 1) and a large α."""
    gaussian, laplace = rdpsym.gaussian(sigma=1).pair, rdpsym.laplace(scale=1).pair
    logistic = (_logistic(0), _logistic(1))
    return ([("Gaussian σ=1", gaussian, R(o)) for o in (3, R(1, 2), 1, 20)]
            + [("Laplace b=1", laplace, R(o)) for o in (3, R(1, 2), 1)]
            + [("logistic, 1 apart", logistic, R(o)) for o in (2, R(3, 2))])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dps", type=int, default=50, help="digits asked of each call (default 50)")
    parser.add_argument("--repeat", type=int, default=5, help="timed calls per case (default 5)")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    rows, total = [], 0.0
    print(f"renyi_divergence_mp at {args.dps} digits, warm, median CPU ms of {args.repeat} calls")
    for name, (P, Q), order in cases():
        value = rdpsym.renyi_divergence_mp(P, Q, order, dps=args.dps)
        times = []
        for _ in range(args.repeat):
            start = time.process_time()
            rdpsym.renyi_divergence_mp(P, Q, order, dps=args.dps)
            times.append(1e3 * (time.process_time() - start))
        median = statistics.median(times)
        total += median
        shown = mpmath.nstr(value, 20)
        rows.append({"case": name, "order": str(order), "cpu_ms": median, "value": shown})
        print(f"  {name:20s} order {str(order):5s} {median:9.1f} ms   {shown}")
    print(f"sum of the medians: {total:.0f} ms CPU")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"dps": args.dps, "repeat": args.repeat, "cases": rows, "sum_cpu_ms": total}, fh, indent=1)


if __name__ == "__main__":
    main()
