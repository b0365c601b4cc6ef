"""The definition's integral as a certified Arb ball: the fast path of the 40-digit check.

:func:`~rdpsym.derive.verify.check_against_definition` compares every closed form
with D_α(P‖Q) = log(∫ P^α Q^{1−α})/(α − 1) at sampled points.  Here that integral
is computed with python-flint's ``acb.integral`` (Arb's rigorous Gauss–Legendre
integration of holomorphic functions: the answer is a ball certain to contain it),
piece by piece on the numeric routes' own reading of the supports
(:func:`rdpsym.quadrature.regions.read_regions`, never the derivation's common
refinement), where both densities are smooth.  The integrand is compiled by its
logarithm, exp(α·log p + (1 − α)·log q), from the same expanded log-densities as the mpmath route
(:func:`~rdpsym.quadrature.compile.log_expression`), into ``acb`` arithmetic that
refuses (a non-finite ball) wherever a branch cut or a kink could be touched.

An infinite end is cut at a finite T, and a finite end where the integrand has a
non-integer power of the distance to it (Gamma and Beta shapes, x^{−1/2}) at a
dyadic ε, each with a rigorous bound of what was cut off, added as a ball
[−bound, bound] (:mod:`rdpsym.derive.certified_ends`); the integrand is compiled
into ``acb`` arithmetic by :mod:`rdpsym.derive.certified_compile`.  At α = 1 the
integrand is P·log(P/Q) (the KL divergence).

Anything else -- a discrete law, α = ∞, an unsupported function, a logarithm whose
argument is not shown positive on the piece, mass of P where Q = 0 at an order ≥ 1 (∞: the
mpmath route finds the witness), a tail of another shape (e^{−√x}, e^{−e^x}) or too slow to reach (x^{−1.01}),
an integrand Arb cannot bound, a ball too wide for the digits asked -- gives None, and the
caller uses the mpmath route unchanged.  Thread-safe: the work runs in
one :class:`~rdpsym.foundations.balls.precision` block (python-flint's precision is
process-wide; the block holds the lock).

>>> import sympy as sp, rdpsym
>>> P, Q = rdpsym.gaussian(sigma=2).pair
>>> ball = certified_divergence(P, Q, sp.Integer(3), 40)
>>> ball.overlaps(arb(3) / 8), ball.rad() < arb(10) ** -42   # α/(2σ²), certified
(True, True)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Sequence

import sympy as sp
from flint import arb

from rdpsym.derive.certified_compile import Compiled, _integrand, _NaN
from rdpsym.derive.certified_ends import _DEPTH_LIMIT, _end_cut, _reciprocal, _tail_at, _tail_cut, rational_powers
from rdpsym.foundations.arb_integral import acb_integral
from rdpsym.foundations.balls import precision, to_arb
from rdpsym.foundations.errors import NotCertifiable, SymbolicTimeout
from rdpsym.foundations.logs import expanded
from rdpsym.foundations.precision import bits_for, sympy_evalf_guard
from rdpsym.laws.densities import Continuous, Density
from rdpsym.quadrature.compile import log_expression
from rdpsym.quadrature.regions import Law, read_regions

#: How the evidence names this route (:class:`~rdpsym.foundations.record.AgreesWithDefinition`.method).
METHOD = "certified quadrature (Arb)"

#: Work ceilings of one ``acb.integral`` call (Arb's own limits): integrand evaluations, and the bisection
#: depth :data:`~rdpsym.derive.certified_ends._DEPTH_LIMIT`.
_EVAL_LIMIT = 40_000


def certified_divergence(P: Density, Q: Density, order: sp.Expr, digits: int) -> arb | None:
    """D_order(P‖Q) as an Arb ball of relative radius below 10^−(digits+1), or None where this route
    does not apply (the caller then uses :func:`~rdpsym.derive.numeric.renyi_divergence_mp`).

    P and Q are one-dimensional continuous laws with every parameter given; ``order`` a
    positive rational (α = ∞ is not an integral).  At α = 1 the integral is the KL
    divergence ∫ P·r with r = log P − log Q; its tails are bounded through
    |r| ≤ (e^{εr} + e^{−εr})/ε with ε = 1/4, that is |P·r| ≤ e^{log 4 + (5/4)·log P − (1/4)·log Q}
    + e^{log 4 + (3/4)·log P + (1/4)·log Q}.
    """
    try:
        return _certified(P, Q, order, digits)
    except SymbolicTimeout:
        raise  # a caller's time budget ran out: not this route's failure
    except Exception:  # noqa: BLE001 - an optional fast path: anything it cannot do, the mpmath route does
        return None


def _certified(P: Density, Q: Density, order: sp.Expr, digits: int) -> arb | None:
    order = sp.S(order)
    if not (isinstance(P, Continuous) and isinstance(Q, Continuous)) or getattr(P, "table", None) is not None:
        return None
    if not isinstance(P.var, sp.Symbol):
        return None  # laws in several variables: rdpsym.derive.multivariate
    if not (order.is_Rational and order.is_positive):
        return None
    if P.parameters or Q.parameters or P.var != Q.var:
        return None
    x = P.var
    pieces = []
    with sympy_evalf_guard():  # the numeric routes' own reading of the supports, never the derivation's
        regions = read_regions(Law(P.expr, x, P.support), Law(Q.expr, x, Q.support))
    for pair in regions:
        if pair.lattice is not None:
            return None  # infinitely many cells between the jumps of a floor: the mpmath route sums them
        if pair.p == 0 and pair.q == 0:
            continue
        if pair.p == 0 or pair.q == 0:
            # Mass of one law only.  P = 0: P^α·Q^{1−α}, and P·log(P/Q) at α = 1, are 0 there at every order;
            # Q = 0 < P: Q^{1−α} = 0 below order 1, and from order 1 on the divergence is ∞, which the mpmath
            # route shows with its witness (Pareto laws of two scales at α = 1/2 were 22 mpmath definitions).
            if pair.p == 0 or order < 1:
                continue
            return None
        lp, lq = log_expression(pair.p), log_expression(pair.q)
        if (lp.free_symbols | lq.free_symbols) - {x}:
            return None
        # log_expression expands with force=True: log((x − 1)²) becomes 2·log(x − 1), true only where
        # x > 1.  Every logarithm's argument must be positive on the piece, or the route is not taken.
        if not all(_positive_on(g.args[0], x, pair.lo, pair.hi) for g in (lp + lq).atoms(sp.log)):
            return None
        # log(P/Q) singular at an end is not holomorphic up to it (no end cut for P·r); on (0, ∞) that end is 0
        # and log x, read as u = log x, is not singular: only the log-scale route is taken (a gamma pair of two
        # shapes, log-normal laws).
        log_scale_only = order == 1 and _log_vanishes_at_an_end(sp.expand(lp - lq), x, pair.lo, pair.hi)
        if log_scale_only and not (pair.lo == 0 and pair.hi is sp.oo):
            return None
        if order == 1:  # |r| ≤ (e^{εr} + e^{−εr})/ε, ε = 1/4: |P·r| ≤ 4·(P^{5/4}Q^{−1/4} + P^{3/4}Q^{1/4})
            # A smaller ε where that bound's tail is too heavy (Pareto laws with g₂ > 5g₁: x^{−(5/4)(g₁+1) +
            # (g₂+1)/4} is not integrable); the first ε whose bounds give a cut is used.
            options = _OnDemand(functools.partial(_kl_bounds, lp, lq, eps)
                                for eps in (sp.Rational(1, 4), sp.Rational(1, 32), sp.Rational(1, 256)))
            pieces.append((pair.lo, pair.hi, ("KL", lp, lq), options, log_scale_only))
        else:
            L = expanded(order * lp + (1 - order) * lq)
            pieces.append((pair.lo, pair.hi, ("exp", L), ((L,),), False))
    if not pieces:
        return None
    with precision(bits_for(digits + 15)):
        total = arb(0)
        for lo, hi, integrand, options, log_scale_only in pieces:
            # An essential zero at a finite end (e^{−b/x} at 0) is integrated in u = 1/|x − end| only: integrated
            # in x, Arb bisects towards that end until its evaluation limit and gives up (40 000 evaluations for
            # each tail option, three at α = 1: 0.7 s for a Lévy pair before the reciprocal route was tried).
            if log_scale_only:
                piece = None
            elif _essential_zero_at_an_end(integrand, x, lo, hi):
                piece = _with_reciprocal_ends(integrand, options, x, lo, hi, digits)
            else:
                piece = _integrated(integrand, options, x, lo, hi, digits)
                if piece is None:
                    piece = _with_reciprocal_ends(integrand, options, x, lo, hi, digits)
            if piece is None and lo == 0 and hi is sp.oo:
                piece = _in_log_scale(integrand, options, x, digits)
            if piece is None and not log_scale_only and sp.oo in (-lo, hi) and _has_exponentials(integrand, x):
                piece = _in_exponential_scale(integrand, options, x, lo, hi, digits)
            if piece is None:
                return None
            total += piece
        if order == 1:
            value = total
        else:
            if not total > 0:
                return None
            value = total.log() / to_arb(order - 1)
        if not value.is_finite() or not value.rad() <= abs(value.mid()) * arb(10) ** -(digits + 1):
            return None  # too wide to decide the digits compared (a value that cancels): the mpmath route
        return value


def _kl_bounds(lp: sp.Expr, lq: sp.Expr, eps: sp.Rational) -> tuple[sp.Expr, sp.Expr]:
    """The logs of the two terms of |P·r| ≤ (P^{1+ε}Q^{−ε} + P^{1−ε}Q^{ε})/ε, r = log P − log Q."""
    return tuple(expanded((1 + s * eps) * lp - s * eps * lq + sp.log(1 / eps)) for s in (1, -1))


class _OnDemand(Sequence):
    """A tuple whose items are made when first read, then kept.

    The KL integrand's tail bounds are options tried in turn, each two expansions of log-densities, and the
    first nearly always gives the cut: made up front, the three were 29 % of the certified route's time in
    Table II.

    >>> made = []
    >>> items = _OnDemand(lambda i=i: made.append(i) or i * i for i in range(3))
    >>> items[1], items[1], len(items), made
    (1, 1, 3, [1])
    >>> list(items), made
    ([0, 1, 4], [1, 0, 2])
    """

    def __init__(self, makers: Iterable[Callable[[], object]]):
        self._makers = tuple(makers)
        self._made: dict[int, object] = {}

    def __len__(self) -> int:
        return len(self._makers)

    def __getitem__(self, i: int):
        if not 0 <= i < len(self._makers):
            raise IndexError(i)
        if i not in self._made:
            self._made[i] = self._makers[i]()
        return self._made[i]

    def __iter__(self) -> Iterator:
        # (by index, not by Sequence's loop to the first IndexError: one raised inside a maker is an error, not
        # the end of the options)
        return (self[i] for i in range(len(self._makers)))


def _integrated(integrand: tuple, options: Sequence[tuple], x: sp.Symbol, lo: sp.Expr, hi: sp.Expr,
                digits: int) -> arb | None:
    """∫_lo^hi of the integrand (``("exp", L)`` or ``("KL", lp, lq)``), with the first of ``options`` (bounds of
    its log) whose tails can be cut; None where no option gives a certified ball."""
    ends = integrand[1] if integrand[0] == "exp" else None
    # The far-tail forms, for infinite tails only, built when a tail is far (most are cut before 2^8)
    far = {side: functools.cache(functools.partial(_far_form, integrand, x, side))
           for side, end in ((1, hi), (-1, lo)) if end in (sp.oo, -sp.oo)}
    f = _integrand(integrand, x)
    for bounds in options:
        piece = _piece_integral(f, bounds, x, lo, hi, digits, ends, far)
        if piece is not None:
            return piece
    return None


def _far_form(integrand: tuple, x: sp.Symbol, side: int) -> Compiled:
    """The integrand of the infinite tail on ``side`` (±1) in u = log|x|, x = side·e^u, Jacobian e^u included,
    built symbolically, each term in the exponent (:func:`~rdpsym.derive.certified_compile._exp_of` without
    powers).  log(side·x) is u itself there: compiled as log(e^u) instead, it met its branch cut wherever the
    ball's imaginary part passed π, and Arb cut a tail of 280 units of u into pieces of a few units (19 000
    evaluations for a Lévy pair; about 600 so)."""
    u = sp.Dummy("u", real=True)
    kind, *logs = integrand  # (P·(lp − lq): the Jacobian's u cancels in lp − lq)
    return _integrand((kind, *(_in_log_coordinates(e, x, u, side) + u for e in logs)), u, powers=False)


def _in_log_coordinates(e: sp.Expr, x: sp.Symbol, u: sp.Symbol, side: int, near_zero: bool = False) -> sp.Expr:
    """``e`` at x = side·e^u, each log of a polynomial g of degree d read as log(c) + d·u + log(g/(c·e^{du})),
    c = g's leading coefficient times side^d (g > 0 far out on this side, so c > 0): the last log's argument
    is 1 + O(e^{−u}), far from its branch cut however wide the ball's imaginary part (log(1 + e^{2u}) of a
    Cauchy law meets it at Im u = π/2 and needed 4·10⁴ evaluations).  On x > 0, g may have rational powers
    (:func:`_leading_power`); with ``near_zero`` (u → −∞) the term split off is g's lowest power, not its
    highest, where that is a positive power (log(x + x²) = u + log(1 + e^u)).

    >>> x, u = sp.Symbol("x", real=True), sp.Symbol("u", real=True)
    >>> _in_log_coordinates(-sp.log(x**2 + 1) - sp.log(sp.pi), x, u, 1)
    -2*u - log(1 + exp(-2*u)) - log(pi)
    """
    to_u = {x: side * sp.exp(u)}
    swaps = {}
    for g in e.atoms(sp.log):
        argument = g.args[0]
        if x not in argument.free_symbols:
            continue
        leading = _leading_power(argument, x, side, near_zero)
        if leading is None:
            continue
        d, lead = leading
        if not d > 0 or lead.is_positive is not True:
            continue
        swaps[g] = sp.log(lead) + d * u + sp.log(sp.expand(argument.xreplace(to_u) * sp.exp(-d * u) / lead))
    return sp.expand(e.xreplace(swaps).xreplace(to_u))


def _leading_power(g: sp.Expr, x: sp.Symbol, side: int, near_zero: bool = False) -> tuple[sp.Expr, sp.Expr] | None:
    """(d, c): g ~ c·|x|^d as x → side·∞ (``near_zero``: as x → 0 on that side), for a polynomial g, or on x > 0
    a sum of terms c_i·x^{r_i} with rational r_i ≥ 0 (a log-logistic law's 1 + (x/s)^{5/2}); None for anything
    else.

    >>> x = sp.Symbol("x", positive=True)
    >>> _leading_power(3 * x**2 - x + 1, x, -1), _leading_power(1 + 2 * x ** sp.Rational(5, 2) + x, x, 1)
    ((2, 3), (5/2, 2))
    >>> _leading_power(x**3 + 4 * x ** sp.Rational(1, 2), x, 1, near_zero=True)
    (1/2, 4)
    """
    if side != 1 and not g.is_polynomial(x):
        return None  # (−e^u)^r is not real for a fractional r
    powers = rational_powers(g, x)
    if not powers:
        return None
    d = min(powers) if near_zero else max(powers)
    return d, powers[d] * side**d


def _essential_zero_at_an_end(integrand: tuple, x: sp.Symbol, lo: sp.Expr, hi: sp.Expr) -> bool:
    """Whether a term of the integrand's log density outside every logarithm is infinite at a finite end of the
    piece (−b/x at 0: e^{−b/x}, a zero no power of the distance bounds)."""
    L = integrand[1]  # e^L, or the density e^{lp} of P·(lp − lq)
    ends = [end for end in (lo, hi) if end not in (sp.oo, -sp.oo)]
    if not ends:
        return False  # (the whole line: no end to read, and L's expansion, a walk of the whole tree, not made)
    return any(not term.has(sp.log) and term.xreplace({x: end}).is_finite is not True
               for term in sp.Add.make_args(expanded(L)) if x in term.free_symbols for end in ends)


def _with_reciprocal_ends(integrand: tuple, options: tuple, x: sp.Symbol, lo: sp.Expr, hi: sp.Expr,
                          digits: int) -> arb | None:
    """∫_lo^hi where a finite end is an essential zero of the integrand (e^{−b/x} at 0: inverse gamma and Lévy
    laws, whose end no power of the distance bounds): the segment of width h next to that end is integrated in
    u, x = end ± 1/u (:func:`~rdpsym.derive.certified_ends._reciprocal`: the end becomes the tail e^{−b·u}·u^c,
    cut with the tail bounds), the rest as before.  Each log of the new integrand and of its bounds must have
    an argument positive on u's range; None where that or any part fails."""
    finite = [end for end in (lo, hi) if end not in (sp.oo, -sp.oo)]
    for mapped in [[end] for end in finite] + ([finite] if len(finite) == 2 else []):
        width = sp.Min(sp.S.One, (hi - lo) / (2 * len(mapped)))  # (hi − lo = ∞ on a half-line: width 1)
        inner = _integrated(integrand, options, x, lo + width if lo in mapped else lo,
                            hi - width if hi in mapped else hi, digits)
        ends = [_in_reciprocal(integrand, options, x, end, 1 if end == lo else -1, width, digits)
                for end in mapped] if inner is not None else [None]
        if None not in ends:
            return inner + sum(ends, arb(0))
    return None


def _in_reciprocal(integrand: tuple, options: tuple, x: sp.Symbol, end: sp.Expr, inward: int, width: sp.Expr,
                   digits: int) -> arb | None:
    """∫ over the segment of ``width`` at ``end`` in u = 1/|x − end| ∈ (1/width, ∞); None where not certified."""
    u = sp.Dummy("u", positive=True)
    start = 1 / width
    found = _moved(integrand, options, lambda e: _reciprocal(e, x, end, inward, u), u, start, sp.oo)
    if found is None:
        return None
    moved, moved_options = found
    if moved[0] == "KL" and _log_vanishes_at_an_end(sp.expand(moved[1] - moved[2]), u, start, sp.oo):
        return None
    return _integrated(moved, moved_options, u, start, sp.oo, digits)


def _moved(integrand: tuple, options: tuple, move, u: sp.Symbol, lo: sp.Expr, hi: sp.Expr) -> tuple | None:
    """(integrand, options) with every log-expression (the integrand's, its bounds') replaced by ``move`` of it
    -- a change of variable to u, Jacobian included, that splits logs (log(a/b) = log a − log b) -- or None
    where a log's argument is not shown positive for u in (lo, hi), which is what makes each split true."""
    kind, *logs = integrand
    moved = (kind, *(move(e) for e in logs))
    moved_options = tuple(tuple(move(B) for B in bounds) for bounds in options)
    every = [*moved[1:], *(B for bounds in moved_options for B in bounds)]
    if not all(_positive_on(g.args[0], u, lo, hi) for e in every for g in e.atoms(sp.log)):
        return None
    return moved, moved_options


def _in_log_scale(integrand: tuple, options: tuple, x: sp.Symbol, digits: int) -> arb | None:
    """∫ over (0, ∞) in u = log x ∈ (−∞, ∞), x = e^u, Jacobian included; None where not certified.

    Where log x enters the integrand other than as a power -- a log-normal law's (log x − μ)², a log-logistic
    one's log(1 + x^β) -- its tails in x have no shape the bounds know; in u they are a Gaussian's, or a
    mixture of exponentials'.  Each log of the new integrand and of its bounds must have an argument positive
    for every real u (log(1 + c·e^{βu}), c > 0), as for the reciprocal route."""
    u = sp.Dummy("u", real=True)

    def moved(near_zero: bool):  # (for P·r: r itself is unchanged, the Jacobian's u cancels in lp − lq)
        return _moved(integrand, options, lambda e: _in_log_coordinates(e, x, u, 1, near_zero) + u, u, -sp.oo,
                      sp.oo)

    # (0, 1] in u ≤ 0; [1, ∞) in x where the route in x bounds its tail (an exponential tail in x is a double
    # exponential one in u, which no bound here reads: gamma laws of two shapes at α = 1), else in u too.  The
    # far part first: where neither reads its tail (Weibull laws, e^{−x^k}), that is found before any integral.
    far = _integrated(integrand, options, x, sp.S.One, sp.oo, digits)
    if far is None:
        far_form = moved(near_zero=False)
        far = None if far_form is None else _integrated(*far_form, u, sp.S.Zero, sp.oo, digits)
    if far is None:
        return None
    near_form = moved(near_zero=True)  # each log split off its term that leads as x → 0
    near = None if near_form is None else _integrated(*near_form, u, -sp.oo, sp.S.Zero, digits)
    return None if near is None else near + far


def _has_exponentials(integrand: tuple, x: sp.Symbol) -> bool:
    """Whether the integrand's log holds e^{c·x} terms (a Gumbel law's −e^{−x})."""
    return any(x in g.free_symbols for e in integrand[1:] for g in e.atoms(sp.exp))


def _in_exponential_scale(integrand: tuple, options: tuple, x: sp.Symbol, lo: sp.Expr, hi: sp.Expr,
                          digits: int) -> arb | None:
    """∫_lo^hi with each infinite tail the route in x cannot bound integrated in y = e^{±κ(x − m)} ∈ [1, ∞) instead
    (x = m ± (log y)/κ, Jacobian 1/(κy) included; m = 0 on the whole line, else the finite end), the rest in x;
    None where not certified.

    A Gumbel law's log density −(x − μ)/β − e^{−(x − μ)/β} has the tail e^{−c·e^{|x|/β}} towards −∞, a shape
    the tail bounds do not read in x; in y = e^{−x} it is e^{−c·y^{1/β}}·y^{k}, a power tail they do.  Each log of
    the new integrand and of its bounds must have an argument positive for y > 1, as for the reciprocal route."""
    y = sp.Dummy("y", positive=True)
    m = sp.S.Zero if lo is -sp.oo and hi is sp.oo else (lo if lo is not -sp.oo else hi)
    # y = e^{±κ(x − m)} with κ the slowest rate of the exponentials: each becomes a power y^r with |r| ≥ 1
    # (e^{−x/2} of a Gumbel law of scale 2 is y itself), the powers the tail bounds read.
    rates = {abs(sp.expand(g.args[0]).coeff(x)) for e in integrand[1:] for g in e.atoms(sp.exp) if x in g.free_symbols}
    if not all(r.is_Rational and r > 0 for r in rates):
        return None
    kappa = min(rates)
    total = arb(0)
    for a, b, side in ((lo, m, -1), (m, hi, 1)):
        if a == b:
            continue
        # in x first where the piece was split at m (on a half-line piece the caller just tried it whole)
        part = _integrated(integrand, options, x, a, b, digits) if (a, b) != (lo, hi) else None
        if part is None and (a is -sp.oo or b is sp.oo):
            def move(e, side=side):
                moved = sp.expand(sp.expand(e.xreplace({x: m + side * sp.log(y) / kappa})), power_exp=True)
                return moved - sp.log(y) - sp.log(kappa)
            found = _moved(integrand, options, move, y, sp.S.One, sp.oo)
            if found is not None and not any(x in e.free_symbols for e in found[0][1:]):
                part = _integrated(*found, y, sp.S.One, sp.oo, digits)
        if part is None:
            return None
        total += part
    return total


def _positive_on(g: sp.Expr, x: sp.Symbol, lo: sp.Expr, hi: sp.Expr) -> bool:
    """Whether g > 0 on the open interval (lo, hi), decided exactly (False when undecided).

    A constant by its sign; a polynomial with numeric coefficients by Sturm's count of its real
    roots there (none inside) and its sign at one inside point; anything else only when SymPy
    knows it positive for every real x (e^x, x² + 1), or, on a piece of (0, ∞), for every positive x
    (1 + x^{5/2}: a log-logistic law's, not real for x < 0)."""
    if x not in g.free_symbols:
        return g.is_positive is True or _certified_positive(g)
    if g.is_positive is True:
        return True
    if lo.is_nonnegative is True and g.xreplace({x: sp.Dummy("x", positive=True)}).is_positive is True:
        return True
    try:
        poly = sp.Poly(g, x)
    except sp.PolynomialError:
        return False
    if not all(c.is_Rational for c in poly.all_coeffs()):
        return False
    inside_lo = None if lo is -sp.oo else lo
    inside_hi = None if hi is sp.oo else hi
    if any(e is not None and not e.is_Rational for e in (inside_lo, inside_hi)):
        return False
    roots = poly.count_roots(inside_lo, inside_hi)  # on the closed interval: roots at its ends do not count
    roots -= sum(1 for e in (inside_lo, inside_hi) if e is not None and poly.eval(e) == 0)
    if roots:
        return False
    inside = (lo + hi) / 2 if inside_lo is not None and inside_hi is not None else (
        inside_lo + 1 if inside_lo is not None else (inside_hi - 1 if inside_hi is not None else sp.S.Zero))
    return bool(poly.eval(inside) > 0)


def _certified_positive(c: sp.Expr) -> bool:
    """Whether the constant ``c`` is certified > 0 by its Arb ball (₀F₁(; 1; 9/16), the hypergeometric form of a von
    Mises law's I₀(κ), whose sign SymPy does not know)."""
    try:
        return bool(to_arb(c) > 0)
    except (NotCertifiable, ArithmeticError):
        return False


def _log_vanishes_at_an_end(r: sp.Expr, x: sp.Symbol, lo: sp.Expr, hi: sp.Expr) -> bool:
    """Whether some log(g) in r has g = 0 at a finite end of the piece."""
    return any(end not in (sp.oo, -sp.oo) and sp.expand(g.args[0].subs(x, end)) == 0
               for g in r.atoms(sp.log) for end in (lo, hi))


def _piece_integral(f: Compiled, bounds: tuple, x: sp.Symbol, lo: sp.Expr, hi: sp.Expr, digits: int,
                    L: sp.Expr | None = None, far: dict[int, Callable[[], Compiled]] | None = None) -> arb | None:
    """∫_lo^hi f as a real ball, or None.  At an infinite end the range is cut at T and the tail,
    where |f| ≤ Σ e^B over ``bounds``, added as a ball [−Σ, Σ] (see
    :func:`~rdpsym.derive.certified_ends._tail_cut`).  At a finite end where f = e^L has a non-integer
    power of the distance to the end (``L`` given), a segment is cut off with a bound of its integral
    (:func:`~rdpsym.derive.certified_ends._end_cut`); without ``L`` (P·log(P/Q)), where every e^B of
    ``bounds`` has such a power, the segment is cut where the nearest of their cuts is, with the sum of
    their bounds (|f| ≤ Σ e^B there too)."""
    tail = arb(0)
    lo0, hi0 = lo, hi  # (the ends as SymPy numbers, for the tail cuts)
    for end, inward in ((lo, 1), (hi, -1)):
        if end in (sp.oo, -sp.oo):
            continue
        if L is not None:
            cut = _end_cut(L, x, end, inward, (lo0, hi0), digits)
            if cut is None:
                return None
        else:  # (a gamma pair's P·r near 0, integrated in x, ran to Arb's limit of 40 000 evaluations)
            cuts = [_end_cut(B, x, end, inward, (lo0, hi0), digits) for B in bounds]
            if any(c is None or c is True for c in cuts):
                continue  # integrated up to the end, as it is
            nearest = min((c[0] for c in cuts), key=lambda m: inward * m.mid())
            cut = (nearest, sum((c[1] for c in cuts), arb(0)))
        if cut is not True:
            moved, bound = cut
            lo, hi = (moved, hi) if inward == 1 else (lo, moved)
            tail += bound
    if hi is sp.oo:
        start = lo0 if lo0 is not -sp.oo else sp.S.Zero
        cuts = [_tail_cut(B, x, start, digits) for B in bounds]
        if None in cuts:
            return None
        b = max((T for T, _ in cuts), key=lambda T: T.mid())
        tail += sum((_tail_at(B, x, b) for B in bounds), arb(0))
    else:
        b = hi if isinstance(hi, arb) else to_arb(hi)
    if lo is -sp.oo:
        start = -hi0 if hi0 is not sp.oo else sp.S.Zero
        reflected = [B.xreplace({x: -x}) for B in bounds]
        cuts = [_tail_cut(B, x, start, digits) for B in reflected]
        if None in cuts:
            return None
        T = max((T for T, _ in cuts), key=lambda T: T.mid())
        a = -T
        tail += sum((_tail_at(B, x, T) for B in reflected), arb(0))
    else:
        a = lo if isinstance(lo, arb) else to_arb(lo)
    if not a < b:
        return None
    # A far cut (a power-law tail: T ≈ 10^60) is reached in u = log|x| over the part beyond |x| = 2^8:
    # ∫ f(x) dx = ∫ f(±e^u)·e^u du, where the tail decays like e^{(K+1)u}, not like x^K.
    # In an infinite tail the integrand is the one built in u itself (_far_form); towards a far finite end, f at
    # ±e^u (a factor of L may vanish there, where its power, not its log, is holomorphic).
    parts = []
    near = arb(2) ** 8
    if b > near and b > 2 ** 16 * a.max(near):
        cut = a.max(near)
        g = far[1]() if far and 1 in far else None  # (``far`` has a side only where that end is infinite)
        parts.append((g or (lambda w, analytic: f(w.exp(), analytic) * w.exp()), cut.log(), b.log()))
        b = cut
    if a < -near and a < 2 ** 16 * b.min(-near):
        cut = b.min(-near)
        g = far[-1]() if far and -1 in far else None
        parts.append((g or (lambda w, analytic: f(-w.exp(), analytic) * w.exp()), (-cut).log(), (-a).log()))
        a = cut
    parts.append((f, a, b))
    total = arb(0)
    for g, left, right in reversed(parts):  # the part near the origin first: where a piece fails, mostly
        def integrand(z, analytic, g=g):
            try:
                return g(z, analytic)
            except (ZeroDivisionError, ValueError, ArithmeticError):
                return _NaN

        result = acb_integral(integrand, left, right, eval_limit=_EVAL_LIMIT, depth_limit=_DEPTH_LIMIT)
        if not result.is_finite() or not result.imag.contains(0):
            return None
        total += result.real
    return total + arb(0, tail.upper()) if tail != 0 else total
