"""The command line, ``rdpsym SUBCOMMAND``: one parser, every subcommand."""

from rdpsym._lazy import submodules_on_first_use
from rdpsym.cli.main import build_parser, main

__all__ = ["build_parser", "main"]

__getattr__ = submodules_on_first_use(__name__, __path__)  # rdpsym/_lazy.py
