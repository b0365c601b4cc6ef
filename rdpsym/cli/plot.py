"""Command line: ``rdpsym plot``, Rényi budget curves and (ε, δ) conversion curves to PNG, PDF or SVG.

    rdpsym plot laplace:scale=1 gaussian:sigma=2 randomized-response:p=0.731 --output curves.png
    rdpsym plot --kind epsilon-delta sampled-gaussian:q=0.01,sigma=1.1 --steps 1000 --output eps_delta.svg
    rdpsym plot --kind epsilon-delta gaussian:sigma=1 --exact --deltas 1e-10:1e-2 --output gaussian.pdf

Each MECHANISM is a name from ``rdpsym epsilon --mechanism`` with its
parameters after a colon, comma-separated (``sampled-gaussian:q=0.01,sigma=1.1``;
exact decimals, as everywhere in rdpsym).  The format is the output's
extension.  Every input is checked before any curve is computed.
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from pathlib import Path

from rdpsym.accounting.orders import resolve
from rdpsym.cli.accounting import _steps, build_mechanism, given_twice
from rdpsym.foundations.errors import ParameterError, must
from rdpsym.laws.mechanisms import REGISTRY

#: Output formats, by extension.
FORMATS = {".png": "png", ".pdf": "pdf", ".svg": "svg"}
KINDS = ("budget", "epsilon-delta")


def parse_spec(spec: str) -> tuple[str, list[str]]:
    """``"sampled-gaussian:q=0.01,sigma=1.1"`` as ``("sampled-gaussian", ["q=0.01", "sigma=1.1"])``.

    >>> parse_spec("laplace:scale=1")
    ('laplace', ['scale=1'])
    >>> parse_spec("gaussian: sigma = 2 , sensitivity=1/2")
    ('gaussian', ['sigma = 2', 'sensitivity=1/2'])
    """
    name, _, rest = spec.partition(":")
    name = name.strip()
    if name not in REGISTRY:
        raise ParameterError(must("MECHANISM", f"one of {', '.join(REGISTRY)} (then :NAME=VALUE,...)",
                                  repr(spec)))
    sets = [s.strip() for s in rest.split(",") if s.strip()]
    for s in sets:
        if "=" not in s:
            raise ParameterError(must(f"the parameters of {name!r}", "NAME=VALUE pairs separated by commas",
                                      repr(spec)))
    return name, sets


def _mechanism(spec: str):
    """The mechanism a spec names; errors name the spec and the parameter (not ``--set``)."""
    name, sets = parse_spec(spec)
    params, defaults = REGISTRY[name].names, REGISTRY[name].defaults
    twice = given_twice(sets)
    if twice:
        key, values = twice
        raise ParameterError(must(f"the parameter {key} of {spec!r}", "given once",
                                  f"{len(values)} values ({', '.join(values)})"))
    given = {s.partition("=")[0].strip() for s in sets}
    for key in sorted(given - set(params)):
        raise ParameterError(must(f"a parameter of {name}", f"one of {', '.join(params)}", f"{key!r} in {spec!r}"))
    missing = [p for p in params if p not in given and p not in defaults]
    if missing:
        example = ",".join(f"{p}=..." for p in missing)
        raise ParameterError(must(repr(spec), f"given {', '.join(missing)} (e.g. {name}:{example})", "none"))
    try:
        return name, build_mechanism(name, sets)
    except ParameterError as exc:
        raise ParameterError(f"{spec!r}: " + str(exc).replace("--set ", "")) from None


def _output(path: str) -> tuple[Path, str]:
    p = Path(path)
    fmt = FORMATS.get(p.suffix.lower())
    if fmt is None:
        raise ParameterError(must("--output", "a file name ending in .png, .pdf or .svg", repr(path)))
    if not p.parent.is_dir():
        raise ParameterError(must("--output", "in an existing folder", f"{path!r} (no folder {str(p.parent)!r})"))
    return p, fmt


def _size(value: str) -> tuple[float, float]:
    w, sep, h = value.lower().partition("x")
    try:
        size = (float(w), float(h)) if sep else None
    except ValueError:
        size = None
    if size is None or not all(0 < v <= 100 for v in size):
        raise argparse.ArgumentTypeError(must("--size", "WIDTHxHEIGHT in inches, e.g. 7x4.5", repr(value)))
    return size


def _dpi(value: str) -> int:
    try:
        dpi = int(value)
    except ValueError:
        dpi = 0
    if not 10 <= dpi <= 2000:
        raise argparse.ArgumentTypeError(must("--dpi", "an integer in [10, 2000]", repr(value)))
    return dpi


def _deltas(value: str):
    """``LO:HI`` (the default log grid restricted to [LO, HI]) or a comma-separated list."""
    from rdpsym.render.plots import DEFAULT_DELTAS

    if ":" not in value:
        return value
    lo, _, hi = value.partition(":")
    try:
        lo_q, hi_q = Fraction(lo.strip()), Fraction(hi.strip())
    except (ValueError, ZeroDivisionError):
        raise ParameterError(must("--deltas", "LO:HI (e.g. 1e-10:1e-1) or a list 1e-6,1e-5", repr(value))) from None
    if not 0 < lo_q < hi_q < 1:
        raise ParameterError(must("--deltas", "LO:HI with 0 < LO < HI < 1", repr(value)))
    grid = [d for d in DEFAULT_DELTAS if lo_q <= d <= hi_q]
    return sorted(set(grid) | {lo_q, hi_q})


def _count(n: int, noun: str) -> str:
    """``1 point``, ``2 points``."""
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _summary(d, kind: str) -> str:
    if not d.x:
        return f"  {d.legend}: nothing finite to draw"
    var, val = ("α", "ε(α)") if kind == "budget" else ("δ", "ε(δ)")
    line = f"  {d.label}: {val} ≈ {d.y[0]:.6g} at {var} = {d.x[0]:g}"
    if len(d.x) > 1:
        line += f" … {d.y[-1]:.6g} at {var} = {d.x[-1]:g}"
    line += f" ({_count(len(d.x), 'point')})"
    if d.asymptote is not None:
        line += f"; ε(∞) ≈ {d.asymptote:.6g}"
    if d.infinite:
        line += f"; ∞ at {_count(len(d.infinite), 'order' if kind == 'budget' else 'delta')}"
        if kind == "budget":
            finite = [x for x, _ in d.infinite if x != float("inf")]
            if finite:
                line += f" ({d.infinite[0][1]})"
    return line


def run_plot(args) -> int:
    from rdpsym.render import plots

    path, fmt = _output(args.output)
    budget = args.kind == "budget"
    wrong = [flag for flag, given in (("--deltas", args.deltas is not None), ("--conversion", args.conversion),
                                      ("--exact", args.exact)) if given and budget]
    if not budget and args.max_order is not None:
        wrong.append("--max-order")
    if wrong:
        other = "epsilon-delta" if budget else "budget"
        raise ParameterError(must(", ".join(wrong), f"used with --kind {other} only", f"--kind {args.kind}"))
    if args.dps < 5:
        raise ParameterError(must("--dps", "an integer >= 5", args.dps))
    mechanisms = [_mechanism(s) for s in args.mechanisms]
    if args.exact and not any(name == "gaussian" for name, _ in mechanisms):
        raise ParameterError(must("--exact", "used with at least one gaussian:sigma=... curve",
                                  ", ".join(args.mechanisms)))
    entries = [m for _, m in mechanisms]
    if budget:
        if args.orders is not None and args.max_order is not None:
            raise ParameterError(must("--max-order", "used without --orders (it sets the default grid)",
                                      f"--orders {args.orders}"))
        try:
            grid = resolve(args.orders, name="--orders") if args.orders is not None else \
                plots.default_orders(args.max_order if args.max_order is not None else 100)
        except ParameterError as exc:
            raise ParameterError(str(exc).replace("max_order", "--max-order")) from None
        data = plots.budget_data(entries, grid, steps=args.steps, dps=args.dps)
        fig = plots._budget_figure(data, grid, None, args.title, args.yscale, args.size)
    else:
        orders = args.orders  # None: dp-accounting's orders and ∞, as for rdpsym epsilon
        if orders != "continuous":
            resolve(orders, name="--orders", continuous=True)
        deltas = plots._deltas(_deltas(args.deltas) if args.deltas is not None else None)
        conversion = args.conversion or "bbghs"
        data = plots.conversion_data(entries, deltas, orders=orders, conversion=conversion, steps=args.steps,
                                     exact=args.exact, dps=args.dps)
        fig = plots._conversion_figure(data, deltas, orders, conversion, args.steps, None, args.title,
                                       args.yscale, args.size)
    fig.savefig(path, format=fmt, dpi=args.dpi)
    print(f"wrote {path} ({'Rényi budget curves' if budget else 'ε(δ) conversion curves'}, {fmt})")
    for d in data:
        print(_summary(d, args.kind))
    return 0


def add_parser(sub) -> argparse.ArgumentParser:
    """Add ``plot`` to an argparse subparsers object; its ``run`` default is :func:`run_plot`."""
    p = sub.add_parser(
        "plot", help="draw Rényi budget curves ε(α) or (ε, δ) conversion curves ε(δ) to PNG, PDF or SVG",
        description="Draw Rényi budget curves α ↦ ε(α) (--kind budget, the default) or, per δ, the ε of "
                    "rdpsym epsilon (--kind epsilon-delta). Example: rdpsym plot laplace:scale=1 gaussian:sigma=2 "
                    "randomized-response:p=0.731 --output curves.png")
    p.add_argument("mechanisms", nargs="+", metavar="MECHANISM[:NAME=VALUE,...]",
                   help=f"e.g. gaussian:sigma=1 or sampled-gaussian:q=0.01,sigma=1.1; names: {', '.join(REGISTRY)}")
    p.add_argument("--output", "-o", required=True, help="the file to write: .png, .pdf or .svg")
    p.add_argument("--kind", choices=KINDS, default="budget",
                   help="budget: ε(α) against the order (default); epsilon-delta: ε(δ) against δ")
    p.add_argument("--steps", type=_steps, default=1, help="k-fold composition of every curve (default 1)")
    p.add_argument("--orders", default=None,
                   help="budget: a list '1.5,2,4,inf' or a grid name (default: 1.01 … --max-order, dense; "
                        "ε(∞) is drawn as an asymptote where finite); epsilon-delta: the orders minimised over, "
                        "as for rdpsym epsilon (default: dp-accounting's orders and inf, so a pure-DP curve is "
                        "never above its own ε; a grid name or list is used as given)")
    p.add_argument("--max-order", default=None, help="budget: the largest order of the default grid (default 100)")
    p.add_argument("--deltas", default=None,
                   help="epsilon-delta: LO:HI (8 per decade) or a list '1e-6,1e-5' (default 1e-10:1e-1)")
    p.add_argument("--conversion", default=None, choices=["bbghs", "balle", "mironov"],
                   help="epsilon-delta: as for rdpsym epsilon (default bbghs)")
    p.add_argument("--exact", action="store_true",
                   help="epsilon-delta: also draw each Gaussian's exact ε(δ) (Balle–Wang 2018), dotted")
    p.add_argument("--yscale", choices=["linear", "log"], default="linear", help="the ε axis (default linear)")
    p.add_argument("--title", default=None, help="the title ('' for none)")
    p.add_argument("--size", type=_size, default=(7.0, 4.5), help="WIDTHxHEIGHT in inches (default 7x4.5)")
    p.add_argument("--dpi", type=_dpi, default=120, help="resolution of a PNG (default 120)")
    p.add_argument("--dps", type=int, default=30, help="digits of the certified values drawn (default 30)")
    p.set_defaults(run=run_plot)
    return p
