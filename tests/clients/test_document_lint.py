"""
The document as client generators read it: the live document passes Spectral (`spectral:oas`) and
Redocly CLI (`recommended`) without an error or a warning; a rule turned down says why in
.spectral.yaml or redocly.yaml. (openapi-spec-validator: tests/api/test_openapi.py.)
"""

import json
import os
from pathlib import Path

import pytest

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
