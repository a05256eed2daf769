"""Apply the category map to findings in context: who each finding belongs to, whether its
dependencies are linked, and the resulting action with a reason a reviewer can read.

Order of evaluation: overlapping findings are resolved first (higher score, then longer,
wins); persons are grouped and given their role (public official, statutory
representative, or private); names are decided; then every other finding, by its type in the
map: primary -> redact, not subject -> keep, secondary -> redact when one of its
dependencies is linked within the dependency's scopes (``holder``, ``party``, ``sentence``,
``coreference``), else the map's ``unlinked_secondary_action``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import categories as cat
from .category_map import CategoryMap
from .czech import strip_diacritics
from .model import Action, Finding, Party, PartyKind, Span
from .parties import PartyReference
from .reasons import Reason, localised, term
from .roles import EITHER, OFFICIAL, REPRESENTATION, STATUTORY, function_near
from .text import SpanIndex

#: "účet", "účtu", "účtem" right before a party's role noun: the account is that party's.
_ACCOUNT_NOUN = re.compile(r"\búč(?:et|tu|tem|ty|tech)[ \n]+$", re.I)
#: A bank's name: the bank an account is held at, never the account's owner.
_BANK = re.compile(r"bank|spořiteln|sporiteln|ČSOB|CSOB|Fio\b|Raiffeisen|UniCredit|Moneta|Equa|Creditas|Sberbank", re.I)
#: Categories that are a person's own data: next to a name they show a private capacity.
_OWN_DATA = frozenset({cat.BIRTH_NUMBER, cat.DATE_OF_BIRTH, cat.ID_CARD, cat.PASSPORT, cat.DRIVING_LICENCE})


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

    def who(self, how: str | None = None) -> dict:
        """The person as a reason parameter: their party when they are it, their role when they
        have one, else "person 'X'" (``how``: a term key saying how they were linked)."""
        if self.principal and self.party is not None:
            return self.party.who(how)
        code = "who_role" if self.role else "who_person"
        params: dict = {"name": self.name}
        if self.role:
            params["role"] = {"term": self.role}
        if how:
            params["how"] = {"term": how}
            code += "_how"
        return {"code": code, "params": params}


@dataclass
class Holder:
    """Who a finding belongs to (a party kind), how that was established (``scope``) and who it
    is as a reason parameter (``who``, see :mod:`redactor.core.reasons`)."""

    kind: str  # a PartyKind value
    scope: str  # holder | party | sentence
    who: dict


@dataclass
class Assessment:
    """The engine's assessment of one finding: its final category, action and reason. (A
    reviewer's *decision* on the resulting proposal is another thing, stored by the web app.)"""

    finding: Finding
    category: int
    action: Action
    reason: Reason
    cluster: str | None = None


def resolve_overlaps(findings: list[Finding]) -> list[Finding]:
    """Keep, of overlapping findings, the one with the higher score (then the longer span).

    Organisation names and addresses never suppress a finding inside them that another
    recognizer validated (a phone in a company name line stays a phone); the reverse holds too.
    """
    # addresses first among equals, so that a town inside one is never taken for an organisation
    ordered = sorted(
        findings,
        key=lambda f: (f.category not in cat.ADDRESS_CATEGORIES, -f.score, -(f.span.end - f.span.start), f.span.start),
    )
    kept: list[Finding] = []
    for f in ordered:
        if any(f.span.overlaps(k.span) and not _coexist(f, k) for k in kept):
            continue
        kept.append(f)
    return sorted(kept, key=lambda f: f.span.start)


def _coexist(a: Finding, b: Finding) -> bool:
    """An organisation name may overlap other findings (a phone on its line), except an address
    that contains it: "516 80 Český Brod" is a town in an address, not an organisation."""
    if {a.category, b.category} & cat.ADDRESS_CATEGORIES and cat.COMPANY_NAME in (a.category, b.category):
        org, address = (a, b) if a.category == cat.COMPANY_NAME else (b, a)
        return not address.span.contains(org.span)
    return (a.category == cat.COMPANY_NAME) != (b.category == cat.COMPANY_NAME)


class _Linker:
    """Resolves holders and scopes for one document."""

    def __init__(
        self,
        text: str,
        sentences: list[Span],
        findings: list[Finding],
        parties: list[Party],
        references: list[PartyReference],
    ):
        self.text = text
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
        clusters: dict[str, list[Finding]] = {}
        for f in self.findings:
            if f.category in cat.NAME_CATEGORIES and f.holder:
                clusters.setdefault(f.holder, []).append(f)
        for pid, mentions in clusters.items():
            full = [m for m in mentions if m.category == cat.FULL_NAME]
            name = (full or mentions)[0].text.replace("\n", " ")
            principal_of = None
            role, role_party, evidence, cue = None, None, "", ""
            for m in mentions:
                party = self.party_at(m.span)
                tail = strip_diacritics(m.attributes.get("before", ""))
                rep = REPRESENTATION.search(tail)
                fn = function_near(self.text, m.span.start, m.span.end)
                if party is not None and party.kind.is_private_person and not rep and m.category == cat.FULL_NAME:
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
                    if first == m.span.start and fn is None:
                        principal_of = party
                if role is None and (rep or fn):
                    cue = (fn.cue if fn is not None else rep.group().strip()).rstrip(" :")
                    if party is not None and party.kind == PartyKind.PUBLIC_BODY:
                        role, role_party = OFFICIAL, party
                    elif party is not None and party.kind == PartyKind.LEGAL_PERSON:
                        role, role_party = STATUTORY, party
                    elif fn is not None:
                        role = fn.kind if fn.kind != EITHER else self._either_kind(m.span)
                        role_party = party if party is not None and not party.kind.is_private_person else None
                    if role:
                        evidence = f"{cue!r} next to {m.text!r}" + (
                            f" in {role_party.describe()}" if role_party else ""
                        )
            own = self._own_data(mentions)
            if principal_of is not None:
                role, role_party = None, principal_of
                evidence = f"is {principal_of.describe()}"
            elif own is not None:
                role, role_party = None, None
                evidence = f"own personal data next to the name ({own})"
            self.persons[pid] = Person(
                pid, name, role, role_party, principal_of is not None, evidence, cue if role else ""
            )

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

    def _own_data(self, mentions: list[Finding]) -> str | None:
        """A birth number, date of birth or ID number that follows one of ``mentions`` in the
        same sentence with no other name between: the person's own data, so a private person
        whatever function words stand near the name elsewhere."""
        names = sorted(f.span.start for f in self.findings if f.category in cat.NAME_CATEGORIES)
        for f in self.findings:
            if f.category not in _OWN_DATA:
                continue
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
    def _describe(entity: object, how: str | None = None) -> tuple[str, dict]:
        """``(holder kind, who)`` of an entity (a person, a party or an organisation's kind)."""
        if isinstance(entity, Person):
            return entity.holder_kind(), entity.who(how)
        if isinstance(entity, Party):
            return entity.kind.value, entity.who(how)
        params: dict = {"kind": {"term": str(entity)}}
        if how:
            params["how"] = {"term": how}
        return str(entity), {"code": "who_organisation_how" if how else "who_organisation", "params": params}

    def holder(self, f: Finding, scopes: tuple[str, ...]) -> Holder | None:
        """Who ``f`` belongs to, trying the allowed scopes from the most specific."""
        if "holder" in scopes:
            if f.holder in ("natural_person", "legal_person", "public_body"):
                return Holder(f.holder, "holder", {"code": "who_value", "params": {"kind": {"term": f.holder}}})
            if f.holder and f.holder in self.persons:
                kind, who = self._describe(self.persons[f.holder])
                return Holder(kind, "holder", who)
            for _start, end, entity in reversed(self.entities):
                if end <= f.span.start and f.span.start - end <= 20 and isinstance(entity, Party):
                    between = self.text[end : f.span.start]
                    if not re.search(r"[.;]|\n\S+:", between):
                        kind, who = self._describe(entity, "possessive")
                        return Holder(kind, "holder", who)
                if end <= f.span.start - 20:
                    break
            for start, end, entity in self.entities:
                # "na účet 7311541498/0300 vydlužitele Patrika Kubíčka": the owner right after it,
                # on the same line and not a label opening the next entry ("Pachtýř:")
                if start == f.span.end + 1 and isinstance(entity, Party) and self.text[f.span.end] == " ":
                    if not self.text[end : end + 2].lstrip().startswith(":"):
                        kind, who = self._describe(entity, "possessive")
                        return Holder(kind, "holder", who)
        sentence = self.sentences.find(f.span.start)
        if "holder" in scopes and sentence is not None and f.category in cat.ACCOUNT_CATEGORIES:
            # "na účet pronajímatele vedený u Komerční banky a.s., číslo účtu …": the possessive
            # names the owner even when the bank stands between
            for start, _end, entity in reversed(self.entities):
                if not (sentence.start <= start < f.span.start) or not isinstance(entity, Party):
                    continue
                if _ACCOUNT_NOUN.search(self.text[max(sentence.start, start - 12) : start]):
                    kind, who = self._describe(entity, "possessive")
                    return Holder(kind, "holder", who)
        if "sentence" in scopes and sentence is not None:
            before = [
                e
                for e in self.entities
                if sentence.start <= e[0]
                and e[1] <= f.span.start
                and not (f.category in cat.ACCOUNT_CATEGORIES and _BANK.search(self.text[e[0] : e[1]]))
            ]
            if before:
                kind, who = self._describe(before[-1][2], "sentence")
                return Holder(kind, "sentence", who)
        if "party" in scopes:
            party = self.party_at(f.span)
            if party is not None:
                return Holder(party.kind.value, "party", party.who("block"))
        if "sentence" in scopes and sentence is not None:
            after = [e for e in self.entities if f.span.end <= e[0] and e[1] <= sentence.end]
            if after:
                kind, who = self._describe(after[0][2], "sentence")
                return Holder(kind, "sentence", who)
        if "party" in scopes:
            return self._block_holder(f)
        return None

    #: How many lines above a value its owner's entry may start (an organisation's letterhead
    #: block: name, seat, representative, delivery address, phone, e-mail, account).
    _BLOCK_LINES = 12
    _BLOCK_END = re.compile(r"^[ ]*(?:\d{1,2}(?:\.\d{1,2})*\.?\)?[ ]+[^\W\d_]|[IVX]+\.|Článek|Čl\.|§)")

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
        return Holder(kind, "party", who)

    def names_private_persons(self) -> bool:
        """True when the document names a private person (a person without a role exception,
        or a natural-person or sole-trader party)."""
        return any(p.private for p in self.persons.values()) or any(p.kind.is_private_person for p in self.parties)

    def private_person_in(self, f: Finding, scope: str) -> dict | None:
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


def decide(
    text: str,
    sentences: list[Span],
    findings: list[Finding],
    parties: list[Party],
    references: list[PartyReference],
    cmap: CategoryMap,
) -> tuple[list[Assessment], dict[str, Person]]:
    """Decide every finding with ``cmap``; returns the decisions and the person clusters."""
    linker = _Linker(text, sentences, findings, parties, references)
    linker.build_persons()
    linker.build_entities()
    _upgrade_personal_emails(findings, linker)
    decisions: dict[int, Assessment] = {}
    order = sorted(range(len(findings)), key=lambda i: 0 if findings[i].category in cat.NAME_CATEGORIES else 1)
    for _ in range(2):  # secondary findings may depend on other secondary findings
        for i in order:
            d = _decide_one(findings[i], linker, cmap, decisions, findings)
            if d is not None:
                decisions[i] = d
    return [decisions[i] for i in sorted(decisions)], linker.persons


def _upgrade_personal_emails(findings: list[Finding], linker: _Linker) -> None:
    """A generic-looking e-mail whose local part spells a name found in the document is
    an e-mail with a personal name (category 6)."""
    names = {}
    for f in findings:
        if f.category in cat.NAME_CATEGORIES and f.holder in linker.persons:
            for part in f.attributes.get("folded", []):
                names[part] = linker.persons[f.holder]
    for f in findings:
        if f.category == cat.EMAIL_GENERIC:
            for part in f.attributes.get("local_parts", []):
                person = names.get(strip_diacritics(part).lower())
                if person is not None and len(part) >= 3:
                    f.category = cat.EMAIL_PERSONAL
                    f.evidence = f"e-mail whose local part spells {person.name!r}, named in the document"
                    f.holder = person.id
                    break


def _category_name(cmap: CategoryMap, category: int, *, inside: bool = False) -> dict:
    """The category's name as a reason parameter, in both languages of the map (``inside`` a
    sentence: first letter lowered)."""
    rule = cmap.rule(category)
    if rule is None:
        return localised(str(category), str(category))
    return localised(rule.name_cs, rule.name_en, inside=inside)


def _decide_one(
    f: Finding, linker: _Linker, cmap: CategoryMap, decided: dict[int, Assessment], findings: list[Finding]
) -> Assessment | None:
    category = f.category
    cluster = f.holder if f.holder and f.holder.startswith("person:") else None
    # Addresses: the cue or the holder tells a residence from a seat.
    holder_for_address = None
    if category in cat.ADDRESS_CATEGORIES:
        context = f.attributes.get("context")
        holder_for_address = linker.holder(f, ("holder", "sentence", "party"))
        if context is None:
            kind = holder_for_address.kind if holder_for_address is not None else PartyKind.UNKNOWN.value
            if kind != PartyKind.UNKNOWN.value and not PartyKind(kind).is_private_person:
                category = cat.ADDRESS_SEAT
            else:
                category = cat.ADDRESS_RESIDENCE
                if kind == PartyKind.UNKNOWN.value and linker.private_person_in(f, "sentence") is None:
                    # nobody is linked to it: the address of a building, a plot or a place
                    # (a leased property, a list of connected houses), or of somebody unnamed
                    if linker.names_private_persons():
                        return Assessment(f, category, Action.REVIEW, Reason("address_unlinked"), cluster)
                    return Assessment(f, category, Action.KEEP, Reason("address_place"), cluster)
    rule = cmap.rule(category)
    if rule is None or not rule.enabled:
        return None
    label = _category_name(cmap, category)

    # Role exceptions for names of people acting in a public role.
    person = linker.persons.get(cluster) if cluster else None
    if person is not None and person.role:
        exception = cmap.role_exception(person.role, category)
        if exception is not None:
            party = {"code": "of_party", "params": {"party": person.party.who()}} if person.party else ""
            params = {
                "action": term(exception.action.value),
                "name": person.name,
                "role": term(person.role),
                "party": party,
                "cue": person.cue,
                "source": exception.source,
            }
            return Assessment(f, category, exception.action, Reason("role_exception", params), cluster)

    # Holder overrides (ministry methodology for a sole trader's place of business).
    if cmap.holder_overrides and any(o.category == category for o in cmap.holder_overrides):
        holder = holder_for_address or linker.holder(f, ("holder", "sentence", "party"))
        kind = holder.kind if holder else PartyKind.UNKNOWN.value
        override = cmap.holder_override(category, kind)
        if override is not None:
            who = holder.who if holder else {"code": "who_organisation", "params": {"kind": term("unknown")}}
            params = {"action": term(override.action.value), "category": label, "who": who, "source": override.source}
            return Assessment(f, category, override.action, Reason("holder_rule", params), cluster)

    if rule.type == "primary":
        if category == cat.ADDRESS_RESIDENCE and f.attributes.get("context") is None:
            who = holder_for_address.who if holder_for_address else linker.private_person_in(f, "sentence")
            if who is not None:
                return Assessment(
                    f, category, Action.REDACT, Reason("primary_residence", {"category": label, "who": who}), cluster
                )
        return Assessment(f, category, Action.REDACT, Reason("primary", {"category": label}), cluster)
    if rule.type == "not_subject":
        if holder_for_address is not None:
            reason = Reason("not_subject_of", {"category": label, "who": holder_for_address.who})
        else:
            reason = Reason("not_subject", {"category": label})
        return Assessment(f, category, Action.KEEP, reason, cluster)

    # Secondary: look for a linked dependency.
    unknown_holder = False
    kept_because = None
    for dep in rule.depends_on:
        if dep.category == cat.LEGAL_ENTITY:
            holder = linker.holder(f, dep.scopes)
            if holder is None or holder.kind == PartyKind.UNKNOWN.value:
                unknown_holder = True
                continue
            if holder.kind in cmap.personal_holders:
                return Assessment(
                    f, category, Action.REDACT, Reason("linked_holder", {"category": label, "who": holder.who}), cluster
                )
            kept_because = holder.who
            continue
        if dep.category in cat.NAME_CATEGORIES:
            link = _name_dependency(f, dep.scopes, linker)
        else:
            link = _finding_dependency(f, dep.category, dep.scopes, linker, decided, findings)
        if link:
            params = {"category": label, "dependency": _category_name(cmap, dep.category, inside=True), "who": link}
            return Assessment(f, category, Action.REDACT, Reason("linked_dependency", params), cluster)
    if kept_because:
        return Assessment(
            f, category, Action.KEEP, Reason("not_personal_holder", {"category": label, "who": kept_because}), cluster
        )
    if unknown_holder:
        action = cmap.unknown_holder_action
        return Assessment(
            f, category, action, Reason("unknown_holder", {"action": term(action.value), "category": label}), cluster
        )
    action = cmap.unlinked_secondary_action
    return Assessment(
        f, category, action, Reason("unlinked", {"action": term(action.value), "category": label}), cluster
    )


def _name_dependency(f: Finding, scopes: tuple[str, ...], linker: _Linker) -> dict | None:
    """A private person's name linked to ``f`` in ``scopes`` (as a reason parameter), else None."""
    for scope in scopes:
        if scope in ("coreference", "holder") and f.holder in linker.persons:
            person = linker.persons[f.holder]
            if person.private:
                return person.who("coreference" if scope == "coreference" else None)
        elif scope == "holder":
            holder = linker.holder(f, ("holder",))
            if holder and holder.kind in ("natural_person", "sole_trader"):
                return holder.who
        elif scope in ("party", "sentence"):
            found = linker.private_person_in(f, scope)
            if found:
                return found
    return None


def _finding_dependency(
    f: Finding,
    category: int,
    scopes: tuple[str, ...],
    linker: _Linker,
    decided: dict[int, Assessment],
    findings: list[Finding],
) -> dict | None:
    """A redacted finding of ``category`` within ``scopes`` of ``f`` (the person it was
    redacted for, as a reason parameter), else None."""
    for scope in scopes:
        if scope == "sentence":
            region = linker.sentences.find(f.span.start)
        elif scope == "party":
            party = linker.party_at(f.span)
            region = next((b for b in party.blocks if b.contains(f.span)), None) if party else None
        else:
            continue
        if region is None:
            continue
        for i, d in decided.items():
            other = findings[i]
            if other is not f and d.category == category and d.action == Action.REDACT and region.contains(other.span):
                return {"code": "who_person_how", "params": {"name": other.text, "how": term(scope)}}
    return None
