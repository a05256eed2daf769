"""Names of natural persons, in every inflected form, grouped by person.

Evidence combined (the seeds: Ondrášek 2022 for gazetteers and titles, Mareš 2021 for
propagating every hit to all occurrences, which lifted recall from 0.57 to 0.85):

1. a given name from the gazetteer (any inflected form) next to a capitalised word
   ("Markétě Konečné"), in either order ("Nováková Jana");
2. a title or a cue word before capitalised words ("Ing. arch. Martina Fialová", "pan X");
3. spaCy NER ``PERSON`` spans of two or more words, when one word is in the gazetteers.

Two capitalised words that are a place in any case form ("Mladá Boleslav", "v Mladé
Boleslavi", "Hradci Králové"; RÚIAN gazetteer, :mod:`redactor.detect.places`) are no name unless a
title stands before them. Mentions whose surnames inflect from a common nominative form one
person (a *cluster*);
afterwards every other capitalised word in the document that inflects the surname or the
given name of a cluster is reported too (surname-only category 2, given-name-only category 1).
Words inside organisation names and addresses found earlier are never names.

Each finding carries the words around it (``attributes["before"]``, ``["after"]``) so that
the policy can tell a mayor acting for the public body from a private person; this module
does not decide what is redacted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import regex

from redactor import categories as cat
from redactor import lexicon
from redactor.czech import (
    NOT_NAMES,
    PERSON_CUES,
    TITLES_AFTER,
    TITLES_BEFORE,
    NameGazetteer,
    nominative_candidates,
    role_of,
    strip_diacritics,
)
from redactor.detect.places import PlaceGazetteer
from redactor.detect.recognizers.base import AnalysisContext, Recognizer
from redactor.detect.roles import is_function_word
from redactor.model import Finding, Span
from redactor.text import SpanIndex

_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)?")
#: "pan", "paní", "p.", "manželka" … right before a name (the cues are words: "p." is no "po").
_PERSON_CUE = re.compile(rf"(?:^|\s)(?P<cue>{lexicon.alternatives('person_address')})[\s:]*$")
#: Form labels that announce a person's name.
_LABEL_CUE = re.compile(
    rf"(?:{lexicon.alternatives('label_full_name')}|{lexicon.alternatives('label_given_name')}"
    rf"|{lexicon.alternatives('label_surname')}|{lexicon.alternatives('representation')})[ ]*:?[ \n]*$",
    re.I,
)


#: A possessive adjective ("Masarykova", "Smetanovo", "Palackého" is another form): a street's or a
#: square's first word, never a given name.
_POSSESSIVE = re.compile(r"ov[aoy]$")


#: The last word before a place: a lower-case word there governs the case of what follows it.
_WORD_BEFORE = re.compile(r"([^\W\d_]+)[^\w]*$")


def _named_after(text: str, a: tuple[int, int, str], b: tuple[int, int, str], given: str, nominative: str) -> bool:
    """Whether the capitalised pair ``a`` ``b`` is a name in the genitive that names a thing,
    not a person: both in capitals, the given name in an oblique case (``given`` is not its
    ``nominative``: "KAROLINY" of Karolina), no lower-case word before it on its line or the one
    above that would govern the case ("vlastnictví KAROLINY NOVÁKOVÉ"), and no person's datum
    after it. Czech names streets, squares, schools and the things of a works list after persons
    in the genitive ("ulice Karoliny Světlé", "K.S.KAROLINY SVETLE" in an inventory of cable
    boxes; Pravidla českého pravopisu, names of streets), whereas a person in a contract is named
    in the case a word of the sentence asks for."""
    if not (a[2].isupper() and b[2].isupper()) or given == nominative:
        return False
    if _PERSON_DATUM_AFTER.match(text[b[1] : b[1] + 40]):
        return False
    line_start = text.rfind("\n", 0, max(0, text.rfind("\n", 0, a[0]))) + 1
    before = _WORD_BEFORE.search(text[line_start : a[0]])
    return before is None or not before.group(1).islower()


def _title_case(word: str) -> bool:
    """Whether ``word`` is written with a capital and then small letters (not in capitals)."""
    return word[:1].isupper() and word[1:].replace("-", "").islower()


#: A woman's surname in any case: the -ová of "Nováková", "Novákové", "Novákovou" (Czech forms
#: the feminine surname so; Pravidla českého pravopisu), at least three letters before it.
_FEMININE_SURNAME = re.compile(r"\w{3,}ov(?:á|é|ou)$")
#: Words ending so that are no surname.
_NOT_FEMININE_SURNAMES = lexicon.words("not_feminine_surnames")
#: What follows a person's name and no organisation's: a date of birth, a birth number, a home
#: address, a phone or e-mail ("Cyprián Rampas, narozen 1. 2. 1980", "…, bytem", "…, tel.").
_PERSON_DATUM_AFTER = re.compile(
    rf"[ ]*,?[ \n]*(?:{lexicon.alternatives('birth', bounded=True)}"
    rf"|{lexicon.alternatives('birth_number', bounded=True)}"
    rf"|{lexicon.alternatives('residence', bounded=True)}|{lexicon.alternatives('phone', bounded=True)}"
    rf"|{lexicon.alternatives('email', bounded=True)})",
    re.IGNORECASE,
)


#: A form's two name fields, on one line or on consecutive lines, in either order ("Jméno: Jan⏎
#: Příjmení: Novák", "Příjmení: NOVÁK Jméno: Jan"), their labels also as OCR misreads them
#: ("Jména", "Jměno", "Prijmeni"): the pair is one person's full name, however far apart the
#: layout sets its words.
_GIVEN_LABEL = lexicon.alternatives("label_given_name", bounded=True)
_SURNAME_LABEL = lexicon.alternatives("label_surname", bounded=True)
_FORM_NAME = re.compile(
    rf"(?i){_GIVEN_LABEL}[ ]*:[ ]*(?P<given>[^\W\d_]{{2,}})[ ]*,?[ ]*\n?[ ]*"
    rf"{_SURNAME_LABEL}[ ]*:[ ]*(?P<surname>[^\W\d_]{{2,}}(?:-[^\W\d_]{{2,}})?)(?!\w)"
    rf"|{_SURNAME_LABEL}[ ]*:[ ]*(?P<surname2>[^\W\d_]{{2,}}(?:-[^\W\d_]{{2,}})?)[ ]*,?[ ]*\n?[ ]*"
    rf"{_GIVEN_LABEL}[ ]*:[ ]*(?P<given2>[^\W\d_]{{2,}})(?!\w)"
)


@dataclass
class _Cluster:
    """One person's name forms so far: the nominative candidates of their surnames and given names."""

    surname: set[str]
    given: set[str]


@dataclass
class _Mention:
    tokens: list[tuple[int, int, str]]  # (start, end, word) for each name word
    given: list[str] = field(default_factory=list)
    surname: list[str] = field(default_factory=list)
    evidence: str = ""
    score: float = 0.9
    cluster: int = -1

    @property
    def start(self) -> int:
        return self.tokens[0][0]

    @property
    def end(self) -> int:
        return self.tokens[-1][1]


#: Letters from which two forms of a name one OCR error apart are taken for the same name.
NEAR_NAME_MIN_CHARS = 6


def names_agree(a: set[str] | frozenset[str], b: set[str] | frozenset[str]) -> bool:
    """Whether two sets of nominative candidates (:func:`~redactor.czech.nominative_candidates`)
    share a name as printed or as OCR read it: the same without diacritics and case ("Dvorák"
    for "Dvořák"), or, from :data:`NEAR_NAME_MIN_CHARS` letters, one letter apart ("Dvofák").
    Two mentions of one document that differ only so are one person: an official stays an
    official, a private person private, in every misread form (a name read by OCR differs from
    its print by a diacritic or a letter far more often than two persons' names do)."""
    if a & b:
        return True
    folded_a = {strip_diacritics(x).lower() for x in a}
    folded_b = {strip_diacritics(x).lower() for x in b}
    if folded_a & folded_b:
        return True
    return any(
        len(x) >= NEAR_NAME_MIN_CHARS
        and len(y) >= NEAR_NAME_MIN_CHARS
        and regex.fullmatch(f"(?:{regex.escape(x)}){{e<=1}}", y)
        for x in folded_a
        for y in folded_b
    )


def _norm(word: str) -> str:
    """Title-case an all-caps word ("NOVÁK" -> "Novák") so gazetteers and inflection apply;
    short acronyms ("ČR", "PF") stay as they are and are never names."""
    return word.capitalize() if word.isupper() and len(word) > 2 else word


class PersonRecognizer(Recognizer):
    """Person names with inflection-aware propagation; see the module docstring."""

    name = "person"
    categories = (cat.FULL_NAME, cat.GIVEN_NAME, cat.SURNAME, cat.ACADEMIC_TITLE)
    #: a word inside an organisation name, an address or an e-mail address is not a name
    #: ("Palackého" in a street, "Kovář" in a company name)
    reads = ("organization", "address", "email")

    def __init__(
        self, gazetteer: NameGazetteer | None = None, use_ner: bool = True, places: PlaceGazetteer | None = None
    ):
        self.gazetteer = gazetteer
        self.places = places
        self.use_ner = use_ner
        titles = sorted(TITLES_BEFORE, key=len, reverse=True)
        self._title_before = re.compile(r"(?:(?:" + "|".join(re.escape(t) for t in titles) + r")[ \n]*)+$")
        self._title_after = re.compile(r"^,?[ ]?(?:(?:" + "|".join(re.escape(t) for t in TITLES_AFTER) + r")[, ]*)+")

    def load(self) -> None:
        self._gazetteers()

    def _gazetteers(self) -> tuple[NameGazetteer, PlaceGazetteer]:
        """The name and place gazetteers, the packaged ones unless given (read on first use)."""
        if self.gazetteer is None:
            self.gazetteer = NameGazetteer.default()
        if self.places is None:
            self.places = PlaceGazetteer.default()
        return self.gazetteer, self.places

    # -- candidate words -------------------------------------------------------------------
    def _words(self, context: AnalysisContext) -> list[tuple[int, int, str]]:
        blocked = [
            f.span
            for f in context.findings
            if f.category in (cat.COMPANY_NAME, *cat.ADDRESS_CATEGORIES, cat.EMAIL_PERSONAL, cat.EMAIL_GENERIC)
        ]
        index = SpanIndex(_merge(blocked))
        words = []
        for m in _WORD.finditer(context.text):
            if index.find(m.start()) is None:
                words.append((m.start(), m.end(), m.group()))
        return words

    def _capitalised(self, word: str) -> bool:
        w = _norm(word)
        return (
            len(w) >= 2
            and w[0].isupper()
            and w[1:].islower()
            and w not in NOT_NAMES
            and w.split("-")[0] not in NOT_NAMES
            and not is_function_word(w)
        )

    def _document_noun(self, word: str, nouns: dict[str, frozenset[str]]) -> bool:
        """Whether ``word`` (capitalised or all caps) is a common word of this document: the document
        also writes it, or a form of the same nominative, in lower case ("VODOVOD" where the
        text speaks of "vodovod"), and the gazetteers know it as no given name or surname
        ("Zima", "Kovář" stay names, whatever the text says of winter or smiths). Czech writes
        a common noun in lower case (Pravidla českého pravopisu, velká písmena), so such a word
        in capitals is a heading, a list item or a table's label."""
        form = _norm(word)
        gaz, _places = self._gazetteers()
        if gaz.surname_of(form) or gaz.given_name_of(form):
            return False
        lower = form.lower()
        written = nouns.get(lower[:3], frozenset())
        if lower in written:
            return True
        own = {c.lower() for c in nominative_candidates(form)}
        return any(own & {c.lower() for c in nominative_candidates(noun.capitalize())} for noun in written)

    def _adjacent(self, text: str, a: tuple[int, int, str], b: tuple[int, int, str]) -> bool:
        gap = text[a[1] : b[0]]
        return 0 < len(gap) <= 3 and gap.strip() == ""

    # -- detection --------------------------------------------------------------------------
    def _pairs(
        self, context: AnalysisContext, words: list[tuple[int, int, str]], nouns: dict[str, frozenset[str]]
    ) -> list[_Mention]:
        text = context.text
        gaz, places = self._gazetteers()
        mentions: list[_Mention] = []
        i = 0
        while i < len(words) - 1:
            a, b = words[i], words[i + 1]
            if not (self._capitalised(a[2]) and self._capitalised(b[2]) and self._adjacent(text, a, b)):
                i += 1
                continue
            na, nb = _norm(a[2]), _norm(b[2])
            given_a, given_b = gaz.given_name_of(na), gaz.given_name_of(nb)
            sur_a, sur_b = gaz.surname_of(na), gaz.surname_of(nb)
            before = text[max(0, a[0] - 40) : a[0]]
            titled = bool(self._title_before.search(before))
            cue = _PERSON_CUE.search(before.lower())
            # "p." abbreviates more than "pan" ("K, P.BOHUNICE ARMENSKA" in an inventory of sewers):
            # glued to the words it cues only a pair with a name the gazetteer knows
            weak = cue is not None and cue.group("cue") == "p." and not before[-1:].isspace()
            cued = bool(cue and (not weak or given_a or given_b or sur_a or sur_b))
            cued = cued or bool(_LABEL_CUE.search(before))
            if not cued:
                label = re.search(r"(?:^|\n)[ ]*(?:\d{1,2}[.)][ ]*)?([^\W\d_]+(?: [^\W\d_]+)?)[ ]*:[ ]*$", before)
                # "Nájemce: Xenie Qwertová", "Poskytovatel služeb: Xaver Qwertz"
                cued = bool(label and role_of(label.group(1).split()[0]))
            third = words[i + 2] if i + 2 < len(words) else None
            if (not titled and places.is_place_pair(na, nb)) or (
                given_a and not (titled or cued) and _named_after(text, a, b, na, given_a)
            ):
                # "Mladá Boleslav", "v Hradci Králové": a place whose words are also names;
                # "K.S.KAROLINY SVETLE": a street, a school, a cable box named after a person
                i += 1
                continue
            if given_a:
                # Given name first: "Jan Novák", "Markétě Konečné", "Jan Pavel Novák".
                toks, given, surname = [a, b], [na], [nb]
                if (
                    given_b
                    and third is not None
                    and self._capitalised(third[2])
                    and self._adjacent(text, b, third)
                    and (gaz.surname_of(_norm(third[2])) or not gaz.given_name_of(_norm(third[2])))
                ):
                    toks, given, surname = [a, b, third], [na, nb], [_norm(third[2])]
                evidence = "given name (gazetteer) + " + (
                    "surname (gazetteer)" if sur_b or len(toks) == 3 else "capitalised word"
                )
                score = 0.95 if sur_b or titled or cued else 0.8
                mentions.append(_Mention(toks, given, surname, evidence, score))
                i += len(toks)
                continue
            if sur_a and given_b and not given_a:
                mentions.append(_Mention([a, b], [nb], [na], "surname + given name (gazetteer)", 0.9))
                i += 2
                continue
            if (titled or cued) and self._document_noun(b[2], nouns):
                # "Dr.Hála⏎Vodovod": the document writes "vodovod" as a noun elsewhere, so the
                # capitalised word opens the next item of a list, not a surname
                i += 1
                continue
            if titled or cued:
                # "Ing. Xaver Qwerty": a title or cue makes two capitalised words a name; a third
                # right after them belongs to it ("Nguyen Van Thanh", "Hariet Mona Qwertzová"),
                # unless it opens the next line as a label ("Narozen/a 14. 7. 1997")
                toks = [a, b]
                if (
                    third is not None
                    and self._capitalised(third[2])
                    and self._adjacent(text, b, third)
                    and not places.is_place_word(_norm(third[2]))
                    and ("\n" not in text[b[1] : third[0]] or gaz.surname_of(_norm(third[2])))
                ):
                    toks.append(third)
                given, surname = [na] + [_norm(t[2]) for t in toks[1:-1]], [_norm(toks[-1][2])]
                mentions.append(_Mention(toks, given, surname, "title or cue before two capitalised words", 0.85))
                i += len(toks)
                continue
            unlisted = self._unlisted_given(a, b, text, nouns)
            if unlisted:
                mentions.append(_Mention([a, b], [na], [nb], unlisted, 0.85))
                i += 2
                continue
            i += 1
        return mentions

    def _unlisted_given(
        self, a: tuple[int, int, str], b: tuple[int, int, str], text: str, nouns: dict[str, frozenset[str]]
    ) -> str:
        """Why two adjacent capitalised words ``a`` ``b`` whose first is no given name the
        gazetteer knows are still a person's name (the evidence), or "" when they are not:
        ``b`` is a surname the gazetteer knows ("Kazimír Havel", "Vladivoj Matoušek"), ``b`` has
        the shape of a woman's surname ("Oksana Mrkourková", "Oksanou Mrkourkovou"), or what
        follows the pair is a person's datum ("Cyprián Rampas, narozen", "…, bytem", "…, tel.").
        Real people's given names are often in no list (old Czech, Slavic, foreign); the words
        must be written in title case (a list in capitals names streets and items as often as
        people), and must not be a possessive adjective ("Masarova Kursová" is a street), a place,
        a word the document writes in lower case, or a surname pair."""
        gaz, places = self._gazetteers()
        na, nb = _norm(a[2]), _norm(b[2])
        if not (_title_case(a[2]) and _title_case(b[2])) or _POSSESSIVE.search(na):
            return ""  # capitals (an inventory's streets, a heading) or "Masarykova …": no unlisted name
        if (
            gaz.surname_of(na)
            or na.lower() in PERSON_CUES  # "Panem Novákem": the cue, not a given name
            or places.is_place_pair(na, nb)
            or self._document_noun(a[2], nouns)
            or self._document_noun(b[2], nouns)
        ):
            return ""
        datum = bool(_PERSON_DATUM_AFTER.match(text[b[1] : b[1] + 40]))
        if places.is_place_word(na) and not datum:
            return ""  # "Budislav" is a village too: a name when a person's datum follows
        if gaz.surname_of(nb):
            return "capitalised word + surname (gazetteer)"
        if _FEMININE_SURNAME.search(nb) and nb.lower() not in _NOT_FEMININE_SURNAMES and not places.is_place_word(nb):
            return "capitalised word + a woman's surname (ending -ová)"
        if datum:
            return "two capitalised words before a person's datum (birth, residence, phone)"
        return ""

    def _ner_mentions(
        self, context: AnalysisContext, words: list[tuple[int, int, str]], taken: list[Span]
    ) -> list[_Mention]:
        """NER ``PERSON`` spans that contain a gazetteer given name: the given name and the
        capitalised word next to it (after it, or before it in surname-first order)."""
        out = []
        gazetteer, _places = self._gazetteers()
        for ent in context.nlp.entities:
            if ent.label != "PERSON" or any(Span(ent.start, ent.end).overlaps(t) for t in taken):
                continue
            inside = [w for w in words if ent.start <= w[0] and w[1] <= ent.end and self._capitalised(w[2])]
            for k, w in enumerate(inside):
                if not gazetteer.given_name_of(_norm(w[2])):
                    continue
                if k + 1 < len(inside) and self._adjacent(context.text, w, inside[k + 1]):
                    pair, surname = [w, inside[k + 1]], inside[k + 1]
                elif k > 0 and self._adjacent(context.text, inside[k - 1], w):
                    pair, surname = [inside[k - 1], w], inside[k - 1]
                else:
                    continue
                out.append(
                    _Mention(
                        pair, [_norm(w[2])], [_norm(surname[2])], "spaCy NER PERSON with a gazetteer given name", 0.85
                    )
                )
                break
        return out

    # -- clustering and propagation ---------------------------------------------------------
    @staticmethod
    def _cluster(mentions: list[_Mention]) -> list[_Cluster]:
        clusters: list[_Cluster] = []
        for m in sorted(mentions, key=lambda x: x.start):
            sur: set[str] = set().union(*(nominative_candidates(s) for s in m.surname))
            giv: set[str] = set().union(*(nominative_candidates(g) for g in m.given)) if m.given else set()
            for idx, c in enumerate(clusters):
                if names_agree(c.surname, sur) and (not giv or not c.given or names_agree(c.given, giv)):
                    c.surname |= sur
                    c.given |= giv
                    m.cluster = idx
                    break
            else:
                m.cluster = len(clusters)
                clusters.append(_Cluster(sur, giv))
        return clusters

    def analyze(self, context: AnalysisContext) -> list[Finding]:
        words = self._words(context)
        nouns = _lower_case_words(context.text)  # the document's common words, read once
        mentions = self._pairs(context, words, nouns)
        mentions += self._form_mentions(context, mentions)
        if self.use_ner:
            mentions += self._ner_mentions(context, words, [Span(m.start, m.end) for m in mentions])
        clusters = self._cluster(mentions)
        taken = {w[0] for m in mentions for w in m.tokens}
        sentence_starts = {s.start for s in context.sentences}
        extra: list[tuple[_Mention, int]] = []
        for k, w in enumerate(words):
            if w[0] in taken or not self._capitalised(w[2]):
                continue
            cands = nominative_candidates(_norm(w[2]))
            hit = [i for i, c in enumerate(clusters) if c.surname & cands]
            category = cat.SURNAME
            if not hit:
                hit = [i for i, c in enumerate(clusters) if c.given & cands]
                category = cat.GIVEN_NAME
                if len(hit) != 1:
                    continue
            if w[0] in sentence_starts and self._common_word_at_start(context, words, k):
                continue
            if self._document_noun(w[2], nouns):
                continue
            m = _Mention([w], evidence="inflected form of a name found elsewhere in the document", score=0.85)
            m.cluster = hit[0]
            extra.append((m, category))

        out: list[Finding] = []
        for m in mentions:
            out.extend(self._emit(context, m, cat.FULL_NAME))
        for m, category in extra:
            out.extend(self._emit(context, m, category))
        return out

    def _form_mentions(self, context: AnalysisContext, found: list[_Mention]) -> list[_Mention]:
        """The words of a form's name fields (:data:`_FORM_NAME`), one mention each, both carrying
        the whole name, so that they form one person and each is redacted as a full name: the
        given name alone on one line and the surname on the next are the person's name, not two
        loose words (a requester's form, an application). Words already in ``found`` are left."""
        taken = {w[0] for m in found for w in m.tokens}
        out = []
        for m in _FORM_NAME.finditer(context.text):
            g = "given" if m.group("given") else "given2"
            s = "surname" if m.group("surname") else "surname2"
            given, surname = _norm(m.group(g)), _norm(m.group(s))
            if not (self._capitalised(given) and self._capitalised(surname)):
                continue
            for key in (g, s):
                if m.start(key) in taken:
                    continue
                token = (m.start(key), m.end(key), m.group(key))
                out.append(_Mention([token], [given], [surname], "a form's name fields (Jméno, Příjmení)", 0.9))
        return out

    @staticmethod
    def _common_word_at_start(context: AnalysisContext, words: list[tuple[int, int, str]], k: int) -> bool:
        """A sentence-initial word followed by a noun is an adjective, not a surname
        ("Konečná cena činí"), as far as the tagger tells."""
        pos = context.nlp.pos
        if k + 1 >= len(words) or pos.get(words[k][0]) == "PROPN":
            return False
        return pos.get(words[k + 1][0]) == "NOUN" and words[k + 1][2][:1].islower()

    def _emit(self, context: AnalysisContext, m: _Mention, category: int) -> list[Finding]:
        text = context.text
        holder = f"person:{m.cluster + 1}"
        start, end = m.start, m.end
        out = []
        tb = self._title_before.search(text[max(0, start - 40) : start])
        if tb and tb.group().strip():
            t_start = start - len(tb.group())
            t_end = t_start + len(tb.group().rstrip())
            out.append(
                self.finding(
                    cat.ACADEMIC_TITLE, t_start, t_end, text, 0.9, "academic title in front of a name", holder=holder
                )
            )
            before_from = t_start
        else:
            before_from = start
        ta = self._title_after.match(text[end : end + 30])
        if ta and ta.group().strip(", "):
            lead = len(ta.group()) - len(ta.group().lstrip(", "))
            a_start = end + lead
            a_end = end + len(ta.group().rstrip(", "))
            out.append(
                self.finding(
                    cat.ACADEMIC_TITLE, a_start, a_end, text, 0.9, "academic title after a name", holder=holder
                )
            )
        folded = sorted({strip_diacritics(w[2]).lower() for w in m.tokens})
        out.append(
            self.finding(
                category,
                start,
                end,
                text,
                m.score,
                m.evidence,
                holder=holder,
                attributes={
                    "cluster": m.cluster + 1,
                    "given": m.given,
                    "surname": m.surname,
                    "folded": folded,
                    "before": text[max(0, before_from - 60) : before_from].replace("\n", " ").lower(),
                    "after": text[end : end + 40].lower(),
                },
            )
        )
        return out


#: A run of non-space characters that is an address or an identifier, not words: an e-mail
#: address, a web address, a domain, or letters mixed with digits (a data-box ID "g8eb3gc", a
#: login "novak12"). The letters inside such a token are no writing of a word of the document.
_NOT_WORDS = re.compile(
    rf"@|://|^w{3}\.|\w\.{lexicon.alternatives('top_level_domains')}\b|[^\W\d_]\d|\d[^\W\d_]", re.IGNORECASE
)


def _lower_case_words(text: str) -> dict[str, frozenset[str]]:
    """The words ``text`` writes in lower case (its common words, in the forms written), by their
    first three letters. Letters inside an e-mail address, a web address, a domain or a data-box
    ID (:data:`_NOT_WORDS`) are not written words: "jan.kolbaba12@seznam.cz" does not write
    "kolbaba" in lower case, so the surname Kolbaba is not taken for a common word."""
    by_start: dict[str, set[str]] = {}
    for token in re.finditer(r"\S+", text):
        if _NOT_WORDS.search(token.group()):
            continue
        for m in _WORD.finditer(token.group()):
            if m.group().islower():
                by_start.setdefault(m.group()[:3], set()).add(m.group())
    return {start: frozenset(words) for start, words in by_start.items()}


def _merge(spans: list[Span]) -> list[Span]:
    """Union of overlapping spans, sorted."""
    out: list[Span] = []
    for s in sorted(spans, key=lambda x: x.start):
        if out and s.start <= out[-1].end:
            out[-1] = Span(out[-1].start, max(out[-1].end, s.end))
        else:
            out.append(s)
    return out
