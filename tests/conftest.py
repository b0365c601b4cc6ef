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

import os

import mpmath
import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    max_examples=25,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None)


def _profile_name() -> str:
    explicit = os.environ.get("HYPOTHESIS_PROFILE")
    if explicit:
        return explicit
    if os.environ.get("CI"):
        return "ci"
    return "ci"  # the default: a local run is the CI run


settings.load_profile(_profile_name())


@pytest.fixture(autouse=True)
def _fresh_mpmath_context():
    """Every test starts at mpmath's defaults, and none leaks its precision to the next."""
    mpmath.mp.dps = 15
    mpmath.mp.pretty = False
    yield
    mpmath.mp.dps = 15
    mpmath.mp.pretty = False
