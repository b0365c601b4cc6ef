"""``rdpsym table2``: Mironov 2017's Table II, derived from the mechanisms' densities.

    rdpsym table2
    rdpsym table2 --latex table2.tex --pdf
"""

from __future__ import annotations

import argparse
import json
import time

import sympy as sp

from rdpsym.cli.help import SUMMARIES
from rdpsym.cli.output import NOT_AS_EXPECTED, OK, Outputs, check_latex, check_path, console
from rdpsym.derive.table2 import table2
from rdpsym.foundations.record import Status
from rdpsym.render.derivation import derivation_json
from rdpsym.render.documents import table2_document


def register(sub) -> None:
    p = sub.add_parser("table2", help=SUMMARIES["table2"])
    p.add_argument("--latex", metavar="FILE", help="also write the table as a standalone LaTeX document (- for stdout)")
    p.add_argument("--pdf", action="store_true", help="also build FILE.pdf with pdflatex")
    p.add_argument("--json", metavar="FILE", help="write every cell's derivation as JSON (- for stdout)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    latex = check_latex(args.latex, args.pdf)
    out_json = check_path(args.json, "--json")
    start = time.process_time()
    cells = table2()
    elapsed = time.process_time() - start
    out = console(latex, out_json)
    print("Mironov 2017, Table II, derived from the mechanisms' densities", file=out)
    print(file=out)
    width = max(len(c.mechanism) for c in cells)
    for c in cells:
        d = c.derivation
        print(f"{c.mechanism:<{width}}  {c.order_label}:  {sp.sstr(d.result)}", file=out)
        print(f"{'':<{width}}  status: {d.status}  [{d.evidence[0]}]", file=out)
    print(file=out)
    proved = sum(1 for c in cells if c.derivation.status is Status.PROVED)
    print(f"{proved}/{len(cells)} cells proved equal to the paper; {elapsed:.2f} s of CPU time", file=out)
    outputs = Outputs()
    outputs.latex(latex, lambda: table2_document(cells), args.pdf)
    data = {"cells": [{"mechanism": c.mechanism, "order": c.order_label, **derivation_json(c.derivation)}
                      for c in cells], "proved": proved, "cpu_seconds": round(elapsed, 3)}
    outputs.text("--json", out_json, lambda: json.dumps(data, indent=2, ensure_ascii=False))
    return outputs.status(OK if proved == len(cells) else NOT_AS_EXPECTED)
