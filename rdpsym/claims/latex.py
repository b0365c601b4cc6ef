"""A standalone LaTeX report of checked claims (amsmath), for ``rdpsym check --latex``."""

from __future__ import annotations

from ..documents import preamble
from ..printing import math, paper_latex, text
from .claim import Holds, Step, _RELATIONS
from .runner import Report

__all__ = ["report_latex", "text", "math"]


def report_latex(report: Report) -> str:
    parts = [preamble("rdpsym: claims checked", "Mironov 2017 and the seeds, as executable claims")]
    c = report.counts()
    parts.append(text(f"{len(report.results)} claims: {c['proved']} proved, {c['checked']} checked, "
                      f"{c['unknown']} unknown, {c['refuted']} refuted.") + "\n")
    for r in report.results:
        cl = r.claim
        parts.append(f"\\section*{{{text(cl.id)}: {text(cl.title)}}}\n")
        parts.append(f"\\noindent\\textbf{{Source.}} {text(cl.source)}\\\\\n")
        parts.append(f"\\textbf{{Status.}} {text(str(r.verdict))} (expected {text(str(cl.expected))})\n")
        parts.append(f"\\paragraph{{Statement.}}\n\\[ {math(cl.statement)} \\]\n")
        hyps = list(cl.hypotheses) or cl.domain.latex()
        if hyps:
            parts.append("\\paragraph{Hypotheses.} $" + "$, $".join(math(h) for h in hyps) + "$.\n")
        parts.append("\\paragraph{Derivation.}\n")
        rows = []
        for step, res in zip(cl.steps, r.steps):
            # The reason above its line (amsmath's \intertext), as in the derivation documents:
            # a reason column beside a long equation runs off the page.
            rows.append(f"\\intertext{{{text(step.reason)} ({text(str(res.verdict))}):}}")
            if isinstance(step, Step) and res.lhs is not None:
                rel = _RELATIONS[step.relation]
                rows.append(f"{paper_latex(res.lhs)} &{rel} {paper_latex(res.rhs)}")
            else:
                body = step.latex if isinstance(step, Holds) and step.latex else f"\\text{{{text(getattr(step, 'describe', ''))}}}"
                rows.append(f"&{body}")
        parts.append("\\begin{align*}\n" + "\n".join(r if r.startswith("\\intertext") else r + " \\\\"
                                                        for r in rows).removesuffix(" \\\\") + "\n\\end{align*}\n")
        parts.append("\\paragraph{Evidence.} " + text(r.evidence) + "\n")
        if cl.note:
            parts.append("\\paragraph{Note.} " + text(cl.note) + "\n")
    for f in report.failures:
        parts.append(f"\\section*{{Load error: {text(f.path.name)}}}\n{text(f.problem)}\n")
    parts.append("\\end{document}\n")
    return "".join(parts)
