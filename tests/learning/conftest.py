"""Fixtures for the learning tests (the tenants are a plugin, ``tests/plugins/tenants.py``): a
contract whose people and places appear in several inflected forms."""

from __future__ import annotations

import pytest

from contracts.services import uploads
from tests.pdfs import pdf_from_paragraphs
from tests.plugins.tenants import run_latest_job

INFLECTED_TEXT = [
    "Kupní smlouva č. 2026/16",
    "Prodávající: Jan Novák, nar. 3. 4. 1975, rodné číslo 750403/1238, bytem Lipová 12, 602 00 Brno",
    "Kupující: Obec Horní Lhota, IČO: 00000001, se sídlem Náměstí 1, 679 01 Horní Lhota, kontakt Xaver Qwertz",
    "Kupní cena 120 000 Kč bude zaplacena na účet prodávajícího č. 19-2000145399/0800.",
    "Janu Novákovi bude kupní cena uhrazena do 10 dnů. Panem Novákem podepsaný předávací protokol je přílohou.",
    "Vozidlo převezme v Horní Lhotě technik obce z Horní Lhoty.",
]


@pytest.fixture
def inflected_pdf() -> bytes:
    return pdf_from_paragraphs(INFLECTED_TEXT)


def process(owner, user, data: bytes, title: str = "Kupní smlouva 2026/16"):
    """Upload ``data`` for agency ``owner`` and run its processing job here (the real engine)."""
    contract = uploads.contract_upload(agency=owner, user=user, data=data, filename=f"{title}.pdf", title=title)
    run_latest_job(contract)
    return contract
