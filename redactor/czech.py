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

UPPER = "A-ZÁČĎÉĚÍŇÓŘŠŤÚŮÝŽÄÖÜ"
LOWER = "a-záčďéěíňóřšťúůýžäöü"
VOWELS = set("aeiouyáéěíóúůýAEIOUYÁÉĚÍÓÚŮÝ")

#: Academic and professional titles written before a name (Act 111/1998 Sb., § 46).
TITLES_BEFORE = (
    "Bc.",
    "BcA.",
    "Ing.",
    "Ing. arch.",
    "MUDr.",
    "MDDr.",
    "MVDr.",
    "Mgr.",
    "MgA.",
    "JUDr.",
    "PhDr.",
    "RNDr.",
    "PharmDr.",
    "ThDr.",
    "ThLic.",
    "ThMgr.",
    "PaedDr.",
    "RSDr.",
    "PhMr.",
    "Dr.",
    "doc.",
    "prof.",
    "akad.",
    "Doc.",
    "Prof.",
    "Mudr.",
    "Judr.",
    "Phdr.",
    "Rndr.",
)
#: Titles written after a name.
TITLES_AFTER = ("Ph.D.", "Th.D.", "CSc.", "DrSc.", "DiS.", "DSc.", "MBA", "LL.M.", "MPA", "MSc.", "Dr.h.c.")

#: Words that introduce a person ("pan Novák", "paní Nováková").
PERSON_CUES = frozenset(
    "pan pana panu panem paní pí. p. sl. slečna slečny slečně slečnou manžel manželka manžela "
    "manželky manželem manželkou syn dcera".split()
)

#: Statutory bodies of companies and associations; their names are public (commercial and
#: association registers, Act 304/2013 Sb.). Matched as lower-case prefixes.
STATUTORY_CUES = (
    "jednatel",
    "předsed",
    "místopředsed",
    "člen představenstva",
    "členem představenstva",
    "členka představenstva",
    "prokurist",
    "statutární",
    "ředitel společnosti",
    "zmocněn",
    "člen správní rady",
    "předseda správní rady",
    "ředitelka společnosti",
)
#: Public officials acting for a public body (Act 128/2000 Sb. on municipalities, § 103 ff.).
OFFICIAL_CUES = (
    "starost",
    "místostarost",
    "primátor",
    "náměst",
    "hejtman",
    "tajemník",
    "tajemnic",
    "ředitel",
    "ministr",
    "vedoucí odboru",
    "vedoucí oddělení",
    "vedoucí úřadu",
    "rektor",
    "děkan",
    "radní",
    "předsed",
    "místopředsed",
    "zastupitel",
    "velitel",
)
#: Party role nouns of Czech contracts (Civil Code 89/2012 Sb., §§ 2079 ff.), lower-case
#: stems: every inflected form of the role starts with its stem.
PARTY_ROLE_STEMS = {
    "objednatel": "objednatel",
    "zhotovitel": "zhotovitel",
    "prodávající": "prodávající",
    "kupující": "kupující",
    "pronajímatel": "pronajímatel",
    "nájemce": "nájemc",
    "podnájemce": "podnájemc",
    "propachtovatel": "propachtovatel",
    "pachtýř": "pachtýř",
    "poskytovatel": "poskytovatel",
    "příjemce": "příjemc",
    "dárce": "dárc",
    "obdarovaný": "obdarovan",
    "půjčitel": "půjčitel",
    "vypůjčitel": "vypůjčitel",
    "zapůjčitel": "zapůjčitel",
    "dodavatel": "dodavatel",
    "odběratel": "odběratel",
    "mandant": "mandant",
    "vydlužitel": "vydlužitel",
    "stavebník": "stavebník",
    "žadatel": "žadatel",
    "pojistník": "pojistník",
    "pořadatel": "pořadatel",
    "prodejce": "prodejc",
    "mandatář": "mandatář",
    "příkazce": "příkazc",
    "příkazník": "příkazník",
    "převodce": "převodc",
    "nabyvatel": "nabyvatel",
    "zaměstnavatel": "zaměstnavatel",
    "zaměstnanec": "zaměstnan",
    "věřitel": "věřitel",
    "dlužník": "dlužník",
    "uživatel": "uživatel",
    "provozovatel": "provozovatel",
    "zadavatel": "zadavatel",
    "investor": "investor",
    "budoucí prodávající": "budoucí prodávající",
    "budoucí kupující": "budoucí kupující",
    "oprávněný": "oprávněn",
    "povinný": "povinn",
    "smluvní strana": "smluvní stran",
    "vlastník": "vlastník",
    "zástavce": "zástavc",
    "zástavní věřitel": "zástavní věřitel",
    "ručitel": "ručitel",
    "spoluvlastník": "spoluvlastník",
    "poškozený": "poškozen",
    "škůdce": "škůdc",
    "účastník": "účastník",
    "pojistitel": "pojistitel",
    "pojištěný": "pojištěn",
    "nájemník": "nájemník",
    "podnikatel": "podnikatel",
    "autor": "autor",
    "licenční nabyvatel": "licenční nabyvatel",
}

#: Markers of a legal person's name (Civil Code and Act 90/2012 Sb. on business corporations;
#: "p. s." a branch association, Civil Code § 228; "občanské sdružení" the civic association of
#: Act 83/1990 Sb. before 2014; foreign companies' forms).
LEGAL_FORMS = (
    # as typed in the registry's own records: the last dot, or a dot, left out ("PANEL SERVIS
    # s.r.o", "TOI TOI, s r.o.", "ELA LITVÍNOV, spol s  r. o.")
    r"s\.\s?r\.?\s?o\.?",
    r"s\s?r\.\s?o\.?",
    r"spol\.?\s{0,2}s\s{0,2}r\.\s?o\.?",
    r"S\.\s?R\.\s?O\.?",
    r"SPOL\.\s?S\s?R\.\s?O\.?",
    r"a\.\s?s\.",
    r"z\.\s?s\.",
    r"z\.\s?ú\.",
    r"o\.\s?p\.\s?s\.",
    r"v\.\s?o\.\s?s\.",
    r"k\.\s?s\.",
    r"s\.\s?p\.",
    r"p\.\s?o\.",
    r"o\.\s?s\.",
    r"p\.\s?s\.",
    r"přísp\.\s?org\.",
    r"družstvo",
    r"SE",
    r"GmbH",
    r"AG",
    r"N\.\s?V\.",
    r"B\.\s?V\.",
    r"Ltd\.?",
    r"LTD\.?",
    r"Inc\.",
    r"INC\.",
    r"akciová společnost",
    r"společnost s ručením omezeným",
    r"příspěvková organizace",
    r"státní podnik",
    r"zapsaný spolek",
    r"zapsaný ústav",
    r"občanské sdružení",
    r"obecně prospěšná společnost",
    r"nadace",
    r"nadační fond",
)
#: First words of public bodies' names (Act 340/2015 Sb., § 2: the bodies that publish).
PUBLIC_BODY_HEADS = (
    "Statutární město",
    "Město",
    "Obec",
    "Městys",
    "Městská část",
    "Kraj",
    "Krajský úřad",
    "Městský úřad",
    "Obecní úřad",
    "Magistrát",
    "Ministerstvo",
    "Všeobecná zdravotní pojišťovna",
    "Zdravotní pojišťovna",
    "Oborová zdravotní pojišťovna",
    "Vojenská zdravotní pojišťovna",
    "Česká průmyslová zdravotní pojišťovna",
    "Úřad",
    # the Labour Office (Act 73/2011 Sb.) and the regional public health authorities (Act 258/2000
    # Sb., § 82): their names are complete without a place after them
    "Úřad práce",
    "Krajská hygienická stanice",
    "Česká republika",
    # the offices of the Chamber and the Senate (organisational units of the state, Act 219/2000
    # Sb., § 3: "Kancelář Poslanecké sněmovny", "Kanceláři Senátu"), in the cases contracts use
    "Kancelář",
    "Kanceláře",
    "Kanceláři",
    "Kanceláří",
    "Ředitelství",
    "Správa",
    "Agentura",
    "Státní fond",
    "Státní pozemkový úřad",
    "Hasičský záchranný sbor",
    "Policie České republiky",
    "Národní",
    "Vojenské",
    "Povodí",
    "Lesy České republiky",
    "Krajská správa",
    "Technické služby",
    "Základní škola",
    "Mateřská škola",
    "Střední škola",
    "Gymnázium",
    "Nemocnice",
    "Domov",
    "Muzeum",
    "Galerie",
    "Knihovna",
    "Divadlo",
    "Univerzita",
    "Vysoká škola",
)
#: First words of associations that often omit their legal form.
ASSOCIATION_HEADS = (
    "Sbor dobrovolných hasičů",
    "SDH",
    "Spolek",
    "Tělovýchovná jednota",
    "TJ",
    "Sokol",
    "Tělocvičná jednota",
    "Sportovní klub",
    "Fotbalový klub",
    "Klub",
    "Svaz",
    "Unie",
    "Asociace",
    "Společnost",
    "Nadace",
    "Nadační fond",
    "Sdružení",
    "Junák",
    "Charita",
    "Diakonie",
    "Farnost",
    "Římskokatolická farnost",
    "Myslivecký spolek",
    "Honební společenstvo",
)


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
NOT_NAMES = frozenset(
    """Jméno Příjmení Datum Adresa Telefon Bydliště Rodné Číslo Smlouva Smluvní Strana Strany Článek
    Kupující Prodávající Objednatel Zhotovitel Pronajímatel Nájemce Propachtovatel Propachtovatelé Pachtýř
    Poskytovatel Příjemce Dárce Obdarovaný Dodavatel Odběratel Město Obec Kraj Praha Brno Ostrava
    Česká Republika Republiky Ministerstvo Úřad Sídlo IČO IČ DIČ Kč Ing Mgr Bc Za Pan Paní Dne
    Zastoupený Zastoupená Zastoupen Zastoupena Bankovní Spojení Účet Tel Email Mail Předmět Cena Čl
    Příloha Dodatek Kontakt Nájemné Pachtovné Smluvní Strany Technický Dozor Stavbyvedoucí Jednatel Starosta
    Starostka Předseda Vyúčtování Odpovědná Osoba Kontaktní Podpis Razítko Dohoda Narovnání Ustanovení
    Občanský Zákoník Sbírky Zákona Zákon Obchodní Rejstřík Krajský Soud Krajského Soudu Oddíl Vložka
    VIN SPZ RZ Škoda Octavia Combi Fabia Superb Ford Volkswagen Renault Peugeot Toyota Hyundai Kia
    Ledna Února Března Dubna Května Června Července Srpna Září Října Listopadu Prosince
    Pondělí Úterý Středa Čtvrtek Pátek Sobota Neděle Evropská Unie Státní Národní Nadace Spolek Sbor
    Pro Při Po Na Od Pod Nad Před Mezi Bez Dle Podle Ke Ze Proti Kromě Během Vůči Ale Nebo Než Aby
    Pokud Tento Tato Toto Tyto Této Tohoto Narozen Narozena Narozený Narozená Nar Bytem Trvale Bydlištěm
    Náměstí Nábřeží Třída Ulice Sídliště Název""".split()
)


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
