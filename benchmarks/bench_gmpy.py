"""mpmath's integer backend: GMP (gmpy2, a dependency) against Python's ints, on rdpsym's numeric work.

mpmath does its arithmetic on (sign, mantissa, exponent) tuples; with gmpy2 installed the mantissas are GMP
integers and the normalisation after each operation runs in C (``mpmath.libmp.BACKEND == "gmpy"``).  The bits
are the same; only the time changes.  ``MPMATH_NOGMPY=1`` in a process's environment makes mpmath fall back to
Python's ints, so each workload below runs in fresh interpreters both ways, the runs interleaved round by round
(the machine's load affects both alike), and the figure is the median CPU time (user + system of the child, from
``getrusage``) with the ratio gmpy / Python.  The derivation cache is off: every run does the work.

    python benchmarks/bench_gmpy.py [--repeat 3] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys

PREAMBLE = "import sympy as sp, mpmath, rdpsym; x = sp.Symbol('x', real=True)\n"
WORKLOADS = {
    # the definition's quadrature at 40 digits, where two laws are far apart (split and re-split integrals)
    "KL of Cauchy laws 100 apart, 40 digits": (
        "P = rdpsym.Continuous(1 / (sp.pi * (1 + x**2)), x)\n"
        "Q = rdpsym.Continuous(1 / (sp.pi * (1 + (x - 100)**2)), x)\n"
        "print(rdpsym.renyi_divergence_mp(P, Q, 1, dps=40))"),
    "D_1/2 of logistic laws 10 apart, 40 digits": (
        "L = lambda m: rdpsym.Continuous(sp.exp(-(x - m)) / (1 + sp.exp(-(x - m)))**2, x)\n"
        "print(rdpsym.renyi_divergence_mp(L(0), L(10), sp.Rational(1, 2), dps=40))"),
    # a derivation: the closed form, then its check against the definition at 40 digits
    "Cauchy D_3/2 derived and checked": (
        "P = rdpsym.Continuous(1 / (sp.pi * (1 + x**2)), x)\n"
        "Q = rdpsym.Continuous(1 / (sp.pi * (1 + (x - 3)**2)), x)\n"
        "print(rdpsym.renyi_divergence(P, Q, sp.Rational(3, 2)).status)"),
    # certified accounting: DP-SGD's ε at 50 digits (Arb balls and mpmath both)
    "DP-SGD ε at 50 certified digits": (
        "c = rdpsym.sampled_gaussian(q=sp.Rational(1, 100), sigma=sp.Rational(11, 10)).curve() * 1000\n"
        "print(rdpsym.epsilon(c, delta=1e-5, dps=50).value)"),
}


def cpu_of(code: str, gmpy: bool) -> tuple[float, str]:
    env = {**os.environ, "RDPSYM_CACHE_DIR": "off"}
    env.pop("MPMATH_NOGMPY", None)  # mpmath reads whether it is set at all, not its value
    if not gmpy:
        env["MPMATH_NOGMPY"] = "1"
    check = "import mpmath.libmp as l; assert l.BACKEND == %r, l.BACKEND\n" % ("gmpy" if gmpy else "python")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([sys.executable, "-c", check + PREAMBLE + code], env=env, capture_output=True, text=True,
                         check=True).stdout.strip()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", help="write the figures to this file")
    args = parser.parse_args()
    rows = []
    print(f"{'workload':46} {'gmpy s':>8} {'Python s':>9} {'ratio':>6}")
    for name, code in WORKLOADS.items():
        times = {True: [], False: []}
        answers = set()
        for _ in range(args.repeat):
            for gmpy in (True, False):
                seconds, out = cpu_of(code, gmpy)
                times[gmpy].append(seconds)
                answers.add(out)
        if len(answers) != 1:  # the backend changes the time, never the answer
            raise SystemExit(f"{name}: the backends answered differently: {sorted(answers)}")
        g, p = statistics.median(times[True]), statistics.median(times[False])
        rows.append({"workload": name, "gmpy_cpu_s": round(g, 3), "python_cpu_s": round(p, 3),
                     "ratio": round(g / p, 3)})
        print(f"{name:46} {g:8.2f} {p:9.2f} {g / p:6.2f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
