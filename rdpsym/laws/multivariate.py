"""Laws in several variables: joint densities, independent coordinates, the multivariate normal.

Three ways to write a law on ℝ^d (or ℤ^d), each checked at construction like
the one-dimensional densities (nonnegative, normalised; an error only when that
is *definitely* false):

* :class:`Joint` — a joint pdf (pmf) in a tuple of variables on a product of
  intervals (integer ranges).  ``rdpsym.Continuous(pdf, (x, y))`` and
  ``rdpsym.Discrete(pmf, (j, k), support=...)`` build one.  A joint density
  that is a product of per-coordinate factors (``exp`` of a sum of
  per-coordinate terms, times constants) is recognised as such
  (:func:`rdpsym.engine.quadratic.separate`): its coordinates are then
  validated, and later derived, one dimension at a time.
* :class:`Independent` — the product measure P₁ ⊗ P₂ ⊗ … of independent
  coordinates, ``P ** n`` for n i.i.d. copies (n a number or a positive
  integer symbol).  Each coordinate is any law rdpsym knows, continuous or
  discrete, one-dimensional or not.
* :class:`MultivariateNormal` — N(μ, Σ) with a symbolic mean vector and
  covariance matrix (a SymPy ``Matrix``), Σ symmetric and positive definite
  (Sylvester's criterion; undecided minors are hypotheses).

Normalisation is checked without SymPy's multiple integration: a separable
density by its one-dimensional factors (the engine's rules), a Gaussian one by
the d-dimensional Gaussian integral (completing the square), a finite discrete
one by its exact sum, and anything else, when no parameters are left, by
nested quadrature.

The built-in mechanisms in several dimensions are here too:
``rdpsym.gaussian(σ, Δ, dimension=d)`` (ℓ₂ sensitivity) and
``rdpsym.laplace(b, Δ, dimension=d)`` (ℓ₁ sensitivity), whose worst case over
the sensitivity ball is derived (see :class:`SensitivityBall`).

>>> import sympy as sp
>>> x, y = sp.symbols("x y", real=True)
>>> J = Joint(sp.exp(-x**2/2 - y**2/2) / (2*sp.pi), (x, y))
>>> [str(law.expr) for _, law in J.coordinates()]
['sqrt(2)*exp(-x**2/2)/(2*sqrt(pi))', 'sqrt(2)*exp(-y**2/2)/(2*sqrt(pi))']
>>> s = sp.Symbol("sigma", positive=True)
>>> N = MultivariateNormal([0, 0], sp.diag(s**2, s**2))
>>> N.dimension, (N ** 3).dimension
(2, 6)
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import mpmath
import sympy as sp

from rdpsym.engine.context import Hypotheses
from rdpsym.engine.integrals import integrate_exp
from rdpsym.engine.pieces import log_of, piece_point
from rdpsym.engine.quadratic import (
    gaussian_integral,
    positive_definite,
    quadratic_coefficients,
    separate,
    tidy_signs,
)
from rdpsym.engine.sums import sum_exp
from rdpsym.foundations.errors import DensityError, NoClosedFormError, ParameterError, must
from rdpsym.foundations.precision import sympy_evalf_guard
from rdpsym.foundations.reading import exact
from rdpsym.foundations.record import GIL_ALAJAJI_LINDER_2013, VAN_ERVEN_HARREMOES_2014
from rdpsym.laws.densities import Continuous, Density, Discrete, parameter_values
from rdpsym.laws.references import Reference
from rdpsym.laws.validation import check_normalised
from rdpsym.quadrature.compile import to_mpf

oo = sp.oo

class Law:
    """A law in several variables: :class:`Joint`, :class:`Independent` or :class:`MultivariateNormal`.

    ``dimension`` may be symbolic (n i.i.d. copies); ``variables`` are the
    coordinates' symbols when it is a number.  Laws compare and hash by value
    and pickle.
    """

    discrete: bool | None

    @property
    def dimension(self) -> sp.Expr:
        raise NotImplementedError

    @property
    def parameters(self) -> set[sp.Symbol]:
        raise NotImplementedError

    def blocks(self) -> tuple[tuple[object, sp.Expr], ...]:
        """The law as independent blocks ``((law, copies), ...)`` in coordinate order (itself, once, by default)."""
        return ((self, sp.S.One),)

    def joint(self) -> Joint:
        """The law as one explicit joint density in its variables (a concrete dimension)."""
        raise NotImplementedError

    def subs(self, values: Mapping) -> Law:
        raise NotImplementedError

    def __pow__(self, copies: object) -> Independent:
        """``P ** n``: n independent copies of this law."""
        return Independent.iid(self, copies)

    def _key(self) -> tuple:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._key()))


def is_multivariate(*laws: object) -> bool:
    """Whether any of ``laws`` is a law in several variables (the multivariate derivation applies)."""
    return any(isinstance(law, Law) for law in laws)


def dimension_of(law: object) -> sp.Expr:
    """The dimension of a law: 1 for a one-dimensional density."""
    return law.dimension if isinstance(law, Law) else sp.S.One


def variables_of(law: object) -> tuple[sp.Symbol, ...]:
    """The coordinates' symbols (a one-dimensional density's variable; a finite table has none)."""
    if isinstance(law, Law):
        return law.variables
    return (law.var,) if law.var is not None else ()


# --------------------------------------------------------------------------- Joint


def _support_sets(support: object, d: int, discrete: bool) -> tuple:
    """The support as one set per coordinate: None is ℝ^d (ℕ^d), a ProductSet or a sequence is read per
    coordinate, and one Interval (Range) is the same set for every coordinate."""
    if support is None:
        return ((sp.Range(0, oo) if discrete else sp.Interval(-oo, oo)),) * d
    if isinstance(support, sp.ProductSet):
        sets = tuple(support.sets)
    elif isinstance(support, (sp.Interval, sp.Range)):
        sets = (support,) * d
    elif isinstance(support, (tuple, list, sp.Tuple)):
        sets = tuple(support)
    else:
        sets = ()
    kind = "a SymPy Range with step 1" if discrete else "a SymPy Interval of positive length"
    if len(sets) != d:
        raise DensityError(must("support", f"one set per variable ({d}): a ProductSet, a tuple of sets, or one "
                                           "set for all", support))
    for s in sets:
        ok = (isinstance(s, sp.Range) and s.step == 1 and s.size != 0) if discrete else (
            isinstance(s, sp.Interval) and s.measure != 0)
        if not ok:
            raise DensityError(must("each coordinate's support", kind, s))
    return sets


def _read_variables(variables: object, discrete: bool) -> tuple[sp.Symbol, ...]:
    """Distinct SymPy symbols; each gets a real (integer) twin when it is not declared so."""
    seq = tuple(variables) if isinstance(variables, (tuple, list, sp.Tuple)) else None
    if not seq or not all(isinstance(v, sp.Symbol) for v in seq) or len(set(seq)) != len(seq):
        raise DensityError(must("variables", "a tuple of distinct SymPy Symbols, such as (x, y)", repr(variables)))
    return seq


def _twins(expr: sp.Expr, variables: tuple, discrete: bool) -> tuple[sp.Expr, tuple]:
    """The variables declared real (integer), so that log(exp(u)) simplifies, and ``expr`` written in them."""
    twins = []
    for v in variables:
        ok = v.is_integer if discrete else v.is_real
        twins.append(v if ok else sp.Symbol(v.name, **({"integer": True} if discrete else {"real": True})))
    return expr.xreplace(dict(zip(variables, twins))), tuple(twins)


@dataclass(frozen=True, eq=False)
class Joint(Law):
    """A joint density ``pdf`` in ``variables`` on a product of intervals (``discrete``: a pmf on integer ranges).

    ``support`` is one SymPy set per variable (a tuple, or a ``ProductSet`` such as
    ``Interval(0, oo)**2``), one set for all, or None for ℝ^d (ℕ^d when discrete).
    Checked at construction: nonnegative, and normalising (see the module docstring).

    >>> import sympy as sp
    >>> x, y = sp.symbols("x y", real=True)
    >>> Joint(sp.exp(-x - y), (x, y), support=sp.Interval(0, sp.oo)).coordinates()[1][1]
    Continuous(exp(-y), y, support=Interval(0, oo))
    >>> Joint(2 * sp.exp(-x - y), (x, y), support=sp.Interval(0, sp.oo))
    Traceback (most recent call last):
    ...
    rdpsym.foundations.errors.DensityError: the density must integrate to 1 over its support; got 2.
    """

    pdf: sp.Expr
    variables: tuple
    support: object = None
    discrete: bool = False
    check: bool = True

    def __post_init__(self) -> None:
        variables = _read_variables(self.variables, self.discrete)
        pdf = exact(self.pdf, "pmf" if self.discrete else "pdf", {v.name: v for v in variables})
        pdf, variables = _twins(pdf, variables, self.discrete)
        object.__setattr__(self, "pdf", pdf)
        object.__setattr__(self, "variables", variables)
        object.__setattr__(self, "support", _support_sets(self.support, len(variables), self.discrete))
        if self.check:
            self._check()

    @property
    def expr(self) -> sp.Expr:
        return self.pdf

    @property
    def dimension(self) -> sp.Expr:
        return sp.Integer(len(self.variables))

    @property
    def parameters(self) -> set[sp.Symbol]:
        free = set(self.pdf.free_symbols).union(*(s.free_symbols for s in self.support))
        return free - set(self.variables)

    def joint(self) -> Joint:
        return self

    def renamed(self, variables: Sequence[sp.Symbol]) -> Joint:
        """The same law written in other variables (position by position)."""
        return Joint(self.pdf.xreplace(dict(zip(self.variables, variables))), tuple(variables), self.support,
                     self.discrete, check=False)

    def subs(self, values: Mapping) -> Joint:
        """The density with parameter values substituted (and re-checked); values are read by the one reader."""
        given = parameter_values(values, (self,))
        return Joint(self.pdf.subs(given), self.variables, tuple(s.subs(given) for s in self.support), self.discrete)

    def blocks(self) -> tuple:
        parts = self.coordinates()
        return tuple((law, sp.S.One) for _, law in parts)

    def coordinates(self) -> list[tuple[tuple, object]]:
        """The law as independent blocks ``[(variables, law), ...]``, finest first (see the module docstring).

        Each block's law is a one-dimensional :class:`~rdpsym.Continuous` (:class:`~rdpsym.Discrete`)
        density or a :class:`Joint` in its variables, normalised; ``[(all variables, self)]``
        when the density does not separate, or a block's mass has no closed form.
        """
        return self._coordinates

    @functools.cached_property
    def _coordinates(self) -> list[tuple[tuple, object]]:
        constant, parts = separate(self.pdf, self.variables)
        if len(parts) == 1:
            return [(self.variables, self)]
        laws, masses = [], []
        for variables, factor in parts:
            mass = _block_mass(factor, variables, self._sets(variables), self.discrete)
            if mass is None:
                return [(self.variables, self)]
            masses.append(mass)
            laws.append((variables, factor / mass))
        out = []
        for variables, density in laws:
            sets = self._sets(variables)
            if len(variables) == 1:
                kind = Discrete if self.discrete else Continuous
                law = kind(density, variables[0], sets[0], check=False)
            else:
                law = Joint(density, variables, sets, self.discrete, check=False)
            out.append((variables, law))
        object.__setattr__(self, "_separated_mass", constant * sp.Mul(*masses))
        return out

    def _sets(self, variables: Sequence[sp.Symbol]) -> tuple:
        return tuple(self.support[self.variables.index(v)] for v in variables)

    def _check(self) -> None:
        parts = self.coordinates()
        if len(parts) > 1:
            for _, law in parts:  # each coordinate: nonnegative, normalised (the masses are 1 by construction)
                law._check()
            check_normalised(sp.simplify(self._separated_mass) if not self._separated_mass.is_number
                             else self._separated_mass, self.discrete)
            return
        check_joint(self.pdf, self.variables, self.support, self.discrete)

    def __repr__(self) -> str:
        kind = ", discrete=True" if self.discrete else ""
        return f"Joint({self.pdf}, {self.variables}, support={self.support}{kind})"

    def _key(self) -> tuple:
        return self.pdf, self.variables, self.support, self.discrete


def _block_mass(factor: sp.Expr, variables: tuple, sets: tuple, discrete: bool) -> sp.Expr | None:
    """∫ (Σ) of one block's factor over its sets in closed form, or None (then the law is kept whole)."""
    if len(variables) == 1:
        x = variables[0]
        kind = Discrete if discrete else Continuous
        try:
            pieces = kind(factor, x, sets[0], check=False).pieces()
            total = sp.S.Zero
            for piece in pieces:
                if piece.is_zero:
                    continue
                L = log_of(piece.branch, x, piece_point(piece.lo, piece.hi, discrete))
                rule = sum_exp if discrete else integrate_exp
                value = rule(L, x, piece.lo, piece.hi, Hypotheses())
                if value.condition is not sp.true or value.value == oo:
                    return None
                total += value.value
        except (NoClosedFormError, DensityError):
            return None
        return total
    gaussian = _gaussian_mass(factor, variables, sets, discrete)
    return gaussian if gaussian is not None and gaussian != oo else None


def _gaussian_mass(expr: sp.Expr, variables: tuple, sets: tuple, discrete: bool) -> sp.Expr | None:
    """∫_{ℝ^k} expr for a log-quadratic ``expr`` (the Gaussian integral), or None when it is not one."""
    if discrete or any(s != sp.Interval(-oo, oo) for s in sets):
        return None
    try:
        quadratic = quadratic_coefficients(log_of(expr), variables)
    except NoClosedFormError:
        return None
    if quadratic is None:
        return None
    value = gaussian_integral(*quadratic, Hypotheses())
    if value.definite is False:
        return oo
    return sp.simplify(value.value) if not value.conditions else None


def check_joint(expr: sp.Expr, variables: tuple, sets: tuple, discrete: bool) -> None:
    """Check a joint density that does not separate: nonnegative and normalised, when that can be decided.

    A Gaussian (log-quadratic on ℝ^k) by its d-dimensional integral; a finite discrete
    one by its exact sum; otherwise, without parameters, numerically (nested
    quadrature or summation to 20 digits); with parameters an undecided mass passes.
    """
    parameters = expr.free_symbols - set(variables)
    if expr.is_negative:
        raise DensityError(must("the density", "nonnegative on its support", expr))
    if not parameters and not expr.is_nonnegative:
        _probe_nonnegative(expr, variables, sets, discrete)
    gaussian = _gaussian_mass(expr, variables, sets, discrete)
    if gaussian == oo:
        raise DensityError("the density must integrate to 1 over its support; its integral diverges (its "
                           "log-density is a quadratic form that is not negative definite).")
    if gaussian is not None:
        check_normalised(gaussian, discrete)
        return
    outcomes = product_outcomes(sets) if discrete else None
    if outcomes is not None:
        total = sp.Add(*[expr.subs(dict(zip(variables, point))) for point in outcomes])
        check_normalised(total if total.is_number else sp.simplify(total), True)
        return
    if parameters:
        return
    check_normalised(sp.Float(numeric_mass(expr, variables, sets, discrete, dps=20), 20), discrete)


def product_outcomes(sets: tuple, limit: int = 4096) -> list | None:
    """Every point of a finite product of integer ranges (at most ``limit``), or None."""
    sizes = [s.size for s in sets]
    if not all(n.is_number and n.is_finite for n in sizes):
        return None
    total = 1
    for n in sizes:
        total *= int(n)
    if total > limit:
        return None
    return list(itertools.product(*[list(s) for s in sets]))


@sympy_evalf_guard.serialized  # mpmath's global precision: one thread at a time
def _probe_nonnegative(expr: sp.Expr, variables: tuple, sets: tuple, discrete: bool) -> None:
    """A parameter-free density that SymPy cannot show nonnegative, probed on a grid of each coordinate."""
    axes = []
    for s in sets:
        if discrete:
            lo = s.inf if s.inf.is_finite else -20
            hi = s.sup if s.sup.is_finite else lo + 20
            axes.append([sp.Integer(j) for j in range(int(lo), min(int(hi), int(lo) + 20) + 1)])
        else:
            lo, hi = s.start, s.end
            if lo.is_finite and hi.is_finite:
                axes.append([lo + (hi - lo) * sp.Rational(j, 12) for j in range(1, 12)])
            else:
                base = lo if lo.is_finite else (hi if hi.is_finite else 0)
                steps = [sp.Rational(1, 4), 1, 3, 10] if lo.is_finite else [-sp.Rational(1, 4), -1, -3, -10]
                both = [] if (lo.is_finite or hi.is_finite) else [-p for p in steps]
                axes.append([base + p for p in steps + both])
    f = sp.lambdify(variables, expr, modules="mpmath")
    with mpmath.workdps(30):
        for point in itertools.product(*axes):
            try:
                value = f(*[to_mpf(p, mpmath.mp) if not discrete else int(p) for p in point])
            except (ZeroDivisionError, ValueError, TypeError, OverflowError):
                continue
            if isinstance(value, mpmath.mpf) and value < 0:
                at = ", ".join(f"{v} = {p}" for v, p in zip(variables, point))
                shown = f"{mpmath.nstr(value, 6)} at {at}"
                raise DensityError(must("the density", "nonnegative on its support", shown))


@sympy_evalf_guard.serialized  # mpmath's global precision: one thread at a time
def numeric_mass(expr: sp.Expr, variables: tuple, sets: tuple, discrete: bool, dps: int = 20) -> mpmath.mpf:
    """∫ (Σ) of a parameter-free joint density by nested quadrature (summation), to about ``dps`` digits.

    Only for the check at construction (a closed form or a separation is used when one exists).
    """
    f = sp.lambdify(variables, expr, modules="mpmath")
    with mpmath.workdps(dps + 5):
        if discrete:
            ranges = [[to_mpf(s.inf, mpmath.mp), to_mpf(s.sup, mpmath.mp)] for s in sets]
            return mpmath.nsum(lambda *k: f(*[int(v) for v in k]), *ranges)
        ranges = [[to_mpf(s.start, mpmath.mp), to_mpf(s.end, mpmath.mp)] for s in sets]
        return mpmath.quad(f, *ranges)


# --------------------------------------------------------------------------- Independent


def _copies(value: object) -> sp.Expr:
    """A number of copies: an integer ≥ 1, or a symbol declared a positive (nonnegative) integer."""
    n = exact(value, "copies") if not isinstance(value, sp.Basic) else value
    if n.is_integer is True and n.is_number and n >= 1:
        return n
    if n.is_integer is True and n.is_nonnegative is True and not n.is_number:
        return n
    raise ParameterError(must("the number of copies", "an integer >= 1, or a Symbol declared integer=True, "
                                                       "positive=True", n))


def _is_law(law: object) -> bool:
    return isinstance(law, (Density, Law))


@dataclass(frozen=True, eq=False, init=False)
class Independent(Law):
    """The product measure P₁ ⊗ P₂ ⊗ … of independent coordinates (``P ** n``: n i.i.d. copies).

    Each coordinate is a one-dimensional density (:class:`~rdpsym.Continuous`,
    :class:`~rdpsym.Discrete`) or a law in several variables; nested products are
    flattened and equal neighbours grouped, so ``blocks`` is ``((law, copies), ...)``.
    Its divergence is the sum over coordinates (van Erven–Harremoës 2014, Theorem 28).

    >>> import sympy as sp, rdpsym
    >>> x = sp.Symbol("x", real=True)
    >>> n = sp.Symbol("n", integer=True, positive=True)
    >>> E = rdpsym.Continuous(sp.exp(-x), x, support=sp.Interval(0, sp.oo))
    >>> (E ** n).dimension, Independent(E, E ** 2).blocks() == ((E, 3),)
    (n, True)
    """

    blocks_: tuple

    def __init__(self, *laws: object):
        blocks: list[list] = []
        for law in laws:
            parts = law.blocks_ if isinstance(law, Independent) else ((law, sp.S.One),)
            for part, copies in parts:
                if not _is_law(part):
                    raise DensityError(must("each coordinate of Independent", "an rdpsym law (Continuous, Discrete, "
                                                                              "Joint, MultivariateNormal, Independent)",
                                            type(part).__name__))
                if copies == 0:
                    continue
                if blocks and blocks[-1][0] == part:
                    blocks[-1][1] += copies
                else:
                    blocks.append([part, copies])
        if not blocks:
            raise DensityError(must("Independent", "at least one coordinate", "none"))
        object.__setattr__(self, "blocks_", tuple((law, sp.S(c)) for law, c in blocks))

    @classmethod
    def iid(cls, law: object, copies: object) -> Independent:
        """``copies`` independent copies of ``law`` (``law ** copies``)."""
        if not _is_law(law):
            raise DensityError(must("the law", "an rdpsym law", type(law).__name__))
        n = _copies(copies)
        out = cls.__new__(cls)
        inner = law.blocks_ if isinstance(law, Independent) else ((law, sp.S.One),)
        object.__setattr__(out, "blocks_", tuple((part, c * n) for part, c in inner))
        return out

    def blocks(self) -> tuple:
        return self.blocks_

    @property
    def discrete(self) -> bool | None:
        kinds = {getattr(law, "discrete", None) for law, _ in self.blocks_}
        return kinds.pop() if len(kinds) == 1 else None

    @property
    def dimension(self) -> sp.Expr:
        return sp.Add(*[dimension_of(law) * c for law, c in self.blocks_])

    @property
    def parameters(self) -> set[sp.Symbol]:
        out: set = set()
        for law, c in self.blocks_:
            out |= law.parameters | c.free_symbols
        return out

    @property
    def copies(self) -> set[sp.Symbol]:
        """The symbols counting copies (n in P ** n)."""
        return set().union(*(c.free_symbols for _, c in self.blocks_))

    def coordinates(self) -> list[object]:
        """Every coordinate law in order (a concrete number of copies)."""
        out = []
        for law, c in self.blocks_:
            if not c.is_number:
                raise NoClosedFormError(f"the number of copies {c} is symbolic: give it a value")
            out += [law] * int(c)
        return out

    @property
    def variables(self) -> tuple[sp.Symbol, ...]:
        """The coordinates' symbols, renamed x_1, x_2, … where coordinates share a name."""
        return tuple(v for _, vs in self._placed() for v in vs)

    def _placed(self) -> list[tuple[object, tuple]]:
        laws = self.coordinates()
        own = [variables_of(law) for law in laws]
        flat = [v for vs in own for v in vs]
        if len(set(flat)) == len(flat) and all(own):
            return list(zip(laws, own))
        base = flat[0].name if flat else "x"
        out, i = [], 1
        for law in laws:
            k = int(dimension_of(law))
            names = tuple(sp.Symbol(f"{base}_{i + j}", **_kind(law)) for j in range(k))
            out.append((law, names))
            i += k
        return out

    def joint(self) -> Joint:
        factors, variables, sets = [], [], []
        for law, names in self._placed():
            if isinstance(law, Density):
                if law.var is None:
                    raise NoClosedFormError("a finite table has no variable to write a joint density in")
                factors.append(law.expr.xreplace({law.var: names[0]}))
                sets.append(law.support)
            else:
                inner = law.joint().renamed(names)
                factors.append(inner.pdf)
                sets += list(inner.support)
            variables += list(names)
        discrete = self.discrete
        if discrete is None:
            raise NoClosedFormError("a product of discrete and continuous coordinates has no joint density")
        return Joint(sp.Mul(*factors), tuple(variables), tuple(sets), discrete, check=False)

    def subs(self, values: Mapping) -> Independent:
        given = parameter_values(values, (self,))
        laws = []
        for law, c in self.blocks_:
            mine = {s: v for s, v in given.items() if s in law.parameters}
            law = law.subs(mine) if mine else law
            laws.append(Independent.iid(law, c.subs(given)))
        return Independent(*laws)

    def __repr__(self) -> str:
        parts = [repr(law) if c == 1 else f"({law!r})**{c}" for law, c in self.blocks_]
        return f"Independent({', '.join(parts)})"

    def _key(self) -> tuple:
        return self.blocks_


def _kind(law: object) -> dict:
    return {"integer": True} if getattr(law, "discrete", False) else {"real": True}


# --------------------------------------------------------------------------- the multivariate normal


def _entries(value: sp.MatrixSymbol, covariance: bool) -> sp.ImmutableMatrix:
    """A matrix symbol written out entry by entry: Σ (d×d) as Σ_11, Σ_12 = Σ_21, …, a vector μ as μ_1, ….

    A covariance is symmetric, so Σ_ij and Σ_ji are one symbol; its diagonal entries are declared
    positive (variances), the others real.  This is where a matrix symbol "stays elementary": the
    derivation then works on the entries (the dimension must be a number).
    """
    rows, cols = value.shape
    if not (rows.is_Integer and cols.is_Integer):
        raise ParameterError(must(value.name, "a matrix symbol of numeric shape (d×d, d×1)", value.shape))
    name = value.name
    if not covariance:
        return sp.ImmutableMatrix(int(rows), int(cols), lambda i, j: sp.Symbol(
            f"{name}_{i + j + 1}", real=True))

    def entry(i, j):
        i, j = min(i, j), max(i, j)
        return sp.Symbol(f"{name}_{i + 1}{j + 1}", **({"positive": True} if i == j else {"real": True}))

    return sp.ImmutableMatrix(int(rows), int(cols), entry)


def _matrix(value: object, name: str) -> sp.ImmutableMatrix:
    if isinstance(value, sp.MatrixSymbol):
        return _entries(value, covariance=name == "covariance")
    try:
        m = sp.ImmutableMatrix(value)
    except (TypeError, ValueError, sp.SympifyError):
        raise ParameterError(must(name, "a SymPy Matrix (or a list of rows)", repr(value))) from None
    return m.applyfunc(lambda e: exact(e, name))


@dataclass(frozen=True, eq=False)
class MultivariateNormal(Law):
    """N(μ, Σ) on ℝ^d: ``mean`` a vector, ``covariance`` a symmetric positive definite d×d matrix.

    Entries may be symbols (σ₁, σ₂, ρ), or the whole matrix a ``MatrixSymbol`` of numeric shape,
    written out entry by entry (Σ_11, Σ_12 = Σ_21, …); Σ ≻ 0 is checked by Sylvester's criterion
    and a leading minor that is not decided (1 − ρ² > 0) is a hypothesis, checked
    again wherever values are given.  ``variables`` default to x_1, …, x_d.

    >>> import sympy as sp
    >>> MultivariateNormal([0, 0], [[1, 2], [2, 1]])
    Traceback (most recent call last):
    ...
    rdpsym.foundations.errors.DensityError: covariance must be positive definite (every leading principal minor > 0);
    got the leading minor -3.
    """

    mean: object
    covariance: object
    variables: object = None
    check: bool = True
    discrete = False

    def __post_init__(self) -> None:
        cov = _matrix(self.covariance, "covariance")
        mean = _matrix(self.mean, "mean")
        if mean.rows == 1 and mean.cols > 1:
            mean = mean.T
        d = cov.rows
        if cov.cols != d or d == 0:
            raise DensityError(must("covariance", "a square matrix", f"{cov.rows}×{cov.cols}"))
        if mean.shape != (d, 1):
            raise DensityError(must("mean", f"a vector of length {d} (the covariance is {d}×{d})", list(mean)))
        variables = self.variables
        if variables is None:
            variables = tuple(sp.Symbol(f"x_{i + 1}", real=True) for i in range(d))
        variables = _read_variables(variables, False)
        if len(variables) != d:
            raise DensityError(must("variables", f"{d} symbols", variables))
        variables = _twins(sp.S.Zero, variables, False)[1]
        object.__setattr__(self, "mean", mean)
        object.__setattr__(self, "covariance", cov)
        object.__setattr__(self, "variables", variables)
        if self.check:
            self._check()

    def _check(self) -> None:
        cov = self.covariance
        for i in range(cov.rows):
            for j in range(i):
                if cov[i, j] != cov[j, i] and sp.simplify(cov[i, j] - cov[j, i]) != 0:
                    raise DensityError(must("covariance", "symmetric", f"Σ[{i},{j}] = {cov[i, j]} ≠ "
                                                                        f"{cov[j, i]} = Σ[{j},{i}]"))
        definite, bad = positive_definite(sp.Matrix(cov), Hypotheses())
        if definite is False:
            raise DensityError(must("covariance", "positive definite (every leading principal minor > 0)",
                                    f"the leading minor {bad[0]}"))

    @property
    def dimension(self) -> sp.Expr:
        return sp.Integer(self.covariance.rows)

    @property
    def parameters(self) -> set[sp.Symbol]:
        return set(self.mean.free_symbols) | set(self.covariance.free_symbols)

    @functools.cached_property
    def precision(self) -> sp.Matrix:
        """Σ⁻¹, entry by entry cancelled."""
        cov = sp.Matrix(self.covariance)
        det = sp.factor(cov.det(method="berkowitz"))
        return (cov.adjugate(method="berkowitz") / det).applyfunc(lambda e: sp.factor(sp.cancel(e)))

    @property
    def expr(self) -> sp.Expr:
        """The pdf (2π)^{−d/2} det(Σ)^{−1/2} exp(−½ (x − μ)ᵀ Σ⁻¹ (x − μ))."""
        d = self.covariance.rows
        v = sp.Matrix(self.variables) - sp.Matrix(self.mean)
        quad = sp.expand((v.T * self.precision * v)[0, 0])
        det = tidy_signs(sp.factor(sp.Matrix(self.covariance).det(method="berkowitz")))
        return sp.exp(-quad / 2) / sp.sqrt((2 * sp.pi) ** d * det)

    def joint(self) -> Joint:
        return Joint(self.expr, self.variables, None, False, check=False)

    def renamed(self, variables: Sequence[sp.Symbol]) -> MultivariateNormal:
        return MultivariateNormal(self.mean, self.covariance, tuple(variables), check=False)

    def subs(self, values: Mapping) -> MultivariateNormal:
        given = parameter_values(values, (self,))
        return MultivariateNormal(self.mean.subs(given), self.covariance.subs(given), self.variables)

    def __repr__(self) -> str:
        return f"MultivariateNormal({list(self.mean)}, {self.covariance.tolist()})"

    def _key(self) -> tuple:
        return self.mean, self.covariance, self.variables


# --------------------------------------------------------------------------- mechanisms in several dimensions


@dataclass(frozen=True)
class SensitivityBall:
    """Adjacent inputs of an additive-noise mechanism: outputs f(D) + Z and f(D′) + Z with ‖f(D) − f(D′)‖_p ≤ Δ.

    ``noise`` is the law of one coordinate of Z (centred at 0, symmetric), ``norm`` p
    (1 or 2), ``radius`` Δ, ``dimension`` d (a number or a positive integer symbol).
    The output laws are then Z^{⊗d} and Z^{⊗d} shifted by v = f(D) − f(D′): the worst
    case over the ball is derived from the one-dimensional divergence of a shift.
    """

    noise: Density
    norm: int
    radius: sp.Expr
    dimension: sp.Expr
    shift: sp.Symbol = field(default_factory=lambda: sp.Symbol("t", positive=True))


def _dimension(value: object) -> sp.Expr:
    """A dimension: an integer ≥ 1 or a positive integer symbol (read like a number of copies)."""
    try:
        return _copies(value)
    except ParameterError:
        raise ParameterError(must("dimension", "an integer >= 1, or a Symbol declared integer=True, positive=True",
                                  value)) from None


@dataclass(frozen=True)
class BallReference(Reference):
    """A published form that is the worst case over a sensitivity ball (``ball``), e.g. Proposition 7 for ℓ₂."""

    ball: SensitivityBall | None = None


def _ball_reference(base: Reference, ball: SensitivityBall) -> BallReference:
    """The published one-dimensional form (``base``) attached to the ball it is the worst case of."""
    return BallReference(base.source, base.item, base.moment, base.kl, base.dinf, base.kl_item, base.dinf_item, ball)


def gaussian_mechanism(sigma: object, sensitivity: object = 1, dimension: object = 2):
    """The d-dimensional Gaussian mechanism f(D) + N(0, σ²I_d) for f with ℓ₂-sensitivity Δ.

    Worst case (derived, not assumed): coordinate by coordinate, a shift t costs
    f(t) = αt²/(2σ²), so a shift v costs Σ f(v_i) = α‖v‖₂²/(2σ²) (additivity), which
    depends on v through ‖v‖₂ only (rotation invariance) and grows with it: the
    maximum over ‖v‖₂ ≤ Δ is on the sphere, e.g. at v = Δe₁, with value αΔ²/(2σ²)
    (Mironov 2017, Proposition 7, ℓ₂ sensitivity).
    """
    from rdpsym.laws.mechanisms import MIRONOV_2017, Mechanism, gaussian

    d = _dimension(dimension)
    one = gaussian(sigma, sensitivity)
    if d == 1:
        return one
    s, delta = one.parameters["sigma"], one.parameters["sensitivity"]
    noise, shifted = one.pair
    P = noise ** d
    Q = Independent(shifted, Independent.iid(noise, d - 1))
    ball = SensitivityBall(noise, 2, delta, d)
    return Mechanism("gaussian", {"sigma": s, "sensitivity": delta, "dimension": d}, (P, Q),
                     _ball_reference(one.reference, ball),
                     "N(0, σ²I) vs N(v, σ²I) costs α‖v‖₂²/(2σ²): largest on the sphere ‖v‖₂ = Δ, e.g. v = Δe₁",
                     True, "inputs D, D' with ‖f(D) − f(D')‖₂ ≤ Δ (ℓ₂-sensitivity Δ), f(D) ∈ ℝ^d",
                     MIRONOV_2017.at("Proposition 7"))


def laplace_mechanism(scale: object, sensitivity: object = 1, dimension: object = 2):
    """The d-dimensional Laplace mechanism f(D) + Λ(0, b)^{⊗d} for f with ℓ₁-sensitivity Δ.

    Worst case (derived): a shift t of one coordinate costs f(t), convex in t with
    f(0) = 0 (1/(α−1) times a log-sum-exp of affine functions of t), so f(t)/t is
    nondecreasing and Σ f(|v_i|) ≤ Σ |v_i|·f(Δ)/Δ ≤ f(Δ) over ‖v‖₁ ≤ Δ: all of Δ on
    one coordinate, the one-dimensional Laplace mechanism (Mironov 2017, Proposition 6
    with λ = b/Δ).
    """
    from rdpsym.laws.mechanisms import MIRONOV_2017, Mechanism, laplace

    d = _dimension(dimension)
    one = laplace(scale, sensitivity)
    if d == 1:
        return one
    b, delta = one.parameters["scale"], one.parameters["sensitivity"]
    noise, shifted = one.pair
    P = noise ** d
    Q = Independent(shifted, Independent.iid(noise, d - 1))
    ball = SensitivityBall(noise, 1, delta, d)
    return Mechanism("laplace", {"scale": b, "sensitivity": delta, "dimension": d}, (P, Q),
                     _ball_reference(one.reference, ball),
                     "Λ(0, b)^{⊗d} vs its shift by v: convex coordinate costs put the worst case at v = Δe₁",
                     True, "inputs D, D' with ‖f(D) − f(D')‖₁ ≤ Δ (ℓ₁-sensitivity Δ), f(D) ∈ ℝ^d",
                     MIRONOV_2017.at("Proposition 6"))


def ball_of(reference: object) -> SensitivityBall | None:
    """The sensitivity ball a mechanism's reference is the worst case over, if any."""
    return getattr(reference, "ball", None)


__all__ = [
    "GIL_ALAJAJI_LINDER_2013",
    "BallReference",
    "Independent",
    "Joint",
    "Law",
    "MultivariateNormal",
    "SensitivityBall",
    "VAN_ERVEN_HARREMOES_2014",
    "ball_of",
    "dimension_of",
    "gaussian_mechanism",
    "is_multivariate",
    "laplace_mechanism",
    "product_outcomes",
    "variables_of",
]
