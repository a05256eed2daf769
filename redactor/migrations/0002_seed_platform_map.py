"""Seed the platform default map, version 1, from the engine's shipped map
(``redactor/core/data/category_map.json``: the thesis' table plus the ministry methodology)."""

from django.db import migrations


def seed(apps, schema_editor):
    from redactor.core import CategoryMap

    MapVersion = apps.get_model("redactor", "MapVersion")
    if not MapVersion.objects.filter(agency__isnull=True).exists():
        MapVersion.objects.create(
            agency=None, number=1, data=CategoryMap.default().to_dict(), note="Seeded from the shipped default map."
        )


class Migration(migrations.Migration):
    dependencies = [("redactor", "0001_initial")]
    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
