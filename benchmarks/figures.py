"""The figures a benchmark writes into the documentation: one file per benchmark under
``docs/evaluation/figures/``, holding the table row the evaluation page includes (with
``pymdownx.snippets``), dated, with the command that produced it. The figure lives in that file
only, so the page and the benchmark cannot disagree; ``--no-docs`` on a benchmark leaves it.
Also what the timing benchmarks share: :func:`one_core`."""

from __future__ import annotations

import datetime
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIGURES = ROOT / "docs" / "evaluation" / "figures"


def write_row(name: str, what: str, figure: str, command: str) -> Path:
    """Write the evaluation table's row ``| what | figure |`` for benchmark ``name`` (the file
    ``docs/evaluation/figures/<name>.md``), stamped with today's date and ``command``. Cells
    must not hold a line break or a ``|``. Returns the file written."""
    for cell in (what, figure, command):
        if "\n" in cell or "|" in cell:
            raise ValueError(f"a table cell cannot hold a line break or '|': {cell!r}")
    FIGURES.mkdir(parents=True, exist_ok=True)
    path = FIGURES / f"{name}.md"
    today = datetime.date.today().isoformat()
    path.write_text(f"| {what} (`{command}`, {today}) | {figure} |\n", encoding="utf-8")
    return path


def shown(folder: Path) -> str:
    """``folder`` as a figure's command names it: relative to the folder above the project
    (``../shared/data/dev``), or by its name when it lies elsewhere."""
    try:
        return f"../{folder.resolve().relative_to(ROOT.parent)}"
    except ValueError:
        return folder.name


def one_core() -> None:
    """Pin this process to the first core it may run on (where the system allows it), so that a
    benchmark measures one core whatever else the machine runs."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
