"""``rdpsym epsilon``, ``rdpsym delta``, ``rdpsym reference``, ``rdpsym audit``: certified accounting.

    rdpsym epsilon --mechanism sampled-gaussian --set q=0.01 --set sigma=1.1 --steps 10000 --delta 1e-5
    rdpsym delta --mechanism gaussian --set sigma=2 --epsilon 1 --orders mironov --conversion mironov
    rdpsym reference --out refs/ --dps 60 [--workers N | --scheduler tcp://host:8786]
    rdpsym audit dp-accounting --grid small
    rdpsym audit opacus|autodp|prv-accountant --grid small
"""

from __future__ import annotations

import json

from rdpsym.accounting import api
from rdpsym.accounting.orders import resolve
from rdpsym.accounting.reference import FILES as REFERENCE_FILES
from rdpsym.accounting.reference import write_reference
from rdpsym.cli import params
from rdpsym.cli.help import SUMMARIES
from rdpsym.cli.output import OK, Outputs, check_folder, check_path
from rdpsym.cli.params import steps
from rdpsym.foundations.errors import ParameterError, must
from rdpsym.foundations.parallel import executor_from
from rdpsym.foundations.reading import dps as read_dps
from rdpsym.foundations.reading import open_probability, rational
from rdpsym.laws.mechanisms import REGISTRY
from rdpsym.peers.audit import PEERS, audit
from rdpsym.render.accounting import result_json, result_text
from rdpsym.render.peers import audit_json, audit_text


def _curve(mechanism, k: int):
    """The k-fold curve of a mechanism (its derivation: the work every check comes before)."""
    return mechanism.curve() * k


def _read(args, kind: str) -> tuple:
    """Every option read and checked, named as typed, before the mechanism's curve is derived."""
    declared = REGISTRY[args.mechanism]  # one of them: argparse's choices
    mechanism = params.build(declared, params.read_assignments(args.set, declared))
    dps = read_dps(args.dps, "--dps")
    if args.orders == "continuous":
        if kind == "delta":
            raise ParameterError(must("--orders", "a grid name or a list for delta (continuous is for epsilon)",
                                      "continuous"))
    elif args.orders is not None:
        resolve(args.orders, name="--orders", continuous=kind == "epsilon")
    if kind == "epsilon":
        given = open_probability(args.delta, "--delta")
    else:
        given = rational(args.epsilon, "--epsilon")
        if given < 0:
            raise ParameterError(must("--epsilon", "a number >= 0", args.epsilon))
    return mechanism, given, dps


def _show(r: api.AccountingResult, args) -> int:
    """The result as text on the console; ``--json`` (a bare ``--json`` or ``-``: standard output instead of
    the text) as JSON."""
    out = check_path(args.json, "--json")
    if Outputs.console_text(out):
        print(result_text(r, args.certified))
    outputs = Outputs()
    outputs.text("--json", out, lambda: json.dumps(result_json(r), indent=2, ensure_ascii=False))
    return outputs.status(OK)


def run_epsilon(args) -> int:
    mechanism, delta, dps = _read(args, "epsilon")
    check_path(args.json, "--json")  # before any work
    return _show(api.epsilon(_curve(mechanism, args.steps), delta=delta, orders=args.orders,
                             conversion=args.conversion, dps=dps), args)


def run_delta(args) -> int:
    mechanism, epsilon, dps = _read(args, "delta")
    check_path(args.json, "--json")  # before any work
    return _show(api.delta(_curve(mechanism, args.steps), epsilon=epsilon, orders=args.orders,
                           conversion=args.conversion, dps=dps), args)


def run_reference(args) -> int:
    dps = read_dps(args.dps, "--dps")
    out = check_folder(args.out, "--out")
    if out.is_dir():  # a folder made by this command holds nothing yet; an existing one is checked file by file
        for name in REFERENCE_FILES:  # the files written there: none may be a folder, or read-only
            check_path(str(out / name), "--out")
    outputs = Outputs()
    with executor_from(args.workers, args.scheduler) as executor:
        outputs.write("--out", lambda: [print(p) for p in write_reference(out, dps=dps, quick=args.quick,
                                                                          executor=executor)])
    return outputs.status(OK)


def run_audit(args) -> int:
    dps = read_dps(args.dps, "--dps")
    out = check_path(args.json, "--json")
    report = audit(args.peer, grid=args.grid, dps=dps)
    if Outputs.console_text(out):
        print(audit_text(report))
    outputs = Outputs()
    outputs.text("--json", out, json.dumps(audit_json(report), indent=2))
    return outputs.status(OK)


def add_sweep_options(p) -> None:
    """``--workers N`` / ``--scheduler ADDRESS``: where a sweep's tasks run (results identical to a serial run)."""
    p.add_argument("--workers", default=None, metavar="N",
                   help="run the tasks on a local pool of N processes (results identical to the serial run)")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="run the tasks on a Dask cluster, e.g. tcp://host:8786 (pip install 'rdpsym[dask]')")


def register(sub) -> None:
    for kind in ("epsilon", "delta"):
        p = sub.add_parser(kind, help=SUMMARIES[kind])
        p.add_argument("--mechanism", required=True, choices=sorted(REGISTRY), metavar="NAME",
                       help="a built-in mechanism: " + ", ".join(sorted(REGISTRY)))
        p.add_argument("--set", action="append", metavar="NAME=VALUE", help="a parameter, e.g. sigma=1.1")
        p.add_argument("--steps", type=steps, default=1, help="k-fold composition (default 1)")
        if kind == "epsilon":
            p.add_argument("--delta", required=True, help="the target δ, e.g. 1e-5 (read exactly)")
        else:
            p.add_argument("--epsilon", required=True, help="the target ε, e.g. 1 (read exactly)")
        p.add_argument("--orders", default=None,
                       help="mironov | dp-accounting | opacus" + (" | continuous" if kind == "epsilon" else "")
                            + " | a list '2,4,8.5,inf' (default: dp-accounting's orders and inf, which bounds "
                              "a pure-DP mechanism by its own ε; a grid name or list is used as given)")
        p.add_argument("--conversion", default=api.DEFAULT_CONVERSION, choices=list(api.CONVERSIONS),
                       help="best (default): the best of all at every order, naming the winner; mironov: Prop 3; "
                            "bbghs (alias balle): Balle et al. 2020 Thm 21, as dp_accounting and Opacus; tv-kl: "
                            "eps = 0 once delta >= sqrt(1 - exp(-r)), as dp_accounting; optimal: the optimal "
                            "conversion of each order, certified by a dual point")
        p.add_argument("--dps", default="50", help="significant digits (default 50)")
        p.add_argument("--certified", action="store_true", help="also print the certified enclosure")
        p.add_argument("--json", nargs="?", const="-", default=None, metavar="FILE",
                       help="write the result as JSON to FILE (- or no FILE: standard output, instead of the text)")
        p.set_defaults(run=run_epsilon if kind == "epsilon" else run_delta)
    rf = sub.add_parser("reference", help=SUMMARIES["reference"])
    rf.add_argument("--out", default="reference", help="output folder (default ./reference)")
    rf.add_argument("--dps", default="60", help="significant digits of every value (default 60)")
    rf.add_argument("--quick", action="store_true", help="a small table (for tests)")
    add_sweep_options(rf)
    rf.set_defaults(run=run_reference)
    au = sub.add_parser("audit", help=SUMMARIES["audit"])
    au.add_argument("peer", choices=PEERS, help="the installed peer accountant: " + ", ".join(PEERS)
                    + " (pip install 'rdpsym[peers]')")
    au.add_argument("--grid", choices=["small", "full"], default="small",
                    help="small (default): a few mechanisms and orders; full: every mechanism and order of the audit")
    au.add_argument("--dps", default="40", help="digits of the certified values compared with (default 40)")
    au.add_argument("--json", metavar="FILE", help="also write the report as JSON (- for standard output, instead "
                                                   "of the text)")
    au.set_defaults(run=run_audit)
