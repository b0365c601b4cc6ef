"""``rdpsym calibrate``: the smallest noise (or the most steps, or the largest rate) meeting a target (ε, δ).

    rdpsym calibrate --mechanism sampled-gaussian --set q=256/60000 --steps 14062 --epsilon 3 --delta 1e-5
    rdpsym calibrate --mechanism sampled-gaussian --set q=256/60000 --set sigma=1.1 --solve steps --epsilon 3 ...
    rdpsym calibrate --mechanism gaussian --epsilon 0.5,1,2,4 --delta 1e-5 --workers 2      # a grid

Every option is read and checked before any work; the value printed meets the target with a certified ε
(rounded up), and the other end of the bracket is certified not to (see :mod:`rdpsym.accounting.calibrate`).
Several targets (``--epsilon 1,2,4``) are a grid, run on ``--workers N`` processes or a Dask cluster
(``--scheduler ADDRESS``) with results identical to the serial run.
"""

from __future__ import annotations

import json

from rdpsym.accounting import api
from rdpsym.accounting.calibrate import DIRECTIONS, noise_parameter
from rdpsym.accounting.calibration_grid import MAX_CALIBRATIONS, calibrate_many
from rdpsym.accounting.orders import resolve
from rdpsym.cli import params
from rdpsym.cli.accounting import add_sweep_options
from rdpsym.cli.help import SUMMARIES
from rdpsym.cli.output import OK, Outputs, check_path
from rdpsym.foundations.errors import ParameterError, must
from rdpsym.foundations.parallel import executor_from
from rdpsym.foundations.reading import dps as read_dps
from rdpsym.foundations.reading import integer, open_probability, rational
from rdpsym.laws.mechanisms import REGISTRY
from rdpsym.render.calibration import calibration_json, calibration_text

__all__ = ["register", "run"]


def _targets(text: str) -> list[str]:
    if text.count(",") >= MAX_CALIBRATIONS:  # before any is read: each target is a calibration
        raise ParameterError(must("--epsilon", f"at most {MAX_CALIBRATIONS} targets", text.count(",") + 1))
    parts = [p.strip() for p in text.split(",")]
    if not parts or any(not p for p in parts):
        raise ParameterError(must("--epsilon", "a number > 0 or a comma-separated list (1,2,4)", repr(text)))
    for p in parts:
        if not rational(p, "--epsilon") > 0:
            raise ParameterError(must("--epsilon", "numbers > 0", p))
    return parts


def _read(args) -> list[dict]:
    """Every option read and checked, named as typed, before any curve is computed."""
    declared = REGISTRY[args.mechanism]
    fixed = params.read_assignments(args.set, declared)
    # (the parameters ε is known to be monotone in: p, sensitivity or xi were offered, then refused for want of a
    # direction the command line cannot give; a review)
    names = [p.name for p in declared.parameters if p.name in DIRECTIONS] + ["steps"]
    solve = args.solve or noise_parameter(args.mechanism)
    if solve is None:
        raise ParameterError(must("--solve", f"the parameter to calibrate (one of {', '.join(names)})", "none"))
    if solve != "steps" and (declared.parameter(solve) is None or declared.parameter(solve).name not in names):
        raise ParameterError(must("--solve", f"one of {', '.join(names)}", repr(solve)))
    if solve == "steps" and args.steps != 1:
        raise ParameterError(must("--steps", "left out with --solve steps (the steps are what is calibrated)",
                                  args.steps))
    canonical = "steps" if solve == "steps" else declared.parameter(solve).name
    if canonical in fixed:
        raise ParameterError(must("--set", f"free of {canonical}, which --solve calibrates", f"{canonical}=…"))
    missing = declared.missing(fixed, canonical)
    if missing:  # (the library's message names its keyword, fixed=, which the command line does not have)
        raise ParameterError(must("--set", f"a value for {', '.join(missing)} ({args.mechanism}), which --solve "
                                  f"{solve} leaves fixed", "none"))
    delta = open_probability(args.delta, "--delta")
    dps = read_dps(args.dps, "--dps")
    if args.orders is not None and args.orders.strip() != "continuous":  # (every order, as rdpsym epsilon takes it)
        resolve(args.orders, name="--orders", continuous=True)
    tolerance = rational(args.tolerance, "--tolerance")
    if not 0 < tolerance < 1:
        raise ParameterError(must("--tolerance", "in (0, 1)", args.tolerance))
    bounds = None
    if args.bounds is not None:
        lo, sep, hi = args.bounds.partition(",")
        if not sep:
            raise ParameterError(must("--bounds", "LOW,HIGH", repr(args.bounds)))
        bounds = (integer(lo, "--bounds", minimum=1), integer(hi, "--bounds", minimum=1)) if canonical == "steps" \
            else (rational(lo, "--bounds"), rational(hi, "--bounds"))
        if not bounds[0] < bounds[1]:
            raise ParameterError(must("--bounds", "LOW,HIGH with LOW < HIGH", repr(args.bounds)))
    orders = "continuous" if args.orders is not None and args.orders.strip() == "continuous" else args.orders
    common = {"family": args.mechanism, "delta": delta, "parameter": canonical, "fixed": fixed, "steps": args.steps,
              "bounds": bounds, "tolerance": tolerance, "orders": orders, "conversion": args.conversion,
              "dps": dps}
    return [{**common, "epsilon": e} for e in _targets(args.epsilon)]


def run(args) -> int:
    requests = _read(args)
    out = check_path(args.json, "--json")
    with executor_from(args.workers, args.scheduler) as executor:
        results = calibrate_many(requests, executor)
    if Outputs.console_text(out):
        print("\n\n".join(calibration_text(c) for c in results))
    outputs = Outputs()
    data = [calibration_json(c) for c in results]
    outputs.text("--json", out, json.dumps(data[0] if len(data) == 1 else data, indent=2, ensure_ascii=False))
    return outputs.status(OK)


def register(sub) -> None:
    p = sub.add_parser("calibrate", help=SUMMARIES["calibrate"])
    p.add_argument("--mechanism", required=True, choices=sorted(REGISTRY), metavar="NAME",
                   help="a built-in mechanism: " + ", ".join(sorted(REGISTRY)))
    p.add_argument("--set", action="append", metavar="NAME=VALUE", help="the other parameters, e.g. q=256/60000")
    p.add_argument("--solve", default=None, metavar="NAME",
                   help="the parameter to calibrate: one of the mechanism's (default its noise: sigma or scale) "
                        "or steps")
    p.add_argument("--steps", type=params.steps, default=1, help="k-fold composition (default 1)")
    p.add_argument("--epsilon", required=True, help="the target ε, or several: 1,2,4 (a grid)")
    p.add_argument("--delta", required=True, help="the target δ, e.g. 1e-5 (read exactly)")
    p.add_argument("--bounds", default=None, metavar="LOW,HIGH", help="the range searched (default per parameter)")
    p.add_argument("--tolerance", default="1e-6", help="the bracket's relative width (default 1e-6; steps: exact)")
    p.add_argument("--orders", default=None, help="as rdpsym epsilon (default: dp-accounting's orders and inf)")
    p.add_argument("--conversion", default=api.DEFAULT_CONVERSION, choices=list(api.CONVERSIONS),
                   help="as rdpsym epsilon (default best; bbghs to match dp_accounting and Opacus)")
    p.add_argument("--dps", default="30", help="digits of the certified ε reported (default 30)")
    p.add_argument("--json", metavar="FILE", help="also write the result(s) as JSON (- for standard output, instead "
                                                  "of the text)")
    add_sweep_options(p)
    p.set_defaults(run=run)
