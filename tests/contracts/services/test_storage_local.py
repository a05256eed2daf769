"""The quick start's local disk behind the same storage API as a bucket (issue 33): the cron
jobs that prune exports and sweep files no contract names run there too."""

from __future__ import annotations

import os
import time
from datetime import timedelta

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage

from contracts.services import exports, files


def test_the_cron_jobs_prune_and_sweep_on_local_disk(settings, tmp_path, processed):
    settings.MEDIA_ROOT = tmp_path / "media"
    assert files.storage_sweep() == 0 and exports.exports_prune() == 0  # no folder yet: nothing to do
    named = default_storage.save("originals/1/named.pdf", ContentFile(b"%PDF"))
    processed.original.name = named
    processed.save(update_fields=["original"])
    stray = default_storage.save("redacted/1/stray.txt", ContentFile(b"text"))
    export = default_storage.save(f"{exports.EXPORTS_DIR}/1/old.zip", ContentFile(b"PK"))
    hour_ago = time.time() - 7200
    os.utime(default_storage.path(export), (hour_ago, hour_ago))
    assert files.storage_orphans(default_storage, older_than=timedelta(0)) == [stray]
    assert exports.exports_prune() == 1 and not default_storage.exists(export)
    assert files.storage_sweep(older_than=timedelta(0)) == 1
    assert default_storage.exists(named) and not default_storage.exists(stray)
