"""pdflatex's time limit counts its CPU time (a busy machine builds what an idle one builds)."""

from __future__ import annotations

import shutil
import sys

import pytest

from rdpsym.foundations.errors import LatexError
from rdpsym.render.pdf import compile_pdf

pytestmark = [
    pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed"),
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a CPU limit on another process: Linux"),
]


def test_a_document_that_loops_is_stopped_after_its_cpu_seconds(tmp_path, watchdog):
    tex = tmp_path / "loops.tex"
    tex.write_text("\\documentclass{article}\n\\def\\loop{\\loop}\n\\begin{document}\n\\loop\n\\end{document}\n")
    with watchdog(120, "pdflatex on a document that loops"), \
            pytest.raises(LatexError, match=r"did not finish .*loops\.tex within 1 CPU seconds$"):
        compile_pdf(tex, timeout=1)


def test_a_document_compiles_under_the_limit(tmp_path):
    tex = tmp_path / "fine.tex"
    tex.write_text("\\documentclass{article}\n\\begin{document}\nHello.\n\\end{document}\n")
    assert compile_pdf(tex, timeout=60).read_bytes().startswith(b"%PDF")
