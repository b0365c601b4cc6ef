"""Submodules as attributes of their package on first use, for every subpackage of rdpsym.

``import rdpsym`` loads its layers lazily (rdpsym/__init__.py), so a subpackage's modules are not imported until
something asks for them; each subpackage's ``__getattr__`` is :func:`submodules_on_first_use`, so that
``rdpsym.accounting.curve.clear_cache()`` after a bare ``import rdpsym`` imports ``rdpsym.accounting.curve`` then,
as an eager import used to (scientific-python's lazy_loader, SPEC 1).
"""

import pkgutil

import lazy_loader


def submodules_on_first_use(package: str, path: list[str]):
    """The ``__getattr__`` of ``package`` (whose ``__path__`` is ``path``): each of its submodules by name."""
    return lazy_loader.attach(package, submodules=[m.name for m in pkgutil.iter_modules(path)])[0]
