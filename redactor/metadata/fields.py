"""Metadata for the registry of contracts: what they are, and the check that they carry nothing
the published PDF redacts.

The registry (ISRS, Act 340/2015 Sb., § 5(5)) publishes with every contract its metadata: the
publishing body (``subjekt``), every other contracting party (``smluvniStrana``), the subject
(``predmet``), the date of conclusion (``datumUzavreni``), the contract number, who signed for the
body (``schvalil``), the value without or with VAT or in a foreign currency and, for an amendment,
the related record (``navazanyZaznam``). Element names and limits are those of the registry's
``typ_smlouva.xsd`` 1.2.1 (``redactor/data/isrs/``).

:func:`redactor.metadata.prefill.prefill` reads them from the contract; every value carries
the place it was read (:class:`Source`). A value the PDF redacts never enters the metadata: a
private natural person's party is named by the sentence the registry's XSD prescribes for § 5(6)
of the Act (:data:`NOT_PUBLIC`), and :func:`redacted_values_in` is the check the publishing service
runs again on the reviewer's final version.

Framework-free: the web app stores :meth:`ContractMetadata.to_dict`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any

from stdnum.cz import bankaccount, rc

from redactor.categories import NAME_CATEGORIES
from redactor.czech import (
    TITLES_AFTER,
    TITLES_BEFORE,
    NameGazetteer,
    folded_nominative_candidates,
    strip_diacritics,
)
from redactor.model import Action

if TYPE_CHECKING:
    from redactor.model import ProposedRedaction

#: ``smluvniStrana/nazev`` of a party whose identification is not published (typ_smlouva.xsd
#: 1.2.1, annotation of ``nazev``: "Pokud subjekt postupuje dle § 5 odst. 6 uvede …").
NOT_PUBLIC = "Údaj není veřejný na základě § 5 odst. 6 zákona č. 340/2015 Sb., o registru smluv."
#: ``tText`` / ``tTextNoEmpty`` of the XSD: at most 255 characters.
MAX_TEXT = 255


@dataclass(frozen=True)
class Source:
    """Where a value was read: ``page`` (from 1) and the ``text`` of the line (at most 200
    characters); ``note`` says how it was derived when it is not a plain reading (a code)."""

    page: int
    text: str
    note: str = ""


@dataclass
class RegistryParty:
    """One ``smluvniStrana``: ``name`` as the registry shows it (:data:`NOT_PUBLIC` for a private
    person's party whose name the PDF redacts), ``ico`` (8 digits), ``data_box`` (7 characters),
    ``address`` (a seat, never a home), ``recipient`` (True: receives the payment, False: pays,
    None: not known), ``private`` (a natural person or sole trader), ``source`` where found."""

    name: str
    ico: str = ""
    data_box: str = ""
    address: str = ""
    recipient: bool | None = None
    private: bool = False
    source: Source | None = None


@dataclass
class PublishingBody:
    """``subjekt``: the agency that publishes (from its settings, not from the contract):
    ``data_box``, ``name``, ``ico``, ``address``, ``unit`` (útvar) and ``payer`` (True: pays)."""

    data_box: str = ""
    name: str = ""
    ico: str = ""
    address: str = ""
    unit: str = ""
    payer: bool | None = None


@dataclass
class ContractMetadata:
    """A contract's registry metadata (``tSmlouva`` of the XSD), each field with its
    :class:`Source` in ``sources`` under the field's name.

    Amounts are :class:`~decimal.Decimal` in the currency's units; ``value_without_vat`` and
    ``value_with_vat`` are in CZK, a value in another currency is ``foreign_value`` with its ISO
    4217 code in ``foreign_currency``. ``related_record`` is the registry's record id
    (``idSmlouvy``) of the contract an amendment changes.
    """

    publisher: PublishingBody = field(default_factory=PublishingBody)
    parties: list[RegistryParty] = field(default_factory=list)
    subject: str = ""
    date_concluded: date | None = None
    number: str = ""
    signed_by: str = ""
    value_without_vat: Decimal | None = None
    value_with_vat: Decimal | None = None
    foreign_value: Decimal | None = None
    foreign_currency: str = ""
    related_record: int | None = None
    amendment: bool = False
    sources: dict[str, Source] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: dates ISO, amounts as strings, sources as ``{"page", "text", "note"}``."""
        data = asdict(self)
        data["date_concluded"] = self.date_concluded.isoformat() if self.date_concluded else None
        for key in ("value_without_vat", "value_with_vat", "foreign_value"):
            data[key] = None if getattr(self, key) is None else str(getattr(self, key))
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> ContractMetadata:
        """Inverse of :meth:`to_dict`; unknown keys are ignored, missing ones take defaults (the
        values are a clerk's or an integrator's JSON, hence ``Any`` until read here).
        Raises ``ValueError`` for a malformed date or amount."""
        data = dict(data or {})

        def source(value: object) -> Source | None:
            return Source(**value) if isinstance(value, dict) else None

        def amount(value: object) -> Decimal | None:
            if value in (None, ""):
                return None
            try:
                return Decimal(str(value))
            except InvalidOperation:
                raise ValueError(f"not an amount: {value!r}") from None

        parties = []
        for p in data.get("parties") or []:
            p = {k: v for k, v in p.items() if k in RegistryParty.__dataclass_fields__}
            p["source"] = source(p.get("source"))
            parties.append(RegistryParty(**p))
        publisher = {k: v for k, v in (data.get("publisher") or {}).items() if k in PublishingBody.__dataclass_fields__}
        concluded = data.get("date_concluded")
        return cls(
            publisher=PublishingBody(**publisher),
            parties=parties,
            subject=data.get("subject") or "",
            date_concluded=date.fromisoformat(concluded) if concluded else None,
            number=data.get("number") or "",
            signed_by=data.get("signed_by") or "",
            value_without_vat=amount(data.get("value_without_vat")),
            value_with_vat=amount(data.get("value_with_vat")),
            foreign_value=amount(data.get("foreign_value")),
            foreign_currency=(data.get("foreign_currency") or "").upper(),
            related_record=int(data["related_record"]) if data.get("related_record") not in (None, "") else None,
            amendment=bool(data.get("amendment")),
            sources={k: s for k, v in (data.get("sources") or {}).items() if (s := source(v)) is not None},
        )

    def texts(self) -> dict[str, str]:
        """Every free-text value by its field path ("parties.1.address"): what
        :func:`redacted_values_in` checks."""
        values = {"subject": self.subject, "number": self.number, "signed_by": self.signed_by}
        for i, p in enumerate(self.parties):
            for key in ("name", "ico", "data_box", "address"):
                values[f"parties.{i}.{key}"] = getattr(p, key)
        return {k: v for k, v in values.items() if v}


# -- checks ------------------------------------------------------------------------------------
#: A house-number marker written in or left out of an address at will ("Lipová č. p. 12" is
#: "Lipová 12"): číslo popisné, orientační, evidenční (Decree 359/2011 Sb., § 3).
_HOUSE_MARKER = re.compile(r"(?<!\w)(?:č|c)\.?\s*(?:p|o|ev)\.\s*|(?<!\w)čp\.\s*", re.I)


def _norm(text: str) -> str:
    text = _HOUSE_MARKER.sub("", unicodedata.normalize("NFKC", text))
    return re.sub(r"\s+", " ", text).strip().casefold()


#: A redacted value read as a number when at least this many of its characters are digits.
_MIN_DIGITS = 6


#: The account number of a Czech account written as [prefix-]number/bank code (Decree 169/2011 Sb.).
_ACCOUNT_NUMBER = re.compile(r"(?<![\d-])(?:\d{1,6}\s*-\s*)?(\d{2,10})\s*/\s*\d{4}(?!\d)")


def _account_numbers(value: str) -> list[str]:
    """The account numbers (without prefix and bank code) of the valid Czech accounts written in
    ``value`` (python-stdnum's ``cz.bankaccount``); a birth number "736028/5163" is none."""
    return [
        m.group(1)
        for m in _ACCOUNT_NUMBER.finditer(value)
        if bankaccount.is_valid(re.sub(r"\s", "", m.group())) and not rc.is_valid(re.sub(r"\s", "", m.group()))
    ]


def _digits(text: str) -> str:
    return re.sub(r"\D", "", text)


def _number_runs(text: str) -> list[str]:
    """The digits of each run of digits and separators (spaces, slashes, dots, dashes) in ``text``."""
    return [_digits(m.group()) for m in re.finditer(r"\d[\d\s/.\-–]*\d|\d", text)]


def _name_forms(word: str) -> frozenset[str]:
    """Every folded nominative a name word or its inflected form may stand for."""
    return folded_nominative_candidates(word) | {strip_diacritics(word).lower()}


def redacted_values_in(
    metadata: ContractMetadata, redacted: list[str], names: Iterable[str] = ()
) -> list[tuple[str, str]]:
    """``(field path, redacted value)`` for every redacted value that a metadata text carries in
    any written form:

    - as whole words, NFKC, case, whitespace and diacritics folded ("Michaela Dvořáková",
      "MICHAELA DVORAKOVA"; values shorter than 3 characters are ignored);
    - a value of :data:`_MIN_DIGITS` or more digits (a birth number, an account, a phone) as the
      same digits inside a run of digits and separators, however written ("736028/5163",
      "736028 5163", "7360285163");
    - a value's group of :data:`_MIN_DIGITS` or more digits alone (an account without its prefix
      or bank code);
    - a person's name (``names``: the redacted texts that are persons' names) by each of its words
      that is not a known given name (or is the last word after a given name: "Petrem Řehořem"),
      in any case form on either side (the surname alone, "Dvořákové", "Řehoř" for "Řehořem",
      "J. Hájek" for "Janem Hájkem", without diacritics:
      :func:`~redactor.czech.folded_nominative_candidates`);
    - an address with or without its house-number marker ("Lipová č. p. 12" for "Lipová 12").

    ``redacted`` are the texts the published PDF blacks out; academic titles among them are not
    values of their own. The metadata are public beside the PDF, so they must not carry what the
    PDF hides (Act 340/2015 Sb., § 5(6); the registry's README: "metadata need the same care as
    the PDF")."""
    found = []
    titles = {_norm(t).rstrip(".") for t in (*TITLES_BEFORE, *TITLES_AFTER)}
    # an academic title redacted with one person's name ("Ing." of a private site manager) is no
    # value of its own: the official's "Ing." in schvalil is not a leak
    values = sorted(
        {_norm(v) for v in redacted if len(_norm(v)) >= 3 and _norm(v).rstrip(".") not in titles},
        key=len,
        reverse=True,
    )
    # a value's digits, and each group of them long enough to be a value alone: an account's
    # number without its prefix or bank code ("2000145399" of "19-2000145399/0800")
    numbers = sorted(
        {d for v in redacted for d in (_digits(v), *_account_numbers(v)) if len(d) >= _MIN_DIGITS},
        key=len,
        reverse=True,
    )
    gazetteer = NameGazetteer.default()
    name_words: dict[str, str] = {}  # folded nominative a word may stand for -> the name it belongs to
    for name in names:
        words = [w for w in re.findall(r"[^\W\d_]+", name) if _norm(w).rstrip(".") not in titles]
        given_first = len(words) > 1 and gazetteer.given_name_of(words[0].capitalize()) is not None
        for n, word in enumerate(words):
            # the surname, in any case form: a word that is no given name, or the last of a name
            # that begins with one ("Petrem Řehořem": Řehoř is a given name too)
            surname = gazetteer.given_name_of(word.capitalize()) is None or (given_first and n == len(words) - 1)
            if len(word) >= 3 and surname:
                for form in _name_forms(word):
                    name_words[form] = _norm(name)
    for path, text in metadata.texts().items():
        if text == NOT_PUBLIC:
            continue
        folded = _norm(text)
        plain = strip_diacritics(folded)
        hit = next(
            (
                v
                for v in values
                if re.search(rf"(?<!\w){re.escape(v)}(?!\w)", folded)
                or re.search(rf"(?<!\w){re.escape(strip_diacritics(v))}(?!\w)", plain)
            ),
            None,
        )
        if hit is None:
            runs = _number_runs(text)
            hit = next((n for n in numbers if any(n in run for run in runs)), None)
        if hit is None:
            words = [w for w in re.findall(r"[^\W\d_]+", text) if len(w) >= 3]
            # the word itself among the nominatives a field's word may inflect: "Dvořákové" is
            # "Dvořáková"; an official "Novák" is not the private "Nováková"
            hit = next((name_words[f] for w in words for f in _name_forms(w) if f in name_words), None)
        if hit is not None:
            found.append((path, hit))
    return found


def drop_redacted_values(metadata: ContractMetadata, redacted: list[str], names: Iterable[str] = ()) -> list[str]:
    """Empty every field of ``metadata`` that carries a redacted value (:func:`redacted_values_in`);
    a party's name becomes :data:`NOT_PUBLIC`. Returns the field paths emptied. For a door with no
    reviewer (the CLI); the web app refuses such metadata and lets the reviewer decide."""
    paths = [path for path, _value in redacted_values_in(metadata, redacted, names)]
    for path in paths:
        if path.startswith("parties."):
            _p, index, key = path.split(".")
            party = metadata.parties[int(index)]
            setattr(party, key, NOT_PUBLIC if key == "name" else "")
        else:
            setattr(metadata, path, "")
    return paths


def redacted_texts(proposals: list[ProposedRedaction]) -> list[str]:
    """The texts of the proposals to redact: what the CLI's published PDF hides."""
    return [p.text for p in proposals if p.action == Action.REDACT]


def redacted_names(proposals: list[ProposedRedaction]) -> list[str]:
    """The persons' names among :func:`redacted_texts` (for :func:`redacted_values_in`)."""
    return [p.text for p in proposals if p.action == Action.REDACT and p.category in NAME_CATEGORIES]
