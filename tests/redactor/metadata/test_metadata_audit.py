"""What a published record's metadata exposes: the parties that name private persons
(:func:`redactor.metadata.metadata_exposures`), and ``manage.py registry_audit_dump`` over a dump."""

from __future__ import annotations

import csv
from io import StringIO

import pytest
from django.core.management import call_command

from redactor.metadata import NOT_PUBLIC, ContractMetadata, PublishingBody, RegistryParty, metadata_exposures
from redactor.model import PartyKind


def _metadata(*parties: RegistryParty) -> ContractMetadata:
    body = PublishingBody(data_box="c5kbvkw", name="Liberecký kraj", ico="70891508", address="U Jezu 642/2a, Liberec")
    return ContractMetadata(publisher=body, parties=list(parties), subject="Oprava střechy")


def test_a_natural_person_and_a_sole_trader_named_in_the_parties_are_exposed(rules_engine):
    found = metadata_exposures(
        rules_engine,
        _metadata(
            RegistryParty(name="GORDIC spol. s r.o.", ico="47903783", address="Erbenova 2108/4, 58601 Jihlava"),
            RegistryParty(name="Zbyněk Werner", address="Žižníkov 40, 470 01 Česká Lípa"),
            RegistryParty(name="Karel Hrnčíř - BIOMAG", ico="18848125", address="Chomutice 81, 50753 Chomutice"),
            RegistryParty(name="Liberecký kraj", ico="70891508", address="U Jezu 642/2a, 46001 Liberec"),
            RegistryParty(name=NOT_PUBLIC),
            RegistryParty(name="SCHUSTER NORBERT"),
        ),
    )
    assert [(f.index, f.kind, f.person, f.fields, f.known) for f in found] == [
        (2, PartyKind.NATURAL_PERSON, "Zbyněk Werner", ("name", "address"), True),
        (3, PartyKind.SOLE_TRADER, "Karel Hrnčíř", ("name", "address"), True),
        (6, PartyKind.NATURAL_PERSON, "SCHUSTER NORBERT", ("name",), True),
    ]


def test_a_name_of_no_known_person_is_told_apart(rules_engine):
    """The entry's label makes two capitalised words a name, as a contract's would; a name with
    no word of the gazetteer is reported as such ("Water Sports Club")."""
    [found] = metadata_exposures(rules_engine, _metadata(RegistryParty(name="Water Sports Club")))
    assert found.kind == PartyKind.NATURAL_PERSON and not found.known


def test_an_organisation_whose_legal_form_is_typed_loosely_is_no_person(rules_engine):
    """Registry records type legal forms without a dot, with a parenthesis in the name or in a
    foreign form; such a party is an organisation, not a sole trader named like one."""
    found = metadata_exposures(
        rules_engine,
        _metadata(
            RegistryParty(name="PANEL SERVIS s.r.o", ico="26067340", address="Praha"),
            RegistryParty(name="Alcon Pharmaceuticals (Czech Republic) s.r.o.", ico="26427389"),
            RegistryParty(name="Liechtensteinische Post AG"),
            RegistryParty(name="Jiří Kavan", ico="12345679"),
        ),
    )
    assert [(f.index, f.person) for f in found] == [(4, "Jiří Kavan")]


@pytest.mark.django_db
def test_the_dumps_records_naming_private_persons_are_counted_and_listed(shared_data, tmp_path):
    out = StringIO()
    rows = tmp_path / "audit.csv"
    call_command("registry_audit_dump", str(shared_data / "registry" / "dump_2016_07.xml"), csv=rows, stdout=out)
    summary = out.getvalue()
    assert summary.startswith("2344 records, 2493 parties: "), summary
    listed = list(csv.DictReader(rows.open(encoding="utf-8")))
    records = {r["record"] for r in listed}
    assert 300 <= len(records) <= 400, summary  # about one record in seven
    by_record = {(r["record"], r["name"]): r for r in listed}
    assert by_record[("2097", "Zbyněk Werner")]["kind"] == "natural_person"
    assert "9" not in records  # GORDIC spol. s r.o. for the Liberec region
    assert all(r["link"].startswith("https://smlouvy.gov.cz/smlouva/") for r in listed)
    only = StringIO()
    call_command("registry_audit_dump", str(shared_data / "registry" / "dump_2016_07.xml"), ico="70891508", stdout=only)
    assert only.getvalue().startswith("155 records, ")
