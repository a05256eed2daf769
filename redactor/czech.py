"""Czech language resources: name gazetteers, name inflection, titles and contract vocabulary.

Inflection: Czech declines personal names (Novák, Nováka, Novákovi, Novákem; Nováková,
Novákové, Novákovou; Veselý, Veselého; Hájek, Hájka with the fleeting *e*; Veronika,
Veronice with the k/c alternation). :func:`nominative_candidates` reverses the case endings of
the hard, soft and adjectival paradigms (Karlík, *Česká mluvnice*; the ÚJČ AV ČR "Internetová
jazyková příručka", sections on declension of surnames and given names) and returns every
nominative a form may come from. Two forms name the same person when their candidate sets
intersect.

Gazetteers: the 498 most frequent given names and 1,499 most frequent surnames from Hlídač
státu (``data/gazetteers``, AGPL-3.0) plus Faker's ``cs_CZ`` person lists (MIT).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from importlib import resources

from faker.providers.person.cs_CZ import Provider

from redactor import lexicon

UPPER = "A-ZÁČĎÉĚÍŇÓŘŠŤÚŮÝŽÄÖÜ"
LOWER = "a-záčďéěíňóřšťúůýžäöü"
VOWELS = set("aeiouyáéěíóúůýAEIOUYÁÉĚÍÓÚŮÝ")

#: Academic and professional titles written before a name (Act 111/1998 Sb., § 46).
TITLES_BEFORE = lexicon.forms("titles_before")
#: Titles written after a name.
TITLES_AFTER = lexicon.forms("titles_after")

#: Words that introduce a person ("pan Novák", "paní Nováková").
PERSON_CUES = lexicon.words("person_address")

#: Party role nouns of Czech contracts (Civil Code 89/2012 Sb., §§ 2079 ff.), lower-case
#: stems: every inflected form of the role starts with its stem.
PARTY_ROLE_STEMS = {role: lexicon.stem("party_roles", role) for role in lexicon.forms("party_roles")}

#: Markers of a legal person's name (regular expressions of the lexicon's ``legal_forms``).
LEGAL_FORMS = lexicon.forms("legal_forms")
#: First words of public bodies' names (Act 340/2015 Sb., § 2: the bodies that publish).
PUBLIC_BODY_HEADS = lexicon.forms("public_body_heads")
#: First words of associations that often omit their legal form.
ASSOCIATION_HEADS = lexicon.forms("association_heads")


def strip_diacritics(text: str) -> str:
    """``"Kolář" -> "Kolar"``: NFD decomposition without combining marks."""
    text = unicodedata.normalize("NFD", text)
    if text.isascii():
        return text
    for c in set(text) - _CLASSIFIED:
        if unicodedata.combining(c):
            _COMBINING[ord(c)] = None
        _CLASSIFIED.add(c)  # after the table: a thread that sees it classified finds it there
    return text.translate(_COMBINING)


#: Characters :func:`strip_diacritics` has looked at, and the table deleting the combining ones.
_CLASSIFIED: set[str] = set()
_COMBINING: dict[int, None] = {}


_HARDEN = {"ň": "n", "ď": "d", "ť": "t"}


def _insert_fleeting_e(stem: str) -> str | None:
    """Hájk -> Hájek, Němc -> Němec, Karl -> Karel, Zdeňk -> Zdeněk: restore the *e* dropped
    before the last consonant (after ň, ď, ť it is written *ě*)."""
    if len(stem) >= 3 and stem[-1] in "kcln" and stem[-2] not in VOWELS and stem[-2].isalpha():
        if stem[-2] in _HARDEN:
            return stem[:-2] + _HARDEN[stem[-2]] + "ě" + stem[-1]
        return stem[:-1] + "e" + stem[-1]
    return None


#: (ending of the inflected form, replacement giving a nominative, stem must end in consonant)
_ENDINGS: tuple[tuple[str, str, bool], ...] = (
    # feminine surnames in -ová and adjectival -á
    ("ové", "ová", False),
    ("ovou", "ová", False),
    ("é", "á", False),
    ("ou", "á", False),
    # masculine adjectival -ý and soft -í
    ("ého", "ý", False),
    ("ému", "ý", False),
    ("ým", "ý", False),
    ("ém", "ý", False),
    ("ího", "í", False),
    ("ímu", "í", False),
    ("ím", "í", False),
    # masculine nouns, hard and soft (Novák, Kolář), and in -a (Kučera)
    ("ovi", "", True),
    ("ovi", "a", True),
    ("em", "", True),
    ("a", "", True),
    ("e", "", True),
    ("u", "", True),
    ("i", "", True),
    ("y", "a", False),
    ("ou", "a", False),
    ("u", "a", True),
    ("o", "a", True),
    # masculine in -o (Ivo, Oto) and -é (René)
    ("ovi", "o", True),
    ("em", "o", True),
    ("a", "o", True),
    ("ého", "é", False),
    ("ému", "é", False),
    ("ém", "é", False),
    # feminine given names in -a with consonant alternations (Evě, Barboře, Veronice, Olze)
    ("ě", "a", True),
    ("ře", "ra", False),
    ("ce", "ka", False),
    ("ze", "ga", False),
    ("e", "a", False),
    ("i", "a", True),
    # soft feminine in -e/-ie (Marie, Lucie)
    ("ii", "ie", False),
    ("ií", "ie", False),
    ("i", "e", True),
    ("í", "e", False),
)


@lru_cache(maxsize=50_000)
def nominative_candidates(form: str) -> frozenset[str]:
    """Every nominative singular ``form`` may be an inflection of, ``form`` itself included.

    ``"Novákovi" -> {"Novákovi", "Novák", "Nováková"?...}``: over-generation is expected and
    harmless because candidates are only ever compared with other names' candidates or with
    the gazetteers. Case is preserved; the input should be a single word.
    """
    out = {form}
    if len(form) < 3:
        return frozenset(out)
    for ending, repl, needs_consonant in _ENDINGS:
        if not form.endswith(ending):
            continue
        stem = form[: len(form) - len(ending)]
        if len(stem) < 2:
            continue
        if needs_consonant and (stem[-1] in VOWELS or not stem[-1].isalpha()):
            continue
        out.add(stem + repl)
        if repl == "":
            fleeting = _insert_fleeting_e(stem)
            if fleeting:
                out.add(fleeting)
    return frozenset(out)


@lru_cache(maxsize=50_000)
def folded_nominative_candidates(form: str) -> frozenset[str]:
    """:func:`nominative_candidates` on text without diacritics, lower case: the endings folded
    too, so that an OCR read or an export without diacritics ("Novotneho", "Malou") leads to the
    same folded nominative as the written name ("novotny", "mala")."""
    folded = strip_diacritics(form).lower()
    out = {folded} | {strip_diacritics(c).lower() for c in nominative_candidates(form)}
    if len(folded) < 3:
        return frozenset(out)
    for ending, repl, needs_consonant in _ENDINGS:
        ending, repl = strip_diacritics(ending), strip_diacritics(repl)
        if not folded.endswith(ending):
            continue
        stem = folded[: len(folded) - len(ending)]
        if len(stem) < 2 or (needs_consonant and (stem[-1] in "aeiouy" or not stem[-1].isalpha())):
            continue
        out.add(stem + repl)
    return frozenset(out)


def same_name(a: str, b: str) -> bool:
    """True when two single-word forms can be the same name (``"Hájka"``, ``"Hájek"``)."""
    return bool(nominative_candidates(a) & nominative_candidates(b))


def _read_lines(package_path: str) -> list[str]:
    text = resources.files("redactor").joinpath(package_path).read_text(encoding="utf-8-sig")
    return [line.strip() for line in text.splitlines() if line.strip()]


class NameGazetteer:
    """Czech given names and surnames; lookups accept any inflected form.

    ``given_names`` and ``surnames`` are nominative forms. Construct with explicit sets in
    tests; :meth:`default` loads the bundled lists and Faker's ``cs_CZ`` provider.
    """

    def __init__(self, given_names: set[str], surnames: set[str]):
        self.given_names = frozenset(given_names)
        self.surnames = frozenset(surnames)
        self._given_folded = frozenset(strip_diacritics(n).lower() for n in self.given_names)
        self._surnames_folded = frozenset(strip_diacritics(n).lower() for n in self.surnames)

    @classmethod
    @lru_cache(maxsize=1)
    def default(cls) -> NameGazetteer:
        """The bundled gazetteer: Hlídač státu's top lists plus Faker's cs_CZ names."""
        given = set(_read_lines("data/gazetteers/TopJmena.txt"))
        given |= set(Provider.first_names_male) | set(Provider.first_names_female)
        surnames = set(_read_lines("data/gazetteers/TopPrijmeni.txt"))
        surnames |= set(Provider.last_names_male) | set(Provider.last_names_female)
        return cls(given, surnames)

    @staticmethod
    def _lookup(form: str, names: frozenset[str]) -> str | None:
        """The longest nominative of ``form`` found in ``names`` (capitalised forms only); of two
        as long, the first in alphabetical order ("Radkem": "Radek", not "Radko"), so that the
        answer never depends on the order of a set."""
        if not form[:1].isupper():
            return None
        return next((c for c in sorted(nominative_candidates(form), key=lambda c: (-len(c), c)) if c in names), None)

    def given_name_of(self, form: str) -> str | None:
        """The gazetteer given name ``form`` inflects (``"Evě" -> "Eva"``), else None."""
        return self._lookup(form, self.given_names)

    def surname_of(self, form: str) -> str | None:
        """The gazetteer surname ``form`` inflects (``"Kolářovi" -> "Kolář"``), else None."""
        return self._lookup(form, self.surnames)

    def mentions_name(self, token: str) -> bool:
        """True when a lower-case ASCII token (an e-mail part) is a known name or surname."""
        folded = strip_diacritics(token).lower()
        return len(folded) >= 3 and (folded in self._given_folded or folded in self._surnames_folded)


#: Capitalised words of contracts that are never a person's name (headings, party roles, places,
#: titles, car makes, months, days, prepositions and conjunctions that open a sentence), in the forms
#: contracts write them.
NOT_NAMES = lexicon.words("not_names")


#: Party roles by their folded nominative: (role, folded stem).
_FOLDED_STEMS = {strip_diacritics(role): (role, strip_diacritics(stem)) for role, stem in PARTY_ROLE_STEMS.items()}


def role_of(word: str) -> str | None:
    """The party role (nominative, lower case) a word refers to, e.g. "prodávajícího" ->
    "prodávající", "Propachtovatelé" -> "propachtovatel"; diacritics are ignored."""
    low = strip_diacritics(word).lower().strip()
    low = re.sub(r"\s+", " ", low)
    for role, stem in _FOLDED_STEMS.values():
        if low.startswith(stem) and len(low) - len(stem) <= 4:
            return role
    return None


def alias_stem(alias: str) -> str:
    """Folded stem of an alias for matching its inflected forms ("město" -> "mest")."""
    low = strip_diacritics(alias).lower().strip()
    known = _FOLDED_STEMS.get(low)
    if known:
        return known[1]
    stem = re.sub(r"[aeiouy]+$", "", low)
    return stem if len(stem) >= 4 else low
