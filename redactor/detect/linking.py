"""Who each finding belongs to: person clusters with their roles, the entities of the
document (persons, parties, role words) and the holder of a value within a dependency's scope
(``holder``, ``party``, ``sentence``, ``coreference``), as :mod:`redactor.decide.decisions` asks.

Roles (public official in office, statutory representative) come from :mod:`redactor.detect.roles`
and the category map's role exceptions; whose an account or an identifier is follows the
possessive and proximity rules documented on each method.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypedDict

from redactor import categories as cat
from redactor import lexicon
from redactor.czech import alias_stem, strip_diacritics
from redactor.detect.parties import UNIT_LINE, PartyReference
from redactor.detect.profile import AgencyProfile, Official
from redactor.detect.roles import (
    EITHER,
    OFFICIAL,
    REPRESENTATION,
    STAFF,
    STATUTORY,
    Function,
    contact_cue,
    function_in_cell,
    function_near,
)
from redactor.model import Finding, Party, PartyKind, Span
from redactor.reasons import Params, ReasonDict
from redactor.text import SpanIndex

#: Representation on a power of attorney (Civil Code § 441): "na základě plné moci", "dle plné
#: moci", "zmocněnec", "zmocněná"; diacritics as OCR may lose them.
ATTORNEY = re.compile(f"(?i){lexicon.alternatives('attorney')}")
#: The cue of the clerk who handles or wrote a paper for its issuer ("Vyřizuje:", "Zpracovala:"), as
#: :func:`~redactor.detect.roles.contact_cue` gives it: on a public body's own paper the clerk acts
#: in office (Act 340/2015 Sb., § 5; the ministry's methodology keeps a public body's staff acting
#: in their job).
CLERK = re.compile(f"{lexicon.alternatives('clerk')}|{lexicon.alternatives('prepared_by')}", re.I)
#: "Za <a party's role or alias> vyřizuje/kontaktní osoba:" ending right before a name (text
#: folded, lower case): the contact acts for that party.
_FOR_PARTY = re.compile(
    r"(?:^|\n|[.;:]\s)\s*za\s+(?P<who>[a-z]+(?:\s+[a-z]+){0,2})\s*[,:]?\s+"
    rf"(?:{lexicon.alternatives('clerk', folded=True)}|{lexicon.alternatives('contact_person', folded=True)})"
    r"\s*:?\s*(?:[a-z]{2,6}\.\s*)*$"
)
#: :attr:`Person.placed` of a statutory representative that a representation cue alone named.
REPRESENTED_ONLY = "a representation cue before the name, no function beside it"
#: A unit of an office named anywhere ("odbor dopravy", "Oddělení …"), text folded.
_UNIT_WORD = re.compile(lexicon.alternatives("unit_headings", folded=True, bounded=True), re.I)
#: "účet", "účtu", "účtem" right before a party's role noun: the account is that party's.
ACCOUNT_NOUN = re.compile(rf"{lexicon.alternatives('account_nouns', bounded=True)}[ \n]+$", re.I)
#: An account noun with a public body in the genitive right before the account ("na účet města
#: č.", "účtu městské části"): the possessive names a public body, whoever else the sentence names.
PUBLIC_ACCOUNT = re.compile(
    rf"{lexicon.alternatives('account_nouns', bounded=True)}[ \n]+"
    rf"{lexicon.alternatives('public_possessives', bounded=True)}"
    rf"(?:[ \n]+{lexicon.alternatives('number_words')})?[ \n:]*$",
    re.I,
)
#: A bank's name: the bank an account is held at, never the account's owner.
BANK = re.compile(f"{lexicon.alternatives('bank_words')}|{lexicon.alternatives('bank_short_names')}\\b", re.I)


class PersonDict(TypedDict):
    """:meth:`Person.to_dict`'s shape."""

    id: str
    name: str
    role: str | None
    private: bool
    party: int | None
    evidence: str


@dataclass
class Person:
    """A person cluster: every mention of one natural person in the document."""

    id: str  # "person:N"
    name: str
    role: str | None  # public_official | statutory_representative | None (private)
    party: Party | None  # the party the person is, or acts for
    principal: bool  # the person *is* a natural-person or sole-trader party
    evidence: str
    cue: str = ""  # the function or representation words that gave the role, as written
    #: The contact cue that introduced the person ("kontaktní osoba", "vyřizuje"), as written:
    #: a party's employee named for communication (:func:`~redactor.detect.roles.contact_cue`).
    contact: str = ""
    #: Where the role was read from when only the page's layout gave the body the person acts
    #: for (a letterhead above a clerk's cue, a public body's entry around a contact cue, a unit
    #: in its address block), in English; "" when words next to the name said it (a function, a
    #: rank, a representation, "Za objednatele vyřizuje", the agency's profile).
    placed: str = ""

    @property
    def private(self) -> bool:
        """True when the person's data is personal data to redact (no role exception)."""
        return self.role is None

    def holder_kind(self) -> str:
        """The holder kind of data that belongs to this person."""
        if self.principal and self.party is not None:
            return self.party.kind.value
        if self.role is not None and self.party is not None:
            return self.party.kind.value
        if self.role == "public_official":
            return PartyKind.PUBLIC_BODY.value
        if self.role == "statutory_representative":
            return PartyKind.LEGAL_PERSON.value
        return PartyKind.NATURAL_PERSON.value

    def to_dict(self) -> PersonDict:
        """JSON form: ``id``, ``name``, ``role`` (or None), ``private``, ``party`` (its index, or
        None) and ``evidence``."""
        return {
            "id": self.id,
            "name": self.name,
            "role": self.role,
            "private": self.private,
            "party": self.party.index if self.party else None,
            "evidence": self.evidence,
        }

    def who(self, how: str | None = None) -> ReasonDict:
        """The person as a reason parameter: their party when they are it, their role when they
        have one, else "person 'X'" (``how``: a term key saying how they were linked)."""
        if self.principal and self.party is not None:
            return self.party.who(how)
        code = "who_role" if self.role else "who_person"
        params: Params = {"name": self.name}
        if self.role:
            params["role"] = {"term": self.role}
        if how:
            params["how"] = {"term": how}
            code += "_how"
        return {"code": code, "params": params}


@dataclass
class Holder:
    """Who a finding belongs to (a party kind), how that was established (``scope``) and who it
    is as a reason parameter (``who``, see :mod:`redactor.reasons`)."""

    kind: str  # a PartyKind value
    scope: str  # holder | party | sentence
    who: ReasonDict
    #: The person, party or organisation's kind the holder is, when the rule that found it read
    #: it from where the value stands (its letterhead, sentence, block or entry): a guess of the
    #: page's layout, which :mod:`redactor.decide.keep_check` weighs; None when the words say it.
    placed: object = None


@dataclass
class _Seen:
    """What the mentions of one person told :meth:`Linker.build_persons` so far."""

    principal_of: Party | None = None
    role: str | None = None
    role_party: Party | None = None
    evidence: str = ""
    cue: str = ""
    contact: str = ""
    statutory_function: bool = False
    placed: str = ""
    function: bool = False  # a function or rank stood next to one of the mentions


class _HolderQuery:
    """One question to :meth:`Linker.holder`: the finding ``f``, the dependency ``scopes`` it
    allows, its ``sentence``, and (asked once, when a rule needs it) the ``party`` whose block it
    stands in, and whether that is an ``organisation``'s entry holding one of its own values."""

    def __init__(self, f: Finding, scopes: tuple[str, ...], sentence: Span | None, linker: Linker):
        self.f, self.scopes, self.sentence = f, scopes, sentence
        self._linker = linker

    @functools.cached_property
    def party(self) -> Party | None:
        return self._linker.party_at(self.f.span)

    @functools.cached_property
    def organisation(self) -> bool:
        entry = self.party if "party" in self.scopes and self.f.category in cat.ENTITY_VALUES else None
        return entry is not None and entry.kind in (PartyKind.LEGAL_PERSON, PartyKind.PUBLIC_BODY)


class Linker:
    """Resolves holders and scopes for one document. ``below(span)``, when the page geometry is
    known, gives the words printed under a name in its column (a signature block in columns,
    :class:`redactor.read.columns.ColumnCells`)."""

    def __init__(
        self,
        text: str,
        sentences: list[Span],
        findings: list[Finding],
        parties: list[Party],
        references: list[PartyReference],
        profile: AgencyProfile | None = None,
        below: Callable[[Span], str | None] | None = None,
    ):
        self.text = text
        self.below = below
        self.profile = profile
        self.sentences = SpanIndex(sentences)
        self.findings = findings
        self.parties = parties
        self.references = references
        self.persons: dict[str, Person] = {}
        self.entities: list[tuple[int, int, object]] = []  # (start, end, Person | Party | str kind)

    # -- persons --------------------------------------------------------------------------
    def party_at(self, span: Span) -> Party | None:
        for party in self.parties:
            if party.contains(span):
                return party
        return None

    def build_persons(self) -> None:
        """One :class:`Person` for each cluster of name findings (their ``holder``): whether the
        person is a natural-person party, acts in a role (an official, a statutory body) for a
        party, or is named for communication, read from each mention's neighbourhood."""
        clusters: dict[str, list[Finding]] = {}
        for f in self.findings:
            if f.category in cat.NAME_CATEGORIES and f.holder:
                clusters.setdefault(f.holder, []).append(f)
        for pid, mentions in clusters.items():
            full = [m for m in mentions if m.category == cat.FULL_NAME]
            name = (full or mentions)[0].text.replace("\n", " ")
            seen = _Seen()
            for m in mentions:
                self._read_mention(m, seen)
            self._settle(mentions, seen)
            self.persons[pid] = Person(
                pid,
                name,
                seen.role,
                seen.role_party,
                seen.principal_of is not None,
                seen.evidence,
                seen.cue if seen.role else "",
                seen.contact if seen.role is None else "",
                seen.placed if seen.role and not seen.function else "",
            )

    def _read_mention(self, m: Finding, seen: _Seen) -> None:
        """What one mention ``m`` of a person tells: the party the person is, a staff or clerk's
        role, a contact cue, or a function or representation next to the name."""
        party = self.party_at(m.span)
        tail = strip_diacritics(m.attributes.get("before", ""))
        rep = REPRESENTATION.search(tail)
        fn = function_near(self.text, m.span.start, m.span.end)
        if fn is None and self.below is not None:
            fn = function_in_cell(self.below(m.span))  # under the name in a column
        if fn is None:
            fn = self._unit_below(m.span)
        seen.function = seen.function or fn is not None
        if self._is_principal(m, party, rep is not None, fn):
            seen.principal_of = party
        staff = self._staff(m, party, fn) if seen.role is None and not rep else None
        if staff is not None:
            seen.role, seen.role_party, seen.cue, seen.evidence = OFFICIAL, party, *staff
            # a unit of the office above the name says where the person works; a contact cue in
            # the body's entry says only that the entry is the body's
            unit = self._unit_in_letterhead(party, m.span) if party is not None else ""
            seen.placed = "" if staff[0] == unit else seen.evidence
            return
        here = self._contact(m, party, fn)
        if here and self._clerk_in_office(m, party, here, seen):
            return
        if here:
            seen.contact = seen.contact or here
            return  # named for communication: neither "oprávněn jednat" nor a unit's head is a statutory body
        seen.statutory_function = seen.statutory_function or (fn is not None and fn.kind == STATUTORY)
        if seen.role is None and (rep or fn):
            cue = (fn.cue if fn is not None else rep.group().strip() if rep else "").rstrip(" :")
            self._cued_role(m, party, fn, cue, seen)

    def _unit_below(self, span: Span) -> Function | None:
        """A :data:`STAFF` function when the name at ``span`` ends its line and the next line names
        a unit of an office ("Ing. X⏎oddělení regionálních dotací": the signatory works in it,
        whoever's unit it is; a mark of one or two characters that a stamp or OCR left before
        the unit is allowed), else None. Source: Act 128/2000 Sb., § 109 (the units of an office)."""
        end = self.text.find("\n", span.end)
        if end < 0 or self.text[span.end : end].strip(" ,"):
            return None
        line = self.text[end + 1 :].split("\n", 1)[0]
        line = re.sub(r"^\s*\S{1,2}\s+(?=\S{3})", "", line)
        if not UNIT_LINE.match(strip_diacritics(line)):
            return None
        return Function(STAFF, " ".join(line.split()), "below")

    def _is_principal(self, m: Finding, party: Party | None, represented: bool, fn: Function | None) -> bool:
        """Whether the full name ``m`` is a natural-person or sole-trader party itself: the first
        name of its block, with no representation or function next to it."""
        if party is None or not party.kind.is_private_person or represented or m.category != cat.FULL_NAME:
            return False
        first = min(
            (
                f.span.start
                for f in self.findings
                if f.category in (cat.FULL_NAME, cat.COMPANY_NAME)
                and party.contains(f.span)
                and any(b.contains(f.span) and b.contains(m.span) for b in party.blocks)
            ),
            default=None,
        )
        return first == m.span.start and fn is None

    def _clerk_in_office(self, m: Finding, party: Party | None, here: str, seen: _Seen) -> bool:
        """ "Vyřizuje: X" on a public body's own paper (below its letterhead, or after "Za úřad
        práce vyřizuje:", in no party's entry): the clerk handling it for the body, acting in
        office. Returns whether that settled the mention."""
        if seen.role is not None:
            return False
        head = self._party_before_cue(m.span)  # "Za objednatele vyřizuje:" names the party itself
        if head is None and (party is not None or not CLERK.match(here)):
            return False
        if head is not None:
            seen.role, seen.role_party, seen.cue = OFFICIAL, head, here
            seen.evidence = f"{here!r} next to {m.text!r} for {head.describe()}"
            return True
        head = self._letterhead_before(m.span)
        if head is not None:
            seen.role, seen.role_party, seen.cue = OFFICIAL, head, here
            seen.evidence = seen.placed = f"{here!r} next to {m.text!r} on the paper of {head.describe()}"
            return True
        body = self._public_named_above(m.span)
        if body is None:
            return False
        seen.role, seen.role_party, seen.cue = OFFICIAL, None, here
        seen.evidence = seen.placed = f"{here!r} next to {m.text!r} under {body!r}, a public body"
        return True

    #: How many lines above a clerk's cue the public body whose paper it is may be named.
    _HEAD_LINES = 8

    def _public_named_above(self, span: Span) -> str | None:
        """The public body named last before ``span`` when it stands within :attr:`_HEAD_LINES`
        lines above, on one line, with a unit of its office named after it and no person or other
        organisation named between (an office's letter head: "Městský úřad X, odbor dopravy, …⏎
        Vyřizuje: Y"), as written; else None."""
        named = (cat.COMPANY_NAME, *cat.NAME_CATEGORIES)
        last = max(
            (f for f in self.findings if f.category in named and f.span.end <= span.start),
            key=lambda f: f.span.end,
            default=None,
        )
        if last is None or last.category != cat.COMPANY_NAME:
            return None
        if last.attributes.get("kind") != PartyKind.PUBLIC_BODY.value:
            return None
        if "\n" in last.text or self.text.count("\n", last.span.end, span.start) > self._HEAD_LINES:
            return None
        if not _UNIT_WORD.search(strip_diacritics(self.text[last.span.end : span.start])):
            return None
        return " ".join(last.text.split())

    def _cued_role(self, m: Finding, party: Party | None, fn: Function | None, cue: str, seen: _Seen) -> None:
        """The role a function or representation ``cue`` next to ``m`` gives, by the party's kind:
        a public body's official, a legal person's statutory body, or the function's own kind
        (a staff function leaves the party as it was)."""
        role, role_party = None, seen.role_party
        if party is not None and party.kind == PartyKind.PUBLIC_BODY:
            role, role_party = OFFICIAL, party
        elif fn is not None and fn.kind == STAFF:
            # an accountant is the public body's official only on its side: the organisation named
            # last before is a public body, or the paper is a public body's (its letterhead above)
            public = party is None and (self._public_before(m.span) or self._letterhead_before(m.span) is not None)
            role = OFFICIAL if public else None
        elif party is not None and party.kind == PartyKind.LEGAL_PERSON:
            role, role_party = STATUTORY, party
        elif fn is not None:
            role = fn.kind if fn.kind != EITHER else self._either_kind(m.span)
            role_party = party if party is not None and not party.kind.is_private_person else None
        seen.role, seen.role_party, seen.cue = role, role_party, cue
        if role:
            seen.evidence = f"{cue!r} next to {m.text!r}" + (f" in {role_party.describe()}" if role_party else "")

    def _settle(self, mentions: list[Finding], seen: _Seen) -> None:
        """What the mentions together decide: a power of attorney instead of a statutory body,
        the party the person is, own personal data next to the name (a private person), or an
        official of the agency's profile."""
        own = self._own_data(mentions)
        if seen.role == STATUTORY and not seen.function:
            # "zastoupená: X" with no function beside any mention: X represents the company, but
            # whether as its statutory body or as an employee only the commercial register says
            seen.placed = REPRESENTED_ONLY
        attorney = self._attorney(mentions) if seen.role == STATUTORY and not seen.statutory_function else ""
        if attorney and (seen.role_party is None or seen.role_party.kind == PartyKind.LEGAL_PERSON):
            # "zastoupena: X" where X acts on a power of attorney: a company's employee or
            # attorney, not its statutory body (the methodology redacts them)
            seen.role, seen.role_party, seen.contact = None, None, seen.contact or attorney
        if seen.principal_of is not None:
            seen.role, seen.role_party = None, seen.principal_of
            seen.evidence = f"is {seen.principal_of.describe()}"
        elif own is not None:
            seen.role, seen.role_party = None, None
            seen.evidence = f"own personal data next to the name ({own})"
        elif seen.role is None and self.profile is not None and self._own_data(mentions, homes=True) is None:
            official = self._profile_official(mentions)
            if official is not None:
                seen.role, seen.cue = OFFICIAL, official.function or official.name
                seen.role_party = next((p for p in self.parties if p.kind == PartyKind.PUBLIC_BODY), None)
                seen.evidence = f"{official.name!r} ({official.function}) is an official of the agency (agency profile)"

    def _party_before_cue(self, span: Span) -> Party | None:
        """The public body named by "Za <its role or alias>" right before the contact cue that
        introduces the name at ``span`` ("Za úřad práce vyřizuje:⏎Martina X"), else None."""
        before = strip_diacritics(self.text[max(0, span.start - 80) : span.start]).lower()
        m = _FOR_PARTY.search(before)
        if m is None:
            return None
        words = m.group("who").split()
        for party in self.parties:
            if party.kind != PartyKind.PUBLIC_BODY:
                continue
            for role in party.roles:
                stems = [alias_stem(w) for w in role.split()]
                if len(stems) == len(words) and all(w.startswith(st) for w, st in zip(words, stems, strict=True)):
                    return party
        return None

    def _letterhead_before(self, span: Span) -> Party | None:
        """The party whose letterhead (:attr:`~redactor.model.Party.letterheads`) is the last one
        before ``span``, when it is a public body's; else None."""
        before = [
            (block.start, party) for party in self.parties for block in party.letterheads if block.end <= span.start
        ]
        if not before:
            return None
        _start, last = max(before, key=lambda b: b[0])
        return last if last.kind == PartyKind.PUBLIC_BODY else None

    def _attorney(self, mentions: list[Finding]) -> str:
        """The power-of-attorney words next to one of ``mentions`` in its sentence ("na základě plné
        moci", "dle plné moci", "zmocněnec"), as written, or "": the person represents a party as
        its attorney, not as its statutory body."""
        for m in mentions:
            before = self.text[max(0, m.span.start - 40) : m.span.start]
            after = self.text[m.span.end : m.span.end + 60]
            for window in (re.split(r"[.;]\s", before)[-1], re.split(r"[.;]\s", after)[0]):
                found = ATTORNEY.search(window)
                if found:
                    return " ".join(found.group().split())
        return ""

    def _contact(self, mention: Finding, party: Party | None, fn: Function | None) -> str:
        """The contact cue before ``mention`` when it names a party's contact person outside a
        public body's entry ("Kontaktní osoba: X", "ve věcech technických jedná X", "vyřizuje
        X"), unless a statutory function stands next to the name ("kontaktní osoba: X,
        jednatel"); else "". A public body's contact person keeps the representation rules."""
        if party is not None and party.kind == PartyKind.PUBLIC_BODY:
            return ""
        if fn is not None and fn.kind == STATUTORY:
            return ""
        return contact_cue(self.text, mention.span.start) or ""

    def _staff(self, mention: Finding, party: Party | None, fn: Function | None) -> tuple[str, str] | None:
        """``(cue, evidence)`` when ``mention`` names a public body's employee acting in the job
        in that body's own entry ``party``: named at a department in its address block ("Městský
        úřad X⏎Odbor finanční⏎Jana Y"), or after a contact cue ("Odpovědná osoba: X", "vyřizuje X");
        else None. Source: DOMAIN.md, what to keep (the ministry's methodology keeps a public body's
        staff acting in office)."""
        if party is None:
            return None
        unit = self._unit_in_letterhead(party, mention.span) if party.letterheads else ""
        if unit:
            return unit, f"{mention.text!r} under {unit!r} in the address of {party.describe()}"
        cue = self._staff_cue(mention, party, fn)
        if cue:
            return cue, f"{cue!r} next to {mention.text!r} in {party.describe()}"
        return None

    def _unit_in_letterhead(self, party: Party, span: Span) -> str:
        """The unit line ("Odbor finanční") above ``span`` in the public body ``party``'s letterhead
        block that holds it, as written, else ""."""
        if party.kind != PartyKind.PUBLIC_BODY:
            return ""
        for block in party.letterheads:
            if block.contains(span):
                for line in self.text[block.start : span.start].split("\n"):
                    if UNIT_LINE.match(strip_diacritics(line)):
                        return " ".join(line.split())
        return ""

    def _staff_cue(self, mention: Finding, party: Party | None, fn: Function | None) -> str:
        """The contact cue before ``mention`` ("Odpovědná osoba:", "Vyřizuje:", "Kontaktní
        osoba:") when it stands in a public body's own entry and no statutory function is next to
        the name: the body's employee named for the job; else ""."""
        if party is None or party.kind != PartyKind.PUBLIC_BODY:
            return ""
        if fn is not None and fn.kind == STATUTORY:
            return ""
        return (contact_cue(self.text, mention.span.start) or "").rstrip(" :")

    def _profile_official(self, mentions: list[Finding]) -> Official | None:
        """The agency profile's official named by ``mentions`` (a full name matches given name
        and surname; a cluster of surnames alone matches by surname), else None."""
        if self.profile is None:
            return None
        full = [m for m in mentions if m.category == cat.FULL_NAME]
        for m in full or mentions:
            official = self.profile.official(m.text.replace("\n", " ").split())
            if official is not None:
                return official
        return None

    def _public_before(self, span: Span) -> bool:
        """True when the organisation named last before ``span`` is a public body: a staff job
        ("účetní") in no party's entry is then that body's."""
        before = (f for f in self.findings if f.category == cat.COMPANY_NAME and f.span.end <= span.start)
        last = max(before, key=lambda f: f.span.end, default=None)
        return last is not None and last.attributes.get("kind") == PartyKind.PUBLIC_BODY.value

    def _either_kind(self, span: Span) -> str:
        """A "ředitel" or "předseda" with no party block around: a statutory representative when
        the nearest organisation named before (within 200 characters) is a company, otherwise a
        public official."""
        near = [
            f
            for f in self.findings
            if f.category == cat.COMPANY_NAME and f.span.end <= span.start and span.start - f.span.end <= 200
        ]
        if near and near[-1].attributes.get("kind", "legal_person") == "legal_person":
            return STATUTORY
        return OFFICIAL

    def _own_data(self, mentions: list[Finding], homes: bool = False) -> str | None:
        """A birth number, date of birth or ID number (with ``homes`` also an address after a
        residence cue: "bytem", "trvalý pobyt") that follows one of ``mentions`` in the same
        sentence with no other name between: the person's own data, so a private person whatever
        function words stand near the name elsewhere. A statutory representative's home address
        does not make the representative private (their name is in the commercial register, the
        address is redacted on its own); it does tell a private namesake from an official the
        agency profile lists (``homes=True``). The values of a signature certification clause do not
        count: the clause gives them for whoever signed, an official or a company's director too."""
        names = sorted(f.span.start for f in self.findings if f.category in cat.NAME_CATEGORIES)
        for f in self.findings:
            home = homes and f.category in cat.ADDRESS_CATEGORIES and f.attributes.get("context") == "residence"
            if f.category not in cat.OWN_DATA and not home:
                continue
            if f.attributes.get("clause") == "certification":
                continue  # a certified signature gives anyone's birth date: no sign of a private capacity
            sentence = self.sentences.find(f.span.start)
            for m in mentions:
                if not (m.span.end <= f.span.start <= m.span.end + 120):
                    continue
                if sentence is None or not sentence.contains(m.span):
                    continue
                if any(m.span.end <= start < f.span.start for start in names):
                    continue
                return f"{f.text!r}"
        return None

    def build_entities(self) -> None:
        for f in self.findings:
            if f.category in cat.NAME_CATEGORIES and f.holder in self.persons:
                self.entities.append((f.span.start, f.span.end, self.persons[f.holder]))
            elif f.category == cat.COMPANY_NAME:
                self.entities.append((f.span.start, f.span.end, f.attributes.get("kind", "legal_person")))
        for ref in self.references:
            self.entities.append((ref.span.start, ref.span.end, ref.party))
        self.entities.sort(key=lambda e: e[0])

    # -- holders --------------------------------------------------------------------------
    @staticmethod
    def _describe(entity: object, how: str | None = None) -> tuple[str, ReasonDict]:
        """``(holder kind, who)`` of an entity (a person, a party or an organisation's kind)."""
        if isinstance(entity, Person):
            return entity.holder_kind(), entity.who(how)
        if isinstance(entity, Party):
            return entity.kind.value, entity.who(how)
        params: Params = {"kind": {"term": str(entity)}}
        if how:
            params["how"] = {"term": how}
        return str(entity), {"code": "who_organisation_how" if how else "who_organisation", "params": params}

    def holder(self, f: Finding, scopes: tuple[str, ...]) -> Holder | None:
        """Who ``f`` belongs to: the first of :attr:`HOLDER_RULES` (from the most specific) whose
        scope the category's dependency allows (``scopes``) and that names a holder."""
        query = _HolderQuery(f, scopes, self.sentences.find(f.span.start), self)
        for scope, rule in self.HOLDER_RULES:
            if scope in scopes:
                found = rule(self, query)
                if found is not None:
                    return found
        return None

    def _service_cue(self, q: _HolderQuery) -> Holder | None:
        """A reception's, a switchboard's number ("ústředna", "podatelna"): an organisation's."""
        if not q.f.attributes.get("service"):
            return None
        who: ReasonDict = {"code": "who_service", "params": {"cue": q.f.attributes["service"]}}
        return Holder(PartyKind.LEGAL_PERSON.value, "holder", who)

    def _value_says(self, q: _HolderQuery) -> Holder | None:
        """The value names its holder itself: a recognizer read its kind ("IČO" is a legal
        person's) or the person it was found with."""
        f = q.f
        if f.holder in ("natural_person", "legal_person", "public_body"):
            return Holder(f.holder, "holder", {"code": "who_value", "params": {"kind": {"term": f.holder}}})
        if f.holder and f.holder in self.persons:
            kind, who = self._describe(self.persons[f.holder])
            return Holder(kind, "holder", who)
        return None

    def _possessive_before(self, q: _HolderQuery) -> Holder | None:
        """A party named right before the value, within 20 characters and the same entry
        ("účet prodávajícího: …")."""
        f = q.f
        for _start, end, entity in reversed(self.entities):
            if end <= f.span.start and f.span.start - end <= 20 and isinstance(entity, Party):
                between = self.text[end : f.span.start]
                if not re.search(r"[.;]|\n\S+:", between):
                    kind, who = self._describe(entity, "possessive")
                    return Holder(kind, "holder", who)
            if end <= f.span.start - 20:
                break
        return None

    def _owner_after(self, q: _HolderQuery) -> Holder | None:
        """The owner right after the value, on the same line and not a label opening the next
        entry ("na účet 7311541498/0300 vydlužitele Patrika Kubíčka", not "Pachtýř:")."""
        f = q.f
        for start, end, entity in self.entities:
            if start == f.span.end + 1 and isinstance(entity, Party) and self.text[f.span.end] == " ":
                if not self.text[end : end + 2].lstrip().startswith(":"):
                    kind, who = self._describe(entity, "possessive")
                    return Holder(kind, "holder", who)
        return None

    def _letterhead(self, q: _HolderQuery) -> Holder | None:
        """An organisation's letterhead: its seat, phones, fax, account and DIČ, unless a person
        is named on the value's line before it."""
        f, head = q.f, q.party
        if head is None or not any(b.contains(f.span) for b in head.letterheads):
            return None
        line_start = self.text.rfind("\n", 0, f.span.start) + 1
        if any(isinstance(e, Person) and line_start <= start < f.span.start for start, _end, e in self.entities):
            return None
        return Holder(head.kind.value, "party", head.who("block"), head)

    def _public_account(self, q: _HolderQuery) -> Holder | None:
        """An account the text calls a public body's ("na účet města"): the public body's."""
        f = q.f
        if f.category not in cat.ACCOUNT_CATEGORIES:
            return None
        if not PUBLIC_ACCOUNT.search(self.text[max(0, f.span.start - 40) : f.span.start]):
            return None
        kind, who = self._describe(PartyKind.PUBLIC_BODY.value, "possessive")
        return Holder(kind, "holder", who)

    def _account_possessive(self, q: _HolderQuery) -> Holder | None:
        """An account after a possessive in its sentence, even when the bank stands between ("na
        účet pronajímatele vedený u Komerční banky a.s., číslo účtu …")."""
        f, sentence = q.f, q.sentence
        if sentence is None or f.category not in cat.ACCOUNT_CATEGORIES:
            return None
        for start, _end, entity in reversed(self.entities):
            if not (sentence.start <= start < f.span.start) or not isinstance(entity, Party):
                continue
            if ACCOUNT_NOUN.search(self.text[max(sentence.start, start - 12) : start]):
                kind, who = self._describe(entity, "possessive")
                return Holder(kind, "holder", who)
        return None

    def _sentence_before(self, q: _HolderQuery) -> Holder | None:
        """The person or organisation named last before the value in its sentence (not a bank
        that keeps an account, :meth:`_bank_of_an_account`; in an organisation's entry, not a
        person: the representative or the contact person named in the entry does not hold the
        company's account)."""
        f, sentence = q.f, q.sentence
        if sentence is None:
            return None
        before = [
            e
            for e in self.entities
            if sentence.start <= e[0]
            and e[1] <= f.span.start
            and not (not isinstance(e[2], Party) and self._bank_of_an_account(e, f))
            and not (q.organisation and isinstance(e[2], Person))
        ]
        if not before:
            return None
        kind, who = self._describe(before[-1][2], "sentence")
        return Holder(kind, "sentence", who, before[-1][2])

    def _bank_of_an_account(self, entity: tuple[int, int, object], f: Finding) -> bool:
        """Whether ``entity`` is a bank named for an account: before the account ``f`` itself, or
        before an account that stands between it and ``f`` (a bank connection, then the holder's
        phone: "Fio banka, a.s., č. ú. …⏎mobil: …"). The bank keeps the account (Act 284/2009 Sb.
        on payments); it holds neither the account nor what follows it."""
        if not BANK.search(self.text[entity[0] : entity[1]]):
            return False
        if f.category in cat.ACCOUNT_CATEGORIES:
            return True
        return any(
            g.category in cat.ACCOUNT_CATEGORIES and entity[1] <= g.span.start and g.span.end <= f.span.start
            for g in self.findings
        )

    def _party_block(self, q: _HolderQuery) -> Holder | None:
        """The party whose block (entry) the value stands in."""
        party = q.party
        return Holder(party.kind.value, "party", party.who("block"), party) if party is not None else None

    def _sentence_after(self, q: _HolderQuery) -> Holder | None:
        """The person or organisation named first after the value in its sentence (in an
        organisation's entry, not a person)."""
        f, sentence = q.f, q.sentence
        if sentence is None:
            return None
        after = [
            e
            for e in self.entities
            if f.span.end <= e[0] and e[1] <= sentence.end and not (q.organisation and isinstance(e[2], Person))
        ]
        if not after:
            return None
        kind, who = self._describe(after[0][2], "sentence")
        return Holder(kind, "sentence", who, after[0][2])

    def _entry_above(self, q: _HolderQuery) -> Holder | None:
        """The person or organisation named last above the value in its entry (:meth:`_block_holder`)."""
        return self._block_holder(q.f)

    #: Who a value belongs to, tried in this order, each under the dependency scope that allows
    #: it: what the value itself says, then possessives and owners next to it, then its
    #: organisation's letterhead, then the accounts' own wording, then its sentence, its
    #: party's block, the rest of its sentence and its entry. The wordings are the registry's
    #: contracts' (the rules' docstrings quote them); the scopes are the category map's
    #: (Ondrášek, VŠE 2022: a secondary identifier is personal only with its holder).
    HOLDER_RULES: tuple[tuple[str, Callable[[Linker, _HolderQuery], Holder | None]], ...] = (
        ("holder", _service_cue),
        ("holder", _value_says),
        ("holder", _possessive_before),
        ("holder", _owner_after),
        ("party", _letterhead),
        ("holder", _public_account),
        ("holder", _account_possessive),
        ("sentence", _sentence_before),
        ("party", _party_block),
        ("sentence", _sentence_after),
        ("party", _entry_above),
    )

    #: How many lines above a value its owner's entry may start (an organisation's letterhead
    #: block: name, seat, representative, delivery address, phone, e-mail, account).
    _BLOCK_LINES = 12
    _BLOCK_END = re.compile(
        rf"^[ ]*(?:\d{{1,2}}(?:\.\d{{1,2}})*\.?\)?[ ]+[^\W\d_]|[IVX]+\.|{lexicon.alternatives('article_headings')}|§)"
    )

    def _block_holder(self, f: Finding) -> Holder | None:
        """The person or organisation named last above ``f`` in the same entry of the page (up
        to :attr:`_BLOCK_LINES` lines, not across a numbered clause): the owner of a value listed
        under a letterhead or an entry that no party label opens ("Všeobecná zdravotní pojišťovna
        … Doručovací adresa … tel.: …"). An unknown entity there gives None."""
        start = f.span.start
        lines = 0
        while start > 0 and lines < self._BLOCK_LINES:
            prev = self.text.rfind("\n", 0, start - 1)
            line = self.text[prev + 1 : start]
            if self._BLOCK_END.match(line) and lines:
                break
            start = prev + 1
            lines += 1
            if prev < 0:
                break
        before = [e for e in self.entities if start <= e[0] and e[1] <= f.span.start]
        if not before:
            return None
        kind, who = self._describe(before[-1][2], "entry")
        if kind == PartyKind.UNKNOWN.value:
            return None
        return Holder(kind, "party", who, before[-1][2])

    def names_private_persons(self) -> bool:
        """True when the document names a private person (a person without a role exception,
        or a natural-person or sole-trader party)."""
        return any(p.private for p in self.persons.values()) or any(p.kind.is_private_person for p in self.parties)

    def private_person_in(self, f: Finding, scope: str) -> ReasonDict | None:
        """A private person (mention, or natural-person party) linked to ``f`` within ``scope``
        (``party`` or ``sentence``) as a reason parameter, else None."""
        if scope == "sentence":
            region = self.sentences.find(f.span.start)
            regions = [region] if region else []
        else:
            party = self.party_at(f.span)
            regions = [b for b in party.blocks if b.contains(f.span)] if party else []
            if party is not None and party.kind.is_private_person:
                return party.who(scope)
        for region in regions:
            for start, end, entity in self.entities:
                if region.start <= start and end <= region.end:
                    if isinstance(entity, Person) and entity.private:
                        return entity.who(scope)
                    if isinstance(entity, Party) and entity.kind.is_private_person:
                        return entity.who(scope)
        return None
