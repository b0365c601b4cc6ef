"""autodp's mechanisms in: :func:`from_autodp` reads a mechanism-zoo object by its class name and ``params``.

autodp (Yu-Xiang Wang et al.) builds mechanisms as objects whose RDP is a
Python closure; what can be read from outside is the class name and the
``params`` dict the constructors keep "for the calibrator".  Where those
determine the mechanism, it is read:

==============================  ==========================================  ===========================
autodp class                    params                                      rdpsym
==============================  ==========================================  ===========================
``GaussianMechanism``,          ``sigma``                                   ``gaussian(sigma)``
``ExactGaussianMechanism``
``LaplaceMechanism``            ``b``                                       ``laplace(b)``
``RandresponseMechanism``       ``p``                                       ``randomized_response(p)``
``PureDP_Mechanism``            ``eps``                                     ``pure_dp(eps)``
``zCDP_Mechanism``              ``rho``, ``xi``                             ``zcdp(rho, xi)``
``ExponentialMechanism``        ``eps``                                     ``exponential_mechanism(eps)``
``DiscreteGaussianMechanism``   ``rho`` (= 1/(2σ²); σ itself is not kept)   ``zcdp(rho)``
``SubsampleGaussianMechanism``  ``prob``, ``sigma``, ``coeff``              coeff × sampled_gaussian
``NoisySGD_Mechanism``          ``prob``, ``sigma``, ``niter``,             niter × sampled_gaussian
                                ``PoissonSampling``                         (Poisson), or × sampled
                                                                            without replacement of
                                                                            gaussian(sigma, 2)
``ComposedGaussianMechanism``   ``sigma``, ``coeff``                        coeff × gaussian(sigma)
``NoisyGD_Mechanism``           ``sigma_list``                              Σ gaussian(σᵢ)
==============================  ==========================================  ===========================

What cannot be read, and is refused with the reason: a mechanism made by
autodp's ``Composition`` or ``AmplificationBySampling`` transformers (their
``params`` merge the parts' parameters by name and drop the counts, which
survive only in the ``name`` string, which rdpsym does not parse), the sparse
vector and stage-wise mechanisms, ``NoisyScreenMechanism`` (no rdpsym curve),
and any mechanism built directly from an RDP function (a closure).
"""

from __future__ import annotations

import contextlib
import math
import numbers
from collections.abc import Mapping
from fractions import Fraction

from rdpsym.accounting.curve import RdpCurve
from rdpsym.foundations.errors import ParameterError, must
from rdpsym.foundations.reading import integer, positive_parameter, probability_parameter
from rdpsym.laws.mechanisms import (
    exponential_mechanism,
    gaussian,
    laplace,
    non_private,
    pure_dp,
    randomized_response,
    sampled_gaussian,
    zcdp,
)
from rdpsym.peers._reading import UnsupportedPeerObject, held, kind, numpy_kind, public, reads_peer_objects, shown

#: Why the mechanisms rdpsym does not read are refused.
_OPAQUE = {
    "GaussianSVT_Mechanism": "the sparse vector technique has no rdpsym curve",
    "LaplaceSVT_Mechanism": "the sparse vector technique has no rdpsym curve",
    "StageWiseMechanism": "the stage-wise mechanism has no rdpsym curve",
    "NoisyScreenMechanism": "the noisy screening mechanism has no rdpsym curve",
}




def _params(mechanism: object, name: str, needed: tuple[str, ...]) -> dict:
    params = getattr(mechanism, "params", None)
    if not isinstance(params, Mapping):
        raise UnsupportedPeerObject(f"{name} keeps no params dict: its parameters cannot be read")
    missing = [k for k in needed if k not in params]
    if missing:
        raise UnsupportedPeerObject(f"{name}.params lacks {', '.join(missing)} (has {', '.join(map(str, params))}): "
                                    "its parameters cannot be read")
    return {k: _exact_number(v) for k, v in params.items()}


def _exact_number(value: object) -> object:
    """A float as the value it holds, which autodp computes with (see rdpsym.peers._reading); an integral one (a
    count, coeff = 100.0; a σ of 1e23) as the integer it is exactly, which a count's reader takes."""
    return int(value) if isinstance(value, float) and value.is_integer() else held(value)


def _flag(value: object) -> bool | None:
    """A True/False flag of autodp's params (Python's bool or NumPy's), else None (an array, a string: refused by
    name; ``value not in (True, False)`` raised NumPy's "truth value of an array is ambiguous")."""
    if isinstance(value, bool):
        return value
    if numpy_kind(value) == "b":
        return bool(value)
    return None


def _scale(params: dict, name: str, key: str) -> object:
    """A noise scale of ``params`` read by its field's name (``GaussianMechanism.params['sigma'] must be positive``,
    where the law's own reader said only "sigma"; a probe).  0 is refused, as autodp's own mechanisms fail on it."""
    return positive_parameter(params[key], f"{name}.params[{key!r}]")


@contextlib.contextmanager
def _fields(name: str, **fields: str):
    """An error of rdpsym's reader about its parameter ``ours`` said of the autodp field it came from, ``fields`` being
    {ours: theirs} ("q must be …" for ``SubsampleGaussianMechanism.params['prob']``: a probe)."""
    try:
        yield
    except ParameterError as exc:
        text = str(exc)
        for ours, theirs in fields.items():
            if text.startswith(f"{ours} must"):
                raise type(exc)(f"{name}.params[{theirs!r}] (rdpsym's {ours}){text[len(ours):]}") from None
        raise


def _whole(count: object) -> object:
    """A count autodp keeps as a whole float (``coeff=100.0``: epochs·n/batch computed in floats, which autodp takes as
    it is) as that integer; anything else unchanged, for the reader to refuse with the field's name (100.5 steps)."""
    # (any float type: autodp took NumPy's float32 100.0 as it takes 100.0, and rdpsym refused it, a probe)
    if isinstance(count, numbers.Real) and not isinstance(count, numbers.Integral) and math.isfinite(count) \
            and count == int(count):
        return int(count)
    return count


@reads_peer_objects("reading the autodp mechanism")
def from_autodp(mechanism: object) -> RdpCurve:
    """The RDP curve of an autodp mechanism whose ``params`` determine it (see the module's table).

    The probabilities autodp keeps are read as the binary values they hold, which autodp computes with, and
    its other floats as the decimals they print as (:func:`~rdpsym.peers._reading.held`).  Anything
    else is an :class:`~rdpsym.peers._reading.UnsupportedPeerObject` saying
    why.
    """
    name = kind(mechanism)
    if name in _OPAQUE:
        raise UnsupportedPeerObject(f"{name} is not supported: {_OPAQUE[name]}")
    if name in ("GaussianMechanism", "ExactGaussianMechanism"):
        return gaussian(sigma=_scale(_params(mechanism, name, ("sigma",)), name, "sigma")).curve()
    if name == "LaplaceMechanism":
        return laplace(scale=_scale(_params(mechanism, name, ("b",)), name, "b")).curve()
    if name == "RandresponseMechanism":
        p = probability_parameter(_params(mechanism, name, ("p",))["p"], f"{name}.params['p']", closed=True)
        # p = 0 or 1 tells the bit (or its negation) outright: ∞ at every order, as autodp says and as rdpsym reads
        # dp_accounting's RandomizedResponseDpEvent(noise_parameter=0) (it was refused, naming p only: a probe)
        return non_private().curve() if p in (0, 1) else randomized_response(p).curve()
    if name == "PureDP_Mechanism":
        with _fields(name, epsilon="eps"):
            return pure_dp(_params(mechanism, name, ("eps",))["eps"]).curve()
    if name == "ExponentialMechanism":
        with _fields(name, epsilon="eps"):
            return exponential_mechanism(_params(mechanism, name, ("eps",))["eps"]).curve()
    if name in ("zCDP_Mechanism", "DiscreteGaussianMechanism"):
        p = _params(mechanism, name, ("rho",))
        with _fields(name, rho="rho", xi="xi"):
            return zcdp(rho=p["rho"], xi=p.get("xi", 0)).curve()
    if name in ("SubsampleGaussianMechanism", "NoisySGD_Mechanism"):
        steps = "coeff" if name == "SubsampleGaussianMechanism" else "niter"
        p = _params(mechanism, name, ("prob", "sigma", steps))
        # (read from autodp's own params: the value shown where it is refused is the one given, 50.5, not 101/2)
        k = integer(_whole(mechanism.params[steps]), f"{name}.params[{steps!r}]", minimum=0)
        flag = p.get("PoissonSampling", True)
        poisson = _flag(flag)
        if poisson is None:
            raise ParameterError(must(f"{name}.params['PoissonSampling']", "True or False", shown(flag)))
        if poisson:
            with _fields(name, q="prob"):
                one = sampled_gaussian(q=p["prob"], sigma=_scale(p, name, "sigma")).curve()
        else:
            # autodp samples a fixed fraction without replacement (Wang–Balle–Kasiviswanathan 2019), whose bound is
            # for substituting a record: that moves the clipped sum by up to 2C, so the Gaussian has sensitivity 2,
            # as rdpsym reads dp_accounting's SampledWithoutReplacementDpEvent (autodp's own curve takes 1: below
            # the truth, as `verify` says).  One batch, one reading, whichever peer it comes from.
            inner = gaussian(sigma=_scale(p, name, "sigma"), sensitivity=2)
            with _fields(name, q="prob"):
                one = public("sampled_without_replacement")(inner, p["prob"]).curve()
        return _times(one, k)
    if name == "ComposedGaussianMechanism":
        p = _params(mechanism, name, ("sigma", "coeff"))
        k = integer(_whole(mechanism.params["coeff"]), f"{name}.params['coeff']", minimum=0)
        return _times(gaussian(sigma=_scale(p, name, "sigma")).curve(), k)
    if name == "NoisyGD_Mechanism":
        sigmas = _params(mechanism, name, ("sigma_list",))["sigma_list"]
        if getattr(sigmas, "ndim", None) == 0 or isinstance(sigmas, (int, float, Fraction)):
            sigmas = [sigmas]  # one step (autodp takes a number, or a 0-d array, as a list of one)
        if isinstance(sigmas, (str, bytes, Mapping)) or not hasattr(sigmas, "__iter__"):  # (a dict: its keys)
            raise ParameterError(must(f"{name}.params['sigma_list']", "a list of noise multipliers", shown(sigmas)))
        # (each σ as the float it holds, as a scalar σ is: a list's were read as their decimals, 1/σ² = 100 exactly
        # for σ = 0.1 where autodp's σ gives 99.999999999999988…, a probe)
        values = [positive_parameter(_exact_number(s), f"{name}.params['sigma_list'][{i}]")
                  for i, s in enumerate(sigmas)]
        curves = [gaussian(sigma=s).curve() for s in values]
        return sum(curves) if curves else RdpCurve((), label="no steps")
    params = getattr(mechanism, "params", None)
    if isinstance(params, Mapping) and any(str(k).startswith(("PoissonSample", "Subsample")) for k in params):
        raise UnsupportedPeerObject(f"{name}: a mechanism made by autodp's AmplificationBySampling cannot be read "
                                    "(its params merge the inner mechanism's by name); subsample with rdpsym instead")
    if isinstance(params, Mapping) and any(":" in str(k) for k in params):
        raise UnsupportedPeerObject(f"{name}: a mechanism made by autodp's Composition cannot be read (its params "
                                    "merge the parts' by name and drop the counts); compose the parts with rdpsym")
    raise UnsupportedPeerObject(f"{name} is not supported: rdpsym reads autodp's mechanism-zoo classes whose params "
                                "determine them (Gaussian, Laplace, Randresponse, PureDP, zCDP, Exponential, "
                                "DiscreteGaussian, SubsampleGaussian, NoisySGD, ComposedGaussian, NoisyGD)")


def _times(curve: RdpCurve, k: int) -> RdpCurve:
    return RdpCurve((), label="no steps") if k == 0 else curve if k == 1 else curve * k


__all__ = ["from_autodp"]
