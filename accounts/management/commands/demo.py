"""Create (or reset) the demo agency with a clerk, a reviewer and an agency admin, and print their logins
and a fresh API token (the previous demo token is revoked: a token is shown only once)."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from accounts.models import Agency, Membership, Role
from accounts.services import agency_create, api_token_create, api_token_revoke, member_create

DEMO_AGENCY = {"name": "Obec Horní Lhota (demo)", "ico": "00000001", "data_box_id": "demo123"}
DEMO_USERS = [("urednik", Role.CLERK), ("kontrolor", Role.REVIEWER), ("spravce", Role.ADMIN)]
DEMO_PASSWORD = "demo-heslo-2026"
DEMO_TOKEN_NAME = "Demo spisová služba"


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
                member_create(
                    agency=agency,
                    username=username,
                    email=f"{username}@example.invalid",
                    role=role,
                    by=None,
                    password=DEMO_PASSWORD,
                )
            else:
                user.set_password(DEMO_PASSWORD)
                user.save(update_fields=["password"])
                Membership.objects.update_or_create(agency=agency, user=user, defaults={"role": role})
        for old in agency.api_tokens.filter(name=DEMO_TOKEN_NAME, revoked_at__isnull=True):
            api_token_revoke(token=old, revoked_by=None)
        _, raw_token = api_token_create(
            agency=agency, name=DEMO_TOKEN_NAME, role=Role.REVIEWER, created_by=User.objects.get(username="spravce")
        )
        self.stdout.write(f"Redactor is running at {url}")
        self.stdout.write(f"Demo agency: {agency.name} (IČO {agency.ico})")
        for username, role in DEMO_USERS:
            self.stdout.write(f"  {role.label:<13} {username} / {DEMO_PASSWORD}")
        self.stdout.write(f"API docs: {url}api/v1/docs/")
        self.stdout.write(f"Demo API token (reviewer role): {raw_token}")
        self.stdout.write(f"  export REDACTOR_TOKEN={raw_token}")
