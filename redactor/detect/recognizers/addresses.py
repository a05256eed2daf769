"""Postal addresses: street + house number ("Zahradní 1461/38", "Obřanská 101a", "náměstí
T. G. Masaryka 145", "Na Kopci 885/18"), optionally followed by PSČ and municipality, or a
village address after a cue ("bytem Lhota č. p. 12").

The cue in front decides what the address is, following the ministry methodology: a
residence ("bytem", "trvale bytem", "bydliště", "trvalý pobyt") is category 45, a seat
("se sídlem", "sídlo") category 46, and a sole trader's place of business ("místo
podnikání") category 46 marked ``place_of_business``; the municipality may stand between the
cue and the street ("bytem: Znojmo, Bratrstva 21"). A delivery or correspondence address
("doručovací adresa") is anybody's, and an address without a cue is reported as a residence
and resolved later by the person or party it belongs to. A number that opens a numbered item
on the next line ("Rekonstrukce vodovodu Renneská\n2) stavba") is no house number.
"""

from __future__ import annotations

import re

from redactor import categories as cat
from redactor import lexicon
from redactor.czech import LOWER, UPPER, role_of
from redactor.detect.recognizers.base import AnalysisContext, Recognizer
from redactor.model import Finding
from redactor.text import ITEM_START

_W = rf"[{UPPER}][{LOWER}]+"
#: A house number (číslo popisné, at most four digits) and its orientation number; five digits
#: after a street name are an inventory or a postcode ("Švestková 12903").
_NUMBER = r"(?:č\.[ ]?p\.[ ]?)?\d{1,4}[a-zA-Z]?(?:[ ]?/[ ]?\d{1,4}[a-zA-Z]?)?"
_PSC_TOWN = (  # a PSČ whose two parts a line break splits ("411⏎12 Bystré") is one PSČ
    rf"\d{{3}}[ \n]?\d{{2}}[ \n]+{_W}"
    # a town's name may wrap ("Mnichovo⏎Hradiště"); a form of address on the next line opens the
    # addressee of a letter ("601 82 Brno⏎Paní⏎X"), not the town
    rf"(?:[ \n]{lexicon.alternatives('place_name_prepositions')}[ \n]{_W}"
    rf"|[ \n](?!(?i:{lexicon.alternatives('person_address', bounded=True)})){_W}|[ ]?-[ ]?{_W}){{0,3}}"
    rf"(?:[ ]\d{{1,2}}(?![\d.]))?"
)
#: "náměstí", "nám.", "třída", "ulice" … with a capital or without.
_STREET_NOUN = f"(?i:{lexicon.alternatives('street_nouns')})"
_STREET = (
    # after a preposition the second word may be a noun in lower case ("Pod Bílou horou", "U Staré školy")
    rf"(?:{lexicon.alternatives('street_prepositions')}[ ]{_W}"
    rf"(?:[ ](?:{_W}|(?!{lexicon.alternatives('on_day', bounded=True)})[{LOWER}]{{4,}}))?"
    rf"|{_STREET_NOUN}[ \n]"  # may wrap
    rf"(?:[{UPPER}]\.[ \n]?){{0,3}}{_W}(?:[ \n]{_W})?"
    rf"|{_W}(?:[ ]{_W}){{0,2}}(?:[ \n]{_STREET_NOUN})?"  # "Hostivařské⏎Nám. 165"
    rf"(?:[ ]{lexicon.alternatives('street_nouns_after')})?)"  # "Javorová alej 4/2", "Husovy sady 12"
    r"(?:[ \n](?:I{1,3}|IV|VI?)(?=[ \n]\d))?"  # numbered streets: "Boční I", "Pod Lipami II"
)
_ADDRESS = re.compile(
    rf"(?<![\w.])(?P<street>{_STREET})(?:[ ]|\n(?!{ITEM_START}))(?P<number>{_NUMBER})"
    rf"(?![\w/)]|[.,]\d|\.[ ]?\d{{1,2}}\.|\s?(?:Kč|%|m²|m2|ks|Sb))"  # "V Praze 15. 10. 2021": a date
    rf"(?P<town>,?[ \n]+{_PSC_TOWN})?"
)
#: The cue of a village address: a residence, a place of business, a seat or "adresa".
_ADDRESS_CUE = "|".join(
    lexicon.alternatives(family) for family in ("residence", "place_of_business", "seat", "address_nouns")
)
_VILLAGE = re.compile(
    rf"(?P<cue>{_ADDRESS_CUE})\s*:?\s*"
    rf"(?P<addr>(?:{_W}(?:[ ]{_W})?[ ,]+)?(?:č\.[ ]?p\.[ ]?)\d{{1,5}}(?:,?[ \n]+{_PSC_TOWN})?|{_PSC_TOWN}"
    # a street whose house number OCR lost, then the postcode and town ("bytem Lipová   338 44 X")
    rf"|{_W}(?:[ ]{_W}){{0,2}},?[ ]+{_PSC_TOWN})",
    re.I,
)
_STREET_SHAPE = re.compile(rf"(?:{lexicon.alternatives('street_name_endings')}|{_STREET_NOUN})$", re.I)
_STOP_FIRST = lexicon.words("not_street_names")
#: The municipality written between a cue and the street ("bytem: Znojmo, Bratrstva 21").
#: "Brno - Královo Pole, ", "Praha 4, ul. ": the town written before the street (lower case: the
#: window is folded to it), its district after a dash, the street noun's abbreviation after it.
_TOWN_FIRST = (
    rf"(?P<town>[{LOWER}]+(?:(?:[ ]?-[ ]?|[ ])[{LOWER}]+){{0,3}}(?:[ ]\d{{1,2}})?,\s*"
    rf"(?:{lexicon.alternatives('street_nouns')}[ ]?)?)?"
)
_CUES = tuple(
    (context, re.compile(rf"({lexicon.alternatives(family)})\s*{seat_in}:?\s*{_TOWN_FIRST}$"))
    for context, family, seat_in in (
        ("place_of_business", "place_of_business", ""),
        ("place_of_business", "establishment", ""),
        ("seat", "seat", r"(?:v\s+)?"),
        ("residence", "residence", ""),
    )
)


def address_context(text: str, start: int) -> tuple[str | None, str | None]:
    """``(context, cue)`` for an address starting at ``start``: the cue words right before it
    ("se sídlem", "bytem", "místo podnikání") or ``(None, None)``."""
    context, cue, _town = _context_and_town(text, start)
    return context, cue


def _context_and_town(text: str, start: int) -> tuple[str | None, str | None, int]:
    """:func:`address_context` and where the address begins: at the town written between the cue
    and the street ("bytem Písek, Budějovická 12": the town is part of the address, so it is
    redacted with the street, never left beside its box), else ``start``."""
    origin = max(0, start - 60)
    window = text[origin:start].replace("\n", " ").lower()
    for context, pattern in _CUES:
        m = pattern.search(window)
        if m:
            town = origin + m.start("town") if m.group("town") else start
            return context, m.group(1), town
    return None, None, start


def _trim_continuation(text: str, start: int, end: int) -> int:
    """Cut an address before a word that starts a new line and then a sentence or a label
    ("...Mnichovo Hradiště\nPropachtovatelé jsou", "...602 00 Brno\nKupující:"): municipality
    names wrap, sentences and labels do not."""
    for m in re.finditer(r"\n(\w+)", text[start:end]):
        word_end = start + m.end(1)
        if re.match(rf"[ ]+[{LOWER}]|[ ]*:", text[word_end : word_end + 3]) or role_of(m.group(1)):
            return start + m.start()
    return end


class AddressRecognizer(Recognizer):
    """Street addresses and village addresses, with their residence/seat cue."""

    name = "address"
    categories = (cat.ADDRESS_RESIDENCE, cat.ADDRESS_SEAT)

    def _emit(self, text: str, start: int, end: int, score: float, shape: str) -> Finding:
        context, cue, town = _context_and_town(text, start)
        category = cat.ADDRESS_SEAT if context in ("seat", "place_of_business") else cat.ADDRESS_RESIDENCE
        evidence = f"{shape}" + (f", cue {cue!r}" if cue else ", no residence or seat cue")
        if town < start:
            evidence += ", the town written first"
        return self.finding(category, town, end, text, score, evidence, attributes={"context": context})

    def analyze(self, context: AnalysisContext) -> list[Finding]:
        text, out = context.text, []
        for m in _ADDRESS.finditer(text):
            street = m.group("street")
            first = street.split()[0].rstrip(".")
            if first in _STOP_FIRST:
                continue
            cue = address_context(text, m.start())[0]
            shaped = bool(_STREET_SHAPE.search(street)) or street.split()[0] in {
                "Na",
                "V",
                "Ve",
                "Za",
                "Pod",
                "Nad",
                "U",
                "K",
                "Ke",
                "Před",
                "Mezi",
                "Při",
                "Do",
                "Od",
                "Po",
                "náměstí",
                "Náměstí",
                "nám.",
                "Nám.",
                "třída",
                "tř.",
                "nábřeží",
                "ul.",
                "ulice",
            }
            if not (shaped or cue or m.group("town")):
                continue
            score = 0.9 if (cue or m.group("town")) else 0.7
            shape = "street and house number" + (" with PSČ and municipality" if m.group("town") else "")
            out.append(self._emit(text, m.start(), _trim_continuation(text, m.start(), m.end()), score, shape))
        covered = [(f.span.start, f.span.end) for f in out]
        for m in _VILLAGE.finditer(text):
            s, e = m.start("addr"), m.end("addr")
            if any(a < e and s < b for a, b in covered):
                continue
            out.append(self._emit(text, s, _trim_continuation(text, s, e), 0.85, "address after a cue"))
        return out
