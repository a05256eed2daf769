"""Redact PDF files on disk: the shared implementation of ``manage.py redact``, ``evaluate`` and
``export_text``."""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from policy.i18n import reason_texts
from redactor import (
    Action,
    AgencyProfile,
    Analysis,
    CategoryMap,
    JobProgress,
    ProposedRedaction,
    RedactionEngine,
    errors,
    review_items,
    text_export,
)


@dataclass
class FileOutcome:
    """What happened to one input file."""

    source: Path
    ok: bool
    message: str
    pdf_path: Path | None = None
    json_path: Path | None = None
    analysis: Analysis | None = None
    counts: Counter = field(default_factory=Counter)
    #: The companion text written beside the PDF (``NAME.txt``).
    text_path: Path | None = None
    #: Values the reader's check still read in the written PDF that nobody decided, as review
    #: items (also in the JSON report): the file needs review before it is published.
    review_needed: list[ProposedRedaction] = field(default_factory=list)


def _same_file(a: Path, b: Path) -> bool:
    try:
        return b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def _read(source: Path, max_bytes: int | None) -> tuple[bytes | None, str]:
    """The bytes of ``source``, or None and why not (too large, unreadable)."""
    try:
        size = source.stat().st_size
        if max_bytes is not None and size > max_bytes:
            return None, f"the file has {size / 1e6:.1f} MB; the limit is {max_bytes / 1e6:.0f} MB"
        return source.read_bytes(), ""
    except OSError as exc:
        return None, f"cannot read the file ({exc.strerror or exc})"


def redact_file(
    engine: RedactionEngine,
    source: Path,
    out_dir: Path,
    *,
    category_map: CategoryMap | None = None,
    profile: AgencyProfile | None = None,
    max_bytes: int | None = None,
    progress: JobProgress | None = None,
    text_exports: Sequence[text_export.ExportMode] = (),
) -> FileOutcome:
    """Analyse ``source`` (with the publishing agency's ``profile``, when given), accept every
    proposal whose action is redact, burn in, verify, and
    write ``out_dir/<name>.pdf``, its companion text ``out_dir/<name>.txt`` (UTF-8, pages
    separated by form feeds, :func:`~redactor.publish.text_export.published_text`),
    ``out_dir/<name>.json`` and, for each of ``text_exports``, the text export of the same
    decisions ``out_dir/<name>.<mode>.txt`` (:func:`~redactor.publish.text_export.export_layer`).

    Never raises for a bad input: the outcome says why it failed. The JSON is written even
    when verification fails (it lists the problems); the PDF only when it passed. What the
    reader's check (:func:`~redactor.publish.reader_check.reader_check`) still reads in the
    written PDF that nobody decided is listed among the JSON's proposals as review items (action
    review) and in ``FileOutcome.review_needed``: the PDF is what would be published, and it
    needs review first. An output
    path that is the input itself is refused. ``progress`` follows the analysis's steps
    (:mod:`redactor.progress`).
    """
    pdf_path = out_dir / f"{source.stem}.pdf"
    json_path = out_dir / f"{source.stem}.json"
    text_path = out_dir / f"{source.stem}.txt"
    if any(_same_file(source, path) for path in (pdf_path, json_path, text_path)):
        return FileOutcome(source, False, "the output would overwrite the input; choose another --out-dir")
    data, problem = _read(source, max_bytes)
    if data is None:
        return FileOutcome(source, False, problem)
    try:
        analysis = engine.analyze(data, category_map=category_map, profile=profile, progress=progress)
    except errors.RedactionError as exc:
        return FileOutcome(source, False, str(exc))
    accepted = analysis.to_redact()
    counts = Counter(p.action.value for p in analysis.proposals)
    # the file's JSON report: the analysis with each reason's text in both languages
    report: dict[str, Any] = {"document": source.name, **analysis.to_dict()}
    for entry, proposal in zip(report["proposals"], analysis.proposals, strict=True):
        entry["reason"]["text"] = reason_texts(proposal.reason)  # {"cs": …, "en": …}
    out_dir.mkdir(parents=True, exist_ok=True)
    others = [p for p in analysis.proposals if p.action != Action.REDACT]
    try:
        result = engine.redact(analysis.document or data, accepted, others=others, category_map=category_map)
    except errors.VerificationError as exc:
        report["verification"] = exc.result.to_dict() if exc.result else {"ok": False, "problems": [str(exc)]}
        json_path.write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
        return FileOutcome(
            source, False, f"verification failed, nothing published: {exc}", None, json_path, analysis, counts
        )
    except errors.RedactionError as exc:
        return FileOutcome(source, False, str(exc), analysis=analysis, counts=counts)
    report["verification"] = result.verification.to_dict()
    # what a reader still reads that nobody decided: review items beside the analysis' own
    items = review_items(result.findings, category_map or engine.category_map, len(analysis.proposals) + 1)
    for item in items:
        report["proposals"].append(item.to_dict())
        report["proposals"][-1]["reason"]["text"] = reason_texts(item.reason)  # {"cs": …, "en": …}
    written = [(pdf_path, result.pdf), (text_path, (result.text or "").encode("utf-8"))]
    for mode in text_exports:
        export = text_export.export_layer(analysis.text_layer, accepted, mode)
        written.append((out_dir / f"{source.stem}.{mode}.txt", export.text.encode("utf-8")))
    for path, data in written:
        tmp = path.with_name(path.name + ".part")
        tmp.write_bytes(data)
        tmp.replace(path)
    json_path.write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
    note = _note(analysis, sorted(result.pictured), items, json_path.name)
    extractors = result.verification.checks.get("extractors")
    read_by = ", ".join(map(str, extractors)) if isinstance(extractors, list) else ""
    message = (
        f"{counts['redact']} redacted, {counts['keep']} kept, {counts['review']} for review; verified ({read_by}){note}"
    )
    return FileOutcome(source, True, message, pdf_path, json_path, analysis, counts, text_path, items)


def _note(analysis: Analysis, pictured: list[int], items: list[ProposedRedaction], report_name: str) -> str:
    """What the command line adds to a written file's line: pages without text, scanned pages
    and their OCR confidence, pages published as pictures, review items still legible."""
    ocr = analysis.pages_needing_ocr
    note = (
        f"; {len(ocr)} page(s) without text need OCR and were not analysed: {', '.join(map(str, ocr))}" if ocr else ""
    )
    scans = [p for p in analysis.pages if p.is_scan]
    if scans:
        check = [str(p.number) for p in scans if p.needs_check]
        note += (
            f"; {len(scans)} scanned page(s) read by OCR (mean confidence "
            + ", ".join(f"{p.number}: {p.ocr_confidence:.0f}" for p in scans)
            + ")"
            + (f", check by eye: {', '.join(check)}" if check else "")
        )
    if pictured:
        note += (
            f"; page(s) {', '.join(map(str, pictured))} published as pictures with the analysed words as"
            " their text layer (an extractor read their text other than it was analysed)"
        )
    if items:
        note += (
            f"; review needed: {len(items)} value(s) still legible in the published pages that nobody decided"
            f" (page(s) {', '.join(sorted({str(i.page) for i in items}, key=int))}; review items in {report_name})"
        )
    return note


def export_file(
    engine: RedactionEngine,
    source: Path,
    modes: Sequence[text_export.ExportMode],
    *,
    category_map: CategoryMap | None = None,
    max_bytes: int | None = None,
    seed: bytes | None = None,
) -> tuple[dict[str, text_export.TextExport], str]:
    """Analyse ``source`` and export its text in each of ``modes`` from the decisions
    :func:`redact_file` would burn in (every proposal whose action is redact):
    ``({mode: TextExport}, "")``, or ``({}, why)`` for a bad input. Never raises for one.
    ``seed`` makes the pseudonyms stable across files and runs (random per file without it)."""
    data, problem = _read(source, max_bytes)
    if data is None:
        return {}, problem
    try:
        analysis = engine.analyze(data, category_map=category_map)
    except errors.RedactionError as exc:
        return {}, str(exc)
    decided = analysis.to_redact()
    return {mode: text_export.export_layer(analysis.text_layer, decided, mode, seed) for mode in modes}, ""
