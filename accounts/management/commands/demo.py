"""Create (or reset) the demo agency with a clerk, a reviewer and an agency admin, and print their logins
and the demo API token. A token is shown only once, so without ``--token-file`` a fresh one replaces
the previous demo token; with it (``bin/start``: ``var/demo_token``, readable by this user only)
the token printed last time is printed again while it is valid, and the demo users' passwords are
left alone, so a restart logs nobody out and breaks no integration."""

import os
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from accounts.models import Agency, Membership, Role
from accounts.selectors import api_token_authenticate
from accounts.services import agency_create, api_token_create, api_token_revoke, member_create

DEMO_AGENCY = {"name": "Obec Horní Lhota (demo)", "ico": "00000001", "data_box_id": "demo123"}
DEMO_USERS = [("urednik", Role.CLERK), ("kontrolor", Role.REVIEWER), ("spravce", Role.ADMIN)]
DEMO_PASSWORD = "demo-heslo-2026"
DEMO_TOKEN_NAME = "Demo spisová služba"


class Command(BaseCommand):
    help = "Create the demo agency and users (idempotent) and print the logins."

    def add_arguments(self, parser):
        parser.add_argument("--url", default="http://127.0.0.1:8000/", help="URL to print")
        parser.add_argument(
            "--token-file", type=Path, help="keep the demo API token in this file and print it again while it is valid"
        )

    @transaction.atomic
    def handle(self, *args, url, token_file=None, **options):
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
            elif not user.check_password(DEMO_PASSWORD):  # a new password would end the user's sessions
                user.set_password(DEMO_PASSWORD)
                user.save(update_fields=["password"])
                Membership.objects.update_or_create(agency=agency, user=user, defaults={"role": role})
        raw_token = _kept_token(token_file, agency)
        if raw_token is None:
            for old in agency.api_tokens.filter(name=DEMO_TOKEN_NAME, revoked_at__isnull=True):
                api_token_revoke(token=old, revoked_by=None)
            _, raw_token = api_token_create(
                agency=agency, name=DEMO_TOKEN_NAME, role=Role.REVIEWER, created_by=User.objects.get(username="spravce")
            )
            if token_file is not None:
                token_file.parent.mkdir(parents=True, exist_ok=True)
                fd = os.open(token_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                with os.fdopen(fd, "w") as out:
                    out.write(raw_token + "\n")
        self.stdout.write(f"Redactor is running at {url}")
        self.stdout.write(f"Demo agency: {agency.name} (IČO {agency.ico})")
        for username, role in DEMO_USERS:
            self.stdout.write(f"  {role.label:<13} {username} / {DEMO_PASSWORD}")
        self.stdout.write(f"API docs: {url}api/v1/docs/")
        self.stdout.write(f"Demo API token (reviewer role): {raw_token}")
        self.stdout.write(f"  export REDACTOR_TOKEN={raw_token}")


def _kept_token(token_file: Path | None, agency: Agency) -> str | None:
    """The raw demo token kept in ``token_file`` if it is still the agency's usable demo token."""
    if token_file is None or not token_file.exists():
        return None
    raw = token_file.read_text().strip()
    token = api_token_authenticate(raw=raw)
    if token is None or token.agency_id != agency.pk or token.name != DEMO_TOKEN_NAME:
        return None
    return raw if token.revoked_at is None and token.is_usable() else None
