"""Peer verifications and audits as text and JSON.

Every certified number is shown as its ball's ends rounded outward, or as a
decimal rounded up; a peer's numbers are shown as the floats they are
(``repr``), so a reader can paste them back.
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

from flint import arb, fmpq

from rdpsym.accounting.components import Infinite
from rdpsym.foundations.balls import bits_for, lower_decimal, precision, upper_decimal
from rdpsym.peers._reading import held_float
from rdpsym.peers.audit import TOLERANCE, AuditReport, Defect
from rdpsym.peers.verification import EpsilonCheck, OrderCheck, Verification

__all__ = ["audit_json", "audit_text", "verification_json", "verification_text"]

#: How each direction reads in a report.
_DIRECTION = {"exact": "exact", "above": "above (safe)", "below": "BELOW (unsafe)", "invalid": "INVALID",
              "valid (another conversion)": "valid (another conversion)", "bounds hold": "bounds hold",
              "not decided": "not decided (below a value that bounds from above only)"}


def _shown_direction(c: object) -> str:
    """A check's (or a defect's) direction as a report reads it: an answer below the certified value but certainly
    within float64 rounding is not flagged unsafe (its ``unsafe`` is decided in balls)."""
    if c.direction == "below" and not c.unsafe:
        return "below (float64 rounding only)"
    return _DIRECTION[c.direction]


def _order(order: object) -> str:
    """An order as a report writes it: a float's exact binary value (a peer's float order, :func:`rdpsym.verify`
    reads it so) as the float prints, with the exact value beside it; any other as the exact rational.

    >>> from flint import fmpq
    >>> _order(fmpq(2589569785738035, 140737488355328)), _order(fmpq(3, 2)), _order(math.inf)
    ('18.4 (the float64 18.39999999999999857891452847979962825775146484375)', '3/2', 'inf')
    """
    if order == math.inf:
        return "inf"
    held = held_float(Fraction(int(order.p), int(order.q))) if isinstance(order, fmpq) else None
    return str(order) if held is None else f"{held!r} (the float64 {Decimal(held)})"


def _certified(value: object, dps: int) -> str:
    """A certified value as ``[lower, upper]`` (its ends rounded outward), ``inf`` or ``inf (reason)``."""
    if isinstance(value, Infinite):
        return f"inf ({value.reason})"
    if value is None:
        return "none (not certified at this order)"
    if not isinstance(value, arb):
        return "inf"
    with precision(bits_for(dps + 10)):
        if value.rad() == 0:
            return upper_decimal(value, dps) if value.is_exact() else lower_decimal(value, dps)
        return f"[{lower_decimal(value, dps)}, {upper_decimal(value, dps)}]"


def _digits(dps: int) -> int:
    return min(dps, 20)


def _order_line(c: OrderCheck, dps: int) -> str:
    return (f"  α = {_order(c.order)}: peer {c.peer!r}, certified {_certified(c.certified, _digits(dps))}, "
            f"error {c.error:.3g} ({c.relative:.2g} relative), {_shown_direction(c)}: {c.cause}")


def _epsilon_lines(c: EpsilonCheck, dps: int) -> list[str]:
    return [f"ε at δ = {_order(c.delta)} ({c.conversion} over {c.over}, best order {_order(c.order)}):",
            f"  peer {c.peer!r}, certified {_certified(c.certified, _digits(dps))}, error {c.error:.3g} "
            f"({c.relative:.2g} relative), {_shown_direction(c)}",
            f"  cause: {c.cause}"]


def verification_text(v: Verification) -> str:
    """What ``rdpsym verify`` prints: the verdict, then every order and ε, each with its direction and cause."""
    lines = [f"{v.peer} on {v.told}: {v.verdict.upper()}"]
    if v.orders:
        worst = sorted(v.orders, key=lambda c: (c.safe, -c.relative))
        shown = worst[:20]
        lines.append(f"RDP at {len(v.orders)} orders ({sum(not c.safe for c in v.orders)} below the certified value"
                     f"{', the 20 worst shown' if len(worst) > 20 else ''}):")
        # ∞ last, by a key that never compares an exact order with a float (fmpq < inf is a TypeError)
        lines += [_order_line(c, v.dps) for c in sorted(shown, key=lambda c: (c.order == math.inf,
                                                                              0 if c.order == math.inf else c.order))]
    if v.epsilon is not None:
        lines += _epsilon_lines(v.epsilon, v.dps)
    lines += [f"note: {n}" for n in v.notes]
    return "\n".join(lines)


def _check_json(c: OrderCheck | EpsilonCheck, dps: int) -> dict:
    certified = c.certified
    if isinstance(certified, arb):
        with precision(bits_for(dps + 10)):
            ends = [lower_decimal(certified, dps), upper_decimal(certified, dps)]
    else:
        ends = None
    out = {"peer": repr(c.peer), "certified": ends if ends else None if certified is None else "inf",
           "error": repr(c.error),
           "relative_error": repr(c.relative), "direction": c.direction, "within_rounding": c.within_rounding,
           "unsafe": c.unsafe, "cause": c.cause}
    if isinstance(certified, Infinite):
        out["reason"] = certified.reason
    return out


def verification_json(v: Verification) -> dict:
    """JSON-ready data: every order's check and ε's, the certified values as ``[lower, upper]`` decimals."""
    out = {"peer": v.peer, "told": v.told, "verdict": v.verdict, "unsafe": v.unsafe, "dps": v.dps,
           "orders": [{"order": _order(c.order), **_check_json(c, v.dps)} for c in v.orders], "notes": list(v.notes)}
    if v.epsilon is not None:
        c = v.epsilon
        out["epsilon"] = {"delta": str(c.delta), "conversion": c.conversion, "order": _order(c.order),
                          **_check_json(c, v.dps)}
    return out


def _inputs(pairs: tuple) -> str:
    return ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in pairs)


def _defect_lines(d: Defect) -> list[str]:
    return [f"- {d.title} [{_shown_direction(d)}]",
            f"    inputs: {_inputs(d.inputs)}",
            f"    peer {d.peer!r}, certified {d.certified} ({d.relative_error:.2g} relative)",
            f"    cause: {d.cause}"] + ([f"    note: {d.note}"] if d.note else []) \
        + ([f"    atlas: {d.atlas} (rdpsym check proofs/peers)"] if d.atlas else [])


def audit_text(report: AuditReport) -> str:
    """A peer audit: the grid's disagreements grouped by cause (worst first), then the defect catalogue."""
    version = f" {report.version}" if report.version else ""
    lines = [f"audit of {report.peer}{version}: {report.checked} {report.quantity} compared with rdpsym's certified "
             f"values (tolerance {TOLERANCE:g} relative)"]
    groups = report.by_cause()
    if not groups:
        lines.append("no value differs beyond the tolerance")
    for cause, items in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        below = sum(f.direction in ("below", "invalid") for f in items)
        lines.append(f"\n{cause}: {len(items)} values ({below} below or invalid: unsafe)")
        for f in sorted(items, key=lambda f: -f.relative_error)[:5]:
            lines.append(f"  {_inputs(f.inputs)}: peer {f.peer!r}, rdpsym {f.ours} "
                         f"(rel. error {f.relative_error:.2g})")
    if report.defects:
        unsafe = sum(d.unsafe for d in report.defects)
        lines.append(f"\ndefect catalogue ({len(report.defects)} entries, {unsafe} unsafe), measured now:")
        for d in report.defects:
            lines += _defect_lines(d)
    return "\n".join(lines)


def _standard(obj: object) -> object:
    """``obj`` with each float that standard JSON has no number for (∞, NaN) as its repr, "inf" or "nan", as
    :func:`verification_json` writes them (``json.dumps`` wrote a bare Infinity, which strict parsers and JavaScript
    refuse and jq reads as 1.797e308; a review)."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return repr(obj)
    if isinstance(obj, dict):
        return {k: _standard(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_standard(v) for v in obj]
    return obj


def audit_json(report: AuditReport) -> dict:
    return _standard(_audit_json(report))


def _audit_json(report: AuditReport) -> dict:
    return {"peer": report.peer, "version": report.version, "checked": report.checked, "tolerance": TOLERANCE,
            "findings": [{"quantity": f.quantity, "inputs": dict(f.inputs), "peer": f.peer, "ours": f.ours,
                          "relative_error": f.relative_error, "direction": f.direction, "cause": f.cause}
                         for f in report.findings],
            "defects": [{"title": d.title, "inputs": dict(d.inputs), "peer": d.peer, "certified": d.certified,
                         "relative_error": d.relative_error, "direction": d.direction,
                         "within_rounding": d.within_rounding, "unsafe": d.unsafe,
                         "cause": d.cause, "note": d.note, "atlas": d.atlas} for d in report.defects]}
