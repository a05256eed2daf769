"""The command line's batch: several PDFs redacted at once, one process per file, with a progress
bar for the files and one for the pages (tqdm, MPL-2.0/MIT).

A file's pages are read by :func:`~policy.batch.redact_file` in its own process, so a batch uses
``jobs`` cores; a scanned file's pages are read by OCR ``ocr_parallel`` at a time inside that
process (:class:`~redactor.read.ocr.TesseractOcr`'s ``parallel``, one single-threaded Tesseract
each): ``jobs × ocr_parallel`` should not exceed the cores, and :func:`plan` divides them so.
The lines printed and the files written are those of one file at a time, in the order given.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from redactor import AgencyProfile, CategoryMap, JobProgress, ProgressReport, Step, text_export

#: A worker's progress message: (file index, pages done, pages in all).
Progress = tuple[int, int, int]


@dataclass
class FileLine:
    """What the command prints for one file: ``ok``, the message, the written PDF and, with
    ``--report``, the parties and proposals as lines."""

    index: int
    name: str
    ok: bool
    message: str
    pdf_path: Path | None = None
    report: list[str] = field(default_factory=list)
    #: Values still legible in the written PDF that nobody decided (review items of its report).
    review_needed: int = 0


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity; the machine's count elsewhere). The
    settings' default of ``REDACTOR_OCR_PARALLEL`` counts them the same way (``config.env``, which
    the apps do not import)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def plan(files: int, jobs: int | None, cores: int | None = None) -> tuple[int, int]:
    """``(processes, OCR pages at once in each)`` for ``files`` files: ``jobs`` processes (default:
    the usable cores), never more than the files, and the cores left over for each file's OCR.
    Raises ``ValueError`` for ``jobs`` below 1."""
    cores = cores or usable_cores()
    if jobs is not None and jobs < 1:
        raise ValueError("--jobs must be 1 or more")
    processes = max(1, min(jobs or cores, files))
    return processes, max(1, cores // processes)


class Channel(Protocol):
    """Where a worker reports its progress (a multiprocessing queue, or the bars themselves)."""

    def put(self, item: Progress) -> None: ...


_progress: Channel | None = None  # the worker's channel to the progress bars


def _start_worker(ocr_parallel: int, progress: Channel | None) -> None:
    """A worker process's set-up: its engine reads ``ocr_parallel`` OCR pages at once."""
    global _progress
    from django.conf import settings  # noqa: PLC0415 - in the worker, after Django's set-up

    settings.REDACTOR_OCR_PARALLEL = ocr_parallel
    _progress = progress


def redact_one(
    index: int,
    name: str,
    out_dir: Path,
    category_map: CategoryMap | None,
    profile: AgencyProfile | None,
    max_bytes: int | None,
    report: bool,
    channel: Channel | None = None,
    text_exports: tuple[text_export.ExportMode, ...] = (),
) -> FileLine:
    """Redact one file as :func:`~policy.batch.redact_file` does (in this process, with its
    ``text_exports``), telling the progress bars after each page (through ``channel``, by default
    the worker's); the lines the command prints for it."""
    from policy.batch import redact_file  # noqa: PLC0415 - Django is set up by then
    from policy.runtime import get_engine  # noqa: PLC0415

    channel = channel or _progress

    def progress(report: ProgressReport) -> None:
        if channel is not None and report.step == Step.READING and report.done:  # the bars count pages read
            channel.put((index, report.done, report.total))

    outcome = redact_file(
        get_engine(),
        Path(name),
        out_dir,
        category_map=category_map,
        profile=profile,
        max_bytes=max_bytes,
        progress=JobProgress(report=progress),
        text_exports=text_exports,
    )
    lines: list[str] = []
    if report and outcome.analysis is not None:
        for party in outcome.analysis.parties:
            lines.append(f"    party {party.index}: {party.kind.value} {party.label!r} {party.name!r}")
        for p in [*outcome.analysis.proposals, *outcome.review_needed]:
            lines.append(f"    {p.action.value:<6} p.{p.page} [{p.category} {p.category_name}] {p.text!r}: {p.reason}")
    return FileLine(index, name, outcome.ok, outcome.message, outcome.pdf_path, lines, len(outcome.review_needed))


def redact_batch(
    names: list[str],
    out_dir: Path,
    *,
    category_map: CategoryMap | None,
    profile: AgencyProfile | None,
    max_bytes: int | None,
    report: bool,
    jobs: int | None = None,
    bars: bool | None = None,
    text_exports: tuple[text_export.ExportMode, ...] = (),
) -> Iterator[FileLine]:
    """Redact ``names`` with ``jobs`` processes (:func:`plan`), yielding each file's lines in the
    order given as soon as it and the files before it are done; ``text_exports`` also writes
    those text exports of each file. ``bars``: show the files' and the pages' progress on
    standard error (None: only on a terminal). Raises ``ValueError`` for ``jobs`` below 1."""
    from tqdm import tqdm  # noqa: PLC0415

    processes, ocr_parallel = plan(len(names), jobs)
    files_bar = tqdm(total=len(names), unit="file", desc="files", disable=None if bars is None else not bars)
    pages_bar = tqdm(total=0, unit="page", desc="pages", disable=files_bar.disable, position=1)
    if processes == 1:
        _start_worker(ocr_parallel, None)
        for index, name in enumerate(names):
            seen = [0]

            def count(done: int, total: int, seen: list[int] = seen) -> None:
                _advance(pages_bar, seen, done, total)

            line = redact_one(
                index, name, out_dir, category_map, profile, max_bytes, report, _Direct(count), text_exports
            )
            files_bar.update(1)
            yield line
        files_bar.close()
        pages_bar.close()
        return
    # a forked worker never touches the database and ends with os._exit (multiprocessing's fork
    # start), so the parent's connection it inherits is neither used nor closed there
    context = multiprocessing.get_context("fork")
    channel: multiprocessing.Queue = context.Queue()
    pages_seen: dict[int, list[int]] = {}
    stop = threading.Event()

    def follow() -> None:
        while not stop.is_set():
            try:
                index, done, total = channel.get(timeout=0.2)
            except queue.Empty:
                continue
            _advance(pages_bar, pages_seen.setdefault(index, [0]), done, total)

    follower = threading.Thread(target=follow, daemon=True)
    follower.start()
    try:
        with ProcessPoolExecutor(
            processes, mp_context=context, initializer=_start_worker, initargs=(ocr_parallel, channel)
        ) as pool:
            futures = [
                pool.submit(redact_one, i, name, out_dir, category_map, profile, max_bytes, report, None, text_exports)
                for i, name in enumerate(names)
            ]
            for future in futures:
                line = future.result()
                files_bar.update(1)
                yield line
    finally:
        stop.set()
        follower.join()
        files_bar.close()
        pages_bar.close()


class _Direct:
    """A channel straight to the bars, for a batch in this process."""

    def __init__(self, count: Callable[[int, int], None]):
        self.count = count

    def put(self, item: Progress) -> None:
        self.count(item[1], item[2])


def _advance(bar, seen: list[int], done: int, total: int) -> None:
    """Move the pages bar by a file's newly read pages; a file's page count joins the total on its
    first report."""
    if seen[0] == 0 and done <= 1:
        bar.total += total
        bar.refresh()
    if done > seen[0]:
        bar.update(done - seen[0])
        seen[0] = done
