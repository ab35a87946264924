"""A task that fails as a bug does, for a real worker started with `-I tests.support.failing_tasks`."""

from celery import shared_task


@shared_task(name="tests.explode")
def explode(*, learner_name: str, api_key: str, signing_secret: str, export_id: str) -> None:
    found = {"learner": learner_name}  # a local variable no event may carry
    raise RuntimeError(f"failed with key {api_key}, secret {signing_secret} and /downloads/{export_id} {len(found)}")
