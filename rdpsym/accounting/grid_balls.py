"""A curve's certified balls on a grid of orders; on the default grid, the orders that cannot be had are left out.

A grid the user names is evaluated whole: an order that cannot be certified is an error, since it was asked for.
The default grid (dp_accounting's orders and ∞, :data:`~rdpsym.accounting.orders.DEFAULT`) is rdpsym's choice, and
its orders only compete for the least ε or δ: one that cannot be had there (the sampled Gaussian's fractional orders
at σ = 10⁻³, q = 10⁻⁹, whose certified quadrature would need 2·10⁷ points; a D_∞ without a limit) stands as ∞ with
the reason (:class:`Unavailable`), and the least over the other orders is still a certified bound.  The result says
so in a note (:func:`unavailable_note`), never silently; only where no order of the grid can be had is the first
order's error raised.  Before, such a curve made ``epsilon`` and an Opacus accountant's ``get_epsilon`` raise on its
default grid, where its integer orders are exact sums (a probe).
"""

from __future__ import annotations

from dataclasses import dataclass

from rdpsym.accounting.components import Infinite
from rdpsym.accounting.curve import RdpCurve
from rdpsym.foundations.errors import ConvergenceError, RdpSymError


@dataclass(frozen=True)
class Unavailable(Infinite):
    """An order of the default grid whose ball could not be had: counted as ∞ (it cannot be the least), and why."""


def grid_balls(c: RdpCurve, grid: tuple, default: bool, dps: int) -> list:
    """The curve's balls on the grid (a ball, or :class:`Infinite` with the reason, per order); ``default``: the grid
    is the default one, ending with ∞ (see the module docstring)."""
    if not default:
        return c.enclosures(grid, dps)
    return _each_available(c, grid[:-1], dps) + [at_infinity(c, dps)]


def at_infinity(c: RdpCurve, dps: int):
    """D_∞ of ``c`` as a certified ball, or :class:`Infinite` with the reason (∞, or why it is unknown)."""
    try:
        return c.enclosures([float("inf")], dps)[0]
    except (RdpSymError, ArithmeticError, TypeError, ValueError, NotImplementedError) as exc:
        return Unavailable(f"D_∞ could not be evaluated ({type(exc).__name__}: {exc})")


def _each_available(c: RdpCurve, orders: tuple, dps: int) -> list:
    """The balls at ``orders`` together (the work shared across orders done once); where that fails for want of
    convergence, the integer orders together (exact sums wherever a curve has them) and the others
    :class:`Unavailable` with the error; the error raised where the integer orders fail too, or there are none.
    (Not order by order: the sampled Gaussian's fractional orders at σ = 10⁻³ are refused at once as a group,
    but one at a time each ran a certified quadrature of up to 2·10⁶ points, minutes in all.)"""
    try:
        return c.enclosures(orders, dps)
    except ConvergenceError as exc:
        whole = [i for i, order in enumerate(orders) if order == int(order)]
        if not whole or len(whole) == len(orders):
            raise
        try:
            had = dict(zip(whole, c.enclosures([orders[i] for i in whole], dps)))
        except ConvergenceError:
            raise exc from None
        reason = f"not certified with the default grid's other fractional orders ({exc})"
        return [had[i] if i in had else Unavailable(reason) for i in range(len(orders))]


def unavailable_note(grid: tuple, balls: list) -> tuple[str, ...]:
    """The note a result carries where orders of the default grid could not be had (none where all were)."""
    missing = [order for order, ball in zip(grid, balls) if isinstance(ball, Unavailable) and order != float("inf")]
    if not missing:
        return ()
    shown = ", ".join(str(o) for o in missing[:4]) + (f", … ({len(missing)} in all)" if len(missing) > 4 else "")
    return (f"orders of the default grid that could not be certified are left out ({shown}; per_order says why): "
            "the least over the others is the value, a bound all the same",)


__all__ = ["Unavailable", "at_infinity", "grid_balls", "unavailable_note"]
