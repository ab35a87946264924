"""
Races between two database sessions made to happen in one chosen order: a change started from
another thread right after a request's given query, the request going on once that change waits
for one of its locks (or has ended, when nothing held it back).
"""

import threading
import time

import psycopg
from django.db import connection


def second_session() -> psycopg.Connection:
    """A connection of its own to the test database, to watch the others or hold a transaction open."""
    database = connection.settings_dict
    return psycopg.connect(
        host=database["HOST"], port=database["PORT"], user=database["USER"], dbname=database["NAME"],
        password=database["PASSWORD"] or None,
    )


def waiting_for_a_lock(connection_) -> bool:
    """Whether a session of this database waits for a lock."""
    return sessions_waiting_for_a_lock(connection_) > 0


def sessions_waiting_for_a_lock(connection_) -> int:
    """How many sessions of this database wait for a lock (the statistics read afresh, not as the
    transaction first saw them)."""
    connection_.execute("SELECT pg_stat_clear_snapshot()")
    return connection_.execute(
        "SELECT count(*) FROM pg_stat_activity"
        " WHERE datname = current_database() AND wait_event_type = 'Lock'"
    ).fetchone()[0]


def changed_meanwhile(*, after_query_with: str, change, request):
    """
    `request()`, with `change()` run in another thread (its own connection) right after the first of
    request's queries whose SQL holds `after_query_with`; request goes on once change waits for a
    lock or has ended. Returns (what request returned, what change returned), change joined.
    """
    outcome = {}

    def run_change():
        try:
            outcome["change"] = change()
        finally:
            connection.close()

    changing = threading.Thread(target=run_change)

    def start_change_after_the_query(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if after_query_with in sql and not changing.is_alive() and "started" not in outcome:
            outcome["started"] = True
            changing.start()
            with second_session() as watching:
                while changing.is_alive() and not waiting_for_a_lock(watching):
                    changing.join(0.05)
        return result

    with connection.execute_wrapper(start_change_after_the_query):
        answer = request()
    assert "started" in outcome, f"no query of the request holds {after_query_with!r}"
    changing.join(timeout=60)  # a bound, to fail rather than hang: the change ends once request has
    assert not changing.is_alive(), "the change is still waiting"
    return answer, outcome.get("change")


def run_until_they_wait(holding, *calls) -> list[threading.Thread]:
    """
    Each call on a thread of its own (its connection closed at its end), started while `holding`
    keeps a transaction open; returns once every one waits for a lock (or has ended), so that the
    test decides when they go on by ending that transaction. Join the threads after.
    """

    def closing(call):
        def run():
            try:
                call()
            finally:
                connection.close()

        return run

    threads = [threading.Thread(target=closing(call)) for call in calls]
    for thread in threads:
        thread.start()
    while any(thread.is_alive() for thread in threads):
        if sessions_waiting_for_a_lock(holding) >= len(threads):
            break
        time.sleep(0.05)
    return threads
