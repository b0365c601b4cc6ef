"""Shared test configuration: mpmath precision hygiene and Hypothesis profiles.

Profiles
--------
``ci``   derandomized (the same examples on every run), no deadline,
         at most 25 examples per property; loaded on CI and by default.
``dev``  Hypothesis' defaults without a deadline (symbolic steps are slow
         and their timing varies), for local bug hunting:
         ``HYPOTHESIS_PROFILE=dev pytest tests``.

``HYPOTHESIS_PROFILE`` overrides the choice; otherwise ``ci`` is loaded both
when ``CI`` is set and when it is not, so a local run reproduces CI exactly.
"""

from __future__ import annotations

import contextlib
import os
import signal

import mpmath
import pytest
from hypothesis import HealthCheck, settings

# Both profiles derive from Hypothesis' built-in "default" explicitly: when CI is set,
# Hypothesis has already loaded its own "ci" profile, and an unparented profile would
# inherit from whatever is loaded.
_DEFAULT = settings.get_profile("default")
settings.register_profile(
    "ci",
    parent=_DEFAULT,
    derandomize=True,
    deadline=None,
    max_examples=25,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", parent=_DEFAULT, deadline=None)


# "ci" on CI (the CI variable set) and, by default, everywhere else too, so that a
# local run reproduces CI exactly; HYPOTHESIS_PROFILE=dev (or any registered name) overrides.
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or "ci")


@pytest.fixture(autouse=True)
def _fresh_mpmath_context():
    """Every test starts at mpmath's defaults, and none leaks its precision to the next."""
    mpmath.mp.dps = 15
    mpmath.mp.pretty = False
    yield
    mpmath.mp.dps = 15
    mpmath.mp.pretty = False


@pytest.fixture
def watchdog():
    """``with watchdog(seconds): ...`` fails the test instead of hanging the suite.

    Not a timing assertion: the bound is many times what the work needs, and
    exists only so that a call that never returns (a known failure mode of
    exact arithmetic at huge orders) is reported as a failure.  It uses the
    real-time interval timer; rdpsym's own time budgets nest inside it (they
    keep the tighter outer deadline and re-arm it when they finish).
    """

    @contextlib.contextmanager
    def guard(seconds: float, what: str = "the call"):
        def expire(signum, frame):  # noqa: ARG001
            pytest.fail(f"{what} did not return within {seconds:g} s", pytrace=False)

        previous = signal.signal(signal.SIGALRM, expire)
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)

    return guard


@pytest.fixture
def compile_latex(tmp_path):
    """Compile a LaTeX document with the real pdflatex; return the PDF's path.

    pdflatex is installed by ``.ci/run`` (Debian's TeX Live), so on CI a missing
    pdflatex is a failure, never a skip; elsewhere the test is skipped with the reason.
    """
    import shutil

    from rdpsym.render.pdf import compile_pdf

    if shutil.which("pdflatex") is None:
        if os.environ.get("CI"):
            pytest.fail("pdflatex is not installed, but CI must compile every generated document")
        pytest.skip("pdflatex is not installed (.ci/run installs TeX Live)")
    counter = iter(range(10**6))

    def compile_(tex: str, name: str | None = None):
        path = tmp_path / f"{name or f'doc{next(counter)}'}.tex"
        path.write_text(tex, encoding="utf-8")
        return compile_pdf(path)  # raises LatexError quoting the first TeX error

    return compile_
