"""The registry metadata pre-filled from what the engine read in a contract.

:func:`prefill` reads an :class:`~redactor.engine.Analysis`: the parties the engine found
with their IČO, seat and data box (the agency's own party becomes the publisher), the price clause,
the dates next to the signatures, the contract number, the official who represents the agency,
the title. Every value carries the place it was read (:class:`~redactor.metadata.fields.Source`:
page from 1 and the line, redacted spans masked), so that a reviewer confirms it rather than types
it. Values the analysis redacts or sends to review anywhere are never taken
(:func:`~redactor.metadata.fields.drop_redacted_values`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from redactor import categories as cat
from redactor.categories import NAME_CATEGORIES
from redactor.czech import TITLES_BEFORE, NameGazetteer, nominative_candidates, strip_diacritics
from redactor.metadata.fields import (
    MAX_TEXT,
    NOT_PUBLIC,
    ContractMetadata,
    PublishingBody,
    RegistryParty,
    Source,
    drop_redacted_values,
)
from redactor.metadata.values import (
    AMENDMENT,
    ContractReader,
    clip,
    contract_number,
    line_at,
    prices,
    signature_date,
    subject,
)
from redactor.model import Action, PartyKind, Span

if TYPE_CHECKING:  # the engine imports nothing from here
    from redactor.detect.profile import AgencyProfile
    from redactor.engine import Analysis
    from redactor.model import Party, ProposedRedaction

#: Roles whose party receives the payment (``prijemce`` 1) and roles whose party pays (0); a
#: role in neither ("poskytovatel" gives a grant or receives payment for a service) is left open.
RECIPIENT_ROLES = frozenset(
    {"prodávající", "zhotovitel", "pronajímatel", "propachtovatel", "dodavatel", "příjemce", "obdarovaný",
     "prodejce", "příkazník", "mandatář", "převodce", "zapůjčitel", "půjčitel"}
)  # fmt: skip
PAYER_ROLES = frozenset(
    {"kupující", "objednatel", "nájemce", "podnájemce", "pachtýř", "odběratel", "dárce", "příkazce", "mandant",
     "nabyvatel", "vypůjčitel", "vydlužitel"}
)  # fmt: skip
_REPRESENTED = re.compile(
    r"(?:zastoupen\w*|jednající|jednajici|za\s+\w+\s+jedná|statutární\s+orgán\w*|statutarni\s+organ\w*)"
    r"(?:\s+\w+){0,3}?\s*:?\s*(?P<rest>.*)$",
    re.I,
)
#: A party "name" that is a clause: a verb or a conjunction joining clauses.
_SENTENCE = re.compile(r"\s(?:je|jsou|má|mají|bude|byl|byla|se|si|který|která|které|jenž)\s")


def _digits(text: str) -> str:
    return re.sub(r"\D", "", text)


def _party_name(reader: ContractReader, party: Party) -> tuple[str, int]:
    """The party's name as printed on its line ("Všeobecná zdravotní pojišťovna České republiky"
    where the engine's name stops early) and its offset; ``("", -1)`` without one."""
    if not party.name:
        return "", -1
    for block in party.blocks:
        at = reader.text.find(party.name, block.start, block.end)
        if at < 0:
            continue
        line = line_at(reader.text, reader.lines, at)
        rest = reader.text[at : line.end]
        # the line goes on with the same name ("… České" + " republiky") until a field starts
        rest = re.split(r",\s|;|\s{2,}|\s[–-]\s|\s(?:IČO?|DIČ|se sídlem|sídlo|zastoupen)\b|\(", rest, maxsplit=1)[0]
        name = rest if rest.startswith(party.name) and len(rest) <= 150 else party.name
        name = name.rstrip(" ,:;")
        if name.endswith(".") and not re.search(r"(?:^|[\s.])\w{1,3}\.$", name):  # keep "s.r.o.", "a.s."
            name = name[:-1]
        return clip(name, MAX_TEXT), at
    return party.name, -1


def _agency_party(parties: list[Party], reader: ContractReader, profile: AgencyProfile | None) -> Party | None:
    """The contract's party that is the publishing agency: the one whose block holds the agency's
    IČO or name; without a profile, the only public body."""
    if profile is not None and (profile.ico or profile.names):
        ico = _digits(profile.ico)
        names = [strip_diacritics(n).casefold() for n in profile.names if n]
        for party in parties:
            block_text = " ".join(reader.text[b.start : b.end] for b in party.blocks)
            if ico and ico in _digits(block_text.replace(" ", "")) and ico in re.findall(r"\d{8}", block_text):
                return party
            folded = strip_diacritics(block_text).casefold()
            if any(n and n in folded for n in names):
                return party
    public = [p for p in parties if p.kind == PartyKind.PUBLIC_BODY]
    return public[0] if len(public) == 1 else None


def _body_key(name: str) -> str:
    """A body's name folded for comparison, without "Česká republika –", under which the state's
    organisational units contract ("Česká republika – Kancelář Poslanecké sněmovny")."""
    folded = re.sub(r"\W+", " ", strip_diacritics(name).casefold()).strip()
    return re.sub(r"^ceska republika ", "", folded)


def _same_body(party: Party, names: list[str]) -> bool:
    """True when ``party``'s name is one of ``names`` (folded), also cut short by a line end or an
    OCR ("Česká republika - Kancelář Poslanecké" for "… Poslanecké sněmovny")."""
    folded = _body_key(party.name)
    if len(folded) < 12:
        return False
    for name in names:
        other = _body_key(name)
        if len(other) >= 12 and (folded in other or other in folded):  # a prefix is contained too
            return True
    return False


def _recipient(party: Party) -> bool | None:
    roles = set(party.roles) | ({party.label} if party.label else set())
    if roles & RECIPIENT_ROLES and not roles & PAYER_ROLES:
        return True
    if roles & PAYER_ROLES and not roles & RECIPIENT_ROLES:
        return False
    return None


def _registry_party(reader: ContractReader, party: Party) -> RegistryParty:
    name, at = _party_name(reader, party)
    private = party.kind.is_private_person
    hidden = not name or (at >= 0 and reader.is_hidden(Span(at, at + len(name))))
    first = party.blocks[0].start if party.blocks else 0
    result = RegistryParty(
        name=NOT_PUBLIC if hidden and private else ("" if hidden else name),
        recipient=_recipient(party),
        private=private,
        source=reader.source(at if at >= 0 else first, "not_public" if hidden and private else ""),
    )
    if result.name == NOT_PUBLIC:
        # the party is not named: its IČO, box or seat would name it all the same (a sole trader's
        # IČO leads to the name in the public business register); the reviewer adds them if public
        return result
    for kind, categories in (("ico", {cat.ICO}), ("data_box", {cat.DATA_BOX}), ("address", {cat.ADDRESS_SEAT})):
        found = [p for p in reader.in_blocks(party, categories, Action.KEEP) if not reader.is_hidden(p.span)]
        if not found:
            continue
        value = found[0].text
        if kind == "ico":
            value = _digits(value)
        elif kind == "address":
            value = clip(value, MAX_TEXT)
        setattr(result, kind, value.strip())
    return result


def _nominative(word: str, feminine: bool | None = None) -> str:
    """A given name or surname in the nominative ("Radkem" -> "Radek", "Vaňkovou" -> "Vaňková")
    by the name gazetteer; a surname it does not know by the Czech endings
    (:func:`~redactor.czech.nominative_candidates`): the form in "-á" for a woman, the one
    ending in a consonant for a man ("Duchoněm" -> "Duchoň"); else the word itself."""
    gazetteer = NameGazetteer.default()
    known = gazetteer.given_name_of(word) or gazetteer.surname_of(word)
    if known or feminine is None:
        return known or word
    others = sorted(nominative_candidates(word) - {word}, key=lambda c: (-len(c), c))  # the same every run
    if feminine:
        return next((c for c in others if c.endswith("á")), word)
    soft = re.fullmatch(r"(.+)([ntd])ěm", word)  # "Duchoněm" -> "Duchoň": ň, ť, ď before "-em" write "ně"
    if soft:
        return soft.group(1) + {"n": "ň", "t": "ť", "d": "ď"}[soft.group(2)]
    return next((c for c in others if c[-1:].isalpha() and c[-1] not in "aeiouyáéěíóúůý"), word)


def _signatory(text: str, start: int, end: int, names: list[ProposedRedaction]) -> str:
    """The representative on ``text[start:end]`` as the registry's ``schvalil`` wants it: "Ing.
    Jana Nováková, starostka" when the line is in the nominative; titles and the name in the
    nominative without the function when the line inflects them ("zastoupené Ing. Radkem
    Blažkem, starostou" -> "Ing. Radek Blažek")."""
    value = text[start:end].strip(" ,.;:")
    value = re.split(r"\s{2,}|\bIČO?\b|\(", value)[0].strip(" ,;")
    first = min(n.span.start for n in names)
    last = max(n.span.end for n in names)
    words = text[first:last].split()
    given = NameGazetteer.default().given_name_of(words[0].strip(",")) if words else None
    feminine = None if given is None else given.endswith(("a", "e"))
    nominative = [_nominative(w.strip(","), feminine) for w in words]
    if nominative == [w.strip(",") for w in words]:
        return value
    titles = [w for w in text[start:first].split() if w.endswith(".") or w.strip(",") in TITLES_BEFORE]
    return " ".join([*titles, *nominative])


def _representative_line(reader: ContractReader, line: Span) -> Span | None:
    """The span after "zastoupený:" (or the like) on ``line``, or the next line when the name is
    there; None for a line that names no representative."""
    text = reader.text
    m = _REPRESENTED.search(text[line.start : line.end])
    if not m:
        return None
    start, end = line.start + m.start("rest"), line.end
    if not text[start:end].strip():  # the name is on the next line
        nxt = next((s for s in reader.lines if s.start > line.end), None)
        if nxt is None:
            return None
        start, end = nxt.start, nxt.end
    return Span(start, end)


def _representative(reader: ContractReader, party: Party) -> tuple[str, int] | None:
    """The person ``party``'s block names as representing it, when the engine keeps that name."""
    names = [p for p in reader.proposals if p.category in cat.NAME_CATEGORIES and p.action == Action.KEEP]
    for block in party.blocks:
        for line in reader.lines:
            if not block.start <= line.start < block.end:
                continue
            span = _representative_line(reader, line)
            if span is None:
                continue
            inside = [n for n in names if span.contains(n.span)]
            if reader.is_hidden(span) or not inside:
                continue
            value = _signatory(reader.text, span.start, span.end, inside)
            if value:
                return clip(value, MAX_TEXT), span.start
    return None


def _signed_by(reader: ContractReader, party: Party | None, profile: AgencyProfile | None) -> tuple[str, int] | None:
    """Who signed for the agency: the person its block names as representing it ("zastoupený:
    Ing. Jana Nováková, starostka"), when the engine keeps that name (an official acting for the
    body, ministry methodology for Act 340/2015 Sb.); else an official of the agency's profile
    named in the text."""
    found = _representative(reader, party) if party is not None else None
    if found is not None:
        return found
    if profile is not None:
        folded = strip_diacritics(reader.text).casefold()
        for official in profile.officials:
            words = official.words()
            if words and all(strip_diacritics(w).casefold() in folded for w in words[-1:]):
                at = folded.find(strip_diacritics(words[-1]).casefold())
                value = official.name + (f", {official.function}" if official.function else "")
                return clip(value, MAX_TEXT), at
    return None


def prefill(
    analysis: Analysis, profile: AgencyProfile | None = None, unit: str = "", counterparty: str = ""
) -> ContractMetadata:
    """The registry metadata the contract itself gives (see the module docstring).

    ``profile`` is the agency's identity: it fills ``subjekt`` and tells the agency's own party
    apart, which is therefore not listed among ``smluvniStrana``; ``unit`` is the agency's útvar.
    ``counterparty`` is the one a clerk typed at upload: it wins over what was read
    (:func:`_typed_counterparty`). Values the analysis proposes to redact or to review are never
    taken: a party's name among them is published as :data:`NOT_PUBLIC`. Fields the contract does
    not give stay empty (``None`` or ""); nothing is guessed beyond what ``sources`` name.
    """
    reader = ContractReader(analysis)
    meta = ContractMetadata()
    if profile is not None:
        meta.publisher = PublishingBody(
            data_box=profile.data_box,
            name=profile.names[0] if profile.names else "",
            ico=_digits(profile.ico),
            address=profile.addresses[0] if profile.addresses else "",
            unit=unit,
        )
    own = _agency_party(analysis.parties, reader, profile)
    _fill_parties(meta, analysis, reader, own, list(profile.names) if profile is not None else [])
    if counterparty.strip():
        _typed_counterparty(meta, analysis, reader, counterparty)
    if own is not None:
        meta.sources["publisher"] = reader.source(own.blocks[0].start if own.blocks else 0, "own_party")
        recipient = _recipient(own)
        meta.publisher.payer = None if recipient is None else not recipient
    _fill_fields(meta, reader, own, profile)
    _fill_values(meta, reader)
    # a value read where it is kept may be proposed for redaction elsewhere ("Matoušková" kept
    # beside "starostka", sent to review in a signature): it stays out until the reviewer types it
    hidden = [p for p in analysis.proposals if p.action != Action.KEEP]
    names = [p.text for p in hidden if p.category in NAME_CATEGORIES]
    for path in drop_redacted_values(meta, [p.text for p in hidden], names):
        meta.sources.pop(path.rsplit(".", 1)[0] if path.startswith("parties.") else path, None)
    return meta


def _fill_parties(
    meta: ContractMetadata, analysis: Analysis, reader: ContractReader, own: Party | None, own_names: list[str]
) -> None:
    """The counterparties (``smluvniStrana``) of :func:`prefill`: every party but the agency's own
    (introduced twice, "KPS", it is one party: told by its profile's ``own_names`` only, since the
    engine may have given its block another party's name); a party named twice is listed once."""
    for party in analysis.parties:
        if party is own or (own is not None and _same_body(party, own_names)):
            continue
        rp = _registry_party(reader, party)
        if _SENTENCE.search(rp.name) or len(rp.name) > 150:
            rp.name = ""  # the engine's name is a clause ("T-MAPY spol. s r.o. je nositelem …")
        if not rp.name and not rp.ico and not rp.private:
            continue  # nothing to say about it: the reviewer adds the party if it is one
        twin = next((p for p in meta.parties if (rp.ico and p.ico == rp.ico) or (rp.name and p.name == rp.name)), None)
        if twin is not None and not rp.private:
            for key in ("name", "ico", "data_box", "address"):
                setattr(twin, key, getattr(twin, key) or getattr(rp, key))
            continue
        meta.parties.append(rp)


def _typed_counterparty(meta: ContractMetadata, analysis: Analysis, reader: ContractReader, typed: str) -> None:
    """The counterparty a clerk typed leads the parties, spelled as typed (``Source`` note
    ``upload``): a party read under the same name (folded as :func:`_body_key`, or one name
    within the other from 12 characters) takes the typed spelling and keeps what was read of it;
    a private person the analysis read as a party stays the one row it has (published as
    :data:`NOT_PUBLIC`, Act 340/2015 Sb., § 5(6)); any other name is a party of its own."""
    name = clip(typed.strip(), MAX_TEXT)
    key = _body_key(name)
    source = Source(0, "", "upload")

    def same(other: str) -> bool:
        folded = _body_key(other)
        within = min(len(folded), len(key)) >= 12 and (folded in key or key in folded)
        return bool(folded) and (folded == key or within)

    match = next((i for i, p in enumerate(meta.parties) if p.name != NOT_PUBLIC and same(p.name)), None)
    if match is not None:
        party = meta.parties.pop(match)
        party.name, party.source = name, source
        meta.parties.insert(0, party)
        return
    private = [_party_name(reader, p)[0] or p.name for p in analysis.parties if p.kind.is_private_person]
    if any(same(n) for n in private if n):
        return
    meta.parties.insert(0, RegistryParty(name=name, source=source))


def _fill_fields(
    meta: ContractMetadata, reader: ContractReader, own: Party | None, profile: AgencyProfile | None
) -> None:
    """The subject, date of conclusion, contract number and signatory of :func:`prefill`, each
    with the page and line it was read from."""
    found = subject(reader)
    title_at = -1
    if found:
        meta.subject, title_at, _project_at = found
        meta.sources["subject"] = reader.source(title_at)
        meta.amendment = bool(AMENDMENT.match(meta.subject))
    signed = signature_date(reader)
    if signed:
        meta.date_concluded, at = signed
        meta.sources["date_concluded"] = reader.source(at, "last_signature")
    number = contract_number(reader, title_at)
    if number:
        meta.number, at = number
        meta.sources["number"] = reader.source(at)
    who = _signed_by(reader, own, profile)
    if who:
        meta.signed_by, at = who
        meta.sources["signed_by"] = reader.source(at)


def _fill_values(meta: ContractMetadata, reader: ContractReader) -> None:
    """The price of :func:`prefill`: without VAT, with VAT, or in a foreign currency when neither."""
    values = prices(reader)
    if "without" in values:
        meta.value_without_vat, _c, at = values["without"]
        meta.sources["value_without_vat"] = reader.source(at)
    if "with" in values:
        meta.value_with_vat, _c, at = values["with"]
        meta.sources["value_with_vat"] = reader.source(at)
    if "foreign" in values and "without" not in values and "with" not in values:
        meta.foreign_value, meta.foreign_currency, at = values["foreign"]
        meta.sources["foreign_value"] = reader.source(at)
