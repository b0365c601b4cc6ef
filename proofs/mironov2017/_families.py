"""Shared pieces of the Mironov 2017 claim files: the symbols and the mechanisms' derivations.

Files starting with ``_`` are not claim files.  Everything here is cheap to
import; the derivations are functions, run when a claim is checked.
"""

import functools

import sympy as sp

import rdpsym
from rdpsym import alpha

#: Laplace scale λ (sensitivity 1), Gaussian σ, randomized-response p, a shift μ.
lam = sp.Symbol("lambda", positive=True)
sigma = sp.Symbol("sigma", positive=True)
p = sp.Symbol("p", positive=True)
mu = sp.Symbol("mu", positive=True)

POSITIVE = sp.Interval.open(0, sp.oo)
ORDERS = sp.Interval.open(1, sp.oo)
#: p > 1/2: randomized response reports the truth more often than not (Prop 5's setting).
HALF_TO_ONE = sp.Interval.open(sp.Rational(1, 2), 1)


@functools.cache
def derived(mechanism: str, order=alpha):
    """The core's derivation of a built-in's RDP at ``order`` (symbolic parameters)."""
    mech = {
        "laplace": lambda: rdpsym.laplace(scale=lam),
        "gaussian": lambda: rdpsym.gaussian(sigma=sigma),
        "gaussian-shift": lambda: rdpsym.gaussian(sigma=sigma, sensitivity=mu),
        "randomized-response": lambda: rdpsym.randomized_response(p),
    }[mechanism]()
    return mech.rdp(order).result


# The published forms (Mironov 2017, Props 5-7 and Table II), typed from the paper.
PROP5 = 1 / (alpha - 1) * sp.log(p**alpha * (1 - p) ** (1 - alpha) + (1 - p) ** alpha * p ** (1 - alpha))
PROP6 = 1 / (alpha - 1) * sp.log(alpha / (2 * alpha - 1) * sp.exp((alpha - 1) / lam)
                                 + (alpha - 1) / (2 * alpha - 1) * sp.exp(-alpha / lam))
PROP7 = alpha * mu**2 / (2 * sigma**2)
