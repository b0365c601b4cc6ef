"""A standalone LaTeX report of checked claims (amsmath), for ``rdpsym check --latex``.

The report reads like an appendix of proofs: the claims grouped by where they
come from (the paper first, then the lecture material, then results beyond the
paper), each with its source, statement, hypotheses and derivation.  Above every
step of a derivation stands its reason and how it was established (proved by
SymPy, checked in Arb balls at so many points, or refuted at a counterexample,
typeset as math); below it, the step's relation as the claim's author wrote it
(:attr:`Step.latex`, :attr:`Holds.latex`), or as SymPy prints it.

Prose (titles, reasons, notes) is plain text in which ``$...$`` spans are
LaTeX math (:func:`rdpsym.render.latex.reason_latex`); statements, hypotheses and
step relations are LaTeX math.  A statement may break its lines with ``\\\\``
(it is set in ``gather*``).
"""

from __future__ import annotations

import re
import unicodedata
from fractions import Fraction

import mpmath
import sympy as sp
from flint import fmpq

from rdpsym.render.documents import preamble
from rdpsym.render.latex import DISPLAY_CHARACTERS, break_display, math, paper_latex, reason_latex, text
from rdpsym.claims.claim import Holds, StepResult, _RELATIONS
from rdpsym.claims.runner import Report

__all__ = ["report_latex"]

#: A relation described in words longer than this (characters) is set as a paragraph that wraps.
_TEXT_ON_ONE_LINE = 75

#: Claim folders in reading order, with their section titles; other folders follow, by name.
GROUPS = {
    "mironov2017": "Mironov 2017, R\\'enyi Differential Privacy",
    "seeds": "The lecture slides, lecture deck and notes",
    "beyond": "Beyond the paper",
}

_MEANING = (
    r"\textbf{proved}: SymPy reduces the step to 0, or to a sign it can read, under the hypotheses; "
    r"\textbf{checked}: the relation holds in certified Arb balls at adversarial, seeded sample points "
    r"(edges included); \textbf{refuted}: a certified counterexample; a claim is as strong as its "
    r"weakest step. Exact counterexamples are in the JSON report (\texttt{rdpsym check --json})."
)


def report_latex(report: Report) -> str:
    """The report as one standalone document (two pdflatex passes set its table of contents)."""
    parts = [preamble("rdpsym: claims checked", "Mironov 2017 and the lecture material, as executable claims")]
    c = report.counts()
    parts.append("\\sloppy\n\\noindent " + text(
        f"{len(report.results)} claims: {c['proved']} proved, {c['checked']} checked, "
        f"{c['unknown']} unknown, {c['refuted']} refuted.") + " " + _MEANING + "\n\n\\tableofcontents\n")
    groups = _grouped(report)
    for folder, results in groups.items():
        if len(groups) > 1 or folder in GROUPS:
            parts.append(f"\\section{{{GROUPS.get(folder) or text(folder or 'Claims')}}}\n")
        parts.extend(_claim_latex(r) for r in results)
    if report.failures:
        parts.append("\\section{Files that did not load}\n")
        for f in report.failures:
            parts.append(f"\\paragraph{{{text(f.path.name)}}} {text(f.problem)}\n")
    parts.append("\\end{document}\n")
    return "".join(parts)


def _grouped(report: Report) -> dict:
    """Results by the folder of their claim file: known folders in reading order, then the rest."""
    groups: dict[str, list] = {}
    for r in report.results:
        path = str(report.paths.get(r.claim.id, ""))
        groups.setdefault(path.split("/")[0] if "/" in path else "", []).append(r)
    rank = {name: i for i, name in enumerate(GROUPS)}
    return dict(sorted(groups.items(), key=lambda kv: (rank.get(kv[0], len(rank)), kv[0])))


def _claim_latex(r) -> str:
    cl = r.claim
    title = reason_latex(cl.title)
    parts = [f"\\subsection*{{{title}}}\n\\addcontentsline{{toc}}{{subsection}}{{{title} ({text(str(r.verdict))})}}\n",
             f"\\noindent\\texttt{{{text(cl.id)}}}\\quad \\textbf{{{text(str(r.verdict))}}}"
             f" (expected {text(str(cl.expected))})\\\\\n",
             f"\\textbf{{Source.}} {reason_latex(cl.source)}\n",
             f"\\paragraph{{Statement.}}\n\\begin{{gather*}}\n{_lines(math(cl.statement))}\n\\end{{gather*}}\n"]
    hyps = list(cl.hypotheses) or cl.domain.latex()
    if hyps:
        parts.append("\\noindent\\textbf{Hypotheses.} $" + "$, $".join(math(h) for h in hyps) + "$.\n")
    parts.append("\\paragraph{Derivation.}\n")
    rows = []
    for i, (step, res) in enumerate(zip(cl.steps, r.steps), 1):
        # The reason above its line (amsmath's \intertext), as in the derivation documents:
        # a reason column beside a long equation runs off the page.
        how = _how(res)
        rows.append(f"\\intertext{{{i}.~{reason_latex(step.reason)} ({how}):}}\n&{_relation_latex(step, res)}")
    parts.append("\\begin{align*}\n" + " \\\\\n".join(rows) + "\n\\end{align*}\n")
    if cl.note:
        parts.append("\\paragraph{Note.} " + reason_latex(cl.note) + "\n")
    return "".join(parts)


def _lines(latex: str) -> str:
    """A display broken into lines for ``gather*`` where it is too wide for one."""
    return " \\\\\n".join(break_display(latex))


def _relation_latex(step, res: StepResult) -> str:
    """The step's relation: the author's LaTeX, else SymPy's print of the sides, else its description.

    A relation too wide for the line is broken as papers break it: before its
    sign, then each side at its outermost sums or factors; continuation lines
    are indented.
    """
    if step.latex:
        return _aligned(math(step.latex))
    if isinstance(step, Holds):
        return _text_row(step.describe)
    if res.lhs is not None:
        lhs, rhs = paper_latex(res.lhs), paper_latex(res.rhs)
        if lhs == rhs:  # e.g. a derivation evaluated to the printed formula: say so once, not "X = X"
            return _aligned(lhs) + r" \quad \text{(both sides)}"
        return _aligned(f"{lhs} {_RELATIONS[step.relation]} {rhs}")
    return _text_row(f"{step.lhs} {step.relation} {step.rhs}")


def _aligned(latex: str) -> str:
    """A relation as ``align*`` rows: its first line, then the continuation lines indented."""
    return " \\\\\n&\\qquad ".join(break_display(latex, DISPLAY_CHARACTERS - 4))


def _text_row(prose: str) -> str:
    """A relation described in words: one line if it fits, else a paragraph that wraps."""
    body = text(prose)
    if len(prose) <= _TEXT_ON_ONE_LINE:
        return f"\\text{{{body}}}"
    return f"\\parbox[t]{{0.85\\linewidth}}{{\\raggedright {body}}}"


def _how(res: StepResult) -> str:
    """How a step was established, as text: the method, or the counterexample in math."""
    if res.counterexample is None:
        verdict = text(str(res.verdict))
        return verdict + (f": {text(res.method)}" if res.method else "") + (f"; {text(res.detail)}" if res.detail else "")
    return f"refuted at ${point_latex(res.counterexample)}$" + (f": {text(_trimmed(res.detail))}" if res.detail else "")


def _trimmed(detail: str) -> str:
    """A counterexample's values without the zeros that pad them to a fixed width: 0.9, not 0.900000000000."""
    return re.sub(r"(?<![\w.])(\d+\.\d*?)0{4,}(?![\d.])", lambda m: m.group(1).rstrip("."), detail)


def point_latex(point: dict) -> str:
    """A sample point as math: ``\\alpha = 1.0001161050487691682\\ldots, \\eta = 10^{-15}``.

    >>> a, e = sp.symbols("alpha eta")
    >>> point_latex({a: sp.Rational(3, 2), e: sp.Rational(1, 10**15), "n": 4})
    '\\\\alpha = \\\\tfrac{3}{2},\\\\allowbreak\\\\ \\\\eta = 10^{-15},\\\\allowbreak\\\\ \\\\mathit{n} = 4'
    """
    items = []
    for k, v in point.items():
        items.append(f"{_name_latex(k)} = {_value_latex(v)}")
    return r",\allowbreak\ ".join(items)


#: Greek letters spelled out, as sample-point names and counterexample objects print them.
_GREEK_WORD = re.compile(r"(?<![A-Za-z\\])(alpha|beta|gamma|delta|epsilon|eta|lambda|mu|rho|sigma|tau|Delta)(?![A-Za-z])")


def _greek(s: str) -> str:
    """``delta'`` → ``δ'``: Greek spelled out in a point's printed form, as the reader writes it."""
    return _GREEK_WORD.sub(lambda m: unicodedata.lookup(
        ("GREEK CAPITAL LETTER " if m.group()[0].isupper() else "GREEK SMALL LETTER ") + m.group().upper()
        .replace("LAMBDA", "LAMDA")), s)


def _name_latex(k) -> str:
    """A sample point's variable: a symbol as SymPy prints it (primes kept), an object's name in italics."""
    name = k.name if isinstance(k, sp.Symbol) else str(k)
    stem = name.rstrip("'")
    if isinstance(k, sp.Symbol) or _GREEK_WORD.fullmatch(stem):
        return sp.latex(sp.Symbol(stem)) + "'" * (len(name) - len(stem))
    return rf"\mathit{{{text(name)}}}"


def _value_latex(v) -> str:
    if isinstance(v, (tuple, list)):
        return r"(" + r",\allowbreak ".join(_value_latex(x) for x in v) + ")"
    if isinstance(v, float):
        v = sp.Rational(repr(v))
    if isinstance(v, int):
        v = sp.Integer(v)
    if isinstance(v, (Fraction, fmpq)):  # the samplers' exact probabilities
        v = sp.Rational(int(v.numerator if isinstance(v, Fraction) else v.p),
                        int(v.denominator if isinstance(v, Fraction) else v.q))
    if not isinstance(v, sp.Rational):
        return rf"\text{{{text(_greek(str(v)))}}}"
    p, q = int(v.p), int(v.q)
    if q == 1 and abs(p) < 10**9:
        return str(p)
    if abs(p) == 1 and str(q).rstrip("0") == "1":
        return ("-" if p < 0 else "") + f"10^{{-{len(str(q)) - 1}}}"
    if abs(p) < 10**6 and q < 10**6:
        return ("-" if p < 0 else "") + rf"\tfrac{{{abs(p)}}}{{{q}}}"
    n = round(v)
    if q != 1 and n != 0 and abs(v - n) < sp.Rational(1, 10**15) * abs(n):
        # 1 − 4·10⁻³⁰ would print as 1.0…: say how far from the integer it is
        return f"{n} {'-' if v < n else '+'} {_value_latex(abs(v - n))}"
    return _decimal_latex(p, q)


def _decimal_latex(p: int, q: int) -> str:
    """p/q to 20 significant digits in scientific form; ``\\ldots`` only where digits were cut."""
    with mpmath.workdps(40):
        shown = mpmath.nstr(mpmath.mpf(p) / q, 20, min_fixed=-4, max_fixed=9)
    exact = Fraction(shown) == Fraction(p, q)
    mantissa, _, exponent = shown.partition("e")
    mantissa = mantissa.rstrip("0").rstrip(".") if "." in mantissa else mantissa
    dots = "" if exact else r"\ldots"
    if not exponent:
        return mantissa + dots
    power = f"10^{{{int(exponent)}}}"
    return power if mantissa == "1" and exact else rf"{mantissa}{dots} \cdot {power}"
