"""The built-ins' derivations a wheel ships: ``python -m rdpsym.cli.shipping DIR``, run by the wheel's build.

build_support/shipping_backend.py runs this module on the package as built, with ``DIR`` its ``rdpsym/shipped``:
:func:`workload` does, in a fresh cache folder, what a user's first values need, and
:func:`rdpsym.foundations.disk_cache.ship` writes what the cache kept (closed forms verified against the
definition, density checks, proofs) with an index of their digests.  A fresh installation then reads them
instead of deriving: the Laplace curve's first value 0.46 s of CPU → 0.1 s.  The catalogue's claims are run
too (``--claims`` names other claim files, ``--no-claims`` none), so that ``rdpsym check`` on a fresh
installation reads their derivations, proof attempts and SymPy steps (:mod:`rdpsym.claims.symbolic`) instead of
taking them again; every point of every claim is still checked in balls.  Not a command of ``rdpsym``: its
imports (SymPy, the accounting) would slow ``rdpsym cache``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import sympy as sp

from rdpsym.accounting.api import epsilon
from rdpsym.claims import runner
from rdpsym.cli import params
from rdpsym.cli.output import BAD_INPUT, OK, check_folder
from rdpsym.derive.table2 import table2
from rdpsym.foundations import disk_cache
from rdpsym.foundations.errors import NoClosedFormError, ParameterError, must
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rdpsym.cli.shipping", description=__doc__.splitlines()[0])
    parser.add_argument("folder", help="where to write them (new, empty, or an earlier shipment)")
    claims = parser.add_mutually_exclusive_group()
    claims.add_argument("--claims", action="append", metavar="PATH",
                        help="a claim file or folder whose work ships too (repeatable; default: the catalogue)")
    claims.add_argument("--no-claims", action="store_true", help="ship the built-ins' derivations only")
    args = parser.parse_args(argv)
    start = time.process_time()
    try:
        paths = [] if args.no_claims else [Path(p) for p in args.claims] if args.claims else None
        missing = next((p for p in paths or () if not p.exists()), None)
        if missing is not None:  # (before the built-ins' work, which comes first)
            raise ParameterError(must("--claims", "a claim file or folder that exists", str(missing)))
        written = disk_cache.ship(lambda: workload(paths), check_folder(args.folder, "FOLDER"))
    except (ParameterError, OSError) as exc:
        print(f"rdpsym: error: {exc}", file=sys.stderr)
        return BAD_INPUT
    children = os.times()  # (the claims run in a worker process: its CPU time is counted too)
    seconds = time.process_time() - start + children.children_user + children.children_system
    print(f"shipped {written} derivations to {args.folder} ({seconds:.1f} s of CPU)")
    return OK


def workload(claims: list[Path] | None = None) -> None:
    """What a user's first values need, done once: each built-in's curve at its example values (orders 2, 3/2, 1
    and ∞, and the ε over the default orders), each derivable family's symbolic derivations (``rdpsym derive``),
    Table II, and the claims of ``claims`` (None: the catalogue; empty: none) as ``rdpsym check`` runs them.
    Only what the cache keeps is shipped: established closed forms, checks, proofs and SymPy's answers, never a
    verdict.  Any error but a KL that is on no curve (a sampled or discrete mechanism's: derived from its laws
    when asked), and any claim that does not reach its expected status, stops the build: a wheel must not ship
    less because something broke."""
    for name, declared in REGISTRY.items():
        mechanism = params.build(declared, EXAMPLES[name])
        curve = mechanism.curve()
        for order in _ORDERS:
            try:
                curve.value(order, dps=30)
            except NoClosedFormError:
                if order != 1 or declared.derive:  # (a derived family's KL is on its curve)
                    raise
        epsilon(curve, delta=sp.Rational(1, 10**5), dps=30)
        if declared.derive:
            family = params.build(declared, {}, symbolic=True)
            for order in (alpha, sp.Integer(1), sp.oo):  # as `rdpsym derive NAME [--order 1|oo]` asks
                family.rdp(order)
    table2()
    if claims is None or claims:
        claims_workload(claims)


def claims_workload(paths: list[Path] | None) -> None:
    """The claims of ``paths`` (None: the catalogue) checked as ``rdpsym check`` checks them, each within its CPU
    time limit; RuntimeError unless every claim reaches its expected status."""
    report = runner.run(paths)
    if not report.ok:
        raise RuntimeError(f"the claims shipped did not all reach their expected status:\n{report}")


if __name__ == "__main__":
    sys.exit(main())
