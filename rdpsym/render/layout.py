"""Long displays broken into lines the way papers break them.

:func:`display_width` estimates how wide typeset math is, in characters
(calibrated on pdflatex's overfull-box reports: about 6.3 pt a character at
11 pt); :func:`fit` breaks a display too wide for its line into lines that
fit, and :func:`break_display` is the same for a display set on its own.

A display is broken at its outermost separators first — before an
implication, at a quad, after a comma, then before a logical ∨ or ∧ (a
condition's clauses), then before a relation sign, then before a binary + or
−, then between factors — and lines are filled
greedily.  Where a piece is still too wide and has no separator of its own,
the widest bracket ``\\left( … \\right)`` in it is *opened*: its delimiters
become sized ones (``\\biggl( … \\biggr)``, which, unlike ``\\left``/``\\right``,
may stand on different lines) and its inside is broken the same way, the
text before the bracket staying on the first line and the text after it on
the last.  A fraction whose numerator is too wide is first written
``\\frac{1}{den} \\left(num\\right)``; a ``cases`` block too wide for the
line gets its values broken inside it, and its conditions set on their own
rows when the two columns still do not fit (a long condition one clause a
row).  A matrix too wide to share a line is named in the display
(``\\mathbf{M}_{1}``) and defined on the lines after it, entry by entry
when it does not fit on a line either.

>>> fit(r"\\frac{1}{\\alpha - 1} \\log\\left(a + b + c + d\\right)", width=17)
['\\\\frac{1}{\\\\alpha - 1} \\\\log\\\\bigl( a + b + c', '{} + d \\\\bigr)']

The estimate is conservative rather than exact; the documents' compile test
(tests/test_documents.py) reads pdflatex's log and fails on any line that
still runs past the margin.
"""

from __future__ import annotations

import re

__all__ = ["DISPLAY_CHARACTERS", "INDENT", "break_display", "display_width", "fit"]

#: About how many characters of formula fit on a line of the documents' text width (11pt, 2.2 cm margins).
DISPLAY_CHARACTERS = 72

#: The width of the ``\qquad`` that indents a continuation line, in characters.
INDENT = 4

#: Where a long display may break, outermost level only: before an implication, at a quad, after a
#: comma followed by a space; and, where a line is still too wide, before a relation sign.
_LOOSE_BREAKS = re.compile(r"\\(?:implies|iff|Longrightarrow|Longleftrightarrow)(?![A-Za-z])|"
                           r"[,;:]?\\q?quad(?![A-Za-z])|"
                           r"[,;:]\\[ ;:,]")
#: Between the clauses of a condition: before a logical or / and (``a < b \vee c > d``), ahead of its relations.
_LOGIC_BREAKS = re.compile(r"\\(?:vee|wedge|lor|land)(?![A-Za-z])")
_RELATION_BREAKS = re.compile(r"(?<![<>:!\\])(?:=|<|>)(?!=)|\\(?:le|ge|leq|geq)(?![A-Za-z])")
#: Between the arguments of a function (``\max(a, b)``, as SymPy spaces them): after the comma.
_LIST_BREAKS = re.compile(r"(?<!\\),(?= )")
#: Inside one side of a relation: before a binary + or − (SymPy spaces them), then between factors.
_SUM_BREAKS = re.compile(r"(?<=\S) [+-] ")
_FACTOR_BREAKS = re.compile(r" (?=\\left|\\exp|\\log|\\operatorname|e\^)")
#: A factor break is taken only after a closing bracket or an exponent (``\\right)^{α}``, ``e^{x}``): between
#: two factors, never between a coefficient such as 1/(α − 1) and its logarithm.
_AFTER_BRACKET = re.compile(r"(\\right\s*(\\[A-Za-z]+|\\.|.)(\^(\{[^{}]*\}|\S))?|\^\{[^{}]*\})$")


_NAMED_OPERATORS = {r"\log", r"\exp", r"\max", r"\min", r"\sup", r"\inf", r"\lim", r"\sin", r"\cos", r"\tan",
                    r"\sinh", r"\cosh", r"\tanh", r"\Pr", r"\ln", r"\det", r"\arg"}
_RELATION_WORDS = {r"\le", r"\ge", r"\leq", r"\geq", r"\ne", r"\neq", r"\notin",
                   r"\vee", r"\wedge", r"\lor", r"\land", r"\approx", r"\sim", r"\in", r"\to", r"\iff",
                   r"\implies", r"\equiv", r"\mapsto", r"\subset", r"\subseteq", r"\Rightarrow", r"\Leftrightarrow"}
#: Sized delimiters: layout words of no width of their own.
_SIZES = r"big|Big|bigg|Bigg|bigl|Bigl|biggl|Biggl|bigr|Bigr|biggr|Biggr"


def display_width(latex: str) -> float:
    """A rough width of typeset math, in characters: what :func:`fit` compares to a line.

    Control words count as one character (``\\alpha``), layout words as none
    (``\\left``, ``\\text``), scripts as two thirds, a fraction as its wider half
    (and the null delimiters either side), a ``cases`` or ``aligned`` block as its
    widest row; ``\\left``/``\\right`` add a fifth of a character each (they grow
    around fractions), a display integral sign 1.6.  Checked against pdflatex's
    box widths: within about 15 % and mostly above, except big operators with
    limits (``\\sum_{k=0}^{\\infty}``), which it overestimates.

    >>> display_width(r"\\frac{\\alpha}{2\\sigma^{2}}")
    3.07
    """
    sized = len(re.findall(r"\\(?:" + _SIZES + r")(?![A-Za-z])", latex))  # a sized delimiter is wider than ( or )
    # \left/\right grow around fractions and scripts: a fifth of a character each, measured with pdflatex
    # (``\left(\frac{x}{b}\right)`` is 3.7 characters wide, not 3)
    grown = len(re.findall(r"\\(?:left|right)(?![A-Za-z])", latex))
    s = re.sub(r"\\(left|right|" + _SIZES + r"|mathrm|mathbf|mathcal|mathbb|text|textrm|"
               r"displaystyle|limits|nolimits|allowbreak|,|;|:|!)(?![A-Za-z])", "", latex)
    s = re.sub(r"\\q?quad\b", "  ", s)
    width = 0.0
    i = 0
    while i < len(s):
        block = re.match(r"\\begin\{(cases|aligned|array|matrix|pmatrix)\}(\[[a-z]\])?", s[i:])
        if block:
            inner, i = _environment(s, i + len(block.group()), block.group(1))
            rows = _split_top(inner, r"\\")
            width += max((sum(display_width(cell) + 1.5 for cell in _split_top(row, "&")) for row in rows),
                         default=0) + (1.5 if block.group(1) == "cases" else 0)
            continue
        frac = re.match(r"\\[dt]?frac(?![A-Za-z])", s[i:])
        if frac:
            num, i = _argument(s, i + len(frac.group()))
            den, i = _argument(s, i)
            width += max(display_width(num), display_width(den)) + 0.4  # and \nulldelimiterspace either side
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
            elif word in (r"\\", "\\&"):
                pass
            elif word in (r"\int", r"\oint", r"\iint"):
                width += 1.6  # a display-size integral sign and the space after it
            else:
                width += 1
            continue
        if ch in "=<>":
            width += 2.5
        elif ch in "+-" and s[:i].strip() and s[:i].strip()[-1] not in "{(&":
            width += 2  # a binary operator and its medium spaces
        elif ch not in "{} &":
            width += 1
        i += 1
    return round(width + sized / 2 + grown / 5, 2)


def _argument(s: str, i: int) -> tuple[str, int]:
    """The macro argument at ``s[i]`` (spaces skipped): a balanced ``{...}`` group's content, or one
    token (a control word or a character); and the index after it."""
    while s[i:i + 1] == " ":
        i += 1
    if s[i:i + 1] != "{":
        token = re.match(r"\\[A-Za-z]+|\\.|.|$", s[i:]).group()
        return token, i + len(token)
    depth, k = 0, i
    while k < len(s):
        if s[k] == "\\":
            k += 2  # an escaped brace or a control word's backslash
            continue
        depth += s[k] == "{"
        depth -= s[k] == "}"
        if depth == 0:
            return s[i + 1:k], k + 1
        k += 1
    return s[i + 1:], len(s)


def _environment(s: str, i: int, name: str) -> tuple[str, int]:
    """The body of an environment whose ``\\begin`` ends at ``i``, and the index after its ``\\end``."""
    depth, k = 1, i
    pattern = re.compile(r"\\(begin|end)\{" + re.escape(name) + r"\}")
    while True:
        m = pattern.search(s, k)
        if m is None:
            return s[i:], len(s)
        depth += 1 if m.group(1) == "begin" else -1
        if depth == 0:
            return s[i:m.start()], m.end()
        k = m.end()


def _split_top(s: str, separator: str) -> list[str]:
    """``s`` split at ``separator`` (``\\\\`` or ``&``) outside braces and environments."""
    out, depth, start, i = [], 0, 0, 0
    while i < len(s):
        if depth == 0 and s.startswith(separator, i):
            out.append(s[start:i])
            i += len(separator)
            start = i
            continue
        if s.startswith(r"\begin{", i):
            depth += 1
        elif s.startswith(r"\end{", i):
            depth -= 1
        elif s[i] == "\\":
            i += 2  # \&, \{, a control word's backslash
            continue
        depth += s[i] == "{"
        depth -= s[i] == "}"
        i += 1
    out.append(s[start:])
    return out


def break_display(latex: str, width: float = DISPLAY_CHARACTERS) -> list[str]:
    """A display too wide for one line, broken into lines (each at most ``width`` where it can be).

    Breaks go before an implication, at a quad (which goes), after a comma
    followed by a space (the space goes); a line still too wide is broken
    before a relation sign, then before a binary + or −, then between
    factors, then inside its widest bracket.  Lines are filled greedily.  A
    display that already breaks its lines (``\\\\``), or fits, comes back whole.

    >>> break_display(r"x = 1,\\ y = 2", width=8)
    ['x = 1,', 'y = 2']
    >>> break_display(r"a + b + c = d \\implies e", width=8)
    ['a + b + c', '= d', '\\\\implies e']
    >>> break_display(r"a_{1} < a_{2} \\vee b_{1} < b_{2} \\vee c_{1} < c_{2}", width=12)
    ['a_{1} < a_{2}', '\\\\vee b_{1} < b_{2}', '\\\\vee c_{1} < c_{2}']
    """
    if r"\\" in latex:
        return [latex]
    return fit(latex, width, width)


def fit(latex: str, width: float = DISPLAY_CHARACTERS, rest: float | None = None) -> list[str]:
    """``latex`` as lines: the first at most ``width`` characters wide, the others at most ``rest``
    (default ``width − INDENT``: continuation lines are set after a ``\\qquad``).

    A line that starts with a binary + or − gets an empty group before it
    (``{} + x``) so that TeX spaces the sign as binary at the start of a line.
    Where no break makes a piece fit, it is left whole (the compile test
    reports it).
    """
    rest = width - INDENT if rest is None else rest
    latex, definitions = _name_matrices(latex.strip(), rest)
    lines = _fit(latex, width, rest)
    for name, body in definitions:
        lines += _matrix_definition(name, body, rest)
    return [("{} " + line) if i and line[:1] in "+-" else line for i, line in enumerate(lines)]


#: A matrix as the printer writes it (SymPy's ``\left[\begin{matrix} … \end{matrix}\right]``) or bare.
_MATRIX = re.compile(r"(\\left\s*[\[(]\s*)?\\begin\{([pbvV]?matrix)\}")


def _name_matrices(latex: str, rest: float) -> tuple[str, list[tuple[str, str]]]:
    r"""``latex`` with each matrix too wide to share a line (wider than half of one) replaced by a name
    ``\mathbf{M}_{k}``, and the (name, matrix) pairs, to be defined on lines of their own after the
    display ("where M₁ = …"): a matrix cannot break across lines, and a wide one pushed everything
    around it past the margin.

    >>> wide = r"\left[\begin{matrix}a + b + c + d & e\\f & g\end{matrix}\right]"
    >>> for line in fit(r"x + " + wide, width=16):
    ...     print(line)
    x + \mathbf{M}_{1}
    \text{where the } 2 \times 2 \text{ matrix } \mathbf{M}_{1} \text{ has the entries}
    \left(\mathbf{M}_{1}\right)_{11} = a + b
    {} + c + d
    \left(\mathbf{M}_{1}\right)_{12} = e
    \left(\mathbf{M}_{1}\right)_{21} = f
    \left(\mathbf{M}_{1}\right)_{22} = g
    """
    if display_width(latex) <= rest:
        return latex, []
    out, definitions, i = [], [], 0
    while True:
        m = _MATRIX.search(latex, i)
        if m is None:
            out.append(latex[i:])
            return "".join(out), definitions
        body, end = _environment(latex, m.end(), m.group(2))
        whole_end = end
        if m.group(1):
            closing = re.match(r"\s*\\right\s*[\])]", latex[end:])
            whole_end = end + closing.end() if closing else end
        matrix = latex[m.start():whole_end]
        if display_width(matrix) > rest / 2:
            name = rf"\mathbf{{M}}_{{{len(definitions) + 1}}}"
            out.append(latex[i:m.start()] + name)
            definitions.append((name, matrix))
        else:
            out.append(latex[i:whole_end])
        i = whole_end


def _matrix_definition(name: str, matrix: str, rest: float) -> list[str]:
    """Lines defining a named matrix: ``where M = [...]`` when it fits on a line, else its entries one a
    line (``(M)_{ij} = …``, each broken if it must be)."""
    line = rf"\text{{where }} {name} = {matrix}"
    if display_width(line) <= rest:
        return [line]
    m = _MATRIX.search(matrix)
    body, _ = _environment(matrix, m.end(), m.group(2))
    rows = [_split_top(row, "&") for row in _split_top(body, r"\\") if row.strip()]
    shape = rf"{len(rows)} \times {max(len(r) for r in rows)}"
    lines = [rf"\text{{where the }} {shape} \text{{ matrix }} {name} \text{{ has the entries}}"]
    for r, cells in enumerate(rows, 1):
        for c, cell in enumerate(cells, 1):
            entry = rf"\left({name}\right)_{{{r}{c}}} = {cell.strip()}"
            lines += _fit(entry, rest, rest - INDENT)
    return lines


def _fits(latex: str, width: float) -> bool:
    return display_width(latex) <= width


def _fit(s: str, width: float, rest: float, depth: int = 0) -> list[str]:
    if _fits(s, width) or depth > 12:
        return [s]
    for level in (_LOOSE_BREAKS, _LOGIC_BREAKS, _RELATION_BREAKS, _LIST_BREAKS, _SUM_BREAKS, _FACTOR_BREAKS):
        pieces = _outer_pieces(s, level)
        if level is _FACTOR_BREAKS:
            pieces = _between_brackets(pieces)
        if len(pieces) > 1:
            return _fill(pieces, width, rest, depth, factors=level is _FACTOR_BREAKS)
    for opener in (_open_cases, _open_fraction, _open_bracket):
        lines = opener(s, width, rest, depth)
        if lines is not None:
            return lines
    return [s]


def _fill(pieces: list[tuple[str, str]], width: float, rest: float, depth: int, factors: bool = False) -> list[str]:
    """Greedy lines from (separator, piece) pairs: a comma stays at the end of a line, a quad goes, an
    implication, a relation or a sign starts the next line (a factor break starts it with ``\\times``).
    A piece too wide for a line of its own is broken further."""
    lines: list[str] = []
    current = ""
    for separator, piece in pieces:
        limit = width if not lines else rest
        candidate = current + separator + piece
        if not current.strip() or _fits(candidate, limit):
            current = candidate
            continue
        punctuation = separator[:1] if separator[:1] in ",;:" else ""
        lines.append(current.rstrip() + punctuation)
        lead = "" if punctuation or "quad" in separator else (r"\times " if factors else separator.strip() + " ")
        current = lead + piece.lstrip()
    lines.append(current.strip())
    out: list[str] = []
    for line in (line for line in lines if line):
        limit = width if not out else rest
        if _fits(line, limit):
            out.append(line)
        else:
            out.extend(_fit(line, limit, rest, depth + 1))
    return out


def _between_brackets(pieces: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Factor cuts kept only where the text before them ends with a closing bracket (``\\right)^{α}``)."""
    merged = [pieces[0]]
    for separator, piece in pieces[1:]:
        if _AFTER_BRACKET.search(merged[-1][1].rstrip()):
            merged.append((separator, piece))
        else:
            merged[-1] = (merged[-1][0], merged[-1][1] + separator + piece)
    return merged


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
        if latex.startswith(r"\begin{", i):
            depth += 1
        elif latex.startswith(r"\end{", i):
            depth -= 1
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
    return [(sep, piece) for sep, piece in pieces if piece.strip() or sep]


# ---------------------------------------------------------------------------------------------
# Opening a group: a bracket, a fraction, a cases block
# ---------------------------------------------------------------------------------------------

_LEFT = re.compile(r"\\left\s*(\\[A-Za-z]+|\\.|.)")
_RIGHT = re.compile(r"\\right\s*(\\[A-Za-z]+|\\.|.)")


def _top_brackets(s: str) -> list[tuple[int, int, int, int, str, str]]:
    """The outermost ``\\left … \\right`` pairs outside every brace group (a line may not break inside a
    macro's argument): (start, inner start, inner end, end, left, right)."""
    found, depth, braces, i, open_at = [], 0, 0, 0, None
    while i < len(s):
        m = _LEFT.match(s, i) if s.startswith(r"\left", i) else None
        if m and not s[i + 5:i + 6].isalpha():
            if depth == 0 and braces == 0:
                open_at = (i, m.end(), m.group(1))
            depth += 1
            i = m.end()
            continue
        m = _RIGHT.match(s, i) if s.startswith(r"\right", i) else None
        if m and not s[i + 6:i + 7].isalpha():
            depth -= 1
            if depth == 0 and braces == 0 and open_at is not None:
                found.append((open_at[0], open_at[1], i, m.end(), open_at[2], m.group(1)))
                open_at = None
            i = m.end()
            continue
        if s[i] == "\\":
            i += 2  # \{ and \} are delimiters, not groups
            continue
        braces += s[i] == "{"
        braces -= s[i] == "}"
        i += 1
    return found


#: Holds the place of the text after an opened bracket while its inside is fitted (one character wide each).
_STAND_IN = r"\rdpsymstandin"


def _size(inner: str) -> str:
    """The sized delimiter that matches what ``\\left``/``\\right`` would have chosen, about."""
    if re.search(r"\\(frac|sum|int|prod|begin)(?![A-Za-z])", inner):
        return "bigg"
    if "^" in inner or "_" in inner:
        return "Big"
    return "big"


def _open_bracket(s: str, width: float, rest: float, depth: int) -> list[str] | None:
    """Break inside the widest ``\\left … \\right`` bracket of ``s`` (its delimiters made sized)."""
    brackets = _top_brackets(s)
    if not brackets:
        return None
    start, inner_start, inner_end, end, left, right = max(brackets, key=lambda b: display_width(s[b[1]:b[2]]))
    inner = s[inner_start:inner_end].strip()
    size = _size(inner)
    head = s[:start] + rf"\{size}l{left} "
    tail = rf" \{size}r{right}" + s[end:]
    first = max(width - display_width(head), width / 3)
    # The text after the bracket goes on its last line: fit the inside with a stand-in as wide as it.
    stand_in = _STAND_IN * max(1, round(display_width(tail) + 0.5))
    inner_lines = _fit(inner + " " + stand_in, first, rest, depth + 1)
    inner_lines = [line.replace(stand_in, "").rstrip() for line in inner_lines]
    inner_lines = [line for line in inner_lines if line] or [""]
    if len(inner_lines) == 1:
        if inner_lines[0] == inner:
            return None  # nothing to gain: the inside does not break
        # the inside was rearranged on the spot (a cases block): the bracket stays \left … \right
        return [s[:start] + rf"\left{left} " + inner_lines[0] + rf" \right{right}" + s[end:]]
    lines = [head + inner_lines[0]] + inner_lines[1:-1] + [inner_lines[-1] + tail]
    return [("{} " + line) if i and line[:1] in "+-" else line for i, line in enumerate(lines)]


def _open_fraction(s: str, width: float, rest: float, depth: int) -> list[str] | None:
    """A fraction too wide for the line: a wide numerator written ``\\frac{1}{den} \\left(num\\right)``,
    a wide denominator ``num \\big/ \\left(den\\right)``, and then broken inside the bracket."""
    i = 0
    while True:
        m = re.compile(r"\\frac(?![A-Za-z])").search(s, i)
        if m is None:
            return None
        if _depth_at(s, m.start()) == 0:
            num, after_num = _argument(s, m.end())
            den, after = _argument(s, after_num)
            if display_width(num) > rest:
                rewritten = s[:m.start()] + rf"\frac{{1}}{{{den}}} \left({num}\right)" + s[after:]
                return _fit(rewritten, width, rest, depth + 1)
            if display_width(den) > rest:
                over = num if re.fullmatch(r"\s*(\\?[A-Za-z]+|\d+)(_\{?[^{}]*\}?)?\s*", num) else rf"\left({num}\right)"
                rewritten = s[:m.start()] + rf"{over} \Big/ \left({den}\right)" + s[after:]
                return _fit(rewritten, width, rest, depth + 1)
        i = m.end()


def _depth_at(s: str, index: int) -> int:
    depth, i = 0, 0
    while i < index:
        if s.startswith(r"\left", i) and not s[i + 5:i + 6].isalpha():
            depth += 1
            i += 5
            continue
        if s.startswith(r"\right", i) and not s[i + 6:i + 7].isalpha():
            depth -= 1
            i += 6
            continue
        if s[i] == "\\" and i + 1 < len(s) and s[i + 1] in "{}":
            i += 2
            continue
        depth += s[i] == "{"
        depth -= s[i] == "}"
        i += 1
    return depth


def _open_cases(s: str, width: float, rest: float, depth: int) -> list[str] | None:
    """A ``cases`` block too wide for the line: each value broken inside the block, and the conditions
    on rows of their own (indented under their value) when value and condition still do not fit side
    by side."""
    m = re.search(r"\\begin\{cases\}", s)
    if m is None or _depth_at(s, m.start()) != 0:
        return None
    body, end = _environment(s, m.end(), "cases")
    head, tail = s[:m.start()], s[end:]
    rows = [_split_top(row, "&") for row in _split_top(body, r"\\")]
    rows = [(cells[0].strip(), cells[1].strip() if len(cells) > 1 else "") for cells in rows if "".join(cells).strip()]
    room = width - display_width(head) - display_width(tail) - 2
    widest_condition = max((display_width(c) for _, c in rows), default=0)
    side_by_side = room - widest_condition - 2 >= room / 2
    value_room = room - widest_condition - 2 if side_by_side else room
    out_rows = []
    for value, condition in rows:
        lines = fit(value, value_room, value_room - INDENT) if value else [value]
        lines = [lines[0]] + [r"\quad " + line for line in lines[1:]]
        if side_by_side:
            out_rows += [f"{line} &" for line in lines[:-1]] + [f"{lines[-1]} & {condition}"]
        else:
            # a condition on rows of its own, indented under its value; a long one broken before its
            # clauses (\vee, \wedge), each further row indented once more
            clauses = fit(condition, room - INDENT, room - 2 * INDENT) if condition else []
            out_rows += [f"{line} &" for line in lines]
            out_rows += [(r"\qquad\quad " if i else r"\qquad ") + f"{clause} &" for i, clause in enumerate(clauses)]
    block = r"\begin{cases} " + r" \\ ".join(out_rows) + r" \end{cases}"
    return [head + block + tail]
