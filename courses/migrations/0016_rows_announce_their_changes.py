"""
Jobs and courses announce their changes as keys do (accounts 0007, config/row_cache.py): every row
updated or deleted is named on the channel, `table:id`, and every table truncated by its name. A
course inserted is announced as a change to its job, whose answer to a poll shows the course. A
running job's heartbeat alone is not announced: it changes every few seconds, and nothing kept of
a job holds it.
"""

from django.db import migrations

CHANNEL = "cgs_row_changed"  # config.row_cache.CHANNEL, as it was when this ran

COURSES = """
CREATE TRIGGER cgs_row_changed AFTER UPDATE OR DELETE ON courses_course
    FOR EACH ROW EXECUTE FUNCTION cgs_row_changed();
CREATE TRIGGER cgs_table_truncated AFTER TRUNCATE ON courses_course
    FOR EACH STATEMENT EXECUTE FUNCTION cgs_row_changed();
"""

COURSE_INSERTED = f"""
CREATE FUNCTION cgs_course_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('{CHANNEL}', 'courses_generationjob:' || NEW.job_id);
    RETURN NULL;
END
$$;
CREATE TRIGGER cgs_course_inserted AFTER INSERT ON courses_course
    FOR EACH ROW EXECUTE FUNCTION cgs_course_inserted();
"""

JOBS = """
CREATE TRIGGER cgs_row_changed AFTER UPDATE ON courses_generationjob FOR EACH ROW
    WHEN (to_jsonb(OLD) - 'heartbeat_at' IS DISTINCT FROM to_jsonb(NEW) - 'heartbeat_at')
    EXECUTE FUNCTION cgs_row_changed();
CREATE TRIGGER cgs_row_deleted AFTER DELETE ON courses_generationjob
    FOR EACH ROW EXECUTE FUNCTION cgs_row_changed();
CREATE TRIGGER cgs_table_truncated AFTER TRUNCATE ON courses_generationjob
    FOR EACH STATEMENT EXECUTE FUNCTION cgs_row_changed();
"""


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0007_rows_announce_their_changes"),
        ("courses", "0015_jobs_of_deleted_courses_forget_their_text"),
    ]

    operations = [
        migrations.RunSQL(
            COURSES,
            reverse_sql="DROP TRIGGER cgs_row_changed ON courses_course; "
            "DROP TRIGGER cgs_table_truncated ON courses_course;",
        ),
        migrations.RunSQL(
            COURSE_INSERTED,
            reverse_sql="DROP TRIGGER cgs_course_inserted ON courses_course; "
            "DROP FUNCTION cgs_course_inserted();",
        ),
        migrations.RunSQL(
            JOBS,
            reverse_sql="DROP TRIGGER cgs_row_changed ON courses_generationjob; "
            "DROP TRIGGER cgs_row_deleted ON courses_generationjob; "
            "DROP TRIGGER cgs_table_truncated ON courses_generationjob;",
        ),
    ]
