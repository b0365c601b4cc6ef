"""The command line, ``rdpsym SUBCOMMAND``: one parser, every subcommand."""

import pkgutil as _pkgutil

import lazy_loader as _lazy_loader

from rdpsym.cli.main import build_parser, main

__all__ = ["build_parser", "main"]

# A submodule is an attribute of its package on first use (``rdpsym.accounting.curve.clear_cache()`` after a bare
# ``import rdpsym``), imported then: import rdpsym loads its layers lazily (rdpsym/__init__.py).
__getattr__ = _lazy_loader.attach(__name__, submodules=[_m.name for _m in _pkgutil.iter_modules(__path__)])[0]
