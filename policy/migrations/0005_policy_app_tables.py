"""The policy app's own table names and content types.

Maps, rules and their votes were the Django app ``redactor`` until the engine took that package
name; their tables kept the ``redactor_`` prefix (the earlier migrations create them so on a
fresh database). This renames them to the app's (``policy_mapversion`` …) and moves their content
types, so that permissions given on them stay with their users. Foreign keys from contracts
follow the rename (PostgreSQL and SQLite both rewrite references on ``ALTER TABLE … RENAME``).
"""

from django.db import migrations

MODELS = ("mapversion", "mapdraft", "mapchange", "agencyrule", "rulevote")


def move_content_types(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    for model in MODELS:
        if not ContentType.objects.using(db).filter(app_label="policy", model=model).exists():
            ContentType.objects.using(db).filter(app_label="redactor", model=model).update(app_label="policy")


def move_content_types_back(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    ContentType.objects.using(db).filter(app_label="policy", model__in=MODELS).update(app_label="redactor")


class Migration(migrations.Migration):
    dependencies = [("policy", "0004_platform_map_phone_holders"), ("contenttypes", "0002_remove_content_type_name")]

    operations = [migrations.AlterModelTable(name=model, table=None) for model in MODELS] + [
        migrations.RunPython(move_content_types, move_content_types_back)
    ]
