"""
The manual keeps up with the API: its endpoints page names every operation of the OpenAPI document
(and no other), and its errors page every error code with its status, and every failure code of jobs
and sources; the README and the manual name add-ons by their values.
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
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


def test_the_readme_and_the_manuals_home_name_every_add_on_by_its_value(document):
    # They said "exercises", and clients sent it: the value is `practical-exercises`.
    add_ons = document["components"]["schemas"]["AddOnsEnum"]["enum"]

    for page in (ROOT / "README.md", DOCS / "index.md"):
        opening = page.read_text().split("\n\n")[1]
        assert [value for value in add_ons if f"`{value}`" not in opening] == [], page.name


def test_every_add_on_the_readme_and_the_manual_send_is_one_the_api_takes(document):
    add_ons = set(document["components"]["schemas"]["AddOnsEnum"]["enum"])
    pages = [ROOT / "README.md", *DOCS.rglob("*.md"), *(ROOT / "examples").glob("*.py")]

    sent = {
        (page.name, value)
        for page in pages
        for listed in re.findall(r'"addOns": \[([^\]]*)\]', page.read_text())
        for value in re.findall(r'"([^"]*)"', listed)
    }

    assert sent and {(page, value) for page, value in sent if value not in add_ons} == set()
