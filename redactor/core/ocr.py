"""Optical character recognition of scanned pages with Tesseract (Czech model ``ces``).

A page is rendered by PyMuPDF at :data:`OCR_DPI` and read by Tesseract through pytesseract's
``image_to_data`` (words with boxes, line structure and a confidence 0..100 per word). Boxes
are turned into PDF points so that the rest of the engine – recognizers, the category map,
review, burn-in – treats OCR words exactly as born-digital text. Tesseract comes from Debian
(``tesseract-ocr``, ``tesseract-ocr-ces``, Apache-2.0; the ``ces`` model is trained by the
Tesseract project); nothing is downloaded.

Which pages are read: pages without a usable text layer (no text, or mostly unmapped glyphs,
see :mod:`redactor.core.extraction`), and scanned pages that carry a text layer of another OCR
tool (invisible text over a page-sized image) or text that reads as garbage: such a layer is
replaced, never kept under a redaction box (an invisible word under a box is a leak).
"""

from __future__ import annotations

import os
import re
import shutil
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import pymupdf
from stdnum.cz import bankaccount

from .errors import OcrUnavailableError

#: Resolution at which pages are rendered for Tesseract (dots per inch).
OCR_DPI = 300
#: Share of a page covered by images from which its text layer is treated as a scan's.
SCAN_MIN_IMAGE_COVERAGE = 0.5
#: Share of word-like tokens under which a text layer counts as garbage (see :func:`text_quality`).
GARBAGE_MAX_QUALITY = 0.6

_TOKEN = re.compile(r"\S+")
_WORDLIKE = re.compile(
    r"^[(\"„“'«]*(?:[^\W\d_]{1,}(?:[-'’][^\W\d_]+)*|\d+(?:[.,:/ -]\d+)*|[^\W\d_]{1,3}\.)[)\"“”'».,;:!?]*$"
)
_VOWELS = set("aeiouyáéěíóúůýAEIOUYÁÉĚÍÓÚŮÝ")


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


#: A whole page read with a lower mean word confidence (0..100) gets its orientation checked ...
ORIENTATION_MIN_CONFIDENCE = 50.0
#: ... and is turned when Tesseract's orientation detection is at least this confident.
ORIENTATION_MIN_OSD = 2.0


def _mean(found: list[tuple]) -> float:
    """Mean confidence of words found by :meth:`TesseractOcr._read` (0.0 for none)."""
    return sum(w[1] for w in found) / len(found) if found else 0.0


def _vertical(found: list[tuple]) -> bool:
    """True when most words of three or more characters found by :meth:`TesseractOcr._read` are
    taller than wide: Tesseract read a page lying on its side line by line down the page."""
    long = [w for w in found if len(w[0]) >= 3]
    tall = sum(1 for w in long if (w[5] - w[3]) > 1.5 * (w[4] - w[2]))
    return bool(long) and tall > len(long) / 2


def _turned_back(box, turn: int, size: tuple[int, int]) -> tuple[float, float, float, float]:
    """A box ``(x0, y0, x1, y1)`` read in an image turned ``turn`` degrees clockwise, in the
    pixels of the image as it was (``size``: its width and height)."""
    width, height = size
    x0, y0, x1, y1 = box
    if turn == 90:  # (x, y) -> (height - y, x) when turning; back: x = v, y = height - u
        return y0, height - x1, y1, height - x0
    if turn == 180:
        return width - x1, height - y1, width - x0, height - y0
    return width - y1, x0, width - y0, x1  # 270: (x, y) -> (y, width - x); back: x = width - v, y = u


#: A picture on a text page is read by OCR from this size on (points) ...
PICTURE_MIN_WIDTH = 150.0
PICTURE_MIN_HEIGHT = 40.0
#: ... and this share of the page area.
PICTURE_MIN_SHARE = 0.03
#: A picture with this many visible characters of the text layer on it is a scan under its own text.
PICTURE_MAX_CHARS_OVER = 10
#: A smaller picture is read when another tool's invisible text lies on it, from this size (points).
LAYERED_MIN_WIDTH = 40.0
LAYERED_MIN_HEIGHT = 10.0
#: Words of such a picture read with less confidence (0..100) are noise: logos, signatures.
PICTURE_MIN_CONFIDENCE = 60.0


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
    #: redaction falls (:meth:`~redactor.core.engine.RedactionEngine.analyze`), however well the
    #: rest of that layer agrees.
    layer_off: bool = False

    @property
    def mean_confidence(self) -> float:
        """Mean word confidence 0..100 (0.0 for a page without words)."""
        if not self.words:
            return 0.0
        return sum(w.confidence for w in self.words) / len(self.words)

    def to_dict(self) -> dict:
        """JSON-ready: ``{"number", "seconds", "words": [[text, x0, y0, x1, y1, confidence, b, p, l], ...]}``
        (a turned word adds its angle), plus ``"clip": [x0, y0, x1, y1]`` for a sample."""
        out = {
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
    def from_dict(cls, data: dict) -> OcrPage:
        """The inverse of :meth:`to_dict`."""
        words = [
            OcrWord(t, x0, y0, x1, y1, c, (b, p, ln), *angle)
            for t, x0, y0, x1, y1, c, b, p, ln, *angle in data["words"]
        ]
        clip = tuple(data["clip"]) if data.get("clip") else None
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


def text_quality(text: str) -> float:
    """Share (0..1) of tokens that look like words or numbers; a garbled OCR layer
    ("ÿþ%#Ž ,,,~ l1l1") scores low. Words need a vowel unless they are short abbreviations."""
    tokens = _TOKEN.findall(text)
    if not tokens:
        return 0.0
    good = 0
    for t in tokens:
        if not _WORDLIKE.match(t):
            continue
        letters = [c for c in t if c.isalpha()]
        if len(letters) > 3 and not any(c in _VOWELS for c in letters):
            continue
        good += 1
    return good / len(tokens)


def layer_agrees(existing: list[tuple[float, float, float, float, str]], ocr: OcrPage, tolerance: float = 4.0) -> float:
    """Share (0..1) of Tesseract's words of three or more characters that another tool's text
    layer has at the same place (same text, centres within ``tolerance`` points). ``existing``
    are PyMuPDF words ``(x0, y0, x1, y1, text)``. A layer that agrees sits on the image it
    describes, so boxes computed from it cover the right pixels."""

    def norm(t: str) -> str:
        return re.sub(r"[^\w]", "", t).lower()

    index: dict[str, list[tuple[float, float]]] = {}
    for x0, y0, x1, y1, text in existing:
        index.setdefault(norm(text), []).append(((x0 + x1) / 2, (y0 + y1) / 2))
    wanted = [w for w in ocr.words if len(norm(w.text)) >= 3]
    if not wanted:
        return 0.0
    hits = 0
    for w in wanted:
        cx, cy = (w.x0 + w.x1) / 2, (w.y0 + w.y1) / 2
        if any(abs(cx - x) <= tolerance and abs(cy - y) <= tolerance for x, y in index.get(norm(w.text), [])):
            hits += 1
    return hits / len(wanted)


def layer_similarity(
    existing: list[tuple[float, float, float, float, str]], ocr: OcrPage, tolerance: float = 4.0
) -> float:
    """Share (0..1) of Tesseract's words of three or more characters that another tool's text
    layer says roughly alike at the same place: a layer word on the same line (centres within
    ``tolerance`` points vertically) whose box holds the word's centre (with ``tolerance``) and
    whose letters and digits are at least :data:`LAYER_WORD_SIMILARITY` alike (difflib's ratio).
    Unlike :func:`layer_agrees` it does not need both readers to be right: on a poor scan Tesseract
    reads "T924" where the layer says "7 924", and both describe the same pixels. A layer shifted
    a line or more off scores about 0. ``existing`` are PyMuPDF words ``(x0, y0, x1, y1, text)``."""
    import difflib  # noqa: PLC0415 - only for scans with another tool's layer

    def norm(t: str) -> str:
        return re.sub(r"[^\w]", "", t).lower()

    wanted = [w for w in ocr.words if len(norm(w.text)) >= 3]
    if not wanted:
        return 0.0
    lines: dict[int, list[tuple[float, float, float, str]]] = {}
    for x0, y0, x1, y1, text in existing:
        lines.setdefault(round((y0 + y1) / 2 / tolerance), []).append((x0, x1, (y0 + y1) / 2, norm(text)))
    hits = 0
    for w in wanted:
        cx, cy, text = (w.x0 + w.x1) / 2, (w.y0 + w.y1) / 2, norm(w.text)
        key = round(cy / tolerance)
        near = [c for k in (key - 1, key, key + 1) for c in lines.get(k, ())]
        if any(
            x0 - tolerance <= cx <= x1 + tolerance
            and abs(cy - y) <= tolerance
            and difflib.SequenceMatcher(None, text, other).ratio() >= LAYER_WORD_SIMILARITY
            for x0, x1, y, other in near
        ):
            hits += 1
    return hits / len(wanted)


#: Czech letters with diacritics (lower case); a page of Czech text has about one in twenty.
_CZECH_MARKED = set("áčďéěíňóřšťúůýž")
#: Share of a page's letters with Czech diacritics under which its text may have lost them, and
#: the share Tesseract must read on the same page to say that the glyphs show them.
DIACRITICS_LOST_SHARE = 0.002
DIACRITICS_SHOWN_SHARE = 0.02


def _marked_share(text: str) -> float:
    letters = [c for c in text.lower() if c.isalpha()]
    return sum(c in _CZECH_MARKED for c in letters) / len(letters) if letters else 0.0


def _unmarked(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


def may_have_lost_diacritics(text: str) -> bool:
    """True for a page's text of 200 or more letters with (almost) no Czech diacritics: a text
    layer whose glyphs may show them while its Unicode does not (a scanner's font that maps "ř"
    to "r"), or a text in another language; :func:`lost_diacritics` tells which."""
    letters = sum(c.isalpha() for c in text)
    return letters >= 200 and _marked_share(text) < DIACRITICS_LOST_SHARE


def lost_diacritics(
    existing: list[tuple[float, float, float, float, str]], ocr: OcrPage, tolerance: float = 4.0
) -> bool:
    """True when Tesseract reads Czech diacritics on the page (at least
    :data:`DIACRITICS_SHOWN_SHARE` of its letters) and half or more of its words with them stand
    at the same place in the page's text without them ("Kancelář" where the layer says
    "Kancelar"): the glyphs show what the text layer lost. ``existing`` are PyMuPDF words
    ``(x0, y0, x1, y1, text)``, boxes in points."""
    if _marked_share(" ".join(w.text for w in ocr.words)) < DIACRITICS_SHOWN_SHARE:
        return False
    marked = [w for w in ocr.words if len(w.text) >= 3 and set(w.text.lower()) & _CZECH_MARKED]
    if not marked:
        return False

    def norm(t: str) -> str:
        return re.sub(r"[^\w]", "", t).lower()

    layer: dict[str, list[tuple[float, float, float]]] = {}
    for x0, y0, x1, y1, text in existing:
        layer.setdefault(norm(text), []).append((x0, x1, (y0 + y1) / 2))
    hits = 0
    for w in marked:
        cx, cy = (w.x0 + w.x1) / 2, (w.y0 + w.y1) / 2
        places = layer.get(norm(_unmarked(w.text)), ())
        if any(x0 - tolerance <= cx <= x1 + tolerance and abs(cy - y) <= tolerance for x0, x1, y in places):
            hits += 1
    return hits >= 0.5 * len(marked)


#: Share of Tesseract's words another tool's OCR layer must have at the same place to be kept.
LAYER_MIN_AGREEMENT = 0.3
#: How alike (difflib ratio of letters and digits) a layer word and Tesseract's word at the same
#: place must be to count for :func:`layer_similarity`.
LAYER_WORD_SIMILARITY = 0.6
#: Share of Tesseract's words a layer must say roughly alike (:func:`layer_similarity`) to be
#: kept when fewer than :data:`LAYER_MIN_AGREEMENT` agree exactly: a poor scan that both readers
#: read differently. Measured on the real scans (116 pages with another tool's layer): layers
#: that sit on their pictures score 0.36 to 1.00, most above 0.8; a layer shifted by two lines
#: scores 0.00.
LAYER_MIN_SIMILARITY = 0.4
#: Share of the band's words that must agree for the band alone to keep a layer: it sees fewer
#: words than the page, so it must agree more clearly; below it the whole page is read and
#: :data:`LAYER_MIN_AGREEMENT` decides, so a band never keeps a layer the page would reject.
SAMPLE_MIN_AGREEMENT = 0.5
#: Words of another tool's layer in the sample that checks it (:func:`layer_sample`): a band of
#: whole lines from the middle of the page holding about this many words ...
SAMPLE_WORDS = 60
#: ... and at least this many, or the whole page is read.
SAMPLE_MIN_WORDS = 15


def layer_sample(existing: list[tuple[float, float, float, float, str]], page_rect) -> pymupdf.Rect | None:
    """The band of a scanned page read to check another tool's text layer: whole lines of the
    layer's ``existing`` words (PyMuPDF words ``(x0, y0, x1, y1, text)``, points) from the middle of
    the page down, about :data:`SAMPLE_WORDS` words, the page's full width; None when the layer
    has fewer than :data:`SAMPLE_MIN_WORDS` words (the page is then read in full). A layer that is
    shifted or describes other pixels disagrees in any band as well as on the whole page; a band
    costs Tesseract a fraction of the page."""
    if len(existing) < SAMPLE_MIN_WORDS:
        return None
    centres = sorted((y0 + y1) / 2 for _x0, y0, _x1, y1, _t in existing)
    first = max(0, min(len(centres) // 2 - SAMPLE_WORDS // 2, len(centres) - SAMPLE_WORDS))
    low, high = centres[first], centres[min(len(centres), first + SAMPLE_WORDS) - 1]
    # whole lines: every word whose centre is in the band, then a margin up to the next line
    inside = [w for w in existing if low <= (w[1] + w[3]) / 2 <= high]
    y0, y1 = min(w[1] for w in inside), max(w[3] for w in inside)
    above = [w[3] for w in existing if (w[1] + w[3]) / 2 < low and w[3] < y0]
    below = [w[1] for w in existing if (w[1] + w[3]) / 2 > high and w[1] > y1]
    y0 = max(page_rect.y0, (max(above) + y0) / 2 if above else y0 - 6)
    y1 = min(page_rect.y1, (min(below) + y1) / 2 if below else y1 + 6)
    return pymupdf.Rect(page_rect.x0, y0, page_rect.x1, y1)


#: How Tesseract misreads the "@" of an e-mail address: "©", "©A", "(A", "®" (seen on scanned
#: registry contracts: "blesno©Ablesno.cz", "tender.ec(Aeltodo.cz", "jan.oresky ©Aih21.org").
_AT = r"(?:©A?|\(A|\(a\)|®A?)"
_LOCAL = r"[\w.+-]*[^\W\d_][\w.+-]*"
_DOMAIN = r"[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}"
_EMAIL_IN_WORD = re.compile(rf"^(?P<local>{_LOCAL}){_AT}(?P<domain>{_DOMAIN})(?P<tail>[.,;:)]*)$")
_AT_DOMAIN = re.compile(rf"^{_AT}(?P<domain>{_DOMAIN})(?P<tail>[.,;:)]*)$")
_LOCAL_WORD = re.compile(rf"^{_LOCAL}$")


def _joined(first: OcrWord, second: OcrWord, text: str) -> OcrWord:
    """One word ``text`` from two OCR words of a line: the union of their boxes, the lower
    confidence, the first word's line and reading direction."""
    return replace(
        first,
        text=text,
        x0=min(first.x0, second.x0),
        y0=min(first.y0, second.y0),
        x1=max(first.x1, second.x1),
        y1=max(first.y1, second.y1),
        confidence=min(first.confidence, second.confidence),
    )


def repair_emails(words: list[OcrWord]) -> list[OcrWord]:
    """``words`` with e-mail addresses whose "@" OCR misread put right: within a word
    ("blesno©Ablesno.cz" -> "blesno@blesno.cz") and across a space ("jan.oresky" + "©Aih21.org"
    -> one word "jan.oresky@ih21.org" with the union of both boxes). Only a token that then reads
    as an address (a local part, a domain with a dot and a top-level domain) is changed."""
    out: list[OcrWord] = []
    for w in words:
        m = _EMAIL_IN_WORD.match(w.text)
        if m:
            w = replace(w, text=f"{m['local']}@{m['domain']}{m['tail']}")
        else:
            m = _AT_DOMAIN.match(w.text)
            prev = out[-1] if out else None
            if m and prev is not None and prev.line == w.line and _LOCAL_WORD.match(prev.text):
                out[-1] = _joined(prev, w, f"{prev.text}@{m['domain']}{m['tail']}")
                continue
        out.append(w)
    return out


#: A day of a date whose "1" OCR read as a bracket, a bar or a letter ("[.7. 2018", "l.7.2018").
_DAY_MISREAD = re.compile(r"^[\[\]|lI](?=\d?\.\d{1,2}\.(?:(?:19|20)\d{2})?$)")
_YEAR = re.compile(r"^(?:19|20)\d{2}[.,;:)]*$")
#: An account whose four-digit bank code OCR split in two ("2100048174/20" + "10").
_ACCOUNT_HEAD = re.compile(r"^(?:\d{1,6}-)?\d{2,10}/\d{2}$")
_CODE_TAIL = re.compile(r"^(?P<digits>\d{2})(?P<tail>[.,;:)]*)$")


def repair_numbers(words: list[OcrWord]) -> list[OcrWord]:
    """``words`` with two misreadings of numbers put right where the result can be checked: the
    "1" of a day read as "[", "|", "l" or "I" in a date whose year follows ("[.7. 2018" ->
    "1.7. 2018"), and a bank code split by a space ("2100048174/20" + "10" -> one word
    "2100048174/2010", the union of both boxes) when the joined account passes python-stdnum's
    Czech account check. Other words are returned as they are."""
    out: list[OcrWord] = []
    for i, w in enumerate(words):
        following = words[i + 1] if i + 1 < len(words) else None
        year_next = following is not None and following.line == w.line and _YEAR.match(following.text)
        if _DAY_MISREAD.match(w.text) and (year_next or w.text[-4:].isdigit()):
            w = replace(w, text="1" + w.text[1:])
        prev = out[-1] if out else None
        tail = _CODE_TAIL.match(w.text)
        if tail and prev is not None and prev.line == w.line and _ACCOUNT_HEAD.match(prev.text):
            joined = prev.text + tail["digits"]
            gap = w.x0 - prev.x1
            if gap < 2 * (prev.y1 - prev.y0) and bankaccount.is_valid(joined):
                out[-1] = _joined(prev, w, joined + tail["tail"])
                continue
        out.append(w)
    return out


class TesseractOcr:
    """OCR with the Tesseract command-line program (through pytesseract).

    ``language`` is a Tesseract model name (``ces`` by default; ``ces+eng`` reads both).
    ``threads`` caps Tesseract's OpenMP threads (1: one page on one core, and a worker does not
    starve the other jobs); ``parallel`` pages of a document are read at once (one core each,
    :meth:`read_ahead`; 1 by default, since a machine runs a worker per core). Raises
    ``OcrUnavailableError`` from :meth:`recognize` when Tesseract or the model is missing;
    :meth:`available` tells beforehand.
    """

    def __init__(self, language: str = "ces", dpi: int = OCR_DPI, threads: int = 1, parallel: int = 1):
        self.language = language
        self.dpi = dpi
        self.threads = threads
        #: Pages of one document read at the same time (one Tesseract process each); 1: one after another.
        self.parallel = max(1, parallel)
        self._available: bool | None = None

    def available(self) -> bool:
        """True when the ``tesseract`` program and every model of ``language`` are installed."""
        if self._available is None:
            self._available = False
            if shutil.which("tesseract"):
                import pytesseract  # noqa: PLC0415 - OCR is optional: the tesseract program may be absent

                try:
                    langs = set(pytesseract.get_languages(config=""))
                except Exception:  # a broken installation is "not available"
                    langs = set()
                self._available = all(part in langs for part in self.language.split("+"))
        return self._available

    def recognize(self, page: pymupdf.Page, clip: pymupdf.Rect | None = None) -> OcrPage:
        """Read ``page`` (or only its ``clip``, a rectangle of an unrotated page in points);
        word boxes in PDF points (PyMuPDF page space, y down), page from 1.

        A whole page read with a mean confidence under :data:`ORIENTATION_MIN_CONFIDENCE`, or
        read as mostly vertical words, may lie on its side or upside down (a sheet fed the wrong
        way, with no /Rotate to say so): its
        orientation is then detected once (Tesseract's OSD, ``osd`` model) and, when it is turned,
        the page is read again upright; the better read is kept, its words carry the angle
        (:attr:`OcrWord.angle`) and boxes on the page as it is."""
        return self.start(page, clip)()

    def start(self, page: pymupdf.Page, clip: pymupdf.Rect | None = None) -> Callable[[], OcrPage]:
        """Render ``page`` now (MuPDF, in the calling thread) and return the call that reads it
        (Tesseract, a separate program: any thread may make the call, see :meth:`read_ahead`)."""
        from PIL import Image  # noqa: PLC0415 - only with OCR

        if not self.available():
            raise OcrUnavailableError(f"Tesseract with the '{self.language}' model is not installed")
        started = time.perf_counter()
        pix = page.get_pixmap(dpi=self.dpi, colorspace=pymupdf.csGRAY, alpha=False, clip=clip)
        image = Image.frombytes("L", (pix.width, pix.height), pix.samples)
        turnable, number = clip is None and not page.rotation, page.number + 1
        # pixel -> point: the page was rendered from its rect (rotation included) at self.dpi
        to_page = ~page.rotation_matrix if page.rotation else None
        area = page.rect if clip is None else pymupdf.Rect(clip) & page.rect
        sx, sy = area.width / pix.width, area.height / pix.height
        rendering = time.perf_counter() - started

        def read() -> OcrPage:
            reading = time.perf_counter()
            found, turn = self._read(image), 0
            sideways = _vertical(found)
            if turnable and (sideways or _mean(found) < ORIENTATION_MIN_CONFIDENCE):
                turn = self._orientation(image)
                if turn:
                    upright = self._read(image.rotate(-turn, expand=True))  # PIL turns counter-clockwise
                    if sideways or _mean(upright) > _mean(found):
                        found = [(t, c, *_turned_back(box, turn, image.size), line) for t, c, *box, line in upright]
                    else:
                        turn = 0
            result = OcrPage(number)
            for text, conf, x0, y0, x1, y1, line in found:
                rect = pymupdf.Rect(x0 * sx, y0 * sy, x1 * sx, y1 * sy) + (area.x0, area.y0, area.x0, area.y0)
                if to_page is not None:
                    rect = rect * to_page
                result.words.append(OcrWord(text, rect.x0, rect.y0, rect.x1, rect.y1, conf, line, turn))
            result.words = repair_numbers(repair_emails(result.words))
            result.seconds = rendering + time.perf_counter() - reading
            return result

        return read

    def read_ahead(self, doc: pymupdf.Document, numbers: list[int]) -> ReadAhead | None:
        """Pages ``numbers`` (from 1) of ``doc`` read :attr:`parallel` at a time in threads (each
        thread waits on its own Tesseract process), in order, at most :attr:`parallel` rendered
        pages held ahead; None when :attr:`parallel` is 1 or fewer than two pages are to be read."""
        if self.parallel <= 1 or len(numbers) < 2 or not self.available():
            return None
        return ReadAhead(self, doc, numbers)

    def _tesseract(self, call, image, **kwargs):
        """Run one pytesseract ``call`` on ``image`` (``kwargs`` passed on) with Tesseract capped at
        ``threads`` threads. Under :class:`ReadAhead` the limit is already this value, so what each
        thread puts back is the same and threads cannot undo one another's setting."""
        env = os.environ.get("OMP_THREAD_LIMIT")
        os.environ["OMP_THREAD_LIMIT"] = str(self.threads)
        try:
            return call(image, **kwargs)
        finally:
            if env is None:
                os.environ.pop("OMP_THREAD_LIMIT", None)
            else:
                os.environ["OMP_THREAD_LIMIT"] = env

    def _read(self, image) -> list[tuple]:
        """Tesseract's words of ``image``: ``(text, confidence, x0, y0, x1, y1, (block, par, line))``
        in the image's pixels, empty and unrecognised (negative confidence) entries left out."""
        import pytesseract  # noqa: PLC0415 - OCR is optional: the tesseract program may be absent

        data = self._tesseract(
            pytesseract.image_to_data, image, lang=self.language, config="--psm 3", output_type=pytesseract.Output.DICT
        )
        out = []
        for i, text in enumerate(data["text"]):
            text, conf = (text or "").strip(), float(data["conf"][i])
            if not text or conf < 0:
                continue
            x, y, w, h = data["left"][i], data["top"][i], data["width"][i], data["height"][i]
            out.append(
                (text, conf, x, y, x + w, y + h, (data["block_num"][i], data["par_num"][i], data["line_num"][i]))
            )
        return out

    def _orientation(self, image) -> int:
        """Clockwise degrees (0, 90, 180, 270) that turn ``image`` upright, by Tesseract's OSD on a
        half-resolution copy; 0 when it finds too little text to tell or is not sure."""
        import pytesseract  # noqa: PLC0415

        try:
            osd = self._tesseract(
                pytesseract.image_to_osd,
                image.reduce(2),
                lang="osd",
                config="--psm 0",
                output_type=pytesseract.Output.DICT,
            )
        except pytesseract.TesseractError:  # "Too few characters": nothing to turn
            return 0
        turn = int(osd.get("rotate", 0)) % 360
        return turn if turn in (90, 180, 270) and float(osd.get("orientation_conf", 0)) >= ORIENTATION_MIN_OSD else 0

    def check_layer(self, page: pymupdf.Page, band: pymupdf.Rect) -> OcrPage:
        """Read only ``band`` (:func:`layer_sample`) of scanned page ``page``, to check another
        tool's text layer against it; the result remembers the band (``clip``)."""
        result = self.recognize(page, clip=band)
        result.clip = tuple(round(v, 2) for v in band)
        return result

    def read_pictures(self, page: pymupdf.Page, regions: list[pymupdf.Rect]) -> OcrPage | None:
        """Words of the pictures ``regions`` (:func:`picture_regions`) of text page ``page``
        (:func:`read_pictures`), or None when none of their words is read with confidence."""
        result = read_pictures(self, page, regions) if regions else None
        return result if result is not None and result.words else None


def picture_regions(
    page: pymupdf.Page,
    visible: list[tuple[float, float, float, float]],
    images: list[pymupdf.Rect],
    invisible: list[tuple[float, float, float, float]] = (),
) -> list[pymupdf.Rect]:
    """Pictures on a text page large enough to hold readable text (a pasted ID card, a scanned
    annex, a certificate): at least ``PICTURE_MIN_WIDTH`` × ``PICTURE_MIN_HEIGHT`` points and
    ``PICTURE_MIN_SHARE`` of the page, on an unrotated page, with fewer than
    ``PICTURE_MAX_CHARS_OVER`` of the ``visible`` character boxes (points, ``(x0, y0, x1, y1)``)
    of the text layer on it. ``images`` are the page's image boxes
    (:func:`~redactor.core.extraction.image_boxes`). Their text is read by OCR, since no visible
    text describes it; an invisible layer laid over such a picture (another tool's OCR, maybe a
    line off) is not trusted. A smaller picture (down to ``LAYERED_MIN_WIDTH`` ×
    ``LAYERED_MIN_HEIGHT``) is read too when ``invisible`` character boxes (another tool's
    invisible layer) lie on it or a line off it (:func:`layer_area`): the pixels, not that layer,
    decide where its boxes go."""
    if page.rotation:
        return []
    area = abs(page.rect) or 1.0
    out = []
    for image in images:
        rect = image & page.rect
        x0, y0, x1, y1 = layer_area(rect)
        layered = sum(1 for a, b, c, d in invisible if x0 <= (a + c) / 2 <= x1 and y0 <= (b + d) / 2 <= y1)
        x0, y0, x1, y1 = rect
        small = (
            rect.width < PICTURE_MIN_WIDTH or rect.height < PICTURE_MIN_HEIGHT or abs(rect) < PICTURE_MIN_SHARE * area
        )
        if small and not (layered >= 3 and rect.width >= LAYERED_MIN_WIDTH and rect.height >= LAYERED_MIN_HEIGHT):
            continue
        # a picture with visible text laid over it (a scan under its own text) is described by that text
        over = sum(1 for a, b, c, d in visible if x0 <= (a + c) / 2 <= x1 and y0 <= (b + d) / 2 <= y1)
        if over >= PICTURE_MAX_CHARS_OVER:
            continue
        if not any(rect in r for r in out):
            out.append(rect)
    return out


def layer_area(picture: pymupdf.Rect) -> pymupdf.Rect:
    """Where another tool's invisible OCR layer of ``picture`` (points) may lie: the picture and a
    line above and below it (its height, at least 14 points), since such a layer may be a line
    off the pixels. That layer gives way to the picture's OCR words and is removed at burn-in."""
    grow = max(picture.height, 14.0)
    return pymupdf.Rect(picture.x0, picture.y0 - grow, picture.x1, picture.y1 + grow)


def read_pictures(ocr, page: pymupdf.Page, regions: list[pymupdf.Rect]) -> OcrPage:
    """OCR words of ``regions`` of ``page`` (:func:`picture_regions`) as one :class:`OcrPage`;
    words under ``PICTURE_MIN_CONFIDENCE`` (logos, signatures read as noise) are left out, each
    region's lines are numbered apart from the others'."""
    result = OcrPage(page.number + 1)
    for k, rect in enumerate(regions):
        part = ocr.recognize(page, clip=rect)
        result.seconds += part.seconds
        for w in part.words:
            if w.confidence >= PICTURE_MIN_CONFIDENCE:
                result.words.append(
                    OcrWord(w.text, w.x0, w.y0, w.x1, w.y1, w.confidence, (1000 * (k + 1) + w.line[0], *w.line[1:]))
                )
    return result


class ReadAhead:
    """Whole pages of one document read by Tesseract in threads ahead of extraction
    (:meth:`TesseractOcr.read_ahead`): :meth:`take` a page's result in page order; pages are
    rendered in the caller's thread (MuPDF is not thread-safe), :attr:`~TesseractOcr.parallel`
    at most ahead. :meth:`close` ends it (also after an error)."""

    def __init__(self, ocr: TesseractOcr, doc: pymupdf.Document, numbers: list[int]):
        from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415 - only with parallel OCR

        self.ocr, self.doc, self.waiting = ocr, doc, sorted(numbers)
        self.pool = ThreadPoolExecutor(ocr.parallel, thread_name_prefix="ocr")
        self.pending: dict[int, object] = {}
        self.env = os.environ.get("OMP_THREAD_LIMIT")
        os.environ["OMP_THREAD_LIMIT"] = str(ocr.threads)  # once for every thread's Tesseract

    def _fill(self) -> None:
        while self.waiting and len(self.pending) < self.ocr.parallel:
            number = self.waiting.pop(0)
            self.pending[number] = self.pool.submit(self.ocr.start(self.doc[number - 1]))

    def take(self, number: int) -> OcrPage | None:
        """The read of page ``number``, or None when it was not among the pages read ahead."""
        for skipped in [k for k in self.pending if k < number]:  # extraction found text there after all
            self.pending.pop(skipped).cancel()
        self._fill()
        future = self.pending.pop(number, None)
        if future is None:
            return None
        result = future.result()
        self._fill()
        return result

    def close(self) -> None:
        """Stop reading ahead and put the thread limit back."""
        self.pool.shutdown(wait=True, cancel_futures=True)
        if self.env is None:
            os.environ.pop("OMP_THREAD_LIMIT", None)
        else:
            os.environ["OMP_THREAD_LIMIT"] = self.env


#: Share of a proposal's words that OCR must read inside its boxes for another tool's layer to be
#: trusted there, and how alike (0..1, difflib) a read word must be to count.
BOX_MIN_AGREEMENT = 0.5
BOX_WORD_SIMILARITY = 0.7


def layers_off(ocr, doc: pymupdf.Document, layer, proposals) -> set[int]:
    """Pages (from 1) whose kept OCR layer of another tool is off the pixels where a proposal to
    redact or review lies: OCR reads a band around each of the proposal's boxes (the box and a
    line above and below), and fewer than :data:`BOX_MIN_AGREEMENT` of the proposal's words
    (three letters or more) are read inside the box. The band check of the whole layer
    (:func:`layer_sample`) would miss a block that alone sits a line off; a box placed by such a
    layer would black out the wrong line and leave the name readable in the picture. ``layer``
    is the :class:`~redactor.core.extraction.TextLayer`, ``proposals`` its proposals; unrotated
    pages only."""
    import difflib  # noqa: PLC0415 - only for scans with a kept layer

    kept = {p.number for p in layer.pages if p.scan_layer}
    off: set[int] = set()
    for proposal in proposals:
        if proposal.action.value == "keep" or proposal.page not in kept or proposal.page in off:
            continue
        page = doc[proposal.page - 1]
        want = [w for w in (re.sub(r"\W", "", t).lower() for t in proposal.text.split()) if len(w) >= 3]
        if page.rotation or not want:
            continue
        read: list[str] = []
        looked = False
        for box in proposal.boxes:
            rect = pymupdf.Rect(box.x0, box.y0, box.x1, box.y1)
            band = pymupdf.Rect(rect.x0 - 10, rect.y0 - 1.5 * rect.height, rect.x1 + 10, rect.y1 + 1.5 * rect.height)
            inside = rect + (-2, -0.25 * rect.height, 2, 0.25 * rect.height)
            reading = ocr.recognize(page, clip=band & page.rect)
            if reading is None:
                continue  # a replay reads nothing new
            looked = True
            for w in reading.words:
                if inside.contains(pymupdf.Point((w.x0 + w.x1) / 2, (w.y0 + w.y1) / 2)):
                    read.append(re.sub(r"\W", "", w.text).lower())
        found = sum(
            1 for w in want if any(difflib.SequenceMatcher(None, w, r).ratio() >= BOX_WORD_SIMILARITY for r in read)
        )
        if looked and found < BOX_MIN_AGREEMENT * len(want):
            off.add(proposal.page)
    return off


class StoredOcr:
    """OCR results read earlier (``{page number: OcrPage}``), replayed so that a later
    extraction of the same file (publishing) gives exactly the text the proposals index."""

    def __init__(self, pages: dict[int, OcrPage]):
        self.pages = pages

    def available(self) -> bool:
        """Always True: nothing needs to be installed to replay."""
        return True

    def recognize(self, page: pymupdf.Page, clip: pymupdf.Rect | None = None) -> OcrPage | None:
        """The stored result of ``page``, or None when it was not read by OCR; None for a
        ``clip`` too: a replay reads nothing new (:func:`layers_off` then checks nothing, and the
        stored reads say which layers gave way)."""
        return self.pages.get(page.number + 1) if clip is None else None

    def check_layer(self, page: pymupdf.Page, band: pymupdf.Rect) -> OcrPage | None:
        """The stored sample of ``page`` when its layer was checked on a sample (and kept), else
        None (the page was read in full, and :meth:`recognize` replays that)."""
        stored = self.pages.get(page.number + 1)
        return stored if stored is not None and stored.clip is not None else None

    def read_pictures(self, page: pymupdf.Page, regions: list[pymupdf.Rect]) -> OcrPage | None:
        """The stored words of the pictures of text page ``page``, or None."""
        return self.pages.get(page.number + 1)
