"""Faults while writing (issue 25, "Atomic outputs"): a full disk or a file-size limit in the middle of a write
leaves the previous files as they were, replaces files written together as a set or not at all, and leaves
no temporary file behind.

The limit is the kernel's own (RLIMIT_FSIZE in a child process, as ``ulimit -f``): Python ignores SIGXFSZ, so
a write past it fails with EFBIG, exactly as on a full disk.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

resource = pytest.importorskip("resource")  # POSIX only


def _run_limited(code: str, limit_bytes: int, cwd: Path) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh Python whose files may not grow past ``limit_bytes``."""
    prefix = f"import resource; resource.setrlimit(resource.RLIMIT_FSIZE, ({limit_bytes}, {limit_bytes}))\n"
    return subprocess.run([sys.executable, "-c", prefix + textwrap.dedent(code)], cwd=cwd, capture_output=True,
                          text=True, timeout=300)


def _good_pair(folder: Path) -> tuple[str, str]:
    folder.mkdir()
    (folder / "rdpsym_reference.json").write_text('{"meta": {"dps": 20}, "rows": []}\n')
    (folder / "rdpsym_reference.csv").write_text("mechanism,order\n")
    return (folder / "rdpsym_reference.json").read_text(), (folder / "rdpsym_reference.csv").read_text()


def test_a_reference_table_past_the_file_size_limit_keeps_the_previous_pair(tmp_path):
    """The issue's input: ``rdpsym reference --dps 40 --out refs`` under ``ulimit -f 4`` replaced a good JSON by a
    truncated one beside the old CSV.  Now neither file changes, and no temporary file is left."""
    out = tmp_path / "refs"
    before = _good_pair(out)
    code = f"""
        import rdpsym.accounting.reference as reference
        rows = [{{"mechanism": "gaussian", "parameters": "sigma=1", "order": str(k), "value": "1" * 40}}
                for k in range(2000)]                         # far more than the 4 KB allowed
        reference.reference_rows = lambda *args, **kwargs: rows
        try:
            reference.write_reference({str(out)!r}, dps=40)
        except OSError as exc:
            print("refused", exc.errno)
        """
    done = _run_limited(code, 4096, tmp_path)
    assert "refused 27" in done.stdout, done.stdout + done.stderr  # EFBIG
    after = (out / "rdpsym_reference.json").read_text(), (out / "rdpsym_reference.csv").read_text()
    assert after == before
    assert sorted(p.name for p in out.iterdir()) == ["rdpsym_reference.csv", "rdpsym_reference.json"]
    json.loads(after[0])


def test_a_csv_that_fails_after_its_json_was_written_replaces_neither(tmp_path):
    """Files written together are replaced together: the JSON is complete, the CSV's write fails, and the JSON on
    disk is still the old one (not a new JSON beside an old CSV)."""
    from rdpsym.foundations.files import replace_together

    out = tmp_path / "refs"
    before = _good_pair(out)

    def failing(path: Path) -> None:
        path.write_text("mechanism,order\ngaussian,2\n")
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError, match="No space left"):
        replace_together({out / "rdpsym_reference.json": '{"rows": [1]}\n', out / "rdpsym_reference.csv": failing})
    after = (out / "rdpsym_reference.json").read_text(), (out / "rdpsym_reference.csv").read_text()
    assert after == before and len(list(out.iterdir())) == 2


def test_a_command_output_past_the_limit_keeps_the_old_file_and_says_so(tmp_path):
    """``rdpsym derive laplace --latex doc.tex`` with a 1 KB file-size limit: the document does not fit, the
    command exits 3 (an output failed) naming the option, and the old doc.tex is untouched."""
    old = "% the previous document\n"
    (tmp_path / "doc.tex").write_text(old)
    code = """
        import sys
        from rdpsym.cli.main import main
        sys.exit(main(["derive", "laplace", "--latex", "doc.tex"]))
        """
    done = _run_limited(code, 1024, tmp_path)
    assert done.returncode == 3, done.stdout + done.stderr
    assert "--latex" in done.stderr and "too large" in done.stderr.lower()
    assert (tmp_path / "doc.tex").read_text() == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["doc.tex"]


def test_permissions_follow_the_umask_as_an_ordinary_write_would(tmp_path):
    import os
    import stat

    from rdpsym.foundations.files import replace_file

    mask = os.umask(0o022)
    try:
        path = replace_file(tmp_path / "a.txt", "x")
        drawn = replace_file(tmp_path / "b.txt", lambda p: p.write_text("y"))
    finally:
        os.umask(mask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644 == stat.S_IMODE(drawn.stat().st_mode)
