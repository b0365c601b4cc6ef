"""LaTeX as Mironov's paper prints it: SymPy's printer with the typography of the RDP literature.

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

import re

import sympy as sp
from sympy.core.function import AppliedUndef
from sympy.printing.latex import LatexPrinter
from sympy.printing.precedence import PRECEDENCE

from rdpsym.foundations.arithmetic import size_problem
from rdpsym.foundations.errors import NoLatexForm, ParameterError, must
from rdpsym.foundations.notation import P, Q, RenyiDivergence, RenyiMoment
from rdpsym.foundations.reading import exact
from rdpsym.foundations.symbols import alpha
from rdpsym.render.prose import text

__all__ = ["PaperPrinter", "paper_latex", "symbols_set_as_text"]


#: The characters of a name SymPy may print as TeX (with its braces balanced and only :data:`_SAFE_COMMANDS`).
_TEX_NAME = re.compile(r"[A-Za-z0-9_^{}\\', ]+")
#: The TeX commands a name may hold: Greek letters and accents (rdpsym's own ΔΜ is "\Delta\mu"); never \input,
#: \write18, \def, \catcode or any other.
_SAFE_COMMANDS = frozenset(
    "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi pi varpi rho "
    "varrho sigma varsigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi "
    "Psi Omega bar hat tilde dot ddot vec check breve mathrm mathbf mathit mathcal mathsf prime ell".split())


def _tex_safe(name: str) -> bool:
    """Whether a symbol's name is TeX SymPy may print as it is: letters, digits, scripts and balanced braces, and no
    command but a Greek letter or an accent (``x_{1}``, ``\\Delta\\mu``, ``sigma_1``; not ``\\input{x}``, ``b%``
    or ``σ``)."""
    if not _TEX_NAME.fullmatch(name) or any(not c.isascii() for c in name):
        return False
    depth = 0
    for c in name:
        depth += {"{": 1, "}": -1}.get(c, 0)
        if depth < 0:
            return False
    if depth:
        return False
    commands = re.findall(r"\\([A-Za-z]*)", name)
    return all(c in _SAFE_COMMANDS for c in commands)


_GREEK = ("alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi pi varpi rho "
          "varrho sigma varsigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi "
          "Psi Omega ell").split()
#: A name that reads as one symbol when SymPy prints it: letters (SymPy's Greek names and modifiers, ``sigma1`` as
#: σ₁), one Greek command, or one accent on a letter; then sub- and superscripts of letters and digits, then primes.
#: Any other name -- a space, a comma, a leading or empty script, two commands -- is set as text (a review:
#: ``a b`` printed a·b², ``\alpha\beta`` α·β², ``_x`` a superscript with no base).
_PLAIN_NAME = re.compile(
    r"(?:[A-Za-z]+[0-9]*|\\(?:" + "|".join(_GREEK) + r")(?![A-Za-z])"
    r"|\\(?:bar|hat|tilde|dot|ddot|vec|check|breve)\{(?:[A-Za-z]|\\(?:" + "|".join(_GREEK) + r"))\}"
    r"|\\math(?:rm|bf|it|cal|sf)\{[A-Za-z]+\})"
    r"(?:[_^](?:[A-Za-z0-9]+|\{[A-Za-z0-9]+\}))*'*")
#: How the order α prints: no other symbol may print so (a parameter named ``\alpha`` printed α/(2α²) for α/(2σ²)
#: with σ so named: a review).
_ORDER_TEX = r"\alpha"


def symbols_set_as_text(expr: sp.Basic, symbol_names: dict | None = None) -> frozenset:
    """The symbols of ``expr`` :class:`PaperPrinter` sets as their names in text, so that the formula printed is the
    formula computed: any whose name does not read as one symbol, and any two that would print alike (``sigma1``
    and ``sigma_1`` as σ₁, ``lambda`` and ``lamda`` as λ, a parameter printing as the order's α).  The order α and
    the symbols ``symbol_names`` names keep their print.

    >>> a, s1, s_1 = sp.symbols("alpha sigma1 sigma_1")
    >>> sorted(s.name for s in symbols_set_as_text(a / s1 + a / s_1 + sp.Symbol(r"\\alpha") + sp.Symbol("a b")))
    ['\\\\alpha', 'a b', 'sigma1', 'sigma_1']
    """
    names = symbol_names or {}
    printer = LatexPrinter({"symbol_names": names})
    printed: dict[str, list] = {}
    for s in expr.atoms(sp.Symbol):
        if not isinstance(s, (sp.Dummy, sp.Wild)):
            printed.setdefault(printer._print_Symbol(s), []).append(s)
    out = set()
    for tex, group in printed.items():
        for s in group:
            kept = s.name == alpha.name or s in names
            if not kept and (not _PLAIN_NAME.fullmatch(s.name) or len(group) > 1 or tex == _ORDER_TEX):
                out.add(s)
    return frozenset(out)


def name_text(name: str) -> str:
    r"""A symbol's name as text inside ``\text{}``: escaped, its Unicode typeset where LaTeX has it, any other
    character by its code point (never raw).

    >>> print(name_text("b%"), name_text("σ2"), name_text(r"\input{x}"))
    b\% $\sigma$2 \textbackslash{}input\{x\}
    """
    out = []
    for c in name:
        try:
            out.append(text(c))
        except NoLatexForm:
            out.append(f"U+{ord(c):04X}")
    return "".join(out)


#: Operators whose scope runs on to the right in print: no factor is moved after one.
_BINDING = (sp.Limit, sp.Sum, sp.Integral, sp.Product)


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

    _default_settings = {**LatexPrinter._default_settings, "order_symbol": None, "text_symbols": frozenset()}

    def __init__(self, settings: dict | None = None):
        super().__init__(settings)
        self._order_symbol = self._settings.get("order_symbol")
        self._text_symbols = self._settings.get("text_symbols") or frozenset()

    def _order(self, expr: sp.Expr) -> sp.Symbol | None:
        if self._order_symbol is not None:
            return self._order_symbol
        named = [s for s in expr.free_symbols if s.name == alpha.name]
        return named[0] if named else None

    def _print_Symbol(self, expr, style="plain"):
        # A name SymPy prints as TeX (letters, digits, underscores, primes) as SymPy prints it; any other is set as
        # escaped text: a parameter named "\input{secret}" was written raw (and read the file when compiled), and
        # "b%", "b}" or "σ" broke pdflatex (a probe)
        if _tex_safe(expr.name) and expr not in self._text_symbols:
            return super()._print_Symbol(expr, style)
        return rf"\text{{{name_text(expr.name)}}}"

    def _print_Pow(self, expr):
        # A name set as text raised to a power is bracketed: "\text{a b}^{2}" reads as a b² (roots and 1/x are
        # printed as such, around the name)
        if expr.base in self._text_symbols and not (expr.exp.is_Rational and (expr.exp < 0 or expr.exp.q != 1)):
            return rf"\left({self._print(expr.base)}\right)^{{{self._print(expr.exp)}}}"
        return super()._print_Pow(expr)

    def _print_OutcomeLabel(self, expr, style="plain"):
        # A table's label is set as escaped text, never as TeX: "\input{…}" or "a}\end{align*}…" reached the
        # document raw as a symbol's name (a probe).
        return rf"\text{{{text(' '.join(expr.name.split()))}}}"

    # exp, log ---------------------------------------------------------------------------
    def _print_ExpBase(self, expr, exp=None):
        arg = expr.args[0]
        if _short_exponent(arg):
            return self._do_exponent(rf"e^{{{self._print(arg)}}}", exp)
        tex = rf"\exp\left({self._print(arg)}\right)"
        return rf"{tex}^{{{exp}}}" if exp is not None else tex

    def _print_log(self, expr, exp=None):
        name = r"\log" if exp is None else rf"\log^{{{exp}}}"
        if isinstance(expr.args[0], RenyiMoment):
            return rf"{name} {self._print(expr.args[0])}"  # Definition 3: \log \int P^α Q^{1−α}
        return rf"{name}\left({self._print(expr.args[0])}\right)"

    # the notation of rdpsym.foundations.notation ------------------------------------------------
    def _print_DensityAt(self, expr):
        return rf"{self._print(expr.law)}({self._print(expr.variable)})"

    def _print_RenyiDivergence(self, expr):
        order = r"\infty" if expr.order is sp.oo else self._print(expr.order)
        return rf"D_{{{order}}}({self._print(expr.args[0])} \,\|\, {self._print(expr.args[1])})"

    def _print_RenyiMoment(self, expr):
        x = self._print(expr.variable)
        p, q = (self._print(a) for a in expr.args[:2])
        if expr.pointwise:
            p, q = f"{p}({x})", f"{q}({x})"
        # The exponents as they read at a numeric order: P(x)^{2} Q(x)^{-1} at order 2.
        powers = rf"{p}^{{{self._print(expr.order)}}} {q}^{{{self._print(1 - expr.order)}}}"
        if expr.discrete:
            return rf"\sum_{{{x}}} {powers}"
        return r"\int " + powers + (rf" \, d{x}" if expr.pointwise else "")

    def _print_KLExpectation(self, expr):
        x = self._print(expr.variable)
        return rf"\mathbb{{E}}_{{{x} \sim P}} \log \frac{{P({x})}}{{Q({x})}}"

    def _print_LogRatio(self, expr):
        x = self._print(expr.variable)
        return rf"\log \frac{{P({x})}}{{Q({x})}}"

    def _print_SupLogRatio(self, expr):
        x = self._print(expr.variable)
        return rf"\log \sup_{{{x} \in \operatorname{{supp}} Q}} \frac{{P({x})}}{{Q({x})}}"

    def _print_PieceSum(self, expr):
        return " + ".join(self._print(t) for t in expr.terms)

    def _print_OutcomeTable(self, expr):
        return r"\left(" + r",\ ".join(f"{self._print(k)}: {self._print(v)}" for k, v in expr.items) + r"\right)"

    # several variables (rdpsym.derive.multivariate) ---------------------------------------------
    def _print_Coordinates(self, expr):
        return ", ".join(self._print(v) for v in expr.variables)

    def _print_ProductLaw(self, expr):
        parts = []
        for law, copies in expr.blocks:
            tex = self._print(law)
            parts.append(tex if copies == 1 else rf"{tex}^{{\otimes {self._print(copies)}}}")
        return r" \otimes ".join(parts)

    def _print_NormalLaw(self, expr):
        mean, cov = expr.args
        return rf"\mathcal{{N}}\left({self._print(mean)}, {self._print(cov)}\right)"

    def _print_JointMoment(self, expr):
        variables = expr.variables.variables
        x = self._print(expr.variables)
        p, q = (self._print(a) for a in expr.args[:2])
        powers = rf"{p}({x})^{{{self._print(expr.order)}}} {q}({x})^{{{self._print(1 - expr.order)}}}"
        if expr.discrete:
            return rf"\sum_{{{x}}} {powers}"
        d = len(variables)
        space = r"\mathbb{R}" if d == 1 else rf"\mathbb{{R}}^{{{d}}}"
        return rf"\int_{{{space}}} {powers} \, " + r" \, ".join(f"d{self._print(v)}" for v in variables)

    def _print_QuadraticForm(self, expr):
        v, M = expr.args
        return rf"{self.parenthesize(v, PRECEDENCE['Pow'])}^{{\top}} {self.parenthesize(M, PRECEDENCE['Mul'])} " \
               rf"{self.parenthesize(v, PRECEDENCE['Pow'])}"

    def _print_IntegralOverSpace(self, expr):
        integrand, x, d = expr.args
        space = r"\mathbb{R}" if d == 1 else rf"\mathbb{{R}}^{{{self._print(d)}}}"
        return rf"\int_{{{space}}} {self._print(integrand)} \, d{self._print(x)}"

    def _print_Linear(self, expr):
        u, v = expr.args
        return rf"{self.parenthesize(u, PRECEDENCE['Pow'])}^{{\top}} {self.parenthesize(v, PRECEDENCE['Mul'])}"

    def _print_Det(self, expr):
        return rf"\left|{self._print(expr.args[0])}\right|"  # |Σ|, as Gil, Alajaji, Linder 2013 print it

    def _print_Trace(self, expr):
        return rf"\operatorname{{tr}}\left({self._print(expr.args[0])}\right)"

    def _print_Norm(self, expr, exp=None):
        v, p = expr.args
        tex = rf"\lVert {self._print(v)} \rVert_{{{self._print(p)}}}"
        return rf"{tex}^{{{exp}}}" if exp is not None else tex

    def _print_Shifted(self, expr):
        law, shift = expr.args  # Z_t: the law of t + Z
        return rf"{self._print(law)}_{{{self._print(shift)}}}"

    def _print_Function(self, expr, exp=None):
        """An undefined function (the moment I(α) of l'Hôpital's step) reads I(α), not I{\\left(α\\right)}."""
        if isinstance(expr, AppliedUndef) and exp is None:
            return rf"{expr.func.__name__}({', '.join(self._print(a) for a in expr.args)})"
        return super()._print_Function(expr, exp)

    def _print_beta(self, expr, exp=None):
        """B(x, y) with its arguments typeset: SymPy 1.14 writes them with str(), B(3 − alpha, alpha + 2)."""
        x = expr.args[0]
        y = x if len(expr.args) == 1 else expr.args[1]
        tex = rf"\left({self._print(x)}, {self._print(y)}\right)"
        return rf"\operatorname{{B}}^{{{exp}}}{tex}" if exp is not None else rf"\operatorname{{B}}{tex}"

    def _print_Limit(self, expr):
        """``\\lim_{\\alpha \\to 1^+} \\frac{1}{\\alpha - 1} \\log(I(\\alpha))``: a product needs no parentheses."""
        e, z, z0, direction = expr.args
        where = rf"{self._print(z)} \to {self._print(z0)}" + ("" if str(direction) == "+-" else f"^{direction}")
        return rf"\lim_{{{where}}} {self._print(e)}"

    def _print_Subs(self, subs):
        """I′(1): the derivative of a one-variable undefined function at a point."""
        expr, (old,), (new,) = subs.args
        if isinstance(expr, sp.Derivative) and isinstance(expr.expr, AppliedUndef) and expr.variables == (old,) \
                and expr.expr.args == (old,) and expr.derivative_count == 1:
            return rf"{expr.expr.func.__name__}'({self._print(new)})"
        return super()._print_Subs(subs)

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
                if any(isinstance(f, _BINDING) for f in sp.Mul.make_args(rest)):
                    break  # (moved after a limit, sum or integral, e^y read as inside it: \lim_{x→0} x e^{y}; a review)
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
        # 1/c² exactly: SymPy distributes the power over c's factors, so (√2/(2√π))⁻² is 2π as it is built.
        # (nsimplify gave the same k in 20 ms a product printed, by PSLQ: 8 s of the test suite's CPU.)
        k = 1 / c**2
        if not (isinstance(k, sp.Mul) and k.has(sp.pi) and (k / sp.pi).is_Rational):
            return None
        num, den = sp.fraction(rest)
        den_tex = rf"\sqrt{{{self._print(k)}}}"
        if den != 1:
            den_tex += rf"\, {self.parenthesize(den, PRECEDENCE['Mul'])}"
        return rf"\frac{{{self._print(num)}}}{{{den_tex}}}"

    # cases ----------------------------------------------------------------------------------
    def _print_Piecewise(self, expr):
        rows = []
        for value, cond in expr.args:
            when = r"\text{otherwise}" if cond is sp.true else rf"\text{{if }} {self._print(cond)}"
            rows.append(rf"{self._print(value)} & {when}")
        return r"\begin{cases} " + r" \\ ".join(rows) + r" \end{cases}"


def paper_latex(expr: object, **settings: object) -> str:
    """``expr`` as LaTeX in the paper's typography (strings pass through unchanged)."""
    if isinstance(expr, str):
        return expr
    if isinstance(expr, sp.MatrixBase) and not isinstance(expr, sp.Basic):
        expr = sp.ImmutableMatrix(expr)  # a mutable matrix in a step (the engine's A, b, Σ_α) prints as its value
    if not isinstance(expr, sp.Basic):  # a Python number (a float prints as typed), read and sized by the reader
        read = exact(expr, "expr")
        expr = expr if isinstance(expr, float) else read
    else:
        problem = size_problem(expr)
        if problem is not None:  # an integer of 10^5 digits cannot even be printed
            raise ParameterError(must("expr", "an expression within rdpsym's input ceilings", problem))
    if isinstance(expr, sp.Basic) and "text_symbols" not in settings:
        settings = {**settings, "text_symbols": symbols_set_as_text(expr, settings.get("symbol_names"))}
    # Papers write \int_a^b, not SymPy's \int\limits_a^b.
    return PaperPrinter(settings).doprint(expr).replace(r"\int\limits", r"\int")


def divergence_latex(order: object, **settings: object) -> str:
    r"""``D_{order}(P \,\|\, Q)``: the divergence as every derivation's left side prints it.

    >>> print(divergence_latex(sp.oo), divergence_latex(alpha))
    D_{\infty}(P \,\|\, Q) D_{\alpha}(P \,\|\, Q)
    """
    return paper_latex(RenyiDivergence(P, Q, order), **settings)
