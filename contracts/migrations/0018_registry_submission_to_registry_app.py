# The registry app owns RegistrySubmission now (registry.0001): the model leaves this app's
# state; its table, contracts_registrysubmission, stays and is the registry model's table.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('contracts', '0017_contract_rebuilt'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name='RegistrySubmission')],
            database_operations=[],
        ),
    ]
