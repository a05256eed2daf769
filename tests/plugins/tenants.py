"""Fixtures of the tenants, as a plugin (``tests/conftest.py``'s ``pytest_plugins``): three parties
for every view (after healthchecks' alice/bob/charlie), members of agency A with each role and an
outsider who administers agency B, and a contract uploaded, processed and published through the
real services and the real engine. The helpers (:func:`member`, :func:`logged_in`,
:func:`run_latest_job`) are imported from here."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import Role
from contracts.models import Contract, Run, Status
from contracts.services import processing, publishing, runs, uploads
from tests.factories import AgencyFactory, MembershipFactory
from tests.pdfs import pdf_from_paragraphs

CONTRACT_TEXT = [
    "Kupní smlouva č. 2026/15",
    "Prodávající: Jan Novák, nar. 3. 4. 1975, rodné číslo 750403/1238, bytem Lipová 12, 602 00 Brno",
    "Kupující: Obec Horní Lhota, IČO: 00000001, se sídlem Náměstí 1, 679 01 Horní Lhota",
    "Kupní cena 120 000 Kč bude zaplacena na účet prodávajícího č. 19-2000145399/0800.",
    "Prodávající Jan Novák prohlašuje, že předmět koupě nemá právní vady.",
]


@pytest.fixture
def contract_pdf() -> bytes:
    """A one-page sale contract with a private seller (name, birth number, address, account)."""
    return pdf_from_paragraphs(CONTRACT_TEXT)


@pytest.fixture
def agency(db):
    return AgencyFactory(name="Obec Horní Lhota")


@pytest.fixture
def other_agency(db):
    return AgencyFactory(name="Město Dolní Lhota")


def member(agency, role):
    """A new user with ``role`` in ``agency``."""
    return MembershipFactory(agency=agency, role=role).user


@pytest.fixture
def clerk(agency):
    return member(agency, Role.CLERK)


@pytest.fixture
def reviewer(agency):
    return member(agency, Role.REVIEWER)


@pytest.fixture
def admin_user(agency):
    return member(agency, Role.ADMIN)


@pytest.fixture
def outsider(other_agency):
    """An agency admin of another agency: the strongest role, in the wrong tenant."""
    return member(other_agency, Role.ADMIN)


def logged_in(user) -> Client:
    """A test client with ``user`` logged in (no password checked)."""
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


@pytest.fixture
def uploaded(agency, clerk, contract_pdf) -> Contract:
    """A contract uploaded by the clerk (its processing job is not run)."""
    return uploads.contract_upload(
        agency=agency, user=clerk, data=contract_pdf, filename="kupni-smlouva.pdf", title="Kupní smlouva 2026/15"
    )


def run_latest_job(contract: Contract) -> None:
    """Run the contract's latest queued job in this process (the job body a worker would run)."""
    run = runs.run_claim(Run.objects.filter(contract=contract).order_by("-id").first().pk)
    assert run is not None, "the contract's latest run is not queued"
    if run.kind == Run.Kind.PROCESSING:
        processing.contract_process(run=run)
    else:
        publishing.contract_publish(run=run)
    contract.refresh_from_db()


@pytest.fixture
def processed(uploaded) -> Contract:
    """The uploaded contract after processing by the real engine (status needs_review)."""
    run_latest_job(uploaded)
    return uploaded


@pytest.fixture
def published(processed, reviewer) -> Contract:
    """The processed contract approved by the reviewer and published (the publishing job run here)."""
    publishing.contract_approve(contract=processed, user=reviewer)
    run_latest_job(processed)
    assert processed.status == Status.PUBLISHED, processed.error_message
    return processed
