"""
The quickstart with the Python client generated from the API document: create a course, wait until
it is generated, export it as SCORM 1.2 and download the zip.

    make clients && pip install build/clients/python
    API_KEY=cgs_... BASE_URL=http://localhost:8000 python examples/generated_client.py
"""

import os
import sys
import time

import httpx
from course_generation_api_client import AuthenticatedClient
from course_generation_api_client.api.courses import create_course, export_course, poll_job
from course_generation_api_client.models import (
    CreateJobInputRequest,
    ErrorBody,
    ExportCourseInputRequest,
    ExportFormatEnum,
    JobStatusEnum,
)
from course_generation_api_client.types import Response

BASE_URL = os.environ.get("BASE_URL", "http://localhost:8000")
client = AuthenticatedClient(base_url=BASE_URL, token=os.environ["API_KEY"], timeout=httpx.Timeout(30))


def parsed(answer: Response):
    """The answer's model; on an error, exit with its code (an ErrorCodeEnum) and message."""
    if isinstance(answer.parsed, ErrorBody):
        sys.exit(f"{answer.status_code} {answer.parsed.code.value}: {answer.parsed.message}")
    return answer.parsed


accepted = parsed(
    create_course.sync_detailed(client=client, body=CreateJobInputRequest(subject="Intro to SQL"))
)
print(f"Job {accepted.job_id} accepted")

# Generation takes a minute or two. Unfinished jobs say when to ask again (Retry-After: 5).
while True:
    answer = poll_job.sync_detailed(accepted.job_id, client=client)
    job = parsed(answer)
    if job.status == JobStatusEnum.COMPLETED:
        break
    if job.status == JobStatusEnum.FAILED:
        sys.exit(f"Job {job.job_id} failed: {job.error.code.value}: {job.error.message}")
    time.sleep(int(answer.headers.get("Retry-After", "5")))

course = job.course
print(f"Course {course.id} ready, preview: {course.share_url}")
export = parsed(
    export_course.sync_detailed(
        course.id, client=client, body=ExportCourseInputRequest(format_=ExportFormatEnum.SCORM12)
    )
)

# The download link needs no key: its unguessable id is the secret.
package = httpx.get(export.download_url, timeout=60).raise_for_status().content
path = f"{course.id}-{export.format_.value}.zip"
with open(path, "wb") as file:
    file.write(package)
print(f"Saved {path} ({len(package)} bytes)")
