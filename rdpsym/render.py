"""Rendering derivations as LaTeX (``align*``) and as plain text.

Rendering reads a :class:`~rdpsym.derivation.Derivation` and never changes
it.  Layout follows the paper: the ``\\frac{1}{\\alpha-1}`` prefix, ``\\log``.
"""

from __future__ import annotations

import mpmath
import sympy as sp


def _tex(obj: object) -> str:
    if isinstance(obj, str):
        return obj
    if isinstance(obj, mpmath.mpf):
        return mpmath.nstr(obj, 30)
    if isinstance(obj, sp.Add) and obj.has(sp.Integral, sp.Sum):
        return sp.latex(obj, order="none")  # the pieces left to right, as split
    return paper_latex(obj)


def paper_latex(expr: sp.Basic) -> str:
    """LaTeX as the paper prints it: ``\\frac{1}{\\alpha - 1} \\log(...)`` rather than a fraction of logs.

    >>> import sympy as sp
    >>> a, b = sp.symbols("alpha b", positive=True)
    >>> paper_latex(sp.log(a + b) / (a - 1))
    '\\\\frac{1}{\\\\alpha - 1} \\\\log{\\\\left(\\\\alpha + b \\\\right)}'
    """
    if isinstance(expr, sp.Piecewise):
        rows = [rf"{paper_latex(v)} & \text{{if }} {sp.latex(c)}" if c is not sp.true else rf"{paper_latex(v)} & \text{{otherwise}}"
                for v, c in expr.args]
        return r"\begin{cases} " + r" \\ ".join(rows) + r" \end{cases}"
    if isinstance(expr, sp.Mul):
        logs = [f for f in expr.args if isinstance(f, sp.log)]
        if len(logs) == 1:
            rest = sp.Mul(*[f for f in expr.args if f is not logs[0]])
            num, den = sp.fraction(rest)
            if num == 1 and den != 1:
                return rf"\frac{{1}}{{{sp.latex(den)}}} {sp.latex(logs[0])}"
    return sp.latex(expr)


def derivation_latex(d) -> str:
    """The derivation as an ``align*`` block, one step a line with its reason."""
    lines = []
    for step in d.steps:
        reason = step.reason.replace("&", r"\&")
        lines.append(rf"{_tex(step.lhs)} &{step.relation} {_tex(step.rhs)} && \text{{{_text_safe(reason)}}}")
    if d.conditions:
        cond = r",\ ".join(sp.latex(c) for c in d.conditions)
        lines.append(rf"&\text{{valid when }} {cond} && \text{{else the divergence is }} \infty")
    hyp = r",\ ".join(sp.latex(h) for h in d.hypotheses)
    header = rf"% status: {d.status}; hypotheses: {hyp or 'none'}" + "\n"
    return header + "\\begin{align*}\n" + " \\\\\n".join(lines) + "\n\\end{align*}"


def _text_safe(reason: str) -> str:
    """Keep $...$ math inside \\text{...}; escape the rest."""
    out, math = [], False
    for part in reason.split("$"):
        if math:
            out.append(f"${part}$")
        else:
            out.append(part.replace("_", r"\_").replace("%", r"\%").replace("#", r"\#"))
        math = not math
    return "".join(out)


def derivation_text(d) -> str:
    """A terminal rendering: the result, its status, the evidence."""
    lines = [f"D_{d.order}(P||Q) = {sp.sstr(d.result) if not isinstance(d.result, mpmath.mpf) else mpmath.nstr(d.result, 50)}",
             f"  status: {d.status}"]
    lines += [f"  condition: {sp.sstr(c)} (else oo)" for c in d.conditions]
    lines += [f"  hypothesis: {sp.sstr(h)}" for h in d.hypotheses]
    lines += [f"  {n}" for n in d.notes]
    lines += [f"  - {e}" for e in d.evidence]
    return "\n".join(lines)
