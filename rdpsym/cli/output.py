"""The files a command writes: checked before any work, each written even when another fails.

A command asked for several outputs (the console result, ``--latex``,
``--pdf``, ``--json``, ``--markdown``, ``--output``) writes every one it can:
a missing pdflatex does not cost the JSON.  Each failure is reported on
standard error as it happens, and the exit status says an output failed
(:data:`OUTPUT_FAILED`) once the rest is written.  Paths are checked before
any work starts: an output in a folder that does not exist, or that names a
folder, is an error naming the option.  Every file is written whole or not at
all (:mod:`rdpsym.foundations.files`): a full disk leaves the previous file.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import sys
import tempfile
import warnings
from collections.abc import Callable
from pathlib import Path

from rdpsym.foundations.errors import LatexError, ParameterError, RdpSymError, must
from rdpsym.foundations.files import is_special, replace_file, replace_together
from rdpsym.render.pdf import LatexLayoutWarning, compile_pdf

#: Exit statuses of every command.
OK = 0
#: The mathematics did not come out as required (a claim below its expected status, a cell not proved).
NOT_AS_EXPECTED = 1
#: The input was refused before any work (a ParameterError), argparse's usage error, or the work stopped with another
#: RdpSymError saying why (a definition that does not converge).
BAD_INPUT = 2
#: The work was done, but at least one output could not be written (the others were).
OUTPUT_FAILED = 3

STATUSES = (f"exit status: {OK} done; {NOT_AS_EXPECTED} a result is not as required (check, table2); "
            f"{BAD_INPUT} the input was refused before any work, or the work stopped with rdpsym's error saying why; "
            f"{OUTPUT_FAILED} an output could not be "
            "written (every other output was)")


def check_path(path: str | None, option: str, suffixes: tuple[str, ...] = ()) -> Path | None:
    """An output path, checked before any work: its folder exists and can be written, it is not itself a
    folder, and an existing file there can be overwritten.

    ``-`` (standard output) passes as ``Path("-")``; ``suffixes``, when given, are the file endings the
    option accepts.
    """
    if path is None:
        return None
    if path == "-":
        return Path("-")
    if not path or "\0" in path:
        raise ParameterError(must(option, "a file name", repr(path)))
    p = Path(path)
    if suffixes and p.suffix.lower() not in suffixes:
        endings = ", ".join(suffixes[:-1]) + (" or " if len(suffixes) > 1 else "") + suffixes[-1]
        raise ParameterError(must(option, f"a file name ending in {endings}", repr(path)))
    try:
        if p.is_dir():
            raise ParameterError(must(option, "a file, not a folder", repr(path)))
        folder = p.resolve().parent
        if not folder.is_dir():
            raise ParameterError(must(option, "a file in an existing folder",
                                      f"{path!r} (no folder {str(p.parent)!r})"))
        if not os.access(folder, os.W_OK | os.X_OK):
            raise ParameterError(must(option, "a file in a folder you can write to",
                                      f"{path!r} (the folder {str(p.parent)!r} is not writable)"))
        if p.exists() and not os.access(p, os.W_OK):
            raise ParameterError(must(option, "a file you can write", f"{path!r} (it exists and is read-only)"))
        mode = p.stat().st_mode if p.exists() else 0
        if stat.S_ISBLK(mode) or stat.S_ISSOCK(mode):
            # a disk or a socket: never written into (a character device such as /dev/null, or a FIFO, is written
            # into; a regular file is replaced whole)
            raise ParameterError(must(option, "a regular file, a character device such as /dev/null, or a FIFO",
                                      f"{path!r} (a block device or a socket)"))
        if not (stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)):
            # A regular file is replaced by a new file made beside it: a folder the permissions allow may still
            # refuse one (/proc, /sys: "--json /proc/version" ran the whole check, then failed; a probe).
            try:
                with tempfile.NamedTemporaryFile(dir=folder, prefix=".rdpsym-probe-"):
                    pass
            except OSError as exc:
                raise ParameterError(must(option, "a file in a folder where files can be made",
                                          f"{path!r} ({exc.strerror} in {str(folder)!r})")) from None
    except OSError as exc:  # a name too long, a loop of links: the system's reason
        raise ParameterError(must(option, "a file name the system accepts", f"{path!r} ({exc.strerror})")) from None
    return p


def check_latex(latex: str | None, pdf: bool) -> Path | None:
    """``--latex FILE`` and ``--pdf`` (the PDF is built beside FILE), both checked before any work."""
    if pdf and not latex:
        raise ParameterError(must("--pdf", "used with --latex FILE (the PDF is built beside it)", "no --latex"))
    if pdf and latex == "-":
        raise ParameterError(must("--pdf", "used with --latex FILE, not - (the PDF is built beside the file)",
                                  "--latex -"))
    path = check_path(latex, "--latex")
    if pdf and path is not None:
        if is_special(path):
            raise ParameterError(must("--pdf", "used with --latex FILE, a regular file (the PDF is built beside it)",
                                      f"--latex {latex} (a device or a FIFO)"))
        check_path(str(path.with_suffix(".pdf")), "--pdf")
    return path


def check_folder(path: str, option: str) -> Path:
    """An output folder, made if missing: checked before any work (it is a folder, or can be made, and
    can be written)."""
    if not path or "\0" in path:
        raise ParameterError(must(option, "a folder name", repr(path)))
    p = Path(path)
    try:
        if p.exists() and not p.is_dir():
            raise ParameterError(must(option, "a folder (made if missing)", f"{path!r}, a file"))
        existing = p if p.exists() else next((a for a in p.resolve().parents if a.exists()), None)
        if existing is None or not existing.is_dir():
            raise ParameterError(must(option, "a folder (made if missing)", f"{path!r} (a file is in the way)"))
        if not os.access(existing, os.W_OK | os.X_OK):
            raise ParameterError(must(option, "a folder you can write to", f"{path!r} ({str(existing)!r} is not "
                                                                          "writable)"))
        try:  # (what the permissions allow, /proc may still refuse: see check_path)
            os.rmdir(tempfile.mkdtemp(dir=existing, prefix=".rdpsym-probe-"))
        except OSError as exc:
            raise ParameterError(must(option, "a folder where files can be made",
                                      f"{path!r} ({exc.strerror} in {str(existing)!r})")) from None
    except OSError as exc:
        raise ParameterError(must(option, "a folder name the system accepts", f"{path!r} ({exc.strerror})")) from None
    return p


def console(*paths: Path | None):
    """Where the command's own summary goes: standard error when an output is ``-`` (standard output
    then carries that output alone, e.g. a LaTeX document to pipe into a file), else standard output."""
    return sys.stderr if any(p is not None and str(p) == "-" for p in paths) else sys.stdout


class Outputs:
    """Write a command's outputs one by one; remember which failed.

    >>> out = Outputs()
    >>> out.write("--json", lambda: None)
    True
    >>> out.status(OK)
    0
    """

    def __init__(self) -> None:
        self.failed: list[str] = []

    def write(self, option: str, action: Callable[[], object]) -> bool:
        """Run ``action`` (which writes one output); an error is reported and remembered, not raised."""
        try:
            action()
            return True
        except (OSError, RdpSymError) as exc:  # a LatexError (no pdflatex, a TeX error) is an RdpSymError
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            print(f"rdpsym: error: {option}: {reason}", file=sys.stderr)
            self.failed.append(option)
            return False

    @staticmethod
    def console_text(json_path: Path | str | None) -> bool:
        """Whether a command's text report goes to the console: not where ``--json -`` writes the JSON there."""
        return json_path is None or str(json_path) != "-"

    def text(self, option: str, path: Path | None, content: str | Callable[[], str]) -> bool:
        """Write ``content`` to ``path`` (``-``: standard output) and say so.  ``content`` may be a function
        that builds it: it is called only when the output is asked for (a report costs seconds to typeset)."""
        if path is None:
            return True

        def write() -> None:
            text = content() if callable(content) else content
            if str(path) == "-":
                print(text)
                return
            replace_file(path, text if text.endswith("\n") else text + "\n")  # whole, or the old file stays
            print(f"wrote {path}")

        return self.write(option, write)

    def latex(self, path: Path | None, tex: str | Callable[[], str], pdf: bool) -> None:
        """Write a standalone document and, with ``pdf``, build its PDF beside it; ``tex`` may be a function
        that builds it, as for :meth:`text`.

        The two are one set: the PDF is built from the new document in a scratch folder first, then both
        replace the old pair together.  If the PDF cannot be built (no pdflatex, a TeX error), the document
        is still written (compile it yourself) and an old PDF beside it, which no longer matches it, is
        removed: never a new .tex beside the PDF of an old one.
        """
        if path is None:
            return
        if not pdf or str(path) == "-":
            self.text("--latex", path, tex)
            return
        made: list[str] = []
        if not self.write("--latex", lambda: made.append(tex() if callable(tex) else tex)):
            return  # the document itself could not be made (reported): nothing is written
        text = made[0] if made[0].endswith("\n") else made[0] + "\n"
        pdf_path = path.with_suffix(".pdf")

        def build() -> None:
            with tempfile.TemporaryDirectory(prefix="rdpsym-latex-") as scratch:
                draft = Path(scratch) / path.name
                draft.write_text(text, encoding="utf-8")
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always", LatexLayoutWarning)
                    try:
                        built = compile_pdf(draft)
                    except LatexError as exc:  # (named by the user's file: the scratch folder is gone; a probe)
                        raise LatexError(str(exc).replace(str(draft), str(path))) from None
                replace_together({path: text, pdf_path: lambda p: shutil.copyfile(built, p)})
            print(f"wrote {path}")
            print(f"wrote {pdf_path}")
            for w in caught:  # the PDF is written; say where its layout is off, without a Python traceback
                print(f"rdpsym: warning: {str(w.message).replace(str(draft), str(path))}", file=sys.stderr)

        if self.write("--pdf", build):
            return
        if self.text("--latex", path, text) and pdf_path.exists():
            with contextlib.suppress(OSError):
                pdf_path.unlink()
                print(f"removed {pdf_path} (built from an older document)", file=sys.stderr)

    def status(self, status: int) -> int:
        """``status``, or :data:`OUTPUT_FAILED` when an output failed and the work itself was fine."""
        if self.failed and status == OK:
            return OUTPUT_FAILED
        return status


__all__ = ["BAD_INPUT", "NOT_AS_EXPECTED", "OK", "OUTPUT_FAILED", "Outputs", "STATUSES", "check_folder", "check_latex",
           "check_path", "console"]
