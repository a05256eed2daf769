"""Backup and restore of a whole installation: the database (every app's rows, as Django's
portable JSON: a SQLite backup restores into PostgreSQL and back), the files the database names
(originals, published PDFs and texts, analysed documents, each checked against its SHA-256), and
the keys that sign sessions and seal stored passwords (``SECRET_KEY``, ``REDACTOR_SECRETS_KEY``),
in one tar file readable by its owner only. ``manage.py backup`` and ``manage.py restore`` are
its doors; docs/operations/backup.md says when to use them.

A restore goes into a freshly migrated, empty database (no agency yet) and never overwrites a
file the storage already holds with other content: an original is never replaced."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.core.files.storage import Storage, default_storage
from django.core.management import call_command
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Agency

from .files import referenced_files

#: The backup's layout version (``manifest.json``'s ``format``).
FORMAT = 1
#: Rows a restore recreates by itself or that mean nothing elsewhere: content types and
#: permissions (rebuilt by ``migrate``, referred to by natural keys), sessions, login-attempt logs,
#: the RQ dashboard (a model without a table).
EXCLUDED = ["contenttypes", "auth.permission", "sessions", "axes", "django_rq"]


@dataclass
class BackupReport:
    """What a backup wrote or a restore read: ``rows`` of the database, ``files`` and their
    ``bytes``; ``missing`` files the database names that the storage did not have."""

    rows: int
    files: int
    bytes: int
    missing: list[str]


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def backup_write(path: Path, *, storage: Storage = default_storage) -> BackupReport:
    """Write the installation's backup to ``path`` (a tar file with mode 0600). A file the
    database names but the storage lacks is reported in ``missing``, not fatal; one whose content
    differs from the SHA-256 taken at upload raises ``ValidationError`` (a damaged original is
    not backed up as if it were sound).

    The backup is written to a new file beside ``path`` (mode 0600 from its creation) and renamed
    onto ``path`` only when complete: an existing file there is replaced, never written through,
    so its mode is not kept and a symbolic link at ``path`` is replaced, not followed; a failed
    backup leaves what was there."""
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as out:
            report = _write(out, storage)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return report


def _write(out: BinaryIO, storage: Storage) -> BackupReport:
    """The backup's tar written to ``out`` (see :func:`backup_write`)."""
    dump = io.StringIO()
    call_command("dumpdata", natural_foreign=True, exclude=EXCLUDED, stdout=dump)
    database = dump.getvalue().encode("utf-8")
    rows = len(json.loads(database))
    manifest: dict = {"format": FORMAT, "created_at": timezone.now().isoformat(), "files": {}}
    missing: list[str] = []
    size = 0
    with tarfile.open(fileobj=out, mode="w") as tar:
        _add(tar, "database.json", database)
        secrets = {"SECRET_KEY": settings.SECRET_KEY, "REDACTOR_SECRETS_KEY": settings.REDACTOR_SECRETS_KEY}
        _add(tar, "secrets.json", json.dumps(secrets).encode())
        for name, expected in sorted(referenced_files().items()):
            if not storage.exists(name):
                missing.append(name)
                continue
            with storage.open(name, "rb") as fh:
                data = fh.read()
            digest = _sha256(data)
            if expected and digest != expected:
                raise ValidationError(
                    _("The file %(name)s differs from the one uploaded (its SHA-256 changed); nothing was backed up.")
                    % {"name": name}
                )
            manifest["files"][name] = digest
            _add(tar, f"files/{name}", data)
            size += len(data)
        manifest["rows"], manifest["missing"] = rows, missing
        _add(tar, "manifest.json", json.dumps(manifest, indent=1).encode())
    return BackupReport(rows, len(manifest["files"]), size, missing)


def _add(tar: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size, info.mode, info.mtime = len(data), 0o600, int(timezone.now().timestamp())
    tar.addfile(info, io.BytesIO(data))


def backup_restore(path: Path, *, storage: Storage = default_storage) -> tuple[BackupReport, dict[str, str]]:
    """Restore the backup at ``path`` into this installation's freshly migrated, empty database
    and its storage; returns the report and the backup's keys (``SECRET_KEY``,
    ``REDACTOR_SECRETS_KEY``), which the caller puts in place. Raises ``ValidationError`` when the
    database already holds an agency, the file is no backup of this format, a file's SHA-256
    differs from the manifest's, or the storage holds a file of the same name with other
    content. Files are checked before anything is written."""
    if Agency.objects.exists():
        raise ValidationError(_("The database already holds agencies: restore into a new, freshly migrated database."))
    manifest, database, secrets, files = _open_backup(path, storage)
    with tempfile.TemporaryDirectory() as folder:
        fixture = Path(folder) / "database.json"
        fixture.write_bytes(database)
        with transaction.atomic():
            call_command("loaddata", str(fixture), verbosity=0)
    written = 0
    for name, data in files.items():
        if not storage.exists(name):
            saved = storage.save(name, ContentFile(data))
            if saved != name:  # a storage that renamed it would break the database's reference
                raise ValidationError(_("The storage renamed %(name)s to %(saved)s.") % {"name": name, "saved": saved})
            written += len(data)
    report = BackupReport(int(manifest.get("rows", 0)), len(files), written, list(manifest.get("missing", [])))
    return report, {k: v for k, v in secrets.items() if v}


def _open_backup(path: Path, storage: Storage) -> tuple[dict, bytes, dict, dict[str, bytes]]:
    """The backup's manifest, database, keys and files, each file checked against the manifest's
    SHA-256 and against a file of the same name the storage already holds."""
    try:
        tar = tarfile.open(path, mode="r")
    except (OSError, tarfile.TarError) as exc:
        raise ValidationError(_("The file is not a backup of this service.")) from exc
    with tar:
        try:
            manifest = json.loads(_read(tar, "manifest.json"))
            database = _read(tar, "database.json")
            secrets = json.loads(_read(tar, "secrets.json"))
        except (KeyError, ValueError) as exc:
            raise ValidationError(_("The file is not a backup of this service.")) from exc
        if manifest.get("format") != FORMAT:
            raise ValidationError(
                _("The backup was written in another format (%(f)s).") % {"f": manifest.get("format")}
            )
        files: dict[str, bytes] = {}
        for name, digest in manifest["files"].items():
            data = _read(tar, f"files/{name}")
            if _sha256(data) != digest:
                raise ValidationError(
                    _("The backup's copy of %(name)s is damaged; nothing was restored.") % {"name": name}
                )
            if storage.exists(name):
                with storage.open(name, "rb") as fh:
                    if _sha256(fh.read()) != digest:
                        raise ValidationError(
                            _("The storage already holds another %(name)s; nothing was restored.") % {"name": name}
                        )
            files[name] = data
    return manifest, database, secrets, files


def _read(tar: tarfile.TarFile, name: str) -> bytes:
    member = tar.extractfile(name)
    if member is None:
        raise KeyError(name)
    return member.read()
