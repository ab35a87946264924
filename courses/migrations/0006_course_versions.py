import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models


def first_versions(apps, schema_editor):
    """Every existing course's document becomes its version 1, as generated."""
    Course = apps.get_model("courses", "Course")
    CourseVersion = apps.get_model("courses", "CourseVersion")
    for course in Course.objects.only("pk", "content", "created_at").iterator():
        version = CourseVersion.objects.create(
            course=course, number=1, content=course.content, source="generated", changed="content"
        )
        CourseVersion.objects.filter(pk=version.pk).update(created_at=course.created_at)
        Course.objects.filter(pk=course.pk).update(updated_at=course.created_at)


class Migration(migrations.Migration):
    dependencies = [
        ("courses", "0005_export_format_cmi5"),
    ]

    operations = [
        migrations.AddField(
            model_name="course",
            name="version",
            field=models.PositiveIntegerField(default=1),
        ),
        migrations.AddField(
            model_name="course",
            name="updated_at",
            field=models.DateTimeField(auto_now_add=True, default=django.utils.timezone.now),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="export",
            name="version",
            field=models.PositiveIntegerField(default=1),
        ),
        migrations.AddField(
            model_name="generationjob",
            name="regenerated_course",
            field=models.ForeignKey(
                blank=True, null=True, on_delete=django.db.models.deletion.CASCADE,
                related_name="regenerations", to="courses.course",
            ),
        ),
        migrations.AddField(
            model_name="generationjob",
            name="part",
            field=models.CharField(
                blank=True, max_length=20,
                choices=[("chapter", "Chapter"), ("introduction", "Introduction"), ("wrapup", "Wrap-up"),
                         ("assessment", "Assessment"), ("agreement", "Agreement")],
            ),
        ),
        migrations.AddField(
            model_name="generationjob",
            name="chapter",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="generationjob",
            name="instructions",
            field=models.TextField(blank=True),
        ),
        migrations.CreateModel(
            name="CourseVersion",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("number", models.PositiveIntegerField()),
                ("content", models.JSONField()),
                ("source", models.CharField(
                    choices=[("generated", "Generated"), ("edited", "Edited"), ("regenerated", "Regenerated")],
                    max_length=12,
                )),
                ("changed", models.CharField(max_length=40)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("course", models.ForeignKey(
                    on_delete=django.db.models.deletion.CASCADE, related_name="versions", to="courses.course",
                )),
            ],
            options={"ordering": ["course", "-number"]},
        ),
        migrations.AddConstraint(
            model_name="courseversion",
            constraint=models.UniqueConstraint(fields=("course", "number"), name="course_version_number_unique"),
        ),
        migrations.RunPython(first_versions, migrations.RunPython.noop),
    ]
