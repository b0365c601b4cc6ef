"""The derivation engine: closed forms for ∫exp(L) and Σexp(L), suprema, tidying.

Everything here works on *log-densities*: on each piece between non-smooth
points, ``L = α·log P + (1−α)·log Q`` is a polynomial of degree ≤ 2 in the
variable (Gaussian, Laplace and exponential families), possibly plus
logarithms of the distance to an endpoint (gamma, beta) or log-factorials
(Poisson, binomial).  Each shape has a closed-form rule that returns its
value *and* the condition under which the integral or sum converges; SymPy's
general ``integrate``/``summation`` is only a time-budgeted fallback.
"""

from rdpsym._lazy import submodules_on_first_use

# SymPy's huge exact numbers refused inside rdpsym's budgets: installed before any symbolic work of this layer
# (every derivation, density check and quadrature passes through it; ``import rdpsym`` alone loads no SymPy).
from rdpsym.foundations import exact_size as _exact_size  # noqa: F401

__getattr__ = submodules_on_first_use(__name__, __path__)  # rdpsym/_lazy.py
