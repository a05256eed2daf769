"""The quick start's registry: ``manage.py registry_demo --databox`` puts the demo agency on the
data-box test server (bin/start with REDACTOR_DEMO_DATABOX=1), and without it back on the package
channel; a contract of the demo agency then goes to the test registry and comes back registered."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from accounts.management.commands.demo import DEMO_AGENCY
from accounts.models import Agency
from contracts.models import Status
from contracts.services import publishing, uploads
from registry import services as registry
from tests.conftest import DATA
from tests.databox_server import DataBoxServer
from tests.plugins.tenants import run_latest_job


def _run(*args) -> str:
    out = io.StringIO()
    call_command("registry_demo", *args, stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_the_demo_agency_sends_to_the_test_registry_and_back_to_packages(settings):
    with pytest.raises(CommandError):
        _run()  # no demo agency yet
    call_command("demo", stdout=io.StringIO())
    agency = Agency.objects.get(ico=DEMO_AGENCY["ico"])
    assert registry.registry_settings(agency).channel == "package"
    server = DataBoxServer(registry_box=settings.REDACTOR_REGISTRY_DATABOX)
    server.add_box(agency.data_box_id, "demo", "demo-heslo")
    settings.REDACTOR_DATABOX_URL_TEST = server.start()
    try:
        assert "data box demo123" in _run("--databox", "demo:demo-heslo")
        regs = registry.registry_settings(agency)
        assert (regs.channel, regs.environment, regs.login) == ("databox", "test", "demo")
        reviewer = agency.memberships.get(role="reviewer").user
        contract = uploads.contract_upload(agency=agency, user=reviewer, filename="dilo_firma_1.pdf", title="Dílo",
                                           data=(DATA / "dev" / "dilo_firma_1.pdf").read_bytes())  # fmt: skip
        run_latest_job(contract)
        for p in contract.proposals.filter(suggestion="review", decision="pending"):
            p.decision = "accepted"
            p.save(update_fields=["decision"])
        publishing.contract_approve(contract=contract, user=reviewer)
        run_latest_job(contract)
        submission = registry.registry_submit(contract=contract, user=reviewer)
        registry.registry_submission_send(submission_id=submission.pk)
        assert registry.registry_replies_fetch(agency=agency) == 1
        contract.refresh_from_db()
        assert contract.status == Status.REGISTERED and contract.registry_record.record_id in server.records
    finally:
        server.stop()
    assert "packages" in _run()
    regs = registry.registry_settings(agency)
    assert (regs.channel, regs.login, regs.password_sealed) == ("package", "", "")


def test_the_data_box_hosts_are_those_of_the_2026_notice():
    """ISDS "Informace pro vývojáře aplikací – červen 2026" (v1.1): test at datovka-test.gov.cz
    since 29 January 2026, production at datovka.gov.cz since 25 June 2026."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith("REDACTOR_DATABOX_URL")}
    env.setdefault("SECRET_KEY", "x")
    code = (
        "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings'); django.setup();"
        "from django.conf import settings as s; print(s.REDACTOR_DATABOX_URL_TEST, s.REDACTOR_DATABOX_URL_PRODUCTION)"
    )
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["https://ws1.datovka-test.gov.cz/DS/", "https://ws1.datovka.gov.cz/DS/"]
