"""The built-ins' derivations a wheel ships: ``python -m rdpsym.cli.shipping DIR``, run by the wheel's build.

build_support/shipping_backend.py runs this module on the package as built, with ``DIR`` its ``rdpsym/shipped``:
:func:`workload` does, in a fresh cache folder, what a user's first values need, and
:func:`rdpsym.foundations.disk_cache.ship` writes what the cache kept (closed forms verified against the
definition, density checks, proofs) with an index of their digests.  A fresh installation then reads them
instead of deriving: the Laplace curve's first value 0.46 s of CPU → 0.1 s.  Not a command of ``rdpsym``: its
imports (SymPy, the accounting) would slow ``rdpsym cache``.
"""

from __future__ import annotations

import argparse
import sys
import time

import sympy as sp

from rdpsym.accounting.api import epsilon
from rdpsym.cli import params
from rdpsym.cli.output import BAD_INPUT, OK, check_folder
from rdpsym.derive.table2 import table2
from rdpsym.foundations import disk_cache
from rdpsym.foundations.errors import NoClosedFormError, ParameterError
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
    args = parser.parse_args(argv)
    start = time.process_time()
    try:
        written = disk_cache.ship(workload, check_folder(args.folder, "FOLDER"))
    except (ParameterError, OSError) as exc:
        print(f"rdpsym: error: {exc}", file=sys.stderr)
        return BAD_INPUT
    print(f"shipped {written} derivations to {args.folder} ({time.process_time() - start:.1f} s of CPU)")
    return OK


def workload() -> None:
    """What a user's first values need, done once: each built-in's curve at its example values (orders 2, 3/2, 1
    and ∞, and the ε over the default orders), each derivable family's symbolic derivations (``rdpsym derive``),
    and Table II.  Only what the cache keeps is shipped: established closed forms, checks and proofs.  Any error
    but a KL that is on no curve (a sampled or discrete mechanism's: derived from its laws when asked) stops the
    build: a wheel must not ship less because something broke."""
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


if __name__ == "__main__":
    sys.exit(main())
