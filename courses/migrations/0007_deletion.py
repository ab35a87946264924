import django.db.models.deletion
from django.db import migrations, models

import learners.models


def give_signoffs_public_ids(apps, schema_editor):
    Signoff = apps.get_model("courses", "Signoff")
    for signoff in Signoff.objects.filter(public_id__isnull=True).only("pk").iterator():
        Signoff.objects.filter(pk=signoff.pk).update(public_id=learners.models.new_signoff_id())


class Migration(migrations.Migration):
    dependencies = [
        ("courses", "0006_course_versions"),
    ]

    operations = [
        migrations.AlterField(
            model_name="generationjob",
            name="regenerated_course",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="regenerations",
                to="courses.course",
            ),
        ),
        migrations.AlterField(
            model_name="export",
            name="course",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="exports", to="courses.course"
            ),
        ),
        migrations.AddField(
            model_name="signoff",
            name="public_id",
            field=models.CharField(editable=False, max_length=32, null=True),
        ),
        migrations.RunPython(give_signoffs_public_ids, migrations.RunPython.noop, elidable=True),
        migrations.AlterField(
            model_name="signoff",
            name="public_id",
            field=models.CharField(
                default=learners.models.new_signoff_id, editable=False, max_length=32, unique=True
            ),
        ),
        migrations.CreateModel(
            name="RemovedLink",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("public_id", models.CharField(max_length=32, unique=True)),
                (
                    "language_id",
                    models.CharField(
                        choices=[
                            ("en-US", "English (US)"),
                            ("pt-BR", "Português (Brasil)"),
                            ("es-ES", "Español (España)"),
                            ("fr-FR", "Français (France)"),
                            ("de-DE", "Deutsch (Deutschland)"),
                        ],
                        default="en-US",
                        max_length=5,
                    ),
                ),
                ("removed_at", models.DateTimeField(auto_now_add=True)),
            ],
        ),
    ]
