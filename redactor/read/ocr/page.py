"""What OCR gives: words with boxes in PDF points (:class:`OcrWord`) and a page of them
(:class:`OcrPage`), with the orientation helpers and the thresholds for pictures on text pages."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict

#: Resolution at which pages are rendered for Tesseract (dots per inch).
OCR_DPI = 300
#: Share of a page covered by images from which its text layer is treated as a scan's.
SCAN_MIN_IMAGE_COVERAGE = 0.5


class OcrPageDict(TypedDict):
    """:meth:`OcrPage.to_dict`'s shape. A word is a row ``[text, x0, y0, x1, y1, confidence,
    block, paragraph, line]`` (points; a turned word adds its angle): mixed types, hence ``Any``."""

    number: int
    seconds: float
    words: list[list[Any]]
    clip: NotRequired[list[float]]
    layer_off: NotRequired[bool]


@dataclass(frozen=True)
class OcrWord:
    """A word read by OCR: its text, box in PDF points and Tesseract's confidence (0..100).

    ``line`` identifies the text line (block, paragraph, line numbers from Tesseract).
    """

    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    confidence: float
    line: tuple[int, int, int]
    #: Clockwise turn (0, 90, 180, 270 degrees) that makes the word upright: a page scanned on
    #: its side or upside down (:meth:`TesseractOcr.recognize`); its letters run along that axis.
    angle: int = 0

    def char_box(self, i: int) -> tuple[float, float, float, float]:
        """The box ``(x0, y0, x1, y1)`` in points of character ``i`` (from 0): an equal share of
        the word's box in the word's reading direction (left to right when upright, bottom to top
        when turned 90°, right to left upside down, top to bottom at 270°)."""
        n = max(1, len(self.text))
        if self.angle == 90:
            step = (self.y1 - self.y0) / n
            return self.x0, self.y1 - (i + 1) * step, self.x1, self.y1 - i * step
        if self.angle == 180:
            step = (self.x1 - self.x0) / n
            return self.x1 - (i + 1) * step, self.y0, self.x1 - i * step, self.y1
        if self.angle == 270:
            step = (self.y1 - self.y0) / n
            return self.x0, self.y0 + i * step, self.x1, self.y0 + (i + 1) * step
        step = (self.x1 - self.x0) / n
        return self.x0 + i * step, self.y0, self.x0 + (i + 1) * step, self.y1


@dataclass
class OcrPage:
    """One page read by OCR: words in reading order, mean confidence, how long it took."""

    number: int
    words: list[OcrWord] = field(default_factory=list)
    seconds: float = 0.0
    #: The band that was read, ``(x0, y0, x1, y1)`` in points, when only a sample of the page was
    #: read to check another tool's text layer (:meth:`TesseractOcr.check_layer`); None: whole page.
    clip: tuple[float, float, float, float] | None = None
    #: True when this read replaces another tool's layer that was found off the pixels where a
    #: redaction falls (:meth:`~redactor.engine.RedactionEngine.analyze`), however well the
    #: rest of that layer agrees.
    layer_off: bool = False

    @property
    def mean_confidence(self) -> float:
        """Mean word confidence 0..100 (0.0 for a page without words)."""
        if not self.words:
            return 0.0
        return sum(w.confidence for w in self.words) / len(self.words)

    def to_dict(self) -> OcrPageDict:
        """JSON-ready: ``{"number", "seconds", "words": [[text, x0, y0, x1, y1, confidence, b, p, l], ...]}``
        (a turned word adds its angle), plus ``"clip": [x0, y0, x1, y1]`` for a sample."""
        out: OcrPageDict = {
            "number": self.number,
            "seconds": round(self.seconds, 3),
            "words": [
                [w.text, round(w.x0, 2), round(w.y0, 2), round(w.x1, 2), round(w.y1, 2), w.confidence, *w.line]
                + ([w.angle] if w.angle else [])
                for w in self.words
            ],
        }
        if self.clip is not None:
            out["clip"] = list(self.clip)
        if self.layer_off:
            out["layer_off"] = True
        return out

    @classmethod
    def from_dict(cls, data: OcrPageDict) -> OcrPage:
        """The inverse of :meth:`to_dict`."""
        words = [
            OcrWord(t, x0, y0, x1, y1, c, (b, p, ln), *angle)
            for t, x0, y0, x1, y1, c, b, p, ln, *angle in data["words"]
        ]
        clip = None
        if data.get("clip"):
            x0, y0, x1, y1 = data["clip"]
            clip = (x0, y0, x1, y1)
        return cls(int(data["number"]), words, float(data.get("seconds", 0.0)), clip, bool(data.get("layer_off")))

    def lines(self) -> list[list[OcrWord]]:
        """Words grouped by text line, lines in Tesseract's reading order."""
        out: list[list[OcrWord]] = []
        for w in self.words:
            if out and out[-1][0].line == w.line:
                out[-1].append(w)
            else:
                out.append([w])
        return out
