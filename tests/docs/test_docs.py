"""
The manual keeps up with the API: its endpoints page names every operation of the OpenAPI document
(and no other), and its errors page every error code with its status, and every failure code of jobs
and sources.
"""

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
HTTP_METHODS = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}


@pytest.fixture
def document(client):
    return client.get("/api/v1/openapi.json").json()


def enum_meanings(document: dict, schema: str) -> dict[str, str]:
    """The values of an enum schema with what its description says of each (`* `CODE` - meaning`)."""
    description = document["components"]["schemas"][schema]["description"]
    return dict(re.findall(r"^\* `(\w+)` - (.+)$", description, re.M))


def test_endpoints_page_names_every_operation_and_no_other(document):
    page = (DOCS / "api" / "endpoints.md").read_text()
    operations = {
        f"{method.upper()} {path}"
        for path, item in document["paths"].items()
        for method in item
        if method in HTTP_METHODS
    }

    named = set(re.findall(r"^\| `([A-Z]+ /[^`]*)` \|", page, re.M))

    assert operations - named == set(), "operations the endpoints page does not name"
    assert named - operations == set(), "rows of the endpoints page that are no operation"


def test_errors_page_lists_every_error_code_with_its_status(document):
    page = (DOCS / "api" / "errors.md").read_text()
    meanings = enum_meanings(document, "ErrorCodeEnum")

    listed = dict((code, int(status)) for status, code in re.findall(r"^\| (\d{3}) \| `(\w+)` \|", page, re.M))

    assert set(meanings) == set(document["components"]["schemas"]["ErrorCodeEnum"]["enum"])
    assert listed == {code: int(meaning[:3]) for code, meaning in meanings.items()}


def test_errors_page_lists_every_failure_code_of_jobs_and_sources(document):
    page = (DOCS / "api" / "errors.md").read_text()
    jobs_part = page[page.index("\n## Failure codes of jobs\n") : page.index("\n## Failure codes of sources\n")]
    sources_part = page[page.index("\n## Failure codes of sources\n") : page.index("\n## Outside the API\n")]

    job_codes = set(re.findall(r"^\| `(\w+)` \|", jobs_part, re.M))
    source_codes = set(re.findall(r"`(\w+)`", sources_part))

    assert job_codes == set(document["components"]["schemas"]["JobErrorCodeEnum"]["enum"])
    assert set(document["components"]["schemas"]["SourceErrorCodeEnum"]["enum"]) <= source_codes
