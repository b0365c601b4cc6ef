"""Benchmark: textbook families derived by rdpsym, cold, verification included.

Run from the repository root::

    python benchmarks/bench_families.py                 # every family at α, 2, 1 and ∞
    python benchmarks/bench_families.py rayleigh gumbel  # some of them
    python benchmarks/bench_families.py --orders 37/10,1 "semicircle vs triangle"  # at other orders
    python benchmarks/bench_families.py --orders 20000 "cauchy 0 vs 1"
    python benchmarks/bench_families.py --orders 1 "curve of clipped gaussians"  # a mechanism's curve at 1

Each (family, order) runs in a fresh interpreter (this script re-invoked with
``--child``), so SymPy's cache and mpmath's quadrature nodes do not carry over:
the figure is the CPU time (``time.process_time``) of building the two laws
and deriving D_order, the 40-digit check against the definition included.
Import time is not counted, and rdpsym's cache of derivations is off in the children
(``RDPSYM_CACHE_DIR=off``: cold is derived, not replayed from the user's cache).  On a shared
machine, CPU time is the figure to compare; the wall time is printed beside it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

SCRIPT = Path(__file__).resolve()
ORDERS = ("alpha", "2", "1", "oo")

FAMILIES = """
import sympy as sp, rdpsym
from rdpsym import Continuous, Discrete
x = sp.Symbol("x", real=True); k = sp.Symbol("k", integer=True); j = sp.Symbol("j", integer=True)
pc = rdpsym.parameter("p", 0, 1, closed="both")
P_ = lambda n: sp.Symbol(n, positive=True)
s1, s2, m1, m2, l1, l2, a1, a2, b1, b2, kw, beta, sg, p1, p2 = (P_(n) for n in
    "s1 s2 m1 m2 l1 l2 a1 a2 b1 b2 kw beta sigma p1 p2".split())
c1, c2 = sp.symbols("c1 c2", real=True)
R, oo = sp.Rational, sp.oo
I0, Io = sp.Interval(0, oo), sp.Interval.open(0, oo)
ray = lambda s: Continuous(x/s**2*sp.exp(-x**2/(2*s**2)), x, I0)
lgn = lambda m, s: Continuous(sp.exp(-(sp.log(x)-m)**2/(2*s**2))/(x*s*sp.sqrt(2*sp.pi)), x, Io)
weib = lambda l: Continuous(kw/l*(x/l)**(kw-1)*sp.exp(-(x/l)**kw), x, I0)
gumbel = lambda m, b: Continuous(sp.exp(-((x-m)/b + sp.exp(-(x-m)/b)))/b, x)
invgamma = lambda a, b: Continuous(b**a/sp.gamma(a)*x**(-a-1)*sp.exp(-b/x), x, Io)
frechet = lambda a, s: Continuous(a/s*(x/s)**(-1-a)*sp.exp(-(x/s)**(-a)), x, Io)
maxwell = lambda s: Continuous(sp.sqrt(2/sp.pi)*x**2/s**3*sp.exp(-x**2/(2*s**2)), x, I0)
halfn = lambda s: Continuous(sp.sqrt(2)/(s*sp.sqrt(sp.pi))*sp.exp(-x**2/(2*s**2)), x, I0)
chi2 = lambda n: Continuous(x**(n/2-1)*sp.exp(-x/2)/(2**(n/2)*sp.gamma(n/2)), x, Io)
naka = lambda m, w: Continuous(2*m**m/(sp.gamma(m)*w**m)*x**(2*m-1)*sp.exp(-m*x**2/w), x, I0)
pareto = lambda a, m: Continuous(a*m**a/x**(a+1), x, sp.Interval(m, oo))
powf = lambda a: Continuous(a*x**(a-1), x, sp.Interval(0, 1))
betad = lambda p, q: Continuous(x**(p-1)*(1-x)**(q-1)/sp.beta(p, q), x, sp.Interval(0, 1))
gam = lambda a, b: Continuous(b**a*x**(a-1)*sp.exp(-b*x)/sp.gamma(a), x, Io)
lap = lambda m, b: Continuous(sp.exp(-sp.Abs(x-m)/b)/(2*b), x)
uni = lambda w: Continuous(1/w, x, sp.Interval(0, w))
dg = lambda mu, s: Discrete(sp.exp(-(k-mu)**2/(2*s**2))/sp.Sum(sp.exp(-(j-mu)**2/(2*s**2)), (j, -oo, oo)), k,
                            sp.Range(-oo, oo))
binom = lambda p: Discrete(sp.binomial(5, k)*p**k*(1-p)**(5-k), k, sp.Range(0, 6))
geo = lambda p: Discrete(p*(1-p)**(k-1), k, sp.Range(1, oo))
# a mixture whose small component sits under the large one's tail: its series is scanned to k = 2^4096
hidden = lambda w: Discrete(w*3000**k*sp.exp(-3000)/sp.factorial(k) + (1-w)*R(9, 100)*R(91, 100)**k, k,
                            sp.Range(0, oo))
# N(m, 1) clipped to [0, 1]: its density inside, the tails' masses as atoms at the ends
clip = lambda m: Continuous(sp.exp(-(x - m)**2/2)/sp.sqrt(2*sp.pi) + (1 - sp.erf(m/sp.sqrt(2)))/2*sp.DiracDelta(x)
                            + (1 + sp.erf((m - 1)/sp.sqrt(2)))/2*sp.DiracDelta(x - 1), x, sp.Interval(0, 1))
F = {
    "rayleigh": lambda: (ray(s1), ray(s2)),
    "rayleigh 3/2 vs 1": lambda: (ray(R(3, 2)), ray(1)),
    "log-normal (same sigma)": lambda: (lgn(m1, sg), lgn(m2, sg)),
    "log-normal": lambda: (lgn(m1, s1), lgn(m2, s2)),
    "weibull": lambda: (weib(l1), weib(l2)),
    "gumbel": lambda: (gumbel(c1, beta), gumbel(c2, beta)),
    "inverse gamma": lambda: (invgamma(a1, b1), invgamma(a2, b2)),
    "frechet": lambda: (frechet(a1, s1), frechet(a1, s2)),
    "maxwell": lambda: (maxwell(s1), maxwell(s2)),
    "half-normal": lambda: (halfn(s1), halfn(s2)),
    "chi-square": lambda: (chi2(a1), chi2(a2)),
    "nakagami": lambda: (naka(a1, b1), naka(a1, b2)),
    "pareto": lambda: (pareto(a1, b1), pareto(a2, b1)),
    "power function": lambda: (powf(a1), powf(a2)),
    "beta": lambda: (betad(a1, b1), betad(a2, b2)),
    "gamma": lambda: (gam(a1, b1), gam(a2, b2)),
    "laplace, free centres": lambda: (lap(c1, beta), lap(c2, beta)),
    "uniform, free ends": lambda: (uni(b1), uni(b2)),
    "discrete gaussian": lambda: (dg(0, sg), dg(1, sg)),
    "binomial(5)": lambda: (binom(p1), binom(p2)),
    "geometric": lambda: (geo(p1), geo(p2)),
    "mixture, hidden component": lambda: (hidden(R(1, 10**29)), Discrete(R(1, 2)**(k+1), k, sp.Range(0, oo))),
    # an exponential integral at integer orders (e^x (x - 1/2)^(-8) at 2): fuzz seed 21, case 38
    "truncated pareto vs laplace": lambda: (Continuous(R(648, 7)/(x - R(1, 2))**4, x, sp.Interval(R(7, 2), R(13, 2))),
                                            lap(0, 1)),
    # a Tricomi U at a general order: x^a (x - 1/2)^b e^(-x) with the order in a and b
    "gamma vs shifted gamma": lambda: (gam(2, 1), Continuous(2*sp.sqrt(x - R(1, 2))*sp.exp(R(1, 2) - x)/sp.sqrt(sp.pi),
                                                             x, sp.Interval.open(R(1, 2), oo))),
    # the normal law's distribution function as a change of variables: 2 phi(x) Phi(x) against phi(x)
    "skew-normal vs normal": lambda: (Continuous(sp.exp(-x**2/2)*(1 + sp.erf(x/sp.sqrt(2)))/sp.sqrt(2*sp.pi), x),
                                      Continuous(sp.exp(-x**2/2)/sp.sqrt(2*sp.pi), x)),
    # the same at free ends (m1, s2): the form's 1F1 has a pole at alpha = 2 for every m1, s2 (limits only in alpha)
    "truncated pareto, free ends": lambda: (Continuous(24*s2**3/(7*(x - m1)**4), x, sp.Interval(m1 + s2, m1 + 2*s2)),
                                            lap(0, 1)),
    # E_P[x^2] converges only for 10 a1 > 2, the moment only below order 1 (a sign alpha's assumptions do not say)
    "student t vs normal": lambda: (Continuous(sp.gamma((10*a1 + 1)/2)/(sp.sqrt(10*a1*sp.pi)*sp.gamma(5*a1))
                                               * (1 + x**2/(10*a1))**(-(10*a1 + 1)/2), x),
                                    Continuous(sp.exp(-x**2/2)/sp.sqrt(2*sp.pi), x)),
    # log(1 - x^2) read as log(1 - x) + log(1 + x): incomplete Beta functions
    "semicircle vs triangle": lambda: (Continuous(2*sp.sqrt(1 - x**2)/sp.pi, x, sp.Interval(-1, 1)),
                                       Continuous(1 - sp.Abs(x), x, sp.Interval(-1, 1))),
    # a KL whose closed form leaves integrals of log t/sqrt(t(1 - t)) that SymPy does not do
    "arcsine vs triangle": lambda: (Continuous(1/(sp.pi*sp.sqrt(x*(1 - x))), x, sp.Interval(0, 1)),
                                    Continuous(sp.Piecewise((4*x, x < R(1, 2)), (4 - 4*x, True)), x,
                                               sp.Interval(0, 1))),
    # the KL against a Gaussian mixture: E_P[log of the mixture] is a cross-entropy with no closed form
    "normal vs gaussian mixture": lambda: (Continuous(sp.exp(-x**2/2)/sp.sqrt(2*sp.pi), x),
                                           Continuous(sp.exp(-x**2/2)/(2*sp.sqrt(2*sp.pi))
                                                      + sp.exp(-x**2/20000)/(200*sp.sqrt(2*sp.pi)), x)),
    # three non-integer powers of linear factors, two roots off the piece's ends (a Lauricella integral): at 37/10
    "skewed semicircle vs triangle": lambda: (Continuous(2*sp.sqrt(1 - x**2)*(1 + x/2)/sp.pi, x, sp.Interval(-1, 1)),
                                              Continuous(1 - sp.Abs(x), x, sp.Interval(-1, 1))),
    # one sign asked four times, a constant factor apart (p^a + (1 - p)^a at a = 999/1000): at 999/1000
    "binomial(2), p in [0, 1]": lambda: (Discrete(sp.binomial(2, k)*pc**k*(1 - pc)**(2 - k), k, sp.Range(0, 3)),
                                         Discrete(sp.binomial(2, k)/4, k, sp.Range(0, 3))),
    # the family of the numbers at a large order, (1 + x^c)^(-20000)(1 + (x - 1)^c)^19999: at 20000
    "cauchy 0 vs 1": lambda: (Continuous(1/(sp.pi*(1 + x**2)), x), Continuous(1/(sp.pi*(1 + (x - 1)**2)), x)),
    # a mechanism's curve, built and read at the order (its KL at 1: the limit of a form holding erf(alpha mu))
    "curve of clipped gaussians": lambda: (clip(R(1, 2)), clip(0)),
    # Kummer's function by Euler's integral: a power of 1 - x^2 times a Gaussian centred on [-1, 1]
    "semicircle vs normal": lambda: (Continuous(2*sp.sqrt(1 - x**2)/sp.pi, x, sp.Interval(-1, 1)),
                                     Continuous(sp.exp(-x**2/2)/sp.sqrt(2*sp.pi), x)),
}
"""


def _child(name: str, order: str) -> None:
    namespace: dict = {}
    exec(FAMILIES, namespace)  # noqa: S102 - this file's own source text
    import sympy as sp

    import rdpsym

    wanted = {"alpha": rdpsym.alpha, "oo": sp.oo}.get(order) or sp.Rational(order)  # (an order as 37/10, too)
    cpu, wall = time.process_time(), time.perf_counter()
    try:
        P, Q = namespace["F"][name]()
        if name.startswith("curve of "):  # the mechanism's curve, built, then its value at the order (40 digits)
            value = rdpsym.Mechanism(name, {}, (P, Q)).curve().value(wanted, dps=40)
            status, kind = "curve", str(value)[:22]
        else:
            d = rdpsym.renyi_divergence(P, Q, wanted)
            status, kind = str(d.status), "closed form" if d.is_closed_form else "numeric"
    except Exception as exc:  # noqa: BLE001 - reported, not hidden
        status, kind = "error", f"{type(exc).__name__}: {str(exc)[:80]}"
    print(json.dumps({"cpu": time.process_time() - cpu, "wall": time.perf_counter() - wall,
                      "status": status, "kind": kind}))


def main(argv: list[str]) -> None:
    if argv[:1] == ["--child"]:
        _child(argv[1], argv[2])
        return
    orders = ORDERS
    if argv[:1] == ["--orders"]:
        orders, argv = tuple(argv[1].split(",")), argv[2:]
    namespace: dict = {}
    exec(FAMILIES, namespace)  # noqa: S102
    names = argv or list(namespace["F"])
    print(f"{'family':26} {'order':>5}  {'CPU':>6}  {'wall':>6}  status   result")
    worst = 0.0
    for name in names:
        for order in orders:
            out = subprocess.run([sys.executable, str(SCRIPT), "--child", name, order], capture_output=True,
                                 text=True, timeout=600, env=dict(os.environ, RDPSYM_CACHE_DIR="off"))
            try:
                r = json.loads(out.stdout.strip().splitlines()[-1])
            except (IndexError, json.JSONDecodeError):
                print(f"{name:26} {order:>5}  failed: {out.stderr.strip()[-200:]}")
                continue
            worst = max(worst, r["cpu"])
            print(f"{name:26} {order:>5}  {r['cpu']:5.2f}s  {r['wall']:5.2f}s  {r['status']:8} {r['kind']}")
    print(f"\nslowest: {worst:.2f} s CPU (goal < 2 s per family and order, verification included)")


if __name__ == "__main__":
    main(sys.argv[1:])
