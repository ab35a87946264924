"""
The API keeps its published contract: schemathesis generates requests from /api/v1/openapi.json and
checks every answer against it — no server errors, documented status codes, headers and bodies.
"""

import socket

import hypothesis
import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from schemathesis.specs.openapi import checks

from accounts import services as account_services
from courses.models import Export
from tests.factories import AccountFactory, PlanFactory

CHECKS = [
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_schema_conformance,
    checks.response_headers_conformance,
]
EXAMPLES = hypothesis.settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(hypothesis.HealthCheck),
)


@pytest.fixture
def contract_key(transactional_db, settings, monkeypatch):
    # Fuzzing sends far more than a customer may: raise the limits (the limiter still runs) and give
    # the key plenty of credits.
    settings.RATE_LIMIT_CREATE = settings.RATE_LIMIT_EXPORT = settings.RATE_LIMIT_POLL = 1_000_000
    # Generated callback URLs name random hosts: every such name resolves to a documentation
    # address, which delivery refuses without connecting. Only the resolver is replaced, and only
    # for names: our own services are reached by IP address.
    real_getaddrinfo = socket.getaddrinfo

    def documentation_address_for_names(host, port, *args, **kwargs):
        if host is None or host[:1].isdigit() or ":" in str(host):
            return real_getaddrinfo(host, port, *args, **kwargs)
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("192.0.2.1", port or 443))]

    monkeypatch.setattr(socket, "getaddrinfo", documentation_address_for_names)
    account = AccountFactory(plan=PlanFactory(slug="fuzz", name="Fuzz", monthly_course_credits=1_000_000))
    return account_services.issue_key(account=account, name="contract")


# The document is generated from the code without touching the database, so it loads at import.
schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", get_wsgi_application())


@schema.parametrize()
@EXAMPLES
def test_every_operation_keeps_the_contract(case, contract_key):
    case.call_and_validate(headers={"Authorization": f"Bearer {contract_key}"}, checks=CHECKS)


def test_create_poll_export_workflow_keeps_the_contract(contract_key):
    class Workflow(schema.as_state_machine()):
        def get_call_kwargs(self, case):
            return {"headers": {"Authorization": f"Bearer {contract_key}"}}

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            case.validate_response(response, checks=CHECKS, transport_kwargs=kwargs)

    Workflow.run(
        settings=hypothesis.settings(
            max_examples=25,
            stateful_step_count=5,
            deadline=None,
            derandomize=True,
            suppress_health_check=list(hypothesis.HealthCheck),
        )
    )

    # The links were followed all the way: jobs were polled to completion and their courses exported.
    assert Export.objects.exists()
