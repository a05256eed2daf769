"""Publish the shipped map's categories that the platform default lacks as its next version.

The shipped map (``redactor/data/category_map.json``) gained category 60, a signature or stamp
on a scan (a private person's handwritten signature is personal data; officials' follow their
names). An installation seeded before keeps its own edits; the missing categories are added on
top of its latest version, which stays in the history. Agencies' own maps are theirs: the engine
names the category even when a map lacks it (:mod:`redactor.decide.signatures`).
"""

from django.db import migrations


def publish(apps, schema_editor):
    from redactor import CategoryMap

    MapVersion = apps.get_model("policy", "MapVersion")
    latest = MapVersion.objects.filter(agency__isnull=True).order_by("-number").first()
    if latest is None:
        return  # a fresh database: 0002 seeds the shipped map, categories included
    shipped = CategoryMap.default().to_dict()
    data = dict(latest.data)
    have = {c["id"] for c in data.get("categories", [])}
    missing = [c for c in shipped["categories"] if c["id"] not in have]
    if not missing:
        return
    data["categories"] = sorted([*data.get("categories", []), *missing], key=lambda c: c["id"])
    data["version"] = latest.number + 1
    CategoryMap.from_dict(data)  # the engine validates what it will run
    MapVersion.objects.create(
        agency=None,
        number=latest.number + 1,
        data=data,
        note="Signatures and stamps on scans (shipped map category added on upgrade).",
    )


class Migration(migrations.Migration):
    dependencies = [("policy", "0005_policy_app_tables")]
    operations = [migrations.RunPython(publish, migrations.RunPython.noop)]
