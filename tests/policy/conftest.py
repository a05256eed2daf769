"""Fixtures of the policy app's tests (the tenants are a plugin, ``tests/plugins/tenants.py``): a
contract whose people and places appear in several inflected forms, and a worker for the map
preview's jobs."""

from __future__ import annotations

import django_rq
import pytest
from rq import SimpleWorker

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


@pytest.fixture
def preview_worker():
    """Runs the queued map-preview jobs: real RQ on the test Redis, in this process (a
    ``SimpleWorker`` in burst mode), so the job sees the test's database transaction."""
    queue = django_rq.get_queue("low")  # owned jobs: the low-priority queue
    queue.empty()

    def run() -> None:
        SimpleWorker([queue], connection=queue.connection).work(burst=True)

    yield run
    queue.empty()
