"""Laws: the probability distributions compared, and the mechanisms that produce them.

``densities`` (``Continuous``, ``Discrete``: SymPy pdfs and pmfs, their pieces
and the common refinement of a pair), ``validation`` (nonnegative and
normalised, checked at construction), ``references`` (the published forms a
derivation is proved equal to), ``mechanisms`` (every built-in mechanism and
guarantee declared once, in one registry).
"""
