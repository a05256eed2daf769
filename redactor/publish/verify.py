"""Verification of a redacted PDF: re-open it and prove that it shows nothing but what was
analysed and kept.

Run after every burn-in (``RedactionEngine.redact`` fails when it does not pass) and usable on
its own. Checks, each recorded in ``VerificationResult.checks``:

- analysed text: every word that PDFium (pypdfium2) and poppler (the ``pdftotext`` binding), two engines
  other than MuPDF, which analysed the document, read on a page must occur in the analysed
  text of that page outside the redactions (order, whitespace and line-end hyphens aside).
  A word the analysis never saw fails verification with its page: whatever the extractor
  skipped is caught here, not only what the engine found;
- text: the page text as read by PDFium and poppler must not contain a redacted string
  (whole-word match after NFKC and whitespace folding) more often than it legitimately
  remains elsewhere, nor the longest run of six or more of its digits;
- pixels: each page rendered before and after burn-in must be the same outside the
  redaction boxes (beyond anti-aliasing), which catches damage: a masked image turned black,
  a transparent picture made opaque, text that vanished;
- glyphs under boxes: no character may remain inside a redaction box (catches a black
  rectangle drawn over live text);
- hidden layers: Info metadata, XMP, annotations, form fields, embedded files and bookmark
  titles must not contain a redacted string;
- raw objects: no decompressed PDF object may contain an ASCII redacted string of six or
  more characters;
- saves: exactly one ``%%EOF`` marker (an incremental update can keep the original revision).
"""

from __future__ import annotations

import contextlib
import functools
import io
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pdftotext
import pymupdf
import pypdfium2

from redactor.model import Box, VerificationResult
from redactor.publish.fidelity import PageFidelity, compact, page_fidelity
from redactor.read.looks import RENDER_DPI, PageLook, looks_of
from redactor.text import count_word, normalize


def _longest_digits(text: str) -> str:
    runs = re.findall(r"\d+", text)
    return max(runs, key=len, default="")


#: Shortest word (letters and digits) that the analysed-text check requires to have been analysed.
UNSEEN_MIN_CHARS = 4
#: Grey-level difference (0..255) above which a pixel counts as changed.
RENDER_TOLERANCE = 64
#: The same for a page published as a picture of itself (``RedactionEngine.redact``): anti-aliased
#: glyph edges rendered from a picture differ more from those rendered from outlines.
PICTURE_TOLERANCE = 160
#: Pixels around each box (at ``RENDER_DPI``) allowed to change: anti-aliasing and glyphs that
#: touch the box and are removed whole.
RENDER_MARGIN = 2
#: Changed pixels outside the boxes tolerated per page (share of the page, and at least a few).
RENDER_MAX_SHARE = 0.0005


def page_texts(data: bytes) -> dict[str, list[str]]:
    """Text of every page of ``data`` (index 0 = page 1) as read by PDFium and by poppler, the
    two extractors verification trusts besides MuPDF. Poppler is read in-process through the
    ``pdftotext`` binding (poppler-cpp, the text ``pdftotext`` prints in its default reading
    order): starting the command-line tool per document cost more than reading the document.
    Raises ``RuntimeError`` when poppler cannot read the document (verification then fails: it
    never passes unread)."""
    texts: dict[str, list[str]] = {}
    pdf = pypdfium2.PdfDocument(data)
    try:
        pages = []
        for i in range(len(pdf)):
            page = pdf[i]
            textpage = page.get_textpage()
            pages.append(textpage.get_text_range())
            textpage.close()
            page.close()
        texts["pdfium"] = pages
    finally:
        pdf.close()
    try:
        poppler = list(pdftotext.PDF(io.BytesIO(data)))
    except pdftotext.Error as exc:
        raise RuntimeError(f"poppler cannot read the redacted PDF ({exc})") from exc
    texts["poppler"] = (poppler + [""] * len(texts["pdfium"]))[: len(texts["pdfium"])]
    return texts


def extract_texts(data: bytes) -> dict[str, str]:
    """Normalised full text of ``data`` from MuPDF, PDFium and poppler."""
    texts = {}
    with pymupdf.open(stream=data, filetype="pdf") as doc:
        texts["pymupdf"] = normalize(" ".join(page.get_text() for page in doc))
    for name, pages in page_texts(data).items():
        texts[name] = normalize(" ".join(pages))
    return texts


def unseen_words(read: str, analysed: str) -> list[str]:
    """Words of ``read`` (what an extractor reads on a page) that do not occur in ``analysed``
    (the page's analysed text outside redactions). Compared by :func:`~redactor.publish.fidelity.compact`, so case,
    whitespace and line-end hyphens do not matter; a word is also seen when it is a run of
    whole analysed words that the other extractor read apart (``31.10.200831.10.2008``, a line
    read in another order). Words with fewer than ``UNSEEN_MIN_CHARS`` letters and digits are
    ignored: stray glyphs that two extractors assign to different words ("ia", "TWí") are not
    text that the analysis missed, and what it could miss (a name, a number) is longer."""
    target, pieces, longest = _analysed_words(analysed)
    out = []
    for word in read.split():
        token = compact(word)
        if sum(c.isalnum() for c in token) < UNSEEN_MIN_CHARS or token in target:
            continue
        if not _segments(token, pieces, longest):
            out.append(word)
    return out


@functools.lru_cache(maxsize=64)
def _analysed_words(analysed: str) -> tuple[str, frozenset[str], int]:
    """``analysed`` compacted whole, its words compacted, and the longest of those: computed once
    for the extractors that are compared with the same page."""
    pieces = frozenset(compact(w) for w in analysed.split()) - {""}
    return compact(analysed), pieces, max((len(p) for p in pieces), default=0)


def _segments(token: str, pieces: frozenset[str] | set[str], longest: int) -> bool:
    """Whether ``token`` is a concatenation of ``pieces`` (punctuation between them allowed)."""
    reach = [True] + [False] * len(token)
    for i in range(1, len(token) + 1):
        if not token[i - 1].isalnum() and reach[i - 1]:
            reach[i] = True
            continue
        for j in range(max(0, i - longest), i):
            if reach[j] and token[j:i] in pieces:
                reach[i] = True
                break
    return reach[-1]


def _unanalysed(texts: dict[str, list[str]], analysed_pages: dict[int, str]) -> dict[int, list[str]]:
    """``{page number: problems}`` of the analysed-text check (:func:`unseen_words`)."""
    problems: dict[int, list[str]] = {}
    for name, pages in texts.items():
        for number, text in enumerate(pages, start=1):
            if number not in analysed_pages:
                continue
            extra = unseen_words(text, analysed_pages[number])
            if extra:
                problems.setdefault(number, []).append(
                    f"page {number}: {name} reads text that was not analysed ({len(extra)} words)"
                )
    return problems


#: A text layer the product wrote (OCR words, a page published as a picture) fails the fidelity
#: check when an extractor misses, glues or reverses more of its words than this many ...
WRITTEN_MAX_MISSES = 3
#: ... and this share of them: OCR of a poor scan gives boxes that overlap or touch (a word read
#: twice, a caron read as a letter), which no placement keeps apart; a writer that glues or
#: reverses runs does it on every line.
WRITTEN_MAX_SHARE = 0.03


def _text_kept(
    texts: dict[str, list[str]],
    analysed_pages: dict[int, str],
    written_pages: frozenset[int] | set[int],
    source: bytes | None,
    upside_down: frozenset[int] = frozenset(),
) -> tuple[dict[int, list[str]], dict[str, Any]]:
    """The fidelity check (:mod:`redactor.publish.fidelity`): every analysed word of a page outside
    the redactions must be read by each extractor as a word of its own; on ``written_pages``
    (the product wrote their text layer) also in its printed order, up to
    :data:`WRITTEN_MAX_MISSES` and :data:`WRITTEN_MAX_SHARE` of its words. A page whose own text layer
    was kept (born-digital text, another tool's checked OCR layer) is held to what the same
    extractor reads on ``source`` (the document the boxes were burned into): a word an
    extractor already glued or missed there is the file's own, not lost in redaction.
    Returns ``({page number: problems}, {extractor: totals, "by_page": {page: {extractor:
    [words, lost, glued, disordered]}}})``; problems give counts, never words."""
    problems: dict[int, list[str]] = {}
    totals: dict[str, Any] = {}
    by_page: dict[str, dict[str, list[int]]] = {}
    before = _Earlier(source) if source is not None else None
    try:
        _judge_pages(texts, analysed_pages, written_pages, before, upside_down, problems, totals, by_page)
    finally:
        if before is not None:
            before.close()
    totals["by_page"] = by_page
    return problems, totals


class _Earlier:
    """What PDFium and poppler read on single pages of the document the boxes were burned into,
    read only for the pages asked for: a page whose published text reads every kept word never
    needs it."""

    def __init__(self, data: bytes):
        self.data = data
        self._pdfium: pypdfium2.PdfDocument | None = None
        self._poppler: pdftotext.PDF | None = None

    def text(self, name: str, number: int) -> str:
        """Extractor ``name``'s (``"pdfium"`` or ``"poppler"``) text of page ``number`` (from 1);
        empty for a page it does not have. Raises ``RuntimeError`` when poppler cannot read it."""
        if name == "pdfium":
            if self._pdfium is None:
                self._pdfium = pypdfium2.PdfDocument(self.data)
            if number > len(self._pdfium):
                return ""
            page = self._pdfium[number - 1]
            textpage = page.get_textpage()
            try:
                return str(textpage.get_text_range())
            finally:
                textpage.close()
                page.close()
        if self._poppler is None:
            try:
                self._poppler = pdftotext.PDF(io.BytesIO(self.data))
            except pdftotext.Error as exc:
                raise RuntimeError(f"poppler cannot read the redacted PDF ({exc})") from exc
        return str(self._poppler[number - 1]) if number <= len(self._poppler) else ""

    def close(self) -> None:
        """Close what was opened."""
        if self._pdfium is not None:
            self._pdfium.close()


def _judge_pages(
    texts: dict[str, list[str]],
    analysed_pages: dict[int, str],
    written_pages: frozenset[int] | set[int],
    before: _Earlier | None,
    upside_down: frozenset[int],
    problems: dict[int, list[str]],
    totals: dict[str, Any],
    by_page: dict[str, dict[str, list[int]]],
) -> None:
    """:func:`_text_kept`'s comparison of every analysed page, into ``problems``, ``totals`` and
    ``by_page``."""
    for name, pages in texts.items():
        total = totals.setdefault(name, {"pages": 0, "words": 0, "lost": 0, "glued": 0, "disordered": 0})
        for number, text in enumerate(pages, start=1):
            if number not in analysed_pages:
                continue
            written = number in written_pages
            # PDFium reads a line written upside down (a sheet scanned so, no /Rotate) in the
            # page's left-to-right order, whatever the text's direction: poppler judges its order
            order = written and not (name == "pdfium" and number in upside_down)
            found = page_fidelity(analysed_pages[number], text, order=order)
            failed = not found.ok
            if written:  # the product's own layer: degenerate OCR boxes (a word read twice) aside
                failed = found.lost + found.glued + found.disordered > max(
                    WRITTEN_MAX_MISSES, WRITTEN_MAX_SHARE * found.words
                )
            elif failed and before is not None:
                was = page_fidelity(analysed_pages[number], before.text(name, number))
                found = PageFidelity(found.words, max(0, found.lost - was.lost), max(0, found.glued - was.glued))
                failed = not found.ok
            by_page.setdefault(str(number), {})[name] = [found.words, found.lost, found.glued, found.disordered]
            total["pages"] += 1
            total["words"] += found.words
            total["lost"] += found.lost
            total["glued"] += found.glued
            total["disordered"] += found.disordered
            if failed:
                problems.setdefault(number, []).append(
                    f"page {number}: {name} does not read every kept word as a word in its place "
                    f"({found.lost} lost, {found.glued} glued to a neighbour, {found.disordered} lines out of order)"
                )


def render_changes(
    before: bytes | Sequence[PageLook],
    after: bytes | pymupdf.Document,
    boxes: Iterable[Box],
    *,
    dpi: int = RENDER_DPI,
    pictures: Iterable[int] = (),
) -> list[str]:
    """Pages whose picture changed outside the redaction ``boxes`` (points, pages from 1) between
    ``before`` (the original upload, or the document that was redacted, as bytes or as the
    :class:`~redactor.read.looks.PageLook` kept with the analysed document) and ``after`` (bytes,
    or the redacted document already open, which is left open): one message per page, naming it.
    Pages are rendered in grey at ``dpi`` (kept looks were drawn at :data:`RENDER_DPI`); a pixel
    counts as changed when its grey level moved by more than ``RENDER_TOLERANCE``, and a page fails
    when more than ``RENDER_MAX_SHARE`` of its pixels outside the boxes (grown by ``RENDER_MARGIN``
    pixels) changed. On ``pictures`` (pages published as a picture of themselves) a pixel counts as
    changed from ``PICTURE_TOLERANCE``: edges of text drawn from a picture fall a grey level or two
    apart from text drawn from its outlines, a page made white or black does not."""
    by_page: dict[int, list[Box]] = {}
    for box in boxes:
        by_page.setdefault(box.page, []).append(box)
    with contextlib.ExitStack() as stack:
        b = after if not isinstance(after, bytes) else stack.enter_context(pymupdf.open(stream=after, filetype="pdf"))
        if isinstance(before, bytes):
            a = stack.enter_context(pymupdf.open(stream=before, filetype="pdf"))
            before = looks_of(a, b, dpi)
        return _render_changes(before, b, by_page, dpi, frozenset(pictures))


def _render_changes(
    looks: Sequence[PageLook], b: pymupdf.Document, by_page: dict[int, list[Box]], dpi: int, pictures: frozenset[int]
) -> list[str]:
    """:func:`render_changes` of the looks of the upload and the open redacted document."""
    problems = []
    scale = dpi / 72
    if len(looks) != b.page_count:
        return [f"the redacted PDF has {b.page_count} pages, the original {len(looks)}"]
    for number, (look, pb) in enumerate(zip(looks, b, strict=True), start=1):
        # a page whose /UserUnit the rebuild folded into its size is compared at that size
        unit = pb.rect.width / look.width if look.width else 1.0
        if (abs(unit - 1) > 0.01 and abs(pb.rect.height / look.height - unit) > 0.01) or abs(unit - look.unit) > 1e-3:
            problems.append(f"page {number}: its size changed")
            continue
        xb = pb.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False)
        b_full = np.frombuffer(xb.samples, np.uint8).reshape(xb.height, xb.stride)[:, : xb.width]
        if look.grey.shape == b_full.shape and np.array_equal(look.grey, b_full):
            continue
        width, height = min(look.grey.shape[1], xb.width), min(look.grey.shape[0], xb.height)
        a_img = look.grey[:height, :width]
        b_img = b_full[:height, :width]
        tolerance = PICTURE_TOLERANCE if number in pictures else RENDER_TOLERANCE
        diff = np.abs(a_img.astype(np.int16) - b_img) > tolerance
        shown = pb.rotation_matrix * pymupdf.Matrix(scale, scale)  # the output: MediaBox = CropBox
        for box in by_page.get(number, []):
            r = (pymupdf.Rect(box.x0, box.y0, box.x1, box.y1) * shown).normalize()
            x0, y0 = max(0, int(r.x0) - RENDER_MARGIN), max(0, int(r.y0) - RENDER_MARGIN)
            diff[y0 : int(r.y1 + 1) + RENDER_MARGIN, x0 : int(r.x1 + 1) + RENDER_MARGIN] = False
        changed = int(diff.sum())
        if changed > max(4, RENDER_MAX_SHARE * width * height):
            problems.append(f"page {number}: {changed} pixels changed outside the redactions")
    return problems


def _hidden_layers(doc: pymupdf.Document) -> dict[str, str]:
    layers = {
        "metadata": " ".join(str(v) for v in (doc.metadata or {}).values() if v),
        "xmp": doc.get_xml_metadata() or "",
        "bookmarks": " ".join(t[1] for t in doc.get_toc()),
    }
    annots, fields = [], []
    for page in doc:
        for annot in page.annots() or []:
            info = annot.info
            annots += [info.get("content", ""), info.get("title", ""), info.get("subject", "")]
        for widget in page.widgets() or []:
            fields += [str(widget.field_value or ""), str(widget.field_name or "")]
    layers["annotations"] = " ".join(annots)
    layers["form_fields"] = " ".join(fields)
    files = []
    for i in range(doc.embfile_count()):
        try:
            files.append(doc.embfile_info(i).get("filename", ""))
        except (ValueError, RuntimeError, pymupdf.mupdf.FzErrorBase):  # an entry that is no file: nothing to read
            continue
        try:
            files.append(doc.embfile_get(i).decode("utf-8", "replace"))
        except Exception:  # unreadable attachment: its name is still checked
            pass
    layers["attachments"] = " ".join(files)
    return {k: normalize(v) for k, v in layers.items()}


def _raw_objects(doc: pymupdf.Document) -> str:
    chunks = []
    for xref in range(1, doc.xref_length()):
        try:
            obj = doc.xref_object(xref, compressed=False)
            chunks.append(obj)
            # Image samples are pixels, not text; decoding them only costs time.
            if doc.xref_is_stream(xref) and "/Subtype /Image" not in obj:
                chunks.append((doc.xref_stream(xref) or b"").decode("latin-1"))
        except Exception:  # a broken object cannot leak through MuPDF either
            continue
    return "\n".join(chunks)


#: What the glyphs-under-boxes check reads: every character as MuPDF's raw dictionary gives it,
#: without copying the page's pictures into it (they hold no characters).
_GLYPH_FLAGS = pymupdf.TEXTFLAGS_RAWDICT & ~pymupdf.TEXT_PRESERVE_IMAGES


def _glyphs_under_boxes(doc: pymupdf.Document, boxes: Iterable[Box]) -> list[str]:
    by_page: dict[int, list[Box]] = {}
    for box in boxes:
        by_page.setdefault(box.page, []).append(box)
    found = []
    for number, page_boxes in by_page.items():
        if number > doc.page_count:
            continue
        page = doc[number - 1]
        near = pymupdf.Rect()
        for b in page_boxes:
            near |= pymupdf.Rect(b.x0, b.y0, b.x1, b.y1)
        raw = page.get_text("rawdict", clip=near, flags=_GLYPH_FLAGS)  # only characters near the boxes
        for block in raw["blocks"]:
            for line in block.get("lines", []):
                for span in line["spans"]:
                    for ch in span["chars"]:
                        if ch["c"].isspace():
                            continue
                        x0, y0, x1, y1 = ch["bbox"]
                        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
                        for b in page_boxes:
                            if b.x0 + 0.5 < cx < b.x1 - 0.5 and b.y0 < cy < b.y1:
                                found.append(f"page {number} at ({cx:.1f}, {cy:.1f}) pt")
                                break
    return found


def verify(
    data: bytes,
    redacted_texts: Iterable[str],
    *,
    boxes: Iterable[Box] = (),
    residual_text: str | None = None,
    analysed_pages: dict[int, str] | None = None,
    source: bytes | Sequence[PageLook] | None = None,
    written_pages: Iterable[int] = (),
    layer_source: bytes | None = None,
    upside_down: Iterable[int] = (),
    pictures: Iterable[int] = (),
    companion_text: str | None = None,
    document: pymupdf.Document | None = None,
) -> VerificationResult:
    """Check a redacted PDF (``data``) against the strings that were redacted.

    ``residual_text`` is the original text with the redacted spans removed; a redacted string
    may appear in the output as often as it appears there (a surname redacted for a private
    person and kept for an official who shares it). Without it every occurrence is a leak.
    ``boxes`` (points, pages from 1) enable the glyphs-under-boxes check. ``analysed_pages``
    (``{page number: analysed text outside the redactions}``) enables the analysed-text check
    and the fidelity check (every such word still read, as a word; in its order on
    ``written_pages``, whose text layer the product wrote; against what the extractors read on
    ``layer_source``, the document the boxes were burned into, elsewhere; on ``upside_down`` pages
    only poppler judges the order); ``source`` (the upload, as bytes or as its kept
    :class:`~redactor.read.looks.PageLook`) enables the pixel check (with a wider tolerance on
    ``pictures``, pages published as pictures of themselves). ``companion_text`` (the plain text
    published beside the PDF, :func:`~redactor.publish.text_export.published_text`) gets the same
    leak check as each extractor's text, under the name ``companion text``. Problems that concern
    one page (text not analysed, kept text not read) are also listed by page in
    ``VerificationResult.pages``. ``document``: ``data`` already opened by MuPDF, which
    verification reads and leaves open (the readers after it read the same document; its fonts
    and pictures are loaded once); by default ``data`` is opened here and closed.
    Never raises for a readable PDF; an unreadable one gives ``ok=False``.
    """
    strings = sorted({normalize(t) for t in redacted_texts if normalize(t)})
    residual = normalize(residual_text or "")
    checks: dict[str, object] = {"eof_markers": data.count(b"%%EOF")}
    problems: list[str] = []
    if checks["eof_markers"] != 1:
        problems.append(f"{checks['eof_markers']} %%EOF markers: the file contains incremental updates")
    try:
        doc = document if document is not None else pymupdf.open(stream=data, filetype="pdf")
        pages = page_texts(data)
    except Exception as exc:
        return VerificationResult(False, [f"the redacted PDF cannot be read: {exc}"], checks)
    subject = _Subject(
        doc=doc,
        pages=pages,
        strings=strings,
        residual=residual,
        allowances={s: count_word(residual, s) for s in strings},
        boxes=list(boxes),
        analysed_pages=analysed_pages,
        written_pages=frozenset(written_pages),
        layer_source=layer_source,
        upside_down=frozenset(upside_down),
        source=source,
        pictures=frozenset(pictures),
        companion_text=companion_text,
        checks=checks,
        problems=problems,
    )
    try:
        for check in CHECKS:
            check(subject)
        checks["pages"] = doc.page_count
    finally:
        if document is None:
            doc.close()
    return VerificationResult(
        not problems, problems, checks, sorted(subject.leaked), dict(sorted(subject.by_page.items()))
    )


@dataclass
class _Subject:
    """What the checks of :func:`verify` read (the published document, what the extractors read
    on it, the redacted strings and what may legitimately remain of them) and what they found so
    far: ``problems`` in order, ``checks`` by name, the ``leaked`` strings and the problems ``by_page``."""

    doc: pymupdf.Document
    pages: dict[str, list[str]]
    strings: list[str]
    residual: str
    allowances: dict[str, int]
    boxes: list[Box]
    analysed_pages: dict[int, str] | None
    written_pages: frozenset[int]
    layer_source: bytes | None
    upside_down: frozenset[int]
    source: bytes | Sequence[PageLook] | None
    pictures: frozenset[int]
    companion_text: str | None
    checks: dict[str, object]
    problems: list[str]
    leaked: set[str] = field(default_factory=set)
    by_page: dict[int, list[str]] = field(default_factory=dict)


def _check_analysed_text(subject: _Subject) -> None:
    """Every word the extractors read was analysed, and every analysed word is still read."""
    if subject.analysed_pages is None:
        return
    unseen = _unanalysed(subject.pages, subject.analysed_pages)
    unanalysed = [p for number in sorted(unseen) for p in unseen[number]]
    subject.checks["unanalysed_text"] = unanalysed
    subject.problems.extend(unanalysed)
    lost, subject.checks["text_kept"] = _text_kept(
        subject.pages, subject.analysed_pages, subject.written_pages, subject.layer_source, subject.upside_down
    )
    subject.problems.extend(p for number in sorted(lost) for p in lost[number])
    for found in (unseen, lost):
        for number, said in found.items():
            subject.by_page.setdefault(number, []).extend(said)


def _check_pixels(subject: _Subject) -> None:
    """The pages look as the upload did outside the boxes."""
    if subject.source is None:
        return
    damage = render_changes(subject.source, subject.doc, subject.boxes, pictures=subject.pictures)
    subject.checks["pixels_changed"] = damage
    subject.problems.extend(damage)


def _check_text_leaks(subject: _Subject) -> None:
    """No extractor (nor the companion text) reads a redacted string more often than it remains
    outside the redactions, nor the longest run of six or more of its digits."""
    strings = subject.strings
    residual_digits = re.sub(r"\D", "", subject.residual)
    readers = {name: normalize(" ".join(p)) for name, p in subject.pages.items()}
    subject.checks["extractors"] = sorted(readers)
    if subject.companion_text is not None:
        readers["companion text"] = normalize(subject.companion_text)
        subject.checks["companion_chars"] = len(subject.companion_text)
    leaks = []
    for name, text in readers.items():
        digits = re.sub(r"\D", "", text)
        for s in strings:
            allowed = subject.allowances[s]
            seen = count_word(text, s)
            run = _longest_digits(s)
            if seen > allowed:
                leaks.append(f"{name}: {_ref(s, strings)} readable {seen}x (allowed {allowed})")
                subject.leaked.add(s)
            elif len(run) >= 6 and run in digits and run not in residual_digits:
                leaks.append(f"{name}: {len(run)} digits of {_ref(s, strings)} readable")
                subject.leaked.add(s)
    subject.checks["text_leaks"] = leaks
    subject.problems.extend(leaks)


def _check_glyphs_under_boxes(subject: _Subject) -> None:
    """No character is left under a box (a black rectangle drawn over live text)."""
    under = _glyphs_under_boxes(subject.doc, subject.boxes)
    subject.checks["glyphs_under_boxes"] = len(under)
    if under:
        subject.problems.append(f"{len(under)} characters remain under redaction boxes, e.g. {under[0]}")


def _check_hidden_layers(subject: _Subject) -> None:
    """Metadata, XMP, annotations, form fields, attachments and bookmarks hold no redacted string;
    their counts are recorded."""
    doc, strings = subject.doc, subject.strings
    layers = _hidden_layers(doc)
    pairs = [(layer, s) for layer, value in layers.items() for s in strings if count_word(value, s)]
    hidden = [f"{layer}: {_ref(s, strings)}" for layer, s in pairs]
    subject.leaked.update(s for _layer, s in pairs)
    subject.checks["hidden_layer_leaks"] = hidden
    subject.problems.extend(f"hidden layer {h}" for h in hidden)
    subject.checks["annotations"] = sum(len(list(page.annots() or [])) for page in doc)
    subject.checks["form_fields"] = sum(len(list(page.widgets() or [])) for page in doc)
    subject.checks["attachments"] = doc.embfile_count()
    subject.checks["xmp_bytes"] = len(doc.get_xml_metadata() or "")


def _check_raw_objects(subject: _Subject) -> None:
    """No decompressed PDF object holds an ASCII redacted string of six or more characters."""
    strings = subject.strings
    raw = _raw_objects(subject.doc)
    leaks = [s for s in strings if s.isascii() and len(s) >= 6 and s in raw and subject.allowances[s] == 0]
    subject.checks["raw_object_leaks"] = [_ref(s, strings) for s in leaks]
    subject.problems.extend(f"raw PDF object contains {_ref(s, strings)}" for s in leaks)
    subject.leaked.update(leaks)


#: The checks of :func:`verify`, in the order their problems are reported.
CHECKS: tuple[Callable[[_Subject], None], ...] = (
    _check_analysed_text,
    _check_pixels,
    _check_text_leaks,
    _check_glyphs_under_boxes,
    _check_hidden_layers,
    _check_raw_objects,
)


def _ref(value: str, strings: list[str]) -> str:
    """How a problem names a redacted value without quoting it (logs and reports must not
    carry personal data): its number among the redacted values and its length."""
    return f"redacted value {strings.index(value) + 1} ({len(value)} characters)"
