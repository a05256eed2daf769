"""Set the demo agency's registry channel for the quick start: with ``--databox LOGIN:PASSWORD``
the data-box channel on the test environment (``REDACTOR_DATABOX_URL_TEST``, where
``bin/start`` runs the project's data-box test server when ``REDACTOR_DEMO_DATABOX=1``), so a
contract goes to a registry and comes back registered end to end; without it the package
channel again if the agency was on that demo box. Prints which. Run after ``manage.py demo``.

``--open-data DIR`` only writes the demo agency's invented month of the registry's open data into
``DIR`` (:mod:`registry.demo`), as the registry serves it from ``REDACTOR_REGISTRY_OPEN_DATA_URL``;
``bin/start`` serves it there before the workers start."""

from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from accounts.management.commands.demo import DEMO_AGENCY
from accounts.models import Agency, Membership, Role
from registry import services as registry
from registry.demo import DEMO_MONTH, write_demo_month

#: The login bin/start gives the demo agency's box on the data-box test server.
DEMO_DATABOX_LOGIN = "demo"


class Command(BaseCommand):
    help = "Put the demo agency on the data-box test server (--databox LOGIN:PASSWORD) or on the package channel."

    def add_arguments(self, parser):
        parser.add_argument("--databox", metavar="LOGIN:PASSWORD", help="the demo agency's box on the test server")
        parser.add_argument(
            "--open-data", metavar="DIR", type=Path, help="write the demo month of the registry's open data into DIR"
        )

    def handle(self, *args, databox=None, open_data=None, **options):
        if open_data is not None:
            write_demo_month(
                open_data,
                settings.REDACTOR_REGISTRY_OPEN_DATA_URL,
                ico=DEMO_AGENCY["ico"],
                data_box=DEMO_AGENCY["data_box_id"],
                name=DEMO_AGENCY["name"],
            )
            return
        agency = Agency.objects.filter(ico=DEMO_AGENCY["ico"]).first()
        if agency is None:
            raise CommandError("Run manage.py demo first: there is no demo agency.")
        admin = Membership.objects.filter(agency=agency, role=Role.ADMIN).select_related("user").first()
        user = admin.user if admin else get_user_model().objects.get(username="spravce")
        if settings.REDACTOR_REGISTRY_OPEN_DATA_URL.startswith("http://127.0.0.1"):  # bin/start's own
            self.stdout.write(
                f"Records published before: the demo agency's month {DEMO_MONTH:%Y-%m} of the registry's open data "
                f"at {settings.REDACTOR_REGISTRY_OPEN_DATA_URL} (Zveřejněné záznamy: import it, audit, correct)"
            )
        current = registry.registry_settings(agency)
        kept = {"unit": current.unit, "address": current.address, "confirmation_email": current.confirmation_email}
        if databox:
            login, _, password = databox.partition(":")
            registry.registry_settings_update(
                agency=agency, user=user, channel="databox", environment="test", login=login, password=password, **kept
            )
            self.stdout.write(
                f"Registry of contracts: the demo agency sends through data box {agency.data_box_id} to the test "
                f"server at {settings.REDACTOR_DATABOX_URL_TEST}; replies are read every "
                f"{settings.REDACTOR_REGISTRY_POLL_SECONDS} s"
            )
            return
        if current.channel == "databox" and current.environment == "test" and current.login == DEMO_DATABOX_LOGIN:
            registry.registry_settings_update(
                agency=agency, user=user, channel="package", environment="test", login="", password="", **kept
            )
        if registry.registry_settings(agency).channel == "package":
            self.stdout.write(
                "Registry of contracts: the demo agency downloads submission packages for its own records system "
                "(REDACTOR_DEMO_DATABOX=1 ./bin/start sends them to a test registry instead)"
            )
