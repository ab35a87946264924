"""
Clients generated from the live document, unedited, against the live service, in Python
(openapi-python-client) and TypeScript (@hey-api/openapi-ts with zod, compiled by `tsc --strict`):
the quickstart flow, every documented error parsed into its typed model, every webhook event and
every job failure code parsed into theirs.

An endpoint that lands joins the flow in each language (tests/support/clients/python_flow.py and
tests/support/clients/typescript/flow.ts); the errors every endpoint shares are then tested for it
from the call its flow step recorded, and its own errors are cases in OWN_ERRORS below. The tests
fail, naming what is missing, until each of those is there.
"""

import contextlib
import csv
import hashlib
import io
import json
import os
import secrets
import string
import subprocess
import sys
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime

import psycopg
import requests
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import override_settings

from accounts import services as account_services
from accounts.models import ApiKey, Plan
from api.openapi import error_codes_in
from core import ratelimit
from courses import jobs
from courses.generation import errors as generation_errors
from courses.models import Course, CourseVersion, GenerationJob, JobSource, Part, RemovedLink
from courses.serializers import CourseOutput
from exports.models import Export
from learners import results_csv
from learners.models import Learner
from sources.models import Source
from tests.support import receivers
from tests.support.clients.drivers import files_in
from tests.support.clients.tools import ROOT
from tests.support.factories import (
    AccountFactory,
    CourseFactory,
    GenerationJobFactory,
    PlanFactory,
    SourceFactory,
)
from tests.support.readers import FAILING, PASSING, Reader

MIB = 1024 * 1024
LEARNER_HOOK = "https://hooks.example.com/learners/7f3a9c2e"  # tests/support/clients/python_flow.py and flow.ts


def json_document(live_document: bytes) -> dict:
    return json.loads(live_document)


def same_instant(first: str, second: str) -> bool:
    return datetime.fromisoformat(first) == datetime.fromisoformat(
        second
    )


def without_times(course: dict) -> dict:
    return {name: value for name, value in course.items() if name != "createdAt"}


def issue_key(*, paid: bool = True, credits: int = 50) -> str:
    plan = PlanFactory(
        slug=f"plan-{paid}-{credits}", name=f"Plan {credits}", is_paid=paid, monthly_course_credits=credits
    )
    return account_services.issue_key(account=AccountFactory(plan=plan), name="clients")


# The quickstart flow -------------------------------------------------------------------------------


def test_the_quickstart_flow_runs_unedited(generated_client, service, plain_key, api_key):
    state = generated_client.run_flow(base_url=service, api_key=plain_key)

    job = GenerationJob.objects.get(public_id=state["accepted"]["jobId"])
    course = Course.objects.get(job=job)
    assert state["accepted"] == {
        "jobId": job.public_id,
        "status": "pending",
        "pollUrl": f"/api/v1/courses/jobs/{job.public_id}",
    }
    # One poll for the course, one for its introduction written again, one for the course built from
    # the source and one for the course made to be deleted: tasks run at once here.
    assert (state["job"]["status"], state["job"]["progress"], state["polls"]) == ("completed", 100, 4)
    assert without_times(state["course"]) == without_times(CourseOutput(course).data)
    assert same_instant(state["course"]["createdAt"], CourseOutput(course).data["createdAt"])
    # Generated, patched, replaced, its introduction written again: four versions, the last one read.
    assert state["versions"] == [4, 3, 2, 1]
    assert [version.source for version in CourseVersion.objects.filter(course=course).order_by("number")] == [
        "generated", "edited", "edited", "regenerated",
    ]
    assert (state["document"]["version"], state["document"]["content"]) == (4, course.content)
    assert state["quality"]["courseId"] == course.public_id
    # Its learners' events sent to a receiver, then stopped; a learner added, in the results as JSON and
    # as CSV, then erased.
    course.refresh_from_db()
    assert (state["learnerCallbackUrls"], course.learner_callback_url) == ([LEARNER_HOOK, None], "")
    learner = state["learner"]
    assert (learner["externalId"], learner["name"]) == ("E-10442", "Ada Lovelace")
    assert learner["url"].startswith(f"{service}/go/{course.public_id}?learner={learner['learnerId']}:")
    [row] = state["results"]["results"]
    assert (state["results"]["courseId"], state["results"]["nextCursor"]) == (course.public_id, None)
    assert datetime.fromisoformat(state["results"]["nextSince"]) < datetime.now(UTC)
    assert {name: row[name] for name in ("learnerId", "externalId", "name", "startedAt", "passed")} == {
        "learnerId": learner["learnerId"], "externalId": "E-10442", "name": "Ada Lovelace", "startedAt": None,
        "passed": None,
    }
    assert list(csv.reader(io.StringIO(state["resultsCsv"]))) == [
        list(results_csv.COLUMNS),
        [learner["learnerId"], "E-10442", "Ada Lovelace", "", "", "0", "", "", "", "", "", "", "0", "0", "0", "0"],
    ]
    assert state["erased"] == {
        "learnerId": learner["learnerId"],
        "erasedRecords": 1,
        "erased": {"learner": 1, "quizAttempts": 0, "signoffs": 0, "webhookEvents": 0},
    }
    assert not Learner.objects.filter(course=course).exists()
    # The source was read, a course built from it, and the source deleted: the course keeps its text
    # and citations, the source marked deleted.
    assert state["source"]["status"] == "ready"
    assert not Source.objects.filter(public_id=state["source"]["id"]).exists()
    sourced = Course.objects.exclude(pk=course.pk).get(api_key=api_key)
    assert sourced.deleted_source_ids == [state["source"]["id"]]
    assert state["sourcedCourse"]["id"] == sourced.public_id
    assert state["sourcedCourse"]["content"] == sourced.content | {
        "sources": [source | {"deleted": True} for source in sourced.content["sources"]]
    }
    cited = [lesson["citations"] for chapter in sourced.content["chapters"] for lesson in chapter["lessons"]]
    assert cited and all(cited)
    # Every format, each downloaded without a key: the very file the service stored; the first link
    # then revoked.
    exports = {export.format: export for export in Export.objects.filter(course=course)}
    assert sorted(export["format"] for export in state["exports"]) == sorted(Export.ExportFormat.values)
    assert state["revoked"] == state["exports"][0]["exportId"]
    assert state["exports"][0]["format"] not in exports
    assert RemovedLink.objects.filter(public_id=state["revoked"]).exists()
    for downloaded in state["exports"][1:]:
        export = exports[downloaded["format"]]
        assert downloaded["exportId"] == export.public_id
        with export.file.open("rb") as stored:
            package = stored.read()
        assert downloaded["downloadUrl"] == export.download_url
        assert same_instant(downloaded["exportedAt"], export.exported_at.isoformat())
        assert downloaded["contentType"] == "application/zip"
        assert (downloaded["bytes"], downloaded["sha256"]) == (
            len(package),
            hashlib.sha256(package).hexdigest(),
        )
    # The second course was deleted; its job stays, completed, with no course.
    deleted = state["deleted"]
    assert not Course.objects.filter(public_id=deleted["courseId"]).exists()
    assert RemovedLink.objects.filter(public_id=deleted["courseId"]).exists()
    assert (deleted["job"]["status"], deleted["job"]["course"]) == ("completed", None)
    # Listed, newest first: every course of the key, over pages, and every completed job.
    assert state["listed"]["courses"] == list(
        Course.objects.filter(api_key=api_key).order_by("-created_at", "-id").values_list("public_id", flat=True)
    )
    assert state["listed"]["jobs"] == list(
        GenerationJob.objects.filter(api_key=api_key, status="completed")
        .order_by("-created_at", "-id")
        .values_list("public_id", flat=True)
    )
    assert len(state["listed"]["courses"]) == 2 and len(state["listed"]["jobs"]) == 4


def test_the_flow_calls_every_operation_of_the_api(generated_client, service, plain_key, live_document):
    document = json_document(live_document)
    api_operations = {
        operation["operationId"]
        for path, operations in document["paths"].items()
        if path.startswith("/api/")
        for operation in operations.values()
    }

    called = {
        call["operation"] for call in generated_client.run_flow(base_url=service, api_key=plain_key)["calls"]
    }

    assert api_operations - called == set(), "operations the flow of this language never calls"


def run_quickstart_example(
    *, generated_clients, base_url: str, api_key: str, workdir
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / "examples" / "generated_client.py")],
        cwd=workdir,
        env={
            **os.environ,
            "BASE_URL": base_url,
            "API_KEY": api_key,
            "PYTHONPATH": str(generated_clients / "python"),
        },
        capture_output=True,
        text=True,
        timeout=120,  # a limit on how long it may run, never an assertion
        check=False,
    )


def test_the_quickstart_example_with_the_generated_python_client_runs(
    generated_clients, service, plain_key, api_key, tmp_path
):
    result = run_quickstart_example(
        generated_clients=generated_clients, base_url=service, api_key=plain_key, workdir=tmp_path
    )

    assert result.returncode == 0, result.stderr
    course = Course.objects.get(api_key=api_key)
    package = tmp_path / f"{course.public_id}-scorm12.zip"
    assert result.stdout.splitlines() == [
        f"Job {course.job.public_id} accepted",
        f"Course {course.public_id} ready, preview: {service}/go/{course.public_id}",
        f"Saved {package.name} ({package.stat().st_size} bytes)",
    ]
    assert zipfile.ZipFile(package).testzip() is None


def test_the_quickstart_example_exits_with_the_error_code(generated_clients, service, tmp_path):
    result = run_quickstart_example(
        generated_clients=generated_clients, base_url=service, api_key="cgs_wrong", workdir=tmp_path
    )

    assert (result.returncode, result.stderr) == (1, "401 INVALID_API_KEY: Missing or invalid API key.\n")


# Every documented error ----------------------------------------------------------------------------


@dataclass
class Case:
    operation: str
    status: int
    code: str
    path: dict | None = None
    query: dict | None = None
    body: dict | None = None
    headers: dict = field(default_factory=dict)
    api_key: str | None = None
    arrange: Callable[[], contextlib.AbstractContextManager] = contextlib.nullcontext


@dataclass
class Keys:
    valid: str
    unpaid: str
    exhausted: str


def unknown_id_like(value: str | int) -> str | int:
    if isinstance(value, int):  # a version number
        return value + 1000
    prefix, _, _ = value.partition("_")
    return f"{prefix}_" + "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(22))


@contextlib.contextmanager
def no_request_allowed() -> Iterator[None]:
    with override_settings(**{setting: 0 for setting in ratelimit._SETTING_FOR_SCOPE.values()}):
        yield


@contextlib.contextmanager
def database_refusing_connections() -> Iterator[None]:
    """What a database restart looks like to a web process: its connections are dropped and new ones
    refused (this test's own connection survives, to put things back)."""
    database = connection.settings_dict
    connection.ensure_connection()
    own_pid = connection.connection.info.backend_pid
    # PostgreSQL changes this only from another database.
    with psycopg.connect(
        host=database["HOST"],
        port=database["PORT"],
        user=database["USER"],
        password=database["PASSWORD"] or None,
        dbname="postgres",
        autocommit=True,
    ) as admin:
        name = connection.ops.quote_name(database["NAME"])
        admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
        try:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> %s",
                [database["NAME"], own_pid],
            )
            yield
        finally:
            admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")


def common_errors(call: dict, keys: Keys, service: str, document: dict) -> list[Case]:
    """The errors any endpoint of the API can answer, made from one of its successful calls."""
    operation, path, body = call["operation"], call.get("path"), call.get("body")
    base = {
        "operation": operation,
        "path": path,
        "query": call.get("query"),
        "body": body,
        "headers": call.get("headers", {}),
        "api_key": keys.valid,
    }
    cases = [
        Case(**base | {"api_key": "cgs_" + "0" * 40}, status=401, code="INVALID_API_KEY"),
        Case(**base | {"api_key": keys.unpaid}, status=403, code="PAID_PLAN_REQUIRED"),
        Case(**base | {"headers": base["headers"] | {"Accept": "text/html"}}, status=406, code="NOT_ACCEPTABLE"),
        Case(**base, arrange=no_request_allowed, status=429, code="RATE_LIMIT_EXCEEDED"),
        Case(**base, arrange=database_refusing_connections, status=503, code="SERVICE_UNAVAILABLE"),
    ]
    if path:
        unknown = {name: unknown_id_like(value) for name, value in path.items()}
        cases.append(Case(**base | {"path": unknown}, status=404, code="NOT_FOUND"))
    if body is not None:
        # An upload may be larger than other bodies (SOURCE_MAX_BYTES): here its limit is made smaller.
        uploads_smaller = lambda: override_settings(SOURCE_MAX_BYTES=MIB // 2)  # noqa: E731
        cases.append(
            Case(
                **base | {"body": padded(body, document, operation)},
                arrange=uploads_smaller if files_in(body) else contextlib.nullcontext,
                status=413,
                code="PAYLOAD_TOO_LARGE",
            )
        )
    if "Idempotency-Key" in {p["name"] for p in operation_in(document, operation)["parameters"]}:
        key = f"order-{secrets.token_hex(8)}"

        @contextlib.contextmanager
        def key_used_for_another_request() -> Iterator[None]:
            answer = requests.post(
                f"{service}/api/v1/courses",
                json={"subject": "Another course"},
                timeout=30,
                headers={"Authorization": f"Bearer {keys.valid}", "Idempotency-Key": key},
            )
            assert answer.status_code == 202
            yield

        cases.append(
            Case(
                **base | {"headers": base["headers"] | {"Idempotency-Key": key}},
                arrange=key_used_for_another_request,
                status=409,
                code="IDEMPOTENCY_KEY_REUSED",
            )
        )
    return cases


def padded(body: dict, document: dict, operation_id: str) -> dict:
    """The body made larger than 1 MiB, by one of its texts made longer: every body takes only the
    properties its schema names (a client would drop any other), so a free text among them."""
    content = next(iter(operation_in(document, operation_id)["requestBody"]["content"].values()))
    schema = content["schema"]
    if "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    if "properties" not in schema:  # a merge patch: any object
        return body | {"padding": "x" * MIB}
    text = next(
        name for name, property in schema["properties"].items()
        if "string" in str(property.get("type")) and "enum" not in property and property.get("format") != "binary"
    )
    return body | {text: str(body.get(text, "")) + "x" * MIB}


def own_errors(call: dict, keys: Keys, tmp_path) -> list[Case]:
    """OWN_ERRORS: what only some endpoints answer. A new endpoint adds its own here."""
    return [case for make in OWN_ERRORS.get(call["operation"], []) for case in [make(call, keys, tmp_path)]]


@contextlib.contextmanager
def storage_failing(tmp_path) -> Iterator[None]:
    """Files cannot be written: the storage's folder is a file (a full or broken disk)."""
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    with override_settings(MEDIA_ROOT=str(blocker)):
        yield


def course_in(call: dict) -> Course:
    return Course.objects.get(public_id=call["path"]["course_id"])


def current_version(call: dict) -> dict:
    """If-Match with the course's version as it is now (the recorded call's is an older one)."""
    return {"If-Match": f'"{course_in(call).version}"'}


@contextlib.contextmanager
def regeneration_running(call: dict) -> Iterator[None]:
    course = course_in(call)
    job = GenerationJobFactory(
        api_key=course.api_key,
        status=GenerationJob.Status.RUNNING,
        regenerated_course=course,
        part=Part.INTRODUCTION,
    )
    yield
    job.delete()


def busy_course_case(operation: str, keys: Keys) -> Case:
    api_key = ApiKey.objects.get(key_hash=account_services.hash_key(keys.valid))
    path = {"course_id": CourseFactory(api_key=api_key).public_id}
    return Case(operation, 409, "COURSE_BUSY", path=path, api_key=keys.valid, arrange=lambda: regeneration_running({"path": path}))


@contextlib.contextmanager
def job_building_from(source: Source) -> Iterator[None]:
    job = GenerationJobFactory(api_key=source.api_key, from_sources=True)  # pending: no worker has it yet
    JobSource.objects.create(job=job, source=source, position=0)
    yield
    job.delete()


def source_in_use_case(operation: str, keys: Keys) -> Case:
    api_key = ApiKey.objects.get(key_hash=account_services.hash_key(keys.valid))
    source = SourceFactory(api_key=api_key)
    return Case(
        operation, 409, "SOURCE_IN_USE", path={"source_id": source.public_id}, api_key=keys.valid,
        arrange=lambda: job_building_from(source),
    )


def versions_used_up(call: dict):
    return override_settings(COURSE_MAX_VERSIONS=course_in(call).version)


@contextlib.contextmanager
def plan_changed(plain_key: str, **fields) -> Iterator[None]:
    """The key's plan with other numbers (credits, storage) for the length of the block."""
    plan = Plan.objects.get(accounts__api_keys__key_hash=account_services.hash_key(plain_key))
    before = {name: getattr(plan, name) for name in fields}
    Plan.objects.filter(pk=plan.pk).update(**fields)
    yield
    Plan.objects.filter(pk=plan.pk).update(**before)


def edit_errors(operation: str, invalid: dict) -> list[Callable[[dict, Keys, object], Case]]:
    """What an edit answers beyond the common errors; `invalid` is a body the course schema refuses."""

    def case(status, code, *, body=None, headers=None, arrange=contextlib.nullcontext):
        return lambda call, keys, tmp: Case(
            operation,
            status,
            code,
            path=call["path"],
            body=call["body"] if body is None else call["body"] | body,
            headers=current_version(call) if headers is None else headers,
            api_key=keys.valid,
            arrange=lambda: arrange(call),
        )

    return [
        case(400, "VALIDATION_ERROR", body=invalid),
        case(409, "COURSE_BUSY", arrange=regeneration_running),
        case(409, "VERSION_LIMIT_REACHED", arrange=versions_used_up),
        case(412, "VERSION_CONFLICT", headers={"If-Match": '"999"'}),
    ]


def file(name: str, text: str) -> dict:
    return {"fileName": name, "text": text}


OWN_ERRORS = {
    "createCourse": [
        lambda call, keys, tmp: Case(
            "createCourse", 400, "VALIDATION_ERROR", body={"subject": ""}, api_key=keys.valid
        ),
        # A source that is not the key's (or not ready): refused by name.
        lambda call, keys, tmp: Case(
            "createCourse",
            400,
            "VALIDATION_ERROR",
            body={"subject": "Records", "sources": [unknown_id_like("src_x")]},
            api_key=keys.valid,
        ),
        lambda call, keys, tmp: Case(
            "createCourse", 403, "USAGE_LIMIT_EXCEEDED_PLAN", body=call["body"], api_key=keys.exhausted
        ),
    ],
    "exportCourse": [
        lambda call, keys, tmp: Case(
            "exportCourse",
            400,
            "VALIDATION_ERROR",
            path=call["path"],
            body={"callbackUrl": "not a URL"},
            api_key=keys.valid,
        ),
        lambda call, keys, tmp: Case(
            "exportCourse",
            503,
            "SERVICE_UNAVAILABLE",
            path=call["path"],
            body=call["body"],
            api_key=keys.valid,
            arrange=lambda: storage_failing(tmp),
        ),
    ],
    "patchCourseContent": edit_errors("patchCourseContent", invalid={"chapters": []}),
    "replaceCourseContent": edit_errors("replaceCourseContent", invalid={"chapters": []}),
    "regenerateCoursePart": [
        lambda call, keys, tmp: Case(
            "regenerateCoursePart",
            400,
            "VALIDATION_ERROR",
            path=call["path"],
            body={"target": "chapter"},
            api_key=keys.valid,
        ),
        lambda call, keys, tmp: Case(
            "regenerateCoursePart",
            403,
            "USAGE_LIMIT_EXCEEDED_PLAN",
            path=call["path"],
            body=call["body"],
            api_key=keys.valid,
            arrange=lambda: plan_changed(keys.valid, monthly_course_credits=0),
        ),
        lambda call, keys, tmp: Case(
            "regenerateCoursePart",
            409,
            "COURSE_BUSY",
            path=call["path"],
            body=call["body"],
            api_key=keys.valid,
            arrange=lambda: regeneration_running(call),
        ),
        lambda call, keys, tmp: Case(
            "regenerateCoursePart",
            409,
            "VERSION_LIMIT_REACHED",
            path=call["path"],
            body=call["body"],
            api_key=keys.valid,
            arrange=lambda: versions_used_up(call),
        ),
    ],
    "deleteCourse": [
        # The flow's course is gone: a course of the key, being generated again, refuses deletion.
        lambda call, keys, tmp: busy_course_case("deleteCourse", keys),
    ],
    "deleteSource": [
        # The flow's source is gone: a source of the key that a pending job builds from refuses deletion.
        lambda call, keys, tmp: source_in_use_case("deleteSource", keys),
    ],
    "getCourseQuality": [
        lambda call, keys, tmp: Case(
            "getCourseQuality", 400, "VALIDATION_ERROR", path=call["path"], query={"version": 0}, api_key=keys.valid
        ),
    ],
    "listSources": [
        lambda call, keys, tmp: Case("listSources", 400, "VALIDATION_ERROR", query={"limit": 0}, api_key=keys.valid),
    ],
    "listCourses": [
        lambda call, keys, tmp: Case("listCourses", 400, "VALIDATION_ERROR", query={"limit": 101}, api_key=keys.valid),
    ],
    "listJobs": [
        lambda call, keys, tmp: Case("listJobs", 400, "VALIDATION_ERROR", query={"limit": 0}, api_key=keys.valid),
    ],
    "updateCourse": [
        lambda call, keys, tmp: Case(
            "updateCourse",
            400,
            "VALIDATION_ERROR",
            path=call["path"],
            body={"learnerCallbackUrl": "not a URL"},
            api_key=keys.valid,
        ),
    ],
    "addLearner": [
        lambda call, keys, tmp: Case(
            "addLearner", 400, "VALIDATION_ERROR", path=call["path"], body={"externalId": ""}, api_key=keys.valid
        ),
    ],
    "listCourseResults": [
        lambda call, keys, tmp: Case(
            "listCourseResults", 400, "VALIDATION_ERROR", path=call["path"], query={"limit": 0}, api_key=keys.valid
        ),
    ],
    "createSource": [
        lambda call, keys, tmp: Case(
            "createSource", 400, "VALIDATION_ERROR", body={"file": file("empty.md", "")}, api_key=keys.valid
        ),
        lambda call, keys, tmp: Case(
            "createSource",
            400,
            "UNSUPPORTED_MEDIA_TYPE",
            body={"file": file("tool.exe", "MZ\x90\x00\x03 not a document")},
            api_key=keys.valid,
        ),
        lambda call, keys, tmp: Case(
            "createSource",
            403,
            "STORAGE_LIMIT_EXCEEDED",
            body=call["body"],
            api_key=keys.valid,
            arrange=lambda: plan_changed(keys.valid, source_storage_mb=0),
        ),
        lambda call, keys, tmp: Case(
            "createSource",
            503,
            "SERVICE_UNAVAILABLE",
            body={"file": file("notes.md", "# Notes\n\nKept for the team.\n")},
            api_key=keys.valid,
            arrange=lambda: storage_failing(tmp),
        ),
    ],
}

# Documented errors no request can bring about without breaking our own code: the test says why.
UNPROVOKABLE = {
    (
        "createCourse",
        500,
        "INTERNAL_ERROR",
    ): "creating a job writes only to the database (a 503 when it is down)",
    ("pollJob", 500, "INTERNAL_ERROR"): "polling only reads the database (a 503 when it is down)",
    **{
        (operation, 500, "INTERNAL_ERROR"): "it writes the file store (a 503 when the store fails) and the "
        "database (a 503 when it is down)"
        for operation in ("createSource", "exportCourse")
    },
    **{
        (operation, 500, "INTERNAL_ERROR"): "it only reads the database (a 503 when it is down) and Redis, "
        "which is only a cache of answers there"
        for operation in (
            "readCourse", "listCourseVersions", "readCourseVersion", "getCourseQuality", "listSources", "getSource",
            "listCourses", "listJobs",
        )
    },
    **{
        (operation, 500, "INTERNAL_ERROR"): "an edit writes only to the database (a 503 when it is down)"
        for operation in ("patchCourseContent", "replaceCourseContent")
    },
    **{
        (operation, 500, "INTERNAL_ERROR"): "it only reads and writes the database (a 503 when it is down)"
        for operation in ("updateCourse", "addLearner", "eraseLearner")
    },
    ("listCourseResults", 500, "INTERNAL_ERROR"): "it only reads the database (a 503 when it is down)",
    ("regenerateCoursePart", 500, "INTERNAL_ERROR"): "it writes the job to the database (a 503 when it is "
    "down), then hands it to the broker, whose being down is not an error (the job is sent again)",
    **{
        (operation, 500, "INTERNAL_ERROR"): "it deletes rows (a 503 when the database is down); files go "
        "after the commit, and a file that cannot be removed is logged, not answered"
        for operation in ("deleteSource", "deleteCourse", "revokeExport")
    },
    **{
        (operation, 428, "PRECONDITION_REQUIRED"): "If-Match is a required parameter: a generated client "
        "always sends it (tests/courses/test_course_versions.py sends an edit without)"
        for operation in ("patchCourseContent", "replaceCourseContent")
    },
}


def operation_in(document: dict, operation_id: str) -> dict:
    return next(
        operation
        for operations in document["paths"].values()
        for operation in operations.values()
        if operation["operationId"] == operation_id
    )


def documented_errors(document: dict) -> set[tuple[str, int, str]]:
    documented = set()
    for path, operations in document["paths"].items():
        if path.startswith("/api/"):
            for method, operation in operations.items():
                for status, answer in operation["responses"].items():
                    if int(status) >= 400:
                        for code in error_codes_in(
                            {"paths": {path: {method: {"responses": {status: answer}}}}}, path, method
                        ):
                            documented.add((operation["operationId"], int(status), code))
    return documented


def test_every_documented_error_parses_into_the_error_body(
    generated_client, service, plain_key, live_document, tmp_path
):
    document = json_document(live_document)
    keys = Keys(valid=plain_key, unpaid=issue_key(paid=False), exhausted=issue_key(credits=0))
    calls = {}
    for call in generated_client.run_flow(base_url=service, api_key=plain_key)["calls"]:
        calls.setdefault(call["operation"], call)
    cases = [
        case
        for call in calls.values()
        for case in [*common_errors(call, keys, service, document), *own_errors(call, keys, tmp_path)]
    ]
    # The database restarts last: a connection the client keeps open reaches a server thread whose
    # database connection is gone, which answers its next request 503 too (as documented).
    cases.sort(key=lambda case: case.code == "SERVICE_UNAVAILABLE")

    failures = []
    for case in cases:
        try:
            with case.arrange():
                answer = generated_client.call(
                    case.operation,
                    base_url=service,
                    api_key=case.api_key,
                    path=case.path,
                    query=case.query,
                    body=case.body,
                    headers=case.headers,
                    schema="ErrorBody",
                )
        except AssertionError as exc:  # the client could not parse the answer
            failures.append((case.operation, case.status, case.code, str(exc)[:500]))
            continue
        documented = operation_in(document, case.operation)["responses"][str(case.status)]["headers"]
        expected_headers = {
            name.lower() for name, header in documented.items() if "Absent" not in header["description"]
        } - {"location"}
        outcome = (answer.status, answer.parsed.get("code"), answer.model in (None, "ErrorBody"))
        missing_headers = expected_headers - {name.lower() for name in answer.headers}
        # A 400 lists its problems too.
        fields = {"message", "code", "errors"} if case.status == 400 else {"message", "code"}
        if outcome != (case.status, case.code, True) or missing_headers or set(answer.parsed) != fields:
            failures.append(
                (case.operation, case.status, case.code, outcome, sorted(missing_headers), answer.parsed)
            )

    covered = {(case.operation, case.status, case.code) for case in cases}
    assert documented_errors(document) - covered - set(UNPROVOKABLE) == set(), (
        "documented errors without a case"
    )
    assert failures == []


def test_a_400_names_every_problem_in_the_typed_error_body(generated_client, service, plain_key):
    answer = generated_client.call(
        "createCourse",
        base_url=service,
        api_key=plain_key,
        body={"subject": " ", "outline": ["Basics", ""]},
        schema="ErrorBody",
    )

    assert (answer.status, answer.parsed["code"]) == (400, "VALIDATION_ERROR")
    assert answer.parsed["message"] == "subject: Must not be blank. (1 more in `errors`.)"
    assert answer.parsed["errors"] == [
        {"field": "subject", "message": "Must not be blank."},
        {"field": "outline[1]", "message": "Must not be blank."},
    ]


def test_the_download_link_of_an_unknown_export_is_the_404_page(generated_client, service):
    answer = generated_client.call(
        "downloadExport", base_url=service, api_key=None, path={"export_id": unknown_id_like("exp_x")}
    )

    assert answer.status == 404
    assert "<html" in answer.parsed.lower()


def test_a_create_sent_again_with_its_idempotency_key_gets_the_first_answer(
    generated_client, service, plain_key
):
    headers = {"Idempotency-Key": f"order-{secrets.token_hex(8)}"}

    first = generated_client.call(
        "createCourse",
        base_url=service,
        api_key=plain_key,
        body={"subject": "Intro to SQL"},
        headers=headers,
        schema="JobAccepted",
    )
    job = GenerationJob.objects.get(public_id=first.parsed["jobId"])
    again = generated_client.call(
        "createCourse",
        base_url=service,
        api_key=plain_key,
        body={"subject": "Intro to SQL"},
        headers=headers,
        schema="JobAccepted",
    )

    assert job.status == GenerationJob.Status.COMPLETED  # generated meanwhile (tasks run at once here)
    assert (again.status, again.parsed) == (first.status, first.parsed) == (202, first.parsed)
    assert again.parsed["status"] == "pending"
    assert GenerationJob.objects.count() == 1


# Webhook events and job failure codes ------------------------------------------------------------


def test_every_webhook_event_and_job_failure_code_parses_into_its_model(
    generated_client, service, api_client, api_key, receiver, private_networks_allowed, live_document
):
    receiver.script(receivers.answer(204, b""))
    document = json_document(live_document)
    callback_url = receiver.url("/hooks/k3Yq8vX2mP0aLr5T")
    created = api_client.post(
        "/api/v1/courses", {"subject": "Intro to SQL", "callbackUrl": callback_url}, format="json"
    )
    course = Course.objects.get(job__public_id=created.json()["jobId"])
    api_client.post(
        f"/api/v1/courses/{course.public_id}/export",
        {"format": "cmi5", "callbackUrl": callback_url},
        format="json",
    )
    api_client.post(
        f"/api/v1/courses/{course.public_id}/regenerate",
        {"target": "introduction", "callbackUrl": callback_url},
        format="json",
    )
    for name, content in [("notes.md", b"# Notes\n\nRead access on day one.\n"), ("broken.pdf", b"%PDF-1.7\n")]:
        api_client.post(
            "/api/v1/sources",
            {"file": SimpleUploadedFile(name, content), "callbackUrl": callback_url},
            format="multipart",
        )
    deleted = api_client.post("/api/v1/courses", {"subject": "Taken down", "callbackUrl": callback_url}, format="json")
    api_client.delete(f"/api/v1/courses/{Course.objects.get(job__public_id=deleted.json()['jobId']).public_id}")
    # A learner's story on a course with every add-on, told to its learnerCallbackUrl: started, failed,
    # passed, signed and (signing on the last page) completed.
    learned = CourseFactory(api_key=api_key, format="classic")
    settings_changed = api_client.patch(
        f"/api/v1/courses/{learned.public_id}", {"learnerCallbackUrl": callback_url}, format="json"
    )
    assert settings_changed.status_code == 200
    reader = Reader(learned)
    reader.send(hello=True, page=0, seen=[0])
    reader.send(page=4, seen=[1, 2, 3, 4])
    reader.answer(FAILING)
    reader.answer(PASSING)
    reader.sign("Ada Lovelace")
    failed_jobs = {}
    for code, _when in generation_errors.FAILURE_CODES:
        job = GenerationJobFactory(
            api_key=api_key, status=GenerationJob.Status.RUNNING, callback_url=callback_url
        )
        jobs.fail_job(job_id=job.pk, attempt=None, code=code, message=f"{code} happened")
        failed_jobs[code] = job.public_id

    bodies = [request.body.decode() for request in receiver.requests]
    parsed_events = []
    for body in bodies:
        event = json.loads(body)
        schema = document["webhooks"][event["event"]]["post"]["requestBody"]["content"]["application/json"][
            "schema"
        ]
        parsed = generated_client.parse(schema["$ref"].rsplit("/", 1)[1], body)
        assert normalized(parsed) == normalized(event)
        parsed_events.append(parsed)
    polled = {
        code: generated_client.call(
            "pollJob",
            base_url=service,
            api_key=api_client_key(api_client),
            path={"job_id": job_id},
            schema="JobOutput",
        )
        for code, job_id in failed_jobs.items()
    }

    assert {event["event"] for event in parsed_events} == set(document["webhooks"])
    learner_events = [event["event"] for event in parsed_events if event["event"].startswith("learner.")]
    assert learner_events == [
        "learner.started", "learner.failed", "learner.passed", "learner.signed", "learner.completed"
    ]
    failure_codes = [event["error"]["code"] for event in parsed_events if event["event"] == "course.failed"]
    assert failure_codes == document["components"]["schemas"]["JobErrorCodeEnum"]["enum"]
    for code, answer in polled.items():
        assert (answer.status, answer.parsed["status"], answer.parsed["error"]) == (
            200,
            "failed",
            {"message": f"{code} happened", "code": code},
        )


def api_client_key(api_client) -> str:
    return api_client._credentials["HTTP_AUTHORIZATION"].removeprefix("Bearer ")


def normalized(value):
    """JSON with its times as instants, so that `…000Z` and `…000+00:00` compare equal."""
    if isinstance(value, dict):
        return {name: normalized(item) for name, item in value.items()}
    if isinstance(value, str) and len(value) >= 20 and value[4:5] == "-" and value[10:11] == "T":
        return datetime.fromisoformat(value)
    return value
