"""What the benchmark measures: its data, its requests with their targets, and the worker pipeline."""

import dataclasses
import json
import random
import time
import urllib.parse

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts import services as account_services
from core import redis_client
from courses import jobs
from courses.models import Course, GenerationJob

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
    """The requests measured, each with its floor: a ratio to the bare view and an SQL budget."""
    authorized = {"Authorization": f"Bearer {world.plain_key}"}
    return [
        Measure("poll `GET /api/v1/courses/jobs/{id}`", f"/api/v1/courses/jobs/{world.job_id}",
                target_ratio=0.3, sql_budget=2, headers=authorized),
        Measure("create `POST /api/v1/courses`", "/api/v1/courses", target_ratio=0.12, sql_budget=5,
                method="POST", headers={**authorized, "Content-Type": "application/json"},
                body='{"subject": "Intro to SQL", "addOns": ["assessment"]}', expect=202),
        Measure("preview page `/go/{id}` (9 chapters, every add-on), a first view", f"/go/{world.course_id}",
                target_ratio=0.35, sql_budget=3),
        Measure("preview page, a repeat view: `If-None-Match` answered 304", f"/go/{world.course_id}",
                target_ratio=0.5, sql_budget=3, headers={"If-None-Match": world.etag}, expect=304),
        Measure("read course `GET /api/v1/courses/{id}` (9 chapters, every add-on)", f"/api/v1/courses/{world.course_id}",
                target_ratio=0.3, sql_budget=3, headers=authorized),
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


# Learners on the preview page ---------------------------------------------------------------------

BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36"
# A CSRF secret as the csrftoken cookie holds it; the form field may carry it as it is.
CSRF_SECRET = "BenchBenchBenchBenchBenchBench00"


def progress_path(world: World) -> str:
    return f"/go/{world.course_id}/progress"


def progress_requests(world: World, *, learners: int) -> list[dict]:
    """
    `learners` learners who started the course already, and for each the request their page sends
    every 15 seconds: their cookies (learner and CSRF) and a form-encoded batch (a chapter in view,
    15 seconds spent).
    """
    from django.http import HttpResponse

    from learners import identity
    from learners.models import Learner

    course = Course.objects.defer("content").get(public_id=world.course_id)
    now = timezone.now()
    made = Learner.objects.bulk_create(
        Learner(course=course, started_at=now, last_seen_at=now, version=course.version, pages=11, pages_seen=1,
                current_page=0)
        for _ in range(learners)
    )
    chooser = random.Random(20261122)
    requests = []
    for learner in made:
        response = HttpResponse()
        identity.remember(response, course_public_id=course.public_id, learner=identity.Known(learner.public_id))
        chapter = chooser.randint(1, 9)
        batch = {"version": course.version, "page": chapter, "seen": [chapter], "seconds": 15}
        requests.append(
            {
                "cookie": f"cgs_learner={response.cookies['cgs_learner'].coded_value}; csrftoken={CSRF_SECRET}",
                "body": urllib.parse.urlencode({"csrfmiddlewaretoken": CSRF_SECRET, "batch": json.dumps(batch)}),
            }
        )
    return requests


def progress_queries(world: World) -> int:
    """
    The SQL queries a learner's batch of progress costs, counted in this process once it has seen
    the course (its first batch also reads the course's page count, which a process then keeps).
    """
    [request] = progress_requests(world, learners=1)
    client = Client(HTTP_HOST="localhost", HTTP_USER_AGENT=BROWSER, HTTP_COOKIE=request["cookie"])

    def send():
        response = client.post(progress_path(world), request["body"], content_type="application/x-www-form-urlencoded")
        assert response.status_code == 204, response.status_code

    send()
    with CaptureQueriesContext(connection) as queries:
        send()
    return len(queries.captured_queries)


def cold_render_ms(world: World) -> float:
    """The first view of the course once nothing of its page is stored: the median of five."""
    timings = []
    for _ in range(5):
        redis_client.cache_client().flushdb()  # the benchmark's own Redis database: stored pages go
        redis_client.forget_in_process()
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
