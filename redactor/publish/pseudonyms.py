"""Substitutes for the pseudonymised text export: other names in the same grammatical case,
checksum-valid fake identifiers, other streets, dates shifted consistently.

Every substitute is drawn from a generator seeded with HMAC-SHA-256(``seed``, category and the
original's identity), so one person or value gets one substitute wherever it occurs, and an
agency that keeps one secret seed gets the same substitutes across its exports; without the seed
nothing leads back to the original. Sources of the rules:

- names: the substitute is a nominative from the bundled gazetteers (Faker ``cs_CZ``'s gendered
  lists) of the same gender that ends in the same letters as the original's nominative where
  the original's forms differ from it, so that the original's case ending carries over:
  ``Novákovi`` (Novák + ovi) → ``Dvořákovi``, ``Petře`` (Pet + ře, nominative Petra) →
  ``Věře``, ``Zdeňka`` (Zde + ňka, nominative Zdeněk) → another name in ``-něk``. The
  nominative of each form comes from :meth:`~redactor.czech.NameGazetteer.given_name_of`
  and ``surname_of`` (Czech declension as in :func:`~redactor.czech.nominative_candidates`);
  a form whose ending no gazetteer name can carry is replaced by the tag instead (never kept);
- birth numbers (Act No. 133/2000 Coll., § 13): ``YYMMDD/SSSC``, month + 50 for women (+ 20 /
  + 70 from 2004), the ten-digit number divisible by 11; the substitute keeps the form (slash or
  not, nine or ten digits) and the sex, validated by python-stdnum;
- bank accounts (Czech National Bank decree No. 169/2011 Coll.): prefix and number with the
  weighted mod-11 checks, the bank code kept (it names a bank, not a person), validated by
  python-stdnum; IBANs are built from such an account with python-stdnum's check digits;
- dates of birth: moved by one number of days per seed and document (``shift_days``).
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import random
import re
from collections.abc import Callable

from faker.providers.address.cs_CZ import Provider as AddressProvider
from faker.providers.person.cs_CZ import Provider as PersonProvider
from stdnum import iban as stdnum_iban
from stdnum.cz import bankaccount, rc

from redactor import categories as cat
from redactor.czech import NameGazetteer, nominative_candidates, strip_diacritics

#: Letters of random identifiers: I, O and Q are left out (VINs never use them; they read as 1 and 0).
_LETTERS = "ABCDEFGHJKLMNPRSTUVWXYZ"
_TITLES = ("Ing.", "Mgr.", "Bc.", "JUDr.", "MUDr.", "PhDr.", "RNDr.")
_MALE_GIVEN = tuple(sorted(set(PersonProvider.first_names_male)))
_FEMALE_GIVEN = tuple(sorted(set(PersonProvider.first_names_female)))
_FEMALE_GIVEN_SET = frozenset(_FEMALE_GIVEN)
_MALE_SURNAMES = tuple(sorted(set(PersonProvider.last_names_male)))
_FEMALE_SURNAMES = tuple(sorted(set(PersonProvider.last_names_female)))
_DATE = re.compile(r"(\d{1,2})(\.\s*)(\d{1,2})(\.\s*)(\d{4})")


#: Singular case endings by the nominative's declension type (Czech grammar: vzory pán/muž for
#: masculine nouns in a consonant, předseda for masculine in -a, žena for feminine in -a, růže /
#: kost for -e, adjectival mladá / jarní for -á and -í surnames and names).
_ENDINGS = {
    "consonant": {"a", "ovi", "e", "u", "em", "i", "ou"},
    "a": {"y", "ě", "e", "u", "o", "ou", "i", "ovi"},
    "á": {"é", "ou"},
    "e": {"i", "í", "ií"},
    "í": {"ho", "mu", "m"},
}
_VOWELS = frozenset("aáeéěiíoóuúůyý")
#: Given names in -el whose e is fleeting (Pavel → Pavla); Marcel, Daniel, Michael keep theirs.
_FLEETING_EL = frozenset({"Pavel", "Karel"})
#: Consonants that change before -e in the dative and locative of -a nouns (Petra → Petře).
_SOFTENED = {"r": "ř", "k": "c", "h": "z", "g": "z", "ch": "š"}


def plausible_case(nominative: str, form: str, *, surname: bool = False) -> bool:
    """Whether ``form`` can be a singular case of ``nominative`` (``Novákovi`` of ``Novák``,
    ``Petře`` of ``Petra``, ``Marka`` of ``Marek`` with its fleeting e), by the endings of
    :data:`_ENDINGS`. ``ovi`` after an -a nominative is the masculine předseda pattern
    (Svobodovi): among names only a surname (``surname``) declines so; a given name in -a is a
    woman's (Vlastimilovi is Vlastimil's, not Vlastimila's)."""
    if form == nominative:
        return True
    last = nominative[-1:]
    if last == "í":  # Jiří → Jiřího, Jiřímu, Jiřím
        return form.startswith(nominative) and form[len(nominative) :] in _ENDINGS["í"]
    if last in "aáe":
        kind = last if last in "áe" else "a"
        stem = nominative[:-1]
        if not form.startswith(stem[:-1]):
            return False
        if form.startswith(stem):
            ending = form[len(stem) :]
            if kind == "a" and ending == "ovi":  # předseda: Svobodovi; a given name in -a is a woman's
                return surname
            return ending in _ENDINGS[kind]
        # Petra → Petře: the stem's last consonant softened before -e
        consonant = stem[-1:]
        soft = _SOFTENED.get(stem[-2:], None) if stem.endswith("ch") else _SOFTENED.get(consonant)
        base = stem[:-2] if stem.endswith("ch") else stem[:-1]
        return kind == "a" and soft is not None and form == base + soft + "e"
    if form.startswith(nominative):
        return form[len(nominative) :] in _ENDINGS["consonant"]
    # fleeting e: Marek → Marka, Karel → Karla, Zdeněk → Zdeňka
    if len(nominative) >= 3 and nominative[-2] in "eě":
        stem = nominative[:-2] + nominative[-1]
        if nominative[-2] == "ě" and nominative[-3] in "dtn":
            stem = nominative[:-3] + {"d": "ď", "t": "ť", "n": "ň"}[nominative[-3]] + nominative[-1]
        return form.startswith(stem) and form[len(stem) :] in _ENDINGS["consonant"]
    return False


def _common_prefix(a: str, b: str) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


class Pseudonymiser:
    """Substitutes for one document (or one agency's exports, with the agency's ``seed``).

    ``seed`` is bytes (keep it secret: with it and a substitute, a guessed original can be
    confirmed). Substitutes are strings; :meth:`substitute` returns None when no substitute of
    the right form exists (the caller then writes the tag)."""

    def __init__(self, seed: bytes, gazetteer: NameGazetteer | None = None):
        self.seed = seed
        self.gazetteer = gazetteer or NameGazetteer.default()
        self._names: dict[tuple[str, str], str] = {}

    def _rng(self, *key: str) -> random.Random:
        digest = hmac.new(self.seed, "\x1f".join(key).encode("utf-8"), hashlib.sha256).digest()
        return random.Random(int.from_bytes(digest[:8], "big"))

    @property
    def shift_days(self) -> int:
        """Days every date of birth moves by (−200..200, never 0)."""
        days = self._rng("date shift").randint(1, 200)
        return days if self._rng("date sign").random() < 0.5 else -days

    # -- names ----------------------------------------------------------------------------
    def name_word(self, form: str, *, surname: bool) -> str | None:
        """The substitute of one name word ``form`` in the same case, or None."""
        if form.isupper() and len(form) > 1:  # NOVÁKOVI: declined like Novákovi, written in capitals
            word = self.name_word(form[0] + form[1:].lower(), surname=surname)
            return word.upper() if word else None
        nominative = self.nominative(form, surname=surname)
        if nominative is None:
            return None
        chosen = self._names.get((str(surname), nominative))
        if chosen is None:
            female = nominative.endswith("á") if surname else nominative in _FEMALE_GIVEN_SET
            if surname:
                pool = _FEMALE_SURNAMES if female else _MALE_SURNAMES
            else:
                pool = _FEMALE_GIVEN if female else _MALE_GIVEN
            # one substitute per nominative, whatever form comes first: the one sharing the
            # longest ending (at most 3 letters), so that the endings of all its forms carry over
            # a fleeting e stands between consonants (Karel, Karla): so must the substitute's
            # (Pavel, not Daniel, whose e stays: Daniela)
            between = len(nominative) >= 3 and nominative[-3] not in _VOWELS
            for size in (3, 2, 1):
                options = [
                    n
                    for n in pool
                    if n.endswith(nominative[-size:])
                    and n != nominative
                    and len(n) > size
                    and (not between or (len(n) >= 3 and n[-3] not in _VOWELS))
                    and (surname or (n in _FLEETING_EL) == (nominative in _FLEETING_EL))
                ]
                if options:
                    chosen = self._rng(str(surname), nominative).choice(options)
                    break
            else:
                return None
            self._names[(str(surname), nominative)] = chosen
        k = _common_prefix(nominative, form)
        tail = nominative[k:]
        if not chosen.endswith(tail) or len(chosen) <= len(tail):
            return None
        return chosen[: len(chosen) - len(tail)] + form[k:]

    def nominative(self, form: str, *, surname: bool) -> str | None:
        """The gazetteer nominative ``form`` is a singular case of (:func:`plausible_case`
        decides between candidates: ``Janovi`` is Jan's, not Jana's), else None."""
        own = self.gazetteer.surnames if surname else self.gazetteer.given_names
        other = self.gazetteer.given_names if surname else self.gazetteer.surnames
        for names in (own, other):
            found = sorted((c for c in nominative_candidates(form) if c in names), key=lambda c: (-len(c), c))
            for candidate in found:
                if plausible_case(candidate, form, surname=names is self.gazetteer.surnames):
                    return candidate
        return None

    def name(self, text: str, category: int) -> str | None:
        """Every capitalised word of a name span replaced (``"Janu Novákovou"``); None if one
        cannot be."""
        out, pos = [], 0
        words = list(re.finditer(r"\w+", text))
        for m in words:
            word = m.group()
            if not word[:1].isupper():
                continue
            # a span of one category may hold both (a given name and a surname decided as one)
            surname = category == cat.SURNAME or self.nominative(word, surname=False) not in self.gazetteer.given_names
            sub = self.name_word(word, surname=surname)
            if sub is None:
                return None
            out.append(text[pos : m.start()] + sub)
            pos = m.end()
        out.append(text[pos:])
        return "".join(out)

    # -- identifiers ------------------------------------------------------------------------
    def birth_number(self, text: str) -> str | None:
        """A valid birth number of the same form and sex."""
        digits = re.sub(r"\D", "", text)
        if len(digits) not in (9, 10):
            return None
        month = int(digits[2:4])
        offset = next(o for o in (70, 50, 20, 0) if month > o)
        rng = self._rng("rc", digits)
        for _ in range(1000):
            # ten digits since 1954 (the +20 / +70 months since 2004), nine before
            if len(digits) == 9:
                yy = rng.randint(20, 53)
            elif offset in (20, 70):
                yy = rng.randint(4, 20)
            else:
                yy = rng.choice([*range(54, 100), *range(6)])  # adults, as contract parties are
            mm, dd = rng.randint(1, 12), rng.randint(1, 28)
            head = f"{yy:02d}{mm + offset:02d}{dd:02d}"
            tail = f"{rng.randint(0, 999):03d}"
            if len(digits) == 10:
                check = int(head + tail) % 11
                if check == 10:
                    continue
                number = head + tail + str(check)
            else:
                number = head + tail
            if number != digits and rc.is_valid(number):
                return number[:6] + "/" + number[6:] if "/" in text else number
        return None

    def bank_account(self, text: str) -> str | None:
        """A valid account number with the same bank code and shape."""
        m = re.fullmatch(r"\s*(?:(\d{1,6})\s*-\s*)?(\d{2,10})\s*/\s*(\d{4})\s*", text)
        if not m:
            return None
        prefix, number, bank = m.groups()
        rng = self._rng("account", text)
        weights = (6, 3, 7, 9, 10, 5, 8, 4, 2, 1)
        for _ in range(5000):
            body = "".join(str(rng.randint(0, 9)) for _ in range(len(number)))
            if body[0] == "0" or sum(w * int(d) for w, d in zip(weights[-len(body) :], body, strict=True)) % 11:
                continue
            front = ""
            if prefix:
                front = "".join(str(rng.randint(0, 9)) for _ in range(len(prefix)))
                padded = front.rjust(6, "0")
                if sum(w * int(d) for w, d in zip(weights[-6:], padded, strict=True)) % 11:
                    continue
                front += "-"
            candidate = f"{front}{body}/{bank}"
            if bankaccount.is_valid(candidate) and candidate.replace(" ", "") != text.replace(" ", ""):
                return candidate
        return None

    def iban(self, text: str) -> str | None:
        """A valid Czech IBAN of a substitute account at the same bank, grouped like ``text``."""
        compact = re.sub(r"\s", "", text).upper()
        if not re.fullmatch(r"CZ\d{22}", compact):
            return self.shape(text, "iban")
        bank, prefix, number = compact[4:8], compact[8:14], compact[14:]
        account = self.bank_account(
            f"{prefix.lstrip('0') + '-' if prefix.strip('0') else ''}{number.lstrip('0')}/{bank}"
        )
        if account is None:
            return None
        acc = re.fullmatch(r"(?:(\d+)-)?(\d+)/(\d{4})", account)
        if acc is None:
            return None
        bban = acc.group(3) + (acc.group(1) or "").rjust(6, "0") + acc.group(2).rjust(10, "0")
        result = "CZ" + stdnum_iban.calc_check_digits("CZ00" + bban) + bban
        if not stdnum_iban.is_valid(result):
            return None
        return " ".join(result[i : i + 4] for i in range(0, len(result), 4)) if " " in text.strip() else result

    def date_of_birth(self, text: str) -> str | None:
        """``text``'s date moved by :attr:`shift_days`, written the same way."""
        m = _DATE.search(text)
        if not m:
            return None
        try:
            day = datetime.date(int(m.group(5)), int(m.group(3)), int(m.group(1)))
        except ValueError:
            return None
        new = day + datetime.timedelta(days=self.shift_days)
        d = f"{new.day:02d}" if len(m.group(1)) == 2 else str(new.day)
        mo = f"{new.month:02d}" if len(m.group(3)) == 2 else str(new.month)
        return text[: m.start()] + f"{d}{m.group(2)}{mo}{m.group(4)}{new.year}" + text[m.end() :]

    def address(self, text: str) -> str:
        """Another street and house number, and another town and postcode when ``text`` has them."""
        rng = self._rng("address", re.sub(r"\W", "", text).casefold())
        street = f"{rng.choice(AddressProvider.streets)} {rng.randint(1, 2999)}"
        if re.search(r"\d{3}\s?\d{2}", text):
            return f"{street}, {rng.randint(100, 799)} {rng.randint(0, 99):02d} {rng.choice(AddressProvider.cities)}"
        return street

    def shape(self, text: str, key: str) -> str:
        """Random characters of ``text``'s shape: digits for digits, letters for letters (same
        case), everything else kept: phones, ID cards, plates, VINs."""
        rng = self._rng(key, text)
        out = []
        for i, c in enumerate(text):
            if c.isdigit():
                # an international prefix (+420) and a phone's first digit stay: they say nothing of the person
                keep = key == "phone" and (text[:i].lstrip().startswith("+") and len(re.sub(r"\D", "", text[:i])) < 3)
                out.append(c if keep else str(rng.randint(1 if i == 0 else 0, 9)))
            elif c.isalpha() and c.isascii():
                letter = rng.choice(_LETTERS)
                out.append(letter if c.isupper() else letter.lower())
            else:
                out.append(c)
        return "".join(out)

    def title(self, text: str) -> str:
        """Another academic title."""
        return self._rng("title", text).choice(_TITLES)

    def email(self, text: str) -> str:
        """An address at example.cz made of a given name and a number."""
        rng = self._rng("email", text.casefold())
        given = rng.choice(_MALE_GIVEN + _FEMALE_GIVEN)
        return f"{strip_diacritics(given).casefold()}.{rng.randint(10, 999)}@example.cz"

    def substitute(self, text: str, category: int) -> str | None:
        """The substitute of a decided span ``text`` of ``category`` by the category's operator
        (:attr:`redactor.categories.Category.pseudonym`, :data:`OPERATORS`), or None (the caller
        writes the tag)."""
        return OPERATORS[cat.category(category).pseudonym](self, text, category)


#: The pseudonymisation operators, one per :data:`redactor.categories.Pseudonym`: each takes the
#: pseudonymiser, a decided span's text and its category, and gives the substitute or None where
#: no substitute of the right form exists.
OPERATORS: dict[str, Callable[[Pseudonymiser, str, int], str | None]] = {
    "name": lambda p, text, category: p.name(text, category),
    "title": lambda p, text, _: p.title(text),
    "birth_number": lambda p, text, _: p.birth_number(text),
    "bank_account": lambda p, text, _: p.bank_account(text),
    "iban": lambda p, text, _: p.iban(text),
    "date_of_birth": lambda p, text, _: p.date_of_birth(text),
    "address": lambda p, text, _: p.address(text),
    "email": lambda p, text, _: p.email(text),
    "phone": lambda p, text, _: p.shape(text, "phone"),
    "shape": lambda p, text, category: p.shape(text, str(category)),
}
