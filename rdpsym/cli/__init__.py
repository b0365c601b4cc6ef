"""The command line, ``rdpsym SUBCOMMAND``: one parser, every subcommand."""

from rdpsym.cli.main import build_parser, main

__all__ = ["build_parser", "main"]
