"""
Exports move to their own app (exports) and sign-offs to learners: courses no longer knows them.
Their tables stay; the apps that own them now take them over (exports 0001, learners 0005).
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("courses", "0018_idempotency_records_name_what_they_made"),
        ("learners", "0004_quiz_attempt_key"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="Export"),
                migrations.DeleteModel(name="Signoff"),
            ],
            database_operations=[],
        ),
    ]
