"""How good a text layer is: word-likeness (:func:`redactor.text.text_quality`), agreement of another tool's
layer with what Tesseract reads (:func:`layer_agrees`, :func:`layer_similarity`,
:func:`layer_sample`) and lost diacritics."""

from __future__ import annotations

import difflib
import re
import unicodedata

import pymupdf

from redactor.read.ocr.page import OcrPage


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


def layer_sample(
    existing: list[tuple[float, float, float, float, str]], page_rect: pymupdf.Rect
) -> pymupdf.Rect | None:
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
