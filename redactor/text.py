"""Tokens, lines and sentences of the document text (offsets into ``TextLayer.text``)."""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata
from bisect import bisect_right
from collections.abc import Iterable

from redactor.czech import LOWER, UPPER
from redactor.model import Span

#: Abbreviations after which a full stop does not end a sentence (lower-cased, without the dot).
ABBREVIATIONS = frozenset(
    """č čj čp ú p r rč nar ul nám tel mob fax ing mgr bc bca mudr mvdr mddr judr phdr rndr paeddr
    pharmdr thdr doc prof dr arch s spol sb odst písm resp tzv apod atd mj např popř ev reg zn st sv
    max min cca vč tj zejm viz obr tab str kap čl sl pí vl a o z k v tř nábř k.ú kú ks hod min""".split()
)
#: A numbered item or heading at the start of a line ("2. Objednatel", "3) stavba", "II. Cena",
#: "b) …"); a number followed by another is a date that wrapped ("1. 12. 1999"), not an item.
ITEM_START = r"[ ]*(?:\d{1,2}(?:\.\d{1,2})*[.)]|[IVX]+\.|[a-z]\))(?:[ \n](?![ ]*\d)|$)"
_NUMBERED_LINE = re.compile(
    rf"^\s*(?:\d{{1,2}}(?:\.\d{{1,2}})*\.?\)?\s(?!\s*\d)|[IVXLC]{{1,6}}\.\s|[a-z]\)\s|Článek\s|Čl\.\s|§\s?\d|[{UPPER}][{LOWER}]+\s*:)"
)


def line_spans(text: str) -> list[Span]:
    """Each line of ``text`` (without its trailing ``\\n``)."""
    spans, start = [], 0
    for m in re.finditer("\n", text):
        spans.append(Span(start, m.start()))
        start = m.end()
    if start < len(text):
        spans.append(Span(start, len(text)))
    return spans


#: The last field of a line that holds more than a label: a short cue after a comma ("…, mobil:").
_WRAPPED_FIELD = re.compile(r",[ ]*[^,:\n]{1,24}:[ ]*$")


def sentence_spans(text: str) -> list[Span]:
    """Split ``text`` into sentences.

    A sentence ends at ``.``, ``!``, ``?`` or ``;`` followed by an upper-case letter or a digit,
    unless the word before the full stop is an abbreviation or an initial, or the full stop
    follows a day or month number of a date ("28. 3. 1990"); a line that opens a
    numbered clause, an article or a label (``Kupující:``) starts a new sentence, and so does
    the line after one ending with a colon, unless that colon ends a field cued after a comma
    ("…, RNDr. X, mobil:"), whose value the next line holds.
    """
    cuts = {0, len(text)}
    for m in re.finditer(rf"[.!?;](?=\s+[\"„]?[{UPPER}0-9])", text):
        if m.group() == ".":
            before = re.search(r"(\w+)\.?$", text[max(0, m.start() - 12) : m.start()])
            word = before.group(1) if before else ""
            if word.lower() in ABBREVIATIONS or (len(word) == 1 and word.isalpha()):
                continue
            if word.isdigit() and len(word) <= 2 and re.match(r"\s+\d", text[m.end() : m.end() + 3]):
                continue  # a date or an ordinal: "nar. 28. 3. 1990", "dne 1. 7. 2017"
        cuts.add(m.end())
    for line in line_spans(text):
        segment = text[line.start : line.end]
        if _NUMBERED_LINE.match(segment):
            cuts.add(line.start)
        # a label line opens what follows; a field's cue that ends an entry's line ("…, RNDr. X,
        # mobil:⏎+420 …") wraps its value onto the next line, in the same sentence
        if segment.rstrip().endswith(":") and not _WRAPPED_FIELD.search(segment):
            cuts.add(line.end)
    ordered = sorted(cuts)
    spans = []
    for a, b in itertools.pairwise(ordered):
        chunk = text[a:b]
        lead = len(chunk) - len(chunk.lstrip())
        trail = len(chunk) - len(chunk.rstrip())
        if b - trail > a + lead:
            spans.append(Span(a + lead, b - trail))
    return spans


class SpanIndex:
    """Finds which of a sorted, non-overlapping list of spans holds an offset."""

    def __init__(self, spans: list[Span]):
        self.spans = sorted(spans, key=lambda s: s.start)
        self._starts = [s.start for s in self.spans]

    def find(self, offset: int) -> Span | None:
        """The span containing ``offset``, or None."""
        i = bisect_right(self._starts, offset) - 1
        if i >= 0 and self.spans[i].start <= offset < self.spans[i].end:
            return self.spans[i]
        return None


def blank_spans(text: str, spans: Iterable[Span]) -> str:
    """``text`` with every character of ``spans`` made a space: what stays readable once they are
    redacted, at the same offsets."""
    chars = list(text)
    for span in spans:
        for i in range(span.start, span.end):
            chars[i] = " "
    return "".join(chars)


#: Characters that end a line or a cell (ASCII and Unicode): a space in a one-line field. Word
#: writes its manual line break as a vertical tab (U+000B).
_LINE_BREAKS = re.compile(r"[\t\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")
#: What no text field keeps: the other C0 and C1 controls, what XML 1.0 (§ 2.2, "Char") cannot
#: carry (lone surrogates and U+FFFE, U+FFFF), and the bidirectional embeddings, overrides and
#: isolates (Unicode UAX #9, 2.1–2.7) that make a text read differently from what it holds
#: ("Trojan Source", CVE-2021-42574).
_UNPRINTABLE = re.compile(
    r"[\x00-\x08\x0e-\x1b\x1f\x7f-\x84\x86-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufffe\uffff]"
)


def plain_text(value: str, *, lines: bool = False) -> str:
    """``value`` as a person's text field keeps it: line breaks and tabs as spaces (``lines``:
    a line feed stays, a CR LF or CR becomes one), other control characters and characters XML
    1.0 cannot carry removed. Every door (the upload form, the API, the registry panel and
    settings) stores text through this, and the registry XML is written from it."""
    if lines:
        value = value.replace("\r\n", "\n").replace("\r", "\n")
        value = "\n".join(_LINE_BREAKS.sub(" ", line) for line in value.split("\n"))
    else:
        value = _LINE_BREAKS.sub(" ", value)
    return _UNPRINTABLE.sub("", value)


#: Share of word-like tokens under which a text layer counts as garbage (see :func:`text_quality`).
GARBAGE_MAX_QUALITY = 0.6

_TOKEN = re.compile(r"\S+")
_WORDLIKE = re.compile(
    r"^[(\"„“'«]*(?:[^\W\d_]{1,}(?:[-'’][^\W\d_]+)*|\d+(?:[.,:/ -]\d+)*|[^\W\d_]{1,3}\.)[)\"“”'».,;:!?]*$"
)
_VOWELS = set("aeiouyáéěíóúůýAEIOUYÁÉĚÍÓÚŮÝ")


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


_WS = re.compile(r"\s+")


def normalize(text: str) -> str:
    """NFKC and whitespace folding, as the registry's scoring and Hlídač státu read text."""
    return _WS.sub(" ", unicodedata.normalize("NFKC", text)).strip()


def count_word(haystack: str, needle: str) -> int:
    """Whole-word occurrences of ``needle`` in ``haystack`` (both normalised)."""
    pattern = _word_pattern(needle)
    return len(pattern.findall(haystack)) if pattern is not None else 0


@functools.lru_cache(maxsize=4096)
def _word_pattern(needle: str) -> re.Pattern[str] | None:
    """The compiled whole-word pattern of ``needle`` (normalised), None for an empty one:
    verification asks for the same values against every extractor's text and every layer."""
    needle = normalize(needle)
    if not needle:
        return None
    return re.compile(r"(?<![\w])" + re.escape(needle) + r"(?![\w])")
