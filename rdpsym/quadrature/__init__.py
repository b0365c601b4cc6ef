"""Adaptive quadrature at arbitrary precision, on SymPy expressions handed in by the caller.

The numeric definition of a Rényi divergence (:mod:`rdpsym.derive.numeric`) and
the normalisation check of a density (:mod:`rdpsym.laws.validation`) integrate
with this, and never from a derived formula.  It works on SymPy expressions, the
variable, probe points and the pieces (lo, hi, branches) of a common refinement
handed in by the caller, never on density objects: it sits beside the engine,
independent of it, and imports only the foundations.

- :mod:`.compile`: expression -> fast mpmath function (constants folded); log of a pdf.
- :mod:`.locate`: where an integrand holds its mass (modes, e-fold widths, singular ends), searched
  from the exact critical points of :mod:`.seeds` with the scans, golden sections and reach of
  :mod:`.scans`.
- :mod:`.integrate`: piecewise integration, the entry point; it hands each piece to its stage:
  :mod:`.integrands` (the integrand as read: by its logarithm, scaled), :mod:`.divergent`
  (divergence tests: +∞ and why), :mod:`.piece` (one smooth piece: locate, recentre, scale),
  :mod:`.splits` (where a piece is cut), :mod:`.ends` (algebraic tails, singular ends),
  :mod:`.cells` (a lattice of cells between the jumps of floors).
- :mod:`.regions`: the numeric routes' own reading of two laws into pieces, the entry point; its stages:
  :mod:`.region_records` (Law, Region, Lattice), :mod:`.branches` (switch points, the branch on a
  piece), :mod:`.lattices` (the jumps of floors of a linear argument), :mod:`.real_order` (exact
  order, signs and floors of the points).
- :mod:`.series`: direct summation outward from the largest term.
- :mod:`.supremum`: the supremum of a log-ratio (order ∞).

Lengths and magnitudes are taken from the integrand itself (its mode, e-fold
width and peak), never fixed at 1, so a Gaussian of σ = 10³⁰⁰ or 10⁻³⁰⁰ is
integrated like one of σ = 1.  Quadrature splits at every non-smooth point,
at each mode, at the valleys between modes and where each mode's mass ends.
Nothing here uses or changes mpmath's global context: every function is
written against an mpmath context ``ctx`` handed in by the caller (a private
one, :func:`rdpsym.foundations.precision.private_context`) and works at its
precision; the precision policy (which precisions, how values are compared) is
the caller's.
"""

from rdpsym._lazy import submodules_on_first_use

# SymPy's huge exact numbers refused inside rdpsym's budgets: installed before any symbolic work of this layer
# (every derivation, density check and quadrature passes through it; ``import rdpsym`` alone loads no SymPy).
from rdpsym.foundations import exact_size as _exact_size  # noqa: F401

__getattr__ = submodules_on_first_use(__name__, __path__)  # rdpsym/_lazy.py
