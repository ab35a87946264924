"""Clients take a course down (DELETE /api/v1/courses/:id), and staff do from the admin; what goes with it."""

import importlib
import json
import logging
import threading
import time
import urllib.parse
import uuid
from pathlib import Path

import psycopg
import pytest
import time_machine
from django.apps import apps as django_apps
from django.contrib.admin.models import DELETION, LogEntry
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.test import Client

from accounts import services as account_services
from core import redis_client
from courses import deletion, jobs
from courses.models import (
    Course,
    CourseVersion,
    GenerationCheckpoint,
    GenerationJob,
    RemovedLink,
)
from exports.models import Export
from learners import identity
from learners.models import Learner, Signoff
from tests.support.exports import export, path_of
from tests.support.factories import CourseFactory, GenerationJobFactory, SignoffFactory, do_all_but_sign
from tests.support.keys import client_for
from tests.support.locks import changed_meanwhile, run_until_they_wait, second_session
from tests.support.readers import BROWSER
from webhooks import services as webhook_services
from webhooks.models import WebhookEvent

CALLBACK = "https://hooks.example.com/cgs/s3cret-token"
NOT_FOUND = {"message": "Course not found.", "code": "NOT_FOUND"}
# The `course` of these tests: in Brazilian Portuguese, its job with a callback URL.
pytestmark = pytest.mark.course(language_id="pt-BR", job__callback_url=CALLBACK)


@pytest.fixture(autouse=True)
def _files_and_links(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.PUBLIC_BASE_URL = "https://courses.example.com"


def delete(client, course, capture):
    with capture(execute=True):
        return client.delete(f"/api/v1/courses/{course.public_id}")


def test_deleting_a_course_removes_everything_stored_about_it(api_client, course, django_capture_on_commit_callbacks):
    api_client.patch(
        f"/api/v1/courses/{course.public_id}/content", json.dumps({"headline": "Edited"}),
        content_type="application/merge-patch+json", HTTP_IF_MATCH='"1"',
    )
    exports = [export(api_client, course), export(api_client, course)]
    files = [Path(stored.file.path) for stored in Export.objects.all()]
    SignoffFactory(course=course)
    other = CourseFactory(api_key=course.api_key)

    response = delete(api_client, course, django_capture_on_commit_callbacks)

    assert response.status_code == 204
    assert response.content == b""
    assert not Course.objects.filter(pk=course.pk).exists()
    assert not CourseVersion.objects.filter(course_id=course.pk).exists()
    assert not Export.objects.filter(course_id=course.pk).exists()
    assert not Signoff.objects.filter(course_id=course.pk).exists()
    assert files and not any(file.exists() for file in files)
    assert set(RemovedLink.objects.values_list("public_id", "language_id")) == {
        (course.public_id, "pt-BR"), *((item["exportId"], "pt-BR") for item in exports),
    }
    assert Course.objects.filter(pk=other.pk).exists()


def test_the_job_keeps_its_status_with_no_course(api_client, course, django_capture_on_commit_callbacks):
    delete(api_client, course, django_capture_on_commit_callbacks)

    response = api_client.get(f"/api/v1/courses/jobs/{course.job.public_id}")

    assert response.status_code == 200
    assert response.json() == {"jobId": course.job.public_id, "status": "completed", "progress": 100, "course": None}


def test_a_finished_regeneration_keeps_its_job_too(api_client, course, django_capture_on_commit_callbacks):
    regeneration = GenerationJobFactory(
        api_key=course.api_key, regenerated_course=course, part="assessment", status=GenerationJob.Status.COMPLETED
    )

    delete(api_client, course, django_capture_on_commit_callbacks)

    regeneration.refresh_from_db()
    assert regeneration.status == "completed" and regeneration.regenerated_course is None
    assert api_client.get(f"/api/v1/courses/jobs/{regeneration.public_id}").json()["course"] is None


def test_the_course_is_gone_from_every_endpoint_of_the_api(api_client, course, django_capture_on_commit_callbacks):
    api_client.get(f"/api/v1/courses/{course.public_id}")  # its JSON is stored
    delete(api_client, course, django_capture_on_commit_callbacks)

    for tail in ("", "/versions", "/versions/1", "/quality"):
        response = api_client.get(f"/api/v1/courses/{course.public_id}{tail}")
        assert response.status_code == 404, tail
    assert export_status(api_client, course) == 404
    assert delete(api_client, course, django_capture_on_commit_callbacks).json() == NOT_FOUND


def test_the_list_of_a_courses_renderings_names_only_what_is_still_stored():
    stored, course = redis_client.cache_client(), uuid.uuid4().hex
    listed = f"course-renderings:{{{course}}}"
    old, recent, new = (redis_client.rendering_key("coursejson", course=course, variant=f"1:{n}") for n in range(3))
    day = redis_client.STORED_SECONDS
    # Renderings of one version (its JSON as sources were deleted), stored a day ago and more, by this
    # process's clock. Only the clock moves: Redis keeps these keys a day from now, where in life the
    # first two would be gone.
    with time_machine.travel(time.time() - day - 200, tick=False):
        redis_client.store(old, b"old", course=course, version=1)
    with time_machine.travel(time.time() - day - 50, tick=False):  # expired 50 s ago: within a minute
        redis_client.store(recent, b"recent", course=course, version=1)

    redis_client.store(new, b"new", course=course, version=1)

    # The oldest name went; the next stays for its minute of grace, in case clocks disagree.
    assert [key.decode() for key in stored.zrange(listed, 0, -1)] == [recent, new]
    assert day - 10 <= stored.ttl(listed) <= day  # as long as its newest key

    redis_client.forget_course(course)
    assert not stored.exists(listed, recent, new)
    assert stored.unlink(old) == 1  # not listed, so left to expire


def export_status(client, course) -> int:
    return client.post(f"/api/v1/courses/{course.public_id}/export", {}, format="json").status_code


def test_its_stored_pages_and_json_are_forgotten(api_client, course, django_capture_on_commit_callbacks):
    api_client.get(f"/api/v1/courses/{course.public_id}")
    Client().get(f"/go/{course.public_id}")
    Client().get(f"/go/{course.public_id}/1")
    stored = redis_client.cache_client()
    keys = [key.decode() for key in stored.scan_iter(match=f"course*:{{{course.public_id}}}:*")]
    assert len(keys) == 3
    # Listed under the course, so forgetting them needs no scan of every key.
    assert {key.decode() for key in stored.zrange(f"course-renderings:{{{course.public_id}}}", 0, -1)} == set(keys)

    delete(api_client, course, django_capture_on_commit_callbacks)

    assert list(stored.scan_iter(match=f"course*:{{{course.public_id}}}:*")) == []
    assert not stored.exists(f"course-renderings:{{{course.public_id}}}")  # nor the list of them
    assert [redis_client.stored(key) for key in keys] == [None, None, None]  # this process's copies too


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", ["/go/{id}", "/go/{id}/1", "/api/v1/courses/{id}"])
def test_a_page_or_json_rendered_as_the_course_is_deleted_is_not_stored_after_it(api_client, course, path):
    # The request read the course before the deletion committed, and stores its rendering after the
    # deletion forgot the course's renderings.
    def delete_it():
        deletion.delete_course(course=Course.objects.get(pk=course.pk), by="staff test")

    answer, _ = changed_meanwhile(
        after_query_with='"courses_course"."content"', change=delete_it,  # the course read whole, to render
        request=lambda: api_client.get(path.format(id=course.public_id)),
    )

    stored = redis_client.cache_client()
    assert answer.status_code == 200  # the reader who came first gets it
    assert [key.decode() for key in stored.scan_iter(match=f"course*:{{{course.public_id}}}*")] == [
        f"course-deleted:{{{course.public_id}}}"
    ]


def test_its_page_answers_410_in_the_course_language_with_nothing_of_the_course(
    api_client, course, django_capture_on_commit_callbacks
):
    SignoffFactory(course=course)
    signed = Signoff.objects.get()
    delete(api_client, course, django_capture_on_commit_callbacks)
    browser = Client()

    answers = [
        browser.get(f"/go/{course.public_id}"),
        browser.get(f"/go/{course.public_id}/1"),
        browser.get(f"/go/{course.public_id}/signed/{signed.public_id}"),
        browser.post(f"/go/{course.public_id}/agreement", {"name": "Grace", "confirm": "on"}),
    ]

    for response in answers:
        page = response.content.decode()
        assert response.status_code == 410
        assert '<html lang="pt-BR"' in page
        assert "Este curso foi removido" in page
        assert course.name not in page and course.headline not in page
        assert response["X-Robots-Tag"] == "noindex, nofollow"


def test_its_download_links_answer_410(api_client, course, django_capture_on_commit_callbacks):
    links = [export(api_client, course)["downloadUrl"] for _ in range(2)]
    delete(api_client, course, django_capture_on_commit_callbacks)

    for link in links:
        response = Client().get(path_of(link))
        assert response.status_code == 410
        assert "Este download não está mais disponível" in response.content.decode()


def test_unknown_ids_are_still_404(db):
    browser = Client()

    assert browser.get("/go/cou_0000000000000000000000").status_code == 404
    assert browser.get("/downloads/exp_0000000000000000000000").status_code == 404


def test_a_course_deleted_event_goes_to_the_callback_url(api_client, course, django_capture_on_commit_callbacks, time_machine):
    time_machine.move_to("2026-03-01T12:00:00.123456Z", tick=False)

    delete(api_client, course, django_capture_on_commit_callbacks)

    event = WebhookEvent.objects.get(event_type="course.deleted")
    assert event.url == CALLBACK
    assert json.loads(event.body) == {
        "event": "course.deleted",
        "courseId": course.public_id,
        "jobId": course.job.public_id,
        "deletedAt": "2026-03-01T12:00:00.123Z",
    }


def test_the_events_about_the_course_go_with_it_and_its_jobs_forget_the_text_they_were_given(
    api_client, django_capture_on_commit_callbacks
):
    # course.created and course.updated name the course and show its headline, course.exported has a
    # download link; the outline and instructions a job was given are the course's own words.
    def run(path, body):
        with django_capture_on_commit_callbacks(execute=False):  # the worker's part is run below
            job_id = api_client.post(path, body, format="json").json()["jobId"]
        jobs.run_job(job_id=GenerationJob.objects.get(public_id=job_id).pk)
        return GenerationJob.objects.get(public_id=job_id)

    made = run("/api/v1/courses", {"subject": "SQL", "outline": ["Joins", "Keys"], "callbackUrl": CALLBACK})
    course = made.course
    regenerated = run(
        f"/api/v1/courses/{course.public_id}/regenerate",
        {"target": "chapter", "chapter": 1, "instructions": "About outer joins.", "callbackUrl": CALLBACK},
    )
    with django_capture_on_commit_callbacks(execute=False):
        export_with = api_client.post(
            f"/api/v1/courses/{course.public_id}/export", {"callbackUrl": CALLBACK}, format="json"
        )
    other = run("/api/v1/courses", {"subject": "Other", "callbackUrl": CALLBACK}).course
    assert export_with.status_code == 200
    about_it = WebhookEvent.objects.filter(subject=course.public_id)
    assert sorted(about_it.values_list("event_type", flat=True)) == [
        "course.created", "course.exported", "course.updated",
    ]

    with django_capture_on_commit_callbacks(execute=False):
        assert api_client.delete(f"/api/v1/courses/{course.public_id}").status_code == 204

    left = set(WebhookEvent.objects.values_list("event_type", "subject"))
    assert left == {("course.deleted", course.public_id), ("course.created", other.public_id)}
    made.refresh_from_db()
    regenerated.refresh_from_db()
    assert (made.subject, made.outline, regenerated.instructions) == ("SQL", [], "")


def test_events_recorded_before_they_named_their_course_or_source_are_found_and_those_of_deleted_ones_go(
    api_key, account
):
    migration = importlib.import_module("webhooks.migrations.0003_course_and_source_event_subjects")
    kept, deleted = CourseFactory(api_key=api_key), CourseFactory(api_key=api_key)

    def event(payload):
        return webhook_services.record_event(account=account, url=CALLBACK, payload=payload)

    events = [
        event({"event": "course.created", "jobId": "job_1", "course": {"id": kept.public_id}}),
        event({"event": "course.updated", "jobId": "job_2", "course": {"id": deleted.public_id}}),
        event({"event": "course.exported", "courseId": deleted.public_id, "exportId": "exp_1"}),
        event({"event": "course.deleted", "courseId": deleted.public_id, "jobId": "job_1"}),
        event({"event": "course.failed", "jobId": "job_3", "error": {"code": "GENERATION_FAILED"}}),
        event({"event": "source.ready", "source": {"id": "src_0000000000000000000000", "title": "Handbook"}}),
    ]
    deleted.delete()

    with connection.cursor() as cursor:
        cursor.execute(migration._SUBJECTS)
    migration.delete_events_of_deleted_courses_and_sources(django_apps, connection.schema_editor())

    left = WebhookEvent.objects.filter(pk__in=[recorded.pk for recorded in events])
    assert sorted(left.values_list("event_type", "subject")) == [
        ("course.created", kept.public_id), ("course.deleted", deleted.public_id), ("course.failed", ""),
    ]


def test_jobs_of_courses_deleted_before_forget_their_text_too(api_key):
    migration = importlib.import_module("courses.migrations.0015_jobs_of_deleted_courses_forget_their_text")
    def made(outline):
        job = GenerationJobFactory(api_key=api_key, outline=outline, status="completed")
        return CourseFactory(api_key=api_key, job=job)

    kept, deleted = made(["Kept"]), made(["Gone"])
    regeneration = GenerationJobFactory(
        api_key=api_key, regenerated_course=deleted, part="assessment", instructions="Hard",
        status="completed",
    )
    failed = GenerationJobFactory(api_key=api_key, outline=["Never made"], status="failed")
    deleted.delete()

    migration.blank_the_text_of_jobs_of_deleted_courses(django_apps, connection.schema_editor())

    jobs = [kept.job, deleted.job, regeneration, failed]
    for job in jobs:
        job.refresh_from_db()
    assert [(job.outline, job.instructions) for job in jobs] == [
        (["Kept"], ""), ([], ""), ([], ""), (["Never made"], ""),
    ]


def test_no_callback_url_no_event(api_client, api_key, django_capture_on_commit_callbacks):
    course = CourseFactory(api_key=api_key)

    assert delete(api_client, course, django_capture_on_commit_callbacks).status_code == 204
    assert not WebhookEvent.objects.exists()


def test_another_key_gets_404_and_the_course_stays(stranger_client, course, django_capture_on_commit_callbacks):
    response = delete(stranger_client, course, django_capture_on_commit_callbacks)

    assert (response.status_code, response.json()) == (404, NOT_FOUND)
    assert Course.objects.filter(pk=course.pk).exists()
    assert not RemovedLink.objects.exists()


@pytest.mark.parametrize("course_id", ["cou_0000000000000000000000", "nonsense", "cou_" + "x" * 300])
def test_unknown_course_ids_are_404(api_client, course_id):
    response = api_client.delete(f"/api/v1/courses/{urllib.parse.quote(course_id)}")

    assert (response.status_code, response.json()) == (404, NOT_FOUND)


@pytest.mark.parametrize("status", ["pending", "running"])
def test_a_course_being_generated_again_is_not_deleted(api_client, course, status, django_capture_on_commit_callbacks):
    GenerationJobFactory(api_key=course.api_key, regenerated_course=course, part="assessment", status=status)

    response = delete(api_client, course, django_capture_on_commit_callbacks)

    assert response.status_code == 409
    assert response.json()["code"] == "COURSE_BUSY"
    assert Course.objects.filter(pk=course.pk).exists()


def test_no_kept_step_of_a_regeneration_outlives_the_course(api_client, course, django_capture_on_commit_callbacks):
    # A regeneration keeps its finished steps only while it runs, and the course cannot be deleted
    # until it has ended, which takes its steps with it: deleting leaves none behind.
    job = GenerationJobFactory(api_key=course.api_key, regenerated_course=course, part="wrapup", status="running")
    GenerationCheckpoint.objects.create(job=job, step="part", data={"kind": "text", "text": "kept"})

    refused = delete(api_client, course, django_capture_on_commit_callbacks)
    jobs.fail_job(job_id=job.pk, attempt=None, code="GENERATION_FAILED", message="Failed.")
    deleted = delete(api_client, course, django_capture_on_commit_callbacks)

    assert (refused.status_code, deleted.status_code) == (409, 204)
    assert not GenerationCheckpoint.objects.exists()


def test_deleting_gives_no_credit_back(api_client, account, course, django_capture_on_commit_callbacks):
    account_services.charge_credit(account=account)

    delete(api_client, course, django_capture_on_commit_callbacks)

    assert account_services.usage_for(account=account).used == 1


def test_each_deletion_is_a_line_in_the_log(api_client, api_key, course, caplog, django_capture_on_commit_callbacks):
    with caplog.at_level(logging.INFO, logger="courses.deletion"):
        delete(api_client, course, django_capture_on_commit_callbacks)

    [line] = [record for record in caplog.records if record.getMessage() == "course deleted"]
    assert line.course_id == course.public_id
    assert line.deleted_by == f"api key {api_key.prefix}"


def test_a_revoked_key_leaves_its_courses_pages_up(api_key, course):
    account_services.revoke_key(key_or_prefix=api_key.prefix)

    assert Client().get(f"/go/{course.public_id}").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_two_deletions_at_once_one_204_one_404(plain_key, api_key):
    course = CourseFactory(api_key=api_key)
    barrier = threading.Barrier(2)
    statuses = []

    def send():
        client = client_for(plain_key)
        barrier.wait()
        try:
            statuses.append(client.delete(f"/api/v1/courses/{course.public_id}").status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(statuses) == [204, 404]
    assert RemovedLink.objects.filter(public_id=course.public_id).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_deletion_crossing_the_revocation_of_one_of_its_exports_deletes_the_course(api_client, course):
    # The revocation has deleted the export and marked its link gone, not yet committed: the
    # deletion, marking every link of the course gone, waits for that mark, then finds it made.
    exported = export(api_client, course)
    answers = []
    with second_session() as revocation:
        revocation.execute('DELETE FROM "exports_export" WHERE "public_id" = %s', [exported["exportId"]])
        revocation.execute(
            'INSERT INTO "courses_removedlink" ("public_id", "language_id", "removed_at")'
            " VALUES (%s, 'pt-BR', now())",
            [exported["exportId"]],
        )
        [deleting] = run_until_they_wait(
            revocation, lambda: answers.append(api_client.delete(f"/api/v1/courses/{course.public_id}"))
        )
        revocation.commit()
    deleting.join()

    assert [answer.status_code for answer in answers] == [204]
    assert not Course.objects.filter(pk=course.pk).exists()
    gone = set(RemovedLink.objects.values_list("public_id", flat=True))
    assert gone == {course.public_id, exported["exportId"]}


# Staff, from the admin --------------------------------------------------------------------------


def test_staff_delete_a_course_after_a_confirmation_page(staff_client, api_client, course, caplog, django_capture_on_commit_callbacks):
    link = export(api_client, course)
    address = f"/admin/courses/course/{course.pk}/delete/"

    confirmation = staff_client.get(address)
    with caplog.at_level(logging.INFO, logger="courses.deletion"), django_capture_on_commit_callbacks(execute=True):
        response = staff_client.post(address, {"post": "yes"})

    assert confirmation.status_code == 200
    assert "Are you sure" in confirmation.content.decode()
    assert response.status_code == 302
    assert not Course.objects.filter(pk=course.pk).exists()
    assert Client().get(f"/go/{course.public_id}").status_code == 410
    assert Client().get(path_of(link["downloadUrl"])).status_code == 410
    assert WebhookEvent.objects.filter(event_type="course.deleted").count() == 1
    [line] = [record for record in caplog.records if record.getMessage() == "course deleted"]
    assert (line.course_id, line.deleted_by) == (course.public_id, "staff staff")


@pytest.mark.parametrize("how", ["delete button", "delete selected"])
def test_staff_deletions_name_the_course_by_its_id_in_the_admin_log(
    staff_client, course, how, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        if how == "delete button":
            staff_client.post(f"/admin/courses/course/{course.pk}/delete/", {"post": "yes"})
        else:
            staff_client.post(
                "/admin/courses/course/",
                {"action": "delete_selected", "_selected_action": [course.pk], "post": "yes"},
            )

    assert not Course.objects.filter(pk=course.pk).exists()
    assert list(LogEntry.objects.values_list("object_repr", flat=True)) == [course.public_id]
    staff_client.get("/admin/")  # says once, to whoever deleted it, what was deleted
    assert course.name not in staff_client.get("/admin/").content.decode()  # its recent actions, for good


def test_entries_of_courses_deleted_before_are_renamed_by_their_id(staff_client, course):
    migration = importlib.import_module(
        "courses.migrations.0014_deleted_courses_named_by_id_in_the_admin_log"
    )
    LogEntry.objects.log_actions(user_id=User.objects.get().pk, queryset=[course], action_flag=DELETION)
    course.delete()

    migration.name_deleted_courses_by_their_id(django_apps, connection.schema_editor())

    assert list(LogEntry.objects.values_list("object_repr", flat=True)) == [course.public_id]


def test_staff_cannot_delete_a_course_being_generated_again(staff_client, course):
    GenerationJobFactory(api_key=course.api_key, regenerated_course=course, part="assessment", status="running")

    response = staff_client.post(f"/admin/courses/course/{course.pk}/delete/", {"post": "yes"}, follow=True)

    assert "being generated again" in response.content.decode()
    assert Course.objects.filter(pk=course.pk).exists()


def _row_is_free(table: str, pk: int) -> bool:
    with second_session() as looking:
        try:
            looking.execute(f'SELECT 1 FROM "{table}" WHERE "id" = %s FOR UPDATE NOWAIT', [pk])
        except psycopg.errors.LockNotAvailable:
            return False
        return True


@pytest.mark.django_db(transaction=True)
def test_a_revocation_waits_for_a_deletion_holding_the_course_before_holding_the_export(api_client, course):
    # A deletion holds the course, then its exports; a revocation holding the export first while it
    # waited for the course deadlocked with it, and one of them got 503.
    revocation = f"/api/v1/courses/{course.public_id}/exports/{export(api_client, course)['exportId']}"
    answers = []
    with second_session() as course_deletion:
        course_deletion.execute('SELECT 1 FROM "courses_course" WHERE "id" = %s FOR UPDATE', [course.pk])
        [revoking] = run_until_they_wait(
            course_deletion,
            lambda: answers.append(api_client.delete(revocation)),
        )
        assert answers == [] and _row_is_free("exports_export", Export.objects.get().pk)
        course_deletion.rollback()
    revoking.join()

    assert [answer.status_code for answer in answers] == [204]


@pytest.mark.django_db(transaction=True)
def test_a_sign_off_waits_for_a_deletion_holding_the_course_before_it_holds_the_learner(api_key):
    course = CourseFactory(api_key=api_key, format="classic")
    browser = Client(HTTP_USER_AGENT=BROWSER)
    browser.get(f"/go/{course.public_id}")
    learner_id = browser.cookies["cgs_learner"].value.split(":")[0]
    do_all_but_sign(course, identity.Known(public_id=learner_id))  # the agreement is open to them
    answers = []
    with second_session() as course_deletion:
        course_deletion.execute('SELECT 1 FROM "courses_course" WHERE "id" = %s FOR UPDATE', [course.pk])
        form = {"csrfmiddlewaretoken": browser.cookies["csrftoken"].value, "name": "Ada", "confirm": "on"}
        [signing] = run_until_they_wait(
            course_deletion, lambda: answers.append(browser.post(f"/go/{course.public_id}/agreement", form))
        )
        assert answers == [] and _row_is_free("learners_learner", Learner.objects.get().pk)
        course_deletion.rollback()
    signing.join()

    assert [answer.status_code for answer in answers] == [303]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("learner", ["ready"], ids=["a learner who did the rest"])
def test_a_sign_off_sent_as_the_course_is_deleted_finds_it_gone(api_key, learner):
    # The page read the course; its deletion commits while the sign-off's write waits on the row.
    course = CourseFactory(api_key=api_key, format="classic")
    browser = Client(HTTP_USER_AGENT=BROWSER)
    browser.get(f"/go/{course.public_id}")  # the browser's learner id
    if learner == "ready":
        do_all_but_sign(course, identity.Known(public_id=browser.cookies["cgs_learner"].value.split(":")[0]))
    deleting, waiting = threading.Event(), threading.Event()

    def delete_once_the_sign_off_waits():
        try:
            with transaction.atomic():
                deletion.delete_course(course=Course.objects.get(pk=course.pk), by="test")
                deleting.set()
                deadline = time.monotonic() + 30
                with connection.cursor() as cursor:
                    # Until the sign-off's write waits on the deleted row: the one session that can
                    # (its statement is longer than the 1 kB of it pg_stat_activity keeps).
                    while not waiting.is_set() and time.monotonic() < deadline:
                        cursor.execute("SELECT pg_stat_clear_snapshot()")  # else a transaction sees one snapshot
                        cursor.execute(
                            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                            "AND wait_event_type = 'Lock'"
                        )
                        if cursor.fetchone()[0]:
                            waiting.set()
        finally:
            connection.close()

    deleter = threading.Thread(target=delete_once_the_sign_off_waits)
    deleter.start()
    assert deleting.wait(timeout=30)
    response = browser.post(f"/go/{course.public_id}/agreement", {"name": "Ada Lovelace", "confirm": "on"})
    deleter.join(timeout=30)

    assert waiting.is_set()
    assert response.status_code == 410
    assert "Ada Lovelace" not in response.content.decode()
    assert not Signoff.objects.exists()
