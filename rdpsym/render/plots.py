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

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from flint import ctx, fmpq

from rdpsym.accounting import api
from rdpsym.accounting import conversions as conv
from rdpsym.accounting.components import Component, Infinite
from rdpsym.accounting.curve import RdpCurve
from rdpsym.accounting.orders import resolve
from rdpsym.foundations.balls import bits_for, precision, to_arb
from rdpsym.foundations.errors import ParameterError, must, quoted
from rdpsym.foundations.reading import dps as read_dps
from rdpsym.foundations.reading import integer, rational

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


def _grid(lo: float, hi: float, points: int) -> list[Fraction]:
    """``points`` log-spaced numbers from lo to hi, each rounded to 3 significant digits (exact decimals)."""
    step = math.log(hi / lo) / (points - 1)
    return [Fraction(f"{lo * math.exp(i * step):.3g}") for i in range(points)]


def default_orders(max_order: object = 100, points: int = 200, name: str = "max_order") -> tuple:
    """The default orders of :func:`budget_curves`: α in [1.01, ``max_order``], dense on a log axis.

    ``points`` log-spaced orders from 1.01 to ``max_order``, each rounded to
    three significant digits (so they are short exact decimals: 1.01, 1.03,
    1.06, …), together with every integer from 2 to ``max_order``, sorted and
    without duplicates: about 290 orders for the default 100.  1.01 starts the
    grid because α = 1 (the KL divergence) is not an RDP order; on a log α
    axis the gap it leaves is invisible.

    >>> grid = default_orders()
    >>> grid[0], grid[-1], len(grid), all(a in grid for a in range(2, 101))
    (101/100, 100, 289, True)
    >>> [float(a) for a in default_orders(10, points=5)]
    [1.01, 1.79, 2.0, 3.0, 3.18, 4.0, 5.0, 5.64, 6.0, 7.0, 8.0, 9.0, 10.0]
    """
    top = rational(max_order, name)  # ``name``: what a message calls it (``--max-order`` on the command line)
    if not top > fmpq(101, 100) or top > 10**6:
        raise ParameterError(must(name, "a number in (1.01, 10^6]", quoted(max_order)))
    if isinstance(points, bool) or not isinstance(points, int) or not 2 <= points <= 10**4:
        raise ParameterError(must("points", "an integer in [2, 10^4]", quoted(points)))
    top_f = Fraction(int(top.p), int(top.q))
    grid = {a for a in _grid(1.01, float(top_f), points) if Fraction(101, 100) <= a <= top_f}
    grid |= {Fraction(k) for k in range(2, int(top_f) + 1)} | {Fraction(101, 100), top_f}
    return tuple(fmpq(a.numerator, a.denominator) for a in sorted(grid))


#: The default deltas of :func:`conversion_curves`: 10⁻¹⁰ … 10⁻¹, 8 per decade, 3 significant digits.
DEFAULT_DELTAS = tuple(Fraction(f"{10 ** (-10 + i / 8):.2e}") for i in range(73))


@dataclass(frozen=True)
class CurveData:
    """The points one line of a plot draws, and what it leaves out.

    ``x`` and ``y`` are the drawn floats (orders and ε(α) for a budget curve,
    δ and ε(δ) for a conversion curve); ``exact_x`` holds the same abscissae
    as exact rationals.  ``infinite`` lists the abscissae where the value is ∞
    with the reason (not drawn).  ``asymptote`` is ε(∞) when finite (budget
    curves), ``orders`` the order that gives each ε(δ) (conversion curves).
    ``kind`` is ``"rdp"``, ``"conversion"`` or ``"exact"`` (the Gaussian's exact curve).
    """

    label: str
    x: tuple
    y: tuple
    exact_x: tuple = ()
    infinite: tuple = ()
    asymptote: float | None = None
    orders: tuple = ()
    kind: str = "rdp"
    note: str = ""

    @property
    def legend(self) -> str:
        """The legend entry: the label, and the note (where ∞, ε(∞)) if any."""
        return f"{self.label} ({self.note})" if self.note else self.label


# --------------------------------------------------------------------------- input checks


def _named_curves(curves: object) -> list[tuple[str, object, RdpCurve | None]]:
    """(label, original entry, curve or None if not yet built) per entry; checks the types only."""
    if isinstance(curves, Mapping):
        items = list(curves.items())
        labels = [str(k) for k, _ in items]
        entries = [v for _, v in items]
    elif isinstance(curves, RdpCurve) or callable(getattr(curves, "curve", None)):
        labels, entries = [None], [curves]  # one curve or mechanism
    elif isinstance(curves, str) or not isinstance(curves, Sequence):
        raise ParameterError(must("curves", "a list of curves or mechanisms, or a mapping label -> curve",
                                  type(curves).__name__))
    else:
        entries = list(curves)
        labels = [None] * len(entries)
    if not entries:
        raise ParameterError(must("curves", "a non-empty list of curves or mechanisms", "an empty one"))
    for i, e in enumerate(entries):
        if not isinstance(e, RdpCurve) and not callable(getattr(e, "curve", None)):
            raise ParameterError(must(f"curves[{i}]", "an RdpCurve or an object with .curve() (a mechanism)",
                                      type(e).__name__))
    return list(zip(labels, entries))


def _build(named: list, steps: int) -> list[tuple[str, object, RdpCurve]]:
    out = []
    for label, entry in named:
        c = entry if isinstance(entry, RdpCurve) else entry.curve()
        if not isinstance(c, RdpCurve):
            raise ParameterError(must(f"{type(entry).__name__}.curve()", "an RdpCurve", type(c).__name__))
        if steps > 1:
            c = c * steps
        out.append((label if label is not None else c.label, entry, c))
    return out


def _check_ax(ax: object) -> None:
    from matplotlib.axes import Axes

    if ax is not None and not isinstance(ax, Axes):
        raise ParameterError(must("ax", "a matplotlib Axes or None", type(ax).__name__))


def _check_figsize(figsize: object) -> None:
    try:
        w, h = (float(v) for v in figsize)
        ok = 0 < w <= 100 and 0 < h <= 100
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise ParameterError(must("figsize", "(width, height) in inches, each in (0, 100]", quoted(figsize)))


def _check_scale(name: str, scale: object) -> str:
    if scale not in ("linear", "log"):
        raise ParameterError(must(name, "'linear' or 'log'", quoted(scale)))
    return scale


def read_deltas(deltas: object) -> tuple:
    """The δ grid of a conversion plot: the default, a comma-separated string or a list, each in (0, 1), exactly."""
    if deltas is None:
        return DEFAULT_DELTAS
    if isinstance(deltas, str):
        deltas = [s for s in (t.strip() for t in deltas.split(",")) if s]
    try:
        items = list(deltas)
    except TypeError:
        raise ParameterError(must("deltas", "a list of numbers in (0, 1)", quoted(deltas))) from None
    if not items:
        raise ParameterError(must("deltas", "a non-empty list of numbers in (0, 1)", "an empty list"))
    out = []
    for d in items:
        q = rational(d, "delta")
        if not 0 < q < 1:
            raise ParameterError(must("delta", "in the open interval (0, 1)", d))
        out.append(Fraction(int(q.p), int(q.q)))
    if len(set(out)) != len(out):
        raise ParameterError(must("deltas", "a list without duplicates", [str(d) for d in out]))
    return tuple(sorted(out))


def _orders_for_budget(orders: object) -> tuple:
    return default_orders() if orders is None else resolve(orders)


def _float(order) -> float:
    return math.inf if order == math.inf else int(order.p) / int(order.q)


def _fmt(x: float) -> str:
    return f"{x:.4g}"


# --------------------------------------------------------------------------- data


def _where_infinite(curve: RdpCurve, orders: Sequence, infinite: set) -> str:
    """A short phrase: where on the plotted grid the curve is ∞."""
    if not infinite:
        return ""
    finite = [a for a in orders if a not in infinite]
    if not finite:
        return "∞ at every order plotted"
    below = [a for a in orders if a < curve.min_order]
    if curve.min_order > 1 and set(below) == infinite:
        return f"∞ for α < {_fmt(_float(curve.min_order))}"
    runs, run = [], []
    for a in orders:
        if a in infinite:
            run.append(a)
        elif run:
            runs.append(run)
            run = []
    if run:
        runs.append(run)
    parts = [f"α = {_fmt(_float(r[0]))}" if len(r) == 1 else f"α ∈ [{_fmt(_float(r[0]))}, {_fmt(_float(r[-1]))}]"
             for r in runs[:2]]
    return "∞ at " + ", ".join(parts) + (", …" if len(runs) > 2 else "")


def budget_data(curves, orders=None, *, steps: int = 1, dps: int = 30) -> list[CurveData]:
    """The points :func:`budget_curves` draws: ε(α) per curve at each finite order.

    ``curves``: a list of :class:`~rdpsym.RdpCurve` or mechanisms (anything
    with ``.curve()``), or a mapping label → curve.  ``orders``: ``None`` for
    :func:`default_orders`, or anything :func:`rdpsym.epsilon` accepts (a grid
    name, a list, ``"2, 4, 8.5"``); ``inf`` in it is not drawn but gives the
    asymptote (which is computed without it too), and a curve that is ∞ there
    says ``ε(∞) = ∞`` in its note.  ``steps``: k-fold composition of every
    curve.  Values are midpoints of certified balls narrower than 10^-dps
    (relative).

    >>> import rdpsym
    >>> [d] = budget_data([rdpsym.gaussian(sigma=2)], orders=[2, 4, 8, "inf"])
    >>> d.label, d.x, d.y, d.infinite[0][0]
    ('gaussian(sigma=2, sensitivity=1)', (2.0, 4.0, 8.0), (0.25, 0.5, 1.0), inf)
    """
    named = _named_curves(curves)
    grid = _orders_for_budget(orders)
    steps = integer(steps, "steps", minimum=1)
    dps = read_dps(dps)
    out = []
    for label, _, c in _build(named, steps):
        balls = c.enclosures(grid, dps)
        at_infinity = balls[-1] if grid[-1] == math.inf else api.at_infinity(c, dps)
        x, y, exact_x, infinite = [], [], [], []
        for a, v in zip(grid, balls):
            if isinstance(v, Infinite):
                infinite.append((_float(a), v.reason))
            elif a != math.inf:
                x.append(_float(a))
                y.append(float(v.mid()))
                exact_x.append(a)
        asymptote = None if isinstance(at_infinity, Infinite) else float(at_infinity.mid())
        finite_grid = [a for a in grid if a != math.inf]
        where = _where_infinite(c, finite_grid, {a for a, v in zip(grid, balls)
                                                 if a != math.inf and isinstance(v, Infinite)})
        notes = [where] if where else []
        if asymptote is not None:
            notes.append(f"ε(∞) = {_fmt(asymptote)}, dashed")
        elif grid[-1] == math.inf and finite_grid:  # ∞ was asked for: say the curve is ∞ there
            notes.append("ε(∞) = ∞")
        out.append(CurveData(label, tuple(x), tuple(y), tuple(exact_x), tuple(infinite), asymptote, (), "rdp",
                             "; ".join(notes)))
    return out


def _memoised(c: RdpCurve) -> RdpCurve:
    """The same curve, remembering its balls per (precision, order): ε(δ) at many δ evaluates it once."""
    cache: dict = {}

    def balls(orders):
        prec = ctx.prec
        keys = [(prec, a if a == math.inf else (int(a.p), int(a.q))) for a in orders]
        missing = [a for a, k in zip(orders, keys) if k not in cache]
        if missing:
            for a, v in zip(missing, c.balls(missing)):
                cache[(prec, a if a == math.inf else (int(a.p), int(a.q)))] = v
        return [cache[k] for k in keys]

    component = Component(c.label, balls, None, c.certified, "memoised", c.convex)
    return RdpCurve(((1, component),), c.min_order, c.label)


def _gaussian_parameters(entry: object, steps: int):
    """(σ, Δ√k) of a Gaussian mechanism entry, as balls, or None if the entry is not one."""
    params = getattr(entry, "parameters", None)
    if getattr(entry, "name", None) != "gaussian" or not isinstance(params, dict):
        return None
    try:
        sigma = to_arb(params["sigma"])
        sensitivity = to_arb(params.get("sensitivity", 1)) * to_arb(steps).sqrt()
    except (TypeError, KeyError, ArithmeticError):
        return None
    return sigma, sensitivity


def conversion_data(curves, deltas=None, *, orders: object = None, conversion: str = "bbghs",
                    steps: int = 1, exact: bool = False, dps: int = 30) -> list[CurveData]:
    """The points :func:`conversion_curves` draws: ε(δ) = ``rdpsym.epsilon(curve, δ, orders, conversion)``.

    ``deltas``: ``None`` for :data:`DEFAULT_DELTAS` (10⁻¹⁰ … 10⁻¹, 8 per
    decade), or a list of numbers in (0, 1) (read exactly: 1e-5 is 1/10⁵).
    ``orders`` and ``conversion`` are :func:`rdpsym.epsilon`'s (by default
    dp_accounting's orders and ∞, so ε(δ) ≤ D_∞ for pure DP).  Each y is
    the ε it reports (rounded up at ``dps`` digits), as a float; ``orders``
    of the result holds the order that gives it.  With ``exact=True``, every
    entry given as a Gaussian mechanism (``rdpsym.gaussian(...)``) also gets
    its exact curve (Balle–Wang 2018, Thm 8; k-fold composition is the
    Gaussian with sensitivity Δ√k), a :class:`CurveData` of kind ``"exact"``.

    >>> import rdpsym
    >>> rdp, best = conversion_data([rdpsym.gaussian(sigma=2)], deltas=[1e-5], exact=True)
    >>> rdp.y, rdp.orders, best.label
    ((2.16571565902...,), (9.6,), 'gaussian(sigma=2, sensitivity=1): exact')
    >>> best.y  # the conversion loses about 0.17 here
    (1.99309140441...,)
    """
    named = _named_curves(curves)
    ds = read_deltas(deltas)
    if not (isinstance(orders, str) and orders == "continuous"):
        resolve(orders, continuous=True)
    api.conversion_name(conversion)
    steps = integer(steps, "steps", minimum=1)
    dps = read_dps(dps)
    if not isinstance(exact, bool):
        raise ParameterError(must("exact", "True or False", quoted(exact)))
    if exact and not any(getattr(e, "name", None) == "gaussian" for _, e in named):
        raise ParameterError(must("exact", "used with at least one Gaussian mechanism (rdpsym.gaussian(...))",
                                  "no Gaussian mechanism among the curves"))
    out = []
    x = tuple(float(d) for d in ds)
    for label, entry, c in _build(named, steps):
        fast = _memoised(c)
        y, xs, exact_x, infinite, best = [], [], [], [], []
        for d, xf in zip(ds, x):
            r = api.epsilon(fast, d, orders=orders, conversion=conversion, dps=dps)
            if r.enclosure == math.inf:
                infinite.append((xf, "every order gives ε = ∞"))
                continue
            xs.append(xf)
            exact_x.append(d)
            y.append(float(r.value))
            best.append(_float(r.order))
        note = "" if not infinite else ("ε = ∞ at every δ plotted" if not xs else f"ε = ∞ at {len(infinite)} δ")
        out.append(CurveData(label, tuple(xs), tuple(y), tuple(exact_x), tuple(infinite), None, tuple(best),
                             "conversion", note))
        with precision(bits_for(dps)):  # √k is formed here too: at the ambient 53 bits it capped the digits
            params = _gaussian_parameters(entry, steps) if exact else None
            if params is not None:
                eps = [conv.gaussian_epsilon(fmpq(d.numerator, d.denominator), *params) for d in ds]
                ys = tuple(float(e.mid()) for e in eps)
        if params is not None:
            out.append(CurveData(f"{label}: exact", x, ys, ds, (), None, (), "exact",
                                 "Balle–Wang 2018, dotted"))
    return out


# --------------------------------------------------------------------------- drawing


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
