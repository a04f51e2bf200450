#!/usr/bin/env python3
"""Execute every notebook of ``notebooks/`` (what ``python3 dev.py notebooks`` runs).

    python notebooks/run_notebooks.py             # each notebook at its own budget
    python notebooks/run_notebooks.py --quick     # the test suite's tiny budgets (a minute or two)
    python notebooks/run_notebooks.py 02_training --out /tmp/nb

The committed notebooks stay as they are (stored without outputs); the executed copies,
and anything the notebooks write, go to ``--out`` (default: the repository's
``results/notebooks/``, ignored by git).  A notebook whose cell raises is reported with
the error and the run goes on; the exit status is 1 if any failed.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

#: the test suite's budgets (tests/test_notebooks.py), for --quick
QUICK = {"CARDENVS_NB_STEPS": "1024", "CARDENVS_NB_GAMES": "4", "CARDENVS_NB_TURNS": "2",
         "CARDENVS_NB_WORKERS": "1"}


def kernel_name() -> str:
    """``python3``, installing this interpreter's kernelspec into the user's Jupyter path if missing."""
    from jupyter_client.kernelspec import KernelSpecManager

    if "python3" not in KernelSpecManager().find_kernel_specs():
        from ipykernel.kernelspec import install

        install(prefix=sys.prefix, kernel_name="python3")
    return "python3"


def run(path: Path, out: Path, timeout: int) -> tuple[bool, float, str]:
    """Execute one notebook; write the executed copy to ``out``; (ok, seconds, error)."""
    import nbclient
    import nbformat

    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, kernel_name=kernel_name(), timeout=timeout,
                                     resources={"metadata": {"path": str(out)}})
    start = time.perf_counter()
    error = ""
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as err:
        error = str(err).strip().splitlines()[-1] if str(err).strip() else type(err).__name__
    except Exception as err:  # a kernel that died, a timeout
        error = f"{type(err).__name__}: {err}"
    seconds = time.perf_counter() - start
    nbformat.write(nb, out / path.name)
    return not error, seconds, error


def main(argv: list[str] | None = None) -> int:
    from agents.cli import HelpFormatter

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=HelpFormatter)
    ap.add_argument("names", nargs="*", help="notebooks to run, e.g. 02_training (default: all)")
    ap.add_argument("--quick", action="store_true", help="the test suite's tiny budgets")
    ap.add_argument("--out", default=str(ROOT / "results" / "notebooks"),
                    help="folder for the executed copies and what the notebooks write")
    ap.add_argument("--timeout", type=int, default=3600, help="seconds per cell")
    args = ap.parse_args(argv)
    books = sorted(HERE.glob("*.ipynb"))
    if args.names:
        wanted = {n.removesuffix(".ipynb") for n in args.names}
        unknown = wanted - {b.stem for b in books}
        if unknown:
            names = ", ".join(b.stem for b in books)
            ap.error(f"no notebook {', '.join(sorted(unknown))}; there are {names}")
        books = [b for b in books if b.stem in wanted]
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    os.environ["CARDENVS_NB_OUT"] = str(out / "outputs")
    os.environ.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    if args.quick:
        os.environ.update(QUICK)
        os.environ["TQDM_DISABLE"] = "1"
    failed = 0
    for book in books:
        print(f"{book.name}: running...", flush=True)
        ok, seconds, error = run(book, out, args.timeout)
        failed += not ok
        print(f"{book.name}: {'ok' if ok else 'FAILED: ' + error} ({seconds:.0f} s) -> {out / book.name}",
              flush=True)
    print(f"{len(books) - failed} of {len(books)} notebooks ran; executed copies in {out}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
