# Events about a course or a source name it as their subject, so that deleting it finds them; those
# about courses and sources deleted before this go now, as they would have with them.

from django.db import migrations

_SUBJECTS = """
UPDATE "webhooks_webhookevent" SET "subject" = COALESCE(CASE
    WHEN "event_type" IN ('course.created', 'course.updated') THEN "body"::jsonb -> 'course' ->> 'id'
    WHEN "event_type" IN ('course.exported', 'course.deleted') THEN "body"::jsonb ->> 'courseId'
    ELSE "body"::jsonb -> 'source' ->> 'id'
END, '')
WHERE "subject" = ''
  AND "event_type" IN ('course.created', 'course.updated', 'course.exported', 'course.deleted',
                       'source.ready', 'source.failed')
"""


def delete_events_of_deleted_courses_and_sources(apps, schema_editor):
    WebhookEvent = apps.get_model("webhooks", "WebhookEvent")
    Course = apps.get_model("courses", "Course")
    Source = apps.get_model("sources", "Source")
    about_courses = WebhookEvent.objects.filter(
        event_type__in=["course.created", "course.updated", "course.exported"], subject__startswith="cou_"
    ).exclude(subject__in=Course.objects.values("public_id"))
    about_sources = WebhookEvent.objects.filter(
        event_type__in=["source.ready", "source.failed"], subject__startswith="src_"
    ).exclude(subject__in=Source.objects.values("public_id"))
    about_courses.delete()
    about_sources.delete()


class Migration(migrations.Migration):

    dependencies = [
        ("webhooks", "0002_webhookevent_subject"),
        ("courses", "0013_job_from_sources"),
        ("sources", "0004_passage_embedding"),
    ]

    operations = [
        migrations.RunSQL(_SUBJECTS, reverse_sql=migrations.RunSQL.noop),
        migrations.RunPython(delete_events_of_deleted_courses_and_sources, migrations.RunPython.noop),
    ]
