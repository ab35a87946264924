"""A sign-off is always a learner's (migration 0006 gave one to each of those without)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    # Apart from 0006, in a transaction of its own: PostgreSQL will not alter a table whose rows
    # the same transaction updated while their foreign keys are still to be checked.
    dependencies = [
        ("learners", "0006_signoffs_without_a_learner_get_one"),
    ]

    operations = [
        migrations.AlterField(
            model_name="signoff",
            name="learner",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="signoffs", to="learners.learner"
            ),
        ),
    ]
