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
from django.db import DEFAULT_DB_ALIAS, connections, models
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

    @functools.cached_property
    def attnames(self) -> list[str]:
        return [field.attname for field in self.fields]

    @functools.cached_property
    def converters(self) -> list:
        """Per column, what the ORM does with its value (a JSON field's text becomes its value), or None."""
        return [getattr(field, "from_db_value", None) for field in self.fields]

    @functools.cached_property
    def pk_index(self) -> int:
        return next(index for index, field in enumerate(self.fields) if field.primary_key)


class Lookup:
    """
    `SELECT <every field of every table> FROM ... WHERE ...`, compiled once. `joins` is the SQL
    after the first table (JOIN clauses and WHERE, with %s placeholders or %(name)s ones).
    """

    def __init__(self, *tables: Table, joins: str):
        for index, table in enumerate(tables):
            if table.parent is not None and table.parent not in {earlier.alias for earlier in tables[:index]}:
                raise ValueError(f"Table {table.alias!r} must come after its parent {table.parent!r}")
        self._tables = tables
        columns = ", ".join(
            f'{table.alias}."{field.column}"' for table in tables for field in table.fields
        )
        first = tables[0]
        self.sql = f'SELECT {columns} FROM "{first.model._meta.db_table}" {first.alias} {joins}'

    def one(self, *params, **named_params) -> dict[str, models.Model | None] | None:
        """
        The instances of the first row by table alias (None for a table a LEFT JOIN found nothing
        in), or None for no row.
        """
        db = connections[DEFAULT_DB_ALIAS]  # resolved once: each use of the `connection` proxy looks it up
        with _preparing_cursor(db) as cursor:
            cursor.execute(self.sql, named_params or params)
            row = cursor.fetchone()
        if row is None:
            return None
        by_alias: dict[str, models.Model | None] = {}
        start = 0
        for table in self._tables:
            values = row[start : start + len(table.fields)]
            start += len(table.fields)
            instance = None
            if values[table.pk_index] is not None:
                values = [
                    value if convert is None else convert(value, None, db)
                    for convert, value in zip(table.converters, values, strict=True)
                ]
                instance = table.model.from_db(db.alias, table.attnames, values)
            by_alias[table.alias] = instance
            owner = by_alias.get(table.parent)
            if owner is not None:
                # What `select_related` does: the related object, or None, cached on the owner.
                owner._meta.get_field(table.relation).set_cached_value(owner, instance)
        return by_alias


def _preparing_cursor(db):
    """
    What `connection.cursor()` gives (Django's wrapper: its errors, its query log and counts), over
    a cursor that binds parameters on the server, which psycopg prepares once the connection
    allows it (`prepare_threshold`).
    """
    db.close_if_health_check_failed()
    db.ensure_connection()
    db.validate_thread_sharing()
    cursor = psycopg.Cursor(db.connection)
    return _LoggedPreparedCursor(cursor, db) if db.queries_logged else db.make_cursor(cursor)


class _LoggedPreparedCursor(utils.CursorDebugWrapper):
    """
    Django's query log (DEBUG, tests) for a prepared statement: psycopg keeps no text of a prepared
    execution, so the log gets the SQL with its parameters composed, as the ORM's queries have it.
    """

    def execute(self, sql, params=None):
        with self.debug_sql(self.db.ops.compose_sql(sql, params), params):
            return utils.CursorWrapper.execute(self, sql, params)
