"""``rdpsym check``: prove or check claims, the built-in catalogue's or your own.

    rdpsym check                                      the catalogue (rdpsym.catalogue)
    rdpsym check myclaims/ --latex report.tex --pdf --json results.json --markdown summary.md
    rdpsym check myclaims/ --timeout 30               each file's load and each claim's check: at most 30 CPU seconds
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rdpsym.claims.runner import DEFAULT_TIMEOUT, time_limit
from rdpsym.claims.runner import run as run_claims
from rdpsym.cli.help import SUMMARIES
from rdpsym.cli.output import NOT_AS_EXPECTED, OK, Outputs, check_latex, check_path, console
from rdpsym.foundations.errors import ParameterError, must
from rdpsym.render.claims import check_typesetting, report_json, report_latex, report_markdown


def register(sub) -> None:
    p = sub.add_parser("check", help=SUMMARIES["check"])
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="claim files or folders (default: the built-in catalogue, rdpsym.catalogue)")
    p.add_argument("--latex", metavar="FILE", help="write a standalone LaTeX report of every derivation")
    p.add_argument("--pdf", action="store_true", help="also build the report's PDF with pdflatex")
    p.add_argument("--json", metavar="FILE", help="write machine-readable results")
    p.add_argument("--markdown", metavar="FILE", help="write the summary table (source, claim, file, status)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--timeout", default=None, metavar="SECONDS",
                   help=f"the CPU seconds each file's load and each claim's check may take (default "
                        f"{DEFAULT_TIMEOUT:g}: CPU time, so a busy machine gives the outcomes of an idle one; one "
                        "that waits instead is stopped after many times as many seconds of wall-clock time); a "
                        "claim stopped is reported as unknown, 'timed out after N CPU seconds'")
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
    for given in args.paths:  # (a path that is not there was a failed load and status 1, after the run: a probe)
        path = Path(given)
        if not path.exists() or (path.is_file() and path.suffix != ".py"):
            raise ParameterError(must("PATH", "an existing claim file (*.py) or folder of them",
                                      f"{given!r}" + ("" if path.exists() else " (no such file or folder)")))
    latex = check_latex(args.latex, args.pdf)
    json_path = check_path(args.json, "--json")
    markdown = check_path(args.markdown, "--markdown")
    timeout = time_limit(args.timeout if args.timeout is not None else DEFAULT_TIMEOUT, "--timeout")
    # A claim whose strings cannot be typeset is refused once every file is loaded, before any check.
    shown = not args.quiet and getattr(sys.stderr, "isatty", lambda: False)()  # (nothing when piped: the README)
    report = run_claims([Path(p) for p in args.paths] or None, progress_bar() if shown else None, timeout,
                        before_check=check_typesetting if latex is not None else None)
    print(report, file=console(latex, json_path, markdown))
    outputs = Outputs()
    outputs.text("--json", json_path, lambda: json.dumps(report_json(report), indent=2, ensure_ascii=False))
    outputs.latex(latex, lambda: report_latex(report), args.pdf)
    outputs.text("--markdown", markdown, lambda: report_markdown(report))
    return outputs.status(OK if report.ok else NOT_AS_EXPECTED)


__all__ = ["progress_bar", "register", "run"]
