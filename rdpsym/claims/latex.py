"""A standalone LaTeX report of checked claims (amsmath), for ``rdpsym check --latex``."""

from __future__ import annotations

import unicodedata

import sympy as sp

from .claim import Holds, Step, _RELATIONS
from .runner import Report

_PREAMBLE = r"""\documentclass[11pt]{article}
\usepackage[utf8]{inputenc}
\usepackage[T1]{fontenc}
\usepackage{amsmath,amssymb}
\usepackage[margin=2.5cm]{geometry}
\allowdisplaybreaks
\title{rdpsym: claims checked}
\date{}
\begin{document}
\maketitle
"""

_ESCAPES = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
            "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}

#: Unicode that appears in reasons and evidence, and its LaTeX.
_UNICODE = {"α": r"$\alpha$", "β": r"$\beta$", "ε": r"$\varepsilon$", "δ": r"$\delta$", "σ": r"$\sigma$",
            "λ": r"$\lambda$", "ρ": r"$\rho$", "ξ": r"$\xi$", "Δ": r"$\Delta$", "μ": r"$\mu$", "∞": r"$\infty$",
            "≤": r"$\le$", "≥": r"$\ge$", "→": r"$\to$", "⇒": r"$\Rightarrow$", "⇔": r"$\Leftrightarrow$",
            "‖": r"$\|$", "−": "-", "·": r"$\cdot$", "…": r"\dots{}", "√": r"$\surd$", "≠": r"$\ne$",
            "⁺": r"$^+$", "²": r"$^2$", "∑": r"$\sum$", "∈": r"$\in$", "×": r"$\times$", "⋈": "rel",
            "’": "'", "“": "``", "”": "''", "–": "--", "—": "---", "≈": r"$\approx$", "∘": r"$\circ$"}


_SUB = dict(zip("₀₁₂₃₄₅₆₇₈₉", "0123456789"))
_SUP = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+"))
_MATH = {"≪": r"\ll", "≫": r"\gg", "⟹": r"\Longrightarrow", "⟸": r"\Longleftarrow", "≡": r"\equiv",
         "∀": r"\forall", "∃": r"\exists", "∫": r"\int", "∂": r"\partial", "⊂": r"\subset", "⊆": r"\subseteq",
         "∪": r"\cup", "∩": r"\cap", "±": r"\pm", "∼": r"\sim", "∝": r"\propto", "⌈": r"\lceil", "⌉": r"\rceil",
         "⌊": r"\lfloor", "⌋": r"\rfloor", "‹": "<", "›": ">", "∉": r"\notin", "↦": r"\mapsto", "′": "'"}


#: Greek capitals with a TeX macro; the others look like Latin letters.
_GREEK_CAPITALS = {"gamma", "delta", "theta", "lambda", "xi", "pi", "sigma", "upsilon", "phi", "psi", "omega"}
_LATIN_LOOKALIKE = {"alpha": "A", "beta": "B", "epsilon": "E", "zeta": "Z", "eta": "H", "iota": "I", "kappa": "K",
                    "mu": "M", "nu": "N", "omicron": "O", "rho": "P", "tau": "T", "chi": "X"}


def _symbol(ch: str) -> str | None:
    """A math-mode macro for a Unicode symbol (Greek letters by their names), or None."""
    if ch in _MATH:
        return _MATH[ch]
    if ch in _UNICODE and _UNICODE[ch].startswith("$"):
        return _UNICODE[ch].strip("$")
    name = unicodedata.name(ch, "")
    if name.startswith(("GREEK SMALL LETTER ", "GREEK CAPITAL LETTER ")):
        letter = name.split("LETTER ")[1].lower().replace("lamda", "lambda")
        if name.startswith("GREEK SMALL"):
            return {"final sigma": "\\varsigma", "omicron": "o"}.get(letter, "\\" + letter)
        if letter in _GREEK_CAPITALS:
            return "\\" + letter.capitalize()
        return _LATIN_LOOKALIKE.get(letter)
    if ch in _SUB:
        return "_" + _SUB[ch]
    if ch in _SUP:
        return "^" + _SUP[ch]
    return None


def text(s: str) -> str:
    """Escape plain text for LaTeX, mapping the Greek and symbols rdpsym uses."""
    out = []
    for ch in s:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ch in _UNICODE:
            out.append(_UNICODE[ch])
        elif ord(ch) < 128 or unicodedata.category(ch).startswith("L") and ord(ch) < 0x250:
            out.append(ch)  # ASCII, and accented Latin letters (T1 + utf8 inputenc set them)
        else:
            macro = _symbol(ch)
            out.append(f"${macro}$" if macro else "?")
    return "".join(out)


def math(s: str) -> str:
    """Author-written LaTeX math, with stray Unicode symbols replaced by their macros."""
    out = []
    for ch in s:
        macro = _symbol(ch) if ord(ch) >= 128 else None
        out.append(f"{{{macro}}}" if macro and not macro.startswith(("_", "^")) else macro or
                   (ch if ord(ch) < 128 else "?"))
    return "".join(out)


def report_latex(report: Report) -> str:
    parts = [_PREAMBLE]
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
            if isinstance(step, Step) and res.lhs is not None:
                rel = _RELATIONS[step.relation]
                rows.append(f"{sp.latex(res.lhs)} &{rel} {sp.latex(res.rhs)}"
                            f" && \\text{{{text(step.reason)}; {text(str(res.verdict))}}}")
            else:
                body = step.latex if isinstance(step, Holds) and step.latex else f"\\text{{{text(getattr(step, 'describe', ''))}}}"
                rows.append(f"&{body} && \\text{{{text(step.reason)}; {text(str(res.verdict))}}}")
        parts.append("\\begin{align*}\n" + " \\\\\n".join(rows) + "\n\\end{align*}\n")
        parts.append("\\paragraph{Evidence.} " + text(r.evidence) + "\n")
        if cl.note:
            parts.append("\\paragraph{Note.} " + text(cl.note) + "\n")
    for f in report.failures:
        parts.append(f"\\section*{{Load error: {text(f.path.name)}}}\n{text(f.problem)}\n")
    parts.append("\\end{document}\n")
    return "".join(parts)
