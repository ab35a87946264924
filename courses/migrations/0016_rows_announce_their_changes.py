"""
Jobs and courses announce their changes as keys do (accounts 0007, config/row_cache.py): every row
updated or deleted is named on the channel, `table:id`, and every table truncated by its name. A
course inserted is announced as a change to its job, whose answer to a poll shows the course.
"""

from django.db import migrations

CHANNEL = "cgs_row_changed"  # config.row_cache.CHANNEL, as it was when this ran
TABLES = ("courses_generationjob", "courses_course")

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


def announcing(table: str) -> migrations.RunSQL:
    """The triggers that announce changes to `table`'s rows (the function is accounts 0007's)."""
    return migrations.RunSQL(
        f"""
        CREATE TRIGGER cgs_row_changed AFTER UPDATE OR DELETE ON {table}
            FOR EACH ROW EXECUTE FUNCTION cgs_row_changed();
        CREATE TRIGGER cgs_table_truncated AFTER TRUNCATE ON {table}
            FOR EACH STATEMENT EXECUTE FUNCTION cgs_row_changed();
        """,
        reverse_sql=f"""
        DROP TRIGGER cgs_row_changed ON {table};
        DROP TRIGGER cgs_table_truncated ON {table};
        """,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0007_rows_announce_their_changes"),
        ("courses", "0015_jobs_of_deleted_courses_forget_their_text"),
    ]

    operations = [
        *(announcing(table) for table in TABLES),
        migrations.RunSQL(
            COURSE_INSERTED,
            reverse_sql="DROP TRIGGER cgs_course_inserted ON courses_course; DROP FUNCTION cgs_course_inserted();",
        ),
    ]
