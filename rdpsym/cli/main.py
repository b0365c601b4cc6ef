"""Command line: ``rdpsym table2``, ``rdpsym derive`` and ``rdpsym check``.

    rdpsym table2
    rdpsym check myproofs/ --latex report.tex --json results.json
    rdpsym epsilon --mechanism sampled-gaussian --set q=0.01 --set sigma=1.1 --steps 10000 --delta 1e-5
    rdpsym derive laplace --order 2 --set scale=1/2 --dps 40
    rdpsym derive laplace --latex laplace.tex --pdf
    rdpsym plot laplace:scale=1 gaussian:sigma=1 --output curves.png
"""

from __future__ import annotations

import argparse
import sys
import time

import mpmath
import sympy as sp

from rdpsym.foundations.errors import ParameterError, RdpSymError, must
from rdpsym.foundations.reading import exact, parse_order
from rdpsym.foundations.symbols import alpha
from rdpsym.laws.mechanisms import REGISTRY

#: The built-ins ``rdpsym derive`` derives from their densities (their symbols and defaults: the registry).
DERIVED = [name for name, d in REGISTRY.items() if d.derive]


def _parse_sets(mechanism: str, items: list[str]) -> dict[str, sp.Expr]:
    valid = sorted([*REGISTRY[mechanism].names, "alpha"])
    out = {}
    for item in items:
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep:
            raise ParameterError(must("--set", "NAME=VALUE", repr(item)))
        if name not in valid:
            raise ParameterError(must("--set NAME", f"one of {', '.join(valid)} for {mechanism}", repr(name)))
        parsed = exact(value.strip(), f"--set {name}")
        if parsed.free_symbols or not parsed.is_number:
            raise ParameterError(must(f"--set {name}", "a number (e.g. 2, 0.5, 1/3)", repr(value)))
        out[name] = parsed
    return out


def _derive(args: argparse.Namespace) -> int:
    sets = _parse_sets(args.mechanism, args.set or [])
    if args.dps < 5:
        raise ParameterError(must("--dps", "an integer >= 5", args.dps))
    declared = REGISTRY[args.mechanism]
    factory, symbols, defaults = declared.factory, declared.symbols, declared.defaults
    given = {n: v for n, v in sets.items() if n in symbols}
    # A parameter with a default (the sensitivity) takes it; the others stay symbols unless given.
    # Validate every value (and the order) before any derivation work starts.
    factory(**{n: given.get(n, defaults.get(n, sym)) for n, sym in symbols.items()})
    order = args.order if args.order is not None else sets.get("alpha", "alpha")
    order = parse_order(alpha if order == "alpha" else order)
    mech = factory(**{n: given.get(n, defaults.get(n, sym)) for n, sym in symbols.items()})
    if args.pdf and not args.latex:
        raise ParameterError(must("--pdf", "used with --latex FILE (the PDF is built beside it)", "no --latex"))
    _check_output(args.latex, "--latex")
    d = mech.rdp(order)
    values = {symbols[n]: v for n, v in given.items() if n not in defaults}
    if "alpha" in sets and d.order == alpha:
        values[alpha] = sets["alpha"]
    free = d.result.free_symbols if isinstance(d.result, sp.Basic) else set()
    missing = sorted(str(s) for s in free - set(values))
    value = d.evalf(values, dps=args.dps) if values and not missing else None
    if args.latex:
        from rdpsym.render.documents import mechanism_document

        at = (values, value, args.dps) if value is not None else None
        _write_latex(mechanism_document(mech, d, at), args.latex, args.pdf)
    print(d)
    if not values:
        return 0
    if missing:
        print(f"(set {', '.join(missing)} to get a number)")
        return 0
    shown = ", ".join(f"{s} = {v}" for s, v in values.items())
    print(f"value at {shown} ({args.dps} digits):")
    print("oo" if mpmath.isinf(value) else mpmath.nstr(value, args.dps))
    return 0


def _check_output(path: str | None, option: str) -> None:
    """An output file's folder must exist: say so before any work starts."""
    from pathlib import Path

    if path and path != "-" and not Path(path).resolve().parent.is_dir():
        raise ParameterError(must(option, "a file in an existing folder", repr(path)))


def _write_latex(tex: str, path: str, pdf: bool) -> None:
    """Write a standalone document to ``path`` (``-``: standard output) and, with ``pdf``, build it."""
    import warnings
    from pathlib import Path

    from rdpsym.foundations.errors import LatexError
    from rdpsym.render.pdf import LatexLayoutWarning, compile_pdf

    if path == "-":
        print(tex)
        return
    Path(path).write_text(tex, encoding="utf-8")
    print(f"wrote {path}")
    if pdf:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", LatexLayoutWarning)
            try:
                print(f"wrote {compile_pdf(path)}")
            except LatexError as exc:
                raise RdpSymError(str(exc)) from None
        for w in caught:  # the PDF is written; say where its layout is off, without a Python traceback
            print(f"rdpsym: warning: {w.message}", file=sys.stderr)


def _table2(args: argparse.Namespace) -> int:
    from rdpsym.derive.table2 import table2

    if args.pdf and not args.latex:
        raise ParameterError(must("--pdf", "used with --latex FILE (the PDF is built beside it)", "no --latex"))
    _check_output(args.latex, "--latex")
    start = time.process_time()
    cells = table2()
    elapsed = time.process_time() - start
    print("Mironov 2017, Table II, derived from the mechanisms' densities")
    print()
    width = max(len(c.mechanism) for c in cells)
    for c in cells:
        d = c.derivation
        print(f"{c.mechanism:<{width}}  {c.order_label}:  {sp.sstr(d.result)}")
        print(f"{'':<{width}}  status: {d.status}  [{d.evidence[0]}]")
    print()
    proved = sum(1 for c in cells if c.derivation.status == "proved")
    print(f"{proved}/{len(cells)} cells proved equal to the paper; {elapsed:.2f} s CPU")
    if args.latex:
        from rdpsym.render.documents import table2_document

        _write_latex(table2_document(cells), args.latex, args.pdf)
    return 0 if proved == len(cells) else 1


def _check(args: argparse.Namespace) -> int:
    from pathlib import Path

    import json

    from rdpsym.claims.runner import progress_bar, run
    from rdpsym.render.claims import report_json, report_latex, report_markdown

    if args.pdf and not args.latex:
        raise ParameterError(must("--pdf", "used with --latex FILE (the PDF is built beside it)", "no --latex"))
    for path, option in ((args.latex, "--latex"), (args.json, "--json"), (args.markdown, "--markdown")):
        _check_output(path, option)
    report = run([Path(p) for p in args.paths] or None, progress=None if args.quiet else progress_bar())
    print(report)
    if args.json:
        Path(args.json).write_text(json.dumps(report_json(report), indent=2, ensure_ascii=False) + "\n")
    if args.latex:
        _write_latex(report_latex(report), args.latex, args.pdf)
    if args.markdown:
        Path(args.markdown).write_text(report_markdown(report) + "\n")
    return 0 if report.ok else 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rdpsym", description="Rényi differential privacy, derived and checked.")
    sub = parser.add_subparsers(dest="command", required=True)
    t2 = sub.add_parser("table2", help="derive Mironov's Table II and show how each cell was established")
    t2.add_argument("--latex", metavar="FILE", help="also write the table as a standalone LaTeX document (- for stdout)")
    t2.add_argument("--pdf", action="store_true", help="also build FILE.pdf with pdflatex")
    t2.set_defaults(run=_table2)
    dv = sub.add_parser("derive", help="derive one mechanism's Rényi divergence")
    dv.add_argument("mechanism", choices=sorted(DERIVED))
    dv.add_argument("--order", default=None, help="alpha (symbolic, default), a number, 1 (KL) or inf")
    dv.add_argument("--set", action="append", metavar="NAME=VALUE", help="give a parameter (or alpha) a value")
    dv.add_argument("--dps", type=int, default=30, help="digits of the value printed (default 30)")
    dv.add_argument("--latex", metavar="FILE", help="write the derivation as a standalone LaTeX document (- for stdout)")
    dv.add_argument("--pdf", action="store_true", help="also build FILE.pdf with pdflatex (says so when it is missing)")
    dv.set_defaults(run=_derive)
    ck = sub.add_parser("check", help="prove or check claims: the paper's (default) or your own files/folders")
    ck.add_argument("paths", nargs="*", metavar="PATH", help="claim files or folders (default: the built-in catalogue, rdpsym.catalogue)")
    ck.add_argument("--latex", metavar="FILE", help="write a standalone LaTeX report of every derivation")
    ck.add_argument("--pdf", action="store_true", help="also build the report's PDF with pdflatex")
    ck.add_argument("--json", metavar="FILE", help="write machine-readable results")
    ck.add_argument("--markdown", metavar="FILE", help="write the summary table (source, claim, file, status)")
    ck.add_argument("--quiet", action="store_true", help="no progress bar")
    ck.set_defaults(run=_check)
    from rdpsym.cli.accounting import add_parsers
    from rdpsym.cli.plot import add_parser as add_plot_parser

    add_parsers(sub)
    add_plot_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except RdpSymError as exc:
        print(f"rdpsym: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
