"""The components of an RDP curve: one mechanism's curve ε(α) each, as a record that computes its balls.

A :class:`Component` is data (frozen, compared by value, pickled) with one
operation, ``balls(orders)``: a certified Arb ball, or :class:`Infinite` with
the reason, per order.  The kinds are a closed form in α (:class:`ClosedForm`,
with its value at α = ∞), the Poisson-subsampled Gaussian
(:class:`SampledGaussian`, computed by :mod:`rdpsym.accounting.sampled_gaussian`),
a non-private step (:class:`Unbounded`) and a user's function (:class:`Custom`).
Group privacy, a component built from a whole curve, is
:class:`rdpsym.accounting.curve.GroupPrivacy`; the weighted sums of components
that composition builds are :class:`rdpsym.accounting.curve.RdpCurve`.

Kept apart from the curve so that the kinds, the ball cache
(:mod:`rdpsym.accounting.ball_cache`) and the curve's algebra each read as one
thing; every name here is also importable from :mod:`rdpsym.accounting.curve`
where users import it (``Component``, ``Infinite``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import sympy as sp
from flint import arb, fmpq

from rdpsym.accounting import sampled_gaussian as sg
from rdpsym.engine.context import SYMPY_FAILURES
from rdpsym.foundations.balls import (
    InfiniteValue,
    Undecided,
    precision,
    to_arb,
    to_fmpq,
)
from rdpsym.foundations.budget import budgeted
from rdpsym.foundations.disk_cache import persistent
from rdpsym.foundations.errors import (
    NoClosedFormError,
    NotCertifiable,
    ParameterError,
    must,
)
from rdpsym.foundations.logs import expand_logs
from rdpsym.foundations.reading import exact
from rdpsym.foundations.symbols import alpha


@dataclass(frozen=True)
class Infinite:
    """ε(α) = ∞ at this order, and why."""

    reason: str

    def __str__(self) -> str:
        return f"inf ({self.reason})"

class Component:
    """One mechanism's RDP curve, as data: ``balls(orders)`` computes it.

    ``balls(orders)`` returns, at the current Arb precision, a ball or
    :class:`Infinite` per order.  ``closed_form`` is ε(α) as a SymPy
    expression in :data:`rdpsym.alpha` when one is known.  ``certified`` is
    False only for curves evaluated by non-rigorous quadrature; ``convex``
    says (α−1)·ε(α) is known convex (true for the exact Rényi divergence of a
    pair, a cumulant generating function, and for zCDP-type bounds; it lets
    the continuous order search certify its optimum much faster; never
    assumed for a user's closed form).

    The kinds are frozen records that compare by value and pickle:
    :class:`ClosedForm`, :class:`SampledGaussian`, :class:`GroupPrivacy`, and
    :class:`Custom` (a Python function: what ``Component(name, balls, ...)``
    builds, for a curve given as code; it pickles only if the function does).
    """

    # What every kind offers (a field or a property of each; closed_form too).
    name: str
    certified: bool = True
    source: str = ""
    convex: bool = False

    def __new__(cls, *args, **kwargs):
        # Component(name, balls, ...) as before the kinds existed: a curve given by a function.
        return object.__new__(Custom if cls is Component else cls)

    def balls(self, orders: Sequence) -> list:
        raise NotImplementedError

    @staticmethod
    def from_closed_form(name: str, expr: sp.Expr, source: str = "", at_infinity: sp.Expr | None = None,
                         convex: bool = False) -> ClosedForm:
        """A component whose curve is the SymPy expression ``expr`` in α."""
        return ClosedForm(name, expr, at_infinity, source, convex)


@dataclass(frozen=True)
class Custom(Component):
    """A curve given by a Python function ``function(orders) -> [ball or Infinite, ...]``."""

    name: str
    function: Callable[[Sequence[fmpq]], list]
    closed_form: sp.Expr | None = None
    certified: bool = True
    source: str = ""
    convex: bool = False

    def balls(self, orders: Sequence) -> list:
        return self.function(orders)


@dataclass(frozen=True)
class ClosedForm(Component):
    """ε(α) = ``closed_form``, a SymPy expression in α alone, and ``at_infinity`` its value at α = ∞
    (``None``: the limit, taken when asked)."""

    name: str
    closed_form: sp.Expr
    at_infinity: sp.Expr | None = None
    source: str = ""
    convex: bool = False
    certified: bool = True
    #: μ when the component is exactly the Gaussian pair N(0, 1) vs N(μ, 1) (its whole privacy profile is
    #: Balle–Wang's, :mod:`rdpsym.accounting.profiles`); None for any other curve, a zCDP ρα included.
    gaussian_shift: sp.Expr | None = None
    #: ("laplace", ε₀) or ("randomized-response", p) when the component is exactly that mechanism's worst-case
    #: pair, whose privacy profile has a closed form (:mod:`rdpsym.accounting.profiles`); None otherwise.
    pure_pair: tuple | None = None
    #: The value at α = 1 from the laws (a derived KL divergence), asked only when the limit α → 1⁺ of the
    #: closed form cannot be taken; None where the curve has no laws.  Not part of the curve's identity.
    at_one: Callable[[], sp.Expr] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        expr = exact(self.closed_form, "closed form", {"alpha": alpha})
        extra = expr.free_symbols - {alpha}
        if extra:
            raise ParameterError(must(f"{self.name} curve",
                                      "a closed form in alpha only (give every parameter a value)",
                                      ", ".join(sorted(map(str, extra)))))
        if expr != 0 and _identically_zero(expr):
            expr = sp.S.Zero  # ε(α) = 0 at every order (P = Q: randomized response at p = 1/2); balls of the
            # unsimplified form never narrow around 0, and an exact 0 needs no precision
        object.__setattr__(self, "closed_form", expr)
        if self.at_infinity is not None:
            object.__setattr__(self, "at_infinity", exact(self.at_infinity, "the value at infinity"))

    def balls(self, orders: Sequence) -> list:
        out = []
        for a in orders:
            try:
                if a == float("inf"):
                    v = self.at_infinity if self.at_infinity is not None else _limit(self.closed_form, sp.oo)
                    out.append(to_arb(v))
                else:
                    out.append(_at_rational_order(self.closed_form, a))
            except InfiniteValue as exc:
                out.append(Infinite(f"{self.name}: {exc}"))
        return out


def _at_rational_order(form: sp.Expr, a: fmpq | int | float) -> arb:
    """The closed form's ball at the exact order ``a``.  A Piecewise condition whose two sides are equal at ``a``
    (α < 4/3 at α = 4/3: N(0, 4) against N(1, 1) is finite below 4/3 only) can never be decided in balls, whose
    α is a ball around ``a`` at any precision: the whole call failed, "not reached within 22 016 bits", the
    finite orders beside it lost too (a review).  There the conditions are decided at the exact rational
    (:func:`_holds_at`) and the branch that holds is evaluated; a condition left open still fails as the balls say."""
    try:
        return to_arb(form, {alpha: arb(a)})
    except Undecided:
        exact = sp.Rational(int(a.p), int(a.q)) if isinstance(a, fmpq) else sp.Rational(a)  # (a float: its own value)
        decided = _branches_at(form, exact)
        if decided == form:
            raise
        return to_arb(decided, {alpha: arb(a)})


def _branches_at(form: sp.Expr, order: sp.Rational) -> sp.Expr:
    """``form`` with each Piecewise replaced by its branch at α = ``order`` where its conditions before it are decided
    exactly (:func:`_holds_at`: false up to a true one); a Piecewise with a condition left open before that is kept."""

    def decided(*pieces: sp.Tuple) -> sp.Expr:
        for i, (value, condition) in enumerate(pieces):
            holds = _holds_at(condition, order)
            if holds is True:
                return value
            if holds is None:
                return sp.Piecewise(*pieces[i:])
        return sp.Piecewise(*pieces)

    return form.replace(lambda e: isinstance(e, sp.Piecewise), lambda e: decided(*e.args))


def _holds_at(condition: sp.Basic, order: sp.Rational) -> bool | None:
    """Whether ``condition`` holds at α = ``order``, where each relation in it compares two rationals there (their
    difference is a rational: decided as one); None where one does not.  Not SymPy's own decision of a relation
    between numbers: that reads the sign of their difference by ``evalf``, which took an exact 0 for a negative
    number in the claims' identities (a review), and a wrong branch here would be a wrong ε with a certificate."""
    if condition in (sp.true, sp.false):
        return bool(condition)
    if isinstance(condition, sp.core.relational.Relational):
        difference = (condition.lhs - condition.rhs).subs(alpha, order)
        return bool(condition.func(difference, 0)) if difference.is_Rational else None
    if isinstance(condition, (sp.And, sp.Or, sp.Not)):
        parts = [_holds_at(c, order) for c in condition.args]
        if isinstance(condition, sp.Not):
            return None if parts[0] is None else not parts[0]
        decisive = isinstance(condition, sp.Or)  # (a true part decides an Or, a false one an And)
        if decisive in parts:
            return decisive
        return None if None in parts else not decisive
    return None


@dataclass(frozen=True)
class Unbounded(Component):
    """ε(α) = ∞ at every order, for the stated ``reason`` (a non-private step)."""

    name: str
    reason: str
    source: str = ""
    certified: bool = True
    convex: bool = False

    @property
    def closed_form(self) -> sp.Expr:
        return sp.oo

    def how(self, order: object) -> str:
        return f"∞: {self.reason}"

    def balls(self, orders: Sequence) -> list:
        return [Infinite(self.reason) for _ in orders]


def _identically_zero(expr: sp.Expr) -> bool:
    """Whether a closed form in α is 0 at every order: its powers and logarithms combined give 0
    (log(2·2^{α−1}/2^α) = log 1), confirmed in Arb balls at three orders (force=True combines powers of
    any base; the balls make sure of the numbers)."""
    if not expr.has(alpha):
        return False
    # A value certainly not 0 settles it at once, before the cache of derivations is asked (its key, 0.75 ms, was
    # most of a closed form's construction in rdpsym check's group-privacy claim; SymPy's combination 28 ms).
    try:
        with precision(128):
            if not all(0 in to_arb(expr, {alpha: arb(a)}) for a in (fmpq(3, 2), fmpq(7, 3))):
                return False
    except (NotCertifiable, Undecided, InfiniteValue):
        pass
    return _combined_to_zero(expr)


@persistent("identically zero", keep=lambda decided: True, returns=bool)
def _combined_to_zero(expr: sp.Expr) -> bool:
    """:func:`_identically_zero` where no value settled it: SymPy's combination, confirmed in balls."""
    combined = sp.expand(expand_logs(sp.powsimp(sp.expand(expr), force=True)))
    if combined != 0:
        return False
    try:
        with precision(1024):
            return all(0 in to_arb(expr, {alpha: arb(a)}) and to_arb(expr, {alpha: arb(a)}).rad() < arb(2) ** -900
                       for a in (fmpq(3, 2), fmpq(7, 3), fmpq(11)))
    except (NotCertifiable, Undecided, InfiniteValue):
        return False


@functools.lru_cache(maxsize=256)
def _limit(closed_form: sp.Expr, point: sp.Expr) -> sp.Expr:
    """lim_{α→point} of a closed form (from above at 1, the KL end; α = ∞ the D_∞ end), under a time budget
    and taken once per curve, not at every precision a value is tried at.  A limit SymPy leaves unevaluated,
    or gives as nan, zoo or −∞ (no divergence is negative), is a :class:`NoClosedFormError`."""
    if not closed_form.has(alpha):
        return closed_form
    if point == 1:
        try:
            by_derivative = budgeted(lambda: _by_derivative(closed_form), "the curve's derivative at α = 1")
        except (NoClosedFormError, *_SYMPY_CANNOT):  # (a function SymPy cannot differentiate or read at 1, such as
            by_derivative = None                      # hermite(α − 2, ½): SymPy's limit is asked instead; a review)
        if by_derivative is not None:
            return by_derivative
    try:
        limit = budgeted(lambda: sp.limit(closed_form, alpha, point, "+" if point == 1 else "-"),
                         f"the limit α → {point} of the curve")
    except (sp.PoleError, *_SYMPY_CANNOT) as exc:  # SymPy's own "cannot" (gruntz's
        # "MRV set computation for functions in several variables" on an erf of α·μ): no limit, said by name
        raise NoClosedFormError(f"the limit α → {point} of {closed_form} could not be taken: {exc}") from None
    if limit.has(sp.Limit) or limit is sp.nan or limit.has(sp.zoo) or limit is -sp.oo:
        raise NoClosedFormError(f"the limit α → {point} of {closed_form} could not be taken: {limit}")
    if point == 1 and not _tends_to(closed_form, limit):  # (SymPy's limit of (atan α − atan ½ − atan ⅓)/(α − 1),
        # whose 0 at 1 it does not see, was ∞ where it is ½: a review)
        raise NoClosedFormError(f"the limit α → 1 of {closed_form}: SymPy's value {limit} is not the form's beside 1")
    return limit


#: Functions not smooth in their argument: a closed form holding one is not differentiated at α = 1.
_NOT_SMOOTH = (sp.Abs, sp.sign, sp.Heaviside, sp.Piecewise, sp.Max, sp.Min, sp.floor, sp.ceiling, sp.frac,
               sp.DiracDelta, sp.re, sp.im, sp.arg)
#: What SymPy raises where it cannot differentiate a form or read it at a point (the engine's list, and the
#: AttributeError its limit raised on a hypergeometric function of α: a review).
_SYMPY_CANNOT = (*SYMPY_FAILURES, AttributeError, ArithmeticError)
#: Where the rule's value is checked against the closed form: at α = 1 + 2^−STEP, to within 2^−AGREE, in balls of
#: BITS bits (the form's log of a moment 1 + O(2^−STEP) keeps BITS − STEP of them).
_STEP, _AGREE, _BITS = 200, 90, 640


def _by_derivative(form: sp.Expr) -> sp.Expr | None:
    """lim_{α→1⁺} of ``form`` by L'Hôpital's rule, where it is r(α)/(α − 1) with r(1) = 0 exactly: r′(1), r smooth
    about 1 (no Abs, sign, Piecewise, Max, … in it); a Max or Min of such forms tends to the Max or Min of their
    limits (both are continuous).  None where the form is not of that shape, r′(1) is not a finite number, or the
    form at α = 1 + 2⁻²⁰⁰ is not within 2⁻⁹⁰ of r′(1) in Arb balls: a check independent of the rule, which catches
    an r′ not continuous at 1.  SymPy's limit spent 7.5 s failing on the clipped Gaussian's erf(α·μ) ("MRV set
    computation for functions in several variables") before its KL was derived from the laws again.

    >>> p = sp.Rational(3, 4)  # randomized response: its KL, (2p − 1)·log(p/(1 − p)) = log(3)/2
    >>> _by_derivative(sp.log(p**alpha * (1 - p)**(1 - alpha) + (1 - p)**alpha * p**(1 - alpha)) / (alpha - 1))
    log(3/4)/2 + log(4)/2
    >>> _by_derivative(sp.log(1 + sp.Abs(alpha - 1)) / (alpha - 1)) is None  # (not smooth at 1: SymPy's limit)
    True
    """
    if isinstance(form, (sp.Max, sp.Min)):
        limits = [_by_derivative(a) for a in form.args]
        return None if any(v is None for v in limits) else form.func(*limits)
    r = form * (alpha - 1)  # (SymPy's product cancels a factor 1/(α − 1) of the form's)
    if r.has(*_NOT_SMOOTH) or r.subs(alpha, 1) != 0:
        return None
    derivative = sp.diff(r, alpha)
    limit = derivative.subs(alpha, 1)
    if not limit.is_number or limit.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
        return None
    try:
        with precision(_BITS):
            # SymPy's substitution is not trusted: it reads 0·(1/z) as 0 for a z that is 0 and not seen to be
            # (atan α − atan ½ − atan ⅓ at α = 1), and dropped a 0/0 term of r′ (a review).  r and r′ at 1 in balls
            # must hold 0 and the value, and the form beside 1 must agree with it.
            at_one, slope, value = to_arb(r, {alpha: arb(1)}), to_arb(derivative, {alpha: arb(1)}), to_arb(limit)
            if not (at_one.is_finite() and 0 in at_one and slope.is_finite() and value.is_finite()
                    and slope.overlaps(value) and slope.rad() < arb(2) ** -_AGREE):
                return None
    except (NotCertifiable, Undecided, InfiniteValue, *_SYMPY_CANNOT):
        return None
    return limit if _tends_to(form, limit) else None


def _tends_to(form: sp.Expr, limit: sp.Expr) -> bool:
    """Whether the form at α = 1 + 2⁻²⁰⁰ is within 2⁻⁹⁰ of ``limit`` in Arb balls (above 2⁵⁰ for a limit ∞): a
    check of a limit at 1 independent of how it was found."""
    try:
        with precision(_BITS):
            near = to_arb(form, {alpha: arb(1) + arb(2) ** -_STEP})
            if limit is sp.oo:
                return bool(near > arb(2) ** (_STEP // 4))
            return bool(abs(near - to_arb(limit)) < arb(2) ** -_AGREE)
    except (NotCertifiable, Undecided, InfiniteValue, *_SYMPY_CANNOT):
        return False


@dataclass(frozen=True)
class SampledGaussian(Component):
    """The Poisson-subsampled Gaussian with rate ``q`` and noise multiplier ``sigma`` (sensitivity 1):
    the exact binomial sum at integer orders, certified quadrature at fractional ones
    (Mironov–Talwar–Zhang 2019; :mod:`rdpsym.accounting.sampled_gaussian`)."""

    name: str
    q: sp.Rational
    sigma: sp.Rational
    certified: bool = True
    source: str = "Mironov–Talwar–Zhang 2019"
    convex: bool = True

    def __post_init__(self) -> None:
        # Read by the one reader (0.01 is 1/100, not the binary double), or a ParameterError now.
        object.__setattr__(self, "q", _sym(to_fmpq(self.q, "q")))
        object.__setattr__(self, "sigma", _sym(to_fmpq(self.sigma, "sigma")))

    @property
    def closed_form(self) -> sp.Expr | None:
        return alpha / (2 * self.sigma**2) if self.q == 1 else (sp.S.Zero if self.q == 0 else None)

    @property
    def gaussian_shift(self) -> sp.Expr | None:
        """1/σ at q = 1, where every record is in the batch: the pair is N(0, σ²) vs N(1, σ²), the Gaussian
        mechanism, whose exact profile applies (:mod:`rdpsym.accounting.profiles`); None for q < 1."""
        return 1 / self.sigma if self.q == 1 else None

    def balls(self, orders: Sequence) -> list:
        q, s = to_fmpq(self.q), to_fmpq(self.sigma)
        finite = [a for a in orders if a != float("inf")]
        logs = iter(sg.log_moments(q, s, finite) if finite else [])
        out = []
        for a in orders:
            if a == float("inf"):
                out.append(arb(0) if q == 0 else Infinite("D_∞ of the subsampled Gaussian is ∞ for q > 0"))
            else:
                out.append(next(logs) / (arb(a) - 1))
        return out

def _sym(q: fmpq) -> sp.Rational:
    return sp.Rational(int(q.p), int(q.q))
