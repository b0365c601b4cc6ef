"""Regrouping results into the forms papers print.

Blanket ``simplify`` dominates SymPy's cost and rarely gives the paper's form
(it turns Mironov's Laplace moment into ``(α e^{1/b} + ...) e^{−(α+1)/b}/(2α−1)``).
These helpers do the few targeted rewrites that do.
"""

from __future__ import annotations

from collections import defaultdict

import sympy as sp

from rdpsym.foundations.budget import Unsettled, budgeted, settled_cache
from rdpsym.foundations.errors import NoClosedFormError
from rdpsym.foundations.logs import expand_logs


@settled_cache(maxsize=1024)
def collect_exp(expr: sp.Expr) -> sp.Expr:
    """Group a sum by its exponential factors: Σ c_i·e^{u_i} with distinct u_i.

    A rewrite for reading, so it is bounded: past :data:`TIDY_SECONDS` of CPU time
    (``powsimp`` and ``factor`` on eleven terms like (3^{−|k+1|}/2)^{999/1000}·C(10, k−2)^{1/1000}
    did not return in minutes) the sum is returned as it came.  A regrouping is kept for the process (a
    derivation regroups its moment for its value and again for its steps); a sum returned as it came is not, so
    one slow moment does not fix the unregrouped form for the rest of the process.

    >>> import sympy as sp
    >>> a, b = sp.symbols("alpha b", positive=True)
    >>> collect_exp(sp.exp(a/b)/2 + sp.exp(a/b)/3)
    5*exp(alpha/b)/6
    """
    try:
        return budgeted(lambda: _collect_exp(expr), "regrouping a sum by its exponentials", seconds=TIDY_SECONDS)
    except NoClosedFormError:
        raise Unsettled(expr) from None


#: CPU seconds a rewrite for reading may take before the expression is kept as it is.
TIDY_SECONDS = 2.0


def _collect_exp(expr: sp.Expr) -> sp.Expr:
    groups: dict[sp.Expr, sp.Expr] = defaultdict(lambda: sp.S.Zero)
    for term in sp.Add.make_args(sp.powsimp(expr)):
        coeff, exponent = sp.S.One, sp.S.Zero
        for factor in sp.Mul.make_args(term):
            if isinstance(factor, sp.exp):
                exponent += factor.args[0]
            elif isinstance(factor, sp.Pow) and isinstance(factor.base, sp.exp):
                exponent += factor.base.args[0] * factor.exp
            else:
                coeff *= factor
        powers, exponent = split_logs(sp.expand(exponent))
        groups[_factored(exponent)] += coeff * powers
    # A coefficient that is a number is left as SymPy's sum keeps it: factoring it reads it as a polynomial over the
    # field of its radicals, and eleven terms like 2^{981/1000}·3^{23/1000}/6377292 (a pmf of integers at α =
    # 999/1000) did not factor in minutes.
    return sp.Add(*[(c if c.is_number else _factored(c)) * sp.exp(u) for u, c in groups.items() if c != 0])


#: The largest numerator of a fractional power :func:`_factored` hands to ``sympy.factor``.
FACTORED_POWER_CEILING = 64


def _factored(expr: sp.Expr) -> sp.Expr:
    """``sympy.factor(expr)``, or ``expr`` as it is when it holds a fractional power c^{p/q} with |p| above
    :data:`FACTORED_POWER_CEILING`: ``factor`` reads it as (c^{1/q})^p, a polynomial of degree |p| in a new
    generator, and a truncated geometric pmf's family against a negative binomial one at α = 1001/1000
    (c₀^{1001/1000}·c₁^{…} in five terms) spent the regrouping's whole budget in its gcds (2 s, stretched on a slow
    machine).  Only the form changes: the sum is the same either way.

    >>> c = sp.Symbol("c", positive=True)
    >>> _factored(c**2 + 2*c + 1), _factored(c**sp.Rational(1001, 1000) + c**sp.Rational(1, 1000))
    ((c + 1)**2, c**(1001/1000) + c**(1/1000))
    """
    if any(isinstance(e, sp.Rational) and not e.is_Integer and abs(e.p) > FACTORED_POWER_CEILING
           for e in (power.exp for power in expr.atoms(sp.Pow))):
        return expr
    return sp.factor(expr)


def erf_identities(expr: sp.Expr) -> sp.Expr:
    """``expr`` with erfc z written 1 − erf z when that cancels terms (erfc z + erfc(−z) = 2), else ``expr``.

    A Gaussian integrand split at a point that is not a kink of it (a law written with
    |x − 1|²) comes back as two half-line pieces, erfc(z)·c + erfc(−z)·c: one piece's worth.

    >>> import sympy as sp
    >>> z = sp.Symbol("z", positive=True)
    >>> erf_identities(sp.erfc(z)/2 + sp.erfc(-z)/2)
    1
    """
    if not expr.has(sp.erfc):
        return expr
    candidate = expr.replace(lambda e: isinstance(e, sp.erfc), lambda e: 1 - sp.erf(e.args[0]))
    candidate = sp.expand(candidate, deep=False) if not isinstance(candidate, sp.Add) else sp.Add(
        *[sp.expand(t) for t in sp.Add.make_args(candidate)])
    candidate = collect_exp(candidate) if candidate.has(sp.exp) else candidate
    atoms = len(expr.atoms(sp.erf, sp.erfc))
    if len(candidate.atoms(sp.erf, sp.erfc)) < atoms:
        return candidate
    return expr


def split_logs(exponent: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """exp(Σ c·log u + rest) = Π u^c · exp(rest): return (Π u^c, rest).

    >>> import sympy as sp
    >>> a, l = sp.symbols("alpha lambda", positive=True)
    >>> split_logs(a*sp.log(l) - a)
    (lambda**alpha, -alpha)
    """
    logs, rest = group_logs(exponent)
    return sp.Mul(*[g.args[0] ** c for g, c in logs.items()]), rest


def powers_from_logs(expr: sp.Expr) -> sp.Expr:
    """exp(Σ c·log u + r) written Π u^c·e^r: an identity (SymPy's u^c is e^{c·log u}), and how papers print it.

    >>> import sympy as sp
    >>> a, p = sp.symbols("alpha p", positive=True)
    >>> powers_from_logs(sp.log(sp.exp(a*sp.log(p) + (1 - a)*sp.log(1 - p)) + 1))
    log(p**alpha*(1 - p)**(1 - alpha) + 1)
    """
    def as_powers(e: sp.Expr) -> sp.Expr:
        powers, rest = split_logs(sp.expand(e.args[0]))
        return powers * sp.exp(rest)

    out = expr.replace(lambda e: isinstance(e, sp.exp) and e.args[0].has(sp.log), as_powers)
    if out == expr:
        return expr
    # p₂·p₂^{−α} as p₂^{1−α}: powers of one base combined (and nothing else).
    return out.replace(lambda e: isinstance(e, sp.log),
                       lambda e: sp.log(sp.powsimp(e.args[0], combine="exp", deep=True)))


def safe_log(expr: sp.Expr, positive) -> sp.Expr:
    """log(expr) split into a sum only across factors known to be positive.

    ``expand_log(force=True)`` would turn log((α−2)²) into 2·log(α−2), which is
    complex for α < 2; here a power's logarithm is split only when its base is
    positive (``positive(base)`` is True), so the result is always real.  Signs are
    paired first: −e^C/B with B known negative is e^C/(−B), whose factors are positive.
    A sum is put over a common denominator first, so log(α/λ₁ + (1 − α)/λ₂) splits
    into log(αλ₂ + (1 − α)λ₁) − log λ₁ − log λ₂.
    """
    if isinstance(expr, sp.exp):
        return expr.args[0]
    if expr.is_Rational and expr.is_positive and expr != 1:
        # log(3**9999 / 2**5000) as 9999·log 3 − 5000·log 2, not the log of a 4771-digit integer.
        return _log_rational(expr) if len(str(expr)) > _SHORT_RATIONAL else sp.log(expr)
    if isinstance(expr, sp.Mul):
        factors = _positive_factors(sp.Mul.make_args(expr), positive)
        if factors is not None:
            # A factor that is itself a product (a negated factor, −B, that SymPy writes −1·B) keeps its log
            # whole: splitting it again pairs the same signs off again, for ever.
            return sp.Add(*[sp.log(f) if isinstance(f, sp.Mul) else safe_log(f, positive) for f in factors])
        return sp.log(expr)
    if isinstance(expr, sp.Pow) and (expr.base.is_positive or positive(expr.base)):
        return expr.exp * safe_log(expr.base, positive)
    if isinstance(expr, sp.Add) and not expr.is_number:
        num, den = sp.fraction(sp.together(expr))
        shorter = len(sp.Add.make_args(sp.expand(num))) <= len(expr.args)
        if den != 1 and shorter and (den.is_positive or positive(den)) and (num.is_positive or positive(num)):
            return safe_log(num, positive) - safe_log(den, positive)
    return sp.log(expr)


#: A positive rational with at most this many characters keeps its logarithm whole: log(11/8).
_SHORT_RATIONAL = 40


def _positive_factors(factors, positive) -> list | None:
    """The factors with their signs paired off (−1 · (negative B)⁻¹ → (−B)⁻¹), or None if not all positive."""
    out, sign = [], 1
    for f in factors:
        if f.is_positive or positive(f):
            out.append(f)
        elif f.is_number and f.is_negative:
            sign, f = -sign, -f
            if f != 1:
                out.append(f)
        elif isinstance(f, sp.Pow) and f.exp.is_integer and positive(-f.base):
            out.append(sp.Pow(-f.base, f.exp))
            sign *= -1 if f.exp.is_odd else 1
            if f.exp.is_odd is None:
                return None
        elif positive(-f):
            out.append(-f)
            sign = -sign
        else:
            return None
    return out if sign == 1 else None


#: Primes divided out of a rational before taking its logarithm.
_SMALL_PRIMES = tuple(sp.primerange(2, 1000))


def _log_rational(r: sp.Rational) -> sp.Expr:
    """log r as Σ e·log p over the small primes p of r, plus the log of what is left.

    Trial division only: ``factorint`` would run a primality test on a
    12,000-digit cofactor, which takes minutes.
    """
    terms = []
    for part, sign in ((int(r.p), 1), (int(r.q), -1)):
        for prime in _SMALL_PRIMES:
            if part % prime:
                continue
            e = 0
            while part % prime == 0:
                part //= prime
                e += 1
            terms.append(sign * e * sp.log(prime))
        if part != 1:
            terms.append(sign * sp.log(part))
    return sp.Add(*terms)


def log_moment(moment: sp.Expr, positive=lambda e: False) -> sp.Expr:
    """``log(moment)``, expanded into a sum when the moment is a single product."""
    if moment == sp.oo:
        return sp.oo
    if isinstance(moment, sp.Add):
        return sp.log(moment)
    return expand_outside_logs(safe_log(moment, positive))


def expand_outside_logs(expr: sp.Expr) -> sp.Expr:
    """``expand`` that leaves the arguments of logarithms alone (log((a + b)^5) must not become 32 terms)."""
    logs = {g: sp.Dummy() for g in expr.atoms(sp.log)}
    # power_exp off: t₂^{1−α} stays one power (split, it is t₂/t₂^α and the form falls apart).
    if not logs:
        return sp.expand(expr, power_exp=False)
    return sp.expand(expr.xreplace(logs), power_exp=False).xreplace({d: g for g, d in logs.items()})


def divergence_from_moment(moment: sp.Expr, order: sp.Expr, positive=lambda e: False) -> sp.Expr:
    """``log(moment)/(order − 1)`` in its simplest cheap form.

    >>> import sympy as sp
    >>> a, s = sp.symbols("alpha sigma", positive=True)
    >>> divergence_from_moment(sp.exp(a*(a - 1)/(2*s**2)), a)
    alpha/(2*sigma**2)
    """
    L = log_moment(moment, positive)
    if L == sp.oo:
        return sp.oo
    if isinstance(L, sp.log):
        return L / (order - 1)
    return _cancel_logs(L / (order - 1), order)


def group_logs(expr: sp.Expr) -> tuple[dict[sp.Expr, sp.Expr], sp.Expr]:
    """An expanded sum as ({log u: coefficient}, the terms without a single log factor).

    >>> import sympy as sp
    >>> p = sp.Symbol("p", positive=True)
    >>> group_logs(2*p*sp.log(p) - sp.log(p) + 3)
    ({log(p): 2*p - 1}, 3)
    """
    logs: dict[sp.Expr, sp.Expr] = defaultdict(lambda: sp.S.Zero)
    rest = sp.S.Zero
    for term in sp.Add.make_args(expr):
        lg = [f for f in sp.Mul.make_args(term) if isinstance(f, sp.log)]
        if len(lg) == 1:
            logs[lg[0]] += term / lg[0]
        else:
            rest += term
    return dict(logs), rest


def tidy_kl(expr: sp.Expr) -> sp.Expr:
    """Group log terms; pair c·log u − c·log v into c·log(u/v), as papers print the KL.

    >>> import sympy as sp
    >>> p = sp.Symbol("p", positive=True)
    >>> tidy_kl(p*sp.log(p) - p*sp.log(1 - p) + (1 - p)*sp.log(1 - p) - (1 - p)*sp.log(p))
    (2*p - 1)*log(p/(1 - p))
    """
    # ₚF_q(a; b; 0) = 1, the series' first term (a b at 0, −1, … is a pole, kept): the α-derivative of a ₁F₁ in α
    # at α = 1 leaves such a term, which SymPy does not evaluate (an Epanechnikov law against a Gaussian).
    expr = sp.sympify(expr, strict=True).replace(
        lambda e: isinstance(e, sp.hyper) and e.argument.is_zero and not any(b.is_integer and b.is_nonpositive
                                                                             for b in e.bq), lambda e: sp.S.One)
    logs, rest = group_logs(sp.expand(expand_logs(sp.expand(expr))))
    coeffs = {g: sp.factor(c) for g, c in logs.items() if c != 0}
    factored = sp.factor(rest)
    out, used = (factored if sp.count_ops(factored) < sp.count_ops(rest) else rest), set()
    for g, c in coeffs.items():
        if g in used:
            continue
        partner = next((h for h, d in coeffs.items() if h not in used and h != g and sp.expand(c + d) == 0), None)
        if partner is not None:
            used |= {g, partner}
            if sp.Poly(sp.expand(c)).LC().is_negative if c.free_symbols else c.is_negative:
                c, g, partner = -c, partner, g
            out += c * sp.log(sp.logcombine(g.args[0] / partner.args[0], force=True))
        else:
            used.add(g)
            out += c * g
    return out


def _factored_in_time(expr: sp.Expr) -> sp.Expr:
    """:func:`_factored`, or ``expr`` as it is where SymPy's factoring takes longer than :data:`TIDY_SECONDS`: two
    Poisson laws of symbolic rates at α = 1000 have λ₁^1000·λ₂^(−999) in the numerator, whose Zassenhaus factoring ran
    for minutes (a probe)."""
    try:
        return budgeted(lambda: _factored(expr), "factoring the result", seconds=TIDY_SECONDS)
    except NoClosedFormError:
        return expr


def _cancel_logs(expr: sp.Expr, order: sp.Expr | None = None) -> sp.Expr:
    """Cancel the rational part; keep log terms grouped by their argument.

    The non-log part is written either cancelled (α(α−1)/(2σ²)/(α−1) → α/(2σ²))
    or as numerator/(α − 1) (Poisson: (λ₁^α λ₂^{1−α} − αλ₁ − (1−α)λ₂)/(α−1)),
    whichever is shorter.
    """
    logs, rest = group_logs(expand_outside_logs(expr))
    out = _factored_in_time(sp.cancel(sp.together(rest)))
    if order is not None and order.free_symbols:
        numerator = sp.collect(sp.expand(sp.Add(*[_times(t, order - 1) for t in sp.Add.make_args(rest)]),
                                         power_exp=False), order)
        if not sp.fraction(sp.together(numerator))[1].has(order):
            over = sp.Mul(numerator, sp.Pow(order - 1, -1), evaluate=False)
            if sp.count_ops(over) < sp.count_ops(out):
                out = over
    logs = {g: _factored_in_time(sp.cancel(sp.together(c))) for g, c in logs.items()}
    logs = {g: c for g, c in logs.items() if c != 0}
    grouped = _split_by_order(logs, order) if isinstance(order, sp.Symbol) and len(logs) >= 2 else None
    if grouped is not None and sp.count_ops(grouped) < sp.count_ops(sp.Add(*[c * g for g, c in logs.items()])):
        return out + grouped
    for g, c in logs.items():
        out += c * g
    return out


def _split_by_order(logs: dict, order: sp.Symbol) -> sp.Expr | None:
    """Σ c(α)·log u with c(α) = q + r/(α − 1) as log Π u^q + log(Π u^r)/(α − 1), the literature's layout.

    Rayleigh: 2α/(α−1)·log s₂ − 2 log s₁ − log(αs₂² + (1−α)s₁²)/(α−1) becomes
    2 log(s₂/s₁) + log(s₂²/(αs₂² + (1−α)s₁²))/(α−1).  The arguments are positive
    (they come from :func:`safe_log`), so combining the logarithms is exact.
    None when a coefficient is not of that shape.
    """
    whole, over = sp.S.Zero, sp.S.Zero
    for g, c in logs.items():
        numerator = sp.expand(sp.cancel(c * (order - 1)))
        if not numerator.is_polynomial(order) or sp.degree(numerator, order) > 1 or \
                sp.fraction(sp.together(numerator))[1].has(order):
            return None
        a, b = numerator.coeff(order, 1), numerator.coeff(order, 0)
        whole += a * g
        over += (a + b) * g
    combined = sp.logcombine(whole, force=True)
    inner = sp.logcombine(over, force=True)
    return combined + inner / (order - 1)


def _times(term: sp.Expr, factor: sp.Expr) -> sp.Expr:
    """term·factor, dropping a factor⁻¹ of the term instead of expanding (α − 1)·t/(α − 1)."""
    args = list(sp.Mul.make_args(term))
    inverse = sp.Pow(factor, -1)
    if inverse in args:
        args.remove(inverse)
        return sp.Mul(*args)
    return term * factor


def max_of(values: list[sp.Expr]) -> sp.Expr:
    """``Max`` of values, with ``Max(u, −u)`` written as ``Abs(u)``."""
    if any(v.has(sp.Piecewise) for v in values):
        return values[0] if len(values) == 1 else sp.Max(*values)
    values = [sp.expand(expand_logs(v)) for v in values]
    unique: list[sp.Expr] = []
    for v in values:
        if not any(sp.expand(v - u) == 0 for u in unique):
            unique.append(v)
    if len(unique) == 1:
        return sp.logcombine(unique[0], force=True)
    if len(unique) == 2 and sp.expand(unique[0] + unique[1]) == 0:
        u = unique[0]
        return sp.Abs(sp.logcombine(u, force=True))
    return sp.Max(*[sp.logcombine(v, force=True) for v in unique])
