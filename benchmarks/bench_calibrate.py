"""Calibration: rdpsym.calibrate against Opacus's get_noise_multiplier and dp_accounting's calibrate_dp_mechanism.

For each target (DP-SGD, Poisson sampling rate q, a number of steps, (ε, δ)) the three calibrate σ in this
process; each peer's σ (its exact double) is then judged by rdpsym's certified ε with the peer's own orders
and conversion ("opacus" or "dp-accounting" grid, bbghs): **overshoot** is how much more noise than the
certified optimum under that accounting it asks for (σ_peer/σ* − 1), **unsafe** a certified ε above the
target.  rdpsym runs twice: like with like (the peer's grid, bbghs, 10⁻⁶ relative bracket) and with its
default accounting (best conversion, dp_accounting's orders and ∞), whose σ is the least noise rdpsym can
certify.  Times are CPU seconds (``time.process_time``) in one process; ratios are what to read (the
machine is shared).

    python benchmarks/bench_calibrate.py [--json]
"""

from __future__ import annotations

import argparse
import json
import time
import warnings
from fractions import Fraction

import sympy as sp

import rdpsym

DELTA = 1e-5
#: (q, steps, target ε): MNIST-like (batch 256 of 60 000, 60 epochs), and two smaller budgets.
TARGETS = [(256 / 60000, 14062, 3.0), (256 / 60000, 14062, 1.0), (0.01, 1000, 1.0), (0.001, 10**4, 0.5),
           (0.01, 10**4, 8.0)]


def cpu(f):
    t = time.process_time()
    out = f()
    return time.process_time() - t, out


def opacus_sigma(q, steps, target):
    from opacus.accountants.utils import get_noise_multiplier

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return get_noise_multiplier(target_epsilon=target, target_delta=DELTA, sample_rate=q, steps=steps,
                                    accountant="rdp")


def dp_accounting_sigma(q, steps, target):
    import dp_accounting as dp

    def event(s):
        return dp.SelfComposedDpEvent(dp.PoissonSampledDpEvent(q, dp.GaussianDpEvent(s)), steps)

    return dp.mechanism_calibration.calibrate_dp_mechanism(dp.rdp.RdpAccountant, event, target, DELTA)


def ours(q, steps, target, orders, conversion):
    return rdpsym.calibrate("sampled-gaussian", epsilon=Fraction(target), delta=Fraction(DELTA),
                            fixed={"q": Fraction(q)}, steps=steps, orders=orders, conversion=conversion, dps=20)


def judge(sigma, q, steps, orders):
    c = rdpsym.sampled_gaussian(q=sp.Rational(Fraction(q)), sigma=sp.Rational(Fraction(sigma))).curve() * steps
    return rdpsym.epsilon(c, delta=Fraction(DELTA), orders=orders, conversion="bbghs", dps=20)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    # Warm-up, untimed: imports (Opacus pulls in torch), and rdpsym's first curve.
    opacus_sigma(0.01, 100, 2.0), dp_accounting_sigma(0.01, 100, 2.0), ours(0.01, 100, 2.0, None, "best")
    rows = []
    for q, steps, target in TARGETS:
        row = {"q": q, "steps": steps, "target": target}
        for peer, grid, calib in (("opacus", "opacus", opacus_sigma), ("dp_accounting", "dp-accounting",
                                                                       dp_accounting_sigma)):
            t_peer, sigma = cpu(lambda calib=calib, q=q, steps=steps, target=target: calib(q, steps, target))
            t_ours, c = cpu(lambda grid=grid, q=q, steps=steps, target=target: ours(q, steps, target, grid, "bbghs"))
            j = judge(sigma, q, steps, grid)
            opt = float(c.value)
            row[peer] = {"sigma": sigma, "cpu_s": round(t_peer, 4), "rdpsym_sigma": opt,
                         "rdpsym_cpu_s": round(t_ours, 4), "ratio_rdpsym_over_peer": round(t_ours / t_peer, 2),
                         "certified_eps_at_peer_sigma": j.published(10),
                         "overshoot": f"{sigma / opt - 1:+.3g}",
                         "unsafe": bool(j.enclosure.lower() > target),
                         "rdpsym_evaluations": c.evaluations}
        t_best, best = cpu(lambda q=q, steps=steps, target=target: ours(q, steps, target, None, "best"))
        row["rdpsym_best"] = {"sigma": float(best.value), "cpu_s": round(t_best, 4),
                              "conversion": best.epsilon.conversion, "order": str(best.epsilon.order),
                              "less_noise_than_opacus": f"{float(best.value) / row['opacus']['sigma'] - 1:+.3g}"}
        rows.append(row)
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    print(f"calibration of DP-SGD's σ at δ = {DELTA:g}: peers judged by certified ε on their own grid (bbghs)")
    for r in rows:
        print(f"\nq = {r['q']:.6g}, {r['steps']} steps, target ε = {r['target']:g}")
        for peer in ("opacus", "dp_accounting"):
            p = r[peer]
            print(f"  {peer:14s} σ = {p['sigma']:.10g} ({p['cpu_s']:.3f} s CPU): certified ε "
                  f"{p['certified_eps_at_peer_sigma']}, overshoot {p['overshoot']} vs certified optimum "
                  f"{p['rdpsym_sigma']:.10g}"
                  f"{'  UNSAFE' if p['unsafe'] else ''}; rdpsym {p['rdpsym_cpu_s']:.3f} s "
                  f"({p['rdpsym_evaluations']} evaluations), ratio {p['ratio_rdpsym_over_peer']}")
        b = r["rdpsym_best"]
        print(f"  rdpsym best    σ = {b['sigma']:.10g} ({b['cpu_s']:.3f} s CPU, {b['conversion']} at order "
              f"{b['order']}): {b['less_noise_than_opacus']} noise vs Opacus")


if __name__ == "__main__":
    main()
