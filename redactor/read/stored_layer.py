"""The analysed document kept once: a :class:`~redactor.read.extraction.TextLayer` written to
bytes after the analysis and read back for review, text selection, exports and publishing, so
that none of them rebuilds and extracts the original again (and the proposals' offsets and boxes
are exactly those of the analysis).

Format (:data:`LAYER_FORMAT`): the magic ``b"RDLAYER"`` and the format's number, the length of
the header (8 bytes, big-endian), the zlib-compressed JSON header (the text, the pages, the OCR
pages, the unread layers, the picture spans and the ink marks), then the zlib-compressed character boxes as
float64 rows ``(page, x0, y0, x1, y1)`` in PDF points, ``NaN`` for a character without a box.
"""

from __future__ import annotations

import dataclasses
import json
import zlib

import numpy as np

from redactor.model import PageInfo, Span
from redactor.read.extraction import TextLayer
from redactor.read.handwriting import marks_dict, marks_from_dict
from redactor.read.ocr import OcrPage

#: The format written; a stored layer of another format is read again from the original.
LAYER_FORMAT = 2
_MAGIC = b"RDLAYER"


class StoredLayerError(ValueError):
    """Bytes that are not a stored layer of :data:`LAYER_FORMAT`."""


def layer_to_bytes(layer: TextLayer) -> bytes:
    """``layer`` as bytes (module docstring); :func:`layer_from_bytes` gives it back equal."""
    header = {
        "text": layer.text,
        "pages": [dataclasses.asdict(p) for p in layer.pages],
        "ocr_pages": {str(n): page.to_dict() for n, page in layer.ocr_pages.items()},
        "unread_layers": {str(n): [list(r) for r in rects] for n, rects in layer.unread_layers.items()},
        "picture_spans": {str(n): [s.start, s.end] for n, s in layer.picture_spans.items()},
        "ink_marks": marks_dict(layer.ink_marks),
    }
    boxes = np.full((len(layer.boxes), 5), np.nan, dtype=np.float64)
    for i, box in enumerate(layer.boxes):
        if box is not None:
            boxes[i] = box
    head = zlib.compress(json.dumps(header, ensure_ascii=False).encode("utf-8"), 6)
    return _MAGIC + bytes([LAYER_FORMAT]) + len(head).to_bytes(8, "big") + head + zlib.compress(boxes.tobytes(), 6)


def layer_from_bytes(data: bytes) -> TextLayer:
    """The :class:`TextLayer` :func:`layer_to_bytes` wrote. Raises :class:`StoredLayerError` for
    anything else (another format, damaged bytes)."""
    if not data.startswith(_MAGIC) or len(data) < len(_MAGIC) + 9 or data[len(_MAGIC)] != LAYER_FORMAT:
        raise StoredLayerError("not a stored text layer of this format")
    start = len(_MAGIC) + 9
    size = int.from_bytes(data[len(_MAGIC) + 1 : start], "big")
    try:
        header = json.loads(zlib.decompress(data[start : start + size]))
        rows = np.frombuffer(zlib.decompress(data[start + size :]), dtype=np.float64).reshape(-1, 5)
    except (zlib.error, ValueError) as exc:
        raise StoredLayerError(f"a damaged stored text layer: {exc}") from exc
    if len(rows) != len(header["text"]):
        raise StoredLayerError("a stored text layer whose boxes do not match its text")
    boxes: list[tuple[int, float, float, float, float] | None] = [
        None if np.isnan(row[0]) else (int(row[0]), float(row[1]), float(row[2]), float(row[3]), float(row[4]))
        for row in rows
    ]
    return TextLayer(
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
