"""The factories build what the services build: each row reads back through the API or the pages as a real one."""

import io
import json
import zipfile

from django.conf import settings
from django.test import Client

from courses.content import CourseContent
from exports.models import Export
from learners.models import Learner, Signoff
from sources.models import Source
from tests.support import documents
from tests.support.factories import (
    CourseFactory,
    ExportFactory,
    LearnerFactory,
    SignoffFactory,
    SourceFactory,
    WebhookEventFactory,
)
from webhooks.models import WebhookEvent


def test_course_factory_builds_a_valid_complete_course(db):
    course = CourseFactory(format="classic", language_id="de-DE")

    content = CourseContent.model_validate(course.content)
    assert content.format == "classic" and content.language_id == "de-DE"
    assert course.job.api_key == course.api_key
    assert all(lesson.exercise and lesson.video for chapter in content.chapters for lesson in chapter.lessons)


def test_source_factory_uploads_and_reads_a_source_as_its_poll_shows_it(api_client, api_key):
    source = SourceFactory(api_key=api_key)

    polled = api_client.get(f"/api/v1/sources/{source.public_id}").json()

    assert (polled["status"], polled["name"], polled["title"], polled["mediaType"]) == (
        "ready", "onboarding.md", "Onboarding checklist", "text/markdown"
    )
    assert source.passages.count() >= 1
    assert source.file.read() == documents.MARKDOWN.encode()


def test_source_factory_leaves_a_source_pending_or_failed_as_the_reader_would(api_key):
    pending = SourceFactory(api_key=api_key, read=False, name="Policy")
    failed = SourceFactory(api_key=api_key, file_name="secret.pdf", data=documents.encrypted_pdf())

    assert (pending.status, pending.name, pending.passages.count()) == (Source.Status.PENDING, "Policy", 0)
    assert (failed.status, failed.error_code) == (Source.Status.FAILED, "SOURCE_ENCRYPTED")


def test_learner_factory_adds_a_learner_the_results_list(api_client, course):
    learner = LearnerFactory(course=course, external_id="E-42", name="Grace Hopper")

    [row] = api_client.get(f"/api/v1/courses/{course.public_id}/results").json()["results"]

    assert (row["learnerId"], row["externalId"], row["name"], row["startedAt"]) == (
        learner.public_id, "E-42", "Grace Hopper", None
    )


def test_webhook_event_factory_records_a_pending_event_of_its_exact_body(db):
    event = WebhookEventFactory(payload={"event": "learner.started", "learnerId": "lrn_x"}, subject="lrn_x")

    stored = WebhookEvent.objects.get()
    assert (stored.pk, stored.status, stored.event_type, stored.subject) == (
        event.pk, WebhookEvent.Status.PENDING, "learner.started", "lrn_x"
    )
    assert json.loads(stored.body) == {"event": "learner.started", "learnerId": "lrn_x"}
    assert stored.attempt_limit == settings.WEBHOOK_MAX_ATTEMPTS and stored.attempt_count == 0


def test_export_factory_stores_a_package_its_download_link_serves(db):
    export = ExportFactory(format=Export.ExportFormat.CMI5)

    download = Client().get(f"/downloads/{export.public_id}")

    assert (download.status_code, download["Content-Type"]) == (200, "application/zip")
    names = zipfile.ZipFile(io.BytesIO(b"".join(download.streaming_content))).namelist()
    assert "cmi5.xml" in names
    assert (export.api_key, export.version) == (export.course.api_key, 1)


def test_signoff_factory_signs_as_the_page_does_and_its_confirmation_names_the_signer(db):
    signoff = SignoffFactory(name="  Ada   Lovelace ")

    confirmation = Client().get(f"/go/{signoff.course.public_id}/signed/{signoff.public_id}")

    assert signoff.name == "Ada Lovelace"
    assert "Ada Lovelace" in confirmation.content.decode()
    # Its learner did the rest first, as the page records it: the sign-off completes the course.
    assert (signoff.learner.pages_seen, signoff.learner.passed) == (0b11111, True)
    assert signoff.learner.completed_at == signoff.signed_at


def test_signoff_factory_given_a_learner_signs_as_theirs(course):
    learner = LearnerFactory(course=course)

    signoff = SignoffFactory(course=course, learner=learner, name="Grace Hopper")

    learner.refresh_from_db()
    assert Signoff.objects.get().learner == learner == signoff.learner
    assert (learner.signed_name, learner.signed_at) == ("Grace Hopper", signoff.signed_at)
    assert Learner.objects.count() == 1
