"""A crashed xdist worker's report says what the worker was doing (tests/crash_reports.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("xdist")
pytest.importorskip("pytest_timeout")

_TESTS = Path(__file__).resolve().parent


def _run(tmp_path, body: str, *options: str) -> str:
    (tmp_path / "test_crashes.py").write_text(textwrap.dedent(body))
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(_TESTS), os.environ.get("PYTHONPATH", "")])}
    environment.pop("RDPSYM_TEST_STACKS", None)  # (the inner run's folder is its own)
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "1", "-p", "crash_reports", "-p",
                           "no:cacheprovider", "-o", "addopts=", "--rootdir", str(tmp_path), *options,
                           str(tmp_path / "test_crashes.py")],
                          cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stdout + done.stderr
    return done.stdout


def test_a_worker_ended_by_a_fatal_signal_is_reported_with_its_test_and_its_stacks(tmp_path):
    out = _run(tmp_path, """
        import faulthandler

        def test_dies_in_a_function_of_its_own():
            faulthandler._sigsegv()
    """)
    report = out[out.index("crashed while running"):]
    assert "test_crashes.py::test_dies_in_a_function_of_its_own: begun with" in report
    assert "Segmentation fault" in report and "test_dies_in_a_function_of_its_own" in report.split("begun with")[1]


def test_a_worker_ended_by_pytest_timeout_is_reported_with_the_stacks_it_had_before(tmp_path):
    out = _run(tmp_path, """
        import time

        def waits_for_ever():
            while True:
                time.sleep(0.05)

        def test_hangs():
            waits_for_ever()
    """, "-o", "timeout=4", "-o", "timeout_method=thread")
    report = out[out.index("crashed while running"):]
    assert "test_crashes.py::test_hangs: begun with" in report
    assert "Timeout (0:00:02)" in report and "waits_for_ever" in report
