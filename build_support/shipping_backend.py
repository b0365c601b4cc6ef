"""The build backend: setuptools', and a wheel that ships the built-ins' derivations.

A fresh installation's first value is read, not derived: after the modules are copied into the build folder,
the package as built runs ``python -m rdpsym.cli.shipping`` there, which derives and checks each built-in's
closed forms in a fresh cache folder and writes them to ``rdpsym/shipped`` (rdpsym/foundations/disk_cache.py
reads them only where its code, its SymPy, mpmath and python-flint and its Python are the build's).  So the
wheel's build needs the libraries rdpsym derives with, in the ranges of its dependencies (read from
pyproject.toml); an editable install ships nothing (its sources change under it) and needs setuptools alone.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403 - the PEP 517 hooks, setuptools' own but for the one below
from setuptools.command.build_py import build_py

#: The dependencies deriving imports (not matplotlib or rich: no plot or progress bar is drawn).
DERIVING = {"sympy", "mpmath", "gmpy2", "python-flint", "lazy-loader", "platformdirs"}


def get_requires_for_build_wheel(config_settings=None):
    with open("pyproject.toml", "rb") as file:
        dependencies = tomllib.load(file)["project"]["dependencies"]
    deriving = [d for d in dependencies if _name(d) in DERIVING]
    return _setuptools.get_requires_for_build_wheel(config_settings) + deriving


def _name(requirement: str) -> str:
    """A requirement's project name, normalised as PyPI compares names (PEP 503): ``Lazy_Loader >= 0.4`` is
    ``lazy-loader``."""
    name = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    return re.sub(r"[-_.]+", "-", name.group(1)).lower() if name else ""


class BuildPyWithShippedDerivations(build_py):
    """``build_py``, then ``python -m rdpsym.cli.shipping rdpsym/shipped`` run by the package as built (not when
    editable); an earlier build's shipment in the same build folder is removed first."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        built = os.path.abspath(self.build_lib)
        shutil.rmtree(os.path.join(built, "rdpsym", "shipped"), ignore_errors=True)
        # (the build's own environment reaches its libraries through PYTHONPATH too: the package as built goes first)
        path = os.pathsep.join(filter(None, (built, os.environ.get("PYTHONPATH"))))
        subprocess.run([sys.executable, "-m", "rdpsym.cli.shipping", os.path.join("rdpsym", "shipped")],
                       cwd=built, env={**os.environ, "PYTHONPATH": path}, check=True)
