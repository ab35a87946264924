"""
Prometheus metrics (docs/run/metrics.md): the families every process records, the counts the apps
add to a scrape (see `add_counts`), `/metrics` on the web machines and a worker's own port.

With PROMETHEUS_MULTIPROC_DIR set, prometheus-client keeps every process's values in files there
(gunicorn's workers, Celery's pool), and a scrape sums them.
"""

import hmac
import logging
import shutil
import time
from collections.abc import Callable
from pathlib import Path

import prometheus_client
from django.conf import settings
from django.db.models import Count
from django.http import Http404, HttpResponse
from prometheus_client import multiprocess, values
from prometheus_client.core import GaugeMetricFamily

from core import redis_client

logger = logging.getLogger(__name__)

# What the web processes record (core.middleware.RequestMetricsMiddleware).
HTTP_REQUESTS = prometheus_client.Counter(
    "cgs_http_requests", "HTTP requests answered, by URL pattern, method and status.", ["route", "method", "status"]
)
HTTP_REQUEST_SECONDS = prometheus_client.Histogram(
    "cgs_http_request_duration_seconds", "Time to answer an HTTP request, by URL pattern.", ["route"]
)

# What the workers record.
_LONG = (1, 5, 15, 30, 60, 120, 300, 600, 1200, 1800, float("inf"))
JOB_SECONDS = prometheus_client.Histogram(
    "cgs_job_duration_seconds", "One attempt at a generation job, by how it ended.", ["outcome"], buckets=_LONG
)
STEP_SECONDS = prometheus_client.Histogram(
    "cgs_job_step_duration_seconds", "One step of a generation (plan, chapter, add-on), by step.", ["step"],
    buckets=_LONG,
)
MODEL_REQUESTS = prometheus_client.Counter(
    "cgs_model_requests", "HTTP requests to the model server (each retry counts), by outcome.", ["outcome"]
)
MODEL_TOKENS = prometheus_client.Counter(
    "cgs_model_tokens", "Tokens the model server reported using, by kind (prompt, completion).", ["kind"]
)
WEBHOOK_DELIVERIES = prometheus_client.Counter(
    "cgs_webhook_deliveries", "Webhook delivery attempts, by outcome (delivered, retrying, failed).", ["outcome"]
)

# What the apps count when /metrics is scraped: family name → (help, label, count()).
_counts: dict[str, tuple[str, str, Callable[[], dict[str, float]]]] = {}

# When each sweep last ran, by its name in CELERY_BEAT_SCHEDULE: one Redis hash for every worker.
SWEEPS_KEY = "cgs:metrics:sweeps"


def add_counts(family: str, documentation: str, *, label: str, count: Callable[[], dict[str, float]]) -> None:
    """
    Add the gauge `family` to every scrape of /metrics: one sample per key of `count()`, labelled
    `label`. `count()` runs at each scrape, so it reads what every machine shares (PostgreSQL, Redis)
    in a query or two.
    """
    _counts[family] = (documentation, label, count)


def counted_by(queryset, field: str, values) -> dict[str, int]:
    """The rows of `queryset` by their `field`, one of `values` (0 for those none has): one query."""
    counted = dict(queryset.order_by().values_list(field).annotate(count=Count("pk")))
    return {value: counted.get(value, 0) for value in values}


def record_sweep(name: str) -> None:
    """Note that the sweep `name` ran now, for `cgs_sweep_last_run_timestamp_seconds`; never raises."""
    try:
        redis_client.client().hset(SWEEPS_KEY, name, f"{time.time():.3f}")
    except Exception:  # a metric never fails the sweep it describes
        logger.warning("sweep time not recorded", extra={"sweep": name}, exc_info=True)


def _sweep_times() -> dict[str, float]:
    recorded = {key.decode(): float(value) for key, value in redis_client.client().hgetall(SWEEPS_KEY).items()}
    # A sweep that never ran shows 0, so an alert on its age fires rather than finding no series.
    return {name: recorded.get(name, 0.0) for name in settings.CELERY_BEAT_SCHEDULE}


add_counts(
    "cgs_sweep_last_run_timestamp_seconds",
    "When each periodic sweep last ran to its end (unix time; 0: never since Redis was emptied).",
    label="sweep",
    count=_sweep_times,
)


class _Counts:
    """The families of `add_counts`, read afresh at each scrape."""

    def collect(self):
        for family, (documentation, label, count) in _counts.items():
            try:
                values = count()
            except Exception:  # one family that cannot be read leaves the others in the scrape
                logger.warning("metrics: a family could not be read", extra={"family": family}, exc_info=True)
                continue
            gauge = GaugeMetricFamily(family, documentation, labels=[label])
            for value_label, value in sorted(values.items()):
                gauge.add_metric([value_label], value)
            yield gauge


class _ThisProcess:
    """The families recorded in this process, when there is no PROMETHEUS_MULTIPROC_DIR to sum."""

    def collect(self):
        yield from prometheus_client.REGISTRY.collect()


def _registry(*, counts: bool) -> prometheus_client.CollectorRegistry:
    registry = prometheus_client.CollectorRegistry(auto_describe=False)
    if settings.PROMETHEUS_MULTIPROC_DIR:
        multiprocess.MultiProcessCollector(registry, path=settings.PROMETHEUS_MULTIPROC_DIR)
    else:
        registry.register(_ThisProcess())
    if counts:
        registry.register(_Counts())
    return registry


def exposition() -> bytes:
    """Every family of the web processes and of the apps' counts, in the Prometheus text format."""
    return prometheus_client.generate_latest(_registry(counts=True))


def view(request):
    """
    GET /metrics, to `Authorization: Bearer <METRICS_TOKEN>` only. Any other request is answered as
    an unknown address is (404), so a caller without the token cannot tell the endpoint exists.
    """
    if not settings.METRICS_TOKEN or request.method != "GET" or not _bears_token(request):
        raise Http404
    return HttpResponse(exposition(), content_type=prometheus_client.CONTENT_TYPE_LATEST)


def _bears_token(request) -> bool:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    # compare_digest takes as long whatever prefix matches, so timing tells nothing of the token.
    return scheme.lower() == "bearer" and hmac.compare_digest(token.encode(), settings.METRICS_TOKEN.encode())


def in_multiprocess_mode() -> bool:
    """Whether this process records its values in PROMETHEUS_MULTIPROC_DIR (read as prometheus-client was imported)."""
    return values.ValueClass is not values.MutexValue


def make_directory() -> None:
    """Make PROMETHEUS_MULTIPROC_DIR if it is set and missing: a process records nothing without it."""
    if settings.PROMETHEUS_MULTIPROC_DIR and in_multiprocess_mode():
        Path(settings.PROMETHEUS_MULTIPROC_DIR).mkdir(parents=True, exist_ok=True)


def empty_directory() -> None:
    """
    Empty PROMETHEUS_MULTIPROC_DIR (creating it if missing), as a process group starts: the values
    of the processes before it would otherwise be summed with the new ones.
    """
    directory = settings.PROMETHEUS_MULTIPROC_DIR
    if not directory:
        return
    path = Path(directory)
    if path.exists():
        shutil.rmtree(path)
    path.mkdir(parents=True)


def serve_worker() -> None:
    """
    Answer a worker's own families on METRICS_PORT (all addresses), from the worker's main process;
    nothing when METRICS_PORT is not set.
    :raises RuntimeError: if METRICS_PORT is set without PROMETHEUS_MULTIPROC_DIR, since the pool's
        processes, where tasks run, would record values no scrape sees
    """
    if not settings.METRICS_PORT:
        return
    if not settings.PROMETHEUS_MULTIPROC_DIR or not in_multiprocess_mode():
        raise RuntimeError("METRICS_PORT is set but PROMETHEUS_MULTIPROC_DIR is not: set both, or neither.")
    empty_directory()
    _name_every_outcome()
    prometheus_client.start_http_server(settings.METRICS_PORT, registry=_registry(counts=False))
    logger.info("metrics served", extra={"port": settings.METRICS_PORT})


def _name_every_outcome() -> None:
    # Every series a worker can record, at 0 from the start: a scrape shows each family before its
    # first event, and rate() sees a series's first increase.
    for family, label_values in (
        (JOB_SECONDS, ("completed", "failed", "stopped")),
        (MODEL_REQUESTS, ("ok", "refused", "rate_limited", "server_error", "timeout", "error")),
        (MODEL_TOKENS, ("prompt", "completion")),
        (WEBHOOK_DELIVERIES, ("delivered", "retrying", "failed")),
    ):
        for label_value in label_values:
            family.labels(label_value)


def process_ended(pid: int) -> None:
    """Let the files of a process that ended be merged into the others' (gunicorn's child_exit)."""
    if settings.PROMETHEUS_MULTIPROC_DIR:
        multiprocess.mark_process_dead(pid, path=settings.PROMETHEUS_MULTIPROC_DIR)
