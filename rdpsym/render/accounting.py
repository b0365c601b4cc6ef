"""Accounting results as text, LaTeX, Markdown and JSON (peer audits and verifications: :mod:`rdpsym.render.peers`).

Every number shown is the certified one: the value at the digits asked for
(rounded up), the bound to publish (rounded up again), and the enclosure's
ends rounded outward (:func:`~rdpsym.foundations.balls.lower_decimal`,
:func:`~rdpsym.foundations.balls.upper_decimal`).
"""

from __future__ import annotations

import math

from rdpsym.accounting.api import NO_ORDER, AccountingResult
from rdpsym.accounting.components import Infinite
from rdpsym.foundations.balls import bits_for, lower_decimal, precision, upper_decimal
from rdpsym.render.values import decimal_latex, number_latex

__all__ = ["result_json", "result_latex", "result_markdown", "result_text", "shown"]


def shown(x: object) -> str:
    """An order or a given value as a reader writes it (``inf``, ``11/10``)."""
    if x is None:
        return "none"
    if x == math.inf:
        return "inf"
    return str(x)


def _ball_or_reason(v: object, dps: int) -> str:
    if isinstance(v, Infinite):
        return f"inf ({v.reason})"
    if v == math.inf:
        return "inf"
    return upper_decimal(v, dps)


def _names(r: AccountingResult) -> tuple[str, str]:
    """(the quantity computed, the one given) as Greek letters."""
    return ("ε", "δ") if r.kind == "epsilon" else ("δ", "ε")


def result_text(r: AccountingResult, certified: bool = True) -> str:
    """What ``rdpsym epsilon`` prints: the value, where it comes from, the bound to publish, the enclosure."""
    name, other = _names(r)
    given = f"{other} = {shown(r.given)}"
    if r.enclosure == math.inf:
        # (not "every order is infinite": with tv-kl the RDP is finite and the conversion gives nothing; a probe)
        lines = [f"{name} = inf  ({given}): no order gives a finite bound"]
        lines += [f"  order {shown(o.order)}: {o.reason}" for o in r.per_order]
        return "\n".join(lines)
    lines = [f"{name} = {r.value}",
             f"  {_where(r)}, {given}, conversion {r.conversion}, {r.dps} digits (rounded up)",
             f"  publish: {name} ≤ {r.published(6)}"]
    if certified:
        low, high = _enclosure(r)
        what = "certified enclosure (Arb balls)" if r.certified else f"enclosure ({_NOT_CERTIFIED})"
        lines.append(f"  {what}: [{low}, {high}]")
    lines += [f"  note: {n}" for n in r.notes]
    return "\n".join(lines)


#: Why a result is not certified: a curve's closed form checked against the definition but not proved (or cited),
#: or values by quadrature (the text said "quadrature" for a checked closed form evaluated in balls; a review).
_NOT_CERTIFIED = "NOT certified: a closed form checked numerically, not proved, or a value by quadrature"


def _where(r: AccountingResult) -> str:
    """Where a finite value comes from: an order, an exact (ε, δ) curve (no order: Balle–Wang's), or no order at all
    (δ = 1 where every order's RDP is ∞)."""
    if r.order is None:
        return "at no order" if r.conversion == NO_ORDER else "from the exact (ε, δ) curve"
    return f"at order {shown(r.order)}"


def result_latex(r: AccountingResult) -> str:
    """The guarantee as display math: ``(\\varepsilon, \\delta)`` with the published, upward-rounded value."""
    name, other = (r"\varepsilon", r"\delta") if r.kind == "epsilon" else (r"\delta", r"\varepsilon")
    # (every number as math: "2.66E-86" reads as 2.66·E − 86 there, and δ = 10⁻³⁰⁰ as a fraction of 301 digits ran
    # past the margin; a review)
    value = r"\infty" if r.enclosure == math.inf else decimal_latex(r.published(min(r.dps, 12)))
    order = "" if r.order is None else r"\infty" if r.order == math.inf else number_latex(r.order)
    at = rf" \quad (\alpha = {order})" if order else ""
    # (an uncertified bound was shown exactly as a certified one; a review)
    unsure = "" if r.certified or r.enclosure == math.inf else r" \quad \text{(not certified)}"
    return rf"$\displaystyle {name} \le {value} \quad \text{{at }} {other} = {number_latex(r.given)}{at}{unsure}$"


def result_markdown(r: AccountingResult) -> str:
    """The result for Jupyter: the published bound as math, then the full value and its enclosure."""
    lines = [result_latex(r), ""]
    if r.enclosure != math.inf:
        low, high = _enclosure(r)
        lines += [f"- value ({r.dps} digits, rounded up): `{r.value}`",
                  f"- {'certified enclosure' if r.certified else f'enclosure ({_NOT_CERTIFIED})'}: [`{low}`, `{high}`]",
                  f"- conversion: {r.conversion}"]
    lines += [f"- note: {n}" for n in r.notes]
    return "\n".join(lines)


def result_json(r: AccountingResult) -> dict:
    """JSON-ready data: every number an exact decimal string, the enclosure's ends rounded outward."""
    with precision(bits_for(r.dps + 10)):
        return {
            r.kind: "inf" if r.enclosure == math.inf else str(r.value),
            "published": r.published(),
            "order": shown(r.order),
            "enclosure": None if r.enclosure == math.inf else list(_enclosure(r)),
            "certified": r.certified,
            "conversion": r.conversion,
            ("delta" if r.kind == "epsilon" else "epsilon"): shown(r.given),
            "dps": r.dps,
            "gap_to_infimum": None if r.gap is None else upper_decimal(r.gap, 6),
            "per_order": [{"order": shown(o.order), "rdp": _ball_or_reason(o.rdp, r.dps),
                           r.kind: _ball_or_reason(o.bound, r.dps), "reason": o.reason}
                          for o in r.per_order],
            "notes": list(r.notes),
        }


def _enclosure(r: AccountingResult) -> tuple[str, str]:
    """The enclosure's ends at the result's digits, rounded outward (so the printed interval contains it)."""
    with precision(bits_for(r.dps + 10)):
        return lower_decimal(r.enclosure, r.dps), upper_decimal(r.enclosure, r.dps)
