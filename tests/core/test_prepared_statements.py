"""A statement run again on a connection is prepared, and planned no more (DB_PREPARED_STATEMENTS)."""

import pytest
from django.db import connection

pytestmark = pytest.mark.django_db


def prepared_for_a_poll() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        statements = [row[0] for row in cursor.fetchall()]
    key = [sql for sql in statements if '"accounts_apikey"."key_hash" = $1' in sql]
    job = [sql for sql in statements if '"courses_generationjob"."public_id" = $' in sql]
    return key + job


def test_a_poll_is_planned_again_only_until_its_statements_are_prepared(api_client, course):
    poll = f"/api/v1/courses/jobs/{course.job.public_id}"

    answers = [api_client.get(poll)]
    after_one = prepared_for_a_poll()
    answers.append(api_client.get(poll))
    after_two = prepared_for_a_poll()
    answers.append(api_client.get(poll))

    assert [answer.status_code for answer in answers] == [200, 200, 200]
    assert after_one == []
    assert len(after_two) == 2  # the key's lookup and the job's
    assert prepared_for_a_poll() == after_two  # the third poll used them, and prepared nothing new
