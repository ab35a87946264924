"""
The API keeps its published contract, checked by a tool nobody here wrote: `schemathesis run`
against the live service, with every phase (examples, coverage, fuzzing, stateful) and every check.
The schema-conformance checks hold our answers to the document; `positive_data_acceptance` and
`negative_data_rejection` hold the document to what the server really accepts and refuses.
"""

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from accounts import services as account_services
from accounts.models import ApiKey
from core import ratelimit
from exports import services as exports
from exports.models import Export
from tests.support.factories import AccountFactory, CourseFactory, PlanFactory

SCHEMATHESIS = Path(sys.executable).parent / "schemathesis"
ROOT = Path(__file__).resolve().parents[2]
# Fixed, so that a run is reproducible; change it to explore other inputs.
SEED = "20261122"


@pytest.fixture
def contract_key(live_server, settings, monkeypatch):
    # Fuzzing sends far more than a customer may: raise the limits (the limiter still runs) and give
    # the key plenty of credits.
    for scope in ratelimit.SCOPES:
        setattr(settings, f"RATE_LIMIT_{scope.upper()}", 1_000_000)
    # Generated callback URLs name random hosts: every such name resolves to a documentation
    # address, which delivery refuses without connecting. Only the resolver of this process (where
    # the live server runs) is replaced, and only for names: our own services are reached by address.
    real_getaddrinfo = socket.getaddrinfo

    def documentation_address_for_names(host, port, *args, **kwargs):
        if host is None or host[:1].isdigit() or ":" in str(host) or host == "localhost":
            return real_getaddrinfo(host, port, *args, **kwargs)
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("192.0.2.1", port or 443))]

    monkeypatch.setattr(socket, "getaddrinfo", documentation_address_for_names)
    account = AccountFactory(plan=PlanFactory(slug="fuzz", name="Fuzz", monthly_course_credits=1_000_000))
    return account_services.issue_key(account=account, name="contract")


@pytest.fixture
def config_with_a_download(contract_key, tmp_path) -> Path:
    """The project's schemathesis configuration, naming one real export: download links cannot be
    followed from an export record (the id is inside `downloadUrl`), and random ids only ever find
    the 404."""
    api_key = ApiKey.objects.get(key_hash=account_services.hash_key(contract_key))
    course = CourseFactory(api_key=api_key)
    export = exports.export_course(api_key=api_key, course_public_id=course.public_id, format="scorm12")
    config = tmp_path / "schemathesis.toml"
    config.write_text(
        (ROOT / "schemathesis.toml").read_text()
        + '\n[[operations]]\ninclude-name = "GET /downloads/{export_id}"\n'
        f'parameters = {{ export_id = "{export.public_id}" }}\n'
    )
    return config


def test_schemathesis_finds_no_difference_between_the_document_and_the_service(
    live_server, contract_key, config_with_a_download
):
    run = subprocess.run(
        [
            str(SCHEMATHESIS), "--config-file", str(config_with_a_download),
            "run", f"{live_server.url}/api/v1/openapi.json",
            "--phases", "examples,coverage,fuzzing,stateful",
            "--checks", "all",
            "--header", f"Authorization: Bearer {contract_key}",
            "--max-examples", "60",
            "--seed", SEED,
            "--workers", "1",
            "--generation-database", "none",  # no examples remembered from an earlier run
            "--no-color",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        # Files of each kind the upload takes, for its multipart body (see tests/support/contract_hooks.py).
        env={**os.environ, "SCHEMATHESIS_HOOKS": "tests.support.contract_hooks", "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
    )

    # Exits non-zero on any failure and on every warning but the one schemathesis.toml explains.
    assert run.returncode == 0, run.stdout[-20_000:] + run.stderr[-5_000:]
    assert "Failures:" not in run.stdout, run.stdout[-20_000:]
    # The stateful phase followed the links all the way: jobs polled, their courses exported.
    assert Export.objects.exists()
