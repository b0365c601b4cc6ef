"""``rdpsym.epsilon`` and ``rdpsym.delta``: from an RDP curve to an (ε, δ) guarantee.

>>> import rdpsym
>>> c = rdpsym.gaussian(sigma=2).curve() * 4
>>> r = rdpsym.epsilon(c, delta=1e-5, orders="mironov", conversion="mironov", dps=30)
>>> r.order, r.published(6)
(6, '5.30259')

The number reported is never below the truth: ``epsilon``/``delta`` are the
upper end of the certified enclosure rounded *up* at ``dps`` digits, and
:meth:`EpsilonResult.published` rounds up again at the digits printed.

By default (``orders=None``) the orders are dp_accounting's grid *and* α = ∞,
so a pure-DP curve never reports more than its own ε = D_∞ (an (ε, 0)-DP
mechanism is (ε, δ)-DP at every δ):

>>> r = rdpsym.epsilon(rdpsym.laplace(scale=1).curve(), delta=1e-10, dps=20)
>>> r.order, r.published(6)
(inf, '1.00000')
>>> rdpsym.epsilon(rdpsym.laplace(scale=1).curve(), delta=1e-10, orders="dp-accounting", dps=20).published(6)
'1.01408'
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
from rdpsym.accounting.curve import Infinite, RdpCurve, parse_order
from rdpsym.accounting.orders import resolve
from rdpsym.foundations import operations
from rdpsym.foundations.balls import (
    bits_for,
    precision,
    upper_decimal,
)
from rdpsym.foundations.errors import ParameterError, RdpSymError, must, quoted
from rdpsym.foundations.numbers import Digits, Enclosure
from rdpsym.foundations.reading import dps as read_dps
from rdpsym.foundations.reading import rational
from rdpsym.laws.mechanisms import Guarantee, Mechanism

#: Conversion names: the issue's "bbghs" (Balle–Barthe–Gaboardi–Hsu–Steinke 2020, Thm 21) is ``balle``.
CONVERSIONS = {"mironov": "mironov", "bbghs": "balle", "balle": "balle"}

#: Range and tolerance of ``orders="continuous"``.
CONTINUOUS_RANGE = (fmpq(1001, 1000), fmpq(10**4))
CONTINUOUS_TOL = fmpq(1, 10**8)


@dataclass(frozen=True)
class OrderValue:
    """One order's contribution: the curve's value there and the bound it gives (or why ∞)."""

    order: object
    rdp: object  # arb or Infinite
    bound: object  # arb or math.inf
    reason: str = ""


@dataclass(frozen=True)
class AccountingResult:
    """ε (or δ) of a curve, the order that gives it, and the certified enclosure.

    A record: it compares by value and pickles.  Its numbers print at the digits
    asked for: ``value`` (and so ``epsilon`` or ``delta``) is a
    :class:`~rdpsym.foundations.numbers.Digits`, an ``mpmath.mpf`` that prints
    ``dps`` digits; ``enclosure`` (and every ball of ``per_order``) an
    :class:`~rdpsym.foundations.numbers.Enclosure`, an ``arb`` that prints with
    its true radius.

    >>> import rdpsym
    >>> r = rdpsym.epsilon(rdpsym.gaussian(sigma=2).curve() * 4, delta=1e-5, dps=30)
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
        set_("per_order", tuple(o if all(isinstance(b, Enclosure) or not isinstance(b, arb) for b in (o.rdp, o.bound))
                                else dataclasses.replace(o, rdp=_enclosure(o.rdp, self.dps),
                                                         bound=_enclosure(o.bound, self.dps))
                                for o in self.per_order))

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
            return upper_decimal(self.enclosure, digits)

    def as_dict(self) -> dict:
        """JSON-ready data: the value, the published bound, the enclosure's ends (rounded outward), every order."""
        return operations.json(self)

    def __str__(self) -> str:
        return operations.text(self)

    def _repr_latex_(self) -> str:
        return operations.latex(self)


def _enclosure(v, dps: int):
    """An arb as an :class:`Enclosure` (printing at ``dps``, picklable); anything else as it is."""
    return Enclosure(v, dps) if isinstance(v, arb) and not isinstance(v, Enclosure) else v


def _probability(value: object, name: str) -> fmpq:
    q = _exact(value, name)
    if not (0 < q < 1):
        raise ParameterError(must(name, "in the open interval (0, 1)", value))
    return q


def _exact(value: object, name: str) -> fmpq:
    """A decimal or rational input as the exact rational it spells (1e-5 is 1/100000): the one reader."""
    return rational(value, name)


def conversion_name(name: str) -> str:
    """The conversion a name means (``"bbghs"`` and ``"balle"`` are one), or an error listing the names."""
    if not isinstance(name, str) or name not in CONVERSIONS:
        raise ParameterError(must("conversion", "'mironov', 'bbghs' or 'balle'", quoted(name)))
    return CONVERSIONS[name]


def _dps(dps: object) -> int:
    return read_dps(dps, "dps")


def _curve(curve: object) -> RdpCurve:
    if hasattr(curve, "curve") and not isinstance(curve, RdpCurve):
        curve = curve.curve()
    if not isinstance(curve, RdpCurve):
        raise ParameterError(must("curve", "an RdpCurve (e.g. rdpsym.gaussian(sigma=1).curve())", type(curve).__name__))
    return curve


def epsilon(curve: RdpCurve | Mechanism | Guarantee, delta: object, orders: object = None, conversion: str = "bbghs",
            dps: int = 50) -> AccountingResult:
    """The smallest ε such that ``curve`` gives (ε, δ)-DP through ``conversion`` over ``orders``.

    ``orders``: ``None`` (the default: dp_accounting's grid and α = ∞, see
    :data:`~rdpsym.accounting.orders.DEFAULT`), ``"mironov"`` (§VII, ends with
    ∞), ``"dp-accounting"`` or ``"opacus"`` (exactly the peer's grid, no ∞), a
    list of orders (``inf`` allowed), or ``"continuous"`` (every α in
    [1.001, 10⁴] by certified branch and bound, and α = ∞: ``gap`` is the
    certified distance to the infimum).  α = ∞ counts where the curve is finite
    there (pure DP: ε(δ) ≤ D_∞); where it is ∞ it never wins.
    ``conversion``: ``"mironov"`` (Prop 3) or ``"bbghs"`` (Balle et al. 2020,
    Thm 21; what dp_accounting and Opacus use); both give ε = D_∞ at α = ∞.
    """
    d = _probability(delta, "delta")
    how = conversion_name(conversion)
    dps = _dps(dps)
    if isinstance(orders, str) and orders == "continuous":
        return _continuous(_curve(curve), d, how, dps)
    grid = resolve(orders, continuous=True)  # every input is checked before the curve is built
    c = _curve(curve)
    balls = _balls(c, grid, orders is None, dps + 3)
    with precision(bits_for(dps + 10)):
        eps, order, per = conv.best_epsilon(list(zip(grid, balls)), d, how)
    return _result("epsilon", eps, order, per, balls, how, d, dps, c)


def delta(curve: RdpCurve | Mechanism | Guarantee, epsilon: object, orders: object = None, conversion: str = "bbghs",
          dps: int = 50) -> AccountingResult:
    """The smallest δ such that ``curve`` gives (ε, δ)-DP through ``conversion`` over ``orders``.

    ``orders`` as for :func:`epsilon` (``"continuous"`` excepted); by default
    dp_accounting's grid and α = ∞, where a pure-DP curve gives δ = 0 for
    ε ≥ D_∞.
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
    balls = _balls(c, grid, orders is None, dps + 3)
    # exp((α − 1)(ε(α) − ε)) needs the bits of its exponent besides the digits asked for: at ε = 10^300
    # the exponent alone has 1000 bits, and at the usual precision the ball would be [0 ± 10^(−10^71)].
    with precision(bits_for(dps + 10) + _exponent_bits(e, grid)):
        dl, order, per = conv.best_delta(list(zip(grid, balls)), e, how)
    return _result("delta", dl, order, per, balls, how, e, dps, c)


def _exponent_bits(epsilon: fmpq, grid: tuple) -> int:
    """Bits of the largest exponent (α − 1)·ε a conversion exponentiates (α of the grid, ∞ left out)."""
    largest = max((a for a in grid if a != math.inf), default=fmpq(2))
    size = abs(epsilon) * largest + 1
    return max(0, int(size.p).bit_length() - int(size.q).bit_length())


def _balls(c: RdpCurve, grid: tuple, default: bool, dps: int) -> list:
    """The curve's balls on the grid.  The default grid's α = ∞ is evaluated on its own: a curve whose
    D_∞ cannot be had (a user's closed form without a limit) is ∞ there, with the reason, and the
    other orders still count; an ∞ the user asked for is evaluated with the rest (errors are raised)."""
    if not default:
        return c.enclosures(grid, dps)
    return c.enclosures(grid[:-1], dps) + [at_infinity(c, dps)]


def at_infinity(c: RdpCurve, dps: int):
    """D_∞ of ``c`` as a certified ball, or :class:`Infinite` with the reason (∞, or why it is unknown)."""
    try:
        return c.enclosures([math.inf], dps)[0]
    except (RdpSymError, ArithmeticError, TypeError, ValueError, NotImplementedError) as exc:
        return Infinite(f"D_∞ could not be evaluated ({type(exc).__name__}: {exc})")


def _result(kind, ball, order, per, balls, how, given, dps, c) -> AccountingResult:
    rows = tuple(OrderValue(o.order, b, o.value, o.reason) for o, b in zip(per, balls))
    name = "bbghs" if how == "balle" else how
    if ball == math.inf:
        return AccountingResult(kind, mpmath.inf, None, math.inf, name, given, dps, c.certified, rows)
    notes: tuple = ()
    with precision(bits_for(dps + 10)):
        if not _narrow(ball, dps):
            notes += (f"the best orders tie within the balls; the enclosure is {upper_decimal(ball.rad(), 3)} wide",)
        if kind == "epsilon" and ball.upper() < 0:
            # A conversion may certify a negative bound (Balle et al.'s can): that is (0, δ)-DP.
            notes += (f"the conversion gives ε ≤ {upper_decimal(ball, 6)} < 0, i.e. (0, δ)-DP: reported as 0",)
            ball = arb(0)
        value = _up(upper_decimal(ball, dps), dps)
    return AccountingResult(kind, value, order, ball, name, given, dps, c.certified, rows, None, notes)


def _up(decimal: str, dps: int) -> mpmath.mpf:
    """The decimal as an mpf rounded toward +∞ (rounding to nearest could land below it)."""
    prec = bits_for(dps + 5)
    with mpmath.workprec(prec):  # mpf(tuple) rounds to the context's precision
        return mpmath.mpf(mpmath.libmp.from_str(decimal, prec, mpmath.libmp.round_ceiling))


def _narrow(ball: arb, dps: int) -> bool:
    return ball.is_zero() or ball.rel_accuracy_bits() >= dps * 3.32


def _continuous(c: RdpCurve, d: fmpq, how: str, dps: int) -> AccountingResult:
    lo, hi = CONTINUOUS_RANGE
    lo = max(lo, c.min_order)

    def rdp_at(a: fmpq):
        v = c.balls([a])[0]
        return math.inf if isinstance(v, Infinite) else v

    name = "bbghs" if how == "balle" else how
    with precision(bits_for(dps + 10)):
        res = conv.continuous_epsilon(rdp_at, d, how, lo, hi, CONTINUOUS_TOL, convex=c.convex)
    # α = ∞ too, where the curve is finite there (pure DP): ε(δ) ≤ D_∞, which no finite order reaches.
    pure = None
    if not isinstance(at_infinity(c, dps + 3), Infinite):
        pure = epsilon(c, delta=_frac(d), orders=[math.inf], conversion=name, dps=dps)
    if res.order is None and pure is None:
        return AccountingResult("epsilon", mpmath.inf, None, math.inf, name, d, dps, c.certified)
    # The value at the best order, to the full digits.
    best = None if res.order is None else epsilon(c, delta=_frac(d), orders=[_frac(res.order)], conversion=name,
                                                  dps=dps)
    budget = "" if res.converged else " (evaluation budget reached before the tolerance)"
    if pure is None:
        notes = (f"infimum over α in [{lo}, {hi}] is within {upper_decimal(res.gap, 3)} below this value" + budget,)
        return AccountingResult("epsilon", best.value, best.order, best.enclosure, best.conversion, d, dps,
                                c.certified, best.per_order, res.gap, notes)
    with precision(bits_for(dps + 10)):
        if best is None or pure.enclosure.upper() <= best.enclosure.upper():
            best = pure
        # A certified lower bound on ε over [lo, hi] ∪ {∞}, and the distance of the value reported to it.
        lower = pure.enclosure.lower() if res.order is None else res.lower.min(pure.enclosure.lower())
        gap = (best.enclosure.upper() - lower).upper()
        gap = gap if gap > 0 else arb(0)
        shown = upper_decimal(gap, 3)
    where = ("α = ∞ (pure DP: ε(δ) ≤ D_∞) gives this; " if best is pure else "") + \
        f"infimum over α in [{lo}, {hi}] and α = ∞ is within {shown} below this value"
    return AccountingResult("epsilon", best.value, best.order, best.enclosure, best.conversion, d, dps,
                            c.certified, best.per_order, gap, (where + (budget if res.order is not None else ""),))


def _frac(q: fmpq) -> Fraction:
    return Fraction(int(q.p), int(q.q))


__all__ = ["AccountingResult", "at_infinity", "delta", "epsilon", "parse_order"]
