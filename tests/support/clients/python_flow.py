"""
The quickstart as a Python developer writes it with the generated client, unedited: create a course
with only a subject, poll its job to completion, read the course, read its whole document, edit it
(a merge patch, then the whole document), have its introduction written again, read its versions and
its quality report, export it in every format and download each package, and revoke one of the
download links; send its learners' events to a receiver, add a learner with a personal link, read the
results as JSON and as CSV, erase the learner and stop the events; then add a source by uploading a
file, wait until it is read, build a course from it and read its citations, list the sources, delete
the source and read the course again (its citations stay, the source marked deleted); last, make a
second course and delete it, and find the key's courses and jobs again by listing them.

Each step is one thing a client does. An endpoint that lands joins the flow here, as a step, and
records its call (`state.calls`): the error tests replay that call with a wrong key, an unpaid plan,
and so on (tests/clients/test_generated_clients.py). Imported once the client is generated
(tests/clients/conftest.py).
"""

import hashlib
import io
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field

from course_generation_api_client import AuthenticatedClient, Client
from course_generation_api_client.api.courses import (
    add_learner,
    create_course,
    delete_course,
    erase_learner,
    export_course,
    get_course_quality,
    list_course_results,
    list_course_versions,
    list_courses,
    list_jobs,
    patch_course_content,
    poll_job,
    read_course,
    read_course_version,
    regenerate_course_part,
    replace_course_content,
    revoke_export,
    update_course,
)
from course_generation_api_client.api.downloads import download_export
from course_generation_api_client.api.sources import create_source, delete_source, get_source, list_sources
from course_generation_api_client.models import (
    AddLearnerInputRequest,
    AddOnsEnum,
    CourseContent,
    CourseDetailOutput,
    CourseList,
    CourseOutput,
    CourseQualityOutput,
    CourseSettingsOutput,
    CreateJobInputRequest,
    ErasedOutput,
    ErrorBody,
    ExportCourseInputRequest,
    ExportFormatEnum,
    JobAccepted,
    JobList,
    JobOutput,
    JobStatusEnum,
    LearnerOutput,
    PatchCourseContentBody,
    PatchedUpdateCourseInputRequest,
    RegenerateInputRequest,
    RegenerationTargetEnum,
    ResultsOutput,
    SourceList,
    SourceOutput,
    SourceStatusEnum,
    UploadSourceInputRequest,
    VersionDetailOutput,
    VersionListOutput,
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
    document: CourseDetailOutput | None = None  # the course's whole document, as last read or edited
    etag: str = ""  # its version, as If-Match wants it
    versions: list[int] = field(default_factory=list)
    quality: CourseQualityOutput | None = None
    exports: list[dict] = field(default_factory=list)
    learner_callback_urls: list[str | None] = field(default_factory=list)  # as each settings answer gave it
    learner: LearnerOutput | None = None
    results: ResultsOutput | None = None
    results_csv: str = ""
    erased: ErasedOutput | None = None
    source: SourceOutput | None = None
    revoked: str = ""  # the export whose link was revoked
    deleted: dict = field(default_factory=dict)  # the course made to be deleted, and its job after
    listed: dict = field(default_factory=dict)  # the ids of the key's courses and completed jobs, as listed
    sourced: CourseDetailOutput | None = None  # the course built from the source, as last read
    calls: list[dict] = field(default_factory=list)  # successful calls, as the error tests replay them


def create(state: FlowState) -> None:
    body = CreateJobInputRequest(subject="Intro to SQL")
    answer = create_course.sync_detailed(client=state.client, body=body)
    if not isinstance(answer.parsed, JobAccepted):
        raise ApiError("createCourse", answer)
    state.calls.append({"operation": "createCourse", "body": body.to_dict()})
    state.accepted = answer.parsed


def poll_to_completion(state: FlowState) -> None:
    state.job = poll_job_to_completion(state, state.accepted.job_id)


def poll_job_to_completion(state: FlowState, job_id: str) -> JobOutput:
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
            return job
        # Unfinished jobs say when to ask again.
        time.sleep(int(answer.headers.get("Retry-After", "5")))


def take_course_from_job(state: FlowState) -> None:
    if state.job.course is None:
        raise RuntimeError("a completed job without its course")
    state.course = state.job.course


def read_document(state: FlowState) -> None:
    fetch_document(state)
    # Read again with the version in hand: nothing changed, so 304 and no body.
    again = read_course.sync_detailed(state.course.id, client=state.client, if_none_match=state.etag)
    if again.status_code != 304:
        raise ApiError("readCourse", again)


def fetch_document(state: FlowState) -> None:
    course_id = state.course.id
    answer = read_course.sync_detailed(course_id, client=state.client)
    if not isinstance(answer.parsed, CourseDetailOutput):
        raise ApiError("readCourse", answer)
    state.calls.append({"operation": "readCourse", "path": {"course_id": course_id}})
    state.document, state.etag = answer.parsed, answer.headers["ETag"]


def edit_introduction(state: FlowState) -> None:
    course_id = state.course.id
    body = PatchCourseContentBody.from_dict({"introduction": INTRODUCTION})
    answer = patch_course_content.sync_detailed(course_id, client=state.client, body=body, if_match=state.etag)
    if not isinstance(answer.parsed, CourseDetailOutput):
        raise ApiError("patchCourseContent", answer)
    state.calls.append(
        {
            "operation": "patchCourseContent",
            "path": {"course_id": course_id},
            "body": body.to_dict(),
            "headers": {"If-Match": state.etag},
        }
    )
    state.document, state.etag = answer.parsed, answer.headers["ETag"]


def replace_document(state: FlowState) -> None:
    course_id = state.course.id
    content = state.document.content.to_dict()
    content["introduction"] += "\n\nEvery chapter ends with exercises."
    body = CourseContent.from_dict(content)
    answer = replace_course_content.sync_detailed(course_id, client=state.client, body=body, if_match=state.etag)
    if not isinstance(answer.parsed, CourseDetailOutput):
        raise ApiError("replaceCourseContent", answer)
    state.calls.append(
        {
            "operation": "replaceCourseContent",
            "path": {"course_id": course_id},
            "body": body.to_dict(),
            "headers": {"If-Match": state.etag},
        }
    )
    state.document, state.etag = answer.parsed, answer.headers["ETag"]


def regenerate_introduction(state: FlowState) -> None:
    course_id = state.course.id
    body = RegenerateInputRequest(target=RegenerationTargetEnum.INTRODUCTION, instructions="Open with a question.")
    answer = regenerate_course_part.sync_detailed(course_id, client=state.client, body=body)
    if not isinstance(answer.parsed, JobAccepted):
        raise ApiError("regenerateCoursePart", answer)
    state.calls.append(
        {"operation": "regenerateCoursePart", "path": {"course_id": course_id}, "body": body.to_dict()}
    )
    poll_job_to_completion(state, answer.parsed.job_id)
    fetch_document(state)  # the new version


def read_versions(state: FlowState) -> None:
    course_id = state.course.id
    answer = list_course_versions.sync_detailed(course_id, client=state.client)
    if not isinstance(answer.parsed, VersionListOutput):
        raise ApiError("listCourseVersions", answer)
    state.calls.append({"operation": "listCourseVersions", "path": {"course_id": course_id}})
    state.versions = [version.version for version in answer.parsed.versions]
    first = read_course_version.sync_detailed(course_id, state.versions[-1], client=state.client)
    if not isinstance(first.parsed, VersionDetailOutput):
        raise ApiError("readCourseVersion", first)
    state.calls.append(
        {"operation": "readCourseVersion", "path": {"course_id": course_id, "number": state.versions[-1]}}
    )


def read_quality(state: FlowState) -> None:
    course_id = state.course.id
    answer = get_course_quality.sync_detailed(course_id, client=state.client)
    if not isinstance(answer.parsed, CourseQualityOutput):
        raise ApiError("getCourseQuality", answer)
    state.calls.append({"operation": "getCourseQuality", "path": {"course_id": course_id}})
    state.quality = answer.parsed


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
        export_id = exported.export_id
        download = download_export.sync_detailed(export_id, client=anonymous)
        if not isinstance(download.parsed, File):
            raise ApiError("downloadExport", download)
        package = download.parsed.payload.read()
        if not zipfile.is_zipfile(io.BytesIO(package)):
            raise RuntimeError(f"downloadExport: {export_id} is no zip")
        state.exports.append(
            {
                "exportId": export_id,
                "format": exported.format_.value,
                "downloadUrl": exported.download_url,
                "exportedAt": exported.exported_at.isoformat(),
                "contentType": download.headers.get("Content-Type"),
                "bytes": len(package),
                "sha256": hashlib.sha256(package).hexdigest(),
            }
        )


def revoke_first_export(state: FlowState) -> None:
    path = {"course_id": state.course.id, "export_id": state.exports[0]["exportId"]}
    answer = revoke_export.sync_detailed(path["course_id"], path["export_id"], client=state.client)
    if answer.status_code != 204:
        raise ApiError("revokeExport", answer)
    state.calls.append({"operation": "revokeExport", "path": path})
    gone = download_export.sync_detailed(path["export_id"], client=Client(base_url=state.base_url))
    if gone.status_code != 410:
        raise RuntimeError(f"a revoked download link answered {gone.status_code}")
    state.revoked = path["export_id"]


def send_learner_events(state: FlowState) -> None:
    change_course_settings(state, LEARNER_HOOK)


def change_course_settings(state: FlowState, learner_callback_url: str | None) -> None:
    course_id = state.course.id
    body = PatchedUpdateCourseInputRequest(learner_callback_url=learner_callback_url)
    answer = update_course.sync_detailed(course_id, client=state.client, body=body)
    if not isinstance(answer.parsed, CourseSettingsOutput):
        raise ApiError("updateCourse", answer)
    state.calls.append({"operation": "updateCourse", "path": {"course_id": course_id}, "body": body.to_dict()})
    state.learner_callback_urls.append(answer.parsed.learner_callback_url)


def add_a_learner(state: FlowState) -> None:
    course_id = state.course.id
    body = AddLearnerInputRequest(external_id="E-10442", name="Ada Lovelace")
    answer = add_learner.sync_detailed(course_id, client=state.client, body=body)
    if not isinstance(answer.parsed, LearnerOutput):
        raise ApiError("addLearner", answer)
    state.calls.append({"operation": "addLearner", "path": {"course_id": course_id}, "body": body.to_dict()})
    state.learner = answer.parsed


def read_results(state: FlowState) -> None:
    course_id = state.course.id
    answer = list_course_results.sync_detailed(course_id, client=state.client, completed=False, limit=10)
    if not isinstance(answer.parsed, ResultsOutput):
        raise ApiError("listCourseResults", answer)
    state.calls.append(
        {"operation": "listCourseResults", "path": {"course_id": course_id}, "query": {"completed": False, "limit": 10}}
    )
    state.results = answer.parsed
    # The same rows as CSV. The generator parses a 200 as the JSON it documents first, so the CSV is
    # asked for through the client's own HTTP session (its address and key), with Accept: text/csv.
    csv = state.client.get_httpx_client().get(
        f"/api/v1/courses/{course_id}/results", params={"completed": "false"}, headers={"Accept": "text/csv"}
    )
    if csv.status_code != 200 or not csv.headers["Content-Type"].startswith("text/csv"):
        raise RuntimeError(f"listCourseResults as CSV: {csv.status_code} {csv.text[:200]}")
    state.results_csv = csv.text


def erase_the_learner(state: FlowState) -> None:
    path = {"course_id": state.course.id, "learner_id": state.learner.learner_id}
    answer = erase_learner.sync_detailed(path["course_id"], path["learner_id"], client=state.client)
    if not isinstance(answer.parsed, ErasedOutput):
        raise ApiError("eraseLearner", answer)
    state.calls.append({"operation": "eraseLearner", "path": path})
    state.erased = answer.parsed


def stop_learner_events(state: FlowState) -> None:
    change_course_settings(state, None)


def upload_source(state: FlowState) -> None:
    upload = File(payload=io.BytesIO(NOTES.encode()), file_name="onboarding.md", mime_type="text/markdown")
    body = UploadSourceInputRequest(file=upload, name="Onboarding notes")
    answer = create_source.sync_detailed(client=state.client, body=body)
    if not isinstance(answer.parsed, SourceOutput):
        raise ApiError("createSource", answer)
    # A file in a recorded body: its name and text (tests/support/clients/drivers.py sends it as a file).
    state.calls.append(
        {
            "operation": "createSource",
            "body": {"file": {"fileName": "onboarding.md", "text": NOTES}, "name": "Onboarding notes"},
        }
    )
    state.source = answer.parsed


def wait_until_read(state: FlowState) -> None:
    source_id = state.source.id
    while True:
        answer = get_source.sync_detailed(source_id, client=state.client)
        if not isinstance(answer.parsed, SourceOutput):
            raise ApiError("getSource", answer)
        state.calls.append({"operation": "getSource", "path": {"source_id": source_id}})
        state.source = answer.parsed
        if state.source.status == SourceStatusEnum.FAILED:
            raise RuntimeError(f"source {source_id} failed: {state.source.error.code}")
        if state.source.status == SourceStatusEnum.READY:
            return
        time.sleep(int(answer.headers.get("Retry-After", "5")))


def build_course_from_source(state: FlowState) -> None:
    body = CreateJobInputRequest(
        subject="Onboarding for new analysts", sources=[state.source.id], add_ons=[AddOnsEnum.ASSESSMENT]
    )
    answer = create_course.sync_detailed(client=state.client, body=body)
    if not isinstance(answer.parsed, JobAccepted):
        raise ApiError("createCourse", answer)
    state.calls.append({"operation": "createCourse", "body": body.to_dict()})
    job = poll_job_to_completion(state, answer.parsed.job_id)
    read_course_from_source(state, job.course.id)


def read_course_from_source(state: FlowState, course_id: str) -> None:
    answer = read_course.sync_detailed(course_id, client=state.client)
    if not isinstance(answer.parsed, CourseDetailOutput):
        raise ApiError("readCourse", answer)
    content = answer.parsed.content
    if [source.id for source in content.sources] != [state.source.id]:
        raise RuntimeError(f"course {course_id} does not list source {state.source.id}")
    # Every lesson and question says where it comes from: a passage of the source and its words.
    cited = [lesson.citations for chapter in content.chapters for lesson in chapter.lessons]
    cited += [question.citations for question in content.assessment.questions]
    if not all(cited) or any(citation.source_id != state.source.id for part in cited for citation in part):
        raise RuntimeError(f"course {course_id} has a part that cites nothing, or another source")
    state.sourced = answer.parsed


def read_course_after_source_deleted(state: FlowState) -> None:
    read_course_from_source(state, state.sourced.id)
    if not state.sourced.content.sources[0].deleted:
        raise RuntimeError("a deleted source is not marked deleted in the course built from it")


def list_and_delete_source(state: FlowState) -> None:
    answer = list_sources.sync_detailed(client=state.client, limit=10)
    if not isinstance(answer.parsed, SourceList):
        raise ApiError("listSources", answer)
    state.calls.append({"operation": "listSources", "query": {"limit": 10}})
    if state.source.id not in [source.id for source in answer.parsed.sources]:
        raise RuntimeError(f"source {state.source.id} is not listed")
    source_id = state.source.id
    deleted = delete_source.sync_detailed(source_id, client=state.client)
    if deleted.status_code != 204:
        raise ApiError("deleteSource", deleted)
    state.calls.append({"operation": "deleteSource", "path": {"source_id": source_id}})


def make_a_course_and_delete_it(state: FlowState) -> None:
    accepted = create_course.sync_detailed(client=state.client, body=CreateJobInputRequest(subject="A course to take down"))
    if not isinstance(accepted.parsed, JobAccepted):
        raise ApiError("createCourse", accepted)
    course_id = poll_job_to_completion(state, accepted.parsed.job_id).course.id
    answer = delete_course.sync_detailed(course_id, client=state.client)
    if answer.status_code != 204:
        raise ApiError("deleteCourse", answer)
    state.calls.append({"operation": "deleteCourse", "path": {"course_id": course_id}})
    # The job stays, with its course gone.
    job = poll_job.sync_detailed(accepted.parsed.job_id, client=state.client)
    if not isinstance(job.parsed, JobOutput):
        raise ApiError("pollJob", job)
    state.deleted = {"courseId": course_id, "job": job.parsed.to_dict()}


def find_courses_and_jobs_again(state: FlowState) -> None:
    """What a client that lost its ids does: list its courses, a page of 2 at a time, and its completed jobs."""
    courses, cursor = [], None
    while True:
        query = {"limit": 2, **({"cursor": cursor} if cursor else {})}
        answer = list_courses.sync_detailed(client=state.client, **query)
        if not isinstance(answer.parsed, CourseList):
            raise ApiError("listCourses", answer)
        if cursor is None:
            state.calls.append({"operation": "listCourses", "query": query})
        courses += [course.id for course in answer.parsed.courses]
        cursor = answer.parsed.next_cursor
        if cursor is None:
            break
    jobs = list_jobs.sync_detailed(client=state.client, status=JobStatusEnum.COMPLETED, limit=100)
    if not isinstance(jobs.parsed, JobList):
        raise ApiError("listJobs", jobs)
    state.calls.append({"operation": "listJobs", "query": {"status": "completed", "limit": 100}})
    state.listed = {"courses": courses, "jobs": [job.job_id for job in jobs.parsed.jobs]}


INTRODUCTION = "SQL lets you ask a database questions. This course starts from the first query."
LEARNER_HOOK = "https://hooks.example.com/learners/7f3a9c2e"
# Enough text in its own sections for a course to be built from it (a section per chapter).
NOTES = """# Onboarding

## Access

New analysts get read access to the warehouse on their first day. The data team grants write access
after the first review. Every analyst signs the data handling policy before any query runs. Shared
accounts are never used for analysis work.

## Queries

Analysts run heavy queries against the reporting replica, never against production. Every saved query
names its owner and its purpose. Queries that join customer tables are reviewed by a senior analyst.
Scheduled queries run at night to keep the warehouse responsive.

## Reports

Reports are published in the team catalogue with their sources and refresh times. A report that
shows personal data is shared only with named readers. Every published report has a reviewer who
checks its numbers. Retired reports are archived rather than deleted.
"""

STEPS: list[Callable[[FlowState], None]] = [
    create,
    poll_to_completion,
    take_course_from_job,
    read_document,
    edit_introduction,
    replace_document,
    regenerate_introduction,
    read_versions,
    read_quality,
    export_and_download_each_format,
    revoke_first_export,
    send_learner_events,
    add_a_learner,
    read_results,
    erase_the_learner,
    stop_learner_events,
    upload_source,
    wait_until_read,
    build_course_from_source,
    list_and_delete_source,
    read_course_after_source_deleted,
    make_a_course_and_delete_it,
    find_courses_and_jobs_again,
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
        "document": state.document.to_dict(),
        "versions": state.versions,
        "quality": state.quality.to_dict(),
        "learnerCallbackUrls": state.learner_callback_urls,
        "learner": state.learner.to_dict(),
        "results": state.results.to_dict(),
        "resultsCsv": state.results_csv,
        "erased": state.erased.to_dict(),
        "source": state.source.to_dict(),
        "sourcedCourse": state.sourced.to_dict(),
        "exports": state.exports,
        "revoked": state.revoked,
        "deleted": state.deleted,
        "listed": state.listed,
        "calls": state.calls,
    }
