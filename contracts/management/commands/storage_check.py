"""``manage.py storage_check [--create-bucket]``

Checks the file storage the settings choose before the service relies on it: writes a probe file,
reads it back, compares it and deletes it. With ``REDACTOR_STORAGE=s3`` it names the bucket and
endpoint, says whether the server encrypted the probe, and with ``--create-bucket`` makes a bucket
that does not exist yet (``compose.yaml``'s first start). Exit status 1 with the reason when the
storage cannot be used. ``bin/start`` runs it when ``REDACTOR_STORAGE=s3``.
"""

from __future__ import annotations

import secrets

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.management.base import BaseCommand, CommandError

PROBE_DIR = "probes"


class Command(BaseCommand):
    help = "Write, read back and delete a probe file in the configured storage; exit status 1 if it cannot be used."

    def add_arguments(self, parser):
        parser.add_argument("--create-bucket", action="store_true", help="make the S3 bucket if it does not exist")

    def handle(self, *args, **options):
        connection = getattr(default_storage, "connection", None)  # S3Storage only
        where = f"local disk at {getattr(default_storage, 'location', '?')}"
        if connection is not None:
            from botocore.exceptions import BotoCoreError, ClientError  # noqa: PLC0415

            client = connection.meta.client
            bucket = default_storage.bucket_name
            where = f"S3 bucket {bucket} at {client.meta.endpoint_url}"
            try:
                client.head_bucket(Bucket=bucket)
            except ClientError as exc:
                if exc.response["Error"]["Code"] not in ("404", "NoSuchBucket"):
                    raise CommandError(f"{where}: {exc}") from exc
                if not options["create_bucket"]:
                    raise CommandError(
                        f"{where} does not exist: make it, or run storage_check --create-bucket"
                    ) from exc
                client.create_bucket(Bucket=bucket)
                self.stdout.write(f"created the bucket {bucket}")
            except BotoCoreError as exc:
                raise CommandError(f"{where}: {exc}") from exc
        content = secrets.token_bytes(64)
        try:
            name = default_storage.save(f"{PROBE_DIR}/{secrets.token_hex(8)}.bin", ContentFile(content))
            with default_storage.open(name, "rb") as fh:
                same = fh.read() == content
            encryption = ""
            if connection is not None:
                head = connection.meta.client.head_object(
                    Bucket=default_storage.bucket_name, Key=default_storage._normalize_name(name)
                )
                encryption = f", server-side encryption {head.get('ServerSideEncryption') or 'none'}"
            default_storage.delete(name)
        except Exception as exc:  # any failure of the storage is the answer this command gives
            raise CommandError(f"{where}: {type(exc).__name__}: {exc}") from exc
        if not same:
            raise CommandError(f"{where}: the probe read back differs from what was written")
        self.stdout.write(f"storage ok: {where}{encryption}")
