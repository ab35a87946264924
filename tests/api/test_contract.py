"""
The API keeps its published contract, checked by a tool nobody here wrote: `schemathesis run`
against the live service, with every phase (examples, coverage, fuzzing, stateful) and every check.
The schema-conformance checks hold our answers to the document; `positive_data_acceptance`,
`negative_data_rejection` and `missing_required_header` hold the document to what the server really
accepts and refuses. The run is given real objects of its key to name, so that every operation is
tested past its 404: ids drawn at random name nothing.
"""

import ipaddress
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from accounts import services as account_services
from accounts.models import ApiKey
from core import ratelimit
from tests.support import network
from tests.support.factories import (
    AccountFactory,
    CourseFactory,
    ExportFactory,
    LearnerFactory,
    PlanFactory,
    SourceFactory,
)

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
    # address, which delivery refuses without connecting, and a public address named in one is
    # contacted on a closed network (the run, below). Only the resolver of this process (where the
    # live server runs) is replaced, and only for names: our own services are reached by address.
    real_getaddrinfo = socket.getaddrinfo

    def documentation_address_for_names(host, port, *args, **kwargs):
        if host is None or host == "localhost" or is_address(host):
            return real_getaddrinfo(host, port, *args, **kwargs)
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("192.0.2.1", port or 443))]

    monkeypatch.setattr(socket, "getaddrinfo", documentation_address_for_names)
    account = AccountFactory(plan=PlanFactory(slug="fuzz", name="Fuzz", monthly_course_credits=1_000_000))
    return account_services.issue_key(account=account, name="contract")


def is_address(host) -> bool:
    try:
        ipaddress.ip_address(host.decode() if isinstance(host, bytes) else host)
        return True
    except ValueError:
        return False


@pytest.fixture
def config_with_real_objects(contract_key, tmp_path) -> Path:
    """
    The project's schemathesis configuration, naming real objects of the key for every path
    parameter: a course (classic, every add-on) with its job, its first version and a learner, a
    source, an export to download, and one of each kind to delete, so that a deletion takes nothing
    from the other operations. (The stateful phase also follows the document's links to the jobs and
    courses it makes.)
    """
    api_key = ApiKey.objects.get(key_hash=account_services.hash_key(contract_key))
    course = CourseFactory(api_key=api_key, format="classic")
    ids = {
        "downloadExport": {"export_id": ExportFactory(course=course).public_id},
        "pollJob": {"job_id": course.job.public_id},
        "readCourseVersion": {"course_id": course.public_id, "number": 1},
        "eraseLearner": {"course_id": course.public_id, "learner_id": LearnerFactory(course=course).public_id},
        "revokeExport": {"course_id": course.public_id, "export_id": ExportFactory(course=course).public_id},
        "deleteCourse": {"course_id": CourseFactory(api_key=api_key).public_id},
        "getSource": {"source_id": SourceFactory(api_key=api_key).public_id},
        "deleteSource": {"source_id": SourceFactory(api_key=api_key).public_id},
    }
    for operation in (
        "readCourse", "updateCourse", "replaceCourseContent", "patchCourseContent", "exportCourse", "addLearner",
        "getCourseQuality", "regenerateCoursePart", "listCourseResults", "listCourseVersions",
    ):
        ids[operation] = {"course_id": course.public_id}
    config = tmp_path / "schemathesis.toml"
    config.write_text(
        (ROOT / "schemathesis.toml").read_text()
        + "".join(
            f'\n[[operations]]\ninclude-operation-id = "{operation}"\nparameters = {{ '
            + ", ".join(f"{name} = {json.dumps(value)}" for name, value in parameters.items())
            + " }\n"
            for operation, parameters in ids.items()
        )
    )
    return config


def test_schemathesis_finds_no_difference_between_the_document_and_the_service(
    live_server, contract_key, config_with_real_objects
):
    with network.closed():
        run = run_schemathesis(live_server=live_server, contract_key=contract_key, config=config_with_real_objects)

    # Exits non-zero on any failure and on every warning but those schemathesis.toml explains.
    assert run.returncode == 0, run.stdout[-20_000:] + run.stderr[-5_000:]
    assert "Failures:" not in run.stdout, run.stdout[-20_000:]
    # Every operation was tested past its 404, and the stateful phase followed the document's links.
    assert "Missing test data" not in run.stdout, run.stdout[-20_000:]
    assert "No tests were run" not in run.stdout, run.stdout[-20_000:]


def run_schemathesis(*, live_server, contract_key: str, config: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            str(SCHEMATHESIS), "--config-file", str(config),
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
        timeout=1200,  # a limit on how long it may run, never an assertion
        # Files of each kind the upload takes, for its multipart body (see tests/support/contract_hooks.py).
        env={**os.environ, "SCHEMATHESIS_HOOKS": "tests.support.contract_hooks", "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
    )
