"""``rdpsym cache``: where the derivations kept between processes are, how many, and ``--clear`` to empty it.

    rdpsym cache
    rdpsym cache --clear
    rdpsym cache --ship DIR      (what the wheel's build runs: the built-ins' derivations, shipped in the wheel)

The cache itself is :mod:`rdpsym.foundations.disk_cache` (what is kept, how an entry is checked on read).
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

import sympy as sp

from rdpsym.accounting.api import epsilon
from rdpsym.cli import params
from rdpsym.cli.help import SUMMARIES
from rdpsym.cli.output import OK
from rdpsym.derive.table2 import table2
from rdpsym.foundations import disk_cache
from rdpsym.foundations.errors import ParameterError, RdpSymError, must
from rdpsym.foundations.symbols import alpha
from rdpsym.laws.mechanisms import REGISTRY

#: A value of each built-in's parameters for the shipped workload.  A family's derivation is symbolic in its
#: parameters, so the entries made at these values serve every other value (the Laplace curve at scale 2 reads
#: the entries made at scale 1 and adds one check of its own, 0.01 s).
EXAMPLES: dict[str, dict] = {
    "gaussian": {"sigma": 1},
    "laplace": {"scale": 1},
    "randomized-response": {"p": sp.Rational(3, 4)},
    "sampled-gaussian": {"q": sp.Rational(1, 100), "sigma": 1},
    "pure-dp": {"epsilon": 1},
    "zcdp": {"rho": sp.Rational(1, 2)},
    "exponential": {"epsilon": 1},
    "discrete-gaussian": {"sigma": 1},
    "discrete-laplace": {"scale": 1},
    "k-randomized-response": {"k": 4, "epsilon": 1},
    "non-private": {},
}
#: The orders at which each built-in's curve is evaluated: an integer, a fraction, the KL and ∞.
_ORDERS = (sp.Integer(2), sp.Rational(3, 2), sp.Integer(1), sp.oo)


def register(sub) -> None:
    p = sub.add_parser("cache", help=SUMMARIES["cache"])
    p.add_argument("--clear", action="store_true", help="remove every entry (they are derived again when needed)")
    p.add_argument("--json", action="store_true", help="print the folder, entries and bytes as JSON")
    p.add_argument("--ship", metavar="DIR", help="derive the built-ins in a fresh cache and write its entries to "
                   "DIR as derivations shipped with rdpsym (the wheel's build runs this; DIR is rdpsym/shipped)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.ship is not None:
        return _ship(_ship_folder(args.ship))
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
    return OK


def _ship_folder(given: str) -> Path:
    """``--ship``'s folder, checked before any work: a folder, or a name in a folder, that can be written."""
    target = Path(given)
    parent = target if target.is_dir() else target.parent
    if not given or "\0" in given or target.exists() and not target.is_dir() or not parent.is_dir() \
            or not os.access(parent, os.W_OK):
        raise ParameterError(must("--ship", "a folder that exists or can be made in a writable folder",
                                  repr(given)))
    return target


def _ship(target: Path) -> int:
    """Every built-in's derivations, made in a fresh cache folder by this process and written to ``target``."""
    start = time.process_time()
    with tempfile.TemporaryDirectory(prefix="rdpsym-ship-") as scratch:
        before = os.environ.get(disk_cache.ENVIRONMENT)
        os.environ[disk_cache.ENVIRONMENT] = scratch
        try:
            ship_workload()
            written = disk_cache.ship(Path(scratch), target)
        finally:
            if before is None:
                os.environ.pop(disk_cache.ENVIRONMENT)
            else:
                os.environ[disk_cache.ENVIRONMENT] = before
    print(f"shipped {written} derivations to {target} ({time.process_time() - start:.1f} s of CPU)")
    return OK


def ship_workload() -> None:
    """What a user's first values need, done once: each built-in's curve at its example values (orders 2, 3/2, 1
    and ∞, and the ε over the default orders), each derivable family's symbolic derivations (``rdpsym derive``),
    and Table II.  Only what the cache keeps is shipped: established closed forms, checks and proofs."""
    for name, declared in REGISTRY.items():
        mechanism = params.build(declared, EXAMPLES[name])
        curve = mechanism.curve()
        for order in _ORDERS:
            _attempt(curve.value, order, dps=30)
        _attempt(epsilon, curve, delta=sp.Rational(1, 10**5), dps=30)
        if declared.derive:
            family = params.build(declared, {}, symbolic=True)
            for order in (alpha, sp.Integer(1), sp.oo):  # as `rdpsym derive NAME [--order 1|oo]` asks
                _attempt(family.rdp, order)
    table2()


def _attempt(work, *args, **kwargs) -> None:
    """Run one piece of the workload; a value that cannot be had (a KL that is on no curve) is not kept anyway,
    so it is passed over."""
    try:
        work(*args, **kwargs)
    except RdpSymError:
        pass
