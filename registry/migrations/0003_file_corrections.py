"""Each published file may have a correction of its own; a record already being corrected gives
its file the record's correction contract."""

import django.db.models.deletion
from django.db import migrations, models


def _file_of_each_correction(apps, schema_editor):
    PublishedRecord = apps.get_model("registry", "PublishedRecord")
    PublishedFile = apps.get_model("registry", "PublishedFile")
    corrected = PublishedRecord.objects.exclude(correction=None).exclude(correction_file=None)
    for record in corrected.only("correction_id", "correction_file_id"):
        PublishedFile.objects.filter(pk=record.correction_file_id).update(correction_id=record.correction_id)


class Migration(migrations.Migration):
    dependencies = [
        ("contracts", "0020_run_progress_of_the_whole_job"),
        ("registry", "0002_published_records"),
    ]

    operations = [
        migrations.AddField(
            model_name="publishedfile",
            name="correction",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="corrects_published_files",
                to="contracts.contract",
            ),
        ),
        migrations.RunPython(_file_of_each_correction, migrations.RunPython.noop),
    ]
