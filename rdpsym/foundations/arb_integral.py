"""Arb's certified integral, with the integrand's exceptions carried across Arb's C code.

python-flint 0.9's ``acb.integral`` calls the integrand from C and does not stop when it raises: it calls it
again with the exception still set, and raises ``SystemError`` ("returned a result with an exception set") once
the integration ends.  A time budget that expired inside an integrand came out as that SystemError, which the
certified routes read as "this route does not apply", and the work went on past its deadline (probes: a 0.2 s
budget around an Arb integral at 2 000 bits came out as SystemError at 0.42 s of CPU, and the watchdog raised it
again 0.1 s later, into whatever ran then; an integrand that raised at its fifth call was called four more times
with the exception pending).

:func:`acb_integral` keeps the first exception the integrand raises, answers NaN for it and for every later
call (Arb then refines nothing), and raises that exception once Arb has returned.  A timeout never lands at the
callback's first instruction, before its ``try`` can catch it, nor in this module's call into Arb
(:func:`~rdpsym.foundations.budget_protected.c_boundary`): it lands in the integrand, and comes out here.  A
signal's exception (a Ctrl-C) does not wait, and may reach C code all the same: what C code made a ``SystemError``
of comes out as the exception it was (:func:`_pending`).

>>> from flint import arb
>>> acb_integral(lambda z, analytic: z.exp(), 0, 1).real.overlaps(arb(1).exp() - 1)
True
>>> def integrand(z, analytic):
...     raise KeyError("the integrand's own error")
>>> acb_integral(integrand, 0, 1)
Traceback (most recent call last):
...
KeyError: "the integrand's own error"
"""

from __future__ import annotations

from collections.abc import Callable

from flint import acb, arb

from rdpsym.foundations.budget_protected import c_boundary

_NAN = acb(arb("nan"))


class _Carried:
    """The integrand as Arb calls it: its first exception kept (:attr:`raised`), NaN for that call and every
    later one."""

    __slots__ = ("integrand", "raised")

    def __init__(self, integrand: Callable):
        self.integrand, self.raised = integrand, None

    @c_boundary
    def __call__(self, z: acb, analytic: bool):
        if self.raised is not None:
            return _NAN
        try:
            return self.integrand(z, analytic)
        except BaseException as error:  # noqa: BLE001 - carried across Arb's C code, raised again after it
            self.raised = _pending(error)
            return _NAN


@c_boundary
def _integrate(carried: _Carried, a, b, options: dict) -> acb:
    return acb.integral(carried, a, b, **options)


def _pending(error: BaseException) -> BaseException:
    """The exception that was pending where C code said ``SystemError: ... returned a result with an exception set``
    (CPython chains it as the cause), else ``error``.  A signal's exception -- a Ctrl-C, raised by its handler -- can
    land inside python-flint's own functions, or at the callback's first line, where rdpsym's budgets wait but a
    signal does not: 162 of 300 interrupted integrals came out as that SystemError (a review), which the certified
    routes read as "this route does not apply" and the interrupt was lost."""
    while isinstance(error, SystemError) and error.__cause__ is not None and "with an exception set" in str(error):
        error = error.__cause__
    return error


def acb_integral(integrand: Callable, a, b, **options) -> acb:
    """``acb.integral(integrand, a, b, **options)``, raising what the integrand raised (see the module's docstring).

    ``integrand(z, analytic)`` is called on complex balls as by python-flint; ``options`` are Arb's
    (``eval_limit``, ``depth_limit``, ...).
    """
    carried = _Carried(integrand)
    try:
        result = _integrate(carried, a, b, options)
    except SystemError as error:  # an exception that reached Arb's C code all the same (a signal's; see _pending)
        raise (carried.raised if carried.raised is not None else _pending(error)) from None
    if carried.raised is not None:
        raise carried.raised
    return result


__all__ = ["acb_integral"]
