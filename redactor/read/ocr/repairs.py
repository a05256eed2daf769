"""Repairs of what OCR misreads in Czech contracts: e-mail addresses split at the at sign
(:func:`repair_emails`), a day read as a bracket, an account split at its bank code
(:func:`repair_numbers`)."""

from __future__ import annotations

import re
from dataclasses import replace

from stdnum.cz import bankaccount

from redactor import lexicon
from redactor.read.ocr.page import OcrWord

#: What Tesseract reads for an "@" on Czech scans (the lexicon's ``at_sign_ocr_misreadings``: "©A",
#: "(©", "(a)", "Gi", "$" …); a domain must follow for it to count.
_AT = lexicon.alternatives("at_sign_ocr_misreadings")
#: Brackets an address may open with ("<jan.novak©seznam.cz>", an e-mail header's sender).
_LEAD = r"(?P<lead>[<(\[„\"]*)"
_LOCAL = r"[\w.+-]*[^\W\d_][\w.+-]*"
_DOMAIN = r"[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}"
_EMAIL_IN_WORD = re.compile(rf"^{_LEAD}(?P<local>{_LOCAL}){_AT}(?P<domain>{_DOMAIN})(?P<tail>[.,;:)>\]“\"]*)$")
#: An "@" read as a capital "A" inside a word that is otherwise in small letters and then reads as
#: an address ("jtrncakAvolny.cz"): a capital has no other place in such a word.
_EMAIL_CAPITAL_A = re.compile(
    r"^(?P<local>[a-z0-9._+-]*[a-z][a-z0-9._+-]*)A(?P<domain>[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,})(?P<tail>[.,;:)]*)$"
)
_AT_DOMAIN = re.compile(rf"^{_AT}(?P<domain>{_DOMAIN})(?P<tail>[.,;:)]*)$")
_LOCAL_WORD = re.compile(rf"^{_LOCAL}$")
_LOCAL_AT = re.compile(rf"^(?P<local>{_LOCAL}){_AT}$")
_DOMAIN_WORD = re.compile(rf"^(?P<domain>{_DOMAIN})(?P<tail>[.,;:)]*)$")
#: The words that announce an e-mail address in a contract ("e-mail:", "E-mail", "email", "mail").
_EMAIL_CUE = re.compile(r"^(?:e-?)?mail\W*$", re.I)


def repaired_email(word: str) -> str | None:
    """The word ``word`` (one OCR word) with the "@" OCR misread put right, or None when it reads as
    no address so (the rule ``email.ocr_at_repair``): ``"<novak©seznam.cz>"`` ->
    ``"<novak@seznam.cz>"``."""
    w = OcrWord(word, 0.0, 0.0, 1.0, 1.0, 90.0, (0, 0, 0))
    out = repair_emails([w])
    return out[0].text if out[0].text != word else None


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
    """``words`` with e-mail addresses whose "@" OCR misread (:data:`_AT`) put right: within a word
    ("blesno©Ablesno.cz" -> "blesno@blesno.cz", "jqwertzAvolny.cz" -> "jqwertz@volny.cz"), across
    a space ("jan.oresky" + "©Aih21.org" -> one word "jan.oresky@ih21.org" with the union of both
    boxes; "jan.novak©" + "seznam.cz"), and read as a space right
    after the cue word "e-mail" ("e-mail" "jan.novak" "seznam.cz"). Only a token that then reads
    as an address (a local part, a domain with a dot and a top-level domain) is changed; a web
    address ("www.…") is not an e-mail."""
    out: list[OcrWord] = []
    for w in words:
        m = _EMAIL_IN_WORD.match(w.text) or _EMAIL_CAPITAL_A.match(w.text)
        if m and not m["local"].lower().startswith("www."):
            w = replace(w, text=f"{m.groupdict().get('lead') or ''}{m['local']}@{m['domain']}{m['tail']}")
        else:
            prev = out[-1] if out else None
            cue = out[-2] if len(out) > 1 else None
            m = _AT_DOMAIN.match(w.text)
            if m and prev is not None and prev.line == w.line and _LOCAL_WORD.match(prev.text):
                out[-1] = _joined(prev, w, f"{prev.text}@{m['domain']}{m['tail']}")
                continue
            m = _DOMAIN_WORD.match(w.text)
            head = _LOCAL_AT.match(prev.text) if m and prev is not None and prev.line == w.line else None
            if m and prev is not None and head and not head["local"].lower().startswith("www."):
                out[-1] = _joined(prev, w, f"{head['local']}@{m['domain']}{m['tail']}")  # "jan.novak©" "seznam.cz"
                continue
            # the at sign read as a space: "e-mail jan.novak seznam.cz" after its cue word
            if (
                m
                and prev is not None
                and cue is not None
                and prev.line == w.line == cue.line
                and _EMAIL_CUE.match(cue.text)
                and _LOCAL_WORD.match(prev.text)
                and "@" not in prev.text
            ):
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
