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
import math
import sys
from fractions import Fraction
from pathlib import Path

from rdpsym.accounting.orders import resolve
from rdpsym.cli.help import SUMMARIES
from rdpsym.cli.output import OK, Outputs, check_path
from rdpsym.cli.params import spec_mechanism, steps
from rdpsym.foundations.errors import ParameterError, must, quoted
from rdpsym.foundations.files import replace_file
from rdpsym.foundations.reading import dps as read_dps
from rdpsym.foundations.reading import integer, number, rational
from rdpsym.laws.mechanisms import REGISTRY
from rdpsym.render import plots

#: Output formats, by extension.
FORMATS = {".png": "png", ".pdf": "pdf", ".svg": "svg"}
KINDS = ("budget", "epsilon-delta")


def _output(path: str) -> tuple[Path, str]:
    p = check_path(path, "--output", suffixes=tuple(FORMATS))
    return p, FORMATS[p.suffix.lower()]


def _size(value: str) -> tuple[float, float]:
    """``--size WIDTHxHEIGHT`` in inches, each in (0, 100] (an argparse type)."""
    w, sep, h = value.lower().partition("x")
    try:
        size = (float(number(w, "--size")), float(number(h, "--size"))) if sep else None
    except (ParameterError, TypeError):
        size = None
    if size is None or not all(0 < v <= 100 for v in size):
        raise argparse.ArgumentTypeError(must("--size", "WIDTHxHEIGHT in inches, e.g. 7x4.5", quoted(value)))
    return size


def _dpi(value: str) -> int:
    """``--dpi``: an integer in [10, 2000] (an argparse type)."""
    try:
        dpi = integer(value, "--dpi")
    except ParameterError:
        dpi = 0
    if not 10 <= dpi <= 2000:
        raise argparse.ArgumentTypeError(must("--dpi", "an integer in [10, 2000]", quoted(value)))
    return dpi


#: The most δs a ``LO:HI`` range is drawn at: 8 per decade up to 50 decades, fewer per decade beyond.
MAX_RANGE_DELTAS = 400


def _deltas(value: str):
    """``LO:HI`` (8 per decade on the default grid's points, from LO to HI, and both ends) or a comma-separated list,
    read exactly.  The range was the default grid (10⁻¹⁰ … 10⁻¹) cut to [LO, HI]: 1e-300:1e-1 drew one segment
    across 290 decades, and showed ε ≈ 21.7 at δ = 10⁻¹⁵⁰ where rdpsym's value is 26.6 (a review)."""
    if ":" not in value:
        return value
    lo, _, hi = value.partition(":")
    try:
        lo_q, hi_q = (Fraction(int(q.p), int(q.q)) for q in (rational(lo, "--deltas"), rational(hi, "--deltas")))
    except ParameterError:
        raise ParameterError(must("--deltas", "LO:HI (e.g. 1e-10:1e-1) or a list 1e-6,1e-5", quoted(value))) from None
    if not 0 < lo_q < hi_q < 1:
        raise ParameterError(must("--deltas", "LO:HI with 0 < LO < HI < 1", quoted(value)))
    if lo_q < Fraction(sys.float_info.min):
        return [lo_q, hi_q]  # (for the δ reader to refuse, naming the least δ a plot draws)
    first, last = math.ceil(8 * math.log10(lo_q)), math.floor(8 * math.log10(hi_q))
    step = max(1, math.ceil((last - first + 1) / MAX_RANGE_DELTAS))
    grid = [Fraction(f"{10 ** (k / 8):.2e}") for k in range(first, last + 1, step)]  # (as default_grid's are written)
    return sorted({d for d in grid if lo_q <= d <= hi_q} | {lo_q, hi_q})


def _title(title: str | None) -> str | None:
    """``--title``, read before any work: text whose $…$ parts (matplotlib's rule: an even number of unescaped
    $) matplotlib's mathtext parser reads.  A title it cannot read was a traceback after the curves were
    computed (a probe: '$\\frac{1}{$')."""
    if title is None:
        return None
    from matplotlib import cbook
    from matplotlib.mathtext import MathTextParser

    if cbook.is_math_text(title):
        try:
            MathTextParser("path").parse(title)
        except Exception as exc:  # noqa: BLE001 - pyparsing's and matplotlib's errors alike: the text is refused
            reason = (str(exc).strip().splitlines() or [type(exc).__name__])[-1]
            raise ParameterError(must("--title", "text whose $...$ parts are mathtext matplotlib reads (or no $)",
                                      f"{quoted(title)} ({reason[:120]})")) from None
    return title


def _count(n: int, noun: str) -> str:
    """``1 point``, ``2 points``."""
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _summary(d, kind: str) -> str:
    var, val = ("α", "ε(α)") if kind == "budget" else ("δ", "ε(δ)")
    beyond = ""
    if d.beyond:  # (finite values no float holds: written out, never as the float's inf or 0)
        (x0, v0), (x1, v1) = d.beyond[0], d.beyond[-1]
        beyond = f"{val} = {v0} at {var} = {x0:g}" + (f" … {v1} at {var} = {x1:g}" if len(d.beyond) > 1 else "") + \
            f", beyond a float's range: not drawn ({_count(len(d.beyond), 'point')})"
    if not d.x:
        return f"  {d.legend}: " + (beyond or "nothing finite to draw")
    line = f"  {d.label}: {val} ≈ {d.y[0]:.6g} at {var} = {d.x[0]:g}"
    if len(d.x) > 1:
        line += f" … {d.y[-1]:.6g} at {var} = {d.x[-1]:g}"
    line += f" ({_count(len(d.x), 'point')})"
    if beyond:
        line += f"; {beyond}"
    if d.asymptote is not None:
        line += f"; ε(∞) ≈ {d.asymptote:.6g}"
    if d.infinite:
        line += f"; ∞ at {_count(len(d.infinite), 'order' if kind == 'budget' else 'delta')}"
        if kind == "budget":
            finite = [x for x, _ in d.infinite if x != float("inf")]
            if finite:
                line += f" ({d.infinite[0][1]})"
    return line


#: The most pixels a figure may have (10⁸: 400 MB of RGBA while it is drawn).  Each of --size and --dpi was checked on
#: its own, so 30x30 inches at 2000 dpi, a 60 000² image (14 GB), was accepted and ended in MemoryError (a probe).
MAX_PIXELS = 10**8


def run(args) -> int:
    path, fmt = _output(args.output)
    pixels = args.size[0] * args.dpi * args.size[1] * args.dpi
    if pixels > MAX_PIXELS:
        asked = f"{args.size[0]:g}x{args.size[1]:g} at {args.dpi} dpi: {pixels:.3g} pixels"
        raise ParameterError(must("--size and --dpi", f"an image of at most {MAX_PIXELS:.0e} pixels (width × height "
                                  "× dpi²)", asked))
    budget = args.kind == "budget"
    wrong = [flag for flag, given in (("--deltas", args.deltas is not None), ("--conversion", args.conversion),
                                      ("--exact", args.exact)) if given and budget]
    if not budget and args.max_order is not None:
        wrong.append("--max-order")
    if wrong:
        other = "epsilon-delta" if budget else "budget"
        raise ParameterError(must(", ".join(wrong), f"used with --kind {other} only", f"--kind {args.kind}"))
    dps = read_dps(args.dps, "--dps")
    title = _title(args.title)
    mechanisms = [spec_mechanism(s) for s in args.mechanisms]
    if args.exact and not any(name == "gaussian" for name, _ in mechanisms):
        raise ParameterError(must("--exact", "used with at least one gaussian:sigma=... curve",
                                  ", ".join(args.mechanisms)))
    entries = [m for _, m in mechanisms]
    if budget:
        if args.orders is not None and args.max_order is not None:
            raise ParameterError(must("--max-order", "used without --orders (it sets the default grid)",
                                      f"--orders {args.orders}"))
        grid = resolve(args.orders, name="--orders") if args.orders is not None else \
            plots.default_orders(args.max_order if args.max_order is not None else 100, name="--max-order")
        data = plots.budget_data(entries, grid, steps=args.steps, dps=dps)
        fig = plots.budget_figure(data, grid, None, title, args.yscale, args.size)
    else:
        orders = args.orders  # None: dp-accounting's orders and ∞, as for rdpsym epsilon
        if orders != "continuous":
            resolve(orders, name="--orders", continuous=True)
        deltas = plots.read_deltas(_deltas(args.deltas) if args.deltas is not None else None)
        conversion = args.conversion or "bbghs"
        data = plots.conversion_data(entries, deltas, orders=orders, conversion=conversion, steps=args.steps,
                                     exact=args.exact, dps=dps)
        fig = plots.conversion_figure(data, deltas, orders, conversion, args.steps, None, title,
                                       args.yscale, args.size)
    outputs = Outputs()
    if outputs.write("--output", lambda: replace_file(path, lambda p: fig.savefig(p, format=fmt, dpi=args.dpi))):
        print(f"wrote {path} ({'Rényi budget curves' if budget else 'ε(δ) conversion curves'}, {fmt})")
    for d in data:
        print(_summary(d, args.kind))
    return outputs.status(OK)


def register(sub) -> argparse.ArgumentParser:
    """Add ``plot`` to an argparse subparsers object; its ``run`` default is :func:`run`."""
    p = sub.add_parser(
        "plot", help=SUMMARIES["plot"],
        description="Draw Rényi budget curves α ↦ ε(α) (--kind budget, the default) or, per δ, the ε of "
                    "rdpsym epsilon (--kind epsilon-delta). Example: rdpsym plot laplace:scale=1 gaussian:sigma=2 "
                    "randomized-response:p=0.731 --output curves.png")
    p.add_argument("mechanisms", nargs="+", metavar="MECHANISM[:NAME=VALUE,...]",
                   help=f"e.g. gaussian:sigma=1 or sampled-gaussian:q=0.01,sigma=1.1; names: {', '.join(REGISTRY)}")
    p.add_argument("--output", "-o", required=True, help="the file to write: .png, .pdf or .svg")
    p.add_argument("--kind", choices=KINDS, default="budget",
                   help="budget: ε(α) against the order (default); epsilon-delta: ε(δ) against δ")
    p.add_argument("--steps", type=steps, default=1, help="k-fold composition of every curve (default 1)")
    p.add_argument("--orders", default=None,
                   help="budget: a list '1.5,2,4,inf' or a grid name (default: 1.01 … --max-order, dense; "
                        "ε(∞) is drawn as an asymptote where finite); epsilon-delta: the orders minimised over, "
                        "as for rdpsym epsilon (default: dp-accounting's orders and inf, so a pure-DP curve is "
                        "never above its own ε; a grid name or list is used as given)")
    p.add_argument("--max-order", default=None, help="budget: the largest order of the default grid (default 100)")
    p.add_argument("--deltas", default=None,
                   help=f"epsilon-delta: LO:HI (8 per decade, at most {MAX_RANGE_DELTAS} points) or a list "
                        "'1e-6,1e-5' (default 1e-10:1e-1)")
    p.add_argument("--conversion", default=None, choices=["bbghs", "balle", "mironov"],
                   help="epsilon-delta: as for rdpsym epsilon (default bbghs)")
    p.add_argument("--exact", action="store_true",
                   help="epsilon-delta: also draw each Gaussian's exact ε(δ) (Balle–Wang 2018), dotted")
    p.add_argument("--yscale", choices=["linear", "log"], default="linear", help="the ε axis (default linear)")
    p.add_argument("--title", default=None, help="the title ('' for none)")
    p.add_argument("--size", type=_size, default=(7.0, 4.5), help="WIDTHxHEIGHT in inches (default 7x4.5)")
    p.add_argument("--dpi", type=_dpi, default=120, help="resolution of a PNG (default 120)")
    p.add_argument("--dps", default="30", help="digits of the certified values drawn (default 30)")
    p.set_defaults(run=run)
    return p
