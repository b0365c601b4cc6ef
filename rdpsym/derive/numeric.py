"""Rényi divergences straight from the definition, at arbitrary precision: the public entry.

:func:`renyi_divergence_mp` is the independent route every closed form is
checked against (the definition integrated or summed from the raw laws, never
from a derived formula).  It hands each pair to the route for its kind of law:
laws in several variables to :mod:`rdpsym.derive.multivariate`
(:func:`~rdpsym.derive.joint_numeric.joint_divergence_mp`), laws with atoms to
:mod:`rdpsym.derive.atoms`, and two laws of one variable to
:mod:`rdpsym.derive.definition` (its precision policy) and
:mod:`rdpsym.derive.definition_forms` (the integrand at one precision).  Those
routes call the one-variable definition for their parts; this module sits
above all three, so the dependency runs one way.
"""

from __future__ import annotations

from collections.abc import Mapping

import mpmath

from rdpsym.derive.atoms import divergence_mp
from rdpsym.derive.definition import univariate_divergence_mp
from rdpsym.derive.joint_numeric import joint_divergence_mp
from rdpsym.derive.univariate import check_unvalidated_laws
from rdpsym.foundations.errors import DensityError, MassOffByRounding
from rdpsym.foundations.reading import dps as read_dps
from rdpsym.laws.atoms import has_atoms
from rdpsym.laws.densities import Density
from rdpsym.laws.multivariate import is_multivariate


def renyi_divergence_mp(
    P: Density, Q: Density, order: object, dps: int = 50, values: Mapping | None = None, *,
    seconds: float | None = None,
) -> mpmath.mpf:
    """D_order(P‖Q) from the definition, as an mpmath number good to ``dps`` digits.

    ``order`` is a number in (0, ∞]: 1 gives the KL divergence ∫P log(P/Q),
    ∞ the supremum of log(P/Q) (found by scanning and refining, so "numeric":
    a lower estimate that is exact when the supremum is attained).  A value of
    +∞ is an :class:`~rdpsym.foundations.numbers.Infinity` whose ``reason`` says
    why (``P > 0 = Q on (1, 2)``, ``log(P/Q) → ∞ as x → 0⁺``).  The work is
    bounded: at most :data:`~rdpsym.derive.definition.DEFINITION_SECONDS` (or ``seconds``) of CPU time and
    a precision ceiling, else :class:`~rdpsym.foundations.errors.ConvergenceError`
    saying which was reached.  Safe to call from any thread: it works in private
    mpmath contexts, and the number it returns is a global-context ``mpf``.

    >>> import sympy as sp, rdpsym
    >>> s = sp.Symbol("sigma", positive=True)
    >>> P, Q = rdpsym.gaussian(sigma=s).pair
    >>> renyi_divergence_mp(P, Q, 3, dps=30, values={s: 2})  # printed at the 30 digits asked for
    mpf('0.375000000000000000000000000000')
    >>> renyi_divergence_mp(*rdpsym.gaussian(sigma=10**100).pair, 2, dps=20)  # α/(2σ²), at any scale
    mpf('1.0000000000000000000e-200')
    """
    if is_multivariate(P, Q):  # laws in several variables: rdpsym.derive.multivariate
        return joint_divergence_mp(P, Q, order, dps, values)
    if has_atoms(P, Q):  # point masses beside a density: rdpsym.derive.atoms
        return divergence_mp(P, Q, order, read_dps(dps), values)
    if not values:
        # laws built with check=False are checked as renyi_divergence checks them (at given values, their copies at
        # those values are): {0: 3/2, 1: −1/2} against a fair coin gave log(9/2), its positive entry's sum (a probe).
        # Not refused: a mass within 10⁻⁹ of 1, a normaliser known only numerically written as a decimal (a review).
        try:
            check_unvalidated_laws(P, Q)
        except DensityError as exc:
            if not isinstance(exc.__cause__, MassOffByRounding):
                raise
    return univariate_divergence_mp(P, Q, order, dps, values, seconds=seconds)

