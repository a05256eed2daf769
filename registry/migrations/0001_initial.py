# The registry's models, moved here from the apps that held them:
# - RegistrySettings (accounts) and RegistrySubmission (contracts) keep their tables, rows and
#   ids: state only (SeparateDatabaseAndState), and their content types (with the permissions
#   and admin log entries that point at them) are renamed to this app;
# - RegistryRecord is new: each contract's five registry fields are copied into it
#   (contracts.0019 then removes them from the contract).

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MOVED = {"registrysettings": "accounts", "registrysubmission": "contracts"}
RECORD_FIELDS = ("registry_metadata", "registry_record_id", "registry_version_id", "registry_link", "registered_at")


def content_types_to_registry(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    for model, app_label in MOVED.items():
        if not ContentType.objects.using(db).filter(app_label="registry", model=model).exists():
            ContentType.objects.using(db).filter(app_label=app_label, model=model).update(app_label="registry")


def content_types_back(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    for model, app_label in MOVED.items():
        ContentType.objects.using(db).filter(app_label="registry", model=model).update(app_label=app_label)


def records_from_contracts(apps, schema_editor):
    """One RegistryRecord per contract that has any registry value (the others get theirs when
    the registry first writes one)."""
    Contract = apps.get_model("contracts", "Contract")
    RegistryRecord = apps.get_model("registry", "RegistryRecord")
    db = schema_editor.connection.alias
    rows = Contract.objects.using(db).values_list("pk", *RECORD_FIELDS).iterator(chunk_size=2000)
    batch = []
    for pk, metadata, record_id, version_id, link, registered_at in rows:
        if not (metadata or record_id or version_id or link or registered_at):
            continue
        batch.append(RegistryRecord(contract_id=pk, metadata=metadata or {}, record_id=record_id,
                                    version_id=version_id, link=link, registered_at=registered_at))
        if len(batch) >= 2000:
            RegistryRecord.objects.using(db).bulk_create(batch)
            batch = []
    RegistryRecord.objects.using(db).bulk_create(batch)


def records_to_contracts(apps, schema_editor):
    Contract = apps.get_model("contracts", "Contract")
    RegistryRecord = apps.get_model("registry", "RegistryRecord")
    db = schema_editor.connection.alias
    for record in RegistryRecord.objects.using(db).iterator(chunk_size=2000):
        Contract.objects.using(db).filter(pk=record.contract_id).update(
            registry_metadata=record.metadata, registry_record_id=record.record_id,
            registry_version_id=record.version_id, registry_link=record.link, registered_at=record.registered_at,
        )


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('accounts', '0010_registry_settings_to_registry_app'),
        ('contenttypes', '0002_remove_content_type_name'),
        ('contracts', '0018_registry_submission_to_registry_app'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='RegistrySettings',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('channel', models.CharField(choices=[('databox', 'Data box (sent by this service)'), ('package', 'Package to download (sent by your records system)')], default='package', max_length=16, verbose_name='channel')),
                        ('environment', models.CharField(choices=[('test', 'Test environment'), ('production', 'Production')], default='test', max_length=16, verbose_name='environment')),
                        ('unit', models.CharField(blank=True, help_text='Útvar / odbor shown in the registry', max_length=255, verbose_name='unit')),
                        ('address', models.CharField(blank=True, help_text='Address of the publishing body', max_length=255, verbose_name='address')),
                        ('confirmation_email', models.EmailField(blank=True, help_text='The registry sends a copy of its replies', max_length=50, verbose_name='e-mail for confirmations')),
                        ('login', models.CharField(blank=True, max_length=100, verbose_name='data-box login')),
                        ('password_sealed', models.TextField(blank=True, editable=False)),
                        ('certificate_sealed', models.TextField(blank=True, editable=False)),
                        ('replies_checked_at', models.DateTimeField(blank=True, editable=False, null=True)),
                        ('updated_at', models.DateTimeField(auto_now=True)),
                        ('agency', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='registry_settings', to='accounts.agency')),
                    ],
                    options={
                        'verbose_name': 'registry settings',
                        'verbose_name_plural': 'registry settings',
                        'db_table': 'accounts_registrysettings',
                    },
                ),
                migrations.CreateModel(
                    name='RegistrySubmission',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('operation', models.CharField(choices=[('zverejneni', 'Publication'), ('pridaniPrilohy', 'Files added'), ('modifikace', 'Metadata corrected'), ('znepristupneni', 'Withdrawn')], max_length=16)),
                        ('state', models.CharField(choices=[('prepared', 'Prepared'), ('sending', 'Sending'), ('sent', 'Sent, waiting for the registry'), ('accepted', 'Accepted by the registry'), ('rejected', 'Refused by the registry'), ('failed', 'Not sent')], default='prepared', max_length=16)),
                        ('channel', models.CharField(default='databox', max_length=16)),
                        ('key', models.CharField(max_length=64)),
                        ('xml', models.TextField(blank=True)),
                        ('files', models.JSONField(blank=True, default=list)),
                        ('reason', models.TextField(blank=True)),
                        ('message_id', models.CharField(blank=True, max_length=20)),
                        ('error_code', models.CharField(blank=True, max_length=16)),
                        ('error_text', models.TextField(blank=True)),
                        ('reply', models.JSONField(blank=True, default=dict)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('sent_at', models.DateTimeField(blank=True, null=True)),
                        ('replied_at', models.DateTimeField(blank=True, null=True)),
                        ('agency', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='accounts.agency')),
                        ('contract', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='registry_submissions', to='contracts.contract')),
                        ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('follows', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='registry.registrysubmission')),
                    ],
                    options={
                        'db_table': 'contracts_registrysubmission',
                        'ordering': ['-created_at', '-id'],
                        'constraints': [models.UniqueConstraint(fields=('contract', 'key'), name='one_submission_per_content')],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_types_to_registry, content_types_back),
        migrations.CreateModel(
            name='RegistryRecord',
            fields=[
                ('contract', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='registry_record', serialize=False, to='contracts.contract')),
                ('metadata', models.JSONField(blank=True, default=dict)),
                ('record_id', models.BigIntegerField(blank=True, null=True)),
                ('version_id', models.BigIntegerField(blank=True, null=True)),
                ('link', models.URLField(blank=True, max_length=300)),
                ('registered_at', models.DateTimeField(blank=True, null=True)),
            ],
            options={
                'verbose_name': 'registry record',
                'verbose_name_plural': 'registry records',
            },
        ),
        migrations.RunPython(records_from_contracts, records_to_contracts),
    ]
