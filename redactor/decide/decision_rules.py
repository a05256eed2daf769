"""The policy's rules for one finding in context, tried in order; the first that answers decides
(:func:`decide_finding`). Each rule is a function of a :class:`Case` that returns an
:class:`Assessment` or None (it does not apply), with the legal or methodological source of the
rule in its docstring. :mod:`redactor.decide.decisions` runs them over a document's findings.

The order (:data:`RULES`): an address is first told a residence or a seat
(:func:`address_kind`, which may settle an address nobody is linked to); then a signature
certification clause's date of birth and address, a person's form fields, a public role's exception, the map's holder
overrides, a party's contact person, and the category's type in the map: primary, not subject,
an organisation's generic mailbox, secondary (linked dependency, holder, or the map's fallbacks).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from difflib import SequenceMatcher

from redactor import categories as cat
from redactor import lexicon
from redactor.czech import strip_diacritics
from redactor.decide.category_map import CategoryMap, CategoryRule
from redactor.detect.linking import ATTORNEY, Holder, Linker, Person
from redactor.detect.parties import fold_name
from redactor.model import Action, Finding, PartyKind
from redactor.reasons import LocalisedName, Param, Params, Reason, ReasonDict, localised, term


@dataclass
class Assessment:
    """The engine's assessment of one finding: its final category, action and reason. (A
    reviewer's *decision* on the resulting proposal is another thing, stored by the web app.)"""

    finding: Finding
    category: int
    action: Action
    reason: Reason
    cluster: str | None = None


@dataclass
class Case:
    """One finding as the rules see it: the finding, the document's :class:`Linker` (persons,
    parties, sentences), the category map, the assessments made so far (index in ``findings`` →
    assessment) and the document's findings. ``category`` starts as the finding's and
    :func:`address_kind` may change it (residence or seat); ``cluster`` is the person the finding
    belongs to (``person:…``) or None; ``address_holder`` the holder :func:`address_kind` found
    for an address. :func:`decide_finding` fills ``rule`` (the category's line of the map) and
    ``label`` (its name as a reason parameter) before the rules of :data:`RULES` run."""

    finding: Finding
    linker: Linker
    cmap: CategoryMap
    decided: dict[int, Assessment]
    findings: list[Finding]
    category: int = 0
    cluster: str | None = None
    address_holder: Holder | None = None
    rule: CategoryRule | None = None
    label: LocalisedName = field(default_factory=lambda: localised("", ""))

    def __post_init__(self) -> None:
        self.category = self.category or self.finding.category
        holder = self.finding.holder
        self.cluster = holder if holder and holder.startswith("person:") else None

    @property
    def person(self) -> Person | None:
        """The person the finding belongs to (its cluster), if the linker knows one."""
        return self.linker.persons.get(self.cluster) if self.cluster else None

    def assess(self, action: Action, reason: Reason) -> Assessment:
        """The assessment of this case with ``action`` and ``reason``."""
        return Assessment(self.finding, self.category, action, reason, self.cluster)


def category_name(cmap: CategoryMap, category: int, *, inside: bool = False) -> LocalisedName:
    """The category's name as a reason parameter, in both languages of the map (``inside`` a
    sentence: first letter lowered)."""
    rule = cmap.rule(category)
    if rule is None:
        return localised(str(category), str(category))
    return localised(rule.name_cs, rule.name_en, inside=inside)


def address_kind(case: Case) -> Assessment | None:
    """An address is a residence or a seat by its cue (``context``) or, without one, by its
    holder: a legal entity's or a public body's address is a seat, anybody else's a residence.
    An address nobody is linked to (a leased building, a plot, a list of connected houses) is
    kept, or sent to review when the document names private persons (it may be one of theirs).

    Source: DOMAIN.md, "what to redact and keep" (a natural person's residence is personal
    data; a legal entity's registered seat is public, Act 304/2013 § 25); the review of an
    unlinked address is this product's caution."""
    f, linker = case.finding, case.linker
    if case.category not in cat.ADDRESS_CATEGORIES:
        return None
    case.address_holder = linker.holder(f, ("holder", "sentence", "party"))
    if f.attributes.get("context") is not None:
        return None
    kind = case.address_holder.kind if case.address_holder is not None else PartyKind.UNKNOWN.value
    if kind != PartyKind.UNKNOWN.value and not PartyKind(kind).is_private_person:
        case.category = cat.ADDRESS_SEAT
        return None
    case.category = cat.ADDRESS_RESIDENCE
    if kind == PartyKind.UNKNOWN.value and linker.private_person_in(f, "sentence") is None:
        if linker.names_private_persons():
            return case.assess(Action.REVIEW, Reason("address_unlinked"))
        return case.assess(Action.KEEP, Reason("address_place"))
    return None


def certification_clause(case: Case) -> Assessment | None:
    """A date of birth or a home address in a signature certification clause is redacted,
    whoever signed: an official's or a statutory representative's too.

    Source: DOMAIN.md, "Where scans hide personal data" (the clause carries the signer's date of
    birth and home address, which are redacted for anyone, whatever the person's role); the
    ministry's methodology lists both among the data to make illegible; a signer's role makes
    their name public, not their birth date or home."""
    if case.finding.attributes.get("clause") != "certification":
        return None
    if case.category not in (cat.DATE_OF_BIRTH, cat.ADDRESS_RESIDENCE):
        return None
    return case.assess(Action.REDACT, Reason("certification_clause", {"category": case.label}))


def personal_block(case: Case) -> Assessment | None:
    """A value of a natural person's form (labelled fields on consecutive lines, one of them a
    name, a date of birth, a birth number or a permanent residence) is that person's: redacted,
    whatever other holder the sentence around names (the public body the form is addressed to).

    Source: DOMAIN.md, "Where scans hide personal data" (an information request bundled with a
    contract carries the requester's name, address, phone and e-mail); the ministry's methodology
    (a private person's phone, e-mail, address, date of birth are made illegible)."""
    if case.finding.attributes.get("clause") != "form" or case.category in cat.NAME_CATEGORIES:
        return None
    return case.assess(Action.REDACT, Reason("form_block", {"category": case.label}))


def role_exception(case: Case) -> Assessment | None:
    """The name (or another identifier) of a person acting in a public role – an official
    signing for a public body, a statutory representative – gets the map's role exception
    (usually keep).

    Source: the map's ``role_exceptions``; Act 340/2015 § 5(6) and the Ministry of the
    Interior's methodology on the registry of contracts (names of public officials and of
    statutory bodies acting for a legal entity are not redacted)."""
    person = case.person
    if person is None or not person.role:
        return None
    exception = case.cmap.role_exception(person.role, case.category)
    if exception is None:
        return None
    party: Param = {"code": "of_party", "params": {"party": person.party.who()}} if person.party else ""
    params: Params = {
        "action": term(exception.action.value),
        "name": person.name,
        "role": term(person.role),
        "party": party,
        "cue": person.cue,
        "source": exception.source,
    }
    return case.assess(exception.action, Reason("role_exception", params))


def holder_override(case: Case) -> Assessment | None:
    """The map's action for this category when its holder is of a given kind (a sole trader's
    place of business, say).

    Source: the map's ``holder_overrides``, each citing its own source (the ministry's
    methodology for a sole trader's place of business)."""
    cmap = case.cmap
    if not cmap.holder_overrides or not any(o.category == case.category for o in cmap.holder_overrides):
        return None
    holder = case.address_holder or case.linker.holder(case.finding, ("holder", "sentence", "party"))
    kind = holder.kind if holder else PartyKind.UNKNOWN.value
    override = cmap.holder_override(case.category, kind)
    if override is None:
        return None
    who: ReasonDict = holder.who if holder else {"code": "who_organisation", "params": {"kind": term("unknown")}}
    params: Params = {
        "action": term(override.action.value),
        "category": case.label,
        "who": who,
        "source": override.source,
    }
    return case.assess(override.action, Reason("holder_rule", params))


def contact_person(case: Case) -> Assessment | None:
    """A party's contact person ("kontaktní osoba", "vyřizuje") is an employee, not a statutory
    body, and so is a company's attorney ("zastoupena: X" where X acts "na základě plné moci"):
    their name is redacted unless the map says names are not subject to redaction.

    Source: the Ministry of the Interior's methodology on the registry of contracts (employees
    of a supplier who are not its statutory representatives)."""
    person = case.person
    if person is None or not person.private or not person.contact:
        return None
    if case.category not in cat.NAME_CATEGORIES or case.rule is None or case.rule.type == "not_subject":
        return None
    params: Params = {"category": case.label, "name": person.name, "cue": person.contact}
    code = "attorney_person" if ATTORNEY.fullmatch(person.contact) else "contact_person"
    return case.assess(Action.REDACT, Reason(code, params))


def primary(case: Case) -> Assessment | None:
    """A primary identifier (a birth number, a private person's name) is redacted wherever it
    stands; a residence names whose it is when the holder is known.

    Source: the map's ``primary`` type; DOMAIN.md, "the map" (primary identifiers identify a
    person on their own, GDPR Art. 4(1))."""
    if case.rule is None or case.rule.type != "primary":
        return None
    if case.category == cat.ADDRESS_RESIDENCE and case.finding.attributes.get("context") is None:
        holder = case.address_holder
        who = holder.who if holder else case.linker.private_person_in(case.finding, "sentence")
        if who is not None:
            return case.assess(Action.REDACT, Reason("primary_residence", {"category": case.label, "who": who}))
    return case.assess(Action.REDACT, Reason("primary", {"category": case.label}))


def not_subject(case: Case) -> Assessment | None:
    """A category the map says is not personal data (a company's name, an IČO) is kept.

    Source: the map's ``not_subject`` type; DOMAIN.md, "what to keep" (Act 340/2015 § 5(1):
    everything that is not personal data stays readable)."""
    if case.rule is None or case.rule.type != "not_subject":
        return None
    if case.address_holder is not None:
        reason = Reason("not_subject_of", {"category": case.label, "who": case.address_holder.who})
    else:
        reason = Reason("not_subject", {"category": case.label})
    return case.assess(Action.KEEP, reason)


def secondary(case: Case) -> Assessment | None:
    """A secondary identifier (an account, a phone, an e-mail, a residence) is personal data
    when one of its dependencies in the map is linked within the dependency's scopes: a private
    holder (→ redact; a legal entity's → keep), a private person's name, or a redacted finding
    of the dependency's category. Nothing linked: the map's ``unknown_holder_action`` when a
    holder was looked for but not known, else its ``unlinked_secondary_action``.

    Source: the map's ``depends_on`` (DOMAIN.md, "the map": a secondary identifier identifies a
    person only together with a primary one, GDPR recital 26)."""
    rule, label = case.rule, case.label
    if rule is None:
        return None
    unknown_holder = False
    kept_because: ReasonDict | None = None
    for dep in rule.depends_on:
        if dep.category == cat.LEGAL_ENTITY:
            holder = case.linker.holder(case.finding, dep.scopes)
            if holder is None or holder.kind == PartyKind.UNKNOWN.value:
                unknown_holder = True
                continue
            if holder.kind in case.cmap.personal_holders:
                return case.assess(Action.REDACT, Reason("linked_holder", {"category": label, "who": holder.who}))
            kept_because = holder.who
            continue
        if dep.category in cat.NAME_CATEGORIES:
            link = _name_dependency(case.finding, dep.scopes, case.linker)
        else:
            link = _finding_dependency(case, dep.category, dep.scopes)
        if link:
            dependency = category_name(case.cmap, dep.category, inside=True)
            params: Params = {"category": label, "dependency": dependency, "who": link}
            return case.assess(Action.REDACT, Reason("linked_dependency", params))
    if kept_because:
        return case.assess(Action.KEEP, Reason("not_personal_holder", {"category": label, "who": kept_because}))
    if unknown_holder:
        action = case.cmap.unknown_holder_action
        return case.assess(action, Reason("unknown_holder", {"action": term(action.value), "category": label}))
    action = case.cmap.unlinked_secondary_action
    return case.assess(action, Reason("unlinked", {"action": term(action.value), "category": label}))


#: Legal forms at the end of a company's name, folded to letters ("s.r.o." -> "sro").
_LEGAL_FORM_TAIL = re.compile(f"{lexicon.alternatives('legal_form_tails')}$")


def organisation_mailbox(case: Case) -> Assessment | None:
    """A generic mailbox ("objednavky@…", "info@…") on a domain that spells a company's or a public
    body's name among the parties is that organisation's, whoever the sentence around it names (its
    sales agent: "objednávky lze zasílat též na objednavky@…"). One letter may differ (OCR).

    Source: DOMAIN.md, "what to keep" (a legal person's own contacts, everything in its letterhead)
    and the ministry's methodology (data of a legal person are not personal data)."""
    if case.category != cat.EMAIL_GENERIC:
        return None
    domain = case.finding.text.rpartition("@")[2].lower().split(".")
    if len(domain) < 2:
        return None
    spelt = "".join(c for c in strip_diacritics(domain[-2]) if c.isalnum())
    if len(spelt) < 5:
        return None
    for party in case.linker.parties:
        if party.kind not in (PartyKind.LEGAL_PERSON, PartyKind.PUBLIC_BODY) or not party.name:
            continue
        name = _LEGAL_FORM_TAIL.sub("", fold_name(party.name))
        if _spells(spelt, name):
            params: Params = {"category": case.label, "who": party.who()}
            return case.assess(Action.KEEP, Reason("not_personal_holder", params))
    return None


def _spells(spelt: str, name: str) -> bool:
    """True when ``spelt`` (a domain's letters) is a run of ``name``'s letters, one letter in ten
    misread allowed."""
    width = len(spelt)
    if width > len(name) + 1:
        return False
    return any(
        SequenceMatcher(None, spelt, name[i : i + size]).ratio() >= 0.9
        for size in (width - 1, width, width + 1)
        for i in range(max(1, len(name) - size + 1))
    )


#: The rules after :func:`address_kind`, in the order they are tried.
RULES: tuple[Callable[[Case], Assessment | None], ...] = (
    certification_clause,
    personal_block,
    role_exception,
    holder_override,
    contact_person,
    primary,
    not_subject,
    organisation_mailbox,
    secondary,
)


def decide_finding(case: Case) -> Assessment | None:
    """The assessment of ``case``: :func:`address_kind`, then the category's line of the map
    (none, or switched off: None, the finding is not proposed), then the first of :data:`RULES`
    that answers."""
    settled = address_kind(case)
    if settled is not None:
        return settled
    case.rule = case.cmap.rule(case.category)
    if case.rule is None or not case.rule.enabled:
        return None
    case.label = category_name(case.cmap, case.category)
    for rule in RULES:
        assessment = rule(case)
        if assessment is not None:
            return assessment
    return None


def _name_dependency(f: Finding, scopes: tuple[str, ...], linker: Linker) -> ReasonDict | None:
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


def _finding_dependency(case: Case, category: int, scopes: tuple[str, ...]) -> ReasonDict | None:
    """A redacted finding of ``category`` within ``scopes`` of the case's finding (the person it
    was redacted for, as a reason parameter), else None."""
    f, linker = case.finding, case.linker
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
        for i, d in case.decided.items():
            other = case.findings[i]
            if other is not f and d.category == category and d.action == Action.REDACT and region.contains(other.span):
                return {"code": "who_person_how", "params": {"name": other.text, "how": term(scope)}}
    return None
