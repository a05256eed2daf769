"""The keep check: a personal value kept on one guess of the page's layout is asked, never kept
silently.

A value of a personal category (a name, a phone, an e-mail, an account, an address, a data box)
is kept when it is not a private person's: an official's name, an organisation's line. Whose it
is comes from words next to it (a function or rank beside the name, "účet města", "Za objednatele
vyřizuje", the value itself) or from where it stands (under a letterhead, in a party's block, in
a sentence that names an organisation, a contact cue below a public body's name). Where only the
layout said so, the keep needs a second signal (:func:`second_signal`):

- the holder is identified by its IČO (Act 111/2009 Sb. on basic registers: the IČO identifies a
  legal person or a public body);
- an e-mail's domain spells the holder's name (an organisation's own domain);
- the same value stands in a letterhead of the document (an organisation prints its own lines
  there);
- a function or a rank beside the person (Act 128/2000 Sb., Act 234/2014 Sb., Act 361/2003 Sb.).

Without one, the keep becomes a review item in the reviewer's words ("Ponecháno jako kontakt …
— potvrďte"): the reviewer confirms or redacts it; nothing is published that rests on a single
guess and names no review item. Source: DOMAIN.md, "how redaction fails" (a public body's
contacts kept, a private person's kept on a wrong guess of whose they are).
"""

from __future__ import annotations

import re
from functools import cache

from redactor import categories as cat
from redactor import lexicon
from redactor.czech import strip_diacritics
from redactor.decide.category_map import CategoryMap
from redactor.decide.decision_rules import Assessment, category_name
from redactor.detect.linking import BANK, REPRESENTED_ONLY, Holder, Linker, Person
from redactor.detect.parties import fold_name
from redactor.model import Action, Finding, Party, PartyKind
from redactor.reasons import Params, Reason, ReasonDict

#: The categories whose keep rests on its holder: names (an official's, a statutory body's) and
#: contact values (:data:`redactor.categories.LAYOUT_CHECKED`: phone, e-mail, account, data box).
#: An address is kept as an organisation's seat, which the map does not count as personal data;
#: a home is found by its cue ("bytem"), whoever's block it stands in.
CHECKED = cat.NAME_CATEGORIES | cat.LAYOUT_CHECKED
_FREE_MAIL = lexicon.words("free_mail_domains")
_REGISTER = re.compile(lexicon.alternatives("register_entries", folded=True), re.I)
#: Keeps the check never asks: the agency's own values (its profile says so) and a value the map
#: does not consider personal.
_SETTLED = frozenset({"agency_own", "not_subject"})


def ask_single_guesses(decisions: dict[int, Assessment], linker: Linker, cmap: CategoryMap) -> int:
    """Turn into a review item each keep of :data:`CHECKED` that rests on one guess: an e-mail on
    a free-mail service that names no organisation (reason ``free_mail_kept``); a company's
    representative whom only a representation cue names (``represented_only``); any other whose
    holder only the page's layout gave, with no :func:`second_signal` (``kept_on_one_guess``).
    Changes ``decisions`` in place; returns how many it asked."""
    asked = 0
    for i, d in decisions.items():
        if d.action != Action.KEEP or d.category not in CHECKED or d.reason.code in _SETTLED:
            continue
        if _free_mail_of_nobody(d.finding, linker):
            params: Params = {"category": category_name(cmap, d.category)}
            decisions[i] = Assessment(d.finding, d.category, Action.REVIEW, Reason("free_mail_kept", params), d.cluster)
            asked += 1
            continue
        guess = _layout_guess(d, linker)
        if guess is None or second_signal(d.finding, guess, linker):
            continue
        who, holder = guess
        params = {"category": category_name(cmap, d.category), "who": who}
        code = "kept_on_one_guess"
        if isinstance(holder, Person) and holder.placed == REPRESENTED_ONLY:
            code, params["name"] = "represented_only", holder.name
        decisions[i] = Assessment(d.finding, d.category, Action.REVIEW, Reason(code, params), d.cluster)
        asked += 1
    return asked


def _free_mail_of_nobody(f: Finding, linker: Linker) -> bool:
    """An e-mail on a free-mail domain (the lexicon's ``free_mail_domains``) whose local part names
    no organisation of the document (:func:`domain_names` read on the local part): a person's
    address, whoever's block it stands in ("obec.lhota@seznam.cz" names the village)."""
    if f.category not in (cat.EMAIL_PERSONAL, cat.EMAIL_GENERIC):
        return False
    local, _at, domain = f.text.lower().rpartition("@")
    if domain.strip() not in _FREE_MAIL:
        return False
    label = re.sub(r"[^a-z0-9]", "", strip_diacritics(local))
    return not any(domain_names(f"{label}.cz", name) for name in _organisation_names(linker))


def _organisation_names(linker: Linker) -> list[str]:
    """The names of the document's organisations: its parties that are no private person, then
    every organisation's name found."""
    names = [p.name for p in linker.parties if p.name and not p.kind.is_private_person]
    return names + [g.text for g in linker.findings if g.category == cat.COMPANY_NAME]


def _layout_guess(d: Assessment, linker: Linker) -> tuple[ReasonDict, object] | None:
    """``(who, holder)`` when the keep of ``d`` rests on the layout alone: a person whose role
    only the layout gave (:attr:`~redactor.detect.linking.Person.placed`), or a value whose holder
    rule read where it stands (:attr:`~redactor.detect.linking.Holder.placed`); else None."""
    f = d.finding
    if f.category in cat.NAME_CATEGORIES:
        person = linker.persons.get(d.cluster or "")
        if person is None or not person.placed:
            return None
        return _body(person), person
    if d.cluster and d.cluster in linker.persons:
        person = linker.persons[d.cluster]
        return (person.who(), person) if person.placed else None
    holder: Holder | None = linker.holder(f, ("holder", "sentence", "party"))
    if holder is None or holder.placed is None:
        return None
    return holder.who, holder.placed


def _body(person: Person) -> ReasonDict:
    """Whom an official's name is kept for, as a reason parameter: the party the person acts for,
    else a public body."""
    if person.party is not None:
        return person.party.who()
    return {"code": "who_organisation", "params": {"kind": {"term": PartyKind.PUBLIC_BODY.value}}}


def second_signal(f: Finding, guess: tuple[ReasonDict, object], linker: Linker) -> str:
    """The signal besides the layout that confirms whose ``f`` is, in English, or "": the holder's
    IČO, an e-mail's domain spelling the holder's name, the same value in a letterhead, a
    function beside the person (the module docstring gives the sources)."""
    _who, holder = guess
    if isinstance(holder, Person) and holder.placed == REPRESENTED_ONLY:
        return ""  # whether she is the company's statutory body, only a function or the register says
    if isinstance(holder, Person) and holder.role and not holder.placed:
        return f"a function beside {holder.name!r}"
    party = holder.party if isinstance(holder, Person) else holder if isinstance(holder, Party) else None
    if isinstance(holder, str):  # an organisation named in the sentence: the party whose entry it is, if of its kind
        around = linker.party_at(f.span)
        party = around if around is not None and around.kind.value == holder else None
    if party is not None and _has_ico(party, linker):
        return f"the IČO in the entry of {party.describe()}"
    if isinstance(holder, str) and _ico_after_organisation(f, linker):
        return "an IČO beside the organisation"
    if f.category in (cat.EMAIL_PERSONAL, cat.EMAIL_GENERIC):
        domain = f.text.rpartition("@")[2].lower()
        names = [_holder_name(holder, party, f, linker), *_organisation_names(linker)]
        spelt = next((name for name in names if name and domain_names(domain, name)), None)
        if spelt:
            return f"its domain {domain!r} spells {spelt!r}"
    if _in_a_letterhead(f, linker):
        return "the same value in a letterhead"
    near = _person_above(f, linker)
    if near is not None and near.role and not near.placed:
        return f"a function beside {near.name!r} named right above"
    if isinstance(holder, Person):
        work = _work_email(holder, linker)
        if work:
            return f"{holder.name!r} has the e-mail {work!r} on an organisation's domain"
    return ""


def _person_above(f: Finding, linker: Linker) -> Person | None:
    """The person named last before ``f`` on its line or the line above, if any."""
    start = linker.text.rfind("\n", 0, max(0, linker.text.rfind("\n", 0, f.span.start))) + 1
    names = [
        g
        for g in linker.findings
        if g.category in cat.NAME_CATEGORIES and start <= g.span.start and g.span.end <= f.span.start and g.holder
    ]
    if not names:
        return None
    return linker.persons.get(max(names, key=lambda g: g.span.end).holder or "")


def _work_email(person: Person, linker: Linker) -> str:
    """An e-mail of the document whose local part holds the person's surname and whose domain
    spells an organisation the document names (:func:`domain_names`), or ""."""
    surname = fold_name(person.name.split()[-1]) if person.name.split() else ""
    if len(surname) < 3:
        return ""
    organisations = _organisation_names(linker)
    for g in linker.findings:
        if g.category not in (cat.EMAIL_PERSONAL, cat.EMAIL_GENERIC):
            continue
        local, _at, domain = g.text.lower().rpartition("@")
        if surname[:5] in fold_name(local) and any(domain_names(domain, name) for name in organisations):
            return g.text
    return ""


def _has_ico(party: Party, linker: Linker) -> bool:
    """An IČO or an entry of a public register (Act 304/2013 Sb.: "zapsaná v obchodním rejstříku")
    in the party's entry or letterhead, or an IČO right after its name elsewhere."""
    spans = [*party.blocks, *party.letterheads]
    if any(g.category == cat.ICO and any(b.contains(g.span) for b in spans) for g in linker.findings):
        return True
    if any(_REGISTER.search(strip_diacritics(linker.text[b.start : b.end])) for b in spans):
        return True
    name = fold_name(party.name) if party.name else ""
    names = [g for g in linker.findings if g.category == cat.COMPANY_NAME and name and fold_name(g.text) == name]
    return any(_ico_after(g, linker) for g in names)


def _ico_after(org: Finding, linker: Linker) -> bool:
    return any(g.category == cat.ICO and 0 <= g.span.start - org.span.end <= 80 for g in linker.findings)


def _ico_after_organisation(f: Finding, linker: Linker) -> bool:
    """An IČO within 80 characters after the organisation named last before ``f``."""
    before = [
        g
        for g in linker.findings
        if g.category == cat.COMPANY_NAME and g.span.end <= f.span.start and not BANK.search(g.text)
    ]
    if not before:
        return False
    org = max(before, key=lambda g: g.span.end)
    same = [g for g in linker.findings if g.category == cat.COMPANY_NAME and fold_name(g.text) == fold_name(org.text)]
    return any(_ico_after(g, linker) for g in same)


def _holder_name(holder: object, party: Party | None, f: Finding, linker: Linker) -> str:
    """The holder's name as the document writes it: the party's, else the organisation named last
    before ``f``; "" when none is known."""
    if party is not None and party.name:
        return party.name
    if isinstance(holder, str):
        before = [g for g in linker.findings if g.category == cat.COMPANY_NAME and g.span.end <= f.span.start]
        if before:
            return max(before, key=lambda g: g.span.end).text
    return ""


def _in_a_letterhead(f: Finding, linker: Linker) -> bool:
    """The same value (spaces and case aside) printed inside a party's letterhead."""
    key = re.sub(r"\s+", "", f.text).lower()
    heads = [b for p in linker.parties for b in p.letterheads]
    if not heads:
        return False
    for g in linker.findings:
        if g is f or g.category != f.category or re.sub(r"\s+", "", g.text).lower() != key:
            continue
        if any(b.contains(g.span) for b in heads):
            return True
    return False


def domain_names(domain: str, name: str) -> bool:
    """Whether an e-mail ``domain`` ("mulhota.cz", "nemhb.cz", "knihovnapisek.cz") spells the
    organisation ``name`` ("Městský úřad Lhota", "Nemocnice Havlíčkův Brod", "Městská knihovna
    Písek"): its letters, the top-level domain and hyphens aside, are the name's words in their
    order, each word whole, shortened to a prefix or to its first letter, words may be left out,
    and one word must stand in whole or as a prefix of three letters at least (a case
    ending may differ: "jihomoravsky" for "Jihomoravského"). Source: the registry's practice (an
    organisation's domain is its name or an abbreviation of it), DOMAIN.md (a public body's
    e-mail on its domain is the body's)."""
    labels = [label for label in domain.split(".")[:-1] if label and label not in ("www", "mail", "posta")]
    spelt = "".join(c for c in strip_diacritics("".join(labels)).lower() if c.isalnum())
    words = tuple(w for w in (fold_name(w) for w in name.split()) if w)
    return len(spelt) >= 3 and bool(words) and _spells(spelt, words)


@cache
def _spells(spelt: str, words: tuple[str, ...], long: bool = False) -> bool:
    if not spelt:
        return long
    for k, word in enumerate(words):
        rest = words[k + 1 :]
        for size in range(min(len(word), len(spelt)), 0, -1):
            if spelt[:size] != word[:size]:
                continue
            if _spells(spelt[size:], rest, long or size >= 3):
                return True
            # a case ending: the domain writes the word's stem with another ending
            if size >= 4 and size >= len(word) - 3:
                for extra in (1, 2):
                    if len(spelt) >= size + extra and _spells(spelt[size + extra :], rest, True):
                        return True
    return False
