"""
The quickstart as a Python developer writes it with the generated client, unedited: create a course
with only a subject, poll its job to completion, read the course, export it in every format and
download each package.

Each step is one thing a client does. An endpoint that lands joins the flow here, as a step, and
records its call (`state.calls`): the error tests replay that call with a wrong key, an unpaid plan,
and so on (tests/clients/test_generated_clients.py). Imported once the client is generated
(tests/clients/conftest.py).
"""

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from course_generation_api_client import AuthenticatedClient, Client
from course_generation_api_client.api.courses import create_course, export_course, poll_job
from course_generation_api_client.api.downloads import download_export
from course_generation_api_client.models import (
    CourseOutput,
    CreateJobInputRequest,
    ErrorBody,
    ExportCourseInputRequest,
    ExportFormatEnum,
    JobAccepted,
    JobOutput,
    JobStatusEnum,
)
from course_generation_api_client.types import File, Response


class ApiError(Exception):
    def __init__(self, operation: str, answer: Response):
        error = answer.parsed
        detail = (
            f"{error.code.value}: {error.message}" if isinstance(error, ErrorBody) else answer.content[:200]
        )
        super().__init__(f"{operation}: {answer.status_code} {detail}")


@dataclass
class FlowState:
    base_url: str
    client: AuthenticatedClient
    accepted: JobAccepted | None = None
    job: JobOutput | None = None
    course: CourseOutput | None = None
    polls: int = 0
    exports: list[dict] = field(default_factory=list)
    calls: list[dict] = field(default_factory=list)  # successful calls, as the error tests replay them


def create(state: FlowState) -> None:
    body = CreateJobInputRequest(subject="Intro to SQL")
    answer = create_course.sync_detailed(client=state.client, body=body)
    if not isinstance(answer.parsed, JobAccepted):
        raise ApiError("createCourse", answer)
    state.calls.append({"operation": "createCourse", "body": body.to_dict()})
    state.accepted = answer.parsed


def poll_to_completion(state: FlowState) -> None:
    job_id = state.accepted.job_id
    while True:
        answer = poll_job.sync_detailed(job_id, client=state.client)
        if not isinstance(answer.parsed, JobOutput):
            raise ApiError("pollJob", answer)
        state.polls += 1
        if state.polls == 1:
            state.calls.append({"operation": "pollJob", "path": {"job_id": job_id}})
        job = answer.parsed
        if job.status == JobStatusEnum.FAILED:
            raise RuntimeError(f"job {job_id} failed: {job.error.code.value}")
        if job.status == JobStatusEnum.COMPLETED:
            state.job = job
            return
        # Unfinished jobs say when to ask again.
        time.sleep(int(answer.headers.get("Retry-After", "5")))


def read_course(state: FlowState) -> None:
    if state.job.course is None:
        raise RuntimeError("a completed job without its course")
    state.course = state.job.course


def export_and_download_each_format(state: FlowState) -> None:
    # The download link needs no key: a client without one fetches it.
    anonymous = Client(base_url=state.base_url)
    for format_ in ExportFormatEnum:
        body = ExportCourseInputRequest(format_=format_)
        answer = export_course.sync_detailed(state.course.id, client=state.client, body=body)
        if answer.status_code != 200:
            raise ApiError("exportCourse", answer)
        state.calls.append(
            {"operation": "exportCourse", "path": {"course_id": state.course.id}, "body": body.to_dict()}
        )
        exported = answer.parsed
        export_id = exported.download_url.rsplit("/", 1)[1]
        download = download_export.sync_detailed(export_id, client=anonymous)
        if not isinstance(download.parsed, File):
            raise ApiError("downloadExport", download)
        package = download.parsed.payload.read()
        state.exports.append(
            {
                "format": exported.format_.value,
                "downloadUrl": exported.download_url,
                "exportedAt": exported.exported_at.isoformat(),
                "contentType": download.headers.get("Content-Type"),
                "bytes": len(package),
                "sha256": hashlib.sha256(package).hexdigest(),
            }
        )


STEPS: list[Callable[[FlowState], None]] = [
    create,
    poll_to_completion,
    read_course,
    export_and_download_each_format,
]


def run_flow(*, base_url: str, api_key: str) -> dict:
    """Run every step; return what the flow saw, in the shape the TypeScript flow reports it."""
    client = AuthenticatedClient(base_url=base_url, token=api_key, raise_on_unexpected_status=True)
    state = FlowState(base_url=base_url, client=client)
    for step in STEPS:
        step(state)
    return {
        "accepted": state.accepted.to_dict(),
        "job": state.job.to_dict(),
        "course": state.course.to_dict(),
        "polls": state.polls,
        "exports": state.exports,
        "calls": state.calls,
    }
