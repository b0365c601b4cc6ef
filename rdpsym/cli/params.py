"""The one reader of ``NAME=VALUE`` parameters and mechanism specs on the command line.

Every subcommand that takes a mechanism reads it here, from the one registry
of built-ins (:data:`rdpsym.laws.mechanisms.REGISTRY`):

* ``--set NAME=VALUE`` items (``rdpsym derive``, ``rdpsym epsilon``, ...), and
* specs ``NAME:K=V,K=V`` (``rdpsym plot``).

A parameter answers to its name and to the name the output prints (Laplace's
``scale`` is the paper's ``lambda``; the sensitivity prints as ``Delta``).
Values are read by :func:`rdpsym.foundations.reading.number`: exact decimals
(``0.1`` is 1/10), fractions and plain arithmetic, parsed, never evaluated.
Every item is checked (form, name, once only, value) before any mechanism is
built.

>>> from rdpsym.laws.mechanisms import REGISTRY
>>> read_assignments(["lambda=1/2", "Delta = 2"], REGISTRY["laplace"])
{'scale': 1/2, 'sensitivity': 2}
>>> parse_spec("sampled-gaussian:q=0.01,sigma=1.1")
('sampled-gaussian', ['q=0.01', 'sigma=1.1'])
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable

import sympy as sp

from rdpsym.foundations.errors import ParameterError, must, quoted, shorten
from rdpsym.foundations.reading import MAX_INTEGER_TEXT, integer, number
from rdpsym.laws.mechanisms import REGISTRY, Declaration

__all__ = ["build", "parse_spec", "read_assignments", "spec_mechanism", "steps"]


def steps(value: str) -> int:
    """``--steps``: a positive integer (an argparse type, so a bad value is a usage error)."""
    valid = "a positive integer"
    if len(value.strip()) > MAX_INTEGER_TEXT:  # (say so: 10^30 is a positive integer, refused for its length)
        valid += f", written in at most {MAX_INTEGER_TEXT} characters"
    try:
        return integer(value, "--steps", minimum=1)
    except ParameterError as exc:
        if "in size" in str(exc):  # (its own reason: '1e1001' is a positive integer, past the ceiling)
            raise argparse.ArgumentTypeError(shorten(str(exc))) from None
        raise argparse.ArgumentTypeError(shorten(must("--steps", valid, quoted(value)))) from None


def read_assignments(items: Iterable[str] | None, declared: Declaration, option: str = "--set",
                     extra: Iterable[str] = (), where: str = "",
                     held: Callable[[str], object] | None = None) -> dict[str, sp.Expr]:
    """``NAME=VALUE`` items as ``{parameter name: exact value}`` (aliases resolved to the parameter's name).

    ``extra`` are further names allowed (``alpha`` for ``rdpsym derive``); ``where`` says where the items
    came from in messages (a plot spec).  Each item's form, name and uniqueness is checked first, then its value;
    ``held``, where given, then turns the text into the value it stands for (``rdpsym verify``: the float a peer
    held for a typed decimal).
    """
    items = list(items or [])
    allowed = [*declared.names, *(a for p in declared.parameters for a in p.aliases), *extra]
    names: dict[str, list[str]] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ParameterError(must(option, "NAME=VALUE", quoted(item)))
        parameter = declared.parameter(key)
        if parameter is None and key not in extra:
            what = f"a parameter of {declared.name}" if where else f"{option} NAME"
            # (a mechanism without parameters: "must be one of  for non-private" listed nothing; a probe)
            valid = (f"one of {', '.join(allowed)}" if allowed else f"absent: {declared.name} takes no parameters") + \
                ("" if where or not allowed else f" for {declared.name}")
            raise ParameterError(must(what, valid, quoted(key) + (f" in {where}" if where else "")))
        names.setdefault(parameter.name if parameter is not None else key, []).append(value.strip())
    for name, values in names.items():
        if len(values) > 1:
            what = f"the parameter {name} of {where}" if where else f"{option} {name}"
            raise ParameterError(must(what, "given once", f"{len(values)} values ({', '.join(values)})"))
    out = {}
    for name, values in names.items():
        try:
            out[name] = number(values[0], name if where else f"{option} {name}")
            if held is not None:
                out[name] = number(held(values[0]), name if where else f"{option} {name}")
        except ParameterError as exc:
            raise ParameterError(f"{where}: {exc}" if where else str(exc)) from None
    return out


def build(declared: Declaration, values: dict, symbolic: bool = False):
    """The mechanism or guarantee with these values; a parameter not given takes its default, or its symbol
    when ``symbolic`` (a derivation in σ, λ, p), else it is an error naming what is missing."""
    missing = [p.name for p in declared.parameters if p.required and p.name not in values]
    if missing and not symbolic:
        raise ParameterError(must("--set", f"values for {', '.join(missing)} ({declared.name} needs them)", "none"))
    arguments = {p.name: values.get(p.name, p.default if not p.required else p.symbol) for p in declared.parameters}
    return declared.factory(**arguments)


def parse_spec(spec: str) -> tuple[str, list[str]]:
    """``"sampled-gaussian:q=0.01,sigma=1.1"`` as ``("sampled-gaussian", ["q=0.01", "sigma=1.1"])``.

    >>> parse_spec("gaussian: sigma = 2 , sensitivity=1/2")
    ('gaussian', ['sigma = 2', 'sensitivity=1/2'])
    """
    name, _, rest = spec.partition(":")
    name = name.strip()
    if name not in REGISTRY:
        raise ParameterError(must("MECHANISM", f"one of {', '.join(REGISTRY)} (then :NAME=VALUE,...)", quoted(spec)))
    sets = [s.strip() for s in rest.split(",")] if rest.strip() else []
    for s in sets:  # (an empty entry too, as --orders refuses one: "scale=1,,sensitivity=2" was taken, a probe)
        if "=" not in s:
            raise ParameterError(must(f"the parameters of {name!r}", "NAME=VALUE pairs separated by commas",
                                      repr(spec)))
    return name, sets


def spec_mechanism(spec: str):
    """``(name, mechanism)`` for a plot spec; errors name the spec and the parameter."""
    name, sets = parse_spec(spec)
    declared = REGISTRY[name]
    values = read_assignments(sets, declared, where=repr(spec))
    missing = [p.name for p in declared.parameters if p.required and p.name not in values]
    if missing:
        example = ",".join(f"{p}=..." for p in missing)
        raise ParameterError(must(quoted(spec), f"given {', '.join(missing)} (e.g. {name}:{example})", "none"))
    try:
        return name, build(declared, values)
    except ParameterError as exc:
        raise ParameterError(f"{spec!r}: {exc}") from None
