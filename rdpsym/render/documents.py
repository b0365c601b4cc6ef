"""Standalone LaTeX documents (amsmath): a derivation, a mechanism's derivation, Table II.

A document is a string that compiles on its own with a stock TeX Live
(``texlive-latex-base`` + ``texlive-latex-recommended`` on Debian):
``article``, ``inputenc``/``fontenc``/``lmodern``, ``amsmath``/``amssymb``,
``geometry``.  Each derivation step is printed with its reason and the paper
item it uses, in the typography of :mod:`rdpsym.render.latex`.

>>> import rdpsym
>>> tex = derivation_document(rdpsym.gaussian(sigma=2).rdp(), title="Gaussian mechanism")
>>> tex.startswith("\\\\documentclass") and tex.rstrip().endswith("\\\\end{document}")
True
"""

from __future__ import annotations

import mpmath
import sympy as sp

from rdpsym.derive.table2 import Cell
from rdpsym.foundations.errors import WrongType, must, quoted
from rdpsym.foundations.record import Status
from rdpsym.render.derivation import (
    derivation_body,
    display,
    infinite_because,
    of_both_directions,
    printing_settings,
    undefined_orders,
)
from rdpsym.render.latex import divergence_latex, paper_latex
from rdpsym.render.layout import break_display, display_width
from rdpsym.render.prose import text
from rdpsym.render.reasons import evidence_latex, rule_latex
from rdpsym.render.values import decimal_latex, number_latex


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
\setlength{{\emergencystretch}}{{3em}} % text with long unbreakable words (arXiv numbers): loose, not overfull
\title{{{text(title)}{sub}}}
\author{{derived and checked by rdpsym}}
\date{{}}
\begin{{document}}
\maketitle
"""


#: A condition wider than this (characters of typeset math) is displayed rather than set in the text.
_INLINE_CONDITION = 40


def derivation_document(d, title: str, setting: str = "", symbol_names: dict | None = None,
                        value: tuple | None = None) -> str:
    """A standalone document: setting, the derivation step by step, the result, its status and evidence.

    ``setting`` is LaTeX (a paragraph on the mechanism and its parameters);
    ``symbol_names`` maps symbols to the paper's LaTeX names (Laplace's scale
    ``b`` is the paper's ``\\lambda``); ``value`` is ``(point, number, dps)``,
    the result evaluated at given parameters, printed after it.
    """
    settings = printing_settings(d, symbol_names)
    both = of_both_directions(d)  # a mechanism's pair not known to dominate its reverse: the larger direction
    divergence = paper_latex(both, **settings) if both is not None else divergence_latex(d.order, **settings)
    # (an order symbol by its own name: one named a was called "order α" beside D_a; a review)
    shown = "∞" if d.order is sp.oo else ("α" if d.order.name == "alpha" else d.order.name) if d.order.is_Symbol \
        else sp.sstr(d.order)
    parts = [preamble(title, f"Rényi divergence at order {shown}")]
    parts.append("\\section*{Setting}\n" + (setting + "\n\n" if setting else ""))
    if d.hypotheses:
        parts.append("Hypotheses: $" + "$, $".join(paper_latex(h, **settings) for h in d.hypotheses) + "$.\n")
    parts.append("\\section*{Derivation}\n" + derivation_body(d, symbol_names))
    parts.append("\\section*{Result}\n")
    # (a numeric result's digits as math: "4.05…e-40" reads as a product with e there, "+inf" as i·n·f; a review)
    result = decimal_latex(mpmath.nstr(d.result, 40)) if isinstance(d.result, mpmath.mpf) else \
        paper_latex(d.result, **settings)
    parts.append(display(divergence, "=", result) + "\n")
    for z in undefined_orders(d):
        at = f"{paper_latex(d.order, **settings)} = {paper_latex(z)}"
        parts.append(rf"At ${at}$ a denominator of the formula is 0: the divergence there, continuous in its order, "
                     "is the formula's limit.\\\\\n")
    for c in d.conditions:
        condition = paper_latex(c, **settings)
        if display_width(condition) <= _INLINE_CONDITION:
            parts.append(rf"valid when ${condition}$; otherwise the divergence is $\infty$.\\" + "\n")
        else:  # a condition too long for the running text is displayed, and broken if it must be
            parts.append("valid when\n\\begin{gather*}\n" + " \\\\\n".join(break_display(condition))
                         + "\n\\end{gather*}\notherwise the divergence is $\\infty$.\\\\\n")
    if value is not None:
        point, number, dps = value
        at = _point_latex(point, settings)
        shown = decimal_latex(mpmath.nstr(number, dps))  # (1.0e-12 read as 1.0·e − 12 ≈ −9.3 there; a review)
        parts.append(rf"At ${at}$, to {dps} significant digits (the closed form evaluated with mpmath):" + "\n"
                     + rf"\[ {divergence} = {shown} \]" + "\n")
    parts.append(rf"\noindent\textbf{{Status: {text(str(d.status))}.}} " + _STATUS[d.status] + "\n")
    parts.append("\\begin{itemize}\n" + "".join(rf"\item {evidence_latex(e, symbol_names, settings)}" + "\n"
                                                 for e in d.evidence) + "\\end{itemize}\n")
    why = infinite_because(d)
    if why is not None:
        parts.append("Infinite: " + rule_latex(why, symbol_names, settings) + ".\n\n")
    parts.append(_SOURCES if d.reference is not None else _DEFINITION_SOURCE)
    parts.append("\\end{document}\n")
    return "".join(parts)


def _point_latex(point: dict, settings: dict) -> str:
    """``\\lambda = \\frac{1}{2}, \\alpha = 2``: parameter values in the document's symbol names."""
    # (a value as number_latex writes it: λ = 10²⁰⁰ was an integer of 201 digits, 650 pt past the margin; a review)
    shown = {s: number_latex(v) if isinstance(v, sp.Rational) and len(str(v)) > 20 else paper_latex(v)
             for s, v in point.items()}
    return ", ".join(f"{paper_latex(s, **settings)} = {v}" for s, v in shown.items())


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

    if "dimension" in params:  # a mechanism in d dimensions (rdpsym.laws.additive_noise)
        dim = named("dimension", "d")
        if mechanism.name == "gaussian":
            sigma = named("sigma", r"\sigma")
            setting = (rf"The Gaussian mechanism $f(D) + \mathcal{{N}}(0, \sigma^2 I_d)$ for "
                       rf"$f(D) \in \mathbb{{R}}^d$ of $\ell_2$-sensitivity $\Delta = {tex['sensitivity']}$, "
                       rf"with ${sigma}$ and "
                       rf"${dim}$. Adjacent inputs give the noise law and its shift by $v = f(D') - f(D)$, "
                       r"$\lVert v \rVert_2 \le \Delta$; the derivation finds the worst shift.")
        else:
            setting = (rf"The Laplace mechanism $f(D) + \Lambda(0, {tex['scale']})^{{\otimes d}}$ for "
                       rf"$f(D) \in \mathbb{{R}}^d$ of $\ell_1$-sensitivity $\Delta = {tex['sensitivity']}$, "
                       rf"with ${dim}$. "
                       r"Adjacent inputs give the noise law and its shift by $v = f(D') - f(D)$, "
                       r"$\lVert v \rVert_1 \le \Delta$; the derivation finds the worst shift.")
        return derivation_document(d, _TITLES.get(mechanism.name, mechanism.name), setting, names, value)
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
            cite = d.reference.citation(d.order).item if d.reference is not None else ""
            # The cell's status as an equation tag at the right margin (amsmath moves it below
            # the formula when the line is full), not as a column that widens every line.
            rows.append(rf"{divergence_latex(d.order)} &= {paper_latex(d.result)} "
                        rf"\tag*{{{text(c.order_label)}; {text(str(d.status))}"
                        + (f" (= {text(cite)})" if cite else "") + "}")
        parts.append(" \\\\\n".join(rows) + "\n\\end{align*}\n")
    parts.append(_SOURCES)
    parts.append("\\end{document}\n")
    return "".join(parts)


_STATUS = {
    Status.PROVED: "The derived closed form is symbolically equal to the published formula cited in the last step, "
              "and agrees with independent quadrature (or summation) of the definition:",
    Status.CHECKED: "No published formula was proved equal; the closed form agrees with independent quadrature "
               "(or summation) of the definition:",
    Status.NUMERIC: "No closed form was found; the value is computed from the definition:",
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


def _table_math(latex: str) -> str:
    r"""LaTeX math that can stand in a Markdown table cell: every ``|`` spelled ``\vert`` (``\|`` as ``\Vert``).

    A bare ``|`` ends the cell for GitHub's and nbconvert's table parsers, and escaping it as ``\|`` inside
    math typesets a norm in Jupyter: the randomized response's D_∞ = |log(p/(1 − p))| turned notebook 02's
    whole Table II into plain text.

    >>> print(_table_math(r"\left|{\log x}\right| + \|v\|"))
    \left\vert {\log x}\right\vert  + \Vert v\Vert
    """
    return latex.replace(r"\|", r"\Vert ").replace("|", r"\vert ")


def table2_markdown(cells: list[Cell]) -> str:
    """The cells as a Markdown table laid out like the paper's (a row per mechanism, a column per
    order), each entry in the paper's notation followed by its status; for Jupyter and READMEs."""
    if not isinstance(cells, (list, tuple)) or not all(isinstance(c, Cell) for c in cells):
        raise WrongType(must("cells", "a list of Table II cells (rdpsym.table2())", quoted(cells)))
    orders = list(dict.fromkeys(c.order_label for c in cells))
    entry = {(c.mechanism, c.order_label): c.derivation for c in cells}
    rows = ["| mechanism | " + " | ".join(orders) + " |", "|---" * (len(orders) + 1) + "|"]
    for name in dict.fromkeys(c.mechanism for c in cells):
        shown = (f"${_table_math(paper_latex(d.result))}$ ({d.status})" if (d := entry.get((name, o))) else ""
                 for o in orders)
        rows.append(f"| {name} | " + " | ".join(shown) + " |")
    return "\n".join(rows)
