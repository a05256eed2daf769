"""``manage.py backup`` → ``manage.py restore`` into a new installation: a freshly migrated empty
database of another engine (the tests' PostgreSQL → SQLite), another media folder, another key
file; the same agencies, users, contracts, proposals, rules and files come back, the key that
signs sessions and seals stored passwords too. A restore refuses a database that already holds
agencies, and a damaged backup before it writes anything."""

from __future__ import annotations

import hashlib
import io
import json
import os
import sqlite3
import subprocess
import sys
import tarfile

import pytest
from django.conf import settings
from django.core.files.storage import default_storage
from django.core.management import call_command

from contracts.models import Contract, Proposal
from tests.conftest import ROOT

pytestmark = pytest.mark.django_db


def _manage(*args, env) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )


def _new_installation(tmp_path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "REDACTOR_SECRETS_KEY")}
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'new.sqlite3'}",
        MEDIA_ROOT=str(tmp_path / "media"),
        SECRET_KEY_FILE=str(tmp_path / "secret_key"),
        DEBUG="1",
    )
    (tmp_path / "secret_key").write_text("the new machine's own key\n")
    return env


def test_backup_then_restore_into_a_new_installation(processed, reviewer, tmp_path):
    backup = tmp_path / "redactor.tar"
    call_command("backup", str(backup), stdout=io.StringIO())
    assert backup.stat().st_mode & 0o777 == 0o600
    names = [n for n in (processed.original.name, processed.analysed.name, processed.rebuilt.name) if n]
    digests = {}
    for name in names:
        with default_storage.open(name, "rb") as fh:
            digests[name] = hashlib.sha256(fh.read()).hexdigest()

    env = _new_installation(tmp_path)
    assert _manage("migrate", "--no-input", env=env).returncode == 0
    run = _manage("restore", str(backup), env=env)
    assert run.returncode == 0, run.stderr[-2000:]
    assert f"{len(names)} files" in run.stdout

    db = sqlite3.connect(tmp_path / "new.sqlite3")
    assert db.execute("SELECT COUNT(*) FROM contracts_contract").fetchone()[0] == Contract.objects.count()
    assert db.execute("SELECT COUNT(*) FROM contracts_proposal").fetchone()[0] == Proposal.objects.count()
    assert db.execute("SELECT original_sha256 FROM contracts_contract").fetchone()[0] == processed.original_sha256
    assert db.execute("SELECT username FROM auth_user WHERE id = ?", (reviewer.pk,)).fetchone()[0] == reviewer.username
    for name, digest in digests.items():
        assert hashlib.sha256((tmp_path / "media" / name).read_bytes()).hexdigest() == digest
    assert (tmp_path / "secret_key").read_text().strip() == settings.SECRET_KEY
    assert (tmp_path / "secret_key.before-restore").read_text().strip() == "the new machine's own key"

    again = _manage("restore", str(backup), env=env)  # now the database holds agencies
    assert again.returncode == 1 and "už obsahuje úřady" in again.stderr


def test_a_damaged_backup_restores_nothing(processed, tmp_path):
    backup = tmp_path / "redactor.tar"
    call_command("backup", str(backup), stdout=io.StringIO())
    damaged = tmp_path / "damaged.tar"
    with tarfile.open(backup) as source, tarfile.open(damaged, "w") as target:
        for member in source.getmembers():
            data = source.extractfile(member).read()
            if member.name.startswith("files/originals/"):
                data = data[:-1] + bytes([data[-1] ^ 1])
            target.addfile(member, io.BytesIO(data))
    env = _new_installation(tmp_path)
    assert _manage("migrate", "--no-input", env=env).returncode == 0
    run = _manage("restore", str(damaged), env=env)
    assert run.returncode == 1 and "poškozená" in run.stderr
    db = sqlite3.connect(tmp_path / "new.sqlite3")
    assert db.execute("SELECT COUNT(*) FROM accounts_agency").fetchone()[0] == 0
    assert not (tmp_path / "media").exists() or not any((tmp_path / "media").rglob("*.pdf"))
    manifest = json.loads(tarfile.open(backup).extractfile("manifest.json").read())
    assert manifest["format"] == 1 and manifest["files"]


def test_agency_create_makes_the_agency_and_invites_its_first_admin(client):
    from django.core import mail

    from accounts.models import Agency, Invitation

    out = io.StringIO()
    call_command(
        "agency_create", name="Obec Dolní Bukovina", ico="00000019", admin_email="starosta@example.invalid",
        url="https://redakce.example.cz", stdout=out,
    )  # fmt: skip
    agency = Agency.objects.get(ico="00000019")
    invitation = Invitation.objects.get(agency=agency)
    assert invitation.role == "admin" and invitation.email == "starosta@example.invalid"
    link = out.getvalue().strip().rsplit(" ", 1)[1]
    assert link.startswith("https://redakce.example.cz/accounts/invitation/")
    (message,) = mail.outbox
    assert link in message.body and agency.name in message.subject
    # the link works: the page offers to create the account
    page = client.get(link.removeprefix("https://redakce.example.cz"))
    assert page.status_code == 200 and agency.name in page.content.decode()
    with pytest.raises(Exception, match="IČO"):
        call_command("agency_create", name="Jiná", ico="12345678", admin_email="a@example.invalid",
                     url="https://redakce.example.cz", stdout=io.StringIO())  # fmt: skip


def test_a_backup_over_an_existing_file_or_link_replaces_it_with_a_private_file(processed, tmp_path):
    readable = tmp_path / "zaloha.tar"
    readable.write_bytes(b"old")
    readable.chmod(0o644)
    call_command("backup", str(readable), stdout=io.StringIO())
    assert readable.stat().st_mode & 0o777 == 0o600 and tarfile.is_tarfile(readable)
    target = tmp_path / "elsewhere.txt"
    target.write_text("not to be overwritten")
    link = tmp_path / "link.tar"
    link.symlink_to(target)
    call_command("backup", str(link), stdout=io.StringIO())
    assert target.read_text() == "not to be overwritten"  # the link was replaced, not followed
    assert not link.is_symlink() and tarfile.is_tarfile(link) and link.stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["elsewhere.txt", "link.tar", "zaloha.tar"]  # no leftovers
