"""``rdpsym.epsilon`` and ``rdpsym.delta``: from an RDP curve to an (ε, δ) guarantee.

>>> import rdpsym
>>> c = rdpsym.gaussian(sigma=2).curve() * 4
>>> r = rdpsym.epsilon(c, delta=1e-5, orders="mironov", conversion="mironov", dps=30)
>>> r.order, r.published(6)
(6, '5.30259')

The number reported is never below the truth: ``epsilon``/``delta`` are the
upper end of the certified enclosure rounded *up* at ``dps`` digits, and
:meth:`EpsilonResult.published` rounds up again at the digits printed.

By default (``conversion="best"``) every conversion is tried at every order and
the result names the one that won; name one to compare with a peer that uses it
(dp_accounting and Opacus use ``"bbghs"``):

>>> r = rdpsym.epsilon(c, delta=1e-5, orders="mironov", dps=30)
>>> r.order, r.published(6), r.conversion
(5, '4.75272', 'optimal')
>>> r.notes[0][:64]
'best of mironov, bbghs, tv-kl, optimal: optimal gave the least ε'
>>> r.notes[0][64:]
' at order 5 (mironov 5.37823136625; bbghs 4.75272833682; tv-kl gives nothing there)'

By default (``orders=None``) the orders are dp_accounting's grid *and* α = ∞,
so a pure-DP curve never reports more than its own ε = D_∞ (an (ε, 0)-DP
mechanism is (ε, δ)-DP at every δ); the optimal conversion makes that
D_∞ + log(1 − δ) (P(S) ≤ e^{D_∞} Q(S) gives P(S) − e^ε Q(S) ≤ 1 − e^{ε − D_∞}):

>>> r = rdpsym.epsilon(rdpsym.pure_dp(1).curve(), delta=1e-10, dps=20)
>>> r.order, r.conversion, print(r.epsilon)
0.99999999990000000000
(inf, 'optimal', None)
>>> rdpsym.epsilon(rdpsym.laplace(scale=1).curve(), delta=1e-10, orders="dp-accounting", dps=20).published(6)
'1.01408'

One Laplace mechanism (or randomized response) has its exact profile, below every RDP conversion: for the
Laplace mechanism ε₀ + 2·log(1 − δ) (:mod:`rdpsym.accounting.profiles`):

>>> r = rdpsym.epsilon(rdpsym.laplace(scale=1).curve(), delta=1e-10, dps=20)
>>> r.conversion, print(r.epsilon)
0.99999999979999999999
('exact-profile', None)
"""

from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass, field
from fractions import Fraction

import mpmath
from flint import arb, fmpq

from rdpsym.accounting import conversions as conv
from rdpsym.accounting import order_one, profiles
from rdpsym.accounting.brackets import Anchor, bracket
from rdpsym.accounting.components import Infinite
from rdpsym.accounting.curve import RdpCurve, parse_order
from rdpsym.accounting.grid_balls import at_infinity, grid_balls, unavailable_note
from rdpsym.accounting.orders import resolve
from rdpsym.accounting.rows import LazyRows
from rdpsym.foundations import operations
from rdpsym.foundations.balls import (
    bits_for,
    lower_decimal,
    precision,
    upper_decimal,
)
from rdpsym.foundations.errors import ParameterError, must, quoted
from rdpsym.foundations.numbers import Digits, Enclosure
from rdpsym.foundations.reading import dps as read_dps
from rdpsym.foundations.reading import open_probability, rational
from rdpsym.laws.mechanisms import Guarantee, Mechanism

#: Conversion names, and the one each means ("balle" is "bbghs": Balle–Barthe–Gaboardi–Hsu–Sato 2020, Thm 21).
#: ``"best"`` (the default) is the best of the other four at every order, naming the one that won: each is
#: certified in balls and proved or cited (:mod:`rdpsym.accounting.conversions.tightest`).
CONVERSIONS = {"best": "best", "mironov": "mironov", "bbghs": "bbghs", "balle": "bbghs", "tv-kl": "tv-kl",
               "optimal": "optimal"}

#: The default conversion of :func:`epsilon` and :func:`delta`.
DEFAULT_CONVERSION = "best"
#: The conversion a δ is said to come from when no order gives a bound (δ = 1).
NO_ORDER = "none"

#: Range of ``orders="continuous"``.
CONTINUOUS_RANGE = (fmpq(1001, 1000), fmpq(10**4))
#: The gap ``orders="continuous"`` closes to on a curve not known convex: its branch and bound then has only
#: the monotone bound, off by O(b − a) on a leaf [a, b], so about 1/sqrt(tol) evaluations.  On a convex curve
#: (every exact divergence and their compositions) the secant bounds are off by O((b − a)²) and the gap is
#: closed to 10^−dps in tens of evaluations (the Gaussian ×10: 0.12 s at 50 digits).
NONCONVEX_TOL = fmpq(1, 10**8)


@dataclass(frozen=True)
class OrderValue:
    """One order's contribution: the curve's value there and the bound it gives (or why ∞)."""

    order: object
    rdp: object  # arb or Infinite
    bound: object  # arb or math.inf
    reason: str = ""
    conversion: str = ""  # the conversion that gave ``bound`` (with several tried)


@dataclass(frozen=True)
class AccountingResult:
    """ε (or δ) of a curve, the order that gives it, and the certified enclosure.

    A record: it compares by value and pickles.  Its numbers print at the digits
    asked for: ``value`` (and so ``epsilon`` or ``delta``) is a
    :class:`~rdpsym.foundations.numbers.Digits`, an ``mpmath.mpf`` that prints
    ``dps`` digits; ``enclosure`` (and every ball of ``per_order``) an
    :class:`~rdpsym.foundations.numbers.Enclosure`, an ``arb`` that prints with
    its true radius.  ``per_order`` is built when first read (a
    :class:`~rdpsym.accounting.rows.LazyRows`: a sequence that compares, hashes
    and pickles as the tuple of rows).

    >>> import rdpsym
    >>> r = rdpsym.epsilon(rdpsym.gaussian(sigma=2).curve() * 4, delta=1e-5, conversion="bbghs", dps=30)
    >>> print(r.epsilon)
    4.72850706721762307940820837409
    >>> print(r.enclosure)
    [4.72850706721762307940820837408309956385772 +/- 5.89e-39]
    """

    kind: str  # "epsilon" or "delta"
    value: object  # mpmath.mpf rounded up at dps digits, or mpmath.inf
    order: object
    enclosure: object  # arb, or math.inf
    conversion: str
    given: object  # the δ (for ε) or the ε (for δ), exact
    dps: int
    certified: bool
    per_order: tuple = ()
    gap: object = None  # continuous optimisation: certified distance to the infimum
    notes: tuple = field(default_factory=tuple)

    def __post_init__(self) -> None:
        # The numbers as records that print at ``dps`` and pickle (an mpf prints at mpmath's global
        # precision, an arb at flint's, and an arb does not pickle).
        set_ = functools.partial(object.__setattr__, self)
        if isinstance(self.value, mpmath.mpf) and not isinstance(self.value, Digits):
            set_("value", Digits(self.value, self.dps))
        set_("enclosure", _enclosure(self.enclosure, self.dps))
        set_("gap", _enclosure(self.gap, self.dps))
        if not isinstance(self.per_order, LazyRows):  # lazy rows wrap their balls when they are built
            set_("per_order", _rows(self.per_order, self.dps))

    @property
    def epsilon(self):
        return self.value if self.kind == "epsilon" else self.given

    @property
    def delta(self):
        return self.value if self.kind == "delta" else self.given

    def published(self, digits: int = 6) -> str:
        """The value rounded *up* to ``digits`` significant digits: safe to publish."""
        digits = read_dps(digits, "digits", minimum=1)
        if self.enclosure == math.inf:
            return "inf"
        with precision(bits_for(max(digits, self.dps))):
            shown = upper_decimal(self.enclosure, digits)
            # rounding up a δ just below 1 passed 1 ("δ ≤ 1.00000000001"): every δ is at most 1.  (Read as a ball:
            # the decimal may be 4.79e−2171472409516259116570, which no exact rational should be built from.)
            if self.kind == "delta" and arb(shown) > 1:
                return "1"
        return shown

    def as_dict(self) -> dict:
        """JSON-ready data: the value, the published bound, the enclosure's ends (rounded outward), every order."""
        return operations.json(self)

    def __str__(self) -> str:
        return operations.text(self)

    def __repr__(self) -> str:
        """One line: the answer, its order, conversion and certification (every order's row: ``per_order``;
        the whole table: ``str()``).  The full record printed 34 000 characters at 157 orders."""
        value = self.published(12) if self.certified else str(self.value)
        order = "" if self.order is None else f"order {'∞' if self.order == math.inf else self.order}, "
        other = "delta" if self.kind == "epsilon" else "epsilon"
        return (f"AccountingResult({self.kind} ≤ {value} at {other} = {self.given}, {order}"
                f"conversion {self.conversion!r}, {'certified' if self.certified else 'not certified'}, "
                f"dps={self.dps})")

    def _repr_latex_(self) -> str:
        return operations.latex(self)


def _rows(rows, dps: int) -> tuple:
    """Per-order rows with their balls as :class:`Enclosure` (printing at ``dps``, picklable)."""
    return tuple(o if all(isinstance(b, Enclosure) or not isinstance(b, arb) for b in (o.rdp, o.bound))
                 else dataclasses.replace(o, rdp=_enclosure(o.rdp, dps), bound=_enclosure(o.bound, dps))
                 for o in rows)


def _enclosure(v, dps: int):
    """An arb as an :class:`Enclosure` (printing at ``dps``, picklable); anything else as it is."""
    return Enclosure(v, dps) if isinstance(v, arb) and not isinstance(v, Enclosure) else v


def _exact(value: object, name: str) -> fmpq:
    """A decimal or rational input as the exact rational it spells (1e-5 is 1/100000): the one reader."""
    return rational(value, name)


def conversion_name(name: str) -> str:
    """The conversion a name means (``"bbghs"`` and ``"balle"`` are one), or an error listing the names."""
    if not isinstance(name, str) or name not in CONVERSIONS:
        raise ParameterError(must("conversion", "one of " + ", ".join(map(repr, CONVERSIONS)), quoted(name)))
    return CONVERSIONS[name]


def _dps(dps: object) -> int:
    return read_dps(dps, "dps")


def _curve(curve: object) -> RdpCurve:
    if hasattr(curve, "curve") and not isinstance(curve, RdpCurve):
        curve = curve.curve()
    if not isinstance(curve, RdpCurve):
        raise ParameterError(must("curve", "an RdpCurve (e.g. rdpsym.gaussian(sigma=1).curve())", type(curve).__name__))
    return curve


def epsilon(curve: RdpCurve | Mechanism | Guarantee, delta: object, orders: object = None,
            conversion: str = DEFAULT_CONVERSION, dps: int = 50) -> AccountingResult:
    """The smallest ε such that ``curve`` gives (ε, δ)-DP through ``conversion`` over ``orders``.

    ``orders``: ``None`` (the default: dp_accounting's grid and α = ∞, see
    :data:`~rdpsym.accounting.orders.DEFAULT`), ``"mironov"`` (§VII, ends with
    ∞), ``"dp-accounting"`` or ``"opacus"`` (exactly the peer's grid, no ∞), a
    list of orders (``inf`` allowed), or ``"continuous"`` (every α in
    [1.001, 10⁴] by certified branch and bound, and α = ∞: with ``mironov`` or
    ``bbghs``, ``gap`` is the certified distance to the infimum, closed to 10^−dps
    on a convex curve and to 10⁻⁸ on one that is not known convex, such as a
    group-privacy bound; the other conversions take the least over the order that
    search finds, α = ∞ and the default grid, and state no gap).  α = ∞ counts where the curve is finite
    there (pure DP: ε(δ) ≤ D_∞); where it is ∞ it never wins.
    ``conversion``: ``"best"`` (the default: the least ε of all the conversions
    below at every order; :attr:`AccountingResult.conversion` names the one that
    won, and the notes what the others give there), ``"mironov"`` (Prop 3),
    ``"bbghs"`` (alias ``"balle"``: Balle et al. 2020, Thm 21; what dp_accounting
    and Opacus use, so name it to compare with them), ``"tv-kl"`` (ε = 0 once
    δ ≥ √(1 − e^{−r}), as dp_accounting) or ``"optimal"`` (the optimal conversion
    of each order's (α, r), certified by a dual point; at α = ∞ it is
    D_∞ + log(1 − δ)).  Mironov and bbghs give ε = D_∞ at α = ∞.  With both defaults
    (``"best"``, ``orders=None``: the least ε rdpsym can certify), a composition of Gaussian mechanisms is also
    converted by its exact (ε, δ) curve (Balle–Wang 2018), named ``"balle-wang"`` when it wins, one Laplace
    mechanism or randomized response by its exact profile (``"exact-profile"``; :mod:`rdpsym.accounting.profiles`);
    naming orders or a conversion asks for the RDP route.
    """
    d = open_probability(delta, "delta")
    how = conversion_name(conversion)
    dps = _dps(dps)
    continuous = isinstance(orders, str) and orders == "continuous"
    grid = None if continuous else resolve(orders, continuous=True)  # every input is checked before the curve
    c = _curve(curve)
    found = _continuous(c, d, how, dps) if continuous else _rdp_epsilon(c, d, grid, orders is None, how, dps)
    return _exact_wins(found, c, d, how == "best" and orders is None)


#: A grid of more orders than this is certified in two passes: every order at :data:`SCREEN_DPS` digits, then
#: at the digits asked only the orders whose ε there can still reach the least one (the others keep their
#: first, coarser certified ball: they cannot win).  1000 fractional orders of DP-SGD: 0.147 → 0.081 s.
SCREEN_ABOVE = 200
#: The digits of the first pass.
SCREEN_DPS = 10


def _rdp_epsilon(c: RdpCurve, d: fmpq, grid: tuple, default: bool, how: str, dps: int) -> AccountingResult:
    """:func:`epsilon` on a resolved grid, through the RDP conversions only (``default``: the default grid)."""
    screened = len(grid) > SCREEN_ABOVE and dps > SCREEN_DPS
    balls = _screened_balls(c, d, grid, default, how, dps) if screened else grid_balls(c, grid, default, dps + 3)
    with precision(bits_for(dps + 10)):
        found = conv.tightest_epsilon_grid(grid, balls, d, how)
    result = _result("epsilon", found, balls, how, d, dps, c)
    if screened:
        note = (f"{len(grid)} orders: each certified to {SCREEN_DPS} digits first, then to {dps} digits where its ε "
                "could still be the least (the others' rows keep their coarser balls)")
        if c.convex:
            note += (f"; of a convex (α − 1)ε(α), every {SPARSE_STEP}th order first, the rows between bracketed by "
                     "monotonicity and chords where that shows they cannot be the least")
        result = dataclasses.replace(result, notes=(*result.notes, note))
    return _kl_wins(result, c, d, balls) if how in ("best", "tv-kl") else result


def _kl_wins(result: AccountingResult, c: RdpCurve, d: fmpq, balls: list) -> AccountingResult:
    """ε = 0 at order 1 where the curve's KL certifies it and no order of the grid did (:mod:`.order_one`)."""
    if result.enclosure != math.inf and result.enclosure.upper() <= 0:
        return result
    note = order_one.zero_epsilon(c, d, balls, result.dps)
    if note is None:
        return result
    return dataclasses.replace(result, value=_up("0", result.dps), order=1, enclosure=arb(0), conversion="tv-kl",
                               gap=None, notes=(note, *(f"the grid: {n}" for n in result.notes)))


def _kl_delta_wins(result: AccountingResult, c: RdpCurve, balls: list) -> AccountingResult:
    """δ = √(1 − e^{−KL}) at order 1 where it is below the grid's δ (:mod:`.order_one`)."""
    found = order_one.kl_delta(c, result.enclosure, balls, result.dps)
    if found is None:
        return result
    tv, note = found
    return dataclasses.replace(result, value=_up(upper_decimal(tv, result.dps), result.dps), order=1, enclosure=tv,
                               conversion="tv-kl", gap=None, notes=(note, *(f"the grid: {n}" for n in result.notes)))


def _screened_balls(c: RdpCurve, d: fmpq, grid: tuple, default: bool, how: str, dps: int) -> list:
    """The grid's balls: all at :data:`SCREEN_DPS` digits (:func:`_coarse_balls`), and at ``dps`` digits those
    of the orders whose certified ε at the coarse pass is not above the least ε's upper end there.  An order
    left coarse has an ε certainly larger than an ε another order certainly reaches: it cannot be the minimum,
    whose ball is then computed from full-precision balls alone, as without the screen."""
    rough = _coarse_balls(c, d, grid, default, how)
    keep = _candidates(grid, rough, d, how, range(len(grid)))
    if keep is None:
        return rough
    fine = grid_balls(c, tuple(grid[i] for i in keep), default and keep[-1] == len(grid) - 1, dps + 3) if keep else []
    balls = list(rough)
    for i, ball in zip(keep, fine):
        balls[i] = ball
    return balls


def _candidates(grid: tuple, balls: list, d: fmpq, how: str, among) -> list | None:
    """The indices in ``among`` whose ε (from ``balls``) is not certainly above the least ε's upper end (None:
    every ε is ∞)."""
    with precision(bits_for(SCREEN_DPS + 10)):
        first = conv.tightest_epsilon_grid(grid, balls, d, how)
        if first.value == math.inf:
            return None
        least = first.value.upper()
        rows = first.per_order
        return [i for i in among if not (isinstance(rows[i].value, arb) and rows[i].value.lower() > least)]


#: Of a convex curve's orders in bulk, every SPARSE_STEP-th (by size) is certified first; the orders between are
#: bracketed by those (below: monotonicity and the secant on the left; above: the chord) and certified only if
#: their bracket's ε can still be the least.
SPARSE_STEP = 8


def _coarse_balls(c: RdpCurve, d: fmpq, grid: tuple, default: bool, how: str) -> list:
    """Every order's ball at :data:`SCREEN_DPS` digits; for a curve whose (α − 1)·ε(α) is convex, a certified
    bracket instead for the orders between every :data:`SPARSE_STEP`-th whose bracket shows they cannot be the
    least.

    Convexity of g(α) = (α − 1)·ε(α) with g(1) = 0 makes ε = g/(α − 1) non-decreasing (the slope of the chord
    from 1), so ε(α) ≥ ε(a) for a certified order a below α, and g lies above its secant through the two
    certified orders below α, extended, and below its chord between the certified orders a < α < b (a convex
    function against its secants).  A bracketed order whose bracket's ε could still be the least is certified
    like the others."""
    by_size = sorted(((fmpq(a), i) for i, a in enumerate(grid) if a != math.inf and a > 1))
    if not c.convex or len(by_size) <= 4 * SPARSE_STEP:
        return grid_balls(c, grid, default, SCREEN_DPS + 3)
    anchors = by_size[::SPARSE_STEP] if by_size[-1] in by_size[::SPARSE_STEP] else \
        [*by_size[::SPARSE_STEP], by_size[-1]]
    anchored = {i for _, i in anchors}
    between = [(a, i) for a, i in by_size if i not in anchored]
    direct = [i for i in range(len(grid)) if i in anchored or grid[i] == math.inf or not grid[i] > 1]
    balls: list = [None] * len(grid)
    at = grid_balls(c, tuple(grid[i] for i in direct), default and direct[-1] == len(grid) - 1, SCREEN_DPS + 3)
    for i, ball in zip(direct, at):
        balls[i] = ball
    with precision(bits_for(SCREEN_DPS + 10)):
        known = [Anchor(a, balls[i]) for a, i in anchors]
        unsettled, bracketed, k = [], [], 0
        for a, i in between:
            while known[k + 1].order < a:
                k += 1
            balls[i] = bracket(arb(a), known[k - 1] if k else None, known[k], known[k + 1])
            (bracketed if balls[i] is not None else unsettled).append(i)
    if unsettled:  # a neighbour not a finite ball (∞): certified directly
        for i, ball in zip(unsettled, c.enclosures([grid[i] for i in unsettled], SCREEN_DPS + 3)):
            balls[i] = ball
    wanted = _candidates(grid, balls, d, how, bracketed) or []
    for i, ball in zip(wanted, c.enclosures([grid[i] for i in wanted], SCREEN_DPS + 3)):
        balls[i] = ball
    return balls


def delta(curve: RdpCurve | Mechanism | Guarantee, epsilon: object, orders: object = None,
          conversion: str = DEFAULT_CONVERSION, dps: int = 50) -> AccountingResult:
    """The smallest δ such that ``curve`` gives (ε, δ)-DP through ``conversion`` over ``orders``.

    ``orders`` as for :func:`epsilon` (``"continuous"`` excepted); by default
    dp_accounting's grid and α = ∞, where a pure-DP curve gives δ = 0 for
    ε ≥ D_∞.  ``conversion`` as for :func:`epsilon` (``"tv-kl"``: δ = √(1 − e^{−r})
    at any ε, as dp_accounting takes it).  With both defaults, a composition of Gaussian
    mechanisms also gets its exact δ(ε) (Balle–Wang), as for :func:`epsilon`.
    """
    e = _exact(epsilon, "epsilon")
    if e < 0:
        raise ParameterError(must("epsilon", "a number >= 0", epsilon))
    how = conversion_name(conversion)
    dps = _dps(dps)
    if isinstance(orders, str) and orders == "continuous":
        raise ParameterError(must("orders", "a grid name or a list for delta (continuous is for epsilon)", orders))
    grid = resolve(orders)
    c = _curve(curve)
    balls = grid_balls(c, grid, orders is None, dps + 3)
    # exp((α − 1)(ε(α) − ε)) needs the bits of its exponent besides the digits asked for: at ε = 10^300
    # the exponent alone has 1000 bits, and at the usual precision the ball would be [0 ± 10^(−10^71)].
    with precision(bits_for(dps + 10) + _exponent_bits(e, grid)):
        found = conv.tightest_delta(list(zip(grid, balls)), e, how)
    result = _result("delta", found, balls, how, e, dps, c)
    if how in ("best", "tv-kl"):
        result = _kl_delta_wins(result, c, balls)
    result = _exact_wins(result, c, e, how == "best" and orders is None)
    if result.value > 1:  # a ball across 1 rounded up past it (optimal, tv-kl: 1.0000000000000000001; a probe):
        result = dataclasses.replace(result, value=mpmath.mpf(1))  # every mechanism is (ε, 1)-DP
    return result


def _exact_wins(result: AccountingResult, c: RdpCurve, given: fmpq, asked: bool) -> AccountingResult:
    """``result`` (the RDP conversions' best for curve ``c`` at δ or ε = ``given``) replaced by the curve's exact
    profile where it has one, ``asked`` (the defaults), and it is lower."""
    exact = profiles.exact_value(c, result.kind, given, result.dps) if asked else None
    if exact is None:
        return result
    if isinstance(exact, profiles.Unreached):
        return dataclasses.replace(result, notes=(*result.notes, exact.reason))
    with precision(bits_for(result.dps + 10)):
        if result.enclosure != math.inf and not exact.ball.upper() < result.enclosure.upper():
            return result
        note = profiles.note(result.kind, exact, result.enclosure, result.conversion, result.order, result.dps)
        value = _up(upper_decimal(exact.ball, result.dps), result.dps)
    return dataclasses.replace(result, value=value, order=None, enclosure=exact.ball, conversion=exact.conversion,
                               gap=None, notes=(note,) + tuple(f"RDP route: {n}" for n in result.notes))


def epsilon_from_balls(c: RdpCurve, grid: tuple, balls: list, delta: object, conversion: str = DEFAULT_CONVERSION,
                       dps: int = 50, exact_profile: bool = False) -> AccountingResult:
    """:func:`epsilon` from the curve's balls on ``grid``, already computed (at ``dps + 3`` digits or more): for
    sweeps that scale one curve (the steps of a calibration) without evaluating it again.  ``c`` is the curve
    the balls belong to (it says whether they are certified).  ``exact_profile``: with ``conversion="best"`` on the
    default grid, the curve's exact profile competes as in :func:`epsilon` (5 Gaussian steps of σ = 2, ε 4.983,
    were "certified ε ≥ 5.378 > 5" in a calibration of steps; a probe)."""
    d = open_probability(delta, "delta")
    how = conversion_name(conversion)
    with precision(bits_for(dps + 10)):
        found = conv.tightest_epsilon_grid(grid, balls, d, how)
    return _exact_wins(_result("epsilon", found, balls, how, d, dps, c), c, d, exact_profile and how == "best")


def _exponent_bits(epsilon: fmpq, grid: tuple) -> int:
    """Bits of the largest exponent (α − 1)·ε a conversion exponentiates (α of the grid, ∞ left out)."""
    largest = max((a for a in grid if a != math.inf), default=fmpq(2))
    size = abs(epsilon) * largest + 1
    return max(0, int(size.p).bit_length() - int(size.q).bit_length())


def _result(kind, found, balls, how, given, dps, c) -> AccountingResult:
    ball, order = found.value, found.order
    # Every order's row is built when first read (str(), as_dict(), per_order): 313 balls to wrap, which cost
    # more than the conversion; the data it is built from is already here.
    per, balls = found.per_order, tuple(balls)
    rows = LazyRows(lambda: tuple(OrderValue(o.order, _enclosure(b, dps), _enclosure(o.value, dps), o.reason,
                                             o.conversion) for o, b in zip(per, balls)))
    name = found.conversion or how
    notes: tuple = unavailable_note(tuple(o.order for o in per), balls)
    if ball == math.inf:
        return AccountingResult(kind, mpmath.inf, None, math.inf, how, given, dps, c.certified, rows, None, notes)
    if order is None and kind == "delta":  # no order gives a bound: δ = 1, which every mechanism meets (a probe)
        why = "the RDP value is ∞, or could not be had, at each" if notes else "the RDP value is ∞ at each"
        notes += (f"no order gives a bound ({why}; per_order says why): δ = 1, the bound every mechanism meets",)
        return AccountingResult(kind, mpmath.mpf(1), None, ball, NO_ORDER, given, dps, c.certified, rows, None, notes)
    with precision(bits_for(dps + 10)):
        if how == "best":
            others = [f"{n} {_shown(v, dps)}" for n, v, _ in found.alternatives if n != name]
            notes += (f"best of {', '.join(n for n, _, _ in found.alternatives)}: {name} gave the least "
                      f"{'ε' if kind == 'epsilon' else 'δ'} at order {order} ({'; '.join(others)} there)",)
        if found.gap is not None:
            notes += (f"optimal conversion at order {order}: a witness pair shows no conversion of this order's "
                      f"(α, r) alone gives less than {lower_decimal(ball.upper() - found.gap, 12)} "
                      f"(gap {upper_decimal(found.gap, 3)})",)
        if not _narrow(ball, dps):
            notes += (f"the best orders tie within the balls; the enclosure is {upper_decimal(ball.rad(), 3)} wide",)
        if kind == "epsilon" and ball.upper() < 0:
            # A conversion may certify a negative bound (Balle et al.'s can): that is (0, δ)-DP.
            notes += (f"the conversion gives ε ≤ {upper_decimal(ball, 6)} < 0, i.e. (0, δ)-DP: reported as 0",)
            ball = arb(0)
        value = _up(upper_decimal(ball, dps), dps)
    return AccountingResult(kind, value, order, ball, name, given, dps, c.certified, rows, None, notes)


def _shown(v, dps: int) -> str:
    return "gives nothing" if not isinstance(v, arb) else upper_decimal(v, min(dps, 12))


def _up(decimal: str, dps: int) -> mpmath.mpf:
    """The decimal as an mpf rounded toward +∞ (rounding to nearest could land below it)."""
    prec = bits_for(dps + 5)
    # Built from its raw value: mpf(tuple) would round it again, to mpmath's global precision.
    return mpmath.mp.make_mpf(mpmath.libmp.from_str(decimal, prec, mpmath.libmp.round_ceiling))


def _narrow(ball: arb, dps: int) -> bool:
    return ball.is_zero() or ball.rel_accuracy_bits() >= dps * 3.32


def _continuous(c: RdpCurve, d: fmpq, how: str, dps: int) -> AccountingResult:
    """ε over every α in [1.001, 10⁴] and ∞.  The certified branch and bound runs on Mironov's or Balle's closed
    form (the one asked for; Balle's for the others).  With ``best``, ``optimal`` or ``tv-kl`` the order it finds is
    then converted with those, beside α = ∞ and the default grid's orders, and the least is the value: those
    conversions have no certified bound over a range of orders, so no gap is stated (``gap`` None), only the notes'
    account.  Converted at Balle's order alone, the value was above the default grid's (2.664 against 2.507, ten
    sampled Gaussians at δ = 0.3) and said to be within 8·10⁻¹⁶ of the infimum (a probe)."""
    lo, hi = CONTINUOUS_RANGE
    lo = max(lo, c.min_order)

    def rdp_at(a: fmpq):
        v = c.balls([a])[0]
        return math.inf if isinstance(v, Infinite) else v

    searched = "mironov" if how == "mironov" else "balle"
    closed = how in ("mironov", "bbghs")
    tol = fmpq(1, 10**dps) if c.convex else NONCONVEX_TOL  # absolute, in ε; the value is stated to dps digits
    with precision(bits_for(dps + 10)):
        res = conv.continuous_epsilon(rdp_at, d, searched, lo, hi, tol, convex=c.convex)
    # α = ∞ too, where the curve is finite there (pure DP): ε(δ) ≤ D_∞, which no finite order reaches.
    pure = None
    if not isinstance(at_infinity(c, dps + 3), Infinite):
        pure = _rdp_epsilon(c, d, resolve([math.inf]), False, how, dps)
        if not isinstance(pure.enclosure, arb):  # the conversion gives nothing at α = ∞ (tv-kl: only finite orders)
            pure = None
    if res.order is None and pure is None:
        return AccountingResult("epsilon", mpmath.inf, None, math.inf, how, d, dps, c.certified)
    # The value at the best order, to the full digits.
    best = None if res.order is None else _rdp_epsilon(c, d, resolve([_frac(res.order)]), False, how, dps)
    budget = "" if res.converged else " (evaluation budget reached before the tolerance)"
    if not closed:
        return _least_converted(c, d, how, dps, [r for r in (best, pure) if r is not None], res, lo, hi, budget)
    of = ""
    if pure is None:
        notes = (f"infimum{of} over α in [{lo}, {hi}] is within {upper_decimal(res.gap, 3)} below this value"
                 + budget,)
        return AccountingResult("epsilon", best.value, best.order, best.enclosure, best.conversion, d, dps,
                                c.certified, best.per_order, res.gap, notes + best.notes)
    with precision(bits_for(dps + 10)):
        if best is None or not isinstance(best.enclosure, arb) or pure.enclosure.upper() <= best.enclosure.upper():
            best = pure
        # A certified lower bound on ε over [lo, hi] ∪ {∞}, and the distance of the value reported to it.
        lower = pure.enclosure.lower() if res.order is None else res.lower.min(pure.enclosure.lower())
        gap = (best.enclosure.upper() - lower).upper()
        gap = gap if gap > 0 else arb(0)
        shown = upper_decimal(gap, 3)
    where = ("α = ∞ (pure DP: ε(δ) ≤ D_∞) gives this; " if best is pure else "") + \
        f"infimum{of} over α in [{lo}, {hi}] and α = ∞ is within {shown} below this value"
    return AccountingResult("epsilon", best.value, best.order, best.enclosure, best.conversion, d, dps,
                            c.certified, best.per_order, gap,
                            (where + (budget if res.order is not None else ""),) + best.notes)


def _least_converted(c: RdpCurve, d: fmpq, how: str, dps: int, found: list, res, lo, hi, budget: str
                     ) -> AccountingResult:
    """The least ε a conversion without a bound over a range of orders (best, optimal, tv-kl) gives at the orders
    ``found`` (bbghs's least order over [lo, hi], α = ∞) and at the default grid's; no gap (None), the notes say why."""
    grid = _rdp_epsilon(c, d, resolve(None, continuous=True), False, how, dps)
    with precision(bits_for(dps + 10)):
        finite = [r for r in (*found, grid) if isinstance(r.enclosure, arb)]
        chosen = min(finite, key=lambda r: r.enclosure.upper()) if finite else grid
    searched = "" if res.order is None else (
        f"bbghs's least ε over α in [{lo}, {hi}] is at α ≈ {float(_frac(res.order)):.6g}, within "
        f"{upper_decimal(res.gap, 3)} of its infimum{budget}; ")
    note = (f"{searched}{how} converts that order, α = ∞ and the default grid's orders, and this is the least of them; "
            f"{how}'s own infimum over the interval is not certified (only Mironov's and bbghs's forms have a "
            "certified bound over a range of orders: orders='continuous' with conversion='bbghs' states a gap)")
    return AccountingResult("epsilon", chosen.value, chosen.order, chosen.enclosure, chosen.conversion, d, dps,
                            c.certified, chosen.per_order, None, (note,) + chosen.notes)


def _frac(q: fmpq) -> Fraction:
    return Fraction(int(q.p), int(q.q))


__all__ = ["AccountingResult", "at_infinity", "delta", "epsilon", "epsilon_from_balls", "parse_order"]
