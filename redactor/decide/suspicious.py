"""Suspicious spans: text no recognizer claimed that may still be personal data.

The engine would otherwise keep such text silently. Each becomes a proposal with action
``review`` (the reviewer decides, and the decision can teach the agency a rule, see
:mod:`redactor.decide.rules`), after Mareš (ÚFAL 2021), whose tool labels every span public,
private or *suspicious*. Three kinds:

1. capitalised words no recognizer explains inside a party block (where the parties' names,
   addresses and identifiers are; an unexplained proper noun there may be a name the
   recognizers missed);
2. numbers of four or more digits right after a personal context word ("nar.", "r. č.",
   "č. OP", "tel.", "č. ú.", "bytem"...) that no recognizer matched (a mistyped birth number
   fails its checksum and is otherwise silently kept);
3. words OCR read with little confidence on the line of a redacted value or next to it that
   have the shape of an identifier or an address on the net (six digits or more, an at-sign, a
   domain): a misread phone, account or e-mail no recognizer could match (:func:`ocr_doubts`);
4. spaCy NER ``PERSON`` hits the name rules could not confirm (no gazetteer given name, title
   or cue): their score is :data:`NER_UNCONFIRMED_SCORE`, below the engine's confident
   threshold :data:`CONFIDENT_SCORE`; any finding below that threshold that the map would
   keep is sent to review as well.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from stdnum import numdb

from redactor import categories as cat
from redactor import lexicon
from redactor.czech import NOT_NAMES, role_of
from redactor.decide.decision_rules import Assessment
from redactor.detect.nlp import NlpArtifacts
from redactor.detect.places import PlaceGazetteer
from redactor.detect.roles import is_function_word
from redactor.model import Action, Box, Finding, Party, PartyKind, Span
from redactor.read.review import spans_in_boxes
from redactor.reasons import Reason

if TYPE_CHECKING:  # only the type is needed here
    from redactor.read.extraction import TextLayer

#: Findings scoring below this are not trusted to be kept without a look.
CONFIDENT_SCORE = 0.8
#: Score of a spaCy PERSON hit the name rules could not confirm.
NER_UNCONFIRMED_SCORE = 0.5
#: Category ID of a suspicious span (not in the category map: it is not an identifier yet).
SUSPICIOUS = cat.SUSPICIOUS

_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)?")
#: Words that are capitalised in party blocks for reasons other than being a name.
_BLOCK_WORDS = NOT_NAMES | lexicon.words("block_words")
#: Words after which a number is somebody's personal datum (lower case, diacritics kept).
_PERSONAL_CUES = re.compile(
    "|".join(
        lexicon.alternatives(family, bounded=True)
        for family in (
            "birth",
            "birth_number",
            "id_card",
            "passport",
            "driving_licence",
            "phone",
            "account",
            "account_nouns",
            "sipo",
            "residence",
        )
    ),
    re.I,
)
#: A clause's cross-reference between a cue and a number ("tel. viz čl. 1234").
_CROSS_REFERENCE = re.compile(rf"[;]|{lexicon.alternatives('cross_references', bounded=True)}|§")
_NUMBER = re.compile(r"\d[\d /.\-]{2,}\d")
#: How far after a cue word a number may start, in characters on the same line.
_CUE_REACH = 30


def _covered(span: Span, spans: list[Span]) -> bool:
    return any(span.overlaps(s) for s in spans)


#: Universal parts of speech of common words (a tagger's "X", foreign or unknown, is not one).
_COMMON_POS = frozenset({"NOUN", "ADJ", "VERB", "ADV", "ADP", "DET", "PRON", "NUM", "CCONJ", "SCONJ", "AUX"})


def _proper_noun(pos: dict[int, str], start: int) -> bool:
    """False when the tagger says the word at ``start`` is a common word (noun, adjective,
    verb...); True for a proper noun, an unknown word, or when there is no tagger."""
    return pos.get(start) not in _COMMON_POS


#: Words in front of a name in an organisation's block that make the words after it a person
#: (a contact person, a representative), so an unexplained name there is worth a look.
_PERSON_CUE_BEFORE = re.compile(
    rf"(?:{lexicon.alternatives('person_in_block', bounded=True)}"
    rf"|(?<!\w){lexicon.alternatives('titles_before')})[ :]*$",
    re.I,
)


#: The start of a line up to where a label names its party: "1. Poskytovatel služeb: ", "Nájemce:
#: Fy: " (a place name there is a surname that is also a village's: Poustka, Lhota, Dvořiště).
_NAME_SLOT = re.compile(
    r"^[ ]*(?:\d{1,2}[.)][ ]*)?(?P<role>[^\W\d_]+)(?:[ ][^\W\d_]+)?[ ]*:[ ]*(?:[^\W\d_]{1,3}[ ]*:[ ]*)?$"
)


def _is_place(words: list[str]) -> bool:
    """True when the words are a place name or words of one ("Brně", "Hradci Králové")."""
    places = PlaceGazetteer.default()
    if len(words) >= 2 and any(places.is_place_pair(a, b) for a, b in itertools.pairwise(words)):
        return True
    return all(places.is_place_word(w) for w in words)


@functools.lru_cache(maxsize=1)
def _bank_codes() -> frozenset[str]:
    """The four-digit codes of the banks in python-stdnum's Czech bank code list ("0800", "2010")."""
    db = numdb.get("cz/banks")
    return frozenset(f"{code:04d}" for code in range(10_000) if any(props for _p, props in db.info(f"{code:04d}")))


@functools.lru_cache(maxsize=1)
def _bank_words() -> frozenset[str]:
    """Words of the names of the banks in the Czech bank code list (python-stdnum's ``cz/banks``,
    the ČNB's register of payment system codes) in title case: "Moneta", "Money", "Spořitelna",
    "Komerční". The bank of an account is named in a private person's entry, never a name."""
    db = numdb.get("cz/banks")
    words = set()
    for code in range(10_000):
        for _part, props in db.info(f"{code:04d}"):
            for word in _WORD.findall(props.get("bank", "")):
                if len(word) >= 3:
                    words.add(word.capitalize())
    return frozenset(words)


def _noise_word(word: str) -> bool:
    """A capitalised word that is no name: a vocabulary word of contracts, a role noun, a
    function of office, a word of a bank's name."""
    norm = word.capitalize() if word.isupper() and len(word) > 2 else word
    return (
        norm in _BLOCK_WORDS
        or norm.split("-")[0] in _BLOCK_WORDS
        or norm.capitalize() in _bank_words()
        or role_of(norm) is not None
        or is_function_word(norm)
    )


def _block_words(text: str, parties: list[Party], taken: list[Span], pos: dict[int, str]) -> list[tuple[Span, Party]]:
    """Runs of capitalised words in party blocks that nothing explains.

    Only where a name the recognizers missed would be a private person's: the block of a
    natural person, a sole trader or a party of unknown kind; in an organisation's block only
    right after a person cue ("kontaktní osoba:", "pan", a title). Not doubts: places (RÚIAN
    gazetteer), role and function nouns, a word that opens a line and goes on in lower case
    ("Doručovací adresa", "Beru na vědomí": a label or a sentence), one- or two-letter words.
    """
    out: list[tuple[Span, Party]] = []
    for party in parties:
        private_side = party.kind.is_private_person or party.kind == PartyKind.UNKNOWN
        for block in party.blocks:
            run: list[re.Match[str]] = []
            words = list(_WORD.finditer(text, block.start, block.end))
            for m in [*words, None]:
                ok = False
                if m is not None:
                    w = m.group()
                    acronym = w.isupper() and len(w) <= 4  # IČO, ČAK, IBAN
                    norm = w.capitalize() if w.isupper() and len(w) > 2 else w
                    after = text[m.end() : m.end() + 2]
                    ok = (
                        not acronym
                        and len(norm) >= 3
                        and norm[0].isupper()
                        and norm[1:].islower()
                        and not _noise_word(norm)
                        and not after.lstrip(" ").startswith(":")
                        and not text[m.end() : m.end() + 1] == "."  # abbreviations and titles
                        and not _covered(Span(m.start(), m.end()), taken)
                        and _proper_noun(pos, m.start())
                    )
                    gap = text[run[-1].end() : m.start()] if run else ""
                    if ok and run and (len(gap) > 2 or gap.strip() or "\n" in gap):  # a name keeps to its line
                        _flush(text, run, party, private_side, out)
                        run = []
                if ok and m is not None:
                    run.append(m)
                elif run:
                    _flush(text, run, party, private_side, out)
                    run = []
    return out


def _flush(
    text: str, run: list[re.Match[str]], party: Party, private_side: bool, out: list[tuple[Span, Party]]
) -> None:
    """Record ``run`` (consecutive capitalised words) as a doubt unless it is explained."""
    start, end = run[0].start(), run[-1].end()
    line_start = text.rfind("\n", 0, start) + 1
    before = text[line_start:start]
    rest = text[end : text.find("\n", end) if "\n" in text[end:] else len(text)]
    if not private_side and not _PERSON_CUE_BEFORE.search(before):
        return
    if not before.strip() and re.match(r"[ ]+[a-záčďéěíňóřšťúůýž]", rest):
        return  # "Doručovací adresa …", "Beru na vědomí": a label or a sentence opens the line
    slot = _NAME_SLOT.search(before)
    if _is_place([m.group() for m in run]) and not (slot and role_of(slot.group("role"))):
        return  # a town, unless it stands where a party's label names the party ("Poskytovatel: Poustka")
    out.append((Span(start, end), party))


def _cued_numbers(text: str, taken: list[Span]) -> list[tuple[Span, str]]:
    """Numbers right after a personal context word that nothing explains."""
    out: list[tuple[Span, str]] = []
    for cue in _PERSONAL_CUES.finditer(text):
        end_of_line = text.find("\n", cue.end())
        limit = min(cue.end() + _CUE_REACH, end_of_line if end_of_line >= 0 else len(text))
        m = _NUMBER.search(text, cue.end(), limit)
        if m is None:
            continue
        digits = sum(c.isdigit() for c in m.group())
        span = Span(m.start(), m.end())
        if digits < 4 or _covered(span, taken) or any(s == span for s, _ in out):
            continue
        if m.group() in _bank_codes():
            continue  # "Bankovní spojení: 2010": the bank's code, not somebody's number
        # stop at a number that merely belongs to a later clause ("tel. viz čl. 1234")
        between = text[cue.end() : m.start()]
        if _CROSS_REFERENCE.search(between):
            continue
        out.append((span, cue.group()))
    return out


#: Tesseract's word confidence (0..100) under which a word beside personal data is a doubt.
DOUBT_CONFIDENCE = 40
#: An identifier's shape: six digits or more in one word ("145103673", "603/123456").
_DOUBT_DIGITS = 6
_AMOUNT = re.compile(r"\d,\d{2}-?$")
_NET_ADDRESS = re.compile(rf"@|[^\W\d_]{{2,}}\.{lexicon.alternatives('top_level_domains')}\b", re.I)


def unsure_words(layer: TextLayer, below: float) -> list[tuple[Span, float]]:
    """The words OCR read with a confidence (0..100, Tesseract's) under ``below`` that the text of
    ``layer`` holds, as ``(span in text, confidence)``: found by their first character's box,
    which the layer copies from the OCR word, so a page read but not used (a kept layer checked by
    a band) gives none."""
    out: list[tuple[Span, float]] = []
    for number, result in layer.ocr_pages.items():
        unsure = [w for w in result.words if w.confidence < below and w.text]
        if not unsure:
            continue
        info = layer.pages[number - 1]
        first = {box[1:]: i for i in range(info.start, info.end) if (box := layer.boxes[i]) is not None}
        for w in unsure:
            i = first.get(w.char_box(0))
            if i is not None and layer.text[i : i + len(w.text)] == w.text:
                out.append((Span(i, i + len(w.text)), w.confidence))
    return sorted(out, key=lambda pair: pair[0].start)


def ocr_doubts(text: str, unsure: list[tuple[Span, float]], decisions: list[Assessment]) -> list[Assessment]:
    """Review decisions for words OCR read with a confidence under :data:`DOUBT_CONFIDENCE`
    (``unsure``: spans of ``text`` with their confidence, :func:`unsure_words`) that
    stand on the line of a redacted value or on the line above or below it, overlap no decision,
    and have the shape of an identifier (:data:`_DOUBT_DIGITS` digits or more, not an amount) or
    of an e-mail or web address. Such a word is where a misread value of the person's block
    hides ("pikalvpsp.cz", a phone read with a wrong digit): the reviewer gets a doubt with its
    box instead of silence."""
    starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line(offset: int) -> int:
        return bisect.bisect_right(starts, offset)

    personal: set[int] = set()
    for d in decisions:
        if d.action == Action.REDACT:
            for n in range(line(d.finding.span.start), line(max(d.finding.span.start, d.finding.span.end - 1)) + 1):
                personal |= {n - 1, n, n + 1}
    taken = [d.finding.span for d in decisions]
    out: list[Assessment] = []
    for span, confidence in unsure:
        word = text[span.start : span.end].strip(".,;:()[]")
        digits = sum(ch.isdigit() for ch in word)
        shaped = (digits >= _DOUBT_DIGITS and not _AMOUNT.search(word)) or bool(_NET_ADDRESS.search(word))
        if not shaped or line(span.start) not in personal or _covered(span, taken):
            continue
        f = Finding(
            SUSPICIOUS,
            span,
            text[span.start : span.end],
            0.5,
            "ocr_doubt",
            "a word OCR read unsure beside personal data",
        )
        out.append(Assessment(f, SUSPICIOUS, Action.REVIEW, Reason("ocr_doubt", {"confidence": round(confidence)})))
        taken.append(span)
    return out


def _review_unsure_keeps(decisions: list[Assessment]) -> None:
    """Send to review the findings the map would keep that score below :data:`CONFIDENT_SCORE`
    (not those kept because an organisation holds them: the score does not weaken that)."""
    for d in decisions:
        if d.category in cat.HOLDER_KEPT:
            continue
        if d.action == Action.KEEP and d.finding.score < CONFIDENT_SCORE:
            d.action = Action.REVIEW
            d.reason = Reason("low_score", {"score": round(d.finding.score, 2), "reason": d.reason.to_dict()})


def _unconfirmed_persons(text: str, nlp: NlpArtifacts) -> Iterator[Span]:
    """The spans of spaCy's PERSON entities that look like a person's name (two or more
    capitalised words, not all of them common words to the tagger, not a place) though no
    gazetteer, title or cue confirmed them, in the entities' order."""
    for ent in nlp.entities:
        if ent.label != "PERSON":
            continue
        span = Span(ent.start, ent.end)
        while span.end > span.start and not text[span.end - 1].isalnum():
            span = Span(span.start, span.end - 1)
        words = [w for w in _WORD.finditer(text, span.start, span.end) if len(w.group()) >= 2]
        names = [w.group() for w in words if w.group()[0].isupper() and not _noise_word(w.group())]
        if len(names) < 2 or len(names) != len(words):
            continue  # one word, a lower-case word, a role or vocabulary word: no person's name
        if not any(_proper_noun(nlp.pos, w.start()) for w in words):
            continue  # the tagger itself calls every word a common word ("Dodavatel", "Kupní")
        if not _is_place(names):
            yield span


def suspicious_spans(
    text: str, findings: list[Finding], parties: list[Party], nlp: NlpArtifacts, decisions: list[Assessment]
) -> list[Assessment]:
    """Review decisions for suspicious spans (module docstring) that overlap no finding.

    Returns new decisions (category :data:`SUSPICIOUS`, action review) and changes, in
    ``decisions``, the action of findings scoring below :data:`CONFIDENT_SCORE` that the map
    would keep to review. Offsets index ``text``.
    """
    _review_unsure_keeps(decisions)
    taken = [f.span for f in findings] + [d.finding.span for d in decisions]
    out: list[Assessment] = []

    def add(span: Span, recognizer: str, score: float, evidence: str, reason: Reason) -> None:
        if _covered(span, taken):
            return
        f = Finding(SUSPICIOUS, span, text[span.start : span.end], score, recognizer, evidence)
        out.append(Assessment(f, SUSPICIOUS, Action.REVIEW, reason))
        taken.append(span)

    for span in _unconfirmed_persons(text, nlp):
        add(
            span,
            "ner_unconfirmed",
            NER_UNCONFIRMED_SCORE,
            "spaCy NER PERSON without a gazetteer name, title or cue",
            Reason("suspicious_ner", {"score": NER_UNCONFIRMED_SCORE}),
        )
    for span, party in _block_words(text, parties, taken, nlp.pos):
        add(
            span,
            "party_block_word",
            0.5,
            f"capitalised word(s) no recognizer explains in the block of {party.describe()}",
            Reason("suspicious_block_word", {"who": party.who()}),
        )
    for span, cue in _cued_numbers(text, taken):
        add(
            span,
            "cued_number",
            0.5,
            f"number after the personal context word {cue!r}",
            Reason("suspicious_number", {"cue": cue.strip()}),
        )
    return out


def covered_decisions(
    layer: TextLayer, covered: list[Box], decisions: list[Assessment], *, white: bool = False
) -> list[Assessment]:
    """Redact decisions for the text under ``covered`` (black rectangles already in the input
    over live text, :func:`redactor.read.covered.covered_text`; ``white``: white-outs,
    :func:`~redactor.read.covered.whited_text`): what the earlier redaction hid from the eye is
    taken out of the text layer too, so the published file reads as it looks (nothing visible is
    lost) and the value the earlier hand meant to hide is gone; a white-out's box is blacked out,
    so the part of the letters it left visible goes too. Text a redact decision already covers is
    left to it."""
    out: list[Assessment] = []
    redacted = [d.finding.span for d in decisions if d.action == Action.REDACT]
    for span in spans_in_boxes(layer, covered):
        words = layer.text[span.start : span.end]
        inked = [i for i in range(span.start, span.end) if not layer.text[i].isspace()]
        if not inked or all(any(s.start <= i < s.end for s in redacted) for i in inked):
            continue
        code = "earlier_whiteout" if white else "earlier_redaction"
        f = Finding(
            SUSPICIOUS, span, words, 1.0, code, f"text under a {'white' if white else 'black'} box already in the file"
        )
        out.append(Assessment(f, SUSPICIOUS, Action.REDACT, Reason(code)))
    return out


# -- the rule book's code records: each rule's core on a string ----------------------------------


def cued_number(text: str) -> str | None:
    """The first number of ``text`` that stands right after a personal cue word and that nothing
    explains (rule ``suspicious.cued_number``), or None."""
    found = _cued_numbers(text, [])
    return text[found[0][0].start : found[0][0].end] if found else None


def name_like(words: str) -> bool:
    """Whether ``words`` look like a person's name to the rule that asks about a name spaCy saw but
    no gazetteer, title or cue confirmed (rule ``suspicious.unconfirmed_person``): two or more
    capitalised words, none of them a contract's vocabulary, a role or a function, not a place."""
    names = [m.group() for m in _WORD.finditer(words) if len(m.group()) >= 2]
    capitalised = [w for w in names if w[0].isupper() and not _noise_word(w)]
    return len(capitalised) >= 2 and len(capitalised) == len(names) and not _is_place(capitalised)


def doubtful_word(word: str) -> bool:
    """Whether a capitalised ``word`` in a private party's block is a doubt (rule
    ``suspicious.block_word``): no vocabulary word, role, function or bank's word explains it."""
    return bool(word[:1].isupper()) and not _noise_word(word)


def doubt_shaped(word: str) -> bool:
    """Whether a word OCR was unsure of has an identifier's shape (rule ``suspicious.ocr_doubt``):
    :data:`_DOUBT_DIGITS` digits or more and no amount, or an e-mail's or web address's shape."""
    digits = sum(ch.isdigit() for ch in word)
    return (digits >= _DOUBT_DIGITS and not _AMOUNT.search(word)) or bool(_NET_ADDRESS.search(word))
