from django.db import migrations, models

# Storage for sources per plan, in MB.
STORAGE_MB = {"free": 0, "starter": 100, "pro": 1000, "business": 10000}


def seed_storage(apps, schema_editor):
    Plan = apps.get_model("accounts", "Plan")
    for slug, megabytes in STORAGE_MB.items():
        Plan.objects.filter(slug=slug).update(source_storage_mb=megabytes)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0004_plan_rate_limits_read_edit")]

    operations = [
        migrations.AddField(
            model_name="plan",
            name="rate_limit_sources",
            field=models.PositiveIntegerField(
                blank=True,
                help_text="POST and DELETE /api/v1/sources per key per 60 s. Empty: RATE_LIMIT_SOURCES.",
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="plan",
            name="source_storage_mb",
            field=models.PositiveIntegerField(
                default=0,
                help_text="Storage for uploaded and fetched sources, in MB (2^20 bytes), for the whole account.",
            ),
        ),
        migrations.RunPython(seed_storage, migrations.RunPython.noop),
    ]
