"""Seed the platform default map, version 1, from the engine's shipped map
(``redactor/data/category_map.json``: the thesis' table plus the ministry methodology)."""

from django.db import migrations


def seed(apps, schema_editor):
    from redactor import CategoryMap

    MapVersion = apps.get_model("policy", "MapVersion")
    if not MapVersion.objects.filter(agency__isnull=True).exists():
        MapVersion.objects.create(
            agency=None, number=1, data=CategoryMap.default().to_dict(), note="Seeded from the shipped default map."
        )


class Migration(migrations.Migration):
    #: Written as the app ``redactor`` before the engine took that name: a database that applied
    #: it under the old label counts it as applied.
    replaces = [("redactor", "0002_seed_platform_map")]
    dependencies = [("policy", "0001_initial")]
    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
