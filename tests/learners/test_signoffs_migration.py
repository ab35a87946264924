"""
Sign-offs recorded from a browser that named no learner, before the service refused them, are each
given a learner by the migration: the client lists them in the results and erases them, retention
and the course's deletion reach them, and no sign-off can be stored without its learner again.
"""

import datetime

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from learners import services
from learners.models import Learner, Signoff
from webhooks.models import WebhookEvent

BEFORE = ("learners", "0005_signoffs_move_here")
SIGNED_AT = datetime.datetime(2026, 3, 2, 9, 30, tzinfo=datetime.UTC)


def signed_without_a_learner(course, names: list[str]) -> list[str]:
    """Sign-offs stored as the service stored them from a browser naming no learner; their ids."""
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    historical = executor.loader.project_state([BEFORE]).apps.get_model("learners", "Signoff")
    made = [historical.objects.create(course_id=course.pk, name=name, ip_hash="0" * 64, signed_at=SIGNED_AT) for name in names]
    latest = MigrationExecutor(connection)
    latest.migrate(latest.loader.graph.leaf_nodes())
    return [signoff.public_id for signoff in made]


@pytest.fixture
def migrated_back():
    yield
    latest = MigrationExecutor(connection)
    latest.migrate(latest.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_each_signoff_without_a_learner_is_given_one_the_client_lists_and_erases(
    api_client, course, migrated_back
):
    ada_signoff, grace_signoff = signed_without_a_learner(course, ["Ada Lovelace", "Grace Hopper"])

    results = api_client.get(f"/api/v1/courses/{course.public_id}/results").json()["results"]
    ada = Signoff.objects.get(public_id=ada_signoff).learner
    erased = api_client.delete(f"/api/v1/courses/{course.public_id}/learners/{ada.public_id}")

    assert sorted((row["signedName"], row["signedAt"], row["externalId"], row["completedAt"]) for row in results) == [
        ("Ada Lovelace", "2026-03-02T09:30:00.000Z", None, None),
        ("Grace Hopper", "2026-03-02T09:30:00.000Z", None, None),
    ]
    assert erased.status_code == 200
    assert erased.json()["erased"] == {"learner": 1, "quizAttempts": 0, "signoffs": 1, "webhookEvents": 0}
    assert list(Signoff.objects.values_list("public_id", flat=True)) == [grace_signoff]
    assert not WebhookEvent.objects.exists()  # a sign-off of long ago is not told as news
    assert not Learner.objects.filter(events_pending=True).exists()


@pytest.mark.django_db(transaction=True)
def test_retention_deletes_them_as_long_after_their_signing_as_before(course, settings, migrated_back):
    signed_without_a_learner(course, ["Ada Lovelace"])
    settings.LEARNER_DATA_RETENTION_DAYS = 30

    kept = services.purge_expired(now=SIGNED_AT + datetime.timedelta(days=29))
    purged = services.purge_expired(now=SIGNED_AT + datetime.timedelta(days=31))

    assert (kept.learners, kept.signoffs) == (0, 0)
    assert (purged.learners, purged.signoffs) == (1, 1)
    assert not Signoff.objects.exists() and not Learner.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_deleting_the_course_deletes_them(api_client, course, migrated_back):
    signed_without_a_learner(course, ["Ada Lovelace"])

    deleted = api_client.delete(f"/api/v1/courses/{course.public_id}")

    assert deleted.status_code == 204
    assert not Signoff.objects.exists() and not Learner.objects.exists()


@pytest.mark.django_db
def test_a_signoff_cannot_be_stored_without_its_learner(course):
    with pytest.raises(IntegrityError), transaction.atomic():
        Signoff.objects.create(course=course, name="Nobody", ip_hash="0" * 64, signed_at=timezone.now())
