"""Checked claims as a terminal table, Markdown, JSON, and a standalone LaTeX report (``rdpsym check``).

The report reads like an appendix of proofs: the claims grouped by where they
come from (the paper first, then the lecture material, then results beyond the
paper), each with its source, statement, hypotheses and derivation.  Above every
step of a derivation stands its reason and how it was established (proved by
SymPy, checked in Arb balls at so many points, or refuted at a counterexample,
typeset as math); below it, the step's relation as the claim's author wrote it
(:attr:`Step.latex`, :attr:`Holds.latex`), or as SymPy prints it.

Prose (titles, reasons, notes) is plain text in which ``$...$`` spans are
LaTeX math (:func:`rdpsym.render.prose.reason_latex`); statements, hypotheses and
step relations are LaTeX math.  A statement may break its lines with ``\\\\``
(it is set in ``gather*``).
"""

from __future__ import annotations

import re
import unicodedata
from fractions import Fraction

import sympy as sp
from flint import fmpq

from rdpsym.claims.claim import Claim, ClaimResult, Holds, Step
from rdpsym.claims.runner import Report
from rdpsym.foundations.errors import ClaimError, NoLatexForm
from rdpsym.foundations.precision import private_context
from rdpsym.foundations.record import Contradiction, Counterexample, Failure, Proof, Sampled, Status
from rdpsym.render.derivation import RELATION_LATEX
from rdpsym.render.documents import preamble
from rdpsym.render.latex import paper_latex
from rdpsym.render.layout import DISPLAY_CHARACTERS, break_display
from rdpsym.render.prose import check_math, math, reason_latex, text
from rdpsym.render.reasons import evidence_text, point_text, rule_latex, rule_text
from rdpsym.render.values import number_latex

__all__ = ["check_typesetting", "claim_result_markdown", "claim_result_text", "report_json", "report_latex",
           "report_markdown", "report_text", "why_not_proved"]

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
    hyps = list(cl.hypotheses) or _domain_latex(cl)
    if hyps:
        parts.append("\\noindent\\textbf{Hypotheses.} $" + "$, $".join(math(h) for h in hyps) + "$.\n")
    parts.append("\\paragraph{Derivation.}\n")
    rows = []
    for i, step in enumerate(r.steps, 1):
        # The reason above its line (amsmath's \intertext), as in the derivation documents:
        # a reason column beside a long equation runs off the page.
        rows.append(f"\\intertext{{{i}.~{rule_latex(step.rule)} ({_how(step)}):}}\n&{_relation_latex(step)}")
    parts.append("\\begin{align*}\n" + " \\\\\n".join(rows) + "\n\\end{align*}\n")
    if cl.note:
        parts.append("\\paragraph{Note.} " + reason_latex(cl.note) + "\n")
    return "".join(parts)


def _lines(latex: str) -> str:
    """A display broken into lines for ``gather*`` where it is too wide for one."""
    return " \\\\\n".join(break_display(latex))


def _domain_latex(claim: Claim) -> list[str]:
    """The domain's variables as hypotheses, ``\\alpha \\in (1, \\infty)``."""
    return [f"{paper_latex(s)} \\in {paper_latex(iv)}" for s, iv in claim.domain.variables.items()]


def _relation_latex(step: Step) -> str:
    """The step's relation: the author's LaTeX, else SymPy's print of the sides, else its description.

    A relation too wide for the line is broken as papers break it: before its
    sign, then each side at its outermost sums or factors; continuation lines
    are indented.
    """
    if step.latex:
        return _aligned(math(step.latex))
    if isinstance(step, Holds):
        return _text_row(step.describe)
    if isinstance(step.lhs, sp.Basic) and isinstance(step.rhs, sp.Basic):
        lhs, rhs = paper_latex(step.lhs), paper_latex(step.rhs)
        if lhs == rhs:  # e.g. a derivation evaluated to the printed formula: say so once, not "X = X"
            return _aligned(lhs) + r" \quad \text{(both sides)}"
        return _aligned(f"{lhs} {RELATION_LATEX[step.relation]} {rhs}")
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


def _how(step: Step) -> str:
    """How a step was established, as text: the method, or the counterexample in math."""
    found = next((e for e in step.evidence if isinstance(e, Counterexample)), None)
    if found is None:
        methods = "; ".join(evidence_text(e) for e in step.evidence)
        return text(str(step.status)) + (f": {text(methods)}" if methods else "")
    where = f"${point_latex(dict(found.point))}$: " + text(_trimmed(_sides_text(found)))
    contradiction = next((e for e in step.evidence if isinstance(e, Contradiction)), None)
    if contradiction is not None:  # a proof that sampling contradicts: rdpsym's bug, not a refutation
        return text(f"{step.status}: {evidence_text(contradiction)}") + " at " + where
    return "refuted at " + where


def _sides_text(found: Counterexample) -> str:
    """``lhs = 1.5, rhs = 1.4999, lhs <= rhs fails``, each side with the digits that tell it from the other."""
    lhs, rhs = _distinct(found.lhs, found.rhs)
    return f"lhs = {lhs}, rhs = {rhs}, lhs {found.relation} rhs fails"


def _distinct(a: object, b: object) -> tuple[str, str]:
    """Two values with enough significant digits (12 to 60) to tell them apart."""
    if not (isinstance(a, sp.Float) and isinstance(b, sp.Float)):
        return str(a), str(b)
    # (the texts compared, not Floats rounded to the digits: those differ in their binary tails where their 12 digits
    # agree, and a relation's two sides were printed equal, "lhs = 3.25870750621e-7, rhs = 3.25870750621e-7, lhs <= rhs
    # fails"; a review)
    digits = 12
    while digits < 60 and a != b and _float_text(a, digits) == _float_text(b, digits):
        digits += 3
    return _float_text(a, digits), _float_text(b, digits)


def _float_text(x: sp.Float, digits: int) -> str:
    with private_context(digits + 5) as mp:
        return mp.nstr(mp.mpf(x._mpf_), digits)


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
_GREEK_WORD = re.compile(r"(?<![A-Za-z\\])(alpha|beta|gamma|delta|epsilon|eta|lambda|mu|rho|sigma|tau|Delta)"
                         r"(?![A-Za-z])")


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
        return paper_latex(sp.Symbol(stem)) + "'" * (len(name) - len(stem))
    return rf"\mathit{{{text(name)}}}"


def _value_latex(v) -> str:
    if isinstance(v, (tuple, list)):
        return r"(" + r",\allowbreak ".join(_value_latex(x) for x in v) + ")"
    if isinstance(v, float):
        v = sp.Rational(repr(v))
    if isinstance(v, int):
        v = sp.Integer(v)
    if isinstance(v, (Fraction, fmpq, sp.Rational)):  # (Fraction, fmpq: the samplers' exact probabilities)
        return number_latex(v)
    return rf"\text{{{text(_greek(str(v)))}}}"


# --------------------------------------------------------------------------- text, Markdown, JSON


def step_summary(step: Step) -> str:
    """How one checked step was established, in one line of text (a contradicted proof said first)."""
    found = next((e for e in step.evidence if isinstance(e, Counterexample)), None)
    contradiction = next((e for e in step.evidence if isinstance(e, Contradiction)), None)
    if found is not None:
        said = f"{evidence_text(found)} ({_sides_text(found)})"
        return f"{evidence_text(contradiction)}; {said}" if contradiction is not None else said
    return "; ".join(evidence_text(e) for e in step.evidence)


def claim_result_text(r: ClaimResult) -> str:
    """A checked claim in one line per step: ``claim-id: proved (expected proved)`` then each step."""
    lines = [f"{r.claim.id}: {r.verdict} (expected {r.claim.expected}){'' if r.ok else '  <-- NOT AS EXPECTED'}"]
    lines += [f"  {i}. {s.status}: {step_summary(s)}" for i, s in enumerate(r.steps, 1)]
    return "\n".join(lines)


def claim_result_markdown(r: ClaimResult) -> str:
    """A checked claim for Jupyter: title, verdict, statement as display math, one line per step."""
    lines = [f"**{r.claim.title}** — *{r.verdict}* (expected {r.claim.expected}; {r.claim.source})", "",
             f"$$ {r.claim.statement} $$", ""]
    lines += [f"{i}. {rule_text(s.rule)} — *{s.status}*: {step_summary(s)}" for i, s in enumerate(r.steps, 1)]
    return "\n".join(lines)


def _evidence_line(r: ClaimResult) -> str:
    return "; ".join(step_summary(s) for s in r.steps)


def report_text(report: Report, width: int = 60) -> str:
    """The text table ``rdpsym check`` prints: claim, verdict (expected), evidence, time; then the counts."""
    rows = [("claim", "status", "expected", "time", "evidence")]
    for r in report.results:
        mark = "" if r.ok else "  <-- NOT AS EXPECTED"
        rows.append((r.claim.id, str(r.verdict), str(r.claim.expected), f"{r.seconds:.1f}s",
                     _clip(_evidence_line(r), width) + mark))
    for f in report.failures:
        rows.append((f.path.name, "LOAD ERROR", "-", "-", f.problem))
    w = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = ["  ".join(c.ljust(w[i]) if i < 4 else c for i, c in enumerate(row)) for row in rows]
    lines.insert(1, "-" * min(max(len(x) for x in lines), 120))
    c = report.counts()
    lines.append("")
    lines.append(f"{len(report.results)} claims: {c['proved']} proved, {c['checked']} checked, "
                 f"{c['unknown']} unknown, {c['refuted']} refuted; {len(report.failures)} files failed to load; "
                 f"{report.seconds:.1f} s of wall time")
    return "\n".join(lines)


def report_markdown(report: Report) -> str:
    """Markdown tables, one per claim file (one file: one table): source item, claim id, file, status, and why
    a claim is not proved (its counterexample when refuted).  For the atlas that is a table per peer."""
    files: dict[str, list] = {}
    for r in report.results:
        files.setdefault(report.paths.get(r.claim.id, ""), []).append(r)
    out = []
    for path, results in files.items():
        if len(files) > 1:
            out += ["", f"### {path}", ""] if out else [f"### {path}", ""]
        out += ["| source | claim | file | status | why not proved |", "|---|---|---|---|---|"]
        out += [f"| {_cell(r.claim.source)} | {_code_cell(r.claim.id)} | {_cell(path)} | {r.verdict} | "
                f"{_cell(why_not_proved(r))} |" for r in results]
    return "\n".join(out)


def _code_cell(text: str) -> str:
    r"""Text as a code span in one Markdown table cell: its ``|`` escaped (GitHub splits a cell there even inside
    code), fenced by more backticks than it holds (an id with a backtick closed its span: a probe).

    >>> _code_cell("a|b"), _code_cell("x`y")
    ('`a\\|b`', '`` x`y ``')
    """
    text = _cell(text)
    run = max((len(m) for m in re.findall("`+", text)), default=0)
    fence = "`" * (run + 1)
    return f"{fence} {text} {fence}" if run else f"{fence}{text}{fence}"


def _cell(text: str) -> str:
    r"""Text as one Markdown table cell: a ``|`` (an absolute value, |C(α, i)|) escaped, lines joined.

    >>> _cell("adds |C(α, i)|")
    'adds \\|C(α, i)\\|'
    """
    return " ".join(text.replace("|", r"\|").splitlines())


def report_json(report: Report) -> dict:
    """The report as JSON-ready data: counts, and each claim with its steps' status, evidence and counterexample."""
    def step(s: Step) -> dict:
        found = next((e for e in s.evidence if isinstance(e, Counterexample)), None)
        sample = next((e for e in s.evidence if isinstance(e, Sampled)), None)
        return {"status": s.status.value, "method": step_summary(s) if found is None else evidence_text(found),
                "detail": _sides_text(found) if found is not None else "",
                "evidence": [evidence_text(e) for e in s.evidence],
                "proof": next((e.method for e in s.evidence if isinstance(e, Proof)), None),
                "points": sample.points if sample is not None else found.points if found is not None else 0,
                "error": next((e.error for e in s.evidence if isinstance(e, Failure)), None),
                "counterexample": None if found is None else {str(k): str(v) for k, v in found.point},
                "values": None if found is None else {"lhs": str(found.lhs), "rhs": str(found.rhs),
                                                      "relation": found.relation.value}}

    return {
        "ok": report.ok,
        "seconds": round(report.seconds, 3),
        "counts": report.counts(),
        "claims": [{
            "id": r.claim.id, "title": r.claim.title, "source": r.claim.source,
            "statement": r.claim.statement, "status": r.verdict.value,
            "expected": r.claim.expected.value, "ok": r.ok, "seconds": round(r.seconds, 3),
            "steps": [step(s) for s in r.steps],
            "note": r.claim.note,
        } for r in report.results],
        "load_failures": [{"path": str(f.path), "problem": f.problem} for f in report.failures],
    }


def why_not_proved(r: ClaimResult) -> str:
    """Why a claim stopped short of "proved": its first weak step's kind, and the author's note."""
    if r.verdict is Status.PROVED:
        return ""
    if r.verdict is Status.REFUTED:
        cx = next((s.counterexample for s in r.steps if s.counterexample is not None), None)
        # In a Markdown table cell, where a | would end the cell.
        return "false as stated" + (f": counterexample {point_text(cx).replace('|', '/')}" if cx else "")
    i, step = next((i, s) for i, s in enumerate(r.steps, 1) if s.status is not Status.PROVED)
    if isinstance(step, Holds):
        kind = f"step {i} is a numeric statement (laws, events or mechanisms: no SymPy form to prove)"
    else:
        kind = f"step {i}: SymPy's rules did not reach a proof"
    note = _first_sentence(r.claim.note)
    return f"{kind}. {note}" if note else kind + "."


def _first_sentence(prose: str) -> str:
    prose = " ".join(prose.split())
    for m in re.finditer(r"\. (?=[A-Z(])", prose):
        if not re.search(r"\b(e\.g|i\.e|cf|vs|al|Prop|Thm|Def|Cor|Sec|l)$", prose[: m.start()]):
            return prose[: m.start() + 1].replace("|", "/")
    return prose.replace("|", "/")


def _clip(line: str, width: int) -> str:
    return line if len(line) <= width else line[: width - 1] + "…"


# --------------------------------------------------------------------------- typesetting, before any work


def check_typesetting(claims: list[Claim]) -> None:
    """Every string a claim's LaTeX report prints must typeset: a :class:`ClaimError` naming the first that
    does not, before any claim is checked (``rdpsym check --latex`` calls this first)."""
    for claim in claims:
        maths = {"statement", *(f"hypothesis {i + 1}" for i in range(len(claim.hypotheses))),
                 *(f"step {i}'s latex" for i in range(1, len(claim.steps) + 1))}
        for where, value in claim.strings().items():
            try:
                (math if where in maths else reason_latex)(value)
                spans = [value] if where in maths else value.split("$")[1::2] if value.count("$") % 2 == 0 else []
                for span in spans:
                    # (an empty $$ is display math to TeX, and a script with nothing after it, $^$, is missing its
                    # argument: both passed here and failed pdflatex after every claim was checked; a probe)
                    if not span.strip() or span.rstrip().endswith(("^", "_")):
                        raise NoLatexForm(f"the math ${span}$ is empty or ends with a script that has no argument")
                    check_math(math(span), aligned=where.endswith("latex"))
            except NoLatexForm as exc:
                raise ClaimError(f"claim {claim.id}: its {where}: {exc}") from None
