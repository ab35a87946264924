"""
The Celery app. Services start tasks with `core.queue.enqueue_on_commit(task, ...)`, so the worker only ever
sees rows that are committed, and pass ids, never model instances.
"""

import logging
import os
import time

from celery import Celery, signals
from django.conf import settings

from core.logs import request_id_var

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

logger = logging.getLogger("cgs.task")
_started: dict[str, float] = {}


@signals.before_task_publish.connect
def _carry_request_id(headers=None, **_):
    # The request that enqueued a task and the task itself log under the same id.
    if headers is not None and request_id_var.get():
        headers.setdefault("request_id", request_id_var.get())


@signals.worker_init.connect
def _serve_metrics(**_):
    # In the worker's main process, before its pool starts: the pool's processes record, this one serves.
    # Imported here, not above: prometheus-client reads PROMETHEUS_MULTIPROC_DIR as it is imported,
    # which must come after the settings have read .env.
    from core import metrics

    metrics.serve_worker()


@signals.task_prerun.connect
def _task_started(task_id=None, task=None, **_):
    _started[task_id] = time.perf_counter()
    request_id_var.set(getattr(task.request, "request_id", None) or task_id)


@signals.task_postrun.connect
def _task_finished(task_id=None, task=None, kwargs=None, retval=None, state=None, **_):
    started = _started.pop(task_id, None)
    extra = {
        "task": task.name,
        "task_id": task_id,
        "job_id": (kwargs or {}).get("job_id"),
        "outcome": state,
        "duration_ms": round((time.perf_counter() - started) * 1000, 1) if started else None,
    }
    level = logging.INFO
    if state == "SUCCESS" and task.name in _sweeps():
        from core import metrics

        for name in _schedule_names(task.name):
            metrics.record_sweep(name)
        # Beat sends a sweep every few seconds: its line says what it did, and is a DEBUG line when
        # it did nothing, so that a service at rest is quiet.
        extra["result"] = retval
        if not _did_something(retval):
            level = logging.DEBUG
    logger.log(level, "task", extra=extra)
    request_id_var.set(None)


def _sweeps() -> set[str]:
    """The tasks beat sends."""
    return {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}


def _schedule_names(task_name: str) -> list[str]:
    """The names CELERY_BEAT_SCHEDULE gives the sweep `task_name`."""
    return [name for name, entry in settings.CELERY_BEAT_SCHEDULE.items() if entry["task"] == task_name]


def _did_something(result) -> bool:
    """Whether a sweep's result, a count or counts by kind, counts anything."""
    if isinstance(result, dict):
        return any(result.values())
    return bool(result)
