"""Operations a record offers and a higher layer performs.

rdpsym's layers import only downward (``foundations < engine < laws < derive <
accounting < claims < render < cli``).  Some records are nonetheless most
convenient with methods whose work belongs higher up: a
:class:`~rdpsym.Mechanism` (laws) has ``.rdp()``, done by the derivation
layer, and ``.curve()``, done by accounting; a derivation, a claim and an
accounting result show themselves as LaTeX in Jupyter, done by ``render``.

Importing upward would close a cycle.  Instead the record calls an
:class:`Operation` declared here, at the bottom, and the layer that performs
it registers its function when it is imported.  The dependency is inverted,
not hidden: each operation below names the module that provides it, and its
first call imports that module when nothing has yet (``import rdpsym`` loads
its layers lazily, so a record may be shown before the renderers were loaded).

>>> double = Operation("double", "rdpsym.demo")
>>> double(2)
Traceback (most recent call last):
...
rdpsym.foundations.errors.RdpSymError: double is provided by rdpsym.demo, which has not registered it.
>>> @double.provide
... def _twice(x):
...     return 2 * x
>>> double(2)
4
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from rdpsym.foundations.errors import RdpSymError


class Operation:
    """A function declared in a low layer and provided by a higher one."""

    def __init__(self, name: str, provider: str):
        self.name = name
        self.provider = provider
        self._function: Callable[..., Any] | None = None

    def provide(self, function: Callable[..., Any]) -> Callable[..., Any]:
        """Register ``function`` as this operation (a decorator; the provider calls it once)."""
        self._function = function
        return function

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._function is None:
            # The provider sits in a higher layer: imported by name, at run time, as a plugin is (an import
            # statement here would be the upward dependency this module exists to avoid).
            try:
                importlib.import_module(self.provider)
            except ModuleNotFoundError as exc:
                if exc.name != self.provider:  # the provider is there but something it needs is not
                    raise
        if self._function is None:
            raise RdpSymError(f"{self.name} is provided by {self.provider}, which has not registered it.")
        return self._function(*args, **kwargs)

    def __repr__(self) -> str:
        return f"Operation({self.name!r}, provided by {self.provider})"


#: ``Mechanism.rdp(order)``: the derivation of D_order of the worst-case pair.
rdp = Operation("Mechanism.rdp", "rdpsym.derive.divergence")
#: ``Mechanism.curve()``: the mechanism's RDP curve ε(α), for composition and conversion.
curve = Operation("Mechanism.curve", "rdpsym.accounting.curves")
#: A record (derivation, claim result, accounting result) as LaTeX math, for papers and Jupyter.
latex = Operation("LaTeX rendering", "rdpsym.render.records")
#: A record as plain text, for terminals (``str()``).
text = Operation("text rendering", "rdpsym.render.records")
#: A record as Markdown with LaTeX math, for Jupyter (``_repr_markdown_``).
markdown = Operation("Markdown rendering", "rdpsym.render.records")
#: A record as JSON-ready data (dicts, lists, strings, numbers), for files and other programs.
json = Operation("JSON rendering", "rdpsym.render.records")
