"""
Exports, taken over from courses (courses 0019) with their table, which is renamed after its owner.
Their content type follows, so staff permissions and the admin's log of changes keep pointing at them.
"""

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models

import exports.models


def content_type_follows(apps, schema_editor, *, from_app="courses", to_app="exports"):
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label=from_app, model="export").update(app_label=to_app)


def content_type_goes_back(apps, schema_editor):
    content_type_follows(apps, schema_editor, from_app="exports", to_app="courses")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("accounts", "0008_rows_no_longer_announce_their_changes"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("courses", "0019_exports_and_signoffs_move_out"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Export",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("public_id", models.CharField(default=exports.models.new_export_id, editable=False, max_length=32, unique=True)),
                        ("format", models.CharField(choices=[("scorm12", "SCORM 1.2"), ("scorm2004", "SCORM 2004 3rd edition"), ("scorm2004_4", "SCORM 2004 4th edition"), ("cmi5", "cmi5 (xAPI)")], max_length=12)),
                        ("version", models.PositiveIntegerField(default=1)),
                        ("file", models.FileField(max_length=300, upload_to="exports/")),
                        ("callback_url", models.URLField(blank=True, max_length=2048)),
                        ("exported_at", models.DateTimeField(default=django.utils.timezone.now, editable=False)),
                        ("api_key", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="exports", to="accounts.apikey")),
                        ("course", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="exports", to="courses.course")),
                    ],
                    options={
                        "db_table": "courses_export",
                        "ordering": ["-exported_at"],
                        "constraints": [models.UniqueConstraint(fields=("course", "exported_at"), name="export_unique_time_per_course")],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_type_follows, content_type_goes_back),
        migrations.AlterModelTable(name="export", table=None),
    ]
