"""LaTeX as Mironov's paper prints it, and escaping of plain text for LaTeX.

SymPy's printer is correct but does not typeset the way the RDP literature
does.  :class:`PaperPrinter` changes only presentation, never the expression:

* the order prefix comes first: ``\\frac{1}{\\alpha - 1} \\log(...)``, not a
  fraction of logarithms (Definition 3, Propositions 5–7);
* ``\\exp(...)`` for a compound exponent, ``e^{...}`` for a short one
  (Proposition 6 prints ``\\exp((\\alpha-1)/\\lambda)``; Lemma 1 prints ``e^{\\varepsilon}``);
* a rational coefficient before its exponential: ``\\frac{\\alpha}{2\\alpha-1}\\exp(...)``
  rather than one fraction around both (Proposition 6's term order);
* in a product of powers, the factor raised to α before the one raised to
  1 − α, as in ``P^\\alpha Q^{1-\\alpha}`` (Proposition 5 prints
  ``(1-p)^\\alpha p^{1-\\alpha}``);
* the Gaussian constant as ``\\frac{1}{\\sqrt{2\\pi}\\,\\sigma}``;
* ``\\log(x)`` rather than ``\\log{\\left(x \\right)}``; cases with "if"/"otherwise".

>>> import sympy as sp
>>> a, b = sp.symbols("alpha b", positive=True)
>>> paper_latex(sp.log(a + b) / (a - 1))
'\\\\frac{1}{\\\\alpha - 1} \\\\log\\\\left(\\\\alpha + b\\\\right)'
>>> paper_latex(a / (2*a - 1) * sp.exp((a - 1) / b))
'\\\\frac{\\\\alpha}{2 \\\\alpha - 1} \\\\exp\\\\left(\\\\frac{\\\\alpha - 1}{b}\\\\right)'
"""

from __future__ import annotations

import unicodedata

import sympy as sp
from sympy.printing.latex import LatexPrinter
from sympy.printing.precedence import PRECEDENCE

from .errors import RdpSymError
from .symbols import alpha

__all__ = ["PaperPrinter", "paper_latex", "text", "math", "reason_latex", "NoLatexForm"]


def _short_exponent(arg: sp.Expr) -> bool:
    """Whether ``e^{arg}`` reads well: an atom or a product with no fraction and no sum."""
    if arg.is_Atom:
        return not (arg.is_Rational and not arg.is_Integer)
    if isinstance(arg, sp.Mul):
        return sp.fraction(arg)[1] == 1 and all(f.is_Atom and not (f.is_Rational and not f.is_Integer)
                                                 for f in arg.args)
    return False


def _order_weight(factor: sp.Expr, order: sp.Symbol) -> int:
    """+1 for a power whose exponent grows with the order (P^α), −1 if it falls (Q^{1−α})."""
    if isinstance(factor, sp.Pow) and factor.exp.has(order):
        c = sp.diff(factor.exp, order)
        if c.is_positive:
            return 1
        if c.is_negative:
            return -1
    return 0


class PaperPrinter(LatexPrinter):
    """SymPy's LaTeX printer with the typography of the RDP papers (see the module docstring).

    ``order`` is the symbol whose powers are ordered P^α before Q^{1−α}.
    """

    _default_settings = {**LatexPrinter._default_settings, "order_symbol": None}

    def __init__(self, settings: dict | None = None):
        super().__init__(settings)
        self._order_symbol = self._settings.get("order_symbol")

    def _order(self, expr: sp.Expr) -> sp.Symbol | None:
        if self._order_symbol is not None:
            return self._order_symbol
        named = [s for s in expr.free_symbols if s.name == alpha.name]
        return named[0] if named else None

    # exp, log ---------------------------------------------------------------------------
    def _print_ExpBase(self, expr, exp=None):
        arg = expr.args[0]
        if _short_exponent(arg):
            return self._do_exponent(rf"e^{{{self._print(arg)}}}", exp)
        tex = rf"\exp\left({self._print(arg)}\right)"
        return rf"{tex}^{{{exp}}}" if exp is not None else tex

    def _print_log(self, expr, exp=None):
        name = r"\log" if exp is None else rf"\log^{{{exp}}}"
        return rf"{name}\left({self._print(expr.args[0])}\right)"

    # sums -------------------------------------------------------------------------------------
    def _print_Add(self, expr, order=None):
        """A leading negative constant goes last, after rational then transcendental terms.

        SymPy prints Table II's Laplace KL as ``-1 + e^{-1/b} + 1/b``; the paper as
        ``1/λ + exp(−1/λ) − 1``.  Sums that do not start with a negative constant are
        left in SymPy's order (``1 - p``, ``1 - e^{-b}``).
        """
        terms = list(self._as_ordered_terms(expr, order=order))
        if (len(terms) > 1 and terms[0].is_Number and terms[0].is_negative
                and any(t.has(sp.exp, sp.log) for t in terms)):
            rank = lambda t: 2 if t.is_Number else 1 if t.has(sp.exp, sp.log) else 0  # noqa: E731
            terms = sorted(terms, key=rank)  # stable: SymPy's order within each rank
            tex = ""
            for i, term in enumerate(terms):
                if i == 0:
                    pass
                elif term.could_extract_minus_sign():
                    tex += " - "
                    term = -term
                else:
                    tex += " + "
                term_tex = self._print(term)
                if self._needs_add_brackets(term):
                    term_tex = rf"\left({term_tex}\right)"
                tex += term_tex
            return tex
        return super()._print_Add(expr, order=order)

    # products -----------------------------------------------------------------------------
    def _print_Mul(self, expr):
        factors = sp.Mul.make_args(expr)
        # A coefficient before exponentials and a 1/(α−1) before the log: print the rest,
        # then the transcendental factors.
        for kind in (sp.exp, sp.log):
            special = [f for f in factors if isinstance(f, kind)]
            if special and len(special) < len(factors) and (kind is sp.exp or len(special) == 1):
                rest = sp.Mul(*[f for f in factors if not isinstance(f, kind)])
                tail = " ".join(self._print(f) for f in special)
                if rest == 1:
                    return tail
                if rest == -1:
                    return "- " + tail
                return self._coefficient(rest) + " " + tail
        gaussian = self._gaussian_constant(expr)
        if gaussian is not None:
            return gaussian
        order = self._order(expr)
        if order is not None:
            weights = [_order_weight(f, order) for f in factors]
            others = [f for f, w in zip(factors, weights) if w == 0]
            if any(weights) and all(f.is_Number and abs(f) == 1 for f in others):
                ranked = [f for _, f in sorted(((-w, i), f) for i, (f, w) in enumerate(zip(factors, weights)) if w)]
                tex = " ".join(self.parenthesize(f, PRECEDENCE["Mul"]) for f in ranked)
                return ("- " + tex) if others and others[0] == -1 else tex
        return super()._print_Mul(expr)

    def _coefficient(self, rest: sp.Expr) -> str:
        if isinstance(rest, sp.Add):
            return rf"\left({self._print(rest)}\right)"
        return self._print(rest)

    def _gaussian_constant(self, expr: sp.Expr) -> str | None:
        """c·(symbols) with c = 1/√(k·π): print ``\\frac{1}{\\sqrt{k\\pi}\\,...}`` as the papers do."""
        c, rest = expr.as_independent(*expr.free_symbols, as_Add=False) if expr.free_symbols else (expr, sp.S.One)
        if not c.is_positive or c.is_Rational or not c.has(sp.pi):
            return None
        k = sp.nsimplify(1 / c**2)
        if not (isinstance(k, sp.Mul) and k.has(sp.pi) and (k / sp.pi).is_Rational):
            return None
        num, den = sp.fraction(rest)
        den_tex = rf"\sqrt{{{self._print(k)}}}" + ("" if den == 1 else rf"\, {self.parenthesize(den, PRECEDENCE['Mul'])}")
        return rf"\frac{{{self._print(num)}}}{{{den_tex}}}"

    # cases ----------------------------------------------------------------------------------
    def _print_Piecewise(self, expr):
        rows = []
        for value, cond in expr.args:
            when = r"\text{otherwise}" if cond is sp.true else rf"\text{{if }} {self._print(cond)}"
            rows.append(rf"{self._print(value)} & {when}")
        return r"\begin{cases} " + r" \\ ".join(rows) + r" \end{cases}"


def paper_latex(expr: object, **settings) -> str:
    """``expr`` as LaTeX in the paper's typography (strings pass through unchanged)."""
    if isinstance(expr, str):
        return expr
    # Papers write \int_a^b, not SymPy's \int\limits_a^b.
    return PaperPrinter(settings).doprint(expr).replace(r"\int\limits", r"\int")


# Plain text -------------------------------------------------------------------------------

_ESCAPES = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
            "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}

#: Unicode that appears in reasons and evidence, and its LaTeX.
_UNICODE = {"α": r"$\alpha$", "β": r"$\beta$", "ε": r"$\varepsilon$", "δ": r"$\delta$", "σ": r"$\sigma$",
            "λ": r"$\lambda$", "ρ": r"$\rho$", "ξ": r"$\xi$", "Δ": r"$\Delta$", "μ": r"$\mu$", "∞": r"$\infty$",
            "≤": r"$\le$", "≥": r"$\ge$", "→": r"$\to$", "⇒": r"$\Rightarrow$", "⇔": r"$\Leftrightarrow$",
            "‖": r"$\|$", "−": "-", "·": r"$\cdot$", "…": r"\dots{}", "√": r"$\surd$", "≠": r"$\ne$",
            "⁺": r"$^+$", "²": r"$^2$", "∑": r"$\sum$", "∈": r"$\in$", "×": r"$\times$", "⋈": "rel",
            "’": "'", "“": "``", "”": "''", "–": "--", "—": "---", "≈": r"$\approx$", "∘": r"$\circ$",
            "§": r"\S{}"}

_SUB = dict(zip("₀₁₂₃₄₅₆₇₈₉", "0123456789"))
_SUP = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+"))
_MATH = {"≪": r"\ll", "≫": r"\gg", "⟹": r"\Longrightarrow", "⟸": r"\Longleftarrow", "≡": r"\equiv",
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


class NoLatexForm(RdpSymError, ValueError):
    """A character that rdpsym cannot write as LaTeX (pdflatex would stop on it)."""


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
    """Escape plain text for LaTeX, mapping the Greek and symbols rdpsym uses.

    A character with no LaTeX form raises :class:`NoLatexForm` naming it: a
    report never shows a ``?`` where the source had a symbol.

    >>> text("α → 1, 5% of δ_1, Φ̄(t) ⇐ ½")
    '$\\\\alpha$ $\\\\to$ 1, 5\\\\% of $\\\\delta$\\\\_1, $\\\\bar{\\\\Phi}$(t) $\\\\Leftarrow$ $\\\\tfrac{1}{2}$'
    """
    out = []
    for ch, accent in _accented(list(s), s):
        if accent is not None:
            out.append(f"${accent}{{{_symbol(ch) or _plain(ch, s)}}}$")
        elif ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ch in _UNICODE:
            out.append(_UNICODE[ch])
        elif _is_plain(ch):
            out.append(ch)  # ASCII, and accented Latin letters (T1 + utf8 inputenc set them)
        else:
            macro = _symbol(ch)
            if macro is None:
                raise _no_form(ch, s)
            out.append(f"${macro}$")
    return "".join(out)


def _is_plain(ch: str) -> bool:
    """ASCII, accented Latin letters and the Latin-1 punctuation that T1 + utf8 inputenc set as they are."""
    return ord(ch) < 128 or ch in "«»" or unicodedata.category(ch).startswith("L") and ord(ch) < 0x250


def _plain(ch: str, s: str) -> str:
    if ord(ch) < 128 and ch.isalnum():
        return ch
    raise _no_form(ch, s)


def math(s: str) -> str:
    """Author-written LaTeX math, with stray Unicode symbols replaced by their macros.

    >>> math("x ≤ y₁, Φ̄(t)")
    'x {\\\\le} y_1, \\\\bar{\\\\Phi}(t)'
    """
    out = []
    for ch, accent in _accented(list(s), s):
        if _is_plain(ch) and ch not in _MATH:
            tex = ch  # ASCII; an accented letter or « » inside \text{...} (inputenc sets it)
        elif ch == "§":
            tex = r"\S"
        else:
            macro = _symbol(ch)
            if macro is None:
                raise _no_form(ch, s)
            tex = macro if macro.startswith(("_", "^")) else f"{{{macro}}}"
        out.append(f"{accent}{{{tex.strip('{}') if accent else tex}}}" if accent else tex)
    return "".join(out)


def reason_latex(reason: str) -> str:
    """A step's reason: plain text, with ``$...$`` spans kept as (author-written) math.

    >>> reason_latex("take the logarithm and divide by $\\\\alpha - 1$ (α > 1)")
    'take the logarithm and divide by $\\\\alpha - 1$ ($\\\\alpha$ > 1)'
    """
    parts = reason.split("$")
    if len(parts) % 2 == 0:  # an unpaired $: treat the whole reason as text
        return text(reason)
    return "".join(f"${math(p)}$" if i % 2 else text(p) for i, p in enumerate(parts))
