"""
The service behind each pooler of docs/run/deployment.md ("Which pooler"), with real processes (the
Procfile's web, worker and beat): PgBouncer in transaction mode (Debian 12's, 1.18, without
prepared statements) in front of the test database, handing each transaction the other of its two
server connections (tests/support/pgbouncer.py).
"""

import psycopg
import pytest

pytestmark = [pytest.mark.worker]


def test_the_tests_pgbouncer_runs_each_transaction_of_a_client_on_the_other_server_connection(pgbouncer):
    with psycopg.connect(pgbouncer.url, autocommit=True) as client:
        backends = [client.execute("SELECT pg_backend_pid()").fetchone()[0] for _ in range(4)]

    [pool] = [row for row in pgbouncer.show("POOLS") if row["database"] == pgbouncer.database]
    assert pool["pool_mode"] == "transaction"
    assert backends[0] == backends[2] != backends[1] == backends[3]
