"""Derivation: Rényi divergences in closed form, and the definition they are checked against.

``divergence`` (``renyi_divergence``: the chain of steps from Definition 3 to a
closed form), ``moments`` (the moment ∫P^αQ^{1−α} and the supremum of log P/Q,
piece by piece, by the engine's rules), ``numeric`` (``renyi_divergence_mp``:
the definition at any precision, by :mod:`rdpsym.quadrature`), ``verify`` (a
closed form against the definition, ≥ 40 digits), ``derivation`` (the record
returned), ``table2`` (Mironov 2017, Table II).
"""
