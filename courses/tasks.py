from celery import shared_task
from django.conf import settings

from core import leases
from courses import idempotency, jobs


@shared_task(
    bind=True,
    acks_late=True,
    # Backstops for a generation that overruns its own deadline: the soft limit fails the job with
    # GENERATION_TIMEOUT; the hard limit kills the worker process, and recover_jobs resumes the job
    # once its heartbeat stops.
    soft_time_limit=settings.GENERATION_TIMEOUT_S + 60,
    time_limit=settings.GENERATION_TIMEOUT_S + 120,
)
def run_generation(self, *, job_id: int, **_newer_kwargs) -> None:
    jobs.run_job(job_id=job_id, worker=leases.worker_name(self.request.hostname or ""))


@shared_task
def recover_jobs() -> dict[str, int]:
    return jobs.recover_jobs()


@shared_task
def purge_expired_idempotency_records() -> int:
    return idempotency.purge_expired()
