"""DP-SGD accounting: rdpsym at 50 digits against dp_accounting's float64 RdpAccountant.

Same inputs for both: 10⁴ steps of the Poisson-subsampled Gaussian (q = 0.01,
σ = 1.1), dp_accounting's 156 default orders, ε at δ = 1e-5.  Both sides run
in this process, best of ``--repeat`` runs; rdpsym's first run is reported too
(it also builds and checks the mechanism's SymPy densities, which are memoised).
Also: rdpsym's cost as the largest order grows (up to 10⁴) and as the number of
orders grows.

    python benchmarks/bench_accounting.py [--repeat 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import time

import sympy as sp
from flint import fmpq

import rdpsym
from rdpsym.accounting.orders import DP_ACCOUNTING

Q, SIGMA, STEPS, DELTA = sp.Rational(1, 100), sp.Rational(11, 10), 10_000, 1e-5


def rdpsym_dp_sgd(orders=DP_ACCOUNTING, dps: int = 50):
    curve = rdpsym.sampled_gaussian(q=Q, sigma=SIGMA).curve() * STEPS
    return rdpsym.epsilon(curve, delta=DELTA, orders=list(orders), dps=dps)


def peer_dp_sgd():
    import dp_accounting

    acc = dp_accounting.rdp.RdpAccountant()
    event = dp_accounting.PoissonSampledDpEvent(float(Q), dp_accounting.GaussianDpEvent(float(SIGMA)))
    acc.compose(dp_accounting.SelfComposedDpEvent(event, STEPS))
    return acc.get_epsilon_and_optimal_order(DELTA)


def best_of(f, repeat: int) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        out = f()
        best = min(best, time.perf_counter() - t)
    return best, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    results: dict = {}

    t_first, _ = best_of(rdpsym_dp_sgd, 1)
    t_ours, r = best_of(rdpsym_dp_sgd, args.repeat)
    t_peer, (peer_eps, peer_order) = best_of(peer_dp_sgd, args.repeat)
    results["dp_sgd"] = {
        "rdpsym_seconds": t_ours, "rdpsym_first_run_seconds": t_first, "dp_accounting_seconds": t_peer,
        "ratio": t_ours / t_peer,
        "rdpsym_epsilon": r.published(20), "rdpsym_order": str(r.order),
        "dp_accounting_epsilon": repr(peer_eps), "dp_accounting_order": float(peer_order),
    }

    growth = {}
    for top in (64, 256, 1024, 4096, 10_000):
        t, _ = best_of(lambda top=top: rdpsym_dp_sgd(orders=[fmpq(2), fmpq(top)]), 1)
        growth[top] = t
    results["largest_order_seconds"] = growth

    count = {}
    for n in (10, 40, 156):
        t, _ = best_of(lambda n=n: rdpsym_dp_sgd(orders=DP_ACCOUNTING[:n]), 1)
        count[n] = t
    results["number_of_orders_seconds"] = count

    if args.json:
        print(json.dumps(results, indent=2))
        return
    d = results["dp_sgd"]
    print(f"DP-SGD: q={Q}, σ={SIGMA}, {STEPS} steps, 156 orders, δ={DELTA}")
    print(f"  rdpsym (50 digits, certified): {d['rdpsym_seconds'] * 1e3:8.1f} ms   ε ≤ {d['rdpsym_epsilon']} "
          f"at α = {d['rdpsym_order']}")
    print(f"  dp_accounting (float64):       {d['dp_accounting_seconds'] * 1e3:8.1f} ms   ε = "
          f"{d['dp_accounting_epsilon']} at α = {d['dp_accounting_order']}")
    print(f"  ratio rdpsym / dp_accounting:  {d['ratio']:.2f}   (rdpsym's first run: "
          f"{d['rdpsym_first_run_seconds'] * 1e3:.1f} ms)")
    print("rdpsym cost vs the largest order (orders {2, top}):")
    for top, t in growth.items():
        print(f"  top {top:>6}: {t * 1e3:8.1f} ms")
    print("rdpsym cost vs the number of orders (first n of the dp-accounting grid):")
    for n, t in count.items():
        print(f"  n = {n:>3}: {t * 1e3:8.1f} ms")


if __name__ == "__main__":
    main()
