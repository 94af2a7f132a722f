# recipe: django migration
from django.contrib.postgres.operations import CreateExtension
from django.db import migrations, models

import ulidapp.fields


class Migration(migrations.Migration):
    initial = True
    dependencies = []
    operations = [
        CreateExtension("ulid"),
        migrations.CreateModel(
            name="Item",
            fields=[
                ("id", ulidapp.fields.UlidAutoField(primary_key=True, serialize=False)),
                ("name", models.TextField()),
                ("flake", ulidapp.fields.UlidFlakeField(null=True)),
            ],
        ),
        # Django 3.2 has no db_default: the column's DEFAULT comes from SQL
        migrations.RunSQL(
            "ALTER TABLE ulidapp_item ALTER COLUMN id SET DEFAULT ulid_generate()",
            "ALTER TABLE ulidapp_item ALTER COLUMN id DROP DEFAULT",
        ),
    ]
# recipe: end
