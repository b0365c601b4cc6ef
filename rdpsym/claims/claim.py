"""A mathematical claim as data: statement, hypotheses, a chain of steps, and a verdict.

A claim file builds :class:`Claim` objects and does no work at import: the
expressions are SymPy objects, and anything expensive (a derivation by the
symbolic core, a quadrature) is passed as a zero-argument callable that runs
only when the claim is checked.

A claim's steps are the package's one kind of step
(:class:`rdpsym.foundations.record.Step`): a relation ``lhs ⋈ rhs`` with its
reason.  :meth:`Claim.check` tries a symbolic proof of every step
(:mod:`rdpsym.claims.prover`), then checks every step numerically over an
adversarial sample of the hypothesis domain (:class:`Domain`), in Arb balls,
so a step "holds" at a point only when the ball of ``rhs − lhs`` is certified
nonnegative, and "fails" only when it is certified negative.  Each checked
step carries its :class:`~rdpsym.foundations.record.Status` and its evidence
(a proof, the sample, a counterexample); the claim's verdict is the weakest
of its steps'.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

import sympy as sp
from flint import arb, ctx, fmpq

from rdpsym.claims import prover
from rdpsym.foundations import operations
from rdpsym.foundations.balls import InfiniteValue, OutsideDomain, Undecided, precision, to_arb
from rdpsym.foundations.budget import time_budget
from rdpsym.foundations.disk_cache import persistent
from rdpsym.foundations.errors import ClaimError
from rdpsym.foundations.precision import DECISION_RUNGS
from rdpsym.foundations.reading import exact
from rdpsym.foundations.record import (
    Contradiction,
    Counterexample,
    Failure,
    NoPoints,
    Proof,
    Relation,
    Sampled,
    Status,
    point_items,
    weakest,
)
from rdpsym.foundations.record import Step as _RecordStep

#: A claim's verdict is a :class:`~rdpsym.foundations.record.Status`; claim files call it Verdict.
Verdict = Status


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


#: Values far past the edges, where a claim is only tried for a certified failure (:meth:`Domain.far_points`).
_FAR_REACH = tuple(sp.Integer(10) ** k for k in (30, 100, 300, 1000))
_NEAR_REACH = tuple(sp.Rational(1, 10**k) for k in (100, 300, 1000))


def reach_values(interval) -> list:
    """Values of ``interval`` far past :func:`edge_values`: 10³⁰ … 10¹⁰⁰⁰ toward an infinite end, 10⁻¹⁰⁰ … 10⁻¹⁰⁰⁰
    from an open finite one.  "t ≤ 10⁴⁰ for every t > 0" held at every edge (the farthest is 10¹²) and was reported
    checked (a probe).

    >>> [str(v) for v in reach_values(sp.Interval.open(0, 1))][:1]
    ['1/10000...']
    """
    if not isinstance(interval, (sp.Interval, sp.Range)):
        return []
    lo, hi = interval.inf, interval.sup
    out: list = []
    if hi is sp.oo:
        out += [(lo if lo.is_finite else 0) + t for t in _FAR_REACH]
    if lo is -sp.oo:
        out += [(hi if hi.is_finite else 0) - t for t in _FAR_REACH]
    if isinstance(interval, sp.Interval):
        if lo.is_finite and interval.left_open:
            out += [lo + t * (min(hi - lo, 1) if hi.is_finite else 1) for t in _NEAR_REACH]
        if hi.is_finite and interval.right_open:
            out += [hi - t * (min(hi - lo, 1) if lo.is_finite else 1) for t in _NEAR_REACH]
    return [v for v in out if v in interval]


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
    ends = (_end(interval.inf), _end(interval.sup))
    value = _draw(*ends, rng)
    return sp.Rational(value) if isinstance(value, Fraction) else value


def _end(end: sp.Expr) -> Fraction | sp.Expr | None:
    """An interval's end for :func:`_draw`: a Fraction when rational (no SymPy arithmetic on the ~10⁴ draws
    of a catalogue run), None when infinite, else the SymPy number itself (π)."""
    if end.is_infinite:
        return None
    return Fraction(int(end.p), int(end.q)) if end.is_Rational else end


def _draw(lo, hi, rng: random.Random):
    """A random number between ``lo`` and ``hi`` (None: unbounded that way): uniform when the interval is
    at most 100 long, else an end plus 10^j·(1 + u) for a random j in −8…8, u in [0, 1)."""
    def unit() -> Fraction:
        return Fraction(int(rng.random() * 2**40), 2**40)

    if lo is not None and hi is not None and hi - lo <= 100:
        u = unit()
        return lo + (hi - lo) * u if u > 0 else lo + (hi - lo) / 2
    mag = Fraction(10) ** rng.randint(-8, 8) * (1 + unit())
    if lo is not None and hi is not None:
        v = lo + mag
        return v if v < hi else lo + (hi - lo) * unit()
    if lo is not None:
        return lo + mag
    if hi is not None:
        return hi - mag
    return mag if rng.random() < 0.5 else -mag


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
        return self._kept(raw, rng)

    def far_points(self) -> list[dict]:
        """Points with one variable (or all at once) far past its edges (:func:`reach_values`), the others at their
        middle edge value: tried only for a certified failure, since a true claim's sides may not be evaluable
        there (none for a domain with non-numeric samples)."""
        if self.objects or not self.variables:
            return []
        names = list(self.variables)
        middle = [e[len(e) // 2] if e else None for e in (edge_values(self.variables[s]) for s in names)]
        if any(m is None for m in middle):
            return []
        reach = [reach_values(self.variables[s]) for s in names]
        raw = [tuple(v if j == i else middle[j] for j in range(len(names))) for i, r in enumerate(reach) for v in r]
        if len(names) > 1 and all(reach):
            raw += [tuple(r[k] for r in reach) for k in range(min(len(r) for r in reach))]
        return self._kept(raw, random.Random(self.seed))

    def _kept(self, raw: list, rng: random.Random) -> list[dict]:
        names = list(self.variables)
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


# --------------------------------------------------------------------------- steps


@dataclass(frozen=True)
class Step(_RecordStep):
    """One link ``lhs ⋈ rhs`` of a claim's derivation, with its reason.

    ``lhs`` and ``rhs`` are SymPy expressions in the domain's variables, or
    zero-argument callables returning one (run at check time).  ``reason`` is
    the author's sentence (``$...$`` spans are math).  ``domain`` samples this
    step instead of the claim's domain; ``symbolic=False`` turns the proof
    attempt off for steps SymPy is known not to reach; ``latex`` is how the
    step reads in a report (the author's LaTeX math) — without it the report
    prints the two sides as evaluated, which for a callable side (an integral
    done at check time) can be a page wide.

    Once checked, ``status`` and ``evidence`` are set and callable sides are
    replaced by what they returned.
    """

    domain: Domain | None = None
    symbolic: bool = True
    latex: str = ""

    def __post_init__(self) -> None:
        try:
            super().__post_init__()
        except ValueError as exc:  # the message names the field (relation, rule or status) and its values
            raise ClaimError(f"a claim step's {exc}") from None

    @property
    def counterexample(self) -> dict | None:
        """The point where the step was refuted, or None."""
        found = next((e for e in self.evidence if isinstance(e, Counterexample)), None)
        return None if found is None else dict(found.point)


def Equal(lhs, rhs, reason: str, **kw) -> Step:  # noqa: N802 - reads like the relation
    """``lhs = rhs`` because ``reason``."""
    return Step(lhs, "=", rhs, reason, **kw)


def AtMost(lhs, rhs, reason: str, **kw) -> Step:  # noqa: N802
    """``lhs ≤ rhs`` because ``reason``."""
    return Step(lhs, "<=", rhs, reason, **kw)


def AtLeast(lhs, rhs, reason: str, **kw) -> Step:  # noqa: N802
    """``lhs ≥ rhs`` because ``reason``."""
    return Step(lhs, ">=", rhs, reason, **kw)


@dataclass(frozen=True, init=False)
class Holds(Step):
    """A numeric relation computed by ``compare(point) -> (lhs, relation, rhs)``.

    For statements that are not one SymPy expression: "for all distributions",
    "for every event", a composition run on a concrete mechanism.  ``lhs`` and
    ``rhs`` are Arb balls (or numbers); the point comes from ``domain``.
    ``describe`` says the relation in words or terminal math (text, JSON),
    e.g. ``D_α(P‖Q) ≥ 0``; ``latex`` is the same relation as LaTeX math for the
    report (``D_\\alpha(P \\| Q) \\ge 0``).  Its relation is the one ``compare``
    returns at each point.
    """

    describe: str = ""
    compare: Callable[[dict], tuple] | None = None

    def __init__(self, describe: str, compare: Callable[[dict], tuple], reason: object = None,
                 domain: Domain | None = None, latex: str = "", status: Status | None = None, evidence: tuple = (),
                 **fields: object):
        # ``fields`` are the other Step fields, as dataclasses.replace passes them: a Holds has no sides.
        object.__setattr__(self, "describe", describe)
        object.__setattr__(self, "compare", compare)
        rule = fields.get("rule", reason)
        Step.__init__(self, None, None, None, rule, status, evidence, domain, False, latex)


@dataclass(frozen=True)
class Claim:
    """A statement, its source, its hypotheses, its derivation and the verdict it should reach."""

    id: str
    title: str
    source: str
    statement: str
    steps: tuple
    expected: Status
    domain: Domain = field(default_factory=Domain)
    hypotheses: tuple[str, ...] = ()
    note: str = ""

    def __post_init__(self):
        if not self.id or not isinstance(self.id, str):
            raise ClaimError(f"a claim needs a string id, got {self.id!r}")
        if not isinstance(self.expected, Status):
            raise ClaimError(f"claim {self.id}: expected must be a Verdict, got {self.expected!r}")
        if not self.steps:
            raise ClaimError(f"claim {self.id}: needs at least one step")
        for s in self.steps:
            if not isinstance(s, Step):
                raise ClaimError(f"claim {self.id}: steps must be Step or Holds, got {type(s).__name__}")
        self._check_characters()

    def strings(self) -> dict[str, str]:
        """Every string of the claim a report prints, by where it stands (``"step 2's reason"``)."""
        out = {"statement": self.statement, "title": self.title, "source": self.source, "note": self.note}
        out.update({f"hypothesis {i + 1}": h for i, h in enumerate(self.hypotheses)})
        for i, s in enumerate(self.steps, 1):
            out[f"step {i}'s reason"] = getattr(s.rule, "reason", "")
            if s.latex:
                out[f"step {i}'s latex"] = s.latex
            if isinstance(s, Holds):
                out[f"step {i}'s describe"] = s.describe
        return out

    def _check_characters(self) -> None:
        """A control character in a string is almost always a non-raw string's \\a or \\t: say where, at once."""
        for where, value in self.strings().items():
            bad = next((c for c in value if ord(c) < 32 and c != "\n"), None)
            if bad is not None:
                raise ClaimError(f"claim {self.id}: its {where} contains the control character U+{ord(bad):04X} "
                                 "(a non-raw string turned \\a or \\t into one? write r\"...\")")

    def check(self) -> ClaimResult:
        """Prove or check every step; the result holds the checked steps and the verdict (the weakest)."""
        started = time.perf_counter()
        checked = []
        for step in self.steps:
            try:
                checked.append(_check_step(step, step.domain or self.domain))
            except Exception as exc:  # noqa: BLE001 - a broken step is "unknown", with its error
                checked.append(dataclasses.replace(step, status=Status.UNKNOWN,
                                                   evidence=(Failure(f"{type(exc).__name__}: {exc}"),)))
        verdict = weakest(s.status for s in checked)
        return ClaimResult(self, verdict, tuple(checked), time.perf_counter() - started)


@dataclass(frozen=True)
class ClaimResult:
    """A checked claim: its verdict (the weakest step's status) and its checked steps."""

    claim: Claim
    verdict: Status
    steps: tuple[Step, ...]
    seconds: float

    @property
    def status(self) -> Status:
        return self.verdict

    @property
    def ok(self) -> bool:
        """Reached the expected verdict (or better); an expected refutation must be refuted."""
        if self.claim.expected is Status.REFUTED:
            return self.verdict is Status.REFUTED
        return self.verdict is not Status.REFUTED and self.claim.expected <= self.verdict

    @property
    def evidence(self) -> tuple:
        """Every step's evidence, in order."""
        return tuple(e for s in self.steps for e in s.evidence)

    def __str__(self) -> str:
        return operations.text(self)

    def _repr_markdown_(self) -> str:
        return operations.markdown(self)

    def __reduce__(self):
        # A claim's samplers and deferred sides are functions (often closures) that do not pickle; a
        # result keeps what was established: the claim's text and variables, the checked steps with
        # their values, status and evidence.  An unpickled result reports; it cannot be checked again.
        steps = tuple(_portable(s) for s in self.steps)
        domain = Domain(dict(self.claim.domain.variables), samples=self.claim.domain.samples,
                        seed=self.claim.domain.seed)
        claim = dataclasses.replace(self.claim, steps=steps, domain=domain)
        return ClaimResult, (claim, self.verdict, steps, self.seconds)


def _portable(step: Step) -> Step:
    """A checked step without functions: its domain's samplers and a Holds' comparison dropped."""
    if isinstance(step, Holds):
        return Holds(step.describe, None, step.rule, None, step.latex, step.status, step.evidence)
    domain = step.domain if step.domain is None else Domain(dict(step.domain.variables))
    lhs, rhs = (side if isinstance(side, sp.Basic) else None for side in (step.lhs, step.rhs))
    return dataclasses.replace(step, lhs=lhs, rhs=rhs, domain=domain)


# --------------------------------------------------------------------------- checking

def _resolve(x):
    return x() if callable(x) and not isinstance(x, sp.Basic) else x


#: A symbol's assumptions as sets of values (SymPy simplifies with them on entry: √(x²) is x for a positive x); a
#: sign's set is closed: a positive z on [0, 6] (an edge at the limit z → 0⁺ of what is claimed for z > 0) is allowed.
_ASSUMED = (("positive", sp.Interval(0, sp.oo)), ("nonnegative", sp.Interval(0, sp.oo)),
            ("negative", sp.Interval(-sp.oo, 0)), ("nonpositive", sp.Interval(-sp.oo, 0)),
            ("integer", sp.S.Integers), ("real", sp.S.Reals))


def _domain_within_assumptions(domain: Domain) -> None:
    """Refuse a domain that holds values its symbol's assumptions exclude: `sqrt(x**2) = x` with x declared positive
    was proved on all the reals, and |α| = α on [−3, 3] with rdpsym's own α (a probe of the claims engine)."""
    for symbol, where in domain.variables.items():
        if not isinstance(symbol, sp.Symbol) or not isinstance(where, sp.Set):
            continue
        for assumption, values in _ASSUMED:
            if getattr(symbol, f"is_{assumption}") and where.is_subset(values) is False:
                raise ClaimError(f"{symbol} is declared {assumption}, so SymPy simplifies with it (√({symbol}²) is "
                                 f"{symbol} when positive), but its domain {where} holds other values: declare it with "
                                 "the assumptions its domain has (real=True), or narrow the domain")


def _check_step(step: Step, domain: Domain) -> Step:
    """The step, checked: its status and evidence set, callable sides replaced by their values."""
    _domain_within_assumptions(domain)
    if isinstance(step, Holds):
        status, evidence = _check_numeric(domain, step.compare)
        return dataclasses.replace(step, status=status, evidence=evidence)
    lhs, rhs = exact(_resolve(step.lhs), "the left side"), exact(_resolve(step.rhs), "the right side")
    status, evidence = _check_relation(step, lhs, rhs, domain)
    return dataclasses.replace(step, lhs=lhs, rhs=rhs, status=status, evidence=evidence)


def _check_relation(step: Step, lhs: sp.Expr, rhs: sp.Expr, domain: Domain) -> tuple[Status, tuple]:
    proof = _prove(lhs, step.relation, rhs, domain) if step.symbolic else None
    # An identity is shown only at the highest precision (:func:`_decide`), so it is tried there first: a lower
    # one can only refute it, and is tried after only where the highest leaves the point undecided.  (One
    # evaluation a point instead of two for every identity that holds.)
    rungs = (DECISION_RUNGS[-1], *DECISION_RUNGS[:-1]) if step.relation == "=" else DECISION_RUNGS
    status, sampled = _check_numeric(domain, lambda p: (_at(lhs, p), step.relation, _at(rhs, p)), rungs, far=True)
    if status is Status.REFUTED:
        if proof:
            found = sampled[0]
            return Status.UNKNOWN, (Contradiction(proof, found.point), found)
        return status, sampled
    if not proof:
        return status, sampled
    sample = sampled[0] if sampled and isinstance(sampled[0], Sampled) else None
    undefined = sample.undefined if sample is not None else 0
    if status is Status.CHECKED or undefined == 0:
        # Points where both sides agree to the balls' width (a tight inequality, an identity
        # with cancellation) are what a proof settles.
        return Status.PROVED, (Proof(proof), *sampled)
    # A proof does not outrank sample points where the sides could not be evaluated
    # (e.g. a square root of a negative number): the hypotheses may be wrong.
    return Status.UNKNOWN, (Proof(proof), *sampled)


def _prove(lhs, relation, rhs, domain: Domain) -> str | None:
    return _proof_attempt(lhs, relation, rhs, domain.variables)[0]


@persistent("proof attempt", keep=lambda attempt: attempt[0] is not None or attempt[1], returns=tuple)
def _proof_attempt(lhs, relation: str, rhs, variables: dict) -> tuple[str | None, bool]:
    """The proof of ``lhs ⋈ rhs`` under ``variables``' domains, or None; and whether a None is settled.

    Kept by rdpsym's cache of derivations (:mod:`rdpsym.foundations.disk_cache`): a proof is the same proof
    for the same sides, domains and code, so a second ``rdpsym check`` (or the atlas after the catalogue)
    replays it instead of running SymPy's rewrites again; a "no proof" is kept only when no step ran out of
    its time (:func:`rdpsym.claims.prover.settled`).  The numeric check of every point is never replayed.
    """
    return prover.settled(_prove_now, lhs, relation, rhs, variables)


def _prove_now(lhs, relation, rhs, variables: dict) -> str | None:
    if relation in ("=", "<=", ">=") and lhs == rhs:
        return "both sides are the same expression"  # also ∞ = ∞, which no difference can show
    if relation in ("<=", "<") and rhs == sp.oo and lhs.is_finite or \
            relation in (">=", ">") and lhs == sp.oo and rhs.is_finite:
        return "a finite expression below ∞"
    diff = {"=": lhs - rhs, "<=": rhs - lhs, "<": rhs - lhs, ">=": lhs - rhs, ">": lhs - rhs}[relation]
    if diff.has(sp.oo, -sp.oo, sp.zoo, sp.nan):
        return None
    extra = diff.free_symbols - set(variables)
    if extra:
        return None
    diff, _ = prover.substitute_domains(diff, variables)
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
    values = {s: v for s, v in point.items() if isinstance(s, sp.Symbol)}  # to_arb reads each exactly
    missing = expr.free_symbols - set(values)
    if missing:
        raise ClaimError(f"free symbols {sorted(map(str, missing))} not given by the domain")
    try:
        return to_arb(expr, values)
    except InfiniteValue:
        return _with_an_infinite_part(expr, values)


def _with_an_infinite_part(expr: sp.Expr, values: dict):
    """``expr`` where a part of it is +∞ (D inside −D or e^{−(α−1)D}): SymPy's extended arithmetic on the exact point,
    within 2 s: ±∞, a ball, or :class:`OutsideDomain`.  The whole side was read as +∞ wherever a part of it was, so
    AtLeast(−D, −1) was checked where D = ∞ (a probe of the claims engine)."""
    if not all(isinstance(v, sp.Basic) and v.is_number for v in values.values()):
        raise OutsideDomain("a part of the expression is +∞ at a point given as balls")
    found: list = []
    with time_budget(2.0, "an expression with an infinite part, at a point", absorb=True):
        found.append(expr.xreplace(values))
    if not found:
        raise OutsideDomain("a part of the expression is +∞ here, and SymPy did not finish the rest")
    value = found[0]
    if value in (sp.oo, -sp.oo):
        return value
    if value.free_symbols or value.has(sp.nan, sp.zoo, sp.oo, -sp.oo) or value.is_extended_real is False:
        raise OutsideDomain(f"a part of the expression is +∞ here, and the whole is {value}")
    return to_arb(value, {})


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
        if ctx.prec < DECISION_RUNGS[-1]:
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


def _ball(x) -> arb:
    return x if isinstance(x, arb) else arb(x) if isinstance(x, (int, fmpq)) else to_arb(x)


def _check_numeric(domain: Domain, compare, rungs: tuple[int, ...] = DECISION_RUNGS,
                   far: bool = False) -> tuple[Status, tuple]:
    """Decide ``compare(point)`` at every sample point in balls, at the precisions ``rungs`` in turn: refuted at
    the first certified failure, checked when every point is decided, unknown when some point stays undecided at
    the highest precision.  ``far``: the domain's far points too (:meth:`Domain.far_points`), where only a
    certified failure counts (a refutation, with its counterexample); an undecided or undefined far point is
    not a sample point."""
    points = domain.points()
    if not points:
        return Status.UNKNOWN, (NoPoints(),)
    if far:
        for point in domain.far_points():
            try:
                decided, lhs, rel, rhs = _decided_at(compare, point, rungs)
            except (OutsideDomain, Undecided, ArithmeticError, ValueError, TypeError):
                continue
            if decided is False:
                return Status.REFUTED, (Counterexample(point_items(point), _value(lhs), _value(rhs),
                                                       Relation.parse(rel), len(points)),)
    undecided, undefined, first_undecided = 0, 0, None
    for point in points:
        decided, defined = None, True
        for bits in rungs:
            with precision(bits):
                try:
                    lhs, rel, rhs = compare(point)
                    rel = Relation.parse(rel).value  # ("!=" from a Holds step: named, not a KeyError or "unknown")
                    decided, defined = _decide(lhs, rel, rhs), True
                except OutsideDomain:
                    decided, defined = None, False
                except Undecided:
                    decided, defined = None, True
            if decided is not None:
                break
        undefined += not defined
        if decided is False:  # the sides that decided it are the counterexample's
            return Status.REFUTED, (Counterexample(point_items(point), _value(lhs), _value(rhs),
                                                   Relation.parse(rel), len(points)),)
        if decided is None:
            undecided += 1
            first_undecided = first_undecided or point
    sampled = Sampled(len(points), undecided, undefined, point_items(first_undecided or {}), DECISION_RUNGS[-1])
    return (Status.UNKNOWN if undecided else Status.CHECKED), (sampled,)


def _decided_at(compare, point: dict, rungs: tuple[int, ...]) -> tuple:
    """(whether ``compare`` holds at ``point``, decided in balls at the first of ``rungs`` that decides it, or None;
    the sides and relation)."""
    decided = lhs = rel = rhs = None
    for bits in rungs:
        with precision(bits):
            try:
                lhs, rel, rhs = compare(point)
                rel = Relation.parse(rel).value
                decided = _decide(lhs, rel, rhs)
            except Undecided:
                decided = None
        if decided is not None:
            break
    return decided, lhs, rel, rhs


def _value(x) -> object:
    """A side's value at a counterexample as a number: a ball's midpoint to 60 digits, ±∞ as is."""
    if isinstance(x, arb):
        return sp.Float(x.mid().str(60, radius=False), 60) if x.is_finite() else sp.nan
    return exact(x, "a side of the comparison")  # a number, text or SymPy value a claim's compare returned
