# A deleted course's jobs forget the outline and instructions they were given (courses.deletion):
# those of courses deleted before do so now.

from django.db import migrations


def blank_the_text_of_jobs_of_deleted_courses(apps, schema_editor):
    GenerationJob = apps.get_model("courses", "GenerationJob")
    made_it = GenerationJob.objects.filter(part="", status="completed", course__isnull=True)
    regenerated_it = GenerationJob.objects.exclude(part="").filter(regenerated_course__isnull=True)
    for jobs in (made_it, regenerated_it):
        jobs.exclude(outline=[], instructions="").update(outline=[], instructions="")


class Migration(migrations.Migration):

    dependencies = [
        ("courses", "0014_deleted_courses_named_by_id_in_the_admin_log"),
    ]

    operations = [
        migrations.RunPython(blank_the_text_of_jobs_of_deleted_courses, migrations.RunPython.noop),
    ]
