"""Publish the shipped map's holder rules that the platform default lacks as its next version.

The shipped map (``redactor/data/category_map.json``) gained a holder rule: a phone number
of a legal person or public body (a switchboard, a fax, an office line) is kept, as on real
registry contracts. An installation seeded before keeps its own edits; the missing rules are
added on top of its latest version, which stays in the history.
"""

from django.db import migrations


def publish(apps, schema_editor):
    from policy.map_upgrades import publish_shipped_holder_rules

    publish_shipped_holder_rules(
        apps, "Phones of legal persons and public bodies are kept (shipped map rule added on upgrade)."
    )


class Migration(migrations.Migration):
    #: Written as the app ``redactor`` before the engine took that name: a database that applied
    #: it under the old label counts it as applied.
    replaces = [("redactor", "0004_platform_map_phone_holders")]
    dependencies = [("policy", "0003_agency_rules")]
    operations = [migrations.RunPython(publish, migrations.RunPython.noop)]
