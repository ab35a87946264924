"""
Lookups on the hottest paths (every API request's key, every poll's job), written once as SQL.

The ORM compiles a queryset into SQL on every call: for a two-table `select_related` that is
several times the cost of the query itself. A `Lookup` compiles its SQL once, from the models'
own field lists (so a new field is picked up without touching the SQL), and turns a row into
real model instances with their relations set, as `select_related` would.

PostgreSQL, in turn, would parse and plan the query on every call, which for these joins costs
more than running it: a `Lookup` runs as a prepared statement, planned once per connection
(settings: DB_PREPARED_STATEMENTS). The ORM's own queries bind their parameters on the client
and are never prepared.
"""

import dataclasses
import functools

import psycopg
from django.db import connection, models
from django.db.backends import utils


@dataclasses.dataclass(frozen=True)
class Table:
    """
    A model in the FROM clause: its alias, the fields to load (None: every concrete field), and
    for a joined table, the instance it belongs to (`parent`, an alias) under which relation.
    """

    model: type[models.Model]
    alias: str
    only: tuple[str, ...] | None = None
    parent: str | None = None
    relation: str | None = None

    @functools.cached_property
    def fields(self) -> list[models.Field]:
        fields = self.model._meta.concrete_fields
        return [field for field in fields if self.only is None or field.name in self.only or field.primary_key]


class Lookup:
    """
    `SELECT <every field of every table> FROM ... WHERE ...`, compiled once. `joins` is the SQL
    after the first table (JOIN clauses and WHERE with %s placeholders).
    """

    def __init__(self, *tables: Table, joins: str):
        self._tables = tables
        columns = ", ".join(
            f'{table.alias}."{field.column}"' for table in tables for field in table.fields
        )
        first = tables[0]
        self.sql = f'SELECT {columns} FROM "{first.model._meta.db_table}" {first.alias} {joins}'

    def one(self, *params) -> list[models.Model | None] | None:
        """The instances of the first row (None for a table a LEFT JOIN found nothing in), or None."""
        with _preparing_cursor() as cursor:
            cursor.execute(self.sql, params)
            row = cursor.fetchone()
        if row is None:
            return None
        instances: list[models.Model | None] = []
        start = 0
        for table in self._tables:
            values = [
                # What the ORM does with a column's value (a JSON field's text becomes its value).
                field.from_db_value(value, None, connection) if hasattr(field, "from_db_value") else value
                for field, value in zip(table.fields, row[start : start + len(table.fields)], strict=True)
            ]
            start += len(table.fields)
            pk_index = next(index for index, field in enumerate(table.fields) if field.primary_key)
            instance = None
            if values[pk_index] is not None:
                instance = table.model.from_db(
                    connection.alias, [field.attname for field in table.fields], values
                )
            instances.append(instance)
        by_alias = {table.alias: instance for table, instance in zip(self._tables, instances, strict=True)}
        for table, instance in zip(self._tables, instances, strict=True):
            owner = by_alias.get(table.parent)
            if owner is not None:
                # What `select_related` does: the related object, or None, cached on the owner.
                owner._meta.get_field(table.relation).set_cached_value(owner, instance)
        return instances


def _preparing_cursor():
    """
    What `connection.cursor()` gives (Django's wrapper: its errors, its query log and counts), over
    a cursor that binds parameters on the server, which psycopg prepares once the connection
    allows it (`prepare_threshold`).
    """
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    connection.validate_thread_sharing()
    cursor = psycopg.Cursor(connection.connection)
    return _LoggedPreparedCursor(cursor, connection) if connection.queries_logged else connection.make_cursor(cursor)


class _LoggedPreparedCursor(utils.CursorDebugWrapper):
    """
    Django's query log (DEBUG, tests) for a prepared statement: psycopg keeps no text of a prepared
    execution, so the log gets the SQL with its parameters composed, as the ORM's queries have it.
    """

    def execute(self, sql, params=None):
        with self.debug_sql(self.db.ops.compose_sql(sql, params), params):
            return utils.CursorWrapper.execute(self, sql, params)
