"""A mathematical claim as data: statement, hypotheses, a chain of steps, and a verdict.

A claim file builds :class:`Claim` objects and does no work at import: the
expressions are SymPy objects, and anything expensive (a derivation by the
symbolic core, a quadrature) is passed as a zero-argument callable that runs
only when the claim is checked.

Each step is a relation ``lhs ⋈ rhs`` with its reason.  :meth:`Claim.check`
tries a symbolic proof of every step (:mod:`rdpsym.claims.prover`), then checks
every step numerically over an adversarial sample of the hypothesis domain
(:class:`Domain`), in Arb balls, so a step "holds" at a point only when the
ball of ``rhs − lhs`` is certified nonnegative, and "fails" only when it is
certified negative.  The claim's verdict is the weakest of its steps'.
"""

from __future__ import annotations

import dataclasses
import enum
import itertools
import random
import time
from dataclasses import dataclass, field
from typing import Callable

import mpmath
import sympy as sp
from flint import arb, ctx, fmpq

from rdpsym.foundations.balls import InfiniteValue, OutsideDomain, Undecided, precision, to_arb
from rdpsym.render import latex as printing
from rdpsym.foundations.errors import RdpSymError
from rdpsym.claims import prover

#: Working precisions (bits) tried in turn at a sample point before calling it undecided.
PRECISIONS = (256, 1024)


class Verdict(enum.Enum):
    """A claim's status, strongest first: proved > checked > unknown > refuted."""

    PROVED = "proved"
    CHECKED = "checked"
    UNKNOWN = "unknown"
    REFUTED = "refuted"

    @property
    def rank(self) -> int:
        return {"refuted": 0, "unknown": 1, "checked": 2, "proved": 3}[self.value]

    def __lt__(self, other: Verdict) -> bool:
        return self.rank < other.rank

    def __le__(self, other: Verdict) -> bool:
        return self.rank <= other.rank

    def __str__(self) -> str:
        return self.value


class ClaimError(RdpSymError):
    """A malformed claim or claim file."""


# --------------------------------------------------------------------------- domains

#: Offsets from a finite end of an interval: the edges where bounds get tight.
_NEAR = tuple(sp.Rational(1, 10**k) for k in (30, 12, 6, 3, 1))
#: Values towards an infinite end.
_FAR = tuple(sp.Integer(10) ** k for k in (0, 1, 3, 6, 12))


def edge_values(interval) -> list[sp.Rational]:
    """The edges of ``interval`` (an ``Interval``, or a ``Range`` of integers) worth testing, exactly.

    >>> [str(v) for v in edge_values(sp.Interval.open(0, 1))][:3]
    ['1/1000000000000000000000000000000', '1/1000000000000', '1/1000000']
    """
    if isinstance(interval, sp.Range):
        return _integer_edges(interval)
    if isinstance(interval, sp.FiniteSet):  # Interval(2, 2) is FiniteSet(2): a fixed value
        return sorted(interval)
    lo, hi = interval.inf, interval.sup
    out: list[sp.Rational] = []
    if lo.is_finite and hi.is_finite:
        w = hi - lo
        out += [lo + w * t for t in _NEAR] + [lo + w / 2] + [hi - w * t for t in reversed(_NEAR)]
    elif lo.is_finite:
        out += [lo + t for t in _NEAR] + [lo + t for t in _FAR]
    elif hi.is_finite:
        out += [hi - t for t in _NEAR] + [hi - t for t in _FAR]
    else:
        out += [sp.Integer(0)] + [s * t for t in _NEAR + _FAR for s in (1, -1)]
    if lo.is_finite and not interval.left_open:
        out.insert(0, lo)
    if hi.is_finite and not interval.right_open:
        out.append(hi)
    return sorted(set(out))


def _integer_edges(r: sp.Range) -> list[sp.Integer]:
    lo, hi = r.inf, r.sup
    out = {lo, lo + 1, lo + 2} if lo.is_finite else {sp.Integer(-(10**6)), sp.Integer(-1)}
    if hi.is_finite:
        out |= {hi, hi - 1, (lo + hi) // 2 if lo.is_finite else hi - 10}
    else:
        out |= {lo + 10, lo + 1000, lo + 10**6} if lo.is_finite else {sp.Integer(0), sp.Integer(10**6)}
    return sorted(v for v in out if v in r)


def random_value(interval, rng: random.Random) -> sp.Rational:
    """A seeded random rational in ``interval``: uniform when it is short, log-uniform when long
    (integers for a ``Range``)."""
    if isinstance(interval, sp.FiniteSet):
        return rng.choice(sorted(interval))
    if isinstance(interval, sp.Range):
        lo = int(interval.inf) if interval.inf.is_finite else -(10**6)
        hi = int(interval.sup) if interval.sup.is_finite else lo + 10 ** rng.randint(1, 6)
        return sp.Integer(rng.randint(lo, hi))
    lo, hi = interval.inf, interval.sup
    if lo.is_finite and hi.is_finite and (hi - lo) <= 100:
        u = _rational(rng.random())
        return lo + (hi - lo) * u if u > 0 else lo + (hi - lo) / 2
    mag = sp.Integer(10) ** rng.randint(-8, 8) * (1 + _rational(rng.random()))
    if lo.is_finite and hi.is_finite:
        v = lo + mag
        return v if v < hi else lo + (hi - lo) * _rational(rng.random())
    if lo.is_finite:
        return lo + mag
    if hi.is_finite:
        return hi - mag
    return mag if rng.random() < 0.5 else -mag


def _rational(u: float) -> sp.Rational:
    return sp.Rational(int(u * 2**40), 2**40)


@dataclass(frozen=True)
class Domain:
    """Where a claim's hypotheses hold, and how to sample it adversarially.

    ``variables`` maps each free symbol to a SymPy ``Interval`` (its
    hypothesis); ``objects`` maps names to generators ``f(rng, i)`` of
    non-numeric samples (distributions, events) whose first few ``i`` should be
    the edge cases; ``where`` is an extra hypothesis on a point (a dict).

    Points are the cross product of the variables' edge values when that is
    small, otherwise seeded mixtures of edges and random values, always
    including the all-low and all-high corners.
    """

    variables: dict = field(default_factory=dict)
    objects: dict = field(default_factory=dict)
    where: Callable[[dict], bool] | None = None
    samples: int = 120
    seed: int = 2017

    def points(self) -> list[dict]:
        rng = random.Random(self.seed)
        names = list(self.variables)
        edges = [edge_values(self.variables[s]) for s in names]
        raw: list[tuple] = []
        size = 1
        for e in edges:
            size *= len(e)
        if names and size <= self.samples:
            raw += list(itertools.product(*edges))
        elif names:
            raw += [tuple(e[0] for e in edges), tuple(e[-1] for e in edges)]
        while len(raw) < self.samples:
            raw.append(tuple(
                rng.choice(e) if rng.random() < 0.5 else random_value(self.variables[s], rng)
                for s, e in zip(names, edges)))
        out, seen = [], set()
        for i, values in enumerate(raw):
            if values in seen and not self.objects:
                continue
            seen.add(values)
            point = dict(zip(names, values))
            for name, gen in self.objects.items():
                point[name] = gen(rng, i)
            if self.where is None or self.where(point):
                out.append(point)
        return out

    def latex(self) -> list[str]:
        return [f"{sp.latex(s)} \\in {sp.latex(iv)}" for s, iv in self.variables.items()]


# --------------------------------------------------------------------------- steps

_RELATIONS = {"=": r"=", "<=": r"\le", ">=": r"\ge", "<": r"<", ">": r">"}


@dataclass(frozen=True)
class Step:
    """One link ``lhs ⋈ rhs`` of a derivation, with its reason.

    ``lhs`` and ``rhs`` are SymPy expressions in the domain's variables, or
    zero-argument callables returning one (run at check time).  ``symbolic``
    turns the proof attempt off for steps SymPy is known not to reach.
    ``latex`` is how the step reads in a report (LaTeX math); without it the
    report prints the two sides as evaluated, which for a callable side (an
    integral done at check time) can be a page wide.
    """

    lhs: object
    relation: str
    rhs: object
    reason: str
    domain: Domain | None = None
    symbolic: bool = True
    latex: str = ""

    def __post_init__(self):
        if self.relation not in _RELATIONS:
            raise ClaimError(f"relation must be one of {', '.join(_RELATIONS)}, got {self.relation!r}")


def Equal(lhs, rhs, reason: str, **kw) -> Step:  # noqa: N802 - reads like the relation
    """``lhs = rhs`` because ``reason``."""
    return Step(lhs, "=", rhs, reason, **kw)


def AtMost(lhs, rhs, reason: str, **kw) -> Step:  # noqa: N802
    """``lhs ≤ rhs`` because ``reason``."""
    return Step(lhs, "<=", rhs, reason, **kw)


def AtLeast(lhs, rhs, reason: str, **kw) -> Step:  # noqa: N802
    """``lhs ≥ rhs`` because ``reason``."""
    return Step(lhs, ">=", rhs, reason, **kw)


@dataclass(frozen=True)
class Holds:
    """A numeric relation computed by ``compare(point) -> (lhs, relation, rhs)``.

    For statements that are not one SymPy expression: "for all distributions",
    "for every event", a composition run on a concrete mechanism.  ``lhs`` and
    ``rhs`` are Arb balls (or numbers); the point comes from ``domain``.
    ``describe`` renders the relation as text (terminal, JSON), e.g.
    ``D_α(P‖Q) ≥ 0``; ``latex`` is the same relation as LaTeX math for the
    report (``D_\\alpha(P \\| Q) \\ge 0``).
    """

    describe: str
    compare: Callable[[dict], tuple]
    reason: str
    domain: Domain | None = None
    latex: str = ""


@dataclass(frozen=True)
class StepResult:
    verdict: Verdict
    method: str
    points: int = 0
    counterexample: dict | None = None
    detail: str = ""
    lhs: object = None
    rhs: object = None
    #: sample points where a side could not be evaluated (as opposed to "tight": equal to the balls' width)
    undefined: int = 0


@dataclass(frozen=True)
class Claim:
    """A statement, its source, its hypotheses, its derivation and the verdict it should reach."""

    id: str
    title: str
    source: str
    statement: str
    steps: tuple
    expected: Verdict
    domain: Domain = field(default_factory=Domain)
    hypotheses: tuple[str, ...] = ()
    note: str = ""

    def __post_init__(self):
        if not self.id or not isinstance(self.id, str):
            raise ClaimError(f"a claim needs a string id, got {self.id!r}")
        if not isinstance(self.expected, Verdict):
            raise ClaimError(f"claim {self.id}: expected must be a Verdict, got {self.expected!r}")
        if not self.steps:
            raise ClaimError(f"claim {self.id}: needs at least one step")
        for s in self.steps:
            if not isinstance(s, (Step, Holds)):
                raise ClaimError(f"claim {self.id}: steps must be Step or Holds, got {type(s).__name__}")
        self._check_typesetting()

    def _check_typesetting(self) -> None:
        """Every string the LaTeX report prints must typeset: say which one does not, before any work."""
        maths = {"statement": self.statement, **{f"hypothesis {i + 1}": h for i, h in enumerate(self.hypotheses)},
                 **{f"step {i + 1}'s latex": s.latex for i, s in enumerate(self.steps) if s.latex}}
        prose = {"title": self.title, "source": self.source, "note": self.note,
                 **{f"step {i + 1}'s reason": s.reason for i, s in enumerate(self.steps)},
                 **{f"step {i + 1}'s describe": s.describe for i, s in enumerate(self.steps) if isinstance(s, Holds)}}
        for where, value in {**maths, **prose}.items():
            bad = next((c for c in value if ord(c) < 32 and c != "\n"), None)
            if bad is not None:
                raise ClaimError(f"claim {self.id}: its {where} contains the control character U+{ord(bad):04X} "
                                 "(a non-raw string turned \\a or \\t into one? write r\"...\")")
            try:
                (printing.math if where in maths else printing.reason_latex)(value)
            except printing.NoLatexForm as exc:
                raise ClaimError(f"claim {self.id}: its {where}: {exc}") from None

    def check(self) -> ClaimResult:
        started = time.perf_counter()
        results = []
        for step in self.steps:
            try:
                results.append(_check_step(step, step.domain or self.domain))
            except Exception as exc:  # noqa: BLE001 - a broken step is "unknown", with its error
                results.append(StepResult(Verdict.UNKNOWN, "error", detail=f"{type(exc).__name__}: {exc}"))
        verdict = min((r.verdict for r in results), key=lambda v: v.rank)
        return ClaimResult(self, verdict, tuple(results), time.perf_counter() - started)


@dataclass(frozen=True)
class ClaimResult:
    claim: Claim
    verdict: Verdict
    steps: tuple[StepResult, ...]
    seconds: float

    @property
    def ok(self) -> bool:
        """Reached the expected verdict (or better); an expected refutation must be refuted."""
        if self.claim.expected is Verdict.REFUTED:
            return self.verdict is Verdict.REFUTED
        return self.verdict is not Verdict.REFUTED and self.claim.expected <= self.verdict

    @property
    def evidence(self) -> str:
        parts = []
        for r in self.steps:
            if r.counterexample is not None:
                parts.append("counterexample " + _show_point(r.counterexample) + (f" ({r.detail})" if r.detail else ""))
            else:
                parts.append(r.method + (f" [{r.detail}]" if r.detail else ""))
        return "; ".join(parts)


# --------------------------------------------------------------------------- checking

def _resolve(x):
    return x() if callable(x) and not isinstance(x, sp.Basic) else x


def _check_step(step, domain: Domain) -> StepResult:
    if isinstance(step, Holds):
        return _check_numeric(domain, step.compare, "numeric")
    lhs, rhs = sp.sympify(_resolve(step.lhs)), sp.sympify(_resolve(step.rhs))
    return dataclasses.replace(_check_relation(step, lhs, rhs, domain), lhs=lhs, rhs=rhs)


def _check_relation(step: Step, lhs: sp.Expr, rhs: sp.Expr, domain: Domain) -> StepResult:
    proof = _prove(lhs, step.relation, rhs, domain) if step.symbolic else None
    numeric = _check_numeric(domain, lambda p: (_at(lhs, p), step.relation, _at(rhs, p)), "")
    if numeric.verdict is Verdict.REFUTED:
        if proof:
            return StepResult(Verdict.UNKNOWN, "contradiction", numeric.points, numeric.counterexample,
                              "a symbolic proof was contradicted numerically: a bug in rdpsym")
        return numeric
    if proof and (numeric.verdict is Verdict.CHECKED or numeric.undefined == 0):
        # Points where both sides agree to the balls' width (a tight inequality, an identity
        # with cancellation) are what a proof settles.
        tight = f" ({numeric.detail})" if numeric.detail else ""
        return StepResult(Verdict.PROVED, f"sympy: {proof}; " + numeric.method + tight, numeric.points)
    if proof:
        # A proof does not outrank sample points where the sides could not be evaluated
        # (e.g. a square root of a negative number): the hypotheses may be wrong.
        return StepResult(Verdict.UNKNOWN, f"sympy: {proof}; " + numeric.method, numeric.points,
                          detail="proof found, but " + numeric.detail)
    return numeric


def _prove(lhs, relation, rhs, domain: Domain) -> str | None:
    if relation in ("=", "<=", ">=") and lhs == rhs:
        return "both sides are the same expression"  # also ∞ = ∞, which no difference can show
    if relation in ("<=", "<") and rhs == sp.oo and lhs.is_finite or \
            relation in (">=", ">") and lhs == sp.oo and rhs.is_finite:
        return "a finite expression below ∞"
    diff = {"=": lhs - rhs, "<=": rhs - lhs, "<": rhs - lhs, ">=": lhs - rhs, ">": lhs - rhs}[relation]
    if diff.has(sp.oo, -sp.oo, sp.zoo, sp.nan):
        return None
    extra = diff.free_symbols - set(domain.variables)
    if extra:
        return None
    diff, _ = prover.substitute_domains(diff, domain.variables)
    if relation == "=":
        return "simplifies to 0" if prover.prove_zero(diff) else None
    if relation in ("<=", ">=") and prover.prove_nonnegative(diff):
        return "difference nonnegative under the hypotheses"
    return None


def _at(expr: sp.Expr, point: dict):
    """``expr`` at ``point``: an Arb ball at the current precision, or ±∞.

    The values go in as balls, never through SymPy substitution: SymPy would
    evaluate (10⁻³⁰)^(10¹²) exactly, which never finishes.
    """
    if expr in (sp.oo, -sp.oo):
        return expr
    values = {s: _rational_ball(v) for s, v in point.items() if isinstance(s, sp.Symbol)}
    missing = expr.free_symbols - set(values)
    if missing:
        raise ClaimError(f"free symbols {sorted(map(str, missing))} not given by the domain")
    try:
        return to_arb(expr, values)
    except InfiniteValue:
        return sp.oo


def _rational_ball(v) -> arb:
    v = sp.Rational(v)
    return arb(fmpq(int(v.p), int(v.q)))


def _decide(lhs, relation: str, rhs) -> bool | None:
    """Certified decision of ``lhs ⋈ rhs`` for balls (or ±∞); ``None`` if the balls overlap."""
    inf = (sp.oo, -sp.oo)
    if lhs in inf or rhs in inf:
        a = float("inf") if lhs == sp.oo else float("-inf") if lhs == -sp.oo else None
        b = float("inf") if rhs == sp.oo else float("-inf") if rhs == -sp.oo else None
        if a is not None and b is not None:
            return {"=": a == b, "<=": a <= b, ">=": a >= b, "<": a < b, ">": a > b}[relation]
        finite_is_smaller = (a is None and b == float("inf")) or (b is None and a == float("-inf"))
        return {"=": False, "<=": finite_is_smaller, "<": finite_is_smaller,
                ">=": not finite_is_smaller, ">": not finite_is_smaller}[relation]
    lhs, rhs = _ball(lhs), _ball(rhs)
    if lhs.is_nan() or rhs.is_nan():
        raise OutsideDomain("a side evaluates to NaN")
    d = rhs - lhs
    if relation == "=":
        if d.is_exact() and d.is_zero():
            return True
        if not d.contains(0):
            return False
        # Equal to within 2^(-prec/2) relative (154 digits at 1024 bits): as good as numbers
        # get without a proof.  Half the bits, because a point near a singularity (α − 1 =
        # 1e-30) legitimately loses a few hundred of them.  Only accepted at the highest
        # precision, so 10⁻⁸⁰ differences are not waved through at 256 bits.
        if ctx.prec < PRECISIONS[-1]:
            return None
        scale = max(abs(lhs).upper(), abs(rhs).upper(), arb(1))
        return True if d.rad() <= scale * arb(2) ** (-(ctx.prec // 2)) else None
    if relation in (">=", ">"):
        d = -d
    if relation in ("<=", ">=") and d >= 0:
        return True
    if relation in ("<", ">") and d > 0:
        return True
    if d < 0 or (relation in ("<", ">") and d <= 0 and d.is_exact()):
        return False
    return None


def _ball_or_none(x):
    try:
        return _ball(x)
    except (TypeError, InfiniteValue, ClaimError):
        return None


def _ball(x) -> arb:
    return x if isinstance(x, arb) else arb(x) if isinstance(x, int) else to_arb(sp.sympify(x))


def _check_numeric(domain: Domain, compare, label: str) -> StepResult:
    points = domain.points()
    if not points:
        return StepResult(Verdict.UNKNOWN, "numeric", 0, detail="the domain's constraints left no sample point")
    undecided, undefined, first_undecided = 0, 0, None
    for point in points:
        decided, defined = None, True
        for bits in PRECISIONS:
            with precision(bits):
                try:
                    lhs, rel, rhs = compare(point)
                    decided, defined = _decide(lhs, rel, rhs), True
                except OutsideDomain:
                    decided, defined = None, False
                except Undecided:
                    decided, defined = None, True
            if decided is not None:
                break
        undefined += not defined
        if decided is False:
            with precision(PRECISIONS[0]):
                lhs, rel, rhs = compare(point)
            return StepResult(Verdict.REFUTED, "numeric", len(points), point,
                              f"lhs = {_show(lhs, _ball_or_none(rhs))}, rhs = {_show(rhs, _ball_or_none(lhs))}, "
                              f"lhs {rel} rhs fails")
        if decided is None:
            undecided += 1
            first_undecided = first_undecided or point
    n = len(points)
    method = f"arb balls at {n} point{'' if n == 1 else 's'} incl. edges"
    if undecided:
        kind = f"{undefined} of them undefined (outside a function's domain)" if undefined else "all tight"
        return StepResult(Verdict.UNKNOWN, method, n, detail=f"{undecided} points undecided at {PRECISIONS[-1]} "
                          f"bits ({kind}), e.g. {_show_point(first_undecided)}", undefined=undefined)
    return StepResult(Verdict.CHECKED, method, n)


def _show(x, other=None) -> str:
    """A ball's midpoint with enough digits to tell it from ``other`` (12 to 60)."""
    if not isinstance(x, arb):
        return str(x)
    digits = 12
    while isinstance(other, arb) and digits < 60 and x.str(digits, radius=False) == other.str(digits, radius=False):
        digits += 12
    return x.str(digits, radius=False)


def _show_point(point: dict) -> str:
    parts = []
    for k, v in point.items():
        name = k.name if isinstance(k, sp.Symbol) else str(k)
        if isinstance(v, sp.Rational) and v.q != 1 and (v.q > 10**6 or v.p > 10**6):
            with mpmath.workdps(45):
                v = mpmath.nstr(mpmath.mpf(v.p) / v.q, 40)
        parts.append(f"{name}={v}")
    return "{" + ", ".join(parts) + "}"
