"""Accounting speed: rdpsym (50 digits, certified) against dp_accounting and Opacus (float64), same process.

Four measurements (issue 15, point 7); every figure is CPU time (``time.process_time``), the median of
``--repeat`` runs, and each comparison is a ratio of runs interleaved in one process, so the machine's
load affects both sides alike:

1. **DP-SGD call**: 10⁴ steps of the Poisson-subsampled Gaussian (q = 0.01, σ = 1.1), dp_accounting's
   156 orders, ε at δ = 1e-5.  rdpsym *cold* (its ball cache emptied before each run: every RDP value is
   computed) and *warm* (the same curve asked again), each with its default conversion ("best") and with
   the peers' own ("bbghs", like for like); dp_accounting's ``RdpAccountant`` and Opacus's
   ``compute_rdp`` + ``get_privacy_spent`` (Opacus's own grid, 151 orders).
2. **ε after every epoch**: 50 epochs of DP-SGD on MNIST (batch 256 of 60 000, σ = 1.1, 234 steps per
   epoch); after each epoch the composition grows and ε at δ = 1e-5 is asked.  rdpsym adds the epoch's
   curve and converts, "best" and "bbghs" (values computed once, then cached per component and precision;
   the conversion's constants per δ and order); dp_accounting
   composes the epoch's event into its accountant and asks ``get_epsilon``; Opacus's ``RDPAccountant``
   takes the epoch's steps and asks ``get_epsilon``.
3. **A built-in at new parameter values**: the Gaussian's and the Laplace mechanism's curves at 20 new
   σ (λ) each, after the first (which derives the mechanism once at symbolic parameters).  Also the
   DP-SGD call's cost as the largest order grows (orders 2 and 64, 1024, 10⁴) and as the number of
   orders grows (the first 10, 40, 156 of dp_accounting's grid).
4. **A fresh process's first ε** (``rdpsym epsilon`` as a library call: import, build the DP-SGD curve,
   convert), in a new interpreter each time, with the cost of the densities the accounting never reads
   (built lazily now) measured beside it.

    python benchmarks/bench_accounting.py [--repeat 9] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

import sympy as sp

import rdpsym
from rdpsym.accounting.ball_cache import clear_cache
from rdpsym.accounting.orders import DP_ACCOUNTING, OPACUS

Q, SIGMA, STEPS, DELTA = sp.Rational(1, 100), sp.Rational(11, 10), 10_000, 1e-5
ORDERS = list(DP_ACCOUNTING)
OPACUS_ORDERS = [float(a) for a in OPACUS]
#: 1000 fractional orders in (1, 64]: exact rationals for rdpsym, their doubles for Opacus.
FRACTIONAL = [1 + sp.Rational(63 * (2 * i + 1), 2000) for i in range(1000)]
FRACTIONAL_FLOATS = [float(a) for a in FRACTIONAL]
# MNIST DP-SGD (the README's run): batch 256 of 60 000, σ = 1.1, 50 epochs of 234 steps.
EPOCH_Q, EPOCH_STEPS, EPOCHS = sp.Rational(256, 60000), 234, 50


# ---------------------------------------------------------------- 1. the DP-SGD call
def rdpsym_dp_sgd(cold: bool = True, orders: list = ORDERS, conversion: str = "best"):
    """rdpsym's default conversion ("best": the least certified ε of Mironov's, Balle et al.'s, the TV/KL
    branch and the optimal conversion), or "bbghs", the peers' own conversion (like for like)."""
    if cold:
        clear_cache()
    curve = rdpsym.sampled_gaussian(q=Q, sigma=SIGMA).curve() * STEPS
    return rdpsym.epsilon(curve, delta=DELTA, orders=orders, conversion=conversion, dps=50)


def dp_accounting_dp_sgd():
    import dp_accounting

    acc = dp_accounting.rdp.RdpAccountant()
    event = dp_accounting.PoissonSampledDpEvent(float(Q), dp_accounting.GaussianDpEvent(float(SIGMA)))
    acc.compose(dp_accounting.SelfComposedDpEvent(event, STEPS))
    return acc.get_epsilon_and_optimal_order(DELTA)


def opacus_dp_sgd(orders: list = OPACUS_ORDERS):
    from opacus.accountants.analysis import rdp

    values = rdp.compute_rdp(q=float(Q), noise_multiplier=float(SIGMA), steps=STEPS, orders=orders)
    return rdp.get_privacy_spent(orders=orders, rdp=values, delta=DELTA)


# ---------------------------------------------------------------- 2. ε after every epoch
def rdpsym_epochs(conversion: str = "best"):
    clear_cache()
    step = rdpsym.sampled_gaussian(q=EPOCH_Q, sigma=SIGMA).curve() * EPOCH_STEPS
    curve, out = None, []
    for _ in range(EPOCHS):
        curve = step if curve is None else curve + step
        out.append(rdpsym.epsilon(curve, delta=DELTA, orders=ORDERS, conversion=conversion, dps=50).value)
    return out


def dp_accounting_epochs():
    import dp_accounting

    acc = dp_accounting.rdp.RdpAccountant()
    event = dp_accounting.SelfComposedDpEvent(
        dp_accounting.PoissonSampledDpEvent(float(EPOCH_Q), dp_accounting.GaussianDpEvent(float(SIGMA))),
        EPOCH_STEPS)
    out = []
    for _ in range(EPOCHS):
        acc.compose(event)
        out.append(acc.get_epsilon(DELTA))
    return out


def opacus_epochs():
    from opacus.accountants import RDPAccountant

    acc, out = RDPAccountant(), []
    for _ in range(EPOCHS):
        for _ in range(EPOCH_STEPS):
            acc.step(noise_multiplier=float(SIGMA), sample_rate=float(EPOCH_Q))
        out.append(acc.get_epsilon(DELTA))
    return out


# ---------------------------------------------------------------- 3. new parameter values
def new_values(factory, first: object, values: list) -> tuple[float, float]:
    """CPU seconds of the first curve (derives at symbolic parameters) and the median of the next ones."""
    t = time.process_time()
    factory(first).curve()
    first_time = time.process_time() - t
    times = []
    for v in values:
        t = time.process_time()
        factory(v).curve().values([2, sp.Rational(5, 2)], dps=30)
        times.append(time.process_time() - t)
    return first_time, statistics.median(times)


# ---------------------------------------------------------------- 4. a fresh process
FRESH = """
import time
t = time.process_time()
import rdpsym, sympy as sp
c = rdpsym.sampled_gaussian(q=sp.Rational(1, 100), sigma=sp.Rational(11, 10)).curve() * 10000
r = rdpsym.epsilon(c, delta=1e-5, dps=50)
total = time.process_time() - t
t = time.process_time()
P, Q = rdpsym.sampled_gaussian(q=sp.Rational(1, 100), sigma=sp.Rational(11, 10)).pair
print(total, time.process_time() - t)
"""


def fresh_process() -> tuple[float, float]:
    out = subprocess.run([sys.executable, "-c", FRESH], capture_output=True, text=True, check=True).stdout.split()
    return float(out[0]), float(out[1])


# ---------------------------------------------------------------- timing
def interleaved(functions: dict, repeat: int) -> dict:
    """Median CPU seconds of each function, the runs interleaved (one of each per round)."""
    for f in functions.values():
        f()  # imports and first-use work out of the way
    times: dict = {name: [] for name in functions}
    for _ in range(repeat):
        for name, f in functions.items():
            t = time.process_time()
            f()
            times[name].append(time.process_time() - t)
    return {name: statistics.median(v) for name, v in times.items()}


def available(module: str) -> bool:
    try:
        __import__(module)
    except ImportError:
        return False
    return True


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=9)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    have_opacus = available("opacus")
    results: dict = {}

    peers = {"rdpsym_cold": rdpsym_dp_sgd, "rdpsym_cold_bbghs": lambda: rdpsym_dp_sgd(conversion="bbghs"),
             "rdpsym_warm": lambda: rdpsym_dp_sgd(cold=False),
             "rdpsym_warm_bbghs": lambda: rdpsym_dp_sgd(cold=False, conversion="bbghs"),
             "dp_accounting": dp_accounting_dp_sgd}
    if have_opacus:
        peers["opacus"] = opacus_dp_sgd
    call = interleaved(peers, args.repeat)
    for name, conversion in (("", "best"), ("_bbghs", "bbghs")):
        r = rdpsym_dp_sgd(conversion=conversion)
        call["rdpsym_epsilon" + name] = r.published(20)
        call["rdpsym_order" + name] = str(r.order)
        call["rdpsym_conversion" + name] = r.conversion
    call["dp_accounting_epsilon"] = float(dp_accounting_dp_sgd()[0])
    if have_opacus:
        call["opacus_epsilon"] = float(opacus_dp_sgd()[0])
    results["dp_sgd"] = call

    runs = {"rdpsym": rdpsym_epochs, "rdpsym_bbghs": lambda: rdpsym_epochs("bbghs"),
            "dp_accounting": dp_accounting_epochs}
    if have_opacus:
        runs["opacus"] = opacus_epochs
    results["epochs"] = interleaved(runs, max(3, args.repeat // 3))

    results["new_parameters"] = {
        "gaussian": new_values(lambda s: rdpsym.gaussian(sigma=s), 1, [1 + sp.Rational(i, 100) for i in range(1, 21)]),
        "laplace": new_values(lambda b: rdpsym.laplace(scale=b), 1, [1 + sp.Rational(i, 100) for i in range(1, 21)]),
    }
    growth = {}
    for top in (64, 1024, 10_000):
        orders = [sp.Integer(2), sp.Integer(top)]
        growth[f"orders 2 and {top}"] = interleaved({"rdpsym": lambda o=orders: rdpsym_dp_sgd(orders=o)}, 3)["rdpsym"]
    for n in (10, 40, 156):
        growth[f"first {n} orders"] = interleaved({"rdpsym": lambda n=n: rdpsym_dp_sgd(orders=ORDERS[:n])},
                                                  3)["rdpsym"]
    results["growth"] = growth
    # 1000 fractional orders in (1, 64], the peers' conversion on both sides (issue 26, point 1).
    bulk = {"rdpsym": lambda: rdpsym_dp_sgd(orders=FRACTIONAL, conversion="bbghs"),
            "rdpsym_best": lambda: rdpsym_dp_sgd(orders=FRACTIONAL)}
    if have_opacus:
        bulk["opacus"] = lambda: opacus_dp_sgd(FRACTIONAL_FLOATS)
    results["fractional_orders"] = interleaved(bulk, max(3, args.repeat // 2))
    fresh = [fresh_process() for _ in range(max(3, args.repeat // 3))]
    results["fresh_process"] = {"first_epsilon": statistics.median(f[0] for f in fresh),
                                "densities_not_built": statistics.median(f[1] for f in fresh)}

    if args.json:
        print(json.dumps(results, indent=2))
        return
    ms = lambda s: f"{s * 1e3:8.1f} ms"
    d = results["dp_sgd"]
    print(f"1. DP-SGD: q={Q}, σ={SIGMA}, {STEPS} steps, 156 orders, δ={DELTA} (median CPU of {args.repeat})")
    for name, what in (("", "best (default)"), ("_bbghs", "bbghs (the peers')")):
        print(f"   rdpsym, 50 digits, certified, {what:18} cold: {ms(d['rdpsym_cold' + name])}, the same curve "
              f"again {ms(d['rdpsym_warm' + name])}   ε ≤ {d['rdpsym_epsilon' + name]} at α = "
              f"{d['rdpsym_order' + name]} ({d['rdpsym_conversion' + name]})")
    print(f"   dp_accounting (float64):           {ms(d['dp_accounting'])}   ε = {d['dp_accounting_epsilon']!r}")
    if have_opacus:
        print(f"   Opacus (float64, 151 orders):      {ms(d['opacus'])}   ε = {d['opacus_epsilon']!r}")
    for name, what in (("", "best"), ("_bbghs", "bbghs")):
        ratios = [f"{d['rdpsym_cold' + name] / d['dp_accounting']:.2f} × dp_accounting"]
        if have_opacus:
            ratios.append(f"{d['rdpsym_cold' + name] / d['opacus']:.2f} × Opacus")
        print(f"   rdpsym cold ({what}) = " + ", ".join(ratios))
    e = results["epochs"]
    print(f"2. ε after each of {EPOCHS} epochs ({EPOCH_STEPS} steps of q = 256/60000, σ = {SIGMA}):")
    print(f"   rdpsym best {ms(e['rdpsym'])}, bbghs {ms(e['rdpsym_bbghs'])}, dp_accounting {ms(e['dp_accounting'])}"
          + (f", Opacus {ms(e['opacus'])}" if have_opacus else ""))
    for name, what in (("rdpsym", "best"), ("rdpsym_bbghs", "bbghs")):
        print(f"   rdpsym ({what}): dp_accounting / rdpsym = {e['dp_accounting'] / e[name]:.1f}"
              + (f", Opacus / rdpsym = {e['opacus'] / e[name]:.1f}" if have_opacus else ""))
    n = results["new_parameters"]
    print("3. a built-in at new parameter values (first: derived once at symbolic parameters):")
    for name, (first, nxt) in n.items():
        print(f"   {name:9}: first {ms(first)}, then {ms(nxt)} per new value")
    grown = ", ".join(f"{k} {v * 1e3:.1f} ms" for k, v in results["growth"].items())
    print(f"   the DP-SGD call, cold, as the orders grow: {grown}")
    b = results["fractional_orders"]
    print(f"   1000 fractional orders in (1, 64], bbghs: rdpsym {ms(b['rdpsym'])} (best {ms(b['rdpsym_best'])})"
          + (f", Opacus {ms(b['opacus'])}: {b['rdpsym'] / b['opacus']:.2f} × Opacus" if have_opacus else ""))
    f = results["fresh_process"]
    print(f"4. a fresh process's first ε (import + DP-SGD curve + ε): {ms(f['first_epsilon'])}; "
          f"the densities it no longer builds would add {ms(f['densities_not_built'])}")


if __name__ == "__main__":
    main()
