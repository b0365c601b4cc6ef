"""Definitions: probability densities and mass functions as SymPy expressions.

A :class:`Continuous` density is a pdf on an interval; a :class:`Discrete` one is a pmf on an integer range, or a
finite table ``{outcome: probability}``. Parameters are SymPy symbols with assumptions (``Symbol("s",
positive=True)``) or exact numbers; a Python float is read as the decimal it prints as.

Both check at construction that the density is nonnegative and normalises (:mod:`rdpsym.laws.validation`, handed the
expression and its pieces), raising :class:`~rdpsym.foundations.errors.DensityError` only when that is *definitely*
false (symbolic parameters that cannot be decided pass, and are checked again numerically wherever the density is
evaluated at values).

This module is the bottom of the laws: the other kinds of law are built on
these densities and import them (:mod:`rdpsym.laws.atoms`,
:mod:`rdpsym.laws.joint`, :mod:`rdpsym.laws.independent`).  Three spellings
here must nevertheless return one of those kinds: ``Continuous(pdf, x)`` with
``DiracDelta`` terms in the pdf (a law with atoms), ``Continuous(pdf, (x, y))``
(a joint law) and ``P ** n`` (n independent copies).  Rather than import those
modules back (a cycle), this module keeps a small registry of their
constructors, :func:`register_builder`, which each of them fills when it is
imported; :mod:`rdpsym.laws` imports all three, so the registry is full
whenever a density can be built.  A registry, not a constructor moved up,
because these are the public constructors and operator of the density classes
themselves (``rdpsym.Continuous``, ``P ** n``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from itertools import pairwise

import sympy as sp

from rdpsym.engine.context import UndecidedSign
from rdpsym.engine.pieces import (
    Piece,
    PiecePair,
    breakpoints,
    discrete_ranges,
    finite_outcomes,
    less,
    piece_point,
    piece_ranges,
    probe_points,
    resolve_branch,
    sort_points,
)
from rdpsym.engine.series import canonical
from rdpsym.foundations.errors import DensityError, NoClosedFormError, ParameterError, WrongType, must, quoted
from rdpsym.foundations.reading import MAX_TABLE_OUTCOMES, TABLE, exact, value_for
from rdpsym.foundations.symbols import Parameter, check_intervals, has_declared, in_positive_form
from rdpsym.laws.validation import (
    Validity,
    check_pieces,
    check_real,
    check_table,
    variable_covers,
    within_nonzero_factors,
    written,
)
from rdpsym.quadrature.regions import TABLE_OUTCOMES

oo = sp.oo


# --------------------------------------------------------------------------- the laws built on densities
#: The constructors of the other kinds of law, by what a density's constructor or operator builds with them:
#: ``"atoms"`` (:func:`rdpsym.laws.atoms.with_atoms`), ``"joint"`` (:class:`rdpsym.laws.joint.Joint`) and
#: ``"copies"`` (:meth:`rdpsym.laws.independent.Independent.iid`); see the module docstring.
_BUILDERS: dict[str, Callable] = {}


def register_builder(kind: str, builder: Callable) -> None:
    """Make ``builder`` the constructor of ``kind`` laws (called by the module that defines it, on import)."""
    _BUILDERS[kind] = builder


def law_builder(kind: str) -> Callable:
    """The constructor registered for ``kind`` laws (``"atoms"``, ``"joint"`` or ``"copies"``)."""
    builder = _BUILDERS.get(kind)
    if builder is None:  # rdpsym.laws imports every module that registers one, before any density is built
        raise RuntimeError(f"no constructor of {kind} laws is registered: import rdpsym.laws")
    return builder


def as_support(support: object, discrete: bool) -> object:
    """SymPy's named sets as the Interval or Range they are: ``sp.Reals`` is ℝ, ``sp.Integers`` ℤ, ``sp.Naturals0``
    and ``sp.Naturals`` the integers from 0 and from 1; anything else as given (the constructors check it).

    ``sp.Reals`` is an Interval with no arguments, so a law given it was built and then failed inside the
    definition's quadrature with a bare IndexError (a probe); the named sets of integers were refused.

    >>> as_support(sp.Reals, False), as_support(sp.Naturals0, True), as_support(sp.Integers, True)
    (Interval(-oo, oo), Range(0, oo, 1), Range(-oo, oo, 1))
    """
    if not discrete and support is sp.S.Reals:
        return sp.Interval(-oo, oo)
    if discrete:
        named = {sp.S.Integers: sp.Range(-oo, oo), sp.S.Naturals0: sp.Range(0, oo), sp.S.Naturals: sp.Range(1, oo)}
        return next((whole for name, whole in named.items() if support is name), support)
    return support


class Density:
    """Common interface of :class:`Continuous` and :class:`Discrete`."""

    var: sp.Symbol
    expr: sp.Expr
    lo: sp.Expr
    hi: sp.Expr
    discrete: bool

    @property
    def parameters(self) -> set[sp.Symbol]:
        """The free symbols other than the variable, in the density or its support."""
        return (set(self.expr.free_symbols) | set(self.support.free_symbols)) - {self.var}

    def breakpoints(self) -> list[sp.Expr]:
        """Where the density may switch branch; for a pmf, the integers that start a piece.

        A pmf switching at an integer c (``Abs(k − c)``, ``k <= c``) gets c as a
        piece of its own, [c, c], so every other piece holds one branch; a
        switch at a non-integer c starts a piece at ⌈c⌉.
        """
        points = breakpoints(self.expr, self.var, self.lo, self.hi)
        if not self.discrete:
            return points
        starts: list[sp.Expr] = []
        for c in points:
            if c.is_integer:
                starts += [c, c + 1]
            elif c.is_number:
                starts.append(sp.ceiling(c))
            else:
                raise NoClosedFormError(f"the pmf switches at {c}, which is not known to be an integer")
        return starts

    def branch(self, lo: sp.Expr, hi: sp.Expr) -> sp.Expr:
        """The density on the piece (lo, hi) of a common refinement of supports."""
        if not (_le(self.lo, lo) and _le(hi, self.hi)):
            return sp.S.Zero
        branch = resolve_branch(self.expr, self.var, piece_point(lo, hi, self.discrete))
        if self.discrete and lo == hi:
            return branch.subs(self.var, lo)  # one outcome: its probability (maybe 0)
        return branch

    def pieces(self) -> list[Piece]:
        """The pieces of the support on which the density is one smooth expression (integer ranges for a pmf)."""
        if self.discrete:
            ranges = discrete_ranges([self.lo, *self.breakpoints()], self.lo, self.hi)
        else:
            ranges = piece_ranges(sort_points(self.breakpoints(), self.lo, self.hi), False)
        return [Piece(lo, hi, self.branch(lo, hi)) for lo, hi in ranges]

    # Equal as laws written alike (the same expression or table, variable and support), and hashed so.
    def _key(self) -> tuple:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._key()))

    def __pow__(self, copies: object):
        """``P ** n``: n independent copies of this law (:class:`rdpsym.laws.independent.Independent`)."""
        return law_builder("copies")(self, copies)

    def _check(self) -> Validity:
        """Check the density (nonnegative, normalising); what was established (falsy: the mass undecided)."""
        if self.discrete and self.table is not None:
            return check_table(self.table)
        check_real(self.expr)
        outcomes = finite_outcomes(self.lo, self.hi) if self.discrete and not self.parameters else None
        if outcomes is not None and len(outcomes) <= TABLE_OUTCOMES:  # value by value (a switch at cos πk > 0 was lost)
            return check_table({k: self.expr.subs(self.var, k) for k in outcomes})
        return check_pieces(self.expr, self.var, self.pieces(), discrete=self.discrete, lo=self.lo, hi=self.hi,
                            parameters=self.parameters)

    def _validate(self) -> None:
        """The check at construction: marks the law checked, and a law at every value when it was shown one."""
        validity = self._check()
        object.__setattr__(self, "validated", True)
        object.__setattr__(self, "every_value", validity is Validity.EVERY_VALUE)


def _le(a: sp.Expr, b: sp.Expr) -> bool:
    if a == b or a is -oo or b is oo:
        return True
    if a is oo or b is -oo:
        return False
    d = sp.simplify(b - a)
    if d.is_nonnegative is None and has_declared(d):
        d = sp.simplify(in_positive_form(d))  # a parameter declared in an interval (rdpsym.parameter)
    if d.is_nonnegative is None:
        # Reading "undecided" as "no" silently dropped a piece of the support (Uniform[0, a] against
        # Uniform[0, c] came out as if a ≤ c): the derivation splits into the cases instead.
        raise UndecidedSign(d, f"cannot tell whether {a} <= {b}; give the parameters values or order assumptions")
    return bool(d.is_nonnegative)


@dataclass(frozen=True, eq=False)
class Continuous(Density):
    """A probability density ``pdf`` in ``var`` on the interval ``support``.

    >>> import sympy as sp
    >>> x = sp.Symbol("x", real=True)
    >>> lam = sp.Symbol("lambda", positive=True)
    >>> E = Continuous(lam * sp.exp(-lam * x), x, support=sp.Interval(0, sp.oo))
    >>> E.lo, E.hi
    (0, oo)
    >>> Continuous(2 * sp.exp(-x), x, support=sp.Interval(0, sp.oo))
    Traceback (most recent call last):
    ...
    rdpsym.foundations.errors.DensityError: the density must integrate to 1 over its support; got 2.
    """

    pdf: sp.Expr
    var: sp.Symbol
    support: sp.Interval = field(default=sp.Interval(-oo, oo))
    check: bool = True
    #: Whether the density was checked (nonnegative, normalising) when built: True after a check,
    #: and for copies of a checked density (renamed, a case of its parameters); see :func:`laws_checked`.
    validated: bool = field(default=False, init=False, compare=False, repr=False)
    #: Whether the check showed it a law at every value its parameters' assumptions allow
    #: (:attr:`rdpsym.laws.validation.Validity.EVERY_VALUE`): then :meth:`subs` needs no check of its own.
    every_value: bool = field(default=False, init=False, compare=False, repr=False)
    discrete = False

    def __new__(cls, *args, **kwargs):
        # A tuple of variables is a joint density in several variables (rdpsym.laws.joint.Joint).
        variables = args[1] if len(args) > 1 else kwargs.get("var")
        if isinstance(variables, (tuple, list, sp.Tuple)):
            return _joint(args, kwargs, discrete=False)
        pdf = args[0] if args else kwargs.get("pdf")
        if isinstance(pdf, sp.Basic) and pdf.has(sp.DiracDelta) and isinstance(variables, sp.Symbol):
            # Point masses beside a density (a clipped Gaussian): rdpsym.laws.atoms.
            with_atoms = law_builder("atoms")
            support = as_support(args[2] if len(args) > 2 else kwargs.get("support", sp.Interval(-oo, oo)), False)
            return with_atoms(pdf, variables, support, check=args[3] if len(args) > 3 else kwargs.get("check", True))
        return super().__new__(cls)

    def __post_init__(self) -> None:
        if not isinstance(self.var, sp.Symbol):
            raise DensityError(must("var", "a SymPy Symbol", quoted(self.var)))
        object.__setattr__(self, "support", as_support(self.support, False))
        if not isinstance(self.support, sp.Interval) or self.support.measure == 0:
            raise DensityError(must("support", "a SymPy Interval of positive length", self.support))
        variable_covers(self.var, self.support)
        var = self.var
        pdf = canonical(exact(self.pdf, "pdf", {self.var.name: self.var}))  # normalisers such as Σ e^{−j²} in one form
        pdf = written(pdf, var, "pdf")
        if var.is_real is not True:
            # SymPy simplifies log(exp(u)) only for real u: use a real twin of the variable.
            real = sp.Symbol(var.name, real=True)
            pdf, var = pdf.xreplace({var: real}), real
        object.__setattr__(self, "pdf", pdf)
        object.__setattr__(self, "var", var)
        if self.check:
            self._validate()

    @property
    def expr(self) -> sp.Expr:
        return self.pdf

    @property
    def lo(self) -> sp.Expr:
        return self.support.start

    @property
    def hi(self) -> sp.Expr:
        return self.support.end

    def renamed(self, var: sp.Symbol) -> Continuous:
        """The same density written in another variable."""
        return _as_checked(self, Continuous(self.pdf.xreplace({self.var: var}), var, self.support, check=False),
                           same_law=True)

    def substituted(self, mapping: Mapping) -> Continuous:
        """The density with parameters replaced by expressions (``{c: a + δ}``: one case of a split), not re-checked."""
        return _as_checked(self, Continuous(self.pdf.xreplace(mapping), self.var, self.support.xreplace(mapping),
                                            check=False), same_law=_within_assumptions(mapping))

    def subs(self, values: Mapping) -> Continuous:
        """The density with parameter values substituted (and re-checked, unless it is a law at those values
        already: :func:`_at_values`); values are read by the one reader."""
        given = parameter_values(values, (self,))
        pdf = self.pdf.subs(given)
        return _at_values(self, given, pdf, lambda check: Continuous(pdf, self.var, self.support.subs(given), check))

    def __repr__(self) -> str:
        return f"Continuous({self.pdf}, {self.var}, support={self.support})"

    def _key(self) -> tuple:
        return self.pdf, self.var, self.support


@dataclass(frozen=True, eq=False)
class Discrete(Density):
    """A pmf on an integer range, or a finite table ``{outcome: probability}``.

    >>> import sympy as sp
    >>> p = sp.Symbol("p", positive=True)
    >>> Discrete({0: p, 1: 1 - p}).table
    {0: p, 1: 1 - p}
    >>> k = sp.Symbol("k", integer=True)
    >>> G = Discrete(sp.Rational(1, 2)**(k + 1), k, support=sp.Range(0, sp.oo))
    >>> Discrete({0: sp.Rational(1, 2), 1: sp.Rational(1, 3)})
    Traceback (most recent call last):
    ...
    rdpsym.foundations.errors.DensityError: the density must sum to 1 over its support; got 5/6.
    """

    pmf: sp.Expr | Mapping
    var: sp.Symbol | None = None
    support: sp.Range | None = None
    check: bool = True
    validated: bool = field(default=False, init=False, compare=False, repr=False)
    #: As :attr:`Continuous.every_value`.
    every_value: bool = field(default=False, init=False, compare=False, repr=False)
    discrete = True

    def __new__(cls, *args, **kwargs):
        variables = args[1] if len(args) > 1 else kwargs.get("var")
        if isinstance(variables, (tuple, list, sp.Tuple)):
            return _joint(args, kwargs, discrete=True)
        return super().__new__(cls)

    def __post_init__(self) -> None:
        if isinstance(self.pmf, Mapping):
            if not 0 < len(self.pmf) <= MAX_TABLE_OUTCOMES:  # (before a value is read)
                raise DensityError(must("pmf", TABLE, f"{len(self.pmf)} outcomes" if self.pmf else "{}"))
            table = {_outcome(k): exact(v, f"probability of {k!r}") for k, v in self.pmf.items()}
            object.__setattr__(self, "pmf", table)
            if self.check:
                self._validate()
            return
        if not isinstance(self.var, sp.Symbol):
            raise DensityError(must("var", "a SymPy Symbol (the outcome variable)", quoted(self.var)))
        support = as_support(self.support, True) if self.support is not None else sp.Range(0, oo)
        if not isinstance(support, sp.Range) or support.step != 1 or support.is_empty:
            raise DensityError(must("support", "a non-empty SymPy Range with step 1", quoted(support)))
        variable_covers(self.var, support)
        var = self.var
        pmf = canonical(exact(self.pmf, "pmf", {self.var.name: self.var}))  # normalisers such as Σ e^{−j²} in one form
        pmf = written(pmf, var, "pmf")
        if var.is_integer is not True:
            integer = sp.Symbol(var.name, integer=True)
            pmf, var = pmf.xreplace({var: integer}), integer
        object.__setattr__(self, "pmf", pmf)
        object.__setattr__(self, "var", var)
        object.__setattr__(self, "support", within_nonzero_factors(pmf, var, support))
        if self.check:
            self._validate()

    @property
    def table(self) -> dict | None:
        """The finite table, or None for a pmf expression."""
        return self.pmf if isinstance(self.pmf, dict) else None

    @property
    def expr(self) -> sp.Expr:
        if self.table is not None:
            return sp.Add(*self.table.values())
        return self.pmf

    @property
    def parameters(self) -> set[sp.Symbol]:
        if self.table is not None:
            return set().union(*(v.free_symbols for v in self.table.values()))
        return super().parameters

    @property
    def lo(self) -> sp.Expr:
        """The first outcome (−∞ for a range unbounded below): the Range's start."""
        return self.support.start

    @property
    def hi(self) -> sp.Expr:
        """The last outcome, inclusive (∞ for a range unbounded above): SymPy's stop is exclusive, so stop − 1.

        Read from start and stop, never from ``inf``/``sup``, which SymPy refuses for some
        symbolic ranges (``Range(0, N)`` once N is written N = 1 + δ).
        """
        stop = self.support.stop
        return oo if stop is oo else stop - 1

    def renamed(self, var: sp.Symbol) -> Discrete:
        """The same pmf written in another variable (tables have none)."""
        if self.table is not None:
            return self
        return _as_checked(self, Discrete(self.pmf.xreplace({self.var: var}), var, self.support, check=False),
                           same_law=True)

    def substituted(self, mapping: Mapping) -> Discrete:
        """The pmf with parameters replaced by expressions (one case of a split), not re-checked."""
        every = _within_assumptions(mapping)
        if self.table is not None:
            return _as_checked(self, Discrete({k: v.xreplace(mapping) for k, v in self.table.items()}, check=False),
                               same_law=every)
        return _as_checked(self, Discrete(self.pmf.xreplace(mapping), self.var, self.support.xreplace(mapping),
                                          check=False), same_law=every)

    def subs(self, values: Mapping) -> Discrete:
        """The pmf with parameter values substituted (and re-checked, unless it is a law at those values
        already: :func:`_at_values`); values are read by the one reader."""
        given = parameter_values(values, (self,))
        if self.table is not None:
            table = {k: v.subs(given) for k, v in self.table.items()}
            return _at_values(self, given, sp.Add(*table.values()), lambda check: Discrete(table, check=check))
        pmf = self.pmf.subs(given)
        support = self.support.subs(given) if self.support is not None else None  # binomial's n in Range(0, n + 1)
        return _at_values(self, given, pmf, lambda check: Discrete(pmf, self.var, support, check))

    def __repr__(self) -> str:
        if self.table is not None:
            return f"Discrete({self.table})"
        return f"Discrete({self.pmf}, {self.var}, support={self.support})"

    def _key(self) -> tuple:
        pmf = frozenset(self.table.items()) if self.table is not None else self.pmf  # a table in any order
        return pmf, self.var, self.support


def _joint(args: tuple, kwargs: dict, discrete: bool):
    """``Continuous(pdf, (x, y), support, check)`` (``Discrete``) as the joint law it means."""
    Joint = law_builder("joint")
    names = ("pmf" if discrete else "pdf", "var", "support", "check")
    given = dict(zip(names, args)) | kwargs
    variables = tuple(given.pop("var"))
    expr = given.pop(names[0])
    if len(variables) == 1:
        kind = Discrete if discrete else Continuous
        return kind(expr, variables[0], **given)
    return Joint(expr, variables, given.get("support"), discrete, given.get("check", True))


def _at_values(law: Density, given: dict, formula: sp.Expr, build: Callable[[bool], Density]) -> Density:
    """``law`` at the parameter values ``given`` (``build(check)`` makes it), checked unless that is settled.

    It is settled when ``law`` was shown a law at every value its parameters' assumptions allow
    (:attr:`Continuous.every_value`), each value meets every assumption of its parameter (SymPy decides each,
    as it decided the signs and the mass; an undecided one is checked), and the formula at the values holds
    no ∞ or NaN.  The copy keeps the property for the parameters left.  The check of a derivation builds its
    laws at every sample point so: checked each time, a Beta pair's points cost a third of its derivation.
    """
    if not given and law.validated:
        # No parameter given a value: the law itself, checked already (the check of a derivation asks for the laws
        # at each sample point, and a law without parameters, or a pair where only one has them, was checked again
        # at every point: a skew-normal law's nonnegativity, a sympy.solve of its critical points, each time).
        return law
    settled = (law.every_value and not formula.has(sp.zoo, sp.nan)
               and all(_meets_assumptions(symbol, value) for symbol, value in given.items()))
    if not settled:
        return build(True)
    copy = build(False)
    object.__setattr__(copy, "validated", True)
    object.__setattr__(copy, "every_value", True)
    return copy


def _meets_assumptions(symbol: sp.Symbol, value: sp.Expr) -> bool:
    """Whether SymPy shows ``value`` to have every property ``symbol`` is declared with (positive, integer, ...)."""
    return all(getattr(value, f"is_{fact}", None) is held for fact, held in symbol.assumptions0.items())


def _within_assumptions(mapping: Mapping) -> bool:
    """Whether every parameter's replacement meets the parameter's assumptions for every value of its own symbols
    (m₂ ↦ m₁ + δ, σ₂ ↦ σ₁ + δ with δ > 0): then a law at every value of the original parameters is one at every
    value of the new ones, and a split case's laws need no new check at each point its result is checked at."""
    # A parameter declared in an interval (rdpsym.parameter) has more than its assumptions say: c₂ ∈ (0, 1) ↦ c₁ + δ
    # is positive for every δ > 0 and yet leaves (0, 1); such a case's laws are checked at each point, as before.
    return all(_meets_assumptions(symbol, value) and not isinstance(symbol, Parameter)
               for symbol, value in mapping.items())


def _as_checked(original: Density, copy: Density, same_law: bool = False) -> Density:
    """``copy`` marked as checked when ``original`` was (a copy of a checked law needs no new check); when it is
    the same law (written in another variable, or at parameter values within its parameters' assumptions: see
    :func:`_within_assumptions`), also a law at every value when ``original`` was."""
    object.__setattr__(copy, "validated", original.validated)
    if same_law:
        object.__setattr__(copy, "every_value", original.every_value)
    return copy


def parameter_values(values: Mapping | None, densities: tuple[Density, ...]) -> dict:
    """``{Symbol or name: value}`` as ``{parameter: exact value}`` for the parameters of ``densities``.

    A key is matched by its name (a Symbol key too, whatever its assumptions: ``Symbol("sigma")`` means
    the density's positive σ), and a key that names no parameter is an error, never ignored.  Each value
    is read and checked against its symbol (:func:`rdpsym.foundations.reading.value_for`): SymPy's
    ``subs`` would sympify a text value, that is run it as Python, so text is parsed, never evaluated.
    """
    if values is not None and not isinstance(values, Mapping):
        raise WrongType(must("values", "a mapping {parameter: value}, such as {sigma: 2}", quoted(values)))
    by_name = {s.name: s for d in densities for s in d.parameters}
    out = {}
    for key, value in (values or {}).items():
        symbol = by_name.get(key.name if isinstance(key, sp.Symbol) else str(key))
        if symbol is None:
            known = ", ".join(sorted(by_name)) or "none"
            raise ParameterError(must("values", f"keyed by the parameters ({known})", quoted(key)))
        out[symbol] = value_for(symbol, value)
    check_intervals(out)  # (intervals whose ends involve other parameters)
    return out


def _outcome(key: object) -> object:
    if isinstance(key, (float, int)) and not isinstance(key, bool):
        return exact(key, "outcome")
    if isinstance(key, sp.Basic) and key.free_symbols:  # (compared as labels, m and 0 were disjoint: ∞, a probe)
        raise DensityError(must("a table's outcomes", "numbers or text labels, without parameters (a law shifted by "
                                "a parameter is a pmf on a Range: Discrete(pmf, k, support=Range(m, m + 2)))", key))
    return key


def as_table(density: Discrete) -> dict | None:
    """The table of a finite discrete density (an expression on a finite range too)."""
    if density.table is not None:
        return density.table
    outcomes = finite_outcomes(density.lo, density.hi)
    if outcomes is not None:
        return {sp.Integer(j): density.pmf.subs(density.var, j) for j in outcomes}
    return None


def common_refinement(P: Density, Q: Density) -> list[PiecePair]:
    """The pieces on which both P and Q are smooth (or zero), over the union of supports.

    Both the closed-form engine and the numeric definition work piece by
    piece on this one refinement.
    """
    lo, hi = _first(P.lo, Q.lo, less), _first(P.hi, Q.hi, lambda a, b: less(b, a))
    if isinstance(P, Discrete):
        # Pieces of integers: each support {m, …, n} contributes the starts m and n + 1 (its last outcome n is
        # inside it, the first outcome past it starts a piece of its own), each branch switch its starts.
        starts = [*P.breakpoints(), *Q.breakpoints(), P.lo, Q.lo, *(D.hi + 1 for D in (P, Q) if D.hi is not oo)]
        ranges = discrete_ranges([p for p in starts if p not in (oo, -oo)], lo, hi)
    else:
        points = [*P.breakpoints(), *Q.breakpoints(), P.lo, P.hi, Q.lo, Q.hi]
        ranges = list(pairwise(sort_points([p for p in points if p not in (oo, -oo)], lo, hi)))
    return [PiecePair(a, b, P.branch(a, b), Q.branch(a, b)) for a, b in ranges]


def _first(a: sp.Expr, b: sp.Expr, before) -> sp.Expr:
    """Whichever of two support ends comes first by ``before`` (a strict order); undecided is a case split."""
    if a == b or before(a, b) is True:
        return a
    if before(b, a) is True:
        return b
    raise UndecidedSign(b - a, f"cannot order the support ends {a} and {b}; give their parameters values or "
                               "order assumptions")


def align_pair(P: Density, Q: Density) -> tuple[Density, Density, tuple[dict, dict] | None]:
    """Check that P and Q can be compared; give Q P's variable; return their tables if finite.

    The tables are returned when both densities are finite (a dict, or a pmf on
    a short numeric range); then divergences are finite sums over the outcomes.
    """
    if not isinstance(P, Density) or not isinstance(Q, Density):
        raise DensityError(
            must("P and Q", "rdpsym.Continuous or rdpsym.Discrete densities", f"{type(P).__name__}, {type(Q).__name__}")
        )
    if isinstance(P, Continuous) != isinstance(Q, Continuous):
        raise DensityError("P and Q must both be Continuous or both Discrete; got one of each.")
    if isinstance(P, Discrete):
        tp, tq = as_table(P), as_table(Q)
        if tp is not None and tq is not None:
            return P, Q, (tp, tq)
        if P.table is not None or Q.table is not None:
            raise DensityError(
                "a finite table {outcome: probability} and a pmf on an infinite range cannot be compared; "
                "write the table as a pmf expression on a Range."
            )
    if Q.var != P.var:
        Q = Q.renamed(P.var)
    return P, Q, None


__all__ = [
    "Continuous",
    "Density",
    "Discrete",
    "Piece",
    "PiecePair",
    "align_pair",
    "as_table",
    "common_refinement",
    "law_builder",
    "parameter_values",
    "piece_point",
    "piece_ranges",
    "probe_points",
    "register_builder",
]
