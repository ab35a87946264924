import logging

from celery import shared_task, signals
from django.conf import settings

from core import files, leases
from sources import services

logger = logging.getLogger(__name__)


@shared_task(
    bind=True,
    acks_late=True,
    # Backstops for a read that overruns its own limits (the fetch's and the child process's): the
    # soft limit fails the source; the hard limit kills the worker process, and recovery resumes it once its heartbeat stops.
    soft_time_limit=settings.SOURCE_FETCH_TIMEOUT_S + settings.SOURCE_EXTRACTION_TIMEOUT_S + 60,
    time_limit=settings.SOURCE_FETCH_TIMEOUT_S + settings.SOURCE_EXTRACTION_TIMEOUT_S + 90,
)
def extract_source(self, *, source_id: int, **_newer_kwargs) -> None:
    services.read_source(source_id=source_id, worker=leases.worker_name(self.request.hostname or ""))


@shared_task
def recover_sources() -> dict[str, int]:
    return services.recover_sources()


@signals.worker_ready.connect
def _say_how_documents_are_read(**_) -> None:
    # An operator learns at once, not from the first source left pending, that this machine cannot
    # confine its readers (docs/run/deployment.md says how to allow it).
    detail = services.sandbox_detail()
    level, message = _HOW_DOCUMENTS_ARE_READ[detail["reading"], detail.get("seccomp", False)]
    logger.log(level, message, extra=detail)
    # Wrong credentials or a missing bucket are told at start, not by the first source failing.
    store = files.store_detail()
    if store["status"] != "ok":
        logger.error("file store unavailable: sources cannot be read", extra=store)


_HOW_DOCUMENTS_ARE_READ = {
    ("confined", True): (logging.INFO, "documents are read in the sandbox"),
    ("confined", False): (logging.WARNING, "documents are read in the sandbox, without its seccomp filter"),
    ("unconfined", False): (logging.WARNING, "documents are read without a sandbox (SOURCE_SANDBOX=optional)"),
    ("refused", False): (logging.ERROR, "documents are left unread: no sandbox here, and SOURCE_SANDBOX=required"),
}
