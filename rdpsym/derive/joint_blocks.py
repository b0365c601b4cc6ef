"""Two laws in several variables read as aligned blocks: the input of every route of :mod:`rdpsym.derive.multivariate`.

P and Q (products of coordinates, separable joint densities, multivariate normals)
are flattened into segments and aligned into blocks of equal dimension, equal
neighbours grouped with their number of copies (a number or a symbol), Q written
in P's variables (:func:`align`).  Here too are what a block's derivation returns
(:class:`Part`), the laws' parameters and their values at a point, and finite
discrete blocks as tables of outcomes.  Separate from the routes so that the
symbolic routes, the numeric definition and the check read the laws the same
way without importing one another.
"""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass, field

import sympy as sp

from rdpsym.foundations.errors import DensityError, NoClosedFormError, must
from rdpsym.foundations.notation import RenyiDivergence
from rdpsym.foundations.record import Status, Step
from rdpsym.laws.densities import Continuous, Density, Discrete
from rdpsym.laws.independent import Independent
from rdpsym.laws.joint import Joint, product_outcomes
from rdpsym.laws.multivariate import Law, dimension_of, variables_of
from rdpsym.laws.multivariate_normal import MultivariateNormal

oo = sp.oo

__all__ = ["Block", "align"]


@dataclass(frozen=True)
class Block:
    """Coordinates on which P and Q are ``p`` and ``q`` (laws of the same dimension, Q written in P's
    variables), repeated ``copies`` times (a number or a symbol)."""

    p: object
    q: object
    copies: sp.Expr


def _segments(law: object) -> list[list]:
    """The law as ``[[coordinate law, copies], ...]``: products flattened, separable joints split."""
    if isinstance(law, Density):
        return [[law, sp.S.One]]
    if isinstance(law, Independent):
        out: list[list] = []
        for part, copies in law.blocks():
            inner = _segments(part)
            if len(inner) == 1:
                out.append([inner[0][0], inner[0][1] * copies])
            elif copies.is_number:
                out += [[lw, c] for _ in range(int(copies)) for lw, c in inner]
            else:
                out.append([part, copies])
        return out
    if isinstance(law, Joint):
        parts = law.coordinates()
        flat = [v for variables, _ in parts for v in variables]
        if len(parts) > 1 and tuple(flat) == law.variables:
            return [[_one_dimensional(lw), sp.S.One] for _, lw in parts]
        return [[_one_dimensional(law), sp.S.One]]
    if isinstance(law, MultivariateNormal):
        return [[_one_dimensional(law), sp.S.One]]
    raise DensityError(must("P and Q", "rdpsym laws (Continuous, Discrete, Joint, MultivariateNormal, Independent)",
                            type(law).__name__))


def _one_dimensional(law: object) -> object:
    """A law of dimension 1 as a 1-D density (the one-dimensional engine's input); others unchanged."""
    if isinstance(law, Density) or dimension_of(law) != 1:
        return law
    j = law.joint()
    kind = Discrete if j.discrete else Continuous
    return kind(j.pdf, j.variables[0], j.support[0], check=False)


def _smaller(a: sp.Expr, b: sp.Expr) -> sp.Expr:
    if a == b:
        return a
    diff = sp.simplify(a - b)
    if diff.is_nonnegative:
        return b
    if diff.is_nonpositive:
        return a
    raise NoClosedFormError(f"cannot align {a} coordinates of P with {b} coordinates of Q")


def _renamed(q: object, p: object) -> object:
    """``q`` written in ``p``'s variables."""
    if isinstance(q, Density):
        if isinstance(p, Density) and p.var is not None and q.var is not None and q.var != p.var:
            return q.renamed(p.var)
        return q
    target = variables_of(p)
    return q if variables_of(q) == target else q.renamed(target)


def _take(segments: list[list], i: int) -> object:
    """One coordinate unit from ``segments[i]`` (its count must be a number)."""
    law, copies = segments[i]
    if not copies.is_number:
        raise NoClosedFormError("cannot align a symbolic number of coordinates with blocks of another dimension")
    segments[i][1] = copies - 1
    return law


def _product(laws: list) -> object:
    return laws[0] if len(laws) == 1 else Independent(*laws).joint()


def align(P: object, Q: object) -> list[Block]:
    """P and Q as aligned blocks of equal dimension (equal neighbours grouped, Q in P's variables).

    >>> import sympy as sp, rdpsym
    >>> x = sp.Symbol("x", real=True)
    >>> d = sp.Symbol("d", integer=True, positive=True)
    >>> Z = rdpsym.Continuous(sp.exp(-x**2/2)/sp.sqrt(2*sp.pi), x)
    >>> Z1 = rdpsym.Continuous(sp.exp(-(x - 1)**2/2)/sp.sqrt(2*sp.pi), x)
    >>> [b.copies for b in align(Z ** d, Independent(Z1, Z ** (d - 1)))]
    [1, d - 1]
    """
    sp_, sq = _segments(P), _segments(Q)
    i = j = 0
    out: list[Block] = []
    while i < len(sp_) and j < len(sq):
        if sp_[i][1] == 0:
            i += 1
            continue
        if sq[j][1] == 0:
            j += 1
            continue
        lp, cp = sp_[i]
        lq, cq = sq[j]
        if dimension_of(lp) == dimension_of(lq):
            m = _smaller(cp, cq)
            out.append(Block(lp, _renamed(lq, lp), m))
            sp_[i][1] = sp.expand(cp - m)
            sq[j][1] = sp.expand(cq - m)
            continue
        units_p, units_q = [_take(sp_, i)], [_take(sq, j)]
        while sum(int(dimension_of(u)) for u in units_p) != sum(int(dimension_of(u)) for u in units_q):
            short_p = sum(int(dimension_of(u)) for u in units_p) < sum(int(dimension_of(u)) for u in units_q)
            segments, k = (sp_, i) if short_p else (sq, j)
            while k < len(segments) and segments[k][1] == 0:
                k += 1
            if k == len(segments):
                break
            (units_p if short_p else units_q).append(_take(segments, k))
            if short_p:
                i = k
            else:
                j = k
        bp, bq = _product(units_p), _product(units_q)
        out.append(Block(bp, _renamed(bq, bp), sp.S.One))
    rest = [c for _, c in sp_[i:] + sq[j:] if c != 0]
    if rest or dimension_of_blocks(out) is None:
        raise DensityError(must("P and Q", "laws of the same dimension",
                                f"dimensions {dimension_of(P)} and {dimension_of(Q)}"))
    return _grouped(out)


def dimension_of_blocks(blocks: list[Block]) -> sp.Expr | None:
    return sp.Add(*[dimension_of(b.p) * b.copies for b in blocks]) if blocks else None


def _grouped(blocks: list[Block]) -> list[Block]:
    out: dict[tuple, sp.Expr] = {}
    for b in blocks:
        out[(b.p, b.q)] = out.get((b.p, b.q), sp.S.Zero) + b.copies
    return [Block(p, q, c) for (p, q), c in out.items() if c != 0]


@dataclass
class Part:
    """One block's divergence: ``value`` (under ``conditions``; oo; or an mpf when numeric) and its steps."""

    value: object
    conditions: tuple
    steps: list
    status: Status
    evidence: list = field(default_factory=list)
    hypotheses: tuple = ()
    numeric: bool = False


def _rename_steps(steps, mapping: dict) -> list[Step]:
    def sub(e):
        return e.xreplace(mapping) if isinstance(e, sp.Basic) else e
    return [Step(sub(s.lhs), s.relation, sub(s.rhs), s.rule, s.status) for s in steps]


def renaming(first: Block, second: Block) -> dict | None:
    """``{symbol: symbol}`` that turns ``first`` into ``second`` (its own parameters and variable renamed to
    ``second``'s, each to a symbol of the same assumptions), or None when there is none.

    For one-dimensional blocks only: independent Laplace coordinates with shifts m₁ and m₂ are one derivation,
    written twice.  Parameters the two blocks share stay; at most three parameters of each are tried in every
    pairing.

    >>> x, b = sp.Symbol("x", real=True), sp.Symbol("b", positive=True)
    >>> m1, m2 = sp.symbols("m1 m2", real=True)
    >>> laplace = lambda m: Continuous(sp.exp(-sp.Abs(x - m) / b) / (2 * b), x)
    >>> renaming(Block(laplace(0), laplace(m1), 1), Block(laplace(0), laplace(m2), 1))
    {m1: m2}
    """
    laws = (first.p, first.q, second.p, second.q)
    if not all(isinstance(law, Density) and isinstance(law.var, sp.Symbol) for law in laws) \
            or type(first.p) is not type(second.p) or type(first.q) is not type(second.q):
        return None  # (a finite table has no variable: its blocks are equal or not, as align groups them)
    mapping = {} if first.p.var == second.p.var else {first.p.var: second.p.var}
    mine, theirs = _free(first.p) | _free(first.q), _free(second.p) | _free(second.q)
    if second.p.var in mine:
        return None  # (the later block's variable is a parameter of the first: no renaming is one-to-one)
    only_mine, only_theirs = sorted(mine - theirs, key=str), sorted(theirs - mine, key=str)
    if len(only_mine) != len(only_theirs) or len(only_mine) > 3:
        return None
    for targets in itertools.permutations(only_theirs):
        candidate = {**mapping, **dict(zip(only_mine, targets))}
        if any(not isinstance(t, sp.Symbol) or s.assumptions0 != t.assumptions0 for s, t in candidate.items()):
            continue
        if all(_key_renamed(a, candidate) == b._key() for a, b in ((first.p, second.p), (first.q, second.q))):
            return candidate
    return None


def _key_renamed(law: Density, mapping: dict) -> tuple:
    return tuple(k.xreplace(mapping) if isinstance(k, sp.Basic) else k for k in law._key())


def renamed_part(part: Part, mapping: dict) -> Part:
    """``part`` with its symbols renamed by ``mapping`` everywhere: its value, conditions, hypotheses, steps (their
    rules' expressions too: a case's condition m₁ > 0) and evidence.  The derivation ``part`` records holds for every
    value of its parameters, so it holds renamed; the sum of the blocks is checked as a whole by the caller."""
    return _deep_renamed(part, mapping)


def _deep_renamed(obj: object, mapping: dict) -> object:
    if isinstance(obj, sp.Basic):
        return obj.xreplace(mapping)
    if isinstance(obj, (list, tuple)) and type(obj) in (list, tuple):
        return type(obj)(_deep_renamed(item, mapping) for item in obj)
    if isinstance(obj, dict):
        return {_deep_renamed(k, mapping): _deep_renamed(v, mapping) for k, v in obj.items()}
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return dataclasses.replace(obj, **{f.name: _deep_renamed(getattr(obj, f.name), mapping)
                                           for f in dataclasses.fields(obj) if f.init})
    return obj


def _divergence(first, second, order) -> RenyiDivergence:
    return RenyiDivergence(first, second, order)


def _free(law) -> set:
    return set(law.parameters)


def _tables(p, q):
    """Finite discrete joint blocks as 1-D tables of their outcomes (tuples), or None."""
    if not (getattr(p, "discrete", False) and getattr(q, "discrete", False)):
        return None
    jp, jq = p.joint(), q.joint().renamed(p.joint().variables)
    points = product_outcomes(jp.support)
    points_q = product_outcomes(jq.support)
    if points is None or points_q is None:
        return None
    table_p = {pt: jp.pdf.subs(dict(zip(jp.variables, pt))) for pt in points}
    table_q = {pt: jq.pdf.subs(dict(zip(jq.variables, pt))) for pt in points_q}
    return Discrete(table_p, check=False), Discrete(table_q, check=False)


def _laws_ok(P, Q) -> None:
    for name, law in (("P", P), ("Q", Q)):
        if not isinstance(law, (Density, Law)):
            raise DensityError(must(name, "an rdpsym law (Continuous, Discrete, Joint, MultivariateNormal, "
                                          "Independent)", type(law).__name__))


def _parameters(law) -> set:
    return set(law.parameters)


def _at(law, point: dict):
    mine = {s: v for s, v in point.items() if s in law.parameters}
    return law.subs(mine) if mine else law


@dataclass(frozen=True)
class _Both:
    """Two laws' parameters together (to read ``values`` once)."""

    P: object
    Q: object

    @property
    def parameters(self) -> set:
        return _parameters(self.P) | _parameters(self.Q)
