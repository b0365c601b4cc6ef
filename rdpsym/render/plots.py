"""Plots: Rényi budget curves α ↦ ε(α) and (ε, δ) conversion curves δ ↦ ε(δ).

Mironov (2017, §III and §VI) calls α ↦ ε(α) a mechanism's *Rényi budget
curve*: :func:`budget_curves` draws it for one or more curves, on a log α axis
like his Fig. 1.  :func:`conversion_curves` draws what the curve is worth as
(ε, δ)-DP: at each δ, the ε that :func:`rdpsym.epsilon` reports (the minimum
over the orders of a conversion), optionally beside the exact (ε, δ) curve of
the Gaussian mechanism (Balle and Wang 2018, Thm 8) to show what the
conversion loses.

Every number drawn comes from the certified computations of
:mod:`rdpsym.accounting`; only the drawing is in floating point (a ball's
midpoint, or ``rdpsym.epsilon``'s rounded-up value, as the nearest double).
:func:`budget_data` and :func:`conversion_data` return the drawn numbers, and
the lines of the returned figure hold them too (``ax.get_lines()``).

Orders where a curve is infinite (:class:`rdpsym.Infinite`) are left out of
its line, which has a gap there, and its legend entry says where (``ε(∞) = ∞``
when the orders drawn include ∞): no NaN is ever drawn.  A point with no
finite neighbour on the grid (a single finite order, or one between two
gaps) is drawn as a marker.  A curve with a finite ε(∞) = D_∞ (pure DP:
Laplace, randomized response) gets a dashed horizontal asymptote in its colour.

ε(δ) is minimised, by default, over dp_accounting's orders *and* α = ∞, so a
pure-DP curve is never drawn above its own ε = D_∞ (an (ε, 0)-DP mechanism is
(ε, δ)-DP at every δ); pass ``orders="dp-accounting"`` for exactly the peer's grid.

A legend goes where matplotlib finds room (``loc="best"``); if it would still
cover a line, a marker or an asymptote there, it goes below the axes instead.

The figures are :class:`matplotlib.figure.Figure` objects made without
``pyplot``: no global state, no GUI backend, safe in threads and on servers.
``fig.savefig("curves.png")`` (or ``.pdf``, ``.svg``) writes one.  matplotlib (and numpy) are imported by
the functions that draw, not with this module: the command line imports it and
starts without them (a third of a second).

The figures in ``docs/`` are made by the command line (``rdpsym plot``)::

    rdpsym plot laplace:scale=1 randomized-response:p=0.731 gaussian:sigma=2 --max-order 32 \
        --title "Rényi budget curves: two ≈1-DP mechanisms and a Gaussian" --output docs/budget-curves.png
    rdpsym plot --kind epsilon-delta gaussian:sigma=1 gaussian:sigma=2 --exact \
        --title "RDP → (ε, δ)-DP (bbghs, dp-accounting orders) vs the exact Gaussian ε(δ)" \
        --output docs/conversion-curves.png

The budget figure is calibrated so the two pure-DP mechanisms are (nearly) the
same ε-DP: Laplace with scale 1 is 1-DP, randomized response with p = 0.731
is log(0.731/0.269) ≈ 0.9997-DP (p = e/(1+e) would be exactly 1 but is not a
rational).  Both curves rise from their KL divergence and level off at ε(∞) =
D_∞ ≈ 1 (dashed), randomized response above Laplace at every order drawn:
it is the worst case of ε-DP (Bun–Steinke 2016, Prop 3.3).  The Gaussian with
σ = 2, ε(α) = α/8, is cheaper at low orders, crosses them at α ≈ 7.2 and 7.6,
then grows without bound: it is not pure DP.  Orders stop at 32, where RDP accountants stop
(Mironov 2017, §VII), so the three stay readable on a linear ε axis.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rdpsym.foundations.errors import ParameterError, must
from rdpsym.foundations.reading import dps as read_dps
from rdpsym.foundations.reading import integer
from rdpsym.render.plot_data import (
    DEFAULT_DELTAS,
    CurveData,
    _check_ax,
    _check_figsize,
    _check_scale,
    _named_curves,
    _orders_for_budget,
    budget_data,
    conversion_data,
    default_orders,
    read_deltas,
)

if TYPE_CHECKING:  # annotations only: matplotlib itself is imported by the functions that draw
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

#: The default figure size (inches).
FIGSIZE = (7.0, 4.5)
#: Axis labels (matplotlib mathtext for the subscript).
BUDGET_XLABEL = "order α"
BUDGET_YLABEL = r"ε(α) = $D_\alpha$ (nats)"
CONVERSION_XLABEL = "δ"
CONVERSION_YLABEL = "ε(δ)"


def _axes(ax: Axes | None, figsize) -> tuple[Figure, Axes]:
    if ax is not None:
        return ax.figure, ax
    from matplotlib.figure import Figure

    fig = Figure(figsize=figsize, layout="constrained")
    return fig, fig.add_subplot()


def _segments(xs: tuple, ys: tuple, exact_x: tuple, all_x: Sequence) -> list[tuple[list, list]]:
    """Split the finite points into runs that are contiguous on the full grid (a gap where ∞)."""
    position = {a: i for i, a in enumerate(all_x)}
    runs: list[tuple[list, list]] = []
    last = None
    for x, y, a in zip(xs, ys, exact_x):
        i = position[a]
        if last is None or i != last + 1:
            runs.append(([], []))
        runs[-1][0].append(x)
        runs[-1][1].append(y)
        last = i
    return runs


def _draw(ax: Axes, data: list[CurveData], grids: list[Sequence], yscale: str) -> None:
    import matplotlib
    import numpy as np

    if yscale == "log" and not any(0 < y < float("inf") for d in data for y in d.y) and \
            not any(d.asymptote is not None and d.asymptote > 0 for d in data):
        # (randomized response at p = 1/2, ε = 0 everywhere: matplotlib's ValueError, a traceback; a probe)
        raise ParameterError(must("yscale", "'linear' where no finite value above 0 is plotted (a log axis has "
                                  "nothing to show)", "'log'"))
    colours = matplotlib.rcParams["axes.prop_cycle"].by_key().get("color", ["C0"])
    index = -1
    for d, grid in zip(data, grids):
        if d.kind != "exact":
            index += 1
        colour = colours[index % len(colours)]
        style = {"color": colour, "linewidth": 1.8}
        if d.kind == "exact":
            style.update(linestyle=":", linewidth=2.2)
        points = [(x, y, a) for x, y, a in zip(d.x, d.y, d.exact_x) if yscale == "linear" or y > 0]
        label = d.legend
        if len(points) < len(d.x):
            label += " (ε = 0 not drawn on the log axis)"
        runs = _segments(*zip(*points), grid) if points else [([], [])]
        # The legend entry goes with the first run that is a line (a point alone is a marker).
        first = next((i for i, (xs, _) in enumerate(runs) if len(xs) > 1), 0)
        for i, (xs, ys) in enumerate(runs):
            alone = {"marker": "o", "markersize": 5, "linestyle": "none"} if len(xs) == 1 else {}
            ax.plot(np.array(xs, dtype=float), np.array(ys, dtype=float), label=label if i == first else "_nolegend_",
                    gid=d.label, **{**style, **alone})
        if d.asymptote is not None and (yscale == "linear" or d.asymptote > 0):
            ax.axhline(d.asymptote, color=colour, linestyle="--", linewidth=1, alpha=0.7, label="_nolegend_",
                       gid=f"{d.label}: ε(∞)")


def _covers(ax: Axes, box) -> bool:
    """Whether the display-space box covers any drawn data of ``ax``: a line, a marker or an asymptote."""
    none = ("None", "none", "", " ", None)
    for line in ax.get_lines():
        path = line.get_transform().transform_path(line.get_path())
        if len(path.vertices) == 0:
            continue
        marker = line.get_marker() not in none
        grown = box.padded(line.get_markersize() * ax.figure.dpi / 144) if marker else box
        if any(grown.contains(x, y) for x, y in path.vertices):
            return True
        if line.get_linestyle() not in none and path.intersects_bbox(box, filled=False):
            return True
    return False


def _legend(ax: Axes) -> None:
    """A legend where it hides no data: matplotlib's best spot inside the axes, else below them."""
    from matplotlib import transforms

    fig = ax.figure
    legend = ax.legend(loc="best", fontsize="small")
    fig.draw_without_rendering()  # lays the figure out and places the legend
    if not _covers(ax, legend.get_window_extent()):
        return
    legend.remove()
    fig.draw_without_rendering()
    # Below the tick labels and the x label, measured in points so it stays there when the layout changes.
    below = (ax.get_window_extent().y0 - ax.get_tightbbox().y0) * 72 / fig.dpi + 4
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, 0), fontsize="small",
              bbox_transform=ax.transAxes + transforms.ScaledTranslation(0, -below / 72, fig.dpi_scale_trans))


def budget_curves(curves, orders=None, *, steps: int = 1, dps: int = 30, ax: Axes | None = None,
                  title: str | None = None, yscale: str = "linear", figsize=FIGSIZE) -> Figure:
    """Rényi budget curves α ↦ ε(α) (Mironov 2017, §VI), one line per curve, on a log α axis.

    ``curves``: a list of :class:`~rdpsym.RdpCurve` or mechanisms, or a
    mapping label → curve (the legend shows the label: by default the curve's,
    i.e. the mechanism and its parameters).  ``orders``: ``None`` for
    :func:`default_orders` (1.01 … 100), or a grid name or list of orders.
    y is ε(α) = D_α in nats; ``yscale="log"`` shows curves of very different
    sizes together.  Orders where a curve is ∞ are a gap in its line and are
    named in its legend entry; a finite ε(∞) is a dashed asymptote.
    ``ax``: draw into this Axes (the figure returned is its figure);
    ``title``: ``None`` for the default, ``""`` for none.  Each curve's
    points are ``budget_data(...)``'s, and its lines carry ``gid=label``.

    >>> import rdpsym
    >>> fig = budget_curves([rdpsym.gaussian(sigma=2), rdpsym.laplace(scale=1)], orders=[2, 4, 8])
    >>> ax = fig.axes[0]
    >>> ax.get_xlabel(), ax.get_xscale()
    ('order α', 'log')
    >>> line = ax.get_lines()[0]
    >>> line.get_gid(), line.get_xdata().tolist(), line.get_ydata().tolist()
    ('gaussian(sigma=2, sensitivity=1)', [2.0, 4.0, 8.0], [0.25, 0.5, 1.0])
    >>> [t.get_text() for t in ax.get_legend().get_texts()][1]
    'laplace(scale=1, sensitivity=1) (ε(∞) = 1, dashed)'
    >>> fig.savefig(__import__("io").BytesIO(), format="png")
    """
    _named_curves(curves)  # every input is checked before any work
    grid = _orders_for_budget(orders)
    _check_ax(ax)
    _check_figsize(figsize)
    _check_scale("yscale", yscale)
    integer(steps, "steps", minimum=1)
    read_dps(dps)
    return budget_figure(budget_data(curves, grid, steps=steps, dps=dps), grid, ax, title, yscale, figsize)


def budget_figure(data: list[CurveData], grid: Sequence, ax: Axes | None, title: str | None, yscale: str,
                   figsize) -> Figure:
    from matplotlib import ticker

    fig, ax = _axes(ax, figsize)
    _draw(ax, data, [grid] * len(data), yscale)
    ax.set_xscale("log", base=2)
    # Powers of two, printed plainly (1, 2, 4, …, 64): the orders RDP accountants use.
    ax.xaxis.set_major_locator(ticker.LogLocator(base=2))
    ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:g}"))
    ax.xaxis.set_minor_locator(ticker.NullLocator())
    ax.set_yscale(yscale)
    ax.set_xlabel(BUDGET_XLABEL)
    ax.set_ylabel(BUDGET_YLABEL)
    ax.set_title("Rényi budget curves ε(α)" if title is None else title, wrap=True)
    ax.grid(True, which="major", alpha=0.3)
    _legend(ax)
    return fig


def conversion_curves(curves, deltas=None, *, orders: object = None, conversion: str = "bbghs",
                      steps: int = 1, exact: bool = False, dps: int = 30, ax: Axes | None = None,
                      title: str | None = None, yscale: str = "linear", figsize=FIGSIZE) -> Figure:
    """ε(δ) of each curve converted to (ε, δ)-DP, for δ on a log axis (default 10⁻¹⁰ … 10⁻¹).

    At each δ, y is ``rdpsym.epsilon(curve, δ, orders=orders,
    conversion=conversion)`` (the minimum over ``orders``, rounded up; by
    default dp_accounting's orders and ∞, where a pure-DP curve gives its ε).
    ``steps``: k-fold composition of every curve.  ``exact=True`` adds, for
    each Gaussian mechanism among ``curves``, its exact ε(δ) (Balle–Wang 2018)
    as a dotted line of the same colour: the distance between the two is what
    the RDP conversion loses.  ``ax``, ``title``, ``yscale`` as in
    :func:`budget_curves`; the points are ``conversion_data(...)``'s.

    >>> import rdpsym
    >>> fig = conversion_curves([rdpsym.gaussian(sigma=2)], deltas=[1e-8, 1e-5, 1e-2], exact=True)
    >>> ax = fig.axes[0]
    >>> ax.get_xlabel(), ax.get_ylabel(), ax.get_xscale()
    ('δ', 'ε(δ)', 'log')
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['gaussian(sigma=2, sensitivity=1)', 'gaussian(sigma=2, sensitivity=1): exact (Balle–Wang 2018, dotted)']
    >>> ax.get_lines()[0].get_xdata().tolist()
    [1e-08, 1e-05, 0.01]
    """
    _named_curves(curves)  # every input is checked before any work
    ds = read_deltas(deltas)
    _check_ax(ax)
    _check_figsize(figsize)
    _check_scale("yscale", yscale)
    data = conversion_data(curves, ds, orders=orders, conversion=conversion, steps=steps, exact=exact, dps=dps)
    return conversion_figure(data, ds, orders, conversion, steps, ax, title, yscale, figsize)


def conversion_figure(data: list[CurveData], ds: Sequence, orders: object, conversion: str, steps: int,
                       ax: Axes | None, title: str | None, yscale: str, figsize) -> Figure:
    fig, ax = _axes(ax, figsize)
    _draw(ax, data, [ds] * len(data), yscale)
    ax.set_xscale("log")
    ax.set_yscale(yscale)
    ax.set_xlabel(CONVERSION_XLABEL)
    ax.set_ylabel(CONVERSION_YLABEL)
    grid = "dp-accounting and ∞" if orders is None else orders if isinstance(orders, str) else "given orders"
    default = f"RDP → (ε, δ)-DP: conversion {conversion}, orders {grid}" + (f", {steps} steps" if steps > 1 else "")
    ax.set_title(default if title is None else title, wrap=True)
    ax.grid(True, which="major", alpha=0.3)
    _legend(ax)
    return fig


__all__ = ["CurveData", "DEFAULT_DELTAS", "budget_curves", "budget_data", "conversion_curves", "conversion_data",
           "default_orders"]
