"""Calibration results (:class:`~rdpsym.accounting.calibrate.Calibration`) as text and JSON.

The value is shown exactly and as a decimal rounded on the safe side; the two ends of the bracket with
their certified ε (rounded up for the feasible end, its enclosure's lower end for the other).
"""

from __future__ import annotations

import decimal
import math
from fractions import Fraction

from rdpsym.accounting.calibrate import Calibration
from rdpsym.foundations.balls import bits_for, lower_decimal, precision, upper_decimal
from rdpsym.render.accounting import result_json

__all__ = ["calibration_json", "calibration_text"]


def _exact(x) -> str:
    return "none" if x is None else str(x)


def _decimal(x, rounding: str = decimal.ROUND_HALF_EVEN, digits: int = 12) -> str:
    """12 significant digits, at any magnitude the reader allows (10^±1000: a float overflows past 1.8·10^308).

    >>> _decimal(Fraction(10) ** 500 / 3), _decimal(Fraction(1, 3))
    ('3.33333333333e+499', '0.333333333333')
    """
    if x is None:
        return "none"
    if isinstance(x, int):
        return str(x)
    f = Fraction(x)
    with decimal.localcontext() as ctx:
        ctx.prec, ctx.Emax, ctx.Emin, ctx.rounding = digits, 10**6, -(10**6), rounding
        d = decimal.Decimal(f.numerator) / decimal.Decimal(f.denominator)
    return f"{d:.{digits}g}"


def _short(x) -> str:
    """An exact target as it was given when short (1/100000), else 12 digits rounded up, so that "certified ε ≤ it"
    stays true as printed (ε = 10⁻⁵⁰⁰ printed 500 zeros twice).

    >>> _short(Fraction(1, 10**5)), _short(Fraction(1, 10**500)), _short(1 + Fraction(1, 10**45))
    ('1/100000', '1e-500', '1.00000000001')
    """
    return str(x) if len(str(x)) <= 40 else _decimal(x, decimal.ROUND_CEILING)


def _safe(c: Calibration, digits: int = 12) -> str:
    """The value to 12 digits, rounded towards the side that meets the target: up where ε falls as the parameter
    grows (noise), down where it rises (steps, a rate).  Rounded half-even, the Laplace scale for (1/2, 10⁻⁵) was
    printed 1.99992189071, below the exact 1.9999218907124… that is the least meeting it (a review)."""
    return _decimal(c.value, decimal.ROUND_CEILING if c.direction == "decreasing" else decimal.ROUND_FLOOR, digits)


def _ends(c: Calibration) -> tuple[str, str]:
    """(the value, the bracket's other end) to 12 digits or as many more as tell them apart, each rounded towards its
    own side of the target (a bracket 10⁻⁴⁰ wide was printed as one number twice; a review)."""
    away = decimal.ROUND_FLOOR if c.direction == "decreasing" else decimal.ROUND_CEILING
    for digits in range(12, 200):
        value, other = _safe(c, digits), _decimal(c.bracket[0], away, digits)
        if value != other:
            break
    return value, other


def calibration_text(c: Calibration) -> str:
    """What ``rdpsym calibrate`` prints."""
    r = c.epsilon
    side = "≥" if c.direction == "decreasing" else "≤"
    lines = [f"{c.parameter} = {_safe(c)}  (exactly {_exact(c.value)})"]
    if c.rounded is not None and c.rounded_epsilon is not None:
        lines.append(f"  publish {c.parameter} {side} {c.published(6)}: certified there too, ε ≤ "
                     f"{c.rounded_epsilon.published(12)}")
    target = _short(c.target_epsilon)
    shown = _within(r, c.target_epsilon)
    lines.append(f"  meets (ε, δ) = ({target}, {_short(c.delta)}): certified ε = {shown} ≤ {target} "
                 f"({'' if r.order is None else f'order {r.order}, '}conversion {r.conversion}, rounded up)")
    if c.beyond is not None:
        if c.beyond.enclosure == math.inf:  # no finite ε at that end (tv-kl, where the total variation exceeds δ)
            shown = "ε = ∞"
        else:
            shown = f"certified ε ≥ {_beyond(c.beyond.enclosure, c.beyond.dps, c.target_epsilon)}"
        value, other = _ends(c)
        lines.append(f"  {c.parameter} = {other} does not: {shown} > {_short(c.target_epsilon)}")
        low, high = sorted((value, other), key=lambda t: Fraction(decimal.Decimal(t)))
        lines.append(f"  bracket [{low}, {high}], relative width "
                     f"{float(c.relative_gap):.2g}{' (the optimum is inside)' if c.monotone else ''}")
    lines.append(f"  {c.evaluations} certified evaluations")
    lines += [f"  note: {n}" for n in c.notes]
    return "\n".join(lines)


#: How many digits past the result's own a bound is printed to, at most, to show it on its side of the target.
_MORE_DIGITS = 100


def _within(r, target: Fraction) -> str:
    """The certified ε of the value, rounded up to its digits or as many more as show it at most the target (the
    ball is decided below it): at a target of 1/3 it was printed 0.333…334 ≤ 1/3 (a review)."""
    for digits in range(r.dps, r.dps + _MORE_DIGITS):
        with precision(bits_for(digits + 10)):
            text = upper_decimal(r.enclosure, digits)
        if Fraction(decimal.Decimal(text)) <= target:
            return text
    return str(r.value)


def _beyond(enclosure, dps: int, target: Fraction) -> str:
    """The certified lower bound of an ε beyond the target, to 12 digits or as many more as show it above the target:
    "certified ε ≥ 1.00000000000 > 1" showed no excess at 12 digits (1.00000000000014; a probe), and at a target of
    1/3 and a tolerance of 10⁻⁴⁰, 0.333…3 (40 digits) > 1/3 none at ``dps`` + 10 either (a review)."""
    for digits in range(min(dps, 12), dps + _MORE_DIGITS):
        with precision(bits_for(digits + 10)):
            text = lower_decimal(enclosure, digits)
        if Fraction(decimal.Decimal(text)) > target:
            break
    return text


def calibration_json(c: Calibration) -> dict:
    """JSON-ready data: exact values as strings, the certified results at both ends."""
    with precision(bits_for(c.epsilon.dps + 10)):
        published = upper_decimal(c.epsilon.enclosure, 6)
    return {
        "parameter": c.parameter,
        "value": _exact(c.value),
        "value_decimal": _safe(c),
        "published": c.published(6),
        "bracket": [_exact(x) for x in c.bracket],
        "target_epsilon": str(c.target_epsilon),
        "delta": str(c.delta),
        "epsilon_published": published,
        "direction": c.direction,
        "monotone": c.monotone,
        "relative_gap": None if c.relative_gap is None else f"{float(c.relative_gap):.3g}",
        "evaluations": c.evaluations,
        "certified": c.certified,
        "result": result_json(c.epsilon),
        "beyond": None if c.beyond is None else result_json(c.beyond),
        "notes": list(c.notes),
    }
