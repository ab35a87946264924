"""
Keys, accounts and plans announce their changes to the web processes that keep copies of them
(config/row_cache.py): every row updated or deleted is named on one channel, `table:id`, and every
table truncated by its name. PostgreSQL delivers the names once the transaction commits.
"""

from django.db import migrations

CHANNEL = "cgs_row_changed"  # config.row_cache.CHANNEL, as it was when this ran
TABLES = ("accounts_apikey", "accounts_account", "accounts_plan")

FUNCTION = f"""
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
"""


def announcing(table: str) -> migrations.RunSQL:
    """The triggers that announce changes to `table`'s rows (with the function above)."""
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
        ("accounts", "0006_plan_rate_limits_learners_results"),
    ]

    operations = [
        migrations.RunSQL(FUNCTION, reverse_sql="DROP FUNCTION cgs_row_changed();"),
        *(announcing(table) for table in TABLES),
    ]
