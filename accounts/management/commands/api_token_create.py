"""Create an API token for an agency from the command line (for operators); prints it once."""

from datetime import datetime, time

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from accounts.models import Agency, Role
from accounts.services import api_token_create


class Command(BaseCommand):
    help = "Create an API token for the agency with the given IČO and print it (it is not shown again)."

    def add_arguments(self, parser):
        parser.add_argument("--ico", required=True, help="the agency's IČO")
        parser.add_argument("--name", required=True, help="what the token is for, e.g. the DMS's name")
        parser.add_argument("--role", choices=Role.values, default=Role.CLERK)
        parser.add_argument("--expires", help="last day before expiry, YYYY-MM-DD (the token stops at its start)")

    def handle(self, *args, ico, name, role, expires, **options):
        agency = Agency.objects.filter(ico=ico).first()
        if agency is None:
            raise CommandError(f"no agency with IČO {ico}")
        expires_at = None
        if expires:
            try:
                expires_at = timezone.make_aware(
                    datetime.combine(datetime.strptime(expires, "%Y-%m-%d").date(), time.min)
                )
            except ValueError as exc:
                raise CommandError(f"--expires: {exc}") from None
        try:
            _, raw = api_token_create(agency=agency, name=name, role=role, created_by=None, expires_at=expires_at)
        except ValidationError as exc:
            raise CommandError("; ".join(exc.messages)) from None
        self.stdout.write(raw)
