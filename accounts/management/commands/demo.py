"""Create (or reset) the demo agency with a clerk, a reviewer and an agency admin, and print their logins."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from accounts.models import Agency, Membership, Role
from accounts.services import agency_create, member_add

DEMO_AGENCY = {"name": "Obec Horní Lhota (demo)", "ico": "00000001", "data_box_id": "demo123"}
DEMO_USERS = [("urednik", Role.CLERK), ("kontrolor", Role.REVIEWER), ("spravce", Role.ADMIN)]
DEMO_PASSWORD = "demo-heslo-2026"


class Command(BaseCommand):
    help = "Create the demo agency and users (idempotent) and print the logins."

    def add_arguments(self, parser):
        parser.add_argument("--url", default="http://127.0.0.1:8000/", help="URL to print")

    @transaction.atomic
    def handle(self, *args, url, **options):
        agency = Agency.objects.filter(ico=DEMO_AGENCY["ico"]).first() or agency_create(**DEMO_AGENCY)
        User = get_user_model()
        for username, role in DEMO_USERS:
            user = User.objects.filter(username=username).first()
            if user is None:
                member_add(
                    agency=agency,
                    username=username,
                    email=f"{username}@example.invalid",
                    role=role,
                    password=DEMO_PASSWORD,
                )
            else:
                user.set_password(DEMO_PASSWORD)
                user.save(update_fields=["password"])
                Membership.objects.update_or_create(agency=agency, user=user, defaults={"role": role})
        self.stdout.write(f"Redactor is running at {url}")
        self.stdout.write(f"Demo agency: {agency.name} (IČO {agency.ico})")
        for username, role in DEMO_USERS:
            self.stdout.write(f"  {role.label:<13} {username} / {DEMO_PASSWORD}")
