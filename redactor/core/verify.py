"""Verification of a redacted PDF: re-open it and prove that no redacted string can be read.

Run after every burn-in (``RedactionEngine.redact`` fails when it does not pass) and usable on
its own. Checks, each recorded in ``VerificationResult.checks``:

- text: the page text as read by two independent extractors, PyMuPDF (MuPDF) and pdfplumber
  (pdfminer.six), must not contain a redacted string (whole-word match after NFKC and
  whitespace folding) more often than it legitimately remains elsewhere, nor the longest run
  of six or more of its digits;
- glyphs under boxes: no character may remain inside a redaction box (catches a black
  rectangle drawn over live text);
- hidden layers: Info metadata, XMP, annotations, form fields, embedded files and bookmark
  titles must not contain a redacted string;
- raw objects: no decompressed PDF object may contain an ASCII redacted string of six or
  more characters;
- saves: exactly one ``%%EOF`` marker (an incremental update can keep the original revision).
"""

from __future__ import annotations

import io
import re
import unicodedata
from collections.abc import Iterable

import pdfplumber
import pymupdf

from .model import Box, VerificationResult

_WS = re.compile(r"\s+")


def normalize(text: str) -> str:
    """NFKC and whitespace folding, as the registry's scoring and Hlídač státu read text."""
    return _WS.sub(" ", unicodedata.normalize("NFKC", text)).strip()


def count_word(haystack: str, needle: str) -> int:
    """Whole-word occurrences of ``needle`` in ``haystack`` (both normalised)."""
    needle = normalize(needle)
    if not needle:
        return 0
    return len(re.findall(r"(?<![\w])" + re.escape(needle) + r"(?![\w])", haystack))


def _longest_digits(text: str) -> str:
    runs = re.findall(r"\d+", text)
    return max(runs, key=len, default="")


def extract_texts(data: bytes) -> dict[str, str]:
    """Normalised full text of ``data`` from PyMuPDF and from pdfplumber."""
    texts = {}
    with pymupdf.open(stream=data, filetype="pdf") as doc:
        texts["pymupdf"] = normalize(" ".join(page.get_text() for page in doc))
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        texts["pdfplumber"] = normalize(" ".join(page.extract_text() or "" for page in pdf.pages))
    return texts


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
        files.append(doc.embfile_info(i).get("filename", ""))
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


def _glyphs_under_boxes(doc: pymupdf.Document, boxes: Iterable[Box]) -> list[str]:
    by_page: dict[int, list[Box]] = {}
    for box in boxes:
        by_page.setdefault(box.page, []).append(box)
    found = []
    for number, page_boxes in by_page.items():
        if number > doc.page_count:
            continue
        page = doc[number - 1]
        raw = page.get_text("rawdict")
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
                                found.append(f"page {number}: {ch['c']!r} at ({cx:.1f}, {cy:.1f})")
                                break
    return found


def verify(
    data: bytes,
    redacted_texts: Iterable[str],
    *,
    boxes: Iterable[Box] = (),
    residual_text: str | None = None,
) -> VerificationResult:
    """Check a redacted PDF (``data``) against the strings that were redacted.

    ``residual_text`` is the original text with the redacted spans removed; a redacted string
    may appear in the output as often as it appears there (a surname redacted for a private
    person and kept for an official who shares it). Without it every occurrence is a leak.
    ``boxes`` (points, pages from 1) enable the glyphs-under-boxes check.
    Never raises for a readable PDF; an unreadable one gives ``ok=False``.
    """
    problems: list[str] = []
    checks: dict[str, object] = {}
    strings = sorted({normalize(t) for t in redacted_texts if normalize(t)})
    residual = normalize(residual_text or "")
    residual_digits = re.sub(r"\D", "", residual)
    checks["eof_markers"] = data.count(b"%%EOF")
    if checks["eof_markers"] != 1:
        problems.append(f"{checks['eof_markers']} %%EOF markers: the file contains incremental updates")
    try:
        doc = pymupdf.open(stream=data, filetype="pdf")
        texts = extract_texts(data)
    except Exception as exc:
        return VerificationResult(False, [f"the redacted PDF cannot be read: {exc}"], checks)
    with doc:
        checks["extractors"] = sorted(texts)
        leaks = []
        for name, text in texts.items():
            digits = re.sub(r"\D", "", text)
            for s in strings:
                allowed = count_word(residual, s)
                seen = count_word(text, s)
                if seen > allowed:
                    leaks.append(f"{name}: {s!r} readable {seen}x (allowed {allowed})")
                    continue
                run = _longest_digits(s)
                if len(run) >= 6 and run in digits and run not in residual_digits:
                    leaks.append(f"{name}: digits {run!r} of {s!r} readable")
        checks["text_leaks"] = leaks
        problems += leaks
        under = _glyphs_under_boxes(doc, boxes)
        checks["glyphs_under_boxes"] = len(under)
        if under:
            problems.append(f"{len(under)} characters remain under redaction boxes, e.g. {under[0]}")
        layers = _hidden_layers(doc)
        hidden = [f"{layer}: {s!r}" for layer, value in layers.items() for s in strings if count_word(value, s)]
        checks["hidden_layer_leaks"] = hidden
        problems += [f"hidden layer {h}" for h in hidden]
        checks["annotations"] = sum(len(list(page.annots() or [])) for page in doc)
        checks["form_fields"] = sum(len(list(page.widgets() or [])) for page in doc)
        checks["attachments"] = doc.embfile_count()
        checks["xmp_bytes"] = len(doc.get_xml_metadata() or "")
        raw = _raw_objects(doc)
        raw_leaks = [s for s in strings if s.isascii() and len(s) >= 6 and s in raw and count_word(residual, s) == 0]
        checks["raw_object_leaks"] = raw_leaks
        problems += [f"raw PDF object contains {s!r}" for s in raw_leaks]
        checks["pages"] = doc.page_count
    return VerificationResult(not problems, problems, checks)
