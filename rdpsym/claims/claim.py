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
import functools
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import sympy as sp

from rdpsym.claims import prover
from rdpsym.claims.critical import singular_points, switch_points, tight_failure
from rdpsym.claims.deciding import (
    DEEPER_RUNGS,
    _at,
    _check_numeric,
    _counterexample,
    _exactly_equal,
    _exactly_related,
    _failure_at,
)
from rdpsym.claims.domains import Domain, domain_within_assumptions
from rdpsym.foundations import operations
from rdpsym.foundations.disk_cache import persistent
from rdpsym.foundations.errors import ClaimError
from rdpsym.foundations.precision import DECISION_RUNGS
from rdpsym.foundations.reading import exact
from rdpsym.foundations.record import (
    Contradiction,
    Counterexample,
    Failure,
    Proof,
    Sampled,
    Status,
    point_items,
    weakest,
)
from rdpsym.foundations.record import Step as _RecordStep

#: A claim's verdict is a :class:`~rdpsym.foundations.record.Status`; claim files call it Verdict.
Verdict = Status


# --------------------------------------------------------------------------- steps


@dataclass(frozen=True)
class Step(_RecordStep):
    """One link ``lhs ⋈ rhs`` of a claim's derivation, with its reason.

    ``lhs`` and ``rhs`` are SymPy expressions in the domain's variables, or
    zero-argument callables returning one (run at check time).  ``reason`` is
    the author's sentence (``$...$`` spans are math).  ``domain`` samples this
    step instead of the claim's domain; ``symbolic=False`` turns the proof
    attempt off for steps SymPy is known not to reach (the search for the points where the step is tightest
    still runs); ``latex`` is how the
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


def _check_step(step: Step, domain: Domain) -> Step:
    """The step, checked: its status and evidence set, callable sides replaced by their values."""
    domain_within_assumptions(domain)
    if isinstance(step, Holds):
        # The far points too: a predicate checked only at the edges' samples took t ≤ 10⁴⁰ on t > 0, and Laplace's
        # D_α ≤ (1 − 10⁻²⁰)/λ, as checked, where AtMost refuted both at α, t = 10³⁰⁺ (a probe of the claims engine).
        # A predicate's failure counts only at the highest precision: a predicate may round one side outward itself
        # (δ_Gauss at the lower end of an ε ball), so a wider ball can fail it where the statement holds (Balle et
        # al.'s conversion at σ = 10¹⁰⁰ failed at 256 bits by 2⁻²⁵⁷ and held at 1 024).  A failure at 1 024 bits is
        # as certain as the predicate is rigorous: one that returns its sides as balls over the whole input ball
        # (overlap: undecided) is; one that compares rounded ends is not, and its author must say so.
        status, evidence = _check_numeric(domain, step.compare, far=True, confirm_failures=True)
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
    # Where balls cannot decide, the sides may be exactly equal at a point that is not a binary number: a strict
    # relation fails there (|x − 1/3| > 0 at 1/3), any other holds (x ≤ π at π was unknown: a probe).
    equal = functools.partial(_exactly_equal, lhs, rhs)
    # (the searches for singular and tight points run whether or not a proof is tried: with ``symbolic=False``,
    # a/(2(a − 3)) ≤ 10⁶ on (1, 10) and (x − √2)² ≥ 10⁻⁴⁰ were checked, their failures at 3 and √2 not looked for)
    at, beside = singular_points((lhs, rhs), domain)
    status, sampled = _check_numeric(domain, lambda p: (_at(lhs, p), step.relation, _at(rhs, p)), rungs, far=True,
                                     equal=equal, extra=at, beside=beside)
    if status is Status.REFUTED:
        if proof:
            found = sampled[0]
            return Status.UNKNOWN, (Contradiction(proof, found.point), found)
        return status, sampled
    if step.relation == "=" and not proof and domain.first_point() is not None:
        # Sides a nonzero constant apart agree to 2^(−512) wherever they are large: e^a = e^a + 10¹⁰⁰ on [1000, 2000]
        # was checked (a probe); and sides apart by less than 2^(−512) of their size anywhere: x = x·(1 + 10⁻⁴⁰⁰),
        # α/(2σ²) + e^(−10⁴α) = α/(2σ²) were checked (a review).  The difference evaluated exactly at the first sample
        # point, signed where its sign is certain (deciding._holds_exactly), refutes them; so, at a point where a
        # Piecewise, Abs, … switches, does an identity that fails there alone (another review).
        for point in (domain.first_point(), *switch_points(lhs, rhs, domain)):
            holds, sides = _exactly_related(lhs, "=", rhs, point)
            if holds is False:
                return Status.REFUTED, (_counterexample(point, sides, domain.point_count),)
    if not proof:
        undecided: list[dict] = []
        tight = tight_failure(lhs, step.relation, rhs, domain, functools.partial(
            _failure_at, lhs, step.relation, rhs, rungs, equal), undecided)
        if tight is not None:
            return Status.REFUTED, (_counterexample(*tight, domain.point_count),)
        if undecided and status is Status.CHECKED and isinstance(sampled[0], Sampled):
            # (a point between two exact zeros the balls cannot decide: as a sample point left undecided)
            found = sampled[0]
            return Status.UNKNOWN, (dataclasses.replace(found, points=found.points + len(undecided),
                                                        undecided=found.undecided + len(undecided),
                                                        example=found.example or point_items(undecided[0]),
                                                        bits=DEEPER_RUNGS[-1]), *sampled[1:])
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
    if relation in ("<=", "<") and rhs == sp.oo and lhs.is_finite and prover.finite_by_construction(lhs) or \
            relation in (">=", ">") and lhs == sp.oo and rhs.is_finite and prover.finite_by_construction(rhs):
        return "a finite expression below ∞"
    diff = {"=": lhs - rhs, "<=": rhs - lhs, "<": rhs - lhs, ">=": lhs - rhs, ">": lhs - rhs}[relation]
    if diff.has(sp.oo, -sp.oo, sp.zoo, sp.nan):
        return None
    extra = diff.free_symbols - set(variables)
    if extra:
        return None
    diff, _ = prover.substitute_domains(diff, variables)
    if relation == "=":
        return "simplifies to 0" if prover.attempt(prover.prove_zero, diff) else None
    if relation in ("<=", ">=") and prover.attempt(prover.prove_nonnegative, diff):
        return "difference nonnegative under the hypotheses"
    return None
