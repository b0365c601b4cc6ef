"""Certified conversions between RDP, (ε, δ)-DP, zCDP and the moments accountant.

Every function here is pure and computes in Arb balls at the current working
precision (``flint.ctx.prec``; set it for a block with :func:`precision`, and print
a result with :func:`upper_decimal`, rounded up as a published ε must be).
Given inputs that contain the true values, every result is a ball that contains
the exact mathematical value of the stated formula at those values.  A result
that is NaN or infinite where the formula is finite raises
:class:`~rdpsym.foundations.errors.ConvergenceError`: it is never returned.

Inputs
------
*Reals* (δ, ε, r, ρ, σ, ...) may be ``arb`` balls or exact numbers: ``int``,
``fmpq``, ``Fraction``, a SymPy ``Rational``, or ``float``, read as the decimal it prints as (``1e-5`` is
exactly 10⁻⁵, the rule of the whole package; pass ``arb(x)`` for a float's binary value).  *Orders* α are exact
rationals (``fmpq``, ``int``, ``Fraction``) or ``arb`` balls; for a rational
order, α − 1 is formed exactly, so an order such as ``1 + 10**-40`` loses nothing.

Infinity
--------
An infinite RDP value (or moment) is written ``math.inf``, or given as an
``Infinite(reason)`` of :mod:`rdpsym.accounting.curve` (any object with a string
``reason``; the reason is kept).  Both are accepted by the "best over orders"
functions (:func:`best_epsilon`, :func:`best_delta`, :func:`moments_epsilon`,
:func:`moments_delta`) and from the curve of :func:`continuous_epsilon`; the
single-order conversions take finite values only.  An infinite ε is returned as
``math.inf`` with each order's reason.  The order α = ∞ (``math.inf``, pure DP:
(∞, r)-RDP is r-DP) is accepted by the Mironov and Balle conversions and so by
``best_*``, so a curve's ``balls(orders)`` can be passed straight in.

>>> from fractions import Fraction
>>> with precision(128):   # Prop. 3 for (2, 1/10)-RDP at δ = 10⁻⁵, published to 6 digits
...     upper_decimal(mironov_epsilon(2, Fraction(1, 10), Fraction(1, 10**5)), 6)
'11.6130'

Conversions are named by strings: ``"mironov"`` (Mironov 2017, Prop. 3) and
``"balle"`` (Balle et al. 2020, Thm 21 = Canonne–Kamath–Steinke 2020, Prop. 12;
the one dp_accounting and Opacus use; ``"bbghs"`` in :mod:`tightest`), ``"tv-kl"``
(δ ≤ √(1 − e^{−r}), as dp_accounting) and ``"optimal"`` (the optimal conversion of
one (α, r), :mod:`optimal`); :func:`tightest_epsilon` and :func:`tightest_delta`
take the best of all of them and name the one that won.

Modules, one topic each (their public names are all re-exported here):
:mod:`~rdpsym.accounting.conversions.rdp_dp` (RDP → (ε, δ) at one order, the best over
a list of orders), :mod:`~rdpsym.accounting.conversions.continuous` (the best over a
continuous range of orders, by certified branch and bound),
:mod:`~rdpsym.accounting.conversions.gaussian` (the exact Gaussian curve),
:mod:`~rdpsym.accounting.conversions.composition` (optimal and advanced composition of
ε-DP), :mod:`~rdpsym.accounting.conversions.zcdp` (zCDP → (ε, δ)),
:mod:`~rdpsym.accounting.conversions.moments` (the moments accountant),
:mod:`~rdpsym.accounting.conversions.optimal` (the optimal conversion of one order, certified
from both sides; the solver of its optimal pair is
:mod:`~rdpsym.accounting.conversions.optimal_pairs`, its float estimates and witness bounds, which
choose the orders worth certifying, :mod:`~rdpsym.accounting.conversions.optimal_estimates`),
:mod:`~rdpsym.accounting.conversions.tightest` (the best of every
conversion over a list of orders); the input checks
and ball helpers they share are in ``_inputs``.
"""

from rdpsym._lazy import submodules_on_first_use

# Re-exported, beyond __all__ (the `x as x` form marks a re-export): the type aliases, and
# the private helpers that callers reach as rdpsym.accounting.conversions._name, as they
# did when this package was one module: tests/test_conversions.py (_checked, _probability,
# _minimum, _psi, _convex_value, _convex_leaf_lower) and the docstring of
# proofs/seeds/_seeds_util.py (_erfc).
from rdpsym.accounting.conversions._inputs import Order as Order
from rdpsym.accounting.conversions._inputs import Real as Real
from rdpsym.accounting.conversions._inputs import _checked as _checked
from rdpsym.accounting.conversions._inputs import _probability as _probability
from rdpsym.accounting.conversions.composition import (
    advanced_composition,
    advanced_composition_zcdp,
    kov_delta,
    kov_epsilon,
)
from rdpsym.accounting.conversions.continuous import (
    ContinuousOptimum,
    continuous_epsilon,
)
from rdpsym.accounting.conversions.continuous import (
    _convex_leaf_lower as _convex_leaf_lower,
)
from rdpsym.accounting.conversions.continuous import _convex_value as _convex_value
from rdpsym.accounting.conversions.continuous import _psi as _psi
from rdpsym.accounting.conversions.gaussian import _erfc as _erfc
from rdpsym.accounting.conversions.gaussian import gaussian_delta, gaussian_epsilon
from rdpsym.accounting.conversions.moments import (
    moments_delta,
    moments_epsilon,
    moments_to_rdp,
    rdp_to_moments,
)
from rdpsym.accounting.conversions.optimal import OptimalBound, dual_bound, optimal_delta, optimal_epsilon
from rdpsym.accounting.conversions.rdp_dp import (
    CONVERSIONS,
    OrderBound,
    balle_delta,
    balle_epsilon,
    best_delta,
    best_epsilon,
    kl_delta,
    mironov_delta,
    mironov_epsilon,
)
from rdpsym.accounting.conversions.rdp_dp import Conversion as Conversion
from rdpsym.accounting.conversions.rdp_dp import _minimum as _minimum
from rdpsym.accounting.conversions.tightest import (
    NAMES,
    Tightest,
    tightest_delta,
    tightest_epsilon,
    tightest_epsilon_grid,
)
from rdpsym.accounting.conversions.zcdp import zcdp_best_order, zcdp_delta, zcdp_epsilon
from rdpsym.foundations.balls import lower_decimal, precision, upper_decimal

__all__ = [
    "CONVERSIONS",
    "NAMES",
    "ContinuousOptimum",
    "OptimalBound",
    "OrderBound",
    "Tightest",
    "advanced_composition",
    "advanced_composition_zcdp",
    "balle_delta",
    "balle_epsilon",
    "best_delta",
    "best_epsilon",
    "continuous_epsilon",
    "dual_bound",
    "gaussian_delta",
    "gaussian_epsilon",
    "kl_delta",
    "kov_delta",
    "kov_epsilon",
    "lower_decimal",
    "mironov_delta",
    "mironov_epsilon",
    "moments_delta",
    "moments_epsilon",
    "moments_to_rdp",
    "optimal_delta",
    "optimal_epsilon",
    "precision",
    "rdp_to_moments",
    "tightest_delta",
    "tightest_epsilon",
    "tightest_epsilon_grid",
    "upper_decimal",
    "zcdp_best_order",
    "zcdp_delta",
    "zcdp_epsilon",
]

__getattr__ = submodules_on_first_use(__name__, __path__)  # rdpsym/_lazy.py
