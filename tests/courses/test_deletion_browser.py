"""A course taken down, seen in headless Chromium: the learner's page and the download link are gone."""

import json

import pytest
from playwright.sync_api import expect

from courses.models import GenerationJob
from tests.support.factories import CourseFactory, GenerationJobFactory

pytestmark = pytest.mark.browser


def test_a_deleted_course_is_gone_for_its_learners_and_its_client_hears_of_it(
    live_server, page, api_client, api_key, receiver, private_networks_allowed, settings
):
    settings.PUBLIC_BASE_URL = live_server.url
    job = GenerationJobFactory(api_key=api_key, callback_url=receiver.url(), status=GenerationJob.Status.COMPLETED)
    course = CourseFactory(api_key=api_key, job=job, format="classic", language_id="de-DE")
    exported = api_client.post(f"/api/v1/courses/{course.public_id}/export", {}, format="json").json()
    page_url = f"{live_server.url}/go/{course.public_id}"

    page.goto(page_url)
    expect(page.get_by_role("heading", level=1)).to_have_text(course.name)
    before = page.request.get(exported["downloadUrl"])
    assert (before.status, before.headers["content-type"]) == (200, "application/zip")

    deleted = api_client.delete(f"/api/v1/courses/{course.public_id}")

    gone = page.reload()
    assert deleted.status_code == 204
    assert gone.status == 410
    expect(page.get_by_role("heading", level=1)).to_have_text("Dieser Kurs wurde entfernt")
    expect(page.locator("html")).to_have_attribute("lang", "de-DE")
    assert course.name not in page.content()
    chapter = page.goto(f"{page_url}/1")
    assert chapter.status == 410
    download = page.goto(exported["downloadUrl"])
    assert download.status == 410
    expect(page.get_by_role("heading", level=1)).to_have_text("Dieser Download ist nicht mehr verfügbar")
    assert [problem for problem in page.problems if "status of 410" not in problem] == []
    events = [json.loads(request.body) for request in receiver.requests]
    assert [event["event"] for event in events] == ["course.deleted"]
    assert (events[0]["courseId"], events[0]["jobId"]) == (course.public_id, job.public_id)
    assert {"webhook-id", "webhook-timestamp", "webhook-signature"} <= set(receiver.requests[0].headers)
