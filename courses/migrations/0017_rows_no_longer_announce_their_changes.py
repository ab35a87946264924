"""
Jobs and courses no longer announce their changes: no process keeps copies of them any more. The
reverse puts back what 0016 made.
"""

from django.db import migrations

CHANNEL = "cgs_row_changed"

DROP = """
DROP TRIGGER IF EXISTS cgs_row_changed ON courses_course;
DROP TRIGGER IF EXISTS cgs_table_truncated ON courses_course;
DROP TRIGGER IF EXISTS cgs_course_inserted ON courses_course;
DROP FUNCTION IF EXISTS cgs_course_inserted();
DROP TRIGGER IF EXISTS cgs_row_changed ON courses_generationjob;
DROP TRIGGER IF EXISTS cgs_row_deleted ON courses_generationjob;
DROP TRIGGER IF EXISTS cgs_table_truncated ON courses_generationjob;
"""

CREATE = f"""
CREATE TRIGGER cgs_row_changed AFTER UPDATE OR DELETE ON courses_course
    FOR EACH ROW EXECUTE FUNCTION cgs_row_changed();
CREATE TRIGGER cgs_table_truncated AFTER TRUNCATE ON courses_course
    FOR EACH STATEMENT EXECUTE FUNCTION cgs_row_changed();
CREATE FUNCTION cgs_course_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('{CHANNEL}', 'courses_generationjob:' || NEW.job_id);
    RETURN NULL;
END
$$;
CREATE TRIGGER cgs_course_inserted AFTER INSERT ON courses_course
    FOR EACH ROW EXECUTE FUNCTION cgs_course_inserted();
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
        ("courses", "0016_rows_announce_their_changes"),
    ]

    operations = [migrations.RunSQL(DROP, reverse_sql=CREATE)]
