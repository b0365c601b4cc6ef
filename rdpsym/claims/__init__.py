"""Executable claims: statements of the paper and its seeds, proved or checked.

>>> import sympy as sp
>>> from rdpsym.claims import Claim, Domain, Verdict, AtMost
>>> a = sp.Symbol("alpha")
>>> c = Claim("demo", "Gaussian below its square", "example", r"\\alpha \\le \\alpha^2",
...           (AtMost(a, a**2, "α ≥ 1"),), Verdict.PROVED,
...           Domain({a: sp.Interval(1, sp.oo)}))
>>> c.check().verdict
<Status.PROVED: 'proved'>
"""

import pkgutil as _pkgutil

import lazy_loader as _lazy_loader

from rdpsym.claims.claim import AtLeast, AtMost, Claim, ClaimResult, Domain, Equal, Holds, Step, Verdict
from rdpsym.foundations.errors import ClaimError
from rdpsym.foundations.symbols import alpha

__all__ = ["alpha", "AtLeast", "AtMost", "Claim", "ClaimError", "ClaimResult", "Domain", "Equal", "Holds", "Step",
           "Verdict"]

# A submodule is an attribute of its package on first use (``rdpsym.accounting.curve.clear_cache()`` after a bare
# ``import rdpsym``), imported then: import rdpsym loads its layers lazily (rdpsym/__init__.py).
__getattr__ = _lazy_loader.attach(__name__, submodules=[_m.name for _m in _pkgutil.iter_modules(__path__)])[0]
