"""Execute every research notebook in ``notebooks/`` with nbclient, on tiny budgets.

Each notebook runs in a fresh temporary working directory (anything it writes lands
there, never in the repository), with its budget set through environment variables:
``CARDENVS_NB_STEPS`` (training steps), ``CARDENVS_NB_GAMES`` (games per pairing or
evaluation), ``CARDENVS_NB_TURNS`` (coach turns shown), ``CARDENVS_NB_WORKERS``.
The committed notebooks must also be stored with their outputs stripped.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK_DIR = ROOT / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))

#: modules each notebook needs beyond the dev extra (skipped cleanly when absent)
NEEDS: dict[str, tuple[str, ...]] = {
    "02_training.ipynb": ("torch", "sb3_contrib"),
}

#: a line each notebook prints once it has done its job
EXPECT: dict[str, str] = {
    "01_quickstart.ipynb": "LineView(",
    "02_training.ipynb": "trained policy vs greedy",
    "03_benchmarking_opponents.ipynb": "expert vs random",
    "04_coach.ipynb": "winner:",
}

BUDGET = {
    "CARDENVS_NB_STEPS": "1024",
    "CARDENVS_NB_GAMES": "4",
    "CARDENVS_NB_TURNS": "2",
    "CARDENVS_NB_WORKERS": "1",
}


def _kernel_name(tmp_path_factory: pytest.TempPathFactory) -> str:
    """``python3``, installing a kernelspec for this interpreter if none is found."""
    from jupyter_client.kernelspec import KernelSpecManager

    if "python3" in KernelSpecManager().find_kernel_specs():
        return "python3"
    from ipykernel.kernelspec import install

    prefix = tmp_path_factory.mktemp("kernel")
    install(prefix=str(prefix), kernel_name="python3")
    os.environ["JUPYTER_PATH"] = os.pathsep.join(
        p for p in (str(prefix / "share" / "jupyter"), os.environ.get("JUPYTER_PATH")) if p
    )
    return "python3"


@pytest.fixture(scope="module")
def kernel_name(tmp_path_factory: pytest.TempPathFactory) -> str:
    return _kernel_name(tmp_path_factory)


def test_notebooks_exist() -> None:
    names = {p.name for p in NOTEBOOKS}
    assert {"01_quickstart.ipynb", "02_training.ipynb", "03_benchmarking_opponents.ipynb",
            "04_coach.ipynb"} <= names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_stored_without_outputs(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            assert cell.outputs == [], f"{path.name} cell {i} has stored outputs"
            assert cell.execution_count is None, f"{path.name} cell {i} has an execution count"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path: Path, kernel_name: str, tmp_path: Path,
                       monkeypatch: pytest.MonkeyPatch) -> None:
    for module in NEEDS.get(path.name, ()):
        pytest.importorskip(module)
    for key, value in BUDGET.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("CARDENVS_NB_OUT", str(tmp_path / "results"))
    # the kernel imports the working tree even where the package is not installed
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p))
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    monkeypatch.setenv("TQDM_DISABLE", "1")
    before = sorted(NOTEBOOK_DIR.iterdir())
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        nb,
        kernel_name=kernel_name,
        timeout=300,
        resources={"metadata": {"path": str(tmp_path)}},
    )
    start = time.perf_counter()
    client.execute()
    seconds = time.perf_counter() - start
    errors = [
        out for cell in nb.cells if cell.cell_type == "code"
        for out in cell.outputs if out.get("output_type") == "error"
    ]
    assert not errors
    printed = "".join(out.get("text", "") for cell in nb.cells if cell.cell_type == "code"
                      for out in cell.outputs if out.get("output_type") == "stream")
    assert EXPECT.get(path.name, "") in printed
    # nothing was written into the repository's notebooks folder
    assert sorted(NOTEBOOK_DIR.iterdir()) == before
    print(f"{path.name}: {seconds:.1f} s on {sys.platform}")
