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


def test_the_deployment_page_lists_every_process_of_the_procfile_and_no_other():
    procfile = {line.split(":", 1)[0] for line in (ROOT / "Procfile").read_text().splitlines() if ":" in line}
    page = (DOCS / "run" / "deployment.md").read_text()
    table = page.split("## The processes and what each needs", 1)[1].split("\n## ", 1)[0]

    assert set(re.findall(r"^\| `(\w+)` \|", table, re.M)) == procfile


def test_the_deployment_page_describes_the_machines_the_drill_starts():
    page = (DOCS / "run" / "deployment.md").read_text()
    section = page.split("## Many machines", 1)[1].split("\n## ", 1)[0]
    drill = (ROOT / "tests" / "project" / "test_many_machines.py").read_text()

    assert "tests/project/test_many_machines.py" in section
    # What the drill starts, and what the page says it starts.
    started = {
        "two web machines": drill.count(".start_web()") == 2,
        "one through PgBouncer": "pgbouncer.service_settings()" in drill,
        "worker and webhooks": 'start_worker("worker")' in drill and 'queue="webhooks"' in drill,
        "a second beat": drill.count(".start_beat(") == 2,
        "a cache database": "CACHE_REDIS_URL" in drill,
        "an object store": "store_environment(" in drill,
    }
    assert all(started.values()), started
    said = " ".join(section.split())
    for phrase in ("The drill runs two, one of them through PgBouncer in transaction mode",
                   "`worker` and `webhooks`", "a second `beat`", "The drill uses two databases of one Redis",
                   "The drill uses an S3-API server on loopback", "The same drill without `STORAGE_BUCKET`"):
        assert phrase in said, phrase
