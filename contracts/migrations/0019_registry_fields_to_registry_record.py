# The contract's registry fields were copied to registry.RegistryRecord (registry.0001).

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('contracts', '0018_registry_submission_to_registry_app'),
        ('registry', '0001_initial'),
    ]

    operations = [
        migrations.RemoveField(model_name='contract', name='registered_at'),
        migrations.RemoveField(model_name='contract', name='registry_link'),
        migrations.RemoveField(model_name='contract', name='registry_metadata'),
        migrations.RemoveField(model_name='contract', name='registry_record_id'),
        migrations.RemoveField(model_name='contract', name='registry_version_id'),
    ]
