"""Accounting: RDP curves, composition and conversions to (ε, δ), computed in certified balls.

``curve`` (``RdpCurve`` and its components as data), ``curves`` (the curve of a
mechanism or guarantee), ``sampled_gaussian`` (DP-SGD's subsampled Gaussian),
``conversions`` (RDP → (ε, δ), exact Gaussian curve, composition, zCDP, the
moments accountant: one module per topic), ``orders`` (the order grids),
``api`` (``epsilon``, ``delta``: results whose numbers print at the digits
asked for, :mod:`rdpsym.foundations.numbers`), ``reference`` (reference tables).  Peer
accountants are read and audited one layer up, in :mod:`rdpsym.peers`.
"""

from rdpsym._lazy import submodules_on_first_use

__getattr__ = submodules_on_first_use(__name__, __path__)  # rdpsym/_lazy.py
