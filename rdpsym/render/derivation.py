"""A derivation (:class:`~rdpsym.derive.derivation.Derivation`) as LaTeX, terminal text and Markdown.

The one renderer of a derivation.  Its steps are read as papers write a
chain: a step whose left side is the expression just displayed continues the
chain (``= ...``); a step whose left side repeats the previous left side
drops it; a reason is printed once for the run of steps it justifies.  Two
layouts share that reading:

* :func:`derivation_latex` — an ``align*`` block with each reason in a column
  on the right, to paste into a paper (also what Jupyter shows);
* :func:`derivation_body` — the same chain with each reason as a sentence
  above its lines (``\\intertext``), for documents where reasons are long.

>>> import rdpsym
>>> print(derivation_latex(rdpsym.gaussian(sigma=2).rdp()).splitlines()[-2])  # doctest: +NORMALIZE_WHITESPACE
D_{\\alpha}(P \\,\\|\\, Q) &= \\frac{\\alpha}{8} && \\begin{array}[t]{@{}l@{}} \\text{take the logarithm and divide}
\\\\ \\text{by $\\alpha - 1$; the published} \\\\ \\text{formula, Mironov 2017} \\\\ \\text{(arXiv:1702.07476v3),}
\\\\ \\text{Proposition 7} \\end{array}
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import mpmath
import sympy as sp

from rdpsym.derive.derivation import Derivation
from rdpsym.foundations.notation import PieceSum
from rdpsym.foundations.record import Diverges, Largest, Published, Relation, Step
from rdpsym.render.latex import divergence_latex, paper_latex, symbols_set_as_text
from rdpsym.render.layout import DISPLAY_CHARACTERS, INDENT, display_width, fit
from rdpsym.render.reasons import evidence_latex, evidence_text, rule_latex, rule_text
from rdpsym.render.values import decimal_latex

__all__ = ["RELATION_LATEX", "derivation_body", "derivation_json", "derivation_latex", "derivation_markdown",
           "derivation_text", "display", "infinite_because", "printing_settings", "undefined_orders"]

#: A relation as LaTeX (the one table: claims reports use it too).
RELATION_LATEX = {Relation.EQ: "=", Relation.LE: r"\le", Relation.LT: "<", Relation.GE: r"\ge", Relation.GT: ">"}

#: A left side wider than this share of the line is set on a line of its own, with its relation and
#: right side on the lines below (a wide left side would otherwise push the whole chain's alignment
#: point, and every right side with it, towards the margin).
_WIDE_LEFT_SIDE = 0.4


#: In a derivation to paste (:func:`derivation_latex`), a reason longer than this many characters is set as
#: lines of at most this many stacked in its column (as one math-mode ``\text`` it cannot break and pushes
#: the line past the margin).
_REASON_CHARACTERS = 30


def _stacked_text(reason: str, characters: int) -> str:
    r"""``reason`` as lines of text of about ``characters`` each, stacked top-aligned in a one-column
    ``array`` (which, unlike ``\parbox``, MathJax also reads); inline math ``$…$`` is split only where a
    display would be (:func:`~rdpsym.render.layout.fit`), when it is too long for a line.

    >>> print(_stacked_text(r"by the limit $\alpha \to 1$", 12))
    \begin{array}[t]{@{}l@{}} \text{by the limit} \\ \text{$\alpha \to 1$} \end{array}
    """
    words = re.findall(r"(?:[^\s$]|\$[^$]*\$)+", reason)
    lines: list[str] = []
    for word in words:
        math = re.fullmatch(r"\$([^$]*)\$(\W*)", word)
        if math and display_width(math.group(1)) > characters * 0.8:
            # a long formula in the reason: broken as a display would be, a line of text per piece
            pieces = fit(math.group(1), characters * 0.8)
            lines += [f"${piece}$" for piece in pieces[:-1]] + [f"${pieces[-1]}${math.group(2)}"]
            continue
        if lines and len(lines[-1]) + 1 + len(word) <= characters:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return r"\begin{array}[t]{@{}l@{}} " + r" \\ ".join(rf"\text{{{line}}}" for line in lines) + r" \end{array}"

#: Where a continuation line starts: one \qquad right of the alignment point.
_CONTINUED = " \\\\ &\\qquad "


@dataclass(frozen=True)
class _Row:
    lhs: str  # "" when the line continues the chain
    relation: str
    rhs: str
    reason: str  # "" when the previous row's reason covers it
    published: bool = False  # the published formula, printed as derived: said, not repeated


def _number(value: object) -> str | None:
    """A numeric result's 30 digits as math (:func:`~rdpsym.render.values.decimal_latex`), else None."""
    return decimal_latex(mpmath.nstr(value, 30)) if isinstance(value, mpmath.mpf) else None


def _side(expr: object, settings: dict) -> str:
    """``expr`` printed; a sum of integrals in its pieces' order (left to right)."""
    shown = _number(expr)
    if shown is not None:
        return shown
    if not isinstance(expr, PieceSum):
        return paper_latex(expr, **settings)
    parts = []
    for i, term in enumerate(expr.terms):
        if i and term.could_extract_minus_sign():
            parts.append("- " + paper_latex(-term, **settings))
        else:
            parts.append(("+ " if i else "") + paper_latex(term, **settings))
    return " ".join(parts)


def printing_settings(d: Derivation, symbol_names: dict | None = None) -> dict:
    """The printer's settings for every formula of ``d``: its symbol names, and the symbols set as text
    (:func:`~rdpsym.render.latex.symbols_set_as_text`) decided over the whole derivation, so that a parameter
    prints the same in every line (``sigma1`` beside ``sigma_1`` anywhere in it is set as text everywhere)."""
    names = symbol_names or {}
    sides = [d.result, *d.hypotheses, *d.conditions, *(e for step in d.steps for e in (step.lhs, step.rhs))]
    formulas = sp.Tuple(*(e for e in sides if isinstance(e, sp.Basic)))
    return {"symbol_names": names, "text_symbols": symbols_set_as_text(formulas, names)}


def _rows(steps: tuple[Step, ...], symbol_names: dict | None, settings: dict | None = None) -> list[_Row]:
    """The chain as rows: left sides dropped where they repeat, reasons where they repeat."""
    settings = settings or {"symbol_names": symbol_names or {}}
    rows: list[_Row] = []
    previous = (None, None)  # (lhs, rhs) of the last row printed
    last_reason = None
    for step in steps:
        lhs = paper_latex(step.lhs, **settings)
        rhs = _side(step.rhs, settings)
        relation = RELATION_LATEX[step.relation]
        reason = rule_latex(step.rule, symbol_names, settings)
        if (lhs, rhs) == previous:
            if isinstance(step.rule, Published):
                rows.append(_Row("", relation, rhs, reason, published=True))
            continue  # a step that changes nothing (the sum of a single piece)
        shown_reason = reason if reason != last_reason else ""
        if lhs == previous[1]:
            # The step rewrites the expression just displayed: continue the chain (= ...) rather
            # than print it again as a left side, which would make the display twice as wide.
            rows.append(_Row("", relation, rhs, shown_reason))
            previous = (previous[0], rhs)
        else:
            rows.append(_Row("" if lhs == previous[0] else lhs, relation, rhs, shown_reason))
            previous = (lhs, rhs)
        last_reason = reason
    return rows


def derivation_latex(d: Derivation, symbol_names: dict | None = None, display: bool = False) -> str:
    """The derivation as an ``align*`` block, one step a line with its reason on the right (to paste into a paper).

    Its status and hypotheses come first as a TeX comment; with ``display`` (Jupyter, where a comment
    outside the math would show as text) they are the block's last line instead.
    """
    settings = printing_settings(d, symbol_names)
    rows: list[_Row] = []
    for row in _rows(d.steps, symbol_names, settings):
        if row.published and rows:
            # The published formula, printed as derived: its citation joins the line it equals.
            last = rows[-1]
            reason = f"{last.reason}; the published formula, {row.reason}" if last.reason else row.reason
            rows[-1] = _Row(last.lhs, last.relation, last.rhs, reason)
            continue
        rows.append(row)
    lines = []
    # To paste into a paper: a long reason is set as short lines of text stacked in its column, and a
    # right side too wide beside it is broken over lines (Jupyter's display keeps each step on one line).
    paper = not display
    widths = [display_width(r.lhs) for r in rows if r.lhs]
    narrow = [w for w in widths if w <= _WIDE_LEFT_SIDE * DISPLAY_CHARACTERS]
    room = max(DISPLAY_CHARACTERS - _REASON_CHARACTERS - 3 - (max(narrow) if narrow else 0) - 3, 20)
    for row in rows:
        reason = ""
        if row.reason:
            long_reason = paper and len(row.reason) > _REASON_CHARACTERS
            shown = _stacked_text(row.reason, _REASON_CHARACTERS) if long_reason else rf"\text{{{row.reason}}}"
            reason = f" && {shown}"
        if paper and row.lhs and display_width(row.lhs) > _WIDE_LEFT_SIDE * DISPLAY_CHARACTERS:
            # a wide left side right of the alignment point, its relation and right side on the lines below
            lhs_lines = fit(row.lhs, room + 3, room - INDENT)
            rhs = _CONTINUED.join(fit(row.rhs, room - INDENT - 3, room - 2 * INDENT))
            lines.append("&" + _CONTINUED.join(lhs_lines) + _CONTINUED + f"{row.relation} {rhs}{reason}")
            continue
        rhs = _CONTINUED.join(fit(row.rhs, room, room - INDENT)) if paper else row.rhs
        lines.append(rf"{row.lhs + ' ' if row.lhs else ''}&{row.relation} {rhs}{reason}")
    if d.conditions:
        cond = r",\ ".join(paper_latex(c, **settings) for c in d.conditions)
        lines.append(rf"&\text{{valid when }} {cond} && \text{{else the divergence is }} \infty")
    hyp = r",\ ".join(paper_latex(h, **settings) for h in d.hypotheses)
    if display:
        lines.append(rf"&\text{{status: {d.status}}}" + (rf" && \text{{under }} {hyp}" if hyp else ""))
        return "\\begin{align*}\n" + " \\\\\n".join(lines) + "\n\\end{align*}"
    header = rf"% status: {d.status}; hypotheses: {hyp or 'none'}" + "\n"
    return header + "\\begin{align*}\n" + " \\\\\n".join(lines) + "\n\\end{align*}"


def derivation_body(d: Derivation, symbol_names: dict | None = None, width: float = DISPLAY_CHARACTERS) -> str:
    """The derivation as one ``align*`` chain for a document: each reason as ``\\intertext``, then its lines.

    Every line is kept within ``width`` characters (:mod:`rdpsym.render.layout`): right sides too wide
    are broken, continuation lines indented by a ``\\qquad``; a left side wider than 40 % of the line
    moves right of the alignment point, and when it does not fit beside its right side it gets a line
    of its own, its relation and right side below it.
    """
    rows = _rows(d.steps, symbol_names, printing_settings(d, symbol_names))
    wide = _WIDE_LEFT_SIDE * width
    narrow = [display_width(r.lhs) for r in rows if r.lhs and display_width(r.lhs) <= wide]
    # the room right of the alignment point: the widest left side that stays left of it, and the relation
    right = width - (max(narrow) if narrow else 0) - 3
    out = []
    for row in rows:
        if row.published:
            # The published formula, printed as derived: say so rather than repeat the line.
            out.append(rf"\intertext{{This is the published formula ({row.reason}).}}")
            continue
        if row.reason:
            out.append(rf"\intertext{{{_sentence(row.reason)}}}")
        out.append(_aligned_row(row, right, wide) + r" \\")
    closing = ""
    if out and out[-1].startswith(r"\intertext"):
        # A closing remark is a sentence after the display, not an \intertext with no line below.
        closing = "\\noindent " + out.pop()[len(r"\intertext{"):-1] + "\n"
    if out:
        out[-1] = out[-1].removesuffix(r" \\")
    return "\\begin{align*}\n" + "\n".join(out) + "\n\\end{align*}\n" + closing




def _aligned_row(row: _Row, right: float, wide: float) -> str:
    """One relation of the chain as ``align*`` lines, none wider than the room ``right`` of the alignment point."""
    relation = f"{row.relation} "
    if not row.lhs or display_width(row.lhs) <= wide:
        lhs = row.lhs + " " if row.lhs else ""
        return f"{lhs}&{relation}" + _CONTINUED.join(fit(row.rhs, right, right - INDENT))
    beside = right - display_width(row.lhs) - 3
    if display_width(row.rhs) <= beside:  # a wide left side with a short right side: one line
        return f"&{row.lhs} {relation}{row.rhs}"
    lhs_lines = fit(row.lhs, right, right - INDENT)
    rhs_lines = fit(row.rhs, right - INDENT - 3, right - 2 * INDENT)
    return "&" + _CONTINUED.join(lhs_lines) + _CONTINUED + relation + (_CONTINUED + r"\qquad ").join(rhs_lines)


def display(lhs: str, relation: str, rhs: str, width: float = DISPLAY_CHARACTERS) -> str:
    """``lhs relation rhs`` as a display that stays within ``width``: ``\\[ … \\]`` when it fits on a line,
    else an ``align*`` whose right side is broken over lines (continuations indented)."""
    whole = f"{lhs} {relation} {rhs}"
    if display_width(whole) <= width:
        return rf"\[ {whole} \]"
    room = width - display_width(lhs) - 3
    return ("\\begin{align*}\n" + f"{lhs} &{relation} " + " \\\\\n&\\qquad ".join(fit(rhs, room, room - INDENT))
            + "\n\\end{align*}")


def _sentence(reason: str) -> str:
    reason = reason.strip()
    if not reason:
        return ""
    return reason[0].upper() + reason[1:] + ("" if reason.endswith((".", ":")) else ":")


def infinite_because(d: Derivation) -> Diverges | None:
    """Why the result is +∞ (the rule of the step that says so), or None."""
    if d.result != sp.oo:
        return None
    return next((s.rule for s in reversed(d.steps) if isinstance(s.rule, Diverges)), None)


def undefined_orders(d: Derivation) -> list[sp.Expr]:
    """The orders > 0 other than 1 where a denominator of the result, a polynomial in the order of degree at most 2,
    vanishes: there the formula as written is undefined (0/0 for Laplace's Proposition 6 at α = 1/2), and the
    divergence, continuous in its order where finite, is the formula's limit.  rdpsym's own values take that limit
    (:mod:`rdpsym.derive.values`); a reader substituting the order does not, and the document said only "α ≠ 1" (a
    review).

    >>> import rdpsym
    >>> undefined_orders(rdpsym.laplace(scale=2).rdp(rdpsym.alpha))
    [1/2]
    """
    order, result = d.order, d.result
    if not (isinstance(order, sp.Symbol) and isinstance(result, sp.Basic)):
        return []
    found = set()
    for node in sp.preorder_traversal(result):
        if isinstance(node, sp.Pow) and node.exp.is_negative and node.base.has(order) \
                and node.base.is_polynomial(order) and sp.degree(node.base, order) <= 2:
            found.update(z for z in sp.solve(node.base, order) if z.is_positive and z != 1)
    # (only where the formula as written is undefined -- not where a branch of it says the value -- and not where a
    # condition of the formula fails: there the divergence is ∞, and the formula not used)
    found = {z for z in found if result.subs(order, z).has(sp.nan, sp.zoo)
             and not any(c.subs(order, z) is sp.false for c in d.conditions)}
    return sorted(found, key=sp.default_sort_key)


def of_both_directions(d: Derivation) -> sp.Expr | None:
    """max(D(P‖Q), D(Q‖P)) where the result is the larger direction (a mechanism's pair not known to dominate
    its reverse: :func:`rdpsym.derive.divergence.mechanism_rdp`), else None."""
    last = d.steps[-1] if d.steps else None
    return last.lhs if last is not None and last.rule == Largest("directions") else None


def derivation_text(d: Derivation) -> str:
    """A terminal rendering: the result, its status, its conditions and the evidence."""
    result = mpmath.nstr(d.result, 50) if isinstance(d.result, mpmath.mpf) else sp.sstr(d.result)
    order = sp.sstr(d.order)
    both = of_both_directions(d)
    of = f"D_{order}(P||Q)" if both is None else \
        "max(" + ", ".join(f"D_{order}({a.args[0]}||{a.args[1]})" for a in both.args) + ")"
    lines = [f"{of} = {result}", f"  status: {d.status}"]
    lines += [f"  condition: {sp.sstr(c)} (else oo)" for c in d.conditions]
    lines += [f"  hypothesis: {sp.sstr(h)}" for h in d.hypotheses]
    lines += [f"  at {order} = {sp.sstr(z)}: undefined as written (a denominator is 0); the divergence is the limit"
              for z in undefined_orders(d)]
    why = infinite_because(d)
    if why is not None:
        lines.append(f"  infinite: {rule_text(why)}")
    lines += [f"  - {evidence_text(e)}" for e in d.evidence]
    return "\n".join(lines)


def derivation_markdown(d: Derivation) -> str:
    """Markdown for Jupyter: the result as display math, then the status and the evidence."""
    settings = printing_settings(d)
    result = _number(d.result) or paper_latex(d.result, **settings)
    both = of_both_directions(d)
    of = paper_latex(both, **settings) if both is not None else divergence_latex(d.order, **settings)
    lines = [rf"$${of} = {result}$$", "", f"**{d.status}**", ""]
    lines += [f"- {evidence_latex(e, settings=settings)}" for e in d.evidence]
    return "\n".join(lines)


def derivation_json(d: Derivation) -> dict:
    """JSON-ready data (``rdpsym derive --json``, ``table2 --json``): the result in SymPy's and LaTeX's
    spelling, the status, conditions, hypotheses, the evidence as sentences, and every step of the chain.

    >>> import rdpsym
    >>> data = derivation_json(rdpsym.gaussian(sigma=2).rdp())
    >>> data["result"], data["status"], len(data["steps"]) > 3
    ('alpha/8', 'proved', True)
    >>> print(data["latex"])
    \\frac{\\alpha}{8}
    """
    result = d.result
    numeric = isinstance(result, mpmath.mpf)
    # (an infinite numeric result spelled as a closed form's is, "oo", not mpmath's "+inf")
    spelled = (sp.sstr(sp.oo if result > 0 else -sp.oo) if mpmath.isinf(result) else mpmath.nstr(result, 50)) \
        if numeric else sp.sstr(result)
    why = infinite_because(d)
    return {
        "order": sp.sstr(d.order),
        "result": spelled,
        "latex": _number(result) or paper_latex(result),
        "status": str(getattr(d.status, "value", d.status)),
        "conditions": [sp.sstr(c) for c in d.conditions],
        "hypotheses": [sp.sstr(h) for h in d.hypotheses],
        "infinite_because": rule_text(why) if why is not None else None,
        "evidence": [evidence_text(e) for e in d.evidence],
        "steps": [{"lhs": sp.sstr(step.lhs), "relation": getattr(step.relation, "value", None),
                   "rhs": sp.sstr(step.rhs), "reason": rule_text(step.rule) if step.rule is not None else None}
                  for step in d.steps],
    }
