"""The agency's own identity as evidence: what a public body knows about itself.

A public body publishes hundreds of contracts in which it is one party. Its name and former
names, IČO, data box, seat and other office addresses, accounts, phones, e-mail domains and its
officials and signing employees are the same in all of them, and none of it is personal data of
a private person: the seat of a legal person, its accounts and the names of officials acting for
the public body are kept (ministry methodology for Act 340/2015 Sb.; ``../shared/DOMAIN.md``,
"What to redact and what to keep"). The engine receives this profile beside the category map
(:meth:`~redactor.engine.RedactionEngine.analyze`) and keeps those values in every
inflected form and OCR variant it can match:

- names: word by word on their stems without diacritics ("Kanceláře Poslanecké sněmovny",
  "Kancelar Poslanecke snemovny");
- addresses: street (letters only, no diacritics) and house number, OCR's O/0 and l/1 mixed up
  in numbers (:func:`address_key`);
- accounts by prefix, number and bank code without leading zeros, also inside an IBAN; phones by
  their last nine digits; e-mails by domain (an address on the agency's domain whose local part
  spells a person who is not one of its officials is left to the other rules);
- officials by given name and surname in any case (:func:`~redactor.czech.same_name`),
  unless the person's own data stands next to the name (a birth number or date, a home
  address): a private namesake is still told apart by context
  (:meth:`~redactor.detect.linking.Linker.build_persons`).

Framework-free: the web app stores versions of the profile per agency and passes
:meth:`AgencyProfile.from_dict` of the version in force.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, TypedDict

from redactor import categories as cat
from redactor.czech import TITLES_AFTER, TITLES_BEFORE, folded_nominative_candidates, strip_diacritics
from redactor.model import Finding, Span

#: The profile fields an agency fills, in the order of the settings page and of the CSV import.
FIELDS = ("name", "ico", "data_box", "address", "account", "phone", "email_domain", "official")


def _fold(text: str) -> str:
    return strip_diacritics(text).lower()


def address_key(text: str) -> tuple[str, str] | None:
    """``(street letters, house number)`` of an address, folded: "Sněmovní 176/4, 118 26
    Praha 1" -> ``("snemovni", "176/4")``; "Lhota 1, 500 01 Lhota" -> ``("lhota", "1")``. OCR's
    "O"/"o" and "l"/"I"/"|" inside the number count as 0 and 1. None without a number or street."""
    folded = _fold(text)
    m = re.match(r"\s*(?P<street>[^\d,]*?)[ ]*(?P<number>[\dol|i]*\d[\dol|i]*(?:[ ]*/[ ]*[\dol|i]+)?[a-z]?)\b", folded)
    if m is None:
        return None
    street = re.sub(r"[^a-z]", "", m.group("street"))
    number = re.sub(r"\s", "", m.group("number"))
    number = number.translate(str.maketrans("oli|", "0111"))
    if not street or not re.search(r"\d", number):
        return None
    return street, number


def account_key(text: str) -> tuple[str, str, str] | None:
    """``(prefix, number, bank code)`` of a Czech account without leading zeros, from
    "19-2000145399/0800" or from a Czech IBAN ("CZ65 0800 0000 1920 0014 5399"); None otherwise."""
    compact = re.sub(r"\s", "", text).upper()
    m = re.fullmatch(r"(?:(\d{1,6})-)?(\d{2,10})/(\d{4})", compact)
    if m:
        return (m.group(1) or "").lstrip("0"), m.group(2).lstrip("0"), m.group(3)
    m = re.fullmatch(r"CZ\d{2}(\d{4})(\d{6})(\d{10})", compact)
    if m:
        return m.group(2).lstrip("0"), m.group(3).lstrip("0"), m.group(1)
    return None


def phone_key(text: str) -> str | None:
    """The last nine digits of a phone number (the Czech national number), or None."""
    digits = re.sub(r"\D", "", text)
    return digits[-9:] if len(digits) >= 9 else None


def _name_words(name: str) -> list[str]:
    """The words of a person's name without academic titles and punctuation."""
    titles = {_fold(t).rstrip(".") for t in (*TITLES_BEFORE, *TITLES_AFTER)}
    words = re.findall(r"[^\W\d_]+(?:-[^\W\d_]+)?\.?", name)
    return [w.rstrip(".") for w in words if _fold(w).rstrip(".") not in titles and not w.endswith(".")]


class _OwnKeys(TypedDict):
    addresses: set[tuple[str, str]]
    accounts: set[tuple[str, str, str]]
    phones: set[str]


class OfficialDict(TypedDict):
    """An official as JSON: ``name`` and ``function``."""

    name: str
    function: str


class ProfileDict(TypedDict):
    """:meth:`AgencyProfile.to_dict`'s shape."""

    names: list[str]
    ico: str
    data_box: str
    addresses: list[str]
    accounts: list[str]
    phones: list[str]
    email_domains: list[str]
    officials: list[OfficialDict]


@dataclass(frozen=True)
class Official:
    """An official or signing employee of the agency: ``name`` as written ("Ing. Petr Novák")
    and ``function`` ("starosta", "vedoucí odboru investic")."""

    name: str
    function: str = ""

    def words(self) -> list[str]:
        """Given name(s) and surname without titles."""
        return _name_words(self.name)


@dataclass(frozen=True)
class AgencyProfile:
    """What a public body knows about itself (see the module docstring). Every field is a tuple
    of strings as the agency writes them; ``officials`` of :class:`Official`."""

    names: tuple[str, ...] = ()
    ico: str = ""
    data_box: str = ""
    addresses: tuple[str, ...] = ()
    accounts: tuple[str, ...] = ()
    phones: tuple[str, ...] = ()
    email_domains: tuple[str, ...] = ()
    officials: tuple[Official, ...] = ()
    #: The agency's setting that its officials' and companies' representatives' handwritten
    #: signatures are redacted too (:mod:`redactor.decide.signatures`); by default they follow
    #: the policy of their names. An agency setting, not part of the profile's versions.
    redact_official_signatures: bool = False

    # -- (de)serialisation ----------------------------------------------------------------
    def to_dict(self) -> ProfileDict:
        """JSON-ready: ``{"names": [...], "ico": "...", ..., "officials": [{"name", "function"}]}``."""
        return {
            "names": list(self.names),
            "ico": self.ico,
            "data_box": self.data_box,
            "addresses": list(self.addresses),
            "accounts": list(self.accounts),
            "phones": list(self.phones),
            "email_domains": list(self.email_domains),
            "officials": [{"name": o.name, "function": o.function} for o in self.officials],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> AgencyProfile:
        """The inverse of :meth:`to_dict`; missing keys are empty, blank entries dropped."""
        data = data or {}

        def strings(key: str) -> tuple[str, ...]:
            return tuple(s.strip() for s in data.get(key) or () if str(s).strip())

        officials = tuple(
            Official(str(o.get("name", "")).strip(), str(o.get("function", "")).strip())
            for o in data.get("officials") or ()
            if str(o.get("name", "")).strip()
        )
        return cls(
            names=strings("names"),
            ico=str(data.get("ico") or "").strip(),
            data_box=str(data.get("data_box") or "").strip().lower(),
            addresses=strings("addresses"),
            accounts=strings("accounts"),
            phones=strings("phones"),
            email_domains=tuple(d.lower().lstrip("@") for d in strings("email_domains")),
            officials=officials,
        )

    def with_signatures(self, *, redact_officials: bool) -> AgencyProfile:
        """This profile with :attr:`redact_official_signatures` set."""
        return dataclasses.replace(self, redact_official_signatures=redact_officials)

    @property
    def empty(self) -> bool:
        """True when the profile holds nothing the engine can use."""
        return not (
            self.names
            or self.ico
            or self.data_box
            or self.addresses
            or self.accounts
            or self.phones
            or self.email_domains
            or self.officials
        )

    @property
    def display_name(self) -> str:
        """The agency's current name (the first of ``names``), or its IČO."""
        return self.names[0] if self.names else self.ico

    # -- matching -------------------------------------------------------------------------
    @cached_property
    def _keys(self) -> _OwnKeys:
        """The normalised keys of the addresses, accounts and phones, computed once."""
        return {
            "addresses": {k for k in map(address_key, self.addresses) if k},
            "accounts": {k for k in map(account_key, self.accounts) if k},
            "phones": {k for k in map(phone_key, self.phones) if k},
        }

    def own_value(self, finding: Finding) -> str | None:
        """Which of the agency's own data ``finding``'s value is ("address", "account",
        "phone", "e-mail", "IČO", "data box"), or None."""
        keys = self._keys
        text = finding.text
        if finding.category in cat.ADDRESS_CATEGORIES:
            return "address" if address_key(text) in keys["addresses"] else None
        if finding.category in (cat.BANK_ACCOUNT, cat.IBAN):
            return "account" if account_key(text) in keys["accounts"] else None
        if finding.category == cat.PHONE:
            return "phone" if phone_key(text) in keys["phones"] else None
        if finding.category in (cat.EMAIL_GENERIC, cat.EMAIL_PERSONAL):
            local, _, domain = text.strip().lower().rpartition("@")
            if not any(domain == d or domain.endswith("." + d) for d in self.email_domains):
                return None
            if finding.category == cat.EMAIL_PERSONAL and not self._official_mail(local):
                return None
            return "e-mail"
        if finding.category == cat.ICO and self.ico and re.sub(r"\D", "", text) == self.ico:
            return "IČO"
        if finding.category == cat.DATA_BOX and self.data_box and text.strip().lower() == self.data_box:
            return "data box"
        return None

    def _official_mail(self, local: str) -> bool:
        """True when an e-mail's local part spells one of the officials ("petr.novak",
        "novakp", "pnovak")."""
        folded = re.sub(r"[^a-z]", "", _fold(local))
        for official in self.officials:
            words = [re.sub(r"[^a-z]", "", _fold(w)) for w in official.words()]
            if words and words[-1] and words[-1] in folded:
                return True
        return False

    def official(self, words: list[str]) -> Official | None:
        """The official whose given name and surname are among ``words`` (one mention of a
        person, in any case: "Petrem Novákem", "Novák Petr", "Novakovi"), or whose surname alone
        is ``words`` when only one word is given; None otherwise."""
        forms = [folded_nominative_candidates(w) for w in words if w]
        for official in self.officials:
            own = [folded_nominative_candidates(w) for w in official.words()]
            if not own:
                continue
            surname, given = own[-1], own[:-1]
            if not any(f & surname for f in forms):
                continue
            if len(forms) == 1 or not given or any(f & g for f in forms for g in given):
                return official
        return None

    def name_spans(self, text: str) -> list[tuple[Span, str]]:
        """Where the agency's names stand in ``text``, in any case and without diacritics:
        ``[(span, name as the profile gives it)]``. Each word of a name matches a word with the
        same stem (the word without its last one to three letters, by length)."""
        folded = _fold(text)
        if len(folded) != len(text):
            return []
        out = []
        for name in self.names:
            parts = []
            for word in re.findall(r"[^\W_]+|[.,–-]", _fold(name)):
                if not word[0].isalnum():
                    parts.append(r"\s*" + re.escape(word) + r"?")
                    continue
                cut = 0 if len(word) <= 3 or word.isdigit() else (1 if len(word) <= 5 else 3)
                stem = word[: len(word) - cut]
                parts.append(r"\s+" + re.escape(stem) + (r"[a-z]{0,4}" if cut else ""))
            if not parts:
                continue
            pattern = "".join(parts).removeprefix(r"\s+")
            for m in re.finditer(rf"(?<![a-z0-9]){pattern}(?![a-z0-9])", folded):
                out.append((Span(m.start(), m.end()), name))
        return out


def mark_agency_names(text: str, findings: list[Finding], profile: AgencyProfile | None) -> list[Finding]:
    """``findings`` with the agency's names as public-body organisation names: an organisation
    finding that a name of the profile covers (or that covers one) becomes a public body, and a
    name no recognizer found is added (recognizer ``agency_profile``). Person-name findings
    inside an agency's name ("Kancelář prezidenta republiky", a street-named school) are
    dropped. Returns a new list sorted by offset; ``findings`` itself is changed in place only
    where an organisation's kind is corrected."""
    if profile is None or not profile.names:
        return findings
    spans = profile.name_spans(text)
    if not spans:
        return findings
    out = list(findings)
    for span, name in spans:
        covered = False
        for f in findings:
            if f.category == cat.COMPANY_NAME and (span.overlaps(f.span)):
                f.attributes["kind"] = "public_body"
                f.evidence = f"{f.evidence}; the agency's own name {name!r} (agency profile)"
                covered = True
        if not covered:
            out = [f for f in out if not (f.category in cat.NAME_CATEGORIES and span.contains(f.span))]
            out.append(
                Finding(
                    cat.COMPANY_NAME,
                    span,
                    text[span.start : span.end],
                    0.95,
                    "agency_profile",
                    f"the agency's own name {name!r} (agency profile)",
                    attributes={"kind": "public_body", "agency": True},
                )
            )
    return sorted(out, key=lambda f: f.span.start)
