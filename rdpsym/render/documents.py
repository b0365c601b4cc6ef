"""Standalone LaTeX documents (amsmath) and building them into PDFs with pdflatex.

A document is a string that compiles on its own with a stock TeX Live
(``texlive-latex-base`` + ``texlive-latex-recommended`` on Debian):
``article``, ``inputenc``/``fontenc``/``lmodern``, ``amsmath``/``amssymb``,
``geometry``.  Each derivation step is printed with its reason and the paper
item it uses, in the typography of :mod:`rdpsym.printing`.

>>> import rdpsym
>>> tex = derivation_document(rdpsym.gaussian(sigma=2).rdp(), title="Gaussian mechanism")
>>> tex.startswith("\\\\documentclass") and tex.rstrip().endswith("\\\\end{document}")
True
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import warnings
from pathlib import Path

import mpmath
import sympy as sp

from rdpsym.foundations.errors import RdpSymError
from rdpsym.render.latex import paper_latex, reason_latex, text

#: Lines longer than this (characters of LaTeX) are broken at their top-level + signs.
_BREAK_AT = 110


class LatexError(RdpSymError, RuntimeError):
    """pdflatex is missing or the document did not compile (the message quotes the log)."""


class LatexLayoutWarning(UserWarning):
    """A compiled document has lines that run past the right margin (TeX's overfull boxes)."""


#: Lines wider than the text by more than this many TeX points are reported; below it the eye cannot tell.
OVERFULL_TOLERANCE_PT = 2.0


def preamble(title: str, subtitle: str = "") -> str:
    """The document head: packages, title (plain text) and ``\\begin{document}``."""
    sub = rf"\\ \large {text(subtitle)}" if subtitle else ""
    return rf"""\documentclass[11pt]{{article}}
\usepackage[utf8]{{inputenc}}
\usepackage[T1]{{fontenc}}
\usepackage{{lmodern}}
\usepackage{{amsmath,amssymb}}
\usepackage[margin=2.2cm]{{geometry}}
\let\epsilon\varepsilon % one epsilon: rdpsym prints ε as \varepsilon, claim authors often write \epsilon
\allowdisplaybreaks
\title{{{text(title)}{sub}}}
\author{{derived and checked by rdpsym}}
\date{{}}
\begin{{document}}
\maketitle
"""


def _broken(expr: object, settings: dict) -> str:
    """``expr`` printed, with a long top-level sum broken into aligned lines."""
    tex = paper_latex(expr, **settings)
    if not isinstance(expr, sp.Add) or len(tex) <= _BREAK_AT:
        return tex
    terms = expr.args if expr.has(sp.Integral, sp.Sum) else expr.as_ordered_terms()  # split pieces: left to right
    lines = []
    for i, term in enumerate(terms):
        if i and term.could_extract_minus_sign():
            lines.append("- " + paper_latex(-term, **settings))
        else:
            lines.append(("+ " if i else "") + paper_latex(term, **settings))
    return r" \\ &\qquad ".join(lines)


def derivation_body(d, symbol_names: dict | None = None) -> str:
    """The derivation as one ``align*`` chain: each step's reason as ``\\intertext``, then its equation.

    A step whose left side repeats the previous one continues the chain (``&= ...``),
    as derivations are written in papers.
    """
    settings = {"symbol_names": symbol_names or {}}
    rows, previous, last_reason = [], (None, None), None
    for step in d.steps:
        lhs = paper_latex(step.lhs, **settings)
        rhs = _broken(step.rhs, settings) if not isinstance(step.rhs, mpmath.mpf) else mpmath.nstr(step.rhs, 30)
        rel = {"<=": r"\le", ">=": r"\ge"}.get(step.relation, step.relation)
        reason = reason_latex(step.reason)
        if (lhs, rhs) == previous:
            if step is d.steps[-1]:
                # The published formula, printed as derived: say so rather than repeat the line.
                rows.append(rf"\intertext{{This is the published formula ({reason}).}}")
            continue  # a step that changes nothing (the sum of a single piece)
        if reason != last_reason:
            rows.append(rf"\intertext{{{_sentence(reason)}}}")
        if lhs == previous[1]:
            # The step rewrites the expression just displayed: continue the chain (= ...) rather
            # than print it again as a left side, which would make the display twice as wide.
            rows.append(rf"&{rel} {rhs} \\")
            previous, last_reason = (previous[0], rhs), reason
            continue
        rows.append(rf"{'' if lhs == previous[0] else lhs} &{rel} {rhs} \\")
        previous, last_reason = (lhs, rhs), reason
    closing = ""
    if rows and rows[-1].startswith(r"\intertext"):
        # A closing remark is a sentence after the display, not an \intertext with no line below.
        closing = "\\noindent " + rows.pop()[len(r"\intertext{"):-1] + "\n"
    if rows:
        rows[-1] = rows[-1].removesuffix(r" \\")
    return "\\begin{align*}\n" + "\n".join(rows) + "\n\\end{align*}\n" + closing


def _sentence(reason: str) -> str:
    reason = reason.strip()
    if not reason:
        return ""
    return reason[0].upper() + reason[1:] + ("" if reason.endswith((".", ":")) else ":")


def derivation_document(d, title: str, setting: str = "", symbol_names: dict | None = None,
                        value: tuple | None = None) -> str:
    """A standalone document: setting, the derivation step by step, the result, its status and evidence.

    ``setting`` is LaTeX (a paragraph on the mechanism and its parameters);
    ``symbol_names`` maps symbols to the paper's LaTeX names (Laplace's scale
    ``b`` is the paper's ``\\lambda``); ``value`` is ``(point, number, dps)``,
    the result evaluated at given parameters, printed after it.
    """
    settings = {"symbol_names": symbol_names or {}}
    order = r"\infty" if d.order is sp.oo else paper_latex(d.order)
    shown = "∞" if d.order is sp.oo else "α" if d.order.is_Symbol else sp.sstr(d.order)
    parts = [preamble(title, f"Rényi divergence at order {shown}")]
    parts.append("\\section*{Setting}\n" + (setting + "\n\n" if setting else ""))
    if d.hypotheses:
        parts.append("Hypotheses: $" + "$, $".join(paper_latex(h, **settings) for h in d.hypotheses) + "$.\n")
    parts.append("\\section*{Derivation}\n" + derivation_body(d, symbol_names))
    parts.append("\\section*{Result}\n")
    result = d.result if not isinstance(d.result, mpmath.mpf) else mpmath.nstr(d.result, 40)
    parts.append(rf"\[ D_{{{order}}}(P \,\|\, Q) = {paper_latex(result, **settings)} \]" + "\n")
    for c in d.conditions:
        parts.append(rf"valid when ${paper_latex(c, **settings)}$; otherwise the divergence is $\infty$.\\" + "\n")
    if value is not None:
        point, number, dps = value
        at = _point_latex(point, settings)
        shown = r"\infty" if mpmath.isinf(number) else mpmath.nstr(number, dps)
        parts.append(rf"At ${at}$, to {dps} significant digits (the closed form evaluated with mpmath):" + "\n"
                     + rf"\[ D_{{{order}}}(P \,\|\, Q) = {shown} \]" + "\n")
    parts.append(rf"\noindent\textbf{{Status: {text(str(d.status))}.}} " + _STATUS[str(d.status)] + "\n")
    parts.append("\\begin{itemize}\n" + "".join(rf"\item {_evidence(e, settings)}" + "\n" for e in d.evidence)
                 + "\\end{itemize}\n")
    for n in d.notes:
        parts.append(text(n) + "\n\n")
    parts.append(_SOURCES if d.reference is not None else _DEFINITION_SOURCE)
    parts.append("\\end{document}\n")
    return "".join(parts)


def _evidence(line: str, settings: dict) -> str:
    """An evidence line; a check against the definition names its point in the document's notation."""
    point = getattr(line, "point", None)
    if not point:
        return text(line)
    ordered = dict(sorted(point.items(), key=lambda kv: kv[0].name))
    return text(f"agrees with the definition {line.how} at ") + f"${_point_latex(ordered, settings)}$"


def _point_latex(point: dict, settings: dict) -> str:
    """``\\lambda = \\frac{1}{2}, \\alpha = 2``: parameter values in the document's symbol names."""
    return ", ".join(f"{paper_latex(s, **settings)} = {paper_latex(v)}" for s, v in point.items())


_TITLES = {"gaussian": "The Gaussian mechanism", "laplace": "The Laplace mechanism",
           "randomized-response": "Randomized response"}


def mechanism_document(mechanism, d, value: tuple | None = None) -> str:
    """:func:`derivation_document` for a built-in mechanism, in the paper's notation.

    The setting names the mechanism, its worst-case pair (the proposition that
    gives it) and any parameter given a value; Laplace's scale is printed as
    the paper's λ when the sensitivity is 1 (Proposition 6).
    """
    params = mechanism.parameters
    names = {}
    if mechanism.name == "laplace" and params.get("sensitivity") == 1 and isinstance(params["scale"], sp.Symbol):
        names[params["scale"]] = r"\lambda"
    tex = {k: paper_latex(v, symbol_names=names) for k, v in params.items()}

    def named(name: str, latex_name: str) -> str:
        """``\\sigma = 2`` for a parameter with a value, plain ``\\sigma`` for the symbol itself (not σ = σ)."""
        return latex_name if tex[name] == latex_name else f"{latex_name} = {tex[name]}"

    if mechanism.name == "gaussian":
        sigma = named("sigma", r"\sigma")
        setting = (rf"The Gaussian mechanism $f(D) + \mathcal{{N}}(0, \sigma^2)$ for $f$ of $\ell_2$-sensitivity "
                   rf"$\Delta = {tex['sensitivity']}$, with ${sigma}$. Its worst-case pair of output laws "
                   rf"is $P = \mathcal{{N}}(0, \sigma^2)$, $Q = \mathcal{{N}}(\Delta, \sigma^2)$ (Proposition 7).")
    elif mechanism.name == "laplace":
        lam = tex["scale"] if not names else r"\lambda"
        setting = (rf"The Laplace mechanism $f(D) + \Lambda(0, {lam})$ for $f$ of $\ell_1$-sensitivity "
                   rf"$\Delta = {tex['sensitivity']}$. Its worst-case pair of output laws is "
                   rf"$P = \Lambda(0, {lam})$, $Q = \Lambda(\Delta, {lam})$ (Proposition 6).")
    elif mechanism.name == "randomized-response":
        setting = (rf"Randomized response: report the true bit with probability ${named('p', 'p')}$. The two inputs' "
                   r"output laws are $P = (p, 1 - p)$ and $Q = (1 - p, p)$ (Proposition 5).")
    else:
        setting = text(mechanism.worst_case)
    return derivation_document(d, _TITLES.get(mechanism.name, mechanism.name), setting, names, value)


def table2_document(cells) -> str:
    """Mironov 2017 Table II as derived: each cell's formula, its status and the item it was proved equal to.

    Laid out as one ``align*`` per mechanism (the α > 1 forms are too wide for a
    tabular); the full derivation of any cell is ``rdpsym derive M --order O --latex F``.
    """
    parts = [preamble("Mironov 2017, Table II", "derived from the mechanisms' densities")]
    parts.append(
        "Each formula below was derived by rdpsym from the mechanism's pair of output laws (sensitivity 1), "
        "checked against independent quadrature or summation of Definition~3 to 40 digits, and proved "
        "symbolically equal to the paper's entry (equality of the moments "
        r"$\mathbb{E}_Q[(P/Q)^\alpha]$ for $\alpha > 1$)." + "\n")
    for mechanism in dict.fromkeys(c.mechanism for c in cells):
        parts.append(f"\\section*{{{text(mechanism)}}}\n\\begin{{align*}}\n")
        rows = []
        for c in (c for c in cells if c.mechanism == mechanism):
            d = c.derivation
            order = r"\infty" if d.order is sp.oo else paper_latex(d.order)
            cite = d.reference.citation(d.order).split(", ")[-1] if d.reference is not None else ""
            # The cell's status as an equation tag at the right margin (amsmath moves it below
            # the formula when the line is full), not as a column that widens every line.
            rows.append(rf"D_{{{order}}}(P \,\|\, Q) &= {paper_latex(d.result)} "
                        rf"\tag*{{{text(c.order_label)}; {text(str(d.status))}"
                        + (f" (= {text(cite)})" if cite else "") + "}")
        parts.append(" \\\\\n".join(rows) + "\n\\end{align*}\n")
    parts.append(_SOURCES)
    parts.append("\\end{document}\n")
    return "".join(parts)


_STATUS = {
    "proved": "The derived closed form is symbolically equal to the published formula cited in the last step, "
              "and agrees with independent quadrature (or summation) of the definition:",
    "checked": "No published formula was proved equal; the closed form agrees with independent quadrature "
               "(or summation) of the definition:",
    "numeric": "No closed form was found; the value is computed from the definition:",
}

_DEFINITION_SOURCE = r"""\section*{Sources}
I.~Mironov, \emph{R\'enyi Differential Privacy}, IEEE CSF 2017, arXiv:1702.07476v3:
Definition~3 (R\'enyi divergence and its limits $\alpha \to 1$, $\alpha \to \infty$).
"""

_SOURCES = r"""\section*{Sources}
I.~Mironov, \emph{R\'enyi Differential Privacy}, IEEE CSF 2017, arXiv:1702.07476v3:
Definition~3 (R\'enyi divergence and its limits $\alpha \to 1$, $\alpha \to \infty$),
Propositions~5--7 and Table~II (randomized response, Laplace and Gaussian mechanisms).
"""


def write_document(tex: str, path: Path | str, pdf: bool = False) -> list[Path]:
    """Write ``tex`` to ``path`` (and the PDF beside it when ``pdf``); return the files written."""
    path = Path(path)
    path.write_text(tex, encoding="utf-8")
    written = [path]
    if pdf:
        written.append(compile_pdf(path))
    return written


def pdflatex() -> str:
    """The pdflatex executable, or a :class:`LatexError` saying how to install it."""
    exe = shutil.which("pdflatex")
    if exe is None:
        raise LatexError("pdflatex is not installed (not on PATH), so no PDF was built; the .tex file was written. "
                         "Install TeX Live (Debian/Ubuntu: apt-get install texlive-latex-recommended "
                         "texlive-fonts-recommended lmodern) and run again, or compile the .tex yourself.")
    return exe


def compile_pdf(tex_path: Path | str, timeout: float = 120) -> Path:
    """Compile ``tex_path`` with pdflatex in a scratch folder; the PDF lands beside the .tex.

    Raises :class:`LatexError` with the first error of the log when pdflatex
    reports one (``-halt-on-error``: no half-built PDF is left behind).  A
    document with a table of contents gets the passes it needs (until the
    contents stop changing).  Lines
    that run past the right margin are reported as a :class:`LatexLayoutWarning`.
    """
    tex_path = Path(tex_path)
    exe = pdflatex()
    with tempfile.TemporaryDirectory(prefix="rdpsym-latex-") as tmp:
        shutil.copy(tex_path, Path(tmp) / "doc.tex")
        # A table of contents is read from the previous pass: rerun until it stops changing (the
        # first pass writes it, the second sets it and moves every page after it, the third
        # prints those pages' numbers).
        toc = Path(tmp) / "doc.toc"
        for _ in range(4):
            before = toc.read_bytes() if toc.exists() else None
            log = _run_pdflatex(exe, tex_path, Path(tmp), timeout)
            after = toc.read_bytes() if toc.exists() else None
            if before == after and "Rerun to get" not in log:
                break
        out = tex_path.with_suffix(".pdf")
        shutil.copy(Path(tmp) / "doc.pdf", out)
    wide = overfull_lines(log)
    if wide:
        source = tex_path.read_text(encoding="utf-8").splitlines()
        points, line = max(wide)
        shown = source[line - 1].strip()[:100] if 0 < line <= len(source) else ""
        warnings.warn(LatexLayoutWarning(
            f"{tex_path}: {len(wide)} line(s) run past the right margin, by up to {points:.0f} pt; "
            f"the widest comes from line {line}: {shown}"), stacklevel=2)
    return out


def _run_pdflatex(exe: str, tex_path: Path, folder: Path, timeout: float) -> str:
    try:
        done = subprocess.run([exe, "-interaction=nonstopmode", "-halt-on-error", "doc.tex"], cwd=folder,
                              capture_output=True, text=True, errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired:
        raise LatexError(f"pdflatex did not finish {tex_path} within {timeout:g} s") from None
    log = (folder / "doc.log").read_text(errors="replace") if (folder / "doc.log").exists() else done.stdout
    if done.returncode != 0 or not (folder / "doc.pdf").exists():
        raise LatexError(f"pdflatex failed on {tex_path}:\n{first_error(log)}")
    return log


_OVERFULL = re.compile(r"Overfull \\hbox \(([\d.]+)pt too wide\) (?:in paragraph at lines|in alignment at lines|"
                       r"detected at line) (\d+)")


def overfull_lines(log: str, tolerance: float = OVERFULL_TOLERANCE_PT) -> list[tuple[float, int]]:
    """``(points too wide, source line)`` of each line of a pdflatex log that sticks out by more than ``tolerance``.

    >>> overfull_lines("Overfull \\\\hbox (31.7pt too wide) in paragraph at lines 12--13")
    [(31.7, 12)]
    """
    return [(float(pt), int(line)) for pt, line in _OVERFULL.findall(log) if float(pt) > tolerance]


def first_error(log: str) -> str:
    """The first ``!`` error of a TeX log and the lines after it (where TeX shows the context)."""
    lines = log.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("!"):
            return "\n".join(lines[i:i + 6])
    return "\n".join(lines[-15:])
