"""A signature certification clause (legalizace, vidimace) read as one person's block.

A town office or a notary certifies a signature on the last page of a contract: "Ověřuji, že
Marie SVOBODOVÁ, nar. 12. 3. 1961, bytem Husova 214, 586 01 Jihlava, … podpis uznala za
vlastní". The clause names the signer and gives their date of birth and home address, which are
redacted for anyone, whatever the signer's role (DOMAIN.md, "Where scans hide personal data";
the clause's wording follows Act 21/2006 Sb. on certification, § 13, and its implementing
decree 36/2006 Sb.). On a scan the OCR often misreads a letter or a digit of each of them, so
the clause is found by its frame (the certifying verb before, the acknowledgement of the
signature after) and its values by their place in it, not by their exact form.
"""

from __future__ import annotations

import re

from .. import categories as cat
from ..model import Finding, FindingAttributes
from .base import AnalysisContext, Recognizer

#: Where a clause starts: the certifying verb or the clause's name, with or without diacritics.
_START = re.compile(r"(?i)\bov[eěé][rř]uj[eií]|\bov[eěé][rř]ovac[ií]\s+dolo[zž]k|\blegaliza|\bvidima")
#: Where it ends: the signer acknowledged the signature as their own, or signed before the clerk.
_END = re.compile(
    r"(?i)(?:uznal|podepsal)\w*(?:\s*/\s*a|\s*\(a\))?\s+(?:za\s+)?vlastn|vlastnoru[cč]n[eě]\s+podepsal"
    r"|p[rř]ed\s+(?:n[aá]mi|mnou)\s+podepsal"
)
#: The farthest an end may stand from the start (characters): a clause is a sentence or two.
CLAUSE_MAX_CHARS = 700
#: A digit as OCR reads it on a scan: O and o for 0; I, l, |, [ and ] for 1; S for 5; B for 8.
_DIGIT = r"[\dOoIl|\[\]SB]"
_DOB = re.compile(
    rf"(?i)(?:\bnar\.|\bnar\b|\bnarozen[aáýé]?(?:\s*/\s*a|\s*\(a\))?)\s*(?:dne\s*)?:?\s*"
    rf"(?P<value>{_DIGIT}{{1,2}}\s*[.,]\s*{_DIGIT}{{1,2}}\s*[.,]\s*{_DIGIT}{{4}})"
)
_RESIDENCE = re.compile(
    r"(?i)(?:\btrvale\s+)?(?:\bbytem|\bbydli[sš]t[eě]m?|\btrval[ýy]m?\s+pobyt(?:em)?|\bm[ií]stem\s+trval[eé]ho\s+pobytu)"
    r"\s*:?\s*"
)
#: What ends a residence inside the clause: a comma before a lower-case word ("…, jejíž
#: totožnost"), the acknowledgement, a full stop before a capital.
_RESIDENCE_END = re.compile(r",\s*[a-zěščřžýáíéúůťďň]|\s+podpis|\.\s+[A-ZĚŠČŘŽÝÁÍÉÚŮ]|\n\s*\n")
#: Longest residence taken (characters): a street, a number, a postcode and a town.
RESIDENCE_MAX_CHARS = 90
#: The signer: capitalised words (any case) after "že", before the date of birth or birth number.
_SIGNER = re.compile(
    r"(?i)\bže\s+(?:(?:pan[ií]?|paní)\s+)?(?P<name>(?:[^\W\d_]+\.\s*){0,3}[^\W\d_]+(?:[ ]+[^\W\d_]+){1,3})"
    r"\s*,?\s*(?:nar|r\.?\s*č|rodn|dat)"
)
_TITLE = re.compile(r"^(?:[^\W\d_]+\.\s*)+")


class CertificationClauseRecognizer(Recognizer):
    """The signer's name, date of birth and home address in a signature certification clause;
    each finding carries ``attributes["clause"] = "certification"``, by which the policy redacts
    the date of birth and the address whatever the signer's role
    (:func:`~redactor.core.decision_rules.certification_clause`). The name is reported with a
    lower score than the person recognizer's, which wins where it reads the name too."""

    name = "certification_clause"
    categories = (cat.FULL_NAME, cat.DATE_OF_BIRTH, cat.ADDRESS_RESIDENCE)

    def analyze(self, context: AnalysisContext) -> list[Finding]:
        text = context.text
        out: list[Finding] = []
        position = 0
        while (start := _START.search(text, position)) is not None:
            end = _END.search(text, start.end(), start.end() + CLAUSE_MAX_CHARS)
            if end is None:
                position = start.end()
                continue
            out += self._clause(text, start.start(), end.start())
            position = end.end()
        return out

    def _clause(self, text: str, start: int, end: int) -> list[Finding]:
        """The findings of the clause ``text[start:end]``."""
        out = []
        for m in _DOB.finditer(text, start, end):
            out.append(
                self.finding(
                    cat.DATE_OF_BIRTH,
                    m.start("value"),
                    m.end("value"),
                    text,
                    0.97,
                    "date of birth in a signature certification clause",
                    attributes=FindingAttributes(clause="certification"),
                )
            )
        for m in _RESIDENCE.finditer(text, start, end):
            stop = _RESIDENCE_END.search(text, m.end(), min(end, m.end() + RESIDENCE_MAX_CHARS))
            value_end = stop.start() if stop else min(end, m.end() + RESIDENCE_MAX_CHARS)
            value = text[m.end() : value_end].rstrip(" ,.;\n")
            if len(value) >= 4 and re.search(r"\d", value):
                out.append(
                    self.finding(
                        cat.ADDRESS_RESIDENCE,
                        m.end(),
                        m.end() + len(value),
                        text,
                        0.97,
                        "home address in a signature certification clause",
                        attributes=FindingAttributes(context="residence", clause="certification"),
                    )
                )
        signer = _SIGNER.search(text, start, end)
        if signer:
            title = _TITLE.match(signer.group("name"))
            name_start = signer.start("name") + (len(title.group()) if title else 0)
            if signer.end("name") > name_start:
                out.append(
                    self.finding(
                        cat.FULL_NAME,
                        name_start,
                        signer.end("name"),
                        text,
                        0.8,
                        "the signer named in a signature certification clause",
                        attributes=FindingAttributes(clause="certification"),
                    )
                )
        return out
