"""Writing documents and building them into PDFs with pdflatex.

A document compiles on its own with a stock TeX Live (``texlive-latex-base`` +
``texlive-latex-recommended`` on Debian).  :func:`compile_pdf` runs pdflatex
in a scratch folder as often as a table of contents needs, raises
:class:`~rdpsym.foundations.errors.LatexError` with the first error of the
log, and warns (:class:`LatexLayoutWarning`) when a line runs past the margin.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import signal
import subprocess
import tempfile
import warnings
from pathlib import Path

from rdpsym.foundations.budget_clocks import WALL_FACTOR
from rdpsym.foundations.errors import LatexError, LatexLayoutWarning
from rdpsym.foundations.files import replace_file

__all__ = ["LatexLayoutWarning", "OVERFULL_TOLERANCE_PT", "compile_pdf", "first_error", "overfull_lines", "pdflatex",
           "write_document"]


#: Lines wider than the text by more than this many TeX points are reported; below it the eye cannot tell.
OVERFULL_TOLERANCE_PT = 2.0


def write_document(tex: str, path: Path | str, pdf: bool = False) -> list[Path]:
    """Write ``tex`` to ``path`` (and the PDF beside it when ``pdf``); return the files written."""
    path = Path(path)
    replace_file(path, tex)
    written = [path]
    if pdf:
        written.append(compile_pdf(path))
    return written


def pdflatex() -> str:
    """The pdflatex executable, or a :class:`LatexError` saying how to install it."""
    exe = shutil.which("pdflatex")
    if exe is None:
        raise LatexError("pdflatex is not installed (not on PATH), so no PDF was built; the .tex file was written. "
                         "Install TeX Live (Debian/Ubuntu: apt-get install texlive-latex-recommended "
                         "texlive-fonts-recommended lmodern) and run again, or compile the .tex yourself.")
    return exe


def compile_pdf(tex_path: Path | str, timeout: float = 120) -> Path:
    """Compile ``tex_path`` with pdflatex in a scratch folder; the PDF lands beside the .tex.

    Raises :class:`LatexError` with the first error of the log when pdflatex
    reports one (``-halt-on-error``: no half-built PDF is left behind).  A
    document with a table of contents gets the passes it needs (until the
    contents stop changing).  Lines
    that run past the right margin are reported as a :class:`LatexLayoutWarning`.
    Each pass may take ``timeout`` seconds of pdflatex's CPU time (see :func:`_run_pdflatex`).
    """
    tex_path = Path(tex_path)
    exe = pdflatex()
    with tempfile.TemporaryDirectory(prefix="rdpsym-latex-") as tmp:
        shutil.copy(tex_path, Path(tmp) / "doc.tex")
        # A table of contents is read from the previous pass: rerun until it stops changing (the
        # first pass writes it, the second sets it and moves every page after it, the third
        # prints those pages' numbers).
        toc = Path(tmp) / "doc.toc"
        for _ in range(4):
            before = toc.read_bytes() if toc.exists() else None
            log = _run_pdflatex(exe, tex_path, Path(tmp), timeout)
            after = toc.read_bytes() if toc.exists() else None
            if before == after and "Rerun to get" not in log:
                break
        out = tex_path.with_suffix(".pdf")
        replace_file(out, lambda p: shutil.copyfile(Path(tmp) / "doc.pdf", p))  # whole, or the old PDF stays
    wide = overfull_lines(log)
    if wide:
        source = tex_path.read_text(encoding="utf-8").splitlines()
        points, line = max(wide)
        shown = source[line - 1].strip()[:100] if 0 < line <= len(source) else ""
        warnings.warn(LatexLayoutWarning(
            f"{tex_path}: {len(wide)} line(s) run past the right margin, by up to {points:.0f} pt; "
            f"the widest comes from line {line}: {shown}"), stacklevel=2)
    return out


def _run_pdflatex(exe: str, tex_path: Path, folder: Path, timeout: float) -> str:
    """One pdflatex pass in ``folder``: its log.

    The pass may take ``timeout`` seconds of pdflatex's CPU time (``RLIMIT_CPU``, set as it starts), so a
    busy machine builds what an idle one builds; one that waits instead of computing is stopped after
    ``WALL_FACTOR`` times as many seconds of wall-clock time.  Where no limit can be set on another
    process's CPU time (``resource.prlimit`` is Linux's), the limit is ``timeout`` seconds of wall-clock time.
    """
    # No shell escape, and TeX may open files only below the document's folder (kpathsea's paranoid mode; its own
    # packages it finds by its search): author math is checked for \\input, \\write18 and the like first
    # (render.prose.check_math), and this holds where a check is ever missed.
    environment = {**os.environ, "openin_any": "p", "openout_any": "p", "shell_escape": "f"}
    process = subprocess.Popen([exe, "-no-shell-escape", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"],
                               cwd=folder, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               errors="replace")
    limited = _limit_cpu(process.pid, timeout)
    wall = WALL_FACTOR * timeout if limited else timeout
    try:
        stdout, _ = process.communicate(timeout=wall)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        raise LatexError(f"pdflatex did not finish {tex_path} within {wall:g} s of wall-clock time") from None
    if limited and process.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        raise LatexError(f"pdflatex did not finish {tex_path} within {timeout:g} CPU seconds")
    log = (folder / "doc.log").read_text(errors="replace") if (folder / "doc.log").exists() else stdout
    if process.returncode != 0 or not (folder / "doc.pdf").exists():
        raise LatexError(f"pdflatex failed on {tex_path}:\n{first_error(log)}")
    return log


def _limit_cpu(pid: int, seconds: float) -> bool:
    """Limit process ``pid`` to ``seconds`` of CPU time (whole seconds, rounded up); whether it could be done."""
    try:
        import resource

        limit = max(1, math.ceil(seconds))
        resource.prlimit(pid, resource.RLIMIT_CPU, (limit, limit + 1))  # SIGXCPU at the first, SIGKILL after
    except (ImportError, AttributeError, OSError, ValueError):
        return False
    return True


_OVERFULL = re.compile(r"Overfull \\hbox \(([\d.]+)pt too wide\) (?:in paragraph at lines|in alignment at lines|"
                       r"detected at line) (\d+)")


def overfull_lines(log: str, tolerance: float = OVERFULL_TOLERANCE_PT) -> list[tuple[float, int]]:
    """``(points too wide, source line)`` of each line of a pdflatex log that sticks out by more than ``tolerance``.

    >>> overfull_lines("Overfull \\\\hbox (31.7pt too wide) in paragraph at lines 12--13")
    [(31.7, 12)]
    """
    return [(float(pt), int(line)) for pt, line in _OVERFULL.findall(log) if float(pt) > tolerance]


def first_error(log: str) -> str:
    """The first ``!`` error of a TeX log and the lines after it (where TeX shows the context)."""
    lines = log.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("!"):
            return "\n".join(lines[i:i + 6])
    return "\n".join(lines[-15:])
