# An event counts the attempts made before its current allowance ("deliver again" gives a fresh one),
# so its waits start again from the first. An event given a fresh allowance before is counted from
# where that allowance began, as its limit says with today's WEBHOOK_MAX_ATTEMPTS.

from django.conf import settings
from django.db import migrations, models


def _allowances_begun_before(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            'UPDATE "webhooks_webhookevent" SET "allowance_after" = GREATEST("attempt_limit" - %s, 0)',
            [settings.WEBHOOK_MAX_ATTEMPTS],
        )


class Migration(migrations.Migration):

    dependencies = [
        ("webhooks", "0003_course_and_source_event_subjects"),
    ]

    operations = [
        migrations.AddField(
            model_name="webhookevent",
            name="allowance_after",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(_allowances_begun_before, migrations.RunPython.noop),
    ]
