"""Open the configured database and say in one sentence what to do when that fails (``bin/setup``
runs it before ``migrate``, so a mistyped ``DATABASE_URL`` or a database nobody created is named,
not shown as a traceback)."""

import os
from urllib.parse import urlsplit, urlunsplit

from django.core.management.base import BaseCommand, CommandError
from django.db import OperationalError, connections


def _shown(url: str) -> str:
    """``url`` without its password."""
    parts = urlsplit(url)
    if parts.password:
        netloc = parts.netloc.replace(f":{parts.password}@", ":…@")
        return urlunsplit(parts._replace(netloc=netloc))
    return url


class Command(BaseCommand):
    help = "Check that the database in DATABASE_URL can be opened; exit 1 with what to do if not."

    def handle(self, *args, **options):
        connection = connections["default"]
        try:
            connection.ensure_connection()
        except OperationalError as exc:
            url = _shown(os.environ.get("DATABASE_URL", "the default SQLite file in var/"))
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            name = connection.settings_dict.get("NAME")
            advice = (
                f"create it (for PostgreSQL: createdb {name}) or correct DATABASE_URL"
                if "does not exist" in first
                else "check that the server runs and that DATABASE_URL names its host, port, user and database"
            )
            message = f"The database in DATABASE_URL ({url}) cannot be opened: {first}. Fix: {advice}."
            raise CommandError(message) from None
        finally:
            connection.close()
        self.stdout.write(f"Database: {connection.vendor} {connection.settings_dict.get('NAME')} opens.")
