"""
Lookups on the hottest paths (every API request's key, every poll's job), and the insert of the
hottest write (a create request's job), written once as SQL.

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
from django.db.models import signals
from django.db.models.base import ModelState


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
    def _converters(self) -> tuple[tuple[int, object], ...]:
        """(column, what the ORM does with its value) where it does anything: a JSON field's text is parsed."""
        return tuple(
            (index, field.from_db_value)
            for index, field in enumerate(self.fields)
            if hasattr(field, "from_db_value")
        )

    @functools.cached_property
    def pk_index(self) -> int:
        return next(index for index, field in enumerate(self.fields) if field.primary_key)

    @functools.cached_property
    def _array_indexes(self) -> tuple[int, ...]:
        fields = enumerate(self.fields)
        return tuple(index for index, field in fields if field.get_internal_type() == "ArrayField")

    @functools.cached_property
    def _initialised_quietly(self) -> bool:
        # Looked at on first use, once every app has connected its receivers.
        return not (signals.pre_init.has_listeners(self.model) or signals.post_init.has_listeners(self.model))

    def instance(self, values, db) -> models.Model:
        """An instance of the model from its columns' values as the database gives them, as `from_db` makes it."""
        values = list(values)
        for index in self._array_indexes:  # a row may be kept (config/row_cache.py): its lists are not shared
            if values[index] is not None:
                values[index] = list(values[index])
        for index, convert in self._converters:
            values[index] = convert(values[index], None, db)
        if not self._initialised_quietly:
            return self.model.from_db(db.alias, self.attnames, values)
        # What from_db does, without Model.__init__'s pass over every field: the hottest lookups
        # build six instances a request. A field not loaded stays deferred, as from_db leaves it.
        instance = self.model.__new__(self.model)
        instance.__dict__.update(zip(self.attnames, values))
        instance._state = ModelState()
        instance._state.adding = False
        instance._state.db = db.alias
        return instance


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

    @functools.cached_property
    def width(self) -> int:
        """How many columns a row has."""
        return sum(len(table.fields) for table in self._tables)

    def one(self, *params, **named_params) -> dict[str, models.Model | None] | None:
        """
        The instances of the first row by table alias (None for a table a LEFT JOIN found nothing
        in), or None for no row.
        """
        row = self.row(*params, **named_params)
        return None if row is None else self.instances(row)

    def row(self, *params, **named_params) -> tuple | None:
        """The first row as the database gives it (for `instances`), or None."""
        db = connections[DEFAULT_DB_ALIAS]  # resolved once: each use of the `connection` proxy looks it up
        with _preparing_cursor(db) as cursor:
            cursor.execute(self.sql, named_params or params)
            return cursor.fetchone()

    def row_and_tags(self, *params, **named_params) -> tuple[tuple | None, frozenset[str] | None]:
        """The first row and its `tags`, or (None, None): what config.row_cache.cached loads."""
        row = self.row(*params, **named_params)
        return row, None if row is None else self.tags(row)

    def instances(self, row: tuple) -> dict[str, models.Model | None]:
        """A row's model instances by table alias, new ones on each call: None for a table without one."""
        db = connections[DEFAULT_DB_ALIAS]
        by_alias: dict[str, models.Model | None] = {}
        start = 0
        for table in self._tables:
            values = row[start : start + len(table.fields)]
            start += len(table.fields)
            instance = None if values[table.pk_index] is None else table.instance(values, db)
            by_alias[table.alias] = instance
            owner = by_alias.get(table.parent)
            if owner is not None:
                # What `select_related` does: the related object, or None, cached on the owner.
                owner._meta.get_field(table.relation).set_cached_value(owner, instance)
        return by_alias

    def tags(self, row: tuple) -> frozenset[str]:
        """The rows a row was read from, as the row cache names them (`table:id`; config/row_cache.py)."""
        names = set()
        start = 0
        for table in self._tables:
            primary_key = row[start + table.pk_index]
            start += len(table.fields)
            if primary_key is not None:
                names.add(f"{table.model._meta.db_table}:{primary_key}")
        return frozenset(names)


def insert_after(instance: models.Model, *, first: str, params: list) -> bool:
    """
    Save the new `instance` as Model.save would (its defaults and auto_now_add values, each field's
    conversion for the database), in one statement behind `first`, a statement that writes and
    returns rows: `WITH first_rows AS (first) INSERT ... SELECT ... FROM first_rows`. The instance
    is saved only if `first` returned a row, so both are written or neither without a transaction.
    Return whether it was saved. Its primary key is the database's; no signal is sent. Prepared, as
    a Lookup's query is.
    """
    db = connections[DEFAULT_DB_ALIAS]
    fields = _inserted_fields(type(instance))
    values = [field.get_db_prep_save(field.pre_save(instance, True), connection=db) for field in fields]
    with _preparing_cursor(db) as cursor:
        cursor.execute(f"WITH first_rows AS ({first}) {_insert_from_first(type(instance))}", [*params, *values])
        row = cursor.fetchone()
    if row is None:
        return False
    instance.pk = row[0]
    instance._state.adding = False
    instance._state.db = db.alias
    return True


@functools.cache
def _inserted_fields(model: type[models.Model]) -> list[models.Field]:
    fields = [field for field in model._meta.concrete_fields if field is not model._meta.auto_field]
    for field in fields:
        if hasattr(field, "get_placeholder"):  # it would need more than a plain %s
            raise ValueError(f"{model.__name__}.{field.name} cannot be inserted with a plain parameter")
    return fields


@functools.cache
def _insert_from_first(model: type[models.Model]) -> str:
    fields = _inserted_fields(model)
    columns = ", ".join(f'"{field.column}"' for field in fields)
    placeholders = ", ".join(["%s"] * len(fields))
    table, primary_key = model._meta.db_table, model._meta.pk.column
    return f'INSERT INTO "{table}" ({columns}) SELECT {placeholders} FROM first_rows RETURNING "{primary_key}"'


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
