"""The letters a reader reads: one normalisation of code points before every recognizer, in the
analysis and in the reader's check alike.

A text layer may hold other code points than the letters its page shows, because of how the file
was made or to hide a value from a search:

- **format characters** (Unicode general category Cf: zero-width space U+200B, word joiner
  U+2060, soft hyphen U+00AD, joiners, marks of direction) draw nothing and split a word or a
  number for a recognizer; they go. A soft hyphen that ends a line is the hyphen a reader sees
  there and becomes "-" (the line-end hyphen the rest of the analysis knows);
- **decomposed accents** (a letter and a combining mark, Unicode NFD) are composed (Unicode
  Standard Annex #15, NFC) into the one letter a Czech word holds; the composed letter's box is
  the union of both;
- **look-alike letters of another script** (a Cyrillic "о" or Greek "ο" in a Latin word) are folded
  to the Latin letter they are confusable with (Unicode Technical Standard #39's confusables, as
  the ``confusable_homoglyphs`` package ships them), only in a word that mixes scripts: a
  Cyrillic word stays Cyrillic. Neither NFKC nor the UTS #39 skeleton is used: they turn "č"
  into "c" plus a caron and "0" into "O", which breaks Czech names and identifiers.

Nothing else changes: case, accents, digits, punctuation and spaces are kept. Each output
character keeps the index of the input character it came from (:func:`reader_letters`), so
offsets and boxes map back.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

import regex
from confusable_homoglyphs import categories, confusables  # type: ignore[import-untyped]  # no type information

if TYPE_CHECKING:
    from redactor.read.layout import RawChar

#: Scripts whose letters are folded to Latin inside a word that also has Latin letters.
_FOLDED_SCRIPTS = frozenset({"CYRILLIC", "GREEK"})
SOFT_HYPHEN = "\u00ad"


def _format(ch: str) -> bool:
    return unicodedata.category(ch) == "Cf"


@functools.lru_cache(maxsize=1024)
def latin_look_alike(ch: str) -> str | None:
    """The Latin letter ``ch`` (a Cyrillic or Greek letter) is confusable with, or None."""
    if categories.alias(ch) not in _FOLDED_SCRIPTS:
        return None
    found = confusables.is_confusable(ch, preferred_aliases=["latin"], greedy=True) or []
    for entry in found:
        for glyph in entry.get("homoglyphs", []):
            c = str(glyph.get("c", ""))
            if len(c) == 1 and categories.alias(c) == "LATIN" and c.isalpha():
                return c
    return None


def _word_ends(text: str) -> list[tuple[int, int]]:
    """Start and end of each run of letters (and format or combining characters) of ``text``."""
    out, start = [], None
    for i, ch in enumerate(text):
        inside = ch.isalpha() or _format(ch) or unicodedata.combining(ch)
        if inside and start is None:
            start = i
        elif not inside and start is not None:
            out.append((start, i))
            start = None
    if start is not None:
        out.append((start, len(text)))
    return out


def _folded_words(text: str) -> dict[int, str]:
    """Positions of ``text`` whose letter is folded to Latin: letters of another script inside a
    word that also has Latin letters."""
    folded: dict[int, str] = {}
    for a, b in _word_ends(text):
        letters = [(i, ch) for i in range(a, b) if (ch := text[i]).isalpha()]
        scripts = {categories.alias(ch) for _i, ch in letters}
        if "LATIN" not in scripts or not scripts & _FOLDED_SCRIPTS:
            continue
        for i, ch in letters:
            latin = latin_look_alike(ch) if categories.alias(ch) in _FOLDED_SCRIPTS else None
            if latin is not None:
                folded[i] = latin
    return folded


#: What :func:`reader_letters` may change: a format character, a combining mark, a letter of a
#: folded script (one search in C: nearly every line of every layer has none).
_SUSPECT = regex.compile(r"[\p{Cf}\p{M}\p{Script=Cyrillic}\p{Script=Greek}]")
#: A letter of a folded script.
_FOREIGN = regex.compile(r"[\p{Script=Cyrillic}\p{Script=Greek}]")


def needs_reading(text: str) -> bool:
    """Whether :func:`reader_letters` would change ``text`` (a fast test: nearly every layer is
    already as a reader reads it)."""
    if text.isascii() or _SUSPECT.search(text) is None:
        return False
    return (
        _FOREIGN.search(text) is None
        or any(_format(ch) or unicodedata.combining(ch) for ch in text)
        or bool(_folded_words(text))
    )


def reader_letters(text: str) -> tuple[str, list[int]]:
    """``text`` as a reader reads it (the module's rules) and, for each of its characters, the
    index in ``text`` of the character it came from (a composed letter: its base letter)."""
    if not needs_reading(text):
        return text, list(range(len(text)))
    folded = _folded_words(text) if _FOREIGN.search(text) else {}
    out: list[str] = []
    source: list[int] = []
    for i, ch in enumerate(text):
        if _format(ch):
            if ch == SOFT_HYPHEN and text[i + 1 : i + 2] in ("", "\n"):
                out.append("-")
                source.append(i)
            continue
        if unicodedata.combining(ch) and out:
            composed = unicodedata.normalize("NFC", out[-1] + ch)
            if len(composed) == 1:
                out[-1] = composed
                continue
        out.append(folded.get(i, ch))
        source.append(i)
    return "".join(out), source


def read_as_letters(chars: Sequence[RawChar]) -> list[RawChar]:
    """A line's characters (dicts with ``"c"`` and ``"bbox"``, points) as a reader reads them
    (:func:`reader_letters`): format characters dropped, combining marks composed into their
    letter (its box the union of both), look-alike letters folded to Latin. The other keys of a
    character are kept; the input is not changed."""
    text = "".join(c["c"] for c in chars)
    if len(text) != len(chars) or not needs_reading(text):
        return list(chars)
    read, source = reader_letters(text)
    out: list[RawChar] = []
    for k, ch in enumerate(read):
        i = source[k]
        end = source[k + 1] if k + 1 < len(source) else len(chars)
        boxes = [c["bbox"] for c in chars[i:end] if c["bbox"] is not None and not _format(c["c"])]
        bbox = None
        if boxes:
            bbox = (
                min(b[0] for b in boxes),
                min(b[1] for b in boxes),
                max(b[2] for b in boxes),
                max(b[3] for b in boxes),
            )
        out.append(cast("RawChar", {**chars[i], "c": ch, "bbox": bbox if chars[i]["bbox"] is not None else None}))
    return out
