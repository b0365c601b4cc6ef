"""Every ceiling of the README's "Ceilings" table, enforced at the entry for every form of input (issue 25).

Each input the issue quotes is here: a million orders, 60 000 copies of one order, 20 000 calibration targets,
an Opacus history of 4·10⁴ alternating σ, 10⁵ distinct events, an endless ``events`` iterator, an event tree
10⁴ deep or containing itself, a peer object whose field raises, ``--bounds 1e500,1e501``, ``--scheduler
ucx://…`` and ``tls://…``, ``verify --event`` on a FIFO or ``/dev/zero``, a JSON event with ``"__class__"``
keys or a 5000-digit integer.  Each ends in a clear rdpsym error (exit status 2 on the command line) or a right
answer, never a traceback or a hang; the table itself is walked: every constant it names exists and holds the
value it states.
"""

from __future__ import annotations

import importlib
import itertools
import os
import pkgutil
import re
import time
from fractions import Fraction
from pathlib import Path

import mpmath
import numpy as np
import pytest
import sympy as sp

import rdpsym
from rdpsym.cli.main import main
from rdpsym.foundations.errors import DensityError, ParameterError
from rdpsym.peers import events

README = Path(__file__).resolve().parents[1] / "README.md"


# --------------------------------------------------------------------------------------- the README's table


def _table_rows() -> list[list[str]]:
    section = README.read_text(encoding="utf-8").split("## Ceilings", 1)[1].split("\n## ", 1)[0]
    rows = [line.strip("|").split(" | ") for line in section.splitlines() if line.startswith("| ")]
    return [r for r in rows if len(r) == 4 and r[0] != "what"]


def _modules() -> dict[str, list]:
    found: dict[str, list] = {}
    for info in pkgutil.walk_packages(rdpsym.__path__, "rdpsym."):
        found.setdefault(info.name.rsplit(".", 1)[-1], []).append(info.name)
    return found


def _shown(value: int) -> set[str]:
    """How the table may write an integer: 10000, 10,000, 10 000 (a space or a thin space), 10⁴."""
    forms = {str(value), f"{value:,}", f"{value:,}".replace(",", " "), f"{value:,}".replace(",", "\u202f")}
    digits = str(value)
    if digits.startswith("1") and set(digits[1:]) <= {"0"} and len(digits) > 1:
        forms.add("10" + str(len(digits) - 1).translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")))
    return forms


def test_the_table_names_constants_that_exist_and_hold_the_values_it_states():
    modules = _modules()
    checked = 0
    for what, ceiling, _why, where in _table_rows():
        for module, name in re.findall(r"`(\w+)\.([A-Z][A-Z_0-9]+)`", where):
            candidates = [importlib.import_module(m) for m in modules.get(module, [])]
            holders = [m for m in candidates if hasattr(m, name)]
            assert holders, f"README ceiling {what!r}: {module}.{name} is not a constant of any rdpsym.*.{module}"
            value = getattr(holders[0], name)
            if isinstance(value, int) and value >= 100:
                assert _shown(value) & set(re.findall(r"[\d ,\u202f⁰¹²³⁴⁵⁶⁷⁸⁹]+", ceiling)) or any(
                    form in ceiling for form in _shown(value)), f"{what!r}: {module}.{name} = {value}, table: {ceiling}"
                checked += 1
    assert checked >= 10


# --------------------------------------------------------------------------------------- orders


def _seconds(fn) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def test_a_million_orders_and_sixty_thousand_copies_are_refused_before_any_work():
    curve = rdpsym.gaussian(sigma=2).curve()
    for orders in ([1 + k / 1000 for k in range(1, 10**6)], [2] * 60_000, (1 + k / 7 for k in itertools.count(1)),
                   ",".join(["2"] * 60_000)):
        with pytest.raises(ParameterError, match="at most 10000 orders"):
            rdpsym.epsilon(curve, delta=1e-5, orders=orders)
    assert main(["epsilon", "--mechanism", "gaussian", "--set", "sigma=2", "--delta", "1e-5",
                 "--orders", ",".join(["2"] * 60_000)]) == 2


def test_duplicates_are_found_in_one_pass():
    orders = [2] * 5000 + [3] * 5000
    with pytest.raises(ParameterError, match="duplicates 2, 3"):
        rdpsym.epsilon(rdpsym.gaussian(sigma=2).curve(), delta=1e-5, orders=orders)
    assert _seconds(lambda: pytest.raises(ParameterError, rdpsym.accounting.orders.resolve, orders)) < 60


# --------------------------------------------------------------------------------------- calibration


def test_twenty_thousand_calibration_targets_are_refused(capsys):
    targets = ",".join(str(1 + i / 10**4) for i in range(20_000))
    assert main(["calibrate", "--mechanism", "gaussian", "--epsilon", targets, "--delta", "1e-5"]) == 2
    assert "at most 1000 targets" in capsys.readouterr().err
    with pytest.raises(ParameterError, match="at most 1000 calibrations"):
        rdpsym.calibrate_many([{"family": "gaussian", "epsilon": 1, "delta": 1e-5}] * 1001)


def test_bounds_beyond_a_float_are_calibrated_and_printed_without_overflow(capsys):
    status = main(["calibrate", "--mechanism", "gaussian", "--epsilon", "1", "--delta", "1e-5", "--dps", "15",
                   "--bounds", "1e500,1e501"])
    out, err = capsys.readouterr()
    assert status in (0, 2) and "Traceback" not in err and "OverflowError" not in err
    if status == 0:
        assert "e+500" in out or "e+501" in out


# --------------------------------------------------------------------------------------- Opacus histories


def test_an_opacus_history_of_alternating_sigma_is_two_terms():
    history = [(1.0 + (i % 2) / 10, 0.01, 1) for i in range(40_000)]
    q = sp.Rational(*(0.01).as_integer_ratio())  # a sample rate is read as the value the float holds
    grouped = rdpsym.sampled_gaussian(q=q, sigma=1).curve() * 20_000 \
        + rdpsym.sampled_gaussian(q=q, sigma=sp.Rational(*(1.1).as_integer_ratio())).curve() * 20_000
    assert _seconds(lambda: rdpsym.from_opacus(history)) < 120
    got = rdpsym.epsilon(rdpsym.from_opacus(history), delta=1e-5, dps=20)
    want = rdpsym.epsilon(grouped, delta=1e-5, dps=20)
    assert got.value == want.value


def test_an_opacus_history_past_its_ceilings_is_refused(monkeypatch):
    from rdpsym.peers import opacus

    monkeypatch.setattr(opacus, "MAX_DISTINCT_STEPS", 5)
    with pytest.raises(ParameterError, match="at most 5 distinct"):
        rdpsym.from_opacus([(1 + i / 10, 0.01, 1) for i in range(6)])
    monkeypatch.setattr(opacus, "MAX_HISTORY_ENTRIES", 10)
    with pytest.raises(ParameterError, match="at most 10 entries"):
        rdpsym.from_opacus([(1.0, 0.01, 1)] * 11)


# --------------------------------------------------------------------------------------- dp_accounting events

def _event(name: str, **fields):
    return type(name, (), fields)()


def _gaussian(sigma):
    return _event("GaussianDpEvent", noise_multiplier=sigma)


def _composed(items):
    e = _event("ComposedDpEvent")
    e.events = items
    return e


def test_an_endless_events_iterator_ends_at_the_ceiling(monkeypatch):
    monkeypatch.setattr(events, "MAX_EVENTS_VISITED", 1000)
    with pytest.raises(ParameterError, match="at most 1000 events"):
        rdpsym.from_dp_event(_composed(itertools.repeat(_gaussian(1.0))))


def test_an_event_nested_ten_thousand_deep_or_inside_itself_is_refused():
    deep = _gaussian(1.0)
    for _ in range(10**4):
        deep = _composed([deep])
    with pytest.raises(ParameterError, match="nested at most 200 deep"):
        rdpsym.from_dp_event(deep)
    inner: list = [_gaussian(1.0)]
    cyclic = _composed(inner)
    inner.append(cyclic)
    with pytest.raises(ParameterError, match="no event inside itself"):
        rdpsym.from_dp_event(cyclic)
    sampled = _event("PoissonSampledDpEvent", sampling_probability=1.0)
    sampled.event = sampled
    with pytest.raises(ParameterError, match="no event inside itself"):
        rdpsym.from_dp_event(sampled)


def test_many_distinct_events_are_refused_and_one_object_many_times_is_one_term(monkeypatch):
    monkeypatch.setattr(events, "MAX_DISTINCT_EVENTS", 50)
    with pytest.raises(ParameterError, match="at most 50 distinct events"):
        rdpsym.from_dp_event(_composed([_gaussian(1 + i / 10**6) for i in range(10**5)]))
    g = _gaussian(2.0)
    curve = rdpsym.from_dp_event(_composed([g] * 50_000))
    assert curve.closed_form == 50_000 * sp.Symbol("alpha") / 8 or sp.simplify(
        curve.closed_form - 50_000 * rdpsym.alpha / 8) == 0


def test_a_field_that_raises_is_an_error_naming_the_object_and_the_field():
    class Exploding:
        @property
        def noise_multiplier(self):
            raise RuntimeError("boom")

    Exploding.__name__ = "GaussianDpEvent"
    with pytest.raises(ParameterError, match=r"GaussianDpEvent.noise_multiplier must be readable.*RuntimeError: boom"):
        rdpsym.from_dp_event(Exploding())

    class BadIterator:
        def __iter__(self):
            yield _gaussian(1.0)
            raise KeyError("gone")

    with pytest.raises(ParameterError, match="ComposedDpEvent.events raised KeyError"):
        rdpsym.from_dp_event(_composed(BadIterator()))

    # (iter() itself failing: a 0-d NumPy array is Iterable by its class and not by its shape, and an __iter__ that
    # hands back a list; both were raw TypeErrors, a review)
    class NotAnIterator:
        def __iter__(self):
            return [_gaussian(1.0)]

    for refused in (np.array(0.5), NotAnIterator()):
        with pytest.raises(ParameterError, match="ComposedDpEvent.events raised TypeError as it was iterated"):
            rdpsym.from_dp_event(_composed(refused))

    class Accountant:
        @property
        def history(self):
            raise ValueError("locked")

    with pytest.raises(ParameterError, match="history must be readable.*ValueError: locked"):
        rdpsym.from_opacus(Accountant())


def _raises(message: str):
    raise RuntimeError(message)


def test_foreign_code_that_raises_anywhere_in_the_reading_is_an_error_naming_the_object():
    """A probe of the peers' inputs: an ``events`` whose ``__iter__`` raises at once, a ledger, history or params
    property that raises, a history whose ``__len__`` raises, a float field whose ``__repr__`` raises, an entry whose
    ``__len__`` says 3 and holds 2: each passed a raw exception through ``from_dp_event``, ``verify``,
    ``from_opacus`` or ``from_autodp``."""
    import collections.abc

    from autodp import mechanism_zoo
    from dp_accounting import GaussianDpEvent

    class NoIterator:
        def __iter__(self):
            _raises("iter boom")

    with pytest.raises(ParameterError, match="the ComposedDpEvent object's own code raised RuntimeError: iter boom"):
        rdpsym.from_dp_event(_composed(NoIterator()))

    class Ledgered:
        ledger = property(lambda self: _raises("ledger boom"))

    with pytest.raises(ParameterError, match="the Ledgered object's own code raised RuntimeError: ledger boom"):
        rdpsym.verify(Ledgered(), orders=[2], rdp=[0.5])

    class History:
        def __len__(self):
            _raises("len boom")

        def __getitem__(self, i):
            _raises("item boom")

    collections.abc.Sequence.register(History)
    with pytest.raises(ParameterError, match="the History object's own code raised RuntimeError: len boom"):
        rdpsym.from_opacus(History())

    class Lying(tuple):
        def __len__(self):
            return 3

    with pytest.raises(ParameterError, match=r"history\[0\] must be a \(noise_multiplier, sample_rate, steps\) tuple"):
        rdpsym.from_opacus([Lying((1.0, 0.01))])

    class Mechanism:
        params = property(lambda self: _raises("params boom"))

    Mechanism.__name__ = "GaussianMechanism"
    with pytest.raises(ParameterError, match="the GaussianMechanism object's own code raised RuntimeError: params boom"):
        rdpsym.from_autodp(Mechanism())

    class Unprintable(float):  # (a peer's float is read as the value it holds: its ratio, not its repr)
        def as_integer_ratio(self):
            _raises("ratio boom")

        __str__ = __repr__ = as_integer_ratio

    with pytest.raises(ParameterError, match="the GaussianDpEvent object's own code raised RuntimeError: ratio boom"):
        rdpsym.from_dp_event(GaussianDpEvent(Unprintable(1.1)))

    np = pytest.importorskip("numpy")
    sgd = mechanism_zoo.NoisySGD_Mechanism(prob=0.01, sigma=1.1, niter=10)
    sgd.params["PoissonSampling"] = np.array([1, 2])  # NumPy's "truth value of an array is ambiguous" passed raw
    with pytest.raises(ParameterError, match=r"PoissonSampling'\] must be True or False; got array"):
        rdpsym.from_autodp(sgd)
    sgd.params["PoissonSampling"] = np.bool_(True)
    one = rdpsym.sampled_gaussian(q=Fraction(0.01), sigma=Fraction(1.1)).curve()  # as the floats hold them
    assert rdpsym.from_autodp(sgd).value(2, dps=20) == (one * 10).value(2, dps=20)


def test_rdpsym_s_own_errors_inside_a_reading_are_not_blamed_on_the_object(monkeypatch):
    """The net of foreign exceptions catches only what the object's code raised: an exception raised in rdpsym's
    own frames passes unchanged (it is a fault of rdpsym's, and must show as one)."""
    import math

    # (a builtin, so the innermost Python frame is rdpsym's: a function written here would be foreign code)
    monkeypatch.setattr(events, "_walk", math.fsum)
    with pytest.raises(TypeError, match="fsum"):
        rdpsym.from_dp_event(_gaussian(1.0))


def test_autodp_s_noisy_gd_with_one_number_is_one_step():
    """autodp's NoisyGD_Mechanism takes a number (or a 0-d array) for its sigma_list: RDP α/(2σ²) of one step, 0.25
    at α = 2 for σ = 2 (a 0-d array raised a bare TypeError, a float was refused)."""
    from autodp import mechanism_zoo

    np = pytest.importorskip("numpy")
    for sigma in (2.0, np.array(2.0)):
        assert rdpsym.from_autodp(mechanism_zoo.NoisyGD_Mechanism(sigma)).value(2, dps=20) == mpmath.mpf(1) / 4


# --------------------------------------------------------------------------------------- files and schedulers


@pytest.mark.parametrize("scheme", ["ucx", "tls", "inproc"])
def test_an_unsupported_scheduler_scheme_is_refused_by_name(tmp_path, capsys, scheme):
    assert main(["reference", "--quick", "--out", str(tmp_path), "--scheduler", f"{scheme}://127.0.0.1:8786"]) == 2
    assert f"the {scheme}:// scheme is not supported" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_verify_reads_only_a_regular_json_file_of_bounded_size(tmp_path, capsys):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for source in (str(fifo), "/dev/zero", str(tmp_path)):
        assert main(["verify", "--event", source, "--orders", "2", "--rdp", "0.25"]) == 2
        assert "a regular JSON file" in capsys.readouterr().err
    huge = tmp_path / "huge.json"
    huge.write_text('{"class_name": "GaussianDpEvent", "noise_multiplier": ' + "9" * 5000 + "}")
    assert main(["verify", "--event", str(huge), "--orders", "2", "--rdp", "0.25"]) == 2
    assert "4300 digits" in capsys.readouterr().err


def test_a_json_event_with_dunder_keys_is_refused_and_never_rewrites_the_object(tmp_path, capsys):
    """Dunder keys could rewrite the event object ("__class__", "__dict__", "_fields"); they were dropped, and are
    refused now, as every key that is not one of the event's fields is (a probe: a misspelt "Xi" read as ξ = 0)."""
    f = tmp_path / "event.json"
    f.write_text('{"class_name": "GaussianDpEvent", "noise_multiplier": 2.0, "__class__": "x", "__dict__": {},'
                 ' "_fields": 3}')
    assert main(["verify", "--event", str(f), "--orders", "2", "--rdp", "0.25"]) == 2
    assert "public identifiers" in capsys.readouterr().err
    f.write_text('{"class_name": "GaussianDpEvent", "noise_multiplier": 2.0}')
    assert main(["verify", "--event", str(f), "--orders", "2", "--rdp", "0.25"]) == 0
    assert "certified 0.25" in capsys.readouterr().out


def test_a_json_event_with_a_number_no_float_holds_or_a_repeated_key_is_refused(tmp_path, capsys):
    """A probe: a noise multiplier of 1e-400 was read as 0.0, and the Gaussian event judged non-private (RDP ∞, where
    it is 10⁸⁰⁰); {"noise_multiplier": 2, "noise_multiplier": 0.5} was read as σ = 1/2, silently.  An event held
    floats: a number no float holds is refused as 1e400 is, and so is a repeated key; a subnormal is a float."""
    f = tmp_path / "event.json"
    for body, message in [('"noise_multiplier": 1e-400', "numbers a float holds (0, or about 5e-324 to 1.8e308 in size); "
                                                          "got 1e-400"),
                          ('"noise_multiplier": 2, "noise_multiplier": 0.5', "each key once; got 'noise_multiplier' "
                                                                               "twice")]:
        f.write_text('{"class_name": "GaussianDpEvent", ' + body + "}")
        assert main(["verify", "--event", str(f), "--orders", "2", "--rdp", "0.25"]) == 2
        assert message in capsys.readouterr().err
    f.write_text('{"class_name": "GaussianDpEvent", "noise_multiplier": 1e-310}')  # (a subnormal is read)
    assert main(["verify", "--event", str(f), "--orders", "2", "--rdp", "0.25"]) != 2


def test_a_root_whose_whole_part_is_too_large_is_not_built(watchdog):
    """A probe: N(0, 1) against N(3, 4) at α = 10¹⁰ gave no answer in 100 s: SymPy took the whole part 2^(5·10⁹)
    out of 4^(10¹⁰/4), one C call no budget stops.  That power is now refused like an integer power of as many
    digits; the derivation then finds the closed form in another shape, checked against the definition (since signs
    are decided within a CPU budget), or falls back to the labelled numeric value (Gil–Alajaji's closed form for two
    Gaussians: αm²/(2σ²_α) + log(σ_α/(σ₁^{1−α}σ₂^α))/(1 − α), σ²_α = ασ₂² + (1 − α)σ₁²)."""
    x = sp.Symbol("x", real=True)
    N = lambda m, s: rdpsym.Continuous(sp.exp(-(x - m) ** 2 / (2 * s**2)) / sp.sqrt(2 * sp.pi * s**2), x)  # noqa: E731
    with watchdog(120, "N(0, 1) vs N(3, 4) at 10^10"):
        d = rdpsym.renyi_divergence(N(0, 1), N(3, 2), 10**10)
    assert d.status in ("checked", "numeric")
    with mpmath.workdps(80):
        a = mpmath.mpf(10) ** 10
        s2 = a * 4 + (1 - a)
        expected = a * 9 / (2 * s2) + mpmath.log(mpmath.sqrt(s2) / 2**a) / (1 - a)
        assert abs(d.evalf(dps=40) / expected - 1) < mpmath.mpf(10) ** -40


def test_a_family_form_past_the_ceilings_leaves_the_labelled_numeric_value():
    """A probe: Kumaraswamy(2, 3) against Kumaraswamy(2, 2) at α = 10⁶ raised NoClosedFormError about 6^(10⁶), a number
    the family's form would build at the numbers, where the README promises the labelled numeric value.  P/Q =
    (3/2)(1 − x²), so the moment is (3/2)^α ∫ 4x(1 − x²)^{1+α} dx = (3/2)^α · 2/(α + 2), and
    D_α = log(3/2) + log(3/(α + 2))/(α − 1)."""
    import rdpsym

    xk = sp.Symbol("x", real=True)

    def kumaraswamy(a, b):
        return rdpsym.Continuous(a * b * xk ** (a - 1) * (1 - xk**a) ** (b - 1), xk, support=sp.Interval(0, 1))

    order = 10**6
    d = rdpsym.renyi_divergence(kumaraswamy(2, 3), kumaraswamy(2, 2), order)
    assert d.status.value == "numeric"
    with mpmath.workdps(60):
        want = mpmath.log(mpmath.mpf(3) / 2) + mpmath.log(mpmath.mpf(3) / (order + 2)) / (order - 1)
        assert abs(d.evalf(dps=50) - want) <= mpmath.mpf(10) ** -45 * want


def test_a_table_past_its_ceiling_of_outcomes_is_refused_before_a_value_is_read():
    """A review: a table of 10⁶ outcomes took 80 s of CPU and ran out of memory inside SymPy's sign checks, a raw
    MemoryError.  It is refused by its size, naming the ceiling, before any value is read."""
    from rdpsym.foundations.reading import MAX_TABLE_OUTCOMES

    class Unreadable:  # (any value read would say so: the size is checked first)
        def __getattr__(self, name):
            raise AssertionError("a value was read")

    with pytest.raises(DensityError, match=f"at most {MAX_TABLE_OUTCOMES} outcomes.*got {MAX_TABLE_OUTCOMES + 1} "):
        rdpsym.Discrete(dict.fromkeys(range(MAX_TABLE_OUTCOMES + 1), Unreadable()))
    with pytest.raises(DensityError, match=re.escape("got {}.")):
        rdpsym.Discrete({})
