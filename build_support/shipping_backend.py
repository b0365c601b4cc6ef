"""The build backend: setuptools', and a wheel that ships the built-ins' derivations.

A fresh installation's first value is read, not derived: after the modules are copied into the build folder, the
package as built runs ``rdpsym cache --ship`` there, which derives and checks each built-in's closed forms in a
fresh cache folder and writes them to ``rdpsym/shipped`` (rdpsym/foundations/disk_cache.py reads them only where
its code and its SymPy, mpmath and python-flint are the build's).  So the wheel's build needs the libraries rdpsym
derives with, in the ranges of its dependencies (read from pyproject.toml); an editable install ships nothing (its
sources change under it) and needs setuptools alone.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403 - the PEP 517 hooks, setuptools' own but for the one below
from setuptools.command.build_py import build_py

#: The dependencies deriving imports (not matplotlib or rich: no plot or progress bar is drawn).
DERIVING = {"sympy", "mpmath", "gmpy2", "python-flint", "lazy_loader", "platformdirs"}


def get_requires_for_build_wheel(config_settings=None):
    with open("pyproject.toml", "rb") as file:
        dependencies = tomllib.load(file)["project"]["dependencies"]
    deriving = [d for d in dependencies if d.split(">")[0].split("<")[0].split("=")[0].strip() in DERIVING]
    return _setuptools.get_requires_for_build_wheel(config_settings) + deriving


class BuildPyWithShippedDerivations(build_py):
    """``build_py``, then ``rdpsym cache --ship rdpsym/shipped`` run by the package as built (not when editable)."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        built = os.path.abspath(self.build_lib)
        # (the build's own environment reaches its libraries through PYTHONPATH too: the package as built goes first)
        path = os.pathsep.join(filter(None, (built, os.environ.get("PYTHONPATH"))))
        subprocess.run([sys.executable, "-m", "rdpsym", "cache", "--ship", os.path.join("rdpsym", "shipped")],
                       cwd=built, env={**os.environ, "PYTHONPATH": path}, check=True)
