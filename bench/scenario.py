"""What the benchmark measures: its data, its requests with their targets, and the worker pipeline."""

import dataclasses
import time

from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts import services as account_services
from courses import jobs
from courses.models import GenerationJob

ALL_ADD_ONS = ["practical-exercises", "wrapup", "assessment", "articles", "videos", "agreement"]
NINE_CHAPTERS = [f"Chapter {number}: working with data, step by step" for number in range(1, 10)]


@dataclasses.dataclass(frozen=True)
class World:
    plain_key: str
    job_id: str
    course_id: str
    etag: str


@dataclasses.dataclass(frozen=True)
class Measure:
    name: str
    path: str
    target_ratio: float
    sql_budget: int
    method: str = "GET"
    headers: dict = dataclasses.field(default_factory=dict)
    body: str | None = None
    expect: int = 200


def build() -> World:
    """An account with credits to spare and a finished 9-chapter course with every add-on."""
    account_services.save_plan(slug="bench", name="Bench", monthly_course_credits=10**9, is_paid=True)
    account, plain_key = account_services.create_account(email="bench@example.com", plan_slug="bench")
    api_key = account.api_keys.get()
    job = jobs.create_job(
        api_key=api_key, subject="Data analysis with SQL", format="onepage", language_id="en-US",
        outline=NINE_CHAPTERS, add_ons=ALL_ADD_ONS,
    )
    jobs.run_job(job_id=job.pk)  # the offline generator, here and now
    job.refresh_from_db()
    course_id = job.course.public_id
    etag = Client().get(f"/go/{course_id}", HTTP_HOST="localhost")["ETag"]
    return World(plain_key=plain_key, job_id=job.public_id, course_id=course_id, etag=etag)


def measures(world: World) -> list[Measure]:
    authorized = {"Authorization": f"Bearer {world.plain_key}"}
    return [
        Measure("poll `GET /api/v1/courses/jobs/{id}`", f"/api/v1/courses/jobs/{world.job_id}",
                target_ratio=0.5, sql_budget=2, headers=authorized),
        Measure("create `POST /api/v1/courses`", "/api/v1/courses", target_ratio=0.3, sql_budget=5,
                method="POST", headers={**authorized, "Content-Type": "application/json"},
                body='{"subject": "Intro to SQL", "addOns": ["assessment"]}', expect=202),
        Measure("preview page `/go/{id}` (9 chapters, every add-on), a first view", f"/go/{world.course_id}",
                target_ratio=0.5, sql_budget=3),
        Measure("preview page, a repeat view: `If-None-Match` answered 304", f"/go/{world.course_id}",
                target_ratio=0.8, sql_budget=3, headers={"If-None-Match": world.etag}, expect=304),
    ]


def queries_for(measure: Measure) -> int:
    """The SQL queries one such request costs, counted in this process."""
    headers = {f"HTTP_{name.upper().replace('-', '_')}": value for name, value in measure.headers.items()}
    content_type = headers.pop("HTTP_CONTENT_TYPE", None)
    client = Client(HTTP_HOST="localhost")
    with CaptureQueriesContext(connection) as queries:
        if measure.method == "POST":
            response = client.post(measure.path, measure.body, content_type=content_type, **headers)
        else:
            response = client.get(measure.path, **headers)
    assert response.status_code == measure.expect, (measure.path, response.status_code)
    return len(queries.captured_queries)


def cold_render_ms(world: World) -> float:
    """The first view of the course once nothing of its page is stored: the median of five."""
    timings = []
    for _ in range(5):
        cache.clear()  # the benchmark's own Redis database: stored pages go
        started = time.perf_counter()
        Client(HTTP_HOST="localhost").get(f"/go/{world.course_id}")
        timings.append((time.perf_counter() - started) * 1000)
    return sorted(timings)[2]


def queue_jobs(count: int) -> list[int]:
    """Accept `count` jobs the way the API does; their tasks wait in the queue for a worker."""
    from accounts.models import ApiKey

    api_key = ApiKey.objects.get(account__email="bench@example.com")
    return [
        jobs.create_job(
            api_key=api_key, subject=f"Course {number} on data analysis", format="onepage",
            language_id="en-US", outline=[], add_ons=ALL_ADD_ONS,
        ).pk
        for number in range(count)
    ]


def wait_for_jobs(job_ids: list[int], *, timeout: float) -> float:
    """Wait until every job finished; return the seconds from the first claim to the last finish."""
    deadline = time.monotonic() + timeout
    waited_for = GenerationJob.objects.filter(pk__in=job_ids)
    while waited_for.exclude(status=GenerationJob.Status.COMPLETED).exists():
        failed = waited_for.filter(status=GenerationJob.Status.FAILED).count()
        if failed or time.monotonic() > deadline:
            raise RuntimeError(f"the pipeline did not complete: {failed} failed")
        time.sleep(0.1)
    times = list(waited_for.values_list("started_at", "finished_at"))
    return (max(finished for _, finished in times) - min(started for started, _ in times)).total_seconds()
