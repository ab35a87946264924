import threading

import pytest
from django.db import connection

from accounts import services
from accounts.models import UsagePeriod
from courses import jobs
from courses.models import GenerationJob
from tests.support.errors import refusal
from tests.support.factories import AccountFactory, PlanFactory, UsagePeriodFactory
from tests.support.keys import client_for


@pytest.fixture
def starter_account(db):
    return AccountFactory(plan=PlanFactory(slug="starter", name="Starter", monthly_course_credits=10))


def create(client):
    return client.post("/api/v1/courses", {"subject": "Intro to SQL"}, format="json")


def test_accepting_a_course_consumes_one_credit(account, api_client):
    response = create(api_client)

    assert response.status_code == 202
    assert services.usage_for(account=account).used == 1


def test_no_credit_left_is_403_naming_the_plan_without_job_or_charge(starter_account):
    UsagePeriodFactory(account=starter_account, courses_used=10)
    client = client_for(services.issue_key(account=starter_account))

    response = create(client)

    assert response.status_code == 403
    assert refusal(response) == {
        "message": "Monthly course credits used up for your plan (Starter). "
        "Wait for the next billing period or upgrade your plan.",
        "code": "USAGE_LIMIT_EXCEEDED_PLAN",
    }
    assert GenerationJob.objects.count() == 0
    assert services.usage_for(account=starter_account).used == 10


def test_a_paid_plan_with_no_allowance_is_refused_too(db):
    account = AccountFactory(plan=PlanFactory(slug="trial", name="Trial", monthly_course_credits=0))

    response = create(client_for(services.issue_key(account=account)))

    assert response.status_code == 403
    assert response.json()["code"] == "USAGE_LIMIT_EXCEEDED_PLAN"
    assert "(Trial)" in response.json()["message"]


def test_a_failed_job_gives_its_credit_back(account, api_client):
    job = GenerationJob.objects.get(public_id=create(api_client).json()["jobId"])

    jobs.fail_job(job_id=job.pk, attempt=None, code="GENERATION_FAILED", message="No.")

    assert services.usage_for(account=account).used == 0


def test_credits_start_over_each_calendar_month_in_utc(starter_account, time_machine):
    client = client_for(services.issue_key(account=starter_account))
    time_machine.move_to("2026-05-31T23:59:00Z", tick=False)
    UsagePeriodFactory(account=starter_account, courses_used=10)
    refused_in_may = create(client)

    time_machine.move_to("2026-06-01T00:00:01Z", tick=False)
    accepted_in_june = create(client)

    assert refused_in_may.status_code == 403
    assert accepted_in_june.status_code == 202
    assert services.usage_for(account=starter_account).used == 1
    assert UsagePeriod.objects.get(account=starter_account, period_date="2026-05-01").courses_used == 10


def test_refund_goes_back_to_the_month_that_was_charged(starter_account, time_machine):
    time_machine.move_to("2026-05-31T23:59:00Z", tick=False)
    period = services.charge_credit(account=starter_account)

    time_machine.move_to("2026-06-01T00:10:00Z", tick=False)
    services.charge_credit(account=starter_account)
    services.refund_credit(account_id=starter_account.pk, period_date=period)

    assert UsagePeriod.objects.get(account=starter_account, period_date="2026-05-01").courses_used == 0
    assert UsagePeriod.objects.get(account=starter_account, period_date="2026-06-01").courses_used == 1


@pytest.mark.parametrize("used", [5, None], ids=["some-used", "first-of-the-month"])
@pytest.mark.django_db(transaction=True)
def test_exactly_the_credits_left_are_accepted_under_concurrency(settings, used):
    account = AccountFactory(plan=PlanFactory(slug="starter", name="Starter", monthly_course_credits=10))
    if used is not None:  # else the month's row is made by the first of the racing requests
        UsagePeriodFactory(account=account, courses_used=used)
    left = 10 - (used or 0)
    plain_key = services.issue_key(account=account)
    requests = 24
    start = threading.Barrier(requests)
    statuses = []

    def one_request():
        try:
            client = client_for(plain_key)
            start.wait()
            statuses.append(create(client).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=one_request) for _ in range(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(statuses) == [202] * left + [403] * (requests - left)
    assert services.usage_for(account=account).used == 10
    assert GenerationJob.objects.count() == left
