# The registry app owns RegistrySettings now (registry.0001): the model leaves this app's state;
# its table, accounts_registrysettings, stays and is the registry model's table.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0009_agency_signatures_printed_grounds'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name='RegistrySettings')],
            database_operations=[],
        ),
    ]
