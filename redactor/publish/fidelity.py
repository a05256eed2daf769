"""Fidelity of a published text layer: does an extractor still read every word that was kept?

The registry wants the published contract machine-readable (Act 340/2015 Sb., § 5(1)): every
word the reviewer did not redact must stay in the text layer, as a word of its own and in the
order it is printed, so that the registry, Hlídač státu and journalists find it. Verification
(:mod:`redactor.publish.verify`) compares each page's analysed text outside the redactions with what
PDFium and poppler read on the published page; ``benchmarks/fidelity.py`` reports the same
comparison for whole folders of PDFs.

Words are compared by :func:`compact` (NFKC, case folded, whitespace, hyphens and characters
without meaning dropped), so case, line-end hyphens and soft hyphens do not count. A word the
extractor reads as several pieces (a letter-spaced heading, "D O DAT E K") is held; a word it
reads only glued to its neighbour ("Statutárníměsto") is not, and neither is one it does not
read at all.
"""

from __future__ import annotations

import functools
import itertools
import unicodedata
from collections import Counter
from dataclasses import dataclass

#: Longest run of read tokens that may spell one analysed word (a letter-spaced word read letter
#: by letter), and of analysed words that a glued token may join.
MAX_PIECES = 12

_NOT_TEXT = set("-\u00ad\u2010\u2011\ufffd")
#: Characters :func:`compact` has classified, and the translation table deleting those it drops.
_SEEN: set[str] = set()
_DROP: dict[int, None] = {}


def compact(text: str) -> str:
    """``text`` for comparing what two extractors read: NFKC, case folded, without whitespace,
    hyphens, soft hyphens and characters that map to nothing (U+FFFD, private use, controls)."""
    return _compact_word(text) if len(text) <= _WORD_CHARS else _compact(text)


#: Strings up to this long (words) are compacted once and remembered: verification compacts
#: every word of a page for each extractor and each check.
_WORD_CHARS = 40


@functools.lru_cache(maxsize=1 << 15)
def _compact_word(text: str) -> str:
    return _compact(text)


def _compact(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold()
    for c in set(text) - _SEEN:
        keep = c.isalnum() or (not c.isspace() and c not in _NOT_TEXT and unicodedata.category(c)[0] in "PS")
        if not keep:
            _DROP[ord(c)] = None
        _SEEN.add(c)  # after the table: a thread that sees it classified finds it there
    return text.translate(_DROP)


def tokens(text: str) -> list[str]:
    """The words of ``text`` (split at whitespace) by :func:`compact`, those without a letter or
    digit left out: a bullet or a bracket on its own is not a word a reader searches for."""
    out = []
    for word in text.split():
        token = compact(word)
        if any(c.isalnum() for c in token):
            out.append(token)
    return out


@dataclass(frozen=True)
class PageFidelity:
    """How one extractor reads one page against the words that should be there.

    ``words``: analysed words of the page outside the redactions (with a letter or digit);
    ``lost``: those the extractor does not read at all; ``glued``: those it reads only joined to
    a neighbour; ``disordered``: lines with three neighbouring words that it reads the other
    way round (counted only where the caller asks, see :func:`page_fidelity`)."""

    words: int
    lost: int = 0
    glued: int = 0
    disordered: int = 0

    @property
    def ok(self) -> bool:
        """Nothing lost, glued or out of order."""
        return not (self.lost or self.glued or self.disordered)


def page_fidelity(expected: str, read: str, *, order: bool = False) -> PageFidelity:
    """Compare ``expected`` (a page's analysed text outside the redactions, lines separated by
    ``\\n``) with ``read`` (what an extractor reads on the published page).

    Every expected word must be read as a word of its own (or spelled by up to
    :data:`MAX_PIECES` consecutive read words, as a letter-spaced word is); one read only inside
    a word that joins it to its expected neighbours is *glued*, one read nowhere *lost*. With
    ``order``, each expected line must also be read in its order: a line three of whose neighbouring
    words are read next to each other the other way round ("K E DAT O D") is *disordered*.
    Whole-page reading order (columns, tables) is the extractor's own and is not judged."""
    lines, want = _expected(expected)
    got = tokens(read)
    available = Counter(got)
    missing = []
    for token in want:
        if available[token] > 0:
            available[token] -= 1
        else:
            missing.append(token)
    lost = glued = 0
    if missing:
        spelled = _runs(got)
        leftovers = {t for t, n in available.items() if n > 0}
        joined = _joined(want, leftovers)
        for token in missing:
            if token in spelled:
                continue
            if token in joined:
                glued += 1
            else:
                lost += 1
    disordered = 0
    if order:
        pairs = set(itertools.pairwise(got))
        disordered = sum(1 for line in lines if _reversed(line, pairs))
    return PageFidelity(len(want), lost, glued, disordered)


@functools.lru_cache(maxsize=64)
def _expected(expected: str) -> tuple[list[list[str]], list[str]]:
    """The tokens of each line of ``expected`` and all of them in order: computed once for the
    extractors that are compared with the same page (the caller never changes them)."""
    lines = [tokens(line) for line in expected.split("\n")]
    return lines, [t for line in lines for t in line]


def _runs(got: list[str]) -> set[str]:
    """Concatenations of 2 to :data:`MAX_PIECES` consecutive read tokens."""
    out = set()
    for i in range(len(got)):
        word = got[i]
        for j in range(i + 1, min(len(got), i + MAX_PIECES)):
            word += got[j]
            out.add(word)
    return out


def _joined(want: list[str], leftovers: set[str]) -> set[str]:
    """Expected tokens that occur in a read token (one of ``leftovers``, read but not expected)
    made of 2 to :data:`MAX_PIECES` consecutive expected tokens."""
    out: set[str] = set()
    if not leftovers:
        return out
    for i in range(len(want)):
        word = want[i]
        for j in range(i + 1, min(len(want), i + MAX_PIECES)):
            word += want[j]
            if word in leftovers:
                out.update(want[i : j + 1])
    return out


def _reversed(line: list[str], pairs: set[tuple[str, str]]) -> bool:
    """Whether three neighbouring words of ``line`` are read next to each other the other way
    round (``pairs``: the neighbouring read words). Columns and table cells that an extractor
    reads in its own order may swap two distant words that happen to share a text line; a run
    written backwards swaps every pair."""
    swapped = [a != b and (b, a) in pairs and (a, b) not in pairs for a, b in itertools.pairwise(line)]
    return any(x and y for x, y in itertools.pairwise(swapped))
