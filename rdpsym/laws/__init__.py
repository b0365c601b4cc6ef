"""Laws: the probability distributions compared, and the mechanisms that produce them.

Bottom to top (each module imports only those before it):

* ``validation`` (nonnegative and normalised, checked at construction) and
  ``references`` (the published forms a derivation is proved equal to);
* ``densities`` (``Continuous``, ``Discrete``: SymPy pdfs and pmfs, their pieces
  and the common refinement of a pair);
* ``atoms`` (point masses beside a density), ``multivariate`` (the base of the
  laws in several variables), ``joint``, ``independent`` and
  ``multivariate_normal`` (the three kinds of them);
* ``mechanism_types`` (the ``Mechanism`` and ``Guarantee`` records), ``pairs``
  (the built-ins' worst-case pairs of densities), the families of built-ins
  (``additive_noise``, ``discrete_mechanisms``, ``guarantees``, ``subsampled``),
  and ``mechanisms`` (every built-in declared once, in one registry).

A density's constructor may have to return a law with atoms or a joint law, and
``P ** n`` independent copies: those kinds are above the densities, so they
register their constructors with :mod:`rdpsym.laws.densities` when imported.
They are imported here, so the registry is full as soon as any law exists.
"""

from rdpsym._lazy import submodules_on_first_use
from rdpsym.laws import atoms, independent, joint  # noqa: F401 - they register their constructors (see above)

__getattr__ = submodules_on_first_use(__name__, __path__)  # rdpsym/_lazy.py
