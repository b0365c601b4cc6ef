"""The README's first session stays true: every ``$ rdpsym ...`` line in a ``console`` block runs.

Each shown output line must appear in the command's output (``...`` stands for lines left out;
the CPU time of ``table2`` varies and is compared up to its number).
"""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest

from rdpsym.cli.main import main

README = Path(__file__).resolve().parents[1] / "README.md"


def _sessions() -> list[tuple[str, list[str]]]:
    sessions = []
    for block in re.findall(r"```console\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S):
        for chunk in re.split(r"^\$ ", block, flags=re.M)[1:]:
            command, *shown = chunk.rstrip("\n").split("\n")
            sessions.append((command, [s for s in shown if s.strip() and s.strip() != "..."]))
    return sessions


SESSIONS = _sessions()


def test_the_first_session_is_in_the_readme():
    commands = " ".join(c for c, _ in SESSIONS)
    for needed in ("rdpsym table2", "rdpsym derive laplace --latex", "rdpsym plot", "rdpsym epsilon"):
        assert needed in commands


@pytest.mark.parametrize(("command", "shown"), SESSIONS, ids=[c.split("--")[0].strip() for c, _ in SESSIONS])
def test_readme_command(command, shown, tmp_path, monkeypatch, capsys, request):
    argv = shlex.split(command)
    assert argv[0] == "rdpsym"
    if "--pdf" in argv and shutil.which("pdflatex") is None:
        request.getfixturevalue("compile_latex")  # skips locally, fails on CI
    monkeypatch.chdir(tmp_path)
    assert main(argv[1:]) == 0
    out = capsys.readouterr().out
    for line in shown:
        timed = re.match(r"(.*?)\d+\.\d+ s of (CPU|wall) time$", line)  # a timing varies: its text is kept
        assert (timed.group(1) in out) if timed else (line in out), line
