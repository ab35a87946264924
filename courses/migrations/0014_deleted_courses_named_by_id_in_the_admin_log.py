# The admin's log of staff's changes names a deleted course by its id, not by its name (see
# courses.admin.DeletesThroughService.log_deletions): entries written before are renamed so.

from django.db import migrations


def name_deleted_courses_by_their_id(apps, schema_editor):
    LogEntry = apps.get_model("admin", "LogEntry")
    ContentType = apps.get_model("contenttypes", "ContentType")
    course_type = ContentType.objects.filter(app_label="courses", model="course").first()
    if course_type is None:
        return
    deletions = LogEntry.objects.filter(content_type=course_type, action_flag=3)  # DELETION
    for entry in deletions.exclude(object_repr__regex=r"^cou_[A-Za-z0-9]+$").only("pk", "object_repr"):
        entry.object_repr = entry.object_repr.split(" ", 1)[0]
        entry.save(update_fields=["object_repr"])


class Migration(migrations.Migration):

    dependencies = [
        ("courses", "0013_job_from_sources"),
        ("admin", "0003_logentry_add_action_flag_choices"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.RunPython(name_deleted_courses_by_their_id, migrations.RunPython.noop),
    ]
