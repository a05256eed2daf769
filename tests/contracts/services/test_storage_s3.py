"""The product's files in an S3 bucket (issue 33), against a real S3-compatible server (SeaweedFS,
``s3_server``): every file a contract has lives in the bucket, private and encrypted by the
server, never on local disk; originals keep their SHA-256 check; a deleted contract leaves no
object; the bulk export's zip is an object, not a Redis value, and is pruned; an installation's
local files move into the bucket verified and resumably."""

from __future__ import annotations

import io
import zipfile
from datetime import timedelta

import django_rq
import pytest
from botocore.exceptions import ClientError
from django.core.files.storage import FileSystemStorage, default_storage
from django.core.management import call_command
from django.urls import reverse
from rq import SimpleWorker

from accounts.models import Role
from contracts import selectors
from contracts.models import Contract, Status
from contracts.services import exports, publishing, uploads
from redactor.errors import InvalidPdfError
from tests.plugins.tenants import logged_in, run_latest_job
from tests.plugins.tokens import api, make_token


@pytest.fixture
def local_media(settings, tmp_path):
    """A media folder of this test's own, to show that nothing is written to it."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


def _files_under(folder) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


def _names(contract: Contract) -> list[str]:
    files = (contract.original, contract.redacted, contract.redacted_text, contract.analysed, contract.rebuilt)
    return [f.name for f in files if f]


def test_a_published_contracts_files_are_private_encrypted_objects_and_nothing_is_on_disk(
    local_media, s3_storage, s3_server, published, clerk
):
    keys = s3_server.keys(s3_storage)
    names = _names(published)
    assert len(names) == 5 and sorted(keys) == sorted(f"{s3_storage}/{n}" for n in names)
    assert names[0].startswith(f"originals/{published.agency_id}/")
    assert _files_under(local_media) == []
    client, anonymous = s3_server.client(), s3_server.client(signed=False)
    for key in keys:
        assert client.head_object(Bucket=s3_server.bucket, Key=key)["ServerSideEncryption"] == "AES256"
        with pytest.raises(ClientError) as refused:
            anonymous.get_object(Bucket=s3_server.bucket, Key=key)
        assert refused.value.response["Error"]["Code"] == "AccessDenied"
        acl = client.get_object_acl(Bucket=s3_server.bucket, Key=key)["Grants"]
        assert all("URI" not in g["Grantee"] for g in acl)  # no AllUsers / AuthenticatedUsers grant
    # the download goes through the app's access check and reads the object
    response = logged_in(clerk).get(reverse("contracts:download", args=[published.agency_id, published.pk]))
    body = b"".join(response.streaming_content)
    stored = client.get_object(Bucket=s3_server.bucket, Key=f"{s3_storage}/{published.redacted.name}")["Body"].read()
    assert response.status_code == 200 and body == stored and body.startswith(b"%PDF")


def test_an_original_changed_in_the_bucket_is_refused_on_every_read(s3_storage, s3_server, processed, clerk):
    key = f"{s3_storage}/{processed.original.name}"
    s3_server.client().put_object(Bucket=s3_server.bucket, Key=key, Body=b"%PDF-1.7 another document")
    with pytest.raises(InvalidPdfError, match="originál je poškozený"):
        selectors.contract_original(processed)
    page = logged_in(clerk).get(reverse("contracts:original", args=[processed.agency_id, processed.pk]), follow=True)
    assert page.redirect_chain and "uložený originál je poškozený" in page.content.decode()


def test_deleting_a_contract_deletes_its_objects_and_only_them(
    s3_storage, s3_server, published, agency, clerk, reviewer, contract_pdf, django_capture_on_commit_callbacks
):
    other = uploads.contract_upload(agency=agency, user=clerk, data=contract_pdf, filename="druha.pdf")
    run_latest_job(other)
    deleted = _names(published)
    with django_capture_on_commit_callbacks(execute=True):
        publishing.contract_delete(contract=published, user=reviewer)
    keys = s3_server.keys(s3_storage)
    assert not [k for k in keys if k.split("/", 1)[1] in deleted]
    kept = (other.original.name, other.analysed.name, other.rebuilt.name)
    assert keys == sorted(f"{s3_storage}/{name}" for name in kept)


def test_the_bulk_export_is_an_object_downloaded_through_the_app_and_pruned(
    s3_storage, s3_server, published, agency, admin_user
):
    queue = django_rq.get_queue("low")  # owned jobs: the low-priority queue
    queue.empty()
    token = make_token(agency, Role.ADMIN, created_by=admin_user)[1]
    job = api(token).post("/api/v1/exports/", {"mode": "removed", "format": "txt"}, format="json").json()["id"]
    SimpleWorker([queue], connection=queue.connection).work(burst=True)
    state = exports.agency_export_state(agency=agency, user=admin_user, job_id=job)
    assert state.state == "finished" and "zip" not in state.result  # Redis keeps only the name
    assert s3_server.keys(s3_storage) and f"{s3_storage}/{state.result['file']}" in s3_server.keys(s3_storage)
    assert state.result["file"].startswith(f"exports/{agency.pk}/")

    zipped = api(token).get(f"/api/v1/exports/{job}/download/")
    with zipfile.ZipFile(io.BytesIO(b"".join(zipped.streaming_content))) as archive:
        assert len(archive.namelist()) == 1 and "Novák" not in archive.read(archive.namelist()[0]).decode()

    assert exports.exports_prune() == 0  # younger than the job's result
    assert exports.exports_prune(older_than=timedelta(0)) == 1
    assert f"{s3_storage}/{state.result['file']}" not in s3_server.keys(s3_storage)
    gone = api(token).get(f"/api/v1/exports/{job}/download/")
    assert gone.status_code == 410 and gone.json()["extra"]["code"] == "expired"
    page = logged_in(admin_user).get(reverse("contracts:export_download", args=[agency.pk, job]), follow=True)
    assert "Export už není uložen. Spusťte jej znovu." in page.content.decode()
    queue.empty()


def test_the_quick_starts_files_move_into_the_bucket_verified_and_a_second_run_copies_nothing(
    local_media, settings, s3_server, monkeypatch, published, processed_second, capsys
):
    """The files were made on local disk (the quick start's default); then the settings point at
    the bucket and ``storage_copy`` moves them."""
    on_disk = _files_under(local_media)
    assert len(on_disk) == 8  # the published contract's 5 files, the second one's original and stored document
    from config.storage import default_storage_from_env

    prefix = "moved"
    for name, value in s3_server.env(AWS_LOCATION=prefix).items():
        monkeypatch.setenv(name, value)
    settings.STORAGES = {**settings.STORAGES, "default": default_storage_from_env()}

    call_command("storage_copy", "--from", str(local_media))
    assert capsys.readouterr().out.splitlines()[-1] == "copied 8, already there 0, failed 0, missing 0"
    assert sorted(k.split("/", 1)[1] for k in s3_server.keys(prefix)) == on_disk
    # the service now reads them from the bucket, the original's hash checked
    assert selectors.contract_original(published) == (local_media / published.original.name).read_bytes()

    call_command("storage_copy", "--from", str(local_media))
    assert capsys.readouterr().out.splitlines()[-1] == "copied 0, already there 8, failed 0, missing 0"

    # an object that differs (an interrupted or damaged copy) is made again
    key = f"{prefix}/{published.redacted.name}"
    s3_server.client().put_object(Bucket=s3_server.bucket, Key=key, Body=b"truncated")
    call_command("storage_copy", "--from", str(local_media), "--quiet")
    assert capsys.readouterr().out.splitlines()[-1] == "copied 1, already there 7, failed 0, missing 0"
    assert default_storage.open(published.redacted.name).read() == (local_media / published.redacted.name).read_bytes()

    # a damaged original on disk is reported and not copied; a file the bucket lacks is named
    damaged = local_media / processed_second.original.name
    damaged.write_bytes(b"%PDF-1.7 damaged")
    s3_server.client().delete_object(Bucket=s3_server.bucket, Key=f"{prefix}/{processed_second.original.name}")
    with pytest.raises(SystemExit) as exited:
        call_command("storage_copy", "--from", str(local_media))
    captured = capsys.readouterr()
    assert exited.value.code == 1
    assert f"FAILED {processed_second.original.name}: the source no longer matches" in captured.err
    assert captured.out.splitlines()[-1] == "copied 0, already there 7, failed 1, missing 0"


def test_the_copy_refuses_to_copy_a_folder_onto_itself(local_media, settings):
    local_media.mkdir()
    settings.STORAGES = {**settings.STORAGES, "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"}}
    assert isinstance(default_storage, FileSystemStorage)
    with pytest.raises(Exception, match="REDACTOR_STORAGE=s3"):
        call_command("storage_copy", "--from", str(local_media))


@pytest.fixture
def processed_second(agency, clerk, contract_pdf) -> Contract:
    contract = uploads.contract_upload(agency=agency, user=clerk, data=contract_pdf, filename="druha.pdf")
    run_latest_job(contract)
    assert contract.status == Status.NEEDS_REVIEW
    return contract


def test_the_storage_check_names_a_missing_bucket_makes_it_when_asked_and_reports_encryption(
    s3_server, settings, monkeypatch, capsys
):
    from django.core.management.base import CommandError

    from config.storage import default_storage_from_env

    for name, value in s3_server.env(AWS_STORAGE_BUCKET_NAME="not-yet-made").items():
        monkeypatch.setenv(name, value)
    settings.STORAGES = {**settings.STORAGES, "default": default_storage_from_env()}
    with pytest.raises(CommandError, match=r"not-yet-made .* does not exist"):
        call_command("storage_check")
    call_command("storage_check", "--create-bucket")
    out = capsys.readouterr().out
    assert "created the bucket not-yet-made" in out and "server-side encryption AES256" in out
    call_command("storage_check")
    assert "storage ok" in capsys.readouterr().out
    assert s3_server.client().list_objects_v2(Bucket="not-yet-made").get("KeyCount", 0) == 0  # the probe is gone
    s3_server.client().delete_bucket(Bucket="not-yet-made")


def test_the_learning_simulation_leaves_no_object_in_the_bucket(db, s3_storage, s3_server, data_dir):
    from contracts.simulation import simulate

    result = simulate(data_dir / "dev", names=["kupni_auto_1"], learn=False)
    assert [d.published for d in result.documents] == [True]
    assert s3_server.keys(s3_storage) == []  # rolled back with its transaction, files with it


def test_an_upload_the_bucket_refuses_is_refused_with_a_sentence_and_nothing_is_kept(
    s3_server, settings, monkeypatch, agency, clerk, admin_user, contract_pdf
):
    """The bucket refuses the credentials (as an unreachable or full one would refuse the write)."""
    from config.storage import default_storage_from_env

    for name, value in s3_server.env(AWS_SECRET_ACCESS_KEY="not-the-key").items():
        monkeypatch.setenv(name, value)
    settings.STORAGES = {**settings.STORAGES, "default": default_storage_from_env()}
    token = make_token(agency, Role.CLERK, created_by=admin_user)[1]
    answer = api(token).post(
        "/api/v1/contracts/", {"file": io.BytesIO(contract_pdf), "title": "Smlouva"}, format="multipart"
    )
    assert answer.status_code == 503 and answer.json()["extra"]["code"] == "storage_unavailable"
    assert "se nic neuložilo" in answer.json()["message"]
    page = logged_in(clerk).post(
        reverse("contracts:upload", args=[agency.pk]),
        {"file": _named(contract_pdf), "title": "Smlouva"},
        follow=True,
    )
    assert "Zkuste nahrání zopakovat" in page.content.decode()
    assert not Contract.objects.filter(agency=agency).exists()


def _named(data: bytes):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("smlouva.pdf", data, content_type="application/pdf")


def test_files_no_contract_names_are_swept_once_a_day_old_and_named_ones_stay(
    s3_storage, s3_server, published, processed_second, reviewer
):
    """A deletion whose removal never ran (here: its transaction's on-commit callback is not run,
    as when the bucket was unreachable) and a stray object left by a rolled-back upload."""
    from django.core.files.base import ContentFile

    from contracts.services import files

    deleted = _names(published)
    publishing.contract_delete(contract=published, user=reviewer)  # the files' removal does not run
    stray = default_storage.save(f"originals/{published.agency_id}/rolled-back.pdf", ContentFile(b"%PDF-1.7"))
    assert files.storage_sweep() == 0  # younger than a day: perhaps an upload committing right now
    assert sorted(files.storage_orphans(default_storage, older_than=timedelta(0))) == sorted([*deleted, stray])
    assert files.storage_sweep(older_than=timedelta(0)) == 6
    kept = (processed_second.original.name, processed_second.analysed.name, processed_second.rebuilt.name)
    assert s3_server.keys(s3_storage) == sorted(f"{s3_storage}/{name}" for name in kept)
    assert selectors.contract_original(processed_second)  # the named file stays readable
