"""Issue 26: derivations kept between processes, believed only when intact, and a light ``import rdpsym``.

The cache (rdpsym.foundations.disk_cache) may only ever save work: every test here shows a case where it
must not be believed (damaged, foreign, forged, another parameter's, another code's) and that the work is
then done again, or a case where it must be read (a new process, a worker) and that nothing is derived.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.util
import json
import os
import pickle
import subprocess
import sys
import textwrap
import tomllib
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
import sympy as sp

import rdpsym
from rdpsym.claims import claim as claim_module
from rdpsym.claims import runner
from rdpsym.cli.shipping import EXAMPLES, claims_workload
from rdpsym.derive import divergence
from rdpsym.foundations import cache_keys, disk_cache
from rdpsym.foundations.statuses import Status
from rdpsym.laws.mechanisms import REGISTRY

ROOT = Path(__file__).resolve().parent.parent
x = sp.Symbol("x", real=True)
lam1, lam2 = sp.symbols("lambda1 lambda2", positive=True)


def _exponentials():
    P = rdpsym.Continuous(lam1 * sp.exp(-lam1 * x), x, support=sp.Interval(0, sp.oo))
    Q = rdpsym.Continuous(lam2 * sp.exp(-lam2 * x), x, support=sp.Interval(0, sp.oo))
    return P, Q


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """The cache on, in a folder of this test's own, with nothing in memory before or after."""
    monkeypatch.setenv(disk_cache.ENVIRONMENT, str(tmp_path / "cache"))
    monkeypatch.setattr(disk_cache, "SHIPPED", tmp_path / "no shipment")  # (a checkout may hold one)
    disk_cache._shipped.cache_clear()
    disk_cache._memory.clear()
    yield tmp_path / "cache"
    disk_cache._memory.clear()
    disk_cache._shipped.cache_clear()


@pytest.fixture
def counted(monkeypatch):
    """How many times the derivation itself ran (not a replay)."""
    calls = []
    derive = divergence.univariate_divergence

    def counting(*args, **kwargs):
        calls.append(args)
        return derive(*args, **kwargs)

    monkeypatch.setattr(divergence, "univariate_divergence", counting)
    return calls


def _entry_files(root: Path) -> list[Path]:
    return sorted(root.glob("entries-*/*/*.entry"))


def _derivation_entry(root: Path) -> Path:
    """The one entry holding a derivation (the others are density checks)."""
    found = [p for p in _entry_files(root) if b"Derivation" in p.read_bytes()]
    assert len(found) == 1, found
    return found[0]


def test_a_derivation_is_read_back_from_disk_not_derived_again(cache, counted):
    P, Q = _exponentials()
    first = rdpsym.renyi_divergence(P, Q, 2)
    assert len(counted) == 1 and first.status is Status.CHECKED
    disk_cache._memory.clear()  # as a new process starts
    again = rdpsym.renyi_divergence(P, Q, 2)
    assert len(counted) == 1, "derived again although a valid entry was there"
    assert (again.result, again.status, again.steps, again.evidence) == \
        (first.result, first.status, first.steps, first.evidence)
    assert str(again) == str(first) and again.latex() == first.latex()


def test_a_new_process_reads_what_another_derived(cache):
    script = textwrap.dedent("""
        import sys, sympy as sp, rdpsym
        from rdpsym.derive import divergence
        if sys.argv[1] == "replay":  # the derivation itself may not run in this process
            divergence.univariate_divergence = None
        s = sp.Symbol("s", positive=True)
        d = rdpsym.laplace(scale=s).rdp()
        print(d.status.value, d.result)
    """)
    env = {**os.environ, disk_cache.ENVIRONMENT: str(cache)}
    derived = subprocess.run([sys.executable, "-c", script, "derive"], env=env, capture_output=True, text=True,
                             check=True).stdout
    replayed = subprocess.run([sys.executable, "-c", script, "replay"], env=env, capture_output=True, text=True,
                              check=True).stdout
    assert derived == replayed and derived.startswith("proved ")


@pytest.mark.parametrize("damage", ["flip a byte", "truncate", "foreign key", "rename"])
def test_a_damaged_or_foreign_entry_is_ignored_and_replaced(cache, counted, damage):
    P, Q = _exponentials()
    first = rdpsym.renyi_divergence(P, Q, 2)
    entry = _derivation_entry(cache)
    data = entry.read_bytes()
    if damage == "flip a byte":
        entry.write_bytes(data[:-40] + bytes([data[-40] ^ 1]) + data[-39:])
    elif damage == "truncate":
        entry.write_bytes(data[: len(data) // 2])
    elif damage == "foreign key":  # written by another installation: its key is not this one's
        (cache / "secret").write_bytes(os.urandom(32))
    else:  # an entry moved under another key's name answers nothing
        other = rdpsym.renyi_divergence(P, Q, 3)
        _, key3 = sorted((p.stat().st_mtime_ns, p) for p in _entry_files(cache)
                         if b"Derivation" in p.read_bytes())[-1]
        key3.write_bytes(data)
        disk_cache._memory.clear()
        assert rdpsym.renyi_divergence(P, Q, 3).result == other.result
        return
    disk_cache._memory.clear()
    again = rdpsym.renyi_divergence(P, Q, 2)
    assert len(counted) == 2, "a damaged entry was believed"
    assert again.result == first.result
    disk_cache._memory.clear()
    rdpsym.renyi_divergence(P, Q, 2)
    assert len(counted) == 2, "the entry derived again was not written back"


class _Payload:
    """A pickle that calls ``function(*args)`` when loaded by a plain unpickler: a forged entry's payload."""

    def __init__(self, function, *args):
        self.function, self.args = function, args

    def __reduce__(self):
        return (self.function, self.args)


def test_a_forged_entry_with_the_right_seal_still_runs_no_code(cache, counted, tmp_path):
    # An attacker who can also read the key: the restricted unpickler is the second wall.
    P, Q = _exponentials()
    rdpsym.renyi_divergence(P, Q, 2)
    entry = _derivation_entry(cache)
    key = entry.stem
    marker = tmp_path / "ran"
    payload = pickle.dumps(_Payload(os.system, f"touch {marker}"))
    secret = (cache / "secret").read_bytes()
    entry.write_bytes(disk_cache._MAGIC + disk_cache._seal(secret, key, payload) + payload)
    disk_cache._memory.clear()
    again = rdpsym.renyi_divergence(P, Q, 2)
    assert not marker.exists(), "the forged entry ran a command"
    assert again.status is Status.CHECKED and len(counted) == 2


def test_a_forged_entry_of_sympy_classes_that_parse_text_runs_no_code(cache, counted, tmp_path):
    """A probe ran a command through a SymPy class the unpickler allows (sealed with a key read from the folder),
    and the Tuple it built then crashed the caller.  SymPy's parser is closed while an entry is read, and an entry
    of the wrong shape is derived again."""
    P, Q = _exponentials()
    rdpsym.renyi_divergence(P, Q, 2)
    entry = _derivation_entry(cache)
    marker = tmp_path / "ran"
    secret = (cache / "secret").read_bytes()
    # SymPy's own Tuple of a string: Tuple sympifies it, and sympify of text evaluates it
    text = _Payload(sp.Tuple, f"__import__('os').system('touch {marker}') or 1")
    for payload in (pickle.dumps(text), pickle.dumps(sp.Tuple(1, 2))):
        entry.write_bytes(disk_cache._MAGIC + disk_cache._seal(secret, entry.stem, payload) + payload)
        disk_cache._memory.clear()
        again = rdpsym.renyi_divergence(P, Q, 2)
        assert not marker.exists(), "the forged entry ran a command"
        assert again.status is Status.CHECKED
    assert len(counted) == 3
    assert sp.sympify("1 + 1") == 2  # the parser is closed only while an entry is read


@pytest.mark.parametrize("module, name", [("rdpsym.render.pdf", "subprocess.Popen"),
                                          ("sympy.utilities.tests.test_misc", "Popen"),
                                          ("rdpsym.foundations.parallel", "ProcessPoolExecutor")])
def test_the_unpickler_refuses_classes_reached_through_a_module_that_only_imports_them(module, name, tmp_path):
    """A reviewer ran a command from a sealed entry through subprocess.Popen, named as an attribute path of an
    rdpsym module and as a name a SymPy test module imports; a class must be defined where it is named, and be a
    result type (an expression, a number, an rdpsym record or enum)."""
    import io
    import struct

    marker = tmp_path / "ran"

    def text(s):
        b = s.encode()
        return b"X" + struct.pack("<I", len(b)) + b

    payload = (b"\x80\x04" + f"c{module}\n{name}\n".encode() + b"(](" + text("sh") + text("-c")
               + text(f"touch {marker}") + b"etR.")
    with pytest.raises(pickle.UnpicklingError, match="is not part of an rdpsym result"):
        disk_cache._Restricted(io.BytesIO(payload)).load()
    assert not marker.exists()


def test_the_key_reads_a_parameters_interval_and_the_code(cache, counted, monkeypatch):
    # p ∈ (0, 1) and p ∈ (0, 2) print alike, and are different inputs
    k = sp.Symbol("k", integer=True)
    derived = []
    for upper in (1, 2, 1):
        p = rdpsym.parameter("p", 0, upper)
        P = rdpsym.Discrete({0: p / 2, 1: 1 - p / 2})
        Q = rdpsym.Discrete({0: sp.Rational(1, 2), 1: sp.Rational(1, 2)})
        derived.append(rdpsym.renyi_divergence(P, Q, 2))
    del k
    assert len(counted) == 2, "p in (0, 2) was answered by p in (0, 1)'s entry, or the same input derived twice"
    # the same input under another version of the code is another key
    monkeypatch.setattr(cache_keys, "fingerprint", lambda: "another version of rdpsym")
    disk_cache._memory.clear()
    P, Q = _exponentials()
    rdpsym.renyi_divergence(P, Q, 2)
    rdpsym.renyi_divergence(P, Q, 2)
    assert len(counted) == 3


def test_an_undefined_functions_assumptions_and_a_users_function_class_are_read_by_the_key(cache):
    """A probe: ``Function("f", positive=True)`` and ``Function("f")`` had one key, so the proof that f(x) ≥ 0 made for
    the positive f was replayed for the plain one; a user's ``Function`` subclass (its own ``eval``) is code no key
    reads: such a step is not kept at all."""
    y = sp.Symbol("y", real=True)
    attempt = claim_module._proof_attempt
    positive, plain = sp.Function("f", positive=True), sp.Function("f")
    assert attempt(positive(y), ">=", sp.S.Zero, {y: sp.Interval(0, 1)})[0] is not None
    disk_cache._memory.clear()  # as a new process starts
    assert attempt(plain(y), ">=", sp.S.Zero, {y: sp.Interval(0, 1)})[0] is None
    assert cache_keys.canonical(positive(y)) != cache_keys.canonical(plain(y))
    assert cache_keys.canonical(plain(y)) == cache_keys.canonical(sp.Function("f")(y))

    class h(sp.Function):  # noqa: N801 - a user's function, as SymPy's docs write them
        @classmethod
        def eval(cls, arg):
            return None

    with pytest.raises(cache_keys.NotReadable):
        cache_keys.canonical(h(y))


def test_an_expression_s_kept_form_is_its_own():
    """A key's form of an expression is kept per object (a step's sides are keyed three times): x + 0.5 at 10 digits
    and at 30 (one hash in SymPy) keep forms as different as their precisions, read again as they were, and a new
    object equal to one of them reads the same."""
    x = sp.Symbol("x")
    coarse, fine = x + sp.Float("0.5", 10), x + sp.Float("0.5", 30)
    forms = [cache_keys.canonical(e) for e in (coarse, fine, coarse, fine, x + sp.Float("0.5", 10))]
    assert forms[0] != forms[1] and forms[0] == forms[2] == forms[4] and forms[1] == forms[3]


def test_clear_removes_what_is_in_the_entries_folder_and_replaces_a_damaged_key(cache):
    """A probe: an entry's path that was a folder made ``rdpsym cache --clear`` raise IsADirectoryError, and a damaged
    key turned the cache off for good without a word (``rdpsym cache`` looked normal, --clear kept the key)."""
    P, Q = _exponentials()
    rdpsym.renyi_divergence(P, Q, 2)
    entries = _entry_files(cache)
    entries[0].unlink()
    entries[0].mkdir()
    (cache / "secret").write_bytes(b"short")
    env = {**os.environ, disk_cache.ENVIRONMENT: str(cache)}
    shown = subprocess.run([sys.executable, "-m", "rdpsym", "cache"], env=env, capture_output=True, text=True,
                           check=True).stdout
    assert f"warning: the key {cache / 'secret'} is damaged" in shown
    cleared = json.loads(subprocess.run([sys.executable, "-m", "rdpsym", "cache", "--clear", "--json"], env=env,
                                        capture_output=True, text=True, check=True).stdout)
    assert cleared["removed"] == len(entries) and cleared["entries"] == 0 and cleared["key"] is None
    assert not (cache / "secret").exists()
    disk_cache._memory.clear()
    rdpsym.renyi_divergence(P, Q, 2)  # kept again, under a new key
    assert _entry_files(cache) and len((cache / "secret").read_bytes()) == 32


def test_clear_removes_only_what_rdpsym_wrote(cache):
    """A review: with RDPSYM_CACHE_DIR a folder holding a directory or a file named "secret", ``rdpsym cache --clear``
    deleted it (a "damaged key"); and the drafts a killed writer leaves were never removed."""
    P, Q = _exponentials()
    rdpsym.renyi_divergence(P, Q, 2)
    draft = _entry_files(cache)[0].with_name(".x.entry.123.abcd1234.tmp")
    draft.write_bytes(b"half an entry")
    (cache / ".secret.123.abcd1234").write_bytes(b"half a key")
    (cache / "secret").unlink()
    (cache / "secret").mkdir()
    (cache / "secret" / "notes.txt").write_text("the user's")
    assert disk_cache.describe()["key"].startswith(f"{cache / 'secret'} is not the cache's key")
    assert disk_cache.clear() >= 1
    assert (cache / "secret" / "notes.txt").read_text() == "the user's"  # left as it was
    assert not draft.exists() and not (cache / ".secret.123.abcd1234").exists()
    (cache / "secret" / "notes.txt").unlink()
    (cache / "secret").rmdir()
    (cache / "secret").write_bytes(b"x" * 100)  # longer than a key: not rdpsym's either
    disk_cache.clear()
    assert (cache / "secret").read_bytes() == b"x" * 100


class _Shifted(rdpsym.Continuous):
    """A user's subclass of a law: its methods are not in the code the keys fingerprint."""


def test_a_user_s_own_law_or_record_class_is_not_kept():
    """A review: a law or a dataclass of a user's class was keyed by its class's name, not its code; a redefined
    class (a notebook cell run again) was served the first definition's result -- a published form wrong by a factor
    2 'proved', and across processes a law whose density a subclass changed got the other law's 'checked'."""
    law = _Shifted(sp.exp(-x), x, support=sp.Interval(0, sp.oo))
    with pytest.raises(cache_keys.NotReadable):
        cache_keys.canonical(law)
    record = type("Ref", (), {"__module__": "__main__"})
    with pytest.raises(cache_keys.NotReadable):
        cache_keys.canonical(dataclasses.make_dataclass("Ref", [("a", int)], bases=(record,))(1))
    cache_keys.canonical(rdpsym.Continuous(sp.exp(-x), x, support=sp.Interval(0, sp.oo)))  # rdpsym's own: kept


def test_an_argument_too_large_to_print_is_computed_and_refused_as_without_the_cache(cache):
    """A review: an order of 4301 digits made the key's repr raise a raw ValueError (Python's limit on printing an
    integer) before rdpsym's own ceiling could refuse it."""
    P, Q = _exponentials()
    with pytest.raises(rdpsym.ParameterError):
        rdpsym.renyi_divergence(P, Q, sp.Integer(10) ** 4300)


def test_only_closed_forms_are_kept(cache):
    # no closed form: the numeric answer is not kept (a later process may find the closed form).  (D_{1/3} of
    # an Epanechnikov law against N(0, 1), the numeric example here before, is a closed form since Kummer's function
    # has a rule, and its D_∞ since suprema are read at the zeros of the log-ratio's derivative; a raised cosine
    # against a semicircle peaks where π·tan(πx/2) = x/(1 − x²), which no rule solves.)
    P = rdpsym.Continuous((1 + sp.cos(sp.pi * x)) / 2, x, support=sp.Interval(-1, 1))
    Q = rdpsym.Continuous(2 / sp.pi * sp.sqrt(1 - x**2), x, support=sp.Interval(-1, 1))
    d = rdpsym.renyi_divergence(P, Q, sp.oo)
    assert d.status is Status.NUMERIC
    assert not any(b"Derivation" in p.read_bytes() for p in _entry_files(cache))


def test_off_writes_nothing_and_an_unusable_folder_is_no_error(tmp_path, monkeypatch, counted):
    P, Q = _exponentials()
    monkeypatch.setenv(disk_cache.ENVIRONMENT, "off")
    rdpsym.renyi_divergence(P, Q, 2)
    rdpsym.renyi_divergence(P, Q, 2)
    assert len(counted) == 2 and disk_cache.describe()["folder"] is None
    blocked = tmp_path / "a file, not a folder"
    blocked.write_text("")
    monkeypatch.setenv(disk_cache.ENVIRONMENT, str(blocked / "cache"))
    disk_cache._memory.clear()
    assert rdpsym.renyi_divergence(P, Q, 2).status is Status.CHECKED
    disk_cache._memory.clear()


def _derive_in_worker(folder: str) -> str:
    os.environ[disk_cache.ENVIRONMENT] = folder
    P, Q = _exponentials()
    return str(rdpsym.renyi_divergence(P, Q, sp.Rational(5, 2)).result)


def test_concurrent_processes_share_one_folder(cache):
    with ProcessPoolExecutor(4) as pool:
        results = list(pool.map(_derive_in_worker, [str(cache)] * 8))
    assert len(set(results)) == 1
    disk_cache._memory.clear()
    P, Q = _exponentials()
    assert str(rdpsym.renyi_divergence(P, Q, sp.Rational(5, 2)).result) == results[0]
    assert not list(cache.rglob("*.tmp")) and (cache / "secret").stat().st_mode & 0o077 == 0


def test_rdpsym_cache_shows_and_clears(cache):
    P, Q = _exponentials()
    rdpsym.renyi_divergence(P, Q, 2)
    env = {**os.environ, disk_cache.ENVIRONMENT: str(cache)}
    shown = json.loads(subprocess.run([sys.executable, "-m", "rdpsym", "cache", "--json"], env=env,
                                      capture_output=True, text=True, check=True).stdout)
    assert shown["folder"] == str(cache) and shown["entries"] == len(_entry_files(cache)) > 0
    cleared = json.loads(subprocess.run([sys.executable, "-m", "rdpsym", "cache", "--clear", "--json"], env=env,
                                        capture_output=True, text=True, check=True).stdout)
    assert cleared["removed"] == shown["entries"] and cleared["entries"] == 0


def test_rdpsym_cache_refuses_a_cache_folder_that_is_a_file(tmp_path, monkeypatch, capsys):
    """A probe: RDPSYM_CACHE_DIR naming a regular file was shown as an empty folder, and --clear "removed 0 entries",
    with status 0 both times: nothing said that nothing is kept."""
    from rdpsym.cli.main import main

    path = tmp_path / "a-file"
    path.write_text("not a folder")
    monkeypatch.setenv(disk_cache.ENVIRONMENT, str(path))
    for args in (["cache"], ["cache", "--clear"], ["cache", "--json"]):
        assert main(args) == 2
        assert "RDPSYM_CACHE_DIR must be a folder (or off)" in capsys.readouterr().err
    assert path.read_text() == "not a folder"


def _modules_after(code: str) -> set:
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys; print(' '.join(sys.modules))"],
                         capture_output=True, text=True, check=True).stdout
    return set(out.split())


@pytest.mark.parametrize("code", [
    "import rdpsym",
    "import rdpsym; rdpsym.__version__",
    "from rdpsym.cli.main import main\ntry:\n    main(['--version'])\nexcept SystemExit:\n    pass",
    "from rdpsym.cli.main import main\nimport contextlib, io\nwith contextlib.redirect_stdout(io.StringIO()):\n"
    "    try:\n        main(['--help'])\n    except SystemExit:\n        pass",
])
def test_import_version_and_help_load_no_heavy_library(code):
    loaded = _modules_after(code)
    assert not loaded & {"sympy", "mpmath", "flint", "matplotlib"}, sorted(loaded & {"sympy", "mpmath", "flint"})


def test_a_record_renders_though_only_its_own_module_was_imported():
    # str() and .latex() reach rdpsym.render.records through an operation that imports it on first use
    code = ("from rdpsym.laws.mechanisms import gaussian\nd = gaussian(sigma=2).rdp()\n"
            "assert 'proved' in str(d) and 'align' in d.latex()\nprint('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, disk_cache.ENVIRONMENT: "off"})
    assert out.stdout.strip() == "ok", out.stderr


def test_every_public_name_resolves():
    for name in rdpsym.__all__:
        assert getattr(rdpsym, name) is not None, name
    from rdpsym.conversions import best_epsilon  # the public module aliases
    from rdpsym.plots import budget_curves  # noqa: F401

    assert rdpsym.conversions.best_epsilon is best_epsilon
    assert sys.modules["rdpsym.balls"] is sys.modules["rdpsym.foundations.balls"]


@pytest.mark.parametrize("hostile", ["fifo", "link to /dev/zero", "folder"])
def test_an_entry_that_is_not_a_regular_file_is_ignored_without_blocking(cache, counted, hostile, watchdog):
    P, Q = _exponentials()
    rdpsym.renyi_divergence(P, Q, 2)
    entry = _derivation_entry(cache)
    entry.unlink()
    if hostile == "fifo":
        os.mkfifo(entry)
    elif hostile == "link to /dev/zero":
        entry.symlink_to("/dev/zero")
    else:
        entry.mkdir()
    disk_cache._memory.clear()
    with watchdog(60, "reading the cache"):
        assert rdpsym.renyi_divergence(P, Q, 2).status is Status.CHECKED
    assert len(counted) == 2


def test_a_subpackages_modules_are_attributes_after_a_bare_import():
    # The README's rdpsym.accounting.curve.clear_cache(), rdpsym.claims.Claim: reached by attribute from
    # `import rdpsym` alone, in a process that has imported nothing else.
    code = ("import rdpsym\nrdpsym.accounting.curve.clear_cache()\nprint(rdpsym.claims.Claim.__name__, "
            "rdpsym.accounting.sampled_gaussian.trapezoid.__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.split() == ["Claim", "rdpsym.accounting.sampled_gaussian.trapezoid"], out.stderr


# --- a claim's proof attempt -------------------------------------------------------------------------------

def _square_claim():
    from rdpsym.claims import AtMost, Claim, Domain, Verdict

    a = sp.Symbol("alpha")
    return Claim("square", "α ≤ α²", "test", r"\alpha \le \alpha^2", (AtMost(a, a**2, "α ≥ 1"),), Verdict.PROVED,
                 Domain({a: sp.Interval(1, sp.oo)}))


def test_a_proof_is_replayed_and_the_numeric_check_runs_again(cache, monkeypatch):
    from rdpsym.claims import claim as claim_module
    from rdpsym.claims import prover
    from rdpsym.claims.runner import check

    first = check([_square_claim()], timeout=None).results[0]
    assert first.status is Status.PROVED
    proofs, sampled = [], []
    monkeypatch.setattr(prover, "prove_nonnegative", lambda *a, **k: proofs.append(a))
    at = claim_module._at
    monkeypatch.setattr(claim_module, "_at", lambda *a: sampled.append(a) or at(*a))
    again = check([_square_claim()], timeout=None).results[0]
    assert proofs == [] and len(sampled) > 10, (len(proofs), len(sampled))  # replayed proof, points checked anew
    assert again.status is Status.PROVED and again.steps[0].evidence == first.steps[0].evidence


def test_a_proof_attempt_cut_short_by_its_time_is_not_kept(cache, monkeypatch):
    # "no proof" because a step ran out of time is the clock's answer, not the rules': it is not replayed
    from rdpsym.claims import prover
    from rdpsym.claims.runner import check
    from rdpsym.foundations.errors import NoClosedFormError

    def out_of_time(*args, **kwargs):
        raise NoClosedFormError("proof step: out of time")

    with monkeypatch.context() as m:
        m.setattr(prover, "budgeted", out_of_time)
        m.setattr(prover, "prove_nonnegative", lambda e, depth=6: prover._try(lambda: e))
        assert check([_square_claim()], timeout=None).results[0].status is Status.CHECKED
    assert check([_square_claim()], timeout=None).results[0].status is Status.PROVED


# -- the derivations shipped in the wheel (build_support/shipping_backend.py runs rdpsym.cli.shipping) ------------

def _d2_of_the_exponentials():
    P, Q = _exponentials()
    return rdpsym.renyi_divergence(P, Q, 2)


@pytest.fixture
def shipped(tmp_path, monkeypatch):
    """A shipment of what D₂ of the exponential pair derives, read from ``disk_cache.SHIPPED`` as a wheel's is,
    with the user's folder empty and nothing in memory."""
    folder = tmp_path / "shipped"
    monkeypatch.setenv(disk_cache.ENVIRONMENT, str(tmp_path / "user"))
    assert disk_cache.ship(_d2_of_the_exponentials, folder) > 0
    assert not (tmp_path / "user").exists(), "the user's folder was written while shipping"
    monkeypatch.setattr(disk_cache, "SHIPPED", folder)
    disk_cache._shipped.cache_clear()
    disk_cache._memory.clear()
    yield folder
    disk_cache._shipped.cache_clear()
    disk_cache._memory.clear()


def _shipped_derivation(folder: Path) -> Path:
    found = [p for p in folder.glob("*.entry") if b"Derivation" in p.read_bytes()]
    assert len(found) == 1, found
    return found[0]


def _set_index(folder: Path, **fields) -> None:
    index = json.loads((folder / "index.json").read_text())
    index.update(fields)
    (folder / "index.json").write_text(json.dumps(index))
    disk_cache._shipped.cache_clear()


def test_a_shipped_derivation_is_read_and_not_derived_again(shipped, counted, tmp_path):
    d = _d2_of_the_exponentials()
    assert not counted, "derived although the wheel shipped it"
    assert d.status is Status.CHECKED and not _entry_files(tmp_path / "user"), "a shipped entry was copied"
    assert disk_cache.describe()["shipped"] == len(list(shipped.glob("*.entry")))


def test_a_damaged_user_entry_falls_back_to_the_shipped_one(shipped, counted, tmp_path):
    disk_cache._shipped.cache_clear()
    with pytest.MonkeyPatch.context() as m:  # the user's own entry, made with no shipment there
        m.setattr(disk_cache, "SHIPPED", tmp_path / "none")
        _d2_of_the_exponentials()
    assert len(counted) == 1
    entry = _derivation_entry(tmp_path / "user")
    entry.write_bytes(entry.read_bytes()[:-40])
    disk_cache._shipped.cache_clear()
    disk_cache._memory.clear()
    assert _d2_of_the_exponentials().status is Status.CHECKED and len(counted) == 1, "not read from the shipment"


def test_a_damaged_shipped_entry_is_derived_again(shipped, counted):
    entry = _shipped_derivation(shipped)
    data = entry.read_bytes()
    entry.write_bytes(data[:-40] + bytes([data[-40] ^ 1]) + data[-39:])
    assert _d2_of_the_exponentials().status is Status.CHECKED and len(counted) == 1


@pytest.mark.parametrize("other", ["libraries", "code", "format"])
def test_a_shipment_of_other_libraries_code_or_format_is_not_read(shipped, counted, other):
    if other == "libraries":
        _set_index(shipped, fingerprint="0" * 64, libraries="sympy 0.0 mpmath 0.0 flint 0.0 cpython 3.0")
        said = "not used: derived with sympy 0.0 mpmath 0.0 flint 0.0 cpython 3.0; this installation has sympy "
    elif other == "code":
        _set_index(shipped, fingerprint="0" * 64)
        said = "not used: derived from other rdpsym code"
    else:
        _set_index(shipped, format=disk_cache.FORMAT + 1)
        said = "not read: its index is not one this version writes"
    _d2_of_the_exponentials()
    assert len(counted) == 1
    state = disk_cache.describe()
    assert state["shipped"] == 0 and state["shipped_note"].startswith(said)


def test_a_forged_shipped_entry_whose_index_matches_still_runs_no_code(shipped, counted, tmp_path):
    """Behind the index (which ships with the code, as trusted as it), the value is still rebuilt by the
    unpickler that builds only rdpsym's result types."""
    marker = tmp_path / "ran"
    payload = pickle.dumps(_Payload(os.system, f"touch {marker}"))
    entry = _shipped_derivation(shipped)
    entry.write_bytes(payload)
    index = json.loads((shipped / "index.json").read_text())
    _set_index(shipped, entries={**index["entries"], entry.stem: hashlib.sha256(payload).hexdigest()})
    assert _d2_of_the_exponentials().status is Status.CHECKED
    assert not marker.exists() and len(counted) == 1


def test_off_reads_no_shipped_entry(shipped, counted, monkeypatch):
    monkeypatch.setenv(disk_cache.ENVIRONMENT, "off")
    _d2_of_the_exponentials()
    assert len(counted) == 1 and disk_cache.describe()["shipped_note"] == "off"


def test_shipping_again_where_a_shipment_is_read_derives_it_all_again(shipped, counted):
    """A second wheel built in the same tree found the first one's shipment, read it, derived nothing and shipped
    0 entries (a review): shipping reads no shipment, and replaces the one in its folder."""
    before = json.loads((shipped / "index.json").read_text())["entries"]
    assert disk_cache.ship(_d2_of_the_exponentials, shipped) == len(before)
    assert len(counted) == 1 and json.loads((shipped / "index.json").read_text())["entries"] == before


def test_shipping_refuses_a_folder_of_other_files_before_any_work(tmp_path, counted):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(OSError, match="not a shipment"):
        disk_cache.ship(_d2_of_the_exponentials, tmp_path)
    assert not counted and (tmp_path / "notes.txt").read_text() == "mine"


def test_the_wheels_workload_ships_every_builtins_derivations(tmp_path):
    """What the wheel's build runs (the catalogue's claims apart: the next tests): every built-in has example
    values, and each entry written has the digest the index gives it."""
    assert set(EXAMPLES) == set(REGISTRY)
    folder = tmp_path / "shipped"
    env = {**os.environ, disk_cache.ENVIRONMENT: str(tmp_path / "user")}
    out = subprocess.run([sys.executable, "-m", "rdpsym.cli.shipping", str(folder), "--no-claims"], env=env,
                         capture_output=True, text=True, check=True).stdout
    index = json.loads((folder / "index.json").read_text())
    # (19 entries: the curves' "identically zero" checks are settled by a value before the cache is asked)
    assert out.startswith(f"shipped {len(index['entries'])} derivations") and len(index["entries"]) >= len(REGISTRY)
    for key, digest in index["entries"].items():
        assert hashlib.sha256((folder / f"{key}.entry").read_bytes()).hexdigest() == digest
    assert not (tmp_path / "user").exists(), "the user's folder was written while shipping"


_CLAIM_FILE = """
import sympy as sp
from rdpsym.claims import Claim, Domain, Equal, Verdict, symbolic
h = sp.Symbol("h", positive=True)
CLAIM = Claim("kept-limit", "sin h / h -> 1", "test", r"1", (
    Equal(lambda: symbolic.limit(sp.sin(h) / h, h, 0), sp.S.One, "SymPy's limit"),
    Equal(h + h, {right}, "an identity"),
), Verdict.PROVED, Domain({{h: sp.Interval.open(0, 1)}}))
"""


def test_a_claims_sympy_steps_and_proofs_are_shipped_and_read_back_and_its_points_checked_again(tmp_path, cache,
                                                                                             monkeypatch):
    """The claims' part of the build's workload: a claim's SymPy limit and its proof attempt are kept and shipped;
    a fresh installation reads them back instead of taking them again, and still checks every point in balls."""
    claim_file = tmp_path / "claims" / "kept.py"
    claim_file.parent.mkdir()
    claim_file.write_text(_CLAIM_FILE.format(right="2 * h"))
    shipped = tmp_path / "shipped"
    # the limit and each step's proof (neither step has a function with poles: no singular-value search is kept)
    assert disk_cache.ship(lambda: claims_workload([claim_file]), shipped) == 3
    monkeypatch.setattr(disk_cache, "SHIPPED", shipped)
    disk_cache._shipped.cache_clear()
    taken = []
    monkeypatch.setattr(sp, "limit", lambda *args: taken.append(args) or sp.S.One)
    monkeypatch.setattr(claim_module, "_prove_now", lambda *args: taken.append(args))
    numeric = []
    real_check = claim_module._check_numeric
    monkeypatch.setattr(claim_module, "_check_numeric", lambda *a, **k: numeric.append(a) or real_check(*a, **k))
    report = runner.run([claim_file], timeout=None)
    assert report.ok and report.results[0].verdict is Status.PROVED
    assert taken == [], "the shipped limit or a shipped proof was taken again"
    assert len(numeric) == 2, "every step's points are checked again"


def test_a_shipped_claim_that_misses_its_status_fails_the_build(tmp_path, cache):
    claim_file = tmp_path / "wrong.py"
    claim_file.write_text(_CLAIM_FILE.format(right="3 * h"))
    with pytest.raises(RuntimeError, match="did not all reach their expected status"):
        disk_cache.ship(lambda: claims_workload([claim_file]), tmp_path / "shipped")


@pytest.mark.parametrize("given", ["{tmp}/a-file/sub/folder", "{tmp}/a-file"])
def test_the_shipping_command_refuses_a_folder_it_cannot_make_before_any_work(tmp_path, given):
    (tmp_path / "a-file").write_text("")
    done = subprocess.run([sys.executable, "-m", "rdpsym.cli.shipping", given.format(tmp=tmp_path)],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "FOLDER must be a folder" in done.stderr and not done.stdout


def test_the_shipping_command_refuses_a_claim_path_that_does_not_exist_before_any_work(tmp_path):
    done = subprocess.run([sys.executable, "-m", "rdpsym.cli.shipping", str(tmp_path / "out"), "--claims",
                           str(tmp_path / "no such file.py")], capture_output=True, text=True)
    assert done.returncode == 2 and "--claims must be a claim file or folder that exists" in done.stderr
    assert "no such file.py" in done.stderr and not done.stdout


def test_the_build_asks_for_the_deriving_libraries_by_their_normalised_names():
    spec = importlib.util.spec_from_file_location("shipping_backend", ROOT / "build_support" / "shipping_backend.py")
    backend = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(backend)
    assert [backend._name(r) for r in ("sympy>=1.13,<1.15", "Lazy_Loader >= 0.4", "python.flint~=0.6",
                                       'gmpy2[x]>=2; python_version>"3"')] == \
        ["sympy", "lazy-loader", "python-flint", "gmpy2"]
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    assert {backend._name(d) for d in dependencies} >= backend.DERIVING, "a deriving library is not a dependency"
