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

from rdpsym._lazy import submodules_on_first_use
from rdpsym.claims.claim import AtLeast, AtMost, Claim, ClaimResult, Equal, Holds, Step, Verdict
from rdpsym.claims.domains import Domain
from rdpsym.foundations.errors import ClaimError
from rdpsym.foundations.symbols import alpha

__all__ = ["alpha", "AtLeast", "AtMost", "Claim", "ClaimError", "ClaimResult", "Domain", "Equal", "Holds", "Step",
           "Verdict"]

__getattr__ = submodules_on_first_use(__name__, __path__)  # rdpsym/_lazy.py
