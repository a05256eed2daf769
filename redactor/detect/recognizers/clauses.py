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

import bisect
import re

import regex

from redactor import categories as cat
from redactor import lexicon
from redactor.czech import NameGazetteer
from redactor.detect.recognizers.base import AnalysisContext, Recognizer
from redactor.model import Finding, FindingAttributes

#: Where a clause starts: the certifying verb or the clause's name, with or without diacritics.
_START = re.compile(rf"(?i){lexicon.alternatives('certification', bounded=True)}")
#: The other gender's ending a form may add ("narozen/a", "uznal(a)").
_GENDER = r"(?:\s*/\s*a|\s*\(a\))?"
#: Where it ends: the signer acknowledged the signature as their own, or signed before the clerk.
_END = re.compile(
    rf"(?i){lexicon.alternatives('acknowledged')}{_GENDER}\s+{lexicon.alternatives('own_hand')}"
    rf"|{lexicon.alternatives('signed_before')}"
)
#: The farthest an end may stand from the start (characters): a clause is a sentence or two.
CLAUSE_MAX_CHARS = 700
#: A digit as OCR reads it on a scan: O and o for 0; I, l, |, [ and ] for 1; S for 5; B for 8.
_DIGIT = r"[\dOoIl|\[\]SB]"
_DOB = re.compile(
    rf"(?i){lexicon.alternatives('birth', bounded=True)}{_GENDER}\s*(?:{lexicon.alternatives('on_day')}\s*)?:?\s*"
    rf"(?P<value>{_DIGIT}{{1,2}}\s*[.,]\s*{_DIGIT}{{1,2}}\s*[.,]\s*{_DIGIT}{{4}})"
)
_RESIDENCE = re.compile(rf"(?i){lexicon.alternatives('residence', bounded=True)}\s*:?\s*")
#: What ends a residence inside the clause: a comma before a lower-case word ("…, jejíž
#: totožnost"), the acknowledgement, a full stop before a capital.
_RESIDENCE_END = re.compile(
    rf",\s*[a-zěščřžýáíéúůťďň]|\s+{lexicon.alternatives('signature_word')}|\.\s+[A-ZĚŠČŘŽÝÁÍÉÚŮ]|\n\s*\n"
)
#: Longest residence taken (characters): a street, a number, a postcode and a town.
RESIDENCE_MAX_CHARS = 90
#: The signer: capitalised words (any case) after "že", before the date of birth or birth number.
_SIGNER = re.compile(
    rf"(?i)\bže\s+(?:{lexicon.alternatives('mister_missus')}\s+)?"
    r"(?P<name>(?:[^\W\d_]+\.\s*){0,3}[^\W\d_]+(?:[ ]+[^\W\d_]+){1,3})"
    rf"\s*,?\s*[„\"]?\s*{lexicon.alternatives('birth_cue_starts')}"
)
_TITLE = re.compile(r"^(?:[^\W\d_]+\.\s*)+")


#: The labels a legalisation record prints under the values it names (the certification of a
#: signature in the certification book, decree 36/2006 Sb., § 11: the signer's name, date of birth,
#: address of permanent residence and the kind and number of the identity document shown), folded
#: (no diacritics, lower case), with the OCR errors allowed in each ("acresa mista Irvajoho pobytu").
_RECORD_LABELS: tuple[tuple[int, str, int], ...] = (
    (cat.DATE_OF_BIRTH, lexicon.alternatives("record_birth", folded=True), 3),
    (cat.ADDRESS_RESIDENCE, lexicon.alternatives("record_residence", folded=True), 4),
    (cat.ID_CARD, lexicon.alternatives("record_document", folded=True), 3),
)
#: A label line holds little more than its labels (characters).
RECORD_LABEL_MAX_CHARS = 60
#: A record's labels stand within this many characters after a word of legalisation.
RECORD_REACH = 900
_RECORD_CONTEXT = re.compile(rf"(?i){lexicon.alternatives('certification')}")
#: A date in a record's value line, digits also as OCR reads them ("7.10.1975", "7. 10. 1975").
_RECORD_DATE = re.compile(rf"{_DIGIT}{{1,2}}\s*[.,]\s*{_DIGIT}{{1,2}}\s*[.,]\s*{_DIGIT}{{4}}")
#: An identity document's number in a record's value line: six or more digits (OCR's too).
_RECORD_NUMBER = re.compile(rf"(?<![\w]){_DIGIT}{{6,10}}(?![\w])")


class CertificationClauseRecognizer(Recognizer):
    """The signer's name, date of birth and home address in a signature certification clause,
    and the date of birth, home address and identity document's number of a legalisation record
    whose labels stand under its values (:data:`_RECORD_LABELS`); each finding carries
    ``attributes["clause"] = "certification"``, by which the policy redacts the date of birth and
    the address whatever the signer's role
    (:func:`~redactor.decide.decision_rules.certification_clause`). The name is reported with a
    lower score than the person recognizer's, which wins where it reads the name too."""

    name = "certification_clause"
    categories = (cat.FULL_NAME, cat.DATE_OF_BIRTH, cat.ADDRESS_RESIDENCE, cat.ID_CARD)

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
        return out + self._record(text, context.folded)

    def _record(self, text: str, folded: str) -> list[Finding]:
        """The values of a legalisation record: for each of its labels (:data:`_RECORD_LABELS`,
        a few OCR errors allowed) on a line of its own after a word of legalisation, the value on
        the line above it (or the one above that, for a date or a number)."""
        out: list[Finding] = []
        # where a word of legalisation ends: a label counts only within reach after one (most
        # documents have none, and then no line is looked at)
        cues = [m.end() for m in _RECORD_CONTEXT.finditer(text)]
        if not cues:
            return out
        lines, offset = [], 0
        for line in text.split("\n"):
            lines.append((offset, line))
            offset += len(line) + 1
        for k, (start, line) in enumerate(lines):
            if (
                k == 0
                or not _cue_before(cues, start)
                or not _RECORD_CONTEXT.search(text, max(0, start - RECORD_REACH), start)
            ):
                continue
            low = folded[start : start + len(line)].lower()
            if len(line.strip()) > RECORD_LABEL_MAX_CHARS:
                continue
            for category, label, errors in _RECORD_LABELS:
                if not regex.search(f"(?:{label}){{e<={errors}}}", low, flags=regex.BESTMATCH):
                    continue
                for above in (lines[k - 1], lines[k - 2]) if k >= 2 else (lines[k - 1],):
                    found = self._record_value(text, category, *above)
                    if found is not None:
                        out.append(found)
                        break
        return out

    def _record_value(self, text: str, category: int, start: int, line: str) -> Finding | None:
        """The value of ``category`` in a record's value ``line`` (starting at ``start``), or None."""
        if category == cat.ADDRESS_RESIDENCE:
            value = line.strip(" ,.;")
            if len(value) < 6 or not re.search(r"\d", value) or _RECORD_DATE.search(value):
                return None  # a date is the line of the date of birth, read out of order
            begin = start + line.index(value)
            match_start, match_end = begin, begin + len(value)
        else:
            m = (_RECORD_DATE if category == cat.DATE_OF_BIRTH else _RECORD_NUMBER).search(line)
            if m is None:
                return None
            match_start, match_end = start + m.start(), start + m.end()
        attributes = FindingAttributes(clause="certification")
        if category == cat.ADDRESS_RESIDENCE:
            attributes = FindingAttributes(context="residence", clause="certification")
        return self.finding(
            category, match_start, match_end, text, 0.95, "a value above its label in a legalisation record",
            attributes=attributes,
        )  # fmt: skip

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


#: The labels of a natural person's form fields, as printed or as OCR reads them ("Jména",
#: "Jměno", "Talefon"), with the category of the value after them. A label that only a natural
#: person's form has (a name, a date of birth, a birth number, a permanent residence) makes the
#: block personal; a phone, an e-mail or an address alone do not (a company's form has them too).
_FIELDS: tuple[tuple[str, int, bool], ...] = tuple(
    (lexicon.alternatives(family), category, personal)
    for family, category, personal in (
        ("label_full_name", cat.FULL_NAME, True),
        ("label_given_name", cat.FULL_NAME, True),
        ("label_surname", cat.FULL_NAME, True),
        ("label_birth", cat.DATE_OF_BIRTH, True),
        ("birth_number", cat.BIRTH_NUMBER, True),
        ("residence", cat.ADDRESS_RESIDENCE, True),
        ("label_address", cat.ADDRESS_RESIDENCE, False),
        ("phone", cat.PHONE, False),
        ("email", cat.EMAIL_PERSONAL, False),
    )
)
_FIELD_LINE = re.compile(
    r"(?im)^[ \t]*(?:(?P<label>" + "|".join(f"(?:{p})" for p, _c, _n in _FIELDS) + r"))[ \t]*[:.][ \t]*"
    r"(?P<value>\S[^\n]*?)[ \t]*[,;.]?[ \t]*$"
)
#: A line next to a form's fields whose label OCR made unreadable ("Teletory:") but whose value has
#: a phone's or an e-mail's shape: one more of the block's fields, categorised by that shape.
_NEIGHBOUR_LINE = re.compile(
    r"[ \t]*(?P<label>[^\W\d_][^\W\d_.-]{2,14})[ \t]*[:.][ \t]*(?P<value>\S[^\n]*?)[ \t]*[,;.]?[ \t]*(?:\n|$)"
)
_PHONE_SHAPE = re.compile(r"\+?\d[\d ]{7,16}\d")
_EMAIL_SHAPE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


def _shaped_category(value: str) -> int | None:
    """PHONE or EMAIL_PERSONAL when ``value`` is wholly a phone number (9 to 12 digits) or an
    e-mail address, else None."""
    if _PHONE_SHAPE.fullmatch(value) and 9 <= sum(c.isdigit() for c in value) <= 12:
        return cat.PHONE
    if _EMAIL_SHAPE.fullmatch(value):
        return cat.EMAIL_PERSONAL
    return None


#: A label that makes the block someone's in office, not a private person's ("Funkce: starosta").
_OFFICE_LABEL = re.compile(rf"(?im)^[ \t]*{lexicon.alternatives('office_labels')}[ \t]*:")


class FormBlockRecognizer(Recognizer):
    """The values of a natural person's form: two or more consecutive lines of labelled fields
    (Jméno / Příjmení / Datum narození / Trvalý pobyt / Bydliště / Telefon / E-mail …), at least
    one of which only a natural person has. Each value is reported by its label, whatever OCR made
    of it (an e-mail whose "@" was read as a letter, a date with a misread digit), with
    ``attributes["clause"] = "form"``, by which the policy redacts the block's values as one
    person's (:func:`~redactor.decide.decision_rules.personal_block`); names are reported with a
    lower score than the person recognizer's, which wins where it reads them too.

    Source: the issue of information requests under Act 106/1999 Sb. bundled with contracts
    (DOMAIN.md, "Where scans hide personal data": the requester's name, address, phone and
    e-mail) and the ministry's methodology (all of them are a private person's data)."""

    name = "form_block"
    categories = (
        cat.FULL_NAME,
        cat.DATE_OF_BIRTH,
        cat.BIRTH_NUMBER,
        cat.ADDRESS_RESIDENCE,
        cat.PHONE,
        cat.EMAIL_PERSONAL,
    )

    def analyze(self, context: AnalysisContext) -> list[Finding]:
        text = context.text
        out: list[Finding] = []
        block: list[re.Match[str]] = []
        for m in _FIELD_LINE.finditer(text):
            if block and text[block[-1].end() : m.start()].strip():
                out += self._block(text, block)
                block = []
            block.append(m)
        out += self._block(text, block)
        return out

    def _block(self, text: str, lines: list[re.Match[str]]) -> list[Finding]:
        """The findings of one run of field ``lines``: none unless it is a natural person's."""
        fields = [(m, _field(m.group("label"))) for m in lines]
        if len(lines) < 2 or not any(personal for _m, (_c, personal) in fields):
            return []
        around = text[max(0, lines[0].start() - 200) : lines[-1].end() + 200]
        if _OFFICE_LABEL.search(around):
            return []
        out = []
        following = (
            _NEIGHBOUR_LINE.match(text, lines[-1].end() + 1)
            if text[lines[-1].end() : lines[-1].end() + 1] == "\n"
            else None
        )
        shaped = _shaped_category(following.group("value")) if following else None
        if following and shaped is not None and not _FIELD_LINE.match(following.group()):
            fields.append((following, (shaped, False)))
        for m, (category, _personal) in fields:
            value = m.group("value")
            name = category == cat.FULL_NAME
            out.append(
                self.finding(
                    category,
                    m.start("value"),
                    m.start("value") + len(value),
                    text,
                    0.8 if name else 0.99,
                    f"the value of a natural person's form field {m.group('label').strip()!r}",
                    attributes=FindingAttributes(clause="form", context="residence")
                    if category == cat.ADDRESS_RESIDENCE
                    else FindingAttributes(clause="form"),
                )
            )
        return out


def _field(label: str) -> tuple[int, bool]:
    """The category of a field's value and whether only a natural person has the field."""
    for pattern, category, personal in _FIELDS:
        if re.fullmatch(pattern, label.strip(), re.I):
            return category, personal
    return cat.FULL_NAME, True


#: How many lines from the top of a document a letter's sender block may start at (with no
#: label line, "Zadavatel:", above it).
LETTER_HEAD_LINES = 6
#: A line of a sender's address is no longer than this (characters).
LETTER_LINE_MAX_CHARS = 60
_NAME_LINE = re.compile(
    r"^(?:(?:[^\W\d_]{1,6}\.\s*)+)?(?P<words>[^\W\d_]{2,}(?:[ ]+[^\W\d_]{2,}){1,2})"
    r"(?:(?:,\s*|\s+)(?:[^\W\d_]{1,5}\.)+)*$"
)
#: A street and its house number ("Na Výsluní 27", "Lipová 1142/58a", "nám. Míru 3").
_STREET_LINE = re.compile(r"^[^\W\d_]+\.?(?:[ ]+[^\W\d_]+\.?)*[ ]+\d+[^\W\d_]?(?:/\d+[^\W\d_]?)?[,.]?$")
#: A postcode and a town, digits also as OCR reads them ("6O2 00 Brno").
_POSTCODE_LINE = re.compile(r"^[\dOoIl]{3}\s?[\dOoIl]{2}\s+[^\W\d_]")
#: What a sender's address line never holds: a label, an organisation's or an office's word.
_NOT_HOME = re.compile(
    rf":|\b(?:s\.\s?r\.\s?o|a\.\s?s)\b|{lexicon.alternatives('organisation_words', bounded=True)}", re.I
)


#: A line naming a unit of an office ("Odbor finanční"): a name right below it is addressed at the
#: office, not a private sender's.
_OFFICE_LINE = re.compile(rf"^{lexicon.alternatives('unit_headings', bounded=True)}", re.I)


class LetterHeadRecognizer(Recognizer):
    """A private person's letter: at the top of the document, a line that is only a person's
    name (titles allowed; its first or last word a given name the gazetteer knows) followed by
    one or two short lines of a home address (a house number in the first, or a postcode and town
    in the second), with no cue word at all. The address lines are reported as a residence
    (``attributes["clause"] = "letter"``, ``["context"] = "residence"``); the name is the person
    recognizer's. A name right under a line naming an office's unit is no sender's (an office's
    address block). Source: DOMAIN.md (a private person's home address is personal data); the
    layout is a Czech letter's (ČSN 01 6910: the sender's block at the top left)."""

    name = "letter_head"
    categories = (cat.ADDRESS_RESIDENCE,)

    def __init__(self, gazetteer: NameGazetteer | None = None):
        self.gazetteer = gazetteer

    def load(self) -> None:
        if self.gazetteer is None:
            self.gazetteer = NameGazetteer.default()

    def analyze(self, context: AnalysisContext) -> list[Finding]:
        text = context.text
        lines = []
        offset = 0
        for line in text.split("\n")[: LETTER_HEAD_LINES + 2]:
            lines.append((offset, line.strip(), len(line) - len(line.lstrip())))
            offset += len(line) + 1
        for k, (_start, line, _lead) in enumerate(lines[:LETTER_HEAD_LINES]):
            if ":" in line:
                return []  # a label above: a contract's party block ("Zadavatel: Poslanec"), no letter's head
            if k and _OFFICE_LINE.search(lines[k - 1][1]):
                continue  # a name under an office's department: its employee, at the office's address
            if self._name_line(line) and k + 1 < len(lines):
                found = self._address_after(text, lines[k + 1 : k + 3])
                if found is not None:
                    return [found]
        return []

    def _name_line(self, line: str) -> bool:
        m = _NAME_LINE.match(line)
        if m is None or _NOT_HOME.search(line):
            return False
        words = m.group("words").split()
        gazetteer = self.gazetteer or NameGazetteer.default()
        return any(gazetteer.given_name_of(w.capitalize() if w.isupper() else w) for w in (words[0], words[-1]))

    def _address_after(self, text: str, lines: list[tuple[int, str, int]]) -> Finding | None:
        """The residence in the one or two ``lines`` after a name line, or None."""
        taken = []
        for start, line, lead in lines:
            if not line or len(line) > LETTER_LINE_MAX_CHARS or _NOT_HOME.search(line):
                break
            taken.append((start + lead, start + lead + len(line), line))
        if not taken:
            return None
        street_number = bool(_STREET_LINE.match(taken[0][2]))
        postcode = len(taken) > 1 and bool(_POSTCODE_LINE.match(taken[1][2]))
        if not (street_number or postcode):
            return None
        if len(taken) > 1 and not postcode:
            taken = taken[:1]
        return self.finding(
            cat.ADDRESS_RESIDENCE,
            taken[0][0],
            taken[-1][1],
            text,
            0.9,
            "the address lines under a private person's name at the head of a letter",
            attributes=FindingAttributes(context="residence", clause="letter"),
        )


def _cue_before(cues: list[int], start: int) -> bool:
    """Whether a word of legalisation ends (``cues``: ends, ascending) within
    :data:`RECORD_REACH` characters before ``start`` (a quick test before the exact search)."""
    i = bisect.bisect_right(cues, start)
    return i > 0 and cues[i - 1] > start - RECORD_REACH - 1
