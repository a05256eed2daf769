"""What a record's published metadata exposes: the parties that are private persons named there.

The registry publishes each record's metadata beside its files (``smluvniStrana``: name, IČO, data
box, address). A private natural person's party, a sole trader's included, is personal data there
as in the text (``../shared/DOMAIN.md``: metadata follows the same rules as the text; the XSD's
annotation of ``nazev`` gives the sentence of § 5(6) Act 340/2015 to publish instead,
:data:`~redactor.metadata.fields.NOT_PUBLIC`). Records published before an agency used the product
often name such parties, and their home addresses, in full.

A party is read as a contract's header would introduce it ("Dodavatel: <name>, IČO: <ico>,
<address>"), by the engine's own recognizers and party segmentation
(:func:`~redactor.detect.parties.find_parties`), so the metadata is judged by the rules the text
is. A party exposes a person when the engine takes it for a natural person or a sole trader *and*
finds a person's name in its name ("Karel Hrnčíř - BIOMAG"); an IČO without a legal form alone
("MEDIA MARKET") is no person's name. The entry's label makes any two capitalised words a name,
as a contract's "Dodavatel: Xaver Qwertz" does (real people's names are often in no list), so an
exposure says whether the name is also *known*: a word of it is a given name or surname of the
gazetteer, or has the shape of a woman's surname; "Water Sports Club" is not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from redactor import categories as cat
from redactor.czech import NameGazetteer
from redactor.decide.decisions import resolve_overlaps
from redactor.detect.parties import find_parties
from redactor.detect.recognizers.base import AnalysisContext
from redactor.engine import RedactionEngine
from redactor.metadata.fields import NOT_PUBLIC, ContractMetadata, RegistryParty
from redactor.model import PartyKind
from redactor.text import sentence_spans

#: The label a party's entry is read under: a role noun every contract kind uses.
_ENTRY = "Dodavatel: "


@dataclass(frozen=True)
class PartyExposure:
    """A party of a record's metadata that names a private person: ``index`` (its position among
    the parties, from 1), ``kind`` (natural person or sole trader), ``person`` (the name the
    engine found in the party's name), ``fields`` exposed (``"name"``, and ``"address"`` when one
    is published: a natural person's home, a sole trader's place of business) and the engine's
    ``evidence``; ``known``: a word of the name is in the name gazetteer or has a woman's
    surname's shape (module docstring)."""

    index: int
    kind: PartyKind
    person: str
    fields: tuple[str, ...]
    evidence: str
    known: bool


def party_exposure(engine: RedactionEngine, party: RegistryParty, index: int = 1) -> PartyExposure | None:
    """The exposure of ``party`` (module docstring), or None when it names no private person: a
    legal person or public body, a name the § 5(6) sentence already replaced, an empty name.
    ``engine`` must be loaded."""
    name = " ".join(party.name.split())
    if not name or name == NOT_PUBLIC:
        return None
    ico = f", IČO: {party.ico}" if party.ico else ""
    text = _ENTRY + name + ico + (f", {party.address}" if party.address else "") + "\n"
    context = AnalysisContext(text, engine.nlp.process(text), sentence_spans(text))
    findings = resolve_overlaps(engine.registry.analyze(context))
    parties, _references = find_parties(text, findings)
    if not parties or not parties[0].kind.is_private_person:
        return None
    end = len(_ENTRY) + len(name)
    persons = [f for f in findings if f.category in cat.NAME_CATEGORIES and f.span.end <= end]
    if not persons:
        return None  # an IČO without a legal form is no person's name ("MEDIA MARKET")
    fields = ("name", "address") if party.address.strip() else ("name",)
    return PartyExposure(index, parties[0].kind, persons[0].text, fields, parties[0].evidence, _known(persons[0].text))


def _known(name: str) -> bool:
    """Whether a word of ``name`` is a given name or surname the gazetteer knows (any case,
    "SCHUSTER NORBERT"), or ends as a woman's surname does (-ová)."""
    gazetteer = NameGazetteer.default()
    for word in re.findall(r"[^\W\d_]{2,}", name):
        form = word.capitalize() if word.isupper() else word
        if gazetteer.given_name_of(form) or gazetteer.surname_of(form) or form.endswith("ová"):
            return True
    return False


def metadata_exposures(engine: RedactionEngine, metadata: ContractMetadata) -> list[PartyExposure]:
    """The parties of ``metadata`` that name private persons (:func:`party_exposure`), in order."""
    found = (party_exposure(engine, party, i) for i, party in enumerate(metadata.parties, start=1))
    return [f for f in found if f is not None]
