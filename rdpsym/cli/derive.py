"""``rdpsym derive``: one built-in mechanism's Rényi divergence, derived, with its document.

    rdpsym derive laplace                             symbolic order α, the paper's λ
    rdpsym derive laplace --order 2 --set lambda=1/2 --dps 40
    rdpsym derive gaussian --order inf
    rdpsym derive laplace --latex laplace.tex --pdf
"""

from __future__ import annotations

import argparse
import json

import mpmath
import sympy as sp

from rdpsym.cli import params
from rdpsym.cli.help import SUMMARIES
from rdpsym.cli.output import OK, Outputs, check_latex, check_path, console
from rdpsym.foundations.errors import ParameterError, must
from rdpsym.foundations.reading import dps as read_dps
from rdpsym.foundations.reading import parse_order
from rdpsym.foundations.symbols import alpha
from rdpsym.laws.mechanisms import REGISTRY
from rdpsym.render.derivation import derivation_json
from rdpsym.render.documents import mechanism_document

#: The built-ins derived from their densities.
DERIVED = [name for name, d in REGISTRY.items() if d.derive]


def register(sub) -> None:
    p = sub.add_parser("derive", help=SUMMARIES["derive"],
                       description="Derive D_α(P‖Q) of a built-in mechanism's worst-case pair, in closed form, "
                                   "and prove it equal to the published formula.")
    p.add_argument("mechanism", choices=sorted(DERIVED), help="the built-in mechanism: " + ", ".join(sorted(DERIVED)))
    p.add_argument("--order", default=None, help="alpha (symbolic, default), a number, 1 (KL) or inf")
    p.add_argument("--set", action="append", metavar="NAME=VALUE",
                   help="give a parameter a value (its name or the name the output prints, e.g. lambda=1/2), "
                        "or alpha")
    p.add_argument("--dps", default="30", help="digits of the value printed (default 30)")
    p.add_argument("--latex", metavar="FILE", help="write the derivation as a standalone LaTeX document (- for stdout)")
    p.add_argument("--pdf", action="store_true", help="also build FILE.pdf with pdflatex (says so when it is missing)")
    p.add_argument("--json", metavar="FILE", help="write the derivation as JSON: result, LaTeX, status, evidence, "
                                                  "steps (- for stdout)")
    p.set_defaults(run=run)


def _order(option: str | None, set_alpha: sp.Expr | None) -> sp.Expr:
    """The order: ``--order``, else ``--set alpha=V`` (the same thing), else the symbol α."""
    if option is not None and set_alpha is not None:
        raise ParameterError(must("--set alpha", "used without --order (both give the order)", set_alpha))
    if option is not None:
        # 'alpha' (or α) names the symbolic order, as --help says; the reader of numbers knows no names
        return alpha if option.strip() in ("alpha", "α") else parse_order(option)
    return parse_order(set_alpha) if set_alpha is not None else alpha


def run(args: argparse.Namespace) -> int:
    declared = REGISTRY[args.mechanism]
    sets = params.read_assignments(args.set, declared, extra=("alpha",))
    dps = read_dps(args.dps, "--dps")
    symbols = declared.symbols
    given = {n: v for n, v in sets.items() if n in symbols}
    # The derivation is symbolic in the parameters (σ, λ, p: the document shows the general formula and
    # its evidence at sampled values); the values given are where it is then evaluated.  A parameter
    # with a default (the sensitivity) takes the value given, or its default.  Every value is checked
    # against its range before any work, by building the mechanism once with the values.
    params.build(declared, given, symbolic=True)
    mechanism = params.build(declared, {n: v for n, v in given.items() if n in declared.defaults}, symbolic=True)
    order = _order(args.order, sets.get("alpha"))
    latex = check_latex(args.latex, args.pdf)
    out_json = check_path(args.json, "--json")
    d = mechanism.rdp(order)
    values = {symbols[n]: v for n, v in given.items() if n not in declared.defaults}
    free = d.result.free_symbols if isinstance(d.result, sp.Basic) else set()
    missing = sorted(str(s) for s in free - set(values))
    value = d.evalf(values, dps=dps) if values and not missing else None
    out = console(latex, out_json)
    print(d, file=out)
    if values:
        if missing:
            print(f"(set {', '.join(missing)} to get a number)", file=out)
        else:
            shown = ", ".join(f"{s} = {v}" for s, v in values.items())
            print(f"value at {shown} ({dps} digits):", file=out)
            print("oo" if mpmath.isinf(value) else value, file=out)
    outputs = Outputs()
    at = (values, value, dps) if value is not None else None
    outputs.latex(latex, lambda: mechanism_document(mechanism, d, at), args.pdf)
    data = {"mechanism": args.mechanism, **derivation_json(d),
            "value": None if value is None else ("inf" if mpmath.isinf(value) else str(value)),
            "at": {str(s): str(v) for s, v in values.items()} if value is not None else None}
    outputs.text("--json", out_json, lambda: json.dumps(data, indent=2, ensure_ascii=False))
    return outputs.status(OK)
