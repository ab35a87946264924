from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('courses', '0012_generation_checkpoints'),
    ]

    operations = [
        migrations.AddField(
            model_name='generationjob',
            name='from_sources',
            field=models.BooleanField(default=False),
        ),
        # Jobs made before: those that still name a source were asked to build from sources.
        migrations.RunSQL(
            'UPDATE "courses_generationjob" SET "from_sources" = true WHERE EXISTS ('
            'SELECT 1 FROM "courses_jobsource" WHERE "courses_jobsource"."job_id" = "courses_generationjob"."id")',
            reverse_sql=migrations.RunSQL.noop,
        ),
    ]
