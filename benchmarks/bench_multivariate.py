"""Benchmark: laws in several variables, derived cold (verification included), against ``sympy.integrate``.

Run from the repository root::

    python benchmarks/bench_multivariate.py            # every family, and naive sympy.integrate (60 s cap each)
    python benchmarks/bench_multivariate.py --quick    # skip the naive route
    python benchmarks/bench_multivariate.py --json bench.json

Each measurement runs in a fresh interpreter (this script re-invoked with ``--child``) so SymPy's cache
and mpmath's quadrature nodes never warm the next one; the figure is the child's CPU time
(``time.process_time``) for the derivation alone, import excluded, because the machine is shared and wall
time is noisy; building the laws (their checks: a joint law that does not separate has its mass by nested
quadrature) is reported beside it.  The naive route integrates P^α Q^{1−α} of the same densities with
``sympy.integrate`` over each variable in turn, under a time cap.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve()

#: name -> (order, code building P and Q from sympy as sp and rdpsym); orders are spelled as strings.
FAMILIES = {
    "bivariate normal, symbolic covariance (σ₁, σ₂, ρ), equal covariances": ("alpha", """
s1, s2 = sp.symbols("sigma1 sigma2", positive=True); r = sp.Symbol("rho", real=True)
m1, m2 = sp.symbols("m1 m2", real=True)
S = sp.Matrix([[s1**2, r*s1*s2], [r*s1*s2, s2**2]])
P, Q = rdpsym.MultivariateNormal([0, 0], S), rdpsym.MultivariateNormal([m1, m2], S)"""),
    "bivariate normal, symbolic covariance vs N(m, I)": ("alpha", """
s1, s2 = sp.symbols("sigma1 sigma2", positive=True); r = sp.Symbol("rho", real=True)
m1, m2 = sp.symbols("m1 m2", real=True)
S = sp.Matrix([[s1**2, r*s1*s2], [r*s1*s2, s2**2]])
P, Q = rdpsym.MultivariateNormal([0, 0], S), rdpsym.MultivariateNormal([m1, m2], sp.eye(2))"""),
    "bivariate normal, symbolic covariance, KL": ("1", """
s1, s2 = sp.symbols("sigma1 sigma2", positive=True); r = sp.Symbol("rho", real=True)
m1, m2 = sp.symbols("m1 m2", real=True)
S = sp.Matrix([[s1**2, r*s1*s2], [r*s1*s2, s2**2]])
P, Q = rdpsym.MultivariateNormal([0, 0], S), rdpsym.MultivariateNormal([m1, m2], sp.eye(2))"""),
    "multivariate normal d = 3, numeric covariances": ("alpha", """
P = rdpsym.MultivariateNormal([0, 0, 0], sp.Matrix([[2, 1, 0], [1, 2, 1], [0, 1, 2]]))
Q = rdpsym.MultivariateNormal([1, 0, -1], sp.Matrix([[3, 0, 0], [0, 3, 1], [0, 1, 3]]))"""),
    "Gaussian mechanism, d dimensions (symbolic d), l2": ("alpha", """
s = sp.Symbol("sigma", positive=True); d = sp.Symbol("d", integer=True, positive=True)
M = rdpsym.gaussian(s, 1, dimension=d)"""),
    "Gaussian mechanism, d dimensions, KL": ("1", """
s = sp.Symbol("sigma", positive=True); d = sp.Symbol("d", integer=True, positive=True)
M = rdpsym.gaussian(s, 1, dimension=d)"""),
    "Laplace coordinates, d dimensions (symbolic d), l1": ("alpha", """
b = sp.Symbol("b", positive=True); d = sp.Symbol("d", integer=True, positive=True)
M = rdpsym.laplace(b, 1, dimension=d)"""),
    "Laplace coordinates, d dimensions, D_inf": ("oo", """
b = sp.Symbol("b", positive=True); d = sp.Symbol("d", integer=True, positive=True)
M = rdpsym.laplace(b, 1, dimension=d)"""),
    "Poisson, n i.i.d. copies (symbolic n)": ("alpha", """
k = sp.Symbol("k", integer=True); n = sp.Symbol("n", integer=True, positive=True)
l1, l2 = sp.symbols("lambda1 lambda2", positive=True)
Poi = lambda l: rdpsym.Discrete(sp.exp(-l)*l**k/sp.factorial(k), k, support=sp.Range(0, sp.oo))
P, Q = Poi(l1)**n, Poi(l2)**n"""),
    "joint pdf exp(-l x - |y|) that factorises": ("2", """
x, y = sp.symbols("x y", real=True); l1, l2, mu = sp.symbols("lambda1 lambda2 mu", positive=True)
sets = (sp.Interval(0, sp.oo), sp.Interval(-sp.oo, sp.oo))
P = rdpsym.Continuous(l1*sp.exp(-l1*x - sp.Abs(y))/2, (x, y), support=sets)
Q = rdpsym.Continuous(l2*sp.exp(-l2*x - sp.Abs(y - mu))/2, (x, y), support=sets)"""),
    # A law that neither separates nor is Gaussian: its mass is checked by nested quadrature as it is built (the
    # "build" figure), and its divergence is the definition's, by nested quadrature (2·log(3/2)).
    "joint pdf exp(-y)·1{x < y} on the quadrant vs exp(-x - y)": ("1/2", """
x, y = sp.symbols("x y", real=True); quadrant = (sp.Interval(0, sp.oo),) * 2
P = rdpsym.Continuous(sp.exp(-y)*sp.Heaviside(y - x), (x, y), support=quadrant)
Q = rdpsym.Continuous(sp.exp(-x - y), (x, y), support=quadrant)"""),
}

#: The naive route on the same densities: name -> (code building p, q, the variables and the order).
NAIVE = {
    "bivariate normal, symbolic covariance vs N(m, I)": """
s1, s2 = sp.symbols("sigma1 sigma2", positive=True); r = sp.Symbol("rho", real=True)
m1, m2 = sp.symbols("m1 m2", real=True)
S = sp.Matrix([[s1**2, r*s1*s2], [r*s1*s2, s2**2]])
P, Q = rdpsym.MultivariateNormal([0, 0], S), rdpsym.MultivariateNormal([m1, m2], sp.eye(2))
Q = Q.renamed(P.variables)
p, q, variables, a = P.expr, Q.expr, P.variables, 2""",
    "multivariate normal d = 3, numeric covariances": """
P = rdpsym.MultivariateNormal([0, 0, 0], sp.Matrix([[2, 1, 0], [1, 2, 1], [0, 1, 2]]))
Q = rdpsym.MultivariateNormal([1, 0, -1], sp.Matrix([[3, 0, 0], [0, 3, 1], [0, 1, 3]]))
p, q, variables, a = P.expr, Q.expr, P.variables, 2""",
}


def child(name: str, naive: bool, order_override: str | None = None) -> None:
    import time

    start = time.process_time()
    import sympy as sp

    import rdpsym

    imported = time.process_time()
    scope: dict = {"sp": sp, "rdpsym": rdpsym}
    if naive:
        import resource

        cap = int(float(os.environ.get("BENCH_CPU_CAP", "60")))
        resource.setrlimit(resource.RLIMIT_CPU, (cap, cap + 5))  # SIGXCPU past the cap: "did not finish"
        exec(NAIVE[name], scope)  # noqa: S102 - this script's own constant code
        expr = scope["p"] ** scope["a"] * scope["q"] ** (1 - scope["a"])
        t0 = time.process_time()
        for v in scope["variables"]:
            expr = sp.integrate(expr, (v, -sp.oo, sp.oo))
        done = not expr.has(sp.Integral)
        print(json.dumps({"cpu": time.process_time() - t0, "finished": done}))
        return
    order, code = FAMILIES[name]
    order = order_override or order
    built = time.process_time()
    exec(code, scope)  # noqa: S102 - this script's own constant code
    built = time.process_time() - built
    o = rdpsym.alpha if order == "alpha" else sp.oo if order == "oo" else sp.Rational(order)
    t0 = time.process_time()
    d = scope["M"].rdp(o) if "M" in scope else rdpsym.renyi_divergence(scope["P"], scope["Q"], o)
    cpu = time.process_time() - t0
    print(json.dumps({"cpu": cpu, "import": imported - start, "build": built, "status": str(d.status),
                      "closed": d.is_closed_form, "result": str(d.result)[:90]}))


def run(name: str, naive: bool, timeout: float, order: str | None = None) -> dict:
    cmd = [sys.executable, str(SCRIPT), "--child", name] + (["--naive"] if naive else []) + (
        ["--order", order] if order else [])
    env = {**os.environ, "BENCH_CPU_CAP": str(int(timeout))}
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=10 * timeout, check=True, env=env)
    except subprocess.TimeoutExpired:
        return {"timeout": timeout}
    except subprocess.CalledProcessError as exc:
        if naive and exc.returncode in (-24, -9):  # SIGXCPU (or SIGKILL at the hard limit): the CPU cap
            return {"cpu_cap": timeout}
        return {"error": exc.stderr.strip().splitlines()[-1] if exc.stderr else "failed"}
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child")
    parser.add_argument("--naive", action="store_true")
    parser.add_argument("--order")
    parser.add_argument("--quick", action="store_true", help="skip the naive sympy.integrate route")
    parser.add_argument("--timeout", type=float, default=60.0, help="cap for each naive integration (s)")
    parser.add_argument("--json")
    args = parser.parse_args()
    if args.child:
        child(args.child, args.naive, args.order)
        return
    rows = {}
    for name, (order, _) in FAMILIES.items():
        r = run(name, False, 600)
        rows[name] = {"order": order, **r}
        shown = f"{r['cpu']:.2f} s CPU (the laws built in {r['build']:.2f} s), {r['status']}" if "cpu" in r else str(r)
        print(f"{name:<72} order {order:<5} {shown}", flush=True)
    if not args.quick:
        print()
        for name in NAIVE:
            r = run(name, True, args.timeout)
            ours = run(name, False, 600, order="2").get("cpu")
            if "cpu" in r:
                ratio = f"({r['cpu'] / ours:.0f}x rdpsym's {ours:.2f} s)" if ours else ""
                print(f"sympy.integrate, {name}, order 2: {r['cpu']:.1f} s CPU, finished={r['finished']} {ratio}")
            else:
                shown = f"no result within {r['cpu_cap']:g} s CPU" if "cpu_cap" in r else str(r)
                print(f"sympy.integrate, {name}, order 2: {shown} (rdpsym: {ours:.2f} s CPU)")
            rows[name]["naive"] = r
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
