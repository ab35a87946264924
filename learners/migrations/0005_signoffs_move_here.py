"""
Sign-offs, taken over from courses (courses 0019) with their table, which is renamed after its
owner: a sign-off is a learner's. Their content type follows, so staff permissions and the admin's
log of changes keep pointing at them.
"""

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models

import learners.models


def content_type_follows(apps, schema_editor, *, from_app="courses", to_app="learners"):
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label=from_app, model="signoff").update(app_label=to_app)


def content_type_goes_back(apps, schema_editor):
    content_type_follows(apps, schema_editor, from_app="learners", to_app="courses")


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("courses", "0019_exports_and_signoffs_move_out"),
        ("learners", "0004_quiz_attempt_key"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Signoff",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("public_id", models.CharField(default=learners.models.new_signoff_id, editable=False, max_length=32, unique=True)),
                        ("name", models.CharField(max_length=200)),
                        ("ip_hash", models.CharField(max_length=64)),
                        ("signed_at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("course", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="signoffs", to="courses.course")),
                        ("learner", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name="signoffs", to="learners.learner")),
                    ],
                    options={
                        "db_table": "courses_signoff",
                        "ordering": ["-signed_at"],
                        "indexes": [models.Index(fields=["signed_at"], name="signoff_signed_at")],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_type_follows, content_type_goes_back),
        migrations.AlterModelTable(name="signoff", table=None),
    ]
