"""Registry metadata: pre-filled from the contract, never carrying what the PDF redacts, written
as the registry's XML and validated against its XSD 1.2.1; the registry's replies and dumps read."""

from __future__ import annotations

import json
import re
from datetime import date
from decimal import Decimal

import pytest

from redactor.detect.profile import AgencyProfile
from redactor.metadata import (
    NOT_PUBLIC,
    ContractMetadata,
    PublishingBody,
    RegistryParty,
    prefill,
    redacted_values_in,
)
from redactor.model import Action
from registry import isrs
from tests.conftest import DATA

DEV = DATA / "dev"
SAMPLES = DATA / "registry" / "isrs-1.2.1"
DEV_DOCS = sorted(p.stem for p in DEV.glob("*.pdf"))


def _gold(name: str) -> dict:
    return json.loads((DEV / f"{name}.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def analysed(rules_engine):
    cache = {}

    def get(name: str):
        if name not in cache:
            analysis = rules_engine.analyze((DEV / f"{name}.pdf").read_bytes())
            cache[name] = (analysis, prefill(analysis))
        return cache[name]

    return get


# -- pre-fill on the dev set: against what its gold files know -----------------------------------
@pytest.mark.parametrize("name", DEV_DOCS)
def test_no_value_the_gold_redacts_reaches_the_metadata(analysed, name):
    """The metadata are public beside the PDF: no personal data the gold says to redact, in any
    field, as whole words (the registry's README: private persons appear in smluvniStrana)."""
    _analysis, meta = analysed(name)
    redact = [i["text"] for i in _gold(name)["items"] if i["expected"] == "redact"]
    assert redacted_values_in(meta, redact) == []
    for text in meta.texts().values():
        for secret in _gold(name).get("hidden_layer_secrets", []):
            assert secret not in text


@pytest.mark.parametrize("name", DEV_DOCS)
def test_every_prefilled_organisation_is_one_the_gold_keeps(analysed, name):
    """A party's name and IČO, when filled, are an organisation the gold keeps; a private
    person's party is named by the sentence the XSD prescribes for § 5(6)."""
    _analysis, meta = analysed(name)
    keep = {i["text"] for i in _gold(name)["items"] if i["expected"] == "keep"}
    assert meta.parties, "every dev contract has a counterparty"
    for party in meta.parties:
        if party.private and party.name == NOT_PUBLIC:
            continue
        assert party.name in keep, party.name
        if party.ico:
            assert party.ico in keep


@pytest.mark.parametrize(
    ("name", "without_vat"),
    [("dilo_firma_1", "3280191"), ("dilo_firma_2", "7277444"), ("dilo_firma_3", "4840959"), ("kupni_auto_1", "63000")],
)
def test_the_price_clause_fills_the_value(analysed, name, without_vat):
    _analysis, meta = analysed(name)
    assert meta.value_without_vat == Decimal(without_vat)
    assert meta.value_with_vat is None
    assert "Kč" in meta.sources["value_without_vat"].text


def test_the_date_of_the_last_signature_and_the_signing_official(analysed):
    _analysis, meta = analysed("dilo_firma_1")
    assert meta.date_concluded == date(2024, 9, 8)
    assert meta.sources["date_concluded"].text.startswith("V ")
    assert meta.parties[0].recipient is True  # the contractor receives the price
    assert meta.signed_by == "Ing. Kristýna Matoušková, starostka"  # the "Ing." redacted elsewhere is no leak
    # a name the analysis redacts or sends to review anywhere stays out, though kept beside "starostka"
    analysis, _meta = analysed("dilo_firma_1")
    review = next(p for p in analysis.proposals if p.text == "Kristýna Matoušková")
    review.action = Action.REVIEW
    assert prefill(analysis).signed_by == ""
    review.action = Action.KEEP


def test_an_inflected_representative_is_written_in_the_nominative(analysed):
    _analysis, meta = analysed("kupni_auto_1")
    assert meta.signed_by and not re.search(r"(?:em|ou)\b", meta.signed_by)


def test_a_private_persons_party_is_named_by_the_sentence_for_section_5_6(analysed):
    _analysis, meta = analysed("pacht_1")
    assert [p.name for p in meta.parties] == [NOT_PUBLIC, NOT_PUBLIC]
    assert [(p.private, p.address, p.data_box) for p in meta.parties] == [(True, "", "")] * 2  # homes stay out


def test_the_agencys_own_party_is_the_publisher_not_a_counterparty(analysed, rules_engine):
    analysis, _meta = analysed("dilo_firma_1")
    own = next(p for p in analysis.parties if p.kind.value == "public_body")
    block = analysis.text_layer.text[own.blocks[0].start : own.blocks[0].end]
    ico = re.search(r"IČO: (\d{8})", block).group(1)
    profile = AgencyProfile(names=(own.name,), ico=ico, data_box="abc2def", addresses=("Nádražní 93",))
    meta = prefill(analysis, profile, unit="odbor investic")
    assert meta.publisher == PublishingBody("abc2def", own.name, ico, "Nádražní 93", "odbor investic", payer=True)
    assert own.name not in [p.name for p in meta.parties]
    assert meta.sources["publisher"].note == "own_party"


def test_the_counterparty_typed_at_upload_wins_over_the_parties_read(analysed):
    """A clerk's counterparty leads the parties: spelled as typed where a party was read under the
    same name (what was read of it kept), a party of its own otherwise; never a private person's
    name beside the § 5(6) sentence the party already has."""
    analysis, read = analysed("dilo_firma_1")
    company = next(p for p in read.parties if p.name and p.name != NOT_PUBLIC)
    same = prefill(analysis, counterparty=f"  {company.name.upper().replace(',', '')} ")
    assert same.parties[0].name == company.name.upper().replace(",", "") and same.parties[0].ico == company.ico
    assert same.parties[0].source.note == "upload" and len(same.parties) == len(read.parties)
    other = prefill(analysis, counterparty="Stavební sdružení Lhota a.s.")
    assert [p.name for p in other.parties] == ["Stavební sdružení Lhota a.s.", *[p.name for p in read.parties]]

    private_analysis, private_read = analysed("pacht_1")
    seller = next(p for p in private_analysis.parties if p.kind.is_private_person)
    typed = prefill(private_analysis, counterparty=seller.name)
    assert [p.name for p in typed.parties] == [p.name for p in private_read.parties] == [NOT_PUBLIC, NOT_PUBLIC]


def test_metadata_survive_their_json_form():
    meta = ContractMetadata(
        parties=[RegistryParty("ACME s.r.o.", ico="27074358", recipient=True)],
        subject="Smlouva o dílo",
        date_concluded=date(2024, 3, 1),
        value_without_vat=Decimal("1000.50"),
        related_record=123,
    )
    again = ContractMetadata.from_dict(json.loads(json.dumps(meta.to_dict())))
    assert again == meta
    with pytest.raises(ValueError):
        ContractMetadata.from_dict({"value_with_vat": "lots"})


def test_a_redacted_value_is_found_as_whole_words_only():
    meta = ContractMetadata(parties=[RegistryParty("Jana Nováková", address="Lipová 12")], subject="Nájem bytu")
    assert redacted_values_in(meta, ["Nováková"]) == [("parties.0.name", "nováková")]
    assert redacted_values_in(meta, ["Lipová 1"]) == []  # "Lipová 12" is another value
    assert redacted_values_in(meta, ["Ná"]) == []  # too short to mean anything


# -- the registry's XML ---------------------------------------------------------------------------
def _meta(**kw) -> ContractMetadata:
    values = {
        "publisher": PublishingBody(data_box="abc2def", name="Město Test", ico="00000001", unit="odbor"),
        "parties": [RegistryParty("ACME s.r.o.", ico="27074358", data_box="xyz9abc", address="Praha", recipient=True)],
        "subject": "Smlouva o dílo – oprava chodníku",
        "date_concluded": date(2024, 3, 1),
        "number": "25/2024",
        "signed_by": "Ing. Jana Nováková, starostka",
        "value_without_vat": Decimal("100000"),
        "value_with_vat": Decimal("121000.00"),
        "related_record": 42,
    }
    values.update(kw)
    return ContractMetadata(**values)


def test_every_message_validates_against_the_registrys_schemas():
    meta = _meta()
    messages = [
        isrs.publish_xml(meta, ["smlouva.pdf", "smlouva.txt"], email="podatelna@example.cz"),
        isrs.modify_xml(1234, meta, [], email=""),
        isrs.modify_xml(1234, meta, ["priloha.pdf"]),
        isrs.add_files_xml(["priloha.pdf"], record_id=1234),
        isrs.add_files_xml(["priloha.pdf"], message_id="7100001"),
        isrs.withdraw_xml(1234),
        isrs.publish_xml(
            _meta(value_without_vat=None, value_with_vat=None, foreign_value=Decimal("5"), foreign_currency="eur"),
            ["a.pdf"],
        ),
    ]
    roots = [isrs.validate(xml) for xml in messages]
    assert roots == ["zverejneni", "modifikace", "modifikace", "pridaniPrilohy", "pridaniPrilohy",
                     "znepristupneni", "zverejneni"]  # fmt: skip


def test_a_written_message_reads_back_as_the_same_metadata():
    meta = _meta()
    xml = isrs.publish_xml(meta, ["smlouva.pdf"])
    # the reply carries the same smlouva element; read it with the reply's reader
    reply = (SAMPLES / "zverejneni-smlouvy_response.xml").read_bytes()
    smlouva = re.search(rb"<smlouva>.*</smlouva>", xml, re.S).group(0)
    patched = re.sub(rb"<smlouva>.*</smlouva>", smlouva, reply, flags=re.S)
    record = isrs.parse_reply(patched).record
    read = record.metadata
    assert read.parties == [RegistryParty("ACME s.r.o.", "27074358", "xyz9abc", "Praha", True)]
    assert (read.subject, read.date_concluded, read.number, read.signed_by) == (
        meta.subject, meta.date_concluded, meta.number, meta.signed_by)  # fmt: skip
    assert (read.value_without_vat, read.value_with_vat, read.related_record) == (Decimal(100000), Decimal(121000), 42)


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"parties": []}, "smluvniStrana: empty"),
        ({"subject": " "}, "predmet: empty"),
        ({"date_concluded": None}, "datumUzavreni: empty"),
        ({"parties": [RegistryParty("")]}, "smluvniStrana[1]/nazev: empty"),
        ({"foreign_value": Decimal(1)}, "ciziMena/mena: empty"),
        ({"subject": "x" * 256}, "predmet"),  # the XSD's 255 characters
        ({"number": "č" * 256}, "cisloSmlouvy"),
        ({"parties": [RegistryParty("A", data_box="too-long-id")]}, "datovaSchranka"),
    ],
)
def test_an_incomplete_or_invalid_message_is_refused_before_it_leaves(change, error):
    with pytest.raises(isrs.RegistryXmlError) as caught:
        isrs.publish_xml(_meta(**change), ["a.pdf"])
    assert error in str(caught.value)


def test_files_the_registry_does_not_accept_are_refused():
    with pytest.raises(isrs.RegistryXmlError, match="accepts only"):
        isrs.publish_xml(_meta(), ["smlouva.zip"])
    with pytest.raises(isrs.RegistryXmlError, match="exactly one"):
        isrs.add_files_xml(["a.pdf"], record_id=1, message_id="2")


def test_files_over_one_message_go_in_batches():
    mb = 1024 * 1024
    assert isrs.split_files([("a.pdf", 5 * mb), ("a.txt", mb)]) == [["a.pdf", "a.txt"]]
    assert isrs.split_files([("a.pdf", 15 * mb), ("b.pdf", 15 * mb), ("a.txt", mb)]) == [["a.pdf"], ["b.pdf", "a.txt"]]
    with pytest.raises(isrs.RegistryXmlError, match="over the data-box message limit"):
        isrs.split_files([("huge.pdf", 25 * mb)])


@pytest.mark.parametrize("name", ["zverejneni.xml", "modifikace.xml", "pridani_prilohy.xml", "znepristupneni.xml"])
def test_the_registrys_own_sample_messages_validate(name):
    assert isrs.validate((SAMPLES / name).read_bytes()) == {v: k for k, v in isrs.FILE_NAMES.items()}[name]


@pytest.mark.parametrize(
    ("name", "operation", "record_id"),
    [
        ("zverejneni-smlouvy_response.xml", "zverejneni", 112068),
        ("modifikace-smlouvy_response.xml", "modifikace", 112076),
        ("pridani-prilohy-do-smlouvy_response.xml", "pridaniPrilohy", 111936),
        ("znepristupneni_response.xml", "znepristupneni", 112076),
    ],
)
def test_every_reply_sample_parses(name, operation, record_id):
    reply = isrs.parse_reply((SAMPLES / name).read_bytes())
    assert (reply.ok, reply.operation, reply.record.record_id, reply.schema_errors) == (True, operation, record_id, [])
    assert reply.message_id.isdigit() and reply.record.link.startswith("https://")
    assert all(re.fullmatch(r"[0-9a-f]{64}", f.sha256) for f in reply.record.files)


def test_an_error_reply_parses_with_its_code():
    reply = isrs.parse_reply((SAMPLES / "chyba_response.xml").read_bytes())
    assert (reply.ok, reply.operation, reply.message_id, reply.error_code) == (False, "chyba", "6570867", "1")
    assert "hlavní" in reply.error_text


def test_a_newer_reply_is_read_leniently():
    """The live registry runs XSD 1.6: an element 1.2.1 does not know is reported, not fatal."""
    xml = (SAMPLES / "zverejneni-smlouvy_response.xml").read_bytes()
    newer = xml.replace(b"</casZverejneni>", b"</casZverejneni><novyPrvek>1</novyPrvek>")
    reply = isrs.parse_reply(newer)
    assert reply.ok and reply.record.record_id == 112068 and reply.schema_errors


@pytest.mark.parametrize("xml", [b"<html/>", b"not xml", b'<chyba xmlns="http://portal.gov.cz/rejstriky/ISRS/1.2/"/>'])
def test_what_is_not_a_reply_is_refused(xml):
    with pytest.raises(isrs.RegistryXmlError):
        isrs.parse_reply(xml)


def test_the_real_monthly_dump_validates_and_reads_with_the_reply_reader(shared_data):
    records = isrs.parse_dump((shared_data / "registry" / "dump_2016_07.xml").read_bytes())
    assert len(records) == 2344
    assert all(r.metadata.parties and r.metadata.subject and r.files for r in records)
    assert sum(r.metadata.related_record is not None for r in records) > 0
    assert all(re.fullmatch(r"[0-9a-f]{64}", f.sha256) for r in records for f in r.files if f.sha256)


@pytest.mark.parametrize(
    ("sentence", "field", "amount"),
    [
        (
            "Celková cena předmětu koupě tedy činí 51 400,00\nKč (slovy: padesátjedentisícčtyřista korun).",
            "without",
            "51400.00",
        ),
        ("Cena díla činí 1 210 000 Kč včetně DPH.", "with", "1210000"),
        ("Cena za hostingové služby činí 2 000,- Kč bez DPH za 1 měsíc.", None, None),
        ("Smluvní pokuta činí 50 000 Kč za každý den prodlení.", None, None),
        ("Cena díla činí 40 000 EUR.", "foreign", "40000"),
    ],
)
def test_the_value_is_read_from_a_price_sentence_only(rules_engine, sentence, field, amount):
    from tests.pdfs import pdf_from_paragraphs

    pdf = pdf_from_paragraphs(["Smlouva o dílo", "Objednatel: Obec Horní Lhota, IČO: 00000001", *sentence.split("\n")])
    meta = prefill(rules_engine.analyze(pdf))
    values = {"without": meta.value_without_vat, "with": meta.value_with_vat, "foreign": meta.foreign_value}
    assert {k: str(v) for k, v in values.items() if v is not None} == ({field: amount} if field else {})


def test_a_scanned_title_and_the_agency_introduced_twice(rules_engine):
    """OCR's "0" for the preposition "o" joins the title; the agency named under a second label
    (a shortened name) is the publisher, not a counterparty."""
    from tests.pdfs import pdf_from_paragraphs

    pdf = pdf_from_paragraphs(
        [
            "SMLOUVA",
            "0 zajištění služeb asistenta poslance",
            "1. Poskytovatel služeb: ALMOND, s.r.o., IČO: 25024639, sídlo: Hlavní 50, 110 00 Praha 1",
            "2. Objednatel: Česká republika - Kancelář Poslanecké sněmovny, IČO: 00006572",
            "3. Správce rozpočtu: Česká republika - Kancelář Poslanecké",
            "Cena služeb činí 30 000 Kč.",
        ]
    )
    profile = AgencyProfile(names=("Česká republika - Kancelář Poslanecké sněmovny",), ico="00006572")
    meta = prefill(rules_engine.analyze(pdf, profile=profile), profile)
    assert meta.subject == "Smlouva o zajištění služeb asistenta poslance"
    assert [p.name for p in meta.parties] == ["ALMOND, s.r.o."]


@pytest.mark.parametrize(
    "written",
    [
        "Michaela Dvořáková",  # as redacted
        "Dvořáková Michaela",  # word order
        "Dvořáková",  # the surname alone
        "paní Dvořákové",  # inflected
        "s paní Dvořákovou",
        "MICHAELA DVORAKOVA",  # capitals, no diacritics
        "Dvorakova",
        "r. č. 736028/5163",  # the birth number with a slash
        "rodné číslo 736028 5163",  # with a space
        "7360285163",
    ],
)
def test_the_metadata_check_finds_a_redacted_value_in_any_written_form(written):
    meta = ContractMetadata(subject=f"Nájem bytu, nájemce {written}", signed_by="Ing. Petr Novák, starosta")
    found = redacted_values_in(meta, ["Michaela Dvořáková", "7360285163"], names=["Michaela Dvořáková"])
    assert [path for path, _value in found] == ["subject"]


@pytest.mark.parametrize(
    "subject",
    [
        "Nájem bytu č. 15, Horní Lhota",
        "Oprava chodníku v ulici Michaely Horákové",  # the given name alone is not the person
        "Smlouva s Ing. Janou Novákovou, starostkou",  # another surname that shares the stem
        "Faktura 736028",  # a shorter number; the date part of the birth number 736028/5163 is no account
        "Oprava ulice Řehořova",  # another word than the surname
        "Smlouva o dílo č. 15/2026, Lipová 14",  # another house
    ],
)
def test_the_metadata_check_leaves_what_is_not_the_redacted_value(subject):
    meta = ContractMetadata(subject=subject)
    redacted = ["Michaela Dvořáková", "7360285163", "Novák", "736028/5163", "Petrem Řehořem", "Lipová č. p. 12"]
    assert redacted_values_in(meta, redacted, names=["Michaela Dvořáková", "Petrem Řehořem"]) == []


@pytest.mark.parametrize(
    ("redacted", "written"),
    [
        ("Petrem Řehořem", "nájemce Řehoř"),  # the nominative of a surname that is also a given name
        ("Janem Hájkem", "J. Hájek"),  # an initial with the surname
        ("Michaelou Dvořákovou", "pani Dvorakova"),  # another case, no diacritics
        ("19-2000145399/0800", "na účet 2000145399"),  # the account without prefix and bank code
        ("2000145399/0800", "účet 2000145399 / 0800"),
        ("Lipová 12, 123 45 Horní Lhota", "bytem Lipová č. p. 12, 123 45 Horní Lhota"),  # a marker inserted
        ("Lipová č.p. 12", "Lipová 12"),  # and left out
    ],
)
def test_the_metadata_check_reads_inflection_initials_digit_groups_and_house_markers(redacted, written):
    meta = ContractMetadata(subject=f"Nájem bytu, {written}")
    names = [redacted] if not any(c.isdigit() for c in redacted) else []
    assert [path for path, _value in redacted_values_in(meta, [redacted], names=names)] == ["subject"]


def test_a_reply_with_a_document_type_is_refused():
    xml = (SAMPLES / "zverejneni-smlouvy_response.xml").read_bytes()
    declaration, rest = xml.split(b"?>", 1) if xml.startswith(b"<?xml") else (b"", xml)
    typed = (declaration + b"?>" if declaration else b"") + b'<!DOCTYPE x [<!ENTITY e "112068">]>' + rest
    with pytest.raises(isrs.RegistryXmlError):
        isrs.parse_reply(typed)
    bomb = b'<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>' + rest
    with pytest.raises(isrs.RegistryXmlError):
        isrs.parse_reply(bomb)


@pytest.mark.parametrize(
    "link", ["javascript:alert(document.cookie)", " JavaScript:alert(1)", "file:///etc/passwd", "//evil.example/x"]
)
def test_a_registry_link_is_kept_only_as_a_web_address(link):
    xml = (SAMPLES / "zverejneni-smlouvy_response.xml").read_bytes()
    record = isrs.parse_reply(re.sub(rb"<odkaz>[^<]*</odkaz>", b"<odkaz>" + link.encode() + b"</odkaz>", xml)).record
    assert record.link == "" and all(f.link == "" for f in record.files)
    assert isrs.parse_reply(xml).record.link == "https://testrs.gov.cz/smlouva/125224"
