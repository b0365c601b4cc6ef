"""Rendering: the only layer that writes LaTeX, terminal text, Markdown, documents and plots.

It reads records (derivations, claim results, accounting results) and never
changes them.  Importing it provides the records' ``str()``, ``.latex()`` and
Jupyter display (:mod:`rdpsym.render.records`).
"""

from rdpsym.render import records  # noqa: F401 - provides the records' rendering operations
