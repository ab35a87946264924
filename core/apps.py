from django.apps import AppConfig
from django.db.backends.signals import connection_created

from core import errors, files, health, metrics, queue


class CoreConfig(AppConfig):
    """What every app may use; its wiring, for what belongs to no one app."""

    name = "core"
    verbose_name = "Service"

    def ready(self):
        connection_created.connect(_wrap_queries)
        metrics.make_directory()
        metrics.add_counts(
            "cgs_queue_messages", "Task messages waiting in the broker, by queue.", label="queue",
            count=queue.waiting_by_queue,
        )
        health.add_detail("fileStore", files.store_detail)


def _wrap_queries(sender, connection, **kwargs):
    # The wrapper object outlives its connections: a reconnect must not wrap twice. First in the list,
    # so a `connection.execute_wrapper()` block open at the first connect pops its own, not this one.
    if errors.read_only_as_unavailable not in connection.execute_wrappers:
        connection.execute_wrappers.insert(0, errors.read_only_as_unavailable)
