"""Publish the shipped map's holder rules that the platform default lacks as its next version.

The shipped map (``redactor/data/category_map.json``) gained a holder rule: an e-mail with a
person's name that belongs to a public body (its official's or employee's work address, the
person acting in office) is kept, as the ministry's methodology keeps a public body's staff
acting in their job. An installation seeded before keeps its own edits; the missing rules are
added on top of its latest version, which stays in the history. Agencies' own maps are theirs.
"""

from django.db import migrations


def publish(apps, schema_editor):
    from redactor import CategoryMap

    MapVersion = apps.get_model("policy", "MapVersion")
    latest = MapVersion.objects.filter(agency__isnull=True).order_by("-number").first()
    if latest is None:
        return  # a fresh database: 0002 seeds the shipped map, rules included
    shipped = CategoryMap.default().to_dict()
    data = dict(latest.data)
    have = {(o["category"], tuple(o["holders"])) for o in data.get("holder_overrides", [])}
    missing = [o for o in shipped["holder_overrides"] if (o["category"], tuple(o["holders"])) not in have]
    if not missing:
        return
    data["holder_overrides"] = [*data.get("holder_overrides", []), *missing]
    data["version"] = latest.number + 1
    CategoryMap.from_dict(data)  # the engine validates what it will run
    MapVersion.objects.create(
        agency=None,
        number=latest.number + 1,
        data=data,
        note="Work e-mails of a public body's staff are kept (shipped map rule added on upgrade).",
    )


class Migration(migrations.Migration):
    dependencies = [("policy", "0006_platform_map_signature")]
    operations = [migrations.RunPython(publish, migrations.RunPython.noop)]
