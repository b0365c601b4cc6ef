"""The notation of Rényi divergences as unevaluated SymPy objects, for the sides of a step.

A derivation's steps relate mathematical objects: D_α(P‖Q), the moment
∫ P(x)^α Q(x)^{1−α} dx, P(x), log P(x)/Q(x), the supremum of D_∞.  Each is a
small SymPy expression here (capitalised and unevaluated, like SymPy's own
``Integral``), so a step holds objects, never typeset text, and every
renderer (LaTeX, terminal, Markdown) prints them its own way through its
``_print_<Class>`` method in :mod:`rdpsym.render`.

>>> from rdpsym.foundations.symbols import alpha
>>> x = sp.Symbol("x", real=True)
>>> D = RenyiDivergence(P, Q, alpha)
>>> D.order
alpha
>>> RenyiMoment(P, Q, 2, x).pointwise, RenyiMoment(P, Q, 2, x, pointwise=False).pointwise
(True, False)
"""

from __future__ import annotations

import sympy as sp

#: The two laws compared, as the paper names them: D_α(P‖Q).
P = sp.Symbol("P")
Q = sp.Symbol("Q")
#: The outcome of a finite law (a pmf on outcomes ω).
omega = sp.Symbol("omega")


class _Notation(sp.Expr):
    """An unevaluated object of the notation; its arguments are its data."""

    is_commutative = True

    def __new__(cls, *args):
        return sp.Expr.__new__(cls, *[sp.sympify(a, strict=True) if not isinstance(a, sp.Basic) else a
                                      for a in args])

    def _eval_is_extended_real(self):
        return True


class DensityAt(_Notation):
    """``P(x)``: the density (or pmf) of a law at a point."""

    def __new__(cls, law: sp.Symbol, variable: sp.Symbol):
        return super().__new__(cls, law, variable)

    @property
    def law(self) -> sp.Symbol:
        return self.args[0]

    @property
    def variable(self) -> sp.Symbol:
        return self.args[1]


class RenyiDivergence(_Notation):
    """``D_order(P‖Q)`` (Mironov 2017, Definition 3): order a symbol, a number, 1 (KL) or ∞."""

    def __new__(cls, first: sp.Symbol, second: sp.Symbol, order):
        return super().__new__(cls, first, second, order)

    @property
    def order(self) -> sp.Expr:
        return self.args[2]

    def _eval_is_nonnegative(self):
        return True


class RenyiMoment(_Notation):
    """``∫ P(x)^α Q(x)^{1−α} dx`` (``Σ_x`` when ``discrete``), the moment E_Q[(P/Q)^α].

    With ``pointwise=False`` it is the short form ``∫ P^α Q^{1−α}`` used once
    the variable has been named.
    """

    def __new__(cls, first: sp.Symbol, second: sp.Symbol, order, variable: sp.Symbol,
                discrete: bool = False, pointwise: bool = True):
        return super().__new__(cls, first, second, order, variable, sp.true if discrete else sp.false,
                               sp.true if pointwise else sp.false)

    @property
    def order(self) -> sp.Expr:
        return self.args[2]

    @property
    def variable(self) -> sp.Symbol:
        return self.args[3]

    @property
    def discrete(self) -> bool:
        return bool(self.args[4])

    @property
    def pointwise(self) -> bool:
        return bool(self.args[5])

    def _eval_is_positive(self):
        return True


class _PairAt(_Notation):
    """A quantity of the two laws at (or over) the variable: ``(P, Q, x)`` are its arguments."""

    def __new__(cls, first: sp.Symbol, second: sp.Symbol, variable: sp.Symbol):
        return super().__new__(cls, first, second, variable)

    @property
    def variable(self) -> sp.Symbol:
        return self.args[2]


class KLExpectation(_PairAt):
    """``E_{x∼P} log P(x)/Q(x)``: the KL divergence as Definition 3's limit α → 1 reads it."""


class LogRatio(_PairAt):
    """``log P(x)/Q(x)``: the privacy loss at x."""


class SupLogRatio(_PairAt):
    """``log sup_{x ∈ supp Q} P(x)/Q(x)``: D_∞ as Definition 3's limit α → ∞ reads it."""


class PieceSum(_Notation):
    """A sum of integrals (or sums) over the pieces of a split, kept in the pieces' order, left to right."""

    @property
    def terms(self) -> tuple:
        return self.args

    def doit(self, **hints):
        return sp.Add(*[t.doit(**hints) for t in self.args])


class OutcomeTable(_Notation):
    """A finite law as its table ``(outcome: probability, ...)``."""

    def __new__(cls, table: dict | sp.Tuple):
        if isinstance(table, sp.Tuple):  # rebuilt from its own arguments (unpickling, xreplace)
            return super().__new__(cls, table)
        pairs = [sp.Tuple(_outcome(k), sp.sympify(v, strict=True)) for k, v in table.items()]
        return super().__new__(cls, sp.Tuple(*pairs))

    @property
    def items(self) -> tuple:
        return tuple((pair[0], pair[1]) for pair in self.args[0])


# --------------------------------------------------------------------------- several variables


class Coordinates(_Notation):
    """The coordinates of a point of ℝ^d, ``x, y``: ``P(x, y)`` is ``DensityAt(P, Coordinates(x, y))``."""

    @property
    def variables(self) -> tuple:
        return self.args


class ProductLaw(_Notation):
    """``P_1 ⊗ P_2^{⊗n}``: independent coordinates; arguments are ``(law, copies)`` pairs."""

    def __new__(cls, *blocks):
        return super().__new__(cls, *[sp.Tuple(*b) for b in blocks])

    @property
    def blocks(self) -> tuple:
        return tuple((b[0], b[1]) for b in self.args)


class NormalLaw(_Notation):
    """``N(μ, Σ)``: the (multivariate) normal law with mean vector μ and covariance matrix Σ."""

    def __new__(cls, mean, covariance):
        return super().__new__(cls, sp.ImmutableMatrix(mean), sp.ImmutableMatrix(covariance))


class JointMoment(_Notation):
    """``∫_{ℝ^d} P(x)^α Q(x)^{1−α} dx`` over several variables (``discrete``: the sum over ℤ^d)."""

    def __new__(cls, first: sp.Symbol, second: sp.Symbol, order, variables: Coordinates, discrete: bool = False):
        return super().__new__(cls, first, second, order, variables, sp.true if discrete else sp.false)

    @property
    def order(self) -> sp.Expr:
        return self.args[2]

    @property
    def variables(self) -> Coordinates:
        return self.args[3]

    @property
    def discrete(self) -> bool:
        return bool(self.args[4])

    def _eval_is_positive(self):
        return True


class QuadraticForm(_Notation):
    """``vᵀ M v`` for a vector v and a matrix M (symbols or explicit matrices)."""

    def __new__(cls, vector, matrix):
        return super().__new__(cls, vector, matrix)


class IntegralOverSpace(_Notation):
    """``∫_{ℝ^d} f(x) dx`` for a vector variable x (a matrix symbol), unevaluated."""

    def __new__(cls, integrand, variable, dimension):
        return super().__new__(cls, integrand, variable, dimension)


class Linear(_Notation):
    """``bᵀx``: a linear form (two vectors, symbols or explicit)."""

    def __new__(cls, first, second):
        return super().__new__(cls, first, second)


class Det(_Notation):
    """``det M``, unevaluated."""


class Trace(_Notation):
    """``tr M``, unevaluated."""


class Norm(_Notation):
    """``‖v‖_p``: the ℓ_p norm of a shift vector."""

    def __new__(cls, vector, p):
        return super().__new__(cls, vector, p)

    def _eval_is_nonnegative(self):
        return True


class Shifted(_Notation):
    """``Z_t``: the law of t + Z, the noise Z moved by t (a coordinate of an additive-noise mechanism)."""

    def __new__(cls, law, shift):
        return super().__new__(cls, law, shift)


class OutcomeLabel(sp.Symbol):
    """An outcome of a table that is a label, not a number: a symbol of that name, never parsed, and typeset as text
    (a label such as ``\\input{…}`` reached the LaTeX raw as a symbol's name; a probe)."""


def _outcome(key: object) -> sp.Basic:
    """An outcome as a SymPy object; a label that is not a number becomes an :class:`OutcomeLabel` of that name."""
    if isinstance(key, sp.Basic):
        return key
    if isinstance(key, int) and not isinstance(key, bool):
        return sp.Integer(key)
    return OutcomeLabel(str(key))


__all__ = ["DensityAt", "KLExpectation", "LogRatio", "OutcomeLabel", "OutcomeTable", "P", "PieceSum", "Q",
           "RenyiDivergence", "RenyiMoment", "SupLogRatio", "omega"]
# Several variables (rdpsym.derive.multivariate).
__all__ += ["Coordinates", "Det", "IntegralOverSpace", "JointMoment", "Linear", "Norm", "NormalLaw", "ProductLaw",
            "QuadraticForm", "Shifted", "Trace"]
