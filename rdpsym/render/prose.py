"""Prose and terminal-style math typeset as LaTeX: the words of reasons, titles and notes.

Claim authors and rdpsym itself write reasons in plain Unicode prose in which
``$...$`` spans are LaTeX math, and terminal-style math (``D_α``,
``E_Q[(P/Q)^α]``, ``e^{(α−1)ε}``, ``10⁻³⁰``) may appear outside them.
:func:`text` escapes prose for LaTeX and typesets that terminal-style math as
TeX reads it; :func:`math` typesets a string that is math throughout;
:func:`reason_latex` does both for a reason with ``$...$`` spans.  A character
with no LaTeX form raises :class:`~rdpsym.foundations.errors.NoLatexForm`
naming it, so a report never prints a ``?``.
"""

from __future__ import annotations

import re
import unicodedata

from rdpsym.foundations.errors import NoLatexForm

__all__ = ["math", "reason_latex", "text"]

_ESCAPES = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
            "{": r"\{", "}": r"\}", "~": r"$\sim$", "^": r"\textasciicircum{}"}

#: Unicode that appears in reasons and evidence, and its LaTeX.
_UNICODE = {"α": r"$\alpha$", "β": r"$\beta$", "ε": r"$\varepsilon$", "δ": r"$\delta$", "σ": r"$\sigma$",
            "λ": r"$\lambda$", "ρ": r"$\rho$", "ξ": r"$\xi$", "Δ": r"$\Delta$", "μ": r"$\mu$", "∞": r"$\infty$",
            "≤": r"$\le$", "≥": r"$\ge$", "→": r"$\to$", "⇒": r"$\Rightarrow$", "⇔": r"$\Leftrightarrow$",
            "‖": r"$\|$", "−": r"$-$", "·": r"$\cdot$", "…": r"\dots{}", "√": r"$\surd$", "≠": r"$\ne$",
            "⁺": r"$^+$", "²": r"$^2$", "∑": r"$\sum$", "∈": r"$\in$", "×": r"$\times$", "⋈": "rel",
            "’": "'", "“": "``", "”": "''", "–": "--", "—": "---", "≈": r"$\approx$", "∘": r"$\circ$",
            "§": r"\S{}"}

_SUB = dict(zip("₀₁₂₃₄₅₆₇₈₉", "0123456789"))
_SUP = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+"))
_MATH = {"−": "-", "…": r"\ldots", "≪": r"\ll", "≫": r"\gg", "⟹": r"\Longrightarrow", "⟸": r"\Longleftarrow",
         "≡": r"\equiv",
         "∀": r"\forall", "∃": r"\exists", "∫": r"\int", "∂": r"\partial", "⊂": r"\subset", "⊆": r"\subseteq",
         "∪": r"\cup", "∩": r"\cap", "±": r"\pm", "∼": r"\sim", "∝": r"\propto", "⌈": r"\lceil", "⌉": r"\rceil",
         "⌊": r"\lfloor", "⌋": r"\rfloor", "‹": "<", "›": ">", "∉": r"\notin", "↦": r"\mapsto", "′": "'",
         "⇐": r"\Leftarrow", "⟺": r"\Longleftrightarrow", "↔": r"\leftrightarrow", "←": r"\leftarrow",
         "⊗": r"\otimes", "⊕": r"\oplus", "∧": r"\wedge", "∨": r"\vee", "¬": r"\neg", "∅": r"\emptyset",
         "ℝ": r"\mathbb{R}", "ℕ": r"\mathbb{N}", "ℤ": r"\mathbb{Z}", "ℚ": r"\mathbb{Q}", "∏": r"\prod",
         "½": r"\tfrac{1}{2}", "¼": r"\tfrac{1}{4}", "¾": r"\tfrac{3}{4}", "⁄": "/", "∗": "*", "⋯": r"\cdots",
         "≲": r"\lesssim", "≳": r"\gtrsim", "≍": r"\asymp", "∓": r"\mp", "⊥": r"\perp", "∖": r"\setminus",
         "ϵ": r"\epsilon", "ϕ": r"\phi", "φ": r"\varphi", "ℓ": r"\ell", "°": r"^\circ", "″": "''"}
#: Combining accents: they follow the letter they go on (Φ̄ is Φ then U+0304).
_ACCENTS = {"\u0304": r"\bar", "\u0305": r"\overline", "\u0302": r"\hat", "\u0303": r"\tilde", "\u0307": r"\dot"}

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
    # Modifier letters: eˣ, δᵢ, xⁿ (Unicode names them "... SMALL X", "... SUBSCRIPT SMALL LETTER I").
    if name.startswith(("MODIFIER LETTER SMALL ", "SUPERSCRIPT LATIN SMALL LETTER ")) and len(name.split()[-1]) == 1:
        return "^" + name.split()[-1].lower()
    if name.startswith("LATIN SUBSCRIPT SMALL LETTER ") and len(name.split()[-1]) == 1:
        return "_" + name.split()[-1].lower()
    return None


def _no_form(ch: str, s: str) -> NoLatexForm:
    name = unicodedata.name(ch, "unnamed")
    return NoLatexForm(f"the character {ch!r} (U+{ord(ch):04X} {name}) in {s!r} has no LaTeX form in rdpsym; "
                       "write it as LaTeX math between $...$ (e.g. $\\Leftarrow$), or as words")


def _accented(chars: list[str], s: str) -> list[tuple[str, str | None]]:
    """Pair each character with the combining accent that follows it (if any)."""
    out: list[tuple[str, str | None]] = []
    for ch in chars:
        if ch in _ACCENTS:
            if not out or out[-1][1] is not None:
                raise _no_form(ch, s)  # an accent on nothing, or a second accent
            out[-1] = (out[-1][0], _ACCENTS[ch])
        else:
            out.append((ch, None))
    return out


def text(s: str) -> str:
    r"""Escape plain text for LaTeX, typesetting the Unicode and TeX-like math prose carries.

    Prose is written to read well in a terminal (``D_α(P‖Q) ≤ e^{(α−1)ε}``);
    in LaTeX its symbols become macros, and a sub- or superscript becomes math
    with the letter it is attached to, as TeX reads it: ``_`` or ``^`` takes a
    braced group, a parenthesised group (the parentheses are ASCII's braces),
    a signed number, one letter, or, below the line, a word (``ε_exact``
    becomes :math:`\varepsilon_{\mathrm{exact}}`).  ``max``, ``min``, ``sup``,
    ``inf``, ``lim``, ``log``, ``exp`` and ``Pr`` before a script are the
    operators.  A dotted or underscored name such as ``renyi_divergence_mp``
    or ``004_41b8fca2.txt`` is code, set in typewriter type.  A character with
    no LaTeX form raises :class:`NoLatexForm` naming it: a report never shows
    a ``?`` where the source had a symbol.

    >>> text("α → 1, 5% of δ_1, Φ̄(t) ⇐ ½")
    '$\\alpha$ $\\to$ 1, 5\\% of $\\delta_{1}$, $\\bar{\\Phi}$(t) $\\Leftarrow$ $\\tfrac{1}{2}$'
    >>> text("E_Q[(P/Q)^α] ≤ e^{(α−1)D_∞}, ε_DP, max_x, 10⁻³⁰")
    '$E_{Q}$[(P/Q)$^{\\alpha}$] $\\le$ $e^{(\\alpha-1)D_\\infty}$, $\\varepsilon_{\\mathrm{DP}}$, $\\max_{x}$, 10$^{-30}$'
    >>> text("sampled_gaussian.log_moment vs renyi_divergence_mp")
    '\\texttt{sampled\\_\\allowbreak{}gaussian.log\\_\\allowbreak{}moment} vs \\texttt{renyi\\_\\allowbreak{}divergence\\_\\allowbreak{}mp}'
    """
    out = []
    pairs = _accented(list(s), s)
    chars = "".join(c for c, _ in pairs)  # the characters, accents folded into their letters' pairs
    i = 0
    while i < len(pairs):
        ch, accent = pairs[i]
        for matcher in _PROSE_MATH:
            got = matcher(pairs, chars, i, s)
            if got is not None:
                latex, i = got
                out.append(latex)
                break
        else:
            out.append(_character(ch, accent, s))
            i += 1
    return "".join(out)


def _character(ch: str, accent: str | None, s: str) -> str:
    """One character of prose as LaTeX."""
    if accent is not None:
        return f"${accent}{{{_symbol(ch) or _plain(ch, s)}}}$"
    if ch in _ESCAPES:
        return _ESCAPES[ch]
    if ch in _UNICODE:
        return _UNICODE[ch]
    if _is_plain(ch):
        return ch  # ASCII, and accented Latin letters (T1 + utf8 inputenc set them)
    macro = _symbol(ch)
    if macro is None:
        raise _no_form(ch, s)
    return f"${macro}$"


def _after_word(chars: str, i: int) -> bool:
    """Whether ``chars[i]`` continues a word or a number (so a match may not start there)."""
    return i > 0 and (chars[i - 1].isalnum() or chars[i - 1] in "._")


_URL = re.compile(r"https?://[^\s()<>]+[^\s()<>.,;:'\"]")


def _url(pairs, chars, i, s):
    """A web address, in typewriter type, its special characters escaped."""
    m = None if _after_word(chars, i) else _URL.match(chars, i)
    if not m:
        return None
    return r"\texttt{" + "".join(_ESCAPES.get(c, c) for c in m.group()) + "}", m.end()


def _code(pairs, chars, i, s):
    name = _code_name(chars, i)
    return None if not name else (r"\texttt{" + name.replace("_", r"\_\allowbreak{}") + "}", i + len(name))


_SCIENTIFIC = re.compile(r"(\d+(?:\.\d+)?)e([+\-−]?\d+)(?![\w.])")


def _scientific(pairs, chars, i, s):
    """1e-30 is 10^{-30}; 1.845e-31 is 1.845·10^{-31}."""
    m = None if _after_word(chars, i) else _SCIENTIFIC.match(chars, i)
    if not m:
        return None
    mantissa, exponent = m.group(1), m.group(2).replace("−", "-").lstrip("+")
    power = f"10^{{{exponent}}}"
    return (f"${power}$" if mantissa == "1" else rf"${mantissa}\cdot {power}$"), m.end()


def _script(pairs, chars, i, s):
    base, after = _script_base(pairs, chars, i)
    if base is None:
        return None
    scripts, after = _scripts(pairs, chars, after)
    return f"${base}{scripts}$", after


#: ASCII spellings of relations and of SymPy's infinity, as they appear in evidence (lhs <= rhs, oo).
_ASCII_MATH = re.compile(r"<=|>=|!=|(?<![A-Za-z])-?oo(?![A-Za-z])")


def _ascii_math(pairs, chars, i, s):
    m = _ASCII_MATH.match(chars, i)
    if not m or (m.group().endswith("oo") and _after_word(chars, i)):
        return None
    tex = {"<=": r"\le", ">=": r"\ge", "!=": r"\ne", "oo": r"\infty", "-oo": r"-\infty"}[m.group()]
    return f"${tex}$", m.end()


def _primed_letter(pairs, chars, i, s):
    """A Greek letter with primes (ε′, δ'') is one symbol."""
    m = re.match(r"([^\W\d_])(['′]+)", chars[i:])
    if not m or m.group(1).isascii() or pairs[i][1] is not None:
        return None
    return f"${_symbol(m.group(1)) or m.group(1)}{chr(39) * len(m.group(2))}$", i + len(m.group())


def _quote(pairs, chars, i, s):
    """An opening single quote is a left quote; two apostrophes stay two (not T1's ” ligature)."""
    if chars[i] != "'":
        return None
    if (i == 0 or chars[i - 1].isspace() or chars[i - 1] in "([{") and chars[i + 1:i + 2].strip():
        return "`", i + 1
    if chars[i + 1:i + 2] == "'":
        return "'{}", i + 1
    return None


def _minus(pairs, chars, i, s):
    """A hyphen before a number, a Greek letter or a bracket is a minus sign (α-1, [-3, 10]), and so
    is one that starts a term (shifted by -k); inside a word it stays a hyphen (k-fold, ε-DP)."""
    if chars[i] != "-" or i + 1 >= len(chars):
        return None
    nxt = chars[i + 1]
    starts_term = i == 0 or chars[i - 1].isspace() or chars[i - 1] in "([{=,"  # ' -k/2': a hyphen never follows a space
    if not (nxt.isdigit() or nxt == "(" or (nxt.isalpha() and (not nxt.isascii() or starts_term))):
        return None
    before = re.search(r"[A-Za-z]+$", chars[:i])
    if before and len(before.group()) > 1:
        return None  # a word-hyphen: seed-1, Table-2
    return "$-$", i + 1


def _unicode_scripts(pairs, chars, i, s):
    got = _script_run(pairs, i)
    return None if got is None else (f"${got[0]}$", got[1])


def _script_run(pairs: list, i: int) -> tuple[str, int] | None:
    """A run of Unicode sub- or superscripts from ``pairs[i]`` as one script: 10⁻³⁰ is 10^{-30}."""
    ch = pairs[i][0]
    table, mark = (_SUP, "^") if ch in _SUP else (_SUB, "_") if ch in _SUB else (None, "")
    if table is None or pairs[i][1] is not None:
        return None
    j = i
    while j < len(pairs) and pairs[j][0] in table and pairs[j][1] is None:
        j += 1
    return f"{mark}{{{''.join(table[c] for c, _ in pairs[i:j])}}}", j


_PROSE_MATH = (_url, _code, _scientific, _script, _unicode_scripts, _ascii_math, _primed_letter, _quote, _minus)


#: Words set as operators when a script follows them (max_x, lim_{α→1}, Pr_P).
_OPERATORS = {"max": r"\max", "min": r"\min", "sup": r"\sup", "inf": r"\inf", "lim": r"\lim",
              "log": r"\log", "exp": r"\exp", "Pr": r"\Pr", "argmax": r"\operatorname{argmax}"}
#: What a script may sit on: an operator word, a number, or one letter (TeX's reading).
_SCRIPT_BASE = re.compile(rf"({'|'.join(sorted(_OPERATORS, key=len, reverse=True))}|\d+(?:\.\d+)?|[^\W\d_])(?=[_^])")
_CODE = re.compile(r"_*[A-Za-z0-9]+(?:[._]+[A-Za-z0-9]+)*_*")


def _code_name(chars: str, i: int) -> str | None:
    """The code name starting at ``chars[i]`` (``log_moment``, ``004_41b8.txt``), or None.

    A name is code when it has an underscore between two parts of two or more
    characters, two underscores or more (``a_b_c``), a leading underscore (``__init__``, ``_private``), or dots
    between words (``sympy.limit``, ``statements.md``); ``max_x``, ``P_0`` and ``E_P`` are math, ``e.g.`` and
    ``l.122`` are text.  (``__import__('os')`` was set as scripts, ``\\_$_{\\mathrm{import}}$\\_$_{'os'}$``, its
    parentheses gone: a probe.)

    >>> [_code_name(s, 0) for s in ("__import__('os')", "a_b_c", "_private.", "P_0", "x_ and")]
    ['__import__', 'a_b_c', '_private', None, None]
    """
    if i > 0 and (chars[i - 1].isalnum() or chars[i - 1] in "._"):
        return None
    m = _CODE.match(chars, i)
    if not m:
        return None
    name = m.group().rstrip(".")
    if name.startswith("_") and i > 0 and chars[i - 1] in ")]}":
        return None  # a script on a bracket, (x+1)_ab: not a private name (a review)
    core = name.strip("_")
    parts = re.split(r"[._]+", core)
    seps = re.findall(r"[._]+", core)
    underscored = any("_" in sep and len(parts[k]) >= 2 and len(parts[k + 1]) >= 2 for k, sep in enumerate(seps))
    private = name.startswith("_") and len(core) >= 2 and core[0].isalpha()
    # module.function, Class.method, file.md: every part a word of two or more characters
    dotted = all(sep == "." for sep in seps) and bool(seps) and all(len(part) >= 2 and part[0].isalpha()
                                                                   for part in parts)
    if underscored or private or name.count("_") >= 2 or dotted:
        return name if private else name if not name.endswith("_") else None
    return None


def _script_base(pairs: list, chars: str, i: int) -> tuple[str | None, int]:
    """If a sub/superscript follows here, its base as math and where the script starts; else (None, i)."""
    n = len(pairs)
    if pairs[i][0] in "_^":
        # A script on what precedes (a bracket, a Unicode letter already set): no base of its own.
        return ("", i) if i + 1 < n and _script_arg(pairs, chars, i + 1) is not None else (None, i)
    if i > 0 and chars[i - 1].isalpha():
        return None, i  # inside a word: the word's last letter is the base, not this one
    m = _SCRIPT_BASE.match(chars, i)
    if not m or pairs[i + len(m.group()) - 1][1] is not None:
        return None, i
    word = m.group()
    end = i + len(word)
    if _script_arg(pairs, chars, end + 1) is None:
        return None, i
    if word in _OPERATORS:
        return _OPERATORS[word], end
    if word.isdigit() or word[0].isdigit():
        return word, end
    return (word if word.isascii() else (_symbol(word) or word)), end


def _script_arg(pairs: list, chars: str, j: int):
    """The argument of a script starting at ``pairs[j]``: (LaTeX, end), or None if there is none."""
    if j >= len(chars):
        return None
    below = chars[j - 1] == "_"
    if chars[j] in "{(":
        close = {"{": "}", "(": ")"}[chars[j]]
        depth = 0
        for k in range(j, len(chars)):
            depth += chars[k] == chars[j]
            depth -= chars[k] == close
            if depth == 0:
                group = chars[j + 1:k]
                return (math(group), k + 1) if _is_script_group(group) else None
        return None
    m = re.match(r"[−-]?\d+(?:\.\d+)?", chars[j:])
    if m:
        return math(m.group()), j + len(m.group())
    if below:
        m = re.match(r"[A-Za-z]{2,}(?![A-Za-z0-9])", chars[j:])
        if m:
            return rf"\mathrm{{{m.group()}}}", j + len(m.group())
    if chars[j] in "∞*∗":
        return math(chars[j]), j + 1
    m = re.match(r"[−-]?[^\W\d_][′']*", chars[j:])
    if m and pairs[j + len(m.group()) - 1][1] is None:
        return math(m.group()), j + len(m.group())
    return None


def _is_script_group(group: str) -> bool:
    """Whether a braced or parenthesised script reads as math: its brackets balance, it ends in no
    dangling script, and it holds none of TeX's special characters (prose keeps those as text)."""
    depth = {"{": 0, "(": 0, "[": 0}
    closing = {"}": "{", ")": "(", "]": "["}
    for ch in group:
        if ch in depth:
            depth[ch] += 1
        elif ch in closing:
            depth[closing[ch]] -= 1
            if depth[closing[ch]] < 0:
                return False
    return (not any(depth.values()) and not group.rstrip().endswith(("_", "^"))
            and not any(c in group for c in "$#%&\\~"))


def _scripts(pairs: list, chars: str, j: int) -> tuple[str, int]:
    """The chain of scripts from ``pairs[j]`` (a ``_`` or ``^``) on, one of each kind: (LaTeX, end)."""
    out = ""
    seen = set()
    while j < len(pairs) and pairs[j][0] in "_^" and pairs[j][0] not in seen:
        got = _script_arg(pairs, chars, j + 1)
        if got is None:
            break
        arg, end = got
        seen.add(pairs[j][0])
        out += f"{pairs[j][0]}{{{arg}}}"
        j = end
    return out, j


def _is_plain(ch: str) -> bool:
    """ASCII, accented Latin letters and the Latin-1 punctuation that T1 + utf8 inputenc set as they are."""
    return ord(ch) < 128 or ch in "«»" or unicodedata.category(ch).startswith("L") and ord(ch) < 0x250


def _plain(ch: str, s: str) -> str:
    if ord(ch) < 128 and ch.isalnum():
        return ch
    raise _no_form(ch, s)


def math(s: str) -> str:
    """Author-written LaTeX math, with stray Unicode symbols replaced by their macros.

    >>> math("x ≤ y₁, Φ̄(t), αx, e^{−10¹²}")
    'x \\\\le y_{1}, \\\\bar{\\\\Phi}(t), \\\\alpha x, e^{-10^{12}}'
    >>> math(r"\\text{§VII}")
    '\\\\text{{\\\\S}VII}'
    """
    out = []
    pairs = _accented(list(s), s)
    i = 0
    while i < len(pairs):
        run = _script_run(pairs, i)
        if run is not None:  # 10¹² is 10^{12}, not the double superscript 10^1^2
            out.append(run[0])
            i = run[1]
            continue
        ch, accent = pairs[i]
        i += 1
        if _is_plain(ch) and ch not in _MATH:
            tex = ch  # ASCII; an accented letter or « » inside \text{...} (inputenc sets it)
        elif ch == "§":
            tex = r"{\S}"  # braced: a bare \S would swallow the letters after it (§VII -> \SVII)
        else:
            macro = _symbol(ch)
            if macro is None:
                raise _no_form(ch, s)
            tex = macro  # no braces: {\le} would be an ordinary atom and lose a relation's spacing
        if accent:
            tex = f"{accent}{{{tex}}}"
        if out and tex[:1].isalpha() and re.search(r"\\[A-Za-z]+$", out[-1]):
            tex = " " + tex  # a control word ends at a space: \alpha x, not \alphax
        out.append(tex)
    return "".join(out)


#: The commands whose argument is text, where a $ is math again (\\textstyle and \\textcolor are not among them).
_TEXT_MODE = re.compile(r"\\(text|textrm|textit|textbf|textsf|texttt|textup|textsc|textnormal|mbox|hbox|intertext)"
                        r"\s*\{")


#: Control words author math may not use: TeX's file input and output, shell escape, definitions, catcode and
#: expansion tricks, and the hooks that run code later.  A claim's statement carrying ``\\input{/etc/passwd}`` put
#: the file into the report's PDF, and ``\\global\\let\\textbf\\phantom`` hid a later claim's "refuted" (a probe).
#: Names with ``@`` (LaTeX's internals) are refused too, and ``^^`` (TeX's character codes, which can spell any of
#: these).
FORBIDDEN_CONTROL_WORDS = frozenset({
    "input", "include", "includeonly", "InputIfFileExists", "IfFileExists", "endinput", "openin", "openout", "read",
    "readline", "write", "immediate", "closein", "closeout", "message", "special", "shipout", "output", "def", "edef",
    "gdef", "xdef", "let", "futurelet", "global", "long", "outer", "protected", "csname", "endcsname", "expandafter",
    "noexpand", "scantokens", "catcode", "lccode", "uccode", "mathcode", "delcode", "sfcode", "lowercase", "uppercase",
    "newcommand", "renewcommand", "providecommand", "DeclareRobustCommand", "DeclareMathOperator", "newenvironment",
    "renewenvironment", "newcount", "newtoks", "newread", "newwrite", "usepackage", "RequirePackage",
    "documentclass", "makeatletter", "makeatother", "afterassignment", "aftergroup", "everypar", "everymath",
    "everydisplay", "everyhbox", "everyvbox", "everyjob", "everycr", "everyeof", "errhelp", "errmessage",
    "pdfshellescape", "directlua", "jobname", "batchmode", "nonstopmode", "scrollmode", "errorstopmode", "AtBeginDocument",
    "AtEndDocument", "chardef", "mathchardef", "countdef", "toksdef", "showthe", "show", "end", "dump",
    # conditionals and loops (``\\iffalse`` in one claim and ``\\fi`` in a later one hid the claim between, refuted,
    # from the PDF: a probe), alignments, boxes kept out of sight, implicit braces and links that run programs
    "fi", "else", "or", "unless", "loop", "repeat", "halign", "valign", "noalign", "omit", "span", "setbox", "unhbox",
    "unvbox", "unhcopy", "unvcopy", "lastbox", "vsplit", "bgroup", "egroup", "begingroup", "endgroup", "vadjust",
    "insert", "mark", "marks", "href", "nolinkurl",
})


#: Parts of a control word's name that reach files, the engine or definitions under names the list above cannot
#: enumerate: pdfTeX's file primitives (``\pdffiledump``), LaTeX's ``\UseName{input}`` (which builds ``\input`` from
#: letters), command copies, hooks and expl3 (a probe read a file through the first two).
_FORBIDDEN_PARTS = ("input", "include", "file", "dump", "csname", "usename", "expandargs", "commandcopy", "expl",
                    "globaldefs", "hook", "catcode", "openin", "openout", "readline", "scantokens", "write", "lua",
                    "shellescape", "jobname")
#: (``url`` and ``hyper`` as starts: amssymb's \\curlyvee holds "url"; a review)
_FORBIDDEN_STARTS = ("pdf", "every", "after", "new", "renew", "provide", "declare", "use", "def", "gdef", "xdef",
                     "url", "hyper")


def forbidden_control_word(word: str) -> bool:
    """Whether author math may not hold the control word ``\\word``: one of :data:`FORBIDDEN_CONTROL_WORDS`, or one
    whose name holds a part of :data:`_FORBIDDEN_PARTS` or starts as one of :data:`_FORBIDDEN_STARTS` (any case).

    >>> [forbidden_control_word(w) for w in ("frac", "UseName", "pdffiledump", "NewCommandCopy", "operatorname")]
    [False, True, True, True, False]
    >>> forbidden_control_word("hookrightarrow"), forbidden_control_word("AddToHook")
    (False, True)
    >>> [forbidden_control_word(w) for w in ("iffalse", "ifx", "iff", "fi", "Box", "mbox", "setbox")]
    [True, True, False, True, False, False, True]
    """
    low = word.lower()
    # (\hookrightarrow is an arrow and \lhook a glyph, not hooks; a name no package defines is an error, not a program)
    arrow = low.endswith("arrow") or low in ("lhook", "rhook")
    conditional = low.startswith("if") and low != "iff"  # (\iff is ⟺)
    return word in FORBIDDEN_CONTROL_WORDS or (not arrow and any(part in low for part in _FORBIDDEN_PARTS)) \
        or low.startswith(_FORBIDDEN_STARTS) or conditional


def check_math(s: str, aligned: bool = False) -> None:
    """Refuse (:class:`NoLatexForm`) author-written math that cannot typeset where rdpsym's reports set it, as pdflatex
    would refuse it later with a message naming neither the claim nor the field (a probe: a hypothesis "x in [0, 1]
    (100% of cases)" reached the .tex, whose % commented out the closing $): an unescaped ``%``, ``#`` or ``$``,
    braces or ``\\begin``/``\\end`` that do not pair, a blank line, a lone backslash at the end, and ``&`` outside
    an environment unless the math is an ``aligned`` row.  A ``$`` inside ``\\text{...}`` is math within its text.
    Math is not a program: a control word :func:`forbidden_control_word` names, one with ``@``, an environment that
    writes files (``filecontents``) or reads raw text (``verbatim``), and ``^^`` are refused.

    >>> check_math(r"x \\le 1 \\input{/etc/passwd}")
    Traceback (most recent call last):
    ...
    rdpsym.foundations.errors.NoLatexForm: \\input (TeX's file input and output, definitions, conditionals and hooks \
have no place in a report's math) in the LaTeX math 'x \\\\le 1 \\\\input{/etc/passwd}'

    >>> check_math(r"\\frac{1}{2} \\le 100\\% \\text{ of all $x$ in } \\{x\\}")
    >>> check_math(r"\\frac{1}{2")
    Traceback (most recent call last):
    ...
    rdpsym.foundations.errors.NoLatexForm: a { that is never closed in the LaTeX math '\\\\frac{1}{2'
    """
    groups: list[bool] = []  # the open braces, each whether it is a text-mode group (\\text{...}), where $ is math
    environments: list[str] = []
    delimiters: list[int] = []  # the open \\left's, each at the depth of braces it was opened at
    problem, i = None, 0
    while i < len(s) and problem is None:
        c = s[i]
        if c == "\\":
            word = re.match(r"\\([A-Za-z@]+)", s[i:])
            if word and (forbidden_control_word(word[1]) and not re.match(r"\\end\s*\{", s[i:])
                         or ("@" in word[1] and word[1] != "@")):  # (\@, the space factor's control symbol, is text)
                problem = (f"\\{word[1]} (TeX's file input and output, definitions, conditionals and hooks have no "
                           "place in a report's math)")
                break
            if word and word[1] in ("left", "right"):
                # \left and \right pair within one group, as TeX pairs them (an unpaired \left( passed and failed
                # pdflatex after every claim was checked: a probe)
                if word[1] == "left":
                    delimiters.append(len(groups))
                elif not delimiters or delimiters.pop() != len(groups):
                    problem = "a \\right with no \\left before it in its group"
                i += word.end()
                continue
            found = re.match(r"\\(begin|end)\s*\{([^{}]*)\}", s[i:])
            if found and found[1] == "begin" and any(part in found[2].lower() for part in ("file", "verbatim")):
                problem = f"\\begin{{{found[2]}}} (an environment that writes a file or reads its text raw)"
                break
            if found:
                if found[1] == "begin":
                    environments.append(found[2])
                elif not environments or environments.pop() != found[2]:
                    problem = f"an \\end{{{found[2]}}} that ends no \\begin{{{found[2]}}}"
                i += found.end()
                continue
            text_group = _TEXT_MODE.match(s, i)
            if text_group:
                groups.append(True)
                i = text_group.end()
                continue
            if i + 1 == len(s):
                problem = "a lone backslash at the end"
            i += 2  # (an escaped character, \\% or \\{, or a control word's first letter)
            continue
        if c == "{":
            groups.append(False)
        elif c == "}" and not groups:
            problem = "a } with no { before it"
        elif c == "}" and delimiters and delimiters[-1] == len(groups):
            problem = "a \\left that its group ends before its \\right"
        elif c == "}":
            groups.pop()
        elif c in "%#" or (c == "$" and not any(groups)):
            problem = f"an unescaped {c} (write \\{c}" + (", or no $ at all: this is math already)" if c == "$" else ")")
        elif c == "&" and not environments and not aligned:
            problem = "an & outside an environment (an alignment tab has no place here)"
        i += 1
    if problem is None and groups:
        problem = "a { that is never closed"
    if problem is None and delimiters:
        problem = "a \\left with no \\right after it"
    if problem is None and environments:
        problem = f"a \\begin{{{environments[-1]}}} that is never ended"
    if problem is None and "^^" in s:
        problem = "^^ (TeX's notation for a character by its code, which can spell any control word)"
    if problem is None and re.search(r"\n[ \t]*\n", s):
        problem = "a blank line (a paragraph cannot end inside math)"
    if problem is not None:
        raise NoLatexForm(f"{problem} in the LaTeX math {s!r}")


def reason_latex(reason: str) -> str:
    """A step's reason: plain text, with ``$...$`` spans kept as (author-written) math.

    >>> reason_latex("take the logarithm and divide by $\\\\alpha - 1$ (α > 1)")
    'take the logarithm and divide by $\\\\alpha - 1$ ($\\\\alpha$ > 1)'
    """
    parts = reason.split("$")
    if len(parts) % 2 == 0:  # an unpaired $: treat the whole reason as text
        return text(reason)
    return "".join(f"${math(p)}$" if i % 2 else text(p) for i, p in enumerate(parts))


