"""
An idempotency record names what the first request made by its public id (`made`), instead of a
foreign key to each kind: exports are their own app's now, which builds on courses.
"""

from django.db import migrations, models


def name_what_they_made(apps, schema_editor):
    IdempotencyRecord = apps.get_model("courses", "IdempotencyRecord")
    for record in IdempotencyRecord.objects.select_related("job", "export").iterator():
        made = record.job.public_id if record.job_id else record.export.public_id
        IdempotencyRecord.objects.filter(pk=record.pk).update(made=made)


def point_at_what_they_made(apps, schema_editor):
    IdempotencyRecord = apps.get_model("courses", "IdempotencyRecord")
    GenerationJob = apps.get_model("courses", "GenerationJob")
    Export = apps.get_model("courses", "Export")
    for record in IdempotencyRecord.objects.iterator():
        job = GenerationJob.objects.filter(public_id=record.made).first()
        export = None if job else Export.objects.filter(public_id=record.made).first()
        if job is None and export is None:
            record.delete()
        else:
            IdempotencyRecord.objects.filter(pk=record.pk).update(job=job, export=export)


class Migration(migrations.Migration):
    dependencies = [
        ("courses", "0017_rows_no_longer_announce_their_changes"),
    ]

    operations = [
        migrations.AddField(
            model_name="idempotencyrecord",
            name="made",
            field=models.CharField(default="", max_length=32),
            preserve_default=False,
        ),
        migrations.RunPython(name_what_they_made, point_at_what_they_made),
        migrations.RemoveConstraint(
            model_name="idempotencyrecord",
            name="idempotency_record_for_a_job_or_an_export",
        ),
        migrations.RemoveField(model_name="idempotencyrecord", name="job"),
        migrations.RemoveField(model_name="idempotencyrecord", name="export"),
    ]
