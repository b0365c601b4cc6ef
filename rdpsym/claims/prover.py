"""Symbolic proof of identities and of inequalities that reduce to positivity.

A claim's hypotheses become SymPy assumptions: every variable with a domain
``(a, ∞)`` is rewritten ``a + t`` with ``t`` positive (so α > 1 becomes
α = 1 + β, β > 0, as in :mod:`rdpsym.engine.context`), and a domain ``(0, 1)``
is recorded as ``0 < p`` and ``1 − p > 0``.  Then

* an identity holds when ``lhs − rhs`` simplifies to 0 (sound rewrites only:
  expand/cancel/logcombine under positive assumptions, never ``force=True``),
  or when it is ``Σ cᵢ log Xᵢ`` with integer cᵢ and the products of the
  Xᵢ^{cᵢ} on the two sides expand to the same thing (logs of sums do not expand);
* an inequality ``lhs ≤ rhs`` holds when ``rhs − lhs`` is shown nonnegative by
  a few sound rules: SymPy's own sign assumptions; a product or quotient of
  nonnegative factors; a sum of nonnegative terms; in one variable t ≥ 0, a
  continuous f with f(0⁺) ≥ 0 and f' ≥ 0 (tanh t ≤ t); and ``A − B`` with
  A, B > 0 by the monotonicity of log, i.e. ``log A − log B ≥ 0`` (which is how
  ``e^{a} − e^{b} ≥ 0`` becomes ``a − b ≥ 0``).

Every routine returns ``True`` (a proof) or ``None`` (no proof found: not a
refutation).  Open-ended SymPy calls run under :func:`rdpsym.foundations.budget.budgeted`.
"""

from __future__ import annotations

from contextvars import ContextVar

import sympy as sp
from sympy.calculus.util import continuous_domain
from sympy.polys.polyerrors import BasePolynomialError

from rdpsym.foundations.budget import Unsettled, budgeted, settled_cache
from rdpsym.foundations.errors import NoClosedFormError

#: Seconds allowed to each open-ended SymPy call in a proof attempt.
SECONDS = 4.0
#: Seconds allowed to a factor/together rewrite inside the positivity rules: either it is quick or it is a
#: polynomial of huge degree (1 − e^{100·r(t)} read as a polynomial in e^{r(t)} ran out the whole 4 s at
#: every such step of a catalogue claim, 4 s of its 4.1), and the other rules still run after it.
REWRITE_SECONDS = 1.0
#: The largest k for which factor is tried on an expression with a power b^{k·u} of symbolic exponent (e^{k·u}
#: included): SymPy reads it as the k-th power of a generator b^u, and 1 − e^{100(−α/(5(α+1)) − 1)/(ε+1)} of a
#: catalogue claim is, expanded, a polynomial of degrees 20 and 100 in two generators, whose factoring did not
#: finish in 100 s: it ran out the rewrite's whole budget at every such step, and gave nothing.
MAX_POWER_MULTIPLE = 12

#: Seconds allowed to one proof attempt of a relation, all its steps together.
ATTEMPT_SECONDS = 8.0
#: How deep the positivity rules recurse.
DEPTH = 6

#: Inside :func:`settled`: a list that gets a mark each time a step runs out of its time (or SymPy's
#: exact-size guard refuses it), so that an attempt's "no proof" is known to be the rules' answer, not the clock's.
_CUT_SHORT: ContextVar[list | None] = ContextVar("_CUT_SHORT", default=None)


def settled(prove, *args) -> tuple[object, bool]:
    """``prove(*args)``, and whether its answer is settled: no step of it ran out of its time budget.

    A proof found is a proof however long it took; a "no proof" is the rules' own answer only when no step was
    cut short (the same attempt with more time, or on an idle machine, might find one).  Callers that keep
    answers (:mod:`rdpsym.claims.claim`'s cache of proof attempts) keep a "no proof" only when it is settled.

    >>> t = sp.Symbol("t", positive=True)
    >>> settled(prove_nonnegative, t - 1)
    (None, True)
    """
    marks: list = []
    token = _CUT_SHORT.set(marks)
    try:
        return prove(*args), not marks
    finally:
        _CUT_SHORT.reset(token)


def substitute_domains(expr: sp.Expr, domains: dict) -> tuple[sp.Expr, dict]:
    """Rewrite ``expr`` so the domains become sign assumptions.

    Returns the rewritten expression and the map old symbol → new expression.

    >>> a = sp.Symbol("alpha")
    >>> e, m = substitute_domains(a - 1, {a: sp.Interval.open(1, sp.oo)})
    >>> e.is_positive
    True
    """
    # Fresh Dummies: a user variable named like a substitute ("x_t") can never be captured.
    # Dropping a bound (e.g. the upper end of [a, b]) only proves a more general statement.
    mapping = {}
    for s, dom in domains.items():
        if isinstance(dom, sp.FiniteSet):
            continue  # fixed values: left symbolic, proved for every value
        lo, hi = dom.inf, dom.sup
        if isinstance(dom, sp.Range):
            # n ∈ {a, a+1, ...}: n = a + t with t a nonnegative integer.
            t = sp.Dummy(f"{s.name}_t", integer=True, nonnegative=True)
            mapping[s] = lo + t if lo.is_finite else s
            continue
        open_lo = dom.left_open or lo is -sp.oo
        open_hi = dom.right_open or hi is sp.oo
        if lo.is_finite and hi.is_finite and (open_lo or open_hi):
            # A bounded interval mapped exactly, both ends visible to the sign rules:
            # (a, b): a + w·t/(1+t), t > 0;  (a, b]: a + w/(1+t), t ≥ 0;  [a, b): b − w/(1+t), t ≥ 0.
            w = hi - lo
            if open_lo and open_hi:
                t = sp.Dummy(f"{s.name}_t", positive=True)
                mapping[s] = lo + w * t / (1 + t)
            elif open_lo:
                t = sp.Dummy(f"{s.name}_t", nonnegative=True)
                mapping[s] = lo + w / (1 + t)
            else:
                t = sp.Dummy(f"{s.name}_t", nonnegative=True)
                mapping[s] = hi - w / (1 + t)
        elif lo.is_finite:
            t = sp.Dummy(f"{s.name}_t", positive=True) if open_lo else sp.Dummy(f"{s.name}_t", nonnegative=True)
            mapping[s] = lo + t
        elif hi.is_finite:
            t = sp.Dummy(f"{s.name}_t", positive=True) if open_hi else sp.Dummy(f"{s.name}_t", nonnegative=True)
            mapping[s] = hi - t
        else:
            mapping[s] = sp.Dummy(s.name, real=True)
    return sp.sympify(expr, strict=True).xreplace(mapping), mapping


def prove_zero(expr: sp.Expr) -> bool | None:
    """``True`` if ``expr`` simplifies to 0 under its symbols' assumptions."""
    expr = sp.sympify(expr, strict=True)
    if expr == 0:
        return True
    for step in (sp.expand, sp.cancel, _log_normal, sp.simplify, _exponentiated):
        out = _try(lambda e=expr, f=step: f(e))
        if out is not None and sp.sympify(out, strict=True) == 0:
            return True
    return None


def _exponentiated(e: sp.Expr) -> sp.Expr | None:
    """``Σ cᵢ·log Xᵢ + R = 0`` with integers cᵢ and Xᵢ > 0  ⟸  ``Π_{c>0} Xᵢ^{cᵢ}·e^R − Π_{c<0} Xᵢ^{−cᵢ} = 0``.

    The logarithm of a sum does not expand, so identities such as
    log((a+b)(c+d)) = log(a+b) + log(c+d) need the arguments multiplied out.
    Returns the difference of the two products, expanded (``None`` when the rule does not apply).

    >>> a, b = sp.symbols("a b", positive=True)
    >>> _exponentiated(sp.log(a**2 + 2*a*b + b**2) - 2*sp.log(a + b))
    0
    """
    up, down, rest = [], [], []
    for term in sp.Add.make_args(sp.expand(e)):
        logs = [f for f in sp.Mul.make_args(term) if isinstance(f, sp.log)]
        if not logs:
            rest.append(term)
            continue
        c = term / logs[0]
        if len(logs) != 1 or not c.is_integer or not logs[0].args[0].is_positive or c.is_zero is not False:
            return None
        if c.is_positive:
            up.append(logs[0].args[0] ** c)
        elif c.is_negative:
            down.append(logs[0].args[0] ** -c)
        else:
            return None
    rest = sp.Add(*rest)
    if not (up or down) or rest.is_extended_real is not True:
        return None  # exp is one-to-one on the reals only
    lhs = sp.Mul(*up) * sp.exp(rest)
    return sp.expand(sp.powsimp(sp.expand(lhs)) - sp.powsimp(sp.expand(sp.Mul(*down))))


def _log_normal(e: sp.Expr) -> sp.Expr:
    # Expand logs (sound: symbols carry positive assumptions), then combine.
    e = sp.expand_log(sp.expand(e))
    return sp.simplify(sp.expand(sp.powsimp(e)))


def prove_nonnegative(expr: sp.Expr, depth: int = DEPTH) -> bool | None:
    """``True`` if ``expr ≥ 0`` follows from the sign rules above.

    >>> t = sp.Symbol("t", positive=True)
    >>> prove_nonnegative(sp.exp(t) - 1), prove_nonnegative(t - 1)
    (True, None)
    """
    expr = sp.sympify(expr, strict=True)
    if depth < 0:
        return None
    if _known(lambda: expr.is_nonnegative):
        return True
    if expr.is_Mul or (expr.is_Pow and expr.exp.is_integer is False):
        factors = expr.args if expr.is_Mul else (expr.base,)
        if all(prove_nonnegative(f, depth - 1) for f in factors):
            return True
    if expr.is_Pow and expr.exp.is_integer and expr.exp.is_even and _known(lambda: expr.base.is_extended_real):
        return True
    if expr.is_Pow and prove_nonnegative(expr.base, depth - 1):
        return True
    if isinstance(expr, sp.exp):
        return True
    if expr.is_Add and all(prove_nonnegative(a, depth - 1) for a in expr.args):
        return True
    for rewrite in (sp.factor, sp.together) if _small_power_multiples(expr) else (sp.together,):
        out = _rewritten(rewrite, expr)
        if out is not None and out != expr and (out.is_Mul or out.is_Pow):
            if prove_nonnegative(out, depth - 1):
                return True
    if expr.is_Add:
        # Calculus before the log/exp rewrites: on one variable it is the direct route
        # (tanh t ≤ t), while the rewrites of such sums wander through log-expressions.
        if _by_monotonicity(expr, depth):
            return True
        if _by_logarithms(expr, depth):
            return True
        if _by_exponentiating(expr, depth):
            return True
    return None


@settled_cache(maxsize=4096)
def _rewritten(rewrite, expr: sp.Expr) -> sp.Expr | None:
    """``rewrite(expr)`` within :data:`REWRITE_SECONDS`, or None.

    Kept for the process: a claim's steps share subexpressions, and the positivity rules reach the same ones by
    several routes (715 of the catalogue's 1 569 rewrites repeated an earlier one).  A timeout or SymPy's refusal
    is not kept: it is tried again, and marks that attempt cut short as :func:`_try` does.
    """
    out = _try(lambda: rewrite(expr), REWRITE_SECONDS)
    if out is None:
        raise Unsettled(None)
    return out


def _small_power_multiples(expr: sp.Expr) -> bool:
    """Whether every power of symbolic exponent in ``expr`` is b^{k·u} with |k| ≤ :data:`MAX_POWER_MULTIPLE` (the
    degree its generator b^u takes in the polynomial that factor reads).

    >>> t = sp.Symbol("t", positive=True)
    >>> _small_power_multiples(1 - sp.exp(2 * t)), _small_power_multiples(1 - sp.exp(100 * (t - 1) / (t + 1)))
    (True, False)
    """
    for power in expr.atoms(sp.exp, sp.Pow):
        exponent = power.exp
        if exponent.is_Number:
            continue
        for term in sp.Add.make_args(sp.expand_mul(exponent)):  # (factor expands e^{a+b} to e^a·e^b)
            k, _ = term.as_coeff_Mul(rational=True)
            if abs(k.p) > MAX_POWER_MULTIPLE:
                return False
    return True


def _by_monotonicity(expr: sp.Expr, depth: int) -> bool | None:
    """f(t) ≥ 0 on t's half-line because f(0⁺) ≥ 0 and f' ≥ 0 (f of one variable, continuous there).

    The calculus step behind inequalities such as tanh t ≤ t: f(t) = t − tanh t has
    f(0⁺) = 0 and f'(t) = tanh²t ≥ 0.  Sound because a function continuous and
    nondecreasing on (0, ∞) is at least its right limit at 0; the continuity is
    SymPy's ``continuous_domain`` (a pole such as tan's would break the argument).

    >>> t = sp.Symbol("t", positive=True)
    >>> _by_monotonicity(t - sp.tanh(t), DEPTH)
    True
    """
    free = expr.free_symbols
    if len(free) != 1 or depth < 1 or expr.has(sp.Min, sp.Max, sp.Abs, sp.Piecewise):
        return None  # several variables, or a kink where f' is not defined
    (variable,) = free
    if not variable.is_nonnegative:
        return None
    # The argument is about f on the real half-line, so t is a real variable here, whatever else the symbol says: an
    # integer t (a Range's n = a + t) let SymPy's simplify take sin(2πt) for 0 and cos(2πt) for 1 in f', "proving"
    # (n − 123457)² − 1/4 − 4(n − 123457)·sin(πn/2)cos(πn/2)(1 − 2sin²(πn/2))/π ≥ 0 on n ≥ 0, which is −1/4 at
    # n = 123457 (a review).  Nondecreasing on the reals bounds it at the integers too.
    t = sp.Dummy(variable.name, positive=True) if variable.is_positive else sp.Dummy(variable.name, nonnegative=True)
    expr = expr.xreplace({variable: t})
    # t ≥ 0 (not only t > 0): f must be continuous at 0 as well, so that f(0) = f(0⁺).
    half_line = sp.Interval.open(0, sp.oo) if t.is_positive else sp.Interval(0, sp.oo)
    if _singularities_unseen(expr, t) or _try(lambda: continuous_domain(expr, t, half_line)) != half_line:
        return None
    start = _try(lambda: sp.limit(expr, t, 0, "+"))
    if start is None or not _known(lambda: start.is_nonnegative):
        return None
    slope = _try(lambda: sp.simplify(sp.diff(expr, t)))
    return None if slope is None else prove_nonnegative(slope, depth - 2)


#: Functions with poles or jumps on the real line (:func:`_singularities_unseen`).
_SINGULAR = (sp.tan, sp.cot, sp.sec, sp.csc, sp.gamma, sp.loggamma, sp.digamma, sp.polygamma, sp.zeta, sp.beta,
             sp.floor, sp.ceiling, sp.frac, sp.sign, sp.Heaviside)
_PERIODIC = (sp.sin, sp.cos, sp.tan, sp.cot, sp.sec, sp.csc)


def _singularities_unseen(expr: sp.Expr, t: sp.Symbol) -> bool:
    """Whether ``expr`` may be singular where SymPy's ``continuous_domain`` says it is continuous.  SymPy 1.14 finds
    the poles of tan(t) and 1/(eᵗ − 2), but calls tan(eᵗ), cot(eᵗ) and 1/sin(eᵗ) continuous on the whole half-line:
    tan(e^x) + 10²⁰ ≥ 0 on [0, 1] was proved by monotonicity, though it is −6·10²¹ just past x = log(π/2) (a
    review).  So a function with poles or jumps whose argument is not linear in t, or a periodic function of such an
    argument under a negative power or a logarithm, leaves the rule unused."""

    def linear(arguments: tuple) -> bool:
        return all(a.is_polynomial(t) and sp.degree(a, t) <= 1 for a in arguments)

    def periodic_inside(e: sp.Expr) -> bool:
        return any(isinstance(g, _PERIODIC) and not linear(g.args) for g in e.atoms(sp.Function))

    if any(isinstance(f, _SINGULAR) and not linear(f.args) for f in expr.atoms(sp.Function)):
        return True
    if any(not (p.exp.is_number and p.exp.is_nonnegative) and periodic_inside(p.base) for p in expr.atoms(sp.Pow)):
        return True
    return any(periodic_inside(g.args[0]) for g in expr.atoms(sp.log))


def finite_by_construction(expr: sp.Expr) -> bool:
    """Whether ``expr`` is finite wherever its symbols are finite, by the operations it is built from: sums,
    products, powers of a positive number or to a nonnegative number, and functions finite at every finite argument
    (exp, sin, cos, tanh, atan, erf, …).  SymPy's ``is_finite`` is not that: SymPy 1.14 holds −log u (u ≥ 0),
    log|x − 73/10|, B(u, 1), Max(1, 1/u) and cosh(1/x) finite, all infinite at 0, and −log|x − 73/10| < ∞ on (7, 8)
    was proved "a finite expression below ∞" (a review)."""
    if expr.is_Atom:
        return expr.is_finite is True
    if isinstance(expr, sp.Pow):
        exponent_ok = expr.exp.is_number and expr.exp.is_nonnegative is True
        base_ok = expr.base.is_number and expr.base.is_positive is True
        return (exponent_ok or base_ok) and all(finite_by_construction(a) for a in expr.args)
    if isinstance(expr, _FINITE_AT_FINITE):
        return all(finite_by_construction(a) for a in expr.args)
    return False


#: Operations finite at every finite argument (:func:`finite_by_construction`).
_FINITE_AT_FINITE = (sp.Add, sp.Mul, sp.exp, sp.sin, sp.cos, sp.tanh, sp.sinh, sp.cosh, sp.atan, sp.asinh, sp.erf,
                     sp.erfc, sp.Abs, sp.Max, sp.Min, sp.sign)


def _by_logarithms(expr: sp.Expr, depth: int) -> bool | None:
    """A − B ≥ 0 with A, B > 0 because log A − log B ≥ 0."""
    pos = [a for a in expr.args if not _could_be_negative(a)]
    neg = [-a for a in expr.args if _could_be_negative(a)]
    if not pos or not neg:
        return None
    A, B = sp.Add(*pos), sp.Add(*neg)
    if not (_known(lambda: A.is_positive) and _known(lambda: B.is_positive)):
        return None
    diff = _try(lambda: sp.expand(sp.expand_log(sp.log(A)) - sp.expand_log(sp.log(B))))
    if diff is None or diff.has(sp.log) and diff == sp.log(A) - sp.log(B):
        return None
    return prove_nonnegative(diff, depth - 1)


def _by_exponentiating(expr: sp.Expr, depth: int) -> bool | None:
    """R + c·log X ≥ 0 with c ≠ 0 of known sign, by exponentiating both sides.

    c < 0: R − |c|·log X ≥ 0  ⟸  exp(R/|c|) − X ≥ 0;
    c > 0: R + c·log X ≥ 0    ⟸  X − exp(−R/c) ≥ 0.
    """
    with_log = [a for a in expr.args if a.has(sp.log)]
    if len(with_log) != 1:
        return None
    term = with_log[0]
    logs = [f for f in sp.Mul.make_args(term) if isinstance(f, sp.log)]
    if len(logs) != 1:
        return None
    X = logs[0].args[0]
    c = term / logs[0]
    if c.has(sp.log) or not _known(lambda: X.is_positive):
        return None
    R = expr - term
    if c.is_negative:
        target = sp.exp(R / -c) - X
    elif c.is_positive:
        target = X - sp.exp(-R / c)
    else:
        return None
    # e^N of a large numeric N stands for itself while SymPy factors: as a polynomial it is E^N, and factoring α −
    # e³⁰⁰⁰, of degree 3 000 in E, spent the proof attempt's whole budget testing primes (log α ≤ 3000: 8 s)
    large = {f: sp.Dummy("e", positive=True) for f in target.atoms(sp.exp)
             if f.args[0].is_number and f.args[0].is_extended_real and (abs(f.args[0]) > _LARGEST_EXPONENT) is sp.true}
    target = _try(lambda: sp.factor(sp.expand(sp.powsimp(sp.expand(target))).xreplace(large)))
    if target is not None and large:
        target = target.xreplace({v: k for k, v in large.items()})
    return None if target is None else prove_nonnegative(target, depth - 1)


#: The largest numeric exponent of e that :func:`_by_exponentiating` lets SymPy factor as a power of E.
_LARGEST_EXPONENT = 64


def _try(call, seconds: float = SECONDS):
    """``call()`` under a time budget of ``seconds``; ``None`` when it runs out or SymPy gives up (no proof, not a
    failure).

    SymPy signals "cannot do this" with NotImplementedError, its polynomial errors, ValueError
    or TypeError (an undecidable comparison); any of them only means this rule found no proof.
    """
    try:
        return budgeted(call, "proof step", seconds)
    except NoClosedFormError:  # out of time (or refused by a size guard): this "no proof" is not the rules' own
        marks = _CUT_SHORT.get()
        if marks is not None:
            marks.append(True)
        return None
    except (NotImplementedError, BasePolynomialError, ValueError, TypeError):
        return None


def attempt(prove, expr: sp.Expr) -> bool | None:
    """``prove(expr)`` within :data:`ATTEMPT_SECONDS` in all: each step has its own budget, and a difference whose
    every rule runs to it (−log((α − 1)/α) + log(α)/(α − 1) − 10⁻³) took 21 s of CPU for no proof (a probe)."""
    return _try(lambda: prove(expr), ATTEMPT_SECONDS)


def _known(query) -> bool:
    """Whether SymPy's assumption ``query()`` (``e.is_nonnegative``) answers True within a time budget.  Such a
    query may isolate the real roots of a polynomial it builds on the way: for −log((α − 1)/α) + log(α)/(α − 1)
    it grew to 24 GB before the numeric check had begun (a probe); a query cut short is no proof."""
    return _try(query) is True


def _could_be_negative(term: sp.Expr) -> bool:
    c, _ = term.as_coeff_Mul()
    return bool(c.is_negative)
