"""Rendering: the only layer that writes LaTeX, terminal text, Markdown, documents and plots.

It reads records (derivations, claim results, accounting results) and never
changes them.  :mod:`rdpsym.render.records` provides the records' ``str()``,
``.latex()`` and Jupyter display (loaded the first time a record is shown:
:mod:`rdpsym.foundations.operations`).
"""

from rdpsym._lazy import submodules_on_first_use

__getattr__ = submodules_on_first_use(__name__, __path__)  # rdpsym/_lazy.py
