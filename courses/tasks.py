from celery import shared_task
from django.conf import settings

from courses import services


@shared_task(
    acks_late=True,
    # A hung generation is killed, and the job recovered by recover_jobs, rather than holding a
    # worker forever.
    soft_time_limit=settings.GENERATION_TIMEOUT_S + 60,
    time_limit=settings.GENERATION_TIMEOUT_S + 120,
)
def run_generation(*, job_id: int, **_newer_kwargs) -> None:
    services.run_job(job_id=job_id)


@shared_task
def recover_jobs() -> dict[str, int]:
    return services.recover_jobs()
