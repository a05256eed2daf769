"""``manage.py restore FILE``: a backup of ``manage.py backup`` into a new installation — run
``manage.py migrate`` on the new, empty database first (before ``bin/start`` creates the demo
agency), then this, then start the service. The backup's ``SECRET_KEY`` goes to
``SECRET_KEY_FILE`` (the quick start's ``var/secret_key``; the file it replaces is kept beside it)
unless the environment sets ``SECRET_KEY``; its ``REDACTOR_SECRETS_KEY``, if any, is printed for
the operator to set."""

import os
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from contracts.services.backup import backup_restore


class Command(BaseCommand):
    help = "Restore a backup into a freshly migrated, empty database and its storage."

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help="the tar file manage.py backup wrote")

    def handle(self, *args, file, **options):
        try:
            report, keys = backup_restore(file)
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from None
        self.stdout.write(
            f"restored {report.rows} database rows and {report.files} files ({report.bytes:,} bytes written)."
        )
        key = keys.get("SECRET_KEY", "")
        if key and key != settings.SECRET_KEY:
            self._put_secret_key(key)
        if keys.get("REDACTOR_SECRETS_KEY") and keys["REDACTOR_SECRETS_KEY"] != settings.REDACTOR_SECRETS_KEY:
            self.stderr.write("Set REDACTOR_SECRETS_KEY to the backup's (secrets.json in the backup) before starting.")

    def _put_secret_key(self, key: str) -> None:
        """Write ``key`` to ``SECRET_KEY_FILE`` (keeping the file it replaces), or ask for it."""
        if os.environ.get("SECRET_KEY"):
            self.stderr.write("Set SECRET_KEY to the backup's key (secrets.json in the backup) before starting.")
            return
        target = Path(settings.SECRET_KEY_FILE)
        if target.exists():
            target.replace(target.with_name(target.name + ".before-restore"))
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(key + "\n")
        self.stdout.write(f"the backup's SECRET_KEY was written to {target}")
