"""
Keys, accounts and plans no longer announce their changes: no process keeps copies of them any
more. After the courses' triggers, which call the same function, are gone. The reverse puts back
what 0007 made.
"""

from django.db import migrations

CHANNEL = "cgs_row_changed"
TABLES = ("accounts_apikey", "accounts_account", "accounts_plan")

DROP = "".join(
    f"DROP TRIGGER IF EXISTS cgs_row_changed ON {table}; DROP TRIGGER IF EXISTS cgs_table_truncated ON {table};"
    for table in TABLES
) + "DROP FUNCTION IF EXISTS cgs_row_changed();"

CREATE = f"""
CREATE FUNCTION cgs_row_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_LEVEL = 'STATEMENT' THEN
        PERFORM pg_notify('{CHANNEL}', TG_TABLE_NAME);
    ELSE
        PERFORM pg_notify('{CHANNEL}', TG_TABLE_NAME || ':' || OLD.id);
    END IF;
    RETURN NULL;
END
$$;
""" + "".join(
    f"""
CREATE TRIGGER cgs_row_changed AFTER UPDATE OR DELETE ON {table}
    FOR EACH ROW EXECUTE FUNCTION cgs_row_changed();
CREATE TRIGGER cgs_table_truncated AFTER TRUNCATE ON {table}
    FOR EACH STATEMENT EXECUTE FUNCTION cgs_row_changed();
"""
    for table in TABLES
)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0007_rows_announce_their_changes"),
        ("courses", "0017_rows_no_longer_announce_their_changes"),
    ]

    operations = [migrations.RunSQL(DROP, reverse_sql=CREATE)]
