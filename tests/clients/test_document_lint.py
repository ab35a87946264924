"""
The document as client generators read it: the live document passes Spectral (`spectral:oas`) and
Redocly CLI (`recommended`) without an error or a warning; a rule turned down says why in
.spectral.yaml or redocly.yaml. Both generators read all of it, with no configuration of what it
says, and a warning of either fails the generation. (openapi-spec-validator: tests/api/test_openapi.py.)
"""

import copy
import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.support.clients.drivers import PACKAGE
from tests.support.clients.tools import ROOT, run

NODE_BIN = ROOT / "node_modules" / ".bin"


@pytest.fixture(scope="module")
def document_file(live_document, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("document") / "openapi.json"
    path.write_bytes(live_document)
    return path


def test_spectral_finds_nothing(document_file):
    done = run(
        [
            NODE_BIN / "spectral",
            "lint",
            "--ruleset",
            ROOT / ".spectral.yaml",
            "--format",
            "json",
            "--quiet",
            "--fail-severity",
            "hint",
            document_file,
        ]
    )

    assert json.loads(done.stdout or "[]") == []


def test_redocly_finds_nothing(document_file):
    # No usage report and no look for a newer version: nothing leaves the machine.
    quiet = {**os.environ, "REDOCLY_TELEMETRY": "off", "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true"}

    done = run(
        [NODE_BIN / "redocly", "lint", "--config", ROOT / "redocly.yaml", "--format", "json", document_file],
        env=quiet,
    )

    report = json.loads(done.stdout)
    assert report["totals"] == {"errors": 0, "warnings": 0, "ignored": 0}
    assert report["problems"] == []


def test_the_linters_do_find_what_the_document_used_to_have(document_file, tmp_path):
    """The linters run on the document for real: the flaws this document no longer has are found."""
    document = json.loads(document_file.read_text())
    del document["info"]["contact"], document["info"]["license"], document["tags"]
    for hook in document["webhooks"].values():
        del hook["post"]["security"], hook["post"]["operationId"]
    flawed = tmp_path / "flawed.json"
    flawed.write_text(json.dumps(document))

    spectral = run(
        [
            NODE_BIN / "spectral",
            "lint",
            "--ruleset",
            ROOT / ".spectral.yaml",
            "--format",
            "json",
            "--quiet",
            "--fail-severity",
            "error",
            flawed,
        ]
    )
    redocly = run(
        [NODE_BIN / "redocly", "lint", "--config", ROOT / "redocly.yaml", "--format", "json", flawed],
        env={**os.environ, "REDOCLY_TELEMETRY": "off", "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true"},
        check=False,
    )

    assert {"info-contact", "operation-tag-defined"} <= {
        result["code"] for result in json.loads(spectral.stdout)
    }
    assert {"info-license", "security-defined", "operation-operationId"} <= {
        problem["ruleId"] for problem in json.loads(redocly.stdout)["problems"]
    }


def generate_clients(document: dict, tmp_path) -> subprocess.CompletedProcess:
    path = tmp_path / "openapi.json"
    path.write_text(json.dumps(document))
    return run([ROOT / "scripts" / "generate-clients.sh", path, tmp_path / "clients"], check=False)


def test_both_generators_read_the_whole_document_without_a_warning(document_file, tmp_path):
    done = generate_clients(json.loads(document_file.read_text()), tmp_path)

    assert (done.returncode, done.stderr) == (0, "")
    # The download is read as bytes: the package, not left out of the client.
    download = (tmp_path / "clients" / "python" / PACKAGE / "api" / "downloads" / "download_export.py").read_text()
    assert "File(payload=BytesIO(response.content))" in download


def zip_only_download(document: dict) -> dict:
    # What the document used to say: openapi-python-client reads no answer as bytes but application/octet-stream.
    answer = document["paths"]["/downloads/{export_id}"]["get"]["responses"]["200"]
    answer["content"] = {"application/zip": answer["content"]["application/zip"]}
    return document


def enum_of_objects_in_a_webhook(document: dict) -> dict:
    # Only @hey-api/openapi-ts reads webhooks, and it warns of an enum value that is an object.
    hook = copy.deepcopy(next(iter(document["webhooks"].values())))
    hook["post"]["operationId"] = "notifySomethingOdd"
    hook["post"]["requestBody"] = {
        "content": {"application/json": {"schema": {"type": "object", "properties": {"kind": {"enum": ["a", {"b": 1}]}}}}}
    }
    document["webhooks"]["something.odd"] = hook
    return document


@pytest.mark.parametrize(
    "flaw, warning",
    [
        (zip_only_download, "Unsupported content_type application/zip"),
        (enum_of_objects_in_a_webhook, '@hey-api/openapi-ts warned:\n🚨 unhandled "object" typeof value'),
    ],
)
def test_a_warning_of_either_generator_fails_the_generation(document_file, tmp_path, flaw, warning):
    done = generate_clients(flaw(json.loads(document_file.read_text())), tmp_path)

    assert done.returncode == 1
    assert warning in done.stderr
