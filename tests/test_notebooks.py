"""The notebooks in notebooks/: they run, their .ipynb and .py forms agree, and none is committed with outputs.

Each notebook is executed headless by nbclient on a ``python3`` kernel that runs on the interpreter
running these tests (``sys.executable``): the kernelspec is ipykernel's own, built in-process, so a
user-level ``python3`` kernelspec pointing at another environment cannot be picked up instead.
:func:`test_notebook_runs` checks it by asking the kernel for its ``sys.prefix``.

The .py files (jupytext percent format) are the reviewable source; the .ipynb files are what Jupyter
opens.  ``jupytext --sync notebooks/*.py`` (or Jupyter with jupytext) keeps the pairs in step.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

# jupyter_core < 5.8 warns at import (DeprecationWarning, an error under filterwarnings = error) unless
# this opt-in to platformdirs, its future default, is set.  Set before anything imports jupyter_core.
os.environ.setdefault("JUPYTER_PLATFORM_DIRS", "1")

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
jupytext = pytest.importorskip("jupytext")
ipykernel_kernelspec = pytest.importorskip("ipykernel.kernelspec")
from jupyter_client.kernelspec import KernelSpec, KernelSpecManager  # noqa: E402 - after the skips
from jupyter_client.manager import AsyncKernelManager  # noqa: E402
from traitlets import default  # noqa: E402

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"

EXPECTED = [
    "01_definitions_and_table1",
    "02_table2_derived_live",
    "03_budget_curves",
    "04_composition_and_conversion",
    "05_dpsgd_accounting",
    "06_your_own_mechanism_and_claim",
]

#: Generous per-cell limit: the whole set runs in about a minute.
CELL_TIMEOUT = 300


class ThisPythonSpecs(KernelSpecManager):
    """Every kernel name is ipykernel on ``sys.executable`` (ipykernel's native spec, made in-process)."""

    def get_kernel_spec(self, kernel_name):
        return KernelSpec(resource_dir=ipykernel_kernelspec.RESOURCES, **ipykernel_kernelspec.get_kernel_dict())


class ThisPythonKernelManager(AsyncKernelManager):
    """nbclient's kernel manager, with the kernelspec above (nbclient still owns it and cleans it up)."""

    @default("kernel_spec_manager")
    def _kernel_spec_manager_default(self):
        return ThisPythonSpecs()


def test_the_six_notebooks_exist_in_order():
    assert sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb")) == EXPECTED
    assert sorted(p.stem for p in NOTEBOOKS.glob("[0-9][0-9]_*.py")) == EXPECTED
    assert 'formats = "ipynb,py:percent"' in (NOTEBOOKS / "jupytext.toml").read_text()


@pytest.mark.parametrize("name", EXPECTED)
def test_pair_holds_the_same_cells_and_no_outputs(name):
    ipynb, py = NOTEBOOKS / f"{name}.ipynb", NOTEBOOKS / f"{name}.py"
    from_ipynb, from_py = jupytext.read(ipynb), jupytext.read(py)
    assert [(c.cell_type, c.source) for c in from_ipynb.cells] == [(c.cell_type, c.source) for c in from_py.cells], (
        f"{ipynb.name} and {py.name} differ: run `jupytext --sync notebooks/{py.name}`")

    raw = nbformat.read(ipynb, as_version=4)
    nbformat.validate(raw)
    assert raw.metadata.kernelspec.name == "python3"
    for i, cell in enumerate(raw.cells):
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, (
                f"{ipynb.name}, cell {i} has outputs: clear them (e.g. `jupytext --to ipynb notebooks/{py.name}`)")


@pytest.mark.parametrize("name", EXPECTED)
def test_notebook_runs(name):
    nb = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    # One extra cell, on the in-memory copy only: which environment does the kernel run in?
    nb.cells.append(nbformat.v4.new_code_cell("import sys; print(sys.prefix, end='')"))
    client = nbclient.NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name="python3",
                                     kernel_manager_class=ThisPythonKernelManager,
                                     resources={"metadata": {"path": str(NOTEBOOKS)}})
    started = time.perf_counter()
    client.execute()  # raises CellExecutionError, naming the cell, on any error
    seconds = time.perf_counter() - started
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors
    assert nb.cells[-1].outputs[0].text == sys.prefix, "the kernel is not this test's Python environment"
    print(f"{name}: {seconds:.1f} s")
