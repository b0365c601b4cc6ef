"""Long displays broken into lines the way papers break them.

:func:`display_width` estimates how wide typeset math is (calibrated on
pdflatex's overfull-box reports: about 6.3 pt per unit at 11 pt);
:func:`break_display` breaks a display too wide for the line at implications,
quads and commas, then before relation signs, then at a side's outermost sums
and factors.
"""

from __future__ import annotations

import re

__all__ = ["DISPLAY_CHARACTERS", "break_display", "display_width"]

#: About how many characters of formula fit on a line of the documents' text width (11pt, 2.2 cm margins).
DISPLAY_CHARACTERS = 72

#: Where a long display may break, outermost level only: before an implication, at a quad, after a
#: comma followed by a space; and, where a line is still too wide, before a relation sign.
_LOOSE_BREAKS = re.compile(r"\\(?:implies|iff|Longrightarrow|Longleftrightarrow)(?![A-Za-z])|"
                           r"[,;:]?\\q?quad(?![A-Za-z])|"
                           r"[,;:]\\[ ;:,]")
_RELATION_BREAKS = re.compile(r"(?<![<>:!\\])(?:=|<|>)(?!=)|\\(?:le|ge|leq|geq)(?![A-Za-z])")
#: Inside one side of a relation: before a binary + or − (SymPy spaces them), then between factors.
_SUM_BREAKS = re.compile(r"(?<=\S) [+-] ")
_FACTOR_BREAKS = re.compile(r"(?<=\)) (?=\\left)")


_NAMED_OPERATORS = {r"\log", r"\exp", r"\max", r"\min", r"\sup", r"\inf", r"\lim", r"\sin", r"\cos", r"\tan",
                    r"\sinh", r"\cosh", r"\tanh", r"\Pr", r"\ln", r"\det", r"\arg"}
_RELATION_WORDS = {r"\le", r"\ge", r"\leq", r"\geq", r"\ne", r"\approx", r"\sim", r"\in", r"\to", r"\iff",
                   r"\implies", r"\equiv", r"\mapsto", r"\subset", r"\subseteq", r"\Rightarrow", r"\Leftrightarrow"}


def display_width(latex: str) -> float:
    """A rough width of typeset math, in characters: what :func:`break_display` compares to a line.

    Control words count as one character (``\\alpha``), layout words as none
    (``\\left``, ``\\text``), scripts as two thirds, a fraction as its wider half.

    >>> display_width(r"\\frac{\\alpha}{2\\sigma^{2}}")
    2.67
    """
    s = re.sub(r"\\(left|right|big|Big|bigg|Bigg|mathrm|mathbf|mathcal|mathbb|text|textrm|"
               r"displaystyle|limits|nolimits|allowbreak|,|;|:|!)(?![A-Za-z])", "", latex)
    s = re.sub(r"\\q?quad\b", "  ", s)
    width = 0.0
    i = 0
    while i < len(s):
        frac = re.match(r"\\[dt]?frac(?![A-Za-z])", s[i:])
        if frac:
            num, i = _argument(s, i + len(frac.group()))
            den, i = _argument(s, i)
            width += max(display_width(num), display_width(den))
            continue
        ch = s[i]
        if ch in "^_":
            arg, i = _argument(s, i + 1)
            width += round(display_width(arg) * 2 / 3, 2)
            continue
        if ch == "\\":
            word = re.match(r"\\([A-Za-z]+|.?)", s[i:]).group()
            i += len(word)
            if word in _RELATION_WORDS:
                width += 2.5  # with the thick spaces around a relation
            elif word in _NAMED_OPERATORS:
                width += len(word) - 1 + 0.5
            elif word == r"\operatorname":
                name, i = _argument(s, i)
                width += len(name) + 0.5
            else:
                width += 1
            continue
        if ch in "=<>":
            width += 2.5
        elif ch in "+-" and s[:i].strip():
            width += 2  # a binary operator and its medium spaces
        elif ch not in "{} ":
            width += 1
        i += 1
    return round(width, 2)


def _argument(s: str, i: int) -> tuple[str, int]:
    """The macro argument at ``s[i]`` (spaces skipped): a balanced ``{...}`` group's content, or one
    token (a control word or a character); and the index after it."""
    while s[i:i + 1] == " ":
        i += 1
    if s[i:i + 1] != "{":
        token = re.match(r"\\[A-Za-z]+|\\.|.|$", s[i:]).group()
        return token, i + len(token)
    depth = 0
    for k in range(i, len(s)):
        depth += s[k] == "{"
        depth -= s[k] == "}"
        if depth == 0:
            return s[i + 1:k], k + 1
    return s[i + 1:], len(s)


def break_display(latex: str, width: float = DISPLAY_CHARACTERS) -> list[str]:
    """A display too wide for one line, broken into lines at its outermost separators.

    Breaks go before an implication, at a quad (which goes), after a comma
    followed by a space (the space goes); a line still too wide is broken
    before a relation sign, then before a binary + or −, then between
    factors.  Lines are filled greedily.  A display that already breaks its
    lines (``\\\\``), or fits, comes back whole.

    >>> break_display(r"x = 1,\\ y = 2", width=8)
    ['x = 1,', 'y = 2']
    >>> break_display(r"a + b + c = d \\implies e", width=8)
    ['a + b + c', '= d', '\\\\implies e']
    """
    if r"\\" in latex or display_width(latex) <= width:
        return [latex]
    lines = [latex]
    for level in (_LOOSE_BREAKS, _RELATION_BREAKS, _SUM_BREAKS, _FACTOR_BREAKS):
        lines = [part for line in lines
                 for part in ([line] if display_width(line) <= width else _fill(_outer_pieces(line, level), width))]
    return lines


def _fill(pieces: list[tuple[str, str]], width: float) -> list[str]:
    """Greedy lines from (separator, piece) pairs: a comma stays at the end of a line, a quad goes,
    an implication or a relation starts the next line."""
    lines: list[str] = []
    current = ""
    for separator, piece in pieces:
        candidate = current + separator + piece
        if current.strip() and display_width(candidate) > width:
            punctuation = separator[:1] if separator[:1] in ",;:" else ""
            lines.append(current.rstrip() + punctuation)
            current = ("" if punctuation or "quad" in separator else separator.strip() + " ") + piece.lstrip()
        else:
            current = candidate
    lines.append(current.strip())
    return [line for line in lines if line]


def _outer_pieces(latex: str, separators: re.Pattern) -> list[tuple[str, str]]:
    """``latex`` cut before each separator outside every group: [(separator, text up to the next one)]."""
    depth = 0
    cuts: list[tuple[int, int]] = []
    i = 0
    while i < len(latex):
        if latex.startswith(r"\left", i) and not latex[i + 5:i + 6].isalpha():
            depth += 1
            i += 5
            continue
        if latex.startswith(r"\right", i) and not latex[i + 6:i + 7].isalpha():
            depth -= 1
            i += 6
            continue
        ch = latex[i]
        if ch == "\\" and i + 1 < len(latex) and latex[i + 1] in "{}":
            i += 2
            continue
        if ch in "{([":
            depth += 1
        elif ch in "})]":
            depth -= 1
        elif depth == 0:
            m = separators.match(latex, i)
            if m:
                cuts.append((m.start(), m.end()))
                i = m.end()
                continue
        i += 1
    pieces = []
    start, sep = 0, ""
    for a, b in cuts:
        pieces.append((sep, latex[start:a]))
        sep, start = latex[a:b], b
    pieces.append((sep, latex[start:]))
    return pieces
