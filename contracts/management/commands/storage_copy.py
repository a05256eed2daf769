"""``manage.py storage_copy [--from DIR] [--quiet]``

Moves an installation's files from local disk into the storage the settings now choose (a bucket
with ``REDACTOR_STORAGE=s3``, config.storage): every file under ``DIR`` (default ``MEDIA_ROOT``) is
copied under the same name, read back and compared by SHA-256 (an original also with the hash
taken at upload), and the database's files are checked to be all there. Resumable: run it again
after an interruption or a failure, and it copies only what is not there yet with the same hash;
a second run over a finished move copies nothing. The source is left as it was; delete it once the
service runs on the bucket. Exit status 1 if a file failed or the database names one the target
lacks.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.files.storage import FileSystemStorage, default_storage
from django.core.management.base import BaseCommand, CommandError

from contracts.services.files import storage_copy


class Command(BaseCommand):
    help = (
        "Copy every file under --from (default MEDIA_ROOT) into the configured storage (REDACTOR_STORAGE=s3: "
        "the bucket), verifying each copy by SHA-256. Resumable; a second run copies nothing. Exit status 1 on "
        "any failed or missing file."
    )

    def add_arguments(self, parser):
        parser.add_argument("--from", dest="source", metavar="DIR", help="the old media folder (default MEDIA_ROOT)")
        parser.add_argument("--quiet", action="store_true", help="print only the summary and the failures")

    def handle(self, *args, **options):
        source_dir = Path(options["source"] or settings.MEDIA_ROOT).resolve()
        if not source_dir.is_dir():
            raise CommandError(f"{source_dir} is not a folder")
        if isinstance(default_storage, FileSystemStorage) and Path(default_storage.location).resolve() == source_dir:
            raise CommandError(
                "The storage is still this folder: set REDACTOR_STORAGE=s3 and the bucket's AWS_* variables first"
            )

        def progress(name: str, outcome: str) -> None:
            if outcome == "failed" or not options["quiet"]:
                self.stdout.write(f"{outcome:8} {name}")

        report = storage_copy(source=FileSystemStorage(location=source_dir), target=default_storage, progress=progress)
        for name, reason in report.failed.items():
            self.stderr.write(f"FAILED {name}: {reason}")
        for name in report.missing:
            self.stderr.write(f"MISSING {name}: the database names it, the storage does not hold it")
        self.stdout.write(
            f"copied {len(report.copied)}, already there {len(report.present)}, failed {len(report.failed)}, "
            f"missing {len(report.missing)}"
        )
        if not report.ok:
            raise SystemExit(1)
