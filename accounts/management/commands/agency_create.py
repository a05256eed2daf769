"""``manage.py agency_create``: a new agency (tenant) and the invitation of its first agency admin,
whose link is printed (and mailed to the address) — the operator's way to add an agency without
the Django admin."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils.translation import gettext as _

from accounts.mail import send_invitation
from accounts.models import Role
from accounts.services import agency_create, invitation_create


class Command(BaseCommand):
    help = "Create an agency and invite its first agency admin; prints the invitation link."

    def add_arguments(self, parser):
        parser.add_argument("--name", required=True, help="the agency's name, e.g. Obec Horní Lhota")
        parser.add_argument("--ico", required=True, help="its IČO (8 digits)")
        parser.add_argument("--data-box", default="", help="its data box ID (7 characters)")
        parser.add_argument("--admin-email", required=True, help="the first agency admin's e-mail address")
        parser.add_argument(
            "--url", default="", help="the service's address for the link (default: REDACTOR_PUBLIC_URL)"
        )

    def handle(self, *args, name, ico, data_box, admin_email, url, **options):
        base = (url or settings.REDACTOR_PUBLIC_URL).rstrip("/")
        if not base:
            raise CommandError(
                "Give --url or set REDACTOR_PUBLIC_URL: the invitation link needs the service's address."
            )
        try:
            with transaction.atomic():
                agency = agency_create(name=name, ico=ico, data_box_id=data_box)
                invitation, raw = invitation_create(agency=agency, email=admin_email, role=Role.ADMIN, by=None)
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from None
        link = send_invitation(invitation, raw, admin=_("The service's operator"), base_url=base)
        days = settings.REDACTOR_INVITATION_DAYS
        self.stdout.write(f"Agency {agency.name} (IČO {agency.ico}) created.")
        self.stdout.write(f"Invitation of its agency admin {invitation.email} (valid {days} days): {link}")
