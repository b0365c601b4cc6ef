"""Command line for accounting: ``rdpsym epsilon``, ``rdpsym delta``, ``rdpsym reference``, ``rdpsym audit``.

    rdpsym epsilon --mechanism sampled-gaussian --set q=0.01 --set sigma=1.1 --steps 10000 --delta 1e-5
    rdpsym delta --mechanism gaussian --set sigma=2 --epsilon 1 --orders mironov --conversion mironov
    rdpsym reference --out refs/ --dps 60
    rdpsym audit dp-accounting --grid small
"""

from __future__ import annotations

import argparse
import json

import mpmath
import sympy as sp

from rdpsym.accounting import api
from rdpsym.accounting.orders import resolve
from rdpsym.foundations.errors import ParameterError, must
from rdpsym.laws.mechanisms import REGISTRY


def given_twice(sets: list[str]) -> tuple[str, list[str]] | None:
    """The first ``NAME`` of ``NAME=VALUE`` items given more than once, with its values; else None.

    >>> given_twice(["sigma=1", "q = 1/100", "sigma = 2"])
    ('sigma', ['1', '2'])
    """
    values: dict[str, list[str]] = {}
    for item in sets:
        key, _, value = item.partition("=")
        values.setdefault(key.strip(), []).append(value.strip())
    return next(((k, v) for k, v in values.items() if len(v) > 1), None)


def build_mechanism(name: str, sets: list[str]):
    """The mechanism ``name`` with ``--set NAME=VALUE`` parameters (exact decimals)."""
    if name not in REGISTRY:
        raise ParameterError(must("--mechanism", f"one of {', '.join(REGISTRY)}", repr(name)))
    declared = REGISTRY[name]
    factory, params, defaults = declared.factory, declared.names, declared.defaults
    given = dict(defaults)
    for item in sets or []:
        key, sep, _ = item.partition("=")
        if not sep:
            raise ParameterError(must("--set", "NAME=VALUE", repr(item)))
        if key.strip() not in params:
            raise ParameterError(must("--set NAME", f"one of {', '.join(params)} for {name}", repr(key.strip())))
    twice = given_twice(sets or [])
    if twice:
        key, values = twice
        raise ParameterError(must(f"--set {key}", "given once", f"{len(values)} values ({', '.join(values)})"))
    for item in sets or []:
        key, _, value = item.partition("=")
        key = key.strip()
        try:
            given[key] = sp.Rational(value.strip())
        except (TypeError, ValueError, sp.SympifyError):
            raise ParameterError(must(f"--set {key}", "a number (e.g. 2, 0.5, 1/3, 1e-5)", repr(value))) from None
    missing = [p for p in params if p not in given]
    if missing:
        raise ParameterError(must("--set", f"values for {', '.join(missing)} ({name} needs them)", "none"))
    return factory(**{p: given[p] for p in params})


def _steps(value: str) -> int:
    try:
        k = int(value)
    except ValueError:
        k = 0
    if k < 1 or str(k) != value.strip():
        raise argparse.ArgumentTypeError(must("--steps", "a positive integer", repr(value)))
    return k


def _curve(mechanism, steps: int):
    """The k-fold curve of a mechanism (its derivation: the work every check comes before)."""
    return mechanism.curve() * steps


def _print_result(r: api.AccountingResult, args) -> None:
    if args.json:
        print(json.dumps(r.as_dict(), indent=2, ensure_ascii=False))
        return
    name = "ε" if r.kind == "epsilon" else "δ"
    other = ("δ" if r.kind == "epsilon" else "ε") + f" = {api._show(r.given)}"
    if r.enclosure == float("inf"):
        print(f"{name} = inf  ({other}): every order is infinite")
        for o in r.per_order:
            print(f"  order {api._show(o.order)}: {o.reason}")
        return
    print(f"{name} = {mpmath.nstr(r.value, r.dps)}")
    print(f"  at order {api._show(r.order)}, {other}, conversion {r.conversion}, {r.dps} digits (rounded up)")
    print(f"  publish: {name} ≤ {r.published(6)}")
    if args.certified:
        d = r.as_dict()["enclosure"]
        what = "certified enclosure (Arb balls)" if r.certified else "enclosure (NOT certified: quadrature)"
        print(f"  {what}: [{d[0]}, {d[1]}]")
    for n in r.notes:
        print(f"  note: {n}")


def _check(args, kind: str) -> None:
    """Every option checked, named as typed, before the mechanism's curve is derived."""
    if args.dps < 5:
        raise ParameterError(must("--dps", "an integer >= 5", args.dps))
    if args.orders == "continuous":
        if kind == "delta":
            raise ParameterError(must("--orders", "a grid name or a list for delta (continuous is for epsilon)",
                                      "continuous"))
    elif args.orders is not None:
        resolve(args.orders, name="--orders", continuous=kind == "epsilon")
    if kind == "epsilon":
        api._probability(args.delta, "--delta")
    elif api._exact(args.epsilon, "--epsilon") < 0:
        raise ParameterError(must("--epsilon", "a number >= 0", args.epsilon))


def run_epsilon(args) -> int:
    mechanism = build_mechanism(args.mechanism, args.set)
    _check(args, "epsilon")
    r = api.epsilon(_curve(mechanism, args.steps), delta=args.delta, orders=args.orders, conversion=args.conversion,
                    dps=args.dps)
    _print_result(r, args)
    return 0


def run_delta(args) -> int:
    mechanism = build_mechanism(args.mechanism, args.set)
    _check(args, "delta")
    r = api.delta(_curve(mechanism, args.steps), epsilon=args.epsilon, orders=args.orders, conversion=args.conversion,
                  dps=args.dps)
    _print_result(r, args)
    return 0


def run_reference(args) -> int:
    from rdpsym.accounting.reference import write_reference

    paths = write_reference(args.out, dps=args.dps, quick=args.quick)
    for p in paths:
        print(p)
    return 0


def run_audit(args) -> int:
    from rdpsym.accounting.audit import audit_dp_accounting

    report = audit_dp_accounting(grid=args.grid, dps=args.dps)
    print(report.text())
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(report.as_dict(), fh, indent=2)
    return 0


def add_parsers(sub) -> None:
    for kind in ("epsilon", "delta"):
        p = sub.add_parser(kind, help=f"{kind} of a (composed) mechanism, to --dps digits, rounded up")
        p.add_argument("--mechanism", required=True, choices=sorted(REGISTRY))
        p.add_argument("--set", action="append", metavar="NAME=VALUE", help="a parameter, e.g. sigma=1.1")
        p.add_argument("--steps", type=_steps, default=1, help="k-fold composition (default 1)")
        if kind == "epsilon":
            p.add_argument("--delta", required=True, help="the target δ, e.g. 1e-5 (read exactly)")
        else:
            p.add_argument("--epsilon", required=True, help="the target ε, e.g. 1 (read exactly)")
        p.add_argument("--orders", default=None,
                       help="mironov | dp-accounting | opacus" + (" | continuous" if kind == "epsilon" else "")
                            + " | a list '2,4,8.5,inf' (default: dp-accounting's orders and inf, which bounds "
                              "a pure-DP mechanism by its own ε; a grid name or list is used as given)")
        p.add_argument("--conversion", default="bbghs", choices=["mironov", "bbghs", "balle"],
                       help="mironov: Prop 3; bbghs (alias balle): Balle et al. 2020 Thm 21 (default)")
        p.add_argument("--dps", type=int, default=50, help="significant digits (default 50)")
        p.add_argument("--certified", action="store_true", help="also print the certified enclosure")
        p.add_argument("--json", action="store_true", help="machine-readable output")
        p.set_defaults(run=run_epsilon if kind == "epsilon" else run_delta)
    rf = sub.add_parser("reference", help="export high-precision reference tables (JSON and CSV)")
    rf.add_argument("--out", default="reference", help="output folder (default ./reference)")
    rf.add_argument("--dps", type=int, default=60)
    rf.add_argument("--quick", action="store_true", help="a small table (for tests)")
    rf.set_defaults(run=run_reference)
    au = sub.add_parser("audit", help="compare an installed peer accountant with rdpsym's certified values")
    au.add_argument("peer", choices=["dp-accounting"])
    au.add_argument("--grid", choices=["small", "full"], default="small")
    au.add_argument("--dps", type=int, default=40)
    au.add_argument("--json", metavar="FILE")
    au.set_defaults(run=run_audit)

