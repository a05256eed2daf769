"""Names of legal persons and public bodies, found so that they are kept (category 10) and so
that a party can be classified. A surname inside a company name ("Zemní práce Kovář s.r.o.")
is then not read as a person."""

from __future__ import annotations

import re

from redactor import categories as cat
from redactor import lexicon
from redactor.czech import ASSOCIATION_HEADS, LEGAL_FORMS, PUBLIC_BODY_HEADS, UPPER, role_of
from redactor.czech import strip_diacritics as fold
from redactor.detect.recognizers.base import AnalysisContext, Recognizer
from redactor.model import Finding

_CONNECTORS = lexicon.words("name_inner_words") | lexicon.words("foreign_name_particles") | {"-", "–", "&"}
_STOP_CHARS = ':;()„“"”[]'
#: Labels of a form's field that stand before a company's name ("Název", "Firma").
_LABEL_WORDS = lexicon.words("company_labels")
#: A state-funded organisation's or a state enterprise's legal form, in a folded name.
_PUBLIC_ENTERPRISE = re.compile(lexicon.alternatives("public_enterprise_forms"))
#: Connectors a name found by its head must not end with ("Obec Lhota nad").
_TRAILING_CONNECTORS = re.compile(rf"(?:[ \n]{lexicon.alternatives('name_inner_words')})+$")
#: A word of an organisation's name; a label ("Zastoupená:", "Sídlo:") on the next line is none.
_NAME_WORD = (
    rf"(?:[{UPPER}][\w&.'’-]*(?![\w&.'’-]|[ ]*:)|\d+\.?[ ]?[{UPPER}][\w&.'’-]*"
    rf"|(?:{lexicon.alternatives('name_inner_words')}|{lexicon.alternatives('name_inner_words', folded=True)})"
    rf"(?=\s+[{UPPER}]))"
)


#: Czech case endings of nouns and adjectives, without diacritics (the text is matched folded):
#: a public body is named in any case ("Úřadem práce", "Krajské hygienické stanici", "Městem").
_ENDINGS = lexicon.alternatives("case_endings", folded=True)


def _declined(head: str) -> str:
    """A pattern for ``head`` (folded) in any case: each word's ending may change ("Urad prace"
    also matches "Uradem prace", "Krajska hygienicka stanice" also "Krajske hygienicke stanici")."""
    words = []
    for word in head.split():
        stem = word.rstrip("aeiouy")
        if len(stem) < 3:
            words.append(re.escape(word))
        elif stem == word:
            words.append(f"{re.escape(stem)}{_ENDINGS}?")
        else:
            words.append(f"{re.escape(stem)}{_ENDINGS}")
    return " ".join(words)


def _heading_cut(text: str, start: int, end: int) -> int:
    """Where a public body's name matched over ``text[start:end]`` really ends: at a line break
    after which comes a word in capitals while the name is not in capitals ("Město Brno⏎PŘÍLOHA
    7.3.1. SMLOUVY", a heading), or the first words of a line that goes on in lower-case words
    ("Město Brno⏎Materiálové toky se …", the next line's text; "Město⏎Vodňany." ends a sentence
    and stays whole)."""
    for brk in (m.start() for m in re.finditer("\n", text[start:end])):
        at = start + brk
        head, tail = text[start:at], text[at + 1 : end]
        first = re.match(r"[^\W\d_]+", tail)
        if first and len(first.group()) >= 3 and first.group().isupper() and not head.isupper():
            return at
        if (
            "\n" not in tail
            and not tail.endswith(".")
            and re.match(r"[ ]+[a-zá-ž]+[ ]+[a-zá-ž]+", text[end : end + 40])
        ):
            return at  # the line goes on in lower-case words: it is text, not the rest of the name
    return end


def _name_stops(text: str, end: int) -> bool:
    """Whether an organisation's name read backwards stops at ``end``: the text's start, a
    colon, bracket or quote, or a comma or full stop that is not an initial's ("J. K. Tyl")."""
    if end == 0:
        return True
    if text[end - 1] in _STOP_CHARS or text[end - 1] == ",":
        return True
    return text[end - 1] == "." and not re.search(r"\b[A-Z]\.$", text[max(0, end - 3) : end])


def _parenthesis_before(text: str, end: int) -> int | None:
    """Where a parenthesis of capitalised words that closes at ``end`` opens, when a capitalised
    word stands right before it on the same line, so it is a part of a company's name ("Thermo
    Fisher Scientific (Praha) s.r.o."); otherwise None ("Kupující (dále jen Firma) …" is a
    clause, "(1) ABC" a number, "Zhotovitel (Praha)" a party's role)."""
    if end == 0 or text[end - 1] != ")":
        return None
    opening = text.rfind("(", max(0, end - 40), end - 1)
    if opening < 1 or "\n" in text[opening:end]:
        return None
    inner = text[opening + 1 : end - 1].strip()
    if not re.fullmatch(rf"[{UPPER}][\w.&'’-]*(?: [{UPPER}][\w.&'’-]*){{0,3}}", inner):
        return None
    before = re.search(rf"([{UPPER}][\w.&'’-]*) $", text[max(0, opening - 40) : opening])
    if not before or before.group(1) in _LABEL_WORDS or role_of(before.group(1)) is not None:
        return None  # "Zhotovitel (Praha) ABC s.r.o.": a party's role, then the name
    return opening


class OrganizationRecognizer(Recognizer):
    """Legal persons by their legal form (s.r.o., a.s., z.s., příspěvková organizace, ...),
    public bodies by the head of their name (Město, Obec, Kraj, Ministerstvo, ...), and
    associations that often omit their form (Sbor dobrovolných hasičů, TJ, Spolek)."""

    name = "organization"
    categories = (cat.COMPANY_NAME,)

    def load(self) -> None:
        # Patterns are matched against the text without diacritics (OCR often drops them).
        forms = "|".join(fold(f) for f in LEGAL_FORMS)
        # the form after a space or a comma ("INDUSTRY MEASURING,spol. s r.o.", "MONIT  s.r.o")
        self._form = re.compile(rf"(?:,[ \n]{{0,2}}|[ \n]{{1,2}})(?:{forms})(?![\w])")
        ordered = sorted(PUBLIC_BODY_HEADS, key=len, reverse=True)
        heads = "|".join(_declined(fold(h)) for h in ordered if len(h.split()) < 3)
        whole = "|".join(_declined(fold(h)) for h in ordered if len(h.split()) >= 3)
        self._public = re.compile(
            rf"(?<![\w])(?:(?:{heads}|{lexicon.alternatives('municipality_kinds', folded=True)})"
            rf"(?:[ \n](?:[-–—][ \n])?{_NAME_WORD}){{1,6}}"
            rf"|(?:{whole})(?![\w])(?:[ \n](?:[-–—][ \n])?{_NAME_WORD}){{0,6}})"
        )
        # an office named by its kind alone, its department following ("Obecní úřad, odbor
        # výstavby"; or the municipality's name illegible under a stamp): the office of the
        # municipality or region the contract is about (Act 128/2000 Sb., § 109; Act 129/2000 Sb., § 65)
        self._office = re.compile(
            rf"(?<![\w]){lexicon.alternatives('municipal_offices', folded=True)}"
            rf" {lexicon.alternatives('office_noun', folded=True)}"
            rf"(?=,?[ \n]+{lexicon.alternatives('office_subunits', folded=True)}\b)",
            re.I,
        )
        assoc = "|".join(re.escape(fold(h)) for h in sorted(ASSOCIATION_HEADS, key=len, reverse=True))
        self._assoc = re.compile(rf"(?<![\w])(?:{assoc})(?:[ \n]{_NAME_WORD}){{1,5}}")

    def _name_before(self, text: str, end: int) -> int | None:
        """Start offset of the organisation name that ends at ``end`` (before its legal form)."""
        i, words, start = end, 0, None
        while i > 0 and words < 8:
            j = i
            while j > 0 and text[j - 1] == " ":
                j -= 1
            if j > 0 and text[j - 1] == "\n":
                if j - 1 > 0 and text[j - 2] in ",.:;":
                    break
                j -= 1
            inner = _parenthesis_before(text, j)
            if inner is not None:
                i = inner  # "Alcon Pharmaceuticals (Czech Republic) s.r.o.": part of the name
                continue
            if _name_stops(text, j):
                break
            k = j
            while k > 0 and not text[k - 1].isspace() and text[k - 1] not in _STOP_CHARS:
                k -= 1
            word = text[k:j]
            if not word or word in _LABEL_WORDS:
                break  # "Název AQUA s.r.o.": a form's label whose colon OCR lost
            if re.fullmatch(r"\d+[.)]?|\d+\.\d+\.?", word):  # clause number "1.2" or "2)"
                break
            words += 1
            if word[0].isupper() or word[0].isdigit():
                start = k
            elif word not in _CONNECTORS and not word[0].islower():
                break
            i = k
        return start

    def analyze(self, context: AnalysisContext) -> list[Finding]:
        text, folded, out = context.text, context.folded, []
        taken: list[tuple[int, int]] = []
        for m in self._form.finditer(folded):
            start = self._name_before(text, m.start())
            if start is None:
                continue
            name = text[start : m.end()]
            if len(name) < 4:
                continue
            public = bool(_PUBLIC_ENTERPRISE.search(fold(name)))
            out.append(
                self.finding(
                    cat.COMPANY_NAME,
                    start,
                    m.end(),
                    text,
                    0.9,
                    f"legal form {m.group().strip(', ')!r}",
                    attributes={"kind": "public_body" if public else "legal_person"},
                )
            )
            taken.append((start, m.end()))
        for pattern, kind, label in (
            (self._public, "public_body", "public body"),
            (self._office, "public_body", "public office and its department"),
            (self._assoc, "legal_person", "association"),
        ):
            for m in pattern.finditer(folded):
                s, e = m.start(), m.end()
                if any(a <= s < b for a, b in taken):
                    continue
                before = re.search(rf"([{UPPER}]\w+) $", text[max(0, s - 20) : s])
                if (
                    kind == "public_body"
                    and before
                    and role_of(before.group(1)) is None
                    and before.group(1) not in _LABEL_WORDS
                ):
                    continue  # "Nové Město pod Smrkem", "Velké Meziříčí": a town's name, not "Město X"
                    # (but "2. Nájemce Česká republika – …": a label that lost its colon)
                if kind == "public_body" and re.search(r"\b\d{3} ?\d{2}[ \n]+$", text[max(0, s - 12) : s]):
                    continue  # "656 16 Město Touškov": the town of a postal address, not a party
                e = _heading_cut(text, s, e)
                # trim trailing connectors
                name = text[s:e]
                trimmed = _TRAILING_CONNECTORS.sub("", name)
                e = s + len(trimmed)
                if e - s < 5:
                    continue
                out.append(
                    self.finding(cat.COMPANY_NAME, s, e, text, 0.85, f"{label} name head", attributes={"kind": kind})
                )
                taken.append((s, e))
        return out
