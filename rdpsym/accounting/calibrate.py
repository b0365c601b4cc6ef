"""Calibration: the smallest noise (or the most steps, or the largest sampling rate) that meets a target (ε, δ).

:func:`calibrate` searches a monotone parameter of a family of RDP curves — a built-in mechanism by name (DP-SGD's
``"sampled-gaussian"``, ``"gaussian"``, ``"laplace"``, …) with the other parameters fixed, or any function ``x ↦ curve``
— and returns a :class:`Calibration` with a certificate on both sides:

* the **value** returned meets the target: its ε at δ, through the same accounting as ``rdpsym.epsilon``
  (orders, conversion), is certified ≤ the target ε (the upper end of an Arb ball, rounded up);
* the other end of the **bracket** does not: its certified ε is > the target.  When ε is monotone in the parameter (a
  fact for every built-in parameter listed in :data:`DIRECTIONS`; stated by the caller otherwise), the optimum lies
  between the two, so the value is within ``relative_gap`` of it.

The search needs no float accountant and never trusts one: every comparison with the target is decided by certified
balls (``rdpsym.epsilon``'s enclosure), and a point they cannot place (ε within 10^−dps of the target) is neither
feasible nor infeasible.  The value returned is the shortest decimal in the bracket's feasible part that the balls
certify (σ = 1.0938 rather than 1.09374551…).

Peers compared in ``tests/test_calibrate.py`` and ``benchmarks/bench_calibrate.py``: Opacus's ``get_noise_multiplier``
(bisection on its float RDP accountant, ``epsilon_tolerance`` 0.01 by default) and dp_accounting's
``calibrate_dp_mechanism`` (Brent's method on its float accountant, tol 10⁻⁶).

A family given as a function (here the Gaussian's curve α/(2σ²), as ρ-zCDP with ρ = 1/(2σ²)) states its direction; the
result says the distance to the optimum rests on it:

>>> import rdpsym
>>> c = rdpsym.calibrate(lambda s: rdpsym.zcdp(rho=1 / (2 * s**2)), epsilon=1, delta=1e-5, direction="decreasing",
...                      bounds=(0.1, 100), dps=20)
>>> c.published(6), c.bracket[0] < c.value, c.epsilon.enclosure.upper() <= 1, c.monotone
('4.04537', True, True, False)
"""

from __future__ import annotations

import contextvars
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

import sympy as sp
from flint import arb, fmpq

from rdpsym.accounting import api
from rdpsym.accounting.curve import RdpCurve
from rdpsym.accounting.grid_balls import grid_balls
from rdpsym.accounting.orders import resolve
from rdpsym.foundations import operations
from rdpsym.foundations.balls import bits_for, floor_log10, precision
from rdpsym.foundations.errors import ParameterError, must
from rdpsym.foundations.reading import dps as read_dps
from rdpsym.foundations.reading import exact, integer, rational
from rdpsym.laws.mechanisms import REGISTRY

__all__ = ["DIRECTIONS", "Calibration", "calibrate", "noise_parameter"]

#: How ε moves when a built-in parameter grows, and why (a parameter not listed needs ``direction=``).
DIRECTIONS = {
    "sigma": ("decreasing", "each order's RDP decreases in σ: α/(2σ²) for the Gaussian (Mironov 2017, Prop 7); "
                            "for the subsampled Gaussian the pair N(0,σ²), N(1,σ²) is a post-processing of the "
                            "pair at a smaller σ (add noise), so every D_α decreases"),
    "scale": ("decreasing", "Laplace: D_α depends on Δ/b and grows with it (Mironov 2017, Prop 6)"),
    "q": ("increasing", "A_α(q) = E[(1 + q(L − 1))^α] is convex in q with derivative 0 at q = 0 (E[L] = 1), so "
                        "it increases (Mironov–Talwar–Zhang 2019's A_α)"),
    "steps": ("increasing", "composition adds k copies of the curve (Mironov 2017, Prop 1)"),
    "epsilon": ("increasing", "a pure-DP (or exponential-mechanism) curve increases with its ε"),
    "rho": ("increasing", "zCDP: ε(α) = ξ + ρα"),
}

#: Where a built-in parameter is searched when no ``bounds`` are given.
DEFAULT_BOUNDS = {
    "sigma": (Fraction(1, 1000), Fraction(10**6)), "scale": (Fraction(1, 1000), Fraction(10**6)),
    "q": (Fraction(1, 10**9), Fraction(1)), "steps": (1, 10**12),
    "epsilon": (Fraction(1, 10**9), Fraction(10**3)), "rho": (Fraction(1, 10**12), Fraction(10**3)),
}


@dataclass(frozen=True)
class Calibration:
    """The result of :func:`calibrate`: a value meeting the target, certified, and how close it is to the optimum.

    ``value`` (an exact ``Fraction``, an ``int`` for steps) meets the target: ``epsilon`` is its certified
    accounting result (``epsilon.enclosure.upper() ≤ target_epsilon``).  ``bracket`` is (the last value found
    not to meet it, ``value``) in the parameter's order of search, and ``beyond`` the certified result there
    (``beyond.enclosure.lower() > target_epsilon``); None with ``bracket[0]`` None when the search bound
    itself meets the target (then ``value`` is that bound).  ``relative_gap`` = |value − bracket[0]|/|value|
    bounds the distance to the optimum when ε is ``monotone`` in the parameter (the reason is in ``notes``).
    A record: compares by value and pickles.
    """

    parameter: str
    value: object
    bracket: tuple
    epsilon: api.AccountingResult
    beyond: api.AccountingResult | None
    target_epsilon: Fraction
    delta: Fraction
    direction: str
    monotone: bool
    relative_gap: Fraction | None
    evaluations: int
    notes: tuple = field(default_factory=tuple)
    rounded: Fraction | int | None = None
    rounded_epsilon: api.AccountingResult | None = None

    @property
    def certified(self) -> bool:
        """Whether the value's ε is certified (Arb balls throughout; quadrature-only curves are not)."""
        return self.epsilon.certified

    def published(self, digits: int = 6) -> str:
        """The value as a decimal of at most ``digits`` significant digits on the safe side (σ up, steps or q down).

        At 6 digits (:attr:`rounded`) it is certified too (:attr:`rounded_epsilon`); at other digits it is only as
        safe as monotonicity makes it."""
        return _decimal_text(_safe(self.value, self.direction, digits))

    def as_dict(self) -> dict:
        return operations.json(self)

    def __str__(self) -> str:
        return operations.text(self)

    def __repr__(self) -> str:
        """One line: the value published on the safe side, its certified ε and the target (the search, the
        bracket and the notes: ``str()`` and the fields).  The full record printed 77 000 characters."""
        return (f"Calibration({self.parameter} = {self.published(6)}, ε ≤ {self.epsilon.published(6)} ≤ "
                f"{self.target_epsilon} at δ = {self.delta}, {'certified' if self.certified else 'not certified'}, "
                f"{self.evaluations} evaluations)")


def _safe(value, direction: str, digits: int):
    """``value`` rounded to ``digits`` significant digits towards the side that meets the target."""
    if isinstance(value, int):
        return value
    v = Fraction(value)
    if v == 0:
        return v
    k = digits - 1 - floor_log10(abs(v))  # exact: no float (10^±400 neither underflows nor misplaces a digit)
    scaled = v * Fraction(10) ** k
    n = math.ceil(scaled) if direction == "decreasing" else math.floor(scaled)
    return Fraction(n) / Fraction(10) ** k


def _decimal_text(v) -> str:
    """A decimal fraction (denominator 2^a·5^b, as :func:`_safe` makes) written exactly: 1.09375, 0.004857."""
    v = Fraction(v)
    if v.denominator == 1:
        return str(v.numerator)
    d = v.denominator
    twos = (d & -d).bit_length() - 1
    rest, fives = d >> twos, 0
    while rest % 5 == 0:
        rest, fives = rest // 5, fives + 1
    # The decimals a decimal fraction needs (a σ of 7.07107·10^-201 has 206 of them: never cut short, which
    # printed it as 0); a fraction that is not decimal is cut at 80, as before.
    k = max(twos, fives) if rest == 1 else 80
    n = v.numerator * 10**k // v.denominator
    digits = str(abs(n)).rjust(k + 1, "0")
    return ("-" if n < 0 else "") + f"{digits[:-k]}.{digits[-k:]}"


def _fraction(x: object, name: str) -> Fraction:
    q = rational(x, name)
    return Fraction(int(q.p), int(q.q))


def noise_parameter(family: str) -> str | None:
    """The parameter a built-in is calibrated in by default: its noise (σ, the scale), else its budget (ε, ρ).

    >>> noise_parameter("laplace"), noise_parameter("sampled-gaussian"), noise_parameter("zcdp")
    ('scale', 'sigma', 'rho')
    """
    names = [p.name for p in REGISTRY[family].parameters]
    return next((n for n in ("sigma", "scale", "epsilon", "rho") if n in names), None)


def _family(family: object, parameter: str | None, fixed: dict, steps: int) -> tuple[Callable[[object], RdpCurve], str]:
    """(x ↦ curve, the parameter's canonical name): for a built-in by name, or the caller's function."""
    if isinstance(family, str):
        if family not in REGISTRY:
            raise ParameterError(must("family", "a built-in mechanism (" + ", ".join(sorted(REGISTRY)) + ") or a "
                                      "function of the parameter", repr(family)))
        declared = REGISTRY[family]
        names = {p.name: p.name for p in declared.parameters}
        names.update({a: p.name for p in declared.parameters for a in p.aliases})
        # (by default its noise: "sigma" was the default for every family, and calibrate("laplace", …) was refused
        # for a parameter the caller had not named: a probe)
        parameter = noise_parameter(family) if parameter is None else parameter
        if parameter is None or (parameter != "steps" and parameter not in names):
            raise ParameterError(must("parameter", "one of " + ", ".join([*names, "steps"]) + f" for {family}",
                                      "none" if parameter is None else repr(parameter)))
        canonical = "steps" if parameter == "steps" else names[parameter]
        others = {}
        for key, value in fixed.items():
            if key not in names:
                raise ParameterError(must("fixed", f"parameters of {family} (" + ", ".join(names) + ")", repr(key)))
            others[names[key]] = exact(value, key)
        missing = declared.missing(others, canonical)
        if missing:
            raise ParameterError(must("fixed", f"a value for {', '.join(missing)} ({family})", "none"))
        if canonical in others:
            raise ParameterError(must("fixed", f"free of {canonical}, the parameter being calibrated", "it is set"))
        if canonical == "steps" and steps != 1:  # (it was dropped without a word: steps = 7 either way; a review)
            raise ParameterError(must("steps", "1 (left out) when the steps are what is calibrated", steps))

        def make(x):
            if canonical == "steps":
                return declared.factory(**others).curve() * int(x)
            return declared.factory(**{**others, canonical: _sym(x)}).curve() * steps

        return make, canonical
    if not callable(family):
        raise ParameterError(must("family", "a built-in mechanism's name or a function of the parameter",
                                  type(family).__name__))
    if fixed:
        raise ParameterError(must("fixed", "empty for a function family (fix them inside the function)", fixed))

    def make_user(x):
        c = family(x)
        if hasattr(c, "curve") and not isinstance(c, RdpCurve):
            c = c.curve()
        if not isinstance(c, RdpCurve):
            raise ParameterError(must("family(x)", "an RdpCurve, a Mechanism or a Guarantee", type(c).__name__))
        return c * steps if steps != 1 else c

    return make_user, parameter or "sigma"  # (a function's parameter is σ unless named: its default bounds)


def _sym(x):
    if isinstance(x, int):
        return sp.Integer(x)
    return sp.Rational(x.numerator, x.denominator)


#: The certified ε already computed for the calibrations of one grid, (x, dps) → result
#: (:func:`rdpsym.accounting.calibration_grid.calibrate_many`).  Set only while a grid's targets are calibrated
#: one after another, all with the same family, fixed parameters, steps, δ, orders and conversion, so that a
#: point one target's search certified places the others' brackets too (a context variable: each task of a
#: pool or a thread has its own).
_GRID_POINTS: contextvars.ContextVar[dict | None] = contextvars.ContextVar("rdpsym_calibration_grid", default=None)


class _Search:
    """ε at a parameter value, certified and counted; for steps, the per-step balls are computed once.  Within
    a grid (:data:`_GRID_POINTS`) a point certified for an earlier target is read back, not computed."""

    def __init__(self, make, canonical, delta, orders, conversion, dps):
        self.make, self.canonical, self.delta = make, canonical, delta
        self.orders, self.conversion, self.dps = orders, conversion, dps
        self.evaluations = 0
        self._base = None
        shared = _GRID_POINTS.get()
        self.points: dict = shared if shared is not None else {}

    def __call__(self, x, dps: int | None = None) -> api.AccountingResult:
        dps = dps or self.dps
        known = self.points.get((x, dps))
        if known is not None:
            return known
        self.evaluations += 1
        if self.canonical == "steps" and not (isinstance(self.orders, str) and self.orders == "continuous"):
            result = self._steps(int(x), dps)
        else:
            result = api.epsilon(self.make(x), delta=self.delta, orders=self.orders, conversion=self.conversion,
                                 dps=dps)
        self.points[(x, dps)] = result
        return result

    def known(self, target: Fraction, bad_end, good_end) -> tuple:
        """The tightest bracket of ``target`` among the points certified so far at the search's digits:
        (good, bad), each ``(x, log ε, result)`` or None."""
        good = bad = None
        for (x, dps), result in self.points.items():
            if dps != self.dps:
                continue
            verdict = _decide(result, target)
            if verdict is True and (good is None or _closer(x, good[0], bad_end)):
                good = (x, _log(result), result)
            elif verdict is False and (bad is None or _closer(x, bad[0], good_end)):
                bad = (x, _log(result), result)
        return good, bad

    def _steps(self, k: int, dps: int) -> api.AccountingResult:  # one step's balls × k (Prop 1): one evaluation
        if self._base is None or self._base[0] < dps:
            one, grid = self.make(1), resolve(self.orders, continuous=False)
            self._base = (dps, one, grid, grid_balls(one, grid, self.orders is None, dps + 8))
        _, one, grid, balls = self._base
        with precision(bits_for(dps + 8) + k.bit_length()):  # (at 53 bits, 40 digits printed were right to 16)
            composed = [b if not isinstance(b, arb) else b * k for b in balls]
        return api.epsilon_from_balls(one * k, grid, composed, self.delta, self.conversion, dps,
                                      exact_profile=self.orders is None)


def _decide(result: api.AccountingResult, target: Fraction) -> bool | None:
    """True: certainly ε ≤ target (the upper end of ε's ball); False: certainly ε > target; None: the balls cannot
    tell (a ball that straddles the target, or one that is not finite).  Decided in balls at a precision that holds
    ε's ball and the target, whatever their magnitudes: never through a float."""
    e = result.enclosure
    if not isinstance(e, arb):  # math.inf: every order gives ∞
        return False
    if e.is_nan():
        return None
    mid_bits = abs(int(e.mid().man_exp()[0])).bit_length() if e.is_finite() else 0
    bits = max(bits_for(result.dps + 10), mid_bits + 64,
               target.numerator.bit_length() + target.denominator.bit_length() + 64)
    with precision(bits):
        t = arb(fmpq(target.numerator, target.denominator))
        if e.upper() <= t:
            return True
        if e.lower() > t:
            return False
    return None


def calibrate(family: object, epsilon: object, delta: object, *, parameter: str | None = None,
              fixed: dict | None = None, steps: object = 1, direction: str | None = None, bounds: tuple | None = None,
              tolerance: object = Fraction(1, 10**6), orders: object = None, conversion: str = api.DEFAULT_CONVERSION,
              dps: object = 30) -> Calibration:
    """The value of ``parameter`` closest to the optimum that meets (ε, δ), certified on both sides.

    ``family``: a built-in mechanism's name (``"sampled-gaussian"``, ``"gaussian"``, …) with the other
    parameters in ``fixed`` (``{"q": 256/60000}``), composed ``steps`` times; or a function ``x ↦`` curve,
    Mechanism or Guarantee (then give ``direction``).  ``parameter``: the built-in's parameter to solve for
    (by default its noise, σ or the scale, else its budget, ε or ρ: :func:`noise_parameter`), or ``"steps"`` (the
    most steps).  ``direction``: ``"decreasing"`` (ε falls as the parameter grows: noise;
    the smallest value is sought) or ``"increasing"`` (the largest value is sought); for built-ins it comes
    from :data:`DIRECTIONS`.  ``bounds``: the range searched (default :data:`DEFAULT_BOUNDS`).
    ``tolerance``: relative width of the final bracket (steps are exact).  ``orders``, ``conversion``: as
    ``rdpsym.epsilon`` (the default is its best certified conversion; ``"bbghs"`` to match a peer's);
    ``dps``: the digits of the certified ε reported.

    >>> import rdpsym
    >>> c = rdpsym.calibrate("sampled-gaussian", epsilon=3, delta=1e-5, fixed={"q": "256/60000"}, steps=14062,
    ...                      dps=15)
    >>> c.published(6), float(c.relative_gap) < 1e-6, c.monotone, c.epsilon.conversion
    ('1.014', True, True, 'optimal')
    >>> c.epsilon.enclosure.upper() <= 3 < c.beyond.enclosure.lower()     # certified on both sides
    True
    """
    target, d = _fraction(epsilon, "epsilon"), _fraction(delta, "delta")
    if not target > 0:
        raise ParameterError(must("epsilon", "a number > 0", epsilon))
    if not 0 < d < 1:
        raise ParameterError(must("delta", "in the open interval (0, 1)", delta))
    dps = read_dps(dps, "dps")
    tol = _fraction(tolerance, "tolerance")
    if not 0 < tol < 1:
        raise ParameterError(must("tolerance", "in (0, 1) (the bracket's relative width)", tolerance))
    api.conversion_name(conversion)
    if not (isinstance(orders, str) and orders == "continuous"):
        resolve(orders)
    k = integer(steps, "steps", minimum=1)
    make, canonical = _family(family, parameter, dict(fixed or {}), k)
    known = DIRECTIONS.get(canonical) if isinstance(family, str) else None
    if direction is None:
        if known is None:
            valid = ("'decreasing' or 'increasing' (how ε moves as the parameter grows); the parameters solved "
                     f"without one: {', '.join(DIRECTIONS)}")
            raise ParameterError(must(f"direction (solving {canonical})", valid, "none"))
        direction = known[0]
    if direction not in ("decreasing", "increasing") or (known is not None and direction != known[0]):
        valid = f"{known[0]!r} for {canonical} ({known[1]})" if known else "'decreasing' or 'increasing'"
        raise ParameterError(must("direction", valid, repr(direction)))  # (σ "increasing" was taken; a review)
    monotone = known is not None and known[0] == direction
    lo, hi = _bounds(bounds, canonical, family)
    for i, end in enumerate((lo, hi)):  # (bounds of (−1, 10) were taken, and a search that reached −3 named σ = −3)
        try:
            make(end)
        except ParameterError as exc:
            if end == 0:
                continue  # the open end of a positive parameter: the search moves towards it by factors, never onto it
            if bounds is None:  # the default range: what fails is a fixed parameter, which exc names (q = 2; a review)
                raise
            raise ParameterError(f"bounds[{i}] must be a value {canonical} can take; got {end}: {exc}") from None
    # (30 digits, or enough for the tolerance where the caller's digits allow: at 30, a tolerance of 10⁻⁴⁰ with
    # --dps 60 could not be reached, and the note blamed 30 digits)
    search = _Search(make, canonical, d, orders, conversion,
                     max(15, min(dps, max(30, -floor_log10(tol) + 8 if 0 < tol < 1 else 30))))
    value, other, other_result = _search(search, target, lo, hi, direction, tol, canonical == "steps")
    final = search(value, dps)
    if _decide(final, target) is not True:  # (too few digits for the tolerance: it meets the target at search.dps)
        raise ParameterError(must("dps", f"at least {search.dps} digits for tolerance {float(tol):.3g}", dps))
    gap = None if other is None else abs(Fraction(value) - Fraction(other)) / abs(Fraction(value))
    notes = []
    rounded, rounded_result = _safe(value, direction, 6), None
    if rounded == value:
        rounded_result = final
    elif lo <= rounded <= hi:
        rounded_result = search(rounded, dps)
        if _decide(rounded_result, target) is not True:
            notes.append(f"{canonical} = {_decimal_text(rounded)} (the value to 6 digits) is not certified to meet "
                         "the target: publish the exact value")
            rounded, rounded_result = None, None
    else:
        rounded = None
    if known is not None and monotone:
        notes.append(f"ε is {direction} in {canonical}: {known[1]}")
    elif not monotone:
        notes.append(f"ε is assumed {direction} in {parameter} (the caller's statement): the value meets the target "
                     "(certified), its distance to the optimum rests on that assumption")
    if other is None:
        notes.append(f"the search bound {value} itself meets the target: widen bounds to look further")
    elif gap is not None and gap > tol and canonical != "steps":
        # (the balls could not place a point inside the bracket: ε = 10⁻⁴⁰⁰ for a Laplace scale stopped at a
        # relative width of 0.63, reported as if the tolerance had been reached; a probe)
        notes.append(f"the bracket's relative width {float(gap):.3g} is above the tolerance {float(tol):.3g}: the "
                     f"certified ε could not tell the points inside it apart at {search.dps} digits (the value meets "
                     "the target; the optimum may be up to that much below it)")
    return Calibration(canonical, value, (other, value), final, other_result, target, d, direction, monotone, gap,
                       search.evaluations, tuple(notes), rounded, rounded_result)


def _bounds(bounds, canonical, family) -> tuple:
    if bounds is None:
        if canonical not in DEFAULT_BOUNDS:
            raise ParameterError(must("bounds", f"given for {canonical} (a (low, high) range to search)", "none"))
        return DEFAULT_BOUNDS[canonical]
    try:
        lo, hi = bounds
    except (TypeError, ValueError):
        raise ParameterError(must("bounds", "a pair (low, high)", repr(bounds))) from None
    if canonical == "steps":
        lo, hi = integer(lo, "bounds[0]", minimum=1), integer(hi, "bounds[1]", minimum=1)
    else:
        lo, hi = _fraction(lo, "bounds[0]"), _fraction(hi, "bounds[1]")
    if not lo < hi:
        raise ParameterError(must("bounds", "a pair with low < high", repr(bounds)))
    return lo, hi


def _search(search: _Search, target: Fraction, lo, hi, direction: str, tol: Fraction, discrete: bool):
    """(feasible value, infeasible neighbour or None, its result).

    Bracketing first: from a start inside [lo, hi], factors of 4 towards the side each certified verdict
    points to.  Then Illinois steps (regula falsi that halves a stale end's weight) on log ε against log x;
    only certified verdicts move the bracket, and a point the balls cannot place ends the search (the bracket
    is then as fine as the digits allow).  For an integer parameter the bracket ends at two neighbours.
    """
    good_end = hi if direction == "decreasing" else lo  # the end where ε is smallest
    bad_end = lo if direction == "decreasing" else hi
    good, bad = search.known(target, bad_end, good_end)  # (x, log ε, result): from a grid's earlier targets
    x = _start(lo, hi, search.canonical, discrete)
    if good is not None and bad is None:  # bracket onwards from the side a certified point already decides
        x = _towards(good[0], bad_end, 4, discrete)
    elif bad is not None and good is None:
        x = _towards(bad[0], good_end, 4, discrete)
    while good is None or bad is None:
        r = search(x)
        verdict = _decide(r, target)
        point = (x, _log(r), r)
        if verdict is True:
            good = point if good is None or _closer(x, good[0], bad_end) else good
            if bad is None:
                if x == bad_end:
                    return x, None, None
                x = _towards(x, bad_end, 4, discrete)
        elif verdict is False:
            bad = point if bad is None or _closer(x, bad[0], good_end) else bad
            if good is None:
                if x == good_end:
                    raise ParameterError(must("epsilon", f"reachable: even {search.canonical} = {good_end} gives "
                                              f"ε = {r.published(6)} at δ = {search.delta}", str(target)))
                x = _towards(x, good_end, 4, discrete)
        else:
            x = _towards(x, good_end, Fraction(1) + tol, discrete)  # within the balls of the target: step aside
    lt = _ln(target)
    side, fg, fb = 0, _good_side(good[1] - lt), bad[1] - lt
    for _ in range(400):
        gx, bx = good[0], bad[0]
        if (abs(gx - bx) <= 1) if discrete else (abs(gx - bx) <= tol * abs(gx)):
            break
        lg, lb = _ln(gx), _ln(bx)
        t = lg - fg * (lg - lb) / (fg - fb) if fg != fb else (lg + lb) / 2
        if not math.isfinite(t):  # (the interpolation only proposes a point: the balls decide it)
            t = (lg + lb) / 2
        if not discrete and abs(gx - bx) < abs(gx) * _FLOAT_WIDTH:
            # A bracket narrower than a float's spacing: the interpolation's points in log space are floats, and
            # kept 1/1024 off the ends the bracket hardly shrank (a tolerance of 10⁻⁴⁰ stopped at 1.6·10⁻¹⁶, a
            # probe): halved exactly from here.
            t = math.nan
        x = _inside(gx, bx, t, tol, discrete)
        r = search(x)
        verdict = _decide(r, target)
        if verdict is True:
            good, fg = (x, _log(r), r), _good_side(_log(r) - lt)
            if side == 1:
                fb /= 2
            side = 1
        elif verdict is False:
            bad, fb = (x, _log(r), r), _log(r) - lt
            if side == -1:
                fg /= 2
            side = -1
        else:
            break
    return good[0], bad[0], bad[2]


#: A bracket's relative width below which its points are halved exactly, not interpolated in floats.
_FLOAT_WIDTH = Fraction(1, 10**12)


def _start(lo, hi, canonical: str, discrete: bool):
    """Where the bracketing starts: 1 for noise scales (DP-SGD's σ lives near it), else the geometric middle."""
    if discrete:
        return max(lo, min(hi, math.isqrt(lo * hi)))
    if canonical in ("sigma", "scale") and lo < 1 < hi:
        return Fraction(1)
    if lo <= 0:
        return (lo + hi) / 2
    try:
        g = math.sqrt(float(lo) * float(hi))
    except OverflowError:
        g = math.inf
    x = Fraction(g) if 2.0**-1022 <= g < math.inf else _exp((_ln(lo) + _ln(hi)) / 2)  # (log space: no overflow)
    return min(max(x.limit_denominator(10**6), lo), hi)


def _towards(x, end, factor, discrete: bool):
    """x moved towards ``end`` by a factor (geometric), never past it; integers move by at least 1."""
    if discrete:
        step = math.ceil(x * factor) if end > x else math.floor(x / factor)
        step = max(step, x + 1) if end > x else min(step, x - 1)
        return min(step, end) if end > x else max(step, end)
    step = x * factor if end > x else x / factor
    return min(step, end) if end > x else max(step, end)


def _closer(x, y, end) -> bool:
    return abs(x - end) < abs(y - end)


def _inside(a, b, log_t: float, tol: Fraction, discrete: bool):
    """exp(log_t) as a short rational (or an integer) strictly inside (a, b), kept a little off both ends."""
    lo, hi = min(a, b), max(a, b)
    x = _exp(log_t) if math.isfinite(log_t) else Fraction(lo + hi) / 2
    if discrete:
        k = round(x)
        return min(max(k, lo + 1), hi - 1)
    margin = max((hi - lo) / 1024, tol * hi / 8) if (hi - lo) > tol * hi / 4 else (hi - lo) / 2
    x = min(max(x, lo + margin), hi - margin)
    # The digits of tol: trunc(−log10 tol) = −⌈log10 tol⌉, exactly (tol < 1e-308 does not underflow).
    digits = -floor_log10(tol) - (0 if _power_of_ten(tol) else 1)
    y = x.limit_denominator(10 ** max(8, digits + 6))
    return y if lo < y < hi else x


def _power_of_ten(v: Fraction) -> bool:
    k = floor_log10(v)
    return v == Fraction(10) ** k


#: log ε of a result at ε ≤ 0 (as before: the log of the least float), for the interpolation only.
_LOG_ZERO = -745.0


def _good_side(f: float) -> float:
    """log ε − log target at a point that meets the target, as the interpolation needs it: below 0.  A point at
    ε = 0 reads log ε as :data:`_LOG_ZERO`, which is above a target below e^{−745}: ε = 10⁻⁵⁰⁰ then had both ends
    of its bracket on one side, and ran 410 certified evaluations (90 s) to a bracket 62 % wide (a probe)."""
    return f if f <= 0 else _LOG_ZERO


def _log(r: api.AccountingResult) -> float:
    """log ε of a search point, for the interpolation's proposals only (never a verdict: :func:`_decide` makes
    those, in balls).  A float when ε is in float64's range, as before; otherwise read in log space from the
    ball (ε = 10^±600 gives ±1381.6, not ±inf or NaN); ±1e6 where ε is ∞ or not a finite ball."""
    e = r.enclosure
    if not isinstance(e, arb) or not e.is_finite():
        return 1e6
    v = float(r.value)
    if 0 < v < math.inf and v >= 2.0**-1022:
        return math.log(v)
    with precision(64):
        m = e.mid()
        return _LOG_ZERO if not m > 0 else float(m.log())


def _ln(x) -> float:
    """log of a positive number (a Fraction or an int of any size): a float, computed in log space when the
    number is outside float64's normal range."""
    try:
        v = float(x)
    except OverflowError:
        v = math.inf
    if 2.0**-1022 <= v < math.inf:
        return math.log(v)
    q = Fraction(x)
    with precision(64):
        return float(arb(fmpq(q.numerator, q.denominator)).log())


def _exp(t: float) -> Fraction:
    """e^t as an exact Fraction (a float's value where it is in float64's normal range, else a 64-bit dyadic
    from a ball: no overflow, no underflow to 0)."""
    if -708 < t < 709:
        return Fraction(math.exp(t))
    with precision(64):
        m, e = (int(v) for v in arb(t).exp().mid().man_exp())
    return Fraction(m) * Fraction(2) ** e
