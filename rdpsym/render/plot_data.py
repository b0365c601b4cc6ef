"""The numbers behind rdpsym's plots: certified curve values per order and ε per δ, no drawing.

:func:`budget_data` and :func:`conversion_data` compute what :mod:`rdpsym.render.plots` draws (Mironov 2017,
§III's Rényi budget curves, and their (ε, δ) conversions) from the certified computations of
:mod:`rdpsym.accounting`, with the readers of the plots' arguments (orders, deltas, figure options).  Kept
apart from the drawing so that a table or a test can have the data without matplotlib.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from flint import ctx, fmpq

from rdpsym.accounting import api
from rdpsym.accounting import conversions as conv
from rdpsym.accounting.components import Component, Infinite
from rdpsym.accounting.curve import RdpCurve
from rdpsym.accounting.orders import resolve
from rdpsym.foundations.balls import bits_for, precision, to_arb
from rdpsym.foundations.errors import ParameterError, must, quoted
from rdpsym.foundations.reading import dps as read_dps
from rdpsym.foundations.reading import integer, open_probability, rational


def _grid(lo: float, hi: float, points: int) -> list[Fraction]:
    """``points`` log-spaced numbers from lo to hi, each rounded to 3 significant digits (exact decimals)."""
    step = math.log(hi / lo) / (points - 1)
    return [Fraction(f"{lo * math.exp(i * step):.3g}") for i in range(points)]


#: The largest integer order the default grid holds every integer up to.
INTEGERS_TO = 1000


def default_orders(max_order: object = 100, points: int = 200, name: str = "max_order") -> tuple:
    """The default orders of :func:`budget_curves`: α in [1.01, ``max_order``], dense on a log axis.

    ``points`` log-spaced orders from 1.01 to ``max_order``, each rounded to
    three significant digits (so they are short exact decimals: 1.01, 1.03,
    1.06, …), together with every integer from 2 to ``max_order`` (to
    :data:`INTEGERS_TO` at most: past it a log axis shows none apart, and 10⁶ of them exceeded the
    10⁴ orders a grid may hold after the range check had let 10⁶ through), sorted and
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
    grid |= {Fraction(k) for k in range(2, min(int(top_f), INTEGERS_TO) + 1)} | {Fraction(101, 100), top_f}
    return tuple(fmpq(a.numerator, a.denominator) for a in sorted(grid))


#: The default deltas of :func:`conversion_curves`: 10⁻¹⁰ … 10⁻¹, 8 per decade, 3 significant digits.
DEFAULT_DELTAS = tuple(Fraction(f"{10 ** (-10 + i / 8):.2e}") for i in range(73))
#: The least δ a plot takes: its axes are float64, where a smaller δ is 0 or subnormal (δ = 10⁻⁴⁰⁰ was drawn
#: nowhere and summed up "at δ = 0").  ``rdpsym epsilon`` takes any δ in (0, 1).
MIN_PLOT_DELTA = Fraction(sys.float_info.min)


@dataclass(frozen=True)
class CurveData:
    """The points one line of a plot draws, and what it leaves out.

    ``x`` and ``y`` are the drawn floats (orders and ε(α) for a budget curve,
    δ and ε(δ) for a conversion curve); ``exact_x`` holds the same abscissae
    as exact rationals.  ``infinite`` lists the abscissae where the value is ∞
    with the reason (not drawn).  ``asymptote`` is ε(∞) when finite (budget
    curves), ``orders`` the order that gives each ε(δ) (conversion curves; None where an exact (ε, δ) curve does).
    ``kind`` is ``"rdp"``, ``"conversion"`` or ``"exact"`` (the Gaussian's exact curve).
    ``beyond`` lists the abscissae whose finite value no float holds (ε(α) = 5·10¹⁹⁹⁹ at σ = 10⁻¹⁰⁰⁰, or 10⁻²⁰⁰¹),
    with the value written out: not drawn, and never said as the float's ∞ or 0.
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
    beyond: tuple = ()

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
        q = open_probability(d, "delta")
        q = Fraction(int(q.p), int(q.q))
        if q < MIN_PLOT_DELTA:
            raise ParameterError(must("delta", f"in [{float(MIN_PLOT_DELTA):.6g}, 1) to be drawn (a plot's axes are "
                                      "float64; rdpsym epsilon takes any δ in (0, 1))", d))
        out.append(q)
    if len(set(out)) != len(out):
        raise ParameterError(must("deltas", "a list without duplicates", [str(d) for d in out]))
    return tuple(sorted(out))


def _orders_for_budget(orders: object) -> tuple:
    """The orders of a budget plot: some finite (∞ alone drew nothing, and matplotlib raised "Data cannot be
    log-scaled"), each one a float holds (10⁴⁰⁰ raised a raw OverflowError); a review."""
    grid = default_orders() if orders is None else resolve(orders)
    finite = [a for a in grid if a != math.inf]
    if not finite:
        raise ParameterError(must("orders", "at least one finite order to draw (∞ gives the asymptote)", "only ∞"))
    if finite[-1] > fmpq(int(sys.float_info.max)):
        raise ParameterError(must("orders", "orders a float holds (up to 1.8e308) to be drawn (a plot's axes are "
                                  "float64; rdpsym epsilon takes any order)", _written_order(finite[-1])))
    return grid


def _written_order(order) -> str:
    return f"an order of {len(str(int(order.p) // int(order.q)))} digits"


def _float(order) -> float:
    """An order as a float: ∞ where it is ∞ or past a float's range (an order the conversion chose)."""
    if order == math.inf:
        return math.inf
    try:
        return int(order.p) / int(order.q)
    except OverflowError:
        return math.inf


def _fmt(x: float) -> str:
    return f"{x:.4g}"


#: The largest magnitude a plot draws: matplotlib's autoscaling of values near a float's largest overflowed, and the
#: axes were left at ±10⁻¹² with every curve outside them (σ = 10⁻¹⁵⁴; a review).
_PLOT_MAX = 1e300


def _drawable(value) -> float | None:
    """A certified value (an Arb ball) as the float a plot draws, or None where no float holds it normally (overflow
    to ∞, or past :data:`_PLOT_MAX`; underflow to 0, or a subnormal's lost digits: the summary said "≈ inf" for
    ε = 5·10¹⁹⁹⁹, a probe, and 10⁻³²² was drawn 1.2 % off, a review)."""
    f = float(value.mid())
    if f == 0:
        return f if value.mid() == 0 else None
    return f if math.isfinite(f) and sys.float_info.min <= abs(f) <= _PLOT_MAX else None


def _written(value) -> str:
    """A certified value written out to 6 digits, at any magnitude."""
    return value.mid().str(6, radius=False)


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
        x, y, exact_x, infinite, beyond = [], [], [], [], []
        for a, v in zip(grid, balls):
            if isinstance(v, Infinite):
                infinite.append((_float(a), v.reason))
            elif a != math.inf and _drawable(v) is None:
                beyond.append((_float(a), _written(v)))
            elif a != math.inf:
                x.append(_float(a))
                y.append(_drawable(v))
                exact_x.append(a)
        asymptote = None if isinstance(at_infinity, Infinite) else _drawable(at_infinity)
        finite_grid = [a for a in grid if a != math.inf]
        where = _where_infinite(c, finite_grid, {a for a, v in zip(grid, balls)
                                                 if a != math.inf and isinstance(v, Infinite)})
        notes = [where] if where else []
        if asymptote is not None:
            notes.append(f"ε(∞) = {_fmt(asymptote)}, dashed")
        elif not isinstance(at_infinity, Infinite):
            notes.append(f"ε(∞) = {_written(at_infinity)}, beyond a float's range: not drawn")
        elif grid[-1] == math.inf and finite_grid:  # ∞ was asked for: say the curve is ∞ there
            notes.append("ε(∞) = ∞")
        out.append(CurveData(label, tuple(x), tuple(y), tuple(exact_x), tuple(infinite), asymptote, (), "rdp",
                             "; ".join(notes), tuple(beyond)))
    return out


#: The conversions that read a curve only by its balls, which :func:`_memoised` keeps.
_BALLS_ONLY = ("bbghs", "mironov", "balle")


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
        y, xs, exact_x, infinite, best, beyond = [], [], [], [], [], []
        for d, xf in zip(ds, x):
            # (the curve itself where the conversion reads more than its balls: "best" knew the memoised curve for no
            # Gaussian, and drew 4.7285 where rdpsym.epsilon says 4.3772, Balle–Wang's; a review)
            r = api.epsilon(fast if conversion in _BALLS_ONLY else c, d, orders=orders, conversion=conversion, dps=dps)
            if r.enclosure == math.inf:
                infinite.append((xf, "every order gives ε = ∞"))
                continue
            if _drawable(r.enclosure) is None:  # (5.5·10³³⁹ became inf: empty axes and "≈ inf"; a review)
                beyond.append((xf, str(r.value)))
                continue
            xs.append(xf)
            exact_x.append(d)
            y.append(float(r.value))
            best.append(None if r.order is None else _float(r.order))  # (None: an exact (ε, δ) curve gave it)
        notes = [] if not infinite else ["ε = ∞ at every δ plotted" if not xs else f"ε = ∞ at {len(infinite)} δ"]
        if beyond:
            notes.append(f"ε beyond a float's range at {len(beyond)} δ (up to {beyond[-1][1]}): not drawn")
        out.append(CurveData(label, tuple(xs), tuple(y), tuple(exact_x), tuple(infinite), None, tuple(best),
                             "conversion", "; ".join(notes), tuple(beyond)))
        with precision(bits_for(dps)):  # √k is formed here too: at the ambient 53 bits it capped the digits
            params = _gaussian_parameters(entry, steps) if exact else None
            if params is not None:
                eps = [conv.gaussian_epsilon(fmpq(d.numerator, d.denominator), *params) for d in ds]
                points = [(xf, d, _drawable(e), e) for xf, d, e in zip(x, ds, eps)]
        if params is not None:
            kept = [(xf, d, f) for xf, d, f, _ in points if f is not None]
            beyond = tuple((xf, _written(e)) for xf, _, f, e in points if f is None)
            note = "Balle–Wang 2018, dotted" + (f"; beyond a float's range at {len(beyond)} δ: not drawn"
                                                 if beyond else "")
            out.append(CurveData(f"{label}: exact", tuple(k[0] for k in kept), tuple(k[2] for k in kept),
                                 tuple(k[1] for k in kept), (), None, (), "exact", note, beyond))
    return out


# --------------------------------------------------------------------------- drawing
