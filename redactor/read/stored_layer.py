"""The analysed document kept once: a :class:`~redactor.read.extraction.TextLayer` written to
bytes after the analysis and read back for review, text selection, exports and publishing, so
that none of them rebuilds and extracts the original again (and the proposals' offsets and boxes
are exactly those of the analysis). With it go what the allowlist rebuild reported
(:class:`~redactor.pdf.rebuilt.Rebuilt` without its PDF, which is stored beside) and the upload's
looks (:class:`~redactor.read.looks.PageLook`), the two parts of the stored document
(:class:`~redactor.read.document.StoredDocument`) that are not the text.

Format (:data:`LAYER_FORMAT`): the magic ``b"RDLAYER"`` and the format's number, then three
sections, each its length (8 bytes, big-endian) and its zlib-compressed bytes: the JSON header
(the text, the pages, the OCR pages, the unread layers, the picture spans, the ink marks and, for
a stored document, the rebuild's report and the looks' sizes), the character boxes as float64
rows ``(page, x0, y0, x1, y1)`` in PDF points (``NaN`` for a character without a box), and the
looks' grey pixels, page after page. Format 2 (the layer alone: the header and the boxes, the
latter without a length) is still read.
"""

from __future__ import annotations

import dataclasses
import json
import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from redactor.errors import StoredLayerError
from redactor.model import PageInfo, Span
from redactor.pdf.rebuilt import Rebuilt
from redactor.read.extraction import TextLayer
from redactor.read.handwriting import marks_dict, marks_from_dict
from redactor.read.looks import PageLook
from redactor.read.ocr import OcrPage

#: The format written; a stored layer of another format is read again from the original.
LAYER_FORMAT = 3
#: The earlier format still read (the text layer without the rebuild's report and the looks).
_LAYER_ONLY = 2
_MAGIC = b"RDLAYER"


@dataclass
class StoredParts:
    """What :func:`read_stored` reads: the ``layer``, and for a stored document the ``rebuild``'s
    report (its ``pdf`` empty: the PDF is stored beside) and the upload's ``looks``; both None
    in a layer stored alone."""

    layer: TextLayer
    rebuild: Rebuilt | None = None
    looks: list[PageLook] | None = None


def _section(data: bytes) -> bytes:
    packed = zlib.compress(data, 6)
    return len(packed).to_bytes(8, "big") + packed


def layer_to_bytes(layer: TextLayer, rebuild: Rebuilt | None = None, looks: list[PageLook] | None = None) -> bytes:
    """``layer`` as bytes (module docstring), with the ``rebuild``'s report and the upload's
    ``looks`` when given; :func:`read_stored` gives them back equal (:func:`layer_from_bytes`
    the layer)."""
    header: dict[str, Any] = {
        "text": layer.text,
        "pages": [dataclasses.asdict(p) for p in layer.pages],
        "ocr_pages": {str(n): page.to_dict() for n, page in layer.ocr_pages.items()},
        "unread_layers": {str(n): [list(r) for r in rects] for n, rects in layer.unread_layers.items()},
        "picture_spans": {str(n): [s.start, s.end] for n, s in layer.picture_spans.items()},
        "ink_marks": marks_dict(layer.ink_marks),
    }
    if rebuild is not None:
        header["rebuild"] = {
            "removed": rebuild.removed,
            "pictured": rebuild.pictured,
            "regions": {str(n): [list(r) for r in rects] for n, rects in rebuild.regions.items()},
            "images": {str(n): [list(r) for r in rects] for n, rects in rebuild.images.items()},
        }
    if looks is not None:
        header["looks"] = [[look.width, look.height, look.unit, *look.grey.shape] for look in looks]
    boxes = np.full((len(layer.boxes), 5), np.nan, dtype=np.float64)
    for i, box in enumerate(layer.boxes):
        if box is not None:
            boxes[i] = box
    pixels = b"".join(np.ascontiguousarray(look.grey, dtype=np.uint8).tobytes() for look in looks or ())
    head = json.dumps(header, ensure_ascii=False).encode("utf-8")
    return _MAGIC + bytes([LAYER_FORMAT]) + _section(head) + _section(boxes.tobytes()) + _section(pixels)


def layer_from_bytes(data: bytes) -> TextLayer:
    """The :class:`TextLayer` :func:`layer_to_bytes` wrote. Raises :class:`StoredLayerError` for
    anything else (another format, damaged bytes)."""
    return read_stored(data).layer


def _sections(data: bytes, count: int) -> list[bytes]:
    """The ``count`` length-prefixed sections after the magic and the format's number (format 2:
    the header with its length, then the boxes to the end)."""
    out, at = [], len(_MAGIC) + 1
    for i in range(count):
        if data[len(_MAGIC)] == _LAYER_ONLY and i == count - 1:
            out.append(zlib.decompress(data[at:]))
            break
        size = int.from_bytes(data[at : at + 8], "big")
        if size <= 0 or at + 8 + size > len(data):
            raise StoredLayerError("a stored text layer cut short")
        out.append(zlib.decompress(data[at + 8 : at + 8 + size]))
        at += 8 + size
    return out


def read_stored(data: bytes) -> StoredParts:
    """The layer, the rebuild's report and the looks :func:`layer_to_bytes` wrote (format 2:
    the layer alone). Raises :class:`StoredLayerError` for anything else (another format,
    damaged bytes)."""
    if (
        not data.startswith(_MAGIC)
        or len(data) < len(_MAGIC) + 9
        or data[len(_MAGIC)] not in (LAYER_FORMAT, _LAYER_ONLY)
    ):
        raise StoredLayerError("not a stored text layer of this format")
    try:
        sections = _sections(data, 3 if data[len(_MAGIC)] == LAYER_FORMAT else 2)
        header = json.loads(sections[0])
        rows = np.frombuffer(sections[1], dtype=np.float64).reshape(-1, 5)
    except (zlib.error, ValueError) as exc:
        raise StoredLayerError(f"a damaged stored text layer: {exc}") from exc
    if len(rows) != len(header["text"]):
        raise StoredLayerError("a stored text layer whose boxes do not match its text")
    boxes: list[tuple[int, float, float, float, float] | None] = [
        None if np.isnan(row[0]) else (int(row[0]), float(row[1]), float(row[2]), float(row[3]), float(row[4]))
        for row in rows
    ]
    layer = TextLayer(
        text=header["text"],
        boxes=boxes,
        pages=[PageInfo(**p) for p in header["pages"]],
        ocr_pages={int(n): OcrPage.from_dict(page) for n, page in header["ocr_pages"].items()},
        unread_layers={
            int(n): [(r[0], r[1], r[2], r[3]) for r in rects] for n, rects in header["unread_layers"].items()
        },
        picture_spans={int(n): Span(s[0], s[1]) for n, s in header["picture_spans"].items()},
        ink_marks=marks_from_dict(header["ink_marks"]),
    )
    return StoredParts(layer, _rebuild(header.get("rebuild")), _looks(header.get("looks"), sections[2:]))


def _rects(by_page: dict[str, list[list[float]]]) -> dict[int, list[tuple[float, float, float, float]]]:
    return {int(n): [(r[0], r[1], r[2], r[3]) for r in rects] for n, rects in by_page.items()}


def _rebuild(report: dict[str, Any] | None) -> Rebuilt | None:
    if report is None:
        return None
    return Rebuilt(
        b"",
        removed=dict(report["removed"]),
        pictured=list(report["pictured"]),
        regions=_rects(report["regions"]),
        images=_rects(report["images"]),
    )


def _looks(sizes: list[list[float]] | None, sections: list[bytes]) -> list[PageLook] | None:
    if sizes is None or not sections:
        return None
    pixels, at, looks = sections[0], 0, []
    for width, height, unit, rows, cols in sizes:
        count = int(rows) * int(cols)
        if at + count > len(pixels):
            raise StoredLayerError("a stored document whose looks are cut short")
        grey = np.frombuffer(pixels, dtype=np.uint8, count=count, offset=at).reshape(int(rows), int(cols))
        looks.append(PageLook(float(width), float(height), float(unit), grey))
        at += count
    return looks
