from django.db import migrations, models

from courses import content


def fingerprint_existing_courses(apps, schema_editor):
    Course = apps.get_model("courses", "Course")
    for course in Course.objects.only("pk", "content").iterator():
        Course.objects.filter(pk=course.pk).update(content_digest=content.digest(course.content))


class Migration(migrations.Migration):
    dependencies = [
        ("courses", "0003_idempotency_for_exports"),
    ]

    operations = [
        migrations.AddField(
            model_name="course",
            name="content_digest",
            field=models.CharField(default="", max_length=64),
            preserve_default=False,
        ),
        migrations.RunPython(fingerprint_existing_courses, migrations.RunPython.noop),
    ]
