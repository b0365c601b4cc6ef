"""Exact numbers too large to build, refused in rdpsym's symbolic work and time budgets.

A time budget (:mod:`rdpsym.foundations.budget`) interrupts Python between two bytecodes, so it cannot stop
one call into C that runs for hours, and SymPy evaluates ``2**(10**30)``, ``factorial(10**30)`` and
``binomial(10**30, 10**15)`` exactly, each as one such call, as soon as they appear.  They appear where
nobody wrote them: ``sympy.summation``'s telescoping rule, matching Σ_k binomial(k, k − 1)/2^k + ...,
substituted k = 10³⁰ (a fuzzed pmf with a Poisson component of rate 10⁻³⁰), and the density's check
neither returned nor gave back its 9 GB.

While the thread runs rdpsym's symbolic work (a :class:`~rdpsym.foundations.precision.sympy_evalf_guard`
block: derivations, density checks) or a budget, such a power, factorial or binomial coefficient raises
:class:`~rdpsym.foundations.errors.NoClosedFormError` once its exact value would have more than
:data:`MAX_BUILT_DIGITS` digits: the SymPy call that reached for it gives up at once, as when its budget is
spent, and its caller goes on to its numeric route.  (Leaving the number unevaluated instead does not work:
SymPy's products expect a power of two numbers to be a number, and recurse without end on ``3·2^(10³⁰)``.)
Outside them, SymPy is left exactly as it is: rdpsym changes nothing for a user's own SymPy code.  (A
discrete Laplace law shifted to 10³⁰ and reflected built (1/2)^(10³⁰)-sized numbers in ``factor_terms``
while its density was checked, outside any budget: 6 GB before it was stopped.)

>>> import sympy as sp
>>> from rdpsym.foundations.budget import time_budget
>>> with time_budget(5):
...     sp.Integer(2) ** (10**30)
Traceback (most recent call last):
...
rdpsym.foundations.errors.NoClosedFormError: 2**1.00000e+30 has about 3e+29 digits, more than 100000: not built
>>> sp.Integer(2) ** 10
1024
>>> with time_budget(5):  # SymPy would factor (its part above 2¹⁵)^999 to simplify it
...     sp.Integer(4803465209301) ** sp.Rational(1001, 1000)
Traceback (most recent call last):
...
rdpsym.foundations.errors.NoClosedFormError: 4803465209301**(1001/1000) would be simplified through numbers of
about 1e+04 digits, more than 2000: not built

Polynomials are the same story in another form: SymPy stores them dense, so a polynomial of degree 10³⁰
is a list of 10³⁰ coefficients.  One appears where a substitution t = e^{x/10³⁰} meets e^{−2x} (it becomes
t^(−2·10³⁰)) and SymPy's sign test of the result calls ``real_roots``: 9 GB in seconds (fuzz seed 14, case
74).  In the same blocks, a :class:`sympy.Poly` of degree above :data:`MAX_DENSE_DEGREE` is refused the
same way.
"""

from __future__ import annotations

import math

import sympy as sp
from mpmath.libmp import from_int, mpf_exp
from sympy.core import evalf as evalf_module
from sympy.core import exprtools
from sympy.core.numbers import Integer, Rational
from sympy.functions.combinatorial.factorials import binomial, factorial
from sympy.polys.rings import PolyElement

# (sympy_shared_state makes SymPy's shared caches whole -- its real roots, small factorials, sieve, lambdify's mpmath
# namespace, Meijer G table -- which a timeout or a second thread could leave wrong: on import, with the guards
# below, wherever rdpsym's symbolic work can run)
from rdpsym.foundations import sympy_shared_state  # noqa: F401
from rdpsym.foundations.arithmetic import MAX_DERIVED_POWER_DIGITS
from rdpsym.foundations.budget import budgeted, in_budget
from rdpsym.foundations.errors import NoClosedFormError
from rdpsym.foundations.precision import in_symbolic_work

#: The most digits an exact power, factorial or binomial coefficient is built with inside a budget (the
#: bound rdpsym's own derivations keep to: :data:`~rdpsym.foundations.arithmetic.MAX_DERIVED_POWER_DIGITS`).
MAX_BUILT_DIGITS = MAX_DERIVED_POWER_DIGITS
#: The largest degree of a SymPy polynomial built in the same blocks (its dense list has degree + 1 entries).
MAX_DENSE_DEGREE = 100_000
#: The largest degree of a polynomial whose real roots SymPy is let isolate in the same blocks (degree 500: ~2 s).
MAX_ROOT_DEGREE = 500
#: A rational power n^(p/q) is refused the same way when SymPy's simplification of it (extracting perfect powers)
#: may build a number of more digits than this: it raises the part of n it could not factor to a power up to
#: q − 1 and factors that again, and a primality test on a number of thousands of digits is one C call no budget
#: interrupts ((3⁴·11²·490099501)^(1001/1000), from a truncated geometric law at α = 1001/1000: 30 s).
MAX_ROOT_DIGITS = 2000
# (Below 2³⁰ SymPy's trial division up to 2¹⁵ factors a number whole: nothing is left to raise to a power.)
_FACTORED_WHOLE = 2**30

def _power_digits(base: Rational, exponent: Integer) -> float:
    """About how many digits base**exponent has (base a Rational other than 0 and ±1, exponent an Integer); ∞ for an
    exponent beyond a float's range (3^(2⁴⁰⁹⁶ − 1), a pmf read exactly at the sum's last scanned outcome).

    >>> _power_digits(Rational(1, 3), Integer(2) ** 4096 - 1), round(_power_digits(Integer(10), Integer(-5)))
    (inf, 5)
    """
    n = abs(int(exponent.p))
    if n.bit_length() > 1000:
        return math.inf
    return n * max(math.log10(abs(int(base.p))), math.log10(int(base.q)))


def _radical_digits(base: Rational, expt: Rational) -> float:
    """The digits of the radicand SymPy builds for n^(p/q), n a factor of ``base`` below 2³⁰ (factored whole): the
    primes k^e of n raised to (e·p mod q) before the q-th root is taken.  (999999/10⁶)^(99999999/10⁸), a condition
    of a geometric pair at α = 1 − 10⁻⁸, built 3^99999997·7^99999999·… from 999999 = 3³·7·11·13·37 (no answer in
    minutes; a probe), where 2^(1/10⁸) builds 2 alone.  A perfect power, which SymPy reads through its root, is
    counted as its factors: an overestimate, the safe side.

    >>> _radical_digits(Rational(999999, 10**6), Rational(99999999, 10**8)) > 10**7
    True
    >>> [round(_radical_digits(b, e), 2) for b, e in [(Integer(2), Rational(1, 10**8)), (Integer(2), Rational(-1000001,
    ...  10**6)), (Integer(12), Rational(3 * 10**30 - 1, 10**30)), (Rational(1, 6), Rational(7, 10**6))]]
    [0.3, 0.3, 0.48, 0.78]
    >>> _radical_digits(Rational(24, 25), 1 - Rational(1, 10**400))
    inf
    """
    digits, q = 0.0, int(expt.q)
    for n, p in ((abs(int(base.p)), int(expt.p)), (int(base.q), -int(expt.p))):  # (SymPy: p^e · q^(−e))
        # SymPy's Integer._eval_power: a prime whose leftover power shares a factor with q becomes a root of its own
        # (2^(2·(3·10³⁰ − 1)) in 12^(3 − 10⁻³⁰) is 2^5·2^(…/…)); the others are multiplied into one radicand, raised
        # to their leftover powers over the gcd of those powers
        left = {k: (e * p) % q for k, e in sp.factorint(n).items()}
        joined = {k: v for k, v in left.items() if v and math.gcd(v, q) == 1}
        shared = math.gcd(*joined.values()) if joined else 1
        for k, v in joined.items():
            power = v // shared
            if power.bit_length() > 1000:  # (beyond a float: 24^(1 − 10⁻⁴⁰⁰) joins 2 and 3 at powers of 10⁴⁰⁰)
                return math.inf
            digits += power * math.log10(k)
    return digits


def exact_at(expr: sp.Expr, var: sp.Symbol, point: sp.Expr, seconds: float = 1.0) -> sp.Expr | None:
    """``expr`` at ``var`` = ``point`` as SymPy's exact value, within a time budget (so under this module's size
    guards); None where it is refused, or not exact (it holds a Float: xreplace then evaluates to 15 digits, whose
    rounding could read +10⁻¹⁷ for 0).

    >>> k = sp.Symbol("k", integer=True)
    >>> exact_at((1 + (-1) ** k) / 2 * sp.Rational(8, 9) / 3**k, k, sp.Integer(1)), exact_at(k / 2, k, sp.Float(0.5))
    (0, None)
    """
    try:
        value = budgeted(lambda: expr.xreplace({var: point}), "an expression at a point", seconds=seconds)
    except NoClosedFormError:
        return None
    return None if value.has(sp.Float) else value


def _active() -> bool:
    return in_budget() or in_symbolic_work()


def _refuse(what: str, digits: float) -> None:
    raise NoClosedFormError(f"{what} has about {digits:.0e} digits, more than {MAX_BUILT_DIGITS}: not built")


def _log10_factorial(n: int) -> float:
    return math.lgamma(n + 1) / math.log(10)


def _guard_power(cls) -> None:
    evaluate = cls._eval_power

    def _eval_power(self, expt):
        if (isinstance(expt, Integer) and abs(expt.p) > 1 and self not in (sp.S.Zero, sp.S.One, sp.S.NegativeOne)
                and _active()):
            digits = _power_digits(self, expt)
            if digits > MAX_BUILT_DIGITS:
                _refuse(f"{self}**{expt}", digits)
        elif (isinstance(expt, Rational) and 1 < expt.q < abs(expt.p)
                and self not in (sp.S.Zero, sp.S.One, sp.S.NegativeOne) and _active()):
            # SymPy takes the whole part of n^(p/q) out of the root: 2^(5·10⁹) for 4^(10¹⁰/4), one C call no budget
            # stops (two Gaussians of variances 1 and 4 at α = 10¹⁰: no answer in 100 s; a probe)
            digits = _power_digits(self, Integer(abs(expt.p) // expt.q))
            if digits > MAX_BUILT_DIGITS:
                _refuse(f"{self}**({expt})", digits)
        if (isinstance(expt, Rational) and expt.q > 1 and self not in (sp.S.Zero, sp.S.One, sp.S.NegativeOne)
                and _active()):
            digits = _power_digits(self, Integer(expt.q - 1))
            if digits > MAX_ROOT_DIGITS and max(abs(int(self.p)), int(self.q)) <= _FACTORED_WHOLE:
                digits = _radical_digits(self, expt)  # (factored whole: what SymPy will build)
            if digits > MAX_ROOT_DIGITS:
                raise NoClosedFormError(f"{self}**({expt}) would be simplified through numbers of about "
                                        f"{digits:.0e} digits, more than {MAX_ROOT_DIGITS}: not built")
        return evaluate(self, expt)

    _eval_power.__doc__ = evaluate.__doc__
    cls._eval_power = _eval_power


def _guard_factorial() -> None:
    evaluate = factorial.eval.__func__

    def eval(cls, n):  # noqa: A001 - SymPy's name for a Function's evaluation hook
        if isinstance(n, Integer) and n > 0 and _active() and _log10_factorial(int(n)) > MAX_BUILT_DIGITS:
            _refuse(f"factorial({n})", _log10_factorial(int(n)))
        return evaluate(cls, n)

    factorial.eval = classmethod(eval)


def _guard_binomial() -> None:
    evaluate = binomial.eval.__func__

    def eval(cls, n, k):  # noqa: A001
        if isinstance(n, Integer) and isinstance(k, Integer) and 0 < k < n and _active():
            m = min(int(k), int(n - k))
            # C(n, m) ≥ (n/m)^m: a lower bound on its digits (lgamma's difference would lose them at n = 10³⁰)
            if m > 1 and m * math.log10(int(n) / m) > MAX_BUILT_DIGITS:
                _refuse(f"binomial({n}, {k})", m * math.log10(int(n) / m))
        return evaluate(cls, n, k)

    binomial.eval = classmethod(eval)


def _guard_polynomials() -> None:
    build = sp.Poly._from_dict.__func__

    def _from_dict(cls, rep, opt):
        if _active() and rep:
            # keys are exponent tuples, or plain ints for one generator (Poly.from_dict({2: 1}, x))
            degree = max((m if isinstance(m, int) else max(m, default=0) for m in rep), default=0)
            if degree > MAX_DENSE_DEGREE:
                raise NoClosedFormError(f"a polynomial of degree {_shown(degree)}, more than {MAX_DENSE_DEGREE}: "
                                        "not built")
        return build(cls, rep, opt)

    sp.Poly._from_dict = classmethod(_from_dict)


def _shown(n: int) -> str:
    """An integer's size for a message, whatever its size (``f"{n:.0e}"`` converts to a float: an OverflowError, not
    the message, for a degree of 10³⁰⁰, a skew normal's far component; a probe).

    >>> _shown(3 * 10**20), _shown(10**400)
    ('3e+20', 'about 1e+400')
    """
    return f"{n:.0e}" if n < 10**300 else f"about 1e+{int(n.bit_length() * math.log10(2))}"


def _guard_ring_evaluation() -> None:
    """A sparse polynomial evaluated at a number, f(a) in one generator, refused in the same blocks when a^n (n its
    degree in that generator) would have more than :data:`MAX_BUILT_DIGITS` digits.

    SymPy's heuristic gcd (``cancel``, met in ``manualintegrate``'s parts rule) evaluates a polynomial at a point
    above its coefficients' size, then the result's coefficients at a point above theirs, one generator after
    another.  Two exponentials of x² with scales 1 and 1000 are generators whose powers reach 10⁶: a normal law
    against a mixture with a component 1000 times wider built numbers of 10¹² bits there, and GMP aborted the
    whole process ("overflow in mpz type"), no exception to catch."""
    evaluate = PolyElement.evaluate

    def guarded(f, x, a=None):
        if _active() and a is not None and not isinstance(x, list):
            size = _magnitude(a)
            if size is not None and size > 1:
                i = f.ring.index(x)
                n = max((monom[i] for monom in f.itermonoms()), default=0)
                digits = n * math.log10(size)
                if digits > MAX_BUILT_DIGITS:
                    raise NoClosedFormError(f"a polynomial of degree {n} evaluated at a number of about "
                                            f"{math.log10(size):.0f} digits has about {digits:.0e} digits, more than "
                                            f"{MAX_BUILT_DIGITS}: not built")
        return evaluate(f, x, a)

    PolyElement.evaluate = guarded


def _guard_real_roots() -> None:
    """The real roots of a polynomial of degree above :data:`MAX_ROOT_DEGREE` refused in the same blocks.

    SymPy isolates them in pure Python, in time growing about as the degree squared and more (degree 400: 1.4 s;
    10⁴: about half an hour), and asks for them where nobody wrote a polynomial: an assumption query's sign test
    (``_monotonic_sign``, met in ``powdenest``) of a polynomial in t = e^{x²/c}.  A normal law against a mixture with
    a component 100 times wider has one of degree 10⁴ there, inside a rule of the engine that has no budget, and
    the derivation never returned."""
    real_roots = sp.Poly.real_roots

    def guarded(f, *args, **kwargs):
        if _active() and f.degree() > MAX_ROOT_DEGREE:
            raise NoClosedFormError(f"the real roots of a polynomial of degree {f.degree()}, more than "
                                    f"{MAX_ROOT_DEGREE}: not isolated")
        return real_roots(f, *args, **kwargs)

    sp.Poly.real_roots = guarded


def _guard_sign_test() -> None:
    """SymPy's sign test of an expression in one symbol (``_monotonic_sign``, behind ``is_positive`` and the like)
    answers "unknown" in the same blocks where the expression holds a power of that symbol above
    :data:`MAX_ROOT_DEGREE`, instead of finding the roots of its derivative: by ``real_roots``, or by ``roots``, which
    for t^(10⁴) − c builds all 10⁴ complex roots.  "Unknown" (None) is an answer its callers take; the work is not."""
    sign = exprtools._monotonic_sign

    def guarded(e):
        if _active() and isinstance(e, sp.Expr) and _holds_a_high_power(e):
            return None
        return sign(e)

    exprtools._monotonic_sign = guarded


#: The most bits of an integer whose primality SymPy is let test in the same blocks (a strong probable-prime test is
#: modular powers of that size: 0.5 s at 2 000 digits, 8 s at 5 000, a minute at 10 000, each one C call; a Binomial
#: table's derivation asks it of a 7 000-digit integer, and is left to).
MAX_PRIME_TEST_BITS = 30_000


def _guard_primality() -> None:
    """An integer of more than :data:`MAX_PRIME_TEST_BITS` bits is not tested for primality in the same blocks: the
    question raises :class:`~rdpsym.foundations.errors.NoClosedFormError`, as when a budget is spent.

    ``powsimp`` asks whether the bases it combines are composite: the numerator of (1 + 10⁻³⁰)^2000, 60 000 digits,
    from two Gaussian laws of standard deviations 1 and 1 + 10⁻³⁰ at α = 1000, was one modular power after another
    for minutes, where the budget around it could not land (a probe).  ("Unknown" is no answer here: SymPy then asks
    whether it is composite, which asks whether it is prime.)"""
    test = Integer._eval_is_prime

    def _eval_is_prime(self):
        if _active() and abs(int(self.p)).bit_length() > MAX_PRIME_TEST_BITS:
            raise NoClosedFormError(f"the primality of an integer of {abs(int(self.p)).bit_length()} bits, more than "
                                    f"{MAX_PRIME_TEST_BITS}: not tested")
        return test(self)

    Integer._eval_is_prime = _eval_is_prime
    for cls in (Integer, *_subclasses(Integer)):  # (SymPy's assumptions call the handlers each class collected)
        if cls._prop_handler.get("prime") is test:
            cls._prop_handler["prime"] = _eval_is_prime


def _subclasses(cls) -> list:
    """Every subclass of ``cls`` (One, Zero, ...: each keeps its own table of assumption handlers)."""
    return [c for sub in cls.__subclasses__() for c in (sub, *_subclasses(sub))]


def _guard_common_radicals() -> None:
    """``Add.as_content_primitive(radical=True)`` (``factor_terms``, behind ``cancel`` and ``simplify``) looks for a
    radical common to a sum's terms by raising each integer base b of b^(p/q) to p in Python's integers, outside
    :class:`~sympy.core.numbers.Integer`'s own power and its guard.  In the same blocks, a sum holding such a power
    that would have more than :data:`MAX_BUILT_DIGITS` digits is searched without radicals: 2^(1 + 10⁻³⁰), from a
    table of two outcomes at α = 1 + 10⁻³⁰, was 2^(10³⁰ + 1) built in one C call (a derivation's polish never
    returned; a probe)."""
    primitive = sp.Add.as_content_primitive

    def as_content_primitive(self, radical=False, clear=True):
        if radical and _active() and any(
                isinstance(f, sp.Pow) and f.base.is_Integer and f.exp.is_Rational and abs(f.exp.p) > 1
                and f.base not in (sp.S.Zero, sp.S.One, sp.S.NegativeOne)
                and _power_digits(f.base, Integer(f.exp.p)) > MAX_BUILT_DIGITS
                for term in self.args for f in sp.Mul.make_args(term)):
            radical = False
        return primitive(self, radical=radical, clear=clear)

    as_content_primitive.__doc__ = primitive.__doc__
    sp.Add.as_content_primitive = as_content_primitive


#: The most bits of an integer n whose e^n SymPy's numeric evaluation is let compute its own way in the same blocks
#: (see :func:`_guard_exp_of_an_integer`).
MAX_SQUARED_EXPONENT_BITS = 64


def _guard_exp_of_an_integer() -> None:
    """e^n for an integer n of more than :data:`MAX_SQUARED_EXPONENT_BITS` bits, evaluated numerically in the same
    blocks by mpmath's exponential (argument reduction: one exp at about as many more bits as n has) instead of SymPy's
    way, e raised to the power n by repeated squaring at a precision that grows with n's bits: both give e^n to the
    precision asked.

    SymPy evaluates e^n so wherever it asks a sign: ``log(a + b·e^(−5·10³⁹⁹⁹))``, built while a log-density was
    written about a far centre (:func:`rdpsym.quadrature.log_expressions.shifted_expression`), asked its argument's
    sign and took 1.03 s of CPU for e^(−5·10³⁹⁹⁹) at 53 bits, where mpmath's exp takes 2 ms: the recentring's whole
    budget, spent again at every precision and centre (11 % of the numeric-adversarial tests' time; a profile)."""
    if not evalf_module.evalf_table:
        evalf_module._create_evalf_table()  # (SymPy fills it at its first evalf: in place here, then amended)
    evaluate = evalf_module.evalf_table[sp.exp]

    def evalf_exp(expr, prec, options):
        n = expr.args[0]
        if isinstance(n, Integer) and abs(int(n.p)).bit_length() > MAX_SQUARED_EXPONENT_BITS and _active():
            return mpf_exp(from_int(int(n.p)), prec), None, prec, None
        return evaluate(expr, prec, options)

    evalf_module.evalf_table[sp.exp] = evalf_exp


def _holds_a_high_power(e: sp.Expr) -> bool:
    """Whether ``e``, in one free symbol, holds (something in that symbol)^n with |n| > MAX_ROOT_DEGREE anywhere.
    (Anywhere: refused below the top, real_roots' own guard is a NotImplementedError to ``_monotonic_sign``, which then
    asks ``roots`` for all the roots: a reviewer's t·(t^N/(N + 1) − 3).)

    >>> t = sp.Symbol("t", positive=True)
    >>> _holds_a_high_power(t**10000 - 3 * t), _holds_a_high_power(t * (t**600 / 601 - 3))
    (True, True)
    >>> _holds_a_high_power(t**3 + 1)
    False
    """
    free = e.free_symbols
    if len(free) != 1:
        return False
    (x,) = free
    return any(p.exp.is_Integer and abs(int(p.exp)) > MAX_ROOT_DEGREE and p.base.has(x) for p in e.atoms(sp.Pow))


def _magnitude(a) -> int | None:
    """The larger of |numerator| and denominator of an integer or rational ``a`` (Python's, gmpy2's or SymPy's
    ground types), or None for any other kind of value (an element of a ring of polynomials)."""
    try:
        return max(abs(int(a.numerator)), abs(int(a.denominator)))
    except (AttributeError, TypeError, ValueError):
        return None


_guard_power(Integer)
_guard_power(Rational)
_guard_factorial()
_guard_binomial()
_guard_polynomials()
_guard_ring_evaluation()
_guard_real_roots()
_guard_sign_test()
_guard_primality()
_guard_common_radicals()
_guard_exp_of_an_integer()
