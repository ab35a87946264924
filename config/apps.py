from django.apps import AppConfig
from django.core.signals import setting_changed
from django.db.backends.signals import connection_created

from config import errors, row_cache


class ServiceConfig(AppConfig):
    """The project's own wiring, for what belongs to no one app."""

    name = "config"
    verbose_name = "Service"

    def ready(self):
        connection_created.connect(_wrap_queries)
        setting_changed.connect(_forget_rows)


def _wrap_queries(sender, connection, **kwargs):
    # The wrapper object outlives its connections: a reconnect must not wrap twice. First in the list,
    # so a `connection.execute_wrapper()` block open at the first connect pops its own, not this one.
    if errors.read_only_as_unavailable not in connection.execute_wrappers:
        connection.execute_wrappers.insert(0, errors.read_only_as_unavailable)
    if row_cache.note_writes not in connection.execute_wrappers:
        connection.execute_wrappers.insert(0, row_cache.note_writes)


def _forget_rows(**kwargs):
    # What is kept was computed with the settings of its time (a course's share URL, say).
    row_cache.forget_everything()
