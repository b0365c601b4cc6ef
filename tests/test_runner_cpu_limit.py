"""``rdpsym check``'s time limit counts CPU time: a busy machine gives the outcomes of an idle one.

The limit of each file's load and each claim's check is CPU seconds of the worker process and of the
processes it starts; a worker that waits instead of computing is stopped only by the wall-clock backstop
(``WALL_FACTOR`` times the limit).  Elapsed times are only ever bounded from below here (a worker cannot be
stopped by the backstop before the backstop's time), or generously from above to detect a hang.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from rdpsym.claims.runner import _can_fork, run
from rdpsym.foundations.budget_clocks import WALL_FACTOR
from rdpsym.foundations.record import Status

pytestmark = pytest.mark.skipif(not _can_fork(), reason="claims run in a worker process only where it can fork")

_HEADER = """
import os, subprocess, sys, time
from rdpsym.claims import AtMost, Claim, Verdict


def claim(name, side):
    return Claim(name, "", "", "", (AtMost(side, 1, "0 is at most 1", symbolic=False),), Verdict.CHECKED)
"""


def _claims(tmp_path: Path, name: str, body: str) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / f"{name}.py").write_text(_HEADER + textwrap.dedent(body))
    return folder


def _evidence(result) -> str:
    return " ".join(str(e) for step in result.steps for e in step.evidence)


def test_a_claim_that_waits_past_its_limit_is_not_stopped_at_it(tmp_path):
    # 1 s of sleep (no CPU) under a limit of 0.3 CPU seconds: a wall-clock limit stopped it at 0.3 s.
    folder = _claims(tmp_path, "waits", """
        def waits():
            time.sleep(1.0)
            return 0

        CLAIM = claim("waits", waits)
    """)
    report = run([folder], timeout=0.3)
    assert not report.failures
    [result] = report.results
    assert result.verdict is Status.CHECKED, _evidence(result)


def test_a_claim_that_waits_for_ever_is_stopped_by_the_wall_clock_backstop_only(tmp_path):
    folder = _claims(tmp_path, "waits_for_ever", """
        def waits():
            time.sleep(600)
            return 0

        CLAIM = claim("waits_for_ever", waits)
    """)
    limit = 0.1
    started = time.monotonic()
    report = run([folder], timeout=limit)
    elapsed = time.monotonic() - started
    [result] = report.results
    assert result.verdict is Status.UNKNOWN
    assert "wall-clock" in _evidence(result) and "CPU seconds" in _evidence(result), _evidence(result)
    assert elapsed >= WALL_FACTOR * limit  # not at its limit: only once the backstop's time had passed


def test_a_claim_or_a_load_that_burns_cpu_past_its_limit_is_stopped_as_out_of_cpu_time(tmp_path, watchdog):
    folder = _claims(tmp_path, "burns", """
        def burns():
            while True:
                pass

        def zero():
            return 0

        CLAIMS = [claim("burns", burns), claim("after", zero)]
    """)
    (folder / "burns_at_import.py").write_text("while True:\n    pass\n")
    with watchdog(120, "claims that burn CPU"):
        report = run([folder], timeout=0.5)
    burns, after = report.results
    assert burns.verdict is Status.UNKNOWN
    assert "timed out after 0.5 CPU seconds" in _evidence(burns), _evidence(burns)
    assert after.verdict is Status.CHECKED  # the claim after the one stopped still ran
    assert [(f.path.name, f.problem) for f in report.failures] == [
        ("burns_at_import.py", "timed out after 0.5 CPU seconds while loading")]


def test_the_cpu_time_of_processes_a_claim_starts_counts_and_they_are_stopped_with_it(tmp_path, watchdog):
    # The worker waits (no CPU of its own) for a child that computes: the child's CPU time is the claim's.
    marker = tmp_path / "child.pid"
    folder = _claims(tmp_path, "starts_a_process", f"""
        def delegates():
            child = subprocess.Popen([sys.executable, "-c", "while True: pass"])
            with open({str(marker)!r}, "w") as f:
                f.write(str(child.pid))
            child.wait()
            return 0

        CLAIM = claim("delegates", delegates)
    """)
    with watchdog(120, "a claim whose child burns CPU"):
        report = run([folder], timeout=0.5)
    [result] = report.results
    assert result.verdict is Status.UNKNOWN
    assert "timed out after 0.5 CPU seconds" in _evidence(result), _evidence(result)
    child = int(marker.read_text())
    for _ in range(1000):  # (bounded only to detect a child that was never stopped)
        if not _alive(child):
            break
        time.sleep(0.01)
    assert not _alive(child), "the process the claim started still runs"


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


def _loop_for(cpu_seconds: float) -> int:
    """How many turns of the claims' counting loop take about ``cpu_seconds`` of CPU time here."""
    n, spent = 100_000, 0.0
    while spent < 0.05:
        n *= 2
        started = time.thread_time()
        total = 0
        for i in range(n):
            total += i
        spent = time.thread_time() - started
    return int(n * cpu_seconds / spent)


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="needs processor affinity (Linux)")
def test_cpu_burners_in_other_processes_do_not_change_the_outcome(tmp_path, watchdog):
    # A claim needing about 0.4 CPU seconds under a limit of 1.5, and one needing several times the limit:
    # checked and stopped, alone and with three CPU burners sharing the worker's one processor (where the
    # first takes about 4 × 0.4 s of wall-clock time: past its limit, had the limit been wall-clock time).
    turns, short = _loop_for(0.4), _loop_for(6.0)
    folder = _claims(tmp_path, "counts", f"""
        def counts(n):
            total = 0
            for i in range(n):
                total += i
            return 0

        def enough():
            return counts({turns})

        def too_much():
            return counts({short})

        CLAIMS = [claim("enough", enough), claim("too_much", too_much)]
    """)

    def outcome():
        report = run([folder], timeout=1.5)
        return [(r.claim.id, r.verdict, "CPU seconds" in _evidence(r)) for r in report.results], report.failures

    expected = ([("enough", Status.CHECKED, False), ("too_much", Status.UNKNOWN, True)], [])
    with watchdog(300, "claims beside CPU burners"):
        assert outcome() == expected
        saved = os.sched_getaffinity(0)
        cpu = min(saved)
        burner = f"import os\nos.sched_setaffinity(0, {{{cpu}}})\nwhile True:\n    pass\n"
        burners = [subprocess.Popen([sys.executable, "-c", burner]) for _ in range(3)]
        try:
            os.sched_setaffinity(0, {cpu})  # this thread, and the worker it forks, on the burners' processor
            assert outcome() == expected
        finally:
            os.sched_setaffinity(0, saved)
            for p in burners:
                p.kill()
                p.wait()
