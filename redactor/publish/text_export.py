"""Text exports of a decided contract: the analysed text without personal data, for research.

Built from the decisions that the published PDF was made from, never from a second detection
run, on the analysed text layer (OCR text of scans included). Three modes:

- ``removed``: every decided span becomes ``[…]``;
- ``tagged``: every decided span becomes its category's tag with a per-document index,
  ``[JMÉNO_1]``, ``[ADRESA_2]``, ``[RČ_1]``. One person (the engine's person cluster) has one
  index in every occurrence and inflected form; a value without a person has one index per
  value (a name without a cluster per nominative, :func:`~redactor.czech.nominative_candidates`);
- ``pseudonymised``: every decided span becomes a substitute of its kind, declined into the
  original's case for names (:mod:`redactor.publish.pseudonyms`), or its tag where none fits.

Spans that touch or are separated only by spaces and belong to the same person and tag become
one marker (a given name and a surname, ``[JMÉNO_1]``, not ``[JMÉNO_1] [JMÉNO_1]``). Pages are
separated by a form feed (``\\f``), as ``pdftotext`` separates them. Everything else, kept
organisations, officials and prices included, is the analysed text unchanged.

The tag names follow the Polish Inforex corpora's tag-per-category scheme and Czech usage for
the identifiers' names (RČ = rodné číslo, OP = občanský průkaz, ŘP = řidičský průkaz, RZ =
registrační značka).
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal, Protocol, get_args

import numpy as np

from redactor import categories as cat
from redactor.czech import nominative_candidates
from redactor.model import Box, Span
from redactor.publish.pseudonyms import Pseudonymiser
from redactor.read.extraction import TextLayer

#: An export's mode: what a redacted span becomes (a marker, its category's tag, a substitute).
ExportMode = Literal["removed", "tagged", "pseudonymised"]
MODES: tuple[ExportMode, ...] = get_args(ExportMode)
#: What a removed span becomes.
REMOVED_MARKER = "[…]"


@dataclass(frozen=True)
class DecidedSpan:
    """One span of the analysed text decided for redaction: character offsets ``start``..``end``
    in the text, its category id, and the engine's cluster (``person:N`` for a person's data,
    None or ``value:…`` otherwise)."""

    start: int
    end: int
    category: int
    cluster: str | None = None


@dataclass
class TextExport:
    """An export: ``text`` (UTF-8, pages separated by ``\\f``) and ``spans``, the markers in it as
    ``(start, end, label)`` character offsets into ``text`` with the label the tag (``JMÉNO``;
    ``REMOVED`` in the removed mode), ``index`` the per-document index of each marker (0 in the
    removed mode) and ``origins`` the ``(start, end)`` each marker replaces in the analysed text."""

    mode: ExportMode
    text: str
    spans: list[tuple[int, int, str]] = field(default_factory=list)
    indexes: list[int] = field(default_factory=list)
    origins: list[tuple[int, int]] = field(default_factory=list)

    def to_jsonl_record(self, document: str) -> str:
        """One JSON line: ``{"document", "mode", "text", "label": [[start, end, label], …]}`` (the
        Doccano layout; spaCy builds a ``Doc`` from it with ``doc.char_span``)."""
        return json.dumps(
            {
                "document": document,
                "mode": self.mode,
                "text": self.text,
                "label": [[s, e, label] for s, e, label in self.spans],
            },
            ensure_ascii=False,
        )


def tag_of(category: int) -> str:
    """The tagged export's tag of ``category`` (:attr:`redactor.categories.Category.tag`)."""
    return cat.category(category).tag


def _identity(text: str, span: DecidedSpan) -> tuple[str, str]:
    """What makes two spans the same entity for the index: the person for a person's name, the
    nominative of a name without a person, the value (letters and digits) otherwise."""
    tag = tag_of(span.category)
    value = text[span.start : span.end]
    if span.category in cat.NAME_CATEGORIES:
        if span.cluster and span.cluster.startswith("person:"):
            return tag, span.cluster
        words = re.findall(r"\w+", value)
        return tag, " ".join(min(nominative_candidates(w), key=len).casefold() for w in words)
    return tag, re.sub(r"\W", "", value).casefold()


def _merged(text: str, spans: list[DecidedSpan], neighbours: bool = True) -> list[tuple[int, int, DecidedSpan]]:
    """Spans in text order, overlaps joined, with ``neighbours`` also neighbours of one person
    and tag (only spaces between): ``(start, end, first span)``."""
    out: list[tuple[int, int, DecidedSpan]] = []
    for span in sorted(spans, key=lambda s: (s.start, -s.end)):
        if out:
            start, end, first = out[-1]
            same_entity = (
                first.cluster is not None
                and first.cluster == span.cluster
                and tag_of(first.category) == tag_of(span.category)
            )
            if span.start < end or (neighbours and same_entity and not text[end : span.start].strip(" ")):
                out[-1] = (start, max(end, span.end), first)
                continue
        out.append((span.start, span.end, span))
    return out


def export_text(
    text: str,
    page_ranges: list[tuple[int, int]],
    spans: list[DecidedSpan],
    mode: ExportMode,
    seed: bytes | None = None,
) -> TextExport:
    """The ``mode`` export (:data:`MODES`) of ``text``, the analysed text of a document whose pages
    are ``page_ranges`` (``(start, end)`` offsets, in page order), with ``spans`` decided.

    ``pseudonymised`` writes a substitute (:class:`~redactor.publish.pseudonyms.Pseudonymiser`
    seeded with ``seed``; a random one when None) in place of each span, or its tag where no
    substitute of the right form exists; neighbouring spans stay apart there, so that a given
    name and a surname each get their own. Raises ``ValueError`` for an unknown mode or a span
    outside the text."""
    if mode not in MODES:
        raise ValueError(f"unknown export mode {mode!r}; one of {', '.join(MODES)}")
    if any(s.start < 0 or s.end > len(text) or s.start >= s.end for s in spans):
        raise ValueError("a decided span lies outside the text")
    indexes: dict[tuple[str, str], int] = {}
    per_tag: dict[str, int] = {}
    markers: list[tuple[int, int, str, int, str]] = []  # start, end in text, label, index, what is shown
    substitutes = (
        Pseudonymiser(seed if seed is not None else secrets.token_bytes(16)) if mode == "pseudonymised" else None
    )
    for start, end, first in _merged(text, spans, neighbours=mode != "pseudonymised"):
        if mode == "removed":
            markers.append((start, end, "REMOVED", 0, REMOVED_MARKER))
            continue
        key = _identity(text, first)
        if key not in indexes:
            per_tag[key[0]] = per_tag.get(key[0], 0) + 1
            indexes[key] = per_tag[key[0]]
        shown = f"[{key[0]}_{indexes[key]}]"
        if substitutes is not None:
            shown = substitutes.substitute(" ".join(text[start:end].split()), first.category) or shown
        markers.append((start, end, key[0], indexes[key], shown))
    out = TextExport(mode, "")
    pieces: list[str] = []
    length = 0
    queue = iter(markers)
    marker = next(queue, None)
    for number, (page_start, page_end) in enumerate(page_ranges):
        if number:
            pieces.append("\f")
            length += 1
        position = page_start
        while marker is not None and marker[0] < page_end:
            start, end, label, index, shown = marker
            start = max(start, position)
            pieces.append(text[position:start])
            length += start - position
            out.spans.append((length, length + len(shown), label))
            out.indexes.append(index)
            out.origins.append((start, min(end, page_end)))
            pieces.append(shown)
            length += len(shown)
            position = min(end, page_end)
            if end > page_end:  # a span across a page break goes on at the next page's start
                marker = (page_end, end, label, index, shown)
                break
            marker = next(queue, None)
        pieces.append(text[position:page_end])
        length += page_end - position
    out.text = "".join(pieces)
    return out


class Decided(Protocol):
    """What :func:`decided_spans` reads of a decided proposal (a
    :class:`~redactor.model.ProposedRedaction`, the web app's stored proposal)."""

    @property
    def span(self) -> Span: ...
    @property
    def category(self) -> int: ...
    @property
    def cluster(self) -> str | None: ...


def decided_spans(proposals: Iterable[Decided]) -> list[DecidedSpan]:
    """:class:`DecidedSpan` of each decided proposal (anything with ``span``, ``category`` and
    ``cluster``, e.g. :class:`~redactor.model.ProposedRedaction`) that covers text: a proposal
    with an empty span (a signature, a box over a picture) removes no character of the text."""
    return [
        DecidedSpan(p.span.start, p.span.end, p.category, p.cluster) for p in proposals if p.span.end > p.span.start
    ]


def export_layer(
    layer: TextLayer, proposals: Iterable[Decided], mode: ExportMode, seed: bytes | None = None
) -> TextExport:
    """:func:`export_text` of a :class:`~redactor.read.extraction.TextLayer` (its text and
    pages) with ``proposals`` decided for redaction."""
    return export_text(layer.text, [(p.start, p.end) for p in layer.pages], decided_spans(proposals), mode, seed)


#: Characters a companion text keeps besides printable ones: line breaks and the page separator.
_KEPT_CONTROLS = frozenset("\n\f")


def published_text(layer: TextLayer, redacted: list[Span], boxes: list[Box], left_out: Iterable[Span] = ()) -> str:
    """The companion text of a published PDF: the analysed text of ``layer`` (a
    :class:`~redactor.read.extraction.TextLayer`) as UTF-8 plain text, pages separated by a form
    feed, every character that is not published replaced the way the ``removed`` export does it
    (one ``[…]`` per run): the ``redacted`` spans (:class:`~redactor.model.Span`), the
    ``left_out`` spans (words burn-in did not write because their OCR box overlaps a box), and
    every character whose box has its centre in a redaction box of ``boxes``
    (:class:`~redactor.model.Box`, points, pages from 1), the test the verification's
    glyphs-under-boxes check applies to the PDF (a character box is as tall as its line, so the
    box of the line below grazes it without covering it). So the companion holds nothing the PDF's
    black boxes hide, even where a reviewer drew a box over part of a word. Other control
    characters become spaces; the text carries no
    metadata (no title, author, dates or file names).

    Act 340/2015 Sb., § 5(1) asks for a machine-readable format, and the registry of contracts
    publishes text attachments beside the PDF (its open-data dump of July 2016 holds 95 ``.txt``
    attachments among 3,032), so a scan is searchable even where its picture's OCR layer reads
    poorly."""
    text = layer.text
    hidden = bytearray(len(text))
    for span in [*redacted, *left_out]:
        hidden[span.start : span.end] = b"\x01" * (span.end - span.start)
    if boxes:  # character centres in a box, all characters of the document at once
        centres = np.array(
            [(b[0], (b[1] + b[3]) / 2, (b[2] + b[4]) / 2) if b is not None else (0, 0.0, 0.0) for b in layer.boxes],
            dtype=float,
        ).reshape(-1, 3)
        inside = np.zeros(len(centres), dtype=bool)
        for box in boxes:
            inside |= (
                (centres[:, 0] == box.page)
                & (centres[:, 1] >= box.x0)
                & (centres[:, 1] <= box.x1)
                & (centres[:, 2] >= box.y0)
                & (centres[:, 2] <= box.y1)
            )
        for i in np.flatnonzero(inside).tolist():
            if not text[i].isspace():
                hidden[i] = 1
    spans = [DecidedSpan(m.start(), m.end(), 0, "published") for m in re.finditer(rb"\x01+", bytes(hidden))]
    spans = [s for s in spans if text[s.start : s.end].strip()]
    out = export_text(text, [(p.start, p.end) for p in layer.pages], spans, "removed").text
    if out.replace("\n", "").replace("\f", "").isprintable():
        return out
    return "".join(c if c.isprintable() or c in _KEPT_CONTROLS else " " for c in out)
