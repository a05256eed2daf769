"""Helpers for human review: page images, text under a manual box, and the blacked-out share
of each page (the stored document, :mod:`redactor.read.document`, offers them for a contract).

Coordinates are PDF points with y growing downwards (PyMuPDF page space); pages count from 1.
"""

from __future__ import annotations

import itertools
import math
import zlib
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import pymupdf

from redactor.errors import InvalidPdfError
from redactor.model import Box, Span
from redactor.read.extraction import TextLayer

#: Shares of a page's area blacked out at which the registry's watchdogs flag over-redaction
#: (the thresholds the issue quotes: 5 % and 20 % of a page).
COVERAGE_WARN = 0.05
COVERAGE_ALERT = 0.20

#: Hlídač státu's rules for a published page (its ``PageMetadata.BlurredMetadata``:
#: ``BlackenAreaRatio = BlackenArea / (BlackenArea + TextArea)``; ``NumOfBlurredPages`` counts
#: pages at 0.05 or more, ``NumOfExtensivelyBlurredPages`` at 0.2 or more). The share of a
#: contract's pages so counted feeds the agency's public risk index.
WATCHDOG_REDACTED = 0.05
WATCHDOG_HEAVY = 0.20
#: Hlídač státu's readability test of an attachment: at most 20 characters or at most 10 words of
#: text (or text only from its own OCR) make it unreadable.
WATCHDOG_MIN_CHARS = 20
WATCHDOG_MIN_WORDS = 10
#: Ink already black in a page's picture counts as the watchdog sees it: a pixel (72 dpi, one a
#: point) darker than this grey level inside a solid square of this side in points is a bar (no
#: glyph stroke of body text is that thick).
BLACK_GREY = 80
BLACK_SQUARE = 5


#: Pixels one rendered page may have unless the caller says otherwise (an A0 page at 1.5× has 18 M).
MAX_RENDER_PIXELS = 20_000_000


def render_zoom(width: float, height: float, zoom: float, max_pixels: int = MAX_RENDER_PIXELS) -> float:
    """``zoom``, lowered so that a ``width`` × ``height`` pt page gives at most ``max_pixels``."""
    pixels = width * height * zoom * zoom
    return zoom if pixels <= max_pixels else zoom * (max_pixels / pixels) ** 0.5


def render_page(
    pdf: bytes,
    page: int,
    *,
    zoom: float = 1.5,
    redact: list[Box] | None = None,
    max_pixels: int = MAX_RENDER_PIXELS,
) -> bytes:
    """PNG of page ``page`` (from 1) at ``zoom`` × 72 dpi, or less when the page would have more
    than ``max_pixels`` pixels (:func:`render_zoom`).

    ``pdf`` is a document this engine wrote (a rebuild, a publication): it is opened as it is.
    With ``redact``, the boxes on that page are burned into a one-page copy first (PyMuPDF
    redaction, text and image pixels removed), so the picture is what publication will show.
    The picture shows the page **unrotated** (as stored, /Rotate ignored), because proposal
    boxes and page words are in unrotated page coordinates (see
    :func:`~redactor.pdf.pdf_pages.page_area`). Raises ``InvalidPdfError`` for unreadable
    input or a page MuPDF cannot render, and ``IndexError`` for a page out of range.
    """
    doc = _open(pdf)
    try:
        if not 1 <= page <= doc.page_count:
            raise IndexError(f"page {page} out of range 1..{doc.page_count}")
        if redact:
            doc.select([page - 1])
            target = doc[0]
            for b in redact:
                if b.page == page:
                    target.add_redact_annot(pymupdf.Rect(b.x0, b.y0, b.x1, b.y1), fill=(0, 0, 0))
            target.apply_redactions(images=pymupdf.PDF_REDACT_IMAGE_PIXELS)
        else:
            target = doc[page - 1]
        if target.rotation:
            target.set_rotation(0)
        scale = render_zoom(target.rect.width, target.rect.height, zoom, max_pixels)
        try:
            png: bytes = target.get_pixmap(matrix=pymupdf.Matrix(scale, scale), alpha=False).tobytes("png")
            return png
        except Exception as exc:  # MuPDF's limits and damaged content streams raise several types
            raise InvalidPdfError(f"page {page} cannot be rendered ({exc})") from exc
    finally:
        doc.close()


def _open(pdf: bytes) -> pymupdf.Document:
    """``pdf`` opened by MuPDF. Raises ``InvalidPdfError`` when it cannot be read."""
    try:
        return pymupdf.open(stream=pdf, filetype="pdf")
    except Exception as exc:  # MuPDF raises several types for damaged bytes
        raise InvalidPdfError(f"the document cannot be read ({exc})") from exc


def spans_in_boxes(layer: TextLayer, boxes: list[Box]) -> list[Span]:
    """Runs of characters of ``layer`` whose centre lies inside one of ``boxes``.

    Used for manual boxes: their text must be verified as unreadable after burn-in just like a
    detected value. Adjacent characters form one span; a box over an image gives no span.
    """
    if not boxes:
        return []
    by_page: dict[int, list[Box]] = defaultdict(list)
    for b in boxes:
        by_page[b.page].append(b)
    return [trimmed for run in _runs_in_boxes(layer, by_page) if (trimmed := _trimmed(layer, run)) is not None]


def _runs_in_boxes(layer: TextLayer, by_page: dict[int, list[Box]]) -> list[Span]:
    """Runs of consecutive characters of ``layer`` whose centre lies in a box of ``by_page``; an
    inserted character (no box) inside a run continues it."""
    spans: list[Span] = []
    start = None
    for i, cb in enumerate(layer.boxes):
        inside = False
        if cb is not None:
            page, x0, y0, x1, y1 = cb
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            inside = any(b.x0 <= cx <= b.x1 and b.y0 <= cy <= b.y1 for b in by_page.get(page, ()))
        elif start is not None and i + 1 < len(layer.boxes):
            inside = True  # an inserted space inside a selection continues the run
        if inside and start is None:
            start = i
        elif not inside and start is not None:
            spans.append(Span(start, i))
            start = None
    if start is not None:
        spans.append(Span(start, len(layer.boxes)))
    return spans


def _trimmed(layer: TextLayer, run: Span) -> Span | None:
    """``run`` without the inserted characters and the whitespace at its ends; None when nothing
    is left."""
    a, e = run.start, run.end
    while a < e and (layer.boxes[a] is None or layer.text[a].isspace()):
        a += 1
    while e > a and (layer.boxes[e - 1] is None or layer.text[e - 1].isspace()):
        e -= 1
    return Span(a, e) if e > a else None


def union_area(rects: list[tuple[float, float, float, float]]) -> float:
    """Area covered by the union of axis-aligned ``rects`` ``(x0, y0, x1, y1)`` (overlaps counted once)."""
    rects = [r for r in rects if r[2] > r[0] and r[3] > r[1]]
    if not rects:
        return 0.0
    xs = sorted({x for r in rects for x in (r[0], r[2])})
    area = 0.0
    for left, right in itertools.pairwise(xs):
        spans = sorted((r[1], r[3]) for r in rects if r[0] <= left and r[2] >= right)
        covered = 0.0
        run: tuple[float, float] | None = None  # the run of overlapping spans so far
        for y0, y1 in spans:
            if run is None or y0 > run[1]:
                if run is not None:
                    covered += run[1] - run[0]
                run = (y0, y1)
            else:
                run = (run[0], max(run[1], y1))
        if run is not None:
            covered += run[1] - run[0]
        area += covered * (right - left)
    return area


def page_coverage(boxes: list[Box], page_sizes: dict[int, tuple[float, float]]) -> dict[int, float]:
    """Blacked-out share (0..1) of each page in ``page_sizes`` (``{page: (width, height)}`` in points)."""
    by_page: dict[int, list[tuple[float, float, float, float]]] = defaultdict(list)
    for b in boxes:
        w, h = page_sizes.get(b.page, (0, 0))
        by_page[b.page].append((max(0, b.x0), max(0, b.y0), min(w, b.x1), min(h, b.y1)))
    return {
        page: (round(union_area(by_page.get(page, [])) / (w * h), 4) if w * h else 0.0)
        for page, (w, h) in page_sizes.items()
    }


@dataclass(frozen=True)
class WatchdogPage:
    """How the registry's watchdog (Hlídač státu) would score one published page: ``page``
    (from 1), ``black`` and ``text`` areas in square points (the union of the boxes and the
    black the file already had; the words they leave), ``share`` = black / (black + text), 0 for
    a page with neither, and its verdict ``level``: "heavy" (≥ :data:`WATCHDOG_HEAVY`),
    "redacted" (≥ :data:`WATCHDOG_REDACTED`) or "ok". ``own`` is the part of ``black`` the file
    already had (a scan's dark edges, an earlier redaction): ``own_share`` of the same whole is
    what the page would score with no box at all."""

    page: int
    black: float
    text: float
    own: float = 0.0

    @property
    def own_share(self) -> float:
        """own / (black + text), 0..1: the share the file's own black gives alone."""
        return self.own / (self.black + self.text) if self.black + self.text else 0.0

    @property
    def share(self) -> float:
        """black / (black + text), 0..1."""
        return self.black / (self.black + self.text) if self.black + self.text else 0.0

    @property
    def level(self) -> str:
        """ "heavy", "redacted" or "ok" by the watchdog's thresholds."""
        share = round(self.share, 4)
        return "heavy" if share >= WATCHDOG_HEAVY else "redacted" if share >= WATCHDOG_REDACTED else "ok"


def _word_rects(layer: TextLayer) -> dict[int, list[tuple[float, float, float, float]]]:
    """The layer's words as rectangles per page (consecutive characters with a box, split at
    whitespace, at a line or page change)."""
    words: dict[int, list[tuple[float, float, float, float]]] = defaultdict(list)
    current: list[float] | None = None
    page_of = 0
    for char, cb in zip(layer.text, layer.boxes, strict=True):
        if cb is None or char.isspace() or (current is not None and (cb[0] != page_of or cb[2] > current[3])):
            if current is not None:
                words[page_of].append((current[0], current[1], current[2], current[3]))
                current = None
            if cb is None or char.isspace():
                continue
        page, x0, y0, x1, y1 = cb
        if current is None:
            current, page_of = [x0, y0, x1, y1], page
        else:
            current = [min(current[0], x0), min(current[1], y0), max(current[2], x1), max(current[3], y1)]
    if current is not None:
        words[page_of].append((current[0], current[1], current[2], current[3]))
    return words


def _square_sums(mask: np.ndarray, k: int) -> np.ndarray:
    """For each top-left corner, how many pixels of the k × k square from it are set."""
    s = np.pad(mask.astype(np.int32).cumsum(0).cumsum(1), ((1, 0), (1, 0)))
    sums: np.ndarray = s[k:, k:] - s[:-k, k:] - s[k:, :-k] + s[:-k, :-k]
    return sums


def _grown(corners: np.ndarray, k: int, shape: tuple[int, int]) -> np.ndarray:
    """The pixels of ``shape`` covered by a k × k square from any set corner."""
    h, w = shape
    padded = np.zeros((h, w), dtype=np.int32)
    padded[: corners.shape[0], : corners.shape[1]] = corners[:h, :w]
    s = np.pad(padded.cumsum(0).cumsum(1), ((k, 0), (k, 0)))
    covered: np.ndarray = (s[k : k + h, k : k + w] - s[:h, k : k + w] - s[k : k + h, :w] + s[:h, :w]) > 0
    return covered


def black_areas(pdf: bytes, painted: Sequence[Box] = (), pages: Iterable[int] | None = None) -> dict[int, np.ndarray]:
    """The solid black of each page's picture (bars drawn, printed or scanned), as the watchdog
    finds it: ``{page: mask}``, the mask one cell a point (rows down the page), True where a
    pixel darker than :data:`BLACK_GREY` lies in a solid :data:`BLACK_SQUARE`-point square.
    Renders each page (of ``pages``, pages from 1; all by default) once at 72 dpi in grey, with
    the ``painted`` boxes (points, unrotated page space) filled black first, as publishing
    leaves them; ``pdf`` is a document this engine wrote (a rebuild, a publication). Raises
    ``InvalidPdfError`` like :func:`render_page`."""
    doc = _open(pdf)
    wanted = set(pages) if pages is not None else None
    try:
        out = {}
        for index, page in enumerate(doc):
            if wanted is not None and index + 1 not in wanted:
                continue
            for box in painted:
                if box.page == index + 1:
                    page.draw_rect(
                        pymupdf.Rect(box.x0, box.y0, box.x1, box.y1), color=None, fill=(0, 0, 0), overlay=True
                    )
            pix = page.get_pixmap(dpi=72, colorspace=pymupdf.csGRAY, alpha=False)
            dark = (
                np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.stride)[:, : pix.width] < BLACK_GREY
            )
            if min(dark.shape) < BLACK_SQUARE:
                out[index + 1] = np.zeros_like(dark)
                continue
            full = _square_sums(dark, BLACK_SQUARE) == BLACK_SQUARE * BLACK_SQUARE
            out[index + 1] = _grown(full, BLACK_SQUARE, dark.shape)
        return out
    finally:
        doc.close()


def _cells(lo: float, hi: float) -> slice:
    """The 1-point grid cells a side from ``lo`` to ``hi`` (points) covers, its ends rounded to
    the nearest cell edge (rounding both ways keeps areas unbiased)."""
    return slice(max(0, round(lo)), max(0, round(hi)))


def watchdog_pages(
    layer: TextLayer, boxes: list[Box], black_already: dict[int, np.ndarray] | None = None
) -> list[WatchdogPage]:
    """Each page of ``layer`` as the watchdog would score it with ``boxes`` (PDF points) blacked
    out: the union of the boxes and of ``black_already`` (:func:`black_areas` of the file: bars
    in the input's pictures) against the union of the words they leave, on a 1-point grid (a
    word half or more under black is hidden by it); the part ``black_already`` gives is kept
    apart (:attr:`WatchdogPage.own`). The watchdog measures page pictures; this measures what
    the product draws and keeps, the same areas without a renderer's noise.
    """
    rects = _word_rects(layer)
    out = []
    for info in layer.pages:
        w, h = max(1, math.ceil(info.width)), max(1, math.ceil(info.height))
        black = np.zeros((h, w), dtype=bool)
        if black_already and info.number in black_already:
            seen = black_already[info.number][:h, :w]
            black[: seen.shape[0], : seen.shape[1]] = seen
        own = float(black.sum())
        for b in boxes:
            if b.page == info.number:
                black[_cells(b.y0, b.y1), _cells(b.x0, b.x1)] = True
        text = np.zeros((h, w), dtype=bool)
        for x0, y0, x1, y1 in rects.get(info.number, ()):
            rows, cols = _cells(y0, y1), _cells(x0, x1)
            cell = black[rows, cols]
            if cell.size and cell.mean() < 0.5:
                text[rows, cols] = True
        out.append(WatchdogPage(info.number, float(black.sum()), float((text & ~black).sum()), own))
    return out


def watchdog_readable(text: str) -> bool:
    """Whether the watchdog would read a published file's ``text`` as readable: more than
    :data:`WATCHDOG_MIN_CHARS` characters (whitespace aside) and more than
    :data:`WATCHDOG_MIN_WORDS` words."""
    return len("".join(text.split())) > WATCHDOG_MIN_CHARS and len(text.split()) > WATCHDOG_MIN_WORDS


#: Two pages repeat each other when their word sets overlap this much (Jaccard) and neither has
#: fewer than :data:`REPEAT_MIN_WORDS` words (a near-empty page repeats everything).
REPEAT_SIMILARITY = 0.9
REPEAT_MIN_WORDS = 20


def word_sets(layer: TextLayer) -> dict[int, set[str]]:
    """Each page's words (case folded, punctuation aside) as a set, by page number (from 1): what
    :func:`repeated_pages` and :func:`page_signatures` compare."""
    words: dict[int, set[str]] = {}
    for info in layer.pages:
        text = layer.text[info.start : info.end].casefold()
        words[info.number] = {w.strip(".,;:()[]\"'„“") for w in text.split()} - {""}
    return words


def repeated_pages(layer: TextLayer) -> dict[int, int]:
    """Pages that repeat an earlier page of the same document (an annex's price list, a plan
    attached twice): ``{page: earlier page}``, each page mapped to the first page it repeats.
    Compares the pages' words (:func:`word_sets`): a page repeats an earlier one when
    :data:`REPEAT_SIMILARITY` of their words are shared."""
    words = word_sets(layer)
    out: dict[int, int] = {}
    numbers = [p.number for p in layer.pages]
    for i, page in enumerate(numbers):
        mine = words[page]
        if len(mine) < REPEAT_MIN_WORDS:
            continue
        for earlier in numbers[:i]:
            theirs = words[earlier]
            if earlier in out or len(theirs) < REPEAT_MIN_WORDS:
                continue
            if len(mine & theirs) / len(mine | theirs) >= REPEAT_SIMILARITY:
                out[page] = earlier
                break
    return out


#: Values in a page's signature (:func:`page_signatures`): the share of equal values estimates
#: the Jaccard similarity of two pages' word sets within ±0.06 (one standard deviation at 0.9).
SIGNATURE_SIZE = 64
_PRIME = (1 << 61) - 1
_SEEDS = np.random.default_rng(340_2015).integers(1, 1 << 31, size=(2, SIGNATURE_SIZE), dtype=np.uint64)


def page_signatures(layer: TextLayer) -> dict[int, list[int]]:
    """A MinHash signature of each page's words (:func:`word_sets`), for pages of
    :data:`REPEAT_MIN_WORDS` words or more: :data:`SIGNATURE_SIZE` integers, kept with a contract
    so that a later contract's pages are compared with it without its text
    (:func:`signature_similarity`). Broder, "On the resemblance and containment of documents"
    (1997); the words are hashed with CRC-32."""
    out: dict[int, list[int]] = {}
    for number, words in word_sets(layer).items():
        if len(words) < REPEAT_MIN_WORDS:
            continue
        hashes = np.array([zlib.crc32(w.encode("utf-8")) for w in sorted(words)], dtype=np.uint64)
        values = (hashes[:, None] * _SEEDS[0] + _SEEDS[1]) % _PRIME
        out[number] = [int(v) for v in values.min(axis=0)]
    return out


def signature_similarity(a: list[int], b: list[int]) -> float:
    """The estimated Jaccard similarity (0..1) of the word sets of two pages from their
    :func:`page_signatures`; 0.0 for signatures of different sizes."""
    if len(a) != len(b) or not a:
        return 0.0
    return sum(x == y for x, y in zip(a, b, strict=True)) / len(a)
