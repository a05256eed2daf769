"""Publish the shipped map's holder rules that the platform default lacks as its next version.

The shipped map (``redactor/data/category_map.json``) gained a holder rule: an e-mail with a
person's name that belongs to a public body (its official's or employee's work address, the
person acting in office) is kept, as the ministry's methodology keeps a public body's staff
acting in their job. An installation seeded before keeps its own edits; the missing rules are
added on top of its latest version, which stays in the history. Agencies' own maps are theirs.
"""

from django.db import migrations


def publish(apps, schema_editor):
    from policy.map_upgrades import publish_shipped_holder_rules

    publish_shipped_holder_rules(
        apps, "Work e-mails of a public body's staff are kept (shipped map rule added on upgrade)."
    )


class Migration(migrations.Migration):
    dependencies = [("policy", "0006_platform_map_signature")]
    operations = [migrations.RunPython(publish, migrations.RunPython.noop)]
