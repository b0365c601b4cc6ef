"""``python -m rdpsym``: the command line (the same as the ``rdpsym`` command)."""

from rdpsym.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
