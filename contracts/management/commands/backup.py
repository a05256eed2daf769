"""``manage.py backup FILE``: the whole installation (database, files, keys) in one tar file
(:func:`contracts.services.backup.backup_write`). The file holds personal data and the keys:
keep it as safe as the database itself."""

from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from contracts.services.backup import backup_write


class Command(BaseCommand):
    help = "Back up the database, the files it names and the keys into one tar file (mode 0600)."

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help="the tar file to write")

    def handle(self, *args, file, **options):
        try:
            report = backup_write(file)
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from None
        self.stdout.write(f"{file}: {report.rows} database rows, {report.files} files ({report.bytes:,} bytes).")
        for name in report.missing:
            self.stderr.write(f"missing from the storage, not backed up: {name}")
