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
from collections.abc import Callable

from redactor import categories as cat
from redactor.czech import strip_diacritics
from redactor.decide.category_map import CategoryMap
from redactor.decide.decision_rules import Assessment, Case, category_name, decide_finding
from redactor.decide.keep_check import ask_single_guesses
from redactor.detect.linking import Linker, Person
from redactor.detect.parties import PartyReference
from redactor.detect.profile import AgencyProfile, account_key, address_key, phone_key
from redactor.model import Action, Finding, Party, Span
from redactor.reasons import Params, Reason


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


def decide(
    text: str,
    sentences: list[Span],
    findings: list[Finding],
    parties: list[Party],
    references: list[PartyReference],
    cmap: CategoryMap,
    profile: AgencyProfile | None = None,
    below: Callable[[Span], str | None] | None = None,
) -> tuple[list[Assessment], dict[str, Person]]:
    """Decide every finding with ``cmap``; returns the decisions and the person clusters.

    ``profile`` (the publishing agency's own identity, :mod:`redactor.detect.profile`) keeps the
    agency's own addresses, accounts, phones, e-mails and officials before any other rule.
    ``below(span)`` gives the words printed under a name in its column, where the page geometry
    is known (:class:`~redactor.detect.linking.Linker`)."""
    linker = Linker(text, sentences, findings, parties, references, profile, below)
    linker.build_persons()
    linker.build_entities()
    _upgrade_personal_emails(findings, linker)
    decisions: dict[int, Assessment] = {}
    order = sorted(range(len(findings)), key=lambda i: 0 if findings[i].category in cat.NAME_CATEGORIES else 1)
    for _ in range(2):  # secondary findings may depend on other secondary findings
        for i in order:
            f = findings[i]
            d = _agency_own(f, profile, cmap) or decide_finding(Case(f, linker, cmap, decisions, findings))
            if d is not None:
                decisions[i] = d
    _seats_elsewhere(decisions, cmap)
    _one_value_one_action(decisions)
    ask_single_guesses(decisions, linker, cmap)
    return [decisions[i] for i in sorted(decisions)], linker.persons


def _agency_own(f: Finding, profile: AgencyProfile | None, cmap: CategoryMap) -> Assessment | None:
    """Keep a value that is the publishing agency's own (its address, account, phone, e-mail,
    IČO or data box as its profile lists them): the data of a public body are not personal data
    (ministry methodology: the seat, accounts and contacts of legal persons and public bodies are
    kept). None when there is no profile or the value is not the agency's."""
    if profile is None or f.category in cat.NAME_CATEGORIES:
        return None
    what = profile.own_value(f)
    if what is None:
        return None
    category = cat.ADDRESS_SEAT if f.category in cat.ADDRESS_CATEGORIES else f.category
    rule = cmap.rule(category)
    if rule is not None and not rule.enabled:
        return None
    params: Params = {"category": category_name(cmap, category), "agency": profile.display_name}
    return Assessment(f, category, Action.KEEP, Reason("agency_own", params), None)


def _seats_elsewhere(decisions: dict[int, Assessment], cmap: CategoryMap) -> None:
    """An address taken for a residence that equals (street and house number, after
    :func:`~redactor.detect.profile.address_key`) an address kept as an organisation's seat in the
    same contract is that organisation's: the seat written again in a block that names its
    representative or an employee, or in a signature block. Changes ``decisions`` in place."""
    seats: dict[tuple[str, str], Assessment] = {}
    for d in decisions.values():
        if d.finding.category in cat.ADDRESS_CATEGORIES and d.action == Action.KEEP and d.category == cat.ADDRESS_SEAT:
            key = address_key(d.finding.text)
            if key is not None:
                seats.setdefault(key, d)
    if not seats:
        return
    for i, d in decisions.items():
        if d.finding.category not in cat.ADDRESS_CATEGORIES or d.action == Action.KEEP:
            continue
        if d.category != cat.ADDRESS_RESIDENCE:
            continue  # a sole trader's place of business stays what its holder rule says
        if d.finding.attributes.get("context") == "residence":
            continue  # "bytem …": the text says it is someone's home
        key = address_key(d.finding.text)
        seat = seats.get(key) if key is not None else None
        if seat is None:
            continue
        params: Params = {
            "category": category_name(cmap, cat.ADDRESS_SEAT),
            "seat": " ".join(seat.finding.text.split()),
        }
        decisions[i] = Assessment(d.finding, cat.ADDRESS_SEAT, Action.KEEP, Reason("seat_elsewhere", params), d.cluster)


def _value_key(finding: Finding) -> tuple[int, object]:
    """``(family, value)`` of an identifier finding as compared across the document: an account
    and an IBAN as the account they hold, a phone as its national number (the agency profile's
    :func:`~redactor.detect.profile.account_key` and :func:`~redactor.detect.profile.phone_key`), an
    e-mail whatever its category, anything else without spaces and case."""
    category = finding.category
    if category in cat.ACCOUNT_CATEGORIES and account_key(finding.text) is not None:
        return cat.BANK_ACCOUNT, account_key(finding.text)
    if category == cat.PHONE and phone_key(finding.text) is not None:
        return category, phone_key(finding.text)
    if category == cat.EMAIL_GENERIC:
        category = cat.EMAIL_PERSONAL
    return category, re.sub(r"\s+", "", finding.text).lower()


def _one_value_one_action(decisions: dict[int, Assessment]) -> None:
    """A value redacted in one place is redacted wherever else it stands: an account number
    kept in a clause that assigns the rent to a bank ("na účet č. X, vedený u Banky a.s.") is the
    landlord's account redacted in his entry; a copy left readable publishes what the box hides
    (ministry methodology: personal data are made illegible in every occurrence). Changes
    ``decisions`` in place; the reason names the redacted occurrence's reason."""
    redacted: dict[tuple[int, object], Assessment] = {}
    for d in decisions.values():
        if d.action == Action.REDACT and d.finding.category in cat.SAME_EVERYWHERE:
            redacted.setdefault(_value_key(d.finding), d)
    if not redacted:
        return
    for i, d in decisions.items():
        if d.action == Action.REDACT or d.finding.category not in cat.SAME_EVERYWHERE:
            continue
        first = redacted.get(_value_key(d.finding))
        if first is None:
            continue
        reason = Reason("repeated_value", {"reason": first.reason.to_dict()})
        decisions[i] = Assessment(d.finding, first.category, Action.REDACT, reason, first.cluster or d.cluster)


def _upgrade_personal_emails(findings: list[Finding], linker: Linker) -> None:
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
