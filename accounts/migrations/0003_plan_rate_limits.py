from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("accounts", "0002_seed_plans")]

    operations = [
        migrations.AddField(
            model_name="plan",
            name="rate_limit_create",
            field=models.PositiveIntegerField(
                blank=True,
                help_text="POST /api/v1/courses per key per 60 s. Empty: RATE_LIMIT_CREATE.",
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="plan",
            name="rate_limit_export",
            field=models.PositiveIntegerField(
                blank=True,
                help_text="POST /api/v1/courses/:id/export per key per 60 s. Empty: RATE_LIMIT_EXPORT.",
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="plan",
            name="rate_limit_poll",
            field=models.PositiveIntegerField(
                blank=True,
                help_text="GET /api/v1/courses/jobs/:jobId per key per 60 s. Empty: RATE_LIMIT_POLL.",
                null=True,
            ),
        ),
    ]
