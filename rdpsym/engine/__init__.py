"""The derivation engine: closed forms for ∫exp(L) and Σexp(L), suprema, tidying.

Everything here works on *log-densities*: on each piece between non-smooth
points, ``L = α·log P + (1−α)·log Q`` is a polynomial of degree ≤ 2 in the
variable (Gaussian, Laplace and exponential families), possibly plus
logarithms of the distance to an endpoint (gamma, beta) or log-factorials
(Poisson, binomial).  Each shape has a closed-form rule that returns its
value *and* the condition under which the integral or sum converges; SymPy's
general ``integrate``/``summation`` is only a time-budgeted fallback.
"""

import pkgutil as _pkgutil

import lazy_loader as _lazy_loader

# SymPy's huge exact numbers refused inside rdpsym's budgets: installed before any symbolic work of this layer
# (every derivation, density check and quadrature passes through it; ``import rdpsym`` alone loads no SymPy).
from rdpsym.foundations import exact_size as _exact_size  # noqa: F401, E402

# A submodule is an attribute of its package on first use (``rdpsym.accounting.curve.clear_cache()`` after a bare
# ``import rdpsym``), imported then: import rdpsym loads its layers lazily (rdpsym/__init__.py).
__getattr__ = _lazy_loader.attach(__name__, submodules=[_m.name for _m in _pkgutil.iter_modules(__path__)])[0]
