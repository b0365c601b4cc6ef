"""The one error hierarchy of rdpsym.

Every error is a subclass of :class:`RdpSymError` *and* of the builtin it
refines, so ``except ValueError`` keeps working for callers who do not know
rdpsym.  Messages follow one form: ``"<name> must be <range>; got <value>."``
"""

from __future__ import annotations


class RdpSymError(Exception):
    """Base class of every error rdpsym raises on purpose."""


class ParameterError(RdpSymError, ValueError):
    """A mechanism or density parameter is outside its valid range."""


class DomainError(RdpSymError, ValueError):
    """An order (or another argument) is outside the domain of the quantity."""


class DensityError(RdpSymError, ValueError):
    """A pdf or pmf is negative somewhere, does not normalise, or is malformed."""


class NoClosedFormError(RdpSymError, NotImplementedError):
    """No closed form was found; callers may fall back to the definition."""


class ConvergenceError(RdpSymError, ArithmeticError):
    """A numeric value did not settle: two precisions disagree."""


class VerificationError(RdpSymError, AssertionError):
    """A closed form disagrees with the definition: never returned as a result."""


class SymbolicTimeout(RdpSymError, TimeoutError):
    """A symbolic step exceeded its time budget."""


class NoLatexForm(RdpSymError, ValueError):
    """A character that rdpsym cannot write as LaTeX (pdflatex would stop on it)."""


class InfiniteValue(RdpSymError, ArithmeticError):
    """An expression evaluated in balls is +∞ at this point (a divergent order, a D_∞ = ∞)."""


class Undecided(RdpSymError, ArithmeticError):
    """A sign (a Piecewise condition, a log's argument) the balls at this precision cannot decide."""


class OutsideDomain(Undecided):
    """A real function certified to be applied outside its domain (log of a negative number)."""


class ArithmeticSyntaxError(RdpSymError, ValueError):
    """Text that is not plain arithmetic in rdpsym's grammar (:mod:`rdpsym.foundations.arithmetic`)."""


class ClaimError(RdpSymError, ValueError):
    """A malformed claim or claim file."""


class LatexError(RdpSymError, RuntimeError):
    """pdflatex is missing or the document did not compile (the message quotes the log)."""


class LatexLayoutWarning(UserWarning):
    """A compiled document has lines that run past the right margin (TeX's overfull boxes)."""


def must(name: str, valid: str, got: object) -> str:
    """The standard message: ``"sigma must be positive (sigma > 0); got -1."``."""
    return f"{name} must be {valid}; got {got}."
