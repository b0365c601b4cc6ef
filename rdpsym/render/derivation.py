"""Rendering derivations as LaTeX (``align*``) and as plain text.

Rendering reads a :class:`~rdpsym.derive.derivation.Derivation` and never changes
it.  Typography is the paper's (:mod:`rdpsym.printing`); standalone documents
are built by :mod:`rdpsym.documents`.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from rdpsym.render.latex import paper_latex, reason_latex

__all__ = ["derivation_latex", "derivation_text", "paper_latex"]


def _tex(obj: object) -> str:
    if isinstance(obj, mpmath.mpf):
        return mpmath.nstr(obj, 30)
    return paper_latex(obj)


def derivation_latex(d) -> str:
    """The derivation as an ``align*`` block, one step a line with its reason (to paste into a paper).

    >>> import rdpsym
    >>> print(derivation_latex(rdpsym.gaussian(sigma=2).rdp()).splitlines()[-2])
    D_{\\alpha}(P \\,\\|\\, Q) &= \\frac{\\alpha}{8} && \\text{Mironov 2017 (arXiv:1702.07476v3), Proposition 7}
    """
    lines = []
    for step in d.steps:
        rel = {"<=": r"\le", ">=": r"\ge"}.get(step.relation, step.relation)
        lines.append(rf"{_tex(step.lhs)} &{rel} {_tex(step.rhs)} && \text{{{reason_latex(step.reason)}}}")
    if d.conditions:
        cond = r",\ ".join(paper_latex(c) for c in d.conditions)
        lines.append(rf"&\text{{valid when }} {cond} && \text{{else the divergence is }} \infty")
    hyp = r",\ ".join(paper_latex(h) for h in d.hypotheses)
    header = rf"% status: {d.status}; hypotheses: {hyp or 'none'}" + "\n"
    return header + "\\begin{align*}\n" + " \\\\\n".join(lines) + "\n\\end{align*}"


def derivation_text(d) -> str:
    """A terminal rendering: the result, its status, the evidence."""
    lines = [f"D_{d.order}(P||Q) = {sp.sstr(d.result) if not isinstance(d.result, mpmath.mpf) else mpmath.nstr(d.result, 50)}",
             f"  status: {d.status}"]
    lines += [f"  condition: {sp.sstr(c)} (else oo)" for c in d.conditions]
    lines += [f"  hypothesis: {sp.sstr(h)}" for h in d.hypotheses]
    lines += [f"  {n}" for n in d.notes]
    lines += [f"  - {e}" for e in d.evidence]
    return "\n".join(lines)
