"""Rendering: the only layer that writes LaTeX, terminal text, Markdown, documents and plots.

It reads records (derivations, claim results, accounting results) and never
changes them.  :mod:`rdpsym.render.records` provides the records' ``str()``,
``.latex()`` and Jupyter display (loaded the first time a record is shown:
:mod:`rdpsym.foundations.operations`).
"""

import pkgutil as _pkgutil

import lazy_loader as _lazy_loader

# A submodule is an attribute of its package on first use (``rdpsym.accounting.curve.clear_cache()`` after a bare
# ``import rdpsym``), imported then: import rdpsym loads its layers lazily (rdpsym/__init__.py).
__getattr__ = _lazy_loader.attach(__name__, submodules=[_m.name for _m in _pkgutil.iter_modules(__path__)])[0]
