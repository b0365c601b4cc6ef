"""``rdpsym check``: prove or check claims, the built-in catalogue's or your own.

    rdpsym check                                      the catalogue (rdpsym.catalogue)
    rdpsym check myclaims/ --latex report.tex --pdf --json results.json --markdown summary.md
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rdpsym.claims.runner import Report, check, load_all
from rdpsym.cli.output import NOT_AS_EXPECTED, OK, Outputs, check_path, console
from rdpsym.foundations.errors import ParameterError, must
from rdpsym.render.claims import check_typesetting, report_json, report_latex, report_markdown


def register(sub) -> None:
    p = sub.add_parser("check", help="prove or check claims: the paper's (default) or your own files/folders")
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="claim files or folders (default: the built-in catalogue, rdpsym.catalogue)")
    p.add_argument("--latex", metavar="FILE", help="write a standalone LaTeX report of every derivation")
    p.add_argument("--pdf", action="store_true", help="also build the report's PDF with pdflatex")
    p.add_argument("--json", metavar="FILE", help="write machine-readable results")
    p.add_argument("--markdown", metavar="FILE", help="write the summary table (source, claim, file, status)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=run)


def progress_bar(stream=sys.stderr):
    """A one-line progress bar for checking claims."""
    def show(done: int, total: int, current: str) -> None:
        width = 30
        filled = width * done // max(total, 1)
        stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {current[:40]:<40}")
        if done == total:
            stream.write("\n")
        stream.flush()
    return show


def run(args: argparse.Namespace) -> int:
    if args.pdf and not args.latex:
        raise ParameterError(must("--pdf", "used with --latex FILE (the PDF is built beside it)", "no --latex"))
    latex = check_path(args.latex, "--latex")
    json_path = check_path(args.json, "--json")
    markdown = check_path(args.markdown, "--markdown")
    claims, failures, paths, load_seconds = load_all([Path(p) for p in args.paths] or None)
    if latex is not None:
        check_typesetting(claims)  # a claim whose strings cannot be typeset is refused before any work
    report = check(claims, None if args.quiet else progress_bar())
    report = Report(report.results, failures, report.seconds + load_seconds, paths)
    print(report, file=console(latex, json_path, markdown))
    outputs = Outputs()
    outputs.text("--json", json_path, json.dumps(report_json(report), indent=2, ensure_ascii=False))
    outputs.latex(latex, report_latex(report), args.pdf)
    outputs.text("--markdown", markdown, report_markdown(report))
    return outputs.status(OK if report.ok else NOT_AS_EXPECTED)


__all__ = ["progress_bar", "register", "run"]
