"""Staff read results per course in admin (with a CSV); old learner records are purged daily."""

import csv
import datetime
import io

import pytest
import time_machine
from django.utils import timezone

from learners import queries, services, tasks
from learners.models import Learner, QuizAttempt, Signoff
from tests.support import spreadsheets
from tests.support.factories import CourseFactory, LearnerFactory, WebhookEventFactory
from tests.support.readers import FAILING, PASSING, Reader
from webhooks.models import WebhookEvent

pytestmark = pytest.mark.django_db


@pytest.fixture
def taken(course):
    """Ada finished and signed; a second learner only looked."""
    ada = Reader(course)
    ada.send(hello=True, page=4, seen=[0, 1, 2, 3, 4])
    ada.answer(FAILING)
    ada.answer(PASSING)
    ada.sign("Ada Lovelace")
    Reader(course).send(hello=True, page=0, seen=[0])
    return course


def test_a_courses_admin_page_sums_up_its_results_with_links(admin_client, taken):
    page = admin_client.get(f"/admin/courses/course/{taken.pk}/change/").content.decode()

    assert "2 learners, 1 completed, 1 passed, 1 signed" in page
    assert f'href="/admin/learners/learner/?course__id__exact={taken.pk}"' in page
    assert f'href="/admin/learners/learner/course/{taken.pk}/results.csv"' in page


def test_staff_list_a_courses_learners_read_only(admin_client, taken):
    other = CourseFactory(api_key=taken.api_key)
    Reader(other).send(hello=True, page=0)
    ada = Learner.objects.get(signed_name="Ada Lovelace")

    listed = admin_client.get(f"/admin/learners/learner/?course__id__exact={taken.pk}")
    completed = admin_client.get(f"/admin/learners/learner/?course__id__exact={taken.pk}&completed=yes")
    detail = admin_client.get(f"/admin/learners/learner/{ada.pk}/change/")

    assert listed.status_code == 200
    assert listed.context["cl"].result_count == 2
    assert [learner.pk for learner in completed.context["cl"].result_list] == [ada.pk]
    html = detail.content.decode()
    assert "100 % (5 of 5 pages)" in html and "Ada Lovelace" in html and "[0, 0, 1, 1, null]" in html
    assert 'name="_save"' not in html  # read-only
    assert admin_client.get("/admin/learners/learner/add/").status_code == 403
    assert admin_client.post(f"/admin/learners/learner/{ada.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Learner.objects.count() == 3


def test_staff_download_a_courses_results_as_the_api_gives_them(admin_client, api_client, taken):
    from_api = api_client.get(f"/api/v1/courses/{taken.public_id}/results", HTTP_ACCEPT="text/csv").content

    response = admin_client.get(f"/admin/learners/learner/course/{taken.pk}/results.csv")

    downloaded = b"".join(response.streaming_content)
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert response.headers["Content-Disposition"] == f'attachment; filename="{taken.public_id}-results.csv"'
    assert downloaded == from_api
    assert len(list(csv.DictReader(io.StringIO(downloaded.decode())))) == 2


def test_the_results_download_writes_formulas_as_text(admin_client, course):
    signer = Reader(course)
    signer.send(hello=True, page=4, seen=[0, 1, 2, 3, 4])
    signer.answer(PASSING)
    signer.sign("x;=1+1;")
    LearnerFactory(course=course, name='a,=HYPERLINK("http://x","y")')

    response = admin_client.get(f"/admin/learners/learner/course/{course.pk}/results.csv")

    document = b"".join(response.streaming_content).decode()
    rows = list(csv.DictReader(io.StringIO(document)))
    assert [(row["name"], row["signedName"]) for row in rows] == [
        ('a,\'=HYPERLINK("http://x","y")', ""),
        ("", "x;'=1+1;"),
    ]
    assert document.startswith('"learnerId","externalId","name",')  # every cell quoted
    assert spreadsheets.formulas(document) == []


def test_the_whole_results_are_read_in_chunks_each_learner_once_newest_first(course):
    # Learners added in the same microsecond are told apart by their id, also across two chunks.
    with time_machine.travel("2026-05-01T10:00:00Z", tick=False):
        earlier = [LearnerFactory(course=course) for _ in range(3)]
    with time_machine.travel("2026-05-01T11:00:00Z", tick=False):
        later = [LearnerFactory(course=course) for _ in range(2)]
    LearnerFactory(course=CourseFactory(api_key=course.api_key))  # another course's

    read = [learner.pk for learner in queries.every_result_of(course, chunk_size=2)]

    assert read == [learner.pk for learner in reversed(later)] + [learner.pk for learner in reversed(earlier)]


def test_the_results_download_needs_a_staff_login(client, taken):
    response = client.get(f"/admin/learners/learner/course/{taken.pk}/results.csv")

    assert response.status_code == 302
    assert response.headers["Location"].startswith("/admin/login/")


# Retention ------------------------------------------------------------------------------------


def test_records_untouched_for_the_retention_period_are_purged(course, settings):
    settings.LEARNER_DATA_RETENTION_DAYS = 30
    long_ago = timezone.now() - datetime.timedelta(days=31)
    lately = timezone.now() - datetime.timedelta(days=29)
    old, recent = Reader(course), Reader(course)
    for reader, name in ((old, "Old Timer"), (recent, "Recent Reader")):
        reader.send(hello=True, page=4, seen=[0, 1, 2, 3, 4])
        reader.answer(FAILING)
        reader.answer(PASSING)
        reader.sign(name)
    old_learner = Learner.objects.get(signed_name="Old Timer")
    Learner.objects.filter(pk=old_learner.pk).update(updated_at=long_ago)
    Learner.objects.exclude(pk=old_learner.pk).update(updated_at=lately)
    WebhookEventFactory(
        account=course.api_key.account, url="https://hooks.example.com/x", payload={"event": "learner.started"},
        subject=old_learner.public_id,
    )

    erased = services.purge_expired()

    assert (erased.learners, erased.quiz_attempts, erased.signoffs, erased.webhook_events) == (1, 2, 1, 1)
    assert list(Learner.objects.values_list("signed_name", flat=True)) == ["Recent Reader"]
    assert QuizAttempt.objects.count() == 2
    assert list(Signoff.objects.values_list("name", flat=True)) == ["Recent Reader"]
    assert not WebhookEvent.objects.exists()


def test_retention_defaults_to_two_years_and_the_daily_task_purges(course, settings):
    reader = Reader(course)
    reader.send(hello=True, page=0)
    Learner.objects.update(updated_at=timezone.now() - datetime.timedelta(days=731))

    result = tasks.purge_expired.delay().get()

    assert settings.LEARNER_DATA_RETENTION_DAYS == 730
    assert result == {"learners": 1, "signoffs": 0}
    assert not Learner.objects.exists()


def test_purging_goes_through_any_number_of_learners_in_batches(course, monkeypatch):
    monkeypatch.setattr(services, "PURGE_BATCH", 2)
    long_ago = timezone.now() - datetime.timedelta(days=800)
    Learner.objects.bulk_create([Learner(course=course, updated_at=long_ago) for _ in range(5)])

    erased = services.purge_expired()

    assert erased.learners == 5
    assert not Learner.objects.exists()
