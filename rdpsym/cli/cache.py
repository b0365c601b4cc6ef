"""``rdpsym cache``: where the derivations kept between processes are, how many, and ``--clear`` to empty it.

    rdpsym cache
    rdpsym cache --clear

The cache itself is :mod:`rdpsym.foundations.disk_cache` (what is kept, how an entry is checked on read); the
derivations a wheel ships are made by :mod:`rdpsym.cli.shipping`.
"""

from __future__ import annotations

import argparse
import json

from rdpsym.cli.help import SUMMARIES
from rdpsym.cli.output import OK
from rdpsym.foundations import disk_cache
from rdpsym.foundations.errors import ParameterError, must


def register(sub) -> None:
    p = sub.add_parser("cache", help=SUMMARIES["cache"])
    p.add_argument("--clear", action="store_true", help="remove every entry (they are derived again when needed)")
    p.add_argument("--json", action="store_true", help="print the folder, entries and bytes as JSON")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    chosen = disk_cache.folder()
    if chosen is not None and chosen.exists() and not chosen.is_dir():
        # (a regular file was shown as an empty folder, and --clear "removed 0 entries" with status 0: a probe)
        raise ParameterError(must(disk_cache.ENVIRONMENT, "a folder (or off)", f"{str(chosen)!r}, which is not a "
                                  "folder: rdpsym keeps nothing there"))
    removed = disk_cache.clear() if args.clear else None
    state = disk_cache.describe()
    if removed is not None:
        state["removed"] = removed
    if args.json:
        print(json.dumps(state, indent=2))
        return OK
    if state["folder"] is None:
        print(f"the cache is off ({disk_cache.ENVIRONMENT}=off)")
        return OK
    if removed is not None:
        print(f"removed {removed} entries")
    print(f"folder:  {state['folder']}  (set {disk_cache.ENVIRONMENT} to move it, or to off)")
    print(f"entries: {state['entries']}, {state['bytes'] / 1e6:.2f} MB")
    print(f"shipped: {state['shipped_note']}")
    if state["key"] is not None:
        print(f"warning: {state['key']}")
    return OK
