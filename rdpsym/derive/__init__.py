"""Derivation: Rényi divergences in closed form, and the definition they are checked against.

The public entries sit on top and dispatch by the kind of the laws: ``divergence``
(``renyi_divergence``) and ``numeric`` (``renyi_divergence_mp``).  Below them, one
route per kind of law; the routes for several variables and for atoms derive their
one-dimensional parts by the first, which imports neither of them:

* two laws of one variable: ``univariate`` (the chain of steps from Definition 3 to a
  closed form), its stages ``finite_order`` (the moment ∫P^αQ^{1−α} at α ≠ 1),
  ``limit_orders`` (KL and D_∞), ``every_order`` (a symbolic order below 1 too),
  ``cases`` (undecided signs), ``moments`` and ``binomial`` (the moment piece by piece,
  by the engine's rules), ``polish`` and ``steps`` (the result and the lines as a
  reader writes them); the definition by quadrature: ``definition`` (its precision
  policy) and ``definition_forms`` (the integrand at one precision);
* laws with atoms beside a density: ``atoms``;
* laws in several variables: ``multivariate`` (the derivation), ``joint_blocks`` (the
  laws as aligned blocks), ``joint_gaussian``, ``joint_numeric`` (the definition),
  ``joint_check``, ``joint_ball`` (the worst case over a sensitivity ball).

Checking: ``check_loop`` (a closed form against the definition at sampled points,
≥ 40 digits, for every kind of law), ``verify`` (that check for laws of one variable,
and the symbolic proof of an equality), its certified fast path ``certified`` (with
``certified_compile``, ``certified_ends``), ``sampling`` and ``values``.
``derivation`` is the record returned; ``table2`` Mironov 2017, Table II.
"""

from rdpsym._lazy import submodules_on_first_use

__getattr__ = submodules_on_first_use(__name__, __path__)  # rdpsym/_lazy.py
