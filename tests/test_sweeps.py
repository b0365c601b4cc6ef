"""Sweeps on executors: results identical to the serial run (values, bits and order), on a process pool and on a
local Dask cluster (LocalCluster, processes, 2 workers)."""

from __future__ import annotations

import json
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from fractions import Fraction

import pytest

import rdpsym
from rdpsym.accounting.reference import reference_rows, write_reference
from rdpsym.cli.main import main
from rdpsym.foundations.errors import ParameterError
from rdpsym.foundations.parallel import executor_from, ordered_map


def _fails_on_three(x):
    if x == 3:
        raise ValueError("three")
    return x * x


def test_ordered_map_keeps_order_on_every_executor():
    items = list(range(12))
    expected = [x * x for x in items]
    assert ordered_map(_square, items) == expected
    assert ordered_map(_square, items, 1) == expected
    assert ordered_map(_square, items, 2) == expected
    with ThreadPoolExecutor(3) as pool:
        assert ordered_map(_square, items, pool) == expected
    with ProcessPoolExecutor(2) as pool:
        assert ordered_map(_square, items, pool) == expected
    assert ordered_map(_square, items, map=map) == expected
    assert ordered_map(_square, [], 2) == []


def _square(x):
    return x * x


def test_ordered_map_raises_the_first_failure_in_input_order():
    with pytest.raises(ValueError, match="three"):
        ordered_map(_fails_on_three, range(6), 2)


@pytest.mark.parametrize(("executor", "message"), [
    (0, "executor must be None, a number of workers >= 1"), (True, "executor must be None, a number"),
    ("pool", "executor must be None, a number of workers"), (10**6, "executor must be an integer from 1 to 256"),
])
def test_bad_executors_are_refused(executor, message):
    with pytest.raises(ParameterError, match=message):
        ordered_map(_square, [1, 2], executor)


def test_executor_from_options():
    with executor_from(None) as ex:
        assert ex is None
    with executor_from("1") as ex:
        assert ex is None
    with pytest.raises(ParameterError, match="--workers and --scheduler must be one or the other"):
        with executor_from(2, "tcp://127.0.0.1:8786"):
            pass
    with pytest.raises(ParameterError, match="--workers must be an integer >= 1"):
        with executor_from("two"):
            pass


def test_reference_on_a_process_pool_is_the_serial_table(tmp_path):
    serial = reference_rows(dps=25, quick=True)
    pooled = reference_rows(dps=25, quick=True, executor=2)
    assert pooled == serial
    a, b = tmp_path / "a", tmp_path / "b"
    write_reference(a, dps=25, quick=True)
    assert main(["reference", "--out", str(b), "--dps", "25", "--quick", "--workers", "2"]) == 0
    assert (a / "rdpsym_reference.json").read_bytes() == (b / "rdpsym_reference.json").read_bytes()
    assert (a / "rdpsym_reference.csv").read_bytes() == (b / "rdpsym_reference.csv").read_bytes()


def test_cli_refuses_bad_sweep_options_before_any_work(tmp_path, capsys):
    out = tmp_path / "never"
    assert main(["reference", "--out", str(out), "--quick", "--workers", "0"]) == 2
    assert "--workers must be an integer >= 1" in capsys.readouterr().err and not out.exists()
    assert main(["reference", "--out", str(out), "--quick", "--workers", "2", "--scheduler", "tcp://x:1"]) == 2
    assert "one or the other" in capsys.readouterr().err and not out.exists()


@pytest.fixture(scope="module")
def dask_cluster():
    distributed = pytest.importorskip("dask.distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    try:
        yield cluster
    finally:
        cluster.close()


@pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::ResourceWarning", "ignore::UserWarning")
def test_reference_and_calibration_on_a_local_dask_cluster(dask_cluster, tmp_path, capsys):
    distributed = pytest.importorskip("dask.distributed")
    serial_rows = reference_rows(dps=25, quick=True)
    requests = [{"family": "sampled-gaussian", "epsilon": e, "delta": Fraction(1, 10**5), "fixed": {"q": "0.01"},
                 "steps": 100, "dps": 15} for e in (1, 3)]
    serial_cal = rdpsym.calibrate_many(requests)
    with distributed.Client(dask_cluster) as client:
        assert reference_rows(dps=25, quick=True, executor=client) == serial_rows
        assert reference_rows(dps=25, quick=True, executor=client.get_executor()) == serial_rows
        assert rdpsym.calibrate_many(requests, executor=client) == serial_cal
    # The command line reaches the cluster by its address.
    address = dask_cluster.scheduler_address
    assert main(["reference", "--out", str(tmp_path), "--dps", "25", "--quick", "--scheduler", address]) == 0
    rows = json.loads((tmp_path / "rdpsym_reference.json").read_text())["rows"]
    assert rows == json.loads(json.dumps(serial_rows))
    capsys.readouterr()
    assert main(["calibrate", "--mechanism", "sampled-gaussian", "--set", "q=0.01", "--steps", "100",
                 "--epsilon", "1,3", "--delta", "1e-5", "--dps", "15", "--scheduler", address]) == 0
    shown = capsys.readouterr().out
    for c in serial_cal:
        assert f"(exactly {c.value})" in shown


def _kills_its_dask_worker_once(task):
    """Ends its worker process the first time it runs (a marker file remembers), as a lost worker would."""
    import os
    import signal
    from pathlib import Path

    x, marker = task
    if x == 2 and not Path(marker).exists():
        Path(marker).write_text("lost")
        os.kill(os.getpid(), signal.SIGKILL)
    return x * x


@pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::ResourceWarning", "ignore::UserWarning")
def test_a_lost_dask_worker_is_retried_by_dask_and_a_lost_cluster_is_a_clear_error(dask_cluster, tmp_path):
    """Issue 25: a LocalCluster worker lost mid-run (loopback only): Dask reruns its pure task elsewhere
    (``retries``), and the result is the serial one; a client whose cluster is gone is an rdpsym error."""
    distributed = pytest.importorskip("dask.distributed")
    from rdpsym.foundations.parallel import LostWorkers

    marker = str(tmp_path / "marker")
    with distributed.Client(dask_cluster) as client:
        assert ordered_map(_kills_its_dask_worker_once, [(x, marker) for x in range(5)], client) == [0, 1, 4, 9, 16]
    assert (tmp_path / "marker").exists()
    client = distributed.Client(dask_cluster)
    client.close()
    with pytest.raises(LostWorkers, match="could not be sent to the cluster"):
        ordered_map(_square, [1, 2], client)
