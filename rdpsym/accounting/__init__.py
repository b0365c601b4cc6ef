"""Accounting: RDP curves, composition and conversions to (ε, δ), computed in certified balls.

``curve`` (``RdpCurve`` and its components as data), ``curves`` (the curve of a
mechanism or guarantee), ``sampled_gaussian`` (DP-SGD's subsampled Gaussian),
``conversions`` (RDP → (ε, δ), exact Gaussian curve, composition, zCDP, the
moments accountant: one module per topic), ``orders`` (the order grids),
``api`` (``epsilon``, ``delta``: results whose numbers print at the digits
asked for, :mod:`rdpsym.foundations.numbers`), ``reference`` (reference tables).  Peer
accountants are read and audited one layer up, in :mod:`rdpsym.peers`.
"""

import pkgutil as _pkgutil

import lazy_loader as _lazy_loader

# A submodule is an attribute of its package on first use (``rdpsym.accounting.curve.clear_cache()`` after a bare
# ``import rdpsym``), imported then: import rdpsym loads its layers lazily (rdpsym/__init__.py).
__getattr__ = _lazy_loader.attach(__name__, submodules=[_m.name for _m in _pkgutil.iter_modules(__path__)])[0]
